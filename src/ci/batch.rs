//! The never-fail batch runner every CI's batch job uses: it renders a
//! planned batch's Gradle command line from its typed value, runs it
//! supervised (see [`super::supervise`]), notes whether a test JVM left
//! a heap dump and which of the batch's Test tasks the build skipped, and
//! hands back what the job's status file records. The job itself always
//! succeeds, so the build's status stays green; what happened goes to the
//! status file instead.

use super::job::JobEnv;
use super::spec::JobSpec;
use super::status::{status_of, Status};
use crate::jvm_options::InheritedJvmOptions;
use crate::process::Isolation;
use crate::reports::{self, walk};
use crate::run::guard::RunGuard;
use crate::run::job::{supervise, Finished};
use crate::run::outcomes::{self, TaskOutcome};
use crate::shell;
use crate::{say, Error, Result};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// How a batch ended, with what its status file needs beyond the rc.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct BatchResult {
    pub finished: Finished,
    /// A test JVM wrote a heap dump during the run.
    pub oom: bool,
    /// The batch's Test tasks the build skipped (`onlyIf`, no sources, ...).
    pub skipped_tasks: Vec<TaskOutcome>,
    /// The build skipped every Test task the batch asked for (in a loop's
    /// last iteration).
    pub all_tasks_skipped: bool,
    /// JVM options from the environment its test JVMs ran under (said on
    /// stderr once, by the guard).
    pub inherited_jvm_options: Vec<InheritedJvmOptions>,
}

impl BatchResult {
    /// The job's status file.
    pub(crate) fn status(&self, job: &JobEnv, kind: &str, timeout: Option<Duration>) -> Status {
        let mut status = status_of(job, kind, &self.finished, timeout, self.oom);
        status.skipped_tasks = self.skipped_tasks.clone();
        status.all_tasks_skipped = self.all_tasks_skipped;
        status.inherited_jvm_options = self.inherited_jvm_options.clone();
        status
    }
}

/// Runs a planned batch as every CI runs it (see [`run_batch`]), recording
/// which of its Test tasks the build skipped.
pub(crate) fn run_spec(spec: &JobSpec, timeout: Option<Duration>) -> Result<BatchResult> {
    let command = spec.command();
    let task_paths = command.task_paths();
    let heap_dumps = &command.heap_dump_paths;
    // No Test task to check: nothing to record (and no init script to add).
    if task_paths.is_empty() {
        let argv = spec.argv_to_run(&self_exe(), None)?;
        return Ok(run_batch(&argv, spec.dir.as_deref(), heap_dumps, timeout));
    }
    let recording = Recording {
        guard: RunGuard::isolated(Isolation::NoDaemon)?,
        scratch: tempfile::Builder::new()
            .prefix("gradle-flaky-wrap-")
            .tempdir()
            .map_err(|e| Error::io(std::env::temp_dir(), e))?,
        task_paths,
    };
    let argv = recording.argv(spec)?;
    let mut ran = run_batch(&argv, spec.dir.as_deref(), heap_dumps, timeout);
    (ran.skipped_tasks, ran.all_tasks_skipped) = recording.skipped();
    ran.inherited_jvm_options = recording.guard.inherited_jvm_options();
    if !ran.skipped_tasks.is_empty() {
        say!(
            ">>> skipped by the build: {}",
            outcomes::describe(&ran.skipped_tasks)
        );
    }
    Ok(ran)
}

/// Runs one batch: the command line and its rc on stderr, supervised (see
/// [`supervise`]), and, when it failed, a look for heap dumps it left below
/// `dir` and at `heap_dumps` (its tasks' `-XX:HeapDumpPath`, relative to
/// `dir`); a JVM that ran out of heap fails its Gradle run, so clean runs
/// skip the scan.
pub(crate) fn run_batch(
    argv: &[String],
    dir: Option<&Path>,
    heap_dumps: &[PathBuf],
    timeout: Option<Duration>,
) -> BatchResult {
    say!(">>> {}", shell::join(argv));
    let started = SystemTime::now();
    let finished = supervise(argv, dir, timeout);
    say!(
        ">>> rc {} after {}s",
        finished.rc,
        finished.duration.as_secs()
    );
    let oom = finished.rc != 0
        && !reports::heap_dumps_written(dir.unwrap_or(Path::new(".")), heap_dumps, started)
            .is_empty();
    BatchResult {
        finished,
        oom,
        skipped_tasks: Vec::new(),
        all_tasks_skipped: false,
        inherited_jvm_options: Vec::new(),
    }
}

/// How this binary is invoked again (for loops inside a batch).
pub(crate) fn self_exe() -> String {
    std::env::current_exe()
        .map(|p| p.to_string_lossy().into_owned())
        .unwrap_or_else(|_| "gradle-flaky".into())
}

/// Where a batch's task outcomes are recorded, and for which tasks.
struct Recording {
    /// The init scripts, and the job's processes stopped when it goes.
    guard: RunGuard,
    /// Holds the outcome files; removed with the wrapper.
    scratch: tempfile::TempDir,
    task_paths: Vec<String>,
}

impl Recording {
    fn dir(&self) -> PathBuf {
        self.scratch.path().join("task-outcomes")
    }

    /// The argv of `spec`, made to record its task outcomes: Gradle gets the
    /// init script; a REST loop (`gradle-flaky repeat`) is told where its
    /// iterations write.
    fn argv(&self, spec: &JobSpec) -> Result<Vec<String>> {
        std::fs::create_dir_all(self.dir()).map_err(|e| Error::io(self.dir(), e))?;
        let command = spec.command();
        if command.loops_gradle() {
            return spec.argv_to_run(&self_exe(), Some(&self.dir()));
        }
        let argv = spec.argv_to_run(&self_exe(), None)?;
        let outcomes = self.dir().join("iter-1.json");
        let helpers = command.invocation.needs_repeat_helpers();
        self.guard.argv(&argv, &outcomes, helpers)
    }

    /// The batch's Test tasks the build skipped in any of its invocations
    /// (each once, as first recorded), and whether its last invocation
    /// skipped every one asked for.
    fn skipped(&self) -> (Vec<TaskOutcome>, bool) {
        // `iter-<i>.json`, in iteration order.
        let mut files: Vec<(u32, PathBuf)> = walk::list(&self.dir())
            .unwrap_or_default()
            .iter()
            .map(|e| e.path())
            .filter_map(|p| {
                let stem = p.file_stem()?.to_str()?;
                let index = stem.strip_prefix("iter-")?.parse().ok()?;
                Some((index, p))
            })
            .collect();
        files.sort();
        let mut skipped: Vec<TaskOutcome> = Vec::new();
        let mut all = false;
        for (_, file) in &files {
            let found = outcomes::read(file)
                .and_then(|tasks| outcomes::skipped_by_build(&tasks, &self.task_paths));
            all = found.as_ref().is_some_and(|s| s.all);
            for task in found.map(|s| s.tasks).unwrap_or_default() {
                if !skipped.iter().any(|t| t.path == task.path) {
                    skipped.push(task);
                }
            }
        }
        (skipped, all)
    }
}
