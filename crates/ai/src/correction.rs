//! Correction history: how far the static value has erred, on average, in positions that
//! share a key of [`Heuristic::correction_keys`](libro_core::Heuristic::correction_keys)
//! (in chess: the pawn structure, and each seat's pieces), and in positions reached by the
//! same last two moves (Stockfish's continuation correction). The search adds the stored
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
/// Tables: the structure's, each side's pieces', and the last two moves'.
const TABLES: usize = 4;
/// How much each table's mean counts, in quarters (each accepted by SPRT; the last two
/// moves' at half weight lost).
const WEIGHTS: [i32; TABLES] = [3, 1, 1, 1];

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

    /// The slot of each table for `side` to move in a position with `keys`, reached by
    /// the last two moves hashed as `line`.
    #[inline]
    fn slots(side: u8, keys: &CorrectionKeys, line: u64) -> [usize; TABLES] {
        let slot = |table: usize, key: u64| {
            let half = table * 2 + usize::from(side & 1);
            half * SLOTS + (key >> (64 - SLOTS.trailing_zeros())) as usize
        };
        [
            slot(0, keys.structure),
            slot(1, keys.pieces[0]),
            slot(2, keys.pieces[1]),
            slot(3, line),
        ]
    }

    /// The static value `raw` of a position with `keys` reached by `line`, corrected by the
    /// weighed means.
    #[inline]
    pub fn correct(&self, side: u8, keys: &CorrectionKeys, line: u64, raw: i32) -> i32 {
        let sum: i32 = Self::slots(side, keys, line)
            .iter()
            .zip(WEIGHTS)
            .map(|(&i, w)| w * self.table[i])
            .sum();
        raw + sum / (4 * GRAIN)
    }

    /// Learns that a search `depth` plies deep found `searched` where the static value was
    /// `raw`: every table's mean moves towards the difference, more for deeper searches.
    pub fn update(
        &mut self,
        side: u8,
        keys: &CorrectionKeys,
        line: u64,
        depth: i32,
        raw: i32,
        searched: i32,
    ) {
        let weight = (depth * depth + 2 * depth + 1).min(MAX_WEIGHT);
        let target = (searched - raw).clamp(-MAX_CORRECTION, MAX_CORRECTION) * GRAIN;
        for i in Self::slots(side, keys, line) {
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

    /// The last two moves' key of the test positions.
    const LINE: u64 = 5 << 56;

    #[test]
    fn the_correction_moves_towards_the_searched_error_and_is_capped() {
        let mut c = CorrectionHistory::new();
        let k = keys(7 << 56, 8 << 56, 9 << 56);
        assert_eq!(c.correct(0, &k, LINE, 100), 100);
        for _ in 0..50 {
            c.update(0, &k, LINE, 10, 100, 130);
        }
        // Each table learns the steady error of +30 (to within the mean's rounding), and
        // the weights (3 + 1 + 1 + 1 quarters) add them up to 45.
        assert!((144..=145).contains(&c.correct(0, &k, LINE, 100)));
        // The other side to move is untouched.
        assert_eq!(c.correct(1, &k, LINE, 100), 100);
        // Each table answers for its own key: another structure leaves the pieces' and the
        // line's three quarters (22), other pieces the structure's and the line's four (30),
        // another line the position's five (37).
        let other_structure = keys(u64::MAX, 8 << 56, 9 << 56);
        assert!((121..=122).contains(&c.correct(0, &other_structure, LINE, 100)));
        let other_pieces = keys(7 << 56, 1 << 56, 2 << 56);
        assert!((129..=130).contains(&c.correct(0, &other_pieces, LINE, 100)));
        assert!((136..=137).contains(&c.correct(0, &k, 6 << 56, 100)));
        let all_other = keys(1 << 56, 2 << 56, 3 << 56);
        assert_eq!(c.correct(0, &all_other, 6 << 56, 100), 100);
        // A huge error is learnt only up to the cap.
        for _ in 0..50 {
            c.update(0, &k, LINE, 10, 0, 10_000);
        }
        assert!(c.correct(0, &k, LINE, 0) <= MAX_CORRECTION * 6 / 4);
        // A shallow search moves the mean less than a deep one.
        let (mut a, mut b) = (CorrectionHistory::new(), CorrectionHistory::new());
        a.update(0, &k, LINE, 1, 0, 50);
        b.update(0, &k, LINE, 8, 0, 50);
        assert!(a.correct(0, &k, LINE, 0) < b.correct(0, &k, LINE, 0));
    }
}
