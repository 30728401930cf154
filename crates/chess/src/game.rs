//! A game under a chess-family ruleset: the position plus what the end rules need (the
//! positions since the last capture or pawn move, the order seats left) and the pot.

use crate::eval::net::{self, Accumulator};
use crate::notation::{self, Extras, MoveError, PositionError};
use crate::options::{BareKing, MateTest, Payments, Stalemate};
use crate::position::{with_pos, Effects, Move, MoveList, Pos, Position, Repr};
use crate::rules::{ChessRules, MAX_SEATS};
use libro_core::{EndReason, GameResult, LazyFlag, NoChance, Ruleset, Seat, SeatOutcome, Turn};
use std::fmt;
use std::sync::Arc;

/// How a game stands: over (with the reason and the winner, if one) or not (`None`).
type Standing = Option<(EndReason, Option<u8>)>;

/// A game in progress (or over) under a chess-family ruleset.
pub struct ChessGame {
    rules: Arc<ChessRules>,
    pos: Position,
    /// Hashes of the positions since the last capture or pawn move (only kept when the
    /// repetition rule is on), the current one last.
    history: Vec<u64>,
    /// What one scan of `history` found when the current position was recorded: how many
    /// times it has stood (this time included) and how many records back it stood last
    /// (0: never before). The end rules and the search read these, not the history.
    repeats: Repeats,
    stakes: [Option<u32>; MAX_SEATS],
    paid: [u64; MAX_SEATS],
    out: Vec<u8>,
    /// How the game stands as far as known without asking whether the seat to move has a
    /// move (where that matters, `stuck` says).
    over: Standing,
    /// Whether the seat to move has no legal piece move (mate or stalemate with two seats);
    /// known `false` when the standing does not hang on it. Asked only when needed (the
    /// turn, the result, the legal moves), so listing the moves answers it.
    stuck: LazyFlag,
    /// The rules' network's first-layer sums of this position, kept move by move (two seats
    /// on 8x8 with a network; `None` otherwise).
    acc: Option<Accumulator>,
}

/// How often the current position has stood since the last capture or pawn move, and how
/// recently before now.
#[derive(Clone, Copy, Debug, Default)]
struct Repeats {
    count: u32,
    gap: u32,
}

/// The network's first-layer sums of `pos` under `rules`, if they have a network (two seats
/// on 8x8, so the position is narrow).
fn accumulator(rules: &ChessRules, pos: &Position) -> Option<Accumulator> {
    Some(Accumulator::new(rules.network()?, rules, narrow(pos)?))
}

/// The position as an 8x8 one, if it is one.
fn narrow(pos: &Position) -> Option<&Pos<u64>> {
    match &pos.0 {
        Repr::Narrow(p) => Some(p),
        Repr::Wide(_) => None,
    }
}

/// A search clones the game before each move it plays, and the move then records one more
/// position: the copy's history gets room for it, so that record does not reallocate.
impl Clone for ChessGame {
    fn clone(&self) -> Self {
        let mut history = Vec::with_capacity(self.history.len() + 1);
        history.extend_from_slice(&self.history);
        ChessGame {
            rules: Arc::clone(&self.rules),
            pos: self.pos.clone(),
            history,
            repeats: self.repeats,
            stakes: self.stakes,
            paid: self.paid,
            out: self.out.clone(),
            over: self.over,
            stuck: self.stuck.clone(),
            acc: self.acc,
        }
    }
}

impl fmt::Debug for ChessGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ChessGame({self})")
    }
}

impl ChessGame {
    /// A new game with every seat's stake at the ruleset's default.
    pub fn new(rules: &Arc<ChessRules>) -> ChessGame {
        let stake = rules.options.stake;
        let stakes: Vec<u32> = vec![stake; rules.num_seats()];
        Self::with_stakes(rules, &stakes)
    }

    /// A new game with the given stake per seat (four-player games; ignored with two seats).
    /// Where the ruleset opens with bets (Ludii), the stakes are played as those bets.
    pub fn with_stakes(rules: &Arc<ChessRules>, stakes: &[u32]) -> ChessGame {
        let mut g = ChessGame {
            rules: rules.clone(),
            pos: rules.start.clone(),
            history: Vec::new(),
            repeats: Repeats::default(),
            stakes: [None; MAX_SEATS],
            paid: [0; MAX_SEATS],
            out: Vec::new(),
            over: None,
            stuck: LazyFlag::known(false),
            acc: accumulator(rules, &rules.start),
        };
        if rules.num_seats() > 2 {
            if rules.options.bets {
                for s in 0..rules.num_seats() {
                    let amount = stakes
                        .get(s)
                        .copied()
                        .unwrap_or(rules.options.stake)
                        .min(100) as u8;
                    libro_core::Game::play(&mut g, Move::bet(amount));
                }
            } else {
                for s in 0..rules.num_seats() {
                    let stake = stakes.get(s).copied().unwrap_or(rules.options.stake).max(1);
                    g.stakes[s] = Some(stake);
                    if rules.options.payments == Payments::Record {
                        g.paid[s] += u64::from(stake);
                    }
                }
            }
        }
        g.record_position();
        g.settle();
        g
    }

    /// A game whose opening bets are still to be played (Ludii's four-player profile), or
    /// the plain start otherwise.
    pub fn new_unbet(rules: &Arc<ChessRules>) -> ChessGame {
        if !rules.options.bets {
            return Self::new(rules);
        }
        let mut g = ChessGame {
            rules: rules.clone(),
            pos: rules.start.clone(),
            history: Vec::new(),
            repeats: Repeats::default(),
            stakes: [None; MAX_SEATS],
            paid: [0; MAX_SEATS],
            out: Vec::new(),
            over: None,
            stuck: LazyFlag::known(false),
            acc: accumulator(rules, &rules.start),
        };
        g.record_position();
        g.settle();
        g
    }

    /// The ruleset.
    pub fn rules(&self) -> &Arc<ChessRules> {
        &self.rules
    }
    /// The position (a `Copy` value for fast exploration).
    pub fn position(&self) -> &Position {
        &self.pos
    }
    /// Each seat's stake (`None` while its bet is to come).
    pub fn stakes(&self) -> Vec<Option<u32>> {
        self.stakes[..self.rules.num_seats()].to_vec()
    }
    /// What each seat has paid into the pot so far.
    pub fn paid(&self) -> Vec<u64> {
        self.paid[..self.rules.num_seats()].to_vec()
    }
    /// The pot: everything paid in.
    pub fn pot(&self) -> u64 {
        self.paid.iter().sum()
    }
    /// Seats in the order they left the game.
    pub fn eliminated(&self) -> &[u8] {
        &self.out
    }
    /// Each seat's stake and what it has paid, without allocating (for the evaluation).
    pub(crate) fn ledger(&self) -> (&[Option<u32>; MAX_SEATS], &[u64; MAX_SEATS]) {
        (&self.stakes, &self.paid)
    }
    /// Each seat's balance: what it won minus what it paid. The winner takes the pot; a draw
    /// shares it equally among the seats still in.
    pub fn balances(&self) -> Vec<f64> {
        let n = self.rules.num_seats();
        let mut won = vec![0.0; n];
        if let Some((_, winner)) = self.standing() {
            let pot = self.pot() as f64;
            match winner {
                Some(w) => won[w as usize] = pot,
                None => {
                    let survivors: Vec<usize> = (0..n)
                        .filter(|&s| self.pos.is_active(Seat(s as u8)))
                        .collect();
                    for &s in &survivors {
                        won[s] = pot / survivors.len() as f64;
                    }
                }
            }
        }
        (0..n).map(|s| won[s] - self.paid[s] as f64).collect()
    }

    /// Forçado: why the seat to move must capture, naming the victim and the capturer, if a
    /// capture is forced here.
    pub fn forced_capture_explanation(&self) -> Option<String> {
        let mut legal = MoveList::new();
        self.pos.legal_moves(&self.rules, &mut legal);
        with_pos!(self.pos, p => crate::forced::explain(&self.rules, p, &legal))
    }

    /// The move in SAN-like notation for people (`Nf3`, `exd5`, `e8=F`).
    pub fn san(&self, mv: Move) -> String {
        let mut legal = MoveList::new();
        self.pos.legal_moves(&self.rules, &mut legal);
        notation::write_san(&self.rules, &self.pos, &legal, mv)
    }

    /// Perft from this position (see [`crate::perft`]).
    pub fn perft(&self, depth: u32) -> u64 {
        crate::perft(&self.rules, &self.pos, depth)
    }

    /// The network's first-layer sums of this position, if the rules have a network.
    pub(crate) fn accumulator(&self) -> Option<&Accumulator> {
        self.acc.as_ref()
    }

    /// Plays a move and reports what it did (captures, promotion, eliminations).
    pub fn play_move(&mut self, mv: Move) -> Effects {
        let us = self.pos.to_move();
        let n = self.rules.num_seats();
        let record_pay = n > 2 && self.rules.options.payments == Payments::Record;
        let checked_before = if record_pay { self.check_mask() } else { 0 };
        let before = match (&self.acc, narrow(&self.pos)) {
            (Some(_), Some(p)) => Some(net::placement(&self.rules, p)),
            _ => None,
        };
        let fx = self.pos.play(&self.rules, mv);
        if let (Some(before), Some(p), Some(acc), Some(net)) = (
            before,
            narrow(&self.pos),
            &mut self.acc,
            self.rules.network(),
        ) {
            acc.update(net, &before, &net::placement(&self.rules, p));
        }
        if n > 2 {
            if let Some(a) = mv.bet_amount() {
                self.stakes[us.index()] = Some(u32::from(a));
            }
            self.pay(&fx, checked_before);
        }
        if self.pos.halfmove_clock() == 0 {
            self.history.clear();
        }
        self.record_position();
        self.settle();
        fx
    }

    /// Takes seat `s` out of the game as the rules eliminate a seat whose king is taken
    /// (for a front end's ending, such as a seat out of time): its pieces leave the board,
    /// it pays for them, and the turn passes on. Only with more than two seats, for a seat
    /// still in a game not over, after the opening bets; otherwise `false`, nothing changed.
    pub fn drop_seat(&mut self, seat: Seat) -> bool {
        let n = self.rules.num_seats();
        let s = seat.0;
        if n <= 2
            || usize::from(s) >= n
            || !self.pos.is_active(seat)
            || self.pos.bets_pending() > 0
            || self.standing().is_some()
        {
            return false;
        }
        let record_pay = self.rules.options.payments == Payments::Record;
        let checked_before = if record_pay { self.check_mask() } else { 0 };
        let fx = self.pos.drop_seat(&self.rules, s);
        self.pay(&fx, checked_before);
        self.record_position();
        self.settle();
        true
    }

    /// Whether seat `s` could still win by some series of legal moves, as far as material
    /// tells (`true` when unsure). A seat out of the game cannot. With two seats, a seat with
    /// nothing but its king cannot checkmate; it cannot win on a bare-king rule (bared, it
    /// loses or is bared first); and it can win by stalemate only where stalemate wins and
    /// the other side has more than a lone king (a king cannot stalemate a lone king).
    pub fn can_win(&self, seat: Seat) -> bool {
        let r = &*self.rules;
        let n = r.num_seats();
        if seat.index() >= n || !self.pos.is_active(seat) {
            return false;
        }
        if n != 2 || self.pos.piece_count(seat) > 1 || self.pos.king_square(r, seat).is_none() {
            return true;
        }
        match r.options.bare_king {
            BareKing::Loses | BareKing::Shatranj => false,
            BareKing::None => {
                let plain_king = r.royal.is_some_and(|k| r.pieces()[k as usize].betza == "K");
                r.options.stalemate == Stalemate::Win
                    && (self.pos.piece_count(Seat(1 - seat.0)) > 1 || !plain_king)
            }
        }
    }

    /// What seats pay for a move's or a dropped seat's effects (more than two seats):
    /// captured pieces, eliminations, and kings newly in check (`checked_before`: the
    /// seats in check before).
    fn pay(&mut self, fx: &Effects, checked_before: u8) {
        let n = self.rules.num_seats();
        let record_pay = self.rules.options.payments == Payments::Record;
        let r = &*self.rules;
        let stake = |s: u8| u64::from(self.stakes[s as usize].unwrap_or(0));
        if let Some((v, count)) = fx.captured {
            self.paid[v as usize] += stake(v) * u64::from(count);
        }
        let mut mated = 0u8;
        for e in &fx.eliminated {
            self.out.push(e.seat);
            if e.mated {
                mated |= 1 << e.seat;
            }
            match r.options.payments {
                Payments::Record => {
                    if e.mated || e.pieces > 0 {
                        self.paid[e.seat as usize] += stake(e.seat) * u64::from(e.pieces);
                    }
                }
                Payments::Ludii => {
                    if e.mated {
                        self.paid[e.seat as usize] += stake(e.seat);
                    }
                }
            }
        }
        if record_pay {
            let newly = (self.check_mask() | mated) & !checked_before;
            for s in 0..n as u8 {
                if newly >> s & 1 != 0 {
                    self.paid[s as usize] += stake(s);
                }
            }
        } else if let Some(c) = fx.checked {
            if r.options.mate_test == MateTest::AfterMove {
                self.paid[c as usize] += stake(c);
            }
        }
    }

    /// The search's null move: the same position with the other seat to move. Offered with
    /// two seats only, outside Ludii's stacking (its markers are tied to the turn), when the
    /// game is not over, no bet is pending, the mover is neither in check nor bound to
    /// capture (Forçado), and the mover has a piece besides its king and pawns (with fewer,
    /// passing may beat every move: zugzwang). The repetition history is not carried over:
    /// no repetition runs through a pass.
    pub(crate) fn null_move(&self) -> Option<ChessGame> {
        let r = &*self.rules;
        if r.num_seats() != 2
            || r.options.stacking == crate::options::Stacking::Ludii
            || self.over.is_some()
            || self.pos.bets_pending() > 0
        {
            return None;
        }
        let us = self.pos.to_move();
        if !self.pos.has_officer(r, us) || self.pos.in_check(r, us) || self.capture_forced() {
            return None;
        }
        let mut child = ChessGame {
            rules: Arc::clone(&self.rules),
            pos: self.pos.clone(),
            history: Vec::new(),
            repeats: Repeats::default(),
            stakes: self.stakes,
            paid: self.paid,
            out: Vec::new(),
            over: None,
            stuck: LazyFlag::unknown(),
            acc: self.acc,
        };
        child.pos.pass_turn(r);
        child.record_position();
        child.settle();
        Some(child)
    }

    /// Bit set of the seats whose king is in check.
    fn check_mask(&self) -> u8 {
        (0..self.rules.num_seats() as u8)
            .filter(|&s| self.pos.is_active(Seat(s)) && self.pos.in_check(&self.rules, Seat(s)))
            .fold(0, |m, s| m | 1 << s)
    }

    /// Adds the current position to the repetition history (where the rule is on) and
    /// notes, in the same scan, how often and how recently it stood before.
    fn record_position(&mut self) {
        self.repeats = Repeats::default();
        if self.rules.options.repetition > 0 {
            let current = self.pos.hash();
            for (back, &h) in self.history.iter().rev().enumerate() {
                if h == current {
                    if self.repeats.count == 0 {
                        self.repeats.gap = back as u32 + 1;
                    }
                    self.repeats.count += 1;
                }
            }
            self.repeats.count += 1;
            self.history.push(current);
        }
    }

    /// Works the standing out afresh after a change of position: decided now unless it
    /// hangs only on whether the seat to move has a move, which is left until asked.
    fn settle(&mut self) {
        (self.over, self.stuck) = match self.evaluate(None) {
            Some(standing) => (standing, LazyFlag::known(false)),
            None => (None, LazyFlag::unknown()),
        };
    }

    /// How the game stands, asking whether the seat to move has a move if that is needed and
    /// not known yet.
    fn standing(&self) -> Standing {
        if self.stuck.get_or(|| !self.pos.has_piece_move(&self.rules)) {
            self.evaluate(Some(false))
                .expect("with the moves known the standing is decided")
        } else {
            self.over
        }
    }

    /// How the game stands, given whether the seat to move has a legal piece move (with two
    /// seats, none means mate or stalemate). `None` when the answer hangs on that and
    /// `has_move` does not say; when another end rule also holds, the move test is made
    /// here, since mate and stalemate come before it.
    fn evaluate(&self, has_move: Option<bool>) -> Option<Standing> {
        let r = &self.rules;
        let pos = &self.pos;
        let o = &r.options;
        if pos.bets_pending() > 0 {
            return Some(None);
        }
        if r.num_seats() == 2 {
            let us = pos.to_move();
            if let Some(w) = pos.bare_king_winner(r) {
                return Some(Some((EndReason::BareKing, Some(w))));
            }
            let later = self.later_end();
            let has_move = match has_move {
                Some(h) => h,
                None if later.is_none() => return None,
                None => pos.has_piece_move(r),
            };
            if !has_move {
                if pos.in_check(r, us) {
                    return Some(Some((EndReason::Checkmate, Some(1 - us.0))));
                }
                match o.stalemate {
                    Stalemate::Win => return Some(Some((EndReason::Stalemate, Some(1 - us.0)))),
                    Stalemate::Draw => return Some(Some((EndReason::Stalemate, None))),
                    Stalemate::Pass => {}
                }
            }
            return Some(later);
        } else if pos.active_count() <= 1 {
            let winner = (0..r.num_seats() as u8).find(|&s| pos.is_active(Seat(s)));
            return Some(Some((EndReason::Elimination, winner)));
        }
        Some(self.later_end())
    }

    /// The end rules that come after mate and stalemate: everyone passed, repetition, no
    /// progress, the move limit.
    fn later_end(&self) -> Standing {
        let r = &self.rules;
        let pos = &self.pos;
        let o = &r.options;
        if o.all_pass_draw && u32::from(pos.passes()) >= pos.active_count() {
            return Some((EndReason::AllPassed, None));
        }
        if o.repetition > 0 && self.repeats.count >= o.repetition {
            return Some((EndReason::Repetition, None));
        }
        if o.no_progress_plies > 0 && u32::from(pos.halfmove_clock()) >= o.no_progress_plies {
            return Some((EndReason::NoProgress, None));
        }
        if o.max_plies > 0 && pos.ply() >= o.max_plies {
            return Some((EndReason::MoveLimit, None));
        }
        None
    }

    fn extras(&self) -> Extras {
        Extras {
            stakes: self.stakes,
            paid: self.paid,
            out: self.out.clone(),
            over: match self.standing() {
                Some((EndReason::Repetition, _)) => Some("repetition".into()),
                _ => None,
            },
        }
    }

    /// Whether the game ended by a draw a referee outside libro may pass over: repetition,
    /// or too many plies without a capture or pawn move.
    pub fn is_refereed_draw(&self) -> bool {
        matches!(
            self.standing(),
            Some((EndReason::Repetition | EndReason::NoProgress, _))
        )
    }

    /// Whether the position on the board stood before, fewer than `plies` plies ago and
    /// since the last capture or pawn move (only seen where the repetition rule is on).
    pub fn repeats_within(&self, plies: usize) -> bool {
        self.repeats.gap > 0 && (self.repeats.gap as usize) < plies
    }

    /// Forgets the positions seen so far, so that play goes on past a repetition: the
    /// current position counts once. For front ends where a referee outside libro decides
    /// when a game is drawn (UCI); later repetitions are still seen.
    pub fn forget_repetitions(&mut self) {
        self.history.clear();
        self.record_position();
        self.settle();
    }

    /// Plays on past the draws a referee outside libro passed over (UCI): forgets the
    /// positions seen so far, as [`Self::forget_repetitions`], and, where the plies without
    /// progress have reached the rules' count, counts them again from here. Later draws are
    /// still seen, so the search still steers by both rules.
    pub fn play_on(&mut self) {
        let limit = self.rules.options.no_progress_plies;
        if limit > 0 && u32::from(self.pos.halfmove_clock()) >= limit {
            self.pos.restart_progress_count();
        }
        self.forget_repetitions();
    }

    /// Reads a position string (see [`crate::notation`]).
    pub fn from_position(rules: &Arc<ChessRules>, text: &str) -> Result<ChessGame, PositionError> {
        let (pos, extras) = notation::parse_position(rules, text)?;
        let mut g = ChessGame {
            rules: rules.clone(),
            acc: accumulator(rules, &pos),
            pos,
            history: Vec::new(),
            repeats: Repeats::default(),
            stakes: extras.stakes,
            paid: extras.paid,
            out: extras.out,
            over: None,
            stuck: LazyFlag::known(false),
        };
        if rules.num_seats() == 2 {
            g.stakes = [None; MAX_SEATS];
        }
        g.record_position();
        if extras.over.is_some() {
            g.over = Some((EndReason::Repetition, None));
        } else {
            g.settle();
        }
        Ok(g)
    }

    /// The result with ranks: the winner first, seats still in sharing the top places in a
    /// draw, and the others by the order they left (first out = last place).
    fn make_result(&self, reason: EndReason, winner: Option<u8>) -> GameResult {
        let n = self.rules.num_seats();
        let mut seats = vec![
            SeatOutcome {
                rank: n as f32,
                score: 0.0
            };
            n
        ];
        for (i, &s) in self.out.iter().enumerate() {
            seats[s as usize].rank = (n - i) as f32;
        }
        match winner {
            Some(w) => {
                if n == 2 {
                    return GameResult::win(2, Seat(w), reason);
                }
                seats[w as usize] = SeatOutcome {
                    rank: 1.0,
                    score: 1.0,
                };
            }
            None => {
                let survivors: Vec<usize> = (0..n)
                    .filter(|&s| self.pos.is_active(Seat(s as u8)))
                    .collect();
                let k = survivors.len().max(1);
                for &s in &survivors {
                    seats[s] = SeatOutcome {
                        rank: (1 + k) as f32 / 2.0,
                        score: 1.0 / k as f32,
                    };
                }
            }
        }
        GameResult { reason, seats }
    }
}

impl fmt::Display for ChessGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        notation::write_position(&self.rules, &self.pos, &self.extras(), f)
    }
}

impl libro_core::Game for ChessGame {
    type Move = Move;
    type ChanceOutcome = NoChance;
    type MoveList = MoveList;
    type MoveError = MoveError;

    fn num_seats(&self) -> usize {
        self.rules.num_seats()
    }

    fn turn(&self) -> Turn {
        if self.standing().is_some() {
            Turn::Over
        } else {
            Turn::Seat(self.pos.to_move())
        }
    }

    /// When the standing is not known yet, the list itself tells whether the seat to move
    /// has a move.
    fn legal_moves(&self, out: &mut MoveList) {
        if self.stuck.get().is_none() {
            self.pos.legal_moves(&self.rules, out);
            // No move, or only the pass a seat without one may make.
            self.stuck.set(out.first().is_none_or(|m| m.is_pass()));
            if self.standing().is_some() {
                out.clear();
            }
        } else if self.standing().is_some() {
            out.clear();
        } else {
            self.pos.legal_moves(&self.rules, out);
        }
    }

    fn play(&mut self, mv: Move) {
        self.play_move(mv);
    }

    fn chance_outcomes(&self, out: &mut Vec<libro_core::Chance<NoChance>>) {
        out.clear();
    }

    fn sample_chance(&self) -> NoChance {
        unreachable!("chess has no chance events")
    }

    fn apply_chance(&mut self, outcome: NoChance) {
        match outcome {}
    }

    fn result(&self) -> Option<GameResult> {
        self.standing()
            .map(|(reason, winner)| self.make_result(reason, winner))
    }

    fn hash(&self) -> u64 {
        self.pos.hash()
    }

    fn recompute_hash(&self) -> u64 {
        self.pos.compute_hash(&self.rules)
    }

    fn ply(&self) -> u32 {
        self.pos.ply()
    }

    fn write_move(&self, mv: Move, f: &mut dyn fmt::Write) -> fmt::Result {
        let mut legal = MoveList::new();
        if mv.is_board_move()
            && (self.pos.is_shared(mv.from())
                || self.rules.options.stacking == crate::options::Stacking::Ludii)
        {
            self.pos.generate(&self.rules, &mut legal);
        }
        notation::write_coordinate(&self.rules, &self.pos, &legal, mv, f)
    }

    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        if self.standing().is_some() {
            return Err(MoveError::GameOver);
        }
        let mut legal = MoveList::new();
        self.pos.legal_moves(&self.rules, &mut legal);
        let mut all = MoveList::new();
        self.pos.generate(&self.rules, &mut all);
        with_pos!(self.pos, p => notation::match_move(&self.rules, p, &legal, &all, text))
    }
}

impl Ruleset for ChessRules {
    type Game = ChessGame;
    type PositionError = PositionError;

    fn name(&self) -> &str {
        &self.name
    }

    fn seat_names(&self) -> Vec<String> {
        self.seats.iter().map(|s| s.name.clone()).collect()
    }

    /// The start: with opening bets (Ludii's four-player profile) the bets are still to come.
    fn new_game(self: &Arc<Self>, _seed: u64) -> ChessGame {
        ChessGame::new_unbet(self)
    }

    fn parse_position(self: &Arc<Self>, text: &str) -> Result<ChessGame, PositionError> {
        ChessGame::from_position(self, text)
    }
}
