//! The book's reference pages, generated from the same clap definitions as
//! the parser, the man pages and the completions: every command's `--help`,
//! and every `FLAKINESS_*` variable with the flags and commands it sets.

use crate::cli::Cli;
use crate::markdown;
use clap::CommandFactory;

/// The width `--help` wraps at when stdout is no terminal and `COLUMNS` is
/// unset; the pages use it so that they read exactly as `--help` prints.
pub(crate) const HELP_WIDTH: usize = 100;

const GENERATED: &str = "<!-- Generated from the clap definitions (src/cli.rs) by \
    `UPDATE_GENERATED=1 cargo nextest run generated_files`; do not edit. -->\n\n";

/// The command line as the parser sees it, subcommands built.
fn cli() -> clap::Command {
    let mut cmd = Cli::command().term_width(HELP_WIDTH);
    cmd.build();
    cmd
}

/// Every visible command, depth first, with its full name (`gradle-flaky buildkite upload`).
fn commands(cmd: &clap::Command, prefix: &str, out: &mut Vec<(String, clap::Command)>) {
    let name = if prefix.is_empty() {
        cmd.get_name().to_string()
    } else {
        format!("{prefix} {}", cmd.get_name())
    };
    out.push((name.clone(), cmd.clone()));
    // (`help` is clap's own: `--help` lists it, it needs no section)
    for sub in cmd
        .get_subcommands()
        .filter(|s| !s.is_hide_set() && s.get_name() != "help")
    {
        commands(sub, &name, out);
    }
}

/// `docs/src/reference/cli.md`: each command's `--help`, verbatim.
pub(crate) fn cli_page() -> String {
    let mut all = Vec::new();
    commands(&cli(), "", &mut all);
    let mut page = String::from("# Command line\n\n");
    page.push_str(GENERATED);
    page.push_str(
        "Every command's `--help`, as it prints it. The same definitions make the man pages \
         (`doc/*.1`, `gradle-flaky man`) and the shell completions (`completions/`); \
         [Variables](variables.md) lists the `FLAKINESS_*` variable behind each option.\n\n",
    );
    for (name, _) in &all {
        page.push_str(&format!("- [`{name}`](#{})\n", anchor(name)));
    }
    for (name, mut cmd) in all {
        let help = if prints_long_help(&cmd) {
            cmd.render_long_help()
        } else {
            cmd.render_help()
        }
        .to_string();
        page.push_str(&format!(
            "\n## `{name}`\n\n```text\n{}\n```\n",
            help.trim_end()
        ));
    }
    page
}

/// Whether `--help` prints the long form: clap's rule (a long about or
/// after-help, or an option with long help or described values), as
/// `Command::long_help_exists` applies it.
fn prints_long_help(cmd: &clap::Command) -> bool {
    let long_arg = |a: &clap::Arg| {
        !a.is_hide_set()
            && (a.get_long_help().is_some()
                || a.is_hide_long_help_set()
                || a.is_hide_short_help_set()
                || (!a.is_hide_possible_values_set()
                    && a.get_possible_values()
                        .iter()
                        .any(|v| !v.is_hide_set() && v.get_help().is_some())))
    };
    cmd.get_long_about().is_some()
        || cmd.get_before_long_help().is_some()
        || cmd.get_after_long_help().is_some()
        || cmd.get_arguments().any(long_arg)
}

/// One variable: the commands that read it, its flag, default and help.
struct Variable {
    name: String,
    flag: String,
    default: String,
    help: String,
    commands: Vec<String>,
}

/// `docs/src/reference/variables.md`: every option read from a variable, then
/// the variables gradle-flaky hands its own CI steps.
pub(crate) fn variables_page() -> String {
    let mut all = Vec::new();
    commands(&cli(), "", &mut all);
    let mut vars: Vec<Variable> = Vec::new();
    for (name, cmd) in &all {
        for arg in cmd.get_arguments().filter(|a| !a.is_hide_set()) {
            let Some(env) = arg.get_env() else { continue };
            let env = env.to_string_lossy().into_owned();
            let short = name.strip_prefix("gradle-flaky").unwrap_or(name).trim();
            let short = if short.is_empty() {
                "(every command)"
            } else {
                short
            };
            if let Some(v) = vars.iter_mut().find(|v| v.name == env) {
                if !v.commands.iter().any(|c| c == short) && !arg.is_global_set() {
                    v.commands.push(short.to_string());
                }
                continue;
            }
            vars.push(Variable {
                name: env,
                flag: arg
                    .get_long()
                    .map(|l| format!("`--{l}`"))
                    .unwrap_or_else(|| format!("`{}`", arg.get_id().as_str().to_uppercase())),
                default: arg
                    .get_default_values()
                    .iter()
                    .map(|d| format!("`{}`", d.to_string_lossy()))
                    .collect::<Vec<_>>()
                    .join(", "),
                help: arg
                    .get_help()
                    .map(|h| h.to_string())
                    .unwrap_or_default()
                    .replace('\n', " "),
                commands: vec![if arg.is_global_set() {
                    "(every command)".to_string()
                } else {
                    short.to_string()
                }],
            });
        }
    }
    vars.sort_by(|a, b| a.name.cmp(&b.name));
    let mut page = String::from("# Variables\n\n");
    page.push_str(GENERATED);
    page.push_str(
        "Every option below can be given as its flag or as its variable; the flag wins. \
         In CI the variables are usually easier. Bad values are errors naming both (exit 2).\n\n\
         | variable | flag | commands | default | meaning |\n|---|---|---|---|---|\n",
    );
    for v in &vars {
        page.push_str(&format!(
            "| `{}` | {} | {} | {} | {} |\n",
            v.name,
            v.flag,
            v.commands.join(", "),
            if v.default.is_empty() {
                "—"
            } else {
                &v.default
            },
            cell(&v.help)
        ));
    }
    page.push_str(
        "\n## Set by gradle-flaky for its own CI steps\n\n\
         The uploaded Buildkite steps and the generated GitHub workflow hand these to the next \
         step. They hold JSON or an index made by gradle-flaky; nobody sets them by hand.\n\n\
         | variable | meaning |\n|---|---|\n",
    );
    for (name, meaning) in crate::vars::HANDED_TO_STEPS {
        page.push_str(&format!("| `{name}` | {} |\n", cell(meaning)));
    }
    page
}

/// Help text as one table cell: `|` cannot end it, markup stays as written.
fn cell(text: &str) -> String {
    text.replace('|', "\\|")
}

/// The anchor mdBook gives a heading of inline code `name`.
fn anchor(name: &str) -> String {
    markdown::heading_anchor(&format!("`{name}`"))
}
