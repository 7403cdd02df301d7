//! What the counts prove: the Wilson interval of a failure rate, and the upper
//! bound a run without failures puts on it.

/// The two-sided 95% normal quantile.
const Z95: f64 = 1.959_963_984_540_054;

/// The Wilson score 95% interval of the per-execution failure rate.
/// `[0, 1]` when there were no runs.
pub fn wilson95(failures: u64, runs: u64) -> [f64; 2] {
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

/// The failure rate that `runs` clean executions rule out at 95% confidence:
/// the rate X with (1 - X)^runs = 0.05, i.e. X = 1 - 0.05^(1/runs).
pub fn clean_upper95(runs: u64) -> f64 {
    crate::plan::proof::rate_bound(runs, 0.95)
}

/// A rate as a percentage with enough digits to be meaningful:
/// `3.0%`, `0.30%`, `0.030%`.
pub fn percent(rate: f64) -> String {
    let p = rate * 100.0;
    if p == 0.0 || p >= 1.0 {
        format!("{p:.1}%")
    } else if p >= 0.1 {
        format!("{p:.2}%")
    } else {
        format!("{p:.3}%")
    }
}

/// The statement a clean test's runs support: `0/100 ⇒ failure rate < 3.0% at 95%`.
pub fn clean_statement(runs: u64) -> String {
    format!(
        "0/{runs} ⇒ failure rate < {} at 95%",
        percent(clean_upper95(runs))
    )
}

/// Rounds a rate for reports, so that JSON shows `0.03`, not `0.030000000000000002`.
pub fn round6(x: f64) -> f64 {
    (x * 1e6).round() / 1e6
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 5e-5
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
        assert_eq!(clean_statement(20), "0/20 ⇒ failure rate < 13.9% at 95%");
        assert_eq!(
            clean_statement(1000),
            "0/1000 ⇒ failure rate < 0.30% at 95%"
        );
        assert_eq!(
            clean_statement(10000),
            "0/10000 ⇒ failure rate < 0.030% at 95%"
        );
        assert!(close(clean_upper95(1), 0.95));
    }

    #[test]
    fn percentages_keep_significant_digits() {
        assert_eq!(percent(0.0), "0.0%");
        assert_eq!(percent(0.5), "50.0%");
        assert_eq!(percent(0.0123), "1.2%");
        assert_eq!(percent(0.00123), "0.12%");
        assert_eq!(round6(0.030000000000000002), 0.03);
    }
}
