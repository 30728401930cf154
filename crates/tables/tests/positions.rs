//! Position strings: a gnubg Position ID with whose turn it is and the dice, read back
//! exactly, and refused with the reason when inconsistent.

mod common;

use common::*;
use libro_core::{Game, Ruleset, Turn};
use libro_tables::{Ending, Phase, PositionError};

#[test]
fn every_phase_reads_back() {
    let rules = fallas();
    for text in [
        "4P8DADDg/wMAMA:roll-off",
        "4P8DADDg/wMAMA:white:roll",
        "4P8DADDg/wMAMA:black:6-4-1",
        "4P8DADDg/wMAMA:white:falla:5-5-5",
    ] {
        let game = rules
            .parse_position(text)
            .unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(game.to_string(), text);
    }
    let game = rules.parse_position("4P8DADDg/wMAMA:black:6-4-1").unwrap();
    assert_eq!(game.turn(), Turn::Seat(BLACK));
    // A bare ID: the first seat on roll, to roll. Dice in any order, spaces for colons.
    assert_eq!(
        rules.parse_position("4P8DADDg/wMAMA").unwrap().phase(),
        Phase::Roll(WHITE)
    );
    assert_eq!(
        rules
            .parse_position("4P8DADDg/wMAMA white 1-4-6")
            .unwrap()
            .to_string(),
        "4P8DADDg/wMAMA:white:6-4-1"
    );
}

#[test]
fn the_id_puts_the_seat_named_on_roll() {
    // White has one checker on its 2, the rest off; black all on its 12. White to move: the
    // key lists black first (its 12-point), then white. Black to move: the other way round.
    let rules = fallas();
    let white = [(2, 1)];
    let black = [(12, 15)];
    let w = to_move(&rules, &white, &black, WHITE, "6-4-1");
    let b = to_move(&rules, &white, &black, BLACK, "6-4-1");
    let wid = w.gnubg_id();
    let bid = b.gnubg_id();
    assert_ne!(wid, bid);
    assert_eq!(w.board().gnubg_id(0), wid);
    assert_eq!(
        rules.parse_position(&w.to_string()).unwrap().board(),
        w.board()
    );
    assert_eq!(
        rules.parse_position(&b.to_string()).unwrap().board(),
        b.board()
    );
    // Reading white's ID as black's turn swaps the sides.
    let swapped = rules.parse_position(&format!("{wid}:black:roll")).unwrap();
    assert_eq!(swapped.board().count(1, 2), 1);
    assert_eq!(swapped.board().count(0, 12), 15);
    // After bearing off, the winner is named.
    let mut g = w.clone();
    g.play(g.plays()[0]);
    assert_eq!(g.phase(), Phase::Over(Ending::BoreOff { winner: WHITE }));
    let back = rules.parse_position(&g.to_string()).unwrap();
    assert_eq!(back.to_string(), g.to_string());
    assert_eq!(back.hash(), g.hash());
}

#[test]
fn inconsistent_positions_are_refused_with_the_reason() {
    let rules = fallas();
    let err = |t: &str| rules.parse_position(t).unwrap_err().to_string();
    assert!(err("").contains("empty position"));
    assert!(err("4P8DADDg/wMAM:white:roll").contains("14"));
    assert!(err("4P8DADDg/wMAMA:green:roll").contains("`green` is not a seat"));
    assert!(err("4P8DADDg/wMAMA:white:6-4").contains("2 dice; this game rolls 3"));
    assert!(err("4P8DADDg/wMAMA:white:7-4-1").contains("sides 1 to 6"));
    assert!(err("4P8DADDg/wMAMA:white:5-5-5").contains("that roll is a falla"));
    assert!(err("4P8DADDg/wMAMA:white:falla:6-4-1")
        .contains("can play 6-4-1 here, so it is not a falla"));
    assert!(err("4P8DADDg/wMAMA:white:bore-off").contains("still has 15 checkers"));
    assert!(err("4P8DADDg/wMAMA:white:6-4-1:extra").contains("expected `ID`"));
    assert!(matches!(
        rules.parse_position("4P8DADDg/wMAMA:white:x-4-1"),
        Err(PositionError::Dice { .. })
    ));
    // The roll-off only at the start.
    let moved = to_roll(&rules, &[(6, 13), (23, 2)], &[(6, 13), (24, 2)], WHITE);
    let id = moved.gnubg_id();
    assert!(err(&format!("{id}:roll-off")).contains("only at the start"));
    // Both sides on one board point: white's 24 is black's 1; the backgammon start has none
    // there, so put white on its 24 and black on its 1 in a hand-made key.
    let clash =
        libro_tables::Board::from_counts([side(&[(24, 1), (6, 14)]), side(&[(1, 1), (6, 14)])]);
    let e = libro_tables::TablesGame::from_parts(rules.clone(), clash, Phase::Roll(WHITE))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("both players have checkers on board point 24"),
        "{e}"
    );
}
