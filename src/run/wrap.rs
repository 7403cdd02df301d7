//! The never-fail wrapper of a Buildkite batch step (`gradle-flaky buildkite wrap`).
//!
//! A batch step always exits 0 so the build's GitHub status stays green; what
//! happened is recorded instead: the command's rc and wall duration, and whether
//! a test JVM left a heap dump, go to `flakiness-status/status-<jobId>.json` for
//! the final analyze step.
//!
//! The command runs in its own process group so a timeout or a forwarded cancel
//! reaches every process it started. Under a terminal (Buildkite runs jobs in a
//! PTY) that group is made the terminal's foreground group, as `timeout
//! --foreground` keeps it in the reference: Gradle touching the terminal from a
//! background group would be stopped by SIGTTOU and hang.

use crate::{Error, Result};
use serde::{Deserialize, Serialize};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

/// Grace between SIGTERM and SIGKILL when the inner timeout expires (GNU `timeout --kill-after=30s`).
pub const KILL_AFTER: Duration = Duration::from_secs(30);

/// Grace between forwarding a cancel and SIGKILL; shorter than the agent's default
/// `cancel-grace-period` (10 s) so the status file is still written.
pub const CANCEL_GRACE: Duration = Duration::from_secs(5);

/// The rc GNU `timeout` reports when the command had to be stopped.
pub const RC_TIMEOUT: i32 = 124;

const POLL: Duration = Duration::from_millis(50);

/// How a supervised command ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finished {
    /// Exit code; `128 + signal` when a signal ended it; 124 when the timeout
    /// stopped it, 137 when that took SIGKILL (as GNU `timeout`).
    pub rc: i32,
    pub duration: Duration,
    /// The inner timeout expired.
    pub timed_out: bool,
    /// The wrapper received SIGTERM or SIGINT and forwarded it.
    pub cancelled: bool,
}

/// Runs `argv` (no shell) in `dir`, in its own process group, until it exits,
/// `timeout` expires, or SIGTERM/SIGINT arrive (forwarded to the group).
/// A command that cannot start ends with rc 127 (not found) or 126, like a shell.
pub fn supervise(argv: &[String], dir: Option<&Path>, timeout: Option<Duration>) -> Finished {
    let signal = Arc::new(AtomicUsize::new(0));
    for sig in [libc::SIGTERM, libc::SIGINT] {
        // Registration only fails for forbidden signals, which these are not.
        let _ = signal_hook::flag::register_usize(sig, Arc::clone(&signal), sig as usize);
    }
    let start = Instant::now();
    let mut child = match spawn(argv, dir) {
        Ok(child) => child,
        Err(e) => {
            eprintln!("gradle-flaky: cannot run `{}`: {e}", argv[0]);
            let rc = if e.kind() == std::io::ErrorKind::NotFound {
                127
            } else {
                126
            };
            return Finished {
                rc,
                duration: start.elapsed(),
                timed_out: false,
                cancelled: false,
            };
        }
    };
    let pgid = child.id() as libc::pid_t;
    let deadline = timeout.map(|t| start + t);
    let mut kill_at: Option<Instant> = None;
    let (mut timed_out, mut cancelled, mut killed) = (false, false, false);
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) => {}
            Err(_) => break None,
        }
        let now = Instant::now();
        let sig = signal.swap(0, Ordering::SeqCst);
        if sig != 0 {
            signal_group(pgid, sig as libc::c_int);
            cancelled = true;
            kill_at.get_or_insert(now + CANCEL_GRACE);
        }
        if !timed_out && deadline.is_some_and(|d| now >= d) {
            eprintln!("gradle-flaky: timed out; stopping the command");
            signal_group(pgid, libc::SIGTERM);
            timed_out = true;
            kill_at.get_or_insert(now + KILL_AFTER);
        }
        if !killed && kill_at.is_some_and(|k| now >= k) {
            signal_group(pgid, libc::SIGKILL);
            killed = true;
        }
        std::thread::sleep(POLL);
    };
    // Whatever the command left behind in its group goes with it.
    signal_group(pgid, libc::SIGKILL);
    take_back_terminal();
    let rc = match status {
        _ if timed_out && killed => 128 + libc::SIGKILL,
        _ if timed_out => RC_TIMEOUT,
        Some(s) => s.code().or(s.signal().map(|n| 128 + n)).unwrap_or(1),
        None => 1,
    };
    Finished {
        rc,
        duration: start.elapsed(),
        timed_out,
        cancelled,
    }
}

fn spawn(argv: &[String], dir: Option<&Path>) -> std::io::Result<std::process::Child> {
    let mut cmd = Command::new(&argv[0]);
    cmd.args(&argv[1..]).process_group(0);
    if let Some(dir) = dir {
        cmd.current_dir(dir);
    }
    if let Some(tty) = foreground_terminal() {
        // SIGTTOU stays ignored here so taking the terminal back later cannot stop us.
        unsafe { libc::signal(libc::SIGTTOU, libc::SIG_IGN) };
        // SAFETY: only async-signal-safe calls between fork and exec. The child
        // (already in its new group) takes the terminal before the program runs,
        // then restores the default SIGTTOU it inherited as ignored.
        unsafe {
            cmd.pre_exec(move || {
                libc::tcsetpgrp(tty, libc::getpid());
                libc::signal(libc::SIGTTOU, libc::SIG_DFL);
                Ok(())
            });
        }
    }
    cmd.spawn()
}

/// A standard stream that is a terminal whose foreground group is ours.
fn foreground_terminal() -> Option<libc::c_int> {
    [0, 1, 2]
        .into_iter()
        .find(|&fd| unsafe { libc::isatty(fd) == 1 && libc::tcgetpgrp(fd) == libc::getpgrp() })
}

fn take_back_terminal() {
    for fd in [0, 1, 2] {
        // SAFETY: plain syscalls; SIGTTOU was ignored when the terminal was handed over.
        unsafe {
            if libc::isatty(fd) == 1 && libc::tcgetpgrp(fd) != libc::getpgrp() {
                libc::tcsetpgrp(fd, libc::getpgrp());
                return;
            }
        }
    }
}

fn signal_group(pgid: libc::pid_t, sig: libc::c_int) {
    // SAFETY: killpg has no memory effects; ESRCH (group gone) is expected and ignored.
    unsafe { libc::killpg(pgid, sig) };
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
                if matches!(
                    &*name,
                    ".git" | ".gradle" | "node_modules" | "flakiness-iters"
                ) {
                    continue;
                }
                let heapdump = in_heapdump || (name == "heapdump" && dir.ends_with("build"));
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
    fn an_expired_timeout_stops_the_whole_group_with_rc_124() {
        let dir = tempfile::tempdir().unwrap();
        // The grandchild would touch `late` if it outlived the timeout.
        let script = "(sleep 1; touch late) & sleep 30";
        let f = supervise(
            &argv(&["sh", "-c", script]),
            Some(dir.path()),
            Some(Duration::from_millis(300)),
        );
        assert_eq!((f.rc, f.timed_out), (RC_TIMEOUT, true));
        std::thread::sleep(Duration::from_secs(2));
        assert!(
            !dir.path().join("late").exists(),
            "the group was not stopped"
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
