//! Chess position strings (FEN-like, four-player included) under every shipped chess
//! ruleset; one that reads writes back to text that reads to the same game.
#![no_main]

use libfuzzer_sys::fuzz_target;
use libro_core::Ruleset;

fuzz_target!(|text: &str| {
    for rules in libro_fuzz::chess_rulesets() {
        if let Ok(game) = rules.parse_position(text) {
            libro_fuzz::check_chess_text(&game);
        }
    }
});
