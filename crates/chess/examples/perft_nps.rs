//! Measures perft speed on a shipped ruleset from its perft start:
//! `cargo run --release --example perft_nps -- acedrex 6 pawn_double_step=first-move`.
use libro_chess::{perft, ChessRules};
use std::sync::Arc;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let name = args.get(1).map_or("acedrex", String::as_str);
    let depth: u32 = args.get(2).and_then(|d| d.parse().ok()).unwrap_or(6);
    let path = format!("{}/../../rulesets/{name}.toml", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("ruleset file");
    let overrides: Vec<(String, String)> = args
        .iter()
        .skip(3)
        .filter_map(|a| a.split_once('='))
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let rules = Arc::new(ChessRules::from_toml(&text, &path, &overrides).expect("valid ruleset"));
    let start = rules.perft_start();
    let t = Instant::now();
    let nodes = perft(&rules, start.position(), depth);
    let s = t.elapsed().as_secs_f64();
    println!(
        "{name} depth {depth}: {nodes} nodes in {s:.3} s = {:.1} M nodes/s",
        nodes as f64 / s / 1e6
    );
}
