//! The search of `bisect`, apart from Gradle: which commit made a test
//! flaky, over the first-parent points between a good end (index 0) and a
//! bad end (the last index), each measured as often as an exact test needs.
//!
//! Why not `git bisect` with one run a point: a commit that fails one run
//! in five reads good most of the time. Here each point runs in chunks until
//! Fisher's exact test tells its rate from the good end's (it fails more:
//! the culprit is at or before it) or from the bad end's (it fails less: the
//! culprit is after it), or until `max_runs` says it cannot be told. The
//! overall error rate `alpha` is a budget: the two ends' check and each
//! decision still to take get equal shares of what is left (sized for the
//! points left), and within a decision each look spends its share along
//! O'Brien–Fleming-type spending (`stats::looks`), both directions half
//! each. By the union bound, the chance of any wrong decision, and so of a
//! wrong culprit, is at most `alpha` when the test's rate steps once from
//! the good end's to the bad end's.

use crate::stats::looks::spent_between;
use crate::stats::{p_fixed, Counts};
use crate::Result;

/// How the search measures.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Rules {
    /// The overall chance of naming a wrong commit (or calling an end what
    /// it is not).
    pub alpha: f64,
    /// The most runs at one point.
    pub max_runs: u64,
    /// Runs between two looks.
    pub chunk: u64,
}

/// What one measurement at a point gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Measured {
    /// More runs (and failures) of the test at the point.
    Ran(Counts),
    /// The point cannot be measured: it does not build or runs no test.
    Skip(String),
}

/// Runs the test at the points of the search.
pub(crate) trait Probe {
    /// Runs the test `runs` more times at `point` (0: the good end).
    fn measure(&mut self, point: usize, runs: u64) -> Result<Measured>;
}

/// A point's decision, with the p-value it rests on.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum BisectSide {
    /// It fails more than the good end: the culprit is at or before it.
    Bad { p: f64 },
    /// It fails less than the bad end: the culprit is after it.
    Good { p: f64 },
}

/// How the search ended.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Ending {
    /// The first point whose rate differs from the good end's: `culprit`,
    /// after `parent` (its first parent, or the nearest measured point
    /// before it when points between were skipped).
    Culprit { culprit: usize, parent: usize },
    /// The bad end never failed in `max_runs`: it is not flaky here.
    BadNotFlaky,
    /// The good end failed: it is already flaky.
    GoodFlaky,
    /// A point (an end's check: the good end) could not be told from
    /// either side within `max_runs`.
    CannotTell { point: usize },
    /// Every point between `good` and `bad` was skipped: the culprit is one
    /// of them or `bad`.
    Skipped { good: usize, bad: usize },
    /// An end does not build or runs no test.
    EndSkipped { point: usize },
    /// A measurement failed (a Ctrl-C, Gradle gone): what was measured so
    /// far stands.
    Stopped(String),
}

/// What the search measured and decided, and how it ended.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct SearchOutcome {
    /// Each point's counts (the known ones given at the start included).
    pub counts: Vec<Counts>,
    /// Each point's decision, when one was taken.
    pub sides: Vec<Option<BisectSide>>,
    /// Why a skipped point was skipped.
    pub skipped: Vec<Option<String>>,
    pub ending: Ending,
    /// The runs this search ran (known ones not counted).
    pub runs: u64,
}

/// The search over `known.len()` points (at least 2: the ends), each with
/// the counts already known of it (the ledger's), measured by `m`. A
/// measurement that fails (a Ctrl-C, Gradle gone) ends it `Stopped`, with
/// every count gathered so far.
pub(crate) fn search(known: Vec<Counts>, rules: Rules, m: &mut dyn Probe) -> SearchOutcome {
    let n = known.len();
    let mut s = SearchState {
        out: SearchOutcome {
            counts: known,
            sides: vec![None; n],
            skipped: vec![None; n],
            ending: Ending::BadNotFlaky,
            runs: 0,
        },
        rules,
        m,
    };
    s.out.ending = s.walk().unwrap_or_else(|e| Ending::Stopped(e.to_string()));
    s.out
}

/// Halvings that narrow `span` points down to one: ⌈log₂ span⌉.
fn halvings(span: usize) -> u32 {
    usize::BITS - span.saturating_sub(1).leading_zeros()
}

enum Decided {
    BisectSide(BisectSide),
    Skip,
    Undecided,
}

struct SearchState<'a> {
    out: SearchOutcome,
    rules: Rules,
    m: &'a mut dyn Probe,
}

impl SearchState<'_> {
    /// The ends' check, then the halvings.
    fn walk(&mut self) -> Result<Ending> {
        let n = self.out.counts.len();
        // The ends' check and one decision per halving take equal shares.
        let decisions = 1 + halvings(n - 1);
        let mut alpha_left = self.rules.alpha;
        let ends = alpha_left / f64::from(decisions);
        alpha_left -= ends;
        if let Some(ending) = self.check_ends(n - 1, ends)? {
            return Ok(ending);
        }
        let (mut good, mut bad) = (0, n - 1);
        while bad - good > 1 {
            let Some(point) = self.next_point(good, bad) else {
                return Ok(Ending::Skipped { good, bad });
            };
            let share = alpha_left / f64::from(halvings(bad - good));
            alpha_left -= share;
            match self.decide(point, n - 1, share)? {
                Decided::BisectSide(BisectSide::Bad { .. }) => bad = point,
                Decided::BisectSide(BisectSide::Good { .. }) => good = point,
                Decided::Skip => {}
                Decided::Undecided => return Ok(Ending::CannotTell { point }),
            }
        }
        Ok(Ending::Culprit {
            culprit: bad,
            parent: good,
        })
    }

    /// Runs `point` one chunk more (at most up to `max_runs`); false when it
    /// is skipped or already at `max_runs`.
    fn more(&mut self, point: usize) -> Result<bool> {
        let have = self.out.counts[point].runs;
        let runs = self
            .rules
            .chunk
            .min(self.rules.max_runs.saturating_sub(have));
        if runs == 0 || self.out.skipped[point].is_some() {
            return Ok(false);
        }
        match self.m.measure(point, runs)? {
            Measured::Ran(c) => {
                let was = self.out.counts[point];
                self.out.counts[point] = Counts::new(was.failures + c.failures, was.runs + c.runs);
                self.out.runs += c.runs;
                // A point that ran nothing more is as done as a skipped one.
                Ok(c.runs > 0)
            }
            Measured::Skip(why) => {
                self.out.skipped[point] = Some(why);
                Ok(false)
            }
        }
    }

    /// The share of `max_runs` a point's runs are: the looks' information time.
    fn time(&self, runs: u64) -> f64 {
        (runs as f64 / self.rules.max_runs as f64).min(1.0)
    }

    /// The bad end fails, the good end never does, and the good end's rate
    /// is told from the bad end's at `alpha`; `None` when all holds.
    fn check_ends(&mut self, bad: usize, alpha: f64) -> Result<Option<Ending>> {
        while self.out.counts[bad].failures == 0 {
            if !self.more(bad)? {
                return Ok(Some(match self.out.skipped[bad] {
                    Some(_) => Ending::EndSkipped { point: bad },
                    None => Ending::BadNotFlaky,
                }));
            }
        }
        let mut from = 0.0;
        loop {
            let good = self.out.counts[0];
            if good.failures > 0 {
                return Ok(Some(Ending::GoodFlaky));
            }
            let worst = self.out.counts[bad];
            let to = self.time(good.runs.min(worst.runs));
            let p = p_fixed(worst, good);
            if good.runs > 0 && to > from {
                if p < spent_between(from, to, alpha) {
                    self.out.sides[0] = Some(BisectSide::Good { p });
                    self.out.sides[bad] = Some(BisectSide::Bad { p });
                    return Ok(None);
                }
                from = to;
            }
            // The good end runs first; the bad end's count grows with it, so
            // that neither side's few runs hold the test back.
            let ran = match good.runs <= worst.runs {
                true => self.more(0)?,
                false => self.more(bad)?,
            };
            if !ran && !self.more(0)? && !self.more(bad)? {
                if let Some(point) = [0, bad]
                    .into_iter()
                    .find(|p| self.out.skipped[*p].is_some())
                {
                    return Ok(Some(Ending::EndSkipped { point }));
                }
                return Ok(Some(Ending::CannotTell { point: 0 }));
            }
        }
    }

    /// Measures `point` until its rate is told from one end's, at `alpha`
    /// (each direction half of it).
    fn decide(&mut self, point: usize, bad: usize, alpha: f64) -> Result<Decided> {
        let (good_counts, bad_counts) = (self.out.counts[0], self.out.counts[bad]);
        let mut from = 0.0;
        loop {
            let c = self.out.counts[point];
            let to = self.time(c.runs);
            if c.runs > 0 && to > from {
                let threshold = spent_between(from, to, alpha / 2.0);
                from = to;
                let worse = p_fixed(c, good_counts);
                let better = p_fixed(bad_counts, c);
                let side = match (worse < threshold, better < threshold) {
                    (true, _) => Some(BisectSide::Bad { p: worse }),
                    (false, true) => Some(BisectSide::Good { p: better }),
                    _ => None,
                };
                if let Some(side) = side {
                    self.out.sides[point] = Some(side);
                    return Ok(Decided::BisectSide(side));
                }
            }
            if !self.more(point)? {
                return Ok(match self.out.skipped[point] {
                    Some(_) => Decided::Skip,
                    None => Decided::Undecided,
                });
            }
        }
    }

    /// The point to measure between `good` and `bad`: the middle, or the
    /// nearest to it that is not skipped.
    fn next_point(&self, good: usize, bad: usize) -> Option<usize> {
        let mid = good + (bad - good) / 2;
        let open = |p: usize| p > good && p < bad && self.out.skipped[p].is_none();
        (0..bad - good).find_map(|d| {
            [mid.checked_sub(d), Some(mid + d)]
                .into_iter()
                .flatten()
                .find(|p| open(*p))
        })
    }
}

#[cfg(test)]
#[path = "search_tests.rs"]
mod tests;
