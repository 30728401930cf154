//! The tables family of libro: Fallas and the Libro's other tables games, each a ruleset
//! file (points, paths, setup, dice, hitting and the bar, bearing off, the falla).
//!
//! A turn is a chance event (the dice) and then one move, a whole [`Play`]; the distinct
//! plays of a roll are counted once per resulting position, as gnubg counts them. Positions
//! are gnubg Position IDs with whose turn it is and the dice: `4P8DADDg/wMAMA:white:6-4-1`.

mod analysis;
mod board;
mod dice;
mod eval;
mod game;
mod movegen;
mod notation;
mod rules;
mod turn;

pub use analysis::{AnalysisError, FallaOdds, RollPlays, RollSummary};
pub use board::{Board, IdError};
pub use dice::{all_rolls, Dice, DiceError, DiceStream, TablesChance, MAX_DICE, MAX_SIDES};
pub use game::{Ending, Phase, PositionError, TablesGame};
pub use movegen::{generate_plays, Illegal, PlayList, MAX_PLAYS};
pub use notation::{NotationError, Play, Step, BAR, OFF};
pub use rules::{BearOff, RuleOption, RulesetError, TablesRules, MAX_CHECKERS, POINTS};
pub use turn::{DieStep, MoveError, TurnBuilder};
