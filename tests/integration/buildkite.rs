//! Integration tests: buildkite.
