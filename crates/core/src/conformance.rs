//! The conformance suite every game runs through the interface: seeded random playouts that
//! check the invariants any correct implementation keeps.
//!
//! At every position of every playout it checks that the position string round-trips (same
//! string, same hash, same legal moves), that the incremental hash equals a recomputed one,
//! that every listed move and chance outcome is printed in notation that reads back as itself, that a
//! seat to move always has a move (passes are moves), and that chance outcomes are distinct
//! with probabilities summing to one and include the game's own sample. A game asked for its
//! legal moves first must say the same (turn, result, moves, hash, position string) as one
//! asked for its turn first, since games may settle an end test from the move list. Every
//! game must end with a result within the ply cap.

use crate::{Chance, Game, MoveBuffer, Ruleset, Turn};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeMap;
use std::sync::Arc;

/// How many playouts to run and how.
#[derive(Clone, Debug)]
pub struct PlayoutConfig {
    /// Number of games.
    pub games: u32,
    /// Seed of the first game; game `i` uses `seed + i` (for the moves and the game's dice).
    pub seed: u64,
    /// A game still running after this many plies is a violation: every ruleset must end.
    pub max_plies: u32,
    /// Check the position string round-trip every this many plies (1 = every ply).
    pub notation_every: u32,
}

impl Default for PlayoutConfig {
    fn default() -> Self {
        PlayoutConfig {
            games: 20,
            seed: 1,
            max_plies: 20_000,
            notation_every: 1,
        }
    }
}

/// What the playouts covered.
#[derive(Clone, Debug, Default)]
pub struct Report {
    pub games: u32,
    pub plies: u64,
    /// How many games ended for each reason (by [`crate::EndReason::name`]).
    pub endings: BTreeMap<&'static str, u32>,
}

/// A broken invariant, with where it was found.
#[derive(Debug, thiserror::Error)]
#[error("game {game} (seed {seed}), ply {ply}, position `{position}`: {what}")]
pub struct Violation {
    pub game: u32,
    pub seed: u64,
    pub ply: u32,
    pub position: String,
    pub what: String,
}

/// Runs seeded random playouts of `rules` and checks every invariant along the way.
pub fn random_playouts<R: Ruleset>(
    rules: &Arc<R>,
    config: &PlayoutConfig,
) -> Result<Report, Violation> {
    let mut report = Report::default();
    let mut moves = <G<R> as Game>::MoveList::default();
    let mut chances = Vec::new();
    for game_index in 0..config.games {
        let seed = config.seed.wrapping_add(u64::from(game_index));
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut game = rules.new_game(seed);
        let fail = |game: &G<R>, what: String| Violation {
            game: game_index,
            seed,
            ply: game.ply(),
            position: game.to_string(),
            what,
        };
        loop {
            // First, before anything is asked of `game` itself.
            check_ask_order(&game).map_err(|what| fail(&game, what))?;
            if game.hash() != game.recompute_hash() {
                return Err(fail(
                    &game,
                    format!(
                        "incremental hash {:#x} differs from recomputed {:#x}",
                        game.hash(),
                        game.recompute_hash()
                    ),
                ));
            }
            if game.ply() % config.notation_every.max(1) == 0 {
                check_round_trip(rules, &game).map_err(|what| fail(&game, what))?;
            }
            match game.turn() {
                Turn::Over => {
                    let Some(result) = game.result() else {
                        return Err(fail(&game, "the game is over but has no result".into()));
                    };
                    if result.seats.len() != game.num_seats() {
                        return Err(fail(
                            &game,
                            format!(
                                "result lists {} seats, the game has {}",
                                result.seats.len(),
                                game.num_seats()
                            ),
                        ));
                    }
                    let total: f32 = result.seats.iter().map(|s| s.score).sum();
                    if (total - 1.0).abs() > 1e-4 {
                        return Err(fail(&game, format!("scores sum to {total}, not 1")));
                    }
                    *report.endings.entry(result.reason.name()).or_default() += 1;
                    break;
                }
                Turn::Chance => {
                    game.chance_outcomes(&mut chances);
                    check_chances(&game, &chances).map_err(|what| fail(&game, what))?;
                    let outcome = if rng.gen_bool(0.5) {
                        game.sample_chance()
                    } else {
                        chances[rng.gen_range(0..chances.len())].outcome
                    };
                    game.apply_chance(outcome);
                }
                Turn::Seat(_) => {
                    if game.result().is_some() {
                        return Err(fail(
                            &game,
                            "a seat is to move but the game has a result".into(),
                        ));
                    }
                    game.legal_moves(&mut moves);
                    if moves.is_empty() {
                        return Err(fail(
                            &game,
                            "a seat is to move but has no legal move (a pass must be a move)"
                                .into(),
                        ));
                    }
                    for &mv in moves.as_slice() {
                        let text = game.move_text(mv);
                        match game.parse_move(&text) {
                            Ok(parsed) if parsed == mv => {}
                            Ok(parsed) => {
                                return Err(fail(&game, format!("move {mv:?} prints as `{text}`, which parses as a different move {parsed:?}")))
                            }
                            Err(e) => return Err(fail(&game, format!("move {mv:?} prints as `{text}`, which does not parse back: {e}"))),
                        }
                    }
                    let mv = moves.as_slice()[rng.gen_range(0..moves.len())];
                    game.play(mv);
                }
            }
            report.plies += 1;
            if game.ply() > config.max_plies {
                return Err(fail(
                    &game,
                    format!("the game has not ended after {} plies", config.max_plies),
                ));
            }
        }
        report.games += 1;
    }
    Ok(report)
}

type G<R> = <R as Ruleset>::Game;

/// What a game says of itself: its turn, result, legal moves, hash and position string.
type Story<M> = (Turn, Option<crate::GameResult>, Vec<M>, u64, String);

/// Two fresh copies of `game`, one asked for its legal moves first and one for its turn
/// first, must tell the same story.
fn check_ask_order<Gm: Game>(game: &Gm) -> Result<(), String> {
    let tell = |moves_first: bool| -> Story<Gm::Move> {
        let g = game.clone();
        let mut moves = Gm::MoveList::default();
        if moves_first {
            g.legal_moves(&mut moves);
        }
        let (turn, result) = (g.turn(), g.result());
        if !moves_first {
            g.legal_moves(&mut moves);
        }
        (
            turn,
            result,
            moves.as_slice().to_vec(),
            g.hash(),
            g.to_string(),
        )
    };
    let (moves_first, turn_first) = (tell(true), tell(false));
    if moves_first != turn_first {
        return Err(format!(
            "asked for its moves first the game says {moves_first:?}, asked for its turn first {turn_first:?}"
        ));
    }
    Ok(())
}

fn check_round_trip<R: Ruleset>(rules: &Arc<R>, game: &G<R>) -> Result<(), String> {
    let text = game.to_string();
    let parsed = rules
        .parse_position(&text)
        .map_err(|e| format!("the position string does not parse back: {e}"))?;
    let again = parsed.to_string();
    if again != text {
        return Err(format!("the position string re-prints as `{again}`"));
    }
    if parsed.hash() != game.hash() {
        return Err(format!(
            "the re-read position hashes to {:#x}, not {:#x}",
            parsed.hash(),
            game.hash()
        ));
    }
    if parsed.turn() != game.turn() {
        return Err(format!(
            "the re-read position has turn {:?}, not {:?}",
            parsed.turn(),
            game.turn()
        ));
    }
    let mut a = <G<R> as Game>::MoveList::default();
    let mut b = <G<R> as Game>::MoveList::default();
    game.legal_moves(&mut a);
    parsed.legal_moves(&mut b);
    let mut ta: Vec<String> = a.as_slice().iter().map(|&m| game.move_text(m)).collect();
    let mut tb: Vec<String> = b.as_slice().iter().map(|&m| parsed.move_text(m)).collect();
    ta.sort();
    tb.sort();
    if ta != tb {
        return Err(format!(
            "the re-read position has other legal moves: {tb:?} instead of {ta:?}"
        ));
    }
    Ok(())
}

fn check_chances<T: Game>(game: &T, chances: &[Chance<T::ChanceOutcome>]) -> Result<(), String> {
    if chances.is_empty() {
        return Err("chance is to move but lists no outcome".into());
    }
    let total = chances[0].total;
    if chances.iter().any(|c| c.total != total || c.weight == 0) {
        return Err("chance outcomes disagree on their total or have zero weight".into());
    }
    let sum: u64 = chances.iter().map(|c| u64::from(c.weight)).sum();
    if sum != u64::from(total) {
        return Err(format!(
            "chance weights sum to {sum}, not the total {total}"
        ));
    }
    for (i, c) in chances.iter().enumerate() {
        if chances[..i].iter().any(|d| d.outcome == c.outcome) {
            return Err(format!("chance outcome {:?} is listed twice", c.outcome));
        }
        let text = c.outcome.to_string();
        if text.parse::<T::ChanceOutcome>().ok() != Some(c.outcome) {
            return Err(format!(
                "chance outcome {:?} prints as `{text}`, which does not read back as itself",
                c.outcome
            ));
        }
    }
    let sample = game.sample_chance();
    if !chances.iter().any(|c| c.outcome == sample) {
        return Err(format!(
            "the game's own sample {sample:?} is not among its listed outcomes"
        ));
    }
    Ok(())
}
