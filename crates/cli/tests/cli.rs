//! The `libro` commands end to end: expected figures come from tests/reference (Ludii,
//! Fairy-Stockfish) and from the rules, never from libro's own output.

use std::path::PathBuf;
use std::process::{Command, Output};

fn libro(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_libro"))
        .args(args)
        .output()
        .expect("libro runs")
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn reference(path: &str) -> String {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/reference")
        .join(path);
    p.to_str().unwrap().to_string()
}

fn json_last_line(out: &Output) -> serde_json::Value {
    let text = stdout(out);
    let last = text.lines().last().expect("some output");
    serde_json::from_str(last).unwrap_or_else(|e| panic!("last line `{last}` is not JSON: {e}"))
}

#[test]
fn rulesets_lists_every_shipped_ruleset_with_its_source() {
    let out = libro(&["rulesets"]);
    assert!(out.status.success());
    let text = stdout(&out);
    for name in [
        "acedrex",
        "forcado",
        "short-assize",
        "shatranj",
        "acedrex-ludii",
        "forcado-ludii",
        "short-assize-ludii",
        "fallas",
    ] {
        let line = text
            .lines()
            .find(|l| l.split_whitespace().next() == Some(name))
            .unwrap_or_else(|| panic!("`{name}` missing from:\n{text}"));
        assert!(line.contains('—'), "`{line}` gives no source");
    }
}

#[test]
fn perft_json_ends_with_nodes_seconds_and_nps() {
    // Fairy-Stockfish, shatranj start position, depth 3: 4176.
    let out = libro(&["perft", "shatranj", "3", "--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = json_last_line(&out);
    assert_eq!(v["nodes"], 4176);
    assert!(v["seconds"].is_number() && v["nps"].is_number());
}

#[test]
fn perft_takes_option_overrides_moves_and_divide() {
    // Fairy-Stockfish acedrex (double step on every first move), depth 3: 19230.
    let out = libro(&[
        "perft",
        "acedrex",
        "3",
        "--option",
        "pawn_double_step=first-move",
        "--json",
    ]);
    assert_eq!(json_last_line(&out)["nodes"], 19230);
    // Fairy-Stockfish shortassize after 1.e3-e4 e6-e5 (exact rows), depth 3: 7610.
    let out = libro(&[
        "perft",
        "short-assize",
        "3",
        "--moves",
        "e3e4 e6e5",
        "--json",
    ]);
    assert_eq!(json_last_line(&out)["nodes"], 7610);
    // Ludii, Short Assize start, depth 1: 21 first moves, so --divide lists 21 of them.
    let out = libro(&["perft", "short-assize-ludii", "2", "--divide"]);
    let text = stdout(&out);
    let divided: Vec<&str> = text.lines().filter(|l| l.contains(": ")).collect();
    assert_eq!(divided.len(), 21, "{text}");
    assert!(text.contains("nodes 441"), "Ludii depth 2 is 441:\n{text}");
}

#[test]
fn perft_rejects_bad_input_with_a_reason() {
    let out = libro(&["perft", "acedrex", "2", "--moves", "e2e9"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("e2e9"));
    let out = libro(&[
        "perft",
        "acedrex",
        "2",
        "--option",
        "pawn_double_step=sometimes",
    ]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("sometimes"));
    let out = libro(&["perft", "no-such-game", "2"]);
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("acedrex"),
        "the error lists the known rulesets"
    );
}

#[test]
fn conformance_ludii_replays_short_assize_with_no_mismatch() {
    let file = reference("ludii/short-assize.jsonl");
    let out = libro(&[
        "conformance",
        "ludii",
        &file,
        "--ruleset",
        "short-assize-ludii",
    ]);
    let text = stdout(&out);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("games 50"), "{text}");
    assert!(text.contains("mismatches 0"), "{text}");
}

#[test]
fn conformance_ludii_fails_under_the_wrong_reading() {
    // Under the rules of record Short Assize's fers starts on e3, not on Ludii's d3: Ludii's
    // games move that fers off d3 (`lf:1`), which is no legal move here, so the replay fails.
    let file = reference("ludii/short-assize.jsonl");
    let out = libro(&["conformance", "ludii", &file, "--ruleset", "short-assize"]);
    assert!(!out.status.success());
    assert!(stdout(&out).contains("mismatch"));
}

#[test]
fn moves_says_the_start_roll_5_5_5_is_a_falla() {
    // Every 5 from the start is blocked: 6->1 and 24->19 both land on the opponent's
    // 13- and 2-checker points (RULES.md; issue 5).
    let out = libro(&[
        "moves",
        "fallas",
        "--position",
        "4P8DADDg/wMAMA",
        "--dice",
        "5-5-5",
        "--json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = json_last_line(&out);
    assert_eq!(v["plays"], 0);
    assert_eq!(v["falla"], true);
}

#[test]
fn moves_all_rolls_gives_a_probability() {
    let out = libro(&[
        "moves",
        "fallas",
        "--position",
        "4P8DADDg/wMAMA",
        "--all-rolls",
        "--json",
    ]);
    let v = json_last_line(&out);
    let p = v["falla_probability"].as_f64().unwrap();
    // 5-5-5 alone is a falla (1/216), and not every roll is one.
    assert!((1.0 / 216.0..1.0).contains(&p), "{p}");
    assert_eq!(
        stdout(&out).lines().count(),
        56 + 1,
        "one line per unordered roll, then the summary"
    );
}

#[test]
fn rulesets_check_names_the_file_line_and_problem() {
    let dir = std::env::temp_dir().join(format!("libro-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("good.toml");
    let shipped = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../rulesets/forcado.toml");
    let text = std::fs::read_to_string(shipped).unwrap();
    std::fs::write(&good, &text).unwrap();
    let out = libro(&["rulesets", "--check", good.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stdout(&out));

    let bad = dir.join("bad.toml");
    std::fs::write(&bad, format!("no_such_rule = true\n{text}")).unwrap();
    let out = libro(&["rulesets", "--check", bad.to_str().unwrap()]);
    assert!(!out.status.success());
    let msg = stdout(&out);
    assert!(
        msg.contains("bad.toml") && msg.contains("no_such_rule"),
        "{msg}"
    );
    assert!(
        msg.contains("bad.toml:1") || msg.contains("line 1"),
        "expected line 1 in: {msg}"
    );
}

#[test]
fn rulesets_name_explains_each_option_with_its_source() {
    let out = libro(&["rulesets", "acedrex"]);
    assert!(out.status.success());
    let text = stdout(&out);
    // The four readings RULES.md names for Acedrex, each with its values and a source.
    for option in ["fers_leap", "pawn_double_step", "promotion", "stalemate"] {
        let line = text
            .lines()
            .find(|l| l.trim_start().starts_with(option))
            .unwrap_or_else(|| panic!("{option} missing:\n{text}"));
        assert!(line.contains('|'), "`{line}` lists no allowed values");
    }
    assert!(
        text.contains("seed 004") || text.contains("RULES.md"),
        "{text}"
    );
}

#[test]
fn four_player_perft_starts_after_the_bets_as_ludii_counts() {
    // tests/reference/ludii/perft.md: 7, 49, 343, 2401 after the four bets.
    for (depth, nodes) in [("1", 7), ("2", 49), ("3", 343), ("4", 2401)] {
        let out = libro(&["perft", "cuatro-tiempos-ludii", depth, "--json"]);
        assert_eq!(json_last_line(&out)["nodes"], nodes, "depth {depth}");
    }
}

/// Settings and inputs that once aborted, hung or panicked the CLI end at once with exit code
/// 2 and a message naming the bound or the fault.
#[test]
fn out_of_bound_inputs_end_with_a_clear_error() {
    let cases: [(&[&str], &str); 5] = [
        (&["perft", "acedrex", "100"], "0..=10"),
        (
            &["rulesets", "--check", "/dev/zero"],
            "larger than 1048576 bytes",
        ),
        (
            &[
                "match",
                "acedrex",
                "--a",
                "ai:hash=65536",
                "--b",
                "random",
                "--games",
                "1",
            ],
            "at most 4096",
        ),
        (
            &[
                "match",
                "acedrex",
                "--a",
                "ai:movetime=99999999999",
                "--b",
                "random",
                "--games",
                "1",
            ],
            "at most 3600000",
        ),
        (
            &[
                "perft",
                "acedrex",
                "1",
                "--fen",
                "rnafkanr/pppppppp/8/8/8/8/PPPPPPPP/RNAFKANR w -é - 0 1",
            ],
            "unmoved field",
        ),
    ];
    for (args, expected) in cases {
        let out = libro(args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(expected), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
fn bench_searches_every_position_and_its_node_count_is_a_signature() {
    // Every line of the position set loads, reaches its position and is searched.
    let all = libro(&["bench", "--depth", "1"]);
    assert!(
        all.status.success(),
        "{}",
        String::from_utf8_lossy(&all.stderr)
    );
    let text = stdout(&all);
    for game in [
        "shatranj",
        "acedrex",
        "forcado",
        "short-assize",
        "cuatro-tiempos",
        "fallas",
    ] {
        assert!(
            text.lines().any(|l| l.starts_with(game)),
            "no {game} line in\n{text}"
        );
    }
    // The total is the sum of the positions' counts, and the same search gives the same
    // count again: fresh tables for every position, nothing carried over or timed.
    let run = || {
        let out = libro(&["bench", "shatranj", "--depth", "5", "--json"]);
        assert!(out.status.success());
        let per_position: u64 = stdout(&out)
            .lines()
            .filter(|l| l.starts_with("shatranj"))
            .map(|l| {
                let words: Vec<&str> = l.split_whitespace().collect();
                let at = words.iter().position(|&w| w == "nodes").expect("nodes");
                words[at + 1].parse::<u64>().expect("a count")
            })
            .sum();
        let total = json_last_line(&out)["nodes"].as_u64().expect("nodes");
        assert_eq!(per_position, total);
        total
    };
    let first = run();
    assert!(first > 0);
    assert_eq!(first, run());
    // A deeper search visits more positions.
    let deeper = libro(&["bench", "shatranj", "--depth", "6", "--json"]);
    assert!(json_last_line(&deeper)["nodes"].as_u64().expect("nodes") > first);
}

#[test]
fn bench_names_what_it_cannot_do() {
    let unknown = libro(&["bench", "chaturanga"]);
    assert!(!unknown.status.success());
    assert!(
        String::from_utf8_lossy(&unknown.stderr).contains("no bench positions for `chaturanga`")
    );
    for depth in ["0", "31", "x"] {
        let out = libro(&["bench", "--depth", depth]);
        assert!(!out.status.success(), "--depth {depth} accepted");
    }
}
