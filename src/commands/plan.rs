//! `gradle-flaky plan`: select, plan and print; run nothing.

use super::options::{self, Batching};
use super::selection;
use crate::cli::{GlobalArgs, PlanArgs, PlanFormat, SelectionArgs};
use crate::domain::Unresolved;
use crate::plan::render::{self, visible, PlanView};
use crate::plan::{self, GradleVersion, PlanContext};
use crate::select::Selection;
use crate::{layout, Error, Exit, Result};
use std::io::Write;

pub fn run(global: &GlobalArgs, args: &PlanArgs) -> Result<Exit> {
    let batching = options::batching(&args.batching)?;
    let gradle = options::gradle_program(&global.project_dir, global.gradle.as_deref())?;
    let selection = selection::gather(global, &args.selection)?;
    // The layout is only needed for the Gradle version; selection has loaded
    // (and, with --refresh-layout, refreshed) it, so this reads the cache. Without
    // it the plan still works: the clean-task form runs on every version, and the
    // plan says so.
    let gradle_version = if selection.tests.is_empty() {
        None
    } else {
        match layout::load(&global.project_dir, global.gradle.as_deref(), false) {
            Ok(layout) => GradleVersion::parse(&layout.gradle_version),
            Err(Error::Interrupted) => return Err(Error::Interrupted),
            Err(_) => None,
        }
    };
    let ctx = PlanContext {
        gradle,
        gradle_version,
        extra_args: args.gradle_args.clone(),
    };
    let out = render_plan(&selection, &batching, &ctx, args.format);
    write_stdout(&out)?;
    if selection.tests.is_empty() && args.format != PlanFormat::Text {
        eprintln!("gradle-flaky: nothing selected: no test to run");
    }
    let unresolved = explicit_unresolved(&args.selection, &selection.unresolved);
    if unresolved.is_empty() {
        return Ok(Exit::Clean);
    }
    eprintln!(
        "gradle-flaky: {} of the tests you named resolved to nothing (exit code 2):",
        unresolved.len()
    );
    for u in unresolved {
        eprintln!("  - {}: {}", visible(&u.input), visible(&u.reason));
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
    let plan = plan::plan(&selection.tests, &batching.config, ctx);
    let view = PlanView {
        plan: &plan,
        unresolved: &selection.unresolved,
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
/// `FLAKINESS_CLASSES`). Like the reference's `local` and `manual`, naming a
/// test that does not exist is an error (exit 2 here, an input error), while
/// changed files and unmutes that resolve to nothing are only reported.
fn explicit_unresolved<'a>(
    args: &SelectionArgs,
    unresolved: &'a [Unresolved],
) -> Vec<&'a Unresolved> {
    unresolved
        .iter()
        .filter(|u| args.tests.iter().any(|t| names(t, u.input.trim())))
        .collect()
}

/// Does the raw argument `arg` name `spec` as a whole item of the list grammar
/// (bounded by the start, the end, or a space, comma or newline)?
fn names(arg: &str, spec: &str) -> bool {
    let separator = |c: Option<char>| c.map_or(true, |c| c.is_whitespace() || c == ',');
    !spec.is_empty()
        && arg.match_indices(spec).any(|(at, _)| {
            separator(arg[..at].chars().next_back())
                && separator(arg[at + spec.len()..].chars().next())
        })
}

fn write_stdout(s: &str) -> Result<()> {
    let mut out = std::io::stdout().lock();
    match out.write_all(s.as_bytes()).and_then(|()| out.flush()) {
        // `plan | head` closing the pipe early is not an error.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        r => r.map_err(|e| crate::Error::io("stdout", e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_unresolved_inputs_the_user_named_count_as_errors() {
        let args = SelectionArgs {
            tests: vec![
                "org.Missing, org.Found".into(),
                "org.FooBar\nFoo.test {yaml=a/b/from, to}".into(),
            ],
            ..SelectionArgs::default()
        };
        let u = |input: &str| Unresolved {
            input: input.into(),
            reason: "no such class".into(),
        };
        let unresolved = [
            u("org.Missing"),
            u("server/src/test/java/Helper.java"),
            u(" "),
            u("org.Foo"),
            u("Foo.test {yaml=a/b/from, to}"),
        ];
        let named = explicit_unresolved(&args, &unresolved);
        assert_eq!(named, vec![&unresolved[0], &unresolved[4]]);
    }
}
