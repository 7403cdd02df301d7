//! Shards: a batch whose planned iterations do not fit one job's budget (by
//! the durations) is split into up to `max_shards` jobs, each with its share
//! of the iterations, a master seed of its own and its predicted time. On
//! Buildkite the shards of a kind are one step's `parallelism`, on GitHub
//! matrix entries, locally batches run in turn; the report folds them back
//! into one row per test (executions add up).

use super::budget::{self, Next, Pace, Sizing};
use super::Plan;
use crate::domain::{GradleCommand, Repetition, Shard};
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

fn predict(pace: &Pace, k: u32) -> Option<u64> {
    pace.predict(k).map(|t| t.as_secs_f64().ceil() as u64)
}

/// One command as shards (itself when it fits, or nothing is known).
fn split(
    mut c: GradleCommand,
    timing: &Timing<'_>,
    seeds: &mut Seeds,
) -> (Vec<GradleCommand>, Option<String>) {
    let pace = Pace {
        per_iteration: super::sample::per_iteration(&c, timing.durations),
        overhead: None,
    };
    let n = c.executions().min(u64::from(u32::MAX)) as u32;
    c.predicted_sec = predict(&pace, n);
    let Some(budget) = timing.budget else {
        return (vec![c], None);
    };
    if pace.per_iteration.is_none() || pace.predict(n).is_some_and(|t| t <= budget) {
        return (vec![c], None);
    }
    // Only a count the argv carries (an in-JVM count, Gradle runs) can be split.
    if c.repetition() == Repetition::InJvm && !c.invocation.resizable() {
        return (vec![c], None);
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
    let per_job = match budget::next(&sizing, &pace) {
        Next::Run(k) => k,
        // No job can meet the budget: each is as short as the cap allows.
        Next::Done | Next::OutOfBudget => return unmeetable(&c, n, budget, &pace, timing, seeds),
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
        .map(|i| {
            let share = total / shards + u32::from(i < total % shards);
            shard(&c, i + 1, shards, share, &pace, seeds)
        })
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
        .map(|i| {
            let share = n / shards + u32::from(i < n % shards);
            shard(c, i + 1, shards, share, pace, seeds)
        })
        .collect();
    (out, Some(note))
}

/// Shard `index` of `of` of `c`, running `share` of its iterations.
fn shard(
    c: &GradleCommand,
    index: u32,
    of: u32,
    share: u32,
    pace: &Pace,
    seeds: &mut Seeds,
) -> GradleCommand {
    let mut s = c.clone();
    let seed = match c.repetition() {
        Repetition::InJvm => {
            let seed = c.invocation.seeded().then(|| seeds.fresh());
            s.invocation = c.invocation.with_iterations(share, seed.clone());
            if let Some(f) = &mut s.fallback {
                f.invocation = f.invocation.with_runs(share.saturating_sub(1).max(1));
            }
            seed
        }
        Repetition::GradleRuns => {
            s.invocation = c.invocation.with_runs(share);
            None
        }
    };
    s.predicted_sec = predict(pace, share);
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
    use crate::domain::{BatchingConfig, TestKind};
    use crate::durations::{Source, Table};
    use crate::plan::PlanContext;

    fn plan(iterations: u32, secs: f64) -> (Plan, Durations) {
        let cfg = BatchingConfig {
            unit_iters: iterations,
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
