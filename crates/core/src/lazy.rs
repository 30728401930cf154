//! A yes/no fact about a position that is costly to find out and that listing the legal
//! moves finds on the way (has the seat to move a move? is this roll a falla?): worked out
//! when first asked, so a caller that lists the moves first does not pay for it twice.

use std::sync::atomic::{AtomicU8, Ordering};

const UNKNOWN: u8 = 2;

/// A lazily answered yes/no question, settable through `&self` (a game answers it while
/// listing its moves). Threads that race to answer it find the same answer, so relaxed
/// ordering is enough.
#[derive(Debug)]
pub struct LazyFlag(AtomicU8);

impl LazyFlag {
    /// Not answered yet.
    pub fn unknown() -> LazyFlag {
        LazyFlag(AtomicU8::new(UNKNOWN))
    }

    /// Already answered.
    pub fn known(answer: bool) -> LazyFlag {
        LazyFlag(AtomicU8::new(u8::from(answer)))
    }

    /// The answer, if known.
    #[inline]
    pub fn get(&self) -> Option<bool> {
        match self.0.load(Ordering::Relaxed) {
            UNKNOWN => None,
            a => Some(a == 1),
        }
    }

    /// Records the answer.
    #[inline]
    pub fn set(&self, answer: bool) {
        self.0.store(u8::from(answer), Ordering::Relaxed);
    }

    /// The answer, working it out with `find` (and keeping it) if not known yet.
    #[inline]
    pub fn get_or(&self, find: impl FnOnce() -> bool) -> bool {
        self.get().unwrap_or_else(|| {
            let answer = find();
            self.set(answer);
            answer
        })
    }
}

impl Clone for LazyFlag {
    fn clone(&self) -> LazyFlag {
        LazyFlag(AtomicU8::new(self.0.load(Ordering::Relaxed)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_flag_is_worked_out_once_and_its_clones_keep_the_answer() {
        let flag = LazyFlag::unknown();
        assert_eq!(flag.get(), None);
        let mut asked = 0;
        assert!(!flag.get_or(|| {
            asked += 1;
            false
        }));
        assert!(!flag.get_or(|| {
            asked += 1;
            true
        }));
        assert_eq!(asked, 1);
        assert_eq!(flag.clone().get(), Some(false));
        flag.set(true);
        assert_eq!(flag.get(), Some(true));
        assert_eq!(LazyFlag::known(true).get(), Some(true));
        assert_eq!(LazyFlag::unknown().clone().get(), None);
    }
}
