//! Conditions on recorded Gradle XML: each execution's condition (in one
//! JVM or fresh, first or a repeat, alone or in its task), each test's
//! counts per condition, and first executions compared with repeats.

use super::{data, place};
use gradle_flaky::analyze::model::report::{Report, TestReport};
use gradle_flaky::analyze::{self, render, AnalyzeOptions, RepeatedDir};
use gradle_flaky::condition::{Context, InJvm, Position, Repetition};

/// The recorded files of `folder` placed under a build's `test` results.
fn analyzed(folder: &str, opts: &AnalyzeOptions) -> (tempfile::TempDir, Report) {
    let root = tempfile::tempdir().unwrap();
    for entry in std::fs::read_dir(data(&format!("junit-gradle/{folder}"))).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        place(
            root.path(),
            &format!("run/build/test-results/test/{name}"),
            std::fs::read(&path).unwrap(),
        );
    }
    let report = analyze::analyze_root(root.path(), opts);
    (root, report)
}

/// The test `method` of the report.
fn test<'r>(report: &'r Report, method: &str) -> &'r TestReport {
    report.tests.iter().find(|t| t.method == method).unwrap()
}

/// Each condition of `t` as (context, repetition, mechanism, execution, runs).
fn rows(t: &TestReport) -> Vec<(Context, Repetition, Option<InJvm>, Position, u64)> {
    t.by_condition
        .conditions
        .iter()
        .map(|r| {
            let c = r.condition;
            (
                c.context,
                c.repetition,
                c.mechanism,
                c.execution.expect("every execution has a position"),
                r.rate.runs,
            )
        })
        .collect()
}

/// `local`'s options for an in-JVM batch of gradle-flaky's JUnit 4 runner.
fn planned_in_jvm() -> AnalyzeOptions {
    AnalyzeOptions {
        instances_once: true,
        planned: true,
        every_instance_below: vec![RepeatedDir {
            dir: ".".into(),
            repetitions: Some(20),
            mechanism: Some(InJvm::Junit4Runner),
        }],
        ..AnalyzeOptions::default()
    }
}

/// A test failing 4 of its 7 first executions in fresh JVMs and none of
/// its 13 repeats is first-execution-dependent, its CI-condition rate the
/// first executions'; its neighbour is clean, with what its first
/// executions bound said.
#[test]
fn a_cold_start_failure_is_first_execution_dependent() {
    let (_root, report) = analyzed("first-execution", &planned_in_jvm());
    let cold = test(&report, "coldStart");
    assert_eq!((cold.runs, cold.failures), (20, 4));
    let f = cold.by_condition.first_execution.unwrap();
    assert_eq!((f.first.failures, f.first.runs), (4, 7));
    assert_eq!((f.repeat.failures, f.repeat.runs), (0, 13));
    // scipy.stats.fisher_exact([[4,3],[0,13]], alternative="greater"): 0.007224
    assert!((f.p_value - 0.007224).abs() < 1e-6, "{f:?}");
    assert!(f.dependent);
    assert_eq!(cold.verdict.kind.as_str(), "first-execution-dependent");
    assert_eq!(
        cold.verdict.executions,
        gradle_flaky::analyze::model::counts::Executions::First
    );
    assert_eq!(cold.verdict.rate.failures, 4);
    for row in &cold.by_condition.conditions {
        assert_eq!(row.condition.context, Context::Alone);
        assert_eq!(row.condition.repetition, Repetition::InJvm);
        assert_eq!(row.condition.mechanism, Some(InJvm::Junit4Runner));
    }
    let steady = report.tests.iter().find(|t| t.method == "steady").unwrap();
    assert_eq!(steady.verdict.kind.as_str(), "clean");
    let md = render::markdown(&report);
    assert!(md.contains("**first-execution-dependent**"), "{md}");
    insta::assert_snapshot!("first_execution_markdown", md);
    insta::assert_snapshot!("first_execution_json", render::json(&report));
}

/// Without a plan, the runner's iteration tokens still say the executions
/// were repeated in one JVM, and which were first; the context is the
/// task's (a build's own run).
#[test]
fn tokens_tell_in_jvm_repetition_without_a_plan() {
    let (_root, report) = analyzed("first-execution", &AnalyzeOptions::default());
    let runner = Some(InJvm::Junit4Runner);
    assert_eq!(
        rows(test(&report, "coldStart")),
        [
            (Context::Task, Repetition::InJvm, runner, Position::First, 7),
            (
                Context::Task,
                Repetition::InJvm,
                runner,
                Position::Repeat,
                13
            )
        ]
    );
}

/// `-Dtests.iters=10` names carry a seed but no iteration: the ten cases of
/// a method in one file are one JVM's, the first of them its first
/// execution; a report of a plain run holds each test once, a fresh JVM's.
#[test]
fn seeded_repeats_in_one_file_are_one_jvms_and_plain_runs_fresh() {
    let (_root, report) = analyzed("flaky-unit", &AnalyzeOptions::default());
    let iters = Some(InJvm::TestsIters);
    assert_eq!(
        rows(test(&report, "testFlakyAssertion")),
        [
            (Context::Task, Repetition::InJvm, iters, Position::First, 1),
            (Context::Task, Repetition::InJvm, iters, Position::Repeat, 9)
        ]
    );
    let (_root, plain) = analyzed("stable-unit", &AnalyzeOptions::default());
    for t in &plain.tests {
        let [row] = t.by_condition.conditions.as_slice() else {
            panic!("{:?}", t.by_condition);
        };
        assert_eq!(
            (row.condition.repetition, row.condition.execution),
            (Repetition::FreshJvm, Some(Position::First))
        );
        assert!(t.by_condition.first_execution.is_none());
    }
}

/// A class leaving a busy thread per execution, repeated with a neighbour in
/// one JVM: both slow down with their position, both get
/// `state-accumulates`, and which leaked cannot be told (they shared the
/// JVM); the report says so in a plain sentence.
#[test]
fn state_that_accumulates_in_one_jvm_is_warned_of() {
    let (_root, report) = analyzed("leaky-one-jvm", &planned_in_jvm());
    let classes: Vec<&str> = report.warnings.iter().map(|w| w.class.as_str()).collect();
    assert_eq!(classes, ["demo.LeakyTest", "demo.NeighbourTest"]);
    for w in &report.warnings {
        assert_eq!(
            (w.code.as_str(), w.evidence.as_str(), w.positions),
            ("state-accumulates", "slower", 30)
        );
        assert!(w.last_sec.unwrap() > 4.0 * w.first_sec.unwrap(), "{w:?}");
        assert!(w.p_value.unwrap() < 0.001, "{w:?}");
        assert_eq!(w.leaking_class, None);
    }
    let md = render::markdown(&report);
    let section = md
        .split("### Warnings")
        .nth(1)
        .unwrap()
        .split("\n\n")
        .next()
        .unwrap();
    insta::assert_snapshot!("state_accumulates_markdown", section);
}

/// Reports in a folder of whole-task runs are in context `task`; the rest
/// of a planned run's reports stay `alone`.
#[test]
fn reports_of_whole_task_runs_are_in_context_task() {
    let mut opts = planned_in_jvm();
    opts.task_context_below = vec!["run/".into()];
    let (_root, report) = analyzed("first-execution", &opts);
    let contexts = |r: &Report| -> Vec<Context> {
        r.tests
            .iter()
            .flat_map(|t| rows(t).into_iter().map(|row| row.0))
            .collect()
    };
    assert!(!contexts(&report).is_empty());
    assert!(contexts(&report).iter().all(|c| *c == Context::Task));
    opts.task_context_below = vec!["elsewhere".into()];
    let (_root, report) = analyzed("first-execution", &opts);
    assert!(contexts(&report).iter().all(|c| *c == Context::Alone));
}

/// The recorded run `junit-gradle/context/{side}/{iter}` placed as `local`
/// lays out a run's reports: `{batch}/flakiness-iters/{as_iter}/…`.
fn place_run(root: &std::path::Path, side: &str, iter: &str, batch: &str, as_iter: &str) {
    let dir = data(&format!("junit-gradle/context/{side}/{iter}"));
    for file in std::fs::read_dir(&dir).unwrap() {
        let path = file.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        place(
            root,
            &format!("{batch}/flakiness-iters/{as_iter}/build/test-results/test/{name}"),
            std::fs::read(&path).unwrap(),
        );
    }
}

/// `local`'s options for a run of both contexts: the alone runs in
/// `batch-1`, the whole-task runs in `batch-2` (folders of whole-task runs,
/// so their executions are in context `task`).
fn both_contexts_options() -> AnalyzeOptions {
    AnalyzeOptions {
        instances_once: true,
        planned: true,
        task_context_below: vec!["batch-2".into()],
        ..AnalyzeOptions::default()
    }
}

/// Every run of `tests/data/junit-gradle/context`, both contexts.
fn both_contexts() -> (tempfile::TempDir, Report) {
    let root = tempfile::tempdir().unwrap();
    for (side, batch) in [("alone", "batch-1"), ("task", "batch-2")] {
        for iter in std::fs::read_dir(data(&format!("junit-gradle/context/{side}"))).unwrap() {
            let iter = iter.unwrap().file_name().to_string_lossy().into_owned();
            place_run(root.path(), side, &iter, batch, &iter);
        }
    }
    let report = analyze::analyze_root(root.path(), &both_contexts_options());
    (root, report)
}

/// A test that fails mostly alone (29/30) and rarely in its whole task
/// (3/17; real Gradle runs of `tests/fixtures/context`) is
/// `context-dependent`, its verdict resting on the task's runs (the CI
/// condition), exactly as Fisher's two-sided test on the reported counts
/// says; the classes that started before it in its task runs are its
/// candidates; its neighbours, which ran in the task only, are clean.
#[test]
fn a_test_failing_mostly_alone_is_context_dependent() {
    let (_root, report) = both_contexts();
    let lookup = test(&report, "findsAWord");
    assert_eq!((lookup.runs, lookup.failures), (47, 32));
    let c = lookup.by_condition.context.as_ref().unwrap();
    assert_eq!((c.alone.failures, c.alone.runs), (29, 30));
    assert_eq!((c.task.failures, c.task.runs), (3, 17));
    // scipy 1.17: fisher_exact([[29, 1], [3, 14]]) → p = 2.7322451463213572e-08.
    assert!((c.p_value - 2.732245e-8).abs() < 1e-13, "{c:?}");
    assert!(c.dependent);
    assert_eq!(c.fails_more, Some(Context::Alone));
    assert_eq!(c.task_path.as_deref(), Some(":test"));
    assert_eq!(lookup.verdict.kind.as_str(), "context-dependent");
    assert_eq!(lookup.verdict.context, [Context::Task]);
    assert_eq!(
        (lookup.verdict.rate.failures, lookup.verdict.rate.runs),
        (3, 17)
    );
    let k = c.candidates.as_ref().unwrap();
    assert_eq!((k.passing_runs, k.failing_runs), (14, 3));
    let named: Vec<(&str, u64, u64)> = k
        .classes
        .iter()
        .map(|x| (x.class.as_str(), x.before_in_passing, x.before_in_failing))
        .collect();
    // Gradle ran the task's classes in one order every time: both started
    // before it in every run, so the order cannot rank one above the other.
    assert_eq!(
        named,
        [
            ("demo.LoadsDictionaryTest", 14, 3),
            ("demo.UnrelatedTest", 14, 3)
        ]
    );
    for method in ["loads", "sums"] {
        let t = test(&report, method);
        assert!(t.by_condition.context.is_none());
        assert_eq!(t.verdict.kind.as_str(), "clean");
    }
    let md = render::markdown(&report);
    assert!(md.contains("**context-dependent**"), "{md}");
    insta::assert_snapshot!("context_dependent_markdown", md);
    insta::assert_snapshot!("context_dependent_json", render::json(&report));
}

/// Two roots (two CI jobs' artifacts) with alike-named folders hold two
/// whole-task runs, not one: a passing run in one, a failing run in the
/// other, each with its own order.
#[test]
fn task_runs_of_several_roots_stay_apart() {
    let roots = [tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap()];
    for (root, task_iter) in roots.iter().zip(["iter-1", "iter-14"]) {
        place_run(root.path(), "alone", "iter-1", "batch-1", "iter-1");
        place_run(root.path(), "task", task_iter, "batch-2", "iter-1");
    }
    let opts = both_contexts_options();
    let paths: Vec<std::path::PathBuf> = roots.iter().map(|r| r.path().to_path_buf()).collect();
    let report = analyze::analyze_roots(&paths, &opts);
    let c = test(&report, "findsAWord")
        .by_condition
        .context
        .clone()
        .unwrap();
    assert_eq!((c.task.failures, c.task.runs), (1, 2));
    let k = c.candidates.unwrap();
    assert_eq!((k.passing_runs, k.failing_runs), (1, 1));
    assert_eq!(k.classes[0].before_in_passing, 1);
    assert_eq!(k.classes[0].before_in_failing, 1);
}
