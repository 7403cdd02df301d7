//! A test's counts per condition (the condition of an execution is
//! `crate::condition`'s): its executions per condition, its in-JVM
//! executions by position, and what its comparisons found (first
//! executions against repeats, alone against its whole task).

use crate::condition::Context;
use crate::condition::{Condition, Repetition};
use crate::stats;
use serde::Serialize;
use std::collections::HashMap;

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
        self.count(condition, 1, u64::from(e.failed));
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
            self.count(c, runs, failures);
        }
        pool(&mut self.by_index, &other.by_index);
    }

    fn count(&mut self, condition: Condition, runs: u64, failures: u64) {
        match self.counts.iter_mut().find(|(c, _, _)| *c == condition) {
            Some((_, r, f)) => {
                *r += runs;
                *f += failures;
            }
            None => self.counts.push((condition, runs, failures)),
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

/// Adds the executions at each index of `from` to those of `into`.
pub(crate) fn pool(into: &mut Vec<AtIndex>, from: &[AtIndex]) {
    if into.len() < from.len() {
        into.resize(from.len(), AtIndex::default());
    }
    for (mine, theirs) in into.iter_mut().zip(from) {
        mine.executions += theirs.executions;
        mine.failures += theirs.failures;
        mine.time_sec += theirs.time_sec;
        mine.threads += theirs.threads;
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
    pub(crate) fn new(condition: Condition, runs: u64, failures: u64) -> ConditionCounts {
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
    /// The first executions fail more, beyond chance across every
    /// comparison of the run (Holm): `first-execution-dependent`.
    pub dependent: bool,
    /// Fisher's exact test, one-sided: the repeats fail more.
    pub p_warm: f64,
    /// The repeats fail more, beyond chance across every comparison of the
    /// run (Holm): the test fails more in a warm JVM, `warm-jvm-dependent`.
    pub warm: bool,
    /// The comparisons of the run its p-values were corrected for.
    pub comparisons: u32,
}

/// A test's executions by condition (flattened into `tests[]`).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Conditions {
    /// Its counts per condition.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<ConditionCounts>,
    /// First executions in a JVM against repeats (in-JVM repetition only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_execution: Option<FirstExecution>,
    /// Alone against its whole task, when it ran in both.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub context: Option<ContextComparison>,
    /// Its in-JVM executions by position in their JVM (drift).
    #[serde(skip)]
    pub(crate) by_index: Vec<AtIndex>,
}

/// What the comparison of the two contexts says.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ContextOutcome {
    /// The rates differ (p below [`SIGNIFICANCE`]): `context-dependent`.
    Dependent,
    /// No number of more runs at the observed rates would tell them apart.
    Agree,
    /// Not yet: [`MoreRuns`] says how many more would.
    CannotTell,
}

/// A test's executions alone against those in its task (`tests[].context`).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ContextComparison {
    pub alone: Rate,
    /// `first` when its alone executions are its first executions in a JVM
    /// only (the test is first-execution-dependent: its repeats in a warm
    /// JVM are another condition), else `all`.
    pub alone_executions: Executions,
    /// Its whole-task runs: one fresh test JVM each, the CI condition.
    pub task: Rate,
    /// The Gradle task of its task runs (`:lib:test`), when the path shows it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub task_path: Option<String>,
    /// Fisher's exact test, two-sided.
    pub p_value: f64,
    /// `p_value` below [`SIGNIFICANCE`].
    pub dependent: bool,
    pub outcome: ContextOutcome,
    /// The context whose rate is higher, when they differ.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fails_more: Option<Context>,
    /// The 95% interval of alone's rate minus the task's (Newcombe's hybrid
    /// score interval): how far apart two rates that agree may still be.
    pub difference_ci95: [f64; 2],
    /// `cannot-tell`: the more runs at the observed rates that would tell.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub more_runs: Option<MoreRuns>,
    /// The classes that ran before it in its task runs, ranked.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub candidates: Option<Candidates>,
}

/// More runs, each side failing at its observed rate, after which Fisher's
/// test would give p below [`SIGNIFICANCE`]; `null` when no number up to
/// [`stats::MAX_DIFFER_RUNS`] would.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct MoreRuns {
    /// More runs alone (the cheaper side: the selected classes only).
    pub alone: Option<u64>,
    /// More whole-task runs.
    pub task: Option<u64>,
    /// As many more of each.
    pub both: Option<u64>,
}

/// The classes that ran before a test in its task runs, from the order of
/// their testsuites' starts in each run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Candidates {
    /// Task runs whose order was read, where the test passed / failed.
    pub passing_runs: u64,
    pub failing_runs: u64,
    /// Most telling first, at most [`MAX_CANDIDATES`].
    pub classes: Vec<Candidate>,
}

/// A class that ran before the test in some of its task runs.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Candidate {
    pub class: String,
    /// Passing task runs in which it started before the test's class (or in
    /// the same second: `timestamp` has whole seconds).
    pub before_in_passing: u64,
    /// The same, among the failing task runs.
    pub before_in_failing: u64,
    /// Of those runs, the ones where it started in the same second as the
    /// test's class: the order there cannot be told.
    pub same_second: u64,
}

/// The Gradle runs of whole test tasks read so far: per run (one folder of
/// reports: one `iter-<i>` folder's task), its task and each class's start.
#[derive(Debug, Default)]
pub(crate) struct TaskRuns {
    ids: HashMap<String, u32>,
    pub(crate) runs: Vec<TaskRun>,
}

#[derive(Debug, Default)]
pub(crate) struct TaskRun {
    pub(crate) task: Option<String>,
    /// (class, start) of each testsuite, in the order read.
    pub(crate) starts: Vec<(String, String)>,
}

/// A test's outcome in one task run: (run, failed).
pub(crate) type RunOutcome = (u32, bool);

/// Task runs a test keeps its outcomes of, at most (a bound on memory).
pub(crate) const MAX_TASK_RUNS: usize = 10_000;

impl TaskRuns {
    /// The run of a report in folder `dir` (of task `task`), its suites'
    /// (class, start) added; the run's id.
    pub(crate) fn add(
        &mut self,
        dir: &str,
        task: Option<&str>,
        starts: impl IntoIterator<Item = (String, String)>,
    ) -> u32 {
        let id = match self.ids.get(dir) {
            Some(id) => *id,
            None => {
                let id = self.runs.len() as u32;
                self.ids.insert(dir.to_string(), id);
                self.runs.push(TaskRun {
                    task: task.map(str::to_string),
                    starts: Vec::new(),
                });
                id
            }
        };
        let run = &mut self.runs[id as usize];
        run.starts.extend(starts);
        id
    }

    /// The task of the first of `outcomes`' runs that names one.
    pub(crate) fn task_of(&self, outcomes: &[RunOutcome]) -> Option<String> {
        outcomes
            .iter()
            .find_map(|(id, _)| self.runs.get(*id as usize)?.task.clone())
    }
}

/// Which of a test's executions its verdict rests on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Executions {
    /// Its first executions in a JVM only (the CI condition).
    First,
    /// Every execution (of its whole-task runs only, for
    /// `context-dependent`: `context` then says `task`).
    All,
}
