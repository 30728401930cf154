//! The game interface: one trait for a ruleset (the loaded definition) and one for a game
//! position of it. Every family implements both; the AI and the front ends use nothing else.

use crate::{GameResult, MoveBuffer, Seat};
use std::error::Error;
use std::fmt::{self, Debug, Display};
use std::hash::Hash;
use std::str::FromStr;
use std::sync::Arc;

/// Whose turn it is.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Turn {
    /// A seat chooses a move.
    Seat(Seat),
    /// Chance chooses an outcome (a dice roll): see [`Game::chance_outcomes`].
    Chance,
    /// The game is over: see [`Game::result`].
    Over,
}

/// One outcome of a chance event, with its probability as `weight / total`.
///
/// Weights are exact integers so that they provably sum to the total (three dice: 56
/// unordered outcomes weighing 1, 3 or 6 out of 216).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Chance<R> {
    pub outcome: R,
    pub weight: u32,
    pub total: u32,
}

impl<R> Chance<R> {
    /// The probability of this outcome.
    pub fn probability(&self) -> f64 {
        f64::from(self.weight) / f64::from(self.total)
    }
}

/// A loaded ruleset: a definition file with its options resolved. Shared behind an `Arc` by
/// every game played under it.
pub trait Ruleset: Send + Sync + 'static {
    /// A position (with whatever history its rules need) under this ruleset.
    type Game: Game;
    /// What went wrong reading a position string.
    type PositionError: Error + Send + Sync + 'static;

    /// The ruleset's short name (`acedrex`, `fallas`, ...).
    fn name(&self) -> &str;
    /// The seats' names in seat order (`white`, `black`; `green`, `red`, ...).
    fn seat_names(&self) -> Vec<String>;
    /// The start of a new game. `seed` drives the game's own chance events (dice), so the
    /// same seed replays the same game.
    fn new_game(self: &Arc<Self>, seed: u64) -> Self::Game;
    /// Reads a position written by the game's `Display` (FEN-like for chess, a gnubg
    /// Position ID for tables), saying what is wrong and where if it cannot.
    fn parse_position(self: &Arc<Self>, text: &str) -> Result<Self::Game, Self::PositionError>;
}

/// A game position under a ruleset: the state API the search and the front ends drive.
///
/// Moves are applied in place with [`Game::play`]; to explore, clone first (copy-make).
/// `Display` writes the position string that [`Ruleset::parse_position`] reads back.
pub trait Game: Clone + Send + Sync + Display + 'static {
    /// A move of a seat.
    type Move: Copy + Eq + Hash + Debug + Send + Sync + 'static;
    /// The outcome of a chance event (a dice roll like `6-4-1`), printed and read back in
    /// records; games without chance use [`NoChance`].
    type ChanceOutcome: Copy + Eq + Debug + Display + FromStr + Send + Sync + 'static;
    /// The buffer legal moves are written into.
    type MoveList: MoveBuffer<Self::Move> + Send;
    /// What went wrong reading or playing a move.
    type MoveError: Error + Send + Sync + 'static;

    /// How many seats the game has (eliminated ones included).
    fn num_seats(&self) -> usize;

    /// Whose turn it is: a seat, chance, or nobody because the game is over.
    fn turn(&self) -> Turn;

    /// Writes the legal moves of the seat to move into `out` (clearing it first). Empty when
    /// the turn is chance or the game is over. A caller that will list the moves anyway
    /// should list them before asking the turn: a game may settle its end test from the
    /// list (chess's mate and stalemate, Fallas' falla) instead of searching twice.
    fn legal_moves(&self, out: &mut Self::MoveList);

    /// Plays a legal move of the seat to move. Playing an illegal move is a logic error: the
    /// result is unspecified (but memory-safe); check with [`Game::parse_move`] first.
    fn play(&mut self, mv: Self::Move);

    /// The outcomes of the pending chance event with their probabilities (clearing `out`
    /// first). Empty unless [`Game::turn`] is [`Turn::Chance`].
    fn chance_outcomes(&self, out: &mut Vec<Chance<Self::ChanceOutcome>>);

    /// The outcome the game's own seeded generator gives for the pending chance event.
    fn sample_chance(&self) -> Self::ChanceOutcome;

    /// Resolves the pending chance event with `outcome`: the game's own sample, or one the
    /// caller dictates (tests, replays, analysis).
    fn apply_chance(&mut self, outcome: Self::ChanceOutcome);

    /// How the game ended, once [`Game::turn`] is [`Turn::Over`].
    fn result(&self) -> Option<GameResult>;

    /// A hash of everything that decides the game from here, kept incrementally.
    fn hash(&self) -> u64;

    /// The hash computed from scratch; must equal [`Game::hash`] (checked by conformance).
    fn recompute_hash(&self) -> u64;

    /// Plies played so far (moves and chance events alike).
    fn ply(&self) -> u32;

    /// Writes a move in the family's standard notation (coordinate moves for chess,
    /// `24/21 21/15 6/5*` for tables), readable back by [`Game::parse_move`].
    fn write_move(&self, mv: Self::Move, f: &mut dyn fmt::Write) -> fmt::Result;

    /// Reads a move of the seat to move in any notation the family accepts, checking it is
    /// legal here and saying why not otherwise.
    fn parse_move(&self, text: &str) -> Result<Self::Move, Self::MoveError>;

    /// The move in standard notation, as a `String` (not for hot paths).
    fn move_text(&self, mv: Self::Move) -> String {
        let mut s = String::new();
        self.write_move(mv, &mut s)
            .expect("writing to a String cannot fail");
        s
    }

    /// The seat to move, if a seat is to move.
    fn seat_to_move(&self) -> Option<Seat> {
        match self.turn() {
            Turn::Seat(s) => Some(s),
            _ => None,
        }
    }

    /// Whether the game is over.
    fn is_over(&self) -> bool {
        self.turn() == Turn::Over
    }
}

/// The chance outcome of games that have no chance events.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum NoChance {}

impl Display for NoChance {
    fn fmt(&self, _: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {}
    }
}

/// Reading a chance outcome in a game that has none.
#[derive(Debug, thiserror::Error)]
#[error("this game has no chance events, so `{0}` cannot be one")]
pub struct NoChanceError(pub String);

impl FromStr for NoChance {
    type Err = NoChanceError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Err(NoChanceError(s.to_string()))
    }
}

/// Applies a move given in text, for front ends: parse (which checks legality), then play.
pub fn play_text<G: Game>(game: &mut G, text: &str) -> Result<G::Move, G::MoveError> {
    let mv = game.parse_move(text)?;
    game.play(mv);
    Ok(mv)
}
