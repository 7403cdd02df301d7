//! `gradle-flaky history`: what the run ledgers hold of tests.

use crate::cli::{GlobalArgs, HistoryArgs, ReportFormat};
use crate::ledger::history::Filter;
use crate::ledger::{self, read, render};
use crate::select::explicit::{self, Spec};
use crate::{output, say, Error, Exit, Result};

pub(crate) fn run(global: &GlobalArgs, args: &HistoryArgs) -> Result<Exit> {
    let filter = filter_of(&args.tests)?;
    let own = ledger::local_dir(&global.project_dir);
    let paths: Vec<_> = own
        .is_dir()
        .then_some(own)
        .into_iter()
        .chain(args.ledger.iter().cloned())
        .collect();
    let files = read::files_of(&paths)?;
    // "Before" a newest commit is its first-parent line in the build's checkout.
    let mut checkout = ledger::ancestry::Checkout::at(&global.project_dir);
    let history = ledger::history_of(&files, &filter, &mut checkout);
    let sources = &history.sources;
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
    if files.is_empty() {
        say!(
            "gradle-flaky: no ledger found: no *.jsonl file in {}{}",
            ledger::local_dir(&global.project_dir).display(),
            if args.ledger.is_empty() {
                ""
            } else {
                " or the --ledger paths"
            }
        );
    }
    output::stdout(&match args.format {
        ReportFormat::Markdown => render::markdown(&history),
        ReportFormat::Json => render::json(&history),
    });
    Ok(Exit::Clean)
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
