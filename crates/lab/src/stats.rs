//! The statistics of a study: 95% intervals (Wilson for proportions, normal for means),
//! order statistics, and the two-sample tests behind the plain-language findings.

/// The two-sided 95% quantile of the normal distribution.
pub const Z95: f64 = 1.959_963_984_540_054;

/// A figure with its 95% confidence interval.
#[derive(Copy, Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Estimate {
    pub value: f64,
    pub low: f64,
    pub high: f64,
}

impl Estimate {
    /// Half the width of the interval (the "± x" printed after a figure).
    pub fn margin(&self) -> f64 {
        (self.high - self.low) / 2.0
    }
}

/// The share `k / n` with its Wilson score interval, which stays inside [0, 1] and keeps
/// its coverage for shares near 0 or 1 (a rule that decides 48 games of 50), where the
/// normal interval fails. No games gives 0 in [0, 1].
pub fn wilson(k: u64, n: u64) -> Estimate {
    if n == 0 {
        return Estimate {
            value: 0.0,
            low: 0.0,
            high: 1.0,
        };
    }
    let n_f = n as f64;
    let p = k as f64 / n_f;
    let z2 = Z95 * Z95;
    let denom = 1.0 + z2 / n_f;
    let centre = (p + z2 / (2.0 * n_f)) / denom;
    let half = Z95 * (p * (1.0 - p) / n_f + z2 / (4.0 * n_f * n_f)).sqrt() / denom;
    Estimate {
        value: p,
        // At k = 0 and k = n the ends are exactly 0 and 1 (rounding would leave 1 − ε).
        low: if k == 0 {
            0.0
        } else {
            (centre - half).max(0.0)
        },
        high: if k == n {
            1.0
        } else {
            (centre + half).min(1.0)
        },
    }
}

/// The mean of `xs` with its normal interval `m ± 1.96 s/√n` (`s` the sample standard
/// deviation, n − 1 in the denominator). Fewer than two values give an interval of zero
/// width around the mean (0 for none).
pub fn mean(xs: &[f64]) -> Estimate {
    let n = xs.len();
    if n == 0 {
        return Estimate {
            value: 0.0,
            low: 0.0,
            high: 0.0,
        };
    }
    let m = xs.iter().sum::<f64>() / n as f64;
    let margin = Z95 * sample_sd(xs, m) / (n as f64).sqrt();
    Estimate {
        value: m,
        low: m - margin,
        high: m + margin,
    }
}

/// The sample standard deviation about `m` (0 for fewer than two values).
pub fn sample_sd(xs: &[f64], m: f64) -> f64 {
    if xs.len() < 2 {
        return 0.0;
    }
    let ss: f64 = xs.iter().map(|x| (x - m) * (x - m)).sum();
    (ss / (xs.len() - 1) as f64).sqrt()
}

/// The `q`-quantile (0 ≤ q ≤ 1) of sorted values, interpolating linearly between order
/// statistics (the usual "type 7": position q·(n − 1)). `None` for no values.
pub fn quantile(sorted: &[f64], q: f64) -> Option<f64> {
    let n = sorted.len();
    if n == 0 {
        return None;
    }
    let pos = q.clamp(0.0, 1.0) * (n - 1) as f64;
    let lo = pos.floor() as usize;
    let hi = pos.ceil() as usize;
    Some(sorted[lo] + (pos - lo as f64) * (sorted[hi] - sorted[lo]))
}

/// The standard normal distribution function, from `erfc` (Abramowitz and Stegun 7.1.26
/// would be too coarse in the tails; this is the Numerical Recipes Chebyshev fit, relative
/// error below 1.2e-7 everywhere).
pub fn normal_cdf(x: f64) -> f64 {
    0.5 * erfc(-x / std::f64::consts::SQRT_2)
}

fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let r = t
        * (-z * z - 1.265_512_23
            + t * (1.000_023_68
                + t * (0.374_091_96
                    + t * (0.096_784_18
                        + t * (-0.186_288_06
                            + t * (0.278_868_07
                                + t * (-1.135_203_98
                                    + t * (1.488_515_87
                                        + t * (-0.822_152_23 + t * 0.170_872_77)))))))))
            .exp();
    if x >= 0.0 {
        r
    } else {
        2.0 - r
    }
}

/// Two-sided p-value of a z statistic.
fn two_sided(z: f64) -> f64 {
    (2.0 * (1.0 - normal_cdf(z.abs()))).clamp(0.0, 1.0)
}

/// Two-sided p-value that the shares `k1/n1` and `k2/n2` differ (two-proportion z test with
/// the pooled share). Equal shares of 0 or 1, or an empty sample, give 1.
pub fn two_proportions_p(k1: u64, n1: u64, k2: u64, n2: u64) -> f64 {
    if n1 == 0 || n2 == 0 {
        return 1.0;
    }
    let (a, b) = (n1 as f64, n2 as f64);
    let pooled = (k1 + k2) as f64 / (a + b);
    let se = (pooled * (1.0 - pooled) * (1.0 / a + 1.0 / b)).sqrt();
    if se == 0.0 {
        return 1.0;
    }
    two_sided((k1 as f64 / a - k2 as f64 / b) / se)
}

/// Two-sided p-value that the means of two samples differ (Welch's z: the difference over
/// `√(s1²/n1 + s2²/n2)`, fine for the hundreds of games a study plays).
pub fn two_means_p(xs: &[f64], ys: &[f64]) -> f64 {
    if xs.len() < 2 || ys.len() < 2 {
        return 1.0;
    }
    let (mx, my) = (
        xs.iter().sum::<f64>() / xs.len() as f64,
        ys.iter().sum::<f64>() / ys.len() as f64,
    );
    let (sx, sy) = (sample_sd(xs, mx), sample_sd(ys, my));
    let se = (sx * sx / xs.len() as f64 + sy * sy / ys.len() as f64).sqrt();
    if se == 0.0 {
        return if mx == my { 1.0 } else { 0.0 };
    }
    two_sided((mx - my) / se)
}

/// Holm's step-down correction: which of the p-values are significant at family-wise level
/// `alpha`, so that a study making many comparisons does not report chance differences.
pub fn holm(p: &[f64], alpha: f64) -> Vec<bool> {
    let m = p.len();
    let mut order: Vec<usize> = (0..m).collect();
    order.sort_by(|&a, &b| p[a].total_cmp(&p[b]).then(a.cmp(&b)));
    let mut significant = vec![false; m];
    for (rank, &i) in order.iter().enumerate() {
        if p[i] <= alpha / (m - rank) as f64 {
            significant[i] = true;
        } else {
            break;
        }
    }
    significant
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() < tol
    }

    #[test]
    fn normal_cdf_at_known_points() {
        assert!(close(normal_cdf(0.0), 0.5, 1e-7));
        assert!(close(normal_cdf(Z95), 0.975, 1e-7));
        assert!(close(normal_cdf(-1.0), 0.158_655_25, 1e-7));
        assert!(close(normal_cdf(3.0), 0.998_650_10, 1e-7));
    }

    #[test]
    fn quantiles_interpolate() {
        let xs = [1.0, 2.0, 3.0, 4.0];
        // Positions 0.25·3 = 0.75 → 1.75; 0.5·3 = 1.5 → 2.5; 0.75·3 = 2.25 → 3.25.
        assert_eq!(quantile(&xs, 0.25), Some(1.75));
        assert_eq!(quantile(&xs, 0.5), Some(2.5));
        assert_eq!(quantile(&xs, 0.75), Some(3.25));
        assert_eq!(quantile(&[], 0.5), None);
    }

    #[test]
    fn holm_steps_down() {
        // m = 3: 0.01 ≤ 0.05/3 yes; 0.02 ≤ 0.05/2 yes; 0.04 ≤ 0.05/1 yes.
        assert_eq!(holm(&[0.04, 0.01, 0.02], 0.05), vec![true, true, true]);
        // 0.03 > 0.05/2 stops the steps: only the smallest survives.
        assert_eq!(holm(&[0.01, 0.03, 0.04], 0.05), vec![true, false, false]);
    }
}
