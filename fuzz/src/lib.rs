//! What the fuzz targets share: the shipped rulesets, loaded once, and the checks that a
//! value read from text writes back to text that reads to the same value.

use libro_chess::{ChessGame, ChessRules, MoveList};
use libro_core::{Game, Ruleset};
use libro_tables::{TablesGame, TablesRules};
use std::sync::{Arc, OnceLock};

/// Every shipped chess ruleset (two- and four-player), loaded once.
pub fn chess_rulesets() -> &'static [Arc<ChessRules>] {
    static RULES: OnceLock<Vec<Arc<ChessRules>>> = OnceLock::new();
    RULES.get_or_init(|| {
        libro_registry::shipped()
            .into_iter()
            .filter_map(|h| {
                libro_registry::load(&h.name, &[])
                    .ok()?
                    .downcast::<ChessRules>()
            })
            .collect()
    })
}

/// The shipped chess ruleset called `name`, if there is one.
pub fn chess_ruleset(name: &str) -> Option<&'static Arc<ChessRules>> {
    chess_rulesets().iter().find(|r| r.name() == name.trim())
}

/// The shipped Fallas ruleset, loaded once.
pub fn fallas() -> &'static Arc<TablesRules> {
    static RULES: OnceLock<Arc<TablesRules>> = OnceLock::new();
    RULES.get_or_init(|| {
        libro_registry::load("fallas", &[])
            .ok()
            .and_then(|r| r.downcast::<TablesRules>())
            .expect("fallas is a shipped tables ruleset")
    })
}

/// The legal moves of a chess game.
pub fn chess_legal(game: &ChessGame) -> Vec<libro_chess::Move> {
    let mut list = MoveList::new();
    game.legal_moves(&mut list);
    list.as_slice().to_vec()
}

/// Checks that a chess game's position string reads back to the same game.
pub fn check_chess_text(game: &ChessGame) {
    let text = game.to_string();
    let again = game
        .rules()
        .parse_position(&text)
        .unwrap_or_else(|e| panic!("`{text}`, written by libro, does not read back: {e}"));
    assert_eq!(again.position(), game.position(), "`{text}` read back");
    assert_eq!(again.to_string(), text, "`{text}` read back and written");
    assert_eq!(again.turn(), game.turn(), "`{text}`: turn");
    assert_eq!(
        chess_legal(&again),
        chess_legal(game),
        "`{text}`: legal moves"
    );
}

/// Checks that a Fallas game's position string reads back to the same game.
pub fn check_tables_text(game: &TablesGame) {
    let text = game.to_string();
    let again = game
        .rules()
        .parse_position(&text)
        .unwrap_or_else(|e| panic!("`{text}`, written by libro, does not read back: {e}"));
    assert_eq!(again.board(), game.board(), "`{text}` read back");
    assert_eq!(again.phase(), game.phase(), "`{text}`: phase");
    assert_eq!(again.to_string(), text, "`{text}` read back and written");
    assert_eq!(again.plays(), game.plays(), "`{text}`: plays");
}

/// Checks that a chess move written in coordinates and in SAN reads back to itself.
pub fn check_chess_move(game: &ChessGame, mv: libro_chess::Move) {
    let written = game.move_text(mv);
    assert_eq!(
        game.parse_move(&written).ok(),
        Some(mv),
        "`{written}` in {game}"
    );
    let legal = chess_legal(game);
    let san = libro_chess::notation::write_san(game.rules(), game.position(), &legal, mv);
    assert_eq!(
        game.parse_move(&san).ok(),
        Some(mv),
        "SAN `{san}` in {game}"
    );
}
