//! Writing what a command prints. Output cut short by a closed pipe
//! (`gradle-flaky analyze --format json | head -1`) is not an error: the rest
//! is dropped quietly, and the command still finishes its work (stops its
//! processes, writes its files) and exits with the code it would have had.

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};

static STDOUT_CLOSED: AtomicBool = AtomicBool::new(false);

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
            let _ = writeln!(
                std::io::stderr(),
                "gradle-flaky: cannot write to stdout: {e}"
            );
        }
    }
}

/// Writes `text` and a line break to stdout.
pub fn stdout_line(text: &str) {
    stdout(&format!("{text}\n"));
}
