//! Tables notation from the mover's side: a checker move `24/21`, a hit `6/5*`, entering
//! `bar/22`, bearing off `6/off`, laying down a stacked pair `3/down` (Doblet), and a whole
//! turn `24/21 21/15 6/5*`.

use crate::dice::MAX_DICE;
use std::fmt;
use std::str::FromStr;

/// The bar, as a point number on the mover's side (checkers enter from here onto 25 − n).
pub const BAR: u8 = 25;
/// Off the board (borne off), as a point number on the mover's side.
pub const OFF: u8 = 0;

/// What is wrong with a written play.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NotationError {
    #[error("`{token}`: {reason}")]
    Token { token: String, reason: String },
    #[error("a turn has at most {MAX_DICE} checker moves (one per die), and `{0}` writes more")]
    TooLong(String),
}

/// One checker moved by one die (or, as written by a player, by several: `24/15`), on the
/// mover's own numbering: `from` is 1–24 or [`BAR`], `to` is 1–24 or [`OFF`]. A step whose
/// `to` is its `from` lays down the pair stacked there (the top checker is set beside the
/// other, on the same point), written `3/down`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Step {
    from: u8,
    to: u8,
    hit: bool,
}

impl Step {
    /// A step; `None` unless `from` is 1–24 or the bar, `to` is 0 (off) to 24, and `to < from`
    /// — or `to == from` on a point, without a hit: a lay-down.
    pub fn new(from: u8, to: u8, hit: bool) -> Option<Step> {
        let moves = (1..=BAR).contains(&from) && to < from && to < BAR && !(hit && to == OFF);
        let lays_down = (1..BAR).contains(&from) && to == from && !hit;
        (moves || lays_down).then_some(Step { from, to, hit })
    }

    /// Laying down the pair stacked on point `point` (1–24).
    pub fn lay_down(point: u8) -> Option<Step> {
        Step::new(point, point, false)
    }

    /// Whether this step lays down a stacked pair rather than moving a checker.
    #[inline]
    pub fn is_lay_down(self) -> bool {
        self.from == self.to
    }

    /// A step the move generator has already checked.
    #[inline]
    pub(crate) const fn raw(from: u8, to: u8, hit: bool) -> Step {
        Step { from, to, hit }
    }

    /// Where the checker starts: 1–24, or [`BAR`].
    #[inline]
    pub fn from(self) -> u8 {
        self.from
    }

    /// Where it ends: 1–24, or [`OFF`].
    #[inline]
    pub fn to(self) -> u8 {
        self.to
    }

    /// Whether it hits a lone opposing checker on its landing point.
    #[inline]
    pub fn hit(self) -> bool {
        self.hit
    }
}

fn write_point(p: u8, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    match p {
        BAR => f.write_str("bar"),
        OFF => f.write_str("off"),
        n => write!(f, "{n}"),
    }
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_lay_down() {
            return write!(f, "{}/down", self.from);
        }
        write_point(self.from, f)?;
        f.write_str("/")?;
        write_point(self.to, f)?;
        if self.hit {
            f.write_str("*")?;
        }
        Ok(())
    }
}

/// A whole turn: up to three checker moves, played in order. The empty play is a pass
/// (only where the ruleset lets unplayable dice be forfeited), written `pass`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct Play {
    pub(crate) steps: [Option<Step>; MAX_DICE],
}

impl Play {
    /// The play made of these steps; `None` if there are more than [`MAX_DICE`].
    pub fn new(steps: &[Step]) -> Option<Play> {
        if steps.len() > MAX_DICE {
            return None;
        }
        let mut play = Play::default();
        for (slot, &s) in play.steps.iter_mut().zip(steps) {
            *slot = Some(s);
        }
        Some(play)
    }

    /// The steps in the order they are played.
    pub fn steps(&self) -> impl Iterator<Item = Step> + '_ {
        self.steps.iter().map_while(|s| *s)
    }

    /// How many checker moves.
    pub fn len(&self) -> usize {
        self.steps.iter().take_while(|s| s.is_some()).count()
    }

    /// Whether this is a pass.
    pub fn is_empty(&self) -> bool {
        self.steps[0].is_none()
    }
}

impl fmt::Display for Play {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return f.write_str("pass");
        }
        for (i, s) in self.steps().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            s.fmt(f)?;
        }
        Ok(())
    }
}

impl FromStr for Play {
    type Err = NotationError;

    /// Reads checker moves separated by spaces or commas. Each is `from/to`, where a point
    /// is 1–24, `bar` or `off`, and `*` after a point marks a hit; `3/down` lays down the
    /// pair stacked on point 3. Also accepted: chains
    /// `24/21/15` (one checker taking several dice), repeats `6/5(2)`, combined moves `24/15`
    /// (kept as written; the game splits them into dice) and `pass`.
    fn from_str(text: &str) -> Result<Play, NotationError> {
        let mut play = Play::default();
        let mut n = 0;
        let mut push = |s: Step, n: &mut usize| {
            if *n == MAX_DICE {
                return Err(NotationError::TooLong(text.trim().to_string()));
            }
            play.steps[*n] = Some(s);
            *n += 1;
            Ok(())
        };
        let tokens: Vec<&str> = text
            .split([' ', ',', '\t'])
            .filter(|t| !t.is_empty())
            .collect();
        if tokens.len() == 1 && tokens[0].eq_ignore_ascii_case("pass") {
            return Ok(play);
        }
        for token in &tokens {
            let bad = |reason: String| NotationError::Token {
                token: token.to_string(),
                reason,
            };
            let (body, repeat) = match token.strip_suffix(')').and_then(|t| t.rsplit_once('(')) {
                Some((body, count)) => match count.parse::<usize>() {
                    Ok(c @ 1..=MAX_DICE) => (body, c),
                    _ => {
                        return Err(bad(format!(
                            "`({count})` is not a repeat count from 1 to {MAX_DICE}"
                        )))
                    }
                },
                None => (*token, 1),
            };
            if let Some(point) = body.to_ascii_lowercase().strip_suffix("/down") {
                let step = point
                    .parse::<u8>()
                    .ok()
                    .and_then(Step::lay_down)
                    .ok_or_else(|| {
                        bad(format!(
                            "`{point}/down` lays down the pair stacked on a point, and `{point}` is not a point (1-24)"
                        ))
                    })?;
                for _ in 0..repeat {
                    push(step, &mut n)?;
                }
                continue;
            }
            let mut points = Vec::new();
            for part in body.split('/') {
                let (name, hit) = match part.strip_suffix('*') {
                    Some(p) => (p, true),
                    None => (part, false),
                };
                let point = match name.to_ascii_lowercase().as_str() {
                    "bar" | "b" => BAR,
                    "off" | "o" => OFF,
                    p => match p.parse::<u8>() {
                        Ok(v @ 1..=24) => v,
                        _ => {
                            return Err(bad(format!("`{name}` is not a point (1-24, bar or off)")))
                        }
                    },
                };
                points.push((point, hit));
            }
            if points.len() < 2 {
                return Err(bad("a checker move is `from/to`, e.g. `24/21`".into()));
            }
            if points[0].1 {
                return Err(bad(
                    "a hit `*` marks the point landed on, not the one left".into()
                ));
            }
            for _ in 0..repeat {
                for w in points.windows(2) {
                    let ((from, _), (to, hit)) = (w[0], w[1]);
                    let step = Step::new(from, to, hit).filter(|s| !s.is_lay_down()).ok_or_else(|| {
                        bad(if to == BAR {
                            "a checker never moves onto the bar: hit checkers go there".into()
                        } else if from == OFF {
                            "a borne-off checker does not come back".into()
                        } else if hit && to == OFF {
                            "bearing off hits nothing".into()
                        } else if to == from {
                            format!("a checker moves to another point; `{from}/down` lays down a stacked pair")
                        } else {
                            format!("checkers move down from 24 towards 1 and off, and {from}/{to} goes the other way")
                        })
                    })?;
                    push(step, &mut n)?;
                }
            }
        }
        Ok(play)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(t: &str) -> Play {
        t.parse().unwrap_or_else(|e| panic!("{t}: {e}"))
    }

    #[test]
    fn writes_the_usual_notation() {
        let p = Play::new(&[
            Step::new(24, 21, false).unwrap(),
            Step::new(21, 15, false).unwrap(),
            Step::new(6, 5, true).unwrap(),
        ])
        .unwrap();
        assert_eq!(p.to_string(), "24/21 21/15 6/5*");
        assert_eq!(play("24/21 21/15 6/5*"), p);
        assert_eq!(play("bar/22 6/off").to_string(), "bar/22 6/off");
        assert_eq!(Play::default().to_string(), "pass");
        assert_eq!(play("pass"), Play::default());
        let down = play("3/down 5/Down");
        assert_eq!(down.to_string(), "3/down 5/down");
        assert!(down.steps().all(Step::is_lay_down));
        assert_eq!(down.steps().next(), Step::lay_down(3));
    }

    #[test]
    fn reads_chains_repeats_and_abbreviations() {
        assert_eq!(play("24/21/15 6/5*"), play("24/21 21/15 6/5*"));
        assert_eq!(play("6/5(3)"), play("6/5 6/5 6/5"));
        assert_eq!(play("B/22, 6/O"), play("bar/22 6/off"));
        assert_eq!(play("24/15").steps().next(), Step::new(24, 15, false));
    }

    #[test]
    fn rejects_malformed_plays_with_the_reason() {
        for (t, why) in [
            ("24-21", "not a point"),
            ("24/25", "not a point"),
            ("21/24", "other way"),
            ("off/3", "does not come back"),
            ("6/off*", "hits nothing"),
            ("24*/21", "landed on"),
            ("6/bar", "never moves onto the bar"),
            ("6", "from/to"),
            ("6/5(4)", "repeat count"),
            ("bar/down", "not a point"),
            ("25/down", "not a point"),
            ("6/6", "lays down a stacked pair"),
        ] {
            let e = t.parse::<Play>().unwrap_err().to_string();
            assert!(
                e.contains(why),
                "`{t}` gave `{e}`, expected it to mention `{why}`"
            );
        }
        assert!(matches!(
            "6/5 6/5 6/5 6/5".parse::<Play>(),
            Err(NotationError::TooLong(_))
        ));
        assert!(matches!(
            "6/5(2) 8/7(2)".parse::<Play>(),
            Err(NotationError::TooLong(_))
        ));
    }

    proptest::proptest! {
        #[test]
        fn any_play_reads_back_from_its_text(
            raw in proptest::collection::vec((1u8..=25, 0u8..25, proptest::bool::ANY), 0..=3),
        ) {
            let steps: Vec<Step> = raw
                .into_iter()
                .filter_map(|(from, to, hit)| Step::new(from, to.min(from), hit && to > 0 && to < from))
                .collect();
            let play = Play::new(&steps).unwrap();
            proptest::prop_assert_eq!(play.to_string().parse::<Play>().unwrap(), play);
        }
    }
}
