//! How a CI's report steps read their jobs' JUnit XML: with the renamed
//! projects and the Gradle program the plan recorded, the jobs of
//! whole-task steps (`--context task|both`, the unmute check) in context
//! `task`, and the tests those jobs ran that their steps did not select
//! (their neighbours) set apart by `analyze::neighbours`' rule, as `local`
//! sets them apart: no job outcome, verdict or count rests on them.

use super::spec::{ExpectedStep, ReportContext};
use super::status::JobRun;
use crate::analyze::read::reproduce::Rerun;
use crate::analyze::rules::planned::{set_apart_neighbours, PlannedTest};
use crate::analyze::{self, AnalyzeOptions, Report};
use crate::invocation::Forcing;
use crate::reports::ProjectPaths;
use std::path::PathBuf;

/// The reading of the jobs of `steps` (the branch's, or REF's).
pub(crate) struct Reading<'a> {
    opts: AnalyzeOptions,
    steps: &'a [ExpectedStep],
}

impl<'a> Reading<'a> {
    /// How `jobs`, run as `steps` planned, are read in `context`.
    pub(crate) fn new(
        jobs: &[JobRun],
        steps: &'a [ExpectedStep],
        context: &ReportContext,
    ) -> Reading<'a> {
        let mut opts = analyze_options(context);
        opts.task_context_below = whole_task_jobs(jobs, steps);
        Reading { opts, steps }
    }

    /// One job's report: a whole-task job's outcome rests on what its own
    /// step selected.
    pub(crate) fn job(&self, job: &JobRun) -> Report {
        let mut report = analyze::analyze_root(&job.dir, &self.opts);
        let step = self
            .steps
            .iter()
            .find(|s| s.step_key == job.status.step_key);
        set_apart(&mut report, step.filter(|s| s.whole_task).into_iter());
        report
    }

    /// The report of every job's XML together: a test that ran only in
    /// whole-task jobs and that no whole-task step selected is set apart.
    pub(crate) fn all(&self, jobs: &[JobRun]) -> Report {
        // Each job's folder is a copy of the build's tree: projects are found below it.
        let dirs: Vec<PathBuf> = jobs.iter().map(|j| j.dir.clone()).collect();
        let mut report = analyze::analyze_roots(&dirs, &self.opts);
        set_apart(&mut report, self.steps.iter().filter(|s| s.whole_task));
        report
    }
}

/// Sets apart the neighbours of the whole-task `steps`' runs. A whole-task
/// step that names no selected test (the context of an earlier version's
/// plan) cannot tell a selected test from a neighbour: then nothing is set
/// apart, so that nothing selected is hidden.
fn set_apart<'s>(report: &mut Report, steps: impl Iterator<Item = &'s ExpectedStep>) {
    let mut planned: Vec<PlannedTest> = Vec::new();
    for (i, step) in steps.enumerate() {
        if step.selected.is_empty() {
            return;
        }
        planned.extend(step.selected.iter().map(|t| PlannedTest::of(t, i + 1)));
    }
    if !planned.is_empty() {
        set_apart_neighbours(report, &planned);
    }
}

/// The folders (absolute) of the jobs that ran their tests' whole test
/// tasks, told by their step keys: their executions are in context `task`.
fn whole_task_jobs(jobs: &[JobRun], steps: &[ExpectedStep]) -> Vec<String> {
    let whole = |key: &str| {
        let step = steps.iter().find(|s| s.step_key == key);
        step.is_some_and(|s| s.whole_task)
    };
    jobs.iter()
        .filter(|j| whole(&j.status.step_key))
        .filter_map(|j| std::fs::canonicalize(&j.dir).ok())
        .map(|d| d.to_string_lossy().into_owned())
        .collect()
}

/// How the jobs' reports are read: with the renamed projects and the Gradle
/// program the upload recorded.
pub(crate) fn analyze_options(context: &ReportContext) -> AnalyzeOptions {
    AnalyzeOptions {
        project_paths: ProjectPaths::new(context.projects.clone()),
        rerun: Rerun {
            gradle: context.gradle.clone(),
            forcing: match context.rerun {
                true => Forcing::Rerun,
                false => Forcing::CleanTask,
            },
        },
        planned: true,
        ..AnalyzeOptions::default()
    }
}
