//! The position: a small `Copy` value (bitboards and counters) that move generation reads
//! and `play` updates in place; copy it to explore (copy-make). The engine is generic over
//! the bitboard width ([`Pos`]); [`Position`] holds either width and answers the questions
//! front ends ask, choosing the width once per call.

use crate::geometry::{Bitboard, Bits, Square, W256};
use crate::options::{
    BareKing, CaptureRule, DoubleStep, KingCapture, MateTest, Promotion, Stacking, Stalemate,
};
use crate::rules::{ChessRules, PieceKind, Width, MAX_SEATS, MAX_TYPES};
use arrayvec::ArrayVec;
use libro_core::Seat;
use std::fmt;

/// A move: a piece from one square to another, a pass, or (Ludii's four-player opening) a bet.
///
/// The moving piece's type is part of the move, so the two pieces of a shared square make
/// different moves even to the same square.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    from: u8,
    to: u8,
    piece: u8,
    kind: u8,
}

const NORMAL: u8 = 0;
const PASS: u8 = 1;
const BET: u8 = 2;
const PHANTOM: u8 = 3;

impl Move {
    /// A piece of type `piece` moving (or capturing) from `from` to `to`.
    #[inline(always)]
    pub const fn new(from: Square, to: Square, piece: PieceKind) -> Move {
        Move {
            from: from.0,
            to: to.0,
            piece: piece.0,
            kind: NORMAL,
        }
    }
    /// A move of a phantom pawn (Ludii's stacking, see [`crate::options::Stacking`]).
    #[inline(always)]
    pub const fn phantom(from: Square, to: Square, piece: PieceKind) -> Move {
        Move {
            from: from.0,
            to: to.0,
            piece: piece.0,
            kind: PHANTOM,
        }
    }
    /// A pass: the seat has no legal move and the rules let it pass.
    pub const PASS: Move = Move {
        from: 0,
        to: 0,
        piece: 0,
        kind: PASS,
    };
    /// An opening bet of `amount` (0 to 100).
    pub const fn bet(amount: u8) -> Move {
        Move {
            from: 0,
            to: amount,
            piece: 0,
            kind: BET,
        }
    }
    #[inline(always)]
    pub const fn from(self) -> Square {
        Square(self.from)
    }
    #[inline(always)]
    pub const fn to(self) -> Square {
        Square(self.to)
    }
    /// The moving piece's type.
    #[inline(always)]
    pub const fn piece(self) -> PieceKind {
        PieceKind(self.piece)
    }
    pub const fn is_pass(self) -> bool {
        self.kind == PASS
    }
    /// The amount, if this is a bet.
    pub const fn bet_amount(self) -> Option<u8> {
        if self.kind == BET {
            Some(self.to)
        } else {
            None
        }
    }
    /// Whether a piece on the board moves (not a pass, bet or phantom move).
    pub const fn is_normal(self) -> bool {
        self.kind == NORMAL
    }
    /// Whether this is a phantom pawn's move (Ludii's stacking).
    pub const fn is_phantom(self) -> bool {
        self.kind == PHANTOM
    }
    /// Whether the move goes from a square to a square (a piece or a phantom moves).
    pub const fn is_board_move(self) -> bool {
        self.kind == NORMAL || self.kind == PHANTOM
    }
}

/// The legal-move buffer: up to 256 moves inline (no allocation: every position of the
/// shipped rulesets), all of them on the heap past that (boards crowded with strong pieces).
#[derive(Clone, Debug, Default)]
pub struct MoveList {
    inline: ArrayVec<Move, 256>,
    /// Every move, once there were more than `inline` holds (`inline` is then empty).
    spilled: Vec<Move>,
}

impl MoveList {
    /// An empty list.
    pub const fn new() -> MoveList {
        MoveList {
            inline: ArrayVec::new_const(),
            spilled: Vec::new(),
        }
    }

    /// Appends a move.
    #[inline(always)]
    pub fn push(&mut self, mv: Move) {
        if !self.spilled.is_empty() {
            self.spilled.push(mv);
        } else if let Err(full) = self.inline.try_push(mv) {
            self.spill(full.element());
        }
    }

    #[cold]
    fn spill(&mut self, mv: Move) {
        self.spilled.extend(self.inline.drain(..));
        self.spilled.push(mv);
    }

    /// Empties the list.
    #[inline]
    pub fn clear(&mut self) {
        self.inline.clear();
        self.spilled.clear();
    }

    /// Keeps the moves for which `keep` is true, in order.
    pub fn retain(&mut self, mut keep: impl FnMut(&Move) -> bool) {
        if self.spilled.is_empty() {
            self.inline.retain(|m| keep(m));
        } else {
            self.spilled.retain(keep);
        }
    }

    /// The moves.
    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        if self.spilled.is_empty() {
            &self.inline
        } else {
            &self.spilled
        }
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];
    #[inline]
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

impl std::ops::DerefMut for MoveList {
    #[inline]
    fn deref_mut(&mut self) -> &mut [Move] {
        if self.spilled.is_empty() {
            &mut self.inline
        } else {
            &mut self.spilled
        }
    }
}

impl Extend<Move> for MoveList {
    fn extend<I: IntoIterator<Item = Move>>(&mut self, moves: I) {
        for mv in moves {
            self.push(mv);
        }
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

impl libro_core::MoveBuffer<Move> for MoveList {
    #[inline]
    fn clear(&mut self) {
        MoveList::clear(self)
    }
    #[inline]
    fn push(&mut self, mv: Move) {
        MoveList::push(self, mv)
    }
    #[inline]
    fn as_slice(&self) -> &[Move] {
        MoveList::as_slice(self)
    }
}

/// What a move did besides moving a piece: for the pot, the record and replays.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Effects {
    /// The seat whose piece(s) were captured and how many (two on a shared square).
    pub captured: Option<(u8, u8)>,
    /// The type a pawn was promoted to.
    pub promoted: Option<u8>,
    /// Ludii's four-player payment: the mover's target is in check after the move.
    pub checked: Option<u8>,
    /// Seats eliminated by this move, in order, with how many pieces each still had, and
    /// whether it was checkmated (else its king was taken or it ran out of pieces).
    pub eliminated: ArrayVec<Elimination, 3>,
}

/// A seat leaving the game.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Elimination {
    pub seat: u8,
    pub pieces: u8,
    pub mated: bool,
}

/// `NEIGHBOURS.0[n][active][s]`: the next active seat after `s` among `n` seats; `.1` the
/// previous one (`s` itself when it is alone).
#[allow(clippy::type_complexity)]
static NEIGHBOURS: ([[[u8; 4]; 16]; 5], [[[u8; 4]; 16]; 5]) = {
    let mut next = [[[0u8; 4]; 16]; 5];
    let mut prev = [[[0u8; 4]; 16]; 5];
    let mut n = 1;
    while n <= 4 {
        let mut active = 0;
        while active < 16 {
            let mut s = 0;
            while s < 4 {
                next[n][active][s] = s as u8;
                prev[n][active][s] = s as u8;
                let mut i = n;
                while i >= 1 {
                    let c = (s + i) % n;
                    if active >> c & 1 != 0 && c != s {
                        next[n][active][s] = c as u8;
                    }
                    let p = (s + n * 2 - i) % n;
                    if active >> p & 1 != 0 && p != s {
                        prev[n][active][s] = p as u8;
                    }
                    i -= 1;
                }
                s += 1;
            }
            active += 1;
        }
        n += 1;
    }
    (next, prev)
};

/// A position of a chess-family game in bitboards of width `B` (`u64` on the 8x8 board,
/// [`W256`] on the others): what move generation and perft copy and update.
#[derive(Copy, Clone, PartialEq, Eq)]
pub(crate) struct Pos<B: Bits = u64> {
    pub(crate) seat_bb: [Bitboard<B>; MAX_SEATS],
    pub(crate) type_bb: [Bitboard<B>; MAX_TYPES],
    pub(crate) occ: Bitboard<B>,
    /// Squares holding two pieces of one seat (Short Assize's fers on its pawn).
    pub(crate) stacked: Bitboard<B>,
    /// Squares of pieces that have not moved yet (first-move rights of non-pawns).
    pub(crate) unmoved: Bitboard<B>,
    pub(crate) hash: u64,
    /// Plies played since the game's start (bets and passes included).
    pub(crate) ply: u32,
    /// Plies since the last capture or pawn move.
    pub(crate) halfmove: u16,
    pub(crate) to_move: u8,
    /// Bit set of the seats still in the game.
    pub(crate) active: u8,
    /// Whether any capture has been made in the game.
    pub(crate) captured: bool,
    /// Consecutive passes just played.
    pub(crate) passes: u8,
    /// Seats still to place their opening bet (Ludii's four-player game).
    pub(crate) bets_pending: u8,
    /// Ludii's stacking: squares holding an ownerless marker under whatever stands there.
    pub(crate) ghost: Bitboard<B>,
    /// Ludii's stacking: each seat's phantom pawns (two seats only).
    pub(crate) phantom: [Bitboard<B>; 2],
}

/// Written as the 8x8 position always was (`Position { .. }`): a ruleset's canonical text,
/// and so its digest, includes its start.
impl<B: Bits> fmt::Debug for Pos<B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Position")
            .field("seat_bb", &self.seat_bb)
            .field("type_bb", &self.type_bb)
            .field("occ", &self.occ)
            .field("stacked", &self.stacked)
            .field("unmoved", &self.unmoved)
            .field("hash", &self.hash)
            .field("ply", &self.ply)
            .field("halfmove", &self.halfmove)
            .field("to_move", &self.to_move)
            .field("active", &self.active)
            .field("captured", &self.captured)
            .field("passes", &self.passes)
            .field("bets_pending", &self.bets_pending)
            .field("ghost", &self.ghost)
            .field("phantom", &self.phantom)
            .finish()
    }
}

/// Receives the legal targets of each piece during generation.
pub(crate) trait Sink<B: Bits> {
    fn add(&mut self, from: Square, piece: u8, targets: Bitboard<B>);
    /// One move that is not a plain piece move (a phantom's).
    fn push_move(&mut self, mv: Move);
    /// Whether the sink needs no more moves (a generator that tests moves one by one may
    /// stop).
    #[inline(always)]
    fn done(&self) -> bool {
        false
    }
}

/// Counts moves (bulk counting at perft leaves).
pub(crate) struct Counter(pub u64);

impl<B: Bits> Sink<B> for Counter {
    #[inline(always)]
    fn add(&mut self, _from: Square, _piece: u8, targets: Bitboard<B>) {
        self.0 += u64::from(targets.count());
    }
    fn push_move(&mut self, _mv: Move) {
        self.0 += 1;
    }
}

impl<B: Bits> Sink<B> for MoveList {
    #[inline(always)]
    fn add(&mut self, from: Square, piece: u8, targets: Bitboard<B>) {
        // A piece has at most a board's worth of targets: with that much room left, no test
        // of the spill.
        if self.inline.remaining_capacity() >= B::SQUARES && self.spilled.is_empty() {
            for to in targets {
                self.inline.push(Move::new(from, to, PieceKind(piece)));
            }
        } else {
            for to in targets {
                self.push(Move::new(from, to, PieceKind(piece)));
            }
        }
    }
    fn push_move(&mut self, mv: Move) {
        self.push(mv);
    }
}

/// Stops at the first move.
struct Any(bool);

impl<B: Bits> Sink<B> for Any {
    #[inline(always)]
    fn add(&mut self, _from: Square, _piece: u8, targets: Bitboard<B>) {
        self.0 |= targets.any();
    }
    fn push_move(&mut self, _mv: Move) {
        self.0 = true;
    }
    #[inline(always)]
    fn done(&self) -> bool {
        self.0
    }
}

/// The squares a rider going in `dirs` (a bit per direction of [`Direction::STEPS`]'s
/// order; orthogonal ones `0x55`) reaches from `sq` with blockers `occ`, each ray up to and
/// including its first blocker.
///
/// [`Direction::STEPS`]: crate::geometry::Direction::STEPS
#[inline]
pub(crate) fn rides<B: Width>(
    r: &ChessRules,
    sq: Square,
    occ: Bitboard<B>,
    dirs: u8,
) -> Bitboard<B> {
    let mut slide = Bitboard::EMPTY;
    if dirs & 0x55 != 0 {
        slide |= B::rook(r, sq, occ);
    }
    if dirs & 0xAA != 0 {
        slide |= B::bishop(r, sq, occ);
    }
    let whole = |set: u8| dirs & set == 0 || dirs & set == set;
    if !(whole(0x55) && whole(0xAA)) {
        let mut rays = Bitboard::EMPTY;
        for d in 0..8 {
            if dirs >> d & 1 != 0 {
                rays |= B::ray(r, d, sq);
            }
        }
        slide &= rays;
    }
    slide
}

/// The squares a piece of type `t` of seat `s` on `sq` attacks (could capture on) with
/// blockers `occ`: its capture leaps and its capture rides.
#[inline]
pub(crate) fn capture_attacks<B: Width>(
    r: &ChessRules,
    s: u8,
    t: u8,
    sq: Square,
    occ: Bitboard<B>,
) -> Bitboard<B> {
    let tb = r.table::<B>(s, t);
    let a = tb.capture[sq.index()];
    if tb.capture_dirs == 0 {
        a
    } else {
        a | rides(r, sq, occ, tb.capture_dirs)
    }
}

impl<B: Width> Pos<B> {
    pub(crate) fn empty() -> Pos<B> {
        Pos {
            seat_bb: [Bitboard::EMPTY; MAX_SEATS],
            type_bb: [Bitboard::EMPTY; MAX_TYPES],
            occ: Bitboard::EMPTY,
            stacked: Bitboard::EMPTY,
            unmoved: Bitboard::EMPTY,
            hash: 0,
            ply: 0,
            halfmove: 0,
            to_move: 0,
            active: 0,
            captured: false,
            passes: 0,
            bets_pending: 0,
            ghost: Bitboard::EMPTY,
            phantom: [Bitboard::EMPTY; 2],
        }
    }

    pub(crate) fn from_placed(r: &ChessRules, placed: &[(u8, u8, Square)]) -> Pos<B> {
        let mut p = Pos::empty();
        for &(seat, t, sq) in placed {
            p.put(seat, t, sq);
            if !r.pieces[t as usize].is_pawn() && r.extra_types >> t & 1 != 0 {
                p.unmoved = p.unmoved.with(sq);
            }
        }
        p.active = (0..r.num_seats())
            .filter(|&s| p.seat_bb[s].any())
            .fold(0, |a, s| a | 1 << s);
        if r.options.bets {
            p.bets_pending = r.num_seats() as u8;
        }
        p.hash = p.compute_hash(r);
        p
    }

    /// Places a piece (without hashing): for setups and position strings.
    pub(crate) fn put(&mut self, seat: u8, t: u8, sq: Square) {
        if self.occ.contains(sq) {
            self.stacked = self.stacked.with(sq);
        }
        self.seat_bb[seat as usize] = self.seat_bb[seat as usize].with(sq);
        self.type_bb[t as usize] = self.type_bb[t as usize].with(sq);
        self.occ = self.occ.with(sq);
    }

    /// The hash from scratch.
    pub(crate) fn compute_hash(&self, r: &ChessRules) -> u64 {
        let z = &r.zobrist;
        let mut h = z.to_move[self.to_move as usize]
            ^ z.bets[self.bets_pending as usize]
            ^ z.passes[self.passes.min(MAX_SEATS as u8) as usize];
        for s in 0..r.num_seats() {
            for t in 0..r.pieces.len() {
                for sq in self.seat_bb[s] & self.type_bb[t] {
                    h ^= z.piece::<B>(s, t, sq.index());
                }
            }
        }
        for sq in self.unmoved {
            h ^= z.unmoved[sq.index()];
        }
        if self.captured {
            h ^= z.captured;
        }
        for sq in self.ghost {
            h ^= z.ghost[sq.index()];
        }
        for (s, ph) in self.phantom.iter().enumerate() {
            for sq in *ph {
                h ^= z.phantom[s][sq.index()];
            }
        }
        h
    }

    /// Whether seat `s` is still in the game.
    pub fn is_active(&self, s: u8) -> bool {
        self.active >> s & 1 != 0
    }
    /// The number of seats still in the game.
    pub fn active_count(&self) -> u32 {
        self.active.count_ones()
    }
    /// How many pieces seat `s` has (a shared square counts two).
    pub fn piece_count(&self, s: u8) -> u32 {
        self.seat_bb[s as usize].count() + (self.stacked & self.seat_bb[s as usize]).count()
    }
    /// The seat owning the piece(s) on `sq`.
    pub fn seat_at(&self, r: &ChessRules, sq: Square) -> Option<u8> {
        (0..r.num_seats() as u8).find(|&s| self.seat_bb[s as usize].contains(sq))
    }
    /// Whether seat `s` has a piece that is neither royal nor a pawn.
    pub fn has_officer(&self, r: &ChessRules, s: u8) -> bool {
        let mine = self.seat_bb[s as usize];
        r.pieces
            .iter()
            .enumerate()
            .any(|(t, p)| !p.royal && !p.is_pawn() && (self.type_bb[t] & mine).any())
    }
    /// The piece types on `sq` (two on a shared square), as a bit set.
    pub fn types_at(&self, r: &ChessRules, sq: Square) -> u8 {
        (0..r.pieces.len())
            .filter(|&t| self.type_bb[t].contains(sq))
            .fold(0, |a, t| a | 1 << t)
    }
    /// Where seat `s`'s king stands, if the ruleset has kings and it still has one.
    #[inline(always)]
    pub fn king_square(&self, r: &ChessRules, s: u8) -> Option<Square> {
        r.royal
            .and_then(|k| (self.type_bb[k as usize] & self.seat_bb[s as usize]).first())
    }

    /// The next active seat after `s` in turn order (`s` itself if it is the only one).
    #[inline]
    pub fn next_active(&self, n: usize, s: u8) -> u8 {
        NEIGHBOURS.0[n][self.active as usize & 15][s as usize & 3]
    }
    /// The previous active seat before `s` in turn order.
    #[inline]
    fn prev_active(&self, n: usize, s: u8) -> u8 {
        NEIGHBOURS.1[n][self.active as usize & 15][s as usize & 3]
    }

    /// The seats whose pieces seat `s` may capture (bit set).
    #[inline(always)]
    pub(crate) fn target_seats(&self, r: &ChessRules, s: u8) -> u8 {
        let n = r.num_seats();
        if n == 2 {
            return 1 << (1 - s);
        }
        match r.options.capture {
            CaptureRule::RightNeighbour => {
                let t = self.next_active(n, s);
                if t == s {
                    0
                } else {
                    1 << t
                }
            }
            CaptureRule::Any => self.active & !(1 << s),
        }
    }
    /// The seats that may capture seat `s`'s pieces (and so give check to its king).
    #[inline(always)]
    pub(crate) fn attacker_seats(&self, r: &ChessRules, s: u8) -> u8 {
        let n = r.num_seats();
        if n == 2 {
            return 1 << (1 - s);
        }
        match r.options.capture {
            CaptureRule::RightNeighbour => {
                let a = self.prev_active(n, s);
                if a == s {
                    0
                } else {
                    1 << a
                }
            }
            CaptureRule::Any => self.active & !(1 << s),
        }
    }

    /// The pieces of the seats in `seats` (a bit set).
    #[inline(always)]
    pub(crate) fn seats_bb(&self, seats: u8) -> Bitboard<B> {
        let mut b = Bitboard::EMPTY;
        let mut m = seats;
        while m != 0 {
            b |= self.seat_bb[m.trailing_zeros() as usize];
            m &= m - 1;
        }
        b
    }

    /// The pieces of the seats in `seats` that attack `sq`, with blockers `occ`.
    #[inline]
    pub(crate) fn attackers_to(
        &self,
        r: &ChessRules,
        sq: Square,
        occ: Bitboard<B>,
        seats: u8,
    ) -> Bitboard<B> {
        if r.test_each_move {
            self.attackers_with::<true>(r, sq, occ, seats)
        } else {
            self.attackers_with::<false>(r, sq, occ, seats)
        }
    }

    /// [`Pos::attackers_to`] with the walked moves looked at only when `WALKED` (rulesets
    /// without them never pay for the test).
    #[inline]
    fn attackers_with<const WALKED: bool>(
        &self,
        r: &ChessRules,
        sq: Square,
        occ: Bitboard<B>,
        seats: u8,
    ) -> Bitboard<B> {
        let mut acc = Bitboard::EMPTY;
        let mut m = seats;
        while m != 0 {
            let a = m.trailing_zeros() as u8;
            m &= m - 1;
            let theirs = self.seat_bb[a as usize];
            let mut sacc = Bitboard::EMPTY;
            let mut lt = r.leaper_types[a as usize];
            while lt != 0 {
                let t = lt.trailing_zeros() as u8;
                lt &= lt - 1;
                let pieces = self.type_bb[t as usize] & theirs;
                if pieces.any() {
                    sacc |= pieces & r.table::<B>(a, t).capture_rev[sq.index()];
                }
            }
            let orth = self.types_bb(r.orth_riders[a as usize]);
            if orth.any() {
                sacc |= B::rook(r, sq, occ) & orth;
            }
            let diag = self.types_bb(r.diag_riders[a as usize]);
            if diag.any() {
                sacc |= B::bishop(r, sq, occ) & diag;
            }
            let partial = r.partial_riders[a as usize];
            if partial != 0 {
                sacc |= self.partial_rider_attackers(r, a, partial, sq, occ);
            }
            let walked = if WALKED { r.path_types[a as usize] } else { 0 };
            if walked != 0 {
                sacc |= self.path_attackers(r, a, walked, sq, occ);
            }
            acc |= sacc & theirs;
        }
        acc
    }

    /// The squares of `capturable` that a piece of type `t` may capture on: all of them
    /// but those of the types it may not take (the fil never takes a fil).
    #[inline(always)]
    pub(crate) fn capturable_by(
        &self,
        r: &ChessRules,
        t: u8,
        capturable: Bitboard<B>,
    ) -> Bitboard<B> {
        let cannot = r.pieces[t as usize].cannot_capture;
        if cannot == 0 {
            capturable
        } else {
            capturable & !self.types_bb(cannot)
        }
    }

    /// The pieces of the types in `types` (a bit set), of every seat.
    #[inline(always)]
    pub(crate) fn types_bb(&self, types: u8) -> Bitboard<B> {
        let mut b = Bitboard::EMPTY;
        let mut m = types;
        while m != 0 {
            b |= self.type_bb[m.trailing_zeros() as usize];
            m &= m - 1;
        }
        b
    }

    fn partial_rider_attackers(
        &self,
        r: &ChessRules,
        a: u8,
        types: u8,
        sq: Square,
        occ: Bitboard<B>,
    ) -> Bitboard<B> {
        let mut acc = Bitboard::EMPTY;
        let slide = B::rook(r, sq, occ) | B::bishop(r, sq, occ);
        for t in 0..r.pieces.len() as u8 {
            if types >> t & 1 == 0 {
                continue;
            }
            let dirs = r.table::<B>(a, t).capture_dirs;
            for from in slide & self.type_bb[t as usize] & self.seat_bb[a as usize] {
                let d = B::direction(r, from, sq);
                if d < 8 && dirs >> d & 1 != 0 {
                    acc = acc.with(from);
                }
            }
        }
        acc
    }

    /// Whether seat `s`'s king is attacked by a seat allowed to capture it.
    pub fn in_check(&self, r: &ChessRules, s: u8) -> bool {
        if r.options.stacking == Stacking::Ludii {
            return self.ludii_king_attacked(r, s);
        }
        match self.king_square(r, s) {
            Some(k) => self
                .attackers_to(r, k, self.occ, self.attacker_seats(r, s))
                .any(),
            None => false,
        }
    }

    /// [`Pos::in_check`] for a ruleset with walked moves (no Ludii stacking).
    fn in_check_walked(&self, r: &ChessRules, s: u8) -> bool {
        match self.king_square(r, s) {
            Some(k) => self
                .attackers_with::<true>(r, k, self.occ, self.attacker_seats(r, s))
                .any(),
            None => false,
        }
    }

    /// The pieces pinned to seat `us`'s king on `ksq` by riders of `attackers`.
    fn pinned(&self, r: &ChessRules, ksq: Square, own: Bitboard<B>, attackers: u8) -> Bitboard<B> {
        let mut riders = 0u8;
        let mut m = attackers;
        while m != 0 {
            let a = m.trailing_zeros() as usize;
            m &= m - 1;
            riders |= r.orth_riders[a] | r.diag_riders[a] | r.partial_riders[a];
        }
        if (self.types_bb(riders) & self.seats_bb(attackers)).is_empty() {
            return Bitboard::EMPTY;
        }
        let mut snipers = Bitboard::EMPTY;
        let mut partial = Bitboard::EMPTY;
        let mut m = attackers;
        while m != 0 {
            let a = m.trailing_zeros() as usize;
            m &= m - 1;
            let theirs = self.seat_bb[a];
            snipers |= B::rook(r, ksq, Bitboard::EMPTY) & theirs & self.types_bb(r.orth_riders[a]);
            snipers |=
                B::bishop(r, ksq, Bitboard::EMPTY) & theirs & self.types_bb(r.diag_riders[a]);
            partial |= (B::rook(r, ksq, Bitboard::EMPTY) | B::bishop(r, ksq, Bitboard::EMPTY))
                & theirs
                & self.types_bb(r.partial_riders[a]);
        }
        for s in partial {
            // A partial rider pins only if it captures in the direction of the king.
            let a = self.seat_at(r, s).unwrap_or(0);
            let d = B::direction(r, s, ksq);
            let t = (0..r.pieces.len() as u8).find(|&t| {
                self.type_bb[t as usize].contains(s) && r.partial_riders[a as usize] >> t & 1 != 0
            });
            if let Some(t) = t {
                if d < 8 && r.table::<B>(a, t).capture_dirs >> d & 1 != 0 {
                    snipers = snipers.with(s);
                }
            }
        }
        let mut pinned = Bitboard::EMPTY;
        for s in snipers {
            let b = B::between(r, ksq, s) & self.occ;
            if b.any() && !b.more_than_one() && (b & own).any() {
                pinned |= b;
            }
        }
        pinned & !self.stacked
    }

    /// Whether the checker on `c` gives check by a leap (which no piece can block).
    fn leap_check(&self, r: &ChessRules, c: Square, ksq: Square) -> bool {
        let Some(a) = self.seat_at(r, c) else {
            return true;
        };
        (0..r.pieces.len() as u8).any(|t| {
            self.type_bb[t as usize].contains(c)
                && r.table::<B>(a, t).capture_rev[ksq.index()].contains(c)
        })
    }

    /// All targets of one piece, before legality filtering; its walked moves only when
    /// `WALKED` (the ruleset has such moves).
    #[inline(always)]
    fn piece_targets<const WALKED: bool>(
        &self,
        r: &ChessRules,
        us: u8,
        t: u8,
        sq: Square,
        empty: Bitboard<B>,
        capt: Bitboard<B>,
    ) -> Bitboard<B> {
        let tb = r.table::<B>(us, t);
        let mut targets = (tb.quiet[sq.index()] & empty) | (tb.capture[sq.index()] & capt);
        let dirs = tb.quiet_dirs | tb.capture_dirs;
        if dirs != 0 {
            let mut slide = Bitboard::EMPTY;
            if dirs & 0x55 != 0 {
                slide |= B::rook(r, sq, self.occ);
            }
            if dirs & 0xAA != 0 {
                slide |= B::bishop(r, sq, self.occ);
            }
            if tb.quiet_dirs == tb.capture_dirs
                && (dirs & 0x55 == 0 || dirs & 0x55 == 0x55)
                && (dirs & 0xAA == 0 || dirs & 0xAA == 0xAA)
            {
                targets |= slide & (empty | capt);
            } else {
                let mut qmask = Bitboard::EMPTY;
                let mut cmask = Bitboard::EMPTY;
                for d in 0..8 {
                    if tb.quiet_dirs >> d & 1 != 0 {
                        qmask |= B::ray(r, d, sq);
                    }
                    if tb.capture_dirs >> d & 1 != 0 {
                        cmask |= B::ray(r, d, sq);
                    }
                }
                targets |= (slide & qmask & empty) | (slide & cmask & capt);
            }
        }
        if r.extra_types >> t & 1 != 0 {
            let (start, len) = tb.extra_index[sq.index()];
            if len > 0 {
                let initial_ok = if r.pieces[t as usize].is_pawn() {
                    tb.start.contains(sq)
                        && match r.options.pawn_double_step {
                            DoubleStep::UntilFirstCapture => !self.captured,
                            DoubleStep::FirstMove => true,
                            DoubleStep::None => false,
                        }
                } else {
                    self.unmoved.contains(sq)
                };
                for e in &tb.extras[start as usize..start as usize + len as usize] {
                    if (initial_ok || !e.initial)
                        && empty.contains(e.to)
                        && (e.block & self.occ).is_empty()
                    {
                        targets = targets.with(e.to);
                    }
                }
            }
        }
        if WALKED && r.path_types[us as usize] >> t & 1 != 0 {
            targets |= tb.path_targets(sq, self.occ, empty, capt);
        }
        targets
    }

    /// The pieces of seat `a` with walked moves (types `types`) that capture on `sq`.
    fn path_attackers(
        &self,
        r: &ChessRules,
        a: u8,
        types: u8,
        sq: Square,
        occ: Bitboard<B>,
    ) -> Bitboard<B> {
        let mut acc = Bitboard::EMPTY;
        let target = sq.bb();
        for t in 0..r.pieces.len() as u8 {
            if types >> t & 1 == 0 {
                continue;
            }
            let tb = r.table::<B>(a, t);
            for from in self.type_bb[t as usize] & self.seat_bb[a as usize] {
                if tb.path_targets(from, occ, Bitboard::EMPTY, target).any() {
                    acc = acc.with(from);
                }
            }
        }
        acc
    }

    /// Generates the legal moves by playing each pseudo-legal one and looking at the king:
    /// for rulesets with walked moves, where a hopper's screen makes pins and checks that
    /// the line tests do not see.
    fn generate_tested<S: Sink<B>>(&self, r: &ChessRules, sink: &mut S) {
        let us = self.to_move;
        let own = self.seat_bb[us as usize];
        let empty = !self.occ;
        let capturable = self.seats_bb(self.target_seats(r, us));
        for t in 0..r.pieces.len() as u8 {
            let bb = self.type_bb[t as usize] & own;
            if bb.is_empty() {
                continue;
            }
            let capt = self.capturable_by(r, t, capturable);
            for sq in bb {
                let mut legal = Bitboard::<B>::EMPTY;
                for to in self.piece_targets::<true>(r, us, t, sq, empty, capt) {
                    let mut child = *self;
                    let mut fx = Effects::default();
                    child.play_piece(r, Move::new(sq, to, PieceKind(t)), &mut fx);
                    if !child.in_check_walked(r, us) {
                        legal = legal.with(to);
                    }
                }
                sink.add(sq, t, legal);
                if sink.done() {
                    return;
                }
            }
        }
    }

    /// Generates the legal moves of the seat to move (no passes, no bets, no forced-capture
    /// filter) into `sink`.
    #[inline(always)]
    pub(crate) fn generate<S: Sink<B>>(&self, r: &ChessRules, sink: &mut S) {
        if r.options.stacking == Stacking::Ludii {
            self.generate_ludii(r, sink);
            return;
        }
        if r.test_each_move {
            self.generate_tested(r, sink);
            return;
        }
        // From here the ruleset has no walked moves: the `::<false>` instances leave their
        // tests out (8x8 perft as fast as before the wide boards and walked moves came).
        let us = self.to_move;
        let own = self.seat_bb[us as usize];
        let occ = self.occ;
        let empty = !occ;
        let capturable = self.seats_bb(self.target_seats(r, us));
        let attackers = self.attacker_seats(r, us);
        let king = self.king_square(r, us);
        let mut evasion = Bitboard::FULL;
        let mut pinned = Bitboard::EMPTY;
        // Where the king may go: tested square by square, or from one attack map of the
        // attacking seats when they have few pieces for the squares to test.
        let mut king_safe: Option<Bitboard<B>> = None;
        if let Some(ksq) = king {
            let k = r.royal.expect("a king square implies a royal type");
            let kcapt = self.capturable_by(r, k, capturable);
            let candidates = self.piece_targets::<false>(r, us, k, ksq, empty, kcapt);
            let attacking = self.seats_bb(attackers);
            let checkers = if candidates.any() && attacking.count() <= 3 * (candidates.count() + 1)
            {
                let occ_without_king = if self.stacked.contains(ksq) {
                    occ
                } else {
                    occ.without(ksq)
                };
                let (checkers, danger) = self.attack_map(r, attackers, occ_without_king, ksq);
                king_safe = Some(candidates & !danger);
                checkers
            } else {
                self.attackers_with::<false>(r, ksq, occ, attackers)
            };
            if checkers.any() {
                if checkers.more_than_one() {
                    match king_safe {
                        Some(safe) => sink.add(ksq, k, safe),
                        None => self.king_moves(r, us, ksq, empty, capturable, attackers, sink),
                    }
                    return;
                }
                let c = checkers.lsb();
                evasion = if self.leap_check(r, c, ksq) {
                    c.bb()
                } else {
                    B::between(r, ksq, c) | c.bb()
                };
            }
            pinned = self.pinned(r, ksq, own, attackers);
        }
        for t in 0..r.pieces.len() as u8 {
            if Some(t) == r.royal {
                continue;
            }
            let bb = self.type_bb[t as usize] & own;
            if bb.is_empty() {
                continue;
            }
            let capt = self.capturable_by(r, t, capturable);
            for sq in bb {
                let mut targets = self.piece_targets::<false>(r, us, t, sq, empty, capt) & evasion;
                if pinned.contains(sq) {
                    if let Some(ksq) = king {
                        targets &= B::line(r, ksq, sq);
                    }
                }
                sink.add(sq, t, targets);
            }
        }
        if let Some(ksq) = king {
            match king_safe {
                Some(safe) => sink.add(ksq, r.royal.expect("royal"), safe),
                None => self.king_moves(r, us, ksq, empty, capturable, attackers, sink),
            }
        }
    }

    /// One pass over the pieces of `seats`: the squares they attack (with blockers `occ`),
    /// and which of them attack `target`.
    fn attack_map(
        &self,
        r: &ChessRules,
        seats: u8,
        occ: Bitboard<B>,
        target: Square,
    ) -> (Bitboard<B>, Bitboard<B>) {
        let mut danger = Bitboard::EMPTY;
        let mut hitting = Bitboard::EMPTY;
        let mut m = seats;
        while m != 0 {
            let a = m.trailing_zeros() as u8;
            m &= m - 1;
            let theirs = self.seat_bb[a as usize];
            for t in 0..r.pieces.len() as u8 {
                let pieces = self.type_bb[t as usize] & theirs;
                if pieces.is_empty() {
                    continue;
                }
                let tb = r.table::<B>(a, t);
                if !tb.has_capture_leaps && tb.capture_dirs == 0 {
                    continue;
                }
                for sq in pieces {
                    let att = capture_attacks(r, a, t, sq, occ);
                    danger |= att;
                    if att.contains(target) {
                        hitting = hitting.with(sq);
                    }
                }
            }
        }
        (hitting, danger)
    }

    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn king_moves<S: Sink<B>>(
        &self,
        r: &ChessRules,
        us: u8,
        ksq: Square,
        empty: Bitboard<B>,
        capturable: Bitboard<B>,
        attackers: u8,
        sink: &mut S,
    ) {
        let k = r.royal.expect("a king square implies a royal type");
        let capt = self.capturable_by(r, k, capturable);
        let targets = self.piece_targets::<false>(r, us, k, ksq, empty, capt);
        let occ = if self.stacked.contains(ksq) {
            self.occ
        } else {
            self.occ.without(ksq)
        };
        let mut safe = Bitboard::EMPTY;
        for to in targets {
            if self
                .attackers_with::<false>(r, to, occ, attackers)
                .is_empty()
            {
                safe = safe.with(to);
            }
        }
        sink.add(ksq, k, safe);
    }

    /// The legal moves of the seat to move: its piece moves (after Forçado's filter), or a
    /// pass when the rules let a seat without a move pass, or the opening bets.
    pub fn legal_moves(&self, r: &ChessRules, out: &mut MoveList) {
        out.clear();
        if self.bets_pending > 0 {
            for a in 0..=100 {
                out.push(Move::bet(a));
            }
            return;
        }
        self.generate(r, out);
        if r.options.forced_capture != crate::options::ForcedCapture::None {
            crate::forced::filter(r, self, out);
        }
        if out.is_empty() && self.may_pass(r) {
            out.push(Move::PASS);
        }
    }

    /// Whether a seat without a legal piece move passes (rather than losing or drawing).
    pub(crate) fn may_pass(&self, r: &ChessRules) -> bool {
        r.num_seats() > 2
            || (r.options.stalemate == Stalemate::Pass && !self.in_check(r, self.to_move))
    }

    /// The winner by a bare-king rule, if the material on the board decides the game.
    pub(crate) fn bare_king_winner(&self, r: &ChessRules) -> Option<u8> {
        if r.num_seats() != 2 {
            return None;
        }
        let us = self.to_move;
        let them = 1 - us;
        let (mine, theirs) = (self.piece_count(us), self.piece_count(them));
        match r.options.bare_king {
            BareKing::None => None,
            BareKing::Loses => (mine <= 1).then_some(them),
            BareKing::Shatranj => {
                if theirs <= 1 && mine >= 2 {
                    Some(us)
                } else if mine <= 1 && theirs >= 3 {
                    Some(them)
                } else {
                    None
                }
            }
        }
    }

    /// Whether the game is decided here without looking at the moves (perft's leaves): a
    /// bare-king rule, a single seat left, or everyone passed where that draws.
    pub(crate) fn decided(&self, r: &ChessRules) -> bool {
        self.bare_king_winner(r).is_some()
            || self.active_count() <= 1
            || (r.options.all_pass_draw && u32::from(self.passes) >= self.active_count())
    }

    /// Bulk count of the legal piece moves of the seat to move.
    #[inline(always)]
    pub(crate) fn count_piece_moves(&self, r: &ChessRules) -> u64 {
        let mut c = Counter(0);
        self.generate(r, &mut c);
        c.0
    }

    /// Whether the seat to move has a legal piece move.
    pub(crate) fn has_piece_move(&self, r: &ChessRules) -> bool {
        if self.has_free_piece_move(r) {
            return true;
        }
        let mut a = Any(false);
        self.generate(r, &mut a);
        a.0
    }

    /// A quick sufficient test for [`Position::has_piece_move`] (the end-of-game check after
    /// every move): out of check, a piece standing on no line through its king cannot be
    /// pinned, so any move it has is legal; failing that, a king step to a square no
    /// opposing piece attacks (what is usually left in the long endings of random games).
    /// `false` means "look at every move".
    fn has_free_piece_move(&self, r: &ChessRules) -> bool {
        if r.options.stacking == Stacking::Ludii || r.test_each_move {
            return false;
        }
        let us = self.to_move;
        let Some(ksq) = self.king_square(r, us) else {
            return false;
        };
        let attackers = self.attacker_seats(r, us);
        if self
            .attackers_with::<false>(r, ksq, self.occ, attackers)
            .any()
        {
            return false;
        }
        let lines = B::rook(r, ksq, Bitboard::EMPTY) | B::bishop(r, ksq, Bitboard::EMPTY);
        let free = self.seat_bb[us as usize] & !lines & !ksq.bb();
        let empty = !self.occ;
        let capturable = self.seats_bb(self.target_seats(r, us));
        for t in 0..r.pieces.len() as u8 {
            if Some(t) == r.royal {
                continue;
            }
            let bb = self.type_bb[t as usize] & free;
            if bb.is_empty() {
                continue;
            }
            let capt = self.capturable_by(r, t, capturable);
            for sq in bb {
                if self.piece_targets::<false>(r, us, t, sq, empty, capt).any() {
                    return true;
                }
            }
        }
        // The king: a step to a square no opposing piece attacks once it has left.
        let k = r.royal.expect("a king square implies a royal type");
        let capt = self.capturable_by(r, k, capturable);
        let occ = if self.stacked.contains(ksq) {
            self.occ
        } else {
            self.occ.without(ksq)
        };
        for to in self.piece_targets::<false>(r, us, k, ksq, empty, capt) {
            if self
                .attackers_with::<false>(r, to, occ, attackers)
                .is_empty()
            {
                return true;
            }
        }
        false
    }

    /// Whether seat `s` would have a legal piece move if it were to move.
    fn seat_has_move(&self, r: &ChessRules, s: u8) -> bool {
        let mut p = *self;
        p.to_move = s;
        p.has_piece_move(r)
    }

    /// Removes every piece of seat `s` and takes it out of the game; returns its piece count.
    pub(crate) fn eliminate(&mut self, r: &ChessRules, s: u8) -> u8 {
        let count = self.piece_count(s) as u8;
        let mine = self.seat_bb[s as usize];
        for t in 0..r.pieces.len() {
            for sq in self.type_bb[t] & mine {
                self.hash ^= r.zobrist.piece::<B>(s as usize, t, sq.index());
            }
            self.type_bb[t] &= !mine;
        }
        for sq in self.unmoved & mine {
            self.hash ^= r.zobrist.unmoved[sq.index()];
        }
        self.unmoved &= !mine;
        self.stacked &= !mine;
        self.occ &= !mine;
        self.seat_bb[s as usize] = Bitboard::EMPTY;
        self.active &= !(1 << s);
        count
    }

    #[inline(always)]
    fn set_passes(&mut self, r: &ChessRules, passes: u8) {
        let z = &r.zobrist;
        let cap = MAX_SEATS as u8;
        self.hash ^= z.passes[self.passes.min(cap) as usize] ^ z.passes[passes.min(cap) as usize];
        self.passes = passes;
    }

    #[inline(always)]
    fn set_to_move(&mut self, r: &ChessRules, s: u8) {
        self.hash ^= r.zobrist.to_move[self.to_move as usize] ^ r.zobrist.to_move[s as usize];
        self.to_move = s;
    }

    /// Hands the turn to the other of two seats without a move: the search's null move,
    /// never a move of the game (it is not counted as a pass).
    pub(crate) fn pass_turn(&mut self, r: &ChessRules) {
        self.ply += 1;
        self.halfmove = self.halfmove.saturating_add(1);
        self.set_to_move(r, 1 - self.to_move);
    }

    /// Plays a legal move of the seat to move (copy first to keep the original). Returns what
    /// the move did besides moving a piece.
    #[inline]
    pub fn play(&mut self, r: &ChessRules, mv: Move) -> Effects {
        let mut fx = Effects::default();
        let us = self.to_move;
        self.ply += 1;
        if let Some(_amount) = mv.bet_amount() {
            self.hash ^= r.zobrist.bets[self.bets_pending as usize];
            self.bets_pending -= 1;
            self.hash ^= r.zobrist.bets[self.bets_pending as usize];
            let next = self.next_active(r.num_seats(), us);
            self.set_to_move(r, next);
            return fx;
        }
        if mv.is_pass() {
            self.set_passes(r, self.passes.saturating_add(1));
            self.halfmove = self.halfmove.saturating_add(1);
        } else {
            if self.passes != 0 {
                self.set_passes(r, 0);
            }
            if mv.is_phantom() {
                self.play_phantom(r, mv, &mut fx);
            } else {
                self.play_piece(r, mv, &mut fx);
            }
        }
        if r.num_seats() == 2 {
            self.set_to_move(r, 1 - us);
        } else {
            self.after_move_many(r, us, &mut fx);
        }
        fx
    }

    #[inline(always)]
    pub(crate) fn play_piece(&mut self, r: &ChessRules, mv: Move, fx: &mut Effects) {
        let z = &r.zobrist;
        let seat = self.to_move as usize;
        let (from, to, t) = (mv.from(), mv.to(), mv.piece as usize);
        let (fb, tbit) = (from.bb(), to.bb());
        self.halfmove = self.halfmove.saturating_add(1);
        let capture = self.occ.contains(to);
        if capture {
            let v = (0..r.num_seats())
                .find(|&s| self.seat_bb[s].contains(to))
                .unwrap_or(0);
            let mut count = 0;
            for vt in 0..r.pieces.len() {
                if self.type_bb[vt].contains(to) {
                    self.type_bb[vt] ^= tbit;
                    self.hash ^= z.piece::<B>(v, vt, to.index());
                    count += 1;
                }
            }
            self.seat_bb[v] ^= tbit;
            self.stacked &= !tbit;
            if self.ghost.contains(to) {
                self.ghost ^= tbit;
                self.hash ^= z.ghost[to.index()];
            }
            if !self.captured {
                self.captured = true;
                self.hash ^= z.captured;
            }
            self.halfmove = 0;
            fx.captured = Some((v as u8, count));
        }
        self.type_bb[t] ^= fb | tbit;
        self.hash ^= z.piece::<B>(seat, t, from.index()) ^ z.piece::<B>(seat, t, to.index());
        let vacated = !self.stacked.contains(from);
        if vacated {
            self.seat_bb[seat] ^= fb;
            self.occ ^= fb;
        } else {
            self.stacked ^= fb;
        }
        self.seat_bb[seat] |= tbit;
        self.occ |= tbit;
        let old_unmoved = self.unmoved;
        self.unmoved &= !tbit;
        if vacated {
            self.unmoved &= !fb;
        }
        let piece = &r.pieces[t];
        if let Some(fixed) = piece.promotes_to {
            self.halfmove = 0;
            let tb = r.table::<B>(seat as u8, mv.piece);
            // What the pawn would become, looked up only on its last line.
            let promotion = (tb.promo_zone.contains(to)
                && (!capture || r.options.promote_on_capture))
                .then(|| r.promotion_type(mv.piece, to, fixed))
                .filter(|&p| {
                    r.options.promotion == Promotion::Always
                        || (self.type_bb[p as usize] & self.seat_bb[seat]).is_empty()
                });
            if let Some(p) = promotion {
                self.type_bb[t] ^= tbit;
                self.type_bb[p as usize] ^= tbit;
                self.hash ^=
                    z.piece::<B>(seat, t, to.index()) ^ z.piece::<B>(seat, p as usize, to.index());
                if r.options.promoted_fers_leaps && r.extra_types >> p & 1 != 0 {
                    self.unmoved |= tbit;
                }
                fx.promoted = Some(p);
                if r.options.stacking == Stacking::Ludii && !self.phantom[seat].contains(to) {
                    self.phantom[seat] |= tbit;
                    self.hash ^= z.phantom[seat][to.index()];
                }
            }
        }
        let diff = old_unmoved ^ self.unmoved;
        for sq in diff {
            self.hash ^= z.unmoved[sq.index()];
        }
    }

    /// Turn order and eliminations after a move with more than two seats.
    fn after_move_many(&mut self, r: &ChessRules, us: u8, fx: &mut Effects) {
        let n = r.num_seats();
        match r.options.mate_test {
            MateTest::AfterMove => {
                let next = self.next_active(n, us);
                if next != us && self.in_check(r, next) {
                    if self.seat_has_move(r, next) {
                        fx.checked = Some(next);
                    } else {
                        let pieces = self.eliminate(r, next);
                        fx.eliminated.push(Elimination {
                            seat: next,
                            pieces,
                            mated: true,
                        });
                    }
                }
                self.drop_empty_seats(r, us, fx);
                let to = self.next_active(n, us);
                self.set_to_move(r, to);
            }
            MateTest::TurnStart => {
                if r.options.king_capture == KingCapture::Eliminates {
                    if let (Some((v, _)), Some(k)) = (fx.captured, r.royal) {
                        if v != us
                            && (self.type_bb[k as usize] & self.seat_bb[v as usize]).is_empty()
                            && self.is_active(v)
                        {
                            let pieces = self.eliminate(r, v);
                            fx.eliminated.push(Elimination {
                                seat: v,
                                pieces,
                                mated: false,
                            });
                        }
                    }
                }
                self.drop_empty_seats(r, us, fx);
                self.turn_passes(r, us, fx);
            }
        }
    }

    /// Takes seat `s` out of the game (more than two seats) as a seat whose king is taken:
    /// its pieces leave the board and, if it was to move, the turn passes on as after a move.
    pub(crate) fn drop_seat(&mut self, r: &ChessRules, s: u8) -> Effects {
        let mut fx = Effects::default();
        let pieces = self.eliminate(r, s);
        fx.eliminated.push(Elimination {
            seat: s,
            pieces,
            mated: false,
        });
        if self.to_move == s {
            match r.options.mate_test {
                MateTest::AfterMove => {
                    let to = self.next_active(r.num_seats(), s);
                    self.set_to_move(r, to);
                }
                MateTest::TurnStart => self.turn_passes(r, s, &mut fx),
            }
        }
        fx
    }

    /// The turn passing on from `us` (turn-start mate test): a seat whose turn comes while
    /// it is in check with no legal move is mated and out, and the turn passes on again.
    fn turn_passes(&mut self, r: &ChessRules, us: u8, fx: &mut Effects) {
        let n = r.num_seats();
        let mut cur = us;
        loop {
            let next = self.next_active(n, cur);
            self.set_to_move(r, next);
            if self.active_count() <= 1 || next == us {
                break;
            }
            if self.in_check(r, next) && !self.has_piece_move(r) {
                let pieces = self.eliminate(r, next);
                if !fx.eliminated.is_full() {
                    fx.eliminated.push(Elimination {
                        seat: next,
                        pieces,
                        mated: true,
                    });
                }
                cur = next;
                continue;
            }
            break;
        }
    }

    /// Seats left without pieces are out.
    fn drop_empty_seats(&mut self, r: &ChessRules, us: u8, fx: &mut Effects) {
        for s in 0..r.num_seats() as u8 {
            if s != us && self.is_active(s) && self.seat_bb[s as usize].is_empty() {
                self.active &= !(1 << s);
                if !fx.eliminated.is_full() {
                    fx.eliminated.push(Elimination {
                        seat: s,
                        pieces: 0,
                        mated: false,
                    });
                }
            }
        }
    }
}

/// A position of a chess-family game, in the width its ruleset uses: what a game holds and
/// front ends ask about. Cheap to clone on the 8x8 board (the wide one is boxed).
#[derive(Clone, PartialEq, Eq)]
pub struct Position(pub(crate) Repr);

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            Repr::Narrow(p) => p.fmt(f),
            Repr::Wide(p) => p.fmt(f),
        }
    }
}

#[derive(Clone, PartialEq, Eq)]
pub(crate) enum Repr {
    Narrow(Pos<u64>),
    Wide(Box<Pos<W256>>),
}

/// Runs `$body` with `$p` bound to the position in its own width (a shared reference).
macro_rules! with_pos {
    ($pos:expr, $p:ident => $body:expr) => {
        match &$pos.0 {
            $crate::position::Repr::Narrow($p) => $body,
            $crate::position::Repr::Wide(boxed) => {
                let $p = &**boxed;
                $body
            }
        }
    };
}
pub(crate) use with_pos;

/// As `with_pos!`, with `$p` a mutable reference.
macro_rules! with_pos_mut {
    ($pos:expr, $p:ident => $body:expr) => {
        match &mut $pos.0 {
            $crate::position::Repr::Narrow($p) => $body,
            $crate::position::Repr::Wide(boxed) => {
                let $p = &mut **boxed;
                $body
            }
        }
    };
}

impl From<Pos<u64>> for Position {
    fn from(p: Pos<u64>) -> Position {
        Position(Repr::Narrow(p))
    }
}

impl From<Pos<W256>> for Position {
    fn from(p: Pos<W256>) -> Position {
        Position(Repr::Wide(Box::new(p)))
    }
}

impl Position {
    /// The incremental hash.
    pub fn hash(&self) -> u64 {
        with_pos!(self, p => p.hash)
    }
    /// The seat to move.
    pub fn to_move(&self) -> Seat {
        Seat(with_pos!(self, p => p.to_move))
    }
    /// Plies since the game's start.
    pub fn ply(&self) -> u32 {
        with_pos!(self, p => p.ply)
    }
    /// Plies since the last capture or pawn move.
    pub fn halfmove_clock(&self) -> u16 {
        with_pos!(self, p => p.halfmove)
    }
    /// Counts the plies without progress from zero again (a referee played on past them).
    pub(crate) fn restart_progress_count(&mut self) {
        with_pos_mut!(self, p => p.halfmove = 0)
    }
    /// Whether a capture has been made in the game.
    pub fn any_capture(&self) -> bool {
        with_pos!(self, p => p.captured)
    }
    /// Whether seat `s` is still in the game.
    pub fn is_active(&self, s: Seat) -> bool {
        with_pos!(self, p => p.is_active(s.0))
    }
    /// The number of seats still in the game.
    pub fn active_count(&self) -> u32 {
        with_pos!(self, p => p.active_count())
    }
    /// Seats still to place their opening bet.
    pub fn bets_pending(&self) -> u8 {
        with_pos!(self, p => p.bets_pending)
    }
    /// Whether the piece on `sq` has not moved yet (first-move rights).
    pub fn is_unmoved(&self, sq: Square) -> bool {
        with_pos!(self, p => p.unmoved.contains(sq))
    }
    /// Whether `sq` holds two pieces.
    pub fn is_shared(&self, sq: Square) -> bool {
        with_pos!(self, p => p.stacked.contains(sq))
    }
    /// How many pieces seat `s` has (a shared square counts two).
    pub fn piece_count(&self, s: Seat) -> u32 {
        with_pos!(self, p => p.piece_count(s.0))
    }
    /// The squares of seat `s`'s pieces, lowest first.
    pub fn squares_of(&self, s: Seat) -> Vec<Square> {
        with_pos!(self, p => p.seat_bb[s.index()].collect())
    }
    /// The seat owning the piece(s) on `sq`.
    pub fn seat_at(&self, r: &ChessRules, sq: Square) -> Option<Seat> {
        with_pos!(self, p => p.seat_at(r, sq)).map(Seat)
    }
    /// The piece types on `sq` (two on a shared square), as a bit set.
    pub fn types_at(&self, r: &ChessRules, sq: Square) -> u8 {
        with_pos!(self, p => p.types_at(r, sq))
    }
    /// Where seat `s`'s king stands, if the ruleset has kings and it still has one.
    pub fn king_square(&self, r: &ChessRules, s: Seat) -> Option<Square> {
        with_pos!(self, p => p.king_square(r, s.0))
    }
    /// The next active seat after `s` in turn order (`s` itself if it is the only one).
    pub fn next_active(&self, n: usize, s: Seat) -> Seat {
        Seat(with_pos!(self, p => p.next_active(n, s.0)))
    }
    /// Whether seat `s`'s king is attacked by a seat allowed to capture it.
    pub fn in_check(&self, r: &ChessRules, s: Seat) -> bool {
        with_pos!(self, p => p.in_check(r, s.0))
    }
    /// The legal moves of the seat to move (see the engine's rules for passes and bets).
    pub fn legal_moves(&self, r: &ChessRules, out: &mut MoveList) {
        with_pos!(self, p => p.legal_moves(r, out))
    }
    /// Plays a legal move of the seat to move; returns what it did besides moving a piece.
    pub fn play(&mut self, r: &ChessRules, mv: Move) -> Effects {
        with_pos_mut!(self, p => p.play(r, mv))
    }
    /// Whether seat `s` has a piece that is neither royal nor a pawn.
    pub fn has_officer(&self, r: &ChessRules, s: Seat) -> bool {
        with_pos!(self, p => p.has_officer(r, s.0))
    }
    /// Takes seat `s` out of the game as a seat whose king is taken (see `Pos::drop_seat`).
    pub(crate) fn drop_seat(&mut self, r: &ChessRules, s: u8) -> Effects {
        with_pos_mut!(self, p => p.drop_seat(r, s))
    }
    /// The search's null move (two seats only): the other seat to move, nothing moved.
    pub(crate) fn pass_turn(&mut self, r: &ChessRules) {
        with_pos_mut!(self, p => p.pass_turn(r))
    }
    /// Consecutive passes just played.
    pub(crate) fn passes(&self) -> u8 {
        with_pos!(self, p => p.passes)
    }
    pub(crate) fn has_piece_move(&self, r: &ChessRules) -> bool {
        with_pos!(self, p => p.has_piece_move(r))
    }
    pub(crate) fn bare_king_winner(&self, r: &ChessRules) -> Option<u8> {
        with_pos!(self, p => p.bare_king_winner(r))
    }
    pub(crate) fn compute_hash(&self, r: &ChessRules) -> u64 {
        with_pos!(self, p => p.compute_hash(r))
    }
    /// The piece moves before passes, bets and Forçado's filter.
    pub(crate) fn generate(&self, r: &ChessRules, out: &mut MoveList) {
        with_pos!(self, p => p.generate(r, out))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    /// The quick end-of-game test never says "a move" where there is none, and the full
    /// test agrees with the move list, at every position of random games in every shipped
    /// chess ruleset (long games, so the sparse endings where only a king moves come up).
    #[test]
    fn the_quick_test_for_a_piece_move_agrees_with_the_move_list() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../rulesets");
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        let mut positions = 0;
        for name in [
            "acedrex",
            "acedrex-ludii",
            "forcado",
            "shatranj",
            "short-assize",
            "short-assize-ludii",
            "cuatro-tiempos",
        ] {
            let path = format!("{dir}/{name}.toml");
            let text = std::fs::read_to_string(&path).expect("a shipped ruleset");
            let r = ChessRules::from_toml(&text, &path, &[]).expect("a valid ruleset");
            for _ in 0..6 {
                let mut pos = *<u64 as Width>::of(&r.start);
                let mut moves = MoveList::new();
                for _ in 0..600 {
                    pos.legal_moves(&r, &mut moves);
                    let pieces = pos.count_piece_moves(&r) > 0;
                    assert_eq!(pos.has_piece_move(&r), pieces, "{name}");
                    assert!(!pos.has_free_piece_move(&r) || pieces, "{name}");
                    positions += 1;
                    if moves.is_empty() || pos.decided(&r) {
                        break;
                    }
                    let mv = moves[rng.gen_range(0..moves.len())];
                    pos.play(&r, mv);
                }
            }
        }
        assert!(positions > 10_000, "{positions}");
    }

    /// A ruleset file may give pieces far stronger than the medieval ones: a board crowded
    /// with amazons (queen and knight) has more than 256 moves, all listed (found by hand
    /// while fuzzing; the list used to be capped at 256 and panicked).
    #[test]
    fn a_crowded_board_of_strong_pieces_lists_every_move() {
        let text = r#"family = "chess"
name = "amazons"
title = "Amazons"
source = "a test"
[board]
files = 8
ranks = 8
[[seats]]
name = "white"
forward = "north"
[[seats]]
name = "black"
forward = "south"
[pieces]
king = { letter = "K", betza = "K", royal = true }
amazon = { letter = "Q", betza = "QN" }
wazir = { letter = "W", betza = "W" }
[setup]
white = "Ke1 Qd1"
black = "Ke8"
"#;
        let r = ChessRules::from_toml(text, "test", &[]).unwrap();
        let fen = "QQQQQwwk/Q3Qwww/Q3QQwQ/Q3Q1QQ/Q6Q/Q6Q/QQQQQQ1Q/K1Q4Q w - - 0 1";
        let setup = crate::notation::parse_setup(&r, fen).unwrap();
        let pos = Pos::<u64>::from_checked_setup(&r, &setup).unwrap();
        let mut moves = MoveList::new();
        pos.legal_moves(&r, &mut moves);
        assert!(moves.len() > 256, "{} moves", moves.len());
        assert_eq!(
            moves.len() as u64,
            crate::perft::perft_in(&r, &pos, 1),
            "the bulk count"
        );
        let distinct: std::collections::HashSet<Move> = moves.iter().copied().collect();
        assert_eq!(distinct.len(), moves.len());
        let king_moves = moves.iter().filter(|m| m.from() == Square(0)).count();
        moves.retain(|m| m.from() != Square(0));
        assert_eq!(
            moves.len() + king_moves,
            distinct.len(),
            "all but the king's"
        );
        pos.legal_moves(&r, &mut moves);
        assert_eq!(moves.len(), distinct.len(), "listed again into a used list");
    }
}
