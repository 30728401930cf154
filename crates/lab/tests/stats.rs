//! The interval and test formulas against values worked out by hand.

use libro_lab::stats::{mean, two_means_p, two_proportions_p, wilson, Z95};

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() < tol
}

#[test]
fn wilson_interval_of_48_in_50() {
    // p = 0.96, n = 50, z² = 3.841459: denominator 1 + z²/n = 1.0768292;
    // centre (0.96 + z²/100)/1.0768292 = 0.9984146/1.0768292 = 0.927180;
    // half-width z·√(0.96·0.04/50 + z²/10000)/1.0768292 = 1.959964·√0.001152146/1.0768292
    // = 0.061781 → [0.86540, 0.98896].
    let e = wilson(48, 50);
    assert!(close(e.value, 0.96, 1e-12));
    assert!(close(e.low, 0.86540, 1e-4), "{e:?}");
    assert!(close(e.high, 0.98896, 1e-4), "{e:?}");
}

#[test]
fn wilson_interval_of_none_in_ten() {
    // With k = 0 the upper end is z²/(n + z²) = 3.841459/13.841459 = 0.277533, the lower 0.
    let e = wilson(0, 10);
    assert_eq!((e.value, e.low), (0.0, 0.0));
    assert!(close(e.high, 0.277533, 1e-5), "{e:?}");
    // Symmetric: 10 of 10 is [1 − 0.277533, 1].
    let e = wilson(10, 10);
    assert!(close(e.low, 1.0 - 0.277533, 1e-5) && e.high == 1.0, "{e:?}");
}

#[test]
fn normal_interval_of_a_mean() {
    // 1..5: mean 3, s = √(10/4) = 1.581139, s/√5 = 0.707107, margin 1.959964·0.707107
    // = 1.385904 → [1.614096, 4.385904].
    let e = mean(&[1.0, 2.0, 3.0, 4.0, 5.0]);
    assert!(close(e.value, 3.0, 1e-12));
    assert!(
        close(e.low, 1.614096, 1e-6) && close(e.high, 4.385904, 1e-6),
        "{e:?}"
    );
    assert!(close(
        e.margin(),
        Z95 * std::f64::consts::FRAC_1_SQRT_2,
        1e-6
    ));
    // One value: no spread to estimate, so no width.
    assert_eq!(mean(&[7.0]).margin(), 0.0);
}

#[test]
fn two_sample_tests() {
    // 60/100 against 40/100: pooled 0.5, se = √(0.25·0.02) = 0.0707107, z = 2.828427,
    // p = 2(1 − Φ(2.828427)) = 0.0046777.
    assert!(close(two_proportions_p(60, 100, 40, 100), 0.0046777, 1e-6));
    // Equal shares: z = 0, p = 1 (to the 1e-7 accuracy of the normal function).
    assert!(close(two_proportions_p(50, 100, 50, 100), 1.0, 1e-6));
    assert_eq!(two_proportions_p(0, 10, 0, 20), 1.0);
    // Means 2 and 3 of {1,2,3} and {2,3,4}: s = 1 each, se = √(1/3 + 1/3) = 0.816497,
    // z = 1.224745, p = 2(1 − Φ(1.224745)) = 0.220671.
    assert!(close(
        two_means_p(&[1.0, 2.0, 3.0], &[2.0, 3.0, 4.0]),
        0.220671,
        1e-5
    ));
}
