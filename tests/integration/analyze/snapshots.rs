//! Snapshots of the markdown and JSON reports for a run with flaky, clean,
//! always-failing and suite-timeout tests, and of the merged JUnit file.

use super::place;
use gradle_flaky::analyze::model::report::Report;
use gradle_flaky::analyze::{self, render, AnalyzeOptions};
use gradle_flaky::triage::replay;

const UNIT: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<testsuite name="org.example.FlakyTests" tests="6">
  <testcase name="testFlaky {seed=[C0FFEE:1]}" classname="org.example.FlakyTests" time="0.010"/>
  <testcase name="testFlaky {seed=[C0FFEE:2]}" classname="org.example.FlakyTests" time="0.010">
    <failure message="java.lang.AssertionError: expected:&lt;1&gt; but was:&lt;2&gt;" type="java.lang.AssertionError">java.lang.AssertionError: expected:&lt;1&gt; but was:&lt;2&gt;
	at __randomizedtesting.SeedInfo.seed([C0FFEE:2]:0)
</failure>
  </testcase>
  <testcase name="testFlaky {seed=[C0FFEE:3]}" classname="org.example.FlakyTests" time="0.010"/>
  <testcase name="testFlaky {seed=[C0FFEE:4]}" classname="org.example.FlakyTests" time="0.010">
    <failure message="java.lang.IllegalStateException: index | closed" type="java.lang.IllegalStateException">trace</failure>
  </testcase>
  <testcase name="testStable {seed=[C0FFEE:5]}" classname="org.example.FlakyTests" time="0.001"/>
  <testcase name="testStable {seed=[C0FFEE:6]}" classname="org.example.FlakyTests" time="0.001"/>
  <system-out><![CDATA[lots of output]]></system-out>
  <system-err><![CDATA[REPRODUCE WITH: ./gradlew ':server:test' --tests "org.example.FlakyTests.testFlaky" -Dtests.seed=C0FFEE:2
]]></system-err>
</testsuite>
"#;

const YAML: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<testsuite name="org.example.RestIT" tests="3">
  <testcase name="test {yaml=api/10_basic/Always fails}" classname="org.example.RestIT" time="0.5">
    <failure message="java.lang.AssertionError: status 500" type="java.lang.AssertionError">java.lang.AssertionError: status 500
	at __randomizedtesting.SeedInfo.seed([BEEF:7]:0)
</failure>
  </testcase>
  <testcase name="test {yaml=api/10_basic/Works}" classname="org.example.RestIT" time="0.5"/>
  <testcase name="test {yaml=api/10_basic/Skipped}" classname="org.example.RestIT" time="0"><skipped/></testcase>
</testsuite>
"#;

const SLOW: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<testsuite name="org.example.SlowTests" tests="3">
  <testcase name="testQuick" classname="org.example.SlowTests" time="0.1"/>
  <testcase name="testSlow" classname="org.example.SlowTests" time="2.0">
    <failure message="java.lang.Exception: Test abandoned because suite timeout was reached." type="java.lang.Exception">x</failure>
  </testcase>
  <testcase name="classMethod" classname="org.example.SlowTests" time="0.0">
    <failure message="java.lang.Exception: Suite timeout exceeded (&gt;= 2000 msec)." type="java.lang.Exception">x</failure>
  </testcase>
</testsuite>
"#;

pub fn mixed_report() -> (tempfile::TempDir, Report) {
    let root = tempfile::tempdir().unwrap();
    place(
        root.path(),
        "server/build/test-results/test/TEST-org.example.FlakyTests.xml",
        UNIT,
    );
    for i in 1..=2 {
        place(
            root.path(),
            &format!("flakiness-iters/iter-{i}/modules/api/build/test-results/yamlRestTest/TEST-org.example.RestIT.xml"),
            YAML,
        );
    }
    place(
        root.path(),
        "x-pack/plugin/ml/build/test-results/slowTests/TEST-org.example.SlowTests.xml",
        SLOW,
    );
    let report = analyze::analyze_root(root.path(), &AnalyzeOptions::default());
    (root, report)
}

#[test]
fn markdown_report() {
    let (_root, report) = mixed_report();
    insta::assert_snapshot!(render::markdown(&report));
}

#[test]
fn json_report() {
    let (_root, report) = mixed_report();
    insta::assert_snapshot!(render::json(&report));
}

#[test]
fn merged_junit_file() {
    let (_root, report) = mixed_report();
    insta::assert_snapshot!(render::junit(&report));
}

/// The mixed report after a triage: the flaky test's seeds replayed (one
/// reproducing every time, one not), the always-failing YAML case's seed
/// replayed but cut by the budget.
fn triaged_report() -> (tempfile::TempDir, Report) {
    /// Where the replays ran: the build's `./gradlew`.
    fn replay_env(gradle: &[String]) -> gradle_flaky::triage::Env<'_> {
        gradle_flaky::triage::Env {
            project_dir: std::path::Path::new("."),
            gradle,
            forcing: gradle_flaky::plan::Forcing::CleanTask,
            extra_args: &[],
            base: std::path::Path::new("."),
            invocation_timeout: None,
            verbose: false,
        }
    }
    use gradle_flaky::analyze::model::report::{SeedReplay, Triage, TriageVerdict};
    let (root, mut report) = mixed_report();
    let gradle = ["./gradlew".to_string()];
    for t in &mut report.tests {
        let task = t.failing_task.clone().unwrap_or_default();
        let (class, method) = (t.class.clone(), t.method.clone());
        let seed = |seed: &str, replays, reproduced| SeedReplay {
            seed: seed.into(),
            replays,
            reproduced,
            reproduce: replay::command(
                &replay_env(&gradle),
                &replay::Replay {
                    task: &task,
                    class: &class,
                    method: &method,
                    seed: Some(seed),
                    members: &Default::default(),
                },
            ),
        };
        t.triage = match t.method.as_str() {
            "testFlaky" => Some(Triage {
                verdict: Some(TriageVerdict::Nondeterministic),
                replays: 10,
                reproduced: 5,
                seeds: vec![seed("C0FFEE:2", 5, 5), seed("C0FFEE:4", 5, 0)],
                partial: false,
                notes: vec![],
                context: None,
                elapsed_sec: 14.2,
            }),
            m if m.starts_with("test {yaml") => Some(Triage {
                verdict: Some(TriageVerdict::SeedDeterministic),
                replays: 2,
                reproduced: 2,
                seeds: vec![seed("BEEF:7", 2, 2)],
                partial: true,
                notes: vec![
                    "seed BEEF:7: 2 of 5 replay(s) ran: the replay budget of 12 is spent".into(),
                ],
                context: None,
                elapsed_sec: 3.1,
            }),
            _ => None,
        };
    }
    (root, report)
}

#[test]
fn markdown_report_with_triage() {
    let (_root, report) = triaged_report();
    insta::assert_snapshot!(render::markdown(&report));
}

#[test]
fn json_report_with_triage() {
    let (_root, report) = triaged_report();
    insta::assert_snapshot!(render::json(&report));
}

#[test]
fn triage_annotation() {
    let (_root, report) = triaged_report();
    insta::assert_snapshot!(render::triage_markdown(&report));
}
