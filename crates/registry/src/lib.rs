//! The registry: every rules family behind one interface, and the rulesets shipped with
//! libro.
//!
//! Every ruleset file starts with the same four keys — `family`, `name`, `title`, `source` —
//! and the rest is the family's own. The registry reads those keys and hands the file to its
//! family's loader ([`FAMILIES`]). Front ends (server, lab, CLI) see a loaded ruleset as an
//! [`AnyRuleset`]: its title, sources, options, pieces and board geometry, new games as
//! [`DynGame`]s (text, action ids, board views, the AI), and — for code generic over the game
//! interface, such as a search or a study — the ruleset itself through [`Visit`]. This crate
//! is the only one that names a family.

mod chess;
mod dyn_game;
mod family;
mod tables;
mod view;

pub use dyn_game::{DynGame, Line, PlayError};
pub use family::{
    FamilyGame, FamilyRules, Geometry, Ledger, OptionInfo, OptionKind, PieceInfo, PlaceError,
    Placement, RollPlays, UciGame,
};
pub use libro_chess::net::Network;
pub use view::{BoardView, GridView, SquareView, StakesView, TrackView};

use libro_chess::net::NetworkError;
use libro_chess::ChessRules;
use libro_core::Ruleset;
use libro_tables::TablesRules;
use serde::Deserialize;
use std::any::Any;
use std::path::Path;
use std::sync::{Arc, OnceLock};

include!(concat!(env!("OUT_DIR"), "/shipped.rs"));

/// What went wrong finding, loading or using a ruleset.
#[derive(Debug, thiserror::Error)]
pub enum RegistryError {
    #[error("no ruleset is called `{name}`; the shipped ones are: {known}")]
    Unknown { name: String, known: String },
    #[error("cannot read ruleset file {path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    #[error("ruleset file {path} is larger than {max} bytes; a ruleset is a short text file")]
    TooLarge { path: String, max: u64 },
    #[error("{origin}: {message}")]
    Header { origin: String, message: String },
    #[error("{origin}: family `{family}` is not one libro knows ({known})")]
    UnknownFamily {
        origin: String,
        family: String,
        known: String,
    },
    #[error(transparent)]
    Chess(#[from] libro_chess::RulesetError),
    #[error(transparent)]
    Tables(#[from] libro_tables::RulesetError),
    #[error(transparent)]
    Network(#[from] libro_chess::net::NetworkError),
    #[error("network file {path}: {problem}")]
    NetworkFile { path: String, problem: NetworkError },
    #[error("cannot read network file {path}: {error}")]
    NetworkIo { path: String, error: std::io::Error },
    #[error("option `{0}` is not KEY=VALUE")]
    BadOverride(String),
    #[error("the readings of one study must all be of one family; `{0}` is not")]
    MixedFamilies(String),
    #[error("ruleset `{ruleset}` has no {what}")]
    Unsupported { ruleset: String, what: &'static str },
    #[error("UCI (and UCI engines) play the two-player chess rulesets; `{0}` is not one")]
    NoUci(String),
    #[error("{0}")]
    Stakes(String),
    #[error("{0}")]
    Position(String),
}

/// Reads a ruleset file's text (`origin` names it in errors) with option overrides.
type Load = fn(&str, &str, &[(String, String)]) -> Result<AnyRuleset, RegistryError>;

/// A family's loader: reads the rest of a ruleset file whose header names the family.
pub struct FamilyLoader {
    /// The name ruleset files give in `family = "..."`.
    pub name: &'static str,
    /// What the family plays, in a few words.
    pub about: &'static str,
    load: Load,
}

/// Every registered family. A new family adds its loader here, a variant to the private
/// `Loaded` enum, and its `FamilyRules`/`FamilyGame` implementations.
pub static FAMILIES: &[FamilyLoader] = &[
    FamilyLoader {
        name: ChessRules::FAMILY,
        about: "chess on a board of squares, for two or four seats",
        load: |text, origin, overrides| {
            let rules = ChessRules::from_toml(text, origin, overrides)?;
            let net = shipped_network(&rules);
            Ok(AnyRuleset(Loaded::Chess(Arc::new(
                rules.with_network(net)?,
            ))))
        },
    },
    FamilyLoader {
        name: TablesRules::FAMILY,
        about: "tables games: checkers raced round points with dice",
        load: |text, origin, overrides| {
            Ok(AnyRuleset(Loaded::Tables(Arc::new(
                TablesRules::from_toml(text, origin, overrides)?,
            ))))
        },
    },
];

/// The shipped evaluation networks (`rulesets/*.nnue`), read once.
fn shipped_networks() -> &'static [(&'static str, Arc<Network>)] {
    static NETWORKS: OnceLock<Vec<(&'static str, Arc<Network>)>> = OnceLock::new();
    NETWORKS.get_or_init(|| {
        SHIPPED_NETWORKS
            .iter()
            .filter_map(|(stem, bytes)| Some((*stem, Arc::new(Network::from_bytes(bytes).ok()?))))
            .collect()
    })
}

/// The shipped evaluation network fitted for `rules` (by their board, seats, pieces and
/// start, whatever the file's name or options), if any.
pub fn shipped_network(rules: &ChessRules) -> Option<Arc<Network>> {
    shipped_networks()
        .iter()
        .find(|(_, n)| n.fits(rules).is_ok())
        .map(|(_, n)| n.clone())
}

/// The four keys every ruleset file starts with.
#[derive(Clone, Debug, Deserialize, serde::Serialize)]
pub struct Header {
    /// Which rules family reads the rest of the file (one of [`FAMILIES`]).
    pub family: String,
    /// The short name used on the command line.
    pub name: String,
    /// The full name.
    pub title: String,
    /// Where its rules come from, in one line.
    pub source: String,
}

/// A loaded ruleset of one family.
#[derive(Clone)]
enum Loaded {
    Chess(Arc<ChessRules>),
    Tables(Arc<TablesRules>),
}

/// A loaded ruleset of any family.
#[derive(Clone)]
pub struct AnyRuleset(Loaded);

/// Code generic over the game interface (a search, a match, a study), run on rulesets of
/// any family: [`AnyRuleset::visit`] calls `visit` with the family's own ruleset type.
pub trait Visit {
    type Output;
    /// Runs on one or more rulesets of one family (the readings of a study, or one ruleset).
    fn visit<R: FamilyRules>(self, rules: &[Arc<R>]) -> Self::Output;
}

/// Code generic over the games UCI can carry: [`AnyRuleset::visit_uci`].
pub trait VisitUci {
    type Output;
    fn visit<G: UciGame>(self, rules: &Arc<G::Rules>) -> Self::Output;
}

/// Dispatches a family-specific call on the loaded ruleset.
macro_rules! each_family {
    ($loaded:expr, $r:ident => $body:expr) => {
        match $loaded {
            Loaded::Chess($r) => $body,
            Loaded::Tables($r) => $body,
        }
    };
}

impl AnyRuleset {
    /// The family's name (`chess`, `tables`).
    pub fn family(&self) -> &'static str {
        match &self.0 {
            Loaded::Chess(_) => ChessRules::FAMILY,
            Loaded::Tables(_) => TablesRules::FAMILY,
        }
    }

    /// The ruleset's short name.
    pub fn name(&self) -> &str {
        each_family!(&self.0, r => r.name())
    }

    /// The full name.
    pub fn title(&self) -> &str {
        each_family!(&self.0, r => FamilyRules::title(r.as_ref()))
    }

    /// Where its rules come from, in one line.
    pub fn source(&self) -> &str {
        each_family!(&self.0, r => FamilyRules::source(r.as_ref()))
    }

    /// The rule options with their values in force.
    pub fn options(&self) -> Vec<OptionInfo> {
        each_family!(&self.0, r => FamilyRules::options(r.as_ref()))
    }

    /// The piece types (empty for tables' checkers).
    pub fn pieces(&self) -> Vec<PieceInfo> {
        each_family!(&self.0, r => FamilyRules::pieces(r.as_ref()))
    }

    /// The board's shape, for renderers.
    pub fn geometry(&self) -> Geometry {
        each_family!(&self.0, r => FamilyRules::geometry(r.as_ref()))
    }

    /// The edge of the board each seat plays from (`south`, `north`, `west`, `east`); empty
    /// for a track.
    pub fn seat_sides(&self) -> Vec<&'static str> {
        each_family!(&self.0, r => FamilyRules::seat_sides(r.as_ref()))
    }

    /// How many action ids its games can use: every id is below this.
    pub fn num_distinct_actions(&self) -> u64 {
        each_family!(&self.0, r => FamilyRules::num_distinct_actions(r.as_ref()))
    }

    /// The dice rolled per turn and their sides; `None` for games without dice.
    pub fn dice(&self) -> Option<(u8, u8)> {
        each_family!(&self.0, r => FamilyRules::dice(r.as_ref()))
    }

    /// The most outcomes one chance event can have (0 for games without chance).
    pub fn max_chance_outcomes(&self) -> usize {
        each_family!(&self.0, r => FamilyRules::max_chance_outcomes(r.as_ref()))
    }

    /// The most legal moves one position can have, where the family bounds it.
    pub fn max_legal_actions(&self) -> Option<usize> {
        each_family!(&self.0, r => FamilyRules::max_legal_actions(r.as_ref()))
    }

    /// The seats' names in seat order.
    pub fn seat_names(&self) -> Vec<String> {
        each_family!(&self.0, r => r.seat_names())
    }

    /// Whether its games carry stakes set at creation (the four-player game).
    pub fn has_stakes(&self) -> bool {
        each_family!(&self.0, r => FamilyRules::has_stakes(r.as_ref()))
    }

    /// Whether GUIs can play it over UCI (two-seat chess rulesets).
    pub fn speaks_uci(&self) -> bool {
        matches!(&self.0, Loaded::Chess(r) if chess::speaks_uci(r))
    }

    /// The rules as parsed, options applied, written canonically.
    pub fn canonical(&self) -> String {
        each_family!(&self.0, r => FamilyRules::canonical(r.as_ref()))
    }

    /// A digest of the rules as parsed, options applied: the first 16 hex digits of the
    /// SHA-256 of their canonical text. Equal rules give equal digests however their files
    /// are written; any change to what decides play changes it.
    pub fn digest(&self) -> String {
        use sha2::{Digest, Sha256};
        Sha256::digest(self.canonical().as_bytes())[..8]
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    }

    /// A new game; `seed` drives its dice, if it has any.
    pub fn new_game(&self, seed: u64) -> Box<dyn DynGame> {
        each_family!(&self.0, r => Box::new(r.new_game(seed)))
    }

    /// The start position with each seat's own stake (the four-player game): one whole
    /// number of at least 1 per seat.
    pub fn new_game_with_stakes(&self, stakes: &[u32]) -> Result<Box<dyn DynGame>, RegistryError> {
        let n = self.seat_names().len();
        if !self.has_stakes() {
            return Err(RegistryError::Stakes(format!(
                "ruleset `{}` has no stakes",
                self.name()
            )));
        }
        if stakes.len() != n {
            return Err(RegistryError::Stakes(format!(
                "{} stakes given for {n} seats",
                stakes.len()
            )));
        }
        if stakes.contains(&0) {
            return Err(RegistryError::Stakes(
                "a stake must be a whole number of at least 1".into(),
            ));
        }
        each_family!(&self.0, r => FamilyRules::with_stakes(r, stakes)
            .map(|g| Box::new(g) as Box<dyn DynGame>)
            .ok_or_else(|| RegistryError::Stakes(format!("ruleset `{}` has no stakes", self.name()))))
    }

    /// A game from a position string, saying what is wrong and where if it cannot be read.
    pub fn parse_position(&self, text: &str) -> Result<Box<dyn DynGame>, RegistryError> {
        each_family!(&self.0, r => r
            .parse_position(text)
            .map(|g| Box::new(g) as Box<dyn DynGame>)
            .map_err(|e| RegistryError::Position(e.to_string())))
    }

    /// The position string of `pieces` placed on an empty board with seat `to_move` to
    /// move (a board editor's), checked by the rules; refused, naming the problem, where the
    /// position cannot stand or the game has no pieces to place (tables).
    pub fn place(&self, pieces: &[Placement], to_move: u8) -> Result<String, PlaceError> {
        match &self.0 {
            Loaded::Chess(r) => chess::place(r, pieces, to_move),
            Loaded::Tables(_) => Err(PlaceError::new(
                "unsupported",
                format!("ruleset `{}` has no pieces to place", self.name()),
            )),
        }
    }

    /// The game perft starts from: the start position (after the opening bets where the
    /// ruleset has them, as Ludii's four-player perft does), or `position`.
    pub fn perft_start(&self, position: Option<&str>) -> Result<Box<dyn DynGame>, RegistryError> {
        match (&self.0, position) {
            (_, Some(text)) => self.parse_position(text),
            (Loaded::Chess(r), None) => Ok(Box::new(r.perft_start())),
            (_, None) => Ok(self.new_game(0)),
        }
    }

    /// Replays Ludii's recorded playouts (JSON lines) move for move: games, plies and every
    /// mismatch found, for the rulesets that reproduce Ludii's readings.
    pub fn replay_ludii(&self, jsonl: &str) -> Result<(usize, u64, Vec<String>), RegistryError> {
        match &self.0 {
            Loaded::Chess(r) => {
                let report = libro_chess::replay_ludii(r, jsonl);
                Ok((
                    report.games,
                    report.plies,
                    report.mismatches.iter().map(ToString::to_string).collect(),
                ))
            }
            Loaded::Tables(_) => Err(RegistryError::Unsupported {
                ruleset: self.name().to_string(),
                what: "Ludii replay",
            }),
        }
    }

    /// Whether `other` is this very loaded ruleset (one shared copy), not just equal rules.
    pub fn same_rules(&self, other: &AnyRuleset) -> bool {
        match (&self.0, &other.0) {
            (Loaded::Chess(a), Loaded::Chess(b)) => Arc::ptr_eq(a, b),
            (Loaded::Tables(a), Loaded::Tables(b)) => Arc::ptr_eq(a, b),
            _ => false,
        }
    }

    /// Runs `v` on this ruleset with its family's own type.
    pub fn visit<V: Visit>(&self, v: V) -> V::Output {
        each_family!(&self.0, r => v.visit(std::slice::from_ref(r)))
    }

    /// Runs `v` on this ruleset if UCI can carry it (see [`AnyRuleset::speaks_uci`]).
    pub fn visit_uci<V: VisitUci>(&self, v: V) -> Result<V::Output, RegistryError> {
        match &self.0 {
            Loaded::Chess(r) if chess::speaks_uci(r) => Ok(v.visit::<libro_chess::ChessGame>(r)),
            _ => Err(RegistryError::NoUci(self.name().to_string())),
        }
    }

    /// The key of the evaluation network the AI plays these rules with
    /// ([`libro_chess::net::rules_key`]), if any.
    pub fn network_key(&self) -> Option<[u8; 32]> {
        match &self.0 {
            Loaded::Chess(r) => r.network().map(|n| n.key()),
            Loaded::Tables(_) => None,
        }
    }

    /// The SHA-256 of the network file the AI plays these rules with ([`Network::digest`]),
    /// if any: which network played a match, as `sha256sum rulesets/*.nnue` names them.
    pub fn network_digest(&self) -> Option<String> {
        match &self.0 {
            Loaded::Chess(r) => r.network().map(|n| n.digest()),
            Loaded::Tables(_) => None,
        }
    }

    /// The ruleset as the family type `R`, if it is one: for generic code that holds an
    /// `Arc<R>` already (a UCI engine switching variants).
    pub fn downcast<R: Ruleset>(&self) -> Option<Arc<R>> {
        let any: Arc<dyn Any + Send + Sync> = each_family!(&self.0, r => r.clone());
        any.downcast::<R>().ok()
    }
}

/// The readings of one study played with one evaluation: unless they all carry the same
/// network, none keeps one, so that the readings differ by their rules and not also by how
/// the AI values positions.
pub fn with_one_evaluation(readings: Vec<AnyRuleset>) -> Vec<AnyRuleset> {
    let keys: Vec<Option<[u8; 32]>> = readings.iter().map(AnyRuleset::network_key).collect();
    if keys.windows(2).all(|w| w[0] == w[1]) {
        return readings;
    }
    readings
        .into_iter()
        .map(|r| match r.0 {
            Loaded::Chess(c) if c.network().is_some() => {
                let plain = Arc::unwrap_or_clone(c)
                    .with_network(None)
                    .expect("no network fits any rules");
                AnyRuleset(Loaded::Chess(Arc::new(plain)))
            }
            other => AnyRuleset(other),
        })
        .collect()
}

/// Runs `v` on the readings of one study: rulesets that must all be of one family.
pub fn visit_readings<V: Visit>(readings: &[AnyRuleset], v: V) -> Result<V::Output, RegistryError> {
    fn same<R: 'static>(
        readings: &[AnyRuleset],
        pick: impl Fn(&Loaded) -> Option<&Arc<R>>,
    ) -> Result<Vec<Arc<R>>, RegistryError> {
        readings
            .iter()
            .map(|r| {
                pick(&r.0)
                    .cloned()
                    .ok_or_else(|| RegistryError::MixedFamilies(r.name().to_string()))
            })
            .collect()
    }
    match readings.first().map(|r| &r.0) {
        None | Some(Loaded::Chess(_)) => {
            let rules = same(readings, |l| match l {
                Loaded::Chess(r) => Some(r),
                _ => None,
            })?;
            Ok(v.visit(&rules))
        }
        Some(Loaded::Tables(_)) => {
            let rules = same(readings, |l| match l {
                Loaded::Tables(r) => Some(r),
                _ => None,
            })?;
            Ok(v.visit(&rules))
        }
    }
}

/// The headers of every shipped ruleset, in file-name order.
pub fn shipped() -> Vec<Header> {
    SHIPPED
        .iter()
        .map(|(stem, text)| {
            header(text, &format!("rulesets/{stem}.toml"))
                .expect("a shipped ruleset has a valid header")
        })
        .collect()
}

/// Reads the four common keys of a ruleset file.
pub fn header(text: &str, origin: &str) -> Result<Header, RegistryError> {
    toml::from_str::<Header>(text).map_err(|e| RegistryError::Header {
        origin: origin.to_string(),
        message: e.to_string(),
    })
}

/// Splits `KEY=VALUE` command-line overrides.
pub fn parse_overrides(options: &[String]) -> Result<Vec<(String, String)>, RegistryError> {
    options
        .iter()
        .map(|o| match o.split_once('=') {
            Some((k, v)) if !k.trim().is_empty() => {
                Ok((k.trim().to_string(), v.trim().to_string()))
            }
            _ => Err(RegistryError::BadOverride(o.clone())),
        })
        .collect()
}

/// Loads a ruleset by shipped name, or from a file path (anything containing `/` or ending
/// in `.toml`), applying `overrides` to its options.
pub fn load(
    name_or_path: &str,
    overrides: &[(String, String)],
) -> Result<AnyRuleset, RegistryError> {
    if name_or_path.contains('/') || name_or_path.ends_with(".toml") {
        let text = read_file(name_or_path)?;
        return load_text(&text, name_or_path, overrides);
    }
    let (stem, text) = SHIPPED
        .iter()
        .find(|(stem, _)| *stem == name_or_path)
        .ok_or_else(|| RegistryError::Unknown {
            name: name_or_path.to_string(),
            known: SHIPPED
                .iter()
                .map(|(s, _)| *s)
                .collect::<Vec<_>>()
                .join(", "),
        })?;
    load_text(text, &format!("rulesets/{stem}.toml"), overrides)
}

/// The largest ruleset file libro reads (the shipped ones are under 16 KiB): a bound so that
/// `--check /dev/zero` or a huge upload ends with a message instead of filling memory.
pub const MAX_RULESET_BYTES: u64 = 1 << 20;

/// Reads a ruleset file of at most [`MAX_RULESET_BYTES`], as UTF-8 text.
pub fn read_file(path: &str) -> Result<String, RegistryError> {
    use std::io::Read;
    let io = |source| RegistryError::Io {
        path: path.to_string(),
        source,
    };
    let file = std::fs::File::open(Path::new(path)).map_err(io)?;
    let mut bytes = Vec::new();
    file.take(MAX_RULESET_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(io)?;
    if bytes.len() as u64 > MAX_RULESET_BYTES {
        return Err(RegistryError::TooLarge {
            path: path.to_string(),
            max: MAX_RULESET_BYTES,
        });
    }
    String::from_utf8(bytes).map_err(|e| {
        io(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("not UTF-8 text (byte {})", e.utf8_error().valid_up_to()),
        ))
    })
}

/// Reads an evaluation network file (UCI's `EvalFile`): at most
/// [`libro_chess::net::NETWORK_BYTES`] are read, the length of every network of this build.
pub fn read_network(path: &str) -> Result<Arc<Network>, RegistryError> {
    use std::io::Read;
    let io = |error| RegistryError::NetworkIo {
        path: path.to_string(),
        error,
    };
    let file = std::fs::File::open(Path::new(path)).map_err(io)?;
    let mut bytes = Vec::new();
    file.take(libro_chess::net::NETWORK_BYTES as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(io)?;
    let network = if bytes.len() > libro_chess::net::NETWORK_BYTES {
        Err(NetworkError::TooLong)
    } else {
        Network::from_bytes(&bytes)
    };
    network
        .map(Arc::new)
        .map_err(|problem| RegistryError::NetworkFile {
            path: path.to_string(),
            problem,
        })
}

/// Loads a ruleset from its text; `origin` names it in error messages.
pub fn load_text(
    text: &str,
    origin: &str,
    overrides: &[(String, String)],
) -> Result<AnyRuleset, RegistryError> {
    let head = header(text, origin)?;
    let family = FAMILIES
        .iter()
        .find(|f| f.name == head.family)
        .ok_or_else(|| RegistryError::UnknownFamily {
            origin: origin.to_string(),
            family: head.family.clone(),
            known: FAMILIES
                .iter()
                .map(|f| f.name)
                .collect::<Vec<_>>()
                .join(", "),
        })?;
    (family.load)(text, origin, overrides)
}
