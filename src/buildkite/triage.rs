//! The optional triage step (`FLAKINESS_TRIAGE`): after the report step, on a
//! batch agent, it fetches every job's reports as the report step does,
//! replays the failing tests in this checkout, writes `flakiness-triage.json`
//! (the Report JSON, each failing test with its `triage`) and posts the
//! triage as an annotation of its own.
//!
//! Its own annotation context, `flakiness-triage`, rather than appending to
//! `flakiness-detection`: the report annotation is complete and already cut to
//! Buildkite's size limit when this step starts, and appending would both risk
//! that limit and change the report's style; a triage step that fails or is
//! cancelled then leaves the report untouched.

use super::agent::{fit_annotation, Agent};
use super::pipeline::TriageSpec;
use super::report::{fetch_jobs, JobArtifacts};
use crate::analyze::render;
use crate::ci::reading::Reading;
use crate::ledger::keep;
use crate::plan::Forcing;
use crate::reports::TRIAGE_FILE;
use crate::run::guard::RunGuard;
use crate::run::progress::Progress;
use crate::tell;
use crate::triage::{self, Env, TriageConfig};
use crate::vars::TRIAGE_SPEC;
use crate::{Error, Result};
use std::path::Path;
use std::time::Duration;

/// The annotation context of the triage.
pub(crate) const CONTEXT: &str = "flakiness-triage";

/// `buildkite triage`: replays the failing tests of the batch jobs. Fails
/// only when it cannot read its spec or write its outputs.
pub(crate) fn run_step(work: &Path) -> Result<()> {
    let spec: TriageSpec = match std::env::var(TRIAGE_SPEC) {
        Ok(v) => serde_json::from_str(&v)
            .map_err(|e| Error::input(format!("${TRIAGE_SPEC}"), e.to_string()))?,
        Err(_) => {
            return Err(Error::usage(format!(
                "${TRIAGE_SPEC} is not set: is this step from `gradle-flaky buildkite upload --triage N`?"
            )))
        }
    };
    if spec.replays == 0 || spec.budget == 0 || spec.timeout_sec == 0 {
        return Err(Error::input(
            format!("${TRIAGE_SPEC}"),
            "replays, budget and timeoutSec must be at least 1",
        ));
    }
    let agent = std::env::var_os("BUILDKITE").is_some().then(Agent::default);
    let JobArtifacts { jobs, context } = fetch_jobs(work, agent.as_ref(), &[])?;
    // The tests the report judged: a whole-task job's neighbours are not replayed.
    let mut report = Reading::new(&jobs, &context.jobs, &context).all(&jobs);
    let cwd = std::env::current_dir().map_err(|e| Error::io(".", e))?;
    let root = cwd.join(spec.dir.as_deref().unwrap_or(Path::new("")));
    let gradle = if context.gradle.is_empty() {
        vec!["./gradlew".to_string()]
    } else {
        context.gradle.clone()
    };
    if triage::has_failures(&report) {
        let cfg = TriageConfig {
            replays: spec.replays,
            budget: spec.budget,
            timeout: Duration::from_secs(spec.timeout_sec),
        };
        let env = Env {
            project_dir: &root,
            gradle: &gradle,
            forcing: if spec.rerun {
                Forcing::Rerun
            } else {
                Forcing::CleanTask
            },
            extra_args: &[],
            base: work,
            invocation_timeout: None,
            verbose: false,
        };
        // CI is isolated: no daemon of a job may outlive it.
        let guard = RunGuard::temporary(true, cfg.invocations())?;
        let summary = triage::run(&mut report, &cfg, &env, &guard, &Progress::new(false))?;
        tell!(
            "triage: {} failing test(s), {} replay(s) in {} Gradle invocation(s), {}s",
            summary.tests,
            summary.replays,
            summary.invocations,
            summary.elapsed.as_secs()
        );
    }
    // The replays, for history (the step's own `flakiness-ledger.jsonl`).
    let meta = keep::CiRun::buildkite().meta();
    keep::append_ci(work, &keep::triage_records(&report, &meta));
    let path = work.join(TRIAGE_FILE);
    std::fs::write(&path, render::json(&report)).map_err(|e| Error::io(&path, e))?;
    let body = render::triage_markdown(&report);
    crate::output::stdout_line(&body);
    if let Some(agent) = &agent {
        if let Err(e) = agent.annotate(&fit_annotation(&body), "info", CONTEXT, false) {
            tell!("could not post the triage: {e}");
        }
    }
    Ok(())
}
