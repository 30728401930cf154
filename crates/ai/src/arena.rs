//! Matches: player A against player B over many games on several threads, every game
//! recorded so that it replays exactly, summed up in a [`MatchReport`].
//!
//! Seats: in game `i`, A takes the even seats when `i` is even and the odd seats when `i`
//! is odd (two seats: A is first, then second; four seats: A plays seats 0 and 2 against
//! B's 1 and 3, then the reverse, so each player meets each seat and each neighbour). The
//! two games of a pair share the game seed (the same dice) and the same random opening,
//! which cancels much of the luck between them.
//!
//! Threads: games are independent and each runs for a long while, so scoped standard
//! threads taking game numbers from an atomic counter are all the parallelism needed;
//! rayon's work stealing would add a dependency and gain nothing here.

use crate::limits::Control;
use crate::player::{mix, Player, PlayerSpec};
use crate::stats::MatchReport;
use libro_core::{Game, GameResult, Heuristic, MoveBuffer, Ruleset, Seat, Turn};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{mpsc, Arc};
use std::thread;

/// How a match is played.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// Number of games.
    pub games: u32,
    /// Games played at once (each on its own thread).
    pub threads: usize,
    /// Seeds everything: the games' dice, the openings and the players' random choices.
    pub seed: u64,
    /// Moves played at random before the players take over, so that deterministic players
    /// do not repeat one game (shared by the two games of a pair); see
    /// [`default_opening_moves`].
    pub opening_moves: u32,
    /// A game still running after this many plies is stopped and counted as a draw.
    pub max_plies: u32,
    /// Set to stop the match: games under way finish, no new one starts.
    pub stop: Option<Arc<AtomicBool>>,
}

impl Default for MatchConfig {
    fn default() -> Self {
        MatchConfig {
            games: 100,
            threads: 1,
            seed: 1,
            opening_moves: default_opening_moves(false),
            max_plies: 10_000,
            stop: None,
        }
    }
}

/// Random opening moves a match plays unless told otherwise: four where the game has no
/// chance, none where it has dice. Dice already make every game different, and in a dice
/// game one random move can decide the game by itself (a falla in Fallas), so random
/// openings would measure the random mover, not the players.
pub fn default_opening_moves(has_dice: bool) -> u32 {
    if has_dice {
        0
    } else {
        4
    }
}

/// One step of a game record.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Ply {
    /// A seat's move, in the game's standard notation.
    Move(String),
    /// A chance outcome (a roll), as the game prints it.
    Chance(String),
}

/// A finished game of a match: enough to replay it exactly ([`replay`]).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct GameRecord {
    /// The game's number in the match, from 0.
    pub index: u32,
    /// The ruleset's name.
    pub ruleset: String,
    /// The seed the game was created with (its own dice).
    pub seed: u64,
    /// Each seat's player, in seat order.
    pub players: Vec<String>,
    /// The seats player A held.
    pub a_seats: Vec<u8>,
    /// How many of the first moves were the random opening.
    pub opening_moves: u32,
    /// Every move and chance outcome in order.
    pub plies: Vec<Ply>,
    /// How the game ended by the rules; `None` if it did not: stopped at the ply cap (a draw
    /// for the match), or ended by a referee (a UCI engine's illegal move, lost clock or
    /// silence; `a_score` says who won).
    pub result: Option<GameResult>,
    /// A's score in this game, in [0, 1] (0.5 is even).
    pub a_score: f64,
}

/// What a match produced.
#[derive(Clone, Debug)]
pub struct MatchOutcome {
    pub report: MatchReport,
    /// Every game, by index.
    pub records: Vec<GameRecord>,
}

/// The seats A holds in game `index` of a match between games with `num_seats` seats.
pub fn a_seats(index: u32, num_seats: usize) -> Vec<Seat> {
    (0..num_seats)
        .filter(|&s| (s as u32 + index) & 1 == 0)
        .map(|s| Seat(s as u8))
        .collect()
}

/// A's score for a result: its seats' share of the points, scaled so that its fair share
/// (its seats over all seats) is 0.5, everything 1 and nothing 0. A stopped game (no
/// result) is even. For two seats, and four seats split two and two, this is A's share
/// itself.
pub fn a_score(result: Option<&GameResult>, a: &[Seat], num_seats: usize) -> f64 {
    let Some(result) = result else {
        return 0.5;
    };
    let share: f64 = a
        .iter()
        .map(|s| f64::from(result.seats[s.index()].score))
        .sum();
    let fair = a.len() as f64 / num_seats as f64;
    if fair <= 0.0 || fair >= 1.0 {
        return 0.5;
    }
    if share >= fair {
        0.5 + 0.5 * (share - fair) / (1.0 - fair)
    } else {
        0.5 * share / fair
    }
}

/// Plays one game between `players` (one spec per seat) from a new game of `seed`: first
/// `opening_moves` random moves drawn from `opening_seed`, then the players, each with its
/// own random stream. Chance events take the game's own seeded sample.
pub fn play_game<R>(
    rules: &Arc<R>,
    players: &[PlayerSpec],
    seed: u64,
    opening_seed: u64,
    opening_moves: u32,
    max_plies: u32,
) -> (R::Game, Vec<Ply>)
where
    R: Ruleset,
    R::Game: Heuristic,
{
    let mut game = rules.new_game(seed);
    let mut seats: Vec<Player<R::Game>> = players
        .iter()
        .enumerate()
        .map(|(i, spec)| Player::with_stream(*spec, mix(opening_seed ^ mix(i as u64 + 1))))
        .collect();
    let mut opening_rng = ChaCha8Rng::seed_from_u64(opening_seed);
    let mut moves = <R::Game as Game>::MoveList::default();
    let mut plies = Vec::new();
    let mut moves_played = 0;
    let control = Control::default();
    while game.ply() < max_plies {
        match game.turn() {
            Turn::Over => break,
            Turn::Chance => {
                let outcome = game.sample_chance();
                plies.push(Ply::Chance(outcome.to_string()));
                game.apply_chance(outcome);
            }
            Turn::Seat(seat) => {
                let mv = if moves_played < opening_moves {
                    game.legal_moves(&mut moves);
                    moves.as_slice()[opening_rng.gen_range(0..moves.len())]
                } else {
                    let count = seats.len();
                    let player = &mut seats[seat.index() % count];
                    match player.choose(&game, &control) {
                        Ok(choice) => choice.mv,
                        Err(_) => break,
                    }
                };
                moves_played += 1;
                plies.push(Ply::Move(game.move_text(mv)));
                game.play(mv);
            }
        }
    }
    (game, plies)
}

/// Plays a match of `a` against `b` under `rules`, calling `on_game` (on the calling
/// thread) as each game finishes, in finishing order. The outcome does not depend on the
/// number of threads: each game depends only on the match seed and its index.
pub fn play_match<R>(
    rules: &Arc<R>,
    a: &PlayerSpec,
    b: &PlayerSpec,
    config: &MatchConfig,
    on_game: &mut dyn FnMut(&GameRecord),
) -> MatchOutcome
where
    R: Ruleset,
    R::Game: Heuristic,
{
    let next = AtomicU32::new(0);
    let (tx, rx) = mpsc::channel();
    let mut records = Vec::with_capacity(config.games as usize);
    thread::scope(|scope| {
        for _ in 0..config.threads.clamp(1, config.games.max(1) as usize) {
            let tx = tx.clone();
            let next = &next;
            scope.spawn(move || loop {
                if config
                    .stop
                    .as_ref()
                    .is_some_and(|s| s.load(Ordering::Relaxed))
                {
                    break;
                }
                let index = next.fetch_add(1, Ordering::Relaxed);
                if index >= config.games {
                    break;
                }
                if tx.send(match_game(rules, a, b, config, index)).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        for record in rx {
            on_game(&record);
            records.push(record);
        }
    });
    records.sort_by_key(|r| r.index);
    let scores: Vec<f64> = records.iter().map(|r| r.a_score).collect();
    MatchOutcome {
        report: MatchReport::from_scores(&scores),
        records,
    }
}

/// Game `index` of a match: pairs share their seeds; A's seats alternate.
fn match_game<R>(
    rules: &Arc<R>,
    a: &PlayerSpec,
    b: &PlayerSpec,
    config: &MatchConfig,
    index: u32,
) -> GameRecord
where
    R: Ruleset,
    R::Game: Heuristic,
{
    let pair = u64::from(index / 2);
    let seed = mix(config.seed ^ mix(pair));
    let opening_seed = mix(seed ^ 0x6f70_656e);
    let num_seats = rules.seat_names().len();
    let a_held = a_seats(index, num_seats);
    let players: Vec<PlayerSpec> = (0..num_seats)
        .map(|s| {
            if a_held.contains(&Seat(s as u8)) {
                *a
            } else {
                *b
            }
        })
        .collect();
    let (game, plies) = play_game(
        rules,
        &players,
        seed,
        opening_seed,
        config.opening_moves,
        config.max_plies,
    );
    let result = if game.is_over() { game.result() } else { None };
    GameRecord {
        index,
        ruleset: rules.name().to_string(),
        seed,
        players: players.iter().map(ToString::to_string).collect(),
        a_seats: a_held.iter().map(|s| s.0).collect(),
        opening_moves: config.opening_moves,
        a_score: a_score(result.as_ref(), &a_held, num_seats),
        plies,
        result,
    }
}

/// Why a record does not replay.
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    #[error("ply {ply}: move `{text}` does not play here: {reason}")]
    BadMove {
        ply: usize,
        text: String,
        reason: String,
    },
    #[error("ply {ply}: `{text}` is not a possible chance outcome here")]
    BadChance { ply: usize, text: String },
    #[error("ply {ply}: the record has a {expected} but the game expects {found}")]
    WrongTurn {
        ply: usize,
        expected: &'static str,
        found: &'static str,
    },
    #[error("the replayed game ends with {found:?}, the record says {recorded:?}")]
    ResultDiffers {
        recorded: Option<GameResult>,
        found: Option<GameResult>,
    },
}

fn turn_name(turn: Turn) -> &'static str {
    match turn {
        Turn::Seat(_) => "a move",
        Turn::Chance => "a chance outcome",
        Turn::Over => "no more plies (the game is over)",
    }
}

/// Replays a record from its seed, checking every move and roll and the result.
pub fn replay<R: Ruleset>(rules: &Arc<R>, record: &GameRecord) -> Result<R::Game, ReplayError> {
    let mut game = rules.new_game(record.seed);
    let mut outcomes = Vec::new();
    for (i, ply) in record.plies.iter().enumerate() {
        match (ply, game.turn()) {
            (Ply::Move(text), Turn::Seat(_)) => {
                let mv = game.parse_move(text).map_err(|e| ReplayError::BadMove {
                    ply: i,
                    text: text.clone(),
                    reason: e.to_string(),
                })?;
                game.play(mv);
            }
            (Ply::Chance(text), Turn::Chance) => {
                game.chance_outcomes(&mut outcomes);
                let bad = || ReplayError::BadChance {
                    ply: i,
                    text: text.clone(),
                };
                let outcome: <R::Game as Game>::ChanceOutcome = text.parse().map_err(|_| bad())?;
                if !outcomes.iter().any(|c| c.outcome == outcome) {
                    return Err(bad());
                }
                game.apply_chance(outcome);
            }
            (ply, turn) => {
                return Err(ReplayError::WrongTurn {
                    ply: i,
                    expected: match ply {
                        Ply::Move(_) => "move",
                        Ply::Chance(_) => "chance outcome",
                    },
                    found: turn_name(turn),
                })
            }
        }
    }
    let found = if game.is_over() { game.result() } else { None };
    if found != record.result {
        return Err(ReplayError::ResultDiffers {
            recorded: record.result.clone(),
            found,
        });
    }
    Ok(game)
}
