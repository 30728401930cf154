//! Doblet (Libro de los Juegos, fol. 74), only a ruleset file over the family's stacked
//! pairs: the start the text describes, hand-built turns with the reasoning written out,
//! the notation and position strings of stacked pairs, and every play cross-checked against
//! a plain enumerator written here from the rules (sharing no code with the move generator).

mod common;

use common::{shipped_text, shipped_with};
use libro_core::conformance::{random_playouts, PlayoutConfig};
use libro_core::{Game, Ruleset, Seat, Turn};
use libro_tables::{Board, Dice, Phase, Play, TablesChance, TablesGame, TablesRules, OFF};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::HashSet;
use std::sync::Arc;

const WHITE: Seat = Seat(0);
const BLACK: Seat = Seat(1);

fn text() -> String {
    shipped_text("doblet")
}

fn doblet_with(overrides: &[(&str, &str)]) -> Arc<TablesRules> {
    shipped_with("doblet", overrides)
}

fn doblet() -> Arc<TablesRules> {
    doblet_with(&[])
}

/// A board of twelve checkers a side from (own point, checkers) pairs, the rest borne off,
/// with each side's still-stacked points.
fn board(white: &[(u8, u8)], black: &[(u8, u8)], stacked: [&[u8]; 2]) -> Board {
    let side = |points: &[(u8, u8)]| {
        let mut c = [0u8; 26];
        for &(p, n) in points {
            c[usize::from(p)] += n;
        }
        c[0] = 12 - c[1..].iter().sum::<u8>();
        c
    };
    let mask = |points: &[u8]| points.iter().fold(0u32, |m, &p| m | 1 << p);
    Board::from_counts([side(white), side(black)])
        .with_stacked([mask(stacked[0]), mask(stacked[1])])
}

fn to_move(r: &Arc<TablesRules>, b: Board, seat: Seat, dice: &str) -> TablesGame {
    TablesGame::from_parts(r.clone(), b, Phase::Move(seat, dice.parse().unwrap()))
        .unwrap_or_else(|e| panic!("{e}"))
}

fn plays(game: &TablesGame) -> Vec<String> {
    let mut out: Vec<String> = game.plays().iter().map(ToString::to_string).collect();
    out.sort();
    out
}

fn roll(game: &mut TablesGame, dice: &str) {
    game.apply_chance(TablesChance::Roll(dice.parse().unwrap()));
}

const ALL: &[(u8, u8)] = &[(1, 2), (2, 2), (3, 2), (4, 2), (5, 2), (6, 2)];

#[test]
fn twelve_checkers_each_start_stacked_in_pairs_in_facing_tables() {
    // "Each one of the players should have twelve pieces and put them doubled up, one on top
    // of another, each one in his table … across from the other on the same side of the bar."
    let r = doblet();
    assert!(r.source().contains("Libro de los Juegos"));
    assert_eq!(r.checkers(), 12);
    let start = r.start();
    for seat in 0..2 {
        for p in 1..=6 {
            assert_eq!(start.count(seat, p), 2, "seat {seat} point {p}");
        }
        assert_eq!(
            start.stacked(seat),
            0b111_1110,
            "pairs stacked on own points 1-6"
        );
    }
    // The two home tables face each other: white's 1-6 are board points 1-6, black's are
    // board points 24-19, the table across from them on the same side of the bar.
    assert_eq!(
        (1..=6).map(|p| r.board_point(0, p)).collect::<Vec<_>>(),
        [1, 2, 3, 4, 5, 6]
    );
    assert_eq!(
        (1..=6).map(|p| r.board_point(1, p)).collect::<Vec<_>>(),
        [24, 23, 22, 21, 20, 19]
    );
    assert!(r.has_stacks() && r.bear_off_only() && r.given_extra());
    // The start's position string carries the stacked pairs and reads back.
    let game = r.new_game(1);
    let text = game.to_string();
    assert!(text.contains(":stacked=1,2,3,4,5,6/1,2,3,4,5,6:"), "{text}");
    let back = r.parse_position(&text).unwrap();
    assert_eq!(back.to_string(), text);
    assert_eq!(back.board(), game.board());
}

#[test]
fn a_die_lays_down_the_pair_on_its_own_point() {
    // "They should unstack those twelve pieces that are on top of the others by the numbers
    // of the pips of the dice": from the start, 3-2-1 lays down the pairs on 3, 2 and 1.
    // The checkers stay where they are.
    let r = doblet();
    let mut game = TablesGame::from_parts(r.clone(), r.start(), Phase::Roll(WHITE)).unwrap();
    roll(&mut game, "3-2-1");
    assert_eq!(plays(&game), ["3/down 2/down 1/down"]);
    let p = game.plays()[0];
    game.play(p);
    assert_eq!(
        game.board().stacked(0),
        0b111_0000,
        "4, 5 and 6 still stacked"
    );
    assert_eq!(game.board().stacked(1), 0b111_1110, "black's untouched");
    for p in 1..=6 {
        assert_eq!(game.board().count(0, p), 2, "nothing moved from point {p}");
    }
    assert_eq!(game.phase(), Phase::Roll(BLACK));
    assert!(
        game.to_string().contains("stacked=4,5,6/1,2,3,4,5,6"),
        "{game}"
    );
}

#[test]
fn dice_the_player_cannot_use_go_to_the_opponent_before_its_own_roll() {
    // 6-6-6 from the start: the first 6 lays down white's pair on 6; the other two find no
    // pair (it is down) and nothing may be borne off while pairs stand stacked, so they go
    // to black. Black lays down its own 6 with one; the last 6 is lost. Then black rolls
    // its own turn (Cotton: "the other lays down for him to his own advantage").
    let r = doblet();
    let mut game = TablesGame::from_parts(r.clone(), r.start(), Phase::Roll(WHITE)).unwrap();
    roll(&mut game, "6-6-6");
    assert_eq!(plays(&game), ["6/down"]);
    let p = game.plays()[0];
    game.play(p);
    assert_eq!(game.phase(), Phase::Move(BLACK, "6-6".parse().unwrap()));
    assert!(game.dice_given());
    let text = game.to_string();
    assert!(text.ends_with(":black:given:6-6"), "{text}");
    let back = r.parse_position(&text).unwrap();
    assert_eq!((back.to_string(), back.hash()), (text, game.hash()));
    assert_eq!(plays(&game), ["6/down"]);
    let p = game.plays()[0];
    game.play(p);
    assert_eq!(
        game.phase(),
        Phase::Roll(BLACK),
        "black now rolls its own turn"
    );
    assert_eq!(game.board().stacked(1), 0b011_1110);
    // Under the other reading the opponent plays them instead of its roll: white rolls next.
    let r = doblet_with(&[("unplayable", "to-opponent")]);
    let mut game = TablesGame::from_parts(r.clone(), r.start(), Phase::Roll(WHITE)).unwrap();
    roll(&mut game, "6-6-6");
    let p = game.plays()[0];
    game.play(p);
    let p = game.plays()[0];
    game.play(p);
    assert_eq!(game.phase(), Phase::Roll(WHITE));
}

#[test]
fn nothing_is_borne_off_until_every_pair_is_down() {
    let r = doblet();
    // White's last pair stacked on 4, the others down. 4-2-1: the 4 lays it down, and only
    // then may the 2 and the 1 bear off, from points 2 and 1; one play.
    let b = board(ALL, ALL, [&[4], &[1, 2, 3, 4, 5, 6]]);
    let game = to_move(&r, b, WHITE, "4-2-1");
    assert_eq!(plays(&game), ["4/down 2/off 1/off"]);
    // 3-2-1 with the pair on 4 still stacked: no die lays it down, and nothing is borne off
    // before it is: nothing plays, and the three dice go to black, who lays down 3, 2, 1.
    let mut game = to_move(&r, b, WHITE, "3-2-1");
    assert_eq!(plays(&game), ["pass"]);
    game.play(Play::default());
    assert_eq!(game.phase(), Phase::Move(BLACK, "3-2-1".parse().unwrap()));
    assert_eq!(plays(&game), ["3/down 2/down 1/down"]);
    // Written by hand, a bearing off before the pair is down is refused with the reason.
    let game = to_move(&r, b, WHITE, "4-2-1");
    let e = game
        .parse_move("2/off 4/down 1/off")
        .unwrap_err()
        .to_string();
    assert!(e.contains("stacked"), "{e}");
}

#[test]
fn checkers_are_borne_off_exactly_and_never_move_along_the_board() {
    // All pairs down; white has two on 3 and one on 5. 6-4-2: the 6 bears off nothing (exact:
    // a 6 only from point 6), the 4 and the 2 find no checker on their points, and no checker
    // moves along the board (5/1 or 3/1 would under the usual rules). Nothing plays.
    let r = doblet();
    let b = board(&[(3, 2), (5, 1)], ALL, [&[], &[]]);
    let game = to_move(&r, b, WHITE, "6-4-2");
    assert_eq!(plays(&game), ["pass"]);
    let e = game.parse_move("5/1").unwrap_err().to_string();
    assert!(e.contains("never move along the board"), "{e}");
    // 5-3-3 bears off all three and wins at once.
    let mut game = to_move(&r, b, WHITE, "5-3-3");
    assert_eq!(plays(&game), ["5/off 3/off 3/off"]);
    let p = game.plays()[0];
    game.play(p);
    assert_eq!(game.turn(), Turn::Over);
    assert_eq!(game.result().unwrap().winner(), Some(WHITE));
}

#[test]
fn lay_downs_are_written_and_read_as_the_game_lists_them() {
    let r = doblet();
    let mut game = TablesGame::from_parts(r.clone(), r.start(), Phase::Roll(WHITE)).unwrap();
    roll(&mut game, "5-4-1");
    // Any order of the lay-downs names the same play.
    let listed = game.plays()[0];
    assert_eq!(game.parse_move("1/down 5/down 4/down").unwrap(), listed);
    assert_eq!(game.parse_move("5/down,4/down,1/down").unwrap(), listed);
    for (bad, why) in [
        ("6/down 4/down 1/down", "a 6"),
        ("5/4 4/down 1/down", "still stacked"),
    ] {
        let e = game.parse_move(bad).unwrap_err().to_string();
        assert!(e.contains(why), "`{bad}`: {e}");
    }
    // Once a pair is down, laying it down again is refused.
    let b = board(ALL, ALL, [&[], &[1]]);
    let game = to_move(&r, b, WHITE, "5-4-1");
    let e = game
        .parse_move("5/down 4/off 1/off")
        .unwrap_err()
        .to_string();
    assert!(e.contains("no pair is stacked"), "{e}");
}

#[test]
fn positions_with_impossible_stacks_are_refused() {
    let r = doblet();
    let id = r.new_game(0).gnubg_id();
    for (text, why) in [
        (
            format!("{id}:stacked=7/-:white:roll"),
            "only on points 1, 2, 3, 4, 5, 6",
        ),
        (format!("{id}:stacked=1,2/x:white:roll"), "not a point"),
        (format!("{id}:stacked=1,2:white:roll"), "split by `/`"),
    ] {
        let e = r.parse_position(&text).unwrap_err().to_string();
        assert!(e.contains(why), "{text}: {e}");
    }
    // A stacked pair is two checkers.
    let b = board(
        &[(1, 3), (2, 1), (3, 2), (4, 2), (5, 2), (6, 2)],
        ALL,
        [&[1], &[]],
    );
    let e = TablesGame::from_parts(r.clone(), b, Phase::Roll(WHITE))
        .unwrap_err()
        .to_string();
    assert!(e.contains("two of its checkers, not 3"), "{e}");
    // Fallas stacks nothing, so its positions have no such field.
    let fallas = shipped_with("fallas", &[]);
    let e = fallas
        .parse_position("4P8DADDg/wMAMA:stacked=1/-:white:roll")
        .unwrap_err()
        .to_string();
    assert!(e.contains("stacks no pairs"), "{e}");
}

#[test]
fn stacks_a_file_cannot_play_are_refused_with_the_line() {
    let base = text();
    for (from, to, why) in [
        (
            "points = [1, 2, 3, 4, 5, 6]",
            "points = [1, 2, 7]",
            "stacked points are 1 to 6",
        ),
        (
            "points = [1, 2, 3, 4, 5, 6]",
            "points = [1, 1]",
            "listed twice",
        ),
        ("1 = 2\n2 = 2", "1 = 3\n2 = 1", "the setup puts 3"),
    ] {
        assert!(base.contains(from), "{from}");
        let edited = base.replace(from, to);
        let e = TablesRules::from_toml(&edited, "doblet.toml", &[])
            .unwrap_err()
            .to_string();
        assert!(e.contains(why), "{to}: {e}");
        assert!(e.starts_with("doblet.toml:"), "{e}");
    }
}

#[test]
fn random_games_keep_every_invariant_and_end_by_bearing_off() {
    let r = doblet();
    let config = PlayoutConfig {
        games: 60,
        seed: 74,
        max_plies: 5_000,
        notation_every: 1,
    };
    let report = random_playouts(&r, &config).unwrap_or_else(|v| panic!("{v}"));
    assert_eq!(
        report.endings.get("bore-off").copied(),
        Some(60),
        "{:?}",
        report.endings
    );
}

// ---------------------------------------------------------------------------------------
// A plain enumerator, from the rules as the file states them.

/// A position as the enumerator sees it: per seat, checkers on own points 1-6 and whether
/// each point's pair is still stacked.
type Plain = [([u8; 7], [bool; 7]); 2];

fn to_plain(b: &Board) -> Plain {
    let mut out = [([0u8; 7], [false; 7]); 2];
    for (s, (on, stacked)) in out.iter_mut().enumerate() {
        for p in 1..=6u8 {
            on[usize::from(p)] = b.count(s, p);
            stacked[usize::from(p)] = b.stacked(s) >> p & 1 == 1;
        }
    }
    out
}

/// Every sequence of the dice: while any pair of the mover is stacked a die of n only lays
/// down the pair on n; once none is, a die of n only bears a checker off point n.
fn sequences(pos: Plain, seat: usize, dice: &[u8], used: usize, out: &mut Vec<(Plain, usize)>) {
    let (on, stacked) = pos[seat];
    if dice.is_empty() || on.iter().all(|&n| n == 0) {
        out.push((pos, used + dice.len()));
        return;
    }
    let any_stacked = stacked.iter().any(|&s| s);
    let mut moved = false;
    for i in 0..dice.len() {
        let d = usize::from(dice[i]);
        let mut rest = dice.to_vec();
        rest.remove(i);
        let mut next = pos;
        if any_stacked {
            if !stacked[d] {
                continue;
            }
            next[seat].1[d] = false;
        } else {
            if on[d] == 0 {
                continue;
            }
            next[seat].0[d] -= 1;
        }
        moved = true;
        sequences(next, seat, &rest, used + 1, out);
    }
    if !moved {
        out.push((pos, used));
    }
}

#[test]
fn every_play_matches_a_plain_enumerator_on_random_positions() {
    let r = doblet();
    let mut rng = ChaCha8Rng::seed_from_u64(1283);
    let mut checked = 0;
    for _ in 0..3000 {
        // Each seat: each point keeps 0, 1 or 2 checkers; a point with two may still be
        // stacked, but only while no checker of that seat is borne off (nothing is borne
        // off before every pair is down).
        let mut sides = [([0u8; 26], 0u32); 2];
        for (counts, mask) in sides.iter_mut() {
            let unstacking = rng.gen_bool(0.5);
            for (p, count) in counts.iter_mut().enumerate().take(7).skip(1) {
                *count = if unstacking { 2 } else { rng.gen_range(0..=2) };
                if unstacking && rng.gen_bool(0.5) {
                    *mask |= 1 << p;
                }
            }
            counts[0] = 12 - counts[1..].iter().sum::<u8>();
        }
        if sides.iter().any(|(c, _)| c[0] == 12) {
            continue;
        }
        let b = Board::from_counts([sides[0].0, sides[1].0]).with_stacked([sides[0].1, sides[1].1]);
        let seat = rng.gen_range(0..2usize);
        let v: Vec<u8> = (0..3).map(|_| rng.gen_range(1..=6)).collect();
        let dice = Dice::new(&v).unwrap();
        let game = to_move(&r, b, Seat(seat as u8), &dice.to_string());
        let listed = game.plays();
        let reached: Vec<Plain> = listed
            .iter()
            .map(|&p| {
                let mut g = game.clone();
                g.play(p);
                to_plain(g.board())
            })
            .collect();
        let distinct: HashSet<Plain> = reached.iter().copied().collect();
        assert_eq!(
            distinct.len(),
            reached.len(),
            "{game}: two plays reach one position"
        );
        let mut all = Vec::new();
        sequences(to_plain(&b), seat, dice.values(), 0, &mut all);
        let most = all.iter().map(|&(_, u)| u).max().unwrap_or(0);
        let expected: HashSet<Plain> = all
            .into_iter()
            .filter(|&(_, u)| u == most)
            .map(|(p, _)| p)
            .collect();
        assert_eq!(distinct, expected, "{game}: {:?}", plays(&game));
        // Every listed play reads back from its text.
        for &p in &listed {
            assert_eq!(game.parse_move(&p.to_string()).unwrap(), p, "{game}: {p}");
        }
        assert!(listed
            .iter()
            .all(|p| p.steps().all(|s| s.is_lay_down() || s.to() == OFF)));
        checked += 1;
    }
    assert!(checked > 2500, "{checked}");
}
