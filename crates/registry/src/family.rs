//! What a family gives the registry beyond the game interface: a description of each loaded
//! ruleset (title, options, pieces, board) and, per game, a board view, notation for people,
//! stakes and stable action ids. Front ends use these through [`crate::AnyRuleset`] and
//! [`crate::DynGame`], or generically through [`crate::Visit`], and never name a family.

use crate::view::BoardView;
use libro_chess::net::Network;
use libro_core::{Census, Ruleset, Seat};
use serde::Serialize;
use std::sync::Arc;

/// What values a rule option takes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum OptionKind {
    /// One of these words.
    Choice { values: Vec<String> },
    /// `true` or `false`.
    Bool,
    /// A whole number at least `min` (for counts, 0 switches the rule off).
    Number { min: u32 },
}

impl From<libro_core::options::OptionKind> for OptionKind {
    /// A family's declared kind (libro-core's [`rule_options!`](libro_core::rule_options)).
    fn from(kind: libro_core::options::OptionKind) -> OptionKind {
        use libro_core::options::OptionKind as Declared;
        match kind {
            Declared::Choice(values) => OptionKind::Choice {
                values: values.iter().map(|v| v.to_string()).collect(),
            },
            Declared::Bool => OptionKind::Bool,
            Declared::Number { min } => OptionKind::Number { min },
        }
    }
}

impl OptionKind {
    /// The allowed values in one line, e.g. `until-first-capture | first-move | none`.
    pub fn allowed(&self) -> String {
        match self {
            OptionKind::Choice { values } => values.join(" | "),
            OptionKind::Bool => "true | false".into(),
            OptionKind::Number { min: 0 } => "a whole number (0 = off)".into(),
            OptionKind::Number { min } => format!("a whole number, at least {min}"),
        }
    }

    /// Every value, where the option has a short list of them (choices and booleans).
    pub fn values(&self) -> Option<Vec<String>> {
        match self {
            OptionKind::Choice { values } => Some(values.clone()),
            OptionKind::Bool => Some(vec!["false".into(), "true".into()]),
            OptionKind::Number { .. } => None,
        }
    }
}

/// A rule option of a loaded ruleset: declared once by its family, valued by the file (or an
/// override).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct OptionInfo {
    pub name: String,
    /// The value in force, as it would be written in the file or on `--option`.
    pub value: String,
    pub kind: OptionKind,
    /// What the option decides, in one line.
    pub explanation: String,
    /// Where the value in force comes from (the file's `from`, or "default" / "--option").
    pub source: String,
    /// Whether it only matters with more than two seats (the four-player game's stakes).
    pub multi_seat: bool,
}

/// A piece type of a ruleset, for drawing and the rules panel.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PieceInfo {
    /// The letter it is written with (upper case; the second seat's in lower case).
    pub letter: String,
    pub name: String,
    /// Its moves in Betza notation, where the family writes them so.
    pub betza: String,
}

/// The shape of a ruleset's board: what a renderer draws.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Geometry {
    /// Squares in files and ranks (chess): square names `a1` to the last file and rank.
    Grid { files: u8, ranks: u8 },
    /// Points along a track, in tables of six (tables games), with a bar and bearing off.
    Track { points: u8 },
}

/// What a game with stakes (the four-player game) has paid and won.
#[derive(Clone, Debug, PartialEq)]
pub struct Ledger {
    /// What each seat paid into the pot.
    pub paid: Vec<f64>,
    /// Each seat's balance: what it took from the pot less what it paid.
    pub balances: Vec<f64>,
}

/// A loaded ruleset of a registered family, described for front ends.
pub trait FamilyRules: Ruleset<Game = <Self as FamilyRules>::Played> {
    /// The game type (the same as [`Ruleset::Game`]), known here to be a [`FamilyGame`].
    type Played: FamilyGame;
    /// The family's name, as ruleset files write it (`family = "chess"`).
    const FAMILY: &'static str;
    /// The full name.
    fn title(&self) -> &str;
    /// Where its rules come from, in one line.
    fn source(&self) -> &str;
    /// The rule options with their values in force.
    fn options(&self) -> Vec<OptionInfo>;
    /// The piece types (empty where all pieces are alike, as tables' checkers).
    fn pieces(&self) -> Vec<PieceInfo>;
    /// The board's shape.
    fn geometry(&self) -> Geometry;
    /// The edge of the board each seat plays from (`south`, `north`, `west`, `east`), in seat
    /// order, for renderers that turn the board to the seat's side; empty where the board is
    /// not turned that way (a track).
    fn seat_sides(&self) -> Vec<&'static str> {
        Vec::new()
    }
    /// The rules as parsed, written canonically: equal rules give equal text.
    fn canonical(&self) -> String;
    /// How many action ids its games can use: every id is below this.
    fn num_distinct_actions(&self) -> u64;
    /// The dice rolled per turn and their sides; `None` for games without dice.
    fn dice(&self) -> Option<(u8, u8)> {
        None
    }
    /// The most outcomes a chance event can have (0 for games without chance): for
    /// front ends that number chance outcomes, as OpenSpiel does.
    fn max_chance_outcomes(&self) -> usize {
        0
    }
    /// The most legal moves a position can have, where the family bounds it (tables: its
    /// move buffer); `None` where it does not.
    fn max_legal_actions(&self) -> Option<usize> {
        None
    }
    /// Whether games carry stakes set at creation (the four-player game).
    fn has_stakes(&self) -> bool {
        false
    }
    /// The start position with each seat's own stake; `None` where the ruleset has none
    /// (stakes are checked by the caller: one positive number per seat).
    fn with_stakes(self: &Arc<Self>, _stakes: &[u32]) -> Option<Self::Game> {
        None
    }
}

/// A game of a registered family: the game interface plus what front ends show.
pub trait FamilyGame: Census {
    /// The board view of this position.
    fn view(&self) -> BoardView;
    /// A move in the notation people read (SAN for chess; the standard notation otherwise).
    fn describe(&self, mv: Self::Move) -> String {
        self.move_text(mv)
    }
    /// A move's action id: stable per ruleset (the same move of the same ruleset always has
    /// the same id), below the ruleset's `num_distinct_actions`.
    fn action(&self, mv: Self::Move) -> u64;
    /// Why the seat to move must capture, where a forced-capture rule binds it now.
    fn forced_note(&self) -> Option<String> {
        None
    }
    /// The stakes of a game that has them.
    fn ledger(&self) -> Option<Ledger> {
        None
    }
    /// Which seats are still playing (four-player chess eliminates seats; elsewhere all).
    fn in_play(&self) -> Vec<bool> {
        vec![true; self.num_seats()]
    }
    /// Takes `seat` out of play as the rules eliminate a seat (for a front end's ending: a
    /// seat out of time in a game of more than two seats), the others playing on; `false`,
    /// nothing changed, where the game cannot go on without it.
    fn drop_seat(&mut self, _seat: Seat) -> bool {
        false
    }
    /// Whether `seat` could still win by some series of legal moves (`true` when unsure):
    /// a seat out of time against one that cannot loses nothing but draws.
    fn can_win(&self, _seat: Seat) -> bool {
        true
    }
    /// The moves of the seat to move as a tree of part-moves (a tables turn die by die),
    /// where a move is made of parts a player picks one by one.
    fn part_moves(&self) -> Option<serde_json::Value> {
        None
    }
    /// Counts the leaf positions `depth` plies from here (perft) and, with `divide`, each
    /// first move's count; `None` where the family does not count (games with dice).
    fn perft(&self, _depth: u32, _divide: bool) -> Option<(u64, Vec<(String, u64)>)> {
        None
    }
    /// For games with dice: the plays of the seat on roll for one roll (`Some("6-4-1")`) or
    /// for every roll (`None`), with each roll's odds.
    fn roll_plays(&self, _roll: Option<&str>) -> Result<Vec<RollPlays>, String> {
        Err("this game has no dice".into())
    }
}

/// The plays of one roll for the seat on roll.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RollPlays {
    /// The roll (`6-4-1`).
    pub roll: String,
    /// Its probability is `weight / total`.
    pub weight: u32,
    pub total: u32,
    /// One play per resulting position, in standard notation.
    pub plays: Vec<String>,
    /// Whether the roll is a falla: the dice cannot all be played, and the ruleset's falla
    /// rule makes the player lose (without that rule a roll played in part is no falla).
    pub falla: bool,
}

/// A game the UCI protocol can carry: two seats, positions as FEN, moves in the letters GUIs
/// use.
pub trait UciGame: FamilyGame {
    /// The ruleset type.
    type Rules: FamilyRules<Played = Self>;
    /// Reads a FEN in libro's letters or the GUI's.
    fn from_fen(rules: &Arc<Self::Rules>, fen: &str) -> Result<Self, String>;
    /// Reads a move in libro's notation or the GUI's (`c7c8q`).
    fn read_uci_move(&self, text: &str) -> Result<Self::Move, String>;
    /// Writes a move as GUIs read it.
    fn write_uci_move(&self, mv: Self::Move) -> String;
    /// Whether the game stands drawn by a rule the GUI referees: repetition, or too many
    /// plies without progress.
    fn is_refereed_draw(&self) -> bool;
    /// Plays on past such a draw (the GUI referees): earlier positions are forgotten and the
    /// plies without progress counted again, while the search still sees the next draw.
    fn play_on(&mut self);
    /// The shipped evaluation network fitted for `rules`, if any.
    fn shipped_network(rules: &Self::Rules) -> Option<Arc<Network>>;
    /// `rules` evaluated with `network` instead of theirs (`None`: the hand-written
    /// evaluation alone); an error naming why if the network was fitted for other rules.
    fn with_network(
        rules: &Self::Rules,
        network: Option<Arc<Network>>,
    ) -> Result<Arc<Self::Rules>, String>;
    /// The static evaluation of the position in words (for UCI's `eval`).
    fn describe_evaluation(&self) -> String;
}

/// A piece a board editor places: the square's name, the seat and the piece's letter.
#[derive(Clone, Debug, PartialEq, Eq, serde::Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Placement {
    pub square: String,
    pub seat: u8,
    pub piece: String,
}

/// Why placed pieces make no position: `problem` a stable name (`kings`, `unpromoted`,
/// `square`, `piece`, `seat`, …), `message` what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct PlaceError {
    pub problem: &'static str,
    pub message: String,
}

impl PlaceError {
    pub fn new(problem: &'static str, message: String) -> PlaceError {
        PlaceError { problem, message }
    }
}
