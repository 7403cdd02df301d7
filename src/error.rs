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
    /// Infrastructure failure: Gradle missing or failed before running tests,
    /// no test executed, build failure.
    Infra,
    /// Interrupted (Ctrl-C).
    Interrupted,
}

impl Exit {
    pub fn code(self) -> i32 {
        match self {
            Exit::Clean => 0,
            Exit::TestFailures => 1,
            Exit::Usage => 2,
            Exit::Infra => 3,
            Exit::Interrupted => 130,
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
            Error::GradleNotFound(_) | Error::Infra(_) | Error::Io { .. } => Exit::Infra,
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
}
