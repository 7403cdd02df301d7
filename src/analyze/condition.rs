//! The condition of each execution, and a test's counts per condition.
//!
//! A count means something only with its condition: CI runs each test once
//! per fresh test JVM inside its whole test task, while a repetition in one
//! warm JVM shares static state, loaded classes and a warm JIT with the
//! executions before it. Each execution read from a report carries:
//! - its context: `alone` (the selected classes, as gradle-flaky plans its
//!   runs) or `task` (the whole test task, as a build runs it);
//! - its repetition: `in-jvm` (with the mechanism when known) or `fresh-jvm`;
//! - its position: the `first` execution of the test in its JVM, or a
//!   `repeat` in a JVM that already ran it.
//!
//! Position comes from the name gradle-flaky's JUnit 4 runner gives each
//! execution (`method #i`, its iteration in its JVM), else from the order of
//! the test's cases in its report (one JVM per file for the other in-JVM
//! mechanisms). The ledger's `Condition` (`ledger::record`) maps from
//! [`Condition`] by its context, repetition and mechanism.

use super::names::RunnerToken;
pub use crate::condition::{Condition, Context, InJvm, Position, Repetition};
use crate::stats;
use serde::Serialize;

/// What a report file says of the condition of its executions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct FileCondition {
    pub context: Context,
    /// Set when the file is known to hold repetitions in one JVM (a folder
    /// of an in-JVM invocation); the mechanism when known.
    pub in_jvm: Option<Option<InJvm>>,
}

/// One test's executions in one report file, settled into a [`Tally`] once
/// the whole file is read: a plain name that one file holds more than once
/// was repeated in one JVM (the randomized runner's `-Dtests.iters` names
/// carry a seed but no iteration).
#[derive(Clone, Debug, Default)]
pub(crate) struct InFile {
    executions: Vec<Execution>,
    /// Cases of it read so far, counted or not.
    seen: u32,
    /// Named by gradle-flaky's JUnit 4 runner (`method #i`).
    token: bool,
    /// Named with a seed (the randomized runner).
    seeded: bool,
}

impl InFile {
    /// A passed or failed execution named `raw`.
    pub(crate) fn add(&mut self, raw: &str, failed: bool, time: Option<f64>) {
        self.seen += 1;
        let token = runner_token(raw);
        self.token |= token.is_some();
        self.seeded |= raw.contains("seed=[");
        self.executions.push(Execution {
            index: token.map_or(self.seen, |t| t.iteration),
            failed,
            time,
            threads: token.map_or(0, |t| t.threads),
        });
    }

    /// A case that is no execution (skipped, cut by a suite timeout): it
    /// still came before the next one in its JVM.
    pub(crate) fn skip(&mut self) {
        self.seen += 1;
    }

    /// Its executions, under the file's condition, into `tally`.
    pub(crate) fn settle(self, file: &FileCondition, tally: &mut Tally) {
        let in_jvm = match file.in_jvm {
            Some(mechanism) => Some(mechanism),
            None if self.token => Some(Some(InJvm::Junit4Runner)),
            None if self.seen > 1 && self.seeded => Some(Some(InJvm::TestsIters)),
            None if self.seen > 1 => Some(None),
            None => None,
        };
        for mut e in self.executions {
            if in_jvm.is_none() {
                e.index = 1;
            }
            let condition = Condition {
                context: file.context,
                repetition: match in_jvm {
                    Some(_) => Repetition::InJvm,
                    None => Repetition::FreshJvm,
                },
                mechanism: in_jvm.flatten(),
                execution: Some(if e.index <= 1 {
                    Position::First
                } else {
                    Position::Repeat
                }),
            };
            tally.add(condition, e);
        }
    }
}

/// The token gradle-flaky's JUnit 4 runner appends (`method #3`, `method #3
/// (+2 threads)`), its iteration 1-based.
fn runner_token(raw: &str) -> Option<RunnerToken> {
    super::names::runner_token(raw)
        .map(|(_, token)| token)
        .filter(|t| t.iteration > 0)
}

/// Iterations past this index are pooled into the last one (a bound on memory).
const MAX_INDEX: usize = 10_000;

/// One execution read from a report.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Execution {
    /// Its position in its JVM, 1-based.
    pub index: u32,
    pub failed: bool,
    pub time: Option<f64>,
    /// Threads its class's earlier executions in its JVM left running (the
    /// runner's token says; 0 otherwise).
    pub threads: u32,
}

/// One in-JVM iteration index's executions (all JVMs pooled).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct AtIndex {
    pub executions: u32,
    pub failures: u32,
    pub time_sec: f64,
    /// The threads left running before each of them, summed.
    pub threads: u64,
}

/// A test's executions per condition, and its in-JVM executions per index.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Tally {
    pub counts: Vec<(Condition, u64, u64)>,
    /// Index `i` holds the executions that were the (i+1)-th in their JVM.
    pub by_index: Vec<AtIndex>,
}

impl Tally {
    pub(crate) fn add(&mut self, condition: Condition, e: Execution) {
        let failures = u64::from(e.failed);
        match self.counts.iter_mut().find(|(c, _, _)| *c == condition) {
            Some((_, runs, f)) => {
                *runs += 1;
                *f += failures;
            }
            None => self.counts.push((condition, 1, failures)),
        }
        if condition.repetition == Repetition::InJvm {
            let i = (e.index.max(1) as usize - 1).min(MAX_INDEX);
            if self.by_index.len() <= i {
                self.by_index.resize(i + 1, AtIndex::default());
            }
            let at = &mut self.by_index[i];
            at.executions += 1;
            at.failures += u32::from(e.failed);
            at.time_sec += e.time.unwrap_or(0.0);
            at.threads += u64::from(e.threads);
        }
    }

    pub(crate) fn merge(&mut self, other: Tally) {
        for (c, runs, failures) in other.counts {
            match self.counts.iter_mut().find(|(k, _, _)| *k == c) {
                Some((_, r, f)) => {
                    *r += runs;
                    *f += failures;
                }
                None => self.counts.push((c, runs, failures)),
            }
        }
        if self.by_index.len() < other.by_index.len() {
            self.by_index
                .resize(other.by_index.len(), AtIndex::default());
        }
        for (mine, theirs) in self.by_index.iter_mut().zip(other.by_index) {
            mine.executions += theirs.executions;
            mine.failures += theirs.failures;
            mine.time_sec += theirs.time_sec;
            mine.threads += theirs.threads;
        }
    }

    /// The counts, one row per condition, in condition order.
    pub(crate) fn rows(&self) -> Vec<ConditionCounts> {
        let mut rows: Vec<ConditionCounts> = self
            .counts
            .iter()
            .map(|&(condition, runs, failures)| ConditionCounts::new(condition, runs, failures))
            .collect();
        rows.sort_by_key(|r| r.condition);
        rows
    }
}

/// Failures among runs, with the rate and its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Rate {
    pub runs: u64,
    pub failures: u64,
    pub failure_rate: f64,
    pub ci95: [f64; 2],
}

impl Rate {
    pub(crate) fn new(failures: u64, runs: u64) -> Rate {
        let [lo, hi] = stats::wilson95(failures, runs);
        Rate {
            runs,
            failures,
            failure_rate: if runs == 0 {
                0.0
            } else {
                stats::round6(failures as f64 / runs as f64)
            },
            ci95: [stats::round6(lo), stats::round6(hi)],
        }
    }
}

/// A test's executions under one condition (`tests[].conditions[]`).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ConditionCounts {
    #[serde(flatten)]
    pub condition: Condition,
    #[serde(flatten)]
    pub rate: Rate,
}

impl ConditionCounts {
    fn new(condition: Condition, runs: u64, failures: u64) -> ConditionCounts {
        ConditionCounts {
            condition,
            rate: Rate::new(failures, runs),
        }
    }
}

/// First executions in a JVM against the repeats after them in the same
/// JVM: a test that fails more on its first execution (a cold start: a
/// static initialised lazily, a cache, class loading) fails in CI, where
/// every execution is a first one, more often than its pooled rate says.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FirstExecution {
    /// Every first execution in its JVM (fresh-JVM runs included): the CI
    /// condition's rate.
    pub first: Rate,
    /// The executions after the first in a JVM that already ran the test.
    pub repeat: Rate,
    /// Fisher's exact test, one-sided: the first executions fail more.
    pub p_value: f64,
    /// `p_value` below [`SIGNIFICANCE`]: `first-execution-dependent`.
    pub dependent: bool,
}

/// The level below which a difference between conditions is reported.
pub(crate) const SIGNIFICANCE: f64 = 0.05;

impl FirstExecution {
    /// The comparison, when the test ran both first and repeated in a JVM.
    /// Only first executions in a context where it was also repeated count:
    /// its whole-task runs are first executions too, but beside its
    /// neighbours, and a difference there is the context's (measured: a
    /// real TestNG suite's test failing 5/5 in its task, passing 5/5 alone,
    /// was called first-execution-dependent).
    pub(crate) fn of(rows: &[ConditionCounts]) -> Option<FirstExecution> {
        let repeated: Vec<Context> = rows
            .iter()
            .filter(|r| r.condition.execution == Some(Position::Repeat))
            .map(|r| r.condition.context)
            .collect();
        let sum = |position: Position| {
            rows.iter()
                .filter(|r| r.condition.execution == Some(position))
                .filter(|r| repeated.contains(&r.condition.context))
                .fold((0, 0), |(f, n), r| (f + r.rate.failures, n + r.rate.runs))
        };
        let (first_failures, first_runs) = sum(Position::First);
        let (repeat_failures, repeat_runs) = sum(Position::Repeat);
        if first_runs == 0 || repeat_runs == 0 {
            return None;
        }
        // p_fixed(before, after): that `after` (the repeats) fails less.
        let p = stats::p_fixed(
            stats::Counts::new(first_failures, first_runs),
            stats::Counts::new(repeat_failures, repeat_runs),
        );
        Some(FirstExecution {
            first: Rate::new(first_failures, first_runs),
            repeat: Rate::new(repeat_failures, repeat_runs),
            p_value: stats::round6(p),
            dependent: first_failures > 0 && p < SIGNIFICANCE,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Settles one test's cases of one file, each `(name, failed)`.
    fn settled(file: &FileCondition, cases: &[(&str, bool)]) -> Vec<ConditionCounts> {
        let mut one = InFile::default();
        for (name, failed) in cases {
            one.add(name, *failed, Some(0.5));
        }
        let mut tally = Tally::default();
        one.settle(file, &mut tally);
        tally.rows()
    }

    fn shape(rows: &[ConditionCounts]) -> Vec<(Repetition, Option<InJvm>, Position, u64, u64)> {
        rows.iter()
            .map(|r| {
                let c = r.condition;
                (
                    c.repetition,
                    c.mechanism,
                    c.execution.expect("every execution read has a position"),
                    r.rate.runs,
                    r.rate.failures,
                )
            })
            .collect()
    }

    #[test]
    fn the_runner_token_or_the_files_order_gives_the_position() {
        use Position::*;
        use Repetition::*;
        let plain = FileCondition::default();
        let runner = settled(&plain, &[("t #1", true), ("t #2", false), ("t #1", false)]);
        assert_eq!(
            shape(&runner),
            [
                (InJvm, Some(self::InJvm::Junit4Runner), First, 2, 1),
                (InJvm, Some(self::InJvm::Junit4Runner), Repeat, 1, 0)
            ]
        );
        // One plain case: one execution in its JVM.
        assert_eq!(
            shape(&settled(&plain, &[("t", true)])),
            [(FreshJvm, None, First, 1, 1)]
        );
        // The randomized runner's iterations: seeded names, the file's order.
        let seeded = settled(
            &plain,
            &[("t {seed=[A:1]}", true), ("t {seed=[A:2]}", false)],
        );
        assert_eq!(
            shape(&seeded),
            [
                (InJvm, Some(self::InJvm::TestsIters), First, 1, 1),
                (InJvm, Some(self::InJvm::TestsIters), Repeat, 1, 0)
            ]
        );
        // A folder known to repeat in one JVM (TestNG rows): the file's order.
        let testng = FileCondition {
            context: Context::Alone,
            in_jvm: Some(Some(self::InJvm::TestngInvocationCount)),
        };
        let rows = settled(&testng, &[("m", false), ("m", true), ("m", true)]);
        assert_eq!(rows[0].condition.context, Context::Alone);
        assert_eq!(
            shape(&rows),
            [
                (InJvm, Some(self::InJvm::TestngInvocationCount), First, 1, 0),
                (
                    InJvm,
                    Some(self::InJvm::TestngInvocationCount),
                    Repeat,
                    2,
                    2
                )
            ]
        );
        // `#` inside a YAML test's name is no token.
        assert_eq!(runner_token("test {p0=#x}"), None);
        assert_eq!(runner_token("issue #"), None);
        assert_eq!(runner_token("t #0"), None);
    }

    #[test]
    fn counts_per_condition_and_per_index_merge() {
        let cond = FileCondition::default();
        let mut a = Tally::default();
        let mut one = InFile::default();
        for (name, failed) in [("t #1", true), ("t #2", false), ("t #3", false)] {
            one.add(name, failed, Some(0.5));
        }
        one.settle(&cond, &mut a);
        let mut b = Tally::default();
        let mut other = InFile::default();
        other.add("t #1", false, Some(1.5));
        other.settle(&cond, &mut b);
        a.merge(b);
        let rows = a.rows();
        assert_eq!(rows.len(), 2);
        assert!(rows[0].condition.is_first());
        assert_eq!((rows[0].rate.runs, rows[0].rate.failures), (2, 1));
        assert_eq!((rows[1].rate.runs, rows[1].rate.failures), (2, 0));
        assert_eq!(a.by_index[0].executions, 2);
        assert_eq!(a.by_index[0].time_sec, 2.0);
        assert_eq!(a.by_index.len(), 3);
    }

    fn row(execution: Position, failures: u64, runs: u64) -> ConditionCounts {
        ConditionCounts::new(
            Condition {
                context: Context::Alone,
                repetition: Repetition::InJvm,
                mechanism: Some(InJvm::Junit4Runner),
                execution: Some(execution),
            },
            runs,
            failures,
        )
    }

    /// Fisher's one-sided test on first executions against repeats: 3 of 7
    /// first executions failed and none of 13 repeats (R:
    /// `fisher.test(matrix(c(3,4,0,13),2), alternative="greater")` gives
    /// p = 0.03070175).
    #[test]
    fn first_executions_that_fail_more_make_a_test_first_execution_dependent() {
        let f = FirstExecution::of(&[row(Position::First, 3, 7), row(Position::Repeat, 0, 13)])
            .unwrap();
        stats::assert_near(f.p_value, 0.030702, 1e-4);
        assert!(f.dependent);
        assert_eq!((f.first.failures, f.first.runs), (3, 7));
        // One failure in 7 first executions is not enough to tell.
        let f = FirstExecution::of(&[row(Position::First, 1, 7), row(Position::Repeat, 0, 13)])
            .unwrap();
        assert!(!f.dependent && f.p_value > 0.3, "{f:?}");
        // Failing alike first and later: not dependent.
        let f = FirstExecution::of(&[row(Position::First, 2, 7), row(Position::Repeat, 4, 13)])
            .unwrap();
        assert!(!f.dependent);
        // Without repeats there is nothing to compare.
        assert!(FirstExecution::of(&[row(Position::First, 2, 7)]).is_none());
    }
}
