//! `gradle-flaky buildkite upload|wrap|analyze` (and the hidden `precompile`):
//! the Buildkite edge. Pipelines are built by `run::buildkite`, jobs are
//! supervised by `run::wrap`, outcomes derived by `run::buildkite::report`.

use crate::cli::{PrecompileArgs, WrapArgs};
use crate::domain::{Command, Unresolved};
use crate::run::buildkite::agent::Agent;
use crate::run::buildkite::{
    self, AgentConfig, JobSpec, PipelineInput, BATCH_ENV, PRECOMPILE_ENV, PRECOMPILE_FILE,
    SKIPPED_FILE,
};
use crate::run::wrap::{self, JobEnv};
use crate::{Error, Exit, Result};
use std::path::{Path, PathBuf};
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
            spec.argv_to_run(&self_exe()),
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
    eprintln!(">>> {}", shell_words::join(&spec.argv));
    let finished = wrap::supervise(&spec.argv, spec.dir.as_deref(), args.timeout);
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
