//! Search for every libro game, through the [`libro_core::Game`] interface and the game's
//! [`libro_core::Heuristic`] only, so that every ruleset, present or future, gets an AI
//! without new code.
//!
//! - **Two seats**: alpha-beta (negamax, iterative deepening, principal variation search,
//!   transposition table, quiescence over tactical moves, check extension, late move
//!   reductions; ordering by table move, tactical score, killers, countermoves and history).
//! - **Three or more seats**: paranoid alpha-beta (the seat to move against the rest) by
//!   default, max^n on request ([`MultiSearch`]). Measured on the light-cycles toy game
//!   (8×8, 1000 games per line, equal nodes per move, `tests/multiplayer.rs`), paranoid
//!   scored 0.527, 0.509 (four seats, 2 000 and 20 000 nodes) and 0.520, 0.516 (three
//!   seats) against max^n: never worse, about +12 Elo overall (±11). It is the default
//!   because of that, because alpha-beta prunes and so searches deeper at the same cost,
//!   and because it shares the two-seat search's table, ordering and quiescence.
//! - **Chance**: expectimax over [`libro_core::Game::chance_outcomes`], with Star1 cuts in
//!   alpha-beta.
//! - **Players**: [`PlayerSpec`] (`random`, `greedy`, `ai:1`..`ai:8`, `ai:movetime=500`,
//!   `ai:nodes=100000`, `,seed=N`) and [`choose_move`], or a [`Player`] kept for a game.
//! - **Matches**: [`play_match`] on several threads, with [`GameRecord`]s that [`replay`]
//!   exactly and a [`MatchReport`] (score, 95% interval, Elo).

mod alphabeta;
mod arena;
mod correction;
mod limits;
mod maxn;
mod ordering;
mod player;
mod score;
mod search;
mod sprt;
mod stats;
mod tt;

pub use arena::{
    a_score, a_seats, default_opening_moves, play_game, play_match, replay, GameRecord,
    MatchConfig, MatchOutcome, Ply, ReplayError,
};
pub use limits::{Clock, Control, Limits, TimeBudget, CLOCK_OVERHEAD};
pub use player::{
    choose_move, AiSettings, Choice, ChooseError, LevelParams, Player, PlayerKind, PlayerSpec,
    SpecError, LEVELS, MAX_HASH_MB, MAX_LEVEL, MAX_MOVETIME_MS, MAX_NODES,
};
pub use score::{Score, MATE, MATE_BOUND, MAX_PLY};
pub use search::{
    pv_text, MultiSearch, SearchConfig, SearchInfo, SearchResult, Searcher, UnknownSearch,
};
pub use sprt::{score_of_elo, Sprt, SprtDecision, SprtError};
pub use stats::{elo_from_score, score_interval, MatchReport};
