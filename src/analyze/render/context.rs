//! A test alone against the same test in its whole task, in the markdown
//! report (the `### Alone and in its task` section) and in triage's: one
//! plain sentence per test, then the classes that ran before it.

use super::conditions::rate;
use super::{more, MAX_LISTED};
use crate::analyze::model::counts::Executions;
use crate::analyze::model::counts::Rate;
use crate::analyze::model::counts::{Candidates, ContextComparison, ContextOutcome, MoreRuns};
use crate::analyze::model::report::TestReport;
use crate::condition::Context;
use crate::markdown::code;
use crate::stats::{self, percent, Round};

/// Candidates named per test in markdown (the JSON has up to ten).
const NAMED_CANDIDATES: usize = 3;

/// The shown tests that ran both alone and in their task and failed in
/// either: what the comparison says of each.
pub(super) fn section(shown: &[&TestReport], md: &mut Vec<String>) {
    let compared: Vec<(&TestReport, &ContextComparison)> = shown
        .iter()
        .filter_map(|t| Some((*t, t.by_condition.context.as_ref()?)))
        .collect();
    if compared.is_empty() {
        return;
    }
    md.push("### Alone and in its task".into());
    md.push(
        "CI runs a test inside its whole test task, after the classes Gradle puts before it in \
         the same test JVM; gradle-flaky's own runs are alone (the selected classes). Each rate \
         below names its context; the task's is the CI condition."
            .into(),
    );
    for (t, c) in compared.iter().take(MAX_LISTED) {
        let name = code(&format!("{}.{}", t.class, t.method));
        md.push(format!("- {name}: {}", sentence(c)));
        // Candidates for what it depends on, only once it is shown to depend.
        let dependent = c.outcome == ContextOutcome::Dependent;
        let shown = c.candidates.as_ref().filter(|_| dependent);
        if let Some(line) = shown.and_then(|k| candidates(k, c)) {
            md.push(format!("  - {line}"));
        }
    }
    more(compared.len(), "tests compared", md);
    md.push(String::new());
}

/// `; in its task (the CI condition): 0/17 ⇒ < 17%`: what a clean test's
/// whole-task runs bound, when it also ran alone (its pooled count mixes
/// the two).
pub(super) fn clean_task_bound(t: &TestReport) -> String {
    let Some(c) = &t.by_condition.context else {
        return String::new();
    };
    let bound = stats::rate_bound(c.task.runs, stats::REPORT_CONFIDENCE);
    format!(
        "; in its task (the CI condition): 0/{} ⇒ < {}",
        c.task.runs,
        percent(bound, Round::Up)
    )
}

/// What the comparison says, in one plain sentence (no test name).
pub(crate) fn sentence(c: &ContextComparison) -> String {
    let task = match &c.task_path {
        Some(path) => format!("in its task {}", code(path)),
        None => "in its task".to_string(),
    };
    let alone = match c.alone_executions {
        Executions::First => "alone (first executions in a JVM)",
        Executions::All => "alone",
    };
    let counts = format!(
        "fails {} {alone}, {} {task} (Fisher's exact test, two-sided, {})",
        rate(&c.alone),
        rate(&c.task),
        stats::p_value(c.p_value)
    );
    match c.outcome {
        ContextOutcome::Dependent => {
            let why = match c.fails_more {
                Some(Context::Task) => "something its neighbours leave in the JVM breaks it",
                _ => "its neighbours warm something it depends on",
            };
            format!("**context-dependent**: {counts}: {why}; {}", in_ci(&c.task))
        }
        ContextOutcome::Agree => format!(
            "the two contexts agree: {counts}: at these rates no number of more runs would tell \
             them apart; {}",
            difference(c.difference_ci95)
        ),
        ContextOutcome::CannotTell => format!(
            "cannot tell yet whether its context matters: {counts}: {}",
            more_runs(c.more_runs.as_ref())
        ),
    }
}

/// `in CI (its whole task) it fails about one build in 6`.
fn in_ci(task: &Rate) -> String {
    let rate = task.failure_rate;
    if task.failures == 0 {
        let bound = stats::rate_bound(task.runs, stats::REPORT_CONFIDENCE);
        return format!(
            "in its task it did not fail in {} runs (< {} at 95%), which bounds what CI sees",
            task.runs,
            percent(bound, Round::Up)
        );
    }
    if rate >= 0.5 {
        format!(
            "in CI (its whole task) it fails about {} of builds",
            percent(rate, Round::Nearest)
        )
    } else {
        format!(
            "in CI (its whole task) it fails about one build in {}",
            (1.0 / rate).round()
        )
    }
}

/// What two rates that agree still allow: `alone's rate minus the task's is
/// within −25 and +22 points (95%)`.
fn difference([lo, hi]: [f64; 2]) -> String {
    let points = |x: f64| {
        let p = (x * 100.0).round() as i64;
        match p {
            0 => "0".to_string(),
            p if p > 0 => format!("+{p}"),
            p => format!("−{}", -p),
        }
    };
    format!(
        "alone's rate minus the task's is within {} and {} points (95%)",
        points(lo),
        points(hi)
    )
}

/// `12 more runs in its task, or 9 more of each, would show a difference
/// (p < 0.05)`: only the ways that would (the others would not, and saying
/// so reads as a contradiction).
fn more_runs(more: Option<&MoreRuns>) -> String {
    let Some(m) = more else {
        return "no number of more runs at these rates would tell them apart".into();
    };
    let ways = [
        (m.alone, "more runs alone"),
        (m.task, "more runs in its task"),
        (m.both, "more of each"),
    ];
    let would: Vec<String> = ways
        .into_iter()
        .filter_map(|(n, what)| Some(format!("{} {what}", n?)))
        .collect();
    format!(
        "at these rates, {} would show a difference (p < 0.05)",
        would.join(", or ")
    )
}

/// `Ran before it in its task runs (14 passing, 3 failing), candidates for
/// what it depends on: …`, `None` without a class to name.
fn candidates(k: &Candidates, c: &ContextComparison) -> Option<String> {
    if k.classes.is_empty() {
        return None;
    }
    let what = match c.fails_more {
        Some(Context::Task) => "candidates for what breaks it",
        _ => "candidates for what it depends on",
    };
    let named: Vec<String> = k
        .classes
        .iter()
        .take(NAMED_CANDIDATES)
        .map(|x| {
            let same = match x.same_second {
                0 => String::new(),
                n => format!(", {n} of them in the same second"),
            };
            format!(
                "{} (before it in {}/{} passing and {}/{} failing runs{same})",
                code(&x.class),
                x.before_in_passing,
                k.passing_runs,
                x.before_in_failing,
                k.failing_runs
            )
        })
        .collect();
    let first = &k.classes[0];
    let unranked = k.classes.len() > 1
        && k.classes.iter().all(|x| {
            (x.before_in_passing, x.before_in_failing)
                == (first.before_in_passing, first.before_in_failing)
        });
    let rest = match k.classes.len().saturating_sub(NAMED_CANDIDATES) {
        0 => String::new(),
        n => format!(" and {n} more in the JSON report"),
    };
    let order = match unranked {
        true => " They came before it in the same runs: the order cannot rank them.",
        false => "",
    };
    Some(format!(
        "Classes that started before it in its task runs, {what}: {}{rest}.{order} Gradle's XML \
         does not tell a task's test JVMs apart: with several forks, a class before it may have \
         run in another JVM.",
        named.join(", ")
    ))
}

#[cfg(test)]
mod tests {
    use super::super::markdown;
    use super::super::tests::report;
    use crate::analyze::model::report::TestReport;

    /// `class.method` with so many (failures, runs) alone and in its task
    /// (a task path that needs escaping).
    fn in_both(class: &str, method: &str, alone: (u64, u64), task: (u64, u64)) -> TestReport {
        let mut t = TestReport::in_contexts(class, method, alone, task);
        if let Some(c) = t.by_condition.context.as_mut() {
            c.task_path = Some(":lib:test`<b>".into());
        }
        t
    }

    /// Each outcome in its sentence: context-dependent either way, the two
    /// contexts agreeing (with the interval of their difference), not told
    /// apart yet (with the runs that would); hostile names escaped.
    #[test]
    fn each_outcome_reads_as_a_sentence() {
        let report = report(vec![
            in_both("a.Alone", "warm", (28, 30), (2, 17)),
            in_both("a.Task", "broken`by|<neighbours>", (0, 20), (6, 10)),
            in_both("a.Agree", "same", (2, 20), (1, 10)),
            in_both("a.Few", "few", (3, 10), (0, 5)),
        ]);
        let clean = TestReport::in_contexts("a.Clean", "c", (0, 30), (0, 17));
        let md = markdown(&super::super::tests::report(vec![clean]));
        assert!(
            md.contains("- `a.Clean.c`: 0/47 ⇒ failure rate < 6.2% at 95%; in its task (the CI condition): 0/17 ⇒ < 17%"),
            "{md}"
        );
        let md = markdown(&report);
        let start = md.find("### Alone and in its task").expect("the section");
        let end = md[start..].find("\n\n").map_or(md.len(), |e| start + e);
        insta::assert_snapshot!("context_outcomes", &md[start..end]);
        // A name with a backtick stays one code span (a longer fence).
        assert!(md[start..end].contains("- ``a.Task.broken`by|<neighbours>``: "));
    }
}
