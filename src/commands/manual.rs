//! `gradle-flaky manual`: the manual Buildkite pipeline's entry point. The
//! tests come from `FLAKINESS_CLASSES`, every other knob from its flag or
//! `FLAKINESS_*` variable (see `--help`); the pipeline is uploaded.

use super::buildkite::Upload;
use crate::cli::{GlobalArgs, ManualArgs, SelectionArgs};
use crate::{Error, Exit, Result};

pub fn run(global: &GlobalArgs, args: &ManualArgs) -> Result<Exit> {
    let classes = std::env::var("FLAKINESS_CLASSES").unwrap_or_default();
    if classes.trim().is_empty() {
        return Err(Error::usage(
            "FLAKINESS_CLASSES environment variable is required (newline- or comma-separated)",
        ));
    }
    let selection_args = SelectionArgs {
        tests: vec![classes],
        ..SelectionArgs::default()
    };
    Upload {
        batching: &args.batching,
        agent: &args.agent,
        dry_run: args.dry_run,
        nothing: "FLAKINESS_CLASSES selected nothing",
    }
    .select_and_submit(global, &selection_args)
}
