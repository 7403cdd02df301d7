//! Entry points: one function per subcommand. This is the I/O edge: it reads
//! files, runs git and Gradle, and hands plain data to the pure core.

pub(crate) mod analyze;
pub(crate) mod bisect;
pub(crate) mod buildkite;
pub(crate) mod compare;
pub mod completions;
pub(crate) mod github;
pub(crate) mod history;
pub(crate) mod layout;
pub(crate) mod local;
pub(crate) mod manual;
pub mod options;
pub mod plan;
pub(crate) mod pr;
mod ran;
pub(crate) mod record;
pub(crate) mod reference;
pub(crate) mod repeat;
pub(crate) mod report;
pub mod selection;
pub(crate) mod suspects;
pub(crate) mod triage;

#[cfg(test)]
mod markdown_tests;

use crate::cli::{BuildkiteCommand, Cli, Command, GithubCommand};
use crate::{Exit, Result};

/// Runs the parsed command line and returns the exit status.
pub fn run(cli: Cli) -> Result<Exit> {
    let global = &cli.global;
    match cli.command {
        Command::Local(args) => local::run(global, &options::local(global, &args)?),
        Command::Bisect(args) => bisect::run(global, &args),
        Command::Plan(args) => plan::run(global, &args),
        Command::Pr(args) => pr::run(global, &args),
        Command::Manual(args) => manual::run(global, &args),
        Command::Analyze(args) => analyze::run(global, &args),
        Command::Buildkite(BuildkiteCommand::Upload(args)) => buildkite::upload(global, &args),
        Command::Buildkite(BuildkiteCommand::Wrap(args)) => buildkite::wrap(&args),
        Command::Buildkite(BuildkiteCommand::Analyze(args)) => buildkite::analyze(&args),
        Command::Buildkite(BuildkiteCommand::Triage(args)) => buildkite::triage(&args),
        Command::Github(GithubCommand::Workflow(args)) => github::workflow(global, &args),
        Command::Github(GithubCommand::Run(args)) => github::run(&args),
        Command::Github(GithubCommand::Analyze(args)) => github::analyze(&args),
        Command::Triage(args) => triage::run(global, &options::triage_command(global, &args)),
        Command::History(args) => history::run(global, &args),
        Command::Record(args) => record::run(global, &options::record(global, &args)),
        Command::Suspects(args) => suspects::run(global, &args),
        Command::Repeat(args) => repeat::repeat(global, &args),
        Command::Layout(args) => layout::run(global, &args),
        Command::Completions(args) => completions::run(&args),
        Command::Man => completions::run_man(),
    }
}
