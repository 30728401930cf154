//! `libro uci`: the Universal Chess Interface for the two-player chess rulesets, spoken the
//! way Fairy-Stockfish speaks it for variants (`UCI_Variant`), so chess GUIs and match
//! runners can load libro. Malformed input never ends the engine: it answers with
//! `info string` and carries on.
//!
//! The GUI is the referee, as with every UCI engine: libro plays on past its own draw rules
//! (repetition, no progress, the move limit), which its search still sees. Moves are written
//! as GUIs and Fairy-Stockfish write them: coordinates, with a promotion's piece letter
//! (`c7c8q`: each ruleset names its pieces' `uci_letter`). A `position` libro cannot read
//! is reported and leaves no position: `go` then answers `bestmove (none)`, never a move of
//! an earlier position. Every `go` is answered with `bestmove`: one it cannot read at once,
//! with `(none)` and the reason (a GUI waits for it).

use super::perft::MAX_PERFT_DEPTH;
use anyhow::Context;
use libro::uci_text::{option_words, read_go, read_position, Go};
use libro_ai::{
    AiSettings, Control, Player, PlayerKind, PlayerSpec, SearchConfig, Searcher, MAX_HASH_MB,
    MAX_LEVEL,
};
use libro_core::{MoveBuffer, Ruleset};
use libro_registry::{FamilyRules, Network, OptionKind, UciGame, VisitUci};
use std::io::{BufRead, Write};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

#[derive(clap::Args)]
pub struct Args {}

const DEFAULT_HASH_MB: usize = 16;

/// `EvalFile`'s default: the network shipped for the variant, if it has one.
const SHIPPED_NETWORK: &str = "<shipped>";

/// Rule options the GUI's referee decides under UCI, set so that libro plays on: the draw by
/// the game's length, which a GUI sets by its own adjudication.
const REFEREE_OPTIONS: [(&str, &str); 1] = [("max_plies", "0")];

/// Rule options not offered to GUIs: the referee's, and the draws by repetition and by plies
/// without progress, which libro keeps so that its search sees them coming, as
/// Fairy-Stockfish does its variants' (play goes on past either: `read_position`).
const HIDDEN_OPTIONS: [&str; 3] = ["no_progress_plies", "max_plies", "repetition"];

/// What a search thread hands back when it ends: the search memory, kept between moves.
type SearchThread<G> = JoinHandle<Searcher<G>>;

/// The engine's state between commands.
struct Engine<G: UciGame> {
    out: Arc<Mutex<std::io::Stdout>>,
    variants: Vec<String>,
    variant: String,
    overrides: Vec<(String, String)>,
    rules: Arc<G::Rules>,
    game: G,
    /// Why the last `position` could not be set; `go` searches nothing until one is.
    no_position: Option<String>,
    hash_mb: usize,
    skill: u8,
    /// `Use NNUE`: whether the rules' network (or `EvalFile`'s) is used.
    use_network: bool,
    /// `EvalFile`: a network file in place of the shipped one, with its path.
    eval_file: Option<(String, Arc<Network>)>,
    searcher: Option<Searcher<G>>,
    running: Option<(SearchThread<G>, Arc<AtomicBool>)>,
}

pub fn run(_: Args) -> anyhow::Result<ExitCode> {
    let variants: Vec<String> = libro_registry::shipped()
        .into_iter()
        .filter(|h| libro_registry::load(&h.name, &[]).is_ok_and(|r| r.speaks_uci()))
        .map(|h| h.name)
        .collect();
    let variant = if variants.iter().any(|v| v == "acedrex") {
        "acedrex".to_string()
    } else {
        variants
            .first()
            .context("no shipped ruleset speaks UCI")?
            .clone()
    };
    let rules = libro_registry::load(&variant, &referee(&[]))?;
    rules.visit_uci(Start { variants, variant })?
}

/// Starts the engine on the first variant's family.
struct Start {
    variants: Vec<String>,
    variant: String,
}

impl VisitUci for Start {
    type Output = anyhow::Result<ExitCode>;
    fn visit<G: UciGame>(self, rules: &Arc<G::Rules>) -> Self::Output {
        let game = rules.new_game(0);
        let mut engine = Engine::<G> {
            out: Arc::new(Mutex::new(std::io::stdout())),
            variants: self.variants,
            variant: self.variant,
            overrides: Vec::new(),
            rules: rules.clone(),
            game,
            no_position: None,
            hash_mb: DEFAULT_HASH_MB,
            skill: MAX_LEVEL,
            use_network: true,
            eval_file: None,
            searcher: None,
            running: None,
        };
        let stdin = std::io::stdin();
        for line in stdin.lock().lines() {
            let line = line.context("reading standard input")?;
            if !engine.command(line.trim()) {
                break;
            }
        }
        engine.stop();
        Ok(ExitCode::SUCCESS)
    }
}

/// The GUI's options with the referee's options last.
fn referee(overrides: &[(String, String)]) -> Vec<(String, String)> {
    let mut overrides = overrides.to_vec();
    overrides.extend(
        REFEREE_OPTIONS
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string())),
    );
    overrides
}

/// Loads a UCI ruleset of the engine's family with the GUI's options, the referee's last.
fn load_uci<G: UciGame>(
    name: &str,
    overrides: &[(String, String)],
) -> anyhow::Result<Arc<G::Rules>> {
    let rules = libro_registry::load(name, &referee(overrides))?;
    match rules.downcast::<G::Rules>() {
        Some(r) if rules.speaks_uci() => Ok(r),
        _ => anyhow::bail!("`{name}` is not a variant this engine plays over UCI"),
    }
}

impl<G: UciGame> Engine<G> {
    fn say(&self, line: &str) {
        let mut out = self.out.lock().unwrap_or_else(|e| e.into_inner());
        // A closed standard output leaves nobody to tell; the engine carries on until `quit`.
        let _ = writeln!(out, "{line}").and_then(|_| out.flush());
    }

    /// Handles one command line; false on `quit`.
    fn command(&mut self, line: &str) -> bool {
        let mut words = line.split_whitespace();
        let Some(cmd) = words.next() else { return true };
        let rest: Vec<&str> = words.collect();
        match cmd {
            "uci" => self.identify(),
            "isready" => self.say("readyok"),
            "ucinewgame" => {
                self.stop();
                if let Some(s) = &mut self.searcher {
                    s.clear();
                }
                self.game = self.rules.new_game(0);
                self.no_position = None;
            }
            "setoption" => {
                if let Err(e) = self.set_option(&rest) {
                    self.say(&format!("info string {e:#}"));
                }
            }
            "position" => {
                self.stop();
                match read_position::<G>(&self.rules, &rest) {
                    Ok(game) => {
                        self.game = game;
                        self.no_position = None;
                    }
                    Err(e) => {
                        self.say(&format!(
                            "info string position not set (no move will be searched until one is): {e:#}"
                        ));
                        self.no_position = Some(format!("{e:#}"));
                    }
                }
            }
            "go" if self.no_position.is_some() => self.go(None),
            "go" => match read_go(&self.game, &rest) {
                Ok(go) => self.go(Some(go)),
                // A GUI waits for `bestmove` after every `go`: it is told at once.
                Err(e) => {
                    self.stop();
                    self.say(&format!("info string {e:#}: nothing searched"));
                    self.say("bestmove (none)");
                }
            },
            "stop" => self.stop(),
            // The move pondered on was played: libro answers at once with what it has found
            // (it offers no `Ponder` option, but a GUI that ponders anyway is not left waiting).
            "ponderhit" => self.stop(),
            "quit" => return false,
            "d" => self.say(&format!("info string position {}", self.game)),
            "eval" => self.say(&format!("info string {}", self.game.describe_evaluation())),
            other => self.say(&format!("info string unknown command `{other}`")),
        }
        true
    }

    fn identify(&self) {
        self.say(&format!("id name libro {}", env!("CARGO_PKG_VERSION")));
        self.say("id author the libro team");
        let vars: String = self.variants.iter().map(|v| format!(" var {v}")).collect();
        self.say(&format!(
            "option name UCI_Variant type combo default {}{vars}",
            self.variant
        ));
        self.say(&format!(
            "option name Hash type spin default {DEFAULT_HASH_MB} min 1 max {MAX_HASH_MB}"
        ));
        self.say(&format!(
            "option name Skill Level type spin default {MAX_LEVEL} min 1 max {MAX_LEVEL}"
        ));
        self.say("option name Use NNUE type check default true");
        self.say(&format!(
            "option name EvalFile type string default {SHIPPED_NETWORK}"
        ));
        for info in FamilyRules::options(self.rules.as_ref()) {
            if info.multi_seat || HIDDEN_OPTIONS.contains(&info.name.as_str()) {
                continue;
            }
            let line = match &info.kind {
                OptionKind::Choice { values } => {
                    let vars: String = values.iter().map(|v| format!(" var {v}")).collect();
                    format!(
                        "option name {} type combo default {}{vars}",
                        info.name, info.value
                    )
                }
                OptionKind::Bool => format!(
                    "option name {} type check default {}",
                    info.name, info.value
                ),
                OptionKind::Number { min } => {
                    format!(
                        "option name {} type spin default {} min {min} max 1000000",
                        info.name, info.value
                    )
                }
            };
            self.say(&line);
        }
        self.say("uciok");
    }

    fn set_option(&mut self, words: &[&str]) -> anyhow::Result<()> {
        let (name, value) = option_words(words)?;
        let (name, value) = (name.as_str(), value.as_str());
        self.stop();
        match name.to_ascii_lowercase().as_str() {
            "uci_variant" => {
                let rules = load_uci::<G>(value, &[])?;
                self.variant = value.to_string();
                self.overrides.clear();
                self.set_rules(rules)?;
                self.say(&format!("info string variant {value}"));
            }
            "use nnue" => {
                self.use_network = match value.to_ascii_lowercase().as_str() {
                    "true" => true,
                    "false" => false,
                    _ => anyhow::bail!("Use NNUE `{value}` is neither true nor false"),
                };
                self.set_rules(self.rules.clone())?;
            }
            "evalfile" => {
                let file = if value.is_empty() || value == "<empty>" || value == SHIPPED_NETWORK {
                    None
                } else {
                    let net = libro_registry::read_network(value)?;
                    Some((value.to_string(), net))
                };
                self.eval_file = file;
                self.set_rules(self.rules.clone())?;
            }
            "hash" => {
                let mb: usize = value
                    .parse()
                    .with_context(|| format!("Hash `{value}` is not a number of megabytes"))?;
                anyhow::ensure!(
                    (1..=MAX_HASH_MB).contains(&mb),
                    "Hash must be 1 to {MAX_HASH_MB} MB, not {mb}"
                );
                self.hash_mb = mb;
                self.searcher = None;
            }
            "skill level" => {
                let level: u8 = value
                    .parse()
                    .ok()
                    .filter(|l| (1..=MAX_LEVEL).contains(l))
                    .with_context(|| {
                        format!("Skill Level `{value}` is not a whole number from 1 to {MAX_LEVEL}")
                    })?;
                self.skill = level;
            }
            _ => {
                // Option names are matched without regard to case, as UCI asks.
                let Some(name) = FamilyRules::options(self.rules.as_ref())
                    .into_iter()
                    .find(|o| o.name.eq_ignore_ascii_case(name))
                    .map(|o| o.name)
                else {
                    anyhow::bail!("unknown option `{name}`: the options are those `uci` lists");
                };
                anyhow::ensure!(
                    !HIDDEN_OPTIONS.contains(&name.as_str()),
                    "`{name}` is not an option under UCI: the GUI decides draws"
                );
                let mut overrides = self.overrides.clone();
                overrides.retain(|(k, _)| *k != name);
                overrides.push((name, value.to_string()));
                let rules = load_uci::<G>(&self.variant, &overrides)?;
                self.overrides = overrides;
                self.set_rules(rules)?;
            }
        }
        Ok(())
    }

    /// Plays under `rules` evaluated as `Use NNUE` and `EvalFile` say, from their start. An
    /// `EvalFile` fitted for other rules is reported and the shipped network (if any) played;
    /// it is kept, for a variant it fits (GUIs set engine options before `UCI_Variant`).
    fn set_rules(&mut self, rules: Arc<G::Rules>) -> anyhow::Result<()> {
        let network = match (&self.eval_file, self.use_network) {
            (_, false) => None,
            (Some((path, net)), true) => match G::with_network(&rules, Some(net.clone())) {
                Ok(_) => Some(net.clone()),
                Err(e) => {
                    let shipped = G::shipped_network(&rules);
                    let instead = if shipped.is_some() {
                        "the shipped network"
                    } else {
                        "the hand-written evaluation"
                    };
                    self.say(&format!(
                        "info string EvalFile {path} does not fit {}: {e}; playing with {instead}",
                        self.variant
                    ));
                    shipped
                }
            },
            (None, true) => G::shipped_network(&rules),
        };
        self.rules = G::with_network(&rules, network).map_err(|e| anyhow::anyhow!(e))?;
        self.game = self.rules.new_game(0);
        self.no_position = None;
        Ok(())
    }

    /// Starts the search `go` asks for (`None` where there is no position to search).
    fn go(&mut self, go: Option<Go<G::Move>>) {
        self.stop();
        let Some(go) = go else {
            let why = self.no_position.as_deref().unwrap_or("none set");
            self.say(&format!("info string no position to search: {why}"));
            self.say("bestmove (none)");
            return;
        };
        for skipped in &go.skipped {
            self.say(&format!("info string {skipped}"));
        }
        if let Some(depth) = go.perft {
            self.perft(depth);
            return;
        }
        let Go {
            limits,
            clock,
            infinite,
            among,
            ..
        } = go;
        if self.game.seat_to_move().is_none() {
            self.say("info string the game is over: no move to search");
            self.say("bestmove (none)");
            return;
        }
        let stop = Arc::new(AtomicBool::new(false));
        let control = Control {
            stop: Some(stop.clone()),
            clock,
        };
        let thread_stop = stop.clone();
        let game = self.game.clone();
        let out = self.out.clone();
        let skill = self.skill;
        let mut searcher = self.searcher.take().unwrap_or_else(|| {
            Searcher::new(SearchConfig {
                hash_mb: self.hash_mb,
                ..SearchConfig::default()
            })
        });
        let handle = std::thread::spawn(move || {
            let say = |line: String| {
                let mut out = out.lock().unwrap_or_else(|e| e.into_inner());
                let _ = writeln!(out, "{line}").and_then(|_| out.flush());
            };
            let best = if skill < MAX_LEVEL {
                let spec = PlayerSpec {
                    kind: PlayerKind::Ai(AiSettings {
                        level: Some(skill),
                        ..AiSettings::default()
                    }),
                    seed: None,
                };
                Player::new(spec)
                    .choose_among(&game, &among, &control, &mut |_| {})
                    .ok()
                    .map(|c| c.mv)
            } else {
                searcher
                    .search_among(&game, &among, &limits, &control, &mut |info| {
                        say(info.uci_with(&game, |g: &G, m| g.write_uci_move(m)))
                    })
                    .map(|r| r.best)
            };
            while infinite && !thread_stop.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(5));
            }
            match best {
                Some(mv) => say(format!("bestmove {}", game.write_uci_move(mv))),
                None => say("bestmove (none)".to_string()),
            }
            searcher
        });
        self.running = Some((handle, stop));
    }

    /// `go perft N`, as Stockfish answers it: each legal move with its leaf count N plies
    /// deep, then the total (no `bestmove`). Deeper than `libro perft` goes is refused.
    fn perft(&self, depth: u32) {
        if depth > MAX_PERFT_DEPTH {
            self.say(&format!(
                "info string `go perft {depth}`: at most {MAX_PERFT_DEPTH} plies"
            ));
            return;
        }
        let mut moves = G::MoveList::default();
        if depth > 0 {
            self.game.legal_moves(&mut moves);
        }
        let mut total = u64::from(depth == 0);
        for &mv in moves.as_slice() {
            let n = if depth == 1 {
                1
            } else {
                let mut child = self.game.clone();
                child.play(mv);
                child.perft(depth - 1, false).map_or(0, |(n, _)| n)
            };
            total += n;
            self.say(&format!("{}: {n}", self.game.write_uci_move(mv)));
        }
        self.say("");
        self.say(&format!("Nodes searched: {total}"));
    }

    /// Ends a running search (it answers `bestmove`) and takes its memory back.
    fn stop(&mut self) {
        if let Some((handle, stop)) = self.running.take() {
            stop.store(true, Ordering::Relaxed);
            if let Ok(searcher) = handle.join() {
                self.searcher = Some(searcher);
            }
        }
    }
}
