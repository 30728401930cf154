//! The rule options of the chess family: every switch RULES.md names, with its allowed values,
//! a one-line explanation, and (once a ruleset is loaded) where its value comes from.

use std::borrow::Cow;
use std::fmt;

libro_core::option_choice! {
    /// How the original fers may leap on its first move.
    pub enum FersLeap {
        /// Two squares straight or diagonally (the manuscript, seed 004).
        StraightOrDiagonal = "straight-or-diagonal",
        /// Two squares diagonally only (Ludii).
        Diagonal = "diagonal",
        /// No leap.
        None = "none",
    }
}

libro_core::option_choice! {
    /// When a pawn on its starting square may advance two squares.
    pub enum DoubleStep {
        /// Only while no capture has yet been made in the game (seed 004, Ludii).
        UntilFirstCapture = "until-first-capture",
        /// On any pawn's first move (Fairy-Stockfish's encoding).
        FirstMove = "first-move",
        /// Never.
        None = "none",
    }
}

libro_core::option_choice! {
    /// When a pawn reaching its last line becomes a fers.
    pub enum Promotion {
        Always = "always",
        /// Only if its side has no fers on the board; otherwise it stays, immobile (Ludii).
        OnlyWithoutFers = "only-without-fers",
    }
}

libro_core::option_choice! {
    /// What a stalemate (no legal move, not in check) does.
    pub enum Stalemate {
        /// The side that caused it wins (the stalemated side loses, as in shatranj).
        Win = "win",
        /// The stalemated side passes (Ludii; four-player games).
        Pass = "pass",
        /// A draw.
        Draw = "draw",
    }
}

libro_core::option_choice! {
    /// Bare-king endings.
    pub enum BareKing {
        None = "none",
        /// A side left with nothing but its king after the opponent's move has lost (Short
        /// Assize).
        Loses = "loses",
        /// Shatranj: bared against three or more pieces loses at once; against two, one reply.
        Shatranj = "shatranj",
    }
}

libro_core::option_choice! {
    /// Forçado's forced capture.
    pub enum ForcedCapture {
        None = "none",
        /// If any legal move captures, the player must capture (any capture).
        Any = "any",
        /// Must capture the most powerful victim type, with the least powerful capturer type.
        Priority = "priority",
    }
}

libro_core::option_choice! {
    /// Whose pieces a seat may capture (more than two seats).
    pub enum CaptureRule {
        /// Only the next active seat in turn order (the right-hand neighbour).
        RightNeighbour = "right-neighbour",
        /// Any other seat.
        Any = "any",
    }
}

libro_core::option_choice! {
    /// How the pot is paid in the four-player game.
    pub enum Payments {
        /// RULES.md: stake at the start, per piece lost, per check received, per piece left
        /// when mated.
        Record = "record",
        /// Ludii: no opening payment; per piece lost; the mover's target pays once if in check
        /// after the move, and once more (not per piece) when it is mated.
        Ludii = "ludii",
    }
}

libro_core::option_choice! {
    /// When a four-player seat is found checkmated.
    pub enum MateTest {
        /// When its turn comes, in check with no legal move (RULES.md).
        TurnStart = "turn-start",
        /// Only the mover's target, right after each move (Ludii).
        AfterMove = "after-move",
    }
}

libro_core::option_choice! {
    /// What capturing a king does in the four-player game.
    pub enum KingCapture {
        /// Its owner is eliminated as if checkmated (RULES.md).
        Eliminates = "eliminates",
        /// Its owner plays on without a king until it has no pieces (Ludii).
        PlaysOn = "plays-on",
    }
}

libro_core::option_choice! {
    /// How shared squares and promotions are stacked.
    pub enum Stacking {
        /// By the rules: a promoted pawn is gone, a square holds at most its two pieces.
        Rules = "rules",
        /// As Ludii 1.3.12's stacking engine does it (Short Assize): a pawn promoted on an
        /// empty square stays in its owner's piece list as a phantom that still makes pawn
        /// moves, and a phantom's move from an empty square leaves an ownerless marker that
        /// blocks pawns and rooks but may be stepped onto.
        Ludii = "ludii",
    }
}

libro_core::rule_options! {
    /// The resolved rule options of a ruleset. The defaults are the family's: plain rules
    /// with no special moves; each ruleset file says what its game adds.
    pub struct Options;
    /// Every option of the family, in the order they are listed.
    pub const SPECS;
    fers_leap: FersLeap = FersLeap::None,
        "the original fers' first move may instead leap two squares (onto an empty square, never capturing)";
    promoted_fers_leaps: bool = false,
        "a fers made by promotion may also leap on its first move";
    pawn_double_step: DoubleStep = DoubleStep::None,
        "a pawn on its starting square may advance two empty squares: until the game's first capture, always, or never";
    promotion: Promotion = Promotion::Always,
        "a pawn reaching its last line becomes a fers: always, or only if its side has no fers (else it stays, immobile)";
    promote_on_capture: bool = true,
        "a pawn arriving on its last line by capturing is promoted too";
    stalemate: Stalemate = Stalemate::Win,
        "a side with no legal move, not in check: the side that caused it wins, it passes, or the game is drawn";
    bare_king: BareKing = BareKing::None,
        "a side left with only its king loses (after any move), or shatranj's rule (one reply allowed against exactly two pieces)";
    forced_capture: ForcedCapture = ForcedCapture::None,
        "if a capture is possible it must be made: any capture, or the most powerful victim by the least powerful capturer";
    repetition: u32 = 3,
        "the game is drawn when the same position occurs this many times with the same seat to move (0 = off)";
    no_progress_plies: u32 = 100,
        "the game is drawn after this many plies without a capture or a pawn move (0 = off)";
    max_plies: u32 = 0,
        "the game is drawn after this many plies (0 = off)";
    all_pass_draw: bool = false,
        "the game is drawn when every seat passes in a row";
    capture: CaptureRule = CaptureRule::RightNeighbour; seats > 2,
        "whose pieces a seat may capture: only its right-hand neighbour's (the next active seat), or anyone's";
    bets: bool = false; seats > 2,
        "the game opens with one bet move per seat (0 to 100) that sets its stake";
    payments: Payments = Payments::Record; seats > 2,
        "how the pot is paid: RULES.md's (stake at the start, per piece lost, per check, per piece when mated) or Ludii's";
    mate_test: MateTest = MateTest::TurnStart; seats > 2,
        "when a seat is found checkmated: when its turn comes, or (Ludii) only the mover's target right after each move";
    king_capture: KingCapture = KingCapture::Eliminates; seats > 2,
        "capturing a king exposed by a third seat eliminates its owner, or (Ludii) its owner plays on without it";
    stacking: Stacking = Stacking::Rules,
        "stacking as the rules say, or reproducing Ludii 1.3.12's engine (promoted pawns linger as phantoms; their moves leave ownerless markers)";
    stake: u32 = 1; min 1; seats > 2,
        "each seat's default stake (what it pays into the pot each time), unless set when the game is created";
}

pub use libro_core::options::{OptionError, OptionKind, OptionSpec, RuleOptions, Sources};

/// An option of a loaded ruleset, for the lobby and `--help`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionInfo {
    pub name: Cow<'static, str>,
    /// The current value, as it would be written in the file or on `--option`.
    pub value: String,
    /// The allowed values, e.g. `until-first-capture | first-move | none`.
    pub allowed: String,
    pub explanation: Cow<'static, str>,
    /// Where the value comes from (the file's `from`, or "default" / "--option").
    pub source: String,
}

impl fmt::Display for OptionInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} = {}  ({}): {} [{}]",
            self.name, self.value, self.allowed, self.explanation, self.source
        )
    }
}

/// The spec of a named option.
pub fn spec(name: &str) -> Option<&'static OptionSpec> {
    SPECS.iter().find(|s| s.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_option_round_trips_its_default() {
        let defaults = Options::default();
        for spec in SPECS {
            let mut o = Options::default();
            o.set(spec.name, &defaults.get(spec.name)).unwrap();
            assert_eq!(o, defaults, "{}", spec.name);
        }
    }

    #[test]
    fn bad_values_list_the_allowed_ones() {
        let mut o = Options::default();
        let e = o
            .set("pawn_double_step", "sometimes")
            .unwrap_err()
            .to_string();
        assert!(e.contains("until-first-capture | first-move | none"), "{e}");
        let e = o.set("castling", "true").unwrap_err().to_string();
        assert!(e.contains("unknown option `castling`"), "{e}");
        assert!(o.set("stake", "0").is_err());
        assert!(o.set("repetition", "-1").is_err());
        o.set("repetition", "0").unwrap();
        assert_eq!(o.repetition, 0);
    }
}
