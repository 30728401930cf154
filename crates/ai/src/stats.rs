//! Match statistics: wins, draws and losses, the mean score with its 95% interval, and the
//! Elo difference that score implies, with the interval its score interval implies.

use statrs::distribution::{Beta, ContinuousCDF};

/// A match summed up from player A's side. Serialises to exactly the line the CLI prints
/// with `--json`: `{"wins":W,"draws":D,"losses":L,"score":S,"score_low":…,"score_high":…,
/// "elo":E,"elo_low":…,"elo_high":…}`.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct MatchReport {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// Mean score per game, in [0, 1]; 0.5 is even.
    pub score: f64,
    /// The 95% interval of `score` ([`score_interval`]): [0, 1] with no games.
    pub score_low: f64,
    pub score_high: f64,
    /// Elo difference A − B; `null` when it is unbounded (a score of 0 or 1) or no game.
    pub elo: Option<f64>,
    /// The Elo differences of the ends of the score interval; `null` where an end is 0 or 1
    /// (the interval is unbounded on that side).
    pub elo_low: Option<f64>,
    pub elo_high: Option<f64>,
}

/// The Elo difference a mean score implies (logistic model): `400 log10(s / (1 - s))`.
pub fn elo_from_score(score: f64) -> Option<f64> {
    (score > 0.0 && score < 1.0).then(|| 400.0 * (score / (1.0 - score)).log10())
}

/// The 95% interval of a mean score of `points` over `n` games (a draw half a point): the
/// Clopper–Pearson ("exact") interval with the points as successes. It covers the true
/// score in at least 95% of matches at any n, is wide for a 4-0 (at least 39.8%), and stays
/// in [0, 1]; draws only narrow a score's spread, so with draws it is, if anything, wide.
pub fn score_interval(points: f64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let n = n as f64;
    let k = points.clamp(0.0, n);
    let beta = |a: f64, b: f64, q: f64| Beta::new(a, b).map_or(q, |d| d.inverse_cdf(q));
    let low = if k <= 0.0 {
        0.0
    } else {
        beta(k, n - k + 1.0, 0.025)
    };
    let high = if k >= n {
        1.0
    } else {
        beta(k + 1.0, n - k, 0.975)
    };
    (low, high)
}

impl MatchReport {
    /// The report of a match whose games A scored `scores` (each in [0, 1]; above 0.5 a
    /// win, 0.5 a draw, below a loss), with the interval of [`score_interval`].
    pub fn from_scores(scores: &[f64]) -> Self {
        let n = scores.len();
        let count = |f: fn(f64) -> bool| scores.iter().filter(|&&s| f(s)).count() as u32;
        let points: f64 = scores.iter().sum();
        let score = if n == 0 { 0.0 } else { points / n as f64 };
        let (score_low, score_high) = score_interval(points, n as u64);
        MatchReport {
            wins: count(|s| s > 0.5),
            draws: count(|s| s == 0.5),
            losses: count(|s| s < 0.5),
            score,
            score_low,
            score_high,
            elo: if n == 0 { None } else { elo_from_score(score) },
            elo_low: elo_from_score(score_low),
            elo_high: elo_from_score(score_high),
        }
    }

    /// Games in the match.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// The 95% interval of the score.
    pub fn score_interval(&self) -> (f64, f64) {
        (self.score_low, self.score_high)
    }

    /// The score and Elo difference with their intervals, in words:
    /// `score 100.0% [39.8%, 100.0%]; Elo +inf [−72, +inf] (95%, Clopper–Pearson)`.
    pub fn summary(&self) -> String {
        let elo = |e: Option<f64>, unbounded: &str| {
            e.map_or(unbounded.to_string(), |e| format!("{e:+.0}"))
        };
        let mid = if self.games() == 0 {
            "none".to_string()
        } else {
            elo(self.elo, if self.score >= 1.0 { "+inf" } else { "-inf" })
        };
        format!(
            "score {:.1}% [{:.1}%, {:.1}%]; Elo {mid} [{}, {}] (95%, Clopper–Pearson)",
            100.0 * self.score,
            100.0 * self.score_low,
            100.0 * self.score_high,
            elo(self.elo_low, "-inf"),
            elo(self.elo_high, "+inf"),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scores(w: usize, d: usize, l: usize) -> Vec<f64> {
        [vec![1.0; w], vec![0.5; d], vec![0.0; l]].concat()
    }

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() < tol
    }

    #[test]
    fn elo_of_known_scores() {
        // 0.75 is three times as many points as the opponent: 400 log10 3 = 190.849.
        assert!(close(elo_from_score(0.75).unwrap(), 190.849, 1e-3));
        assert!(close(elo_from_score(0.5).unwrap(), 0.0, 1e-12));
        assert!(close(elo_from_score(0.25).unwrap(), -190.849, 1e-3));
        assert_eq!(elo_from_score(1.0), None);
        assert_eq!(elo_from_score(0.0), None);
    }

    #[test]
    fn a_four_nil_match_has_a_wide_interval() {
        // 4 of 4: the low end solves p⁴ = 0.025, p = 0.025^(1/4) = 0.397635, whose Elo is
        // 400 log10(0.397635/0.602365) = −72.14; the high end is 1 (Elo unbounded).
        let r = MatchReport::from_scores(&scores(4, 0, 0));
        assert_eq!(
            (r.score, r.score_high, r.elo, r.elo_high),
            (1.0, 1.0, None, None)
        );
        assert!(close(r.score_low, 0.397635, 1e-5), "{r:?}");
        assert!(close(r.elo_low.unwrap(), -72.14, 0.01), "{r:?}");
        assert_eq!(
            r.summary(),
            "score 100.0% [39.8%, 100.0%]; Elo +inf [-72, +inf] (95%, Clopper–Pearson)"
        );
    }

    #[test]
    fn even_match_and_degenerate_ones() {
        // 1 of 2: the interval solves 1 − (1 − p)² = 0.025 below, p = 0.012579, and
        // symmetrically 0.987421 above.
        let r = MatchReport::from_scores(&scores(1, 0, 1));
        assert!(close(r.elo.unwrap(), 0.0, 1e-9));
        assert!(close(r.score_low, 0.012579, 1e-5) && close(r.score_high, 0.987421, 1e-5));
        let r = MatchReport::from_scores(&[]);
        assert_eq!(
            (r.games(), r.elo, r.score_interval()),
            (0, None, (0.0, 1.0))
        );
    }

    #[test]
    fn serialises_to_the_cli_line() {
        let r = MatchReport::from_scores(&scores(3, 0, 0));
        let json = serde_json::to_string(&r).unwrap();
        assert!(
            json.starts_with(r#"{"wins":3,"draws":0,"losses":0,"score":1.0,"score_low":0.29"#),
            "{json}"
        );
        // 3 of 3: low end 0.025^(1/3) = 0.292402, Elo 400 log10(0.292402/0.707598) = −153.52.
        assert!(
            json.contains(r#""score_high":1.0,"elo":null,"elo_low":-153.52"#),
            "{json}"
        );
        assert!(json.ends_with(r#""elo_high":null}"#), "{json}");
    }
}
