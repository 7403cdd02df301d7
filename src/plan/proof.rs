//! What a clean run of a planned command proves (the numbers are `stats`').

use crate::stats::{percent, rate_bound, Round};
use serde::Serialize;

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
            percent(
                rate_bound(self.executions_per_test, self.confidence),
                Round::Up
            ),
            percent(self.confidence, Round::Nearest)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
