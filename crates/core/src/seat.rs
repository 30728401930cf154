//! Seats: the players of a game, numbered in turn order from 0.

use std::fmt;

/// The most seats any ruleset may have (Cuatro Tiempos has four).
pub const MAX_SEATS: usize = 4;

/// A player's place at the table, numbered from 0 in the ruleset's seat order.
#[derive(
    Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub struct Seat(pub u8);

impl Seat {
    /// The seat's index, for indexing per-seat arrays.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "seat {}", self.0)
    }
}
