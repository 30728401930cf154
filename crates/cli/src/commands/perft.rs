//! `libro perft RULESET DEPTH`: leaf counts of the legal move tree, for checking the rules
//! against other engines and for measuring move-generation speed.

use super::RuleOptions;
use anyhow::{bail, Context};
use libro_core::Turn;
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
    let rules = args.rules.load(&args.ruleset)?;
    // The start, after the opening bets where the ruleset has them (Ludii's perft).
    let mut game = rules
        .perft_start(args.fen.as_deref())
        .context("reading --fen")?;
    for text in args.moves.iter().flat_map(|m| m.split_whitespace()) {
        let Turn::Seat(seat) = game.turn() else {
            bail!("playing --moves `{text}`: no seat is to move");
        };
        game.play(seat, text)
            .with_context(|| format!("playing --moves `{text}`"))?;
    }
    let start = Instant::now();
    let Some((nodes, divided)) = game.perft(args.depth, args.divide) else {
        bail!(
            "perft counts the moves of games without dice; `{}` has dice (see `libro moves`)",
            rules.name()
        );
    };
    if args.divide {
        for (mv, count) in divided {
            println!("{mv}: {count}");
        }
        println!();
    }
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
