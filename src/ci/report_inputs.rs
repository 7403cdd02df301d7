//! What the planning step hands the report step beside the jobs' artifacts,
//! checked (Elasticsearch's `parseReportInputs`): whether the compile gate
//! failed and how many not-applicable tests it recorded come as values in the
//! step's environment (`FLAKINESS_COMPILE_FAILED`, `FLAKINESS_SKIPPED_COUNT`),
//! never from marker files whose absence reads as "nothing happened" (a
//! failed download once read as "compiled"); the skip list must hold as many
//! entries as declared. Every problem is said, and recorded as an
//! `infra_fail` of subtype `report_error`: never a silent default.

use crate::domain::Unresolved;
use crate::vars::{COMPILE_FAILED, SKIPPED_COUNT};

/// The report step's inputs, and what was wrong with them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct ReportInputs {
    pub compile_failed: bool,
    /// The not-applicable tests (the skip list's entries).
    pub skipped: Vec<Unresolved>,
    /// One sentence per problem.
    pub problems: Vec<String>,
}

/// The skip list as the report step found it.
pub(crate) enum SkipList {
    /// The file did not reach this step.
    Missing,
    /// Its text, to parse.
    Text(String),
    /// Already read (a plan file that carries the list).
    Entries(Vec<Unresolved>),
}

/// Checks the values (`None`: the variable is not set, or empty) and, when
/// tests were declared, the skip list `file` (read only then).
pub(crate) fn parse(
    compile_failed: Option<&str>,
    skipped_count: Option<&str>,
    file: &str,
    list: impl FnOnce() -> SkipList,
) -> ReportInputs {
    let mut problems = Vec::new();
    let compile_failed = match compile_failed {
        Some("true") => true,
        Some("false") => false,
        other => {
            problems.push(bad_value(COMPILE_FAILED, other));
            false
        }
    };
    let declared = match skipped_count.map(|v| (v, v.parse::<usize>())) {
        Some((_, Ok(n))) => n,
        Some((v, Err(_))) => {
            problems.push(bad_value(SKIPPED_COUNT, Some(v)));
            0
        }
        None => {
            problems.push(bad_value(SKIPPED_COUNT, None));
            0
        }
    };
    let skipped = match declared {
        0 => Vec::new(),
        n => checked_list(list(), file, n, &mut problems),
    };
    ReportInputs {
        compile_failed,
        skipped,
        problems,
    }
}

/// Reads the report step's own environment; `list` is read only when needed.
pub(crate) fn from_env(file: &str, list: impl FnOnce() -> SkipList) -> ReportInputs {
    let var = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
    parse(
        var(COMPILE_FAILED).as_deref(),
        var(SKIPPED_COUNT).as_deref(),
        file,
        list,
    )
}

/// `FLAKINESS_SKIPPED_COUNT is "x"`, `FLAKINESS_COMPILE_FAILED is undefined`.
fn bad_value(name: &str, value: Option<&str>) -> String {
    match value {
        None => format!("{name} is undefined"),
        Some(v) => format!("{name} is {}", serde_json::Value::String(v.to_string())),
    }
}

/// The entries of a skip list that must hold `declared` of them.
fn checked_list(
    list: SkipList,
    file: &str,
    declared: usize,
    problems: &mut Vec<String>,
) -> Vec<Unresolved> {
    let entries = match list {
        SkipList::Missing => {
            problems.push(format!(
                "{file} did not reach this step, but the planning step declared {declared}"
            ));
            return Vec::new();
        }
        SkipList::Entries(entries) => entries,
        SkipList::Text(text) => match parse_entries(&text, file) {
            Ok(entries) => entries,
            Err(problem) => {
                problems.push(problem);
                return Vec::new();
            }
        },
    };
    if entries.len() != declared {
        problems.push(format!(
            "{file} has {} entries, but the planning step declared {declared}",
            entries.len()
        ));
    }
    entries
}

/// A skip list's text: a JSON array of entries.
fn parse_entries(text: &str, file: &str) -> Result<Vec<Unresolved>, String> {
    let value: serde_json::Value =
        serde_json::from_str(text).map_err(|e| format!("{file} is not valid JSON: {e}"))?;
    let serde_json::Value::Array(items) = value else {
        return Err(format!("{file} is not a JSON array"));
    };
    items
        .into_iter()
        .enumerate()
        .map(|(i, item)| {
            serde_json::from_value(item)
                .map_err(|e| format!("{file} entry {} is no skip entry: {e}", i + 1))
        })
        .collect()
}

#[cfg(test)]
#[path = "report_inputs_tests.rs"]
mod tests;
