//! The unselected tests of whole-task runs (`--context task|both`, the
//! unmute gate): a whole-task run runs every test of the selected test's
//! task, and its XML holds them all. Those no planned test covers are set
//! apart from the report's tests: they are measured, summarized and shown
//! (a failing one stays visible), but no verdict, count, severity or exit
//! status rests on them. Only a test whose every execution ran in context
//! `task` is set apart: one that ran alone was asked for, and a selected
//! test's executions are never hidden.

use crate::analyze::model::report::FailingNeighbour;
use crate::analyze::model::report::{Report, TestReport};
use crate::condition::Context;

/// Whether `t` ran only in whole-task runs (context `task`). A test of
/// unknown condition is kept among the report's tests.
fn only_in_task_runs(t: &TestReport) -> bool {
    let rows = &t.by_condition.conditions;
    !rows.is_empty() && rows.iter().all(|c| c.condition.context == Context::Task)
}

/// Moves the tests `selected` does not accept and that ran only in
/// whole-task runs out of `report.tests` into `report.neighbours`, and
/// takes their executions out of the summary, its severity and warnings.
pub(crate) fn set_apart(report: &mut Report, selected: &dyn Fn(&TestReport) -> bool) {
    let (apart, kept): (Vec<TestReport>, Vec<TestReport>) = std::mem::take(&mut report.tests)
        .into_iter()
        .partition(|t| !selected(t) && only_in_task_runs(t));
    report.tests = kept;
    if apart.is_empty() {
        return;
    }
    let mut neighbours = report.neighbours.take().unwrap_or_default();
    for t in &apart {
        take_out(report, t);
        neighbours.tests += 1;
        neighbours.executions += t.runs + t.suite_timeouts;
        if t.failures > 0 {
            neighbours.failing.push(FailingNeighbour {
                class: t.class.clone(),
                method: t.method.clone(),
                runs: t.runs,
                failures: t.failures,
            });
        }
    }
    neighbours
        .failing
        .sort_by(|a, b| b.failures.cmp(&a.failures).then(a.class.cmp(&b.class)));
    report.neighbours = Some(neighbours);
    report.warnings = crate::analyze::rules::drift::warn(&mut report.tests);
    report.summary.severity = crate::analyze::rules::verdict::severity(report);
}

/// `t`'s executions and skips out of the summary.
fn take_out(report: &mut Report, t: &TestReport) {
    let s = &mut report.summary;
    let skipped = report
        .skips
        .remove(&(t.class.clone(), t.method.clone()))
        .unwrap_or(0);
    s.passed -= t.passes;
    s.failed -= t.failures;
    s.suite_timeouts -= t.suite_timeouts;
    s.skipped -= skipped;
    s.executions -= t.runs + t.suite_timeouts;
    s.tests -= 1;
    s.flaky_tests -= u64::from(t.passes > 0 && t.failures > 0);
}

#[cfg(test)]
mod tests {
    //! Recorded XML of whole-task runs (commons-exec's shape: the selected
    //! `Exec60Test` beside `Exec41Test`, which needs `ping`), no Gradle.
    use super::*;
    use crate::analyze::model::outcome::{JobPayload, JobRecord, OutcomeKind};
    use crate::analyze::model::report::Severity;
    use crate::analyze::rules::planned::{set_apart_neighbours, PlannedTest};
    use crate::analyze::{analyze_root, render, AnalyzeOptions};

    fn case(class: &str, name: &str, failed: bool) -> String {
        let body = match failed {
            true => r#"<failure message="boom" type="java.lang.AssertionError">at x</failure>"#,
            false => "",
        };
        let class = class.replace('<', "&lt;");
        format!(r#"<testcase classname="{class}" name="{name}" time="0.1">{body}</testcase>"#)
    }

    /// One Gradle run's report of `class` in batch folder `batch`, run `run`.
    fn write(root: &std::path::Path, batch: &str, run: u32, class: &str, cases: &[String]) {
        let dir = root.join(format!("{batch}/run-{run}/build/test-results/test"));
        std::fs::create_dir_all(&dir).unwrap();
        let xml = format!(
            r#"<?xml version="1.0"?><testsuite name="x">{}</testsuite>"#,
            cases.concat()
        );
        std::fs::write(dir.join(format!("TEST-{}.xml", class.len())), xml).unwrap();
    }

    fn planned(class: &str, method: Option<&str>) -> PlannedTest {
        PlannedTest {
            batch: 1,
            task: ":test".into(),
            class: Some(class.into()),
            method: method.map(String::from),
            yaml_suite: None,
            nested_classes: false,
            is_suite: false,
            runs: 3,
            repeated_by: vec!["gradle-runs".into()],
            in_jvm_cost: None,
            not_honoured: None,
            task_sample: None,
            unmute_check: false,
        }
    }

    /// Three whole-task runs (batch-1) and one run alone (batch-2).
    fn recorded() -> (tempfile::TempDir, AnalyzeOptions) {
        let dir = tempfile::tempdir().unwrap();
        let hostile = "a.Exec41`Test|<b>";
        for run in 1..=3 {
            write(
                dir.path(),
                "batch-1",
                run,
                "a.Exec60Test",
                &[case("a.Exec60Test", "test", false)],
            );
            write(
                dir.path(),
                "batch-1",
                run,
                hostile,
                &[case(hostile, "ping", run != 2)],
            );
            let p = [
                case("a.P", "parses[0]", false),
                case("a.Exec57Test", "ok", false),
            ];
            write(dir.path(), "batch-1", run, "a.Pz", &p);
        }
        write(
            dir.path(),
            "batch-2",
            1,
            "a.Alone",
            &[case("a.Alone", "x", false)],
        );
        let opts = AnalyzeOptions {
            planned: true,
            instances_once: true,
            task_context_below: vec!["batch-1".into()],
            ..AnalyzeOptions::default()
        };
        (dir, opts)
    }

    fn names(report: &Report) -> Vec<String> {
        let mut names: Vec<String> = report
            .tests
            .iter()
            .map(|t| format!("{}.{}", t.class, t.method))
            .collect();
        names.sort();
        names
    }

    #[test]
    fn unselected_tests_of_whole_task_runs_are_summarized_apart() {
        let (dir, opts) = recorded();
        let mut report = analyze_root(dir.path(), &opts);
        assert_eq!(report.summary.failed, 2, "the neighbour's failures, before");
        assert_eq!(report.summary.severity, Severity::Error);
        let selected = [
            planned("a.Exec60Test", None),
            planned("a.P", Some("parses")),
        ];
        set_apart_neighbours(&mut report, &selected);
        // The selected tests (a parameterized case among them) and a test that
        // ran alone stay; the neighbours leave the verdicts and the counts.
        assert_eq!(
            names(&report),
            ["a.Alone.x", "a.Exec60Test.test", "a.P.parses[0]"]
        );
        let s = &report.summary;
        assert_eq!((s.tests, s.executions, s.failed, s.passed), (3, 7, 0, 7));
        assert_eq!(s.severity, Severity::Success);
        let json = serde_json::to_value(&report).unwrap();
        assert_eq!(
            json["neighbours"],
            serde_json::json!({"tests": 2, "executions": 6, "failing": [
                {"class": "a.Exec41`Test|<b>", "method": "ping", "runs": 3, "failures": 2}
            ]})
        );
        let md = render::markdown(&report);
        assert!(
            md.contains(
                "- Also ran in their whole tasks (not selected, not judged): 2 tests, 6 \
                 executions; 1 failed: ``a.Exec41`Test|<b>.ping`` (2/3)"
            ),
            "{md}"
        );
    }

    /// A failing neighbour fails the whole-task run's Gradle run (rc 1): the
    /// batch is still clean, and the run's exit with it.
    #[test]
    fn a_failing_neighbour_is_never_the_runs_verdict() {
        let (dir, opts) = recorded();
        let job = JobRecord {
            job_id: "batch-1".into(),
            step_key: "flakiness-detection:unit".into(),
            kind: None,
            rc: 1,
            duration_sec: 10,
            oom_detected: false,
            skipped: None,
            all_tasks_skipped: false,
        };
        let mut report = analyze_root(
            &dir.path().join("batch-1"),
            &AnalyzeOptions {
                task_context_below: vec![],
                context: Some(crate::condition::Context::Task),
                ..opts
            },
        );
        let before = JobPayload::judged(&job, &report, 3600);
        assert_eq!(
            (before.outcome, before.real_failures),
            (OutcomeKind::FlakyDetected, 2)
        );
        set_apart_neighbours(&mut report, &[planned("a.Exec60Test", None)]);
        let after = JobPayload::judged(&job, &report, 3600);
        assert_eq!(
            (after.outcome, after.real_failures),
            (OutcomeKind::CleanPass, 0)
        );
        assert_eq!(after.total_cases, 3);
        // The selected test failing keeps the run's failure.
        let (dir, opts) = recorded();
        write(
            dir.path(),
            "batch-1",
            4,
            "a.Exec60Test",
            &[case("a.Exec60Test", "test", true)],
        );
        let mut report = analyze_root(dir.path(), &opts);
        set_apart_neighbours(&mut report, &[planned("a.Exec60Test", None)]);
        let judged = JobPayload::judged(&job, &report, 3600);
        assert_eq!(
            (judged.outcome, judged.real_failures),
            (OutcomeKind::FlakyDetected, 1)
        );
    }

    /// A planned whole task of unknown runner cannot be matched to its rows:
    /// nothing is set apart, so nothing selected is hidden.
    #[test]
    fn nothing_is_set_apart_when_the_rows_cannot_be_matched() {
        let (dir, opts) = recorded();
        let mut report = analyze_root(dir.path(), &opts);
        let whole = PlannedTest {
            class: None,
            ..planned("x", None)
        };
        set_apart_neighbours(&mut report, &[whole]);
        assert_eq!(report.tests.len(), 5);
        assert_eq!(report.neighbours, None);
    }
}
