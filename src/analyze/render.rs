//! See `analyze`.
