//! Position strings and moves, checked against strings written out by hand from the setups
//! in the ruleset files and the usual conventions of chess notation.

mod common;

use common::{after, rules};
use libro_chess::ChessGame;
use libro_core::{Game, Ruleset};

#[test]
fn start_positions() {
    let cases = [
        ("acedrex", "rnafkanr/pppppppp/8/8/8/8/PPPPPPPP/RNAFKANR w d1d8 - 0 1"),
        ("forcado", "rnafkanr/pppppppp/8/8/8/8/PPPPPPPP/RNAFKANR w - - 0 1"),
        ("shatranj", "rnakfanr/pppppppp/8/8/8/8/PPPPPPPP/RNAKFANR w - - 0 1"),
        ("short-assize", "2a1ka2/2rnnr2/pppp(pf)ppp/8/8/PPPP(PF)PPP/2RNNR2/2A1KA2 w - - 0 1"),
        (
            "cuatro-tiempos",
            "rKrNrS2gSgNgK/rRrArS2gSgAgR/rPrP4gPgP/8/8/bPbP4wPwP/bRbAbS2wSwAwR/bKbNbS2wSwNwK g - - 0 0 stakes:1/1/1/1 paid:1/1/1/1 pot:4",
        ),
    ];
    for (name, fen) in cases {
        let r = rules(name, &[]);
        assert_eq!(ChessGame::new(&r).to_string(), fen, "{name}");
        assert_eq!(r.parse_position(fen).unwrap().to_string(), fen, "{name}");
    }
    // Ludii's four-player game opens with the bets still to come.
    let r = rules("cuatro-tiempos-ludii", &[]);
    assert_eq!(
        r.new_game(0).to_string(),
        "bKbNbS2rSrNrK/bRbAbS2rSrArR/bPbP4rPrP/8/8/wPwP4gPgP/wRwAwS2gSgAgR/wKwNwS2gSgNgK g - - 0 0 stakes:-/-/-/- paid:0/0/0/0 pot:0"
    );
}

#[test]
fn san_for_people() {
    let r = rules("acedrex", &[]);
    let g = ChessGame::new(&r);
    let san = |g: &ChessGame, m: &str| g.san(g.parse_move(m).unwrap());
    assert_eq!(san(&g, "g1f3"), "Nf3");
    assert_eq!(san(&g, "e2e4"), "e4");
    assert_eq!(san(&g, "d1d3"), "Fd3");
    assert_eq!(san(&g, "c1a3"), "Aa3");
    let g = after(&r, "e2e4 d7d5");
    assert_eq!(san(&g, "e4d5"), "exd5");
    let g = ChessGame::from_position(&r, "4k3/P7/8/8/8/8/8/4K3 w - x 0 1").unwrap();
    assert_eq!(san(&g, "a7a8"), "a8=F");
    let g = ChessGame::from_position(&r, "4k3/8/8/8/8/8/8/R3K3 w - x 0 1").unwrap();
    assert_eq!(san(&g, "a1a8"), "Ra8+");
    let g = ChessGame::from_position(&r, "4k3/8/4K3/8/8/8/8/R7 w - x 0 1").unwrap();
    assert_eq!(san(&g, "a1a8"), "Ra8#");
    let g = ChessGame::from_position(&r, "4k3/8/8/8/8/8/8/1N2KN2 w - x 0 1").unwrap();
    assert_eq!(
        (san(&g, "b1d2"), san(&g, "f1d2")),
        ("Nbd2".to_string(), "Nfd2".to_string())
    );
}

#[test]
fn moves_are_read_in_every_form() {
    let r = rules("acedrex", &[]);
    let g = ChessGame::new(&r);
    let text = |m: &str| g.move_text(g.parse_move(m).unwrap());
    assert_eq!(text("Nf3"), "g1f3");
    assert_eq!(text("e4"), "e2e4");
    assert_eq!(text("e2-e4"), "e2e4");
    // Fairy-Stockfish marks the fers' leap with a `+`.
    assert_eq!(text("d1d3+"), "d1d3");
    assert_eq!(text("Fd3"), "d1d3");
    let g = ChessGame::from_position(&r, "4k3/P7/8/8/8/8/8/4K3 w - x 0 1").unwrap();
    for m in ["a8=F", "a7a8", "a7a8F", "a7a8=F", "a7a8f"] {
        assert_eq!(g.move_text(g.parse_move(m).unwrap()), "a7a8", "{m}");
    }
    assert!(g.parse_move("a7a8=R").is_err());
    let g = ChessGame::new(&r);
    assert!(g
        .parse_move("e2e5")
        .unwrap_err()
        .to_string()
        .contains("not a legal move"));
    assert!(g
        .parse_move("zz9")
        .unwrap_err()
        .to_string()
        .contains("is not a move"));
    assert!(g
        .parse_move("e1e2")
        .unwrap_err()
        .to_string()
        .contains("your own piece"));
    assert!(g.parse_move("pass").is_err());
}

#[test]
fn bad_position_strings_say_what_is_wrong() {
    let r = rules("acedrex", &[]);
    let bad = [
        ("rnafkanr/pppppppp/8/8/8/8/PPPPPPPP w - - 0 1", "ranks"),
        (
            "rnafkanr/pppppppp/9/8/8/8/PPPPPPPP/RNAFKANR w - - 0 1",
            "rank 6",
        ),
        (
            "rnafkanr/pppppppp/8/8/8/8/PPPPPPPP/RNAFKANR x - - 0 1",
            "seat letter",
        ),
        (
            "rnafkanr/pppppppp/8/8/8/8/PPPPPPPP/RNAFKANR w - - 0",
            "fields",
        ),
        (
            "rnafkanr/ppppzppp/8/8/8/8/PPPPPPPP/RNAFKANR w - - 0 1",
            "`Z` is not a piece letter",
        ),
        (
            "rnafkanr/pppppppp/8/8/8/8/PPPPPPPP/RNAF1ANR w - - 0 1",
            "0 kings",
        ),
        ("4k3/8/8/8/8/8/8/R3K2k w - - 0 1", "kings"),
        (
            "4k3/8/8/8/8/8/8/4K2R w e4 - 0 1",
            "unmoved square e4 is empty",
        ),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1 extra:1", "unknown field"),
        (
            "R3k3/8/8/8/8/8/8/4K3 w - - 0 1",
            "is not to move but is in check",
        ),
    ];
    for (fen, says) in bad {
        let e = r.parse_position(fen).unwrap_err().to_string();
        assert!(e.contains(says), "{fen}: `{e}` should say `{says}`");
    }
}

#[test]
fn divide_adds_up() {
    let r = rules("acedrex", &[("pawn_double_step", "first-move")]);
    let g = ChessGame::new(&r);
    let parts = libro_chess::perft_divide(&g, 3);
    assert_eq!(parts.len(), 27);
    // 19230: Fairy-Stockfish's acedrex start, depth 3 (reference/fsf/perft.md).
    assert_eq!(parts.iter().map(|p| p.1).sum::<u64>(), 19230);
    assert_eq!(g.perft(3), 19230);
    assert!(parts.iter().any(|(m, _)| m == "d1d3"));
}

#[test]
fn forced_capture_explanation_method() {
    let r = rules("forcado", &[]);
    let g = ChessGame::from_position(&r, "4k3/8/8/1n1r4/2P2N2/8/8/4K3 w - x 0 1").unwrap();
    assert_eq!(
        g.forced_capture_explanation().as_deref(),
        Some("you must capture: the rook on d5 is the most powerful piece you can take, and the pawn on c4 must take it")
    );
    assert_eq!(ChessGame::new(&r).forced_capture_explanation(), None);
}

/// Fairy-Stockfish's FENs (its letters: `b` the alfil, `q` the fers; its acedrex's unmoved
/// fers `f`, a moved one `+f`) in libro's letters and fields.
#[test]
fn fairy_stockfish_fens_in_libros_letters() {
    use libro_chess::notation::gui_fen;
    let shatranj = rules("shatranj", &[]);
    let start = gui_fen(
        &shatranj,
        "rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKQBNR w - - 0 1",
    )
    .unwrap();
    assert_eq!(
        start.fen,
        "rnakfanr/pppppppp/8/8/8/8/PPPPPPPP/RNAKFANR w - - 0 1"
    );
    assert!(!start.marked);
    // libro's own letters: nothing to turn.
    assert!(gui_fen(
        &shatranj,
        "rnakfanr/pppppppp/8/8/8/8/PPPPPPPP/RNAKFANR w - - 0 1"
    )
    .is_none());

    let acedrex = rules("acedrex", &[]);
    let cases = [
        // Runs of empty squares before and after the fers: its square is counted right.
        (
            "4k3/8/8/8/8/8/8/1R1FK3 w - - 0 9",
            "4k3/8/8/8/8/8/8/1R1FK3 w d1 - 0 9",
            true,
        ),
        (
            "4k3/8/8/8/8/8/8/1R1+FK3 w - - 0 9",
            "4k3/8/8/8/8/8/8/1R1FK3 w - - 0 9",
            false,
        ),
        (
            "3fk3/8/8/8/8/8/8/3QK3 b - - 0 9",
            "3fk3/8/8/8/8/8/8/3FK3 b d8 - 0 9",
            true,
        ),
    ];
    for (fsf, libro, marked) in cases {
        let gui = gui_fen(&acedrex, fsf).unwrap();
        assert_eq!((gui.fen.as_str(), gui.marked), (libro, marked), "{fsf}");
        assert_eq!(acedrex.parse_position(&gui.fen).unwrap().to_string(), libro);
    }
    // A rank running off the board is no board of this game.
    assert!(gui_fen(&acedrex, "4k3/8/8/8/8/8/8/8F w - - 0 9").is_none());
    // A libro FEN that lists its unmoved squares is libro's.
    assert!(gui_fen(&acedrex, "3fk3/8/8/8/8/8/8/3FK3 w d8 - 0 40").is_none());
}
