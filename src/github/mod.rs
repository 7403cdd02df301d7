//! GitHub Actions: the flakiness check as a workflow of three jobs (plan, a
//! matrix of batches, analyze), sharing everything but the CI's own formats
//! with Buildkite: planning (`buildkite::upload::prepare`), the never-fail
//! batch runner (`buildkite::wrap`), job outcomes (`analyze::outcome`) and
//! the report step's core (`buildkite::report::findings`).
//!
//! - [`workflow`]: the workflow file (`github workflow`), written by [`yaml`];
//! - [`matrix`]: the plan job (`pr|manual --target github`): the matrix
//!   output and `flakiness-plan.json`;
//! - [`batch`]: one matrix job (`github run --batch N`);
//! - [`summary`]: the final job (`github analyze`): job summary, outcomes;
//! - [`annotations`]: `::error`/`::warning` workflow commands, placed on the
//!   tests' sources;
//! - [`runner`]: `$GITHUB_OUTPUT`, `$GITHUB_STEP_SUMMARY`, untrusted log text.

pub mod annotations;
pub mod batch;
pub mod matrix;
pub mod runner;
pub mod summary;
pub mod workflow;
pub mod yaml;
