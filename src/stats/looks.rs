//! Looking at a comparison more than once. Stopping the first time p < α
//! inflates the false "fixed" rate (with five looks at α = 0.05 it is about
//! 0.14), so a comparison that may stop early looks on a fixed schedule of K
//! equally spaced looks (after each 1/K of its planned runs) and at look k
//! calls a fix shown only when p is below [`look_threshold`].
//!
//! Which correction and why: the thresholds are α spent in pieces that add
//! up to α (a weighted Bonferroni correction), and the pieces follow the
//! O'Brien–Fleming-type spending function of Lan and DeMets (1983),
//! α(t) = 2 - 2Φ(z₁₋α/₂ / √t), which spends almost nothing on early looks
//! and keeps most of α for the last. Why not the classic Pocock or
//! O'Brien–Fleming boundaries themselves: they are computed for a normal
//! statistic whose looks are correlated in a known way, and Fisher's exact
//! p on small discrete counts is neither, so their nominal levels would be
//! approximate. A union bound needs no such assumption: whatever the
//! dependence between looks, the chance of a false "fixed" at any look is at
//! most the sum of the thresholds, α. Why not plain Bonferroni (α/K at
//! every look): it costs the final look half its α or more, so a comparison
//! that runs to the end needs many more runs than one that never looked.

use super::normal;

/// The p-value below which look `look` (1-based) of `looks` shows a fix,
/// for a family-wise error of `alpha` over all looks. One look is `alpha`
/// itself. A look outside 1..=looks has no α left: 0.
#[cfg(test)]
pub(crate) fn look_threshold(look: u32, looks: u32, alpha: f64) -> f64 {
    if look == 0 || look > looks {
        return 0.0;
    }
    let at = |k: u32| k as f64 / looks as f64;
    spent_between(at(look - 1), at(look), alpha)
}

/// The threshold of a look taken at information time `to` (the share of the
/// planned runs done) when the previous look was at `from`: the α the
/// spending function spends between them. Looks wherever a comparison
/// takes them (a skipped look leaves its α to the next; a run cut short
/// takes its last look early) still add up to at most α, as long as when
/// they happen does not depend on the counts.
pub(crate) fn spent_between(from: f64, to: f64, alpha: f64) -> f64 {
    (spending(to, alpha) - spending(from, alpha)).max(0.0)
}

/// α spent by information time `t` in (0, 1]: the O'Brien–Fleming-type
/// spending function 2 - 2Φ(z₁₋α/₂ / √t); 0 at t = 0, α at t = 1.
fn spending(t: f64, alpha: f64) -> f64 {
    if t <= 0.0 {
        return 0.0;
    }
    if t >= 1.0 {
        return alpha;
    }
    let z = normal::upper_quantile(alpha / 2.0);
    2.0 * normal::upper_tail(z / t.sqrt())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn same(got: f64, want: f64) {
        crate::stats::assert_near(got, want, 2e-3);
    }

    #[test]
    fn one_look_is_alpha_itself() {
        assert_eq!(look_threshold(1, 1, 0.05), 0.05);
        assert_eq!(look_threshold(0, 3, 0.05), 0.0);
        assert_eq!(look_threshold(4, 3, 0.05), 0.0);
    }

    #[test]
    fn spending_matches_lan_and_demets() {
        // The O'Brien–Fleming-type function at half the information, α = 0.05:
        // 0.0056 in Lan & DeMets' tables (0.005574597 from scipy's normal).
        same(spending(0.5, 0.05), 0.005_574_597);
        // Each look's share, from scipy.stats.norm: K = 4.
        let four: Vec<f64> = (1..=4).map(|k| look_threshold(k, 4, 0.05)).collect();
        for (got, want) in four.iter().zip([
            8.857_543_832_140_365e-05,
            0.005_486_021_242_463,
            0.018_050_524_636_817,
            0.026_374_878_682_399,
        ]) {
            same(*got, want);
        }
    }

    #[test]
    fn thresholds_add_up_to_alpha_and_grow() {
        for looks in 1..=10 {
            let all: Vec<f64> = (1..=looks)
                .map(|k| look_threshold(k, looks, 0.05))
                .collect();
            let sum: f64 = all.iter().sum();
            assert!((sum - 0.05).abs() < 1e-12, "{looks}: {sum}");
            assert!(all.windows(2).all(|w| w[0] < w[1]), "{all:?}");
            // The last look keeps more than Bonferroni would give it.
            assert!(*all.last().unwrap() >= 0.05 / looks as f64);
        }
    }
}
