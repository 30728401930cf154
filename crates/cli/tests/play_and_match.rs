//! `libro play` and `libro match` end to end.

use std::io::Write;
use std::process::{Command, Stdio};

fn libro_with_input(args: &[&str], input: &str) -> (bool, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_libro"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("libro runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn play_explains_forcados_forced_capture() {
    // 1. Nb1-c3 e7-e6 2. Nc3-d5: the pawn on e6 attacks the knight on d5 and Black has no
    // other capture, so Black must take it; a7-a6 is refused with the reason.
    let (ok, out, err) = libro_with_input(
        &[
            "play",
            "forcado",
            "--seat",
            "white=human",
            "--seat",
            "black=human",
            "--no-color",
        ],
        "b1c3\ne7e6\nc3d5\na7a6\nquit\n",
    );
    assert!(ok, "{err}");
    assert!(out.contains("must capture"), "{out}");
    assert!(
        out.contains("d5"),
        "the explanation names the victim's square: {out}"
    );
}

#[test]
fn play_refuses_nonsense_and_lists_moves() {
    let (ok, out, _) = libro_with_input(
        &["play", "acedrex", "--seat", "black=human", "--no-color"],
        "e2e9\nmoves\nquit\n",
    );
    assert!(ok);
    assert!(out.contains("Not a legal move"), "{out}");
    // Acedrex start: 16 pawn moves (single and double steps), 4 knight moves, 2 fils,
    // the fers' step c2? no: d1's diagonal steps c2/e2 are occupied; its leap to b3, d3, f3
    // (two squares straight or diagonal onto an empty square) — 27 in all (Fairy-Stockfish).
    assert!(out.contains("27 legal:"), "{out}");
}

#[test]
fn a_match_reports_json_and_writes_records_that_replay() {
    let dir = std::env::temp_dir().join(format!("libro-match-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let record = dir.join("games.jsonl");
    let (ok, out, err) = libro_with_input(
        &[
            "match",
            "short-assize",
            "--a",
            "ai:4",
            "--b",
            "random",
            "--games",
            "4",
            "--threads",
            "2",
            "--json",
            "--record",
            record.to_str().unwrap(),
        ],
        "",
    );
    assert!(ok, "{err}");
    let last: serde_json::Value = serde_json::from_str(out.lines().last().unwrap()).unwrap();
    let games = last["wins"].as_u64().unwrap()
        + last["draws"].as_u64().unwrap()
        + last["losses"].as_u64().unwrap();
    assert_eq!(games, 4);
    for key in [
        "score",
        "score_low",
        "score_high",
        "elo",
        "elo_low",
        "elo_high",
    ] {
        assert!(last.get(key).is_some(), "{key} missing from {last}");
    }
    let text = std::fs::read_to_string(&record).unwrap();
    assert_eq!(text.lines().count(), 4);
    let rules = libro_registry::load("short-assize", &[])
        .unwrap()
        .downcast::<libro_chess::ChessRules>()
        .expect("short assize is a chess ruleset");
    for line in text.lines() {
        let rec: libro_ai::GameRecord = serde_json::from_str(line).unwrap();
        // Without dice, four random moves open each pair so that ai:4 varies its games.
        assert_eq!(rec.opening_moves, 4, "game {}", rec.index);
        libro_ai::replay(&rules, &rec)
            .unwrap_or_else(|e| panic!("game {} does not replay: {e}", rec.index));
    }
}

#[test]
fn a_match_header_says_how_libros_ai_evaluates() {
    let header = |args: &[&str]| {
        let (ok, out, err) = libro_with_input(args, "");
        assert!(ok, "{err}");
        out
    };
    // Short assize ships no network: the hand-written evaluation plays.
    let out = header(&[
        "match",
        "short-assize",
        "--a",
        "ai:1",
        "--b",
        "random",
        "--games",
        "2",
        "--threads",
        "2",
    ]);
    assert!(
        out.contains("libro's ai evaluates with the hand-written evaluation"),
        "{out}"
    );
    // No side searches: nothing evaluates, nothing is said.
    let out = header(&[
        "match",
        "short-assize",
        "--a",
        "random",
        "--b",
        "greedy",
        "--games",
        "2",
        "--threads",
        "2",
    ]);
    assert!(!out.contains("evaluates with"), "{out}");
}

/// A Fallas match of greedy against random, two games, with the given extra arguments: its
/// output and its game records.
fn fallas_match(extra: &[&str]) -> (String, Vec<libro_ai::GameRecord>) {
    let dir = std::env::temp_dir().join(format!("libro-fallas-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let record = dir.join(format!("games{}.jsonl", extra.join("")));
    let mut args = vec![
        "match",
        "fallas",
        "--a",
        "greedy",
        "--b",
        "random",
        "--games",
        "2",
        "--threads",
        "1",
        "--record",
    ];
    args.push(record.to_str().unwrap());
    args.extend_from_slice(extra);
    let (ok, out, err) = libro_with_input(&args, "");
    assert!(ok, "{err}");
    let text = std::fs::read_to_string(&record).unwrap();
    let records = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    (out, records)
}

#[test]
fn a_fallas_match_runs_with_dice() {
    let (out, records) = fallas_match(&["--json"]);
    assert!(out.lines().last().unwrap().contains("\"wins\""), "{out}");
    assert_eq!(records.len(), 2);
}

#[test]
fn dice_games_open_without_random_moves_unless_asked() {
    // The dice vary every game already, and one random play can lose Fallas by itself (a
    // falla), so a match plays from the first roll unless --opening-moves says otherwise.
    for rec in fallas_match(&[]).1 {
        assert_eq!(rec.opening_moves, 0, "game {}", rec.index);
    }
    for rec in fallas_match(&["--opening-moves", "2"]).1 {
        assert_eq!(rec.opening_moves, 2, "game {}", rec.index);
    }
}
