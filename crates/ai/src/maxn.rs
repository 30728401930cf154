//! Max^n (Luckhardt and Irani): every seat picks the move best for its own component of
//! a value vector. No pruning applies to general evaluations, so it searches every node
//! to the depth; chance events take the probability-weighted mean of the vectors.

use crate::limits::{Control, Limits, Stopper};
use crate::score::{terminal_value, MATE, MAX_PLY};
use crate::search::{Deepening, SearchInfo, SearchResult};
use arrayvec::ArrayVec;
use libro_core::{Chance, Heuristic, MoveBuffer, Seat, Turn, EVAL_LIMIT, MAX_SEATS};
use std::mem;

/// One value per seat.
type Values = [i32; MAX_SEATS];

/// Quiescence follows at most this many plies past the horizon.
const MAX_QDEPTH: u32 = 8;

pub(crate) struct MaxN<G: Heuristic> {
    pv: Vec<ArrayVec<G::Move, MAX_PLY>>,
    lists: Vec<Vec<(i32, G::Move)>>,
    chances: Vec<Vec<Chance<G::ChanceOutcome>>>,
    stopper: Stopper,
    seldepth: usize,
}

impl<G: Heuristic> MaxN<G> {
    pub fn new() -> Self {
        MaxN {
            pv: (0..=MAX_PLY).map(|_| ArrayVec::new()).collect(),
            lists: (0..=MAX_PLY).map(|_| Vec::new()).collect(),
            chances: (0..=MAX_PLY).map(|_| Vec::new()).collect(),
            stopper: Stopper::new(&Limits::default(), &Control::default()),
            seldepth: 0,
        }
    }

    fn root_moves(
        &mut self,
        game: &G,
        limits: &Limits,
        control: &Control,
    ) -> Option<(Seat, Vec<G::Move>)> {
        let root = game.seat_to_move()?;
        self.stopper = Stopper::new(limits, control);
        let mut moves = G::MoveList::default();
        game.legal_moves(&mut moves);
        let mut scored: Vec<(i32, G::Move)> = moves
            .as_slice()
            .iter()
            .map(|&mv| (ordering(game, mv), mv))
            .collect();
        scored.sort_by_key(|s| std::cmp::Reverse(s.0));
        let moves: Vec<G::Move> = scored.into_iter().map(|(_, m)| m).collect();
        (!moves.is_empty()).then_some((root, moves))
    }

    pub fn think(
        &mut self,
        game: &G,
        among: &[G::Move],
        limits: &Limits,
        control: &Control,
        on_info: &mut dyn FnMut(&SearchInfo<G::Move>),
    ) -> Option<SearchResult<G::Move>> {
        let (root, mut moves) = self.root_moves(game, limits, control)?;
        if !among.is_empty() {
            moves.retain(|m| among.contains(m));
            if moves.is_empty() {
                return None;
            }
        }
        let fallback = moves[0];
        let mut deepening = Deepening::new();
        let max_depth = limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 1)
            .clamp(1, MAX_PLY as u32 - 1);
        for depth in 1..=max_depth {
            if depth > 1 && !self.stopper.may_deepen() {
                break;
            }
            self.seldepth = 0;
            if !self.stopper.enter() {
                break;
            }
            self.pv[0].clear();
            let mut best: Option<(usize, i32)> = None;
            let mut complete = true;
            for (i, &mv) in moves.iter().enumerate() {
                let mut child = game.clone();
                child.play(mv);
                let v = self.value(&child, depth as i32 - 1, 1)[root.index()];
                if self.stopper.stopped {
                    complete = false;
                    break;
                }
                if best.is_none_or(|(_, b)| v > b) {
                    best = Some((i, v));
                    self.update_pv(0, mv);
                }
            }
            let Some((index, score)) = best else {
                break;
            };
            moves[..=index].rotate_right(1);
            let pv = self.pv[0].to_vec();
            let deeper = deepening.record(
                depth,
                complete,
                moves[0],
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
        let eval = || game.evaluate(root).clamp(-EVAL_LIMIT, EVAL_LIMIT);
        Some(deepening.finish(&self.stopper, fallback, eval))
    }

    pub fn root_values(
        &mut self,
        game: &G,
        depth: u32,
        limits: &Limits,
        control: &Control,
    ) -> Vec<(G::Move, i32)> {
        let Some((root, moves)) = self.root_moves(game, limits, control) else {
            return Vec::new();
        };
        let mut out = Vec::with_capacity(moves.len());
        for mv in moves {
            let mut child = game.clone();
            child.play(mv);
            let v = self.value(&child, depth as i32 - 1, 1)[root.index()];
            if self.stopper.stopped {
                break;
            }
            out.push((mv, v));
        }
        out
    }

    fn evaluate(game: &G) -> Values {
        let mut v = [0; MAX_SEATS];
        let n = game.num_seats().min(MAX_SEATS);
        game.evaluate_all(&mut v[..n]);
        for x in &mut v {
            *x = (*x).clamp(-EVAL_LIMIT, EVAL_LIMIT);
        }
        v
    }

    fn terminal(game: &G, ply: usize) -> Values {
        let mut v = [0; MAX_SEATS];
        if let Some(r) = game.result() {
            for (i, x) in v.iter_mut().enumerate().take(r.seats.len()) {
                *x = terminal_value(&r, Seat(i as u8), ply);
            }
        }
        v
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

    /// The value vector of `game` searched `depth` plies deep.
    fn value(&mut self, game: &G, depth: i32, ply: usize) -> Values {
        let turn = game.turn();
        if let (Turn::Seat(_), true) = (turn, depth <= 0) {
            return self.quiesce(game, ply, 0);
        }
        if !self.stopper.enter() {
            return [0; MAX_SEATS];
        }
        self.pv[ply].clear();
        self.seldepth = self.seldepth.max(ply);
        let mover = match turn {
            Turn::Over => return Self::terminal(game, ply),
            Turn::Chance if depth <= 0 => return Self::evaluate(game),
            Turn::Chance => return self.chance(game, depth, ply),
            Turn::Seat(s) => s,
        };
        if ply >= MAX_PLY - 1 {
            return Self::evaluate(game);
        }
        let mut moves = G::MoveList::default();
        game.legal_moves(&mut moves);
        let mut best: Option<Values> = None;
        for &mv in moves.as_slice() {
            let mut child = game.clone();
            child.play(mv);
            let v = self.value(&child, depth - 1, ply + 1);
            if self.stopper.stopped {
                return [0; MAX_SEATS];
            }
            if best.is_none_or(|b| v[mover.index()] > b[mover.index()]) {
                best = Some(v);
                self.update_pv(ply, mv);
                if v[mover.index()] >= MATE - ply as i32 - 1 {
                    break;
                }
            }
        }
        best.unwrap_or_else(|| Self::evaluate(game))
    }

    fn chance(&mut self, game: &G, depth: i32, ply: usize) -> Values {
        let mut outcomes = mem::take(&mut self.chances[ply]);
        game.chance_outcomes(&mut outcomes);
        let mut sum = [0i64; MAX_SEATS];
        let mut total = 0i64;
        for c in &outcomes {
            let mut child = game.clone();
            child.apply_chance(c.outcome);
            let v = self.value(&child, depth, ply);
            if self.stopper.stopped {
                self.chances[ply] = outcomes;
                return [0; MAX_SEATS];
            }
            for (s, x) in sum.iter_mut().zip(v) {
                *s += i64::from(c.weight) * i64::from(x);
            }
            total += i64::from(c.weight);
        }
        self.chances[ply] = outcomes;
        self.pv[ply].clear();
        if total == 0 {
            return Self::evaluate(game);
        }
        sum.map(|s| ((s as f64) / total as f64).round() as i32)
    }

    /// The mover stands pat on the static values or takes the tactical move best for it.
    fn quiesce(&mut self, game: &G, ply: usize, qdepth: u32) -> Values {
        if !self.stopper.enter() {
            return [0; MAX_SEATS];
        }
        self.pv[ply].clear();
        self.seldepth = self.seldepth.max(ply);
        let mover = match game.turn() {
            Turn::Over => return Self::terminal(game, ply),
            Turn::Chance => return Self::evaluate(game),
            Turn::Seat(s) => s,
        };
        let stand = Self::evaluate(game);
        if ply >= MAX_PLY - 1 || qdepth >= MAX_QDEPTH {
            return stand;
        }
        let mut moves = G::MoveList::default();
        game.tactical_moves(&mut moves);
        let mut list = mem::take(&mut self.lists[ply]);
        list.clear();
        list.extend(
            moves
                .as_slice()
                .iter()
                .map(|&mv| (game.order_score(mv), mv)),
        );
        let mut best = stand;
        for &(_, mv) in &list {
            let mut child = game.clone();
            child.play(mv);
            let v = self.quiesce(&child, ply + 1, qdepth + 1);
            if self.stopper.stopped {
                break;
            }
            if v[mover.index()] > best[mover.index()] {
                best = v;
            }
        }
        self.lists[ply] = list;
        best
    }
}

/// Root ordering before the first iteration: tactical moves first, by their score.
fn ordering<G: Heuristic>(game: &G, mv: G::Move) -> i32 {
    let tactical = if game.is_tactical(mv) { 1 << 28 } else { 0 };
    tactical + game.order_score(mv).clamp(-(1 << 24), 1 << 24)
}
