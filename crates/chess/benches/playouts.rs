//! Random games per second through the `Game` interface (legal moves, a random pick, play),
//! the figure Ludii reports for its four-player game (12.4 games/s of 5000 plies here).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use libro_chess::{ChessGame, ChessRules, MoveList};
use libro_core::Game;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

fn load(name: &str) -> Arc<ChessRules> {
    let path = format!("{}/../../rulesets/{name}.toml", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("ruleset file");
    Arc::new(ChessRules::from_toml(&text, &path, &[]).expect("valid ruleset"))
}

/// Plays one random game to its end; returns its length in plies.
fn random_game(rules: &Arc<ChessRules>, rng: &mut ChaCha8Rng) -> u32 {
    let mut game = ChessGame::new_unbet(rules);
    let mut moves = MoveList::new();
    loop {
        game.legal_moves(&mut moves);
        if moves.is_empty() {
            return game.ply();
        }
        let mv = moves[rng.gen_range(0..moves.len())];
        game.play(mv);
    }
}

fn games_per_second(c: &mut Criterion) {
    let mut group = c.benchmark_group("random-games");
    group.sample_size(10);
    for name in [
        "cuatro-tiempos-ludii",
        "cuatro-tiempos",
        "acedrex",
        "acedrex-ludii",
        "short-assize-ludii",
    ] {
        let rules = load(name);
        group.throughput(Throughput::Elements(1));
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        group.bench_function(name, |b| b.iter(|| random_game(&rules, &mut rng)));
    }
    group.finish();
}

criterion_group!(benches, games_per_second);
criterion_main!(benches);
