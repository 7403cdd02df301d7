//! `gradle-flaky manual`: the manual Buildkite pipeline's entry point. The
//! tests come from `FLAKINESS_CLASSES`, every other knob from its flag or
//! `FLAKINESS_*` variable (see `--help`); the pipeline is uploaded.

use super::{options, selection};
use crate::buildkite::upload::Upload;
use crate::cli::{GlobalArgs, ManualArgs};
use crate::{Error, Exit, Result};

pub fn run(global: &GlobalArgs, args: &ManualArgs) -> Result<Exit> {
    let classes = std::env::var("FLAKINESS_CLASSES").unwrap_or_default();
    if classes.trim().is_empty() {
        return Err(Error::usage(
            "FLAKINESS_CLASSES environment variable is required (newline- or comma-separated)",
        ));
    }
    let batching = options::batching(&args.batching)?;
    let agent = options::agent(&args.agent)?;
    let (build, selection) = selection::gather(
        options::build(global, false)?,
        &options::manual_selection(classes),
    )?;
    Upload {
        batching: &batching.config,
        agent: &agent,
        dry_run: args.dry_run,
        nothing: "FLAKINESS_CLASSES selected nothing",
        triage: options::triage(&args.triage).as_ref(),
    }
    .submit(&build, &selection)
}
