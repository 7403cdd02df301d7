//! A CI job's command, supervised: stdin from /dev/null (a prompt cannot
//! stop it, as a terminal read once hung Elasticsearch's Gradle), and every
//! process it started, a Gradle daemon's test workers included, stopped at
//! the timeout or when the wrapper itself is cancelled (SIGTERM/SIGINT,
//! forwarded), as `run::process` runs every Gradle invocation.

use crate::process::{self, Ended, Isolation, Output, Session};
use crate::tell;
use std::path::Path;
use std::time::{Duration, Instant};

/// The rc GNU `timeout` reports when the command had to be stopped.
pub(crate) const RC_TIMEOUT: i32 = 124;

/// How a supervised command ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Finished {
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
pub(crate) fn supervise(
    argv: &[String],
    dir: Option<&Path>,
    timeout: Option<Duration>,
) -> Finished {
    // CI runs isolated: the batch's argv says how (see `JobSpec::argv_to_run`),
    // and nothing it started outlives the job's command.
    let session = Session::new(Isolation::NoDaemon);
    let started = Instant::now();
    let finished = |rc, timed_out, cancelled| Finished {
        rc,
        duration: started.elapsed(),
        timed_out,
        cancelled,
    };
    let ran = process::run(
        argv,
        dir.unwrap_or(Path::new(".")),
        Output::Inherit,
        timeout,
        session.isolation(),
    );
    match ran.map(|run| run.ended) {
        Ok(Ended::Exited(code)) => finished(code, false, false),
        Ok(Ended::Signalled(sig)) => finished(128 + sig, false, false),
        Ok(Ended::TimedOut) => finished(RC_TIMEOUT, true, false),
        Ok(Ended::Interrupted) => finished(128 + libc::SIGTERM, false, true),
        Err(e) => {
            tell!("{e}");
            finished(127, false, false)
        }
    }
}

/// What to tell of a non-zero rc (Elasticsearch's wording), if anything.
pub(crate) fn failure_message(finished: &Finished, timeout: Option<Duration>) -> Option<String> {
    if finished.rc == 0 {
        return None;
    }
    let rc = finished.rc;
    Some(match timeout {
        Some(t) if finished.timed_out => {
            format!(
                "timed out after {} (rc={rc})",
                crate::time::format_duration(t)
            )
        }
        _ if finished.cancelled => format!("was cancelled (rc={rc})"),
        _ => format!("exited with {rc}"),
    })
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
