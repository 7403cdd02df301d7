//! Analysis: JUnit XML → per-test statistics → markdown / JSON report and per-job outcomes.
//!
//! [`analyze_root`] finds the reports below a directory ([`discover`]), reads them
//! in parallel with the streaming reader ([`junit`], over [`filter`]), and merges
//! them in path order ([`aggregate`]) into a [`Report`]. Everything after reading
//! the files is pure.

pub mod aggregate;
pub mod discover;
pub mod filter;
pub mod junit;
pub mod outcome;
pub mod render;
pub mod report;
pub mod reproduce;
pub mod stats;

pub use report::{Report, Severity};

use aggregate::{FileAgg, FileResult, Merger, Origin};
use rayon::prelude::*;
use std::fmt;
use std::path::Path;
use std::sync::Arc;
use std::time::SystemTime;

/// Files read in parallel before their results are merged.
const MERGE_BATCH: usize = 64;

/// Maps a project directory (relative to the analyzed root, `/`-separated, `""`
/// for the root) to its Gradle project path, when the build knows better than
/// the default rule `a/b` → `:a:b`.
pub type ProjectResolver = Arc<dyn Fn(&str) -> Option<String> + Send + Sync>;

/// How to analyze.
#[derive(Clone, Default)]
pub struct AnalyzeOptions {
    /// Skip reports last modified before this time (counted in `files.skippedStale`).
    pub since: Option<SystemTime>,
    /// Gradle project paths of project directories; the default rule when absent.
    pub project_resolver: Option<ProjectResolver>,
    /// The Gradle program of built reproduce lines; `./gradlew` when empty.
    pub gradle: Vec<String>,
}

impl fmt::Debug for AnalyzeOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AnalyzeOptions")
            .field("since", &self.since)
            .field("project_resolver", &self.project_resolver.is_some())
            .field("gradle", &self.gradle)
            .finish()
    }
}

/// Reads every report below `root` and returns the merged report. Never fails:
/// unreadable, truncated and malformed files are listed in `files`, and a missing
/// root is an empty report.
pub fn analyze_root(root: &Path, opts: &AnalyzeOptions) -> Report {
    let mut stale = 0;
    let reports: Vec<_> = discover::find_reports(root)
        .into_iter()
        .filter(|path| {
            let Some(since) = opts.since else {
                return true;
            };
            // A file whose time cannot be read is read rather than lost.
            let fresh = std::fs::metadata(path)
                .and_then(|m| m.modified())
                .map_or(true, |mtime| mtime >= since);
            stale += u64::from(!fresh);
            fresh
        })
        .collect();
    // Parallel within a batch, merged in path order between batches, so that
    // only a batch of per-file results is held at a time.
    let mut merger = Merger::default();
    for batch in reports.chunks(MERGE_BATCH) {
        let files: Vec<FileResult> = batch
            .par_iter()
            .map(|path| {
                let rel = path.strip_prefix(root).unwrap_or(path);
                read_file(path, rel, opts)
            })
            .collect();
        for file in files {
            merger.add(file);
        }
    }
    merger.finish(stale, &opts.gradle)
}

fn read_file(path: &Path, rel: &Path, opts: &AnalyzeOptions) -> FileResult {
    let origin = discover::locate(rel).map(|loc| {
        let project = opts
            .project_resolver
            .as_ref()
            .and_then(|resolve| resolve(&loc.project_dir))
            .unwrap_or_else(|| discover::default_project_path(&loc.project_dir));
        Origin {
            task_path: discover::task_path(&project, &loc.task),
            task_name: loc.task,
        }
    });
    let mut agg = FileAgg::default();
    let mut read = match std::fs::File::open(path) {
        Ok(file) => junit::read(file, |exec| agg.record(exec, origin.as_ref())),
        Err(e) => junit::FileRead {
            counts: junit::Counts::default(),
            state: junit::State::Unreadable(e.to_string()),
            reproduce: Vec::new(),
        },
    };
    // The lines are attached to their tests; the file result need not keep them.
    agg.attach_reproduce_lines(&std::mem::take(&mut read.reproduce));
    FileResult {
        path: rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy())
            .collect::<Vec<_>>()
            .join("/"),
        origin,
        read,
        agg,
    }
}
