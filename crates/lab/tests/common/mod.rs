//! A toy game for the lab's tests: Nim with one pile, taking 1 to 3 counters a turn; the
//! seat that takes the last counter wins ("bore off" its pile). Under random play the
//! seat to move with `n` counters wins with probability W(n), worked out by hand:
//! W(0) = 0, W(1) = 1, W(2) = ½(1 − W(1)) + ½(1 − W(0)) = ½,
//! W(3) = ⅓(½ + 0 + 1) = ½, W(4) = ⅓(½ + ½ + 0) = ⅓, W(5) = ⅓(⅔ + ½ + ½) = 5/9.
#![allow(dead_code)]

use arrayvec::ArrayVec;
use libro_core::{
    Census, Chance, EndReason, Game, GameResult, Heuristic, Landing, NoChance, NoChanceError,
    Ruleset, Seat, Turn,
};
use libro_lab::{GameRow, Ledger, Study};
use std::fmt;
use std::sync::Arc;

#[derive(Debug)]
pub struct Nim {
    pub pile: u32,
}

impl Nim {
    /// The ruleset of a reading: `pile=N` among the overrides (default 5).
    pub fn from_overrides(overrides: &[(String, String)]) -> Arc<Nim> {
        let pile = overrides
            .iter()
            .find(|(k, _)| k == "pile")
            .map_or(5, |(_, v)| v.parse().expect("pile is a number"));
        Arc::new(Nim { pile })
    }
}

#[derive(Clone, Debug)]
pub struct NimGame {
    left: u32,
    ply: u32,
}

impl Ruleset for Nim {
    type Game = NimGame;
    type PositionError = NoChanceError;
    fn name(&self) -> &str {
        "nim"
    }
    fn seat_names(&self) -> Vec<String> {
        vec!["first".into(), "second".into()]
    }
    fn new_game(self: &Arc<Self>, _seed: u64) -> NimGame {
        NimGame {
            left: self.pile,
            ply: 0,
        }
    }
    fn parse_position(self: &Arc<Self>, text: &str) -> Result<NimGame, NoChanceError> {
        Err(NoChanceError(text.into()))
    }
}

impl fmt::Display for NimGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.left, self.ply)
    }
}

impl Game for NimGame {
    type Move = u32;
    type ChanceOutcome = NoChance;
    type MoveList = ArrayVec<u32, 3>;
    type MoveError = NoChanceError;
    fn num_seats(&self) -> usize {
        2
    }
    fn turn(&self) -> Turn {
        if self.left == 0 {
            Turn::Over
        } else {
            Turn::Seat(Seat((self.ply % 2) as u8))
        }
    }
    fn legal_moves(&self, out: &mut ArrayVec<u32, 3>) {
        out.clear();
        if self.left > 0 {
            out.extend(1..=self.left.min(3));
        }
    }
    fn play(&mut self, mv: u32) {
        self.left -= mv;
        self.ply += 1;
    }
    fn chance_outcomes(&self, out: &mut Vec<Chance<NoChance>>) {
        out.clear();
    }
    fn sample_chance(&self) -> NoChance {
        unreachable!("nim has no chance events")
    }
    fn apply_chance(&mut self, outcome: NoChance) {
        match outcome {}
    }
    fn result(&self) -> Option<GameResult> {
        // The seat that moved last took the last counter.
        (self.left == 0)
            .then(|| GameResult::win(2, Seat(((self.ply + 1) % 2) as u8), EndReason::BoreOff))
    }
    fn hash(&self) -> u64 {
        u64::from(self.left) << 32 | u64::from(self.ply)
    }
    fn recompute_hash(&self) -> u64 {
        self.hash()
    }
    fn ply(&self) -> u32 {
        self.ply
    }
    fn write_move(&self, mv: u32, f: &mut dyn fmt::Write) -> fmt::Result {
        write!(f, "{mv}")
    }
    fn parse_move(&self, text: &str) -> Result<u32, NoChanceError> {
        text.parse().map_err(|_| NoChanceError(text.into()))
    }
}

impl Heuristic for NimGame {
    fn evaluate(&self, _seat: Seat) -> i32 {
        0
    }
    fn is_tactical(&self, _mv: u32) -> bool {
        false
    }
}

/// Nim's census: the cells are the counts a pile can be left at (0 to 15), the one piece
/// type is the taking hand, and taking the last counter "captures".
impl Census for NimGame {
    fn grid(&self) -> (u16, u16) {
        (16, 1)
    }
    fn piece_types(&self) -> Vec<String> {
        vec!["hand".into()]
    }
    fn landings(&self, mv: u32, out: &mut dyn FnMut(Landing)) {
        out(Landing {
            piece: 0,
            cell: (self.left - mv) as u16,
            capture: self.left == mv,
        });
    }
}

/// A stake of 1 each into the pot, which the winner takes: +1 for the winner, −1 for the loser.
pub fn nim_ledger(game: &NimGame) -> Option<Ledger> {
    let winner = game.result()?.winner()?.index();
    let paid = vec![1.0, 1.0];
    let balances = (0..2)
        .map(|s| if s == winner { 1.0 } else { -1.0 })
        .collect();
    Some(Ledger { paid, balances })
}

/// A study of random Nim players over the given piles.
pub fn study(piles: &str, games: u32, seed: u64) -> Study {
    Study {
        ruleset: "nim".into(),
        seats: vec!["first".into(), "second".into()],
        options: vec![],
        vary: vec![libro_lab::parse_vary(&format!("pile={piles}")).unwrap()],
        players: vec!["random".into()],
        games,
        seed,
        max_plies: 1000,
        opening_moves: 0,
        stamp: Default::default(),
        board: Default::default(),
    }
}

/// Plays the pending games of `study` under `plan`, returning the rows in finishing order.
pub fn play(study: &Study, plan: &libro_lab::RunPlan) -> Vec<GameRow> {
    let rules: Vec<Arc<Nim>> = study
        .readings()
        .iter()
        .map(|r| Nim::from_overrides(&r.overrides))
        .collect();
    let mut rows = Vec::new();
    libro_lab::run(
        study,
        &rules,
        plan,
        &libro_lab::any_mover::<NimGame>,
        nim_ledger,
        &mut |r| rows.push(r.clone()),
    )
    .expect("the toy study runs");
    rows
}

/// Rows in `(reading, index)` order.
pub fn sorted(mut rows: Vec<GameRow>) -> Vec<GameRow> {
    rows.sort_by(|a, b| (&a.reading, a.index).cmp(&(&b.reading, b.index)));
    rows
}
