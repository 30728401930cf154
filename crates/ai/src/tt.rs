//! The transposition table: search results by position hash, in a fixed block of memory.

use std::mem::size_of;

/// What a stored score says about the true value.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Bound {
    /// The value itself.
    Exact,
    /// The value is at least this (the search failed high).
    Lower,
    /// The value is at most this (the search failed low).
    Upper,
}

impl Bound {
    /// What a value `best` found within (`alpha_orig`, `beta`) says of the true value.
    pub fn of(best: i32, alpha_orig: i32, beta: i32) -> Bound {
        if best >= beta {
            Bound::Lower
        } else if best > alpha_orig {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }

    /// Whether a stored value `s` with this bound settles a node searched in (`alpha`, `beta`).
    pub fn settles(self, s: i32, alpha: i32, beta: i32) -> bool {
        match self {
            Bound::Exact => true,
            Bound::Lower => s >= beta,
            Bound::Upper => s <= alpha,
        }
    }
}

/// One stored search result.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Entry<M> {
    pub key: u64,
    pub mv: Option<M>,
    pub score: i32,
    pub depth: i16,
    pub bound: Bound,
    age: u8,
    used: bool,
}

/// A table of `2^k`-independent size (indexed by multiply-shift), one entry per slot,
/// replaced by a newer search or a deeper result.
pub(crate) struct Table<M> {
    entries: Vec<Entry<M>>,
    age: u8,
}

impl<M: Copy> Table<M> {
    /// A table using about `megabytes` of memory (at least one entry).
    pub fn new(megabytes: usize) -> Self {
        let len = (megabytes.saturating_mul(1 << 20) / size_of::<Entry<M>>()).max(1);
        let empty = Entry {
            key: 0,
            mv: None,
            score: 0,
            depth: 0,
            bound: Bound::Upper,
            age: 0,
            used: false,
        };
        Table {
            entries: vec![empty; len],
            age: 0,
        }
    }

    /// Number of slots.
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    #[inline]
    fn index(&self, key: u64) -> usize {
        ((u128::from(key) * self.entries.len() as u128) >> 64) as usize
    }

    /// Marks the start of a new search: older entries become first to be replaced.
    pub fn new_search(&mut self) {
        self.age = self.age.wrapping_add(1);
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        for e in &mut self.entries {
            e.used = false;
            e.mv = None;
        }
    }

    /// Asks the memory system for `key`'s slot ahead of its probe: called as soon as a
    /// child position exists, so its probe does not wait on memory.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        prefetch(&self.entries[self.index(key)]);
    }

    /// The entry stored for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry<M>> {
        let e = self.entries[self.index(key)];
        (e.used && e.key == key).then_some(e)
    }

    /// Stores a result. A slot holding another position is replaced if its entry is from an
    /// older search or not deeper; the same position keeps its move if the new one has none.
    #[inline]
    pub fn store(&mut self, key: u64, mv: Option<M>, score: i32, depth: i32, bound: Bound) {
        let age = self.age;
        let i = self.index(key);
        let e = &mut self.entries[i];
        let same = e.used && e.key == key;
        if same || !e.used || e.age != age || depth >= i32::from(e.depth) {
            let mv = if mv.is_none() && same { e.mv } else { mv };
            *e = Entry {
                key,
                mv,
                score,
                depth: depth.clamp(i16::MIN.into(), i16::MAX.into()) as i16,
                bound,
                age,
                used: true,
            };
        }
    }
}

/// Brings the cache line holding `item` towards the core, without waiting for it.
#[inline]
pub(crate) fn prefetch<T>(item: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        // SAFETY: a prefetch is a hint that never faults or changes memory, and the address
        // is that of a live reference.
        unsafe { _mm_prefetch::<_MM_HINT_T0>((item as *const T).cast::<i8>()) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = item;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn size_follows_the_megabytes() {
        let t: Table<u16> = Table::new(1);
        assert_eq!(t.len(), (1 << 20) / size_of::<Entry<u16>>());
        let t: Table<u16> = Table::new(0);
        assert_eq!(t.len(), 1);
    }

    #[test]
    fn stores_probes_and_replaces_by_depth_and_age() {
        // One slot, so every key collides.
        let mut t: Table<u8> = Table::new(0);
        t.store(7, Some(3), 50, 4, Bound::Exact);
        let e = t.probe(7).expect("stored");
        assert_eq!(
            (e.mv, e.score, e.depth, e.bound),
            (Some(3), 50, 4, Bound::Exact)
        );
        assert!(t.probe(8).is_none());
        // A shallower result for another key does not evict a deeper one of this search...
        t.store(8, Some(1), 0, 2, Bound::Lower);
        assert!(t.probe(7).is_some());
        // ...but does once the stored entry is from an older search.
        t.new_search();
        t.store(8, Some(1), 0, 2, Bound::Lower);
        assert!(t.probe(7).is_none());
        // The same key keeps its move when the new result has none.
        t.store(8, None, 5, 3, Bound::Upper);
        assert_eq!(t.probe(8).map(|e| (e.mv, e.score)), Some((Some(1), 5)));
        t.clear();
        assert!(t.probe(8).is_none());
    }
}
