//! The types every stage of the pipeline shares: test kinds, classified tests,
//! batching knobs and the runner-agnostic command.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

pub use crate::invocation::InJvm;
use crate::invocation::{Invocation, Repeat};

/// What kind of test a selected test is; decides how it is re-run.
///
/// Elasticsearch's six kinds plus `Other(source set)` for a custom test source set
/// the layout reports (re-run like unit tests, with `-Dtests.iters`).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TestKind {
    Unit,
    InternalClusterTest,
    JavaRestTest,
    YamlRestTestRunner,
    YamlRestTestSuite,
    YamlRestTestCase,
    Other(String),
}

impl TestKind {
    /// Elasticsearch's `KIND_ORDER`; custom kinds come last, by name.
    pub const ORDER: [TestKind; 6] = [
        TestKind::Unit,
        TestKind::InternalClusterTest,
        TestKind::JavaRestTest,
        TestKind::YamlRestTestRunner,
        TestKind::YamlRestTestSuite,
        TestKind::YamlRestTestCase,
    ];

    pub fn as_str(&self) -> &str {
        match self {
            TestKind::Unit => "unit",
            TestKind::InternalClusterTest => "internalClusterTest",
            TestKind::JavaRestTest => "javaRestTest",
            TestKind::YamlRestTestRunner => "yamlRestTestRunner",
            TestKind::YamlRestTestSuite => "yamlRestTestSuite",
            TestKind::YamlRestTestCase => "yamlRestTestCase",
            TestKind::Other(name) => name,
        }
    }

    /// Parses a kind name; `test` is accepted as an alias of `unit` (Elasticsearch's name).
    pub fn parse(s: &str) -> TestKind {
        match s {
            "unit" | "test" => TestKind::Unit,
            "internalClusterTest" => TestKind::InternalClusterTest,
            "javaRestTest" => TestKind::JavaRestTest,
            "yamlRestTestRunner" => TestKind::YamlRestTestRunner,
            "yamlRestTestSuite" => TestKind::YamlRestTestSuite,
            "yamlRestTestCase" => TestKind::YamlRestTestCase,
            other => TestKind::Other(other.to_string()),
        }
    }

    /// Human label (`KIND_LABELS`).
    pub fn label(&self) -> String {
        match self {
            TestKind::Unit => "unit tests".into(),
            TestKind::InternalClusterTest => "integ tests".into(),
            TestKind::JavaRestTest => "java rest tests".into(),
            TestKind::YamlRestTestRunner => "yaml rest test runner".into(),
            TestKind::YamlRestTestSuite => "yaml rest tests".into(),
            TestKind::YamlRestTestCase => "yaml rest test cases".into(),
            TestKind::Other(name) => format!("{name} tests"),
        }
    }

    /// Buildkite step key (`KIND_KEYS`).
    pub fn key(&self) -> String {
        let suffix = match self {
            TestKind::Unit => "unit".to_string(),
            TestKind::InternalClusterTest => "integ".into(),
            TestKind::JavaRestTest => "java-rest".into(),
            TestKind::YamlRestTestRunner => "yaml-runner".into(),
            TestKind::YamlRestTestSuite => "yaml-suite".into(),
            TestKind::YamlRestTestCase => "yaml-case".into(),
            TestKind::Other(name) => kebab(name),
        };
        format!("flakiness-detection:{suffix}")
    }

    /// REST kinds are re-run by looping Gradle; the others by `-Dtests.iters`.
    pub fn is_rest(&self) -> bool {
        matches!(
            self,
            TestKind::JavaRestTest
                | TestKind::YamlRestTestRunner
                | TestKind::YamlRestTestSuite
                | TestKind::YamlRestTestCase
        )
    }

    /// Position in the emission order.
    pub fn order(&self) -> usize {
        TestKind::ORDER
            .iter()
            .position(|k| k == self)
            .unwrap_or(TestKind::ORDER.len())
    }
}

fn kebab(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        if c.is_ascii_uppercase() {
            if !out.is_empty() {
                out.push('-');
            }
            out.push(c.to_ascii_lowercase());
        } else if c.is_ascii_alphanumeric() {
            out.push(c);
        } else {
            out.push('-');
        }
    }
    out
}

impl fmt::Display for TestKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for TestKind {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for TestKind {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        Ok(TestKind::parse(&s))
    }
}

/// Which selector brought a test in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Origin {
    Changed,
    Unmuted,
    Explicit,
}

/// One selected test, classified exactly through the build's layout.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ClassifiedTest {
    /// Gradle project path, e.g. `:x-pack:plugin:ml`.
    pub project: String,
    /// Source set name, e.g. `internalClusterTest`.
    pub source_set: String,
    /// Full Gradle path of the Test task, e.g. `:server:test`.
    pub task: String,
    pub kind: TestKind,
    /// Fully qualified class name (the runner class for a YAML case); absent for
    /// a YAML suite or a whole YAML runner of unknown class.
    pub class: Option<String>,
    /// A method name, or a YAML case descriptor such as `test {yaml=api/file/section}`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub method: Option<String>,
    /// A YAML suite path relative to `rest-api-spec/test`, without `.yml` (may be a directory).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub yaml_suite: Option<String>,
    pub origin: Origin,
    /// The class's file declares nested classes that its task runs as classes
    /// of their own (`Outer$Inner`): selecting the class selects them too.
    #[serde(default, skip_serializing_if = "is_false")]
    pub nested_classes: bool,
    /// The class is a suite (JUnit 4 `@SuiteClasses`, JUnit 3 `suite()`):
    /// its tests are reported under the names of the classes it runs.
    #[serde(default, skip_serializing_if = "is_false")]
    pub is_suite: bool,
    /// The task's patterns leave the class out, but a suite they include runs it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub via_suite: Option<ViaSuite>,
    /// What Elasticsearch's `muted-tests.yml` says of the test in its task:
    /// muted there now (it runs with the build's mutes off), or unmuted
    /// there by the change.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mute: Option<Mute>,
}

/// A selected test's mute in its task, with the entry's issue link (plan
/// JSON `mute`).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Mute {
    pub state: MuteState,
    /// The Test task it is muted, or was unmuted, in: the test's own.
    pub task: String,
    /// The entry's `issue:` (for an unmute, the removed entry's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub issue: Option<String>,
}

/// Whether a selected test is muted in its task, or was unmuted there.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MuteState {
    /// The current file mutes it there: Elasticsearch's build would run
    /// none of it unless its mutes are off (`-Dtests.mutes.enabled=false`).
    Muted,
    /// The merge base's file muted it there and the current one does not.
    Unmuted,
}

fn is_false(b: &bool) -> bool {
    !*b
}

impl ClassifiedTest {
    /// The mute of the current muted-tests file in its task, when there is
    /// one: Elasticsearch's build runs none of the test unless its mutes are
    /// off.
    pub fn muted(&self) -> Option<&Mute> {
        self.mute.as_ref().filter(|m| m.state == MuteState::Muted)
    }

    /// Whether running it runs `class`'s `method` (`test_filter::covers`).
    pub fn covers(&self, class: &str, method: &str) -> bool {
        self.class.as_deref().is_some_and(|c| {
            crate::test_filter::covers(
                c,
                self.method.as_deref(),
                self.nested_classes,
                class,
                method,
            )
        })
    }
}

/// How a class that its task's patterns leave out runs: inside suites the
/// patterns include.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ViaSuite {
    /// The suites the task includes that run the class, directly or through
    /// other suites (binary names, sorted).
    pub suites: Vec<String>,
    /// Every suite on the way from them to the class lists it in a JUnit 4
    /// `@SuiteClasses` (else some JUnit 3 `suite()` adds it).
    pub junit4: bool,
    /// When every way there is an instance a suite's `suite()` adds
    /// (`suite.addTest(new X("testFoo"))`), those suites (binary names,
    /// sorted): the tests are tests of that suite, which Gradle's `--tests`
    /// filter matches one by one, and the class may have no constructor
    /// JUnit could run it by alone.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub created_by: Vec<String>,
    /// How Gradle is made to run it, and why: chosen by the plan.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub route: Option<Route>,
}

/// How a suite member is run, with the stable code (docs/src/reference/reason-codes.md lists them).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Route {
    pub reason_code: RouteCode,
    pub reason: String,
}

/// The ways a suite member is run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RouteCode {
    /// Through the suite: this Gradle's `--tests` reaches the member inside it.
    RunsThroughSuite,
    /// The class is added to the task's includes for this invocation (and the
    /// suites that run it left out), by gradle-flaky's init script.
    IncludedForThisRun,
    /// The nested suite that adds the class as instances is added to the
    /// task's includes for this invocation instead (the suites above it left
    /// out): the class may have no constructor JUnit could run it by alone.
    SuiteIncludedForThisRun,
}

impl RouteCode {
    /// Every code (docs/src/reference/reason-codes.md lists them all).
    pub const ALL: [RouteCode; 3] = [
        RouteCode::RunsThroughSuite,
        RouteCode::IncludedForThisRun,
        RouteCode::SuiteIncludedForThisRun,
    ];

    /// The stable kebab-case name.
    pub fn as_str(self) -> &'static str {
        match self {
            RouteCode::RunsThroughSuite => "runs-through-suite",
            RouteCode::IncludedForThisRun => "included-for-this-run",
            RouteCode::SuiteIncludedForThisRun => "suite-included-for-this-run",
        }
    }
}

/// Why an input selected no runnable test: a stable code for programs (plan
/// JSON, CI payloads) beside the human text. The kebab-case names are a
/// contract, listed in docs/src/reference/reason-codes.md.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ReasonCode {
    /// A class pattern with `*`: the classes must be named.
    Wildcard,
    /// Not a Java/Groovy/Kotlin class name.
    NotAClassName,
    /// A file that is not a test (main code, a helper, a resource).
    NotATest,
    /// An abstract class no concrete test class of the build extends.
    AbstractNoConcreteSubclass,
    /// Its source set has Test tasks, but none of them is enabled.
    NoRunnableTask,
    /// Only host-mutating tasks (`destructive*`) run it, and they were not allowed.
    RequiresPackagingHost,
    /// The include/exclude patterns of every task that could run it leave it out.
    ExcludedByTaskPatterns,
    /// A JUnit 3 bulk test: only the suite of a test class whose `bulkTest*()`
    /// method creates it runs it, never alone.
    BulkTestOnly,
    /// Without the layout, the path rules do not know the source set's task.
    UnknownSourceSet,
    /// A YAML suite outside `yamlRestTest`, which cannot run on its own.
    YamlSuiteNotRunnable,
    /// No class of that name in the build's test source sets.
    NoSuchClass,
    /// A method found neither in its class's source nor in its superclasses in the build.
    NoSuchMethod,
    /// No such file in the build.
    NoSuchFile,
    /// A file of the build that is in no source set.
    NotInSourceSet,
    /// A file its source set's own include/exclude patterns leave out of
    /// compilation: Gradle never compiles it.
    NotCompiled,
    /// A JUnit 3 suite class whose `suite()` runs other classes, never its
    /// own `test*` methods: those are not checked (the suite's members are).
    OwnTestsNotInSuite,
    /// Concrete subclasses of a changed or named base class beyond
    /// `--subclass-cap`: they inherit what changed but do not run.
    BeyondSubclassCap,
    /// A path outside the build root.
    OutsideBuild,
    /// A path that is not UTF-8.
    NotUtf8,
    /// A name holding control characters, which Gradle and JUnit XML cannot
    /// carry intact: the test would run under another name, or not at all.
    UnsupportedCharacters,
    /// A not-applicable entry handed to the report step without a reason
    /// code (Elasticsearch's fallback for its skip list's records).
    NotRunnable,
}

impl ReasonCode {
    /// Every code (docs/src/reference/reason-codes.md lists them all).
    pub const ALL: [ReasonCode; 21] = [
        ReasonCode::Wildcard,
        ReasonCode::NotAClassName,
        ReasonCode::NotATest,
        ReasonCode::AbstractNoConcreteSubclass,
        ReasonCode::NoRunnableTask,
        ReasonCode::RequiresPackagingHost,
        ReasonCode::ExcludedByTaskPatterns,
        ReasonCode::BulkTestOnly,
        ReasonCode::UnknownSourceSet,
        ReasonCode::YamlSuiteNotRunnable,
        ReasonCode::NoSuchClass,
        ReasonCode::NoSuchMethod,
        ReasonCode::NoSuchFile,
        ReasonCode::NotInSourceSet,
        ReasonCode::NotCompiled,
        ReasonCode::OwnTestsNotInSuite,
        ReasonCode::BeyondSubclassCap,
        ReasonCode::OutsideBuild,
        ReasonCode::NotUtf8,
        ReasonCode::UnsupportedCharacters,
        ReasonCode::NotRunnable,
    ];

    /// The stable kebab-case name.
    pub fn as_str(self) -> &'static str {
        match self {
            ReasonCode::Wildcard => "wildcard",
            ReasonCode::NotAClassName => "not-a-class-name",
            ReasonCode::NotATest => "not-a-test",
            ReasonCode::AbstractNoConcreteSubclass => "abstract-no-concrete-subclass",
            ReasonCode::NoRunnableTask => "no-runnable-task",
            ReasonCode::RequiresPackagingHost => "requires-packaging-host",
            ReasonCode::ExcludedByTaskPatterns => "excluded-by-task-patterns",
            ReasonCode::BulkTestOnly => "bulk-test-only",
            ReasonCode::UnknownSourceSet => "unknown-source-set",
            ReasonCode::YamlSuiteNotRunnable => "yaml-suite-not-runnable",
            ReasonCode::NoSuchClass => "no-such-class",
            ReasonCode::NoSuchMethod => "no-such-method",
            ReasonCode::NoSuchFile => "no-such-file",
            ReasonCode::NotInSourceSet => "not-in-source-set",
            ReasonCode::NotCompiled => "not-compiled",
            ReasonCode::OwnTestsNotInSuite => "own-tests-not-in-suite",
            ReasonCode::BeyondSubclassCap => "beyond-subclass-cap",
            ReasonCode::OutsideBuild => "outside-build",
            ReasonCode::NotUtf8 => "not-utf8",
            ReasonCode::UnsupportedCharacters => "unsupported-characters",
            ReasonCode::NotRunnable => "not-runnable",
        }
    }

    /// Found, but there is no task here to re-run it: reported as
    /// `not_applicable` by CI rather than as a selection problem. A test file
    /// the build never compiles is one: a change to it is never checked.
    pub fn is_not_applicable(self) -> bool {
        matches!(
            self,
            ReasonCode::NoRunnableTask
                | ReasonCode::RequiresPackagingHost
                | ReasonCode::ExcludedByTaskPatterns
                | ReasonCode::NotCompiled
                | ReasonCode::OwnTestsNotInSuite
                | ReasonCode::BeyondSubclassCap
                | ReasonCode::NotRunnable
        )
    }
}

impl fmt::Display for ReasonCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why something selected nothing: the code and the sentence for people.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Reason {
    pub code: ReasonCode,
    pub text: String,
}

impl Reason {
    pub fn new(code: ReasonCode, text: impl Into<String>) -> Reason {
        Reason {
            code,
            text: text.into(),
        }
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// An input that selected nothing, with the reason why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Unresolved {
    pub input: String,
    /// `not-runnable` when a skip list handed to the report step has none.
    #[serde(default = "not_runnable")]
    pub reason_code: ReasonCode,
    pub reason: String,
    /// Which selector the input came from: an unresolved explicit spec is the
    /// user's mistake, an unresolved unmute or changed file only a warning.
    pub origin: Origin,
}

fn not_runnable() -> ReasonCode {
    ReasonCode::NotRunnable
}

/// The unmute gate: an unmuted test found but not checkable here (no
/// runnable task, …) leaves the unmute's question ("is it fixed?")
/// unanswered, so the run has no trustworthy result (exit 3), whatever else
/// ran. A changed test that cannot run is listed, and leaves the exit code
/// to what ran.
pub fn unmute_unchecked(not_checked: &[Unresolved]) -> bool {
    not_checked.iter().any(|u| u.origin == Origin::Unmuted)
}

impl Unresolved {
    /// A test the user named that resolved to nothing: an input error. The
    /// subclasses beyond the cap of a named base come with those that run,
    /// so the name did select something.
    pub fn named_nothing(&self) -> bool {
        self.origin == Origin::Explicit && self.reason_code != ReasonCode::BeyondSubclassCap
    }
}

/// A changed source file that selects no test, and why (main code, a helper,
/// a deleted file).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SkippedFile {
    pub path: String,
    pub reason: String,
}

/// Executions of each unit test by default (`--unit-iters`, Elasticsearch's).
pub const DEFAULT_UNIT_ITERS: u32 = 100;
/// Executions of each internalClusterTest by default (`--integ-iters`).
pub const DEFAULT_INTEG_ITERS: u32 = 20;
/// Gradle runs of a REST batch by default (`--rest-iters`).
pub const DEFAULT_REST_LOOPS: u32 = 10;
/// The randomized runner's suite timeout by default, in minutes (`--suite-timeout`).
pub const DEFAULT_SUITE_TIMEOUT_MIN: u64 = 60;

/// The default cap of shards per batch (`--max-shards`).
pub const DEFAULT_MAX_SHARDS: u32 = 10;

/// The tuning knobs of planning (Elasticsearch's `BatchingConfig`).
#[derive(Clone, Debug, PartialEq)]
pub struct BatchingConfig {
    /// Batch cap per kind; kinds not listed use Elasticsearch's defaults.
    pub caps: BTreeMap<TestKind, usize>,
    /// `-Dtests.iters` for unit tests (and custom source sets).
    pub unit_iters: u32,
    /// `-Dtests.iters` for internalClusterTest.
    pub integ_iters: u32,
    /// Gradle invocations per REST batch.
    pub rest_loops: u32,
    /// `-Dtests.timeoutSuite`.
    pub suite_timeout: Duration,
    /// Where durations come from; `None`: what earlier runs recorded.
    pub durations: Option<PathBuf>,
    /// The most shards one batch is split into.
    pub max_shards: u32,
    /// How tests are repeated (`--repetition`).
    pub repetition: RepetitionMode,
}

impl Default for BatchingConfig {
    fn default() -> Self {
        BatchingConfig {
            caps: BTreeMap::new(),
            unit_iters: DEFAULT_UNIT_ITERS,
            integ_iters: DEFAULT_INTEG_ITERS,
            rest_loops: DEFAULT_REST_LOOPS,
            suite_timeout: Duration::from_secs(DEFAULT_SUITE_TIMEOUT_MIN * 60),
            durations: None,
            max_shards: DEFAULT_MAX_SHARDS,
            repetition: RepetitionMode::Auto,
        }
    }
}

impl BatchingConfig {
    /// The batch cap for a kind (Elasticsearch's `BATCH_CAPS`).
    pub fn cap(&self, kind: &TestKind) -> usize {
        if let Some(cap) = self.caps.get(kind) {
            return *cap;
        }
        match kind {
            TestKind::Unit | TestKind::Other(_) => 3,
            TestKind::InternalClusterTest => 2,
            TestKind::JavaRestTest | TestKind::YamlRestTestRunner => 1,
            TestKind::YamlRestTestSuite | TestKind::YamlRestTestCase => 4,
        }
    }

    /// `-Dtests.iters` for a kind; REST kinds run one iteration per loop.
    pub fn iterations(&self, kind: &TestKind) -> u32 {
        match kind {
            TestKind::Unit | TestKind::Other(_) => self.unit_iters,
            TestKind::InternalClusterTest => self.integ_iters,
            _ => 1,
        }
    }

    /// Gradle invocations for a kind.
    pub fn loops(&self, kind: &TestKind) -> u32 {
        if kind.is_rest() {
            self.rest_loops
        } else {
            1
        }
    }
}

/// How a command repeats its tests (not the condition an execution ran
/// under, `condition::Repetition`, nor the user's `--repetition`, `RepetitionMode`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Repeating {
    /// One Gradle run with `-Dtests.iters=N`: the randomizedtesting runner
    /// repeats each test in the test JVM.
    #[default]
    InJvm,
    /// The same Gradle invocation N times (each test once per run).
    GradleRuns,
}

/// One shard of a batch: the batch's iterations split over jobs that each
/// fit a budget.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    /// 1-based.
    pub index: u32,
    pub of: u32,
    /// The master seed of an in-JVM shard.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<String>,
}

/// Which repetition the user asks for (`--repetition`; its name in JSON).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RepetitionMode {
    /// In one test JVM where the task's framework has a mechanism verified on
    /// a real Gradle build, else Gradle runs.
    #[default]
    Auto,
    /// In one test JVM wherever a mechanism exists (also the JUnit Platform's).
    InJvm,
    /// One Gradle invocation per iteration, everywhere.
    GradleRuns,
}

impl RepetitionMode {
    /// The name `--repetition` takes.
    pub fn as_str(self) -> &'static str {
        match self {
            RepetitionMode::Auto => "auto",
            RepetitionMode::InJvm => "in-jvm",
            RepetitionMode::GradleRuns => "gradle-runs",
        }
    }
}

/// One batch of a plan: its tests and the Gradle invocation that repeats them.
///
/// Its JSON is the typed batch a CI job is told (`ci::spec::JobSpec`): the
/// value itself, its argv rendered only where it runs. The plan JSON
/// (docs/src/reference/json.md) is another view of it, `plan::render`'s.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GradleCommand {
    pub kind: TestKind,
    pub label: String,
    pub key: String,
    /// What Gradle runs, and how often (argv is rendered from it).
    pub invocation: Invocation,
    /// Where the test JVMs of its Test tasks write heap dumps besides
    /// `build/heapdump/` (their `-XX:HeapDumpPath`, as the layout reports it;
    /// relative to the build root when inside it).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub heap_dump_paths: Vec<PathBuf>,
    /// Why it repeats its tests the way it does.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub repetition_reason: String,
    /// The user's request it does not honour, and why (`--repetition
    /// in-jvm` on tests only Gradle runs can repeat): said when planned, when
    /// run and in the report, never ignored without a word.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub not_honoured: Option<String>,
    /// The tests the command runs (not part of the plan JSON).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tests: Vec<ClassifiedTest>,
    /// By class, why `auto` starts its tests on Gradle runs: their in-JVM
    /// iterations cost more than fresh runs when last measured (said in the
    /// report; not part of the plan JSON, whose reason says it).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub in_jvm_cost: BTreeMap<String, String>,
    /// For an in-JVM command: the same tests as Gradle runs, for the classes
    /// whose first run shows that their in-JVM count did not take effect.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fallback: Option<Box<GradleCommand>>,
    /// The command's predicted wall time in seconds, when durations are known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub predicted_sec: Option<u64>,
    /// Which shard of its batch the command is, when the batch was split.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<Shard>,
    /// The command runs its tests' whole test task, as CI runs it
    /// (`--context task`); `None`: the selected tests alone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub whole_task: Option<WholeTask>,
}

/// A batch of whole-task runs (`--context task`): every test class of the
/// task, no `--tests` filter, the build's own test JVMs, once per Gradle run.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct WholeTask {
    /// When the whole task would not fit the budget: the random sample of
    /// its classes that runs instead (the selected tests' classes always in it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sample: Option<ClassSample>,
    /// The classes each run runs, as far as they are known (the task's
    /// compiled classes, or the sample): what its time is predicted from.
    #[serde(skip)]
    pub classes: Vec<String>,
    /// The runs back unmuted tests repeated in one JVM (`--unmute-check`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub unmute_check: bool,
}

/// A seeded random sample of a task's test classes: the same seed and
/// classes give the same sample, so a run can be redone.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ClassSample {
    /// The Test task sampled.
    pub task: String,
    pub seed: u64,
    /// The sampled classes, in the task's order.
    pub classes: Vec<String>,
    /// How many test classes the task has.
    pub of: usize,
}

impl GradleCommand {
    /// A command of `kind` running `argv` as given (for tests): REST kinds
    /// loop `rest_loops` Gradle runs, the others repeat `iterations` times in
    /// the JVM by `-Dtests.iters` (which `argv` carries itself).
    #[cfg(test)]
    pub fn of_kind(
        kind: TestKind,
        argv: &[&str],
        iterations: u32,
        rest_loops: u32,
    ) -> GradleCommand {
        let argv: Vec<String> = argv.iter().map(|s| s.to_string()).collect();
        let mut invocation = Invocation::given(&argv, rest_loops);
        if !kind.is_rest() {
            invocation.repeat = Repeat::InJvm {
                mechanism: InJvm::TestsIters,
                iterations,
                fresh_jvms: Default::default(),
            };
        }
        GradleCommand::of(kind, invocation)
    }

    /// A command of `kind` running `invocation`, with nothing else known.
    pub fn of(kind: TestKind, invocation: Invocation) -> GradleCommand {
        GradleCommand {
            label: kind.label(),
            key: kind.key(),
            kind,
            invocation,
            heap_dump_paths: Vec::new(),
            repetition_reason: String::new(),
            not_honoured: None,
            tests: Vec::new(),
            in_jvm_cost: BTreeMap::new(),
            fallback: None,
            predicted_sec: None,
            shard: None,
            whole_task: None,
        }
    }

    /// Program first, then its arguments: one Gradle run of it.
    pub fn argv(&self) -> Vec<String> {
        self.invocation.argv()
    }

    /// Executions of each test in the test JVM per Gradle run (1 when it
    /// repeats by Gradle runs).
    pub fn iterations(&self) -> u32 {
        match self.invocation.repeat {
            Repeat::InJvm { iterations, .. } => iterations,
            Repeat::GradleRuns(_) => 1,
        }
    }

    /// How many times its argv is run (1 for an in-JVM command).
    pub fn rest_loops(&self) -> u32 {
        self.invocation.repeat.runs()
    }

    /// Executions of each test: iterations × Gradle runs.
    pub fn executions(&self) -> u64 {
        self.invocation.repeat.executions()
    }

    /// The in-JVM mechanism of an in-JVM command.
    pub fn in_jvm(&self) -> Option<InJvm> {
        self.invocation.repeat.mechanism()
    }

    pub fn repetition(&self) -> Repeating {
        match self.invocation.repeat {
            Repeat::InJvm { .. } => Repeating::InJvm,
            Repeat::GradleRuns(_) => Repeating::GradleRuns,
        }
    }

    /// The Test tasks the command runs, in order (not the `clean<Task>`
    /// tasks): what "did the tasks asked for run?" is checked against.
    pub fn task_paths(&self) -> Vec<String> {
        self.invocation.task_paths()
    }

    /// What runs beside its tests: `task` for a whole-task batch, else `alone`
    /// (the report's context names).
    pub fn context(&self) -> &'static str {
        match self.whole_task {
            Some(_) => "task",
            None => "alone",
        }
    }

    /// The runner invokes `argv` several times (REST loops, Gradle-run repetition).
    pub fn loops_gradle(&self) -> bool {
        self.repetition() == Repeating::GradleRuns
    }
}

/// Selected tests for the unit tests of every stage.
#[cfg(test)]
pub(crate) mod testing {
    use super::{ClassifiedTest, Origin, TestKind};

    /// A test of `kind` run by the Test task `task` (`:project:sourceSet`),
    /// selected by a change.
    pub fn test(task: &str, kind: TestKind, class: Option<&str>) -> ClassifiedTest {
        let (project, source_set) = task.rsplit_once(':').expect("a task path");
        ClassifiedTest {
            project: project.into(),
            source_set: source_set.into(),
            task: task.into(),
            kind,
            class: class.map(Into::into),
            method: None,
            yaml_suite: None,
            origin: Origin::Changed,
            nested_classes: false,
            is_suite: false,
            via_suite: None,
            mute: None,
        }
    }

    /// A unit test class of `:server:test`.
    pub fn unit(class: &str) -> ClassifiedTest {
        test(":server:test", TestKind::Unit, Some(class))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_round_trip_and_carry_reference_labels_and_keys() {
        for k in TestKind::ORDER {
            assert_eq!(TestKind::parse(k.as_str()), k);
        }
        assert_eq!(TestKind::parse("test"), TestKind::Unit);
        assert_eq!(TestKind::Unit.key(), "flakiness-detection:unit");
        assert_eq!(
            TestKind::JavaRestTest.key(),
            "flakiness-detection:java-rest"
        );
        assert_eq!(TestKind::InternalClusterTest.label(), "integ tests");
        assert_eq!(
            TestKind::Other("slowTest".into()).key(),
            "flakiness-detection:slow-test"
        );
        assert!(TestKind::YamlRestTestCase.is_rest());
        assert!(!TestKind::Other("x".into()).is_rest());
        assert!(TestKind::Unit.order() < TestKind::Other("a".into()).order());
    }

    #[test]
    fn default_batching_matches_the_reference() {
        let c = BatchingConfig::default();
        assert_eq!(c.cap(&TestKind::Unit), 3);
        assert_eq!(c.cap(&TestKind::InternalClusterTest), 2);
        assert_eq!(c.cap(&TestKind::JavaRestTest), 1);
        assert_eq!(c.cap(&TestKind::YamlRestTestSuite), 4);
        assert_eq!(c.iterations(&TestKind::Unit), 100);
        assert_eq!(c.iterations(&TestKind::InternalClusterTest), 20);
        assert_eq!(c.loops(&TestKind::YamlRestTestRunner), 10);
        assert_eq!(c.loops(&TestKind::Unit), 1);
        assert_eq!(c.suite_timeout, Duration::from_secs(3600));
    }
}
