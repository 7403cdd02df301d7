//! gradle-flaky: select, plan, run and analyze re-runs of a Gradle monorepo's
//! tests to find flaky ones.
//!
//! The pipeline is `select` → `plan` → `run` → `analyze`. Selection, planning and
//! analysis are pure functions of their inputs; git, Gradle, files, processes and
//! Buildkite are touched only in `commands` (the entry points), `layout`, `git`
//! and `run`.

pub mod analyze;
pub mod cli;
pub mod commands;
pub mod domain;
pub mod error;
pub mod git;
pub mod layout;
pub mod plan;
pub mod run;
pub mod select;

pub use error::{Error, Exit, Result};
