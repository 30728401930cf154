//! Perft against Fairy-Stockfish's figures in `tests/reference/fsf/` (read at test time).
//!
//! shatranj: every listed depth and position; acedrex (with `pawn_double_step = first-move`,
//! Fairy-Stockfish's encoding): every row; forcado: the start position at depths 1-4 (the
//! deeper and mid-game rows are upper bounds, FSF not applying the priority rule);
//! short-assize: the rows that begin after `e3e4 e6e5` (its start rows misplace the fers).
//! Rows above 20 M nodes run only with `--ignored`.

mod common;

use common::{after, reference, rules};
use libro_chess::{perft, ChessGame};
use std::collections::HashMap;

const NODE_CAP: u64 = 20_000_000;

struct Row {
    variant: String,
    fen: String,
    depth: u32,
    nodes: u64,
}

fn rows() -> Vec<Row> {
    let text = reference("fsf/perft.md");
    let mut out = Vec::new();
    for line in text.lines() {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        if cells.len() < 6 {
            continue;
        }
        let (Ok(depth), Ok(nodes)) = (cells[3].parse::<u32>(), cells[4].parse::<u64>()) else {
            continue;
        };
        if cells[2].starts_with('`') {
            // Start rows label the variant with a note: `shortassize (exact: ...)`.
            let variant = cells[1].split(" (").next().unwrap_or(cells[1]).to_string();
            out.push(Row {
                variant,
                fen: cells[2].trim_matches('`').to_string(),
                depth,
                nodes,
            });
        }
    }
    assert!(out.len() > 80, "perft.md has {} rows", out.len());
    out
}

/// FEN -> the moves that reach it from our start position (positions.txt).
fn routes() -> HashMap<String, String> {
    const SA_EXACT: &str = "2b1kb2/2rnnr2/ppppqppp/4p3/4P3/PPPPQPPP/2RNNR2/2B1KB2 w - - 0 2";
    let mut out = HashMap::new();
    for line in reference("fsf/positions.txt").lines() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        let (variant, fen, from) = (cells[0], cells[1], cells[2]);
        let moves = if from == "start" {
            if variant == "shortassize" && fen == SA_EXACT {
                "e3e4 e6e5".to_string()
            } else {
                String::new()
            }
        } else if let Some(m) = from.strip_prefix("startpos moves ") {
            m.to_string()
        } else if let Some((base, m)) = from.split_once(" moves ") {
            assert_eq!(base, SA_EXACT, "unexpected base position in positions.txt");
            format!("e3e4 e6e5 {m}")
        } else {
            panic!("cannot read route `{from}`");
        };
        out.insert(format!("{variant}|{fen}"), moves);
    }
    out
}

fn check(
    variant: &str,
    ruleset: &str,
    overrides: &[(&str, &str)],
    select: impl Fn(&Row, &str) -> bool,
    deep: bool,
) -> usize {
    let r = rules(ruleset, overrides);
    let routes = routes();
    let mut checked = 0;
    for row in rows().iter().filter(|row| row.variant == variant) {
        let Some(moves) = routes.get(&format!("{variant}|{}", row.fen)) else {
            panic!("no route to {}", row.fen)
        };
        if !select(row, moves) || (row.nodes > NODE_CAP) != deep {
            continue;
        }
        let g: ChessGame = after(&r, moves);
        let n = perft(&r, g.position(), row.depth);
        assert_eq!(
            n, row.nodes,
            "{ruleset} `{}` (after `{moves}`) depth {}",
            row.fen, row.depth
        );
        checked += 1;
    }
    checked
}

#[test]
fn shatranj_matches_every_row() {
    assert_eq!(check("shatranj", "shatranj", &[], |_, _| true, false), 22);
}

#[test]
fn acedrex_first_move_double_step_matches_every_row() {
    assert_eq!(
        check(
            "acedrex",
            "acedrex",
            &[("pawn_double_step", "first-move")],
            |_, _| true,
            false
        ),
        21
    );
}

#[test]
fn forcado_start_position_depths_1_to_4() {
    let n = check(
        "forcado",
        "forcado",
        &[],
        |row, moves| moves.is_empty() && row.depth <= 4,
        false,
    );
    assert_eq!(n, 4);
}

#[test]
fn short_assize_rows_after_e4_e5() {
    let n = check(
        "shortassize",
        "short-assize",
        &[],
        |_, moves| moves.starts_with("e3e4 e6e5"),
        false,
    );
    assert_eq!(n, 21);
}

#[test]
#[ignore = "deep rows: hundreds of millions of nodes; run with --ignored in release"]
fn deep_rows() {
    let a = check("shatranj", "shatranj", &[], |_, _| true, true);
    let b = check(
        "acedrex",
        "acedrex",
        &[("pawn_double_step", "first-move")],
        |_, _| true,
        true,
    );
    let c = check(
        "shortassize",
        "short-assize",
        &[],
        |_, moves| moves.starts_with("e3e4 e6e5"),
        true,
    );
    assert_eq!((a, b, c), (1, 1, 1));
}
