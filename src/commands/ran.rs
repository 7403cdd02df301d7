//! What `local` (and `local --compare`) print once a run is over, and the
//! report they show while it goes on.

use super::options::ReportOutput;
use super::report;
use crate::analyze::Report;
use crate::local::{Reporter, RunRecord};
use crate::{tell, Exit, Result};
use std::path::{Path, PathBuf};

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
    let mut nothing = crate::analyze::analyze_roots(&[], &Default::default());
    nothing.around.not_checked = not_checked.to_vec();
    crate::analyze::rules::verdict::settle(&mut nothing);
    let written = report::emit(&nothing, output, None);
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
        if ran.partial() { " (interrupted)" } else { "" },
        ran.run_dir.display()
    );
    for p in &ran.report.around.problems {
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

/// The report while the run goes on: warnings on stderr, and the report
/// before triage in the chosen format.
pub(super) struct Printer<'a>(pub(super) &'a ReportOutput);

impl Reporter for Printer<'_> {
    fn read(&self, report: &Report) {
        report::warn_unreadable(report);
    }

    fn before_triage(&self, report: &Report, base: &Path) -> Result<PathBuf> {
        report::keep_before_triage(report, self.0, base)
    }
}
