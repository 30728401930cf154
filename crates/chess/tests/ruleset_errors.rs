//! Bad ruleset files and bad `--option` overrides are refused with the file, the line and
//! what is wrong. Each case edits the shipped acedrex.toml; the expected line is found in the
//! edited text itself.

mod common;

use libro_chess::{ChessRules, RulesetError};

fn acedrex() -> String {
    std::fs::read_to_string(format!("{}/acedrex.toml", common::RULESETS)).expect("acedrex.toml")
}

/// The 1-based line of the first line containing `needle`.
fn line_of(text: &str, needle: &str) -> usize {
    text.lines()
        .position(|l| l.contains(needle))
        .unwrap_or_else(|| panic!("`{needle}` not in the text"))
        + 1
}

fn load(text: &str, overrides: &[(&str, &str)]) -> RulesetError {
    let overrides: Vec<(String, String)> = overrides
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    ChessRules::from_toml(text, "mine.toml", &overrides).expect_err("the file must be refused")
}

#[test]
fn unknown_key() {
    let text = acedrex().replace("ranks = 8", "ranks = 8\ncastling = true");
    let e = load(&text, &[]);
    assert_eq!(
        (e.file.as_str(), e.line),
        ("mine.toml", Some(line_of(&text, "castling"))),
        "{e}"
    );
    assert!(e.what.contains("unknown field `castling`"), "{e}");
    assert!(
        e.to_string()
            .starts_with(&format!("mine.toml:{}:", line_of(&text, "castling"))),
        "{e}"
    );
}

#[test]
fn unknown_rule() {
    let text = acedrex().replace(
        "[rules]",
        "[rules]\ncastling = { value = true, from = \"nowhere\" }",
    );
    let e = load(&text, &[]);
    assert_eq!(e.line, Some(line_of(&text, "castling")), "{e}");
    assert!(e.what.contains("unknown rule `castling`"), "{e}");
}

#[test]
fn rule_without_source() {
    let text = acedrex().replace("[rules]", "[rules]\nmax_plies = 300");
    let e = load(&text, &[]);
    assert_eq!(e.line, Some(line_of(&text, "max_plies")), "{e}");
    assert!(
        e.what.contains("rule `max_plies`") && e.what.contains("value = ..., from = "),
        "the entry is named with the form it should take: {e}"
    );
    // A table with a field missing is named the same way.
    let text = acedrex().replace(
        "[rules]",
        "[rules]
max_plies = { value = 300 }",
    );
    let e = load(&text, &[]);
    assert_eq!(e.line, Some(line_of(&text, "max_plies")), "{e}");
    assert!(
        e.what.contains("rule `max_plies`") && e.what.contains("missing field `from`"),
        "{e}"
    );
}

#[test]
fn bad_betza() {
    let text = acedrex().replace(r#"betza = "F" }"#, r#"betza = "FX" }"#);
    let e = load(&text, &[]);
    assert_eq!(e.line, Some(line_of(&text, "\"FX\"")), "{e}");
    assert!(
        e.what.contains("piece `fers`") && e.what.contains("bad Betza `FX` at character 2"),
        "{e}"
    );
}

#[test]
fn impossible_setup_two_kings() {
    let text = acedrex().replace("Rh1 Pa2", "Rh1 Kd4 Pa2");
    let e = load(&text, &[]);
    assert_eq!(e.line, Some(line_of(&text, "Kd4")), "{e}");
    assert!(
        e.what.contains("impossible setup") && e.what.contains("2 kings"),
        "{e}"
    );
}

#[test]
fn impossible_setup_pawn_on_its_last_rank() {
    // Black's rook leaves a8 and a white pawn stands there.
    let text = acedrex()
        .replace("Ra8 Nb8", "Nb8")
        .replace("Rh1 Pa2", "Rh1 Pa8 Pa2");
    let e = load(&text, &[]);
    assert_eq!(e.line, Some(line_of(&text, "Pa8")), "{e}");
    assert!(
        e.what
            .contains("the pawn on a8 already stands on its last line"),
        "{e}"
    );
}

#[test]
fn impossible_setup_shared_by_two_seats() {
    let text = acedrex()
        .replace("Ph7\"", "Ph7 Pe4\"")
        .replace("Rh1 Pa2", "Rh1 Ne4 Pa2");
    let e = load(&text, &[]);
    assert!(e.what.contains("e4 holds pieces of two seats"), "{e}");
}

#[test]
fn impossible_setup_king_in_check() {
    let text = acedrex()
        .replace("Rh1 Pa2", "Rh1 Nd6 Pa2")
        .replace("Pd7 ", "")
        .replace("Nb8 ", "");
    let e = load(&text, &[]);
    assert!(e.what.contains("starts in check"), "{e}");
}

#[test]
fn board_size_not_supported() {
    let text = acedrex().replace("files = 8", "files = 17");
    let e = load(&text, &[]);
    assert_eq!(e.line, Some(line_of(&text, "[board]")), "{e}");
    assert!(
        e.what
            .contains("17x8 board: files and ranks must each be 1 to 16"),
        "{e}"
    );
    // Any size up to 16x16 loads; the setup must still fit on it.
    let wider = acedrex().replace("files = 8", "files = 10");
    assert!(ChessRules::from_toml(&wider, "mine.toml", &[]).is_ok());
    let narrower = acedrex().replace("files = 8", "files = 7");
    let e = load(&narrower, &[]);
    assert!(e.what.contains("is not a square of the board"), "{e}");
}

#[test]
fn wrong_family() {
    let text = acedrex().replace("family = \"chess\"", "family = \"tables\"");
    let e = load(&text, &[]);
    assert_eq!(e.line, Some(1), "{e}");
}

#[test]
fn unknown_option_override() {
    let e = load(&acedrex(), &[("castling", "true")]);
    assert_eq!(e.file, "--option");
    assert!(e.what.contains("unknown option `castling`"), "{e}");
}

#[test]
fn bad_option_value_override() {
    let e = load(&acedrex(), &[("pawn_double_step", "sometimes")]);
    assert!(
        e.what.contains("until-first-capture | first-move | none"),
        "{e}"
    );
}

#[test]
fn four_player_option_on_two_seats() {
    let e = load(&acedrex(), &[("capture", "any")]);
    assert!(e.what.contains("more than two seats"), "{e}");
}

#[test]
fn overrides_change_the_rules() {
    let text = acedrex();
    let r = ChessRules::from_toml(
        &text,
        "acedrex.toml",
        &[("pawn_double_step".into(), "first-move".into())],
    )
    .unwrap();
    let o = r
        .options()
        .into_iter()
        .find(|o| o.name == "pawn_double_step")
        .unwrap();
    assert_eq!(
        (o.value.as_str(), o.source.as_str()),
        ("first-move", "--option")
    );
    let leap = r
        .options()
        .into_iter()
        .find(|o| o.name == "fers_leap")
        .unwrap();
    assert!(leap.source.contains("seed 004"), "{leap:?}");
}

#[test]
fn uci_letter_must_be_one_upper_case_letter_of_its_own() {
    let text = acedrex().replace(r#"uci_letter = "Q""#, r#"uci_letter = "qq""#);
    let e = load(&text, &[]);
    assert_eq!(e.line, Some(line_of(&text, r#"uci_letter = "qq""#)), "{e}");
    assert!(
        e.what
            .contains("uci_letter `qq` must be one upper-case letter"),
        "{e}"
    );
    // The fil's UCI letter B given to the knight as well.
    let text = acedrex().replace(
        r#"knight = { letter = "N","#,
        r#"knight = { letter = "N", uci_letter = "B","#,
    );
    let e = load(&text, &[]);
    assert_eq!(
        e.line,
        Some(line_of(&text, r#"knight = { letter = "N", uci_letter"#)),
        "{e}"
    );
    assert!(e.what.contains("UCI letter `B` is used twice"), "{e}");
}

#[test]
fn errors_name_the_field() {
    let cases: [(&str, &str, &str); 8] = [
        (r#"betza = "F" }"#, r#"betza = "FX" }"#, "pieces.fers.betza"),
        (
            r#"uci_letter = "Q""#,
            r#"uci_letter = "qq""#,
            "pieces.fers.uci_letter",
        ),
        ("Rh1 Pa2", "Rh1 Kd4 Pa2", "setup.white"),
        ("[rules]", "[rules]\nmax_plies = 300", "rules.max_plies"),
        (
            r#"name = "black"
forward = "south""#,
            r#"name = "black"
forward = "down""#,
            "seats[1].forward",
        ),
        (
            r#"promotes_to = "fers""#,
            r#"promotes_to = "queen""#,
            "pieces.pawn.promotes_to",
        ),
        (
            r#"cannot_capture = ["fil"]"#,
            r#"cannot_capture = ["king"]"#,
            "pieces.fil.cannot_capture",
        ),
        (
            "fers_leap           = { value = \"straight-or-diagonal\"",
            "fers_leap           = { value = \"sometimes\"",
            "rules.fers_leap.value",
        ),
    ];
    for (from, to, field) in cases {
        let text = acedrex().replace(from, to);
        assert_ne!(text, acedrex(), "`{from}` is in acedrex.toml");
        let e = load(&text, &[]);
        assert_eq!(e.field.as_deref(), Some(field), "{e}");
        // The message names the field after the place: file, line, field, problem.
        assert!(
            e.to_string()
                .starts_with(&format!("mine.toml:{}: {field}: ", e.line.unwrap())),
            "{e}"
        );
    }
    // A piece promoting to a piece that promotes again: the first such piece's field.
    let text = acedrex().replace(
        r#"fers   = { letter = "F","#,
        r#"fers   = { promotes_to = "rook", letter = "F","#,
    );
    let e = load(&text, &[]);
    assert_eq!(e.field.as_deref(), Some("pieces.pawn.promotes_to"), "{e}");
    assert!(
        e.what.contains("promotes to a piece that promotes again"),
        "{e}"
    );
    // An override names the option and no line.
    let e = load(&acedrex(), &[("castling", "true")]);
    assert_eq!(
        (e.field.as_deref(), e.line),
        (Some("castling"), None),
        "{e}"
    );
    assert_eq!(
        e.to_string(),
        "--option: castling=true: unknown option `castling`"
    );
}

#[test]
fn a_reading_value_the_file_does_not_offer() {
    let path = format!("{}/grant-acedrex.toml", common::RULESETS);
    let text = std::fs::read_to_string(&path).expect("grant-acedrex.toml");
    let (_, after_value) = text.split_once("[readings.lion]").expect("a lion reading");
    let value_line = after_value
        .lines()
        .find(|l| l.starts_with("value"))
        .expect("its value");
    let bad = text.replacen(value_line, r#"value = "five-leaps""#, 1);
    let e = load(&bad, &[]);
    assert_eq!(e.field.as_deref(), Some("readings.lion.value"), "{e}");
    assert!(e.what.contains("`five-leaps` is not one of"), "{e}");
    // The same value given as an override is the override's error.
    let e = load(&text, &[("lion", "five-leaps")]);
    assert_eq!(
        (e.file.as_str(), e.field.as_deref()),
        ("--option", Some("lion")),
        "{e}"
    );
}
