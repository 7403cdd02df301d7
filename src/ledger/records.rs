//! A report as ledger lines: one per test (and condition) that ran.

use super::record::{
    Condition, DurationSummary, Origin, Record, Repetition, TestId, MAX_SEEDS, SCHEMA,
};
use crate::analyze::model::report::{PlannedRuns, TestReport};
use crate::analyze::Report;
use crate::condition::InJvm;
use std::time::SystemTime;

/// What the report does not know about its run.
#[derive(Clone, Debug, PartialEq)]
pub struct RunMeta {
    /// `git rev-parse HEAD` of the checkout that ran, when it is one.
    pub commit: Option<String>,
    pub branch: Option<String>,
    /// The working tree had changes not committed.
    pub dirty: bool,
    /// The run's condition. A test whose plan names the one mechanism that
    /// repeated it (`plannedRuns`' `repeatedBy`) gets that repetition instead.
    pub condition: Condition,
    /// Shared by every line of the run (a run folder's name, a CI build's id).
    pub run_id: String,
    pub origin: Origin,
    /// When the run ended.
    pub time: SystemTime,
}

/// One record per test of `report` and condition it ran in, when it passed
/// or failed at least once; tests that only timed out or were skipped
/// measured no rate and are left out.
pub fn records_of(report: &Report, meta: &RunMeta) -> Vec<Record> {
    let time = humantime::format_rfc3339_seconds(meta.time).to_string();
    report
        .tests
        .iter()
        .filter(|t| t.runs > 0)
        .flat_map(|t| records_of_test(t, meta, &time))
        .collect()
}

/// An ordinary build's records: one per test that passed or failed, in the
/// build's condition (`meta.condition`: its whole task, a test JVM of its
/// own, a first execution). A retry in the same build (Gradle's test-retry
/// plugin writes both cases, Surefire and Gradle's merged reruns a
/// `flakyFailure` or `rerunFailure` per failed attempt) is one more
/// execution of it there: a test that failed then passed is both.
pub fn build_records(report: &Report, meta: &RunMeta) -> Vec<Record> {
    let time = humantime::format_rfc3339_seconds(meta.time).to_string();
    report
        .tests
        .iter()
        .filter(|t| t.runs > 0)
        .map(|t| record_of(t, meta, &time, meta.condition, (t.runs, t.failures), true))
        .collect()
}

/// A test's records: one for its condition, or one per condition when its
/// executions ran in several (a batch that fell back to Gradle runs, a
/// `task` context beside `alone`, first executions beside repeats).
/// Failure kinds, seeds and durations are the test's and go with the
/// condition that failed most (then ran most), so that pooled history never
/// counts them twice.
fn records_of_test(t: &TestReport, meta: &RunMeta, time: &str) -> Vec<Record> {
    let mut groups = executed_in(t);
    if groups.len() < 2 {
        let condition = match groups.first() {
            Some((condition, _)) => *condition,
            None => condition_of(t.plan.as_ref(), &meta.condition),
        };
        groups = vec![(condition, (t.runs, t.failures))];
    }
    let most = (0..groups.len())
        .max_by_key(|&i| (groups[i].1 .1, groups[i].1 .0, std::cmp::Reverse(i)))
        .unwrap_or(0);
    groups
        .into_iter()
        .enumerate()
        .map(|(i, (condition, counts))| record_of(t, meta, time, condition, counts, i == most))
        .collect()
}

/// The test's runs and failures per condition, from the report's: first
/// executions in a JVM kept apart from repeats (CI runs first executions).
fn executed_in(t: &TestReport) -> Vec<(Condition, (u64, u64))> {
    t.by_condition
        .conditions
        .iter()
        .map(|row| (row.condition, (row.rate.runs, row.rate.failures)))
        .collect()
}

fn record_of(
    t: &TestReport,
    meta: &RunMeta,
    time: &str,
    condition: Condition,
    counts: (u64, u64),
    details: bool,
) -> Record {
    let mut r = bare_record(t, meta, time, condition, counts);
    if details {
        r.failure_kinds = t
            .failure_kinds
            .0
            .iter()
            .map(|(kind, n)| (kind.as_str().to_string(), *n))
            .collect();
        r.failing_seeds = t.failing_seeds.iter().take(MAX_SEEDS).cloned().collect();
        r.signature = t.failing_runs.first().map(|f| f.signature.clone());
        r.duration_sec = t.durations.quantiles().map(|q| DurationSummary {
            median: crate::stats::round6(q.median),
            p90: crate::stats::round6(q.p90),
            max: crate::stats::round6(q.max),
        });
    }
    r
}

/// A record of `t` in this run with its counts and nothing else: no kinds,
/// seeds or durations.
pub(super) fn bare_record(
    t: &TestReport,
    meta: &RunMeta,
    time: &str,
    condition: Condition,
    (runs, failures): (u64, u64),
) -> Record {
    Record {
        schema: SCHEMA,
        test: TestId {
            class: t.class.clone(),
            method: t.method.clone(),
            task: t.kinds.join(","),
        },
        commit: meta.commit.clone(),
        branch: meta.branch.clone(),
        dirty: meta.dirty,
        condition,
        runs,
        failures,
        failure_kinds: Default::default(),
        failing_seeds: Vec::new(),
        signature: None,
        duration_sec: None,
        tool: env!("CARGO_PKG_VERSION").to_string(),
        time: time.to_string(),
        run_id: meta.run_id.clone(),
        origin: meta.origin,
    }
}

/// The plan's word for a fresh JVM per execution (`PlannedRuns::repeated_by`).
const GRADLE_RUNS: &str = "gradle-runs";

/// A test without conditions read from its executions: the run's
/// condition, made exact by the test's own plan when one mechanism repeated
/// it; with several (batches that repeated it differently), the run's.
fn condition_of(plan: Option<&PlannedRuns>, run: &Condition) -> Condition {
    match plan.map(|p| p.repeated_by.as_slice()) {
        Some([only]) if only == GRADLE_RUNS => Condition {
            repetition: Repetition::FreshJvm,
            mechanism: None,
            ..*run
        },
        Some([only]) => Condition {
            repetition: Repetition::InJvm,
            mechanism: InJvm::ALL.into_iter().find(|m| m.as_str() == only),
            ..*run
        },
        _ => *run,
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::analyze::{analyze_root, AnalyzeOptions};
    use crate::ledger::record::Context;
    use std::path::{Path, PathBuf};
    use std::time::{Duration, UNIX_EPOCH};

    /// Recorded Gradle XML of `folder` placed where a build keeps it, analyzed.
    pub(crate) fn recorded(folder: &str, task: &str) -> (tempfile::TempDir, Report) {
        let src = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data/junit-gradle")
            .join(folder);
        let dir = tempfile::tempdir().unwrap();
        let dest: PathBuf = dir.path().join("server/build/test-results").join(task);
        std::fs::create_dir_all(&dest).unwrap();
        for entry in std::fs::read_dir(src).unwrap() {
            let entry = entry.unwrap();
            if entry.file_name().to_string_lossy().ends_with(".xml") {
                std::fs::copy(entry.path(), dest.join(entry.file_name())).unwrap();
            }
        }
        std::fs::write(dir.path().join("settings.gradle"), "").unwrap();
        let report = analyze_root(dir.path(), &AnalyzeOptions::default());
        (dir, report)
    }

    pub(crate) fn meta() -> RunMeta {
        RunMeta {
            commit: Some("0123456789abcdef0123456789abcdef01234567".into()),
            branch: Some("fix-flake".into()),
            dirty: false,
            condition: Condition {
                context: Context::Alone,
                repetition: Repetition::InJvm,
                mechanism: Some(InJvm::TestsIters),
                execution: None,
            },
            run_id: "20260301-100000-4242".into(),
            origin: Origin::Local,
            time: UNIX_EPOCH + Duration::from_secs(1_772_359_200),
        }
    }

    /// The line of `method` that carries its details (the condition that
    /// failed most, or ran most).
    fn find<'r>(records: &'r [Record], method: &str) -> &'r Record {
        let lines = records.iter().filter(|r| r.test.method == method);
        lines.max_by_key(|r| (r.failures, r.runs)).unwrap()
    }

    /// A test's (runs, failures) over its lines.
    fn total(records: &[Record], method: &str) -> (u64, u64) {
        let lines = records.iter().filter(|r| r.test.method == method);
        lines.fold((0, 0), |(n, f), r| (n + r.runs, f + r.failures))
    }

    #[test]
    fn a_recorded_report_becomes_one_line_per_test_and_position() {
        let (_dir, report) = recorded("flaky-unit", "test");
        let records = records_of(&report, &meta());
        // Two classes: 3 methods and 2 methods, each run 10 times in one
        // JVM: its first execution and its 9 repeats, a line each.
        assert_eq!(records.len(), 10, "{records:#?}");
        let lines: Vec<_> = records
            .iter()
            .filter(|r| r.test.method == "testFlakyAssertion")
            .map(|r| (r.condition.label(), r.runs))
            .collect();
        assert_eq!(
            lines,
            [
                ("task, in-jvm, tests-iters, first".to_string(), 1),
                ("task, in-jvm, tests-iters, repeat".to_string(), 9)
            ]
        );
        let flaky = find(&records, "testFlakyAssertion");
        assert_eq!(total(&records, "testFlakyAssertion"), (10, 3));
        assert_eq!(
            flaky.test.class,
            "org.elasticsearch.flaky.AssertionFlakyTests"
        );
        assert_eq!(flaky.test.task, "test");
        assert_eq!(flaky.failure_kinds.get("assertion"), Some(&3));
        assert_eq!(flaky.failing_seeds.len(), 3);
        assert!(flaky
            .failing_seeds
            .iter()
            .all(|s| s.starts_with("364D07F139:")));
        assert_eq!(flaky.time, "2026-03-01T10:00:00Z");
        assert_eq!(flaky.schema, SCHEMA);
        assert_eq!(flaky.tool, env!("CARGO_PKG_VERSION"));
        let exception = find(&records, "testFlakyException");
        assert_eq!(total(&records, "testFlakyException"), (10, 4));
        assert_eq!(exception.failure_kinds.get("error"), Some(&4));
    }

    #[test]
    fn durations_are_summarized_from_the_executions() {
        let (_dir, report) = recorded("flaky-unit", "test");
        let records = records_of(&report, &meta());
        // testStableAddition's ten times: 3 2 2 2 2 1 5 6 2 6 ms.
        let d = find(&records, "testStableAddition").duration_sec.unwrap();
        let near = |got: f64, want: f64| (got - want).abs() <= want * 0.005;
        assert!(near(d.median, 0.002) && near(d.p90, 0.006), "{d:?}");
        assert_eq!(d.max, 0.006);
        assert_eq!(find(&records, "testStableAddition").failures, 0);
    }

    #[test]
    fn tests_that_never_passed_or_failed_make_no_line() {
        // Suite timeouts only (testSometimesSlow, classMethod): no rate measured.
        let (_dir, report) = recorded("suite-timeout", "slowTests");
        assert!(report.summary.suite_timeouts > 0);
        assert!(records_of(&report, &meta()).is_empty());
    }

    #[test]
    fn the_plan_names_the_repetition_of_a_test() {
        let run = meta().condition;
        let plan = |by: &[&str]| PlannedRuns {
            planned_runs: 10,
            below_plan: None,
            shortfall: None,
            repeated_by: by.iter().map(|s| s.to_string()).collect(),
            in_jvm_cost: None,
            not_honoured: None,
            task_sample: None,
            unmute_check: false,
        };
        let fresh = condition_of(Some(&plan(&["gradle-runs"])), &run);
        assert_eq!(
            (fresh.repetition, fresh.mechanism),
            (Repetition::FreshJvm, None)
        );
        let runner = condition_of(Some(&plan(&["junit4-runner"])), &run);
        assert_eq!(runner.mechanism, Some(InJvm::Junit4Runner));
        assert_eq!(
            condition_of(Some(&plan(&["gradle-runs", "tests-iters"])), &run),
            run
        );
        assert_eq!(condition_of(None, &run), run);
    }

    #[test]
    fn each_condition_a_test_ran_in_is_a_record_of_its_own() {
        use crate::analyze::model::counts::{ConditionCounts, Rate};
        use crate::condition as c;
        let row = |repetition, mechanism, execution, runs, failures| ConditionCounts {
            condition: c::Condition {
                context: c::Context::Alone,
                repetition,
                mechanism,
                execution,
            },
            rate: Rate::new(failures, runs),
        };
        let (_dir, mut report) = recorded("flaky-unit", "test");
        report.tests.clear();
        // 20 in one JVM by the JUnit 4 runner (7 first executions), then 9
        // Gradle runs of a batch that fell back.
        let mut t = TestReport::sample("a.FooTests", "m", 24, 5);
        t.failing_seeds = vec!["s1".into()];
        t.by_condition.conditions = vec![
            row(
                c::Repetition::InJvm,
                Some(c::InJvm::Junit4Runner),
                Some(c::Position::First),
                7,
                1,
            ),
            row(
                c::Repetition::InJvm,
                Some(c::InJvm::Junit4Runner),
                Some(c::Position::Repeat),
                13,
                0,
            ),
            row(
                c::Repetition::FreshJvm,
                None,
                Some(c::Position::First),
                9,
                4,
            ),
        ];
        report.tests.push(t);
        let records = records_of(&report, &meta());
        let got: Vec<_> = records
            .iter()
            .map(|r| {
                (
                    r.condition.label(),
                    r.runs,
                    r.failures,
                    r.failing_seeds.len(),
                )
            })
            .collect();
        assert_eq!(
            got,
            [
                ("alone, in-jvm, junit4-runner, first".to_string(), 7, 1, 0),
                ("alone, in-jvm, junit4-runner, repeat".to_string(), 13, 0, 0),
                ("alone, fresh-jvm, first".to_string(), 9, 4, 1),
            ]
        );
        // The kinds go with the condition that failed most, once.
        assert!(records[0].failure_kinds.is_empty());
        assert_eq!(records[2].failure_kinds.get("assertion"), Some(&5));
    }

    #[test]
    fn a_record_reads_back_as_written() {
        let (_dir, report) = recorded("flaky-integ", "internalClusterTest");
        for record in records_of(&report, &meta()) {
            let line = serde_json::to_string(&record).unwrap();
            assert!(!line.contains('\n'));
            let back: Record = serde_json::from_str(&line).unwrap();
            assert_eq!(back, record);
        }
    }
}
