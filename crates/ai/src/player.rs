//! Players: `random`, `greedy` and `ai:1`..`ai:8` (or limits by time or nodes), written
//! as specs (`ai:5,seed=7`), and the one entry point that makes any of them choose a move.

use crate::limits::{Control, Limits};
use crate::score::{terminal_value, Score};
use crate::search::{MultiSearch, SearchConfig, SearchInfo, Searcher};
use libro_core::{Heuristic, MoveBuffer, Turn, EVAL_LIMIT};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// A player as written on the command line: `random`, `greedy`, `ai:5`, `ai:movetime=500`,
/// `ai:nodes=100000`, each optionally with `,seed=N`. `Display` writes the canonical form,
/// which parses back to the same spec.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct PlayerSpec {
    pub kind: PlayerKind,
    /// Drives every random choice; the same seed and position give the same move.
    pub seed: Option<u64>,
}

/// Which kind of player.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum PlayerKind {
    /// A uniformly random legal move.
    Random,
    /// One ply: the move that leaves the best material balance (the best capture, or in
    /// tables the hit that sends the most pips back), a won game above all; ties at random.
    Greedy,
    /// The search.
    Ai(AiSettings),
}

/// The search player's settings. With no level and no limit it plays at full strength.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct AiSettings {
    /// 1 (a novice: shallow, noisy, with deliberate blunders) to 8 (full strength).
    pub level: Option<u8>,
    /// Time per move in milliseconds.
    pub movetime_ms: Option<u64>,
    /// Nodes per move.
    pub nodes: Option<u64>,
    /// Depth per move, in plies.
    pub depth: Option<u32>,
    /// Transposition table size in megabytes (default 16).
    pub hash_mb: Option<usize>,
    /// The search for three or more seats (default paranoid).
    pub search: Option<MultiSearch>,
}

/// The strongest level.
pub const MAX_LEVEL: u8 = 8;

/// The largest transposition table a player may ask for, in megabytes. Every front end (CLI,
/// server, lab, UCI) parses settings here, so this is the one place the bound lives; the
/// server's operator may set a lower ceiling (`serve --max-ai-hash-mb`).
pub const MAX_HASH_MB: usize = 4096;
/// The longest time per move a player may ask for: one hour, in milliseconds.
pub const MAX_MOVETIME_MS: u64 = 3_600_000;
/// The most nodes per move a player may ask for (about an hour of search at full speed).
pub const MAX_NODES: u64 = 10_000_000_000;

/// What a level means: a search budget and, for the weakest, deliberate errors.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct LevelParams {
    /// Fixed depth (the noisy levels search every move to this depth).
    pub depth: Option<u32>,
    /// Nodes per move.
    pub nodes: Option<u64>,
    /// Each move's value is perturbed by a uniform amount in ±`noise` centi-units.
    pub noise: i32,
    /// Percent of moves played at random instead.
    pub blunder_percent: u32,
}

/// The eight levels. 1–3 search every move to a small depth and err on purpose (1 plays a
/// random move a third of the time and misjudges by up to three pawns: a beginner beats
/// it); 4–8 are the full search with node budgets growing about threefold per level.
pub const LEVELS: [LevelParams; 8] = [
    LevelParams {
        depth: Some(1),
        nodes: None,
        noise: 300,
        blunder_percent: 33,
    },
    LevelParams {
        depth: Some(1),
        nodes: None,
        noise: 120,
        blunder_percent: 15,
    },
    LevelParams {
        depth: Some(2),
        nodes: None,
        noise: 50,
        blunder_percent: 5,
    },
    LevelParams {
        depth: None,
        nodes: Some(5_000),
        noise: 0,
        blunder_percent: 0,
    },
    LevelParams {
        depth: None,
        nodes: Some(15_000),
        noise: 0,
        blunder_percent: 0,
    },
    LevelParams {
        depth: None,
        nodes: Some(50_000),
        noise: 0,
        blunder_percent: 0,
    },
    LevelParams {
        depth: None,
        nodes: Some(150_000),
        noise: 0,
        blunder_percent: 0,
    },
    LevelParams {
        depth: None,
        nodes: Some(500_000),
        noise: 0,
        blunder_percent: 0,
    },
];

impl AiSettings {
    /// The search budget and error model these settings give: the level's (full strength
    /// if none), with any explicit movetime, nodes or depth taking its place.
    pub fn resolve(&self) -> (Limits, LevelParams) {
        let explicit = self.movetime_ms.is_some() || self.nodes.is_some() || self.depth.is_some();
        let level = match self.level {
            Some(l) => LEVELS[usize::from(l.clamp(1, MAX_LEVEL)) - 1],
            None if explicit => LevelParams {
                depth: None,
                nodes: None,
                noise: 0,
                blunder_percent: 0,
            },
            None => LEVELS[usize::from(MAX_LEVEL) - 1],
        };
        let limits = Limits {
            depth: self.depth.or(level.depth),
            nodes: if explicit { self.nodes } else { level.nodes },
            movetime: self.movetime_ms.map(Duration::from_millis),
            mate: None,
        };
        (limits, level)
    }
}

/// What is wrong with a player spec.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    #[error("empty player: expected `random`, `greedy`, `ai:1`..`ai:8`, `ai:movetime=MS` or `ai:nodes=N`")]
    Empty,
    #[error("unknown player `{0}`: expected `random`, `greedy`, `ai:1`..`ai:8`, `ai:movetime=MS` or `ai:nodes=N`")]
    UnknownPlayer(String),
    #[error("level `{0}` is not a whole number from 1 to 8")]
    BadLevel(String),
    #[error("`{item}` in `{spec}` is not `key=value`")]
    NotKeyValue { spec: String, item: String },
    #[error("unknown setting `{key}` for `{player}` (it takes {allowed})")]
    UnknownKey {
        player: &'static str,
        key: String,
        allowed: &'static str,
    },
    #[error("`{key}` is given twice in `{spec}`")]
    Duplicate { spec: String, key: String },
    #[error("bad value `{value}` for `{key}`: {reason}")]
    BadValue {
        key: String,
        value: String,
        reason: String,
    },
}

impl FromStr for PlayerSpec {
    type Err = SpecError;

    fn from_str(text: &str) -> Result<Self, SpecError> {
        let text = text.trim();
        if text.is_empty() {
            return Err(SpecError::Empty);
        }
        let (head, rest) = match text.find([':', ',']) {
            Some(i) if text[i..].starts_with(':') => (&text[..i], Some(&text[i + 1..])),
            Some(i) => (&text[..i], Some(&text[i + 1..])),
            None => (text, None),
        };
        let items: Vec<&str> = rest
            .map(|r| r.split(',').map(str::trim).collect())
            .unwrap_or_default();
        if head != "ai" && text[head.len()..].starts_with(':') {
            return Err(SpecError::UnknownPlayer(text.to_string()));
        }
        let mut spec = match head {
            "random" => PlayerSpec {
                kind: PlayerKind::Random,
                seed: None,
            },
            "greedy" => PlayerSpec {
                kind: PlayerKind::Greedy,
                seed: None,
            },
            "ai" => PlayerSpec {
                kind: PlayerKind::Ai(AiSettings::default()),
                seed: None,
            },
            _ => return Err(SpecError::UnknownPlayer(text.to_string())),
        };
        let mut seen: Vec<&str> = Vec::new();
        for (i, item) in items.iter().enumerate() {
            if let PlayerKind::Ai(ai) = &mut spec.kind {
                if i == 0 && !item.contains('=') {
                    ai.level = Some(parse_level(item)?);
                    continue;
                }
            }
            let Some((key, value)) = item.split_once('=') else {
                return Err(SpecError::NotKeyValue {
                    spec: text.to_string(),
                    item: item.to_string(),
                });
            };
            let (key, value) = (key.trim(), value.trim());
            if seen.contains(&key) {
                return Err(SpecError::Duplicate {
                    spec: text.to_string(),
                    key: key.to_string(),
                });
            }
            seen.push(key);
            match (&mut spec.kind, key) {
                (_, "seed") => spec.seed = Some(number(key, value, 0)?),
                (PlayerKind::Ai(ai), "movetime") => {
                    ai.movetime_ms = Some(bounded(key, value, 1, MAX_MOVETIME_MS, " (ms)")?)
                }
                (PlayerKind::Ai(ai), "nodes") => {
                    ai.nodes = Some(bounded(key, value, 1, MAX_NODES, "")?)
                }
                (PlayerKind::Ai(ai), "depth") => {
                    let d = number(key, value, 1)?;
                    if d >= crate::score::MAX_PLY as u64 {
                        return Err(bad(
                            key,
                            value,
                            format!("at most {}", crate::score::MAX_PLY - 1),
                        ));
                    }
                    ai.depth = Some(d as u32);
                }
                (PlayerKind::Ai(ai), "hash") => {
                    ai.hash_mb = Some(bounded(key, value, 1, MAX_HASH_MB as u64, " (MB)")? as usize)
                }
                (PlayerKind::Ai(ai), "search") => {
                    ai.search = Some(value.parse().map_err(|e: crate::search::UnknownSearch| {
                        bad(key, value, e.to_string())
                    })?)
                }
                (PlayerKind::Ai(_), _) => {
                    return Err(SpecError::UnknownKey {
                        player: "ai",
                        key: key.to_string(),
                        allowed:
                            "a level 1-8 first, then movetime, nodes, depth, hash, search, seed",
                    })
                }
                (PlayerKind::Random, _) | (PlayerKind::Greedy, _) => {
                    return Err(SpecError::UnknownKey {
                        player: if spec.kind == PlayerKind::Random {
                            "random"
                        } else {
                            "greedy"
                        },
                        key: key.to_string(),
                        allowed: "only seed",
                    })
                }
            }
        }
        Ok(spec)
    }
}

fn bad(key: &str, value: &str, reason: String) -> SpecError {
    SpecError::BadValue {
        key: key.to_string(),
        value: value.to_string(),
        reason,
    }
}

fn number(key: &str, value: &str, min: u64) -> Result<u64, SpecError> {
    let n: u64 = value
        .parse()
        .map_err(|_| bad(key, value, "not a whole number (or too large)".into()))?;
    if n < min {
        return Err(bad(key, value, format!("must be at least {min}")));
    }
    Ok(n)
}

/// A whole number in `min..=max`; out of range names the bound.
fn bounded(key: &str, value: &str, min: u64, max: u64, unit: &str) -> Result<u64, SpecError> {
    let n = number(key, value, min)?;
    if n > max {
        return Err(bad(key, value, format!("at most {max}{unit}")));
    }
    Ok(n)
}

fn parse_level(text: &str) -> Result<u8, SpecError> {
    match text.parse::<u8>() {
        Ok(l) if (1..=MAX_LEVEL).contains(&l) => Ok(l),
        _ => Err(SpecError::BadLevel(text.to_string())),
    }
}

impl fmt::Display for PlayerSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut items: Vec<String> = Vec::new();
        let head = match &self.kind {
            PlayerKind::Random => "random",
            PlayerKind::Greedy => "greedy",
            PlayerKind::Ai(ai) => {
                if let Some(l) = ai.level {
                    items.push(l.to_string());
                }
                let keyed = [
                    ("movetime", ai.movetime_ms.map(|v| v.to_string())),
                    ("nodes", ai.nodes.map(|v| v.to_string())),
                    ("depth", ai.depth.map(|v| v.to_string())),
                    ("hash", ai.hash_mb.map(|v| v.to_string())),
                    ("search", ai.search.map(|v| v.to_string())),
                ];
                items.extend(
                    keyed
                        .into_iter()
                        .filter_map(|(k, v)| v.map(|v| format!("{k}={v}"))),
                );
                "ai"
            }
        };
        f.write_str(head)?;
        let mut sep = if head == "ai" { ':' } else { ',' };
        for item in items
            .iter()
            .map(String::as_str)
            .chain(self.seed.map(|s| format!("seed={s}")).as_deref())
        {
            write!(f, "{sep}{item}")?;
            sep = ',';
        }
        Ok(())
    }
}

/// A player's decision.
#[derive(Clone, Debug, PartialEq)]
pub struct Choice<M> {
    /// The move to play.
    pub mv: M,
    /// How the player valued it, from its own side (random players have no opinion).
    pub score: Option<Score>,
    /// Search depth reached (0 for random and greedy).
    pub depth: u32,
    /// Positions visited.
    pub nodes: u64,
    /// The expected line, starting with `mv`.
    pub pv: Vec<M>,
}

/// Why no move could be chosen.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ChooseError {
    #[error("the game is over: no move to choose")]
    GameOver,
    #[error("a chance event (a roll) is pending: no seat is to move")]
    ChancePending,
    #[error("the seat to move has no legal move (the game should list a pass)")]
    NoLegalMove,
}

/// A player of one game, keeping its search memory from move to move.
pub struct Player<G: Heuristic> {
    spec: PlayerSpec,
    seed: u64,
    searcher: Option<Searcher<G>>,
}

impl<G: Heuristic> Player<G> {
    /// A player as specified; its random choices follow the spec's seed (0 if none).
    pub fn new(spec: PlayerSpec) -> Self {
        Self::with_stream(spec, 0)
    }

    /// A player whose random choices follow the spec's seed mixed with `stream` (the match
    /// runner gives each game its own stream, so seeded players still vary between games).
    pub fn with_stream(spec: PlayerSpec, stream: u64) -> Self {
        let seed = mix(spec.seed.unwrap_or(0) ^ mix(stream));
        Player {
            spec,
            seed,
            searcher: None,
        }
    }

    pub fn spec(&self) -> &PlayerSpec {
        &self.spec
    }

    /// Forgets what the search learnt (call between games).
    pub fn new_game(&mut self) {
        if let Some(s) = &mut self.searcher {
            s.clear();
        }
    }

    /// Chooses a move for the seat to move.
    pub fn choose(&mut self, game: &G, control: &Control) -> Result<Choice<G::Move>, ChooseError> {
        self.choose_with_info(game, control, &mut |_| {})
    }

    /// Chooses a move, reporting each finished search iteration to `on_info`.
    pub fn choose_with_info(
        &mut self,
        game: &G,
        control: &Control,
        on_info: &mut dyn FnMut(&SearchInfo<G::Move>),
    ) -> Result<Choice<G::Move>, ChooseError> {
        self.choose_among(game, &[], control, on_info)
    }

    /// Chooses a move among `among` only (UCI's `go searchmoves`; every legal move if it is
    /// empty, and those of its moves that are not legal here are left out), at every level:
    /// the weaker levels err among those moves alone.
    pub fn choose_among(
        &mut self,
        game: &G,
        among: &[G::Move],
        control: &Control,
        on_info: &mut dyn FnMut(&SearchInfo<G::Move>),
    ) -> Result<Choice<G::Move>, ChooseError> {
        match game.turn() {
            Turn::Over => return Err(ChooseError::GameOver),
            Turn::Chance => return Err(ChooseError::ChancePending),
            Turn::Seat(_) => {}
        }
        let mut legal = G::MoveList::default();
        game.legal_moves(&mut legal);
        let mut moves = G::MoveList::default();
        for &mv in legal.as_slice() {
            if among.is_empty() || among.contains(&mv) {
                moves.push(mv);
            }
        }
        if moves.is_empty() {
            return Err(ChooseError::NoLegalMove);
        }
        // Random choices depend on the seed and the position only, so replays agree.
        let mut rng =
            ChaCha8Rng::seed_from_u64(mix(self.seed ^ mix(game.hash()) ^ u64::from(game.ply())));
        let moves = moves.as_slice();
        match self.spec.kind {
            PlayerKind::Random => Ok(Choice {
                mv: moves[rng.gen_range(0..moves.len())],
                score: None,
                depth: 0,
                nodes: 0,
                pv: Vec::new(),
            }),
            PlayerKind::Greedy => Ok(greedy(game, moves, &mut rng)),
            PlayerKind::Ai(ai) => {
                let (limits, level) = ai.resolve();
                let searcher = self.searcher.get_or_insert_with(|| {
                    Searcher::new(SearchConfig {
                        hash_mb: ai.hash_mb.unwrap_or(SearchConfig::default().hash_mb),
                        multi: ai.search.unwrap_or_default(),
                    })
                });
                if level.noise > 0 || level.blunder_percent > 0 {
                    let depth = limits.depth.unwrap_or(1);
                    let mut values = searcher.root_values(game, depth, &limits, control);
                    values.retain(|(mv, _)| moves.contains(mv));
                    return Ok(erring_choice(moves, &values, depth, &level, &mut rng));
                }
                let r = searcher
                    .search_among(game, among, &limits, control, on_info)
                    .ok_or(ChooseError::NoLegalMove)?;
                Ok(Choice {
                    mv: r.best,
                    score: Some(r.score),
                    depth: r.depth,
                    nodes: r.nodes,
                    pv: r.pv,
                })
            }
        }
    }
}

/// The one entry point: `spec` chooses a move for the seat to move in `game`. Searches
/// with a fresh memory; keep a [`Player`] to reuse it from move to move.
pub fn choose_move<G: Heuristic>(
    game: &G,
    spec: &PlayerSpec,
    control: &Control,
) -> Result<Choice<G::Move>, ChooseError> {
    Player::new(*spec).choose(game, control)
}

/// One ply: the move after which the mover's material stands best (the best capture or
/// hit), a won game above all; ties at random.
fn greedy<G: Heuristic>(game: &G, moves: &[G::Move], rng: &mut ChaCha8Rng) -> Choice<G::Move> {
    let mover = game
        .seat_to_move()
        .expect("greedy is asked only when a seat is to move");
    let mut best = i32::MIN;
    let mut ties: Vec<G::Move> = Vec::new();
    for &mv in moves {
        let mut child = game.clone();
        child.play(mv);
        let v = match child.result() {
            Some(r) if child.is_over() => terminal_value(&r, mover, 1),
            _ => child.material(mover).clamp(-EVAL_LIMIT, EVAL_LIMIT),
        };
        if v > best {
            best = v;
            ties.clear();
        }
        if v == best {
            ties.push(mv);
        }
    }
    let mv = ties[rng.gen_range(0..ties.len())];
    Choice {
        mv,
        score: Some(Score::from_internal(best)),
        depth: 1,
        nodes: moves.len() as u64,
        pv: vec![mv],
    }
}

/// The weak levels: every move's searched value plus noise, or now and then any move.
fn erring_choice<M: Copy + Eq>(
    moves: &[M],
    values: &[(M, i32)],
    depth: u32,
    level: &LevelParams,
    rng: &mut ChaCha8Rng,
) -> Choice<M> {
    let blunder = rng.gen_range(0..100) < level.blunder_percent;
    if values.is_empty() || blunder {
        let mv = moves[rng.gen_range(0..moves.len())];
        let score = values
            .iter()
            .find(|(m, _)| *m == mv)
            .map(|&(_, v)| Score::from_internal(v));
        return Choice {
            mv,
            score,
            depth,
            nodes: 0,
            pv: vec![mv],
        };
    }
    let mut best = (i64::MIN, values[0].0, values[0].1);
    for &(mv, v) in values {
        let noisy = i64::from(v) + i64::from(rng.gen_range(-level.noise..=level.noise));
        if noisy > best.0 {
            best = (noisy, mv, v);
        }
    }
    Choice {
        mv: best.1,
        score: Some(Score::from_internal(best.2)),
        depth,
        nodes: 0,
        pv: vec![best.1],
    }
}

/// SplitMix64's finaliser: spreads seeds and hashes over all bits.
pub(crate) fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &str) -> PlayerSpec {
        s.parse().unwrap_or_else(|e| panic!("`{s}`: {e}"))
    }

    #[test]
    fn specs_parse_and_print_back() {
        for s in [
            "random",
            "random,seed=3",
            "greedy",
            "greedy,seed=18446744073709551615",
            "ai",
            "ai:1",
            "ai:8",
            "ai:5,seed=7",
            "ai:movetime=500",
            "ai:nodes=100000",
            "ai:nodes=100000,seed=2",
            "ai:3,movetime=250,nodes=9,depth=4,hash=64,search=maxn,seed=1",
        ] {
            assert_eq!(parse(s).to_string(), s);
        }
        assert_eq!(
            parse("ai:5,seed=7"),
            PlayerSpec {
                kind: PlayerKind::Ai(AiSettings {
                    level: Some(5),
                    ..AiSettings::default()
                }),
                seed: Some(7)
            }
        );
        assert_eq!(
            parse("ai:movetime=500").kind,
            PlayerKind::Ai(AiSettings {
                movetime_ms: Some(500),
                ..AiSettings::default()
            })
        );
        // Spaces around items are tolerated; the canonical form has none.
        assert_eq!(parse(" ai:2, seed=4 ").to_string(), "ai:2,seed=4");
    }

    #[test]
    fn bad_specs_say_what_is_wrong() {
        assert_eq!("".parse::<PlayerSpec>(), Err(SpecError::Empty));
        assert_eq!(
            "human".parse::<PlayerSpec>(),
            Err(SpecError::UnknownPlayer("human".into()))
        );
        assert_eq!(
            "random:3".parse::<PlayerSpec>(),
            Err(SpecError::UnknownPlayer("random:3".into()))
        );
        assert_eq!(
            "ai:9".parse::<PlayerSpec>(),
            Err(SpecError::BadLevel("9".into()))
        );
        assert_eq!(
            "ai:0".parse::<PlayerSpec>(),
            Err(SpecError::BadLevel("0".into()))
        );
        assert!(
            matches!("ai:5,7".parse::<PlayerSpec>(), Err(SpecError::NotKeyValue { item, .. }) if item == "7")
        );
        assert!(
            matches!("ai:speed=3".parse::<PlayerSpec>(), Err(SpecError::UnknownKey { key, .. }) if key == "speed")
        );
        assert!(matches!(
            "greedy,nodes=3".parse::<PlayerSpec>(),
            Err(SpecError::UnknownKey {
                player: "greedy",
                ..
            })
        ));
        assert!(
            matches!("ai:nodes=1,nodes=2".parse::<PlayerSpec>(), Err(SpecError::Duplicate { key, .. }) if key == "nodes")
        );
        assert!(
            matches!("ai:movetime=fast".parse::<PlayerSpec>(), Err(SpecError::BadValue { key, .. }) if key == "movetime")
        );
        assert!(matches!(
            "ai:nodes=0".parse::<PlayerSpec>(),
            Err(SpecError::BadValue { .. })
        ));
        assert!(
            matches!("ai:search=mcts".parse::<PlayerSpec>(), Err(SpecError::BadValue { key, .. }) if key == "search")
        );
        let msg = "ai:9".parse::<PlayerSpec>().unwrap_err().to_string();
        assert!(msg.contains("1 to 8"), "{msg}");
    }

    #[test]
    fn settings_beyond_their_bounds_name_the_bound() {
        // A 64 GB table once aborted the process; an 3-year movetime never ended.
        let msg = "ai:hash=65536"
            .parse::<PlayerSpec>()
            .unwrap_err()
            .to_string();
        assert!(msg.contains("at most 4096"), "{msg}");
        let msg = "ai:movetime=99999999999"
            .parse::<PlayerSpec>()
            .unwrap_err()
            .to_string();
        assert!(msg.contains("at most 3600000"), "{msg}");
        let msg = "ai:nodes=99999999999999999999"
            .parse::<PlayerSpec>()
            .unwrap_err()
            .to_string();
        assert!(msg.contains("too large"), "{msg}");
        assert!("ai:hash=4096,movetime=3600000"
            .parse::<PlayerSpec>()
            .is_ok());
    }

    #[test]
    fn levels_resolve_to_budgets() {
        let ai = |s: &str| match parse(s).kind {
            PlayerKind::Ai(a) => a.resolve(),
            _ => unreachable!(),
        };
        let (limits, level) = ai("ai:1");
        assert_eq!(
            (limits.depth, limits.nodes, level.blunder_percent),
            (Some(1), None, 33)
        );
        let (limits, level) = ai("ai:8");
        assert_eq!((limits.nodes, level.noise), (Some(500_000), 0));
        assert_eq!(
            ai("ai").0,
            ai("ai:8").0,
            "no level and no limit is full strength"
        );
        let (limits, level) = ai("ai:movetime=500");
        assert_eq!(
            (limits.movetime, limits.nodes, limits.depth, level.noise),
            (Some(Duration::from_millis(500)), None, None, 0)
        );
        // An explicit limit replaces the level's budget but keeps its depth and errors.
        let (limits, level) = ai("ai:2,nodes=1000");
        assert_eq!(
            (limits.nodes, limits.depth, level.noise),
            (Some(1000), Some(1), 120)
        );
        let (limits, _) = ai("ai:5,depth=3");
        assert_eq!((limits.nodes, limits.depth), (None, Some(3)));
        let budgets: Vec<u64> = LEVELS[3..].iter().map(|l| l.nodes.unwrap()).collect();
        assert!(
            budgets.windows(2).all(|w| w[0] < w[1]),
            "levels grow: {budgets:?}"
        );
    }
}
