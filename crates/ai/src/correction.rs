//! Correction history: how far the static value has erred, on average, in positions that
//! share a key of [`Heuristic::correction_keys`](libro_core::Heuristic::correction_keys)
//! (in chess: the pawn structure, and each seat's pieces). The search adds the stored
//! errors, weighed, to the static value before it prunes on it, and learns from each node
//! whose searched value says how wrong it was.

use libro_core::CorrectionKeys;

/// Slots per table and side to move (a power of two).
const SLOTS: usize = 1 << 14;
/// Errors are kept in 1/GRAIN of the evaluation's unit, for a smooth running mean.
const GRAIN: i32 = 256;
/// The largest error a slot holds, in the evaluation's units.
const MAX_CORRECTION: i32 = 64;
/// A node's weight in the running mean is at most this many 256ths.
const MAX_WEIGHT: i32 = 128;
/// Tables: the structure's, then each side's pieces'.
const TABLES: usize = 3;
/// How much each table's mean counts, in quarters (tested by SPRT against the
/// structure's alone at full weight).
const WEIGHTS: [i32; TABLES] = [3, 1, 1];

pub(crate) struct CorrectionHistory {
    /// `TABLES` tables, each `2 * SLOTS` long (one half per side to move).
    table: Vec<i32>,
}

impl CorrectionHistory {
    pub fn new() -> Self {
        CorrectionHistory {
            table: vec![0; TABLES * 2 * SLOTS],
        }
    }

    /// The slot of each table for `side` to move in a position with `keys`.
    #[inline]
    fn slots(side: u8, keys: &CorrectionKeys) -> [usize; TABLES] {
        let slot = |table: usize, key: u64| {
            let half = table * 2 + usize::from(side & 1);
            half * SLOTS + (key >> (64 - SLOTS.trailing_zeros())) as usize
        };
        [
            slot(0, keys.structure),
            slot(1, keys.pieces[0]),
            slot(2, keys.pieces[1]),
        ]
    }

    /// The static value `raw` of a position with `keys`, corrected by the weighed means.
    #[inline]
    pub fn correct(&self, side: u8, keys: &CorrectionKeys, raw: i32) -> i32 {
        let sum: i32 = Self::slots(side, keys)
            .iter()
            .zip(WEIGHTS)
            .map(|(&i, w)| w * self.table[i])
            .sum();
        raw + sum / (4 * GRAIN)
    }

    /// Learns that a search `depth` plies deep found `searched` where the static value was
    /// `raw`: every table's mean moves towards the difference, more for deeper searches.
    pub fn update(&mut self, side: u8, keys: &CorrectionKeys, depth: i32, raw: i32, searched: i32) {
        let weight = (depth * depth + 2 * depth + 1).min(MAX_WEIGHT);
        let target = (searched - raw).clamp(-MAX_CORRECTION, MAX_CORRECTION) * GRAIN;
        for i in Self::slots(side, keys) {
            let e = &mut self.table[i];
            *e = (*e * (256 - weight) + target * weight) / 256;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(structure: u64, white: u64, black: u64) -> CorrectionKeys {
        CorrectionKeys {
            structure,
            pieces: [white, black],
        }
    }

    #[test]
    fn the_correction_moves_towards_the_searched_error_and_is_capped() {
        let mut c = CorrectionHistory::new();
        let k = keys(7 << 56, 8 << 56, 9 << 56);
        assert_eq!(c.correct(0, &k, 100), 100);
        for _ in 0..50 {
            c.update(0, &k, 10, 100, 130);
        }
        // Each table learns the steady error of +30 (to within the mean's rounding), and
        // the weights (3 + 1 + 1 quarters) add them up to 37.
        assert!((136..=137).contains(&c.correct(0, &k, 100)));
        // The other side to move is untouched.
        assert_eq!(c.correct(1, &k, 100), 100);
        // Each table answers for its own key: another structure leaves the pieces' two
        // quarters (15), other pieces leave the structure's three (22).
        assert!((114..=115).contains(&c.correct(0, &keys(u64::MAX, 8 << 56, 9 << 56), 100)));
        assert!((121..=122).contains(&c.correct(0, &keys(7 << 56, 1 << 56, 2 << 56), 100)));
        assert_eq!(c.correct(0, &keys(1 << 56, 2 << 56, 3 << 56), 100), 100);
        // A huge error is learnt only up to the cap.
        for _ in 0..50 {
            c.update(0, &k, 10, 0, 10_000);
        }
        assert!(c.correct(0, &k, 0) <= MAX_CORRECTION * 5 / 4);
        // A shallow search moves the mean less than a deep one.
        let (mut a, mut b) = (CorrectionHistory::new(), CorrectionHistory::new());
        a.update(0, &k, 1, 0, 50);
        b.update(0, &k, 8, 0, 50);
        assert!(a.correct(0, &k, 0) < b.correct(0, &k, 0));
    }
}
