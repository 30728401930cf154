//! The rule options of the chess family: every switch RULES.md names, with its allowed values,
//! a one-line explanation, and (once a ruleset is loaded) where its value comes from.

use std::borrow::Cow;
use std::fmt;

/// How the original fers may leap on its first move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum FersLeap {
    /// Two squares straight or diagonally (the manuscript, seed 004).
    StraightOrDiagonal,
    /// Two squares diagonally only (Ludii).
    Diagonal,
    /// No leap.
    None,
}

/// When a pawn on its starting square may advance two squares.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum DoubleStep {
    /// Only while no capture has yet been made in the game (seed 004, Ludii).
    UntilFirstCapture,
    /// On any pawn's first move (Fairy-Stockfish's encoding).
    FirstMove,
    /// Never.
    None,
}

/// When a pawn reaching its last line becomes a fers.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Promotion {
    Always,
    /// Only if its side has no fers on the board; otherwise it stays, immobile (Ludii).
    OnlyWithoutFers,
}

/// What a stalemate (no legal move, not in check) does.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Stalemate {
    /// The side that caused it wins (the stalemated side loses, as in shatranj).
    Win,
    /// The stalemated side passes (Ludii; four-player games).
    Pass,
    /// A draw.
    Draw,
}

/// Bare-king endings.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum BareKing {
    None,
    /// A side left with nothing but its king after the opponent's move has lost (Short Assize).
    Loses,
    /// Shatranj: bared against three or more pieces loses at once; against two, one reply.
    Shatranj,
}

/// Forçado's forced capture.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ForcedCapture {
    None,
    /// If any legal move captures, the player must capture (any capture).
    Any,
    /// Must capture the most powerful victim type, with the least powerful capturer type.
    Priority,
}

/// Whose pieces a seat may capture (more than two seats).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum CaptureRule {
    /// Only the next active seat in turn order (the right-hand neighbour).
    RightNeighbour,
    /// Any other seat.
    Any,
}

/// How the pot is paid in the four-player game.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Payments {
    /// RULES.md: stake at the start, per piece lost, per check received, per piece left when mated.
    Record,
    /// Ludii: no opening payment; per piece lost; the mover's target pays once if in check
    /// after the move, and once more (not per piece) when it is mated.
    Ludii,
}

/// When a four-player seat is found checkmated.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum MateTest {
    /// When its turn comes, in check with no legal move (RULES.md).
    TurnStart,
    /// Only the mover's target, right after each move (Ludii).
    AfterMove,
}

/// What capturing a king does in the four-player game.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum KingCapture {
    /// Its owner is eliminated as if checkmated (RULES.md).
    Eliminates,
    /// Its owner plays on without a king until it has no pieces (Ludii).
    PlaysOn,
}

/// How shared squares and promotions are stacked.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Stacking {
    /// By the rules: a promoted pawn is gone, a square holds at most its two pieces.
    Rules,
    /// As Ludii 1.3.12's stacking engine does it (Short Assize): a pawn promoted on an empty
    /// square stays in its owner's piece list as a phantom that still makes pawn moves, and a
    /// phantom's move from an empty square leaves an ownerless marker that blocks pawns and
    /// rooks but may be stepped onto.
    Ludii,
}

/// The resolved rule options of a ruleset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    pub fers_leap: FersLeap,
    pub promoted_fers_leaps: bool,
    pub pawn_double_step: DoubleStep,
    pub promotion: Promotion,
    pub promote_on_capture: bool,
    pub stalemate: Stalemate,
    pub bare_king: BareKing,
    pub forced_capture: ForcedCapture,
    pub repetition: u32,
    pub no_progress_plies: u32,
    pub max_plies: u32,
    pub all_pass_draw: bool,
    pub capture: CaptureRule,
    pub bets: bool,
    pub payments: Payments,
    pub mate_test: MateTest,
    pub king_capture: KingCapture,
    pub stake: u32,
    pub stacking: Stacking,
}

impl Default for Options {
    /// The family's defaults: plain rules with no special moves; each ruleset file says what
    /// its game adds.
    fn default() -> Self {
        Options {
            fers_leap: FersLeap::None,
            promoted_fers_leaps: false,
            pawn_double_step: DoubleStep::None,
            promotion: Promotion::Always,
            promote_on_capture: true,
            stalemate: Stalemate::Win,
            bare_king: BareKing::None,
            forced_capture: ForcedCapture::None,
            repetition: 3,
            no_progress_plies: 100,
            max_plies: 0,
            all_pass_draw: false,
            capture: CaptureRule::RightNeighbour,
            bets: false,
            payments: Payments::Record,
            mate_test: MateTest::TurnStart,
            king_capture: KingCapture::Eliminates,
            stake: 1,
            stacking: Stacking::Rules,
        }
    }
}

/// What kind of values an option takes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// One of these words.
    Choice(&'static [&'static str]),
    /// `true` or `false`.
    Bool,
    /// A whole number at least this large (for counts, 0 switches the rule off).
    Number { min: u32 },
}

/// The static description of one option.
#[derive(Copy, Clone, Debug)]
pub struct OptionSpec {
    pub name: &'static str,
    pub kind: OptionKind,
    pub explanation: &'static str,
    /// Whether the option only makes sense with more than two seats.
    pub multi_seat: bool,
}

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

/// Every option of the family, in the order they are listed.
pub const SPECS: &[OptionSpec] = &[
    OptionSpec { name: "fers_leap", kind: OptionKind::Choice(&["straight-or-diagonal", "diagonal", "none"]), explanation: "the original fers' first move may instead leap two squares (onto an empty square, never capturing)", multi_seat: false },
    OptionSpec { name: "promoted_fers_leaps", kind: OptionKind::Bool, explanation: "a fers made by promotion may also leap on its first move", multi_seat: false },
    OptionSpec { name: "pawn_double_step", kind: OptionKind::Choice(&["until-first-capture", "first-move", "none"]), explanation: "a pawn on its starting square may advance two empty squares: until the game's first capture, always, or never", multi_seat: false },
    OptionSpec { name: "promotion", kind: OptionKind::Choice(&["always", "only-without-fers"]), explanation: "a pawn reaching its last line becomes a fers: always, or only if its side has no fers (else it stays, immobile)", multi_seat: false },
    OptionSpec { name: "promote_on_capture", kind: OptionKind::Bool, explanation: "a pawn arriving on its last line by capturing is promoted too", multi_seat: false },
    OptionSpec { name: "stalemate", kind: OptionKind::Choice(&["win", "pass", "draw"]), explanation: "a side with no legal move, not in check: the side that caused it wins, it passes, or the game is drawn", multi_seat: false },
    OptionSpec { name: "bare_king", kind: OptionKind::Choice(&["none", "loses", "shatranj"]), explanation: "a side left with only its king loses (after any move), or shatranj's rule (one reply allowed against exactly two pieces)", multi_seat: false },
    OptionSpec { name: "forced_capture", kind: OptionKind::Choice(&["none", "any", "priority"]), explanation: "if a capture is possible it must be made: any capture, or the most powerful victim by the least powerful capturer", multi_seat: false },
    OptionSpec { name: "repetition", kind: OptionKind::Number { min: 0 }, explanation: "the game is drawn when the same position occurs this many times with the same seat to move (0 = off)", multi_seat: false },
    OptionSpec { name: "no_progress_plies", kind: OptionKind::Number { min: 0 }, explanation: "the game is drawn after this many plies without a capture or a pawn move (0 = off)", multi_seat: false },
    OptionSpec { name: "max_plies", kind: OptionKind::Number { min: 0 }, explanation: "the game is drawn after this many plies (0 = off)", multi_seat: false },
    OptionSpec { name: "all_pass_draw", kind: OptionKind::Bool, explanation: "the game is drawn when every seat passes in a row", multi_seat: false },
    OptionSpec { name: "capture", kind: OptionKind::Choice(&["right-neighbour", "any"]), explanation: "whose pieces a seat may capture: only its right-hand neighbour's (the next active seat), or anyone's", multi_seat: true },
    OptionSpec { name: "bets", kind: OptionKind::Bool, explanation: "the game opens with one bet move per seat (0 to 100) that sets its stake", multi_seat: true },
    OptionSpec { name: "payments", kind: OptionKind::Choice(&["record", "ludii"]), explanation: "how the pot is paid: RULES.md's (stake at the start, per piece lost, per check, per piece when mated) or Ludii's", multi_seat: true },
    OptionSpec { name: "mate_test", kind: OptionKind::Choice(&["turn-start", "after-move"]), explanation: "when a seat is found checkmated: when its turn comes, or (Ludii) only the mover's target right after each move", multi_seat: true },
    OptionSpec { name: "king_capture", kind: OptionKind::Choice(&["eliminates", "plays-on"]), explanation: "capturing a king exposed by a third seat eliminates its owner, or (Ludii) its owner plays on without it", multi_seat: true },
    OptionSpec { name: "stacking", kind: OptionKind::Choice(&["rules", "ludii"]), explanation: "stacking as the rules say, or reproducing Ludii 1.3.12's engine (promoted pawns linger as phantoms; their moves leave ownerless markers)", multi_seat: false },
    OptionSpec { name: "stake", kind: OptionKind::Number { min: 1 }, explanation: "each seat's default stake (what it pays into the pot each time), unless set when the game is created", multi_seat: true },
];

/// The spec of a named option.
pub fn spec(name: &str) -> Option<&'static OptionSpec> {
    SPECS.iter().find(|s| s.name == name)
}

impl OptionKind {
    /// The allowed values, for messages and listings.
    pub fn allowed(self) -> String {
        match self {
            OptionKind::Choice(values) => values.join(" | "),
            OptionKind::Bool => "true | false".into(),
            OptionKind::Number { min: 0 } => "a whole number (0 = off)".into(),
            OptionKind::Number { min } => format!("a whole number, at least {min}"),
        }
    }
}

impl Options {
    /// Sets option `name` from its text value, saying what is wrong if it cannot.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), String> {
        let Some(spec) = spec(name) else {
            let names: Vec<&str> = SPECS.iter().map(|s| s.name).collect();
            return Err(format!(
                "unknown option `{name}` (options: {})",
                names.join(", ")
            ));
        };
        let bad = || {
            format!(
                "option `{name}` cannot be `{value}`: allowed {}",
                spec.kind.allowed()
            )
        };
        let number = |min: u32| -> Result<u32, String> {
            match value.parse::<u32>() {
                Ok(n) if n >= min => Ok(n),
                _ => Err(bad()),
            }
        };
        let boolean = || -> Result<bool, String> {
            match value {
                "true" => Ok(true),
                "false" => Ok(false),
                _ => Err(bad()),
            }
        };
        match name {
            "fers_leap" => {
                self.fers_leap = match value {
                    "straight-or-diagonal" => FersLeap::StraightOrDiagonal,
                    "diagonal" => FersLeap::Diagonal,
                    "none" => FersLeap::None,
                    _ => return Err(bad()),
                }
            }
            "promoted_fers_leaps" => self.promoted_fers_leaps = boolean()?,
            "pawn_double_step" => {
                self.pawn_double_step = match value {
                    "until-first-capture" => DoubleStep::UntilFirstCapture,
                    "first-move" => DoubleStep::FirstMove,
                    "none" => DoubleStep::None,
                    _ => return Err(bad()),
                }
            }
            "promotion" => {
                self.promotion = match value {
                    "always" => Promotion::Always,
                    "only-without-fers" => Promotion::OnlyWithoutFers,
                    _ => return Err(bad()),
                }
            }
            "promote_on_capture" => self.promote_on_capture = boolean()?,
            "stalemate" => {
                self.stalemate = match value {
                    "win" => Stalemate::Win,
                    "pass" => Stalemate::Pass,
                    "draw" => Stalemate::Draw,
                    _ => return Err(bad()),
                }
            }
            "bare_king" => {
                self.bare_king = match value {
                    "none" => BareKing::None,
                    "loses" => BareKing::Loses,
                    "shatranj" => BareKing::Shatranj,
                    _ => return Err(bad()),
                }
            }
            "forced_capture" => {
                self.forced_capture = match value {
                    "none" => ForcedCapture::None,
                    "any" => ForcedCapture::Any,
                    "priority" => ForcedCapture::Priority,
                    _ => return Err(bad()),
                }
            }
            "repetition" => self.repetition = number(0)?,
            "no_progress_plies" => self.no_progress_plies = number(0)?,
            "max_plies" => self.max_plies = number(0)?,
            "all_pass_draw" => self.all_pass_draw = boolean()?,
            "capture" => {
                self.capture = match value {
                    "right-neighbour" => CaptureRule::RightNeighbour,
                    "any" => CaptureRule::Any,
                    _ => return Err(bad()),
                }
            }
            "bets" => self.bets = boolean()?,
            "payments" => {
                self.payments = match value {
                    "record" => Payments::Record,
                    "ludii" => Payments::Ludii,
                    _ => return Err(bad()),
                }
            }
            "mate_test" => {
                self.mate_test = match value {
                    "turn-start" => MateTest::TurnStart,
                    "after-move" => MateTest::AfterMove,
                    _ => return Err(bad()),
                }
            }
            "king_capture" => {
                self.king_capture = match value {
                    "eliminates" => KingCapture::Eliminates,
                    "plays-on" => KingCapture::PlaysOn,
                    _ => return Err(bad()),
                }
            }
            "stake" => self.stake = number(1)?,
            "stacking" => {
                self.stacking = match value {
                    "rules" => Stacking::Rules,
                    "ludii" => Stacking::Ludii,
                    _ => return Err(bad()),
                }
            }
            _ => unreachable!("every spec has a setter"),
        }
        Ok(())
    }

    /// The current value of option `name`, as text.
    pub fn get(&self, name: &str) -> String {
        match name {
            "fers_leap" => match self.fers_leap {
                FersLeap::StraightOrDiagonal => "straight-or-diagonal",
                FersLeap::Diagonal => "diagonal",
                FersLeap::None => "none",
            }
            .into(),
            "promoted_fers_leaps" => self.promoted_fers_leaps.to_string(),
            "pawn_double_step" => match self.pawn_double_step {
                DoubleStep::UntilFirstCapture => "until-first-capture",
                DoubleStep::FirstMove => "first-move",
                DoubleStep::None => "none",
            }
            .into(),
            "promotion" => match self.promotion {
                Promotion::Always => "always",
                Promotion::OnlyWithoutFers => "only-without-fers",
            }
            .into(),
            "promote_on_capture" => self.promote_on_capture.to_string(),
            "stalemate" => match self.stalemate {
                Stalemate::Win => "win",
                Stalemate::Pass => "pass",
                Stalemate::Draw => "draw",
            }
            .into(),
            "bare_king" => match self.bare_king {
                BareKing::None => "none",
                BareKing::Loses => "loses",
                BareKing::Shatranj => "shatranj",
            }
            .into(),
            "forced_capture" => match self.forced_capture {
                ForcedCapture::None => "none",
                ForcedCapture::Any => "any",
                ForcedCapture::Priority => "priority",
            }
            .into(),
            "repetition" => self.repetition.to_string(),
            "no_progress_plies" => self.no_progress_plies.to_string(),
            "max_plies" => self.max_plies.to_string(),
            "all_pass_draw" => self.all_pass_draw.to_string(),
            "capture" => match self.capture {
                CaptureRule::RightNeighbour => "right-neighbour",
                CaptureRule::Any => "any",
            }
            .into(),
            "bets" => self.bets.to_string(),
            "payments" => match self.payments {
                Payments::Record => "record",
                Payments::Ludii => "ludii",
            }
            .into(),
            "mate_test" => match self.mate_test {
                MateTest::TurnStart => "turn-start",
                MateTest::AfterMove => "after-move",
            }
            .into(),
            "king_capture" => match self.king_capture {
                KingCapture::Eliminates => "eliminates",
                KingCapture::PlaysOn => "plays-on",
            }
            .into(),
            "stake" => self.stake.to_string(),
            "stacking" => match self.stacking {
                Stacking::Rules => "rules",
                Stacking::Ludii => "ludii",
            }
            .into(),
            _ => String::new(),
        }
    }
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
        let e = o.set("pawn_double_step", "sometimes").unwrap_err();
        assert!(e.contains("until-first-capture | first-move | none"), "{e}");
        let e = o.set("castling", "true").unwrap_err();
        assert!(e.contains("unknown option `castling`"), "{e}");
        assert!(o.set("stake", "0").is_err());
        assert!(o.set("repetition", "-1").is_err());
        o.set("repetition", "0").unwrap();
        assert_eq!(o.repetition, 0);
    }
}
