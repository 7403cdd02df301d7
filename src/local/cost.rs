//! The cost of a local run, from its plan, its batches and its report.

use crate::analyze::model::cost::{BudgetStop, Cost, ProvenEarly};
use crate::analyze::Report;
use crate::plan::test_name;
use crate::run::engine::Stop;
use crate::run::local::BatchRun;
use std::time::Duration;

/// What the run cost: `runs` are the batches that ran (of `planned`), `took`
/// its wall time.
pub(crate) fn of(
    report: &Report,
    planned: &[crate::domain::GradleCommand],
    runs: &[BatchRun],
    took: Duration,
) -> Cost {
    let mut cost = Cost {
        executions_requested: report
            .tests
            .iter()
            .filter_map(|t| t.plan.as_ref().map(|p| p.planned_runs))
            .chain(report.not_executed.iter().map(|n| n.planned_runs))
            .sum(),
        executions_run: report
            .tests
            .iter()
            .filter(|t| t.plan.is_some())
            .map(|t| t.runs)
            .sum(),
        iterations_requested: planned
            .iter()
            .map(|c| c.executions() * c.tests.len() as u64)
            .sum(),
        job_minutes: runs.iter().map(|r| r.duration().as_secs_f64() / 60.0).sum(),
        wall_sec: took.as_secs_f64(),
        ..Cost::default()
    };
    for run in runs {
        cost.iterations_run += iterations_run(run);
        for p in &run.done.proven {
            cost.iterations_saved += p.saved;
            cost.proven.push(ProvenEarly {
                test: test_name(&p.test),
                job: None,
                after_iterations: p.after,
                saved_iterations: p.saved,
            });
        }
        if let Some(Stop::Budget {
            budget,
            ran,
            planned,
        }) = &run.done.stop
        {
            cost.budget_stops.push(BudgetStop {
                job: format!("batch {} ({})", run.index, run.command.label),
                budget_sec: budget.as_secs(),
                iterations_run: u64::from(*ran),
                iterations_planned: u64::from(*planned),
            });
        }
    }
    cost
}

/// Iterations the batch's tests ran, as the engine counted them (an
/// invocation without a result ran none).
fn iterations_run(run: &BatchRun) -> u64 {
    run.done.ran.iter().sum()
}
