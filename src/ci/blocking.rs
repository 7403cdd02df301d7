//! Opt-in blocking, as Elasticsearch has it: a team lists its pull-request
//! labels, and on a pull request carrying one of them (an exact,
//! case-sensitive match) proven flakiness fails the report step with a
//! configured exit code. Only that: a crash, a failed download, a timeout or
//! a batch without a result never blocks. Each CI reads the pull request's
//! labels its own way (Buildkite a variable, GitHub the event file).

use crate::vars::{BLOCKING_LABELS, PROVEN_EXIT_CODE};
use crate::{Error, Result};
use serde_json::Value;
use std::path::Path;

/// Buildkite's labels of the build's pull request, comma-separated.
pub(crate) const BUILDKITE_LABELS_VAR: &str = "BUILDKITE_PULL_REQUEST_LABELS";

/// Codes a blocking step may not exit with: success, the report's own 1 and
/// 2, a timeout's 124, a kill's 137; and every code from 126 up (the shell's
/// and the signals').
const REFUSED: [u8; 5] = [0, 1, 2, 124, 137];
const FIRST_RESERVED: u32 = 126;

/// When the report step blocks a pull request.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Blocking {
    /// The opted-in labels; none: never block.
    pub labels: Vec<String>,
    /// The exit code that blocks (set whenever `labels` is).
    pub exit_code: Option<u8>,
}

impl Blocking {
    /// From the two variables' values, refusing what Elasticsearch refuses:
    /// an exit code that is no number, is 0, 1, 2, 124, 137 or 126 and up,
    /// and labels without an exit code.
    pub fn new(labels: Option<&str>, exit_code: Option<&str>) -> Result<Blocking> {
        let labels = split_labels(labels.unwrap_or_default());
        let exit_code = match exit_code.map(str::trim).filter(|c| !c.is_empty()) {
            Some(raw) => Some(proven_exit_code(raw)?),
            None if !labels.is_empty() => {
                return Err(Error::input(
                    PROVEN_EXIT_CODE,
                    format!(
                    "not set, but {BLOCKING_LABELS} is: name the exit code that blocks a labelled \
                         pull request with proven flakiness (3 to 125, not 124)"
                ),
                ))
            }
            None => None,
        };
        Ok(Blocking { labels, exit_code })
    }

    /// Blocking is configured (it may still never apply).
    pub fn is_on(&self) -> bool {
        !self.labels.is_empty()
    }

    /// The exit code of the report step for a pull request labelled
    /// `pr_labels` that proved `real_failures`: the configured code when the
    /// pull request opted in and flakiness is proven, else `None` (exit 0).
    pub fn exit_code(&self, pr_labels: &[String], real_failures: u64) -> Option<u8> {
        let opted_in = pr_labels.iter().any(|l| self.labels.contains(l));
        self.exit_code.filter(|_| opted_in && real_failures > 0)
    }

    /// One line for the log: whether this pull request is blocked, and why.
    pub fn explain(&self, pr_labels: &[String], real_failures: u64) -> String {
        if !self.is_on() {
            return format!("blocking is off ({BLOCKING_LABELS} is empty): the step exits 0");
        }
        let wanted = self.labels.join(", ");
        match self.exit_code(pr_labels, real_failures) {
            Some(code) => format!(
                "blocking: the pull request carries one of [{wanted}] and flakiness is proven: \
                 exit {code}"
            ),
            None if real_failures == 0 => {
                "blocking: no flakiness proven: the step exits 0".to_string()
            }
            None => format!(
                "blocking: the pull request carries none of [{wanted}] (its labels: [{}]): \
                 the step exits 0",
                pr_labels.join(", ")
            ),
        }
    }
}

/// The exit code `raw` names, if a blocking step may use it.
pub(crate) fn proven_exit_code(raw: &str) -> Result<u8> {
    let refuse = |why: &str| {
        Error::input(
            PROVEN_EXIT_CODE,
            format!(
                "{raw:?} {why}: use 3 to 125 but 124 (0, 1, 2, 124, 137 and 126 and up are \
                 success, the report's own codes, a timeout, a kill, or the shell's)"
            ),
        )
    };
    let code: u32 = raw.trim().parse().map_err(|_| refuse("is no exit code"))?;
    match u8::try_from(code) {
        Ok(c) if code < FIRST_RESERVED && !REFUSED.contains(&c) => Ok(c),
        _ => Err(refuse("is refused")),
    }
}

/// `a, b,,c` → `[a, b, c]`.
fn split_labels(raw: &str) -> Vec<String> {
    raw.split(',')
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(String::from)
        .collect()
}

/// The pull request's labels on Buildkite: `$BUILDKITE_PULL_REQUEST_LABELS`.
pub(crate) fn buildkite_labels(value: Option<&str>) -> Vec<String> {
    split_labels(value.unwrap_or_default())
}

/// The pull request's labels on GitHub Actions: `pull_request.labels[].name`
/// of the event file (`$GITHUB_EVENT_PATH`); none outside a pull request.
pub(crate) fn github_labels(event_path: Option<&Path>) -> Vec<String> {
    let Some(text) = event_path.and_then(|p| std::fs::read_to_string(p).ok()) else {
        return Vec::new();
    };
    let event: Value = serde_json::from_str(&text).unwrap_or_default();
    event["pull_request"]["labels"]
        .as_array()
        .map(|labels| {
            labels
                .iter()
                .filter_map(|l| l["name"].as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exit_codes_are_refused_as_elasticsearch_refuses_them() {
        for ok in ["3", "42", "125", " 7 "] {
            assert!(proven_exit_code(ok).is_ok(), "{ok}");
        }
        for bad in [
            "0", "1", "2", "124", "126", "137", "255", "256", "-1", "x", "",
        ] {
            let e = proven_exit_code(bad).unwrap_err().to_string();
            assert!(e.starts_with("FLAKINESS_PROVEN_EXIT_CODE: "), "{e}");
        }
        let e = Blocking::new(Some("team:search"), None).unwrap_err();
        assert!(
            e.to_string().starts_with(
                "FLAKINESS_PROVEN_EXIT_CODE: not set, but FLAKINESS_BLOCKING_LABELS is"
            ),
            "{e}"
        );
        assert_eq!(Blocking::new(None, None).unwrap(), Blocking::default());
    }

    #[test]
    fn only_proven_flakiness_on_an_opted_in_pull_request_blocks() {
        let b = Blocking::new(Some("Team:Search, team:ml"), Some("42")).unwrap();
        let labels = |l: &[&str]| l.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(b.exit_code(&labels(&[">bug", "Team:Search"]), 1), Some(42));
        assert_eq!(b.exit_code(&labels(&["Team:Search"]), 0), None);
        assert_eq!(
            b.exit_code(&labels(&["team:search"]), 3),
            None,
            "case-sensitive"
        );
        assert_eq!(b.exit_code(&labels(&["Team:Search2"]), 3), None, "exact");
        assert_eq!(b.exit_code(&[], 3), None);
        assert_eq!(Blocking::default().exit_code(&labels(&["x"]), 3), None);
    }

    #[test]
    fn labels_come_from_each_ci() {
        assert_eq!(buildkite_labels(Some("a, b c,,")), ["a", "b c"]);
        assert!(buildkite_labels(None).is_empty());
        let dir = tempfile::tempdir().unwrap();
        let event = dir.path().join("event.json");
        std::fs::write(
            &event,
            r#"{"pull_request": {"labels": [{"name": "Team:Search"}, {"name": ">test"}]}}"#,
        )
        .unwrap();
        assert_eq!(github_labels(Some(&event)), ["Team:Search", ">test"]);
        std::fs::write(&event, r#"{"push": {}}"#).unwrap();
        assert!(github_labels(Some(&event)).is_empty());
        assert!(github_labels(None).is_empty());
    }
}
