//! One error type for the whole tool, mapped to the documented exit codes.

use std::path::{Path, PathBuf};

/// The documented exit codes (README.md, "Exit codes").
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Exit {
    /// Everything that ran passed.
    Clean,
    /// At least one real test failure: flakiness proven.
    TestFailures,
    /// Usage or input error.
    Usage,
    /// No trustworthy result: Gradle missing or failed before running tests,
    /// no test executed, build failure, a timeout, a test run fewer times than planned.
    Infra,
    /// Interrupted (Ctrl-C).
    Interrupted,
    /// Proven flakiness on a pull request that opted in to blocking: the
    /// configured exit code (`FLAKINESS_PROVEN_EXIT_CODE`).
    Proven(u8),
}

impl Exit {
    pub fn code(self) -> i32 {
        match self {
            Exit::Clean => 0,
            Exit::TestFailures => 1,
            Exit::Usage => 2,
            Exit::Infra => 3,
            Exit::Interrupted => 130,
            Exit::Proven(code) => code.into(),
        }
    }
}

/// What a finished command observed, for its exit status.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Observed {
    /// The user (or a signal) stopped the run.
    pub interrupted: bool,
    /// Real test failures (suite timeouts and heap exhaustion excluded).
    pub real_failures: u64,
    /// Test executions counted.
    pub executions: u64,
    /// Some part of the run has no trustworthy result (no tests executed, a
    /// timeout, a build failure, fewer executions than planned).
    pub untrustworthy: bool,
}

impl Exit {
    /// The one exit policy of every command that runs or reads tests.
    /// Precedence: interrupted (130); a real failure (1: flakiness is proven
    /// whatever else went wrong); nothing executed or a part without a
    /// trustworthy result (3); else 0.
    pub fn of(o: Observed) -> Exit {
        if o.interrupted {
            Exit::Interrupted
        } else if o.real_failures > 0 {
            Exit::TestFailures
        } else if o.executions == 0 || o.untrustworthy {
            Exit::Infra
        } else {
            Exit::Clean
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A command-line mistake.
    #[error("{0}")]
    Usage(String),
    /// Bad input data; `what` names the input at fault (file, file:line, argument).
    #[error("{what}: {message}")]
    Input { what: String, message: String },
    /// No Gradle could be found to run.
    #[error("{0}")]
    GradleNotFound(String),
    /// Gradle (or another tool we drive) failed before any test ran.
    #[error("{0}")]
    Infra(String),
    /// A file or process could not be read, written or started.
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// The user pressed Ctrl-C.
    #[error("interrupted")]
    Interrupted,
    /// Gradle ran past a time limit before any test ran (a build whose
    /// configuration hangs) and was stopped.
    #[error("{0}")]
    TimedOut(String),
}

impl Error {
    pub fn usage(message: impl Into<String>) -> Self {
        Error::Usage(message.into())
    }

    pub fn input(what: impl Into<String>, message: impl Into<String>) -> Self {
        Error::Input {
            what: what.into(),
            message: message.into(),
        }
    }

    pub fn infra(message: impl Into<String>) -> Self {
        Error::Infra(message.into())
    }

    pub fn io(path: impl AsRef<Path>, source: std::io::Error) -> Self {
        Error::Io {
            path: path.as_ref().to_path_buf(),
            source,
        }
    }

    /// The exit code this error maps to.
    pub fn exit(&self) -> Exit {
        match self {
            Error::Usage(_) | Error::Input { .. } => Exit::Usage,
            Error::GradleNotFound(_) | Error::Infra(_) | Error::Io { .. } | Error::TimedOut(_) => {
                Exit::Infra
            }
            Error::Interrupted => Exit::Interrupted,
        }
    }
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_error_maps_to_a_documented_code() {
        assert_eq!(Error::usage("x").exit().code(), 2);
        assert_eq!(Error::input("f.yml:3", "bad").exit().code(), 2);
        assert_eq!(Error::GradleNotFound("none".into()).exit().code(), 3);
        assert_eq!(Error::infra("boom").exit().code(), 3);
        assert_eq!(Error::Interrupted.exit().code(), 130);
        assert_eq!(
            Error::input("muted-tests.yml:12", "bad indent").to_string(),
            "muted-tests.yml:12: bad indent"
        );
    }

    #[test]
    fn the_exit_policy_puts_interrupts_then_failures_first() {
        let ran = Observed {
            executions: 5,
            ..Observed::default()
        };
        assert_eq!(Exit::of(ran), Exit::Clean);
        assert_eq!(Exit::of(Observed::default()), Exit::Infra);
        let bad = Observed {
            untrustworthy: true,
            ..ran
        };
        assert_eq!(Exit::of(bad), Exit::Infra);
        let failed = Observed {
            real_failures: 1,
            ..bad
        };
        assert_eq!(Exit::of(failed), Exit::TestFailures);
        let stopped = Observed {
            interrupted: true,
            ..failed
        };
        assert_eq!(Exit::of(stopped), Exit::Interrupted);
    }
}
