//! Two-seat alpha-beta on games with known values: Nim and tic-tac-toe (forced wins and
//! their distances), an explicit tree (quiescence), and the limits and reports.

mod toys;

use libro_ai::{Control, Limits, Score, SearchConfig, SearchInfo, Searcher};
use libro_core::{Game, MoveBuffer, Ruleset};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use toys::nim::Nim;
use toys::tictactoe::TicTacToe;
use toys::tree::TreeRules;
use toys::tron::{Tron, TronRules};

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

fn searcher<G: libro_core::Heuristic>() -> Searcher<G> {
    Searcher::new(SearchConfig::default())
}

#[test]
fn nim_wins_take_the_pile_modulo_four_and_say_when_they_mate() {
    for mover in 0..2 {
        for pile in 1..=21 {
            let game = Nim::new(pile, mover);
            let r = searcher()
                .search(&game, &depth(40), &Control::default())
                .unwrap();
            if pile % 4 == 0 {
                // Every take k is answered by 4 − k: mated after pile/4 moves of ours.
                assert_eq!(r.score, Score::Mate(-(pile as i32 / 4)), "pile {pile}");
            } else {
                // Take pile % 4, then answer every k with 4 − k: our (pile/4 + 1)th move wins.
                assert_eq!(r.best, (pile % 4) as u8, "pile {pile}");
                assert_eq!(r.score, Score::Mate(pile as i32 / 4 + 1), "pile {pile}");
                assert_eq!(r.pv.first(), Some(&r.best));
            }
        }
    }
}

#[test]
fn tic_tac_toe_is_a_draw_whatever_x_opens_with() {
    let game = TicTacToe::empty();
    let r = searcher()
        .search(&game, &depth(9), &Control::default())
        .unwrap();
    assert_eq!(r.score, Score::Cp(0));
    // Searched to the end, every opening move also draws (centre, corner or edge).
    let values = searcher().root_values(&game, 9, &Limits::default(), &Control::default());
    assert_eq!(values.len(), 9);
    assert!(values.iter().all(|&(_, v)| v == 0), "{values:?}");
}

#[test]
fn tic_tac_toe_mate_in_one_and_in_two() {
    // X on b2 and c1 wins at once on a3 (the diagonal a3-b2-c1).
    let game = TicTacToe::from_rows(["...", ".x.", "oox"]);
    let r = searcher()
        .search(&game, &depth(9), &Control::default())
        .unwrap();
    assert_eq!(
        (game.move_text(r.best), r.score),
        ("a3".to_string(), Score::Mate(1))
    );

    // O on a3 and b2 threatens c1. X must take c1, which forks b1 and c2: X mates with
    // its second move. Every other X move lets O complete a3-b2-c1.
    let game = TicTacToe::from_rows(["o.x", ".o.", "x.."]);
    let r = searcher()
        .search(&game, &depth(9), &Control::default())
        .unwrap();
    assert_eq!(
        (game.move_text(r.best), r.score),
        ("c1".to_string(), Score::Mate(2))
    );
    let values = searcher().root_values(&game, 9, &Limits::default(), &Control::default());
    let c1 = game.parse_move("c1").unwrap();
    assert!(
        values.iter().all(|&(m, v)| (m == c1) == (v > 0)),
        "only c1 wins: {values:?}"
    );

    // After c1, O is to move and mated after its one reply: mate -1, for the side to move.
    let mut after = game.clone();
    after.play(c1);
    let r = searcher()
        .search(&after, &depth(9), &Control::default())
        .unwrap();
    assert_eq!(r.score, Score::Mate(-1));
}

#[test]
fn quiescence_sees_the_recapture_behind_a_capture() {
    // Seat 0 may capture (+300 by the static value) but the capture can be recaptured by
    // a tactical move that leaves seat 0 at −600; the quiet move keeps +10. At depth 1 the
    // capture's reply is beyond the horizon: only quiescence sees it.
    let mut t = TreeRules::new(2);
    let lost = t.horizon(0, &[-600, 600]);
    let calm = t.horizon(0, &[300, -300]);
    let captured = t.choice(
        1,
        &[300, -300],
        &[("recapture", lost, true), ("retreat", calm, false)],
    );
    let quiet = t.horizon(1, &[10, -10]);
    t.choice(
        0,
        &[0, 0],
        &[("capture", captured, true), ("quiet", quiet, false)],
    );
    let rules = t.build();
    let game = rules.new_game(0);
    let r = searcher()
        .search(&game, &depth(1), &Control::default())
        .unwrap();
    assert_eq!(
        (game.move_text(r.best), r.score),
        ("quiet".to_string(), Score::Cp(10))
    );
    // Searched two plies deep the recapture is in the full-width tree: same answer.
    let r = searcher()
        .search(&game, &depth(2), &Control::default())
        .unwrap();
    assert_eq!(game.move_text(r.best), "quiet");
}

fn tron(w: u8, h: u8, seats: u8) -> Tron {
    Arc::new(TronRules {
        width: w,
        height: h,
        seats,
    })
    .new_game(0)
}

fn is_legal<G: Game>(game: &G, mv: G::Move) -> bool {
    let mut moves = G::MoveList::default();
    game.legal_moves(&mut moves);
    moves.as_slice().contains(&mv)
}

#[test]
fn node_limit_is_respected_exactly() {
    let game = tron(8, 8, 2);
    for limit in [1, 10, 777, 5_000, 40_000] {
        let limits = Limits {
            nodes: Some(limit),
            ..Limits::default()
        };
        let r = searcher()
            .search(&game, &limits, &Control::default())
            .unwrap();
        // The game is far too big to finish: the whole budget is used, not a node more.
        assert_eq!(r.nodes, limit);
        assert!(is_legal(&game, r.best));
    }
    // With room enough the search uses it: a bigger budget reaches deeper.
    let small = searcher()
        .search(
            &game,
            &Limits {
                nodes: Some(2_000),
                ..Limits::default()
            },
            &Control::default(),
        )
        .unwrap();
    let big = searcher()
        .search(
            &game,
            &Limits {
                nodes: Some(100_000),
                ..Limits::default()
            },
            &Control::default(),
        )
        .unwrap();
    assert!(big.depth > small.depth, "{} vs {}", big.depth, small.depth);
    assert!(big.nodes > 50_000);
}

#[test]
fn depth_limit_and_info_reports() {
    let game = tron(8, 8, 2);
    let mut infos: Vec<SearchInfo<u8>> = Vec::new();
    let r = searcher()
        .search_with_info(&game, &depth(5), &Control::default(), &mut |i| {
            infos.push(i.clone())
        })
        .unwrap();
    assert_eq!(r.depth, 5);
    assert_eq!(
        infos.iter().map(|i| i.depth).collect::<Vec<_>>(),
        vec![1, 2, 3, 4, 5]
    );
    assert!(infos.windows(2).all(|w| w[0].nodes <= w[1].nodes));
    assert!(infos
        .iter()
        .all(|i| i.seldepth >= i.depth && !i.pv.is_empty() && is_legal(&game, i.pv[0])));
    let last = infos.last().unwrap();
    assert_eq!((last.pv[0], last.score), (r.best, r.score));
    let line = last.uci(&game);
    assert!(line.starts_with("info depth 5 seldepth "), "{line}");
    assert!(
        line.contains(&format!(" score {} nodes ", r.score)) && line.contains(" pv "),
        "{line}"
    );
}

#[test]
fn uci_line_shows_mate_for_the_side_to_move() {
    let game = TicTacToe::from_rows(["o.x", ".o.", "x.."]);
    let mut lines = Vec::new();
    searcher().search_with_info(&game, &depth(9), &Control::default(), &mut |i| {
        lines.push(i.uci(&game))
    });
    let last = lines.last().unwrap();
    assert!(
        last.contains(" score mate 2 ") && last.contains(" pv c1 "),
        "{last}"
    );
}

#[test]
fn stop_flag_is_honoured() {
    let game = tron(8, 8, 2);
    // Raised before the search: nothing is searched, yet a legal move comes back.
    let flag = Arc::new(AtomicBool::new(true));
    let r = searcher()
        .search(&game, &Limits::default(), &Control::with_stop(flag))
        .unwrap();
    assert_eq!((r.depth, r.nodes), (0, 0));
    assert!(is_legal(&game, r.best));
    // Raised during the search (here by the report of depth 3): it ends there.
    let flag = Arc::new(AtomicBool::new(false));
    let mut depths = Vec::new();
    let control = Control::with_stop(flag.clone());
    let r = searcher()
        .search_with_info(&game, &Limits::default(), &control, &mut |i| {
            depths.push(i.depth);
            if i.depth == 3 {
                flag.store(true, Ordering::Relaxed);
            }
        })
        .unwrap();
    assert_eq!(depths, vec![1, 2, 3]);
    assert_eq!(r.depth, 3);
}

#[test]
fn stop_flag_from_another_thread_ends_an_unlimited_search() {
    let game = tron(8, 8, 2);
    let flag = Arc::new(AtomicBool::new(false));
    let control = Control::with_stop(flag.clone());
    let (tx, rx) = std::sync::mpsc::channel();
    let worker = std::thread::spawn(move || {
        let mut s: Searcher<Tron> = searcher();
        s.search_with_info(&game, &Limits::default(), &control, &mut |i| {
            if i.depth == 2 {
                let _ = tx.send(());
            }
        })
    });
    rx.recv().unwrap();
    flag.store(true, Ordering::Relaxed);
    let r = worker.join().unwrap().unwrap();
    assert!(r.depth >= 2);
}

#[test]
fn time_limits_end_the_search() {
    // No timing is asserted: only that a search bounded by time alone returns a legal move.
    let game = tron(8, 8, 2);
    let limits = Limits {
        movetime: Some(std::time::Duration::from_millis(20)),
        ..Limits::default()
    };
    let r = searcher()
        .search(&game, &limits, &Control::default())
        .unwrap();
    assert!(is_legal(&game, r.best));
    let control = Control {
        clock: Some(libro_ai::Clock {
            remaining: std::time::Duration::from_millis(100),
            increment: std::time::Duration::ZERO,
            moves_to_go: None,
        }),
        ..Control::default()
    };
    let r = searcher()
        .search(&game, &Limits::default(), &control)
        .unwrap();
    assert!(is_legal(&game, r.best));
}

#[test]
fn the_transposition_table_saves_work() {
    // Tic-tac-toe to the end: many move orders reach the same position.
    let game = TicTacToe::empty();
    let with = Searcher::new(SearchConfig {
        hash_mb: 4,
        ..SearchConfig::default()
    })
    .search(&game, &depth(9), &Control::default())
    .unwrap();
    let without = Searcher::new(SearchConfig {
        hash_mb: 0,
        ..SearchConfig::default()
    })
    .search(&game, &depth(9), &Control::default())
    .unwrap();
    assert_eq!(with.score, without.score);
    assert!(
        with.nodes * 3 < without.nodes,
        "{} nodes with the table, {} without",
        with.nodes,
        without.nodes
    );
}

#[test]
fn no_seat_to_move_gives_no_result() {
    let game = Nim::new(0, 0);
    assert!(searcher()
        .search(&game, &depth(3), &Control::default())
        .is_none());
}
