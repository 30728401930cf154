//! The sequential probability ratio test that decides, game by game, whether a player is
//! stronger than another by `elo1` rather than by `elo0` (as Stockfish's testing accepts a
//! change on evidence, not on a fixed number of games).
//!
//! The log-likelihood ratio is the generalised SPRT's normal approximation for the
//! trinomial (win, draw, loss) model used by fishtest and cutechess-cli:
//! `LLR = n (s1 − s0) (2 x̄ − s0 − s1) / (2 σ²)`, where `x̄` and `σ²` are the mean and
//! variance of the per-game score and `s0`, `s1` the scores the two Elo hypotheses give.
//! So that a run of identical results does not make the variance zero (and the ratio
//! infinite), half a win, half a draw and half a loss are added to the counts when the
//! variance is estimated.

use std::fmt;
use std::str::FromStr;

/// An SPRT: the two hypotheses (Elo differences) and the error rates.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Sprt {
    /// The Elo difference of the null hypothesis (no better than this).
    pub elo0: f64,
    /// The Elo difference of the alternative (at least this much better).
    pub elo1: f64,
    /// The chance of accepting H1 when H0 holds.
    pub alpha: f64,
    /// The chance of accepting H0 when H1 holds.
    pub beta: f64,
}

/// Where an SPRT stands.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SprtDecision {
    /// The evidence favours `elo1`: accept the change.
    H1,
    /// The evidence favours `elo0`: reject the change.
    H0,
    /// Neither bound is crossed yet.
    Continue,
}

/// What is wrong with an SPRT specification.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SprtError {
    #[error("SPRT `{0}`: expected `elo0=E0,elo1=E1[,alpha=A,beta=B]`")]
    Syntax(String),
    #[error("SPRT: `{key}` is `{value}`, not a number")]
    NotANumber { key: String, value: String },
    #[error("SPRT: elo1 ({elo1}) must be greater than elo0 ({elo0}), both within ±1000")]
    Hypotheses { elo0: f64, elo1: f64 },
    #[error("SPRT: alpha and beta must be between 0 and 0.5, not {0}")]
    ErrorRate(f64),
}

/// The expected score of a player `elo` Elo stronger (logistic model).
pub fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

impl Sprt {
    /// The log-likelihood ratio after these results (see the module documentation).
    pub fn llr(&self, wins: u32, draws: u32, losses: u32) -> f64 {
        let n = f64::from(wins + draws + losses);
        if n == 0.0 {
            return 0.0;
        }
        let mean = (f64::from(wins) + 0.5 * f64::from(draws)) / n;
        let (w, d, l) = (
            f64::from(wins) + 0.5,
            f64::from(draws) + 0.5,
            f64::from(losses) + 0.5,
        );
        let m = w + d + l;
        let prior_mean = (w + 0.5 * d) / m;
        let variance = (w * (1.0 - prior_mean).powi(2)
            + d * (0.5 - prior_mean).powi(2)
            + l * prior_mean.powi(2))
            / m;
        let (s0, s1) = (score_of_elo(self.elo0), score_of_elo(self.elo1));
        n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * variance)
    }

    /// The bounds of the ratio: accept H0 at or below the first, H1 at or above the second.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// Where the test stands after these results.
    pub fn decision(&self, wins: u32, draws: u32, losses: u32) -> SprtDecision {
        let llr = self.llr(wins, draws, losses);
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtDecision::H1
        } else if llr <= lower {
            SprtDecision::H0
        } else {
            SprtDecision::Continue
        }
    }
}

impl FromStr for Sprt {
    type Err = SprtError;

    /// `elo0=0,elo1=10` with optional `alpha=0.05,beta=0.05` (the defaults).
    fn from_str(s: &str) -> Result<Self, SprtError> {
        let (mut elo0, mut elo1, mut alpha, mut beta) = (None, None, 0.05, 0.05);
        for part in s.split(',') {
            let (key, value) = part
                .split_once('=')
                .ok_or_else(|| SprtError::Syntax(s.to_string()))?;
            let x: f64 = value
                .trim()
                .parse()
                .ok()
                .filter(|x: &f64| x.is_finite())
                .ok_or_else(|| SprtError::NotANumber {
                    key: key.to_string(),
                    value: value.to_string(),
                })?;
            match key.trim() {
                "elo0" => elo0 = Some(x),
                "elo1" => elo1 = Some(x),
                "alpha" => alpha = x,
                "beta" => beta = x,
                _ => return Err(SprtError::Syntax(s.to_string())),
            }
        }
        let (Some(elo0), Some(elo1)) = (elo0, elo1) else {
            return Err(SprtError::Syntax(s.to_string()));
        };
        if elo1 <= elo0 || elo0.abs() > 1000.0 || elo1.abs() > 1000.0 {
            return Err(SprtError::Hypotheses { elo0, elo1 });
        }
        for rate in [alpha, beta] {
            if !(rate > 0.0 && rate < 0.5) {
                return Err(SprtError::ErrorRate(rate));
            }
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }
}

impl fmt::Display for Sprt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "elo0={},elo1={},alpha={},beta={}",
            self.elo0, self.elo1, self.alpha, self.beta
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sprt(s: &str) -> Sprt {
        s.parse().unwrap()
    }

    #[test]
    fn the_bounds_are_walds() {
        // ln(0.05 / 0.95) = -2.944, ln(0.95 / 0.05) = 2.944.
        let (lo, hi) = sprt("elo0=0,elo1=10").bounds();
        assert!(
            (lo + 2.944).abs() < 1e-3 && (hi - 2.944).abs() < 1e-3,
            "{lo} {hi}"
        );
    }

    #[test]
    fn the_ratio_worked_by_hand() {
        // elo0 = 0, elo1 = 100: s0 = 0.5, s1 = 1 / (1 + 10^-0.25) = 0.640065.
        // 30 wins, 40 draws, 30 losses: n = 100, mean 0.5. Counts for the variance
        // 30.5, 40.5, 30.5 (m = 101.5, mean 0.5): σ² = (30.5 · 0.25 + 30.5 · 0.25) / 101.5
        // = 0.150246. LLR = 100 · 0.140065 · (1 − 1.140065) / (2 · 0.150246) = −6.5288.
        let llr = sprt("elo0=0,elo1=100").llr(30, 40, 30);
        assert!((llr + 6.5288).abs() < 1e-3, "{llr}");
        assert_eq!(
            sprt("elo0=0,elo1=100").decision(30, 40, 30),
            SprtDecision::H0
        );
        // Symmetric: 60 wins, 40 draws, 0 losses for elo0 = -100, elo1 = 0 is positive.
        assert!(sprt("elo0=-100,elo1=0").llr(60, 40, 0) > 0.0);
    }

    #[test]
    fn no_games_decide_nothing_and_one_sided_results_decide_in_time() {
        let t = sprt("elo0=0,elo1=50");
        assert_eq!(t.llr(0, 0, 0), 0.0);
        assert_eq!(t.decision(1, 0, 0), SprtDecision::Continue);
        // Win after win: the ratio grows without becoming infinite, and H1 is accepted.
        let first = (1..200).find(|&w| t.decision(w, 0, 0) == SprtDecision::H1);
        assert!(matches!(first, Some(w) if w > 1), "{first:?}");
        assert!(t.llr(5, 0, 0).is_finite());
        let first_h0 = (1..200).find(|&l| t.decision(0, 0, l) == SprtDecision::H0);
        assert!(first_h0.is_some());
    }

    #[test]
    fn bad_specifications_are_named() {
        assert!(matches!(
            "elo0=0".parse::<Sprt>(),
            Err(SprtError::Syntax(_))
        ));
        assert!(matches!(
            "elo0=0,elo1=ten".parse::<Sprt>(),
            Err(SprtError::NotANumber { .. })
        ));
        assert!(matches!(
            "elo0=10,elo1=0".parse::<Sprt>(),
            Err(SprtError::Hypotheses { .. })
        ));
        assert!(matches!(
            "elo0=0,elo1=10,alpha=0.7".parse::<Sprt>(),
            Err(SprtError::ErrorRate(_))
        ));
        assert_eq!(
            sprt("elo0=0,elo1=10").to_string(),
            "elo0=0,elo1=10,alpha=0.05,beta=0.05"
        );
    }
}
