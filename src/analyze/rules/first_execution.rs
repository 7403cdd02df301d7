//! First executions in a JVM against the repeats after them: is a test
//! first-execution-dependent?

use crate::analyze::model::counts::{ConditionCounts, FirstExecution, Rate};
use crate::condition::{Context, Position};
use crate::stats;

/// The level below which a difference between conditions is reported.
pub(crate) const SIGNIFICANCE: f64 = 0.05;

impl FirstExecution {
    /// The comparison, when the test ran both first and repeated in a JVM.
    /// Only first executions in a context where it was also repeated count:
    /// its whole-task runs are first executions too, but beside its
    /// neighbours, and a difference there is the context's (measured: a
    /// real TestNG suite's test failing 5/5 in its task, passing 5/5 alone,
    /// was called first-execution-dependent).
    pub(crate) fn of(rows: &[ConditionCounts]) -> Option<FirstExecution> {
        let repeated: Vec<Context> = rows
            .iter()
            .filter(|r| r.condition.execution == Some(Position::Repeat))
            .map(|r| r.condition.context)
            .collect();
        let sum = |position: Position| {
            rows.iter()
                .filter(|r| r.condition.execution == Some(position))
                .filter(|r| repeated.contains(&r.condition.context))
                .fold((0, 0), |(f, n), r| (f + r.rate.failures, n + r.rate.runs))
        };
        let (first_failures, first_runs) = sum(Position::First);
        let (repeat_failures, repeat_runs) = sum(Position::Repeat);
        if first_runs == 0 || repeat_runs == 0 {
            return None;
        }
        // p_fixed(before, after): that `after` fails less.
        let (first, repeat) = (
            stats::Counts::new(first_failures, first_runs),
            stats::Counts::new(repeat_failures, repeat_runs),
        );
        let (p, p_warm) = (stats::p_fixed(first, repeat), stats::p_fixed(repeat, first));
        // Alone, each comparison is its own family; [`correct`] makes the
        // run's comparisons one.
        Some(FirstExecution {
            first: Rate::new(first_failures, first_runs),
            repeat: Rate::new(repeat_failures, repeat_runs),
            p_value: stats::round6(p),
            dependent: first_failures > 0 && p < SIGNIFICANCE,
            p_warm: stats::round6(p_warm),
            warm: repeat_failures > 0 && p_warm < SIGNIFICANCE,
            comparisons: 1,
        })
    }
}

/// Holm's step-down correction over every comparison of first executions
/// with repeats in a run, both directions, of the tests that could be
/// labelled by it (a direction whose failing side never failed cannot be):
/// a label announced from one split per test at p < 0.05 would be chance
/// in one run of twenty per test compared. Keeps the family-wise error at
/// [`SIGNIFICANCE`].
pub(crate) fn correct(found: &mut [&mut FirstExecution]) {
    // (p, test, warm direction)
    let mut family: Vec<(f64, usize, bool)> = Vec::new();
    for (i, f) in found.iter().enumerate() {
        if f.first.failures > 0 {
            family.push((f.p_value, i, false));
        }
        if f.repeat.failures > 0 {
            family.push((f.p_warm, i, true));
        }
    }
    let m = family.len();
    for f in found.iter_mut() {
        (f.dependent, f.warm, f.comparisons) = (false, false, m as u32);
    }
    family.sort_by(|a, b| a.0.total_cmp(&b.0));
    for (k, &(p, i, warm)) in family.iter().enumerate() {
        if p >= SIGNIFICANCE / (m - k) as f64 {
            break;
        }
        match warm {
            true => found[i].warm = true,
            false => found[i].dependent = true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::condition::{Condition, InJvm, Repetition};
    use crate::stats::Uniform;

    fn row(execution: Position, failures: u64, runs: u64) -> ConditionCounts {
        ConditionCounts::new(
            Condition {
                context: Context::Alone,
                repetition: Repetition::InJvm,
                mechanism: Some(InJvm::Junit4Runner),
                execution: Some(execution),
            },
            runs,
            failures,
        )
    }

    /// Fisher's one-sided test on first executions against repeats: 3 of 7
    /// first executions failed and none of 13 repeats (R:
    /// `fisher.test(matrix(c(3,4,0,13),2), alternative="greater")` gives
    /// p = 0.03070175).
    #[test]
    fn first_executions_that_fail_more_make_a_test_first_execution_dependent() {
        let f = FirstExecution::of(&[row(Position::First, 3, 7), row(Position::Repeat, 0, 13)])
            .unwrap();
        stats::assert_near(f.p_value, 0.030702, 1e-4);
        assert!(f.dependent);
        assert_eq!((f.first.failures, f.first.runs), (3, 7));
        // One failure in 7 first executions is not enough to tell.
        let f = FirstExecution::of(&[row(Position::First, 1, 7), row(Position::Repeat, 0, 13)])
            .unwrap();
        assert!(!f.dependent && f.p_value > 0.3, "{f:?}");
        // Failing alike first and later: not dependent.
        let f = FirstExecution::of(&[row(Position::First, 2, 7), row(Position::Repeat, 4, 13)])
            .unwrap();
        assert!(!f.dependent);
        // Without repeats there is nothing to compare.
        assert!(FirstExecution::of(&[row(Position::First, 2, 7)]).is_none());
    }

    /// One test's `iterations` spread over `jvms` JVMs, failing at `first`
    /// on a JVM's first execution and at `later` after it.
    fn simulated(
        u: &mut Uniform,
        iterations: u64,
        jvms: u64,
        first: f64,
        later: f64,
    ) -> FirstExecution {
        let (mut f, mut r) = ((0, 0), (0, 0));
        for i in 0..iterations {
            let is_first = i < jvms;
            let failed = u.next() < if is_first { first } else { later };
            let side = if is_first { &mut f } else { &mut r };
            *side = (side.0 + u64::from(failed), side.1 + 1);
        }
        FirstExecution::of(&[
            row(Position::First, f.0, f.1),
            row(Position::Repeat, r.0, r.1),
        ])
        .unwrap()
    }

    /// Coin-flip flakes (the same rate first and later: no condition to
    /// tell) in runs of eight tests at `--iters 40` over seven JVMs each
    /// are labelled by either direction in at most 5% of the flaky tests,
    /// where one split per test at p < 0.05 labels many more; a test
    /// failing 40% only on its first execution in a JVM is still found.
    #[test]
    fn labels_hold_against_chance_across_the_runs_comparisons() {
        let mut u = Uniform(42);
        let (mut flaky, mut labelled, mut uncorrected) = (0, 0, 0);
        for _ in 0..1000 {
            let mut run: Vec<FirstExecution> = (0..8)
                .map(|i| {
                    let rate = [0.05, 0.1, 0.2, 0.3, 0.5][i % 5];
                    simulated(&mut u, 40, 7, rate, rate)
                })
                .collect();
            uncorrected += run.iter().filter(|f| f.dependent || f.warm).count();
            let mut refs: Vec<&mut FirstExecution> = run.iter_mut().collect();
            correct(&mut refs);
            for f in &run {
                if f.first.failures + f.repeat.failures > 0 {
                    flaky += 1;
                    labelled += usize::from(f.dependent || f.warm);
                }
            }
        }
        let rate = labelled as f64 / flaky as f64;
        eprintln!(
            "coin flips: {labelled} of {flaky} labelled ({uncorrected} without the correction)"
        );
        assert!(rate <= 0.05, "{labelled} of {flaky} coin flips labelled");
        assert!(
            uncorrected > labelled,
            "{uncorrected} without the correction"
        );
        // A 40% cold-start flake among seven coin flips: found in most runs.
        let mut found = 0;
        for _ in 0..200 {
            let mut run: Vec<FirstExecution> =
                (0..7).map(|_| simulated(&mut u, 40, 7, 0.2, 0.2)).collect();
            run.push(simulated(&mut u, 40, 7, 0.4, 0.0));
            let mut refs: Vec<&mut FirstExecution> = run.iter_mut().collect();
            correct(&mut refs);
            found += usize::from(run[7].dependent);
        }
        eprintln!("40% cold-start flake found in {found} of 200 runs");
        assert!(found >= 100, "found {found} of 200");
    }
}
