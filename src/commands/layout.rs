//! `gradle-flaky layout`: the build as Gradle sees it, as JSON on stdout.

use super::options;
use crate::cli::{GlobalArgs, LayoutArgs};
use crate::layout::{self, Source};
use crate::{output, say, Exit, Result};

pub(crate) fn run(global: &GlobalArgs, args: &LayoutArgs) -> Result<Exit> {
    let started = std::time::Instant::now();
    let build = options::build(global, true)?;
    let (layout, source) = layout::load(&build.root, &build.gradle, args.refresh, &build.reading)?;
    let json = serde_json::to_string_pretty(&layout).expect("a layout serializes");
    output::stdout_line(&json);
    say!(
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
