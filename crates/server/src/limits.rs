//! The limits of the server's games, storage and AI, in one place: each with its default and
//! why. The operator sets the AI ceilings with `serve` flags ([`crate::ServeArgs`]); a game
//! created or imported with a player above them is refused, naming the bound.

use libro_ai::{PlayerKind, PlayerSpec};
use std::time::Duration;

/// The largest transposition table an AI seat may ask for, in MB, unless the operator sets
/// `--max-ai-hash-mb`: a few games searching at once must fit in a small server's memory.
pub const DEFAULT_MAX_AI_HASH_MB: usize = 64;

/// The longest time per move an AI seat may ask for, in ms, unless the operator sets
/// `--max-ai-movetime`. Every server search is also stopped at this time, whatever its
/// depth or node budget says, so no search holds a pool thread longer.
pub const DEFAULT_MAX_AI_MOVETIME_MS: u64 = 10_000;

/// The largest move text accepted from a player (any notation's move is far shorter).
pub const MAX_MOVE_TEXT: usize = 200;

/// The longest chat message between seats, in characters.
pub const MAX_CHAT_CHARS: usize = 300;

/// Chat messages a game keeps in memory (the oldest go first; chat is not stored).
pub const CHAT_KEPT: usize = 100;

/// The most games one page of the lobby list holds (`GET /api/games?page=N`).
pub const LOBBY_PAGE: usize = 50;

/// Loaded rulesets (a shipped name with one set of options) kept for sharing between games.
/// Options such as `max_plies` take any number, so a flood of new games or imports with
/// ever-new values would grow the cache without end: past this many it starts afresh
/// (games already running keep their own rules).
pub const MAX_CACHED_RULESETS: usize = 64;

/// How long a game with no one watching and no move for a while stays in memory, unless the
/// operator sets `--idle-unload-secs`; it is loaded again from the store when asked for.
pub const DEFAULT_IDLE_UNLOAD: Duration = Duration::from_secs(600);

/// How long a game nobody has started (no event stored, no one watching) is kept, unless the
/// operator sets `--unstarted-expiry-secs`; then it is deleted.
pub const DEFAULT_UNSTARTED_EXPIRY: Duration = Duration::from_secs(3600);

/// The longest initial time a game's clock may have, in seconds (3 hours): longer games
/// are correspondence games, which want a clock of days, not this one.
pub const MAX_CLOCK_INITIAL_S: u32 = 10_800;

/// The largest increment a game's clock may add after each move, in seconds.
pub const MAX_CLOCK_INCREMENT_S: u32 = 180;

/// The deepest iteration an analysis on the analysis board searches, in plies of moves.
/// Each analysis also stops at the operator's longest move time (`--max-ai-movetime`,
/// [`Limits::search_deadline`]) and runs on the AI pool like every search.
pub const ANALYSIS_MAX_DEPTH: u32 = 30;

/// The deepest pass of an analysis of a position waiting for dice: every roll is searched
/// to this depth (a ply of a play, then the next roll's average), one pass per depth.
pub const ANALYSIS_ROLLS_MAX_DEPTH: u32 = 3;

/// The transposition table of an analysis, in MB (never above `--max-ai-hash-mb`).
pub const ANALYSIS_HASH_MB: usize = 16;

/// How long an AI game waits before trying again after its move could not be stored.
pub const AI_RETRY: Duration = Duration::from_millis(500);

/// The operator's limits for one server.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Ceiling of an AI seat's `hash=` (MB).
    pub max_ai_hash_mb: usize,
    /// Ceiling of an AI seat's `movetime=` (ms), and the time every search is stopped at.
    pub max_ai_movetime_ms: u64,
    /// AI searches running at once; further ones wait their turn.
    pub ai_threads: usize,
    /// Idle time after which a game leaves memory.
    pub idle_unload: Duration,
    /// Age after which a game never started is deleted.
    pub unstarted_expiry: Duration,
    /// The URL browsers reach this server by, if not its own host (behind a proxy): its
    /// origin may change games too ([`crate::guard`]).
    pub public_url: Option<String>,
    /// HTTP connections served at once ([`crate::guard::DEFAULT_MAX_CONNECTIONS`]).
    pub max_connections: usize,
    /// Games, imports and Lab runs one client may create per minute.
    pub new_games_per_minute: u32,
    /// Other HTTP writes one client may make per second.
    pub writes_per_second: u32,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_ai_hash_mb: DEFAULT_MAX_AI_HASH_MB,
            max_ai_movetime_ms: DEFAULT_MAX_AI_MOVETIME_MS,
            ai_threads: default_ai_threads(),
            idle_unload: DEFAULT_IDLE_UNLOAD,
            unstarted_expiry: DEFAULT_UNSTARTED_EXPIRY,
            public_url: None,
            max_connections: crate::guard::DEFAULT_MAX_CONNECTIONS,
            new_games_per_minute: crate::guard::DEFAULT_CREATE_PER_MINUTE,
            writes_per_second: crate::guard::DEFAULT_WRITE_PER_SECOND,
        }
    }
}

/// AI searches at once by default: every core but one, at least one.
pub fn default_ai_threads() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get().saturating_sub(1))
        .unwrap_or(1)
        .max(1)
}

/// A player above the operator's ceilings.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LimitError {
    #[error("player {seat}: hash={asked} MB is above this server's limit of {max} MB (--max-ai-hash-mb)")]
    Hash {
        seat: usize,
        asked: usize,
        max: usize,
    },
    #[error("player {seat}: movetime={asked} ms is above this server's limit of {max} ms (--max-ai-movetime)")]
    Movetime { seat: usize, asked: u64, max: u64 },
}

impl Limits {
    /// Checks an AI player (already parsed) of seat `seat` against the ceilings.
    pub fn check_spec(&self, seat: usize, spec: &PlayerSpec) -> Result<(), LimitError> {
        let PlayerKind::Ai(ai) = spec.kind else {
            return Ok(());
        };
        if let Some(asked) = ai.hash_mb.filter(|&mb| mb > self.max_ai_hash_mb) {
            return Err(LimitError::Hash {
                seat,
                asked,
                max: self.max_ai_hash_mb,
            });
        }
        if let Some(asked) = ai.movetime_ms.filter(|&ms| ms > self.max_ai_movetime_ms) {
            return Err(LimitError::Movetime {
                seat,
                asked,
                max: self.max_ai_movetime_ms,
            });
        }
        Ok(())
    }

    /// Checks every player of a setup (`human` and unreadable specs are left to the setup's
    /// own check, which names them).
    pub fn check_players(&self, players: &[String]) -> Result<(), LimitError> {
        for (seat, p) in players.iter().enumerate() {
            if let Ok(spec) = p.parse::<PlayerSpec>() {
                self.check_spec(seat, &spec)?;
            }
        }
        Ok(())
    }

    /// How often the games held are swept for idle and expired ones: a quarter of the
    /// shorter of the two times, from 100 ms to a minute.
    pub fn sweep_every(&self) -> Duration {
        (self.idle_unload.min(self.unstarted_expiry) / 4)
            .clamp(Duration::from_millis(100), Duration::from_secs(60))
    }

    /// The time after which every server search is stopped.
    pub fn search_deadline(&self) -> Duration {
        Duration::from_millis(self.max_ai_movetime_ms)
    }
}

/// The most pieces the analysis board's editor may place (a 16x16 board's squares).
pub const MAX_PLACED_PIECES: usize = 256;

#[cfg(test)]
mod tests {
    use super::*;

    fn limits() -> Limits {
        Limits {
            max_ai_hash_mb: 32,
            max_ai_movetime_ms: 1_000,
            ai_threads: 1,
            ..Limits::default()
        }
    }

    #[test]
    fn players_at_the_ceilings_pass_and_above_them_are_named() {
        let l = limits();
        let ok = ["human", "random", "ai", "ai:hash=32", "ai:movetime=1000"];
        assert_eq!(
            l.check_players(&ok.map(String::from)),
            Ok(()),
            "at the ceiling is allowed"
        );
        let e = l
            .check_players(&["human".into(), "ai:hash=33".into()])
            .unwrap_err();
        assert_eq!(
            e,
            LimitError::Hash {
                seat: 1,
                asked: 33,
                max: 32
            }
        );
        assert!(e.to_string().contains("32 MB"), "{e}");
        let e = l.check_players(&["ai:movetime=1001".into()]).unwrap_err();
        assert!(
            e.to_string().contains("1000 ms") && e.to_string().contains("--max-ai-movetime"),
            "{e}"
        );
    }
}
