//! Integration tests: layout.
