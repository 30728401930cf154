//! Correction history: how far the static value has erred, on average, in positions that
//! share a [`Heuristic::correction_key`](libro_core::Heuristic::correction_key) (in chess,
//! the pawn structure). The search adds the stored error to the static value before it
//! prunes on it, and learns from each node whose searched value says how wrong it was.

/// Slots per side (a power of two).
const SLOTS: usize = 1 << 14;
/// Errors are kept in 1/GRAIN of the evaluation's unit, for a smooth running mean.
const GRAIN: i32 = 256;
/// The largest correction, in the evaluation's units.
const MAX_CORRECTION: i32 = 64;
/// A node's weight in the running mean is at most this many 256ths.
const MAX_WEIGHT: i32 = 128;

pub(crate) struct CorrectionHistory {
    table: Vec<i32>,
}

impl CorrectionHistory {
    pub fn new() -> Self {
        CorrectionHistory {
            table: vec![0; 2 * SLOTS],
        }
    }

    #[inline]
    fn index(side: u8, key: u64) -> usize {
        (usize::from(side & 1) * SLOTS) | (key >> (64 - SLOTS.trailing_zeros())) as usize
    }

    /// The static value `raw` of a position with key `key`, corrected by the mean error.
    #[inline]
    pub fn correct(&self, side: u8, key: u64, raw: i32) -> i32 {
        raw + self.table[Self::index(side, key)] / GRAIN
    }

    /// Learns that a search `depth` plies deep found `searched` where the static value was
    /// `raw`: the slot's mean moves towards the difference, more for deeper searches.
    pub fn update(&mut self, side: u8, key: u64, depth: i32, raw: i32, searched: i32) {
        let e = &mut self.table[Self::index(side, key)];
        let weight = (depth * depth + 2 * depth + 1).min(MAX_WEIGHT);
        let target = (searched - raw).clamp(-MAX_CORRECTION, MAX_CORRECTION) * GRAIN;
        *e = (*e * (256 - weight) + target * weight) / 256;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_correction_moves_towards_the_searched_error_and_is_capped() {
        let mut c = CorrectionHistory::new();
        assert_eq!(c.correct(0, 7, 100), 100);
        for _ in 0..50 {
            c.update(0, 7, 10, 100, 130);
        }
        // A steady error of +30 is learnt (to within the mean's rounding).
        assert!((129..=130).contains(&c.correct(0, 7, 100)));
        // The other side's slot and other keys' slots are untouched.
        assert_eq!(c.correct(1, 7, 100), 100);
        assert_eq!(c.correct(0, u64::MAX, 100), 100);
        // A huge error is learnt only up to the cap.
        for _ in 0..50 {
            c.update(0, 7, 10, 0, 10_000);
        }
        assert!(c.correct(0, 7, 0) <= MAX_CORRECTION);
        // A shallow search moves the mean less than a deep one.
        let (mut a, mut b) = (CorrectionHistory::new(), CorrectionHistory::new());
        a.update(0, 1, 1, 0, 50);
        b.update(0, 1, 8, 0, 50);
        assert!(a.correct(0, 1, 0) < b.correct(0, 1, 0));
    }
}
