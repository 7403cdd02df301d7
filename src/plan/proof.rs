//! What a clean result proves, and how many executions a target rate needs.
//!
//! A test that fails independently with probability p per execution passes n
//! executions in a row with probability (1-p)^n. So n clean executions rule out
//! (at confidence C) every rate p with (1-p)^n ≤ 1-C, i.e. p ≥ 1-(1-C)^(1/n).

use serde::Serialize;

/// The most executions `--detect-rate` may ask for: beyond this the rate is a typo.
pub const MAX_EXECUTIONS: u64 = 1_000_000;

/// How a plan's evidence is sized and stated.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Evidence {
    /// Confidence of every "clean ⇒ failure rate < X%" statement.
    pub confidence: f64,
    /// The `--detect-rate` the iterations were sized for, if any.
    pub detect_rate: Option<f64>,
}

impl Default for Evidence {
    fn default() -> Self {
        Evidence {
            confidence: 0.95,
            detect_rate: None,
        }
    }
}

/// What a clean run of one command proves about each of its tests.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Proof {
    pub executions_per_test: u64,
    pub confidence: f64,
    /// A clean run means the failure rate is below this (a fraction, rounded up at 6 decimals).
    pub failure_rate_below: f64,
}

impl Proof {
    pub fn new(executions: u64, confidence: f64) -> Proof {
        Proof {
            executions_per_test: executions,
            confidence,
            failure_rate_below: (rate_bound(executions, confidence) * 1e6).ceil() / 1e6,
        }
    }

    /// `clean ⇒ failure rate < 26% at 95%`
    pub fn sentence(&self) -> String {
        format!(
            "clean ⇒ failure rate < {} at {}",
            percent_up(rate_bound(self.executions_per_test, self.confidence)),
            percent_plain(self.confidence)
        )
    }
}

/// The smallest failure rate that n clean executions rule out at `confidence`.
pub fn rate_bound(executions: u64, confidence: f64) -> f64 {
    if executions == 0 {
        return 1.0;
    }
    1.0 - (1.0 - confidence).powf(1.0 / executions as f64)
}

/// The smallest n with 1-(1-rate)^n ≥ confidence: executions that catch at least
/// one failure of a test failing at `rate`, with probability `confidence`.
pub fn executions_for(rate: f64, confidence: f64) -> u64 {
    let n = ((1.0 - confidence).ln() / (1.0 - rate).ln()).ceil();
    // Floating error can leave n one too high (an exact integer computed as x.0000001).
    let n = n.max(1.0) as u64;
    if n > 1 && 1.0 - (1.0 - rate).powi((n - 1) as i32) >= confidence {
        n - 1
    } else {
        n
    }
}

/// A fraction as a percentage rounded *up* to two significant digits, so the
/// stated bound is never tighter than the true one: 0.2589 → `26%`, 0.0295 → `3.0%`.
pub fn percent_up(fraction: f64) -> String {
    let v = fraction * 100.0;
    if v <= 0.0 {
        return "0%".into();
    }
    let decimals = (1 - v.log10().floor() as i32).max(0);
    let scale = 10f64.powi(decimals);
    // The epsilon keeps an exact 3.0 from becoming 3.1 through float noise.
    let rounded = (v * scale - 1e-9).ceil() / scale;
    format!("{rounded:.prec$}%", prec = decimals as usize)
}

/// A confidence as a short percentage: 0.95 → `95%`, 0.999 → `99.9%`.
pub fn percent_plain(fraction: f64) -> String {
    let s = format!("{:.4}", fraction * 100.0);
    let s = s.trim_end_matches('0').trim_end_matches('.');
    format!("{s}%")
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn reference_defaults_prove_three_fourteen_and_twenty_six_percent() {
        assert_eq!(
            Proof::new(100, 0.95).sentence(),
            "clean ⇒ failure rate < 3.0% at 95%"
        );
        assert_eq!(
            Proof::new(20, 0.95).sentence(),
            "clean ⇒ failure rate < 14% at 95%"
        );
        assert_eq!(
            Proof::new(10, 0.95).sentence(),
            "clean ⇒ failure rate < 26% at 95%"
        );
        assert_eq!(
            Proof::new(149, 0.95).sentence(),
            "clean ⇒ failure rate < 2.0% at 95%"
        );
        assert_eq!(Proof::new(10, 0.95).failure_rate_below, 0.258866);
    }

    #[test]
    fn percentages_round_up_and_print_briefly() {
        assert_eq!(percent_up(0.0295), "3.0%");
        assert_eq!(percent_up(0.03), "3.0%");
        assert_eq!(percent_up(0.25887), "26%");
        assert_eq!(percent_up(0.000299), "0.030%");
        assert_eq!(percent_up(1.0), "100%");
        assert_eq!(percent_plain(0.95), "95%");
        assert_eq!(percent_plain(0.999), "99.9%");
        assert_eq!(rate_bound(0, 0.95), 1.0);
    }
}
