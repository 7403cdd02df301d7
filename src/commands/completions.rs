//! `gradle-flaky completions SHELL` and `gradle-flaky man`: generated from the
//! same clap definitions as the parser, so they never drift from the CLI.
//! [`checked_in_files`] also lists the book's generated reference pages.

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
    match shell {
        Shell::Bash => bash_fix_hyphenated_name(out),
        Shell::Fish => fish_add_positional_values(out),
        _ => out,
    }
}

/// clap_complete's bash script tracks the subcommand in `cmd` as
/// `gradle__flaky__subcmd__local`, but names its case arms
/// `gradle__subcmd__flaky__subcmd__local` when the binary's name holds a
/// hyphen, so nothing after the first word completes. The arms are renamed
/// to what `cmd` holds.
fn bash_fix_hyphenated_name(script: Vec<u8>) -> Vec<u8> {
    let text = String::from_utf8_lossy(&script);
    let wrong = BIN.replace('-', "__subcmd__");
    let right = BIN.replace('-', "__");
    text.replace(&format!("{wrong}__subcmd__"), &format!("{right}__subcmd__"))
        .replace(&format!("        {wrong})"), &format!("        {right})"))
        .into_bytes()
}

/// clap_complete's fish script completes no positional argument, so
/// `completions <TAB>` offered file names. Each positional with a fixed set
/// of values gets a line offering them.
fn fish_add_positional_values(script: Vec<u8>) -> Vec<u8> {
    let mut text = String::from_utf8_lossy(&script).into_owned();
    let mut cmd = Cli::command();
    cmd.build();
    let fish_fn = format!("__fish_{}_using_subcommand", BIN.replace('-', "_"));
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        for arg in sub.get_positionals() {
            let values: Vec<String> = arg
                .get_possible_values()
                .iter()
                .filter(|v| !v.is_hide_set())
                .map(|v| v.get_name().to_string())
                .collect();
            if !values.is_empty() {
                text.push_str(&format!(
                    "complete -c {BIN} -n \"{fish_fn} {}\" -f -a \"{}\"\n",
                    sub.get_name(),
                    values.join(" ")
                ));
            }
        }
    }
    text.into_bytes()
}

/// Every man page: the main one, then one per subcommand (and per
/// subcommand of a subcommand), named as the main page's SEE ALSO list and
/// sub-command list name them (`gradle-flaky-local.1`).
pub fn man_pages() -> Result<Vec<(String, Vec<u8>)>> {
    fn render(cmd: clap::Command, pages: &mut Vec<(String, Vec<u8>)>) -> Result<()> {
        let man = clap_mangen::Man::new(cmd.clone());
        let mut out = Vec::new();
        man.render(&mut out)
            .map_err(|e| Error::infra(format!("cannot render the man page: {e}")))?;
        pages.push((man.get_filename(), out));
        for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
            render(sub.clone(), pages)?;
        }
        Ok(())
    }
    let mut cmd = Cli::command().disable_help_subcommand(true);
    cmd.build();
    let mut pages = Vec::new();
    render(cmd, &mut pages)?;
    Ok(pages)
}

/// The main man page, in roff.
pub fn man_page() -> Result<Vec<u8>> {
    Ok(man_pages()?.swap_remove(0).1)
}

/// Where each generated file is checked in, relative to the repository root.
pub fn checked_in_files() -> Result<Vec<(String, Vec<u8>)>> {
    let mut files: Vec<(String, Vec<u8>)> = [
        ("gradle-flaky.bash", Shell::Bash),
        ("_gradle-flaky", Shell::Zsh),
        ("gradle-flaky.fish", Shell::Fish),
        ("_gradle-flaky.ps1", Shell::Powershell),
        ("gradle-flaky.elv", Shell::Elvish),
    ]
    .into_iter()
    .map(|(name, shell)| (format!("completions/{name}"), completion_script(shell)))
    .collect();
    for (name, page) in man_pages()? {
        files.push((format!("doc/{name}"), page));
    }
    use super::reference;
    files.push((
        "docs/src/reference/cli.md".into(),
        reference::cli_page().into_bytes(),
    ));
    files.push((
        "docs/src/reference/variables.md".into(),
        reference::variables_page().into_bytes(),
    ));
    Ok(files)
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
