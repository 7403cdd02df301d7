//! Printing and writing a report, shared by the commands that produce one.

use super::options::ReportOutput;
use crate::analyze::{render, Report};
use crate::cli::ReportFormat;
use crate::output;
use crate::{tell, warning, Error, Result};
use std::fs::OpenOptions;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};

/// The report as text in the chosen format.
pub(crate) fn render(report: &Report, format: ReportFormat) -> String {
    match format {
        ReportFormat::Markdown => render::markdown(report),
        ReportFormat::Json => render::json(report),
    }
}

/// Prints the report on stdout and writes the files `out` names, after a copy
/// in the run folder (if any); a file that cannot be written does not stop the
/// other (the error names each).
pub(crate) fn emit(report: &Report, out: &ReportOutput, run_dir: Option<&Path>) -> Result<()> {
    let text = render(report, out.format);
    let kept = run_dir.map(|dir| {
        let name = match out.format {
            ReportFormat::Markdown => "report.md",
            ReportFormat::Json => "report.json",
        };
        let path = dir.join(name);
        if let Err(e) = write(&path, &text) {
            warning!("{e}");
        }
        path
    });
    output::stdout(&text);
    if let (true, Some(path)) = (output::stdout_closed(), &kept) {
        tell!("stdout is closed; the report is kept in {}", path.display());
    }
    let mut failed = Vec::new();
    for (flag, path, text) in [
        ("--report", &out.file, Some(text)),
        ("--junit", &out.junit, None),
    ] {
        let Some(path) = path else { continue };
        let text = text.unwrap_or_else(|| render::junit(report));
        if let Err(e) = std::fs::write(path, text) {
            failed.push(format!("could not write {flag} {}: {e}", path.display()));
        }
    }
    if failed.is_empty() {
        Ok(())
    } else {
        Err(Error::infra(failed.join("; ")))
    }
}

/// The report before triage, where a Ctrl-C cannot take it: `--report FILE`
/// when given, and `<base>/report-before-triage.md` (or `.json`). Returns the
/// latter.
pub(crate) fn keep_before_triage(
    report: &Report,
    out: &ReportOutput,
    base: &Path,
) -> Result<PathBuf> {
    let text = render(report, out.format);
    let ext = match out.format {
        ReportFormat::Markdown => "md",
        ReportFormat::Json => "json",
    };
    let saved = base.join(format!("report-before-triage.{ext}"));
    for path in out.file.iter().chain([&saved]) {
        write(path, &text)?;
    }
    Ok(saved)
}

fn write(path: &Path, text: &str) -> Result<()> {
    std::fs::write(path, text).map_err(|e| Error::io(path, e))
}

/// Fails, naming the flag, when a file `out` names could not be written:
/// checked before anything runs, so that a long run never ends with a report
/// it cannot keep. An existing file is opened for appending (left as it is),
/// a new one created and removed again.
pub(crate) fn check_writable(out: &ReportOutput) -> Result<()> {
    for (flag, path) in [("--report", &out.file), ("--junit", &out.junit)] {
        let Some(path) = path else { continue };
        let what = || format!("{flag} {}", path.display());
        if path.is_dir() {
            return Err(Error::input(what(), "is a directory"));
        }
        let probe = match OpenOptions::new().append(true).open(path) {
            Err(e) if e.kind() == ErrorKind::NotFound => OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(path)
                .and_then(|_| std::fs::remove_file(path)),
            opened => opened.map(drop),
        };
        if let Err(e) = probe {
            let parent = path.parent().filter(|p| !p.as_os_str().is_empty());
            let why = match parent {
                Some(dir) if !dir.is_dir() => {
                    format!(
                        "cannot be written: its directory {} does not exist",
                        dir.display()
                    )
                }
                _ => format!("cannot be written: {e}"),
            };
            return Err(Error::input(what(), why));
        }
    }
    Ok(())
}

/// Truncated and malformed files and unreadable directories, one line each on stderr.
pub(crate) fn warn_unreadable(report: &Report) {
    for d in &report.files.unreadable_dirs {
        warning!(
            "{}: directory not readable ({}); reports in it were not counted",
            d.path,
            d.error
        );
    }
    for t in &report.files.truncated {
        warning!(
            "{}: truncated; {} test case(s) read before the cut",
            t.path,
            t.cases
        );
    }
    for m in &report.files.malformed {
        warning!("{}: malformed at byte {}: {}", m.path, m.offset, m.error);
    }
}
