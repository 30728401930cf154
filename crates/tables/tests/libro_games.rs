//! The Libro's other tables games, each only a ruleset file: every shipped file loads,
//! random games keep the interface's invariants, hand-built scenarios follow the source
//! texts (reasoning in the comments), and the plays are cross-checked against a plain
//! enumerator written here from the rules, which shares no code with the move generator.

mod common;

use common::*;
use libro_core::conformance::{random_playouts, PlayoutConfig};
use libro_core::{Game, Ruleset, Turn};
use libro_tables::{Board, Dice, Phase, Play, TablesChance, TablesGame, TablesRules, BAR};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::HashSet;
use std::sync::Arc;

/// The new games' files, in `rulesets/`.
const GAMES: &[&str] = &[
    "todas-tablas",
    "emperador",
    "medio-emperador",
    "pareja-de-entrada",
    "cab-e-quinal",
    "seys-dos-e-as",
    "buffa",
    "laquet",
];

fn text_of(name: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/../../rulesets/{name}.toml",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap_or_else(|e| panic!("rulesets/{name}.toml: {e}"))
}

fn rules(name: &str) -> Arc<TablesRules> {
    Arc::new(
        TablesRules::from_toml(&text_of(name), &format!("rulesets/{name}.toml"), &[])
            .unwrap_or_else(|e| panic!("{e}")),
    )
}

fn roll(game: &mut TablesGame, dice: &str) {
    game.apply_chance(TablesChance::Roll(dice.parse().unwrap()));
}

/// The board after `play`, through the game (its own application of the steps).
fn played(game: &TablesGame, play: Play) -> Board {
    let mut g = game.clone();
    g.play(play);
    *g.board()
}

// ---------------------------------------------------------------------------------------
// Loading and random games.

#[test]
fn every_new_game_loads_and_cites_its_source() {
    for name in GAMES {
        let r = rules(name);
        assert_eq!(r.name(), *name);
        assert!(r.source().contains("Libro de los Juegos"), "{name}");
        assert_eq!(r.checkers(), 15, "{name}");
        let start = r.start();
        for seat in 0..2 {
            assert_eq!(
                start.in_play(seat),
                15,
                "{name}: every checker starts in play"
            );
        }
        // Every option a file sets says where its value comes from.
        for o in r.options() {
            assert!(!o.source.trim().is_empty(), "{name}: {}", o.name);
            assert!(!o.source.contains("default (not set"), "{name}: {}", o.name);
        }
        // The start reads back from its position string.
        let game = r.new_game(1);
        assert_eq!(
            r.parse_position(&game.to_string()).unwrap().to_string(),
            game.to_string()
        );
    }
}

#[test]
fn random_games_of_every_new_game_keep_every_invariant() {
    for (k, name) in GAMES.iter().enumerate() {
        let r = rules(name);
        let config = PlayoutConfig {
            games: 40,
            seed: 100 * k as u64,
            max_plies: 20_000,
            notation_every: 1,
        };
        let report = random_playouts(&r, &config).unwrap_or_else(|v| panic!("{name}: {v}"));
        assert_eq!(
            report.endings.get("bore-off").copied(),
            Some(40),
            "{name}: without the falla every game ends by bearing off: {:?}",
            report.endings
        );
    }
}

// ---------------------------------------------------------------------------------------
// A plain enumerator, written from the rules, over board points.

/// A position on the board's own points: `on[s][b]` checkers of seat `s` on board point `b`
/// (1–24), its bar and what it has borne off.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
struct Plain {
    on: [[u8; 25]; 2],
    bar: [u8; 2],
    off: [u8; 2],
}

/// The rules the enumerator needs, read from the ruleset's public accessors.
struct Spec {
    /// `track[s][k]`: the board point of seat `s`'s k-th point from its bearing-off end.
    track: [[u8; 25]; 2],
    home: u8,
    entry: u8,
    hitting: bool,
    enter_first: bool,
    exact: bool,
    falla: bool,
}

impl Spec {
    fn of(r: &TablesRules) -> Spec {
        let mut track = [[0u8; 25]; 2];
        for (s, t) in track.iter_mut().enumerate() {
            for (k, slot) in t.iter_mut().enumerate().skip(1) {
                *slot = r.board_point(s, k as u8);
            }
        }
        Spec {
            track,
            home: r.home(),
            entry: r.entry(),
            hitting: r.hitting(),
            enter_first: r.enter_first(),
            exact: r.bear_off() == libro_tables::BearOff::Exact,
            falla: r.falla(),
        }
    }
}

fn to_plain(spec: &Spec, b: &Board) -> Plain {
    let mut p = Plain {
        on: [[0; 25]; 2],
        bar: [b.count(0, BAR), b.count(1, BAR)],
        off: [b.count(0, 0), b.count(1, 0)],
    };
    for s in 0..2 {
        for k in 1..=24u8 {
            p.on[s][usize::from(spec.track[s][usize::from(k)])] += b.count(s, k);
        }
    }
    p
}

/// Every result of playing `dice` (each die once, in any order) for `seat`, with the dice
/// each sequence used; bearing off the last checker counts as using them all.
fn sequences(
    spec: &Spec,
    pos: Plain,
    seat: usize,
    dice: &[u8],
    used: usize,
    out: &mut Vec<(Plain, usize)>,
) {
    if dice.is_empty() || pos.off[seat] == 15 {
        out.push((pos, used + dice.len()));
        return;
    }
    let me = seat;
    let them = 1 - seat;
    // Own point k of the mover holds how many checkers.
    let at = |p: &Plain, k: u8| p.on[me][usize::from(spec.track[me][usize::from(k)])];
    let mut moved = false;
    for i in 0..dice.len() {
        let d = dice[i];
        let rest: Vec<u8> = dice
            .iter()
            .enumerate()
            .filter(|&(j, _)| j != i)
            .map(|(_, &v)| v)
            .collect();
        // Each starting place: the bar (as own point entry + 1), then own points 24..1.
        let mut starts: Vec<u8> = Vec::new();
        if pos.bar[me] > 0 {
            starts.push(0);
        }
        if !(spec.enter_first && pos.bar[me] > 0) {
            starts.extend((1..=24u8).rev().filter(|&k| at(&pos, k) > 0));
        }
        for start in starts {
            let from = if start == 0 { spec.entry + 1 } else { start };
            let mut next = pos;
            if from > d {
                let land = spec.track[me][usize::from(from - d)];
                let theirs = next.on[them][usize::from(land)];
                let closed = if spec.hitting {
                    theirs >= 2
                } else {
                    theirs >= 1
                };
                if closed {
                    continue;
                }
                if spec.hitting && theirs == 1 {
                    next.on[them][usize::from(land)] = 0;
                    next.bar[them] += 1;
                }
                next.on[me][usize::from(land)] += 1;
            } else {
                // Bearing off: every checker in own points 1..home, none on the bar.
                if start == 0 || pos.bar[me] > 0 {
                    continue;
                }
                if (spec.home + 1..=24).any(|k| at(&pos, k) > 0) {
                    continue;
                }
                let higher = (from + 1..=24).any(|k| at(&pos, k) > 0);
                if !(from == d || (!spec.exact && !higher)) {
                    continue;
                }
                next.off[me] += 1;
            }
            if start == 0 {
                next.bar[me] -= 1;
            } else {
                next.on[me][usize::from(spec.track[me][usize::from(start)])] -= 1;
            }
            moved = true;
            sequences(spec, next, seat, &rest, used + 1, out);
        }
    }
    if !moved {
        out.push((pos, used));
    }
}

/// The positions a roll may lead to by the rules: with the falla, those using every die;
/// otherwise those using as many dice as possible.
fn plain_results(spec: &Spec, b: &Board, seat: usize, dice: &Dice) -> HashSet<Plain> {
    let mut all = Vec::new();
    sequences(spec, to_plain(spec, b), seat, dice.values(), 0, &mut all);
    let most = all.iter().map(|&(_, u)| u).max().unwrap_or(0);
    all.into_iter()
        .filter(|&(_, u)| u == most && (!spec.falla || u == dice.len()))
        .map(|(p, _)| p)
        .collect()
}

/// Compares the engine's plays with the enumerator's results for one position and roll;
/// each listed play reaches a different position. Returns the number of plays.
fn compare(r: &Arc<TablesRules>, spec: &Spec, board: Board, seat: usize, dice: Dice) -> usize {
    let Ok(game) = TablesGame::from_parts(
        r.clone(),
        board,
        Phase::Move(libro_core::Seat(seat as u8), dice),
    ) else {
        // Under the falla a roll that cannot be played is refused as a position; the
        // enumerator must agree that no play uses every die.
        assert!(spec.falla);
        assert!(plain_results(spec, &board, seat, &dice).is_empty());
        return 0;
    };
    let plays = game.plays();
    let reached: Vec<Plain> = plays
        .iter()
        .map(|&p| to_plain(spec, &played(&game, p)))
        .collect();
    let distinct: HashSet<Plain> = reached.iter().copied().collect();
    assert_eq!(
        distinct.len(),
        reached.len(),
        "{game}: two plays reach one position"
    );
    let expected = plain_results(spec, &board, seat, &dice);
    assert_eq!(distinct, expected, "{} {game}: plays {plays:?}", r.name());
    plays.len()
}

/// A random position of `r`: each seat's checkers spread over its own points, the bar and
/// off the board, never both seats on one board point, neither with all borne off.
fn random_board(r: &TablesRules, rng: &mut ChaCha8Rng) -> Board {
    loop {
        let mut counts = [[0u8; 26]; 2];
        let mut taken = [None::<usize>; 25];
        for (s, mine) in counts.iter_mut().enumerate() {
            for _ in 0..15 {
                let slot = match rng.gen_range(0..10) {
                    0 => 0,
                    1 => 25,
                    _ => rng.gen_range(1..=24u8),
                };
                if (1..=24).contains(&slot) {
                    let b = usize::from(r.board_point(s, slot));
                    if taken[b].is_some_and(|t| t != s) {
                        mine[0] += 1;
                        continue;
                    }
                    taken[b] = Some(s);
                }
                mine[usize::from(slot)] += 1;
            }
        }
        if counts[0][0] < 15 && counts[1][0] < 15 {
            return Board::from_counts(counts);
        }
    }
}

fn random_dice(r: &TablesRules, rng: &mut ChaCha8Rng) -> Dice {
    let (count, sides) = r.dice();
    let v: Vec<u8> = (0..count).map(|_| rng.gen_range(1..=sides)).collect();
    Dice::new(&v).unwrap()
}

#[test]
fn todas_tablas_plays_match_a_plain_enumerator_on_random_positions() {
    // Todas Tablas moves as backgammon does (two dice, a lone checker hit to the bar, the
    // bar first, bearing off once all are home), but doubles are played once and a roll
    // that cannot be used in full is played as far as it goes.
    let r = rules("todas-tablas");
    let spec = Spec::of(&r);
    assert!(spec.hitting && spec.enter_first && !spec.falla);
    let mut rng = ChaCha8Rng::seed_from_u64(2024);
    let mut plays = 0;
    for _ in 0..3000 {
        let board = random_board(&r, &mut rng);
        let seat = rng.gen_range(0..2);
        plays += compare(&r, &spec, board, seat, random_dice(&r, &mut rng));
    }
    assert!(plays > 3000, "{plays}");
}

#[test]
fn every_new_game_plays_match_the_plain_enumerator() {
    // Random positions of each game's board, and positions met in random games.
    for (k, name) in GAMES.iter().enumerate() {
        let r = rules(name);
        let spec = Spec::of(&r);
        let mut rng = ChaCha8Rng::seed_from_u64(k as u64);
        for _ in 0..500 {
            let board = random_board(&r, &mut rng);
            let seat = rng.gen_range(0..2);
            compare(&r, &spec, board, seat, random_dice(&r, &mut rng));
        }
        let mut compared = 0;
        for seed in 0..10 {
            let mut game = r.new_game(seed);
            while game.turn() != Turn::Over && game.ply() < 4000 {
                match game.turn() {
                    Turn::Chance => {
                        if let Phase::Roll(seat) = game.phase() {
                            let dice = random_dice(&r, &mut rng);
                            compare(&r, &spec, *game.board(), seat.index(), dice);
                            compared += 1;
                        }
                        let outcome = game.sample_chance();
                        game.apply_chance(outcome);
                    }
                    Turn::Seat(_) => {
                        let plays = game.plays();
                        game.play(plays[rng.gen_range(0..plays.len())]);
                    }
                    Turn::Over => unreachable!(),
                }
            }
        }
        assert!(compared > 200, "{name}: {compared}");
    }
}

/// GNU Backgammon's legal plays of 600 random positions with a roll of two different dice,
/// as the positions they reach (tests/data/gnubg_moves.py made it; see tests/data/README.md).
const GNUBG_MOVES: &str = include_str!("data/gnubg_moves.txt");

#[test]
fn todas_tablas_plays_match_gnubg_where_backgammon_agrees() {
    // Backgammon and Todas Tablas move alike with two different dice; they differ only when
    // a single die can be played: backgammon then requires the higher one if it can be
    // played, the source of Todas Tablas does not. So: the same positions when the plays use
    // both dice (or none), and gnubg's a subset of ours when one die is all that plays.
    let r = rules("todas-tablas");
    let (mut same, mut one_die) = (0, 0);
    for line in GNUBG_MOVES.lines() {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let (id, dice, expected) = (
            fields[0],
            format!("{}-{}", fields[1], fields[2]),
            &fields[3..],
        );
        let board = Board::from_gnubg_id(id, 0, 15).unwrap();
        let dice: Dice = dice.parse().unwrap();
        let game = TablesGame::from_parts(r.clone(), board, Phase::Move(WHITE, dice))
            .unwrap_or_else(|e| panic!("{line}: {e}"));
        let listed = game.plays();
        let ours: HashSet<String> = listed
            .iter()
            .map(|&p| played(&game, p).gnubg_id(0))
            .collect();
        let theirs: HashSet<String> = expected.iter().map(|s| s.to_string()).collect();
        if listed[0].len() == 1
            && !ours
                .iter()
                .any(|id| Board::from_gnubg_id(id, 0, 15).unwrap().in_play(0) == 0)
        {
            one_die += 1;
            assert!(theirs.is_subset(&ours), "{line}: ours {ours:?}");
        } else {
            same += 1;
            assert_eq!(ours, theirs, "{line}: {:?}", plays(&game));
        }
    }
    println!("gnubg: {same} rolls with the same plays, {one_die} with one die playable");
    assert_eq!(same + one_die, 600);
    assert!(same > 500, "{same} {one_die}");
}

// ---------------------------------------------------------------------------------------
// Scenarios from the source texts.

#[test]
fn todas_tablas_starts_as_backgammon_does() {
    // Two on the 24-point, five on the 13, three on the 8, five on the 6, for each side, the
    // players facing each other: backgammon's start, whose gnubg Position ID is
    // 4HPwATDgc/ABMA (gnubg's manual).
    let r = rules("todas-tablas");
    assert_eq!(r.dice(), (2, 6));
    assert_eq!(r.new_game(0).to_string(), "4HPwATDgc/ABMA:roll-off");
    let mut outcomes = Vec::new();
    let mut game = r.new_game(0);
    game.apply_chance(TablesChance::RollOff([2, 5]));
    game.chance_outcomes(&mut outcomes);
    assert_eq!(outcomes.len(), 21, "two dice: 21 unordered rolls");
}

#[test]
fn todas_tablas_a_hit_checker_enters_first_in_the_first_table() {
    // White has a checker on the bar and fourteen on its 6-point. Black holds two checkers on
    // its own points 1, 2, 4, 5 and 6 — white's 24, 23, 21, 20 and 19 — and five on its 12.
    // White's 3 enters on its point 22 (25 - 3), the only open point of the first table; the
    // 1 cannot enter (24 is closed), so the 3 enters first. Then the 1: from 22 to 21 is
    // closed, from 6 to 5 is open. One play: bar/22 6/5.
    let r = rules("todas-tablas");
    let black = [(1, 2), (2, 2), (4, 2), (5, 2), (6, 2), (12, 5)];
    let game = to_move(&r, &[(BAR, 1), (6, 14)], &black, WHITE, "3-1");
    assert_eq!(plays(&game), ["bar/22 6/5"]);
    // With 6-5 nothing enters (19 and 20 are closed) and, the bar first, nothing else
    // moves: the roll is lost, and black rolls next; no falla in Todas Tablas.
    let mut game = to_roll(&r, &[(BAR, 1), (6, 14)], &black, WHITE);
    roll(&mut game, "6-5");
    assert_eq!(plays(&game), ["pass"]);
    game.play(Play::default());
    assert_eq!(game.phase(), Phase::Roll(BLACK));
}

#[test]
fn todas_tablas_doubles_are_played_once_and_hits_send_to_the_bar() {
    // White: one checker on 10, fourteen on 6. Black: a lone checker on its own 18 (white's
    // 7) and fourteen on its 12 (white's 13). A 4-4 is two 4s, not four: the plays are
    // 10/6 with 6/2 (or 10/6/2, the same position: one on 2, fourteen on 6) and 6/2 6/2
    // (two on 2, one on 10, twelve on 6). Two positions, every play two steps.
    let r = rules("todas-tablas");
    let game = to_move(&r, &[(10, 1), (6, 14)], &[(18, 1), (12, 14)], WHITE, "4-4");
    let listed = game.plays();
    assert!(listed.iter().all(|p| p.len() == 2), "{listed:?}");
    assert_eq!(listed.len(), 2, "{listed:?}");
    // A 3-1 hits the lone black checker on white's 7 with 10/7* (and 7/6 or 6/5 after): it
    // goes to black's bar.
    let game = to_move(&r, &[(10, 1), (6, 14)], &[(18, 1), (12, 14)], WHITE, "3-1");
    let hits: Vec<Play> = game
        .plays()
        .into_iter()
        .filter(|p| p.steps().any(|s| s.hit()))
        .collect();
    assert_eq!(hits.len(), 2, "{:?}", plays(&game));
    for hit in hits {
        assert!(hit.to_string().contains("10/7*"), "{hit}");
        assert_eq!(played(&game, hit).count(1, BAR), 1);
    }
}

#[test]
fn emperador_fifteen_on_the_first_point_and_three_dice() {
    // All fifteen on each player's own 24: white's board point 24, black's board point 1,
    // the two corner points facing each other.
    let r = rules("emperador");
    assert_eq!((r.board_point(0, 24), r.board_point(1, 24)), (24, 1));
    assert_eq!(r.dice(), (3, 6));
    let mut game = r.new_game(0);
    game.apply_chance(TablesChance::RollOff([6, 1]));
    roll(&mut game, "6-5-4");
    // Nothing stands in the way (black's checkers are on white's point 1). The plays: three
    // checkers one die each (24/18 24/19 24/20); one checker two dice and another the third
    // (6+5, 6+4, 5+4: 24/13 24/20, 24/14 24/19, 24/15 24/18); one checker all three
    // (24/9). Five positions.
    assert_eq!(game.plays().len(), 5, "{:?}", plays(&game));
}

#[test]
fn emperador_a_hit_checker_returns_to_the_first_table_without_entering_first() {
    // White: a checker on the bar and fourteen on its 5-point. Black: fourteen on its own 24
    // (white's 1) and one on its own 10 (white's 15). With 2-1-1 white may enter the bar
    // checker on 23 (the 2) or 24 (a 1), or leave it on the bar and move checkers of the
    // 5-point: the source only sends it back to the first table, it does not make it enter
    // before the others move.
    let r = rules("emperador");
    let game = to_move(
        &r,
        &[(BAR, 1), (5, 14)],
        &[(24, 14), (10, 1)],
        WHITE,
        "2-1-1",
    );
    let listed = plays(&game);
    assert!(listed.iter().any(|p| !p.contains("bar")), "{listed:?}");
    assert!(listed.iter().any(|p| p.contains("bar/23")), "{listed:?}");
    // Under Fallas' rules (the bar first) every play of the same roll enters first.
    let fallas = fallas();
    let game = to_move(
        &fallas,
        &[(BAR, 1), (5, 14)],
        &[(24, 14), (10, 1)],
        WHITE,
        "2-1-1",
    );
    assert!(plays(&game).iter().all(|p| p.starts_with("bar/")));
}

#[test]
fn medio_emperador_plays_on_half_the_board() {
    // White's path: its own 12 (board 24) down to 7 (board 19), then 6 (board 6) down to 1
    // (board 1); black's the other way. Each starts with fifteen on its own 12.
    let r = rules("medio-emperador");
    assert_eq!(r.dice(), (2, 6));
    assert_eq!(r.entry(), 12);
    let w: Vec<u8> = (1..=12).rev().map(|p| r.board_point(0, p)).collect();
    assert_eq!(w, [24, 23, 22, 21, 20, 19, 6, 5, 4, 3, 2, 1]);
    let b: Vec<u8> = (1..=12).rev().map(|p| r.board_point(1, p)).collect();
    assert_eq!(b, [1, 2, 3, 4, 5, 6, 19, 20, 21, 22, 23, 24]);
    // With 6-5 from the start white may move two checkers (12/6 12/7) but not one checker
    // eleven points: it would land on its own 1, board 1, where black's fifteen stand.
    let mut game = r.new_game(0);
    game.apply_chance(TablesChance::RollOff([6, 1]));
    roll(&mut game, "6-5");
    let listed = game.plays();
    assert_eq!(listed.len(), 1, "{listed:?}");
    let after = played(&game, listed[0]);
    assert_eq!(
        (after.count(0, 12), after.count(0, 7), after.count(0, 6)),
        (13, 1, 1)
    );
    // A hit checker enters in the first table of the half: a die of n on own 13 - n, the 6
    // on 7 and the 1 on 12. White: one on the bar, fourteen on 12; black fifteen on its 12.
    // With 6-1 (entering is not forced first): bar/7 7/6 (the same position as bar/12
    // 12/6), bar/7 12/11, and leaving the bar checker where it is: 12/6 6/5, 12/6 12/11.
    // Four positions.
    let game = to_move(&r, &[(BAR, 1), (12, 14)], &[(12, 15)], WHITE, "6-1");
    let listed = plays(&game);
    assert_eq!(listed.len(), 4, "{listed:?}");
    assert_eq!(
        listed.iter().filter(|p| p.contains("bar/7")).count(),
        2,
        "{listed:?}"
    );
    let entered_to_6 = game
        .plays()
        .into_iter()
        .map(|p| played(&game, p))
        .any(|b| b.count(0, BAR) == 0 && b.count(0, 6) == 1 && b.count(0, 12) == 14);
    assert!(entered_to_6, "{listed:?}");
}

#[test]
fn pareja_de_entrada_enters_from_the_hand_and_doubles_roll_again() {
    // Both players start with all fifteen in hand and enter in the same table.
    let r = rules("pareja-de-entrada");
    let start = r.start();
    assert_eq!((start.count(0, BAR), start.count(1, BAR)), (15, 15));
    assert!(r.roll_again());
    let mut game = r.new_game(0);
    game.apply_chance(TablesChance::RollOff([6, 1]));
    roll(&mut game, "3-3-3");
    // Three 3s: each enters a checker on 22 or takes an entered one 3 further. Three
    // positions: three on 22; one on 22 and one on 19; one on 16.
    let listed = game.plays();
    assert_eq!(listed.len(), 3, "{:?}", plays(&game));
    game.play(listed[0]);
    // The same player rolls again after doubles (here triples).
    assert_eq!(game.phase(), Phase::Roll(WHITE));
    roll(&mut game, "6-4-1");
    let p = game.plays()[0];
    game.play(p);
    assert_eq!(game.phase(), Phase::Roll(BLACK));
}

#[test]
fn pareja_de_entrada_both_players_share_the_track_and_hit() {
    // The same path: black's own point p is white's own point p. A white lone checker on 20
    // is hit by black entering with a 5 (25 - 5 = 20), and goes back to white's hand.
    let r = rules("pareja-de-entrada");
    assert_eq!(r.board_point(0, 20), r.board_point(1, 20));
    let game = to_move(&r, &[(20, 1), (BAR, 14)], &[(BAR, 15)], BLACK, "5-2-1");
    let hit = game
        .plays()
        .into_iter()
        .find(|p| p.steps().any(|s| s.hit()))
        .expect("a play hits on 20");
    assert_eq!(played(&game, hit).count(0, BAR), 15);
}

#[test]
fn cab_e_quinal_starts_on_the_six_and_the_five() {
    // White's fifteen on the sixth point of the first table (own 19), black's on its fifth
    // (own 20), both on the same track.
    let r = rules("cab-e-quinal");
    let start = r.start();
    assert_eq!((start.count(0, 19), start.count(1, 20)), (15, 15));
    // Black, behind white, cannot move a 1: its 20 to 19 lands on white's fifteen. With
    // 1-1-1 black loses the roll and white rolls.
    let mut game = TablesGame::from_parts(r.clone(), start, Phase::Roll(BLACK)).unwrap();
    roll(&mut game, "1-1-1");
    assert_eq!(plays(&game), ["pass"]);
    // White moves 1s freely: 19/18 ×3, or one checker 19/16, and the mixes: three positions.
    let mut game = TablesGame::from_parts(r.clone(), start, Phase::Roll(WHITE)).unwrap();
    roll(&mut game, "1-1-1");
    assert_eq!(game.plays().len(), 3, "{:?}", plays(&game));
}

#[test]
fn seys_dos_e_as_enters_on_the_track_of_three_tables() {
    // Eight on the first point of the starting table (own 18), four on its fifth (14), three
    // on its sixth (13); the other player five on each of the second, third, fourth.
    let r = rules("seys-dos-e-as");
    let start = r.start();
    assert_eq!([18, 14, 13].map(|p| start.count(0, p)), [8, 4, 3], "white");
    assert_eq!([17, 16, 15].map(|p| start.count(1, p)), [5, 5, 5], "black");
    // A checker in hand enters on the track's n-th point, own 19 - n: a 1 on 18, a 6 on 13.
    // White in hand with one checker, the rest on 18; black five each on 17, 16, 15: the
    // 2, 3, 4 land on black's points (closed); the 1 enters on 18, the 5 on 14, the 6 on 13.
    let game = to_move(
        &r,
        &[(BAR, 1), (18, 14)],
        &[(17, 5), (16, 5), (15, 5)],
        WHITE,
        "6-5-2",
    );
    let listed = plays(&game);
    assert!(listed.iter().any(|p| p.contains("bar/13")), "{listed:?}");
    assert!(listed.iter().any(|p| p.contains("bar/14")), "{listed:?}");
    assert!(listed.iter().all(|p| !p.contains("bar/17")), "{listed:?}");
}

#[test]
fn buffa_enters_every_checker_first_and_bears_off_exactly() {
    // All fifteen begin in hand and must all be entered before any moves: from the start a
    // 6-5-4 enters three checkers on 19, 20 and 21, and nothing else is possible.
    let r = rules("buffa");
    let mut game = r.new_game(0);
    game.apply_chance(TablesChance::RollOff([6, 1]));
    roll(&mut game, "6-5-4");
    let listed = game.plays();
    assert_eq!(listed.len(), 1, "{:?}", plays(&game));
    let after = played(&game, listed[0]);
    assert_eq!([BAR, 21, 20, 19].map(|p| after.count(0, p)), [12, 1, 1, 1]);
    // Bearing off is exact (a die of n from point n only): with
    // one checker left, on the 3-point, a 6-5-4 bears nothing off (under the usual rule the
    // 6 would) and moves nothing: the roll is lost.
    let game = to_move(&r, &[(3, 1)], &[(12, 15)], WHITE, "6-5-4");
    assert_eq!(plays(&game), ["pass"]);
    // A 3 bears it off and wins.
    let mut game = to_move(&r, &[(3, 1)], &[(12, 15)], WHITE, "6-5-3");
    assert_eq!(plays(&game), ["3/off"]);
    let p = game.plays()[0];
    game.play(p);
    assert_eq!(game.turn(), Turn::Over);
}

#[test]
fn laquet_gives_the_dice_a_player_cannot_play_to_the_other() {
    // Laquet's start: white fourteen on its 24 and one on its 1; black three each on 23 to
    // 20, two on 19, one on 12; one track, and no hitting: any opposing checker closes a
    // point.
    let r = rules("laquet");
    let start = r.start();
    assert_eq!((start.count(0, 24), start.count(0, 1)), (14, 1));
    assert_eq!(
        [23, 22, 21, 20, 19, 12].map(|p| start.count(1, p)),
        [3, 3, 3, 3, 2, 1]
    );
    // White to play 6-1 from the start: a 1 from 24 lands on 23, black's, closed; the
    // checker on 1 may not bear off (white is not all home). So the 6 goes first, 24/18, and
    // the 1 follows it, 18/17 (open). One play, both dice used: nothing is given.
    let mut game = TablesGame::from_parts(r.clone(), start, Phase::Roll(WHITE)).unwrap();
    roll(&mut game, "6-1");
    assert_eq!(plays(&game), ["24/18 18/17"]);
    // White to play 2-1: every 1 and 2 from 24 lands on 23 or 22 (black's), and the checker
    // on 1 cannot bear off: nothing plays, and black plays white's 2-1 instead of rolling.
    let mut game = TablesGame::from_parts(r.clone(), start, Phase::Roll(WHITE)).unwrap();
    roll(&mut game, "2-1");
    assert_eq!(plays(&game), ["pass"]);
    game.play(Play::default());
    assert_eq!(game.phase(), Phase::Move(BLACK, "2-1".parse().unwrap()));
    assert!(game.dice_given());
    assert!(game.to_string().ends_with(":black:given:2-1"), "{game}");
    let back = r.parse_position(&game.to_string()).unwrap();
    assert_eq!(back.to_string(), game.to_string());
    assert_eq!(back.hash(), game.hash());
    // Black plays them (say 23/21 and 20/19 … whatever is listed first); then white rolls.
    let p = game.plays()[0];
    game.play(p);
    assert_eq!(game.phase(), Phase::Roll(WHITE));
    assert!(!game.dice_given());
}

#[test]
fn a_step_one_die_can_play_reads_as_that_die() {
    // Met in a random game of Seys, Dos e As: black's last checker on its 5-point, a lone
    // white checker on black's 1-point (same track), and 5-3-1 to play. `5/off` bears it off
    // with the 5 and wins; `5/4/1*/off` takes the 1 and the 3 first, hitting on 1, then bears
    // off. Both are whole turns (the last checker off ends the game). Written `5/off`, the
    // play is the one-die reading: the way every play is printed.
    let r = rules("seys-dos-e-as");
    let game = r.parse_position("fQAAAAgAAAAAAA:black:5-3-1").unwrap();
    let plain = game.parse_move("5/off").unwrap();
    assert_eq!(plain.len(), 1);
    let on_bar = game.board().count(0, BAR);
    assert_eq!(played(&game, plain).count(0, BAR), on_bar, "nothing hit");
    let chained = game.parse_move("5/4/1*/off").unwrap();
    assert_eq!(chained.len(), 3);
    assert_eq!(
        played(&game, chained).count(0, BAR),
        on_bar + 1,
        "white hit"
    );
}

#[test]
fn the_new_options_reach_the_canonical_text_only_when_set() {
    // A ruleset digest is taken of the canonical text: Fallas' must not change because the
    // family gained options it does not use, and the games that use them must differ.
    let fallas = fallas().canonical();
    for field in ["entry", "roll_again", "give_unplayable"] {
        assert!(!fallas.contains(field), "{field}");
    }
    assert!(rules("medio-emperador").canonical().contains("entry: 12"));
    assert!(rules("pareja-de-entrada")
        .canonical()
        .contains("roll_again: true"));
    assert!(rules("laquet")
        .canonical()
        .contains("give_unplayable: true"));
}

#[test]
fn the_new_options_are_refused_with_the_reason_when_wrong() {
    let text = text_of("medio-emperador");
    let e = TablesRules::from_toml(
        &text.replace("value = \"12\"", "value = \"5\""),
        "m.toml",
        &[],
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("allowed values are 24"), "{e}");
    let o = vec![("doubles".to_string(), "twice".to_string())];
    let e = TablesRules::from_toml(&text, "m.toml", &o)
        .unwrap_err()
        .to_string();
    assert!(e.contains("allowed values are once, roll-again"), "{e}");
    // An override turns an option on for a file that does not set it, and lists it.
    let o = vec![("doubles".to_string(), "roll-again".to_string())];
    let fallas = TablesRules::from_toml(&fallas_text(), "fallas.toml", &o).unwrap();
    assert!(fallas.roll_again());
    assert_eq!(fallas.options().len(), 2);
    // A per-seat setup must name the seats and place every checker.
    let cab = text_of("cab-e-quinal");
    let e = TablesRules::from_toml(&cab.replace("[setup.black]", "[setup.red]"), "c.toml", &[])
        .unwrap_err()
        .to_string();
    assert!(e.contains("setup `red`"), "{e}");
    let e = TablesRules::from_toml(&cab.replace("20 = 15", "20 = 14"), "c.toml", &[])
        .unwrap_err()
        .to_string();
    assert!(e.contains("places 14 checkers `black`"), "{e}");
}
