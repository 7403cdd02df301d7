//! A class that runs no test: JUnit's report of a class it found nothing to
//! run in (`initializationError`: "No runnable methods", "No tests found
//! matching …"; JUnit 3's `warning`: "No tests found in …"). For a class
//! gradle-flaky chose, that is never a verdict about a test: the class is
//! `not-a-test` (a helper taken for a test, a filter that matched nothing),
//! set apart from the executions, and the exit code follows what really ran.

use crate::analyze::model::report::NotATest;
use crate::analyze::read::junit::{CaseResult, Execution};

/// The names JUnit gives the case of a class it found no test in.
const CASE_NAMES: [&str; 2] = ["initializationError", "warning"];

/// What such a case says, at the start of its message.
const MESSAGES: [&str; 2] = ["No runnable methods", "No tests found"];

/// JUnit's words when `exec` is the case of a class it found no test in:
/// the line of its message that says so (JUnit 4.13 lists every problem of
/// an invalid class, `InvalidTestClassError`, one numbered line each).
pub(crate) fn message<'e>(exec: &'e Execution<'_>) -> Option<&'e str> {
    let CaseResult::Failed(failure) = &exec.result else {
        return None;
    };
    // gradle-flaky's JUnit 4 runner appends each case's iteration (`initializationError #1`).
    let (name, _) = crate::analyze::read::names::normalize_method(exec.name);
    if !CASE_NAMES.contains(&name.as_ref()) {
        return None;
    }
    failure.message.lines().find_map(|line| {
        let said = line.trim_start();
        // JUnit 4 wraps its own: "java.lang.Exception: No runnable methods".
        let said = said.strip_prefix("java.lang.Exception: ").unwrap_or(said);
        let said = strip_number(said);
        MESSAGES
            .iter()
            .any(|start| said.starts_with(start))
            .then_some(said)
    })
}

/// `2. No runnable methods` → `No runnable methods`.
fn strip_number(line: &str) -> &str {
    let digits = line.len() - line.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    match line[digits..].strip_prefix(". ") {
        Some(rest) if digits > 0 => rest,
        _ => line,
    }
}

/// Adds one such case to `found` (one entry per class).
pub(crate) fn add(
    found: &mut Vec<NotATest>,
    class: &str,
    task: Option<&str>,
    message: &str,
    times: u64,
) {
    match found.iter_mut().find(|n| n.class == class) {
        Some(n) => n.times += times,
        None => found.push(NotATest {
            class: class.to_string(),
            task: task.map(str::to_string),
            message: message.to_string(),
            times,
            reason_code: crate::domain::ReasonCode::NotATest,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyze::read::junit::Failure;

    fn case<'a>(name: &'a str, type_name: &str, message: &str) -> Execution<'a> {
        Execution {
            class: "a.HelperTest",
            name,
            time: None,
            primary: true,
            result: CaseResult::Failed(Failure {
                type_name: type_name.into(),
                message: message.into(),
                seed: None,
            }),
        }
    }

    #[test]
    fn junits_no_test_cases_are_told_from_real_failures() {
        for (name, message) in [
            ("initializationError", "No runnable methods"),
            ("initializationError", "java.lang.Exception: No runnable methods"),
            (
                "initializationError",
                "No tests found matching Method t(a.HelperTest) from org.junit.internal.requests.ClassRequest@1",
            ),
            ("warning", "No tests found in a.HelperTest"),
            ("initializationError #1", "No runnable methods"),
        ] {
            let exec = case(name, "java.lang.Exception", message);
            let said = message.strip_prefix("java.lang.Exception: ").unwrap_or(message);
            assert_eq!(message_of(&exec), Some(said), "{name}: {message}");
        }
        // JUnit 4.13 on Gradle 4.4.1 (measured): every problem, numbered.
        let invalid = "org.junit.runners.model.InvalidTestClassError: Invalid test class 'a.F':\n  \
                       1. Test class should have exactly one public constructor\n  2. No runnable methods";
        let exec = case(
            "initializationError",
            "org.junit.runners.model.InvalidTestClassError",
            invalid,
        );
        assert_eq!(message_of(&exec), Some("No runnable methods"));
        // An invalid class with tests is a failure: no test was missing.
        let bad_constructor =
            "Invalid test class 'a.F':\n  1. Test class should have exactly one public constructor";
        let exec = case(
            "initializationError",
            "org.junit.runners.model.InvalidTestClassError",
            bad_constructor,
        );
        assert_eq!(message_of(&exec), None);
        // A real initialization failure, and a test named so, are failures.
        let exec = case(
            "initializationError",
            "java.lang.NullPointerException",
            "boom",
        );
        assert_eq!(message_of(&exec), None);
        let exec = case(
            "testNoTestsFound",
            "java.lang.AssertionError",
            "No tests found",
        );
        assert_eq!(message_of(&exec), None);
    }

    fn message_of<'e>(exec: &'e Execution<'_>) -> Option<&'e str> {
        message(exec)
    }

    #[test]
    fn each_class_is_listed_once_with_its_count() {
        let mut found = Vec::new();
        add(&mut found, "a.X", Some(":p:test"), "No runnable methods", 1);
        add(&mut found, "a.X", Some(":p:test"), "No runnable methods", 2);
        add(&mut found, "a.Y", None, "No tests found in a.Y", 1);
        assert_eq!(found.len(), 2);
        assert_eq!(
            (found[0].times, found[0].message.as_str()),
            (3, "No runnable methods")
        );
        let json = serde_json::to_value(&found[0]).unwrap();
        assert_eq!(json["reasonCode"], "not-a-test");
    }
}
