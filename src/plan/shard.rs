//! Shards: a batch whose planned iterations do not fit one job's budget (by
//! the durations) is split into up to `max_shards` jobs, each with its share
//! of the iterations, a master seed of its own and its predicted time. On
//! Buildkite the shards of a kind are one step's `parallelism`, on GitHub
//! matrix entries, locally batches run in turn; the report folds them back
//! into one row per test (executions add up).

use super::budget::{self, Next, Pace, Sizing};
use super::Plan;
use crate::domain::{GradleCommand, Repeating, Shard};
use crate::durations::Durations;
use crate::invocation::Seeds;
use crate::time::format_duration;
use std::time::Duration;

/// What sharding knows.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Timing<'a> {
    pub durations: &'a Durations,
    /// The budget of one job; `None`: nothing is split.
    pub budget: Option<Duration>,
    pub max_shards: u32,
}

/// Predicts each command's time and splits those that do not fit the budget;
/// notes what it did to the plan.
pub(crate) fn apply(plan: &mut Plan, timing: &Timing<'_>) {
    if timing.durations.source != crate::durations::Source::None {
        plan.durations_source = Some(timing.durations.source.describe());
    }
    plan.budget = timing.budget;
    let mut seeds = Seeds::default();
    let mut out = Vec::new();
    for c in std::mem::take(&mut plan.commands) {
        let (shards, note) = split(c, timing, &mut seeds);
        plan.notes.extend(note);
        out.extend(shards);
    }
    plan.commands = out;
}

/// Predicted wall time of `k` iterations of `c`: one invocation for an
/// in-JVM count, a Gradle start for each of its Gradle runs.
fn predicted(c: &GradleCommand, pace: &Pace, k: u32) -> Option<Duration> {
    match c.repetition() {
        Repeating::InJvm => pace.predict(k),
        Repeating::GradleRuns => pace.predict(1).map(|run| run * k),
    }
}

fn predict(c: &GradleCommand, pace: &Pace, k: u32) -> Option<u64> {
    predicted(c, pace, k).map(|t| t.as_secs_f64().ceil() as u64)
}

/// The most iterations of `c` one job fits in `budget`; `None` when not
/// even one does.
fn per_job(c: &GradleCommand, pace: &Pace, n: u32, budget: Duration) -> Option<u32> {
    if c.repetition() == Repeating::GradleRuns {
        let run = pace.predict(1)?;
        let fits = (budget.as_secs_f64() / run.as_secs_f64().max(f64::EPSILON)) as u32;
        return (fits > 0).then_some(fits.min(n));
    }
    let sizing = Sizing {
        remaining: n,
        planned: n,
        in_jvm: true,
        chunks_done: 0,
        stop_on_proof: false,
        look_every: None,
        left: Some(budget),
    };
    match budget::next(&sizing, pace) {
        Next::Run(k) => Some(k),
        Next::Done | Next::OutOfBudget => None,
    }
}

/// One command as shards (itself when it fits, or nothing is known).
fn split(
    mut c: GradleCommand,
    timing: &Timing<'_>,
    seeds: &mut Seeds,
) -> (Vec<GradleCommand>, Option<String>) {
    let pace = Pace::recorded(super::sample::per_iteration(&c, timing.durations));
    let n = c.executions().min(u64::from(u32::MAX)) as u32;
    c.predicted_sec = predict(&c, &pace, n);
    let Some(budget) = timing.budget else {
        return (vec![c], None);
    };
    if pace.per_iteration.is_none() || predicted(&c, &pace, n).is_some_and(|t| t <= budget) {
        return (vec![c], None);
    }
    // Only a count the argv carries (an in-JVM count, Gradle runs) can be split.
    if c.repetition() == Repeating::InJvm && !c.invocation.resizable() {
        return (vec![c], None);
    }
    let Some(per_job) = per_job(&c, &pace, n, budget) else {
        // No job can meet the budget: each is as short as the cap allows.
        return unmeetable(&c, n, budget, &pace, timing, seeds);
    };
    let wanted = n.div_ceil(per_job);
    let shards = wanted.clamp(1, timing.max_shards.max(1));
    let total = n.min(shards.saturating_mul(per_job));
    let note = if total < n {
        format!(
            "{} ({}): {n} iterations do not fit {} shards of the budget ({}): {total} are \
             planned, {} per shard (raise --max-shards or the budget for more)",
            c.label,
            tests_of(&c),
            shards,
            format_duration(budget),
            per_job
        )
    } else {
        format!(
            "{} ({}): {n} iterations in {shards} shards of at most {} each, to fit the budget ({})",
            c.label,
            tests_of(&c),
            total.div_ceil(shards),
            format_duration(budget)
        )
    };
    let out = (0..shards)
        .map(|i| shard(&c, i, shards, total, &pace, seeds))
        .collect();
    (out, Some(note))
}

/// A batch of `n` iterations whose jobs cannot meet `budget` (even one
/// iteration and Gradle's start are predicted to take longer): split into the
/// most shards the cap allows, each as short as it can be, and said so.
fn unmeetable(
    c: &GradleCommand,
    n: u32,
    budget: Duration,
    pace: &Pace,
    timing: &Timing<'_>,
    seeds: &mut Seeds,
) -> (Vec<GradleCommand>, Option<String>) {
    let shards = n.clamp(1, timing.max_shards.max(1));
    let note = format!(
        "{} ({}): the budget ({}) cannot be met: even one iteration is predicted to take longer \
         (Gradle's start included); {n} iterations in {shards} shard(s) of at most {}, each as \
         short as the cap allows (raise the budget, or --max-shards for shorter ones)",
        c.label,
        tests_of(c),
        format_duration(budget),
        n.div_ceil(shards)
    );
    let out = (0..shards)
        .map(|i| shard(c, i, shards, n, pace, seeds))
        .collect();
    (out, Some(note))
}

/// Shard `i + 1` of `of` of `c`, running its even share of `total` iterations.
fn shard(
    c: &GradleCommand,
    i: u32,
    of: u32,
    total: u32,
    pace: &Pace,
    seeds: &mut Seeds,
) -> GradleCommand {
    let (index, share) = (i + 1, total / of + u32::from(i < total % of));
    let mut s = c.clone();
    let seed = match c.repetition() {
        Repeating::InJvm => {
            let seed = c.invocation.seeded().then(|| seeds.fresh());
            s.invocation = c.invocation.with_iterations(share, seed.clone());
            if let Some(f) = &mut s.fallback {
                f.invocation = f.invocation.with_runs(share.saturating_sub(1).max(1));
            }
            seed
        }
        Repeating::GradleRuns => {
            s.invocation = c.invocation.with_runs(share);
            None
        }
    };
    s.predicted_sec = predict(c, pace, share);
    s.shard = Some(Shard { index, of, seed });
    s
}

fn tests_of(c: &GradleCommand) -> String {
    c.tests
        .iter()
        .map(super::test_name)
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::testing::unit;
    use crate::domain::{BatchingConfig, RepetitionMode, TestKind};
    use crate::durations::{Source, Table};
    use crate::plan::PlanContext;

    fn plan(iterations: u32, secs: f64) -> (Plan, Durations) {
        plan_in(iterations, secs, RepetitionMode::Auto)
    }

    fn plan_in(iterations: u32, secs: f64, repetition: RepetitionMode) -> (Plan, Durations) {
        let cfg = BatchingConfig {
            unit_iters: iterations,
            repetition,
            ..BatchingConfig::default()
        };
        let ctx = PlanContext {
            gradle: vec!["gradle".into()],
            gradle_version: None,
            extra_args: vec![],
            tasks: Default::default(),
            start_on_gradle_runs: Default::default(),
            fresh_jvm_each: Default::default(),
            commit: None,
        };
        let mut table = Table::default();
        table.classes.insert("a.ATests".into(), secs);
        let durations = Durations {
            table,
            source: Source::Recorded("d.json".into()),
        };
        (
            super::super::plan(&[unit("a.ATests")], &cfg, &ctx),
            durations,
        )
    }

    fn sharded(iterations: u32, secs: f64, budget: u64, max: u32) -> Plan {
        let (mut p, durations) = plan(iterations, secs);
        apply(
            &mut p,
            &Timing {
                durations: &durations,
                budget: Some(Duration::from_secs(budget)),
                max_shards: max,
            },
        );
        p
    }

    fn shares(p: &Plan) -> Vec<u32> {
        p.commands.iter().map(GradleCommand::iterations).collect()
    }

    #[test]
    fn a_batch_that_cannot_fit_its_budget_is_split_with_a_seed_per_shard() {
        // 15 s of Gradle + k × 1.1 s ≤ 60 s: 40 per job, 100 in three.
        let p = sharded(100, 1.0, 60, 10);
        assert_eq!(shares(&p), [34, 33, 33]);
        assert!(p.commands.iter().all(|c| c.kind == TestKind::Unit));
        let seeds: std::collections::BTreeSet<_> = p
            .commands
            .iter()
            .map(|c| c.invocation.seed.clone().unwrap())
            .collect();
        assert_eq!(seeds.len(), 3);
        assert!(
            p.notes[p.notes.len() - 1].contains("in 3 shards"),
            "{:?}",
            p.notes
        );
        assert_eq!(shares(&sharded(10, 1.0, 60, 10)), [10], "it fits");
        let capped = sharded(100, 1.0, 60, 2);
        assert_eq!(
            shares(&capped),
            [40, 40],
            "the cap: fewer planned, and said"
        );
        assert!(
            capped.notes.last().unwrap().contains("80 are planned"),
            "{:?}",
            capped.notes
        );
    }

    /// A batch repeated by Gradle runs pays Gradle's start on every run:
    /// 60 runs of 1.1 s after 15 s each are 16.1 s a run, 3 to a minute's
    /// job; its prediction counts every start.
    #[test]
    fn gradle_runs_are_predicted_and_split_with_a_start_each() {
        let (p, durations) = plan_in(60, 1.0, RepetitionMode::GradleRuns);
        assert_eq!(p.commands[0].repetition(), Repeating::GradleRuns);
        let whole = sharded_plan(p.clone(), &durations, 3600, 100);
        assert_eq!(whole.commands[0].predicted_sec, Some(966), "60 × 16.1 s");
        let split = sharded_plan(p, &durations, 60, 100);
        let runs: Vec<u32> = split.commands.iter().map(|c| c.rest_loops()).collect();
        assert_eq!(runs, [3; 20]);
        assert!(split.commands.iter().all(|c| c.predicted_sec == Some(49)));
    }

    fn sharded_plan(mut p: Plan, durations: &Durations, budget: u64, max: u32) -> Plan {
        apply(
            &mut p,
            &Timing {
                durations,
                budget: Some(Duration::from_secs(budget)),
                max_shards: max,
            },
        );
        p
    }

    /// Gradle's start alone exceeds the budget: no job can meet it, so each
    /// is as short as the cap allows, and the plan says the budget cannot be met.
    #[test]
    fn an_unmeetable_budget_shards_to_the_cap_and_says_so() {
        let p = sharded(100, 1.0, 10, 4);
        assert_eq!(shares(&p), [25, 25, 25, 25]);
        let note = p.notes.last().unwrap();
        assert!(note.contains("the budget (10s) cannot be met"), "{note}");
        assert!(note.contains("in 4 shard(s) of at most 25"), "{note}");
    }
}
