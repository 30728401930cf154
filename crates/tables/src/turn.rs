//! Playing a turn from text or die by die: reading a written play against the position
//! (saying why an illegal one is illegal), and [`TurnBuilder`] for user interfaces that
//! move one checker per die.

use crate::board::Board;
use crate::dice::{Dice, MAX_DICE};
use crate::game::{Ending, Phase, TablesGame};
use crate::movegen::{find_play, Mover};
use crate::notation::{NotationError, Play, Step, BAR, OFF};
use crate::rules::TablesRules;
use arrayvec::ArrayVec;
use libro_core::Seat;
use std::fmt;
use std::sync::Arc;

/// Why a written play, or a single-die step, cannot be played here.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    #[error("no play is due: {0}")]
    NotToMove(String),
    #[error(transparent)]
    Notation(#[from] NotationError),
    #[error("`{step}`: {reason}")]
    Illegal { step: String, reason: String },
    #[error("`{play}` is not a whole turn: {reason}")]
    Incomplete { play: String, reason: String },
    #[error("`{play}` could be {options}: write the points in between")]
    Ambiguous { play: String, options: String },
    #[error("`{step}` leads nowhere: {reason}")]
    DeadEnd { step: String, reason: String },
}

fn dice_text(dice: &[u8]) -> String {
    dice.iter().map(u8::to_string).collect::<Vec<_>>().join("-")
}

fn not_to_move(game: &TablesGame) -> MoveError {
    let rules = game.rules();
    MoveError::NotToMove(match game.phase() {
        Phase::RollOff => "the opening roll-off is pending".into(),
        Phase::Roll(s) => format!("{} is to roll", rules.seat_name(s.index())),
        Phase::Over(Ending::Falla { loser, dice }) => {
            format!(
                "the game is over: {} could not play {dice} (falla)",
                rules.seat_name(loser.index())
            )
        }
        Phase::Over(Ending::BoreOff { winner }) => {
            format!(
                "the game is over: {} bore off its last checker",
                rules.seat_name(winner.index())
            )
        }
        Phase::Move(..) => unreachable!("a seat is to move"),
    })
}

/// The exact resulting-position key of a play (see [`Mover`]).
fn play_key(mover: &Mover, play: &Play) -> u128 {
    let mut m = mover.clone();
    for s in play.steps() {
        m.apply_step(s.from(), s.to());
    }
    m.key
}

/// The legal plays of the seat to move with their resulting-position keys.
fn legal_with_keys(game: &TablesGame, mover: &Mover) -> Vec<(Play, u128)> {
    game.plays()
        .into_iter()
        .map(|p| (p, play_key(mover, &p)))
        .collect()
}

/// Tries every way of playing the written steps with the dice, in order.
struct Resolver<'a> {
    written: &'a [Step],
    /// Resulting keys of the written steps played out, with the dice each leaves.
    results: Vec<(u128, ArrayVec<u8, MAX_DICE>)>,
    /// Which results took some written step as several dice (the others play each written
    /// step with one die, as plays are printed).
    chained: Vec<bool>,
    /// How many written steps on the current path are being played with several dice.
    chaining: usize,
    /// The error of the attempt that got furthest: (step index, dice into it, kind).
    best: Option<((usize, usize, u8), MoveError)>,
}

impl Resolver<'_> {
    /// Keeps why written step `w` is illegal, if this attempt got furthest so far.
    fn fail(&mut self, progress: (usize, usize, u8), w: Step, reason: String) {
        if self.best.as_ref().is_none_or(|(p, _)| progress > *p) {
            let step = w.to_string();
            self.best = Some((progress, MoveError::Illegal { step, reason }));
        }
    }

    fn steps(&mut self, m: &mut Mover, left: &mut ArrayVec<u8, MAX_DICE>, idx: usize) {
        let Some(&w) = self.written.get(idx) else {
            let left = if m.all_off() {
                ArrayVec::new()
            } else {
                left.clone()
            };
            self.results.push((m.key, left));
            self.chained.push(self.chaining > 0);
            return;
        };
        if m.all_off() {
            let reason = "every checker is already borne off, and the game is won".into();
            return self.fail((idx, 0, 2), w, reason);
        }
        self.chain(m, left, w, w.from(), idx, 0);
    }

    /// Plays written step `w` from `from` on: one die to its end, or to a point on the way.
    fn chain(
        &mut self,
        m: &mut Mover,
        left: &mut ArrayVec<u8, MAX_DICE>,
        w: Step,
        from: u8,
        idx: usize,
        depth: usize,
    ) {
        if left.is_empty() {
            let reason = "the dice are used up".into();
            return self.fail((idx, depth, 1), w, reason);
        }
        for i in 0..left.len() {
            let die = left[i];
            if left[..i].contains(&die) {
                continue;
            }
            let base = m.base(from);
            let reaches_end = if w.is_lay_down() {
                // Any die is tried, so that the one it needs is named if it is missing.
                true
            } else if w.to() == OFF {
                base <= die
            } else {
                base >= die && base - die == w.to()
            };
            let on_the_way = !w.is_lay_down() && base > die && base - die > w.to();
            if !reaches_end && !on_the_way {
                continue;
            }
            let land = match m.explain(from, die) {
                Ok(land) => land,
                Err(why) => {
                    let reason = if depth > 0 {
                        format!("with the {die} from point {from} on the way: {why}")
                    } else {
                        format!("with the {die}: {why}")
                    };
                    self.fail((idx, depth, 1), w, reason);
                    continue;
                }
            };
            if w.is_lay_down() != (land == from) {
                let reason = if w.is_lay_down() {
                    format!("no pair is stacked on point {from}")
                } else {
                    format!("your pair on point {from} is still stacked, and a {die} lays it down (`{from}/down`)")
                };
                self.fail((idx, depth, 1), w, reason);
                continue;
            }
            if reaches_end && w.hit() && !m.would_hit(land) {
                let reason = format!(
                    "it marks a hit, but there is no lone opposing checker on point {land}"
                );
                self.fail((idx, depth + 1, 1), w, reason);
                continue;
            }
            let hit = m.apply_step(from, land);
            left.remove(i);
            if reaches_end {
                self.steps(m, left, idx + 1);
            } else {
                self.chaining += 1;
                self.chain(m, left, w, land, idx, depth + 1);
                self.chaining -= 1;
            }
            left.insert(i, die);
            m.undo_step(from, land, hit);
        }
        // Lowest priority: shown only if no way of playing this step got anywhere.
        if depth == 0 {
            let reason = format!(
                "no die left ({}), alone or added up, takes a checker from {} to {}",
                dice_text(left),
                point(w.from()),
                point(w.to())
            );
            self.fail((idx, 0, 0), w, reason);
        }
    }
}

fn point(p: u8) -> String {
    match p {
        BAR => "the bar".into(),
        OFF => "off".into(),
        n => n.to_string(),
    }
}

/// Reads a written play of the seat to move and finds the legal play it makes (the one
/// listed for the same resulting position), or says why it is not one.
pub(crate) fn resolve_play(game: &TablesGame, text: &str) -> Result<Play, MoveError> {
    let Phase::Move(seat, dice) = game.phase() else {
        return Err(not_to_move(game));
    };
    let written: Play = text.parse()?;
    let steps: Vec<Step> = written.steps().collect();
    let mut mover = Mover::new(game.rules(), game.board(), seat.index());
    let mut resolver = Resolver {
        written: &steps,
        results: Vec::new(),
        chained: Vec::new(),
        chaining: 0,
        best: None,
    };
    let mut left: ArrayVec<u8, MAX_DICE> = dice.values().iter().copied().collect();
    resolver.steps(&mut mover, &mut left, 0);

    // One listed play per distinct resulting position the written steps can reach.
    let mut matched: Vec<Play> = Vec::new();
    let mut keys_matched: Vec<u128> = Vec::new();
    let mut keys: Vec<u128> = Vec::new();
    for (key, _) in &resolver.results {
        if keys.contains(key) {
            continue;
        }
        keys.push(*key);
        if let Some(p) = find_play(game.rules(), game.board(), seat.index(), dice, *key) {
            matched.push(p);
            keys_matched.push(*key);
        }
    }
    if matched.len() > 1 {
        // Several readings: the one taking each written step as a single die, if there is
        // exactly one, is the play as written (every printed play reads back so).
        let single: Vec<u128> = resolver
            .results
            .iter()
            .zip(&resolver.chained)
            .filter(|(_, &chained)| !chained)
            .map(|((key, _), _)| *key)
            .collect();
        let plain: Vec<Play> = matched
            .iter()
            .zip(&keys_matched)
            .filter(|(_, k)| single.contains(k))
            .map(|(p, _)| *p)
            .collect();
        if let [p] = plain.as_slice() {
            return Ok(*p);
        }
    }
    match matched.as_slice() {
        [p] => return Ok(*p),
        [_, ..] => {
            let options = matched
                .iter()
                .map(|p| format!("`{p}`"))
                .collect::<Vec<_>>()
                .join(" or ");
            return Err(MoveError::Ambiguous {
                play: written.to_string(),
                options,
            });
        }
        [] => {}
    }
    if let Some((_, unplayed)) = resolver.results.first() {
        let legal = game.plays();
        let example = legal
            .first()
            .map(|p| format!(" (e.g. `{p}`)"))
            .unwrap_or_default();
        let reason = if game.rules().falla() {
            format!(
                "it leaves {} unplayed, and all {} dice can be played here{example}",
                dice_text(unplayed),
                dice.len()
            )
        } else {
            let most = legal.first().map_or(0, Play::len);
            format!(
                "it leaves {} unplayed, and {most} of the dice can be played here{example}",
                dice_text(unplayed)
            )
        };
        return Err(MoveError::Incomplete {
            play: written.to_string(),
            reason,
        });
    }
    Err(resolver
        .best
        .map(|(_, e)| e)
        .unwrap_or_else(|| MoveError::Illegal {
            step: written.to_string(),
            reason: "not a play here".into(),
        }))
}

/// One checker moved by one die, as a user interface offers it.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct DieStep {
    pub die: u8,
    pub step: Step,
}

impl fmt::Display for DieStep {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (the {})", self.step, self.die)
    }
}

/// Builds the seat to move's play one die at a time: offers only the steps after which the
/// turn can still be finished legally (all dice played, or under the falla's absence as many
/// as possible), and yields the game's [`Play`] once the steps make one.
#[derive(Clone, Debug)]
pub struct TurnBuilder {
    rules: Arc<TablesRules>,
    seat: Seat,
    dice: Dice,
    board: Board,
    mover: Mover,
    left: ArrayVec<u8, MAX_DICE>,
    steps: ArrayVec<(DieStep, Board, Mover), MAX_DICE>,
    legal: Vec<(Play, u128)>,
}

impl TurnBuilder {
    /// Starts the turn of the seat to move.
    pub fn new(game: &TablesGame) -> Result<TurnBuilder, MoveError> {
        let Phase::Move(seat, dice) = game.phase() else {
            return Err(not_to_move(game));
        };
        let mover = Mover::new(game.rules(), game.board(), seat.index());
        let legal = legal_with_keys(game, &mover);
        Ok(TurnBuilder {
            rules: game.rules().clone(),
            seat,
            dice,
            board: *game.board(),
            mover,
            left: dice.values().iter().copied().collect(),
            steps: ArrayVec::new(),
            legal,
        })
    }

    /// The seat playing.
    pub fn seat(&self) -> Seat {
        self.seat
    }

    /// The whole roll.
    pub fn dice(&self) -> Dice {
        self.dice
    }

    /// The dice not yet played.
    pub fn dice_left(&self) -> &[u8] {
        &self.left
    }

    /// The steps played so far.
    pub fn steps(&self) -> impl Iterator<Item = DieStep> + '_ {
        self.steps.iter().map(|(s, _, _)| *s)
    }

    /// The board after the steps so far.
    pub fn board(&self) -> &Board {
        &self.board
    }

    fn leads_somewhere(&self, mover: &Mover, left: &[u8]) -> bool {
        let mut m = mover.clone();
        m.reachable(left)
            .iter()
            .any(|(k, _)| self.legal.iter().any(|(_, l)| l == k))
    }

    /// The single-die steps that keep a legal play within reach.
    pub fn legal_steps(&self) -> Vec<DieStep> {
        if self.play().is_some() {
            return Vec::new();
        }
        let mut out = Vec::new();
        for (die, from, to) in self.mover.steps_now(&self.left) {
            let mut m = self.mover.clone();
            let hit = m.apply_step(from, to);
            let mut left = self.left.clone();
            let i = left
                .iter()
                .position(|&d| d == die)
                .expect("the die is left");
            left.remove(i);
            if self.leads_somewhere(&m, &left) {
                out.push(DieStep {
                    die,
                    step: Step::new(from, to, hit).expect("a generated step is well formed"),
                });
            }
        }
        out
    }

    /// Moves a checker from `from` (1–24, or 25 for the bar) with `die`.
    pub fn step(&mut self, die: u8, from: u8) -> Result<DieStep, MoveError> {
        let text = format!("{}/? (the {die})", point(from));
        let Some(i) = self.left.iter().position(|&d| d == die) else {
            let reason = if self.left.is_empty() {
                "the dice are used up".into()
            } else {
                format!(
                    "no {die} is left to play (dice left: {})",
                    dice_text(&self.left)
                )
            };
            return Err(MoveError::Illegal { step: text, reason });
        };
        if self.play().is_some() {
            return Err(MoveError::Illegal {
                step: text,
                reason: "the turn is already complete".into(),
            });
        }
        let to = self
            .mover
            .explain(from, die)
            .map_err(|why| MoveError::Illegal {
                step: text.clone(),
                reason: why.to_string(),
            })?;
        let mut m = self.mover.clone();
        let hit = m.apply_step(from, to);
        let step = DieStep {
            die,
            step: Step::new(from, to, hit).expect("an explained step is well formed"),
        };
        let mut left = self.left.clone();
        left.remove(i);
        if !self.leads_somewhere(&m, &left) {
            let reason = if self.rules.falla() {
                format!(
                    "after it the other dice ({}) cannot all be played, and here they can",
                    dice_text(&left)
                )
            } else {
                "it uses fewer dice than can be played here".into()
            };
            return Err(MoveError::DeadEnd {
                step: step.step.to_string(),
                reason,
            });
        }
        self.steps.push((step, self.board, self.mover.clone()));
        let (s, o) = (self.seat.index(), 1 - self.seat.index());
        if from == to {
            self.board.lay_down(s, from);
        } else {
            let counts = self.board.counts_mut(s);
            counts[usize::from(from)] -= 1;
            counts[usize::from(to)] += 1;
        }
        if hit {
            let q = usize::from(self.rules.cross[s][usize::from(to)]);
            let opp = self.board.counts_mut(o);
            opp[q] -= 1;
            opp[usize::from(BAR)] += 1;
        }
        self.mover = m;
        self.left = left;
        Ok(step)
    }

    /// Moves a checker as written, `24/21`, `6/off` or `3/down`, by one die (for bearing off with a
    /// higher die, the lowest die that keeps the turn playable).
    pub fn step_text(&mut self, text: &str) -> Result<DieStep, MoveError> {
        let play: Play = text.parse()?;
        let mut steps = play.steps();
        let (Some(w), None) = (steps.next(), steps.next()) else {
            return Err(MoveError::Illegal {
                step: text.trim().to_string(),
                reason: "write one checker move, such as `24/21`".into(),
            });
        };
        let mut dice: Vec<u8> = self.left.to_vec();
        dice.sort_unstable();
        dice.dedup();
        let base = self.mover.base(w.from());
        let fits = |die: u8| {
            if w.is_lay_down() {
                die == w.from()
            } else if w.to() == OFF {
                base <= die
            } else {
                base >= die && base - die == w.to()
            }
        };
        let mut first_error = None;
        for die in dice.into_iter().filter(|&d| fits(d)) {
            match self.step(die, w.from()) {
                Ok(s) => return Ok(s),
                Err(e) => {
                    first_error.get_or_insert(e);
                }
            }
        }
        Err(first_error.unwrap_or_else(|| MoveError::Illegal {
            step: w.to_string(),
            reason: format!(
                "no single die left ({}) takes a checker from {} to {}",
                dice_text(&self.left),
                point(w.from()),
                point(w.to())
            ),
        }))
    }

    /// Takes back the last step.
    pub fn undo(&mut self) -> Option<DieStep> {
        let (step, board, mover) = self.steps.pop()?;
        self.board = board;
        self.mover = mover;
        self.left.push(step.die);
        Some(step)
    }

    /// The game's play, once the steps so far make a whole legal turn.
    pub fn play(&self) -> Option<Play> {
        let key = self.mover.key;
        let full = self.left.is_empty() || self.mover.all_off() || !self.rules.falla();
        full.then(|| self.legal.iter().find(|(_, k)| *k == key).map(|(p, _)| *p))
            .flatten()
    }
}
