//! `libro perft RULESET DEPTH`: leaf counts of the legal move tree, for checking the rules
//! against other engines and for measuring move-generation speed.

use super::RuleOptions;
use anyhow::{bail, Context};
use libro_catalog::AnyRuleset;
use libro_core::Ruleset;
use std::process::ExitCode;
use std::time::Instant;

/// The deepest perft the CLI runs.
pub const MAX_PERFT_DEPTH: u32 = 10;

#[derive(clap::Args)]
pub struct Args {
    /// Ruleset name or file.
    ruleset: String,
    /// Depth in plies, at most 10 (MAX_PERFT_DEPTH: depth 10 of a chess start is ~10^14
    /// leaves, weeks on one core; deeper is never an answer anyone waits for).
    #[arg(value_parser = clap::value_parser!(u32).range(0..=i64::from(MAX_PERFT_DEPTH)))]
    depth: u32,
    /// Start from this position string instead of the ruleset's start.
    #[arg(long)]
    fen: Option<String>,
    /// Moves to play first, in coordinate notation, separated by spaces.
    #[arg(long)]
    moves: Option<String>,
    /// Print the count under each first move.
    #[arg(long)]
    divide: bool,
    /// End with a JSON line {"nodes":N,"seconds":S,"nps":R}.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    rules: RuleOptions,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let AnyRuleset::Chess(rules) = args.rules.load(&args.ruleset)? else {
        bail!(
            "perft is defined for chess-family rulesets; `{}` is not one",
            args.ruleset
        );
    };
    let mut game = match &args.fen {
        Some(fen) => rules.parse_position(fen).context("reading --fen")?,
        // The start, after the opening bets where the ruleset has them (Ludii's perft).
        None => rules.perft_start(),
    };
    for text in args.moves.iter().flat_map(|m| m.split_whitespace()) {
        libro_core::play_text(&mut game, text)
            .with_context(|| format!("playing --moves `{text}`"))?;
    }
    let start = Instant::now();
    let nodes = if args.divide {
        let mut total = 0;
        for (mv, count) in libro_chess::perft_divide(&game, args.depth) {
            println!("{mv}: {count}");
            total += count;
        }
        println!();
        total
    } else {
        libro_chess::perft(game.rules(), game.position(), args.depth)
    };
    let seconds = start.elapsed().as_secs_f64();
    let nps = if seconds > 0.0 {
        (nodes as f64 / seconds).round()
    } else {
        0.0
    };
    if args.json {
        println!(
            "{}",
            serde_json::json!({ "nodes": nodes, "seconds": seconds, "nps": nps })
        );
    } else {
        println!("nodes {nodes}\nseconds {seconds:.3}\nnps {nps:.0}");
    }
    Ok(ExitCode::SUCCESS)
}
