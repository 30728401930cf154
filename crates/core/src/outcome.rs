//! How a game ended: the reason, and each seat's rank and score.

use crate::Seat;
use std::fmt;

/// Why a game is over.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum EndReason {
    /// A king in check with no legal move.
    Checkmate,
    /// A side with no legal move, not in check (a win, a loss or, where it passes, no end at all).
    Stalemate,
    /// A side left with nothing but its king.
    BareKing,
    /// A tables player could not play all its dice.
    Falla,
    /// A tables player bore off its last checker.
    BoreOff,
    /// Every seat but one was eliminated (four-player chess).
    Elimination,
    /// The same position occurred the set number of times.
    Repetition,
    /// The set number of plies passed without a capture or a pawn move.
    NoProgress,
    /// The ruleset's ply limit was reached.
    MoveLimit,
    /// Every seat passed in a row (Ludii's encodings).
    AllPassed,
    /// A seat resigned (a front end's ending, not the rules').
    Resignation,
    /// The seats still playing agreed to a draw (a front end's ending).
    Agreement,
    /// A seat's clock ran out (a front end's ending: the rules have no clock).
    Time,
    /// A seat's clock ran out when no other seat could win any more: a draw.
    TimeVsInsufficient,
}

impl EndReason {
    /// The reason in the games' own words, as printed to users.
    pub fn describe(self) -> &'static str {
        match self {
            EndReason::Checkmate => "checkmate",
            EndReason::Stalemate => "stalemate",
            EndReason::BareKing => "bare king",
            EndReason::Falla => "falla: not all dice could be played",
            EndReason::BoreOff => "bore off all checkers",
            EndReason::Elimination => "all other seats eliminated",
            EndReason::Repetition => "repetition",
            EndReason::NoProgress => "no capture or pawn move for too long",
            EndReason::MoveLimit => "move limit reached",
            EndReason::AllPassed => "every seat passed",
            EndReason::Resignation => "resignation",
            EndReason::Agreement => "draw by agreement",
            EndReason::Time => "out of time",
            EndReason::TimeVsInsufficient => "out of time, but no other side could win",
        }
    }

    /// The kebab-case name used in machine-readable output.
    pub fn name(self) -> &'static str {
        match self {
            EndReason::Checkmate => "checkmate",
            EndReason::Stalemate => "stalemate",
            EndReason::BareKing => "bare-king",
            EndReason::Falla => "falla",
            EndReason::BoreOff => "bore-off",
            EndReason::Elimination => "elimination",
            EndReason::Repetition => "repetition",
            EndReason::NoProgress => "no-progress",
            EndReason::MoveLimit => "move-limit",
            EndReason::AllPassed => "all-passed",
            EndReason::Resignation => "resignation",
            EndReason::Agreement => "agreement",
            EndReason::Time => "time",
            EndReason::TimeVsInsufficient => "time-vs-insufficient",
        }
    }
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.describe())
    }
}

/// One seat's standing at the end of a game.
#[derive(Copy, Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SeatOutcome {
    /// 1 is best; seats that tie share the mean of their places (two drawn seats: 1.5 each).
    pub rank: f32,
    /// The game score: 1 for a win, 0 for a loss, shares for draws; summing to 1 over the seats.
    pub score: f32,
}

/// The end of a game: why, and where every seat stands.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct GameResult {
    pub reason: EndReason,
    /// One entry per seat, in seat order.
    pub seats: Vec<SeatOutcome>,
}

impl GameResult {
    /// A result where `winner` takes everything and every other seat shares the last places.
    pub fn win(num_seats: usize, winner: Seat, reason: EndReason) -> Self {
        let loser_rank = (2 + num_seats) as f32 / 2.0;
        let seats = (0..num_seats)
            .map(|i| {
                if i == winner.index() {
                    SeatOutcome {
                        rank: 1.0,
                        score: 1.0,
                    }
                } else {
                    SeatOutcome {
                        rank: loser_rank,
                        score: 0.0,
                    }
                }
            })
            .collect();
        GameResult { reason, seats }
    }

    /// A draw shared equally among `survivors`; the others keep the given ranks (their order
    /// of elimination) and score nothing.
    pub fn draw(num_seats: usize, survivors: &[Seat], reason: EndReason) -> Self {
        let n = survivors.len().max(1);
        let shared_rank = (1 + n) as f32 / 2.0;
        let mut seats = vec![
            SeatOutcome {
                rank: num_seats as f32,
                score: 0.0
            };
            num_seats
        ];
        for s in survivors {
            seats[s.index()] = SeatOutcome {
                rank: shared_rank,
                score: 1.0 / n as f32,
            };
        }
        GameResult { reason, seats }
    }

    /// The single winner, if there is one.
    pub fn winner(&self) -> Option<Seat> {
        let winners: Vec<usize> = (0..self.seats.len())
            .filter(|&i| self.seats[i].rank == 1.0)
            .collect();
        match winners.as_slice() {
            [w] => Some(Seat(*w as u8)),
            _ => None,
        }
    }

    /// Whether no single seat won.
    pub fn is_draw(&self) -> bool {
        self.winner().is_none()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_win_gives_the_winner_everything() {
        let r = GameResult::win(2, Seat(1), EndReason::Checkmate);
        assert_eq!(
            r.seats[1],
            SeatOutcome {
                rank: 1.0,
                score: 1.0
            }
        );
        assert_eq!(
            r.seats[0],
            SeatOutcome {
                rank: 2.0,
                score: 0.0
            }
        );
        assert_eq!(r.winner(), Some(Seat(1)));
        // Four seats, one winner: the other three share places 2..4, rank 3.
        let r = GameResult::win(4, Seat(2), EndReason::Elimination);
        assert_eq!(r.seats[0].rank, 3.0);
        assert!(!r.is_draw());
    }

    #[test]
    fn a_draw_shares_rank_and_score_among_survivors() {
        let r = GameResult::draw(2, &[Seat(0), Seat(1)], EndReason::Repetition);
        assert_eq!(
            r.seats[0],
            SeatOutcome {
                rank: 1.5,
                score: 0.5
            }
        );
        assert!(r.is_draw());
        // Ludii's four-seat turn-limit draws: two survivors share places 1 and 2.
        let r = GameResult::draw(4, &[Seat(1), Seat(2)], EndReason::MoveLimit);
        assert_eq!(
            r.seats[1],
            SeatOutcome {
                rank: 1.5,
                score: 0.5
            }
        );
        assert_eq!(r.seats[0].score, 0.0);
    }
}
