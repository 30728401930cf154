//! Search speed in nodes per second on the toy games of the tests (criterion reports the
//! throughput in elements per second: here, nodes per second).
//!
//! `cargo bench -p libro-ai --bench search`

#[path = "../tests/toys/mod.rs"]
mod toys;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use libro_ai::{Control, Limits, MultiSearch, SearchConfig, Searcher};
use libro_core::{Game, Heuristic, Ruleset};
use std::sync::Arc;
use toys::race::RaceRules;
use toys::tron::TronRules;

/// Each search runs to a budget of this many nodes, so every iteration does the same work.
const NODES: u64 = 200_000;

fn bench_search<G: Heuristic>(c: &mut Criterion, name: &str, game: &G, multi: MultiSearch) {
    let limits = Limits {
        nodes: Some(NODES),
        ..Limits::default()
    };
    let mut searcher: Searcher<G> = Searcher::new(SearchConfig { hash_mb: 4, multi });
    let first = searcher
        .search(game, &limits, &Control::default())
        .expect("a seat to move");
    let (nodes, depth) = (first.nodes, first.depth);
    let mut group = c.benchmark_group("search");
    group.throughput(Throughput::Elements(nodes));
    group.sample_size(10);
    group.bench_function(format!("{name} ({nodes} nodes, depth {depth})"), |b| {
        b.iter(|| {
            searcher.clear();
            searcher.search(game, &limits, &Control::default())
        })
    });
    group.finish();
}

fn benches(c: &mut Criterion) {
    let tron = |seats| {
        Arc::new(TronRules {
            width: 8,
            height: 8,
            seats,
        })
        .new_game(0)
    };
    let (tron2, tron4) = (tron(2), tron(4));
    bench_search(
        c,
        "alpha-beta, light cycles 8x8, 2 seats",
        &tron2,
        MultiSearch::Paranoid,
    );
    bench_search(
        c,
        "paranoid, light cycles 8x8, 4 seats",
        &tron4,
        MultiSearch::Paranoid,
    );
    bench_search(
        c,
        "max^n, light cycles 8x8, 4 seats",
        &tron4,
        MultiSearch::MaxN,
    );
    let mut race = Arc::new(RaceRules { length: 8 }).new_game(1);
    race.apply_chance(2);
    bench_search(c, "expectimax, dice race", &race, MultiSearch::Paranoid);
}

criterion_group!(search, benches);
criterion_main!(search);
