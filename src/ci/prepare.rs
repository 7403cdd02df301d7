//! A selection made ready for a CI: what did not resolve (printed, and the
//! exit it calls for), then the plan with what every CI's jobs need beside
//! the batches: the compile gate, where the build is in the checkout, the
//! renamed projects and the Gradle program for the report.

use super::spec::CiBatch;
use crate::domain::{ClassifiedTest, Origin, Unresolved};
use crate::layout::{Build, Layout};
use crate::plan::{self, PlanContext};
use crate::select::Selection;
use crate::settings::RunSettings;
use crate::tell;
use crate::terminal::visible;
use crate::{markdown, Error, Exit, Result};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Above this many batches a CI entry point warns (counting batches, not the
/// test files a selection started from, which may not all run).
const MANY_BATCHES: usize = 30;

/// A selection, planned for a CI to fan out.
#[derive(Clone, Debug, Default)]
pub(crate) struct CiPlan {
    /// One batch job each: the command and the policy it runs by.
    pub batches: Vec<CiBatch>,
    /// The pre-flight compile invocation (Gradle program and compile tasks);
    /// empty: no gate.
    pub compile: Vec<String>,
    /// The Gradle build's directory relative to the checkout, when not the checkout itself.
    pub dir: Option<PathBuf>,
    /// Gradle paths of the selected projects whose directory does not spell
    /// them (a renamed project), for the report's task paths.
    pub projects: BTreeMap<String, String>,
    /// The Gradle program of the batches, for the report's reproduce lines.
    pub gradle: Vec<String>,
    /// The build's Gradle has `--rerun` (7.6+); else a test task is forced
    /// to run by its `clean<Task>`.
    pub rerun: bool,
    /// Found, but no enabled Test task runs them: recorded, not re-run.
    pub not_applicable: Vec<Unresolved>,
}

/// What a CI entry point makes of a selection before planning it.
#[derive(Clone, Debug)]
pub(crate) struct Resolution {
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
    pub(crate) fn of(selection: &Selection) -> Resolution {
        for note in &selection.notes {
            tell!("{}", visible(note));
        }
        for f in &selection.skipped {
            let (path, reason) = (visible(&f.path), visible(&f.reason));
            tell!("changed, not run: {path}: {reason}");
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
    pub(crate) fn named_missing(&self) -> bool {
        self.exit == Exit::Usage
    }

    /// Nothing to run and nothing to record.
    pub(crate) fn nothing_left(&self, selection: &Selection) -> bool {
        selection.tests.is_empty() && self.not_applicable.is_empty()
    }
}

/// The warning for a plan that fans out to very many batches.
pub(crate) fn many_batches(batches: usize, tests: usize) -> Option<String> {
    (batches > MANY_BATCHES).then(|| {
        format!("Warning: {batches} batches ({tests} tests) to re-run. This may take a while.")
    })
}

/// Plans a selection for CI: the batches, the compile gate (from the layout's
/// compile tasks; none when the layout is unavailable), the not-applicable
/// tests and where the build is in the checkout (this process's directory).
///
/// With durations (`--durations`, else recorded in the build), a batch that
/// cannot fit one job's budget (`--budget`, else what a job of `job_limit`
/// leaves it: `settings::RunMode::batch_budget`) is split into shards, one
/// job each.
pub(crate) fn prepare(
    build: &Build,
    selection: &Selection,
    settings: &RunSettings,
    not_applicable: Vec<Unresolved>,
    job_limit: Option<Duration>,
) -> Result<CiPlan> {
    let (plan, ctx, durations) = planned(build, selection, settings, job_limit)?;
    tell!("durations: {durations}");
    for note in &plan.notes {
        tell!("{}", visible(note));
    }
    let (tasks, projects) = match &build.layout {
        Some(l) => (
            compile_tasks(l, &plan.tests),
            renamed_projects(l, &plan.tests),
        ),
        None => Default::default(),
    };
    let rerun = ctx.forcing() == plan::Forcing::Rerun;
    let compile = if tasks.is_empty() {
        Vec::new()
    } else {
        [build.gradle.clone(), tasks].concat()
    };
    Ok(CiPlan {
        batches: CiBatch::of_plan(plan, &settings.batching, &ctx),
        compile,
        dir: checkout_relative(&build.root)?,
        projects,
        gradle: build.gradle.clone(),
        rerun,
        not_applicable,
    })
}

/// The batches of `selection` as [`prepare`] plans them, without a word:
/// REF's side of `--compare`, whose plan the branch's has already told.
pub(crate) fn batches(
    build: &Build,
    selection: &Selection,
    settings: &RunSettings,
    job_limit: Option<Duration>,
) -> Result<Vec<CiBatch>> {
    let (plan, ctx, _) = planned(build, selection, settings, job_limit)?;
    Ok(CiBatch::of_plan(plan, &settings.batching, &ctx))
}

/// The plan of `selection`, the context it was planned in and where its
/// durations came from.
fn planned(
    build: &Build,
    selection: &Selection,
    settings: &RunSettings,
    job_limit: Option<Duration>,
) -> Result<(plan::Plan, PlanContext, String)> {
    let (ctx, durations) = PlanContext::for_run(build, &[], settings, &selection.tests)?;
    let mut plan = plan::for_run(&selection.tests, settings, job_limit, &ctx, &durations);
    if let Some(layout) = &build.layout {
        layout.note_heap_dumps(&mut plan.commands);
    }
    Ok((plan, ctx, durations.source.describe()))
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

/// The compile tasks of the selected tests' source sets, as the layout reports
/// them (Java, Groovy, Kotlin), deduplicated and sorted: the precompile gate.
pub(crate) fn compile_tasks(layout: &Layout, tests: &[ClassifiedTest]) -> Vec<String> {
    let tasks: BTreeSet<&String> = tests
        .iter()
        .filter_map(|t| {
            let project = layout.project(&t.project)?;
            project.source_sets.iter().find(|s| s.name == t.source_set)
        })
        .flat_map(|s| &s.compile_tasks)
        .collect();
    tasks.into_iter().cloned().collect()
}

/// Gradle paths of the selected tests' projects that the fallback project
/// path rule would get wrong (a renamed project), by directory.
pub(crate) fn renamed_projects(
    layout: &Layout,
    tests: &[ClassifiedTest],
) -> BTreeMap<String, String> {
    let selected: BTreeSet<&str> = tests.iter().map(|t| t.project.as_str()).collect();
    layout
        .project_paths()
        .renamed()
        .into_iter()
        .filter(|(_, path)| selected.contains(path.as_str()))
        .collect()
}

/// The markdown list of inputs that selected nothing, with their reasons.
pub(crate) fn unresolved_markdown(unresolved: &[Unresolved]) -> String {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::TestKind;
    use serde_json::json;

    #[test]
    fn the_gate_and_the_report_get_what_the_layout_says_of_the_selection() {
        let layout: Layout = serde_json::from_value(json!({
            "schema": 1, "gradleVersion": "4.4.1", "rootDir": "/b",
            "projects": [
                {
                    "path": ":p", "name": "p", "projectDir": "/b/p", "buildFile": "/b/p/build.gradle",
                    "sourceSets": [
                        { "name": "test", "compileTasks": [":p:compileTestJava", ":p:compileTestGroovy"] },
                        { "name": "yamlRestTest", "compileTasks": [":p:compileYamlRestTestJava"] }
                    ]
                },
                {
                    "path": ":mods:test-heap", "name": "test-heap", "projectDir": "/b/mods/heap",
                    "buildFile": "/b/mods/heap/build.gradle",
                    "sourceSets": [ { "name": "test", "compileTasks": [":mods:test-heap:compileTestJava"] } ]
                }
            ]
        }))
        .unwrap();
        let test = |project: &str, source_set: &str, class: &str| ClassifiedTest {
            project: project.into(),
            source_set: source_set.into(),
            task: format!("{project}:{source_set}"),
            kind: TestKind::Unit,
            class: Some(class.into()),
            method: None,
            yaml_suite: None,
            origin: crate::domain::Origin::Changed,
            nested_classes: false,
            is_suite: false,
            via_suite: None,
            mute: None,
        };
        let tests = [
            test(":p", "test", "A"),
            test(":p", "test", "B"),
            test(":p", "yamlRestTest", "C"),
            test(":p", "gone", "D"),
        ];
        assert_eq!(
            compile_tasks(&layout, &tests),
            [
                ":p:compileTestGroovy",
                ":p:compileTestJava",
                ":p:compileYamlRestTestJava"
            ]
        );
        assert_eq!(renamed_projects(&layout, &tests), BTreeMap::new());
        let renamed = [
            test(":p", "test", "A"),
            test(":mods:test-heap", "test", "H"),
        ];
        assert_eq!(
            renamed_projects(&layout, &renamed),
            BTreeMap::from([("mods/heap".to_string(), ":mods:test-heap".to_string())])
        );
    }
}
