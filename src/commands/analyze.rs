//! `gradle-flaky analyze`: read the JUnit XML below a directory and print the
//! flakiness report; of one of gradle-flaky's own run folders, the report
//! `local` gave for it, from what the folder records (`local::folder`).

use super::options;
use super::report;
use crate::analyze::read::reproduce::Rerun;
use crate::analyze::{self, AnalyzeOptions};
use crate::cli::{AnalyzeArgs, GlobalArgs};
use crate::invocation::Forcing;
use crate::local::folder::RunFolder;
use crate::local::observed;
use crate::{tell, Error, Exit, Observed, Result};
use std::path::Path;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

pub(crate) fn run(global: &GlobalArgs, args: &AnalyzeArgs) -> Result<Exit> {
    if !args.dir.is_dir() {
        return Err(Error::input(
            args.dir.display().to_string(),
            "no such directory",
        ));
    }
    let since = args.since.as_deref().map(parse_since).transpose()?;
    if let Some(mut folder) = RunFolder::read(&args.dir)? {
        folder.options.since = since;
        let (report, below_plan) = folder.reanalyzed(&args.dir);
        report::warn_unreadable(&report);
        report::emit(&report, &options::report_output(&args.report), None)?;
        return Ok(Exit::of(observed(&report, below_plan)));
    }
    let report = analyze::analyze_root(
        &args.dir,
        &AnalyzeOptions {
            since,
            // The build's Gradle version is not known here: `clean<Task>`
            // forces a Test task on every version.
            rerun: Rerun {
                gradle: reproduce_gradle(global)?,
                forcing: Forcing::CleanTask,
            },
            ..AnalyzeOptions::default()
        },
    );
    report::warn_unreadable(&report);
    report::emit(&report, &options::report_output(&args.report), None)?;
    let exit = Exit::of(Observed {
        real_failures: report.summary.failed,
        executions: report.summary.executions,
        ..Observed::default()
    });
    if report.summary.executions == 0 {
        tell!(
            "no test execution found below {} ({} report file(s) read)",
            args.dir.display(),
            report.files.read
        );
    }
    Ok(exit)
}

/// The Gradle program of reproduce lines: `--gradle`, else the project
/// dir's `./gradlew`, else `gradle` (as `local` runs it; none need be
/// installed to read reports).
fn reproduce_gradle(global: &GlobalArgs) -> Result<Vec<String>> {
    match crate::layout::find_gradle(&global.project_dir, global.gradle.as_deref()) {
        Err(Error::GradleNotFound(_)) => Ok(vec!["gradle".into()]),
        found => found,
    }
}

/// `--since TIME|FILE`: an existing file's modification time, seconds since the
/// epoch, or an RFC 3339 time.
pub(crate) fn parse_since(value: &str) -> Result<SystemTime> {
    let path = Path::new(value);
    if path.exists() {
        return std::fs::metadata(path)
            .and_then(|m| m.modified())
            .map_err(|e| Error::io(path, e));
    }
    if let Ok(secs) = value.trim().parse::<u64>() {
        return Ok(UNIX_EPOCH + Duration::from_secs(secs));
    }
    humantime::parse_rfc3339_weak(value.trim()).map_err(|_| {
        Error::usage(format!(
            "--since {value:?}: expected an RFC 3339 time (2026-12-01T10:00:00Z), \
             seconds since the epoch, or an existing file"
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn since_accepts_times_epoch_seconds_and_files() {
        assert_eq!(
            parse_since("2026-12-01T10:00:00Z").unwrap(),
            UNIX_EPOCH + Duration::from_secs(1_796_119_200)
        );
        assert_eq!(
            parse_since("1700000000").unwrap(),
            UNIX_EPOCH + Duration::from_secs(1_700_000_000)
        );
        let file = tempfile::NamedTempFile::new().unwrap();
        let mtime = file.as_file().metadata().unwrap().modified().unwrap();
        assert_eq!(parse_since(file.path().to_str().unwrap()).unwrap(), mtime);
        let err = parse_since("yesterday").unwrap_err();
        assert_eq!(err.exit(), Exit::Usage);
    }
}
