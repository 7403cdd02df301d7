//! One Gradle invocation as a typed value, and the one place it becomes argv.
//!
//! Everything that runs Gradle more than once, or tells a person how to, works
//! on an [`Invocation`]: a planned batch, each chunk and shard of it, the Gradle
//! runs that follow an in-JVM run that did not repeat, a triage replay, a
//! reproduce line. What an invocation does (its tasks and filters, how an
//! up-to-date task is forced, how its tests are repeated, the seed it pins) is
//! data; [`Invocation::argv`] renders it, and nothing reads argv back. The
//! properties the runners and gradle-flaky's init scripts read are spelled
//! here only (besides the layout's probe of `-Dtests.iters`).

use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::hash::{BuildHasher, Hasher};
use std::time::Duration;

/// The randomized runner's iterations of each test in the test JVM.
const TESTS_ITERS: &str = "tests.iters";
/// The randomized runner's master seed (`MASTER` or `MASTER:METHOD`).
const TESTS_SEED: &str = "tests.seed";
/// The randomized runner's limit of one suite (class), in milliseconds; `!`
/// makes it win over the build's own.
const TESTS_TIMEOUT_SUITE: &str = "tests.timeoutSuite";
/// The randomized runner's exact method selector (a YAML case's descriptor).
const TESTS_METHOD: &str = "tests.method";
/// The YAML suites a REST test task runs.
const TESTS_REST_SUITE: &str = "tests.rest.suite";
/// Elasticsearch's switch of the mutes its build applies from
/// `muted-tests.yml` (`false`: muted tests run too).
const TESTS_MUTES_ENABLED: &str = "tests.mutes.enabled";
/// gradle-flaky's own in-JVM count (TestNG, JUnit 4, JUnit Platform), read
/// by `gradle/flaky-repeat.gradle` and the helpers of `java/repeat/`.
const REPEAT_ITERS: &str = "flaky.repeat.iters";
/// The mechanism of one task (the task path follows).
const REPEAT_TASK: &str = "flaky.repeat.task.";
/// The classes gradle-flaky's JUnit 4 runner runs for one task.
const REPEAT_CLASSES: &str = "flaky.repeat.classes.";
/// How many fresh test JVMs the JUnit 4 runner spreads each class's
/// iterations over (one invocation; see [`InJvm::fresh_jvms`]).
const REPEAT_JVMS: &str = "flaky.repeat.jvms";
/// The most test JVMs it starts in one invocation ([`MAX_SLICES`]).
const REPEAT_MAX_SLICES: &str = "flaky.repeat.maxSlices";

/// The most test JVMs the fenced mechanisms' samples start in one invocation,
/// one per (class, slice of its iterations): a JVM start costs about a second
/// of CPU. Past it, classes share JVMs (each still in its `fresh_jvms`); the
/// JUnit 4 runner packs them below it (`Invocation::max_slices`).
pub(crate) const MAX_SLICES: u32 = 32;
/// Where `gradle/flaky-repeat.gradle` finds the helpers' Java sources.
pub(crate) const REPEAT_SOURCES: &str = "flaky.repeat.sources";
/// The suite members `gradle/flaky-suite-members.gradle` adds to a task's
/// includes for one invocation (the task path follows).
const INCLUDE: &str = "flaky.include.";
/// The suites it leaves out of that task for the invocation.
const EXCLUDE: &str = "flaky.exclude.";

/// Which mechanism repeats a command's tests inside one test JVM. The
/// kebab-case names are a contract (plan JSON `inJvm`, report JSON
/// `repeatedBy`, README).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum InJvm {
    /// `-Dtests.iters=N`, read by the randomizedtesting runner.
    TestsIters,
    /// gradle-flaky's TestNG annotation transformer multiplies `invocationCount`.
    TestngInvocationCount,
    /// gradle-flaky's JUnit 4 runner runs the selected classes N times in turn.
    Junit4Runner,
    /// gradle-flaky's JUnit Platform engine runs the selection N times.
    PlatformEngine,
}

impl InJvm {
    /// Every mechanism (README lists them all).
    pub const ALL: [InJvm; 4] = [
        InJvm::TestsIters,
        InJvm::TestngInvocationCount,
        InJvm::Junit4Runner,
        InJvm::PlatformEngine,
    ];

    /// The stable kebab-case name.
    pub fn as_str(self) -> &'static str {
        match self {
            InJvm::TestsIters => "tests-iters",
            InJvm::TestngInvocationCount => "testng-invocation-count",
            InJvm::Junit4Runner => "junit4-runner",
            InJvm::PlatformEngine => "platform-engine",
        }
    }

    /// Repeats of a test carry no seed or iteration token: each same-named
    /// test case of a report is one execution.
    pub fn plain_names(self) -> bool {
        self != InJvm::TestsIters
    }

    /// The fresh test JVMs one class's `iterations` are spread over, so that
    /// its first execution in a fresh JVM (the CI condition) is sampled more
    /// than once: ⌈√iterations⌉, raised to up to 9 while each JVM keeps 3
    /// iterations (7 for 20, 9 for 50, 10 for 100). Nine first executions
    /// catch a test failing 30% of its first executions 96 times in 100.
    /// Every mechanism spreads them, through gradle-flaky's generated slices
    /// (`gradle/flaky-repeat.gradle`, `java/repeat/`).
    pub(crate) fn fresh_jvms(self, iterations: u32) -> u32 {
        if iterations <= 1 {
            return 1;
        }
        let mut root = 1;
        while root * root < iterations {
            root += 1;
        }
        root.max(iterations.div_ceil(3).min(9))
    }

    /// The name of its helper in `gradle/flaky-repeat.gradle`
    /// (`-Dflaky.repeat.task.<task>=…`).
    fn helper(self) -> &'static str {
        match self {
            InJvm::TestsIters => "randomized",
            InJvm::TestngInvocationCount => "testng",
            InJvm::Junit4Runner => "junit4",
            InJvm::PlatformEngine => "platform",
        }
    }
}

/// How many fresh test JVMs an in-JVM invocation spreads each class's
/// iterations over.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
#[serde(rename_all = "camelCase")]
pub enum FreshJvms {
    /// A sample of them ([`InJvm::fresh_jvms`]): the first execution in a
    /// fresh JVM sampled several times, the repeats after it in each.
    #[default]
    Sampled,
    /// One per execution: a class remembered as leaking state by itself
    /// (each execution a first one, as on Gradle runs, for a JVM start each
    /// instead of a Gradle start each).
    PerExecution,
}

impl FreshJvms {
    fn is_sampled(&self) -> bool {
        *self == FreshJvms::Sampled
    }
}

/// `-Dname=value`: a system property of the Gradle client.
pub(crate) fn define(name: &str, value: &str) -> String {
    format!("-D{name}={value}")
}

/// How an up-to-date Test task is made to run again.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Forcing {
    /// `--rerun` after the task (Gradle 7.6 and later).
    Rerun,
    /// `clean<Task>` before the task: the base plugin's rule, on every version.
    #[default]
    CleanTask,
}

/// `:server:test` → `:server:cleanTest` (the base plugin's `clean<TaskName>` rule).
pub(crate) fn clean_task(task: &str) -> String {
    let (prefix, name) = match task.rsplit_once(':') {
        Some((prefix, name)) => (format!("{prefix}:"), name),
        None => (String::new(), task),
    };
    let mut chars = name.chars();
    let capitalized: String = chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default();
    format!("{prefix}clean{capitalized}")
}

/// How an invocation repeats its tests.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Repeat {
    /// `iterations` executions of each test in test JVMs, by `mechanism`,
    /// spread over fresh JVMs as `fresh_jvms` says.
    InJvm {
        mechanism: InJvm,
        iterations: u32,
        #[serde(default, skip_serializing_if = "FreshJvms::is_sampled")]
        fresh_jvms: FreshJvms,
    },
    /// The invocation is run this many times, each test once per Gradle run.
    GradleRuns(u32),
}

impl Repeat {
    /// Executions of each test the invocation's runs give (as planned).
    pub fn executions(&self) -> u64 {
        match self {
            Repeat::InJvm { iterations, .. } => u64::from(*iterations),
            Repeat::GradleRuns(n) => u64::from(*n),
        }
    }

    /// The in-JVM mechanism, if the tests repeat in the test JVM.
    pub fn mechanism(&self) -> Option<InJvm> {
        match self {
            Repeat::InJvm { mechanism, .. } => Some(*mechanism),
            Repeat::GradleRuns(_) => None,
        }
    }

    /// The fresh test JVMs each class's iterations are spread over (1 for
    /// Gradle runs: one per run).
    pub fn jvms(&self) -> u32 {
        match self {
            Repeat::InJvm {
                mechanism,
                iterations,
                fresh_jvms: FreshJvms::Sampled,
            } => mechanism.fresh_jvms(*iterations),
            Repeat::InJvm {
                fresh_jvms: FreshJvms::PerExecution,
                iterations,
                ..
            } => (*iterations).max(1),
            Repeat::GradleRuns(_) => 1,
        }
    }

    /// Gradle runs of the invocation: 1 for an in-JVM one.
    pub fn runs(&self) -> u32 {
        match self {
            Repeat::InJvm { .. } => 1,
            Repeat::GradleRuns(n) => *n,
        }
    }
}

/// How a task's tests are chosen.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Select {
    /// Gradle's `--tests` filters; none: the whole task.
    #[default]
    All,
    Filters(Vec<String>),
    /// gradle-flaky's helpers load `classes` and run the tests `filters`
    /// match (given as `--tests`, which the helpers' init script moves into
    /// the test JVMs: from 4.7 Gradle would drop the helpers' classes before
    /// they run).
    Runner {
        classes: Vec<String>,
        filters: Vec<String>,
    },
}

/// Suite members a task runs on their own for one invocation, by
/// gradle-flaky's init script: the classes added to its includes and the
/// suites left out, so that nothing runs twice.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Members {
    pub include: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub exclude: Vec<String>,
}

impl Members {
    pub fn is_empty(&self) -> bool {
        self.include.is_empty()
    }
}

impl Select {
    /// The whole task, no filter.
    fn is_all(&self) -> bool {
        *self == Select::All
    }
}

/// One Test task of an invocation.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TaskRun {
    /// Its Gradle path (`:server:test`).
    pub path: String,
    #[serde(default, skip_serializing_if = "Select::is_all")]
    pub select: Select,
    /// Suite members run on their own for this invocation.
    #[serde(default, skip_serializing_if = "Members::is_empty")]
    pub members: Members,
}

impl TaskRun {
    /// `path`, filtered by `filters` (none: the whole task).
    pub fn filtered(path: &str, filters: Vec<String>) -> TaskRun {
        TaskRun {
            path: path.to_string(),
            select: match filters.is_empty() {
                true => Select::All,
                false => Select::Filters(filters),
            },
            members: Members::default(),
        }
    }
}

/// What an invocation runs (in JSON, its `planned` tasks or its `given`
/// arguments, beside the invocation's other fields).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Body {
    /// Test tasks gradle-flaky planned.
    #[serde(rename = "planned")]
    Tasks(Tasks),
    /// Arguments given whole (`gradle-flaky repeat -- GRADLE ARGS…`): run as
    /// they are; gradle-flaky cannot change how they repeat.
    Given(Vec<String>),
}

/// The planned part of an invocation.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Tasks {
    pub tasks: Vec<TaskRun>,
    /// How an up-to-date task is forced to run; `None`: not forced (a line a
    /// person runs once).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forcing: Option<Forcing>,
    /// The randomized runner's suite limit (`-Dtests.timeoutSuite`).
    #[serde(
        default,
        rename = "suiteTimeoutMs",
        with = "crate::time::millis",
        skip_serializing_if = "Option::is_none"
    )]
    pub suite_timeout: Option<Duration>,
    /// The YAML suites of a REST task (`-Dtests.rest.suite`); paths as the
    /// runner reads them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rest_suites: Vec<String>,
    /// The randomized runner's exact method (a YAML case's descriptor).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub method: Option<String>,
    /// Every task runs even when an earlier one failed (`--continue`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub keep_going: bool,
    /// The tests Elasticsearch's `muted-tests.yml` mutes run too
    /// (`-Dtests.mutes.enabled=false`): the invocation runs a muted test,
    /// of which the build would otherwise run nothing.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub mutes_off: bool,
    /// The user's own arguments (after `--`), last.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub extra_args: Vec<String>,
}

impl Tasks {
    /// `tasks`, forced as `forcing` says, with nothing else set.
    pub fn of(tasks: Vec<TaskRun>, forcing: Option<Forcing>) -> Tasks {
        Tasks {
            tasks,
            forcing,
            ..Tasks::default()
        }
    }
}

/// One Gradle invocation (repeated as `repeat` says). Its JSON (the typed
/// batch a CI job is told) is the value: argv is rendered where it runs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Invocation {
    /// The Gradle program and its leading arguments (`./gradlew`).
    pub gradle: Vec<String>,
    #[serde(flatten)]
    pub body: Body,
    pub repeat: Repeat,
    /// The randomized runner's master seed (`MASTER` or `MASTER:METHOD`),
    /// pinned for this invocation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<String>,
}

impl Invocation {
    /// `argv` (program first) run as it is, `runs` times.
    pub fn given(argv: &[String], runs: u32) -> Invocation {
        let (gradle, args) = match argv.split_first() {
            Some((program, args)) => (vec![program.clone()], args.to_vec()),
            None => (Vec::new(), Vec::new()),
        };
        Invocation {
            gradle,
            body: Body::Given(args),
            repeat: Repeat::GradleRuns(runs),
            seed: None,
        }
    }

    /// The planned tasks, if gradle-flaky planned them.
    pub fn tasks(&self) -> Option<&Tasks> {
        match &self.body {
            Body::Tasks(t) => Some(t),
            Body::Given(_) => None,
        }
    }

    /// The Test task paths it runs, in order (not the `clean<Task>` tasks).
    pub fn task_paths(&self) -> Vec<String> {
        self.tasks()
            .map(|t| t.tasks.iter().map(|t| t.path.clone()).collect())
            .unwrap_or_default()
    }

    /// Whether a chunk or shard can set its own iteration count: an in-JVM
    /// count gradle-flaky renders (not one inside given arguments).
    pub fn resizable(&self) -> bool {
        self.tasks().is_some() && matches!(self.repeat, Repeat::InJvm { .. })
    }

    /// Whether each chunk or shard takes a master seed of its own: the
    /// randomized runner repeats it (the other mechanisms take none).
    pub fn seeded(&self) -> bool {
        self.resizable() && self.repeat.mechanism() == Some(InJvm::TestsIters)
    }

    /// Whether gradle-flaky's repeat init script must be applied: the tests
    /// repeat in the JVM, by one of its helpers, or by `-Dtests.iters`, which
    /// the script fences (a test JVM per class).
    pub fn needs_repeat_helpers(&self) -> bool {
        self.tasks().is_some() && self.repeat.mechanism().is_some()
    }

    /// The same invocation, `iterations` in the JVM and, when given, `seed`
    /// pinned (a chunk or a shard). A Gradle-run invocation keeps its count.
    pub fn with_iterations(&self, iterations: u32, seed: Option<String>) -> Invocation {
        let mut out = self.clone();
        if let Repeat::InJvm {
            mechanism,
            fresh_jvms,
            ..
        } = self.repeat
        {
            out.repeat = Repeat::InJvm {
                mechanism,
                iterations,
                fresh_jvms,
            };
        }
        if seed.is_some() {
            out.seed = seed;
        }
        out
    }

    /// The same invocation, run `runs` times (Gradle runs).
    pub fn with_runs(&self, runs: u32) -> Invocation {
        Invocation {
            repeat: match self.repeat {
                Repeat::GradleRuns(_) => Repeat::GradleRuns(runs),
                ref r => r.clone(),
            },
            ..self.clone()
        }
    }

    /// The same invocation as `runs` Gradle runs, each test once per run (an
    /// in-JVM invocation's fallback), its seed still pinned.
    pub fn as_gradle_runs(&self, runs: u32) -> Invocation {
        Invocation {
            repeat: Repeat::GradleRuns(runs),
            ..self.clone()
        }
    }

    /// Program first, then its arguments: what one Gradle run of it is.
    pub fn argv(&self) -> Vec<String> {
        let mut argv = self.gradle.clone();
        match &self.body {
            Body::Given(args) => argv.extend(args.iter().cloned()),
            Body::Tasks(t) => self.render(t, &mut argv),
        }
        argv
    }

    fn render(&self, t: &Tasks, argv: &mut Vec<String>) {
        let mechanism = match self.repeat {
            Repeat::InJvm {
                mechanism,
                iterations,
                ..
            } => {
                let property = match mechanism {
                    InJvm::TestsIters => TESTS_ITERS,
                    _ => REPEAT_ITERS,
                };
                argv.push(define(property, &iterations.to_string()));
                let jvms = self.jvms();
                if jvms > 1 {
                    argv.push(define(REPEAT_JVMS, &jvms.to_string()));
                    argv.push(define(REPEAT_MAX_SLICES, &self.max_slices().to_string()));
                }
                Some(mechanism)
            }
            Repeat::GradleRuns(_) => None,
        };
        if let Some(limit) = t.suite_timeout {
            let millis = format!("{}!", limit.as_millis());
            argv.push(define(TESTS_TIMEOUT_SUITE, &millis));
        }
        if t.mutes_off {
            argv.push(define(TESTS_MUTES_ENABLED, "false"));
        }
        for task in &t.tasks {
            render_task(task, t.forcing, mechanism, argv);
        }
        if !t.rest_suites.is_empty() {
            let paths: Vec<String> = t
                .rest_suites
                .iter()
                .map(|p| p.replace(',', "\\,"))
                .collect();
            argv.push(define(TESTS_REST_SUITE, &paths.join(",")));
        }
        if let Some(method) = &t.method {
            argv.push(define(TESTS_METHOD, method));
        }
        if let Some(seed) = &self.seed {
            argv.push(define(TESTS_SEED, seed));
        }
        if t.keep_going {
            argv.push("--continue".into());
        }
        argv.extend(t.extra_args.iter().cloned());
    }
}

impl Invocation {
    /// The fresh test JVMs each class's iterations are spread over: the
    /// repetition's when gradle-flaky's helpers select the tests (as classes,
    /// [`Select::Runner`]), else 1 (Gradle runs, the randomized runner's own
    /// `-Dtests.iters` with `--tests`, fenced a JVM per class).
    pub fn jvms(&self) -> u32 {
        let sliced = self.tasks().is_some_and(|t| {
            t.tasks
                .iter()
                .any(|t| matches!(t.select, Select::Runner { .. }))
        });
        match sliced {
            true => self.repeat.jvms(),
            false => 1,
        }
    }

    /// The most test JVMs one task's slices may take. A JVM start costs
    /// about a second of CPU, so the batch's classes share the JVMs one class
    /// takes, where that keeps what the JVMs sample: gradle-flaky's JUnit 4
    /// runner runs a JVM's classes one after the other, each starting some
    /// JVM (a class's drift stays its own), and a JVM per execution runs one
    /// execution of each class, as a Gradle run of them does. The other
    /// mechanisms' samples keep a JVM per (class, slice) up to [`MAX_SLICES`]
    /// (the fence: no class's state reaches another's JVM).
    fn max_slices(&self) -> u32 {
        match self.repeat {
            Repeat::InJvm {
                mechanism: InJvm::Junit4Runner,
                ..
            }
            | Repeat::InJvm {
                fresh_jvms: FreshJvms::PerExecution,
                ..
            } => self.repeat.jvms().min(9999),
            _ => MAX_SLICES,
        }
    }
}

/// `[clean<Task>] TASK [--tests F]… [--rerun]`, then the task's properties:
/// Gradle task options bind to the task named just before them. The tests
/// gradle-flaky's helpers select are `--tests` filters too: the helpers' init
/// script moves them into the test JVMs (from Gradle 4.7 they would drop the
/// helpers' generated classes), and without it the command runs the selected
/// tests once, as the build runs them (Elasticsearch's own `-Dtests.iters`).
fn render_task(
    task: &TaskRun,
    forcing: Option<Forcing>,
    mechanism: Option<InJvm>,
    argv: &mut Vec<String>,
) {
    let path = &task.path;
    // No task path, no task to clean (never the whole build's `clean`).
    if forcing == Some(Forcing::CleanTask) && !path.is_empty() {
        argv.push(clean_task(path));
    }
    argv.push(path.clone());
    let filters = match &task.select {
        Select::Filters(filters) | Select::Runner { filters, .. } => &filters[..],
        Select::All => &[],
    };
    for f in filters {
        argv.extend(["--tests".to_string(), f.clone()]);
    }
    if forcing == Some(Forcing::Rerun) {
        argv.push("--rerun".into());
    }
    if !task.members.is_empty() {
        argv.push(define(
            &format!("{INCLUDE}{path}"),
            &task.members.include.join(","),
        ));
        if !task.members.exclude.is_empty() {
            let exclude = task.members.exclude.join(",");
            argv.push(define(&format!("{EXCLUDE}{path}"), &exclude));
        }
    }
    // `-Dtests.iters` alone is the randomized runner's own repetition (the
    // script fences it); given classes, its helper spreads it over slices.
    let helper = match (mechanism, &task.select) {
        (Some(InJvm::TestsIters), Select::Runner { .. }) => "randomized",
        (Some(InJvm::TestsIters), _) | (None, _) => return,
        (Some(m), _) => m.helper(),
    };
    argv.push(define(&format!("{REPEAT_TASK}{path}"), helper));
    if let Select::Runner { classes, .. } = &task.select {
        argv.push(define(
            &format!("{REPEAT_CLASSES}{path}"),
            &classes.join(","),
        ));
    }
}

/// Fresh master seeds, none repeated: 16 hex digits, as the randomized
/// runner writes them. Two chunks (or shards) with the same master seed would
/// repeat the same iterations.
#[derive(Default)]
pub(crate) struct Seeds {
    used: BTreeSet<u64>,
}

impl Seeds {
    pub(crate) fn fresh(&mut self) -> String {
        loop {
            let mut h = std::collections::hash_map::RandomState::new().build_hasher();
            h.write_u128(
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(0, |d| d.as_nanos()),
            );
            h.write_usize(self.used.len());
            let seed = h.finish();
            if self.used.insert(seed) {
                return format!("{seed:016X}");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &[&str]) -> Vec<String> {
        s.iter().map(|s| s.to_string()).collect()
    }

    fn tasks(tasks: Vec<TaskRun>, forcing: Option<Forcing>) -> Tasks {
        Tasks {
            keep_going: true,
            ..Tasks::of(tasks, forcing)
        }
    }

    fn invocation(body: Tasks, repeat: Repeat) -> Invocation {
        Invocation {
            gradle: v(&["gradle"]),
            body: Body::Tasks(body),
            repeat,
            seed: None,
        }
    }

    #[test]
    fn a_randomized_batch_renders_its_iterations_limit_and_filters() {
        let mut body = tasks(
            vec![TaskRun::filtered(":server:test", v(&["a.BTests"]))],
            Some(Forcing::CleanTask),
        );
        body.suite_timeout = Some(Duration::from_secs(3600));
        body.extra_args = v(&["--offline"]);
        let run = invocation(
            body,
            Repeat::InJvm {
                mechanism: InJvm::TestsIters,
                iterations: 20,
                fresh_jvms: Default::default(),
            },
        );
        assert_eq!(
            run.argv(),
            v(&[
                "gradle",
                "-Dtests.iters=20",
                "-Dtests.timeoutSuite=3600000!",
                ":server:cleanTest",
                ":server:test",
                "--tests",
                "a.BTests",
                "--continue",
                "--offline"
            ])
        );
        assert!(run.resizable() && run.seeded() && run.needs_repeat_helpers());
        let chunk = run.with_iterations(7, Some("00000000000000AB".into()));
        let argv = chunk.argv();
        assert!(argv.contains(&"-Dtests.iters=7".to_string()), "{argv:?}");
        assert_eq!(
            argv.iter()
                .filter(|a| a.starts_with("-Dtests.seed="))
                .count(),
            1
        );
        assert_eq!(chunk.with_iterations(3, None).seed, chunk.seed, "kept");
    }

    /// TestNG, JUnit 4 and the JUnit Platform repeat by gradle-flaky's own
    /// count, each task naming its helper and the classes it loads; the
    /// tests it selects are `--tests` filters, which its script moves into
    /// the test JVMs.
    #[test]
    fn the_helpers_get_their_count_and_each_task_its_mechanism() {
        let runner = TaskRun {
            path: ":p:test".into(),
            select: Select::Runner {
                classes: v(&["a.B", "a.C$*"]),
                filters: v(&["a.B.m", "a.B.n[1: x, 50%]", "a.C", "a.C$*"]),
            },
            members: Members::default(),
        };
        let run = invocation(
            tasks(vec![runner], Some(Forcing::Rerun)),
            Repeat::InJvm {
                mechanism: InJvm::Junit4Runner,
                iterations: 5,
                fresh_jvms: Default::default(),
            },
        );
        assert_eq!(
            run.argv(),
            v(&[
                "gradle",
                "-Dflaky.repeat.iters=5",
                "-Dflaky.repeat.jvms=3",
                // The classes share the three JVMs, one after the other.
                "-Dflaky.repeat.maxSlices=3",
                ":p:test",
                "--tests",
                "a.B.m",
                "--tests",
                "a.B.n[1: x, 50%]",
                "--tests",
                "a.C",
                "--tests",
                "a.C$*",
                "--rerun",
                "-Dflaky.repeat.task.:p:test=junit4",
                "-Dflaky.repeat.classes.:p:test=a.B,a.C$*",
                "--continue"
            ])
        );
        assert!(run.resizable() && !run.seeded() && run.needs_repeat_helpers());
        let testng = invocation(
            tasks(
                vec![TaskRun::filtered(":c:test", v(&["a.T.m"]))],
                Some(Forcing::CleanTask),
            ),
            Repeat::InJvm {
                mechanism: InJvm::TestngInvocationCount,
                iterations: 3,
                fresh_jvms: Default::default(),
            },
        );
        assert!(testng
            .argv()
            .ends_with(&v(&["-Dflaky.repeat.task.:c:test=testng", "--continue"])));
        assert!(!testng.argv().iter().any(|a| a.contains("repeat.jvms")));
    }

    /// Every mechanism spreads a class's iterations over fresh JVMs: at
    /// least ⌈√n⌉, up to 9 while each keeps 3 iterations; a JVM per
    /// execution when asked; one JVM when the helpers do not select the
    /// tests as classes (`-Dtests.iters` with `--tests`, fenced).
    #[test]
    fn first_executions_are_sampled_in_several_fresh_jvms() {
        let jvms = |n| InJvm::Junit4Runner.fresh_jvms(n);
        let got: Vec<u32> = [1, 2, 3, 5, 10, 20, 27, 50, 100, 1000]
            .into_iter()
            .map(jvms)
            .collect();
        assert_eq!(got, [1, 2, 2, 3, 4, 7, 9, 9, 10, 32]);
        for m in InJvm::ALL {
            assert_eq!(m.fresh_jvms(20), 7, "{m:?}");
        }
        let runner = |mechanism, fresh_jvms| {
            let task = TaskRun {
                path: ":p:test".into(),
                select: Select::Runner {
                    classes: v(&["a.B", "a.C"]),
                    filters: v(&["a.B", "a.C"]),
                },
                members: Members::default(),
            };
            let repeat = Repeat::InJvm {
                mechanism,
                iterations: 20,
                fresh_jvms,
            };
            invocation(tasks(vec![task], None), repeat)
        };
        let sampled = runner(InJvm::TestsIters, FreshJvms::Sampled).argv();
        assert!(
            sampled.contains(&"-Dflaky.repeat.jvms=7".to_string()),
            "{sampled:?}"
        );
        assert!(sampled.contains(&"-Dflaky.repeat.task.:p:test=randomized".to_string()));
        // Past the JVMs one class takes, the fenced mechanisms' samples.
        assert!(
            sampled.contains(&"-Dflaky.repeat.maxSlices=32".to_string()),
            "{sampled:?}"
        );
        // A JVM per execution: each JVM one execution of every class, as a
        // Gradle run of them.
        let each = runner(InJvm::TestngInvocationCount, FreshJvms::PerExecution).argv();
        assert!(
            each.contains(&"-Dflaky.repeat.jvms=20".to_string()),
            "{each:?}"
        );
        assert!(
            each.contains(&"-Dflaky.repeat.maxSlices=20".to_string()),
            "{each:?}"
        );
        let fenced = invocation(
            tasks(vec![TaskRun::filtered(":p:test", v(&["a.B"]))], None),
            Repeat::InJvm {
                mechanism: InJvm::TestsIters,
                iterations: 20,
                fresh_jvms: FreshJvms::Sampled,
            },
        );
        assert_eq!(fenced.jvms(), 1);
        assert!(!fenced.argv().iter().any(|a| a.contains("flaky.repeat")));
    }

    #[test]
    fn a_replay_pins_its_seed_after_the_task_and_members_keep_their_task() {
        let mut task = TaskRun::filtered(":core:test", v(&["a.M.t"]));
        task.members = Members {
            include: v(&["a.M"]),
            exclude: v(&["a.AllTests"]),
        };
        let mut body = Tasks::of(vec![task], Some(Forcing::CleanTask));
        body.method = Some("test {yaml=a/b}".into());
        let run = Invocation {
            seed: Some("A:B".into()),
            ..invocation(body, Repeat::GradleRuns(1))
        };
        assert_eq!(
            run.argv(),
            v(&[
                "gradle",
                ":core:cleanTest",
                ":core:test",
                "--tests",
                "a.M.t",
                "-Dflaky.include.:core:test=a.M",
                "-Dflaky.exclude.:core:test=a.AllTests",
                "-Dtests.method=test {yaml=a/b}",
                "-Dtests.seed=A:B"
            ])
        );
        assert!(!run.resizable());
    }

    /// A batch that runs a muted test turns Elasticsearch's mutes off, as a
    /// property of the Gradle client, before the tasks.
    #[test]
    fn a_batch_of_a_muted_test_runs_with_the_mutes_off() {
        let mut body = Tasks::of(
            vec![TaskRun::filtered(":server:test", v(&["a.BTests.testX"]))],
            Some(Forcing::Rerun),
        );
        body.mutes_off = true;
        let run = invocation(body, Repeat::GradleRuns(3));
        assert_eq!(
            run.argv(),
            v(&[
                "gradle",
                "-Dtests.mutes.enabled=false",
                ":server:test",
                "--tests",
                "a.BTests.testX",
                "--rerun"
            ])
        );
        let chunk = run.with_runs(1).argv();
        assert!(chunk.contains(&"-Dtests.mutes.enabled=false".to_string()));
    }

    #[test]
    fn given_arguments_run_as_they_are() {
        let argv = v(&["gradle", "-Dtests.iters=9", ":a:test"]);
        let run = Invocation::given(&argv, 4);
        assert_eq!(run.argv(), argv);
        assert_eq!(run.repeat, Repeat::GradleRuns(4));
        assert!(!run.resizable() && run.task_paths().is_empty());
        assert_eq!(run.with_iterations(2, None).argv(), argv);
    }

    #[test]
    fn clean_tasks_follow_the_base_plugin_rule() {
        assert_eq!(clean_task(":server:test"), ":server:cleanTest");
        assert_eq!(
            clean_task(":x-pack:plugin:ml:internalClusterTest"),
            ":x-pack:plugin:ml:cleanInternalClusterTest"
        );
        assert_eq!(clean_task(":test"), ":cleanTest");
        assert_eq!(clean_task("test"), "cleanTest");
    }

    #[test]
    fn seeds_never_repeat() {
        let mut seeds = Seeds::default();
        let all: BTreeSet<String> = (0..1000).map(|_| seeds.fresh()).collect();
        assert_eq!(all.len(), 1000);
        assert!(all.iter().all(|s| s.len() == 16));
    }
}
