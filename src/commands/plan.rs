//! `gradle-flaky plan`: select, plan and print; run nothing.

use super::options::{self, Batching};
use super::selection;
use crate::cli::{GlobalArgs, PlanArgs, PlanFormat};
use crate::domain::Unresolved;
use crate::durations::{self, Durations};
use crate::plan::render::{self, visible, PlanView};
use crate::plan::{self, PlanContext};
use crate::select::Selection;
use crate::{output, say, Exit, Result};

pub fn run(global: &GlobalArgs, args: &PlanArgs) -> Result<Exit> {
    let batching = options::batching(&args.batching)?;
    let (build, selection) = selection::gather(
        options::build(global, false)?,
        &options::selection(&args.selection),
    )?;
    let ctx = PlanContext::for_build(&build, &args.gradle_args);
    let durations = durations::store::load(batching.config.durations.as_deref(), &build.root)?;
    output::stdout(&render_timed_plan(
        &selection,
        &batching,
        &ctx,
        &durations,
        args.format,
    ));
    if selection.tests.is_empty() && args.format != PlanFormat::Text {
        say!("gradle-flaky: nothing selected: no test to run");
    }
    let unresolved = explicit_unresolved(&selection.unresolved);
    if unresolved.is_empty() {
        return Ok(Exit::Clean);
    }
    say!(
        "gradle-flaky: {} of the tests you named resolved to nothing (exit code 2):",
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

/// Plans a selection and renders it; the pure part of `run`.
pub fn render_plan(
    selection: &Selection,
    batching: &Batching,
    ctx: &PlanContext,
    format: PlanFormat,
) -> String {
    render_timed_plan(selection, batching, ctx, &Durations::default(), format)
}

/// Plans a selection with what is known of its durations (predicted times;
/// shards of the batches that do not fit `--budget`) and renders it.
pub fn render_timed_plan(
    selection: &Selection,
    batching: &Batching,
    ctx: &PlanContext,
    durations: &Durations,
    format: PlanFormat,
) -> String {
    let mut plan = plan::plan(&selection.tests, &batching.config, ctx);
    plan::shard::apply(
        &mut plan,
        &plan::shard::Timing {
            durations,
            budget: batching.config.budget,
            max_shards: batching.config.max_shards,
        },
    );
    let view = PlanView {
        plan: &plan,
        unresolved: &selection.unresolved,
        task_selections: &selection.task_selections,
        expansions: &selection.expansions,
        skipped: &selection.skipped,
        selection_notes: &selection.notes,
        evidence: batching.evidence,
    };
    match format {
        PlanFormat::Text => render::text(&view),
        PlanFormat::Json => render::json(&view),
        PlanFormat::Shell => render::shell(&plan),
    }
}

/// Unresolved inputs the user named explicitly (positional tests or
/// `FLAKINESS_CLASSES`). Like Elasticsearch's `local` and `manual`, naming a
/// test that does not exist is an error (exit 2 here, an input error), while
/// changed files and unmutes that resolve to nothing are only reported.
fn explicit_unresolved(unresolved: &[Unresolved]) -> Vec<&Unresolved> {
    unresolved.iter().filter(|u| u.named_nothing()).collect()
}
