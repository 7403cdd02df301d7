//! The compile gate, run by the step that plans, before it hands the batches
//! on (as Elasticsearch's generate step compiles before it uploads): the
//! selected test source sets compile, or no batch runs, and the report step
//! is told so as a value (`FLAKINESS_COMPILE_FAILED=true`), never through a
//! marker file whose absence would read as "compiled".

use super::prepare::CiPlan;
use crate::process::Isolation;
use crate::run::job::{failure_message, supervise};
use crate::{shell, tell, Result};
use std::time::Duration;

/// The gate's time limit.
pub(crate) const TIMEOUT: Duration = Duration::from_secs(30 * 60);

/// Compiles what `plan` runs (its `compile` argv, in its build's directory);
/// `Ok(true)` when it compiled or there is nothing to compile.
pub(crate) fn compiles(plan: &CiPlan) -> Result<bool> {
    if plan.compile.is_empty() || plan.batches.is_empty() {
        return Ok(true);
    }
    // Isolated, as every CI job runs Gradle (see `JobSpec::argv_to_run`).
    let argv = Isolation::NoDaemon.apply(&plan.compile)?;
    tell!("compile gate: {}", shell::join(&argv));
    let finished = supervise(&argv, plan.dir.as_deref(), Some(TIMEOUT));
    match failure_message(&finished, Some(TIMEOUT)) {
        None => Ok(true),
        Some(why) => {
            tell!(
                "the selected test sources do not compile (the gate {why}): no \
                 batch runs; the report step records it"
            );
            Ok(false)
        }
    }
}
