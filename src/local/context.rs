//! What surrounds the report of a local run, for whoever renders it.

use crate::analyze::model::cost::Cost;
use crate::analyze::model::outcome::JobPayload;
use crate::domain::Unresolved;
use std::path::Path;

/// What surrounds the report of a local run.
#[derive(Clone, Debug, Default)]
pub(crate) struct Context<'a> {
    /// The run was interrupted: the report counts only what ran before.
    pub partial: bool,
    /// Batches without a clean result, one line each.
    pub problems: &'a [String],
    /// Each batch of a local run judged by the job-outcome rules.
    pub batches: &'a [JobPayload],
    /// The run folder, which always keeps a copy of the report: it survives a
    /// closed stdout and a `--report` that cannot be written.
    pub run_dir: Option<&'a Path>,
    /// Selected tests found that cannot run here: the report's head.
    pub not_checked: &'a [Unresolved],
    /// What the run cost (a run that ran).
    pub cost: Option<&'a Cost>,
    /// The run's comparison with another commit (`--compare REF`).
    pub comparison: Option<&'a crate::analyze::model::comparison::ComparedWith>,
    /// Failing tests the ledger holds failing on the base branch too.
    pub known_flaky: &'a [crate::analyze::model::comparison::KnownFlaky],
}
