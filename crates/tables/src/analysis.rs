//! Analysis of a position for the player on roll: the distinct plays of a roll, and the
//! chance that a roll is a falla.

use crate::dice::Dice;
use crate::game::{Ending, Phase, TablesGame};
use crate::movegen::{can_play_all, generate_plays};
use crate::notation::Play;
use libro_core::Seat;

/// Why a position cannot be analysed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AnalysisError {
    #[error("no one is on roll: {0}")]
    NoOneOnRoll(&'static str),
    #[error(transparent)]
    Dice(#[from] crate::dice::DiceError),
}

/// The distinct plays of one roll for the player on roll.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RollPlays {
    pub seat: Seat,
    pub dice: Dice,
    /// One play per resulting position: under the falla rule, the plays using every die
    /// (empty for a falla); otherwise the plays using as many dice as possible.
    pub plays: Vec<Play>,
    /// Whether the dice cannot all be played (under the falla rule, the player loses).
    pub falla: bool,
}

/// One roll of the table of all rolls.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct RollSummary {
    pub dice: Dice,
    /// Out of [`FallaOdds::total`].
    pub weight: u32,
    /// Distinct plays (see [`RollPlays::plays`]).
    pub plays: usize,
    /// Whether the dice cannot all be played.
    pub falla: bool,
}

/// Every roll for the player on roll, and the chance of a falla.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FallaOdds {
    pub seat: Seat,
    pub rolls: Vec<RollSummary>,
    /// Summed weight of the rolls that are fallas.
    pub falla_weight: u32,
    /// All rolls' weight (216 for three six-sided dice).
    pub total: u32,
}

impl FallaOdds {
    /// The probability that the player on roll cannot play all its dice.
    pub fn probability(&self) -> f64 {
        f64::from(self.falla_weight) / f64::from(self.total)
    }
}

impl TablesGame {
    /// The seat whose rolls are analysed: the seat to roll or to move, or the one that just
    /// fell in a falla (the board as it stood).
    pub fn analysed_seat(&self) -> Result<Seat, AnalysisError> {
        match self.phase() {
            Phase::Roll(s) | Phase::Move(s, _) => Ok(s),
            Phase::Over(Ending::Falla { loser, .. }) => Ok(loser),
            Phase::RollOff => Err(AnalysisError::NoOneOnRoll(
                "the opening roll-off is pending",
            )),
            Phase::Over(Ending::BoreOff { .. }) => Err(AnalysisError::NoOneOnRoll(
                "a player has borne off every checker",
            )),
        }
    }

    /// The distinct plays of `dice` for the seat on roll.
    pub fn plays_for(&self, dice: Dice) -> Result<RollPlays, AnalysisError> {
        let seat = self.analysed_seat()?;
        let (count, sides) = self.rules().dice();
        let dice = dice.check(count, sides)?;
        let mut plays = Vec::new();
        generate_plays(self.rules(), self.board(), seat.index(), dice, &mut plays);
        let falla = !can_play_all(self.rules(), self.board(), seat.index(), dice);
        Ok(RollPlays {
            seat,
            dice,
            plays,
            falla,
        })
    }

    /// Every roll for the seat on roll, with its weight and number of distinct plays, and the
    /// total weight of the fallas.
    pub fn falla_odds(&self) -> Result<FallaOdds, AnalysisError> {
        let seat = self.analysed_seat()?;
        let mut plays = Vec::new();
        let mut rolls = Vec::new();
        let mut falla_weight = 0;
        let mut total = 0;
        for roll in self.rules().rolls() {
            generate_plays(
                self.rules(),
                self.board(),
                seat.index(),
                roll.outcome,
                &mut plays,
            );
            let falla = !can_play_all(self.rules(), self.board(), seat.index(), roll.outcome);
            if falla {
                falla_weight += roll.weight;
            }
            total = roll.total;
            rolls.push(RollSummary {
                dice: roll.outcome,
                weight: roll.weight,
                plays: plays.len(),
                falla,
            });
        }
        Ok(FallaOdds {
            seat,
            rolls,
            falla_weight,
            total,
        })
    }
}
