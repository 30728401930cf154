//! Caller-supplied move buffers: move generation writes into them without allocating.

use arrayvec::ArrayVec;

/// A buffer that move generation fills. Implemented for fixed-capacity [`ArrayVec`]s (the
/// usual choice: no allocation at all) and for `Vec` (for games whose move count has no
/// small bound; a reused `Vec` stops allocating once it has grown).
pub trait MoveBuffer<M>: Default {
    /// Empties the buffer, keeping its storage.
    fn clear(&mut self);
    /// Appends a move. Fixed buffers are sized so that this never overflows for a legal
    /// position of the family; overflowing is a bug and panics.
    fn push(&mut self, mv: M);
    /// The moves written so far.
    fn as_slice(&self) -> &[M];
    /// Number of moves written so far.
    fn len(&self) -> usize {
        self.as_slice().len()
    }
    /// Whether no move has been written.
    fn is_empty(&self) -> bool {
        self.as_slice().is_empty()
    }
}

/// The usual fixed-capacity move list.
pub type MoveList<M, const N: usize> = ArrayVec<M, N>;

impl<M, const N: usize> MoveBuffer<M> for ArrayVec<M, N> {
    #[inline]
    fn clear(&mut self) {
        ArrayVec::clear(self)
    }
    #[inline]
    fn push(&mut self, mv: M) {
        ArrayVec::push(self, mv)
    }
    #[inline]
    fn as_slice(&self) -> &[M] {
        ArrayVec::as_slice(self)
    }
}

impl<M> MoveBuffer<M> for Vec<M> {
    #[inline]
    fn clear(&mut self) {
        Vec::clear(self)
    }
    #[inline]
    fn push(&mut self, mv: M) {
        Vec::push(self, mv)
    }
    #[inline]
    fn as_slice(&self) -> &[M] {
        Vec::as_slice(self)
    }
}
