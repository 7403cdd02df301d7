//! A summary of execution times in bounded memory: median, 90th percentile
//! and maximum of any number of durations, within 0.5% (the maximum exact).
//! A test run a million times in a report keeps a few dozen counters, not a
//! million values, and two summaries merge by adding counts.

use std::collections::BTreeMap;

/// Each bucket spans a factor of 1.01: a quantile read from its geometric
/// middle is within 0.5% of the true value.
const GROWTH: f64 = 1.01;
/// Durations below a microsecond count as zero (reports print milliseconds).
const SMALLEST: f64 = 1e-6;

/// Durations in seconds, in log-spaced buckets.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DurationSketch {
    /// Bucket index → count; `i32::MIN` holds the zeros.
    buckets: BTreeMap<i32, u64>,
    count: u64,
    max: f64,
}

/// What a [`DurationSketch`] says, in seconds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Quantiles {
    pub median: f64,
    pub p90: f64,
    pub max: f64,
}

impl DurationSketch {
    /// Adds one duration; negative or not-a-number values are not durations and are left out.
    pub fn add(&mut self, seconds: f64) {
        if seconds.is_nan() || seconds < 0.0 {
            return;
        }
        *self.buckets.entry(bucket(seconds)).or_default() += 1;
        self.count += 1;
        self.max = self.max.max(seconds);
    }

    /// Adds a duration when the report gave one.
    pub fn add_some(&mut self, seconds: Option<f64>) {
        if let Some(s) = seconds {
            self.add(s);
        }
    }

    pub fn merge(&mut self, other: &DurationSketch) {
        for (b, n) in &other.buckets {
            *self.buckets.entry(*b).or_default() += n;
        }
        self.count += other.count;
        self.max = self.max.max(other.max);
    }

    pub fn count(&self) -> u64 {
        self.count
    }

    /// Median, 90th percentile (nearest rank) and maximum; `None` when empty.
    pub fn quantiles(&self) -> Option<Quantiles> {
        (self.count > 0).then(|| Quantiles {
            median: self.rank(0.5),
            p90: self.rank(0.9),
            max: self.max,
        })
    }

    /// The value of rank ⌈q·n⌉, from its bucket's middle, never above the maximum.
    fn rank(&self, q: f64) -> f64 {
        let want = ((q * self.count as f64).ceil() as u64).max(1);
        let mut seen = 0;
        for (b, n) in &self.buckets {
            seen += n;
            if seen >= want {
                return middle(*b).min(self.max);
            }
        }
        self.max
    }
}

fn bucket(seconds: f64) -> i32 {
    if seconds < SMALLEST {
        return i32::MIN;
    }
    ((seconds / SMALLEST).ln() / GROWTH.ln()).floor() as i32
}

fn middle(bucket: i32) -> f64 {
    if bucket == i32::MIN {
        return 0.0;
    }
    SMALLEST * GROWTH.powf(bucket as f64 + 0.5)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn within(got: f64, want: f64) -> bool {
        (got - want).abs() <= want * 0.005 + 1e-9
    }

    #[test]
    fn quantiles_are_within_half_a_percent() {
        let mut d = DurationSketch::default();
        // 1..=1000 ms: median 0.500 s, p90 0.900 s, max 1 s.
        for ms in 1..=1000 {
            d.add(ms as f64 / 1000.0);
        }
        let q = d.quantiles().unwrap();
        assert!(within(q.median, 0.5), "{q:?}");
        assert!(within(q.p90, 0.9), "{q:?}");
        assert_eq!(q.max, 1.0);
        assert_eq!(d.count(), 1000);
    }

    #[test]
    fn merged_summaries_equal_one_summary_of_all() {
        let (mut a, mut b, mut all) = (
            DurationSketch::default(),
            DurationSketch::default(),
            DurationSketch::default(),
        );
        for i in 0..500 {
            let x = (i as f64 * 0.37).sin().abs() * 3.0;
            if i % 3 == 0 {
                a.add(x)
            } else {
                b.add(x)
            }
            all.add(x);
        }
        a.merge(&b);
        assert_eq!(a, all);
    }

    #[test]
    fn zeros_and_non_durations() {
        let mut d = DurationSketch::default();
        assert_eq!(d.quantiles(), None);
        d.add(0.0);
        d.add(f64::NAN);
        d.add(-1.0);
        d.add(0.0);
        d.add(2.0);
        assert_eq!(d.count(), 3);
        let q = d.quantiles().unwrap();
        assert_eq!((q.median, q.max), (0.0, 2.0));
        assert!(within(q.p90, 2.0));
        // A bucket's middle never reads above the largest value seen.
        let mut one = DurationSketch::default();
        one.add(0.123);
        assert!(one.quantiles().unwrap().median <= 0.123);
    }
}
