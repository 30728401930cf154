//! What a study counts of play besides results — Ludii's board coverage, piece usage and lead
//! change concepts: which piece types move and capture, where they land, and how often the
//! lead on material changes hands.

use crate::{Heuristic, Seat};

/// One piece landing: the piece type that moved, the cell it landed on and whether it took.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Landing {
    /// Index into [`Census::piece_types`].
    pub piece: u8,
    /// Index into the grid of [`Census::grid`]: column `cell % columns`, row `cell / columns`.
    pub cell: u16,
    /// Whether the move captured (hit) there.
    pub capture: bool,
}

/// The facts of play a study counts, for heatmaps and piece usage.
pub trait Census: Heuristic {
    /// The cells pieces land on, as a grid `(columns, rows)`: a chess board's files and
    /// ranks; a tables board's points in one row.
    fn grid(&self) -> (u16, u16);

    /// The piece types' names, as [`Landing::piece`] indexes them.
    fn piece_types(&self) -> Vec<String>;

    /// Every landing `mv` makes (one for a chess move, one per step of a tables play), read
    /// before `mv` is played.
    fn landings(&self, mv: Self::Move, out: &mut dyn FnMut(Landing));

    /// The seat strictly ahead on [`Heuristic::material`], if one is.
    fn leader(&self) -> Option<Seat> {
        let n = self.num_seats();
        let values: Vec<i32> = (0..n).map(|s| self.material(Seat(s as u8))).collect();
        let best = *values.iter().max()?;
        let mut leaders = (0..n).filter(|&s| values[s] == best);
        match (leaders.next(), leaders.next()) {
            (Some(s), None) => Some(Seat(s as u8)),
            _ => None,
        }
    }
}
