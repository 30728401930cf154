//! The game knowledge the search uses ([`libro_core::Heuristic`]) for every chess-family
//! ruleset: medieval piece values (middlegame and endgame), piece-square terms read off each
//! piece's own move tables, mobility (the fers' leap and the pawns' double step included;
//! for two seats by Fairy-Stockfish's tables over its mobility area, for four a count of the
//! squares enemy pawns do not guard), pawn structure, threats, rooks on open lines,
//! bare-king and mop-up endings, Forçado's forced captures, and for four seats the
//! right-hand neighbour, the seat that can capture us and the stakes.
//!
//! Everything that depends only on the ruleset is built once per thread and ruleset
//! ([`Tables`]); evaluating a position reads bitboards and those tables, never allocating.

use crate::game::ChessGame;
use crate::geometry::{Bitboard, Bits, Board, Square, W256};
use crate::options::{BareKing, DoubleStep, ForcedCapture, Promotion, Stacking};
use crate::position::{capture_attacks, rides, with_pos, Move, MoveList, Pos, Sink};
use crate::rules::{ChessRules, PieceKind, Width, MAX_SEATS, MAX_TYPES};
use libro_core::{CorrectionKeys, Game, Heuristic, Seat};
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::sync::{Arc, Weak};

pub mod net;
mod weights;
pub use weights::Weights;
use weights::{KNIGHT_MOBILITY, ROOK_MOBILITY};

/// What a piece type is, read from its name and rules (the family's pieces by their names).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Kind {
    King,
    Pawn,
    Fers,
    Fil,
    Knight,
    Rook,
    Other,
}

/// Material in centipawns for what is not tuned (exchanges, futility, unknown pieces):
/// the endgame values of [`Weights::DEFAULT`].
const PAWN: i32 = Weights::DEFAULT.pawn_eg;
const FERS: i32 = Weights::DEFAULT.fers_eg;
const KNIGHT: i32 = Weights::DEFAULT.knight_eg;
const ROOK: i32 = Weights::DEFAULT.rook_eg;

/// Bonus while the opponent is down to so many pieces besides its king, under a bare-king
/// rule (taking the last one wins at once).
const BARE_PUSH: [i32; 4] = [0, 140, 60, 20];
/// Four seats: the value of a seat out of the game (below any live seat).
const ELIMINATED: i32 = -40_000;
/// Four seats: centipawns per stake paid beyond the others' mean (a check received costs
/// the stake, and so does every piece lost).
const STAKE_CP: i32 = 25;
/// Four seats: how much each other seat's standing weighs against ours: the target's (every
/// piece we take from it), the seat that can capture us, the seat across. Ours is measured
/// against their weighted mean, so an even position is worth zero before [`CONTEMPT`].
const TARGET_WEIGHT: i32 = 45;
const ATTACKER_WEIGHT: i32 = 35;
const ACROSS_WEIGHT: i32 = 20;
/// Four seats: per piece near the target's king (within three squares, closer more).
const TROPISM: i32 = 6;
/// Four seats: a live position is worth more than a draw by the rules, which shares the
/// pot with everyone still in: the search then avoids repeating when it can play on.
const CONTEMPT: i32 = 60;

/// What the evaluation knows of one ruleset, built once.
struct Tables {
    rules: Weak<ChessRules>,
    w: Weights,
    kind: [Kind; MAX_TYPES],
    value: [i32; MAX_TYPES],
    value_mg: [i32; MAX_TYPES],
    mobility: [Mobility; MAX_TYPES],
    /// `[seat]`: the squares of its first three ranks (two seats), where its pawns are idle
    /// for the mobility area.
    low_ranks: [W256; MAX_SEATS],
    /// `[seat]`: a bit per piece type that moves as it captures (the same leaps and
    /// slides), so its mobility is its attacks on squares it may enter.
    moves_as_captures: [u64; MAX_SEATS],
    /// Positional bonus `[seat][type][square]`, middlegame and endgame.
    pst_mg: Box<[[[i16; 256]; MAX_TYPES]; MAX_SEATS]>,
    pst_eg: Box<[[[i16; 256]; MAX_TYPES]; MAX_SEATS]>,
    /// `[seat][type][square]`: squares ahead of a pawn on its own and the neighbouring lines
    /// (no enemy pawn there: passed), and the steps it still has to go.
    /// (Index `(seat * MAX_TYPES + type) * 256 + square`.)
    passed_mask: Vec<W256>,
    /// `[seat][square]`: the pawn's own line (along its forward direction) and the two
    /// beside it, for isolated and doubled pawns. (Index `seat * 256 + square`.)
    line_mask: Vec<W256>,
    beside_mask: Vec<W256>,
    to_go: Box<[[[u8; 256]; MAX_TYPES]; MAX_SEATS]>,
    /// `[square][d - 1]`: the squares within `d` king steps of it (d = 1, 2, 3), for how
    /// close the enemy stands to a king.
    near_mask: Vec<[W256; 3]>,
    /// `[square]`: the king's ring as Fairy-Stockfish draws it: the squares within a king
    /// step of the square, moved in from the edges by one.
    king_ring: Vec<W256>,
    /// `[seat][square]`: the king's flank (three or four lines across the seat's forward
    /// direction, Fairy-Stockfish's `KingFlank`), the whole length of the board. (Index
    /// `seat * 256 + square`.)
    flank: Vec<W256>,
    /// `[seat]`: the seat's camp, its five nearest ranks on 8x8 (where attacks on the king's
    /// flank count).
    camp: [W256; MAX_SEATS],
    /// The king danger term's weight (percent of Fairy-Stockfish's units; 0: not counted).
    /// It counts only under a network whose mode says so ([`net::Mode::AddedWithKingDanger`],
    /// shatranj's since 2026-12-06): the others were fitted and measured without it, and
    /// without a network it is unmeasured.
    king_danger: i32,
    /// Piece types worth more than a rook that attack like one (Fairy-Stockfish's major
    /// pieces, such as a queen): without one the enemy's king danger counts less.
    majors: u8,
    /// Pawn structure already worked out, by seat and pawns (see [`pawn_structure`]).
    pawn_cache: Box<[Cell<PawnEntry>]>,
    pawns: u8,
    /// Non-pawn, non-king material of all seats at the start: the phase's scale.
    start_material: i32,
    start_pieces: i32,
    /// The rules' evaluation network, if any (two seats on 8x8).
    net: Option<Arc<net::Network>>,
}

/// How a piece type's mobility is valued.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Mobility {
    /// So much a square it may move to, both halves (four seats, and pieces the two-seat
    /// tables do not name).
    Linear(i32),
    /// Two seats, by the squares it attacks or may move to in its mobility area
    /// (Fairy-Stockfish's count): (middlegame, endgame) from a table by that number...
    Table(&'static [(i32, i32)]),
    /// ...or by Fairy-Stockfish's formula for fairy pieces, `max · (n − 2) / (8 + n)`.
    Fairy(i32, i32),
}

impl Mobility {
    /// The (middlegame, endgame) bonus for `n` squares counted.
    fn bonus(self, n: i32) -> (i32, i32) {
        match self {
            Mobility::Linear(per) => (per * n, per * n),
            Mobility::Table(t) => t[(n.max(0) as usize).min(t.len() - 1)],
            Mobility::Fairy(mg, eg) => (mg * (n - 2) / (8 + n), eg * (n - 2) / (8 + n)),
        }
    }
}

/// Entries of the pawn-structure cache (a power of two).
const PAWN_CACHE: usize = 1 << 12;

/// One seat's pawn structure, kept with the pawns it was worked out from.
#[derive(Copy, Clone)]
struct PawnEntry {
    seat: u8,
    pawns: W256,
    mg: i32,
    eg: i32,
    guarded: W256,
}

impl PawnEntry {
    /// No entry: no seat is numbered 255.
    const EMPTY: PawnEntry = PawnEntry {
        seat: u8::MAX,
        pawns: W256::ZERO,
        mg: 0,
        eg: 0,
        guarded: W256::ZERO,
    };
}

thread_local! {
    static TABLES: RefCell<Option<Rc<Tables>>> = const { RefCell::new(None) };
}

/// The evaluation tables of `rules`, built on first use in this thread. The cache holds a
/// `Weak`, which keeps the ruleset's allocation (not its contents) alive, so a pointer match
/// is always the same ruleset.
fn tables(rules: &Arc<ChessRules>) -> Rc<Tables> {
    TABLES.with(|cell| {
        let mut slot = cell.borrow_mut();
        if let Some(t) = slot.as_ref() {
            if std::ptr::eq(t.rules.as_ptr(), Arc::as_ptr(rules)) {
                return t.clone();
            }
        }
        let t = Rc::new(Tables::new(rules, &Weights::DEFAULT, false));
        *slot = Some(t.clone());
        t
    })
}

fn chebyshev(b: Board, x: Square, y: Square) -> i32 {
    (b.file(x) - b.file(y))
        .abs()
        .max((b.rank(x) - b.rank(y)).abs())
}

/// Distance from the centre: 0 on the middle squares (d4/e4/d5/e5 on 8x8), growing by one
/// per Chebyshev ring.
fn centre_distance(b: Board, sq: Square) -> i32 {
    let f = (2 * b.file(sq) - (i32::from(b.files) - 1)).abs() / 2;
    let r = (2 * b.rank(sq) - (i32::from(b.ranks) - 1)).abs() / 2;
    f.max(r)
}

/// Fairy-Stockfish's endgame king squares (the endgame half of its `KingBonus`, in its
/// units: a knight is 854), by rank from the seat's home edge and line from the nearer side
/// edge (a to d): the centre is worth most, the home corners least.
const KING_ENDGAME: [[i32; 4]; 8] = [
    [1, 45, 85, 76],
    [53, 100, 133, 135],
    [88, 130, 169, 175],
    [103, 156, 172, 172],
    [96, 166, 199, 199],
    [92, 172, 184, 191],
    [47, 121, 116, 131],
    [11, 59, 73, 78],
];

/// With more than two seats, the king's endgame value per ring nearer the centre.
const KING_CENTRE_EG: i32 = 10;

/// The endgame value of a king on `sq` for the seat whose pawns go `forward`, in
/// Fairy-Stockfish's units ([`KING_ENDGAME`]); ranks past the eighth count as the eighth,
/// lines past the fourth as the fourth.
fn king_endgame_square(b: Board, sq: Square, forward: (i32, i32)) -> i32 {
    let rank = steps_to_edge(b, sq, (-forward.0, -forward.1));
    let side = (forward.1.abs(), forward.0.abs());
    let edge = steps_to_edge(b, sq, side).min(steps_to_edge(b, sq, (-side.0, -side.1)));
    KING_ENDGAME[rank.min(7) as usize][edge.min(3) as usize]
}

impl Tables {
    /// The pawn types' indices.
    fn pawn_types(&self) -> impl Iterator<Item = u8> {
        let mut m = self.pawns;
        std::iter::from_fn(move || {
            let ty = (m != 0).then(|| m.trailing_zeros() as u8)?;
            m &= m - 1;
            Some(ty)
        })
    }

    /// Every seat's pawns.
    fn pawns_of<B: Width>(&self, pos: &Pos<B>) -> Bitboard<B> {
        pos.types_bb(self.pawns)
    }

    /// The tables of `rules` with weights `w`; the king danger term counts if the rules'
    /// network's mode says so, or if `king_danger` asks for it.
    fn new(rules: &Arc<ChessRules>, w: &Weights, king_danger: bool) -> Tables {
        if rules.is_wide() {
            Tables::build::<W256>(rules, w, king_danger)
        } else {
            Tables::build::<u64>(rules, w, king_danger)
        }
    }

    fn build<B: Width>(rules: &Arc<ChessRules>, w: &Weights, king_danger: bool) -> Tables {
        let r: &ChessRules = rules;
        let board = r.board;
        let n = r.num_seats();
        let mut kind = [Kind::Other; MAX_TYPES];
        let mut value = [0; MAX_TYPES];
        let mut value_mg = [0; MAX_TYPES];
        let mut pawns = 0u8;
        let mut mobility = [Mobility::Linear(0); MAX_TYPES];
        for (t, p) in r.pieces.iter().enumerate() {
            kind[t] = if p.royal {
                Kind::King
            } else if p.is_pawn() {
                Kind::Pawn
            } else {
                match p.name.as_str() {
                    "fers" | "ferz" | "queen" => Kind::Fers,
                    "fil" | "alfil" | "bishop" => Kind::Fil,
                    "knight" | "horse" => Kind::Knight,
                    "rook" | "roque" => Kind::Rook,
                    _ => Kind::Other,
                }
            };
            if kind[t] == Kind::Pawn {
                pawns |= 1 << t;
            }
            (value_mg[t], value[t]) = match kind[t] {
                Kind::King => (0, 0),
                Kind::Pawn => (w.pawn_mg, w.pawn_eg),
                Kind::Fers => (w.fers_mg, w.fers_eg),
                Kind::Fil => (w.fil_mg, w.fil_eg),
                Kind::Knight => (w.knight_mg, w.knight_eg),
                Kind::Rook => (w.rook_mg, w.rook_eg),
                // An unknown piece: by how many squares it reaches from the centre (d4) of
                // an empty board, a knight's eight being worth a knight.
                Kind::Other => {
                    let tb = r.table::<B>(0, t as u8);
                    let centre = board
                        .square(
                            i32::from(board.files - 1) / 2,
                            i32::from(board.ranks - 1) / 2,
                        )
                        .expect("on the board");
                    let mut reach = (tb.quiet[centre.index()] | tb.capture[centre.index()]).count()
                        as i32
                        + tb.path_targets(centre, Bitboard::EMPTY, Bitboard::FULL, Bitboard::EMPTY)
                            .count() as i32;
                    if tb.quiet_dirs | tb.capture_dirs != 0 {
                        reach += B::rook(r, centre, Bitboard::EMPTY).count() as i32 / 2;
                    }
                    let v = (reach * KNIGHT / 8).clamp(PAWN, 2 * ROOK);
                    (v, v)
                }
            };
            mobility[t] = match (n, kind[t]) {
                (2, Kind::Knight) => Mobility::Table(&KNIGHT_MOBILITY),
                (2, Kind::Rook) => Mobility::Table(&ROOK_MOBILITY),
                (2, Kind::Fers | Kind::Fil) => {
                    Mobility::Fairy(w.fairy_mobility_mg, w.fairy_mobility_eg)
                }
                (_, Kind::Fers) => Mobility::Linear(w.fers_mobility),
                (_, Kind::Fil) => Mobility::Linear(w.fil_mobility),
                (_, Kind::Knight) => Mobility::Linear(w.knight_mobility),
                (_, Kind::Rook) => Mobility::Linear(w.rook_mobility),
                (_, Kind::Other) => Mobility::Linear(w.other_mobility),
                (_, Kind::King | Kind::Pawn) => Mobility::Linear(0),
            };
        }

        let mut pst_mg = Box::new([[[0i16; 256]; MAX_TYPES]; MAX_SEATS]);
        let mut pst_eg = Box::new([[[0i16; 256]; MAX_TYPES]; MAX_SEATS]);
        let mut passed_mask = vec![W256::ZERO; MAX_SEATS * MAX_TYPES * 256];
        let mut line_mask = vec![W256::ZERO; MAX_SEATS * 256];
        let mut beside_mask = vec![W256::ZERO; MAX_SEATS * 256];
        let mut to_go = Box::new([[[0u8; 256]; MAX_TYPES]; MAX_SEATS]);
        let near_mask = (0..256)
            .map(|i| {
                let mut rings = [W256::ZERO; 3];
                if i < board.squares() {
                    for j in 0..board.squares() {
                        let d = chebyshev(board, Square(i as u8), Square(j as u8));
                        for (k, ring) in rings.iter_mut().enumerate() {
                            if d <= k as i32 + 1 {
                                *ring |= W256::bit(j as u8);
                            }
                        }
                    }
                }
                rings
            })
            .collect();
        let king_ring = (0..256)
            .map(|i| {
                let mut ring = W256::ZERO;
                if i < board.squares() {
                    let sq = Square(i as u8);
                    let (f, k) = (board.file(sq), board.rank(sq));
                    let cf = f.clamp(1, (i32::from(board.files) - 2).max(1));
                    let ck = k.clamp(1, (i32::from(board.ranks) - 2).max(1));
                    if let Some(centre) = board.offset(sq, cf - f, ck - k) {
                        for j in 0..board.squares() {
                            if chebyshev(board, centre, Square(j as u8)) <= 1 {
                                ring |= W256::bit(j as u8);
                            }
                        }
                    }
                }
                ring
            })
            .collect();
        let mut flank = vec![W256::ZERO; MAX_SEATS * 256];
        let mut camp = [W256::ZERO; MAX_SEATS];
        for s in 0..n {
            let forward = r.seats[s].forward;
            let steps = |i: usize| steps_to_edge(board, Square(i as u8), forward);
            let deepest = (0..board.squares()).map(steps).max().unwrap_or(0);
            for j in 0..board.squares() {
                if steps(j) >= deepest - ((deepest - 1) / 2 + 1) {
                    camp[s] |= W256::bit(j as u8);
                }
            }
            // Across the seat's forward direction: files for seats that move along ranks.
            let (across, width) = if forward.0 == 0 {
                (
                    Board::file as fn(Board, Square) -> i32,
                    i32::from(board.files),
                )
            } else {
                (
                    Board::rank as fn(Board, Square) -> i32,
                    i32::from(board.ranks),
                )
            };
            for i in 0..board.squares() {
                let l = across(board, Square(i as u8));
                let (lo, hi) = king_flank(l, width);
                for j in 0..board.squares() {
                    let m = across(board, Square(j as u8));
                    if (lo..=hi).contains(&m) {
                        flank[s * 256 + i] |= W256::bit(j as u8);
                    }
                }
            }
        }
        let majors = (0..r.pieces.len())
            .filter(|&t| kind[t] == Kind::Other && value[t] > ROOK)
            .fold(0u8, |m, t| m | 1 << t);
        let mut moves_as_captures = [0u64; MAX_SEATS];
        for (s, m) in moves_as_captures.iter_mut().enumerate().take(n) {
            for t in 0..r.pieces.len() {
                let tb = r.table::<B>(s as u8, t as u8);
                if tb.quiet_dirs == tb.capture_dirs
                    && (0..board.squares()).all(|i| tb.quiet[i] == tb.capture[i])
                {
                    *m |= 1 << t;
                }
            }
        }
        let start = B::of(&r.start);
        let mut low_ranks = [W256::ZERO; MAX_SEATS];
        for s in 0..n {
            let seat = &r.seats[s];
            // The seat's home edge: where its king stands at the start.
            let home_king = start.king_square(r, s as u8);
            for i in 0..board.squares() {
                let (line, beside) = line_masks(board, Square(i as u8), seat.forward);
                line_mask[s * 256 + i] = line;
                beside_mask[s * 256 + i] = beside;
            }
            // The first three ranks: within two steps of the farthest from the far edge.
            let steps = |i: usize| steps_to_edge(board, Square(i as u8), seat.forward);
            let deepest = (0..board.squares()).map(steps).max().unwrap_or(0);
            for i in (0..board.squares()).filter(|&i| steps(i) >= deepest - 2) {
                low_ranks[s] |= W256::bit(i as u8);
            }
            for t in 0..r.pieces.len() {
                let tb = r.table::<B>(s as u8, t as u8);
                let p = &r.pieces[t];
                let forward = if p.across {
                    seat.across.unwrap_or(seat.forward)
                } else {
                    seat.forward
                };
                for i in 0..board.squares() {
                    let square = Square(i as u8);
                    // 0 at the edge .. 3 in the centre (of 8x8; more on larger boards)
                    let centre = (3 - centre_distance(board, square)).max(0);
                    let (mg, eg): (i32, i32) = match kind[t] {
                        Kind::Pawn => {
                            let steps = steps_to_edge(board, square, forward);
                            to_go[s][t][i] = steps.min(7) as u8;
                            let adv = advance(w, steps);
                            let central = if centre >= 2 { w.pawn_centre_mg } else { 0 };
                            passed_mask[(s * MAX_TYPES + t) * 256 + i] =
                                ahead_mask(board, square, forward);
                            (adv / 2 + central, adv)
                        }
                        Kind::King => {
                            // In the middlegame the king stays near its home corner or edge;
                            // in the endgame it comes to the centre and forward.
                            let away = home_king.map_or(0, |h| chebyshev(board, square, h));
                            let eg = if n == 2 {
                                king_endgame_square(board, square, forward) * w.king_place_eg / 100
                            } else {
                                KING_CENTRE_EG * centre
                            };
                            (w.king_away_mg * away.min(4), eg)
                        }
                        Kind::Rook => (w.rook_centre_mg * centre, w.rook_centre_eg * centre),
                        _ => {
                            // Leapers are worth the squares they reach from here.
                            let reach = (tb.quiet[i] | tb.capture[i]).count() as i32;
                            (
                                w.leaper_reach_mg * reach + w.leaper_centre_mg * centre,
                                w.leaper_reach_eg * reach + w.leaper_centre_eg * centre,
                            )
                        }
                    };
                    pst_mg[s][t][i] = mg as i16;
                    pst_eg[s][t][i] = eg as i16;
                }
            }
        }
        let mut start_material = 0;
        let mut start_pieces = 0;
        for s in 0..n as u8 {
            start_pieces += start.piece_count(s) as i32;
            for t in 0..r.pieces.len() {
                if kind[t] != Kind::Pawn {
                    start_material +=
                        value[t] * (start.type_bb[t] & start.seat_bb[s as usize]).count() as i32;
                }
            }
        }
        Tables {
            rules: Arc::downgrade(rules),
            w: *w,
            kind,
            value,
            value_mg,
            mobility,
            low_ranks,
            moves_as_captures,
            pst_mg,
            pst_eg,
            passed_mask,
            line_mask,
            beside_mask,
            to_go,
            near_mask,
            king_danger: if king_danger
                || r.network
                    .as_ref()
                    .is_some_and(|n| n.mode() == net::Mode::AddedWithKingDanger)
            {
                w.king_danger_scale
            } else {
                0
            },
            king_ring,
            flank,
            camp,
            majors,
            pawn_cache: (0..PAWN_CACHE)
                .map(|_| Cell::new(PawnEntry::EMPTY))
                .collect(),
            pawns,
            start_material: start_material.max(1),
            start_pieces: start_pieces.max(1),
            net: r.network.clone(),
        }
    }
}

/// A pawn's advance bonus by the steps still to go (1 = one step from promotion).
fn advance(w: &Weights, steps: i32) -> i32 {
    match steps {
        1 => w.advance_1,
        2 => w.advance_2,
        3 => w.advance_3,
        4 => w.advance_4,
        5 => w.advance_5,
        _ => 0,
    }
}

/// A passed pawn's endgame bonus by the steps still to go.
fn passed(w: &Weights, steps: u8) -> i32 {
    match steps {
        1 => w.passed_1,
        2 => w.passed_2,
        3 => w.passed_3,
        4 => w.passed_4,
        5 => w.passed_5,
        6 => w.passed_6,
        _ => 0,
    }
}

/// The two-seat evaluation under chosen weights, for fitting them to game results (the
/// engine itself plays with [`Weights::DEFAULT`]). It keeps a pawn cache, so each thread
/// wants its own.
pub struct Evaluator {
    tables: Tables,
}

impl Evaluator {
    /// The evaluation of `rules` with weights `w`.
    pub fn new(rules: &Arc<ChessRules>, w: &Weights) -> Evaluator {
        Evaluator {
            tables: Tables::new(rules, w, false),
        }
    }

    /// The evaluation of `rules` with weights `w` and the king danger term, whatever the
    /// rules' network says (to fit a network on top of it: `examples/nnue.rs --king-danger`).
    pub fn with_king_danger(rules: &Arc<ChessRules>, w: &Weights) -> Evaluator {
        Evaluator {
            tables: Tables::new(rules, w, true),
        }
    }

    /// The hand-written evaluation's static value of `game` for its first seat (without
    /// the rules' network), in centipawns; `None` unless the game has two seats and is
    /// played under the rules this evaluator was built for.
    pub fn first_seat_value(&self, game: &ChessGame) -> Option<i32> {
        let r = game.rules();
        if r.num_seats() != 2 || !std::ptr::eq(self.tables.rules.as_ptr(), Arc::as_ptr(r)) {
            return None;
        }
        Some(with_pos!(game.position(), pos => eval_hand(&self.tables, r, pos)))
    }
}

/// The two-seat static evaluation of `game` for its first seat in its parts, in centipawns:
/// the hand-written evaluation's value, and the rules' network's (if they have one; how the
/// two make the whole is the network's [`net::Mode`]). `None` unless the game has two seats.
pub fn evaluation_parts(game: &ChessGame) -> Option<(i32, Option<i32>)> {
    let r = game.rules();
    if r.num_seats() != 2 {
        return None;
    }
    let t = tables(r);
    Some(with_pos!(game.position(), pos => (
        eval_hand(&t, r, pos),
        t.net.as_deref().map(|n| net::value(n, r, pos)),
    )))
}

/// The network's inputs of `game`'s position, the mover's view first (see [`net`]);
/// `None` unless it has two seats on 8x8.
pub fn network_inputs(game: &ChessGame) -> Option<[Vec<u16>; 2]> {
    let r = game.rules();
    let b = r.board();
    if b.files != 8 || b.ranks != 8 || r.num_seats() != 2 {
        return None;
    }
    with_pos!(game.position(), pos => {
        let mut views = [[0u16; net::MAX_PIECES]; 2];
        let a = net::inputs(r, pos, pos.to_move, &mut views[0]);
        let b = net::inputs(r, pos, 1 - pos.to_move, &mut views[1]);
        Some([views[0][..a].to_vec(), views[1][..b].to_vec()])
    })
}

/// Steps from `sq` to the board's edge going `forward`.
fn steps_to_edge(b: Board, sq: Square, forward: (i32, i32)) -> i32 {
    match forward {
        (0, 1) => i32::from(b.ranks) - 1 - b.rank(sq),
        (0, -1) => b.rank(sq),
        (1, 0) => i32::from(b.files) - 1 - b.file(sq),
        _ => b.file(sq),
    }
}

/// The squares ahead of `sq` going `forward`, on its own line and the two beside it.
fn ahead_mask(b: Board, sq: Square, forward: (i32, i32)) -> W256 {
    let mut m = W256::ZERO;
    let side = (forward.1.abs(), forward.0.abs());
    for k in 1..i32::from(b.files.max(b.ranks)) {
        for w in -1..=1 {
            if let Some(s) = b.offset(sq, forward.0 * k + side.0 * w, forward.1 * k + side.1 * w) {
                m |= W256::bit(s.0);
            }
        }
    }
    m
}

/// The squares on `sq`'s line going `forward` (both ways, itself included) and on the two
/// lines beside it.
fn line_masks(b: Board, sq: Square, forward: (i32, i32)) -> (W256, W256) {
    let (mut line, mut beside) = (W256::ZERO, W256::ZERO);
    let side = (forward.1.abs(), forward.0.abs());
    let reach = i32::from(b.files.max(b.ranks));
    for k in -reach..=reach {
        for w in -1..=1 {
            if let Some(s) = b.offset(sq, forward.0 * k + side.0 * w, forward.1 * k + side.1 * w) {
                if w == 0 {
                    line |= W256::bit(s.0);
                } else {
                    beside |= W256::bit(s.0);
                }
            }
        }
    }
    (line, beside)
}

/// Pawn structure of two-seat seat `s` as (middlegame, endgame): isolated, doubled,
/// guarded and phalanx pawns.
fn pawn_structure<B: Width>(
    t: &Tables,
    r: &ChessRules,
    pos: &Pos<B>,
    s: u8,
    own_pawns: Bitboard<B>,
) -> (i32, i32, Bitboard<B>) {
    // With one pawn type, the structure depends only on where the seat's pawns stand: the
    // cache answers by those squares (compared whole, so never wrongly).
    if t.pawns.count_ones() != 1 {
        return pawn_structure_of(t, r, pos, s, own_pawns);
    }
    let key = own_pawns.0.to_w256();
    let h = mix_words(u64::from(s), &key.0);
    let slot = &t.pawn_cache[(h >> (64 - PAWN_CACHE.trailing_zeros())) as usize];
    let e = slot.get();
    if e.seat == s && e.pawns == key {
        return (e.mg, e.eg, Bitboard(B::from_w256(e.guarded)));
    }
    let (mg, eg, guarded) = pawn_structure_of(t, r, pos, s, own_pawns);
    slot.set(PawnEntry {
        seat: s,
        pawns: key,
        mg,
        eg,
        guarded: guarded.0.to_w256(),
    });
    (mg, eg, guarded)
}

/// `h` with `words` mixed in (multiply-rotate): the pawn cache's and correction's keys.
fn mix_words(mut h: u64, words: &[u64]) -> u64 {
    for &w in words {
        h = (h ^ w).wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(29);
    }
    h
}

/// [`pawn_structure`], worked out.
fn pawn_structure_of<B: Width>(
    t: &Tables,
    r: &ChessRules,
    pos: &Pos<B>,
    s: u8,
    own_pawns: Bitboard<B>,
) -> (i32, i32, Bitboard<B>) {
    let (mut mg, mut eg) = (0, 0);
    let mut guarded = Bitboard::EMPTY;
    let side = {
        let f = r.seats[s as usize].forward;
        (f.1.abs(), f.0.abs())
    };
    for ty in t.pawn_types() {
        let tb = r.table::<B>(s, ty);
        for sq in pos.type_bb[ty as usize] & own_pawns {
            guarded |= tb.capture[sq.index()];
        }
    }
    for sq in own_pawns {
        let i = s as usize * 256 + sq.index();
        let line = Bitboard(B::from_w256(t.line_mask[i]));
        let beside = Bitboard(B::from_w256(t.beside_mask[i]));
        let mut add = |(a, b): (i32, i32)| {
            mg += a;
            eg += b;
        };
        let w = &t.w;
        if (beside & own_pawns).is_empty() {
            add((w.isolated_mg, w.isolated_eg));
        }
        if (line & own_pawns).more_than_one() {
            add((w.doubled_mg, w.doubled_eg));
        }
        if guarded.contains(sq) {
            add((w.guarded_mg, w.guarded_eg));
        }
        let flank = |w: i32| r.board.offset(sq, side.0 * w, side.1 * w);
        if flank(1).is_some_and(|f| own_pawns.contains(f))
            || flank(-1).is_some_and(|f| own_pawns.contains(f))
        {
            add((w.phalanx_mg, w.phalanx_eg));
        }
    }
    (mg, eg, guarded)
}

/// Seat `s`'s rooks on open and half-open lines, as (middlegame, endgame) bonuses.
fn rook_lines<B: Width>(
    t: &Tables,
    r: &ChessRules,
    pos: &Pos<B>,
    s: u8,
    own_pawns: Bitboard<B>,
    all_pawns: Bitboard<B>,
) -> (i32, i32) {
    let (mut mg, mut eg) = (0, 0);
    for ty in 0..r.pieces.len() {
        if t.kind[ty] != Kind::Rook {
            continue;
        }
        for sq in pos.type_bb[ty] & pos.seat_bb[s as usize] {
            let line = Bitboard(B::from_w256(t.line_mask[s as usize * 256 + sq.index()]));
            let bonus = if (line & all_pawns).is_empty() {
                (t.w.rook_open_mg, t.w.rook_open_eg)
            } else if (line & own_pawns).is_empty() {
                (t.w.rook_half_open_mg, t.w.rook_half_open_eg)
            } else {
                continue;
            };
            mg += bonus.0;
            eg += bonus.1;
        }
    }
    (mg, eg)
}

/// Seat `s`'s pieces under threat, as (middlegame, endgame) penalties: a piece (not pawn or
/// king) attacked by a pawn of the other seat, attacked and undefended, or attacked by a
/// lesser piece; and, as Fairy-Stockfish counts them, a piece or pawn that no pawn of `s`
/// guards (`own_guard`) attacked by a rook, a king or (pawns and knights) a knight, and the
/// squares `s` attacks that the enemy contests and no pawn of `s` guards (restricted).
/// `attacks` is each seat's [`attacks_of`], computed once for both calls.
#[allow(clippy::too_many_arguments)]
fn threats<B: Width>(
    t: &Tables,
    r: &ChessRules,
    pos: &Pos<B>,
    s: u8,
    own_pawns: Bitboard<B>,
    own_guard: Bitboard<B>,
    enemy_pawn_attacks: Bitboard<B>,
    attacks: &Attacks<B>,
) -> (i32, i32) {
    let w = &t.w;
    let e = 1 - s as usize;
    // What the enemy's minor pieces (fers, fil), knights, rooks and king attack.
    let [by_minor, by_knight, by_rook, by_king] = attacks.seats[e].by_kind;
    let (twice, attacks) = (attacks.twice(), attacks.by());
    let restricted = (attacks[s as usize] & attacks[e] & !own_guard).count() as i32;
    let (mut mg, mut eg) = (restricted * w.restricted, restricted * w.restricted);
    let own = pos.seat_bb[s as usize];
    let mut pieces = own & !own_pawns;
    if let Some(k) = r.royal {
        pieces &= !pos.type_bb[k as usize];
    }
    let (mut rooks, mut knights) = (Bitboard::EMPTY, Bitboard::EMPTY);
    for ty in 0..r.pieces.len() {
        match t.kind[ty] {
            Kind::Rook => rooks |= pos.type_bb[ty],
            Kind::Knight => knights |= pos.type_bb[ty],
            _ => {}
        }
    }
    // Attacked, and not strongly protected: by a pawn of ours, or by two of our pieces
    // where the enemy does not attack with two.
    let strong = own_guard | (twice[s as usize] & !twice[e]);
    let weak = (pieces | own_pawns) & !strong & attacks[e];
    let weak_pawns = (weak & own_pawns & by_rook).count() as i32;
    let weak_knights = (weak & knights & by_rook).count() as i32;
    let weak_rooks = (weak & rooks & by_rook).count() as i32;
    mg += weak_pawns * w.rook_threat_pawn_mg
        + weak_knights * w.rook_threat_knight_mg
        + weak_rooks * w.rook_threat_rook_mg;
    eg += weak_pawns * w.rook_threat_pawn_eg
        + weak_knights * w.rook_threat_knight_eg
        + weak_rooks * w.rook_threat_rook_eg;
    let pawns_by_knight = (weak & own_pawns & by_knight).count() as i32;
    let knights_by_knight = (knights & pieces & by_knight & !enemy_pawn_attacks).count() as i32;
    mg += pawns_by_knight * w.knight_threat_pawn_mg + knights_by_knight * w.knight_threat_knight_mg;
    eg += pawns_by_knight * w.knight_threat_pawn_eg + knights_by_knight * w.knight_threat_knight_eg;
    if !(weak & by_king).is_empty() {
        mg += w.king_threat_mg;
        eg += w.king_threat_eg;
    }
    // Hanging: weak and undefended, or a piece the enemy attacks twice.
    let hanging = (weak & (!attacks[s as usize] | (pieces & twice[e]))).count() as i32;
    if pieces.is_empty() {
        return (mg + hanging * w.hanging_mg, eg + hanging * w.hanging_eg);
    }
    let by_pawn = (pieces & enemy_pawn_attacks).count() as i32;
    let lesser =
        (((rooks & (by_minor | by_knight)) | (knights & by_minor)) & pieces & !enemy_pawn_attacks)
            .count() as i32;
    (
        mg + by_pawn * w.pawn_threat_mg + hanging * w.hanging_mg + lesser * w.lesser_threat_mg,
        eg + by_pawn * w.pawn_threat_eg + hanging * w.hanging_eg + lesser * w.lesser_threat_eg,
    )
}

/// Seat `s`'s pieces (not pawns or king) that an enemy pawn could attack by one safe step,
/// as (middlegame, endgame) penalties: a step onto an empty square that no pawn of `s`
/// guards (`own_guard`) and that `s` does not attack unless the enemy guards it too.
fn push_threats<B: Width>(
    t: &Tables,
    r: &ChessRules,
    pos: &Pos<B>,
    s: u8,
    own_guard: Bitboard<B>,
    attacks: &Attacks<B>,
) -> (i32, i32) {
    let attacks = attacks.by();
    let e = 1 - s as usize;
    let pawns = t.pawns_of(pos);
    let mut pieces = pos.seat_bb[s as usize] & !pawns;
    if let Some(k) = r.royal {
        pieces &= !pos.type_bb[k as usize];
    }
    if pieces.is_empty() {
        return (0, 0);
    }
    let safe = !pos.occ & !own_guard & (!attacks[s as usize] | attacks[e]);
    let mut hit = Bitboard::EMPTY;
    for ty in t.pawn_types() {
        let tb = r.table::<B>(e as u8, ty);
        for sq in pos.type_bb[ty as usize] & pos.seat_bb[e] {
            for to in tb.quiet[sq.index()] & safe {
                hit |= tb.capture[to.index()];
            }
        }
    }
    let n = (hit & pieces).count() as i32;
    (n * t.w.push_threat_mg, n * t.w.push_threat_eg)
}

/// The squares a piece of type `t` of seat `s` on `sq` may move to or capture on (pseudo-
/// legal), given who it may capture.
#[inline]
fn reach<B: Width>(
    r: &ChessRules,
    pos: &Pos<B>,
    s: u8,
    t: u8,
    sq: Square,
    empty: Bitboard<B>,
    capt: Bitboard<B>,
) -> Bitboard<B> {
    let tb = r.table::<B>(s, t);
    let mut m = (tb.quiet[sq.index()] & empty) | (tb.capture[sq.index()] & capt);
    if tb.quiet_dirs == tb.capture_dirs {
        if tb.quiet_dirs != 0 {
            m |= rides(r, sq, pos.occ, tb.quiet_dirs) & (empty | capt);
        }
    } else {
        m |= rides(r, sq, pos.occ, tb.quiet_dirs) & empty;
        m |= rides(r, sq, pos.occ, tb.capture_dirs) & capt;
    }
    m
}

/// What one seat's pieces attack: every square any attacks, those two or more attack, and
/// by kind of attacker (see [`SeatAttacks::slot`]).
#[derive(Copy, Clone)]
struct SeatAttacks<B: Width> {
    once: Bitboard<B>,
    twice: Bitboard<B>,
    /// By the minor pieces (fers, fil), the knights, the rooks and the king.
    by_kind: [Bitboard<B>; 4],
    /// By the pawns.
    by_pawn: Bitboard<B>,
    /// Against the enemy king ([`Aim`]): the pieces bearing on its ring (and the ring's
    /// squares the pawns attack), their summed weights, and their attacks on the squares
    /// beside the king (Fairy-Stockfish's `kingAttackersCount`, `…Weight`, `kingAttacksCount`).
    ring_attackers: i32,
    ring_weight: i32,
    king_hits: i32,
}

/// The enemy king a seat's attacks are counted against: its ring and the squares beside it.
#[derive(Copy, Clone)]
struct Aim<B: Width> {
    ring: Bitboard<B>,
    beside: Bitboard<B>,
}

impl<B: Width> Aim<B> {
    /// No king to aim at (more than two seats, or none on the board).
    const NONE: Self = Aim {
        ring: Bitboard::EMPTY,
        beside: Bitboard::EMPTY,
    };

    /// Seat `s`'s king, as its enemy aims at it.
    fn at(t: &Tables, r: &ChessRules, pos: &Pos<B>, s: u8) -> Self {
        match (r.royal, pos.king_square(r, s)) {
            (Some(k), Some(ksq)) => Aim {
                ring: Bitboard(B::from_w256(t.king_ring[ksq.index()])),
                beside: capture_attacks(r, s, k, ksq, pos.occ),
            },
            _ => Self::NONE,
        }
    }
}

impl<B: Width> SeatAttacks<B> {
    /// Where an attacker of `kind` counts in `by_kind`.
    fn slot(kind: Kind) -> Option<usize> {
        match kind {
            Kind::Fers | Kind::Fil => Some(0),
            Kind::Knight => Some(1),
            Kind::Rook => Some(2),
            Kind::King => Some(3),
            Kind::Pawn | Kind::Other => None,
        }
    }

    /// No attacks.
    const EMPTY: Self = SeatAttacks {
        once: Bitboard::EMPTY,
        twice: Bitboard::EMPTY,
        by_kind: [Bitboard::EMPTY; 4],
        by_pawn: Bitboard::EMPTY,
        ring_attackers: 0,
        ring_weight: 0,
        king_hits: 0,
    };

    /// Adds the attacks `a` of a piece of `kind`.
    #[inline]
    fn add(&mut self, kind: Kind, a: Bitboard<B>) {
        self.twice |= self.once & a;
        self.once |= a;
        if let Some(k) = Self::slot(kind) {
            self.by_kind[k] |= a;
        }
        if kind == Kind::Pawn {
            self.by_pawn |= a;
        }
    }

    /// Counts a piece's attacks `a` against the enemy king (pieces other than pawns and
    /// the king; pawns are counted by the ring squares they attack, [`Self::aim_pawns`]).
    #[inline]
    fn aim(&mut self, kind: Kind, a: Bitboard<B>, aim: &Aim<B>) {
        if kind != Kind::Pawn && kind != Kind::King && (a & aim.ring).any() {
            self.ring_attackers += 1;
            self.ring_weight += king_attack_weight(kind);
            self.king_hits += (a & aim.beside).count() as i32;
        }
    }

    /// Counts the ring squares the pawns attack, once all are added.
    fn aim_pawns(&mut self, aim: &Aim<B>) {
        self.ring_attackers += (self.by_pawn & aim.ring).count() as i32;
    }

    /// Seat `s`'s attacks worked out on their own (the evaluation takes them from
    /// [`seat_sums`]'s one pass over the pieces; tests check the two agree).
    #[cfg(test)]
    fn of(t: &Tables, r: &ChessRules, pos: &Pos<B>, s: u8) -> Self {
        let mut out = Self::EMPTY;
        let own = pos.seat_bb[s as usize];
        for ty in 0..r.pieces.len() {
            for sq in pos.type_bb[ty] & own {
                out.add(t.kind[ty], piece_attacks(r, pos, s, ty as u8, sq));
            }
        }
        out
    }
}

/// The squares a piece of type `t` of seat `s` on `sq` attacks (could capture on).
#[inline]
fn piece_attacks<B: Width>(r: &ChessRules, pos: &Pos<B>, s: u8, t: u8, sq: Square) -> Bitboard<B> {
    capture_attacks(r, s, t, sq, pos.occ)
}

/// Both seats' attack maps, worked out once per evaluation: `by()[s]` is what seat `s`
/// attacks, `twice()[s]` what it attacks with two pieces or more.
#[derive(Copy, Clone)]
struct Attacks<B: Width> {
    seats: [SeatAttacks<B>; 2],
}

impl<B: Width> Attacks<B> {
    #[cfg(test)]
    fn of(t: &Tables, r: &ChessRules, pos: &Pos<B>) -> Self {
        let seats = [SeatAttacks::of(t, r, pos, 0), SeatAttacks::of(t, r, pos, 1)];
        Attacks { seats }
    }

    fn by(&self) -> [Bitboard<B>; 2] {
        [self.seats[0].once, self.seats[1].once]
    }

    fn twice(&self) -> [Bitboard<B>; 2] {
        [self.seats[0].twice, self.seats[1].twice]
    }
}

/// Per-seat sums of one evaluation pass.
#[derive(Default, Copy, Clone)]
struct SeatSums {
    material: i32,
    material_mg: i32,
    nonpawn: i32,
    mg: i32,
    eg: i32,
    mobility: i32,
}

/// Material, piece-square terms and mobility of seat `s`, and what its pieces attack (one
/// pass over the pieces for both). Mobility counts squares of `area` (see
/// [`mobility_area`]): those a piece may move to, or under a two-seat table (as
/// Fairy-Stockfish counts) those it attacks or may move to, own pieces it guards included.
fn seat_sums<B: Width>(
    t: &Tables,
    r: &ChessRules,
    pos: &Pos<B>,
    s: u8,
    enemy_pawns: Bitboard<B>,
    area: Bitboard<B>,
    aim: Aim<B>,
) -> (SeatSums, SeatAttacks<B>) {
    let mut out = SeatSums::default();
    let mut attacks = SeatAttacks::EMPTY;
    let own = pos.seat_bb[s as usize];
    if own.is_empty() {
        return (out, attacks);
    }
    let empty = !pos.occ;
    let capt = pos.seats_bb(pos.target_seats(r, s));
    let pawn_double = match r.options.pawn_double_step {
        DoubleStep::UntilFirstCapture => !pos.captured,
        DoubleStep::FirstMove => true,
        DoubleStep::None => false,
    };
    for ty in 0..r.pieces.len() {
        let bb = pos.type_bb[ty] & own;
        if bb.is_empty() {
            continue;
        }
        let kind = t.kind[ty];
        let count = bb.count() as i32;
        out.material += t.value[ty] * count;
        out.material_mg += t.value_mg[ty] * count;
        if kind != Kind::Pawn && kind != Kind::King {
            out.nonpawn += t.value[ty] * count;
        }
        let (pmg, peg) = (&t.pst_mg[s as usize][ty], &t.pst_eg[s as usize][ty]);
        let same_reach = t.moves_as_captures[s as usize] >> ty & 1 != 0;
        for sq in bb {
            out.mg += i32::from(pmg[sq.index()]);
            out.eg += i32::from(peg[sq.index()]);
            let a = piece_attacks(r, pos, s, ty as u8, sq);
            attacks.add(kind, a);
            attacks.aim(kind, a, &aim);
            match kind {
                Kind::King => {}
                Kind::Pawn => {
                    let ahead = t.passed_mask[(s as usize * MAX_TYPES + ty) * 256 + sq.index()];
                    if (Bitboard(B::from_w256(ahead)) & enemy_pawns).is_empty() {
                        let bonus = passed(&t.w, t.to_go[s as usize][ty][sq.index()]);
                        out.eg += bonus;
                        out.mg += bonus / 3;
                    }
                    // The double step is a tempo while it lasts.
                    if pawn_double && r.extra_types >> ty & 1 != 0 {
                        let tb = r.table::<B>(s, ty as u8);
                        if tb.start.contains(sq) && extras_open(r, pos, s, ty as u8, sq, empty) > 0
                        {
                            out.mobility += t.w.double_step;
                        }
                    }
                }
                _ => {
                    let cap = capt & !forbidden(r, pos, ty);
                    let reached = if same_reach {
                        a & (empty | cap)
                    } else {
                        reach(r, pos, s, ty as u8, sq, empty, cap)
                    };
                    let mobility = t.mobility[ty];
                    let counted = match mobility {
                        Mobility::Linear(_) => reached,
                        _ if same_reach => a,
                        _ => (a & pos.occ) | (reached & empty),
                    };
                    let mut m = (counted & area).count() as i32;
                    // The fers' leap (a first-move right): more squares while it lasts.
                    if r.extra_types >> ty & 1 != 0 && pos.unmoved.contains(sq) {
                        m += extras_open(r, pos, s, ty as u8, sq, empty);
                    }
                    let (mg, eg) = mobility.bonus(m);
                    if let Mobility::Linear(_) = mobility {
                        out.mobility += mg;
                    } else {
                        out.mg += mg;
                        out.eg += eg;
                    }
                }
            }
        }
    }
    attacks.aim_pawns(&aim);
    (out, attacks)
}

/// Victims a piece of type `ty` may not take (the fil may not take a fil).
#[inline]
fn forbidden<B: Width>(r: &ChessRules, pos: &Pos<B>, ty: usize) -> Bitboard<B> {
    let cannot = r.pieces[ty].cannot_capture;
    if cannot == 0 {
        return Bitboard::EMPTY;
    }
    let mut b = Bitboard::EMPTY;
    for v in 0..r.pieces.len() {
        if cannot >> v & 1 != 0 {
            b |= pos.type_bb[v];
        }
    }
    b
}

/// How many of the first-move leaps (or double steps) of a piece are open now.
fn extras_open<B: Width>(
    r: &ChessRules,
    pos: &Pos<B>,
    s: u8,
    ty: u8,
    sq: Square,
    empty: Bitboard<B>,
) -> i32 {
    let tb = r.table::<B>(s, ty);
    let (start, len) = tb.extra_index[sq.index()];
    tb.extras[start as usize..start as usize + len as usize]
        .iter()
        .filter(|e| empty.contains(e.to) && (e.block & pos.occ).is_empty())
        .count() as i32
}

/// Fairy-Stockfish's mobility area of seat `s` (two seats): the squares its pieces'
/// mobility counts. Not those the enemy's pawns guard (`enemy_guard`: a piece going there
/// is lost for a pawn), nor its own king's, nor those of its own pawns that are blocked or
/// still on its first three ranks (guarding a pawn that stays put is no activity).
fn mobility_area<B: Width>(
    t: &Tables,
    r: &ChessRules,
    pos: &Pos<B>,
    s: u8,
    own_pawns: Bitboard<B>,
    enemy_guard: Bitboard<B>,
) -> Bitboard<B> {
    let mut idle = own_pawns & Bitboard(B::from_w256(t.low_ranks[s as usize]));
    let empty = !pos.occ;
    for ty in t.pawn_types() {
        let tb = r.table::<B>(s, ty);
        for sq in pos.type_bb[ty as usize] & own_pawns & !idle {
            if (tb.quiet[sq.index()] & empty).is_empty() {
                idle = idle.with(sq);
            }
        }
    }
    if let Some(k) = pos.king_square(r, s) {
        idle = idle.with(k);
    }
    !(idle | enemy_guard)
}

/// Blends middlegame and endgame by the non-pawn material left (256 = all of it).
fn phase(t: &Tables, nonpawn_total: i32) -> i32 {
    (nonpawn_total * 256 / t.start_material).clamp(0, 256)
}

/// King safety in the middlegame: own pieces beside the king, and enemy pieces close by.
fn king_safety<B: Width>(
    t: &Tables,
    r: &ChessRules,
    pos: &Pos<B>,
    s: u8,
    enemies: Bitboard<B>,
) -> i32 {
    let Some(k) = r.royal else { return 0 };
    let Some(ksq) = pos.king_square(r, s) else {
        return 0;
    };
    let zone = r.table::<B>(s, k).quiet[ksq.index()] | r.table::<B>(s, k).capture[ksq.index()];
    let shield = (zone & pos.seat_bb[s as usize]).count() as i32;
    // An enemy piece d steps away counts 4 - d (up to three steps): once per ring it is in.
    let enemies = enemies & !pos.type_bb[k as usize];
    let near: i32 = t.near_mask[ksq.index()]
        .iter()
        .map(|&ring| (enemies & Bitboard(B::from_w256(ring))).count() as i32)
        .sum();
    t.w.king_shield * shield + t.w.king_danger * near
}

/// Fairy-Stockfish's weight of a piece bearing on the enemy king's ring
/// (`KingAttackWeights`: its knight and rook, and its fairy pieces' for the rest).
fn king_attack_weight(kind: Kind) -> i32 {
    match kind {
        Kind::Knight => 81,
        Kind::Rook => 44,
        _ => 40,
    }
}

/// Fairy-Stockfish's bonus to the king danger for a safe check by a piece of `kind`, one
/// check and more than one (`SafeCheck`, as [`king_attack_weight`]).
fn safe_check(kind: Kind, more_than_one: bool) -> i32 {
    let (one, more) = match kind {
        Kind::Knight => (803, 1292),
        Kind::Rook => (1087, 1878),
        _ => (600, 900),
    };
    if more_than_one {
        more
    } else {
        one
    }
}

/// The flank of a king on line `l` of `width` (Fairy-Stockfish's `KingFlank` on eight lines:
/// the queen's side a–d, the centre c–f, the king's side e–h, the edge lines their three
/// nearest; elsewhere the king's line and the two beside it, off the edge).
fn king_flank(l: i32, width: i32) -> (i32, i32) {
    if width == 8 {
        [
            (0, 2),
            (0, 3),
            (0, 3),
            (2, 5),
            (2, 5),
            (4, 7),
            (4, 7),
            (5, 7),
        ][l as usize]
    } else {
        let c = l.clamp(1, (width - 2).max(1));
        (c - 1, c + 1)
    }
}

/// What threatens seat `us`'s king, as Fairy-Stockfish's `Evaluation::king` counts it
/// (without the pawn shelter and storm, pins and mobility): the enemy pieces bearing on its
/// ring and their attacks beside it, ring squares held by the enemy alone, safe and unsafe
/// checks, and attacks on the king's flank, summed as its king danger and taken quadratically
/// in the middlegame. `(middlegame, endgame)`, in Fairy-Stockfish's units.
fn king_danger<B: Width>(
    t: &Tables,
    r: &ChessRules,
    pos: &Pos<B>,
    us: u8,
    attacks: &Attacks<B>,
    all_pawns: Bitboard<B>,
) -> (i32, i32) {
    let Some(ksq) = pos.king_square(r, us) else {
        return (0, 0);
    };
    let them = 1 - us;
    let (mine, theirs) = (&attacks.seats[us as usize], &attacks.seats[them as usize]);
    let own_king = mine.by_kind[3];
    // Attacked squares that only the king defends, or no piece at all.
    let weak = theirs.once & !mine.twice & (!mine.once | own_king);
    let enemy = pos.seat_bb[them as usize];
    let safe = !enemy & (!mine.once | (weak & theirs.twice));
    let mut danger = 0;
    let mut unsafe_checks = Bitboard::EMPTY;
    for ty in 0..r.pieces.len() {
        let kind = t.kind[ty];
        let Some(slot) = SeatAttacks::<B>::slot(kind).filter(|_| kind != Kind::King) else {
            continue;
        };
        if (pos.type_bb[ty] & enemy).is_empty() {
            continue;
        }
        let checks = capture_attacks(r, us, ty as u8, ksq, pos.occ) & theirs.by_kind[slot];
        if (checks & safe).any() {
            danger += safe_check(kind, (checks & safe).more_than_one());
        } else {
            unsafe_checks |= checks;
        }
    }
    let at = us as usize * 256 + ksq.index();
    let flank = Bitboard(B::from_w256(t.flank[at]));
    let flank_camp = flank & Bitboard(B::from_w256(t.camp[us as usize]));
    let attacked = theirs.once & flank_camp;
    let flank_attack = (attacked.count() + (attacked & theirs.twice).count()) as i32;
    let flank_defence = (mine.once & flank_camp).count() as i32;
    let ring = Bitboard(B::from_w256(t.king_ring[ksq.index()]));
    let no_major = (0..r.pieces.len())
        .filter(|&ty| t.majors >> ty & 1 != 0)
        .all(|ty| (pos.type_bb[ty] & enemy).is_empty());
    danger += theirs.ring_attackers * theirs.ring_weight
        + 183 * (ring & weak).count() as i32
        + 148 * unsafe_checks.count() as i32
        + 69 * theirs.king_hits
        + 3 * flank_attack * flank_attack / 8
        - 873 * i32::from(no_major)
        - 100 * i32::from((mine.by_kind[1] & own_king).any())
        - 4 * flank_defence
        + 37;
    let (mut mg, mut eg) = (0, 0);
    if danger > 100 {
        mg -= danger.min(3500) * danger / 4096;
        eg -= danger / 16;
    }
    // A king on a flank without pawns, and attacks on its flank.
    if (all_pawns & flank).is_empty() {
        mg -= 17;
        eg -= 95;
    }
    mg -= 8 * flank_attack;
    (mg, eg)
}

/// Pushing a lone (or nearly lone) king to the edge with our own king close: how won
/// endings are won, by mate, stalemate or the bare king alike.
fn mop_up<B: Width>(r: &ChessRules, pos: &Pos<B>, strong: u8, weak: u8) -> i32 {
    let (Some(ks), Some(kw)) = (pos.king_square(r, strong), pos.king_square(r, weak)) else {
        return 0;
    };
    12 * centre_distance(r.board, kw) + 4 * (7 - chebyshev(r.board, ks, kw))
}

/// The two-seat evaluation from the first seat's side: the rules' network, alone or added
/// to the hand-written evaluation as it was fitted, or the hand-written one.
/// The network's part comes from the game's accumulator `acc` where it has one, else summed
/// whole (the same value).
fn eval_two<B: Width>(
    t: &Tables,
    r: &ChessRules,
    pos: &Pos<B>,
    acc: Option<&net::Accumulator>,
) -> i32 {
    let Some(n) = t.net.as_deref() else {
        return eval_hand(t, r, pos);
    };
    let v = match acc {
        Some(acc) => acc.value(n, pos.to_move),
        None => net::value(n, r, pos),
    };
    if n.mode().adds_to_hand() {
        v + eval_hand(t, r, pos)
    } else {
        v
    }
}

/// The hand-written two-seat evaluation from the first seat's side.
fn eval_hand<B: Width>(t: &Tables, r: &ChessRules, pos: &Pos<B>) -> i32 {
    let pawns = pos.seats_pawns(t);
    let (wp_mg, wp_eg, w_guard) = pawn_structure(t, r, pos, 0, pawns[0]);
    let (bp_mg, bp_eg, b_guard) = pawn_structure(t, r, pos, 1, pawns[1]);
    let w_area = mobility_area(t, r, pos, 0, pawns[0], b_guard);
    let b_area = mobility_area(t, r, pos, 1, pawns[1], w_guard);
    // Attacks on the kings are counted only where the king danger term is.
    let aim = |s| match t.king_danger {
        0 => Aim::NONE,
        _ => Aim::at(t, r, pos, s),
    };
    let (w, w_attacks) = seat_sums(t, r, pos, 0, pawns[1], w_area, aim(1));
    let (b, b_attacks) = seat_sums(t, r, pos, 1, pawns[0], b_area, aim(0));
    let ph = phase(t, w.nonpawn + b.nonpawn);
    let mut v = w.mobility - b.mobility;
    let mut mg = w.mg - b.mg + w.material_mg - b.material_mg;
    let mut eg = w.eg - b.eg + w.material - b.material;
    let attacks = Attacks {
        seats: [w_attacks, b_attacks],
    };
    let all_pawns = pawns[0] | pawns[1];
    let (wt_mg, wt_eg) = threats(t, r, pos, 0, pawns[0], w_guard, b_guard, &attacks);
    let (bt_mg, bt_eg) = threats(t, r, pos, 1, pawns[1], b_guard, w_guard, &attacks);
    let (wr_mg, wr_eg) = rook_lines(t, r, pos, 0, pawns[0], all_pawns);
    let (br_mg, br_eg) = rook_lines(t, r, pos, 1, pawns[1], all_pawns);
    let (wq_mg, wq_eg) = push_threats(t, r, pos, 0, w_guard, &attacks);
    let (bq_mg, bq_eg) = push_threats(t, r, pos, 1, b_guard, &attacks);
    mg += wp_mg - bp_mg + wt_mg - bt_mg + wr_mg - br_mg + wq_mg - bq_mg;
    eg += wp_eg - bp_eg + wt_eg - bt_eg + wr_eg - br_eg + wq_eg - bq_eg;
    if ph > 0 {
        mg += king_safety(t, r, pos, 0, pos.seat_bb[1]) - king_safety(t, r, pos, 1, pos.seat_bb[0]);
    }
    if t.king_danger != 0 {
        let (w_mg, w_eg) = king_danger(t, r, pos, 0, &attacks, all_pawns);
        let (b_mg, b_eg) = king_danger(t, r, pos, 1, &attacks, all_pawns);
        mg += (w_mg - b_mg) * t.king_danger / 100;
        eg += (w_eg - b_eg) * t.king_danger / 100;
    }
    v += (mg * ph + eg * (256 - ph)) / 256;

    // Endings: with more on the board, trade down; against a lone king (or nearly), drive it
    // to the edge; under a bare-king rule, go for the last pieces.
    let diff = w.material - b.material;
    let total_pieces = (pos.piece_count(0) + pos.piece_count(1)) as i32;
    v += diff.clamp(-600, 600) * (t.start_pieces - total_pieces).max(0) / (4 * t.start_pieces);
    let counts = [pos.piece_count(0) as i32 - 1, pos.piece_count(1) as i32 - 1];
    for s in 0..2usize {
        let o = 1 - s;
        let sign = if s == 0 { 1 } else { -1 };
        let (mine, theirs) = ([w, b][s], [w, b][o]);
        if r.options.bare_king != BareKing::None
            && counts[o] < BARE_PUSH.len() as i32
            && counts[s] > counts[o]
        {
            v += sign * BARE_PUSH[counts[o].max(0) as usize];
        }
        if theirs.nonpawn <= FERS
            && theirs.material <= FERS + PAWN
            && mine.material - theirs.material >= 300
        {
            v += sign * mop_up(r, pos, s as u8, o as u8);
        }
    }
    v + if pos.to_move == 0 {
        t.w.tempo
    } else {
        -t.w.tempo
    }
}

impl<B: Width> Pos<B> {
    /// Seat `s`'s pieces (every kind but pawns, king included), hashed kind by kind.
    fn pieces_key(&self, t: &Tables, s: u8) -> u64 {
        let mut h = u64::from(s) + 1;
        for kind in (0..MAX_TYPES).filter(|&k| t.pawns & (1 << k) == 0) {
            let own = self.type_bb[kind] & self.seat_bb[usize::from(s)];
            if own.any() {
                h = mix_words(h ^ ((kind as u64) << 56), &own.0.to_w256().0);
            }
        }
        h.wrapping_mul(0x9e37_79b9_7f4a_7c15)
    }

    /// Each seat's pawns (two seats).
    fn seats_pawns(&self, t: &Tables) -> [Bitboard<B>; 2] {
        let all = t.pawns_of(self);
        [all & self.seat_bb[0], all & self.seat_bb[1]]
    }
}

/// Every seat's value with more than two seats: its material and position against the
/// others (its target and the seat that can capture it weigh most), what it stands to lose
/// to the seat that can capture it, and the stakes it has paid.
fn eval_many<B: Width>(
    t: &Tables,
    r: &ChessRules,
    game: &ChessGame,
    pos: &Pos<B>,
    out: &mut [i32],
) {
    let n = r.num_seats();
    let all_pawns = t.pawns_of(pos);
    let mut sums = [SeatSums::default(); MAX_SEATS];
    let mut attacks = [Bitboard::EMPTY; MAX_SEATS];
    let mut nonpawn_total = 0;
    for s in 0..n as u8 {
        if pos.is_active(s) {
            let enemy_pawns =
                all_pawns & pos.seats_bb(pos.attacker_seats(r, s) | pos.target_seats(r, s));
            let (sum, seat_attacks) =
                seat_sums(t, r, pos, s, enemy_pawns, Bitboard::FULL, Aim::NONE);
            sums[s as usize] = sum;
            attacks[s as usize] = seat_attacks.once;
            nonpawn_total += sums[s as usize].nonpawn;
        }
    }
    let ph = phase(t, nonpawn_total * 2 / n as i32);
    let mut own = [0i32; MAX_SEATS];
    for s in 0..n as u8 {
        if !pos.is_active(s) {
            continue;
        }
        let x = sums[s as usize];
        let mut v = x.material + x.mobility / 2 + (x.mg * ph + x.eg * (256 - ph)) / 256;
        if ph > 0 {
            v += king_safety(t, r, pos, s, pos.seats_bb(pos.attacker_seats(r, s))) * ph / 256;
        }
        own[s as usize] = v;
    }
    let (stakes, paid) = game.ledger();
    let mean_stake = {
        let (sum, k) = (0..n)
            .filter_map(|s| stakes[s])
            .fold((0u64, 0u64), |(a, k), x| (a + u64::from(x), k + 1));
        (sum / k.max(1)).max(1) as i64
    };
    for s in 0..n as u8 {
        let si = s as usize;
        if !pos.is_active(s) {
            out[si] = ELIMINATED
                - 1000
                    * (n as i32
                        - game.eliminated().iter().position(|&e| e == s).unwrap_or(0) as i32);
            continue;
        }
        let target = pos.next_active(n, s);
        let attacker_bits = pos.attacker_seats(r, s);
        let mut v = own[si];
        // The others, weighted: the target (whose losses are our gains) most, then the
        // seat that captures us, then the one across.
        let mut others = 0i64;
        let mut wsum = 0i64;
        for o in 0..n as u8 {
            if o == s || !pos.is_active(o) {
                continue;
            }
            let mut w = 0;
            if o == target {
                w += TARGET_WEIGHT;
            }
            if attacker_bits >> o & 1 != 0 {
                w += ATTACKER_WEIGHT;
            }
            if w == 0 {
                w = ACROSS_WEIGHT;
            }
            others += i64::from(w) * i64::from(own[o as usize]);
            wsum += i64::from(w);
        }
        if wsum > 0 {
            v -= (others / wsum) as i32;
        }
        // Closing in on the target's king.
        if let Some(tk) = pos.king_square(r, target).filter(|_| target != s) {
            let king = r.royal.map_or(Bitboard::EMPTY, |k| pos.type_bb[k as usize]);
            for p in pos.seat_bb[si] & !king & !all_pawns {
                v += TROPISM * (4 - chebyshev(r.board, p, tk)).max(0);
            }
        }
        v += CONTEMPT;
        // What the seat that captures us threatens, and what we threaten of our target.
        let mut threatened = 0;
        for a in 0..n as u8 {
            if attacker_bits >> a & 1 != 0 {
                threatened = threatened.max(best_victim(
                    t,
                    r,
                    pos,
                    attacks[a as usize] & pos.seat_bb[si],
                ));
            }
        }
        let threat = if target != s {
            best_victim(t, r, pos, attacks[si] & pos.seat_bb[target as usize])
        } else {
            0
        };
        v += threat / 4 - threatened / 3;
        if pos.in_check(r, s) {
            v -= 60;
        }
        // Stakes: what this seat has paid beyond the others' mean, in units of the stake.
        let others_paid: i64 = (0..n)
            .filter(|&o| o != si)
            .map(|o| paid[o] as i64)
            .sum::<i64>()
            / (n as i64 - 1).max(1);
        v -= ((paid[si] as i64 - others_paid) * i64::from(STAKE_CP) / mean_stake) as i32;
        out[si] = v.clamp(-libro_core::EVAL_LIMIT / 2, libro_core::EVAL_LIMIT / 2);
    }
}

/// The most valuable piece standing on `victims` (a king counts as a rook: a check).
fn best_victim<B: Width>(t: &Tables, r: &ChessRules, pos: &Pos<B>, victims: Bitboard<B>) -> i32 {
    let mut best = 0;
    for ty in 0..r.pieces.len() {
        if (pos.type_bb[ty] & victims).any() {
            let v = if t.kind[ty] == Kind::King {
                ROOK
            } else {
                t.value[ty]
            };
            best = best.max(v);
        }
    }
    best
}

/// Collects the captures and promotions among the generated legal moves.
struct TacticalSink<'a, B: Bits> {
    out: &'a mut MoveList,
    enemy: Bitboard<B>,
    /// Per type: the squares where a quiet move promotes (empty for non-pawns).
    promo: [Bitboard<B>; MAX_TYPES],
}

impl<B: Bits> Sink<B> for TacticalSink<'_, B> {
    #[inline(always)]
    fn add(&mut self, from: Square, piece: u8, targets: Bitboard<B>) {
        for to in targets & (self.enemy | self.promo[piece as usize]) {
            self.out.push(Move::new(from, to, PieceKind(piece)));
        }
    }
    fn push_move(&mut self, mv: Move) {
        if self.enemy.contains(mv.to()) || self.promo[mv.piece().index()].contains(mv.to()) {
            self.out.push(mv);
        }
    }
}

/// Whether any generated legal move captures.
struct CaptureExists<B: Bits> {
    enemy: Bitboard<B>,
    found: bool,
}

impl<B: Bits> Sink<B> for CaptureExists<B> {
    #[inline(always)]
    fn add(&mut self, _from: Square, _piece: u8, targets: Bitboard<B>) {
        self.found |= (targets & self.enemy).any();
    }
    fn push_move(&mut self, mv: Move) {
        self.found |= self.enemy.contains(mv.to());
    }
}

/// The pieces the seat to move may capture.
fn enemy<B: Width>(r: &ChessRules, pos: &Pos<B>) -> Bitboard<B> {
    pos.seats_bb(pos.target_seats(r, pos.to_move))
}

/// Whether a pawn move onto `to` by `piece` promotes (quiet moves; captures count anyway).
fn promotes<B: Width>(r: &ChessRules, pos: &Pos<B>, piece: u8, to: Square) -> bool {
    let Some(fixed) = r.pieces[piece as usize].promotes_to else {
        return false;
    };
    let p = r.promotion_type(piece, to, fixed);
    let s = pos.to_move;
    r.table::<B>(s, piece).promo_zone.contains(to)
        && (r.options.promotion == Promotion::Always
            || (pos.type_bb[p as usize] & pos.seat_bb[s as usize]).is_empty())
}

/// The squares where each type's quiet move promotes, for the seat to move.
fn promo_squares<B: Width>(r: &ChessRules, pos: &Pos<B>) -> [Bitboard<B>; MAX_TYPES] {
    let s = pos.to_move;
    let mut promo = [Bitboard::EMPTY; MAX_TYPES];
    for (t, p) in r.pieces.iter().enumerate() {
        if let Some(f) = p.promotes_to {
            if r.options.promotion == Promotion::Always
                || (pos.type_bb[f.index()] & pos.seat_bb[s as usize]).is_empty()
            {
                promo[t] = r.table::<B>(s, t as u8).promo_zone;
            }
        }
    }
    promo
}

/// Forçado: whether the seat to move must capture now (a legal capture exists).
fn capture_forced<B: Width>(r: &ChessRules, pos: &Pos<B>) -> bool {
    if r.options.forced_capture == ForcedCapture::None || pos.bets_pending > 0 {
        return false;
    }
    let mut sink = CaptureExists {
        enemy: enemy(r, pos),
        found: false,
    };
    pos.generate(r, &mut sink);
    sink.found
}

/// What a king counts for in an exchange: more than any army, so it captures last and
/// only where nothing can take it back.
const KING_IN_EXCHANGE: i32 = 50_000;

/// The static exchange on `mv`'s square with two seats: each side in turn takes back with
/// its least valuable attacker, and either may stop; the mover's net gain. Riders behind
/// a piece that has taken join in (occupancy is updated). Promotions on the way, shared
/// squares and pieces that may not take a given type are not modelled: it orders and
/// prunes, and the search plays the moves themselves.
fn exchange<B: Width>(r: &ChessRules, pos: &Pos<B>, t: &Tables, mv: Move) -> i32 {
    let (from, to) = (mv.from(), mv.to());
    let worth = |ty: usize| {
        if t.kind[ty] == Kind::King {
            KING_IN_EXCHANGE
        } else {
            t.value[ty]
        }
    };
    let mut gain = [0i32; 32];
    gain[0] = victim_value(r, pos, t, to);
    let mut occ = pos.occ.without(from);
    let mut on_square = worth(mv.piece().index());
    let mut side = 1 - pos.to_move;
    let mut d = 0;
    while d + 1 < gain.len() {
        let attackers = pos.attackers_to(r, to, occ, 1 << side) & occ;
        let Some((value, sq)) = (0..r.pieces.len())
            .filter_map(|ty| {
                (attackers & pos.type_bb[ty])
                    .first()
                    .map(|sq| (worth(ty), sq))
            })
            .min_by_key(|&(v, _)| v)
        else {
            break;
        };
        d += 1;
        gain[d] = on_square - gain[d - 1];
        occ = occ.without(sq);
        on_square = value;
        side = 1 - side;
    }
    while d > 0 {
        gain[d - 1] = -(-gain[d - 1]).max(gain[d]);
        d -= 1;
    }
    gain[0]
}

/// The value of the victims on `to` (both pieces of a shared square).
fn victim_value<B: Width>(r: &ChessRules, pos: &Pos<B>, t: &Tables, to: Square) -> i32 {
    let mut v = 0;
    for ty in 0..r.pieces.len() {
        if pos.type_bb[ty].contains(to) {
            v += t.value[ty];
        }
    }
    v
}

impl ChessGame {
    /// Forçado: whether the seat to move must capture now (a legal capture exists).
    pub(crate) fn capture_forced(&self) -> bool {
        with_pos!(self.position(), pos => capture_forced(self.rules(), pos))
    }
}

/// What the lab counts of chess play: the board's squares, the ruleset's piece types, and
/// where each move lands and whether it takes.
impl libro_core::Census for ChessGame {
    fn grid(&self) -> (u16, u16) {
        let b = self.rules().board();
        (u16::from(b.files), u16::from(b.ranks))
    }

    fn piece_types(&self) -> Vec<String> {
        self.rules()
            .pieces()
            .iter()
            .map(|p| p.name.clone())
            .collect()
    }

    fn landings(&self, mv: Move, out: &mut dyn FnMut(libro_core::Landing)) {
        if !mv.is_normal() {
            return;
        }
        let to = mv.to();
        let pos = self.position();
        let mover = pos.to_move();
        let capture = pos.seat_at(self.rules(), to).is_some_and(|s| s != mover);
        out(libro_core::Landing {
            piece: mv.piece().0,
            cell: u16::from(to.0),
            capture,
        });
    }
}

impl Heuristic for ChessGame {
    fn evaluate(&self, seat: Seat) -> i32 {
        let t = tables(self.rules());
        with_pos!(self.position(), pos => {
            if self.rules().num_seats() == 2 {
                let v = eval_two(&t, self.rules(), pos, self.accumulator());
                return if seat.0 == 0 { v } else { -v };
            }
            let mut out = [0i32; MAX_SEATS];
            eval_many(&t, self.rules(), self, pos, &mut out);
            out[seat.index()]
        })
    }

    /// Piece values only: the seat's own less the others' (their mean with more than two).
    fn material(&self, seat: Seat) -> i32 {
        let t = tables(self.rules());
        let n = self.rules().num_seats();
        let mut sums = [0i32; MAX_SEATS];
        with_pos!(self.position(), pos => {
            for (s, sum) in sums.iter_mut().enumerate().take(n) {
                for ty in 0..self.rules().pieces.len() {
                    if t.kind[ty] != Kind::King {
                        *sum += t.value[ty] * (pos.type_bb[ty] & pos.seat_bb[s]).count() as i32;
                    }
                }
            }
        });
        let mine = sums[seat.index()];
        let others: i32 = sums[..n].iter().sum::<i32>() - mine;
        mine - others / (n as i32 - 1).max(1)
    }

    fn evaluate_all(&self, out: &mut [i32]) {
        let t = tables(self.rules());
        with_pos!(self.position(), pos => {
            if self.rules().num_seats() == 2 {
                let v = eval_two(&t, self.rules(), pos, self.accumulator());
                out[0] = v;
                out[1] = -v;
                return;
            }
            let mut all = [0i32; MAX_SEATS];
            eval_many(&t, self.rules(), self, pos, &mut all);
            let n = self.rules().num_seats();
            out[..n].copy_from_slice(&all[..n]);
        })
    }

    fn is_tactical(&self, mv: Move) -> bool {
        let r = self.rules();
        mv.is_board_move()
            && with_pos!(self.position(), pos => {
                enemy(r, pos).contains(mv.to()) || promotes(r, pos, mv.piece().0, mv.to())
            })
    }

    /// Captures by MVV-LVA (a shared square's two victims together), promotions by their
    /// gain; quiet moves by their piece-square gain, and in Forçado a quiet move onto a
    /// square the opponent attacks comes first among them: it forces the opponent's hand.
    fn order_score(&self, mv: Move) -> i32 {
        if !mv.is_board_move() {
            return 0;
        }
        let t = tables(self.rules());
        let r = self.rules();
        let piece = mv.piece().index();
        let (from, to) = (mv.from(), mv.to());
        with_pos!(self.position(), pos => {
            let mut score = 0;
            if enemy(r, pos).contains(to) {
                score += 16 * victim_value(r, pos, &t, to) - t.value[piece] / 8;
            }
            if promotes(r, pos, mv.piece().0, to) {
                score += 16 * (FERS - PAWN);
            }
            if score != 0 {
                return score;
            }
            let s = pos.to_move as usize;
            let pst = &t.pst_mg[s][piece];
            score = i32::from(pst[to.index()]) - i32::from(pst[from.index()]);
            if r.options.forced_capture != ForcedCapture::None {
                let occ = pos.occ.without(from).with(to);
                let attackers = pos.attacker_seats(r, pos.to_move);
                if pos.attackers_to(r, to, occ, attackers).any() {
                    score += 200;
                }
            }
            score
        })
    }

    fn tactical_moves(&self, out: &mut MoveList) {
        out.clear();
        let r = self.rules();
        if self.is_over() || self.position().bets_pending() > 0 {
            return;
        }
        if r.options.stacking == Stacking::Ludii {
            let mut all = MoveList::new();
            self.legal_moves(&mut all);
            out.extend(all.iter().copied().filter(|&m| self.is_tactical(m)));
            return;
        }
        with_pos!(self.position(), pos => {
            let mut sink = TacticalSink {
                out,
                enemy: enemy(r, pos),
                promo: promo_squares(r, pos),
            };
            pos.generate(r, &mut sink);
            crate::forced::filter(r, pos, out);
        })
    }

    /// Captures with two seats (with more, a third seat may take part in the exchange).
    fn exchange_gain(&self, mv: Move) -> Option<i32> {
        let takes = mv.is_board_move()
            && with_pos!(self.position(), pos => enemy(self.rules(), pos).contains(mv.to()));
        takes.then(|| self.landing_exchange(mv)).flatten()
    }

    /// Every board move with two seats: a capture's exchange, or a quiet move's (what the
    /// moving piece stands to lose where it lands).
    fn landing_exchange(&self, mv: Move) -> Option<i32> {
        let r = self.rules();
        if r.num_seats() != 2 || !mv.is_board_move() {
            return None;
        }
        let t = tables(r);
        with_pos!(self.position(), pos => Some(exchange(r, pos, &t, mv)))
    }

    fn null_move(&self) -> Option<ChessGame> {
        ChessGame::null_move(self)
    }

    /// The move played on a copy of the bitboards alone: no history to copy, no end rules
    /// to settle. Unlike `in_check` of the game after it, a move that mates gives check
    /// (the search must not prune it as quiet).
    /// With more than two seats (where the search does not prune), the whole move is played.
    fn gives_check(&self, mv: Move) -> bool {
        let r = self.rules();
        if r.num_seats() != 2 {
            let mut child = self.clone();
            child.play(mv);
            return Heuristic::in_check(&child);
        }
        with_pos!(self.position(), pos => {
            let mut after = *pos;
            after.play(r, mv);
            after.in_check(r, after.to_move) || capture_forced(r, &after)
        })
    }

    /// A pawn's worth per ply, with two seats (with more, a seat's value hangs on moves
    /// among the others that a margin cannot bound).
    fn futility_margin(&self) -> Option<i32> {
        (self.rules().num_seats() == 2).then_some(PAWN)
    }

    /// Two seats only: the search scores a repetition 0, which is a draw's value for two.
    fn repeats_within(&self, plies: usize) -> bool {
        self.rules().num_seats() == 2 && ChessGame::repeats_within(self, plies)
    }

    /// Each seat's pawns, hashed together, and each seat's pieces by kind, hashed apart
    /// (two seats): the evaluation's errors follow the structure, and less so the pieces.
    fn correction_keys(&self) -> Option<CorrectionKeys> {
        let r = self.rules();
        if r.num_seats() != 2 {
            return None;
        }
        let t = tables(r);
        with_pos!(self.position(), pos => {
            let [white, black] = pos.seats_pawns(&t);
            let h = mix_words(mix_words(0, &white.0.to_w256().0), &black.0.to_w256().0);
            Some(CorrectionKeys {
                structure: h.wrapping_mul(0x9e37_79b9_7f4a_7c15),
                pieces: [0, 1].map(|s| pos.pieces_key(&t, s)),
            })
        })
    }

    /// In check, or (Forçado) bound to capture: either way the side to move may not stand
    /// on the static value, so quiescence searches every legal move and the main search
    /// extends the line (forced captures are how Forçado's sacrifices pay off).
    fn in_check(&self) -> bool {
        if self.is_over() || self.position().bets_pending() > 0 {
            return false;
        }
        self.position()
            .in_check(self.rules(), self.position().to_move())
            || self.capture_forced()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use libro_core::Ruleset;

    const W: Weights = Weights::DEFAULT;

    fn load(name: &str) -> Arc<ChessRules> {
        let path = format!("{}/../../rulesets/{name}.toml", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).expect("ruleset file");
        Arc::new(ChessRules::from_toml(&text, &path, &[]).expect("ruleset loads"))
    }

    fn game(rules: &Arc<ChessRules>, text: &str) -> ChessGame {
        rules
            .parse_position(text)
            .unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    #[test]
    fn the_start_is_even_and_two_seat_values_are_zero_sum() {
        for name in ["acedrex", "forcado", "short-assize", "shatranj"] {
            let r = load(name);
            let g = ChessGame::new(&r);
            let (w, b) = (g.evaluate(Seat(0)), g.evaluate(Seat(1)));
            assert_eq!(w, -b, "{name}");
            // The setups are mirror images: only the side to move's tempo differs.
            assert_eq!(w, W.tempo, "{name}");
        }
    }

    /// The evaluation takes each seat's attacks from its pass over the pieces for mobility;
    /// along a game they must be what the pieces attack counted on their own, and a piece
    /// that moves as it captures must reach what walking its moves reaches.
    #[test]
    fn one_pass_attacks_and_reach_are_those_worked_out_apart() {
        for name in [
            "shatranj",
            "acedrex",
            "forcado",
            "cuatro-tiempos",
            "grant-acedrex",
        ] {
            let r = load(name);
            let t = tables(&r);
            if name == "shatranj" {
                // Every shatranj piece but the pawn moves as it captures.
                for (ty, p) in r.pieces.iter().enumerate() {
                    let same = t.moves_as_captures[0] >> ty & 1 != 0;
                    assert_eq!(same, !p.is_pawn(), "{}", p.name);
                }
            }
            let mut g = ChessGame::new(&r);
            let mut moves = MoveList::new();
            for ply in 0..120usize {
                with_pos!(g.position(), pos => {
                    let empty = !pos.occ;
                    for s in 0..r.num_seats() as u8 {
                        let (_, attacks) = seat_sums(&t, &r, pos, s, Bitboard::EMPTY, Bitboard::FULL, Aim::NONE);
                        let apart = SeatAttacks::of(&t, &r, pos, s);
                        assert!(attacks.once == apart.once && attacks.twice == apart.twice, "{name} ply {ply}");
                        assert_eq!(attacks.by_kind, apart.by_kind, "{name} ply {ply}");
                        // A piece that moves as it captures reaches its attacked squares
                        // that it may enter, as walking its moves finds.
                        let capt = pos.seats_bb(pos.target_seats(&r, s));
                        for ty in 0..r.pieces.len() {
                            if t.moves_as_captures[s as usize] >> ty & 1 == 0 {
                                continue;
                            }
                            let cap = capt & !forbidden(&r, pos, ty);
                            for sq in pos.type_bb[ty] & pos.seat_bb[s as usize] {
                                let a = piece_attacks(&r, pos, s, ty as u8, sq);
                                let walked = reach(&r, pos, s, ty as u8, sq, empty, cap);
                                assert!(a & (empty | cap) == walked, "{name} ply {ply} {sq:?}");
                            }
                        }
                    }
                });
                g.legal_moves(&mut moves);
                if moves.is_empty() || g.is_over() {
                    break;
                }
                g.play(moves[(ply * 7 + 3) % moves.len()]);
            }
        }
    }

    /// A rider that goes one way only (a lance, `fR`, added to shatranj) attacks and reaches
    /// along that way alone, as its moves go: from d4, with a black pawn on d6, d5 and d6.
    #[test]
    fn a_rider_of_some_directions_attacks_and_reaches_along_those_alone() {
        let path = format!(
            "{}/../../rulesets/shatranj.toml",
            env!("CARGO_MANIFEST_DIR")
        );
        let text = std::fs::read_to_string(&path)
            .expect("ruleset file")
            .replace(
                "[pieces]\n",
                "[pieces]\nlance  = { letter = \"L\", betza = \"fR\" }\n",
            );
        let r = Arc::new(ChessRules::from_toml(&text, "lance.toml", &[]).expect("loads"));
        let lance = r.pieces.iter().position(|p| p.name == "lance").unwrap() as u8;
        let g = game(&r, "4k3/8/3p4/8/3L4/8/8/4K3 w - - 0 1");
        let sq = |name: &str| r.board.parse_square(name).unwrap();
        let (d4, d5, d6) = (sq("d4"), sq("d5"), sq("d6"));
        with_pos!(g.position(), pos => {
            let expected = Bitboard::EMPTY.with(d5).with(d6);
            assert!(piece_attacks(&r, pos, 0, lance, d4) == expected);
            let capt = pos.seats_bb(pos.target_seats(&r, 0));
            assert!(reach(&r, pos, 0, lance, d4, !pos.occ, capt) == expected);
        });
        let mut moves = MoveList::new();
        g.legal_moves(&mut moves);
        let mut to: Vec<Square> = moves
            .iter()
            .filter(|m| m.from() == d4)
            .map(|m| m.to())
            .collect();
        to.sort();
        assert_eq!(to, vec![d5, d6]);
    }

    /// The move `from`-`to` among the legal moves of `g`.
    fn find(g: &ChessGame, from: &str, to: &str) -> Move {
        let mut moves = MoveList::new();
        g.legal_moves(&mut moves);
        let b = g.rules().board();
        let (f, t) = (b.parse_square(from).unwrap(), b.parse_square(to).unwrap());
        *moves
            .iter()
            .find(|m| m.is_board_move() && m.from() == f && m.to() == t)
            .unwrap_or_else(|| panic!("{from}{to} is legal in {g}"))
    }

    #[test]
    fn exchanges_are_played_out_with_the_least_valuable_piece_first() {
        let r = load("shatranj");
        // A rook takes a pawn that a pawn guards: +100 (pawn) − 580 (rook) = −480.
        let g = game(&r, "4k3/8/2p5/3p4/8/8/8/3RK3 w - - 0 1");
        assert_eq!(g.exchange_gain(find(&g, "d1", "d5")), Some(PAWN - ROOK));
        // An unguarded knight: its value.
        let g = game(&r, "4k3/8/8/3n4/8/8/8/3RK3 w - - 0 1");
        assert_eq!(g.exchange_gain(find(&g, "d1", "d5")), Some(KNIGHT));
        // Doubled rooks against a pawn guarded by a rook behind it: R×P r×R R×R nets a
        // pawn (+100 +580 −580); the second rook joins through the first's square.
        let g = game(&r, "3rk3/8/8/3p4/8/8/3R4/3RK3 w - - 0 1");
        assert_eq!(g.exchange_gain(find(&g, "d2", "d5")), Some(PAWN));
        // The same with one rook: the guard takes back, −480.
        let g = game(&r, "3rk3/8/8/3p4/8/8/8/3RK3 w - - 0 1");
        assert_eq!(g.exchange_gain(find(&g, "d1", "d5")), Some(PAWN - ROOK));
        // Quiet moves have no exchange gain; where they land no black piece attacks d4
        // (the pawn takes on c4 and e4, and the rook stands behind it), so nothing is lost.
        assert_eq!(g.exchange_gain(find(&g, "d1", "d4")), None);
        assert_eq!(g.landing_exchange(find(&g, "d1", "d4")), Some(0));
        // A capture lands as it takes: the same exchange.
        assert_eq!(g.landing_exchange(find(&g, "d1", "d5")), Some(PAWN - ROOK));
        // The rook steps where a pawn takes it, with nothing to take back: the rook is lost.
        let g = game(&r, "4k3/8/8/4p3/8/8/8/3RK3 w - - 0 1");
        assert_eq!(g.landing_exchange(find(&g, "d1", "d4")), Some(-ROOK));
        // Guarded by an own pawn, the same step loses the rook for the pawn.
        let g = game(&r, "4k3/8/8/4p3/8/2P5/8/3RK3 w - - 0 1");
        assert_eq!(g.landing_exchange(find(&g, "d1", "d4")), Some(PAWN - ROOK));
    }

    #[test]
    fn a_move_gives_check_as_the_game_after_it_is_in_check_and_a_mate_gives_check() {
        use rand::{Rng, SeedableRng};
        // Rook to a8 mates the king on h8 behind its own pawns: the game after it is over
        // (so not "in check"), yet the move checks and must never be pruned as quiet.
        let r = load("shatranj");
        let g = game(&r, "7k/6pp/8/8/8/8/8/R5K1 w - - 0 1");
        let mate = find(&g, "a1", "a8");
        let mut after = g.clone();
        after.play(mate);
        assert!(after.is_over() && !Heuristic::in_check(&after));
        assert!(g.gives_check(mate));
        assert!(!g.gives_check(find(&g, "a1", "a7")));
        // Everywhere else the two agree, in check and in Forçado's bound captures.
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        for name in [
            "shatranj",
            "acedrex",
            "forcado",
            "short-assize",
            "short-assize-ludii",
        ] {
            let r = load(name);
            let (mut checks, mut tried) = (0, 0);
            for _ in 0..12 {
                let mut g = ChessGame::new(&r);
                for _ in 0..150 {
                    let mut moves = MoveList::new();
                    g.legal_moves(&mut moves);
                    if moves.is_empty() {
                        break;
                    }
                    for &mv in moves.iter() {
                        let mut child = g.clone();
                        child.play(mv);
                        if !child.is_over() {
                            let check = Heuristic::in_check(&child);
                            assert_eq!(g.gives_check(mv), check, "{name}: {mv:?} in {g}");
                            checks += usize::from(check);
                            tried += 1;
                        }
                    }
                    g.play(moves[rng.gen_range(0..moves.len())]);
                }
            }
            assert!(
                checks > 0 && tried > 1000,
                "{name}: {checks} checks in {tried}"
            );
        }
    }

    #[test]
    fn the_null_move_passes_only_where_passing_tests_a_position_soundly() {
        let r = load("shatranj");
        let g = game(&r, "4k3/8/8/3n4/8/8/8/3RK3 w - - 0 1");
        let passed = g.null_move().expect("a rook besides the king: a null move");
        assert_eq!(passed.position().to_move(), Seat(1));
        assert_eq!(
            passed.hash(),
            passed.recompute_hash(),
            "the hash follows the turn"
        );
        assert_eq!(
            passed.to_string().split(' ').next(),
            g.to_string().split(' ').next()
        );
        // In check from the knight on f3.
        let checked = game(&r, "4k3/8/8/8/8/5n2/8/3RK3 w - - 0 1");
        assert!(checked.null_move().is_none(), "in check");
        // King and pawns only: passing may beat every move (zugzwang).
        let pawns = game(&r, "4k3/8/8/3n4/8/8/4P3/4K3 w - - 0 1");
        assert!(pawns.null_move().is_none(), "king and pawns");
        // Forçado: bound to capture, so no pass.
        let f = load("forcado");
        let bound = game(&f, "4k3/8/8/3n4/8/8/8/3RK3 w - - 0 1");
        assert!(bound.capture_forced());
        assert!(bound.null_move().is_none(), "bound to capture");
        // Four seats: no null move.
        let c = load("cuatro-tiempos");
        assert!(ChessGame::new(&c).null_move().is_none());
    }

    #[test]
    fn pawn_structure_counts_isolated_doubled_guarded_and_phalanx_pawns() {
        let r = load("shatranj");
        // White: a2 and a3 are doubled and isolated (nothing on b); c2 guards d3; c2 and d3
        // have neighbours, and no two white pawns stand side by side. Black: f7 and g7 are a
        // phalanx of two, h6 is guarded by g7, and none is isolated or doubled.
        let g = game(&r, "4k3/5pp1/7p/8/8/P2P4/P1P5/4K3 w - - 0 1");
        let t = tables(g.rules());
        with_pos!(g.position(), pos => {
            let pawns = pos.seats_pawns(&t);
            let (mg, eg, _) = pawn_structure(&t, g.rules(), pos, 0, pawns[0]);
            assert_eq!(
                (mg, eg),
                (
                    2 * W.isolated_mg + 2 * W.doubled_mg + W.guarded_mg,
                    2 * W.isolated_eg + 2 * W.doubled_eg + W.guarded_eg
                )
            );
            let (mg, eg, _) = pawn_structure(&t, g.rules(), pos, 1, pawns[1]);
            assert_eq!(
                (mg, eg),
                (
                    2 * W.phalanx_mg + W.guarded_mg,
                    2 * W.phalanx_eg + W.guarded_eg
                )
            );
        });
    }

    #[test]
    fn the_pawn_cache_answers_as_the_structure_worked_out() {
        use rand::{Rng, SeedableRng};
        let r = load("shatranj");
        let mut g = ChessGame::new(&r);
        let t = tables(g.rules());
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        for _ in 0..300 {
            if g.turn() == libro_core::Turn::Over {
                g = ChessGame::new(&r);
            }
            with_pos!(g.position(), pos => {
                let pawns = pos.seats_pawns(&t);
                for s in 0..2u8 {
                    let worked = pawn_structure_of(&t, g.rules(), pos, s, pawns[s as usize]);
                    // Asked twice: once filling the cache (or meeting an earlier entry),
                    // once from it.
                    for _ in 0..2 {
                        let cached = pawn_structure(&t, g.rules(), pos, s, pawns[s as usize]);
                        assert_eq!((cached.0, cached.1, cached.2 .0), (worked.0, worked.1, worked.2 .0));
                    }
                }
            });
            let mut moves = MoveList::default();
            g.legal_moves(&mut moves);
            let mv = moves.as_slice()[rng.gen_range(0..moves.as_slice().len())];
            g.play(mv);
        }
    }

    #[test]
    fn the_correction_keys_follow_the_pawns_and_each_seats_pieces() {
        use rand::{Rng, SeedableRng};
        let r = load("shatranj");
        let mut g = ChessGame::new(&r);
        let t = tables(g.rules());
        // What each key should follow: both seats' pawns, and each seat's pieces by kind.
        let parts = |g: &ChessGame| {
            with_pos!(g.position(), pos => {
                let pawns = pos.seats_pawns(&t).map(|b| b.0.to_w256());
                let pieces = [0, 1].map(|s| {
                    (0..MAX_TYPES)
                        .filter(|&k| t.pawns & (1 << k) == 0)
                        .map(|k| (pos.type_bb[k] & pos.seat_bb[s]).0.to_w256())
                        .collect::<Vec<_>>()
                });
                (pawns, pieces)
            })
        };
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(9);
        let (mut kept, mut changed) = ([0; 3], [0; 3]);
        for _ in 0..400 {
            if g.turn() == libro_core::Turn::Over {
                g = ChessGame::new(&r);
            }
            let before = (parts(&g), g.correction_keys().unwrap());
            let mut moves = MoveList::default();
            g.legal_moves(&mut moves);
            let mv = moves.as_slice()[rng.gen_range(0..moves.as_slice().len())];
            g.play(mv);
            let after = (parts(&g), g.correction_keys().unwrap());
            let same = [
                before.0 .0 == after.0 .0,
                before.0 .1[0] == after.0 .1[0],
                before.0 .1[1] == after.0 .1[1],
            ];
            let keys = |k: CorrectionKeys| [k.structure, k.pieces[0], k.pieces[1]];
            for (i, (b, a)) in keys(before.1).into_iter().zip(keys(after.1)).enumerate() {
                if same[i] {
                    assert_eq!(b, a, "{mv:?} left key {i}'s part but changed the key");
                    kept[i] += 1;
                } else {
                    assert_ne!(b, a, "{mv:?} changed key {i}'s part but kept the key");
                    changed[i] += 1;
                }
            }
        }
        assert!(
            kept.iter().chain(&changed).all(|&n| n > 0),
            "{kept:?} {changed:?}"
        );
        // The two seats' pieces stand alike at the start, but their keys differ.
        let start = ChessGame::new(&r).correction_keys().unwrap();
        assert_ne!(start.pieces[0], start.pieces[1]);
        // Four seats: the search prunes on no static value, so there is nothing to correct.
        assert_eq!(
            ChessGame::new(&load("cuatro-tiempos")).correction_keys(),
            None
        );
    }

    /// Both seats' [`threats`] in the position `text`, white's first.
    fn threats_of(r: &Arc<ChessRules>, text: &str) -> [(i32, i32); 2] {
        let g = game(r, text);
        let t = tables(g.rules());
        with_pos!(g.position(), pos => {
            let pawns = pos.seats_pawns(&t);
            let (_, _, white_guard) = pawn_structure(&t, g.rules(), pos, 0, pawns[0]);
            let (_, _, black_guard) = pawn_structure(&t, g.rules(), pos, 1, pawns[1]);
            let attacks = Attacks::of(&t, g.rules(), pos);
            [
                threats(&t, g.rules(), pos, 0, pawns[0], white_guard, black_guard, &attacks),
                threats(&t, g.rules(), pos, 1, pawns[1], black_guard, white_guard, &attacks),
            ]
        })
    }

    /// The king danger of each seat's king ([`king_danger`], Fairy-Stockfish's units).
    fn king_danger_of(r: &Arc<ChessRules>, text: &str) -> [(i32, i32); 2] {
        let g = game(r, text);
        let t = tables(g.rules());
        with_pos!(g.position(), pos => {
            let pawns = pos.seats_pawns(&t);
            let seats = [0u8, 1].map(|s| {
                let aim = Aim::at(&t, g.rules(), pos, 1 - s);
                seat_sums(&t, g.rules(), pos, s, pawns[1 - s as usize], Bitboard::FULL, aim).1
            });
            let attacks = Attacks { seats };
            [0u8, 1].map(|us| king_danger(&t, g.rules(), pos, us, &attacks, pawns[0] | pawns[1]))
        })
    }

    /// Black's king on e8 with a white rook on h7 (and a black pawn on a7, a white king on a1).
    const ROOK_ON_THE_SEVENTH: &str = "4k3/p6R/8/8/8/8/8/K7 w - - 0 1";

    #[test]
    fn king_danger_counts_as_fairy_stockfish_does() {
        let r = load("shatranj");
        // Black's king on e8: its ring is the nine squares around e7 (moved in from the edge).
        // The rook on h7 attacks a7-g7 and h8, h6-h1: it bears on the ring (d7, e7, f7), one
        // attacker of weight 44, and hits three squares beside the king: 44 + 69·3 = 251.
        // Black defends d7, e7, f7 with its king alone, so those three are weak: 183·3 = 549.
        // Rook checks from e8's lines that the rook reaches: h8 (safe: Black does not attack
        // it) and e7 (defended): one safe rook check, 1087. On the king's flank (c-f) in its
        // camp (ranks 4-8) the rook attacks c7-f7, 4 squares, none twice: 3·4²/8 = 6; Black
        // defends 5 there (d7, e7, f7, d8, f8): -4·5. Shatranj has no major piece: -873.
        // 1087 + 251 + 549 + 6 - 873 - 20 + 37 = 1037: the middlegame loses 1037²/4096 = 262,
        // the endgame 1037/16 = 64; the flank has no pawn (17, 95) and is attacked four times
        // (8 each in the middlegame): (-311, -159).
        // White's king on a1: no black piece bears on its ring or checks it; it defends a2,
        // b1, b2 on its flank: -873 - 12 + 37 is no danger, and the a7 pawn is on its flank.
        assert_eq!(
            king_danger_of(&r, ROOK_ON_THE_SEVENTH),
            [(0, 0), (-311, -159)]
        );
        // The same position with colours and ranks swapped: the same two values swapped.
        assert_eq!(
            king_danger_of(&r, "k7/8/8/8/8/8/P6r/4K3 b - - 0 1"),
            [(-311, -159), (0, 0)]
        );
    }

    #[test]
    fn king_danger_counts_only_under_a_network_whose_mode_says_so() {
        let plain = load("shatranj");
        let with = |mode| {
            let zeros = vec![0.0; net::WEIGHTS];
            let bytes = net::Network::encode(&plain, mode, 100.0, &zeros);
            let n = Arc::new(net::Network::from_bytes(&bytes).expect("a network"));
            Arc::new((*plain).clone().with_network(Some(n)).expect("it fits"))
        };
        let hand = |r: &Arc<ChessRules>| {
            evaluation_parts(&game(r, ROOK_ON_THE_SEVENTH))
                .expect("two seats")
                .0
        };
        let base = hand(&plain);
        assert_eq!(hand(&with(net::Mode::Whole)), base);
        assert_eq!(hand(&with(net::Mode::Added)), base);
        // Under a network of that mode, Black's danger above counts at the weight's share
        // for White, blended by the phase (one rook left), give or take the rounding.
        let g = game(&plain, ROOK_ON_THE_SEVENTH);
        let t = tables(&plain);
        let ph = with_pos!(g.position(), pos => {
            let sums = [0u8, 1].map(|s| {
                seat_sums(&t, &plain, pos, s, Bitboard::EMPTY, Bitboard::FULL, Aim::NONE).0
            });
            phase(&t, sums[0].nonpawn + sums[1].nonpawn)
        });
        let (mg, eg) = (
            311 * W.king_danger_scale / 100,
            159 * W.king_danger_scale / 100,
        );
        let expected = base + (mg * ph + eg * (256 - ph)) / 256;
        let counted = hand(&with(net::Mode::AddedWithKingDanger));
        assert!(
            (counted - expected).abs() <= 1,
            "{counted} against {expected}"
        );
        assert!(
            counted > base + 30,
            "the term moved the value: {counted} against {base}"
        );
        // The evaluator a network is fitted with counts it when asked to.
        let fitting = Evaluator::with_king_danger(&plain, &W);
        assert_eq!(fitting.first_seat_value(&g), Some(counted));
        assert_eq!(Evaluator::new(&plain, &W).first_seat_value(&g), Some(base));
    }

    #[test]
    fn threats_count_pieces_a_pawn_attacks_and_pieces_left_hanging() {
        let r = load("shatranj");
        // The black pawn on e5 attacks the white knight on d4; the rooks on h1 and h8 attack
        // each other down the empty h-file and neither is defended (a shatranj king steps one
        // square; the knight on d4 reaches neither corner): each is hanging and attacked by a
        // rook. The knight is hanging too: nothing defends it. Kings are not counted. Both
        // seats attack h2-h7 and neither guards them with a pawn: six restricted squares
        // each.
        let restricted = 6 * W.restricted;
        assert_eq!(
            threats_of(&r, "k6r/8/8/4p3/3N4/8/8/4K2R w - - 0 1"),
            [
                (
                    W.pawn_threat_mg + 2 * W.hanging_mg + W.rook_threat_rook_mg + restricted,
                    W.pawn_threat_eg + 2 * W.hanging_eg + W.rook_threat_rook_eg + restricted
                ),
                (
                    W.hanging_mg + W.rook_threat_rook_mg + restricted,
                    W.hanging_eg + W.rook_threat_rook_eg + restricted
                )
            ]
        );
    }

    #[test]
    fn a_piece_attacked_by_a_lesser_one_is_threatened_though_defended() {
        let r = load("shatranj");
        // The black knight on b3 attacks the white rook on a1, which the king on b1 defends;
        // the black fers on b5 attacks the white knight on a4, which the rook defends up the
        // a-file. Neither black piece is attacked, and nothing hangs. Both seats attack a1,
        // c1, a4 and c5, and neither has a pawn: four restricted squares each.
        let restricted = 4 * W.restricted;
        assert_eq!(
            threats_of(&r, "7k/8/8/1f6/N7/1n6/8/RK6 w - - 0 1"),
            [
                (
                    2 * W.lesser_threat_mg + restricted,
                    2 * W.lesser_threat_eg + restricted
                ),
                (restricted, restricted)
            ]
        );
    }

    #[test]
    fn unguarded_pieces_and_pawns_attacked_by_a_rook_knight_or_king_are_threatened() {
        let r = load("shatranj");
        // The white rook on a1 attacks the black knight on a5, which nothing defends (the
        // king on h8 is far): attacked by a rook, and hanging. The knight reaches b3, b7, c4
        // and c6, none of which white attacks, so no square is restricted.
        assert_eq!(
            threats_of(&r, "7k/8/8/n7/8/8/8/R1K5 w - - 0 1"),
            [
                (0, 0),
                (
                    W.rook_threat_knight_mg + W.hanging_mg,
                    W.rook_threat_knight_eg + W.hanging_eg
                )
            ]
        );
        // The knights on d4 and c6 attack each other, neither defended. The white knight and
        // king both attack the black pawn on f5, which nothing defends: attacked by a knight
        // and by the king, and hanging. No square both seats attack.
        assert_eq!(
            threats_of(&r, "k7/8/2n3K1/5p2/3N4/8/8/8 w - - 0 1"),
            [
                (
                    W.knight_threat_knight_mg + W.hanging_mg,
                    W.knight_threat_knight_eg + W.hanging_eg
                ),
                (
                    W.knight_threat_knight_mg
                        + 2 * W.hanging_mg
                        + W.knight_threat_pawn_mg
                        + W.king_threat_mg,
                    W.knight_threat_knight_eg
                        + 2 * W.hanging_eg
                        + W.knight_threat_pawn_eg
                        + W.king_threat_eg
                )
            ]
        );
    }

    /// Fairy-Stockfish's mobility area, by hand. White: king e1, knight d4, pawns e2 (its
    /// second rank), b5 (blocked by the knight on b6) and f5 (free); black: king e8, pawn d7
    /// (guarding c6 and e6), knight b6. The knight on d4 reaches b3, b5, c2, c6, e2, e6, f3
    /// and f5; of those the area keeps b3, c2, f3 and f5 (the pawn it guards on f5 counts).
    #[test]
    fn the_mobility_area_leaves_out_enemy_pawn_squares_the_king_and_idle_pawns() {
        let r = load("shatranj");
        let t = tables(&r);
        let g = game(&r, "4k3/3p4/1n6/1P3P2/3N4/8/4P3/4K3 w - - 0 1");
        let sq = |name: &str| r.board.parse_square(name).unwrap();
        with_pos!(g.position(), pos => {
            let pawns = pos.seats_pawns(&t);
            let (_, _, w_guard) = pawn_structure(&t, &r, pos, 0, pawns[0]);
            let (_, _, b_guard) = pawn_structure(&t, &r, pos, 1, pawns[1]);
            let white = mobility_area(&t, &r, pos, 0, pawns[0], b_guard);
            for out in ["c6", "e6", "e2", "b5", "e1"] {
                assert!(!white.contains(sq(out)), "white's area leaves out {out}");
            }
            for kept in ["b3", "c2", "f3", "f5", "b6", "d7", "e8", "d4"] {
                assert!(white.contains(sq(kept)), "white's area keeps {kept}");
            }
            // Black's: its king, its pawn on its second rank, and what white's pawns guard.
            let black = mobility_area(&t, &r, pos, 1, pawns[1], w_guard);
            for out in ["e8", "d7", "a6", "c6", "e6", "g6", "d3", "f3"] {
                assert!(!black.contains(sq(out)), "black's area leaves out {out}");
            }
            assert!(black.contains(sq("c4")) && black.contains(sq("a4")));
            // The knight's four squares, by the table, against none at all.
            let (with, _) = seat_sums(&t, &r, pos, 0, pawns[1], white, Aim::NONE);
            let (without, _) = seat_sums(&t, &r, pos, 0, pawns[1], Bitboard::EMPTY, Aim::NONE);
            assert_eq!(with.mg - without.mg, KNIGHT_MOBILITY[4].0 - KNIGHT_MOBILITY[0].0);
            assert_eq!(with.eg - without.eg, KNIGHT_MOBILITY[4].1 - KNIGHT_MOBILITY[0].1);
            assert_eq!(with.mobility, without.mobility);
        });
    }

    /// Two seats value the knight and rook by Fairy-Stockfish's tables and the fers and fil
    /// by its fairy formula; four seats keep the linear count.
    #[test]
    fn mobility_rises_with_the_squares_counted_and_four_seats_count_linearly() {
        let fairy = Mobility::Fairy(W.fairy_mobility_mg, W.fairy_mobility_eg);
        for m in [
            Mobility::Table(&KNIGHT_MOBILITY),
            Mobility::Table(&ROOK_MOBILITY),
            fairy,
        ] {
            let values: Vec<(i32, i32)> = (0..=16).map(|n| m.bonus(n)).collect();
            for pair in values.windows(2) {
                assert!(
                    pair[0].0 <= pair[1].0 && pair[0].1 <= pair[1].1,
                    "{m:?}: {values:?}"
                );
            }
            // A piece that reaches nothing is worth less for it; one that reaches much, more.
            assert!(values[0].0 < 0 && values[0].1 < 0, "{m:?}");
            assert!(values[8].0 > 0 && values[8].1 > 0, "{m:?}");
        }
        // The formula crosses zero at two squares; a table's last entry holds beyond it.
        assert_eq!(fairy.bonus(2), (0, 0));
        assert_eq!(
            Mobility::Table(&KNIGHT_MOBILITY).bonus(12),
            KNIGHT_MOBILITY[8]
        );
        let t = tables(&load("shatranj"));
        assert_eq!(t.mobility[3], Mobility::Table(&KNIGHT_MOBILITY));
        assert_eq!(t.mobility[1], fairy);
        let t = tables(&load("cuatro-tiempos"));
        assert!(t.mobility.iter().all(|m| matches!(m, Mobility::Linear(_))));
    }

    #[test]
    fn a_piece_defended_twice_is_safe_and_one_attacked_twice_hangs() {
        let r = load("shatranj");
        // The black rook on d8 attacks the white knight on d4, which the rooks on d1 and a4
        // both defend: strongly protected, so neither weak nor hanging. Both seats attack
        // a8 and d4: two restricted squares each.
        let restricted = W.restricted;
        assert_eq!(
            threats_of(&r, "3r3k/8/8/8/R2N4/8/8/3R3K w - - 0 1"),
            [(2 * restricted, 2 * restricted); 2]
        );
        // Without the rook on a4 the knight is defended once and attacked once: weak, so
        // attacked by a rook, but not hanging. Only d4 is restricted.
        assert_eq!(
            threats_of(&r, "3r3k/8/8/8/3N4/8/8/3R3K w - - 0 1"),
            [
                (
                    W.rook_threat_knight_mg + restricted,
                    W.rook_threat_knight_eg + restricted
                ),
                (restricted, restricted)
            ]
        );
        // A black fers on e5 attacks it too: attacked twice, it hangs, and a lesser piece
        // attacks it.
        assert_eq!(
            threats_of(&r, "3r3k/8/8/4f3/3N4/8/8/3R3K w - - 0 1"),
            [
                (
                    W.rook_threat_knight_mg + W.hanging_mg + W.lesser_threat_mg + restricted,
                    W.rook_threat_knight_eg + W.hanging_eg + W.lesser_threat_eg + restricted
                ),
                (restricted, restricted)
            ]
        );
    }

    #[test]
    fn a_piece_a_pawn_could_attack_by_a_safe_step_is_threatened() {
        let r = load("shatranj");
        let black_threats = |text: &str| {
            let g = game(&r, text);
            let t = tables(g.rules());
            with_pos!(g.position(), pos => {
                let pawns = pos.seats_pawns(&t);
                let (_, _, guard) = pawn_structure(&t, g.rules(), pos, 1, pawns[1]);
                push_threats(&t, g.rules(), pos, 1, guard, &Attacks::of(&t, g.rules(), pos))
            })
        };
        let one = (W.push_threat_mg, W.push_threat_eg);
        // The pawn on e4 steps to e5, which nothing of black's attacks, and hits d6.
        assert_eq!(black_threats("4k3/8/3n4/8/4P3/8/8/4K3 w - - 0 1"), one);
        // A black pawn on f6 guards e5: the step is not safe.
        assert_eq!(black_threats("4k3/8/3n1p2/8/4P3/8/8/4K3 w - - 0 1"), (0, 0));
        // The rook on e7 attacks e5 and white does not ...
        assert_eq!(black_threats("4k3/4r3/3n4/8/4P3/8/8/4K3 w - - 0 1"), (0, 0));
        // ... until a knight on c4 guards it.
        assert_eq!(black_threats("4k3/4r3/3n4/8/2N1P3/8/8/4K3 w - - 0 1"), one);
    }

    #[test]
    fn king_safety_counts_its_guards_and_the_enemy_by_distance() {
        let r = load("shatranj");
        // The black king on e8 with its own pawn on f7 beside it. The white knight on d7 is one
        // step away (counts 3), the fers on g6 two (2), the rook on b5 three (1), the rook on
        // a1 farther (0); the white king on e1 is not counted.
        let g = game(&r, "4k3/3N1p2/6F1/1R6/8/8/8/R3K3 w - - 0 1");
        let t = tables(g.rules());
        with_pos!(g.position(), pos => {
            assert_eq!(
                king_safety(&t, g.rules(), pos, 1, pos.seat_bb[0]),
                W.king_shield + 6 * W.king_danger
            );
        });
    }

    #[test]
    fn rooks_earn_open_and_half_open_lines() {
        let r = load("shatranj");
        // a1: no pawn on the a-file (open); h1: only a black pawn on h7 (half-open for
        // white); h8: its own pawn on h7 (nothing).
        let g = game(&r, "1k5r/7p/8/8/8/8/8/R3K2R w - - 0 1");
        let t = tables(g.rules());
        with_pos!(g.position(), pos => {
            let pawns = pos.seats_pawns(&t);
            let all = pawns[0] | pawns[1];
            assert_eq!(
                rook_lines(&t, g.rules(), pos, 0, pawns[0], all),
                (
                    W.rook_open_mg + W.rook_half_open_mg,
                    W.rook_open_eg + W.rook_half_open_eg
                )
            );
            assert_eq!(rook_lines(&t, g.rules(), pos, 1, pawns[1], all), (0, 0));
        });
    }

    #[test]
    fn a_piece_up_evaluates_higher_by_about_its_value() {
        let r = load("acedrex");
        let full = game(
            &r,
            "rnafkanr/pppppppp/8/8/8/8/PPPPPPPP/RNAFKANR w d1d8 - 0 1",
        );
        let no_rook = game(
            &r,
            "rnafkan1/pppppppp/8/8/8/8/PPPPPPPP/RNAFKANR w d1d8 - 0 1",
        );
        let no_fil = game(
            &r,
            "rnafk1nr/pppppppp/8/8/8/8/PPPPPPPP/RNAFKANR w d1d8 - 0 1",
        );
        let no_fers = game(&r, "rna1kanr/pppppppp/8/8/8/8/PPPPPPPP/RNAFKANR w d1 - 0 1");
        let base = full.evaluate(Seat(0));
        let gain = |g: &ChessGame| g.evaluate(Seat(0)) - base;
        // Each within a pawn of the piece's value (mobility and squares move it a little).
        assert!(
            (gain(&no_rook) - ROOK).abs() < PAWN,
            "rook {}",
            gain(&no_rook)
        );
        assert!(
            (gain(&no_fil) - W.fil_eg).abs() < PAWN,
            "fil {}",
            gain(&no_fil)
        );
        assert!(
            (gain(&no_fers) - FERS).abs() < PAWN,
            "fers {}",
            gain(&no_fers)
        );
        assert!(gain(&no_fil) < gain(&no_fers) && gain(&no_fers) < gain(&no_rook));
    }

    #[test]
    fn captures_are_tactical_and_ordered_most_valuable_victim_first() {
        let r = load("acedrex");
        // The knight on d4 can take the rook on e6 or the pawn on c6, the pawn on e5 the
        // fers on d6 (the king is on g1, out of the rook's file).
        let g = game(&r, "4k3/8/2pfr3/4P3/3N4/8/8/6K1 w - x 0 1");
        let mv = |text: &str| g.parse_move(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        let (nxr, nxp, pxf, quiet) = (mv("d4e6"), mv("d4c6"), mv("e5d6"), mv("d4f3"));
        assert!(g.is_tactical(nxr) && g.is_tactical(nxp) && g.is_tactical(pxf));
        assert!(!g.is_tactical(quiet));
        assert!(g.order_score(nxr) > g.order_score(pxf));
        assert!(
            g.order_score(pxf) > g.order_score(nxp),
            "the fers before the pawn"
        );
        let mut tac = MoveList::new();
        g.tactical_moves(&mut tac);
        let mut got: Vec<Move> = tac.to_vec();
        got.sort_by_key(|m| (m.from(), m.to()));
        let mut want = vec![nxr, nxp, pxf];
        want.sort_by_key(|m| (m.from(), m.to()));
        assert_eq!(got, want);
    }

    #[test]
    fn forcado_captures_are_forced_and_quiescence_sees_them() {
        let r = load("forcado");
        // White may take the rook on a8 with the rook on a1 or the knight on c6 with the
        // knight on d4. The rook is the most powerful victim, so only Ra1xa8 is legal.
        let g = game(&r, "r3k3/8/2n5/8/3N4/8/8/R3K3 w - x 0 1");
        assert!(g.in_check(), "bound to capture counts as a threat");
        let mut tac = MoveList::new();
        g.tactical_moves(&mut tac);
        assert_eq!(tac.len(), 1);
        assert_eq!(g.move_text(tac[0]), "a1a8");
        let mut legal = MoveList::new();
        g.legal_moves(&mut legal);
        assert_eq!(
            legal.as_slice(),
            tac.as_slice(),
            "the tactical moves are all the legal moves"
        );
        // Acedrex: the same position forces nothing.
        let a = game(&load("acedrex"), "r3k3/8/2n5/8/3N4/8/8/R3K3 w - x 0 1");
        assert!(!a.in_check());
    }

    #[test]
    fn under_a_bare_king_rule_taking_the_last_pieces_is_worth_more() {
        let r = load("short-assize");
        // White: king and rook against king and one pawn, or king and two pawns.
        let one = game(&r, "4k3/4p3/8/8/8/8/8/R3K3 w - x 0 1");
        let two = game(&r, "4k3/4p3/3p4/8/8/8/8/R3K3 w - x 0 1");
        let gap = one.evaluate(Seat(0)) - two.evaluate(Seat(0));
        assert!(
            gap > PAWN,
            "one pawn fewer for black is worth more than a pawn: {gap}"
        );
    }

    #[test]
    fn in_an_ending_the_king_is_worth_most_in_the_centre_and_least_in_its_corner() {
        let r = load("shatranj");
        // A pawn each, far from the kings: only the white king's square differs. Fairy-
        // Stockfish's endgame king squares give d1 76, d4 172 and a1 1 (its units); at the
        // material's scale (0.54) 41, 92 and 0: d4 about half a pawn above d1, a1 below it.
        let at = |position: &str| game(&r, position).evaluate(Seat(0));
        let home = at("7k/7p/8/8/8/8/7P/3K4 w - - 0 1");
        let centre = at("7k/7p/8/8/3K4/8/7P/8 w - - 0 1");
        let corner = at("7k/7p/8/8/8/8/7P/K7 w - - 0 1");
        assert!(
            (40..=60).contains(&(centre - home)),
            "d4 over d1: {}",
            centre - home
        );
        assert!(
            (30..=50).contains(&(home - corner)),
            "d1 over a1: {}",
            home - corner
        );
    }

    #[test]
    fn a_lone_king_is_driven_to_the_edge() {
        let r = load("acedrex");
        let centre = game(&r, "8/8/8/4k3/8/8/8/R3K3 w - x 0 1");
        let edge = game(&r, "4k3/8/8/8/8/8/8/R3K3 w - x 0 1");
        assert!(edge.evaluate(Seat(0)) > centre.evaluate(Seat(0)));
    }

    #[test]
    fn four_seats_value_every_seat_and_the_eliminated_least() {
        let r = load("cuatro-tiempos");
        let g = ChessGame::new(&r);
        let mut all = [0; 4];
        g.evaluate_all(&mut all);
        for (s, &v) in all.iter().enumerate() {
            assert_eq!(v, g.evaluate(Seat(s as u8)));
        }
        // The start is symmetric under rotation: every seat stands alike.
        let spread = all.iter().max().unwrap() - all.iter().min().unwrap();
        assert!(spread < 40, "{all:?}");
    }
}
