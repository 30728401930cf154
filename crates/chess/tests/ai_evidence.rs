//! Evidence that the search, with the chess family's evaluation, plays these games: it finds
//! the shortest wins in composed positions of every two-seat ruleset (mates in one to three,
//! the stalemate that wins in Acedrex and Forçado, the bare king that wins in Short Assize
//! and Shatranj), and plays them out.
//!
//! Every position is composed by hand, its winning line written beside it. The length of the
//! shortest forced win is checked first by a plain AND-OR search over the legal moves
//! ([`forced_win_within`], which shares nothing with `libro-ai`), so the test would catch a
//! faster win the hand analysis missed; then `ai:8` must report exactly that win and, playing
//! both sides, reach it.

mod common;

use common::{after, rules};
use libro_ai::{choose_move, Control, PlayerSpec, Score};
use libro_chess::{ChessGame, MoveList};
use libro_core::{EndReason, Game, Ruleset, Seat};

/// Whether the side to move can force a win within `moves` of its own moves (any move of
/// the defender answered), by brute force: no evaluation, no pruning beyond the first win.
fn forced_win_within(g: &ChessGame, moves: u32) -> bool {
    let attacker = g.seat_to_move().expect("a seat to move");
    if moves == 0 {
        return false;
    }
    let mut list = MoveList::new();
    g.legal_moves(&mut list);
    list.iter().any(|&mv| {
        let mut c = g.clone();
        c.play(mv);
        if let Some(r) = c.result() {
            return r.winner() == Some(attacker);
        }
        if moves == 1 {
            return false;
        }
        let mut replies = MoveList::new();
        c.legal_moves(&mut replies);
        replies.iter().all(|&rep| {
            let mut d = c.clone();
            d.play(rep);
            match d.result() {
                Some(r) => r.winner() == Some(attacker),
                None => forced_win_within(&d, moves - 1),
            }
        })
    })
}

/// Checks a composed win for the side to move in exactly `moves` moves: the brute force
/// agrees on the length, `ai:8` reports it as `Mate(moves)`, and `ai:8` playing both sides
/// ends the game with that win, for one of the `reasons` given.
fn check_win(ruleset: &str, position: &str, moves: u32, reasons: &[EndReason]) {
    let r = rules(ruleset, &[]);
    let start = r
        .parse_position(position)
        .unwrap_or_else(|e| panic!("{ruleset}: {e}"));
    let attacker = start.seat_to_move().expect("a seat to move");
    assert!(
        forced_win_within(&start, moves),
        "{ruleset} {position}: no forced win in {moves}"
    );
    assert!(
        !forced_win_within(&start, moves - 1),
        "{ruleset} {position}: a win faster than {moves} exists"
    );
    let spec: PlayerSpec = "ai:8".parse().expect("spec");
    let control = Control::default();
    let first = choose_move(&start, &spec, &control).expect("a move");
    assert_eq!(
        first.score,
        Some(Score::Mate(moves as i32)),
        "{ruleset} {position}: ai:8 chose {} ({:?})",
        start.move_text(first.mv),
        first.score
    );
    let mut g = start.clone();
    let mut line = Vec::new();
    for _ in 0..2 * moves {
        if g.is_over() {
            break;
        }
        let c = choose_move(&g, &spec, &control).expect("a move");
        line.push(g.move_text(c.mv));
        g.play(c.mv);
    }
    let result = g
        .result()
        .unwrap_or_else(|| panic!("{ruleset} {position}: not over after {line:?}"));
    assert_eq!(result.winner(), Some(attacker), "{ruleset}: {line:?}");
    assert!(
        reasons.contains(&result.reason),
        "{ruleset}: {line:?} ended by {:?}",
        result.reason
    );
    assert!(line.len() < 2 * moves as usize, "{ruleset}: {line:?}");
}

// ---- Acedrex: checkmate wins; stalemate wins for the side that causes it.

#[test]
fn acedrex_mate_in_one() {
    // Ra8 mates along the back rank: g8 is the rook's, g7 and h7 the king's own pawns
    // (which can still move, so no stalemate stands in for it).
    check_win(
        "acedrex",
        "7k/6pp/8/8/8/8/8/R5K1 w - x 0 1",
        1,
        &[EndReason::Checkmate],
    );
}

#[test]
fn acedrex_mate_in_two() {
    // 1. Kg6 (takes g7 and h7) Kg8 2. Ra8#; or 1. Kf7 Kh7 2. Rh1#. No win in one: Ra8+ Kh7,
    // Rh1+ Kg8, and no white move leaves the king without a move.
    check_win(
        "acedrex",
        "7k/8/5K2/8/8/8/8/R7 w - x 0 1",
        2,
        &[EndReason::Checkmate],
    );
}

#[test]
fn acedrex_mate_in_three() {
    // The king needs two moves to reach g6 or f7 (1. Kf6, 2. Kg6 or Kf7 as the black king
    // chooses), then 3. the rook mates on the back rank or the h-file. (From f5 it would be
    // a mate in two: 1. Kg6 Kg8 2. Ra8#.)
    check_win(
        "acedrex",
        "7k/8/8/4K3/8/8/8/R7 w - x 0 1",
        3,
        &[EndReason::Checkmate],
    );
}

#[test]
fn acedrex_stalemate_wins() {
    // King and fers cannot mate here, but 1. Fg6 takes h7 while the king on f7 holds g8
    // and g7: Black, not in check, has no move, and in Acedrex the stalemate is White's win.
    check_win(
        "acedrex",
        "7k/5K2/8/5F2/8/8/8/8 w - x 0 1",
        1,
        &[EndReason::Stalemate],
    );
}

// ---- Forçado: captures are forced; a sacrifice drags a defender away.

#[test]
fn forcado_mate_in_one() {
    check_win(
        "forcado",
        "7k/6pp/8/8/8/8/8/R5K1 w - x 0 1",
        1,
        &[EndReason::Checkmate],
    );
}

#[test]
fn forcado_sacrifice_mates_in_two() {
    // The black knight on b6 guards a8: Ra8+ is met by Nxa8. But 1. Nd5 (or Nc4) offers
    // the knight on a square the black knight sees, and in Forçado Black must take it —
    // Nxd5 is its only capture, so its only legal move. From d5 the knight reaches no
    // square of the back rank: 2. Ra8# (g8 the rook's, g7 and h7 the king's own pawns).
    // In Acedrex Black would answer 1. Nd5 with a pawn move and keep a8 covered.
    check_win(
        "forcado",
        "7k/6pp/1n6/8/8/4N3/8/R5K1 w - x 0 1",
        2,
        &[EndReason::Checkmate],
    );
}

#[test]
fn in_acedrex_the_same_sacrifice_is_declined() {
    // The position of the Forçado test, under Acedrex: Black need not take, so there is no
    // forced win in two.
    let r = rules("acedrex", &[]);
    let g = r
        .parse_position("7k/6pp/1n6/8/8/4N3/8/R5K1 w - x 0 1")
        .expect("position");
    assert!(!forced_win_within(&g, 2));
}

#[test]
fn forcado_mate_in_three() {
    // As in Acedrex: 1. Kf6, 2. Kg6 or Kf7, 3. the rook mates.
    check_win(
        "forcado",
        "7k/8/8/4K3/8/8/8/R7 w - x 0 1",
        3,
        &[EndReason::Checkmate],
    );
}

#[test]
fn forcado_stalemate_wins() {
    // As in Acedrex: 1. Fg6 stalemates the king on h8, a win for White.
    check_win(
        "forcado",
        "7k/5K2/8/5F2/8/8/8/8 w - x 0 1",
        1,
        &[EndReason::Stalemate],
    );
}

// ---- Short Assize: mate, stalemate and the bare king all win.

#[test]
fn short_assize_mate_in_one() {
    check_win(
        "short-assize",
        "7k/6pp/8/8/8/8/8/R5K1 w - x 0 1",
        1,
        &[EndReason::Checkmate],
    );
}

#[test]
fn short_assize_wins_in_two() {
    // Black's pawn on h3, blocked by White's on h2, keeps its king from being bare.
    // 1. Kg6 Kg8 (its only move: the pawn is stuck, g7 and h7 are White's) 2. Ra8#. Or
    // 1. Ra3 and 2. Rxh3, baring the king: also a win in two, so either ending counts.
    // No win in one: Ra8+ Kh7, and no move both takes g8 and h7 without check.
    check_win(
        "short-assize",
        "7k/8/5K2/8/8/7p/7P/R7 w - x 0 1",
        2,
        &[EndReason::Checkmate, EndReason::BareKing],
    );
}

#[test]
fn short_assize_wins_in_three() {
    // Black's pawns on g3 and h3 stand on White's g2 and h2 (g3 may still take on h2), so
    // its king is not bare and it has moves to spare. White's king needs two moves to g6
    // (1. Kf6, 2. Kg6), then 3. Ra8 mates; the brute force confirms nothing wins in two.
    check_win(
        "short-assize",
        "7k/8/8/4K3/8/6pp/6PP/R7 w - x 0 1",
        3,
        &[
            EndReason::Checkmate,
            EndReason::BareKing,
            EndReason::Stalemate,
        ],
    );
}

#[test]
fn short_assize_bare_king_wins() {
    // Black's last piece besides the king, the fil on e2, stands next to White's king:
    // 1. Kxe2 leaves Black a bare king, which loses at once.
    check_win(
        "short-assize",
        "k7/8/8/8/8/8/4a3/4K2R w - x 0 1",
        1,
        &[EndReason::BareKing],
    );
}

// ---- Shatranj: mate; stalemate loses for the stalemated side; the bare king loses.

#[test]
fn shatranj_mate_in_one() {
    check_win(
        "shatranj",
        "7k/6pp/8/8/8/8/8/R5K1 w - x 0 1",
        1,
        &[EndReason::Checkmate],
    );
}

#[test]
fn shatranj_wins_in_two() {
    // As in Short Assize: 1. Kg6 Kg8 2. Ra8#, or 1. Ra3 and 2. Rxh3, leaving Black's king
    // bare against three pieces, which loses at once.
    check_win(
        "shatranj",
        "7k/8/5K2/8/8/7p/7P/R7 w - x 0 1",
        2,
        &[EndReason::Checkmate, EndReason::BareKing],
    );
}

#[test]
fn shatranj_wins_in_three() {
    // As in Short Assize: two king moves to g6, then the rook mates on the back rank.
    check_win(
        "shatranj",
        "7k/8/8/4K3/8/6pp/6PP/R7 w - x 0 1",
        3,
        &[
            EndReason::Checkmate,
            EndReason::BareKing,
            EndReason::Stalemate,
        ],
    );
}

#[test]
fn shatranj_bare_king_wins() {
    // White has king, rook and pawn (three pieces): 1. Kxe2 bares Black's king against
    // three, which loses at once.
    check_win(
        "shatranj",
        "k7/8/8/8/8/8/4a2P/4K2R w - x 0 1",
        1,
        &[EndReason::BareKing],
    );
}

#[test]
fn the_evaluation_prefers_the_side_with_more() {
    // A sanity check of sign and scale through the public interface: a rook up is several
    // pawns up for the first seat and as much down for the second.
    let r = rules("acedrex", &[]);
    let g = r
        .parse_position("4k3/pppppppp/8/8/8/8/PPPPPPPP/R3K3 w - x 0 1")
        .expect("position");
    use libro_core::Heuristic;
    let v = g.evaluate(Seat(0));
    assert!(v > 400, "{v}");
    assert_eq!(g.evaluate(Seat(1)), -v);
}

#[test]
fn a_perpetual_check_is_seen_as_the_draw_it_is() {
    // Black has two rooks more, but White's knight checks for ever: 1. Nf7+ Kg8 (g7 and h7
    // are Black's own, the fers blocks f8) 2. Nh6+ Kh8 (f7 is covered) 3. Nf7+, and nothing
    // of Black's can take the knight on f7 or h6 (the pawn takes towards g6, the fil leaps
    // to e5, the fers steps to e7 and g7). The position after 1. Nf7+ stands again after
    // 3. Nf7+; under Shatranj's rule the third time draws. The search scores the line a
    // draw at its first return, within a budget that would not reach the third.
    let spec: PlayerSpec = "ai:nodes=4000".parse().expect("spec");
    let position = "5f1k/6ap/8/6N1/8/7K/1r6/r7 w - x 0 1";
    let g = rules("shatranj", &[])
        .parse_position(position)
        .expect("position");
    let c = choose_move(&g, &spec, &Control::default()).expect("a move");
    assert_eq!(
        (g.move_text(c.mv).as_str(), c.score),
        ("g5f7", Some(Score::Cp(0)))
    );
    // Without the rule the checks go on for ever and draw nothing: Black stands to win.
    let g = rules("shatranj", &[("repetition", "0")])
        .parse_position(position)
        .expect("position");
    let c = choose_move(&g, &spec, &Control::default()).expect("a move");
    assert!(
        matches!(c.score, Some(Score::Cp(v)) if v < -1000),
        "{:?}",
        c.score
    );
}

#[test]
fn a_repetition_is_seen_within_its_distance_and_only_under_the_rule() {
    let r = rules("shatranj", &[]);
    // Both knights out and back: the start stands again, four plies after it stood.
    let back = after(&r, "g1f3 g8f6 f3g1 f6g8");
    assert!(back.repeats_within(5));
    assert!(
        !back.repeats_within(4),
        "the earlier one is four plies back"
    );
    assert!(!back.is_over(), "a second occurrence does not end the game");
    // Halfway back, no position has stood before.
    assert!(!after(&r, "g1f3 g8f6 f3g1").repeats_within(100));
    // Out and back again: the start stands a third time, which draws under Shatranj's rule;
    // its last time was still four plies back.
    let third = after(&r, "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8");
    assert!(third.repeats_within(5) && !third.repeats_within(4));
    assert_eq!(
        third.result().map(|r| r.reason),
        Some(EndReason::Repetition)
    );
    // Without the repetition rule nothing is kept, so nothing repeats or ends.
    let off = after(
        &rules("shatranj", &[("repetition", "0")]),
        "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8",
    );
    assert!(!off.repeats_within(100));
    assert!(!off.is_over());
}

#[test]
fn playing_on_past_the_plies_without_progress_counts_them_again() {
    // Shatranj draws after 140 plies without a capture or pawn move (RULES.md: 70 moves).
    let r = rules("shatranj", &[]);
    let drawn = r
        .parse_position("4k3/8/8/6n1/8/8/7P/RR2K3 w - - 140 100")
        .expect("position");
    assert_eq!(
        drawn.result().map(|r| r.reason),
        Some(EndReason::NoProgress)
    );
    assert!(drawn.is_refereed_draw());
    let mut on = drawn.clone();
    on.play_on();
    assert!(!on.is_over(), "a referee played on: the game goes on");
    assert_eq!(on.position().halfmove_clock(), 0);
    // One ply short of the count, nothing is forgotten: the clock stands.
    let mut short = r
        .parse_position("4k3/8/8/6n1/8/8/7P/RR2K3 w - - 139 100")
        .expect("position");
    assert!(!short.is_refereed_draw());
    short.play_on();
    assert_eq!(short.position().halfmove_clock(), 139);
    // A repetition is a refereed draw too, and playing on forgets the positions seen.
    let mut third = after(&r, "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8");
    assert!(third.is_refereed_draw());
    third.play_on();
    assert!(!third.is_over() && !third.repeats_within(100));
}

#[test]
fn the_search_steers_by_the_draw_for_plies_without_progress() {
    // White is two rooks and a pawn against a knight, and no capture can be made. At 139 plies
    // without progress every move but the pawn's draws at once (the 140th), so White gives up
    // the pawn to the knight (h2h3 Nxh3) and keeps two rooks against nothing; with the count
    // far off, no one gives a pawn away for nothing.
    let r = rules("shatranj", &[]);
    let spec: PlayerSpec = "ai:nodes=20000".parse().unwrap();
    let choose = |clock: u32| {
        let g = r
            .parse_position(&format!("4k3/8/8/6n1/8/8/7P/RR2K3 w - - {clock} 100"))
            .expect("position");
        let c = choose_move(&g, &spec, &Control::default()).expect("a move");
        g.move_text(c.mv)
    };
    assert_eq!(choose(139), "h2h3");
    assert_ne!(choose(20), "h2h3");
}
