//! `gradle-flaky manual`: the manual pipeline's entry point (Buildkite, or a
//! GitHub `workflow_dispatch`). The tests come from `FLAKINESS_CLASSES`,
//! every other knob from its flag or `FLAKINESS_*` variable (see `--help`).

use super::{options, selection};
use crate::buildkite::upload::Upload;
use crate::cli::{GlobalArgs, ManualArgs, Target};
use crate::github::matrix::Submit;
use crate::{Error, Exit, Result};

/// What `manual` says when the named tests select nothing.
const NOTHING: &str = "FLAKINESS_CLASSES selected nothing";

pub fn run(global: &GlobalArgs, args: &ManualArgs) -> Result<Exit> {
    let classes = std::env::var("FLAKINESS_CLASSES").unwrap_or_default();
    if classes.trim().is_empty() {
        return Err(Error::usage(
            "FLAKINESS_CLASSES environment variable is required (newline- or comma-separated)",
        ));
    }
    let target = options::target(args.target, true)?;
    let batching = options::batching(&args.batching)?;
    let agent = options::agent(&args.agent)?;
    let (build, selection) = selection::gather(
        options::build(global, false)?,
        &options::manual_selection(classes),
    )?;
    if target == Target::Github {
        return Submit {
            batching: &batching.config,
            dry_run: args.dry_run,
            nothing: NOTHING,
        }
        .submit(&build, &selection);
    }
    Upload {
        batching: &batching.config,
        agent: &agent,
        dry_run: args.dry_run,
        nothing: NOTHING,
    }
    .submit(&build, &selection)
}
