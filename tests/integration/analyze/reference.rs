//! The reference analyzer's checklist (its analyze.test.ts) on hand-made reports.

use super::{place, suite};
use gradle_flaky::analyze::model::report::{FailureKind, Report};
use gradle_flaky::analyze::{self, AnalyzeOptions};

/// Analyzes the given reports, each placed as `p/build/test-results/test/<name>`.
pub fn analyze_reports(files: &[(&str, &str)]) -> Report {
    let root = tempfile::tempdir().unwrap();
    for (name, xml) in files {
        place(
            root.path(),
            &format!("p/build/test-results/test/{name}"),
            xml,
        );
    }
    analyze::analyze_root(root.path(), &AnalyzeOptions::default())
}

fn analyze_one(xml: &str) -> Report {
    analyze_reports(&[("TEST-x.xml", xml)])
}

fn totals(r: &Report) -> (u64, u64, u64) {
    (r.summary.passed, r.summary.failed, r.summary.suite_timeouts)
}

#[test]
fn aggregates_passes_and_failures_per_class_and_method() {
    let r = analyze_one(&suite(
        r#"<testcase classname="FooTests" name="testBar"/>
<testcase classname="FooTests" name="testBar"><failure type="java.lang.AssertionError" message="boom"/></testcase>
<testcase classname="FooTests" name="testBar"/>"#,
    ));
    assert_eq!(totals(&r), (2, 1, 0));
    assert_eq!(r.tests.len(), 1);
    let t = &r.tests[0];
    assert_eq!((t.passes, t.failures), (2, 1));
    assert_eq!(t.failure_kinds.0, vec![(FailureKind::Assertion, 1)]);
}

#[test]
fn collapses_seeded_iterations() {
    let r = analyze_one(&suite(
        r#"<testcase classname="FooTests" name="testFlaky {seed=[AAAA:1111]}"/>
<testcase classname="FooTests" name="testFlaky {seed=[AAAA:2222]}"><failure message="boom"/></testcase>"#,
    ));
    assert_eq!(r.tests.len(), 1);
    let t = &r.tests[0];
    assert_eq!(
        (t.method.as_str(), t.passes, t.failures),
        ("testFlaky", 1, 1)
    );
    assert_eq!(t.examples.len(), 1);
    assert_eq!(t.examples[0].name, "testFlaky {seed=[AAAA:2222]}");
    assert_eq!(t.examples[0].message, "boom");
    assert_eq!(t.failing_seeds, vec!["AAAA:2222"]);
}

#[test]
fn reads_every_suite_inside_testsuites() {
    let r = analyze_one(
        r#"<testsuites>
<testsuite name="BetaTests"><testcase classname="BetaTests" name="testB"/></testsuite>
<testsuite name="AlphaTests"><testcase classname="AlphaTests" name="testA"/>
<testcase classname="AlphaTests" name="testA"><failure message="x"/></testcase></testsuite>
</testsuites>"#,
    );
    assert_eq!(totals(&r), (2, 1, 0));
    let rows: Vec<String> = r
        .tests
        .iter()
        .map(|t| format!("{}.{}", t.class, t.method))
        .collect();
    assert_eq!(rows, vec!["AlphaTests.testA", "BetaTests.testB"]);
    assert_eq!(r.files.reports.len(), 1);
    assert_eq!(
        (r.files.reports[0].counts.cases, r.files.reports[0].failed),
        (3, 1)
    );
}

#[test]
fn falls_back_to_the_body_text() {
    let r = analyze_one(&suite(
        r#"<testcase classname="C" name="entities"><failure type="java.lang.AssertionError">expected:&lt;1&gt; but was:&lt;2&gt;</failure></testcase>
<testcase classname="C" name="cdata"><error type="java.lang.RuntimeException"><![CDATA[java.lang.RuntimeException: boom
	at Foo.bar(Foo.java:42)]]></error></testcase>"#,
    ));
    let by = |m: &str| r.tests.iter().find(|t| t.method == m).unwrap();
    let entities = by("entities");
    assert!(entities.examples[0]
        .message
        .contains("expected:<1> but was:<2>"));
    assert_eq!(entities.failure_kinds.0, vec![(FailureKind::Assertion, 1)]);
    let cdata = by("cdata");
    assert_eq!(cdata.failure_kinds.0, vec![(FailureKind::Error, 1)]);
    assert!(cdata.examples[0].message.contains("boom"));
    assert!(cdata.examples[0].message.contains("Foo.bar(Foo.java:42)"));
}

#[test]
fn a_huge_body_is_kept_to_16_kib() {
    let body = "A".repeat(4 << 20);
    let r = analyze_one(&suite(&format!(
        r#"<testcase classname="C" name="t"><failure type="java.lang.AssertionError"><![CDATA[{body}]]></failure></testcase>"#
    )));
    assert_eq!(r.summary.failed, 1);
    assert_eq!(
        r.tests[0].failure_kinds.0,
        vec![(FailureKind::Assertion, 1)]
    );
    assert!(r.tests[0].examples[0].message.len() <= 16384);
}

#[test]
fn the_message_attribute_wins_unless_empty() {
    let r = analyze_one(&suite(
        r#"<testcase classname="C" name="a"><failure message="attr wins">body loses</failure></testcase>
<testcase classname="C" name="b"><failure message="">body text must be used</failure></testcase>
<testcase classname="C" name="c"><failure>body text when absent</failure></testcase>
<testcase classname="C" name="d"><failure message="boom"/></testcase>"#,
    ));
    let message = |m: &str| {
        r.tests.iter().find(|t| t.method == m).unwrap().examples[0]
            .message
            .clone()
    };
    assert_eq!(message("a"), "attr wins");
    assert_eq!(message("b"), "body text must be used");
    assert_eq!(message("c"), "body text when absent");
    assert_eq!(message("d"), "boom");
}

#[test]
fn huge_system_streams_are_skipped() {
    let cases: String = (0..200)
        .map(|_| r#"<testcase classname="C" name="t"/>"#)
        .collect();
    let out = "o".repeat(2 << 20);
    let err = "e".repeat(1 << 20);
    let r = analyze_one(&suite(&format!(
        "{cases}<system-out><![CDATA[{out}]]></system-out><system-err><![CDATA[{err}]]></system-err>"
    )));
    assert_eq!(totals(&r), (200, 0, 0));
    assert_eq!(r.tests.len(), 1);
    assert_eq!(r.tests[0].passes, 200);
}

#[test]
fn system_out_inside_a_testcase_is_skipped() {
    let r = analyze_one(&suite(
        r#"<testcase classname="C" name="a"><system-out>chatter &lt;testcase&gt;</system-out></testcase>
<testcase classname="C" name="b"><system-out><![CDATA[<failure message="fake"/>]]></system-out><failure message="boom"/></testcase>"#,
    ));
    assert_eq!(totals(&r), (1, 1, 0));
    let failing = r.tests.iter().find(|t| t.failures > 0).unwrap();
    let messages: Vec<&str> = failing
        .examples
        .iter()
        .map(|e| e.message.as_str())
        .collect();
    assert_eq!(messages, vec!["boom"]);
}

#[test]
fn a_system_out_tag_inside_a_cdata_body_is_text() {
    let r = analyze_one(&suite(
        r#"<testcase classname="C" name="a"><failure><![CDATA[<system-out>leaked into the message</system-out>]]></failure></testcase>"#,
    ));
    let message = &r.tests[0].examples[0].message;
    assert!(message.contains("<system-out>") && message.contains("leaked into the message"));
}

#[test]
fn malformed_xml_is_listed_and_the_other_files_still_count() {
    let r = analyze_reports(&[
        (
            "TEST-bad.xml",
            r#"<testsuite><testcase classname="C" name="a"></testsuite>"#,
        ),
        (
            "TEST-good.xml",
            &suite(r#"<testcase classname="D" name="b"/>"#),
        ),
    ]);
    assert_eq!(r.files.malformed.len(), 1);
    assert!(r.files.malformed[0].path.ends_with("TEST-bad.xml"));
    assert_eq!(totals(&r), (1, 0, 0));
}

#[test]
fn suite_timeout_markers_are_informational() {
    let r = analyze_one(&suite(
        r#"<testcase classname="C" name="ok"/>
<testcase classname="C" name="slow"><failure type="java.lang.Exception" message="java.lang.Exception: Test abandoned because suite timeout was reached."/></testcase>
<testcase classname="C" name="@@suite@@"><error type="java.lang.Exception" message="Suite timeout exceeded (&gt;= 3600000 msec)."/></testcase>"#,
    ));
    assert_eq!(totals(&r), (1, 0, 2));
    assert_eq!(r.summary.executions, 3);
}
