//! The standard normal distribution: its upper tail and its quantile, for the
//! normal approximations (a trend test's p for long series) and the
//! O'Brien–Fleming-shaped spending of [`super::looks`].

/// P(Z > z) for a standard normal Z, with relative error below 1.2e-7
/// (Numerical Recipes' Chebyshev fit of erfc): ample for p-values and
/// thresholds, which are printed with two significant digits.
pub(super) fn upper_tail(z: f64) -> f64 {
    0.5 * erfc(z / std::f64::consts::SQRT_2)
}

/// The z with P(Z > z) = `p`, for 0 < p < 1: found by bisection on
/// [`upper_tail`], which is monotone, so it is as exact as the tail itself.
pub(super) fn upper_quantile(p: f64) -> f64 {
    let (mut lo, mut hi) = (-40.0, 40.0);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if upper_tail(mid) > p {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98
                                + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let r = t * poly.exp();
    if x >= 0.0 {
        r
    } else {
        2.0 - r
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tails_match_published_tables() {
        // Standard normal tables: Φ(1.96) = 0.975002, Φ(1) = 0.841345, Φ(3) = 0.998650.
        assert!((upper_tail(1.96) - 0.024_998).abs() < 1e-6);
        assert!((upper_tail(1.0) - 0.158_655).abs() < 1e-6);
        assert!((upper_tail(3.0) - 0.001_350).abs() < 1e-6);
        assert!((upper_tail(-1.0) - 0.841_345).abs() < 1e-6);
        assert!((upper_tail(0.0) - 0.5).abs() < 1e-7);
    }

    #[test]
    fn quantiles_invert_the_tail() {
        assert!((upper_quantile(0.025) - 1.959_964).abs() < 1e-5);
        assert!((upper_quantile(0.05) - 1.644_854).abs() < 1e-5);
        assert!((upper_quantile(0.5)).abs() < 1e-6);
    }
}
