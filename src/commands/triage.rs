//! `gradle-flaky triage [RUN_DIR]`: the triage that `local --triage N` runs
//! after its batches (`local::triage`), on a finished run.

use super::options::{self, TriageCommandConfig};
use super::report;
use crate::analyze::read::reproduce::Rerun;
use crate::analyze::{self, AnalyzeOptions};
use crate::cli::GlobalArgs;
use crate::ledger::{keep, Origin};
use crate::local::triage::{after_run, TriageSite};
use crate::reports::{walk, JOBS_DIR, STATUS_DIR};
use crate::run::guard::RunGuard;
use crate::run::local::runs_dir;
use crate::{note, tell};
use crate::{Error, Exit, Observed, Result};
use std::path::{Path, PathBuf};

/// `gradle-flaky triage [RUN_DIR]`.
pub(crate) fn run(global: &GlobalArgs, cfg: &TriageCommandConfig) -> Result<Exit> {
    // Before any replay: minutes of replays must not end in a report that cannot be kept.
    report::check_writable(&cfg.output)?;
    let mut build = options::build(global, true)?;
    let dir = match &cfg.run_dir {
        Some(dir) if dir.is_dir() => dir.clone(),
        Some(dir) => return Err(Error::input(dir.display().to_string(), "no such directory")),
        None => newest_run(&build.root)?,
    };
    tell!("triaging {}", dir.display());
    match crate::layout::load(&build.root, &build.gradle, false, &build.reading) {
        Ok((layout, _)) => build.layout = Some(layout),
        Err(e) => note!(
            "the build's layout is unavailable ({e}): project paths follow \
             the directory rule, and each replay runs clean<Task> before its task"
        ),
    }
    let mut report = analyze::analyze_roots(
        &roots(&dir),
        &AnalyzeOptions {
            project_paths: build.project_paths(),
            rerun: Rerun {
                gradle: build.gradle.clone(),
                forcing: crate::plan::PlanContext::for_build(&build, &[]).forcing(),
            },
            ..AnalyzeOptions::default()
        },
    );
    report::warn_unreadable(&report);
    let guard = RunGuard::temporary(build.reading.isolate, cfg.triage.invocations())?;
    let site = TriageSite {
        build: &build,
        base: &dir,
        gradle_args: &cfg.gradle_args,
        invocation_timeout: None,
        verbose: cfg.verbose,
        guard: &guard,
    };
    let keep = |r: &_| report::keep_before_triage(r, &cfg.output, &dir);
    let summary = after_run(&mut report, &cfg.triage, &site, &keep)?;
    report::emit(&report, &cfg.output, None)?;
    // Only the replays: the run's own counts are in the ledger since it ran.
    let run_id = dir.file_name().unwrap_or_default().to_string_lossy();
    let meta = keep::local_meta(&build.root, &run_id, Origin::Triage);
    keep::append_local(&build.root, &keep::triage_records(&report, &meta));
    if report.summary.executions == 0 {
        tell!(
            "no test execution found below {} ({} report file(s) read)",
            dir.display(),
            report.files.read
        );
    }
    Ok(Exit::of(Observed {
        interrupted: summary.is_some_and(|s| s.interrupted),
        real_failures: report.summary.failed,
        executions: report.summary.executions,
        ..Observed::default()
    }))
}

/// The newest run folder of `local` in the build.
fn newest_run(root: &Path) -> Result<PathBuf> {
    let runs = runs_dir(root);
    subfolders(&runs).pop().ok_or_else(|| {
        Error::input(
            "RUN_DIR",
            format!(
                "no run of `gradle-flaky local` in {}: run one, or name a folder of JUnit XML",
                runs.display()
            ),
        )
    })
}

/// The roots to analyze: each job's folder when `dir` is a CI report step's
/// work folder or its `flakiness-jobs/` (each `<job>/` a copy of the build's
/// tree), or GitHub Actions' downloaded artifacts (each batch's folder, with
/// its `flakiness-status/`, a copy of the build's tree); else `dir` itself.
fn roots(dir: &Path) -> Vec<PathBuf> {
    let jobs = if dir.file_name().is_some_and(|n| n == JOBS_DIR) {
        dir.to_path_buf()
    } else {
        dir.join(JOBS_DIR)
    };
    let mut found = subfolders(&jobs);
    if found.is_empty() {
        found = subfolders(dir);
        found.retain(|f| f.join(STATUS_DIR).is_dir());
    }
    if found.is_empty() {
        vec![dir.to_path_buf()]
    } else {
        found
    }
}

/// The folders directly in `dir`, sorted.
fn subfolders(dir: &Path) -> Vec<PathBuf> {
    walk::folders(dir).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_newest_run_is_the_last_by_name_and_a_ci_work_folder_is_read_per_job() {
        let tmp = tempfile::tempdir().unwrap();
        assert!(newest_run(tmp.path()).is_err());
        let runs = runs_dir(tmp.path());
        for name in [
            "20260101T100000Z-1",
            "20260102T100000Z-7",
            "20251231T235959Z-9",
        ] {
            std::fs::create_dir_all(runs.join(name)).unwrap();
        }
        assert!(newest_run(tmp.path())
            .unwrap()
            .ends_with("20260102T100000Z-7"));
        assert_eq!(roots(tmp.path()), [tmp.path().to_path_buf()]);
        for job in ["job-b", "job-a"] {
            std::fs::create_dir_all(tmp.path().join(JOBS_DIR).join(job)).unwrap();
        }
        let jobs = tmp.path().join(JOBS_DIR);
        assert_eq!(roots(tmp.path()), [jobs.join("job-a"), jobs.join("job-b")]);
        assert_eq!(roots(&jobs), roots(tmp.path()), "the jobs folder itself");

        let artifacts = tempfile::tempdir().unwrap();
        for (folder, batch) in [("flakiness-batch-1", true), ("flakiness-plan", false)] {
            let dir = artifacts.path().join(folder);
            std::fs::create_dir_all(if batch { dir.join(STATUS_DIR) } else { dir }).unwrap();
        }
        assert_eq!(
            roots(artifacts.path()),
            [artifacts.path().join("flakiness-batch-1")],
            "GitHub's artifacts: each batch's folder"
        );
    }
}
