//! The outcome of one batch: the taxonomy of a Buildkite batch job, which
//! `local` applies to its batches too, and the payload object written for it
//! (to `flakiness-outcomes.json` on Buildkite, to the `batches` of `local`'s
//! JSON). The rules that derive them are `rules::outcome`.

use crate::domain::{ReasonCode, TestKind, Unresolved};
use serde::{Deserialize, Serialize};

/// How a batch job ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OutcomeKind {
    CleanPass,
    FlakyDetected,
    Timeout,
    Hang,
    InfraFail,
    /// Nothing to judge: the test cannot be re-run here (a record of the
    /// selection, its reason code as `reason`), the build skipped every
    /// Test task a batch asked for (`reason: task-skipped`), or JUnit found
    /// no test in any class the batch ran (`reason: not-a-test`).
    NotApplicable,
    /// Assigned upstream: the compile gate failed, nothing ran.
    BuildFailed,
}

impl OutcomeKind {
    /// The outcome's name in the JSON contract (`infra_fail`, ...).
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            OutcomeKind::CleanPass => "clean_pass",
            OutcomeKind::FlakyDetected => "flaky_detected",
            OutcomeKind::Timeout => "timeout",
            OutcomeKind::Hang => "hang",
            OutcomeKind::InfraFail => "infra_fail",
            OutcomeKind::NotApplicable => "not_applicable",
            OutcomeKind::BuildFailed => "build_failed",
        }
    }
}

/// Why an `infra_fail` was one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum InfraSubtype {
    /// rc 137 on a short run: the kernel's OOM killer.
    OomKilled,
    /// A test JVM ran out of heap: a failure of type
    /// `java.lang.OutOfMemoryError`, or a heap dump written during the run.
    Oom,
    /// The report step's own inputs were wrong (a value missing, a skip list
    /// that does not match its declared count): a record no job produced.
    ReportError,
}

/// A record's test kind in JSON: its name, `""` for a record no batch of a
/// kind produced (a not-applicable test, a problem of the report's inputs).
pub(crate) mod kind_text {
    use crate::domain::TestKind;
    use serde::{Deserialize, Deserializer, Serializer};

    pub(crate) fn serialize<S: Serializer>(
        kind: &Option<TestKind>,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        s.serialize_str(kind.as_ref().map_or("", TestKind::as_str))
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(
        d: D,
    ) -> Result<Option<TestKind>, D::Error> {
        let text = String::deserialize(d)?;
        Ok((!text.is_empty()).then(|| TestKind::parse(&text)))
    }
}

/// Why a record has no test result of its own (`reason` in JSON).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RecordReason {
    /// The selection's reason code of a test that cannot run here.
    Code(ReasonCode),
    /// The build skipped every Test task the batch asked for.
    TaskSkipped,
    /// The compile gate failed, so no batch ran.
    Precompile,
    /// A problem of the report step's inputs, in words.
    Problem(String),
}

impl RecordReason {
    pub(crate) fn as_str(&self) -> &str {
        match self {
            RecordReason::Code(code) => code.as_str(),
            RecordReason::TaskSkipped => "task-skipped",
            RecordReason::Precompile => "precompile",
            RecordReason::Problem(text) => text,
        }
    }
}

impl Serialize for RecordReason {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for RecordReason {
    /// A reason code by its name, the two words a record uses, else the
    /// problem in words.
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        Ok(match text.as_str() {
            "task-skipped" => RecordReason::TaskSkipped,
            "precompile" => RecordReason::Precompile,
            _ => match ReasonCode::ALL.into_iter().find(|c| c.as_str() == text) {
                Some(code) => RecordReason::Code(code),
                None => RecordReason::Problem(text),
            },
        })
    }
}

/// The derived outcome.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Outcome {
    pub outcome: OutcomeKind,
    /// The job ran into its time limit (orthogonal to the outcome).
    pub timed_out: bool,
    pub infra_subtype: Option<InfraSubtype>,
}

/// What the job's wrapper and reports say.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct JobFacts {
    pub rc: i32,
    pub duration_sec: u64,
    pub real_failures: u64,
    pub total_cases: u64,
    /// A test JVM ran out of heap (its `OutOfMemoryError`, or a heap dump).
    pub oom_detected: bool,
    /// The build skipped every Test task the batch asked for (for a loop:
    /// in its last iteration).
    pub all_tasks_skipped: bool,
}

/// The job id of a report-input problem's record.
pub(crate) const REPORT_ERROR_JOB: &str = "report-error:inputs";
/// The step key of a report-input problem's record.
pub(crate) const REPORT_KEY: &str = "flakiness-orchestration:report";

/// At most this many failing classes are listed in a payload.
pub(crate) const MAX_FAILING_CLASSES: usize = 50;

/// One job's entry in `flakiness-outcomes.json`, fields in Elasticsearch's
/// order. Read back from a run folder (`local::folder`): what is not part of
/// the payload is then its default.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct JobPayload {
    pub job_id: String,
    pub step_key: String,
    #[serde(with = "kind_text")]
    pub kind: Option<TestKind>,
    pub rc: i32,
    pub duration_sec: u64,
    pub real_failures: u64,
    pub suite_timeouts: u64,
    pub total_cases: u64,
    pub outcome: OutcomeKind,
    pub timed_out: bool,
    pub failing_classes: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub infra_subtype: Option<InfraSubtype>,
    /// Set on `not_applicable` (the reason code, `task-skipped` for a batch
    /// the build skipped) and `build_failed` (`precompile`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<RecordReason>,
    /// The batch's Test tasks the build skipped, in words (all or some of
    /// them): shown to the user, not part of the payload.
    #[serde(skip)]
    pub skipped: Option<String>,
    /// Failures that were the test JVM running out of heap, not counted as
    /// real failures: shown to the user, not part of the payload.
    #[serde(skip)]
    pub heap_failures: u64,
    /// Tests with real failures that also passed (flaky) and that failed
    /// every execution (broken): shown to the user, not part of the payload.
    #[serde(skip)]
    pub flaky_tests: u64,
    #[serde(skip)]
    pub broken_tests: u64,
}

/// The job a payload describes, as its status file records it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct JobRecord {
    pub job_id: String,
    pub step_key: String,
    pub kind: Option<TestKind>,
    pub rc: i32,
    pub duration_sec: u64,
    /// A heap dump was written during the run.
    pub oom_detected: bool,
    /// The batch's Test tasks the build skipped, in words.
    pub skipped: Option<String>,
    /// The build skipped every Test task the batch asked for (for a loop: in
    /// its last iteration).
    pub all_tasks_skipped: bool,
}

impl JobPayload {
    /// A record no job produced: a test without a runnable task, or the
    /// failed compile gate.
    pub(crate) fn is_record(&self) -> bool {
        match self.outcome {
            OutcomeKind::BuildFailed => true,
            OutcomeKind::InfraFail => self.infra_subtype == Some(InfraSubtype::ReportError),
            // A job's own: its tasks skipped, or no test in what it ran.
            OutcomeKind::NotApplicable => !matches!(
                self.reason,
                Some(RecordReason::TaskSkipped | RecordReason::Code(ReasonCode::NotATest))
            ),
            _ => false,
        }
    }

    /// The batch ran, but not all it was asked to: the build skipped some of
    /// its Test tasks, whose tests have no result.
    pub(crate) fn partly_skipped(&self) -> bool {
        self.skipped.is_some() && self.outcome != OutcomeKind::NotApplicable
    }

    /// A payload that no job produced: all counts zero.
    fn recorded(
        job_id: String,
        step_key: String,
        rc: i32,
        outcome: OutcomeKind,
        reason: RecordReason,
    ) -> Self {
        JobPayload {
            job_id,
            step_key,
            kind: None,
            rc,
            duration_sec: 0,
            real_failures: 0,
            suite_timeouts: 0,
            total_cases: 0,
            outcome,
            timed_out: false,
            failing_classes: Vec::new(),
            infra_subtype: None,
            reason: Some(reason),
            skipped: None,
            heap_failures: 0,
            flaky_tests: 0,
            broken_tests: 0,
        }
    }

    /// The record of a test that was found but has no Test task to re-run it:
    /// a record no job produced, with nothing known of its kind; its reason is
    /// the selection's reason code.
    pub(crate) fn not_applicable(test: &Unresolved) -> Self {
        Self::recorded(
            format!("not-applicable:{}", test.input),
            String::new(),
            0,
            OutcomeKind::NotApplicable,
            RecordReason::Code(test.reason_code),
        )
    }

    /// One problem of the report step's inputs ([`crate::ci::report_inputs`]):
    /// an `infra_fail` the report step records itself, under a step key
    /// outside `flakiness-detection:` (Elasticsearch's metrics count those
    /// as batches).
    pub(crate) fn report_error(problem: &str) -> Self {
        JobPayload {
            infra_subtype: Some(InfraSubtype::ReportError),
            ..Self::recorded(
                REPORT_ERROR_JOB.into(),
                REPORT_KEY.into(),
                0,
                OutcomeKind::InfraFail,
                RecordReason::Problem(problem.to_string()),
            )
        }
    }

    /// The compile gate failed, so no batch ran.
    pub(crate) fn build_failed() -> Self {
        Self::recorded(
            "build-failed:precompile".into(),
            COMPILE_KEY.into(),
            1,
            OutcomeKind::BuildFailed,
            RecordReason::Precompile,
        )
    }
}

/// The compile gate's step key. Elasticsearch's metrics count every step
/// key starting with `flakiness-detection:` (but `:analyze`) as a test
/// batch, so the steps that are none are `flakiness-orchestration:*`.
pub(crate) const COMPILE_KEY: &str = "flakiness-orchestration:compile";
