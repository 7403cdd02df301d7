//! The final analyze step on Buildkite: status files, each job's report, the
//! not-applicable list and the compile gate are fetched as artifacts, judged
//! by `ci::findings`, and become `flakiness-outcomes.json` and the
//! `flakiness-detection` annotation.

use super::agent::{fit_annotation, Agent};
use crate::ci::findings::{findings, write_outcomes, JobRun};
use crate::ci::spec::ReportContext;
use crate::ci::status::read_statuses;
use crate::domain::Unresolved;
use crate::reports::{
    DURATIONS_FILE, JOBS_DIR, OUTCOMES_FILE, PRECOMPILE_FILE, SKIPPED_FILE, STATUS_DIR,
    STATUS_GLOB, XML_GLOB,
};
use crate::say;
use crate::vars::REPORT_CONTEXT;
use crate::{Error, Observed, Result};
use std::path::Path;

/// `buildkite analyze`, the final step: fetch every job's status and XML,
/// write `flakiness-outcomes.json`, print the report and post it as the
/// `flakiness-detection` annotation. Fails only when it cannot write its
/// outputs: what it found is in the annotation; what the jobs observed
/// comes back for opt-in blocking.
pub fn run_step(work: &Path) -> Result<Observed> {
    let agent = std::env::var_os("BUILDKITE").is_some().then(Agent::default);
    let JobArtifacts { jobs, context } =
        fetch_jobs(work, agent.as_ref(), &[SKIPPED_FILE, PRECOMPILE_FILE])?;
    let not_applicable = read_skipped(&work.join(SKIPPED_FILE));
    let marker = std::fs::read_to_string(work.join(PRECOMPILE_FILE)).ok();
    let found = findings(
        &jobs,
        &context,
        &not_applicable,
        is_precompile_failure(marker.as_deref()),
    );
    if !found.payloads.is_empty() {
        write_outcomes(&work.join(OUTCOMES_FILE), &found.payloads)?;
    }
    // What the jobs measured, for the next pipeline's plan step (`--durations`).
    crate::ci::durations::write_artifact(&work.join(JOBS_DIR), &work.join(DURATIONS_FILE));
    crate::output::stdout_line(&found.markdown);
    if let Some(agent) = &agent {
        let body = fit_annotation(&found.markdown);
        let style = found.severity.as_str();
        if let Err(e) = agent.annotate(&body, style, "flakiness-detection", false) {
            say!("gradle-flaky: could not post the report: {e}");
        }
    }
    Ok(found.observed())
}

/// What the batch jobs left, downloaded below the work folder.
pub struct JobArtifacts {
    /// One per readable status file, by file name, with the folder of its
    /// reports (`flakiness-jobs/<job id>/`).
    pub jobs: Vec<JobRun>,
    /// What the upload told the report steps.
    pub context: ReportContext,
}

/// Downloads (in a Buildkite job) the status files and `extra` artifacts,
/// then each job's JUnit XML into a folder of its own, and reads the context
/// the upload put in `$FLAKINESS_REPORT_CONTEXT`. Outside Buildkite it reads
/// what `work` already holds. The report step and the triage step share it.
pub fn fetch_jobs(work: &Path, agent: Option<&Agent>, extra: &[&str]) -> Result<JobArtifacts> {
    if let Some(agent) = agent {
        for glob in [STATUS_GLOB].iter().chain(extra) {
            if let Err(e) = agent.artifact_download(glob, work, None) {
                say!("gradle-flaky: no {glob} downloaded: {e}");
            }
        }
    }
    let context: ReportContext = match std::env::var(REPORT_CONTEXT) {
        Ok(v) => serde_json::from_str(&v)
            .map_err(|e| Error::input(format!("${REPORT_CONTEXT}"), e.to_string()))?,
        Err(_) => ReportContext::default(),
    };
    let jobs_dir = work.join(JOBS_DIR);
    let mut jobs = Vec::new();
    for status in read_statuses(&work.join(STATUS_DIR)) {
        let dir = jobs_dir.join(&status.job_id);
        if let Some(agent) = agent {
            std::fs::create_dir_all(&dir).map_err(|e| Error::io(&dir, e))?;
            if let Err(e) = agent.artifact_download(XML_GLOB, &dir, Some(&status.job_id)) {
                say!("gradle-flaky: no JUnit XML for job {}: {e}", status.job_id);
            }
        }
        jobs.push(JobRun { status, dir });
    }
    Ok(JobArtifacts { jobs, context })
}

/// The not-applicable tests listed by the upload (absent: none).
pub fn read_skipped(path: &Path) -> Vec<Unresolved> {
    let Ok(text) = std::fs::read_to_string(path) else {
        return Vec::new();
    };
    serde_json::from_str(&text).unwrap_or_else(|e| {
        say!("gradle-flaky: ignoring {}: {e}", path.display());
        Vec::new()
    })
}

/// The compile gate failed: `flakiness-precompile.json` says `build_failed`.
pub fn is_precompile_failure(raw: Option<&str>) -> bool {
    raw.and_then(|text| serde_json::from_str::<serde_json::Value>(text).ok())
        .is_some_and(|v| v["outcome"] == "build_failed")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn precompile_markers_follow_the_reference() {
        assert!(is_precompile_failure(Some(
            r#"{"outcome":"build_failed","reason":"precompile"}"#
        )));
        assert!(is_precompile_failure(Some(r#"{"outcome":"build_failed"}"#)));
        for raw in [
            None,
            Some(r#"{"outcome":"clean_pass"}"#),
            Some("{}"),
            Some("not json"),
            Some(""),
        ] {
            assert!(!is_precompile_failure(raw), "{raw:?}");
        }
    }
}
