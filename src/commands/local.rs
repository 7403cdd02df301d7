//! `gradle-flaky local`: select, plan, run every batch here, analyze exactly the
//! XML this run wrote (the run folder), print the report.

use super::options::{self, LocalConfig};
use super::report::{self, Context};
use super::selection;
use crate::analyze::{self, AnalyzeOptions};
use crate::cli::GlobalArgs;
use crate::domain::{ClassifiedTest, Origin};
use crate::layout::Build;
use crate::plan::render::visible;
use crate::plan::{self, PlanContext};
use crate::run::local::{self as runner, Options};
use crate::run::process::{self, Isolation};
use crate::run::progress::Progress;
use crate::run::repeat::Verdict;
use crate::{Error, Exit, Observed, Result};
use std::io::IsTerminal;
use std::time::Instant;

pub fn run(global: &GlobalArgs, cfg: &LocalConfig) -> Result<Exit> {
    // Unlike `plan`, a missing Gradle is an error here, before anything runs.
    let build = options::build(global, true)?;
    let (build, tests) = select(build, cfg)?;
    if tests.is_empty() {
        eprintln!("gradle-flaky: nothing selected: no test to run");
        return Ok(Exit::Clean);
    }
    let ctx = PlanContext::for_build(&build, &cfg.gradle_args);
    let plan = plan::plan(&tests, &cfg.batching.config, &ctx);
    for note in &plan.notes {
        eprintln!("gradle-flaky: note: {}", visible(note));
    }

    let project_dir = build.root.as_path();
    let run_dir = runner::create_run_dir(project_dir)?;
    let invocations = plan.commands.iter().map(|c| c.rest_loops.max(1)).sum();
    let isolation = Isolation::for_run(invocations, &run_dir.join("daemon"));
    for command in &plan.commands {
        isolation.apply(&command.argv)?; // refuses --daemon (off Linux) before anything runs
    }
    let timeout = cfg.batch_timeout;
    eprintln!(
        "gradle-flaky: {} batch(es); reports and logs of this run: {}",
        plan.commands.len(),
        run_dir.display()
    );
    process::supervise();
    let started = Instant::now();
    let runs = runner::run_all(
        &plan.commands,
        &Options {
            project_dir,
            run_dir: &run_dir,
            timeout,
            verbose: cfg.verbose,
            isolation: &isolation,
        },
        &report::counts,
        &Progress::new(std::io::stderr().is_terminal() && !cfg.verbose),
    );
    let partial = process::interrupted();
    let ran_for = started.elapsed();

    let mut report = analyze::analyze_root(
        &run_dir,
        &AnalyzeOptions {
            project_paths: build.project_paths(),
            gradle: build.gradle.clone(),
            ..AnalyzeOptions::default()
        },
    );
    report::warn_unreadable(&report);
    let problems = runner::problems(&runs, timeout);
    let context = Context {
        partial,
        problems: &problems,
    };
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
        )?,
        _ => None,
    };
    report::emit(&report, &cfg.output, &context)?;
    let ran: usize = runs.iter().map(|r| r.iterations.len()).sum();
    eprintln!(
        "gradle-flaky: {} of {} batch(es), {ran} Gradle invocation(s) in {}s{}; \
         reports and logs: {}",
        runs.len(),
        plan.commands.len(),
        ran_for.as_secs(),
        if partial { " (interrupted)" } else { "" },
        run_dir.display()
    );
    for p in &problems {
        eprintln!("gradle-flaky: {p}");
    }
    let verdicts = runs.iter().flat_map(|r| &r.verdicts);
    Ok(Exit::of(Observed {
        interrupted: partial
            || verdicts.clone().any(|v| *v == Verdict::Interrupted)
            || triaged.is_some_and(|t| t.interrupted),
        // A failure recorded by a batch that later broke off counts too.
        real_failures: report.summary.failed,
        executions: report.summary.executions,
        untrustworthy: verdicts.clone().any(|v| !v.is_trustworthy()),
    }))
}

/// The selected tests and the build with the layout they were classified
/// through; notes and unresolved inputs go to stderr, and a named test that
/// resolves to nothing is an input error before hours of runs.
fn select(build: Build, cfg: &LocalConfig) -> Result<(Build, Vec<ClassifiedTest>)> {
    let (build, selection) = selection::gather(build, &cfg.selection)?;
    for note in &selection.notes {
        eprintln!("gradle-flaky: note: {}", visible(note));
    }
    for u in &selection.unresolved {
        eprintln!(
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
