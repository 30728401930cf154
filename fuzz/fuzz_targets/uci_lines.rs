//! UCI command lines as `libro uci` reads them (`setoption`, `position`, `go`), without the
//! engine loop: each line is read against the variant and position the earlier lines set.
//! Positions set read back from their text; moves read back from what the engine writes.
#![no_main]

use libfuzzer_sys::fuzz_target;
use libro::uci_text::{go_limits, option_words, read_position};
use libro_chess::ChessGame;
use libro_core::Ruleset;
use libro_registry::UciGame;

fuzz_target!(|text: &str| {
    let Some(mut rules) = libro_fuzz::chess_ruleset("acedrex") else {
        return;
    };
    let mut game = rules.new_game(0);
    for line in text.lines().take(32) {
        let mut words = line.split_whitespace();
        let Some(cmd) = words.next() else { continue };
        let rest: Vec<&str> = words.collect();
        match cmd {
            "setoption" => {
                if let Ok((name, value)) = option_words(&rest) {
                    if name.eq_ignore_ascii_case("uci_variant") {
                        if let Some(r) = libro_fuzz::chess_ruleset(&value) {
                            if r.seats().len() == 2 {
                                rules = r;
                                game = rules.new_game(0);
                            }
                        }
                    } else {
                        let _ = libro_registry::load(rules.name(), &[(name, value)]);
                    }
                }
            }
            "position" => {
                if let Ok(g) = read_position::<ChessGame>(rules, &rest) {
                    libro_fuzz::check_chess_text(&g);
                    game = g;
                }
            }
            "go" => {
                let _ = go_limits(&game, &rest);
            }
            _ => {
                for word in line.split_whitespace() {
                    if let Ok(mv) = game.read_uci_move(word) {
                        let written = game.write_uci_move(mv);
                        assert_eq!(game.read_uci_move(&written).ok(), Some(mv), "`{written}`");
                    }
                }
            }
        }
    }
});
