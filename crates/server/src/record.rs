//! A game as data: its setup and its events (moves and dice rolls), which replay it exactly.
//! The same shape is stored in the database and exported as a record file.

use crate::clock::ClockSpec;
use libro_core::{EndReason, GameResult, Seat, Turn};
use libro_registry::{AnyRuleset, DynGame, PlayError};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

/// The largest stake a seat may set (Ludii's bets go to 100; ours are any whole number).
pub const MAX_STAKE: u32 = 1_000_000;

/// The name of the record format, checked on import.
pub const FORMAT: &str = "libro-record/1";

/// Everything that decides a game before its first move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Setup {
    /// A shipped ruleset's name.
    pub ruleset: String,
    /// Rule options changed from the file's values (`KEY`, `VALUE`).
    #[serde(default)]
    pub options: Vec<(String, String)>,
    /// Seed of the game's own dice.
    pub seed: u64,
    /// Each seat's stake (four-player chess), when set at creation.
    #[serde(default)]
    pub stakes: Option<Vec<u32>>,
    /// Each seat's player: `human`, or an AI spec (`ai:3`, `random`, `greedy`).
    pub players: Vec<String>,
    /// The time control, if the game is played on a clock ([`crate::clock`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<ClockSpec>,
    /// The position the game starts from, when not the ruleset's start (a PGN's `FEN`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<String>,
}

/// One thing that happened in a game, in order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Event {
    /// A seat's move, in the family's standard notation; on a clock, `at` is when the
    /// server took it (Unix ms), from which every seat's time is worked out.
    Move {
        seat: u8,
        text: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        at: Option<i64>,
    },
    /// The outcome of a chance event (dice), as printed by the game.
    Roll { roll: String },
    /// A seat resigned: it loses, and the seats still playing share the game.
    Resign { seat: u8 },
    /// The seats still playing agreed to a draw.
    Agreement,
    /// A takeback was granted: the last `plies` moves are undone (never past a roll); on a
    /// clock, `at` is when it was granted (Unix ms).
    Takeback {
        plies: u32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        at: Option<i64>,
    },
    /// The seat to move ran out of time. With more than two seats it is out and the others
    /// play on; otherwise it loses (as a resignation), or the game is drawn if no other seat
    /// could win any more.
    Flag { seat: u8 },
}

/// An exported game: the setup and events, with the final position and result for readers.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Record {
    pub format: String,
    #[serde(flatten)]
    pub setup: Setup,
    pub events: Vec<Event>,
    /// The position after the last event (informational; import replays the events).
    #[serde(default)]
    pub position: Option<String>,
    /// How the game ended, if it did (informational).
    #[serde(default)]
    pub result: Option<serde_json::Value>,
}

/// What is wrong with a setup or a record.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    #[error("record format `{0}` is not {FORMAT}")]
    Format(String),
    #[error("ruleset: {0}")]
    Ruleset(String),
    #[error("the ruleset has {expected} seats but {got} players are given")]
    Players { expected: usize, got: usize },
    #[error("player {seat}: `{spec}` is not `human` or an AI spec ({reason})")]
    Player {
        seat: usize,
        spec: String,
        reason: String,
    },
    #[error("stakes: {0}")]
    Stakes(String),
    #[error("clock: {0}")]
    Clock(String),
    #[error("position: {0}")]
    Position(String),
    #[error("event {index}: {reason}")]
    Event { index: usize, reason: String },
}

/// Checks one player spec: `human`, or anything the AI crate reads.
pub fn check_player(seat: usize, spec: &str) -> Result<(), RecordError> {
    if spec == "human" {
        return Ok(());
    }
    spec.parse::<libro_ai::PlayerSpec>()
        .map(|_| ())
        .map_err(|e| RecordError::Player {
            seat,
            spec: spec.to_string(),
            reason: e.to_string(),
        })
}

/// Loads a shipped ruleset with options, once per distinct (name, options): every game of
/// it shares the loaded rules and their move tables.
pub(crate) fn load_cached(
    name: &str,
    options: &[(String, String)],
) -> Result<AnyRuleset, RecordError> {
    let cache = ruleset_cache();
    let key = (name.to_string(), options.to_vec());
    if let Some(r) = cache.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
        return Ok(r.clone());
    }
    let rules =
        libro_registry::load(name, options).map_err(|e| RecordError::Ruleset(e.to_string()))?;
    let mut cache = cache.lock().unwrap_or_else(|e| e.into_inner());
    if cache.len() >= crate::limits::MAX_CACHED_RULESETS {
        cache.clear();
    }
    cache.insert(key, rules.clone());
    Ok(rules)
}

type CacheKey = (String, Vec<(String, String)>);

/// The loaded rulesets shared between games, at most
/// [`crate::limits::MAX_CACHED_RULESETS`].
fn ruleset_cache() -> &'static Mutex<HashMap<CacheKey, AnyRuleset>> {
    static CACHE: OnceLock<Mutex<HashMap<CacheKey, AnyRuleset>>> = OnceLock::new();
    CACHE.get_or_init(Default::default)
}

/// The ruleset and the start position of a setup (before any event).
pub fn start(setup: &Setup) -> Result<(AnyRuleset, Box<dyn DynGame>), RecordError> {
    if setup.ruleset.contains('/')
        || setup.ruleset.contains('\\')
        || setup.ruleset.ends_with(".toml")
    {
        return Err(RecordError::Ruleset(format!(
            "`{}` is not a shipped ruleset name",
            setup.ruleset
        )));
    }
    let rules = load_cached(&setup.ruleset, &setup.options)?;
    let n = rules.seat_names().len();
    if setup.players.len() != n {
        return Err(RecordError::Players {
            expected: n,
            got: setup.players.len(),
        });
    }
    for (i, p) in setup.players.iter().enumerate() {
        check_player(i, p)?;
    }
    if let Some(clock) = &setup.clock {
        clock.check().map_err(RecordError::Clock)?;
    }
    let mut game = rules.new_game(setup.seed);
    if let Some(stakes) = &setup.stakes {
        game = with_stakes(&rules, stakes)?;
    }
    if let Some(position) = &setup.position {
        if setup.stakes.is_some() {
            return Err(RecordError::Position(
                "a game from a position cannot also set stakes (the position holds them)".into(),
            ));
        }
        game = rules
            .parse_position(position)
            .map_err(|e| RecordError::Position(e.to_string()))?;
    }
    Ok((rules, game))
}

/// The start position with each seat's own stake (four-player chess).
fn with_stakes(rules: &AnyRuleset, stakes: &[u32]) -> Result<Box<dyn DynGame>, RecordError> {
    if let Some(s) = stakes.iter().find(|&&s| s == 0 || s > MAX_STAKE) {
        return Err(RecordError::Stakes(format!(
            "a stake must be a whole number from 1 to {MAX_STAKE}, not {s}"
        )));
    }
    rules
        .new_game_with_stakes(stakes)
        .map_err(|e| RecordError::Stakes(e.to_string()))
}

/// A game and how it ended, built event by event: the rules' own play plus the endings
/// players choose (resignation, agreement) and takebacks.
#[derive(Clone)]
pub struct Played {
    start: Box<dyn DynGame>,
    /// The position after the events in force.
    pub game: Box<dyn DynGame>,
    /// The events in force: moves and rolls not taken back, then a chosen ending, if any.
    pub effective: Vec<Event>,
    /// A chosen ending (resignation, agreement); the rules' own endings are the game's.
    pub ended: Option<GameResult>,
}

impl Played {
    /// The game from its start position.
    pub fn new(start: Box<dyn DynGame>) -> Played {
        Played {
            game: start.clone(),
            start,
            effective: Vec::new(),
            ended: None,
        }
    }

    /// The position the game started from.
    pub fn start(&self) -> &dyn DynGame {
        self.start.as_ref()
    }

    /// Whose turn it is: nobody once a chosen ending is in force.
    pub fn turn(&self) -> Turn {
        if self.ended.is_some() {
            Turn::Over
        } else {
            self.game.turn()
        }
    }

    /// How the game ended: a chosen ending, or the rules'.
    pub fn result(&self) -> Option<GameResult> {
        self.ended.clone().or_else(|| self.game.result())
    }

    /// The seats still playing.
    pub fn in_play(&self) -> Vec<Seat> {
        self.game
            .in_play()
            .iter()
            .enumerate()
            .filter(|(_, &p)| p)
            .map(|(i, _)| Seat(i as u8))
            .collect()
    }

    /// A move event in the notation people read (SAN for chess), written before it is
    /// played; `None` for other events or a move that is not legal here.
    pub fn describe_next(&self, event: &Event) -> Option<String> {
        match event {
            Event::Move { text, .. } if self.ended.is_none() => self.game.describe(text).ok(),
            _ => None,
        }
    }

    /// Moves back to and including `seat`'s last move, if it has one since the last roll.
    pub fn takeback_plies(&self, seat: Seat) -> Result<u32, PlayError> {
        let mut plies = 0;
        for ev in self.effective.iter().rev() {
            match ev {
                Event::Move { seat: s, .. } => {
                    plies += 1;
                    if *s == seat.0 {
                        return Ok(plies);
                    }
                }
                Event::Roll { .. } => {
                    return Err(PlayError::Illegal(
                        "dice have been rolled since that move: it cannot be taken back".into(),
                    ))
                }
                _ => break,
            }
        }
        Err(PlayError::Illegal(format!(
            "{seat} has no move to take back"
        )))
    }

    /// Applies one event, checking it is legal; on error nothing changes. Returns the event
    /// as the game writes it (canonical notation).
    pub fn apply(&mut self, event: &Event) -> Result<Event, PlayError> {
        if self.turn() == Turn::Over && !matches!(event, Event::Takeback { .. }) {
            return Err(PlayError::GameOver);
        }
        let n = self.game.num_seats();
        let applied = match event {
            Event::Move { .. } | Event::Roll { .. } => {
                let applied = apply(self.game.as_mut(), event)?;
                self.effective.push(applied.clone());
                return Ok(applied);
            }
            Event::Resign { seat } => {
                if usize::from(*seat) >= n {
                    return Err(PlayError::Illegal(format!("there is no seat {seat}")));
                }
                let others: Vec<Seat> = self
                    .in_play()
                    .into_iter()
                    .filter(|s| s.0 != *seat)
                    .collect();
                self.ended = Some(GameResult::draw(n, &others, EndReason::Resignation));
                event.clone()
            }
            Event::Agreement => {
                self.ended = Some(GameResult::draw(n, &self.in_play(), EndReason::Agreement));
                event.clone()
            }
            Event::Flag { seat } => {
                if self.turn() != Turn::Seat(Seat(*seat)) {
                    return Err(PlayError::Illegal(format!(
                        "seat {seat} is not to move: only the seat to move can run out of time"
                    )));
                }
                if self.game.drop_seat(Seat(*seat)) {
                    // More than two seats: the others play on.
                    self.effective.push(event.clone());
                    return Ok(event.clone());
                }
                let others: Vec<Seat> = self
                    .in_play()
                    .into_iter()
                    .filter(|s| s.0 != *seat)
                    .collect();
                self.ended = Some(if others.iter().any(|&s| self.game.can_win(s)) {
                    GameResult::draw(n, &others, EndReason::Time)
                } else {
                    GameResult::draw(n, &self.in_play(), EndReason::TimeVsInsufficient)
                });
                event.clone()
            }
            Event::Takeback { plies, .. } => {
                if self.turn() == Turn::Over {
                    return Err(PlayError::GameOver);
                }
                let keep = self.effective.len().checked_sub(*plies as usize);
                let taken = keep.map(|k| &self.effective[k..]);
                if *plies == 0
                    || !taken.is_some_and(|t| t.iter().all(|e| matches!(e, Event::Move { .. })))
                {
                    return Err(PlayError::Illegal(format!(
                        "{plies} moves cannot be taken back here"
                    )));
                }
                let keep = keep.unwrap_or(0);
                let mut game = self.start.clone();
                for ev in &self.effective[..keep] {
                    apply(game.as_mut(), ev)?;
                }
                self.game = game;
                self.effective.truncate(keep);
                return Ok(event.clone());
            }
        };
        self.effective.push(applied.clone());
        Ok(applied)
    }
}

/// Applies one move, roll or seat out of time (more than two seats) to a game, checking it
/// is legal; on error the game is unchanged.
/// Returns the event as the game writes it (canonical notation).
pub fn apply(game: &mut dyn DynGame, event: &Event) -> Result<Event, PlayError> {
    match event {
        Event::Move { seat, text, at } => {
            if usize::from(*seat) >= game.num_seats() {
                return Err(PlayError::Illegal(format!("there is no seat {seat}")));
            }
            let text = game.play(Seat(*seat), text)?;
            Ok(Event::Move {
                seat: *seat,
                text,
                at: *at,
            })
        }
        Event::Roll { roll } => {
            if game.turn() != Turn::Chance {
                return Err(PlayError::NoChancePending);
            }
            let roll = game.apply_chance(roll)?;
            Ok(Event::Roll { roll })
        }
        Event::Flag { seat } if game.turn() == Turn::Seat(Seat(*seat)) => {
            if game.drop_seat(Seat(*seat)) {
                Ok(event.clone())
            } else {
                Err(PlayError::Illegal(
                    "this game cannot go on without a seat".into(),
                ))
            }
        }
        _ => Err(PlayError::Illegal(
            "only moves, rolls and a seat out of time change the position".into(),
        )),
    }
}

/// The event without the time the server took it (an imported game's clocks start afresh).
pub fn untimed(event: Event) -> Event {
    match event {
        Event::Move { seat, text, .. } => Event::Move {
            seat,
            text,
            at: None,
        },
        Event::Takeback { plies, .. } => Event::Takeback { plies, at: None },
        other => other,
    }
}

/// Checks a record and builds the setup and the game it describes.
pub fn replay(record: &Record) -> Result<(AnyRuleset, Played), RecordError> {
    if record.format != FORMAT {
        return Err(RecordError::Format(record.format.clone()));
    }
    let (rules, game) = start(&record.setup)?;
    let mut played = Played::new(game);
    for (index, ev) in record.events.iter().enumerate() {
        played.apply(ev).map_err(|e| RecordError::Event {
            index,
            reason: e.to_string(),
        })?;
    }
    Ok((rules, played))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ruleset_cache_stays_within_its_bound_under_ever_new_options() {
        // Each max_plies value is another (name, options) key.
        for plies in 1..=3 * crate::limits::MAX_CACHED_RULESETS {
            load_cached("shatranj", &[("max_plies".into(), plies.to_string())]).unwrap();
            let len = ruleset_cache().lock().unwrap().len();
            assert!(len <= crate::limits::MAX_CACHED_RULESETS, "{len}");
        }
        // A cached ruleset is shared: the same key loads the same rules.
        let key = [("max_plies".to_string(), "7".to_string())];
        let (a, b) = (
            load_cached("shatranj", &key).unwrap(),
            load_cached("shatranj", &key).unwrap(),
        );
        assert!(a.same_rules(&b));
    }
}
