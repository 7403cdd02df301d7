//! Integration tests: select.
