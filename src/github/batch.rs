//! `github run --batch N`: one matrix job. The batch comes from the plan
//! file, never from the workflow, so a test name cannot reach a shell: its
//! typed value, whose Gradle command line is rendered here, at spawn.
//! It runs through the never-fail batch runner every CI uses (`ci::batch`:
//! supervised, stopped at its timeout with every process it started, never
//! failing the job), and leaves in one folder, to upload as the job's
//! artifact, the status file and the JUnit XML this run wrote, at their paths
//! below the build. A REF job of `--compare` runs in its worktree of REF
//! (`ci::compare`) and keeps its status file under `flakiness-base/status/`.

use super::annotations::{Level, WorkflowAnnotation};
use super::matrix::PlanFile;
use crate::ci::batch::run_spec;
use crate::ci::compare;
use crate::ci::job::JobEnv;
use crate::ci::status::write_status;
use crate::reports::{self, walk, STATUS_DIR};
use crate::run::job::failure_message;
use crate::{say, tell};
use crate::{Error, Result};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// What `github run` runs and where it keeps the results.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunBatch {
    /// The matrix entry: an index into the plan's batches.
    pub batch: usize,
    pub plan: PathBuf,
    /// The folder to upload (empty or absent before the run).
    pub out: PathBuf,
    pub timeout: Option<Duration>,
}

/// The job id of batch `n` in its status file (the report names jobs by it).
pub(crate) fn job_id(batch: usize) -> String {
    format!("batch-{batch}")
}

/// Runs the batch. Whatever it does, this succeeds; only a plan or batch that
/// cannot be read, an output folder that already holds files, or (a REF
/// job) REF's commit that cannot be checked out, is an error, before
/// anything runs.
pub(crate) fn run(cfg: &RunBatch) -> Result<()> {
    let plan = PlanFile::read(&cfg.plan)?;
    let batch = plan.batches.get(cfg.batch).ok_or_else(|| {
        Error::input(
            format!("--batch {}", cfg.batch),
            format!(
                "{} holds {} batch(es), numbered from 0",
                cfg.plan.display(),
                plan.batches.len()
            ),
        )
    })?;
    let busy = walk::list(&cfg.out).is_ok_and(|entries| !entries.is_empty());
    if busy {
        return Err(Error::input(
            format!("--out {}", cfg.out.display()),
            "already holds files: results of two runs are never mixed; remove it first",
        ));
    }
    let job = JobEnv {
        job_id: job_id(cfg.batch),
        step_key: batch.step_key.clone(),
        label: batch.label.clone(),
        parallel_job: Some(batch.job),
    };
    let mut spec = batch.spec.clone();
    let status_dir = cfg
        .out
        .join(compare::enter(&mut spec)?.unwrap_or(STATUS_DIR));
    let started = SystemTime::now();
    let ran = run_spec(&spec, cfg.timeout)?;
    let status = ran.status(&job, spec.kind(), cfg.timeout);
    let root = spec.dir.clone().unwrap_or_else(|| PathBuf::from("."));
    match keep_reports(&root, &cfg.out, started) {
        Ok(n) => say!(">>> {n} report file(s) kept in {}", cfg.out.display()),
        Err(e) => tell!("could not keep the batch's reports: {e}"),
    }
    match write_status(&status_dir, &status) {
        Ok(path) => say!(">>> status written to {}", path.display()),
        Err(e) => tell!("could not write the status file: {e}"),
    }
    if let Some(message) = failure_message(&ran.finished, cfg.timeout) {
        let what = format!("[{}] (batch {})", batch.label, cfg.batch);
        let annotation = WorkflowAnnotation::new(
            Level::Warning,
            format!("Flakiness {what}"),
            format!("{what} {message} - see job log"),
        );
        crate::output::stdout_line(&annotation.command());
    }
    Ok(())
}

/// Moves the reports below `root` written at or after `since` (one second of
/// slack for coarse file-system clocks) into `out`, at their path below
/// `root`: the layout the report reads a build's reports in. Older reports
/// are someone else's. Returns how many were kept.
fn keep_reports(root: &Path, out: &Path, since: SystemTime) -> Result<usize> {
    let since = since - Duration::from_secs(1);
    let out_abs = std::fs::canonicalize(out).ok();
    let mut kept = 0;
    for path in reports::find_reports(root) {
        let fresh = std::fs::metadata(&path)
            .and_then(|m| m.modified())
            .is_ok_and(|t| t >= since);
        let inside_out = out_abs
            .as_ref()
            .is_some_and(|o| std::fs::canonicalize(&path).is_ok_and(|p| p.starts_with(o)));
        if !fresh || inside_out {
            continue;
        }
        let rel = path.strip_prefix(root).unwrap_or(&path);
        let dest = out.join(rel);
        if let Some(parent) = dest.parent() {
            std::fs::create_dir_all(parent).map_err(|e| Error::io(parent, e))?;
        }
        // A rename is instant; across file systems, copy.
        if std::fs::rename(&path, &dest).is_err() {
            std::fs::copy(&path, &dest).map_err(|e| Error::io(&dest, e))?;
        }
        kept += 1;
    }
    Ok(kept)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_this_runs_reports_are_kept_at_their_build_paths() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("build");
        let results = root.join("server/build/test-results/test");
        std::fs::create_dir_all(&results).unwrap();
        std::fs::write(results.join("TEST-Old.xml"), "<testsuite/>").unwrap();
        let old = SystemTime::now() - Duration::from_secs(3600);
        std::fs::File::options()
            .write(true)
            .open(results.join("TEST-Old.xml"))
            .unwrap()
            .set_modified(old)
            .unwrap();
        let started = SystemTime::now();
        std::fs::write(results.join("TEST-New.xml"), "<testsuite/>").unwrap();
        let iter = root.join("flakiness-iters/iter-2/server/build/test-results/test");
        std::fs::create_dir_all(&iter).unwrap();
        std::fs::write(iter.join("TEST-Loop.xml"), "<testsuite/>").unwrap();
        let out = dir.path().join("out");
        assert_eq!(keep_reports(&root, &out, started).unwrap(), 2);
        assert!(out
            .join("server/build/test-results/test/TEST-New.xml")
            .is_file());
        assert!(out
            .join("flakiness-iters/iter-2/server/build/test-results/test/TEST-Loop.xml")
            .is_file());
        assert!(!out
            .join("server/build/test-results/test/TEST-Old.xml")
            .exists());
        assert!(results.join("TEST-Old.xml").is_file(), "old reports stay");
    }
}
