//! From executions to per-test statistics: failure classification, name
//! normalization (seed and iteration tokens), per-file accumulation and the
//! deterministic merge of every file into a [`Report`].

use crate::analyze::model::counts::{
    Conditions, FirstExecution, Rate, RunOutcome, Tally, TaskRuns, MAX_TASK_RUNS,
};
use crate::analyze::model::report::NotATest;
use crate::analyze::model::report::{
    Example, FailedRun, FailureKind, FileSummary, KindCounts, MalformedFile, Report, ReportFiles,
    Severity, Summary, TestReport, TruncatedFile, UnreadableDir, MAX_FAILING_RUNS,
};
use crate::analyze::read::junit::{self, Execution};
use crate::analyze::read::names::normalize_method;
use crate::analyze::read::no_test;
use crate::analyze::read::position::{FileCondition, InFile};
use crate::analyze::read::reproduce;
use crate::analyze::read::reproduce::Rerun;
use crate::analyze::read::rows::RowIndex;
use crate::analyze::rules::first_execution;
use crate::analyze::rules::verdict::{judged, severity, Verdict, OOM_ERROR};
use crate::stats;
use indexmap::IndexSet;
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// Failures kept as examples per test.
const EXAMPLES_PER_TEST: usize = 3;

/// Classifies a failure like Elasticsearch's flakiness detection, except that JUnit 5's
/// `AssertionFailedError` and JUnit 4's `ComparisonFailure` are assertions.
pub(crate) fn classify_failure(type_name: &str, message: &str) -> FailureKind {
    if message.contains("Test abandoned because suite timeout was reached.")
        || message.contains("Suite timeout exceeded (>= ")
    {
        FailureKind::SuiteTimeout
    } else if type_name.ends_with("AssertionError")
        || type_name.contains(".AssertionError")
        || type_name.ends_with("AssertionFailedError")
        || type_name.ends_with("ComparisonFailure")
    {
        FailureKind::Assertion
    } else if type_name.ends_with("Exception") || type_name.ends_with("Error") {
        FailureKind::Error
    } else {
        FailureKind::Other
    }
}

/// Where a report file sits in the build.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ReportTask {
    /// The Gradle task name (`test`, `internalClusterTest`, ...).
    pub task_name: String,
    /// The full task path (`:server:test`).
    pub task_path: String,
}

/// One test's counts so far.
#[derive(Debug, Clone, Default)]
pub(crate) struct TestAcc {
    passes: u64,
    failures: u64,
    /// Failures that were the JVM running out of heap.
    heap_failures: u64,
    suite_timeouts: u64,
    skipped: u64,
    kinds: KindCounts,
    /// Distinct, in the order first seen.
    seeds: IndexSet<String>,
    examples: Vec<Example>,
    time_sec: f64,
    /// The times of the executions counted in `passes` and `failures`.
    durations: stats::DurationSketch,
    tasks: BTreeSet<String>,
    /// The task of a report where it failed, to build a reproduce line from.
    failing_task: Option<String>,
    reproduce: Option<String>,
    /// Its executions by condition.
    conditions: Tally,
    /// Its executions in the file being read, settled at its end.
    in_file: InFile,
    /// Its outcome in each whole-task run (the candidates' order).
    task_runs: Vec<RunOutcome>,
    /// The signatures of its failures in the file being read, in order.
    file_signatures: Vec<String>,
    /// The runs it failed in, with how ([`FailedRun`]).
    failing_runs: Vec<FailedRun>,
}

impl TestAcc {
    fn merge(&mut self, other: TestAcc) {
        self.passes += other.passes;
        self.failures += other.failures;
        self.heap_failures += other.heap_failures;
        self.suite_timeouts += other.suite_timeouts;
        self.skipped += other.skipped;
        for (kind, n) in other.kinds.0 {
            self.kinds.add(kind, n);
        }
        self.seeds.extend(other.seeds);
        let room = EXAMPLES_PER_TEST.saturating_sub(self.examples.len());
        self.examples.extend(other.examples.into_iter().take(room));
        self.time_sec += other.time_sec;
        self.durations.merge(&other.durations);
        self.tasks.extend(other.tasks);
        self.failing_task = self.failing_task.take().or(other.failing_task);
        self.reproduce = self.reproduce.take().or(other.reproduce);
        self.conditions.merge(other.conditions);
        let room = MAX_TASK_RUNS.saturating_sub(self.task_runs.len());
        self.task_runs
            .extend(other.task_runs.into_iter().take(room));
        let room = MAX_FAILING_RUNS.saturating_sub(self.failing_runs.len());
        self.failing_runs
            .extend(other.failing_runs.into_iter().take(room));
    }
}

type Key = (String, String);

/// One file's executions, accumulated per test.
///
/// With `instances_once`, a test name that carries no seed or iteration
/// token and that one file holds again, passing (or skipped) after a pass,
/// is another instance of the test in the same run, not another run: it
/// counts once (a pass after a skip replaces the skip). JUnit 3 `BulkTest` suites run one nested class
/// once for each concrete test that uses it (a run of commons-collections'
/// suite files `TestMapKeySet.testSetEquals` 54 times in one XML file); a
/// clean Gradle run then counts as one execution of that name, so its runs
/// are the runs asked for and what a clean result proves is not overstated.
/// A failure (or suite timeout), and whatever follows one, counts each time:
/// a retry (Gradle's test-retry plugin writes both into the file) shows as a
/// flaky test. Repetitions by the randomizedtesting runner carry seeds, and
/// count each. Without `instances_once` every test case counts, as the
/// reference analyzer counts them.
#[derive(Debug, Default)]
pub(crate) struct FileAgg {
    /// Every test of the file, in the order first seen.
    tests: Vec<(Key, TestAcc)>,
    /// class → normalized method → position in `tests`.
    index: HashMap<String, HashMap<String, usize>>,
    /// The test of the previous execution: a test's iterations come in a row.
    last: Option<usize>,
    /// Repeats of a clean name are instances, counted once (see above).
    instances_once: bool,
    /// Repeated in one test JVM: TestNG rows get their first index back.
    rows: Option<RowIndex>,
    /// What the file says of its executions' condition.
    condition: FileCondition,
    /// The Gradle run the file is of (`batch-1/iter-3`), for clusters.
    run: String,
    /// Hash of (class, name) of each token-free test seen → the rank of the
    /// result it counts with.
    counted: HashMap<u64, Rank>,
    passed: u64,
    failed: u64,
    suite_timeouts: u64,
    skipped: u64,
}

/// How bad a result is: the worst of several instances counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Rank {
    Skipped,
    Passed,
    SuiteTimeout,
    Failed,
}

impl FileAgg {
    /// A file's accumulator; `instances_once` counts the clean repeats of a
    /// name as one run.
    pub(crate) fn new(instances_once: bool) -> FileAgg {
        FileAgg {
            instances_once,
            ..FileAgg::default()
        }
    }

    /// The accumulator of a report whose tests were repeated in one test JVM
    /// under their plain names: every case is an execution, and TestNG's
    /// data-provider rows keep their indexes across repetitions (`rows`,
    /// which has counted the file's cases when the repetitions are known).
    pub(crate) fn repeated_in_jvm(rows: RowIndex) -> FileAgg {
        FileAgg {
            rows: Some(rows),
            ..FileAgg::default()
        }
    }

    /// The same accumulator, its executions under `condition`, of the
    /// Gradle run labelled `run`.
    pub(crate) fn under(self, condition: FileCondition, run: String) -> FileAgg {
        FileAgg {
            condition,
            run,
            ..self
        }
    }

    /// Adds one execution read from a report of `origin`.
    pub(crate) fn record(&mut self, exec: Execution<'_>, origin: Option<&ReportTask>) {
        let (method, seed) = normalize_method(exec.name);
        let at = self
            .rows
            .as_ref()
            .and_then(|r| r.position(exec.class, exec.name));
        let method = match self.rows.as_mut() {
            Some(rows) => rows.renumber(exec.class, method),
            None => method,
        };
        let slot = self.slot(exec.class, &method, origin);
        self.tests[slot].1.time_sec += exec.time.unwrap_or(0.0);
        if self.instances_once
            && seed.is_none()
            && method == exec.name
            && !self.first_instance(&exec, slot)
        {
            return;
        }
        let acc = &mut self.tests[slot].1;
        match exec.result {
            junit::CaseResult::Passed => {
                acc.passes += 1;
                self.passed += 1;
                acc.durations.add_some(exec.time);
                acc.in_file.add_at(exec.name, false, exec.time, at);
            }
            junit::CaseResult::Skipped => {
                acc.skipped += 1;
                self.skipped += 1;
                acc.in_file.skip();
            }
            junit::CaseResult::Failed(failure) => {
                let kind = classify_failure(&failure.type_name, &failure.message);
                if kind == FailureKind::SuiteTimeout {
                    acc.in_file.skip();
                    acc.suite_timeouts += 1;
                    self.suite_timeouts += 1;
                    return;
                }
                acc.failures += 1;
                acc.durations.add_some(exec.time);
                acc.in_file.add_at(exec.name, true, exec.time, at);
                acc.heap_failures += u64::from(failure.type_name == OOM_ERROR);
                self.failed += 1;
                acc.kinds.add(kind, 1);
                let signature = crate::analyze::rules::clusters::signature(
                    &failure.type_name,
                    &failure.message,
                );
                acc.file_signatures.push(signature);
                if let Some(seed) = seed.map(str::to_string).or(failure.seed) {
                    acc.seeds.insert(seed);
                }
                if acc.failing_task.is_none() {
                    acc.failing_task = origin.map(|o| o.task_path.clone());
                }
                if acc.examples.len() < EXAMPLES_PER_TEST {
                    acc.examples.push(Example {
                        name: exec.name.to_string(),
                        kind,
                        type_name: failure.type_name,
                        message: failure.message,
                    });
                }
            }
        }
    }

    /// Whether this execution of a token-free name counts: the first of its
    /// name in the file, a failure or what follows one, or a pass after a
    /// skip, whose count is then taken back.
    fn first_instance(&mut self, exec: &Execution<'_>, slot: usize) -> bool {
        use std::hash::{Hash, Hasher};
        let rank = match &exec.result {
            junit::CaseResult::Skipped => Rank::Skipped,
            junit::CaseResult::Passed => Rank::Passed,
            junit::CaseResult::Failed(f)
                if classify_failure(&f.type_name, &f.message) == FailureKind::SuiteTimeout =>
            {
                Rank::SuiteTimeout
            }
            junit::CaseResult::Failed(_) => Rank::Failed,
        };
        let mut h = std::collections::hash_map::DefaultHasher::new();
        (exec.class, exec.name).hash(&mut h);
        let Some(counted) = self.counted.get_mut(&h.finish()) else {
            self.counted.insert(h.finish(), rank);
            return true;
        };
        if rank >= Rank::SuiteTimeout || *counted >= Rank::SuiteTimeout {
            *counted = rank;
            return true;
        }
        if rank <= *counted {
            return false;
        }
        // a pass after a skip
        *counted = rank;
        self.tests[slot].1.skipped -= 1;
        self.skipped -= 1;
        true
    }

    /// The position of a test in `tests`, added if new. Keys are allocated only
    /// for a new test.
    fn slot(&mut self, class: &str, method: &str, origin: Option<&ReportTask>) -> usize {
        if let Some(last) = self.last {
            let (c, m) = &self.tests[last].0;
            if c == class && m == method {
                return last;
            }
        }
        if !self.index.contains_key(class) {
            self.index.insert(class.to_string(), HashMap::new());
        }
        let methods = self.index.get_mut(class).expect("inserted above");
        let slot = match methods.get(method) {
            Some(&slot) => slot,
            None => {
                let mut acc = TestAcc::default();
                // One file, one task.
                acc.tasks.extend(origin.map(|o| o.task_name.clone()));
                methods.insert(method.to_string(), self.tests.len());
                self.tests
                    .push(((class.to_string(), method.to_string()), acc));
                self.tests.len() - 1
            }
        };
        self.last = Some(slot);
        slot
    }

    /// Each test's executions of the file under their conditions, once the
    /// file is read (a name the file holds more than once was repeated in
    /// one JVM).
    fn settle_conditions(&mut self) {
        for (_, acc) in &mut self.tests {
            let failed =
                std::mem::take(&mut acc.in_file).settle(&self.condition, &mut acc.conditions);
            let signatures = std::mem::take(&mut acc.file_signatures);
            for (index, signature) in failed.into_iter().zip(signatures) {
                if acc.failing_runs.len() >= MAX_FAILING_RUNS {
                    break;
                }
                let run = index.map_or_else(|| self.run.clone(), |i| format!("{}#{i}", self.run));
                acc.failing_runs.push(FailedRun { run, signature });
            }
        }
    }

    /// Attaches the file's `REPRODUCE WITH:` lines to the tests they name.
    pub(crate) fn attach_reproduce_lines(&mut self, lines: &[String]) {
        if lines.is_empty() {
            return;
        }
        for ((class, method), acc) in &mut self.tests {
            if acc.failures > 0 && acc.reproduce.is_none() {
                acc.reproduce = lines
                    .iter()
                    .find(|line| reproduce::line_names_test(line, class, method))
                    .cloned();
            }
        }
    }
}

/// One file, read.
#[derive(Debug)]
pub(crate) struct FileResult {
    /// Which of the analyzed roots it is below (runs of one task in two
    /// roots' alike-named folders are two runs).
    pub root: usize,
    /// Relative to the analyzed root, `/`-separated.
    pub path: String,
    /// A report of a planned whole-task run (below
    /// `AnalyzeOptions::task_context_below`): its classes' order is kept
    /// for the candidates. A build's own reports are not: without runs
    /// alone there is no comparison to rank candidates for.
    pub task_run: bool,
    pub origin: Option<ReportTask>,
    pub read: junit::FileRead,
    pub agg: FileAgg,
    /// Classes JUnit found no test in (planned runs only).
    pub not_tests: Vec<NotATest>,
}

/// Merges files, one at a time in path order, into a report: memory grows with
/// the number of distinct tests, not with the number of files or their size.
#[derive(Debug, Default)]
pub(crate) struct Merger {
    tests: BTreeMap<Key, TestAcc>,
    files: ReportFiles,
    not_tests: Vec<NotATest>,
    /// The order of the classes in each whole-task run.
    task_runs: TaskRuns,
}

impl Merger {
    /// A directory whose reports could not be seen.
    pub(crate) fn unreadable_dir(&mut self, path: String, error: String) {
        self.files
            .unreadable_dirs
            .push(UnreadableDir { path, error });
    }

    pub(crate) fn add(&mut self, file: FileResult) {
        for n in &file.not_tests {
            no_test::add(
                &mut self.not_tests,
                &n.class,
                n.task.as_deref(),
                &n.message,
                n.times,
            );
        }
        let mut agg = file.agg;
        agg.settle_conditions();
        if file.task_run {
            self.order_of_task_run(
                &format!("{}:{}", file.root, file.path),
                file.origin.as_ref(),
                &file.read.suites,
                &mut agg,
            );
        }
        let out = &mut self.files;
        out.read += 1;
        out.reports.push(FileSummary {
            path: file.path.clone(),
            task: file.origin.map(|o| o.task_path),
            counts: file.read.counts,
            passed: agg.passed,
            failed: agg.failed,
            suite_timeouts: agg.suite_timeouts,
            skipped: agg.skipped,
        });
        match file.read.state {
            junit::State::Complete => {}
            junit::State::Truncated => out.truncated.push(TruncatedFile {
                path: file.path,
                cases: file.read.counts.cases,
            }),
            junit::State::Malformed { offset, message } => out.malformed.push(MalformedFile {
                path: file.path,
                offset,
                error: message,
            }),
            junit::State::Unreadable(message) => out.malformed.push(MalformedFile {
                path: file.path,
                offset: 0,
                error: format!("cannot read: {message}"),
            }),
        }
        // Each file's tests in key order, so that the merge does not depend on hashing.
        let mut file_tests = agg.tests;
        file_tests.sort_by(|a, b| a.0.cmp(&b.0));
        for (key, acc) in file_tests {
            self.tests.entry(key).or_default().merge(acc);
        }
    }

    /// A report (`path`: its root's index, `:`, its path) of a whole-task
    /// run: its classes' starts join its run's order (one folder of reports
    /// is one Gradle run of one task), and each test of the file notes its
    /// outcome there.
    fn order_of_task_run(
        &mut self,
        path: &str,
        origin: Option<&ReportTask>,
        suites: &[junit::Suite],
        agg: &mut FileAgg,
    ) {
        let dir = path.rsplit_once('/').map_or(".", |(dir, _)| dir);
        let task = origin.map(|o| o.task_path.as_str());
        let starts = suites.iter().map(|s| (s.name.clone(), s.timestamp.clone()));
        let run = self.task_runs.add(dir, task, starts);
        for (_, acc) in &mut agg.tests {
            if acc.passes + acc.failures > 0 && acc.task_runs.len() < MAX_TASK_RUNS {
                acc.task_runs.push((run, acc.failures > 0));
            }
        }
    }

    pub(crate) fn finish(self, skipped_stale: u64, rerun: &Rerun) -> Report {
        let files = ReportFiles {
            skipped_stale,
            ..self.files
        };
        let mut report = build_report(self.tests, files, rerun, &self.task_runs);
        report.not_a_test = self.not_tests;
        report
    }
}

/// Merges files (in the order given, which should be path order) into a report.
#[cfg(test)]
pub fn merge(files: Vec<FileResult>, skipped_stale: u64) -> Report {
    let mut merger = Merger::default();
    for file in files {
        merger.add(file);
    }
    merger.finish(skipped_stale, &Rerun::default())
}

fn build_report(
    tests: BTreeMap<Key, TestAcc>,
    files: ReportFiles,
    rerun: &Rerun,
    task_runs: &TaskRuns,
) -> Report {
    let mut summary = Summary {
        executions: 0,
        passed: 0,
        failed: 0,
        suite_timeouts: 0,
        skipped: 0,
        tests: 0,
        flaky_tests: 0,
        severity: Severity::Success,
    };
    let mut reports = Vec::new();
    let mut skips = BTreeMap::new();
    for ((class, method), mut acc) in tests {
        if acc.skipped > 0 {
            skips.insert((class.clone(), method.clone()), acc.skipped);
        }
        summary.passed += acc.passes;
        summary.failed += acc.failures;
        summary.suite_timeouts += acc.suite_timeouts;
        summary.skipped += acc.skipped;
        let runs = acc.passes + acc.failures;
        if runs == 0 && acc.suite_timeouts == 0 {
            continue; // skipped only: it never ran
        }
        summary.tests += 1;
        summary.flaky_tests += u64::from(acc.passes > 0 && acc.failures > 0);
        let outcomes = std::mem::take(&mut acc.task_runs);
        reports.push((test_report(class, method, acc, rerun), outcomes));
    }
    let mut reports = judge_together(reports, task_runs);
    reproduce::add_context(&mut reports, rerun);
    summary.executions = summary.passed + summary.failed + summary.suite_timeouts;
    sort_most_failing_first(&mut reports);
    let warnings = crate::analyze::rules::drift::warn(&mut reports);
    let clusters = crate::analyze::rules::clusters::of_tests(&reports);
    let mut report = Report {
        clusters,
        around: Default::default(),
        summary,
        warnings,
        tests: reports,
        not_executed: Vec::new(),
        not_a_test: Vec::new(),
        neighbours: None,
        files,
        skips,
    };
    report.summary.severity = severity(&report);
    report
}

/// The run's tests judged together: their first executions against their
/// repeats corrected for every comparison of the run, then each compared
/// alone against its task (with the classes before it in its task runs
/// when it fails more in one context) and judged.
fn judge_together(tests: Vec<(TestReport, Vec<RunOutcome>)>, runs: &TaskRuns) -> Vec<TestReport> {
    let (mut reports, outcomes): (Vec<TestReport>, Vec<Vec<RunOutcome>>) =
        tests.into_iter().unzip();
    let mut found: Vec<&mut FirstExecution> = reports
        .iter_mut()
        .filter_map(|t| t.by_condition.first_execution.as_mut())
        .collect();
    first_execution::correct(&mut found);
    for (t, outcomes) in reports.iter_mut().zip(&outcomes) {
        t.by_condition.recompare();
        if let Some(c) = t.by_condition.context.as_mut() {
            c.task_path = runs.task_of(outcomes);
            c.candidates = c
                .fails_more
                .and_then(|side| runs.candidates(&t.class, outcomes, side));
        }
    }
    reports.into_iter().map(judged).collect()
}

/// One test's report from what its executions added up to, not yet judged.
fn test_report(class: String, method: String, acc: TestAcc, rerun: &Rerun) -> TestReport {
    let runs = acc.passes + acc.failures;
    let rate = Rate::new(acc.failures, runs);
    let reproduce = if acc.failures == 0 {
        None
    } else {
        acc.reproduce.or_else(|| {
            // Without a class there is no `--tests` filter to build.
            let task = acc.failing_task.as_deref().filter(|_| !class.is_empty())?;
            let seed = acc.seeds.first().map(String::as_str);
            Some(reproduce::build(rerun, task, &class, &method, seed))
        })
    };
    TestReport {
        kinds: acc.tasks.into_iter().collect(),
        runs,
        plan: None,
        passes: acc.passes,
        failures: acc.failures,
        heap_failures: acc.heap_failures,
        suite_timeouts: acc.suite_timeouts,
        failure_rate: rate.failure_rate,
        ci95: rate.ci95,
        failure_kinds: acc.kinds,
        failing_seeds: acc.seeds.into_iter().collect(),
        reproduce,
        reproduce_context: None,
        run_members: Default::default(),
        examples: acc.examples,
        failing_runs: acc.failing_runs,
        time_sec: acc.time_sec,
        durations: acc.durations,
        failing_task: acc.failing_task,
        triage: None,
        comparison: None,
        by_condition: Conditions::of(acc.conditions),
        class,
        method,
        verdict: Verdict::unjudged(),
    }
}

/// Most failing first, then by class and method.
fn sort_most_failing_first(reports: &mut [TestReport]) {
    reports.sort_by(|a, b| {
        (b.failures, b.suite_timeouts)
            .cmp(&(a.failures, a.suite_timeouts))
            .then_with(|| (&a.class, &a.method).cmp(&(&b.class, &b.method)))
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyze::read::junit::Failure;

    #[test]
    fn classifies_like_the_reference_but_knows_junit5_and_comparison_failures() {
        let c = classify_failure;
        assert_eq!(c("java.lang.AssertionError", ""), FailureKind::Assertion);
        assert_eq!(
            c("junit.framework.AssertionError2", ""),
            FailureKind::Assertion
        );
        assert_eq!(c("java.lang.RuntimeException", ""), FailureKind::Error);
        assert_eq!(c("java.lang.OutOfMemoryError", ""), FailureKind::Error);
        assert_eq!(c("", ""), FailureKind::Other);
        assert_eq!(
            c("org.opentest4j.AssertionFailedError", ""),
            FailureKind::Assertion
        );
        assert_eq!(c("org.junit.ComparisonFailure", ""), FailureKind::Assertion);
        assert_eq!(
            c("junit.framework.ComparisonFailure", ""),
            FailureKind::Assertion
        );
        for message in [
            "java.lang.Exception: Test abandoned because suite timeout was reached.",
            "java.lang.Exception: Suite timeout exceeded (>= 3600000 msec).",
        ] {
            assert_eq!(c("java.lang.Exception", message), FailureKind::SuiteTimeout);
        }
    }

    #[test]
    fn normalizes_seed_and_iteration_tokens_in_every_form() {
        let n = |s: &str| {
            let (method, seed) = normalize_method(s);
            (method.into_owned(), seed.map(str::to_string))
        };
        let seeded = |m: &str, s: &str| (m.to_string(), Some(s.to_string()));
        assert_eq!(
            n("testFoo {seed=[24918B24CBE01DE3:A940852AB5443E5]}"),
            seeded("testFoo", "24918B24CBE01DE3:A940852AB5443E5")
        );
        assert_eq!(n("testFoo"), ("testFoo".into(), None));
        assert_eq!(n("testFoo {p0=x}"), ("testFoo {p0=x}".into(), None));
        assert_eq!(
            n("test {yaml=api/10_basic/Basic painless script seed=[A:B]}"),
            seeded("test {yaml=api/10_basic/Basic painless script}", "A:B")
        );
        assert_eq!(n("testFoo {#3 seed=[A:B]}"), seeded("testFoo", "A:B"));
        assert_eq!(n("testFoo {seed=[A:B]} #2"), seeded("testFoo", "A:B"));
        assert_eq!(n("testFoo #12"), ("testFoo".into(), None));
        assert_eq!(
            n("test {yaml=search/10_x/issue #1 seed=[A:B]}"),
            seeded("test {yaml=search/10_x/issue #1}", "A:B")
        );
        assert_eq!(n("test {p0=#x}"), ("test {p0=#x}".into(), None));
        assert_eq!(
            n("testFoo {seed=[unclosed}"),
            ("testFoo {seed=[unclosed}".into(), None)
        );
    }

    fn exec<'a>(name: &'a str, result: junit::CaseResult) -> Execution<'a> {
        Execution {
            class: "org.example.FooTests",
            name,
            time: Some(0.25),
            primary: true,
            result,
        }
    }

    #[test]
    fn identity_hash_codes_of_testng_rows_are_one_test() {
        let n = |raw: &'static str| normalize_method(raw).0.into_owned();
        assert_eq!(
            n("testAlternateNamesForListParameters[0]([Ljava.lang.String;@19615635)"),
            "testAlternateNamesForListParameters[0]([Ljava.lang.String;@hash)"
        );
        assert_eq!(
            n("testAlternateNamesForListParameters[0]([Ljava.lang.String;@28f6897d)"),
            n("testAlternateNamesForListParameters[0]([Ljava.lang.String;@19615635)")
        );
        assert_eq!(
            n("t[1](com.x.Foo$Bar@7f3, [I@1a)"),
            "t[1](com.x.Foo$Bar@hash, [I@hash)"
        );
        // Not identity hash codes: an address, a decorator, a longer hex run, a word.
        for kept in [
            "t[0](user@example.com)",
            "t[0](a.b@cafe1234567)",
            "t[0](@beef)",
            "t[0](x.y@deadbeefs)",
        ] {
            assert_eq!(n(kept), kept);
        }
    }

    fn fail(type_name: &str, message: &str) -> junit::CaseResult {
        junit::CaseResult::Failed(Failure {
            type_name: type_name.into(),
            message: message.into(),
            seed: None,
        })
    }

    fn file(path: &str, task: &str, execs: Vec<Execution<'_>>) -> FileResult {
        file_counting(path, task, execs, false)
    }

    fn file_counting(
        path: &str,
        task: &str,
        execs: Vec<Execution<'_>>,
        instances_once: bool,
    ) -> FileResult {
        let origin = ReportTask {
            task_name: task.rsplit(':').next().unwrap().to_string(),
            task_path: task.to_string(),
        };
        let mut agg = FileAgg::new(instances_once);
        for e in execs {
            agg.record(e, Some(&origin));
        }
        FileResult {
            root: 0,
            path: path.into(),
            task_run: false,
            origin: Some(origin),
            read: junit::FileRead {
                counts: Default::default(),
                state: junit::State::Complete,
                reproduce: vec![],
                suites: vec![],
            },
            agg,
            not_tests: vec![],
        }
    }

    #[test]
    fn seeded_iterations_collapse_into_one_test_keeping_every_failing_seed() {
        let report = merge(
            vec![
                file(
                    "a",
                    ":server:test",
                    vec![
                        exec("testFlaky {seed=[AAAA:1111]}", junit::CaseResult::Passed),
                        exec(
                            "testFlaky {seed=[AAAA:2222]}",
                            fail("java.lang.AssertionError", "boom"),
                        ),
                        exec(
                            "testFlaky {seed=[AAAA:3333]}",
                            fail("java.lang.RuntimeException", "bang"),
                        ),
                        exec(
                            "testFlaky {seed=[AAAA:2222]}",
                            fail("java.lang.AssertionError", "boom"),
                        ),
                    ],
                ),
                file(
                    "b",
                    ":server:internalClusterTest",
                    vec![exec("testFlaky {seed=[BBBB:1]}", fail("", "x"))],
                ),
            ],
            0,
        );
        assert_eq!(report.tests.len(), 1);
        let t = &report.tests[0];
        assert_eq!(
            (t.method.as_str(), t.passes, t.failures, t.runs),
            ("testFlaky", 1, 4, 5)
        );
        assert_eq!(t.failing_seeds, vec!["AAAA:2222", "AAAA:3333", "BBBB:1"]);
        assert_eq!(t.kinds, vec!["internalClusterTest", "test"]);
        assert_eq!(
            t.failure_kinds.0,
            vec![
                (FailureKind::Assertion, 2),
                (FailureKind::Error, 1),
                (FailureKind::Other, 1)
            ]
        );
        assert_eq!(t.examples.len(), 3);
        assert_eq!(t.examples[0].name, "testFlaky {seed=[AAAA:2222]}");
        assert_eq!(
            t.reproduce.as_deref(),
            Some(
                "./gradlew :server:cleanTest :server:test --tests org.example.FooTests.testFlaky \
                 -Dtests.seed=AAAA:2222"
            )
        );
        assert_eq!(report.summary.flaky_tests, 1);
        assert_eq!(report.summary.severity, Severity::Error);
    }

    /// A nested class that suites run once per concrete test (JUnit 3
    /// `BulkTest`) repeats its names in one file: counting instances once, a
    /// clean run counts once; a failure and what follows it count each (a
    /// retry).
    #[test]
    fn a_name_one_file_repeats_passing_without_a_seed_counts_once() {
        let report = merge(
            vec![
                file_counting(
                    "a",
                    ":test",
                    vec![
                        exec("testSetEquals", junit::CaseResult::Passed),
                        exec("testSize", junit::CaseResult::Skipped),
                        exec("testRetried", fail("java.lang.AssertionError", "y")),
                        exec("testSetEquals", junit::CaseResult::Passed),
                        exec("testSize", junit::CaseResult::Passed),
                        exec("testSetEquals", junit::CaseResult::Passed),
                        exec("testSize", junit::CaseResult::Passed),
                        // a retry after a failure is a run of its own
                        exec("testRetried", junit::CaseResult::Passed),
                    ],
                    true,
                ),
                // another run's file counts again
                file(
                    "b",
                    ":test",
                    vec![exec("testSetEquals", junit::CaseResult::Passed)],
                ),
            ],
            0,
        );
        let row = |m: &str| report.tests.iter().find(|t| t.method == m).unwrap();
        let eq = row("testSetEquals");
        assert_eq!((eq.runs, eq.passes, eq.failures), (2, 2, 0));
        let size = row("testSize");
        assert_eq!((size.runs, size.passes), (1, 1));
        assert!(!report
            .skips
            .contains_key(&("org.example.FooTests".into(), "testSize".into())));
        let retried = row("testRetried");
        assert_eq!((retried.runs, retried.passes, retried.failures), (2, 1, 1));
        let s = &report.summary;
        assert_eq!((s.executions, s.passed, s.failed, s.skipped), (5, 4, 1, 0));
        // without it, every test case counts (the reference analyzer's way)
        let each = merge(
            vec![file(
                "a",
                ":test",
                vec![
                    exec("testSetEquals", junit::CaseResult::Passed),
                    exec("testSetEquals", junit::CaseResult::Passed),
                ],
            )],
            0,
        );
        assert_eq!(each.tests[0].runs, 2);
    }

    #[test]
    fn suite_timeouts_are_counted_apart_and_never_as_failures() {
        let report = merge(
            vec![file(
                "a",
                ":x:test",
                vec![
                    exec("testA", junit::CaseResult::Passed),
                    exec(
                        "testB",
                        fail(
                            "java.lang.Exception",
                            "Test abandoned because suite timeout was reached.",
                        ),
                    ),
                    exec(
                        "classMethod",
                        fail(
                            "java.lang.Exception",
                            "Suite timeout exceeded (>= 3600000 msec).",
                        ),
                    ),
                    exec("testC", junit::CaseResult::Skipped),
                ],
            )],
            0,
        );
        let s = &report.summary;
        assert_eq!(
            (
                s.executions,
                s.passed,
                s.failed,
                s.suite_timeouts,
                s.skipped
            ),
            (3, 1, 0, 2, 1)
        );
        assert_eq!(s.tests, 3, "testC never ran");
        assert_eq!(s.severity, Severity::Warning);
        let class_method = report
            .tests
            .iter()
            .find(|t| t.method == "classMethod")
            .unwrap();
        assert_eq!((class_method.runs, class_method.suite_timeouts), (0, 1));
        assert!(class_method.reproduce.is_none());
    }

    #[test]
    fn reproduce_lines_from_the_output_win() {
        let mut f = file(
            "a",
            ":server:test",
            vec![exec(
                "testFoo {seed=[A:B]}",
                fail("java.lang.AssertionError", "boom"),
            )],
        );
        f.agg.attach_reproduce_lines(&[
            "./gradlew ':server:test' --tests \"org.example.FooTests.testFooBar\" -Dtests.seed=X"
                .into(),
            "./gradlew ':server:test' --tests \"org.example.FooTests.testFoo\" -Dtests.seed=A"
                .into(),
        ]);
        let report = merge(vec![f], 0);
        assert_eq!(
            report.tests[0].reproduce.as_deref(),
            Some(
                "./gradlew ':server:test' --tests \"org.example.FooTests.testFoo\" -Dtests.seed=A"
            )
        );
    }
}
