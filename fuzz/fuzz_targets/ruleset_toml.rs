//! Ruleset files: any text read as a ruleset; a ruleset that loads starts a game whose
//! position string reads back and whose first moves can be listed.
#![no_main]

use libfuzzer_sys::fuzz_target;
use libro_catalog::AnyRuleset;
use libro_core::Ruleset;

fuzz_target!(|text: &str| {
    match libro_catalog::load_text(text, "fuzz", &[]) {
        Ok(AnyRuleset::Chess(rules)) => libro_fuzz::check_chess_text(&rules.new_game(0)),
        Ok(AnyRuleset::Tables(rules)) => libro_fuzz::check_tables_text(&rules.new_game(0)),
        Err(_) => {}
    }
});
