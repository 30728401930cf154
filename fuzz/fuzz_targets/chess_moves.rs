//! Chess moves in every notation: the first line names a shipped chess ruleset, the second
//! is a position (empty: the start), each further line a move played with `play_text`.
//! Every move played reads back from its coordinates and its SAN; every position reached
//! reads back from its text.
#![no_main]

use libfuzzer_sys::fuzz_target;
use libro_core::{Game, Ruleset};

fuzz_target!(|text: &str| {
    let mut lines = text.lines();
    let Some(rules) = lines.next().and_then(libro_fuzz::chess_ruleset) else {
        return;
    };
    let mut game = match lines.next().map(str::trim) {
        None | Some("") => rules.new_game(0),
        Some(position) => match rules.parse_position(position) {
            Ok(game) => game,
            Err(_) => return,
        },
    };
    for line in lines.take(64) {
        let before = game.clone();
        if let Ok(mv) = libro_core::play_text(&mut game, line) {
            libro_fuzz::check_chess_move(&before, mv);
            assert_eq!(game.hash(), game.recompute_hash(), "hash after `{line}`");
            libro_fuzz::check_chess_text(&game);
        }
    }
});
