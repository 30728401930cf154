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

fn bench_search<G: Heuristic>(
    c: &mut Criterion,
    name: &str,
    game: &G,
    depth: u32,
    multi: MultiSearch,
) {
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let mut searcher: Searcher<G> = Searcher::new(SearchConfig { hash_mb: 4, multi });
    let nodes = searcher
        .search(game, &limits, &Control::default())
        .expect("a seat to move")
        .nodes;
    let mut group = c.benchmark_group("search");
    group.throughput(Throughput::Elements(nodes));
    group.sample_size(10);
    group.bench_function(format!("{name} (depth {depth}, {nodes} nodes)"), |b| {
        b.iter(|| {
            searcher.clear();
            searcher.search(game, &limits, &Control::default())
        })
    });
    group.finish();
}

fn benches(c: &mut Criterion) {
    let tron2 = Arc::new(TronRules {
        width: 8,
        height: 8,
        seats: 2,
    })
    .new_game(0);
    bench_search(
        c,
        "alpha-beta, light cycles 8x8, 2 seats",
        &tron2,
        9,
        MultiSearch::Paranoid,
    );
    let tron4 = Arc::new(TronRules {
        width: 8,
        height: 8,
        seats: 4,
    })
    .new_game(0);
    bench_search(
        c,
        "paranoid, light cycles 8x8, 4 seats",
        &tron4,
        8,
        MultiSearch::Paranoid,
    );
    bench_search(
        c,
        "max^n, light cycles 8x8, 4 seats",
        &tron4,
        5,
        MultiSearch::MaxN,
    );
    let mut race = Arc::new(RaceRules { length: 8 }).new_game(1);
    race.apply_chance(2);
    bench_search(c, "expectimax, dice race", &race, 8, MultiSearch::Paranoid);
}

criterion_group!(search, benches);
criterion_main!(search);
