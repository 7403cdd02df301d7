//! The build as Gradle itself reports it, through `gradle/flaky-layout.gradle`.
//!
//! `model` is the parsed JSON and pure queries over it; `gradle` (finding and
//! running Gradle) and `cache` are the I/O edges.

pub mod cache;
pub mod gradle;
pub(crate) mod model;

pub use gradle::find_gradle;
pub use model::{Classpaths, Layout, Project, SourcePatterns, SourceSet, TestTask};

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
    pub reading: LayoutRead,
}

/// How Gradle is run to read the layout: under the same daemon policy as the
/// batches, and within a time limit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LayoutRead {
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

impl Default for LayoutRead {
    fn default() -> Self {
        LayoutRead {
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
    reading: &LayoutRead,
) -> Result<(Layout, Source)> {
    let project_dir = std::fs::canonicalize(project_dir).map_err(|e| Error::io(project_dir, e))?;
    if !is_gradle_build(&project_dir) {
        return Err(Error::input(
            project_dir.display().to_string(),
            "not a Gradle build: no settings.gradle(.kts) or build.gradle(.kts) here; \
             pass the build's root with --project-dir",
        ));
    }
    let identity = gradle::program_identity(&project_dir, program);
    let key_with = |known: &[PathBuf]| {
        let included = cache::included_builds(&project_dir, known);
        cache::key(&project_dir, &identity, gradle::INIT_SCRIPT, &included)
    };
    // The included builds the cached layout names are part of its key: an
    // edit to their sources is a miss.
    let cached = (!refresh).then(|| cache::read(&project_dir)).flatten();
    if let Some(entry) = cached.filter(|e| e.key == key_with(&e.layout.included_builds)) {
        return Ok((entry.layout, Source::Cache));
    }
    let layout = gradle::run_init_script(&project_dir, program, reading)?;
    cache::write(&project_dir, &key_with(&layout.included_builds), &layout);
    Ok((layout, Source::Gradle))
}

/// Why a directory cannot be used as a build's root.
#[derive(Debug)]
pub enum NotARoot {
    /// It does not exist or cannot be read.
    Unreadable(std::io::Error),
    /// It is not a directory.
    NotADirectory,
    /// It has no settings file, and this directory above it has one: it is
    /// (most likely) a project inside that build.
    Inside(PathBuf),
    /// Neither here nor above is there a settings or build script.
    NoBuild,
}

const SETTINGS: [&str; 2] = ["settings.gradle", "settings.gradle.kts"];

/// The canonical root of the Gradle build at `dir`: a directory with a
/// settings script, or a build script and no settings script above it (a
/// single-project build without settings). A directory inside a build is
/// refused rather than run: Gradle would run the enclosing build, and
/// project paths and reports would be read relative to the wrong root.
pub fn build_root(dir: &Path) -> Result<PathBuf, NotARoot> {
    let dir = std::fs::canonicalize(dir).map_err(NotARoot::Unreadable)?;
    if !dir.is_dir() {
        return Err(NotARoot::NotADirectory);
    }
    let has_settings = |d: &Path| SETTINGS.iter().any(|f| d.join(f).is_file());
    if has_settings(&dir) {
        return Ok(dir);
    }
    if let Some(above) = dir.ancestors().skip(1).find(|d| has_settings(d)) {
        return Err(NotARoot::Inside(above.to_path_buf()));
    }
    is_gradle_build(&dir)
        .then_some(dir)
        .ok_or(NotARoot::NoBuild)
}

pub fn is_gradle_build(dir: &Path) -> bool {
    SETTINGS
        .iter()
        .chain(&["build.gradle", "build.gradle.kts"])
        .any(|f| dir.join(f).is_file())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_build_root_is_where_the_settings_are() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        assert!(matches!(build_root(&root), Err(NotARoot::NoBuild)));
        std::fs::write(root.join("build.gradle"), "").unwrap();
        assert_eq!(build_root(&root).unwrap(), root, "a build without settings");
        std::fs::write(root.join("settings.gradle"), "include 'a'").unwrap();
        std::fs::create_dir_all(root.join("a/src")).unwrap();
        std::fs::write(root.join("a/build.gradle"), "").unwrap();
        assert_eq!(build_root(&root).unwrap(), root);
        for inside in [root.join("a"), root.join("a/src")] {
            match build_root(&inside) {
                Err(NotARoot::Inside(above)) => assert_eq!(above, root),
                other => panic!("{}: {other:?}", inside.display()),
            }
        }
        assert!(matches!(
            build_root(&root.join("settings.gradle")),
            Err(NotARoot::NotADirectory)
        ));
        assert!(matches!(
            build_root(&root.join("missing")),
            Err(NotARoot::Unreadable(e)) if e.kind() == std::io::ErrorKind::NotFound
        ));
    }
}
