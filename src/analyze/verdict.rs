//! What a report's figures mean: a failing test's verdict, the report's
//! severity. One leaf that aggregation, rendering and the outcome payload share.

use super::report::{Report, Severity, TestReport};

/// The type of the failure a test JVM out of heap reports.
pub(crate) const OOM_ERROR: &str = "java.lang.OutOfMemoryError";

/// Every failure of `test` was the JVM running out of heap.
pub(crate) fn heap_only(test: &TestReport) -> bool {
    test.failures > 0 && test.heap_failures == test.failures
}

/// What a failing test's executions say it is: flaky (it passed and failed),
/// broken (it failed every one of several), unknown from one execution, or
/// out of heap (every failure an `OutOfMemoryError`).
pub(crate) fn verdict(t: &TestReport) -> &'static str {
    if heap_only(t) {
        "out of heap"
    } else if t.passes > 0 {
        "flaky"
    } else if t.failures > 1 {
        "broken"
    } else {
        "failed once"
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
