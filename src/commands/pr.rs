//! `gradle-flaky pr`: the tests a branch changed and the entries it removed
//! from `muted-tests.yml`, uploaded to Buildkite (the default in a Buildkite
//! job) or run on this machine.

use super::{local, options, selection};
use crate::buildkite::upload::Upload;
use crate::cli::{GlobalArgs, PrArgs, Target};
use crate::{Exit, Result};

pub fn run(global: &GlobalArgs, args: &PrArgs) -> Result<Exit> {
    let in_buildkite = std::env::var_os("BUILDKITE").is_some();
    let target = args.target.unwrap_or(if in_buildkite {
        Target::Buildkite
    } else {
        Target::Local
    });
    match target {
        Target::Buildkite => {
            let batching = options::batching(&args.batching)?;
            let agent = options::agent(&args.agent)?;
            let (build, selection) =
                selection::gather(options::build(global, false)?, &options::pr_selection(args))?;
            Upload {
                batching: &batching.config,
                agent: &agent,
                dry_run: args.dry_run,
                nothing: "No test changes or unmutes detected",
                triage: options::triage(&args.triage).as_ref(),
            }
            .submit(&build, &selection)
        }
        Target::Local => local::run(global, &options::pr_local(global, args)?),
    }
}
