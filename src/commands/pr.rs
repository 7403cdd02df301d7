//! `gradle-flaky pr`: the tests a branch changed and the entries it removed
//! from `muted-tests.yml`, uploaded to Buildkite (the default in a Buildkite
//! job) or run on this machine.

use super::buildkite::Upload;
use crate::cli::{GlobalArgs, LocalArgs, PrArgs, SelectionArgs, Target};
use crate::{Exit, Result};

pub fn run(global: &GlobalArgs, args: &PrArgs) -> Result<Exit> {
    let target = args
        .target
        .unwrap_or(if std::env::var_os("BUILDKITE").is_some() {
            Target::Buildkite
        } else {
            Target::Local
        });
    let selection_args = SelectionArgs {
        changed: true,
        unmuted: true,
        base: args.base.clone(),
        muted_file: args.muted_file.clone(),
        ..SelectionArgs::default()
    };
    match target {
        Target::Buildkite => Upload {
            batching: &args.batching,
            agent: &args.agent,
            dry_run: args.dry_run,
            nothing: "No test changes or unmutes detected",
        }
        .select_and_submit(global, &selection_args),
        Target::Local => super::local::local(
            global,
            &LocalArgs {
                selection: selection_args,
                batching: args.batching.clone(),
                report: args.report.clone(),
                batch_timeout: args.batch_timeout,
                gradle_args: Vec::new(),
            },
        ),
    }
}
