//! A loaded chess-family ruleset: the definition file parsed, checked and turned into move
//! tables once, so that move generation only looks things up.

use crate::betza::{self, BetzaMove, Hop};
use crate::eval::net::Network;
use crate::geometry::{
    bishop_attacks, geometry, rook_attacks, Bitboard, Bits, Board, Direction, Square, WideGeometry,
    W256,
};
use crate::options::{
    self, BareKing, DoubleStep, FersLeap, ForcedCapture, OptionInfo, Options, Sources, Stacking,
    Stalemate,
};
use crate::position::{Pos, Position, Repr};
use libro_core::Seat;
use serde::de::{MapAccess, Visitor};
use serde::{Deserialize, Deserializer};
use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;
use toml::Spanned;

/// The most seats a ruleset may have.
pub const MAX_SEATS: usize = libro_core::MAX_SEATS;
/// The most piece types a ruleset may define.
pub const MAX_TYPES: usize = 8;

/// What is wrong with a ruleset file or an option override, and where.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct RulesetError {
    /// The file name (or `--option` for a bad override).
    pub file: String,
    /// The 1-based line, when the problem is at one place in the file.
    pub line: Option<usize>,
    /// The field the problem is in, as a TOML path (`pieces.fers.letter`, `setup.white`,
    /// `rules.fers_leap`; the option's name for an override), when it is one field.
    pub field: Option<String>,
    pub what: String,
}

impl RulesetError {
    /// A bad `--option name=value` override.
    fn option(name: &str, what: String) -> RulesetError {
        RulesetError {
            file: "--option".into(),
            line: None,
            field: Some(name.into()),
            what,
        }
    }
}

impl fmt::Display for RulesetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.file)?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
        }
        match &self.field {
            Some(field) if self.line.is_some() => write!(f, ": {field}: {}", self.what),
            _ => write!(f, ": {}", self.what),
        }
    }
}

/// A piece type of a ruleset: an index into its [`ChessRules::pieces`], in file order.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PieceKind(pub u8);

impl PieceKind {
    /// The index into the ruleset's pieces.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// A seat: a player's place, in turn order.
#[derive(Clone, Debug)]
pub struct SeatInfo {
    pub name: String,
    /// Lower-case letter naming the seat in four-seat position strings.
    pub letter: char,
    /// The way its pawns advance (a unit step: file, rank).
    pub forward: (i32, i32),
    /// The way its side pawns advance, if it has any.
    pub across: Option<(i32, i32)>,
}

/// A piece type of the ruleset.
#[derive(Clone, Debug)]
pub struct PieceInfo {
    /// Its name in the game's own words (`fers`, `fil`, `side pawn`).
    pub name: String,
    /// Upper-case letter used in notation.
    pub letter: char,
    /// The letter Fairy-Stockfish and the chess GUIs that speak UCI write for it (promotion
    /// suffixes such as `c7c8q`); the notation letter unless the ruleset file says otherwise.
    pub uci_letter: char,
    /// Whether UCI GUIs write this piece's first move with a `+` (`d1d3+`): Fairy-Stockfish's
    /// definitions model a first-move right as a piece that promotes when it first moves.
    pub uci_marks_first_move: bool,
    /// Its moves in Betza notation, as written in the file.
    pub betza: String,
    /// Whether it is the king: it may not be left in check.
    pub royal: bool,
    /// What it becomes on its last line (pawns).
    pub promotes_to: Option<PieceKind>,
    /// Whether it advances along its seat's `across` direction instead of `forward`.
    pub across: bool,
    /// Piece types it may not capture (as a bit set of type indices).
    pub cannot_capture: u8,
}

impl PieceInfo {
    /// Pawns (pieces that promote) use their starting squares for first-move rights.
    pub fn is_pawn(&self) -> bool {
        self.promotes_to.is_some()
    }
}

/// One extra move from a square: a first-move or lame leap onto an empty square.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Extra<B: Bits> {
    pub to: Square,
    /// Squares that must be empty (the square passed over by a lame move).
    pub block: Bitboard<B>,
    pub initial: bool,
}

/// One walked move from a square (limited ranges, hoppers, bent moves): its squares in
/// order, `len` of them from `start` in [`PieceTables::path_squares`].
#[derive(Copy, Clone, Debug)]
pub(crate) struct Path {
    pub start: u32,
    pub len: u8,
    pub hop: Hop,
    pub quiet: bool,
    pub capture: bool,
}

/// The move tables of one piece type for one seat.
#[derive(Clone)]
pub(crate) struct PieceTables<B: Bits> {
    pub quiet: B::PerSquare<Bitboard<B>>,
    pub capture: B::PerSquare<Bitboard<B>>,
    /// `capture_rev[sq]`: the squares from which this piece captures on `sq` by a leap.
    pub capture_rev: B::PerSquare<Bitboard<B>>,
    /// Rider directions (bit `d` for [`Direction`] `d`), for moves and for captures.
    pub quiet_dirs: u8,
    pub capture_dirs: u8,
    /// `extra_index[sq]` = (start, len) into `extras`.
    pub extra_index: B::PerSquare<(u32, u8)>,
    pub extras: Vec<Extra<B>>,
    /// `path_index[sq]` = (start, len) into `paths`.
    pub path_index: B::PerSquare<(u32, u8)>,
    pub paths: Vec<Path>,
    pub path_squares: Vec<Square>,
    pub promo_zone: Bitboard<B>,
    /// Where this seat's pieces of this type start (first-move rights of pawns).
    pub start: Bitboard<B>,
    pub has_leaps: bool,
    pub has_capture_leaps: bool,
}

impl<B: Bits> PieceTables<B> {
    /// The walked moves from `sq`.
    #[inline]
    pub(crate) fn paths_from(&self, sq: Square) -> &[Path] {
        let (start, len) = self.path_index[sq.index()];
        &self.paths[start as usize..start as usize + usize::from(len)]
    }

    /// The squares of `p` in order.
    #[inline]
    pub(crate) fn squares_of(&self, p: &Path) -> &[Square] {
        &self.path_squares[p.start as usize..p.start as usize + usize::from(p.len)]
    }

    /// The targets of the walked moves from `sq`: quiet ones onto `empty`, captures onto
    /// `capt`, with blockers `occ`.
    pub(crate) fn path_targets(
        &self,
        sq: Square,
        occ: Bitboard<B>,
        empty: Bitboard<B>,
        capt: Bitboard<B>,
    ) -> Bitboard<B> {
        let mut out = Bitboard::EMPTY;
        for p in self.paths_from(sq) {
            let mut screened = p.hop == Hop::None;
            for &to in self.squares_of(p) {
                if !occ.contains(to) {
                    if screened && p.quiet && empty.contains(to) {
                        out = out.with(to);
                    }
                    if screened && p.hop == Hop::Grasshopper {
                        break;
                    }
                    continue;
                }
                if screened {
                    if p.capture && capt.contains(to) {
                        out = out.with(to);
                    }
                    break;
                }
                screened = true;
            }
        }
        out
    }
}

/// What the engine needs of a bitboard width: the ruleset's tables and sliding geometry for
/// it. `u64` serves the 8x8 board (magic tables), [`W256`] every other size (ray scans).
pub(crate) trait Width: Bits {
    fn tables(r: &ChessRules) -> &[PieceTables<Self>];
    fn rook(r: &ChessRules, sq: Square, occ: Bitboard<Self>) -> Bitboard<Self>;
    fn bishop(r: &ChessRules, sq: Square, occ: Bitboard<Self>) -> Bitboard<Self>;
    /// The squares from `sq` in direction `d`, excluding `sq`.
    fn ray(r: &ChessRules, d: usize, sq: Square) -> Bitboard<Self>;
    /// The squares strictly between two aligned squares (else empty).
    fn between(r: &ChessRules, a: Square, b: Square) -> Bitboard<Self>;
    /// The whole line through two aligned squares (else empty).
    fn line(r: &ChessRules, a: Square, b: Square) -> Bitboard<Self>;
    /// The direction from `a` towards aligned `b`, or 8.
    fn direction(r: &ChessRules, a: Square, b: Square) -> u8;
    /// The position in this width (a ruleset's positions all have its width).
    fn of(p: &Position) -> &Pos<Self>;
}

impl Width for u64 {
    #[inline(always)]
    fn tables(r: &ChessRules) -> &[PieceTables<u64>] {
        &r.narrow
    }
    #[inline(always)]
    fn rook(_: &ChessRules, sq: Square, occ: Bitboard) -> Bitboard {
        rook_attacks(sq, occ)
    }
    #[inline(always)]
    fn bishop(_: &ChessRules, sq: Square, occ: Bitboard) -> Bitboard {
        bishop_attacks(sq, occ)
    }
    #[inline(always)]
    fn ray(_: &ChessRules, d: usize, sq: Square) -> Bitboard {
        Bitboard(geometry().ray[d][sq.index()])
    }
    #[inline(always)]
    fn between(_: &ChessRules, a: Square, b: Square) -> Bitboard {
        Bitboard(geometry().between[a.index()][b.index()])
    }
    #[inline(always)]
    fn line(_: &ChessRules, a: Square, b: Square) -> Bitboard {
        Bitboard(geometry().line[a.index()][b.index()])
    }
    #[inline(always)]
    fn direction(_: &ChessRules, a: Square, b: Square) -> u8 {
        geometry().direction[a.index()][b.index()]
    }
    fn of(p: &Position) -> &Pos<u64> {
        match &p.0 {
            Repr::Narrow(p) => p,
            Repr::Wide(_) => unreachable!("an 8x8 ruleset holds 64-bit positions"),
        }
    }
}

impl Width for W256 {
    #[inline(always)]
    fn tables(r: &ChessRules) -> &[PieceTables<W256>] {
        &r.wide
    }
    #[inline(always)]
    fn rook(r: &ChessRules, sq: Square, occ: Bitboard<W256>) -> Bitboard<W256> {
        r.wide_geo.rook(sq, occ)
    }
    #[inline(always)]
    fn bishop(r: &ChessRules, sq: Square, occ: Bitboard<W256>) -> Bitboard<W256> {
        r.wide_geo.bishop(sq, occ)
    }
    #[inline(always)]
    fn ray(r: &ChessRules, d: usize, sq: Square) -> Bitboard<W256> {
        r.wide_geo.ray(d, sq)
    }
    #[inline(always)]
    fn between(r: &ChessRules, a: Square, b: Square) -> Bitboard<W256> {
        r.wide_geo.between(a, b)
    }
    #[inline(always)]
    fn line(r: &ChessRules, a: Square, b: Square) -> Bitboard<W256> {
        r.wide_geo.line(a, b)
    }
    #[inline(always)]
    fn direction(r: &ChessRules, a: Square, b: Square) -> u8 {
        r.wide_geo.direction(a, b)
    }
    fn of(p: &Position) -> &Pos<W256> {
        match &p.0 {
            Repr::Wide(p) => p,
            Repr::Narrow(_) => unreachable!("a wide ruleset holds 256-bit positions"),
        }
    }
}

/// The most squares a board may have.
pub(crate) const MAX_SQUARES: usize = 256;

/// Random keys for incremental position hashing.
#[derive(Clone)]
pub(crate) struct Zobrist {
    /// Index `(seat * MAX_TYPES + type) * B::SQUARES + square`: the 8x8 keys packed in the
    /// first 16 KB.
    piece: [u64; MAX_SEATS * MAX_TYPES * MAX_SQUARES],
    pub unmoved: [u64; MAX_SQUARES],
    pub captured: u64,
    pub to_move: [u64; MAX_SEATS],
    pub bets: [u64; MAX_SEATS + 1],
    pub passes: [u64; MAX_SEATS + 1],
    pub ghost: [u64; MAX_SQUARES],
    pub phantom: [[u64; MAX_SQUARES]; 2],
}

/// A loaded chess-family ruleset.
#[derive(Clone)]
pub struct ChessRules {
    pub(crate) name: String,
    pub(crate) title: String,
    pub(crate) source: String,
    pub(crate) origin: String,
    pub(crate) board: Board,
    pub(crate) seats: Vec<SeatInfo>,
    pub(crate) pieces: Vec<PieceInfo>,
    pub(crate) options: Options,
    /// Where each option the file or an override set gets its value.
    option_sources: Sources,
    /// The readings the file declares, with their chosen values.
    readings: Vec<Reading>,
    /// Types that promote as the start piece of the square they reach (bit set), and that
    /// piece's type per square (`u8::MAX`: none, a king or a pawn).
    pub(crate) promote_as_start: u8,
    pub(crate) start_type: Box<[u8; MAX_SQUARES]>,
    /// Index `seat * MAX_TYPES + type`: the 8x8 tables (`narrow`) or those of any other
    /// size (`wide`); the other is empty.
    pub(crate) narrow: Vec<PieceTables<u64>>,
    pub(crate) wide: Vec<PieceTables<W256>>,
    /// Rays and sliding attacks of the board in 256-bit words (used by `wide` rulesets).
    pub(crate) wide_geo: WideGeometry,
    pub(crate) zobrist: Box<Zobrist>,
    pub(crate) royal: Option<u8>,
    /// Types that capture by leaping, and types riding orthogonally / diagonally in all
    /// four directions (bit sets), per seat, for attack detection.
    pub(crate) leaper_types: [u8; MAX_SEATS],
    pub(crate) orth_riders: [u8; MAX_SEATS],
    pub(crate) diag_riders: [u8; MAX_SEATS],
    /// Types whose rider captures go in only some directions (slow path).
    pub(crate) partial_riders: [u8; MAX_SEATS],
    /// Types with first-move or lame moves.
    pub(crate) extra_types: u8,
    /// Types with walked moves (limited ranges, hoppers, bent moves), per seat: their
    /// moves are tested for legality one by one (a hopper's screen can be any piece).
    pub(crate) path_types: [u8; MAX_SEATS],
    /// Whether any seat has such types.
    pub(crate) test_each_move: bool,
    /// Forçado's power order: rank as victim (0 = most powerful; 255 = never forced) and as
    /// capturer (0 = least powerful, preferred).
    pub(crate) victim_rank: [u8; MAX_TYPES],
    pub(crate) capturer_rank: [u8; MAX_TYPES],
    pub(crate) start: Position,
    /// The evaluation network fitted for these rules, if any (see [`crate::net`]): not
    /// part of the rules, so not of [`ChessRules::canonical`].
    pub(crate) network: Option<Arc<Network>>,
}

impl ChessRules {
    /// Everything that decides play — board, seats, pieces and their moves, options, start —
    /// as text that is the same for the same rules however the file was written (names,
    /// titles, sources, comments and layout left out). What a ruleset digest is taken of.
    pub fn canonical(&self) -> String {
        let mut text = format!(
            "chess\n{:?}\n{:?}\n{:?}\n{:?}\n{:?}",
            self.board, self.seats, self.pieces, self.options, self.start
        );
        if self.promote_as_start != 0 {
            text.push_str(&format!("\npromote_as_start {}", self.promote_as_start));
        }
        text
    }
}

impl fmt::Debug for ChessRules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ChessRules")
            .field("name", &self.name)
            .field("origin", &self.origin)
            .finish_non_exhaustive()
    }
}

// ---------------------------------------------------------------------------------------------
// The file format.

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileDef {
    family: Spanned<String>,
    name: Spanned<String>,
    title: Spanned<String>,
    source: Spanned<String>,
    board: Spanned<BoardDef>,
    seats: Spanned<Vec<Spanned<SeatDef>>>,
    pieces: Spanned<Ordered<Spanned<PieceDef>>>,
    setup: Spanned<Ordered<Spanned<String>>>,
    #[serde(default)]
    power: Option<Spanned<PowerDef>>,
    #[serde(default)]
    /// Each entry read as plain TOML first, so that a malformed one is reported with its
    /// own key and line.
    rules: Ordered<Spanned<toml::Value>>,
    #[serde(default)]
    readings: Ordered<Spanned<ReadingDef>>,
}

/// A reading declared by the file: an option of its own that sets pieces' moves where the
/// sources disagree (`choices`: value -> piece name -> Betza).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ReadingDef {
    explanation: String,
    value: String,
    from: String,
    choices: Ordered<Ordered<String>>,
}

/// A reading of the loaded ruleset, as [`ChessRules::options`] lists it.
#[derive(Clone, Debug)]
struct Reading {
    name: String,
    explanation: String,
    value: String,
    allowed: Vec<String>,
    source: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct BoardDef {
    files: u8,
    ranks: u8,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SeatDef {
    name: String,
    #[serde(default)]
    letter: Option<String>,
    forward: String,
    #[serde(default)]
    across: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PieceDef {
    letter: String,
    #[serde(default)]
    uci_letter: Option<String>,
    #[serde(default)]
    uci_marks_first_move: bool,
    betza: String,
    #[serde(default)]
    royal: bool,
    #[serde(default)]
    promotes_to: Option<String>,
    #[serde(default)]
    advance: Option<String>,
    #[serde(default)]
    cannot_capture: Vec<String>,
    /// Promotes to the piece that stood on the square it reaches at the start (Grant
    /// Acedrex), or to `promotes_to` where that was a king, a pawn or nothing.
    #[serde(default)]
    promotes_as_start: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PowerDef {
    victims: Vec<String>,
    capturers: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RuleDef {
    value: toml::Value,
    from: String,
}

/// A TOML table read in file order.
struct Ordered<T>(Vec<(String, T)>);

impl<T> Default for Ordered<T> {
    fn default() -> Self {
        Ordered(Vec::new())
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Ordered<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<T>(std::marker::PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for V<T> {
            type Value = Ordered<T>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a table")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut out = Vec::new();
                while let Some((k, v)) = map.next_entry::<String, T>()? {
                    out.push((k, v));
                }
                Ok(Ordered(out))
            }
        }
        d.deserialize_map(V(std::marker::PhantomData))
    }
}

fn direction_word(word: &str) -> Option<(i32, i32)> {
    match word {
        "north" => Some((0, 1)),
        "south" => Some((0, -1)),
        "east" => Some((1, 0)),
        "west" => Some((-1, 0)),
        _ => None,
    }
}

/// Turns a move vector seen from the mover (`dx` right, `dy` forward) into a board step.
fn rotate(dx: i32, dy: i32, forward: (i32, i32)) -> (i32, i32) {
    match forward {
        (0, 1) => (dx, dy),
        (0, -1) => (-dx, -dy),
        (1, 0) => (dy, -dx),
        _ => (-dy, dx),
    }
}

/// Reads one ruleset file: each step below checks one part of the file and says, in its
/// errors, the field (`pieces.fers.letter`, `setup.white`) and line the problem is at.
struct Loader<'a> {
    text: &'a str,
    origin: &'a str,
}

/// The pieces placed by the setup: seat, type, square (a square named twice holds both).
type Placed = Vec<(u8, u8, Square)>;

impl Loader<'_> {
    fn line(&self, offset: usize) -> usize {
        self.text[..offset.min(self.text.len())]
            .matches('\n')
            .count()
            + 1
    }

    /// An error at `span`'s line, in `field`.
    fn at<T>(
        &self,
        span: &Spanned<T>,
        field: impl Into<String>,
        what: impl Into<String>,
    ) -> RulesetError {
        RulesetError {
            file: self.origin.to_string(),
            line: Some(self.line(span.span().start)),
            field: Some(field.into()),
            what: what.into(),
        }
    }

    /// An error in rule `key`, at its line when the file sets it (an override may have).
    fn rule_error(&self, def: &FileDef, key: &str, what: impl Into<String>) -> RulesetError {
        RulesetError {
            file: self.origin.to_string(),
            line: def
                .rules
                .0
                .iter()
                .find(|(k, _)| k == key)
                .map(|(_, v)| self.line(v.span().start)),
            field: Some(format!("rules.{key}")),
            what: what.into(),
        }
    }

    /// The file as TOML in the format's shape (unknown keys and wrong types refused here).
    fn parse(&self) -> Result<FileDef, RulesetError> {
        toml::from_str(self.text).map_err(|e| RulesetError {
            file: self.origin.to_string(),
            line: e.span().map(|s| self.line(s.start)),
            field: None,
            what: e.message().trim().to_string(),
        })
    }

    /// `family`, `name`, `title` and `source`.
    fn header(&self, def: &FileDef) -> Result<(), RulesetError> {
        if def.family.get_ref() != "chess" {
            return Err(self.at(
                &def.family,
                "family",
                format!("family `{}` is not `chess`", def.family.get_ref()),
            ));
        }
        let name = def.name.get_ref();
        if name.is_empty()
            || !name
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        {
            return Err(self.at(
                &def.name,
                "name",
                "the name must be lower-case letters, digits and hyphens",
            ));
        }
        if def.title.get_ref().trim().is_empty() {
            return Err(self.at(&def.title, "title", "the title is empty"));
        }
        if def.source.get_ref().trim().is_empty() || def.source.get_ref().contains('\n') {
            return Err(self.at(
                &def.source,
                "source",
                "the source must be one non-empty line",
            ));
        }
        Ok(())
    }

    /// `[board]`: 1 to 16 files and ranks.
    fn board(&self, def: &FileDef) -> Result<Board, RulesetError> {
        let board = Board {
            files: def.board.get_ref().files,
            ranks: def.board.get_ref().ranks,
        };
        if !board.is_supported() {
            return Err(self.at(
                &def.board,
                "board",
                format!(
                    "a {}x{} board: files and ranks must each be 1 to {}",
                    board.files,
                    board.ranks,
                    Board::MAX_SIDE
                ),
            ));
        }
        Ok(board)
    }

    /// `[[seats]]`: 2 to `MAX_SEATS` of them, each with its own name and letter.
    fn seats(&self, def: &FileDef) -> Result<Vec<SeatInfo>, RulesetError> {
        let seat_defs = def.seats.get_ref();
        if !(2..=MAX_SEATS).contains(&seat_defs.len()) {
            return Err(self.at(
                &def.seats,
                "seats",
                format!("{} seats: a game needs 2 to {MAX_SEATS}", seat_defs.len()),
            ));
        }
        let mut seats: Vec<SeatInfo> = Vec::new();
        for (i, sd) in seat_defs.iter().enumerate() {
            let s = sd.get_ref();
            let field = |key: &str| format!("seats[{i}].{key}");
            if s.name.is_empty() || seats.iter().any(|o| o.name == s.name) {
                return Err(self.at(
                    sd,
                    field("name"),
                    format!("seat name `{}` is empty or used twice", s.name),
                ));
            }
            let letter = match &s.letter {
                Some(l) => one_char(l)
                    .filter(char::is_ascii_lowercase)
                    .ok_or_else(|| {
                        self.at(
                            sd,
                            field("letter"),
                            format!("seat letter `{l}` must be one lower-case letter"),
                        )
                    })?,
                None => s.name.chars().next().unwrap_or('?').to_ascii_lowercase(),
            };
            if !letter.is_ascii_lowercase() || seats.iter().any(|o| o.letter == letter) {
                return Err(self.at(sd, field("letter"), format!("seat letter `{letter}` is not a lower-case letter or is used twice; give the seat a `letter`")));
            }
            let forward = direction_word(&s.forward).ok_or_else(|| {
                self.at(
                    sd,
                    field("forward"),
                    format!("forward `{}` is not north, south, east or west", s.forward),
                )
            })?;
            let across = match &s.across {
                Some(a) => Some(direction_word(a).ok_or_else(|| {
                    self.at(
                        sd,
                        field("across"),
                        format!("across `{a}` is not north, south, east or west"),
                    )
                })?),
                None => None,
            };
            if across.is_some_and(|a| a.0 * forward.0 + a.1 * forward.1 != 0) {
                return Err(self.at(
                    sd,
                    field("across"),
                    "across must be at right angles to forward",
                ));
            }
            seats.push(SeatInfo {
                name: s.name.clone(),
                letter,
                forward,
                across,
            });
        }
        Ok(seats)
    }

    /// `[rules]`: each a known option with a value it allows and where it comes from.
    fn rules(&self, def: &FileDef, nseats: usize) -> Result<(Options, Sources), RulesetError> {
        let mut opts = Options::default();
        let mut sources = Sources::default();
        for (key, rd) in &def.rules.0 {
            let field = format!("rules.{key}");
            let spec = options::spec(key).ok_or_else(|| {
                let names: Vec<&str> = options::SPECS.iter().map(|s| s.name).collect();
                self.at(
                    rd,
                    &field,
                    format!("unknown rule `{key}` (rules: {})", names.join(", ")),
                )
            })?;
            let r = RuleDef::deserialize(rd.get_ref().clone()).map_err(|e| {
                self.at(
                    rd,
                    &field,
                    format!(
                        "rule `{key}`: {} (expected `{key} = {{ value = ..., from = \"...\" }}`)",
                        e.message()
                    ),
                )
            })?;
            let value = match &r.value {
                toml::Value::String(s) => s.clone(),
                toml::Value::Integer(i) => i.to_string(),
                toml::Value::Boolean(b) => b.to_string(),
                other => {
                    return Err(self.at(
                        rd,
                        format!("{field}.value"),
                        format!("rule `{key}`: value {other} is not a word, number or true/false"),
                    ))
                }
            };
            sources
                .set(&mut opts, key, &value, r.from.clone())
                .map_err(|e| self.at(rd, format!("{field}.value"), e.to_string()))?;
            if spec.multi_seat && nseats <= 2 {
                return Err(self.at(
                    rd,
                    &field,
                    format!("rule `{key}` applies only to games with more than two seats"),
                ));
            }
            if r.from.trim().is_empty() {
                return Err(self.at(
                    rd,
                    format!("{field}.from"),
                    format!("rule `{key}` must say where it comes from (`from`)"),
                ));
            }
        }
        Ok((opts, sources))
    }

    /// `[pieces]`: 1 to `MAX_TYPES` of them, each with its own letters and valid Betza, then
    /// what they promote to and may not capture (names of other pieces).
    fn pieces(&self, def: &FileDef, seats: &[SeatInfo]) -> Result<Vec<PieceInfo>, RulesetError> {
        let piece_defs = &def.pieces.get_ref().0;
        if piece_defs.is_empty() || piece_defs.len() > MAX_TYPES {
            return Err(self.at(
                &def.pieces,
                "pieces",
                format!(
                    "{} piece types: a ruleset has 1 to {MAX_TYPES}",
                    piece_defs.len()
                ),
            ));
        }
        let mut pieces: Vec<PieceInfo> = Vec::new();
        for (pname, pd) in piece_defs {
            let p = pd.get_ref();
            let field = |key: &str| format!("pieces.{pname}.{key}");
            let letter = one_char(&p.letter)
                .filter(char::is_ascii_uppercase)
                .ok_or_else(|| {
                    self.at(
                        pd,
                        field("letter"),
                        format!(
                            "piece `{pname}`: letter `{}` must be one upper-case letter",
                            p.letter
                        ),
                    )
                })?;
            if pieces.iter().any(|o| o.letter == letter) {
                return Err(self.at(
                    pd,
                    field("letter"),
                    format!("piece `{pname}`: letter `{letter}` is used twice"),
                ));
            }
            let uci_letter =
                match p.uci_letter.as_deref() {
                    None => letter,
                    Some(l) => one_char(l)
                        .filter(char::is_ascii_uppercase)
                        .ok_or_else(|| {
                            self.at(
                        pd,
                        field("uci_letter"),
                        format!("piece `{pname}`: uci_letter `{l}` must be one upper-case letter"),
                    )
                        })?,
                };
            if pieces.iter().any(|o| o.uci_letter == uci_letter) {
                return Err(self.at(
                    pd,
                    field("uci_letter"),
                    format!("piece `{pname}`: UCI letter `{uci_letter}` is used twice (give each piece its own `uci_letter`)"),
                ));
            }
            let across = match p.advance.as_deref() {
                None | Some("forward") => false,
                Some("across") => {
                    if seats.iter().any(|s| s.across.is_none()) {
                        return Err(self.at(pd, field("advance"), format!("piece `{pname}` advances across, but not every seat says which way `across` is")));
                    }
                    true
                }
                Some(other) => {
                    return Err(self.at(
                        pd,
                        field("advance"),
                        format!("piece `{pname}`: advance `{other}` is not `forward` or `across`"),
                    ))
                }
            };
            betza::parse(&p.betza)
                .map_err(|e| self.at(pd, field("betza"), format!("piece `{pname}`: {e}")))?;
            pieces.push(PieceInfo {
                name: pname.clone(),
                letter,
                uci_letter,
                uci_marks_first_move: p.uci_marks_first_move,
                betza: p.betza.clone(),
                royal: p.royal,
                promotes_to: None,
                across,
                cannot_capture: 0,
            });
        }
        for (i, (pname, pd)) in piece_defs.iter().enumerate() {
            let p = pd.get_ref();
            if let Some(target) = &p.promotes_to {
                let field = format!("pieces.{pname}.promotes_to");
                let t = type_named(&pieces, target).ok_or_else(|| self.at(pd, &field, format!("piece `{pname}` promotes to `{target}`, which is not a piece of this ruleset")))?;
                if t as usize == i || pieces[t as usize].royal {
                    return Err(self.at(
                        pd,
                        &field,
                        format!("piece `{pname}` cannot promote to `{target}`"),
                    ));
                }
                pieces[i].promotes_to = Some(PieceKind(t));
            }
            for victim in &p.cannot_capture {
                let field = format!("pieces.{pname}.cannot_capture");
                let t = type_named(&pieces, victim).ok_or_else(|| self.at(pd, &field, format!("piece `{pname}`: cannot_capture names `{victim}`, which is not a piece")))?;
                if pieces[t as usize].royal {
                    return Err(self.at(
                        pd,
                        &field,
                        format!("piece `{pname}`: every piece may capture the king"),
                    ));
                }
                pieces[i].cannot_capture |= 1 << t;
            }
        }
        Ok(pieces)
    }

    /// `[readings]`: each choice's pieces exist and their Betza is valid; the chosen value
    /// (the file's, or an override's) sets those pieces' moves.
    fn readings(
        &self,
        def: &FileDef,
        pieces: &mut [PieceInfo],
        mut overrides: BTreeMap<&str, &str>,
    ) -> Result<Vec<Reading>, RulesetError> {
        let mut readings = Vec::new();
        for (rname, rd) in &def.readings.0 {
            let r = rd.get_ref();
            let field = |key: &str| format!("readings.{rname}{key}");
            if options::spec(rname).is_some() {
                return Err(self.at(
                    rd,
                    field(""),
                    format!("reading `{rname}` has the name of a rule"),
                ));
            }
            if r.from.trim().is_empty() {
                return Err(self.at(
                    rd,
                    field(".from"),
                    format!("reading `{rname}` must say where it comes from (`from`)"),
                ));
            }
            let allowed: Vec<String> = r.choices.0.iter().map(|(v, _)| v.clone()).collect();
            for (choice, moves) in &r.choices.0 {
                for (pname, betza_text) in &moves.0 {
                    let field = field(&format!(".choices.{choice}.{pname}"));
                    if !pieces.iter().any(|p| &p.name == pname) {
                        return Err(self.at(rd, field, format!("reading `{rname}` = `{choice}` names `{pname}`, which is not a piece")));
                    }
                    betza::parse(betza_text).map_err(|e| {
                        self.at(
                            rd,
                            field,
                            format!("reading `{rname}` = `{choice}`, piece `{pname}`: {e}"),
                        )
                    })?;
                }
            }
            let (value, source) = match overrides.remove(rname.as_str()) {
                Some(v) => (v.to_string(), "--option".to_string()),
                None => (r.value.clone(), r.from.clone()),
            };
            let Some((_, moves)) = r.choices.0.iter().find(|(v, _)| *v == value) else {
                let what = format!(
                    "reading `{rname}`: `{value}` is not one of {}",
                    allowed.join(", ")
                );
                return Err(match source.as_str() {
                    "--option" => RulesetError::option(rname, what),
                    _ => self.at(rd, field(".value"), what),
                });
            };
            for (pname, betza_text) in &moves.0 {
                if let Some(p) = pieces.iter_mut().find(|p| &p.name == pname) {
                    p.betza = betza_text.clone();
                }
            }
            readings.push(Reading {
                name: rname.clone(),
                explanation: r.explanation.clone(),
                value,
                allowed,
                source,
            });
        }
        Ok(readings)
    }

    /// The pawns that promote as the start piece of the square they reach (bit set); only
    /// a piece with `promotes_to` may say so.
    fn promote_as_start(&self, def: &FileDef, pieces: &[PieceInfo]) -> Result<u8, RulesetError> {
        let mut types = 0u8;
        for (i, (pname, pd)) in def.pieces.get_ref().0.iter().enumerate() {
            if !pd.get_ref().promotes_as_start {
                continue;
            }
            if !pieces[i].is_pawn() {
                return Err(self.at(pd, format!("pieces.{pname}.promotes_as_start"), format!("piece `{pname}`: promotes_as_start needs promotes_to (the piece it becomes on a king's or an empty square)")));
            }
            types |= 1 << i;
        }
        Ok(types)
    }

    /// The royal type, if any: at most one, and no piece promotes twice.
    fn royal(&self, def: &FileDef, pieces: &[PieceInfo]) -> Result<Option<u8>, RulesetError> {
        let royals: Vec<u8> = (0..pieces.len() as u8)
            .filter(|&t| pieces[t as usize].royal)
            .collect();
        if royals.len() > 1 {
            return Err(self.at(&def.pieces, "pieces", "more than one royal piece type"));
        }
        if let Some(p) = pieces.iter().find(|p| {
            p.promotes_to
                .is_some_and(|t| pieces[t.index()].promotes_to.is_some())
        }) {
            return Err(self.at(
                &def.pieces,
                format!("pieces.{}.promotes_to", p.name),
                "a piece promotes to a piece that promotes again",
            ));
        }
        Ok(royals.first().copied())
    }

    /// The options against the rest of the file: what each needs of the pieces, the seats
    /// and the board.
    fn check_options(
        &self,
        def: &FileDef,
        opts: &Options,
        pieces: &[PieceInfo],
        royal: Option<u8>,
        board: Board,
        nseats: usize,
    ) -> Result<(), RulesetError> {
        if opts.fers_leap != FersLeap::None && type_named(pieces, "fers").is_none() {
            return Err(self.rule_error(
                def,
                "fers_leap",
                "rule `fers_leap` needs a piece named `fers`",
            ));
        }
        if opts.bare_king != BareKing::None && (royal.is_none() || nseats != 2) {
            return Err(self.rule_error(
                def,
                "bare_king",
                "rule `bare_king` needs two seats and a royal king",
            ));
        }
        if nseats > 2 && opts.stalemate != Stalemate::Pass {
            return Err(self.rule_error(def, "stalemate", "with more than two seats a seat without a legal move passes: `stalemate` must be `pass`"));
        }
        if board != Board::STANDARD && opts.stacking == Stacking::Ludii {
            return Err(self.rule_error(
                def,
                "stacking",
                "Ludii's stacking is reproduced on the 8x8 board only",
            ));
        }
        if nseats > 2 && opts.stacking == Stacking::Ludii {
            return Err(self.rule_error(
                def,
                "stacking",
                "Ludii's stacking is reproduced for two seats only",
            ));
        }
        if nseats > 2 && opts.forced_capture != ForcedCapture::None {
            return Err(self.rule_error(
                def,
                "forced_capture",
                "forced capture is supported for two seats only",
            ));
        }
        Ok(())
    }

    /// `[power]` (Forçado's order): each type's rank as victim and as capturer, every piece
    /// ranked (victims: all but the king).
    #[allow(clippy::type_complexity)]
    fn power(
        &self,
        def: &FileDef,
        opts: &Options,
        pieces: &[PieceInfo],
    ) -> Result<([u8; MAX_TYPES], [u8; MAX_TYPES]), RulesetError> {
        let mut victim_rank = [u8::MAX; MAX_TYPES];
        let mut capturer_rank = [u8::MAX; MAX_TYPES];
        let Some(pw) = &def.power else {
            if opts.forced_capture == ForcedCapture::Priority {
                return Err(self.rule_error(
                    def,
                    "forced_capture",
                    "forced_capture = priority needs a [power] table with victims and capturers",
                ));
            }
            return Ok((victim_rank, capturer_rank));
        };
        let p = pw.get_ref();
        for (rank, v) in p.victims.iter().enumerate() {
            let t = type_named(pieces, v).ok_or_else(|| {
                self.at(
                    pw,
                    "power.victims",
                    format!("power: victim `{v}` is not a piece"),
                )
            })?;
            victim_rank[t as usize] = rank as u8;
        }
        for (rank, c) in p.capturers.iter().enumerate() {
            let t = type_named(pieces, c).ok_or_else(|| {
                self.at(
                    pw,
                    "power.capturers",
                    format!("power: capturer `{c}` is not a piece"),
                )
            })?;
            capturer_rank[t as usize] = rank as u8;
        }
        for (t, piece) in pieces.iter().enumerate() {
            if capturer_rank[t] == u8::MAX {
                return Err(self.at(
                    pw,
                    "power.capturers",
                    format!("power: `{}` is missing from the capturers", piece.name),
                ));
            }
            if !piece.royal && victim_rank[t] == u8::MAX {
                return Err(self.at(
                    pw,
                    "power.victims",
                    format!("power: `{}` is missing from the victims", piece.name),
                ));
            }
        }
        Ok((victim_rank, capturer_rank))
    }

    /// Each piece's moves: its Betza with what the options add (the fers' first leap, the
    /// pawns' double step).
    fn moves(
        &self,
        def: &FileDef,
        pieces: &[PieceInfo],
        opts: &Options,
    ) -> Result<Vec<Vec<BetzaMove>>, RulesetError> {
        let fers = type_named(pieces, "fers");
        let mut moves = Vec::new();
        for (t, p) in pieces.iter().enumerate() {
            let mut text = p.betza.clone();
            if Some(t as u8) == fers {
                match opts.fers_leap {
                    FersLeap::StraightOrDiagonal => text.push_str(" imD imA"),
                    FersLeap::Diagonal => text.push_str(" imA"),
                    FersLeap::None => {}
                }
            }
            if p.is_pawn() && opts.pawn_double_step != DoubleStep::None {
                text.push_str(" ifmnD");
            }
            moves.push(betza::parse(&text).map_err(|e| {
                self.at(
                    &def.pieces,
                    format!("pieces.{}.betza", p.name),
                    format!("piece `{}`: {e}", p.name),
                )
            })?);
        }
        Ok(moves)
    }

    /// `[setup]`: each seat's pieces on squares of the board; every seat has pieces, a
    /// shared square holds two different pieces of one seat, and each seat one king.
    fn setup(
        &self,
        def: &FileDef,
        board: Board,
        seats: &[SeatInfo],
        pieces: &[PieceInfo],
        royal: Option<u8>,
    ) -> Result<Placed, RulesetError> {
        let mut placed: Placed = Vec::new();
        for (seat_name, sd) in &def.setup.get_ref().0 {
            let field = format!("setup.{seat_name}");
            let seat = seats
                .iter()
                .position(|s| &s.name == seat_name)
                .ok_or_else(|| {
                    self.at(
                        sd,
                        &field,
                        format!("setup for `{seat_name}`, which is not a seat"),
                    )
                })? as u8;
            for token in sd.get_ref().split_whitespace() {
                let mut cs = token.chars();
                let letter = cs.next().unwrap_or(' ');
                let t = pieces
                    .iter()
                    .position(|p| p.letter == letter)
                    .ok_or_else(|| {
                        self.at(
                            sd,
                            &field,
                            format!("setup `{token}`: no piece has the letter `{letter}`"),
                        )
                    })? as u8;
                let sq = board.parse_square(cs.as_str()).ok_or_else(|| {
                    self.at(
                        sd,
                        &field,
                        format!(
                            "setup `{token}`: `{}` is not a square of the board",
                            cs.as_str()
                        ),
                    )
                })?;
                placed.push((seat, t, sq));
            }
        }
        for (i, s) in seats.iter().enumerate() {
            if !placed.iter().any(|p| p.0 as usize == i) {
                return Err(self.at(
                    &def.setup,
                    format!("setup.{}", s.name),
                    format!("impossible setup: seat `{}` has no pieces", s.name),
                ));
            }
        }
        for (i, &(seat, t, sq)) in placed.iter().enumerate() {
            let here: Vec<&(u8, u8, Square)> = placed[..i].iter().filter(|p| p.2 == sq).collect();
            let what = match here.as_slice() {
                [] => continue,
                [other] if other.0 != seat => {
                    format!("impossible setup: {} holds pieces of two seats", board.name(sq))
                }
                [other] if other.1 == t => format!("impossible setup: {} holds two {}s (a shared square holds two different pieces)", board.name(sq), pieces[t as usize].name),
                [_] => continue,
                _ => format!(
                    "impossible setup: {} holds more than two pieces",
                    board.name(sq)
                ),
            };
            return Err(self.seat_setup_error(def, &seats[seat as usize].name, what));
        }
        if let Some(k) = royal {
            for (i, s) in seats.iter().enumerate() {
                let n = placed
                    .iter()
                    .filter(|p| p.0 as usize == i && p.1 == k)
                    .count();
                if n != 1 {
                    let what = format!(
                        "impossible setup: seat `{}` has {n} {}s (it needs exactly one)",
                        s.name, pieces[k as usize].name
                    );
                    return Err(self.seat_setup_error(def, &s.name, what));
                }
            }
        }
        Ok(placed)
    }

    /// An error in seat `seat`'s setup line (the whole `[setup]` when it has none).
    fn seat_setup_error(&self, def: &FileDef, seat: &str, what: String) -> RulesetError {
        let field = format!("setup.{seat}");
        match def.setup.get_ref().0.iter().find(|(n, _)| n == seat) {
            Some((_, sd)) => self.at(sd, field, what),
            None => self.at(&def.setup, field, what),
        }
    }
}

/// The only character of `text`, if it has exactly one.
fn one_char(text: &str) -> Option<char> {
    let mut cs = text.chars();
    match (cs.next(), cs.next()) {
        (Some(c), None) => Some(c),
        _ => None,
    }
}

/// The type index of the piece named `name`.
fn type_named(pieces: &[PieceInfo], name: &str) -> Option<u8> {
    pieces.iter().position(|p| p.name == name).map(|i| i as u8)
}

/// Applies the `--option` overrides of family options; returns those naming the file's
/// readings, for [`Loader::readings`].
fn apply_overrides<'o>(
    def: &FileDef,
    overrides: &'o [(String, String)],
    nseats: usize,
    opts: &mut Options,
    sources: &mut Sources,
) -> Result<BTreeMap<&'o str, &'o str>, RulesetError> {
    let mut readings = BTreeMap::new();
    for (key, value) in overrides {
        let err = |what: String| RulesetError::option(key, format!("{key}={value}: {what}"));
        if options::spec(key).is_none() && def.readings.0.iter().any(|(n, _)| n == key) {
            readings.insert(key.as_str(), value.as_str());
            continue;
        }
        let spec = options::spec(key).ok_or_else(|| err(format!("unknown option `{key}`")))?;
        if spec.multi_seat && nseats <= 2 {
            return Err(err(format!(
                "option `{key}` applies only to games with more than two seats"
            )));
        }
        sources
            .set(opts, key, value, "--option")
            .map_err(|e| err(e.to_string()))?;
    }
    Ok(readings)
}

/// The tables of one width, and what the loader reads of them.
enum Tables {
    Narrow(Vec<PieceTables<u64>>),
    Wide(Vec<PieceTables<W256>>),
}

impl Tables {
    fn build(
        width: WidthChoice,
        board: Board,
        seats: &[SeatInfo],
        pieces: &[PieceInfo],
        moves: &[Vec<BetzaMove>],
        placed: &[(u8, u8, Square)],
    ) -> Tables {
        if board != Board::STANDARD || width == WidthChoice::Wide {
            Tables::Wide(all_tables(board, seats, pieces, moves, placed))
        } else {
            Tables::Narrow(all_tables(board, seats, pieces, moves, placed))
        }
    }

    fn facts(&self, seat: usize, t: usize) -> TableFacts {
        match self {
            Tables::Narrow(v) => table_facts(&v[seat * MAX_TYPES + t]),
            Tables::Wide(v) => table_facts(&v[seat * MAX_TYPES + t]),
        }
    }

    /// Whether `sq` is on the last line of `seat`'s pieces of type `t`.
    fn in_promotion_zone(&self, seat: u8, t: u8, sq: Square) -> bool {
        let i = seat as usize * MAX_TYPES + t as usize;
        match self {
            Tables::Narrow(v) => v[i].promo_zone.contains(sq),
            Tables::Wide(v) => v[i].promo_zone.contains(sq),
        }
    }
}

/// The type classes attack detection uses, per seat (bit sets of types).
#[derive(Default)]
struct Classes {
    leaper_types: [u8; MAX_SEATS],
    orth_riders: [u8; MAX_SEATS],
    diag_riders: [u8; MAX_SEATS],
    partial_riders: [u8; MAX_SEATS],
    extra_types: u8,
    path_types: [u8; MAX_SEATS],
}

impl Classes {
    fn of(tables: &Tables, nseats: usize, ntypes: usize) -> Classes {
        let mut c = Classes::default();
        for s in 0..nseats {
            for t in 0..ntypes {
                let f = tables.facts(s, t);
                if f.capture_leaps {
                    c.leaper_types[s] |= 1 << t;
                }
                let (orth, diag) = (f.capture_dirs & 0x55, f.capture_dirs & 0xAA);
                if orth == 0x55 {
                    c.orth_riders[s] |= 1 << t;
                }
                if diag == 0xAA {
                    c.diag_riders[s] |= 1 << t;
                }
                if (orth != 0 && orth != 0x55) || (diag != 0 && diag != 0xAA) {
                    c.partial_riders[s] |= 1 << t;
                }
                if f.extras {
                    c.extra_types |= 1 << t;
                }
                if f.paths {
                    c.path_types[s] |= 1 << t;
                }
            }
        }
        c
    }
}

impl ChessRules {
    /// Loads a ruleset file. `origin` names the file in error messages; `overrides` are
    /// `--option name=value` pairs applied over the file's rules.
    pub fn from_toml(
        text: &str,
        origin: &str,
        overrides: &[(String, String)],
    ) -> Result<ChessRules, RulesetError> {
        Self::load(text, origin, overrides, WidthChoice::Fitting)
    }

    /// As [`ChessRules::from_toml`], but holding positions in 256-bit words whatever the
    /// board: for measuring one wide type for every board against the fitting widths.
    #[doc(hidden)]
    pub fn from_toml_wide(
        text: &str,
        origin: &str,
        overrides: &[(String, String)],
    ) -> Result<ChessRules, RulesetError> {
        Self::load(text, origin, overrides, WidthChoice::Wide)
    }

    /// The file read step by step (each step's checks in [`Loader`]), then the tables and
    /// the start built and checked.
    fn load(
        text: &str,
        origin: &str,
        overrides: &[(String, String)],
        width: WidthChoice,
    ) -> Result<ChessRules, RulesetError> {
        let ld = Loader { text, origin };
        let def = ld.parse()?;
        ld.header(&def)?;
        let board = ld.board(&def)?;
        let seats = ld.seats(&def)?;
        let nseats = seats.len();
        // Options first: they add moves to pieces.
        let (mut opts, mut option_sources) = ld.rules(&def, nseats)?;
        let reading_overrides =
            apply_overrides(&def, overrides, nseats, &mut opts, &mut option_sources)?;
        let mut pieces = ld.pieces(&def, &seats)?;
        let readings = ld.readings(&def, &mut pieces, reading_overrides)?;
        let promote_as_start = ld.promote_as_start(&def, &pieces)?;
        let royal = ld.royal(&def, &pieces)?;
        ld.check_options(&def, &opts, &pieces, royal, board, nseats)?;
        let (victim_rank, capturer_rank) = ld.power(&def, &opts, &pieces)?;
        let moves = ld.moves(&def, &pieces, &opts)?;
        let placed = ld.setup(&def, board, &seats, &pieces, royal)?;

        // Tables, in the width the board needs.
        let tables = Tables::build(width, board, &seats, &pieces, &moves, &placed);
        for &(seat, t, sq) in &placed {
            let p = &pieces[t as usize];
            if p.is_pawn() && tables.in_promotion_zone(seat, t, sq) {
                let what = format!(
                    "impossible setup: the {} on {} already stands on its last line",
                    p.name,
                    board.name(sq)
                );
                return Err(ld.seat_setup_error(&def, &seats[seat as usize].name, what));
            }
        }
        let classes = Classes::of(&tables, nseats, pieces.len());
        let mut start_type = Box::new([u8::MAX; MAX_SQUARES]);
        for &(_, t, sq) in &placed {
            let p = &pieces[t as usize];
            if !p.royal && !p.is_pawn() {
                start_type[sq.index()] = t;
            }
        }
        let (narrow, wide) = match tables {
            Tables::Narrow(v) => (v, Vec::new()),
            Tables::Wide(v) => (Vec::new(), v),
        };
        let mut rules = ChessRules {
            name: def.name.into_inner(),
            title: def.title.into_inner(),
            source: def.source.into_inner(),
            origin: origin.to_string(),
            board,
            seats,
            pieces,
            options: opts,
            option_sources,
            readings,
            promote_as_start,
            start_type,
            narrow,
            wide,
            wide_geo: WideGeometry::new(board),
            zobrist: Box::new(Zobrist::new()),
            royal,
            leaper_types: classes.leaper_types,
            orth_riders: classes.orth_riders,
            diag_riders: classes.diag_riders,
            partial_riders: classes.partial_riders,
            extra_types: classes.extra_types,
            path_types: classes.path_types,
            test_each_move: classes.path_types.iter().any(|&t| t != 0),
            victim_rank,
            capturer_rank,
            start: Position(Repr::Narrow(Pos::empty())),
            network: None,
        };
        let start: Position = if rules.is_wide() {
            Pos::<W256>::from_placed(&rules, &placed).into()
        } else {
            Pos::<u64>::from_placed(&rules, &placed).into()
        };
        if let Some(k) = royal {
            for s in 0..nseats as u8 {
                if let Some(ksq) = start.king_square(&rules, Seat(s)) {
                    if start.in_check(&rules, Seat(s)) {
                        return Err(ld.at(
                            &def.setup,
                            "setup",
                            format!(
                                "impossible setup: the {} of `{}` on {} starts in check",
                                rules.pieces[k as usize].name,
                                rules.seats[s as usize].name,
                                board.name(ksq)
                            ),
                        ));
                    }
                }
            }
        }
        rules.start = start;
        Ok(rules)
    }

    /// The ruleset's short name.
    pub fn name(&self) -> &str {
        &self.name
    }
    /// Its full title.
    pub fn title(&self) -> &str {
        &self.title
    }
    /// Where its rules come from (one line).
    pub fn source(&self) -> &str {
        &self.source
    }
    /// The file name it was loaded from.
    pub fn origin(&self) -> &str {
        &self.origin
    }
    /// The board size.
    pub fn board(&self) -> Board {
        self.board
    }
    /// The seats in turn order.
    pub fn seats(&self) -> &[SeatInfo] {
        &self.seats
    }
    /// The piece types.
    pub fn pieces(&self) -> &[PieceInfo] {
        &self.pieces
    }
    /// The resolved rule options.
    pub fn rule_options(&self) -> &Options {
        &self.options
    }
    /// The options with their current values, allowed values, explanations and sources.
    pub fn options(&self) -> Vec<OptionInfo> {
        let family = self
            .option_sources
            .listing(&self.options, "family default")
            .into_iter()
            .filter(|o| !o.spec.multi_seat || self.seats.len() > 2)
            .map(|o| OptionInfo {
                name: o.spec.name.into(),
                value: o.value,
                allowed: o.spec.kind.allowed(),
                explanation: o.spec.explanation.into(),
                source: o.source,
            });
        let readings = self.readings.iter().map(|r| OptionInfo {
            name: r.name.clone().into(),
            value: r.value.clone(),
            allowed: r.allowed.join(" | "),
            explanation: r.explanation.clone().into(),
            source: r.source.clone(),
        });
        family.chain(readings).collect()
    }

    /// What a pawn of type `t` becomes on `to` when `fixed` is its `promotes_to`: the start
    /// piece of that square where the ruleset says so.
    #[inline]
    pub(crate) fn promotion_type(&self, t: u8, to: Square, fixed: PieceKind) -> u8 {
        if self.promote_as_start >> t & 1 != 0 && self.start_type[to.index()] != u8::MAX {
            self.start_type[to.index()]
        } else {
            fixed.0
        }
    }
    /// The start position.
    pub fn start_position(&self) -> Position {
        self.start.clone()
    }
    pub(crate) fn num_seats(&self) -> usize {
        self.seats.len()
    }
    #[inline(always)]
    pub(crate) fn table<B: Width>(&self, seat: u8, t: u8) -> &PieceTables<B> {
        &B::tables(self)[seat as usize * MAX_TYPES + t as usize]
    }
    /// Whether positions use the 256-bit words (every board but 8x8).
    pub fn is_wide(&self) -> bool {
        self.narrow.is_empty()
    }
    /// The piece type with this letter.
    pub fn piece_by_letter(&self, letter: char) -> Option<PieceKind> {
        self.pieces
            .iter()
            .position(|p| p.letter == letter)
            .map(|i| PieceKind(i as u8))
    }
    /// The piece type `kind` (a kind of this ruleset: from its letters, moves or setups).
    pub fn piece(&self, kind: PieceKind) -> &PieceInfo {
        &self.pieces[kind.index()]
    }
}

/// Which bitboard width to load a ruleset with.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum WidthChoice {
    /// `u64` for the 8x8 board, 256 bits for every other.
    Fitting,
    /// 256 bits whatever the board (to measure one wide type for all).
    Wide,
}

/// What the loader needs to know of one piece's tables.
struct TableFacts {
    capture_leaps: bool,
    capture_dirs: u8,
    extras: bool,
    paths: bool,
}

fn table_facts<B: Bits>(tb: &PieceTables<B>) -> TableFacts {
    TableFacts {
        capture_leaps: tb.has_capture_leaps,
        capture_dirs: tb.capture_dirs,
        extras: !tb.extras.is_empty(),
        paths: !tb.paths.is_empty(),
    }
}

/// The tables of every seat and type (`MAX_SEATS * MAX_TYPES` of them, the unused empty).
fn all_tables<B: Bits>(
    board: Board,
    seats: &[SeatInfo],
    pieces: &[PieceInfo],
    moves: &[Vec<BetzaMove>],
    placed: &[(u8, u8, Square)],
) -> Vec<PieceTables<B>> {
    let mut tables = Vec::with_capacity(MAX_SEATS * MAX_TYPES);
    for s in 0..MAX_SEATS {
        for t in 0..MAX_TYPES {
            let seat = seats.get(s);
            let piece = pieces.get(t);
            let forward = match (seat, piece) {
                (Some(seat), Some(p)) if p.across => seat.across.unwrap_or(seat.forward),
                (Some(seat), _) => seat.forward,
                _ => (0, 1),
            };
            let atoms: &[BetzaMove] = match (seat, moves.get(t)) {
                (Some(_), Some(m)) => m,
                _ => &[],
            };
            let mut tb = build_tables::<B>(board, atoms, forward);
            if let (Some(_), Some(p)) = (seat, piece) {
                if p.is_pawn() {
                    tb.promo_zone = far_edge(board, forward);
                }
                tb.start = placed
                    .iter()
                    .filter(|x| x.0 as usize == s && x.1 as usize == t)
                    .fold(Bitboard::EMPTY, |b, x| b.with(x.2));
            }
            tables.push(tb);
        }
    }
    tables
}

fn far_edge<B: Bits>(board: Board, forward: (i32, i32)) -> Bitboard<B> {
    let mut b = Bitboard::EMPTY;
    for sq in 0..board.squares() {
        let s = Square(sq as u8);
        let (file, rank) = (board.file(s), board.rank(s));
        let last = match forward {
            (0, 1) => rank == i32::from(board.ranks) - 1,
            (0, -1) => rank == 0,
            (1, 0) => file == i32::from(board.files) - 1,
            _ => file == 0,
        };
        if last {
            b = b.with(s);
        }
    }
    b
}

fn build_tables<B: Bits>(board: Board, atoms: &[BetzaMove], forward: (i32, i32)) -> PieceTables<B> {
    let mut tb: PieceTables<B> = PieceTables {
        quiet: B::per_square(Bitboard::EMPTY),
        capture: B::per_square(Bitboard::EMPTY),
        capture_rev: B::per_square(Bitboard::EMPTY),
        quiet_dirs: 0,
        capture_dirs: 0,
        extra_index: B::per_square::<(u32, u8)>((0, 0)),
        extras: Vec::new(),
        path_index: B::per_square::<(u32, u8)>((0, 0)),
        paths: Vec::new(),
        path_squares: Vec::new(),
        promo_zone: Bitboard::EMPTY,
        start: Bitboard::EMPTY,
        has_leaps: false,
        has_capture_leaps: false,
    };
    for m in atoms {
        if m.rider && !m.is_path() {
            let (df, dr) = rotate(i32::from(m.dx), i32::from(m.dy), forward);
            let d = Direction::from_step(df, dr)
                .expect("riders step one square")
                .0;
            if m.quiet {
                tb.quiet_dirs |= 1 << d;
            }
            if m.capture {
                tb.capture_dirs |= 1 << d;
            }
        }
    }
    for sq in 0..board.squares() {
        let from = Square(sq as u8);
        let start = tb.extras.len();
        let path_start = tb.paths.len();
        for m in atoms.iter().filter(|m| m.is_path()) {
            let (df, dr) = rotate(i32::from(m.dx), i32::from(m.dy), forward);
            let first = tb.path_squares.len();
            let mut push = |to: Square| tb.path_squares.push(to);
            match m.then {
                Some((ex, ey)) => {
                    let Some(leg) = board.offset(from, df, dr) else {
                        continue;
                    };
                    push(leg);
                    let (ef, er) = rotate(i32::from(ex), i32::from(ey), forward);
                    let mut k = 1;
                    while let Some(to) = board.offset(leg, ef * k, er * k) {
                        push(to);
                        k += 1;
                    }
                }
                None => {
                    let mut k = 1;
                    while let Some(to) = board.offset(from, df * k, dr * k) {
                        if m.range != 0 && k > i32::from(m.range) {
                            break;
                        }
                        push(to);
                        k += 1;
                    }
                }
            }
            let len = tb.path_squares.len() - first;
            if len == 0 {
                continue;
            }
            tb.paths.push(Path {
                start: first as u32,
                len: len as u8,
                hop: m.hop,
                quiet: m.quiet,
                capture: m.capture,
            });
        }
        tb.path_index[from.index()] = (path_start as u32, (tb.paths.len() - path_start) as u8);
        for m in atoms.iter().filter(|m| !m.rider && !m.is_path()) {
            let (df, dr) = rotate(i32::from(m.dx), i32::from(m.dy), forward);
            let Some(to) = board.offset(from, df, dr) else {
                continue;
            };
            if m.initial || m.lame {
                let block = if m.lame {
                    board
                        .offset(from, df / 2, dr / 2)
                        .map_or(Bitboard::EMPTY, |s| s.bb())
                } else {
                    Bitboard::EMPTY
                };
                tb.extras.push(Extra {
                    to,
                    block,
                    initial: m.initial,
                });
                continue;
            }
            if m.quiet {
                tb.quiet[from.index()] = tb.quiet[from.index()].with(to);
            }
            if m.capture {
                tb.capture[from.index()] = tb.capture[from.index()].with(to);
                tb.capture_rev[to.index()] = tb.capture_rev[to.index()].with(from);
                tb.has_capture_leaps = true;
            }
            tb.has_leaps = true;
        }
        tb.extra_index[from.index()] = (start as u32, (tb.extras.len() - start) as u8);
    }
    tb
}

impl Zobrist {
    /// The key of a piece of `seat` and type `t` on square `sq` (any index types).
    #[inline(always)]
    pub(crate) fn piece<B: Bits>(
        &self,
        seat: impl Into<usize>,
        t: impl Into<usize>,
        sq: usize,
    ) -> u64 {
        self.piece[(seat.into() * MAX_TYPES + t.into()) * B::SQUARES + sq]
    }

    fn new() -> Zobrist {
        let mut state = 0x5DEE_CE66_D1B5_4A32u64;
        let mut next = move || {
            // splitmix64
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        };
        // The keys of the first 64 squares come first, in the order they had when boards
        // were 8x8 only: 8x8 positions keep their hashes (and rulesets their digests).
        let mut piece = [0u64; MAX_SEATS * MAX_TYPES * MAX_SQUARES];
        let narrow = MAX_SEATS * MAX_TYPES * 64;
        piece[..narrow].iter_mut().for_each(|k| *k = next());
        let mut unmoved = [0u64; MAX_SQUARES];
        unmoved[..64].iter_mut().for_each(|k| *k = next());
        let captured = next();
        let mut to_move = [0u64; MAX_SEATS];
        to_move.iter_mut().for_each(|k| *k = next());
        let mut bets = [0u64; MAX_SEATS + 1];
        bets.iter_mut().skip(1).for_each(|k| *k = next());
        let mut passes = [0u64; MAX_SEATS + 1];
        passes.iter_mut().skip(1).for_each(|k| *k = next());
        let mut ghost = [0u64; MAX_SQUARES];
        ghost[..64].iter_mut().for_each(|k| *k = next());
        let mut phantom = [[0u64; MAX_SQUARES]; 2];
        phantom
            .iter_mut()
            .for_each(|keys| keys[..64].iter_mut().for_each(|k| *k = next()));
        piece[narrow..].iter_mut().for_each(|k| *k = next());
        for keys in [&mut unmoved, &mut ghost]
            .into_iter()
            .chain(phantom.iter_mut())
        {
            keys[64..].iter_mut().for_each(|k| *k = next());
        }
        Zobrist {
            piece,
            unmoved,
            captured,
            to_move,
            bets,
            passes,
            ghost,
            phantom,
        }
    }
}
