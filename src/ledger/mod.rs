//! The run ledger: every run's counts kept as JSON lines, one per test and
//! condition, so that history needs no server (docs/src/concepts/history.md).
//!
//! `record` is the line's schema, `records` turns an analyzed report into
//! lines, `store` appends under a lock with rotation, `read` streams files
//! and folders of lines back (skipping torn and unknown lines with a problem
//! naming file and line), and `history` summarizes them per test, rendered
//! by `render`. Below `commands/`: no clap here; it reads `analyze`'s report
//! types and `stats`.

pub mod history;
pub mod read;
pub mod record;
pub mod records;
pub mod render;
pub mod store;

pub use record::{Condition, Context, Origin, Record, Repetition, SCHEMA};
pub use records::{records_of, RunMeta};
pub use store::{append_to_dir, append_to_file, local_dir, Limits};

#[cfg(test)]
mod store_tests;
