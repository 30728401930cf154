//! Cross-checks of the move generator against a plain one written straight from the rules
//! (tests/common: every ordering of the dice, every checker, no pruning), on positions met
//! in seeded random games.

mod common;

use common::*;
use libro_core::{Game, Ruleset, Turn};
use libro_tables::{Dice, Play, TablesChance, TablesGame, TablesRules};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::HashSet;
use std::sync::Arc;

/// Compares, for `rolls` random rolls at every roll of `games` random games, the set of
/// positions the plays reach and the falla verdict with the plain generator's.
fn cross_check(rules: &Arc<TablesRules>, exact: bool, games: u64, rolls: usize) -> usize {
    let mut compared = 0;
    for seed in 0..games {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut game = rules.new_game(seed);
        while game.turn() != Turn::Over {
            match game.turn() {
                Turn::Chance => {
                    if let libro_tables::Phase::Roll(seat) = game.phase() {
                        for _ in 0..rolls {
                            let values: Vec<u8> = (0..3).map(|_| rng.gen_range(1..=6)).collect();
                            compare(
                                rules,
                                &game,
                                seat.index(),
                                Dice::new(&values).unwrap(),
                                exact,
                            );
                            compared += 1;
                        }
                    }
                    let outcome = game.sample_chance();
                    game.apply_chance(outcome);
                }
                Turn::Seat(_) => {
                    let plays = game.plays();
                    let play = plays[rng.gen_range(0..plays.len())];
                    game.play(play);
                }
                Turn::Over => unreachable!(),
            }
        }
    }
    compared
}

fn compare(rules: &Arc<TablesRules>, game: &TablesGame, seat: usize, dice: Dice, exact: bool) {
    let found = game.plays_for(dice).unwrap();
    let reached: Vec<_> = found
        .plays
        .iter()
        .map(|p: &Play| after(game.board(), seat, p))
        .collect();
    let distinct: HashSet<_> = reached.iter().copied().collect();
    let expected = reference_results(rules, game.board(), seat, dice.values(), exact);
    let id = game.board().gnubg_id(seat);
    assert_eq!(
        distinct.len(),
        reached.len(),
        "{id} {dice}: two listed plays reach the same position"
    );
    assert_eq!(
        distinct, expected,
        "{id} {dice}: the plays reach other positions than the plain generator's"
    );
    assert_eq!(
        found.falla,
        expected.is_empty(),
        "{id} {dice}: falla verdict"
    );
}

#[test]
fn standard_bearing_off_matches_the_plain_generator() {
    let n = cross_check(&fallas(), false, 30, 6);
    assert!(n > 1000, "only {n} positions compared");
}

#[test]
fn exact_bearing_off_matches_the_plain_generator() {
    let n = cross_check(&fallas_with(&[("bear_off", "exact")]), true, 20, 6);
    assert!(n > 500, "only {n} positions compared");
}

#[test]
fn every_roll_from_the_start_matches_the_plain_generator() {
    let rules = fallas();
    let start = [(6, 13), (24, 2)];
    let game = to_roll(&rules, &start, &start, WHITE);
    for roll in rules.rolls() {
        compare(&rules, &game, 0, roll.outcome, false);
    }
}

#[test]
fn a_spread_position_with_thousands_of_plays_matches_the_plain_generator() {
    // White: one checker on each point 10-24; black all on the bar, so nothing blocks or
    // is hit. Three different dice give thousands of distinct plays (6-5-4: 2480), the
    // far end of what the fixed move buffer must hold.
    let rules = fallas();
    let white: Vec<(u8, u8)> = (10..=24).map(|p| (p, 1)).collect();
    let game = to_roll(&rules, &white, &[(libro_tables::BAR, 15)], WHITE);
    for roll in rules.rolls() {
        compare(&rules, &game, 0, roll.outcome, false);
    }
    assert!(
        game.plays_for("6-5-4".parse().unwrap())
            .unwrap()
            .plays
            .len()
            > 2000
    );
}

#[test]
fn start_falla_probability_is_one_in_216() {
    // By the plain generator over all 216 ordered rolls. By hand: only the 5s are ever
    // blocked at the start (24/19 and 6/1); any other die n takes a checker from 24 to
    // 24 − n (open for n ≠ 5), from where a 5 is open (23/18, 22/17, 21/16, 20/15, 18/13)
    // and then again (to 13, 12, 11, 10, 8). Rolls without a 5 play freely from 24 and 6.
    // So only 5-5-5 is a falla: 1 of 216.
    let rules = fallas();
    let start = [(6, 13), (24, 2)];
    let game = to_roll(&rules, &start, &start, WHITE);
    let mut fallas = 0;
    for a in 1..=6u8 {
        for b in 1..=6u8 {
            for c in 1..=6u8 {
                if reference_results(&rules, game.board(), 0, &[a, b, c], false).is_empty() {
                    fallas += 1;
                }
            }
        }
    }
    assert_eq!(fallas, 1);
    let odds = game.falla_odds().unwrap();
    assert_eq!((odds.falla_weight, odds.total), (fallas, 216));
    let only: Vec<String> = odds
        .rolls
        .iter()
        .filter(|r| r.falla)
        .map(|r| r.dice.to_string())
        .collect();
    assert_eq!(only, ["5-5-5"]);
}

#[test]
fn a_dictated_roll_and_the_games_own_dice_replay_exactly() {
    let rules = fallas();
    let play_out = |seed: u64| {
        let mut game = rules.new_game(seed);
        let mut rng = ChaCha8Rng::seed_from_u64(99);
        let mut record = Vec::new();
        while game.turn() != Turn::Over {
            if game.turn() == Turn::Chance {
                let o = game.sample_chance();
                record.push(o.to_string());
                game.apply_chance(o);
            } else {
                let p = game.random_play(&mut rng).unwrap();
                record.push(p.to_string());
                game.play(p);
            }
        }
        (record, game.to_string())
    };
    assert_eq!(play_out(5), play_out(5), "same seed, same game");
    assert_ne!(play_out(5), play_out(6));
    // A caller may dictate any listed outcome instead.
    let mut game = rules.new_game(5);
    game.apply_chance(TablesChance::RollOff([1, 6]));
    game.apply_chance(TablesChance::Roll("2-2-1".parse().unwrap()));
    assert_eq!(game.to_string(), "4P8DADDg/wMAMA:black:2-2-1");
}

#[test]
fn random_die_by_die_plays_are_listed_plays() {
    let rules = fallas();
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    for seed in 0..20 {
        let mut game = rules.new_game(seed);
        while game.turn() != Turn::Over {
            if game.turn() == Turn::Chance {
                let o = game.sample_chance();
                game.apply_chance(o);
            } else {
                let p = game.random_play(&mut rng).unwrap();
                let listed = game
                    .parse_move(&p.to_string())
                    .expect("a random play is legal");
                assert!(game.plays().contains(&listed));
                game.play(listed);
            }
        }
    }
}
