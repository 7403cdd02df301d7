//! A comparison's rules and verdicts, pure: the rule that stops a test
//! shown fixed at a look (from its before counts), the runs a fix needs at
//! the before side's rate, and each test's verdict when the run is done.

use super::before::Before;
use crate::analyze::model::comparison::{Comparison, CountsFrom, Side};
use crate::analyze::model::report::TestReport;
use crate::domain::{ClassifiedTest, GradleCommand};
use crate::plan::show_fix::{ShowFix, ALPHA};
use crate::run::local::BatchRun;
use crate::stats::{self, Counts};

/// The most runs `--size-after` gives a batch, as a multiple of its plan.
pub(crate) const SIZE_CAP: u64 = 10;

/// The rule of test `t` (a batch's test): its methods that failed before;
/// `None` when none did (no fix can be shown) or with one look (none before
/// the end).
pub(crate) fn rule(t: &ClassifiedTest, before: &Before, looks: u32) -> Option<ShowFix> {
    let failed = failed_before(t, before);
    (looks > 1 && !failed.is_empty()).then_some(ShowFix {
        before: failed,
        looks,
        alpha: ALPHA,
    })
}

/// The methods `t` covers that failed before, with their counts.
fn failed_before(t: &ClassifiedTest, before: &Before) -> Vec<((String, String), Counts)> {
    before
        .iter()
        .filter(|((c, m), (counts, _))| counts.failures > 0 && t.covers(c, m))
        .map(|(name, (counts, _))| (name.clone(), *counts))
        .collect()
}

/// The clean runs here that show a fix of a test that failed `before`, at
/// the last look of `looks` (the looks before it can only stop sooner);
/// `None` when no number does.
pub(crate) fn runs_to_show_fix(before: Counts, looks: u32) -> Option<u64> {
    let schedule = ShowFix {
        before: Vec::new(),
        looks: looks.max(1),
        alpha: ALPHA,
    };
    let last = schedule.last_threshold(looks.max(1) - 1);
    stats::more_clean_runs_to_show_fix(before, Counts::new(0, 0), last)
}

/// The count `--size-after` gives `command`: the most runs a fix of one of
/// its tests needs, when that is more than planned (at most [`SIZE_CAP`]
/// times the plan); `None` to keep the plan.
pub(crate) fn sized(command: &GradleCommand, before: &Before, looks: u32) -> Option<u64> {
    let planned = command.executions();
    let needed = command
        .tests
        .iter()
        .flat_map(|t| failed_before(t, before))
        .filter_map(|(_, counts)| runs_to_show_fix(counts, looks))
        .max()?;
    (needed > planned).then(|| needed.min(planned * SIZE_CAP))
}

/// Where a report's test ran: its batch and its index there.
pub(crate) fn place_of(runs: &[BatchRun], class: &str, method: &str) -> Option<(usize, usize)> {
    runs.iter().enumerate().find_map(|(b, run)| {
        let i = run
            .command
            .tests
            .iter()
            .position(|t| t.covers(class, method))?;
        Some((b, i))
    })
}

/// What the comparison knows of one report test besides its counts here.
pub(crate) struct Judging<'a> {
    pub before: &'a Before,
    pub base_commit: &'a str,
    pub head: Option<&'a str>,
    pub dirty: bool,
    pub looks: u32,
    /// Why a test has no before, when it has none: a sentence.
    pub no_before: &'a dyn Fn(&TestReport) -> String,
}

/// The comparison of test `t` (a row of the working tree's report) that
/// ran in batch `run` as its test `index`.
pub(crate) fn compare(
    t: &TestReport,
    place: Option<(&BatchRun, usize)>,
    ctx: &Judging<'_>,
) -> Comparison {
    let after = Side {
        commit: ctx.head.map(String::from),
        dirty: ctx.dirty,
        runs: t.runs,
        failures: t.failures,
        from: CountsFrom::Run,
    };
    let key = (t.class.clone(), t.method.clone());
    let Some((before, from)) = ctx.before.get(&key).copied() else {
        return Comparison {
            before: None,
            after,
            p_value: None,
            verdict: None,
            narrowed: false,
            fixed_below: None,
            shown_at_look: None,
            more_clean_runs: None,
            runs_to_show_fix: None,
            note: Some((ctx.no_before)(t)),
        };
    };
    // The threshold of the look the test was judged at: the look that
    // showed it fixed, else the comparison's last, which spends what the
    // engine's looks left.
    let rule = place.and_then(|(run, i)| rule(&run.command.tests[i], ctx.before, ctx.looks));
    let shown = place.and_then(|(run, i)| run.done.shown.iter().find(|s| s.index == i));
    let fixed_below = match (shown, &rule, place) {
        (Some(s), _, _) => s.threshold,
        (None, Some(r), Some((run, i))) => r.last_threshold(run.done.looked[i]),
        _ => ALPHA,
    };
    let judged = stats::judge(before, Counts::new(t.failures, t.runs), fixed_below, ALPHA);
    Comparison {
        before: Some(Side {
            commit: Some(ctx.base_commit.to_string()),
            dirty: false,
            runs: before.runs,
            failures: before.failures,
            from,
        }),
        after,
        p_value: Some(stats::round6(judged.p_value)),
        verdict: Some(judged.verdict),
        narrowed: judged.narrowed,
        fixed_below: Some(stats::round6(fixed_below)),
        shown_at_look: shown.map(|s| s.look),
        more_clean_runs: judged.more_clean_runs,
        runs_to_show_fix: runs_to_show_fix(before, ctx.looks),
        note: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::testing::unit;
    use crate::stats::Verdict;

    fn before(entries: &[(&str, &str, u64, u64)]) -> Before {
        entries
            .iter()
            .map(|(c, m, f, n)| {
                (
                    (c.to_string(), m.to_string()),
                    (Counts::new(*f, *n), CountsFrom::Run),
                )
            })
            .collect()
    }

    fn row(class: &str, method: &str, failures: u64, runs: u64) -> TestReport {
        let mut t = crate::analyze::render::tests::test(class, method, runs - failures, failures);
        t.runs = runs;
        t
    }

    #[test]
    fn a_rule_holds_the_methods_that_failed_before() {
        let b = before(&[
            ("a.FooTests", "testX", 12, 40),
            ("a.FooTests", "testY", 0, 40),
            ("a.BarTests", "testZ", 3, 40),
        ]);
        let r = rule(&unit("a.FooTests"), &b, 2).unwrap();
        assert_eq!(r.before.len(), 1);
        assert_eq!(r.before[0].0 .1, "testX");
        assert!(
            rule(&unit("a.FooTests"), &b, 1).is_none(),
            "one look: none before the end"
        );
        assert!(rule(&unit("a.OtherTests"), &b, 2).is_none());
    }

    #[test]
    fn the_runs_a_fix_needs_grow_as_the_rate_falls_and_with_the_looks() {
        // One look: the doc's 3/40 needs 67 clean runs.
        assert_eq!(runs_to_show_fix(Counts::new(3, 40), 1), Some(67));
        let two = runs_to_show_fix(Counts::new(3, 40), 2).unwrap();
        assert!(two > 67, "{two}");
        assert_eq!(two, 72, "the book's figure");
        assert!(runs_to_show_fix(Counts::new(12, 40), 2).unwrap() < 20);
        assert_eq!(runs_to_show_fix(Counts::new(0, 40), 2), None);
    }

    #[test]
    fn verdicts_of_a_fix_a_narrowing_and_a_new_test() {
        let b = before(&[("a.FooTests", "testX", 12, 40)]);
        let no_before = |_: &TestReport| "new in this branch".to_string();
        let ctx = Judging {
            before: &b,
            base_commit: "c0",
            head: Some("c1"),
            dirty: false,
            looks: 2,
            no_before: &no_before,
        };
        let fixed = compare(&row("a.FooTests", "testX", 0, 40), None, &ctx);
        assert_eq!(fixed.verdict, Some(Verdict::Fixed));
        assert_eq!(fixed.before.as_ref().unwrap().runs, 40);
        let narrowed = compare(&row("a.FooTests", "testX", 3, 40), None, &ctx);
        assert_eq!(narrowed.verdict, Some(Verdict::NotShown));
        assert!(narrowed.narrowed, "{narrowed:?}");
        let new = compare(&row("a.FooTests", "testNew", 0, 40), None, &ctx);
        assert_eq!(
            (new.verdict, new.note.as_deref()),
            (None, Some("new in this branch"))
        );
    }

    #[test]
    fn sizing_asks_for_what_a_fix_needs_within_the_cap() {
        let b = before(&[("a.FooTests", "testX", 3, 40)]);
        let mut c = GradleCommand::of_kind(crate::domain::TestKind::Unit, &["gradle"], 40, 1);
        c.tests = vec![unit("a.FooTests")];
        let needed = runs_to_show_fix(Counts::new(3, 40), 2).unwrap();
        assert_eq!(sized(&c, &b, 2), Some(needed));
        let clear = before(&[("a.FooTests", "testX", 30, 40)]);
        assert_eq!(sized(&c, &clear, 2), None, "the plan is enough");
        let rare = before(&[("a.FooTests", "testX", 1, 400)]);
        assert_eq!(sized(&c, &rare, 2), Some(400), "at most ten times the plan");
    }
}
