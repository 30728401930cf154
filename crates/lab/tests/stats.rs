//! The interval and test formulas against values worked out by hand.

use libro_lab::stats::{
    clopper_pearson, clopper_pearson_points, fisher_exact_p, mann_whitney_p, mean, newcombe,
    student_t_mean, welch,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() < tol
}

#[test]
fn clopper_pearson_at_the_ends() {
    // k = 0: the upper end solves (1 − p)^n = 0.025, p = 1 − 0.025^(1/10) = 0.308497.
    let e = clopper_pearson(0, 10);
    assert_eq!((e.value, e.low), (0.0, 0.0));
    assert!(close(e.high, 0.308497, 1e-5), "{e:?}");
    // Symmetric: 10 of 10 is [0.691503, 1] — a 10-0 result is far from certain.
    let e = clopper_pearson(10, 10);
    assert!(close(e.low, 0.691503, 1e-5) && e.high == 1.0, "{e:?}");
    // k = 1: the lower end solves 1 − (1 − p)^n = 0.025, p = 1 − 0.975^(1/10) = 0.002529.
    let e = clopper_pearson(1, 10);
    assert!(close(e.low, 0.002529, 1e-5), "{e:?}");
    // Four wins of four games: the low end solves p^4 = 0.025, p = 0.025^(1/4) = 0.397635.
    let e = clopper_pearson_points(4.0, 4);
    assert!(close(e.low, 0.397635, 1e-5), "{e:?}");
}

#[test]
fn t_interval_of_a_mean() {
    // 1..5: mean 3, s = √(10/4) = 1.581139, s/√5 = 0.707107; t(4, 0.975) = 2.776445, margin
    // 2.776445·0.707107 = 1.963243 → [1.036757, 4.963243].
    let e = student_t_mean(&[1.0, 2.0, 3.0, 4.0, 5.0]);
    assert!(close(e.value, 3.0, 1e-12));
    assert!(
        close(e.low, 1.036757, 1e-5) && close(e.high, 4.963243, 1e-5),
        "{e:?}"
    );
    // Below 200 values the stated interval is at least as wide as Student's t.
    let wide = mean(&[1.0, 2.0, 3.0, 4.0, 5.0]);
    assert!(wide.low <= e.low && wide.high >= e.high, "{wide:?}");
    // Three games of 166, 226 and 262 plies: a ninth of the bootstrap's resamples repeat
    // one game, so the bootstrap-t would be unbounded; below 8 values the interval is
    // Student's t alone — finite. Mean 218, s = √((52² + 8² + 44²)/2) = 48.497, s/√3 =
    // 28.000; t(2, 0.975) = 4.302653 → margin 120.474.
    let small = mean(&[166.0, 226.0, 262.0]);
    assert!(
        close(small.low, 218.0 - 120.474, 1e-2) && close(small.high, 218.0 + 120.474, 1e-2),
        "{small:?}"
    );
    // From 8 values on the bootstrap-t widens it again, and stays finite.
    let eight = [120.0, 150.0, 180.0, 200.0, 230.0, 260.0, 400.0, 900.0];
    let (t8, m8) = (student_t_mean(&eight), mean(&eight));
    assert!(
        m8.high > t8.high && m8.high.is_finite(),
        "{m8:?} against {t8:?}"
    );
    // One value: no spread to estimate, so no bound at all (never a zero width).
    let one = mean(&[7.0]);
    assert!(one.low.is_infinite() && one.high.is_infinite());
}

#[test]
fn two_sample_tests() {
    // Fisher, 0 of 3 against 3 of 3: margins 3 and 3 of 6; P(0) = P(3) = 1/C(6,3) = 1/20,
    // P(1) = P(2) = 9/20; the tables as unlikely as the observed: 1/20 + 1/20 = 0.1.
    assert!(close(fisher_exact_p(0, 3, 3, 3), 0.1, 1e-9));
    // The lady tasting tea: 4 of 4 against 0 of 4, two-sided 2/C(8,4) = 2/70.
    assert!(close(fisher_exact_p(4, 4, 0, 4), 2.0 / 70.0, 1e-9));
    assert!(close(fisher_exact_p(5, 10, 5, 10), 1.0, 1e-9));
    // Mann–Whitney, {1,2,3} against {4,5,6}: U = 6 − 6 = 0, mean 4.5, variance 9·7/12
    // = 5.25; z = (4.5 − 0.5)/2.291288 = 1.745743, p = 2(1 − Φ(z)) = 0.080856.
    assert!(close(
        mann_whitney_p(&[1.0, 2.0, 3.0], &[4.0, 5.0, 6.0]),
        0.080856,
        1e-5
    ));
    assert_eq!(mann_whitney_p(&[1.0, 1.0], &[1.0, 1.0, 1.0]), 1.0);
    // Welch, {1,2,3} against {2,3,4}: d = −1, se = √(1/3 + 1/3) = 0.816497, df = 4;
    // t(4, 0.975)·se = 2.266958; t = 1.224745 → p = 0.287864.
    let (d, p) = welch(&[1.0, 2.0, 3.0], &[2.0, 3.0, 4.0]);
    assert!(close(d.value, -1.0, 1e-12));
    assert!(close(d.margin(), 2.266958, 1e-5), "{d:?}");
    assert!(close(p, 0.287864, 1e-5), "{p}");
    // Newcombe, 10 of 10 against 0 of 10: Clopper–Pearson [0.691503, 1] and [0, 0.308497],
    // so the difference 1 has its low end 1 − √(2·0.308497²) = 0.563719 and its high end 1.
    let e = newcombe(10.0, 10, 0.0, 10);
    assert!(
        close(e.low, 0.563719, 1e-5) && close(e.high, 1.0, 1e-12),
        "{e:?}"
    );
}

/// One study's worth of a known truth: `n` draws from `sample`, and whether the interval
/// built from them covers `truth`.
fn coverage(
    runs: u32,
    n: usize,
    truth: f64,
    mut sample: impl FnMut(&mut ChaCha8Rng) -> f64,
    interval: impl Fn(&[f64]) -> libro_lab::stats::Estimate,
) -> f64 {
    let mut rng = ChaCha8Rng::seed_from_u64(2026);
    let mut covered = 0;
    for _ in 0..runs {
        let xs: Vec<f64> = (0..n).map(|_| sample(&mut rng)).collect();
        if interval(&xs).covers(truth) {
            covered += 1;
        }
    }
    f64::from(covered) / f64::from(runs)
}

#[test]
fn stated_95_percent_intervals_cover_a_known_truth_in_at_least_93_percent_of_studies() {
    for n in [10usize, 100] {
        // A share: a rule that ends 30% of games by checkmate.
        let share = coverage(
            1000,
            n,
            0.3,
            |r| f64::from(u8::from(r.gen::<f64>() < 0.3)),
            |xs| clopper_pearson(xs.iter().sum::<f64>() as u64, xs.len() as u64),
        );
        // A score with draws: win 45%, draw 20%, loss 35%, so the true mean is 0.55.
        let score = coverage(
            1000,
            n,
            0.55,
            |r| {
                let u = r.gen::<f64>();
                if u < 0.45 {
                    1.0
                } else if u < 0.65 {
                    0.5
                } else {
                    0.0
                }
            },
            |xs| clopper_pearson_points(xs.iter().sum(), xs.len() as u64),
        );
        // A score near the edge: a seat that wins 95% of its games.
        let edge = coverage(
            1000,
            n,
            0.95,
            |r| f64::from(u8::from(r.gen::<f64>() < 0.95)),
            |xs| clopper_pearson_points(xs.iter().sum(), xs.len() as u64),
        );
        // A length: skewed like game lengths (gamma, shape 4, mean 4 × 50 = 200 plies).
        let length = coverage(
            1000,
            n,
            200.0,
            |r| (0..4).map(|_| -50.0 * (1.0 - r.gen::<f64>()).ln()).sum(),
            mean,
        );
        for (what, c) in [
            ("share", share),
            ("score", score),
            ("edge", edge),
            ("length", length),
        ] {
            println!("{what} at n = {n}: coverage {c}");
            assert!(c >= 0.93, "{what} at n = {n}: coverage {c}");
        }
    }
}
