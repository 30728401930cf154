//! Subtraction Nim: take 1, 2 or 3 stones; whoever takes the last stone wins. The seat to
//! move loses exactly when the pile is a multiple of 4 (the other answers every take of
//! k with 4 − k), so the winner's best move is to take `pile % 4`.

use super::{mix, ToyError};
use libro_core::{
    Chance, EndReason, Game, GameResult, Heuristic, MoveList, NoChance, Ruleset, Seat, Turn,
};
use std::fmt;
use std::sync::Arc;

pub struct NimRules {
    pub pile: u32,
}

#[derive(Clone, Debug)]
pub struct Nim {
    pub pile: u32,
    pub mover: u8,
    pub ply: u32,
}

impl Nim {
    pub fn new(pile: u32, mover: u8) -> Self {
        Nim {
            pile,
            mover,
            ply: 0,
        }
    }
}

impl Ruleset for NimRules {
    type Game = Nim;
    type PositionError = ToyError;
    fn name(&self) -> &str {
        "nim"
    }
    fn seat_names(&self) -> Vec<String> {
        vec!["first".into(), "second".into()]
    }
    fn new_game(self: &Arc<Self>, _seed: u64) -> Nim {
        Nim::new(self.pile, 0)
    }
    fn parse_position(self: &Arc<Self>, text: &str) -> Result<Nim, ToyError> {
        let (pile, mover) = text
            .split_once(' ')
            .ok_or_else(|| ToyError(format!("`{text}`: expected `PILE MOVER`")))?;
        Ok(Nim::new(
            pile.parse()
                .map_err(|_| ToyError(format!("bad pile `{pile}`")))?,
            mover
                .parse()
                .map_err(|_| ToyError(format!("bad mover `{mover}`")))?,
        ))
    }
}

impl fmt::Display for Nim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.pile, self.mover)
    }
}

impl Game for Nim {
    type Move = u8;
    type ChanceOutcome = NoChance;
    type MoveList = MoveList<u8, 3>;
    type MoveError = ToyError;

    fn num_seats(&self) -> usize {
        2
    }
    fn turn(&self) -> Turn {
        if self.pile == 0 {
            Turn::Over
        } else {
            Turn::Seat(Seat(self.mover))
        }
    }
    fn legal_moves(&self, out: &mut Self::MoveList) {
        out.clear();
        for take in 1..=self.pile.min(3) {
            out.push(take as u8);
        }
    }
    fn play(&mut self, mv: u8) {
        self.pile -= u32::from(mv);
        self.mover ^= 1;
        self.ply += 1;
    }
    fn chance_outcomes(&self, out: &mut Vec<Chance<NoChance>>) {
        out.clear();
    }
    fn sample_chance(&self) -> NoChance {
        unreachable!("nim has no chance")
    }
    fn apply_chance(&mut self, outcome: NoChance) {
        match outcome {}
    }
    fn result(&self) -> Option<GameResult> {
        // The seat that took the last stone is the one that is not to move.
        (self.pile == 0).then(|| GameResult::win(2, Seat(self.mover ^ 1), EndReason::BoreOff))
    }
    fn hash(&self) -> u64 {
        mix(u64::from(self.pile) << 1 | u64::from(self.mover))
    }
    fn recompute_hash(&self) -> u64 {
        self.hash()
    }
    fn ply(&self) -> u32 {
        self.ply
    }
    fn write_move(&self, mv: u8, f: &mut dyn fmt::Write) -> fmt::Result {
        write!(f, "{mv}")
    }
    fn parse_move(&self, text: &str) -> Result<u8, ToyError> {
        match text.parse::<u32>() {
            Ok(t @ 1..=3) if t <= self.pile => Ok(t as u8),
            _ => Err(ToyError(format!("cannot take `{text}` from {}", self.pile))),
        }
    }
}

/// No knowledge at all: the search must find the wins by itself.
impl Heuristic for Nim {
    fn evaluate(&self, _seat: Seat) -> i32 {
        0
    }
    fn is_tactical(&self, _mv: u8) -> bool {
        false
    }
}
