//! Every rule of Fallas (issue 5, item 2; the project's RULES.md decisions), each on a hand-built
//! position with the reasoning written out.
//!
//! Numbering: each player counts its own points 24 down to 1; white's point p is black's
//! point 25 − p. Positions list (own point, checkers); 25 is the bar; the rest are off.

mod common;

use common::*;
use libro_core::{Chance, EndReason, Game, Ruleset, Seat, Turn};
use libro_tables::{Ending, MoveError, Phase, Play, PlayList, TablesChance, BAR};

const START: &[(u8, u8)] = &[(6, 13), (24, 2)];

fn roll(game: &mut libro_tables::TablesGame, dice: &str) {
    game.apply_chance(TablesChance::Roll(dice.parse().unwrap()));
}

#[test]
fn the_opening_roll_off_is_one_die_each_and_equal_dice_roll_again() {
    let rules = fallas();
    let mut game = rules.new_game(1);
    assert_eq!(game.turn(), Turn::Chance);
    let mut outcomes = Vec::new();
    game.chance_outcomes(&mut outcomes);
    // One die each: 6 x 6 ordered outcomes, each 1/36.
    assert_eq!(outcomes.len(), 36);
    assert!(outcomes.iter().all(|c| c.weight == 1 && c.total == 36));
    // Equal dice: nobody starts, the roll-off is still pending.
    game.apply_chance(TablesChance::RollOff([4, 4]));
    assert_eq!(game.phase(), Phase::RollOff);
    assert_eq!(game.ply(), 1);
    // Black's 5 beats white's 2: black starts, and rolls three dice for its first turn.
    game.apply_chance(TablesChance::RollOff([2, 5]));
    assert_eq!(game.phase(), Phase::Roll(BLACK));
    game.chance_outcomes(&mut outcomes);
    assert_eq!(outcomes.len(), 56, "three dice: 56 unordered rolls");
    assert_eq!(
        outcomes.iter().map(|c: &Chance<_>| c.weight).sum::<u32>(),
        216
    );
    roll(&mut game, "6-4-1");
    assert_eq!(game.turn(), Turn::Seat(BLACK));
    // And white would have started on 6:3.
    let mut other = rules.new_game(1);
    other.apply_chance(TablesChance::RollOff([6, 3]));
    assert_eq!(other.phase(), Phase::Roll(WHITE));
}

#[test]
fn the_start_position_is_thirteen_on_the_six_and_two_on_the_twenty_four() {
    let rules = fallas();
    let game = rules.new_game(0);
    for seat in 0..2 {
        assert_eq!(game.board().count(seat, 6), 13);
        assert_eq!(game.board().count(seat, 24), 2);
        assert_eq!(game.board().in_play(seat), 15);
    }
    // The reference ID (tests/reference/README.md, checked with gnubg 1.07).
    assert_eq!(game.to_string(), "4P8DADDg/wMAMA:roll-off");
}

#[test]
fn start_roll_five_five_five_is_a_falla() {
    // White's checkers stand on 24 and 6. A 5 from 24 lands on 19, black's 6-point with 13
    // checkers; a 5 from 6 lands on 1, black's 24-point with 2. No 5 can be played, and with
    // three 5s nothing moves first to make one playable: falla, white loses at once.
    let rules = fallas();
    let mut game = to_roll(&rules, START, START, WHITE);
    roll(&mut game, "5-5-5");
    assert_eq!(game.turn(), Turn::Over);
    assert!(is_falla_of(&game, WHITE));
    let result = game.result().unwrap();
    assert_eq!(result.reason, EndReason::Falla);
    assert_eq!(result.winner(), Some(BLACK));
    assert_eq!(game.to_string(), "4P8DADDg/wMAMA:white:falla:5-5-5");
    let e = game
        .parse_move("24/19 24/19 19/14")
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("the game is over: white could not play 5-5-5 (falla)"),
        "{e}"
    );
    // With a 6 first the same 5s become playable: 24/18, then 18/13 and 13/8 (one play).
    let game = to_move(&rules, START, START, WHITE, "6-5-5");
    assert_eq!(plays(&game), ["24/18 18/13 13/8"]);
}

#[test]
fn a_falla_is_found_when_the_plays_are_asked_first() {
    // The 5-5-5 falla of the start (above), now asked for its plays before its turn: the
    // empty list settles the falla. (The conformance suite checks both orders at every
    // position of random games.)
    let rules = fallas();
    let mut game = to_roll(&rules, START, START, WHITE);
    roll(&mut game, "5-5-5");
    let mut list = PlayList::default();
    game.legal_moves(&mut list);
    assert!(list.is_empty());
    assert_eq!(game.turn(), Turn::Over);
    assert_eq!(game.result().unwrap().winner(), Some(BLACK));
    assert_eq!(game.to_string(), "4P8DADDg/wMAMA:white:falla:5-5-5");
    assert_eq!(game.hash(), game.recompute_hash());
    assert_eq!(
        rules.parse_position(&game.to_string()).unwrap().hash(),
        game.hash()
    );
}

#[test]
fn each_die_moves_one_checker_in_any_order_and_one_checker_may_take_all() {
    // White: one checker on 24, fourteen on its 1-point (they cannot move: not all are home,
    // so none bears off, and 1 − n is off the board). Black closes white's 23 (black's 2)
    // and keeps the rest on black's 10 (white's 15, on no route below).
    // Dice 6-4-1: only the checker on 24 moves, so it takes all three dice. Orders starting
    // with the 1 land on 23: closed. 6,4,1: 18, 14, 13. 6,1,4: 18, 17, 13. 4,6,1: 20, 14, 13.
    // 4,1,6: 20, 19, 13. Four orders, one resulting position: one play.
    let rules = fallas();
    let white = [(24, 1), (1, 14)];
    let black = [(2, 2), (10, 13)];
    let game = to_move(&rules, &white, &black, WHITE, "6-4-1");
    let list = game.plays();
    assert_eq!(list.len(), 1);
    let board = after(game.board(), 0, &list[0]);
    assert_eq!(board.count(0, 13), 1);
    assert_eq!(board.count(0, 24), 0);
    // Every written order is that same play; the combined `24/13` too.
    for text in [
        "24/18 18/14 14/13",
        "24/20 20/19 19/13",
        "24/20/14/13",
        "24/13",
    ] {
        assert_eq!(game.parse_move(text).unwrap(), list[0], "{text}");
    }
    // The 1 first is illegal, and the error says why.
    let e = game
        .parse_move("24/23 23/19 19/13")
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("point 23 is closed") && e.contains("2 checkers"),
        "{e}"
    );
}

#[test]
fn doubles_and_triples_give_nothing_extra() {
    // White: one checker on 24, the rest on its 1-point; black far away on its 12 (white's 13).
    // 2-2-2 moves the checker three times two points: 24, 22, 20, 18. In backgammon a double
    // would be played four times (to 16); here each die once.
    let rules = fallas();
    let white = [(24, 1), (1, 14)];
    let black = [(12, 15)];
    let game = to_move(&rules, &white, &black, WHITE, "2-2-2");
    assert_eq!(plays(&game), ["24/22 22/20 20/18"]);
    assert!(game.parse_move("24/22 22/20 20/18 18/16").is_err());
    // 6-6-1 (a double with another die): three moves, never four.
    let game = to_move(&rules, &white, &black, WHITE, "6-6-1");
    for p in game.plays() {
        assert_eq!(p.len(), 3, "{p}");
    }
}

#[test]
fn no_landing_on_two_or_more_opposing_checkers() {
    // White on 24 (1) and its 1-point; black holds white's 20 with 2 and white's 18 with 3.
    // Dice 4-2-1 from 24: 4 lands on 20 (closed), 2 on 22, 1 on 23. Orders: 2,1 then 4 from
    // 21 to 17: 24/22 22/21 21/17; 1,2,4: 24/23 23/21 21/17; 2,4 → 22, 18 closed; 1,4 → 23,
    // 19, then 2 → 17. So every play ends on 17, without ever stopping on 20 or 18: plays
    // reaching 17 by 22/21 and by 23/21 and by 23/19 are one position: one play.
    let rules = fallas();
    let white = [(24, 1), (1, 14)];
    let black = [(5, 2), (7, 3), (12, 10)];
    let game = to_move(&rules, &white, &black, WHITE, "4-2-1");
    let list = game.plays();
    assert_eq!(list.len(), 1);
    assert_eq!(after(game.board(), 0, &list[0]).count(0, 17), 1);
    let e = game
        .parse_move("24/20 20/18 18/17")
        .unwrap_err()
        .to_string();
    assert!(e.contains("point 20 is closed"), "{e}");
    let e = game
        .parse_move("24/22 22/18 18/17")
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("point 18 is closed") && e.contains("3 checkers"),
        "{e}"
    );
}

#[test]
fn a_lone_opposing_checker_is_hit_and_goes_to_the_bar() {
    // White: one checker on 24, the rest on its 1-point. Black: a lone checker on white's 21
    // (black's 4), the rest on black's 12 (white's 13). Dice 3-2-1 take the checker 6 points
    // to 18. Orders 3,2,1 / 3,1,2 / 2,1,3 / 1,2,3 stop on 21 and hit; 2,3,1 (22, 19, 18) and
    // 1,3,2 (23, 20, 18) do not. Same white checkers, but black's blot is on the bar or not:
    // two positions, two plays (gnubg counts both).
    let rules = fallas();
    let white = [(24, 1), (1, 14)];
    let black = [(4, 1), (12, 14)];
    let game = to_move(&rules, &white, &black, WHITE, "3-2-1");
    assert_eq!(game.plays().len(), 2);
    let hit = game.parse_move("24/21*/18").unwrap();
    assert!(hit.steps().next().unwrap().hit());
    let quiet = game.parse_move("24/22/19/18").unwrap();
    assert!(quiet.steps().all(|s| !s.hit()));
    // `24/18` alone does not say which: the reader asks for the points in between.
    assert!(matches!(
        game.parse_move("24/18"),
        Err(MoveError::Ambiguous { .. })
    ));
    // A hit claimed where there is no lone checker is refused.
    let e = game
        .parse_move("24/22* 22/19 19/18")
        .unwrap_err()
        .to_string();
    assert!(e.contains("no lone opposing checker on point 22"), "{e}");
    // Playing the hit sends black's checker to the bar, and black is to roll.
    let mut g = game.clone();
    g.play(hit);
    assert_eq!(g.board().count(1, 4), 0);
    assert_eq!(g.board().count(1, BAR), 1);
    assert_eq!(g.phase(), Phase::Roll(BLACK));
}

#[test]
fn a_checker_on_the_bar_enters_first_on_point_25_minus_n() {
    // White: one checker on the bar, fourteen on its 13. Black: two on its 4, 5, 6 (white's
    // 21, 20, 19 closed) and nine on its 1 (white's 24). With 3-2-1 the entry points are
    // 22, 23, 24: 24 holds nine black checkers, so the 1 cannot enter; 22 (die 3) and 23
    // (die 2) are open. Every play starts from the bar, and moving from 13 first is refused.
    let rules = fallas();
    let white = [(BAR, 1), (13, 14)];
    let black = [(4, 2), (5, 2), (6, 2), (1, 9)];
    let game = to_move(&rules, &white, &black, WHITE, "3-2-1");
    for p in game.plays() {
        assert_eq!(p.steps().next().unwrap().from(), BAR, "{p}");
    }
    let e = game
        .parse_move("13/10 bar/23 23/22")
        .unwrap_err()
        .to_string();
    assert!(e.contains("on the bar, which must enter"), "{e}");
    let e = game
        .parse_move("bar/24 13/11 13/10")
        .unwrap_err()
        .to_string();
    assert!(e.contains("point 24 is closed"), "{e}");
    assert!(game.parse_move("bar/22 13/11 13/12").is_ok());
    // Two on the bar: both dice of the entries go first.
    let white = [(BAR, 2), (13, 13)];
    let game = to_move(&rules, &white, &black, WHITE, "3-2-1");
    for p in game.plays() {
        let froms: Vec<u8> = p.steps().map(|s| s.from()).collect();
        assert_eq!(&froms[..2], &[BAR, BAR], "{p}");
    }
}

#[test]
fn falla_by_blocked_entry() {
    // White has a checker on the bar; black closes white's 19, 20, 21 (its 6, 5, 4). With
    // 6-5-4 the entry points are 19, 20, 21: all closed, so nothing enters, and nothing
    // else may move: a falla. With 6-5-1 the 1 enters on 24, then 24/18 and 18/13. (Black's
    // other nine wait on its 10, white's 15.)
    let rules = fallas();
    let white = [(BAR, 1), (13, 14)];
    let black = [(4, 2), (5, 2), (6, 2), (10, 9)];
    let game = to_roll(&rules, &white, &black, WHITE);
    assert!(game.plays_for("6-5-4".parse().unwrap()).unwrap().falla);
    let mut g = game.clone();
    roll(&mut g, "6-5-4");
    assert!(is_falla_of(&g, WHITE));
    let mut g = game.clone();
    roll(&mut g, "6-5-1");
    assert_eq!(g.turn(), Turn::Seat(WHITE));
    assert!(g.parse_move("bar/24 24/18 18/13").is_ok());
}

#[test]
fn falla_by_a_prime_every_roll() {
    // White: two checkers on 24 behind a black prime on white's 23-18 (black's 2-7, two
    // each), thirteen on white's 1-point. A die n from 24 lands on 24 − n, in the prime for
    // every n from 1 to 6; the checkers on the 1-point cannot move (1 − n is off the board,
    // and bearing off needs all fifteen home). So no die can ever be played: all 216 rolls
    // are fallas.
    let rules = fallas();
    let white = [(24, 2), (1, 13)];
    let black = [(2, 2), (3, 2), (4, 2), (5, 2), (6, 2), (7, 2), (12, 3)];
    let game = to_roll(&rules, &white, &black, WHITE);
    let odds = game.falla_odds().unwrap();
    assert_eq!((odds.falla_weight, odds.total), (216, 216));
    assert_eq!(odds.probability(), 1.0);
}

#[test]
fn falla_by_a_five_point_block_depends_on_the_sixes() {
    // As above but black leaves white's 18 open (its 7-point empty; those two checkers on
    // its 12). From 24 only a 6 gets out (to 18). A roll without a 6 is a falla. With one 6:
    // the checker on 18 must take the other two dice; from 18 a 5 lands on 13 (black's 12,
    // five checkers: closed), anything else is open. 6-4-2: 24/18 18/14 14/12 — playable.
    // 6-5-1: 24/18, then 5 from 18 → 13 closed, from 17 (after 18/17) → 12: 24/18 18/17
    // 17/12 — playable. 6-5-5: after 24/18 the 5s: 18 → 13 closed, 24 → 19 closed: falla.
    let rules = fallas();
    let white = [(24, 2), (1, 13)];
    let black = [(2, 2), (3, 2), (4, 2), (5, 2), (6, 2), (12, 5)];
    let game = to_roll(&rules, &white, &black, WHITE);
    let falla = |d: &str| game.plays_for(d.parse().unwrap()).unwrap().falla;
    for d in ["5-4-3", "1-1-1", "5-5-2"] {
        assert!(falla(d), "{d}: no 6, no way out");
    }
    assert!(!falla("6-4-2"));
    assert!(!falla("6-5-1"));
    assert!(falla("6-5-5"));
    assert_eq!(
        game.plays_for("6-5-1".parse().unwrap())
            .unwrap()
            .plays
            .len(),
        1
    );
}

#[test]
fn bearing_off_only_with_all_fifteen_home_and_its_falla() {
    // White: fourteen on its 2-6 points, one on its 13. Black: two on white's 7 (black's
    // 18), thirteen on white's 1 (black's 24). With 6-6-6: from 13 a 6 lands on 7, closed;
    // a 6 from any home point would bear off, but the checker on 13 is not home, so no
    // checker may bear off: falla caused by the bearing-off rule.
    let rules = fallas();
    let white = [(13, 1), (6, 3), (5, 3), (4, 3), (3, 3), (2, 2)];
    let black = [(18, 2), (24, 13)];
    let game = to_roll(&rules, &white, &black, WHITE);
    assert!(game.plays_for("6-6-6".parse().unwrap()).unwrap().falla);
    // With 6-6-5 the 5 takes it to 8 (open), a 6 then home to 2, and now all fifteen are
    // home: the last 6 bears off from 6. One play.
    assert_eq!(
        game.plays_for("6-6-5".parse().unwrap())
            .unwrap()
            .plays
            .len(),
        1
    );
    let mut g = game.clone();
    roll(&mut g, "6-6-5");
    assert_eq!(plays(&g), ["13/8 8/2 6/off"]);
    // Once it is home, the same 6s bear off: white on 6 instead of 13.
    let white_home = [(6, 4), (5, 3), (4, 3), (3, 3), (2, 2)];
    let g = to_move(&rules, &white_home, &black, WHITE, "6-6-6");
    assert_eq!(plays(&g), ["6/off 6/off 6/off"]);
    // And moving the last checker home with one die lets the next die bear off: 8/2 then
    // 6/off 6/off with 6-6-6.
    let white_near = [(8, 1), (6, 3), (5, 3), (4, 3), (3, 3), (2, 2)];
    let g = to_move(&rules, &white_near, &black, WHITE, "6-6-6");
    assert_eq!(plays(&g), ["8/2 6/off 6/off"]);
    let e = g.parse_move("6/off 8/2 6/off").unwrap_err().to_string();
    assert!(
        e.contains("all your checkers in your home table") && e.contains("1 is outside"),
        "{e}"
    );
}

#[test]
fn bear_off_standard_against_exact() {
    // White all home: one on its 3, fourteen on its 2. Black out of the way on its 12.
    let white = [(3, 1), (2, 14)];
    let black = [(12, 15)];
    let standard = fallas();
    let exact = fallas_with(&[("bear_off", "exact")]);
    // 6-5-4, standard: a die higher than the highest occupied point bears off from it: the
    // 6 from 3, then 2 is highest and the 5 and the 4 bear off from it. Whatever the order,
    // one position: 3/off 2/off 2/off.
    let g = to_move(&standard, &white, &black, WHITE, "6-5-4");
    assert_eq!(plays(&g), ["3/off 2/off 2/off"]);
    // 6-5-4, exact: a die bears off only from its own point; nothing stands on 6, 5 or 4,
    // and 3 − n, 2 − n are off the board: a falla.
    let g = to_roll(&exact, &white, &black, WHITE);
    assert!(g.plays_for("6-5-4".parse().unwrap()).unwrap().falla);
    // 3-2-1, exact: the 3 can only bear off the checker on 3 (from 2 it would need point 3),
    // and nothing ever moves onto 3, so that checker waits for the 3. The 2 then bears off
    // from 2 (2/1 1/off would need a 1 off point 1 after the 1 was used). The 1 moves 2/1.
    // One play: 3 off, one off from 2, one 2/1.
    let g = to_move(&exact, &white, &black, WHITE, "3-2-1");
    assert_eq!(plays(&g), ["3/off 2/off 2/1"]);
    // 3-2-1, standard: besides that play (A), the checker on 3 may step down first and a
    // higher die then bears off from 2, now the highest point:
    //   B: 3/2 (the 1), 2/off (the 3), 2/off (the 2) — or 3/1 (2), 2/off (3), 1/off (1),
    //      the same position (13 on 2, two off);
    //   D: 3/1 (the 2), 2/off (the 3), 2/1 (the 1) — 12 on 2, two on 1, one off.
    // Three positions: A, B, D.
    let g = to_move(&standard, &white, &black, WHITE, "3-2-1");
    assert_eq!(g.plays().len(), 3, "{:?}", plays(&g));
    let two_off_13_on_2 = g.plays().into_iter().filter(|p| {
        let b = after(g.board(), 0, p);
        b.count(0, 0) == 2 && b.count(0, 2) == 13
    });
    assert_eq!(two_off_13_on_2.count(), 1);
}

#[test]
fn a_standard_higher_die_bears_off_only_from_the_highest_point() {
    // White: one on its 6, fourteen on its 1. Black out of the way. With 5-5-5: a 5 from 1
    // is more than the point, so it bears off only if no checker is higher: the one on 6 is.
    // The 5 from 6 lands on 1 (own): 6/1, then all are on 1 and the 5s bear off: 6/1 1/off
    // 1/off, the only play.
    let rules = fallas();
    let white = [(6, 1), (1, 14)];
    let black = [(12, 15)];
    let g = to_move(&rules, &white, &black, WHITE, "5-5-5");
    assert_eq!(plays(&g), ["6/1 1/off 1/off"]);
    let e = g.parse_move("1/off 6/1 1/off").unwrap_err().to_string();
    assert!(
        e.contains("only if no checker stands higher") && e.contains("point 6"),
        "{e}"
    );
}

#[test]
fn bearing_off_the_last_checker_wins_with_dice_unused() {
    // White has one checker left, on its 2. Dice 6-4-1: the 6 bears it off (2 is the highest
    // point) and white has won; the 4 and the 1 are never played. 2/1 then 1/off ends in the
    // same position (all off): one play.
    let rules = fallas();
    let white = [(2, 1)];
    let black = [(12, 15)];
    let mut g = to_move(&rules, &white, &black, WHITE, "6-4-1");
    let list = g.plays();
    assert_eq!(list.len(), 1);
    assert_eq!(list[0].len(), 1, "{}", list[0]);
    assert_eq!(g.parse_move("2/1 1/off").unwrap(), list[0]);
    g.play(list[0]);
    assert_eq!(g.phase(), Phase::Over(Ending::BoreOff { winner: WHITE }));
    let result = g.result().unwrap();
    assert_eq!(result.reason, EndReason::BoreOff);
    assert_eq!(result.winner(), Some(WHITE));
    assert!(g.to_string().ends_with(":white:bore-off"), "{g}");
    // Under exact bearing off, 6-6-6 with the checker on 2 cannot be played at all: falla.
    let exact = fallas_with(&[("bear_off", "exact")]);
    let g = to_roll(&exact, &white, &black, WHITE);
    assert!(g.plays_for("6-6-6".parse().unwrap()).unwrap().falla);
    // With two checkers on 1 and 6-6-6 (standard): 1/off 1/off wins with one 6 unused.
    let g = to_move(&rules, &[(1, 2)], &black, WHITE, "6-6-6");
    assert_eq!(plays(&g), ["1/off 1/off"]);
}

#[test]
fn distinct_plays_from_the_start_counted_by_hand() {
    // White on 24 (2) and 6 (13); black closes white's 19 and 1; no bearing off yet.
    let rules = fallas();
    let count = |d: &str| to_move(&rules, START, START, WHITE, d).plays().len();
    // 1-1-1: three one-pip moves. k pips go to the 24s (2 checkers): k=0 1 way, k=1 1,
    // k=2 2 (22+24, 23+23), k=3 2 (21+24, 22+23); 3−k to the 6s (13 checkers): partitions of
    // 3−k: 3, 2, 1, 1. Total 1·3 + 1·2 + 2·1 + 2·1 = 9 (no landing is closed: 23-21, 5-3).
    assert_eq!(count("1-1-1"), 9);
    // 6-6-6: a 6 from 6 would bear off (not allowed); from 24 it goes 18, 12, 6. Three 6s
    // on the two 24s: 3+0 (one to 6) or 2+1 (one to 12, one to 18): 2 plays.
    assert_eq!(count("6-6-6"), 2);
    // 6-4-1: the 6 comes only from 24 (or from a checker moved on). Three checkers moving
    // once: 6 from 24; 4 and 1 from {24, 6} with at most two from 24: (24,24,6), (24,6,24),
    // (24,6,6): 3. One checker taking two dice: 6+4 from 24 (→14) with the 1 from 24 or 6:
    // 2; 6+1 (→17) with the 4 from 24 or 6: 2; 4+1 lands on 19 or 1: closed. One checker
    // taking all three: 24 → 13: 1. Total 3 + 4 + 1 = 8.
    assert_eq!(count("6-4-1"), 8);
    // 6-5-5: the 5s are blocked from 24 (19) and 6 (1); only 24/18 starts, then 18/13 13/8.
    assert_eq!(count("6-5-5"), 1);
}

#[test]
fn a_dead_end_step_is_not_offered_die_by_die() {
    // White: one checker on 24, fourteen on its 1. Black closes white's 20 and 17 (black's
    // 5 and 8) and keeps eleven on its 13 (white's 12). Dice 4-3-1: a 4 first lands on 20
    // (closed). A 3 first (21) leaves 4 → 17 and 1 → 20: both closed. The 1 first (23),
    // then 4 (19), then 3 (16): 24/23 23/19 19/16, the only play. So the 3 from 24 is a
    // legal single step that leads nowhere, and the die-by-die builder refuses it.
    let rules = fallas();
    let white = [(24, 1), (1, 14)];
    let black = [(5, 2), (8, 2), (13, 11)];
    let game = to_move(&rules, &white, &black, WHITE, "4-3-1");
    assert_eq!(plays(&game), ["24/23 23/19 19/16"]);
    let mut turn = libro_tables::TurnBuilder::new(&game).unwrap();
    let offered: Vec<String> = turn
        .legal_steps()
        .iter()
        .map(|s| s.step.to_string())
        .collect();
    assert_eq!(offered, ["24/23"]);
    assert!(matches!(
        turn.step_text("24/21"),
        Err(MoveError::DeadEnd { .. })
    ));
    let e = turn.step(4, 24).unwrap_err().to_string();
    assert!(e.contains("point 20 is closed"), "{e}");
    turn.step_text("24/23").unwrap();
    assert_eq!(turn.dice_left(), &[4, 3]);
    turn.step_text("23/19").unwrap();
    assert!(turn.play().is_none());
    turn.step_text("19/16").unwrap();
    assert_eq!(turn.play(), Some(game.plays()[0]));
    assert_eq!(turn.undo().unwrap().die, 3);
    assert!(turn.play().is_none());
}

#[test]
fn die_by_die_builds_the_listed_play_with_hits_on_the_board() {
    let rules = fallas();
    let white = [(24, 1), (1, 14)];
    let black = [(4, 1), (12, 14)];
    let game = to_move(&rules, &white, &black, WHITE, "3-2-1");
    let mut turn = libro_tables::TurnBuilder::new(&game).unwrap();
    let first = turn.step_text("24/21").unwrap();
    assert!(first.step.hit(), "black's blot on white's 21 is hit");
    assert_eq!(turn.board().count(1, BAR), 1);
    turn.step_text("21/19").unwrap();
    turn.step_text("19/18").unwrap();
    let play = turn.play().unwrap();
    assert_eq!(play, game.parse_move("24/21*/18").unwrap());
}

#[test]
fn notation_reads_back_every_listed_play() {
    let rules = fallas();
    for d in ["6-4-1", "1-1-1", "3-2-1", "6-6-1"] {
        let game = to_move(&rules, START, START, WHITE, d);
        for p in game.plays() {
            assert_eq!(game.parse_move(&p.to_string()).unwrap(), p);
        }
    }
    let game = to_move(&rules, START, START, WHITE, "6-4-1");
    assert!(matches!(
        game.parse_move("24/18 18/14"),
        Err(MoveError::Incomplete { .. })
    ));
    assert!(matches!(
        game.parse_move("24/18 18/14 14/10 10/9"),
        Err(MoveError::Notation(_))
    ));
    assert!(matches!(
        game.parse_move("pass"),
        Err(MoveError::Incomplete { .. })
    ));
    let e = game.parse_move("13/9 24/18 6/5").unwrap_err().to_string();
    assert!(e.contains("no checker on point 13"), "{e}");
    let e = game.parse_move("24/22 24/18 6/5").unwrap_err().to_string();
    assert!(e.contains("no die left"), "{e}");
}

#[test]
fn a_seat_not_to_move_has_no_play() {
    let rules = fallas();
    let game = to_roll(&rules, START, START, WHITE);
    assert!(matches!(
        game.parse_move("24/18 18/14 14/13"),
        Err(MoveError::NotToMove(_))
    ));
    assert!(game.plays().is_empty());
    let _: Seat = game.analysed_seat().unwrap();
    assert!(Play::default().is_empty());
}
