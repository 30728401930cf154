//! Perft against Ludii's figures in `../shared/reference/ludii/perft.md` (read at test time),
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
