//! The chess family of libro: rulesets as definition files.
//!
//! A ruleset file (TOML) declares the board, the seats, each piece in Betza notation, the
//! setup (two pieces may share a square) and the rule options with where each comes from.
//! [`ChessRules::from_toml`] checks it and builds move tables once; [`ChessGame`] plays it
//! through the [`libro_core::Game`] interface; [`Position`] is the small `Copy` value that
//! move generation and [`perft`] work on. Two seats (Acedrex, Forçado, Short Assize,
//! Shatranj) and four (Acedrex de los Cuatro Tiempos) use the same engine: each seat captures
//! only its target seat's pieces and is checked only by the seats allowed to capture it.
//!
//! # The file format
//!
//! ```toml
//! family = "chess"
//! name = "acedrex"                      # lower case, digits, hyphens
//! title = "Acedrex (Alfonso X, 1283)"
//! source = "seed 004; RULES.md fills the gaps"   # one line
//!
//! [board]
//! files = 8                             # 1 to 16 each (files a..p, ranks 1..16)
//! ranks = 8
//!
//! [[seats]]                             # in turn order
//! name = "white"
//! forward = "north"                     # where its pawns go (north south east west)
//! # across = "east"                     # where its side pawns go (four seats)
//! # letter = "w"                        # in four-seat position strings (default: initial)
//!
//! [pieces]                              # name in the game's own words = ...
//! king = { letter = "K", betza = "K", royal = true }
//! fil  = { letter = "A", betza = "A", cannot_capture = ["fil"] }
//! pawn = { letter = "P", betza = "fmWfcF", promotes_to = "fers" }
//! # "side pawn" = { ..., advance = "across" }
//!
//! [setup]                               # per seat: letter + square; a square named twice
//! white = "Ke1 Pe3 Fe3 ..."             # holds both pieces (bottom first)
//!
//! [power]                               # Forçado's order (forced_capture = "priority")
//! victims = ["rook", "knight", "fers", "fil", "pawn"]
//! capturers = ["pawn", "fil", "fers", "knight", "rook", "king"]
//!
//! [rules]                               # every option says where it comes from
//! fers_leap = { value = "straight-or-diagonal", from = "seed 004" }
//!
//! [readings.lion]                        # an option of the file's own: where the sources
//! explanation = "the lion's leaps"       # disagree on a piece, each value sets its Betza
//! value = "three-and-camel"
//! from = "Cazaux & Musser: ...; Murray: ..."
//! choices = { three-and-camel = { lion = "HC" }, three-straight = { lion = "H" } }
//! ```
//!
//! A pawn may also say `promotes_as_start = true`: it becomes the piece that stood on the
//! square it reaches at the start (`promotes_to` where that was a king or nothing).
//!
//! A leaper Betza has no letter for is written by its offsets in parentheses, `(4,1)` (Murray's
//! giraffe in Grant Acedrex), and takes modifiers as a letter does (`ff(4,1)`, `m(4,1)`); see
//! [`betza`].
//!
//! # Board sizes
//!
//! Any board from 1x1 to 16x16. The move generator is generic over the bitboard word
//! ([`Bits`]): 8x8 rulesets use `u64` with magic sliding tables, every other size [`W256`]
//! with ray scans; [`Position`] holds either and answers in the ruleset's width.
//!
//! The options (see [`options::SPECS`], and [`ChessRules::options`] for a loaded ruleset's
//! values and sources) apply by role: `fers_leap` adds first-move leaps to the piece named
//! `fers`, `pawn_double_step` a first-move double step to the pieces that promote. Any option
//! can be overridden when loading (`--option name=value`).
//!
//! # Notation
//!
//! Position strings and moves are described in [`notation`]. A position string is read into
//! a [`Setup`] (what it says, unchecked), which [`Position::from_setup`] checks against the
//! ruleset, naming what is wrong in a [`SetupError`]. Moves print in coordinate form
//! (`e2e4`, `Fe3d4` when the two pieces of a shared square could make the same move, `pass`,
//! `bet84`) and are read in coordinate or SAN-like form (`Nf3`, `exd5`, `e8=F`, `d1d3+`);
//! [`ChessGame::san`] writes the SAN-like form.
//!
//! # Ludii
//!
//! The `*-ludii` rulesets reproduce Ludii 1.3.12's encodings, and [`replay_ludii`] replays its
//! recorded playouts move for move. Short Assize needs `stacking = "ludii"`, which reproduces
//! a quirk of Ludii's stacking engine (see the `ludii_stacks` module).

pub mod betza;
mod eval;
mod forced;
mod game;
pub mod geometry;
pub mod ludii;
mod ludii_stacks;
pub mod notation;
pub mod options;
mod perft;
mod position;
mod rules;
mod setup;

pub use eval::{evaluation_parts, net, network_inputs, Evaluator, Weights};
pub use game::ChessGame;
pub use geometry::{Bitboard, Bits, Board, Square, SquareName, W256};
pub use ludii::{replay_ludii, LudiiReport, Mismatch};
pub use notation::{MoveError, PositionError};
pub use options::{OptionInfo, Options};
pub use perft::{perft, perft_divide};
pub use position::{Effects, Elimination, Move, MoveList, Position};
pub use rules::{ChessRules, PieceInfo, PieceKind, RulesetError, SeatInfo, MAX_TYPES};
pub use setup::{Placed, Setup, SetupError};

impl ChessRules {
    /// The game perft starts from: the start position, after the opening bets if the ruleset
    /// has them (each seat betting its default stake), as Ludii's four-player perft does.
    pub fn perft_start(self: &std::sync::Arc<Self>) -> ChessGame {
        ChessGame::new(self)
    }
}
