//! `gradle-flaky local`: select, plan, run every batch here, analyze exactly the
//! XML this run wrote (the run folder), print the report.

use super::options::{self, LocalConfig};
use super::report::{self, Context};
use super::selection;
use crate::analyze::outcome::{InfraSubtype, Job, JobPayload, OutcomeKind};
use crate::analyze::planned::{self, PlannedTest};
use crate::analyze::{self, AnalyzeOptions};
use crate::cli::GlobalArgs;
use crate::domain::{ClassifiedTest, Command, Origin};
use crate::layout::Build;
use crate::plan::render::{visible, visible_lines};
use crate::plan::{self, PlanContext};
use crate::run::local::{self as runner, BatchRun, Options};
use crate::run::process::{self, Isolation};
use crate::run::progress::Progress;
use crate::run::repeat::{Iteration, Verdict};
use crate::{say, Error, Exit, Observed, Result};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

pub fn run(global: &GlobalArgs, cfg: &LocalConfig) -> Result<Exit> {
    // Before any Gradle run (the layout's included): hours of runs must not
    // end in a report that cannot be kept.
    report::check_writable(&cfg.output)?;
    // From here on a signal asks for an orderly stop (reading the layout
    // included) instead of killing us with Gradle still running.
    process::supervise();
    // Unlike `plan`, a missing Gradle is an error here, before anything runs.
    let build = options::build(global, true)?;
    let (build, tests) = select(build, cfg)?;
    if tests.is_empty() {
        say!("gradle-flaky: nothing selected: no test to run");
        return Ok(Exit::Clean);
    }
    let ctx = PlanContext::for_build(&build, &cfg.gradle_args);
    let plan = plan::plan(&tests, &cfg.batching.config, &ctx);
    for note in &plan.notes {
        say!("gradle-flaky: note: {}", visible_lines(note, "    "));
    }

    let project_dir = build.root.as_path();
    let run_dir = runner::create_run_dir(project_dir)?;
    let invocations = plan.commands.iter().map(|c| c.rest_loops.max(1)).sum();
    let (isolation, note) = Isolation::choose(cfg.isolate, invocations, &run_dir.join("daemon"));
    if let Some(note) = note {
        say!("gradle-flaky: note: {note}");
    }
    for command in &plan.commands {
        isolation.apply(&command.argv)?; // refuses --daemon when isolated, before anything runs
    }
    let timeout = cfg.batch_timeout;
    say!(
        "gradle-flaky: {} batch(es); reports and logs of this run: {}",
        plan.commands.len(),
        run_dir.display()
    );
    let started = Instant::now();
    let runs = runner::run_all(
        &plan.commands,
        &Options {
            project_dir,
            run_dir: &run_dir,
            timeout,
            verbose: cfg.verbose,
            isolation: &isolation,
            ignored_iters: &ignored_iters,
        },
        &report::counts,
        &Progress::new(std::io::stderr().is_terminal() && !cfg.verbose),
    );
    let partial = process::interrupted();
    let ran_for = started.elapsed();

    let analyze_opts = AnalyzeOptions {
        project_paths: build.project_paths(),
        gradle: build.gradle.clone(),
        ..AnalyzeOptions::default()
    };
    let mut report = analyze::analyze_root(&run_dir, &analyze_opts);
    report::warn_unreadable(&report);
    let mut problems = runner::problems(&runs, timeout);
    let mut batches = Vec::new();
    for run in &runs {
        let (payload, oom) = judge(run, project_dir, &analyze_opts, timeout);
        problems.extend(oom);
        batches.push(payload);
    }
    let batch_problem = |batch: usize| match runs.get(batch - 1) {
        Some(run) => runner::problems(std::slice::from_ref(run), timeout).pop(),
        None => Some(format!(
            "batch {batch} did not run: the run was interrupted"
        )),
    };
    let below_plan = planned::compare(&mut report, &planned_tests(&plan.commands), &batch_problem);
    if below_plan {
        say!(
            "gradle-flaky: selected tests ran fewer times than planned: their results prove less \
             than planned (listed in the report under \"Ran fewer times than planned\")"
        );
    }
    let context = Context {
        partial,
        problems: &problems,
        batches: &batches,
        run_dir: Some(&run_dir),
    };
    // The run's verdict stands whatever triage does: a triage that cannot
    // start or breaks off is reported, and the report is written without it.
    let triaged = match &cfg.triage {
        Some(triage) if !partial => super::triage::after_run(
            &mut report,
            triage,
            &super::triage::Site {
                build: &build,
                base: &run_dir,
                gradle_args: &cfg.gradle_args,
                invocation_timeout: Some(timeout),
                verbose: cfg.verbose,
            },
            &cfg.output,
            &context,
        )
        .unwrap_or_else(|e| {
            say!("gradle-flaky: triage: {e}");
            None
        }),
        _ => None,
    };
    let written = report::emit(&report, &cfg.output, &context);
    let ran: usize = runs.iter().map(|r| r.iterations.len()).sum();
    say!(
        "gradle-flaky: {} of {} batch(es), {ran} Gradle invocation(s) in {}s{}; \
         reports and logs: {}",
        runs.len(),
        plan.commands.len(),
        ran_for.as_secs(),
        if partial { " (interrupted)" } else { "" },
        run_dir.display()
    );
    for p in &problems {
        say!("gradle-flaky: {p}");
    }
    let verdicts = runs.iter().flat_map(|r| &r.verdicts);
    let observed = Observed {
        interrupted: partial
            || verdicts.clone().any(|v| *v == Verdict::Interrupted)
            || triaged.is_some_and(|t| t.interrupted),
        // A failure recorded by a batch that later broke off counts too; an
        // OutOfMemoryError of a batch that left a heap dump does not.
        real_failures: batches.iter().map(|b| b.real_failures).sum(),
        executions: report.summary.executions,
        // A test that ran fewer times than planned has no trustworthy clean result.
        untrustworthy: below_plan
            || verdicts.clone().any(|v| !v.is_trustworthy())
            || batches.iter().any(|b| {
                matches!(
                    b.outcome,
                    OutcomeKind::InfraFail | OutcomeKind::Timeout | OutcomeKind::Hang
                )
            }),
    };
    let exit = match written {
        Ok(()) => Exit::of(observed),
        Err(e) => {
            say!("gradle-flaky: {e}");
            let exit = Exit::of(Observed {
                untrustworthy: true,
                ..observed
            });
            if exit == Exit::TestFailures {
                say!("gradle-flaky: flakiness was proven all the same: exit 1");
            }
            exit
        }
    };
    Ok(exit)
}

/// A batch judged by the outcome rules of a Buildkite batch job (`rc`, its own
/// XML, and the heap dumps its test JVMs wrote), and a line for the end of the
/// run when a heap dump made its `OutOfMemoryError` failures infrastructure.
fn judge(
    run: &BatchRun,
    project_dir: &Path,
    opts: &AnalyzeOptions,
    timeout: Duration,
) -> (JobPayload, Option<String>) {
    let report = analyze::analyze_root(&run.dir, opts);
    let rc = run.rc();
    // A JVM that ran out of heap fails its Gradle run, so clean runs skip the scan.
    let dumps: Vec<PathBuf> = match rc {
        0 => Vec::new(),
        _ => crate::reports::heap_dumps_since(project_dir, run.started),
    };
    let job = Job {
        job_id: format!("batch-{}", run.index),
        step_key: run.command.key.clone(),
        kind: run.command.kind.as_str().to_string(),
        rc,
        duration_sec: run.duration().as_secs(),
        oom_detected: !dumps.is_empty(),
        skipped: run
            .iterations
            .iter()
            .find(|it| it.skipped.is_some())
            .map(Iteration::skipped_tasks),
    };
    let payload = JobPayload::judged(&job, &report, timeout.as_secs());
    let heap_failures = report.summary.failed - payload.real_failures;
    let oom = (payload.infra_subtype == Some(InfraSubtype::Oom)).then(|| {
        let names: Vec<String> = dumps
            .iter()
            .map(|d| {
                d.strip_prefix(project_dir)
                    .unwrap_or(d)
                    .display()
                    .to_string()
            })
            .collect();
        format!(
            "batch {} ({}): infra_fail (oom): a test JVM ran out of heap and wrote {}; its \
             {heap_failures} OutOfMemoryError failure(s) are infrastructure, not flakiness",
            run.index,
            run.command.label,
            names.join(", ")
        )
    });
    (payload, oom)
}

/// Did this in-JVM batch ignore `-Dtests.iters`? Read from its first run's reports.
fn ignored_iters(command: &Command, done: &[Iteration]) -> bool {
    let Some(first) = done.first().filter(|it| !it.no_reports()) else {
        return false;
    };
    let rows: Vec<(String, String, u64)> =
        analyze::analyze_root(&first.dir, &AnalyzeOptions::default())
            .tests
            .into_iter()
            .map(|t| (t.class, t.method, t.runs + t.suite_timeouts))
            .collect();
    plan::strategy::ignored_iters(command.iterations, &rows)
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
                runs: plan::executions(c),
            })
        })
        .collect()
}

/// The selected tests and the build with the layout they were classified
/// through; notes and unresolved inputs go to stderr, and a named test that
/// resolves to nothing is an input error before hours of runs.
fn select(build: Build, cfg: &LocalConfig) -> Result<(Build, Vec<ClassifiedTest>)> {
    let (build, selection) = selection::gather(build, &cfg.selection)?;
    for note in &selection.notes {
        say!("gradle-flaky: note: {}", visible_lines(note, "    "));
    }
    for f in &selection.skipped {
        say!(
            "gradle-flaky: changed, not run: {}: {}",
            visible(&f.path),
            visible(&f.reason)
        );
    }
    for u in &selection.unresolved {
        say!(
            "gradle-flaky: not run: {}: {} ({})",
            visible(&u.input),
            visible(&u.reason),
            u.reason_code
        );
    }
    let named_nothing = selection
        .unresolved
        .iter()
        .filter(|u| u.origin == Origin::Explicit)
        .count();
    if named_nothing > 0 {
        return Err(Error::input(
            "TEST",
            format!("{named_nothing} of the tests you named resolved to nothing (listed above)"),
        ));
    }
    Ok((build, selection.tests))
}
