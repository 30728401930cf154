//! Position strings read back: from the start of every shipped ruleset, random legal play
//! (dice included) reaches positions whose text reads back to the same position, with the
//! same turn and the same legal moves.

use libro_core::Turn;
use libro_registry::{load, shipped, AnyRuleset, DynGame};
use proptest::prelude::*;

/// Checks that `game`'s position string reads back to the same game under `rules`.
fn reads_back(rules: &AnyRuleset, game: &dyn DynGame) -> Result<(), TestCaseError> {
    let text = game.position();
    let again = rules
        .parse_position(&text)
        .map_err(|e| TestCaseError::fail(format!("`{text}` does not read back: {e}")))?;
    prop_assert_eq!(again.position(), text.clone());
    prop_assert_eq!(again.turn(), game.turn(), "turn of `{}`", text);
    prop_assert_eq!(
        again.legal_moves(),
        game.legal_moves(),
        "moves of `{}`",
        text
    );
    // The board as a renderer sees it: pieces per square, or checkers per point, the bar,
    // the dice and the phase.
    prop_assert_eq!(again.view(), game.view(), "view of `{}`", text);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn positions_reached_by_random_play_read_back(
        ruleset in 0usize..64,
        seed in any::<u64>(),
        choices in proptest::collection::vec(any::<u16>(), 0..120),
    ) {
        let headers = shipped();
        let name = &headers[ruleset % headers.len()].name;
        let rules = load(name, &[]).expect("a shipped ruleset loads");
        let mut game = rules.new_game(seed);
        reads_back(&rules, game.as_ref())?;
        for choice in choices {
            let choice = usize::from(choice);
            match game.turn() {
                Turn::Over => break,
                Turn::Chance => {
                    let outcomes = game.chance_outcomes();
                    let (outcome, _) = &outcomes[choice % outcomes.len()];
                    game.apply_chance(outcome).expect("a listed outcome applies");
                }
                Turn::Seat(seat) => {
                    let moves = game.legal_moves();
                    prop_assert!(!moves.is_empty(), "a seat to move has a move");
                    game.play(seat, &moves[choice % moves.len()]).expect("a legal move plays");
                }
            }
            reads_back(&rules, game.as_ref())?;
        }
    }
}
