//! `gradle-flaky manual`: the manual pipeline's entry point (Buildkite, or a
//! GitHub `workflow_dispatch`). The tests come from `FLAKINESS_CLASSES`,
//! every other knob from its flag or `FLAKINESS_*` variable (see `--help`).

use super::pr::HandOver;
use super::{options, selection};
use crate::cli::{GlobalArgs, ManualArgs, DEFAULT_MUTED_FILE};
use crate::vars::CLASSES;
use crate::{Error, Exit, Result};
use std::path::Path;

pub(crate) fn run(global: &GlobalArgs, args: &ManualArgs) -> Result<Exit> {
    let classes = std::env::var(CLASSES).unwrap_or_default();
    if classes.trim().is_empty() {
        return Err(Error::usage(format!(
            "{CLASSES} environment variable is required (newline- or comma-separated)"
        )));
    }
    let target = options::target(args.target, true)?;
    let settings = options::ci_settings(&args.batching, &args.budget)?;
    let agent = options::agent(&args.agent)?;
    let learned = options::learned(&args.learned)?;
    let triage = options::triage(&args.triage);
    super::pr::no_triage_on_github(target, triage.as_ref())?;
    let (build, selection) = selection::gather(
        options::build(global, false)?,
        &options::manual_selection(classes, &args.choice),
    )?;
    HandOver {
        target,
        settings: &settings,
        agent: &agent,
        dry_run: args.dry_run,
        nothing: &format!("{CLASSES} selected nothing"),
        triage: triage.as_ref(),
        learned: &learned,
        // The branch's muted-tests file where the build keeps it by default:
        // `manual` names its tests and reads none.
        compare: args
            .compare
            .compare
            .as_deref()
            .map(|r| (r, Path::new(DEFAULT_MUTED_FILE))),
    }
    .submit(&build, &selection)
}
