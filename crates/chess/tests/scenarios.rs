//! Rule scenarios written from RULES.md (and checked by hand), kept as data files in
//! `tests/scenarios/*.toml`. Each scenario sets up a position (a position string, or moves
//! from the start), checks the legal moves, the moves that must be refused and why, plays on,
//! and checks the resulting position, result, pot and balances.

mod common;

use common::rules;
use libro_chess::ChessGame;
use libro_core::{Game, Ruleset};
use serde::Deserialize;
use std::collections::BTreeMap;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    scenario: Vec<Scenario>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Scenario {
    name: String,
    ruleset: String,
    #[serde(default)]
    options: BTreeMap<String, String>,
    position: Option<String>,
    #[serde(default)]
    moves: String,
    legal: Option<Vec<String>>,
    #[serde(default)]
    includes: Vec<String>,
    #[serde(default)]
    excludes: Vec<String>,
    #[serde(default)]
    reject: Vec<Reject>,
    #[serde(default)]
    then: String,
    fen: Option<String>,
    result: Option<Outcome>,
    paid: Option<Vec<u64>>,
    pot: Option<u64>,
    balances: Option<Vec<f64>>,
    ranks: Option<Vec<f32>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Reject {
    #[serde(rename = "move")]
    text: String,
    says: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Outcome {
    /// `false` if the game must still be on.
    over: bool,
    winner: Option<String>,
    reason: Option<String>,
}

fn play(g: &mut ChessGame, moves: &str, what: &str) {
    for m in moves.split_whitespace() {
        let mv = g
            .parse_move(m)
            .unwrap_or_else(|e| panic!("{what}: cannot play {m}: {e} (at {g})"));
        g.play(mv);
    }
}

fn run(file: &str) -> usize {
    let path = format!("{}/tests/scenarios/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let file: File = toml::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
    for s in &file.scenario {
        let what = &s.name;
        let overrides: Vec<(&str, &str)> = s
            .options
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        let r = rules(&s.ruleset, &overrides);
        let mut g = match &s.position {
            Some(fen) => {
                ChessGame::from_position(&r, fen).unwrap_or_else(|e| panic!("{what}: {e}"))
            }
            None => ChessGame::new(&r),
        };
        play(&mut g, &s.moves, what);
        let mut list = libro_chess::MoveList::new();
        g.legal_moves(&mut list);
        let mut legal: Vec<String> = list.as_slice().iter().map(|&m| g.move_text(m)).collect();
        legal.sort();
        if let Some(expected) = &s.legal {
            let mut expected = expected.clone();
            expected.sort();
            assert_eq!(legal, expected, "{what}: legal moves");
        }
        for m in &s.includes {
            assert!(
                legal.contains(m),
                "{what}: {m} should be legal; legal: {legal:?}"
            );
        }
        for m in &s.excludes {
            assert!(!legal.contains(m), "{what}: {m} should not be legal");
        }
        for rj in &s.reject {
            match g.parse_move(&rj.text) {
                Ok(m) => panic!("{what}: {} was accepted as {m:?}", rj.text),
                Err(e) => assert!(
                    e.to_string().contains(&rj.says),
                    "{what}: refusing {} says `{e}`, expected `{}`",
                    rj.text,
                    rj.says
                ),
            }
        }
        play(&mut g, &s.then, what);
        if let Some(fen) = &s.fen {
            assert_eq!(&g.to_string(), fen, "{what}: position after `{}`", s.then);
        }
        if let Some(out) = &s.result {
            let result = g.result();
            assert_eq!(result.is_some(), out.over, "{what}: over? ({result:?})");
            if let Some(res) = result {
                let seats = r.seat_names();
                let winner = res.winner().map(|w| seats[w.index()].clone());
                assert_eq!(winner, out.winner, "{what}: winner ({res:?})");
                if let Some(reason) = &out.reason {
                    assert_eq!(res.reason.name(), reason, "{what}: reason");
                }
            }
        }
        if let Some(paid) = &s.paid {
            assert_eq!(&g.paid(), paid, "{what}: paid");
        }
        if let Some(pot) = s.pot {
            assert_eq!(g.pot(), pot, "{what}: pot");
        }
        if let Some(b) = &s.balances {
            assert_eq!(&g.balances(), b, "{what}: balances");
        }
        if let Some(ranks) = &s.ranks {
            let got: Vec<f32> = g
                .result()
                .expect("ranks need a result")
                .seats
                .iter()
                .map(|o| o.rank)
                .collect();
            assert_eq!(&got, ranks, "{what}: ranks");
        }
    }
    file.scenario.len()
}

#[test]
fn forced_capture() {
    assert!(run("forcado.toml") >= 5);
}

#[test]
fn promotion() {
    assert!(run("promotion.toml") >= 5);
}

#[test]
fn shared_square() {
    assert!(run("shared_square.toml") >= 4);
}

#[test]
fn endings() {
    assert!(run("endings.toml") >= 8);
}

#[test]
fn first_moves() {
    assert!(run("first_moves.toml") >= 6);
}

#[test]
fn four_players() {
    assert!(run("cuatro_tiempos.toml") >= 5);
}
