//! `pr --target github` and `manual --target github`, the workflow's `plan`
//! job: the selection is planned as for every CI (`ci::prepare`), then handed
//! to the workflow as
//!
//! - the step output `matrix={"batch":[0,1,…]}`: only batch indices, so no
//!   name from the branch ever reaches an expression or a `run:` script;
//! - `flakiness-plan.json` ([`PlanFile`], uploaded as an artifact): each
//!   batch for `github run --batch N` (its typed batch: the command with its
//!   tests and typed invocation, and the policy it runs by; the job renders
//!   the Gradle command line), and what the report needs;
//! - the step summary: the batches, or why there are none.
//!
//! With `--compare REF` (`pr` reads it from `FLAKINESS_COMPARE`) REF's
//! batches follow the branch's in the plan (`compare::ci`), so the one
//! matrix of indices runs both sides.

use super::annotations::{Level, WorkflowAnnotation};
use super::runner::RunnerFiles;
use crate::ci::compare;
use crate::ci::prepare::{many_batches, prepare, unresolved_markdown, CiPlan, Resolution};
use crate::ci::spec::BaseCheckout;
use crate::ci::spec::{CiBatch, JobSpec, ReportContext};
use crate::compare::ci::{base_batches, BaseBatches};
use crate::domain::Unresolved;
use crate::layout::Build;
use crate::markdown::{code_in_table, text};
use crate::reports::PLAN_FILE;
use crate::select::Selection;
use crate::settings::RunSettings;
use crate::{say, tell};
use crate::{shell, Error, Exit, Result};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// What the `run` and `analyze` jobs need of the plan.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct PlanFile {
    /// Batch `n` is matrix entry `n`.
    pub batches: Vec<PlannedBatch>,
    /// The expected jobs, renamed projects and the Gradle program.
    pub report: ReportContext,
    /// Found, but no enabled Test task runs them.
    #[serde(default)]
    pub not_applicable: Vec<Unresolved>,
}

/// One batch: what to run, and which job of which step it is in the report.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct PlannedBatch {
    pub label: String,
    pub step_key: String,
    /// Its position among the batches of its step (the status file's `parallelJob`).
    pub job: u32,
    pub spec: JobSpec,
}

impl PlanFile {
    /// The plan's batches; with `base` (`--compare REF`), REF's batches
    /// after them (`flakiness-base:*` steps, their specs checking out REF),
    /// so that the one matrix of indices runs both sides.
    pub(crate) fn of(plan: &CiPlan, base: Option<&BaseBatches>) -> PlanFile {
        let mut batches = planned_batches(&plan.batches, plan.dir.as_ref(), None);
        let commands = plan.batches.iter().map(|b| &b.command);
        let mut report = ReportContext::of(commands, &plan.projects, &plan.gradle, plan.rerun);
        if let Some(base) = base {
            batches.extend(planned_batches(
                &base.batches,
                plan.dir.as_ref(),
                Some(&base.side.checkout),
            ));
            report.compare = Some(base.context());
        }
        PlanFile {
            batches,
            report,
            not_applicable: plan.not_applicable.clone(),
        }
    }

    /// Reads a plan file; an error names it.
    pub(crate) fn read(path: &Path) -> Result<PlanFile> {
        let text = std::fs::read_to_string(path).map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => Error::input(
                path.display().to_string(),
                "no such file: `gradle-flaky pr --target github` (or `manual`) writes the plan, \
                 and the workflow hands it to the other jobs as the `flakiness-plan` artifact",
            ),
            _ => Error::io(path, e),
        })?;
        serde_json::from_str(&text)
            .map_err(|e| Error::input(path.display().to_string(), e.to_string()))
    }

    pub(crate) fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a plan serializes")
    }

    /// Something for the analyze job: batches, or tests recorded as not applicable.
    pub(crate) fn has_report(&self) -> bool {
        !self.batches.is_empty() || !self.not_applicable.is_empty()
    }

    /// The step outputs: `matrix` (one entry per batch, its index only),
    /// `batches` (how many), `report` (whether the analyze job has work),
    /// and what the analyze job is told as values: `compile-failed` (the
    /// compile gate's verdict) and `skipped-count` (the size of the skip
    /// list this file carries).
    pub(crate) fn outputs(&self, compile_failed: bool) -> Vec<(&'static str, String)> {
        let indices: Vec<usize> = (0..self.batches.len()).collect();
        vec![
            (
                "matrix",
                serde_json::json!({ "batch": indices }).to_string(),
            ),
            ("batches", self.batches.len().to_string()),
            ("report", (self.has_report() || compile_failed).to_string()),
            ("compile-failed", compile_failed.to_string()),
            ("skipped-count", self.not_applicable.len().to_string()),
        ]
    }
}

/// One [`PlannedBatch`] per command; with `base`, REF's (its step keys in
/// the `flakiness-base:` namespace, its specs checking out REF).
fn planned_batches(
    batches: &[CiBatch],
    dir: Option<&std::path::PathBuf>,
    base: Option<&BaseCheckout>,
) -> Vec<PlannedBatch> {
    batches
        .iter()
        .enumerate()
        .map(|(i, b)| {
            let c = &b.command;
            let mut spec = JobSpec::of(b, dir.cloned());
            spec.base = base.cloned();
            let (label, step_key) = match base {
                Some(_) => (format!("{} on REF", c.label), compare::step_key(&c.key)),
                None => (c.label.clone(), c.key.clone()),
            };
            PlannedBatch {
                label,
                step_key,
                job: batches[..i]
                    .iter()
                    .filter(|d| d.command.key == c.key)
                    .count() as u32,
                spec,
            }
        })
        .collect()
}

/// How the plan job publishes.
#[derive(Clone, Debug)]
pub(crate) struct Submit<'a> {
    pub settings: &'a RunSettings,
    /// Print the plan and the outputs instead of writing them.
    pub dry_run: bool,
    /// What to say when nothing is selected.
    pub nothing: &'a str,
    /// `--compare REF`, with the branch's muted-tests file (REF's batches run with it).
    pub compare: Option<(&'a str, &'a Path)>,
}

impl Submit<'_> {
    /// Exit 2 when a test the user named resolved to nothing (after
    /// publishing the rest), as on Buildkite.
    pub(crate) fn submit(&self, build: &Build, selection: &Selection) -> Result<Exit> {
        let resolution = Resolution::of(selection);
        let mut summary = String::from("## Flakiness detection: plan\n\n");
        let mut annotations = Vec::new();
        if !resolution.unresolved.is_empty() {
            summary.push_str(&unresolved_markdown(&resolution.unresolved));
            summary.push('\n');
            let level = if resolution.named_missing() {
                Level::Error
            } else {
                Level::Warning
            };
            annotations.push(WorkflowAnnotation::new(
                level,
                "Flakiness: tests not found",
                format!(
                    "{} input(s) resolved to no test: see the job summary.",
                    resolution.unresolved.len()
                ),
            ));
        }
        let (plan, compile_failed) = if resolution.nothing_left(selection) {
            say!("{}: no test to run", self.nothing);
            summary.push_str(&format!("{}: no test to run.\n", text(self.nothing)));
            (PlanFile::default(), false)
        } else {
            let not_applicable = resolution.not_applicable.clone();
            self.planned(
                build,
                selection,
                not_applicable,
                &mut summary,
                &mut annotations,
            )?
        };
        let outputs = plan.outputs(compile_failed);
        if self.dry_run {
            crate::output::stdout_line(&plan.to_json());
            for (name, value) in &outputs {
                tell!("output {name}={value}");
            }
            return Ok(resolution.exit);
        }
        if plan.has_report() || compile_failed {
            std::fs::write(PLAN_FILE, plan.to_json()).map_err(|e| Error::io(PLAN_FILE, e))?;
            tell!("{} batch(es) planned in {PLAN_FILE}", plan.batches.len());
        }
        let runner = RunnerFiles::from_env();
        runner.set_outputs(&outputs)?;
        if !runner.append_summary(&summary)? {
            eprint!("{summary}");
        }
        for annotation in &annotations {
            crate::output::stdout_line(&annotation.command());
        }
        Ok(resolution.exit)
    }

    /// The plan file of a selection with tests left, its summary and
    /// warnings; true when the selected tests do not compile (no batch runs).
    fn planned(
        &self,
        build: &Build,
        selection: &Selection,
        not_applicable: Vec<crate::domain::Unresolved>,
        summary: &mut String,
        annotations: &mut Vec<WorkflowAnnotation>,
    ) -> Result<(PlanFile, bool)> {
        // The workflow gives the plan step its jobs' budget (FLAKINESS_BUDGET).
        let mut plan = prepare(build, selection, self.settings, not_applicable, None)?;
        if let Some(warning) = many_batches(plan.batches.len(), selection.tests.len()) {
            tell!("{warning}");
            annotations.push(WorkflowAnnotation::new(
                Level::Warning,
                "Flakiness",
                warning,
            ));
        }
        summary.push_str(&plan_markdown(&plan.batches, selection.tests.len()));
        summary.push_str(&crate::analyze::render::not_checked(&plan.not_applicable));
        let compile_failed = !self.dry_run && !crate::ci::gate::compiles(&plan)?;
        if compile_failed {
            summary.push_str(
                "**The selected tests do not compile**: no batch runs; the report job \
                 records it.\n",
            );
            plan.batches.clear();
        }
        // REF's batches run only beside the branch's (none after a failed compile gate).
        let base = self.compare.filter(|_| !plan.batches.is_empty());
        let base = base
            .map(|c| base_batches(build, selection, self.settings, c, None))
            .transpose()?;
        if let Some(base) = &base {
            summary.push_str(&base_markdown(plan.batches.len(), base));
        }
        Ok((PlanFile::of(&plan, base.as_ref()), compile_failed))
    }
}

/// The batches as a table: index (the matrix entry), what runs, how often.
fn plan_markdown(batches: &[CiBatch], tests: usize) -> String {
    let mut out = format!(
        "{} batch(es) of {tests} test(s), one `run` job each:\n\n\
         | batch | tests | executions per test | command |\n|---:|---|---:|---|\n",
        batches.len()
    );
    for (i, c) in batches.iter().map(|b| &b.command).enumerate() {
        let mut command = code_in_table(&shell::join(&c.argv()));
        if c.rest_loops() > 1 {
            command.push_str(&format!(" ({} Gradle runs)", c.rest_loops()));
        }
        out.push_str(&format!(
            "| {i} | {} | {} | {command} |\n",
            text(&c.label),
            c.executions()
        ));
    }
    out.push('\n');
    out
}

/// `--compare REF`: which batches run on REF, and the tests that have no before.
fn base_markdown(first: usize, base: &BaseBatches) -> String {
    let checkout = &base.side.checkout;
    let mut out = format!(
        "{} ({}): the batches also run on REF, batch {first} onwards ({} job(s)), \
         each in a worktree of REF's commit.\n",
        crate::markdown::code(&format!("--compare {}", checkout.reference)),
        text(&checkout.commit[..12]),
        base.batches.len()
    );
    if !base.side.new_in_branch.is_empty() {
        out.push_str(&format!(
            "New in this branch, no before on REF: {}.\n",
            base.side
                .new_in_branch
                .iter()
                .map(|t| text(t))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::{GradleCommand, TestKind};

    fn cmd(kind: TestKind, argv: &[&str]) -> CiBatch {
        let (iterations, loops) = if kind.is_rest() { (1, 5) } else { (3, 1) };
        CiBatch::plain(GradleCommand::of_kind(kind, argv, iterations, loops))
    }

    fn planned() -> CiPlan {
        CiPlan {
            batches: vec![
                cmd(TestKind::Unit, &["gradle", ":a:test", "--tests", "A"]),
                cmd(
                    TestKind::YamlRestTestSuite,
                    &["gradle", "-Dtests.rest.suite=p/40_${{ github.token }}"],
                ),
                cmd(TestKind::Unit, &["gradle", ":b:test", "--tests", "B"]),
            ],
            dir: Some("build-root".into()),
            gradle: vec!["gradle".into()],
            ..CiPlan::default()
        }
    }

    #[test]
    fn the_matrix_holds_batch_indices_only() {
        let plan = PlanFile::of(&planned(), None);
        assert_eq!(
            plan.outputs(false),
            [
                ("matrix", r#"{"batch":[0,1,2]}"#.to_string()),
                ("batches", "3".into()),
                ("report", "true".into()),
                ("compile-failed", "false".into()),
                ("skipped-count", "0".into())
            ]
        );
        let empty = PlanFile::default();
        assert_eq!(
            empty.outputs(false),
            [
                ("matrix", r#"{"batch":[]}"#.to_string()),
                ("batches", "0".into()),
                ("report", "false".into()),
                ("compile-failed", "false".into()),
                ("skipped-count", "0".into())
            ]
        );
        // A failed compile gate: no batch, but a report that records it.
        let failed = empty.outputs(true);
        assert_eq!(failed[2], ("report", "true".into()));
        assert_eq!(failed[3], ("compile-failed", "true".into()));
    }

    #[test]
    fn each_batch_knows_its_job_within_its_step() {
        let plan = PlanFile::of(&planned(), None);
        let jobs: Vec<(&str, u32)> = plan
            .batches
            .iter()
            .map(|b| (b.step_key.as_str(), b.job))
            .collect();
        assert_eq!(
            jobs,
            [
                ("flakiness-detection:unit", 0),
                ("flakiness-detection:yaml-suite", 0),
                ("flakiness-detection:unit", 1)
            ]
        );
        assert_eq!(plan.report.jobs[0].jobs, 2);
        assert_eq!(
            plan.batches[1].spec.command().invocation.repeat,
            crate::invocation::Repeat::GradleRuns(5)
        );
        assert_eq!(
            plan.batches[2].spec.dir.as_deref(),
            Some(Path::new("build-root"))
        );
        let read: PlanFile = serde_json::from_str(&plan.to_json()).unwrap();
        assert_eq!(read, plan);
    }

    /// `--compare REF`: REF's batches follow the branch's in the one
    /// matrix, as `flakiness-base:*` jobs whose specs check out REF; the
    /// report is told REF's side.
    #[test]
    fn refs_batches_follow_the_branchs_in_the_matrix() {
        let plan = planned();
        let base = BaseBatches {
            side: crate::compare::ci::BaseSelection {
                checkout: BaseCheckout {
                    reference: "main".into(),
                    commit: "c".repeat(40),
                    muted_file: Some("muted-tests.yml".into()),
                },
                branch: Some("main".into()),
                tests: Vec::new(),
                new_in_branch: vec!["a.NewTests".into()],
            },
            batches: plan.batches[..1].to_vec(),
        };
        let file = PlanFile::of(&plan, Some(&base));
        assert_eq!(file.outputs(false)[0].1, r#"{"batch":[0,1,2,3]}"#);
        let last = &file.batches[3];
        assert_eq!(
            (last.step_key.as_str(), last.label.as_str(), last.job),
            ("flakiness-base:unit", "unit tests on REF", 0)
        );
        assert_eq!(last.spec.base.as_ref(), Some(&base.side.checkout));
        assert_eq!(last.spec.batch, file.batches[0].spec.batch);
        assert!(file.batches[..3].iter().all(|b| b.spec.base.is_none()));
        let side = file.report.compare.as_ref().expect("REF's side");
        assert_eq!(side.jobs[0].step_key, "flakiness-base:unit");
        assert_eq!(side.jobs[0].jobs, 1);
        assert_eq!(side.new_in_branch, ["a.NewTests"]);
        assert!(PlanFile::of(&plan, None).report.compare.is_none());
        let md = base_markdown(3, &base);
        assert!(md.contains("batch 3 onwards (1 job(s))"), "{md}");
        assert!(
            md.contains("New in this branch, no before on REF: a.NewTests."),
            "{md}"
        );
    }

    #[test]
    fn the_plan_summary_shows_branch_names_as_code() {
        let md = plan_markdown(&planned().batches, 3);
        assert!(
            md.contains("| 1 | yaml rest tests | 5 | `gradle '-Dtests.rest.suite=p/40_${{ github.token }}'` (5 Gradle runs) |"),
            "{md}"
        );
        assert!(md.starts_with("3 batch(es) of 3 test(s)"), "{md}");
    }

    /// A plan file an earlier version wrote (each batch Gradle argv text)
    /// is refused, saying the workflow was planned by another version.
    #[test]
    fn a_plan_file_of_argv_text_is_refused_saying_why() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(PLAN_FILE);
        let old = r#"{"batches":[{"label":"unit tests","stepKey":"flakiness-detection:unit",
            "job":0,"spec":{"kind":"unit","argv":["gradle",":a:test"]}}],"report":{}}"#;
        std::fs::write(&path, old).unwrap();
        let e = PlanFile::read(&path).unwrap_err().to_string();
        assert!(e.contains(crate::ci::spec::PLANNED_ELSEWHERE), "{e}");
        let typed = PlanFile::of(&planned(), None);
        std::fs::write(&path, typed.to_json()).unwrap();
        assert_eq!(PlanFile::read(&path).unwrap(), typed);
    }
}
