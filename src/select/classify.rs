//! See `select`.
