//! The outcome of one batch, from its exit code, duration, heap dumps and what
//! its reports say: the taxonomy of a Buildkite batch job, which `local` applies
//! to its batches too, and the payload object written for it (to
//! `flakiness-outcomes.json` on Buildkite, to the `batches` of `local`'s JSON).

use crate::analyze::report::{TestReport, VerdictKind};
use crate::analyze::verdict;
use crate::analyze::Report;
use crate::domain::{ReasonCode, TestKind, Unresolved};
use serde::{Deserialize, Serialize};

/// How a batch job ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum OutcomeKind {
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
pub(crate) enum InfraSubtype {
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
pub(crate) enum RecordReason {
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

/// Elasticsearch's `deriveOutcome`, with its newest rules:
/// `timedOut = rc 124, or rc 137 at or past the threshold`; then the first
/// rule that matches: real failures → flaky_detected; timed out and out of
/// heap → infra_fail (oom, still timed out: a JVM out of heap often hangs);
/// timed out → timeout; rc 137 → infra_fail (oom_killed); no test case and
/// the build skipped every requested Test task → not_applicable
/// (`task-skipped`; before the rc rule, because a REST loop that ran no test
/// exits 3); rc ≠ 0 or out of heap → infra_fail (oom when out of heap); no
/// test case → hang; else clean_pass.
pub(crate) fn derive_outcome(facts: JobFacts, timeout_threshold_sec: u64) -> Outcome {
    let long = facts.duration_sec >= timeout_threshold_sec;
    let timed_out = facts.rc == 124 || (facts.rc == 137 && long);
    let oom = facts.oom_detected.then_some(InfraSubtype::Oom);
    let of = |outcome, timed_out, infra_subtype| Outcome {
        outcome,
        timed_out,
        infra_subtype,
    };
    if facts.real_failures > 0 {
        of(OutcomeKind::FlakyDetected, timed_out, None)
    } else if timed_out && facts.oom_detected {
        of(OutcomeKind::InfraFail, true, oom)
    } else if timed_out {
        of(OutcomeKind::Timeout, true, None)
    } else if facts.rc == 137 {
        of(OutcomeKind::InfraFail, false, Some(InfraSubtype::OomKilled))
    } else if facts.all_tasks_skipped && facts.total_cases == 0 {
        of(OutcomeKind::NotApplicable, false, None)
    } else if facts.rc != 0 || facts.oom_detected {
        of(OutcomeKind::InfraFail, false, oom)
    } else if facts.total_cases == 0 {
        of(OutcomeKind::Hang, false, None)
    } else {
        of(OutcomeKind::CleanPass, false, None)
    }
}

/// At most this many failing classes are listed in a payload.
pub(crate) const MAX_FAILING_CLASSES: usize = 50;

/// One job's entry in `flakiness-outcomes.json`, fields in Elasticsearch's order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct JobPayload {
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
    #[serde(skip_serializing_if = "Option::is_none")]
    pub infra_subtype: Option<InfraSubtype>,
    /// Set on `not_applicable` (the reason code, `task-skipped` for a batch
    /// the build skipped) and `build_failed` (`precompile`).
    #[serde(skip_serializing_if = "Option::is_none")]
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
    /// The payload of a job from what it recorded and the report of its own
    /// XML. `totalCases` counts executions (passed, failed, suite timeouts):
    /// a job whose cases were all skipped ran no test and is a `hang`
    /// (Elasticsearch's counted skipped cases and called it a clean pass).
    ///
    /// A failure of type `java.lang.OutOfMemoryError` (whatever its message)
    /// is the test JVM running out of heap, not evidence of flakiness: it does
    /// not count as a real failure, and it makes the job out of heap as a
    /// heap dump does, so such a batch is an `infra_fail` (`oom`) rather than
    /// `flaky_detected`.
    pub(crate) fn judged(
        job: &JobRecord,
        report: &Report,
        timeout_threshold_sec: u64,
    ) -> JobPayload {
        let heap_failures: u64 = report.tests.iter().map(|t| t.heap_failures).sum();
        let real_failures = report.summary.failed.saturating_sub(heap_failures);
        // Classes JUnit found no test in fail Gradle's task (rc 1) but are no
        // verdict: with no real failure, that exit says nothing of the tests.
        let no_test_only = !report.not_a_test.is_empty() && real_failures == 0;
        // Unselected tests of a whole-task run that failed fail its Gradle
        // run too, and are no verdict either.
        let neighbours_only = real_failures == 0
            && report
                .neighbours
                .as_ref()
                .is_some_and(|n| !n.failing.is_empty());
        let facts = JobFacts {
            rc: if (no_test_only || neighbours_only) && job.rc == 1 {
                0
            } else {
                job.rc
            },
            duration_sec: job.duration_sec,
            real_failures,
            total_cases: report.summary.executions,
            oom_detected: job.oom_detected || heap_failures > 0,
            all_tasks_skipped: job.all_tasks_skipped,
        };
        let mut outcome = derive_outcome(facts, timeout_threshold_sec);
        let nothing_but_no_tests = no_test_only && facts.total_cases == 0;
        if nothing_but_no_tests && outcome.outcome == OutcomeKind::Hang {
            outcome.outcome = OutcomeKind::NotApplicable;
        }
        let reason = match outcome.outcome {
            OutcomeKind::NotApplicable if nothing_but_no_tests => {
                Some(RecordReason::Code(ReasonCode::NotATest))
            }
            OutcomeKind::NotApplicable => Some(RecordReason::TaskSkipped),
            _ => None,
        };
        JobPayload {
            job_id: job.job_id.clone(),
            step_key: job.step_key.clone(),
            kind: job.kind.clone(),
            rc: job.rc,
            duration_sec: job.duration_sec,
            real_failures,
            suite_timeouts: report.summary.suite_timeouts,
            total_cases: facts.total_cases,
            outcome: outcome.outcome,
            timed_out: outcome.timed_out,
            failing_classes: failing_classes(report),
            infra_subtype: outcome.infra_subtype,
            reason,
            skipped: job.skipped.clone(),
            heap_failures,
            // A test dependent on its condition passed and failed: flaky too.
            flaky_tests: count_verdicts(report, VerdictKind::is_flaky),
            broken_tests: count_verdicts(report, |k| k == VerdictKind::Broken),
        }
    }

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
}

impl JobPayload {
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

/// The tests of `report` whose verdict `is`.
fn count_verdicts(report: &Report, is: impl Fn(VerdictKind) -> bool) -> u64 {
    let of = |t: &&TestReport| t.failures > 0 && is(verdict::verdict(t));
    report.tests.iter().filter(of).count() as u64
}

/// Distinct classes with real failures, most failing test first, at most 50.
pub(crate) fn failing_classes(report: &Report) -> Vec<String> {
    let mut classes: Vec<String> = Vec::new();
    for t in report.tests.iter().filter(|t| t.failures > t.heap_failures) {
        if classes.len() == MAX_FAILING_CLASSES {
            break;
        }
        if !classes.contains(&t.class) {
            classes.push(t.class.clone());
        }
    }
    classes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_outcome_is_named_as_the_json_names_it() {
        use OutcomeKind::*;
        for kind in [
            CleanPass,
            FlakyDetected,
            Timeout,
            Hang,
            InfraFail,
            NotApplicable,
            BuildFailed,
        ] {
            assert_eq!(serde_json::to_value(kind).unwrap(), kind.as_str());
        }
    }

    const T: u64 = 3480;

    fn derive(rc: i32, duration_sec: u64, real_failures: u64, total_cases: u64) -> Outcome {
        derive_with(rc, duration_sec, real_failures, total_cases, T)
    }

    fn derive_with(rc: i32, dur: u64, real: u64, cases: u64, threshold: u64) -> Outcome {
        derive_outcome(
            JobFacts {
                rc,
                duration_sec: dur,
                real_failures: real,
                total_cases: cases,
                oom_detected: false,
                all_tasks_skipped: false,
            },
            threshold,
        )
    }

    fn is(outcome: OutcomeKind, timed_out: bool, infra_subtype: Option<InfraSubtype>) -> Outcome {
        Outcome {
            outcome,
            timed_out,
            infra_subtype,
        }
    }

    #[test]
    fn derives_outcomes_like_the_reference() {
        use OutcomeKind::*;
        assert_eq!(derive(0, 30, 0, 2), is(CleanPass, false, None));
        assert_eq!(derive(1, 30, 1, 2), is(FlakyDetected, false, None));
        assert_eq!(derive(124, 3400, 2, 50), is(FlakyDetected, true, None));
        assert_eq!(derive(124, 100, 0, 5), is(Timeout, true, None));
        assert_eq!(derive(137, 4000, 0, 5), is(Timeout, true, None));
        assert_eq!(
            derive(137, 20, 0, 5),
            is(InfraFail, false, Some(InfraSubtype::OomKilled))
        );
        assert_eq!(derive(137, 3480, 0, 5), is(Timeout, true, None));
        assert_eq!(
            derive(137, 3479, 0, 5),
            is(InfraFail, false, Some(InfraSubtype::OomKilled))
        );
        assert_eq!(derive_with(137, 1000, 0, 5, 900), is(Timeout, true, None));
        assert_eq!(
            derive_with(137, 1000, 0, 5, 1200),
            is(InfraFail, false, Some(InfraSubtype::OomKilled))
        );
        assert_eq!(derive(1, 30, 0, 5), is(InfraFail, false, None));
        assert_eq!(derive(0, 30, 0, 0), is(Hang, false, None));
        let skipped = |rc, cases, real| {
            derive_outcome(
                JobFacts {
                    rc,
                    total_cases: cases,
                    real_failures: real,
                    all_tasks_skipped: true,
                    ..JobFacts::default()
                },
                T,
            )
        };
        assert_eq!(skipped(0, 0, 0), is(NotApplicable, false, None));
        assert_eq!(
            skipped(3, 0, 0),
            is(NotApplicable, false, None),
            "a REST loop's rc"
        );
        assert_eq!(skipped(1, 4, 0), is(InfraFail, false, None));
        assert_eq!(skipped(1, 4, 1), is(FlakyDetected, false, None));
        assert_eq!(skipped(124, 0, 0), is(Timeout, true, None));
        let oom = derive_outcome(
            JobFacts {
                rc: 1,
                oom_detected: true,
                ..JobFacts::default()
            },
            T,
        );
        assert_eq!(oom, is(InfraFail, false, Some(InfraSubtype::Oom)));
        let oom_but_flaky = derive_outcome(
            JobFacts {
                rc: 1,
                real_failures: 1,
                oom_detected: true,
                ..JobFacts::default()
            },
            T,
        );
        assert_eq!(oom_but_flaky, is(FlakyDetected, false, None));
        // A JVM out of heap often hangs: timed out and out of heap is infrastructure.
        let oom_timed_out = |rc, duration_sec| {
            derive_outcome(
                JobFacts {
                    rc,
                    duration_sec,
                    total_cases: 3,
                    oom_detected: true,
                    ..JobFacts::default()
                },
                T,
            )
        };
        let oom_hang = is(InfraFail, true, Some(InfraSubtype::Oom));
        assert_eq!(oom_timed_out(124, 100), oom_hang);
        assert_eq!(oom_timed_out(137, T), oom_hang);
        assert_eq!(
            oom_timed_out(137, 20),
            is(InfraFail, false, Some(InfraSubtype::OomKilled))
        );
        assert_eq!(
            oom_timed_out(0, 20),
            is(InfraFail, false, Some(InfraSubtype::Oom)),
            "an OutOfMemoryError in a build that ignores test failures"
        );
    }

    #[test]
    fn the_build_failed_record_matches_the_reference() {
        assert_eq!(
            serde_json::to_string(&JobPayload::build_failed()).unwrap(),
            r#"{"jobId":"build-failed:precompile","stepKey":"flakiness-orchestration:compile","kind":"","rc":1,"durationSec":0,"realFailures":0,"suiteTimeouts":0,"totalCases":0,"outcome":"build_failed","timedOut":false,"failingClasses":[],"reason":"precompile"}"#
        );
    }

    #[test]
    fn payload_fields_come_in_the_reference_order() {
        let payload = JobPayload {
            job_id: "j1".into(),
            step_key: "flakiness-detection:unit".into(),
            kind: Some(TestKind::Unit),
            rc: 137,
            duration_sec: 20,
            real_failures: 0,
            suite_timeouts: 0,
            total_cases: 3,
            outcome: OutcomeKind::InfraFail,
            timed_out: false,
            failing_classes: vec![],
            infra_subtype: Some(InfraSubtype::OomKilled),
            reason: None,
            skipped: None,
            heap_failures: 0,
            flaky_tests: 0,
            broken_tests: 0,
        };
        assert_eq!(
            serde_json::to_string(&payload).unwrap(),
            r#"{"jobId":"j1","stepKey":"flakiness-detection:unit","kind":"unit","rc":137,"durationSec":20,"realFailures":0,"suiteTimeouts":0,"totalCases":3,"outcome":"infra_fail","timedOut":false,"failingClasses":[],"infraSubtype":"oom_killed"}"#
        );
        let clean = JobPayload {
            infra_subtype: None,
            outcome: OutcomeKind::CleanPass,
            rc: 0,
            ..payload
        };
        let text = serde_json::to_string(&clean).unwrap();
        assert!(
            !text.contains("infraSubtype") && !text.contains("reason"),
            "{text}"
        );
    }
}
