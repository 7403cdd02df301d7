//! `gradle-flaky github workflow|run|analyze`: options in, the `github`
//! module does the rest.

use super::options;
use crate::cli::{GithubAnalyzeArgs, GithubRunArgs, GlobalArgs, WorkflowArgs};
use crate::github::{batch, summary, workflow};
use crate::{Exit, Result};

/// `github workflow`: prints the workflow file.
pub(crate) fn workflow(global: &GlobalArgs, args: &WorkflowArgs) -> Result<Exit> {
    let text = workflow::workflow(&options::github_workflow(global, args)?.config()?)?;
    crate::output::stdout(&text);
    Ok(Exit::Clean)
}

/// `github run`: always exits 0 once the batch could be read.
pub(crate) fn run(args: &GithubRunArgs) -> Result<Exit> {
    batch::run(&options::github_run(args))?;
    Ok(Exit::Clean)
}

/// `github analyze`: 0 unless asked for the report's exit code.
pub(crate) fn analyze(args: &GithubAnalyzeArgs) -> Result<Exit> {
    summary::run(&options::github_analyze(args)?)
}
