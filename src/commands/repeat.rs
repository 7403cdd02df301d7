//! `gradle-flaky repeat --times N [--timeout D] -- GRADLE ARGS...`: the REST loop
//! on its own (output inherited, `--- Iteration i/N` headers, a final
//! `Results:` line), with every iteration's reports kept under
//! `flakiness-iters/iter-<i>/`. The loop is the repetition engine's, over the
//! command as given.

use crate::cli::{GlobalArgs, RepeatArgs};
use crate::domain::{GradleCommand, TestKind};
use crate::invocation::Invocation;
use crate::output;
use crate::plan::policy::Policy;
use crate::run::engine::{self, Event, Reporter, Sink, Site};
use crate::run::guard::RunGuard;
use crate::run::invoke::{self, Iteration, IterationVerdict};
use crate::time::format_duration;
use crate::{Exit, Result};
use std::time::Duration;

pub(crate) fn repeat(global: &GlobalArgs, args: &RepeatArgs) -> Result<Exit> {
    let RepeatArgs {
        times,
        timeout,
        task_outcomes,
        command,
    } = args;
    let project_dir = global.project_dir.as_path();
    invoke::check_fresh(project_dir)?;
    // A private daemon's registry (and logs), when isolated, last as long as
    // the loop.
    // `--task-outcomes` is a CI batch job's loop: the job said its environment's JVM options.
    let guard = match task_outcomes {
        Some(_) => RunGuard::temporary_in_job(global.isolate, *times)?,
        None => RunGuard::temporary(global.isolate, *times)?,
    };
    // Refuses --daemon when isolated, before anything runs.
    guard.check(command)?;
    let batch = GradleCommand::of(TestKind::Unit, Invocation::given(command, *times));
    // Each invocation's task outcomes: where a caller asked (`--task-outcomes`,
    // a Buildkite batch), else beside the guard's files, for the verdicts.
    let outcomes = task_outcomes
        .clone()
        .unwrap_or_else(|| guard.dir().join("task-outcomes"));
    let site = Site {
        guard: &guard,
        project_dir,
        dest: project_dir,
        outcomes: Some(&outcomes),
        output: Sink::Inherit,
    };
    let mut printer = RepeatPrinter {
        timeout: *timeout,
        verdicts: Vec::new(),
    };
    let done = engine::run(
        &batch,
        None,
        &Policy::plain(0, *timeout),
        &site,
        &mut printer,
    );
    if let Some(e) = done.error {
        return Err(e);
    }
    let verdicts = printer.verdicts;
    let passed = verdicts
        .iter()
        .filter(|v| **v == IterationVerdict::Passed)
        .count();
    let ran = verdicts.len();
    output::stdout_line(&format!(
        "Results: {passed}/{ran} passed, {} failed",
        ran - passed
    ));
    Ok(Exit::of(invoke::observed(&verdicts)))
}

/// Judges and reports each iteration as it ends.
struct RepeatPrinter {
    timeout: Option<Duration>,
    verdicts: Vec<IterationVerdict>,
}

impl Reporter for RepeatPrinter {
    fn event(&mut self, event: &Event<'_>) {
        if let Event::Ended {
            iteration,
            verdict,
            index,
            of,
            ..
        } = event
        {
            let line = self.status_line(iteration, verdict, (*index, *of));
            output::stdout_line(&line);
            self.verdicts.push((*verdict).clone());
        }
    }
}

impl RepeatPrinter {
    fn status_line(
        &self,
        it: &Iteration,
        verdict: &IterationVerdict,
        (index, of): (u32, u32),
    ) -> String {
        let what = match verdict {
            IterationVerdict::NoTests => {
                "no tests executed: Gradle wrote no JUnit XML (a --tests filter that matches \
                 nothing, an UP-TO-DATE test task, or a failure before the tests ran)"
                    .to_string()
            }
            IterationVerdict::TimedOut => format!(
                "timed out after {}; its processes were stopped and the loop ended",
                self.timeout.map(format_duration).unwrap_or_default()
            ),
            v => v.describe(),
        };
        let kept = match it.reports.len() {
            0 => String::new(),
            n => format!(
                " ({n} report{} kept in {})",
                if n == 1 { "" } else { "s" },
                it.dir.display()
            ),
        };
        let notes: String = it.notes.iter().map(|n| format!("; {n}")).collect();
        format!("Iteration {index}/{of}: {what}{kept}{notes}")
    }
}
