//! What a CI's jobs are told: each batch job's [`JobSpec`], the jobs the
//! report expects ([`ExpectedStep`]), what the report step knows of the plan
//! ([`ReportContext`]), and the grace a job's wrapper keeps before its CI
//! stops it. Each CI carries them its own way (Buildkite in step `env`,
//! GitHub in the plan file); the JSON is the same.

use crate::domain::{BatchingConfig, ClassifiedTest, GradleCommand};
use crate::plan::group_in_order;
use crate::plan::policy::Policy;
use crate::plan::replan::Replanning;
use crate::plan::PlanContext;
use indexmap::IndexSet;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// A batch is stopped this many minutes before its CI job's own timeout, so
/// the wrapper outlives its command and records how it ended.
pub(crate) const GRACE_MINUTES: u32 = crate::settings::GRACE_MIN as u32;

/// The timeout of what runs inside a job of `job_min` minutes: the job's
/// minus the grace, at least a minute.
pub(crate) fn inner_timeout(job_min: u32) -> u32 {
    job_min.saturating_sub(GRACE_MINUTES).max(1)
}

/// A planned batch as a CI job is told it: the command and the policy the
/// repetition engine runs it by, the values `local` runs (`plan::for_run`'s,
/// planned for the job's limit), and what the job needs to plan it again for
/// some of its tests (`replan`: stop on proof, the fallback, the switch).
/// Its Gradle command line is rendered in the job, at spawn, by
/// `Invocation::argv`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct CiBatch {
    pub command: GradleCommand,
    pub policy: Policy,
    /// `None` in a batch planned before jobs ran the engine: its tests stay
    /// in its command when proven (what they run is not counted).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replan: Option<Replanning>,
}

impl CiBatch {
    /// The batches of a plan made with `cfg` in `ctx`: each command with its
    /// policy and its planning context.
    pub(crate) fn of_plan(
        plan: crate::plan::Plan,
        cfg: &BatchingConfig,
        ctx: &PlanContext,
    ) -> Vec<CiBatch> {
        debug_assert_eq!(plan.commands.len(), plan.policies.len(), "a run's plan");
        plan.commands
            .into_iter()
            .zip(plan.policies)
            .map(|(command, policy)| CiBatch {
                replan: Some(Replanning::of(&command, cfg, ctx)),
                command,
                policy,
            })
            .collect()
    }

    /// `command` run whole, as planned (for tests).
    #[cfg(test)]
    pub(crate) fn plain(command: GradleCommand) -> CiBatch {
        let policy = Policy::plain(command.tests.len(), None);
        CiBatch {
            command,
            policy,
            replan: None,
        }
    }
}

/// What one job runs: its typed batch (JSON: `command` and `policy`), where
/// the build is in the checkout, and, for a REF job, REF's commit. Read
/// back, a batch an earlier version planned as Gradle argv text is refused
/// with a sentence that says so, before anything runs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "SpecJson")]
pub(crate) struct JobSpec {
    #[serde(flatten)]
    pub batch: CiBatch,
    /// The Gradle build's directory, relative to the checkout.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dir: Option<PathBuf>,
    /// A REF job of `--compare REF`: the batch runs in a worktree of REF's commit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base: Option<BaseCheckout>,
}

/// A [`JobSpec`] as read, of this version or an earlier one (`argv`).
#[derive(Deserialize)]
struct SpecJson {
    command: Option<GradleCommand>,
    policy: Option<Policy>,
    #[serde(default)]
    replan: Option<Replanning>,
    argv: Option<serde::de::IgnoredAny>,
    #[serde(default)]
    dir: Option<PathBuf>,
    #[serde(default)]
    base: Option<BaseCheckout>,
}

impl TryFrom<SpecJson> for JobSpec {
    type Error = String;

    fn try_from(json: SpecJson) -> std::result::Result<JobSpec, String> {
        let (command, policy) = match (json.command, json.policy) {
            (Some(command), Some(policy)) => (command, policy),
            _ if json.argv.is_some() => return Err(PLANNED_ELSEWHERE.to_string()),
            (None, _) => return Err("the batch has no `command`".into()),
            (Some(_), None) => return Err("the batch has no `policy`".into()),
        };
        if command.invocation.gradle.is_empty() {
            return Err("the batch names no Gradle program".into());
        }
        Ok(JobSpec {
            batch: CiBatch {
                command,
                policy,
                replan: json.replan,
            },
            dir: json.dir,
            base: json.base,
        })
    }
}

/// Why a batch of an earlier version's plan does not run.
pub(crate) const PLANNED_ELSEWHERE: &str =
    "the pipeline was planned by another version of gradle-flaky: this batch is Gradle \
     argv text, not the typed batch (`command`, `policy`) this version runs; plan it again \
     (`buildkite upload`, `pr` or `manual`) with this version";

impl JobSpec {
    pub(crate) fn of(batch: &CiBatch, dir: Option<PathBuf>) -> JobSpec {
        JobSpec {
            batch: batch.clone(),
            dir,
            base: None,
        }
    }

    /// The batch's command.
    pub(crate) fn command(&self) -> &GradleCommand {
        &self.batch.command
    }

    /// The batch's kind, as its status file records it.
    pub(crate) fn kind(&self) -> &str {
        self.command().kind.as_str()
    }
}

fn is_false(b: &bool) -> bool {
    !*b
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
    /// The executions the plan gives each of `selected`, in its order (its
    /// batches' and shards' together): the report says what ran fewer times
    /// than planned, as `local`'s does. Empty in an earlier version's plan.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub runs: Vec<u64>,
    /// What repeats the step's tests: an in-JVM mechanism, or `gradle-runs`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub repeated_by: Vec<String>,
}

/// The batch jobs the commands fan out to, one entry per step key (kind), in
/// plan order: what the report step expects a status file from.
pub(crate) fn expected_steps<'a>(
    commands: impl IntoIterator<Item = &'a GradleCommand>,
) -> Vec<ExpectedStep> {
    group_in_order(commands, |c| c.key.clone())
        .into_iter()
        .map(|(key, batches)| {
            let selected = selected(&batches);
            ExpectedStep {
                step_key: key,
                kind: batches[0].kind.as_str().to_string(),
                label: batches[0].label.clone(),
                jobs: batches.len() as u32,
                iterations: batches
                    .iter()
                    .map(|c| c.executions() * c.tests.len() as u64)
                    .sum(),
                whole_task: batches[0].whole_task.is_some(),
                runs: runs_of(&selected, &batches),
                repeated_by: repeated_by(&batches),
                selected,
            }
        })
        .collect()
}

/// The executions the plan gives each of `tests` in `batches`.
fn runs_of(tests: &[ClassifiedTest], batches: &[&GradleCommand]) -> Vec<u64> {
    let runs = |t: &ClassifiedTest| -> u64 {
        let with = batches.iter().filter(|c| c.tests.contains(t));
        with.map(|c| c.executions()).sum()
    };
    tests.iter().map(runs).collect()
}

/// What repeats the tests of `batches`, each way once, in order.
fn repeated_by(batches: &[&GradleCommand]) -> Vec<String> {
    let way = |c: &&GradleCommand| c.in_jvm().map_or("gradle-runs", |m| m.as_str());
    let ways: IndexSet<&str> = batches.iter().map(way).collect();
    ways.into_iter().map(String::from).collect()
}

/// The tests of a step's batches, each once (shards of a batch share them).
fn selected(batches: &[&GradleCommand]) -> Vec<ClassifiedTest> {
    let tests: IndexSet<&ClassifiedTest> = batches.iter().flat_map(|c| &c.tests).collect();
    tests.into_iter().cloned().collect()
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
    pub(crate) fn of<'a>(
        commands: impl IntoIterator<Item = &'a GradleCommand>,
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
        // Each test's own executions, and what repeats them, for the report.
        assert_eq!(steps[0].runs, [10, 10, 5]);
        assert_eq!(steps[0].repeated_by.last().unwrap(), "gradle-runs");
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

    use crate::invocation::{Body, Forcing, InJvm, Invocation, Repeat, TaskRun, Tasks};
    use std::time::Duration;

    /// A planned batch: `filters` of `:server:test`, repeated as `repeat`.
    fn planned(kind: crate::domain::TestKind, filters: &[&str], repeat: Repeat) -> GradleCommand {
        let filters = filters.iter().map(|f| f.to_string()).collect();
        let mut tasks = Tasks::of(
            vec![TaskRun::filtered(":server:test", filters)],
            Some(Forcing::CleanTask),
        );
        tasks.suite_timeout = Some(Duration::from_secs(3600));
        tasks.keep_going = true;
        let invocation = Invocation {
            gradle: vec!["./gradlew".into()],
            body: Body::Tasks(tasks),
            repeat,
            seed: None,
        };
        GradleCommand::of(kind, invocation)
    }

    fn in_jvm(mechanism: InJvm, iterations: u32) -> Repeat {
        Repeat::InJvm {
            mechanism,
            iterations,
            fresh_jvms: Default::default(),
        }
    }

    fn spec(command: GradleCommand) -> JobSpec {
        JobSpec::of(&CiBatch::plain(command), None)
    }

    /// What a job is told is the typed batch, in stable camelCase names:
    /// the command (tests, kind, typed invocation) and its policy. The
    /// Test tasks, heap dump paths and repeat helpers are derived from it.
    #[test]
    fn a_job_is_told_the_typed_batch() {
        use crate::domain::testing::unit;
        use crate::domain::TestKind;
        let mut command = planned(
            TestKind::Unit,
            &["a.BTests"],
            in_jvm(InJvm::Junit4Runner, 4),
        );
        command.tests = vec![unit("a.BTests")];
        command.heap_dump_paths = vec!["dumps".into()];
        let policy = Policy {
            stop_on_proof: vec![true],
            need_pass: true,
            budget: Some(Duration::from_secs(600)),
            per_iteration: Some(Duration::from_millis(1500)),
            timeout: Some(Duration::from_secs(4200)),
            on_dearer: crate::plan::switch::OnDearer::Switch,
            ..Policy::default()
        };
        let spec = JobSpec {
            batch: CiBatch {
                command,
                policy,
                replan: None,
            },
            dir: Some("build-root".into()),
            base: None,
        };
        let json = serde_json::to_value(&spec).unwrap();
        assert_eq!(
            json["command"]["invocation"],
            serde_json::json!({
                "gradle": ["./gradlew"],
                "planned": {
                    "tasks": [{ "path": ":server:test", "select": { "filters": ["a.BTests"] } }],
                    "forcing": "cleanTask",
                    "suiteTimeoutMs": 3600000,
                    "keepGoing": true
                },
                "repeat": { "inJvm": { "mechanism": "junit4-runner", "iterations": 4 } }
            })
        );
        assert_eq!(
            json["policy"],
            serde_json::json!({
                "stopOnProof": [true],
                "needPass": true,
                "budgetMs": 600000,
                "perIterationMs": 1500,
                "timeoutMs": 4200000,
                "onDearer": "switch"
            })
        );
        assert_eq!(json["command"]["kind"], "unit");
        assert_eq!(json["command"]["tests"][0]["class"], "a.BTests");
        assert_eq!(json["dir"], "build-root");
        let back: JobSpec = serde_json::from_value(json).unwrap();
        assert_eq!(back, spec);
        let command = back.command();
        assert_eq!(command.task_paths(), [":server:test"]);
        assert_eq!(command.heap_dump_paths, [PathBuf::from("dumps")]);
        assert!(command.invocation.needs_repeat_helpers());
        assert_eq!(back.kind(), "unit");
    }

    /// Everything the engine reads of a batch comes back from its JSON: a
    /// shard's seed, a whole task's sample, the Gradle-run fallback, why
    /// `auto` starts a class on Gradle runs, given arguments.
    #[test]
    fn a_typed_batch_round_trips_whole() {
        use crate::domain::{ClassSample, Shard, TestKind, WholeTask};
        let mut command = planned(
            TestKind::Unit,
            &["a.B", "a.C"],
            in_jvm(InJvm::TestsIters, 50),
        );
        command.invocation.seed = Some("00000000000000AB".into());
        command.shard = Some(Shard {
            index: 2,
            of: 3,
            seed: Some("00000000000000AB".into()),
        });
        command.predicted_sec = Some(95);
        command.not_honoured = Some("not honoured".into());
        command.in_jvm_cost = [("a.C".to_string(), "dearer".to_string())].into();
        let mut fallback = command.clone();
        fallback.invocation = command.invocation.as_gradle_runs(50);
        command.fallback = Some(Box::new(fallback));
        let mut whole = planned(TestKind::Unit, &["a.B"], Repeat::GradleRuns(5));
        whole.whole_task = Some(WholeTask {
            sample: Some(ClassSample {
                task: ":server:test".into(),
                seed: 7,
                classes: vec!["a.B".into()],
                of: 40,
            }),
            classes: Vec::new(),
            unmute_check: true,
        });
        let mut given = GradleCommand::of(
            TestKind::Unit,
            Invocation::given(&["sh".into(), "-c".into(), "exit 0".into()], 2),
        );
        given.label = "given".into();
        for command in [command, whole, given] {
            let spec = spec(command);
            let back: JobSpec =
                serde_json::from_str(&serde_json::to_string(&spec).unwrap()).unwrap();
            assert_eq!(back, spec);
            assert_eq!(back.command().argv(), spec.command().argv());
        }
    }

    /// A batch planned by an earlier version (Gradle argv text) does not
    /// run: the job says the pipeline was planned by another version.
    #[test]
    fn a_batch_planned_as_argv_text_is_refused_saying_why() {
        let old = r#"{"kind":"unit","argv":["./gradlew",":a:test"],"repeat":3,
            "taskPaths":[":a:test"],"repeatHelpers":true,"dir":"sub"}"#;
        let e = serde_json::from_str::<JobSpec>(old)
            .unwrap_err()
            .to_string();
        assert!(e.starts_with(PLANNED_ELSEWHERE), "{e}");
        let e = serde_json::from_str::<JobSpec>(r#"{"dir":"sub"}"#).unwrap_err();
        assert!(e.to_string().contains("no `command`"), "{e}");
        let mut nothing = spec(planned(
            crate::domain::TestKind::Unit,
            &[],
            Repeat::GradleRuns(1),
        ));
        nothing.batch.command.invocation.gradle.clear();
        let e =
            serde_json::from_value::<JobSpec>(serde_json::to_value(&nothing).unwrap()).unwrap_err();
        assert!(e.to_string().contains("no Gradle program"), "{e}");
    }
}
