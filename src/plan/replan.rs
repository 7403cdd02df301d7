//! What planning a batch again for some of its tests needs (`narrowed`: stop
//! on proof takes tests out, a fallback or the switch runs a class as Gradle
//! runs), as a value that travels with the batch to a CI job: the plan's own
//! settings and what the plan knew of the build, for that batch's tasks and
//! classes only, so that a job plans its narrowed commands as `local` would,
//! without the layout.

use super::strategy::TaskFacts;
use super::{GradleVersion, PlanContext};
use crate::domain::{BatchingConfig, GradleCommand, RepetitionMode};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::time::Duration;

/// A batch's planning context, as a CI job is told it (JSON, camelCase).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Replanning {
    /// `--repetition` of the plan.
    pub repetition: RepetitionMode,
    /// The iterations of the batch's kind (`-Dtests.iters` and the like).
    pub iterations: u32,
    /// The Gradle runs of a REST batch of its kind.
    pub rest_loops: u32,
    /// `-Dtests.timeoutSuite`.
    pub suite_timeout_ms: u64,
    /// The Gradle program and its leading arguments.
    pub gradle: Vec<String>,
    /// The build's Gradle version, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gradle_version: Option<String>,
    /// The user's arguments appended to every command.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub extra_args: Vec<String>,
    /// What the layout says of the runner of each of the batch's Test tasks.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub tasks: BTreeMap<String, TaskFacts>,
    /// The batch's classes `auto` starts on Gradle runs, with why.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub start_on_gradle_runs: BTreeMap<String, String>,
    /// The batch's classes `auto` runs in a fresh JVM per execution (they
    /// leaked state by themselves), with why.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub fresh_jvm_each: BTreeMap<String, String>,
    /// The commit the plan was made on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commit: Option<String>,
}

impl Replanning {
    /// What `command` (planned with `cfg` in `ctx`) needs to be planned again.
    pub fn of(command: &GradleCommand, cfg: &BatchingConfig, ctx: &PlanContext) -> Replanning {
        let tasks: Vec<&str> = command.tests.iter().map(|t| t.task.as_str()).collect();
        let classes: Vec<&str> = command
            .tests
            .iter()
            .filter_map(|t| t.class.as_deref())
            .collect();
        Replanning {
            repetition: cfg.repetition,
            iterations: cfg.iterations(&command.kind),
            rest_loops: cfg.loops(&command.kind),
            suite_timeout_ms: cfg.suite_timeout.as_millis() as u64,
            gradle: ctx.gradle.clone(),
            gradle_version: ctx.gradle_version.map(|v| v.to_string()),
            extra_args: ctx.extra_args.clone(),
            tasks: ctx
                .tasks
                .iter()
                .filter(|(path, _)| tasks.contains(&path.as_str()))
                // A sample's classes are the plan's: never planned again.
                .map(|(path, facts)| (path.clone(), facts.without_classes()))
                .collect(),
            start_on_gradle_runs: of_classes(&ctx.start_on_gradle_runs, &classes),
            fresh_jvm_each: of_classes(&ctx.fresh_jvm_each, &classes),
            commit: ctx.commit.clone(),
        }
    }

    /// The batching knobs the batch was planned with (its kind's counts).
    pub fn batching(&self) -> BatchingConfig {
        BatchingConfig {
            unit_iters: self.iterations,
            integ_iters: self.iterations,
            rest_loops: self.rest_loops,
            suite_timeout: Duration::from_millis(self.suite_timeout_ms),
            repetition: self.repetition,
            ..BatchingConfig::default()
        }
    }

    /// The context the batch was planned in.
    pub fn context(&self) -> PlanContext {
        PlanContext {
            gradle: self.gradle.clone(),
            gradle_version: self
                .gradle_version
                .as_deref()
                .and_then(GradleVersion::parse),
            extra_args: self.extra_args.clone(),
            tasks: self.tasks.clone(),
            start_on_gradle_runs: self.start_on_gradle_runs.clone(),
            fresh_jvm_each: self.fresh_jvm_each.clone(),
            commit: self.commit.clone(),
        }
    }
}

/// The entries of `by_class` for `classes`.
fn of_classes(by_class: &BTreeMap<String, String>, classes: &[&str]) -> BTreeMap<String, String> {
    by_class
        .iter()
        .filter(|(class, _)| classes.contains(&class.as_str()))
        .map(|(c, why)| (c.clone(), why.clone()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::testing::unit;
    use crate::domain::ClassifiedTest;

    /// A job plans a batch narrowed to some of its tests as the plan would
    /// have: from the value it is told, round-tripped through JSON, the
    /// same command as from the plan's own settings and context.
    #[test]
    fn a_batch_is_narrowed_in_its_job_as_in_its_plan() {
        let mut facts = TaskFacts {
            framework: Some("junit".into()),
            randomized_testing: Some(true),
            forwards_tests_iters: Some(true),
            classes: vec!["a.X".into()],
        };
        let ctx = PlanContext {
            gradle: vec!["./gradlew".into()],
            gradle_version: GradleVersion::parse("8.10"),
            extra_args: vec!["--offline".into()],
            tasks: [
                (":server:test".to_string(), facts.clone()),
                (":other:test".to_string(), TaskFacts::default()),
            ]
            .into(),
            start_on_gradle_runs: [
                ("a.C".to_string(), "dearer".to_string()),
                ("a.Z".to_string(), "elsewhere".to_string()),
            ]
            .into(),
            fresh_jvm_each: [("a.Z".to_string(), "leaked".to_string())].into(),
            commit: Some("abc".into()),
        };
        let cfg = BatchingConfig {
            unit_iters: 30,
            ..BatchingConfig::default()
        };
        let tests: Vec<ClassifiedTest> = ["a.A", "a.B", "a.C"].iter().map(|c| unit(c)).collect();
        let planned = crate::plan::commands(&tests, &cfg, &ctx);
        // a.C starts on Gradle runs: a batch of its own.
        let (command, runs) = (&planned[0], &planned[1]);
        assert_eq!(runs.tests, tests[2..]);
        let told = Replanning::of(command, &cfg, &ctx);
        let json = serde_json::to_string(&told).unwrap();
        let back: Replanning = serde_json::from_str(&json).unwrap();
        assert_eq!(back, told);
        assert_eq!(back.tasks.len(), 1, "only the batch's tasks: {json}");
        assert!(!json.contains("a.X"), "no task classes: {json}");
        assert!(back.start_on_gradle_runs.is_empty(), "{json}");
        assert!(
            back.fresh_jvm_each.is_empty(),
            "a.Z is not the batch's: {json}"
        );
        let of_runs = Replanning::of(runs, &cfg, &ctx).start_on_gradle_runs;
        assert_eq!(of_runs.keys().collect::<Vec<_>>(), ["a.C"]);
        facts.classes.clear();
        assert_eq!(back.context().tasks[":server:test"], facts);
        let narrowed = |cfg: &BatchingConfig, ctx: &PlanContext| {
            crate::plan::narrowed(command, &tests[1..2], cfg, ctx)
        };
        assert_eq!(
            narrowed(&back.batching(), &back.context()),
            narrowed(&cfg, &ctx)
        );
    }
}
