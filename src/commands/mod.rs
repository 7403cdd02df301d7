//! Entry points: one function per subcommand. This is the I/O edge: it reads
//! files, runs git and Gradle, and hands plain data to the pure core.

pub mod analyze;
pub mod completions;
pub mod layout;
pub mod local;
pub mod options;
pub mod plan;
pub mod repeat;
pub mod selection;

use crate::cli::{BuildkiteCommand, Cli, Command};
use crate::{Error, Exit, Result};

/// Runs the parsed command line and returns the exit status.
pub fn run(cli: Cli) -> Result<Exit> {
    let global = &cli.global;
    match cli.command {
        Command::Local(args) => local::local(global, &args),
        Command::Plan(args) => plan::run(global, &args),
        Command::Pr(_) => Err(Error::NotImplemented("pr")),
        Command::Manual(_) => Err(Error::NotImplemented("manual")),
        Command::Analyze(args) => analyze::run(&args),
        Command::Buildkite(BuildkiteCommand::Upload(_)) => {
            Err(Error::NotImplemented("buildkite upload"))
        }
        Command::Buildkite(BuildkiteCommand::Wrap(_)) => {
            Err(Error::NotImplemented("buildkite wrap"))
        }
        Command::Buildkite(BuildkiteCommand::Analyze(_)) => {
            Err(Error::NotImplemented("buildkite analyze"))
        }
        Command::Repeat(args) => repeat::repeat(global, &args),
        Command::Layout(args) => layout::run(global, &args),
        Command::Completions(args) => completions::run(&args),
        Command::Man => completions::run_man(),
    }
}
