//! The rulesets shipped with libro, and loading any ruleset file into its family.
//!
//! Every ruleset file starts with the same four keys — `family`, `name`, `title`, `source` —
//! and the rest is the family's own. This crate reads those keys, hands the file to its
//! family, and gives front ends one type, [`AnyRuleset`], for a loaded ruleset of any family.

mod dyn_game;

pub use dyn_game::{DynGame, PlayError};

use libro_chess::ChessRules;
use libro_core::Ruleset;
use libro_tables::TablesRules;
use serde::Deserialize;
use std::path::Path;
use std::sync::Arc;

include!(concat!(env!("OUT_DIR"), "/shipped.rs"));

/// What went wrong finding or loading a ruleset.
#[derive(Debug, thiserror::Error)]
pub enum CatalogError {
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
    #[error("{origin}: family `{family}` is not one libro knows (chess, tables)")]
    UnknownFamily { origin: String, family: String },
    #[error(transparent)]
    Chess(#[from] libro_chess::RulesetError),
    #[error(transparent)]
    Tables(#[from] libro_tables::RulesetError),
    #[error("option `{0}` is not KEY=VALUE")]
    BadOverride(String),
}

/// The four keys every ruleset file starts with.
#[derive(Clone, Debug, Deserialize, serde::Serialize)]
pub struct Header {
    /// Which rules family reads the rest of the file: `chess` or `tables`.
    pub family: String,
    /// The short name used on the command line.
    pub name: String,
    /// The full name.
    pub title: String,
    /// Where its rules come from, in one line.
    pub source: String,
}

/// A loaded ruleset of any family.
#[derive(Clone)]
pub enum AnyRuleset {
    Chess(Arc<ChessRules>),
    Tables(Arc<TablesRules>),
}

impl AnyRuleset {
    /// A digest of the rules as parsed, options applied: the first 16 hex digits of the
    /// SHA-256 of their canonical text. Equal rules give equal digests however their files
    /// are written; any change to what decides play changes it.
    pub fn digest(&self) -> String {
        use sha2::{Digest, Sha256};
        let text = match self {
            AnyRuleset::Chess(r) => r.canonical(),
            AnyRuleset::Tables(r) => r.canonical(),
        };
        Sha256::digest(text.as_bytes())[..8]
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    }

    /// The ruleset's short name.
    pub fn name(&self) -> &str {
        match self {
            AnyRuleset::Chess(r) => r.name(),
            AnyRuleset::Tables(r) => r.name(),
        }
    }

    /// The seats' names in seat order.
    pub fn seat_names(&self) -> Vec<String> {
        match self {
            AnyRuleset::Chess(r) => r.seat_names(),
            AnyRuleset::Tables(r) => r.seat_names(),
        }
    }

    /// A new game; `seed` drives its dice, if it has any.
    pub fn new_game(&self, seed: u64) -> Box<dyn DynGame> {
        match self {
            AnyRuleset::Chess(r) => Box::new(r.new_game(seed)),
            AnyRuleset::Tables(r) => Box::new(r.new_game(seed)),
        }
    }

    /// A game from a position string, saying what is wrong and where if it cannot be read.
    pub fn parse_position(&self, text: &str) -> Result<Box<dyn DynGame>, String> {
        match self {
            AnyRuleset::Chess(r) => r
                .parse_position(text)
                .map(|g| Box::new(g) as Box<dyn DynGame>)
                .map_err(|e| e.to_string()),
            AnyRuleset::Tables(r) => r
                .parse_position(text)
                .map(|g| Box::new(g) as Box<dyn DynGame>)
                .map_err(|e| e.to_string()),
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
pub fn header(text: &str, origin: &str) -> Result<Header, CatalogError> {
    toml::from_str::<Header>(text).map_err(|e| CatalogError::Header {
        origin: origin.to_string(),
        message: e.to_string(),
    })
}

/// Splits `KEY=VALUE` command-line overrides.
pub fn parse_overrides(options: &[String]) -> Result<Vec<(String, String)>, CatalogError> {
    options
        .iter()
        .map(|o| match o.split_once('=') {
            Some((k, v)) if !k.trim().is_empty() => {
                Ok((k.trim().to_string(), v.trim().to_string()))
            }
            _ => Err(CatalogError::BadOverride(o.clone())),
        })
        .collect()
}

/// Loads a ruleset by shipped name, or from a file path (anything containing `/` or ending
/// in `.toml`), applying `overrides` to its options.
pub fn load(
    name_or_path: &str,
    overrides: &[(String, String)],
) -> Result<AnyRuleset, CatalogError> {
    if name_or_path.contains('/') || name_or_path.ends_with(".toml") {
        let text = read_file(name_or_path)?;
        return load_text(&text, name_or_path, overrides);
    }
    let (stem, text) = SHIPPED
        .iter()
        .find(|(stem, _)| *stem == name_or_path)
        .ok_or_else(|| CatalogError::Unknown {
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
pub fn read_file(path: &str) -> Result<String, CatalogError> {
    use std::io::Read;
    let io = |source| CatalogError::Io {
        path: path.to_string(),
        source,
    };
    let file = std::fs::File::open(Path::new(path)).map_err(io)?;
    let mut bytes = Vec::new();
    file.take(MAX_RULESET_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(io)?;
    if bytes.len() as u64 > MAX_RULESET_BYTES {
        return Err(CatalogError::TooLarge {
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

/// Loads a ruleset from its text; `origin` names it in error messages.
pub fn load_text(
    text: &str,
    origin: &str,
    overrides: &[(String, String)],
) -> Result<AnyRuleset, CatalogError> {
    let head = header(text, origin)?;
    match head.family.as_str() {
        "chess" => Ok(AnyRuleset::Chess(Arc::new(ChessRules::from_toml(
            text, origin, overrides,
        )?))),
        "tables" => Ok(AnyRuleset::Tables(Arc::new(TablesRules::from_toml(
            text, origin, overrides,
        )?))),
        other => Err(CatalogError::UnknownFamily {
            origin: origin.to_string(),
            family: other.to_string(),
        }),
    }
}
