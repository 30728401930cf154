//! `libro bench`: the search, to a fixed depth, on a fixed set of positions of every game
//! (`bench-positions.txt`), as chess engines' `bench` does. The total node count is the
//! search's signature: a change that should not alter the search (a speed-up, a refactor)
//! must leave it as it was. Nodes per second measure speed on this machine.

use super::RuleOptions;
use anyhow::{bail, Context};
use libro_ai::{Control, Limits, SearchConfig, Searcher, MAX_HASH_MB};
use libro_core::{Game, Turn};
use libro_registry::{DynGame, FamilyRules, PlayError, Visit};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The positions: `RULESET DEPTH [MOVES AND ROLLS FROM THE START…]` a line.
const POSITIONS: &str = include_str!("bench-positions.txt");
/// The deepest `--depth` accepted: deeper runs take hours and measure nothing more.
pub const MAX_BENCH_DEPTH: u32 = 30;

#[derive(clap::Args)]
pub struct Args {
    /// Only these rulesets' positions (default: every position in the set).
    rulesets: Vec<String>,
    /// Search every position to this depth instead of its own (at most 30).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_BENCH_DEPTH)))]
    depth: Option<u32>,
    /// Transposition table size in megabytes, for each position's fresh search (at most
    /// 4096, the AI's bound everywhere).
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..=MAX_HASH_MB as i64))]
    hash: u32,
    /// End with a JSON line {"nodes":N,"milliseconds":T,"nps":R}.
    #[arg(long)]
    json: bool,
}

/// One line of the position set.
struct BenchPosition<'a> {
    line: usize,
    ruleset: &'a str,
    depth: u32,
    plies: Vec<&'a str>,
}

/// Reads the position set, naming the line of anything malformed.
fn positions() -> anyhow::Result<Vec<BenchPosition<'static>>> {
    let mut out = Vec::new();
    for (i, text) in POSITIONS.lines().enumerate() {
        let text = text.trim();
        if text.is_empty() || text.starts_with('#') {
            continue;
        }
        let mut words = text.split_whitespace();
        let (Some(ruleset), Some(depth)) = (words.next(), words.next()) else {
            bail!("bench-positions.txt line {}: `{text}` has no depth", i + 1);
        };
        let depth = depth
            .parse()
            .with_context(|| format!("bench-positions.txt line {}: depth `{depth}`", i + 1))?;
        out.push(BenchPosition {
            line: i + 1,
            ruleset,
            depth,
            plies: words.collect(),
        });
    }
    Ok(out)
}

/// What one search measured.
struct Measured {
    nodes: u64,
    depth: u32,
    time: Duration,
}

/// Searches one position of a ruleset loaded by name.
struct SearchOne<'a> {
    position: &'a BenchPosition<'a>,
    depth: u32,
    hash_mb: usize,
}

impl Visit for &SearchOne<'_> {
    type Output = anyhow::Result<Measured>;
    fn visit<R: FamilyRules>(self, rules: &[Arc<R>]) -> Self::Output {
        let p = self.position;
        let mut game = rules[0].new_game(0);
        // Moves and rolls are read and checked as every front end reads them.
        for &text in &p.plies {
            let step = match Game::turn(&game) {
                Turn::Seat(seat) => DynGame::play(&mut game, seat, text),
                Turn::Chance => DynGame::apply_chance(&mut game, text),
                Turn::Over => Err(PlayError::GameOver),
            };
            step.map_err(|e| {
                anyhow::anyhow!("bench-positions.txt line {}: `{text}`: {e}", p.line)
            })?;
        }
        let mut searcher: Searcher<R::Game> = Searcher::new(SearchConfig {
            hash_mb: self.hash_mb,
            ..SearchConfig::default()
        });
        let limits = Limits {
            depth: Some(self.depth),
            ..Limits::default()
        };
        let start = Instant::now();
        let Some(found) = searcher.search(&game, &limits, &Control::default()) else {
            bail!(
                "bench-positions.txt line {}: no seat is to move at the end",
                p.line
            );
        };
        Ok(Measured {
            nodes: found.nodes,
            depth: found.depth,
            time: start.elapsed(),
        })
    }
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let all = positions()?;
    for name in &args.rulesets {
        if !all.iter().any(|p| p.ruleset == name) {
            bail!("no bench positions for `{name}`");
        }
    }
    let mut nodes = 0;
    let mut time = Duration::ZERO;
    for p in &all {
        if !args.rulesets.is_empty() && !args.rulesets.iter().any(|r| r == p.ruleset) {
            continue;
        }
        let rules = RuleOptions::default().load(p.ruleset)?;
        let job = SearchOne {
            position: p,
            depth: args.depth.unwrap_or(p.depth),
            hash_mb: args.hash as usize,
        };
        let m = rules.visit(&job)?;
        println!(
            "{:<16} depth {:>2}  nodes {:>10}  {:>7} ms  after {} plies",
            p.ruleset,
            m.depth,
            m.nodes,
            m.time.as_millis(),
            p.plies.len()
        );
        nodes += m.nodes;
        time += m.time;
    }
    let ms = time.as_millis().max(1);
    let nps = (u128::from(nodes) * 1000 / ms) as u64;
    println!("\nnodes {nodes}\nmilliseconds {ms}\nnps {nps}");
    if args.json {
        println!(
            "{}",
            serde_json::json!({ "nodes": nodes, "milliseconds": ms, "nps": nps })
        );
    }
    Ok(ExitCode::SUCCESS)
}
