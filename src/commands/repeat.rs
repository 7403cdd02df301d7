//! `gradle-flaky repeat --times N [--timeout D] -- GRADLE ARGS...`: the REST loop
//! on its own (output inherited, `--- Iteration i/N` headers, a final
//! `Results:` line), with every iteration's reports kept under
//! `flakiness-iters/iter-<i>/`.

use crate::cli::{GlobalArgs, RepeatArgs};
use crate::domain::format_duration;
use crate::local;
use crate::output;
use crate::process::{self, Isolation, Output};
use crate::run::outcomes::Scripts;
use crate::run::repeat::{self, Iteration, Loop, Outcomes, Verdict};
use crate::{say, Error, Exit, Result};
use std::time::Duration;

pub fn repeat(global: &GlobalArgs, args: &RepeatArgs) -> Result<Exit> {
    process::supervise();
    let project_dir = global.project_dir.as_path();
    repeat::check_fresh(project_dir)?;
    // A private daemon's registry (and logs), when isolated, last as long as
    // the loop.
    let registry = tempfile::Builder::new()
        .prefix("gradle-flaky-daemon-")
        .tempdir()
        .map_err(|e| Error::io(std::env::temp_dir(), e))?;
    let (isolation, note) = Isolation::choose(global.isolate, args.times, registry.path());
    if let Some(note) = note {
        say!("gradle-flaky: note: {note}");
    }
    isolation.apply(&args.command)?; // refuses --daemon when isolated, before anything runs
                                     // Each invocation's task outcomes: where a caller asked (`--task-outcomes`,
                                     // a Buildkite batch), else beside the daemon registry, for the verdicts.
    let scripts = Scripts::write(&registry.path().join("scripts"))?;
    let outcomes_dir = args
        .task_outcomes
        .clone()
        .unwrap_or_else(|| registry.path().join("task-outcomes"));
    let spec = Loop {
        argv: &args.command,
        isolation: &isolation,
        project_dir,
        dest: project_dir,
        times: args.times,
        timeout: args.timeout,
        output: Output::Inherit,
        outcomes: Some(Outcomes {
            scripts: &scripts,
            dir: &outcomes_dir,
            requested: &[],
        }),
    };
    let mut printer = Printer {
        times: args.times,
        timeout: args.timeout,
        verdicts: Vec::new(),
    };
    let done = repeat::run(&spec, &mut printer);
    process::stop_everything(&isolation);
    done?;
    let verdicts = printer.verdicts;
    let passed = verdicts.iter().filter(|v| **v == Verdict::Passed).count();
    let ran = verdicts.len();
    output::stdout_line(&format!(
        "Results: {passed}/{ran} passed, {} failed",
        ran - passed
    ));
    Ok(Exit::of(repeat::observed(&verdicts)))
}

/// Judges and reports each iteration as it ends.
struct Printer {
    times: u32,
    timeout: Option<Duration>,
    verdicts: Vec<Verdict>,
}

impl repeat::Observer for Printer {
    fn ended(&mut self, it: &Iteration) {
        let verdict = Verdict::of(it, local::counts(it));
        output::stdout_line(&self.status_line(it, &verdict));
        self.verdicts.push(verdict);
    }
}

impl Printer {
    fn status_line(&self, it: &Iteration, verdict: &Verdict) -> String {
        let what = match verdict {
            Verdict::NoTests => {
                "no tests executed: Gradle wrote no JUnit XML (a --tests filter that matches \
                 nothing, an UP-TO-DATE test task, or a failure before the tests ran)"
                    .to_string()
            }
            Verdict::TimedOut => format!(
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
        format!("Iteration {}/{}: {what}{kept}{notes}", it.index, self.times)
    }
}
