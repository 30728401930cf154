//! Chance nodes: expectimax with Star1 cuts, checked against hand-worked positions and
//! against an exact solver of the dice race written independently here.

mod toys;

use libro_ai::{Control, Limits, Score, SearchConfig, Searcher, MATE};
use libro_core::{Game, Ruleset, Turn};
use std::collections::HashMap;
use std::sync::Arc;
use toys::race::{Race, RaceRules};
use toys::tree::TreeRules;

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

/// A safe move to a draw, or a gamble: `win` in 6 wins at once, the rest lose at once.
fn gamble(win: u32) -> Arc<TreeRules> {
    let mut t = TreeRules::new(2);
    let safe = t.draw();
    let won = t.win(0);
    let lost = t.win(1);
    let outcomes: Vec<(u32, usize)> = [(win, won), (6 - win, lost)]
        .into_iter()
        .filter(|o| o.0 > 0)
        .collect();
    let roll = t.chance(&[0, 0], &outcomes);
    t.choice(
        0,
        &[0, 0],
        &[("safe", safe, false), ("gamble", roll, false)],
    );
    t.build()
}

#[test]
fn expectimax_weighs_the_outcomes() {
    // One chance in six: (1·(MATE − 1) − 5·(MATE − 1))/6 is far below the draw: play safe.
    let rules = gamble(1);
    let game = rules.new_game(0);
    let r = Searcher::new(SearchConfig::default())
        .search(&game, &depth(3), &Control::default())
        .unwrap();
    assert_eq!(
        (game.move_text(r.best), r.score),
        ("safe".to_string(), Score::Cp(0))
    );
    let values = Searcher::new(SearchConfig::default()).root_values(
        &game,
        3,
        &Limits::default(),
        &Control::default(),
    );
    // Full window, no cut: the gamble's exact mean, (1 − 5)(MATE − 1)/6 rounded.
    let exact = (-4.0 * f64::from(MATE - 1) / 6.0).round() as i32;
    assert_eq!(values, vec![(0, 0), (1, exact)]);

    // Five chances in six: 4·(MATE − 1)/6 = 666 666 (rounded): gamble. Not every roll
    // wins, so it is no mate.
    let rules = gamble(5);
    let game = rules.new_game(0);
    let r = Searcher::new(SearchConfig::default())
        .search(&game, &depth(3), &Control::default())
        .unwrap();
    let expected = (4.0 * f64::from(MATE - 1) / 6.0).round() as i32;
    assert_eq!(
        (game.move_text(r.best), r.score),
        ("gamble".to_string(), Score::Cp(expected))
    );

    // Six in six: a certain win is a mate in 1.
    let game = gamble(6).new_game(0);
    let r = Searcher::new(SearchConfig::default())
        .search(&game, &depth(3), &Control::default())
        .unwrap();
    assert_eq!(
        (game.move_text(r.best), r.score),
        ("gamble".to_string(), Score::Mate(1))
    );
}

#[test]
fn race_position_worked_by_hand() {
    // First to move with a 2 and tokens 2 and 3 from home; second has two tokens on its
    // 1-point, so it bears one off on each of its next two turns whatever it rolls: first
    // must be off with both by its next turn.
    //  (a) 2/off leaves one token on 3: next turn it needs a 3 (1 in 4). Win on our move 2
    //      (MATE − 3), else lost on their move 2 (−(MATE − 4)):
    //      (MATE − 3 − 3(MATE − 4))/4 = −MATE/2 + 9/4 = −499 997.75, rounded −499 998.
    //  (b) 3/1 leaves two tokens, and one die moves one token: lost on their move 2, mate −2.
    let game = Race::new([[2, 3], [1, 1]], 0, Some(2));
    let mut s: Searcher<Race> = Searcher::new(SearchConfig::default());
    let r = s.search(&game, &depth(10), &Control::default()).unwrap();
    assert_eq!(game.move_text(r.best), "2/off");
    assert_eq!(r.score, Score::Cp(-499_998));
    let values = s.root_values(&game, 10, &Limits::default(), &Control::default());
    let by_text: Vec<(String, i32)> = values
        .iter()
        .map(|&(m, v)| (game.move_text(m), v))
        .collect();
    assert!(
        by_text.contains(&("3/1".to_string(), -(MATE - 4))),
        "{by_text:?}"
    );
    assert_eq!(Score::from_internal(-(MATE - 4)), Score::Mate(-2));
}

/// The exact expectiminimax value of a race for seat 0, with the search's conventions:
/// a game won `p` moves from the root is worth ±(MATE − p), chance events are free.
fn exact(game: &Race, ply: i32, memo: &mut HashMap<(String, i32), f64>) -> f64 {
    let key = (
        format!("{:?}{:?}{}", game.tokens, game.die, game.mover),
        ply,
    );
    if let Some(&v) = memo.get(&key) {
        return v;
    }
    let v = match game.turn() {
        Turn::Over => {
            let winner = game.result().unwrap().winner().unwrap();
            let v = f64::from(MATE - ply);
            if winner.0 == 0 {
                v
            } else {
                -v
            }
        }
        Turn::Chance => {
            let mut outcomes = Vec::new();
            game.chance_outcomes(&mut outcomes);
            outcomes
                .iter()
                .map(|c| {
                    let mut g = game.clone();
                    g.apply_chance(c.outcome);
                    c.probability() * exact(&g, ply, memo)
                })
                .sum()
        }
        Turn::Seat(s) => {
            let mut moves = <Race as Game>::MoveList::default();
            game.legal_moves(&mut moves);
            let values = moves.as_slice().iter().map(|&m| {
                let mut g = game.clone();
                g.play(m);
                exact(&g, ply + 1, memo)
            });
            if s.0 == 0 {
                values.fold(f64::MIN, f64::max)
            } else {
                values.fold(f64::MAX, f64::min)
            }
        }
    };
    memo.insert(key, v);
    v
}

#[test]
fn race_search_matches_the_exact_solution_everywhere() {
    // Every position with tokens up to 4 points from home, either seat to move, any roll:
    // a game lasts at most 8 moves a seat, so 17 plies see every line to its end.
    let mut memo = HashMap::new();
    let pairs: Vec<[u8; 2]> = (0..=4u8)
        .flat_map(|a| (0..=a).map(move |b| [a, b]))
        .filter(|p| p != &[0, 0])
        .collect();
    let mut decisions = 0;
    for &mine in &pairs {
        for &theirs in &pairs {
            for mover in 0..2u8 {
                for die in 1..=3u8 {
                    let tokens = if mover == 0 {
                        [mine, theirs]
                    } else {
                        [theirs, mine]
                    };
                    let game = Race::new(tokens, mover, Some(die));
                    let sign = if mover == 0 { 1.0 } else { -1.0 };
                    let mut s: Searcher<Race> = Searcher::new(SearchConfig {
                        hash_mb: 1,
                        ..SearchConfig::default()
                    });
                    let values = s.root_values(&game, 17, &Limits::default(), &Control::default());
                    let mut best_exact = f64::MIN;
                    for &(mv, v) in &values {
                        let mut g = game.clone();
                        g.play(mv);
                        let e = sign * exact(&g, 1, &mut memo);
                        best_exact = best_exact.max(e);
                        // Rounding at each chance event, and table values reused at another
                        // ply, move the mean by a unit or so out of a million.
                        assert!(
                            (f64::from(v) - e).abs() <= 4.0,
                            "{game}: move {} searched {v}, exact {e}",
                            game.move_text(mv)
                        );
                    }
                    if values.len() == 2 && (values[0].1 - values[1].1).abs() > 1000 {
                        decisions += 1;
                    }
                    if mine.iter().chain(&theirs).any(|&t| t > 3) {
                        continue;
                    }
                    // The iterative search picks a best move (ties within the tolerance).
                    let r = s.search(&game, &depth(13), &Control::default()).unwrap();
                    let mut g = game.clone();
                    g.play(r.best);
                    let chosen = sign * exact(&g, 1, &mut memo);
                    assert!(
                        chosen >= best_exact - 4.0,
                        "{game}: chose {} worth {chosen}, best {best_exact}",
                        game.move_text(r.best)
                    );
                }
            }
        }
    }
    // The check is not vacuous: many positions have a choice that matters.
    assert!(decisions > 100, "{decisions}");
}

#[test]
fn star1_cuts_do_not_change_the_answer() {
    // From the start of a length-5 race, the alpha-beta value (with Star1) equals the
    // full-window value of the best root move found by searching each move separately.
    let rules = Arc::new(RaceRules { length: 5 });
    let mut game = rules.new_game(3);
    game.apply_chance(2);
    let mut s: Searcher<Race> = Searcher::new(SearchConfig::default());
    let values = s.root_values(&game, 6, &Limits::default(), &Control::default());
    let best = values.iter().map(|v| v.1).max().unwrap();
    let mut fresh: Searcher<Race> = Searcher::new(SearchConfig::default());
    let r = fresh.search(&game, &depth(6), &Control::default()).unwrap();
    assert_eq!(r.score, Score::from_internal(best));
}
