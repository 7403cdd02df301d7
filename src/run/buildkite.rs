//! See `run`.
