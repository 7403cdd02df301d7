//! Printing and writing a report, shared by the commands that produce one.

use super::options::ReportOutput;
use crate::analyze::{self, render, AnalyzeOptions, Report};
use crate::cli::ReportFormat;
use crate::markdown;
use crate::output;
use crate::run::repeat::{Counts, Iteration};
use crate::{say, Error, Result};
use serde::Serialize;
use std::path::Path;

/// What surrounds the report of a local run.
#[derive(Clone, Debug, Default)]
pub struct Context<'a> {
    /// The run was interrupted: the report counts only what ran before.
    pub partial: bool,
    /// Batches without a clean result, one line each.
    pub problems: &'a [String],
    /// The run folder, which always keeps a copy of the report: it survives a
    /// closed stdout and a `--report` that cannot be written.
    pub run_dir: Option<&'a Path>,
}

/// The Report JSON with `"partial": true` first.
#[derive(Serialize)]
struct PartialReport<'a> {
    partial: bool,
    #[serde(flatten)]
    report: &'a Report,
}

/// The report as text in the chosen format.
pub fn render(report: &Report, format: ReportFormat, ctx: &Context) -> String {
    match format {
        ReportFormat::Markdown => {
            let mut md = String::new();
            if ctx.partial {
                md += "**Partial report: the run was interrupted; it counts only what ran \
                       before.**\n\n";
            }
            md += &render::markdown(report);
            md.push('\n');
            if !ctx.problems.is_empty() {
                md += "\n### Batches without a clean result\n\n";
                for p in ctx.problems {
                    md += &format!("- {}\n", markdown::text(p));
                }
            }
            md
        }
        ReportFormat::Json if ctx.partial => {
            let mut json = serde_json::to_string_pretty(&PartialReport {
                partial: true,
                report,
            })
            .expect("a report always serializes");
            json.push('\n');
            json
        }
        ReportFormat::Json => render::json(report),
    }
}

/// Prints the report on stdout and writes the files `out` names, after a copy
/// in the run folder (if any).
pub fn emit(report: &Report, out: &ReportOutput, ctx: &Context) -> Result<()> {
    let text = render(report, out.format, ctx);
    let kept = ctx.run_dir.map(|dir| {
        let name = match out.format {
            ReportFormat::Markdown => "report.md",
            ReportFormat::Json => "report.json",
        };
        let path = dir.join(name);
        if let Err(e) = write(&path, &text) {
            say!("gradle-flaky: warning: {e}");
        }
        path
    });
    output::stdout(&text);
    if let (true, Some(path)) = (output::stdout_closed(), &kept) {
        say!(
            "gradle-flaky: stdout is closed; the report is kept in {}",
            path.display()
        );
    }
    if let Some(path) = &out.file {
        write(path, &text)?;
    }
    if let Some(path) = &out.junit {
        write(path, &render::junit(report))?;
    }
    Ok(())
}

fn write(path: &Path, text: &str) -> Result<()> {
    std::fs::write(path, text).map_err(|e| Error::io(path, e))
}

/// Truncated and malformed files, one line each on stderr.
pub fn warn_unreadable(report: &Report) {
    for t in &report.files.truncated {
        say!(
            "gradle-flaky: warning: {}: truncated; {} test case(s) read before the cut",
            t.path,
            t.cases
        );
    }
    for m in &report.files.malformed {
        say!(
            "gradle-flaky: warning: {}: malformed at byte {}: {}",
            m.path,
            m.offset,
            m.error
        );
    }
}

/// What an iteration's kept reports say (`None` when it kept none).
pub fn counts(it: &Iteration) -> Option<Counts> {
    if it.reports.is_empty() {
        return None;
    }
    let s = analyze::analyze_root(&it.dir, &AnalyzeOptions::default()).summary;
    Some(Counts {
        executed: s.executions,
        failed: s.failed,
        suite_timeouts: s.suite_timeouts,
    })
}
