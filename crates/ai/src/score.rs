//! Search scores: centi-units for evaluations, mate distances for won and lost games.

use libro_core::{GameResult, Seat};
use std::fmt;

/// The score of a game won at the root; a win `p` plies away scores `MATE - p`.
pub const MATE: i32 = 1_000_000;
/// The deepest line the search follows, in plies from the root.
pub const MAX_PLY: usize = 128;
/// Scores at least this large (in either direction) are wins or losses at a known distance.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
/// Beyond every score: the open window's edges.
pub(crate) const INF: i32 = MATE + 1;

/// A score as shown to users and in UCI `info` lines, from the seat to move's side.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Score {
    /// An evaluation in centi-units (a pawn is about 100).
    Cp(i32),
    /// A forced result: `Mate(n)` wins in `n` moves of the side to move; `Mate(-n)` loses
    /// in `n` (moves counted as in UCI: two plies make a move; chance events do not count,
    /// and a win through chance events is a mate only if every outcome wins).
    Mate(i32),
}

impl Score {
    /// Reads an internal score (from the side to move's view, wins near [`MATE`]).
    pub fn from_internal(v: i32) -> Score {
        if v >= MATE_BOUND {
            Score::Mate((MATE - v + 1) / 2)
        } else if v <= -MATE_BOUND {
            Score::Mate(-((MATE + v + 1) / 2))
        } else {
            Score::Cp(v)
        }
    }

    /// Whether this is a forced win or loss.
    pub fn is_mate(self) -> bool {
        matches!(self, Score::Mate(_))
    }
}

impl fmt::Display for Score {
    /// The UCI form: `cp 34` or `mate -2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Cp(v) => write!(f, "cp {v}"),
            Score::Mate(n) => write!(f, "mate {n}"),
        }
    }
}

/// The value of a finished game for `seat`, in [-1, 1] by its place: first is 1, last is
/// -1, tied places share (a two-seat draw is 0). A one-seat game uses its score instead.
pub(crate) fn place_utility(result: &GameResult, seat: Seat) -> f64 {
    let n = result.seats.len();
    let Some(outcome) = result.seats.get(seat.index()) else {
        return 0.0;
    };
    if n <= 1 {
        return 2.0 * f64::from(outcome.score) - 1.0;
    }
    1.0 - 2.0 * (f64::from(outcome.rank) - 1.0) / (n - 1) as f64
}

/// The span of a shared draw's value, in centi-units: a seat that shares a drawn pot
/// with fewer others is a little better off, but never by as much as a live position
/// (the evaluations' contempt); on the mate scale, a draw among two survivors of four
/// would outrank every position still in play and the search would repeat into it.
pub const DRAW_SPAN: f64 = 50.0;

/// The search value of a game finished `ply` plies from the root, for `seat`: its place
/// utility times the mate score, so faster wins and slower losses are preferred — except
/// for a seat sharing a draw, whose place utility is scaled by [`DRAW_SPAN`] only.
pub(crate) fn terminal_value(result: &GameResult, seat: Seat, ply: usize) -> i32 {
    let u = place_utility(result, seat);
    let sharing = result
        .seats
        .get(seat.index())
        .is_some_and(|o| o.score > 0.0 && o.score < 1.0);
    if sharing {
        (u * DRAW_SPAN).round() as i32
    } else {
        (u * f64::from(MATE - ply as i32)).round() as i32
    }
}

/// A mate score stored in the transposition table counts plies from the stored node, not
/// from the root: these convert between the two.
pub(crate) fn to_table(v: i32, ply: usize) -> i32 {
    if v >= MATE_BOUND {
        v + ply as i32
    } else if v <= -MATE_BOUND {
        v - ply as i32
    } else {
        v
    }
}

pub(crate) fn from_table(v: i32, ply: usize) -> i32 {
    if v >= MATE_BOUND {
        v - ply as i32
    } else if v <= -MATE_BOUND {
        v + ply as i32
    } else {
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use libro_core::{EndReason, SeatOutcome};

    #[test]
    fn mate_distances_count_moves_of_the_side_to_move() {
        // Winning on our first move (ply 1) is mate in 1; on our third move (ply 5), in 3.
        assert_eq!(Score::from_internal(MATE - 1), Score::Mate(1));
        assert_eq!(Score::from_internal(MATE - 5), Score::Mate(3));
        // Mated after the opponent's first reply (ply 2): mate -1; after ply 6: mate -3.
        assert_eq!(Score::from_internal(-(MATE - 2)), Score::Mate(-1));
        assert_eq!(Score::from_internal(-(MATE - 6)), Score::Mate(-3));
        assert_eq!(Score::from_internal(250), Score::Cp(250));
        assert_eq!(Score::Mate(-3).to_string(), "mate -3");
        assert_eq!(Score::Cp(-40).to_string(), "cp -40");
    }

    #[test]
    fn places_map_to_utilities() {
        let r = GameResult::win(2, Seat(1), EndReason::Checkmate);
        assert_eq!(place_utility(&r, Seat(1)), 1.0);
        assert_eq!(place_utility(&r, Seat(0)), -1.0);
        let d = GameResult::draw(2, &[Seat(0), Seat(1)], EndReason::Repetition);
        assert_eq!(place_utility(&d, Seat(0)), 0.0);
        // Four seats, one winner: the three losers share places 2..4 (rank 3): 1 - 2*2/3.
        let r = GameResult::win(4, Seat(2), EndReason::Elimination);
        assert!((place_utility(&r, Seat(0)) + 1.0 / 3.0).abs() < 1e-9);
        assert_eq!(terminal_value(&r, Seat(2), 4), MATE - 4);
    }

    #[test]
    fn a_shared_draw_is_worth_less_than_contempt_but_an_elimination_is_lost() {
        // Four seats, a draw by repetition after seat 3 was eliminated: seats 0-2 share the
        // pot (rank 2 each, utility 1/3), seat 3 is last (utility -1).
        let share = SeatOutcome {
            rank: 2.0,
            score: 1.0 / 3.0,
        };
        let r = GameResult {
            reason: EndReason::Repetition,
            seats: vec![
                share,
                share,
                share,
                SeatOutcome {
                    rank: 4.0,
                    score: 0.0,
                },
            ],
        };
        let v = terminal_value(&r, Seat(0), 3);
        assert!(v > 0 && f64::from(v) < DRAW_SPAN, "{v}");
        assert_eq!(terminal_value(&r, Seat(3), 3), -(MATE - 3));
        // A two-seat draw is worth nothing to either side.
        let draw = GameResult {
            reason: EndReason::Repetition,
            seats: vec![
                SeatOutcome {
                    rank: 1.5,
                    score: 0.5
                };
                2
            ],
        };
        assert_eq!(terminal_value(&draw, Seat(1), 7), 0);
    }

    #[test]
    fn table_scores_round_trip_through_the_ply() {
        for v in [MATE - 3, -(MATE - 7), 123, -MATE_BOUND + 5] {
            assert_eq!(from_table(to_table(v, 9), 9), v);
        }
        // A mate 3 plies below a node at ply 4 is stored as 3 plies from that node.
        assert_eq!(to_table(MATE - 7, 4), MATE - 3);
    }
}
