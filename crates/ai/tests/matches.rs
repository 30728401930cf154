//! The match runner: seats, pairs, threads, records that replay, and the report.

mod toys;

use libro_ai::{
    a_score, play_match, replay, GameRecord, MatchConfig, PlayerSpec, Ply, ReplayError,
};
use libro_core::{EndReason, Game, GameResult, Seat};
use std::sync::Arc;
use toys::race::RaceRules;
use toys::tictactoe::TicTacToeRules;
use toys::tron::TronRules;

fn spec(s: &str) -> PlayerSpec {
    s.parse().unwrap()
}

fn config(games: u32, threads: usize) -> MatchConfig {
    MatchConfig {
        games,
        threads,
        seed: 5,
        opening_moves: 2,
        ..MatchConfig::default()
    }
}

#[test]
fn results_do_not_depend_on_the_threads() {
    let rules = Arc::new(RaceRules { length: 6 });
    let (a, b) = (spec("ai:nodes=400"), spec("greedy,seed=3"));
    let one = play_match(&rules, &a, &b, &config(12, 1), &mut |_| {});
    let mut seen = Vec::new();
    let two = play_match(&rules, &a, &b, &config(12, 2), &mut |r| seen.push(r.index));
    assert_eq!(one.records, two.records);
    assert_eq!(one.report, two.report);
    seen.sort();
    assert_eq!(
        seen,
        (0..12).collect::<Vec<_>>(),
        "one progress call per game"
    );
}

#[test]
fn seats_alternate_and_pairs_share_dice_and_opening() {
    let rules = Arc::new(RaceRules { length: 6 });
    let out = play_match(
        &rules,
        &spec("ai:nodes=300"),
        &spec("random"),
        &config(6, 2),
        &mut |_| {},
    );
    for pair in out.records.chunks(2) {
        let (first, second) = (&pair[0], &pair[1]);
        assert_eq!(
            (first.a_seats.clone(), second.a_seats.clone()),
            (vec![0], vec![1])
        );
        assert_eq!(
            first.players,
            vec!["ai:nodes=300".to_string(), "random".to_string()]
        );
        assert_eq!(
            second.players,
            vec!["random".to_string(), "ai:nodes=300".to_string()]
        );
        assert_eq!(first.seed, second.seed);
        // The opening: first roll, first move, second roll, second move.
        assert_eq!(first.plies[..4], second.plies[..4]);
        assert!(matches!(first.plies[0], Ply::Chance(_)) && matches!(first.plies[1], Ply::Move(_)));
    }
    assert_ne!(out.records[0].seed, out.records[2].seed, "pairs differ");
}

#[test]
fn records_replay_exactly_and_tampering_is_caught() {
    let rules = Arc::new(RaceRules { length: 6 });
    let out = play_match(
        &rules,
        &spec("ai:2,seed=1"),
        &spec("greedy"),
        &config(4, 2),
        &mut |_| {},
    );
    for r in &out.records {
        let game = replay(&rules, r).unwrap();
        assert!(r.result.is_some());
        assert_eq!(game.result(), r.result);
        // The record survives a JSON round trip.
        let json = serde_json::to_string(r).unwrap();
        let back: GameRecord = serde_json::from_str(&json).unwrap();
        assert_eq!(&back, r);
    }
    let mut bad = out.records[0].clone();
    let i = bad
        .plies
        .iter()
        .position(|p| matches!(p, Ply::Move(_)))
        .unwrap();
    bad.plies[i] = Ply::Move("9/6".into());
    assert!(matches!(replay(&rules, &bad), Err(ReplayError::BadMove { ply, .. }) if ply == i));
    let mut bad = out.records[0].clone();
    bad.plies[0] = Ply::Chance("7".into());
    assert!(matches!(
        replay(&rules, &bad),
        Err(ReplayError::BadChance { ply: 0, .. })
    ));
    let mut bad = out.records[0].clone();
    bad.plies.pop();
    assert!(matches!(
        replay(&rules, &bad),
        Err(ReplayError::ResultDiffers { .. })
    ));
}

#[test]
fn perfect_players_draw_tic_tac_toe() {
    // Every first move draws with best play, and both sides play it: all draws, an even
    // score, Elo 0 with no spread.
    let rules = Arc::new(TicTacToeRules);
    let config = MatchConfig {
        games: 8,
        threads: 2,
        seed: 2,
        opening_moves: 1,
        ..MatchConfig::default()
    };
    let out = play_match(&rules, &spec("ai:5"), &spec("ai:6"), &config, &mut |_| {});
    let r = &out.report;
    assert_eq!((r.wins, r.draws, r.losses), (0, 8, 0));
    assert_eq!((r.score, r.elo), (0.5, Some(0.0)));
    // Eight draws are 4 points of 8: an interval around one half, symmetric in Elo.
    let (lo, hi) = r.score_interval();
    assert!(
        lo < 0.5 && hi > 0.5 && (lo + hi - 1.0).abs() < 1e-9,
        "{r:?}"
    );
    assert!(
        (r.elo_low.unwrap() + r.elo_high.unwrap()).abs() < 1e-6,
        "{r:?}"
    );
}

#[test]
fn games_over_the_ply_cap_count_as_even() {
    let rules = Arc::new(TronRules {
        width: 8,
        height: 8,
        seats: 2,
    });
    let config = MatchConfig {
        games: 2,
        max_plies: 6,
        ..config(2, 1)
    };
    let out = play_match(
        &rules,
        &spec("random"),
        &spec("random,seed=9"),
        &config,
        &mut |_| {},
    );
    for r in &out.records {
        assert_eq!((r.result.clone(), r.a_score, r.plies.len()), (None, 0.5, 6));
        replay(&rules, r).unwrap();
    }
    assert_eq!(out.report.draws, 2);
}

#[test]
fn a_scores_scale_the_fair_share_to_one_half() {
    let win = |n, s| GameResult::win(n, Seat(s), EndReason::Elimination);
    // Two seats: A's own score.
    assert_eq!(a_score(Some(&win(2, 1)), &[Seat(1)], 2), 1.0);
    assert_eq!(
        a_score(
            Some(&GameResult::draw(
                2,
                &[Seat(0), Seat(1)],
                EndReason::Repetition
            )),
            &[Seat(0)],
            2
        ),
        0.5
    );
    // Four seats split two and two: the share of A's two seats.
    assert_eq!(a_score(Some(&win(4, 2)), &[Seat(0), Seat(2)], 4), 1.0);
    assert_eq!(a_score(Some(&win(4, 3)), &[Seat(0), Seat(2)], 4), 0.0);
    // Three seats, A on two of them: fair share 2/3. A three-way draw gives A exactly 2/3
    // (even: 0.5); B winning gives 0; one of A's winning gives all.
    let three_way = GameResult::draw(3, &[Seat(0), Seat(1), Seat(2)], EndReason::NoProgress);
    assert!((a_score(Some(&three_way), &[Seat(0), Seat(2)], 3) - 0.5).abs() < 1e-6);
    assert_eq!(a_score(Some(&win(3, 1)), &[Seat(0), Seat(2)], 3), 0.0);
    assert_eq!(a_score(Some(&win(3, 2)), &[Seat(0), Seat(2)], 3), 1.0);
    // A stopped game is even.
    assert_eq!(a_score(None, &[Seat(0)], 2), 0.5);
}

#[test]
fn a_stopped_match_starts_no_game() {
    let rules = Arc::new(TronRules {
        width: 8,
        height: 8,
        seats: 2,
    });
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(true));
    let config = MatchConfig {
        stop: Some(stop),
        ..config(10, 2)
    };
    let out = play_match(
        &rules,
        &spec("random"),
        &spec("random"),
        &config,
        &mut |_| {},
    );
    assert_eq!(
        (out.records.len(), out.report.games(), out.report.elo),
        (0, 0, None)
    );
}
