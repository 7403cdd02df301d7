//! The run against its plan: a selected test that ran fewer times than
//! planned proves less than planned, and the report says so.

use super::folder::RunFolder;
use crate::analyze::read::reproduce;
use crate::analyze::read::reproduce::Rerun;
use crate::analyze::rules::planned::PlannedTest;
use crate::analyze::AnalyzeOptions;
use crate::analyze::Report;
use crate::domain::{GradleCommand, InJvm};
use crate::invocation::Members;
use crate::plan::suite_route;
use crate::run::local::{self as runner, BatchRun};
use crate::shell;
use std::path::Path;
use std::time::Duration;

/// What the run folder records of a run of `commands`: how its reports are
/// read, every planned test, each batch's problem (why its tests may have run
/// fewer times than planned).
pub(super) fn folder(
    options: AnalyzeOptions,
    commands: &[GradleCommand],
    runs: &[BatchRun],
    timeout: Duration,
) -> RunFolder {
    let mut folder = RunFolder::new(options, planned_tests(commands, runs));
    folder.batch_problems = (0..commands.len())
        .map(|i| match runs.get(i) {
            Some(run) => runner::shortfall(run, timeout),
            None => Some(format!(
                "batch {} did not run: the run was interrupted",
                i + 1
            )),
        })
        .collect();
    folder
}

/// A failing test that ran as a suite member added to its task's includes
/// re-runs the same way: its reproduce line passes gradle-flaky's init script
/// (`script`, kept where it outlives the run) and the properties, or Gradle would run
/// it through its suite (on Gradle before 4.7, a JUnit 3 suite's whole child
/// suite; from 4.7, nothing).
pub(super) fn reproduce_members(
    report: &mut Report,
    commands: &[GradleCommand],
    script: &Path,
    rerun: &Rerun,
) {
    let mut with_script = rerun.clone();
    if with_script.gradle.is_empty() {
        with_script.gradle = vec!["./gradlew".to_string()];
    }
    let script = ["-I".into(), script.display().to_string()];
    with_script.gradle.extend(script);
    for t in report.tests.iter_mut().filter(|t| t.failures > 0) {
        let Some(task) = t.failing_task.clone() else {
            continue;
        };
        let member = commands
            .iter()
            .flat_map(|c| &c.tests)
            .find(|p| p.task == task && suite_route::included(p) && p.covers(&t.class, &t.method));
        let Some(member) = member else {
            continue;
        };
        let seed = t.failing_seeds.first().cloned();
        t.run_members = suite_route::members(&[member]);
        let line = |method: &str, rerun: &Rerun, members: Members| {
            let once = reproduce::once(rerun, &task, &t.class, method, seed.as_deref(), members);
            shell::join(&once.argv())
        };
        t.reproduce = Some(line(&t.method, &with_script, t.run_members.clone()));
        // The whole class, in the context of the line, the same way.
        if let Some(context) = &t.reproduce_context {
            let class = line("", rerun, Members::default());
            let included = line("", &with_script, t.run_members.clone());
            t.reproduce_context = Some(context.replace(&class, &included));
        }
    }
}

/// Every planned test with its batch, the executions the plan gives it, and
/// what repeated them. A batch repeated until a failure or its time
/// (`--until-fail --for`) planned what it ran: its count was never fixed.
pub(super) fn planned_tests(commands: &[GradleCommand], runs: &[BatchRun]) -> Vec<PlannedTest> {
    commands
        .iter()
        .enumerate()
        .flat_map(|(i, c)| {
            let run = runs.get(i);
            c.tests.iter().enumerate().map(move |(n, t)| PlannedTest {
                runs: match run {
                    Some(r) if r.open_ended => r.done.ran.get(n).copied().unwrap_or(0),
                    // A comparison showed it fixed at a look: it planned what it ran.
                    Some(r) if r.done.shown.iter().any(|s| s.index == n) => r.done.ran[n],
                    _ => c.executions(),
                },
                repeated_by: repeated_by(c, run, n),
                in_jvm_cost: run
                    .and_then(|r| r.done.costlier.get(n)?.as_ref())
                    .map(|c| c.line.clone())
                    .or_else(|| c.in_jvm_cost.get(t.class.as_deref()?).cloned()),
                not_honoured: c.not_honoured.clone(),
                task_sample: c.whole_task.as_ref().and_then(|w| w.sample.clone()),
                unmute_check: c.whole_task.as_ref().is_some_and(|w| w.unmute_check),
                ..PlannedTest::of(t, i + 1)
            })
        })
        .collect()
}

/// What repeated test `n` of a batch: its in-JVM mechanism, unless the first
/// run showed it did not take effect there and Gradle runs followed; both,
/// when its in-JVM iterations cost more than fresh runs and the rest of its
/// count switched to Gradle runs.
fn repeated_by(c: &GradleCommand, run: Option<&BatchRun>, n: usize) -> Vec<String> {
    let by = match run {
        Some(r) => r.done.repeated_by.get(n).copied().flatten(),
        None => c.in_jvm(),
    };
    let switched = run
        .and_then(|r| r.done.costlier.get(n)?.as_ref())
        .is_some_and(|c| c.switched);
    let mut ways = vec![by.map_or(GRADLE_RUNS, InJvm::as_str).to_string()];
    if switched && by.is_some() {
        ways.push(GRADLE_RUNS.to_string());
    }
    ways
}

/// The report's word for a fresh Gradle run per execution.
const GRADLE_RUNS: &str = "gradle-runs";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::TestKind;

    /// What repeated each test is the engine's account: its mechanism, or
    /// Gradle runs for a test whose class did not repeat in the JVM.
    #[test]
    fn each_test_is_repeated_by_what_the_engine_says() {
        let mut c = GradleCommand::of_kind(TestKind::Unit, &["gradle"], 40, 1);
        c.invocation.repeat = crate::invocation::Repeat::InJvm {
            mechanism: InJvm::TestngInvocationCount,
            iterations: 40,
            fresh_jvms: Default::default(),
        };
        c.tests = vec![
            crate::domain::testing::unit("a.A"),
            crate::domain::testing::unit("a.B"),
        ];
        let mut run = BatchRun::of(c.clone());
        assert_eq!(repeated_by(&c, Some(&run), 0), ["testng-invocation-count"]);
        run.done.repeated_by[1] = None;
        assert_eq!(repeated_by(&c, Some(&run), 1), ["gradle-runs"]);
        assert_eq!(repeated_by(&c, None, 1), ["testng-invocation-count"]);
        // In the JVM until it cost more than fresh runs, then Gradle runs.
        let dearer = crate::plan::switch::Dearer {
            per_iteration: Duration::from_secs(9),
            last: None,
            fresh_run: Duration::from_secs(3),
        };
        run.done.costlier[0] = Some(crate::run::engine::Costlier {
            dearer,
            switched: true,
            line: "in-JVM iterations of a.A took 9s each against 3s for a fresh run".into(),
        });
        assert_eq!(
            repeated_by(&c, Some(&run), 0),
            ["testng-invocation-count", "gradle-runs"]
        );
        let planned = planned_tests(&[c.clone()], std::slice::from_ref(&run));
        assert_eq!(
            planned[0].in_jvm_cost.as_deref(),
            Some("in-JVM iterations of a.A took 9s each against 3s for a fresh run")
        );
        assert_eq!(planned[1].in_jvm_cost, None);
    }
}
