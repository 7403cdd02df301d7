//! From a selection to an uploaded sub-pipeline: what `buildkite upload`, `pr`
//! and `manual` share. Reports what resolved to nothing, says so when nothing
//! is left to run (an `info` annotation, no upload), plans, and publishes.

use super::agent::{fit_annotation, Agent};
use super::pipeline::{self, AgentConfig, PipelineInput};
use crate::domain::BatchingConfig;
use crate::domain::{Origin, Unresolved};
use crate::layout::Build;
use crate::plan::render::visible;
use crate::plan::{self, PlanContext};
use crate::reports::SKIPPED_FILE;
use crate::say;
use crate::select::Selection;
use crate::{markdown, Error, Exit, Result};
use std::path::{Path, PathBuf};

/// Annotation context of selection problems; the report has its own.
const SELECTION_CONTEXT: &str = "flakiness-detection-selection";

/// Above this many batches the upload warns (counting batches, not the test
/// files a selection started from, which may not all run).
const MANY_BATCHES: usize = 30;

/// How to upload.
#[derive(Clone, Debug)]
pub struct Upload<'a> {
    pub batching: &'a BatchingConfig,
    pub agent: &'a AgentConfig,
    /// Print the pipeline instead of uploading it.
    pub dry_run: bool,
    /// What to say when nothing is selected.
    pub nothing: &'a str,
    /// Add the triage step (`--triage N`, `FLAKINESS_TRIAGE`).
    pub triage: Option<&'a crate::triage::Config>,
}

/// A selection, planned and ready for a CI to fan out.
#[derive(Clone, Debug, Default)]
pub struct Prepared {
    /// The batches and what the jobs need to run them.
    pub input: PipelineInput,
    /// Found, but no enabled Test task runs them: recorded, not re-run.
    pub not_applicable: Vec<Unresolved>,
}

/// What a CI entry point makes of a selection before planning it.
#[derive(Clone, Debug)]
pub struct Resolution {
    /// Found, but no enabled Test task runs them: recorded, not re-run.
    pub not_applicable: Vec<Unresolved>,
    /// Inputs that selected nothing.
    pub unresolved: Vec<Unresolved>,
    /// 2 when a test the user named resolved to nothing, like `plan`;
    /// unresolved changed files and unmutes are only warnings.
    pub exit: Exit,
}

impl Resolution {
    /// Prints the selection's notes and what did not resolve (stderr).
    pub fn of(selection: &Selection) -> Resolution {
        for note in &selection.notes {
            say!("gradle-flaky: {}", visible(note));
        }
        for f in &selection.skipped {
            let (path, reason) = (visible(&f.path), visible(&f.reason));
            say!("gradle-flaky: changed, not run: {path}: {reason}");
        }
        let (not_applicable, unresolved): (Vec<Unresolved>, Vec<Unresolved>) = selection
            .unresolved
            .iter()
            .cloned()
            .partition(|u| u.reason_code.is_not_applicable());
        if !unresolved.is_empty() {
            eprint!("{}", unresolved_markdown(&unresolved));
        }
        let exit = if unresolved.iter().any(|u| u.origin == Origin::Explicit) {
            Exit::Usage
        } else {
            Exit::Clean
        };
        Resolution {
            not_applicable,
            unresolved,
            exit,
        }
    }

    /// A test the user named resolved to nothing: an error, not a warning.
    pub fn named_missing(&self) -> bool {
        self.exit == Exit::Usage
    }

    /// Nothing to run and nothing to record.
    pub fn nothing_left(&self, selection: &Selection) -> bool {
        selection.tests.is_empty() && self.not_applicable.is_empty()
    }
}

/// The warning for a plan that fans out to very many batches.
pub fn many_batches(batches: usize, tests: usize) -> Option<String> {
    (batches > MANY_BATCHES).then(|| {
        format!("Warning: {batches} batches ({tests} tests) to re-run. This may take a while.")
    })
}

impl Upload<'_> {
    /// Exit 2 when a test the user named resolved to nothing (after uploading
    /// the rest), like `plan`; unresolved changed files and unmutes are warnings.
    pub fn submit(&self, build: &Build, selection: &Selection) -> Result<Exit> {
        let agent = (!self.dry_run && std::env::var_os("BUILDKITE").is_some()).then(Agent::default);
        let resolution = Resolution::of(selection);
        if !resolution.unresolved.is_empty() {
            if let Some(agent) = &agent {
                let style = if resolution.named_missing() {
                    "error"
                } else {
                    "warning"
                };
                let body = fit_annotation(&unresolved_markdown(&resolution.unresolved));
                if let Err(e) = agent.annotate(&body, style, SELECTION_CONTEXT, false) {
                    say!("gradle-flaky: could not annotate: {e}");
                }
            }
        }
        let nothing = self.nothing;
        if resolution.nothing_left(selection) {
            say!("{nothing}: no test to run, nothing uploaded");
            if let Some(agent) = &agent {
                let message = format!("{}: no test to run", markdown::text(nothing));
                let _ = agent.annotate(&message, "info", "flakiness-detection", false);
            }
            return Ok(resolution.exit);
        }
        if build.layout.is_none() && !selection.tests.is_empty() {
            say!("gradle-flaky: no compile gate: the build's layout is unavailable");
        }
        let prepared = prepare(
            build,
            selection,
            self.batching,
            resolution.not_applicable,
            self.triage,
        )?;
        if let Some(warning) = many_batches(prepared.input.commands.len(), selection.tests.len()) {
            say!("gradle-flaky: {warning}");
            if let Some(agent) = &agent {
                let _ = agent.annotate(&warning, "warning", SELECTION_CONTEXT, true);
            }
        }
        self.publish(&prepared)?;
        Ok(resolution.exit)
    }

    /// Prints (`dry_run`) or uploads the pipeline. Not-applicable tests go to
    /// `flakiness-skipped.json`, uploaded as an artifact here so the report
    /// step finds it whatever the calling step's `artifact_paths` say. A second
    /// upload in one build is skipped: the step keys would clash.
    fn publish(&self, prepared: &Prepared) -> Result<()> {
        let input = &prepared.input;
        let cfg = self.agent;
        let Some(pipeline) = pipeline::pipeline(input, cfg) else {
            say!("gradle-flaky: nothing to run: no pipeline uploaded");
            return Ok(());
        };
        let json = serde_json::to_string_pretty(&pipeline).expect("a pipeline serializes");
        if self.dry_run {
            crate::output::stdout_line(&json);
            return Ok(());
        }
        let agent = Agent::default();
        let guard = format!("{}:uploaded", cfg.group);
        if agent.meta_data_exists(&guard).unwrap_or(false) {
            say!(
                "gradle-flaky: this build already has the {} steps (meta-data {guard}); \
                 not uploading again",
                cfg.group
            );
            return Ok(());
        }
        if !prepared.not_applicable.is_empty() {
            let json = serde_json::to_string(&prepared.not_applicable).expect("entries serialize");
            std::fs::write(SKIPPED_FILE, json).map_err(|e| Error::io(SKIPPED_FILE, e))?;
            if let Err(e) = agent.artifact_upload(SKIPPED_FILE) {
                say!(
                    "gradle-flaky: could not upload {SKIPPED_FILE}; the report will miss the \
                     not-applicable tests: {e}"
                );
            }
        }
        say!(
            "gradle-flaky: uploading {} batch(es) in {} step(s)",
            input.commands.len(),
            pipeline["steps"][0]["steps"].as_array().map_or(0, Vec::len)
        );
        agent.pipeline_upload(&json)?;
        let job = std::env::var("BUILDKITE_JOB_ID").unwrap_or_default();
        if let Err(e) = agent.meta_data_set(&guard, &job) {
            say!("gradle-flaky: could not record the upload in meta-data {guard}: {e}");
        }
        Ok(())
    }
}

/// Plans a selection for CI: the batches, the compile gate (from the layout's
/// compile tasks; none when the layout is unavailable), the not-applicable
/// tests, where the build is in the checkout (this process's directory) and
/// the triage step's spec when `triage` asks for one.
pub fn prepare(
    build: &Build,
    selection: &Selection,
    batching: &BatchingConfig,
    not_applicable: Vec<Unresolved>,
    triage: Option<&crate::triage::Config>,
) -> Result<Prepared> {
    let ctx = PlanContext::for_build(build, &[]);
    let plan = plan::plan(&selection.tests, batching, &ctx);
    for note in &plan.notes {
        say!("gradle-flaky: {}", visible(note));
    }
    let (tasks, projects) = match &build.layout {
        Some(l) => (
            pipeline::compile_tasks(l, &plan.tests),
            pipeline::renamed_projects(l, &plan.tests),
        ),
        None => Default::default(),
    };
    let compile = if tasks.is_empty() {
        Vec::new()
    } else {
        [build.gradle.clone(), tasks].concat()
    };
    let dir = checkout_relative(&build.root)?;
    let triage = triage.map(|t| pipeline::TriageSpec {
        replays: t.replays,
        budget: t.budget,
        timeout_sec: t.timeout.as_secs(),
        rerun: ctx.forcing() == plan::Forcing::Rerun,
        dir: dir.clone(),
    });
    Ok(Prepared {
        input: PipelineInput {
            commands: plan.commands,
            compile,
            dir,
            has_not_applicable: !not_applicable.is_empty(),
            projects,
            gradle: build.gradle.clone(),
            triage,
        },
        not_applicable,
    })
}

/// The build's directory as batch jobs find it: relative to the checkout
/// (this step's working directory), `None` for the checkout itself.
fn checkout_relative(build_root: &Path) -> Result<Option<PathBuf>> {
    let cwd = std::env::current_dir().map_err(|e| Error::io(".", e))?;
    let cwd = std::fs::canonicalize(&cwd).map_err(|e| Error::io(&cwd, e))?;
    match build_root.strip_prefix(&cwd) {
        Ok(rel) if rel.as_os_str().is_empty() => Ok(None),
        Ok(rel) => Ok(Some(rel.to_path_buf())),
        Err(_) => Err(Error::input(
            format!("--project-dir {}", build_root.display()),
            "batch jobs run in the checkout: the build must be inside the current directory",
        )),
    }
}

/// The markdown list of inputs that selected nothing, with their reasons.
pub fn unresolved_markdown(unresolved: &[Unresolved]) -> String {
    let mut body = format!(
        "**Flakiness: {} input(s) resolved to no test**\n\n",
        unresolved.len()
    );
    for u in unresolved {
        let origin = match u.origin {
            Origin::Explicit => "named",
            Origin::Changed => "changed file",
            Origin::Unmuted => "unmuted",
        };
        body.push_str(&format!(
            "- {origin} {}: {} (`{}`)\n",
            markdown::code(&u.input),
            markdown::text(&u.reason),
            u.reason_code
        ));
    }
    body
}
