//! `gradle-flaky pr`: the tests a branch changed and the entries it removed
//! from `muted-tests.yml`, uploaded to Buildkite, planned for GitHub Actions
//! (the defaults inside those CIs) or run on this machine.

use super::{local, options, selection};
use crate::buildkite::upload::Upload;
use crate::cli::{GlobalArgs, PrArgs, Target};
use crate::github::matrix::Submit;
use crate::{Exit, Result};

/// What `pr` says when the branch selects nothing.
const NOTHING: &str = "No test changes or unmutes detected";

pub fn run(global: &GlobalArgs, args: &PrArgs) -> Result<Exit> {
    let target = options::target(args.target, false)?;
    if target == Target::Local {
        return local::run(global, &options::pr_local(global, args)?);
    }
    let batching = options::batching(&args.batching)?;
    let agent = options::agent(&args.agent)?;
    let (build, selection) =
        selection::gather(options::build(global, false)?, &options::pr_selection(args))?;
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
