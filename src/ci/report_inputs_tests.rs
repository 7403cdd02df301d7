use super::*;
use crate::domain::{Origin, ReasonCode};

const FILE: &str = "flakiness-skipped.json";

fn entry(input: &str) -> serde_json::Value {
    serde_json::json!({
        "input": input, "reasonCode": "no-runnable-task", "reason": "disabled", "origin": "changed"
    })
}

fn inputs(compile: Option<&str>, count: Option<&str>, list: Option<&str>) -> ReportInputs {
    parse(compile, count, FILE, || match list {
        None => SkipList::Missing,
        Some(text) => SkipList::Text(text.to_string()),
    })
}

#[test]
fn good_inputs_have_no_problem_and_a_zero_count_reads_no_file() {
    let two = serde_json::json!([entry("a.A"), entry("a.B")]).to_string();
    let got = inputs(Some("false"), Some("2"), Some(&two));
    assert_eq!(got.problems, Vec::<String>::new());
    assert!(!got.compile_failed);
    assert_eq!(got.skipped.len(), 2);
    assert_eq!(got.skipped[1].reason_code, ReasonCode::NoRunnableTask);
    assert_eq!(got.skipped[1].origin, Origin::Changed);
    let none = parse(Some("true"), Some("0"), FILE, || panic!("not consulted"));
    assert_eq!(
        (none.compile_failed, none.skipped.len(), none.problems.len()),
        (true, 0, 0)
    );
}

/// Elasticsearch's cases, each one problem, never a default that hides it.
#[test]
fn every_problem_of_the_inputs_is_said() {
    let one = |compile, count, list| inputs(compile, count, list).problems;
    assert_eq!(
        one(None, Some("0"), None),
        ["FLAKINESS_COMPILE_FAILED is undefined"]
    );
    assert_eq!(
        one(Some("yes"), Some("0"), None),
        [r#"FLAKINESS_COMPILE_FAILED is "yes""#]
    );
    assert_eq!(
        one(Some("false"), Some("x"), None),
        [r#"FLAKINESS_SKIPPED_COUNT is "x""#]
    );
    assert_eq!(
        one(Some("false"), Some("-1"), None),
        [r#"FLAKINESS_SKIPPED_COUNT is "-1""#]
    );
    assert_eq!(
        one(Some("false"), None, None),
        ["FLAKINESS_SKIPPED_COUNT is undefined"]
    );
    assert_eq!(
        one(Some("false"), Some("3"), None),
        ["flakiness-skipped.json did not reach this step, but the planning step declared 3"]
    );
    let bad = one(Some("false"), Some("1"), Some("{not json"));
    assert!(
        bad[0].starts_with("flakiness-skipped.json is not valid JSON: "),
        "{bad:?}"
    );
    assert_eq!(
        one(Some("false"), Some("1"), Some(r#"{"input":"a.A"}"#)),
        ["flakiness-skipped.json is not a JSON array"]
    );
    let two = serde_json::json!([entry("a.A"), entry("a.B")]).to_string();
    assert_eq!(
        one(Some("false"), Some("3"), Some(&two)),
        ["flakiness-skipped.json has 2 entries, but the planning step declared 3"]
    );
    let wrong = one(Some("false"), Some("1"), Some(r#"[{"reason":"x"}]"#));
    assert!(
        wrong[0].starts_with("flakiness-skipped.json entry 1 is no skip entry: "),
        "{wrong:?}"
    );
    // Both values wrong: two problems.
    assert_eq!(one(Some("1"), Some(""), None).len(), 2);
}

/// An entry without a reason code keeps Elasticsearch's fallback.
#[test]
fn an_entry_without_a_reason_code_is_not_runnable() {
    let list = r#"[{"input":"a.A","reason":"no task","origin":"explicit"}]"#;
    let got = inputs(Some("false"), Some("1"), Some(list));
    assert_eq!(got.problems, Vec::<String>::new());
    assert_eq!(got.skipped[0].reason_code, ReasonCode::NotRunnable);
    assert!(got.skipped[0].reason_code.is_not_applicable());
}
