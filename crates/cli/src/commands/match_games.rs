//! `libro match RULESET --a ai:3 --b ai:5 --games N`: AI against AI, seats alternating (or
//! rotating, for four seats), with a progress bar, a score with its 95% interval and an Elo
//! difference; every game written as a record that replays exactly.

use super::engine_match::{Contestant, EngineMatch, Pace, TimeControl};
use super::RuleOptions;
use anyhow::Context;
use indicatif::{ProgressBar, ProgressStyle};
use libro_ai::{
    default_opening_moves, play_match, MatchConfig, MatchReport, PlayerKind, PlayerSpec, Sprt,
};
use libro_core::{Heuristic, Ruleset};
use libro_registry::{AnyRuleset, FamilyRules, Visit};
use std::io::Write;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

#[derive(clap::Args)]
pub struct Args {
    /// Ruleset name or file.
    ruleset: String,
    /// Player A: `random`, `greedy`, `ai:1`..`ai:8`, `ai:movetime=MS`, `ai:nodes=N` (`,seed=S`),
    /// or a UCI engine `uci:PATH[,Name=Value…]` (two-player chess rulesets; libro referees).
    #[arg(long)]
    a: Contestant,
    /// Player B, as for --a.
    #[arg(long)]
    b: Contestant,
    /// Number of games.
    #[arg(long, default_value_t = 100)]
    games: u32,
    /// Games played at once (default: every core; against UCI engines, one, so that each
    /// engine has the machine).
    #[arg(long)]
    threads: Option<usize>,
    /// Seeds the games' dice, openings and the players' random choices.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Random moves opening each pair of games, so deterministic players vary (default: 4,
    /// or 0 where the game has dice, which already vary every game).
    #[arg(long, alias = "openings")]
    opening_moves: Option<u32>,
    /// With a UCI engine: time per move in milliseconds, for both players.
    #[arg(long, value_name = "MS", conflicts_with = "tc")]
    movetime: Option<u64>,
    /// With a UCI engine: a clock per player, `BASE+INC` in seconds (`10+0.1`).
    #[arg(long, value_name = "BASE+INC", conflicts_with = "nodes")]
    tc: Option<TimeControl>,
    /// With a UCI engine: positions searched per move, for both players (`go nodes N`).
    #[arg(long, value_name = "N", conflicts_with = "movetime")]
    nodes: Option<u64>,
    /// With a UCI engine: stop when an SPRT decides, `elo0=0,elo1=10[,alpha=0.05,beta=0.05]`.
    #[arg(long)]
    sprt: Option<Sprt>,
    /// With a UCI engine: write every game to this file as PGN.
    #[arg(long, value_name = "FILE")]
    pgn: Option<String>,
    /// Write every game to this file, one JSON record per line (that `libro_ai::replay`
    /// replays; against a UCI engine too).
    #[arg(long, value_name = "FILE")]
    record: Option<String>,
    /// End with the JSON line {"wins":W,"draws":D,"losses":L,"score":S,"score_low":…,"score_high":…,"elo":E,"elo_low":…,"elo_high":…}.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    rules: RuleOptions,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let (a, b) = match (&args.a, &args.b) {
        (Contestant::Libro(a), Contestant::Libro(b)) => (*a, *b),
        _ => return run_against_engines(args),
    };
    anyhow::ensure!(
        args.movetime.is_none()
            && args.tc.is_none()
            && args.nodes.is_none()
            && args.sprt.is_none()
            && args.pgn.is_none(),
        "--movetime, --tc, --nodes, --sprt and --pgn are for matches against a UCI engine (`uci:PATH`)"
    );
    let rules = args.rules.load(&args.ruleset)?;
    let opening_moves = args.opening_moves(&rules);
    let evaluation = evaluation_line(&rules, [&args.a, &args.b]);
    let m = LibroMatch {
        a,
        b,
        opening_moves,
        evaluation,
        args,
    };
    rules.visit(&m)
}

/// How libro's search players value positions in this match, for its header: the network by
/// its file's SHA-256 (as `sha256sum rulesets/*.nnue` prints it), or the hand-written
/// evaluation. `None` where no side is libro's search.
fn evaluation_line(rules: &AnyRuleset, sides: [&Contestant; 2]) -> Option<String> {
    let searches = |c: &Contestant| {
        matches!(
            c,
            Contestant::Libro(PlayerSpec {
                kind: PlayerKind::Ai(_),
                ..
            })
        )
    };
    if !sides.into_iter().any(searches) {
        return None;
    }
    Some(match rules.network_digest() {
        Some(digest) => {
            format!("libro's ai evaluates with the network whose file's SHA-256 is {digest}")
        }
        None => {
            "libro's ai evaluates with the hand-written evaluation (no network fits these rules)"
                .to_string()
        }
    })
}

impl Args {
    /// `--opening-moves`, or the default for this ruleset (none where it has dice).
    fn opening_moves(&self, rules: &AnyRuleset) -> u32 {
        self.opening_moves
            .unwrap_or_else(|| default_opening_moves(rules.dice().is_some()))
    }
}

impl Visit for &LibroMatch {
    type Output = anyhow::Result<ExitCode>;
    fn visit<R: FamilyRules>(self, rules: &[Arc<R>]) -> Self::Output {
        run_with(&rules[0], self)
    }
}

/// A match of libro's players, with their specs and the opening length read.
struct LibroMatch {
    a: PlayerSpec,
    b: PlayerSpec,
    opening_moves: u32,
    /// The header's line on how libro's search values positions ([`evaluation_line`]).
    evaluation: Option<String>,
    args: Args,
}

fn run_against_engines(args: Args) -> anyhow::Result<ExitCode> {
    let rules = args.rules.load(&args.ruleset)?;
    let pace = match (args.movetime, args.tc, args.nodes) {
        (Some(ms), None, None) if (1..=3_600_000).contains(&ms) => {
            Pace::MoveTime(Duration::from_millis(ms))
        }
        (Some(ms), None, None) => anyhow::bail!("--movetime {ms}: give 1 to 3600000 milliseconds"),
        (None, Some(tc), None) => Pace::Clock(tc),
        (None, None, Some(n)) if (1..=100_000_000).contains(&n) => Pace::Nodes(n),
        (None, None, Some(n)) => anyhow::bail!("--nodes {n}: give 1 to 100000000 positions"),
        _ => anyhow::bail!(
            "a match against a UCI engine needs --movetime MS, --tc BASE+INC or --nodes N"
        ),
    };
    let opening_moves = args.opening_moves(&rules);
    let evaluation = evaluation_line(&rules, [&args.a, &args.b]);
    let m = EngineMatch {
        evaluation,
        a: args.a,
        b: args.b,
        games: args.games,
        seed: args.seed,
        opening_moves,
        pace,
        sprt: args.sprt,
        pgn: args.pgn,
        record: args.record,
        json: args.json,
        threads: args.threads.unwrap_or(1),
    };
    rules.visit_uci(&m)?
}

fn run_with<R: Ruleset>(rules: &Arc<R>, m: &LibroMatch) -> anyhow::Result<ExitCode>
where
    R::Game: Heuristic,
{
    let args = &m.args;
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let config = MatchConfig {
        games: args.games,
        threads,
        seed: args.seed,
        opening_moves: m.opening_moves,
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
    let outcome = play_match(rules, &m.a, &m.b, &config, &mut |record| {
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
    if let Some(line) = &m.evaluation {
        println!("{line}");
    }
    println!("A: {} wins, {} draws, {} losses", r.wins, r.draws, r.losses);
    println!("{}", r.summary());
    if args.json {
        println!("{}", serde_json::to_string(r)?);
    }
    Ok(ExitCode::SUCCESS)
}
