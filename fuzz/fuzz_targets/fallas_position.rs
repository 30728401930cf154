//! Fallas position strings (gnubg Position IDs with the seat and dice) and bare gnubg IDs;
//! one that reads writes back to text that reads to the same game.
#![no_main]

use libfuzzer_sys::fuzz_target;
use libro_core::Ruleset;
use libro_tables::Board;

fuzz_target!(|text: &str| {
    let rules = libro_fuzz::fallas();
    if let Ok(game) = rules.parse_position(text) {
        libro_fuzz::check_tables_text(&game);
    }
    for on_roll in 0..2 {
        if let Ok(board) = Board::from_gnubg_id(text, on_roll, 15) {
            let id = board.gnubg_id(on_roll);
            assert_eq!(
                Board::from_gnubg_id(&id, on_roll, 15).ok(),
                Some(board),
                "`{id}` read back"
            );
        }
    }
});
