//! Evaluation speed: static values per second over the positions of a fixed game of each
//! two-seat ruleset (the same positions every run, so a change to the evaluation's cost
//! shows here even where it changes the search's tree, and so its nodes per second).
//!
//! `cargo bench -p libro-chess --bench eval` (shatranj also with its network, as it plays).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use libro_chess::net::Network;
use libro_chess::{ChessGame, ChessRules, MoveList};
use libro_core::{Game, Heuristic, Seat};
use std::hint::black_box;
use std::sync::Arc;

/// Positions taken from each game: its first plies, or fewer if it ends sooner.
const PLIES: usize = 160;

fn rules(name: &str) -> Arc<ChessRules> {
    let path = format!("{}/../../rulesets/{name}.toml", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("ruleset file");
    Arc::new(ChessRules::from_toml(&text, &path, &[]).expect("ruleset loads"))
}

/// The positions of a game whose every move is picked from the legal ones by its ply.
fn positions(r: &Arc<ChessRules>) -> Vec<ChessGame> {
    let mut g = ChessGame::new(r);
    let mut moves = MoveList::new();
    let mut out = Vec::with_capacity(PLIES);
    for ply in 0..PLIES {
        g.legal_moves(&mut moves);
        if moves.is_empty() || g.is_over() {
            break;
        }
        out.push(g.clone());
        g.play(moves[(ply * 7 + 3) % moves.len()]);
    }
    out
}

fn benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("evaluate");
    for name in ["shatranj", "acedrex", "forcado", "short-assize"] {
        let games = positions(&rules(name));
        group.throughput(Throughput::Elements(games.len() as u64));
        group.bench_function(format!("{name} ({} positions)", games.len()), |b| {
            b.iter(|| {
                games
                    .iter()
                    .map(|g| black_box(g).evaluate(Seat(0)))
                    .fold(0i64, |a, v| a + i64::from(v))
            })
        });
    }
    // Shatranj again with the network shipped beside it, as the engine plays it.
    let path = format!(
        "{}/../../rulesets/shatranj.nnue",
        env!("CARGO_MANIFEST_DIR")
    );
    let net = Network::from_bytes(&std::fs::read(&path).expect("network file")).expect(&path);
    let with_net = Arc::new(
        Arc::unwrap_or_clone(rules("shatranj"))
            .with_network(Some(Arc::new(net)))
            .expect("the network fits shatranj"),
    );
    let games = positions(&with_net);
    group.throughput(Throughput::Elements(games.len() as u64));
    group.bench_function(
        format!("shatranj with its network ({} positions)", games.len()),
        |b| {
            b.iter(|| {
                games
                    .iter()
                    .map(|g| black_box(g).evaluate(Seat(0)))
                    .fold(0i64, |a, v| a + i64::from(v))
            })
        },
    );
    group.finish();
}

criterion_group!(eval, benches);
criterion_main!(eval);
