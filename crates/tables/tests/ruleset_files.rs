//! Ruleset files: the shipped Fallas loads with its options, and bad files are refused with
//! the file, the line and the reason.

mod common;

use common::*;
use libro_core::Ruleset;
use libro_tables::{BearOff, RulesetError, TablesRules};

fn load(text: &str) -> Result<TablesRules, RulesetError> {
    TablesRules::from_toml(text, "bad.toml", &[])
}

/// The shipped file with `from` replaced by `to` (which must occur).
fn edited(from: &str, to: &str) -> String {
    let text = fallas_text();
    assert!(text.contains(from), "the shipped file has no `{from}`");
    text.replacen(from, to, 1)
}

/// The 1-based line of the first occurrence of `needle` in `text`.
fn line_of(text: &str, needle: &str) -> usize {
    text[..text.find(needle).unwrap()].matches('\n').count() + 1
}

fn expect_error(text: &str, needle: &str, reason: &str) {
    let err = load(text).map(|_| ()).unwrap_err();
    let line = line_of(text, needle);
    let msg = err.to_string();
    assert!(
        msg.starts_with(&format!("bad.toml:{line}: ")),
        "expected line {line} (`{needle}`), got: {msg}"
    );
    assert!(msg.contains(reason), "expected `{reason}` in: {msg}");
}

#[test]
fn the_shipped_fallas_loads_with_its_rules() {
    let rules = fallas();
    assert_eq!(rules.name(), "fallas");
    assert_eq!(rules.title(), "Fallas");
    assert_eq!(rules.seat_names(), ["white", "black"]);
    assert_eq!(rules.dice(), (3, 6));
    assert!(rules.falla());
    assert_eq!(rules.checkers(), 15);
    assert_eq!(rules.bear_off(), BearOff::Standard);
    // The paths run in opposite directions: white's point 24 is board point 24, black's is 1.
    assert_eq!(
        (rules.board_point(0, 24), rules.board_point(1, 24)),
        (24, 1)
    );
    let options = rules.options();
    assert_eq!(options.len(), 1);
    let bear_off = &options[0];
    assert_eq!(
        (bear_off.name, bear_off.value.as_str()),
        ("bear_off", "standard")
    );
    assert_eq!(bear_off.allowed, ["standard", "exact"]);
    assert!(bear_off.source.contains("RULES.md"));
    assert!(!bear_off.explanation.is_empty());
}

#[test]
fn options_are_overridden_by_name() {
    let exact = fallas_with(&[("bear_off", "exact")]);
    assert_eq!(exact.bear_off(), BearOff::Exact);
    assert_eq!(exact.options()[0].value, "exact");
    let o = |k: &str, v: &str| vec![(k.to_string(), v.to_string())];
    let e = TablesRules::from_toml(
        &fallas_text(),
        "rulesets/fallas.toml",
        &o("bear_off", "sideways"),
    )
    .unwrap_err();
    assert!(matches!(e, RulesetError::Override { .. }));
    assert!(
        e.to_string().contains("allowed values are standard, exact"),
        "{e}"
    );
    let e = TablesRules::from_toml(&fallas_text(), "rulesets/fallas.toml", &o("doubling", "on"))
        .unwrap_err();
    assert!(
        e.to_string()
            .contains("no such option; tables options are: bear_off"),
        "{e}"
    );
}

#[test]
fn bad_files_name_the_line_and_the_reason() {
    expect_error(
        &edited("count = 3", "count = 4"),
        "count = 4",
        "a turn rolls 1 to 3 dice",
    );
    expect_error(
        &edited("sides = 6", "sides = 12"),
        "sides = 12",
        "dice have 2 to 9 sides",
    );
    expect_error(
        &edited("points = 24", "points = 30"),
        "points = 30",
        "24 points",
    );
    expect_error(&edited("home = 6", "home = 0"), "home = 0", "home table");
    expect_error(
        &edited("checkers = 15", "checkers = 16"),
        "checkers = 16",
        "1 to 15 checkers",
    );
    expect_error(
        &edited("black = \"1-24\"", "black = \"1-23\""),
        "black = \"1-23\"",
        "path of `black`: the path lists 23 points",
    );
    expect_error(
        &edited("white = \"24-1\"", "white = \"24-1, 3\""),
        "white = \"24-1, 3\"",
        "lists 25 points",
    );
    expect_error(
        &edited("black = \"1-24\"", "red = \"1-24\""),
        "red = \"1-24\"",
        "a path for `red`, which is not a seat",
    );
    expect_error(
        &edited("6 = 13", "6 = 12"),
        "[setup]",
        "the setup places 14 checkers per player, but each has 15",
    );
    expect_error(
        &edited("6 = 13", "6 = 13\n30 = 0"),
        "30 = 0",
        "setup key `30` is not a point",
    );
    expect_error(
        &edited("6 = 13\n24 = 2", "6 = 13\n19 = 2"),
        "[setup]",
        "both players on board point",
    );
    expect_error(
        &edited("value = \"standard\"", "value = \"sometimes\""),
        "value = \"sometimes\"",
        "allowed values are standard, exact",
    );
    expect_error(
        &edited("[options.bear_off]", "[options.doubling]"),
        "[options.doubling]",
        "unknown option `doubling`",
    );
    expect_error(
        &edited("family = \"tables\"", "family = \"chess\""),
        "family = \"chess\"",
        "this is a tables ruleset",
    );
    expect_error(
        &edited("seats = [\"white\", \"black\"]", "seats = [\"white\"]"),
        "seats = [\"white\"]",
        "two seats, not 1",
    );
    expect_error(
        &edited(
            "seats = [\"white\", \"black\"]",
            "seats = [\"white\", \"white\"]",
        ),
        "seats = [",
        "both seats are called `white`",
    );
    expect_error(
        &edited(
            "seats = [\"white\", \"black\"]",
            "seats = [\"white\", \"roll\"]",
        ),
        "seats = [",
        "phase word",
    );
}

#[test]
fn toml_and_schema_errors_name_the_line() {
    // Not TOML: an unterminated string on the `title` line.
    let text = edited("title = \"Fallas\"", "title = \"Fallas");
    let e = load(&text).unwrap_err();
    assert!(matches!(e, RulesetError::Syntax { line: 3, .. }), "{e}");
    // An unknown key.
    let text = edited("hitting = true", "hitting = true\nbackgammons = true");
    let e = load(&text).unwrap_err();
    assert!(matches!(e, RulesetError::Syntax { .. }), "{e}");
    assert!(
        e.to_string()
            .starts_with(&format!("bad.toml:{}:", line_of(&text, "backgammons"))),
        "{e}"
    );
    assert!(e.to_string().contains("backgammons"), "{e}");
    // A missing key: the dice have no `falla`.
    let e = load(&edited("falla = true", "")).unwrap_err();
    assert!(e.to_string().contains("falla"), "{e}");
    // A value of the wrong type.
    let text = edited("hitting = true", "hitting = \"yes\"");
    let e = load(&text).unwrap_err();
    assert!(
        e.to_string().starts_with(&format!(
            "bad.toml:{}:",
            line_of(&text, "hitting = \"yes\"")
        )),
        "{e}"
    );
}

#[test]
fn a_different_tables_game_loads_from_a_file() {
    // Not a game of the Libro, just the family's reach: the backgammon setup with two dice,
    // exact bearing off, no falla, no hitting (any opposing checker closes a point), the bar
    // not forced first, and a path written in two ranges.
    let text = r#"
family = "tables"
name = "two-dice"
title = "Two dice"
source = "a test of the family's reach"
seats = ["north", "south"]
checkers = 15
[board]
points = 24
home = 6
[paths]
north = "1-12, 13-24"
south = "24-1"
[setup]
24 = 2
13 = 5
8 = 3
6 = 5
[dice]
count = 2
sides = 6
falla = false
[contact]
hitting = false
enter_first = false
[options.bear_off]
value = "exact"
source = "test"
"#;
    let rules = std::sync::Arc::new(load(text).unwrap());
    assert_eq!(rules.rolls().len(), 21, "two dice: 21 unordered rolls");
    assert_eq!(rules.seat_names(), ["north", "south"]);
    // north's path "1-12, 13-24" lists board point 1 first, so north's own 24 is board 1.
    assert_eq!(rules.board_point(0, 24), 1);
    assert_eq!(rules.board_point(1, 24), 24);
    let game = rules.new_game(3);
    assert_eq!(
        game.to_string(),
        "4HPwATDgc/ABMA:roll-off",
        "the backgammon start"
    );
    let config = libro_core::conformance::PlayoutConfig {
        games: 10,
        seed: 5,
        max_plies: 20_000,
        notation_every: 1,
    };
    libro_core::conformance::random_playouts(&rules, &config).unwrap_or_else(|v| panic!("{v}"));
}

#[test]
fn paths_that_are_not_mirror_images_play_too() {
    // Black's path starts on board point 12, runs down to 1, jumps to 24 and runs down to
    // 13: black's own 24 is board 12 and its own 1 is board 13, so the two paths are not
    // 25 − p of each other. White's 6 (board 6) and 24 (board 24) and black's 6 (board 18)
    // and 24 (board 12) do not meet.
    let text = edited("black = \"1-24\"", "black = \"12-1, 24-13\"");
    let rules = std::sync::Arc::new(load(&text).unwrap());
    assert_eq!(
        (
            rules.board_point(1, 24),
            rules.board_point(1, 1),
            rules.board_point(1, 6)
        ),
        (12, 13, 18)
    );
    let config = libro_core::conformance::PlayoutConfig {
        games: 20,
        seed: 9,
        max_plies: 20_000,
        notation_every: 1,
    };
    libro_core::conformance::random_playouts(&rules, &config).unwrap_or_else(|v| panic!("{v}"));
}
