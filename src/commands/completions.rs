//! `gradle-flaky completions SHELL` and `gradle-flaky man`: generated from the
//! same clap definitions as the parser, so they never drift from the CLI.

use crate::cli::{Cli, CompletionsArgs, Shell};
use crate::{Error, Exit, Result};
use clap::CommandFactory;

const BIN: &str = "gradle-flaky";

/// The completion script for a shell.
pub fn completion_script(shell: Shell) -> Vec<u8> {
    use clap_complete::Shell as S;
    let target = match shell {
        Shell::Bash => S::Bash,
        Shell::Zsh => S::Zsh,
        Shell::Fish => S::Fish,
        Shell::Powershell => S::PowerShell,
        Shell::Elvish => S::Elvish,
    };
    let mut out = Vec::new();
    clap_complete::generate(target, &mut Cli::command(), BIN, &mut out);
    out
}

/// The man page, in roff.
pub fn man_page() -> Result<Vec<u8>> {
    let mut out = Vec::new();
    clap_mangen::Man::new(Cli::command())
        .render(&mut out)
        .map_err(|e| Error::infra(format!("cannot render the man page: {e}")))?;
    Ok(out)
}

/// Where each generated file is checked in, relative to the repository root.
pub fn checked_in_files() -> Result<Vec<(&'static str, Vec<u8>)>> {
    Ok(vec![
        (
            "completions/gradle-flaky.bash",
            completion_script(Shell::Bash),
        ),
        ("completions/_gradle-flaky", completion_script(Shell::Zsh)),
        (
            "completions/gradle-flaky.fish",
            completion_script(Shell::Fish),
        ),
        (
            "completions/_gradle-flaky.ps1",
            completion_script(Shell::Powershell),
        ),
        (
            "completions/gradle-flaky.elv",
            completion_script(Shell::Elvish),
        ),
        ("doc/gradle-flaky.1", man_page()?),
    ])
}

pub fn run(args: &CompletionsArgs) -> Result<Exit> {
    write_stdout(&completion_script(args.shell))
}

pub fn run_man() -> Result<Exit> {
    write_stdout(&man_page()?)
}

fn write_stdout(bytes: &[u8]) -> Result<Exit> {
    crate::output::stdout(&String::from_utf8_lossy(bytes));
    Ok(Exit::Clean)
}
