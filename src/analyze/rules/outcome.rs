//! The outcome of one batch, from its exit code, duration, heap dumps and
//! what its reports say (the types are `model::outcome`).

use crate::analyze::model::outcome::*;
use crate::analyze::model::report::{TestReport, VerdictKind};
use crate::analyze::rules::verdict;
use crate::analyze::Report;
use crate::domain::ReasonCode;

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
}

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
    use crate::domain::TestKind;

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
