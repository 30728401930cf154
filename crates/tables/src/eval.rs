//! The game knowledge the search uses ([`libro_core::Heuristic`]) for tables games: the
//! race (pip counts), blots exposed to direct and indirect shots, checkers on the bar,
//! points made and primes, and — Fallas' own — the exact chance that a player cannot play
//! all its dice on its next roll (a falla loses at once).
//!
//! Values are in thousandths of a game (a certain win would be 1000), so a pip of race is a
//! few units and a falla on every roll is a whole game: the same scale as a chess pawn of
//! 100. Nothing here allocates: the falla check runs the move generator's own search for a
//! complete play on one reused [`Mover`] per seat, roll by roll.

use crate::dice::Dice;
use crate::game::{Phase, TablesGame};
use crate::movegen::Mover;
use crate::notation::{Play, BAR, OFF};
use crate::rules::{BearOff, TablesRules};
use libro_core::{Heuristic, Seat};
use std::cell::RefCell;
use std::rc::Rc;
use std::sync::{Arc, Weak};

/// A game won outright, in evaluation units.
pub(crate) const GAME: i32 = 1000;
/// A blot that is hit loses its pips to the bar and must come in again: this much on top.
const HIT_BASE: i32 = 40;
/// Each checker on the bar, beyond its pips, and again per closed point it must enter over.
const BAR_BASE: i32 = 30;
const BAR_PER_CLOSED: i32 = 20;
/// A made point (two or more checkers), and more in the home table, where it blocks the
/// opponent's entry.
const POINT_MADE: i32 = 8;
const HOME_POINT: i32 = 12;
/// Runs of consecutive made points (primes), by length.
const PRIME: [i32; 7] = [0, 0, 6, 18, 40, 75, 130];
/// Checkers beyond four on one point are wasted.
const STACK: i32 = 3;

/// What the evaluation knows of one ruleset: every roll's weight and the distances it can
/// move a single checker (each die, each pair, all three), as a bit set.
struct Tables {
    rules: Weak<TablesRules>,
    rolls: Vec<(u32, u32)>,
    total: u32,
    /// Every roll and its weight (for the falla check).
    dice: Vec<(Dice, u32)>,
}

thread_local! {
    static TABLES: RefCell<Option<Rc<Tables>>> = const { RefCell::new(None) };
}

/// The tables of `rules`, built on first use in this thread (the `Weak` keeps the ruleset's
/// allocation, so a pointer match is always the same ruleset).
fn tables(rules: &Arc<TablesRules>) -> Rc<Tables> {
    TABLES.with(|cell| {
        let mut slot = cell.borrow_mut();
        if let Some(t) = slot.as_ref() {
            if std::ptr::eq(t.rules.as_ptr(), Arc::as_ptr(rules)) {
                return t.clone();
            }
        }
        let rolls: Vec<(u32, u32)> = rules
            .rolls()
            .iter()
            .map(|c| (distances(c.outcome.values()), c.weight))
            .collect();
        let total = rules.rolls().first().map_or(1, |c| c.total);
        let dice = rules
            .rolls()
            .iter()
            .map(|c| (c.outcome, c.weight))
            .collect();
        let t = Rc::new(Tables {
            rules: Arc::downgrade(rules),
            rolls,
            total,
            dice,
        });
        *slot = Some(t.clone());
        t
    })
}

/// The distances one checker can travel with these dice (each non-empty subset's sum).
fn distances(dice: &[u8]) -> u32 {
    let mut mask = 0u32;
    for subset in 1u32..(1 << dice.len()) {
        let sum: u32 = (0..dice.len())
            .filter(|&i| subset >> i & 1 == 1)
            .map(|i| u32::from(dice[i]))
            .sum();
        if sum < 32 {
            mask |= 1 << sum;
        }
    }
    mask
}

/// The summed weight of the rolls on which `seat` cannot play every die from `board`:
/// the exact chance of a falla on its next roll, out of the rolls' total.
pub(crate) fn falla_weight(
    rules: &Arc<TablesRules>,
    board: &crate::board::Board,
    seat: usize,
) -> u32 {
    if !rules.falla || !can_be_blocked(rules, board, seat) {
        return 0;
    }
    let t = tables(rules);
    let mut mover = Mover::new(rules, board, seat);
    let mut weight = 0;
    for (dice, w) in &t.dice {
        if !mover.can_finish(dice.values()) {
            weight += w;
        }
    }
    weight
}

/// Whether anything can stop `seat` from playing a die: an opposing point closed below its
/// rearmost checker, exact bearing off, or a home table shallower than the largest die (a
/// checker outside it may then have to land beyond the board). Without these, every die
/// always plays: the rearmost checker moves it, or all are home and one bears off.
fn can_be_blocked(rules: &TablesRules, board: &crate::board::Board, seat: usize) -> bool {
    if rules.bear_off == BearOff::Exact || rules.home < rules.dice().1 {
        return true;
    }
    let me = board.counts(seat);
    let Some(rear) = (1..=BAR).rev().find(|&p| me[usize::from(p)] > 0) else {
        return false;
    };
    let closing = if rules.hitting { 2 } else { 1 };
    (1..rear.min(25)).any(|p| board.count(1 - seat, rules.cross[seat][usize::from(p)]) >= closing)
}

/// The chance (out of `t.total`) that the opponent, rolling next, can hit some checker of
/// `seat` standing alone on a point in `blots`... one roll hits if any of its distances
/// reaches any blot from any opposing checker behind it. Blocked paths are not checked.
fn shot_weight(t: &Tables, reach_mask: u32) -> u32 {
    t.rolls
        .iter()
        .filter(|(d, _)| d & reach_mask != 0)
        .map(|&(_, w)| w)
        .sum()
}

/// Position terms of `seat` alone: made points, primes, stacks, the bar, and the blots the
/// other seat can shoot at (weighted by `shot_scale` / 4: the roll to come or a later one).
fn structure(
    t: &Tables,
    rules: &TablesRules,
    board: &crate::board::Board,
    seat: usize,
    shot_scale: i32,
    pip_value: i32,
) -> i32 {
    let me = board.counts(seat);
    let other = board.counts(1 - seat);
    let cross = &rules.cross[seat];
    let mut v = 0;
    let mut run = 0usize;
    let mut best_run = 0usize;
    for (p, &n) in me.iter().enumerate().take(25).skip(1) {
        if n >= 2 {
            v += POINT_MADE
                + if p <= usize::from(rules.home) {
                    HOME_POINT
                } else {
                    0
                };
            run += 1;
            best_run = best_run.max(run);
            if n > 4 {
                v -= STACK * i32::from(n - 4);
            }
        } else {
            run = 0;
        }
    }
    v += PRIME[best_run.min(PRIME.len() - 1)];
    // The bar: entry is over the first `home` points of the path (own points 19–24 for six
    // a side and the usual entry on 24).
    let on_bar = i32::from(me[usize::from(BAR)]);
    if on_bar > 0 {
        let closing = if rules.hitting { 2 } else { 1 };
        let entry = usize::from(rules.entry);
        let closed = (entry + 1 - usize::from(rules.home).min(entry)..=entry)
            .filter(|&p| other[usize::from(cross[p])] >= closing)
            .count() as i32;
        v -= on_bar * (BAR_BASE + BAR_PER_CLOSED * closed);
    }
    // Blots: for each lone checker, the distances from every opposing checker behind it
    // (on the opponent's path), and the chance a roll covers one of them.
    if rules.hitting {
        let mut worst = 0;
        let mut total = 0;
        for p in 1..=24usize {
            if me[p] != 1 {
                continue;
            }
            let q = usize::from(cross[p]); // the blot's point in the opponent's numbering
            let mut mask = 0u32;
            for (from, &n) in other.iter().enumerate().take(26).skip(q + 1) {
                if n > 0 && from - q < 32 {
                    mask |= 1 << (from - q);
                }
            }
            if mask == 0 {
                continue;
            }
            let w = shot_weight(t, mask) as i32;
            let cost = HIT_BASE + pip_value * (25 - p as i32) / 16;
            let loss = w * cost / t.total as i32;
            worst = worst.max(loss);
            total += loss;
        }
        // Several blots are not all hit at once: the worst, and a quarter of the rest.
        v -= shot_scale * (worst + (total - worst) / 4) / 4;
    }
    v
}

/// Pips to bear off: each checker's point (the bar counts 25).
fn pips(board: &crate::board::Board, seat: usize) -> i32 {
    let c = board.counts(seat);
    (1..=usize::from(BAR))
        .map(|p| p as i32 * i32::from(c[p]))
        .sum()
}

/// The evaluation from the first seat's side.
fn eval_first(game: &TablesGame) -> i32 {
    let rules = game.rules();
    let t = tables(rules);
    let board = game.board();
    let pips = [pips(board, 0), pips(board, 1)];
    // A pip weighs more as the race shortens: in thousandths of a game per pip, about
    // 1000 / (mean pips + 60), five at the start and ten or more near the end.
    let mean = (pips[0] + pips[1]) / 2;
    let pip_value16 = 16 * GAME / (mean + 60);
    let mut v = (pips[1] - pips[0]) * pip_value16 / 16;
    // Who rolls next, and so who is shot at first and who faces the next falla.
    let (next, later_weights) = match game.phase() {
        Phase::Roll(s) => (s.index(), (4, 2)),
        Phase::Move(s, _) => (1 - s.index(), (3, 2)),
        _ => (0, (2, 2)),
    };
    let mut side = [0i32; 2];
    for (s, value) in side.iter_mut().enumerate() {
        // Blots of `s` are shot at by the other seat: at once if it rolls next.
        let shot_scale = if 1 - s == next { 4 } else { 2 };
        *value = structure(&t, rules, board, s, shot_scale, pip_value16);
    }
    v += side[0] - side[1];
    // The falla: exact odds of each seat's next roll on this board. The seat rolling next
    // faces it now (at a chance turn, this is the value over the rolls to come); the
    // other's board will have changed by its roll, so it counts for less.
    let (now, later) = later_weights;
    for (s, sign) in [(0usize, -1i32), (1, 1)] {
        let w = falla_weight(rules, board, s) as i32;
        if w == 0 {
            continue;
        }
        let scale = if s == next { now } else { later };
        v += sign * (w * GAME / t.total as i32) * scale / 4;
    }
    // Short of a game won or lost (the search values those at `GAME`).
    v.clamp(-(GAME - 1), GAME - 1)
}

/// What the lab counts of tables play: the 24 points in a row with cell 0 for the checkers
/// borne off, one piece type, and where each checker of a play lands and whether it hits.
impl libro_core::Census for TablesGame {
    fn grid(&self) -> (u16, u16) {
        (25, 1)
    }

    fn piece_types(&self) -> Vec<String> {
        vec!["checker".to_string()]
    }

    fn landings(&self, mv: Play, out: &mut dyn FnMut(libro_core::Landing)) {
        let Some(seat) = libro_core::Game::seat_to_move(self) else {
            return;
        };
        for step in mv.steps() {
            let cell = if step.to() == OFF {
                0
            } else {
                u16::from(self.rules().board_point(seat.index(), step.to()))
            };
            out(libro_core::Landing {
                piece: 0,
                cell,
                capture: step.hit(),
            });
        }
    }
}

impl Heuristic for TablesGame {
    fn evaluate(&self, seat: Seat) -> i32 {
        let v = eval_first(self);
        if seat.0 == 0 {
            v
        } else {
            -v
        }
    }

    /// Evaluations are in thousandths of a game, so a won game is worth [`GAME`].
    fn win_value(&self) -> Option<i32> {
        Some(GAME)
    }

    /// The race alone: the other seat's pips less this seat's, so a hit (the tables'
    /// capture) counts the pips it sends back.
    fn material(&self, seat: Seat) -> i32 {
        let board = self.board();
        let s = seat.index();
        pips(board, 1 - s) - pips(board, s)
    }

    /// A play that hits changes the race at once.
    fn is_tactical(&self, mv: Play) -> bool {
        mv.steps().any(|s| s.hit())
    }

    /// Hits first (by the pips the hit checker loses), then plays that bear off or make
    /// points; the race gain of every full play is the same dice, so it does not order.
    fn order_score(&self, mv: Play) -> i32 {
        let Phase::Move(seat, _) = self.phase() else {
            return 0;
        };
        let s = seat.index();
        let cross = &self.rules().cross[s];
        let mut score = 0;
        let mut landed = [0u8; 26];
        for step in mv.steps() {
            let to = step.to();
            if step.hit() {
                // The opponent's checker was on its own point cross[to]: it loses that many
                // pips short of the bar.
                score += 4 * (25 - i32::from(cross[usize::from(to)]));
            }
            if to == OFF {
                score += 10;
            } else {
                landed[usize::from(to)] += 1;
            }
        }
        for (p, &n) in landed.iter().enumerate().skip(1).take(24) {
            if n > 0
                && self.board().count(s, p as u8) + n >= 2
                && self.board().count(s, p as u8) < 2
            {
                score += 6;
            }
        }
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use libro_core::{Game, Ruleset};

    fn rules() -> Arc<TablesRules> {
        rules_edited("", "")
    }

    /// Fallas with `from` replaced by `to` in its file.
    fn rules_edited(from: &str, to: &str) -> Arc<TablesRules> {
        let path = format!("{}/../../rulesets/fallas.toml", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).expect("fallas.toml");
        assert!(text.contains(from), "fallas.toml has no `{from}`");
        let text = if from.is_empty() {
            text
        } else {
            text.replace(from, to)
        };
        Arc::new(TablesRules::from_toml(&text, &path, &[]).expect("fallas loads"))
    }

    fn side(points: &[(usize, u8)]) -> [u8; 26] {
        let mut c = [0u8; 26];
        let on: u8 = points.iter().map(|&(_, n)| n).sum();
        for &(p, n) in points {
            c[p] = n;
        }
        c[0] = 15 - on;
        c
    }

    #[test]
    fn distances_are_every_sum_of_a_subset_of_the_dice() {
        // 6-4-1: 1 4 5 6 7 10 11.
        let want = [1, 4, 5, 6, 7, 10, 11].iter().fold(0u32, |m, d| m | 1 << d);
        assert_eq!(distances(&[6, 4, 1]), want);
        assert_eq!(distances(&[2, 2, 2]), 1 << 2 | 1 << 4 | 1 << 6);
    }

    #[test]
    fn the_falla_weight_is_counted_by_hand() {
        let r = rules();
        // White has one checker on the bar; black holds its points 1 to 5 (white's entry
        // points 24 to 20) with two checkers each, so white enters only with a 6 (on its
        // 19-point). White must play all three dice: it enters with a 6, and the checker
        // (the only one left) runs on with the other two dice, which nothing blocks beyond.
        // A falla is any roll without a 6: 5^3 = 125 of the 216.
        let white = side(&[(25, 1)]);
        let black = side(&[(1, 2), (2, 2), (3, 2), (4, 2), (5, 2)]);
        let board = Board::from_counts([white, black]);
        assert_eq!(falla_weight(&r, &board, 0), 125);
        // The game's own (allocating) analysis agrees.
        let g = TablesGame::from_parts(r.clone(), board, Phase::Roll(Seat(0))).expect("position");
        assert_eq!(g.falla_odds().expect("on roll").falla_weight, 125);
        // Black, far from any white checker that could block it, never falls.
        assert_eq!(falla_weight(&r, &board, 1), 0);
    }

    #[test]
    fn with_a_home_shallower_than_the_dice_a_free_board_can_still_give_a_falla() {
        // Home is the points 1 to 4. White: one checker on 5, fourteen on 1; black far
        // behind it (its own 1-point, white's 24), closing nothing white needs. Until the
        // checker on 5 comes home no checker may bear off, and it comes home only with a die
        // of 4 or less (a 5 or a 6 would take it off). With one such die the rest bear off,
        // so a falla is a roll of 5s and 6s only: 2^3 = 8 of the 216.
        let r = rules_edited("\nhome = 6\n", "\nhome = 4\n");
        let white = side(&[(5, 1), (1, 14)]);
        let black = side(&[(1, 15)]);
        let board = Board::from_counts([white, black]);
        assert_eq!(falla_weight(&r, &board, 0), 8);
    }

    #[test]
    fn the_falla_weight_matches_the_analysis_from_the_start_and_after_random_plays() {
        use rand::SeedableRng;
        let r = rules();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        for seed in 0..4 {
            let mut g = r.new_game(seed);
            while !g.is_over() {
                match g.phase() {
                    Phase::Roll(s) => {
                        let odds = g.falla_odds().expect("on roll");
                        assert_eq!(
                            falla_weight(&r, g.board(), s.index()),
                            odds.falla_weight,
                            "{g}"
                        );
                        let c = g.sample_chance();
                        g.apply_chance(c);
                    }
                    Phase::Move(..) => {
                        let p = g.random_play(&mut rng).expect("a play");
                        g.play(p);
                    }
                    _ => {
                        let c = g.sample_chance();
                        g.apply_chance(c);
                    }
                }
            }
        }
    }

    #[test]
    fn values_are_zero_sum_and_the_race_counts() {
        let r = rules();
        let g = TablesGame::from_parts(r.clone(), r.start, Phase::Roll(Seat(0))).expect("start");
        assert_eq!(g.evaluate(Seat(0)), -g.evaluate(Seat(1)));
        // A pure race, every checker home: 5 each on points 6, 5 and 4 is 75 pips; 6 on
        // the 6-point, 5 on the 5 and 4 on the 4 is 77.
        let short = side(&[(6, 5), (5, 5), (4, 5)]);
        let long = side(&[(6, 6), (5, 5), (4, 4)]);
        assert_eq!(
            (
                pips(&Board::from_counts([short, long]), 0),
                pips(&Board::from_counts([short, long]), 1)
            ),
            (75, 77)
        );
        let ahead = TablesGame::from_parts(
            r.clone(),
            Board::from_counts([short, long]),
            Phase::Roll(Seat(0)),
        )
        .expect("race");
        let behind =
            TablesGame::from_parts(r, Board::from_counts([long, short]), Phase::Roll(Seat(0)))
                .expect("race");
        assert!(ahead.evaluate(Seat(0)) > 0, "{}", ahead.evaluate(Seat(0)));
        assert!(behind.evaluate(Seat(0)) < 0, "{}", behind.evaluate(Seat(0)));
    }
}
