//! Playing a study's games on several threads: each game from its own seed, with the
//! figures the report needs written into one [`GameRow`].

use crate::study::{mix, Shard, Study};
use crate::LabError;
use libro_ai::{Control, Player, PlayerKind, PlayerSpec};
use libro_core::{Census, EndReason, Game, Heuristic, MoveBuffer, Ruleset, Turn};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::HashSet;
use std::mem;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use std::thread;
use std::time::{Duration, Instant};

/// One finished game of a study: everything the report is computed from.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct GameRow {
    /// The reading's key (`fers_leap=diagonal,...`).
    pub reading: String,
    /// The game's index within its reading, from 0.
    pub index: u32,
    /// The seed the game was created and played with.
    pub seed: u64,
    /// Plies played (moves and chance events).
    pub plies: u32,
    /// Decisions: plies where a seat chose among its legal moves.
    pub decisions: u32,
    /// Legal moves summed over the decisions (the branching factor is this over those).
    pub legal: u64,
    /// How it ended: an [`EndReason`] name; a game stopped at the study's ply cap is
    /// `move-limit` with `capped` set.
    pub reason: String,
    /// Stopped at the study's ply cap rather than by the ruleset.
    pub capped: bool,
    /// Each seat's score (1 win, 0 loss, shares for draws; equal shares when capped).
    pub scores: Vec<f32>,
    /// The single winner's seat, if any.
    pub winner: Option<u8>,
    /// The game's fingerprint: a hash of every position it passed through, so that a game
    /// played twice (deterministic players, too few random opening moves) is seen as one.
    #[serde(default)]
    pub fingerprint: u64,
    /// The seat that made the first decision (fixed in chess; the roll-off winner in Fallas).
    #[serde(default)]
    pub first: Option<u8>,
    /// Moves made by each piece type ([`Census::piece_types`] order).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub piece_moves: Vec<u32>,
    /// Captures (hits) made by each piece type.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub piece_captures: Vec<u32>,
    /// Landings on each cell of the board ([`Census::grid`], row by row).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub landings: Vec<u32>,
    /// Times the seat ahead on material changed (a level position between two leads of the
    /// same seat is no change).
    #[serde(default)]
    pub lead_changes: u32,
    /// Games with stakes (Cuatro Tiempos): what each seat paid into the pot.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paid: Option<Vec<f64>>,
    /// Games with stakes: each seat's balance, what it took from the pot less what it paid.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub balances: Option<Vec<f64>>,
}

/// The stakes of a finished game: what each seat paid and its balance.
pub use libro_registry::Ledger;

/// Chooses the moves of one seat in one game.
pub trait Mover<G: Game>: Send {
    /// A move among `moves` (the legal moves, never empty) of the seat to move in `game`.
    fn choose(&mut self, game: &G, moves: &[G::Move]) -> G::Move;
}

/// Uniformly random legal moves from a seeded stream.
pub struct RandomMover(ChaCha8Rng);

impl RandomMover {
    pub fn new(seed: u64) -> Self {
        RandomMover(ChaCha8Rng::seed_from_u64(seed))
    }
}

impl<G: Game> Mover<G> for RandomMover {
    fn choose(&mut self, _: &G, moves: &[G::Move]) -> G::Move {
        moves[self.0.gen_range(0..moves.len())]
    }
}

/// Any `libro-ai` player (greedy, the search at a level or budget).
pub struct AiMover<G: Heuristic>(Player<G>, Control);

impl<G: Heuristic> Mover<G> for AiMover<G> {
    fn choose(&mut self, game: &G, moves: &[G::Move]) -> G::Move {
        // The player only fails when no seat is to move or there is no legal move; the
        // runner asks only when there are some.
        self.0.choose(game, &self.1).map_or(moves[0], |c| c.mv)
    }
}

/// Makes the movers of one game: `(seat, spec, stream seed)` to a mover.
pub type MoverFactory<G> =
    dyn Fn(usize, &PlayerSpec, u64) -> Result<Box<dyn Mover<G>>, LabError> + Sync;

/// Movers for games with a [`Heuristic`]: every kind of player.
pub fn any_mover<G: Heuristic>(
    _seat: usize,
    spec: &PlayerSpec,
    stream: u64,
) -> Result<Box<dyn Mover<G>>, LabError> {
    Ok(match spec.kind {
        PlayerKind::Random => Box::new(RandomMover::new(mix(stream ^ spec.seed.unwrap_or(0)))),
        _ => Box::new(AiMover(
            Player::with_stream(*spec, stream),
            Control::default(),
        )),
    })
}

/// Movers for games without a [`Heuristic`]: random players only.
pub fn random_mover<G: Game>(
    _seat: usize,
    spec: &PlayerSpec,
    stream: u64,
) -> Result<Box<dyn Mover<G>>, LabError> {
    match spec.kind {
        PlayerKind::Random => Ok(Box::new(RandomMover::new(mix(
            stream ^ spec.seed.unwrap_or(0),
        )))),
        _ => Err(LabError::BadPlayers(format!(
            "`{spec}` needs the game's heuristic, which this ruleset's family does not have yet; use random"
        ))),
    }
}

/// Plays one game from `seed` to its end or to `max_plies`.
/// The first `opening_moves` decisions are random, drawn from a stream of `seed`.
pub fn play_one<R: Ruleset>(
    rules: &Arc<R>,
    movers: &mut [Box<dyn Mover<R::Game>>],
    seed: u64,
    max_plies: u32,
    opening_moves: u32,
    ledger: fn(&R::Game) -> Option<Ledger>,
) -> (R::Game, GameRow)
where
    R::Game: Census,
{
    let mut game = rules.new_game(seed);
    let mut opening = RandomMover::new(mix(seed ^ 0x6f70_656e));
    let mut moves = <R::Game as Game>::MoveList::default();
    let (mut decisions, mut legal) = (0u32, 0u64);
    let mut stuck = false;
    let mut fingerprint = mix(game.hash());
    let mut first = None;
    let (columns, rows) = game.grid();
    let types = game.piece_types().len();
    let (mut piece_moves, mut piece_captures) = (vec![0u32; types], vec![0u32; types]);
    let mut landings = vec![0u32; usize::from(columns) * usize::from(rows)];
    let (mut leader, mut lead_changes) = (game.leader(), 0u32);
    while game.ply() < max_plies {
        // The moves first: a game may settle its end test from the list (chess's mate and
        // stalemate, Fallas' falla) instead of generating the moves twice.
        game.legal_moves(&mut moves);
        match game.turn() {
            Turn::Over => break,
            Turn::Chance => {
                let outcome = game.sample_chance();
                game.apply_chance(outcome);
                fingerprint = mix(fingerprint ^ game.hash());
            }
            Turn::Seat(seat) => {
                if moves.is_empty() {
                    stuck = true;
                    break;
                }
                decisions += 1;
                legal += moves.len() as u64;
                first.get_or_insert(seat.0);
                let n = movers.len();
                let mv = if decisions <= opening_moves {
                    opening.choose(&game, moves.as_slice())
                } else {
                    movers[seat.index() % n].choose(&game, moves.as_slice())
                };
                game.landings(mv, &mut |l| {
                    let piece = usize::from(l.piece);
                    if piece < types {
                        piece_moves[piece] += 1;
                        piece_captures[piece] += u32::from(l.capture);
                    }
                    if let Some(c) = landings.get_mut(usize::from(l.cell)) {
                        *c += 1;
                    }
                });
                game.play(mv);
                fingerprint = mix(fingerprint ^ game.hash());
                if let Some(now) = game.leader() {
                    if leader.is_some_and(|before| before != now) {
                        lead_changes += 1;
                    }
                    leader = Some(now);
                }
            }
        }
    }
    let seats = game.num_seats();
    let result = if game.is_over() { game.result() } else { None };
    let (reason, capped, scores, winner) = match &result {
        Some(r) => (
            r.reason.name().to_string(),
            false,
            r.seats.iter().map(|s| s.score).collect(),
            r.winner().map(|s| s.0),
        ),
        None => (
            if stuck {
                "no-legal-move"
            } else {
                EndReason::MoveLimit.name()
            }
            .to_string(),
            true,
            vec![1.0 / seats as f32; seats],
            None,
        ),
    };
    let book = ledger(&game);
    let row = GameRow {
        reading: String::new(),
        index: 0,
        seed,
        plies: game.ply(),
        decisions,
        legal,
        reason,
        capped,
        scores,
        winner,
        fingerprint,
        first,
        piece_moves,
        piece_captures,
        landings,
        lead_changes,
        paid: book.as_ref().map(|b| b.paid.clone()),
        balances: book.map(|b| b.balances),
    };
    (game, row)
}

/// How to run (a part of) a study.
#[derive(Clone, Debug)]
pub struct RunPlan {
    /// Games played at once.
    pub threads: usize,
    /// Which games to play.
    pub shard: Shard,
    /// `(reading key, index)` of games already played (from the results file): skipped.
    pub done: HashSet<(String, u32)>,
    /// Set to stop: games under way finish, no new one starts.
    pub stop: Option<Arc<AtomicBool>>,
}

impl Default for RunPlan {
    fn default() -> Self {
        RunPlan {
            threads: thread::available_parallelism().map_or(1, |n| n.get()),
            shard: Shard::ALL,
            done: HashSet::new(),
            stop: None,
        }
    }
}

/// What a run did.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct RunStats {
    /// Games played by this run.
    pub played: u64,
    /// Plies played by this run.
    pub plies: u64,
    /// Wall time.
    pub elapsed: Duration,
}

impl RunStats {
    /// Games per second of wall time.
    pub fn games_per_second(&self) -> f64 {
        self.played as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// The games a run has to play: every reading's games of the shard not yet done, by
/// index first so that every reading advances together.
pub fn pending(study: &Study, plan: &RunPlan) -> Vec<(usize, u32)> {
    let readings = study.readings();
    (0..study.games)
        .filter(|&i| plan.shard.holds(i))
        .flat_map(|i| (0..readings.len()).map(move |r| (r, i)))
        .filter(|&(r, i)| !plan.done.contains(&(readings[r].key.clone(), i)))
        .collect()
}

/// Rows a playing thread gathers before handing them over, and the longest it holds one.
const BATCH_ROWS: usize = 64;
const BATCH_TIME: Duration = Duration::from_millis(50);

/// Plays the pending games of `study`, one ruleset per reading (in [`Study::readings`]
/// order), calling `on_row` on the calling thread as each game finishes. Every game
/// depends only on the study seed, its reading and its index.
pub fn run<R: Ruleset>(
    study: &Study,
    rules: &[Arc<R>],
    plan: &RunPlan,
    movers: &MoverFactory<R::Game>,
    ledger: fn(&R::Game) -> Option<Ledger>,
    on_row: &mut dyn FnMut(&GameRow),
) -> Result<RunStats, LabError>
where
    R::Game: Census,
{
    let readings = study.readings();
    assert_eq!(readings.len(), rules.len(), "one ruleset per reading");
    let seats = study.seats.len();
    let specs = study.seat_players(seats)?;
    // Fail on a player this family cannot make before starting any thread.
    for (s, spec) in specs.iter().enumerate() {
        movers(s, spec, 0)?;
    }
    let jobs = pending(study, plan);
    let next = AtomicUsize::new(0);
    let start = Instant::now();
    let (mut played, mut plies) = (0u64, 0u64);
    // Fast games (random players) finish by the ten thousand a second: each thread hands
    // its rows over in batches, at most `BATCH_TIME` old, rather than waking the caller
    // for every game.
    let (tx, rx) = mpsc::channel::<Result<Vec<GameRow>, LabError>>();
    thread::scope(|scope| {
        for _ in 0..plan.threads.clamp(1, jobs.len().max(1)) {
            let tx = tx.clone();
            let (jobs, next, readings, specs) = (&jobs, &next, &readings, &specs);
            scope.spawn(move || {
                let mut batch = Vec::new();
                let mut since = Instant::now();
                loop {
                    let stopped = plan
                        .stop
                        .as_ref()
                        .is_some_and(|s| s.load(Ordering::Relaxed));
                    let job = if stopped {
                        None
                    } else {
                        jobs.get(next.fetch_add(1, Ordering::Relaxed))
                    };
                    let Some(&(r, index)) = job else {
                        if !batch.is_empty() {
                            let _ = tx.send(Ok(batch));
                        }
                        break;
                    };
                    let key = &readings[r].key;
                    let seed = study.game_seed(key, index);
                    let row = specs
                        .iter()
                        .enumerate()
                        .map(|(s, spec)| movers(s, spec, mix(seed ^ mix(s as u64 + 1))))
                        .collect::<Result<Vec<_>, _>>()
                        .map(|mut m| {
                            let (_, mut row) = play_one(
                                &rules[r],
                                &mut m,
                                seed,
                                study.max_plies,
                                study.opening_moves,
                                ledger,
                            );
                            row.reading = key.clone();
                            row.index = index;
                            row
                        });
                    let sent = match row {
                        Ok(row) => {
                            batch.push(row);
                            if batch.len() >= BATCH_ROWS || since.elapsed() >= BATCH_TIME {
                                since = Instant::now();
                                tx.send(Ok(mem::take(&mut batch))).is_ok()
                            } else {
                                true
                            }
                        }
                        Err(e) => {
                            let _ = tx.send(Err(e));
                            false
                        }
                    };
                    if !sent {
                        break;
                    }
                }
            });
        }
        drop(tx);
        for rows in rx {
            for row in rows? {
                played += 1;
                plies += u64::from(row.plies);
                on_row(&row);
            }
        }
        Ok(())
    })?;
    Ok(RunStats {
        played,
        plies,
        elapsed: start.elapsed(),
    })
}
