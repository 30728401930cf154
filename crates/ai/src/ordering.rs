//! Move-ordering memory shared by the searches: the history table and killer moves, both
//! keyed by a fast hash of the move value (no strings, no allocation).

use libro_core::{Seat, MAX_SEATS};
use std::hash::{Hash, Hasher};

/// A multiply-rotate hasher (FxHash's mixing) for small move values.
#[derive(Default)]
struct FxHasher(u64);

const FX_SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl FxHasher {
    #[inline]
    fn add(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(FX_SEED);
    }
}

impl Hasher for FxHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.add(u64::from(b));
        }
    }
    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.add(u64::from(i));
    }
    #[inline]
    fn write_u16(&mut self, i: u16) {
        self.add(u64::from(i));
    }
    #[inline]
    fn write_u32(&mut self, i: u32) {
        self.add(u64::from(i));
    }
    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }
    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }
    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
}

/// A hash of a move value, for indexing tables.
#[inline]
pub(crate) fn move_key<M: Hash>(mv: &M) -> u64 {
    let mut h = FxHasher::default();
    mv.hash(&mut h);
    h.finish()
}

const HISTORY_BITS: u32 = 12;
/// History scores stay within ±this, so they never outrank killers or tactical moves.
pub(crate) const HISTORY_MAX: i32 = 1 << 14;

/// Moves a history score by `bonus` with "gravity": saturating smoothly at ±[`HISTORY_MAX`].
#[inline]
fn nudge(score: &mut i32, bonus: i32) {
    let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    *score += bonus - *score * bonus.abs() / HISTORY_MAX;
}

/// Halves every score of a history table.
fn halve(table: &mut [i32]) {
    for e in table {
        *e /= 2;
    }
}

/// How often a quiet move caused a cut, per seat: the history heuristic, with the usual
/// "gravity" update so that scores saturate at [`HISTORY_MAX`] and old lessons fade.
pub(crate) struct History {
    table: Vec<i32>,
}

impl History {
    pub fn new() -> Self {
        History {
            table: vec![0; MAX_SEATS << HISTORY_BITS],
        }
    }

    #[inline]
    fn index<M: Hash>(seat: Seat, mv: &M) -> usize {
        let h = (move_key(mv) >> (64 - HISTORY_BITS)) as usize;
        (seat.index().min(MAX_SEATS - 1) << HISTORY_BITS) | h
    }

    #[inline]
    pub fn get<M: Hash>(&self, seat: Seat, mv: &M) -> i32 {
        self.table[Self::index(seat, mv)]
    }

    /// Moves the score of `mv` by `bonus` (positive for a cut, negative for a move tried
    /// before the cut that failed), saturating smoothly at ±[`HISTORY_MAX`].
    #[inline]
    pub fn update<M: Hash>(&mut self, seat: Seat, mv: &M, bonus: i32) {
        nudge(&mut self.table[Self::index(seat, mv)], bonus);
    }

    /// Halves every score: called between searches so the last move's lessons weigh less.
    pub fn age(&mut self) {
        halve(&mut self.table);
    }
}

const CONTINUATION_BITS: u32 = 18;

/// Continuation history: how often a quiet move caused a cut right after a given earlier
/// move on the line (the opponent's last move, or the mover's own one before it), keyed
/// by the pair's hash. It tells which quiet moves answer which, as a history per context.
/// The earlier move is given by its [`move_key`], which a node computes once for all its
/// moves.
pub(crate) struct ContinuationHistory {
    table: Vec<i32>,
}

impl ContinuationHistory {
    pub fn new() -> Self {
        ContinuationHistory {
            table: vec![0; 1 << CONTINUATION_BITS],
        }
    }

    #[inline]
    fn index<M: Hash>(earlier: u64, mv: &M) -> usize {
        let mut h = FxHasher::default();
        h.add(earlier);
        h.add(move_key(mv));
        (h.finish() >> (64 - CONTINUATION_BITS)) as usize
    }

    /// The score of `mv` played after the move whose key is `earlier`.
    #[inline]
    pub fn get<M: Hash>(&self, earlier: u64, mv: &M) -> i32 {
        self.table[Self::index(earlier, mv)]
    }

    /// Asks the memory system for the score of `mv` after `earlier` ahead of [`Self::get`]:
    /// a node's lookups fall on scattered cache lines, and asked for together they arrive
    /// together rather than one after another.
    #[inline]
    pub fn prefetch<M: Hash>(&self, earlier: u64, mv: &M) {
        crate::tt::prefetch(&self.table[Self::index(earlier, mv)]);
    }

    /// As [`History::update`], for `mv` played after the move whose key is `earlier`.
    #[inline]
    pub fn update<M: Hash>(&mut self, earlier: u64, mv: &M, bonus: i32) {
        nudge(&mut self.table[Self::index(earlier, mv)], bonus);
    }

    /// Halves every score, as [`History::age`].
    pub fn age(&mut self) {
        halve(&mut self.table);
    }
}

/// Two quiet moves per ply that recently caused a cut in a sibling position.
pub(crate) struct Killers<M> {
    slots: Vec<[Option<M>; 2]>,
}

impl<M: Copy + Eq> Killers<M> {
    pub fn new(plies: usize) -> Self {
        Killers {
            slots: vec![[None; 2]; plies],
        }
    }

    pub fn clear(&mut self) {
        for s in &mut self.slots {
            *s = [None; 2];
        }
    }

    /// 2 for the first killer of `ply`, 1 for the second, 0 otherwise.
    #[inline]
    pub fn rank(&self, ply: usize, mv: M) -> i32 {
        match self.slots.get(ply) {
            Some([Some(a), _]) if *a == mv => 2,
            Some([_, Some(b)]) if *b == mv => 1,
            _ => 0,
        }
    }

    #[inline]
    pub fn add(&mut self, ply: usize, mv: M) {
        if let Some(s) = self.slots.get_mut(ply) {
            if s[0] != Some(mv) {
                s[1] = s[0];
                s[0] = Some(mv);
            }
        }
    }
}

/// The countermove heuristic: the quiet move that last refuted each move (by the refuted
/// move's hash), tried after the killers.
pub(crate) struct Counters<M> {
    slots: Vec<Option<M>>,
}

impl<M: Copy + Eq + Hash> Counters<M> {
    pub fn new() -> Self {
        Counters {
            slots: vec![None; 1 << HISTORY_BITS],
        }
    }

    #[inline]
    fn index(previous: &M) -> usize {
        (move_key(previous) >> (64 - HISTORY_BITS)) as usize
    }

    pub fn clear(&mut self) {
        self.slots.fill(None);
    }

    /// The refutation recorded for `previous`.
    #[inline]
    pub fn get(&self, previous: &M) -> Option<M> {
        self.slots[Self::index(previous)]
    }

    #[inline]
    pub fn set(&mut self, previous: &M, refutation: M) {
        self.slots[Self::index(previous)] = Some(refutation);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn history_saturates_and_ages() {
        let mut h = History::new();
        for _ in 0..1000 {
            h.update(Seat(1), &(3u8, 4u8), 400);
        }
        let v = h.get(Seat(1), &(3u8, 4u8));
        assert!(v > HISTORY_MAX * 9 / 10 && v <= HISTORY_MAX, "{v}");
        assert_eq!(h.get(Seat(0), &(3u8, 4u8)), 0, "seats keep separate tables");
        h.age();
        assert_eq!(h.get(Seat(1), &(3u8, 4u8)), v / 2);
    }

    #[test]
    fn continuation_history_is_kept_per_earlier_move() {
        let mut c = ContinuationHistory::new();
        let (after, other, reply) = ((1u8, 2u8), (5u8, 6u8), (3u8, 4u8));
        let (after_key, other_key, reply_key) =
            (move_key(&after), move_key(&other), move_key(&reply));
        for _ in 0..1000 {
            c.update(after_key, &reply, 400);
        }
        let v = c.get(after_key, &reply);
        assert!(v > HISTORY_MAX * 9 / 10 && v <= HISTORY_MAX, "{v}");
        // The same reply after another move, and the pair the other way round, know nothing.
        assert_eq!(c.get(other_key, &reply), 0);
        assert_eq!(c.get(reply_key, &after), 0);
        c.update(after_key, &reply, -HISTORY_MAX);
        assert!(
            c.get(after_key, &reply) <= 0,
            "a full malus undoes a saturated score"
        );
        c.update(other_key, &reply, 800);
        c.age();
        assert_eq!(c.get(other_key, &reply), 400);
    }

    #[test]
    fn killers_keep_the_two_latest() {
        let mut k = Killers::new(4);
        k.add(2, 'a');
        k.add(2, 'b');
        k.add(2, 'b');
        assert_eq!((k.rank(2, 'b'), k.rank(2, 'a'), k.rank(1, 'b')), (2, 1, 0));
        k.add(2, 'c');
        assert_eq!((k.rank(2, 'c'), k.rank(2, 'b'), k.rank(2, 'a')), (2, 1, 0));
    }

    #[test]
    fn a_countermove_is_the_last_refutation_of_its_move() {
        let mut c = Counters::new();
        assert_eq!(c.get(&7u32), None);
        c.set(&7u32, 9);
        c.set(&7u32, 11);
        assert_eq!(c.get(&7u32), Some(11));
        c.clear();
        assert_eq!(c.get(&7u32), None);
    }
}
