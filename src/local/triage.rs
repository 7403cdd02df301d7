//! The triage after a run (`local --triage N`, and `triage RUN_DIR` on a
//! finished one): the report before triage is kept first, so that Ctrl-C
//! (even a second one, which exits at once) never loses it.

use crate::analyze::Report;
use crate::layout::Build;
use crate::plan::PlanContext;
use crate::run::guard::RunGuard;
use crate::run::progress::Progress;
use crate::tell;
use crate::triage::{self, Env, TriageTotals};
use crate::Result;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Where a triage runs and how.
pub(crate) struct TriageSite<'a> {
    pub build: &'a Build,
    /// The folder triaged (a run folder): the report before triage and the
    /// replays go below it.
    pub base: &'a Path,
    pub gradle_args: &'a [String],
    /// Limit of each Gradle invocation, besides the triage's own.
    pub invocation_timeout: Option<Duration>,
    pub verbose: bool,
    /// The run's guard: replays run isolated as its batches did.
    pub guard: &'a RunGuard,
}

/// Triages `report` in place: `keep` keeps the report as it stands (and
/// returns where), then its failing tests are replayed and their verdicts
/// attached. `None` when nothing failed.
pub(crate) fn after_run(
    report: &mut Report,
    cfg: &triage::TriageConfig,
    site: &TriageSite<'_>,
    keep: &dyn Fn(&Report) -> Result<PathBuf>,
) -> Result<Option<TriageTotals>> {
    if !triage::has_failures(report) {
        tell!("triage: nothing to replay, no test failed");
        return Ok(None);
    }
    let saved = keep(report)?;
    tell!(
        "the report before triage: {}; triage replays each failing seed (a test \
         without seeds: the test alone) {} time(s), at most {} replay(s) in all and {}; Ctrl-C \
         keeps the report",
        saved.display(),
        cfg.replays,
        cfg.budget,
        crate::time::format_duration(cfg.timeout)
    );
    let ctx = PlanContext::for_build(site.build, site.gradle_args);
    let env = Env {
        project_dir: &site.build.root,
        gradle: &site.build.gradle,
        forcing: ctx.forcing(),
        extra_args: site.gradle_args,
        base: site.base,
        invocation_timeout: site.invocation_timeout,
        verbose: site.verbose,
    };
    let progress = Progress::new(std::io::stderr().is_terminal() && !site.verbose);
    let summary = triage::run(report, cfg, &env, site.guard, &progress)?;
    tell!(
        "triage: {} failing test(s), {} replay(s) in {} Gradle invocation(s), {}s{}; \
         replays and logs: {}",
        summary.tests,
        summary.replays,
        summary.invocations,
        summary.elapsed.as_secs(),
        if summary.interrupted {
            " (interrupted: partial)"
        } else {
            ""
        },
        summary.dir.display()
    );
    Ok(Some(summary))
}
