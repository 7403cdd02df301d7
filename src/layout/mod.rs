//! The build as Gradle itself reports it, through `gradle/flaky-layout.gradle`.
//!
//! `model` is the parsed JSON (pure); running Gradle, finding it and caching the
//! result are the I/O edges of this module.

pub mod model;

pub use model::{Layout, Project, SourceSet, TestTask};

use crate::Result;
use std::path::Path;

/// Loads the layout of the build at `project_dir`, from the cache when its key
/// still matches, else by running Gradle with the init script.
pub fn load(_project_dir: &Path, _gradle: Option<&str>, _refresh: bool) -> Result<Layout> {
    Err(crate::Error::NotImplemented("layout"))
}

/// The Gradle program to run: `--gradle`, else `./gradlew` in the project dir,
/// else `gradle` on PATH. Split on whitespace (`--gradle "sh ./ci-gradle.sh"`).
pub fn find_gradle(_project_dir: &Path, _gradle: Option<&str>) -> Result<Vec<String>> {
    Err(crate::Error::NotImplemented("finding Gradle"))
}
