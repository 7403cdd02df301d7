//! The local run as a use case, in three steps: `prepare` (the selected tests
//! planned as the settings say, with the durations known), `execute` (every
//! batch run on this machine through the repetition engine, under one run
//! guard), `assess` (the run folder's XML analyzed, each batch judged, the run
//! compared against its plan, then, when asked, its failures triaged). It
//! returns what ran, what it proved and the exit status it earns.
//!
//! Its progress (notes, the status line, triage's lines) goes to stderr as it
//! runs; the final report is the caller's to render and keep, through a
//! [`Reporter`].

pub(crate) mod cost;
pub(crate) mod folder;
mod judge;
mod outcome;
mod planned;
mod selected;
pub(crate) mod triage;

pub(crate) use outcome::{observed, LocalOutcome, RunRecord};
pub(crate) use selected::tests as selected_tests;

use crate::analyze::model::outcome::JobPayload;
use crate::analyze::read::reproduce::Rerun;
use crate::analyze::rules::verdict;
use crate::analyze::{AnalyzeOptions, Report};
use crate::domain::{ClassifiedTest, Unresolved};
use crate::durations;
use crate::layout::Build;
use crate::plan::{self, Plan, PlanContext};
use crate::process;
use crate::run::engine::Replan;
use crate::run::guard::RunGuard;
use crate::run::local::{self as runner, Batch, BatchRun, Options};
use crate::run::outcomes::Scripts;
use crate::run::progress::Progress;
use crate::select::Selection;
use crate::settings::RunSettings;
use crate::terminal::visible_lines;
use crate::{note, tell, warning, Result};
use folder::RunFolder;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// How a local run goes.
#[derive(Clone, Debug)]
pub struct LocalRunConfig {
    pub settings: RunSettings,
    pub gradle_args: Vec<String>,
    pub verbose: bool,
    /// Gradle never on the user's daemon (see `process::Isolation`).
    pub isolate: bool,
    /// Replay the failing tests after the run.
    pub triage: Option<crate::triage::TriageConfig>,
}

/// What the caller shows and keeps of the report while the run goes on.
pub(crate) trait Reporter {
    /// The run's reports were read: tell of those that could not be.
    fn read(&self, report: &Report);
    /// Keeps the report before triage replays anything, where a Ctrl-C cannot
    /// take it: below `base` (the run folder), and wherever the caller keeps
    /// reports. Returns the copy below `base`.
    fn before_triage(&self, report: &Report, base: &Path) -> Result<PathBuf>;
}

/// Runs the selected tests of `build` (the build with the layout they were
/// classified through). Call `process::supervise` first, before the
/// selection reads the layout, so that a signal stops Gradle in order.
pub(crate) fn run(
    build: &Build,
    selection: Selection,
    cfg: &LocalRunConfig,
    reporter: &dyn Reporter,
) -> Result<LocalOutcome> {
    let (tests, not_checked) = selected::tests(selection)?;
    if tests.is_empty() {
        return Ok(LocalOutcome::NothingSelected(not_checked));
    }
    let prepared = prepare(build, &tests, cfg)?;
    let executed = execute(build, &prepared, cfg)?;
    Ok(assess(
        build,
        &prepared,
        executed,
        not_checked,
        cfg,
        reporter,
    ))
}

/// The plan of a local run, and what it was planned with.
pub(crate) struct Prepared {
    pub(crate) ctx: PlanContext,
    pub(crate) plan: Plan,
}

/// Plans `tests` as the settings say (`plan::for_run`, which `plan` shows),
/// with the durations known, and says what it noted.
pub(crate) fn prepare(
    build: &Build,
    tests: &[ClassifiedTest],
    cfg: &LocalRunConfig,
) -> Result<Prepared> {
    let (prepared, durations) = plan_for(build, tests, cfg)?;
    for note in &prepared.plan.notes {
        note!("{}", visible_lines(note, "    "));
    }
    tell!("durations: {durations}");
    Ok(prepared)
}

/// Plans `tests` as [`prepare`] does, saying nothing; with where the
/// durations came from.
pub(crate) fn plan_for(
    build: &Build,
    tests: &[ClassifiedTest],
    cfg: &LocalRunConfig,
) -> Result<(Prepared, String)> {
    let settings = &cfg.settings;
    let (ctx, durations) = PlanContext::for_run(build, &cfg.gradle_args, settings, tests)?;
    let mut plan = plan::for_run(
        tests,
        settings,
        Some(settings.batch_timeout),
        &ctx,
        &durations,
    );
    if let Some(layout) = &build.layout {
        layout.note_heap_dumps(&mut plan.commands);
    }
    Ok((Prepared { ctx, plan }, durations.source.describe()))
}

/// What the batches did, and the guard of their run (triage runs under it too).
pub(crate) struct Executed {
    pub(crate) guard: RunGuard,
    pub(crate) run_dir: PathBuf,
    pub(crate) runs: Vec<BatchRun>,
    pub(crate) took: Duration,
    pub(crate) partial: bool,
}

/// Runs every batch of the plan here, in a run folder of its own, under one
/// run guard; records what was measured for the next run's plan.
fn execute(build: &Build, prepared: &Prepared, cfg: &LocalRunConfig) -> Result<Executed> {
    let invocations = prepared.plan.commands.iter().map(|c| c.rest_loops()).sum();
    let (run_dir, guard) = start(&build.root, cfg.isolate, invocations)?;
    execute_in(build, prepared, cfg, guard, run_dir)
}

/// A new run folder in the build at `root`, and the guard of a run of about
/// `invocations` Gradle invocations in it.
pub(crate) fn start(root: &Path, isolate: bool, invocations: u32) -> Result<(PathBuf, RunGuard)> {
    let run_dir = runner::create_run_dir(root)?;
    let guard = RunGuard::start(isolate, invocations, &run_dir)?;
    Ok((run_dir, guard))
}

/// Runs every batch of the plan in `build`, in `run_dir` under `guard`, and
/// records what was measured for the next run's plan.
pub(crate) fn execute_in(
    build: &Build,
    prepared: &Prepared,
    cfg: &LocalRunConfig,
    guard: RunGuard,
    run_dir: PathBuf,
) -> Result<Executed> {
    let project_dir = build.root.as_path();
    tell!(
        "{} batch(es); reports and logs of this run: {}",
        prepared.plan.commands.len(),
        run_dir.display()
    );
    let (runs, took) = run_batches(project_dir, prepared, cfg, &guard, &run_dir)?;
    // Every run records what it measured, for the next run's plan.
    let costs = runner::in_jvm_costs(&runs, prepared.ctx.commit.as_deref());
    if let Err(e) = durations::store::record(project_dir, &run_dir, &costs) {
        warning!("the measured durations were not recorded: {e}");
    }
    Ok(Executed {
        guard,
        run_dir,
        runs,
        took,
        partial: process::interrupted(),
    })
}

/// Runs every batch of the plan in the build at `project_dir` under
/// `guard`, each batch's reports and log in `dest`; what they did and the
/// time they took. A command that asks for `--daemon` when isolated is
/// refused before anything runs.
pub(crate) fn run_batches(
    project_dir: &Path,
    prepared: &Prepared,
    cfg: &LocalRunConfig,
    guard: &RunGuard,
    dest: &Path,
) -> Result<(Vec<BatchRun>, Duration)> {
    let plan = &prepared.plan;
    for command in &plan.commands {
        guard.check(&command.argv())?;
    }
    let batches: Vec<Batch<'_>> = plan
        .commands
        .iter()
        .zip(&plan.policies)
        .map(|(command, policy)| Batch {
            command,
            policy: policy.clone(),
        })
        .collect();
    let started = Instant::now();
    let runs = runner::run_all(
        &batches,
        &Options {
            project_dir,
            run_dir: dest,
            verbose: cfg.verbose,
            guard,
            replan: Some(Replan {
                batching: &cfg.settings.batching,
                ctx: &prepared.ctx,
            }),
        },
        &Progress::new(std::io::stderr().is_terminal() && !cfg.verbose),
    );
    Ok((runs, started.elapsed()))
}

/// A run's reports analyzed: the report of the XML below `dir`, each batch
/// judged by the job-outcome rules, the run against its plan.
pub(crate) struct Analyzed {
    pub(crate) report: Report,
    pub(crate) batches: Vec<JobPayload>,
    pub(crate) problems: Vec<String>,
    pub(crate) below_plan: bool,
    /// What the run folder records, for `analyze RUN_DIR`.
    pub(crate) folder: RunFolder,
}

/// Analyzes what the batches `runs` of `prepared` (run in the build at
/// `project_dir`) left below `dir`, as [`assess`] does.
pub(crate) fn analyze_runs(
    build: &Build,
    project_dir: &Path,
    prepared: &Prepared,
    runs: &[BatchRun],
    dir: &Path,
    cfg: &LocalRunConfig,
) -> Analyzed {
    let timeout = cfg.settings.batch_timeout;
    // The build's projects, reproduce lines that run Gradle as the run did,
    // each case counted in an in-JVM batch's reports.
    let options = AnalyzeOptions {
        project_paths: build.project_paths(),
        rerun: rerun(build, prepared, cfg),
        instances_once: true,
        every_instance_below: runner::repeated_in_jvm(runs),
        task_context_below: runner::whole_task_dirs(runs),
        planned: true,
        ..AnalyzeOptions::default()
    };
    let folder = planned::folder(options, &prepared.plan.commands, runs, timeout);
    let (report, below_plan) = folder.report_of(dir);
    if below_plan {
        tell!(
            "selected tests ran fewer times than planned: their results prove less \
             than planned (listed in the report under \"Ran fewer times than planned\")"
        );
    }
    let (batches, problems) =
        judge::batches(runs, &folder.planned, project_dir, &folder.options, timeout);
    Analyzed {
        report,
        batches,
        problems,
        below_plan,
        folder,
    }
}

/// Reproduce lines run Gradle as this run did: its program, then the
/// arguments the run passed to every invocation (`-- --offline -P…`).
fn rerun(build: &Build, prepared: &Prepared, cfg: &LocalRunConfig) -> Rerun {
    Rerun {
        gradle: build
            .gradle
            .iter()
            .chain(&cfg.gradle_args)
            .cloned()
            .collect(),
        forcing: prepared.ctx.forcing(),
    }
}

/// The run's report and verdicts: its XML analyzed, each batch judged by the
/// job-outcome rules, the run against its plan, its cost; then its failures
/// triaged when asked (the run's verdict stands whatever triage does).
pub(crate) fn assess(
    build: &Build,
    prepared: &Prepared,
    executed: Executed,
    not_checked: Vec<Unresolved>,
    cfg: &LocalRunConfig,
    reporter: &dyn Reporter,
) -> LocalOutcome {
    let commands = &prepared.plan.commands;
    let Executed {
        guard,
        run_dir,
        runs,
        took,
        partial,
    } = executed;
    let timeout = cfg.settings.batch_timeout;
    let Analyzed {
        mut report,
        batches,
        problems,
        below_plan,
        mut folder,
    } = analyze_runs(build, &build.root, prepared, &runs, &run_dir, cfg);
    reporter.read(&report);
    remember_drift(&build.root, prepared.ctx.commit.as_deref(), &report);
    let cost = cost::of(&report, commands, &runs, took);
    folder.partial = partial;
    folder.not_checked = not_checked;
    folder.batches = batches;
    folder.problems = problems;
    folder.cost = Some(cost);
    folder.inherited_jvm_options = guard.inherited_jvm_options();
    if let Err(e) = folder.write(&run_dir) {
        warning!("`analyze` of the run folder will not read it as this run did: {e}");
    }
    report.around = folder.around();
    verdict::settle(&mut report);
    let rerun = rerun(build, prepared, cfg);
    match Scripts::keep_members_script(&build.root) {
        Ok(script) => planned::reproduce_members(&mut report, commands, &script, &rerun),
        Err(e) => warning!("suite members' reproduce lines are left out: {e}"),
    }
    let triaged = match &cfg.triage {
        Some(triage) if !partial => {
            let site = triage::TriageSite {
                build,
                base: &run_dir,
                gradle_args: &cfg.gradle_args,
                invocation_timeout: Some(timeout),
                verbose: cfg.verbose,
                guard: &guard,
            };
            // The run's verdict stands whatever triage does: a triage that
            // cannot start or breaks off is reported, the report kept without it.
            let keep = |r: &Report| reporter.before_triage(r, site.base);
            triage::after_run(&mut report, triage, &site, &keep).unwrap_or_else(|e| {
                tell!("triage: {e}");
                None
            })
        }
        _ => None,
    };
    LocalOutcome::Ran(Box::new(RunRecord {
        report,
        run_dir,
        planned: commands.len(),
        runs,
        took,
        below_plan,
        triage: triaged,
    }))
}

/// Records the classes the report warned as leaking state by themselves, for
/// the next run's plan on `commit` (`auto` starts them on Gradle runs), and
/// says so; a class repeated in one JVM without a warning is forgotten.
fn remember_drift(root: &Path, commit: Option<&str>, report: &Report) {
    let drift = durations::Drift::of(report, commit);
    for class in drift.warned.keys() {
        tell!(
            "{} accumulates state in one JVM: its next runs on this commit run each execution \
             first in a fresh test JVM (--repetition in-jvm samples a few JVMs again)",
            crate::terminal::visible(class)
        );
    }
    if let Err(e) = durations::store::record_drift(root, &drift) {
        warning!("what the run found of its classes' state was not recorded: {e}");
    }
}

#[cfg(test)]
mod tests {
    //! The use case's steps over a stand-in for Gradle (`run::stand_in`);
    //! tests/integration runs `local` on real Gradle.
    use super::*;
    use crate::domain::testing::unit;
    use crate::layout::LayoutRead;
    use crate::settings::RunMode;
    use crate::Exit;

    /// Keeps nothing while the run goes on.
    struct Quiet;

    impl Reporter for Quiet {
        fn read(&self, _: &Report) {}
        fn before_triage(&self, _: &Report, base: &Path) -> Result<PathBuf> {
            Ok(base.to_path_buf())
        }
    }

    fn build() -> (tempfile::TempDir, Build) {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let script = crate::run::stand_in::write(&root);
        let build = Build {
            gradle: crate::run::stand_in::program(&script),
            root,
            gradle_found: true,
            layout: None,
            reading: LayoutRead {
                isolate: false,
                timeout: Duration::from_secs(60),
            },
        };
        (dir, build)
    }

    fn config(iterations: u32) -> LocalRunConfig {
        let mut settings = RunSettings::of(crate::domain::BatchingConfig {
            unit_iters: iterations,
            ..Default::default()
        });
        settings.batch_timeout = Duration::from_secs(60);
        LocalRunConfig {
            settings,
            gradle_args: Vec::new(),
            verbose: false,
            isolate: false,
            triage: None,
        }
    }

    #[test]
    fn prepare_plans_as_the_settings_say() {
        let (_dir, build) = build();
        let tests = [unit("a.ATests")];
        let p = prepare(&build, &tests, &config(20)).unwrap();
        assert_eq!(p.plan.commands.len(), 1);
        assert_eq!(p.plan.policies[0].stop_on_proof, [true], "a changed test");
        assert!(!p.plan.policies[0].open_ended);
        let mut cfg = config(20);
        cfg.settings.mode = RunMode::UntilFail(Duration::from_secs(30));
        let p = prepare(&build, &tests, &cfg).unwrap();
        assert!(p.plan.policies[0].open_ended);
        assert_eq!(p.plan.policies[0].budget, Some(Duration::from_secs(30)));
    }

    /// A flaky class is proven and leaves its batch; the stable one gets its
    /// count; the run's report, cost and exit say so.
    #[test]
    fn execute_and_assess_a_run_of_a_flaky_and_a_stable_class() {
        let (_dir, build) = build();
        std::fs::write(build.root.join("fails-a.FlakyTests"), "").unwrap();
        let tests = [unit("a.FlakyTests"), unit("a.StableTests")];
        let cfg = config(20);
        let prepared = prepare(&build, &tests, &cfg).unwrap();
        let executed = execute(&build, &prepared, &cfg).unwrap();
        assert!(executed
            .run_dir
            .starts_with(build.root.join(".gradle/gradle-flaky/runs")));
        assert_eq!(executed.runs.len(), 1);
        let outcome = assess(&build, &prepared, executed, Vec::new(), &cfg, &Quiet);
        let LocalOutcome::Ran(record) = &outcome else {
            panic!("nothing ran");
        };
        let row = |class: &str| {
            let t = record.report.tests.iter().find(|t| t.class == class);
            t.unwrap_or_else(|| panic!("no row of {class}"))
        };
        assert!(row("a.FlakyTests").failures > 0 && row("a.FlakyTests").passes > 0);
        assert_eq!(
            row("a.FlakyTests").runs,
            2,
            "proven in its first chunk of 2"
        );
        assert_eq!(row("a.StableTests").runs, 20);
        assert_eq!(record.report.around.cost.as_ref().unwrap().proven.len(), 1);
        assert_eq!(
            record.report.around.cost.as_ref().unwrap().iterations_saved,
            18
        );
        assert_eq!(outcome.exit(true), Exit::TestFailures);
    }
}
