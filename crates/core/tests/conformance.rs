//! The conformance suite itself: a toy dice race passes it, and deliberately broken
//! versions of the same game are caught with the right complaint.

use libro_core::conformance::{random_playouts, PlayoutConfig};
use libro_core::{Chance, EndReason, Game, GameResult, MoveList, Ruleset, Seat, Turn};
use std::fmt;
use std::sync::Arc;

/// Ways to break the toy game, so that each check of the suite can be seen to fire.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fault {
    None,
    StaleHash,
    BadWeights,
    MisprintedMove,
    NoMoves,
    NeverEnds,
}

/// A two-seat race to 12: a die is rolled (chance), then the seat moves its counter by the
/// die or by one. Small enough to reason about by hand.
struct RaceRules {
    fault: Fault,
}

#[derive(Clone)]
struct Race {
    rules: Arc<RaceRules>,
    at: [u8; 2],
    to_move: u8,
    die: Option<u8>,
    ply: u32,
    hash: u64,
}

#[derive(Debug, thiserror::Error)]
#[error("{0}")]
struct ToyError(String);

const GOAL: u8 = 12;

fn full_hash(at: [u8; 2], to_move: u8, die: Option<u8>) -> u64 {
    (u64::from(at[0]) << 24)
        ^ (u64::from(at[1]) << 16)
        ^ (u64::from(to_move) << 8)
        ^ u64::from(die.unwrap_or(0))
}

impl Ruleset for RaceRules {
    type Game = Race;
    type PositionError = ToyError;
    fn name(&self) -> &str {
        "race"
    }
    fn seat_names(&self) -> Vec<String> {
        vec!["first".into(), "second".into()]
    }
    fn new_game(self: &Arc<Self>, _seed: u64) -> Race {
        Race {
            rules: self.clone(),
            at: [0, 0],
            to_move: 0,
            die: None,
            ply: 0,
            hash: full_hash([0, 0], 0, None),
        }
    }
    fn parse_position(self: &Arc<Self>, text: &str) -> Result<Race, ToyError> {
        let f: Vec<&str> = text.split(' ').collect();
        let [a, b, t, d, p] = f.as_slice() else {
            return Err(ToyError(format!("expected 5 fields in `{text}`")));
        };
        let num = |s: &str| {
            s.parse::<u32>()
                .map_err(|e| ToyError(format!("`{s}`: {e}")))
        };
        let at = [num(a)? as u8, num(b)? as u8];
        let to_move = num(t)? as u8;
        let die = if *d == "-" { None } else { Some(num(d)? as u8) };
        Ok(Race {
            rules: self.clone(),
            at,
            to_move,
            die,
            ply: num(p)?,
            hash: full_hash(at, to_move, die),
        })
    }
}

impl fmt::Display for Race {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let die = self.die.map_or("-".to_string(), |d| d.to_string());
        write!(
            f,
            "{} {} {} {} {}",
            self.at[0], self.at[1], self.to_move, die, self.ply
        )
    }
}

impl Game for Race {
    type Move = u8;
    type ChanceOutcome = u8;
    type MoveList = MoveList<u8, 4>;
    type MoveError = ToyError;

    fn num_seats(&self) -> usize {
        2
    }
    fn turn(&self) -> Turn {
        if self.at.iter().any(|&a| a >= GOAL)
            || (self.rules.fault != Fault::NeverEnds && self.ply > 400)
        {
            Turn::Over
        } else if self.die.is_none() {
            Turn::Chance
        } else {
            Turn::Seat(Seat(self.to_move))
        }
    }
    fn legal_moves(&self, out: &mut Self::MoveList) {
        out.clear();
        if let (Some(d), Turn::Seat(_)) = (self.die, self.turn()) {
            if self.rules.fault == Fault::NoMoves && self.at[0] > 6 {
                return;
            }
            out.push(d);
            if d != 1 {
                out.push(1);
            }
        }
    }
    fn play(&mut self, mv: u8) {
        if self.rules.fault != Fault::NeverEnds {
            self.at[self.to_move as usize] += mv;
        }
        self.to_move ^= 1;
        self.die = None;
        self.ply += 1;
        if self.rules.fault != Fault::StaleHash {
            self.hash = full_hash(self.at, self.to_move, self.die);
        }
    }
    fn chance_outcomes(&self, out: &mut Vec<Chance<u8>>) {
        out.clear();
        if self.turn() == Turn::Chance {
            let weight = if self.rules.fault == Fault::BadWeights {
                2
            } else {
                1
            };
            out.extend((1..=6).map(|d| Chance {
                outcome: d,
                weight,
                total: 6,
            }));
        }
    }
    fn sample_chance(&self) -> u8 {
        (self.ply % 6 + 1) as u8
    }
    fn apply_chance(&mut self, die: u8) {
        self.die = Some(die);
        self.hash = full_hash(self.at, self.to_move, self.die);
    }
    fn result(&self) -> Option<GameResult> {
        match self.turn() {
            Turn::Over if self.at[0] >= GOAL => {
                Some(GameResult::win(2, Seat(0), EndReason::BoreOff))
            }
            Turn::Over if self.at[1] >= GOAL => {
                Some(GameResult::win(2, Seat(1), EndReason::BoreOff))
            }
            Turn::Over => Some(GameResult::draw(
                2,
                &[Seat(0), Seat(1)],
                EndReason::MoveLimit,
            )),
            _ => None,
        }
    }
    fn hash(&self) -> u64 {
        self.hash
    }
    fn recompute_hash(&self) -> u64 {
        full_hash(self.at, self.to_move, self.die)
    }
    fn ply(&self) -> u32 {
        self.ply
    }
    fn write_move(&self, mv: u8, f: &mut dyn fmt::Write) -> fmt::Result {
        let shown = if self.rules.fault == Fault::MisprintedMove && mv == 1 {
            2
        } else {
            mv
        };
        write!(f, "+{shown}")
    }
    fn parse_move(&self, text: &str) -> Result<u8, ToyError> {
        let n: u8 = text
            .strip_prefix('+')
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| ToyError(format!("`{text}` is not a move like +3")))?;
        let mut moves = Self::MoveList::default();
        self.legal_moves(&mut moves);
        moves
            .contains(&n)
            .then_some(n)
            .ok_or_else(|| ToyError(format!("+{n} is not legal here")))
    }
}

fn run(
    fault: Fault,
) -> Result<libro_core::conformance::Report, libro_core::conformance::Violation> {
    let rules = Arc::new(RaceRules { fault });
    random_playouts(
        &rules,
        &PlayoutConfig {
            games: 30,
            seed: 7,
            max_plies: 1000,
            notation_every: 1,
        },
    )
}

#[test]
fn a_correct_game_passes_and_every_game_ends() {
    let report = run(Fault::None).expect("the toy race keeps every invariant");
    assert_eq!(report.games, 30);
    // A race to 12 moving at least 1 per move ends within 2 * 12 moves (plus their rolls).
    assert!(report.plies <= 30 * 2 * 2 * 12);
    assert_eq!(report.endings.get("bore-off"), Some(&30));
}

#[test]
fn each_broken_invariant_is_caught() {
    let cases = [
        (Fault::StaleHash, "incremental hash"),
        (Fault::BadWeights, "weights sum to 12"),
        (Fault::MisprintedMove, "prints as `+2`"),
        (Fault::NoMoves, "has no legal move"),
        (Fault::NeverEnds, "has not ended"),
    ];
    for (fault, complaint) in cases {
        let err = run(fault).expect_err("a broken game must fail conformance");
        assert!(
            err.to_string().contains(complaint),
            "{fault:?}: expected `{complaint}` in `{err}`"
        );
    }
}
