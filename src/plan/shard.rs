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
pub struct Timing<'a> {
    pub durations: &'a Durations,
    /// The budget of one job; `None`: nothing is split.
    pub budget: Option<Duration>,
    pub max_shards: u32,
}

/// Predicts each command's time and splits those that do not fit the budget;
/// notes what it did to the plan.
pub fn apply(plan: &mut Plan, timing: &Timing<'_>) {
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
        per_iteration: timing.durations.per_iteration(&c.tests),
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
        left: Some(budget),
    };
    let per_job = match budget::next(&sizing, &pace) {
        Next::Run(k) => k,
        Next::Done | Next::OutOfBudget => {
            let note = format!(
                "{} ({}): even one iteration is predicted to take longer than the budget ({}): \
                 it runs as planned, in chunks, and stops at its budget",
                c.label,
                tests_of(&c),
                format_duration(budget)
            );
            return (vec![c], Some(note));
        }
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
