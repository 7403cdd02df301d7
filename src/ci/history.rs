//! The report steps' history page (`flakiness-history.html`): the run's
//! tests over this run's ledger and the earlier ones the step was given
//! (`--ledger`), kept as an artifact beside the markdown: each test's rate
//! by commit, and the suspects and clusters among them.

use crate::analyze::Report;
use crate::ledger::history::Filter;
use crate::ledger::{self, html, read, suspects};
use crate::reports::HISTORY_PAGE;
use crate::{tell, warning};
use std::path::{Path, PathBuf};

/// Writes `dir/flakiness-history.html` of `report`'s tests, from `dir`'s
/// ledger file and `ledgers`; a page that cannot be written is a warning.
pub(crate) fn write_page(dir: &Path, ledgers: &[PathBuf], report: &Report) {
    if report.tests.is_empty() {
        return;
    }
    let own = ledger::ci_file(dir);
    let paths: Vec<PathBuf> = own
        .is_file()
        .then_some(own)
        .into_iter()
        .chain(ledgers.iter().filter(|p| p.exists()).cloned())
        .collect();
    let files = match read::files_of(&paths) {
        Ok(files) => files,
        Err(e) => return warning!("the history page was not written: {e}"),
    };
    let tests = report
        .tests
        .iter()
        .map(|t| (t.class.clone(), Some(t.method.clone())))
        .collect();
    let filter = Filter::new(tests);
    // The step runs in the checkout: "before" a commit is its first-parent line.
    let mut checkout = ledger::ancestry::Checkout::at(dir);
    let history = ledger::history_of(&files, &filter, &mut checkout);
    let query = suspects::Query {
        tests: filter,
        ..Default::default()
    };
    let page = html::page(
        &history,
        &ledger::suspects_of(&files, &query),
        "Flakiness history",
    );
    let path = dir.join(HISTORY_PAGE);
    match std::fs::write(&path, page) {
        Ok(()) => tell!("history page written to {}", path.display()),
        Err(e) => warning!(
            "the history page was not written to {}: {e}",
            path.display()
        ),
    }
}
