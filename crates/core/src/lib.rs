//! The shared vocabulary of libro and the one game interface every rules family implements.
//!
//! A rules family (chess, tables) implements [`Ruleset`] for its loaded definition file and
//! [`Game`] for a position of that ruleset. The AI and the front ends work only through these
//! two traits, so a new ruleset file gets perft, conformance checks, the AI and the front ends
//! without new code. The model is OpenSpiel's state API: N seats, chance nodes, copy-make.

mod census;
pub mod conformance;
mod game;
mod heuristic;
mod lazy;
mod movelist;
pub mod options;
mod outcome;
mod pgn;
mod seat;

pub use census::{Census, Landing};
pub use game::{play_text, Chance, Game, NoChance, NoChanceError, Ruleset, Turn};
pub use heuristic::{CorrectionKeys, Heuristic, EVAL_LIMIT};
pub use lazy::LazyFlag;
pub use movelist::{MoveBuffer, MoveList};
pub use outcome::{EndReason, GameResult, SeatOutcome};
pub use pgn::pgn_date;
pub use seat::{Seat, MAX_SEATS};
