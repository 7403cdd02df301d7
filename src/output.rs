//! Writing what a command prints. Output cut short by a closed pipe
//! (`gradle-flaky analyze --format json | head -1`) or a terminal that went
//! away is not an error: the rest is dropped quietly, and the command still
//! finishes its work (stops its processes, writes its files) and exits with the
//! code it would have had. Nothing here panics, unlike `eprintln!`, which does
//! when stderr is closed: every message of the tool goes through [`say!`].

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};

static STDOUT_CLOSED: AtomicBool = AtomicBool::new(false);
static STDERR_CLOSED: AtomicBool = AtomicBool::new(false);

/// Writes `text` to stdout as it is. Errors other than a closed pipe are
/// reported once on stderr; nothing here panics.
pub fn stdout(text: &str) {
    if STDOUT_CLOSED.load(Ordering::Relaxed) {
        return;
    }
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        STDOUT_CLOSED.store(true, Ordering::Relaxed);
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            stderr(&format!("{PREFIX}cannot write to stdout: {e}\n"));
        }
    }
}

/// Writes `text` and a line break to stdout.
pub fn stdout_line(text: &str) {
    stdout(&format!("{text}\n"));
}

/// Whether stdout could not be written to (a closed pipe, a vanished
/// terminal): what was meant for it should be kept elsewhere.
pub fn stdout_closed() -> bool {
    STDOUT_CLOSED.load(Ordering::Relaxed)
}

/// Writes `text` to stderr as it is; once a write fails, stderr is given up
/// for the rest of the run.
pub fn stderr(text: &str) {
    if STDERR_CLOSED.load(Ordering::Relaxed) {
        return;
    }
    let mut err = std::io::stderr().lock();
    if err
        .write_all(text.as_bytes())
        .and_then(|()| err.flush())
        .is_err()
    {
        STDERR_CLOSED.store(true, Ordering::Relaxed);
    }
}

/// Writes `text` and a line break to stderr.
pub fn stderr_line(text: &str) {
    stderr(&format!("{text}\n"));
}

/// `eprintln!` that never panics: a formatted line to stderr through
/// [`stderr_line`].
#[macro_export]
macro_rules! say {
    ($($arg:tt)*) => {
        $crate::output::stderr_line(&format!($($arg)*))
    };
}

/// The prefix of every line gradle-flaky says of its own.
pub const PREFIX: &str = "gradle-flaky: ";

/// A line of gradle-flaky's own on stderr: `gradle-flaky: <text>`, at
/// `level` (`note: ` something worth knowing, `warning: ` something went
/// wrong and the run goes on, or nothing).
pub fn tell(level: &str, text: &str) {
    stderr_line(&format!("{PREFIX}{level}{text}"));
}

/// `gradle-flaky: <text>`: what gradle-flaky is doing or did.
#[macro_export]
macro_rules! tell {
    ($($arg:tt)*) => {
        $crate::output::tell("", &format!($($arg)*))
    };
}

/// `gradle-flaky: note: <text>`: worth knowing, nothing wrong.
#[macro_export]
macro_rules! note {
    ($($arg:tt)*) => {
        $crate::output::tell("note: ", &format!($($arg)*))
    };
}

/// `gradle-flaky: warning: <text>`: something went wrong; the run goes on.
#[macro_export]
macro_rules! warning {
    ($($arg:tt)*) => {
        $crate::output::tell("warning: ", &format!($($arg)*))
    };
}

#[cfg(test)]
mod tests {
    use std::process::{Command, Stdio};

    /// A closed stderr is the case `eprintln!` panics on; the binary under
    /// test is not needed to show that `say!` does not.
    #[test]
    fn writing_to_a_closed_stderr_does_not_panic() {
        // The test binary itself, re-run as a child whose stderr is a pipe
        // closed before it writes: only this test, filtered by name.
        let me = std::env::current_exe().unwrap();
        if std::env::var_os("GRADLE_FLAKY_CLOSED_STDERR_CHILD").is_some() {
            for _ in 0..1000 {
                say!("a line nobody reads");
            }
            super::stdout_line("done");
            return;
        }
        let mut child = Command::new(me)
            .args([
                "--exact",
                "output::tests::writing_to_a_closed_stderr_does_not_panic",
                "--nocapture",
                "--test-threads=1",
            ])
            .env("GRADLE_FLAKY_CLOSED_STDERR_CHILD", "1")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stderr.take());
        let out = child.wait_with_output().unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{stdout}");
        assert!(stdout.contains("done"), "{stdout}");
    }
}
