//! `gradle-flaky local --compare REF`: the comparison (`crate::compare`),
//! its report (the working tree's, each test with its comparison, the
//! comparison first), both sides kept in the ledger.

use super::options::LocalConfig;
use super::ran::{finish, nothing_ran, Printer};
use super::report;
use crate::compare::{self, CompareConfig, CompareOutcome};
use crate::layout::Build;
use crate::local::LocalOutcome;
use crate::select::Selection;
use crate::{tell, Exit, Result};

pub(crate) fn run(
    build: &Build,
    selection: Selection,
    cfg: &LocalConfig,
    config: &CompareConfig,
) -> Result<Exit> {
    let outcome = compare::run(build, selection, &cfg.run, config, &Printer(&cfg.output))?;
    match &outcome {
        CompareOutcome::NothingSelected(not_checked) => {
            Ok(nothing_ran(not_checked, &cfg.output, |kept| {
                outcome.exit(kept)
            }))
        }
        CompareOutcome::BaseFailed(failed) => {
            let written = report::emit(&failed.report, &cfg.output, None);
            tell!(
                "compare: no test ran on {} ({} batch(es) without a result; reports and logs: \
                 {}): nothing was compared, and this working tree did not run (exit 3){}",
                failed.compared.reference,
                failed.compared.base_problems.len(),
                failed.compared.base_dir.as_deref().unwrap_or("none"),
                if written.is_err() {
                    "; the report could not be written"
                } else {
                    ""
                }
            );
            Ok(outcome.exit(written.is_ok()))
        }
        CompareOutcome::Ran(compared) => {
            compare::keep_in_ledger(&build.root, compared);
            let ran = match &compared.after {
                LocalOutcome::Ran(ran) => ran,
                LocalOutcome::NothingSelected(not_checked) => {
                    return Ok(nothing_ran(not_checked, &cfg.output, |kept| {
                        outcome.exit(kept)
                    }))
                }
            };
            let written = report::emit(&ran.report, &cfg.output, Some(&ran.run_dir));
            Ok(finish(ran, &written, outcome.exit(written.is_ok())))
        }
    }
}
