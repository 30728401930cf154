//! Ludii's 50 shared random playouts of each game, replayed move for move (files read at test
//! time from `tests/reference/ludii/`): legal-move counts, legality of every recorded
//! move, captures, promotions, the pot and eliminations, and how each game ended.

mod common;

use common::{reference, rules};
use libro_chess::replay_ludii;

fn replay(file: &str, ruleset: &str, plies: u64) {
    replay_games(file, ruleset, 50, plies);
}

fn replay_games(file: &str, ruleset: &str, games: usize, plies: u64) {
    let r = rules(ruleset, &[]);
    let report = replay_ludii(&r, &reference(&format!("ludii/{file}")));
    let shown: Vec<String> = report
        .mismatches
        .iter()
        .take(15)
        .map(|m| m.to_string())
        .collect();
    assert!(
        report.mismatches.is_empty(),
        "{} mismatches, first:\n{}",
        report.mismatches.len(),
        shown.join("\n")
    );
    assert_eq!(report.games, games);
    assert_eq!(report.plies, plies);
}

/// The total plies recorded in a playout file.
fn recorded_plies(file: &str) -> u64 {
    reference(&format!("ludii/{file}"))
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).expect("JSON line")["moves"]
                .as_array()
                .expect("moves")
                .len() as u64
        })
        .sum()
}

#[test]
fn acedrex_playouts() {
    replay(
        "acedrex-alfonso.jsonl",
        "acedrex-ludii",
        recorded_plies("acedrex-alfonso.jsonl"),
    );
}

#[test]
fn forcado_playouts() {
    replay(
        "forcado.jsonl",
        "forcado-ludii",
        recorded_plies("forcado.jsonl"),
    );
}

#[test]
fn short_assize_playouts() {
    replay(
        "short-assize.jsonl",
        "short-assize-ludii",
        recorded_plies("short-assize.jsonl"),
    );
}

/// Two more Short Assize playouts in which a phantom pawn carries a piece onto a piece of the
/// same side (plies 143 and 311): Ludii overwrites the target without recording a removal,
/// and every later legal-move count and the final board show it gone.
#[test]
fn short_assize_stacking_cases() {
    replay_games(
        "short-assize-stacking-cases.jsonl",
        "short-assize-ludii",
        2,
        recorded_plies("short-assize-stacking-cases.jsonl"),
    );
}

#[test]
fn cuatro_tiempos_playouts() {
    replay(
        "acedrex-cuatro-tiempos.jsonl",
        "cuatro-tiempos-ludii",
        recorded_plies("acedrex-cuatro-tiempos.jsonl"),
    );
}
