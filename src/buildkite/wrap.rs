//! The never-fail wrapper of a Buildkite batch step (`gradle-flaky buildkite wrap`).
//!
//! A batch step always exits 0 so the build's GitHub status stays green; what
//! happened is recorded instead: the command's rc and wall duration, and whether
//! a test JVM left a heap dump, go to `flakiness-status/status-<jobId>.json` for
//! the final analyze step.
//!
//! The command runs as `run::process` runs every Gradle invocation: stdin from
//! /dev/null (a prompt cannot stop it, as a terminal read once hung the
//! reference's Gradle), and every process it started, a Gradle daemon's test
//! workers included, stopped at the timeout or when the wrapper itself is
//! cancelled (SIGTERM/SIGINT, forwarded).
//!
//! [`run_batch`], the status file and its rules are not Buildkite's own:
//! `github run` runs each matrix batch through them too.

use super::agent::Agent;
use super::pipeline::{JobSpec, BATCH_ENV, PRECOMPILE_ENV};
use crate::reports::{self, PRECOMPILE_FILE};
use crate::run::outcomes::{self, Scripts, TaskOutcome};
use crate::run::process::{self, Ended, Isolation, Output};
use crate::{markdown, shell};
use crate::{say, Error, Result};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime};

/// The rc GNU `timeout` reports when the command had to be stopped.
pub const RC_TIMEOUT: i32 = 124;

/// How a supervised command ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finished {
    /// Exit code; `128 + signal` when a signal ended it; 124 when the timeout
    /// stopped it; 127 when it could not start.
    pub rc: i32,
    pub duration: Duration,
    /// The inner timeout expired.
    pub timed_out: bool,
    /// The wrapper received SIGTERM or SIGINT and stopped the command.
    pub cancelled: bool,
}

/// Runs `argv` (no shell) in `dir` until it exits, `timeout` expires, or the
/// wrapper is cancelled; in the last two cases every process it started is
/// stopped (SIGTERM, then SIGKILL).
pub fn supervise(argv: &[String], dir: Option<&Path>, timeout: Option<Duration>) -> Finished {
    process::supervise();
    let started = Instant::now();
    let finished = |rc, timed_out, cancelled| Finished {
        rc,
        duration: started.elapsed(),
        timed_out,
        cancelled,
    };
    // CI runs isolated: the batch's argv says how (see `JobSpec::argv_to_run`),
    // and at the timeout every process it started is stopped.
    let ran = process::run(
        argv,
        dir.unwrap_or(Path::new(".")),
        Output::Inherit,
        timeout,
        &Isolation::NoDaemon,
    );
    match ran.map(|run| run.ended) {
        Ok(Ended::Exited(code)) => finished(code, false, false),
        Ok(Ended::Signalled(sig)) => finished(128 + sig, false, false),
        Ok(Ended::TimedOut) => finished(RC_TIMEOUT, true, false),
        Ok(Ended::Interrupted) => finished(128 + libc::SIGTERM, false, true),
        Err(e) => {
            say!("gradle-flaky: {e}");
            finished(127, false, false)
        }
    }
}

/// The status file of one batch job: the reference's fields in its order, then ours.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Status {
    pub job_id: String,
    #[serde(default)]
    pub step_key: String,
    #[serde(default)]
    pub kind: String,
    #[serde(default)]
    pub rc: i32,
    #[serde(default)]
    pub duration_sec: u64,
    /// `oom` when a test JVM wrote a heap dump during the run, else empty.
    #[serde(default)]
    pub infra_subtype: String,
    /// The inner timeout this job ran under: the analyze step's threshold for
    /// telling a timeout from a kill (the reference used a fixed 3480 s).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeout_sec: Option<u64>,
    /// The wrapper was cancelled (SIGTERM/SIGINT) and forwarded it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub cancelled: bool,
    /// `$BUILDKITE_PARALLEL_JOB`: which batch of its step this job ran.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parallel_job: Option<u32>,
    /// The batch's Test tasks the build skipped (an `onlyIf` that is false, a
    /// disabled task, no source) in any of its invocations.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub skipped_tasks: Vec<TaskOutcome>,
}

/// Where the status file of `job_id` goes.
pub fn status_path(status_dir: &Path, job_id: &str) -> PathBuf {
    status_dir.join(format!("status-{job_id}.json"))
}

/// Writes the status file (compact JSON), creating its directory.
pub fn write_status(status_dir: &Path, status: &Status) -> Result<PathBuf> {
    std::fs::create_dir_all(status_dir).map_err(|e| Error::io(status_dir, e))?;
    let path = status_path(status_dir, &status.job_id);
    let json = serde_json::to_string(status).expect("a status serializes");
    std::fs::write(&path, json).map_err(|e| Error::io(&path, e))?;
    Ok(path)
}

/// A Buildkite job id is a UUID; anything else (unset, or text that could
/// leave the status directory) is replaced so the file name stays safe.
pub fn safe_job_id(raw: Option<&str>) -> String {
    match raw {
        Some(id)
            if !id.is_empty()
                && !id.starts_with('.')
                && id
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(&b)) =>
        {
            id.to_string()
        }
        _ => "local".to_string(),
    }
}

/// The warning annotation text for a non-zero rc (reference wording), if any.
pub fn failure_message(finished: &Finished, timeout: Option<Duration>) -> Option<String> {
    if finished.rc == 0 {
        return None;
    }
    let rc = finished.rc;
    Some(match timeout {
        Some(t) if finished.timed_out => {
            format!(
                "timed out after {} (rc={rc})",
                crate::domain::format_duration(t)
            )
        }
        _ if finished.cancelled => format!("was cancelled (rc={rc})"),
        _ => format!("exited with {rc}"),
    })
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

/// The status of a finished batch job.
pub fn status_of(
    job: &JobEnv,
    kind: &str,
    finished: &Finished,
    timeout: Option<Duration>,
    oom: bool,
) -> Status {
    Status {
        job_id: job.job_id.clone(),
        step_key: job.step_key.clone(),
        kind: kind.to_string(),
        rc: finished.rc,
        duration_sec: finished.duration.as_secs(),
        infra_subtype: if oom { "oom".into() } else { String::new() },
        timeout_sec: timeout.map(|t| t.as_secs()),
        cancelled: finished.cancelled,
        parallel_job: job.parallel_job,
        skipped_tasks: Vec::new(),
    }
}

/// Where a batch's task outcomes are recorded, and for which tasks.
struct Recording {
    /// Holds the scripts and the outcome files; removed with the wrapper.
    scratch: tempfile::TempDir,
    task_paths: Vec<String>,
}

impl Recording {
    fn dir(&self) -> PathBuf {
        self.scratch.path().join("task-outcomes")
    }

    /// The argv of `spec`, made to record its task outcomes: Gradle gets the
    /// init script; a REST loop (`gradle-flaky repeat`) is told where its
    /// iterations write.
    fn argv(&self, spec: &JobSpec) -> Result<Vec<String>> {
        std::fs::create_dir_all(self.dir()).map_err(|e| Error::io(self.dir(), e))?;
        if spec.repeat.is_some() {
            return spec.argv_to_run(&self_exe(), Some(&self.dir()));
        }
        let argv = spec.argv_to_run(&self_exe(), None)?;
        let scripts = Scripts::write(&self.scratch.path().join("scripts"))?;
        Ok(scripts.apply(&argv, &self.dir().join("iter-1.json")))
    }

    /// The batch's Test tasks the build skipped in any of its invocations
    /// (each once, as first recorded).
    fn skipped(&self) -> Vec<TaskOutcome> {
        let Ok(entries) = std::fs::read_dir(self.dir()) else {
            return Vec::new();
        };
        let mut files: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
        files.sort();
        let mut skipped: Vec<TaskOutcome> = Vec::new();
        for tasks in files.iter().filter_map(|f| outcomes::read(f)) {
            let found = outcomes::skipped_by_build(&tasks, &self.task_paths);
            for task in found.map(|s| s.tasks).unwrap_or_default() {
                if !skipped.iter().any(|t| t.path == task.path) {
                    skipped.push(task);
                }
            }
        }
        skipped
    }
}

/// The Buildkite job a wrapper runs in, from the agent's environment.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct JobEnv {
    pub job_id: String,
    pub step_key: String,
    pub label: String,
    pub parallel_job: Option<u32>,
}

impl JobEnv {
    /// Reads `$BUILDKITE_JOB_ID`, `$BUILDKITE_STEP_KEY`, `$BUILDKITE_LABEL`, `$BUILDKITE_PARALLEL_JOB`.
    pub fn from_env(var: impl Fn(&str) -> Option<String>) -> JobEnv {
        JobEnv {
            job_id: safe_job_id(var("BUILDKITE_JOB_ID").as_deref()),
            step_key: var("BUILDKITE_STEP_KEY").unwrap_or_default(),
            label: var("BUILDKITE_LABEL").unwrap_or_default(),
            parallel_job: var("BUILDKITE_PARALLEL_JOB").and_then(|v| v.trim().parse().ok()),
        }
    }
}

/// What a wrapper runs: the batch of this parallel job (from the step's env,
/// as an uploaded pipeline runs it), or a command given on the command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Batch {
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
pub fn run_job(batch: &Batch, status_dir: &Path, timeout: Option<Duration>) -> Result<()> {
    let env = |name: &str| std::env::var(name).ok();
    let job = JobEnv::from_env(env);
    let (kind, ran, record) = match batch {
        Batch::FromEnv => {
            let name = format!("{BATCH_ENV}{}", job.parallel_job.unwrap_or(0));
            let spec = JobSpec::from_env_value(&name, env(&name))?;
            (spec.kind.clone(), run_spec(&spec, timeout)?, true)
        }
        Batch::Command { kind, argv } => (
            kind.clone(),
            run_batch(argv, None, timeout),
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
            say!("gradle-flaky: could not annotate: {e}");
        }
    }
    if record {
        let status = ran.status(&job, &kind, timeout);
        match write_status(status_dir, &status) {
            Ok(path) => say!(">>> status written to {}", path.display()),
            Err(e) => say!("gradle-flaky: could not write the status file: {e}"),
        }
    }
    Ok(())
}

/// How a batch ended, with what its status file needs beyond the rc.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ran {
    pub finished: Finished,
    /// A test JVM wrote a heap dump during the run.
    pub oom: bool,
    /// The batch's Test tasks the build skipped (`onlyIf`, no sources, ...).
    pub skipped_tasks: Vec<TaskOutcome>,
}

impl Ran {
    /// The job's status file.
    pub fn status(&self, job: &JobEnv, kind: &str, timeout: Option<Duration>) -> Status {
        let mut status = status_of(job, kind, &self.finished, timeout, self.oom);
        status.skipped_tasks = self.skipped_tasks.clone();
        status
    }
}

/// Runs a planned batch as every CI runs it (see [`run_batch`]), recording
/// which of its Test tasks the build skipped.
pub fn run_spec(spec: &JobSpec, timeout: Option<Duration>) -> Result<Ran> {
    // No Test task to check: nothing to record (and no init script to add).
    if spec.task_paths.is_empty() {
        let argv = spec.argv_to_run(&self_exe(), None)?;
        return Ok(run_batch(&argv, spec.dir.as_deref(), timeout));
    }
    let recording = Recording {
        scratch: tempfile::Builder::new()
            .prefix("gradle-flaky-wrap-")
            .tempdir()
            .map_err(|e| Error::io(std::env::temp_dir(), e))?,
        task_paths: spec.task_paths.clone(),
    };
    let argv = recording.argv(spec)?;
    let mut ran = run_batch(&argv, spec.dir.as_deref(), timeout);
    ran.skipped_tasks = recording.skipped();
    if !ran.skipped_tasks.is_empty() {
        say!(
            ">>> skipped by the build: {}",
            outcomes::describe(&ran.skipped_tasks)
        );
    }
    Ok(ran)
}

/// Runs one batch: the command line and its rc on stderr, supervised (see
/// [`supervise`]), and, when it failed, a look for heap dumps it left below
/// `dir` (a JVM that ran out of heap fails its Gradle run, so clean runs skip
/// the scan).
pub fn run_batch(argv: &[String], dir: Option<&Path>, timeout: Option<Duration>) -> Ran {
    say!(">>> {}", shell::join(argv));
    let started = SystemTime::now();
    let finished = supervise(argv, dir, timeout);
    say!(
        ">>> rc {} after {}s",
        finished.rc,
        finished.duration.as_secs()
    );
    let oom = finished.rc != 0
        && !reports::heap_dumps_since(dir.unwrap_or(Path::new(".")), started).is_empty();
    Ran {
        finished,
        oom,
        skipped_tasks: Vec::new(),
    }
}

/// `buildkite precompile`: compiles the selected test source sets. Unlike a
/// batch it fails the step on a compile error, so Buildkite skips the batches,
/// and leaves the precompile marker for the report step.
pub fn precompile(timeout: Option<Duration>) -> Result<()> {
    let spec = JobSpec::from_env_value(PRECOMPILE_ENV, std::env::var(PRECOMPILE_ENV).ok())?;
    let argv = spec.argv_to_run(&self_exe(), None)?;
    say!(">>> {}", shell::join(&argv));
    let finished = supervise(&argv, spec.dir.as_deref(), timeout);
    if finished.rc == 0 {
        return Ok(());
    }
    let marker = r#"{"outcome":"build_failed","reason":"precompile"}"#;
    if let Err(e) = std::fs::write(PRECOMPILE_FILE, marker) {
        say!("gradle-flaky: could not write {PRECOMPILE_FILE}: {e}");
    }
    Err(Error::infra(format!(
        "the test sources do not compile (rc {}); the batches will be skipped",
        finished.rc
    )))
}

/// How this binary is invoked again (for loops inside a batch).
pub fn self_exe() -> String {
    std::env::current_exe()
        .map(|p| p.to_string_lossy().into_owned())
        .unwrap_or_else(|_| "gradle-flaky".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn argv(words: &[&str]) -> Vec<String> {
        words.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn exit_codes_and_signals_become_the_rc() {
        let f = supervise(&argv(&["sh", "-c", "exit 7"]), None, None);
        assert_eq!((f.rc, f.timed_out, f.cancelled), (7, false, false));
        let f = supervise(&argv(&["sh", "-c", "kill -9 $$"]), None, None);
        assert_eq!(f.rc, 137);
        let f = supervise(&argv(&["/nonexistent/program"]), None, None);
        assert_eq!(f.rc, 127);
    }

    #[test]
    fn an_expired_timeout_stops_every_process_it_started_with_rc_124() {
        let dir = tempfile::tempdir().unwrap();
        // The grandchild leaves the process group and session, as a Gradle
        // daemon does; it would touch `late` if it outlived the timeout.
        let script = "setsid sh -c 'sleep 1; touch late' & sleep 30";
        let f = supervise(
            &argv(&["sh", "-c", script]),
            Some(dir.path()),
            Some(Duration::from_millis(300)),
        );
        assert_eq!((f.rc, f.timed_out), (RC_TIMEOUT, true));
        std::thread::sleep(Duration::from_secs(2));
        assert!(
            !dir.path().join("late").exists(),
            "a process the command started outlived the timeout"
        );
    }

    #[test]
    fn status_keeps_the_reference_field_order() {
        let job = JobEnv {
            job_id: "j-1".into(),
            step_key: "flakiness-detection:unit".into(),
            label: "unit tests".into(),
            parallel_job: None,
        };
        let f = Finished {
            rc: 1,
            duration: Duration::from_millis(2500),
            timed_out: false,
            cancelled: false,
        };
        let status = status_of(&job, "unit", &f, None, true);
        assert_eq!(
            serde_json::to_string(&status).unwrap(),
            r#"{"jobId":"j-1","stepKey":"flakiness-detection:unit","kind":"unit","rc":1,"durationSec":2,"infraSubtype":"oom"}"#
        );
        let read: Status = serde_json::from_str(r#"{"jobId":"x"}"#).unwrap();
        assert_eq!((read.rc, read.timeout_sec), (0, None));
    }

    #[test]
    fn unsafe_job_ids_never_become_paths() {
        assert_eq!(safe_job_id(Some("0190-ab_c.1")), "0190-ab_c.1");
        assert_eq!(safe_job_id(Some("../../etc")), "local");
        assert_eq!(safe_job_id(Some("a/b")), "local");
        assert_eq!(safe_job_id(None), "local");
    }

    #[test]
    fn failure_messages_follow_the_reference() {
        let f = |rc, timed_out, cancelled| Finished {
            rc,
            duration: Duration::ZERO,
            timed_out,
            cancelled,
        };
        let t = Some(Duration::from_secs(58 * 60));
        assert_eq!(failure_message(&f(0, false, false), t), None);
        assert_eq!(
            failure_message(&f(7, false, false), t).unwrap(),
            "exited with 7"
        );
        assert_eq!(
            failure_message(&f(124, true, false), t).unwrap(),
            "timed out after 58m (rc=124)"
        );
        assert_eq!(
            failure_message(&f(143, false, true), t).unwrap(),
            "was cancelled (rc=143)"
        );
    }
}
