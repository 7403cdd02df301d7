//! Stopping a comparison's "after" side as soon as a fix is shown
//! (`local --compare REF`): a test leaves its batch at a look when every one
//! of its methods that failed before is shown fixed here (no failure, and
//! fewer than before beyond chance).
//!
//! The looks are a fixed schedule: `looks` equally spaced looks, after each
//! 1/`looks` of the planned runs (the engine cuts its chunks there), each
//! with the threshold the α-spending rule of `stats::looks` gives it. The
//! last look is the comparison's own, with the final counts, after the run:
//! the engine takes the ones before it.

use crate::stats::{self, looks, Counts};
use std::collections::BTreeMap;

/// The level of a comparison over all its looks, one-sided.
pub(crate) const ALPHA: f64 = 0.05;

/// How many looks a comparison takes by default: one halfway, one at the end.
/// With 2, the last look keeps 0.044 of the 0.05 (it gives a fix shown at
/// one look up only near the boundary: 5/100 before and 0/100 after, p =
/// 0.030, is still shown); the halfway look stops a clear fix (12/40 before,
/// 0/20 after, p = 0.002) at half the runs. More looks stop some fixes
/// sooner and cost the last look more (with 4 the last keeps 0.026, and
/// 5/100 against 0/100 is no longer shown).
pub(crate) const DEFAULT_LOOKS: u32 = 2;

/// One test's rule: its methods that failed before and their before counts.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct ShowFix {
    /// (class, method) → failures/runs before; only methods that failed
    /// before (a fix of the others cannot be shown).
    pub(crate) before: Vec<((String, String), Counts)>,
    pub(crate) looks: u32,
    pub(crate) alpha: f64,
}

/// What the after side counted of a test, per (class, method).
pub(crate) type AfterCounts = BTreeMap<(String, String), Counts>;

impl ShowFix {
    /// The look that `ran` of `planned` runs reaches: 1..=`looks` (the last
    /// once every planned run ran), 0 before the first.
    pub(crate) fn look_at(&self, ran: u64, planned: u64) -> u32 {
        if planned == 0 || ran >= planned {
            return self.looks;
        }
        let step = planned.div_ceil(u64::from(self.looks.max(1)));
        (ran / step).min(u64::from(self.looks)) as u32
    }

    /// The threshold of look `look` when the look before was `previous`.
    pub(crate) fn threshold(&self, previous: u32, look: u32) -> f64 {
        let at = |k: u32| f64::from(k) / f64::from(self.looks.max(1));
        looks::spent_between(at(previous), at(look), self.alpha)
    }

    /// The threshold of the comparison's last look, taken after the run at
    /// whatever share of the planned runs ran, when the look before was `previous`.
    pub(crate) fn last_threshold(&self, previous: u32) -> f64 {
        self.threshold(previous, self.looks)
    }

    /// Whether every method that failed before is shown fixed in `after`
    /// at `threshold`: no failure here, and the one-sided Fisher p of its
    /// counts against the before counts below the threshold.
    pub(crate) fn shown(&self, after: &AfterCounts, threshold: f64) -> bool {
        !self.before.is_empty()
            && self.before.iter().all(|(name, before)| {
                after.get(name).is_some_and(|a| {
                    a.runs > 0 && a.failures == 0 && stats::p_fixed(*before, *a) < threshold
                })
            })
    }

    /// The iterations between two looks of `planned` runs: where the engine
    /// ends its chunks.
    pub(crate) fn look_every(&self, planned: u32) -> u32 {
        planned.div_ceil(self.looks.max(1)).max(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule(before: Counts, looks: u32) -> ShowFix {
        ShowFix {
            before: vec![(("a.T".into(), "m".into()), before)],
            looks,
            alpha: ALPHA,
        }
    }

    fn after(failures: u64, runs: u64) -> AfterCounts {
        BTreeMap::from([(("a.T".into(), "m".into()), Counts::new(failures, runs))])
    }

    #[test]
    fn looks_fall_on_a_fixed_schedule_and_the_end_is_the_last() {
        let r = rule(Counts::new(12, 40), 2);
        assert_eq!(
            [0, 19, 20, 39, 40].map(|ran| r.look_at(ran, 40)),
            [0, 0, 1, 1, 2]
        );
        let three = rule(Counts::new(12, 40), 3);
        // 40 in thirds: looks after 14 and 28 runs, the last at 40.
        assert_eq!(
            [13, 14, 28, 39, 40].map(|ran| three.look_at(ran, 40)),
            [0, 1, 2, 2, 3]
        );
        assert_eq!(three.look_every(40), 14);
    }

    #[test]
    fn the_thresholds_of_the_looks_spend_alpha_in_all() {
        let r = rule(Counts::new(12, 40), 2);
        let (first, last) = (r.threshold(0, 1), r.last_threshold(1));
        assert!((first + last - ALPHA).abs() < 1e-12);
        assert!((first - 0.005_574_597).abs() < 1e-6, "{first}");
        // A look skipped leaves its α to the next.
        assert!((r.last_threshold(0) - ALPHA).abs() < 1e-12);
        assert_eq!(rule(Counts::new(1, 2), 1).last_threshold(0), ALPHA);
    }

    #[test]
    fn a_clear_fix_is_shown_halfway_and_a_narrowed_one_is_not() {
        let r = rule(Counts::new(12, 40), 2);
        let halfway = r.threshold(0, 1);
        assert!(r.shown(&after(0, 20), halfway));
        assert!(!r.shown(&after(3, 20), halfway), "still failing");
        assert!(!r.shown(&after(0, 5), halfway), "too few runs yet");
        assert!(!r.shown(&AfterCounts::new(), halfway), "it did not run");
        let nothing_before = ShowFix {
            before: vec![],
            ..r.clone()
        };
        assert!(!nothing_before.shown(&after(0, 20), halfway));
    }
}
