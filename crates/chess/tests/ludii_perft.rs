//! Perft against Ludii's figures in `tests/reference/ludii/perft.md` (read at test time),
//! under the rulesets that reproduce Ludii's encodings. The four-player count starts after
//! the four opening bets, as Ludii's does.

mod common;

use common::{reference, rules};
use libro_chess::perft;

/// `(section key, [(depth, distinct count)])` for each game in perft.md.
fn tables() -> Vec<(String, Vec<(u32, u64)>)> {
    let mut out: Vec<(String, Vec<(u32, u64)>)> = Vec::new();
    for line in reference("ludii/perft.md").lines() {
        if let Some(head) = line.strip_prefix("## ") {
            let key = head
                .rsplit('(')
                .next()
                .unwrap_or("")
                .trim_end_matches(')')
                .to_string();
            out.push((key, Vec::new()));
            continue;
        }
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        if cells.len() >= 4 {
            if let (Ok(d), Ok(n)) = (cells[1].parse::<u32>(), cells[3].parse::<u64>()) {
                out.last_mut()
                    .expect("rows follow a heading")
                    .1
                    .push((d, n));
            }
        }
    }
    out
}

fn check(key: &str, ruleset: &str, max_nodes: u64) -> usize {
    let r = rules(ruleset, &[]);
    let table = tables()
        .into_iter()
        .find(|(k, _)| k == key)
        .unwrap_or_else(|| panic!("no `{key}` in perft.md"))
        .1;
    let start = r.perft_start();
    let mut checked = 0;
    for (depth, expected) in table {
        if expected > max_nodes {
            continue;
        }
        assert_eq!(
            perft(&r, start.position(), depth),
            expected,
            "{ruleset} depth {depth}"
        );
        checked += 1;
    }
    checked
}

#[test]
fn acedrex_ludii() {
    assert_eq!(check("acedrex-alfonso", "acedrex-ludii", 20_000_000), 5);
}

#[test]
fn forcado_ludii() {
    assert_eq!(check("forcado", "forcado-ludii", 20_000_000), 4);
}

#[test]
fn short_assize_ludii() {
    assert_eq!(check("short-assize", "short-assize-ludii", 20_000_000), 4);
}

#[test]
fn cuatro_tiempos_ludii_after_the_bets() {
    assert_eq!(
        check("acedrex-cuatro-tiempos", "cuatro-tiempos-ludii", 20_000_000),
        6
    );
}

#[test]
fn cuatro_tiempos_ludii_betting_phase() {
    // perft.md: "Initial position is the Betting phase: depth-1 = 101 (Bet 0..100)".
    let text = reference("ludii/perft.md");
    let after = text
        .split("depth-1 = ")
        .nth(1)
        .expect("the betting-phase line");
    let expected: u64 = after
        .split_whitespace()
        .next()
        .and_then(|n| n.parse().ok())
        .expect("a count");
    let r = rules("cuatro-tiempos-ludii", &[]);
    let game = libro_core::Ruleset::new_game(&r, 0);
    assert_eq!(perft(&r, game.position(), 1), expected);
    // After four bets, the playing phase: the same count as from perft_start.
    let mut g = game;
    for _ in 0..4 {
        libro_core::play_text(&mut g, "bet0").unwrap();
    }
    assert_eq!(
        perft(&r, g.position(), 3),
        perft(&r, r.perft_start().position(), 3)
    );
}
