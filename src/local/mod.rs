//! The local run as a use case: the selected tests planned, every batch run
//! on this machine, the run folder's XML analyzed, each batch judged and the
//! run compared against its plan, then (when asked) its failures triaged. It
//! returns what ran, what it proved and the exit status it earns.
//!
//! Its progress (notes, the status line, triage's lines) goes to stderr as it
//! runs; the final report is the caller's to render and keep, through a
//! [`Reporter`].

pub mod chunking;
mod context;
pub mod cost;
mod judge;
mod outcome;
mod planned;
mod selected;
pub mod triage;

pub use chunking::StopOnFlaky;
pub use context::Context;
pub use judge::counts;
pub use outcome::{LocalOutcome, RunRecord};

use crate::analyze::{self, AnalyzeOptions, Report};
use crate::ci::spec::GRACE_MINUTES;
use crate::domain::{BatchingConfig, GradleCommand};
use crate::durations;
use crate::layout::Build;
use crate::plan::render::visible_lines;
use crate::plan::{self, PlanContext};
use crate::process::{self, Isolation};
use crate::run::local::{self as runner, Options};
use crate::run::outcomes::Scripts;
use crate::run::progress::Progress;
use crate::select::Selection;
use crate::{say, Result};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// How a local run goes.
#[derive(Clone, Debug)]
pub struct LocalRunConfig {
    pub batching: BatchingConfig,
    /// Limit of each Gradle invocation.
    pub batch_timeout: Duration,
    pub gradle_args: Vec<String>,
    pub verbose: bool,
    /// Gradle never on the user's daemon (see `run::process::Isolation`).
    pub isolate: bool,
    /// Replay the failing tests after the run.
    pub triage: Option<crate::triage::TriageConfig>,
    /// Whether tests proven flaky get more iterations.
    pub stop_on_flaky: StopOnFlaky,
}

/// What the caller shows and keeps of the report while the run goes on.
pub trait Reporter {
    /// The run's reports were read: tell of those that could not be.
    fn read(&self, report: &Report);
    /// Keeps the report before triage replays anything, where a Ctrl-C cannot
    /// take it: below `base` (the run folder), and wherever the caller keeps
    /// reports. Returns the copy below `base`.
    fn before_triage(&self, report: &Report, ctx: &Context<'_>, base: &Path) -> Result<PathBuf>;
}

/// Runs the selected tests of `build` (the build with the layout they were
/// classified through). Call `run::process::supervise` first, before the
/// selection reads the layout, so that a signal stops Gradle in order.
pub fn run(
    build: &Build,
    selection: Selection,
    cfg: &LocalRunConfig,
    reporter: &dyn Reporter,
) -> Result<LocalOutcome> {
    let (tests, not_checked) = selected::tests(selection)?;
    if tests.is_empty() {
        return Ok(LocalOutcome::NothingSelected(not_checked));
    }
    let ctx = PlanContext::for_build(build, &cfg.gradle_args);
    let durations = durations::store::load(cfg.batching.durations.as_deref(), &build.root)?;
    // Without --budget, a batch gets its invocation limit minus the grace.
    let derived = cfg
        .batch_timeout
        .saturating_sub(Duration::from_secs(u64::from(GRACE_MINUTES) * 60))
        .max(cfg.batch_timeout / 2);
    let mut plan = plan::plan(&tests, &cfg.batching, &ctx);
    plan::shard::apply(
        &mut plan,
        &plan::shard::Timing {
            durations: &durations,
            // An open-ended batch (`--until-fail`) is never split: its time ends it.
            budget: (cfg.stop_on_flaky != StopOnFlaky::FirstFailure)
                .then(|| cfg.batching.budget.unwrap_or(derived)),
            max_shards: cfg.batching.max_shards,
        },
    );
    if let Some(layout) = &build.layout {
        layout.note_heap_dumps(&mut plan.commands);
    }
    for note in &plan.notes {
        say!("gradle-flaky: note: {}", visible_lines(note, "    "));
    }

    let project_dir = build.root.as_path();
    say!("gradle-flaky: durations: {}", durations.source.describe());
    let chunking = chunking::Local {
        durations: &durations,
        budget: cfg.batching.budget,
        derived,
        stop_on_flaky: cfg.stop_on_flaky,
        batching: &cfg.batching,
        ctx: &ctx,
    };
    let run_dir = runner::create_run_dir(project_dir)?;
    let isolation = isolation(&plan.commands, cfg.isolate, &run_dir)?;
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
            ignored_iters: &judge::ignored_iters,
            chunking: Some(&chunking),
        },
        &counts,
        &Progress::new(std::io::stderr().is_terminal() && !cfg.verbose),
    );
    let partial = process::interrupted();
    let took = started.elapsed();
    // Every run records what it measured, for the next run's plan.
    if let Err(e) = durations::store::record(project_dir, &run_dir) {
        say!("gradle-flaky: warning: the measured durations were not recorded: {e}");
    }

    // Reproduce lines run Gradle as this run did: its program, then the
    // arguments the run passed to every invocation (`-- --offline -P…`).
    let rerun: Vec<String> = build
        .gradle
        .iter()
        .chain(&cfg.gradle_args)
        .cloned()
        .collect();
    let analyze_opts = AnalyzeOptions {
        project_paths: build.project_paths(),
        gradle: rerun.clone(),
        instances_once: true,
        every_instance_below: runner::repeated_in_jvm(&runs),
        planned: true,
        ..AnalyzeOptions::default()
    };
    let mut report = analyze::analyze_root(&run_dir, &analyze_opts);
    reporter.read(&report);
    let (batches, problems) = judge::batches(&runs, project_dir, &analyze_opts, timeout);
    let below_plan = planned::compare(&mut report, &plan.commands, &runs, timeout);
    let cost = cost::of(&report, &plan.commands, &runs, took);
    let script = Scripts::members_script(&runner::scripts_dir(&run_dir));
    planned::reproduce_members(&mut report, &plan.commands, &script, &rerun);
    let triaged = match &cfg.triage {
        Some(triage) if !partial => {
            let context = Context {
                partial,
                problems: &problems,
                batches: &batches,
                run_dir: Some(&run_dir),
                not_checked: &not_checked,
                cost: Some(&cost),
            };
            let site = triage::Site {
                build,
                base: &run_dir,
                gradle_args: &cfg.gradle_args,
                invocation_timeout: Some(timeout),
                verbose: cfg.verbose,
            };
            triage_after(&mut report, triage, &site, &context, reporter)
        }
        _ => None,
    };
    Ok(LocalOutcome::Ran(Box::new(RunRecord {
        report,
        run_dir,
        planned: plan.commands.len(),
        runs,
        took,
        partial,
        batches,
        problems,
        below_plan,
        triage: triaged,
        not_checked,
        cost,
    })))
}

/// The triage after the run, in its folder. The run's verdict stands whatever triage does:
/// a triage that cannot start or breaks off is reported, and the report is
/// kept without it.
fn triage_after(
    report: &mut Report,
    triage: &crate::triage::TriageConfig,
    site: &triage::Site<'_>,
    context: &Context<'_>,
    reporter: &dyn Reporter,
) -> Option<crate::triage::TriageTotals> {
    let keep = |r: &Report| reporter.before_triage(r, context, site.base);
    triage::after_run(report, triage, site, &keep).unwrap_or_else(|e| {
        say!("gradle-flaky: triage: {e}");
        None
    })
}

/// The daemon policy of this run; a command that asks for `--daemon` when
/// isolated is refused before anything runs.
fn isolation(commands: &[GradleCommand], isolate: bool, run_dir: &Path) -> Result<Isolation> {
    let invocations = commands.iter().map(|c| c.rest_loops.max(1)).sum();
    let (isolation, note) = Isolation::choose(isolate, invocations, &run_dir.join("daemon"));
    if let Some(note) = note {
        say!("gradle-flaky: note: {note}");
    }
    for command in commands {
        isolation.apply(&command.argv)?;
    }
    Ok(isolation)
}
