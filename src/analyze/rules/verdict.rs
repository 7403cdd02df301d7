//! What a report's figures mean: a failing test's verdict, the report's
//! severity. One leaf that aggregation, rendering and the outcome payload share.

use crate::analyze::model::counts::Executions;
use crate::analyze::model::counts::Rate;
pub use crate::analyze::model::report::Verdict;
use crate::analyze::model::report::{Report, Severity, TestReport, VerdictKind};
use crate::condition::{Context, Repetition};

/// The type of the failure a test JVM out of heap reports.
pub(crate) const OOM_ERROR: &str = "java.lang.OutOfMemoryError";

/// Every failure of `test` was the JVM running out of heap.
pub(crate) fn heap_only(test: &TestReport) -> bool {
    test.failures > 0 && test.heap_failures == test.failures
}

/// What a failing test's executions say it is: context-dependent (its rates
/// alone and in its whole task differ: CI runs it in its task, so that
/// rate is its CI-condition rate), first-execution-dependent (its first executions in a JVM failed more than
/// its repeats: CI, where every execution is a first one, sees the first
/// executions' rate), broken (it failed every one of several), unknown from
/// one execution, or out of heap (every failure an `OutOfMemoryError`).
pub(crate) fn verdict(t: &TestReport) -> VerdictKind {
    let (context, first) = (&t.by_condition.context, t.by_condition.first_execution);
    if heap_only(t) {
        VerdictKind::OutOfHeap
    } else if context.as_ref().is_some_and(|c| c.dependent) {
        VerdictKind::ContextDependent
    } else if first.is_some_and(|f| f.dependent) {
        VerdictKind::FirstExecutionDependent
    } else if first.is_some_and(|f| f.warm) {
        VerdictKind::WarmJvmDependent
    } else if t.passes > 0 {
        VerdictKind::Flaky
    } else if t.failures > 1 {
        VerdictKind::Broken
    } else {
        VerdictKind::FailedOnce
    }
}

/// `t` with its verdict.
pub(crate) fn judged(mut t: TestReport) -> TestReport {
    t.verdict = judge(&t, false);
    t
}

/// Judges `t` again, its class known to accumulate state in one JVM by
/// itself: a clean verdict then rests on its first executions in a fresh
/// JVM (what CI runs), since its repeats ran in a JVM its own leak had
/// changed. A failing verdict keeps every execution: a failure is never
/// taken back.
pub(crate) fn rest_on_fresh_jvms(t: &mut TestReport) {
    t.verdict = judge(t, true);
}

/// The verdict of `t` and the condition it is about. The rate it rests on
/// is the CI condition's where the executions tell one apart: a
/// context-dependent test's whole-task runs (CI runs the whole task, one
/// fresh JVM each), a first-execution-dependent test's first executions;
/// otherwise every execution, pooled (no condition was told apart from
/// another). `drifts`: a clean test's class accumulates state by itself (see
/// [`rest_on_fresh_jvms`]).
fn judge(t: &TestReport, drifts: bool) -> Verdict {
    let kind = match t.failures {
        0 => VerdictKind::Clean,
        _ => verdict(t),
    };
    let clean_firsts = drifts
        && kind == VerdictKind::Clean
        && t.by_condition
            .first_execution
            .is_some_and(|f| f.repeat.runs > 0);
    let first_only = kind == VerdictKind::FirstExecutionDependent || clean_firsts;
    let task_only = kind == VerdictKind::ContextDependent;
    let rows = t.by_condition.conditions.iter().filter(|r| {
        (!first_only || r.condition.is_first())
            && (!task_only || r.condition.context == Context::Task)
    });
    let mut context: Vec<Context> = Vec::new();
    let mut repetition: Vec<Repetition> = Vec::new();
    for r in rows {
        if !context.contains(&r.condition.context) {
            context.push(r.condition.context);
        }
        if !repetition.contains(&r.condition.repetition) {
            repetition.push(r.condition.repetition);
        }
    }
    let rate = match (&t.by_condition.first_execution, &t.by_condition.context) {
        (_, Some(c)) if task_only => c.task,
        (Some(f), _) if first_only => f.first,
        _ => Rate::new(t.failures, t.runs),
    };
    Verdict {
        kind,
        executions: if first_only {
            Executions::First
        } else {
            Executions::All
        },
        context,
        repetition,
        rate,
    }
}

/// `error` with real failures; `warning` when the compile gate failed, with
/// suite timeouts, unreadable reports, or what leaves a clean result
/// incomplete (a selected test that never ran, a CI job without a status
/// file, a report step's missing input, REF's jobs without a result);
/// `success` otherwise.
pub(crate) fn severity(report: &Report) -> Severity {
    let around = &report.around;
    let incomplete = !report.not_executed.is_empty()
        || !around.input_problems.is_empty()
        || around.jobs.as_ref().is_some_and(|j| !j.missing.is_empty())
        || around
            .comparison
            .as_ref()
            .is_some_and(|c| !c.base_problems.is_empty());
    if around.build_failed {
        Severity::Warning
    } else if report.summary.failed > 0 {
        Severity::Error
    } else if incomplete
        || report.summary.suite_timeouts > 0
        || !report.files.truncated.is_empty()
        || !report.files.malformed.is_empty()
        || !report.files.unreadable_dirs.is_empty()
    {
        Severity::Warning
    } else {
        Severity::Success
    }
}

/// Settles the report's severity once what surrounds its tests is known.
pub(crate) fn settle(report: &mut Report) {
    report.summary.severity = severity(report);
}

#[cfg(test)]
impl TestReport {
    /// A test of `class` and `method` that passed and failed so many times
    /// (its failures assertions), judged, with no other evidence.
    pub(crate) fn sample(class: &str, method: &str, passes: u64, failures: u64) -> TestReport {
        let runs = passes + failures;
        judged(TestReport {
            class: class.into(),
            method: method.into(),
            kinds: vec!["test".into()],
            runs,
            plan: None,
            passes,
            failures,
            heap_failures: 0,
            suite_timeouts: 0,
            failure_rate: if runs == 0 {
                0.0
            } else {
                failures as f64 / runs as f64
            },
            ci95: crate::stats::wilson95(failures, runs),
            failure_kinds: crate::analyze::model::report::KindCounts(match failures {
                0 => vec![],
                n => vec![(crate::analyze::model::report::FailureKind::Assertion, n)],
            }),
            failing_seeds: vec![],
            reproduce: None,
            reproduce_context: None,
            run_members: Default::default(),
            examples: vec![],
            failing_runs: vec![],
            time_sec: 0.0,
            durations: Default::default(),
            failing_task: None,
            triage: None,
            by_condition: Default::default(),
            comparison: None,
            verdict: Verdict::unjudged(),
        })
    }
}

#[cfg(test)]
impl TestReport {
    /// A test with so many (failures, runs) alone and in its whole task,
    /// each execution a fresh JVM's, judged.
    pub(crate) fn in_contexts(
        class: &str,
        method: &str,
        alone: (u64, u64),
        task: (u64, u64),
    ) -> TestReport {
        use crate::analyze::model::counts::Conditions;
        use crate::analyze::model::counts::{Execution, Tally};
        use crate::condition::{Condition, Context, Position, Repetition};
        let mut tally = Tally::default();
        for (context, (failures, runs)) in [(Context::Alone, alone), (Context::Task, task)] {
            let condition = Condition {
                context,
                repetition: Repetition::FreshJvm,
                mechanism: None,
                execution: Some(Position::First),
            };
            for i in 0..runs {
                let e = Execution {
                    index: 1,
                    failed: i < failures,
                    time: Some(0.1),
                    threads: 0,
                };
                tally.add(condition, e);
            }
        }
        let failures = alone.0 + task.0;
        let mut t = TestReport::sample(class, method, alone.1 + task.1 - failures, failures);
        t.by_condition = Conditions::of(tally);
        judged(t)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn in_both(alone: (u64, u64), task: (u64, u64)) -> TestReport {
        TestReport::in_contexts("X", "y", alone, task)
    }

    /// A failure in either context is never clean: 0/30 alone and 1/17 in
    /// its task (scipy: p = 0.3617) is flaky on every execution; 0/30 alone
    /// and 3/3 in its task (p = 0.000183) is context-dependent, its rate the
    /// task's.
    #[test]
    fn a_failure_in_either_context_is_never_clean() {
        let t = in_both((0, 30), (1, 17));
        assert_eq!(t.verdict.kind, VerdictKind::Flaky);
        assert_eq!(t.verdict.context, [Context::Alone, Context::Task]);
        let c = t.by_condition.context.as_ref().unwrap();
        crate::stats::assert_near(c.p_value, 0.361702, 1e-5);
        let t = in_both((0, 30), (3, 3));
        assert_eq!(t.verdict.kind, VerdictKind::ContextDependent);
        assert_eq!(t.verdict.context, [Context::Task]);
        assert_eq!((t.verdict.rate.failures, t.verdict.rate.runs), (3, 3));
        let t = in_both((2, 30), (0, 17));
        assert_ne!(t.verdict.kind, VerdictKind::Clean);
        assert_eq!(in_both((0, 30), (0, 17)).verdict.kind, VerdictKind::Clean);
    }
}
