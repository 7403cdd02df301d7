//! `gradle-flaky record`: an ordinary build's JUnit XML into the ledger.

use super::options::RecordConfig;
use crate::analyze::{self, AnalyzeOptions};
use crate::cli::GlobalArgs;
use crate::ledger::{self, keep};
use crate::reports::{self, ReportSearch};
use crate::{tell, warning, Error, Exit, Result};
use std::path::{Path, PathBuf};

pub(crate) fn run(_global: &GlobalArgs, cfg: &RecordConfig) -> Result<Exit> {
    let found = cfg
        .dirs
        .iter()
        .map(|dir| reports_below(dir))
        .collect::<Result<Vec<_>>>()?;
    for (dir, why) in found.iter().flat_map(|f| &f.unreadable) {
        warning!(
            "{} could not be read (its reports are not recorded): {why}",
            dir.display()
        );
    }
    let files: Vec<PathBuf> = found.iter().flat_map(|f| f.reports.clone()).collect();
    // A build's own reports: its tests in their whole task, every case an execution.
    let report = analyze::read::analyze_found(&cfg.dirs, found, &AnalyzeOptions::default());
    let meta = keep::build_meta(&cfg.project_dir, cfg.given.clone(), &files);
    let records = ledger::build_records(&report, &meta);
    let at = cfg.destination.path().display();
    if cfg.destination.holds_run(&meta.run_id)? {
        tell!(
            "ledger: run {} is already in {at}: nothing added (a build is recorded once)",
            crate::terminal::visible(&meta.run_id)
        );
        return Ok(Exit::Clean);
    }
    if records.is_empty() {
        tell!(
            "ledger: no test passed or failed in {} report(s): nothing added",
            files.len()
        );
        return Ok(Exit::Clean);
    }
    let file = cfg.destination.append(&records, cfg.limits)?;
    let failing = records.iter().filter(|r| r.failures > 0).count();
    let commit = meta.commit.as_deref().map_or("no commit".into(), |c| {
        let short: String = c.chars().take(12).collect();
        let changes = if meta.dirty { " + changes" } else { "" };
        format!("commit {}{changes}", crate::terminal::visible(&short))
    });
    tell!(
        "ledger: {} test(s), {failing} failing, of run {} ({commit}) added to {}",
        records.len(),
        crate::terminal::visible(&meta.run_id),
        file.display()
    );
    Ok(Exit::Clean)
}

/// The reports below `dir`: where Gradle writes them, else any `TEST-*.xml`.
fn reports_below(dir: &Path) -> Result<ReportSearch> {
    if !dir.is_dir() {
        return Err(Error::input(dir.display().to_string(), "no such folder"));
    }
    let mut found = reports::find(dir);
    if found.reports.is_empty() {
        found = reports::find_anywhere(dir);
    }
    if found.reports.is_empty() {
        return Err(Error::input(
            dir.display().to_string(),
            "holds no JUnit XML report (TEST-*.xml): run the build's tests first, or name the \
             folder that holds them",
        ));
    }
    Ok(found)
}
