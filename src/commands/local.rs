//! `gradle-flaky local`: select, run the selected tests here (`crate::local`),
//! print and keep the report of exactly the XML this run wrote.

use super::options::{self, LocalConfig};
use super::ran::{finish, nothing_ran, Printer};
use super::{report, selection};
use crate::cli::GlobalArgs;
use crate::ledger::Origin;
use crate::ledger::{keep, lookup};
use crate::local::{self, LocalOutcome, RunRecord};
use crate::process;
use crate::{Exit, Result};
use std::path::Path;

pub(crate) fn run(global: &GlobalArgs, cfg: &LocalConfig) -> Result<Exit> {
    // Before any Gradle run (the layout's included): hours of runs must not
    // end in a report that cannot be kept.
    report::check_writable(&cfg.output)?;
    // From here on a signal asks for an orderly stop (reading the layout
    // included) instead of killing us with Gradle still running.
    process::supervise();
    // Unlike `plan`, a missing Gradle is an error here, before anything runs.
    let build = options::build(global, true)?;
    let (build, selection) = selection::gather(build, &cfg.selection)?;
    if let Some(compare) = &cfg.compare {
        return super::compare::run(&build, selection, cfg, compare);
    }
    let base = selection.base.clone();
    let mut outcome = local::run(&build, selection, &cfg.run, &Printer(&cfg.output))?;
    // Before this run is in the ledger: its own failures are not the base's.
    if let LocalOutcome::Ran(ran) = &mut outcome {
        ran.report.around.known_flaky = lookup::known_on_base(
            Some(&build.root),
            &cfg.ledgers,
            &ran.report,
            base.as_deref(),
        );
    }
    let ran = match &outcome {
        LocalOutcome::Ran(ran) => ran,
        LocalOutcome::NothingSelected(not_checked) => {
            return Ok(nothing_ran(not_checked, &cfg.output, |kept| {
                outcome.exit(kept)
            }))
        }
    };
    let written = report::emit(&ran.report, &cfg.output, Some(&ran.run_dir));
    keep_in_ledger(&build.root, ran);
    Ok(finish(ran, &written, outcome.exit(written.is_ok())))
}

/// Appends the run's counts (and its triage's replays) to the build's ledger.
fn keep_in_ledger(root: &Path, ran: &RunRecord) {
    let run_id = ran
        .run_dir
        .file_name()
        .unwrap_or_default()
        .to_string_lossy();
    let meta = keep::local_meta(root, &run_id, Origin::Local);
    keep::append_local(root, &keep::records_with_triage(&ran.report, &meta));
}
