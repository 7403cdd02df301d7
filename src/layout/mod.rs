//! The build as Gradle itself reports it, through `gradle/flaky-layout.gradle`.
//!
//! `model` is the parsed JSON and pure queries over it; `gradle` (finding and
//! running Gradle) and `cache` are the I/O edges.

pub mod cache;
pub mod gradle;
pub mod model;

pub use gradle::find_gradle;
pub use model::{Layout, Project, SourceSet, TestTask};

use crate::{Error, Result};
use std::path::Path;

/// Where a layout came from, for the user and for tests.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    Cache,
    Gradle,
}

/// Loads the layout of the build at `project_dir`, from the cache when its key
/// still matches, else by running Gradle with the init script.
pub fn load(project_dir: &Path, gradle: Option<&str>, refresh: bool) -> Result<Layout> {
    load_with_source(project_dir, gradle, refresh).map(|(layout, _)| layout)
}

/// `load`, also telling whether Gradle was started.
pub fn load_with_source(
    project_dir: &Path,
    gradle: Option<&str>,
    refresh: bool,
) -> Result<(Layout, Source)> {
    let project_dir = std::fs::canonicalize(project_dir).map_err(|e| Error::io(project_dir, e))?;
    if !is_gradle_build(&project_dir) {
        return Err(Error::input(
            project_dir.display().to_string(),
            "not a Gradle build: no settings.gradle(.kts) or build.gradle(.kts) here; \
             pass the build's root with --project-dir",
        ));
    }
    let program = find_gradle(&project_dir, gradle)?;
    let key = cache::key(
        &project_dir,
        &gradle::program_identity(&project_dir, &program),
        gradle::INIT_SCRIPT,
    );
    if !refresh {
        if let Some(layout) = cache::read(&project_dir, &key) {
            return Ok((layout, Source::Cache));
        }
    }
    let layout = gradle::run_init_script(&project_dir, &program)?;
    cache::write(&project_dir, &key, &layout);
    Ok((layout, Source::Gradle))
}

fn is_gradle_build(dir: &Path) -> bool {
    [
        "settings.gradle",
        "settings.gradle.kts",
        "build.gradle",
        "build.gradle.kts",
    ]
    .iter()
    .any(|f| dir.join(f).is_file())
}
