//! `gradle-flaky local`: select, plan, run every batch here, analyze exactly the
//! XML this run wrote (the run folder), print the report.

use super::analyze::warn_unreadable;
use super::{options, selection};
use crate::analyze::{self, render, AnalyzeOptions, ProjectResolver, Report};
use crate::cli::{GlobalArgs, LocalArgs, ReportArgs, ReportFormat};
use crate::domain::{ClassifiedTest, Origin};
use crate::layout::Layout;
use crate::plan::render::visible;
use crate::plan::{self, GradleVersion, PlanContext};
use crate::run::local::{self as runner, BatchRun, Options};
use crate::run::process::{self, Isolation};
use crate::run::progress::Progress;
use crate::run::repeat::{self, Counts, Iteration};
use crate::{layout, Error, Exit, Result};
use serde::Serialize;
use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The default batch limit is the suite timeout plus this.
const BATCH_MARGIN: Duration = Duration::from_secs(600);

pub fn local(global: &GlobalArgs, args: &LocalArgs) -> Result<Exit> {
    let batching = options::batching(&args.batching)?;
    // Unlike `plan`, a missing Gradle is an error here, before anything runs.
    let gradle = layout::find_gradle(&global.project_dir, global.gradle.as_deref())?;
    let (tests, layout) = select(global, args)?;
    if tests.is_empty() {
        eprintln!("gradle-flaky: nothing selected: no test to run");
        return Ok(Exit::Clean);
    }
    let ctx = PlanContext {
        gradle: gradle.clone(),
        gradle_version: layout
            .as_ref()
            .and_then(|l| GradleVersion::parse(&l.gradle_version)),
        extra_args: args.gradle_args.clone(),
    };
    let plan = plan::plan(&tests, &batching.config, &ctx);
    for note in &plan.notes {
        eprintln!("gradle-flaky: note: {}", visible(note));
    }

    let project_dir = global.project_dir.as_path();
    let run_dir = runner::create_run_dir(project_dir)?;
    let invocations = plan.commands.iter().map(|c| c.rest_loops.max(1)).sum();
    let isolation = Isolation::for_run(invocations, &run_dir.join("daemon"));
    for command in &plan.commands {
        isolation.apply(&command.argv)?; // refuses --daemon (off Linux) before anything runs
    }
    let timeout = args
        .batch_timeout
        .unwrap_or(batching.config.suite_timeout + BATCH_MARGIN);
    eprintln!(
        "gradle-flaky: {} batch(es); reports and logs of this run: {}",
        plan.commands.len(),
        run_dir.display()
    );
    process::supervise();
    let started = Instant::now();
    let runs = runner::run_all(
        &plan.commands,
        &Options {
            project_dir,
            run_dir: &run_dir,
            timeout,
            verbose: global.verbose,
            isolation: &isolation,
        },
        &counts,
        &Progress::new(std::io::stderr().is_terminal() && !global.verbose),
    );
    let partial = process::interrupted();

    let report = analyze::analyze_root(
        &run_dir,
        &AnalyzeOptions {
            project_resolver: layout.as_ref().map(resolver),
            gradle,
            ..AnalyzeOptions::default()
        },
    );
    warn_unreadable(&report);
    let problems = runner::problems(&runs, timeout);
    emit(&report, &args.report, partial, &problems)?;
    let ran: usize = runs.iter().map(|r| r.iterations.len()).sum();
    eprintln!(
        "gradle-flaky: {} of {} batch(es), {ran} Gradle invocation(s) in {}s{}; \
         reports and logs: {}",
        runs.len(),
        plan.commands.len(),
        started.elapsed().as_secs(),
        if partial { " (interrupted)" } else { "" },
        run_dir.display()
    );
    for p in &problems {
        eprintln!("gradle-flaky: {p}");
    }
    Ok(exit(&runs, &report, partial))
}

/// The selected tests and the layout they were classified through; notes and
/// unresolved inputs go to stderr, and a named test that resolves to nothing is
/// an input error before hours of runs.
fn select(global: &GlobalArgs, args: &LocalArgs) -> Result<(Vec<ClassifiedTest>, Option<Layout>)> {
    let selection = selection::gather(global, &args.selection)?;
    for note in &selection.notes {
        eprintln!("gradle-flaky: note: {}", visible(note));
    }
    for u in &selection.unresolved {
        eprintln!(
            "gradle-flaky: not run: {}: {}",
            visible(&u.input),
            visible(&u.reason)
        );
    }
    let named_nothing = selection
        .unresolved
        .iter()
        .filter(|u| u.origin == Origin::Explicit)
        .count();
    if named_nothing > 0 {
        return Err(Error::input(
            "TEST",
            format!("{named_nothing} of the tests you named resolved to nothing (listed above)"),
        ));
    }
    Ok((selection.tests, selection.layout))
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

/// Interrupted first, then any real failure (also one recorded by a batch that
/// later timed out), then anything short of a clean pass; see `repeat::exit_of`.
fn exit(runs: &[BatchRun], report: &Report, partial: bool) -> Exit {
    if partial {
        return Exit::Interrupted;
    }
    if report.summary.failed > 0 {
        return Exit::TestFailures;
    }
    repeat::exit_of(runs.iter().flat_map(|r| &r.verdicts))
}

/// Gradle project paths of project directories (relative to the build root),
/// as the build declares them: renamed projects are not guessed.
fn resolver(layout: &Layout) -> ProjectResolver {
    let by_dir: BTreeMap<String, String> = layout
        .projects
        .iter()
        .filter_map(|p| {
            let rel = p.project_dir.strip_prefix(&layout.root_dir).ok()?;
            let rel = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy())
                .collect::<Vec<_>>()
                .join("/");
            Some((rel, p.path.clone()))
        })
        .collect();
    Arc::new(move |dir: &str| by_dir.get(dir).cloned())
}

/// The Report JSON with `"partial": true` first.
#[derive(Serialize)]
struct PartialReport<'a> {
    partial: bool,
    #[serde(flatten)]
    report: &'a Report,
}

/// Prints the report on stdout (and to `--report`, `--junit`). A partial report
/// says so first; batches without a trustworthy result end the markdown.
fn emit(report: &Report, args: &ReportArgs, partial: bool, problems: &[String]) -> Result<()> {
    let text = match args.format {
        ReportFormat::Markdown => {
            let mut md = String::new();
            if partial {
                md += "**Partial report: the run was interrupted; it counts only what ran \
                       before.**\n\n";
            }
            md += &render::markdown(report);
            md.push('\n');
            if !problems.is_empty() {
                md += "\n### Batches without a clean result\n\n";
                for p in problems {
                    md += &format!("- {}\n", md_line(p));
                }
            }
            md
        }
        ReportFormat::Json if partial => {
            let mut json = serde_json::to_string_pretty(&PartialReport { partial, report })
                .map_err(|e| Error::infra(format!("cannot render the report: {e}")))?;
            json.push('\n');
            json
        }
        ReportFormat::Json => render::json(report),
    };
    print!("{text}");
    write(args.report.as_deref(), &text)?;
    if let Some(path) = &args.junit {
        write(Some(path), &render::junit(report))?;
    }
    Ok(())
}

fn write(path: Option<&Path>, text: &str) -> Result<()> {
    match path {
        Some(path) => std::fs::write(path, text).map_err(|e| Error::io(path, e)),
        None => Ok(()),
    }
}

/// A line safe inside a markdown list item (labels and paths are data).
fn md_line(s: &str) -> String {
    s.replace(['\n', '\r'], " ")
        .replace('|', "\\|")
        .replace('<', "&lt;")
}
