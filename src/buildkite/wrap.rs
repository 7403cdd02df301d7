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

use super::agent::Agent;
use super::pipeline::{JobSpec, BATCH_ENV, PRECOMPILE_ENV};
use crate::reports::{self, ITERS_DIR, PRECOMPILE_FILE};
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

/// True when a heap dump (`*/build/heapdump/*.hprof`) below `root` was written
/// at or after `since` (one second of slack for coarse file-system clocks).
/// Older dumps are someone else's (reference bug: any dump anywhere counted).
pub fn heap_dump_since(root: &Path, since: SystemTime) -> bool {
    let since = since - Duration::from_secs(1);
    let mut stack = vec![(root.to_path_buf(), false)];
    while let Some((dir, in_heapdump)) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let Ok(ty) = entry.file_type() else { continue };
            let name = entry.file_name();
            let name = name.to_string_lossy();
            if ty.is_dir() {
                if matches!(&*name, ".git" | ".gradle" | "node_modules" | ITERS_DIR) {
                    continue;
                }
                let heapdump = in_heapdump || reports::is_heap_dump_dir(&entry.path());
                stack.push((entry.path(), heapdump));
            } else if ty.is_file() && in_heapdump && name.ends_with(".hprof") {
                let fresh = entry
                    .metadata()
                    .and_then(|m| m.modified())
                    .is_ok_and(|t| t >= since);
                if fresh {
                    return true;
                }
            }
        }
    }
    false
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
    let (kind, argv, dir, record) = match batch {
        Batch::FromEnv => {
            let name = format!("{BATCH_ENV}{}", job.parallel_job.unwrap_or(0));
            let spec = JobSpec::from_env_value(&name, env(&name))?;
            (
                spec.kind.clone(),
                spec.argv_to_run(&self_exe())?,
                spec.dir,
                true,
            )
        }
        Batch::Command { kind, argv } => (kind.clone(), argv.clone(), None, !kind.is_empty()),
    };
    say!(">>> {}", shell::join(&argv));
    let started = SystemTime::now();
    let finished = supervise(&argv, dir.as_deref(), timeout);
    say!(
        ">>> rc {} after {}s",
        finished.rc,
        finished.duration.as_secs()
    );
    let context = if job.step_key.is_empty() {
        "flakiness-detection"
    } else {
        &job.step_key
    };
    if let Some(message) = failure_message(&finished, timeout) {
        let body = format!(
            "[{}] (job {}) {message} - see job log",
            markdown::text(&job.label),
            markdown::text(&job.job_id)
        );
        if let Err(e) =
            Agent::default().annotate(&body, "warning", &format!("{context}-failures"), true)
        {
            say!("gradle-flaky: could not annotate: {e}");
        }
    }
    if record {
        // A JVM that ran out of heap fails its Gradle run, so clean runs skip the scan.
        let scan_root = dir.unwrap_or_else(|| PathBuf::from("."));
        let oom = finished.rc != 0 && heap_dump_since(&scan_root, started);
        let status = status_of(&job, &kind, &finished, timeout, oom);
        match write_status(status_dir, &status) {
            Ok(path) => say!(">>> status written to {}", path.display()),
            Err(e) => say!("gradle-flaky: could not write the status file: {e}"),
        }
    }
    Ok(())
}

/// `buildkite precompile`: compiles the selected test source sets. Unlike a
/// batch it fails the step on a compile error, so Buildkite skips the batches,
/// and leaves the precompile marker for the report step.
pub fn precompile(timeout: Option<Duration>) -> Result<()> {
    let spec = JobSpec::from_env_value(PRECOMPILE_ENV, std::env::var(PRECOMPILE_ENV).ok())?;
    let argv = spec.argv_to_run(&self_exe())?;
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
fn self_exe() -> String {
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
    fn only_heap_dumps_written_during_the_run_count() {
        let dir = tempfile::tempdir().unwrap();
        let dumps = dir.path().join("server/build/heapdump");
        std::fs::create_dir_all(&dumps).unwrap();
        std::fs::write(dumps.join("old.hprof"), "x").unwrap();
        let later = SystemTime::now() + Duration::from_secs(5);
        assert!(!heap_dump_since(dir.path(), later));
        assert!(heap_dump_since(dir.path(), SystemTime::now()));
        let elsewhere = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(elsewhere.path().join("server/heapdump")).unwrap();
        std::fs::write(elsewhere.path().join("server/heapdump/a.hprof"), "x").unwrap();
        assert!(!heap_dump_since(elsewhere.path(), SystemTime::UNIX_EPOCH));
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
