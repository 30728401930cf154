//! The interface's conformance suite on Fallas: seeded random playouts checking the
//! position-string round trip, the hash, the notation of every play, chance outcomes, that
//! asking for the plays or the turn first finds the same fallas, and that every game ends.

mod common;

use common::*;
use libro_core::conformance::{random_playouts, PlayoutConfig};

#[test]
fn fallas_random_playouts_keep_every_invariant() {
    let rules = fallas();
    let config = PlayoutConfig {
        games: 300,
        seed: 1,
        max_plies: 5_000,
        notation_every: 1,
    };
    let report = random_playouts(&rules, &config).unwrap_or_else(|v| panic!("{v}"));
    println!("{report:?}");
    assert_eq!(report.games, 300);
    let endings: u32 = report.endings.values().sum();
    assert_eq!(endings, 300);
    assert!(
        report.endings.get("falla").copied().unwrap_or(0) > 0,
        "{:?}",
        report.endings
    );
    assert!(
        report.endings.get("bore-off").copied().unwrap_or(0) > 0,
        "{:?}",
        report.endings
    );
}

#[test]
fn exact_bearing_off_random_playouts_keep_every_invariant() {
    let rules = fallas_with(&[("bear_off", "exact")]);
    let config = PlayoutConfig {
        games: 30,
        seed: 1000,
        max_plies: 5_000,
        notation_every: 1,
    };
    let report = random_playouts(&rules, &config).unwrap_or_else(|v| panic!("{v}"));
    assert_eq!(report.games, 30);
}

#[test]
fn a_ruleset_without_the_falla_passes_too() {
    // The same board and dice, but unplayable dice are lost instead of the game: the plays
    // use as many dice as possible, a pass when none can be played.
    let text = fallas_text().replace("falla = true", "falla = false");
    let rules = std::sync::Arc::new(
        libro_tables::TablesRules::from_toml(&text, "no-falla.toml", &[]).unwrap(),
    );
    let config = PlayoutConfig {
        games: 20,
        seed: 77,
        max_plies: 20_000,
        notation_every: 1,
    };
    let report = random_playouts(&rules, &config).unwrap_or_else(|v| panic!("{v}"));
    assert_eq!(
        report.endings.get("bore-off").copied(),
        Some(20),
        "without the falla every game ends by bearing off"
    );
}
