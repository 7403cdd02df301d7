//! The durations artifact of a CI report step: what the batch jobs measured,
//! for the next pipeline's plan step (`--durations flakiness-durations.json`).

use crate::durations::store;
use crate::warning;
use std::path::Path;

/// Writes what the reports below `jobs` measured to `file`; nothing when they
/// hold no time. A file that cannot be written costs the next plan its
/// durations, never this report: a warning.
pub(crate) fn write_artifact(jobs: &Path, file: &Path) {
    let measured = store::measure(jobs);
    if measured.is_empty() {
        return;
    }
    if let Err(e) = store::write(file, &measured.table()) {
        warning!("the durations artifact was not written: {e}");
    }
}
