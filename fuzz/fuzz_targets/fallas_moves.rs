//! Fallas moves and rolls: each line is a roll (`6-4-1`, `5:3`) when chance is to play (an
//! unusable line rolls the game's own dice) and a play (`24/21 21/15 6/5*`) otherwise.
//! Plays and rolls read back from their text; every position reached reads back too.
#![no_main]

use libfuzzer_sys::fuzz_target;
use libro_core::{Chance, Game, Ruleset, Turn};
use libro_tables::{Play, TablesChance};

fuzz_target!(|text: &str| {
    let mut game = libro_fuzz::fallas().new_game(0);
    for line in text.lines().take(64) {
        if let Ok(play) = line.parse::<Play>() {
            assert_eq!(
                play.to_string().parse::<Play>().ok(),
                Some(play),
                "`{line}`"
            );
        }
        match game.turn() {
            Turn::Over => return,
            Turn::Chance => {
                let mut outcomes: Vec<Chance<TablesChance>> = Vec::new();
                game.chance_outcomes(&mut outcomes);
                let outcome = match line.parse::<TablesChance>() {
                    Ok(o) => {
                        assert_eq!(o.to_string().parse::<TablesChance>().ok(), Some(o));
                        o
                    }
                    Err(_) => game.sample_chance(),
                };
                if outcomes.iter().any(|c| c.outcome == outcome) {
                    game.apply_chance(outcome);
                }
            }
            Turn::Seat(_) => {
                let before = game.clone();
                if let Ok(mv) = libro_core::play_text(&mut game, line) {
                    let written = before.move_text(mv);
                    assert_eq!(before.parse_move(&written).ok(), Some(mv), "`{written}`");
                }
            }
        }
        assert_eq!(game.hash(), game.recompute_hash(), "hash after `{line}`");
        libro_fuzz::check_tables_text(&game);
    }
});
