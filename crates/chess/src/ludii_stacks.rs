//! Ludii 1.3.12's stacking engine, reproduced for the Short Assize conformance profile
//! (`stacking = "ludii"`).
//!
//! In a stacking game Ludii keeps, besides the board, a per-player list of where its pieces
//! are. Promoting a pawn that stands alone removes it from the board but not from that list
//! (`ActionPromote` skips the update when the stack becomes empty), so a *phantom* pawn stays
//! on the promotion square and keeps generating pawn moves for its owner:
//! - it faces the way of whatever piece now stands on its square (that piece's owner's
//!   forward), or north when the square is empty;
//! - it steps forward onto a truly empty square, and captures diagonally forward onto a
//!   square topped by an enemy piece;
//! - the move carries what stands at the bottom of its square: a piece standing there (of
//!   either side) is moved; from an empty square an ownerless *ghost* marker is created.
//!
//! - a capture by a phantom whose carried piece belongs to the target's owner overwrites the
//!   target: Ludii records no removal, but the piece is gone (the replay accepts the
//!   unlisted removal; see `ludii.rs`).
//!
//! A ghost blocks pawn steps and rook slides and cannot be captured, but kings, knights, fils
//! and fers may step onto it (standing on top of it); a capture on its square removes it.
//! Phantoms and ghosts give check like pieces do. These rules are derived from Ludii's source
//! (ActionPromote, ActionMove, CellOnlyOwned, Directions) and checked against its 50 recorded
//! Short Assize playouts; a phantom moving a ghost never occurs there and is treated simply.

use crate::geometry::{Bitboard, Square};
use crate::position::{Effects, Move, MoveList, Pos, Sink};
use crate::rules::{ChessRules, PieceKind, Width};

impl<B: Width> Pos<B> {
    /// The way a phantom on `s` faces: the forward of the piece standing there, else north.
    fn phantom_facing(&self, r: &ChessRules, s: Square) -> (i32, i32) {
        match self.seat_at(r, s) {
            Some(q) => r.seats[q as usize].forward,
            None => (0, 1),
        }
    }

    /// The squares a phantom on `s` captures on (diagonally forward).
    fn phantom_attacks(&self, r: &ChessRules, s: Square) -> Bitboard<B> {
        let (df, dr) = self.phantom_facing(r, s);
        let mut b = Bitboard::EMPTY;
        for side in [-1, 1] {
            let (x, y) = if dr != 0 { (side, dr) } else { (df, side) };
            if let Some(t) = r.board.offset(s, x, y) {
                b = b.with(t);
            }
        }
        b
    }

    /// The squares seat `them` captures on with `blockers` in the way (as
    /// [`Pos::ludii_king_attacked`] sees them: sliders along every line of their kind).
    fn ludii_attacks(&self, r: &ChessRules, them: u8, blockers: Bitboard<B>) -> Bitboard<B> {
        let theirs = self.seat_bb[them as usize];
        let mut acc = Bitboard::EMPTY;
        for t in 0..r.pieces.len() as u8 {
            let tb = r.table::<B>(them, t);
            for sq in self.type_bb[t as usize] & theirs {
                acc |= tb.capture[sq.index()];
                if tb.capture_dirs & 0x55 != 0 {
                    acc |= B::rook(r, sq, blockers);
                }
                if tb.capture_dirs & 0xAA != 0 {
                    acc |= B::bishop(r, sq, blockers);
                }
            }
        }
        for p in self.phantom[them as usize] {
            acc |= self.phantom_attacks(r, p);
        }
        acc
    }

    /// Whether seat `s`'s king is attacked under Ludii's stacking (ghosts block sliders;
    /// phantoms attack).
    pub(crate) fn ludii_king_attacked(&self, r: &ChessRules, s: u8) -> bool {
        let Some(k) = self.king_square(r, s) else {
            return false;
        };
        let them = 1 - s;
        let blockers = self.occ | self.ghost;
        let theirs = self.seat_bb[them as usize];
        for t in 0..r.pieces.len() as u8 {
            let pieces = self.type_bb[t as usize] & theirs;
            if pieces.is_empty() {
                continue;
            }
            let tb = r.table::<B>(them, t);
            if (tb.capture_rev[k.index()] & pieces).any() {
                return true;
            }
            if tb.capture_dirs & 0x55 != 0 && (B::rook(r, k, blockers) & pieces).any() {
                return true;
            }
            if tb.capture_dirs & 0xAA != 0 && (B::bishop(r, k, blockers) & pieces).any() {
                return true;
            }
        }
        let mut phantoms = self.phantom[them as usize];
        Iterator::any(&mut phantoms, |p| self.phantom_attacks(r, p).contains(k))
    }

    /// Legal moves under Ludii's stacking: pseudo-legal moves, each kept if it does not leave
    /// the mover's king attacked.
    pub(crate) fn generate_ludii<S: Sink<B>>(&self, r: &ChessRules, sink: &mut S) {
        let us = self.to_move;
        let them = 1 - us;
        let own = self.seat_bb[us as usize];
        let enemy = self.seat_bb[them as usize];
        let blockers = self.occ | self.ghost;
        let empty = !blockers;
        let ghost_only = self.ghost & !self.occ;
        let mut pseudo = MoveList::new();
        for t in 0..r.pieces.len() as u8 {
            let tb = r.table::<B>(us, t);
            let capt = self.capturable_by(r, t, enemy);
            for sq in self.type_bb[t as usize] & own {
                let q = tb.quiet[sq.index()];
                // Moves that may also capture land on anything not friendly, ghosts included.
                let mut targets = (q & empty)
                    | (q & tb.capture[sq.index()] & ghost_only)
                    | (tb.capture[sq.index()] & capt);
                if tb.quiet_dirs | tb.capture_dirs != 0 {
                    let mut slide = Bitboard::EMPTY;
                    if (tb.quiet_dirs | tb.capture_dirs) & 0x55 != 0 {
                        slide |= B::rook(r, sq, blockers);
                    }
                    if (tb.quiet_dirs | tb.capture_dirs) & 0xAA != 0 {
                        slide |= B::bishop(r, sq, blockers);
                    }
                    targets |= slide & (empty | capt);
                }
                let (start, len) = tb.extra_index[sq.index()];
                for e in &tb.extras[start as usize..start as usize + len as usize] {
                    let ok = !e.initial
                        || (r.pieces[t as usize].is_pawn() && tb.start.contains(sq))
                        || self.unmoved.contains(sq);
                    if ok && empty.contains(e.to) && (e.block & blockers).is_empty() {
                        targets = targets.with(e.to);
                    }
                }
                for to in targets {
                    pseudo.push(Move::new(sq, to, PieceKind(t)));
                }
            }
        }
        let pawn = r.pieces.iter().position(|p| p.is_pawn()).unwrap_or(0) as u8;
        for s in self.phantom[us as usize] {
            let (df, dr) = self.phantom_facing(r, s);
            let mut targets = Bitboard::EMPTY;
            if let Some(t) = r.board.offset(s, df, dr) {
                if empty.contains(t) {
                    targets = targets.with(t);
                }
            }
            targets |= self.phantom_attacks(r, s) & enemy;
            for to in targets {
                // The same step by our own piece at the bottom of the square is the same move.
                let duplicate = own.contains(s)
                    && !self.ghost.contains(s)
                    && pseudo.iter().any(|m| {
                        m.from() == s && m.to() == to && self.bottom_type(r, s) == Some(m.piece().0)
                    });
                if !duplicate {
                    pseudo.push(Move::phantom(s, to, PieceKind(pawn)));
                }
            }
        }
        // A move needs playing out only if it could expose our king: when in check, a king
        // move, a move from a line through the king (a pin), a phantom's move, or one from
        // or onto a square with a phantom or a ghost (which changes what attacks there).
        let king = self.king_square(r, us);
        let odd = self.ghost | self.phantom[0] | self.phantom[1];
        // Our king steps to a plain square safely if no enemy piece attacks it once the king
        // has left its own square.
        let checked = self.ludii_king_attacked(r, us);
        let guarded = king.map(|k| self.ludii_attacks(r, them, blockers.without(k)));
        for &mv in &pseudo {
            if sink.done() {
                return;
            }
            let plain = !mv.is_phantom() && !odd.contains(mv.from()) && !odd.contains(mv.to());
            let known = match (king, guarded) {
                (Some(k), Some(guarded)) if plain && mv.from() == k => {
                    Some(!guarded.contains(mv.to()))
                }
                (Some(k), _) if plain && !checked && B::direction(r, k, mv.from()) >= 8 => {
                    Some(true)
                }
                _ => None,
            };
            if let Some(legal) = known {
                if legal {
                    sink.push_move(mv);
                }
                continue;
            }
            let mut after = *self;
            let mut fx = Effects::default();
            if mv.is_phantom() {
                after.play_phantom(r, mv, &mut fx);
            } else {
                after.play_piece(r, mv, &mut fx);
            }
            if !after.ludii_king_attacked(r, us) {
                sink.push_move(mv);
            }
        }
    }

    /// The type at the bottom of a square (the pawn under a shared square's fers).
    fn bottom_type(&self, r: &ChessRules, s: Square) -> Option<u8> {
        let types = self.types_at(r, s);
        (0..r.pieces.len() as u8)
            .filter(|&t| types >> t & 1 != 0)
            .min_by_key(|&t| (!r.pieces[t as usize].is_pawn(), t))
    }

    /// Plays a phantom's move: a capture clears the target square; then whatever stands at the
    /// bottom of the phantom's square moves there, or a ghost appears if it is empty.
    pub(crate) fn play_phantom(&mut self, r: &ChessRules, mv: Move, fx: &mut Effects) {
        let z = &r.zobrist;
        let (s, t) = (mv.from(), mv.to());
        self.halfmove = self.halfmove.saturating_add(1);
        if let Some(v) = self.seat_at(r, t) {
            let mut count = 0;
            for vt in 0..r.pieces.len() {
                if self.type_bb[vt].contains(t) {
                    self.type_bb[vt] = self.type_bb[vt].without(t);
                    self.hash ^= z.piece::<B>(v as usize, vt, t.index());
                    count += 1;
                }
            }
            self.seat_bb[v as usize] = self.seat_bb[v as usize].without(t);
            self.occ = self.occ.without(t);
            self.stacked = self.stacked.without(t);
            if self.unmoved.contains(t) {
                self.unmoved = self.unmoved.without(t);
                self.hash ^= z.unmoved[t.index()];
            }
            if self.ghost.contains(t) {
                self.ghost = self.ghost.without(t);
                self.hash ^= z.ghost[t.index()];
            }
            if !self.captured {
                self.captured = true;
                self.hash ^= z.captured;
            }
            self.halfmove = 0;
            fx.captured = Some((v, count));
        }
        if self.ghost.contains(s) {
            self.ghost = self.ghost.without(s);
            self.hash ^= z.ghost[s.index()];
            self.set_ghost(r, t);
        } else if let (Some(q), Some(x)) = (self.seat_at(r, s), self.bottom_type(r, s)) {
            let (qi, xi) = (q as usize, x as usize);
            self.type_bb[xi] = self.type_bb[xi].without(s).with(t);
            self.hash ^= z.piece::<B>(qi, xi, s.index()) ^ z.piece::<B>(qi, xi, t.index());
            if self.stacked.contains(s) {
                self.stacked = self.stacked.without(s);
            } else {
                self.seat_bb[qi] = self.seat_bb[qi].without(s);
                self.occ = self.occ.without(s);
            }
            self.seat_bb[qi] = self.seat_bb[qi].with(t);
            self.occ = self.occ.with(t);
        } else {
            self.set_ghost(r, t);
        }
    }

    fn set_ghost(&mut self, r: &ChessRules, t: Square) {
        if !self.ghost.contains(t) {
            self.ghost = self.ghost.with(t);
            self.hash ^= r.zobrist.ghost[t.index()];
        }
    }
}
