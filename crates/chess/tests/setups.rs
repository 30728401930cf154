//! Setups: a position string is read into a `Setup` (what it says), and
//! `Position::from_setup` refuses each impossible one with the error naming what is wrong.
//! The positions are written by hand from the ruleset files (acedrex: king 0, fers 1, fil 2,
//! knight 3, rook 4, pawn 5; seats white 0, black 1; Cuatro Tiempos: green, red, black,
//! white).

mod common;

use common::rules;
use libro_chess::notation::parse_setup;
use libro_chess::{ChessRules, PieceKind, Placed, Position, Setup, SetupError, Square};
use libro_core::Seat;

const KING: PieceKind = PieceKind(0);
const FERS: PieceKind = PieceKind(1);
const ROOK: PieceKind = PieceKind(4);
const PAWN: PieceKind = PieceKind(5);
const WHITE: Seat = Seat(0);
const BLACK: Seat = Seat(1);

/// The square at a name on the 8x8 board.
fn sq(name: &str) -> Square {
    libro_chess::Board::STANDARD
        .parse_square(name)
        .expect("a square")
}

fn setup(r: &ChessRules, text: &str) -> Setup {
    parse_setup(r, text).unwrap_or_else(|e| panic!("{e}"))
}

fn refused(r: &ChessRules, s: &Setup) -> SetupError {
    Position::from_setup(r, s).expect_err("the setup must be refused")
}

/// The two kings alone, white to move.
const KINGS: &str = "4k3/8/8/8/8/8/8/4K3 w - x 0 1";

#[test]
fn a_position_string_reads_as_what_it_says() {
    let r = rules("acedrex", &[]);
    let s = setup(&r, "4k3/8/8/8/8/8/8/(PF)3K3 b a1 - 7 12");
    assert_eq!(
        s.pieces,
        vec![
            Placed {
                seat: BLACK,
                piece: KING,
                square: sq("e8")
            },
            Placed {
                seat: WHITE,
                piece: PAWN,
                square: sq("a1")
            },
            Placed {
                seat: WHITE,
                piece: FERS,
                square: sq("a1")
            },
            Placed {
                seat: WHITE,
                piece: KING,
                square: sq("e1")
            },
        ]
    );
    assert_eq!(s.to_move, BLACK);
    assert_eq!(s.unmoved, vec![sq("a1")]);
    assert!(!s.captured);
    assert_eq!(s.halfmove, 7);
    // Move 12 with black to move: 11 full moves and white's ply played.
    assert_eq!(s.ply, 23);
    // The same setup written by hand gives the same position as the string.
    let by_hand = Setup {
        pieces: s.pieces.clone(),
        to_move: BLACK,
        unmoved: vec![sq("a1")],
        halfmove: 7,
        ply: 23,
        ..Setup::default()
    };
    let (from_text, _) =
        libro_chess::notation::parse_position(&r, "4k3/8/8/8/8/8/8/(PF)3K3 b a1 - 7 12").unwrap();
    let pos = Position::from_setup(&r, &by_hand).unwrap();
    assert_eq!(pos, from_text);
    assert!(pos.is_shared(sq("a1")) && pos.is_unmoved(sq("a1")));
}

#[test]
fn the_start_setup_is_the_start() {
    let r = rules("acedrex", &[]);
    let s = setup(
        &r,
        "rnafkanr/pppppppp/8/8/8/8/PPPPPPPP/RNAFKANR w d1d8 - 0 1",
    );
    assert_eq!(s.pieces.len(), 32);
    assert_eq!(Position::from_setup(&r, &s).unwrap(), r.start_position());
}

#[test]
fn a_square_off_the_board() {
    let r = rules("acedrex", &[]);
    let mut s = setup(&r, KINGS);
    s.pieces.push(Placed {
        seat: WHITE,
        piece: ROOK,
        square: Square(64),
    });
    assert_eq!(
        refused(&r, &s),
        SetupError::OffBoard {
            index: 64,
            files: 8,
            ranks: 8
        }
    );
    let mut s = setup(&r, KINGS);
    s.unmoved.push(Square(200));
    assert!(matches!(
        refused(&r, &s),
        SetupError::OffBoard { index: 200, .. }
    ));
}

#[test]
fn a_seat_or_piece_the_ruleset_does_not_have() {
    let r = rules("acedrex", &[]);
    let mut s = setup(&r, KINGS);
    s.pieces.push(Placed {
        seat: Seat(2),
        piece: ROOK,
        square: sq("a1"),
    });
    assert_eq!(
        refused(&r, &s),
        SetupError::NoSuchSeat {
            seat: Seat(2),
            seats: 2
        }
    );
    let mut s = setup(&r, KINGS);
    s.to_move = Seat(3);
    assert_eq!(
        refused(&r, &s),
        SetupError::NoSuchSeat {
            seat: Seat(3),
            seats: 2
        }
    );
    let mut s = setup(&r, KINGS);
    s.pieces.push(Placed {
        seat: WHITE,
        piece: PieceKind(6),
        square: sq("a1"),
    });
    assert_eq!(
        refused(&r, &s),
        SetupError::NoSuchPiece {
            piece: PieceKind(6),
            types: 6
        }
    );
}

#[test]
fn crowded_squares() {
    let r = rules("acedrex", &[]);
    let mut s = setup(&r, KINGS);
    s.pieces.push(Placed {
        seat: BLACK,
        piece: PAWN,
        square: sq("e1"),
    });
    assert_eq!(
        refused(&r, &s),
        SetupError::TwoSeatsOnSquare {
            square: "e1".into()
        }
    );
    let mut s = setup(&r, KINGS);
    s.pieces.push(Placed {
        seat: WHITE,
        piece: KING,
        square: sq("e1"),
    });
    assert_eq!(
        refused(&r, &s),
        SetupError::SamePieceTwice {
            square: "e1".into(),
            piece: "king".into()
        }
    );
    let mut s = setup(&r, "4k3/8/8/8/4(PF)3/8/8/4K3 w - x 0 1");
    s.pieces.push(Placed {
        seat: WHITE,
        piece: ROOK,
        square: sq("e4"),
    });
    assert_eq!(
        refused(&r, &s),
        SetupError::Crowded {
            square: "e4".into()
        }
    );
}

#[test]
fn kings() {
    let r = rules("acedrex", &[]);
    let mut s = setup(&r, KINGS);
    s.pieces.push(Placed {
        seat: WHITE,
        piece: KING,
        square: sq("a1"),
    });
    assert_eq!(
        refused(&r, &s),
        SetupError::Kings {
            seat: "white".into(),
            kings: 2
        }
    );
    // Black keeps a rook but has lost its king: where the king's capture ends the game, a
    // position without it cannot be played on.
    let s = setup(&r, "r7/8/8/8/8/8/8/4K3 w - x 0 1");
    assert_eq!(
        refused(&r, &s),
        SetupError::Kings {
            seat: "black".into(),
            kings: 0
        }
    );
}

#[test]
fn a_pawn_on_its_last_line() {
    // Acedrex promotes always, captures included: a pawn never stays on its last line.
    let r = rules("acedrex", &[]);
    let s = setup(&r, "P3k3/8/8/8/8/8/8/4K3 w - x 0 1");
    assert_eq!(
        refused(&r, &s),
        SetupError::Unpromoted {
            piece: "pawn".into(),
            seat: "white".into()
        }
    );
}

#[test]
fn the_seat_not_to_move_in_check() {
    let r = rules("acedrex", &[]);
    // The rook on a8 gives check along the eighth rank with white to move.
    let s = setup(&r, "R3k3/8/8/8/8/8/8/4K3 w - x 0 1");
    assert_eq!(
        refused(&r, &s),
        SetupError::OpponentInCheck {
            seat: "black".into()
        }
    );
}

#[test]
fn first_move_rights() {
    let r = rules("acedrex", &[]);
    let s = setup(&r, "4k3/8/8/8/8/8/8/4K3 w e4 x 0 1");
    assert_eq!(
        refused(&r, &s),
        SetupError::UnmovedEmpty {
            square: "e4".into()
        }
    );
    // The rook has no first-move right; the fers has (its leap).
    let s = setup(&r, "4k3/8/8/8/8/8/8/R3K3 w a1 x 0 1");
    assert_eq!(
        refused(&r, &s),
        SetupError::UnmovedWithoutRight {
            square: "a1".into()
        }
    );
    let s = setup(&r, "4k3/8/8/8/8/8/8/F3K3 w a1 x 0 1");
    assert!(Position::from_setup(&r, &s).unwrap().is_unmoved(sq("a1")));
}

#[test]
fn two_seats_have_no_stakes_nor_ludii_markers() {
    let r = rules("acedrex", &[]);
    let mut s = setup(&r, KINGS);
    s.stakes = vec![Some(1), Some(1)];
    assert_eq!(
        refused(&r, &s),
        SetupError::NotManySeats { field: "stakes" }
    );
    let mut s = setup(&r, KINGS);
    s.ghosts = vec![sq("e4")];
    assert_eq!(refused(&r, &s), SetupError::NotStacking { field: "ghosts" });
    let mut s = setup(&r, KINGS);
    s.phantoms = vec![vec![sq("e4")], vec![]];
    assert_eq!(
        refused(&r, &s),
        SetupError::NotStacking { field: "phantoms" }
    );
}

#[test]
fn ludii_stacking_gives_one_phantom_list_per_seat() {
    let r = rules("short-assize-ludii", &[]);
    let mut s = setup(&r, KINGS);
    s.phantoms = vec![vec![sq("e4")], vec![], vec![]];
    assert_eq!(
        refused(&r, &s),
        SetupError::SeatCount {
            field: "phantoms",
            given: 3,
            seats: 2
        }
    );
}

/// Cuatro Tiempos with one king each in its corner, all stakes 1.
const FOUR: &str = "rK6gK/8/8/8/8/8/8/bK6wK g - - 0 0 stakes:1/1/1/1 paid:1/1/1/1 pot:4";

#[test]
fn four_seats_in_and_out() {
    let r = rules("cuatro-tiempos", &[]);
    assert!(Position::from_setup(&r, &setup(&r, FOUR)).is_ok());
    // Red (seat 1) loses its king and is out.
    let mut s = setup(&r, FOUR);
    s.pieces.retain(|p| p.seat != Seat(1));
    assert_eq!(refused(&r, &s), SetupError::NoPieces { seat: "red".into() });
    s.out = vec![Seat(1), Seat(1)];
    assert_eq!(refused(&r, &s), SetupError::OutTwice { seat: "red".into() });
    s.out = vec![Seat(1)];
    assert!(Position::from_setup(&r, &s).is_ok());
    s.to_move = Seat(1);
    assert_eq!(refused(&r, &s), SetupError::MoverOut);
    let mut s = setup(&r, FOUR);
    s.out = vec![Seat(2)];
    assert_eq!(
        refused(&r, &s),
        SetupError::OutWithPieces {
            seat: "black".into()
        }
    );
    let mut s = setup(&r, FOUR);
    s.out = vec![Seat(5)];
    assert_eq!(
        refused(&r, &s),
        SetupError::NoSuchSeat {
            seat: Seat(5),
            seats: 4
        }
    );
}

#[test]
fn four_seats_stakes() {
    let r = rules("cuatro-tiempos", &[]);
    let e = libro_chess::notation::parse_position(
        &r,
        "rK6gK/8/8/8/8/8/8/bK6wK g - - 0 0 stakes:1/1/1 paid:1/1/1/1 pot:4",
    )
    .unwrap_err();
    assert!(
        e.to_string()
            .contains("`stakes` lists 3 values for 4 seats"),
        "{e}"
    );
    let mut s = setup(&r, FOUR);
    s.paid = vec![1, 1, 1, 1, 0];
    assert_eq!(
        refused(&r, &s),
        SetupError::SeatCount {
            field: "paid",
            given: 5,
            seats: 4
        }
    );
    let mut s = setup(&r, FOUR);
    s.stakes.clear();
    assert_eq!(refused(&r, &s), SetupError::NoStakes);
    let mut s = setup(&r, FOUR);
    s.stakes[2] = Some(0);
    assert_eq!(refused(&r, &s), SetupError::ZeroStake);
    // Without bets in the rules, no stake is still to come.
    let mut s = setup(&r, FOUR);
    s.stakes[3] = None;
    assert_eq!(refused(&r, &s), SetupError::StakesOutOfTurn);
}

#[test]
fn stakes_still_to_bet() {
    // Ludii's game opens with bets, in turn order: the seats still to bet are the last ones,
    // and the first of them is to move.
    let r = rules("cuatro-tiempos-ludii", &[]);
    let mut s = setup(&r, FOUR);
    s.stakes = vec![Some(1), Some(1), None, None];
    s.to_move = Seat(2);
    assert!(Position::from_setup(&r, &s).is_ok());
    s.to_move = Seat(3);
    assert_eq!(refused(&r, &s), SetupError::StakesOutOfTurn);
    s.to_move = Seat(0);
    s.stakes = vec![None, Some(1), Some(1), Some(1)];
    assert_eq!(refused(&r, &s), SetupError::StakesOutOfTurn);
}

/// Random games of the rulesets with shared squares, Ludii's markers, four seats and bets:
/// every position's string reads back as that position through a `Setup`, and the position
/// written as a `Setup` reads back as itself.
#[test]
fn positions_of_random_games_go_through_setups() {
    use libro_chess::{ChessGame, MoveList};
    use libro_core::{Game, Turn};
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(19);
    for name in [
        "acedrex",
        "short-assize",
        "short-assize-ludii",
        "cuatro-tiempos",
        "cuatro-tiempos-ludii",
    ] {
        let r = rules(name, &[]);
        for _ in 0..4 {
            let mut g = ChessGame::new(&r);
            let mut moves = MoveList::new();
            for _ in 0..300 {
                let text = g.to_string();
                let s = setup(&r, &text);
                let pos = Position::from_setup(&r, &s).unwrap_or_else(|e| panic!("{text}: {e}"));
                assert_eq!(&pos, g.position(), "{name}: {text}");
                let back = Position::from_setup(&r, &pos.to_setup(&r, &s.extras()));
                assert_eq!(back.as_ref(), Ok(g.position()), "{name}: {text}");
                if !matches!(g.turn(), Turn::Seat(_)) {
                    break;
                }
                g.legal_moves(&mut moves);
                let mv = moves[rng.gen_range(0..moves.len())];
                g.play(mv);
            }
        }
    }
}
