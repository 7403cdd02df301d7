//! What every CI shares. Buildkite (`buildkite/`) and GitHub Actions
//! (`github/`) are adapters over this core: each carries these values in its
//! own formats (pipeline `env`, a plan file, artifacts) and never uses the
//! other's.
//!
//! - [`prepare`]: a selection made ready for a CI: what did not resolve, and
//!   the plan ([`prepare::CiPlan`]) with the compile gate, the build's
//!   directory in the checkout, renamed projects;
//! - [`spec`]: what each job is told: its [`spec::JobSpec`], the jobs the
//!   report expects, the report's context, the grace before a CI's timeout;
//! - [`job`]: the job a batch runs in ([`job::JobEnv`]), filled by each CI;
//! - [`batch`]: the never-fail batch runner, over `run::job` (a command
//!   stopped at its timeout with every process it started);
//! - [`status`]: the status file a batch job leaves;
//! - [`findings`]: the report step's core: each job's outcome, the missing
//!   jobs, the report of every job's XML with its jobs around it;
//! - [`reading`]: how the report steps read the jobs' XML: whole-task jobs
//!   in context `task`, their unselected neighbours set apart;
//! - [`not_checked`]: the selected tests that cannot run here (the report opens with them);
//! - [`compare`]: `--compare REF`: REF's jobs (a worktree of REF in each)
//!   and REF's side in the report step;
//! - [`blocking`]: when the report step fails a pull request (opt-in, by label);
//! - [`history`]: the report steps' history page of the run's tests.
//!
//! The job-outcome taxonomy itself (clean pass, flaky, timeout, hang,
//! infrastructure failure) is `analyze::rules::outcome`: `local` judges its batches
//! by the same rules.

pub(crate) mod batch;
pub(crate) mod blocking;
pub(crate) mod compare;
pub(crate) mod cost;
pub(crate) mod durations;
pub(crate) mod findings;
pub(crate) mod gate;
pub(crate) mod history;
pub(crate) mod job;
pub(crate) mod learned;
pub(crate) mod missing;
pub(crate) mod not_checked;
pub(crate) mod prepare;
pub(crate) mod reading;
pub(crate) mod report_inputs;
pub(crate) mod spec;
pub(crate) mod status;
