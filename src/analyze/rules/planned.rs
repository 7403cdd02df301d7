//! Planned against executed: each selected test's executions compared with the
//! runs the plan gave it. A test that ran fewer times than planned carries
//! `belowPlan` (and is never listed as clean without saying so); a selected
//! test that never ran is listed in `notExecuted`.

use crate::analyze::model::report::{NotExecuted, PlannedRuns, Report, TestReport};
use crate::domain::ClassifiedTest;
use crate::test_filter;

/// One selected test as planned (a run folder records them: `local::folder`).
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct PlannedTest {
    /// The batch that runs it, 1-based.
    pub batch: usize,
    /// The Gradle task path.
    pub task: String,
    /// The class (a YAML case's runner); `None` for a YAML suite.
    pub class: Option<String>,
    /// A method, a case name, a filter pattern or a YAML case descriptor.
    pub method: Option<String>,
    /// A YAML suite path below `rest-api-spec/test` (a file or a directory).
    pub yaml_suite: Option<String>,
    /// The selection also runs the class's nested classes.
    pub nested_classes: bool,
    /// The class is a suite: its executions are reported under the names of
    /// the classes it runs, so it covers every test its task ran that no
    /// other planned test covers.
    pub is_suite: bool,
    /// Executions the plan gives each of its tests.
    pub runs: u64,
    /// What repeated it (`PlannedRuns::repeated_by`), in order: its in-JVM
    /// mechanism, then `gradle-runs` when the rest of its count switched to
    /// them; empty when unknown.
    pub repeated_by: Vec<String>,
    /// Its in-JVM iterations cost more than fresh runs would have: what
    /// they cost and what the run did (`PlannedRuns::in_jvm_cost`).
    pub in_jvm_cost: Option<String>,
    /// The user's request its batch did not honour, and why.
    pub not_honoured: Option<String>,
    /// The sample of its task's classes its whole-task runs ran, when the
    /// task was too big for the budget.
    pub task_sample: Option<crate::domain::ClassSample>,
    /// Its batch is the unmute check: whole-task runs behind an unmuted
    /// test repeated in one JVM.
    pub unmute_check: bool,
}

impl PlannedTest {
    /// Test `t` of batch `batch` (1-based) as its executions are matched:
    /// the runs the plan gives it, what repeated it and its batch's notes
    /// are the caller's to add (unknown here).
    pub(crate) fn of(t: &ClassifiedTest, batch: usize) -> PlannedTest {
        PlannedTest {
            batch,
            task: t.task.clone(),
            class: t.class.clone(),
            method: t.method.clone(),
            yaml_suite: t.yaml_suite.clone(),
            nested_classes: t.nested_classes,
            is_suite: t.is_suite,
            ..PlannedTest::default()
        }
    }

    /// Whether the executed test (`class`, `method`) is one this selection runs;
    /// `None` when that cannot be told (a whole YAML task of unknown runner).
    fn covers(&self, class: &str, method: &str) -> Option<bool> {
        if let Some(suite) = &self.yaml_suite {
            let in_suite = |api: &str| {
                method
                    .strip_prefix("test {yaml=")
                    .and_then(|rest| rest.strip_prefix(api))
                    .is_some_and(|rest| rest.starts_with(&format!("{suite}/")))
            };
            let class_ok = self.class.as_deref().is_none_or(|c| c == class);
            // A suite at the root of rest-api-spec/test has the empty api: `{yaml=/file/name}`.
            return Some(class_ok && (in_suite("") || in_suite("/")));
        }
        let selected = self.class.as_deref()?;
        Some(test_filter::covers(
            selected,
            self.method.as_deref(),
            self.nested_classes,
            class,
            method,
        ))
    }

    /// Whether a suite covers an executed test that ran on these tasks
    /// (`kinds`: the names of the tasks of its reports).
    fn suite_covers(&self, kinds: &[String]) -> bool {
        let task_name = self.task.rsplit(':').next().unwrap_or(&self.task);
        self.is_suite && kinds.iter().any(|k| k == task_name)
    }

    /// `Class`, `Class.method`, or the YAML suite, as the report names it.
    fn describe(&self) -> String {
        match (&self.class, &self.method, &self.yaml_suite) {
            (_, _, Some(suite)) => format!("YAML suite {suite}"),
            (Some(c), Some(m), None) => format!("{c}.{m}"),
            (Some(c), None, None) if self.nested_classes => format!("{c} (and its nested classes)"),
            (Some(c), None, None) => c.clone(),
            (None, _, None) => "(the whole task)".into(),
        }
    }
}

/// Why a batch ran fewer times than planned, by batch number; `None` when
/// every run of the batch ended normally.
pub(crate) type BatchProblem<'a> = &'a dyn Fn(usize) -> Option<String>;

/// Compares the report's tests with the plan and records the result in it.
/// Returns whether any selected test executed fewer times than planned for a
/// reason other than skipping itself (`@Ignore`, a failed assumption).
pub(crate) fn compare(report: &mut Report, planned: &[PlannedTest], problem: BatchProblem) -> bool {
    let mut short = false;
    let mut seen = vec![false; planned.len()];
    for t in &mut report.tests {
        let mine = planned_for(planned, t);
        if mine.is_empty() {
            continue;
        }
        for &i in &mine {
            seen[i] = true;
        }
        let planned_runs: u64 = mine.iter().map(|&i| planned[i].runs).sum();
        let skipped = report
            .skips
            .get(&(t.class.clone(), t.method.clone()))
            .copied()
            .unwrap_or(0);
        let shortfall = (t.runs < planned_runs).then(|| {
            if t.runs + t.suite_timeouts + skipped >= planned_runs {
                let mut why = Vec::new();
                if skipped > 0 {
                    why.push(format!("skipped itself {skipped} times"));
                }
                if t.suite_timeouts > 0 {
                    why.push(format!("{} suite timeouts", t.suite_timeouts));
                }
                return why.join(", ");
            }
            short = true;
            reason(&mine, planned, problem)
        });
        let below_plan = shortfall
            .as_ref()
            .map(|why| format!("ran {} of {planned_runs} planned times: {why}", t.runs));
        t.plan = Some(PlannedRuns {
            planned_runs,
            below_plan,
            shortfall,
            repeated_by: repeated_by(&mine, planned),
            in_jvm_cost: mine.iter().find_map(|&i| planned[i].in_jvm_cost.clone()),
            not_honoured: mine.iter().find_map(|&i| planned[i].not_honoured.clone()),
            task_sample: mine.iter().find_map(|&i| planned[i].task_sample.clone()),
            unmute_check: mine.iter().any(|&i| planned[i].unmute_check),
        });
    }
    short | record_unseen(report, planned, &seen, problem)
}

/// Records in `report` the planned tests no executed row covers, where the
/// plan's counts are not known row by row (a CI's report step): returns
/// whether any of them never ran (one that only skipped itself did run).
pub(crate) fn never_executed(
    report: &mut Report,
    planned: &[PlannedTest],
    problem: BatchProblem,
) -> bool {
    let mut seen = vec![false; planned.len()];
    for t in &report.tests {
        for i in planned_for(planned, t) {
            seen[i] = true;
        }
    }
    record_unseen(report, planned, &seen, problem)
}

/// Records the planned tests `seen` says no row covers as not executed;
/// returns whether any of them did not even skip itself.
fn record_unseen(
    report: &mut Report,
    planned: &[PlannedTest],
    seen: &[bool],
    problem: BatchProblem,
) -> bool {
    let mut short = false;
    for (i, p) in planned.iter().enumerate() {
        // A whole YAML task of unknown runner cannot be matched to its rows;
        // a class JUnit found no test in is reported as `not-a-test`.
        if seen[i] || p.covers("", "").is_none() || no_test_in(report, p) {
            continue;
        }
        // Tests that only skipped have no row: they did run, and skipped.
        let skipped_only = report
            .skips
            .keys()
            .any(|(class, method)| p.covers(class, method) == Some(true));
        let reason = if skipped_only {
            "skipped itself every time (@Ignore, a failed assumption)".to_string()
        } else {
            short = true;
            reason(&[i], planned, problem)
        };
        report.not_executed.push(NotExecuted {
            task: p.task.clone(),
            test: p.describe(),
            planned_runs: p.runs,
            reason,
        });
    }
    short
}

/// Sets apart the tests of whole-task runs that no planned test covers
/// (suites and their members, parameterized cases and nested classes as
/// [`compare`] matches them): the report's tests, counts and severity are
/// the selected tests'. Nothing is set apart while a planned whole task of
/// unknown runner leaves its rows unmatched.
pub(crate) fn set_apart_neighbours(report: &mut Report, planned: &[PlannedTest]) {
    if planned.iter().any(|p| p.covers("", "").is_none()) {
        return;
    }
    crate::analyze::rules::neighbours::set_apart(report, &|t| !planned_for(planned, t).is_empty());
}

/// The planned tests that cover `t`: by its name, else (a row a suite ran)
/// by the suites that cover its kinds.
fn planned_for(planned: &[PlannedTest], t: &TestReport) -> Vec<usize> {
    let by_name: Vec<usize> = (0..planned.len())
        .filter(|&i| planned[i].covers(&t.class, &t.method) == Some(true))
        .collect();
    if !by_name.is_empty() {
        return by_name;
    }
    (0..planned.len())
        .filter(|&i| planned[i].suite_covers(&t.kinds))
        .collect()
}

/// How the planned tests `mine` were repeated, each way once, in order.
fn repeated_by(mine: &[usize], planned: &[PlannedTest]) -> Vec<String> {
    let mut ways: Vec<String> = Vec::new();
    for by in mine.iter().flat_map(|&i| &planned[i].repeated_by) {
        if !ways.contains(by) {
            ways.push(by.clone());
        }
    }
    ways
}

/// Whether JUnit found no test in the class the planned test names.
fn no_test_in(report: &Report, p: &PlannedTest) -> bool {
    report
        .not_a_test
        .iter()
        .any(|n| p.covers(&n.class, "") == Some(true) || p.class.as_deref() == Some(&n.class))
}

/// The problems of the batches of `mine`, or the unexplained shortfall.
fn reason(mine: &[usize], planned: &[PlannedTest], problem: BatchProblem) -> String {
    let mut batches: Vec<usize> = mine.iter().map(|&i| planned[i].batch).collect();
    batches.sort_unstable();
    batches.dedup();
    let known: Vec<String> = batches.iter().filter_map(|&b| problem(b)).collect();
    if known.is_empty() {
        let list: Vec<String> = batches.iter().map(|b| b.to_string()).collect();
        format!(
            "Gradle ran it fewer times than planned although batch {} ended normally \
             (a filter that misses it, or a runner ignoring -Dtests.iters): its result \
             proves less than planned",
            list.join(", ")
        )
    } else {
        known.join("; ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyze::model::report::TestReport;

    fn row(class: &str, method: &str, runs: u64) -> TestReport {
        TestReport::sample(class, method, runs, 0)
    }

    fn report(tests: Vec<TestReport>, skips: &[(&str, &str, u64)]) -> Report {
        let mut r = crate::analyze::read::aggregate::merge(vec![], 0);
        r.tests = tests;
        r.skips = skips
            .iter()
            .map(|(c, m, n)| ((c.to_string(), m.to_string()), *n))
            .collect();
        r
    }

    fn planned(batch: usize, class: &str, method: Option<&str>, runs: u64) -> PlannedTest {
        PlannedTest {
            batch,
            task: ":core:test".into(),
            class: Some(class.into()),
            method: method.map(String::from),
            yaml_suite: None,
            nested_classes: false,
            is_suite: false,
            runs,
            repeated_by: vec![],
            in_jvm_cost: None,
            not_honoured: None,
            task_sample: None,
            unmute_check: false,
        }
    }

    #[test]
    fn every_case_of_a_planned_method_gets_its_planned_runs() {
        let mut r = report(
            vec![
                row("a.P", "parses[0: plain]", 12),
                row("a.P", "parses[2: flaky]", 12),
                row("a.Other", "x", 3),
            ],
            &[],
        );
        let short = compare(&mut r, &[planned(1, "a.P", Some("parses"), 12)], &|_| None);
        assert!(!short);
        assert_eq!(
            r.tests[0].plan,
            Some(PlannedRuns {
                planned_runs: 12,
                below_plan: None,
                shortfall: None,
                repeated_by: vec![],
                in_jvm_cost: None,
                not_honoured: None,
                task_sample: None,
                unmute_check: false,
            })
        );
        assert_eq!(r.tests[2].plan, None, "not selected");
        assert!(r.not_executed.is_empty());
        let json = serde_json::to_value(&r.tests[0]).unwrap();
        assert_eq!(json["plannedRuns"], 12);
        assert!(json.get("belowPlan").is_none());
        assert!(serde_json::to_value(&r.tests[2])
            .unwrap()
            .get("plannedRuns")
            .is_none());
    }

    #[test]
    fn fewer_runs_than_planned_are_flagged_with_the_batch_problem() {
        let mut r = report(vec![row("a.T", "m", 1)], &[]);
        let short = compare(&mut r, &[planned(2, "a.T", None, 12)], &|_| None);
        assert!(short);
        let below = r.tests[0]
            .plan
            .as_ref()
            .unwrap()
            .below_plan
            .clone()
            .unwrap();
        assert!(
            below.starts_with("ran 1 of 12 planned times: Gradle ran it fewer"),
            "{below}"
        );
        assert!(below.contains("batch 2 ended normally"), "{below}");

        let mut r = report(vec![row("a.T", "m", 5)], &[]);
        let problem = |b: usize| (b == 2).then(|| "batch 2 timed out".to_string());
        assert!(compare(&mut r, &[planned(2, "a.T", None, 12)], &problem));
        assert_eq!(
            r.tests[0].plan.as_ref().unwrap().below_plan.as_deref(),
            Some("ran 5 of 12 planned times: batch 2 timed out")
        );
    }

    #[test]
    fn skipped_executions_explain_a_shortfall() {
        let mut r = report(
            vec![row("a.T", "m", 9)],
            &[("a.T", "m", 3), ("a.T", "ignored", 12)],
        );
        let short = compare(
            &mut r,
            &[
                planned(1, "a.T", Some("m"), 12),
                planned(1, "a.T", Some("ignored"), 12),
            ],
            &|_| None,
        );
        assert!(!short);
        assert_eq!(
            r.tests[0].plan.as_ref().unwrap().below_plan.as_deref(),
            Some("ran 9 of 12 planned times: skipped itself 3 times")
        );
        assert_eq!(r.not_executed.len(), 1);
        assert!(r.not_executed[0]
            .reason
            .starts_with("skipped itself every time"));
    }

    #[test]
    fn a_selected_test_that_never_ran_is_listed() {
        let mut r = report(vec![row("a.T", "m", 12)], &[]);
        let short = compare(
            &mut r,
            &[
                planned(1, "a.T", Some("m"), 12),
                planned(1, "a.T", Some("gone"), 12),
            ],
            &|_| None,
        );
        assert!(short);
        assert_eq!(r.not_executed.len(), 1);
        assert_eq!(r.not_executed[0].test, "a.T.gone");
        assert_eq!(r.not_executed[0].planned_runs, 12);
        let json = serde_json::to_value(&r).unwrap();
        assert_eq!(json["notExecuted"][0]["plannedRuns"], 12);
    }

    /// A suite's executions are filed under its members' names: they are its
    /// own, on its task, unless another planned test covers them.
    #[test]
    fn a_suite_covers_what_its_task_ran_under_other_names() {
        let mut other_task = row("a.Elsewhere", "e", 12);
        other_task.kinds = vec!["integTest".into()];
        let mut r = report(
            vec![
                row("a.MemberTest", "m", 12),
                row("a.Named", "n", 24),
                other_task,
            ],
            &[],
        );
        let suite = PlannedTest {
            is_suite: true,
            ..planned(1, "a.AllTests", None, 12)
        };
        let named = planned(2, "a.Named", None, 24);
        let short = compare(&mut r, &[suite, named], &|_| None);
        assert!(!short);
        assert!(r.not_executed.is_empty(), "{:?}", r.not_executed);
        let planned_runs: Vec<Option<u64>> = r
            .tests
            .iter()
            .map(|t| t.plan.as_ref().map(|p| p.planned_runs))
            .collect();
        assert_eq!(planned_runs, [Some(12), Some(24), None]);
        // a suite that ran nothing is never executed
        let mut r = report(vec![], &[]);
        let suite = PlannedTest {
            is_suite: true,
            ..planned(1, "a.AllTests", None, 12)
        };
        assert!(compare(&mut r, &[suite], &|_| None));
        assert_eq!(r.not_executed[0].test, "a.AllTests");
    }

    #[test]
    fn yaml_suites_cover_their_cases_and_nested_classes_their_rows() {
        let suite = PlannedTest {
            class: None,
            method: None,
            yaml_suite: Some("ml".into()),
            ..planned(1, "x", None, 10)
        };
        assert_eq!(
            suite.covers("a.MlIT", "test {yaml=ml/10_x/put}"),
            Some(true)
        );
        assert_eq!(
            suite.covers("a.MlIT", "test {yaml=mlx/10_x/put}"),
            Some(false)
        );
        let root = PlannedTest {
            yaml_suite: Some("10_ml_info".into()),
            ..suite.clone()
        };
        assert_eq!(
            root.covers("a.MlIT", "test {yaml=/10_ml_info/Test}"),
            Some(true)
        );
        let nested = PlannedTest {
            nested_classes: true,
            ..planned(1, "a.LruCacheTest", None, 12)
        };
        assert_eq!(
            nested.covers("a.LruCacheTest$EvictionTest", "e"),
            Some(true)
        );
        let whole_task = PlannedTest {
            class: None,
            ..planned(1, "x", None, 10)
        };
        assert_eq!(whole_task.covers("a.B", "c"), None);
    }
}
