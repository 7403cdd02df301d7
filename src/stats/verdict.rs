//! What a comparison of two failure counts shows, before → after: the one
//! rule `history`'s newest commit and `local --compare` share.
//!
//! `fixed` needs both: the failure rate is shown lower (one-sided Fisher p
//! below the look's threshold) and no failure is left after. A rate shown
//! lower with failures left is `not-shown`, marked `narrowed`: the flake is
//! rarer, not gone (10/100 before and 1/100 after gives p = 0.005, and the
//! test still fails). `worse` is a rate shown higher (one-sided, at α);
//! `same` neither (with the two-sided p).

use super::compare::{more_clean_runs_to_show_fix, p_differ, p_fixed, Counts};
use serde::Serialize;

/// What the after side shows against the before side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// No failure after, and the rate shown lower.
    Fixed,
    /// Lower, but not shown; or shown lower with failures left (`narrowed`).
    NotShown,
    /// Not lower and not shown higher.
    Same,
    /// Higher, shown.
    Worse,
}

impl Verdict {
    /// For people: `fixed`, `not shown`, `same`, `worse`.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Fixed => "fixed",
            Verdict::NotShown => "not shown",
            Verdict::Same => "same",
            Verdict::Worse => "worse",
        }
    }
}

/// A comparison's result.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Judged {
    pub verdict: Verdict,
    /// One-sided p in the verdict's direction (lower for `fixed` and
    /// `not-shown`, higher for `worse`); two-sided for `same`.
    pub p_value: f64,
    /// The rate is shown lower but failures are left (`not-shown` only).
    pub narrowed: bool,
    /// For `not-shown` without a failure after: the clean runs more, at
    /// one look at `alpha`, that would show it fixed; `None` when no number
    /// would (nothing failed before) or a failure is left.
    pub more_clean_runs: Option<u64>,
}

/// `before` against `after`: a fix at `fixed_below` (the threshold of the
/// look: α at a single look), worse at `alpha`.
pub fn judge(before: Counts, after: Counts, fixed_below: f64, alpha: f64) -> Judged {
    let down = p_fixed(before, after);
    let up = p_fixed(after, before);
    let rate = |c: Counts| c.failures as f64 / c.runs.max(1) as f64;
    let lower = rate(after) < rate(before);
    let clean = after.failures == 0;
    let (verdict, p_value) = if down < fixed_below {
        (
            if clean {
                Verdict::Fixed
            } else {
                Verdict::NotShown
            },
            down,
        )
    } else if up < alpha {
        (Verdict::Worse, up)
    } else if lower {
        (Verdict::NotShown, down)
    } else {
        (Verdict::Same, p_differ(before, after))
    };
    Judged {
        verdict,
        p_value,
        narrowed: verdict == Verdict::NotShown && down < fixed_below,
        more_clean_runs: (verdict == Verdict::NotShown && clean)
            .then(|| more_clean_runs_to_show_fix(before, after, alpha))
            .flatten(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn judged(b: (u64, u64), a: (u64, u64)) -> Judged {
        judge(Counts::new(b.0, b.1), Counts::new(a.0, a.1), 0.05, 0.05)
    }

    #[test]
    fn the_issues_examples() {
        let fixed = judged((12, 40), (0, 40));
        assert_eq!(fixed.verdict, Verdict::Fixed);
        assert!(fixed.p_value < 0.0001);
        let not_shown = judged((3, 40), (0, 40));
        assert_eq!(not_shown.verdict, Verdict::NotShown);
        assert_eq!(not_shown.more_clean_runs, Some(27));
        assert!(!not_shown.narrowed);
        assert_eq!(judged((5, 100), (0, 100)).verdict, Verdict::Fixed);
    }

    #[test]
    fn a_lower_rate_with_failures_left_is_narrowed_not_fixed() {
        let narrowed = judged((10, 100), (1, 100));
        assert_eq!(narrowed.verdict, Verdict::NotShown);
        assert!(narrowed.narrowed);
        assert!((narrowed.p_value - 0.0048).abs() < 1e-3);
        assert_eq!(
            narrowed.more_clean_runs, None,
            "no clean run removes a failure"
        );
    }

    #[test]
    fn worse_and_same() {
        let worse = judged((0, 40), (10, 40));
        assert_eq!(worse.verdict, Verdict::Worse);
        let same = judged((2, 40), (2, 40));
        assert_eq!((same.verdict, same.p_value), (Verdict::Same, 1.0));
        // A lower threshold (a look) asks more of a fix.
        let early = judge(Counts::new(5, 100), Counts::new(0, 100), 0.0056, 0.05);
        assert_eq!(early.verdict, Verdict::NotShown);
    }
}
