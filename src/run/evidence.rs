//! What one invocation's kept reports say, as the repetition engine needs it:
//! the counts its progress line and verdict show, the test time its pace is
//! measured by, each selected test's results (only those run with the seed
//! the invocation pinned count), and how often each class ran its tests, from
//! which the engine tells a class whose in-JVM count did not take effect.

use super::invoke::{Iteration, IterationCounts, IterationVerdict};
use crate::analyze::model::report::FailureKind;
use crate::analyze::read::aggregate::classify_failure;
use crate::analyze::read::junit::{self, CaseResult, Execution};
use crate::analyze::read::names::normalize_method;
use crate::analyze::rules::verdict::OOM_ERROR;
use crate::analyze::{self, AnalyzeOptions};
use crate::domain::ClassifiedTest;
use crate::process::Ended;
use crate::stats::Counts;
use std::collections::BTreeMap;
use std::fs::File;
use std::time::Duration;

/// One selected test's executions in an invocation (or several, added up).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct EvidenceTally {
    pub passed: u64,
    /// Real failures: neither a suite timeout nor a JVM out of heap.
    pub failed: u64,
    pub suite_timeouts: u64,
    /// Failures of a JVM out of heap: infrastructure, never a proof.
    pub heap: u64,
    /// Executions that ran with a seed other than the pinned one: the seed
    /// did not reach the test JVM, so they say nothing of it.
    pub unpinned: u64,
    /// The first seed seen on an unpinned execution.
    pub other_seed: Option<String>,
    /// Passes and real failures (as `passed` and `failed`) of each
    /// (class, method) the test covers: what a comparison's looks read, and
    /// what a proof rests on.
    pub methods: BTreeMap<(String, String), Counts>,
}

impl EvidenceTally {
    /// Executions with a result: the test ran (with the pinned seed, if
    /// any) and passed or failed.
    pub(crate) fn usable(&self) -> u64 {
        self.passed + self.failed
    }

    /// Executions that ran at all, whatever their result.
    pub(crate) fn ran(&self) -> u64 {
        self.usable() + self.suite_timeouts + self.heap + self.unpinned
    }

    pub(crate) fn add(&mut self, other: &EvidenceTally) {
        self.passed += other.passed;
        self.failed += other.failed;
        self.suite_timeouts += other.suite_timeouts;
        self.heap += other.heap;
        self.unpinned += other.unpinned;
        if self.other_seed.is_none() {
            self.other_seed.clone_from(&other.other_seed);
        }
        for (name, c) in &other.methods {
            self.method(name.0.as_str(), name.1.as_str(), c.runs, c.failures);
        }
    }

    /// Adds `runs` executions of (`class`, `method`), `failures` of them failed.
    fn method(&mut self, class: &str, method: &str, runs: u64, failures: u64) {
        let key = (class.to_string(), method.to_string());
        let c = self.methods.entry(key).or_insert(Counts::new(0, 0));
        *c = Counts::new(c.failures + failures, c.runs + runs);
    }

    /// One of its methods failed for real, and (`need_pass`) that same
    /// method passed too: flaky beyond doubt. A class's other methods passing
    /// prove nothing of the one that failed (it may fail every time).
    pub(crate) fn proves_flaky(&self, need_pass: bool) -> bool {
        self.methods
            .values()
            .any(|c| c.failures > 0 && (c.failures < c.runs || !need_pass))
    }
}

/// How one class of an invocation ran.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct ClassRun {
    /// The most executions of one of its tests.
    pub most: u64,
    /// A suite timeout cut it short: how often its tests ran says nothing
    /// of the repetition.
    pub cut: bool,
}

/// What an invocation's reports say.
#[derive(Clone, Debug, Default)]
pub(crate) struct Reading {
    /// Every test case's counts (`None` without reports).
    pub counts: Option<IterationCounts>,
    /// The test time the reports record.
    pub test_time: Duration,
    /// The test time of one iteration's executions first in their JVM (the
    /// mean per test, summed): what a fresh run's tests take. `None` when no
    /// execution was repeated in a JVM.
    pub first_time: Option<Duration>,
    /// The test time of each iteration by its position in the JVM (the mean
    /// per test at that position, summed): how the iterations grew. Empty
    /// when no execution was repeated in a JVM.
    pub positions: Vec<Duration>,
    /// Each selected test's executions, in the order of the tests given.
    pub tests: Vec<EvidenceTally>,
    /// Executions of tests no selected test covers.
    pub others: u64,
    /// Each class that ran, by name.
    pub classes: BTreeMap<String, ClassRun>,
}

/// Reads `it`'s reports for `tests`; with `pinned`, an execution of a
/// selected test counts only when it ran with that seed.
pub(crate) fn read(it: &Iteration, tests: &[ClassifiedTest], pinned: Option<&str>) -> Reading {
    let mut out = Reading {
        tests: vec![EvidenceTally::default(); tests.len()],
        ..Reading::default()
    };
    if it.no_reports() {
        return out;
    }
    let report = analyze::analyze_root(&it.dir, &AnalyzeOptions::default());
    let s = &report.summary;
    out.counts = Some(IterationCounts {
        executed: s.executions,
        failed: s.failed,
        suite_timeouts: s.suite_timeouts,
    });
    let secs: f64 = report.tests.iter().map(|t| t.time_sec).sum();
    out.test_time = Duration::try_from_secs_f64(secs).unwrap_or_default();
    out.positions = positions(&report.tests);
    let first_run = |t: &crate::analyze::model::report::TestReport| {
        t.by_condition
            .by_index
            .first()
            .is_some_and(|at| at.executions > 0)
    };
    out.first_time = report.tests.iter().any(first_run).then(|| out.positions[0]);
    let mut per_method: BTreeMap<(String, String), u64> = BTreeMap::new();
    for path in &it.reports {
        let Ok(file) = File::open(it.dir.join(path)) else {
            continue;
        };
        junit::read(file, |exec| {
            out.execution(&exec, tests, pinned, &mut per_method);
        });
    }
    for ((class, _), n) in per_method {
        let c = out.classes.entry(class).or_default();
        c.most = c.most.max(n);
    }
    out
}

impl Reading {
    fn execution(
        &mut self,
        exec: &Execution<'_>,
        tests: &[ClassifiedTest],
        pinned: Option<&str>,
        per_method: &mut BTreeMap<(String, String), u64>,
    ) {
        // Skipped, or JUnit's word for a class it found no test in (a
        // `not-a-test`, never an execution; nor a class that did not repeat).
        if exec.result == CaseResult::Skipped
            || crate::analyze::read::no_test::message(exec).is_some()
        {
            return;
        }
        let (name, name_seed) = normalize_method(exec.name);
        let failure = match &exec.result {
            CaseResult::Failed(f) => Some(f),
            _ => None,
        };
        let kind = failure.map(|f| classify_failure(&f.type_name, &f.message));
        if kind == Some(FailureKind::SuiteTimeout) {
            self.classes.entry(exec.class.to_string()).or_default().cut = true;
        }
        // The suite-level pseudo-case is no test of the class.
        if name != "classMethod" {
            *per_method
                .entry((exec.class.to_string(), name.to_string()))
                .or_default() += 1;
        }
        let covering: Vec<usize> = tests
            .iter()
            .enumerate()
            .filter(|(_, t)| t.covers(exec.class, &name))
            .map(|(i, _)| i)
            .collect();
        if covering.is_empty() {
            self.others += 1;
            return;
        }
        let seen = name_seed
            .map(str::to_string)
            .or_else(|| failure.and_then(|f| f.seed.clone()));
        for i in covering {
            let t = &mut self.tests[i];
            // An execution that names no seed ran once, with the pinned seed
            // if it reached the JVM at all.
            if let (Some(pinned), Some(seen)) = (pinned, &seen) {
                if !same_seed(pinned, seen) {
                    t.unpinned += 1;
                    t.other_seed.get_or_insert_with(|| seen.clone());
                    continue;
                }
            }
            match (failure, kind) {
                (None, _) => {
                    t.passed += 1;
                    t.method(exec.class, &name, 1, 0);
                }
                (_, Some(FailureKind::SuiteTimeout)) => t.suite_timeouts += 1,
                (Some(f), _) if f.type_name == OOM_ERROR => t.heap += 1,
                _ => {
                    t.failed += 1;
                    t.method(exec.class, &name, 1, 1);
                }
            }
        }
    }
}

/// The test time of each position in the JVM: each test's mean there, summed.
fn positions(tests: &[crate::analyze::model::report::TestReport]) -> Vec<Duration> {
    let mut secs: Vec<f64> = Vec::new();
    for t in tests {
        let by_index = &t.by_condition.by_index;
        if secs.len() < by_index.len() {
            secs.resize(by_index.len(), 0.0);
        }
        for (s, at) in secs.iter_mut().zip(by_index) {
            if at.executions > 0 {
                *s += at.time_sec / f64::from(at.executions);
            }
        }
    }
    secs.into_iter()
        .map(|s| Duration::try_from_secs_f64(s).unwrap_or_default())
        .collect()
}

/// Why an invocation gave a test (`t`) no result, in a few words.
pub(crate) fn why_no_result(
    t: &EvidenceTally,
    others: u64,
    verdict: &IterationVerdict,
    ended: &Ended,
) -> String {
    if t.unpinned > 0 {
        return "ran with another seed".into();
    }
    if t.suite_timeouts > 0 {
        return "suite timeout".into();
    }
    if others > 0 {
        return "the test did not run (other tests did)".into();
    }
    match verdict {
        IterationVerdict::NoTests if !ended.success() => {
            "no tests executed (the filter matched no test, or the build failed)".into()
        }
        v => v.describe(),
    }
}

/// A pinned seed matches the seed an execution reports: the same
/// `MASTER:METHOD`, or the same master when only a master seed was pinned.
/// Hex digits compare without case, and without leading zeros (the runner
/// prints `8A18…` for the master seed `08A18…`).
pub(crate) fn same_seed(pinned: &str, seen: &str) -> bool {
    let parts = |s: &str| -> Vec<String> {
        s.split(':')
            .map(|p| p.trim_start_matches('0').to_ascii_uppercase())
            .collect()
    };
    let (pinned, seen) = (parts(pinned), parts(seen));
    seen == pinned || (pinned.len() == 1 && seen.first() == pinned.first())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::testing::unit;
    use crate::process::Ended;
    use std::path::PathBuf;

    /// An iteration whose one report is `xml`.
    fn iteration(dir: &std::path::Path, xml: &str) -> Iteration {
        let rel = PathBuf::from("p/build/test-results/test/TEST-a.xml");
        std::fs::create_dir_all(dir.join(rel.parent().unwrap())).unwrap();
        std::fs::write(dir.join(&rel), xml).unwrap();
        Iteration {
            ended: Ended::Exited(0),
            elapsed: Duration::from_secs(1),
            dir: dir.to_path_buf(),
            reports: vec![rel],
            leftovers: 0,
            skipped: None,
            notes: Vec::new(),
        }
    }

    const SEEDED: &str = r#"<testsuite name="a.T" tests="4">
  <testcase classname="a.T" name="m {seed=[AB:CD]}" time="0.5"/>
  <testcase classname="a.T" name="m {seed=[AB:CD]}" time="0.5"><failure type="java.lang.AssertionError" message="no"/></testcase>
  <testcase classname="a.T" name="m {seed=[EF:01]}" time="0.5"/>
  <testcase classname="a.U" name="n" time="0.5"/>
</testsuite>"#;

    #[test]
    fn only_executions_with_the_pinned_seed_count() {
        let tmp = tempfile::tempdir().unwrap();
        let it = iteration(tmp.path(), SEEDED);
        let mut t = unit("a.T");
        t.method = Some("m".into());
        let r = read(&it, &[t.clone()], Some("AB:CD"));
        let tally = &r.tests[0];
        assert_eq!((tally.passed, tally.failed, tally.unpinned), (1, 1, 1));
        assert_eq!(tally.other_seed.as_deref(), Some("EF:01"));
        assert_eq!(r.others, 1, "a.U.n is no selected test");
        assert!(tally.proves_flaky(true));
        let all = read(&it, &[t], None);
        assert_eq!(all.tests[0].usable(), 3);
        assert_eq!(all.counts.unwrap().executed, 4);
        assert_eq!(all.test_time, Duration::from_secs(2));
        assert_eq!(all.classes["a.T"].most, 3);
        assert_eq!(all.classes["a.U"].most, 1);
    }

    /// Each position in the JVM takes its tests' mean time there, summed:
    /// how the iterations grew, for the switch's marginal cost.
    #[test]
    fn the_iterations_time_by_position_in_the_jvm() {
        let tmp = tempfile::tempdir().unwrap();
        let xml = r#"<testsuite name="a.G" tests="5">
  <testcase classname="a.G" name="m {seed=[AB:01]}" time="0.0"/>
  <testcase classname="a.G" name="m {seed=[AB:02]}" time="2.0"/>
  <testcase classname="a.G" name="m {seed=[AB:03]}" time="4.0"/>
  <testcase classname="a.G" name="n {seed=[AB:01]}" time="1.0"/>
  <testcase classname="a.G" name="n {seed=[AB:02]}" time="1.0"/>
</testsuite>"#;
        let it = iteration(tmp.path(), xml);
        let r = read(&it, &[unit("a.G")], None);
        let secs = |s: &[f64]| {
            s.iter()
                .map(|s| Duration::from_secs_f64(*s))
                .collect::<Vec<_>>()
        };
        assert_eq!(r.positions, secs(&[1.0, 3.0, 4.0]));
        assert_eq!(r.first_time, Some(Duration::from_secs(1)));
    }

    /// A whole class selected (a suite repeated by Gradle runs): one method
    /// failing while the others pass is no proof; the same method passing in
    /// another iteration is.
    #[test]
    fn a_class_is_proven_flaky_only_by_one_method_failing_and_passing() {
        let tmp = tempfile::tempdir().unwrap();
        let first = r#"<testsuite name="a.T" tests="2">
  <testcase classname="a.T" name="flaky"><failure type="junit.framework.AssertionFailedError" message="injected flake"/></testcase>
  <testcase classname="a.T" name="stable"/>
</testsuite>"#;
        let mut t = read(&iteration(tmp.path(), first), &[unit("a.T")], None).tests[0].clone();
        assert_eq!((t.passed, t.failed), (1, 1));
        assert!(!t.proves_flaky(true), "`flaky` never passed: {t:?}");
        assert!(t.proves_flaky(false), "a real failure is all it needs");
        let second = tempfile::tempdir().unwrap();
        let again = first.replace(
            r#"<failure type="junit.framework.AssertionFailedError" message="injected flake"/>"#,
            "",
        );
        t.add(&read(&iteration(second.path(), &again), &[unit("a.T")], None).tests[0]);
        assert!(t.proves_flaky(true), "`flaky` failed and passed: {t:?}");
    }

    #[test]
    fn a_class_a_suite_timeout_cut_says_so_and_heap_failures_prove_nothing() {
        let tmp = tempfile::tempdir().unwrap();
        let xml = r#"<testsuite name="a.T" tests="2">
  <testcase classname="a.T" name="m"><failure type="java.lang.Exception" message="Test abandoned because suite timeout was reached."/></testcase>
  <testcase classname="a.T" name="n"><error type="java.lang.OutOfMemoryError" message="Java heap space"/></testcase>
</testsuite>"#;
        let it = iteration(tmp.path(), xml);
        let r = read(&it, &[unit("a.T")], None);
        assert!(r.classes["a.T"].cut);
        let t = &r.tests[0];
        assert_eq!((t.suite_timeouts, t.heap, t.failed), (1, 1, 0));
        assert!(!t.proves_flaky(false));
    }

    #[test]
    fn a_class_junit_finds_no_test_in_is_no_execution() {
        let tmp = tempfile::tempdir().unwrap();
        let xml = r#"<testsuite name="a.T" tests="1">
  <testcase classname="a.T" name="initializationError"><failure type="java.lang.Exception" message="No runnable methods"/></testcase>
</testsuite>"#;
        let it = iteration(tmp.path(), xml);
        let r = read(&it, &[unit("a.T")], None);
        assert_eq!(r.tests[0], EvidenceTally::default());
        assert!(r.classes.is_empty(), "no class ran: {:?}", r.classes);
    }

    #[test]
    fn a_master_seed_alone_matches_every_method_seed_of_it() {
        assert!(same_seed("AB", "ab:01"));
        assert!(same_seed("AB:01", "AB:01"));
        assert!(!same_seed("AB:01", "AB:02"));
        assert!(!same_seed("AB", "CD:01"));
        assert!(same_seed("08A1874CF891DDF9", "8A1874CF891DDF9:1"));
    }
}
