//! What a report's figures mean: a failing test's verdict, the report's
//! severity. One leaf that aggregation, rendering and the outcome payload share.

use super::condition::{Context, Rate, Repetition};
use super::report::{Report, Severity, TestReport};
use serde::Serialize;

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
pub(crate) fn verdict(t: &TestReport) -> &'static str {
    if heap_only(t) {
        "out of heap"
    } else if t.by_condition.context_dependent() {
        "context-dependent"
    } else if t.by_condition.first_execution_dependent() {
        "first-execution-dependent"
    } else if t.passes > 0 {
        "flaky"
    } else if t.failures > 1 {
        "broken"
    } else {
        "failed once"
    }
}

/// A test's verdict in the JSON report, with the executions it rests on.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Verdict {
    /// `clean`, `flaky`, `context-dependent`, `first-execution-dependent`,
    /// `broken`, `failed-once`, `out-of-heap`.
    pub kind: &'static str,
    /// `first`: it rests on the first executions in a JVM only (the CI
    /// condition); `all`: on every execution (of its whole-task runs only,
    /// for `context-dependent`: `context` then says `task`).
    pub executions: &'static str,
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
            kind: "unjudged",
            executions: "all",
            context: Vec::new(),
            repetition: Vec::new(),
            rate: Rate::new(0, 0),
        }
    }
}

/// `t` with its verdict.
pub(crate) fn judged(mut t: TestReport) -> TestReport {
    t.verdict = judge(&t);
    t
}

/// The verdict of `t` and the condition it is about. The rate it rests on
/// is the CI condition's where the executions tell one apart: a
/// context-dependent test's whole-task runs (CI runs the whole task, one
/// fresh JVM each), a first-execution-dependent test's first executions;
/// otherwise every execution, pooled (no condition was told apart from
/// another).
fn judge(t: &TestReport) -> Verdict {
    let kind = match (t.failures, verdict(t)) {
        (0, _) => "clean",
        (_, "out of heap") => "out-of-heap",
        (_, "failed once") => "failed-once",
        (_, kind) => kind,
    };
    let first_only = kind == "first-execution-dependent";
    let task_only = kind == "context-dependent";
    let rows = t.by_condition.conditions.iter().filter(|r| {
        (!first_only || r.condition.execution == super::condition::Position::First)
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
        executions: if first_only { "first" } else { "all" },
        context,
        repetition,
        rate,
    }
}

/// `error` with real failures; `warning` when the compile gate failed, with
/// suite timeouts, or with unreadable reports; `success` otherwise.
pub(crate) fn severity(report: &Report, build_failed: bool) -> Severity {
    if build_failed {
        Severity::Warning
    } else if report.summary.failed > 0 {
        Severity::Error
    } else if report.summary.suite_timeouts > 0
        || !report.files.truncated.is_empty()
        || !report.files.malformed.is_empty()
        || !report.files.unreadable_dirs.is_empty()
    {
        Severity::Warning
    } else {
        Severity::Success
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
        assert_eq!(t.verdict.kind, "flaky");
        assert_eq!(t.verdict.context, [Context::Alone, Context::Task]);
        let c = t.by_condition.context.as_ref().unwrap();
        crate::stats::assert_near(c.p_value, 0.361702, 1e-5);
        let t = in_both((0, 30), (3, 3));
        assert_eq!(t.verdict.kind, "context-dependent");
        assert_eq!(t.verdict.context, [Context::Task]);
        assert_eq!((t.verdict.rate.failures, t.verdict.rate.runs), (3, 3));
        let t = in_both((2, 30), (0, 17));
        assert_ne!(t.verdict.kind, "clean");
        assert_eq!(in_both((0, 30), (0, 17)).verdict.kind, "clean");
    }
}
