//! Match statistics: wins, draws and losses, the mean score with its 95% interval, and the
//! Elo difference that score implies, with its error.

/// The two-sided 95% quantile of the normal distribution.
const Z95: f64 = 1.959_963_984_540_054;

/// A match summed up from player A's side. Serialises to exactly the line the CLI prints
/// with `--json`: `{"wins":W,"draws":D,"losses":L,"score":S,"elo":E,"elo_error":X}`.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct MatchReport {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// Mean score per game, in [0, 1]; 0.5 is even.
    pub score: f64,
    /// Elo difference A − B; `null` when it is unbounded (a score of 0 or 1) or no game.
    pub elo: Option<f64>,
    /// Half the width of the Elo interval matching the 95% score interval; `null` when an
    /// end of that interval reaches 0 or 1 (or fewer than two games).
    pub elo_error: Option<f64>,
    /// Half the width of the 95% interval of `score` (not in the JSON line).
    #[serde(skip)]
    pub score_margin: f64,
}

/// The Elo difference a mean score implies (logistic model): `400 log10(s / (1 - s))`.
pub fn elo_from_score(score: f64) -> Option<f64> {
    (score > 0.0 && score < 1.0).then(|| 400.0 * (score / (1.0 - score)).log10())
}

impl MatchReport {
    /// The report of a match whose games A scored `scores` (each in [0, 1]; above 0.5 a
    /// win, 0.5 a draw, below a loss). The interval is the normal approximation with the
    /// games' own (population) variance: `s ± 1.96 σ/√n`; the Elo error is half the
    /// distance between the Elo values of its two ends.
    pub fn from_scores(scores: &[f64]) -> Self {
        let n = scores.len();
        let count = |f: fn(f64) -> bool| scores.iter().filter(|&&s| f(s)).count() as u32;
        let wins = count(|s| s > 0.5);
        let draws = count(|s| s == 0.5);
        let losses = count(|s| s < 0.5);
        if n == 0 {
            return MatchReport {
                wins,
                draws,
                losses,
                score: 0.0,
                elo: None,
                elo_error: None,
                score_margin: 0.0,
            };
        }
        let mean = scores.iter().sum::<f64>() / n as f64;
        let variance = scores.iter().map(|s| (s - mean) * (s - mean)).sum::<f64>() / n as f64;
        let margin = Z95 * (variance / n as f64).sqrt();
        let elo_error = match (
            n >= 2,
            elo_from_score(mean - margin),
            elo_from_score(mean + margin),
        ) {
            (true, Some(lo), Some(hi)) => Some((hi - lo) / 2.0),
            _ => None,
        };
        MatchReport {
            wins,
            draws,
            losses,
            score: mean,
            elo: elo_from_score(mean),
            elo_error,
            score_margin: margin,
        }
    }

    /// Games in the match.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// The 95% interval of the score, clipped to [0, 1].
    pub fn score_interval(&self) -> (f64, f64) {
        (
            (self.score - self.score_margin).max(0.0),
            (self.score + self.score_margin).min(1.0),
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
    fn report_of_sixty_twenty_twenty() {
        // By hand: s = (60 + 10)/100 = 0.7; E[x²] = (60 + 20/4)/100 = 0.65, σ² = 0.65 − 0.49
        // = 0.16, σ/√n = 0.04, margin 1.96·0.04 = 0.0784 → [0.6216, 0.7784];
        // Elo 400 log10(0.7/0.3) = 147.19; ends 400 log10(0.7784/0.2216) = 218.25 and
        // 400 log10(0.6216/0.3784) = 86.23, error (218.25 − 86.23)/2 = 66.01.
        let r = MatchReport::from_scores(&scores(60, 20, 20));
        assert_eq!((r.wins, r.draws, r.losses, r.games()), (60, 20, 20, 100));
        assert!(close(r.score, 0.7, 1e-12));
        assert!(close(r.score_margin, 0.0784, 1e-4));
        let (lo, hi) = r.score_interval();
        assert!(close(lo, 0.6216, 1e-4) && close(hi, 0.7784, 1e-4));
        assert!(close(r.elo.unwrap(), 147.19, 0.01));
        assert!(close(r.elo_error.unwrap(), 66.01, 0.01));
    }

    #[test]
    fn even_match_and_degenerate_ones() {
        // 50-0-50: s = 0.5, σ = 0.5, margin 1.96·0.05 = 0.098; 400 log10(0.598/0.402) = 68.99.
        let r = MatchReport::from_scores(&scores(50, 0, 50));
        assert!(close(r.elo.unwrap(), 0.0, 1e-9));
        assert!(close(r.elo_error.unwrap(), 68.99, 0.02));
        // All wins: the Elo difference has no finite estimate.
        let r = MatchReport::from_scores(&scores(10, 0, 0));
        assert_eq!((r.score, r.elo, r.elo_error), (1.0, None, None));
        let r = MatchReport::from_scores(&[]);
        assert_eq!((r.games(), r.elo), (0, None));
    }

    #[test]
    fn serialises_to_the_cli_line() {
        let r = MatchReport::from_scores(&scores(1, 2, 1));
        let json = serde_json::to_string(&r).unwrap();
        assert!(
            json.starts_with(
                r#"{"wins":1,"draws":2,"losses":1,"score":0.5,"elo":0.0,"elo_error":"#
            ),
            "{json}"
        );
        assert!(!json.contains("margin"));
        let r = MatchReport::from_scores(&scores(3, 0, 0));
        assert_eq!(
            serde_json::to_string(&r).unwrap(),
            r#"{"wins":3,"draws":0,"losses":0,"score":1.0,"elo":null,"elo_error":null}"#
        );
    }
}
