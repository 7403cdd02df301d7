//! Buildkite: everything the tool knows of it, in one place.
//!
//! - [`upload`]: a selection, planned, becomes a sub-pipeline ([`pipeline`]) and
//!   is uploaded through the agent ([`agent`]);
//! - [`wrap`]: the never-fail wrapper each batch job runs, which records the
//!   job's rc, duration and heap dumps in a status file;
//! - [`report`]: the final step, which turns status files and each job's XML
//!   into `flakiness-outcomes.json` and the annotation;
//! - [`triage`]: the optional step after it, which replays the failing tests
//!   and posts what kind of flaky each one is.
//!
//! The job-outcome taxonomy (clean pass, flaky, timeout, hang, infrastructure
//! failure: rc 124/137 and heap-dump rules) is `analyze::outcome`: `local`
//! judges its batches by the same rules.

pub mod agent;
pub mod pipeline;
pub mod report;
pub mod triage;
pub mod upload;
pub mod wrap;

pub use pipeline::AgentConfig;
