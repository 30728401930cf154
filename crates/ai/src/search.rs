//! The search front door: one [`Searcher`] per player, which picks the algorithm by the
//! game's seat count, and the reports it gives (UCI-style `info`, the final result).

use crate::alphabeta::AlphaBeta;
use crate::limits::{Control, Limits, Stopper};
use crate::maxn::MaxN;
use crate::score::{Score, MATE, MATE_BOUND};
use libro_core::{Game, Heuristic};
use std::fmt::{self, Write as _};
use std::str::FromStr;
use std::time::Duration;

/// What a search reports after each finished iteration (UCI `info`).
#[derive(Clone, Debug, PartialEq)]
pub struct SearchInfo<M> {
    /// The iteration's depth in plies of moves.
    pub depth: u32,
    /// The deepest ply reached, quiescence included.
    pub seldepth: u32,
    /// From the seat to move's side.
    pub score: Score,
    pub nodes: u64,
    /// Nodes per second so far.
    pub nps: u64,
    pub time: Duration,
    /// The expected line, up to the first chance event or the horizon.
    pub pv: Vec<M>,
}

impl<M: Copy> SearchInfo<M> {
    /// The UCI line: `info depth 6 seldepth 11 score cp 35 nodes 52311 nps 812000 time 64 pv ...`,
    /// moves in the game's notation.
    pub fn uci<G: Game<Move = M>>(&self, game: &G) -> String {
        self.uci_with(game, |g, mv| g.move_text(mv))
    }

    /// [`SearchInfo::uci`], with the moves of the line written by `write` (each in its own
    /// position), for front ends whose peers write moves differently from libro.
    pub fn uci_with<G: Game<Move = M>>(&self, game: &G, write: impl Fn(&G, M) -> String) -> String {
        let mut s = format!(
            "info depth {} seldepth {} score {} nodes {} nps {} time {}",
            self.depth,
            self.seldepth,
            self.score,
            self.nodes,
            self.nps,
            self.time.as_millis()
        );
        let pv = pv_text_with(game, &self.pv, write);
        if !pv.is_empty() {
            s.push_str(" pv");
            for m in pv {
                let _ = write!(s, " {m}");
            }
        }
        s
    }
}

/// Writes a line of moves from `game` in the game's notation, each in its own position.
pub fn pv_text<G: Game>(game: &G, pv: &[G::Move]) -> Vec<String> {
    pv_text_with(game, pv, |g, mv| g.move_text(mv))
}

/// [`pv_text`], each move written by `write`.
fn pv_text_with<G: Game>(
    game: &G,
    pv: &[G::Move],
    write: impl Fn(&G, G::Move) -> String,
) -> Vec<String> {
    let mut g = game.clone();
    let mut out = Vec::with_capacity(pv.len());
    for &mv in pv {
        if g.seat_to_move().is_none() {
            break;
        }
        out.push(write(&g, mv));
        g.play(mv);
    }
    out
}

/// What a search found.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult<M> {
    /// The move to play.
    pub best: M,
    /// Its value from the seat to move's side.
    pub score: Score,
    /// The last iteration that decided the move (0: none finished, the move is the first
    /// in move order).
    pub depth: u32,
    pub seldepth: u32,
    /// Positions visited.
    pub nodes: u64,
    pub time: Duration,
    /// The expected line, starting with `best`.
    pub pv: Vec<M>,
}

/// The bookkeeping of iterative deepening that alpha-beta and max^n share: each
/// iteration's result, the `info` reports, when to stop deepening, and the final answer.
pub(crate) struct Deepening<M> {
    result: Option<SearchResult<M>>,
    /// The internal value of the last finished iteration.
    last_internal: Option<i32>,
}

impl<M: Copy> Deepening<M> {
    pub fn new() -> Self {
        Deepening {
            result: None,
            last_internal: None,
        }
    }

    /// The value of the last finished iteration, if one finished.
    pub fn last_score(&self) -> Option<i32> {
        self.last_internal
    }

    /// Takes the result of the iteration at `depth` (`best` first in `pv`), searched to
    /// the end or stopped partway (which still decided between the moves it finished).
    /// Returns whether to go deeper: not after a stopped iteration, nor once a won or lost
    /// game is seen within the depth searched.
    #[allow(clippy::too_many_arguments)]
    pub fn record(
        &mut self,
        depth: u32,
        complete: bool,
        best: M,
        score: i32,
        pv: Vec<M>,
        seldepth: u32,
        stopper: &Stopper,
        on_info: &mut dyn FnMut(&SearchInfo<M>),
    ) -> bool {
        let found = SearchResult {
            best,
            score: Score::from_internal(score),
            depth: if complete { depth } else { depth - 1 },
            seldepth,
            nodes: stopper.nodes,
            time: stopper.elapsed(),
            pv,
        };
        if complete {
            on_info(&info(&found));
            self.last_internal = Some(score);
        }
        // `go mate N`: a win for the side to move in N moves or fewer is what was asked.
        let mate_found = matches!(found.score, Score::Mate(m)
            if m > 0 && stopper.mate.is_some_and(|n| m.unsigned_abs() <= n));
        self.result = Some(found);
        complete
            && !mate_found
            && !(score.abs() >= MATE_BOUND && MATE - score.abs() + 2 <= depth as i32)
    }

    /// The answer: the last iteration's, with the nodes and time of the whole search; or,
    /// if none finished a move, `fallback` at its static value (`eval` is asked only then).
    pub fn finish(
        self,
        stopper: &Stopper,
        fallback: M,
        eval: impl FnOnce() -> i32,
    ) -> SearchResult<M> {
        let (nodes, time) = (stopper.nodes, stopper.elapsed());
        match self.result {
            Some(r) => SearchResult { nodes, time, ..r },
            None => SearchResult {
                best: fallback,
                score: Score::Cp(eval()),
                depth: 0,
                seldepth: 0,
                nodes,
                time,
                pv: vec![fallback],
            },
        }
    }
}

/// The UCI-style report of a result.
pub(crate) fn info<M: Copy>(r: &SearchResult<M>) -> SearchInfo<M> {
    let micros = r.time.as_micros().max(1);
    SearchInfo {
        depth: r.depth,
        seldepth: r.seldepth,
        score: r.score,
        nodes: r.nodes,
        nps: (u128::from(r.nodes) * 1_000_000 / micros) as u64,
        time: r.time,
        pv: r.pv.clone(),
    }
}

/// The search used for games of three or more seats.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum MultiSearch {
    /// The seat to move against a coalition of all the others: alpha-beta applies, so it
    /// searches deeper. Chosen by measurement (see the crate documentation).
    #[default]
    Paranoid,
    /// Every seat maximises its own value (max^n): truer to the game, but no pruning.
    MaxN,
}

impl fmt::Display for MultiSearch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            MultiSearch::Paranoid => "paranoid",
            MultiSearch::MaxN => "maxn",
        })
    }
}

/// Reading a multi-player search name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown search `{0}`: expected `paranoid` or `maxn`")]
pub struct UnknownSearch(pub String);

impl FromStr for MultiSearch {
    type Err = UnknownSearch;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "paranoid" => Ok(MultiSearch::Paranoid),
            "maxn" => Ok(MultiSearch::MaxN),
            _ => Err(UnknownSearch(s.to_string())),
        }
    }
}

/// How a [`Searcher`] is built.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SearchConfig {
    /// Transposition table size in megabytes (allocated on the first search).
    pub hash_mb: usize,
    /// The search for three or more seats.
    pub multi: MultiSearch,
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            hash_mb: 16,
            multi: MultiSearch::default(),
        }
    }
}

/// A search with its memory (transposition table, history, killers), kept from move to
/// move of one game. Two seats: alpha-beta; more: [`MultiSearch`]; chance events are
/// averaged over their outcomes in both (expectimax, with Star1 pruning in alpha-beta).
pub struct Searcher<G: Heuristic> {
    config: SearchConfig,
    alphabeta: AlphaBeta<G>,
    maxn: MaxN<G>,
}

impl<G: Heuristic> Searcher<G> {
    pub fn new(config: SearchConfig) -> Self {
        Searcher {
            config,
            alphabeta: AlphaBeta::new(config.hash_mb),
            maxn: MaxN::new(),
        }
    }

    pub fn config(&self) -> SearchConfig {
        self.config
    }

    /// Searches the position within the limits; `None` if no seat is to move.
    pub fn search(
        &mut self,
        game: &G,
        limits: &Limits,
        control: &Control,
    ) -> Option<SearchResult<G::Move>> {
        self.search_with_info(game, limits, control, &mut |_| {})
    }

    /// As [`Searcher::search`], calling `on_info` after every finished iteration.
    pub fn search_with_info(
        &mut self,
        game: &G,
        limits: &Limits,
        control: &Control,
        on_info: &mut dyn FnMut(&SearchInfo<G::Move>),
    ) -> Option<SearchResult<G::Move>> {
        self.search_among(game, &[], limits, control, on_info)
    }

    /// As [`Searcher::search_with_info`], choosing only among the legal moves in `among`
    /// (UCI's `go searchmoves`; empty: every legal move). `None` if none of them is legal.
    pub fn search_among(
        &mut self,
        game: &G,
        among: &[G::Move],
        limits: &Limits,
        control: &Control,
        on_info: &mut dyn FnMut(&SearchInfo<G::Move>),
    ) -> Option<SearchResult<G::Move>> {
        if self.uses_maxn(game) {
            self.maxn.think(game, among, limits, control, on_info)
        } else {
            self.alphabeta.think(game, among, limits, control, on_info)
        }
    }

    /// The value of every legal move searched `depth` plies deep with a full window, from
    /// the seat to move's side (for the weaker levels, which then err on purpose). Empty if
    /// no seat is to move; shorter if the search was stopped.
    pub fn root_values(
        &mut self,
        game: &G,
        depth: u32,
        limits: &Limits,
        control: &Control,
    ) -> Vec<(G::Move, i32)> {
        if self.uses_maxn(game) {
            self.maxn.root_values(game, depth, limits, control)
        } else {
            self.alphabeta.root_values(game, depth, limits, control)
        }
    }

    /// Forgets everything learnt (for a new game).
    pub fn clear(&mut self) {
        self.alphabeta.clear();
    }

    fn uses_maxn(&self, game: &G) -> bool {
        game.num_seats() > 2 && self.config.multi == MultiSearch::MaxN
    }
}
