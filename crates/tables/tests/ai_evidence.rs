//! Evidence that the search, with the tables evaluation, knows the falla: given a roll
//! whose plays either leave its own next roll exposed to a falla or keep it safe, it keeps
//! it safe. Plus matches of the strongest search against `random` and `greedy` (ignored:
//! long; see [`strongest_against`]).

mod common;

use common::{fallas, to_move, WHITE};
use libro_ai::{choose_move, play_match, Control, MatchConfig, PlayerSpec};
use libro_core::{Game, Heuristic};
use libro_tables::{Phase, Play, PlayList, TablesGame};
use std::time::Instant;

/// The chance (out of 216) that white, rolling on the board `game` has after `play`,
/// cannot play all three dice — from the game's own analysis, not the evaluation.
fn white_falla_weight_after(game: &TablesGame, play: Play) -> u32 {
    let mut g = game.clone();
    g.play(play);
    let next = TablesGame::from_parts(game.rules().clone(), *g.board(), Phase::Roll(WHITE))
        .expect("position");
    next.falla_odds().expect("white on roll").falla_weight
}

#[test]
fn the_search_keeps_its_next_roll_safe_from_a_falla() {
    let r = fallas();
    // White (own numbering): two checkers on its 24-point behind Black's five points 19-23
    // (Black's own 2-6), free checkers on 12 and 11, eleven on its 1-point. Black also has
    // a checker on the bar and four on its 8-point (White's 17). White rolls 6-5-4.
    let white = [(24, 2), (12, 1), (11, 1), (1, 11)];
    let black = [(2, 2), (3, 2), (4, 2), (5, 2), (6, 2), (25, 1), (8, 4)];
    let g = to_move(&r, &white, &black, WHITE, "6-5-4");
    // Bringing both free checkers home (12/6 11/6 6/2, 12/6 11/7 6/1, 12/7 11/5 7/3) leaves
    // only the two back checkers outside the home table: they move only with a 6 (1 to 5
    // land on Black's points), the home checkers cannot use big dice and may not bear off
    // while those two are out, so about half the rolls (105 or 106 of 216) are fallas.
    // Every other play keeps a checker free outside (or starts a back checker running) and
    // no roll is a falla.
    let mut plays = PlayList::new();
    g.legal_moves(&mut plays);
    let weights: Vec<(Play, u32)> = plays
        .iter()
        .map(|&p| (p, white_falla_weight_after(&g, p)))
        .collect();
    let dangerous: Vec<String> = weights
        .iter()
        .filter(|(_, w)| *w > 100)
        .map(|(p, _)| p.to_string())
        .collect();
    assert_eq!(
        dangerous.len(),
        3,
        "the three plays bringing both free checkers home: {weights:?}"
    );
    assert!(weights.iter().filter(|(_, w)| *w == 0).count() >= 8);

    let spec: PlayerSpec = "ai:4".parse().expect("spec");
    let c = choose_move(&g, &spec, &Control::default()).expect("a play");
    assert_eq!(
        white_falla_weight_after(&g, c.mv),
        0,
        "ai:4 played {} (the dangerous plays are {dangerous:?})",
        c.mv
    );
    // With the best few plays filtered before the roll, a full-strength budget looks a
    // whole roll and reply ahead (two plies) and still keeps the next roll safe.
    let spec: PlayerSpec = "ai:6".parse().expect("spec");
    let c = choose_move(&g, &spec, &Control::default()).expect("a play");
    assert!(c.depth >= 2, "ai:6 finished only depth {}", c.depth);
    assert_eq!(
        white_falla_weight_after(&g, c.mv),
        0,
        "ai:6 played {}",
        c.mv
    );
}

#[test]
fn greedy_hits_the_blot_and_material_counts_the_pips_sent_back() {
    // White: one checker on 24, fourteen on its 1-point; Black: a lone checker on White's
    // 21 (Black's 4), fourteen on Black's 12. With 3-2-1 the back checker goes to 18
    // either hitting on 21 (orders 3,2,1 and the like) or not (2,3,1 / 1,3,2).
    let r = fallas();
    let g = to_move(&r, &[(24, 1), (1, 14)], &[(4, 1), (12, 14)], WHITE, "3-2-1");
    let hit = g.parse_move("24/21*/18").expect("the hitting play");
    let quiet = g.parse_move("24/22/19/18").expect("the quiet play");
    // Material is the race: before, White has 24 + 14 = 38 pips, Black 4 + 14 * 12 = 172.
    assert_eq!(g.material(WHITE), 172 - 38);
    let after = |p: Play| {
        let mut c = g.clone();
        c.play(p);
        c.material(WHITE)
    };
    // Both plays move White 6 pips; the hit also sends Black's checker from its 4 to the
    // bar (25): 21 pips more for Black.
    assert_eq!(after(quiet), 172 - 32);
    assert_eq!(after(hit), 172 + 21 - 32);
    for seed in 0..8 {
        let spec: PlayerSpec = format!("greedy,seed={seed}").parse().expect("spec");
        let c = choose_move(&g, &spec, &Control::default()).expect("a play");
        assert_eq!(c.mv, hit, "greedy (seed {seed}) played {}", c.mv);
    }
}

/// Plays the strongest search against `baseline` in Fallas and checks A's score. Run:
///
/// ```text
/// LIBRO_MATCH_AI=ai:8 LIBRO_MATCH_GAMES=20 LIBRO_MATCH_THREADS=2 \
///   cargo test -p libro-tables --release --test ai_evidence -- --ignored --nocapture --test-threads 1
/// ```
fn strongest_against(baseline: &str, target: f64) {
    let env_or = |k: &str, d: &str| std::env::var(k).unwrap_or_else(|_| d.to_string());
    let ai: PlayerSpec = env_or("LIBRO_MATCH_AI", "ai:8").parse().expect("spec");
    let b: PlayerSpec = baseline.parse().expect("spec");
    let games: u32 = env_or("LIBRO_MATCH_GAMES", "20").parse().expect("games");
    let threads: usize = env_or("LIBRO_MATCH_THREADS", "2").parse().expect("threads");
    let config = MatchConfig {
        games,
        threads,
        seed: 2026,
        ..MatchConfig::default()
    };
    let start = Instant::now();
    let out = play_match(&fallas(), &ai, &b, &config, &mut |_| {});
    let rep = &out.report;
    let reasons: Vec<String> = out
        .records
        .iter()
        .map(|g| {
            g.result
                .as_ref()
                .map_or("cap".into(), |r| format!("{:?}", r.reason))
        })
        .collect();
    println!(
        "fallas: {ai} vs {b}: +{} ={} -{} {} ({games} games, {:.0} s) ends {reasons:?}",
        rep.wins,
        rep.draws,
        rep.losses,
        rep.summary(),
        start.elapsed().as_secs_f64()
    );
    assert!(
        rep.score >= target,
        "{ai} scored {:.3} against {b}",
        rep.score
    );
}

#[test]
#[ignore]
fn fallas_vs_random() {
    strongest_against("random", 0.95);
}

#[test]
#[ignore]
fn fallas_vs_greedy() {
    strongest_against("greedy", 0.80);
}
