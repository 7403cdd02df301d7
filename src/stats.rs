//! The statistics every stage states: what n clean executions rule out, how
//! many executions a target rate needs, the Wilson interval of an observed
//! rate, and the one way a rate is printed as a percentage.
//!
//! Comparisons (Fisher's exact test, the runs a fix proof needs), trends
//! inside one JVM, thresholds for looking more than once and duration
//! summaries live in the submodules, re-exported here.
//!
//! A test that fails independently with probability p per execution passes n
//! executions in a row with probability (1-p)^n. So n clean executions rule out
//! (at confidence C) every rate p with (1-p)^n ≤ 1-C, i.e. p ≥ 1-(1-C)^(1/n).

mod compare;
pub(crate) mod looks;
mod normal;
mod sketch;
mod trend;
mod verdict;

pub(crate) use compare::{
    difference95, more_clean_runs_to_show_fix, more_runs_to_differ, p_differ, p_fixed, Counts, Side,
};
pub(crate) use sketch::DurationSketch;
pub(crate) use trend::{mann_kendall, median, thirds_ratio, DRIFT_RATIO};
pub(crate) use verdict::judge;
pub use verdict::Verdict;

/// The two-sided 95% normal quantile.
const Z95: f64 = 1.959_963_984_540_054;

/// The confidence of every interval and clean bound in a report.
pub(crate) const REPORT_CONFIDENCE: f64 = 0.95;

/// The smallest failure rate that n clean executions rule out at `confidence`.
pub(crate) fn rate_bound(executions: u64, confidence: f64) -> f64 {
    if executions == 0 {
        return 1.0;
    }
    1.0 - (1.0 - confidence).powf(1.0 / executions as f64)
}

/// The smallest n with 1-(1-rate)^n ≥ confidence: executions that catch at least
/// one failure of a test failing at `rate`, with probability `confidence`.
pub(crate) fn executions_for(rate: f64, confidence: f64) -> u64 {
    let n = ((1.0 - confidence).ln() / (1.0 - rate).ln()).ceil();
    // Floating error can leave n one too high (an exact integer computed as x.0000001).
    let n = n.max(1.0) as u64;
    if n > 1 && 1.0 - (1.0 - rate).powi((n - 1) as i32) >= confidence {
        n - 1
    } else {
        n
    }
}

/// The Wilson score 95% interval of the per-execution failure rate.
/// `[0, 1]` when there were no runs.
pub(crate) fn wilson95(failures: u64, runs: u64) -> [f64; 2] {
    if runs == 0 {
        return [0.0, 1.0];
    }
    let n = runs as f64;
    let p = failures.min(runs) as f64 / n;
    let z2 = Z95 * Z95;
    let denom = 1.0 + z2 / n;
    let center = (p + z2 / (2.0 * n)) / denom;
    let half = Z95 * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / denom;
    let lo = if failures == 0 {
        0.0
    } else {
        (center - half).max(0.0)
    };
    let hi = if failures >= runs {
        1.0
    } else {
        (center + half).min(1.0)
    };
    [lo, hi]
}

/// Which way a printed percentage may move from the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Round {
    /// An observed rate.
    Nearest,
    /// An upper bound: the printed bound is never tighter than the true one.
    Up,
    /// A lower bound.
    Down,
}

/// A fraction as a percentage with two significant digits, counted from the
/// nearer end of the scale so that rates close to 100% keep their meaning:
/// 0.3 → `30%`, 0.0295 → `3.0%` (up), 0.000299 → `0.030%` (up), 0.95 → `95%`,
/// 0.999 → `99.9%`, 1 → `100%`.
pub(crate) fn percent(fraction: f64, round: Round) -> String {
    let v = fraction * 100.0;
    if v <= 0.0 || v.is_nan() {
        return "0%".into();
    }
    if v >= 100.0 {
        return "100%".into();
    }
    let high = v > 50.0;
    let significant = if high { 100.0 - v } else { v };
    let decimals = (1 - significant.log10().floor() as i32).clamp(0, 6);
    let scale = 10f64.powi(decimals);
    // The epsilon keeps an exact 3.0 from becoming 3.1 (or 2.9) through float noise.
    let scaled = v * scale;
    let rounded = match round {
        Round::Nearest => scaled.round(),
        Round::Up => (scaled - 1e-9).ceil(),
        Round::Down => (scaled + 1e-9).floor(),
    } / scale;
    let text = format!("{rounded:.prec$}", prec = decimals as usize);
    // Near 100% the digits after the point are what matter: `95.0` is `95`.
    let text = if high && text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        text
    };
    format!("{text}%")
}

/// A p-value as reports print it: `p = ` and three decimals (`0.030`,
/// `0.123`), four below 0.001 (`0.0005`), and `p < 0.0001` below that.
pub(crate) fn p_value(p: f64) -> String {
    if p >= 0.001 {
        format!("p = {p:.3}")
    } else if p >= 0.0001 {
        format!("p = {p:.4}")
    } else {
        "p < 0.0001".into()
    }
}

/// The statement a clean test's runs support: `0/100 ⇒ failure rate < 3.0% at 95%`.
pub(crate) fn clean_statement(runs: u64) -> String {
    format!(
        "0/{runs} ⇒ failure rate < {} at {}",
        percent(rate_bound(runs, REPORT_CONFIDENCE), Round::Up),
        percent(REPORT_CONFIDENCE, Round::Nearest)
    )
}

/// Rounds a rate for reports, so that JSON shows `0.03`, not `0.030000000000000002`.
pub(crate) fn round6(x: f64) -> f64 {
    (x * 1e6).round() / 1e6
}

/// Rounds a p-value to six significant digits for reports: a p far below
/// any threshold keeps its size (`2.17683e-8`), never `0`.
pub(crate) fn round_p(p: f64) -> f64 {
    if p <= 0.0 || !p.is_finite() {
        return p;
    }
    let scale = 10f64.powi(5 - p.log10().floor() as i32);
    (p * scale).round() / scale
}

/// A deterministic stream of uniform numbers in [0, 1) (SplitMix64), for
/// the simulations of tests.
#[cfg(test)]
pub(crate) struct Uniform(pub u64);

#[cfg(test)]
impl Uniform {
    pub(crate) fn next(&mut self) -> f64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        (z ^ (z >> 31)) as f64 / (u64::MAX as f64 + 1.0)
    }
}

/// The one tolerance check of the statistics' tests.
#[cfg(test)]
pub(crate) fn assert_near(got: f64, want: f64, relative: f64) {
    assert!(
        (got - want).abs() <= want.abs() * relative + 1e-15,
        "got {got}, want {want} (within {relative} of it)"
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 5e-5
    }

    #[test]
    fn two_percent_at_95_needs_149_executions() {
        assert_eq!(executions_for(0.02, 0.95), 149);
        assert!(1.0 - 0.98f64.powi(149) >= 0.95);
        assert!(1.0 - 0.98f64.powi(148) < 0.95);
    }

    #[test]
    fn executions_are_the_smallest_that_reach_the_confidence() {
        for (p, c) in [
            (0.5, 0.75),
            (0.1, 0.9),
            (0.01, 0.99),
            (0.3, 0.5),
            (0.5, 0.5),
        ] {
            let n = executions_for(p, c);
            assert!(1.0 - (1.0 - p).powi(n as i32) >= c - 1e-12, "{p} {c} {n}");
            if n > 1 {
                assert!(1.0 - (1.0 - p).powi(n as i32 - 1) < c, "{p} {c} {n}");
            }
        }
        // (1-0.5)^2 = 0.25 exactly: two executions give exactly 75%.
        assert_eq!(executions_for(0.5, 0.75), 2);
    }

    #[test]
    fn p_values_keep_six_significant_digits() {
        assert_eq!(round_p(2.176_829_204_845_942e-8), 2.176_83e-8);
        assert_eq!(round_p(0.505_494_505_494_505_5), 0.505_495);
        assert_eq!(round_p(1.0), 1.0);
        assert_eq!(round_p(0.0), 0.0);
    }

    #[test]
    fn wilson_matches_published_values() {
        // 3 failures in 100 runs: [0.0103, 0.0845].
        let [lo, hi] = wilson95(3, 100);
        assert!(close(lo, 0.0103) && close(hi, 0.0845), "{lo} {hi}");
        // 0 of 10: [0, 0.2775].
        let [lo, hi] = wilson95(0, 10);
        assert!(lo == 0.0 && close(hi, 0.2775), "{lo} {hi}");
        // 10 of 10: [0.7225, 1].
        let [lo, hi] = wilson95(10, 10);
        assert!(close(lo, 0.7225) && hi == 1.0, "{lo} {hi}");
        assert_eq!(wilson95(0, 0), [0.0, 1.0]);
    }

    #[test]
    fn a_clean_run_states_what_it_proves() {
        assert_eq!(clean_statement(100), "0/100 ⇒ failure rate < 3.0% at 95%");
        assert_eq!(clean_statement(20), "0/20 ⇒ failure rate < 14% at 95%");
        assert_eq!(
            clean_statement(1000),
            "0/1000 ⇒ failure rate < 0.30% at 95%"
        );
        assert_eq!(
            clean_statement(10000),
            "0/10000 ⇒ failure rate < 0.030% at 95%"
        );
        assert_eq!(clean_statement(1), "0/1 ⇒ failure rate < 95% at 95%");
        assert!(close(rate_bound(1, 0.95), 0.95));
        assert_eq!(rate_bound(0, 0.95), 1.0);
    }

    #[test]
    fn percentages_keep_two_significant_digits_and_round_as_asked() {
        assert_eq!(percent(0.0295, Round::Up), "3.0%");
        assert_eq!(percent(0.03, Round::Up), "3.0%");
        assert_eq!(percent(0.03, Round::Down), "3.0%");
        assert_eq!(percent(0.25887, Round::Up), "26%");
        assert_eq!(percent(0.25887, Round::Down), "25%");
        assert_eq!(percent(0.000299, Round::Up), "0.030%");
        assert_eq!(percent(1.0, Round::Up), "100%");
        assert_eq!(percent(0.95, Round::Nearest), "95%");
        assert_eq!(percent(0.999, Round::Nearest), "99.9%");
        assert_eq!(percent(0.0, Round::Nearest), "0%");
        assert_eq!(percent(0.5, Round::Nearest), "50%");
        assert_eq!(percent(0.0123, Round::Nearest), "1.2%");
        assert_eq!(percent(0.00123, Round::Nearest), "0.12%");
        assert_eq!(percent(1.0 / 3.0, Round::Nearest), "33%");
        assert_eq!(round6(0.030000000000000002), 0.03);
    }

    #[test]
    fn p_values_print_as_the_docs_write_them() {
        assert_eq!(p_value(0.029_691), "p = 0.030");
        assert_eq!(p_value(0.123_115), "p = 0.123");
        assert_eq!(p_value(0.004_829), "p = 0.005");
        assert_eq!(p_value(0.000_465), "p = 0.0005");
        assert_eq!(p_value(0.000_092_7), "p < 0.0001");
        assert_eq!(p_value(1.0), "p = 1.000");
    }
}
