//! `gradle-flaky buildkite upload|wrap|analyze|triage`:
//! options in, the `buildkite` module does the rest.

use super::{options, selection};
use crate::buildkite::upload::Upload;
use crate::buildkite::{report, wrap};
use crate::ci::blocking;
use crate::cli::{
    BuildkiteAnalyzeArgs, BuildkiteTriageArgs, BuildkiteUploadArgs, GlobalArgs, WrapArgs,
};
use crate::{tell, Exit, Result};

/// `buildkite upload [SELECTION]`.
pub(crate) fn upload(global: &GlobalArgs, args: &BuildkiteUploadArgs) -> Result<Exit> {
    let settings = options::ci_settings(&args.batching, &args.budget)?;
    let agent = options::agent(&args.agent)?;
    let learned = options::learned(&args.learned)?;
    let (build, selection) = selection::gather(
        options::build(global, false)?,
        &options::selection(&args.selection),
    )?;
    Upload {
        settings: &settings,
        agent: &agent,
        dry_run: args.dry_run,
        nothing: "nothing selected",
        triage: options::triage(&args.triage).as_ref(),
        learned: &learned,
        compare: args
            .compare
            .compare
            .as_deref()
            .map(|r| (r, args.selection.muted_file.as_path())),
    }
    .submit(&build, &selection)
}

/// `buildkite wrap`: always exits 0 once the batch could be read, but for
/// the command's rc `--pass-exit-code` names (the report step's blocking).
pub(crate) fn wrap(args: &WrapArgs) -> Result<Exit> {
    let pass = args
        .pass_exit_code
        .as_deref()
        .map(crate::ci::blocking::proven_exit_code)
        .transpose()?;
    let batch = if args.from_env {
        wrap::Wrapped::FromEnv
    } else {
        wrap::Wrapped::Command {
            kind: args.kind.clone(),
            argv: args.command.clone(),
        }
    };
    let rc = wrap::run_job(&batch, &args.status_dir, args.timeout)?;
    Ok(match pass {
        Some(code) if rc == i32::from(code) => Exit::Proven(code),
        _ => Exit::Clean,
    })
}

/// `buildkite analyze`: the final step; 0 but for opt-in blocking.
pub(crate) fn analyze(args: &BuildkiteAnalyzeArgs) -> Result<Exit> {
    let blocking = options::blocking(&args.blocking)?;
    let learned = options::learned(&crate::cli::LearnedArgs {
        learned: None,
        learned_build: args.learned_build.clone(),
    })?;
    let real_failures = report::run_step(&args.work_dir, &args.ledger, &learned)?.real_failures;
    let var = std::env::var(blocking::BUILDKITE_LABELS_VAR).ok();
    let labels = blocking::buildkite_labels(var.as_deref());
    tell!("{}", blocking.explain(&labels, real_failures));
    Ok(blocking
        .exit_code(&labels, real_failures)
        .map_or(Exit::Clean, Exit::Proven))
}

/// `buildkite triage`: the optional triage step.
pub(crate) fn triage(args: &BuildkiteTriageArgs) -> Result<Exit> {
    crate::buildkite::triage::run_step(&args.work_dir)?;
    Ok(Exit::Clean)
}
