//! `gradle-flaky history`: what the run ledgers hold of tests.

use crate::cli::{GlobalArgs, HistoryArgs, LedgerFormat};
use crate::ledger::history::{Filter, Sources};
use crate::ledger::{self, html, read, render, suspects};
use crate::select::explicit::{self, Spec};
use crate::{output, say, Error, Exit, Result};
use std::path::{Path, PathBuf};

pub(crate) fn run(global: &GlobalArgs, args: &HistoryArgs) -> Result<Exit> {
    let filter = filter_of(&args.tests)?;
    let files = ledger_files(&global.project_dir, &args.ledger)?;
    // "Before" a newest commit is its first-parent line in the build's checkout.
    let mut checkout = ledger::ancestry::Checkout::at(&global.project_dir);
    let history = ledger::history_of(&files, &filter, &mut checkout);
    warn_of(&history.sources);
    output::stdout(&match args.format {
        LedgerFormat::Markdown => render::markdown(&history),
        LedgerFormat::Json => render::json(&history),
        LedgerFormat::Html => {
            let query = suspects::Query {
                tests: filter,
                ..Default::default()
            };
            html::page(
                &history,
                &ledger::suspects_of(&files, &query),
                "Test history",
            )
        }
    });
    Ok(Exit::Clean)
}

/// The ledger files to read: the build's own ledger and every `--ledger`
/// path; none found is said on stderr.
pub(super) fn ledger_files(project_dir: &Path, extra: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let own = ledger::local_dir(project_dir);
    let paths: Vec<_> = own
        .is_dir()
        .then_some(own)
        .into_iter()
        .chain(extra.iter().cloned())
        .collect();
    let files = read::files_of(&paths)?;
    if files.is_empty() {
        say!(
            "gradle-flaky: no ledger found: no *.jsonl file in {}{}",
            ledger::local_dir(project_dir).display(),
            if extra.is_empty() {
                ""
            } else {
                " or the --ledger paths"
            }
        );
    }
    Ok(files)
}

/// The lines reading skipped, on stderr: the first of each file named.
pub(super) fn warn_of(sources: &Sources) {
    for problem in &sources.problems {
        say!("gradle-flaky: warning: {problem}");
    }
    let unnamed = sources.skipped_lines - sources.problems.len() as u64;
    if unnamed > 0 {
        say!(
            "gradle-flaky: warning: {unnamed} more skipped line(s) (the first {} of each file are named)",
            read::PROBLEMS_PER_FILE
        );
    }
}

/// The tests asked for, as (class, method): the explicit-list grammar, but
/// only names (a path to a source file names no test the ledger keeps).
fn filter_of(args: &[String]) -> Result<Filter> {
    let mut tests = Vec::new();
    for spec in explicit::split(args, |_| false) {
        match explicit::parse(&spec) {
            Spec::Test(t) => tests.push((t.class, t.method)),
            Spec::Path(_) => {
                return Err(Error::input(
                    spec,
                    "history takes test names (FQCN or FQCN#method), not paths",
                ))
            }
        }
    }
    Ok(Filter::new(tests))
}
