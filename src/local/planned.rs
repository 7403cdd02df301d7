//! The run against its plan: a selected test that ran fewer times than
//! planned proves less than planned, and the report says so.

use crate::analyze::planned::{self, PlannedTest};
use crate::analyze::Report;
use crate::domain::Command;
use crate::plan;
use crate::run::local::{self as runner, BatchRun};
use crate::say;
use std::time::Duration;

/// Marks in `report` each planned test that ran fewer times than planned,
/// with its batch's problem; true when there is one.
pub fn compare(
    report: &mut Report,
    commands: &[Command],
    runs: &[BatchRun],
    timeout: Duration,
) -> bool {
    let batch_problem = |batch: usize| match runs.get(batch - 1) {
        Some(run) => runner::problems(std::slice::from_ref(run), timeout).pop(),
        None => Some(format!(
            "batch {batch} did not run: the run was interrupted"
        )),
    };
    let below_plan = planned::compare(report, &planned_tests(commands), &batch_problem);
    if below_plan {
        say!(
            "gradle-flaky: selected tests ran fewer times than planned: their results prove less \
             than planned (listed in the report under \"Ran fewer times than planned\")"
        );
    }
    below_plan
}

/// Every planned test with its batch and the executions the plan gives it.
fn planned_tests(commands: &[Command]) -> Vec<PlannedTest> {
    commands
        .iter()
        .enumerate()
        .flat_map(|(i, c)| {
            c.tests.iter().map(move |t| PlannedTest {
                batch: i + 1,
                task: t.task.clone(),
                class: t.class.clone(),
                method: t.method.clone(),
                yaml_suite: t.yaml_suite.clone(),
                nested_classes: t.nested_classes,
                is_suite: t.is_suite,
                runs: plan::executions(c),
            })
        })
        .collect()
}
