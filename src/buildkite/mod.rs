//! Buildkite's own formats and edges, over the CI core (`ci`):
//!
//! - [`upload`]: a selection, planned (`ci::prepare`), becomes a sub-pipeline
//!   ([`pipeline`]) and is uploaded through the agent ([`agent`]);
//! - [`wrap`]: each batch step's never-fail wrapper (`ci::batch`): the job
//!   from the agent's environment, the batch from the step's `env`, a
//!   failure as an annotation;
//! - [`report`]: the final step, which fetches the status files and each
//!   job's XML as artifacts and turns their findings (`ci::findings`) into
//!   `flakiness-outcomes.json` and the annotation;
//! - [`triage`]: the optional step after it, which replays the failing tests
//!   and posts what kind of flaky each one is.

pub(crate) mod agent;
pub(crate) mod pipeline;
pub(crate) mod report;
pub(crate) mod triage;
pub(crate) mod upload;
pub(crate) mod wrap;

pub(crate) use pipeline::AgentConfig;
