//! Ruleset files: any text read as a ruleset; a ruleset that loads starts a game whose
//! position string reads back and whose first moves can be listed.
#![no_main]

use libfuzzer_sys::fuzz_target;
use libro_chess::ChessRules;
use libro_core::Ruleset;
use libro_tables::TablesRules;

fuzz_target!(|text: &str| {
    let Ok(rules) = libro_registry::load_text(text, "fuzz", &[]) else {
        return;
    };
    if let Some(chess) = rules.downcast::<ChessRules>() {
        libro_fuzz::check_chess_text(&chess.new_game(0));
    } else if let Some(tables) = rules.downcast::<TablesRules>() {
        libro_fuzz::check_tables_text(&tables.new_game(0));
    }
});
