//! `gradle-flaky buildkite upload|wrap|analyze` (and the hidden `precompile`):
//! the Buildkite edge. Pipelines are built by `run::buildkite`, jobs are
//! supervised by `run::wrap`, outcomes derived by `run::buildkite::report`.

use super::{options, selection};
use crate::analyze::discover::default_project_path;
use crate::analyze::outcome::JobPayload;
use crate::analyze::render::{self, MarkdownOptions};
use crate::analyze::{self, AnalyzeOptions, ProjectResolver};
use crate::cli::{
    AgentArgs, BatchingArgs, BuildkiteAnalyzeArgs, BuildkiteUploadArgs, GlobalArgs, PrecompileArgs,
    SelectionArgs, WrapArgs,
};
use crate::domain::{Command, Origin, Unresolved};

use crate::plan::render::visible;
use crate::plan::{self, GradleVersion, PlanContext};
use crate::run::buildkite::agent::fit_annotation;
use crate::run::buildkite::agent::Agent;
use crate::run::buildkite::{
    self, report, AgentConfig, JobSpec, PipelineInput, ReportContext, BATCH_ENV, OUTCOMES_FILE,
    PRECOMPILE_ENV, PRECOMPILE_FILE, REPORT_ENV, SKIPPED_FILE, STATUS_DIR, STATUS_GLOB, XML_GLOB,
};
use crate::run::wrap::{self, JobEnv, Status};
use crate::select::Selection;
use crate::{Error, Exit, Result};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::SystemTime;

fn env(name: &str) -> Option<String> {
    std::env::var(name).ok()
}

/// How this binary is invoked again (for REST loops inside a batch).
fn self_exe() -> String {
    std::env::current_exe()
        .map(|p| p.to_string_lossy().into_owned())
        .unwrap_or_else(|_| "gradle-flaky".into())
}

/// `buildkite wrap`: run, record, annotate a failure, and exit 0 whatever happened.
/// Only a usage error (before anything ran) exits non-zero.
pub fn wrap(args: &WrapArgs) -> Result<Exit> {
    let job = JobEnv::from_env(env);
    let (kind, argv, dir, record) = if args.from_env {
        let name = format!("{BATCH_ENV}{}", job.parallel_job.unwrap_or(0));
        let spec = JobSpec::from_env_value(&name, env(&name))?;
        (
            spec.kind.clone(),
            spec.argv_to_run(&self_exe())?,
            spec.dir,
            true,
        )
    } else {
        (
            args.kind.clone(),
            args.command.clone(),
            None,
            !args.kind.is_empty(),
        )
    };
    eprintln!(">>> {}", shell_words::join(&argv));
    let started = SystemTime::now();
    let finished = wrap::supervise(&argv, dir.as_deref(), args.timeout);
    eprintln!(
        ">>> rc {} after {}s",
        finished.rc,
        finished.duration.as_secs()
    );

    let context = if job.step_key.is_empty() {
        "flakiness-detection"
    } else {
        &job.step_key
    };
    if let Some(message) = wrap::failure_message(&finished, args.timeout) {
        let body = format!(
            "[{}] (job {}) {message} - see job log",
            job.label, job.job_id
        );
        if let Err(e) =
            Agent::default().annotate(&body, "warning", &format!("{context}-failures"), true)
        {
            eprintln!("gradle-flaky: could not annotate: {e}");
        }
    }
    if record {
        // A JVM that ran out of heap fails its Gradle run, so clean runs skip the scan.
        let scan_root = dir.unwrap_or_else(|| PathBuf::from("."));
        let oom = finished.rc != 0 && wrap::heap_dump_since(&scan_root, started);
        let status = wrap::status_of(&job, &kind, &finished, args.timeout, oom);
        match wrap::write_status(&args.status_dir, &status) {
            Ok(path) => eprintln!(">>> status written to {}", path.display()),
            Err(e) => eprintln!("gradle-flaky: could not write the status file: {e}"),
        }
    }
    Ok(Exit::Clean)
}

/// `buildkite precompile`: compile the selected test source sets. Unlike a
/// batch it fails the step on a compile error, so Buildkite skips the batches,
/// and leaves `flakiness-precompile.json` for the analyze step.
pub fn precompile(args: &PrecompileArgs) -> Result<Exit> {
    let spec = JobSpec::from_env_value(PRECOMPILE_ENV, env(PRECOMPILE_ENV))?;
    let argv = spec.argv_to_run(&self_exe())?;
    eprintln!(">>> {}", shell_words::join(&argv));
    let finished = wrap::supervise(&argv, spec.dir.as_deref(), args.timeout);
    if finished.rc == 0 {
        return Ok(Exit::Clean);
    }
    write_precompile_marker(Path::new(PRECOMPILE_FILE));
    Err(Error::infra(format!(
        "the test sources do not compile (rc {}); the batches will be skipped",
        finished.rc
    )))
}

fn write_precompile_marker(path: &Path) {
    let marker = r#"{"outcome":"build_failed","reason":"precompile"}"#;
    if let Err(e) = std::fs::write(path, marker) {
        eprintln!("gradle-flaky: could not write {}: {e}", path.display());
    }
}

/// A selection, planned and ready to upload.
#[derive(Clone, Debug, Default)]
pub struct Prepared {
    pub commands: Vec<Command>,
    /// Gradle program and compile tasks of the gate (empty: no gate).
    pub compile: Vec<String>,
    pub not_applicable: Vec<Unresolved>,
    /// The build's directory relative to the checkout.
    pub dir: Option<PathBuf>,
    /// Renamed projects of the selection, by directory (see `PipelineInput`).
    pub projects: BTreeMap<String, String>,
    /// The Gradle program of the batches.
    pub gradle: Vec<String>,
}

/// Prints (`dry_run`) or uploads the pipeline of `prepared`. Not-applicable
/// tests go to `flakiness-skipped.json`, uploaded as an artifact here so the
/// report finds it whatever the calling step's `artifact_paths` say
/// (reference bug §13.26). A second upload in one build is skipped: the
/// step keys would clash (§13.13).
pub fn publish(prepared: &Prepared, cfg: &AgentConfig, dry_run: bool) -> Result<Exit> {
    let input = PipelineInput {
        commands: &prepared.commands,
        compile: prepared.compile.clone(),
        dir: prepared.dir.clone(),
        has_not_applicable: !prepared.not_applicable.is_empty(),
        projects: prepared.projects.clone(),
        gradle: prepared.gradle.clone(),
    };
    let Some(pipeline) = buildkite::pipeline(&input, cfg) else {
        eprintln!("gradle-flaky: nothing to run: no pipeline uploaded");
        return Ok(Exit::Clean);
    };
    let json = serde_json::to_string_pretty(&pipeline).expect("a pipeline serializes");
    if dry_run {
        println!("{json}");
        return Ok(Exit::Clean);
    }
    let agent = Agent::default();
    let guard = format!("{}:uploaded", cfg.group);
    if agent.meta_data_exists(&guard).unwrap_or(false) {
        eprintln!("gradle-flaky: this build already has the {} steps (meta-data {guard}); not uploading again", cfg.group);
        return Ok(Exit::Clean);
    }
    if !prepared.not_applicable.is_empty() {
        let json = serde_json::to_string(&prepared.not_applicable).expect("entries serialize");
        std::fs::write(SKIPPED_FILE, json).map_err(|e| Error::io(SKIPPED_FILE, e))?;
        if let Err(e) = agent.artifact_upload(SKIPPED_FILE) {
            eprintln!("gradle-flaky: could not upload {SKIPPED_FILE}; the report will miss the not-applicable tests: {e}");
        }
    }
    eprintln!(
        "gradle-flaky: uploading {} batch(es) in {} step(s)",
        prepared.commands.len(),
        pipeline["steps"][0]["steps"].as_array().map_or(0, Vec::len)
    );
    agent.pipeline_upload(&json)?;
    if let Err(e) = agent.meta_data_set(&guard, &env("BUILDKITE_JOB_ID").unwrap_or_default()) {
        eprintln!("gradle-flaky: could not record the upload in meta-data {guard}: {e}");
    }
    Ok(Exit::Clean)
}

/// The build's directory as batch jobs find it: relative to the checkout
/// (this step's working directory), `None` for the checkout itself.
pub fn checkout_relative(project_dir: &Path) -> Result<Option<PathBuf>> {
    let cwd = std::env::current_dir().map_err(|e| Error::io(".", e))?;
    let cwd = std::fs::canonicalize(&cwd).map_err(|e| Error::io(&cwd, e))?;
    let dir = std::fs::canonicalize(project_dir).map_err(|e| Error::io(project_dir, e))?;
    match dir.strip_prefix(&cwd) {
        Ok(rel) if rel.as_os_str().is_empty() => Ok(None),
        Ok(rel) => Ok(Some(rel.to_path_buf())),
        Err(_) => Err(Error::input(
            format!("--project-dir {}", project_dir.display()),
            "batch jobs run in the checkout: the build must be inside the current directory",
        )),
    }
}

/// `buildkite upload [SELECTION]`.
pub fn upload(global: &GlobalArgs, args: &BuildkiteUploadArgs) -> Result<Exit> {
    let upload = Upload {
        batching: &args.batching,
        agent: &args.agent,
        dry_run: args.dry_run,
        nothing: "nothing selected",
    };
    upload.select_and_submit(global, &args.selection)
}

/// How `buildkite upload`, `pr` and `manual` upload what they select.
pub struct Upload<'a> {
    pub batching: &'a BatchingArgs,
    pub agent: &'a AgentArgs,
    pub dry_run: bool,
    /// What to say when nothing is selected.
    pub nothing: &'a str,
}

impl Upload<'_> {
    pub fn select_and_submit(&self, global: &GlobalArgs, args: &SelectionArgs) -> Result<Exit> {
        let cfg = AgentConfig::from_args(self.agent)?;
        let selection = selection::gather(global, args)?;
        submit(
            global,
            &selection,
            self.batching,
            &cfg,
            self.dry_run,
            self.nothing,
        )
    }
}

/// The selection-to-pipeline flow shared by `buildkite upload`, `pr` and
/// `manual`: report what resolved to nothing, say so when nothing is left to
/// run (an `info` annotation, no upload), plan, and publish.
///
/// Exit 2 when a test the user named resolved to nothing (after uploading
/// the rest), like `plan`; unresolved changed files and unmutes are warnings.
pub fn submit(
    global: &GlobalArgs,
    selection: &Selection,
    batching: &BatchingArgs,
    cfg: &AgentConfig,
    dry_run: bool,
    nothing: &str,
) -> Result<Exit> {
    for note in &selection.notes {
        eprintln!("gradle-flaky: {}", visible(note));
    }
    let agent = (!dry_run && env("BUILDKITE").is_some()).then(Agent::default);
    let (not_applicable, unresolved): (Vec<Unresolved>, Vec<Unresolved>) = selection
        .unresolved
        .iter()
        .cloned()
        .partition(|u| u.reason.starts_with("not applicable"));
    let named_missing = unresolved.iter().any(|u| u.origin == Origin::Explicit);
    if !unresolved.is_empty() {
        let body = unresolved_annotation(&unresolved);
        eprint!("{body}");
        if let Some(agent) = &agent {
            let style = if named_missing { "error" } else { "warning" };
            if let Err(e) = agent.annotate(&fit_annotation(&body), style, SELECTION_CONTEXT, false)
            {
                eprintln!("gradle-flaky: could not annotate: {e}");
            }
        }
    }
    let exit = if named_missing {
        Exit::Usage
    } else {
        Exit::Clean
    };
    if selection.tests.is_empty() && not_applicable.is_empty() {
        eprintln!("{nothing}: no test to run, nothing uploaded");
        if let Some(agent) = &agent {
            let _ = agent.annotate(
                &format!("{nothing}: no test to run"),
                "info",
                "flakiness-detection",
                false,
            );
        }
        return Ok(exit);
    }
    let prepared = prepare(global, selection, batching, not_applicable)?;
    if prepared.commands.len() > MANY_BATCHES {
        let warning = format!(
            "Warning: {} batches ({} tests) to re-run. This may take a while.",
            prepared.commands.len(),
            selection.tests.len()
        );
        eprintln!("gradle-flaky: {warning}");
        if let Some(agent) = &agent {
            let _ = agent.annotate(&warning, "warning", SELECTION_CONTEXT, true);
        }
    }
    publish(&prepared, cfg, dry_run)?;
    Ok(exit)
}

/// Annotation context of selection problems; the report has its own.
const SELECTION_CONTEXT: &str = "flakiness-detection-selection";

/// Above this many batches the upload warns (the reference counted test
/// files, before removing the ones it would not run: §13.13).
const MANY_BATCHES: usize = 30;

fn unresolved_annotation(unresolved: &[Unresolved]) -> String {
    let mut body = format!(
        "**Flakiness: {} input(s) resolved to no test**\n\n",
        unresolved.len()
    );
    for u in unresolved {
        let origin = match u.origin {
            Origin::Explicit => "named",
            Origin::Changed => "changed file",
            Origin::Unmuted => "unmuted",
        };
        body.push_str(&format!(
            "- {origin} `{}`: {}\n",
            code(&u.input),
            visible(&u.reason)
        ));
    }
    body
}

/// Text from a branch inside a markdown code span.
fn code(s: &str) -> String {
    visible(s).replace('`', "'")
}

/// Plans a selection for Buildkite: the batches, the compile gate (from the
/// layout's compile tasks; none when the layout is unavailable), the
/// not-applicable tests and where the build is in the checkout.
fn prepare(
    global: &GlobalArgs,
    selection: &Selection,
    batching: &BatchingArgs,
    not_applicable: Vec<Unresolved>,
) -> Result<Prepared> {
    let config = options::batching(batching)?.config;
    let gradle = options::gradle_program(&global.project_dir, global.gradle.as_deref())?;
    let layout = selection.layout.as_ref();
    if layout.is_none() && !selection.tests.is_empty() {
        eprintln!("gradle-flaky: no compile gate: the build's layout is unavailable");
    }
    let ctx = PlanContext {
        gradle: gradle.clone(),
        gradle_version: layout.and_then(|l| GradleVersion::parse(&l.gradle_version)),
        extra_args: Vec::new(),
    };
    let plan = plan::plan(&selection.tests, &config, &ctx);
    for note in &plan.notes {
        eprintln!("gradle-flaky: {}", visible(note));
    }
    let (tasks, projects) = match layout {
        Some(l) => (
            buildkite::compile_tasks(l, &plan.tests),
            buildkite::renamed_projects(l, &plan.tests),
        ),
        None => Default::default(),
    };
    let compile = if tasks.is_empty() {
        Vec::new()
    } else {
        [gradle.clone(), tasks].concat()
    };
    Ok(Prepared {
        commands: plan.commands,
        compile,
        not_applicable,
        dir: checkout_relative(&global.project_dir)?,
        projects,
        gradle,
    })
}
/// `buildkite analyze`, the final step: fetch every job's status and XML,
/// write `flakiness-outcomes.json`, print the report and post it as the
/// `flakiness-detection` annotation. Exits 0 unless it cannot write its
/// outputs: what it found is in the annotation, not in its exit status.
pub fn analyze(args: &BuildkiteAnalyzeArgs) -> Result<Exit> {
    let work = &args.work_dir;
    let agent = env("BUILDKITE").is_some().then(Agent::default);
    if let Some(agent) = &agent {
        for glob in [STATUS_GLOB, SKIPPED_FILE, PRECOMPILE_FILE] {
            if let Err(e) = agent.artifact_download(glob, work, None) {
                eprintln!("gradle-flaky: no {glob} downloaded: {e}");
            }
        }
    }
    let context: ReportContext = match env(REPORT_ENV) {
        Some(v) => serde_json::from_str(&v)
            .map_err(|e| Error::input(format!("${REPORT_ENV}"), e.to_string()))?,
        None => ReportContext::default(),
    };
    let statuses = read_statuses(&work.join(STATUS_DIR));
    let jobs_dir = work.join("flakiness-jobs");
    let opts = AnalyzeOptions {
        project_resolver: Some(project_resolver(&statuses, context.projects.clone())),
        gradle: context.gradle.clone(),
        ..AnalyzeOptions::default()
    };
    let mut payloads = Vec::new();
    for status in &statuses {
        let dir = jobs_dir.join(&status.job_id);
        if let Some(agent) = &agent {
            std::fs::create_dir_all(&dir).map_err(|e| Error::io(&dir, e))?;
            if let Err(e) = agent.artifact_download(XML_GLOB, &dir, Some(&status.job_id)) {
                eprintln!("gradle-flaky: no JUnit XML for job {}: {e}", status.job_id);
            }
        }
        let report = analyze::analyze_root(&dir, &opts);
        payloads.push(report::job_payload(status, &report));
    }
    let not_applicable = read_skipped(&work.join(SKIPPED_FILE));
    payloads.extend(not_applicable.iter().map(report::not_applicable_payload));
    let marker = std::fs::read_to_string(work.join(PRECOMPILE_FILE)).ok();
    let build_failed = report::is_precompile_failure(marker.as_deref());
    if build_failed {
        payloads.push(JobPayload::build_failed());
    }
    if !payloads.is_empty() {
        let path = work.join(OUTCOMES_FILE);
        let json = serde_json::to_string(&payloads).expect("payloads serialize");
        std::fs::write(&path, json).map_err(|e| Error::io(&path, e))?;
    }

    let missing = report::missing_jobs(&context.jobs, &statuses);
    let overall = analyze::analyze_root(&jobs_dir, &opts);
    let markdown = MarkdownOptions { build_failed };
    let body = format!(
        "{}{}",
        report::jobs_section(&payloads, &missing, &not_applicable, build_failed),
        render::markdown_with(&overall, markdown)
    );
    println!("{body}");
    if let Some(agent) = &agent {
        let style = render::severity_with(&overall, markdown).as_str();
        let style = if style == "success" && !missing.is_empty() {
            "warning"
        } else {
            style
        };
        if let Err(e) = agent.annotate(&fit_annotation(&body), style, "flakiness-detection", false)
        {
            eprintln!("gradle-flaky: could not post the report: {e}");
        }
    }
    Ok(Exit::Clean)
}

/// Gradle project paths of report directories below `flakiness-jobs`: the
/// job id that leads them is not part of the build, and `renamed` projects
/// keep their real path.
fn project_resolver(statuses: &[Status], renamed: BTreeMap<String, String>) -> ProjectResolver {
    let jobs: BTreeSet<String> = statuses.iter().map(|s| s.job_id.clone()).collect();
    Arc::new(move |dir: &str| {
        let dir = match dir.split_once('/') {
            Some((job, rest)) if jobs.contains(job) => rest,
            _ if jobs.contains(dir) => "",
            _ => dir,
        };
        Some(
            renamed
                .get(dir)
                .cloned()
                .unwrap_or_else(|| default_project_path(dir)),
        )
    })
}

/// Every readable status file, by file name; others are reported and skipped.
fn read_statuses(dir: &Path) -> Vec<Status> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut paths: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    paths.sort();
    paths
        .iter()
        .filter_map(|path| {
            let parsed = std::fs::read_to_string(path)
                .map_err(|e| e.to_string())
                .and_then(|t| serde_json::from_str::<Status>(&t).map_err(|e| e.to_string()));
            match parsed {
                // The job id names a directory: only a plain id may (a status file comes from a branch's job).
                Ok(s) if wrap::safe_job_id(Some(&s.job_id)) == s.job_id => Some(s),
                Ok(s) => {
                    eprintln!(
                        "gradle-flaky: {}: ignoring job id {:?}",
                        path.display(),
                        s.job_id
                    );
                    None
                }
                Err(e) => {
                    eprintln!(
                        "gradle-flaky: failed to read status file {}: {e}",
                        path.display()
                    );
                    None
                }
            }
        })
        .collect()
}

/// The not-applicable tests listed by the upload (absent: none).
fn read_skipped(path: &Path) -> Vec<Unresolved> {
    let Ok(text) = std::fs::read_to_string(path) else {
        return Vec::new();
    };
    serde_json::from_str(&text).unwrap_or_else(|e| {
        eprintln!("gradle-flaky: ignoring {}: {e}", path.display());
        Vec::new()
    })
}
