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
        // p_fixed(before, after): that `after` (the repeats) fails less.
        let p = stats::p_fixed(
            stats::Counts::new(first_failures, first_runs),
            stats::Counts::new(repeat_failures, repeat_runs),
        );
        Some(FirstExecution {
            first: Rate::new(first_failures, first_runs),
            repeat: Rate::new(repeat_failures, repeat_runs),
            p_value: stats::round6(p),
            dependent: first_failures > 0 && p < SIGNIFICANCE,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::condition::{Condition, InJvm, Repetition};

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
}
