//! `gradle-flaky local`: select, run the selected tests here (`crate::local`),
//! print and keep the report of exactly the XML this run wrote.

use super::options::{self, LocalConfig, ReportOutput};
use super::{report, selection};
use crate::analyze::Report;
use crate::cli::GlobalArgs;
use crate::ledger::Origin;
use crate::ledger::{keep, lookup};
use crate::local::{self, Context, LocalOutcome, Reporter, RunRecord};
use crate::process;
use crate::{tell, Exit, Result};
use std::path::{Path, PathBuf};

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
    let outcome = local::run(&build, selection, &cfg.run, &Printer(&cfg.output))?;
    let ran = match &outcome {
        LocalOutcome::Ran(ran) => ran,
        LocalOutcome::NothingSelected(not_checked) => {
            return Ok(nothing_ran(not_checked, &cfg.output, |kept| {
                outcome.exit(kept)
            }))
        }
    };
    // Before this run is in the ledger: its own failures are not the base's.
    let known = lookup::known_on_base(
        Some(&build.root),
        &cfg.ledgers,
        &ran.report,
        base.as_deref(),
    );
    let ctx = Context {
        known_flaky: &known,
        ..ran.context()
    };
    let written = report::emit(&ran.report, &cfg.output, &ctx);
    keep_in_ledger(&build.root, ran);
    Ok(finish(ran, &written, outcome.exit(written.is_ok())))
}

/// When no selected test ran: a report when tests were selected and none
/// could run (never a quiet pass), else a line; the exit status `exit`
/// gives for whether the report was kept.
pub(super) fn nothing_ran(
    not_checked: &[crate::domain::Unresolved],
    output: &ReportOutput,
    exit: impl Fn(bool) -> Exit,
) -> Exit {
    if not_checked.is_empty() {
        tell!("nothing selected: no test to run");
        return exit(true);
    }
    let nothing = crate::analyze::analyze_roots(&[], &Default::default());
    let ctx = Context {
        not_checked,
        ..Context::default()
    };
    let written = report::emit(&nothing, output, &ctx);
    tell!(
        "none of the {} selected test(s) can run here: nothing was checked",
        not_checked.len()
    );
    exit(written.is_ok())
}

/// The lines after a run's report: what ran, where its reports are, each
/// batch without a clean result, a report that could not be written; the
/// exit status `exit`.
pub(super) fn finish(ran: &RunRecord, written: &Result<()>, exit: Exit) -> Exit {
    let invocations: usize = ran.runs.iter().map(|r| r.done.iterations.len()).sum();
    tell!(
        "{} of {} batch(es), {invocations} Gradle invocation(s) in {}s{}; \
         reports and logs: {}",
        ran.runs.len(),
        ran.planned,
        ran.took.as_secs(),
        if ran.partial { " (interrupted)" } else { "" },
        ran.run_dir.display()
    );
    for p in &ran.problems {
        tell!("{p}");
    }
    if let Err(e) = written {
        tell!("{e}");
    }
    if written.is_err() && exit == Exit::TestFailures {
        tell!("flakiness was proven all the same: exit 1");
    }
    exit
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

/// The report while the run goes on: warnings on stderr, and the report
/// before triage in the chosen format.
pub(super) struct Printer<'a>(pub(super) &'a ReportOutput);

impl Reporter for Printer<'_> {
    fn read(&self, report: &Report) {
        report::warn_unreadable(report);
    }

    fn before_triage(&self, report: &Report, ctx: &Context<'_>, base: &Path) -> Result<PathBuf> {
        report::keep_before_triage(report, self.0, ctx, base)
    }
}
