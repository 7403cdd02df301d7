//! What classifying one file or class yields, and how the outcomes for one
//! input become a [`Selection`].

use super::expansion::Expansion;
use super::selection::Selection;
use super::tasks::TaskSelection;
use crate::domain::{ClassifiedTest, Origin, Reason, ReasonCode, Unresolved};

/// Why a file or class yields no runnable test.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Skip {
    /// Not a test at all (main code, a helper, a resource): a changed file like
    /// this is simply not selected.
    NotATest(String),
    /// A test that cannot be run as asked; reported as unresolved with this reason.
    Unresolved(Reason),
}

pub(crate) type Classification = Result<ClassifiedTest, Skip>;

/// What classification decided beyond the tests themselves.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Decisions {
    pub task_selections: Vec<TaskSelection>,
    pub expansions: Vec<Expansion>,
    /// How classes were run otherwise than named (bulk tests).
    pub notes: Vec<String>,
}

/// What classifying one input came to: an outcome per file and task, and
/// what was decided on the way (tasks chosen among several, bases expanded).
#[derive(Clone, Debug, Default)]
pub struct Classified {
    pub outcomes: Vec<Classification>,
    pub decisions: Decisions,
}

/// Refuses a test whose class, method or YAML suite holds a control character
/// (ESC, BEL, a newline...): a `--tests` filter or `-D` value does not carry
/// it to the test JVM reliably, and JUnit XML cannot hold it (Gradle writes
/// `?`), so the test would run under another name or not at all, and its
/// results would not be found under the name selected.
fn unsupported_characters(test: &ClassifiedTest) -> Option<Reason> {
    let names = [&test.class, &test.method, &test.yaml_suite];
    let bad = names
        .into_iter()
        .flatten()
        .flat_map(|name| name.chars())
        .find(|c| c.is_control())?;
    Some(Reason::new(
        ReasonCode::UnsupportedCharacters,
        format!(
            "its name holds the control character U+{:04X}, which Gradle and JUnit XML cannot \
             carry intact",
            u32::from(bad)
        ),
    ))
}

/// Turns the outcomes for one input into a `Selection`: the runnable tests,
/// and unresolved entries for tests that cannot run. "Not a test" outcomes are
/// reported only when nothing else came out and the input named a test on
/// purpose (explicit specs and unmutes, not changed files): those pass the
/// reason to give when nothing at all was found, `not_found`.
pub(crate) fn settle(
    input: &str,
    origin: Origin,
    classified: Classified,
    not_found: Option<Reason>,
) -> Selection {
    let Classified {
        outcomes,
        decisions,
    } = classified;
    let mut selection = Selection {
        task_selections: decisions.task_selections,
        expansions: decisions.expansions,
        notes: decisions.notes,
        ..Selection::default()
    };
    let mut reasons: Vec<Reason> = Vec::new();
    let mut not_tests: Vec<String> = Vec::new();
    for outcome in outcomes {
        match outcome {
            Ok(test) => match unsupported_characters(&test) {
                Some(reason) => reasons.push(reason),
                None => selection.tests.push(test),
            },
            Err(Skip::Unresolved(reason)) => reasons.push(reason),
            Err(Skip::NotATest(reason)) => not_tests.push(reason),
        }
    }
    if let (Some(not_found), true) = (not_found, selection.tests.is_empty() && reasons.is_empty()) {
        reasons = if not_tests.is_empty() {
            vec![not_found]
        } else {
            not_tests
                .into_iter()
                .map(|text| Reason::new(ReasonCode::NotATest, text))
                .collect()
        };
    }
    for reason in reasons {
        selection.unresolved.push(Unresolved {
            input: input.to_string(),
            reason_code: reason.code,
            reason: reason.text,
            origin,
        });
    }
    // Merged into an empty one: repeated tests and reasons come out once.
    let mut merged = Selection::default();
    merged.merge(selection);
    merged
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settle_reports_not_tests_only_for_inputs_that_name_tests() {
        let not_test = || Classified {
            outcomes: vec![Err(Skip::NotATest("not a test class or YAML suite".into()))],
            ..Classified::default()
        };
        let none = || Some(Reason::new(ReasonCode::NoSuchClass, "none"));
        assert!(settle("a", Origin::Changed, not_test(), None).is_empty());
        let s = settle("a", Origin::Explicit, not_test(), none());
        assert_eq!(s.unresolved[0].reason, "not a test class or YAML suite");
        let s = settle(
            "a",
            Origin::Explicit,
            Classified::default(),
            Some(Reason::new(ReasonCode::NoSuchClass, "no such class")),
        );
        assert_eq!(s.unresolved[0].reason, "no such class");
        assert_eq!(s.unresolved[0].origin, Origin::Explicit);
    }
}
