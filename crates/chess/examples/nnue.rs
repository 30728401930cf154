//! Trains the two-seat evaluation network ([`libro_chess::net`]) on labelled positions.
//!
//! Reads JSON lines `{"fen": F, "cp": V, "result": R}` (the value and the game's result, 1,
//! ½ or 0, both for the seat to move; FENs may use the letters UCI engines use), keeps the
//! quiet positions (not in check, no capture that wins by exchange), and fits the network's
//! expected score to `lambda` × the value's expected score + (1 − `lambda`) × the result,
//! least squares on the logistic curve on which 400 centipawns are ten to one, by Adam.
//! Every twentieth block of 200 lines (so whole games, mostly) is held out and its error
//! printed each epoch.
//!
//! ```sh
//! cargo run --release -p libro-chess --example nnue -- shatranj labels.jsonl --out shatranj.nnue
//! ```

use clap::Parser;
use libro_chess::net::{Mode, Network, HIDDEN, INPUTS, OUTPUT_CP};
use libro_chess::{network_inputs, notation, ChessGame, ChessRules, Evaluator, MoveList, Weights};
use libro_core::{Game, Heuristic};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::sync::Arc;

#[derive(Parser)]
struct Args {
    /// A ruleset name (a file of `rulesets/`) or a ruleset file.
    ruleset: String,
    /// Labelled positions, JSON lines.
    labels: Vec<PathBuf>,
    /// Where to write the network.
    #[arg(long)]
    out: PathBuf,
    /// How much of each target is the value (1) rather than the game's result (0).
    #[arg(long, default_value_t = 0.75)]
    lambda: f32,
    #[arg(long, default_value_t = 12)]
    epochs: usize,
    #[arg(long, default_value_t = 1024)]
    batch: usize,
    #[arg(long, default_value_t = 0.001)]
    lr: f32,
    /// Values beyond this many centipawns are left out (mates, won games).
    #[arg(long, default_value_t = 2000)]
    max_cp: i32,
    /// Seed of the weights' start and the shuffles.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Fit the network to what the hand-written evaluation misses: its output is added to
    /// that evaluation's value.
    #[arg(long)]
    residual: bool,
    /// With `--residual`: fit on top of the hand-written evaluation with its king danger term
    /// (which then counts wherever the network is used; shatranj's network since 2026-12-06).
    #[arg(long, requires = "residual")]
    king_danger: bool,
    /// Centipawns of the hand-written evaluation per centipawn of the labels' values (the
    /// slope this prints, inverted): the network's output is written on libro's scale.
    #[arg(long, default_value_t = 1.0)]
    scale: f32,
    /// Weight decay of the first layer (AdamW's, a fraction a step).
    #[arg(long, default_value_t = 0.0)]
    decay: f32,
    /// A network to start from instead of random weights (its output layer put on this
    /// fit's `--scale`); it must fit the same rules and `--residual` alike. Taking a shipped
    /// network further on a round's new labels this way lost its SPRTs (docs/strength.md).
    #[arg(long)]
    init: Option<PathBuf>,
    /// A rule option the network is fitted for, `KEY=VALUE` (as `libro match --option`):
    /// the network's key is that of the rules with it.
    #[arg(long = "option", value_parser = key_value)]
    options: Vec<(String, String)>,
}

fn key_value(s: &str) -> Result<(String, String), String> {
    s.split_once('=')
        .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
        .ok_or_else(|| format!("`{s}` is not KEY=VALUE"))
}

/// A label's FEN (Fairy-Stockfish's) in libro's letters and fields.
fn libro_fen(rules: &ChessRules, fen: &str) -> String {
    notation::gui_fen(rules, fen).map_or_else(|| fen.to_string(), |gui| gui.fen)
}

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

/// How the fitted network is used: what `--residual` and `--king-danger` fit it to.
fn mode(a: &Args) -> Mode {
    match (a.residual, a.king_danger) {
        (false, _) => Mode::Whole,
        (true, false) => Mode::Added,
        (true, true) => Mode::AddedWithKingDanger,
    }
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// Positions as their two views' inputs (flattened) and their targets.
#[derive(Default)]
struct Set {
    inputs: Vec<u16>,
    /// `(start, mover's count, other's count)` into `inputs`.
    index: Vec<(u32, u8, u8)>,
    target: Vec<f32>,
    /// The hand-written evaluation's value in output units (0 unless fitting the residual).
    base: Vec<f32>,
}

impl Set {
    fn push(&mut self, views: &[Vec<u16>; 2], target: f32, base: f32) {
        self.base.push(base);
        self.index.push((
            self.inputs.len() as u32,
            views[0].len() as u8,
            views[1].len() as u8,
        ));
        self.inputs.extend_from_slice(&views[0]);
        self.inputs.extend_from_slice(&views[1]);
        self.target.push(target);
    }
    fn views(&self, i: usize) -> [&[u16]; 2] {
        let (s, a, b) = self.index[i];
        let (s, a, b) = (s as usize, a as usize, b as usize);
        [&self.inputs[s..s + a], &self.inputs[s + a..s + a + b]]
    }
}

/// Parameters in one flat vector: w1 (by input), b1, w2, b2 — the file's order.
const W1: usize = 0;
const B1: usize = INPUTS * HIDDEN;
const W2: usize = B1 + HIDDEN;
const B2: usize = W2 + 2 * HIDDEN;
const LEN: usize = B2 + 1;

/// Forward pass: output, and per view the accumulators (for the backward pass).
fn forward(p: &[f32], views: [&[u16]; 2], acc: &mut [[f32; HIDDEN]; 2]) -> f32 {
    let mut out = p[B2];
    for v in 0..2 {
        acc[v].copy_from_slice(&p[B1..B1 + HIDDEN]);
        for &i in views[v] {
            let row = &p[W1 + usize::from(i) * HIDDEN..W1 + (usize::from(i) + 1) * HIDDEN];
            for (a, w) in acc[v].iter_mut().zip(row) {
                *a += w;
            }
        }
        for (h, a) in acc[v].iter().enumerate() {
            out += a.clamp(0.0, 1.0) * p[W2 + v * HIDDEN + h];
        }
    }
    out
}

/// The weights of the network in `file`, its output layer rescaled so that it adds the same
/// centipawns on this fit's scale (`OUTPUT_CP` × `--scale` per output unit).
fn start_from(file: &Path, rules: &ChessRules, a: &Args) -> Result<Vec<f32>, String> {
    let at = |e: &dyn std::fmt::Display| format!("{}: {e}", file.display());
    let bytes = std::fs::read(file).map_err(|e| at(&e))?;
    let net = Network::from_bytes(&bytes).map_err(|e| at(&e))?;
    net.fits(rules).map_err(|e| at(&e))?;
    let wanted = mode(a);
    if net.mode() != wanted {
        return Err(at(&format!(
            "a {:?} network, and this fit is {:?} (--residual)",
            net.mode(),
            wanted
        )));
    }
    let mut p = net.weights();
    let ratio = net.cp_per_output() / (OUTPUT_CP * a.scale);
    for x in &mut p[W2..] {
        *x *= ratio;
    }
    Ok(p)
}

fn main() -> Result<(), String> {
    let a = Args::parse();
    let path = if a.ruleset.ends_with(".toml") {
        PathBuf::from(&a.ruleset)
    } else {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("../../rulesets/{}.toml", a.ruleset))
    };
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let rules = Arc::new(
        ChessRules::from_toml(&text, &path.display().to_string(), &a.options)
            .map_err(|e| e.to_string())?,
    );
    // The hand-written evaluation the residual is fitted on top of.
    let hand_evaluation = if a.king_danger {
        Evaluator::with_king_danger(&rules, &Weights::DEFAULT)
    } else {
        Evaluator::new(&rules, &Weights::DEFAULT)
    };
    let (mut fit, mut held) = (Set::default(), Set::default());
    let mut line_no = 0usize;
    let mut hand_error = 0f64;
    let mut slope = (0f64, 0f64, 0f64);
    for file in &a.labels {
        let f = std::fs::File::open(file).map_err(|e| format!("{}: {e}", file.display()))?;
        for line in std::io::BufReader::new(f).lines() {
            let line = line.map_err(|e| e.to_string())?;
            line_no += 1;
            let v: serde_json::Value = serde_json::from_str(&line)
                .map_err(|e| format!("{} line {line_no}: {e}", file.display()))?;
            let (Some(fen), Some(cp), Some(result)) =
                (v["fen"].as_str(), v["cp"].as_i64(), v["result"].as_f64())
            else {
                return Err(format!(
                    "{} line {line_no}: no fen, cp or result",
                    file.display()
                ));
            };
            if cp.abs() > i64::from(a.max_cp) {
                continue;
            }
            let game = ChessGame::from_position(&rules, &libro_fen(&rules, fen))
                .map_err(|e| format!("{} line {line_no}: {e}", file.display()))?;
            if !is_quiet(&game) {
                continue;
            }
            let Some(views) = network_inputs(&game) else {
                return Err("the network needs two seats on 8x8".into());
            };
            let target =
                a.lambda * sigmoid(cp as f32 / OUTPUT_CP) + (1.0 - a.lambda) * result as f32;
            let mover = game.seat_to_move().expect("a seat moves");
            let first = hand_evaluation
                .first_seat_value(&game)
                .expect("two seats, these rules");
            let hand = if mover.0 == 0 { first } else { -first } as f32 / (OUTPUT_CP * a.scale);
            let base = if a.residual { hand } else { 0.0 };
            if (line_no / 200).is_multiple_of(20) {
                hand_error += f64::from((sigmoid(hand) - target).powi(2));
                if cp.abs() < 1000 {
                    let h = f64::from(hand * OUTPUT_CP * a.scale);
                    slope.0 += h * cp as f64;
                    slope.1 += h * h;
                    slope.2 += (cp * cp) as f64;
                }
                held.push(&views, target, base);
            } else {
                fit.push(&views, target, base);
            }
        }
    }
    eprintln!(
        "value on the hand-written value: slope {:.3}, correlation {:.3}",
        slope.0 / slope.1,
        slope.0 / (slope.1 * slope.2).sqrt()
    );
    eprintln!(
        "{} positions to fit, {} held out; the hand-written evaluation's held-out error {:.5}",
        fit.target.len(),
        held.target.len(),
        hand_error / held.target.len().max(1) as f64
    );

    let mut rng = ChaCha8Rng::seed_from_u64(a.seed);
    let mut p = match &a.init {
        Some(file) => start_from(file, &rules, &a)?,
        None => {
            let mut p = vec![0f32; LEN];
            for x in &mut p[W1..B1] {
                *x = rng.gen_range(-0.05..0.05);
            }
            for x in &mut p[B1..W2] {
                *x = 0.25;
            }
            let out_scale = if a.residual { 0.01 } else { 0.1 };
            for x in &mut p[W2..B2] {
                *x = rng.gen_range(-out_scale..out_scale);
            }
            p
        }
    };
    let (mut m, mut s) = (vec![0f32; LEN], vec![0f32; LEN]);
    let mut grad = vec![0f32; LEN];
    let (b1, b2, eps) = (0.9f32, 0.999f32, 1e-8f32);
    let mut step = 0i32;
    let mut order: Vec<usize> = (0..fit.target.len()).collect();
    let mut acc = [[0f32; HIDDEN]; 2];
    let error = |p: &[f32], set: &Set, acc: &mut [[f32; HIDDEN]; 2]| -> f64 {
        let mut e = 0f64;
        for i in 0..set.target.len() {
            let y = sigmoid(set.base[i] + forward(p, set.views(i), acc));
            e += f64::from((y - set.target[i]).powi(2));
        }
        e / set.target.len().max(1) as f64
    };
    eprintln!("epoch 0: held-out error {:.5}", error(&p, &held, &mut acc));
    for epoch in 1..=a.epochs {
        order.shuffle(&mut rng);
        let lr = a.lr
            * if epoch > a.epochs * 5 / 6 {
                0.1
            } else if epoch > a.epochs * 2 / 3 {
                0.3
            } else {
                1.0
            };
        let mut fit_error = 0f64;
        for batch in order.chunks(a.batch) {
            grad.fill(0.0);
            for &i in batch {
                let views = fit.views(i);
                let o = fit.base[i] + forward(&p, views, &mut acc);
                let y = sigmoid(o);
                let d = y - fit.target[i];
                fit_error += f64::from(d * d);
                let g = 2.0 * d * y * (1.0 - y);
                grad[B2] += g;
                for v in 0..2 {
                    let mut dacc = [0f32; HIDDEN];
                    for h in 0..HIDDEN {
                        let a = acc[v][h];
                        grad[W2 + v * HIDDEN + h] += g * a.clamp(0.0, 1.0);
                        if a > 0.0 && a < 1.0 {
                            dacc[h] = g * p[W2 + v * HIDDEN + h];
                        }
                    }
                    for h in 0..HIDDEN {
                        grad[B1 + h] += dacc[h];
                    }
                    for &f in views[v] {
                        let row = &mut grad[W1 + usize::from(f) * HIDDEN..][..HIDDEN];
                        for (r, d) in row.iter_mut().zip(&dacc) {
                            *r += d;
                        }
                    }
                }
            }
            step += 1;
            let n = batch.len() as f32;
            let (c1, c2) = (1.0 - b1.powi(step), 1.0 - b2.powi(step));
            for k in 0..LEN {
                let g = grad[k] / n;
                m[k] = b1 * m[k] + (1.0 - b1) * g;
                s[k] = b2 * s[k] + (1.0 - b2) * g * g;
                p[k] -= lr * (m[k] / c1) / ((s[k] / c2).sqrt() + eps);
                if k < B1 {
                    p[k] -= lr * a.decay * p[k];
                }
            }
        }
        eprintln!(
            "epoch {epoch}: fit error {:.5}, held-out error {:.5}",
            fit_error / order.len() as f64,
            error(&p, &held, &mut acc)
        );
    }
    let bytes = Network::encode(&rules, mode(&a), OUTPUT_CP * a.scale, &p);
    std::fs::write(&a.out, bytes).map_err(|e| format!("{}: {e}", a.out.display()))
}
