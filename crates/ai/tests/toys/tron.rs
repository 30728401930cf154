//! Light cycles for two to four seats on a small grid: in turn each seat moves its head
//! one cell north, east, south or west onto an empty cell, leaving a wall behind. A seat
//! with no empty neighbour crashes (its one move, `x`) and is out; the last one left wins,
//! the others rank by when they crashed (first out, last place).

use super::{mix, ToyError};
use libro_core::{
    Chance, EndReason, Game, GameResult, Heuristic, MoveList, NoChance, Ruleset, Seat, SeatOutcome,
    Turn, MAX_SEATS,
};
use std::fmt;
use std::sync::Arc;

pub const CRASH: u8 = 4;
const DIRS: [char; 5] = ['n', 'e', 's', 'w', 'x'];

pub struct TronRules {
    pub width: u8,
    pub height: u8,
    pub seats: u8,
}

#[derive(Clone, Debug)]
pub struct Tron {
    pub width: u8,
    pub height: u8,
    pub seats: u8,
    /// Cells taken by walls and heads; bit `y * width + x`.
    pub walls: u64,
    pub heads: [u8; MAX_SEATS],
    /// Bit `s` set while seat `s` is in the game.
    pub alive: u8,
    pub mover: u8,
    pub ply: u32,
    /// Seats in the order they crashed.
    pub out: Vec<u8>,
}

impl TronRules {
    pub fn start(&self) -> Tron {
        let (w, h) = (self.width, self.height);
        let at = |x: u8, y: u8| y * w + x;
        let corners = match self.seats {
            2 => vec![at(1, 1), at(w - 2, h - 2)],
            3 => vec![at(1, 1), at(w - 2, 1), at(w / 2, h - 2)],
            _ => vec![at(1, 1), at(w - 2, 1), at(w - 2, h - 2), at(1, h - 2)],
        };
        let mut heads = [0; MAX_SEATS];
        let mut walls = 0;
        for (s, &c) in corners.iter().enumerate() {
            heads[s] = c;
            walls |= 1u64 << c;
        }
        Tron {
            width: w,
            height: h,
            seats: self.seats,
            walls,
            heads,
            alive: (1 << self.seats) - 1,
            mover: 0,
            ply: 0,
            out: Vec::new(),
        }
    }
}

impl Tron {
    fn board(&self) -> u64 {
        let cells = u32::from(self.width) * u32::from(self.height);
        if cells >= 64 {
            u64::MAX
        } else {
            (1u64 << cells) - 1
        }
    }

    /// The cell a head at `cell` reaches going `dir`, if on the board.
    fn step(&self, cell: u8, dir: u8) -> Option<u8> {
        let (w, h) = (self.width, self.height);
        let (x, y) = (cell % w, cell / w);
        match dir {
            0 if y + 1 < h => Some(cell + w),
            1 if x + 1 < w => Some(cell + 1),
            2 if y > 0 => Some(cell - w),
            3 if x > 0 => Some(cell - 1),
            _ => None,
        }
    }

    /// The cells next to any cell of `set`; `west` is the board's west column.
    fn neighbours(&self, set: u64, west: u64) -> u64 {
        let w = u32::from(self.width);
        let east = west << (w - 1);
        ((set << w) | (set >> w) | ((set & !east) << 1) | ((set & !west) >> 1)) & self.board()
    }

    /// Cells each live seat reaches strictly before every other (Voronoi territory).
    pub fn territory(&self) -> [i32; MAX_SEATS] {
        let n = usize::from(self.seats);
        let west =
            (0..u32::from(self.height)).fold(0u64, |c, y| c | 1 << (y * u32::from(self.width)));
        let mut count = [0; MAX_SEATS];
        let mut frontier = [0u64; MAX_SEATS];
        for (s, f) in frontier.iter_mut().enumerate().take(n) {
            if self.alive & (1 << s) != 0 {
                *f = 1 << self.heads[s];
            }
        }
        let mut claimed = self.walls;
        loop {
            let mut next = [0u64; MAX_SEATS];
            let mut seen = 0u64;
            let mut contested = 0u64;
            for (nx, &f) in next.iter_mut().zip(&frontier).take(n) {
                *nx = self.neighbours(f, west) & !claimed;
                contested |= seen & *nx;
                seen |= *nx;
            }
            if seen == 0 {
                return count;
            }
            for ((f, &nx), c) in frontier.iter_mut().zip(&next).zip(&mut count).take(n) {
                *f = nx & !contested;
                *c += f.count_ones() as i32;
            }
            claimed |= seen;
        }
    }

    fn next_alive(&self, from: u8) -> u8 {
        let mut s = from;
        for _ in 0..self.seats {
            s = (s + 1) % self.seats;
            if self.alive & (1 << s) != 0 {
                return s;
            }
        }
        from
    }
}

impl Ruleset for TronRules {
    type Game = Tron;
    type PositionError = ToyError;
    fn name(&self) -> &str {
        "tron"
    }
    fn seat_names(&self) -> Vec<String> {
        ["red", "green", "blue", "gold"][..usize::from(self.seats)]
            .iter()
            .map(|s| s.to_string())
            .collect()
    }
    fn new_game(self: &Arc<Self>, _seed: u64) -> Tron {
        self.start()
    }
    fn parse_position(self: &Arc<Self>, text: &str) -> Result<Tron, ToyError> {
        let f: Vec<&str> = text.split(' ').collect();
        let bad = || ToyError(format!("bad tron position `{text}`"));
        let [walls, heads, alive, mover, ply, out] = f.as_slice() else {
            return Err(bad());
        };
        let mut t = self.start();
        t.walls = u64::from_str_radix(walls, 16).map_err(|_| bad())?;
        for (i, h) in heads.split(',').enumerate().take(MAX_SEATS) {
            t.heads[i] = h.parse().map_err(|_| bad())?;
        }
        t.alive = alive.parse().map_err(|_| bad())?;
        t.mover = mover.parse().map_err(|_| bad())?;
        t.ply = ply.parse().map_err(|_| bad())?;
        t.out = out
            .chars()
            .filter_map(|c| c.to_digit(10))
            .map(|d| d as u8)
            .collect();
        Ok(t)
    }
}

impl fmt::Display for Tron {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let heads: Vec<String> = self.heads[..usize::from(self.seats)]
            .iter()
            .map(|h| h.to_string())
            .collect();
        let out: String = self.out.iter().map(|s| s.to_string()).collect();
        write!(
            f,
            "{:x} {} {} {} {} -{}",
            self.walls,
            heads.join(","),
            self.alive,
            self.mover,
            self.ply,
            out
        )
    }
}

impl Game for Tron {
    type Move = u8;
    type ChanceOutcome = NoChance;
    type MoveList = MoveList<u8, 4>;
    type MoveError = ToyError;

    fn num_seats(&self) -> usize {
        usize::from(self.seats)
    }
    fn turn(&self) -> Turn {
        if self.alive.count_ones() <= 1 {
            Turn::Over
        } else {
            Turn::Seat(Seat(self.mover))
        }
    }
    fn legal_moves(&self, out: &mut Self::MoveList) {
        out.clear();
        let head = self.heads[usize::from(self.mover)];
        for dir in 0..4 {
            if let Some(c) = self.step(head, dir) {
                if self.walls & (1 << c) == 0 {
                    out.push(dir);
                }
            }
        }
        if out.is_empty() {
            out.push(CRASH);
        }
    }
    fn play(&mut self, mv: u8) {
        let s = usize::from(self.mover);
        if mv == CRASH {
            self.alive &= !(1 << s);
            self.out.push(self.mover);
        } else if let Some(c) = self.step(self.heads[s], mv) {
            self.heads[s] = c;
            self.walls |= 1 << c;
        }
        self.mover = self.next_alive(self.mover);
        self.ply += 1;
    }
    fn chance_outcomes(&self, out: &mut Vec<Chance<NoChance>>) {
        out.clear();
    }
    fn sample_chance(&self) -> NoChance {
        unreachable!("tron has no chance")
    }
    fn apply_chance(&mut self, outcome: NoChance) {
        match outcome {}
    }
    fn result(&self) -> Option<GameResult> {
        if self.alive.count_ones() > 1 {
            return None;
        }
        let n = usize::from(self.seats);
        let mut seats = vec![
            SeatOutcome {
                rank: 1.0,
                score: 1.0
            };
            n
        ];
        for (i, &s) in self.out.iter().enumerate() {
            seats[usize::from(s)] = SeatOutcome {
                rank: (n - i) as f32,
                score: 0.0,
            };
        }
        Some(GameResult {
            reason: EndReason::Elimination,
            seats,
        })
    }
    fn hash(&self) -> u64 {
        let mut packed = u64::from(self.alive) | u64::from(self.mover) << 8;
        for (i, &h) in self.heads.iter().enumerate() {
            packed |= u64::from(h) << (16 + 8 * i);
        }
        mix(self.walls ^ mix(packed))
    }
    fn recompute_hash(&self) -> u64 {
        self.hash()
    }
    fn ply(&self) -> u32 {
        self.ply
    }
    fn write_move(&self, mv: u8, f: &mut dyn fmt::Write) -> fmt::Result {
        write!(f, "{}", DIRS[usize::from(mv.min(CRASH))])
    }
    fn parse_move(&self, text: &str) -> Result<u8, ToyError> {
        let mut moves = Self::MoveList::default();
        self.legal_moves(&mut moves);
        moves
            .iter()
            .copied()
            .find(|&m| DIRS[usize::from(m)].to_string() == text)
            .ok_or_else(|| ToyError(format!("`{text}` is not a legal move here")))
    }
}

/// Territory: 100 per cell a seat reaches first, less the mean of the other live seats';
/// a crashed seat is below every live one.
impl Heuristic for Tron {
    fn evaluate(&self, seat: Seat) -> i32 {
        let mut all = [0; MAX_SEATS];
        self.evaluate_all(&mut all);
        all[seat.index()]
    }
    fn evaluate_all(&self, out: &mut [i32]) {
        let t = self.territory();
        let live: Vec<usize> = (0..usize::from(self.seats))
            .filter(|&s| self.alive & (1 << s) != 0)
            .collect();
        let total: i32 = live.iter().map(|&s| t[s]).sum();
        for (s, v) in out.iter_mut().enumerate().take(usize::from(self.seats)) {
            *v = if self.alive & (1 << s) == 0 {
                -50_000
            } else if live.len() > 1 {
                100 * t[s] - 100 * (total - t[s]) / (live.len() as i32 - 1)
            } else {
                100 * t[s]
            };
        }
    }
    fn is_tactical(&self, _mv: u8) -> bool {
        false
    }
}
