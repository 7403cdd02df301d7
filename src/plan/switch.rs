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
//! one Gradle start plus one first iteration in a fresh JVM. And, since the
//! chunks after it are longer, by its marginal cost: the test time of its
//! last iterations (the last quarter, at least one) against that same fresh
//! run. An iteration at the end of a JVM that costs more than a whole fresh
//! run makes every longer chunk dearer still, even while the chunk's
//! average, which its cheap first iterations hold down, is not yet.

use super::budget::GRADLE_START;
use crate::durations::{Accumulates, DearerInJvm};
use std::time::Duration;

/// What `--repetition` asks of a batch whose in-JVM iterations cost more
/// than fresh runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
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
    /// The test time of its last iterations, each (see [`tail`]); `None`
    /// when the reports do not tell.
    pub tail: Option<Duration>,
}

/// The mean test time of the last quarter (at least one) of `positions`, the
/// test time of each iteration by its position in the JVM: what the next
/// iteration in that JVM costs at least when they keep growing.
pub(crate) fn tail(positions: &[Duration]) -> Option<Duration> {
    let n = (positions.len() / 4).max(1);
    let last = positions.get(positions.len().checked_sub(n)?..)?;
    Some(last.iter().sum::<Duration>() / n as u32)
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
    /// The test time of its last iterations each, when they decided (the
    /// average did not pass the fresh run yet).
    pub last: Option<Duration>,
    /// What one fresh Gradle run costs.
    pub fresh_run: Duration,
}

impl Dearer {
    /// `in-JVM iterations of X took 6.2s each against 3.1s for a fresh run: …`,
    /// ending with what the run does about it.
    /// With nothing `owed`, `auto` has nothing left to switch: the run
    /// remembers it for the next ones.
    pub fn describe(&self, what: &str, on: OnDearer, owed: bool) -> String {
        let then = match (on, owed) {
            (OnDearer::Switch, true) => "the rest run as Gradle runs",
            (OnDearer::Switch, false) => "its next runs on this commit start on Gradle runs",
            _ => "--repetition in-jvm keeps them in the JVM",
        };
        let last = match self.last {
            Some(last) => format!(", the last {},", crate::time::human(last)),
            None => String::new(),
        };
        format!(
            "in-JVM iterations of {what} took {} each{last} against {} for a fresh run: {then}",
            crate::time::human(self.per_iteration),
            crate::time::human(self.fresh_run),
        )
    }
}

/// What a run remembered of a class (measured or warned `on` a commit) holds
/// for a plan on `commit` when it is the same commit (or both outside git):
/// another commit may have fixed what accumulated, so there the class starts
/// in the JVM again and its first chunk is weighed anew; a run that weighs it
/// and finds it no dearer forgets it (`--repetition in-jvm` weighs it on any
/// commit).
pub(crate) fn holds(on: Option<&str>, commit: Option<&str>) -> bool {
    on == commit
}

/// Where a remembered figure was taken: `on this commit`, or `in this
/// build` outside git.
fn taken(on: &Option<String>) -> &'static str {
    match on {
        Some(_) => "on this commit",
        None => "in this build",
    }
}

/// Why `auto` starts `class` on Gradle runs: what a run remembered of it
/// (outside git, in this build).
pub(crate) fn remembered(class: &str, d: &DearerInJvm) -> String {
    let secs = |s: f64| crate::time::human(Duration::try_from_secs_f64(s).unwrap_or_default());
    let last = match d.last {
        Some(last) => format!(", the last {},", secs(last)),
        None => String::new(),
    };
    let on = taken(&d.commit);
    format!(
        "in-JVM iterations of {class} took {} each{last} against {} for a fresh run when last \
         measured {on}: it starts on Gradle runs",
        secs(d.per_iteration),
        secs(d.fresh_run),
    )
}

/// Why `auto` runs each execution of `class` first in a fresh test JVM: a
/// run on this commit (or in this build, outside git) warned that it
/// accumulates state in one JVM by itself, so its repeats there bound only a
/// JVM it had changed.
pub(crate) fn remembered_drift(class: &str, a: &Accumulates) -> String {
    let on = taken(&a.commit);
    format!(
        "{class} accumulated state in one JVM when last run {on} (state-accumulates, {}): each \
         of its executions runs first in a fresh test JVM, as CI runs it, in one Gradle \
         invocation",
        a.evidence.as_str()
    )
}

/// The rule: a chunk of two or more iterations whose wall time per iteration
/// passed the cost of a fresh run cost more than that many fresh runs would
/// have; one whose last iterations each took longer than a fresh run (the
/// marginal cost) would cost more with every iteration added. A chunk of
/// one iteration is a fresh run itself.
pub(crate) fn dearer(chunk: ChunkCost, fresh: FreshRun) -> Option<Dearer> {
    if chunk.iterations < 2 {
        return None;
    }
    let per_iteration = chunk.elapsed / chunk.iterations;
    let fresh_run = fresh.cost();
    let last = match per_iteration > fresh_run {
        true => None,
        false => Some(chunk.tail.filter(|t| *t > fresh_run)?),
    };
    Some(Dearer {
        per_iteration,
        last,
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
            tail: None,
        }
    }

    /// A chunk in one JVM after a start of `start`, its iterations taking
    /// `positions` seconds in order.
    fn timed(start: f64, positions: &[f64]) -> ChunkCost {
        let positions: Vec<Duration> = positions.iter().map(|s| secs(*s)).collect();
        ChunkCost {
            iterations: positions.len() as u32,
            elapsed: secs(start) + positions.iter().sum::<Duration>(),
            tail: tail(&positions),
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

    /// The benchmark's class (the i-th execution in a JVM sleeps (i-1) x 2 s)
    /// after a Gradle start of 1.5 s: a chunk of two costs 1.75 s an
    /// iteration against 1.5 s, a chunk of four 3.4 s; but a start of 3 s
    /// hides the growth in the average of two (2.5 s against 3 s), and the
    /// last iteration, 2 s, does not pass a fresh run either; at three the
    /// last, 4 s, does while the average (3 s) has not.
    #[test]
    fn the_last_iterations_decide_when_the_average_does_not_yet() {
        let d = dearer(timed(1.5, &[0.0, 2.0]), fresh(1.5, 0.0)).expect("dearer");
        assert_eq!(d.last, None, "the average decided");
        assert_eq!(dearer(timed(3.0, &[0.0, 2.0]), fresh(3.0, 0.0)), None);
        let d = dearer(timed(3.0, &[0.0, 2.0, 4.0]), fresh(3.0, 0.0)).expect("dearer");
        assert_eq!((d.per_iteration, d.last), (secs(3.0), Some(secs(4.0))));
        // Eight positions: the last two, 12 s and 14 s, each 13 s.
        let growing: Vec<f64> = (0..8).map(|i| f64::from(i) * 2.0).collect();
        assert_eq!(
            tail(&growing.iter().map(|s| secs(*s)).collect::<Vec<_>>()),
            Some(secs(13.0))
        );
        // A slow class without a trend stays: its last iteration is as its first.
        assert_eq!(
            dearer(timed(3.0, &[5.0, 5.5, 5.2, 5.1]), fresh(3.0, 5.0)),
            None
        );
        // A cheap class whose last iteration is slower, but less than a start, stays.
        assert_eq!(
            dearer(timed(3.0, &[0.2, 0.1, 0.1, 2.9]), fresh(3.0, 0.2)),
            None
        );
        assert_eq!(tail(&[]), None);
    }

    /// A class remembered dearer holds on the commit it was measured on
    /// (outside git: while both are unknown), and says why.
    #[test]
    fn a_remembered_cost_holds_on_its_commit() {
        let d = DearerInJvm {
            per_iteration: 3.4,
            last: Some(6.0),
            fresh_run: 1.5,
            commit: Some("abc".into()),
        };
        assert!(holds(d.commit.as_deref(), Some("abc")));
        assert!(
            !holds(d.commit.as_deref(), Some("def")),
            "another commit may have fixed it"
        );
        assert!(!holds(d.commit.as_deref(), None));
        let outside = DearerInJvm {
            commit: None,
            ..d.clone()
        };
        assert!(holds(outside.commit.as_deref(), None));
        assert!(remembered("a.G", &outside)
            .ends_with("when last measured in this build: it starts on Gradle runs"));
        assert_eq!(
            remembered("a.GrowingTests", &d),
            "in-JVM iterations of a.GrowingTests took 3.4s each, the last 6s, against 1.5s for \
             a fresh run when last measured on this commit: it starts on Gradle runs"
        );
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
            d.describe("a.GrowingTests", OnDearer::Switch, true),
            "in-JVM iterations of a.GrowingTests took 6.2s each against 3.1s for a fresh run: \
             the rest run as Gradle runs"
        );
        assert!(d
            .describe("a.GrowingTests", OnDearer::Switch, false)
            .ends_with("for a fresh run: its next runs on this commit start on Gradle runs"));
        assert!(d
            .describe("a.GrowingTests", OnDearer::Say, true)
            .ends_with("for a fresh run: --repetition in-jvm keeps them in the JVM"));
        let d = dearer(timed(3.0, &[0.0, 2.0, 4.0]), fresh(3.0, 0.0)).unwrap();
        assert_eq!(
            d.describe("a.GrowingTests", OnDearer::Switch, true),
            "in-JVM iterations of a.GrowingTests took 3s each, the last 4s, against 3s for a \
             fresh run: the rest run as Gradle runs"
        );
    }
}
