//! What a local run did and proved, and the exit status it earns.

use crate::analyze::model::outcome::OutcomeKind;
use crate::analyze::Report;
use crate::domain::Unresolved;
use crate::run::invoke::IterationVerdict;
use crate::run::local::BatchRun;
use crate::triage::TriageTotals;
use crate::{Exit, Observed};
use std::path::PathBuf;
use std::time::Duration;

/// What a local run came to.
#[derive(Debug)]
pub(crate) enum LocalOutcome {
    /// No test could run: nothing ran. The tests found that cannot run here,
    /// if any, were not checked.
    NothingSelected(Vec<Unresolved>),
    Ran(Box<RunRecord>),
}

/// A run that happened.
#[derive(Debug)]
pub(crate) struct RunRecord {
    /// Every execution of this run (the run folder's XML), with the triage's
    /// verdicts when one ran.
    pub report: Report,
    /// Its reports and logs, and a copy of its final report.
    pub run_dir: PathBuf,
    /// Batches planned.
    pub planned: usize,
    /// The batches that ran, in order.
    pub runs: Vec<BatchRun>,
    /// Wall time of the batches.
    pub took: Duration,
    /// A selected test ran fewer times than planned.
    pub below_plan: bool,
    /// The triage after the run, when one replayed anything.
    pub triage: Option<TriageTotals>,
}

impl LocalOutcome {
    /// The exit status; `kept`: the final report was kept where it was asked
    /// for.
    pub(crate) fn exit(&self, kept: bool) -> Exit {
        match self {
            LocalOutcome::NothingSelected(not_checked) if not_checked.is_empty() => Exit::Clean,
            // Tests were selected, and none could be checked: no pass.
            LocalOutcome::NothingSelected(_) => Exit::Infra,
            LocalOutcome::Ran(ran) => ran.exit(kept),
        }
    }
}

impl RunRecord {
    /// The run was interrupted: the report counts only what ran before.
    pub(crate) fn partial(&self) -> bool {
        self.report.around.partial
    }

    /// What the run observed.
    pub(crate) fn observed(&self) -> Observed {
        let verdicts = self.runs.iter().flat_map(|r| &r.done.verdicts);
        let seen = observed(&self.report, self.below_plan);
        Observed {
            interrupted: seen.interrupted
                || verdicts
                    .clone()
                    .any(|v| *v == IterationVerdict::Interrupted)
                || self.triage.as_ref().is_some_and(|t| t.interrupted),
            untrustworthy: seen.untrustworthy || verdicts.clone().any(|v| !v.is_trustworthy()),
            ..seen
        }
    }

    /// The exit status; a final report that could not be kept leaves no
    /// trustworthy result, though a proven failure stays proven.
    pub(crate) fn exit(&self, kept: bool) -> Exit {
        let observed = self.observed();
        Exit::of(Observed {
            untrustworthy: observed.untrustworthy || !kept,
            ..observed
        })
    }
}

/// What a run's report says it observed (`local`'s, and `analyze` of its
/// run folder): the real failures of its selected tests (a whole-task
/// run's neighbours are set apart, never the verdict; an `OutOfMemoryError`
/// of a JVM out of heap is infrastructure); no trustworthy result when a
/// selected test ran fewer times than planned, an unmuted test could not be
/// checked, or a batch ended without a result.
pub(crate) fn observed(report: &Report, below_plan: bool) -> Observed {
    let around = &report.around;
    Observed {
        interrupted: around.partial,
        real_failures: report
            .tests
            .iter()
            .map(|t| t.failures - t.heap_failures)
            .sum(),
        executions: report.summary.executions,
        untrustworthy: below_plan
            || crate::domain::unmute_unchecked(&around.not_checked)
            || around.batches.iter().any(|b| {
                matches!(
                    b.outcome,
                    OutcomeKind::InfraFail | OutcomeKind::Timeout | OutcomeKind::Hang
                )
            }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyze::model::outcome::JobPayload;
    use crate::analyze::{self, AnalyzeOptions};
    use crate::domain::TestKind;

    fn ran(executions: u64, real_failures: u64) -> RunRecord {
        let dir = tempfile::tempdir().unwrap();
        let mut report = analyze::analyze_root(dir.path(), &AnalyzeOptions::default());
        report.summary.executions = executions;
        // The exit follows the report's tests: one with the batch's failures.
        if real_failures > 0 {
            let runs = executions.max(real_failures);
            let t = crate::analyze::model::report::TestReport::sample(
                "a.FooTests",
                "m",
                runs - real_failures,
                real_failures,
            );
            report.tests.push(t);
        }
        let batch = JobPayload {
            job_id: "batch-1".into(),
            step_key: "flakiness-detection:unit".into(),
            kind: Some(TestKind::Unit),
            rc: i32::from(real_failures > 0),
            duration_sec: 1,
            real_failures,
            suite_timeouts: 0,
            total_cases: executions,
            outcome: match real_failures {
                0 => OutcomeKind::CleanPass,
                _ => OutcomeKind::FlakyDetected,
            },
            timed_out: false,
            failing_classes: Vec::new(),
            infra_subtype: None,
            reason: None,
            skipped: None,
            heap_failures: 0,
            flaky_tests: 0,
            broken_tests: 0,
        };
        report.around.batches = vec![batch];
        RunRecord {
            report,
            run_dir: dir.path().to_path_buf(),
            planned: 1,
            runs: Vec::new(),
            took: Duration::ZERO,
            below_plan: false,
            triage: None,
        }
    }

    #[test]
    fn a_report_that_could_not_be_kept_leaves_no_clean_result_but_a_proven_failure() {
        assert_eq!(
            LocalOutcome::NothingSelected(Vec::new()).exit(true),
            Exit::Clean
        );
        let bwc = Unresolved {
            input: "qa/x/src/javaRestTest/java/a/UpgradeIT.java".into(),
            reason_code: crate::domain::ReasonCode::NoRunnableTask,
            reason: "not applicable: no enabled Test task runs it".into(),
            origin: crate::domain::Origin::Changed,
        };
        assert_eq!(
            LocalOutcome::NothingSelected(vec![bwc]).exit(true),
            Exit::Infra,
            "nothing could be checked"
        );
        let clean = LocalOutcome::Ran(Box::new(ran(5, 0)));
        assert_eq!(clean.exit(true), Exit::Clean);
        assert_eq!(clean.exit(false), Exit::Infra);
        let flaky = LocalOutcome::Ran(Box::new(ran(5, 1)));
        assert_eq!(flaky.exit(true), Exit::TestFailures);
        assert_eq!(flaky.exit(false), Exit::TestFailures);
        assert_eq!(ran(0, 0).exit(true), Exit::Infra, "nothing executed");
        let below = RunRecord {
            below_plan: true,
            ..ran(5, 0)
        };
        assert_eq!(below.exit(true), Exit::Infra, "fewer runs than planned");
        let mut partial = ran(5, 1);
        partial.report.around.partial = true;
        assert_eq!(partial.exit(true), Exit::Interrupted);
    }

    /// The unmute gate: an unmuted test that cannot be checked leaves the
    /// run without a trustworthy result (3) although the rest passed; a
    /// changed one leaves the exit code to what ran; a proven failure wins.
    #[test]
    fn an_unmuted_test_that_cannot_be_checked_exits_3() {
        let unchecked = |origin| Unresolved {
            input: "a.UpgradeIT".into(),
            reason_code: crate::domain::ReasonCode::NoRunnableTask,
            reason: "not applicable: no enabled Test task runs it".into(),
            origin,
        };
        let with = |origin, failures| {
            let mut ran = ran(5, failures);
            ran.report.around.not_checked = vec![unchecked(origin)];
            ran
        };
        assert_eq!(
            with(crate::domain::Origin::Unmuted, 0).exit(true),
            Exit::Infra
        );
        assert_eq!(
            with(crate::domain::Origin::Changed, 0).exit(true),
            Exit::Clean
        );
        assert_eq!(
            with(crate::domain::Origin::Unmuted, 1).exit(true),
            Exit::TestFailures
        );
    }
}
