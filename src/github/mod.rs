//! GitHub Actions: the flakiness check as a workflow of three jobs (plan, a
//! matrix of batches, analyze). Only GitHub's own formats live here; the rest
//! is the CI core (`ci`): planning (`ci::prepare`), the never-fail batch
//! runner (`ci::batch`), the status file and the report step's core
//! (`ci::findings`), and job outcomes (`analyze::outcome`).
//!
//! - [`workflow`]: the workflow file (`github workflow`), written by [`yaml`],
//!   from the settings [`request`] checks;
//! - [`matrix`]: the plan job (`pr|manual --target github`): the matrix
//!   output and `flakiness-plan.json`;
//! - [`batch`]: one matrix job (`github run --batch N`);
//! - [`summary`]: the final job (`github analyze`): job summary, outcomes;
//! - [`annotations`]: `::error`/`::warning` workflow commands, placed on the
//!   tests' sources;
//! - [`runner`]: `$GITHUB_OUTPUT`, `$GITHUB_STEP_SUMMARY`, untrusted log text.

pub(crate) mod annotations;
pub(crate) mod batch;
pub(crate) mod matrix;
pub(crate) mod request;
pub(crate) mod runner;
pub(crate) mod summary;
pub(crate) mod workflow;
pub mod yaml;
