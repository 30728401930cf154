//! `libro match … --b uci:PATH`: libro referees a match against another UCI engine. The
//! engines here are libro's own `uci` (through a wrapper script) and two small scripted
//! engines that misbehave in known ways, so every outcome is known in advance.
#![cfg(unix)]

use libro_core::Game;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A fresh directory for one test's scripts and files.
fn workdir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("libro-match-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Writes an executable shell script.
fn script(dir: &Path, name: &str, body: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path.to_str().unwrap().to_string()
}

/// libro's own UCI engine, as a path a match can start.
fn libro_engine(dir: &Path) -> String {
    script(
        dir,
        "libro-uci.sh",
        &format!("exec '{}' uci\n", env!("CARGO_BIN_EXE_libro")),
    )
}

/// An engine that shakes hands properly and then answers every `go` with `reply`, or not
/// at all when `reply` is empty.
fn scripted_engine(dir: &Path, name: &str, reply: &str) -> String {
    let go = if reply.is_empty() {
        ":".to_string()
    } else {
        format!("echo '{reply}'")
    };
    script(
        dir,
        name,
        &format!(
            r#"while read line; do
  case "$line" in
    uci) echo "id name {name}"; echo uciok ;;
    isready) echo readyok ;;
    go*) {go} ;;
    quit) exit 0 ;;
  esac
done
"#
        ),
    )
}

fn libro(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_libro"))
        .args(args)
        .output()
        .expect("libro runs")
}

fn text(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn a_match_against_libros_own_uci_engine_is_refereed_and_written_as_pgn_and_records() {
    let dir = workdir("self");
    let engine = libro_engine(&dir);
    let pgn = dir.join("games.pgn");
    let record = dir.join("games.jsonl");
    let out = libro(&[
        "match",
        "shatranj",
        "--a",
        "ai:2",
        "--b",
        &format!("uci:{engine},Skill Level=2"),
        "--movetime",
        "20",
        "--games",
        "2",
        "--openings",
        "2",
        "--pgn",
        pgn.to_str().unwrap(),
        "--record",
        record.to_str().unwrap(),
    ]);
    let stdout = text(&out);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The header names the network libro's ai plays by its file's SHA-256: shatranj's.
    let shipped = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../rulesets/shatranj.nnue"
    ))
    .unwrap();
    let digest: String = {
        use sha2::{Digest, Sha256};
        Sha256::digest(shipped)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    };
    assert!(
        stdout.contains(&format!("network whose file's SHA-256 is {digest}")),
        "{stdout}"
    );
    let games: Vec<&str> = stdout.lines().filter(|l| l.starts_with("game ")).collect();
    assert_eq!(games.len(), 2, "{stdout}");
    // Colours alternate: A is White in game 1 and Black in game 2.
    assert!(games[0].contains("ai:2 (white)"), "{}", games[0]);
    assert!(games[1].contains("ai:2 (black)"), "{}", games[1]);
    // Neither engine misbehaves: every game ends by the rules.
    for g in &games {
        assert!(!g.contains("illegal") && !g.contains("in time"), "{g}");
    }
    let pgn = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(pgn.matches("[Event \"libro match\"]").count(), 2, "{pgn}");
    assert_eq!(pgn.matches("[Variant \"shatranj\"]").count(), 2, "{pgn}");
    assert_eq!(pgn.matches("[Termination \"normal\"]").count(), 2, "{pgn}");
    // Each game's Result tag is the result printed for it.
    let tags: Vec<&str> = pgn
        .lines()
        .filter_map(|l| l.strip_prefix("[Result \""))
        .map(|l| l.trim_end_matches("\"]"))
        .collect();
    for (g, tag) in games.iter().zip(&tags) {
        assert!(g.contains(&format!(": {tag} (")), "{g} vs {tag}");
    }
    // The movetext opens with move 1 and ends with the result.
    assert!(pgn.contains("\n1. "), "{pgn}");
    // Each record replays to the result printed for its game, A's seat alternating.
    let records = read_records(&record);
    assert_eq!(records.len(), 2);
    for (i, (rec, g)) in records.iter().zip(&games).enumerate() {
        assert_eq!(rec.index, i as u32);
        assert_eq!(
            rec.a_seats,
            vec![i as u8],
            "A is White in game 1, Black in game 2"
        );
        assert_eq!(rec.players[i], "ai:2");
        assert_eq!(rec.opening_moves, 2);
        let game = libro_ai::replay(&shatranj(), rec)
            .unwrap_or_else(|e| panic!("game {i} does not replay: {e}"));
        let white = rec.result.as_ref().expect("ended by the rules").seats[0].score;
        let tag = match f64::from(white) {
            w if w > 0.5 => "1-0",
            w if w < 0.5 => "0-1",
            _ => "1/2-1/2",
        };
        assert!(
            g.contains(&format!(": {tag} (")),
            "{g} vs the record's {tag}"
        );
        assert!(game.is_over(), "game {i} replays to its end");
    }
}

fn read_records(path: &Path) -> Vec<libro_ai::GameRecord> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn shatranj() -> std::sync::Arc<libro_chess::ChessRules> {
    libro_registry::load("shatranj", &[])
        .unwrap()
        .downcast::<libro_chess::ChessRules>()
        .expect("shatranj is a chess ruleset")
}

/// A forcado match of up to 200 games, stopped by an SPRT (elo0 = 0, elo1 = 50), of `ai:1`
/// against an engine that always answers a1a1 (never a move), with `extra` arguments.
fn liar_match(dir: &Path, extra: &[&str]) -> Output {
    let liar = scripted_engine(dir, "liar", "bestmove a1a1");
    let b = format!("uci:{liar}");
    let mut args = vec![
        "match",
        "forcado",
        "--a",
        "ai:1",
        "--b",
        &b,
        "--movetime",
        "10",
        "--games",
        "200",
        "--sprt",
        "elo0=0,elo1=50",
    ];
    args.extend_from_slice(extra);
    libro(&args)
}

/// The number of games and the ratio an SPRT line says its decision was taken on.
fn sprt_decided_at(stdout: &str) -> (usize, f64) {
    let line = stdout
        .lines()
        .find(|l| l.starts_with("SPRT "))
        .unwrap_or_else(|| panic!("no SPRT line in {stdout}"));
    let (_, rest) = line.split_once(" after ").expect("after N games");
    let (games, rest) = rest.split_once(" games: LLR ").expect("games: LLR");
    let llr = rest.split_whitespace().next().unwrap();
    (games.parse().unwrap(), llr.parse().unwrap())
}

#[test]
fn an_illegal_move_loses_and_an_sprt_stops_the_match_on_evidence() {
    let dir = workdir("liar");
    // a1a1 is never a move: the engine loses every game it has to move in.
    let pgn = dir.join("games.pgn");
    let out = liar_match(&dir, &["--pgn", pgn.to_str().unwrap()]);
    let stdout = text(&out);
    assert!(out.status.success(), "{stdout}");
    let games: Vec<&str> = stdout.lines().filter(|l| l.starts_with("game ")).collect();
    for g in &games {
        assert!(g.contains("illegal move `a1a1` by"), "{g}");
    }
    // Every game won by A: the SPRT accepts H1 long before 200 games.
    assert!(
        games.len() >= 2 && games.len() < 200,
        "{} games",
        games.len()
    );
    assert!(stdout.contains("H1 accepted"), "{stdout}");
    assert!(
        stdout.contains(&format!("A: {} wins, 0 draws, 0 losses", games.len())),
        "{stdout}"
    );
    // One game at a time: the match stops on the game that decided, whose ratio crossed
    // Wald's upper bound ln(0.95 / 0.05) = 2.944.
    let (decided, llr) = sprt_decided_at(&stdout);
    assert_eq!(decided, games.len(), "{stdout}");
    assert!(llr >= 2.94, "{stdout}");
    let pgn = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(
        pgn.matches("[Termination \"rules infraction\"]").count(),
        games.len()
    );
}

#[test]
fn an_sprt_decided_while_games_are_under_way_reports_the_ratio_that_decided() {
    let dir = workdir("liar-threads");
    let out = liar_match(&dir, &["--threads", "2"]);
    let stdout = text(&out);
    assert!(out.status.success(), "{stdout}");
    let games = stdout.lines().filter(|l| l.starts_with("game ")).count();
    // Two games at once: the other game under way finishes after the decision and is
    // counted (no new one starts), but the ratio shown with the decision is the one that
    // crossed the bound.
    let (decided, llr) = sprt_decided_at(&stdout);
    assert!(llr >= 2.94, "{stdout}");
    assert!(decided <= games && games <= decided + 1, "{stdout}");
    if games > decided {
        assert!(
            stdout.contains("1 game under way then finished after and is counted above"),
            "{stdout}"
        );
    }
}

#[test]
fn an_engine_that_does_not_answer_loses_on_time_and_the_match_goes_on() {
    let dir = workdir("silent");
    let silent = scripted_engine(&dir, "silent", "");
    let record = dir.join("games.jsonl");
    let out = libro(&[
        "match",
        "shatranj",
        "--a",
        "ai:1",
        "--b",
        &format!("uci:{silent}"),
        "--movetime",
        "50",
        "--games",
        "2",
        "--record",
        record.to_str().unwrap(),
    ]);
    let stdout = text(&out);
    assert!(out.status.success(), "{stdout}");
    let games: Vec<&str> = stdout.lines().filter(|l| l.starts_with("game ")).collect();
    assert_eq!(games.len(), 2, "{stdout}");
    for g in &games {
        assert!(g.contains("did not answer in time"), "{g}");
    }
    assert!(stdout.contains("A: 2 wins"), "{stdout}");
    // The referee ended the games, not the rules: no result, and A's win in its score.
    // The silent engine never moves: each game stops at its first turn after the opening.
    let records = read_records(&record);
    assert_eq!(records.len(), 2);
    for rec in &records {
        assert_eq!(rec.result, None);
        assert_eq!(rec.a_score, 1.0);
        let game = libro_ai::replay(&shatranj(), rec).expect("replays");
        assert!(!game.is_over());
    }
}

#[test]
fn engine_matches_that_cannot_be_played_are_refused_with_the_reason() {
    let dir = workdir("refused");
    let engine = libro_engine(&dir);
    let uci = format!("uci:{engine}");
    for (args, reason) in [
        (
            vec![
                "match",
                "fallas",
                "--a",
                "ai:1",
                "--b",
                &uci,
                "--movetime",
                "10",
            ],
            "two-player chess rulesets",
        ),
        (
            vec!["match", "shatranj", "--a", "ai:1", "--b", &uci],
            "needs --movetime MS, --tc BASE+INC or --nodes N",
        ),
        (
            vec![
                "match",
                "shatranj",
                "--a",
                "ai:1",
                "--b",
                "ai:2",
                "--movetime",
                "10",
            ],
            "are for matches against a UCI engine",
        ),
        (
            vec![
                "match",
                "shatranj",
                "--a",
                "ai:1",
                "--b",
                "uci:/nonexistent/engine",
                "--movetime",
                "10",
            ],
            "/nonexistent/engine",
        ),
        (
            vec![
                "match", "shatranj", "--a", "ai:1", "--b", &uci, "--tc", "fast",
            ],
            "time control `fast`",
        ),
    ] {
        let out = libro(&args);
        assert!(!out.status.success(), "{args:?} succeeded");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(reason), "{args:?}: {err}");
    }
}

#[test]
fn games_played_at_once_each_have_their_own_engines_and_every_game_is_counted_once() {
    let dir = workdir("threads");
    // Each engine process writes its process id once, so the test can count them.
    let liar = script(
        &dir,
        "liar",
        &format!(
            r#"echo $$ >> '{}'
while read line; do
  case "$line" in
    uci) echo "id name liar"; echo uciok ;;
    isready) echo readyok ;;
    go*) echo 'bestmove a1a1' ;;
    quit) exit 0 ;;
  esac
done
"#,
            dir.join("pids").display()
        ),
    );
    let record = dir.join("games.jsonl");
    let out = libro(&[
        "match",
        "forcado",
        "--a",
        "ai:1",
        "--b",
        &format!("uci:{liar}"),
        "--movetime",
        "10",
        "--games",
        "9",
        "--threads",
        "3",
        "--record",
        record.to_str().unwrap(),
    ]);
    let stdout = text(&out);
    assert!(out.status.success(), "{stdout}");
    assert!(stdout.contains("3 games at once"), "{stdout}");
    let mut numbers: Vec<u32> = stdout
        .lines()
        .filter_map(|l| l.strip_prefix("game "))
        .map(|l| l.split(':').next().unwrap().parse().unwrap())
        .collect();
    numbers.sort();
    assert_eq!(numbers, (1..=9).collect::<Vec<_>>(), "{stdout}");
    assert!(stdout.contains("A: 9 wins, 0 draws, 0 losses"), "{stdout}");
    let mut indices: Vec<u32> = read_records(&record).iter().map(|r| r.index).collect();
    indices.sort();
    assert_eq!(indices, (0..9).collect::<Vec<_>>());
    // One engine for B in each of the three workers (A is libro's own player).
    let pids = std::fs::read_to_string(dir.join("pids")).unwrap();
    assert_eq!(pids.lines().count(), 3, "{pids}");
}
