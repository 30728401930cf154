//! Ruleset files of the tables family: what a file declares, how it is checked, and the
//! loaded [`TablesRules`] every game of it shares.
//!
//! A file (`rulesets/fallas.toml` is the model) has, besides the common `family = "tables"`,
//! `name`, `title` and `source`:
//! - `seats`: the two players in seat order; `checkers`: each one's checkers (1–15).
//! - `[board]` `points` (24: positions are gnubg Position IDs) and `home`: each player's
//!   home table is its own points 1 to `home`.
//! - `[paths]`: per seat, the board points (the first seat's numbering) it passes from its
//!   own point 24 to its own 1, as ranges: `"24-1"`, `"1-24"`, `"1-12, 24-13"`. Opposite
//!   directions (Fallas), the same path for both (Pareja de Entrada), or any other.
//! - `[setup]`: checkers on each player's own points at the start (`6 = 13`), the same for
//!   both; `bar = n` starts checkers on the bar (in hand, as in games that begin with every
//!   checker off the board). Or one table per seat, `[setup.white]` and `[setup.black]`, when
//!   the players start differently. Must place every checker.
//! - `[stacks]` `points` (optional): own points whose two checkers start stacked, one on
//!   top of the other, for both players (Doblet). A die of n lays down the pair on point n
//!   (`3/down`): the top checker is set beside the other, on the same point. Until all its
//!   pairs are laid down a player moves nothing else.
//! - `[dice]` `count` (1–3), `sides` (2–9), `falla`: true, a player who cannot play all its
//!   dice loses at once; false, it plays as many as it can and loses the rest.
//! - `[contact]` `hitting`: true, a lone opposing checker is hit to the bar and two or more
//!   close a point; false, any opposing checker closes it. `enter_first`: a checker on the
//!   bar must enter (on own point `entry` + 1 − n) before any other moves.
//! - `[options.NAME]` `value` and `source`: the switchable rules, which `--option NAME=VALUE`
//!   overrides: `bear_off = standard | exact`; `doubles = once | roll-again` (a roll whose
//!   dice all match gives another roll); `unplayable = lost | to-opponent` (without the
//!   falla, the dice a player cannot play are lost, played by the opponent instead of its
//!   roll, or `to-opponent-extra`: by the opponent at once, before its own roll);
//!   `moves = path | bear-off-only` (checkers never move along the board: a die only lays
//!   down a pair or bears off); `entry = 24 … 7` (the own point a checker on the
//!   bar enters on with a 1, for paths shorter than the board). [`TablesRules::options`]
//!   lists `bear_off` always and the others when the file or an override sets them.
//!
//! Unknown keys, values out of range and setups that do not fit are refused with the file,
//! the line and the reason.

use crate::board::Board;
use crate::dice::{all_rolls, Dice, MAX_DICE, MAX_SIDES};
use crate::game::{PositionError, TablesGame};
use crate::notation::BAR;
pub use crate::options::BearOff;
use crate::options::{Doubles, Moves, Options, Unplayable, SPECS};
use libro_core::options::{OptionError, OptionKind, Sources};
use libro_core::{Chance, Ruleset};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;
use toml::Spanned;

/// Points on the board. Fixed at 24: positions are exchanged as gnubg Position IDs.
pub const POINTS: u8 = 24;

/// Most checkers a player may have (the gnubg Position ID holds 15 a side).
pub const MAX_CHECKERS: u8 = 15;

/// A ruleset file that cannot be loaded, or an option override that cannot be applied.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RulesetError {
    /// The file is not valid TOML or does not have the family's keys.
    #[error("{origin}:{line}: {reason}")]
    Syntax {
        origin: String,
        line: usize,
        reason: String,
    },
    /// A key has a value the family cannot play.
    #[error("{origin}:{line}: {reason}")]
    Invalid {
        origin: String,
        line: usize,
        reason: String,
    },
    /// A `--option NAME=VALUE` override names no option or gives a value it does not allow.
    #[error("{origin}: option override `{name}={value}`: {reason}")]
    Override {
        origin: String,
        name: String,
        value: String,
        reason: String,
    },
}

/// A rule option of the loaded ruleset, for front ends to show and users to switch.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct RuleOption {
    pub name: &'static str,
    /// The value in force (the file's, or an override's).
    pub value: String,
    /// The values the option takes.
    pub allowed: &'static [&'static str],
    /// What the option decides, in one line.
    pub explanation: &'static str,
    /// Where the file's value comes from, as the file says.
    pub source: String,
}

/// A loaded tables ruleset: the board, paths, setup, dice and rules of one game of the
/// family, shared behind an `Arc` by every game played under it.
#[derive(Clone)]
pub struct TablesRules {
    name: String,
    title: String,
    source: String,
    seats: [String; 2],
    pub(crate) checkers: u8,
    pub(crate) home: u8,
    /// `path[s][p]`: the board point that is seat `s`'s own point `p` (1–24).
    path: [[u8; 25]; 2],
    /// `cross[s][p]`: the other seat's own number for seat `s`'s own point `p` (1–24).
    pub(crate) cross: [[u8; 25]; 2],
    /// Whether the paths run in opposite directions over the same points (`cross` is 25 − p).
    pub(crate) opposite: bool,
    pub(crate) start: Board,
    pub(crate) dice_count: u8,
    pub(crate) dice_sides: u8,
    pub(crate) falla: bool,
    pub(crate) hitting: bool,
    pub(crate) enter_first: bool,
    pub(crate) bear_off: BearOff,
    /// The own point a checker on the bar enters on with a 1 (a die of n: `entry + 1 - n`).
    pub(crate) entry: u8,
    /// Whether a roll whose dice all show the same number gives the player another roll.
    pub(crate) roll_again: bool,
    /// Whether dice left unplayed go to the opponent.
    pub(crate) give_unplayable: bool,
    /// Whether the opponent plays given dice as an extra and then rolls its own turn
    /// (`to-opponent-extra`), rather than instead of its roll.
    pub(crate) given_extra: bool,
    /// Whether checkers never move along the board (`moves = bear-off-only`).
    pub(crate) off_only: bool,
    options: Vec<RuleOption>,
    rolls: Vec<Chance<Dice>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    family: Spanned<String>,
    name: Spanned<String>,
    title: String,
    source: String,
    seats: Spanned<Vec<String>>,
    checkers: Spanned<u8>,
    board: BoardSpec,
    paths: Spanned<BTreeMap<String, Spanned<String>>>,
    setup: BTreeMap<String, SetupItem>,
    dice: DiceSpec,
    contact: ContactSpec,
    #[serde(default)]
    stacks: Option<StacksSpec>,
    #[serde(default)]
    options: BTreeMap<String, Spanned<FileOption>>,
}

/// `[stacks]`: the own points whose pairs start stacked.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StacksSpec {
    points: Spanned<Vec<i64>>,
}

/// `[setup]` read again when it is the same for both players, for the line of each entry
/// (toml gives no span for a table holding the seats' own tables).
#[derive(Deserialize)]
struct SharedSetup {
    setup: Spanned<BTreeMap<String, Spanned<i64>>>,
}

/// A `[setup]` entry: `point = count` for both players, or a seat's own table.
enum SetupItem {
    /// `point = count`; the counts are read again with their lines ([`SharedSetup`]).
    Count,
    Seat(BTreeMap<String, i64>),
}

impl<'de> Deserialize<'de> for SetupItem {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<SetupItem, D::Error> {
        struct Visit;
        impl<'de> serde::de::Visitor<'de> for Visit {
            type Value = SetupItem;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a count of checkers, or a seat's table of `point = count`")
            }
            fn visit_i64<E>(self, _: i64) -> Result<SetupItem, E> {
                Ok(SetupItem::Count)
            }
            fn visit_u64<E>(self, _: u64) -> Result<SetupItem, E> {
                Ok(SetupItem::Count)
            }
            fn visit_map<M: serde::de::MapAccess<'de>>(
                self,
                mut map: M,
            ) -> Result<SetupItem, M::Error> {
                let mut out = BTreeMap::new();
                while let Some((k, v)) = map.next_entry::<String, i64>()? {
                    out.insert(k, v);
                }
                Ok(SetupItem::Seat(out))
            }
        }
        d.deserialize_any(Visit)
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct BoardSpec {
    points: Spanned<u8>,
    home: Spanned<u8>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DiceSpec {
    count: Spanned<u8>,
    sides: Spanned<u8>,
    falla: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ContactSpec {
    hitting: bool,
    enter_first: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileOption {
    value: Spanned<String>,
    source: String,
}

/// The 1-based line of a byte offset.
fn line_of(text: &str, offset: usize) -> usize {
    text.as_bytes()[..offset.min(text.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}

/// Reads a path: comma-separated board points and ranges (`24-1`, `1-12, 24-13`), listing
/// the points from the seat's own 24 down to its own 1.
fn parse_path(text: &str) -> Result<[u8; 25], String> {
    let mut points = Vec::new();
    for item in text.split(',').map(str::trim) {
        let num = |s: &str| match s.trim().parse::<u8>() {
            Ok(p @ 1..=POINTS) => Ok(p),
            _ => Err(format!("`{}` is not a board point (1-{POINTS})", s.trim())),
        };
        match item.split_once('-') {
            Some((a, b)) => {
                let (a, b) = (num(a)?, num(b)?);
                if a >= b {
                    points.extend((b..=a).rev());
                } else {
                    points.extend(a..=b);
                }
            }
            None => points.push(num(item)?),
        }
    }
    if points.len() != usize::from(POINTS) {
        return Err(format!(
            "the path lists {} points; it must pass all {POINTS} once",
            points.len()
        ));
    }
    let mut seen = [false; 25];
    let mut own = [0u8; 25];
    for (i, &p) in points.iter().enumerate() {
        if std::mem::replace(&mut seen[usize::from(p)], true) {
            return Err(format!("the path passes board point {p} twice"));
        }
        own[usize::from(POINTS) - i] = p;
    }
    Ok(own)
}

/// Written as the derived `Debug` was before the `doubles`, `entry` and `unplayable`
/// options, which are added only when they differ from their defaults: the canonical text
/// (and so the digest) of a ruleset that does not use them stays what it was.
impl fmt::Debug for TablesRules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut d = f.debug_struct("TablesRules");
        d.field("name", &self.name)
            .field("title", &self.title)
            .field("source", &self.source)
            .field("seats", &self.seats)
            .field("checkers", &self.checkers)
            .field("home", &self.home)
            .field("path", &self.path)
            .field("cross", &self.cross)
            .field("opposite", &self.opposite)
            .field("start", &self.start)
            .field("dice_count", &self.dice_count)
            .field("dice_sides", &self.dice_sides)
            .field("falla", &self.falla)
            .field("hitting", &self.hitting)
            .field("enter_first", &self.enter_first)
            .field("bear_off", &self.bear_off);
        if self.entry != POINTS {
            d.field("entry", &self.entry);
        }
        if self.roll_again {
            d.field("roll_again", &self.roll_again);
        }
        if self.give_unplayable {
            d.field("give_unplayable", &self.give_unplayable);
        }
        if self.given_extra {
            d.field("given_extra", &self.given_extra);
        }
        if self.off_only {
            d.field("off_only", &self.off_only);
        }
        d.field("options", &self.options)
            .field("rolls", &self.rolls)
            .finish()
    }
}

impl TablesRules {
    /// Everything that decides play — board, paths, setup, dice, contact and options — as
    /// text that is the same for the same rules however the file was written (name, title
    /// and source left out). What a ruleset digest is taken of.
    pub fn canonical(&self) -> String {
        let unnamed = TablesRules {
            name: String::new(),
            title: String::new(),
            source: String::new(),
            ..self.clone()
        };
        format!("tables\n{unnamed:?}")
    }
}

/// Reads `[setup]`: either `point = count` for both players (`6 = 13`, `bar = 2`), or one
/// table per seat (`[setup.white]`, `[setup.black]`) when the players start differently.
/// Each player's counts must place all its checkers, and the players may not share a point.
fn read_setup(
    spec: &BTreeMap<String, SetupItem>,
    shared: Option<&Spanned<BTreeMap<String, Spanned<i64>>>>,
    setup_span: std::ops::Range<usize>,
    seats: &[String; 2],
    checkers: u8,
    (path, cross): (&[[u8; 25]; 2], &[[u8; 25]; 2]),
    invalid: &dyn Fn(std::ops::Range<usize>, String) -> RulesetError,
) -> Result<Board, RulesetError> {
    let per_seat = shared.is_none();
    let mut counts = [[0u8; 26]; 2];
    let count_at = |key: &str,
                    n: i64,
                    span: std::ops::Range<usize>,
                    out: &mut [u8; 26]|
     -> Result<(), RulesetError> {
        let slot = match key {
            "bar" => usize::from(BAR),
            k => match k.parse::<u8>() {
                Ok(p @ 1..=POINTS) => usize::from(p),
                _ => {
                    return Err(invalid(
                        span,
                        format!("setup key `{key}` is not a point (1-{POINTS}) or `bar`"),
                    ))
                }
            },
        };
        out[slot] = u8::try_from(n)
            .ok()
            .filter(|&n| n <= MAX_CHECKERS)
            .ok_or_else(|| {
                invalid(
                    span,
                    format!("setup `{key} = {n}`: a count of checkers is 0 to {MAX_CHECKERS}"),
                )
            })?;
        Ok(())
    };
    if per_seat {
        for (key, value) in spec {
            if !seats.contains(key) || !matches!(value, SetupItem::Seat(_)) {
                return Err(invalid(
                    setup_span.clone(),
                    format!(
                        "setup `{key}`: with one table per seat, every key is a seat ({}) holding `point = count`",
                        seats.join(", ")
                    ),
                ));
            }
        }
        for (s, seat) in seats.iter().enumerate() {
            let item = spec.get(seat).ok_or_else(|| {
                invalid(setup_span.clone(), format!("no setup for seat `{seat}`"))
            })?;
            if let SetupItem::Seat(table) = item {
                for (k, &n) in table {
                    count_at(k.as_str(), n, setup_span.clone(), &mut counts[s])?;
                }
            }
        }
    } else if let Some(shared) = shared {
        for (k, v) in shared.get_ref() {
            count_at(k, *v.get_ref(), v.span(), &mut counts[0])?;
        }
        counts[1] = counts[0];
    }
    for (s, seat) in seats.iter().enumerate() {
        let placed: u32 = counts[s].iter().map(|&n| u32::from(n)).sum();
        if placed != u32::from(checkers) {
            let who = if per_seat {
                format!("`{seat}`")
            } else {
                "per player".to_string()
            };
            return Err(invalid(
                setup_span.clone(),
                format!("the setup places {placed} checkers {who}, but each has {checkers}"),
            ));
        }
    }
    for p in 1..=usize::from(POINTS) {
        let q = usize::from(cross[0][p]);
        if counts[0][p] > 0 && counts[1][q] > 0 {
            return Err(invalid(
                setup_span.clone(),
                format!("the setup puts both players on board point {} (`{}`'s point {p}, `{}`'s point {q})", path[0][p], seats[0], seats[1]),
            ));
        }
    }
    Ok(Board::from_counts(counts))
}

/// Reads `[stacks]` `points`: own points 1 to `sides` (a die of n lays down the pair on
/// point n, so a higher point could never be laid down), each holding exactly two of every
/// player's checkers in the setup.
fn read_stacks(
    points: &Spanned<Vec<i64>>,
    start: &Board,
    sides: u8,
    seats: &[String; 2],
    invalid: &dyn Fn(std::ops::Range<usize>, String) -> RulesetError,
) -> Result<Board, RulesetError> {
    let mut mask = 0u32;
    for &p in points.get_ref() {
        let point = u8::try_from(p)
            .ok()
            .filter(|p| (1..=sides).contains(p))
            .ok_or_else(|| {
                invalid(
                    points.span(),
                    format!("stacks point {p}: a die of n lays down the pair on own point n, so stacked points are 1 to {sides}"),
                )
            })?;
        if mask >> point & 1 == 1 {
            return Err(invalid(
                points.span(),
                format!("stacks point {point} is listed twice"),
            ));
        }
        mask |= 1 << point;
        for (s, seat) in seats.iter().enumerate() {
            let n = start.count(s, point);
            if n != 2 {
                return Err(invalid(
                    points.span(),
                    format!("stacks point {point}: a stacked pair is two checkers, and the setup puts {n} of `{seat}`'s there"),
                ));
            }
        }
    }
    Ok(start.with_stacked([mask, mask]))
}

impl TablesRules {
    /// Loads a ruleset file. `origin` names it in errors (a path, or `rulesets/fallas.toml`);
    /// `overrides` set option values (`("bear_off", "exact")`).
    pub fn from_toml(
        text: &str,
        origin: &str,
        overrides: &[(String, String)],
    ) -> Result<TablesRules, RulesetError> {
        let file: File = toml::from_str(text).map_err(|e| RulesetError::Syntax {
            origin: origin.to_string(),
            line: e.span().map_or(1, |s| line_of(text, s.start)),
            reason: e.message().trim().to_string(),
        })?;
        let invalid = |span: std::ops::Range<usize>, reason: String| RulesetError::Invalid {
            origin: origin.to_string(),
            line: line_of(text, span.start),
            reason,
        };

        if file.family.get_ref() != "tables" {
            return Err(invalid(
                file.family.span(),
                format!(
                    "family is `{}`, but this is a tables ruleset",
                    file.family.get_ref()
                ),
            ));
        }
        let name = file.name.get_ref();
        if name.is_empty()
            || !name
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_')
        {
            return Err(invalid(
                file.name.span(),
                format!("name `{name}` must be lower-case letters, digits, `-` or `_`"),
            ));
        }

        let seat_list = file.seats.get_ref();
        if seat_list.len() != 2 {
            return Err(invalid(
                file.seats.span(),
                format!("a tables game has two seats, not {}", seat_list.len()),
            ));
        }
        for s in seat_list {
            let ok = s.chars().next().is_some_and(|c| c.is_ascii_lowercase())
                && s.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_')
                && !matches!(s.as_str(), "roll" | "roll-off" | "falla" | "bore-off");
            if !ok {
                return Err(invalid(
                    file.seats.span(),
                    format!("seat name `{s}` must start with a lower-case letter, use only a-z, 0-9, `-`, `_`, and not be a phase word (roll, roll-off, falla, bore-off)"),
                ));
            }
        }
        if seat_list[0] == seat_list[1] {
            return Err(invalid(
                file.seats.span(),
                format!("both seats are called `{}`", seat_list[0]),
            ));
        }
        let seats = [seat_list[0].clone(), seat_list[1].clone()];

        let checkers = *file.checkers.get_ref();
        if !(1..=MAX_CHECKERS).contains(&checkers) {
            return Err(invalid(file.checkers.span(), format!("checkers = {checkers}: a player has 1 to {MAX_CHECKERS} checkers (gnubg Position IDs hold 15)")));
        }
        if *file.board.points.get_ref() != POINTS {
            return Err(invalid(
                file.board.points.span(),
                format!(
                    "points = {}: the family plays on {POINTS} points (gnubg Position IDs)",
                    file.board.points.get_ref()
                ),
            ));
        }
        let home = *file.board.home.get_ref();
        if !(1..=POINTS).contains(&home) {
            return Err(invalid(file.board.home.span(), format!("home = {home}: the home table is the points 1 to home, with home from 1 to {POINTS}")));
        }

        let mut path = [[0u8; 25]; 2];
        for (key, value) in file.paths.get_ref() {
            if !seats.contains(key) {
                return Err(invalid(
                    value.span(),
                    format!(
                        "a path for `{key}`, which is not a seat ({})",
                        seats.join(", ")
                    ),
                ));
            }
        }
        for (s, seat) in seats.iter().enumerate() {
            let spec =
                file.paths.get_ref().get(seat).ok_or_else(|| {
                    invalid(file.paths.span(), format!("no path for seat `{seat}`"))
                })?;
            path[s] = parse_path(spec.get_ref())
                .map_err(|reason| invalid(spec.span(), format!("path of `{seat}`: {reason}")))?;
        }
        let mut cross = [[0u8; 25]; 2];
        for s in 0..2 {
            for p in 1..=usize::from(POINTS) {
                let board_point = path[s][p];
                cross[s][p] = (1..=POINTS)
                    .find(|&q| path[1 - s][usize::from(q)] == board_point)
                    .expect("paths cover every point");
            }
        }

        let all_counts = file.setup.values().all(|v| matches!(v, SetupItem::Count));
        let shared = if all_counts {
            let again: SharedSetup = toml::from_str(text).map_err(|e| RulesetError::Syntax {
                origin: origin.to_string(),
                line: e.span().map_or(1, |s| line_of(text, s.start)),
                reason: e.message().trim().to_string(),
            })?;
            Some(again.setup)
        } else {
            None
        };
        let setup_span = match &shared {
            Some(setup) => setup.span(),
            None => {
                let at = text.find("[setup").unwrap_or(0);
                at..at
            }
        };
        let start = read_setup(
            &file.setup,
            shared.as_ref(),
            setup_span,
            &seats,
            checkers,
            (&path, &cross),
            &invalid,
        )?;

        let count = *file.dice.count.get_ref();
        if !(1..=MAX_DICE as u8).contains(&count) {
            return Err(invalid(
                file.dice.count.span(),
                format!("count = {count}: a turn rolls 1 to {MAX_DICE} dice"),
            ));
        }
        let sides = *file.dice.sides.get_ref();
        if !(2..=MAX_SIDES).contains(&sides) {
            return Err(invalid(
                file.dice.sides.span(),
                format!("sides = {sides}: dice have 2 to {MAX_SIDES} sides"),
            ));
        }
        let start = match &file.stacks {
            Some(stacks) => read_stacks(&stacks.points, &start, sides, &seats, &invalid)?,
            None => start,
        };

        // The options: the family declares them (crate::options), the file sets some with
        // their sources, and overrides change their values.
        let mut values = Options::default();
        let mut sources = Sources::default();
        for (key, spec) in &file.options {
            let file_option = spec.get_ref();
            let v = file_option.value.get_ref();
            sources
                .set(&mut values, key, v, file_option.source.clone())
                .map_err(|e| match e {
                    OptionError::Unknown { .. } => invalid(
                        spec.span(),
                        format!(
                            "unknown option `{key}`; tables options are: {}",
                            option_names()
                        ),
                    ),
                    OptionError::BadValue { name, kind, .. } => invalid(
                        file_option.value.span(),
                        format!(
                            "option {name} = `{v}`: allowed values are {}",
                            allowed_values(kind)
                        ),
                    ),
                })?;
        }
        let default_source = format!("the tables family's default (not set in {origin})");
        for (name, value) in overrides {
            let bad = |reason: String| RulesetError::Override {
                origin: origin.to_string(),
                name: name.clone(),
                value: value.clone(),
                reason,
            };
            // An override keeps the source the listing showed (the file's, or the default's).
            let source = sources.get(name).unwrap_or(&default_source).to_string();
            sources
                .set(&mut values, name, value, source)
                .map_err(|e| match e {
                    OptionError::Unknown { .. } => bad(format!(
                        "no such option; tables options are: {}",
                        option_names()
                    )),
                    OptionError::BadValue { kind, .. } => {
                        bad(format!("allowed values are {}", allowed_values(kind)))
                    }
                })?;
        }
        let bear_off = values.bear_off;
        let roll_again = values.doubles == Doubles::RollAgain;
        let give_unplayable = values.unplayable != Unplayable::Lost;
        let given_extra = values.unplayable == Unplayable::ToOpponentExtra;
        if give_unplayable && file.dice.falla {
            let line = file
                .options
                .get("unplayable")
                .map_or(1, |spec| line_of(text, spec.span().start));
            return Err(RulesetError::Invalid {
                origin: origin.to_string(),
                line,
                reason: format!("unplayable = {}: with the falla no die is ever left unplayed (the player loses); set `falla = false`", libro_core::options::OptionValue::write(values.unplayable)),
            });
        }
        let entry = values.entry.0;
        if entry < sides {
            let line = file
                .options
                .get("entry")
                .map_or(1, |spec| line_of(text, spec.span().start));
            return Err(RulesetError::Invalid {
                origin: origin.to_string(),
                line,
                reason: format!(
                    "entry = {entry}: a die of {sides} would enter below point 1; entry must be at least {sides}"
                ),
            });
        }
        let options: Vec<RuleOption> = sources
            .listing(&values, &default_source)
            .into_iter()
            .filter(|o| !o.spec.quiet || o.set)
            .map(|o| RuleOption {
                name: o.spec.name,
                value: o.value,
                allowed: o.spec.kind.values().unwrap_or(&[]),
                explanation: o.spec.explanation,
                source: o.source,
            })
            .collect();

        Ok(TablesRules {
            name: name.clone(),
            title: file.title,
            source: file.source,
            seats,
            checkers,
            home,
            path,
            cross,
            opposite: (1..25).all(|p| usize::from(cross[0][p]) == 25 - p),
            start,
            dice_count: count,
            dice_sides: sides,
            falla: file.dice.falla,
            hitting: file.contact.hitting,
            enter_first: file.contact.enter_first,
            bear_off,
            entry,
            roll_again,
            give_unplayable,
            given_extra,
            off_only: values.moves == Moves::BearOffOnly,
            options,
            rolls: all_rolls(count, sides),
        })
    }

    /// The full name (`Fallas`).
    pub fn title(&self) -> &str {
        &self.title
    }

    /// Where the rules come from, in one line.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// The rule options with their values in force.
    pub fn options(&self) -> &[RuleOption] {
        &self.options
    }

    /// The own point a checker on the bar enters on with a 1 (a die of n enters on
    /// `entry + 1 - n`): 24 unless the file sets the `entry` option.
    pub fn entry(&self) -> u8 {
        self.entry
    }

    /// Whether a roll whose dice all show the same number gives the player another roll.
    pub fn roll_again(&self) -> bool {
        self.roll_again
    }

    /// The last own point of the home table: bearing off needs every checker on 1 to `home`.
    pub fn home(&self) -> u8 {
        self.home
    }

    /// Whether a lone opposing checker is hit (two or more close a point); if not, any
    /// opposing checker closes it.
    pub fn hitting(&self) -> bool {
        self.hitting
    }

    /// Whether a checker on the bar must enter before any other moves.
    pub fn enter_first(&self) -> bool {
        self.enter_first
    }

    /// Whether dice a player cannot play go to the opponent (instead of its roll, or as an
    /// extra before it: [`TablesRules::given_extra`]).
    pub fn give_unplayable(&self) -> bool {
        self.give_unplayable
    }

    /// Whether the opponent plays dice given to it at once and then rolls its own turn.
    pub fn given_extra(&self) -> bool {
        self.given_extra
    }

    /// Whether checkers never move along the board, only lay down stacked pairs and bear off.
    pub fn bear_off_only(&self) -> bool {
        self.off_only
    }

    /// Whether the game begins with pairs stacked (a `[stacks]` table).
    pub fn has_stacks(&self) -> bool {
        self.start.stacked(0) | self.start.stacked(1) != 0
    }

    /// Whether both players move the same way along the same points (`cross` is the
    /// identity), as in the games where both enter in the same table.
    pub fn same_path(&self) -> bool {
        (1..25).all(|p| usize::from(self.cross[0][p]) == p)
    }

    /// The board point (first seat's numbering) of every own point of `seat`, 1–24.
    pub fn path(&self, seat: usize) -> [u8; 25] {
        self.path[seat]
    }

    /// The bearing-off rule in force.
    pub fn bear_off(&self) -> BearOff {
        self.bear_off
    }

    /// Whether a player who cannot play all its dice loses at once (the falla).
    pub fn falla(&self) -> bool {
        self.falla
    }

    /// Dice rolled per turn, and their sides.
    pub fn dice(&self) -> (u8, u8) {
        (self.dice_count, self.dice_sides)
    }

    /// Checkers per player.
    pub fn checkers(&self) -> u8 {
        self.checkers
    }

    /// The start position.
    pub fn start(&self) -> Board {
        self.start
    }

    /// The name of seat `s` (0 or 1).
    pub fn seat_name(&self, s: usize) -> &str {
        &self.seats[s]
    }

    /// The board point (first seat's numbering) that is `seat`'s own point `point` (1–24).
    pub fn board_point(&self, seat: usize, point: u8) -> u8 {
        self.path[seat][usize::from(point)]
    }

    /// Every roll with its weight (three six-sided dice: 56 rolls out of 216).
    pub fn rolls(&self) -> &[Chance<Dice>] {
        &self.rolls
    }

    /// Reads a roll written `6-4-1` and checks it fits this ruleset's dice.
    pub fn parse_dice(&self, text: &str) -> Result<Dice, crate::dice::DiceError> {
        text.parse::<Dice>()?
            .check(self.dice_count, self.dice_sides)
    }
}

fn option_names() -> String {
    SPECS.iter().map(|d| d.name).collect::<Vec<_>>().join(", ")
}

/// An option's values as the family's messages list them (`standard, exact`).
fn allowed_values(kind: OptionKind) -> String {
    kind.values()
        .map_or_else(|| kind.allowed(), |values| values.join(", "))
}

impl fmt::Display for BearOff {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&libro_core::options::OptionValue::write(*self))
    }
}

impl Ruleset for TablesRules {
    type Game = TablesGame;
    type PositionError = PositionError;

    fn name(&self) -> &str {
        &self.name
    }

    fn seat_names(&self) -> Vec<String> {
        self.seats.to_vec()
    }

    fn new_game(self: &Arc<Self>, seed: u64) -> TablesGame {
        TablesGame::new(self.clone(), seed)
    }

    fn parse_position(self: &Arc<Self>, text: &str) -> Result<TablesGame, PositionError> {
        TablesGame::from_position(self.clone(), text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_read_ranges_both_ways() {
        let white = parse_path("24-1").unwrap();
        assert_eq!((white[24], white[1]), (24, 24 - 23));
        let black = parse_path("1-24").unwrap();
        assert_eq!((black[24], black[1]), (1, 24));
        let split = parse_path("1-12, 24-13").unwrap();
        assert_eq!((split[24], split[13], split[12], split[1]), (1, 12, 24, 13));
        assert!(parse_path("24-2").unwrap_err().contains("23 points"));
        assert!(parse_path("24-1, 5").unwrap_err().contains("25 points"));
        assert!(parse_path("1-12, 12-1, 13-24").is_err());
        assert!(parse_path("1-12, 12, 14-24").unwrap_err().contains("twice"));
        assert!(parse_path("0-23")
            .unwrap_err()
            .contains("not a board point"));
    }

    #[test]
    fn lines_count_from_one() {
        assert_eq!(line_of("a\nb\nc", 0), 1);
        assert_eq!(line_of("a\nb\nc", 2), 2);
        assert_eq!(line_of("a\nb\nc", 4), 3);
    }
}
