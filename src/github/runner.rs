//! What a step hands back to the GitHub Actions runner: step outputs
//! (`$GITHUB_OUTPUT`), the job summary (`$GITHUB_STEP_SUMMARY`, markdown, at
//! most 1 MiB per step), and log text that must not be read as workflow
//! commands.

use crate::hex;
use crate::tell;
use crate::{Error, Result};
use sha2::{Digest, Sha256};
use std::io::Write;
use std::path::{Path, PathBuf};

/// GitHub refuses a step summary over 1 MiB (and shows none of it).
pub(crate) const SUMMARY_LIMIT: usize = 1024 * 1024;

/// The runner's files, from the step's environment (unset outside Actions).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct RunnerFiles {
    pub output: Option<PathBuf>,
    pub summary: Option<PathBuf>,
}

impl RunnerFiles {
    /// Reads `$GITHUB_OUTPUT` and `$GITHUB_STEP_SUMMARY`.
    pub(crate) fn from_env() -> RunnerFiles {
        let path = |name: &str| {
            std::env::var_os(name)
                .filter(|v| !v.is_empty())
                .map(PathBuf::from)
        };
        RunnerFiles {
            output: path("GITHUB_OUTPUT"),
            summary: path("GITHUB_STEP_SUMMARY"),
        }
    }

    /// Appends step outputs to `$GITHUB_OUTPUT`; without it (not in a
    /// workflow) prints them on stdout in the same form.
    pub(crate) fn set_outputs(&self, outputs: &[(&str, String)]) -> Result<()> {
        let text: String = outputs.iter().map(|(k, v)| output_entry(k, v)).collect();
        match &self.output {
            Some(path) => append(path, &text),
            None => {
                tell!("$GITHUB_OUTPUT is not set: the step outputs follow");
                crate::output::stdout(&text);
                Ok(())
            }
        }
    }

    /// Appends markdown to the step's summary, cut to what is left of the
    /// limit. Returns false when there is no summary file (not in a workflow).
    pub(crate) fn append_summary(&self, markdown: &str) -> Result<bool> {
        let Some(path) = &self.summary else {
            return Ok(false);
        };
        let used = std::fs::metadata(path)
            .map(|m| m.len() as usize)
            .unwrap_or(0);
        let note = "\n\n_(summary truncated to fit GitHub's 1 MiB step summary limit; the full \
                    report is in the step's log)_\n";
        let room = SUMMARY_LIMIT.saturating_sub(used + 1);
        let body = crate::markdown::fit(markdown, room, note);
        append(path, &format!("{body}\n"))?;
        Ok(true)
    }
}

/// One `name=value` line; a value with a line break uses the delimited form,
/// with a delimiter the value does not contain.
fn output_entry(name: &str, value: &str) -> String {
    if !value.contains(['\n', '\r']) {
        return format!("{name}={value}\n");
    }
    let delimiter = token_not_in(value, "GRADLE_FLAKY_EOF");
    format!("{name}<<{delimiter}\n{value}\n{delimiter}\n")
}

fn append(path: &Path, text: &str) -> Result<()> {
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .and_then(|mut f| f.write_all(text.as_bytes()))
        .map_err(|e| Error::io(path, e))
}

/// Prints `text` (from a branch: test names, failure messages) on stdout with
/// workflow commands switched off around it, so no line of it can become an
/// annotation, a mask or an output.
pub(crate) fn print_untrusted(text: &str) {
    let token = token_not_in(text, "gradle-flaky");
    crate::output::stdout(&format!("::stop-commands::{token}\n{text}\n::{token}::\n"));
}

/// A token that does not occur in `text`: `prefix` and a hash of the text,
/// the process and the time (never guessable from the text alone).
fn token_not_in(text: &str, prefix: &str) -> String {
    let mut salt = 0u32;
    loop {
        let mut hash = Sha256::new();
        hash.update(text.as_bytes());
        hash.update(std::process::id().to_le_bytes());
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or_default();
        hash.update(now.to_le_bytes());
        hash.update(salt.to_le_bytes());
        let token = format!("{prefix}-{}", &hex::encode(hash.finalize())[..24]);
        if !text.contains(&token) {
            return token;
        }
        salt += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outputs_are_lines_and_multi_line_values_are_delimited() {
        assert_eq!(
            output_entry("matrix", r#"{"batch":[0,1]}"#),
            "matrix={\"batch\":[0,1]}\n"
        );
        let entry = output_entry("x", "a\nb");
        let delimiter = entry.lines().next().unwrap().strip_prefix("x<<").unwrap();
        assert!(delimiter.starts_with("GRADLE_FLAKY_EOF-"), "{entry}");
        assert_eq!(entry, format!("x<<{delimiter}\na\nb\n{delimiter}\n"));
    }

    #[test]
    fn outputs_and_the_summary_are_appended_to_the_runners_files() {
        let dir = tempfile::tempdir().unwrap();
        let runner = RunnerFiles {
            output: Some(dir.path().join("out")),
            summary: Some(dir.path().join("summary")),
        };
        runner.set_outputs(&[("a", "1".into())]).unwrap();
        runner.set_outputs(&[("b", "2".into())]).unwrap();
        let out = std::fs::read_to_string(dir.path().join("out")).unwrap();
        assert_eq!(out, "a=1\nb=2\n");
        assert!(runner.append_summary("# one").unwrap());
        let big = "| row |\n".repeat(SUMMARY_LIMIT / 8 + 100);
        assert!(runner.append_summary(&big).unwrap());
        let summary = std::fs::read_to_string(dir.path().join("summary")).unwrap();
        assert!(summary.len() <= SUMMARY_LIMIT, "{}", summary.len());
        assert!(summary.starts_with("# one\n| row |\n"));
        assert!(summary.contains("summary truncated"));
        assert!(!RunnerFiles::default().append_summary("x").unwrap());
    }
}
