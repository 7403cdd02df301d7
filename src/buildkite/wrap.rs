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
use super::pipeline::{BatchFile, BATCH_FILES_DIR};
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
/// (one an earlier version planned as argv text is refused, saying so), or
/// the artifact holding one too long for the environment, fetched by
/// `fetch` into a folder of its own.
pub(crate) fn spec_from_env(
    name: &str,
    value: Option<String>,
    fetch: impl FnOnce(&str, &Path) -> Result<()>,
) -> Result<JobSpec> {
    let value = value.ok_or_else(|| {
        Error::usage(format!(
            "${name} is not set: is this step from `gradle-flaky buildkite upload`?"
        ))
    })?;
    let what = || format!("${name}");
    let text = match serde_json::from_str::<BatchFile>(&value) {
        Ok(file) => fetched_batch(&file.batch_file, fetch)
            .map_err(|e| Error::input(what(), format!("its batch {}: {e}", file.batch_file)))?,
        Err(_) => value,
    };
    serde_json::from_str(&text).map_err(|e| Error::input(what(), e.to_string()))
}

/// The batch the upload kept as the artifact `file` (a plain name below
/// `flakiness-batches/`), fetched into a folder of its own.
fn fetched_batch(file: &str, fetch: impl FnOnce(&str, &Path) -> Result<()>) -> Result<String> {
    let name = file.strip_prefix(&format!("{BATCH_FILES_DIR}/"));
    let plain = name.is_some_and(|n| {
        !n.starts_with('.')
            && n.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(&b))
    });
    if !plain {
        return Err(Error::input(
            "batchFile",
            "not a batch artifact of the upload",
        ));
    }
    let scratch = tempfile::tempdir().map_err(|e| Error::io(std::env::temp_dir(), e))?;
    fetch(file, scratch.path())?;
    let path = scratch.path().join(file);
    std::fs::read_to_string(&path).map_err(|e| Error::io(&path, e))
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
pub(crate) enum Wrapped {
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
pub(crate) fn run_job(
    batch: &Wrapped,
    status_dir: &Path,
    timeout: Option<Duration>,
) -> Result<i32> {
    let env = |name: &str| std::env::var(name).ok();
    let job = job_from_env(env);
    let mut status_dir = status_dir;
    let (kind, ran, record) = match batch {
        Wrapped::FromEnv => {
            let name = vars::batch_spec(job.parallel_job.map_or(0, |n| n as usize));
            let fetch =
                |file: &str, dest: &Path| Agent::default().artifact_download(file, dest, None);
            let mut spec = spec_from_env(&name, env(&name), fetch)?;
            if let Some(dir) = compare::enter(&mut spec)? {
                status_dir = Path::new(dir);
            }
            (spec.kind().to_string(), run_spec(&spec, timeout)?, true)
        }
        Wrapped::Command { kind, argv } => (
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::buildkite::pipeline::{batch_files, pipeline, AgentConfig, PipelineInput};
    use crate::ci::spec::CiBatch;
    use crate::domain::{ClassSample, GradleCommand, TestKind, WholeTask};

    /// A whole task's sample of 6,000 classes makes a batch too long for a
    /// variable (Linux's 128 KiB): the upload keeps it as an artifact, the
    /// step's variable names it, and the job fetches it and runs the same
    /// batch; a name that is no batch artifact of the upload is refused.
    #[test]
    fn a_batch_too_long_for_the_environment_travels_as_an_artifact() {
        let mut command = GradleCommand::of_kind(TestKind::Unit, &["gradle", ":a:test"], 1, 1);
        command.whole_task = Some(WholeTask {
            sample: Some(ClassSample {
                task: ":a:test".into(),
                seed: 7,
                classes: (0..6000)
                    .map(|i| format!("org.example.pkg.Class{i}Tests"))
                    .collect(),
                of: 9000,
            }),
            ..WholeTask::default()
        });
        let input = PipelineInput {
            batches: vec![CiBatch::plain(command)],
            ..PipelineInput::default()
        };
        let files = batch_files(&input);
        assert_eq!(files.len(), 1);
        let (file, json) = &files[0];
        assert_eq!(file, "flakiness-batches/flakiness-detection-unit-0.json");
        assert!(json.len() > 128 * 1024, "{}", json.len());
        let cfg = AgentConfig {
            agents: vec![],
            step_timeout_min: 60,
            bin: "gradle-flaky".into(),
            group: "g".into(),
            blocking: Default::default(),
        };
        let pipeline = pipeline(&input, &cfg).unwrap();
        let step = &pipeline["steps"][0]["steps"][0];
        let value = step["env"]["FLAKINESS_BATCH_0"]
            .as_str()
            .unwrap()
            .to_string();
        assert!(value.len() < 200, "{value}");
        let fetch = |name: &str, dest: &Path| {
            let path = dest.join(name);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, json).unwrap();
            Ok(())
        };
        let spec = spec_from_env("FLAKINESS_BATCH_0", Some(value), fetch).unwrap();
        assert_eq!(spec.batch, input.batches[0]);
        let hostile = r#"{"batchFile":"flakiness-batches/../../etc/passwd"}"#;
        let e = spec_from_env("X", Some(hostile.into()), |_: &str, _: &Path| Ok(())).unwrap_err();
        assert!(e.to_string().contains("not a batch artifact"), "{e}");
    }
}
