//! The outcome of one batch, from its exit code, duration, heap dumps and what
//! its reports say: the taxonomy of a Buildkite batch job, which `local` applies
//! to its batches too, and the payload object written for it (to
//! `flakiness-outcomes.json` on Buildkite, to the `batches` of `local`'s JSON).

use crate::analyze::report::TestReport;
use crate::analyze::Report;
use crate::domain::Unresolved;
use serde::Serialize;

/// How a batch job ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum OutcomeKind {
    CleanPass,
    FlakyDetected,
    Timeout,
    Hang,
    /// The build itself skipped Test tasks of the batch (an `onlyIf` that is
    /// false, a disabled task), and no real failure was recorded: all of them
    /// (no test case; nothing to judge, and no hang either), or some of them
    /// (the others passed, but the skipped ones' tests have no result, so
    /// this is no clean pass).
    SkippedByBuild,
    InfraFail,
    /// Assigned upstream: the test cannot be re-run by its bare task (BWC).
    NotApplicable,
    /// Assigned upstream: the compile gate failed, nothing ran.
    BuildFailed,
}

/// Why an `infra_fail` was one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum InfraSubtype {
    /// rc 137 on a short run: the kernel's OOM killer.
    OomKilled,
    /// rc ≠ 0 and a heap dump was found.
    Oom,
}

/// The derived outcome.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Outcome {
    pub outcome: OutcomeKind,
    /// The job ran into its time limit (orthogonal to the outcome).
    pub timed_out: bool,
    pub infra_subtype: Option<InfraSubtype>,
}

/// What the job's wrapper and reports say.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct JobFacts {
    pub rc: i32,
    pub duration_sec: u64,
    pub real_failures: u64,
    pub total_cases: u64,
    /// A heap dump was found after the run.
    pub oom_detected: bool,
    /// The build skipped some or all Test tasks of the batch.
    pub skipped_by_build: bool,
}

/// Elasticsearch's `deriveOutcome`: `timedOut = rc 124, or rc 137 at or past the
/// threshold`; then the first rule that matches: real failures → flaky_detected;
/// rc 124 → timeout; rc 137 → timeout past the threshold, else infra_fail
/// (oom_killed); no test case and the build skipped the batch's Test tasks →
/// skipped_by_build (ours: before the rc rule, because a REST loop that ran
/// no test exits 3); other rc ≠ 0 → infra_fail (oom when a heap dump was
/// found); no test case → hang; the build skipped some of the batch's Test
/// tasks → skipped_by_build (ours); else clean_pass.
pub fn derive_outcome(facts: JobFacts, timeout_threshold_sec: u64) -> Outcome {
    let long = facts.duration_sec >= timeout_threshold_sec;
    let timed_out = facts.rc == 124 || (facts.rc == 137 && long);
    let of = |outcome, timed_out, infra_subtype| Outcome {
        outcome,
        timed_out,
        infra_subtype,
    };
    if facts.real_failures > 0 {
        of(OutcomeKind::FlakyDetected, timed_out, None)
    } else if facts.rc == 124 || (facts.rc == 137 && long) {
        of(OutcomeKind::Timeout, true, None)
    } else if facts.rc == 137 {
        of(OutcomeKind::InfraFail, false, Some(InfraSubtype::OomKilled))
    } else if facts.skipped_by_build && facts.total_cases == 0 {
        of(OutcomeKind::SkippedByBuild, false, None)
    } else if facts.rc != 0 {
        let subtype = facts.oom_detected.then_some(InfraSubtype::Oom);
        of(OutcomeKind::InfraFail, false, subtype)
    } else if facts.total_cases == 0 {
        of(OutcomeKind::Hang, false, None)
    } else if facts.skipped_by_build {
        of(OutcomeKind::SkippedByBuild, false, None)
    } else {
        of(OutcomeKind::CleanPass, false, None)
    }
}

/// At most this many failing classes are listed in a payload.
pub const MAX_FAILING_CLASSES: usize = 50;

/// One job's entry in `flakiness-outcomes.json`, fields in Elasticsearch's order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct JobPayload {
    pub job_id: String,
    pub step_key: String,
    pub kind: String,
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
    /// Set on `not_applicable` (the reason code), `build_failed` (`precompile`)
    /// and `skipped_by_build` (the skipped tasks and why, in words).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// The job a payload describes, as its status file records it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Job {
    pub job_id: String,
    pub step_key: String,
    pub kind: String,
    pub rc: i32,
    pub duration_sec: u64,
    pub oom_detected: bool,
    /// The batch's Test tasks the build skipped, in words (all of them were).
    pub skipped: Option<String>,
}

impl JobPayload {
    /// The payload of a job from what it recorded and the report of its own XML.
    ///
    /// When the job saw a heap dump written during its run, failures that are
    /// the test JVM's `OutOfMemoryError` are the heap running out, not evidence
    /// of flakiness: they do not count as real failures, so such a batch is an
    /// `infra_fail` (`oom`) rather than `flaky_detected`.
    pub fn judged(job: &Job, report: &Report, timeout_threshold_sec: u64) -> JobPayload {
        if job.oom_detected {
            JobPayload::for_job(job, &without_heap_failures(report), timeout_threshold_sec)
        } else {
            JobPayload::for_job(job, report, timeout_threshold_sec)
        }
    }

    /// The payload of a job from its status and the report of its own XML, as
    /// they are. `totalCases` counts executions (passed, failed, suite
    /// timeouts): a job whose cases were all skipped ran no test and is a
    /// `hang` (Elasticsearch's counted skipped cases and called it a clean pass).
    fn for_job(job: &Job, report: &Report, timeout_threshold_sec: u64) -> JobPayload {
        let facts = JobFacts {
            rc: job.rc,
            duration_sec: job.duration_sec,
            real_failures: report.summary.failed,
            total_cases: report.summary.executions,
            oom_detected: job.oom_detected,
            skipped_by_build: job.skipped.is_some(),
        };
        let outcome = derive_outcome(facts, timeout_threshold_sec);
        let reason = match outcome.outcome {
            OutcomeKind::SkippedByBuild => job.skipped.clone(),
            _ => None,
        };
        JobPayload {
            job_id: job.job_id.clone(),
            step_key: job.step_key.clone(),
            kind: job.kind.clone(),
            rc: job.rc,
            duration_sec: job.duration_sec,
            real_failures: facts.real_failures,
            suite_timeouts: report.summary.suite_timeouts,
            total_cases: facts.total_cases,
            outcome: outcome.outcome,
            timed_out: outcome.timed_out,
            failing_classes: failing_classes(report),
            infra_subtype: outcome.infra_subtype,
            reason,
        }
    }
}

impl JobPayload {
    /// A payload that no job produced: all counts zero.
    fn recorded(
        job_id: String,
        step_key: String,
        kind: String,
        rc: i32,
        outcome: OutcomeKind,
        reason: &str,
    ) -> Self {
        JobPayload {
            job_id,
            step_key,
            kind,
            rc,
            duration_sec: 0,
            real_failures: 0,
            suite_timeouts: 0,
            total_cases: 0,
            outcome,
            timed_out: false,
            failing_classes: Vec::new(),
            infra_subtype: None,
            reason: Some(reason.to_string()),
        }
    }

    /// The record of a test that was found but has no Test task to re-run it:
    /// a record no job produced, with nothing known of its kind; its reason is
    /// the selection's reason code.
    pub fn not_applicable(test: &Unresolved) -> Self {
        Self::recorded(
            format!("not-applicable:{}", test.input),
            String::new(),
            String::new(),
            0,
            OutcomeKind::NotApplicable,
            test.reason_code.as_str(),
        )
    }

    /// The compile gate failed, so no batch ran.
    pub fn build_failed() -> Self {
        Self::recorded(
            "build-failed:precompile".into(),
            "flakiness-detection:precompile".into(),
            String::new(),
            1,
            OutcomeKind::BuildFailed,
            "precompile",
        )
    }
}

const OOM_ERROR: &str = "java.lang.OutOfMemoryError";

/// `report` without the failures of tests whose kept failure examples are all
/// `OutOfMemoryError`s (a test keeps its first few examples, so a test that
/// failed both ways more often than that is judged by its first failures).
/// For counting only: a rendered report keeps every failure it read.
fn without_heap_failures(report: &Report) -> Report {
    let mut report = report.clone();
    for test in &mut report.tests {
        if test.failures > 0 && heap_only(test) {
            report.summary.failed -= test.failures.min(report.summary.failed);
            test.failures = 0;
        }
    }
    report
}

/// The kept failure examples of `test` are all the JVM running out of heap.
pub fn heap_only(test: &TestReport) -> bool {
    !test.examples.is_empty() && test.examples.iter().all(|e| e.type_name == OOM_ERROR)
}

/// Distinct classes with real failures, most failing test first, at most 50.
pub fn failing_classes(report: &Report) -> Vec<String> {
    let mut classes: Vec<String> = Vec::new();
    for t in report.tests.iter().filter(|t| t.failures > 0) {
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
                skipped_by_build: false,
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
                    skipped_by_build: true,
                    ..JobFacts::default()
                },
                T,
            )
        };
        assert_eq!(skipped(0, 0, 0), is(SkippedByBuild, false, None));
        assert_eq!(
            skipped(3, 0, 0),
            is(SkippedByBuild, false, None),
            "a REST loop's rc"
        );
        assert_eq!(
            skipped(0, 4, 0),
            is(SkippedByBuild, false, None),
            "some tasks ran and passed, the skipped ones' tests have no result"
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
    }

    #[test]
    fn the_build_failed_record_matches_the_reference() {
        assert_eq!(
            serde_json::to_string(&JobPayload::build_failed()).unwrap(),
            r#"{"jobId":"build-failed:precompile","stepKey":"flakiness-detection:precompile","kind":"","rc":1,"durationSec":0,"realFailures":0,"suiteTimeouts":0,"totalCases":0,"outcome":"build_failed","timedOut":false,"failingClasses":[],"reason":"precompile"}"#
        );
    }

    #[test]
    fn payload_fields_come_in_the_reference_order() {
        let payload = JobPayload {
            job_id: "j1".into(),
            step_key: "flakiness-detection:unit".into(),
            kind: "unit".into(),
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
