//! The one place where clap's structs become plain configs: everything below
//! `commands/` takes these, never a clap type, and no command builds another
//! command's arguments.

use crate::buildkite::AgentConfig;
use crate::ci::blocking::Blocking;
use crate::cli::{
    AgentArgs, BatchingArgs, BlockingArgs, BudgetArgs, ChoiceArgs, ContextArg, GithubAnalyzeArgs,
    GithubRunArgs, GlobalArgs, LearnedArgs, LocalArgs, PrArgs, RecordArgs, RepetitionArg,
    ReportArgs, ReportFormat, RunArgs, SelectionArgs, Target, TriageArgs, TriageBudgetArgs,
    TriageCommandArgs, Trigger, WorkflowArgs,
};
use crate::domain::{BatchingConfig, RepetitionMode, TestKind};
use crate::github::batch::RunBatch;
use crate::github::request::{BatchingOptions, WorkflowRequest};
use crate::github::summary::AnalyzeArtifacts;
use crate::layout::{Build, LayoutRead, NotARoot};
use crate::plan::Evidence;
use crate::select::tasks::TaskChoice;
use crate::select::Policy;
use crate::settings::{ContextMode, RunMode, RunSettings, StopOnFlaky};
use crate::stats::executions_for;
use crate::{triage, vars};
use crate::{Error, Result};
use std::path::{Path, PathBuf};

/// The most executions `--detect-rate` may ask for: beyond this the rate is a typo.
pub const MAX_EXECUTIONS: u64 = 1_000_000;

/// Validated batching knobs and how the plan states its evidence.
#[derive(Clone, Debug, PartialEq)]
pub struct Batching {
    pub config: BatchingConfig,
    pub evidence: Evidence,
}

/// What to select (the SELECTION options, or what `pr` and `manual` ask for).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SelectionConfig {
    /// Explicit specs, before splitting on commas and newlines.
    pub tests: Vec<String>,
    pub changed: bool,
    pub unmuted: bool,
    pub base: Option<String>,
    /// Relative to the build root.
    pub muted_file: PathBuf,
    pub refresh_layout: bool,
    /// Which tasks and subclasses run a class.
    pub choice: Policy,
}

/// Where a report goes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReportOutput {
    pub format: ReportFormat,
    /// Also written here.
    pub file: Option<PathBuf>,
    /// The merged JUnit XML.
    pub junit: Option<PathBuf>,
}

/// Everything `local` needs (also what `pr --target local` runs).
#[derive(Clone, Debug)]
pub struct LocalConfig {
    pub selection: SelectionConfig,
    pub run: crate::local::LocalRunConfig,
    pub output: ReportOutput,
    /// Also run on this commit and compare (`--compare REF`).
    pub compare: Option<crate::compare::CompareConfig>,
    /// Ledgers read besides the build's own (`--ledger`).
    pub ledgers: Vec<PathBuf>,
}

/// Everything `triage` needs.
#[derive(Clone, Debug)]
pub struct TriageCommandConfig {
    /// The run to triage; `None`: the newest run folder of the build.
    pub run_dir: Option<PathBuf>,
    pub triage: triage::TriageConfig,
    pub output: ReportOutput,
    pub gradle_args: Vec<String>,
    pub verbose: bool,
}

/// The build the global options name, not yet read: its canonical root and
/// the Gradle program. `gradle_required`: a missing Gradle is an error (to run
/// something); otherwise a plan still names `gradle`.
pub fn build(global: &GlobalArgs, gradle_required: bool) -> Result<Build> {
    let root = build_root(&global.project_dir)?;
    let (gradle, gradle_found) = match crate::layout::find_gradle(&root, global.gradle.as_deref()) {
        Ok(program) => (program, true),
        Err(Error::GradleNotFound(_)) if !gradle_required => (vec!["gradle".into()], false),
        Err(e) => return Err(e),
    };
    Ok(Build {
        root,
        gradle,
        gradle_found,
        layout: None,
        reading: LayoutRead {
            isolate: global.isolate,
            timeout: global.layout_timeout,
        },
    })
}

/// The build root `--project-dir` names; anything else is a usage error
/// that names the flag and, when there is one, the build root above.
fn build_root(dir: &Path) -> Result<PathBuf> {
    let what = format!("--project-dir ({})", vars::PROJECT_DIR);
    let shown = if dir == Path::new(".") {
        format!(
            "the current directory ({})",
            std::env::current_dir().unwrap_or_default().display()
        )
    } else {
        dir.display().to_string()
    };
    let message = match crate::layout::build_root(dir) {
        Ok(root) => return Ok(root),
        Err(NotARoot::Unreadable(e)) if e.kind() == std::io::ErrorKind::NotFound => {
            format!("{shown} does not exist; pass the root of the Gradle build (where settings.gradle is)")
        }
        Err(NotARoot::Unreadable(e)) => format!("{shown} cannot be read: {e}"),
        Err(NotARoot::NotADirectory) => format!("{shown} is not a directory"),
        Err(NotARoot::Inside(root)) => format!(
            "{shown} is inside the Gradle build rooted at {root}: it has no settings.gradle \
             of its own; run from the root or pass --project-dir {quoted} (a build of its own \
             needs a settings.gradle)",
            root = root.display(),
            quoted = crate::shell::quote(&root.to_string_lossy()),
        ),
        Err(NotARoot::NoBuild) => format!(
            "{shown} is not a Gradle build: no settings.gradle(.kts) or build.gradle(.kts) \
             there or in any directory above; run from the build's root or pass --project-dir DIR"
        ),
    };
    Err(Error::input(what, message))
}

pub fn selection(args: &SelectionArgs) -> SelectionConfig {
    SelectionConfig {
        tests: args.tests.clone(),
        changed: args.changed,
        unmuted: args.unmuted,
        base: args.base.clone(),
        muted_file: args.muted_file.clone(),
        refresh_layout: args.refresh_layout,
        choice: choice(&args.choice),
    }
}

/// `--task-cap`, `--subclass-cap`, `--allow-host-mutating-tasks`.
pub fn choice(args: &ChoiceArgs) -> Policy {
    Policy {
        tasks: TaskChoice {
            cap: args.task_cap as usize,
            allow_host_mutating: args.allow_host_mutating_tasks,
        },
        subclass_cap: args.subclass_cap as usize,
    }
}

/// What `pr` selects: the branch's changed tests and unmutes.
pub fn pr_selection(args: &PrArgs) -> SelectionConfig {
    SelectionConfig {
        tests: Vec::new(),
        changed: true,
        unmuted: true,
        base: args.base.clone(),
        muted_file: args.muted_file.clone(),
        refresh_layout: false,
        choice: choice(&args.choice),
    }
}

/// What `manual` selects: the tests in `$FLAKINESS_CLASSES`.
pub fn manual_selection(classes: String, args: &ChoiceArgs) -> SelectionConfig {
    SelectionConfig {
        tests: vec![classes],
        changed: false,
        unmuted: false,
        base: None,
        muted_file: PathBuf::from(crate::cli::DEFAULT_MUTED_FILE),
        refresh_layout: false,
        choice: choice(args),
    }
}

/// `record`: where its reports are, what it is told of the build, and
/// where its lines go.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct RecordConfig {
    /// The folders to read (the project dir when none is named).
    pub dirs: Vec<PathBuf>,
    pub project_dir: PathBuf,
    pub given: crate::ledger::keep::Given,
    pub destination: crate::ledger::Destination,
    /// The build's own ledger rotates within its cap; a folder named is kept whole.
    pub limits: crate::ledger::Limits,
}

pub(crate) fn record(global: &GlobalArgs, args: &RecordArgs) -> RecordConfig {
    let project_dir = global.project_dir.clone();
    let destination = match &args.ledger {
        Some(path) => crate::ledger::Destination::of(path),
        // On CI the run's own file, kept as its artifact; here the build's ledger.
        None => match crate::ledger::keep::ci_origin() {
            crate::ledger::Origin::Local => {
                crate::ledger::Destination::Folder(crate::ledger::local_dir(&project_dir))
            }
            _ => crate::ledger::Destination::File(crate::ledger::ci_file(&project_dir)),
        },
    };
    RecordConfig {
        dirs: match args.dirs.is_empty() {
            true => vec![project_dir.clone()],
            false => args.dirs.clone(),
        },
        project_dir,
        given: crate::ledger::keep::Given {
            commit: args.commit.clone(),
            branch: args.branch.clone(),
            run_id: args.run_id.clone(),
        },
        destination,
        limits: match args.ledger {
            Some(_) => crate::ledger::Limits::KEPT,
            None => crate::ledger::Limits::LOCAL,
        },
    }
}

pub fn report_output(args: &ReportArgs) -> ReportOutput {
    ReportOutput {
        format: args.format,
        file: args.report.clone(),
        junit: args.junit.clone(),
    }
}

pub fn local(global: &GlobalArgs, args: &LocalArgs) -> Result<LocalConfig> {
    let LocalArgs {
        selection: selection_args,
        batching,
        report,
        triage: triage_args,
        run,
        compare,
        gradle_args,
    } = args;
    let (settings, _) = run_settings(batching, run)?;
    Ok(LocalConfig {
        ledgers: compare.ledger.clone(),
        compare: compare
            .compare
            .as_ref()
            .map(|reference| crate::compare::CompareConfig {
                reference: reference.clone(),
                looks: compare.looks.unwrap_or(crate::compare::DEFAULT_LOOKS),
                size_after: compare.size_after,
                ledgers: compare.ledger.clone(),
                muted_file: selection_args.muted_file.clone(),
            }),
        selection: selection(selection_args),
        run: crate::local::LocalRunConfig {
            settings,
            gradle_args: gradle_args.clone(),
            verbose: global.verbose,
            isolate: global.isolate,
            triage: triage(triage_args),
        },
        output: report_output(report),
    })
}

/// `bisect`: `local`'s settings for its selection and batching, and the search's.
pub fn bisect(
    global: &GlobalArgs,
    args: &crate::cli::BisectArgs,
) -> Result<(LocalConfig, crate::bisect::BisectConfig)> {
    let crate::cli::BisectArgs {
        good,
        bad,
        max_runs,
        error_rate,
        selection,
        batching,
        ledger,
        gradle_args,
    } = args;
    let local = local(
        global,
        &LocalArgs {
            selection: selection.clone(),
            batching: batching.clone(),
            report: Default::default(),
            triage: Default::default(),
            run: Default::default(),
            compare: Default::default(),
            gradle_args: gradle_args.clone(),
        },
    )?;
    let bisect = crate::bisect::BisectConfig {
        good: good.clone(),
        bad: bad.clone(),
        max_runs: *max_runs,
        alpha: *error_rate,
        ledgers: ledger.clone(),
    };
    Ok((local, bisect))
}

/// How a run repeats its tests, settled once: the batching options, how its
/// batches end (`--budget`, `--until-fail --for`, else their counts), stop
/// on proof, and the batch limit; with how the plan states its evidence.
pub fn run_settings(
    batching_args: &BatchingArgs,
    run: &RunArgs,
) -> Result<(RunSettings, Evidence)> {
    let RunArgs {
        budget,
        until_fail,
        for_,
        batch_timeout,
    } = run;
    let Batching { config, evidence } = batching(batching_args)?;
    let mode = match (until_fail, for_, batching_args.budget) {
        (true, Some(limit), _) => RunMode::UntilFail(*limit),
        (_, _, Some(budget)) => RunMode::Budget(budget),
        _ => RunMode::Count,
    };
    let mut settings = RunSettings::of(config);
    settings.mode = mode;
    settings.stop_on_flaky = stop_on_flaky(budget);
    if let Some(context) = batching_args.context {
        settings.context = self::context(context);
    }
    if let Some(n) = batching_args.unmute_check {
        settings.unmute_check = n;
    }
    settings.sample_seed = batching_args
        .sample_seed
        .unwrap_or_else(crate::settings::fresh_seed);
    if let Some(limit) = batch_timeout {
        settings.batch_timeout = *limit;
    }
    Ok((settings, evidence))
}

/// `triage [RUN_DIR]`.
pub fn triage_command(global: &GlobalArgs, args: &TriageCommandArgs) -> TriageCommandConfig {
    TriageCommandConfig {
        run_dir: args.run_dir.clone(),
        triage: triage_config(args.replays, &args.budget),
        output: report_output(&args.report),
        gradle_args: args.gradle_args.clone(),
        verbose: global.verbose,
    }
}

/// `--triage N` with its budget; `None` when triage is off (no N, or 0).
pub fn triage(args: &TriageArgs) -> Option<triage::TriageConfig> {
    let replays = args.triage.filter(|n| *n > 0)?;
    Some(triage_config(replays, &args.budget))
}

fn triage_config(replays: u32, budget: &TriageBudgetArgs) -> triage::TriageConfig {
    triage::TriageConfig {
        replays,
        budget: budget
            .triage_budget
            .unwrap_or(triage::TriageConfig::DEFAULT_BUDGET),
        timeout: budget
            .triage_timeout
            .unwrap_or(triage::TriageConfig::DEFAULT_TIMEOUT),
    }
}

/// How a CI target repeats its tests: the batching options, `--budget` the
/// budget of each job (else the job's own limit decides), stop on proof as
/// `--stop-on-flaky` says (by default on for changed tests, as locally).
pub fn ci_settings(args: &BatchingArgs, stop: &BudgetArgs) -> Result<RunSettings> {
    let run = RunArgs {
        budget: stop.clone(),
        ..RunArgs::default()
    };
    run_settings(args, &run).map(|(settings, _)| settings)
}

/// Where a CI plan step finds what earlier runs learned; a build that is
/// no Buildkite build id is refused.
pub fn learned(args: &LearnedArgs) -> Result<crate::ci::learned::Learned> {
    if let Some(build) = args.learned_build.as_deref() {
        if !crate::ci::learned::is_build_id(build) {
            return Err(Error::usage(format!(
                "--learned-build ({}): {:?} is no Buildkite build id (a UUID)",
                crate::vars::LEARNED_BUILD,
                build
            )));
        }
    }
    Ok(crate::ci::learned::Learned {
        dir: args.learned.clone(),
        build: args.learned_build.clone(),
    })
}

/// `pr --target local`: the branch's tests, run as `local` runs them.
pub fn pr_local(global: &GlobalArgs, args: &PrArgs) -> Result<LocalConfig> {
    let run = RunArgs {
        budget: args.budget.clone(),
        until_fail: false,
        for_: None,
        batch_timeout: args.batch_timeout,
    };
    let (settings, _) = run_settings(&args.batching, &run)?;
    // What CI runs learned plans this run too (`--learned`; no build is fetched here).
    let settings = crate::ci::learned::plan_with(&settings, args.learned.learned.as_deref());
    Ok(LocalConfig {
        selection: pr_selection(args),
        run: crate::local::LocalRunConfig {
            settings,
            gradle_args: Vec::new(),
            verbose: global.verbose,
            isolate: global.isolate,
            triage: triage(&args.triage),
        },
        output: report_output(&args.report),
        compare: args
            .compare
            .compare
            .as_ref()
            .map(|reference| crate::compare::CompareConfig {
                reference: reference.clone(),
                looks: crate::compare::DEFAULT_LOOKS,
                size_after: false,
                ledgers: args.ledger.clone(),
                muted_file: args.muted_file.clone(),
            }),
        ledgers: args.ledger.clone(),
    })
}

/// `--stop-on-flaky[=BOOL]`, `--no-stop-on-flaky`, else by each test's origin.
pub fn stop_on_flaky(args: &BudgetArgs) -> StopOnFlaky {
    match (args.no_stop_on_flaky, args.stop_on_flaky) {
        (true, _) | (false, Some(false)) => StopOnFlaky::Off,
        (false, Some(true)) => StopOnFlaky::On,
        (false, None) => StopOnFlaky::ByOrigin,
    }
}

/// `--agent KEY=VALUE`, `--step-timeout`, `--agent-bin`, `--group`.
pub fn agent(args: &AgentArgs) -> Result<AgentConfig> {
    let agents = args
        .agents
        .iter()
        .filter(|a| !a.trim().is_empty())
        .map(|a| match a.split_once('=') {
            Some((k, v)) if !k.trim().is_empty() && !k.contains('$') => {
                Ok((k.trim().to_string(), v.trim().to_string()))
            }
            _ => Err(Error::input(
                format!("--agent {a}"),
                "expected KEY=VALUE, e.g. queue=flaky-tests",
            )),
        })
        .collect::<Result<_>>()?;
    if args.step_timeout < 1 {
        return Err(Error::usage("--step-timeout must be at least 1 minute"));
    }
    if args.agent_bin.trim().is_empty() {
        return Err(Error::usage("--agent-bin must not be empty"));
    }
    Ok(AgentConfig {
        agents,
        step_timeout_min: args.step_timeout,
        bin: args.agent_bin.trim().to_string(),
        group: args.group.clone(),
        blocking: blocking(&args.blocking)?,
    })
}

/// Opt-in blocking, validated as Elasticsearch validates it.
pub fn blocking(args: &BlockingArgs) -> Result<Blocking> {
    Blocking::new(
        args.blocking_labels.as_deref(),
        args.proven_exit_code.as_deref(),
    )
}

/// Where `pr` (or `manual`, which has no local run) hands its tests: the
/// flag, else the CI this runs in (`$GITHUB_ACTIONS`, then `$BUILDKITE`),
/// else here (`pr`) or Buildkite (`manual`).
pub fn target(flag: Option<Target>, manual: bool) -> Result<Target> {
    let in_ci = |name: &str| std::env::var_os(name).is_some_and(|v| !v.is_empty());
    let target = flag.unwrap_or(if in_ci("GITHUB_ACTIONS") {
        Target::Github
    } else if in_ci("BUILDKITE") || manual {
        Target::Buildkite
    } else {
        Target::Local
    });
    if manual && target == Target::Local {
        return Err(Error::input(
            format!("--target local ({})", vars::TARGET),
            "`manual` hands its tests to a CI (buildkite or github); to run them here use \
             `gradle-flaky local` with the same tests",
        ));
    }
    Ok(target)
}

/// `github workflow`: the options as the `github` module takes them. The
/// batching options are validated here; `github::request` turns the rest into
/// the workflow's settings.
pub fn github_workflow(global: &GlobalArgs, args: &WorkflowArgs) -> Result<WorkflowRequest> {
    batching(&args.batching)?;
    Ok(WorkflowRequest {
        pull_request: args.triggers.contains(&Trigger::PullRequest),
        manual: args.triggers.contains(&Trigger::Manual),
        batching: forwarded(&args.batching),
        muted_file: (args.muted_file != Path::new(crate::cli::DEFAULT_MUTED_FILE))
            .then(|| args.muted_file.clone()),
        gradle: global.gradle.clone(),
        project_dir: (global.project_dir != Path::new(".")).then(|| global.project_dir.clone()),
        runs_on: args.runs_on.clone(),
        java: args.java.clone(),
        java_distribution: args.java_distribution.clone(),
        gradle_version: args.gradle_version.clone(),
        install: args.install.clone(),
        job_timeout_min: args.job_timeout,
        exit_code: args.exit_code,
        blocking: blocking(&args.blocking)?,
        ledger: args.ledger.clone(),
        compare: args.compare.clone(),
    })
}

/// The batching options the workflow forwards to its plan step, as given.
/// Every option is named here (no `..`): a new one does not compile until
/// it is forwarded.
fn forwarded(args: &BatchingArgs) -> BatchingOptions {
    let BatchingArgs {
        iters,
        unit_iters,
        integ_iters,
        rest_iters,
        suite_timeout,
        repetition: how,
        caps,
        detect_rate,
        confidence,
        budget,
        context: wanted_context,
        sample_seed,
        unmute_check,
        durations,
        max_shards,
    } = args;
    BatchingOptions {
        iters: *iters,
        unit_iters: *unit_iters,
        integ_iters: *integ_iters,
        rest_iters: *rest_iters,
        suite_timeout: *suite_timeout,
        repetition: (*how != RepetitionArg::Auto).then(|| repetition(*how)),
        caps: caps.clone(),
        detect_rate: detect_rate.clone(),
        confidence: (*confidence != DEFAULT_CONFIDENCE).then_some(*confidence),
        budget: *budget,
        durations: durations.as_ref().map(|p| p.to_string_lossy().into_owned()),
        max_shards: (*max_shards != crate::domain::DEFAULT_MAX_SHARDS).then_some(*max_shards),
        context: wanted_context
            .map(context)
            .filter(|c| *c != crate::settings::DEFAULT_CONTEXT),
        sample_seed: *sample_seed,
        unmute_check: *unmute_check,
    }
}

/// `github run`.
pub fn github_run(args: &GithubRunArgs) -> RunBatch {
    RunBatch {
        batch: args.batch,
        plan: args.plan.clone(),
        out: args.out.clone(),
        timeout: args.timeout,
    }
}

/// `github analyze`.
pub fn github_analyze(args: &GithubAnalyzeArgs) -> Result<AnalyzeArtifacts> {
    Ok(AnalyzeArtifacts {
        dir: args.dir.clone(),
        outcomes: args.outcomes.clone(),
        sources: args.sources.clone(),
        exit_code: args.exit_code,
        blocking: blocking(&args.blocking)?,
        ledgers: args.ledger.clone(),
    })
}

/// `--confidence`'s default.
const DEFAULT_CONFIDENCE: f64 = 0.95;

/// Turns the BATCHING options into a config. Precedence, most specific first:
/// `--unit-iters`/`--integ-iters`/`--rest-iters`, then `--iters` or `--detect-rate`
/// (not both), then Elasticsearch's defaults.
pub fn batching(args: &BatchingArgs) -> Result<Batching> {
    // Every option is named here (no `..`): a new one does not compile until
    // it is settled.
    let BatchingArgs {
        iters,
        unit_iters,
        integ_iters,
        rest_iters,
        suite_timeout,
        repetition: how,
        caps,
        detect_rate: rate,
        confidence,
        budget: _,  // how a run's batches end: `run_settings`
        context: _, // what runs beside the tests: `run_settings`
        sample_seed: _,
        unmute_check: _,
        durations,
        max_shards,
    } = args;
    let confidence = *confidence;
    if !(confidence > 0.0 && confidence < 1.0) {
        return Err(Error::input(
            "--confidence",
            format!("`{confidence}` must be between 0 and 1, e.g. 0.95"),
        ));
    }
    let detect_rate = rate.as_deref().map(parse_rate).transpose()?;
    let all = match (*iters, detect_rate) {
        (Some(_), Some(_)) => {
            return Err(Error::usage(
                "--iters and --detect-rate both set every kind's iterations: use one of them",
            ))
        }
        (Some(n), None) => Some(n),
        (None, Some(rate)) => Some(sized_iterations(rate, confidence, args)?),
        (None, None) => None,
    };
    let mut config = BatchingConfig::default();
    if let Some(n) = all {
        config.unit_iters = n;
        config.integ_iters = n;
        config.rest_loops = n;
    }
    config.unit_iters = unit_iters.unwrap_or(config.unit_iters);
    config.integ_iters = integ_iters.unwrap_or(config.integ_iters);
    config.rest_loops = rest_iters.unwrap_or(config.rest_loops);
    if let Some(timeout) = suite_timeout {
        config.suite_timeout = *timeout;
    }
    config.repetition = repetition(*how);
    for cap in caps {
        let (kind, n) = parse_cap(cap)?;
        config.caps.insert(kind, n);
    }
    config.durations = durations.clone();
    config.max_shards = *max_shards;
    Ok(Batching {
        config,
        evidence: Evidence {
            confidence,
            detect_rate,
        },
    })
}

/// A failure rate written `0.02` or `2%`.
pub fn parse_rate(s: &str) -> Result<f64> {
    let t = s.trim();
    let (number, scale) = match t.strip_suffix('%') {
        Some(n) => (n.trim(), 100.0),
        None => (t, 1.0),
    };
    let bad = |why: &str| {
        Error::input(
            "--detect-rate",
            format!("`{s}` {why}: write a failure rate such as 0.02 or 2%"),
        )
    };
    let rate = number.parse::<f64>().map_err(|_| bad("is not a number"))? / scale;
    if !(rate > 0.0 && rate < 1.0) {
        return Err(bad("is not between 0 and 100%"));
    }
    Ok(rate)
}

fn sized_iterations(rate: f64, confidence: f64, args: &BatchingArgs) -> Result<u32> {
    let n = executions_for(rate, confidence);
    if n > MAX_EXECUTIONS {
        return Err(Error::input(
            "--detect-rate",
            format!(
                "`{}` needs {n} executions per test at {confidence}; the most is {MAX_EXECUTIONS}: \
                 choose a larger rate",
                args.detect_rate.as_deref().unwrap_or_default()
            ),
        ));
    }
    Ok(n as u32)
}

/// `KIND=N`, N ≥ 1; KIND is one of Elasticsearch's kinds, `test`, or a custom source set.
fn parse_cap(s: &str) -> Result<(TestKind, usize)> {
    let bad = |why: &str| Error::input("--cap", format!("`{s}` {why}: write KIND=N, e.g. unit=5"));
    let (kind, n) = s.split_once('=').ok_or_else(|| bad("has no `=`"))?;
    let kind = kind.trim();
    if kind.is_empty() {
        return Err(bad("names no kind"));
    }
    let n: usize = n
        .trim()
        .parse()
        .map_err(|_| bad("has no whole number after `=`"))?;
    if n == 0 {
        return Err(bad("must allow at least 1 test per batch"));
    }
    Ok((TestKind::parse(kind), n))
}

/// `--context` as the settings take it.
fn context(arg: ContextArg) -> ContextMode {
    match arg {
        ContextArg::Alone => ContextMode::Alone,
        ContextArg::Task => ContextMode::Task,
        ContextArg::Both => ContextMode::Both,
    }
}

/// `--repetition` as the plan takes it.
fn repetition(arg: RepetitionArg) -> RepetitionMode {
    match arg {
        RepetitionArg::Auto => RepetitionMode::Auto,
        RepetitionArg::InJvm => RepetitionMode::InJvm,
        RepetitionArg::GradleRuns => RepetitionMode::GradleRuns,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn args() -> BatchingArgs {
        BatchingArgs {
            confidence: 0.95,
            max_shards: crate::domain::DEFAULT_MAX_SHARDS,
            ..BatchingArgs::default()
        }
    }

    #[test]
    fn defaults_are_the_reference_defaults() {
        let b = batching(&args()).unwrap();
        assert_eq!(b.config, BatchingConfig::default());
        assert_eq!(b.evidence, Evidence::default());
    }

    #[test]
    fn iters_sets_every_kind_and_per_kind_flags_win() {
        let b = batching(&BatchingArgs {
            iters: Some(7),
            integ_iters: Some(3),
            suite_timeout: Some(Duration::from_secs(90)),
            caps: vec!["unit=5".into(), "slowTest = 2".into(), "test=4".into()],
            ..args()
        })
        .unwrap()
        .config;
        assert_eq!((b.unit_iters, b.integ_iters, b.rest_loops), (7, 3, 7));
        assert_eq!(b.suite_timeout, Duration::from_secs(90));
        assert_eq!(
            b.cap(&TestKind::Unit),
            4,
            "`test` is Elasticsearch's name of unit"
        );
        assert_eq!(b.cap(&TestKind::Other("slowTest".into())), 2);
    }

    #[test]
    fn detect_rate_sizes_every_kind_including_rest_loops() {
        for rate in ["0.02", "2%", " 2 % "] {
            let b = batching(&BatchingArgs {
                detect_rate: Some(rate.into()),
                rest_iters: Some(12),
                ..args()
            })
            .unwrap();
            assert_eq!(
                (
                    b.config.unit_iters,
                    b.config.integ_iters,
                    b.config.rest_loops
                ),
                (149, 149, 12)
            );
            assert_eq!(b.evidence.detect_rate, Some(0.02));
        }
        let b = batching(&BatchingArgs {
            detect_rate: Some("10%".into()),
            confidence: 0.99,
            ..args()
        })
        .unwrap();
        assert_eq!(b.config.rest_loops, 44);
    }

    #[test]
    fn bad_values_name_their_flag() {
        let err = |a: BatchingArgs| batching(&a).unwrap_err().to_string();
        for bad in ["2", "0", "abc", "100%", "-1%", ""] {
            let e = err(BatchingArgs {
                detect_rate: Some(bad.into()),
                ..args()
            });
            assert!(e.starts_with("--detect-rate: "), "{e}");
        }
        assert!(err(BatchingArgs {
            detect_rate: Some("1e-9".into()),
            ..args()
        })
        .contains("choose a larger rate"));
        assert!(err(BatchingArgs {
            confidence: 1.0,
            ..args()
        })
        .starts_with("--confidence: "));
        assert!(err(BatchingArgs {
            confidence: f64::NAN,
            ..args()
        })
        .starts_with("--confidence: "));
        for bad in ["unit", "unit=0", "unit=x", "=3", "unit=-1"] {
            let e = err(BatchingArgs {
                caps: vec![bad.into()],
                ..args()
            });
            assert!(e.starts_with("--cap: "), "{e}");
        }
        let e = err(BatchingArgs {
            iters: Some(3),
            detect_rate: Some("2%".into()),
            ..args()
        });
        assert!(e.contains("--iters and --detect-rate"), "{e}");
    }

    #[test]
    fn gradle_comes_from_the_option_then_gradlew_then_path() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("settings.gradle"), "").unwrap();
        let global = |gradle: Option<&str>| GlobalArgs {
            project_dir: dir.path().to_path_buf(),
            gradle: gradle.map(String::from),
            verbose: false,
            isolate: false,
            layout_timeout: crate::layout::DEFAULT_LAYOUT_TIMEOUT,
        };
        let program = |gradle| build(&global(gradle), false).map(|b| b.gradle);
        // Where the machine has a `gradle` on PATH it is found; else it is only named.
        assert_eq!(program(None).unwrap(), ["gradle"]);
        let wrapper = dir.path().join("gradlew");
        std::fs::write(&wrapper, "").unwrap();
        assert_eq!(
            program(None).unwrap(),
            ["gradle"],
            "a gradlew that is not executable is not used"
        );
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&wrapper, std::fs::Permissions::from_mode(0o755)).unwrap();
        assert_eq!(program(None).unwrap(), ["./gradlew"]);
        assert_eq!(
            program(Some("sh '.ci/run gradle.sh' --quiet")).unwrap(),
            ["sh", ".ci/run gradle.sh", "--quiet"]
        );
        for bad in ["", "  ", "'unclosed"] {
            let e = program(Some(bad)).unwrap_err().to_string();
            assert!(e.starts_with("--gradle (FLAKINESS_GRADLE): "), "{e}");
        }
    }

    #[test]
    fn agent_selectors_must_be_key_value() {
        let mut args = AgentArgs {
            step_timeout: 30,
            agent_bin: "gf".into(),
            group: "g".into(),
            ..Default::default()
        };
        args.agents = vec!["queue=x".into(), " os = linux ".into()];
        let c = agent(&args).unwrap();
        assert_eq!(
            c.agents,
            [
                ("queue".to_string(), "x".to_string()),
                ("os".into(), "linux".into())
            ]
        );
        assert_eq!(c.inner_timeout_min(), 28);
        args.agents = vec!["queue".into()];
        assert!(agent(&args).is_err());
        args.agents = vec![];
        args.step_timeout = 2;
        assert_eq!(agent(&args).unwrap().inner_timeout_min(), 1);
    }
}
