//! Fits the two-seat evaluation's weights to game results (Texel's tuning method).
//!
//! Reads games as `libro match --record FILE` writes them (one JSON record a line), keeps
//! the quiet positions (not in check, no capture that wins material by exchange), and finds
//! the weights whose static values, through a logistic curve, best predict each position's
//! game result (least squares). The search is Texel's local one: each weight in turn moves
//! by a step while the error falls; the step halves when no weight moves. Every tenth game
//! is held out and its error reported, so an overfit shows.
//!
//! ```sh
//! libro match shatranj --a ai:nodes=4000 --b ai:nodes=4000 --games 2000 --opening-moves 8 \
//!     --record games.jsonl
//! cargo run --release -p libro-chess --example texel -- shatranj games.jsonl
//! ```
//!
//! With `--scores`, positions are labelled instead by another engine's search score (less
//! noisy than one result for a whole game), optionally blended with the result.
//!
//! It prints the fitted weights in the form of `src/eval/weights.rs`.

use clap::Parser;
use libro_chess::{ChessGame, ChessRules, Evaluator, MoveList, Weights};
use libro_core::{Game, Heuristic};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

#[derive(Parser)]
struct Args {
    /// A ruleset name (a file of `rulesets/`) or a ruleset file.
    ruleset: String,
    /// Match records, one JSON game a line.
    records: PathBuf,
    /// Plies at the start of each game not used (random openings).
    #[arg(long, default_value_t = 10)]
    skip_plies: usize,
    /// Only positions at most this many plies before the game's end (nearer the result
    /// that labels them); every position when not given.
    #[arg(long)]
    last_plies: Option<usize>,
    /// The first step, in centipawns; it halves down to 1.
    #[arg(long, default_value_t = 8)]
    step: i32,
    /// Passes over the weights at most.
    #[arg(long, default_value_t = 30)]
    passes: usize,
    /// Threads for the error sums.
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// Weights not to move (names, comma-separated).
    #[arg(long, value_delimiter = ',')]
    fixed: Vec<String>,
    /// An engine's search scores of positions of the records (JSON lines `{"game": n,
    /// "ply": i, "cp": v}`, `n` counting the records' lines from 0, `v` from the first
    /// seat's view): only these positions are used, labelled by their score.
    #[arg(long)]
    scores: Option<PathBuf>,
    /// With `--scores`: how much of each label is the score (1) rather than the game's
    /// result (0).
    #[arg(long, default_value_t = 1.0)]
    blend: f64,
    /// Fit the logistic curve's scale again after every pass. Hold a weight fixed with it
    /// (a pawn's value), or the fit is free to rescale every weight together.
    #[arg(long)]
    refit_k: bool,
}

/// A quiet position and what it is fitted to: the first seat's score in its game (1, ½ or
/// 0), or its expected score by an engine's search.
struct Sample {
    game: ChessGame,
    target: f64,
}

fn load_rules(name: &str) -> Result<Arc<ChessRules>, String> {
    let path = if name.ends_with(".toml") {
        PathBuf::from(name)
    } else {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("../../rulesets/{name}.toml"))
    };
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    ChessRules::from_toml(&text, &path.display().to_string(), &[])
        .map(Arc::new)
        .map_err(|e| e.to_string())
}

/// Not in check, and no capture that the static exchange says wins material.
fn is_quiet(game: &ChessGame) -> bool {
    if game.is_over() || Heuristic::in_check(game) {
        return false;
    }
    let mut tactical = MoveList::new();
    game.tactical_moves(&mut tactical);
    tactical
        .iter()
        .all(|&mv| game.exchange_gain(mv).is_none_or(|g| g <= 0))
}

/// The expected score of the first seat for a search score in centipawns (the logistic
/// curve on which 400 centipawns are ten to one).
fn expected(cp: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-cp / 400.0))
}

/// `--scores`: the first seat's expected score by (record line, ply).
fn read_scores(path: &PathBuf) -> Result<Scores, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut out = HashMap::new();
    for (n, line) in text.lines().enumerate() {
        let where_ = format!("{} line {}", path.display(), n + 1);
        let v: serde_json::Value =
            serde_json::from_str(line).map_err(|e| format!("{where_}: {e}"))?;
        let field = |f: &str| v[f].as_i64().ok_or_else(|| format!("{where_}: no `{f}`"));
        let (game, ply, cp) = (field("game")?, field("ply")?, field("cp")?);
        let index = |x: i64| usize::try_from(x).map_err(|_| format!("{where_}: negative"));
        out.insert((index(game)?, index(ply)?), expected(cp as f64));
    }
    Ok(out)
}

/// Labels by (record line, ply): each position's expected score for the first seat.
type Scores = HashMap<(usize, usize), f64>;

/// The quiet positions of every game in `path` (only those `scores` labels, if given),
/// split into (fitting, held out).
fn read_samples(
    rules: &Arc<ChessRules>,
    path: &PathBuf,
    skip: usize,
    last: Option<usize>,
    scores: Option<(&Scores, f64)>,
) -> Result<(Vec<Sample>, Vec<Sample>), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let (mut fit, mut held) = (Vec::new(), Vec::new());
    for (n, line) in text.lines().enumerate() {
        let where_ = format!("{} line {}", path.display(), n + 1);
        let record: serde_json::Value =
            serde_json::from_str(line).map_err(|e| format!("{where_}: {e}"))?;
        let result = record["result"]["seats"][0]["score"]
            .as_f64()
            .ok_or_else(|| format!("{where_}: no result.seats[0].score"))?;
        let plies = record["plies"]
            .as_array()
            .ok_or_else(|| format!("{where_}: no plies"))?;
        let mut game = ChessGame::new(rules);
        let out = if n % 10 == 9 { &mut held } else { &mut fit };
        let first = skip.max(plies.len().saturating_sub(last.unwrap_or(usize::MAX)));
        for (i, ply) in plies.iter().enumerate() {
            let label = match scores {
                None => Some(result),
                Some((scores, blend)) => scores
                    .get(&(n, i))
                    .map(|p| blend * p + (1.0 - blend) * result),
            };
            if let Some(label) = label.filter(|_| i >= first && is_quiet(&game)) {
                // A fresh game from the position: no history to carry.
                let fresh = ChessGame::from_position(rules, &game.to_string())
                    .map_err(|e| format!("{where_} ply {i}: {e}"))?;
                out.push(Sample {
                    game: fresh,
                    target: label,
                });
            }
            let text = ply["move"]
                .as_str()
                .ok_or_else(|| format!("{where_} ply {i}: no move"))?;
            let mv = game
                .parse_move(text)
                .map_err(|e| format!("{where_} ply {i}: {e}"))?;
            game.play(mv);
        }
    }
    Ok((fit, held))
}

/// Mean squared error of the predicted scores, summed on `threads` threads.
fn error(rules: &Arc<ChessRules>, w: &Weights, k: f64, samples: &[Sample], threads: usize) -> f64 {
    let chunk = samples.len().div_ceil(threads.max(1)).max(1);
    let total: f64 = std::thread::scope(|scope| {
        let parts: Vec<_> = samples
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move || {
                    // One evaluator a thread: its pawn cache is its own.
                    let eval = Evaluator::new(rules, w);
                    part.iter()
                        .map(|s| {
                            let v = f64::from(eval.first_seat_value(&s.game).unwrap_or(0));
                            let p = 1.0 / (1.0 + 10f64.powf(-k * v / 400.0));
                            (s.target - p).powi(2)
                        })
                        .sum::<f64>()
                })
            })
            .collect();
        parts
            .into_iter()
            .map(|h| h.join().expect("sum thread"))
            .sum()
    });
    total / samples.len().max(1) as f64
}

/// The scale of the logistic curve that fits the default weights best (golden section).
fn fit_k(rules: &Arc<ChessRules>, w: &Weights, samples: &[Sample], threads: usize) -> f64 {
    let (mut lo, mut hi) = (0.1f64, 3.0f64);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..30 {
        let a = hi - g * (hi - lo);
        let b = lo + g * (hi - lo);
        if error(rules, w, a, samples, threads) < error(rules, w, b, samples, threads) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

fn main() {
    let args = Args::parse();
    if let Err(e) = run(&args) {
        eprintln!("texel: {e}");
        std::process::exit(2);
    }
}

fn run(args: &Args) -> Result<(), String> {
    let rules = load_rules(&args.ruleset)?;
    if Evaluator::new(&rules, &Weights::DEFAULT)
        .first_seat_value(&ChessGame::new(&rules))
        .is_none()
    {
        return Err(format!("{}: the weights are for two seats", args.ruleset));
    }
    for name in &args.fixed {
        if !Weights::NAMES.contains(&name.as_str()) {
            return Err(format!("--fixed: no weight `{name}`"));
        }
    }
    let scores = args.scores.as_ref().map(read_scores).transpose()?;
    let (fit, held) = read_samples(
        &rules,
        &args.records,
        args.skip_plies,
        args.last_plies,
        scores.as_ref().map(|s| (s, args.blend.clamp(0.0, 1.0))),
    )?;
    eprintln!(
        "{} quiet positions to fit, {} held out",
        fit.len(),
        held.len()
    );
    let t = args.threads;
    let start = Weights::DEFAULT;
    let k0 = fit_k(&rules, &start, &fit, t);
    let mut k = k0;
    let mut best = error(&rules, &start, k, &fit, t);
    let held_before = error(&rules, &start, k0, &held, t);
    eprintln!("K = {k:.3}; error {best:.6}, held out {held_before:.6}");
    let mut values = start.to_vec();
    let mut step = args.step.max(1);
    for pass in 1..=args.passes {
        let mut moved = 0;
        for i in 0..values.len() {
            if args.fixed.iter().any(|f| f == Weights::NAMES[i]) {
                continue;
            }
            for delta in [step, -step] {
                let mut trial = values.clone();
                trial[i] += delta;
                let w = Weights::from_slice(&trial).expect("as many values as names");
                let e = error(&rules, &w, k, &fit, t);
                if e < best {
                    best = e;
                    values = trial;
                    moved += 1;
                    break;
                }
            }
        }
        let w = Weights::from_slice(&values).expect("as many values as names");
        if args.refit_k {
            k = fit_k(&rules, &w, &fit, t);
            best = error(&rules, &w, k, &fit, t);
        }
        eprintln!(
            "pass {pass}, step {step}: {moved} moved; K {k:.3}, error {best:.6}, held out {:.6}",
            error(&rules, &w, k, &held, t)
        );
        if moved == 0 {
            if step == 1 {
                break;
            }
            step /= 2;
        }
    }
    let w = Weights::from_slice(&values).expect("as many values as names");
    println!("// Fitted on {} positions of {}: error {best:.6} (from {:.6}); held out {:.6} (from {held_before:.6}); K = {k:.3}",
        fit.len(), args.records.display(), error(&rules, &start, k0, &fit, t), error(&rules, &w, k, &held, t));
    for (name, (old, new)) in Weights::NAMES
        .iter()
        .zip(start.to_vec().into_iter().zip(values))
    {
        let note = if old == new {
            String::new()
        } else {
            format!(" // was {old}")
        };
        println!("{name} = {new},{note}");
    }
    Ok(())
}
