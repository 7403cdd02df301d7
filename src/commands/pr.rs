//! `gradle-flaky pr`: the tests a branch changed and the entries it removed
//! from `muted-tests.yml`, uploaded to Buildkite, planned for GitHub Actions
//! (the defaults inside those CIs) or run on this machine.

use super::{local, options, selection};
use crate::buildkite::upload::Upload;
use crate::buildkite::AgentConfig;
use crate::cli::{GlobalArgs, PrArgs, Target};
use crate::domain::BatchingConfig;
use crate::github::matrix::Submit;
use crate::layout::Build;
use crate::select::Selection;
use crate::{Exit, Result};

pub fn run(global: &GlobalArgs, args: &PrArgs) -> Result<Exit> {
    let target = options::target(args.target, false)?;
    if target == Target::Local {
        return local::run(global, &options::pr_local(global, args)?);
    }
    let batching = options::batching(&args.batching)?;
    let agent = options::agent(&args.agent)?;
    let (build, selection) =
        selection::gather(options::build(global, false)?, &options::pr_selection(args))?;
    HandOver {
        target,
        batching: &batching.config,
        agent: &agent,
        dry_run: args.dry_run,
        nothing: "No test changes or unmutes detected",
    }
    .submit(&build, &selection)
}

/// A selection handed to a CI: uploaded to Buildkite, or planned for GitHub Actions.
pub(super) struct HandOver<'a> {
    pub target: Target,
    pub batching: &'a BatchingConfig,
    pub agent: &'a AgentConfig,
    pub dry_run: bool,
    /// What to say when nothing is selected.
    pub nothing: &'a str,
}

impl HandOver<'_> {
    pub fn submit(&self, build: &Build, selection: &Selection) -> Result<Exit> {
        if self.target == Target::Github {
            return Submit {
                batching: self.batching,
                dry_run: self.dry_run,
                nothing: self.nothing,
            }
            .submit(build, selection);
        }
        Upload {
            batching: self.batching,
            agent: self.agent,
            dry_run: self.dry_run,
            nothing: self.nothing,
        }
        .submit(build, selection)
    }
}
