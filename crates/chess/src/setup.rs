//! The setup: what a position string (or a caller) says stands where, whose turn it is and
//! the game's counters and flags, before anything is checked against the ruleset.
//! [`Position::from_setup`] checks it and answers a [`SetupError`] naming exactly what is
//! wrong (shakmaty's `Setup` -> `Position` split): the notation reads text into a `Setup`
//! and refuses only what is not well-formed text.

use crate::geometry::{Bitboard, Square};
use crate::notation::Extras;
use crate::options::{KingCapture, Promotion, Stacking};
use crate::position::{Pos, Position};
use crate::rules::{ChessRules, PieceKind, Width, MAX_SEATS};
use libro_core::Seat;

/// One piece of a setup: its seat, its type and its square.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Placed {
    pub seat: Seat,
    pub piece: PieceKind,
    pub square: Square,
}

/// A position as written down, unchecked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The pieces, in any order; a square named twice holds both pieces, the first named at
    /// the bottom (a shared square).
    pub pieces: Vec<Placed>,
    /// The seat to move.
    pub to_move: Seat,
    /// Squares of pieces that have not moved and keep a first-move right (pawns' rights come
    /// from their starting squares and are not listed).
    pub unmoved: Vec<Square>,
    /// Whether any capture has been made in the game.
    pub captured: bool,
    /// Plies since the last capture or pawn move.
    pub halfmove: u16,
    /// Plies since the game's start.
    pub ply: u32,
    /// Consecutive passes just played.
    pub passes: u8,
    /// Ludii's stacking: squares holding an ownerless marker.
    pub ghosts: Vec<Square>,
    /// Ludii's stacking: each seat's phantom pawns, one list per seat (none given: empty).
    pub phantoms: Vec<Vec<Square>>,
    /// More than two seats: each seat's stake, `None` while its bet is still to come.
    pub stakes: Vec<Option<u32>>,
    /// More than two seats: what each seat has paid into the pot (none given: empty).
    pub paid: Vec<u64>,
    /// Seats in the order they left the game.
    pub out: Vec<Seat>,
    /// A draw the board cannot show (`repetition`).
    pub over: Option<String>,
}

/// What makes a setup impossible under its ruleset.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    #[error("square {index} is off the {files}x{ranks} board")]
    OffBoard { index: u8, files: u8, ranks: u8 },
    #[error("there is no seat {}: the game has {seats}", seat.0)]
    NoSuchSeat { seat: Seat, seats: usize },
    #[error("there is no piece type {}: the ruleset has {types}", piece.0)]
    NoSuchPiece { piece: PieceKind, types: usize },
    #[error("{square} holds pieces of two seats")]
    TwoSeatsOnSquare { square: String },
    #[error("{square} holds two {piece}s (a shared square holds two different pieces)")]
    SamePieceTwice { square: String, piece: String },
    #[error("{square} holds more than two pieces")]
    Crowded { square: String },
    #[error("`{field}` lists {given} values for {seats} seats")]
    SeatCount {
        field: &'static str,
        given: usize,
        seats: usize,
    },
    #[error("seat `{seat}` is listed twice as out")]
    OutTwice { seat: String },
    #[error("seat `{seat}` is out but still has pieces")]
    OutWithPieces { seat: String },
    #[error("seat `{seat}` has no pieces but is not listed as out")]
    NoPieces { seat: String },
    #[error("the seat to move is out")]
    MoverOut,
    #[error("a position with more than two seats needs `stakes:`")]
    NoStakes,
    #[error("a stake must be at least 1")]
    ZeroStake,
    #[error("stakes still to be bet must be the last seats', and that seat must be to move")]
    StakesOutOfTurn,
    #[error("`{field}` belongs to games of more than two seats")]
    NotManySeats { field: &'static str },
    #[error("`{field}` belongs to Ludii's stacking, which this ruleset does not use")]
    NotStacking { field: &'static str },
    #[error("seat `{seat}` has {kings} kings")]
    Kings { seat: String, kings: u32 },
    #[error("a {piece} of `{seat}` stands unpromoted on its last line")]
    Unpromoted { piece: String, seat: String },
    #[error("`{seat}` is not to move but is in check")]
    OpponentInCheck { seat: String },
    #[error("unmoved square {square} is empty")]
    UnmovedEmpty { square: String },
    #[error("unmoved square {square} holds a piece without a first-move right")]
    UnmovedWithoutRight { square: String },
}

/// An empty board, the first seat to move, every counter at zero.
impl Default for Setup {
    fn default() -> Setup {
        Setup {
            pieces: Vec::new(),
            to_move: Seat(0),
            unmoved: Vec::new(),
            captured: false,
            halfmove: 0,
            ply: 0,
            passes: 0,
            ghosts: Vec::new(),
            phantoms: Vec::new(),
            stakes: Vec::new(),
            paid: Vec::new(),
            out: Vec::new(),
            over: None,
        }
    }
}

impl Setup {
    /// The game-level parts (money, elimination order, a recorded end) as a game keeps them.
    pub fn extras(&self) -> Extras {
        let mut extras = Extras {
            out: self.out.iter().map(|s| s.0).collect(),
            over: self.over.clone(),
            ..Extras::default()
        };
        for (s, stake) in self.stakes.iter().take(MAX_SEATS).enumerate() {
            extras.stakes[s] = *stake;
        }
        for (s, paid) in self.paid.iter().take(MAX_SEATS).enumerate() {
            extras.paid[s] = *paid;
        }
        extras
    }
}

impl Position {
    /// The setup this position is, with the game-level parts from `extras`: what
    /// [`Position::from_setup`] turns back into this position.
    pub fn to_setup(&self, r: &ChessRules, extras: &Extras) -> Setup {
        crate::position::with_pos!(self, p => p.setup(r, extras))
    }

    /// Checks `setup` against the ruleset and builds the position (hash included).
    pub fn from_setup(r: &ChessRules, setup: &Setup) -> Result<Position, SetupError> {
        Ok(if r.is_wide() {
            Pos::<crate::W256>::from_checked_setup(r, setup)?.into()
        } else {
            Pos::<u64>::from_checked_setup(r, setup)?.into()
        })
    }
}

impl<B: Width> Pos<B> {
    /// [`Position::to_setup`] in width `B`: squares from a1 up, a shared square's pawn first
    /// (at the bottom, as set up).
    pub(crate) fn setup(&self, r: &ChessRules, extras: &Extras) -> Setup {
        let n = r.num_seats();
        let mut pieces = Vec::new();
        for square in self.occ {
            let seat = self.seat_at(r, square).unwrap_or(0);
            let mut types: Vec<u8> = (0..r.pieces.len() as u8)
                .filter(|&t| self.type_bb[t as usize].contains(square))
                .collect();
            types.sort_by_key(|&t| (!r.pieces[t as usize].is_pawn(), t));
            pieces.extend(types.into_iter().map(|t| Placed {
                seat: Seat(seat),
                piece: PieceKind(t),
                square,
            }));
        }
        let many = n > 2;
        Setup {
            pieces,
            to_move: Seat(self.to_move),
            unmoved: self.unmoved.collect(),
            captured: self.captured,
            halfmove: self.halfmove,
            ply: self.ply,
            passes: self.passes,
            ghosts: self.ghost.collect(),
            phantoms: if self.phantom.iter().any(|p| p.any()) {
                self.phantom.iter().map(|p| p.collect()).collect()
            } else {
                Vec::new()
            },
            stakes: if many {
                extras.stakes[..n].to_vec()
            } else {
                Vec::new()
            },
            paid: if many {
                extras.paid[..n].to_vec()
            } else {
                Vec::new()
            },
            out: extras.out.iter().map(|&s| Seat(s)).collect(),
            over: extras.over.clone(),
        }
    }

    /// [`Position::from_setup`] in width `B`. The checks come in the order a reader would
    /// make them: what is on the board, the seats in and out, the money, then the rules.
    pub(crate) fn from_checked_setup(r: &ChessRules, setup: &Setup) -> Result<Pos<B>, SetupError> {
        let n = r.num_seats();
        let seat_name = |s: u8| r.seats[s as usize].name.clone();
        let square = |sq: Square| -> Result<Square, SetupError> {
            if sq.index() < r.board.squares() {
                Ok(sq)
            } else {
                Err(SetupError::OffBoard {
                    index: sq.0,
                    files: r.board.files,
                    ranks: r.board.ranks,
                })
            }
        };
        let seat = |s: Seat| -> Result<u8, SetupError> {
            if s.index() < n {
                Ok(s.0)
            } else {
                Err(SetupError::NoSuchSeat { seat: s, seats: n })
            }
        };
        let mut pos = Pos::<B>::empty();
        for p in &setup.pieces {
            let (s, sq) = (seat(p.seat)?, square(p.square)?);
            let t = p.piece.0;
            if p.piece.index() >= r.pieces.len() {
                return Err(SetupError::NoSuchPiece {
                    piece: p.piece,
                    types: r.pieces.len(),
                });
            }
            if pos.occ.contains(sq) {
                let name = r.board.name(sq).to_string();
                if pos.stacked.contains(sq) {
                    return Err(SetupError::Crowded { square: name });
                }
                if !pos.seat_bb[s as usize].contains(sq) {
                    return Err(SetupError::TwoSeatsOnSquare { square: name });
                }
                if pos.type_bb[p.piece.index()].contains(sq) {
                    return Err(SetupError::SamePieceTwice {
                        square: name,
                        piece: r.pieces[p.piece.index()].name.clone(),
                    });
                }
            }
            pos.put(s, t, sq);
        }
        pos.to_move = seat(setup.to_move)?;
        for &sq in &setup.unmoved {
            let sq = square(sq)?;
            if !pos.occ.contains(sq) {
                return Err(SetupError::UnmovedEmpty {
                    square: r.board.name(sq).to_string(),
                });
            }
            pos.unmoved = pos.unmoved.with(sq);
        }
        pos.captured = setup.captured;
        pos.halfmove = setup.halfmove;
        pos.ply = setup.ply;
        pos.passes = setup.passes;
        let ludii = r.options.stacking == Stacking::Ludii;
        if !setup.ghosts.is_empty() && !ludii {
            return Err(SetupError::NotStacking { field: "ghosts" });
        }
        for &sq in &setup.ghosts {
            pos.ghost = pos.ghost.with(square(sq)?);
        }
        if !setup.phantoms.is_empty() {
            if !ludii {
                return Err(SetupError::NotStacking { field: "phantoms" });
            }
            // Ludii's stacking is reproduced for two seats only (the loader sees to it).
            if setup.phantoms.len() != pos.phantom.len() {
                return Err(SetupError::SeatCount {
                    field: "phantoms",
                    given: setup.phantoms.len(),
                    seats: n,
                });
            }
            for (s, squares) in setup.phantoms.iter().enumerate() {
                for &sq in squares {
                    pos.phantom[s] = pos.phantom[s].with(square(sq)?);
                }
            }
        }
        pos.active = 0;
        for (i, &s) in setup.out.iter().enumerate() {
            seat(s)?;
            if setup.out[..i].contains(&s) {
                return Err(SetupError::OutTwice {
                    seat: seat_name(s.0),
                });
            }
        }
        for s in 0..n as u8 {
            let out = setup.out.contains(&Seat(s));
            let has = pos.seat_bb[s as usize].any();
            if out && has {
                return Err(SetupError::OutWithPieces { seat: seat_name(s) });
            }
            if !out && !has {
                return Err(SetupError::NoPieces { seat: seat_name(s) });
            }
            if !out {
                pos.active |= 1 << s;
            }
        }
        if !pos.is_active(pos.to_move) && pos.active_count() > 1 {
            return Err(SetupError::MoverOut);
        }
        pos.bets_pending = bets_pending(r, setup, pos.to_move)?;
        check_rules(r, &pos)?;
        for sq in pos.unmoved {
            // Pawns' first-move rights come from their starting squares, not from this list.
            let t = (0..r.pieces.len())
                .find(|&t| pos.type_bb[t].contains(sq))
                .unwrap_or(0);
            if r.pieces[t].is_pawn() || r.extra_types >> t & 1 == 0 {
                return Err(SetupError::UnmovedWithoutRight {
                    square: r.board.name(sq).to_string(),
                });
            }
        }
        pos.hash = pos.compute_hash(r);
        Ok(pos)
    }
}

/// The number of seats still to bet: more than two seats need stakes, one per seat, and
/// only the last seats' may still be to come, the first of them to move.
fn bets_pending(r: &ChessRules, setup: &Setup, to_move: u8) -> Result<u8, SetupError> {
    let n = r.num_seats();
    for (field, given) in [("stakes", setup.stakes.len()), ("paid", setup.paid.len())] {
        if given != 0 && given != n {
            return Err(SetupError::SeatCount {
                field,
                given,
                seats: n,
            });
        }
    }
    if n == 2 {
        let given = [
            ("stakes", !setup.stakes.is_empty()),
            ("paid", !setup.paid.is_empty()),
            ("out", !setup.out.is_empty()),
        ];
        return match given.into_iter().find(|g| g.1) {
            Some((field, _)) => Err(SetupError::NotManySeats { field }),
            None => Ok(0),
        };
    }
    if setup.stakes.is_empty() {
        return Err(SetupError::NoStakes);
    }
    if setup.stakes.contains(&Some(0)) && !r.options.bets {
        return Err(SetupError::ZeroStake);
    }
    let pending = setup.stakes.iter().filter(|s| s.is_none()).count();
    if pending > 0
        && (!r.options.bets
            || setup.stakes[..n - pending].iter().any(|s| s.is_none())
            || usize::from(to_move) != n - pending)
    {
        return Err(SetupError::StakesOutOfTurn);
    }
    Ok(pending as u8)
}

/// What the rules forbid on a board: a seat with two kings (or none where the king's
/// capture eliminates), an unpromoted pawn on its last line where promotion is never
/// refused, the seat not to move in check (two seats).
fn check_rules<B: Width>(r: &ChessRules, pos: &Pos<B>) -> Result<(), SetupError> {
    let n = r.num_seats();
    if let Some(k) = r.royal {
        for s in 0..n {
            let kings = (pos.type_bb[k as usize] & pos.seat_bb[s]).count();
            let needs_one =
                pos.is_active(s as u8) && r.options.king_capture == KingCapture::Eliminates;
            if kings > 1 || (needs_one && kings != 1) {
                return Err(SetupError::Kings {
                    seat: r.seats[s].name.clone(),
                    kings,
                });
            }
        }
    }
    if r.options.promotion == Promotion::Always && r.options.promote_on_capture {
        for s in 0..n as u8 {
            for t in 0..r.pieces.len() as u8 {
                let on_last: Bitboard<B> = pos.type_bb[t as usize]
                    & pos.seat_bb[s as usize]
                    & r.table::<B>(s, t).promo_zone;
                if r.pieces[t as usize].is_pawn() && on_last.any() {
                    return Err(SetupError::Unpromoted {
                        piece: r.pieces[t as usize].name.clone(),
                        seat: r.seats[s as usize].name.clone(),
                    });
                }
            }
        }
    }
    if n == 2 && pos.in_check(r, 1 - pos.to_move) {
        return Err(SetupError::OpponentInCheck {
            seat: r.seats[1 - pos.to_move as usize].name.clone(),
        });
    }
    Ok(())
}
