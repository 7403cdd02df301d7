//! A test alone against the same test inside its whole test task.
//!
//! `alone` is how gradle-flaky runs a selection (the selected classes only);
//! `task` is how a build (CI) runs it: the whole test task, its neighbours
//! in the same test JVM before it. When a test ran in both, the two failure
//! counts are compared with Fisher's exact test (two-sided: either context
//! may fail more). Below [`SIGNIFICANCE`] the test is `context-dependent`;
//! otherwise the two rates agree (no number of more runs at the observed
//! rates would tell them apart; the interval of their difference says how
//! far apart they may still be), or the runs cannot tell yet, with how many
//! more would.
//!
//! From the order of the classes in the task runs (each testsuite's
//! `timestamp`, within one Gradle run's folder of one task), the classes that
//! ran before the test are ranked as candidates for what it depends on.

use crate::analyze::model::counts::Executions;
use crate::analyze::model::counts::{
    Candidate, Candidates, ContextComparison, ContextOutcome, MoreRuns, RunOutcome, TaskRuns,
};
use crate::analyze::model::counts::{ConditionCounts, Rate};
use crate::analyze::rules::first_execution::SIGNIFICANCE;
use crate::condition::Context;
use crate::stats::{self, Counts, Side};
use std::collections::BTreeMap;

/// Candidates kept per test.
pub(crate) const MAX_CANDIDATES: usize = 10;

impl ContextComparison {
    /// The comparison, when the test ran both alone and in its task.
    pub(crate) fn of(rows: &[ConditionCounts], first_dependent: bool) -> Option<ContextComparison> {
        let alone_first = first_dependent
            && rows
                .iter()
                .any(|r| r.condition.context == Context::Alone && r.condition.is_first());
        let sum = |context: Context, first_only: bool| {
            rows.iter()
                .filter(|r| r.condition.context == context)
                .filter(|r| !first_only || r.condition.is_first())
                .fold(Counts::new(0, 0), |c, r| {
                    Counts::new(c.failures + r.rate.failures, c.runs + r.rate.runs)
                })
        };
        let alone = sum(Context::Alone, alone_first);
        let task = sum(Context::Task, false);
        if alone.runs == 0 || task.runs == 0 {
            return None;
        }
        let p = stats::p_differ(alone, task);
        let dependent = p < SIGNIFICANCE;
        let more_runs = (!dependent).then(|| MoreRuns {
            alone: stats::more_runs_to_differ(alone, task, Side::First, SIGNIFICANCE),
            task: stats::more_runs_to_differ(alone, task, Side::Second, SIGNIFICANCE),
            both: stats::more_runs_to_differ(alone, task, Side::Both, SIGNIFICANCE),
        });
        let outcome = match more_runs {
            None => ContextOutcome::Dependent,
            Some(m) if m.alone.or(m.task).or(m.both).is_none() => ContextOutcome::Agree,
            Some(_) => ContextOutcome::CannotTell,
        };
        let [lo, hi] = stats::difference95(alone, task);
        Some(ContextComparison {
            alone: Rate::new(alone.failures, alone.runs),
            alone_executions: match alone_first {
                true => Executions::First,
                false => Executions::All,
            },
            task: Rate::new(task.failures, task.runs),
            task_path: None,
            p_value: stats::round_p(p),
            dependent,
            outcome,
            fails_more: fails_more(alone, task),
            difference_ci95: [stats::round6(lo), stats::round6(hi)],
            more_runs: more_runs.filter(|_| outcome == ContextOutcome::CannotTell),
            candidates: None,
        })
    }
}

/// The context whose observed rate is higher, `None` when they are equal.
fn fails_more(alone: Counts, task: Counts) -> Option<Context> {
    let a = u128::from(alone.failures) * u128::from(task.runs);
    let t = u128::from(task.failures) * u128::from(alone.runs);
    match a.cmp(&t) {
        std::cmp::Ordering::Greater => Some(Context::Alone),
        std::cmp::Ordering::Less => Some(Context::Task),
        std::cmp::Ordering::Equal => None,
    }
}

impl TaskRuns {
    /// The classes that ran before `class` in its task runs, ranked by how
    /// much more often they came before it in the runs of the side that
    /// tells: when it fails more alone (its neighbours help it), the classes
    /// before it in more of its passing runs than its failing ones; when it
    /// fails more in its task (a neighbour breaks it), the reverse. Ties:
    /// more such runs first, then by name. `None` without a task run whose
    /// order holds the test's class.
    pub(crate) fn candidates(
        &self,
        class: &str,
        outcomes: &[RunOutcome],
        fails_more: Context,
    ) -> Option<Candidates> {
        let mut failed_in: BTreeMap<u32, bool> = BTreeMap::new();
        for (id, failed) in outcomes {
            *failed_in.entry(*id).or_default() |= *failed;
        }
        let mut before: BTreeMap<&str, Candidate> = BTreeMap::new();
        let (mut passing, mut failing) = (0u64, 0u64);
        for (id, failed) in failed_in {
            let Some(run) = self.runs.get(id as usize) else {
                continue;
            };
            let Some((_, own)) = run.starts.iter().find(|(c, _)| c == class) else {
                continue;
            };
            *(if failed { &mut failing } else { &mut passing }) += 1;
            for (other, start) in run.starts.iter().filter(|(c, s)| c != class && s <= own) {
                let c = before.entry(other).or_insert_with(|| Candidate {
                    class: other.clone(),
                    ..Candidate::default()
                });
                *(if failed {
                    &mut c.before_in_failing
                } else {
                    &mut c.before_in_passing
                }) += 1;
                c.same_second += u64::from(start == own);
            }
        }
        if passing + failing == 0 {
            return None;
        }
        Some(Candidates {
            passing_runs: passing,
            failing_runs: failing,
            classes: ranked(before.into_values().collect(), passing, failing, fails_more),
        })
    }
}

/// `candidates` most telling first (see [`TaskRuns::candidates`]), only those
/// before the test in at least one run of the side that tells.
fn ranked(
    candidates: Vec<Candidate>,
    passing: u64,
    failing: u64,
    fails_more: Context,
) -> Vec<Candidate> {
    let share = |n: u64, of: u64| if of == 0 { 0.0 } else { n as f64 / of as f64 };
    let telling = |c: &Candidate| match fails_more {
        Context::Alone => c.before_in_passing,
        Context::Task => c.before_in_failing,
    };
    let score = |c: &Candidate| {
        let lead = share(c.before_in_passing, passing) - share(c.before_in_failing, failing);
        match fails_more {
            Context::Alone => lead,
            Context::Task => -lead,
        }
    };
    let mut kept: Vec<Candidate> = candidates.into_iter().filter(|c| telling(c) > 0).collect();
    kept.sort_by(|a, b| {
        score(b)
            .total_cmp(&score(a))
            .then_with(|| telling(b).cmp(&telling(a)))
            .then_with(|| a.class.cmp(&b.class))
    });
    kept.truncate(MAX_CANDIDATES);
    kept
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::condition::{Condition, Position, Repetition};

    fn row(context: Context, execution: Position, failures: u64, runs: u64) -> ConditionCounts {
        ConditionCounts {
            condition: Condition {
                context,
                repetition: Repetition::FreshJvm,
                mechanism: None,
                execution: Some(execution),
            },
            rate: Rate::new(failures, runs),
        }
    }

    fn compared(alone: (u64, u64), task: (u64, u64)) -> ContextComparison {
        ContextComparison::of(
            &[
                row(Context::Alone, Position::First, alone.0, alone.1),
                row(Context::Task, Position::First, task.0, task.1),
            ],
            false,
        )
        .unwrap()
    }

    /// The counts: 28/30 alone, 2/17 in its task. scipy 1.17
    /// `fisher_exact([[28, 2], [2, 15]])` (two-sided) gives 2.176829e-08.
    #[test]
    fn a_test_failing_mostly_alone_is_context_dependent() {
        let c = compared((28, 30), (2, 17));
        stats::assert_near(c.p_value, 2.176_829e-8, 1e-5);
        assert!(c.dependent);
        assert_eq!(c.outcome, ContextOutcome::Dependent);
        assert_eq!(c.fails_more, Some(Context::Alone));
        assert_eq!((c.task.failures, c.task.runs), (2, 17));
        assert!(c.more_runs.is_none());
        // The reverse: a neighbour breaks it (scipy: p = 0.000353669).
        let c = compared((0, 20), (6, 10));
        stats::assert_near(c.p_value, 3.536_693e-4, 1e-5);
        assert!(c.dependent, "{c:?}");
        assert_eq!(c.fails_more, Some(Context::Task));
    }

    /// Not yet told apart: 3/10 alone, 0/5 in its task (scipy: p = 0.505);
    /// the runs that would tell are computed, and more runs alone never would.
    #[test]
    fn too_few_runs_say_how_many_more_would_tell() {
        let c = compared((3, 10), (0, 5));
        stats::assert_near(c.p_value, 0.505495, 1e-4);
        assert_eq!(c.outcome, ContextOutcome::CannotTell);
        let more = c.more_runs.unwrap();
        assert_eq!(more.alone, None);
        let task = more.task.unwrap();
        assert!(stats::p_differ(Counts::new(3, 10), Counts::new(0, 5 + task)) < SIGNIFICANCE);
        assert!(stats::p_differ(Counts::new(3, 10), Counts::new(0, 5 + task - 1)) >= SIGNIFICANCE);
        assert!(more.both.is_some());
    }

    /// Equal rates agree (scipy: p = 1.0), with the interval of their difference.
    #[test]
    fn equal_rates_agree_within_their_interval() {
        let c = compared((2, 20), (1, 10));
        assert_eq!(c.p_value, 1.0);
        assert_eq!(c.outcome, ContextOutcome::Agree);
        assert_eq!(c.fails_more, None);
        assert!(c.more_runs.is_none());
        let [lo, hi] = c.difference_ci95;
        assert!(lo < 0.0 && hi > 0.0 && hi < 0.4, "{lo} {hi}");
        // Without both contexts there is nothing to compare.
        let only = [row(Context::Alone, Position::First, 1, 10)];
        assert!(ContextComparison::of(&only, false).is_none());
    }

    /// A first-execution-dependent test is compared by its first executions
    /// alone: its repeats in a warm JVM are another condition.
    #[test]
    fn a_first_execution_dependent_test_is_compared_by_its_first_executions() {
        let rows = [
            row(Context::Alone, Position::First, 4, 5),
            row(Context::Alone, Position::Repeat, 0, 15),
            row(Context::Task, Position::First, 1, 10),
        ];
        let c = ContextComparison::of(&rows, true).unwrap();
        assert_eq!(c.alone_executions, Executions::First);
        assert_eq!((c.alone.failures, c.alone.runs), (4, 5));
        let c = ContextComparison::of(&rows, false).unwrap();
        assert_eq!((c.alone.failures, c.alone.runs), (4, 20));
    }

    /// Each suite's (class, start).
    fn suites(order: &[(&str, &str)]) -> Vec<(String, String)> {
        order
            .iter()
            .map(|(name, ts)| (name.to_string(), format!("2026-01-01T00:00:{ts}")))
            .collect()
    }

    /// Classes before it in its passing runs but not its failing ones come
    /// first when it fails more alone; the reverse when it fails more in its
    /// task; a class after it, or only in another run, is no candidate.
    #[test]
    fn candidates_are_ranked_by_the_runs_that_tell() {
        let mut runs = TaskRuns::default();
        let a = runs.add(
            "i1/t",
            Some(":t"),
            suites(&[
                ("Warm", "01"),
                ("Other", "02"),
                ("T", "03"),
                ("After", "04"),
            ]),
        );
        let b = runs.add(
            "i2/t",
            Some(":t"),
            suites(&[("Other", "01"), ("T", "02"), ("Warm", "03")]),
        );
        let c = runs.add("i3/t", Some(":t"), suites(&[("Warm", "05"), ("T", "05")]));
        let outcomes = [(a, false), (b, true), (c, false)];
        let got = runs.candidates("T", &outcomes, Context::Alone).unwrap();
        assert_eq!((got.passing_runs, got.failing_runs), (2, 1));
        let names: Vec<&str> = got.classes.iter().map(|c| c.class.as_str()).collect();
        assert_eq!(names, ["Warm", "Other"]);
        assert_eq!(
            got.classes[0],
            Candidate {
                class: "Warm".into(),
                before_in_passing: 2,
                before_in_failing: 0,
                same_second: 1
            }
        );
        let got = runs.candidates("T", &outcomes, Context::Task).unwrap();
        let names: Vec<&str> = got.classes.iter().map(|c| c.class.as_str()).collect();
        assert_eq!(names, ["Other"]);
        assert_eq!(runs.task_of(&outcomes).as_deref(), Some(":t"));
        // A run without the test's class tells nothing.
        assert!(runs
            .candidates("Absent", &outcomes, Context::Alone)
            .is_none());
    }
}
