//! Shared helpers for the integration tests: loading the shipped rulesets and the reference
//! data under `tests/reference/` (a copy of the shared reference set, with its README and provenance).
#![allow(dead_code)]

use libro_chess::{ChessGame, ChessRules};
use libro_core::Game;
use std::sync::Arc;

/// The repository's `rulesets/` directory.
pub const RULESETS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../rulesets");
/// The independent reference figures kept in the repository (tests/reference/README.md).
pub const REFERENCE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/reference");

/// Loads a shipped ruleset by name, with option overrides.
pub fn rules(name: &str, overrides: &[(&str, &str)]) -> Arc<ChessRules> {
    let path = format!("{RULESETS}/{name}.toml");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let overrides: Vec<(String, String)> = overrides
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    Arc::new(
        ChessRules::from_toml(&text, &format!("{name}.toml"), &overrides)
            .unwrap_or_else(|e| panic!("{e}")),
    )
}

/// Reads a reference file.
pub fn reference(path: &str) -> String {
    let p = format!("{REFERENCE}/{path}");
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{p}: {e}"))
}

/// The start position after a list of coordinate moves.
pub fn after(rules: &Arc<ChessRules>, moves: &str) -> ChessGame {
    let mut g = ChessGame::new(rules);
    for m in moves.split_whitespace() {
        let mv = g
            .parse_move(m)
            .unwrap_or_else(|e| panic!("{m} in `{moves}`: {e} (position {g})"));
        g.play(mv);
    }
    g
}
