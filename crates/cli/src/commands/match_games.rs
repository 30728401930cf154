//! `libro match RULESET --a ai:3 --b ai:5 --games N`: AI against AI, seats alternating (or
//! rotating, for four seats), with a progress bar, a score with its 95% interval and an Elo
//! difference; every game written as a record that replays exactly.

use super::RuleOptions;
use anyhow::Context;
use indicatif::{ProgressBar, ProgressStyle};
use libro_ai::{play_match, MatchConfig, MatchReport, PlayerSpec};
use libro_catalog::AnyRuleset;
use libro_core::{Heuristic, Ruleset};
use std::io::Write;
use std::process::ExitCode;
use std::sync::Arc;

#[derive(clap::Args)]
pub struct Args {
    /// Ruleset name or file.
    ruleset: String,
    /// Player A: `random`, `greedy`, `ai:1`..`ai:8`, `ai:movetime=MS`, `ai:nodes=N` (`,seed=S`).
    #[arg(long)]
    a: PlayerSpec,
    /// Player B, as for --a.
    #[arg(long)]
    b: PlayerSpec,
    /// Number of games.
    #[arg(long, default_value_t = 100)]
    games: u32,
    /// Games played at once (default: every core).
    #[arg(long)]
    threads: Option<usize>,
    /// Seeds the games' dice, openings and the players' random choices.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Random moves opening each pair of games, so deterministic players vary.
    #[arg(long, default_value_t = 4)]
    opening_moves: u32,
    /// Write every game to this file, one JSON record per line.
    #[arg(long, value_name = "FILE")]
    record: Option<String>,
    /// End with the JSON line {"wins":W,"draws":D,"losses":L,"score":S,"elo":E,"elo_error":X}.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    rules: RuleOptions,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    match args.rules.load(&args.ruleset)? {
        AnyRuleset::Chess(r) => run_with(&r, &args),
        AnyRuleset::Tables(r) => run_with(&r, &args),
    }
}

fn run_with<R: Ruleset>(rules: &Arc<R>, args: &Args) -> anyhow::Result<ExitCode>
where
    R::Game: Heuristic,
{
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let config = MatchConfig {
        games: args.games,
        threads,
        seed: args.seed,
        opening_moves: args.opening_moves,
        ..MatchConfig::default()
    };
    let mut record_file = match &args.record {
        Some(path) => Some(std::io::BufWriter::new(
            std::fs::File::create(path)
                .with_context(|| format!("creating the record file {path}"))?,
        )),
        None => None,
    };
    let bar = ProgressBar::new(u64::from(args.games));
    bar.set_style(
        ProgressStyle::with_template(
            "{spinner} {bar:40} {pos}/{len} games  {msg}  [{elapsed_precise} / ~{eta}]",
        )
        .expect("a valid progress template"),
    );
    let mut scores = Vec::new();
    let mut write_error = None;
    let outcome = play_match(rules, &args.a, &args.b, &config, &mut |record| {
        scores.push(record.a_score);
        let so_far = MatchReport::from_scores(&scores);
        bar.set_message(format!(
            "A {}-{}-{}",
            so_far.wins, so_far.draws, so_far.losses
        ));
        bar.inc(1);
        if let Some(file) = &mut record_file {
            let line = serde_json::to_string(record).expect("records serialise");
            if let Err(e) = writeln!(file, "{line}") {
                write_error.get_or_insert(e);
            }
        }
    });
    bar.finish_and_clear();
    if let Some(e) = write_error {
        anyhow::bail!("writing the record file: {e}");
    }
    if let Some(mut file) = record_file {
        file.flush().context("writing the record file")?;
    }
    let r = &outcome.report;
    println!(
        "{} (A) against {} (B), {} games of {}",
        args.a,
        args.b,
        r.wins + r.draws + r.losses,
        rules.name()
    );
    println!("A: {} wins, {} draws, {} losses", r.wins, r.draws, r.losses);
    println!(
        "score {:.1}% ± {:.1}% (95%)",
        100.0 * r.score,
        100.0 * r.score_margin
    );
    match (r.elo, r.elo_error) {
        (Some(elo), Some(err)) => println!("Elo difference {elo:+.0} ± {err:.0}"),
        (Some(elo), None) => println!("Elo difference {elo:+.0} (interval unbounded)"),
        _ => println!("Elo difference unbounded (every game went one way)"),
    }
    if args.json {
        println!("{}", serde_json::to_string(r)?);
    }
    Ok(ExitCode::SUCCESS)
}
