//! The run against its plan: a selected test that ran fewer times than
//! planned proves less than planned, and the report says so.

use crate::analyze::planned::{self, PlannedTest};
use crate::analyze::{reproduce, Report};
use crate::domain::GradleCommand;
use crate::plan::{self, suite_route};
use crate::run::chunks::Stop;
use crate::run::local::{self as runner, BatchRun};
use crate::{say, shell, test_filter};
use std::path::Path;
use std::time::Duration;

/// Marks in `report` each planned test that ran fewer times than planned,
/// with its batch's problem; true when there is one.
pub fn compare(
    report: &mut Report,
    commands: &[GradleCommand],
    runs: &[BatchRun],
    timeout: Duration,
) -> bool {
    let batch_problem = |batch: usize| match runs.get(batch - 1) {
        Some(run) => runner::problems(std::slice::from_ref(run), timeout).pop(),
        None => Some(format!(
            "batch {batch} did not run: the run was interrupted"
        )),
    };
    let below_plan = planned::compare(report, &planned_tests(commands, runs), &batch_problem);
    if below_plan {
        say!(
            "gradle-flaky: selected tests ran fewer times than planned: their results prove less \
             than planned (listed in the report under \"Ran fewer times than planned\")"
        );
    }
    below_plan
}

/// A failing test that ran as a suite member added to its task's includes
/// re-runs the same way: its reproduce line passes gradle-flaky's init script
/// (`script`, the run folder's copy) and the properties, or Gradle would run
/// it through its suite (on Gradle before 4.7, a JUnit 3 suite's whole child
/// suite; from 4.7, nothing).
pub fn reproduce_members(
    report: &mut Report,
    commands: &[GradleCommand],
    script: &Path,
    gradle: &[String],
) {
    let mut with_script = if gradle.is_empty() {
        vec!["./gradlew".to_string()]
    } else {
        gradle.to_vec()
    };
    with_script.extend(["-I".into(), script.display().to_string()]);
    for t in report.tests.iter_mut().filter(|t| t.failures > 0) {
        let Some(task) = t.failing_task.as_deref() else {
            continue;
        };
        let member = commands.iter().flat_map(|c| &c.tests).find(|p| {
            p.task == task
                && suite_route::included(p)
                && p.class.as_deref().is_some_and(|class| {
                    test_filter::covers(
                        class,
                        p.method.as_deref(),
                        p.nested_classes,
                        &t.class,
                        &t.method,
                    )
                })
        });
        let Some(member) = member else {
            continue;
        };
        let seed = t.failing_seeds.first().map(String::as_str);
        t.run_properties = suite_route::properties(task, &[member]);
        let properties: Vec<String> = t.run_properties.iter().map(|p| shell::quote(p)).collect();
        let properties = properties.join(" ");
        let line = |method: &str, gradle: &[String]| {
            reproduce::build(gradle, task, &t.class, method, seed)
        };
        t.reproduce = Some(format!("{} {properties}", line(&t.method, &with_script)));
        // The whole class, in the context of the line, the same way.
        if let Some(context) = &t.reproduce_context {
            let class = line("", gradle);
            let included = format!("{} {properties}", line("", &with_script));
            t.reproduce_context = Some(context.replace(&class, &included));
        }
    }
}

/// Every planned test with its batch, the executions the plan gives it, and
/// what repeated them. A batch repeated until its time was up (`--until-fail
/// --for`) planned what it ran: its count was never fixed in advance.
fn planned_tests(commands: &[GradleCommand], runs: &[BatchRun]) -> Vec<PlannedTest> {
    commands
        .iter()
        .enumerate()
        .flat_map(|(i, c)| {
            let ran = runs
                .get(i)
                .filter(|r| matches!(r.stop, Some(Stop::TimeUp { .. })))
                .map(|r| r.ran.clone());
            let repeated_by = repeated_by(c, runs.get(i)).to_string();
            c.tests.iter().enumerate().map(move |(n, t)| PlannedTest {
                batch: i + 1,
                task: t.task.clone(),
                class: t.class.clone(),
                method: t.method.clone(),
                yaml_suite: t.yaml_suite.clone(),
                nested_classes: t.nested_classes,
                is_suite: t.is_suite,
                runs: match &ran {
                    Some(ran) => ran.get(n).copied().unwrap_or(0),
                    None => plan::executions(c),
                },
                repeated_by: repeated_by.clone(),
            })
        })
        .collect()
}

/// What repeated a batch's tests: its in-JVM mechanism, unless the first run
/// showed it did not take effect and Gradle runs followed (its fallback).
fn repeated_by(c: &GradleCommand, run: Option<&BatchRun>) -> &'static str {
    let fell_back = match run {
        // A chunked batch runs one invocation per chunk, in the JVM or not.
        Some(r) if !r.chunks.is_empty() => r.chunks.iter().any(|ch| !ch.in_jvm),
        Some(r) => r.iterations.len() > c.rest_loops.max(1) as usize,
        None => false,
    };
    match c.in_jvm {
        Some(m) if !fell_back => m.as_str(),
        _ => "gradle-runs",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::{InJvm, TestKind};
    use crate::run::chunks::Chunk;

    fn chunked(in_jvm: &[bool]) -> BatchRun {
        BatchRun {
            chunks: in_jvm
                .iter()
                .map(|&in_jvm| Chunk {
                    iterations: if in_jvm { 4 } else { 1 },
                    seed: None,
                    elapsed: Duration::ZERO,
                    in_jvm,
                })
                .collect(),
            ..BatchRun::of(GradleCommand {
                in_jvm: Some(InJvm::TestngInvocationCount),
                ..GradleCommand::of_kind(TestKind::Unit, &["gradle"], 40, 1)
            })
        }
    }

    /// Chunks are one invocation each: two in-JVM chunks are no fallback;
    /// a Gradle-run chunk after the first one is.
    #[test]
    fn a_chunked_in_jvm_batch_is_repeated_by_its_mechanism_until_it_falls_back() {
        let run = chunked(&[true, true]);
        assert_eq!(
            repeated_by(&run.command, Some(&run)),
            "testng-invocation-count"
        );
        let run = chunked(&[true, false, false]);
        assert_eq!(repeated_by(&run.command, Some(&run)), "gradle-runs");
    }
}
