//! A dice race: each of two seats has two tokens some points from home. A turn is a roll
//! of 1, 2 or 3 (weights 1, 2, 1 out of 4: two coins plus one), then the seat moves one of
//! its tokens that many points; a token reaching or passing home is off. The first seat
//! with both tokens off wins. The only decision is which token to move, and it matters
//! through the rolls to come (wasting pips on bearing off early, or keeping two tokens).

use super::{mix, ToyError};
use libro_core::{Chance, EndReason, Game, GameResult, Heuristic, MoveList, Ruleset, Seat, Turn};
use std::fmt;
use std::sync::Arc;

/// The rolls and their weights out of 4.
pub const ROLLS: [(u8, u32); 3] = [(1, 1), (2, 2), (3, 1)];

pub struct RaceRules {
    pub length: u8,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Race {
    /// Distance of each token from home, per seat (0 = off).
    pub tokens: [[u8; 2]; 2],
    pub mover: u8,
    /// The roll to play, once rolled.
    pub die: Option<u8>,
    pub ply: u32,
    pub seed: u64,
}

impl Race {
    pub fn new(tokens: [[u8; 2]; 2], mover: u8, die: Option<u8>) -> Self {
        Race {
            tokens,
            mover,
            die,
            ply: 0,
            seed: 0,
        }
    }

    fn finished(&self, seat: usize) -> bool {
        self.tokens[seat] == [0, 0]
    }

    /// Both seats' pip counts.
    pub fn pips(&self) -> [i32; 2] {
        [0, 1].map(|s| self.tokens[s].iter().map(|&t| i32::from(t)).sum())
    }
}

impl Ruleset for RaceRules {
    type Game = Race;
    type PositionError = ToyError;
    fn name(&self) -> &str {
        "race"
    }
    fn seat_names(&self) -> Vec<String> {
        vec!["first".into(), "second".into()]
    }
    fn new_game(self: &Arc<Self>, seed: u64) -> Race {
        let l = self.length;
        Race {
            seed,
            ..Race::new([[l, l], [l, l]], 0, None)
        }
    }
    fn parse_position(self: &Arc<Self>, text: &str) -> Result<Race, ToyError> {
        let bad = || ToyError(format!("bad race position `{text}`"));
        let n: Vec<&str> = text.split(' ').collect();
        let [a, b, c, d, mover, die, ply, seed] = n.as_slice() else {
            return Err(bad());
        };
        let num = |s: &str| s.parse::<u8>().map_err(|_| bad());
        Ok(Race {
            tokens: [[num(a)?, num(b)?], [num(c)?, num(d)?]],
            mover: num(mover)?,
            die: if *die == "-" { None } else { Some(num(die)?) },
            ply: ply.parse().map_err(|_| bad())?,
            seed: seed.parse().map_err(|_| bad())?,
        })
    }
}

impl fmt::Display for Race {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [[a, b], [c, d]] = self.tokens;
        let die = self.die.map_or("-".to_string(), |d| d.to_string());
        write!(
            f,
            "{a} {b} {c} {d} {} {die} {} {}",
            self.mover, self.ply, self.seed
        )
    }
}

impl Game for Race {
    /// The distance of the token to move.
    type Move = u8;
    type ChanceOutcome = u8;
    type MoveList = MoveList<u8, 2>;
    type MoveError = ToyError;

    fn num_seats(&self) -> usize {
        2
    }
    fn turn(&self) -> Turn {
        if self.finished(0) || self.finished(1) {
            Turn::Over
        } else if self.die.is_none() {
            Turn::Chance
        } else {
            Turn::Seat(Seat(self.mover))
        }
    }
    fn legal_moves(&self, out: &mut Self::MoveList) {
        out.clear();
        if self.turn() != Turn::Seat(Seat(self.mover)) {
            return;
        }
        let [a, b] = self.tokens[usize::from(self.mover)];
        for t in [a.max(b), a.min(b)] {
            if t > 0 && !out.contains(&t) {
                out.push(t);
            }
        }
    }
    fn play(&mut self, mv: u8) {
        let die = self.die.take().unwrap_or(0);
        let tokens = &mut self.tokens[usize::from(self.mover)];
        if let Some(t) = tokens.iter_mut().find(|t| **t == mv) {
            *t = t.saturating_sub(die);
        }
        self.mover ^= 1;
        self.ply += 1;
    }
    fn chance_outcomes(&self, out: &mut Vec<Chance<u8>>) {
        out.clear();
        if self.turn() == Turn::Chance {
            out.extend(ROLLS.iter().map(|&(outcome, weight)| Chance {
                outcome,
                weight,
                total: 4,
            }));
        }
    }
    fn sample_chance(&self) -> u8 {
        match mix(self.seed ^ mix(u64::from(self.ply))) % 4 {
            0 => 1,
            3 => 3,
            _ => 2,
        }
    }
    fn apply_chance(&mut self, outcome: u8) {
        self.die = Some(outcome);
        self.ply += 1;
    }
    fn result(&self) -> Option<GameResult> {
        (0..2)
            .find(|&s| self.finished(s))
            .map(|s| GameResult::win(2, Seat(s as u8), EndReason::BoreOff))
    }
    fn hash(&self) -> u64 {
        let [[a, b], [c, d]] = self.tokens;
        let packed = [a, b, c, d, self.mover, self.die.unwrap_or(0)]
            .iter()
            .fold(0u64, |h, &x| h << 8 | u64::from(x));
        mix(packed)
    }
    fn recompute_hash(&self) -> u64 {
        self.hash()
    }
    fn ply(&self) -> u32 {
        self.ply
    }
    fn write_move(&self, mv: u8, f: &mut dyn fmt::Write) -> fmt::Result {
        match mv.saturating_sub(self.die.unwrap_or(0)) {
            0 => write!(f, "{mv}/off"),
            to => write!(f, "{mv}/{to}"),
        }
    }
    fn parse_move(&self, text: &str) -> Result<u8, ToyError> {
        let mut moves = Self::MoveList::default();
        self.legal_moves(&mut moves);
        moves
            .iter()
            .copied()
            .find(|&m| self.move_text(m) == text)
            .ok_or_else(|| ToyError(format!("`{text}` is not a legal move here")))
    }
}

/// The pip count: 100 per point the opponent is behind.
impl Heuristic for Race {
    fn evaluate(&self, seat: Seat) -> i32 {
        let p = self.pips();
        let v = 100 * (p[1] - p[0]);
        if seat.0 == 0 {
            v
        } else {
            -v
        }
    }
    /// Bearing a token off.
    fn is_tactical(&self, mv: u8) -> bool {
        mv <= self.die.unwrap_or(0)
    }
}
