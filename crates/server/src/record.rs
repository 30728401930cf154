//! A game as data: its setup and its events (moves and dice rolls), which replay it exactly.
//! The same shape is stored in the database and exported as a record file.

use libro_core::{Seat, Turn};
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
}

/// One thing that happened in a game, in order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Event {
    /// A seat's move, in the family's standard notation.
    Move { seat: u8, text: String },
    /// The outcome of a chance event (dice), as printed by the game.
    Roll { roll: String },
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
fn load_cached(name: &str, options: &[(String, String)]) -> Result<AnyRuleset, RecordError> {
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
    let mut game = rules.new_game(setup.seed);
    if let Some(stakes) = &setup.stakes {
        game = with_stakes(&rules, stakes)?;
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

/// Applies one event to a game, checking it is legal; on error the game is unchanged.
/// Returns the event as the game writes it (canonical notation).
pub fn apply(game: &mut dyn DynGame, event: &Event) -> Result<Event, PlayError> {
    match event {
        Event::Move { seat, text } => {
            if usize::from(*seat) >= game.num_seats() {
                return Err(PlayError::Illegal(format!("there is no seat {seat}")));
            }
            let text = game.play(Seat(*seat), text)?;
            Ok(Event::Move { seat: *seat, text })
        }
        Event::Roll { roll } => {
            if game.turn() != Turn::Chance {
                return Err(PlayError::NoChancePending);
            }
            let roll = game.apply_chance(roll)?;
            Ok(Event::Roll { roll })
        }
    }
}

/// Checks a record and builds the setup and the game it describes.
pub fn replay(record: &Record) -> Result<(AnyRuleset, Box<dyn DynGame>), RecordError> {
    if record.format != FORMAT {
        return Err(RecordError::Format(record.format.clone()));
    }
    let (rules, mut game) = start(&record.setup)?;
    for (index, ev) in record.events.iter().enumerate() {
        apply(game.as_mut(), ev).map_err(|e| RecordError::Event {
            index,
            reason: e.to_string(),
        })?;
    }
    Ok((rules, game))
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
