//! `libro_core::conformance::random_playouts` on every shipped chess ruleset: position strings
//! round-trip, hashes agree, every move prints and parses back, asking for the moves or the
//! turn first gives the same answers, every game ends.

mod common;

use common::rules;
use libro_core::conformance::{random_playouts, PlayoutConfig};
use std::collections::BTreeMap;

fn run(name: &str, games: u32) {
    let r = rules(name, &[]);
    let config = PlayoutConfig {
        games,
        seed: 7,
        max_plies: 20_000,
        notation_every: 1,
    };
    let report = random_playouts(&r, &config).unwrap_or_else(|v| panic!("{name}: {v}"));
    assert_eq!(report.games, games, "{name}");
    assert!(
        report.plies > u64::from(games),
        "{name}: {} plies",
        report.plies
    );
}

#[test]
fn acedrex() {
    run("acedrex", 20);
}

#[test]
fn acedrex_ludii() {
    run("acedrex-ludii", 6);
}

#[test]
fn forcado() {
    run("forcado", 20);
}

#[test]
fn forcado_ludii() {
    run("forcado-ludii", 6);
}

#[test]
fn short_assize() {
    run("short-assize", 20);
}

#[test]
fn short_assize_ludii() {
    run("short-assize-ludii", 10);
}

#[test]
fn shatranj() {
    run("shatranj", 20);
}

#[test]
fn cuatro_tiempos() {
    run("cuatro-tiempos", 20);
}

#[test]
fn cuatro_tiempos_ludii() {
    run("cuatro-tiempos-ludii", 4);
}

/// Mate and stalemate hang on whether the seat to move has a move, which a game settles
/// from its move list when that is asked first (the suite checks both orders at every
/// position). Without the bare-king rule, random games end both ways, under each stalemate
/// rule.
#[test]
fn mate_and_stalemate_under_each_stalemate_rule() {
    let mut endings: BTreeMap<&str, u32> = BTreeMap::new();
    for (name, stalemate) in [
        ("acedrex", "win"),
        ("acedrex", "draw"),
        ("acedrex", "pass"),
        ("forcado", "win"),
        ("shatranj", "draw"),
        ("short-assize", "win"),
    ] {
        let r = rules(name, &[("stalemate", stalemate), ("bare_king", "none")]);
        let config = PlayoutConfig {
            games: 30,
            seed: 5,
            max_plies: 20_000,
            notation_every: 5,
        };
        let report =
            random_playouts(&r, &config).unwrap_or_else(|v| panic!("{name} {stalemate}: {v}"));
        println!("{name} {stalemate}: {:?}", report.endings);
        for (reason, n) in report.endings {
            *endings.entry(reason).or_default() += n;
        }
    }
    for reason in ["checkmate", "stalemate"] {
        assert!(endings.contains_key(reason), "no {reason} in {endings:?}");
    }
}
