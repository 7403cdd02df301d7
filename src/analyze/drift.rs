//! State that accumulates in one test JVM: a class whose repetitions keep
//! getting slower (a thread pool never shut down, a cache that only grows)
//! or whose failures come only late. Read from each execution's position in
//! its JVM and its time (the XML has both), per class, all its JVMs pooled:
//! the mean time of its executions at each position, judged by the ratio of
//! the last third to the first and by the Mann–Kendall trend test; and its
//! repeats against its first executions, by Fisher's exact test.

use super::condition::{AtIndex, Position, Repetition, SIGNIFICANCE};
use super::report::TestReport;
use crate::invocation::{InJvm, MAX_SLICES};
use crate::stats;
use serde::Serialize;
use std::collections::BTreeMap;

/// The stable code of the warning (the JSON contract).
pub const STATE_ACCUMULATES: &str = "state-accumulates";

/// A slowdown smaller than this per execution is noise, whatever its ratio
/// (a test of a millisecond doubling is no leak worth a warning).
const MIN_GROWTH_SEC: f64 = 0.05;

/// Positions from which the trend test can show a rising series (with 3,
/// its smallest p is 1/6): below, the ratio and the growth alone decide.
const TREND_FROM: usize = 4;

/// A milder slowdown (the last third at least this many times the first)
/// counts when the trend is this clear over at least [`STEADY_FROM`]
/// positions: on a busy machine a leaked busy thread takes a smaller share.
const MILD_RATIO: f64 = 1.5;
const CLEAR_TREND: f64 = 0.01;
const STEADY_FROM: usize = 6;

/// A class whose state accumulates across its repetitions in one JVM.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Warning {
    /// [`STATE_ACCUMULATES`].
    pub code: &'static str,
    pub class: String,
    /// `slower`: its executions kept getting slower; `failures-late`: its
    /// repeats failed more than its first executions.
    pub evidence: &'static str,
    /// Mean seconds of its executions first in their JVM, and at its last
    /// position (`slower`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_sec: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_sec: Option<f64>,
    /// How many executions one JVM held at most (positions).
    pub positions: usize,
    /// The test's p-value (Mann–Kendall for `slower`, Fisher for `failures-late`).
    pub p_value: f64,
    /// The class that leaked the state, when it can be told: the class
    /// itself when it ran alone in its JVMs (gradle-flaky's JUnit 4 runner
    /// gives each class JVMs of its own).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub leaking_class: Option<String>,
    /// The plain sentence the report shows.
    pub message: String,
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
    classes
        .into_iter()
        .filter_map(|(class, tests)| {
            let alone = alone_in_its_jvms(&tests, by_runner);
            let leaking = alone.then(|| class.to_string());
            slower(class, &tests, leaking.clone()).or_else(|| late(class, &tests, leaking))
        })
        .collect()
}

/// The mean seconds per execution at each position, the tests of a class
/// pooled, from the second position when there are four or more: a first
/// execution in a JVM also loads classes and warms the JIT.
fn series(tests: &[&TestReport]) -> Vec<f64> {
    let all = pooled(tests);
    match all.len() {
        n if n >= TREND_FROM => all[1..].to_vec(),
        _ => all,
    }
}

fn pooled(tests: &[&TestReport]) -> Vec<f64> {
    let mut pooled: Vec<AtIndex> = Vec::new();
    for t in tests {
        let by_index = &t.by_condition.by_index;
        if pooled.len() < by_index.len() {
            pooled.resize(by_index.len(), AtIndex::default());
        }
        for (p, at) in pooled.iter_mut().zip(by_index) {
            p.executions += at.executions;
            p.time_sec += at.time_sec;
        }
    }
    pooled
        .iter()
        .take_while(|at| at.executions > 0)
        .map(|at| at.time_sec / f64::from(at.executions))
        .collect()
}

/// Its repetitions kept getting slower, by [`MIN_GROWTH_SEC`] or more: the
/// last third at least [`stats::DRIFT_RATIO`] times the first with a rising
/// trend when the positions can show one, or [`MILD_RATIO`] times with a
/// clear trend over [`STEADY_FROM`] positions or more.
fn slower(class: &str, tests: &[&TestReport], leaking: Option<String>) -> Option<Warning> {
    let xs = series(tests);
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
        leak_clause(class, leaking.is_some())
    );
    Some(Warning {
        code: STATE_ACCUMULATES,
        class: class.to_string(),
        evidence: "slower",
        first_sec: Some(stats::round6(xs[0])),
        last_sec: Some(stats::round6(*xs.last()?)),
        positions: pooled(tests).len(),
        p_value: stats::round6(trend.p_rising),
        leaking_class: leaking,
        message,
    })
}

/// Its repeats in a JVM failed more than its first executions (Fisher's
/// exact test, one-sided): the failures come late.
fn late(class: &str, tests: &[&TestReport], leaking: Option<String>) -> Option<Warning> {
    let (mut first, mut repeat) = ((0, 0), (0, 0));
    for f in tests.iter().filter_map(|t| t.by_condition.first_execution) {
        first = (first.0 + f.first.failures, first.1 + f.first.runs);
        repeat = (repeat.0 + f.repeat.failures, repeat.1 + f.repeat.runs);
    }
    if repeat.0 == 0 || first.1 == 0 {
        return None;
    }
    let p = stats::p_fixed(
        stats::Counts::new(repeat.0, repeat.1),
        stats::Counts::new(first.0, first.1),
    );
    if p >= SIGNIFICANCE {
        return None;
    }
    let message = format!(
        "{class} failed {}/{} of its repeats in one JVM but {}/{} of its first executions: \
         state accumulates across repetitions ({}){}",
        repeat.0,
        repeat.1,
        first.0,
        first.1,
        stats::p_value(p),
        leak_clause(class, leaking.is_some())
    );
    Some(Warning {
        code: STATE_ACCUMULATES,
        class: class.to_string(),
        evidence: "failures-late",
        first_sec: None,
        last_sec: None,
        positions: pooled(tests).len(),
        p_value: stats::round6(p),
        leaking_class: leaking,
        message,
    })
}

/// Every in-JVM execution of the class came from gradle-flaky's JUnit 4 runner.
fn by_the_runner(tests: &[&TestReport]) -> bool {
    by(tests, &[InJvm::Junit4Runner])
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
) -> impl Iterator<Item = &'t super::condition::ConditionCounts> {
    tests
        .iter()
        .flat_map(|t| &t.by_condition.conditions)
        .filter(|r| r.condition.repetition == Repetition::InJvm)
}

/// The class ran in JVMs of its own: `-Dtests.iters`, TestNG's and the
/// Platform's repetition run a JVM per class (`forkEvery 1`); gradle-flaky's JUnit 4 runner gives
/// each class JVMs of its own when it spreads the iterations over several
/// (its tests then have more than one first execution) and the report's
/// classes it ran times those JVMs stay within [`MAX_SLICES`] (past that,
/// classes share JVMs; in one JVM it runs every selected class).
fn alone_in_its_jvms(tests: &[&TestReport], by_runner: usize) -> bool {
    let fenced = [
        InJvm::TestsIters,
        InJvm::TestngInvocationCount,
        InJvm::PlatformEngine,
    ];
    if by(tests, &fenced) {
        return true;
    }
    let jvms = in_jvm_rows(tests)
        .filter(|r| r.condition.execution == Position::First)
        .map(|r| r.rate.runs)
        .max()
        .unwrap_or(0);
    by_the_runner(tests) && jvms > 1 && by_runner as u64 * jvms <= u64::from(MAX_SLICES)
}

fn leak_clause(class: &str, alone: bool) -> String {
    if alone {
        format!("; {class} ran alone in its JVMs, so it leaks the state itself")
    } else {
        "; it shared its JVM with the other selected classes, any of which may leak it".into()
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
mod tests {
    use super::*;
    use crate::analyze::condition::{FileCondition, InFile, Tally};
    use crate::analyze::conditions::Conditions;

    /// A test of `class` whose executions at each position of `jvms` JVMs
    /// took `times[i]` seconds and failed as `failed(i)` says.
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

    #[test]
    fn a_class_whose_iterations_keep_getting_slower_accumulates_state() {
        let times: Vec<f64> = (1..=10).map(|i| 0.3 * f64::from(i)).collect();
        let w = warnings(&[test("a.Leaky", "t", 3, &times, |_| false)]);
        assert_eq!(w.len(), 1, "{w:?}");
        let w = &w[0];
        assert_eq!(
            (w.code, w.evidence, w.positions),
            (STATE_ACCUMULATES, "slower", 10)
        );
        // From the second position: the first also loads classes.
        assert_eq!((w.first_sec, w.last_sec), (Some(0.6), Some(3.0)));
        assert!(w.p_value < 0.001, "{w:?}");
        assert_eq!(w.leaking_class.as_deref(), Some("a.Leaky"));
        // Beside enough other classes of the runner, it shared its JVMs.
        let mut many: Vec<TestReport> = (0..11)
            .map(|i| test(&format!("a.Other{i}"), "t", 3, &[0.1; 10], |_| false))
            .collect();
        many.push(test("a.Leaky", "t", 3, &times, |_| false));
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
        assert!(w[0].p_value < CLEAR_TREND, "{w:?}");
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

    /// Failures only late: 0 of 5 first executions, 8 of 15 repeats.
    #[test]
    fn failures_that_come_only_late_accumulate_state() {
        let w = warnings(&[test("a.Late", "t", 5, &[0.1, 0.1, 0.1, 0.1], |i| {
            (2..4).contains(&i)
        })]);
        assert_eq!(w.len(), 1, "{w:?}");
        assert_eq!(w[0].evidence, "failures-late");
        // scipy.stats.fisher_exact([[10, 5], [0, 5]], alternative="greater"): 0.016254
        stats::assert_near(w[0].p_value, 0.016254, 1e-4);
        assert!(
            w[0].message.contains("10/15 of its repeats"),
            "{}",
            w[0].message
        );
    }
}
