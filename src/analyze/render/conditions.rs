//! The conditions in the markdown report: which conditions the counts come
//! from (one summary line), first executions in a JVM against repeats (the
//! First executions section), and what a clean test's first executions
//! bound.

use super::{more, MAX_LISTED};
use crate::analyze::model::counts::{FirstExecution, Rate};
use crate::analyze::model::report::{Report, TestReport};
use crate::condition::Condition;
use crate::markdown::{self, code};
use crate::stats::{self, percent, Round};

/// `- Conditions: alone · in-jvm (junit4-runner) · first in its JVM: 14
/// executions; …`: every count of the report comes from one of these.
pub(super) fn summary_line(report: &Report) -> Option<String> {
    let mut totals: Vec<(Condition, u64)> = Vec::new();
    for row in report.tests.iter().flat_map(|t| &t.by_condition.conditions) {
        match totals.iter_mut().find(|(c, _)| *c == row.condition) {
            Some((_, n)) => *n += row.rate.runs,
            None => totals.push((row.condition, row.rate.runs)),
        }
    }
    if totals.is_empty() {
        return None;
    }
    totals.sort();
    let parts: Vec<String> = totals
        .iter()
        .map(|(c, n)| format!("{} ({n})", c.describe()))
        .collect();
    Some(format!("- Conditions (executions): {}", parts.join("; ")))
}

/// `3/25 = 12% (3.2%–31%)`.
pub(super) fn rate(r: &Rate) -> String {
    format!(
        "{}/{} = {} ({}–{})",
        r.failures,
        r.runs,
        percent(r.failure_rate, Round::Nearest),
        percent(r.ci95[0], Round::Down),
        percent(r.ci95[1], Round::Up)
    )
}

/// The failing tests whose first executions in a JVM can be told from their
/// repeats: each one's two rates, Fisher's p and what it means for CI.
pub(super) fn first_executions(shown: &[&TestReport], md: &mut Vec<String>) {
    let compared: Vec<(&TestReport, &FirstExecution)> = shown
        .iter()
        .filter_map(|t| Some((*t, t.by_condition.first_execution.as_ref()?)))
        .filter(|(_, f)| f.first.failures > 0 || f.repeat.failures > 0)
        .collect();
    if compared.is_empty() {
        return;
    }
    md.push("### First executions in a JVM".into());
    md.push(
        "CI runs each test once per fresh test JVM: a first execution. Repeats in the same JVM \
         share its warm state, so a test failing only on a cold start fails there less often."
            .into(),
    );
    for (t, f) in compared.iter().take(MAX_LISTED) {
        let name = code(&format!("{}.{}", t.class, t.method));
        let what = first_execution_sentence(f);
        md.push(format!(
            "- {name}: first executions {}; repeats in the same JVM {}: {what}",
            rate(&f.first),
            rate(&f.repeat)
        ));
    }
    more(compared.len(), "tests compared", md);
    md.push(String::new());
}

/// What the comparison of a test's first executions with its repeats says,
/// a label only when it holds across every comparison of the run (Holm).
fn first_execution_sentence(f: &FirstExecution) -> String {
    let across = match f.comparisons {
        0 | 1 => String::new(),
        n => format!(", beyond chance across the run's {n} comparisons (Holm)"),
    };
    let p = f.p_value.min(f.p_warm);
    if f.dependent {
        format!(
            "**first-execution-dependent** (Fisher's exact test, one-sided, {}{across}): its \
             verdict rests on its first executions",
            stats::p_value(f.p_value)
        )
    } else if f.warm {
        format!(
            "**warm-jvm-dependent**: its repeats fail more (Fisher's exact test, one-sided, \
             {}{across}): a JVM its earlier executions ran in makes it fail, by warm-up or by \
             what they left; CI runs it after other classes in its task's JVMs \
             (`--context task` measures that)",
            stats::p_value(f.p_warm)
        )
    } else if p < crate::analyze::rules::first_execution::SIGNIFICANCE {
        format!(
            "one fails more here ({}), but not beyond chance across the run's {} comparisons \
             (Holm): could not tell",
            stats::p_value(p),
            f.comparisons
        )
    } else {
        format!("the two cannot be told apart yet ({})", stats::p_value(p))
    }
}

/// `first executions in a fresh JVM (the CI condition): 0/7 ⇒ failure rate
/// < 35% at 95%`, and why its other executions bound nothing: a clean test
/// whose class accumulates state by itself rests on its first executions.
pub(super) fn clean_on_first_executions(t: &TestReport) -> (String, String) {
    (
        format!(
            "first executions in a fresh JVM: {}",
            stats::clean_statement(t.verdict.rate.runs)
        ),
        format!(
            "; its class accumulates state in one JVM (see the warnings): its {} executions \
             there bound only runs in a JVM it had changed",
            t.runs
        ),
    )
}

/// `; first executions in a fresh JVM: 0/7 ⇒ < 35%`: what a clean in-JVM
/// test's first executions bound; empty when every execution was a first
/// one, or when they are too few to bound anything (a bound of 50% or more).
pub(super) fn clean_first_bound(t: &TestReport) -> String {
    let Some(f) = t.by_condition.first_execution.filter(|f| f.repeat.runs > 0) else {
        return String::new();
    };
    let bound = stats::rate_bound(f.first.runs, stats::REPORT_CONFIDENCE);
    if bound >= INFORMATIVE_BOUND {
        return String::new();
    }
    format!(
        "; first executions in a fresh JVM: 0/{} ⇒ < {}",
        f.first.runs,
        percent(bound, Round::Up)
    )
}

/// A bound on a failure rate at or above this says nothing a reviewer can use.
const INFORMATIVE_BOUND: f64 = 0.5;

/// `### Warnings`: each class whose state accumulates in one JVM, in a
/// plain sentence with its stable code.
pub(super) fn warnings(report: &Report, md: &mut Vec<String>) {
    if report.warnings.is_empty() {
        return;
    }
    md.push("### Warnings".into());
    for w in report.warnings.iter().take(MAX_LISTED) {
        md.push(format!(
            "- {}: {}",
            code(w.code.as_str()),
            markdown::text(&w.message)
        ));
    }
    more(report.warnings.len(), "warnings", md);
    md.push(String::new());
}
