//! What a front end's endings ask of the rules: whether a seat could still win (a flag
//! against a side that cannot is a draw), and a seat taken out of a four-seat game (a flag
//! in Cuatro Tiempos). Positions written by hand; the answers worked out from RULES.md.

mod common;

use common::rules;
use libro_chess::ChessGame;
use libro_core::{EndReason, Game, Ruleset, Seat};

fn game(ruleset: &str, overrides: &[(&str, &str)], position: &str) -> ChessGame {
    rules(ruleset, overrides)
        .parse_position(position)
        .unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn a_lone_king_cannot_win_where_it_can_neither_mate_nor_stalemate_nor_bare() {
    // Two lone kings: no check is possible, and a king cannot take every flight square of a
    // king (in the corner a1, b2 and a2/b1 would need a king on a square next to a1).
    let kings = game("acedrex", &[], "4k3/8/8/8/8/8/8/4K3 w - x 0 1");
    assert!(!kings.can_win(Seat(0)) && !kings.can_win(Seat(1)));
    // A rook against a lone king: the rook's side can mate. Under Acedrex's rule that
    // stalemate wins for the side that caused it, the lone king could still stalemate a
    // side whose pieces are all blocked, so it is not ruled out.
    let rook = game("acedrex", &[], "4k3/8/8/8/8/8/8/R3K3 w - x 0 1");
    assert!(rook.can_win(Seat(0)) && rook.can_win(Seat(1)));
    // Where a stalemated side passes (Ludii's reading) or stalemate draws, it cannot.
    let pass = game(
        "acedrex",
        &[("stalemate", "pass")],
        "4k3/8/8/8/8/8/8/R3K3 w - x 0 1",
    );
    assert!(pass.can_win(Seat(0)) && !pass.can_win(Seat(1)));
    let draw = game(
        "acedrex",
        &[("stalemate", "draw")],
        "4k3/8/8/8/8/8/8/R3K3 w - x 0 1",
    );
    assert!(!draw.can_win(Seat(1)));
    // A pawn is enough: it may promote.
    let pawn = game(
        "acedrex",
        &[("stalemate", "draw")],
        "4k3/8/8/8/8/8/P7/4K3 b - x 0 1",
    );
    assert!(pawn.can_win(Seat(0)) && !pawn.can_win(Seat(1)));
}

#[test]
fn a_bared_king_cannot_win_under_a_bare_king_rule() {
    // Shatranj: against two pieces the bared side gets one reply and then loses unless it
    // took the last piece (then both are bare and no one can win); against three it has lost.
    let shatranj = game("shatranj", &[], "3k4/8/8/8/8/8/8/R2K4 b - x 0 1");
    assert!(shatranj.can_win(Seat(0)) && !shatranj.can_win(Seat(1)));
    assert_eq!(shatranj.result(), None, "one reply is left");
    // Short Assize: a side bared after the other's move has lost, so a bare king never
    // gets to move and win, whatever stalemate does.
    let assize = game("short-assize", &[], "4k3/8/8/8/8/8/8/R3K3 b - x 0 1");
    assert_eq!(assize.result().map(|r| r.reason), Some(EndReason::BareKing));
    let assize = game("short-assize", &[], "4k3/8/8/8/8/8/8/RR2K3 w - x 0 1");
    assert!(assize.can_win(Seat(0)) && !assize.can_win(Seat(1)));
}

#[test]
fn a_seat_dropped_from_cuatro_tiempos_leaves_the_board_pays_and_the_turn_passes_on() {
    let r = rules("cuatro-tiempos", &[]);
    let mut g = ChessGame::with_stakes(&r, &[1, 2, 1, 1]);
    // Green (seat 0) moves first; each seat has paid its stake and has eight pieces.
    assert_eq!(g.turn(), libro_core::Turn::Seat(libro_core::Seat(0)));
    assert!(g.drop_seat(Seat(0)));
    assert_eq!(g.position().piece_count(Seat(0)), 0);
    assert_eq!(g.eliminated(), &[0]);
    assert_eq!(
        g.turn(),
        libro_core::Turn::Seat(libro_core::Seat(1)),
        "Red's turn"
    );
    // As a seat whose king is taken: its stake again for each of its eight pieces.
    assert_eq!(g.paid(), vec![1 + 8, 2, 1, 1]);
    assert!(!g.drop_seat(Seat(0)), "already out");
    assert!(!g.can_win(Seat(0)) && g.can_win(Seat(1)));
    assert_eq!(g.result(), None);
    // Red (now to move) and then Black out: White is left and wins.
    assert!(g.drop_seat(Seat(1)));
    assert_eq!(
        g.turn(),
        libro_core::Turn::Seat(libro_core::Seat(2)),
        "Black's turn"
    );
    assert!(g.drop_seat(Seat(2)));
    let result = g.result().expect("one seat left");
    assert_eq!(result.reason, EndReason::Elimination);
    assert_eq!(result.seats[3].score, 1.0);
    // First out ranks last.
    assert_eq!(
        result.seats.iter().map(|s| s.rank).collect::<Vec<_>>(),
        vec![4.0, 3.0, 2.0, 1.0]
    );
    // The pot: 9 + (2 + 16) + (1 + 8) + 1 = 37, all White's; White paid 1.
    assert_eq!(g.balances(), vec![-9.0, -18.0, -9.0, 36.0]);
    assert!(!g.drop_seat(Seat(3)), "the game is over");
}

#[test]
fn two_seat_games_drop_no_seat() {
    let mut g = rules("acedrex", &[]).new_game(0);
    assert!(!g.drop_seat(Seat(0)));
    assert_eq!(g.result(), None);
}
