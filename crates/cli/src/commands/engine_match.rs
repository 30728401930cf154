//! `libro match RULESET --a ai:8 --b uci:PATH --movetime 200`: libro against another UCI
//! engine (or two engines), refereed by libro. libro holds the rules: the engine's illegal
//! move, a move out of time or no answer ends the game against it. Games are played one at
//! a time unless `--threads` says more (engines get the whole machine; each game at once has
//! its own engine processes), the opening plies of each pair of games are
//! random and shared (colours swapped), and every game can be written as PGN and as a
//! record that replays (the same JSON lines as a match of libro's own players).

use crate::uci_client::{Engine, EngineError, EngineSpec};
use anyhow::Context;
use libro_ai::{
    Clock, Control, GameRecord, MatchReport, Player, PlayerKind, PlayerSpec, Ply, Sprt,
    SprtDecision,
};
use libro_core::{GameResult, MoveBuffer, Ruleset, Seat};
use libro_registry::{FamilyGame, UciGame, VisitUci};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::fmt::Write as _;
use std::io::Write as _;
use std::process::ExitCode;
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// A player of a match: libro's own, or an engine run as a child process.
#[derive(Clone, Debug)]
pub enum Contestant {
    Libro(PlayerSpec),
    Engine(EngineSpec),
}

impl FromStr for Contestant {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        if s.starts_with("uci:") {
            s.parse().map(Contestant::Engine).map_err(|e| e.to_string())
        } else {
            s.parse().map(Contestant::Libro).map_err(|e| format!("{e}"))
        }
    }
}

impl std::fmt::Display for Contestant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Contestant::Libro(p) => write!(f, "{p}"),
            Contestant::Engine(e) => write!(f, "{e}"),
        }
    }
}

/// A game clock: `10+0.1` (seconds, then the increment per move).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct TimeControl {
    pub base: Duration,
    pub increment: Duration,
}

impl FromStr for TimeControl {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        let (base, inc) = s.split_once('+').unwrap_or((s, "0"));
        let secs = |t: &str| -> Result<Duration, String> {
            t.parse::<f64>()
                .ok()
                .filter(|x| x.is_finite() && (0.0..=86_400.0).contains(x))
                .map(Duration::from_secs_f64)
                .ok_or_else(|| format!("time control `{s}`: `{t}` is not 0 to 86400 seconds"))
        };
        let tc = TimeControl {
            base: secs(base)?,
            increment: secs(inc)?,
        };
        if tc.base.is_zero() {
            return Err(format!("time control `{s}`: the base time must be above 0"));
        }
        Ok(tc)
    }
}

/// How the players are timed.
#[derive(Copy, Clone, Debug)]
pub enum Pace {
    /// A fixed time per move.
    MoveTime(Duration),
    /// A clock per player.
    Clock(TimeControl),
    /// A fixed number of positions searched per move (libro's `ai:nodes`, UCI `go nodes`):
    /// the same work whatever the machine's load.
    Nodes(u64),
}

/// How long an engine searching a fixed number of nodes may take before it loses.
const NODES_PATIENCE: Duration = Duration::from_secs(60);

/// Time past a `movetime` after which an engine that has not answered loses: engines
/// overrun a little, but one that does not answer at all must not stall the match.
const MOVETIME_GRACE: Duration = Duration::from_secs(1);

/// Everything a match against engines needs.
pub struct EngineMatch {
    /// The header's line on how libro's search values positions, if a side is libro's.
    pub evaluation: Option<String>,
    pub a: Contestant,
    pub b: Contestant,
    pub games: u32,
    pub seed: u64,
    pub opening_moves: u32,
    pub pace: Pace,
    pub sprt: Option<Sprt>,
    pub pgn: Option<String>,
    /// Where to write every game as a JSON record ([`GameRecord`]), one a line.
    pub record: Option<String>,
    pub json: bool,
    /// Games played at once, each by its own pair of engine processes.
    pub threads: usize,
}

/// How a game ended for the referee.
#[derive(Clone, Debug)]
struct Ending {
    /// White's score: 1, ½ or 0.
    white: f64,
    /// What ended it, in libro's words (`checkmate`, `illegal move by …`).
    reason: String,
    /// PGN's Termination tag.
    termination: &'static str,
}

/// One game as played: its moves (opening included), each in libro's notation for the
/// record, how the referee ended it, and the rules' result where the game is over by them
/// (`None` where the referee ended it: an illegal move, a lost clock, no answer).
struct Played<M> {
    moves: Vec<M>,
    plies: Vec<Ply>,
    ending: Ending,
    result: Option<GameResult>,
}

/// A side in one game.
enum Side<G: FamilyGame> {
    Libro(Box<Player<G>>),
    Engine(Engine),
}

impl VisitUci for &EngineMatch {
    type Output = anyhow::Result<ExitCode>;
    fn visit<G: UciGame>(self, rules: &Arc<G::Rules>) -> Self::Output {
        run::<G>(rules, self)
    }
}

/// One finished game, as a worker hands it to the match: its index and opening.
type Finished<M> = (u32, Vec<M>, Played<M>);

fn run<G: UciGame>(rules: &Arc<G::Rules>, m: &EngineMatch) -> anyhow::Result<ExitCode> {
    let variant = uci_variant(rules.name());
    let mut pgn = match &m.pgn {
        Some(path) => Some(std::io::BufWriter::new(
            std::fs::File::create(path).with_context(|| format!("creating the PGN file {path}"))?,
        )),
        None => None,
    };
    let mut records = match &m.record {
        Some(path) => Some(std::io::BufWriter::new(
            std::fs::File::create(path)
                .with_context(|| format!("creating the record file {path}"))?,
        )),
        None => None,
    };
    let threads = m.threads.clamp(1, m.games.max(1) as usize);
    println!(
        "{} (A) against {} (B), up to {} games of {}, {}{}",
        m.a,
        m.b,
        m.games,
        rules.name(),
        match m.pace {
            Pace::MoveTime(t) => format!("{} ms a move", t.as_millis()),
            Pace::Clock(tc) =>
                format!("{}+{} s", tc.base.as_secs_f64(), tc.increment.as_secs_f64()),
            Pace::Nodes(n) => format!("{n} nodes a move"),
        },
        if threads > 1 {
            format!(", {threads} games at once")
        } else {
            String::new()
        }
    );
    if let Some(line) = &m.evaluation {
        println!("{line}");
    }
    let mut scores: Vec<f64> = Vec::new();
    // The SPRT's decision and the results it was taken on (games under way finish after it).
    let mut decided: Option<(SprtDecision, [u32; 3])> = None;
    // The referee hands out the games: one to each worker, then one more for each that
    // finishes, so no game starts after the SPRT decides (with one game at a time the match
    // ends on the deciding game). A failure stops the workers at their next game.
    let (work_tx, work_rx) = mpsc::channel::<u32>();
    let work_rx = Mutex::new(work_rx);
    let stop = AtomicBool::new(false);
    let mut failure: Option<anyhow::Error> = None;
    std::thread::scope(|scope| -> anyhow::Result<()> {
        let (tx, rx) = mpsc::channel::<anyhow::Result<Finished<G::Move>>>();
        let mut work = Some(work_tx);
        let mut issued = 0;
        for _ in 0..threads {
            issue(&mut work, &mut issued, m.games);
        }
        for _ in 0..threads {
            let (tx, work_rx, stop, variant) = (tx.clone(), &work_rx, &stop, &variant);
            scope.spawn(move || {
                let sides = start(&m.a, variant, m).and_then(|a| Ok([a, start(&m.b, variant, m)?]));
                let mut sides: [Side<G>; 2] = match sides {
                    Ok(sides) => sides,
                    Err(e) => {
                        let _ = tx.send(Err(e));
                        return;
                    }
                };
                loop {
                    let next = work_rx
                        .lock()
                        .unwrap_or_else(PoisonError::into_inner)
                        .recv();
                    let Ok(index) = next else {
                        break;
                    };
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let a_white = index % 2 == 0;
                    let opening = opening::<G>(rules, m.seed, index / 2, m.opening_moves);
                    let [s0, s1] = &mut sides;
                    let (w, b) = if a_white { (s0, s1) } else { (s1, s0) };
                    let played = play(rules, &opening, [w, b], m.pace);
                    if tx.send(played.map(|p| (index, opening, p))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        for finished in rx {
            let (index, opening, played) = match finished {
                Ok(f) => f,
                Err(e) => {
                    stop.store(true, Ordering::Relaxed);
                    work = None;
                    failure.get_or_insert(e);
                    continue;
                }
            };
            let Played {
                moves,
                plies,
                ending,
                result,
            } = played;
            let a_white = index % 2 == 0;
            let (white, black) = if a_white { (0, 1) } else { (1, 0) };
            let a_score = if a_white {
                ending.white
            } else {
                1.0 - ending.white
            };
            scores.push(a_score);
            let names = [&m.a, &m.b];
            println!(
                "game {}: {} (white) - {} (black): {} ({}, {} plies)",
                index + 1,
                names[white],
                names[black],
                result_tag(ending.white),
                ending.reason,
                moves.len()
            );
            if let Some(file) = &mut pgn {
                let text = pgn_game::<G>(
                    rules,
                    index + 1,
                    [&names[white].to_string(), &names[black].to_string()],
                    &moves,
                    &ending,
                );
                file.write_all(text.as_bytes())
                    .context("writing the PGN file")
                    .inspect_err(|_| stop.store(true, Ordering::Relaxed))?;
            }
            if let Some(file) = &mut records {
                let record = GameRecord {
                    index,
                    ruleset: rules.name().to_string(),
                    seed: 0,
                    players: vec![names[white].to_string(), names[black].to_string()],
                    a_seats: vec![white as u8],
                    opening_moves: opening.len() as u32,
                    plies,
                    result,
                    a_score,
                };
                let line = serde_json::to_string(&record).expect("records serialise");
                writeln!(file, "{line}")
                    .context("writing the record file")
                    .inspect_err(|_| stop.store(true, Ordering::Relaxed))?;
            }
            if let Some(test) = &m.sprt {
                if decided.is_none() {
                    let r = MatchReport::from_scores(&scores);
                    let decision = test.decision(r.wins, r.draws, r.losses);
                    if decision != SprtDecision::Continue {
                        decided = Some((decision, [r.wins, r.draws, r.losses]));
                    }
                }
            }
            if decided.is_some() {
                // No new games; those already under way finish and are counted.
                work = None;
            } else {
                issue(&mut work, &mut issued, m.games);
            }
        }
        Ok(())
    })
    .inspect_err(|_| stop.store(true, Ordering::Relaxed))?;
    if let Some(e) = failure {
        return Err(e);
    }
    if let Some(mut file) = pgn {
        file.flush().context("writing the PGN file")?;
    }
    if let Some(mut file) = records {
        file.flush().context("writing the record file")?;
    }
    let r = MatchReport::from_scores(&scores);
    println!("A: {} wins, {} draws, {} losses", r.wins, r.draws, r.losses);
    println!("{}", r.summary());
    if let Some(test) = &m.sprt {
        println!(
            "{}",
            sprt_verdict(test, decided, [r.wins, r.draws, r.losses])
        );
    }
    if m.json {
        println!("{}", serde_json::to_string(&r)?);
    }
    Ok(ExitCode::SUCCESS)
}

/// Hands out the next game's index to the workers, or, with every game handed out, closes
/// the queue (a worker stops when it finds the queue closed and empty).
fn issue(work: &mut Option<mpsc::Sender<u32>>, issued: &mut u32, games: u32) {
    match work {
        Some(tx) if *issued < games => {
            // The workers hold the receiver while the scope lives: this cannot fail.
            let _ = tx.send(*issued);
            *issued += 1;
        }
        _ => *work = None,
    }
}

/// The SPRT's line: the decision with the ratio and the number of games it was taken on
/// (where it crossed a bound) and, where games already under way finished after it, the
/// ratio with them too, so the ratio shown beside a decision is always the one that made it.
fn sprt_verdict(test: &Sprt, decided: Option<(SprtDecision, [u32; 3])>, all: [u32; 3]) -> String {
    let (lo, hi) = test.bounds();
    let llr = |[w, d, l]: [u32; 3]| test.llr(w, d, l);
    let games = |c: [u32; 3]| c.iter().sum::<u32>();
    let Some((decision, at)) = decided else {
        return format!(
            "SPRT {test}: no decision yet after {} games: LLR {:.2} (bounds {lo:.2}, {hi:.2})",
            games(all),
            llr(all)
        );
    };
    let verdict = match decision {
        SprtDecision::H1 => "H1 accepted (A is stronger by elo1)",
        _ => "H0 accepted (A is not stronger by elo1)",
    };
    let mut line = format!(
        "SPRT {test}: {verdict} after {} games: LLR {:.2} (bounds {lo:.2}, {hi:.2})",
        games(at),
        llr(at)
    );
    let later = games(all) - games(at);
    if later > 0 {
        let _ = write!(
            line,
            "; {later} game{} under way then finished after and {} counted above (LLR {:.2} with {})",
            if later == 1 { "" } else { "s" },
            if later == 1 { "is" } else { "are" },
            llr(all),
            if later == 1 { "it" } else { "them" },
        );
    }
    line
}

/// The `UCI_Variant` name Fairy-Stockfish knows a ruleset by: the name without hyphens
/// (`short-assize` → `shortassize`); the Ludii profiles are the same games for an engine.
fn uci_variant(ruleset: &str) -> String {
    ruleset.trim_end_matches("-ludii").replace('-', "")
}

fn start<G: FamilyGame>(c: &Contestant, variant: &str, m: &EngineMatch) -> anyhow::Result<Side<G>> {
    Ok(match c {
        Contestant::Engine(spec) => Side::Engine(Engine::start(spec, variant)?),
        Contestant::Libro(spec) => {
            let mut spec = *spec;
            match (&mut spec.kind, m.pace) {
                (PlayerKind::Ai(ai), Pace::MoveTime(t)) => {
                    ai.movetime_ms = Some(t.as_millis() as u64)
                }
                (PlayerKind::Ai(ai), Pace::Nodes(n)) => ai.nodes = Some(n),
                _ => {}
            }
            Side::Libro(Box::new(Player::new(spec)))
        }
    })
}

/// The seeded random plies that open both games of pair `pair`.
fn opening<G: UciGame>(rules: &Arc<G::Rules>, seed: u64, pair: u32, plies: u32) -> Vec<G::Move> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ (u64::from(pair) << 32));
    let mut game = rules.new_game(0);
    let mut moves = Vec::new();
    let mut legal = G::MoveList::default();
    for _ in 0..plies {
        game.legal_moves(&mut legal);
        let list = legal.as_slice();
        let Some(&mv) = list.choose(&mut rng) else {
            break;
        };
        game.play(mv);
        if game.is_over() {
            break;
        }
        moves.push(mv);
    }
    moves
}

/// Plays one game from the opening.
fn play<G: UciGame>(
    rules: &Arc<G::Rules>,
    opening: &[G::Move],
    mut sides: [&mut Side<G>; 2],
    pace: Pace,
) -> anyhow::Result<Played<G::Move>> {
    let mut game = rules.new_game(0);
    let mut moves: Vec<G::Move> = Vec::new();
    let mut plies: Vec<Ply> = Vec::new();
    let mut texts: Vec<String> = Vec::new();
    for &mv in opening {
        texts.push(game.write_uci_move(mv));
        plies.push(Ply::Move(game.move_text(mv)));
        game.play(mv);
        moves.push(mv);
    }
    for side in sides.iter_mut() {
        match side {
            Side::Engine(e) => e.new_game()?,
            Side::Libro(p) => p.new_game(),
        }
    }
    let mut clocks = match pace {
        Pace::Clock(tc) => [tc.base; 2],
        Pace::MoveTime(_) | Pace::Nodes(_) => [Duration::ZERO; 2],
    };
    let ending = loop {
        if let Some(result) = game.result() {
            break ending_of(&result);
        }
        let Some(Seat(s)) = game.seat_to_move() else {
            unreachable!("a game with no chance not over has a seat to move")
        };
        let s = s as usize;
        let colour = ["white", "black"][s];
        let lose = |reason: String, termination| Ending {
            white: if s == 0 { 0.0 } else { 1.0 },
            reason,
            termination,
        };
        let started = Instant::now();
        let chosen: Result<G::Move, Ending> = match &mut sides[s] {
            Side::Libro(player) => {
                let clock = match pace {
                    Pace::Clock(tc) => Some(Clock {
                        remaining: clocks[s],
                        increment: tc.increment,
                        moves_to_go: None,
                    }),
                    Pace::MoveTime(_) | Pace::Nodes(_) => None,
                };
                let control = Control { stop: None, clock };
                player
                    .choose(&game, &control)
                    .map(|c| c.mv)
                    .map_err(|e| lose(format!("{colour} (libro) found no move: {e}"), "abandoned"))
            }
            Side::Engine(engine) => {
                let (go, patience) = match pace {
                    Pace::Nodes(n) => (format!("go nodes {n}"), NODES_PATIENCE),
                    Pace::MoveTime(t) => (
                        format!("go movetime {}", t.as_millis()),
                        t * 2 + MOVETIME_GRACE,
                    ),
                    Pace::Clock(tc) => (
                        format!(
                            "go wtime {} btime {} winc {} binc {}",
                            clocks[0].as_millis(),
                            clocks[1].as_millis(),
                            tc.increment.as_millis(),
                            tc.increment.as_millis()
                        ),
                        clocks[s] + MOVETIME_GRACE,
                    ),
                };
                match engine.best_move(&texts, &go, patience) {
                    Ok((text, _)) => game.read_uci_move(&text).map_err(|e| {
                        lose(
                            format!("illegal move `{text}` by {colour} ({}): {e:#}", engine.name),
                            "rules infraction",
                        )
                    }),
                    Err(EngineError::Timeout { .. }) => Err(lose(
                        format!("{colour} ({}) did not answer in time", engine.name),
                        "time forfeit",
                    )),
                    Err(e) => Err(lose(format!("{colour}: {e}"), "abandoned")),
                }
            }
        };
        let spent = started.elapsed();
        let mv = match chosen {
            Ok(mv) => mv,
            Err(ending) => break ending,
        };
        if let Pace::Clock(tc) = pace {
            if spent > clocks[s] {
                break lose(format!("{colour} lost on time"), "time forfeit");
            }
            clocks[s] = clocks[s] - spent + tc.increment;
        }
        texts.push(game.write_uci_move(mv));
        plies.push(Ply::Move(game.move_text(mv)));
        game.play(mv);
        moves.push(mv);
    };
    Ok(Played {
        moves,
        plies,
        ending,
        result: game.result(),
    })
}

fn ending_of(result: &GameResult) -> Ending {
    let white = f64::from(result.seats[0].score);
    Ending {
        white,
        reason: result.reason.to_string(),
        termination: "normal",
    }
}

fn result_tag(white: f64) -> &'static str {
    if white > 0.5 {
        "1-0"
    } else if white < 0.5 {
        "0-1"
    } else {
        "1/2-1/2"
    }
}

/// One game as PGN: the seven tag roster, the variant, libro's end reason, SAN movetext.
fn pgn_game<G: UciGame>(
    rules: &Arc<G::Rules>,
    round: u32,
    names: [&String; 2],
    moves: &[G::Move],
    ending: &Ending,
) -> String {
    let result = result_tag(ending.white);
    let mut s = String::new();
    let tags = [
        ("Event", "libro match".to_string()),
        ("Site", "libro".to_string()),
        ("Date", today()),
        ("Round", round.to_string()),
        ("White", names[0].clone()),
        ("Black", names[1].clone()),
        ("Result", result.to_string()),
        ("Variant", rules.name().to_string()),
        ("Termination", ending.termination.to_string()),
    ];
    for (k, v) in tags {
        let _ = writeln!(
            s,
            "[{k} \"{}\"]",
            v.replace('\\', "\\\\").replace('"', "\\\"")
        );
    }
    s.push('\n');
    let mut game = rules.new_game(0);
    let mut line = String::new();
    let mut tokens: Vec<String> = Vec::new();
    for (i, &mv) in moves.iter().enumerate() {
        if i % 2 == 0 {
            tokens.push(format!("{}.", i / 2 + 1));
        }
        tokens.push(game.describe(mv));
        game.play(mv);
    }
    tokens.push(format!("{{{}}}", ending.reason.replace('}', ")")));
    tokens.push(result.to_string());
    for t in tokens {
        if !line.is_empty() && line.len() + 1 + t.len() > 79 {
            s.push_str(&line);
            s.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&t);
    }
    s.push_str(&line);
    s.push_str("\n\n");
    s
}

/// Today's date as PGN writes it (`2026.11.25`), from the system clock (UTC).
fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs()) as i64;
    libro_core::pgn_date(secs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls_are_read_and_bad_ones_named() {
        let tc: TimeControl = "10+0.1".parse().unwrap();
        assert_eq!(tc.base, Duration::from_secs(10));
        assert_eq!(tc.increment, Duration::from_millis(100));
        assert_eq!(
            "60".parse::<TimeControl>().unwrap().increment,
            Duration::ZERO
        );
        for bad in ["", "0+1", "ten+1", "10+x", "1e9", "-5+0"] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
        }
    }

    #[test]
    fn the_sprt_line_shows_the_ratio_that_decided_and_the_games_after_it() {
        // elo0 = 0, elo1 = 100 at 30 wins, 40 draws, 30 losses: LLR −6.53, H0 (worked by
        // hand in sprt.rs). One more win finished after: 101 games, mean 51/101 = 0.504950;
        // the variance's counts 31.5, 40.5, 30.5 (m = 102.5, mean 51.75/102.5 = 0.504878):
        // σ² = (31.5·0.495122² + 40.5·0.004878² + 30.5·0.504878²) / 102.5 = 0.151196, so
        // LLR = 101 · 0.140065 · (1.009901 − 1.140065) / (2 · 0.151196) = −6.089.
        let test: Sprt = "elo0=0,elo1=100".parse().unwrap();
        let line = sprt_verdict(&test, Some((SprtDecision::H0, [30, 40, 30])), [31, 40, 30]);
        assert!(
            line.contains("H0 accepted (A is not stronger by elo1) after 100 games: LLR -6.53 (bounds -2.94, 2.94)"),
            "{line}"
        );
        assert!(
            line.contains(
                "1 game under way then finished after and is counted above (LLR -6.09 with it)"
            ),
            "{line}"
        );
        // Decided on the last game: nothing after it.
        let line = sprt_verdict(&test, Some((SprtDecision::H0, [30, 40, 30])), [30, 40, 30]);
        assert!(
            line.ends_with("after 100 games: LLR -6.53 (bounds -2.94, 2.94)"),
            "{line}"
        );
        // Undecided: the ratio of every game.
        let line = sprt_verdict(&test, None, [3, 4, 3]);
        assert!(line.contains("no decision yet after 10 games"), "{line}");
    }

    #[test]
    fn variant_names_as_fairy_stockfish_spells_them() {
        assert_eq!(uci_variant("short-assize"), "shortassize");
        assert_eq!(uci_variant("short-assize-ludii"), "shortassize");
        assert_eq!(uci_variant("acedrex"), "acedrex");
    }

    #[test]
    fn days_become_civil_dates() {
        // Counted with Python's datetime: 2000-02-29 is day 11016, 2026-11-25 day 20782.
        assert_eq!(libro_core::pgn_date(0), "1970.01.01");
        assert_eq!(libro_core::pgn_date(11_016 * 86_400), "2000.02.29");
        assert_eq!(libro_core::pgn_date(11_017 * 86_400), "2000.03.01");
        assert_eq!(libro_core::pgn_date(20_782 * 86_400), "2026.11.25");
    }
}
