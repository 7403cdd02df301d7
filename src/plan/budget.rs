//! A batch's iterations within a time budget: how many go into the next chunk
//! (one Gradle invocation), checked against the time left before it starts.
//! Pure: the runner measures, this decides.
//!
//! A chunk is `k` iterations of whatever repetition the plan chose: `k` in one
//! test JVM for an in-JVM batch, one Gradle run for a batch repeated by Gradle
//! runs (its runs are checked one by one).

use std::time::Duration;

/// Assumed cost of starting Gradle for a chunk until one was measured.
pub(crate) const GRADLE_START: Duration = Duration::from_secs(15);

/// Predictions are inflated by this much, so that a slightly slower chunk
/// still ends inside the budget.
const SAFETY: f64 = 1.1;

/// With stop on proof, the first in-JVM chunk runs this fraction of the
/// iterations (at least one, at most [`FIRST_MOST`]) and each later one twice the one before: a
/// test failing 30% of the time is proven in the first tenth with 97%
/// probability, and a clean batch costs about four Gradle starts.
const FIRST_SHARE: u32 = 10;

/// The most iterations of that first chunk (an open-ended `--until-fail`
/// batch plans a count far beyond what its time allows).
const FIRST_MOST: u32 = 10;

/// The iterations of the probe that measures an unknown pace: two in one
/// JVM also show whether the second costs more than the first (state that
/// accumulates, `plan::switch`), for one iteration more than a bare probe.
const PROBE: u32 = 2;

/// What the runner knows of a batch's pace.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Pace {
    /// Test time of one iteration: measured, else the durations', else unknown.
    pub per_iteration: Option<Duration>,
    /// What a chunk costs besides its iterations (Gradle's start, compiling,
    /// the test JVM); [`GRADLE_START`] until measured.
    pub overhead: Option<Duration>,
}

impl Pace {
    /// The pace the durations give, the overhead not yet measured.
    pub(crate) fn recorded(per_iteration: Option<Duration>) -> Pace {
        Pace {
            per_iteration,
            overhead: None,
        }
    }

    /// Predicted wall time of a chunk of `k` iterations; `None` when the
    /// iterations' time is unknown.
    pub(crate) fn predict(&self, k: u32) -> Option<Duration> {
        let per = self.per_iteration?;
        let overhead = self.overhead.unwrap_or(GRADLE_START);
        Some(overhead + per.mul_f64(f64::from(k) * SAFETY))
    }

    /// Expected wall time of a chunk of `k` iterations, without the margin a
    /// budget keeps: what a person is told is left.
    pub(crate) fn expect(&self, k: u32) -> Option<Duration> {
        let per = self.per_iteration?;
        Some(self.overhead.unwrap_or(GRADLE_START) + per * k)
    }

    /// The mean pace of chunks, each `(k, elapsed, tests)` as in
    /// [`Pace::measured`]: what a person is told the rest takes (one slow
    /// chunk does not set it alone). The first chunk's overhead counts only
    /// while it is the only one: it pays what later chunks do not (compiling
    /// the build, a cold daemon: half a minute on a CI agent's fresh
    /// checkout against 5 s a later run). `None` without a chunk.
    pub(crate) fn of_chunks(chunks: &[(u32, Duration, Duration)]) -> Option<Pace> {
        let warm = match chunks.len() {
            0 => return None,
            1 => chunks,
            _ => &chunks[1..],
        };
        let iterations: u32 = chunks.iter().map(|c| c.0.max(1)).sum();
        let tests: Duration = chunks.iter().map(|c| c.2).sum();
        let overhead: Duration = warm.iter().map(|c| c.1.saturating_sub(c.2)).sum();
        Some(Pace {
            per_iteration: Some(tests / iterations.max(1)),
            overhead: Some(overhead / warm.len() as u32),
        })
    }

    /// The pace after a chunk of `k` iterations took `elapsed`, `tests` of it
    /// in the tests (their XML times).
    pub(crate) fn measured(k: u32, elapsed: Duration, tests: Duration) -> Pace {
        let k = k.max(1);
        Pace {
            per_iteration: Some(tests / k),
            overhead: Some(elapsed.saturating_sub(tests)),
        }
    }
}

/// How the next chunk is sized.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Sizing {
    /// Iterations the batch still owes.
    pub remaining: u32,
    /// Iterations the batch was planned.
    pub planned: u32,
    /// One invocation runs many iterations (`-Dtests.iters`); else one each.
    pub in_jvm: bool,
    /// Chunks run so far.
    pub chunks_done: u32,
    /// Stop on proof is on for some test of the batch.
    pub stop_on_proof: bool,
    /// A comparison looks after every this many iterations (`--compare`):
    /// no in-JVM chunk goes past its next look.
    pub look_every: Option<u32>,
    /// Time left of the budget; `None`: no budget.
    pub left: Option<Duration>,
}

/// The next chunk.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Next {
    /// Run this many iterations.
    Run(u32),
    /// Nothing is owed.
    Done,
    /// Not even one iteration fits what is left of the budget.
    OutOfBudget,
}

/// The next chunk of a batch at `pace`.
pub(crate) fn next(s: &Sizing, pace: &Pace) -> Next {
    if s.remaining == 0 {
        return Next::Done;
    }
    let mut k = if s.in_jvm { s.remaining } else { 1 };
    if s.in_jvm && s.stop_on_proof {
        let first = (s.planned / FIRST_SHARE).clamp(1, FIRST_MOST);
        let grown = first.saturating_mul(1u32 << s.chunks_done.min(20));
        k = k.min(grown);
    }
    if let (true, Some(step)) = (s.in_jvm, s.look_every.filter(|n| *n > 0)) {
        let done = s.planned.saturating_sub(s.remaining);
        let next_look = (done / step + 1).saturating_mul(step);
        k = k.min(next_look - done).max(1);
    }
    let Some(left) = s.left else {
        return Next::Run(k);
    };
    match pace.per_iteration {
        // Unknown pace: a probe measures it. A budget that does not even
        // leave Gradle's start for it is already spent.
        None if pace.overhead.is_some_and(|o| o > left) => Next::OutOfBudget,
        None => Next::Run(k.min(PROBE)),
        Some(_) => {
            let fits = |k: u32| pace.predict(k).is_some_and(|t| t <= left);
            if !fits(1) {
                return Next::OutOfBudget;
            }
            // The most that fits, by bisection over 1..=k.
            let (mut lo, mut hi) = (1, k);
            while lo < hi {
                let mid = lo + (hi - lo).div_ceil(2);
                if fits(mid) {
                    lo = mid;
                } else {
                    hi = mid - 1;
                }
            }
            Next::Run(lo)
        }
    }
}

/// Chunks a time left is counted in one by one; past them, what is owed
/// is taken as one more chunk (an open-ended count).
const COUNTED_CHUNKS: u32 = 64;

/// The time what `s` still owes should take at `pace`, in the chunks
/// [`next`] would cut (the budget aside: the caller caps by it); `None`
/// when the pace is unknown.
pub(crate) fn time_left(s: &Sizing, pace: &Pace) -> Option<Duration> {
    if s.remaining == 0 {
        return Some(Duration::ZERO);
    }
    if !s.in_jvm {
        return Some(pace.expect(1)? * s.remaining);
    }
    let mut s = Sizing { left: None, ..*s };
    let mut total = Duration::ZERO;
    while s.remaining > 0 {
        let k = match next(&s, pace) {
            Next::Run(k) if s.chunks_done < COUNTED_CHUNKS => k,
            _ => s.remaining,
        };
        total += pace.expect(k)?;
        s.remaining -= k;
        s.chunks_done += 1;
    }
    Some(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sizing(remaining: u32, left: Option<u64>) -> Sizing {
        Sizing {
            remaining,
            planned: 100,
            in_jvm: true,
            chunks_done: 0,
            stop_on_proof: false,
            look_every: None,
            left: left.map(Duration::from_secs),
        }
    }

    fn pace(per: u64, overhead: u64) -> Pace {
        Pace {
            per_iteration: Some(Duration::from_secs(per)),
            overhead: Some(Duration::from_secs(overhead)),
        }
    }

    /// A CI job's Gradle runs: the first compiles the fresh checkout (35 s,
    /// 1 s of tests), later ones take 6 s. Alone, the first is all that is
    /// known; once a later one ran, the rest goes at the warm runs' pace,
    /// not at a mean the compile inflates (it said 32 minutes left of a
    /// 6-minute job on a real suite).
    #[test]
    fn the_first_chunks_cold_start_sets_the_pace_only_while_it_is_alone() {
        let s = Duration::from_secs;
        let cold = (1, s(35), s(1));
        let warm = (1, s(6), s(1));
        assert_eq!(Pace::of_chunks(&[cold]), Some(pace(1, 34)));
        assert_eq!(Pace::of_chunks(&[cold, warm, warm]), Some(pace(1, 5)));
        assert_eq!(Pace::of_chunks(&[]), None);
    }

    #[test]
    fn without_a_budget_everything_runs_in_one_chunk() {
        assert_eq!(next(&sizing(100, None), &Pace::default()), Next::Run(100));
        assert_eq!(next(&sizing(0, None), &Pace::default()), Next::Done);
        let runs = Sizing {
            in_jvm: false,
            ..sizing(10, None)
        };
        assert_eq!(next(&runs, &Pace::default()), Next::Run(1));
    }

    #[test]
    fn an_unknown_pace_is_probed_with_two_iterations_in_the_jvm() {
        assert_eq!(next(&sizing(100, Some(60)), &Pace::default()), Next::Run(2));
        assert_eq!(next(&sizing(1, Some(60)), &Pace::default()), Next::Run(1));
        let runs = Sizing {
            in_jvm: false,
            ..sizing(100, Some(60))
        };
        assert_eq!(
            next(&runs, &Pace::default()),
            Next::Run(1),
            "one Gradle run"
        );
    }

    #[test]
    fn a_chunk_takes_what_fits_the_time_left() {
        // 10 s overhead + k × 2 s × 1.1 ≤ 60 s ⇒ k = 22.
        assert_eq!(next(&sizing(100, Some(60)), &pace(2, 10)), Next::Run(22));
        assert_eq!(next(&sizing(5, Some(60)), &pace(2, 10)), Next::Run(5));
        assert_eq!(
            next(&sizing(100, Some(12)), &pace(2, 10)),
            Next::OutOfBudget
        );
        let probe_too_late = Pace {
            per_iteration: None,
            overhead: Some(Duration::from_secs(30)),
        };
        assert_eq!(
            next(&sizing(100, Some(20)), &probe_too_late),
            Next::OutOfBudget
        );
    }

    #[test]
    fn stop_on_proof_grows_chunks_from_a_tenth() {
        let s = |chunks_done, remaining| Sizing {
            stop_on_proof: true,
            chunks_done,
            ..sizing(remaining, None)
        };
        assert_eq!(next(&s(0, 100), &Pace::default()), Next::Run(10));
        assert_eq!(next(&s(1, 90), &Pace::default()), Next::Run(20));
        assert_eq!(next(&s(2, 70), &Pace::default()), Next::Run(40));
        assert_eq!(next(&s(3, 30), &Pace::default()), Next::Run(30));
    }

    #[test]
    fn a_comparison_ends_its_chunks_at_its_looks() {
        let s = |remaining| Sizing {
            look_every: Some(20),
            planned: 40,
            ..sizing(remaining, None)
        };
        assert_eq!(next(&s(40), &Pace::default()), Next::Run(20));
        assert_eq!(next(&s(20), &Pace::default()), Next::Run(20));
        // A budget's smaller chunk: the next one stops at the look.
        assert_eq!(next(&s(33), &Pace::default()), Next::Run(13));
        let runs = Sizing {
            in_jvm: false,
            ..s(40)
        };
        assert_eq!(next(&runs, &Pace::default()), Next::Run(1));
    }

    /// What is left is what the chunks still to come take at the pace
    /// measured, none at the end; Gradle runs one by one.
    #[test]
    fn the_time_left_is_the_chunks_still_to_come() {
        let s = |remaining, chunks_done| Sizing {
            stop_on_proof: true,
            chunks_done,
            ..sizing(remaining, None)
        };
        let secs = |t: Option<Duration>| t.map(|t| t.as_secs());
        // Chunks of 20, 40 and 30 left, 10 s of overhead each, 2 s an iteration.
        assert_eq!(secs(time_left(&s(90, 1), &pace(2, 10))), Some(3 * 10 + 180));
        assert_eq!(secs(time_left(&s(0, 4), &pace(2, 10))), Some(0));
        assert_eq!(time_left(&s(90, 1), &Pace::default()), None, "unknown");
        let runs = Sizing {
            in_jvm: false,
            ..sizing(7, None)
        };
        assert_eq!(secs(time_left(&runs, &pace(2, 10))), Some(7 * 12));
        let open = Sizing {
            planned: u32::MAX,
            ..s(u32::MAX - 10, 0)
        };
        assert!(time_left(&open, &pace(0, 1)).is_some(), "it ends");
    }

    #[test]
    fn a_measured_chunk_splits_into_tests_and_overhead() {
        let p = Pace::measured(4, Duration::from_secs(30), Duration::from_secs(20));
        assert_eq!(p, pace(5, 10));
        assert_eq!(p.predict(2), Some(Duration::from_secs(21)));
    }
}
