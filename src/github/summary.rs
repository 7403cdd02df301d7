//! `github analyze DIR`, the workflow's final job: the artifacts the plan and
//! batch jobs uploaded (downloaded into DIR, one folder each) go through the
//! report core every CI shares (`ci::findings`); only the outputs are
//! GitHub's: the job summary, one annotation per failing test, and the report
//! in the log with workflow commands switched off.

use super::annotations::{self, AnnotationSources, Level, WorkflowAnnotation};
use super::matrix::PlanFile;
use super::runner::{print_untrusted, RunnerFiles};
use crate::ci::blocking::{self, Blocking};
use crate::ci::compare;
use crate::ci::findings::{findings, write_outcomes, Findings};
use crate::ci::learned::{self, Lesson};
use crate::ci::report_inputs::{self, ReportInputs, SkipList};
use crate::ci::spec::CompareContext;
use crate::ci::status::read_statuses;
use crate::ci::status::JobRun;
use crate::ledger::{keep, lookup};
use crate::reports::{walk, PLAN_FILE, STATUS_DIR};
use crate::tell;
use crate::{Error, Exit, Result};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// What `github analyze` reads and writes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnalyzeArtifacts {
    /// The downloaded artifacts, one folder each.
    pub dir: PathBuf,
    /// Where `flakiness-outcomes.json` goes.
    pub outcomes: PathBuf,
    /// The checkout, where annotated tests' sources are looked up.
    pub sources: PathBuf,
    /// Exit with the report's exit code instead of 0.
    pub exit_code: bool,
    /// Opt-in blocking: with labels, only a labelled pull request with proven
    /// flakiness fails the job (and `exit_code` is narrowed to that).
    pub blocking: Blocking,
    /// Earlier run ledgers (`--ledger`), for the known-flaky note.
    pub ledgers: Vec<PathBuf>,
}

/// The plan and every batch job found among the artifacts.
#[derive(Clone, Debug, Default)]
pub(crate) struct Artifacts {
    /// `None` when no artifact holds the plan.
    pub plan: Option<PlanFile>,
    pub jobs: Vec<JobRun>,
    /// REF's jobs (`--compare`): a folder with `flakiness-base/status/`.
    pub base_jobs: Vec<JobRun>,
}

impl Artifacts {
    /// Reads DIR and each folder in it: a folder with `flakiness-plan.json` is
    /// the plan's, one with `flakiness-status/` a batch job's (its status
    /// files and its XML, below the build's paths), one with
    /// `flakiness-base/status/` a REF job's. Anything else is ignored.
    pub(crate) fn read(dir: &Path) -> Result<Artifacts> {
        let mut folders = walk::folders(dir).map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => Error::input(
                dir.display().to_string(),
                "no such folder: the workflow downloads every `flakiness-*` artifact there",
            ),
            _ => Error::io(dir, e),
        })?;
        folders.insert(0, dir.to_path_buf());
        let mut found = Artifacts::default();
        let mut ids = BTreeSet::new();
        for folder in folders {
            let plan = folder.join(PLAN_FILE);
            if plan.is_file() && found.plan.is_none() {
                found.plan = Some(PlanFile::read(&plan)?);
            }
            found.jobs.extend(jobs_in(&folder, STATUS_DIR, &mut ids));
            found
                .base_jobs
                .extend(jobs_in(&folder, compare::STATUS_DIR, &mut ids));
        }
        Ok(found)
    }
}

/// The jobs whose status files are in `folder`'s `status_dir`, each with
/// `folder` as its reports; a job id seen before (in `ids`) is ignored.
fn jobs_in(folder: &Path, status_dir: &str, ids: &mut BTreeSet<String>) -> Vec<JobRun> {
    let mut jobs = Vec::new();
    for status in read_statuses(&folder.join(status_dir)) {
        if !ids.insert(status.job_id.clone()) {
            tell!(
                "{}: job {} has a status file already; ignored",
                folder.display(),
                status.job_id
            );
            continue;
        }
        jobs.push(JobRun {
            status,
            dir: folder.to_path_buf(),
        });
    }
    jobs
}

/// The warning for batch jobs without a trustworthy result, if any.
fn unfinished_note(found: &crate::ci::findings::Findings) -> Option<WorkflowAnnotation> {
    let open = found
        .payloads()
        .iter()
        .filter(|p| {
            use crate::analyze::model::outcome::OutcomeKind::*;
            matches!(p.outcome, Timeout | Hang | InfraFail | BuildFailed)
        })
        .count()
        + found.missing().len();
    (open > 0).then(|| {
        WorkflowAnnotation::new(
            Level::Warning,
            "Flakiness: batches without a result",
            format!(
                "{open} batch job(s) gave no trustworthy result (timeout, hang, infrastructure \
                 failure, or no status file): see the job summary."
            ),
        )
    })
}

/// The report job's inputs: the plan file carries the skip list (`None`:
/// it did not arrive); the plan job's outputs, its size and the compile
/// gate's verdict.
fn inputs(plan: Option<&PlanFile>) -> ReportInputs {
    let inputs = report_inputs::from_env(PLAN_FILE, || match plan {
        Some(plan) => SkipList::Entries(plan.not_applicable.clone()),
        None => SkipList::Missing,
    });
    for problem in &inputs.problems {
        tell!("the report's inputs: {problem}");
    }
    inputs
}

/// Runs the report job: the outcomes file, the summary, the annotations.
pub(crate) fn run(cfg: &AnalyzeArtifacts) -> Result<Exit> {
    let artifacts = Artifacts::read(&cfg.dir)?;
    let plan_reached = artifacts.plan.is_some();
    let mut notes = Vec::new();
    let plan = artifacts.plan.unwrap_or_else(|| {
        notes.push(WorkflowAnnotation::new(
            Level::Warning,
            "Flakiness: no plan",
            format!(
                "No {PLAN_FILE} among the artifacts in {}: which batches were expected, and \
                 the Gradle paths of renamed projects, are unknown.",
                cfg.dir.display()
            ),
        ));
        PlanFile::default()
    });
    let inputs = inputs(plan_reached.then_some(&plan));
    let mut found = findings(&artifacts.jobs, &plan.report, &inputs);
    // What earlier runs learned (the workflow restores it from the Actions
    // cache beside the outputs), which this one adds to.
    let beside = cfg.outcomes.parent().unwrap_or(Path::new(""));
    let learned_dir = beside.join(learned::DIR);
    let ledgers: Vec<PathBuf> = cfg
        .ledgers
        .iter()
        .cloned()
        .chain(learned::ledger_in(&learned_dir))
        .collect();
    // A failing test that already fails on the pull request's base, from earlier ledgers.
    let base = std::env::var("GITHUB_BASE_REF").ok();
    found.overall.around.known_flaky =
        lookup::known_on_base(None, &ledgers, &found.overall, base.as_deref());
    if !found.payloads().is_empty() {
        write_outcomes(&cfg.outcomes, found.payloads())?;
    }
    // Every run's counts, for history: `flakiness-ledger.jsonl` beside the
    // outcomes, uploaded as the `flakiness-ledger` artifact.
    let meta = keep::CiRun::github().meta();
    let mut records = keep::ci_records(&found.overall, &meta);
    if let Some(side) = &plan.report.compare {
        let head = meta.commit.clone();
        let (note, before) =
            compared_with_ref(&mut found, &artifacts.base_jobs, side, &plan, beside, head)?;
        records.extend(crate::compare::ci::before_records(&before, side, &meta));
        notes.extend(note);
    }
    keep::append_ci(beside, &records);
    crate::ci::history::write_page(beside, &cfg.ledgers, &found.overall);
    learned::learn(
        &learned_dir,
        &Lesson {
            measured: &cfg.dir,
            jobs: &artifacts.jobs,
            report: &found.overall,
            records: &records,
            commit: meta.commit.as_deref(),
        },
    );
    let runner = RunnerFiles::from_env();
    let markdown = found.markdown();
    runner.append_summary(&markdown)?;
    print_untrusted(&markdown);

    notes.extend(unfinished_note(&found));
    print_annotations(cfg, &found, notes);
    Ok(exit_of(cfg, &found, artifacts.jobs.len()))
}

/// The workflow commands that place failures on their source lines, then `notes`.
fn print_annotations(cfg: &AnalyzeArtifacts, found: &Findings, notes: Vec<WorkflowAnnotation>) {
    let to_place = found
        .overall
        .tests
        .iter()
        .any(|t| t.failures > 0 || t.suite_timeouts > 0);
    let sources = if to_place {
        AnnotationSources::scan(&cfg.sources, &cfg.dir)
    } else {
        AnnotationSources::default()
    };
    let mut annotations = annotations::for_report(&found.overall, &sources);
    annotations.extend(notes);
    for annotation in &annotations {
        crate::output::stdout_line(&annotation.command());
    }
}

/// The report job's exit status: the blocking labels' when blocking is on,
/// else the report's, enforced with `--exit-code`.
fn exit_of(cfg: &AnalyzeArtifacts, found: &Findings, jobs: usize) -> Exit {
    let observed = found.observed();
    let exit = Exit::of(observed);
    if cfg.blocking.is_on() {
        let event = std::env::var_os("GITHUB_EVENT_PATH").map(PathBuf::from);
        let labels = blocking::github_labels(event.as_deref());
        let code = cfg.blocking.exit_code(&labels, observed.real_failures);
        tell!(
            "{jobs} job(s) analyzed; {}",
            cfg.blocking.explain(&labels, observed.real_failures)
        );
        return code.map_or(Exit::Clean, Exit::Proven);
    }
    tell!(
        "{jobs} job(s) analyzed; the report's exit code is {}{}",
        exit.code(),
        if cfg.exit_code {
            ""
        } else {
            " (reported, not enforced: pass --exit-code to fail the job)"
        }
    );
    if cfg.exit_code {
        exit
    } else {
        Exit::Clean
    }
}

/// `--compare REF`: each test judged against REF's jobs, the report with its
/// comparisons beside the outcomes (`flakiness-comparison.json`); a note
/// when REF's side is incomplete, and REF's counts for the ledger.
fn compared_with_ref(
    found: &mut Findings,
    base_jobs: &[JobRun],
    side: &CompareContext,
    plan: &PlanFile,
    beside: &Path,
    head: Option<String>,
) -> Result<(Option<WorkflowAnnotation>, crate::analyze::Report)> {
    let (compared, before) =
        crate::compare::ci::judge_findings(found, base_jobs, side, &plan.report, head);
    compare::write_report(beside, &found.overall, &compared)?;
    let note = (!compared.base_problems.is_empty()).then(|| {
        WorkflowAnnotation::new(
            Level::Warning,
            "Flakiness: REF's side incomplete",
            format!(
                "{} of REF's jobs gave no trustworthy result: their tests have no \
                 comparison (see the job summary).",
                compared.base_problems.len()
            ),
        )
    });
    Ok((note, before))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ci::status::{write_status, Status};

    /// A status file's fields that matter here; the others as read by default.
    fn status(job_id: &str, step_key: &str) -> Status {
        serde_json::from_value(serde_json::json!({ "jobId": job_id, "stepKey": step_key })).unwrap()
    }

    /// A REF job's artifact (`flakiness-base/status/`) is REF's side, never
    /// one of the branch's batches; a job id seen twice is read once.
    #[test]
    fn refs_jobs_are_read_apart_from_the_branchs() {
        let dir = tempfile::tempdir().unwrap();
        let branch = dir.path().join("flakiness-batch-0");
        let base = dir.path().join("flakiness-batch-1");
        write_status(
            &branch.join(STATUS_DIR),
            &status("batch-0", "flakiness-detection:unit"),
        )
        .unwrap();
        write_status(
            &base.join(compare::STATUS_DIR),
            &status("batch-1", "flakiness-base:unit"),
        )
        .unwrap();
        let again = dir.path().join("flakiness-batch-9");
        write_status(
            &again.join(compare::STATUS_DIR),
            &status("batch-0", "flakiness-base:unit"),
        )
        .unwrap();
        let read = Artifacts::read(dir.path()).unwrap();
        let ids = |jobs: &[JobRun]| -> Vec<(String, PathBuf)> {
            jobs.iter()
                .map(|j| (j.status.job_id.clone(), j.dir.clone()))
                .collect()
        };
        assert_eq!(ids(&read.jobs), [("batch-0".to_string(), branch)]);
        assert_eq!(ids(&read.base_jobs), [("batch-1".to_string(), base)]);
    }
}
