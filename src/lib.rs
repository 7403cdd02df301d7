//! gradle-flaky: select, plan, run and analyze re-runs of a Gradle monorepo's
//! tests to find flaky ones.
//!
//! The pipeline is `select` → `plan` → `run` → `analyze`; `local` runs it on
//! this machine as one use case, `compare` (`local --compare REF`) runs
//! it on REF and here, and `bisect` on the commits between a good and a bad
//! one. Selection, planning and analysis are pure functions of
//! their inputs; git, Gradle, files, processes and Buildkite are touched only
//! in `commands` (the entry points), `layout`, `git`, `run`, `local`,
//! `compare`, `bisect`, the ledger's store (`ledger`: every run's counts, and history),
//! `durations` (what earlier runs measured), and the CI modules (`ci`, the
//! core every CI shares, under the adapters `buildkite` and `github`).
//! `condition`, `invocation`, `reports`, `shell`, `stats`, `markdown`,
//! `test_filter`, `vars` and the other single files are leaves: each holds one
//! rule several stages share.
//!
//! The tool reimplements and extends Elasticsearch's flakiness detection
//! (`.buildkite/scripts/flakiness-detection/` in elastic/elasticsearch): its
//! selectors, batching, step keys, status and outcome files, and the REST
//! loop `repeat-rest-test.sh`. Where a comment calls a rule, default or field
//! order "Elasticsearch's", it means that tool's; where ours differs, the
//! comment says how.

pub mod analyze;
pub mod bisect;
pub(crate) mod buildkite;
pub(crate) mod ci;
pub mod cli;
pub mod commands;
pub(crate) mod compare;
pub mod condition;
pub mod domain;
pub(crate) mod durations;
pub(crate) mod error;
pub(crate) mod git;
pub mod github;
pub(crate) mod hex;
pub(crate) mod html;
pub(crate) mod invocation;
pub mod jvm_options;
pub mod layout;
pub mod ledger;
pub(crate) mod local;
pub(crate) mod markdown;
pub mod output;
pub mod plan;
pub(crate) mod process;
pub(crate) mod reports;
pub(crate) mod run;
pub mod select;
pub(crate) mod settings;
pub mod shell;
pub(crate) mod stats;
pub(crate) mod terminal;
pub(crate) mod test_filter;
pub(crate) mod time;
pub mod triage;
pub(crate) mod vars;

pub use error::{Error, Exit, Observed, Result};
