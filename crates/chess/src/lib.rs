//! The chess family of libro: rulesets as definition files.
//!
//! A ruleset file (TOML) declares the board, the seats, each piece in Betza notation, the
//! setup (two pieces may share a square) and the rule options with where each comes from.
//! [`ChessRules::from_toml`] checks it and builds move tables once; [`ChessGame`] plays it
//! through the [`libro_core::Game`] interface; [`Position`] is the small `Copy` value that
//! move generation and [`perft`] work on. Two seats (Acedrex, Forçado, Short Assize,
//! Shatranj) and four (Acedrex de los Cuatro Tiempos) use the same engine: each seat captures
//! only its target seat's pieces and is checked only by the seats allowed to capture it.

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

pub use game::ChessGame;
pub use geometry::{Bitboard, Board, Square};
pub use ludii::{replay_ludii, LudiiReport, Mismatch};
pub use notation::{MoveError, PositionError};
pub use options::{OptionInfo, Options};
pub use perft::{perft, perft_divide};
pub use position::{Effects, Elimination, Move, MoveList, Position};
pub use rules::{ChessRules, PieceInfo, RulesetError, SeatInfo, MAX_TYPES};

impl ChessRules {
    /// The game perft starts from: the start position, after the opening bets if the ruleset
    /// has them (each seat betting its default stake), as Ludii's four-player perft does.
    pub fn perft_start(self: &std::sync::Arc<Self>) -> ChessGame {
        ChessGame::new(self)
    }
}
