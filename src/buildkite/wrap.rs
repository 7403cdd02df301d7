//! The never-fail wrapper of a Buildkite batch step (`gradle-flaky buildkite wrap`).
//!
//! A batch step always exits 0 so the build's GitHub status stays green; what
//! happened is recorded instead: the command's rc and wall duration, and whether
//! a test JVM left a heap dump, go to `flakiness-status/status-<jobId>.json` for
//! the final analyze step. The runner and the status file are `ci::batch` and
//! `ci::status`; this is their Buildkite edge: the job from the agent's
//! environment, the typed batch from the step's `env`, a failure as an
//! annotation.

use super::agent::Agent;
use crate::ci::batch::{run_batch, run_spec};
use crate::ci::compare;
use crate::ci::job::{safe_job_id, JobEnv};
use crate::ci::spec::JobSpec;
use crate::ci::status::write_status;
use crate::run::job::failure_message;
use crate::tell;
use crate::{markdown, vars};
use crate::{say, Error, Result};
use std::path::Path;
use std::time::Duration;

/// The Buildkite job a wrapper runs in: `$BUILDKITE_JOB_ID`,
/// `$BUILDKITE_STEP_KEY`, `$BUILDKITE_LABEL`, `$BUILDKITE_PARALLEL_JOB`.
pub(crate) fn job_from_env(var: impl Fn(&str) -> Option<String>) -> JobEnv {
    JobEnv {
        job_id: safe_job_id(var("BUILDKITE_JOB_ID").as_deref()),
        step_key: var("BUILDKITE_STEP_KEY").unwrap_or_default(),
        label: var("BUILDKITE_LABEL").unwrap_or_default(),
        parallel_job: var("BUILDKITE_PARALLEL_JOB").and_then(|v| v.trim().parse().ok()),
    }
}

/// The spec the upload put in env var `name` (its `value`): a typed batch
/// (one an earlier version planned as argv text is refused, saying so).
pub(crate) fn spec_from_env(name: &str, value: Option<String>) -> Result<JobSpec> {
    let value = value.ok_or_else(|| {
        Error::usage(format!(
            "${name} is not set: is this step from `gradle-flaky buildkite upload`?"
        ))
    })?;
    serde_json::from_str(&value).map_err(|e| Error::input(format!("${name}"), e.to_string()))
}

/// The warning annotation of a failed job: `[label] (job id) message - see job log`.
pub(crate) fn failure_annotation(job: &JobEnv, message: &str) -> String {
    format!(
        "[{}] (job {}) {} - see job log",
        markdown::text(&job.label),
        markdown::text(&job.job_id),
        markdown::text(message)
    )
}

/// What a wrapper runs: the batch of this parallel job (from the step's env,
/// as an uploaded pipeline runs it), or a command given on the command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Batch {
    FromEnv,
    Command {
        /// Recorded in the status file; empty: no status file.
        kind: String,
        argv: Vec<String>,
    },
}

/// `buildkite wrap`: runs the batch, records how it ended in a status file,
/// annotates a failure. Whatever happened, the job itself succeeds; only a
/// batch that cannot even be read is an error (before anything ran).
/// Returns the command's rc.
pub(crate) fn run_job(batch: &Batch, status_dir: &Path, timeout: Option<Duration>) -> Result<i32> {
    let env = |name: &str| std::env::var(name).ok();
    let job = job_from_env(env);
    let mut status_dir = status_dir;
    let (kind, ran, record) = match batch {
        Batch::FromEnv => {
            let name = vars::batch_spec(job.parallel_job.map_or(0, |n| n as usize));
            let mut spec = spec_from_env(&name, env(&name))?;
            if let Some(dir) = compare::enter(&mut spec)? {
                status_dir = Path::new(dir);
            }
            (spec.kind().to_string(), run_spec(&spec, timeout)?, true)
        }
        Batch::Command { kind, argv } => (
            kind.clone(),
            run_batch(argv, None, &[], timeout),
            !kind.is_empty(),
        ),
    };
    let context = if job.step_key.is_empty() {
        "flakiness-detection"
    } else {
        &job.step_key
    };
    if let Some(message) = failure_message(&ran.finished, timeout) {
        let body = failure_annotation(&job, &message);
        if let Err(e) =
            Agent::default().annotate(&body, "warning", &format!("{context}-failures"), true)
        {
            tell!("could not annotate: {e}");
        }
    }
    if record {
        let status = ran.status(&job, &kind, timeout);
        match write_status(status_dir, &status) {
            Ok(path) => say!(">>> status written to {}", path.display()),
            Err(e) => tell!("could not write the status file: {e}"),
        }
    }
    Ok(ran.finished.rc)
}
