//! Search speed on Acedrex: nodes per second of the full search (alpha-beta with this
//! crate's evaluation) from the start and from a middlegame, to a fixed node budget.
//! Criterion reports the throughput in elements per second, here nodes per second.
//! (Fairy-Stockfish searches about 770 k nodes/s on this machine.)
//!
//! `cargo bench -p libro-chess --bench search`

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use libro_ai::{Control, Limits, SearchConfig, Searcher};
use libro_chess::{ChessGame, ChessRules};
use libro_core::{Game, Ruleset};
use std::sync::Arc;

/// Each search stops after this many nodes, so every iteration does the same work.
const NODES: u64 = 200_000;

fn acedrex() -> Arc<ChessRules> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../rulesets/acedrex.toml");
    let text = std::fs::read_to_string(path).expect("acedrex.toml");
    Arc::new(ChessRules::from_toml(&text, "acedrex.toml", &[]).expect("acedrex loads"))
}

fn bench_search(c: &mut Criterion, name: &str, game: &ChessGame) {
    let limits = Limits {
        nodes: Some(NODES),
        ..Limits::default()
    };
    let mut searcher: Searcher<ChessGame> = Searcher::new(SearchConfig {
        hash_mb: 16,
        ..SearchConfig::default()
    });
    let first = searcher
        .search(game, &limits, &Control::default())
        .expect("a seat to move");
    let mut group = c.benchmark_group("acedrex search");
    group.throughput(Throughput::Elements(first.nodes));
    group.sample_size(10);
    group.bench_function(
        format!("{name} ({} nodes, depth {})", first.nodes, first.depth),
        |b| {
            b.iter(|| {
                searcher.clear();
                searcher.search(game, &limits, &Control::default())
            })
        },
    );
    group.finish();
}

fn benches(c: &mut Criterion) {
    let r = acedrex();
    bench_search(c, "start", &ChessGame::new(&r));
    let mut mid = ChessGame::new(&r);
    for m in [
        "e2e4", "e7e5", "g1f3", "b8c6", "d1d3", "d8d6", "b1c3", "g8f6",
    ] {
        let mv = mid.parse_move(m).expect("a legal opening move");
        mid.play(mv);
    }
    let mid = r
        .parse_position(&mid.to_string())
        .expect("the position reads back");
    bench_search(c, "after 4 moves", &mid);
}

criterion_group!(search, benches);
criterion_main!(search);
