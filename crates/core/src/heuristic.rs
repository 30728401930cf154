//! What a game tells the search beyond its rules: how good a position looks and which moves
//! are sharp. A family implements [`Heuristic`] for its game type; `libro-ai` then gives
//! every ruleset of that family all its players (alpha-beta, multi-player, chance search).

use crate::{Game, MoveBuffer, Seat};

/// The largest static value [`Heuristic::evaluate`] should return, in either direction.
/// The search clamps to it, keeping every evaluation below the scores of finished games.
pub const EVAL_LIMIT: i32 = 100_000;

/// The game knowledge the search uses: a static evaluation and the tactical moves.
///
/// Units are centi-units: a pawn is about 100 in chess; a tables game should scale its
/// equity the same way (a game won outright is worth far more than any evaluation; the
/// search scores finished games itself from [`Game::result`]).
///
/// How the searches read it:
/// - **two seats** (alpha-beta): `evaluate(Seat(0))`, negated for seat 1, so a two-seat
///   evaluation should be zero-sum (`evaluate(a) == -evaluate(b)`);
/// - **more seats**, paranoid: `evaluate(root)` where `root` is the seat choosing the move;
///   max^n: [`Heuristic::evaluate_all`];
/// - **quiescence**: at the depth horizon only [`Heuristic::tactical_moves`] are searched
///   (all legal moves when [`Heuristic::in_check`]), so the horizon falls on quiet positions;
/// - **move ordering**: tactical moves first, by [`Heuristic::order_score`].
///
/// `evaluate` is called on positions where a seat or chance is to move, never on finished
/// games. At a chance turn (dice not yet rolled) it should value the position over all the
/// rolls to come; at a seat's turn the roll is known and may be used.
pub trait Heuristic: Game {
    /// Static value of the position for `seat` (higher is better for it), in centi-units
    /// within ±[`EVAL_LIMIT`]. For several seats it says how well `seat` stands against
    /// the others (its own material less theirs, say); an eliminated seat should get less
    /// than any live one.
    fn evaluate(&self, seat: Seat) -> i32;

    /// The value of a won game on the evaluation's own scale, where the search averages
    /// results with evaluations over chance events (in a dice race, a 1-in-216 loss must
    /// weigh 1/216 of a game, not of a mate score). `None`: results outrank every
    /// evaluation (mate scores), as in chess.
    fn win_value(&self) -> Option<i32> {
        None
    }

    /// The material balance alone for `seat` (what a capture or a hit changes at once), in
    /// the units of `evaluate`: what the `greedy` baseline maximises. Defaults to `evaluate`.
    fn material(&self, seat: Seat) -> i32 {
        self.evaluate(seat)
    }

    /// Writes `evaluate` for every seat into `out[..num_seats]` (max^n needs all of them).
    /// Override when the values share work (one pass over the board for all seats).
    fn evaluate_all(&self, out: &mut [i32]) {
        for (i, v) in out.iter_mut().enumerate().take(self.num_seats()) {
            *v = self.evaluate(Seat(i as u8));
        }
    }

    /// Whether a legal move of the seat to move is tactical: it changes the material or the
    /// race at once (a capture, a promotion, a hit), so a static value before it is not to
    /// be trusted. Tactical moves are searched in quiescence and ordered first.
    fn is_tactical(&self, mv: Self::Move) -> bool;

    /// Move-ordering score of a legal move, higher first (MVV-LVA for captures, a gain in
    /// the race for tables). Only compared between moves of the same position.
    fn order_score(&self, _mv: Self::Move) -> i32 {
        0
    }

    /// Writes the tactical legal moves into `out` (clearing it first). The default filters
    /// [`Game::legal_moves`] by [`Heuristic::is_tactical`]; a family that can generate
    /// captures directly should override it: quiescence calls it at every horizon node.
    fn tactical_moves(&self, out: &mut Self::MoveList) {
        let mut all = Self::MoveList::default();
        self.legal_moves(&mut all);
        out.clear();
        for &mv in all.as_slice() {
            if self.is_tactical(mv) {
                out.push(mv);
            }
        }
    }

    /// Whether the seat to move is in check (or another threat a static value cannot
    /// stand on). Quiescence then searches every legal move instead of standing pat, and
    /// the main search extends the line by a ply, so mates at the horizon are seen.
    fn in_check(&self) -> bool {
        false
    }

    /// Whether playing the legal move `mv` leaves the next seat in check (as
    /// [`Heuristic::in_check`] says after it). The search asks it of each move it may prune
    /// before playing it, so a family that can tell without playing the whole move (no
    /// history to copy, no end rules to settle) should override it.
    fn gives_check(&self, mv: Self::Move) -> bool {
        let mut child = self.clone();
        child.play(mv);
        child.in_check()
    }

    /// The position with the seat to move passing its turn (a "null move"), where that is a
    /// sound test of a position's strength: two sides, the mover not in check nor bound to
    /// move, and with pieces enough that passing is rarely better than moving (zugzwang).
    /// The search tries it to prune lines in which even a free move does not save the
    /// opponent. `None` (the default): the game offers no such test.
    fn null_move(&self) -> Option<Self>
    where
        Self: Sized,
    {
        None
    }

    /// What a tactical move nets once the exchange it starts on its square is played out
    /// (static exchange evaluation), in the evaluation's units: negative when the mover
    /// loses material by it. The search orders such moves late and leaves them out of
    /// quiescence. `None` (the default): not known.
    fn exchange_gain(&self, _mv: Self::Move) -> Option<i32> {
        None
    }

    /// As [`Heuristic::exchange_gain`], for any move: what the mover nets once the exchange
    /// on the square it lands on is played out (a quiet move onto an attacked square loses
    /// the piece). `None` (the default): not known.
    fn landing_exchange(&self, _mv: Self::Move) -> Option<i32> {
        None
    }

    /// How much the static value may move in one ply of quiet play, in its own units, where
    /// the evaluation is steady enough for the search to prune on it (futility, reverse
    /// futility and late-move pruning near the horizon). `None` (the default): every move
    /// is searched to full depth's horizon, as exact games and chance games need.
    fn futility_margin(&self) -> Option<i32> {
        None
    }

    /// Whether the position stood before on the line that reached it, fewer than `plies`
    /// plies ago, in a game of two seats whose rules make repetition a draw. The search
    /// scores such a position a draw at once, as the rules would once it repeats again:
    /// a line that only goes round in a circle gains nothing. `false` (the default): no
    /// such rule.
    fn repeats_within(&self, _plies: usize) -> bool {
        false
    }

    /// Hashes of the parts of the position whose misjudgements the static value repeats
    /// from one position to the next (in chess: where the pawns stand, and each seat's
    /// pieces): the search learns the mean error per key and corrects the static value by
    /// it before pruning on it. `None` (the default): no correction.
    fn correction_keys(&self) -> Option<CorrectionKeys> {
        None
    }
}

/// What the correction history learns its means under (see
/// [`Heuristic::correction_keys`]): its errors follow the structure most and each side's
/// pieces less, and the search weighs the means so.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct CorrectionKeys {
    /// The slow-changing frame of the position, both sides' (in chess, the pawns).
    pub structure: u64,
    /// Each of the two sides' other men (in chess, each seat's pieces, king included).
    pub pieces: [u64; 2],
}
