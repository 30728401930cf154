//! Speed of the tables family: full-turn generation for a position and a roll, falla
//! odds over all 56 rolls, and random games per second (through the `Game` interface, and
//! with the fast die-by-die random play).

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use libro_core::{Game, Ruleset, Turn};
use libro_tables::{generate_plays, Dice, PlayList, TablesGame, TablesRules};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::hint::black_box;
use std::sync::Arc;

fn fallas() -> Arc<TablesRules> {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../rulesets/fallas.toml"
    ))
    .unwrap();
    Arc::new(TablesRules::from_toml(&text, "rulesets/fallas.toml", &[]).unwrap())
}

/// (name, position, roll): the start (8 plays), a middle game met in a random game with the
/// most plays among 300 games (329), and a spread position (2480).
const POSITIONS: &[(&str, &str, &str)] = &[
    ("start", "4P8DADDg/wMAMA:white:6-4-1", "6-4-1"),
    ("middle", "J/4DQAhwfxQFEA:white:3-2-1", "3-2-1"),
    ("spread", "AAAA/38AqqqqKg:white:roll", "6-5-4"),
];

fn full_turn(c: &mut Criterion) {
    let rules = fallas();
    let mut group = c.benchmark_group("full_turn");
    for &(name, text, roll) in POSITIONS {
        let game = rules.parse_position(text).unwrap();
        let dice: Dice = roll.parse().unwrap();
        let seat = game.analysed_seat().unwrap().index();
        let mut out = PlayList::new();
        generate_plays(&rules, game.board(), seat, dice, &mut out);
        group.throughput(Throughput::Elements(out.len() as u64));
        group.bench_with_input(
            BenchmarkId::new(name, format!("{roll} ({} plays)", out.len())),
            &game,
            |b, game| {
                b.iter(|| {
                    generate_plays(&rules, game.board(), seat, black_box(dice), &mut out);
                    out.len()
                })
            },
        );
    }
    group.finish();
}

fn falla_odds(c: &mut Criterion) {
    let rules = fallas();
    let game = rules.parse_position("4P8DADDg/wMAMA:white:roll").unwrap();
    c.bench_function("falla_odds/start (56 rolls)", |b| {
        b.iter(|| black_box(&game).falla_odds().unwrap().falla_weight)
    });
}

/// One random game through the interface: every chance event sampled from the game's own
/// dice, every move drawn uniformly from the listed plays.
fn interface_game(
    rules: &Arc<TablesRules>,
    seed: u64,
    rng: &mut ChaCha8Rng,
    moves: &mut PlayList,
) -> u32 {
    let mut game = rules.new_game(seed);
    loop {
        match game.turn() {
            Turn::Chance => {
                let o = game.sample_chance();
                game.apply_chance(o);
            }
            Turn::Seat(_) => {
                game.legal_moves(moves);
                let mv = moves.as_slice()[rng.gen_range(0..moves.len())];
                game.play(mv);
            }
            Turn::Over => return game.ply(),
        }
    }
}

/// One random game with the die-by-die random play (no full list of plays).
fn die_by_die_game(rules: &Arc<TablesRules>, seed: u64, rng: &mut ChaCha8Rng) -> u32 {
    let mut game: TablesGame = rules.new_game(seed);
    loop {
        match game.turn() {
            Turn::Chance => {
                let o = game.sample_chance();
                game.apply_chance(o);
            }
            Turn::Seat(_) => {
                let mv = game.random_play(rng).expect("a seat to move has a play");
                game.play(mv);
            }
            Turn::Over => return game.ply(),
        }
    }
}

fn random_games(c: &mut Criterion) {
    let rules = fallas();
    let mut group = c.benchmark_group("random_games");
    group.throughput(Throughput::Elements(1));
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let mut moves = PlayList::new();
    let mut seed = 0u64;
    group.bench_function("interface (uniform over listed plays)", |b| {
        b.iter(|| {
            seed += 1;
            interface_game(&rules, seed, &mut rng, &mut moves)
        })
    });
    group.bench_function("die_by_die", |b| {
        b.iter(|| {
            seed += 1;
            die_by_die_game(&rules, seed, &mut rng)
        })
    });
    group.finish();
}

criterion_group!(benches, full_turn, falla_odds, random_games);
criterion_main!(benches);
