//! Drift inside one test JVM: do a class's iterations keep getting slower (or
//! its failures come late)? Two readings of one series in execution order:
//! the Mann–Kendall rank-trend test, and the plain ratio of the last third's
//! median to the first third's, which a reader can check by hand.

use super::normal;

/// The Mann–Kendall test of a series against its order.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct MannKendall {
    /// Pairs (i < j) with x_j > x_i, minus pairs with x_j < x_i.
    pub s: i64,
    /// One-sided p of a rising trend (iterations getting slower).
    pub p_rising: f64,
    /// Two-sided p of any monotone trend.
    pub p_two_sided: f64,
    /// From the exact distribution of S (no ties, at most [`EXACT_UP_TO`]
    /// values), else from the normal approximation.
    pub exact: bool,
}

/// The longest series whose p comes from the exact distribution of S: the
/// distribution is built in O(n³), instant at 50; beyond, the normal
/// approximation is within a few percent of it.
pub(super) const EXACT_UP_TO: usize = 50;

/// The Mann–Kendall test of `xs` in order. Without ties and with at most
/// [`EXACT_UP_TO`] values, p is exact (Kendall's tau against the index, as
/// `scipy.stats.kendalltau(method="exact")`); otherwise S is taken as normal
/// with the tie-corrected variance and a continuity correction (the textbook
/// test, as `pymannkendall.original_test`). Fewer than 3 values show no trend
/// (p = 1).
pub(crate) fn mann_kendall(xs: &[f64]) -> MannKendall {
    let s = s_statistic(xs);
    let ties = tie_groups(xs);
    let n = xs.len();
    if n < 3 {
        return MannKendall {
            s,
            p_rising: 1.0,
            p_two_sided: 1.0,
            exact: true,
        };
    }
    if ties.is_empty() && n <= EXACT_UP_TO {
        let rising = exact_upper(n, s);
        let falling = exact_upper(n, -s);
        return MannKendall {
            s,
            p_rising: rising,
            p_two_sided: (2.0 * rising.min(falling)).min(1.0),
            exact: true,
        };
    }
    let z = normal_z(n, s, &ties);
    MannKendall {
        s,
        p_rising: normal::upper_tail(z),
        p_two_sided: (2.0 * normal::upper_tail(z.abs())).min(1.0),
        exact: false,
    }
}

fn s_statistic(xs: &[f64]) -> i64 {
    let mut s = 0i64;
    for (i, a) in xs.iter().enumerate() {
        for b in &xs[i + 1..] {
            s += match b.partial_cmp(a) {
                Some(std::cmp::Ordering::Greater) => 1,
                Some(std::cmp::Ordering::Less) => -1,
                _ => 0,
            };
        }
    }
    s
}

/// The sizes of groups of equal values (only groups of two or more).
fn tie_groups(xs: &[f64]) -> Vec<u64> {
    let mut sorted: Vec<f64> = xs.to_vec();
    sorted.sort_by(|a, b| a.total_cmp(b));
    let mut groups = Vec::new();
    let mut run = 1u64;
    for w in sorted.windows(2) {
        if w[0] == w[1] {
            run += 1;
        } else {
            if run > 1 {
                groups.push(run);
            }
            run = 1;
        }
    }
    if run > 1 {
        groups.push(run);
    }
    groups
}

/// S standardized: Var(S) = [n(n-1)(2n+5) - Σ t(t-1)(2t+5)] / 18 over the
/// tie groups t, and S moved one toward zero (S is an integer of step 2).
fn normal_z(n: usize, s: i64, ties: &[u64]) -> f64 {
    let term = |t: f64| t * (t - 1.0) * (2.0 * t + 5.0);
    let var = (term(n as f64) - ties.iter().map(|t| term(*t as f64)).sum::<f64>()) / 18.0;
    if var <= 0.0 || s == 0 {
        return 0.0;
    }
    (s - s.signum()) as f64 / var.sqrt()
}

/// P(S ≥ s) for n distinct values in random order. S = C(n,2) - 2·I, where I
/// counts inversions, whose distribution is built one element at a time:
/// the m-th element adds 0..m-1 inversions, each alike.
fn exact_upper(n: usize, s: i64) -> f64 {
    let pairs = (n * (n - 1) / 2) as i64;
    // S ≥ s ⇔ I ≤ (pairs - s) / 2.
    let most = pairs - s;
    if most < 0 {
        return 0.0;
    }
    let dist = inversions(n);
    let most = ((most / 2) as usize).min(dist.len() - 1);
    dist[..=most].iter().sum::<f64>().min(1.0)
}

/// P(I = k) for k = 0..=C(n,2), the inversions of a random permutation of n.
fn inversions(n: usize) -> Vec<f64> {
    let mut dist = vec![1.0];
    for m in 1..=n {
        let len = dist.len() + m - 1;
        let mut prefix = vec![0.0; dist.len() + 1];
        for (i, p) in dist.iter().enumerate() {
            prefix[i + 1] = prefix[i] + p;
        }
        let next = (0..len)
            .map(|k| {
                let hi = k.min(dist.len() - 1);
                let lo = k.saturating_sub(m - 1);
                if lo > hi {
                    0.0
                } else {
                    (prefix[hi + 1] - prefix[lo]) / m as f64
                }
            })
            .collect();
        dist = next;
    }
    dist
}

/// A slowdown worth a warning: the last third's median at least this many
/// times the first third's. Small ratios are noise (GC, JIT warm-up, a busy
/// machine), and warm-up makes later iterations faster, not slower.
pub(crate) const DRIFT_RATIO: f64 = 2.0;

/// The median of the last third of `xs` over the median of the first third
/// (a third is ⌊n/3⌋ values). `None` with fewer than 3 values or when the
/// first third's median is not positive (no ratio to take).
pub(crate) fn thirds_ratio(xs: &[f64]) -> Option<f64> {
    let third = xs.len() / 3;
    if third == 0 {
        return None;
    }
    let first = median(&xs[..third]);
    let last = median(&xs[xs.len() - third..]);
    (first > 0.0).then(|| last / first)
}

/// The middle value (the mean of the two middle ones for an even count).
pub(crate) fn median(xs: &[f64]) -> f64 {
    let mut sorted = xs.to_vec();
    sorted.sort_by(|a, b| a.total_cmp(b));
    let n = sorted.len();
    match n {
        0 => f64::NAN,
        _ if n % 2 == 1 => sorted[n / 2],
        _ => 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn same(got: f64, want: f64) {
        crate::stats::assert_near(got, want, 1e-4);
    }

    #[test]
    fn exact_p_matches_kendalls_tau_against_the_index() {
        // scipy.stats.kendalltau(range(10), xs, method="exact"): tau 0.8222,
        // p 0.000357694 (two-sided), 0.000178847 ("greater").
        let xs = [1.0, 1.2, 0.9, 1.5, 1.7, 1.6, 2.2, 2.5, 2.4, 3.1];
        let t = mann_kendall(&xs);
        assert_eq!(t.s, 37);
        assert!(t.exact);
        same(t.p_two_sided, 0.000_357_694_003_527_336_9);
        same(t.p_rising, 0.000_178_847_001_763_668_44);
        // 16 iterations growing from 0.3 s to 2.4 s: p 1.38949e-9 (two-sided).
        let zs = [
            0.31, 0.30, 0.35, 0.33, 0.41, 0.39, 0.52, 0.61, 0.58, 0.77, 0.92, 1.1, 1.3, 1.2, 1.8,
            2.4,
        ];
        let t = mann_kendall(&zs);
        assert_eq!(t.s, 110);
        same(t.p_two_sided, 1.389_489_650_071_660_7e-09);
        same(t.p_rising, 6.947_448_250_358_304e-10);
    }

    #[test]
    fn the_normal_approximation_matches_the_textbook_test() {
        // pymannkendall.original_test: s 19, var_s 3068.33 (ties), z 0.324954, p 0.745216.
        let ys = [
            3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0, 6.0, 5.0, 3.0, 5.0, 8.0, 9.0, 7.0, 9.0, 3.0, 2.0,
            3.0, 8.0, 4.0, 6.0, 2.0, 6.0, 4.0, 3.0, 3.0, 8.0, 3.0, 2.0, 7.0,
        ];
        let t = mann_kendall(&ys);
        assert_eq!(t.s, 19);
        assert!(!t.exact);
        same(t.p_two_sided, 0.745_216_255_360_702_7);
        same(t.p_rising, 0.745_216_255_360_702_7 / 2.0);
    }

    #[test]
    fn exact_and_approximate_agree_roughly_where_they_meet() {
        let xs: Vec<f64> = (0..50).map(|i| i as f64 * 0.1 + (i as f64).sin()).collect();
        let exact = mann_kendall(&xs);
        let z = normal_z(xs.len(), exact.s, &[]);
        let approx = 2.0 * normal::upper_tail(z.abs());
        assert!(exact.exact);
        assert!(
            (exact.p_two_sided - approx).abs() < 0.01,
            "{exact:?} {approx}"
        );
    }

    #[test]
    fn no_trend_in_flat_or_short_series() {
        let t = mann_kendall(&[1.0; 20]);
        assert_eq!((t.s, t.p_two_sided), (0, 1.0));
        assert_eq!(mann_kendall(&[2.0, 1.0]).p_rising, 1.0);
        let falling: Vec<f64> = (0..12).map(|i| 10.0 - i as f64).collect();
        let t = mann_kendall(&falling);
        assert!(t.p_rising > 0.99 && t.p_two_sided < 0.001, "{t:?}");
    }

    #[test]
    fn inversions_sum_to_one_and_match_mahonian_numbers() {
        // I(4, k) = 1, 3, 5, 6, 5, 3, 1 over 4! = 24.
        let d = inversions(4);
        let counts: Vec<u64> = d.iter().map(|p| (p * 24.0).round() as u64).collect();
        assert_eq!(counts, [1, 3, 5, 6, 5, 3, 1]);
        assert!((inversions(30).iter().sum::<f64>() - 1.0).abs() < 1e-12);
    }

    #[test]
    fn thirds_ratio_reads_the_slowdown() {
        // 0.3 s at first, 24 s at the end (a leaking neighbour).
        let xs = [0.3, 0.3, 0.4, 1.0, 5.0, 9.0, 20.0, 24.0, 24.0];
        assert_eq!(thirds_ratio(&xs), Some(24.0 / 0.3));
        let steady = [1.0, 1.1, 0.9, 1.0, 1.2, 1.0];
        assert!(thirds_ratio(&steady).unwrap() < DRIFT_RATIO);
        assert_eq!(thirds_ratio(&[1.0, 2.0]), None);
        assert_eq!(thirds_ratio(&[0.0, 0.0, 1.0]), None);
        assert_eq!(median(&[3.0, 1.0, 2.0, 10.0]), 2.5);
    }
}
