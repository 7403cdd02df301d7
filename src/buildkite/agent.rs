//! The `buildkite-agent` CLI: the only way the tool talks to Buildkite.
//! Every call is an argv (never a shell string); bodies go on stdin.

use crate::{Error, Result};
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

/// Buildkite rejects annotation bodies over 1 MiB.
pub(crate) const ANNOTATION_LIMIT: usize = 1024 * 1024;

/// The agent program on PATH.
#[derive(Clone, Debug)]
pub(crate) struct Agent {
    program: String,
}

impl Default for Agent {
    fn default() -> Self {
        Agent {
            program: "buildkite-agent".into(),
        }
    }
}

impl Agent {
    /// `pipeline upload` with the pipeline (JSON) on stdin.
    pub(crate) fn pipeline_upload(&self, pipeline: &str) -> Result<()> {
        self.call(&["pipeline", "upload"], Some(pipeline))
    }

    /// `annotate` with the body on stdin (style: success, info, warning, error).
    pub(crate) fn annotate(
        &self,
        body: &str,
        style: &str,
        context: &str,
        append: bool,
    ) -> Result<()> {
        let mut args = vec!["annotate", "--style", style, "--context", context];
        if append {
            args.push("--append");
        }
        self.call(&args, Some(body))
    }

    /// `artifact download GLOB DEST [--step STEP]`; fails when nothing matched.
    pub(crate) fn artifact_download(
        &self,
        glob: &str,
        dest: &Path,
        step: Option<&str>,
    ) -> Result<()> {
        let dest = dest.to_string_lossy();
        let mut args = vec!["artifact", "download", glob, &dest];
        if let Some(step) = step {
            args.extend(["--step", step]);
        }
        self.call(&args, None)
    }

    /// `artifact download GLOB DEST --build BUILD`: another build's artifacts
    /// (BUILD, its UUID); fails when nothing matched.
    pub(crate) fn artifact_download_from_build(
        &self,
        glob: &str,
        dest: &Path,
        build: &str,
    ) -> Result<()> {
        let dest = dest.to_string_lossy();
        self.call(
            &["artifact", "download", glob, &dest, "--build", build],
            None,
        )
    }

    /// `artifact upload GLOB`.
    pub(crate) fn artifact_upload(&self, glob: &str) -> Result<()> {
        self.call(&["artifact", "upload", glob], None)
    }

    /// `meta-data exists KEY` (exit 0: it exists; 100: it does not).
    pub(crate) fn meta_data_exists(&self, key: &str) -> Result<bool> {
        let status = Command::new(&self.program)
            .args(["meta-data", "exists", key])
            .stdin(Stdio::null())
            .status()
            .map_err(|e| self.spawn_error(e))?;
        match status.code() {
            Some(0) => Ok(true),
            Some(100) => Ok(false),
            _ => Err(Error::infra(format!(
                "buildkite-agent meta-data exists {key}: {status}"
            ))),
        }
    }

    /// `meta-data set KEY VALUE`.
    pub(crate) fn meta_data_set(&self, key: &str, value: &str) -> Result<()> {
        self.call(&["meta-data", "set", key, value], None)
    }

    fn call(&self, args: &[&str], stdin: Option<&str>) -> Result<()> {
        let mut child = Command::new(&self.program)
            .args(args)
            .stdin(if stdin.is_some() {
                Stdio::piped()
            } else {
                Stdio::null()
            })
            .spawn()
            .map_err(|e| self.spawn_error(e))?;
        if let (Some(body), Some(mut pipe)) = (stdin, child.stdin.take()) {
            // A write error shows up as the agent's exit status below.
            let _ = pipe.write_all(body.as_bytes());
        }
        let status = child.wait().map_err(|e| self.spawn_error(e))?;
        if status.success() {
            Ok(())
        } else {
            Err(Error::infra(format!(
                "`buildkite-agent {}` failed: {status}",
                args[..2].join(" ")
            )))
        }
    }

    fn spawn_error(&self, e: std::io::Error) -> Error {
        Error::infra(format!(
            "cannot run {}: {e} (is this a Buildkite job?)",
            self.program
        ))
    }
}

/// Cuts `body` to fit an annotation, on a line boundary, saying so.
pub(crate) fn fit_annotation(body: &str) -> String {
    const NOTE: &str = "\n\n_(report truncated to fit Buildkite's 1 MiB annotation limit; \
        the full report is in the job log)_\n";
    crate::markdown::fit(body, ANNOTATION_LIMIT, NOTE)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn annotations_are_cut_to_the_limit_on_a_line_boundary() {
        assert_eq!(fit_annotation("short"), "short");
        let line = "| `a.B.test` | 1 | é |\n";
        let body = line.repeat(ANNOTATION_LIMIT / line.len() + 10);
        let fitted = fit_annotation(&body);
        assert!(fitted.len() <= ANNOTATION_LIMIT);
        assert!(fitted.contains("truncated"));
        assert!(fitted.split("\n\n_(report").next().unwrap().ends_with("|"));
    }
}
