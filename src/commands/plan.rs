//! `gradle-flaky plan`: select, plan and print; run nothing. The plan is the
//! one `local` runs for the same flags (`plan::for_run`): its shards, and the
//! chunks each batch is cut into.

use super::options;
use super::selection;
use crate::cli::{GlobalArgs, PlanArgs, PlanFormat};
use crate::domain::Unresolved;
use crate::durations::Durations;
use crate::plan::render::{self, PlanView};
use crate::plan::{self, Evidence, PlanContext};
use crate::select::Selection;
use crate::settings::RunSettings;
use crate::terminal::visible;
use crate::{output, say, tell, Exit, Result};

pub fn run(global: &GlobalArgs, args: &PlanArgs) -> Result<Exit> {
    let (settings, evidence) = options::run_settings(&args.batching, &args.run)?;
    let (build, selection) = selection::gather(
        options::build(global, false)?,
        &options::selection(&args.selection),
    )?;
    let (ctx, durations) =
        PlanContext::for_run(&build, &args.gradle_args, &settings, &selection.tests)?;
    let shown = ShownPlan {
        settings: &settings,
        evidence,
        durations: &durations,
    };
    output::stdout(&shown.render(&selection, &ctx, args.format));
    if selection.tests.is_empty() && args.format != PlanFormat::Text {
        tell!("nothing selected: no test to run");
    }
    let unresolved = explicit_unresolved(&selection.unresolved);
    if unresolved.is_empty() {
        return Ok(Exit::Clean);
    }
    tell!(
        "{} of the tests you named resolved to nothing (exit code 2):",
        unresolved.len()
    );
    for u in unresolved {
        say!(
            "  - {}: {} ({})",
            visible(&u.input),
            visible(&u.reason),
            u.reason_code
        );
    }
    Ok(Exit::Usage)
}

/// Plans a selection with the settings' defaults for `batching` and renders
/// it; the pure part of `run`.
pub fn render_plan(
    selection: &Selection,
    batching: &options::Batching,
    ctx: &PlanContext,
    format: PlanFormat,
) -> String {
    let settings = RunSettings::of(batching.config.clone());
    let shown = ShownPlan {
        settings: &settings,
        evidence: batching.evidence,
        durations: &Durations::default(),
    };
    shown.render(selection, ctx, format)
}

/// What a plan is shown with.
struct ShownPlan<'a> {
    settings: &'a RunSettings,
    evidence: Evidence,
    durations: &'a Durations,
}

impl ShownPlan<'_> {
    /// Plans a selection as `local` would run it (predicted times; shards of
    /// the batches that do not fit their budget; each batch's chunks) and
    /// renders it.
    fn render(&self, selection: &Selection, ctx: &PlanContext, format: PlanFormat) -> String {
        let limit = Some(self.settings.batch_timeout);
        let plan = plan::for_run(&selection.tests, self.settings, limit, ctx, self.durations);
        let view = PlanView {
            plan: &plan,
            unresolved: &selection.unresolved,
            task_selections: &selection.task_selections,
            expansions: &selection.expansions,
            skipped: &selection.skipped,
            selection_notes: &selection.notes,
            evidence: self.evidence,
        };
        match format {
            PlanFormat::Text => render::text(&view),
            PlanFormat::Json => render::json(&view),
            PlanFormat::Shell => render::shell(&plan),
        }
    }
}

/// Unresolved inputs the user named explicitly (positional tests or
/// `FLAKINESS_CLASSES`). Like Elasticsearch's `local` and `manual`, naming a
/// test that does not exist is an error (exit 2 here, an input error), while
/// changed files and unmutes that resolve to nothing are only reported.
fn explicit_unresolved(unresolved: &[Unresolved]) -> Vec<&Unresolved> {
    unresolved.iter().filter(|u| u.named_nothing()).collect()
}
