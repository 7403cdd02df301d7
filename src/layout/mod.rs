//! The build as Gradle itself reports it, through `gradle/flaky-layout.gradle`.
//!
//! `model` is the parsed JSON and pure queries over it; `gradle` (finding and
//! running Gradle) and `cache` are the I/O edges.

pub mod cache;
pub mod gradle;
pub mod model;

pub use gradle::find_gradle;
pub use model::{Layout, Project, SourceSet, TestTask};

use crate::reports::ProjectPaths;
use crate::{Error, Result};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// A Gradle build as the tool runs it: its root, how Gradle is started there,
/// and its layout once Gradle has been asked (selection fills it in; planning,
/// running and reporting read it).
#[derive(Clone, Debug, Default)]
pub struct Build {
    /// The build's root directory, canonical.
    pub root: PathBuf,
    /// The Gradle program, as argv words.
    pub gradle: Vec<String>,
    /// False when no Gradle was found and `gradle` is only a name to print.
    pub gradle_found: bool,
    pub layout: Option<Layout>,
    /// How Gradle is run when the layout must be read.
    pub reading: Reading,
}

/// How Gradle is run to read the layout: under the same daemon policy as the
/// batches, and within a time limit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reading {
    /// Isolated from the user's builds (`--isolate`): `--no-daemon`, since the
    /// read is a single invocation; else on the user's daemon, which the first
    /// batch then finds warm.
    pub isolate: bool,
    /// `--layout-timeout`: a build whose configuration hangs is stopped.
    pub timeout: Duration,
}

/// The default `--layout-timeout`: a cold configuration of a build the size
/// of Elasticsearch (build tools compiled first) takes minutes, not this.
pub const DEFAULT_LAYOUT_TIMEOUT: Duration = Duration::from_secs(15 * 60);

impl Default for Reading {
    fn default() -> Self {
        Reading {
            isolate: false,
            timeout: DEFAULT_LAYOUT_TIMEOUT,
        }
    }
}

impl Build {
    /// Gradle project paths of the build's directories: the layout's when
    /// known, else the documented fallback rule.
    pub fn project_paths(&self) -> ProjectPaths {
        self.layout
            .as_ref()
            .map(Layout::project_paths)
            .unwrap_or_default()
    }

    /// The Gradle version the layout reported.
    pub fn gradle_version(&self) -> Option<&str> {
        self.layout.as_ref().map(|l| l.gradle_version.as_str())
    }
}

/// Where a layout came from, for the user and for tests.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    Cache,
    Gradle,
}

/// Loads the layout of the build at `project_dir`, run with `program`, from
/// the cache when its key still matches, else by running Gradle with the init
/// script as `reading` says; also tells which.
pub fn load(
    project_dir: &Path,
    program: &[String],
    refresh: bool,
    reading: &Reading,
) -> Result<(Layout, Source)> {
    let project_dir = std::fs::canonicalize(project_dir).map_err(|e| Error::io(project_dir, e))?;
    if !is_gradle_build(&project_dir) {
        return Err(Error::input(
            project_dir.display().to_string(),
            "not a Gradle build: no settings.gradle(.kts) or build.gradle(.kts) here; \
             pass the build's root with --project-dir",
        ));
    }
    let key = cache::key(
        &project_dir,
        &gradle::program_identity(&project_dir, program),
        gradle::INIT_SCRIPT,
    );
    if !refresh {
        if let Some(layout) = cache::read(&project_dir, &key) {
            return Ok((layout, Source::Cache));
        }
    }
    let layout = gradle::run_init_script(&project_dir, program, reading)?;
    cache::write(&project_dir, &key, &layout);
    Ok((layout, Source::Gradle))
}

pub fn is_gradle_build(dir: &Path) -> bool {
    [
        "settings.gradle",
        "settings.gradle.kts",
        "build.gradle",
        "build.gradle.kts",
    ]
    .iter()
    .any(|f| dir.join(f).is_file())
}
