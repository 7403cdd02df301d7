//! Batching by kind and building each batch's Gradle argv.

use super::gradle_version::GradleVersion;
use super::group_in_order;
use super::strategy::{self, Strategy, TaskFacts};
use super::switch;
use crate::domain::{
    BatchingConfig, ClassifiedTest, GradleCommand, InJvm, Repeating, RepetitionMode, TestKind,
    WholeTask,
};
use crate::durations::{Durations, Table};
use crate::invocation::{
    Body, Forcing, FreshJvms, Invocation, Members, Repeat, Select, TaskRun, Tasks,
};
use crate::test_filter::{self, RunnerTraits};
use std::collections::BTreeMap;

/// What commands need to know about the build they run in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlanContext {
    /// The Gradle program and its leading arguments, e.g. `["./gradlew"]`.
    pub gradle: Vec<String>,
    /// The build's Gradle version; `None` when unknown.
    pub gradle_version: Option<GradleVersion>,
    /// Extra arguments the user passed after `--`, appended to every command.
    pub extra_args: Vec<String>,
    /// What the layout says about each Test task's runner, by task path
    /// (empty without a layout).
    pub tasks: BTreeMap<String, TaskFacts>,
    /// The classes whose in-JVM iterations cost more than fresh runs, as
    /// earlier runs on this commit remembered them (`PlanContext::remember`),
    /// each with the sentence that says so: `--repetition auto` starts them
    /// on Gradle runs.
    pub start_on_gradle_runs: BTreeMap<String, String>,
    /// The classes that accumulated state in one JVM by themselves, as
    /// earlier runs on this commit remembered them, each with the sentence
    /// that says so: `--repetition auto` runs each of their executions first
    /// in a fresh test JVM, in one Gradle invocation.
    pub fresh_jvm_each: BTreeMap<String, String>,
    /// The commit checked out when the run was planned (`for_run`); `None`
    /// outside git. What the run remembers is remembered for it.
    pub commit: Option<String>,
}

impl PlanContext {
    /// The context of `build`: its Gradle program and the version its layout
    /// reported. Without a layout the plan still works: the clean-task form of
    /// forcing runs on every version, and the plan says so.
    pub fn for_build(build: &crate::layout::Build, extra_args: &[String]) -> PlanContext {
        PlanContext {
            gradle: build.gradle.clone(),
            gradle_version: build.gradle_version().and_then(GradleVersion::parse),
            extra_args: extra_args.to_vec(),
            tasks: build
                .layout
                .as_ref()
                .map(strategy::task_facts)
                .unwrap_or_default(),
            start_on_gradle_runs: BTreeMap::new(),
            fresh_jvm_each: BTreeMap::new(),
            commit: None,
        }
    }

    /// Takes in what earlier runs remembered of classes' in-JVM cost and
    /// state (the durations' `dearerInJvm` and `stateAccumulates`), as far as
    /// it holds on `commit` (`plan::switch::holds`).
    pub(crate) fn remember(&mut self, table: &Table, commit: Option<&str>) {
        let holds = |on: &Option<String>| switch::holds(on.as_deref(), commit);
        let drift = table
            .state_accumulates
            .iter()
            .filter(|(_, a)| holds(&a.commit));
        self.fresh_jvm_each = drift
            .map(|(c, a)| (c.clone(), switch::remembered_drift(c, a)))
            .collect();
        // A class that leaked state by itself takes a fresh JVM per execution,
        // where its cost in one JVM no longer applies.
        let dearer = table
            .dearer_in_jvm
            .iter()
            .filter(|(c, d)| holds(&d.commit) && !self.fresh_jvm_each.contains_key(c.as_str()));
        let dearer = dearer.map(|(c, d)| (c.clone(), switch::remembered(c, d)));
        self.start_on_gradle_runs = dearer.collect();
    }

    /// How `kind`'s tests of `task` are repeated, as `mode` asks.
    pub fn choice(&self, kind: &TestKind, task: &str, mode: RepetitionMode) -> Strategy {
        strategy::choose(kind, self.tasks.get(task), mode)
    }

    /// How one test is repeated, as `mode` asks.
    pub fn test_choice(&self, t: &ClassifiedTest, mode: RepetitionMode) -> Strategy {
        let choice = strategy::for_test(self.choice(&t.kind, &t.task, mode), t, mode);
        match self.remembered(t, mode, &choice) {
            Some(Remembered::Dearer(reason)) => strategy::on_gradle_runs(choice, reason),
            Some(Remembered::Drift(reason)) => strategy::on_fresh_jvm_each(choice, reason),
            None => choice,
        }
    }

    /// Why `auto` does not repeat `t` in a sample of fresh JVMs: its class
    /// cost more there, or leaked state by itself, when last run on this
    /// commit.
    pub(crate) fn remembered_of(&self, t: &ClassifiedTest, mode: RepetitionMode) -> Option<String> {
        let choice = strategy::for_test(self.choice(&t.kind, &t.task, mode), t, mode);
        match self.remembered(t, mode, &choice)? {
            Remembered::Dearer(reason) | Remembered::Drift(reason) => Some(reason),
        }
    }

    fn remembered(
        &self,
        t: &ClassifiedTest,
        mode: RepetitionMode,
        choice: &Strategy,
    ) -> Option<Remembered> {
        if mode != RepetitionMode::Auto || choice.repetition != Repeating::InJvm {
            return None;
        }
        let class = t.class.as_deref()?;
        if let Some(reason) = self.fresh_jvm_each.get(class) {
            return Some(Remembered::Drift(reason.clone()));
        }
        self.start_on_gradle_runs
            .get(class)
            .map(|r| Remembered::Dearer(r.clone()))
    }

    /// The context of a run of `tests` in `build` with `settings`, and the
    /// durations it plans with (`--durations`, else the recorded ones), what
    /// earlier runs on the commit checked out remembered of in-JVM costs
    /// taken in.
    pub(crate) fn for_run(
        build: &crate::layout::Build,
        extra_args: &[String],
        settings: &crate::settings::RunSettings,
        tests: &[ClassifiedTest],
    ) -> crate::Result<(PlanContext, Durations)> {
        let mut ctx = PlanContext::for_build(build, extra_args);
        if settings.may_run_whole_tasks() {
            ctx.read_task_classes(build, tests);
        }
        let given = settings.batching.durations.as_deref();
        let durations = crate::durations::store::load(given, &build.root)?;
        let commit = crate::git::head_commit(&build.root);
        ctx.remember(&durations.table, commit.as_deref());
        ctx.commit = commit;
        Ok((ctx, durations))
    }

    /// Reads the classes compiled for the Test tasks of `tests` from the
    /// layout's classes dirs, which a sample of a whole-task run draws from
    /// (`--context task`): only then, as it reads files.
    pub fn read_task_classes(&mut self, build: &crate::layout::Build, tests: &[ClassifiedTest]) {
        let Some(layout) = &build.layout else {
            return;
        };
        for task in layout.projects.iter().flat_map(|p| &p.test_tasks) {
            if tests.iter().any(|t| t.task == task.path) {
                if let Some(f) = self.tasks.get_mut(&task.path) {
                    f.classes = task.class_candidates();
                }
            }
        }
    }

    /// How this build's up-to-date Test tasks are forced to run: `--rerun`
    /// from Gradle 7.6, else (an older or unknown version) `clean<Task>`.
    pub fn forcing(&self) -> Forcing {
        match self.gradle_version {
            Some(v) if v.has_rerun() => Forcing::Rerun,
            _ => Forcing::CleanTask,
        }
    }

    /// `tasks` as a batch runs them: forced, every task run whatever an
    /// earlier one did (`--continue`), the user's arguments last.
    pub fn tasks(&self, tasks: Vec<TaskRun>) -> Tasks {
        Tasks {
            keep_going: true,
            extra_args: self.extra_args.clone(),
            ..Tasks::of(tasks, Some(self.forcing()))
        }
    }

    /// `body` run by this build's Gradle, repeated as `repeat` says.
    pub fn invocation(&self, body: Tasks, repeat: Repeat) -> Invocation {
        Invocation {
            gradle: self.gradle.clone(),
            body: Body::Tasks(body),
            repeat,
            seed: None,
        }
    }
}

/// What earlier runs on this commit remembered of a class, and the sentence
/// that says so.
enum Remembered {
    /// Its in-JVM iterations cost more than fresh runs: Gradle runs.
    Dearer(String),
    /// It leaked state by itself: a fresh JVM per execution.
    Drift(String),
}

/// One command per batch of already reduced tests (see `reduce`): kinds in
/// Elasticsearch's order (custom kinds after, by name), each kind cut into batches of
/// its cap; tests repeated in the JVM and tests repeated by Gradle runs never
/// share a batch.
pub fn commands(
    tests: &[ClassifiedTest],
    cfg: &BatchingConfig,
    ctx: &PlanContext,
) -> Vec<GradleCommand> {
    let mut by_kind: BTreeMap<&TestKind, Vec<&ClassifiedTest>> = BTreeMap::new();
    for t in tests {
        by_kind.entry(&t.kind).or_default().push(t);
    }
    let mut out = Vec::new();
    for (kind, tests) in by_kind {
        // A muted test runs with the build's mutes off: apart, so that no
        // other test's muted methods run with it.
        let by_repetition = group_in_order(tests, |t| {
            let c = ctx.test_choice(t, cfg.repetition);
            let way = Way {
                repetition: c.repetition,
                mechanism: c.in_jvm,
                fresh_jvms: c.fresh_jvms,
            };
            (way, t.muted().is_some())
        });
        for ((way, _), tests) in by_repetition {
            for batch in batches(kind, &tests, cfg.cap(kind).max(1)) {
                out.push(command(kind, way, &batch, cfg, ctx));
            }
        }
    }
    out
}

/// One batch of whole-task runs per Test task of the already reduced
/// `tests` (`--context task`), in the order of first appearance: the task as
/// CI runs it, every test class, no `--tests` filter, the build's own
/// forks, forced to run each time; one Gradle run per execution, as many as
/// a Gradle-run batch of the task's kind gets. The selected tests of one
/// task share its runs.
pub fn task_commands(
    tests: &[ClassifiedTest],
    runs: impl Fn(&TestKind) -> u32,
    ctx: &PlanContext,
) -> Vec<GradleCommand> {
    group_in_order(tests, |t| t.task.clone())
        .into_iter()
        .map(|(task, tests)| task_command(&task, &tests, runs(&tests[0].kind), ctx))
        .collect()
}

/// Gradle runs of a batch of `kind` repeated by Gradle runs.
pub(crate) fn gradle_runs(kind: &TestKind, cfg: &BatchingConfig) -> u32 {
    match kind.is_rest() {
        true => cfg.loops(kind),
        false => cfg.iterations(kind),
    }
}

/// `runs` whole-task runs of `task` for its selected `tests`.
pub(crate) fn task_command(
    task: &str,
    tests: &[&ClassifiedTest],
    runs: u32,
    ctx: &PlanContext,
) -> GradleCommand {
    let kind = tests[0].kind.clone();
    let body = ctx.tasks(vec![TaskRun::filtered(task, Vec::new())]);
    GradleCommand {
        label: format!("{} in their whole task", kind.label()),
        key: format!("{}-task", kind.key()),
        repetition_reason: "the whole test task as CI runs it (every class, the build's own \
                            test JVMs), one Gradle run per execution"
            .into(),
        tests: tests.iter().map(|t| (*t).clone()).collect(),
        whole_task: Some(WholeTask::default()),
        ..GradleCommand::of(kind, ctx.invocation(body, Repeat::GradleRuns(runs)))
    }
}

/// `planned` running only `tests` (some of its own), the same way: what is
/// left of a batch once stop on proof took some of its tests out. A fallback
/// (Gradle runs of an in-JVM batch) stays one.
pub fn narrowed(
    planned: &GradleCommand,
    tests: &[ClassifiedTest],
    cfg: &BatchingConfig,
    ctx: &PlanContext,
) -> GradleCommand {
    if planned.whole_task.is_some() {
        // Its context is the whole task: a filter would make it another one.
        return planned.clone();
    }
    let refs: Vec<&ClassifiedTest> = tests.iter().collect();
    let kind = &planned.kind;
    let chosen = tests.first().map(|t| ctx.test_choice(t, cfg.repetition));
    let mut out = match chosen {
        Some(s) if s.repetition != planned.repetition() => {
            let mechanism = s.in_jvm.unwrap_or(InJvm::TestsIters);
            fallback(kind, &refs, planned.rest_loops(), mechanism, ctx)
        }
        _ => command(kind, Way::of(planned), &refs, cfg, ctx),
    };
    out.heap_dump_paths = planned.heap_dump_paths.clone();
    out
}

/// Consecutive slices of `cap`. YAML suites are sliced per task, because the
/// plain `-Dtests.rest.suite` property applies to every task of the command.
fn batches<'a>(
    kind: &TestKind,
    tests: &[&'a ClassifiedTest],
    cap: usize,
) -> Vec<Vec<&'a ClassifiedTest>> {
    let groups = if *kind == TestKind::YamlRestTestSuite {
        by_task(tests).into_iter().map(|(_, g)| g).collect()
    } else {
        vec![tests.to_vec()]
    };
    groups
        .iter()
        .flat_map(|g| g.chunks(cap).map(<[_]>::to_vec))
        .collect()
}

/// The batch grouped by task path, in order of first appearance: Gradle task
/// options (`--tests`, `--rerun`) bind to the task named just before them.
fn by_task<'a>(tests: &[&'a ClassifiedTest]) -> Vec<(&'a str, Vec<&'a ClassifiedTest>)> {
    group_in_order(tests.iter().copied(), |t| t.task.as_str())
}

/// How a batch repeats its tests.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Way {
    repetition: Repeating,
    mechanism: Option<InJvm>,
    fresh_jvms: FreshJvms,
}

impl Way {
    /// How `planned` repeats its tests.
    fn of(planned: &GradleCommand) -> Way {
        Way {
            repetition: planned.repetition(),
            mechanism: planned.in_jvm(),
            fresh_jvms: match planned.invocation.repeat {
                Repeat::InJvm { fresh_jvms, .. } => fresh_jvms,
                Repeat::GradleRuns(_) => FreshJvms::Sampled,
            },
        }
    }
}

fn command(
    kind: &TestKind,
    way: Way,
    batch: &[&ClassifiedTest],
    cfg: &BatchingConfig,
    ctx: &PlanContext,
) -> GradleCommand {
    let iterations = cfg.iterations(kind);
    let mechanism = way.mechanism;
    let mut reasons: Vec<(String, &str)> = Vec::new();
    let mut tasks = Vec::new();
    for (task, tests) in by_task(batch) {
        let choice = ctx.test_choice(tests[0], cfg.repetition);
        if !reasons.iter().any(|(r, _)| *r == choice.reason) {
            reasons.push((choice.reason.clone(), task));
        }
        tasks.push(match mechanism {
            Some(InJvm::Junit4Runner) => runner_task(task, &tests, choice.runner),
            Some(_) if by_class(&tests) => runner_task(task, &tests, choice.runner),
            _ => task_run(task, &tests, choice.runner),
        });
    }
    let mut body = ctx.tasks(tasks);
    body.mutes_off = runs_muted(batch);
    if mechanism == Some(InJvm::TestsIters) {
        body.suite_timeout = Some(cfg.suite_timeout);
    }
    if *kind == TestKind::YamlRestTestSuite {
        // A suite without a path (the whole task) must not narrow it to nothing.
        body.rest_suites = batch.iter().filter_map(|t| t.yaml_suite.clone()).collect();
    }
    let reason = match reasons.as_slice() {
        [(only, _)] => only.clone(),
        many => many
            .iter()
            .map(|(r, task)| format!("{r} ({task})"))
            .collect::<Vec<_>>()
            .join("; "),
    };
    let repeat = match (way.repetition, mechanism) {
        (Repeating::InJvm, Some(mechanism)) => Repeat::InJvm {
            mechanism,
            iterations,
            fresh_jvms: way.fresh_jvms,
        },
        _ if kind.is_rest() => Repeat::GradleRuns(cfg.loops(kind)),
        _ => Repeat::GradleRuns(iterations),
    };
    let in_jvm = matches!(repeat, Repeat::InJvm { .. });
    let fallback = (in_jvm && iterations > 1).then(|| {
        Box::new(fallback(
            kind,
            batch,
            iterations - 1,
            mechanism.unwrap_or(InJvm::TestsIters),
            ctx,
        ))
    });
    let not_honoured = (cfg.repetition == RepetitionMode::InJvm && !in_jvm)
        .then(|| format!("--repetition in-jvm is not honoured: {reason}"));
    GradleCommand {
        repetition_reason: reason,
        not_honoured,
        tests: batch.iter().map(|t| (*t).clone()).collect(),
        in_jvm_cost: batch
            .iter()
            .filter_map(|t| Some((t.class.clone()?, ctx.remembered_of(t, cfg.repetition)?)))
            .collect(),
        fallback,
        ..GradleCommand::of(kind.clone(), ctx.invocation(body, repeat))
    }
}

/// Whether gradle-flaky's helpers can select `tests` as classes: each names
/// a class (not a whole task, a YAML suite, a suite member run through its
/// suite), which its generated slices then run over fresh test JVMs.
fn by_class(tests: &[&ClassifiedTest]) -> bool {
    tests.iter().all(|t| {
        t.via_suite.is_none()
            && !t.is_suite
            && runner_class(t).is_some()
            && filters(t, RunnerTraits::default()).is_some()
    })
}

/// A task run by gradle-flaky's helpers: they select, Gradle runs only their
/// slices (from 4.7 a `--tests` filter would drop them before they run).
fn runner_task(task: &str, tests: &[&ClassifiedTest], runner: RunnerTraits) -> TaskRun {
    let mut classes: Vec<String> = Vec::new();
    let mut filters: Vec<String> = Vec::new();
    for t in tests {
        let (Some(class), Some(fs)) = (runner_class(t), self::filters(t, runner)) else {
            continue;
        };
        if !classes.contains(&class) {
            classes.push(class);
        }
        filters.extend(fs);
    }
    TaskRun {
        path: task.to_string(),
        select: Select::Runner { classes, filters },
        members: Members::default(),
    }
}

/// The class gradle-flaky's JUnit 4 runner loads for `t`: its binary name,
/// `$*` added when its nested classes run too.
fn runner_class(t: &ClassifiedTest) -> Option<String> {
    let class = t.class.as_deref()?;
    Some(match t.nested_classes && t.method.is_none() {
        true => format!("{class}$*"),
        false => class.to_string(),
    })
}

/// One task with the filters of its tests (none when one of them runs the
/// whole task) and the suite members it runs on their own.
fn task_run(task: &str, tests: &[&ClassifiedTest], runner: RunnerTraits) -> TaskRun {
    let filters: Option<Vec<Vec<String>>> = tests.iter().map(|t| filters(t, runner)).collect();
    TaskRun {
        members: super::suite_route::members(tests),
        ..TaskRun::filtered(task, filters.unwrap_or_default().concat())
    }
}

/// An in-JVM batch as Gradle runs: what runs when the first run shows that
/// its mechanism did not repeat, `runs` times (the runs still owed).
fn fallback(
    kind: &TestKind,
    batch: &[&ClassifiedTest],
    runs: u32,
    mechanism: InJvm,
    ctx: &PlanContext,
) -> GradleCommand {
    let runner = RunnerTraits {
        testng: mechanism == InJvm::TestngInvocationCount,
        parameterized_cases: true,
    };
    let tasks = by_task(batch)
        .into_iter()
        .map(|(task, tests)| task_run(task, &tests, runner))
        .collect();
    let body = Tasks {
        mutes_off: runs_muted(batch),
        ..ctx.tasks(tasks)
    };
    let invocation = ctx.invocation(body, Repeat::GradleRuns(runs));
    GradleCommand {
        repetition_reason: match mechanism {
            InJvm::TestsIters => "the first run executed a class's tests once each: \
                                  -Dtests.iters was ignored"
                .into(),
            m => format!(
                "the first run executed a class's tests once each: the in-JVM repetition \
                 ({}) did not take effect (see the batch log)",
                m.as_str()
            ),
        },
        tests: batch.iter().map(|t| (*t).clone()).collect(),
        ..GradleCommand::of(kind.clone(), invocation)
    }
}

/// Whether a batch runs a test the current muted-tests file mutes in its
/// task: then Elasticsearch's mutes are off for it (the batch holds only
/// such tests), else the build would run none of them.
fn runs_muted(batch: &[&ClassifiedTest]) -> bool {
    batch.iter().any(|t| t.muted().is_some())
}

/// The `--tests` filters of a test (`test_filter::filters`), or the YAML case
/// `Runner.test {yaml=...}` (one argv element: no quotes needed, none added);
/// `None` for a test that runs its whole task.
fn filters(t: &ClassifiedTest, runner: RunnerTraits) -> Option<Vec<String>> {
    if matches!(
        t.kind,
        TestKind::YamlRestTestRunner | TestKind::YamlRestTestSuite
    ) {
        return None;
    }
    let class = t.class.as_deref()?;
    Some(test_filter::filters(
        class,
        t.method.as_deref(),
        t.nested_classes,
        runner,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gradle_versions_parse_and_know_rerun() {
        let v = |s| GradleVersion::parse(s);
        let shown = |s| v(s).map(|v| v.to_string());
        assert_eq!(shown("4.4.1").as_deref(), Some("4.4.1"));
        assert_eq!(shown("8.10").as_deref(), Some("8.10"));
        assert_eq!(shown("9").as_deref(), Some("9.0"));
        assert_eq!(shown("7.6-rc-1").as_deref(), Some("7.6"));
        assert_eq!(v("unknown"), None);
        assert_eq!(v(""), None);
        assert!(!v("4.4.1").unwrap().has_rerun());
        assert!(!v("7.5.1").unwrap().has_rerun());
        assert!(v("7.6").unwrap().has_rerun());
        assert!(v("7.6.1").unwrap().has_rerun());
        assert!(v("8.0").unwrap().has_rerun());
        assert!(v("10.1").unwrap().has_rerun());
    }
}
