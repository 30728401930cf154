//! Perft speed per ruleset (criterion reports the throughput in nodes per second), and the
//! cost of the two ways to explore: copying the `Position` per child (copy-make, what the
//! engine does) against copying the whole `ChessGame` (which also clones its history).

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use libro_chess::{perft, ChessGame, ChessRules, MoveList};
use libro_core::Game;
use std::sync::Arc;

fn load(name: &str) -> Arc<ChessRules> {
    let path = format!("{}/../../rulesets/{name}.toml", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("ruleset file");
    Arc::new(ChessRules::from_toml(&text, &path, &[]).expect("valid ruleset"))
}

fn perft_per_ruleset(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    for (name, depth) in [
        ("acedrex", 6),
        ("acedrex-ludii", 5),
        ("forcado", 5),
        ("forcado-ludii", 5),
        ("short-assize", 5),
        ("short-assize-ludii", 4),
        ("shatranj", 6),
        ("cuatro-tiempos", 6),
        ("cuatro-tiempos-ludii", 6),
    ] {
        let r = load(name);
        let start = r.perft_start();
        let nodes = perft(&r, start.position(), depth);
        group.throughput(Throughput::Elements(nodes));
        group.bench_with_input(BenchmarkId::new(name, depth), &depth, |b, &d| {
            b.iter(|| perft(&r, start.position(), d))
        });
    }
    group.finish();
}

/// Perft through the `Game` interface: clone the game per child (what generic code does).
fn game_perft(g: &ChessGame, depth: u32) -> u64 {
    let mut moves = MoveList::new();
    g.legal_moves(&mut moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|&m| {
            let mut child = g.clone();
            child.play(m);
            game_perft(&child, depth - 1)
        })
        .sum()
}

fn copy_make(c: &mut Criterion) {
    let r = load("acedrex");
    let start = r.perft_start();
    let nodes = perft(&r, start.position(), 4);
    let mut group = c.benchmark_group("explore-acedrex-depth-4");
    group.sample_size(10);
    group.throughput(Throughput::Elements(nodes));
    group.bench_function("position-copy-make", |b| {
        b.iter(|| perft(&r, start.position(), 4))
    });
    group.bench_function("game-clone", |b| b.iter(|| game_perft(&start, 4)));
    group.finish();
}

criterion_group!(benches, perft_per_ruleset, copy_make);
criterion_main!(benches);
