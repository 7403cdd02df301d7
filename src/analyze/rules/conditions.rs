//! A test's executions by condition, with what their comparisons say: its
//! first executions in a JVM against its repeats ([`FirstExecution`]), and
//! its executions alone against those in its whole task
//! ([`ContextComparison`]).

use crate::analyze::model::counts::{Conditions, ContextComparison, FirstExecution, Tally};
#[cfg(doc)]
use crate::analyze::rules::first_execution;

impl Conditions {
    /// Alone against its task again, once its first executions were judged
    /// with the run's other comparisons ([`first_execution::correct`]).
    pub(crate) fn recompare(&mut self) {
        let first_dependent = self.first_execution.is_some_and(|f| f.dependent);
        self.context = ContextComparison::of(&self.conditions, first_dependent);
    }

    /// A test's counts per condition, compared.
    pub(crate) fn of(tally: Tally) -> Conditions {
        let conditions = tally.rows();
        let first_execution = FirstExecution::of(&conditions);
        let first_dependent = first_execution.is_some_and(|f| f.dependent);
        Conditions {
            context: ContextComparison::of(&conditions, first_dependent),
            first_execution,
            conditions,
            by_index: tally.by_index,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyze::model::counts::{ConditionCounts, Rate};
    use crate::condition::{Condition, Context, Position, Repetition};
    use crate::invocation::InJvm;

    fn row(
        context: Context,
        repetition: Repetition,
        execution: Position,
        runs: u64,
        failures: u64,
    ) -> ConditionCounts {
        ConditionCounts {
            condition: Condition {
                context,
                repetition,
                mechanism: (repetition == Repetition::InJvm)
                    .then_some(InJvm::TestngInvocationCount),
                execution: Some(execution),
            },
            rate: Rate::new(failures, runs),
        }
    }

    /// The counts of a real TestNG suite (JCommander 1.71, `--context both
    /// --iters 5`): a test passing its 5 executions alone in one JVM and
    /// failing its 5 whole-task runs, after a class that changes the
    /// default locale. Its task runs are first executions too, but the
    /// difference is the context's: context-dependent, not
    /// first-execution-dependent.
    #[test]
    fn whole_task_runs_are_no_evidence_of_first_execution_dependence() {
        use Context::*;
        use Position::*;
        use Repetition::*;
        let rows = vec![
            row(Alone, InJvm, First, 1, 0),
            row(Alone, InJvm, Repeat, 4, 0),
            row(Task, FreshJvm, First, 5, 5),
        ];
        let first = FirstExecution::of(&rows).unwrap();
        assert_eq!((first.first.runs, first.dependent), (1, false), "{first:?}");
        let context = ContextComparison::of(&rows, first.dependent).unwrap();
        assert_eq!((context.alone.runs, context.task.failures), (5, 5));
        // scipy.stats.fisher_exact([[0, 5], [5, 0]]): p = 0.007937
        assert!(context.dependent, "{context:?}");
        crate::stats::assert_near(context.p_value, 0.007937, 1e-4);
    }
}
