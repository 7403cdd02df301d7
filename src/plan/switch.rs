//! When in-JVM repetition costs more than fresh Gradle runs would: a class
//! whose state accumulates in one test JVM makes each iteration slower than
//! the one before, and past some point a Gradle run per iteration (a fresh
//! JVM each) is cheaper. Pure: the engine measures each chunk and applies
//! the decision (`--repetition auto` switches the rest of the batch to
//! Gradle runs; an explicit `in-jvm` keeps the JVM and the report says what
//! it cost).
//!
//! A chunk of `k` iterations in one JVM is compared with what `k` fresh runs
//! of the same tests would have cost: its wall time per iteration against
//! one Gradle start plus one first iteration in a fresh JVM.

use super::budget::GRADLE_START;
use std::time::Duration;

/// What `--repetition` asks of a batch whose in-JVM iterations cost more
/// than fresh runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OnDearer {
    /// Nothing (Gradle runs only, triage's replays, whole-task runs).
    #[default]
    Ignore,
    /// `auto`: the rest of the batch runs as Gradle runs.
    Switch,
    /// `in-jvm`, asked for: the batch stays in the JVM, the report says so.
    Say,
}

/// One in-JVM chunk as it ran.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct ChunkCost {
    /// Its iterations.
    pub iterations: u32,
    /// Its wall time, Gradle's start included.
    pub elapsed: Duration,
}

/// What one fresh Gradle run of the same tests costs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct FreshRun {
    /// Gradle's start and the test JVM's, besides the tests.
    pub start: Duration,
    /// One iteration's test time, first in its JVM.
    pub first_iteration: Duration,
}

impl FreshRun {
    /// The estimate from what is known: the start measured where it can be
    /// told (a chunk in one JVM: its wall time less its tests'), else
    /// Gradle's assumed start; the first iteration measured (executions
    /// first in their JVM), else the recorded durations. The recorded ones
    /// come second because a class whose state accumulates records the mean
    /// of its slowed iterations. `None` when the iteration's time is unknown.
    pub(crate) fn estimate(
        start: Option<Duration>,
        first_measured: Option<Duration>,
        recorded: Option<Duration>,
    ) -> Option<FreshRun> {
        Some(FreshRun {
            start: start.unwrap_or(GRADLE_START),
            first_iteration: first_measured.or(recorded)?,
        })
    }

    pub(crate) fn cost(&self) -> Duration {
        self.start + self.first_iteration
    }
}

/// In-JVM iterations cost more than fresh runs: the figures the run and the
/// report show.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Dearer {
    /// Wall time per iteration of the chunk in one JVM.
    pub per_iteration: Duration,
    /// What one fresh Gradle run costs.
    pub fresh_run: Duration,
}

impl Dearer {
    /// `in-JVM iterations of X took 6.2s each against 3.1s for a fresh run: …`,
    /// ending with what the run does about it.
    pub fn describe(&self, what: &str, on: OnDearer) -> String {
        let then = match on {
            OnDearer::Switch => "the rest run as Gradle runs",
            _ => "--repetition in-jvm keeps them in the JVM",
        };
        format!(
            "in-JVM iterations of {what} took {} each against {} for a fresh run: {then}",
            crate::time::human(self.per_iteration),
            crate::time::human(self.fresh_run),
        )
    }
}

/// The rule: a chunk of two or more iterations whose wall time per iteration
/// passed the cost of a fresh run cost more than that many fresh runs would
/// have. A chunk of one iteration is a fresh run itself.
pub(crate) fn dearer(chunk: ChunkCost, fresh: FreshRun) -> Option<Dearer> {
    if chunk.iterations < 2 {
        return None;
    }
    let per_iteration = chunk.elapsed / chunk.iterations;
    let fresh_run = fresh.cost();
    (per_iteration > fresh_run).then_some(Dearer {
        per_iteration,
        fresh_run,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secs(s: f64) -> Duration {
        Duration::from_secs_f64(s)
    }

    fn chunk(iterations: u32, elapsed: f64) -> ChunkCost {
        ChunkCost {
            iterations,
            elapsed: secs(elapsed),
        }
    }

    fn fresh(start: f64, first: f64) -> FreshRun {
        FreshRun {
            start: secs(start),
            first_iteration: secs(first),
        }
    }

    /// The suite: 30 iterations in one JVM took 513 s, about 17 s
    /// each, against about 7 s for an ordinary run of it.
    #[test]
    fn a_chunk_dearer_than_its_fresh_runs_switches() {
        let d = dearer(chunk(30, 513.0), fresh(3.0, 4.0)).expect("dearer");
        assert_eq!(d.per_iteration, Duration::from_millis(17_100));
        assert_eq!(d.fresh_run, Duration::from_secs(7));
    }

    /// In-JVM repetition as it should be: the start paid once, each
    /// iteration as cheap as the first.
    #[test]
    fn a_chunk_cheaper_than_its_fresh_runs_stays() {
        assert_eq!(dearer(chunk(20, 3.0 + 20.0 * 0.5), fresh(3.0, 0.5)), None);
        // Exactly as dear is not dearer.
        assert_eq!(dearer(chunk(2, 7.0), fresh(3.0, 0.5)), None);
        assert!(dearer(chunk(2, 7.2), fresh(3.0, 0.5)).is_some());
    }

    /// One iteration in a JVM is what a fresh run is: no comparison.
    #[test]
    fn a_chunk_of_one_iteration_decides_nothing() {
        assert_eq!(dearer(chunk(1, 100.0), fresh(3.0, 0.5)), None);
        assert_eq!(dearer(chunk(0, 100.0), fresh(3.0, 0.5)), None);
    }

    /// The start measured wins over the assumed one, the first iteration
    /// measured over the recorded mean; an unknown iteration time decides
    /// nothing.
    #[test]
    fn the_fresh_run_is_estimated_from_what_was_measured_first() {
        let f = FreshRun::estimate(Some(secs(2.0)), Some(secs(0.1)), Some(secs(5.0)));
        assert_eq!(f, Some(fresh(2.0, 0.1)));
        let f = FreshRun::estimate(None, None, Some(secs(5.0))).unwrap();
        assert_eq!(f.start, GRADLE_START);
        assert_eq!(f.cost(), GRADLE_START + secs(5.0));
        assert_eq!(FreshRun::estimate(Some(secs(2.0)), None, None), None);
    }

    #[test]
    fn the_decision_says_its_figures_and_what_follows() {
        let d = dearer(chunk(2, 12.4), fresh(3.0, 0.1)).unwrap();
        assert_eq!(
            d.describe("a.GrowingTests", OnDearer::Switch),
            "in-JVM iterations of a.GrowingTests took 6.2s each against 3.1s for a fresh run: \
             the rest run as Gradle runs"
        );
        assert!(d
            .describe("a.GrowingTests", OnDearer::Say)
            .ends_with("for a fresh run: --repetition in-jvm keeps them in the JVM"));
    }
}
