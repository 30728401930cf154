//! Alpha-beta for two sides: two seats, or (paranoid) the seat to move against all others.
//!
//! Negamax with iterative deepening, principal variation search, a transposition table,
//! quiescence over tactical moves, check extensions, late move reductions, and where the
//! game gives a margin: singular extensions (with multi-cut) and forward pruning (reverse
//! futility, null move, ProbCut, futility, late moves, and moves that lose their exchange,
//! on the table's value where it bounds the static one, and on a static value corrected
//! by its mean error in like positions: correction history). Moves are ordered by table
//! move, tactical score, killers, countermoves, history and continuation history (the
//! history of a quiet move after the two moves before it). A position that repeats one
//! on the line since the root is a draw where the game's rules make repetition one.
//! Chance events are averaged over their outcomes with Star1 pruning (Ballard's
//! *-minimax), using ±[`MATE`] as the bounds on a child's value.
//!
//! Plies (for mate distances and the per-ply tables) count moves only, not chance events.
//!
//! Values are always from one *side*'s view: side 0 is the anchor seat's side (seat 0 for
//! two seats; the root seat when paranoid), side 1 everyone else. A node whose mover is on
//! the other side flips the window and the sign, so turn order need not alternate (passes,
//! a seat moving twice, a coalition of three).

use crate::correction::CorrectionHistory;
use crate::limits::{Control, Limits, Stopper};
use crate::ordering::{move_key, ContinuationHistory, Counters, History, Killers, HISTORY_MAX};
use crate::score::{
    from_table, place_utility, terminal_value, to_table, INF, MATE, MATE_BOUND, MAX_PLY,
};
use crate::search::{Deepening, SearchInfo, SearchResult};
use crate::tt::{prefetch, Bound, Table};
use arrayvec::ArrayVec;
use libro_core::{Chance, CorrectionKeys, Heuristic, MoveBuffer, Seat, Turn, EVAL_LIMIT};
use std::mem;

/// Ordering tiers: the table move, then tactical moves, then killers, then the rest.
const TT_MOVE: i32 = 1 << 30;
const TACTICAL: i32 = 1 << 28;
const KILLER: i32 = 1 << 27;
/// The countermove: after the killers, before the other quiet moves (and, like them,
/// reduced and pruned when late).
const COUNTER: i32 = KILLER - 1;
/// Captures that lose their exchange: after every quiet move.
const LOSING: i32 = -(1 << 27);
/// `order_score` is clamped to this so tiers never mix.
const ORDER_CLAMP: i32 = 1 << 24;
/// Quiescence follows at most this many plies past the horizon.
const MAX_QDEPTH: u32 = 16;
/// Within this many plies past the horizon a seat in check searches all its evasions.
const QCHECK_DEPTH: u32 = 4;
/// Moves searched beyond the static value before a roll (see `filter_before_chance`).
pub const ROOT_CANDIDATES: usize = 8;
/// How far below the best static value a candidate may be, in evaluation units (a chess
/// pawn is 100; a tables game is 1000, so this is 0.16 of a game, as gnubg's filter).
pub const ROOT_MARGIN: i32 = 160;
/// From this depth on the root searches a window of ±this around the last value first.
const ASPIRATION_DEPTH: i32 = 5;
const ASPIRATION_WINDOW: i32 = 30;
/// Past this half-width a failing window opens fully on its side.
const ASPIRATION_GIVE_UP: i32 = 1000;
/// From this depth on a node with no table move is searched a ply shallower.
const IIR_DEPTH: i32 = 4;
/// From this depth on the table move is tested for singularity.
const SINGULAR_DEPTH: i32 = 6;
/// A table move is singular if every other move stays this much a ply below its value.
const SINGULAR_MARGIN: i32 = 2;
/// The depth quiescence results are stored at: below every full-width search, so they
/// never replace one and never answer one.
const QUIESCENCE_DEPTH: i32 = -1;
/// Slots of the static-value cache (a power of two; 1 MiB).
const EVAL_CACHE: usize = 1 << 16;
/// Keys of paranoid searches differ by root seat, so their values never mix in the table.
const PARANOID_SALT: u64 = 0x9e37_79b9_7f4a_7c15;

/// What the line leading to a node tells its quiet moves' order: the countermove of the
/// last move, and the last two moves' keys (for the continuation history).
struct Line<M> {
    counter: Option<M>,
    earlier: [Option<u64>; 2],
}

impl<M> Default for Line<M> {
    fn default() -> Self {
        Line {
            counter: None,
            earlier: [None, None],
        }
    }
}

/// A node's static value as evaluated, as corrected, and the keys of its correction (the
/// position's, and its last two moves').
#[derive(Copy, Clone)]
struct StaticValue {
    raw: i32,
    corrected: i32,
    keys: Option<CorrectionKeys>,
    line: u64,
}

/// A move in a node's list: its ordering score and whether it is tactical.
type Scored<M> = (i32, bool, M);

pub(crate) struct AlphaBeta<G: Heuristic> {
    hash_mb: usize,
    tt: Option<Table<G::Move>>,
    history: History,
    killers: Killers<G::Move>,
    counters: Counters<G::Move>,
    continuation: ContinuationHistory,
    correction: CorrectionHistory,
    /// `played[ply]`: the move made at `ply` on the current line (`None` for a null move).
    played: Vec<Option<G::Move>>,
    /// Triangular principal-variation table: `pv[ply]` is the best line from `ply`.
    pv: Vec<ArrayVec<G::Move, MAX_PLY>>,
    /// Per-ply move lists, reused so nodes do not allocate.
    lists: Vec<Vec<Scored<G::Move>>>,
    chances: Vec<Vec<Chance<G::ChanceOutcome>>>,
    stopper: Stopper,
    anchor: Seat,
    salt: u64,
    /// The game's [`Heuristic::win_value`]: results on the evaluation's scale, if any.
    win: Option<i32>,
    /// The game's [`Heuristic::futility_margin`]: forward pruning only where it is given.
    margin: Option<i32>,
    /// `nulled[ply]`: the node at `ply` was reached by a null move (no second one in a row).
    nulled: Vec<bool>,
    /// `excluded[ply]`: the move the node at `ply` leaves out (a singular-extension test).
    excluded: Vec<Option<G::Move>>,
    /// `static_evals[ply]`: the static value of the node at `ply` on the current line, where
    /// the game gives a margin and the mover is not in check.
    static_evals: Vec<Option<i32>>,
    /// Late-move reductions by depth and move number (`lmr[d][i]`, both capped at 63).
    lmr: Box<[[u8; 64]; 64]>,
    /// Static values by position hash, from the anchor's side (see `cached_eval`).
    evals: Vec<(u64, i32)>,
    root_depth: i32,
    seldepth: usize,
}

impl<G: Heuristic> AlphaBeta<G> {
    pub fn new(hash_mb: usize) -> Self {
        AlphaBeta {
            hash_mb,
            tt: None,
            history: History::new(),
            killers: Killers::new(MAX_PLY + 1),
            counters: Counters::new(),
            continuation: ContinuationHistory::new(),
            correction: CorrectionHistory::new(),
            played: vec![None; MAX_PLY + 2],
            pv: (0..=MAX_PLY).map(|_| ArrayVec::new()).collect(),
            lists: (0..=MAX_PLY).map(|_| Vec::new()).collect(),
            chances: (0..=MAX_PLY).map(|_| Vec::new()).collect(),
            stopper: Stopper::new(&Limits::default(), &Control::default()),
            anchor: Seat(0),
            salt: 0,
            win: None,
            margin: None,
            nulled: vec![false; MAX_PLY + 2],
            excluded: vec![None; MAX_PLY + 2],
            static_evals: vec![None; MAX_PLY + 2],
            lmr: lmr_table(),
            evals: vec![(0, 0); EVAL_CACHE],
            root_depth: 0,
            seldepth: 0,
        }
    }

    pub fn clear(&mut self) {
        if let Some(tt) = &mut self.tt {
            tt.clear();
        }
        self.history = History::new();
        self.killers.clear();
        self.counters.clear();
        self.continuation = ContinuationHistory::new();
        self.correction = CorrectionHistory::new();
        self.evals.fill((0, 0));
    }

    /// Sets up a search from `game`; returns the root's side and its legal moves.
    fn prepare(
        &mut self,
        game: &G,
        limits: &Limits,
        control: &Control,
    ) -> Option<(u8, G::MoveList)> {
        let Turn::Seat(root) = game.turn() else {
            return None;
        };
        let paranoid = game.num_seats() > 2;
        self.anchor = if paranoid { root } else { Seat(0) };
        self.salt = if paranoid {
            PARANOID_SALT.wrapping_mul(u64::from(root.0) + 1)
        } else {
            0
        };
        self.stopper = Stopper::new(limits, control);
        self.win = game.win_value();
        self.margin = game.futility_margin();
        let hash_mb = self.hash_mb;
        self.tt
            .get_or_insert_with(|| Table::new(hash_mb))
            .new_search();
        self.killers.clear();
        self.history.age();
        self.continuation.age();
        let mut moves = G::MoveList::default();
        game.legal_moves(&mut moves);
        if moves.is_empty() {
            return None;
        }
        Some((self.side_of(root), moves))
    }

    /// Iterative deepening from the root until a limit or the stop flag ends it.
    pub fn think(
        &mut self,
        game: &G,
        among: &[G::Move],
        limits: &Limits,
        control: &Control,
        on_info: &mut dyn FnMut(&SearchInfo<G::Move>),
    ) -> Option<SearchResult<G::Move>> {
        let (side, mut moves) = self.prepare(game, limits, control)?;
        if !among.is_empty() {
            let mut kept = G::MoveList::default();
            for &mv in moves.as_slice().iter().filter(|m| among.contains(m)) {
                kept.push(mv);
            }
            if kept.is_empty() {
                return None;
            }
            moves = kept;
        }
        let root_seat = game.seat_to_move()?;
        let tt_move = self
            .tt
            .as_ref()
            .and_then(|t| t.probe(game.hash() ^ self.salt))
            .and_then(|e| e.mv);
        let mut scored: Vec<Scored<G::Move>> = moves
            .as_slice()
            .iter()
            .map(|&mv| self.order(game, root_seat, mv, tt_move, &Line::default(), 0))
            .collect();
        scored.sort_by_key(|s| std::cmp::Reverse(s.0));
        let mut root: Vec<G::Move> = scored.iter().map(|s| s.2).collect();
        let chance_filtered = self.filter_before_chance(game, side, &mut root);

        let fallback = root[0];
        let mut deepening = Deepening::new();
        let max_depth = if chance_filtered && root.len() == 1 {
            1
        } else {
            limits
                .depth
                .unwrap_or(MAX_PLY as u32 - 1)
                .clamp(1, MAX_PLY as u32 - 1)
        };
        for depth in 1..=max_depth {
            if depth > 1 && !self.stopper.may_deepen() {
                break;
            }
            self.root_depth = depth as i32;
            self.seldepth = 0;
            let Some((score, complete)) =
                self.aspirate(game, depth as i32, side, &mut root, deepening.last_score())
            else {
                break;
            };
            let pv: Vec<G::Move> = self.pv[0].to_vec();
            let best = pv.first().copied().unwrap_or(root[0]);
            let deeper = deepening.record(
                depth,
                complete,
                best,
                score,
                pv,
                self.seldepth as u32,
                &self.stopper,
                on_info,
            );
            if !deeper {
                break;
            }
        }
        let eval = || self.eval(game, side);
        Some(deepening.finish(&self.stopper, fallback, eval))
    }

    /// Where the roll to come follows every move (tables), deeper plies cost a factor of
    /// every roll times every reply, so — as backgammon programs do — every move is first
    /// valued statically and only the few best ([`ROOT_CANDIDATES`], within
    /// [`ROOT_MARGIN`] of the best) are searched deeper. Returns whether it filtered.
    fn filter_before_chance(&mut self, game: &G, side: u8, root: &mut Vec<G::Move>) -> bool {
        if root.len() <= 1 {
            return false;
        }
        let mut probe = game.clone();
        probe.play(root[0]);
        if probe.turn() != Turn::Chance {
            return false;
        }
        let mut ranked: Vec<(i32, G::Move)> = Vec::with_capacity(root.len());
        for &mv in root.iter() {
            let mut child = game.clone();
            child.play(mv);
            let v = match child.turn() {
                Turn::Over => self.terminal(&child, side, 1),
                _ => self.eval(&child, side),
            };
            ranked.push((v, mv));
        }
        self.stopper.nodes += ranked.len() as u64;
        // Stable: equal values keep the move-ordering order.
        ranked.sort_by_key(|r| std::cmp::Reverse(r.0));
        let best = ranked[0].0;
        root.clear();
        root.extend(
            ranked
                .iter()
                .take(ROOT_CANDIDATES)
                .take_while(|r| r.0 >= best.saturating_sub(ROOT_MARGIN))
                .map(|r| r.1),
        );
        true
    }

    /// One iteration at the root, first within a narrow window around the last iteration's
    /// value (aspiration) where the game gives a margin, widening it on the side that
    /// failed until the value falls inside. As [`Self::root_search`] answers.
    fn aspirate(
        &mut self,
        game: &G,
        depth: i32,
        side: u8,
        root: &mut [G::Move],
        last: Option<i32>,
    ) -> Option<(i32, bool)> {
        let centre = match (self.margin, last) {
            (Some(_), Some(v)) if depth >= ASPIRATION_DEPTH && v.abs() < MATE_BOUND => v,
            _ => return self.root_search(game, depth, side, root, -INF, INF),
        };
        let mut delta = ASPIRATION_WINDOW;
        let (mut alpha, mut beta) = (centre - delta, centre + delta);
        loop {
            let (score, complete) = self.root_search(game, depth, side, root, alpha, beta)?;
            if !complete {
                return Some((score, complete));
            }
            delta *= 2;
            if score <= alpha && alpha > -INF {
                alpha = if delta > ASPIRATION_GIVE_UP {
                    -INF
                } else {
                    score - delta
                };
            } else if score >= beta && beta < INF {
                beta = if delta > ASPIRATION_GIVE_UP {
                    INF
                } else {
                    score + delta
                };
            } else {
                return Some((score, complete));
            }
        }
    }

    /// One iteration at the root within (`alpha`, `beta`). Returns the best value (a bound
    /// if outside the window) and whether every move was searched; `None` if stopped before
    /// the first move was (then nothing was learnt). The best move is moved to the front of
    /// `root` for the next iteration.
    fn root_search(
        &mut self,
        game: &G,
        depth: i32,
        side: u8,
        root: &mut [G::Move],
        mut alpha: i32,
        beta: i32,
    ) -> Option<(i32, bool)> {
        if !self.stopper.enter() {
            return None;
        }
        self.pv[0].clear();
        let in_check = game.in_check();
        let mut best_index = 0;
        for i in 0..root.len() {
            let mv = root[i];
            let child = self.child(game, mv);
            self.played[0] = Some(mv);
            let mut v = if i == 0 {
                self.search(&child, depth - 1, 1, alpha, beta, side)
            } else {
                // Late quiet root moves are searched shallower first, as in the tree's
                // principal variation, and in full only if they beat the best so far.
                let r = if self.margin.is_some()
                    && depth >= 3
                    && i >= 3
                    && !in_check
                    && !game.is_tactical(mv)
                {
                    self.late_reduction(depth, i, -1, 0)
                } else {
                    0
                };
                let mut v = self.search(&child, depth - 1 - r, 1, alpha, alpha + 1, side);
                if v > alpha && r > 0 && !self.stopper.stopped {
                    v = self.search(&child, depth - 1, 1, alpha, alpha + 1, side);
                }
                if v > alpha && !self.stopper.stopped {
                    self.search(&child, depth - 1, 1, alpha, beta, side)
                } else {
                    v
                }
            };
            if self.stopper.stopped {
                if i == 0 {
                    return None;
                }
                root[..=best_index].rotate_right(1);
                return Some((alpha, false));
            }
            if i == 0 {
                v = v.max(-INF + 1);
            }
            if v > alpha {
                alpha = v;
                best_index = i;
                self.update_pv(0, mv);
                if alpha >= beta {
                    break;
                }
            }
        }
        root[..=best_index].rotate_right(1);
        Some((alpha, true))
    }

    /// Each legal move's value at `depth`, full window, from the seat to move's side.
    pub fn root_values(
        &mut self,
        game: &G,
        depth: u32,
        limits: &Limits,
        control: &Control,
    ) -> Vec<(G::Move, i32)> {
        let Some((side, moves)) = self.prepare(game, limits, control) else {
            return Vec::new();
        };
        self.root_depth = depth as i32;
        let mut out = Vec::with_capacity(moves.len());
        for &mv in moves.as_slice() {
            let child = self.child(game, mv);
            let v = self.search(&child, depth as i32 - 1, 1, -INF, INF, side);
            if self.stopper.stopped {
                break;
            }
            out.push((mv, v));
        }
        out
    }

    /// Whether a node at `ply` may still be extended: not past twice the root depth, so
    /// extensions cannot make the search endless.
    #[inline]
    fn may_extend(&self, ply: usize) -> bool {
        ply < 2 * self.root_depth as usize
    }

    /// The late-move reduction of move `i` at `depth` from the table, shifted by `adjust`
    /// plies and kept within `[floor, depth − 2]` so a reduced search still looks a ply ahead.
    fn late_reduction(&self, depth: i32, i: usize, adjust: i32, floor: i32) -> i32 {
        (i32::from(self.lmr[depth.min(63) as usize][i.min(63)]) + adjust).clamp(floor, depth - 2)
    }

    /// The position after `mv`, with what its search reads first (its table slot and its
    /// static-value cache slot) already on its way from memory.
    #[inline]
    fn child(&self, game: &G, mv: G::Move) -> G {
        let mut child = game.clone();
        child.play(mv);
        self.prefetch(&child);
        child
    }

    /// Starts fetching `child`'s table slot and static-value cache slot, so that the memory
    /// is on its way while the child is set up.
    #[inline]
    fn prefetch(&self, child: &G) {
        let key = child.hash() ^ self.salt;
        if let Some(tt) = &self.tt {
            tt.prefetch(key);
        }
        prefetch(&self.evals[eval_slot(key)]);
    }

    #[inline]
    fn side_of(&self, seat: Seat) -> u8 {
        u8::from(seat != self.anchor)
    }

    #[inline]
    fn eval(&self, game: &G, side: u8) -> i32 {
        let limit = self.win.map_or(EVAL_LIMIT, |w| w - 1);
        let v = game.evaluate(self.anchor).clamp(-limit, limit);
        if side == 0 {
            v
        } else {
            -v
        }
    }

    /// [`Self::eval`] through a small cache keyed by the position's hash: the main search
    /// and quiescence often value a position again (transpositions, null-move children).
    #[inline]
    fn cached_eval(&mut self, game: &G, side: u8) -> i32 {
        let key = game.hash() ^ self.salt;
        let slot = eval_slot(key);
        let v = match self.evals[slot] {
            (k, v) if k == key => v,
            _ => {
                let v = self.eval(game, 0);
                self.evals[slot] = (key, v);
                v
            }
        };
        if side == 0 {
            v
        } else {
            -v
        }
    }

    /// The last two moves that led to the node at `ply` (the reply, and the move it
    /// answered), hashed: the continuation correction's key. A null move or the root's
    /// history counts as no move.
    fn line_key(&self, ply: usize) -> u64 {
        let last = |back: usize| {
            ply.checked_sub(back)
                .and_then(|p| self.played[p].as_ref())
                .map_or(0, move_key)
        };
        (last(1) ^ last(2).rotate_left(29)).wrapping_mul(0x9e37_79b9_7f4a_7c15)
    }

    /// The static value for `side` and, where the game gives correction keys, the same
    /// corrected by the mean errors the search has seen under those keys and the node's
    /// last two moves.
    fn corrected_eval(&mut self, game: &G, side: u8, ply: usize) -> StaticValue {
        let raw = self.cached_eval(game, side);
        let keys = game.correction_keys();
        let line = self.line_key(ply);
        let corrected = keys.map_or(raw, |k| self.correction.correct(side, &k, line, raw));
        StaticValue {
            raw,
            corrected,
            keys,
            line,
        }
    }

    fn terminal(&self, game: &G, side: u8, ply: usize) -> i32 {
        let v = game.result().map_or(0, |r| match self.win {
            Some(win) => (place_utility(&r, self.anchor) * f64::from(win)).round() as i32,
            None => terminal_value(&r, self.anchor, ply),
        });
        if side == 0 {
            v
        } else {
            -v
        }
    }

    /// The ordering score of a move for the node at `ply`.
    #[inline]
    fn order(
        &self,
        game: &G,
        mover: Seat,
        mv: G::Move,
        tt_move: Option<G::Move>,
        line: &Line<G::Move>,
        ply: usize,
    ) -> Scored<G::Move> {
        let tactical = game.is_tactical(mv);
        let score = if tt_move == Some(mv) {
            TT_MOVE
        } else if tactical {
            let order = game.order_score(mv).clamp(-ORDER_CLAMP, ORDER_CLAMP);
            if game.exchange_gain(mv).is_some_and(|g| g < 0) {
                LOSING + order
            } else {
                TACTICAL + order
            }
        } else {
            match self.killers.rank(ply, mv) {
                0 if line.counter == Some(mv) => COUNTER,
                0 => {
                    let continued: i32 = line
                        .earlier
                        .iter()
                        .flatten()
                        .map(|&e| self.continuation.get(e, &mv))
                        .sum();
                    self.history.get(mover, &mv)
                        + continued
                        + game.order_score(mv).clamp(-ORDER_CLAMP, ORDER_CLAMP)
                }
                k => KILLER + k,
            }
        };
        (score, tactical, mv)
    }

    fn update_pv(&mut self, ply: usize, mv: G::Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(mv);
        let rest = &tail[0];
        let room = line.remaining_capacity().min(rest.len());
        line.extend(rest[..room].iter().copied());
    }

    /// The value of `game` for `side`, searched `depth` plies deep, within (alpha, beta)
    /// (fail-soft: a value outside the window is a bound).
    fn search(
        &mut self,
        game: &G,
        mut depth: i32,
        ply: usize,
        mut alpha: i32,
        mut beta: i32,
        side: u8,
    ) -> i32 {
        let turn = game.turn();
        if let Turn::Seat(s) = turn {
            let mover_side = self.side_of(s);
            if mover_side != side {
                return -self.search(game, depth, ply, -beta, -alpha, mover_side);
            }
            if depth <= 0 {
                return self.quiesce(game, ply, alpha, beta, side, 0);
            }
        }
        if !self.stopper.enter() {
            return 0;
        }
        self.pv[ply].clear();
        self.seldepth = self.seldepth.max(ply);
        let mover = match turn {
            Turn::Over => return self.terminal(game, side, ply),
            Turn::Chance if depth <= 0 => return self.eval(game, side),
            Turn::Chance => return self.chance(game, depth, ply, alpha, beta, side),
            Turn::Seat(s) => s,
        };
        if ply >= MAX_PLY - 1 {
            return self.eval(game, side);
        }
        // A position that stood before on this line since the root: a draw where the
        // game's rules make repetition one (they end the game at a later repetition).
        if game.repeats_within(ply) {
            return 0;
        }

        // No line from here can beat a win on the next ply or lose faster than the next ply.
        alpha = alpha.max(-(MATE - ply as i32 - 1));
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }
        let pv_node = beta - alpha > 1;
        let alpha_orig = alpha;
        let key = game.hash() ^ self.salt;
        let excluded = self.excluded[ply];
        let mut tt_move = None;
        let mut tt_value = None;
        if let Some(e) = self
            .tt
            .as_ref()
            .filter(|_| excluded.is_none())
            .and_then(|t| t.probe(key))
        {
            tt_move = e.mv;
            let s = from_table(e.score, ply);
            if !pv_node && i32::from(e.depth) >= depth && e.bound.settles(s, alpha, beta) {
                return s;
            }
            tt_value = Some((s, e.bound, i32::from(e.depth)));
        }
        // No table move this deep: the node was not searched before and its ordering is a
        // guess; search it a ply shallower (internal iterative reduction).
        if tt_move.is_none() && depth >= IIR_DEPTH && self.margin.is_some() {
            depth -= 1;
        }
        let in_check = game.in_check();
        if in_check && self.may_extend(ply) {
            depth += 1;
        }

        // Forward pruning, where the game gives a margin, outside the principal variation
        // and check, and never on a mate score's edge.
        let margin = self
            .margin
            .filter(|_| !pv_node && !in_check && beta.abs() < MATE_BOUND);
        let evals = self
            .margin
            .filter(|_| !in_check)
            .map(|_| self.corrected_eval(game, side, ply));
        let corrected = evals.map(|e| e.corrected);
        self.static_evals[ply] = corrected;
        // Pruning and reductions are gentler while the mover's position improves.
        let improving = improving(&self.static_evals, ply);
        // A stored search value bounds the position better than the static value where its
        // bound points the right way: prune on it instead.
        let static_eval = margin.and(corrected).map(|ev| match tt_value {
            Some((s, bound, _)) if s.abs() < MATE_BOUND => match bound {
                Bound::Exact => s,
                Bound::Lower => ev.max(s),
                Bound::Upper => ev.min(s),
            },
            _ => ev,
        });
        if let (Some(m), Some(ev)) = (margin, static_eval) {
            // Reverse futility: so far above beta that a few plies cannot bring it back.
            if depth <= 6 && ev - m * (depth - i32::from(improving)) >= beta {
                return ev;
            }
            // Null move: if passing still holds beta, a real move will (bar zugzwang, which
            // the game rules out where it offers the null move).
            if depth >= 3 && ev >= beta && !self.nulled[ply] && excluded.is_none() {
                if let Some(child) = game.null_move() {
                    self.prefetch(&child);
                    let r = 3 + depth / 6;
                    self.played[ply] = None;
                    self.nulled[ply + 1] = true;
                    let v = self.search(&child, depth - 1 - r, ply + 1, beta - 1, beta, side);
                    self.nulled[ply + 1] = false;
                    if self.stopper.stopped {
                        return 0;
                    }
                    if v >= beta {
                        return if v >= MATE_BOUND { beta } else { v };
                    }
                }
            }
            // ProbCut: a capture that wins enough on its exchange, and still beats beta by
            // a margin when searched four plies shallower, almost surely beats it in full.
            // (Never the move a singular-extension test leaves out.)
            let raised = beta + 2 * m;
            if depth >= 5 && raised < MATE_BOUND {
                let mut captures = G::MoveList::default();
                game.tactical_moves(&mut captures);
                for &mv in captures.as_slice() {
                    if excluded == Some(mv)
                        || game.exchange_gain(mv).is_none_or(|g| ev + g < raised)
                    {
                        continue;
                    }
                    let child = self.child(game, mv);
                    self.played[ply] = Some(mv);
                    let mut v = self.quiesce(&child, ply + 1, raised - 1, raised, side, 0);
                    if v >= raised && !self.stopper.stopped {
                        v = self.search(&child, depth - 5, ply + 1, raised - 1, raised, side);
                    }
                    if self.stopper.stopped {
                        return 0;
                    }
                    if v >= raised {
                        return v;
                    }
                }
            }
        }

        let mut moves = G::MoveList::default();
        game.legal_moves(&mut moves);
        if moves.is_empty() {
            return self.eval(game, side);
        }
        let previous = ply.checked_sub(1).and_then(|p| self.played[p]);
        let line = Line {
            counter: previous.and_then(|p| self.counters.get(&p)),
            earlier: [
                previous.as_ref().map(move_key),
                ply.checked_sub(2)
                    .and_then(|p| self.played[p].as_ref())
                    .map(move_key),
            ],
        };
        for &e in line.earlier.iter().flatten() {
            for mv in moves.as_slice() {
                self.continuation.prefetch(e, mv);
            }
        }
        let mut list = mem::take(&mut self.lists[ply]);
        list.clear();
        for &mv in moves.as_slice() {
            list.push(self.order(game, mover, mv, tt_move, &line, ply));
        }
        // Singular extension: where the table move is known to reach a value and every other
        // move, searched half as deep, stays below it less a margin, the table move alone
        // holds the node: it is searched a ply deeper. Where the others reach that value too
        // and it holds beta, two moves cut (multi-cut): the node fails high.
        let mut singular = false;
        if let (Some(tt), Some((tv, Bound::Lower | Bound::Exact, tt_depth))) = (tt_move, tt_value) {
            if excluded.is_none()
                && self.margin.is_some()
                && depth >= SINGULAR_DEPTH
                && tt_depth >= depth - 3
                && tv.abs() < MATE_BOUND
                && self.may_extend(ply)
                && moves.as_slice().contains(&tt)
            {
                let singular_beta = tv - SINGULAR_MARGIN * depth;
                self.excluded[ply] = Some(tt);
                let v = self.search(
                    game,
                    (depth - 1) / 2,
                    ply,
                    singular_beta - 1,
                    singular_beta,
                    side,
                );
                self.excluded[ply] = None;
                if self.stopper.stopped {
                    self.lists[ply] = list;
                    return 0;
                }
                if v < singular_beta {
                    singular = true;
                } else if singular_beta >= beta {
                    self.lists[ply] = list;
                    return singular_beta;
                }
            }
        }

        let mut best = -INF;
        let mut best_move = None;
        let mut best_tactical = false;
        let mut quiets = 0;
        for i in 0..list.len() {
            pick_next(&mut list, i);
            let (order, tactical, mv) = list[i];
            if excluded == Some(mv) {
                continue;
            }
            let quiet = !tactical && !in_check && order < KILLER;
            if quiet {
                quiets += 1;
            }
            // Near the horizon, late quiet moves that neither check nor can lift a hopeless
            // static value to alpha are not searched (late-move and futility pruning). Most
            // such moves are never played: whether one checks is asked of the game first.
            if let (Some(m), Some(ev)) = (margin, static_eval) {
                if i > 0
                    && quiet
                    && depth <= 3
                    && best > -MATE_BOUND
                    && (quiets > (3 + 2 * depth * depth) / (2 - i32::from(improving))
                        || ev + m * depth + m / 2 <= alpha)
                    && !game.gives_check(mv)
                {
                    continue;
                }
                // Moves that lose more than a limit on their exchange (SEE pruning): losing
                // captures a margin a ply; quiet moves, whose piece is lost where it lands,
                // a fifth of a margin times depth² (as Stockfish's).
                if i > 0 && best > -MATE_BOUND {
                    let exchange = if tactical && order < LOSING + ORDER_CLAMP && depth <= 4 {
                        game.exchange_gain(mv).map(|g| (g, -m * depth))
                    } else if quiet && depth <= 6 {
                        game.landing_exchange(mv)
                            .map(|g| (g, -m * depth * depth / 5))
                    } else {
                        None
                    };
                    if exchange.is_some_and(|(gain, limit)| gain < limit) && !game.gives_check(mv) {
                        continue;
                    }
                }
            }
            let child = self.child(game, mv);
            self.played[ply] = Some(mv);
            let v = if i == 0 {
                let extension = i32::from(tt_move == Some(mv) && singular);
                self.search(&child, depth - 1 + extension, ply + 1, alpha, beta, side)
            } else {
                let quiet_late = quiet && i >= 3;
                let r = if depth >= 3 && quiet_late {
                    if self.margin.is_some() {
                        let adjust = i32::from(!improving) - i32::from(pv_node);
                        self.late_reduction(depth, i, adjust, 1)
                    } else if depth >= 5 && i >= 8 {
                        2
                    } else {
                        1
                    }
                } else {
                    0
                };
                let mut v = self.search(&child, depth - 1 - r, ply + 1, alpha, alpha + 1, side);
                if v > alpha && r > 0 && !self.stopper.stopped {
                    v = self.search(&child, depth - 1, ply + 1, alpha, alpha + 1, side);
                }
                if v > alpha && v < beta && !self.stopper.stopped {
                    v = self.search(&child, depth - 1, ply + 1, alpha, beta, side);
                }
                v
            };
            if self.stopper.stopped {
                self.lists[ply] = list;
                return 0;
            }
            if v > best {
                best = v;
                best_move = Some(mv);
                best_tactical = tactical;
                if v > alpha {
                    alpha = v;
                    self.update_pv(ply, mv);
                    if v >= beta {
                        if !tactical {
                            let bonus = (depth * depth).min(HISTORY_MAX);
                            self.killers.add(ply, mv);
                            if let Some(p) = previous {
                                self.counters.set(&p, mv);
                            }
                            self.history.update(mover, &mv, bonus);
                            for &e in line.earlier.iter().flatten() {
                                self.continuation.update(e, &mv, bonus);
                            }
                            for &(_, t, tried) in &list[..i] {
                                if !t {
                                    self.history.update(mover, &tried, -bonus);
                                    for &e in line.earlier.iter().flatten() {
                                        self.continuation.update(e, &tried, -bonus);
                                    }
                                }
                            }
                        }
                        break;
                    }
                }
            }
        }
        self.lists[ply] = list;
        if excluded.is_some() {
            // An exclusion search stores nothing (its value leaves a move out); with no other
            // move to search, it fails low.
            return best.max(alpha_orig);
        }
        let bound = Bound::of(best, alpha_orig, beta);
        if let Some(tt) = &mut self.tt {
            tt.store(key, best_move, to_table(best, ply), depth, bound);
        }
        // What the search found says how wrong the static value was, unless a capture
        // decided it (not the structure's fault) or the bound points the unhelpful way.
        if let Some(StaticValue {
            raw,
            corrected: ev,
            keys: Some(k),
            line,
        }) = evals
        {
            let unhelpful =
                (bound == Bound::Lower && best <= ev) || (bound == Bound::Upper && best >= ev);
            if best.abs() < MATE_BOUND && !best_tactical && !unhelpful {
                self.correction.update(side, &k, line, depth, raw, best);
            }
        }
        best
    }

    /// A chance event: the probability-weighted mean of its outcomes, with Star1 cuts —
    /// an outcome's window is narrowed to what could still move the mean across the
    /// parent's window, taking the unsearched outcomes at their extremes (±MATE).
    fn chance(&mut self, game: &G, depth: i32, ply: usize, alpha: i32, beta: i32, side: u8) -> i32 {
        let mut outcomes = mem::take(&mut self.chances[ply]);
        game.chance_outcomes(&mut outcomes);
        if outcomes.is_empty() {
            self.chances[ply] = outcomes;
            return self.eval(game, side);
        }
        outcomes.sort_by_key(|c| std::cmp::Reverse(c.weight));
        let total = i64::from(outcomes[0].total);
        // Every value lies within these: a won game's on the evaluation's scale, or mate.
        let bound = i64::from(self.win.unwrap_or(MATE));
        let (lo, hi) = (-bound, bound);
        let (alpha, beta) = (i64::from(alpha), i64::from(beta));
        let mut sum: i64 = 0;
        let mut remaining: i64 = outcomes.iter().map(|c| i64::from(c.weight)).sum();
        let mut value = None;
        for c in &outcomes {
            let w = i64::from(c.weight);
            if w == 0 {
                continue;
            }
            remaining -= w;
            // Bounds on this outcome's value that decide the whole event.
            let a = (alpha * total - sum - hi * remaining).div_euclid(w);
            let b = -((-(beta * total - sum - lo * remaining)).div_euclid(w));
            if a >= hi {
                value = Some(((sum + (w + remaining) * hi) / total) as i32);
                break;
            }
            if b <= lo {
                value = Some(((sum + (w + remaining) * lo) / total) as i32);
                break;
            }
            let window = (a.max(-i64::from(INF)) as i32, b.min(i64::from(INF)) as i32);
            let mut child = game.clone();
            child.apply_chance(c.outcome);
            // Chance plies do not count: distances to a won game are in moves of the seats.
            let v = i64::from(self.search(&child, depth, ply, window.0, window.1, side));
            if self.stopper.stopped {
                self.chances[ply] = outcomes;
                return 0;
            }
            if v <= a {
                value = Some((sum + w * v + hi * remaining).div_euclid(total) as i32);
                break;
            }
            if v >= b {
                value = Some(-((-(sum + w * v + lo * remaining)).div_euclid(total)) as i32);
                break;
            }
            sum += w * v;
        }
        self.chances[ply] = outcomes;
        self.pv[ply].clear();
        value.unwrap_or_else(|| ((sum as f64) / total as f64).round() as i32)
    }

    /// Quiescence: stand pat on the static value, or try the tactical moves (every move
    /// when in check, near the horizon) until the position is quiet.
    fn quiesce(
        &mut self,
        game: &G,
        ply: usize,
        mut alpha: i32,
        beta: i32,
        side: u8,
        qdepth: u32,
    ) -> i32 {
        let turn = game.turn();
        if let Turn::Seat(s) = turn {
            let mover_side = self.side_of(s);
            if mover_side != side {
                return -self.quiesce(game, ply, -beta, -alpha, mover_side, qdepth);
            }
        }
        if !self.stopper.enter() {
            return 0;
        }
        self.pv[ply].clear();
        self.seldepth = self.seldepth.max(ply);
        match turn {
            Turn::Over => return self.terminal(game, side, ply),
            Turn::Chance => return self.eval(game, side),
            Turn::Seat(_) => {}
        }
        if ply >= MAX_PLY - 1 || qdepth >= MAX_QDEPTH {
            return self.eval(game, side);
        }
        // Where the game prunes (chess), the table answers quiescence too: a capture
        // sequence met again by transposition is not searched twice.
        let key = game.hash() ^ self.salt;
        let mut use_table = self.margin.is_some();
        if use_table {
            if let Some(e) = self.tt.as_ref().and_then(|t| t.probe(key)) {
                // What is there is worth keeping (often a deeper search's move): not replaced.
                use_table = false;
                let s = from_table(e.score, ply);
                if e.bound.settles(s, alpha, beta) {
                    return s;
                }
            }
        }
        let alpha_orig = alpha;
        let evasions = qdepth < QCHECK_DEPTH && game.in_check();
        let mut best = -INF;
        if !evasions {
            let stand = if self.margin.is_some() {
                self.corrected_eval(game, side, ply).corrected
            } else {
                self.cached_eval(game, side)
            };
            if stand >= beta {
                return stand;
            }
            best = stand;
            alpha = alpha.max(stand);
        }
        let mut moves = G::MoveList::default();
        if evasions {
            game.legal_moves(&mut moves);
        } else {
            game.tactical_moves(&mut moves);
        }
        let mut list = mem::take(&mut self.lists[ply]);
        list.clear();
        for &mv in moves.as_slice() {
            let tactical = !evasions || game.is_tactical(mv);
            let score = game.order_score(mv).clamp(-ORDER_CLAMP, ORDER_CLAMP)
                + if tactical { TACTICAL } else { 0 };
            list.push((score, tactical, mv));
        }
        for i in 0..list.len() {
            pick_next(&mut list, i);
            let mv = list[i].2;
            // Captures that lose their exchange, or cannot lift the static value to alpha
            // even with a margin to spare, are not worth a look (SEE and delta pruning).
            if !evasions {
                if let (Some(m), Some(gain)) = (self.margin, game.exchange_gain(mv)) {
                    if gain < 0 || best + gain + 2 * m <= alpha {
                        continue;
                    }
                }
            }
            let child = self.child(game, mv);
            self.played[ply] = Some(mv);
            let v = self.quiesce(&child, ply + 1, alpha, beta, side, qdepth + 1);
            if self.stopper.stopped {
                self.lists[ply] = list;
                return 0;
            }
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        self.lists[ply] = list;
        if best == -INF {
            return self.eval(game, side);
        }
        if use_table {
            let bound = Bound::of(best, alpha_orig, beta);
            if let Some(tt) = &mut self.tt {
                tt.store(key, None, to_table(best, ply), QUIESCENCE_DEPTH, bound);
            }
        }
        best
    }
}

/// Whether the static value at `ply` (`evals[ply]`) is better than when the same seat last
/// moved: two plies up, or four where that one is unknown (in check); assumed with neither
/// known, and never in check.
fn improving(evals: &[Option<i32>], ply: usize) -> bool {
    let Some(now) = evals[ply] else {
        return false;
    };
    let before = |back: usize| ply.checked_sub(back).and_then(|p| evals[p]);
    before(2)
        .or_else(|| before(4))
        .is_none_or(|then| now > then)
}

/// The static-value cache's slot for a position key.
#[inline]
fn eval_slot(key: u64) -> usize {
    (key as usize) & (EVAL_CACHE - 1)
}

/// Late-move reductions `lmr[depth][move number]`: `0.5 + ln(depth)·ln(number)/2` plies,
/// the logarithmic shape strong engines use (deep nodes and late moves reduce most).
fn lmr_table() -> Box<[[u8; 64]; 64]> {
    let mut t = Box::new([[0u8; 64]; 64]);
    for (d, row) in t.iter_mut().enumerate().skip(1) {
        for (i, r) in row.iter_mut().enumerate().skip(1) {
            *r = (0.5 + (d as f64).ln() * (i as f64).ln() / 2.0) as u8;
        }
    }
    t
}

/// Brings the best-ordered move of `list[i..]` to position `i` (selection sort, one step:
/// most nodes cut after a move or two, so sorting the whole list would be wasted).
#[inline]
fn pick_next<M: Copy>(list: &mut [Scored<M>], i: usize) {
    let mut best = i;
    for j in i + 1..list.len() {
        if list[j].0 > list[best].0 {
            best = j;
        }
    }
    list.swap(i, best);
}

#[cfg(test)]
mod tests {
    use super::improving;

    #[test]
    fn improving_compares_with_the_same_seat_two_plies_up_else_four() {
        // Better than two plies up; worse; equal is not better.
        assert!(improving(&[None, None, Some(10), None, Some(20)], 4));
        assert!(!improving(&[None, None, Some(30), None, Some(20)], 4));
        assert!(!improving(&[None, None, Some(20), None, Some(20)], 4));
        // In check two plies up (unknown): four plies up decides.
        assert!(!improving(&[Some(50), None, None, None, Some(20)], 4));
        assert!(improving(&[Some(-50), None, None, None, Some(20)], 4));
        // Nothing known before: assumed; in check now: never.
        assert!(improving(&[None, None, None, None, Some(20)], 4));
        assert!(improving(&[None, Some(0)], 1));
        assert!(!improving(&[None, None, Some(-90), None, None], 4));
    }
}
