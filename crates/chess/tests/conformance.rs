//! `libro_core::conformance::random_playouts` on every shipped chess ruleset: position strings
//! round-trip, hashes agree, every move prints and parses back, every game ends.

mod common;

use common::rules;
use libro_core::conformance::{random_playouts, PlayoutConfig};

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
