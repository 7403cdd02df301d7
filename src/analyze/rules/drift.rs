//! State that accumulates in one test JVM: a class whose repetitions keep
//! getting slower (a thread pool never shut down, a cache that only grows),
//! or that leaves threads running after each execution. Read from each
//! execution's position in its JVM and its time (the XML has both), per
//! class, all its JVMs pooled: the mean time of its executions at each
//! position, judged by the ratio of the last third to the first and by the
//! Mann–Kendall trend test; and the threads gradle-flaky's JUnit 4 runner
//! counts in each execution's name. (Repeats that fail more than first
//! executions are a verdict, `warm-jvm-dependent`, in `first_execution`.)
//!
//! The threads are the direct signal: a busy thread left per execution slows
//! a class's three or four executions in a JVM of its own too little to
//! show, yet it is exactly the state that slows whatever runs after it.

use crate::analyze::model::counts::AtIndex;
use crate::analyze::model::report::TestReport;
pub use crate::analyze::model::report::Warning;
use crate::analyze::model::report::{DriftEvidence, WarningCode};
use crate::analyze::rules::first_execution::SIGNIFICANCE;
use crate::condition::Repetition;
use crate::invocation::{InJvm, MAX_SLICES};
use crate::stats;
use std::collections::BTreeMap;

/// A slowdown smaller than this per execution is noise, whatever its ratio
/// (a test of a millisecond doubling is no leak worth a warning).
const MIN_GROWTH_SEC: f64 = 0.05;

/// Threads a class must keep leaking per repeat, on average over its
/// repeats after the first, to warn: half a thread (one every other
/// execution), so that a pool it starts once or that stops at a bound does
/// not.
const THREADS_PER_REPEAT: f64 = 0.5;

/// Positions from which the trend test can show a rising series (with 3,
/// its smallest p is 1/6): below, the ratio and the growth alone decide.
const TREND_FROM: usize = 4;

/// A milder slowdown (the last third at least this many times the first)
/// counts when the trend is this clear over at least [`STEADY_FROM`]
/// positions: on a busy machine a leaked busy thread takes a smaller share.
const MILD_RATIO: f64 = 1.5;
const CLEAR_TREND: f64 = 0.01;
const STEADY_FROM: usize = 6;

/// The warnings of a report's tests, and each clean test of a class that
/// leaks state by itself judged on its first executions in a fresh JVM.
pub(crate) fn warn(tests: &mut [TestReport]) -> Vec<Warning> {
    let warnings = warnings(tests);
    let leaking: Vec<&str> = warnings
        .iter()
        .filter_map(|w| w.leaking_class.as_deref())
        .collect();
    for t in tests.iter_mut() {
        if leaking.contains(&t.class.as_str()) {
            crate::analyze::rules::verdict::rest_on_fresh_jvms(t);
        }
    }
    warnings
}

/// The warnings of a report's tests, by class name.
pub(crate) fn warnings(tests: &[TestReport]) -> Vec<Warning> {
    let mut classes: BTreeMap<&str, Vec<&TestReport>> = BTreeMap::new();
    for t in tests {
        classes.entry(t.class.as_str()).or_default().push(t);
    }
    let by_runner = classes
        .values()
        .filter(|tests| by_the_runner(tests))
        .count();
    let classes: Vec<(&str, Vec<&TestReport>, Vec<AtIndex>)> = classes
        .into_iter()
        .map(|(class, tests)| {
            let at = at_positions(&tests);
            (class, tests, at)
        })
        .collect();
    let left_threads: Vec<Warning> = classes
        .iter()
        .filter_map(|(class, _, at)| threads(class, at))
        .collect();
    let mut out: Vec<Warning> = classes
        .iter()
        .filter_map(|(class, tests, at)| {
            let blame = Blame::of(class, placement(tests, by_runner), &left_threads);
            slower(class, at, &blame)
        })
        .collect();
    out.extend(left_threads);
    out.sort_by(|a, b| a.class.cmp(&b.class));
    out
}

/// Which class leaked the state a class's drift shows, as far as can be told.
struct Blame {
    /// The class itself, when its drift can only be its own.
    leaking: Option<String>,
    /// The sentence's ending that says so.
    clause: String,
}

/// How a class's in-JVM executions met other classes' in their JVMs.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Placement {
    /// In JVMs of its own.
    Alone,
    /// In JVMs it shared, its executions back to back (gradle-flaky's JUnit 4
    /// runner runs a JVM's classes one after the other): another class's
    /// state reaches it only as threads left running, which their tokens show.
    BackToBack,
    /// In a JVM it shared, its executions among the others'.
    Shared,
}

impl Blame {
    /// The class itself when the runner saw it leave threads; else, when its
    /// drift is its own (`placement` alone or back to back) and no other class
    /// left threads, the class too. Another class's leaked threads may have
    /// slowed it from a JVM beside its own (an invocation's test JVMs run side
    /// by side) or from the JVM they shared: those classes are named as
    /// suspects.
    fn of(class: &str, placement: Placement, left_threads: &[Warning]) -> Blame {
        if left_threads.iter().any(|w| w.class == class) {
            let where_ = match placement {
                Placement::Alone => "in its JVMs",
                Placement::BackToBack => "in the JVMs it shared",
                Placement::Shared => "in the JVM it shared",
            };
            return Blame {
                leaking: Some(class.to_string()),
                clause: format!("; {class} itself left threads running {where_}"),
            };
        }
        let others: Vec<&str> = left_threads.iter().map(|w| w.class.as_str()).collect();
        let suspects = match others.is_empty() {
            true => String::new(),
            false => format!(" ({} left threads running there)", others.join(", ")),
        };
        let clause = match (placement, others.is_empty()) {
            (Placement::Alone, true) => {
                format!("; {class} ran alone in its JVMs, so it leaks the state itself")
            }
            (Placement::BackToBack, true) => format!(
                "; {class}'s executions ran back to back in the JVMs it shared and no class left \
                 threads there, so it leaks the state itself"
            ),
            (Placement::Alone, false) => format!(
                "; {class} ran alone in its JVMs, but the JVMs beside them may have slowed it{suspects}"
            ),
            (Placement::BackToBack, false) => format!(
                "; {class}'s executions ran back to back in the JVMs it shared, but threads other \
                 classes left there may have slowed it{suspects}"
            ),
            (Placement::Shared, _) => format!(
                "; it shared its JVM with the other selected classes, any of which may leak \
                 it{suspects}"
            ),
        };
        let own = placement != Placement::Shared && others.is_empty();
        Blame {
            leaking: own.then(|| class.to_string()),
            clause,
        }
    }
}

/// The mean seconds per execution at each position, the tests of a class
/// pooled, from the second position when there are four or more: a first
/// execution in a JVM also loads classes and warms the JIT.
fn series(at: &[AtIndex]) -> Vec<f64> {
    let all: Vec<f64> = at
        .iter()
        .map(|at| at.time_sec / f64::from(at.executions))
        .collect();
    match all.len() {
        n if n >= TREND_FROM => all[1..].to_vec(),
        _ => all,
    }
}

/// The class's in-JVM executions at each position, its tests and JVMs
/// pooled, up to the first position none reached.
fn at_positions(tests: &[&TestReport]) -> Vec<AtIndex> {
    let mut pooled: Vec<AtIndex> = Vec::new();
    for t in tests {
        crate::analyze::model::counts::pool(&mut pooled, &t.by_condition.by_index);
    }
    let reached = pooled.iter().take_while(|at| at.executions > 0).count();
    pooled.truncate(reached);
    pooled
}

/// Its executions left threads running, more with each repeat: the mean
/// threads left before each position never fall, after the second position
/// they still grow by [`THREADS_PER_REPEAT`] a repeat or more (a pool started
/// once, or a bounded one, stops growing), and by the last there is a thread
/// or more a JVM (a thread a few JVMs' executions left still finishing is
/// not yet state that accumulates). Counted by the runner per class, so the
/// class is the one that leaks.
fn threads(class: &str, at: &[AtIndex]) -> Option<Warning> {
    let left: Vec<f64> = at
        .iter()
        .map(|at| at.threads as f64 / f64::from(at.executions))
        .collect();
    let n = left.len();
    if n < 3 || left.windows(2).any(|w| w[1] < w[0]) {
        return None;
    }
    let last = left[n - 1];
    if last < 1.0 || last - left[1] < THREADS_PER_REPEAT * (n - 2) as f64 {
        return None;
    }
    let message = format!(
        "executions of {class} left threads running in its JVM: {} it started were still \
         running when its {} execution there began: state accumulates across repetitions; \
         {class} leaks it itself",
        threads_text(last),
        ordinal(n),
    );
    Some(Warning {
        code: WarningCode::StateAccumulates,
        class: class.to_string(),
        evidence: DriftEvidence::Threads,
        first_sec: None,
        last_sec: None,
        threads_left: Some((last * 10.0).round() / 10.0),
        positions: n,
        p_value: None,
        leaking_class: Some(class.to_string()),
        message,
    })
}

/// `1 thread`, `3 threads`, `2.5 threads` (a mean over JVMs).
fn threads_text(n: f64) -> String {
    match n {
        1.0 => "1 thread".into(),
        n if n.fract() == 0.0 => format!("{n:.0} threads"),
        n => format!("{n:.1} threads"),
    }
}

/// `2nd`, `3rd`, `11th`.
fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// Its repetitions kept getting slower, by [`MIN_GROWTH_SEC`] or more: the
/// last third at least [`stats::DRIFT_RATIO`] times the first with a rising
/// trend when the positions can show one, or [`MILD_RATIO`] times with a
/// clear trend over [`STEADY_FROM`] positions or more.
fn slower(class: &str, at: &[AtIndex], blame: &Blame) -> Option<Warning> {
    let xs = series(at);
    let ratio = stats::thirds_ratio(&xs)?;
    let third = xs.len() / 3;
    let first = stats::median(&xs[..third]);
    let last = stats::median(&xs[xs.len() - third..]);
    let trend = stats::mann_kendall(&xs);
    let rising = xs.len() < TREND_FROM || trend.p_rising < SIGNIFICANCE;
    let doubled = ratio >= stats::DRIFT_RATIO && rising;
    let steady = xs.len() >= STEADY_FROM && ratio >= MILD_RATIO && trend.p_rising < CLEAR_TREND;
    if last - first < MIN_GROWTH_SEC || !(doubled || steady) {
        return None;
    }
    let message = format!(
        "iterations of {class} grew from {} to {} in one JVM: state accumulates across \
         repetitions ({}){}",
        seconds(xs[0]),
        seconds(*xs.last()?),
        stats::p_value(trend.p_rising),
        blame.clause
    );
    Some(Warning {
        code: WarningCode::StateAccumulates,
        class: class.to_string(),
        evidence: DriftEvidence::Slower,
        first_sec: Some(stats::round6(xs[0])),
        last_sec: Some(stats::round6(*xs.last()?)),
        threads_left: None,
        positions: at.len(),
        p_value: Some(stats::round6(trend.p_rising)),
        leaking_class: blame.leaking.clone(),
        message,
    })
}

/// Every in-JVM execution of the class came from a mechanism gradle-flaky
/// spreads over fresh JVMs (all of them).
fn by_the_runner(tests: &[&TestReport]) -> bool {
    by(tests, &InJvm::ALL)
}

/// Every in-JVM execution of the class came from one of `mechanisms`.
fn by(tests: &[&TestReport], mechanisms: &[InJvm]) -> bool {
    let mut rows = in_jvm_rows(tests).peekable();
    rows.peek().is_some()
        && rows.all(|r| {
            r.condition
                .mechanism
                .is_some_and(|m| mechanisms.contains(&m))
        })
}

fn in_jvm_rows<'t>(
    tests: &'t [&TestReport],
) -> impl Iterator<Item = &'t crate::analyze::model::counts::ConditionCounts> {
    tests
        .iter()
        .flat_map(|t| &t.by_condition.conditions)
        .filter(|r| r.condition.repetition == Repetition::InJvm)
}

/// How the class's executions met the others': in JVMs of its own in one
/// JVM per class (the fence of `-Dtests.iters`, TestNG and the Platform: its
/// tests have one first execution), or spread over several when the report's
/// classes times those JVMs stay within [`MAX_SLICES`]; back to back when
/// gradle-flaky's JUnit 4 runner (which also runs `-Dtests.iters` in slices)
/// packed it with others; else shared (past the cap; the JUnit 4 runner in
/// one JVM runs every selected class there).
fn placement(tests: &[&TestReport], by_runner: usize) -> Placement {
    let fenced = [
        InJvm::TestsIters,
        InJvm::TestngInvocationCount,
        InJvm::PlatformEngine,
    ];
    let jvms = in_jvm_rows(tests)
        .filter(|r| r.condition.is_first())
        .map(|r| r.rate.runs)
        .max()
        .unwrap_or(0);
    if by(tests, &fenced) && jvms <= 1 {
        return Placement::Alone;
    }
    if !(by_the_runner(tests) && jvms > 1) {
        return Placement::Shared;
    }
    // Sliced: the JUnit 4 runner packs its classes; the others' samples
    // keep a JVM per (class, slice) below the cap.
    let packed = by(tests, &[InJvm::Junit4Runner]);
    if by_runner <= 1 || (!packed && by_runner as u64 * jvms <= u64::from(MAX_SLICES)) {
        return Placement::Alone;
    }
    match by(tests, &[InJvm::Junit4Runner, InJvm::TestsIters]) {
        true => Placement::BackToBack,
        false => Placement::Shared,
    }
}

/// `0.30 s`, `24 s`.
fn seconds(s: f64) -> String {
    if s < 10.0 {
        format!("{s:.2} s")
    } else {
        format!("{s:.0} s")
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::analyze::model::counts::Conditions;
    use crate::analyze::model::counts::Tally;
    use crate::analyze::read::position::{FileCondition, InFile};

    /// A test of `class` whose executions at each position of `jvms` JVMs
    /// took `times[i]` seconds and failed as `failed(i)` says, repeated by
    /// gradle-flaky's JUnit 4 runner (the file's default).
    fn test(
        class: &str,
        name: &str,
        jvms: u32,
        times: &[f64],
        failed: impl Fn(usize) -> bool,
    ) -> TestReport {
        let mut tally = Tally::default();
        for _ in 0..jvms {
            let mut file = InFile::default();
            for (i, t) in times.iter().enumerate() {
                file.add(&format!("{name} #{}", i + 1), failed(i), Some(*t));
            }
            file.settle(&FileCondition::default(), &mut tally);
        }
        let mut t = TestReport::sample(class, name, 0, 0);
        t.by_condition = Conditions::of(tally);
        t
    }

    /// `t` as if repeated by `mechanism`.
    fn by_mechanism(mechanism: InJvm, mut t: TestReport) -> TestReport {
        for row in &mut t.by_condition.conditions {
            row.condition.mechanism = Some(mechanism);
        }
        t
    }

    #[test]
    fn a_class_whose_iterations_keep_getting_slower_accumulates_state() {
        let times: Vec<f64> = (1..=10).map(|i| 0.3 * f64::from(i)).collect();
        let w = warnings(&[test("a.Leaky", "t", 3, &times, |_| false)]);
        assert_eq!(w.len(), 1, "{w:?}");
        let w = &w[0];
        assert_eq!(
            (w.code, w.evidence, w.positions),
            (WarningCode::StateAccumulates, DriftEvidence::Slower, 10)
        );
        // From the second position: the first also loads classes.
        assert_eq!((w.first_sec, w.last_sec), (Some(0.6), Some(3.0)));
        assert!(w.p_value.unwrap() < 0.001, "{w:?}");
        assert_eq!(w.leaking_class.as_deref(), Some("a.Leaky"));
        // Beside other classes of the JUnit 4 runner, in the JVMs it shared
        // with them its executions ran back to back: still its own doing.
        let packed = warnings(&[
            test("a.Other", "t", 3, &[0.1; 10], |_| false),
            test("a.Leaky", "t", 3, &times, |_| false),
        ]);
        assert_eq!(
            (packed.len(), packed[0].leaking_class.as_deref()),
            (1, Some("a.Leaky")),
            "{packed:?}"
        );
        assert!(
            packed[0].message.ends_with(
                "a.Leaky's executions ran back to back in the JVMs it shared and no class left \
                 threads there, so it leaks the state itself"
            ),
            "{}",
            packed[0].message
        );
        // Beside enough other TestNG classes, past the cap, it shared its
        // JVMs with them, its executions among theirs.
        let ng = |t| by_mechanism(InJvm::TestngInvocationCount, t);
        let mut many: Vec<TestReport> = (0..11)
            .map(|i| ng(test(&format!("a.Other{i}"), "t", 3, &[0.1; 10], |_| false)))
            .collect();
        many.push(ng(test("a.Leaky", "t", 3, &times, |_| false)));
        let shared = warnings(&many);
        assert_eq!(
            (shared.len(), shared[0].leaking_class.as_deref()),
            (1, None),
            "{shared:?}"
        );
        // In one JVM (a first execution only once), the leak may be another class's.
        let one = warnings(&[test("a.Leaky", "t", 1, &times, |_| false)]);
        assert_eq!(one[0].leaking_class, None, "{one:?}");
        assert!(
            one[0].message.contains("shared its JVM"),
            "{}",
            one[0].message
        );
        assert!(
            w.message.starts_with(
                "iterations of a.Leaky grew from 0.60 s to 3.00 s in one JVM: state accumulates"
            ),
            "{}",
            w.message
        );
    }

    /// A leaked busy thread on a busy machine: 1.7× from the first third to
    /// the last, but a clear rise (the conditions fixture's `LeakyTest`, 10
    /// positions, all its JVMs pooled).
    #[test]
    fn a_milder_steady_rise_accumulates_state() {
        let times = [
            0.141, 0.113, 0.083, 0.094, 0.118, 0.151, 0.165, 0.154, 0.225, 0.19,
        ];
        let w = warnings(&[test("demo.LeakyTest", "t", 10, &times, |_| false)]);
        assert_eq!(w.len(), 1, "{w:?}");
        // scipy.stats.kendalltau(range(9), times[1:], alternative="greater"): 0.0012
        assert!(w[0].p_value.unwrap() < CLEAR_TREND, "{w:?}");
        // Shorter, the same rise is not enough.
        let w = warnings(&[test("demo.LeakyTest", "t", 10, &times[..5], |_| false)]);
        assert!(w.is_empty(), "{w:?}");
    }

    /// TestNG's and the Platform's repetition run a JVM per class (`forkEvery
    /// 1`): a class slowing down in its one JVM leaks the state itself.
    #[test]
    fn under_testng_a_slowing_class_is_the_one_that_leaks() {
        let times: Vec<f64> = (1..=10).map(|i| 0.3 * f64::from(i)).collect();
        for mechanism in [
            InJvm::TestsIters,
            InJvm::TestngInvocationCount,
            InJvm::PlatformEngine,
        ] {
            let mut tally = Tally::default();
            let mut file = InFile::default();
            for (i, t) in times.iter().enumerate() {
                file.add(&format!("t #{}", i + 1), false, Some(*t));
            }
            let cond = FileCondition {
                in_jvm: Some(Some(mechanism)),
                ..FileCondition::default()
            };
            file.settle(&cond, &mut tally);
            let mut t = TestReport::sample("a.Leaky", "t", 0, 0);
            t.by_condition = Conditions::of(tally);
            let w = warnings(&[t]);
            assert_eq!(w.len(), 1, "{mechanism:?}: {w:?}");
            assert_eq!(w[0].leaking_class.as_deref(), Some("a.Leaky"), "{w:?}");
        }
    }

    #[test]
    fn noise_warm_up_and_tiny_times_are_no_drift() {
        // Warm-up: the first executions are the slow ones.
        let warm: Vec<f64> = (1..=10).map(|i| 1.0 / f64::from(i)).collect();
        // Doubling, but by a millisecond.
        let tiny: Vec<f64> = (1..=10).map(|i| 0.001 * f64::from(i)).collect();
        // Flat with noise.
        let flat = [0.5, 0.52, 0.49, 0.51, 0.5, 0.53, 0.5, 0.48, 0.52, 0.5];
        for times in [&warm[..], &tiny[..], &flat[..]] {
            assert!(
                warnings(&[test("a.B", "t", 3, times, |_| false)]).is_empty(),
                "{times:?}"
            );
        }
    }

    /// A test of `class` in `jvms` JVMs whose runner's tokens said `left[i]`
    /// threads were running before its (i+1)-th execution there.
    pub(crate) fn leaving(class: &str, jvms: u32, left: &[u32]) -> TestReport {
        let mut tally = Tally::default();
        for _ in 0..jvms {
            let mut file = InFile::default();
            for (i, threads) in left.iter().enumerate() {
                let name = match threads {
                    0 => format!("t #{}", i + 1),
                    1 => format!("t #{} (+1 thread)", i + 1),
                    n => format!("t #{} (+{n} threads)", i + 1),
                };
                file.add(&name, false, Some(0.1));
            }
            file.settle(&FileCondition::default(), &mut tally);
        }
        let mut t = TestReport::sample(class, "t", 0, 0);
        t.by_condition = Conditions::of(tally);
        t
    }

    /// A thread left per execution, in five JVMs of four executions: too few
    /// to slow it, but counted, and the class is the one that leaks.
    #[test]
    fn a_class_leaving_a_thread_per_execution_accumulates_state() {
        let w = warnings(&[leaving("a.Leaky", 5, &[0, 1, 2, 3])]);
        assert_eq!(w.len(), 1, "{w:?}");
        let w = &w[0];
        assert_eq!(
            (w.evidence, w.threads_left, w.positions, w.p_value),
            (DriftEvidence::Threads, Some(3.0), 4, None)
        );
        assert_eq!(w.leaking_class.as_deref(), Some("a.Leaky"));
        assert_eq!(
            w.message,
            "executions of a.Leaky left threads running in its JVM: 3 threads it started were \
             still running when its 4th execution there began: state accumulates across \
             repetitions; a.Leaky leaks it itself"
        );
        // One every other execution still grows.
        assert_eq!(warnings(&[leaving("a.B", 2, &[0, 1, 1, 2, 2, 3])]).len(), 1);
    }

    /// In one shared JVM, a slowing neighbour cannot tell which class leaked,
    /// but the class that left threads running is named beside it.
    #[test]
    fn a_slowing_neighbour_names_the_class_that_left_threads() {
        let times: Vec<f64> = (1..=10).map(|i| 0.3 * f64::from(i)).collect();
        let left: Vec<u32> = (0..10).collect();
        let w = warnings(&[
            test("a.Neighbour", "t", 1, &times, |_| false),
            leaving("a.Leaky", 1, &left),
        ]);
        let shape: Vec<_> = w
            .iter()
            .map(|w| (w.class.as_str(), w.evidence.as_str()))
            .collect();
        assert_eq!(shape, [("a.Leaky", "threads"), ("a.Neighbour", "slower")]);
        assert_eq!(w[1].leaking_class, None);
        assert!(
            w[1].message
                .ends_with("any of which may leak it (a.Leaky left threads running there)"),
            "{}",
            w[1].message
        );
        // Slowing itself, the class that left threads is the one that leaks.
        let slowing_leaker = {
            let mut t = test("a.Leaky", "t", 1, &times, |_| false);
            t.by_condition.by_index = leaving("a.Leaky", 1, &left).by_condition.by_index;
            for (at, time) in t.by_condition.by_index.iter_mut().zip(&times) {
                at.time_sec = *time;
            }
            t
        };
        let w = warnings(&[slowing_leaker]);
        let shape: Vec<_> = w
            .iter()
            .map(|w| (w.evidence.as_str(), w.leaking_class.as_deref()))
            .collect();
        assert_eq!(
            shape,
            [("slower", Some("a.Leaky")), ("threads", Some("a.Leaky"))]
        );
        assert!(
            w[0].message
                .ends_with("a.Leaky itself left threads running in the JVM it shared"),
            "{}",
            w[0].message
        );
    }

    /// A clean test of a class that leaks by itself rests on its first
    /// executions in a fresh JVM; a neighbour's verdict keeps every one.
    #[test]
    fn a_clean_test_of_a_leaking_class_rests_on_its_first_executions() {
        let mut tests = [
            leaving("a.Leaky", 5, &[0, 1, 2, 3]),
            leaving("a.Other", 5, &[0, 0, 0, 0]),
        ];
        let w = warn(&mut tests);
        assert_eq!(w.len(), 1, "{w:?}");
        let shape: Vec<_> = tests
            .iter()
            .map(|t| {
                let v = &t.verdict;
                (v.kind.as_str(), v.executions, v.rate.runs)
            })
            .collect();
        use crate::analyze::model::counts::Executions::{All, First};
        assert_eq!(shape, [("clean", First, 5), ("clean", All, 0)]);
    }

    /// A class alone in its JVMs that slowed while another class left
    /// threads running: the JVMs of one invocation run side by side, so the
    /// other's threads may have taken its cores; it is not said to leak.
    #[test]
    fn a_class_alone_beside_threads_left_elsewhere_is_not_said_to_leak() {
        let times: Vec<f64> = (1..=10).map(|i| 0.3 * f64::from(i)).collect();
        let left: Vec<u32> = (0..10).collect();
        let victim = test("a.Victim", "t", 3, &times, |_| false);
        let w = warnings(&[
            by_mechanism(InJvm::TestngInvocationCount, victim),
            leaving("a.Leaky", 3, &left),
        ]);
        let shape: Vec<_> = w
            .iter()
            .map(|w| {
                let leaking = w.leaking_class.as_deref();
                (w.class.as_str(), w.evidence.as_str(), leaking)
            })
            .collect();
        assert_eq!(
            shape,
            [
                ("a.Leaky", "threads", Some("a.Leaky")),
                ("a.Victim", "slower", None)
            ]
        );
        assert!(
            w[1].message.ends_with(
                "a.Victim ran alone in its JVMs, but the JVMs beside them may have slowed it \
                 (a.Leaky left threads running there)"
            ),
            "{}",
            w[1].message
        );
        // Packed with it by the JUnit 4 runner, back to back in the JVMs they
        // shared: the threads it left may have slowed the victim.
        let w = warnings(&[
            test("a.Victim", "t", 3, &times, |_| false),
            leaving("a.Leaky", 3, &left),
        ]);
        assert_eq!(w[1].leaking_class, None, "{w:?}");
        assert!(
            w[1].message.ends_with(
                "a.Victim's executions ran back to back in the JVMs it shared, but threads other \
                 classes left there may have slowed it (a.Leaky left threads running there)"
            ),
            "{}",
            w[1].message
        );
    }

    /// A pool started once, one that stops at its bound, threads that end,
    /// and too few positions to tell are no accumulation.
    #[test]
    fn threads_started_once_or_bounded_are_no_accumulation() {
        for left in [
            &[0, 1, 1, 1, 1][..],
            &[0, 2, 3, 3, 3, 3],
            &[0, 1, 0, 1, 0],
            &[0, 1],
            &[0, 0, 0, 0],
        ] {
            let w = warnings(&[leaving("a.B", 3, left)]);
            assert!(w.is_empty(), "{left:?}: {w:?}");
        }
        // Two JVMs of three with a thread still running by the third, one
        // without (a real suite's process tests: Commons Exec's Exec41Test).
        let w = warnings(&[leaving("a.B", 2, &[0, 0, 1]), leaving("a.B", 1, &[0, 0, 0])]);
        assert!(w.is_empty(), "{w:?}");
    }

    /// Failures only late (0 of 5 first executions, 10 of 15 repeats) are
    /// no evidence of state: a warm JVM, warmed up as much as changed, makes
    /// it fail (JSR-166's `testAwaitUntil_Timeout` fails more warm). The
    /// class gets no warning; the test is `warm-jvm-dependent`.
    #[test]
    fn failures_that_come_only_late_blame_no_state() {
        let late = test("a.Late", "t", 5, &[0.1, 0.1, 0.1, 0.1], |i| {
            (2..4).contains(&i)
        });
        assert!(warnings(std::slice::from_ref(&late)).is_empty());
        let f = late.by_condition.first_execution.unwrap();
        // scipy.stats.fisher_exact([[10, 5], [0, 5]], alternative="greater"): 0.016254
        stats::assert_near(f.p_warm, 0.016254, 1e-4);
        let mut late = late;
        (late.passes, late.failures, late.runs) = (10, 10, 20);
        let judged = crate::analyze::rules::verdict::judged(late);
        assert_eq!(
            judged.verdict.kind,
            crate::analyze::model::report::VerdictKind::WarmJvmDependent
        );
    }
}
