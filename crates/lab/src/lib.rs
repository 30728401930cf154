//! The reconstruction lab: judge a ruleset, and each reading of its rules, by self-play.
//!
//! A [`Study`] names a ruleset, the options set for every game and the options *varied*;
//! every combination of the varied values is a reading, and each reading plays the same
//! number of games between the same players. Each game's seed follows from the study
//! seed, its reading and its index, so the same study gives the same games whatever the
//! threads, [`Shard`]s or interruptions ([`run`]). Finished games are appended to a
//! results file as they come ([`ResultsFile`]), which a stopped run continues and which
//! [`merge`] joins across shards. A [`Report`] gives, per reading, each seat's score, the
//! draws, decisiveness, end reasons, length and branching factor (and stakes in Cuatro
//! Tiempos) with 95% intervals, and says in plain words where two readings differ
//! significantly; it prints as a table, JSON, CSV and SVG charts ([`render_charts`],
//! [`write_charts`]).

mod charts;
mod play;
mod report;
mod results;
mod stamp;
pub mod stats;
mod study;

pub use charts::{render_charts, write_charts, Chart, ChartText};
pub use play::{
    any_mover, pending, play_one, random_mover, run, GameRow, Ledger, Mover, MoverFactory,
    RandomMover, RunPlan, RunStats,
};
pub use report::{
    Duration, Finding, ReadingReport, ReasonShare, Report, SeatFigures, SeatStakes,
    DECISIVE_REASONS, HISTOGRAM_BINS,
};
pub use results::{merge, read, Line, ResultsFile};
pub use stamp::Stamp;
pub use study::{label, parse_vary, BoardShape, Reading, Shard, Study, DEFAULT_OPENING_MOVES};

use libro_core::Game;
use libro_registry::{AnyRuleset, FamilyGame, FamilyRules, Visit};
use std::sync::Arc;

/// What went wrong setting up, running or reporting a study.
#[derive(Debug, thiserror::Error)]
pub enum LabError {
    #[error("{0}: {1}")]
    Io(String, std::io::Error),
    #[error("{path}, line {line}: {message}")]
    BadLine {
        path: String,
        line: usize,
        message: String,
    },
    #[error("{path} holds another study (ruleset {}, options {:?}, vary {:?}, players {:?}, seed {}, max plies {}); use another results file", found.ruleset, found.options, found.vary, found.players, found.seed, found.max_plies)]
    OtherStudy { path: String, found: Box<Study> },
    #[error("{path} was played under another stamp: {changes}. Start afresh (--fresh) or use another results file")]
    StampChanged { path: String, changes: String },
    #[error(
        "{path}: game {index} of reading `{reading}` differs from the same game in an earlier file"
    )]
    Conflict {
        path: String,
        reading: String,
        index: u32,
    },
    #[error("no results file to merge")]
    NothingToMerge,
    #[error("--vary {0}")]
    BadVary(String),
    #[error("--shard {0}")]
    BadShard(String),
    #[error("players: {0}")]
    BadPlayers(String),
    #[error("a study needs at least one game per reading")]
    NoGames,
    /// The registry's error is part of the message (not a `source`), so it prints once.
    #[error("reading `{reading}`: {error}")]
    Ruleset {
        reading: String,
        error: libro_registry::RegistryError,
    },
    #[error("the readings load rulesets of different families")]
    MixedFamilies,
    #[error("chart {0}: {1}")]
    Chart(String, String),
}

/// The ruleset of every reading of `study`, in [`Study::readings`] order, loaded from the
/// registry (a bad option value is reported with its reading), all played with one
/// evaluation ([`libro_registry::with_one_evaluation`]).
pub fn load_readings(study: &Study) -> Result<Vec<AnyRuleset>, LabError> {
    let readings = study
        .readings()
        .iter()
        .map(|r| {
            libro_registry::load(&study.ruleset, &r.overrides).map_err(|error| LabError::Ruleset {
                reading: r.label().to_string(),
                error,
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(libro_registry::with_one_evaluation(readings))
}

/// A study of `ruleset` with its seat names filled in from the ruleset, checked: every
/// reading loads and the players fit the seats.
pub fn prepare(mut study: Study) -> Result<Study, LabError> {
    study.validate()?;
    let rules = load_readings(&study)?;
    study.seats = rules[0].seat_names();
    study.seat_players(study.seats.len())?;
    study.stamp = Stamp::new(&study, &rules);
    study.board = rules[0].visit(Shape);
    Ok(study)
}

/// Plays the pending games of a prepared study (see [`run`]), loading its readings from
/// the registry. Every kind of player plays both families.
pub fn run_study(
    study: &Study,
    plan: &RunPlan,
    on_row: &mut dyn FnMut(&GameRow),
) -> Result<RunStats, LabError> {
    let loaded = load_readings(study)?;
    libro_registry::visit_readings(
        &loaded,
        RunReadings {
            study,
            plan,
            on_row,
        },
    )
    .map_err(|_| LabError::MixedFamilies)?
}

/// The board shape of a ruleset's games.
struct Shape;

impl Visit for Shape {
    type Output = study::BoardShape;
    fn visit<R: FamilyRules>(self, rules: &[Arc<R>]) -> study::BoardShape {
        study::BoardShape::of(&rules[0].new_game(0))
    }
}

/// A study's pending games played under its readings, of whatever family they are.
struct RunReadings<'a, 'b> {
    study: &'a Study,
    plan: &'a RunPlan,
    on_row: &'a mut (dyn FnMut(&GameRow) + 'b),
}

impl Visit for RunReadings<'_, '_> {
    type Output = Result<RunStats, LabError>;
    fn visit<R: FamilyRules>(self, rules: &[Arc<R>]) -> Self::Output {
        run(
            self.study,
            rules,
            self.plan,
            &any_mover::<R::Game>,
            stakes_of::<R::Game>,
            self.on_row,
        )
    }
}

/// The stakes hook of the registry's games: the four-player game's ledger; none otherwise.
fn stakes_of<G: FamilyGame>(game: &G) -> Option<Ledger> {
    game.ledger()
}

/// The ledger hook of games without stakes.
pub fn no_ledger<G: Game>(_: &G) -> Option<Ledger> {
    None
}
