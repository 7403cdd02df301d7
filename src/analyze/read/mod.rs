//! Reading: the run folders' JUnit XML into the model.
//!
//! [`analyze_root`] finds the reports below a directory (`reports`), reads them
//! in parallel with the streaming reader ([`junit`], over [`filter`]), and merges
//! them in path order ([`aggregate`]) into a [`Report`]: each execution's
//! condition read from its name and file ([`position`]), then the rules judge
//! each test. Everything after reading the files is pure.

pub(crate) mod aggregate;
pub(crate) mod filter;
pub mod junit;
pub(crate) mod names;
pub(crate) mod no_test;
pub(crate) mod position;
pub(crate) mod reproduce;
pub(crate) mod rows;

use crate::analyze::model::Report;
use crate::reports::{self, ProjectPaths};
use aggregate::{FileAgg, FileResult, Merger, ReportTask};
use rayon::prelude::*;
use reproduce::Rerun;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// Files read in parallel before their results are merged.
const MERGE_BATCH: usize = 64;

/// How to analyze. A run folder records the options `local` read it with
/// (`local::folder`), so that `analyze RUN_DIR` reads it as `local` did.
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AnalyzeOptions {
    /// Skip reports last modified before this time (counted in `files.skippedStale`).
    #[serde(skip)]
    pub since: Option<SystemTime>,
    /// Gradle project paths of the build's directories.
    pub project_paths: ProjectPaths,
    /// How built reproduce lines run Gradle (`./gradlew`, forced by
    /// `clean<Task>`, when the caller knows no better).
    pub rerun: Rerun,
    /// A test name one file repeats without a seed, passing after a pass, is
    /// another instance of the test in the same Gradle run and counts once
    /// ([`aggregate::FileAgg`]): for runs known to run each test once per
    /// Gradle run (`local`'s). Otherwise every test case counts, as the
    /// reference analyzer counts them.
    pub instances_once: bool,
    /// Folders whose reports count every test case even with
    /// `instances_once`: tests repeated in one test JVM under their plain
    /// names (each case is an execution).
    pub every_instance_below: Vec<RepeatedDir>,
    /// The reports are of runs gradle-flaky planned (`local`, CI jobs): a
    /// class JUnit found no test in is set apart as `not-a-test`
    /// ([`no_test`]), never counted as a failure.
    pub planned: bool,
    /// What ran beside the tests: `None` is `alone` for planned runs (the
    /// selected classes) and `task` otherwise (a build's own runs).
    pub context: Option<crate::condition::Context>,
    /// Folders (`/`-separated, relative to the analyzed root) of planned
    /// runs of the tests' whole test tasks: their executions are in context
    /// `task` whatever `context` says. An absolute path names a whole root
    /// of [`analyze_roots`] (a CI job's folder of whole-task runs).
    pub task_context_below: Vec<String>,
}

/// A folder of reports whose tests were repeated in one test JVM.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct RepeatedDir {
    /// `/`-separated, relative to the analyzed root; `.` is the root itself.
    pub dir: String,
    /// How many times each test ran there, when known: TestNG rows that
    /// print alike are then told apart ([`rows::RowIndex`]).
    pub repetitions: Option<u32>,
    /// What repeated them, when known (the executions' condition).
    pub mechanism: Option<crate::invocation::InJvm>,
}

/// Reads every report below `root` and returns the merged report. Never fails:
/// unreadable, truncated and malformed files are listed in `files`, and a missing
/// root is an empty report.
pub fn analyze_root(root: &Path, opts: &AnalyzeOptions) -> Report {
    analyze_roots(&[root.to_path_buf()], opts)
}

/// One report of the reports below several roots, each a copy of the build's
/// tree (a CI job's downloaded artifacts, say): a report's project is found
/// from its path below its own root.
pub fn analyze_roots(roots: &[PathBuf], opts: &AnalyzeOptions) -> Report {
    let found = roots.iter().map(|r| reports::find(r)).collect();
    analyze_found(roots, found, opts)
}

/// The report of the reports `found` below each of `roots` (one search a
/// root, in their order).
pub(crate) fn analyze_found(
    roots: &[PathBuf],
    found: Vec<reports::ReportSearch>,
    opts: &AnalyzeOptions,
) -> Report {
    let mut stale = 0;
    let mut reports: Vec<(usize, &Path, PathBuf)> = Vec::new();
    let mut merger = Merger::default();
    for ((index, root), found) in roots.iter().enumerate().zip(found) {
        for path in found.reports {
            if is_stale(&path, opts.since) {
                stale += 1;
            } else {
                reports.push((index, root, path));
            }
        }
        for (dir, error) in found.unreadable {
            merger.unreadable_dir(relative(&dir, root), error);
        }
    }
    // Parallel within a batch, merged in path order between batches, so that
    // only a batch of per-file results is held at a time.
    for batch in reports.chunks(MERGE_BATCH) {
        let files: Vec<FileResult> = batch
            .par_iter()
            .map(|(index, root, path)| {
                // The root's own path tells when it is itself an iterations folder.
                let whole = std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
                let rel = path.strip_prefix(root).unwrap_or(path);
                let run = run_label(root, rel, roots.len() > 1);
                FileResult {
                    root: *index,
                    ..read_file(path, &whole, rel, opts, run)
                }
            })
            .collect();
        for file in files {
            merger.add(file);
        }
    }
    merger.finish(stale, &opts.rerun)
}

/// `path` relative to `root`, `/`-separated (`.` for the root itself).
fn relative(path: &Path, root: &Path) -> String {
    match path.strip_prefix(root) {
        Ok(rel) if rel.as_os_str().is_empty() => ".".into(),
        Ok(rel) => slash_path(rel),
        Err(_) => slash_path(path),
    }
}

fn slash_path(rel: &Path) -> String {
    rel.components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}

/// The TestNG row index of a report repeated in one JVM: with the
/// repetitions known, the file's cases are counted first (a second read of a
/// small file), so rows that print alike keep apart.
fn row_index(path: &Path, repetitions: Option<u32>) -> rows::RowIndex {
    let Some(n) = repetitions else {
        return rows::RowIndex::default();
    };
    let mut rows = rows::RowIndex::repeated(n);
    if let Ok(file) = std::fs::File::open(path) {
        junit::read(file, |exec| rows.count(exec.class, exec.name));
    }
    rows
}

/// Last modified before `since` (a file whose time cannot be read is read rather than lost).
fn is_stale(path: &Path, since: Option<SystemTime>) -> bool {
    let Some(since) = since else {
        return false;
    };
    std::fs::metadata(path)
        .and_then(|m| m.modified())
        .is_ok_and(|mtime| mtime < since)
}

/// A report at `rel_path` (`/`-separated) below `root` of a planned
/// whole-task run (an absolute folder names a whole root: a CI job's).
fn in_task_run(rel_path: &str, root: &Path, opts: &AnalyzeOptions) -> bool {
    let below = |dir: &String| match Path::new(dir).is_absolute() {
        true => std::fs::canonicalize(dir).is_ok_and(|d| d == root),
        false => rel_path.starts_with(&format!("{}/", dir.trim_end_matches('/'))),
    };
    opts.task_context_below.iter().any(below)
}

/// What ran beside the tests of a report at `rel_path` (`/`-separated).
fn context_of(rel_path: &str, root: &Path, opts: &AnalyzeOptions) -> crate::condition::Context {
    match in_task_run(rel_path, root, opts) {
        true => crate::condition::Context::Task,
        false => opts.context.unwrap_or(match opts.planned {
            true => crate::condition::Context::Alone,
            false => crate::condition::Context::Task,
        }),
    }
}

/// The Gradle run a report at `rel` below `root` is of: its iteration
/// folder (`batch-1/flakiness-iters/iter-3/…` is `batch-1/iter-3`), else the
/// whole root (`.`); with several roots (a CI's jobs), the root's name first.
fn run_label(root: &Path, rel: &Path, several: bool) -> String {
    let parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    let iteration = parts
        .windows(2)
        .rposition(|w| w[0] == reports::ITERS_DIR && w[1].starts_with("iter-"));
    let mut label: Vec<&str> = match iteration {
        Some(i) => parts[..i]
            .iter()
            .chain(std::iter::once(&parts[i + 1]))
            .map(String::as_str)
            .collect(),
        None => Vec::new(),
    };
    let name = root.file_name().map(|n| n.to_string_lossy().into_owned());
    if several {
        label.insert(0, name.as_deref().unwrap_or("."));
    }
    match label.is_empty() {
        true => ".".into(),
        false => label.join("/"),
    }
}

fn read_file(
    path: &Path,
    root: &Path,
    rel: &Path,
    opts: &AnalyzeOptions,
    run: String,
) -> FileResult {
    let origin = reports::locate(root, rel).map(|loc| {
        let project = opts.project_paths.path_of(&loc.project_dir);
        ReportTask {
            task_path: reports::task_path(&project, &loc.task),
            task_name: loc.task,
        }
    });
    let rel_path = slash_path(rel);
    let repeated = opts.every_instance_below.iter().find(|r| {
        r.dir == "." || rel_path.starts_with(&format!("{}/", r.dir.trim_end_matches('/')))
    });
    let mut agg = match repeated {
        Some(r) => FileAgg::repeated_in_jvm(row_index(path, r.repetitions)),
        None => FileAgg::new(opts.instances_once),
    }
    .under(
        position::FileCondition {
            context: context_of(&rel_path, root, opts),
            in_jvm: repeated.map(|r| r.mechanism),
        },
        run,
    );
    let mut not_tests = Vec::new();
    let task = origin.as_ref().map(|o| o.task_path.as_str());
    let mut read = match std::fs::File::open(path) {
        Ok(file) => junit::read(file, |exec| match no_test::message(&exec) {
            Some(message) if opts.planned => {
                no_test::add(&mut not_tests, exec.class, task, message, 1)
            }
            _ => agg.record(exec, origin.as_ref()),
        }),
        Err(e) => junit::FileRead {
            counts: crate::analyze::model::report::FileCounts::default(),
            state: junit::State::Unreadable(e.to_string()),
            reproduce: Vec::new(),
            suites: Vec::new(),
        },
    };
    // The lines are attached to their tests; the file result need not keep them.
    agg.attach_reproduce_lines(&std::mem::take(&mut read.reproduce));
    FileResult {
        root: 0,
        task_run: in_task_run(&rel_path, root, opts),
        path: rel_path,
        origin,
        read,
        agg,
        not_tests,
    }
}
