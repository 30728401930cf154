//! Move generation: the single-die steps of the player on roll, the distinct full-turn plays
//! (one per resulting position, as gnubg counts them), and falla detection.

use crate::board::{points_in, Board};
use crate::dice::{Dice, MAX_DICE};
use crate::notation::{Play, Step, BAR, OFF};
use crate::rules::{BearOff, TablesRules};
use libro_core::MoveBuffer;
use std::cell::RefCell;
use std::fmt;

/// The most distinct plays a roll of three dice can have, so a fixed buffer never overflows.
///
/// A play's result is fixed by the multiset of (start point, die) of its steps (each landing
/// hits whatever lone opposing checker stood there). With three different dice and at most
/// 15 occupied points: 15³ plays move three checkers from occupied points, 6 × 15² plays
/// move one checker on with a second die (6 ordered die pairs), and 6 × 15 take one checker
/// through all three dice: 3375 + 1350 + 90 = 4815. Doubles and triples give fewer.
pub const MAX_PLAYS: usize = 4815;

/// The move list of a tables game: up to [`MAX_PLAYS`] plays, no allocation.
pub type PlayList = arrayvec::ArrayVec<Play, MAX_PLAYS>;

/// Why one die cannot move a checker from a point.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Illegal {
    /// No checker of the mover stands there.
    NoChecker { from: u8 },
    /// A checker on the bar must enter first.
    BarFirst { on_bar: u8 },
    /// The landing point is closed by opposing checkers.
    Closed { to: u8, count: u8 },
    /// Bearing off needs every checker in the home table.
    NotHome { outside: u8, home: u8 },
    /// Under exact bearing off the die must match the point.
    Exact { from: u8, die: u8 },
    /// A die higher than the point bears off only from the highest occupied point.
    HigherChecker { from: u8, die: u8, highest: u8 },
    /// Pairs are still stacked (`pairs`, bit `p` for point `p`): a die lays down only the
    /// pair on its own point, and nothing else moves until every pair is down.
    Stacked { from: u8, die: u8, pairs: u32 },
    /// Checkers never move along the board under `moves = bear-off-only`.
    OffOnly { from: u8, to: u8 },
}

impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Illegal::NoChecker { from: BAR } => write!(f, "you have no checker on the bar"),
            Illegal::NoChecker { from } => write!(f, "you have no checker on point {from}"),
            Illegal::BarFirst { on_bar } => {
                write!(f, "you have {on_bar} checker{} on the bar, which must enter before any other checker moves", if on_bar == 1 { "" } else { "s" })
            }
            Illegal::Closed { to, count } => write!(f, "point {to} is closed: the opponent has {count} checker{} there", if count == 1 { "" } else { "s" }),
            Illegal::NotHome { outside, home } => write!(
                f,
                "you may bear off only with all your checkers in your home table (points 1-{home}), and {outside} {} outside it",
                if outside == 1 { "is" } else { "are" }
            ),
            Illegal::Exact { from, die } => write!(f, "bearing off is exact here: a {die} bears off only from point {die}, not {from}"),
            Illegal::HigherChecker { from, die, highest } => {
                write!(f, "a {die} bears off from point {from} only if no checker stands higher, and you have one on point {highest}")
            }
            Illegal::Stacked { from, die, pairs } if pairs >> from & 1 == 1 => write!(
                f,
                "the pair on point {from} is still stacked: a {from} lays it down (`{from}/down`), and a {die} only the pair on point {die}"
            ),
            Illegal::Stacked { pairs, .. } => {
                let points: Vec<String> = points_in(pairs).map(|p| p.to_string()).collect();
                write!(
                    f,
                    "nothing moves until your stacked pairs are laid down, and pairs are still stacked on point{} {}",
                    if points.len() == 1 { "" } else { "s" },
                    points.join(", ")
                )
            }
            Illegal::OffOnly { from, to } => write!(
                f,
                "checkers never move along the board in this game, only off it: {}/{to} is no move",
                if from == BAR { "bar".to_string() } else { from.to_string() }
            ),
        }
    }
}

/// The player on roll's side of the board during a turn, kept as bit masks for speed.
#[derive(Clone, Debug)]
pub(crate) struct Mover {
    pub me: [u8; 26],
    /// Own points 1–25 (25 = bar) holding a checker.
    occ: u32,
    /// Own points closed by the opponent.
    closed: u32,
    /// Own points holding a lone opposing checker that may be hit (and has not been yet).
    blots: u32,
    /// The lone opposing checkers at the start of the turn.
    blots_at_start: u32,
    /// Bits of points outside the home table, the bar included.
    outside: u32,
    /// The resulting position, exactly, relative to the start of the turn: the change in own
    /// counts on points 1–25 (4 bits each, wrapping) plus the points hit (bits 100–123).
    /// Counts stay within 0–15, so from one start equal keys mean equal positions.
    pub key: u128,
    checkers: u8,
    home: u8,
    exact: bool,
    enter_first: bool,
    /// Where a checker on the bar counts from: `entry + 1` (25, the bar itself, when checkers
    /// enter on 24 with a 1), so a die of n enters it on `bar_base - n`.
    bar_base: u8,
    /// Own points whose pair is still stacked (bit `p`). While any is, a die of n only lays
    /// down the pair on point n ([`Mover::search_stacked`]).
    stacked: u32,
    /// Whether checkers never move along the board (every landing point counts as closed).
    off_only: bool,
    /// The opponent's counts on its own points, and where the mover's points are in its
    /// numbering: for explanations only.
    other: [u8; 26],
    cross: [u8; 25],
}

/// Bit masks of the slots of `counts` holding a checker, and two or more: eight slots at a
/// time, each byte's flag gathered into one bit (SWAR).
#[inline]
fn occupancy(counts: &[u8; 26]) -> (u32, u32) {
    const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    // Bytes that are not zero: their high bit set.
    let nonzero = |x: u64| ((x & LOW7).wrapping_add(LOW7) | x) & HIGH;
    // The high bit of byte k moved to bit k.
    let gather = |h: u64| ((h >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u32;
    let mut any = 0u32;
    let mut two = 0u32;
    for (k, chunk) in counts.chunks(8).enumerate() {
        let mut bytes = [0u8; 8];
        bytes[..chunk.len()].copy_from_slice(chunk);
        let x = u64::from_le_bytes(bytes);
        any |= gather(nonzero(x)) << (8 * k);
        two |= gather(nonzero(x & !0x0101_0101_0101_0101)) << (8 * k);
    }
    (any, two)
}

const HIT_SHIFT: u32 = 100;

/// A checker's weight in [`Mover::key`] on each point (none off the board, at 0).
const UNIT: [u128; 26] = {
    let mut unit = [0u128; 26];
    let mut p = 1;
    while p < 26 {
        unit[p] = 1 << (4 * (p - 1));
        p += 1;
    }
    unit
};

/// The mark in [`Mover::key`] of a hit on each point 1–24.
const HIT: [u128; 26] = {
    let mut hit = [0u128; 26];
    let mut p = 1;
    while p < 25 {
        hit[p] = 1 << (HIT_SHIFT as usize + p - 1);
        p += 1;
    }
    hit
};

/// Bits of the points 1–24.
const POINT_BITS: u32 = ((1 << 25) - 1) & !1;

/// The mark in [`Mover::key`] of a hit on point `to`, or none.
#[inline]
fn hit_mark(to: usize, hit: bool) -> u128 {
    HIT[to] & u128::from(hit).wrapping_neg()
}

impl Mover {
    #[inline]
    pub fn new(rules: &TablesRules, board: &Board, seat: usize) -> Mover {
        let me = *board.counts(seat);
        let other = *board.counts(1 - seat);
        let cross = rules.cross[seat];
        let occ = occupancy(&me).0 & !1;
        let (closed, blots) = if rules.opposite {
            // The other side's own point q is this side's point 25 − q: reverse the bits.
            let (any, two) = occupancy(&other);
            let mirror = |m: u32| (m.reverse_bits() >> 6) & POINT_BITS;
            if rules.hitting {
                (mirror(two), mirror(any & !two))
            } else {
                (mirror(any), 0)
            }
        } else {
            let closing = if rules.hitting { 2 } else { 1 };
            let (mut closed, mut blots) = (0u32, 0u32);
            for p in 1..25 {
                let n = other[usize::from(cross[p])];
                closed |= u32::from(n >= closing) << p;
                blots |= u32::from(rules.hitting && n == 1) << p;
            }
            (closed, blots)
        };
        let outside = ((1u32 << 26) - 1) & !((2u32 << rules.home) - 1);
        // Under `moves = bear-off-only` no landing point is open: only bearing off is left.
        let closed = if rules.off_only { POINT_BITS } else { closed };
        Mover {
            me,
            occ,
            closed,
            blots,
            blots_at_start: blots,
            outside,
            key: 0,
            checkers: rules.checkers,
            home: rules.home,
            exact: rules.bear_off == BearOff::Exact,
            enter_first: rules.enter_first,
            bar_base: rules.entry + 1,
            stacked: board.stacked(seat),
            off_only: rules.off_only,
            other,
            cross,
        }
    }

    /// Whether every checker is borne off.
    #[inline]
    pub fn all_off(&self) -> bool {
        self.me[usize::from(OFF)] == self.checkers
    }

    /// The points a die may move a checker from right now (the bar alone while it is occupied).
    #[inline]
    fn sources(&self) -> u32 {
        if self.enter_first && self.occ >> BAR & 1 == 1 {
            1 << BAR
        } else {
            self.occ
        }
    }

    /// Where a checker from `from` lands with `die` (0 = borne off), if it may; `from` must
    /// hold a checker and be a source.
    #[inline]
    fn target(&self, from: u8, die: u8) -> Option<u8> {
        if self.bar_base == BAR {
            self.target_of::<false>(from, die)
        } else {
            self.target_of::<true>(from, die)
        }
    }

    /// [`Mover::target`] with `ENTRY` as in [`Mover::base_of`].
    #[inline(always)]
    fn target_of<const ENTRY: bool>(&self, from: u8, die: u8) -> Option<u8> {
        let base = self.base_of::<ENTRY>(from);
        if base > die {
            let to = base - die;
            (self.closed >> to & 1 == 0).then_some(to)
        } else if self.occ & self.outside != 0 {
            None
        } else if from == die || (!self.exact && self.occ >> (from + 1) == 0) {
            Some(OFF)
        } else {
            None
        }
    }

    /// The point a step from `from` counts its die from: the point itself, or for the bar
    /// `entry + 1` (the bar, 25, unless the ruleset enters checkers lower on the path).
    #[inline(always)]
    pub fn base(&self, from: u8) -> u8 {
        if from == BAR {
            self.bar_base
        } else {
            from
        }
    }

    /// [`Mover::base`] in the search, where `ENTRY` says whether the ruleset enters checkers
    /// lower on the path (without it the bar counts from 25, like any point from itself).
    #[inline(always)]
    fn base_of<const ENTRY: bool>(&self, from: u8) -> u8 {
        if ENTRY {
            self.base(from)
        } else {
            from
        }
    }

    /// Like [`Mover::target`] for any point, saying why not; a lay-down lands where it
    /// starts.
    pub fn explain(&self, from: u8, die: u8) -> Result<u8, Illegal> {
        if !(1..=BAR).contains(&from) || self.me[usize::from(from)] == 0 {
            return Err(Illegal::NoChecker { from });
        }
        if self.stacked != 0 {
            return if from == die && self.stacked >> from & 1 == 1 {
                Ok(from)
            } else {
                Err(Illegal::Stacked {
                    from,
                    die,
                    pairs: self.stacked,
                })
            };
        }
        if self.sources() >> from & 1 == 0 {
            return Err(Illegal::BarFirst {
                on_bar: self.me[usize::from(BAR)],
            });
        }
        match self.target(from, die) {
            Some(to) => Ok(to),
            None if self.off_only && self.base(from) > die => Err(Illegal::OffOnly {
                from,
                to: self.base(from) - die,
            }),
            None if self.base(from) > die => Err(Illegal::Closed {
                to: self.base(from) - die,
                count: self.other[usize::from(self.cross[usize::from(self.base(from) - die)])],
            }),
            None if self.occ & self.outside != 0 => {
                let outside = (usize::from(self.home) + 1..=usize::from(BAR))
                    .map(|p| self.me[p])
                    .sum();
                Err(Illegal::NotHome {
                    outside,
                    home: self.home,
                })
            }
            None if self.exact => Err(Illegal::Exact { from, die }),
            None => Err(Illegal::HigherChecker {
                from,
                die,
                highest: (31 - self.occ.leading_zeros()) as u8,
            }),
        }
    }

    /// Whether landing on `to` hits a lone opposing checker.
    #[inline]
    pub fn would_hit(&self, to: u8) -> bool {
        to != OFF && self.blots >> to & 1 == 1
    }

    /// Moves a checker from `from` to `to`; returns whether it hit.
    #[inline]
    pub fn apply(&mut self, from: u8, to: u8) -> bool {
        // Without branches: which way they go is as good as random here.
        let (f, t) = (usize::from(from), usize::from(to));
        self.me[f] -= 1;
        self.occ &= !(u32::from(self.me[f] == 0) << from);
        self.me[t] += 1;
        self.occ |= (1 << to) & !(1 << OFF);
        let hit = self.blots >> to & 1 == 1;
        self.blots &= !(u32::from(hit) << to);
        self.key = self.key_after(from, to, hit);
        hit
    }

    /// Plays a step from `from` to `to`: a lay-down when they are the same point, else
    /// [`Mover::apply`]; returns whether it hit.
    pub fn apply_step(&mut self, from: u8, to: u8) -> bool {
        if from == to {
            self.lay_down(from);
            false
        } else {
            self.apply(from, to)
        }
    }

    /// Takes back [`Mover::apply_step`].
    pub fn undo_step(&mut self, from: u8, to: u8, hit: bool) {
        if from == to {
            self.stack_again(from);
        } else {
            self.undo(from, to, hit);
        }
    }

    /// Lays down the pair stacked on `point`. The key marks it in the bit a hit on that
    /// point would use: a point holding the mover's checkers holds no opposing one to hit,
    /// so from one start the two never meet.
    #[inline]
    fn lay_down(&mut self, point: u8) {
        self.stacked &= !(1 << point);
        self.key = self.key.wrapping_add(HIT[usize::from(point)]);
    }

    /// Takes back [`Mover::lay_down`].
    #[inline]
    fn stack_again(&mut self, point: u8) {
        self.stacked |= 1 << point;
        self.key = self.key.wrapping_sub(HIT[usize::from(point)]);
    }

    /// Takes back [`Mover::apply`].
    #[inline]
    pub fn undo(&mut self, from: u8, to: u8, hit: bool) {
        let (f, t) = (usize::from(from), usize::from(to));
        self.key = self
            .key
            .wrapping_sub(UNIT[t])
            .wrapping_add(UNIT[f])
            .wrapping_sub(hit_mark(t, hit));
        self.me[t] -= 1;
        self.occ &= !(u32::from(self.me[t] == 0) << to);
        self.blots |= u32::from(hit) << to;
        self.me[f] += 1;
        self.occ |= 1 << from;
    }

    /// The points a checker may move from with `die` right now, as a bit mask (the
    /// [`Mover::target`] test for every source at once).
    #[inline]
    fn movable<const ENTRY: bool>(&self, die: u8) -> u32 {
        let sources = self.sources();
        // Staying on the board: from a point above the die to one not closed.
        let mut mask = sources & (!self.closed << die) & !((2u32 << die) - 1);
        if ENTRY && sources >> BAR & 1 == 1 {
            // Entering lower on the path: the bar's landing is `bar_base - die`.
            let open = self.closed >> (self.bar_base - die) & 1 == 0;
            mask = mask & !(1 << BAR) | u32::from(open) << BAR;
        }
        if self.occ & self.outside == 0 {
            mask |= sources & (1 << die);
            let highest = 31 - self.occ.leading_zeros();
            if !self.exact && highest < u32::from(die) {
                mask |= sources & (1 << highest);
            }
        }
        mask
    }

    /// Depth-first search over the remaining `dice` (highest first): every sequence of legal
    /// steps, ending when the dice are used up, when every checker is off, or when no die
    /// can be played.
    ///
    /// Each multiset of steps is searched once, in one order: each step starts from a
    /// point no higher than the step before, and two steps from the same point take the
    /// higher die first. Any legal sequence can be put in that order: two steps in a row
    /// from a lower point `p` and then a higher point `q` (the second not moving the checker
    /// the first landed, which is lower still) may swap. The swap keeps the steps, so the
    /// position reached, and stays legal: the landings are the same points; bearing off
    /// from `q` needed the checker from `p` home already (as `p < q`), and bearing off from
    /// `p` by a higher die was not allowed while `q` stood above it, so it was exact; and
    /// the bar, the highest point, goes first. Steps from the same point move different
    /// checkers, each legal or not whatever the order among them. And a checker going on
    /// from where the last step landed with a higher die is skipped when the other order
    /// reaches the same position ([`Mover::froms`]); that order is searched.
    /// Returns true if the sink stops.
    fn search<const ENTRY: bool, S: Sink>(
        &mut self,
        dice: &[u8],
        depth: usize,
        prev: (u8, u8),
        steps: &mut [Step; MAX_DICE],
        sink: &mut S,
    ) -> bool {
        if dice.is_empty() || self.all_off() {
            return sink.complete(self.key, &steps[..depth]);
        }
        match *dice {
            [die] => return self.search_last::<ENTRY, S>(die, depth, prev, steps, sink),
            [a, b] => return self.search_two::<ENTRY, S>([a, b], depth, prev, steps, sink),
            _ => {}
        }
        let mut moved = false;
        for (i, &die) in dice.iter().enumerate() {
            if i > 0 && dice[i - 1] == die {
                continue;
            }
            let mut froms = self.froms::<ENTRY>(die, prev);
            moved |= froms != 0;
            let rest = without(dice, i);
            let rest = &rest[..dice.len() - 1];
            while froms != 0 {
                let (from, to, hit) = self.take_step::<ENTRY>(&mut froms, die, depth, steps);
                // The last two dice are searched here rather than by calls: most nodes are
                // there.
                let stop = match *rest {
                    [last] if !self.all_off() => {
                        self.search_last::<ENTRY, S>(last, depth + 1, (from, die), steps, sink)
                    }
                    [a, b] if !self.all_off() => {
                        self.search_two::<ENTRY, S>([a, b], depth + 1, (from, die), steps, sink)
                    }
                    _ => self.search::<ENTRY, S>(rest, depth + 1, (from, die), steps, sink),
                };
                self.undo(from, to, hit);
                if stop {
                    return true;
                }
            }
        }
        !moved && sink.dead_end(self.key, &steps[..depth])
    }

    /// Takes the highest point off `froms` and moves a checker from it with `die`, writing
    /// the step at `depth`; returns the step, for [`Mover::undo`].
    #[inline(always)]
    fn take_step<const ENTRY: bool>(
        &mut self,
        froms: &mut u32,
        die: u8,
        depth: usize,
        steps: &mut [Step; MAX_DICE],
    ) -> (u8, u8, bool) {
        let from = (31 - froms.leading_zeros()) as u8;
        *froms &= !(1 << from);
        let to = self.base_of::<ENTRY>(from).saturating_sub(die);
        let hit = self.apply(from, to);
        steps[depth] = Step::raw(from, to, hit);
        (from, to, hit)
    }

    /// [`Mover::search`] with two dice left (highest first) and checkers still on the board.
    #[inline(always)]
    fn search_two<const ENTRY: bool, S: Sink>(
        &mut self,
        dice: [u8; 2],
        depth: usize,
        prev: (u8, u8),
        steps: &mut [Step; MAX_DICE],
        sink: &mut S,
    ) -> bool {
        let mut moved = false;
        for (die, last) in [(dice[0], dice[1]), (dice[1], dice[0])] {
            let mut froms = self.froms::<ENTRY>(die, prev);
            moved |= froms != 0;
            while froms != 0 {
                let (from, to, hit) = self.take_step::<ENTRY>(&mut froms, die, depth, steps);
                let stop = if self.all_off() {
                    sink.complete(self.key, &steps[..=depth])
                } else {
                    self.search_last::<ENTRY, S>(last, depth + 1, (from, die), steps, sink)
                };
                self.undo(from, to, hit);
                if stop {
                    return true;
                }
            }
            if die == last {
                // Doubles: one order.
                break;
            }
        }
        !moved && sink.dead_end(self.key, &steps[..depth])
    }

    /// [`Mover::search`] with one die left and checkers still on the board: each step ends
    /// a sequence, so only its key is worked out.
    #[inline(always)]
    fn search_last<const ENTRY: bool, S: Sink>(
        &mut self,
        die: u8,
        depth: usize,
        prev: (u8, u8),
        steps: &mut [Step; MAX_DICE],
        sink: &mut S,
    ) -> bool {
        let mut froms = self.froms::<ENTRY>(die, prev);
        if froms == 0 {
            return sink.dead_end(self.key, &steps[..depth]);
        }
        while froms != 0 {
            let from = (31 - froms.leading_zeros()) as u8;
            froms &= !(1 << from);
            let to = self.base_of::<ENTRY>(from).saturating_sub(die);
            let hit = self.would_hit(to);
            steps[depth] = Step::raw(from, to, hit);
            if sink.complete(self.key_after(from, to, hit), &steps[..=depth]) {
                return true;
            }
        }
        false
    }

    /// The points the search moves a checker from with `die` after the step `prev` (its
    /// point and die): those [`Mover::movable`] allows, in the search's one order.
    #[inline(always)]
    fn froms<const ENTRY: bool>(&self, die: u8, prev: (u8, u8)) -> u32 {
        let (prev_from, prev_die) = prev;
        let higher = die > prev_die;
        // A higher die than the last step's: not from the same point again, and not on
        // with the checker the last step moved when the other order of the two dice
        // reaches the same position: it lands on the board, its other stop is open, and
        // neither stop held a lone opposing checker (one order would hit it, the other
        // not). Worked out without branches, which go either way at random here.
        let via = self.base_of::<ENTRY>(prev_from).saturating_sub(prev_die);
        let other = self.base_of::<ENTRY>(prev_from).saturating_sub(die);
        let same_either_way = higher
            & (via > die)
            & (self.closed >> other & 1 == 0)
            & ((self.blots_at_start >> via | self.blots_at_start >> other) & 1 == 0);
        let skip = u32::from(higher) << prev_from | u32::from(same_either_way) << via;
        self.movable::<ENTRY>(die) & ((2u32 << prev_from) - 1) & !skip
    }

    /// The key after moving a checker from `from` to `to` (see [`Mover::apply`]).
    #[inline]
    fn key_after(&self, from: u8, to: u8, hit: bool) -> u128 {
        let (f, t) = (usize::from(from), usize::from(to));
        self.key
            .wrapping_sub(UNIT[f])
            .wrapping_add(UNIT[t])
            .wrapping_add(hit_mark(t, hit))
    }

    /// Runs [`Mover::search`] from the start of the turn with `dice`, in any order.
    fn search_all<S: Sink>(&mut self, dice: &[u8], sink: &mut S) -> bool {
        let mut steps = [Step::raw(1, 0, false); MAX_DICE];
        let mut sorted = [0u8; MAX_DICE];
        let n = dice.len().min(MAX_DICE);
        sorted[..n].copy_from_slice(&dice[..n]);
        sorted[..n].sort_unstable_by(|a, b| b.cmp(a));
        if self.stacked != 0 {
            return self.search_stacked(&sorted[..n], 0, &mut steps, sink);
        }
        self.search_from(&sorted[..n], 0, &mut steps, sink)
    }

    /// [`Mover::search`] from step `depth` on, with no step before it to order against.
    #[inline(always)]
    fn search_from<S: Sink>(
        &mut self,
        dice: &[u8],
        depth: usize,
        steps: &mut [Step; MAX_DICE],
        sink: &mut S,
    ) -> bool {
        // Monomorphised on whether checkers enter below the bar's own 25 - n, so Fallas'
        // search pays nothing for the `entry` option.
        if self.bar_base == BAR {
            self.search::<false, S>(dice, depth, (BAR, u8::MAX), steps, sink)
        } else {
            self.search::<true, S>(dice, depth, (BAR, u8::MAX), steps, sink)
        }
    }

    /// The search while pairs are stacked: each distinct die whose point holds a stacked
    /// pair lays it down, in every order (at most six); once the last pair is down the dice
    /// left play as usual ([`Mover::search`], its ordering starting afresh).
    #[cold]
    #[inline(never)]
    fn search_stacked<S: Sink>(
        &mut self,
        dice: &[u8],
        depth: usize,
        steps: &mut [Step; MAX_DICE],
        sink: &mut S,
    ) -> bool {
        if self.stacked == 0 {
            return self.search_from(dice, depth, steps, sink);
        }
        if dice.is_empty() {
            return sink.complete(self.key, &steps[..depth]);
        }
        let mut moved = false;
        for (i, &die) in dice.iter().enumerate() {
            if (i > 0 && dice[i - 1] == die) || self.stacked >> die & 1 == 0 {
                continue;
            }
            moved = true;
            let rest = without(dice, i);
            self.lay_down(die);
            steps[depth] = Step::raw(die, die, false);
            let stop = self.search_stacked(&rest[..dice.len() - 1], depth + 1, steps, sink);
            self.stack_again(die);
            if stop {
                return true;
            }
        }
        !moved && sink.dead_end(self.key, &steps[..depth])
    }

    /// Whether the remaining `dice` can all be played from here (or every checker borne off).
    pub fn can_finish(&mut self, dice: &[u8]) -> bool {
        dice.is_empty() || self.all_off() || self.search_all(dice, &mut Exists)
    }

    /// The resulting positions reachable with `dice` (all used, all off, or stuck), with the
    /// dice each leaves unplayed.
    pub fn reachable(&mut self, dice: &[u8]) -> Vec<(u128, usize)> {
        let mut sink = Reach {
            n: dice.len(),
            out: Vec::new(),
        };
        if dice.is_empty() || self.all_off() {
            sink.out.push((self.key, 0));
        } else {
            self.search_all(dice, &mut sink);
        }
        sink.out
    }

    /// The single-die steps open now: each distinct die value with each point it may move
    /// from, with the landing point.
    pub fn steps_now(&self, dice: &[u8]) -> Vec<(u8, u8, u8)> {
        let mut out = Vec::new();
        let mut dice = dice.to_vec();
        dice.sort_unstable_by(|a, b| b.cmp(a));
        dice.dedup();
        if self.stacked != 0 {
            for &die in &dice {
                if self.stacked >> die & 1 == 1 {
                    out.push((die, die, die));
                }
            }
            return out;
        }
        let sources = self.sources();
        for from in (1..=BAR).rev().filter(|&p| sources >> p & 1 == 1) {
            for &die in &dice {
                if let Some(to) = self.target(from, die) {
                    out.push((die, from, to));
                }
            }
        }
        out
    }

    /// A random legal play: the first complete sequence of a search that takes the dice
    /// orders from a random one on and, at every step, the points in a random rotation.
    /// Not uniform over the distinct plays; one search, so fast. `None` if the dice cannot
    /// all be played (a falla). For a mover with no pair stacked.
    pub fn random_play(&mut self, dice: &[u8], rng: &mut impl rand::Rng) -> Option<Play> {
        let orders = orders(dice);
        let mut bits = rng.next_u64();
        let first = (bits % orders.len() as u64) as usize;
        bits /= 8;
        let mut steps = [Step::raw(1, 0, false); MAX_DICE];
        for k in 0..orders.len() {
            let order = &orders[(first + k) % orders.len()][..dice.len()];
            let found = if self.bar_base == BAR {
                self.search_random::<false>(order, 0, BAR, &mut steps, &mut bits, rng)
            } else {
                self.search_random::<true>(order, 0, BAR, &mut steps, &mut bits, rng)
            };
            if let Some(len) = found {
                return Play::new(&steps[..len]);
            }
        }
        None
    }

    /// [`Mover::search`] for one complete sequence, trying the points in a random rotation
    /// (still from no higher point than the step before); returns its length, leaving the
    /// mover as it was. `bits` is a store of random bits, refilled from `rng`.
    fn search_random<const ENTRY: bool>(
        &mut self,
        order: &[u8],
        depth: usize,
        prev_from: u8,
        steps: &mut [Step; MAX_DICE],
        bits: &mut u64,
        rng: &mut impl rand::Rng,
    ) -> Option<usize> {
        if depth == order.len() || self.all_off() {
            return Some(depth);
        }
        let die = order[depth];
        let mut sources = self.sources();
        sources &= (2u32 << prev_from) - 1;
        if *bits < 32 {
            *bits = rng.next_u64() | 1 << 63;
        }
        let turn = (*bits & 31) as u32;
        *bits >>= 5;
        let mut rotated = sources.rotate_right(turn);
        while rotated != 0 {
            let i = rotated.trailing_zeros();
            rotated &= rotated - 1;
            let from = ((i + turn) % 32) as u8;
            if let Some(to) = self.target_of::<ENTRY>(from, die) {
                let hit = self.apply(from, to);
                steps[depth] = Step::raw(from, to, hit);
                let done = self.search_random::<ENTRY>(order, depth + 1, from, steps, bits, rng);
                self.undo(from, to, hit);
                if done.is_some() {
                    return done;
                }
            }
        }
        None
    }
}

/// `dice` without the one at `i`, in a fixed buffer (the first `dice.len() - 1` are used).
#[inline(always)]
fn without(dice: &[u8], i: usize) -> [u8; MAX_DICE] {
    let mut rest = [0u8; MAX_DICE];
    for (k, slot) in rest.iter_mut().enumerate() {
        *slot = dice.get(k + usize::from(k >= i)).copied().unwrap_or(0);
    }
    rest
}

/// The distinct orders of up to three dice.
fn orders(dice: &[u8]) -> arrayvec::ArrayVec<[u8; MAX_DICE], 6> {
    match Dice::new(dice) {
        Some(d) => d.orders(),
        None => arrayvec::ArrayVec::new(),
    }
}

/// What the search does with each sequence it finds.
trait Sink {
    /// A sequence that used every die or bore off every checker. Returns true to stop.
    fn complete(&mut self, key: u128, steps: &[Step]) -> bool;
    /// A sequence after which no die can be played. Returns true to stop.
    fn dead_end(&mut self, _key: u128, _steps: &[Step]) -> bool {
        false
    }
}

/// Stops at the first complete sequence.
struct Exists;

impl Sink for Exists {
    fn complete(&mut self, _: u128, _: &[Step]) -> bool {
        true
    }
}

/// Collects every reachable resulting position.
struct Reach {
    n: usize,
    out: Vec<(u128, usize)>,
}

impl Sink for Reach {
    fn complete(&mut self, key: u128, _: &[Step]) -> bool {
        self.out.push((key, 0));
        false
    }
    fn dead_end(&mut self, key: u128, steps: &[Step]) -> bool {
        self.out.push((key, self.n - steps.len()));
        false
    }
}

/// Collects one play per distinct resulting position. Under the falla only complete plays
/// count; otherwise the plays using the most dice (a checker borne off last counts as all).
struct Collect<'a, B: MoveBuffer<Play>> {
    out: &'a mut B,
    seen: &'a mut PlaySet,
    all_dice: bool,
    n: usize,
    best: usize,
}

impl<B: MoveBuffer<Play>> Collect<'_, B> {
    fn offer(&mut self, key: u128, steps: &[Step], used: usize) {
        if used < self.best {
            return;
        }
        if used > self.best {
            self.best = used;
            self.out.clear();
            self.seen.clear();
        }
        if self.seen.insert(key) {
            self.out.push(Play {
                steps: [0, 1, 2].map(|i| steps.get(i).copied()),
            });
        }
    }
}

impl<B: MoveBuffer<Play>> Sink for Collect<'_, B> {
    fn complete(&mut self, key: u128, steps: &[Step]) -> bool {
        self.offer(key, steps, self.n);
        false
    }
    fn dead_end(&mut self, key: u128, steps: &[Step]) -> bool {
        if !self.all_dice {
            self.offer(key, steps, steps.len());
        }
        false
    }
}

/// Table sizes of [`PlaySet`]: small for the usual few dozen plays (it stays in the L1
/// cache), growing to hold [`MAX_PLAYS`] at most 60% full.
const SET_MIN_BITS: u32 = 8;
const SET_MAX_BITS: u32 = 13;

/// A set of resulting-position keys, cleared in O(1) by bumping a stamp.
struct PlaySet {
    bits: u32,
    len: usize,
    /// Grow when `len` reaches this (half the slots) unless at [`SET_MAX_BITS`].
    limit: usize,
    /// Each slot's key and the stamp it was written with (a slot is empty unless its stamp
    /// is the current one): one cache line holds both.
    slots: Vec<(u128, u32)>,
    stamp: u32,
}

impl PlaySet {
    fn new() -> PlaySet {
        PlaySet::with_bits(SET_MIN_BITS)
    }

    fn with_bits(bits: u32) -> PlaySet {
        PlaySet {
            bits,
            len: 0,
            limit: if bits < SET_MAX_BITS {
                1 << (bits - 1)
            } else {
                usize::MAX
            },
            slots: vec![(0, 0); 1 << bits],
            stamp: 1,
        }
    }

    fn clear(&mut self) {
        self.len = 0;
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.slots.iter_mut().for_each(|s| s.1 = 0);
            self.stamp = 1;
        }
    }

    #[inline]
    fn slot(&self, key: u128) -> usize {
        let h = ((key as u64) ^ ((key >> 64) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15))
            .wrapping_mul(0xD6E8_FEB8_6659_FD93);
        (h >> (64 - self.bits)) as usize
    }

    /// Doubles the table, keeping the keys of the current stamp.
    #[cold]
    #[inline(never)]
    fn grow(&mut self) {
        let mut bigger = PlaySet::with_bits(self.bits + 1);
        for &(key, stamp) in &self.slots {
            if stamp == self.stamp {
                bigger.insert(key);
            }
        }
        *self = bigger;
    }

    /// Inserts `key`; false if it was already there.
    #[inline]
    fn insert(&mut self, key: u128) -> bool {
        if self.len >= self.limit {
            self.grow();
        }
        let mask = self.slots.len() - 1;
        let mut i = self.slot(key);
        loop {
            let slot = &mut self.slots[i];
            if slot.1 != self.stamp {
                *slot = (key, self.stamp);
                self.len += 1;
                return true;
            }
            if slot.0 == key {
                return false;
            }
            i = (i + 1) & mask;
        }
    }
}

thread_local! {
    static SEEN: RefCell<PlaySet> = RefCell::new(PlaySet::new());
}

/// Writes the distinct plays of `seat` with `dice` into `out` (cleared first): one per
/// resulting position. Under the falla rule every play uses all the dice (or bears off the
/// last checker); an empty list means the roll is a falla. Otherwise the plays use as many
/// dice as possible, and if none can be played the one play is the pass (a dead end at once).
pub fn generate_plays<B: MoveBuffer<Play>>(
    rules: &TablesRules,
    board: &Board,
    seat: usize,
    dice: Dice,
    out: &mut B,
) {
    out.clear();
    let mut mover = Mover::new(rules, board, seat);
    SEEN.with(|seen| {
        let mut seen = seen.borrow_mut();
        seen.clear();
        let mut sink = Collect {
            out,
            seen: &mut seen,
            all_dice: rules.falla,
            n: dice.len(),
            best: 0,
        };
        mover.search_all(dice.values(), &mut sink);
    });
}

/// Finds the listed play (the first found, as [`generate_plays`] lists it) whose resulting
/// position has `key`, without listing the others.
pub(crate) fn find_play(
    rules: &TablesRules,
    board: &Board,
    seat: usize,
    dice: Dice,
    key: u128,
) -> Option<Play> {
    let mut mover = Mover::new(rules, board, seat);
    let n = dice.len();
    let want = if rules.falla {
        n
    } else {
        let mut most = MostDice { n, best: 0 };
        mover.search_all(dice.values(), &mut most);
        most.best
    };
    let mut find = Find {
        key,
        want,
        n,
        all_dice: rules.falla,
        found: None,
    };
    mover.search_all(dice.values(), &mut find);
    find.found
}

/// The most dice any sequence plays (stops once every die is played).
struct MostDice {
    n: usize,
    best: usize,
}

impl Sink for MostDice {
    fn complete(&mut self, _: u128, _: &[Step]) -> bool {
        self.best = self.n;
        true
    }
    fn dead_end(&mut self, _: u128, steps: &[Step]) -> bool {
        self.best = self.best.max(steps.len());
        false
    }
}

/// Stops at the first legal play reaching `key`.
struct Find {
    key: u128,
    want: usize,
    n: usize,
    all_dice: bool,
    found: Option<Play>,
}

impl Sink for Find {
    fn complete(&mut self, key: u128, steps: &[Step]) -> bool {
        if self.want == self.n && key == self.key {
            self.found = Play::new(steps);
            return true;
        }
        false
    }
    fn dead_end(&mut self, key: u128, steps: &[Step]) -> bool {
        if !self.all_dice && steps.len() == self.want && key == self.key {
            self.found = Play::new(steps);
            return true;
        }
        false
    }
}

/// Whether `seat` can play all of `dice` (or bear off its last checker with them).
pub fn can_play_all(rules: &TablesRules, board: &Board, seat: usize, dice: Dice) -> bool {
    Mover::new(rules, board, seat).can_finish(dice.values())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every play's resulting position by brute force, with the dice it uses: each die in
    /// every order, from every point that may move, with no ordering of the steps and
    /// nothing pruned; a sequence ends when the dice are used, every checker is off (which
    /// counts as all dice) or no die can move.
    fn brute_force(
        m: &mut Mover,
        dice: &mut Vec<u8>,
        used: usize,
        out: &mut std::collections::HashSet<(u128, usize)>,
    ) {
        if dice.is_empty() || m.all_off() {
            out.insert((m.key, used + dice.len()));
            return;
        }
        let mut moved = false;
        for i in 0..dice.len() {
            let die = dice.remove(i);
            for from in 1..=BAR {
                if m.me[usize::from(from)] == 0 {
                    continue;
                }
                if let Ok(to) = m.explain(from, die) {
                    moved = true;
                    let hit = m.apply_step(from, to);
                    brute_force(m, dice, used + 1, out);
                    m.undo_step(from, to, hit);
                }
            }
            dice.insert(i, die);
        }
        if !moved {
            out.insert((m.key, used));
        }
    }

    /// Replays `play` step by step, each with a die still unused that moves that checker
    /// there by the rules, with the hit marked as it happens; returns the position's key.
    fn replay(m: &mut Mover, play: &Play, dice: &[u8]) -> u128 {
        let mut left = dice.to_vec();
        for step in play.steps() {
            let i = left
                .iter()
                .position(|&d| m.explain(step.from(), d) == Ok(step.to()))
                .unwrap_or_else(|| panic!("{play}: no unused die of {dice:?} plays {step:?}"));
            left.remove(i);
            assert_eq!(
                !step.is_lay_down() && m.would_hit(step.to()),
                step.hit(),
                "{play}: the hit of {step:?}"
            );
            m.apply_step(step.from(), step.to());
        }
        m.key
    }

    /// Checks, at every decision of `games` random games, that the listed plays are legal
    /// and are exactly the distinct resulting positions of the plays using the most dice
    /// (under the falla, only complete plays), each listed once. Returns the decisions.
    fn check_listed_plays(rules: TablesRules, games: u64) -> usize {
        use libro_core::{Game, Ruleset, Turn};
        use rand::{Rng, SeedableRng};
        let rules = std::sync::Arc::new(rules);
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let mut checked = 0;
        for seed in 0..games {
            let mut g = rules.new_game(seed);
            while let Some(turn) = (!g.is_over()).then(|| g.turn()) {
                let Turn::Seat(seat) = turn else {
                    let roll = g.sample_chance();
                    g.apply_chance(roll);
                    continue;
                };
                let crate::game::Phase::Move(_, dice) = g.phase() else {
                    unreachable!("a seat to move has dice")
                };
                let mut plays = crate::PlayList::new();
                g.legal_moves(&mut plays);
                let mut found = std::collections::HashSet::new();
                let mut m = Mover::new(&rules, g.board(), seat.index());
                brute_force(&mut m, &mut dice.values().to_vec(), 0, &mut found);
                let most = found.iter().map(|&(_, used)| used).max().unwrap_or(0);
                let expected: std::collections::HashSet<u128> = found
                    .iter()
                    .filter(|&&(_, used)| used == most && (used == dice.len() || !rules.falla))
                    .map(|&(key, _)| key)
                    .collect();
                let listed: Vec<u128> = plays
                    .iter()
                    .map(|p| {
                        replay(
                            &mut Mover::new(&rules, g.board(), seat.index()),
                            p,
                            dice.values(),
                        )
                    })
                    .collect();
                let distinct: std::collections::HashSet<u128> = listed.iter().copied().collect();
                assert_eq!(distinct.len(), listed.len(), "{g}: a position listed twice");
                assert_eq!(distinct, expected, "{g}");
                checked += 1;
                let play = plays[rng.gen_range(0..plays.len())];
                g.play(play);
            }
        }
        checked
    }

    fn fallas_with(edit: &[(&str, &str)], options: &[(&str, &str)]) -> TablesRules {
        let mut text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../rulesets/fallas.toml"
        ))
        .expect("rulesets/fallas.toml");
        for (from, to) in edit {
            assert!(text.contains(from), "fallas.toml has `{from}`");
            text = text.replace(from, to);
        }
        let options: Vec<(String, String)> = options
            .iter()
            .map(|&(k, v)| (k.to_string(), v.to_string()))
            .collect();
        TablesRules::from_toml(&text, "fallas.toml", &options).unwrap()
    }

    #[test]
    fn the_plays_listed_are_every_distinct_complete_play_once() {
        let checked = check_listed_plays(fallas_with(&[], &[]), 300);
        assert!(checked > 5000, "{checked}");
    }

    #[test]
    fn the_plays_listed_are_right_under_every_rule_option() {
        /// Text edits of `fallas.toml`, and option overrides.
        type Variant = (
            &'static [(&'static str, &'static str)],
            &'static [(&'static str, &'static str)],
        );
        let variants: [Variant; 4] = [
            (&[], &[("bear_off", "exact")]),
            (&[("falla = true", "falla = false")], &[]),
            (
                &[("falla = true", "falla = false")],
                &[("bear_off", "exact")],
            ),
            (
                &[
                    ("hitting = true", "hitting = false"),
                    ("enter_first = true", "enter_first = false"),
                ],
                &[],
            ),
        ];
        for (edit, options) in variants {
            let checked = check_listed_plays(fallas_with(edit, options), 60);
            assert!(checked > 500, "{edit:?} {options:?}: {checked}");
        }
    }

    #[test]
    fn the_plays_listed_are_right_with_stacked_pairs() {
        // Doblet: pairs laid down die by die, then checkers borne off only.
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../rulesets/doblet.toml"
        ))
        .expect("rulesets/doblet.toml");
        let rules = TablesRules::from_toml(&text, "doblet.toml", &[]).unwrap();
        let checked = check_listed_plays(rules, 60);
        assert!(checked > 1000, "{checked}");
    }

    #[test]
    fn occupancy_masks_match_the_counts() {
        let mut counts = [0u8; 26];
        for (p, n) in [
            (0, 3),
            (1, 1),
            (7, 2),
            (8, 1),
            (15, 15),
            (16, 1),
            (24, 2),
            (25, 1),
        ] {
            counts[p] = n;
        }
        let (any, two) = occupancy(&counts);
        let expect = |f: fn(u8) -> bool| {
            (0..26)
                .filter(|&p| f(counts[p]))
                .fold(0u32, |m, p| m | 1 << p)
        };
        assert_eq!(any, expect(|n| n > 0));
        assert_eq!(two, expect(|n| n >= 2));
    }

    #[test]
    fn the_play_set_tells_new_keys_from_old() {
        let mut set = PlaySet::new();
        assert!(set.insert(5));
        assert!(!set.insert(5));
        assert!(set.insert(5 << 100));
        set.clear();
        assert!(set.insert(5));
        // Grow past the smallest table, to the largest number of plays, keeping every key.
        for k in 0..MAX_PLAYS as u128 {
            assert!(set.insert(k << 64), "{k} is new");
        }
        assert!(!set.insert(5));
        for k in 0..MAX_PLAYS as u128 {
            assert!(!set.insert(k << 64), "{k} is in");
        }
        set.clear();
        assert!(set.insert(7 << 64));
    }
}
