//! Helpers shared by the integration tests: the shipped Fallas ruleset, hand-built
//! positions, and a plain reference move generator written straight from the rules.

#![allow(dead_code)]

use libro_core::Seat;
use libro_tables::{Board, Dice, Ending, Phase, Play, TablesGame, TablesRules, BAR};
use std::collections::HashSet;
use std::sync::Arc;

pub const WHITE: Seat = Seat(0);
pub const BLACK: Seat = Seat(1);

/// The text of the shipped `rulesets/NAME.toml`.
pub fn shipped_text(name: &str) -> String {
    let path = format!("{}/../../rulesets/{name}.toml", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The shipped `rulesets/fallas.toml`.
pub fn fallas_text() -> String {
    shipped_text("fallas")
}

/// A shipped ruleset with option overrides.
pub fn shipped_with(name: &str, overrides: &[(&str, &str)]) -> Arc<TablesRules> {
    let o: Vec<(String, String)> = overrides
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let origin = format!("rulesets/{name}.toml");
    Arc::new(
        TablesRules::from_toml(&shipped_text(name), &origin, &o).unwrap_or_else(|e| panic!("{e}")),
    )
}

/// Fallas with option overrides.
pub fn fallas_with(overrides: &[(&str, &str)]) -> Arc<TablesRules> {
    shipped_with("fallas", overrides)
}

pub fn fallas() -> Arc<TablesRules> {
    fallas_with(&[])
}

/// Counts for one side from (own point, checkers) pairs (25 = bar); the rest are borne off.
pub fn side(points: &[(u8, u8)]) -> [u8; 26] {
    let mut c = [0u8; 26];
    for &(p, n) in points {
        c[usize::from(p)] += n;
    }
    let on: u8 = c[1..].iter().sum();
    c[0] = 15 - on;
    c
}

/// A board from each side's own points.
pub fn board(white: &[(u8, u8)], black: &[(u8, u8)]) -> Board {
    Board::from_counts([side(white), side(black)])
}

/// A position with `seat` to move with `dice` (panics if that roll is a falla there).
pub fn to_move(
    rules: &Arc<TablesRules>,
    white: &[(u8, u8)],
    black: &[(u8, u8)],
    seat: Seat,
    dice: &str,
) -> TablesGame {
    let dice: Dice = dice.parse().unwrap();
    TablesGame::from_parts(rules.clone(), board(white, black), Phase::Move(seat, dice))
        .unwrap_or_else(|e| panic!("{e}"))
}

/// A position with `seat` to roll.
pub fn to_roll(
    rules: &Arc<TablesRules>,
    white: &[(u8, u8)],
    black: &[(u8, u8)],
    seat: Seat,
) -> TablesGame {
    TablesGame::from_parts(rules.clone(), board(white, black), Phase::Roll(seat))
        .unwrap_or_else(|e| panic!("{e}"))
}

/// The plays of the seat to move, as text, sorted.
pub fn plays(game: &TablesGame) -> Vec<String> {
    let mut v: Vec<String> = game.plays().iter().map(Play::to_string).collect();
    v.sort();
    v
}

/// Whether the game ended in a falla of `seat`.
pub fn is_falla_of(game: &TablesGame, seat: Seat) -> bool {
    matches!(game.phase(), Phase::Over(Ending::Falla { loser, .. }) if loser == seat)
}

/// A plain generator written straight from RULES.md, for cross-checking: every sequence of
/// single-die steps over every ordering of the dice (repeats included), no pruning; returns
/// the set of resulting boards of the plays that use every die or bear off the last checker.
pub fn reference_results(
    rules: &TablesRules,
    board: &Board,
    seat: usize,
    dice: &[u8],
    exact: bool,
) -> HashSet<Board> {
    let mut out = HashSet::new();
    let n = dice.len();
    let perms: Vec<Vec<usize>> = match n {
        1 => vec![vec![0]],
        2 => vec![vec![0, 1], vec![1, 0]],
        _ => vec![
            vec![0, 1, 2],
            vec![0, 2, 1],
            vec![1, 0, 2],
            vec![1, 2, 0],
            vec![2, 0, 1],
            vec![2, 1, 0],
        ],
    };
    for perm in perms {
        let order: Vec<u8> = perm.iter().map(|&i| dice[i]).collect();
        walk(rules, *board, seat, &order, exact, &mut out);
    }
    out
}

/// The other side's own number for `seat`'s point `p` (Fallas: opposite directions).
fn opposite(p: u8) -> u8 {
    25 - p
}

fn walk(
    rules: &TablesRules,
    b: Board,
    seat: usize,
    order: &[u8],
    exact: bool,
    out: &mut HashSet<Board>,
) {
    let me = *b.counts(seat);
    if order.is_empty() || me[0] == rules.checkers() {
        out.insert(b);
        return;
    }
    let die = order[0];
    for from in 1..=BAR {
        if me[usize::from(from)] == 0 {
            continue;
        }
        if me[usize::from(BAR)] > 0 && from != BAR {
            continue;
        }
        let to: u8 = if from > die {
            let to = from - die;
            let opp = b.count(1 - seat, opposite(to));
            if opp >= 2 {
                continue;
            }
            to
        } else {
            let all_home = (7..=25).all(|p| me[p] == 0);
            if !all_home {
                continue;
            }
            let higher = (usize::from(from) + 1..=6).any(|p| me[p] > 0);
            if from == die || (!exact && !higher) {
                0
            } else {
                continue;
            }
        };
        let mut counts = [*b.counts(0), *b.counts(1)];
        counts[seat][usize::from(from)] -= 1;
        counts[seat][usize::from(to)] += 1;
        if to != 0 && counts[1 - seat][usize::from(opposite(to))] == 1 {
            counts[1 - seat][usize::from(opposite(to))] = 0;
            counts[1 - seat][usize::from(BAR)] += 1;
        }
        walk(
            rules,
            Board::from_counts(counts),
            seat,
            &order[1..],
            exact,
            out,
        );
    }
}

/// The board after `play` by `seat`, applied by hand.
pub fn after(board: &Board, seat: usize, play: &Play) -> Board {
    let mut counts = [*board.counts(0), *board.counts(1)];
    for s in play.steps() {
        counts[seat][usize::from(s.from())] -= 1;
        counts[seat][usize::from(s.to())] += 1;
        if s.hit() {
            let q = usize::from(opposite(s.to()));
            assert_eq!(counts[1 - seat][q], 1, "a hit lands on a lone checker");
            counts[1 - seat][q] = 0;
            counts[1 - seat][usize::from(BAR)] += 1;
        }
    }
    Board::from_counts(counts)
}
