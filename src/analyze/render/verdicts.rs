//! The report's first screen: per test, its verdict, the rate it rests on
//! with its interval, and the executions it rests on. What backs each
//! verdict (conditions, contexts, candidates, more runs) follows, folded.

use super::{conditions::rate, more, MAX_LISTED};
use crate::analyze::model::counts::Executions;
use crate::analyze::model::report::{Report, TestReport, Verdict, VerdictKind};
use crate::condition::{Context, Repetition};
use crate::markdown::{code_in_table, text};
use crate::stats::{self, percent, Round};

/// The verdicts table; nothing without a test.
pub(super) fn table(report: &Report, md: &mut Vec<String>) {
    let judged: Vec<&TestReport> = report.tests.iter().filter(|t| t.runs > 0).collect();
    if judged.is_empty() {
        return;
    }
    md.push("| Test | Verdict | Failure rate (95%) | Rests on | Failures |".into());
    md.push("| --- | --- | --- | --- | --- |".into());
    for t in judged.iter().take(MAX_LISTED) {
        md.push(format!(
            "| {} | {} | {} | {} | {} |",
            code_in_table(&format!("{}.{}", t.class, t.method)),
            label(&t.verdict),
            rate_of(&t.verdict),
            text(&rests_on(&t.verdict)),
            super::kinds(t)
        ));
    }
    more(judged.len(), "tests", md);
    md.push(String::new());
}

/// The verdict, bold when it says the test fails.
fn label(v: &Verdict) -> String {
    match v.kind {
        VerdictKind::Clean => "clean".into(),
        kind => format!("**{}**", kind.label()),
    }
}

/// `5/20 = 25% (11%–47%)`, or for a clean test what its executions bound:
/// `0/20 ⇒ < 14%`.
fn rate_of(v: &Verdict) -> String {
    let r = &v.rate;
    if r.failures > 0 {
        return rate(r);
    }
    let bound = stats::rate_bound(r.runs, stats::REPORT_CONFIDENCE);
    format!("0/{} ⇒ < {}", r.runs, percent(bound, Round::Up))
}

/// Which executions the verdict rests on, and in what condition: `in its
/// task, fresh JVMs (CI's condition)`, `first executions in fresh JVMs, alone`,
/// `every execution, alone, with repeats in a JVM` (a first execution and
/// the repeats after it, in one JVM or over several).
pub(super) fn rests_on(v: &Verdict) -> String {
    let which = match v.executions {
        Executions::First => "first executions in fresh JVMs",
        Executions::All => "every execution",
    };
    let contexts: Vec<&str> = v
        .context
        .iter()
        .map(|c| match c {
            Context::Alone => "alone",
            Context::Task => "in its task",
        })
        .collect();
    let repetitions: Vec<&str> = v
        .repetition
        .iter()
        .map(|r| match r {
            Repetition::InJvm => "with repeats in a JVM",
            Repetition::FreshJvm => "fresh JVMs",
        })
        .collect();
    let ci = v.context == [Context::Task]
        && (v.repetition == [Repetition::FreshJvm] || v.executions == Executions::First);
    let mut parts = vec![which.to_string()];
    if !contexts.is_empty() {
        parts.push(contexts.join(" and "));
    }
    // A JVM's first execution is a fresh JVM's, however it was repeated after.
    if !repetitions.is_empty() && v.executions == Executions::All {
        parts.push(repetitions.join(" and "));
    }
    let mut said = parts.join(", ");
    if ci {
        said.push_str(" (CI's condition)");
    }
    said
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyze::model::counts::Rate;

    fn verdict(kind: VerdictKind, executions: Executions, ctx: &[Context]) -> Verdict {
        Verdict {
            kind,
            executions,
            context: ctx.to_vec(),
            repetition: vec![Repetition::FreshJvm],
            rate: Rate::new(0, 20),
        }
    }

    /// Only the first execution in the test's own task is CI's condition.
    #[test]
    fn only_a_task_run_is_named_the_ci_condition() {
        let task = verdict(VerdictKind::Clean, Executions::All, &[Context::Task]);
        assert_eq!(
            rests_on(&task),
            "every execution, in its task, fresh JVMs (CI's condition)"
        );
        let alone = verdict(VerdictKind::Clean, Executions::First, &[Context::Alone]);
        assert_eq!(rests_on(&alone), "first executions in fresh JVMs, alone");
        assert_eq!(rate_of(&alone), "0/20 ⇒ < 14%");
    }
}
