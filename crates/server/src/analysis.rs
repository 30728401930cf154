//! The analysis board: any position of any ruleset, moves played freely for whichever seat
//! is to move, and the engine's analysis streamed over a WebSocket. A position with a seat
//! to move is searched by iterative deepening (each finished depth: the value and the best
//! line); a position waiting for dice lists every roll with its odds, whether it is a falla
//! (the dice cannot all be played) and its best play, deeper pass by pass, and the equity.
//! Every analysis runs on the AI pool, within the ceilings of [`crate::limits`], and stops
//! when its socket closes or asks about another position.

use crate::limits::{ANALYSIS_HASH_MB, ANALYSIS_MAX_DEPTH, ANALYSIS_ROLLS_MAX_DEPTH};
use crate::record;
use libro_ai::{Control, Limits as SearchLimits, Score};
use libro_core::{GameResult, Turn};
use libro_registry::{AnyRuleset, BoardView, DynGame, Line};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// What is wrong with a request to the analysis board.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AnalysisError {
    #[error("ruleset: {0}")]
    Ruleset(String),
    #[error("position `{text}` cannot be read: {reason}")]
    Position { text: String, reason: String },
    #[error("move `{text}` cannot be played here: {reason}")]
    Move { text: String, reason: String },
    #[error("options: `{0}` is not KEY=VALUE")]
    Option(String),
    #[error("{0}")]
    Nothing(String),
}

/// A position to set up: a shipped ruleset with rule options, and a position string (the
/// ruleset's start position if none).
#[derive(Clone, Debug, Default, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setup {
    pub ruleset: String,
    #[serde(default)]
    pub options: BTreeMap<String, String>,
    #[serde(default)]
    pub position: Option<String>,
}

/// Reads rule options written `KEY=VALUE,KEY=VALUE` (as the page's address carries them).
pub fn parse_options(text: &str) -> Result<BTreeMap<String, String>, AnalysisError> {
    text.split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|kv| match kv.split_once('=') {
            Some((k, v)) if !k.trim().is_empty() => {
                Ok((k.trim().to_string(), v.trim().to_string()))
            }
            _ => Err(AnalysisError::Option(kv.chars().take(60).collect())),
        })
        .collect()
}

impl Setup {
    /// The ruleset and the position, each error naming what is wrong.
    pub fn load(&self) -> Result<(AnyRuleset, Box<dyn DynGame>), AnalysisError> {
        let name = &self.ruleset;
        if name.is_empty() || name.contains(['/', '\\', '.']) {
            return Err(AnalysisError::Ruleset(format!(
                "`{}` is not a shipped ruleset name",
                name.chars().take(60).collect::<String>()
            )));
        }
        let options: Vec<(String, String)> = self.options.clone().into_iter().collect();
        let rules = record::load_cached(name, &options).map_err(|e| match e {
            record::RecordError::Ruleset(m) => AnalysisError::Ruleset(m),
            other => AnalysisError::Ruleset(other.to_string()),
        })?;
        let game = match self.position.as_deref().map(str::trim) {
            None | Some("") => rules.new_game(0),
            Some(text) => rules
                .parse_position(text)
                .map_err(|e| AnalysisError::Position {
                    text: text.chars().take(120).collect(),
                    reason: e.to_string(),
                })?,
        };
        Ok((rules, game))
    }
}

/// Plays `text` in `game` for whoever is to move: a seat's move, or the outcome of a
/// pending chance event (a roll, `6-4-1`). Answers the move as written and as people read
/// it; on error the game is unchanged.
pub fn play(game: &mut dyn DynGame, text: &str) -> Result<(String, String), AnalysisError> {
    let err = |reason: String| AnalysisError::Move {
        text: text.chars().take(60).collect(),
        reason,
    };
    match game.turn() {
        Turn::Over => Err(err("the game is over".into())),
        Turn::Chance => {
            let roll = game.apply_chance(text).map_err(|e| err(e.to_string()))?;
            Ok((roll.clone(), roll))
        }
        Turn::Seat(seat) => {
            let san = game.describe(text).map_err(|e| err(e.to_string()))?;
            let played = game.play(seat, text).map_err(|e| err(e.to_string()))?;
            Ok((played, san))
        }
    }
}

/// A result for the page: its reason, in words, the winner and each seat's score.
pub fn result_json(result: Option<GameResult>) -> Value {
    match result {
        Some(r) => json!({
            "reason": r.reason.name(),
            "describe": r.reason.describe(),
            "winner": r.winner().map(|s| s.0),
            "seats": r.seats.iter().map(|s| json!({"rank": s.rank, "score": s.score})).collect::<Vec<_>>(),
        }),
        None => Value::Null,
    }
}

/// What the board shows of a position: the board view, whose turn, what may be played
/// (moves, the part-moves of a turn, the outcomes of a pending chance event), the result.
pub fn state(rules: &AnyRuleset, game: &dyn DynGame) -> Value {
    let turn = match game.turn() {
        Turn::Seat(s) => json!({"kind": "seat", "seat": s.0}),
        Turn::Chance => json!({"kind": "chance"}),
        Turn::Over => json!({"kind": "over"}),
    };
    let mut v = json!({
        "ruleset": rules.name(),
        "title": rules.title(),
        "seats": rules.seat_names(),
        "position": game.position(),
        "view": game.view(),
        "turn": turn,
        "legal": [],
        "steps": null,
        "forced": null,
        "chance": [],
        "result": result_json(game.result()),
    });
    match game.turn() {
        Turn::Seat(_) => {
            v["legal"] = json!(game.legal_moves());
            v["steps"] = json!(game.part_moves());
            v["forced"] = json!(game.forced_note());
        }
        Turn::Chance => {
            v["chance"] = game
                .chance_outcomes()
                .into_iter()
                .map(|(o, p)| json!({"outcome": o, "probability": p}))
                .collect();
        }
        Turn::Over => {}
    }
    v
}

/// A line as the page reads it: the score, the equity where the game has one (the score
/// over the value of a won game), the moves.
fn line_json(job: u64, line: &Line, win: Option<i32>) -> Value {
    json!({
        "type": "line",
        "job": job,
        "depth": line.depth,
        "seldepth": line.seldepth,
        "score": line.score,
        "equity": equity_of(line.score, win),
        "nodes": line.nodes,
        "time_ms": line.time_ms,
        "pv": line.moves,
        "san": line.described,
    })
}

/// A score as an equity (-1 to 1), for games whose evaluation is on the scale of a game.
fn equity_of(score: Score, win: Option<i32>) -> Option<f64> {
    let w = f64::from(win?);
    Some(match score {
        Score::Cp(v) => (f64::from(v) / w).clamp(-1.0, 1.0),
        Score::Mate(n) if n > 0 => 1.0,
        Score::Mate(_) => -1.0,
    })
}

/// How an analysis ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The depth ceiling or the end of the game was reached.
    Complete,
    /// Its socket asked about another position, closed, or the time ceiling passed.
    Stopped,
}

/// Analyses `game` until done or `stop` is set, sending each report to `out` (JSON
/// messages tagged with `job`). Runs on a blocking thread of the AI pool.
pub fn run(
    job: u64,
    game: &dyn DynGame,
    hash_mb: usize,
    stop: Arc<AtomicBool>,
    out: &mut dyn FnMut(Value),
) -> Result<Ending, AnalysisError> {
    let control = Control::with_stop(stop.clone());
    let stopped = || stop.load(Ordering::Relaxed);
    match game.turn() {
        Turn::Over => Err(AnalysisError::Nothing(
            "the game is over: there is nothing to analyse".into(),
        )),
        Turn::Seat(_) => {
            let win = game.win_value();
            let limits = SearchLimits {
                depth: Some(ANALYSIS_MAX_DEPTH),
                ..SearchLimits::default()
            };
            let last = game
                .analyse(&limits, hash_mb, &control, &mut |line| {
                    out(line_json(job, line, win))
                })
                .map_err(|e| AnalysisError::Nothing(e.to_string()))?;
            if last.depth == 0 {
                // Stopped before an iteration finished: still say what it would play.
                out(line_json(job, &last, win));
            }
            Ok(if stopped() {
                Ending::Stopped
            } else {
                Ending::Complete
            })
        }
        Turn::Chance => rolls(job, game, hash_mb, &control, out),
    }
}

/// The analysis of a position waiting for dice: every roll's odds, whether it is a falla,
/// its best play and value, pass by pass deeper; the equity is the rolls' values averaged
/// by their odds, from the side of the seat on roll.
fn rolls(
    job: u64,
    game: &dyn DynGame,
    hash_mb: usize,
    control: &Control,
    out: &mut dyn FnMut(Value),
) -> Result<Ending, AnalysisError> {
    let table = game.roll_plays(None).map_err(|e| {
        AnalysisError::Nothing(format!(
            "a chance event is pending that the engine does not analyse: {e}"
        ))
    })?;
    let stopped = || {
        control
            .stop
            .as_ref()
            .is_some_and(|s| s.load(Ordering::Relaxed))
    };
    // The seat on roll: the one the board names, else the one to move after a roll.
    let roller = match game.view() {
        BoardView::Track(t) => t.seat,
        BoardView::Grid(_) => None,
    };
    let total: u32 = table.iter().map(|r| r.weight).sum::<u32>().max(1);
    let falla_weight: u32 = table.iter().filter(|r| r.falla).map(|r| r.weight).sum();
    let win = game.win_value();
    for depth in 1..=ANALYSIS_ROLLS_MAX_DEPTH {
        let mut rows = Vec::with_capacity(table.len());
        let mut sum = 0.0;
        let mut valued = true;
        for r in &table {
            if stopped() {
                return Ok(Ending::Stopped);
            }
            let mut after = game.clone_box();
            let row = json!({
                "roll": r.roll,
                "weight": r.weight,
                "probability": f64::from(r.weight) / f64::from(total),
                "falla": r.falla,
                "plays": r.plays.len(),
            });
            if after.apply_chance(&r.roll).is_err() {
                // (The opening roll-off: the rolls are not this chance event's outcomes.)
                valued = false;
                rows.push(row);
                continue;
            }
            let (value, best) = match after.turn() {
                Turn::Over => {
                    let seat = roller.map(usize::from);
                    let score = after
                        .result()
                        .and_then(|res| seat.and_then(|s| res.seats.get(s).map(|o| o.score)))
                        .unwrap_or(0.0);
                    (Some(2.0 * f64::from(score) - 1.0), None)
                }
                _ => {
                    let limits = SearchLimits {
                        depth: Some(depth),
                        ..SearchLimits::default()
                    };
                    let line = after
                        .analyse(&limits, hash_mb, control, &mut |_| {})
                        .map_err(|e| AnalysisError::Nothing(e.to_string()))?;
                    if stopped() {
                        return Ok(Ending::Stopped);
                    }
                    (equity_of(line.score, win), Some(line))
                }
            };
            match value {
                Some(v) => sum += v * f64::from(r.weight),
                None => valued = false,
            }
            let mut row = row;
            row["equity"] = json!(value);
            if let Some(line) = best {
                row["best"] = json!(line.moves.first());
                row["best_san"] = json!(line.described.first());
                row["score"] = json!(line.score);
            }
            rows.push(row);
        }
        out(json!({
            "type": "rolls",
            "job": job,
            "depth": depth,
            "rolls": rows,
            "falla_weight": falla_weight,
            "total": total,
            "falla_probability": f64::from(falla_weight) / f64::from(total),
            "equity": valued.then(|| sum / f64::from(total)),
            "seat": roller,
        }));
        if !valued {
            break;
        }
    }
    Ok(Ending::Complete)
}

/// The hash an analysis searches with: the analysis size, within the operator's ceiling.
pub fn hash_mb(max_ai_hash_mb: usize) -> usize {
    ANALYSIS_HASH_MB.min(max_ai_hash_mb).max(1)
}
