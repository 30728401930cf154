//! A game of a tables ruleset: the board, whose turn and the dice, the game's own dice
//! stream, and the [`Game`] interface.
//!
//! Turn structure: the opening roll-off is a chance event (one die each; equal dice roll
//! again); then each turn is a chance event (the seat's dice) followed by that seat's move,
//! a whole [`Play`]. A roll that cannot be played in full is a **falla**: the game is over
//! right after that chance event ([`Phase::Over`] with [`Ending::Falla`]), so a seat to move
//! always has a play. Bearing off the last checker ends the game at once, dice unused or not.
//!
//! Whether a roll is a falla is worked out when first asked (the phase, the turn, the legal
//! moves): listing the plays answers it, so the plays are not searched twice.

use crate::board::{points_in, Board, IdError};
use crate::dice::{Dice, DiceError, DiceStream, TablesChance};
use crate::movegen::{can_play_all, generate_plays, Mover, PlayList};
use crate::notation::{Play, BAR, OFF};
use crate::rules::TablesRules;
use crate::turn::{resolve_play, MoveError};
use libro_core::{Chance, EndReason, Game, GameResult, LazyFlag, Seat, Turn};
use std::fmt;
use std::sync::Arc;

/// How a tables game ended.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Ending {
    /// `loser` rolled `dice` and could not play them all.
    Falla { loser: Seat, dice: Dice },
    /// `winner` bore off its last checker.
    BoreOff { winner: Seat },
}

/// Where a game stands.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Phase {
    /// The opening roll-off is pending (chance).
    RollOff,
    /// The seat is to roll its dice (chance).
    Roll(Seat),
    /// The seat has rolled and is to play.
    Move(Seat, Dice),
    /// The game is over.
    Over(Ending),
}

/// What is wrong with a position string.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    #[error(transparent)]
    Id(#[from] IdError),
    #[error("`{text}`: {reason}")]
    Syntax { text: String, reason: String },
    #[error("`{text}`: {reason}")]
    Dice { text: String, reason: DiceError },
    #[error("`{text}`: {reason}")]
    Inconsistent { text: String, reason: String },
}

/// A game under a tables ruleset.
#[derive(Clone, Debug)]
pub struct TablesGame {
    rules: Arc<TablesRules>,
    board: Board,
    /// Where the game stands, but for a falla not yet found: after a roll this is
    /// [`Phase::Move`] until `falla` says the roll cannot be played in full.
    phase: Phase,
    /// Whether the roll of [`Phase::Move`] is a falla; known `false` in every other phase
    /// and under rules without the falla.
    falla: LazyFlag,
    dice: DiceStream,
    ply: u32,
    /// The hash with `phase` as recorded (see [`Game::hash`]).
    hash: u64,
    /// Whether the dice of [`Phase::Move`] were left unplayed by the opponent and given to
    /// this seat (`unplayable = to-opponent`); written `ID:seat:given:6-4`.
    given: bool,
}

/// The mark in the hash of dice given by the opponent.
const GIVEN_KEY: u64 = splitmix(0x6176_656E);

const fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// Zobrist keys: `[seat][point 1-25][count 0-15]`.
static CHECKER_KEYS: [[[u64; 16]; 26]; 2] = {
    let mut keys = [[[0u64; 16]; 26]; 2];
    let mut i = 0;
    while i < 2 * 26 * 16 {
        keys[i / (26 * 16)][i / 16 % 26][i % 16] = splitmix(i as u64 + 1);
        i += 1;
    }
    keys
};

/// Zobrist keys of a pair still stacked: `[seat][point 1-24]`.
static STACK_KEYS: [[u64; 25]; 2] = {
    let mut keys = [[0u64; 25]; 2];
    let mut i = 0;
    while i < 2 * 25 {
        keys[i / 25][i % 25] = splitmix(0x5_7ACC_0000 + i as u64);
        i += 1;
    }
    keys
};

fn phase_key(phase: Phase) -> u64 {
    let (tag, seat, dice) = match phase {
        Phase::RollOff => (1, 0, 0),
        Phase::Roll(s) => (2, s.0, 0),
        Phase::Move(s, d) => (3, s.0, d.code()),
        Phase::Over(Ending::Falla { loser, dice }) => (4, loser.0, dice.code()),
        Phase::Over(Ending::BoreOff { winner }) => (5, winner.0, 0),
    };
    splitmix(0x7AB1E5 ^ (tag << 40) ^ (u64::from(seat) << 32) ^ u64::from(dice))
}

fn board_hash(board: &Board) -> u64 {
    let mut h = 0;
    for s in 0..2 {
        for p in 1..=BAR {
            h ^= CHECKER_KEYS[s][usize::from(p)][usize::from(board.count(s, p))];
        }
        for p in points_in(board.stacked(s)) {
            h ^= STACK_KEYS[s][usize::from(p)];
        }
    }
    h
}

/// The `stacked=…` field of a position string: each seat's own points whose pair is still
/// stacked, the first seat's then the second's, `-` for none (`stacked=1,2,3,5/-`).
fn write_stacked(board: &Board) -> String {
    let seat = |s: usize| {
        let points: Vec<String> = points_in(board.stacked(s)).map(|p| p.to_string()).collect();
        if points.is_empty() {
            "-".to_string()
        } else {
            points.join(",")
        }
    };
    format!("stacked={}/{}", seat(0), seat(1))
}

/// Reads the value of a `stacked=…` field (see [`write_stacked`]).
fn read_stacked(text: &str) -> Result<[u32; 2], String> {
    let (first, second) = text.split_once('/').ok_or_else(|| {
        format!("`stacked={text}` lists each seat's stacked points, the first seat's then the second's, split by `/` (`stacked=1,2,3/-`)")
    })?;
    let mut out = [0u32; 2];
    for (s, list) in [first, second].into_iter().enumerate() {
        if list == "-" {
            continue;
        }
        for item in list.split(',') {
            match item.parse::<u8>() {
                Ok(p @ 1..=24) => out[s] |= 1 << p,
                _ => {
                    return Err(format!(
                        "`stacked={text}`: `{item}` is not a point (1-24); write `-` for none"
                    ))
                }
            }
        }
    }
    Ok(out)
}

impl TablesGame {
    /// A new game from the start position, the roll-off pending; `seed` drives its dice.
    pub fn new(rules: Arc<TablesRules>, seed: u64) -> TablesGame {
        TablesGame::with(rules.clone(), rules.start, Phase::RollOff, seed)
    }

    fn with(rules: Arc<TablesRules>, board: Board, phase: Phase, seed: u64) -> TablesGame {
        let mut g = TablesGame {
            rules,
            board,
            phase,
            falla: LazyFlag::known(false),
            dice: DiceStream { seed, events: 0 },
            ply: 0,
            hash: 0,
            given: false,
        };
        g.hash = g.recompute_hash();
        g
    }

    /// A game at `board` with `phase`, checked for consistency (the dice fit the ruleset, a
    /// seat to move can play, a falla is one, a bore-off is one). Dice are seeded with 0.
    pub fn from_parts(
        rules: Arc<TablesRules>,
        board: Board,
        phase: Phase,
    ) -> Result<TablesGame, PositionError> {
        let game = TablesGame::with(rules, board, phase, 0);
        match check_parts(&game.rules, &board, phase, false) {
            Ok(()) => Ok(game),
            Err(reason) => Err(PositionError::Inconsistent {
                text: game.to_string(),
                reason,
            }),
        }
    }

    /// Reads a position string (see [`TablesGame`]'s `Display`), or a bare gnubg Position ID
    /// (the first seat on roll, to roll).
    pub fn from_position(rules: Arc<TablesRules>, text: &str) -> Result<TablesGame, PositionError> {
        let syntax = |reason: String| PositionError::Syntax {
            text: text.to_string(),
            reason,
        };
        let fields: Vec<&str> = text
            .trim()
            .split([':', ' '])
            .filter(|f| !f.is_empty())
            .collect();
        let Some((&id, rest)) = fields.split_first() else {
            return Err(syntax("empty position; expected a gnubg Position ID such as `4P8DADDg/wMAMA`, then `:seat:dice`".into()));
        };
        let (stacked, rest) = match rest.split_first() {
            Some((field, rest)) if field.starts_with("stacked=") => {
                if !rules.has_stacks() {
                    return Err(syntax(
                        "this ruleset stacks no pairs, so a position has no `stacked=` field"
                            .into(),
                    ));
                }
                (
                    read_stacked(&field["stacked=".len()..]).map_err(syntax)?,
                    rest,
                )
            }
            _ => ([0, 0], rest),
        };
        let seat_of = |name: &str| {
            (0..2)
                .find(|&s| rules.seat_name(s) == name)
                .map(|s| Seat(s as u8))
                .ok_or_else(|| {
                    syntax(format!(
                        "`{name}` is not a seat (the seats are {} and {}) nor `roll-off`",
                        rules.seat_name(0),
                        rules.seat_name(1)
                    ))
                })
        };
        let dice_of = |t: &str| {
            rules.parse_dice(t).map_err(|reason| PositionError::Dice {
                text: text.to_string(),
                reason,
            })
        };
        let mut given = false;
        let (seat, phase) = match rest {
            [] => (Seat(0), Phase::Roll(Seat(0))),
            ["roll-off"] => (Seat(0), Phase::RollOff),
            [s, "roll"] => {
                let s = seat_of(s)?;
                (s, Phase::Roll(s))
            }
            [s, "bore-off"] => {
                let s = seat_of(s)?;
                (s, Phase::Over(Ending::BoreOff { winner: s }))
            }
            [s, "falla", d] => {
                let s = seat_of(s)?;
                (s, Phase::Over(Ending::Falla { loser: s, dice: dice_of(d)? }))
            }
            [s, "given", d] if rules.give_unplayable => {
                let s = seat_of(s)?;
                let dice = d.parse::<Dice>().map_err(|reason| PositionError::Dice {
                    text: text.to_string(),
                    reason,
                })?;
                given = true;
                (s, Phase::Move(s, dice))
            }
            [s, d] => {
                let s = seat_of(s)?;
                (s, Phase::Move(s, dice_of(d)?))
            }
            _ => {
                return Err(syntax(
                    "expected `ID`, `ID:roll-off`, `ID:seat:roll`, `ID:seat:6-4-1`, `ID:seat:falla:6-4-1` or `ID:seat:bore-off`".into(),
                ))
            }
        };
        let board = Board::from_gnubg_id(id, seat.index(), rules.checkers)?.with_stacked(stacked);
        check_parts(&rules, &board, phase, given).map_err(|reason| {
            PositionError::Inconsistent {
                text: text.to_string(),
                reason,
            }
        })?;
        let mut game = TablesGame::with(rules, board, phase, 0);
        if given {
            game.given = true;
            game.hash ^= GIVEN_KEY;
        }
        Ok(game)
    }

    /// The ruleset.
    pub fn rules(&self) -> &Arc<TablesRules> {
        &self.rules
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Where the game stands (finding out whether a roll just made is a falla, if that is
    /// not known yet).
    pub fn phase(&self) -> Phase {
        match self.phase {
            Phase::Move(s, d)
                if self
                    .falla
                    .get_or(|| !can_play_all(&self.rules, &self.board, s.index(), d)) =>
            {
                Phase::Over(Ending::Falla { loser: s, dice: d })
            }
            phase => phase,
        }
    }

    /// The game's dice: its seed and how many chance events it has resolved.
    pub fn dice_stream(&self) -> DiceStream {
        self.dice
    }

    /// Reseeds the game's dice (e.g. after reading a position, which starts at seed 0).
    pub fn set_seed(&mut self, seed: u64) {
        self.dice = DiceStream { seed, events: 0 };
    }

    /// The seat whose board side the position string's gnubg ID puts on roll: the seat to
    /// roll or to move, the one that fell in a falla, the one that bore off; the first seat
    /// before the roll-off.
    pub fn on_roll(&self) -> Seat {
        match self.phase() {
            Phase::RollOff => Seat(0),
            Phase::Roll(s) | Phase::Move(s, _) => s,
            Phase::Over(Ending::Falla { loser, .. }) => loser,
            Phase::Over(Ending::BoreOff { winner }) => winner,
        }
    }

    /// The gnubg Position ID of the board with [`TablesGame::on_roll`] on roll.
    pub fn gnubg_id(&self) -> String {
        self.board.gnubg_id(self.on_roll().index())
    }

    /// The distinct plays of the seat to move (one per resulting position). Empty unless a
    /// seat is to move.
    pub fn plays(&self) -> Vec<Play> {
        let mut out = Vec::new();
        if let Phase::Move(s, d) = self.phase() {
            generate_plays(&self.rules, &self.board, s.index(), d, &mut out);
        }
        out
    }

    /// A random legal play of the seat to move, drawn die by die (fast; not uniform over
    /// plays under the falla rule). `None` unless a seat is to move.
    pub fn random_play(&self, rng: &mut impl rand::Rng) -> Option<Play> {
        let Phase::Move(s, d) = self.phase() else {
            return None;
        };
        if !self.rules.falla || self.board.stacked(s.index()) != 0 {
            let plays = self.plays();
            return plays.get(rng.gen_range(0..plays.len().max(1))).copied();
        }
        Mover::new(&self.rules, &self.board, s.index()).random_play(d.values(), rng)
    }

    /// Resolves the pending chance event, saying why if `outcome` does not fit it.
    pub fn try_apply_chance(&mut self, outcome: TablesChance) -> Result<(), DiceError> {
        let (count, sides) = self.rules.dice();
        let old = self.phase();
        match (old, outcome) {
            (Phase::RollOff, TablesChance::RollOff([a, b])) => {
                if a == 0 || b == 0 || a > sides || b > sides {
                    return Err(DiceError::Side {
                        text: outcome.to_string(),
                        value: a.max(b),
                        sides,
                    });
                }
                if a != b {
                    self.phase = Phase::Roll(Seat(if a > b { 0 } else { 1 }));
                }
            }
            (Phase::Roll(s), TablesChance::Roll(d)) => {
                let d = d.check(count, sides)?;
                self.phase = Phase::Move(s, d);
                self.falla = if self.rules.falla {
                    LazyFlag::unknown()
                } else {
                    LazyFlag::known(false)
                };
            }
            _ => {
                return Err(DiceError::Syntax {
                    text: outcome.to_string(),
                    reason: match old {
                        Phase::RollOff => {
                            "the opening roll-off is pending: one die each, written `5:3`".into()
                        }
                        Phase::Roll(_) => {
                            format!("a roll of {count} dice is pending, written like `6-4-1`")
                        }
                        _ => "no roll is pending".into(),
                    },
                })
            }
        }
        self.hash ^= phase_key(old) ^ phase_key(self.phase);
        self.dice.events += 1;
        self.ply += 1;
        Ok(())
    }

    /// Whether the dice to play were given by the opponent, who could not play them.
    pub fn dice_given(&self) -> bool {
        self.given
    }

    /// The dice `play` leaves unplayed of `dice`, when the ruleset gives them to the
    /// opponent (not dice that were given already). Each step on the board used the die of
    /// its distance; a checker borne off used the die of its point if one is left, or else
    /// the lowest higher die.
    fn given_dice(&self, play: &Play, dice: Dice) -> Option<Dice> {
        if !self.rules.give_unplayable || self.given || play.len() >= dice.len() {
            return None;
        }
        let mut left: arrayvec::ArrayVec<u8, { crate::dice::MAX_DICE }> =
            dice.values().iter().copied().collect();
        let base = |from: u8| {
            if from == BAR {
                self.rules.entry + 1
            } else {
                from
            }
        };
        let mut off = arrayvec::ArrayVec::<u8, { crate::dice::MAX_DICE }>::new();
        for step in play.steps() {
            if step.is_lay_down() {
                // A die of n lays down the pair on point n.
                if let Some(i) = left.iter().position(|&d| d == step.from()) {
                    left.remove(i);
                }
            } else if step.to() == OFF {
                off.push(base(step.from()));
            } else if let Some(i) = left
                .iter()
                .position(|&d| d == base(step.from()) - step.to())
            {
                left.remove(i);
            }
        }
        for from in off {
            let i = left.iter().position(|&d| d == from).or_else(|| {
                left.iter()
                    .enumerate()
                    .filter(|&(_, &d)| d > from)
                    .min_by_key(|&(_, &d)| d)
                    .map(|(i, _)| i)
            });
            if let Some(i) = i {
                left.remove(i);
            }
        }
        Dice::new(&left)
    }

    fn set_count(&mut self, seat: usize, point: u8, count: u8) {
        let keys = &CHECKER_KEYS[seat][usize::from(point)];
        let old = self.board.count(seat, point);
        if point != OFF {
            self.hash ^= keys[usize::from(old)] ^ keys[usize::from(count)];
        }
        self.board.counts_mut(seat)[usize::from(point)] = count;
    }
}

/// The points of a mask, `1, 2, 3` (`none` when empty).
fn points_text(mask: u32) -> String {
    let points: Vec<String> = points_in(mask).map(|p| p.to_string()).collect();
    if points.is_empty() {
        "none".into()
    } else {
        points.join(", ")
    }
}

/// Why `board` with `phase` is not a position of `rules`, if it is not.
fn check_parts(
    rules: &TablesRules,
    board: &Board,
    phase: Phase,
    given: bool,
) -> Result<(), String> {
    for p in 1..=24u8 {
        let q = rules.cross[0][usize::from(p)];
        if board.count(0, p) > 0 && board.count(1, q) > 0 {
            return Err(format!(
                "both players have checkers on board point {} ({}'s point {p}, {}'s point {q})",
                rules.board_point(0, p),
                rules.seat_name(0),
                rules.seat_name(1)
            ));
        }
    }
    for s in 0..2 {
        let allowed = rules.start.stacked(s);
        for p in points_in(board.stacked(s)) {
            if allowed >> p & 1 == 0 {
                return Err(format!(
                    "{}'s point {p} cannot hold a stacked pair: the ruleset stacks pairs only on points {}",
                    rules.seat_name(s),
                    points_text(allowed)
                ));
            }
            if board.count(s, p) != 2 {
                return Err(format!(
                    "{}'s pair on point {p} is stacked, so the point holds two of its checkers, not {}",
                    rules.seat_name(s),
                    board.count(s, p)
                ));
            }
        }
    }
    let (count, sides) = rules.dice();
    let name = |s: Seat| rules.seat_name(s.index()).to_string();
    let all_off = |s: usize| board.in_play(s) == 0;
    match phase {
        Phase::RollOff => {
            if *board != rules.start {
                return Err("the roll-off happens only at the start position".into());
            }
        }
        Phase::Roll(_) | Phase::Move(..) if all_off(0) || all_off(1) => {
            let s = if all_off(0) { 0 } else { 1 };
            return Err(format!(
                "{} has borne off every checker, so the game is over, written `ID:{}:bore-off`",
                rules.seat_name(s),
                rules.seat_name(s)
            ));
        }
        Phase::Roll(_) => {}
        Phase::Move(_, d) if given => {
            if d.len() > usize::from(count) {
                return Err(format!(
                    "{d}: the opponent can give at most the {count} dice of a roll"
                ));
            }
            d.check(d.len() as u8, sides).map_err(|e| e.to_string())?;
        }
        Phase::Move(s, d) => {
            d.check(count, sides).map_err(|e| e.to_string())?;
            if rules.falla && !can_play_all(rules, board, s.index(), d) {
                return Err(format!(
                    "{} cannot play {d} here: that roll is a falla, written `ID:{}:falla:{d}`",
                    name(s),
                    name(s)
                ));
            }
        }
        Phase::Over(Ending::Falla { loser, dice }) => {
            dice.check(count, sides).map_err(|e| e.to_string())?;
            if !rules.falla {
                return Err("this ruleset has no falla".into());
            }
            if all_off(0) || all_off(1) {
                return Err(
                    "a player has borne off every checker, so the game ended before this roll"
                        .into(),
                );
            }
            if can_play_all(rules, board, loser.index(), dice) {
                return Err(format!(
                    "{} can play {dice} here, so it is not a falla",
                    name(loser)
                ));
            }
        }
        Phase::Over(Ending::BoreOff { winner }) => {
            if !all_off(winner.index()) {
                return Err(format!(
                    "{} still has {} checkers to bear off",
                    name(winner),
                    board.in_play(winner.index())
                ));
            }
            if all_off(1 - winner.index()) {
                return Err("both players have borne off every checker".into());
            }
        }
    }
    Ok(())
}

impl fmt::Display for TablesGame {
    /// `ID:roll-off`, `ID:seat:roll`, `ID:seat:6-4-1` (to move), `ID:seat:falla:5-5-5` (lost
    /// on that roll), `ID:seat:bore-off` (won), where ID is the gnubg Position ID with the
    /// named seat on roll; while pairs are stacked, the ID is followed by `:stacked=…`
    /// (each seat's points, `stacked=1,2,3/2,5`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut id = self.gnubg_id();
        if self.board.stacked(0) | self.board.stacked(1) != 0 {
            id = format!("{id}:{}", write_stacked(&self.board));
        }
        let name = |s: Seat| self.rules.seat_name(s.index());
        match self.phase() {
            Phase::RollOff => write!(f, "{id}:roll-off"),
            Phase::Roll(s) => write!(f, "{id}:{}:roll", name(s)),
            Phase::Move(s, d) if self.given => write!(f, "{id}:{}:given:{d}", name(s)),
            Phase::Move(s, d) => write!(f, "{id}:{}:{d}", name(s)),
            Phase::Over(Ending::Falla { loser, dice }) => {
                write!(f, "{id}:{}:falla:{dice}", name(loser))
            }
            Phase::Over(Ending::BoreOff { winner }) => write!(f, "{id}:{}:bore-off", name(winner)),
        }
    }
}

impl Game for TablesGame {
    type Move = Play;
    type ChanceOutcome = TablesChance;
    type MoveList = PlayList;
    type MoveError = MoveError;

    fn num_seats(&self) -> usize {
        2
    }

    fn turn(&self) -> Turn {
        match self.phase() {
            Phase::RollOff | Phase::Roll(_) => Turn::Chance,
            Phase::Move(s, _) => Turn::Seat(s),
            Phase::Over(_) => Turn::Over,
        }
    }

    /// Under the falla rule only plays using every die are listed, so an empty list is a
    /// falla.
    fn legal_moves(&self, out: &mut PlayList) {
        out.clear();
        if let Phase::Move(s, d) = self.phase {
            if self.falla.get() != Some(true) {
                generate_plays(&self.rules, &self.board, s.index(), d, out);
                self.falla.set(out.is_empty());
            }
        }
    }

    fn play(&mut self, mv: Play) {
        let Phase::Move(seat, dice) = self.phase() else {
            return;
        };
        let (s, o) = (seat.index(), 1 - seat.index());
        for step in mv.steps() {
            let (from, to) = (step.from(), step.to());
            if step.is_lay_down() {
                if self.board.stacked(s) >> from & 1 == 1 {
                    self.board.lay_down(s, from);
                    self.hash ^= STACK_KEYS[s][usize::from(from)];
                }
                continue;
            }
            self.set_count(s, from, self.board.count(s, from).saturating_sub(1));
            self.set_count(s, to, self.board.count(s, to) + 1);
            if to != OFF {
                let q = self.rules.cross[s][usize::from(to)];
                if self.rules.hitting && self.board.count(o, q) == 1 {
                    self.set_count(o, q, 0);
                    self.set_count(o, BAR, self.board.count(o, BAR) + 1);
                }
            }
        }
        let next = if self.board.count(s, OFF) == self.rules.checkers {
            Phase::Over(Ending::BoreOff { winner: seat })
        } else if let Some(left) = self
            .rules
            .give_unplayable
            .then(|| self.given_dice(&mv, dice))
            .flatten()
        {
            // `unplayable = to-opponent`: the opponent plays the dice left unplayed instead
            // of rolling (or, `to-opponent-extra`, before its roll); what it cannot play of
            // them is lost.
            Phase::Move(Seat(o as u8), left)
        } else if self.given && self.rules.given_extra {
            // The given dice were an extra: now this seat rolls its own turn.
            Phase::Roll(seat)
        } else if self.rules.roll_again
            && !self.given
            && dice.len() > 1
            && dice.values().windows(2).all(|w| w[0] == w[1])
        {
            // Doubles (or triples) under `doubles = roll-again`: the same player rolls again.
            Phase::Roll(seat)
        } else {
            Phase::Roll(Seat(o as u8))
        };
        let given = matches!(next, Phase::Move(..));
        if given != self.given {
            self.hash ^= GIVEN_KEY;
            self.given = given;
        }
        self.hash ^= phase_key(self.phase) ^ phase_key(next);
        self.phase = next;
        self.ply += 1;
    }

    fn chance_outcomes(&self, out: &mut Vec<Chance<TablesChance>>) {
        out.clear();
        let sides = self.rules.dice().1;
        match self.phase() {
            Phase::RollOff => {
                let total = u32::from(sides) * u32::from(sides);
                for a in 1..=sides {
                    for b in 1..=sides {
                        out.push(Chance {
                            outcome: TablesChance::RollOff([a, b]),
                            weight: 1,
                            total,
                        });
                    }
                }
            }
            Phase::Roll(_) => out.extend(self.rules.rolls().iter().map(|c| Chance {
                outcome: TablesChance::Roll(c.outcome),
                weight: c.weight,
                total: c.total,
            })),
            _ => {}
        }
    }

    fn sample_chance(&self) -> TablesChance {
        let (count, sides) = self.rules.dice();
        match self.phase() {
            Phase::RollOff => TablesChance::RollOff(self.dice.roll_off(sides)),
            _ => TablesChance::Roll(self.dice.roll(count, sides)),
        }
    }

    /// Resolves the pending chance event. An outcome that does not fit it (a roll-off when
    /// dice are due, a 7 on six-sided dice) is a logic error and panics; front ends check
    /// first with [`TablesGame::try_apply_chance`].
    fn apply_chance(&mut self, outcome: TablesChance) {
        if let Err(e) = self.try_apply_chance(outcome) {
            panic!("apply_chance: {e}");
        }
    }

    fn result(&self) -> Option<GameResult> {
        match self.phase() {
            Phase::Over(Ending::Falla { loser, .. }) => {
                Some(GameResult::win(2, Seat(1 - loser.0), EndReason::Falla))
            }
            Phase::Over(Ending::BoreOff { winner }) => {
                Some(GameResult::win(2, winner, EndReason::BoreOff))
            }
            _ => None,
        }
    }

    /// The hash kept is that of the recorded phase; a falla found since changes the phase.
    fn hash(&self) -> u64 {
        let phase = self.phase();
        if phase == self.phase {
            self.hash
        } else {
            self.hash ^ phase_key(self.phase) ^ phase_key(phase)
        }
    }

    fn recompute_hash(&self) -> u64 {
        board_hash(&self.board) ^ phase_key(self.phase()) ^ if self.given { GIVEN_KEY } else { 0 }
    }

    fn ply(&self) -> u32 {
        self.ply
    }

    fn write_move(&self, mv: Play, f: &mut dyn fmt::Write) -> fmt::Result {
        write!(f, "{mv}")
    }

    fn parse_move(&self, text: &str) -> Result<Play, MoveError> {
        resolve_play(self, text)
    }
}
