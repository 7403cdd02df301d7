//! What a CI's jobs are told: each batch job's [`JobSpec`], the jobs the
//! report expects ([`ExpectedStep`]), what the report step knows of the plan
//! ([`ReportContext`]), and the grace a job's wrapper keeps before its CI
//! stops it. Each CI carries them its own way (Buildkite in step `env`,
//! GitHub in the plan file); the JSON is the same.

use crate::domain::{ClassifiedTest, GradleCommand};
use crate::plan::group_in_order;
use crate::process::Isolation;
use crate::Result;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// A batch is stopped this many minutes before its CI job's own timeout, so
/// the wrapper outlives its command and records how it ended.
pub(crate) const GRACE_MINUTES: u32 = crate::settings::GRACE_MIN as u32;

/// The timeout of what runs inside a job of `job_min` minutes: the job's
/// minus the grace, at least a minute.
pub(crate) fn inner_timeout(job_min: u32) -> u32 {
    job_min.saturating_sub(GRACE_MINUTES).max(1)
}

/// What one job runs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct JobSpec {
    /// The batch's kind (recorded in the status file); empty for the precompile gate.
    #[serde(default)]
    pub kind: String,
    /// The Gradle invocation.
    pub argv: Vec<String>,
    /// REST batches loop natively: `gradle-flaky repeat --times N -- argv`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub repeat: Option<u32>,
    /// The Gradle build's directory, relative to the checkout.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dir: Option<PathBuf>,
    /// The Test tasks the batch runs: the wrapper tells a batch the build
    /// skipped from one that ran no test.
    #[serde(default, rename = "taskPaths", skip_serializing_if = "Vec::is_empty")]
    pub task_paths: Vec<String>,
    /// Where its test JVMs write heap dumps besides `build/heapdump/` (their
    /// `-XX:HeapDumpPath`, relative to the build's directory when inside it).
    #[serde(
        default,
        rename = "heapDumpPaths",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub heap_dump_paths: Vec<PathBuf>,
    /// One of gradle-flaky's helpers repeats the tests in the JVM: the job
    /// applies the init script that compiles and installs it.
    #[serde(default, rename = "repeatHelpers", skip_serializing_if = "is_false")]
    pub repeat_helpers: bool,
    /// A REF job of `--compare REF`: the batch runs in a worktree of REF's commit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base: Option<BaseCheckout>,
}

fn is_false(b: &bool) -> bool {
    !*b
}

impl JobSpec {
    pub(crate) fn for_command(command: &GradleCommand, dir: Option<PathBuf>) -> JobSpec {
        JobSpec {
            kind: command.kind.as_str().to_string(),
            argv: command.argv(),
            repeat: command.loops_gradle().then_some(command.rest_loops()),
            dir,
            task_paths: command.task_paths(),
            heap_dump_paths: command.heap_dump_paths.clone(),
            repeat_helpers: command.invocation.needs_repeat_helpers(),
            base: None,
        }
    }

    /// The argv to run, given how to invoke this very binary (`self_exe`).
    /// CI runs isolated, unlike `local` on a laptop: a fresh agent has no warm
    /// daemon to reuse, and a daemon of ours must not outlive the job on an
    /// agent that runs other jobs next. `repeat --isolate` keeps a private
    /// daemon warm across a REST loop's iterations; other batches get
    /// `--no-daemon`. A REST loop given `task_outcomes` records each
    /// iteration's task outcomes there.
    pub(crate) fn argv_to_run(
        &self,
        self_exe: &str,
        task_outcomes: Option<&Path>,
    ) -> Result<Vec<String>> {
        match self.repeat {
            Some(times) => {
                let options: Vec<String> = task_outcomes
                    .map(|dir| vec!["--task-outcomes".into(), dir.display().to_string()])
                    .unwrap_or_default();
                let mut argv = crate::plan::repeat_argv(self_exe, times, &options, &self.argv);
                argv.insert(1, "--isolate".into());
                Ok(argv)
            }
            None => Isolation::NoDaemon.apply(&self.argv),
        }
    }
}

/// A batch step's jobs, for the report to notice missing status files.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ExpectedStep {
    pub step_key: String,
    pub kind: String,
    pub label: String,
    pub jobs: u32,
    /// Iterations the plan gives the step's tests (a class's iteration runs
    /// each of its methods once), for the report's cost; 0 when unknown.
    #[serde(default)]
    pub iterations: u64,
    /// Its jobs run their tests' whole test task (`--context task`): their
    /// executions are in context `task`.
    #[serde(default, skip_serializing_if = "is_false")]
    pub whole_task: bool,
    /// The step's selected tests, each once: the report step lists those no
    /// job executed (never a quiet pass), and sets apart what a whole-task
    /// step's jobs ran beside them (their neighbours), as `local` does.
    /// Empty in the context of an earlier version's plan.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub selected: Vec<ClassifiedTest>,
}

/// The batch jobs the commands fan out to, one entry per step key (kind), in
/// plan order: what the report step expects a status file from.
pub(crate) fn expected_steps(commands: &[GradleCommand]) -> Vec<ExpectedStep> {
    group_in_order(commands, |c| c.key.clone())
        .into_iter()
        .map(|(key, batches)| ExpectedStep {
            step_key: key,
            kind: batches[0].kind.as_str().to_string(),
            label: batches[0].label.clone(),
            jobs: batches.len() as u32,
            iterations: batches
                .iter()
                .map(|c| c.executions() * c.tests.len() as u64)
                .sum(),
            whole_task: batches[0].whole_task.is_some(),
            selected: selected(&batches),
        })
        .collect()
}

/// The tests of a step's batches, each once (shards of a batch share them).
fn selected(batches: &[&GradleCommand]) -> Vec<ClassifiedTest> {
    let mut tests: Vec<ClassifiedTest> = Vec::new();
    for t in batches.iter().flat_map(|c| &c.tests) {
        if !tests.contains(t) {
            tests.push(t.clone());
        }
    }
    tests
}

/// What the report step knows of the plan.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct ReportContext {
    /// The batch jobs that should leave a status file.
    #[serde(default)]
    pub jobs: Vec<ExpectedStep>,
    /// Gradle paths of renamed projects by directory (see `ci::prepare::renamed_projects`).
    #[serde(default)]
    pub projects: BTreeMap<String, String>,
    /// The Gradle program, for reproduce lines.
    #[serde(default)]
    pub gradle: Vec<String>,
    /// The build's Gradle has `--rerun` (7.6+): reproduce lines force a Test
    /// task with it instead of `clean<Task>`.
    #[serde(default, skip_serializing_if = "is_false")]
    pub rerun: bool,
    /// `--compare REF`: REF's side.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub compare: Option<CompareContext>,
}

impl ReportContext {
    /// The context of a plan's commands, its renamed projects and Gradle program.
    pub(crate) fn of(
        commands: &[GradleCommand],
        projects: &BTreeMap<String, String>,
        gradle: &[String],
        rerun: bool,
    ) -> ReportContext {
        ReportContext {
            jobs: expected_steps(commands),
            projects: projects.clone(),
            gradle: gradle.to_vec(),
            rerun,
            compare: None,
        }
    }
}

/// The longest report context a job's environment carries whole: Linux
/// refuses to start a program with a variable over 128 KiB.
pub(crate) const ENV_CONTEXT_LIMIT: usize = 96 * 1024;

impl ReportContext {
    /// The context as an environment variable carries it: past
    /// [`ENV_CONTEXT_LIMIT`], the steps that run their tests alone name no
    /// selected test (their check that each ran is dropped; a whole-task
    /// step keeps them, to set its neighbours apart). The second value says
    /// whether anything was dropped.
    pub(crate) fn for_env(&self) -> (ReportContext, bool) {
        let size = |c: &ReportContext| serde_json::to_string(c).map_or(0, |s| s.len());
        if size(self) <= ENV_CONTEXT_LIMIT {
            return (self.clone(), false);
        }
        let mut fitted = self.clone();
        let compare = fitted.compare.iter_mut().flat_map(|c| c.jobs.iter_mut());
        for step in fitted.jobs.iter_mut().chain(compare) {
            if !step.whole_task {
                step.selected.clear();
            }
        }
        (fitted, true)
    }
}

/// What a REF job (`super::compare`) checks out.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct BaseCheckout {
    /// REF as given (for messages).
    pub reference: String,
    /// The commit it named when the pipeline was planned (40 hex digits, 64
    /// in a SHA-256 repository).
    pub commit: String,
    /// The branch's muted-tests file, relative to the build's directory:
    /// copied over REF's, so that a test the branch unmutes runs there too.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub muted_file: Option<PathBuf>,
}

/// What the report step knows of REF's side.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct CompareContext {
    pub reference: String,
    pub commit: String,
    /// REF's branch name, when it names one (for the ledger).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub branch: Option<String>,
    /// REF's jobs, each expected to leave a status file.
    #[serde(default)]
    pub jobs: Vec<ExpectedStep>,
    /// Selected tests that do not exist on REF.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub new_in_branch: Vec<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The report's cost counts what the plan requested of each step: its
    /// batches' iterations (in the JVM or Gradle runs) times their tests.
    #[test]
    fn expected_steps_carry_the_iterations_requested() {
        use crate::domain::testing::test;
        use crate::domain::TestKind;
        let mut in_jvm = GradleCommand::of_kind(TestKind::Unit, &["gradle"], 10, 1);
        in_jvm.tests = vec![
            test(":a:test", TestKind::Unit, Some("a.B")),
            test(":a:test", TestKind::Unit, Some("a.C")),
        ];
        let mut runs = GradleCommand::of_kind(TestKind::Unit, &["gradle"], 1, 1);
        runs.invocation.repeat = crate::invocation::Repeat::GradleRuns(5);
        runs.tests = vec![test(":a:test", TestKind::Unit, Some("a.D"))];
        let steps = expected_steps(&[in_jvm, runs]);
        assert_eq!(steps.len(), 1, "{steps:?}");
        assert_eq!((steps[0].jobs, steps[0].iterations), (2, 25));
    }

    /// Every step names its selected tests once, whichever shard runs them:
    /// the report step checks each ran, and sets apart what a whole-task
    /// step ran beside them.
    #[test]
    fn steps_name_their_selected_tests() {
        use crate::domain::testing::unit;
        use crate::domain::{TestKind, WholeTask};
        let mut alone = GradleCommand::of_kind(TestKind::Unit, &["gradle"], 1, 1);
        alone.tests = vec![unit("a.B"), unit("a.C")];
        let mut shard = alone.clone();
        shard.key = "flakiness-detection:unit-task".into();
        shard.whole_task = Some(WholeTask::default());
        let mut other = shard.clone();
        other.tests = vec![unit("a.C"), unit("a.D")];
        let steps = expected_steps(&[alone, shard, other]);
        let named = |s: &ExpectedStep| -> Vec<String> {
            s.selected.iter().filter_map(|t| t.class.clone()).collect()
        };
        assert_eq!(named(&steps[0]), ["a.B", "a.C"]);
        assert_eq!((steps[1].whole_task, steps[1].jobs), (true, 2));
        assert_eq!(named(&steps[1]), ["a.B", "a.C", "a.D"]);
        let json = serde_json::to_value(&steps).unwrap();
        let back: Vec<ExpectedStep> = serde_json::from_value(json).unwrap();
        assert_eq!(back, steps);
    }

    /// A selection too long for an environment variable keeps the selected
    /// tests of its whole-task steps only; a short one is carried whole.
    #[test]
    fn a_context_too_long_for_the_environment_drops_the_run_check() {
        use crate::domain::testing::unit;
        use crate::domain::{TestKind, WholeTask};
        let mut alone = GradleCommand::of_kind(TestKind::Unit, &["gradle"], 1, 1);
        alone.tests = (0..2000)
            .map(|i| unit(&format!("org.example.pkg.Test{i}")))
            .collect();
        let mut whole = alone.clone();
        whole.key = "flakiness-detection:unit-task".into();
        whole.whole_task = Some(WholeTask::default());
        whole.tests.truncate(2);
        let context = ReportContext::of(&[alone, whole], &BTreeMap::new(), &[], false);
        let (fitted, dropped) = context.for_env();
        assert!(dropped);
        assert!(fitted.jobs[0].selected.is_empty());
        assert_eq!(fitted.jobs[1].selected.len(), 2);
        assert!(serde_json::to_string(&fitted).unwrap().len() <= ENV_CONTEXT_LIMIT);
        let mut short = context.clone();
        short.jobs[0].selected.truncate(3);
        assert_eq!(short.for_env(), (short.clone(), false));
    }

    #[test]
    fn rest_batches_run_through_the_native_repeat_loop() {
        let spec = JobSpec {
            kind: "javaRestTest".into(),
            argv: vec!["gradle".into(), ":a:javaRestTest".into()],
            repeat: Some(3),
            dir: None,
            task_paths: vec![],
            heap_dump_paths: vec![],
            repeat_helpers: false,
            base: None,
        };
        assert_eq!(
            spec.argv_to_run("/bin/gf", None).unwrap(),
            [
                "/bin/gf",
                "--isolate",
                "repeat",
                "--times",
                "3",
                "--",
                "gradle",
                ":a:javaRestTest"
            ]
        );
    }
}
