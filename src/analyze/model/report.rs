//! The report: what `analyze` found, in the shape of the Report JSON contract
//! (docs/src/reference/json.md, "Report JSON"). Renderers and callers read it; nothing here does I/O.

use crate::analyze::model::counts::{Executions, Rate};
use crate::condition::{Context, Repetition};
use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};
use std::collections::BTreeMap;

/// The whole report: what surrounds the tests (the run, its jobs, its
/// comparison, what the ledger knows), then the analysis of its report files.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    /// Serialized first, each part only when it has something to say.
    #[serde(flatten)]
    pub around: Around,
    pub summary: Summary,
    /// Most failing first, then by class and method.
    pub tests: Vec<TestReport>,
    /// Selected tests with no execution at all (`local`, which knows the plan).
    #[serde(rename = "notExecuted", skip_serializing_if = "Vec::is_empty")]
    pub not_executed: Vec<NotExecuted>,
    /// Classes of a planned run that JUnit found no test in (`not-a-test`):
    /// no verdict, no execution.
    #[serde(rename = "notATest", skip_serializing_if = "Vec::is_empty")]
    pub not_a_test: Vec<crate::analyze::model::report::NotATest>,
    /// Tests no one selected that ran in the selected tests' whole-task runs:
    /// summarized apart, never judged ([`crate::analyze::rules::neighbours`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub neighbours: Option<Neighbours>,
    pub files: ReportFiles,
    /// What the executions' conditions warn of (`state-accumulates`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<Warning>,
    /// Tests that failed together in the same runs (`rules::clusters`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub clusters: Vec<crate::analyze::model::clusters::Cluster>,
    /// Skipped executions per (class, method), tests that only skipped included.
    #[serde(skip)]
    pub skips: BTreeMap<(String, String), u64>,
}

/// What surrounds a report's tests: the run that produced them. `local`,
/// `analyze`, `--compare` and the CI report steps each fill what they know;
/// one renderer shows every part in one order.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Around {
    /// The run was interrupted: the report counts only what ran before.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub partial: bool,
    /// Problems of a CI report step's inputs: what follows may miss what
    /// they would have told.
    #[serde(skip)]
    pub input_problems: Vec<String>,
    /// Selected tests found that cannot run here: `[{input, reasonCode, reason, origin}]`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub not_checked: Vec<crate::domain::Unresolved>,
    /// `--compare REF`: the comparison as a whole (each test has its own).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub comparison: Option<crate::analyze::model::comparison::ComparedWith>,
    /// A CI run's batch jobs: their rows, the jobs that left no status file.
    #[serde(skip)]
    pub jobs: Option<Jobs>,
    /// The compile gate failed, so no re-run happened.
    #[serde(skip)]
    pub build_failed: bool,
    /// `local`'s batches, each judged by the job-outcome rules.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub batches: Vec<crate::analyze::model::outcome::JobPayload>,
    /// What the run cost, and what its stop rules saved.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cost: Option<crate::analyze::model::cost::Cost>,
    /// Failing tests the ledger holds failing on the base branch too.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub known_flaky: Vec<crate::analyze::model::comparison::KnownFlaky>,
    /// `local`'s batches without a clean result, one line each.
    #[serde(skip)]
    pub problems: Vec<String>,
    /// JVM options from the environment (`JAVA_TOOL_OPTIONS`,
    /// `_JAVA_OPTIONS`) the run's test JVMs picked up, or may have: the
    /// rates measured under them may differ.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub inherited_jvm_options: Vec<crate::jvm_options::InheritedJvmOptions>,
}

/// A CI run's batch jobs, as its report step found them.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Jobs {
    /// One per job that left a status file, then the records no job produced.
    pub payloads: Vec<crate::analyze::model::outcome::JobPayload>,
    /// Expected jobs that left no status file.
    pub missing: Vec<Missing>,
    /// What the repetition engine did in each job whose status file says.
    pub engine: Vec<JobEngine>,
}

/// What the repetition engine did with a CI job's batch, from its status file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct JobEngine {
    pub job_id: String,
    pub step_key: String,
    /// Iterations of the batch's tests run, and planned, added up.
    pub iterations_run: u64,
    pub iterations_planned: u64,
    /// Its Gradle invocations.
    pub invocations: u32,
    /// It ran in chunks of its own choosing (a budget, stop on proof).
    pub chunked: bool,
    /// What it did besides its invocations, a line each, as its log says it.
    pub lines: Vec<String>,
    /// Its budget stopped it before its count.
    pub budget_stop: Option<crate::analyze::model::cost::BudgetStop>,
    /// Seconds of job time its early end saved, at the pace it measured.
    pub saved_sec: u64,
}

/// A batch job that should have written a status file and did not.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Missing {
    pub step_key: String,
    pub label: String,
    /// 1-based, as Buildkite numbers parallel jobs.
    pub job: u32,
    pub of: u32,
}

/// A selected test of which no execution was recorded.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NotExecuted {
    /// The Gradle task that was to run it.
    pub task: String,
    /// The selection as planned: `Class`, `Class.method` or a YAML suite.
    pub test: String,
    pub planned_runs: u64,
    /// Why, as far as the run knows.
    pub reason: String,
}

/// A test's executions against the plan.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PlannedRuns {
    /// Executions the plan gave it (iterations × Gradle runs).
    pub planned_runs: u64,
    /// Set when it ran fewer times than planned: how many, and why.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub below_plan: Option<String>,
    /// The reason alone (`below_plan` without its count), which the tests of
    /// one stopped batch share: the report says it once per class.
    #[serde(skip)]
    pub shortfall: Option<String>,
    /// What repeated it: `gradle-runs` (a fresh Gradle run and test JVM per
    /// execution) or an in-JVM mechanism (`testng-invocation-count`,
    /// `junit4-runner`, `platform-engine`, `tests-iters`); several when
    /// several batches ran it.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub repeated_by: Vec<String>,
    /// Its in-JVM iterations cost more than fresh Gradle runs would have
    /// (state accumulating in the JVM): what they cost against a fresh run,
    /// and what the run did (`auto`: the rest ran as Gradle runs, so
    /// `repeatedBy` names both; `in-jvm` asked for: they stayed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub in_jvm_cost: Option<String>,
    /// The user's request its batch did not honour, and why
    /// (`--repetition in-jvm` on a test only Gradle runs can repeat).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub not_honoured: Option<String>,
    /// Its whole-task runs (`--context task`) ran a random sample of its
    /// task's classes, the task being too big for the budget: the seed, the
    /// classes and how many the task has.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub task_sample: Option<crate::domain::ClassSample>,
    /// Whole-task runs in fresh JVMs backed its in-JVM runs, the test having
    /// been unmuted (`--unmute-check`): the report says what each part bounds.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub unmute_check: bool,
}

/// Totals over every execution read.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Summary {
    /// `passed + failed + suiteTimeouts` (skipped cases did not execute).
    pub executions: u64,
    pub passed: u64,
    /// Real failures: failed executions other than suite timeouts.
    pub failed: u64,
    /// Executions ended by the suite timeout (informational, never a real failure).
    pub suite_timeouts: u64,
    pub skipped: u64,
    /// Distinct tests with at least one execution.
    pub tests: u64,
    /// Tests that both passed and failed.
    pub flaky_tests: u64,
    pub severity: Severity,
}

/// The annotation style of a report.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
    Success,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Success => "success",
        }
    }
}

/// What a failure was, from its exception type and message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum FailureKind {
    SuiteTimeout,
    Assertion,
    Error,
    Other,
}

impl FailureKind {
    pub fn as_str(self) -> &'static str {
        match self {
            FailureKind::SuiteTimeout => "suite-timeout",
            FailureKind::Assertion => "assertion",
            FailureKind::Error => "error",
            FailureKind::Other => "other",
        }
    }
}

/// Failure kinds with their counts, in the order they were first seen.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct KindCounts(pub Vec<(FailureKind, u64)>);

impl KindCounts {
    pub fn add(&mut self, kind: FailureKind, n: u64) {
        match self.0.iter_mut().find(|(k, _)| *k == kind) {
            Some((_, count)) => *count += n,
            None => self.0.push((kind, n)),
        }
    }
}

impl Serialize for KindCounts {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (kind, count) in &self.0 {
            map.serialize_entry(kind.as_str(), count)?;
        }
        map.end()
    }
}

/// One test: a (class, normalized method) over every file, iteration and loop.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TestReport {
    pub class: String,
    /// Seed and iteration tokens removed; parameters such as `{yaml=...}` kept.
    pub method: String,
    /// The Gradle task names its reports came from (`test`, `internalClusterTest`, ...).
    pub kinds: Vec<String>,
    /// Executions that passed or failed (suite timeouts and skips excluded).
    pub runs: u64,
    /// `plannedRuns` (and `belowPlan`) when the plan is known (`local`).
    #[serde(flatten)]
    pub plan: Option<PlannedRuns>,
    pub passes: u64,
    pub failures: u64,
    /// Of its failures, those of type `java.lang.OutOfMemoryError`: the test
    /// JVM ran out of heap (infrastructure, not flakiness).
    #[serde(skip)]
    pub heap_failures: u64,
    pub suite_timeouts: u64,
    /// `failures / runs` (0 without runs).
    pub failure_rate: f64,
    /// Wilson 95% interval of the failure rate.
    pub ci95: [f64; 2],
    pub failure_kinds: KindCounts,
    /// Every distinct seed of a failed execution, first seen first.
    pub failing_seeds: Vec<String>,
    /// A command that re-runs the failing test.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reproduce: Option<String>,
    /// The run it failed in, when the command re-runs it alone: the other
    /// tests of its class (and classes of its task) ran with it, and it may
    /// depend on them (it may pass as printed); with the class's command.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reproduce_context: Option<String>,
    /// The first few failures.
    pub examples: Vec<Example>,
    /// The runs it failed in, each once, with its failure's signature
    /// there (`rules::clusters`), at most [`MAX_FAILING_RUNS`].
    #[serde(skip)]
    pub failing_runs: Vec<FailedRun>,
    /// Total seconds of its executions (for the merged JUnit file).
    #[serde(skip)]
    pub time_sec: f64,
    /// The times of its executions that passed or failed (the run ledger's summary).
    #[serde(skip)]
    pub durations: crate::stats::DurationSketch,
    /// The Gradle task path (`:server:test`) of a report where it failed: where triage replays it.
    #[serde(skip)]
    pub failing_task: Option<String>,
    /// The `-D` properties the run that failed passed for it (a suite member
    /// included for the run): triage replays pass them too.
    #[serde(skip)]
    pub run_members: crate::invocation::Members,
    /// What replaying its failures showed (`local --triage`, `gradle-flaky triage`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub triage: Option<Triage>,
    /// Its executions by condition (`conditions`, `firstExecution`).
    #[serde(flatten)]
    pub by_condition: crate::analyze::model::counts::Conditions,
    /// What its executions say it is, and which of them it rests on.
    pub verdict: Verdict,
    /// The test before and after (`local --compare REF`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub comparison: Option<crate::analyze::model::comparison::Comparison>,
}

/// Failing runs a test keeps for its clusters: a test failing in more has
/// more than enough to be linked.
pub const MAX_FAILING_RUNS: usize = 1_000;

/// A run a test failed in, and how.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct FailedRun {
    /// The Gradle run (`batch-1/iter-3`), with the iteration in its test
    /// JVM after `#` when it repeated there.
    pub run: String,
    /// Its failure's signature ([`crate::analyze::rules::clusters::signature`]).
    pub signature: String,
}

/// What kind of flaky a failing test is, from replaying its failures: the
/// names are the JSON contract (docs/src/concepts/triage.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum TriageVerdict {
    /// Every replay of a failing seed failed: a real bug its seed reproduces.
    SeedDeterministic,
    /// A replay of a failing seed passed: timing, concurrency or environment.
    Nondeterministic,
    /// No seed; replayed alone, it failed at least once.
    FailsAlone,
    /// No seed; replayed alone, it always passed: it may depend on the tests run before it.
    PassesAlone,
}

impl TriageVerdict {
    pub fn as_str(self) -> &'static str {
        match self {
            TriageVerdict::SeedDeterministic => "seed-deterministic",
            TriageVerdict::Nondeterministic => "nondeterministic",
            TriageVerdict::FailsAlone => "fails-alone",
            TriageVerdict::PassesAlone => "passes-alone",
        }
    }
}

/// One failing test's replays.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Triage {
    /// `None` when no replay gave a result (skipped, or every replay broke).
    pub verdict: Option<TriageVerdict>,
    /// Replays that ran with a result (passed or failed).
    pub replays: u64,
    /// Replays that failed again.
    pub reproduced: u64,
    /// Each failing seed replayed (none for a test without seeds).
    pub seeds: Vec<SeedReplay>,
    /// Fewer replays ran than planned (the budget, the time limit, Ctrl-C, a broken replay).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub partial: bool,
    /// Why planned replays did not run or did not count, one line each.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// Its replays alone against its runs in its whole task, when the
    /// report has those (replayed without a seed only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub context: Option<crate::analyze::model::counts::ContextComparison>,
    /// Wall time of its replays (Gradle included).
    pub elapsed_sec: f64,
}

/// The replays of one failing seed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SeedReplay {
    /// `MASTER:METHOD` (or the master seed alone), as the failure reported it.
    pub seed: String,
    pub replays: u64,
    pub reproduced: u64,
    /// The command that replays this seed once.
    pub reproduce: String,
}

/// One failure of a test, as reported.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Example {
    /// The raw test name, seed included.
    pub name: String,
    pub kind: FailureKind,
    #[serde(rename = "type")]
    pub type_name: String,
    /// At most 16 KiB.
    pub message: String,
}

/// The report files behind the report.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ReportFiles {
    /// ReportFiles read (complete, truncated or malformed).
    pub read: u64,
    /// ReportFiles skipped because they are older than `--since`.
    pub skipped_stale: u64,
    pub truncated: Vec<TruncatedFile>,
    pub malformed: Vec<MalformedFile>,
    /// Directories that could not be listed: reports in them were not counted.
    pub unreadable_dirs: Vec<UnreadableDir>,
    /// Every file read, in path order, with its counts.
    #[serde(skip)]
    pub reports: Vec<FileSummary>,
}

/// A file that ends before its document does.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TruncatedFile {
    pub path: String,
    /// Test cases read before the cut.
    pub cases: u64,
}

/// A file that is not well-formed XML, was refused, or could not be read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MalformedFile {
    pub path: String,
    /// Byte offset of the problem in the file.
    pub offset: u64,
    pub error: String,
}

/// A directory that could not be listed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct UnreadableDir {
    /// Relative to the analyzed root, `/`-separated.
    pub path: String,
    pub error: String,
}

/// One report file's counts.
#[derive(Debug, Clone, PartialEq)]
pub struct FileSummary {
    /// Relative to the analyzed root, `/`-separated.
    pub path: String,
    /// The Gradle task path (`:server:test`) when the path shows it.
    pub task: Option<String>,
    pub counts: FileCounts,
    pub passed: u64,
    pub failed: u64,
    pub suite_timeouts: u64,
    pub skipped: u64,
}

impl FileSummary {
    /// Executions in this file (skipped cases excluded).
    pub fn executions(&self) -> u64 {
        self.passed + self.failed + self.suite_timeouts
    }
}

/// The tests that also ran in their whole tasks (`neighbours` in the JSON).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Neighbours {
    /// Distinct tests with at least one execution.
    pub tests: u64,
    /// Their executions (passed, failed and suite timeouts).
    pub executions: u64,
    /// Those that failed at least once, most failing first.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub failing: Vec<FailingNeighbour>,
}

/// A neighbour that failed (`neighbours.failing[]`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FailingNeighbour {
    pub class: String,
    pub method: String,
    pub runs: u64,
    pub failures: u64,
}

/// What a report warns of. The kebab-case names are the JSON contract.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum WarningCode {
    /// A class whose state accumulates across its repetitions in one JVM.
    StateAccumulates,
}

impl WarningCode {
    pub fn as_str(self) -> &'static str {
        match self {
            WarningCode::StateAccumulates => "state-accumulates",
        }
    }
}

/// What shows that a class's state accumulates in one JVM.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DriftEvidence {
    /// Its executions kept getting slower.
    Slower,
    /// Each of its executions left threads running in its JVM
    /// (gradle-flaky's JUnit 4 runner counts them).
    Threads,
    /// Its repeats failed more than its first executions.
    FailuresLate,
}

impl DriftEvidence {
    pub fn as_str(self) -> &'static str {
        match self {
            DriftEvidence::Slower => "slower",
            DriftEvidence::Threads => "threads",
            DriftEvidence::FailuresLate => "failures-late",
        }
    }
}

/// A class whose state accumulates across its repetitions in one JVM.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Warning {
    pub code: WarningCode,
    pub class: String,
    pub evidence: DriftEvidence,
    /// Mean seconds of its executions first in their JVM, and at its last
    /// position (`slower`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_sec: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_sec: Option<f64>,
    /// The threads its earlier executions had left running before its last
    /// position, the mean over its JVMs (`threads`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub threads_left: Option<f64>,
    /// How many executions one JVM held at most (positions).
    pub positions: usize,
    /// The test's p-value (Mann–Kendall for `slower`, Fisher for
    /// `failures-late`); `threads` is counted, not inferred, and has none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub p_value: Option<f64>,
    /// The class that leaked the state, when it can be told: the class
    /// itself when it ran alone in its JVMs (gradle-flaky's JUnit 4 runner
    /// gives each class JVMs of its own).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub leaking_class: Option<String>,
    /// The plain sentence the report shows.
    pub message: String,
}

/// What a test's executions say it is. The kebab-case names are the JSON
/// contract (`tests[].verdict.kind`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum VerdictKind {
    /// Not judged yet: the value a test is built with before its verdict.
    Unjudged,
    /// No execution failed.
    Clean,
    /// It passed and failed.
    Flaky,
    /// Its rates alone and in its whole task differ.
    ContextDependent,
    /// Its first executions in a JVM failed more than its repeats.
    FirstExecutionDependent,
    /// Its repeats in a warm JVM failed more than its first executions.
    WarmJvmDependent,
    /// It failed every one of several executions.
    Broken,
    /// Its one execution failed: nothing tells flaky from broken.
    FailedOnce,
    /// Every failure was its JVM running out of heap (infrastructure).
    OutOfHeap,
}

impl VerdictKind {
    /// The JSON name.
    pub fn as_str(self) -> &'static str {
        match self {
            VerdictKind::Unjudged => "unjudged",
            VerdictKind::Clean => "clean",
            VerdictKind::Flaky => "flaky",
            VerdictKind::ContextDependent => "context-dependent",
            VerdictKind::FirstExecutionDependent => "first-execution-dependent",
            VerdictKind::WarmJvmDependent => "warm-jvm-dependent",
            VerdictKind::Broken => "broken",
            VerdictKind::FailedOnce => "failed-once",
            VerdictKind::OutOfHeap => "out-of-heap",
        }
    }

    /// The words a report's table uses.
    pub fn label(self) -> &'static str {
        match self {
            VerdictKind::FailedOnce => "failed once",
            VerdictKind::OutOfHeap => "out of heap",
            kind => kind.as_str(),
        }
    }

    /// A failing verdict that says the test passes sometimes: flakiness.
    pub fn is_flaky(self) -> bool {
        matches!(
            self,
            VerdictKind::Flaky
                | VerdictKind::ContextDependent
                | VerdictKind::FirstExecutionDependent
                | VerdictKind::WarmJvmDependent
        )
    }
}

/// A test's verdict in the JSON report, with the executions it rests on.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Verdict {
    pub kind: VerdictKind,
    pub executions: Executions,
    /// The contexts and repetitions of the executions it rests on.
    pub context: Vec<Context>,
    pub repetition: Vec<Repetition>,
    /// The rate it rests on.
    #[serde(flatten)]
    pub rate: Rate,
}

impl Verdict {
    /// The value a test report is built with before [`judged`] gives it its verdict.
    pub(crate) fn unjudged() -> Verdict {
        Verdict {
            kind: VerdictKind::Unjudged,
            executions: Executions::All,
            context: Vec::new(),
            repetition: Vec::new(),
            rate: Rate::new(0, 0),
        }
    }
}

/// A class that ran no test, as its reports say.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NotATest {
    pub class: String,
    /// The Gradle task of its first report, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub task: Option<String>,
    /// JUnit's own words, from its first report.
    pub message: String,
    /// How many times it was reported so.
    pub times: u64,
    /// Always `not-a-test` (the reason code).
    pub reason_code: crate::domain::ReasonCode,
}

/// FileCounts of what the file contains, as a JUnit consumer would count it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FileCounts {
    /// `<testcase>` elements read (a case cut off by truncation is counted when
    /// what was read of it decides its result: a failure, an error or a skip).
    pub cases: u64,
    pub with_failure: u64,
    pub with_error: u64,
    pub with_skipped: u64,
    /// `flakyFailure` and `flakyError` elements.
    pub flaky: u64,
    /// `rerunFailure` and `rerunError` elements.
    pub rerun: u64,
}
