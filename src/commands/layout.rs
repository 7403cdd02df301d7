//! `gradle-flaky layout`: the build as Gradle sees it, as JSON on stdout.

use crate::cli::{GlobalArgs, LayoutArgs};
use crate::layout::{self, Source};
use crate::{Error, Exit, Result};

pub fn run(global: &GlobalArgs, args: &LayoutArgs) -> Result<Exit> {
    let started = std::time::Instant::now();
    let (layout, source) =
        layout::load_with_source(&global.project_dir, global.gradle.as_deref(), args.refresh)?;
    let json = serde_json::to_string_pretty(&layout)
        .map_err(|e| Error::infra(format!("cannot serialize the layout: {e}")))?;
    println!("{json}");
    eprintln!(
        "layout: {} projects, Gradle {}, {} in {:.2?}",
        layout.projects.len(),
        layout.gradle_version,
        match source {
            Source::Cache => "from cache",
            Source::Gradle => "from Gradle",
        },
        started.elapsed()
    );
    Ok(Exit::Clean)
}
