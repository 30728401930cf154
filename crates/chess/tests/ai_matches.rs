//! Matches of the strongest search against the `random` and `greedy` baselines in every
//! chess ruleset (issue 6: at least 95% against random, 80% against greedy). Long: ignored
//! by default. Run, for instance:
//!
//! ```text
//! LIBRO_MATCH_AI=ai:8 LIBRO_MATCH_GAMES=20 LIBRO_MATCH_THREADS=2 \
//!   cargo test -p libro-chess --release --test ai_matches -- --ignored --nocapture --test-threads 1
//! ```
//!
//! `LIBRO_MATCH_AI` is the player spec (default `ai:8`), `LIBRO_MATCH_GAMES` the games per
//! match (default 20), `LIBRO_MATCH_THREADS` the games played at once (default 2).

mod common;

use common::rules;
use libro_ai::{play_match, MatchConfig, PlayerSpec};
use std::time::Instant;

fn env_or(key: &str, default: &str) -> String {
    std::env::var(key).unwrap_or_else(|_| default.to_string())
}

/// Plays the strongest level against `baseline` and checks A's score reaches `target`.
fn strongest_against(ruleset: &str, baseline: &str, target: f64) {
    let ai: PlayerSpec = env_or("LIBRO_MATCH_AI", "ai:8")
        .parse()
        .expect("player spec");
    let b: PlayerSpec = baseline.parse().expect("player spec");
    let games: u32 = env_or("LIBRO_MATCH_GAMES", "20")
        .parse()
        .expect("a number of games");
    let threads: usize = env_or("LIBRO_MATCH_THREADS", "2")
        .parse()
        .expect("a number of threads");
    let r = rules(ruleset, &[]);
    let config = MatchConfig {
        games,
        threads,
        seed: 2026,
        ..MatchConfig::default()
    };
    let start = Instant::now();
    let out = play_match(&r, &ai, &b, &config, &mut |_| {});
    let rep = &out.report;
    let plies: usize = out.records.iter().map(|g| g.plies.len()).sum();
    let unfinished = out.records.iter().filter(|g| g.result.is_none()).count();
    let reasons: Vec<String> = out
        .records
        .iter()
        .map(|g| {
            g.result
                .as_ref()
                .map_or("cap".to_string(), |r| format!("{:?}", r.reason))
        })
        .collect();
    println!(
        "{ruleset}: {ai} vs {b}: +{} ={} -{} {} ({} games, {} plies, {} stopped, {:.0} s) ends {:?}",
        rep.wins,
        rep.draws,
        rep.losses,
        rep.summary(),
        games,
        plies,
        unfinished,
        start.elapsed().as_secs_f64(),
        reasons
    );
    assert!(
        rep.score >= target,
        "{ruleset}: {ai} scored {:.3} against {b}, below {target}",
        rep.score
    );
}

#[test]
#[ignore]
fn acedrex_vs_random() {
    strongest_against("acedrex", "random", 0.95);
}

#[test]
#[ignore]
fn acedrex_vs_greedy() {
    strongest_against("acedrex", "greedy", 0.80);
}

#[test]
#[ignore]
fn forcado_vs_random() {
    strongest_against("forcado", "random", 0.95);
}

#[test]
#[ignore]
fn forcado_vs_greedy() {
    strongest_against("forcado", "greedy", 0.80);
}

#[test]
#[ignore]
fn short_assize_vs_random() {
    strongest_against("short-assize", "random", 0.95);
}

#[test]
#[ignore]
fn short_assize_vs_greedy() {
    strongest_against("short-assize", "greedy", 0.80);
}

#[test]
#[ignore]
fn shatranj_vs_random() {
    strongest_against("shatranj", "random", 0.95);
}

#[test]
#[ignore]
fn shatranj_vs_greedy() {
    strongest_against("shatranj", "greedy", 0.80);
}

#[test]
#[ignore]
fn cuatro_tiempos_vs_random() {
    strongest_against("cuatro-tiempos", "random", 0.95);
}

#[test]
#[ignore]
fn cuatro_tiempos_vs_greedy() {
    strongest_against("cuatro-tiempos", "greedy", 0.80);
}
