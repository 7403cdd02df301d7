//! The final analyze step on Buildkite: status files, each job's report and
//! the not-applicable list are fetched as artifacts; the compile gate's
//! verdict and the list's size come as values in the step's `env`
//! (`ci::report_inputs`); all is judged by `ci::findings`, and becomes
//! `flakiness-outcomes.json` and the `flakiness-detection` annotation.

use super::agent::{fit_annotation, Agent};
use crate::ci::compare as ci_compare;
use crate::ci::findings::{findings, write_outcomes};
use crate::ci::learned::{self, Learned, Lesson};
use crate::ci::report_inputs::{self, SkipList};
use crate::ci::spec::ReportContext;
use crate::ci::status::read_statuses;
use crate::ci::status::JobRun;
use crate::ledger::{keep, lookup};
use crate::reports::{
    DURATIONS_FILE, JOBS_DIR, OUTCOMES_FILE, SKIPPED_FILE, STATUS_DIR, STATUS_GLOB, XML_GLOB,
};
use crate::tell;
use crate::vars::REPORT_CONTEXT;
use crate::{Error, Observed, Result};
use std::path::{Path, PathBuf};

/// `buildkite analyze`, the final step: fetch every job's status and XML,
/// write `flakiness-outcomes.json`, print the report and post it as the
/// `flakiness-detection` annotation. Fails only when it cannot write its
/// outputs: what it found is in the annotation; what the jobs observed
/// comes back for opt-in blocking.
pub(crate) fn run_step(work: &Path, ledgers: &[PathBuf], learned: &Learned) -> Result<Observed> {
    let agent = std::env::var_os("BUILDKITE").is_some().then(Agent::default);
    // The plan step uploads its skip list only when it skipped a test.
    let none_skipped = std::env::var(crate::vars::SKIPPED_COUNT).is_ok_and(|n| n.trim() == "0");
    let extra: &[&str] = if none_skipped { &[] } else { &[SKIPPED_FILE] };
    let JobArtifacts { jobs, context } = fetch_jobs(work, agent.as_ref(), extra)?;
    // What earlier builds learned, which this one adds to.
    let learned_dir = work.join(learned::DIR);
    if let (Some(agent), Some(build)) = (&agent, &learned.build) {
        super::upload::fetch_learned(agent, build, Some(&learned_dir));
    }
    let ledgers: Vec<PathBuf> = ledgers
        .iter()
        .cloned()
        .chain(learned::ledger_in(&learned_dir))
        .collect();
    let inputs = report_inputs::from_env(SKIPPED_FILE, || {
        match std::fs::read_to_string(work.join(SKIPPED_FILE)) {
            Ok(text) => SkipList::Text(text),
            Err(_) => SkipList::Missing,
        }
    });
    for problem in &inputs.problems {
        tell!("the report's inputs: {problem}");
    }
    let mut found = findings(&jobs, &context, &inputs);
    // A failing test that already fails on the pull request's base, from earlier ledgers.
    let base = std::env::var("BUILDKITE_PULL_REQUEST_BASE_BRANCH").ok();
    found.overall.around.known_flaky =
        lookup::known_on_base(None, &ledgers, &found.overall, base.as_deref());
    if !found.payloads().is_empty() {
        write_outcomes(&work.join(OUTCOMES_FILE), found.payloads())?;
    }
    // What the jobs measured, for the next pipeline's plan step (`--durations`).
    crate::ci::durations::write_artifact(&work.join(JOBS_DIR), &work.join(DURATIONS_FILE));
    // Every run's counts, for history: the `flakiness-ledger.jsonl` artifact.
    let meta = keep::CiRun::buildkite().meta();
    let mut records = keep::ci_records(&found.overall, &meta);
    if let Some(compare) = &context.compare {
        let jobs = fetch_base_jobs(work, agent.as_ref())?;
        let head = meta.commit.clone();
        let (compared, before) =
            crate::compare::ci::judge_findings(&mut found, &jobs, compare, &context, head);
        ci_compare::write_report(work, &found.overall, &compared)?;
        records.extend(crate::compare::ci::before_records(&before, compare, &meta));
    }
    keep::append_ci(work, &records);
    crate::ci::history::write_page(work, &ledgers, &found.overall);
    learned::learn(
        &learned_dir,
        &Lesson {
            measured: &work.join(JOBS_DIR),
            jobs: &jobs,
            report: &found.overall,
            records: &records,
            commit: meta.commit.as_deref(),
        },
    );
    let markdown = found.markdown();
    crate::output::stdout_line(&markdown);
    if let Some(agent) = &agent {
        let body = fit_annotation(&markdown);
        let style = found.severity().as_str();
        if let Err(e) = agent.annotate(&body, style, "flakiness-detection", false) {
            tell!("could not post the report: {e}");
        }
    }
    Ok(found.observed())
}

/// What REF's jobs left (`--compare`), downloaded below the work folder:
/// their status files, then each job's reports into a folder of its own.
fn fetch_base_jobs(work: &Path, agent: Option<&Agent>) -> Result<Vec<JobRun>> {
    if let Some(agent) = agent {
        if let Err(e) = agent.artifact_download(ci_compare::STATUS_GLOB, work, None) {
            tell!("no {} downloaded: {e}", ci_compare::STATUS_GLOB);
        }
    }
    let jobs_dir = work.join(ci_compare::JOBS_DIR);
    let mut jobs = Vec::new();
    for status in ci_compare::statuses(work) {
        let dir = jobs_dir.join(&status.job_id);
        if let Some(agent) = agent {
            std::fs::create_dir_all(&dir).map_err(|e| Error::io(&dir, e))?;
            let glob = ci_compare::XML_GLOB;
            if let Err(e) = agent.artifact_download(glob, &dir, Some(&status.job_id)) {
                tell!("no JUnit XML for REF's job {}: {e}", status.job_id);
            }
        }
        let dir = ci_compare::reports_root(&dir);
        jobs.push(JobRun { status, dir });
    }
    Ok(jobs)
}

/// What the batch jobs left, downloaded below the work folder.
pub(crate) struct JobArtifacts {
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
pub(crate) fn fetch_jobs(
    work: &Path,
    agent: Option<&Agent>,
    extra: &[&str],
) -> Result<JobArtifacts> {
    if let Some(agent) = agent {
        for glob in [STATUS_GLOB].iter().chain(extra) {
            if let Err(e) = agent.artifact_download(glob, work, None) {
                tell!("no {glob} downloaded: {e}");
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
                tell!("no JUnit XML for job {}: {e}", status.job_id);
            }
        }
        jobs.push(JobRun { status, dir });
    }
    Ok(JobArtifacts { jobs, context })
}
