//! Comparing two failure counts with Fisher's exact test: did the rate go
//! down (a fix, before → after; one-sided), or do two conditions differ
//! (two-sided). Exact at every count: the p-value sums hypergeometric
//! probabilities, computed by their ratio recurrence (no factorials, so no
//! overflow), the same conditional test as R's `fisher.test`.

/// Failures among runs, one side of a comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Counts {
    pub failures: u64,
    pub runs: u64,
}

impl Counts {
    pub(crate) fn new(failures: u64, runs: u64) -> Counts {
        Counts {
            failures: failures.min(runs),
            runs,
        }
    }
}

/// One-sided p that `after`'s failure rate is lower than `before`'s: the
/// probability, with the total failures fixed, of `after` holding this few
/// or fewer of them if both sides failed alike. 5/100 then 0/100 gives 0.030.
pub(crate) fn p_fixed(before: Counts, after: Counts) -> f64 {
    let dist = Hypergeometric::of(before, after);
    let x = after.failures.min(after.runs);
    dist.weights
        .iter()
        .enumerate()
        .filter(|(i, _)| dist.lo + *i as u64 <= x)
        .map(|(_, w)| w)
        .sum::<f64>()
        / dist.total
}

/// Two-sided p that the two failure rates differ: the probability of every
/// table at most as likely as this one (R's rule, with its relative
/// tolerance of 1e-7 so that ties in floating point count as ties).
pub(crate) fn p_differ(a: Counts, b: Counts) -> f64 {
    let dist = Hypergeometric::of(a, b);
    let observed = dist.weight(b.failures.min(b.runs));
    let limit = observed * (1.0 + 1e-7);
    let p = dist.weights.iter().filter(|w| **w <= limit).sum::<f64>() / dist.total;
    p.min(1.0)
}

/// The fewest more clean runs of `after` (each passing) after which
/// [`p_fixed`] falls below `alpha`: "27 more clean runs here would show it".
/// With no after runs yet, the runs a fix proof needs. `None` when no number
/// of runs can show it (the before side never failed) or when more than
/// [`MAX_RUNS`] would be needed.
pub(crate) fn more_clean_runs_to_show_fix(
    before: Counts,
    after: Counts,
    alpha: f64,
) -> Option<u64> {
    let shown = |more: u64| {
        let after = Counts::new(after.failures, after.runs + more);
        p_fixed(before, after) < alpha
    };
    if before.failures == 0 || !shown(MAX_RUNS) {
        return None;
    }
    // p falls as clean runs are added (the after side's rate only drops),
    // so the first count that shows it is found by bisection.
    let (mut lo, mut hi) = (0u64, MAX_RUNS);
    if shown(0) {
        return Some(0);
    }
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if shown(mid) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    Some(hi)
}

/// Which side of a two-sided comparison more runs are added to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Side {
    First,
    Second,
    /// As many more of each.
    Both,
}

/// The fewest more runs of `side` (of each side for [`Side::Both`]) after
/// which [`p_differ`] falls below `alpha`, each side failing at its observed
/// rate (its failures projected and rounded): "40 more runs alone would
/// tell". `Some(0)` when the counts already tell; `None` when no number up
/// to [`MAX_DIFFER_RUNS`] would (the observed rates are equal, or the other
/// side's runs are too few for any number of these to tell). Counts up to
/// [`SCANNED_RUNS`] are tried one by one (rounding makes p move by steps, not
/// only down); past them the first count is found by bisection.
pub(crate) fn more_runs_to_differ(a: Counts, b: Counts, side: Side, alpha: f64) -> Option<u64> {
    let grow = |c: Counts, more: u64| {
        let runs = c.runs + more;
        let failures = if c.runs == 0 {
            0
        } else {
            (c.failures as f64 * runs as f64 / c.runs as f64).round() as u64
        };
        Counts::new(failures, runs)
    };
    let tells = |more: u64| {
        let (ma, mb) = match side {
            Side::First => (more, 0),
            Side::Second => (0, more),
            Side::Both => (more, more),
        };
        p_differ(grow(a, ma), grow(b, mb)) < alpha
    };
    if tells(0) {
        return Some(0);
    }
    // Equal observed rates stay equal however many runs are added.
    if a.runs == 0 || b.runs == 0 || a.failures * b.runs == b.failures * a.runs {
        return None;
    }
    if let Some(m) = (1..=SCANNED_RUNS).find(|m| tells(*m)) {
        return Some(m);
    }
    let mut hi = SCANNED_RUNS * 2;
    while !tells(hi) {
        if hi >= MAX_DIFFER_RUNS {
            return None;
        }
        hi = (hi * 2).min(MAX_DIFFER_RUNS);
    }
    let mut lo = hi / 2;
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if tells(mid) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    Some(hi)
}

/// Counts of more runs [`more_runs_to_differ`] tries one by one.
const SCANNED_RUNS: u64 = 1_000;

/// The most more runs [`more_runs_to_differ`] offers: past it no practical
/// number of runs tells the two rates apart.
pub(crate) const MAX_DIFFER_RUNS: u64 = 100_000;

/// The 95% interval of the difference of two failure rates, `a`'s minus
/// `b`'s, by Newcombe's hybrid score method (method 10 of Newcombe 1998,
/// from each side's Wilson interval): what two rates that agree still allow.
pub(crate) fn difference95(a: Counts, b: Counts) -> [f64; 2] {
    let rate = |c: Counts| {
        if c.runs == 0 {
            0.0
        } else {
            c.failures as f64 / c.runs as f64
        }
    };
    let (pa, pb) = (rate(a), rate(b));
    let [la, ua] = super::wilson95(a.failures, a.runs);
    let [lb, ub] = super::wilson95(b.failures, b.runs);
    let d = pa - pb;
    let lo = d - ((pa - la).powi(2) + (ub - pb).powi(2)).sqrt();
    let hi = d + ((ua - pa).powi(2) + (pb - lb).powi(2)).sqrt();
    [lo.max(-1.0), hi.min(1.0)]
}

/// The most runs [`more_clean_runs_to_show_fix`] offers: beyond it the
/// answer is "not with any practical number".
pub(super) const MAX_RUNS: u64 = 10_000_000;

/// The failures of the second side, given both sides' runs and the total
/// failures: Hypergeometric(N = all runs, K = all failures, n = b's runs).
/// `weights[i]` is proportional to P(X = lo + i).
struct Hypergeometric {
    lo: u64,
    weights: Vec<f64>,
    total: f64,
}

impl Hypergeometric {
    fn of(a: Counts, b: Counts) -> Hypergeometric {
        let n = a.runs + b.runs;
        let k = a.failures.min(a.runs) + b.failures.min(b.runs);
        let draws = b.runs;
        let lo = (k + draws).saturating_sub(n);
        let hi = k.min(draws);
        let mode = ((draws + 1) as f64 * (k + 1) as f64 / (n + 2) as f64).floor() as u64;
        let mode = mode.clamp(lo, hi);
        let mut weights = vec![0.0; (hi - lo + 1) as usize];
        weights[(mode - lo) as usize] = 1.0;
        // P(x+1)/P(x) = (K-x)(n-x) / ((x+1)(N-K-n+x+1)), walked out from the
        // mode so that every weight is at most 1 and the largest are exact.
        let ratio = |x: u64| {
            let others = (n + x + 1) - k - draws;
            ((k - x) as f64 * (draws - x) as f64) / ((x + 1) as f64 * others as f64)
        };
        for x in mode..hi {
            let i = (x - lo) as usize;
            weights[i + 1] = weights[i] * ratio(x);
        }
        for x in (lo..mode).rev() {
            let i = (x - lo) as usize;
            weights[i] = weights[i + 1] / ratio(x);
        }
        let total = weights.iter().sum();
        Hypergeometric { lo, weights, total }
    }

    fn weight(&self, x: u64) -> f64 {
        x.checked_sub(self.lo)
            .and_then(|i| self.weights.get(i as usize))
            .copied()
            .unwrap_or(0.0)
    }
}

impl std::fmt::Display for Counts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.failures, self.runs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(failures: u64, runs: u64) -> Counts {
        Counts::new(failures, runs)
    }

    fn same(got: f64, want: f64) {
        crate::stats::assert_near(got, want, 5e-4);
    }

    #[test]
    fn the_worked_fix_examples_come_out() {
        // docs: conditions-and-comparisons, before → after, one-sided.
        let rounded = |b, a, places| {
            let scale = 10f64.powi(places);
            (p_fixed(b, a) * scale).round() / scale
        };
        assert_eq!(rounded(c(5, 100), c(0, 100), 3), 0.030);
        assert_eq!(rounded(c(5, 100), c(0, 60), 3), 0.092);
        assert_eq!(rounded(c(10, 100), c(1, 100), 3), 0.005);
        assert_eq!(rounded(c(3, 100), c(0, 100), 3), 0.123);
        assert_eq!(rounded(c(12, 40), c(0, 40), 4), 0.0001);
        assert_eq!(rounded(c(3, 40), c(0, 40), 3), 0.120);
    }

    #[test]
    fn one_sided_values_match_r_and_scipy() {
        // R: fisher.test(matrix(c(5,95,0,100), 2, byrow=TRUE), alternative="greater")
        // and scipy.stats.fisher_exact(..., alternative="greater"), failures first.
        same(p_fixed(c(5, 100), c(0, 100)), 0.029_691_605_234_293_292);
        same(p_fixed(c(5, 100), c(0, 60)), 0.091_771_069_478_836_47);
        same(p_fixed(c(10, 100), c(1, 100)), 0.004_829_057_971_759_167);
        same(p_fixed(c(12, 40), c(0, 40)), 9.273_302_528_813_455e-05);
        // R's documentation, TeaTasting = matrix(c(3, 1, 1, 3)), "greater": p = 0.2429.
        same(p_fixed(c(3, 4), c(1, 4)), 0.242_857_142_857_142_83);
        // R's documentation, Convictions = matrix(c(2, 10, 15, 3)), "less": p = 0.0004652.
        same(p_fixed(c(15, 17), c(3, 13)), 0.000_465_180_943_362_905);
        // More after-failures than before: no evidence of a fix at all.
        same(p_fixed(c(2, 100), c(7, 100)), 0.982_550_424_013_942_1);
    }

    #[test]
    fn two_sided_values_match_r_and_scipy() {
        // scipy.stats.fisher_exact (two-sided), which R's fisher.test equals.
        // TeaTasting: R prints p-value = 0.4857.
        same(p_differ(c(3, 4), c(1, 4)), 0.485_714_285_714_285_65);
        // Convictions: R prints p-value = 0.0005367.
        same(p_differ(c(2, 17), c(10, 13)), 0.000_536_724_119_143_435_7);
        // An asymmetric table, where doubling the one-sided p would be wrong
        // (0.0027594561852200836 here, the one-sided 0.0013797).
        same(p_differ(c(1, 12), c(9, 12)), 0.002_759_456_185_220_083_6);
        same(p_differ(c(7, 100), c(2, 100)), 0.169_720_277_566_787_68);
        same(p_differ(c(20, 100), c(6, 100)), 0.005_426_957_925_557_461);
        same(p_differ(c(0, 5), c(5, 5)), 0.007_936_507_936_507_938);
        assert_eq!(p_differ(c(1, 100), c(0, 100)), 1.0);
        assert_eq!(p_differ(c(0, 0), c(0, 10)), 1.0);
        assert_eq!(p_fixed(c(0, 0), c(0, 0)), 1.0);
    }

    #[test]
    fn two_sided_is_symmetric_in_its_sides() {
        for (a, b) in [
            (c(3, 40), c(0, 40)),
            (c(9, 31), c(2, 77)),
            (c(0, 3), c(3, 3)),
        ] {
            same(p_differ(a, b), p_differ(b, a));
        }
    }

    #[test]
    fn large_counts_stay_finite_and_exact_in_the_middle() {
        // Equal rates, large counts: the observed table is the most likely one.
        let p = p_differ(c(5_000, 100_000), c(5_000, 100_000));
        assert!((p - 1.0).abs() < 1e-9, "{p}");
        // Far beyond any threshold: below what a double holds, never NaN.
        let p = p_fixed(c(3_000, 100_000), c(0, 100_000));
        assert!(p < 1e-300, "{p}");
    }

    #[test]
    fn clean_runs_to_show_a_fix() {
        // The doc's 3/40: 67 clean runs after show it, 66 do not.
        assert_eq!(
            more_clean_runs_to_show_fix(c(3, 40), c(0, 0), 0.05),
            Some(67)
        );
        assert!(p_fixed(c(3, 40), c(0, 67)) < 0.05);
        assert!(p_fixed(c(3, 40), c(0, 66)) >= 0.05);
        // 0/40 already ran here: 27 more.
        assert_eq!(
            more_clean_runs_to_show_fix(c(3, 40), c(0, 40), 0.05),
            Some(27)
        );
        // Already shown: none more.
        assert_eq!(
            more_clean_runs_to_show_fix(c(12, 40), c(0, 40), 0.05),
            Some(0)
        );
        // A failure left after: more runs, still a finite number.
        let more = more_clean_runs_to_show_fix(c(10, 100), c(2, 50), 0.05).unwrap();
        assert!(p_fixed(c(10, 100), c(2, 50 + more)) < 0.05);
        assert!(p_fixed(c(10, 100), c(2, 50 + more - 1)) >= 0.05);
        // A test that never failed before cannot be shown fixed.
        assert_eq!(more_clean_runs_to_show_fix(c(0, 100), c(0, 0), 0.05), None);
    }

    /// Newcombe (1998), "Interval estimation for the difference between
    /// independent proportions", Statistics in Medicine 17:873–890, Table II,
    /// method 10: 56/70 − 48/80 gives 0.0524 to 0.3339; 9/10 − 3/10 gives
    /// 0.1705 to 0.8090.
    #[test]
    fn the_difference_interval_matches_newcombe() {
        let near = |got: f64, want: f64| assert!((got - want).abs() < 5e-5, "{got} {want}");
        let [lo, hi] = difference95(c(56, 70), c(48, 80));
        near(lo, 0.0524);
        near(hi, 0.3339);
        let [lo, hi] = difference95(c(9, 10), c(3, 10));
        near(lo, 0.1705);
        near(hi, 0.8090);
        // Swapped sides: the interval is mirrored.
        let [lo, hi] = difference95(c(3, 10), c(9, 10));
        near(lo, -0.8090);
        near(hi, -0.1705);
    }

    #[test]
    fn more_runs_to_tell_two_rates_apart() {
        let alpha = 0.05;
        // Already told apart (the counts: 28/30 alone, 2/17 in the task).
        assert_eq!(
            more_runs_to_differ(c(28, 30), c(2, 17), Side::Both, alpha),
            Some(0)
        );
        // 3/10 against 0/5: more runs of the second side tell, the first's never
        // (with 0/5 fixed, p stays above 0.7^5 = 0.168 however well the first
        // side is known).
        let second = more_runs_to_differ(c(3, 10), c(0, 5), Side::Second, alpha).unwrap();
        assert!(p_differ(c(3, 10), c(0, 5 + second)) < alpha);
        assert!(p_differ(c(3, 10), c(0, 5 + second - 1)) >= alpha);
        assert_eq!(
            more_runs_to_differ(c(3, 10), c(0, 5), Side::First, alpha),
            None
        );
        // Both sides: the first count found; every count before it does not tell.
        let grown = |f: u64, n: u64, m: u64| {
            c((f as f64 * (n + m) as f64 / n as f64).round() as u64, n + m)
        };
        let both = more_runs_to_differ(c(3, 10), c(0, 5), Side::Both, alpha).unwrap();
        let at = |m: u64| p_differ(grown(3, 10, m), grown(0, 5, m));
        assert!(at(both) < alpha, "{both}");
        assert!((0..both).all(|m| at(m) >= alpha), "{both}");
        // Equal rates: no number of runs tells them apart.
        assert_eq!(
            more_runs_to_differ(c(2, 20), c(1, 10), Side::Both, alpha),
            None
        );
        assert_eq!(
            more_runs_to_differ(c(0, 20), c(0, 10), Side::Second, alpha),
            None
        );
        // Close rates: past the scan, by bisection, and still the first count there.
        let far = more_runs_to_differ(c(10, 100), c(12, 100), Side::Both, alpha).unwrap();
        assert!(far > SCANNED_RUNS, "{far}");
        let at = |m: u64| p_differ(grown(10, 100, m), grown(12, 100, m));
        assert!(at(far) < alpha && at(far - 1) >= alpha, "{far}");
        // Rates this close need more than any practical number.
        assert_eq!(
            more_runs_to_differ(c(1000, 10_000), c(1001, 10_000), Side::Both, alpha),
            None
        );
    }

    #[test]
    fn the_search_agrees_with_counting_up() {
        for (f, n) in [(1, 10), (2, 30), (5, 100), (3, 100), (1, 1)] {
            let found = more_clean_runs_to_show_fix(c(f, n), c(0, 0), 0.05);
            let counted = (0..5_000).find(|m| p_fixed(c(f, n), c(0, *m)) < 0.05);
            assert_eq!(found, counted, "{f}/{n}");
        }
    }
}
