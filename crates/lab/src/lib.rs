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

pub use charts::{render_charts, write_charts, Chart};
pub use play::{
    any_mover, chess_ledger, pending, play_one, random_mover, run, GameRow, Ledger, Mover,
    MoverFactory, RandomMover, RunPlan, RunStats,
};
pub use report::{
    Duration, Finding, ReadingReport, ReasonShare, Report, SeatFigures, SeatStakes,
    DECISIVE_REASONS, HISTOGRAM_BINS,
};
pub use results::{merge, read, Line, ResultsFile};
pub use stamp::Stamp;
pub use study::{label, parse_vary, BoardShape, Reading, Shard, Study, DEFAULT_OPENING_MOVES};

use libro_catalog::AnyRuleset;
use libro_core::{Game, Ruleset};
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
    /// The catalog's error is part of the message (not a `source`), so it prints once.
    #[error("reading `{reading}`: {error}")]
    Ruleset {
        reading: String,
        error: libro_catalog::CatalogError,
    },
    #[error("the readings load rulesets of different families")]
    MixedFamilies,
    #[error("chart {0}: {1}")]
    Chart(String, String),
}

/// The ruleset of every reading of `study`, in [`Study::readings`] order, loaded from the
/// catalog (a bad option value is reported with its reading).
pub fn load_readings(study: &Study) -> Result<Vec<AnyRuleset>, LabError> {
    study
        .readings()
        .iter()
        .map(|r| {
            libro_catalog::load(&study.ruleset, &r.overrides).map_err(|error| LabError::Ruleset {
                reading: r.label().to_string(),
                error,
            })
        })
        .collect()
}

/// A study of `ruleset` with its seat names filled in from the ruleset, checked: every
/// reading loads and the players fit the seats.
pub fn prepare(mut study: Study) -> Result<Study, LabError> {
    study.validate()?;
    let rules = load_readings(&study)?;
    study.seats = rules[0].seat_names();
    study.seat_players(study.seats.len())?;
    study.stamp = Stamp::new(&study, &rules);
    study.board = match &rules[0] {
        AnyRuleset::Chess(r) => study::BoardShape::of(&r.new_game(0)),
        AnyRuleset::Tables(r) => study::BoardShape::of(&r.new_game(0)),
    };
    Ok(study)
}

/// Plays the pending games of a prepared study (see [`run`]), loading its readings from
/// the catalog. Every kind of player plays both families.
pub fn run_study(
    study: &Study,
    plan: &RunPlan,
    on_row: &mut dyn FnMut(&GameRow),
) -> Result<RunStats, LabError> {
    let loaded = load_readings(study)?;
    match &loaded[0] {
        AnyRuleset::Chess(_) => {
            let rules = loaded
                .iter()
                .map(|r| match r {
                    AnyRuleset::Chess(c) => Ok(Arc::clone(c)),
                    AnyRuleset::Tables(_) => Err(LabError::MixedFamilies),
                })
                .collect::<Result<Vec<_>, _>>()?;
            run(
                study,
                &rules,
                plan,
                &any_mover::<libro_chess::ChessGame>,
                chess_ledger::<libro_chess::ChessGame>,
                on_row,
            )
        }
        AnyRuleset::Tables(_) => {
            let rules = loaded
                .iter()
                .map(|r| match r {
                    AnyRuleset::Tables(t) => Ok(Arc::clone(t)),
                    AnyRuleset::Chess(_) => Err(LabError::MixedFamilies),
                })
                .collect::<Result<Vec<_>, _>>()?;
            run(
                study,
                &rules,
                plan,
                &any_mover::<libro_tables::TablesGame>,
                no_ledger::<libro_tables::TablesGame>,
                on_row,
            )
        }
    }
}

/// The ledger hook of games without stakes.
pub fn no_ledger<G: Game>(_: &G) -> Option<Ledger> {
    None
}
