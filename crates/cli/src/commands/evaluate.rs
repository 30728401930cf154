//! `libro evaluate RULESET --vary K=V1,V2 --games N`: the reconstruction lab. Plays N
//! games for every reading (combination of the varied options) on every core, appending
//! each finished game to a results file (so a stopped run continues), and reports balance,
//! draws, decisiveness, end reasons, length and branching with 95% intervals, as a table,
//! JSON, CSV and SVG charts. `--shard I/N` plays a part; `--merge FILES...` joins parts.

use anyhow::Context;
use indicatif::{ProgressBar, ProgressStyle};
use libro_lab::{Report, ResultsFile, RunPlan, Shard, Study};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// Ruleset name or file (not needed with --merge).
    #[arg(required_unless_present = "merge")]
    ruleset: Option<String>,
    /// Set a rule option for every reading, e.g. `--option stalemate=pass`.
    #[arg(long = "option", value_name = "KEY=VALUE")]
    options: Vec<String>,
    /// Vary an option: every combination of the varied values is a reading, e.g.
    /// `--vary fers_leap=straight-or-diagonal,diagonal,none`.
    #[arg(long, value_name = "KEY=V1,V2,...")]
    vary: Vec<String>,
    /// Games per reading.
    #[arg(long, default_value_t = 100)]
    games: u32,
    /// The players: one spec for every seat, or the option repeated once per seat
    /// (`random`, `greedy`, `ai:1`..`ai:8`, `ai:nodes=N`, ... with `,seed=S`).
    #[arg(long = "players", default_value = "random")]
    players: Vec<String>,
    /// Games played at once (default: every core).
    #[arg(long)]
    threads: Option<usize>,
    /// The study seed: the same seed plays the same games.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Stop a game at this many plies and count it as a move-limit draw.
    #[arg(long, default_value_t = 10_000)]
    max_plies: u32,
    /// Random moves opening every game (from the game's seed), so that deterministic
    /// players (ai:4 and up) do not repeat one game. 0 plays every game from the start.
    #[arg(long, default_value_t = libro_lab::DEFAULT_OPENING_MOVES)]
    opening_moves: u32,
    /// Results file (JSON lines), appended as games finish and continued if it exists
    /// (default: evaluate-RULESET-seedS.jsonl).
    #[arg(long, value_name = "FILE")]
    results: Option<PathBuf>,
    /// Start the results file afresh instead of continuing it.
    #[arg(long)]
    fresh: bool,
    /// Play only the games whose index is I modulo N (parts numbered from 0).
    #[arg(long, value_name = "I/N")]
    shard: Option<Shard>,
    /// Report from these results files (shards of one study) without playing.
    #[arg(long, num_args = 1.., value_name = "FILE", conflicts_with_all = ["ruleset", "shard"])]
    merge: Vec<PathBuf>,
    /// Write the report as JSON.
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Write the report as CSV (one line per reading).
    #[arg(long, value_name = "FILE")]
    csv: Option<PathBuf>,
    /// Write SVG charts (outcomes, end reasons, durations) into this directory.
    #[arg(long, value_name = "DIR")]
    svg: Option<PathBuf>,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let (study, rows) = if args.merge.is_empty() {
        play(&args)?
    } else {
        libro_lab::merge(&args.merge)?
    };
    let report = Report::new(&study, &rows);
    print!("{}", report.to_table());
    if let Some(path) = &args.json {
        std::fs::write(path, report.to_json())
            .with_context(|| format!("writing {}", path.display()))?;
    }
    if let Some(path) = &args.csv {
        std::fs::write(path, report.to_csv())
            .with_context(|| format!("writing {}", path.display()))?;
    }
    if let Some(dir) = &args.svg {
        for path in libro_lab::write_charts(&report, dir)? {
            eprintln!("wrote {}", path.display());
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Plays the study's pending games; returns the study and every game in its results file.
fn play(args: &Args) -> anyhow::Result<(Study, Vec<libro_lab::GameRow>)> {
    let ruleset = args
        .ruleset
        .clone()
        .expect("clap requires a ruleset without --merge");
    let options = libro_registry::parse_overrides(&args.options)?;
    let vary = args
        .vary
        .iter()
        .map(|v| libro_lab::parse_vary(v))
        .collect::<Result<Vec<_>, _>>()?;
    let study = libro_lab::prepare(Study {
        ruleset: ruleset.clone(),
        seats: Vec::new(),
        options,
        vary,
        players: args.players.clone(),
        games: args.games,
        seed: args.seed,
        max_plies: args.max_plies,
        opening_moves: args.opening_moves,
        stamp: Default::default(),
        board: Default::default(),
    })?;
    let path = args.results.clone().unwrap_or_else(|| {
        let stem = std::path::Path::new(&ruleset)
            .file_stem()
            .map_or(ruleset.clone(), |s| s.to_string_lossy().into_owned());
        PathBuf::from(format!("evaluate-{stem}-seed{}.jsonl", args.seed))
    });
    if args.fresh && path.exists() {
        std::fs::remove_file(&path).with_context(|| format!("removing {}", path.display()))?;
    }
    let (mut file, mut rows) = ResultsFile::open(&path, &study)?;
    let plan = RunPlan {
        threads: args
            .threads
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
        shard: args.shard.unwrap_or(Shard::ALL),
        done: rows.iter().map(|r| (r.reading.clone(), r.index)).collect(),
        stop: None,
    };
    let pending = libro_lab::pending(&study, &plan).len();
    if !rows.is_empty() {
        eprintln!(
            "{}: {} games already played, {pending} to play",
            path.display(),
            rows.len()
        );
    }
    let bar = ProgressBar::new(pending as u64);
    bar.set_style(
        ProgressStyle::with_template(
            "{spinner} {bar:40} {pos}/{len} games  {per_sec}  [{elapsed_precise} / ~{eta}]",
        )
        .expect("a valid progress template"),
    );
    let mut write_error = None;
    let stats = libro_lab::run_study(&study, &plan, &mut |row| {
        bar.inc(1);
        if write_error.is_none() {
            write_error = file.append(row).err();
        }
        rows.push(row.clone());
    })?;
    bar.finish_and_clear();
    if write_error.is_none() {
        write_error = file.flush().err();
    }
    if let Some(e) = write_error {
        return Err(e.into());
    }
    if stats.played > 0 {
        eprintln!(
            "played {} games ({} plies) in {:.2} s on {} threads: {:.1} games/s, {:.0} plies/s; results in {}",
            stats.played,
            stats.plies,
            stats.elapsed.as_secs_f64(),
            plan.threads,
            stats.games_per_second(),
            stats.plies as f64 / stats.elapsed.as_secs_f64().max(1e-9),
            path.display()
        );
    }
    Ok((study, rows))
}
