//! `libro uci` driven through a pipe, as a chess GUI drives it.

use libro_core::{Game, Ruleset, Turn};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::Duration;

struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

/// Long enough for any answer on a loaded machine; only a hung engine waits this long.
const PATIENCE: Duration = Duration::from_secs(60);

impl Engine {
    fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_libro"))
            .arg("uci")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("libro uci starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin,
            lines,
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// Lines up to and including the first that starts with `prefix`.
    fn until(&mut self, prefix: &str) -> Vec<String> {
        let mut seen = Vec::new();
        loop {
            match self.lines.recv_timeout(PATIENCE) {
                Ok(line) => {
                    let done = line.starts_with(prefix);
                    seen.push(line);
                    if done {
                        return seen;
                    }
                }
                Err(e) => panic!("no `{prefix}` line ({e:?}); got {seen:?}"),
            }
        }
    }

    fn quit(mut self) {
        self.send("quit");
        let status = self.child.wait().unwrap();
        assert!(status.success());
    }
}

#[test]
fn handshake_lists_variants_search_and_rule_options() {
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.until("uciok");
    let variant = lines
        .iter()
        .find(|l| l.starts_with("option name UCI_Variant"))
        .expect("UCI_Variant option");
    for v in ["acedrex", "forcado", "short-assize", "shatranj"] {
        assert!(variant.contains(&format!("var {v}")), "{variant}");
    }
    assert!(variant.contains("default acedrex"));
    assert!(
        !variant.contains("cuatro"),
        "four-player rulesets are not UCI variants: {variant}"
    );
    assert!(lines
        .iter()
        .any(|l| l.starts_with("option name Hash type spin")));
    assert!(lines
        .iter()
        .any(|l| l.starts_with("option name pawn_double_step type combo")));
    assert!(lines.iter().any(|l| l.starts_with("id name libro")));
    e.send("isready");
    e.until("readyok");
    e.quit();
}

#[test]
fn plays_a_full_game_against_itself_with_legal_moves() {
    let rules = match libro_catalog_rules("short-assize") {
        Some(r) => r,
        None => panic!("short-assize loads"),
    };
    let mut game = rules.new_game(0);
    let mut e = Engine::start();
    e.send("uci");
    e.until("uciok");
    e.send("setoption name UCI_Variant value short-assize");
    e.send("ucinewgame");
    let mut moves: Vec<String> = Vec::new();
    while game.turn() != Turn::Over {
        e.send(&format!("position startpos moves {}", moves.join(" ")));
        e.send("go depth 2");
        let lines = e.until("bestmove");
        let best = lines
            .last()
            .unwrap()
            .split_whitespace()
            .nth(1)
            .unwrap()
            .to_string();
        assert!(
            lines.iter().any(|l| l.starts_with("info depth")),
            "{lines:?}"
        );
        referee(&mut game, &mut moves, best);
    }
    assert!(game.result().is_some());
    // Asking for a move in a finished game gets an answer, not a hang.
    e.send(&format!("position startpos moves {}", moves.join(" ")));
    e.send("go depth 1");
    assert_eq!(e.until("bestmove").last().unwrap(), "bestmove (none)");
    e.quit();
}

#[test]
fn two_engine_processes_at_different_levels_play_a_full_game() {
    // White is a libro at Skill Level 3, Black a second libro process at full strength,
    // refereed here as a match runner would: each move is checked against the rules.
    let rules = libro_catalog_rules("shatranj").unwrap();
    let mut game = rules.new_game(0);
    let mut engines = [Engine::start(), Engine::start()];
    for (e, level) in engines.iter_mut().zip(["3", "8"]) {
        e.send("uci");
        e.until("uciok");
        e.send("setoption name UCI_Variant value shatranj");
        e.send(&format!("setoption name Skill Level value {level}"));
        e.send("ucinewgame");
        e.send("isready");
        e.until("readyok");
    }
    let mut moves: Vec<String> = Vec::new();
    while game.turn() != Turn::Over {
        let e = &mut engines[moves.len() % 2];
        e.send(&format!("position startpos moves {}", moves.join(" ")));
        e.send("go nodes 3000");
        let best = e
            .until("bestmove")
            .last()
            .unwrap()
            .split_whitespace()
            .nth(1)
            .unwrap()
            .to_string();
        referee(&mut game, &mut moves, best);
    }
    let result = game.result().expect("a finished game has a result");
    eprintln!(
        "{} plies, {:?}: {}",
        moves.len(),
        result.reason,
        moves.join(" ")
    );
    for e in engines {
        e.quit();
    }
}

#[test]
fn stop_ends_an_infinite_search_with_a_bestmove() {
    let mut e = Engine::start();
    e.send("position startpos moves e2e3");
    e.send("go infinite");
    // An infinite search must not answer on its own.
    match e.lines.recv_timeout(Duration::from_millis(300)) {
        Ok(line) => assert!(
            !line.starts_with("bestmove"),
            "answered before stop: {line}"
        ),
        Err(RecvTimeoutError::Timeout) => {}
        Err(other) => panic!("{other:?}"),
    }
    e.send("stop");
    let best = e.until("bestmove");
    let mv = best.last().unwrap().split_whitespace().nth(1).unwrap();
    let rules = libro_catalog_rules("acedrex").unwrap();
    let mut game = rules.new_game(0);
    libro_core::play_text(&mut game, "e2e3").unwrap();
    assert!(game.parse_move(mv).is_ok(), "{mv} is legal for Black");
    e.quit();
}

#[test]
fn malformed_input_gets_info_string_and_the_engine_carries_on() {
    let mut e = Engine::start();
    for bad in [
        "go depth x",
        "position fen this-is-not-a-position",
        "position startpos moves e2e5",
        "setoption name Hash value -3",
        "setoption name UCI_Variant value chaturanga",
        "setoption name pawn_double_step value sometimes",
        "frobnicate",
    ] {
        e.send(bad);
        let lines = e.until("info string");
        assert!(
            lines.last().unwrap().len() > "info string ".len(),
            "`{bad}` got an empty explanation"
        );
    }
    e.send("isready");
    e.until("readyok");
    // The bad `position` left the start position in place: e2e4 is a legal double step.
    e.send("position startpos moves e2e4");
    e.send("go depth 1");
    let best = e.until("bestmove");
    assert!(!best.last().unwrap().contains("(none)"));
    e.quit();
}

fn libro_catalog_rules(name: &str) -> Option<std::sync::Arc<libro_chess::ChessRules>> {
    let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join(format!("../../rulesets/{name}.toml"));
    let text = std::fs::read_to_string(&path).ok()?;
    libro_chess::ChessRules::from_toml(&text, name, &[])
        .ok()
        .map(std::sync::Arc::new)
}

/// Plays an engine's `bestmove` in the referee's own game, failing if the rules refuse it.
fn referee(game: &mut libro_chess::ChessGame, moves: &mut Vec<String>, best: String) {
    let mv = game
        .parse_move(&best)
        .unwrap_or_else(|err| panic!("bestmove {best} is illegal after {moves:?}: {err}"));
    game.play(mv);
    moves.push(best);
    assert!(
        moves.len() <= 2000,
        "the rulesets' draw rules end every game long before this"
    );
}
