//! Squares, bitboards, directions and sliding attacks.
//!
//! A board has up to 16 files and 16 ranks. Squares are numbered rank by rank from a1 = 0 on
//! the ruleset's [`Board`]; a set of squares is a [`Bitboard`] over a [`Bits`] word: `u64`
//! for the 8x8 games (magic sliding tables, the fast path), [`W256`] for every other size
//! (sliding by ray scans in [`WideGeometry`]). `benches/widths.rs` measures the choice.

use std::fmt;
use std::hash::Hash;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};
use std::sync::OnceLock;

/// The board's size in files and ranks.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Board {
    pub files: u8,
    pub ranks: u8,
}

impl Board {
    /// The 8x8 board of most of the Libro's games.
    pub const STANDARD: Board = Board { files: 8, ranks: 8 };
    /// The most files and the most ranks a board may have (16x16 = 256 squares).
    pub const MAX_SIDE: u8 = 16;

    /// Whether the size is one the engine plays: 1 to 16 files and ranks.
    pub fn is_supported(self) -> bool {
        (1..=Self::MAX_SIDE).contains(&self.files) && (1..=Self::MAX_SIDE).contains(&self.ranks)
    }

    /// Number of squares.
    pub fn squares(self) -> usize {
        usize::from(self.files) * usize::from(self.ranks)
    }

    /// Every square of the board.
    pub fn all<B: Bits>(self) -> Bitboard<B> {
        (0..self.squares()).fold(Bitboard::EMPTY, |b, i| b.with(Square(i as u8)))
    }

    /// The square at `file`, `rank` (both from 0), if on the board.
    #[inline]
    pub fn square(self, file: i32, rank: i32) -> Option<Square> {
        if file < 0 || rank < 0 || file >= i32::from(self.files) || rank >= i32::from(self.ranks) {
            None
        } else {
            Some(Square((rank * i32::from(self.files) + file) as u8))
        }
    }

    /// The file of `sq`, from 0 (the a-file).
    #[inline]
    pub fn file(self, sq: Square) -> i32 {
        i32::from(sq.0) % i32::from(self.files)
    }

    /// The rank of `sq`, from 0 (the first rank).
    #[inline]
    pub fn rank(self, sq: Square) -> i32 {
        i32::from(sq.0) / i32::from(self.files)
    }

    /// The square `df` files and `dr` ranks away from `sq`, if on the board.
    #[inline]
    pub fn offset(self, sq: Square, df: i32, dr: i32) -> Option<Square> {
        self.square(self.file(sq) + df, self.rank(sq) + dr)
    }

    /// The name of `sq` on this board (`e4`, `j10`), for printing.
    pub fn name(self, sq: Square) -> SquareName {
        SquareName {
            file: self.file(sq) as u8,
            rank: self.rank(sq) as u8,
        }
    }

    /// Reads a square name such as `e4` or `j10` (files from `a` to `p`, ranks from 1 to 16,
    /// no leading zero).
    pub fn parse_square(self, text: &str) -> Option<Square> {
        let mut chars = text.chars();
        let file = chars.next()?;
        if !file.is_ascii_lowercase() {
            return None;
        }
        let digits = chars.as_str();
        if digits.is_empty()
            || digits.len() > 2
            || digits.starts_with('0')
            || !digits.bytes().all(|b| b.is_ascii_digit())
        {
            return None;
        }
        let rank: i32 = digits.parse().ok()?;
        self.square(i32::from(file as u8 - b'a'), rank - 1)
    }
}

/// A square's name on its board: the file letter and the rank number (`j10`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SquareName {
    file: u8,
    rank: u8,
}

impl fmt::Display for SquareName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            (b'a' + self.file) as char,
            u32::from(self.rank) + 1
        )
    }
}

/// A square, numbered rank by rank from a1 = 0 on its board (on 8x8: h1 = 7, a2 = 8, h8 = 63;
/// on 10x10: j1 = 9, a2 = 10). Up to 256 squares.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(pub u8);

impl Square {
    /// The square's index, for indexing per-square tables.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
    /// The square as a one-square bitboard.
    #[inline(always)]
    pub fn bb<B: Bits>(self) -> Bitboard<B> {
        Bitboard(B::bit(self.0))
    }
}

/// The square's name on the 8x8 board; other boards name squares with [`Board::name`].
impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        Board::STANDARD.name(*self).fmt(f)
    }
}

/// A word of bits with one bit per square: `u64` (boards of 64 squares) or [`W256`].
pub trait Bits:
    Copy
    + Eq
    + Hash
    + fmt::Debug
    + Default
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
{
    const ZERO: Self;
    const ONES: Self;
    /// How many squares the word holds.
    const SQUARES: usize;
    /// A table with one entry per square the word can hold (an array for `u64`).
    type PerSquare<T: Copy + Send + Sync + 'static>: std::ops::Index<usize, Output = T>
        + std::ops::IndexMut<usize, Output = T>
        + Clone
        + Send
        + Sync;
    /// A per-square table with every entry `fill`.
    fn per_square<T: Copy + Send + Sync + 'static>(fill: T) -> Self::PerSquare<T>;
    /// The word with bit `i` set.
    fn bit(i: u8) -> Self;
    fn is_zero(self) -> bool;
    fn count(self) -> u32;
    /// The lowest set bit (the word must not be zero).
    fn lowest(self) -> u8;
    /// The highest set bit (the word must not be zero).
    fn highest(self) -> u8;
    /// The word without its lowest set bit.
    fn without_lowest(self) -> Self;
    fn has(self, i: u8) -> bool;
    /// The word holding the low squares of `w` (all of them when it is as wide).
    fn from_w256(w: W256) -> Self;
    /// The same squares in 256 bits.
    fn to_w256(self) -> W256;
}

impl Bits for u64 {
    const ZERO: u64 = 0;
    const ONES: u64 = !0;
    const SQUARES: usize = 64;
    type PerSquare<T: Copy + Send + Sync + 'static> = [T; 64];
    #[inline(always)]
    fn per_square<T: Copy + Send + Sync + 'static>(fill: T) -> [T; 64] {
        [fill; 64]
    }
    #[inline(always)]
    fn bit(i: u8) -> u64 {
        1u64 << i
    }
    #[inline(always)]
    fn is_zero(self) -> bool {
        self == 0
    }
    #[inline(always)]
    fn count(self) -> u32 {
        self.count_ones()
    }
    #[inline(always)]
    fn lowest(self) -> u8 {
        self.trailing_zeros() as u8
    }
    #[inline(always)]
    fn highest(self) -> u8 {
        63 - self.leading_zeros() as u8
    }
    #[inline(always)]
    fn without_lowest(self) -> u64 {
        self & self.wrapping_sub(1)
    }
    #[inline(always)]
    fn has(self, i: u8) -> bool {
        self >> i & 1 != 0
    }
    #[inline(always)]
    fn from_w256(w: W256) -> u64 {
        w.0[0]
    }
    #[inline(always)]
    fn to_w256(self) -> W256 {
        W256([self, 0, 0, 0])
    }
}

/// 256 bits, four words, lowest first: the squares of boards up to 16x16.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct W256(pub [u64; 4]);

macro_rules! w256_ops {
    ($($tr:ident $f:ident $op:tt, $tra:ident $fa:ident $opa:tt;)*) => {$(
        impl $tr for W256 {
            type Output = W256;
            #[inline(always)]
            fn $f(self, rhs: W256) -> W256 {
                let (a, b) = (self.0, rhs.0);
                W256([a[0] $op b[0], a[1] $op b[1], a[2] $op b[2], a[3] $op b[3]])
            }
        }
        impl $tra for W256 {
            #[inline(always)]
            fn $fa(&mut self, rhs: W256) {
                for (a, b) in self.0.iter_mut().zip(rhs.0) {
                    *a $opa b;
                }
            }
        }
    )*};
}
w256_ops! {
    BitAnd bitand &, BitAndAssign bitand_assign &=;
    BitOr bitor |, BitOrAssign bitor_assign |=;
    BitXor bitxor ^, BitXorAssign bitxor_assign ^=;
}

impl Not for W256 {
    type Output = W256;
    #[inline(always)]
    fn not(self) -> W256 {
        let a = self.0;
        W256([!a[0], !a[1], !a[2], !a[3]])
    }
}

impl Bits for W256 {
    const ZERO: W256 = W256([0; 4]);
    const ONES: W256 = W256([!0; 4]);
    const SQUARES: usize = 256;
    type PerSquare<T: Copy + Send + Sync + 'static> = Vec<T>;
    fn per_square<T: Copy + Send + Sync + 'static>(fill: T) -> Vec<T> {
        vec![fill; 256]
    }
    #[inline(always)]
    fn bit(i: u8) -> W256 {
        let mut w = [0; 4];
        w[usize::from(i >> 6)] = 1u64 << (i & 63);
        W256(w)
    }
    #[inline(always)]
    fn is_zero(self) -> bool {
        (self.0[0] | self.0[1] | self.0[2] | self.0[3]) == 0
    }
    #[inline(always)]
    fn count(self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
    #[inline(always)]
    fn lowest(self) -> u8 {
        let mut base = 0u8;
        for w in self.0 {
            if w != 0 {
                return base + w.trailing_zeros() as u8;
            }
            base = base.wrapping_add(64);
        }
        0
    }
    #[inline(always)]
    fn highest(self) -> u8 {
        for i in (0..4).rev() {
            let w = self.0[i];
            if w != 0 {
                return (i * 64 + 63 - w.leading_zeros() as usize) as u8;
            }
        }
        0
    }
    #[inline(always)]
    fn without_lowest(self) -> W256 {
        let mut w = self.0;
        for x in w.iter_mut() {
            if *x != 0 {
                *x &= *x - 1;
                break;
            }
        }
        W256(w)
    }
    #[inline(always)]
    fn has(self, i: u8) -> bool {
        self.0[usize::from(i >> 6)] >> (i & 63) & 1 != 0
    }
    #[inline(always)]
    fn from_w256(w: W256) -> W256 {
        w
    }
    #[inline(always)]
    fn to_w256(self) -> W256 {
        self
    }
}

/// A set of squares, one bit per square.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Bitboard<B: Bits = u64>(pub B);

impl<B: Bits> Bitboard<B> {
    pub const EMPTY: Bitboard<B> = Bitboard(B::ZERO);
    pub const FULL: Bitboard<B> = Bitboard(B::ONES);

    #[inline(always)]
    pub fn is_empty(self) -> bool {
        self.0.is_zero()
    }
    #[inline(always)]
    pub fn any(self) -> bool {
        !self.0.is_zero()
    }
    #[inline(always)]
    pub fn count(self) -> u32 {
        self.0.count()
    }
    #[inline(always)]
    pub fn contains(self, sq: Square) -> bool {
        self.0.has(sq.0)
    }
    /// Whether more than one square is set.
    #[inline(always)]
    pub fn more_than_one(self) -> bool {
        !self.0.without_lowest().is_zero()
    }
    /// The lowest square, if any.
    #[inline(always)]
    pub fn first(self) -> Option<Square> {
        if self.0.is_zero() {
            None
        } else {
            Some(Square(self.0.lowest()))
        }
    }
    /// The highest square, if any.
    #[inline(always)]
    pub fn last(self) -> Option<Square> {
        if self.0.is_zero() {
            None
        } else {
            Some(Square(self.0.highest()))
        }
    }
    /// The lowest square; the set must not be empty.
    #[inline(always)]
    pub fn lsb(self) -> Square {
        debug_assert!(!self.0.is_zero());
        Square(self.0.lowest())
    }
    #[inline(always)]
    pub fn with(self, sq: Square) -> Bitboard<B> {
        Bitboard(self.0 | B::bit(sq.0))
    }
    #[inline(always)]
    pub fn without(self, sq: Square) -> Bitboard<B> {
        Bitboard(self.0 & !B::bit(sq.0))
    }
}

impl<B: Bits> Iterator for Bitboard<B> {
    type Item = Square;
    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        if self.0.is_zero() {
            None
        } else {
            let sq = Square(self.0.lowest());
            self.0 = self.0.without_lowest();
            Some(sq)
        }
    }
}

macro_rules! bitops {
    ($($tr:ident $f:ident $op:tt, $tra:ident $fa:ident $opa:tt;)*) => {$(
        impl<B: Bits> $tr for Bitboard<B> {
            type Output = Bitboard<B>;
            #[inline(always)]
            fn $f(self, rhs: Bitboard<B>) -> Bitboard<B> { Bitboard(self.0 $op rhs.0) }
        }
        impl<B: Bits> $tra for Bitboard<B> {
            #[inline(always)]
            fn $fa(&mut self, rhs: Bitboard<B>) { self.0 $opa rhs.0 }
        }
    )*};
}
bitops! {
    BitAnd bitand &, BitAndAssign bitand_assign &=;
    BitOr bitor |, BitOrAssign bitor_assign |=;
    BitXor bitxor ^, BitXorAssign bitxor_assign ^=;
}

impl<B: Bits> Not for Bitboard<B> {
    type Output = Bitboard<B>;
    #[inline(always)]
    fn not(self) -> Bitboard<B> {
        Bitboard(!self.0)
    }
}

/// One of the eight compass directions, as seen from the first seat (north = towards the
/// last rank).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Direction(pub u8);

impl Direction {
    /// File and rank steps of the eight directions, clockwise from north.
    pub const STEPS: [(i32, i32); 8] = [
        (0, 1),
        (1, 1),
        (1, 0),
        (1, -1),
        (0, -1),
        (-1, -1),
        (-1, 0),
        (-1, 1),
    ];

    /// The direction of a unit step, if it is one.
    pub fn from_step(df: i32, dr: i32) -> Option<Direction> {
        Self::STEPS
            .iter()
            .position(|&s| s == (df, dr))
            .map(|i| Direction(i as u8))
    }
    /// Whether the direction runs along a file or rank.
    pub const fn is_orthogonal(self) -> bool {
        self.0.is_multiple_of(2)
    }
    /// The opposite direction.
    pub const fn reverse(self) -> Direction {
        Direction((self.0 + 4) % 8)
    }
    /// Whether squares along the direction have rising indices (the first blocker is then
    /// the lowest bit of the blocked part of the ray).
    pub const fn rises(self) -> bool {
        matches!(self.0, 0 | 1 | 2 | 7)
    }
}

/// The rays of a board of any size held in [`W256`]: sliding attacks by ray scan (the first
/// blocker of a ray is its lowest or highest bit), and the direction between two squares.
#[derive(Clone)]
pub(crate) struct WideGeometry {
    /// `ray[d * 256 + sq]`: the squares from `sq` in direction `d`, excluding `sq`.
    ray: Vec<W256>,
    /// `direction[a * 256 + b]`: the direction from `a` towards aligned `b`, or 8.
    direction: Vec<u8>,
}

impl WideGeometry {
    pub(crate) fn new(board: Board) -> WideGeometry {
        let mut ray = vec![W256::ZERO; 8 * 256];
        let mut direction = vec![8u8; 256 * 256];
        for a in 0..board.squares() {
            let from = Square(a as u8);
            for (d, &(df, dr)) in Direction::STEPS.iter().enumerate() {
                let mut acc = W256::ZERO;
                let mut k = 1;
                while let Some(to) = board.offset(from, df * k, dr * k) {
                    acc |= W256::bit(to.0);
                    direction[a * 256 + to.index()] = d as u8;
                    k += 1;
                }
                ray[d * 256 + a] = acc;
            }
        }
        WideGeometry { ray, direction }
    }

    #[inline(always)]
    pub(crate) fn ray(&self, d: usize, sq: Square) -> Bitboard<W256> {
        Bitboard(self.ray[d * 256 + sq.index()])
    }

    #[inline(always)]
    pub(crate) fn direction(&self, a: Square, b: Square) -> u8 {
        self.direction[a.index() * 256 + b.index()]
    }

    /// The squares strictly between two aligned squares (else empty).
    #[inline]
    pub(crate) fn between(&self, a: Square, b: Square) -> Bitboard<W256> {
        let d = self.direction(a, b);
        if d >= 8 {
            return Bitboard::EMPTY;
        }
        self.ray(usize::from(d), a) & self.ray(usize::from((d + 4) % 8), b)
    }

    /// The whole line through two aligned squares (else empty).
    #[inline]
    pub(crate) fn line(&self, a: Square, b: Square) -> Bitboard<W256> {
        let d = self.direction(a, b);
        if d >= 8 {
            return Bitboard::EMPTY;
        }
        self.ray(usize::from(d), a) | self.ray(usize::from((d + 4) % 8), a) | a.bb()
    }

    /// The squares reached from `sq` in direction `d`, the first blocker in `occ` included.
    #[inline(always)]
    fn slide(&self, d: usize, sq: Square, occ: Bitboard<W256>) -> Bitboard<W256> {
        let ray = self.ray(d, sq);
        let blockers = ray & occ;
        if blockers.is_empty() {
            return ray;
        }
        let first = if Direction(d as u8).rises() {
            blockers.0.lowest()
        } else {
            blockers.0.highest()
        };
        ray ^ self.ray(d, Square(first))
    }

    /// Rook attacks from `sq` with blockers `occ` (the first blocker in each direction
    /// included).
    #[inline]
    pub(crate) fn rook(&self, sq: Square, occ: Bitboard<W256>) -> Bitboard<W256> {
        self.slide(0, sq, occ)
            | self.slide(2, sq, occ)
            | self.slide(4, sq, occ)
            | self.slide(6, sq, occ)
    }

    /// Bishop attacks, as [`WideGeometry::rook`].
    #[inline]
    pub(crate) fn bishop(&self, sq: Square, occ: Bitboard<W256>) -> Bitboard<W256> {
        self.slide(1, sq, occ)
            | self.slide(3, sq, occ)
            | self.slide(5, sq, occ)
            | self.slide(7, sq, occ)
    }
}

/// Precomputed 8x8 geometry: rays, lines and the sliding-attack tables.
pub(crate) struct Geometry {
    /// `ray[d][sq]`: the squares from `sq` in direction `d`, excluding `sq`.
    pub ray: [[u64; 64]; 8],
    /// `between[a][b]`: the squares strictly between two aligned squares (else empty).
    pub between: Box<[[u64; 64]; 64]>,
    /// `line[a][b]`: the whole line through two aligned squares (else empty).
    pub line: Box<[[u64; 64]; 64]>,
    /// `direction[a][b]`: the direction from `a` towards aligned `b`, or 8.
    pub direction: Box<[[u8; 64]; 64]>,
    rook: Magics,
    bishop: Magics,
}

struct Magic {
    mask: u64,
    magic: u64,
    shift: u32,
    offset: usize,
}

struct Magics {
    entries: Vec<Magic>,
    table: Vec<u64>,
}

impl Magics {
    #[inline(always)]
    fn attacks(&self, sq: usize, occ: u64) -> u64 {
        let m = &self.entries[sq];
        let idx = ((occ & m.mask).wrapping_mul(m.magic) >> m.shift) as usize;
        self.table[m.offset + idx]
    }
}

static GEOMETRY: OnceLock<Geometry> = OnceLock::new();

/// The shared 8x8 geometry tables, built on first use.
#[inline(always)]
pub(crate) fn geometry() -> &'static Geometry {
    GEOMETRY.get_or_init(Geometry::new)
}

/// Rook attacks on the 8x8 board from `sq` with blockers `occ` (the first blocker in each
/// direction included).
#[inline(always)]
pub fn rook_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    Bitboard(geometry().rook.attacks(sq.index(), occ.0))
}

/// Bishop attacks on the 8x8 board from `sq` with blockers `occ`.
#[inline(always)]
pub fn bishop_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    Bitboard(geometry().bishop.attacks(sq.index(), occ.0))
}

fn slide(sq: usize, dirs: &[usize], occ: u64) -> u64 {
    let mut out = 0;
    let (f0, r0) = ((sq % 8) as i32, (sq / 8) as i32);
    for &d in dirs {
        let (df, dr) = Direction::STEPS[d];
        let (mut f, mut r) = (f0 + df, r0 + dr);
        while (0..8).contains(&f) && (0..8).contains(&r) {
            let b = 1u64 << (r * 8 + f);
            out |= b;
            if occ & b != 0 {
                break;
            }
            f += df;
            r += dr;
        }
    }
    out
}

fn edges_mask(sq: usize, dirs: &[usize]) -> u64 {
    // The relevant occupancy: each ray without its last square.
    let mut m = 0;
    let (f0, r0) = ((sq % 8) as i32, (sq / 8) as i32);
    for &d in dirs {
        let (df, dr) = Direction::STEPS[d];
        let (mut f, mut r) = (f0 + df, r0 + dr);
        while (0..8).contains(&(f + df)) && (0..8).contains(&(r + dr)) {
            m |= 1u64 << (r * 8 + f);
            f += df;
            r += dr;
        }
    }
    m
}

/// Magic multipliers for the sliding-attack tables (found once by a seeded random search;
/// `magics_are_exact` checks every entry against a slow slide).
const ROOK_MAGICS: [u64; 64] = [
    0x1080_0040_0880_1020,
    0x0840_0920_02C0_3000,
    0x1900_2000_1040_0900,
    0x0880_1000_0800_0480,
    0x4200_1004_2008_0200,
    0x8100_0201_0008_0400,
    0x0200_0401_1088_6200,
    0x0200_0080_4022_0411,
    0x0404_8000_8440_0220,
    0x0000_4010_0040_2000,
    0x0086_0010_8122_0440,
    0x0408_8008_0010_0280,
    0x000A_0012_0104_0820,
    0x8848_8002_0084_0080,
    0x4001_0001_0004_0200,
    0x0442_0001_0210_5084,
    0x9080_0100_2080_4100,
    0x0040_4040_0020_1009,
    0x0000_8080_1000_2009,
    0x2200_0900_21D0_0100,
    0x0008_0080_0804_0080,
    0x0004_0040_0201_0040,
    0x0011_0400_0801_5042,
    0x0000_0A00_0176_8104,
    0x0000_8000_8020_4009,
    0x2010_0041_4000_2001,
    0x9800_2002_8010_0080,
    0x1000_1000_8008_0080,
    0x0442_000A_0004_9020,
    0x2100_0400_8002_0080,
    0x0800_1204_0090_0148,
    0x0010_040A_0012_8541,
    0x2800_8040_0080_0030,
    0x1010_0020_0040_0041,
    0x4000_2000_1100_4100,
    0x0610_0084_1080_0800,
    0x0400_8024_0280_0800,
    0xC100_0200_8080_0400,
    0x0002_0008_0200_0401,
    0x0182_0858_8200_0401,
    0x0220_2040_0080_8000,
    0x2860_1000_4002_4022,
    0x0001_0020_0411_0040,
    0x9910_1042_000A_0020,
    0x0004_0800_0400_8080,
    0x0010_0400_0200_8080,
    0x2012_0048_8102_0004,
    0x8300_8424_4482_0011,
    0x0088_4038_8201_0200,
    0x0820_4000_8021_0100,
    0x0110_9100_40A0_0300,
    0x0801_1002_8008_0480,
    0x0242_0090_0820_0600,
    0x1002_0004_8950_0200,
    0x0040_8002_0001_0080,
    0x0091_8000_4100_0080,
    0x0000_2093_0048_8001,
    0x04C1_0024_1482_4001,
    0x0200_2000_0B00_1041,
    0x7000_1000_0420_0901,
    0x8002_0020_0410_0802,
    0x3001_0002_084C_0007,
    0x0888_2218_0081_3004,
    0x4000_0028_4084_0112,
];

const BISHOP_MAGICS: [u64; 64] = [
    0x2048_0170_2091_0100,
    0x0044_4104_2400_8008,
    0x0408_28A4_0090_0000,
    0x8002_2092_0002_2000,
    0x0002_0210_0054_0002,
    0x0021_0188_4000_0000,
    0x0000_9E84_2020_4002,
    0x00A0_9201_1008_4480,
    0x4003_0620_1801_0110,
    0x0221_0468_1200_4E09,
    0x01E1_1002_9589_12A0,
    0x0000_0444_1080_4000,
    0x0000_8212_1000_0080,
    0x0802_0110_2210_A800,
    0x0080_0404_1104_5004,
    0x0070_4A18_4202_1000,
    0x1005_0610_7032_2800,
    0x0018_0010_1041_0444,
    0x0010_0008_0040_1420,
    0x2204_0028_4400_0800,
    0x2052_0204_1202_2280,
    0x000A_0201_0100_8208,
    0x0040_4002_0104_2000,
    0x03E1_0820_4048_0410,
    0x1004_2000_0420_8414,
    0x0870_0400_9848_08C8,
    0x0088_0800_0400_4410,
    0x008C_0240_1401_00A2,
    0x0008_8400_0182_2000,
    0x0050_0880_0108_0100,
    0x9814_0840_040A_2200,
    0x3002_0209_0021_0110,
    0x1004_0406_4020_6000,
    0x1090_9090_0084_0400,
    0x9002_4448_1010_0020,
    0x4000_0200_8008_0080,
    0x0028_0204_0001_1010,
    0x0290_8083_0002_0100,
    0x8010_0208_8200_4410,
    0x0604_0100_4008_2C20,
    0x2004_0104_C080_1008,
    0x6004_2084_2400_1050,
    0x1002_8400_4100_0800,
    0x0200_0420_1800_0102,
    0xA800_2000_A082_1C00,
    0x0040_0808_0220_1910,
    0x0222_6204_4400_0100,
    0x0002_0800_4102_0088,
    0x1500_8201_1040_1050,
    0x0000_4920_9010_0080,
    0x0900_4100_4110_0000,
    0x0302_0004_2088_0000,
    0x0010_5012_0202_0020,
    0x0008_2004_9004_9040,
    0x0462_0802_14A4_0120,
    0x2421_3101_0200_8100,
    0x2400_4200_8088_4060,
    0x0800_8044_0618_4208,
    0x0B00_8012_4A08_4400,
    0x082E_0823_0084_0412,
    0x6051_0490_4008_2200,
    0xC610_2110_0210_2101,
    0x0000_0488_0801_0433,
    0x0010_2008_0440_5440,
];

fn build_magics(dirs: &[usize], magics: &[u64; 64]) -> Magics {
    let mut entries = Vec::with_capacity(64);
    let mut table = Vec::new();
    for (sq, &magic) in magics.iter().enumerate() {
        let mask = edges_mask(sq, dirs);
        let bits = mask.count_ones();
        let shift = 64 - bits;
        let offset = table.len();
        table.resize(offset + (1usize << bits), 0);
        // Carry-Rippler enumeration of the subsets of the mask.
        let mut sub = 0u64;
        loop {
            let idx = (sub.wrapping_mul(magic) >> shift) as usize;
            table[offset + idx] = slide(sq, dirs, sub);
            sub = sub.wrapping_sub(mask) & mask;
            if sub == 0 {
                break;
            }
        }
        entries.push(Magic {
            mask,
            magic,
            shift,
            offset,
        });
    }
    Magics { entries, table }
}

impl Geometry {
    fn new() -> Geometry {
        let mut ray = [[0u64; 64]; 8];
        for (d, rays) in ray.iter_mut().enumerate() {
            for (sq, r) in rays.iter_mut().enumerate() {
                *r = slide(sq, &[d], 0);
            }
        }
        let mut between = Box::new([[0u64; 64]; 64]);
        let mut line = Box::new([[0u64; 64]; 64]);
        let mut direction = Box::new([[8u8; 64]; 64]);
        for a in 0..64 {
            for d in 0..8 {
                // Walk outwards from `a`, so `acc` holds the squares passed so far.
                let mut acc = 0u64;
                let (df, dr) = Direction::STEPS[d];
                let (mut f, mut r) = ((a % 8) as i32 + df, (a / 8) as i32 + dr);
                while (0..8).contains(&f) && (0..8).contains(&r) {
                    let b = (r * 8 + f) as usize;
                    between[a][b] = acc;
                    line[a][b] = ray[d][a] | ray[(d + 4) % 8][a] | 1 << a;
                    direction[a][b] = d as u8;
                    acc |= 1 << b;
                    f += df;
                    r += dr;
                }
            }
        }
        Geometry {
            ray,
            between,
            line,
            direction,
            rook: build_magics(&[0, 2, 4, 6], &ROOK_MAGICS),
            bishop: build_magics(&[1, 3, 5, 7], &BISHOP_MAGICS),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rook_attacks_stop_at_blockers() {
        let d4 = Board::STANDARD.parse_square("d4").unwrap();
        let occ = Bitboard::EMPTY
            .with(Board::STANDARD.parse_square("d6").unwrap())
            .with(Board::STANDARD.parse_square("b4").unwrap());
        let att = rook_attacks(d4, occ);
        let names: Vec<String> = att.map(|s| s.to_string()).collect();
        // d-file up to the blocker on d6, down to d1; rank 4 left to b4, right to h4.
        assert_eq!(
            names,
            ["d1", "d2", "d3", "b4", "c4", "e4", "f4", "g4", "h4", "d5", "d6"]
        );
    }

    #[test]
    fn bishop_attacks_match_slow_slide() {
        for sq in 0..64u8 {
            for occ in [
                0u64,
                0x0000_0018_1800_0000,
                0x00FF_0000_0000_FF00,
                0x8142_2418_1824_4281,
            ] {
                assert_eq!(
                    bishop_attacks(Square(sq), Bitboard(occ)).0,
                    slide(sq as usize, &[1, 3, 5, 7], occ)
                );
                assert_eq!(
                    rook_attacks(Square(sq), Bitboard(occ)).0,
                    slide(sq as usize, &[0, 2, 4, 6], occ)
                );
            }
        }
    }

    #[test]
    fn magics_are_exact() {
        // Every occupancy subset of every square maps to its own slow-slide attack set.
        for (dirs, magics) in [([0, 2, 4, 6], &ROOK_MAGICS), ([1, 3, 5, 7], &BISHOP_MAGICS)] {
            let m = build_magics(&dirs, magics);
            for sq in 0..64 {
                let mask = edges_mask(sq, &dirs);
                let mut sub = 0u64;
                loop {
                    assert_eq!(m.attacks(sq, sub), slide(sq, &dirs, sub), "square {sq}");
                    sub = sub.wrapping_sub(mask) & mask;
                    if sub == 0 {
                        break;
                    }
                }
            }
        }
    }

    #[test]
    fn between_and_line() {
        let g = geometry();
        let b = Board::STANDARD;
        let (a1, d4, h8, b3) = (
            b.parse_square("a1").unwrap(),
            b.parse_square("d4").unwrap(),
            b.parse_square("h8").unwrap(),
            b.parse_square("b3").unwrap(),
        );
        assert_eq!(Bitboard(g.between[a1.index()][d4.index()]).count(), 2);
        assert_eq!(Bitboard(g.line[a1.index()][d4.index()]).count(), 8);
        assert!(Bitboard(g.line[d4.index()][a1.index()]).contains(h8));
        assert_eq!(g.between[a1.index()][b3.index()], 0);
        assert_eq!(g.direction[a1.index()][h8.index()], 1);
    }

    #[test]
    fn square_names() {
        let b = Board::STANDARD;
        assert_eq!(b.parse_square("a1"), Some(Square(0)));
        assert_eq!(b.parse_square("h8"), Some(Square(63)));
        assert_eq!(b.parse_square("i1"), None);
        assert_eq!(b.parse_square("a9"), None);
        assert_eq!(b.parse_square("a0"), None);
        assert_eq!(b.parse_square("a"), None);
        assert_eq!(Square(28).to_string(), "e4");
    }
}
