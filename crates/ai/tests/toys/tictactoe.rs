//! Tic-tac-toe: X (seat 0) and O (seat 1) mark cells a1..c3 (column letter, row number);
//! three in a line wins, a full board is a draw. Perfect play draws.

use super::{mix, ToyError};
use libro_core::{
    Chance, EndReason, Game, GameResult, Heuristic, MoveList, NoChance, Ruleset, Seat, Turn,
};
use std::fmt;
use std::sync::Arc;

const LINES: [u16; 8] = [0o007, 0o070, 0o700, 0o111, 0o222, 0o444, 0o421, 0o124];

pub struct TicTacToeRules;

#[derive(Clone, Debug)]
pub struct TicTacToe {
    /// Cells of X and of O; bit `3 * row + column`, row 0 is row 1.
    pub marks: [u16; 2],
    pub mover: u8,
    pub ply: u32,
}

impl TicTacToe {
    pub fn empty() -> Self {
        TicTacToe {
            marks: [0, 0],
            mover: 0,
            ply: 0,
        }
    }

    /// A position from three rows top (row 3) to bottom (row 1), `x`, `o` or `.`; the
    /// mover follows from the counts (X moves first).
    pub fn from_rows(rows: [&str; 3]) -> Self {
        let mut marks = [0u16; 2];
        for (r, row) in rows.iter().enumerate() {
            for (c, ch) in row.chars().enumerate() {
                let bit = 1 << (3 * (2 - r) + c);
                match ch {
                    'x' => marks[0] |= bit,
                    'o' => marks[1] |= bit,
                    _ => {}
                }
            }
        }
        let count = marks[0].count_ones() + marks[1].count_ones();
        TicTacToe {
            marks,
            mover: (marks[0].count_ones() > marks[1].count_ones()) as u8,
            ply: count,
        }
    }

    fn line_of(&self, seat: usize) -> bool {
        LINES.iter().any(|&l| self.marks[seat] & l == l)
    }

    fn full(&self) -> bool {
        (self.marks[0] | self.marks[1]) == 0o777
    }
}

impl Ruleset for TicTacToeRules {
    type Game = TicTacToe;
    type PositionError = ToyError;
    fn name(&self) -> &str {
        "tictactoe"
    }
    fn seat_names(&self) -> Vec<String> {
        vec!["x".into(), "o".into()]
    }
    fn new_game(self: &Arc<Self>, _seed: u64) -> TicTacToe {
        TicTacToe::empty()
    }
    fn parse_position(self: &Arc<Self>, text: &str) -> Result<TicTacToe, ToyError> {
        let rows: Vec<&str> = text.split('/').collect();
        match rows.as_slice() {
            [a, b, c] => Ok(TicTacToe::from_rows([a, b, c])),
            _ => Err(ToyError(format!("`{text}`: expected three rows"))),
        }
    }
}

impl fmt::Display for TicTacToe {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for r in (0..3).rev() {
            for c in 0..3 {
                let bit = 1 << (3 * r + c);
                let ch = if self.marks[0] & bit != 0 {
                    'x'
                } else if self.marks[1] & bit != 0 {
                    'o'
                } else {
                    '.'
                };
                write!(f, "{ch}")?;
            }
            if r > 0 {
                write!(f, "/")?;
            }
        }
        Ok(())
    }
}

impl Game for TicTacToe {
    type Move = u8;
    type ChanceOutcome = NoChance;
    type MoveList = MoveList<u8, 9>;
    type MoveError = ToyError;

    fn num_seats(&self) -> usize {
        2
    }
    fn turn(&self) -> Turn {
        if self.line_of(0) || self.line_of(1) || self.full() {
            Turn::Over
        } else {
            Turn::Seat(Seat(self.mover))
        }
    }
    fn legal_moves(&self, out: &mut Self::MoveList) {
        out.clear();
        let free = !(self.marks[0] | self.marks[1]) & 0o777;
        for cell in 0..9 {
            if free & (1 << cell) != 0 {
                out.push(cell);
            }
        }
    }
    fn play(&mut self, mv: u8) {
        self.marks[usize::from(self.mover)] |= 1 << mv;
        self.mover ^= 1;
        self.ply += 1;
    }
    fn chance_outcomes(&self, out: &mut Vec<Chance<NoChance>>) {
        out.clear();
    }
    fn sample_chance(&self) -> NoChance {
        unreachable!("tic-tac-toe has no chance")
    }
    fn apply_chance(&mut self, outcome: NoChance) {
        match outcome {}
    }
    fn result(&self) -> Option<GameResult> {
        for seat in 0..2 {
            if self.line_of(seat) {
                return Some(GameResult::win(2, Seat(seat as u8), EndReason::BoreOff));
            }
        }
        self.full()
            .then(|| GameResult::draw(2, &[Seat(0), Seat(1)], EndReason::MoveLimit))
    }
    fn hash(&self) -> u64 {
        mix(u64::from(self.marks[0]) | u64::from(self.marks[1]) << 9 | u64::from(self.mover) << 18)
    }
    fn recompute_hash(&self) -> u64 {
        self.hash()
    }
    fn ply(&self) -> u32 {
        self.ply
    }
    fn write_move(&self, mv: u8, f: &mut dyn fmt::Write) -> fmt::Result {
        write!(f, "{}{}", (b'a' + mv % 3) as char, mv / 3 + 1)
    }
    fn parse_move(&self, text: &str) -> Result<u8, ToyError> {
        let b = text.as_bytes();
        if b.len() != 2 || !(b'a'..=b'c').contains(&b[0]) || !(b'1'..=b'3').contains(&b[1]) {
            return Err(ToyError(format!("`{text}` is not a cell a1..c3")));
        }
        let cell = (b[1] - b'1') * 3 + (b[0] - b'a');
        if (self.marks[0] | self.marks[1]) & (1 << cell) != 0 {
            return Err(ToyError(format!("{text} is taken")));
        }
        Ok(cell)
    }
}

/// Open lines: each line still open for one side counts 1, 10 or 100 by its marks.
impl Heuristic for TicTacToe {
    fn evaluate(&self, seat: Seat) -> i32 {
        let weight = [0, 1, 10, 100];
        let mut v = 0;
        for &l in &LINES {
            let (x, o) = (
                (self.marks[0] & l).count_ones(),
                (self.marks[1] & l).count_ones(),
            );
            if o == 0 {
                v += weight[x as usize];
            }
            if x == 0 {
                v -= weight[o as usize];
            }
        }
        if seat.0 == 0 {
            v
        } else {
            -v
        }
    }
    /// A move that completes a line of the mover's.
    fn is_tactical(&self, mv: u8) -> bool {
        let mine = self.marks[usize::from(self.mover)] | 1 << mv;
        LINES.iter().any(|&l| l & (1 << mv) != 0 && mine & l == l)
    }
    /// The centre first, then corners.
    fn order_score(&self, mv: u8) -> i32 {
        match mv {
            4 => 2,
            0 | 2 | 6 | 8 => 1,
            _ => 0,
        }
    }
}
