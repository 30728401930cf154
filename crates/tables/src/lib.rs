//! The tables family of libro: Fallas and the Libro's other tables games, each a ruleset
//! file (points, paths, setup, dice, hitting and the bar, bearing off, the falla; see
//! [`TablesRules`]). Shipped: Fallas, Todas Tablas, Emperador, Medio Emperador, Pareja de
//! Entrada, Cab e Quinal, Seys Dos e As and Buffa de Baldrac, with no code of their own.
//!
//! Turns through the [`libro_core::Game`] interface: the opening roll-off is a chance event
//! (one die each, equal dice roll again), then each turn a chance event (the dice: 56 rolls
//! of three) and the seat's move, a whole [`Play`]. The distinct plays of a roll are counted
//! once per resulting position, as gnubg counts them. A roll that cannot be played in full
//! is a falla: the game is over right after that chance event ([`Ending::Falla`]), so a seat
//! to move always has a play. Die by die, [`TurnBuilder`] builds a play for user interfaces.
//!
//! Positions are gnubg Position IDs with whose turn it is and the dice:
//! `4P8DADDg/wMAMA:roll-off`, `…:white:roll`, `…:white:6-4-1`, `…:white:falla:5-5-5`,
//! `…:white:bore-off`; the named seat is the ID's player on roll.

mod analysis;
mod board;
mod dice;
mod eval;
mod game;
mod movegen;
mod notation;
pub mod options;
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
