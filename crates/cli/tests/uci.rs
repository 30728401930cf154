//! `libro uci` driven through a pipe, as a chess GUI drives it.

use libro_core::{EndReason, Game, Ruleset, Turn};
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
    let rules = match libro_registry_rules("short-assize") {
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
    let result = game.result().expect("a finished game has a result");
    // Asking for a move in a finished game gets an answer, not a hang: none after a decisive
    // end, and a move after libro's own draw rules, which the GUI's referee decides.
    e.send(&format!("position startpos moves {}", moves.join(" ")));
    e.send("go depth 1");
    let answer = e.until("bestmove").last().unwrap().clone();
    match result.reason {
        EndReason::Repetition | EndReason::NoProgress | EndReason::MoveLimit => {
            assert_ne!(answer, "bestmove (none)", "{:?}", result.reason)
        }
        _ => assert_eq!(answer, "bestmove (none)", "{:?}", result.reason),
    }
    e.quit();
}

#[test]
fn two_engine_processes_at_different_levels_play_a_full_game() {
    // White is a libro at Skill Level 3, Black a second libro process at full strength,
    // refereed here as a match runner would: each move is checked against the rules.
    let rules = libro_registry_rules("shatranj").unwrap();
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

impl Engine {
    /// Fails if a `bestmove` comes within `wait` (a search that must wait for the GUI).
    fn no_bestmove_within(&mut self, wait: Duration) {
        let until = std::time::Instant::now() + wait;
        while let Some(left) = until.checked_duration_since(std::time::Instant::now()) {
            match self.lines.recv_timeout(left) {
                Ok(line) => assert!(!line.starts_with("bestmove"), "answered early: {line}"),
                Err(RecvTimeoutError::Timeout) => return,
                Err(other) => panic!("{other:?}"),
            }
        }
    }
}

#[test]
fn stop_ends_an_infinite_search_with_a_bestmove() {
    let mut e = Engine::start();
    e.send("position startpos moves e2e3");
    e.send("go infinite");
    e.no_bestmove_within(Duration::from_millis(300));
    e.send("stop");
    let best = bestmove(&e.until("bestmove"));
    assert!(legal_in_acedrex("e2e3", &best), "{best} is legal for Black");
    e.quit();
}

#[test]
fn ponderhit_ends_a_ponder_search_with_a_bestmove() {
    let mut e = Engine::start();
    // Pondering on Black's e7e6 after White's e2e3: the search is of the position after both.
    e.send("position startpos moves e2e3 e7e6");
    e.send("go ponder wtime 10000 btime 10000");
    e.no_bestmove_within(Duration::from_millis(300));
    e.send("ponderhit");
    let best = bestmove(&e.until("bestmove"));
    assert!(
        legal_in_acedrex("e2e3 e7e6", &best),
        "{best} is legal for White"
    );
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
    // A good position after the bad ones is searched: e2e4 is a legal double step.
    e.send("position startpos moves e2e4");
    e.send("go depth 1");
    let best = e.until("bestmove");
    assert!(!best.last().unwrap().contains("(none)"));
    e.quit();
}

#[test]
fn option_names_are_read_whatever_their_case_and_unknown_ones_are_named() {
    let mut e = Engine::start();
    // UCI option names are not case sensitive: the double step switched off as `uci` lists
    // it or in capitals alike, so e2e4 is then no move of acedrex.
    for line in [
        "setoption name pawn_double_step value none",
        "setoption name PAWN_DOUBLE_STEP value none",
    ] {
        e.send(line);
        e.send("position startpos moves e2e4");
        let lines = e.until("info string position not set");
        assert!(lines.last().unwrap().contains("e2e4"), "{line}: {lines:?}");
        e.send("setoption name Pawn_Double_Step value until-first-capture");
        e.send("position startpos moves e2e4");
        e.send("d");
        let shown = e.until("info string position");
        assert!(
            shown.last().unwrap().contains("/8/4P3/8/PPPP1PPP/"),
            "{line}: the double step is back: {shown:?}"
        );
    }
    // An option libro does not have (GUIs often send Threads) is named, not misreported.
    e.send("setoption name Threads value 2");
    let lines = e.until("info string");
    assert!(
        lines.last().unwrap().contains("unknown option `Threads`"),
        "{lines:?}"
    );
    // The draws by length stay the GUI's in any case.
    e.send("setoption name Repetition value off");
    let lines = e.until("info string");
    assert!(
        lines.last().unwrap().contains("the GUI decides draws"),
        "{lines:?}"
    );
    e.quit();
}

/// The move a `bestmove` line names.
fn bestmove(lines: &[String]) -> String {
    let last = lines.last().unwrap();
    assert!(last.starts_with("bestmove "), "{lines:?}");
    last.split_whitespace().nth(1).unwrap().to_string()
}

/// The position the engine holds, as its `d` command reports it.
fn shown_position(e: &mut Engine) -> String {
    e.send("d");
    let line = e.until("info string position").last().unwrap().clone();
    line.trim_start_matches("info string position ").to_string()
}

#[test]
fn a_position_that_cannot_be_read_is_never_answered_with_a_move_of_another() {
    let mut e = Engine::start();
    e.send("position startpos moves e2e3 e7e6");
    for bad in [
        "position startpos moves e2e3 e7e6 zz",
        "position startpos moves e2e3 e7e6 e2e3",
        "position fen rnafkanr/pppppppp/8/8/8/8/PPPPPPPP/RNAFKANR w -é - 0 1",
        "position fen not-a-position",
        "position",
    ] {
        e.send(bad);
        let said = e.until("info string");
        assert!(
            said.last().unwrap().contains("position not set"),
            "{bad}: {said:?}"
        );
        e.send("go depth 1");
        let lines = e.until("bestmove");
        assert_eq!(bestmove(&lines), "(none)", "{bad}: {lines:?}");
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info string no position to search")),
            "{bad}: {lines:?}"
        );
    }
    // `ucinewgame` sets the start position again.
    e.send("ucinewgame");
    e.send("go depth 1");
    assert_ne!(bestmove(&e.until("bestmove")), "(none)");
    e.quit();
}

#[test]
fn promotions_are_read_and_written_with_the_letters_guis_use() {
    let mut e = Engine::start();
    e.send("setoption name UCI_Variant value shatranj");
    // White: king a1, pawn c7; Black: king e6, knight c3, rook h2. The rook holds a2 and b2
    // (nothing stands between), the knight a2 and b1, so the white king cannot move: the
    // promotion c7-c8 is the only move. Fairy-Stockfish and GUIs write it c7c8q (q is their
    // letter for the fers).
    let fen = "8/2P5/4k3/8/8/2n5/7r/K7 w - - 0 1";
    e.send(&format!("position fen {fen}"));
    e.send("go depth 3");
    let lines = e.until("bestmove");
    assert_eq!(bestmove(&lines), "c7c8q", "{lines:?}");
    // The same move as the GUI sends it back, and in libro's own notation.
    for promotion in ["c7c8q", "c7c8", "c7c8=F"] {
        e.send(&format!("position fen {fen} moves {promotion}"));
        assert_eq!(
            shown_position(&mut e),
            "2F5/8/4k3/8/8/2n5/7r/K7 b - - 0 1",
            "{promotion}"
        );
    }
    // A promotion to a piece the pawn does not become is refused.
    e.send(&format!("position fen {fen} moves c7c8r"));
    assert!(e
        .until("info string")
        .last()
        .unwrap()
        .contains("position not set"));
    // A FEN in the GUI's letters (b the alfil, q the fers): Fairy-Stockfish's shatranj start.
    e.send("position fen rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKQBNR w - - 0 1 moves e2e3");
    assert_eq!(
        shown_position(&mut e),
        "rnakfanr/pppppppp/8/8/8/4P3/PPPP1PPP/RNAKFANR b - - 0 1"
    );
    e.quit();
}

/// Fairy-Stockfish's acedrex (`variants.ini` of the strength benchmark) models the fers'
/// first-move leap as a piece of its own, `f` (`customPiece1 = f:FmAmD`), that becomes the
/// fers `q` when it first moves (`promotedPieceType = f:q`, written `+f` in its FENs); its
/// alfil is `b`; castling is off, so its third FEN field is `-`.
#[test]
fn acedrex_fens_are_read_as_fairy_stockfish_writes_them() {
    let mut e = Engine::start();
    e.send("setoption name UCI_Variant value acedrex");
    let cases = [
        // Its start position: both fers keep the leap (libro's unmoved field d1d8).
        (
            "rnbfkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBFKBNR w - - 0 1",
            "rnafkanr/pppppppp/8/8/8/8/PPPPPPPP/RNAFKANR w d1d8 - 0 1",
        ),
        // Both fers have moved (`+F`, `+f`): neither keeps a leap.
        (
            "r7/2+fppk2/1pnbbpp1/1N1n4/7P/P2BBNP1/2+FPPK2/1R6 w - - 5 25",
            "r7/2fppk2/1pnaapp1/1N1n4/7P/P2AANP1/2FPPK2/1R6 w - - 5 25",
        ),
        // A fers a pawn became (`Q`) has no leap; black's unmoved fers (`f`) has.
        (
            "3fk3/Q7/8/8/8/8/8/4K3 w - - 0 60",
            "3fk3/F7/8/8/8/8/8/4K3 w d8 - 0 60",
        ),
        // Nothing but kings and an unmoved fers: libro's letters too, but the GUI's reading
        // (the fers keeps its leap) is the one taken.
        (
            "4k3/8/8/8/8/8/8/3FK3 w - - 0 40",
            "4k3/8/8/8/8/8/8/3FK3 w d1 - 0 40",
        ),
        // libro's own FEN, with its unmoved field, is read as it is (white's fers has
        // moved and come back, black's has not).
        (
            "3fk3/8/8/8/8/8/8/3FK3 w d8 - 0 40",
            "3fk3/8/8/8/8/8/8/3FK3 w d8 - 0 40",
        ),
    ];
    for (fen, libro) in cases {
        e.send(&format!("position fen {fen}"));
        assert_eq!(shown_position(&mut e), libro, "{fen}");
    }
    e.send("position fen 4k3/8/8/8/8/8/8/3FK3 w d1 - 0 40 moves d1d3+");
    assert_eq!(shown_position(&mut e), "4k3/8/8/8/8/3F4/8/4K3 b - - 1 40");
    e.send("position fen 4k3/8/8/8/8/8/8/3FK3 w - - 0 40 moves d1d3+");
    assert_eq!(shown_position(&mut e), "4k3/8/8/8/8/3F4/8/4K3 b - - 1 40");
    // A moved fers does not leap.
    e.send("position fen 4k3/8/8/8/8/8/8/3+FK3 w - - 0 40 moves d1d3");
    assert!(e
        .until("info string")
        .last()
        .unwrap()
        .contains("position not set"));
    e.quit();
}

#[test]
fn play_goes_on_past_libros_own_draw_rules() {
    let mut e = Engine::start();
    e.send("setoption name UCI_Variant value shatranj");
    // The knights out and back twice: the start position stands for the third time, a draw
    // by libro's repetition rule, but the GUI's referee decides, so the engine moves.
    let dance = "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8";
    e.send(&format!("position startpos moves {dance}"));
    e.send("go depth 2");
    let best = bestmove(&e.until("bestmove"));
    let rules = libro_registry_rules("shatranj").unwrap();
    let start = rules.new_game(0);
    assert!(
        start.parse_move(&best).is_ok(),
        "{best} is not legal at the start"
    );
    // And a position well past shatranj's 140 plies without progress.
    e.send("position fen 4k3/8/8/8/8/8/r7/R3K3 w - - 300 200");
    e.send("go depth 2");
    let best = bestmove(&e.until("bestmove"));
    let played_on = libro_chess::ChessRules::from_toml(
        &std::fs::read_to_string(
            std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                .join("../../rulesets/shatranj.toml"),
        )
        .unwrap(),
        "shatranj",
        &[("no_progress_plies".to_string(), "0".to_string())],
    )
    .map(std::sync::Arc::new)
    .unwrap();
    let game = played_on
        .parse_position("4k3/8/8/8/8/8/r7/R3K3 w - - 300 200")
        .unwrap();
    assert!(game.parse_move(&best).is_ok(), "{best} is not legal there");
    // The draw rules the referee decides are not offered as options.
    e.send("uci");
    let lines = e.until("uciok");
    for hidden in ["repetition", "no_progress_plies", "max_plies"] {
        assert!(
            !lines
                .iter()
                .any(|l| l.starts_with(&format!("option name {hidden} "))),
            "{hidden} offered"
        );
    }
    e.quit();
}

#[test]
fn the_search_sees_the_draw_for_plies_without_progress_coming() {
    // As Fairy-Stockfish counts shatranj's 70 moves, libro's search counts the ruleset's
    // plies without progress under UCI too. White has two rooks and a pawn against a knight
    // and no capture: at 139 plies every move but h2h3 draws on the 140th, so White gives
    // the pawn to the knight (Nxh3) and keeps two rooks against nothing; with the count far
    // off it gives nothing away.
    let mut e = Engine::start();
    e.send("setoption name UCI_Variant value shatranj");
    let mut best_at = |clock: u32| {
        e.send(&format!(
            "position fen 4k3/8/8/6n1/8/8/7P/RR2K3 w - - {clock} 100"
        ));
        e.send("go nodes 20000");
        bestmove(&e.until("bestmove"))
    };
    assert_eq!(best_at(139), "h2h3");
    assert_ne!(best_at(20), "h2h3");
    e.quit();
}

fn libro_registry_rules(name: &str) -> Option<std::sync::Arc<libro_chess::ChessRules>> {
    let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join(format!("../../rulesets/{name}.toml"));
    let text = std::fs::read_to_string(&path).ok()?;
    libro_chess::ChessRules::from_toml(&text, name, &[])
        .ok()
        .map(std::sync::Arc::new)
}

/// Plays an engine's `bestmove` in the referee's own game, failing if the rules refuse it.
/// As a GUI does, it reads a promotion's trailing letter (`c7c8q`) by dropping it.
fn referee(game: &mut libro_chess::ChessGame, moves: &mut Vec<String>, best: String) {
    let mv = game
        .parse_move(&best)
        .or_else(|err| match best.strip_suffix(['q', 'f']) {
            Some(squares) if best.len() == 5 => game.parse_move(squares),
            _ => Err(err),
        })
        .unwrap_or_else(|err| panic!("bestmove {best} is illegal after {moves:?}: {err}"));
    game.play(mv);
    moves.push(best);
    assert!(
        moves.len() <= 2000,
        "the rulesets' draw rules end every game long before this"
    );
}

/// The static evaluation the engine reports (`eval`).
fn shown_evaluation(e: &mut Engine) -> String {
    e.send("eval");
    e.until("info string static evaluation")
        .last()
        .unwrap()
        .clone()
}

#[test]
fn the_network_is_switched_and_chosen_as_fairy_stockfish_gui_options_do() {
    let shipped = format!(
        "{}/../../rulesets/shatranj.nnue",
        env!("CARGO_MANIFEST_DIR")
    );
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.until("uciok");
    assert!(lines.contains(&"option name Use NNUE type check default true".to_string()));
    assert!(lines
        .iter()
        .any(|l| l.starts_with("option name EvalFile type string")));
    e.send("setoption name UCI_Variant value shatranj");
    e.until("info string variant");
    e.send("position startpos moves e2e3");
    assert!(
        shown_evaluation(&mut e).contains(", network "),
        "shatranj ships one"
    );
    e.send("setoption name Use NNUE value false");
    e.send("position startpos moves e2e3");
    assert!(shown_evaluation(&mut e).contains("no network"));
    e.send("setoption name Use NNUE value true");
    // A file that is not a network, one that is missing, one fitted for other rules: each
    // told, the engine carries on with what it had.
    let ruleset = format!(
        "{}/../../rulesets/shatranj.toml",
        env!("CARGO_MANIFEST_DIR")
    );
    for (file, says) in [
        (ruleset.as_str(), "not a libro network"),
        ("/no/such/file.nnue", "cannot read network file"),
    ] {
        e.send(&format!("setoption name EvalFile value {file}"));
        let line = e.until("info string").last().unwrap().clone();
        assert!(line.contains(file) && line.contains(says), "{line}");
    }
    e.send(&format!("setoption name EvalFile value {shipped}"));
    e.send("position startpos moves e2e3");
    assert!(shown_evaluation(&mut e).contains(", network "));
    e.send("go depth 2");
    assert!(!bestmove(&e.until("bestmove")).contains("none"));
    // Acedrex has other pieces: the file does not fit, the engine says so and plays acedrex
    // with the network shipped for it; short assize, which ships none, with the hand-written
    // evaluation.
    e.send("setoption name UCI_Variant value acedrex");
    let line = e.until("info string variant").join("\n");
    assert!(line.contains("does not fit acedrex"), "{line}");
    assert!(line.contains("playing with the shipped network"), "{line}");
    assert!(shown_evaluation(&mut e).contains(", network "));
    e.send("setoption name UCI_Variant value short-assize");
    let line = e.until("info string variant").join("\n");
    assert!(line.contains("does not fit short-assize"), "{line}");
    assert!(
        line.contains("playing with the hand-written evaluation"),
        "{line}"
    );
    assert!(shown_evaluation(&mut e).contains("no network"));
    e.quit();

    // A GUI sets the engine's options before the variant: a network for shatranj chosen
    // while acedrex is the variant counts once shatranj is. This one is told apart from the
    // shipped network by its value: every weight 0 but the output's bias, 1 (one output
    // unit, here 100 centipawns), so it adds +100 for the mover in every position.
    let rules = libro_registry_rules("shatranj").unwrap();
    let mut weights = vec![0f32; libro_chess::net::WEIGHTS];
    *weights.last_mut().unwrap() = 1.0;
    let constant = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("constant-{}.nnue", std::process::id()));
    let bytes =
        libro_chess::net::Network::encode(&rules, libro_chess::net::Mode::Added, 100.0, &weights);
    std::fs::write(&constant, &bytes).unwrap();
    // The engine names the network it plays by its file's SHA-256, as `sha256sum` does.
    let file_digest: String = {
        use sha2::{Digest, Sha256};
        Sha256::digest(&bytes)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    };
    let mut e = Engine::start();
    e.send(&format!(
        "setoption name EvalFile value {}",
        constant.display()
    ));
    let line = e.until("info string").last().unwrap().clone();
    assert!(line.contains("does not fit acedrex"), "{line}");
    e.send("setoption name UCI_Variant value shatranj");
    e.until("info string variant");
    // After e2e3 black moves: +100 for black is -100 for white.
    e.send("position startpos moves e2e3");
    let shown = shown_evaluation(&mut e);
    assert!(shown.contains("network -100)"), "{shown}");
    assert!(
        shown.contains(&format!("network file SHA-256 {file_digest}")),
        "{shown}"
    );
    e.send("setoption name Use NNUE value false");
    assert!(shown_evaluation(&mut e).contains("no network"));
    e.send("setoption name Use NNUE value true");
    e.send("position startpos");
    assert!(shown_evaluation(&mut e).contains("network 100)"));
    // Back to the shipped network.
    e.send("setoption name EvalFile value <shipped>");
    let shown = shown_evaluation(&mut e);
    assert!(!shown.contains("network 100)"), "{shown}");
    assert!(!shown.contains(&file_digest), "{shown}");
    e.quit();
    std::fs::remove_file(constant).unwrap();
}

/// Whether `mv` is a legal move of acedrex after `moves` (the engine's default variant).
fn legal_in_acedrex(moves: &str, mv: &str) -> bool {
    let rules = libro_registry_rules("acedrex").unwrap();
    let mut game = rules.new_game(0);
    for mv in moves.split_whitespace() {
        libro_core::play_text(&mut game, mv).unwrap();
    }
    game.parse_move(mv).is_ok()
}

#[test]
fn a_go_that_cannot_be_read_is_answered_at_once_with_no_move() {
    let mut e = Engine::start();
    e.send("position startpos");
    for bad in [
        "go depth x",
        "go depth -3",
        "go movetime soon",
        "go nodes",
        // Black's reply is not a move of the start position, where White moves.
        "go searchmoves e7e5 depth 3",
    ] {
        // A GUI waits for `bestmove` after every `go`: it comes, with the reason before it.
        e.send(bad);
        let lines = e.until("bestmove");
        assert_eq!(bestmove(&lines), "(none)", "{bad}: {lines:?}");
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info string") && l.contains("nothing searched")),
            "{bad}: {lines:?}"
        );
    }
    e.send("go depth 2");
    assert!(legal_in_acedrex("", &bestmove(&e.until("bestmove"))));
    e.quit();
}

#[test]
fn a_clock_run_over_as_guis_send_it_is_searched_and_answered() {
    // GUIs that allow engines a margin past their time (cutechess-cli's `timemargin`) then
    // send the clock as it stands: below zero. That is no time left, not an unreadable line.
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go wtime -150 btime 60000 winc -10 binc 0");
    let best = bestmove(&e.until("bestmove"));
    assert!(legal_in_acedrex("", &best), "{best}");
    e.send("position startpos moves e2e3");
    e.send("go wtime 60000 btime -1 movestogo 0");
    let best = bestmove(&e.until("bestmove"));
    assert!(legal_in_acedrex("e2e3", &best), "{best}");
    e.quit();
}

#[test]
fn a_clock_for_the_other_side_only_is_no_time_left_not_a_search_without_end() {
    // Black to move with only White's clock given: Stockfish moves at once; a search
    // without limit would leave the GUI waiting for a `bestmove` that never comes.
    let mut e = Engine::start();
    e.send("position startpos moves e2e3");
    e.send("go wtime 60000 winc 1000");
    let lines = e.until("bestmove");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string") && l.contains("no `btime`")),
        "{lines:?}"
    );
    assert!(legal_in_acedrex("e2e3", &bestmove(&lines)), "{lines:?}");
    e.quit();
}

#[test]
fn unknown_go_words_are_reported_and_the_search_still_answers() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go frobnicate 5 depth 2");
    let lines = e.until("bestmove");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string") && l.contains("`frobnicate` ignored")),
        "{lines:?}"
    );
    assert!(legal_in_acedrex("", &bestmove(&lines)), "{lines:?}");
    e.quit();
}

#[test]
fn searchmoves_limits_the_choice_to_the_moves_named() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go depth 3 searchmoves a2a3");
    assert_eq!(bestmove(&e.until("bestmove")), "a2a3");
    // Shatranj. White: king g6, rook b1, pawn h2; Black: king h8, pawn a7. Rb8 mates at
    // once (the rook holds the eighth rank, the king g6 holds f7, g7 and h7). Without
    // b1b8: after b1b7 Black's only moves are a7a6 and Kg8 (g7 and h7 are held), and Rb8
    // mates after either (from g8 the king has only f8 and h8, on the rook's rank).
    // After b1a1 the rook reaches neither the eighth rank (the a-pawn stands in the way)
    // nor a check next move: no mate in two. So among b1a1 and b1b7 the choice is b1b7. An
    // unreadable word among the moves is reported and skipped.
    e.send("setoption name UCI_Variant value shatranj");
    e.send("position fen 7k/p7/6K1/8/8/8/7P/1R6 w - - 0 1");
    e.send("go depth 5 searchmoves b1a1 zz b1b7");
    let lines = e.until("bestmove");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string searchmoves `zz`")),
        "{lines:?}"
    );
    assert_eq!(bestmove(&lines), "b1b7", "{lines:?}");
    e.quit();
}

#[test]
fn searchmoves_limits_the_weaker_levels_too() {
    // The weak levels err on purpose (noise, a random move now and then) and the middle
    // ones search a small budget: every level chooses among the moves named alone. Eight
    // positions per level, as a weak level's random choices follow the position.
    let mut e = Engine::start();
    let openings = [
        "",
        "e2e3",
        "e2e3 e7e6",
        "b1c3",
        "b1c3 b8c6",
        "g2g3",
        "g2g3 h7h6",
        "d2d3",
    ];
    for level in [1, 2, 3, 5] {
        e.send(&format!("setoption name Skill Level value {level}"));
        for opening in openings {
            let white = opening.split_whitespace().count() % 2 == 0;
            let named = if white {
                ["a2a3", "b2b3"]
            } else {
                ["a7a6", "b7b6"]
            };
            e.send(&format!("position startpos moves {opening}"));
            e.send(&format!(
                "go nodes 2000 searchmoves {} {}",
                named[0], named[1]
            ));
            let lines = e.until("bestmove");
            let best = bestmove(&lines);
            assert!(
                named.contains(&best.as_str()),
                "level {level} after `{opening}`: {lines:?}"
            );
        }
    }
    e.quit();
}

#[test]
fn an_empty_searchmoves_restricts_nothing() {
    // Stockfish reads `go searchmoves` with no move after it as no restriction.
    let mut e = Engine::start();
    e.send("position startpos moves e2e3");
    e.send("go searchmoves depth 2");
    let lines = e.until("bestmove");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string") && l.contains("names no move")),
        "{lines:?}"
    );
    assert!(legal_in_acedrex("e2e3", &bestmove(&lines)), "{lines:?}");
    e.quit();
}

#[test]
fn go_mate_stops_at_the_first_iteration_that_finds_a_mate_that_near() {
    let mut e = Engine::start();
    e.send("setoption name UCI_Variant value shatranj");
    // The position above: Rb8 mates in one. `go mate 1` has its answer after the first
    // iteration, where a search without it goes on to prove the mate two plies deeper.
    e.send("position fen 7k/p7/6K1/8/8/8/7P/1R6 w - - 0 1");
    e.send("go mate 1");
    let lines = e.until("bestmove");
    assert_eq!(bestmove(&lines), "b1b8", "{lines:?}");
    let infos: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    assert_eq!(infos.len(), 1, "{lines:?}");
    assert!(infos[0].starts_with("info depth 1 ") && infos[0].contains("score mate 1"));
    e.send("go depth 6");
    let deeper = e.until("bestmove");
    assert!(
        deeper
            .iter()
            .filter(|l| l.starts_with("info depth"))
            .count()
            > 1,
        "without `mate` the search went on: {deeper:?}"
    );
    e.quit();
}

#[test]
fn go_perft_counts_as_fairy_stockfish_does() {
    let mut e = Engine::start();
    e.send("setoption name UCI_Variant value shatranj");
    // Fairy-Stockfish's shatranj start (its FEN; king d1): 16 moves, 4,176 leaves three
    // plies deep (tests/reference/fsf/perft.md, Fairy-Stockfish c19b5f6 `go perft 3`).
    e.send("position fen rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKQBNR w - - 0 1");
    e.send("go perft 3");
    let lines = e.until("Nodes searched");
    assert_eq!(lines.last().unwrap(), "Nodes searched: 4176", "{lines:?}");
    let divided: Vec<(&str, u64)> = lines
        .iter()
        .filter_map(|l| l.split_once(": "))
        .filter(|(mv, _)| !mv.contains(' '))
        .map(|(mv, n)| (mv, n.parse().unwrap()))
        .collect();
    assert_eq!(divided.len(), 16, "{lines:?}");
    assert_eq!(divided.iter().map(|(_, n)| n).sum::<u64>(), 4176);
    assert!(divided.iter().any(|&(mv, n)| mv == "g1f3" && n > 0));
    // Deeper than `libro perft` goes is refused, and the engine carries on.
    e.send("go perft 11");
    assert!(e
        .until("info string")
        .last()
        .unwrap()
        .contains("at most 10"));
    e.send("go perft 0");
    assert_eq!(
        e.until("Nodes searched").last().unwrap(),
        "Nodes searched: 1"
    );
    e.quit();
}
