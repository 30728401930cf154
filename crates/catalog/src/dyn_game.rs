//! Games of any ruleset behind one object type, driven by text: for front ends (the web
//! server, the terminal game) that hold games of many rulesets at once. Not for hot paths:
//! search and perft use the families' own types.

use libro_core::{Chance, Game, GameResult, MoveBuffer, Seat, Turn};
use std::any::Any;

/// What went wrong playing a move or a chance outcome given as text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    #[error("the game is over")]
    GameOver,
    #[error("it is chance's turn (a roll is pending), not a seat's")]
    ChancePending,
    #[error("it is {to_move}'s turn, not {seat}'s")]
    NotYourTurn { seat: Seat, to_move: Seat },
    #[error("no roll is pending")]
    NoChancePending,
    #[error("{0}")]
    Illegal(String),
    #[error("`{0}` is not a possible outcome here")]
    BadChance(String),
}

/// A game of any ruleset, driven by text.
pub trait DynGame: Send + Sync {
    /// How many seats the game has.
    fn num_seats(&self) -> usize;
    /// Whose turn it is.
    fn turn(&self) -> Turn;
    /// Plies played (moves and chance events).
    fn ply(&self) -> u32;
    /// The position string (FEN-like for chess, a gnubg ID with turn and dice for tables).
    fn position(&self) -> String;
    /// The legal moves of the seat to move, in standard notation.
    fn legal_moves(&self) -> Vec<String>;
    /// Plays a move for `seat`, which must be the seat to move. Returns the move in standard
    /// notation. On error the game is unchanged.
    fn play(&mut self, seat: Seat, text: &str) -> Result<String, PlayError>;
    /// The pending chance event's outcomes with their probabilities.
    fn chance_outcomes(&self) -> Vec<(String, f64)>;
    /// Resolves the pending chance event with the game's own seeded sample; returns it.
    fn roll(&mut self) -> Result<String, PlayError>;
    /// Resolves the pending chance event with a dictated outcome. On error nothing changes.
    fn apply_chance(&mut self, text: &str) -> Result<String, PlayError>;
    /// How the game ended.
    fn result(&self) -> Option<GameResult>;
    /// A copy of the game.
    fn clone_box(&self) -> Box<dyn DynGame>;
    /// The family's own game type, for family-specific views (`downcast_ref`).
    fn as_any(&self) -> &dyn Any;
}

impl Clone for Box<dyn DynGame> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

impl<G: Game> DynGame for G {
    fn num_seats(&self) -> usize {
        Game::num_seats(self)
    }
    fn turn(&self) -> Turn {
        Game::turn(self)
    }
    fn ply(&self) -> u32 {
        Game::ply(self)
    }
    fn position(&self) -> String {
        self.to_string()
    }
    fn legal_moves(&self) -> Vec<String> {
        let mut moves = G::MoveList::default();
        Game::legal_moves(self, &mut moves);
        moves
            .as_slice()
            .iter()
            .map(|&m| self.move_text(m))
            .collect()
    }
    fn play(&mut self, seat: Seat, text: &str) -> Result<String, PlayError> {
        match Game::turn(self) {
            Turn::Over => return Err(PlayError::GameOver),
            Turn::Chance => return Err(PlayError::ChancePending),
            Turn::Seat(to_move) if to_move != seat => {
                return Err(PlayError::NotYourTurn { seat, to_move })
            }
            Turn::Seat(_) => {}
        }
        let mv = self
            .parse_move(text)
            .map_err(|e| PlayError::Illegal(e.to_string()))?;
        let canonical = self.move_text(mv);
        Game::play(self, mv);
        Ok(canonical)
    }
    fn chance_outcomes(&self) -> Vec<(String, f64)> {
        let mut out: Vec<Chance<G::ChanceOutcome>> = Vec::new();
        Game::chance_outcomes(self, &mut out);
        out.iter()
            .map(|c| (c.outcome.to_string(), c.probability()))
            .collect()
    }
    fn roll(&mut self) -> Result<String, PlayError> {
        if Game::turn(self) != Turn::Chance {
            return Err(PlayError::NoChancePending);
        }
        let outcome = self.sample_chance();
        Game::apply_chance(self, outcome);
        Ok(outcome.to_string())
    }
    fn apply_chance(&mut self, text: &str) -> Result<String, PlayError> {
        if Game::turn(self) != Turn::Chance {
            return Err(PlayError::NoChancePending);
        }
        let mut out: Vec<Chance<G::ChanceOutcome>> = Vec::new();
        Game::chance_outcomes(self, &mut out);
        let outcome = text
            .parse::<G::ChanceOutcome>()
            .ok()
            .filter(|o| out.iter().any(|c| c.outcome == *o))
            .ok_or_else(|| PlayError::BadChance(text.to_string()))?;
        Game::apply_chance(self, outcome);
        Ok(outcome.to_string())
    }
    fn result(&self) -> Option<GameResult> {
        Game::result(self)
    }
    fn clone_box(&self) -> Box<dyn DynGame> {
        Box::new(self.clone())
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}
