//! Dice: a roll of up to three dice, the opening roll-off, and the game's seeded generator.

use libro_core::Chance;
use rand::Rng;
use std::fmt;
use std::str::FromStr;

/// The most dice a ruleset may roll in a turn (a [`crate::Play`] holds this many steps).
pub const MAX_DICE: usize = 3;

/// The most sides a die may have (dice are written one digit each).
pub const MAX_SIDES: u8 = 9;

/// What is wrong with a written roll.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DiceError {
    #[error("`{text}` is not a roll: {reason}")]
    Syntax { text: String, reason: String },
    #[error("`{text}` has {got} dice; this game rolls {want}")]
    Count { text: String, got: usize, want: u8 },
    #[error("`{text}` shows a {value}; the dice of this game have sides 1 to {sides}")]
    Side { text: String, value: u8, sides: u8 },
}

/// One roll of the turn's dice, unordered: kept highest first (`6-4-1`).
///
/// Doubles and triples are just repeated values: they give no extra moves.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Dice {
    values: [u8; MAX_DICE],
    len: u8,
}

impl Dice {
    /// A roll of the given values (1 to [`MAX_SIDES`], at most [`MAX_DICE`] of them), in any order.
    pub fn new(values: &[u8]) -> Option<Dice> {
        if values.is_empty()
            || values.len() > MAX_DICE
            || values.iter().any(|&v| v == 0 || v > MAX_SIDES)
        {
            return None;
        }
        let mut d = [0u8; MAX_DICE];
        d[..values.len()].copy_from_slice(values);
        d[..values.len()].sort_unstable_by(|a, b| b.cmp(a));
        Some(Dice {
            values: d,
            len: values.len() as u8,
        })
    }

    /// The values, highest first.
    #[inline]
    pub fn values(&self) -> &[u8] {
        &self.values[..self.len as usize]
    }

    /// How many dice.
    #[inline]
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Always false: a roll has at least one die.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Checks the roll against a ruleset's dice.
    pub fn check(self, count: u8, sides: u8) -> Result<Dice, DiceError> {
        if self.len != count {
            return Err(DiceError::Count {
                text: self.to_string(),
                got: self.len(),
                want: count,
            });
        }
        if let Some(&value) = self.values().iter().find(|&&v| v > sides) {
            return Err(DiceError::Side {
                text: self.to_string(),
                value,
                sides,
            });
        }
        Ok(self)
    }

    /// The distinct orders in which the dice can be played (1 for triples, 3 for a double
    /// with another die, 6 for three different dice).
    pub(crate) fn orders(&self) -> arrayvec::ArrayVec<[u8; MAX_DICE], 6> {
        let mut out = arrayvec::ArrayVec::new();
        // Highest first, so equal values are neighbours.
        match *self.values() {
            [a] => out.push([a, 0, 0]),
            [a, b] if a == b => out.push([a, a, 0]),
            [a, b] => out.extend([[a, b, 0], [b, a, 0]]),
            [a, _, c] if a == c => out.push([a, a, a]),
            [a, b, c] if a == b => out.extend([[a, a, c], [a, c, a], [c, a, a]]),
            [a, b, c] if b == c => out.extend([[a, b, b], [b, a, b], [b, b, a]]),
            [a, b, c] => out.extend([
                [a, b, c],
                [a, c, b],
                [b, a, c],
                [b, c, a],
                [c, a, b],
                [c, b, a],
            ]),
            _ => {}
        }
        out
    }

    /// A small number identifying the roll (for hashing).
    pub(crate) fn code(&self) -> u32 {
        self.values()
            .iter()
            .fold(u32::from(self.len), |acc, &v| acc * 16 + u32::from(v))
    }
}

impl fmt::Display for Dice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, v) in self.values().iter().enumerate() {
            if i > 0 {
                f.write_str("-")?;
            }
            write!(f, "{v}")?;
        }
        Ok(())
    }
}

impl FromStr for Dice {
    type Err = DiceError;

    /// Reads `6-4-1`, `6 4 1`, `6,4,1` or `641`, in any order.
    fn from_str(text: &str) -> Result<Dice, DiceError> {
        let syntax = |reason: &str| DiceError::Syntax {
            text: text.to_string(),
            reason: reason.to_string(),
        };
        let mut values = arrayvec::ArrayVec::<u8, MAX_DICE>::new();
        for c in text.trim().chars() {
            match c {
                '-' | ',' | ' ' => {}
                '1'..='9' => values
                    .try_push(c as u8 - b'0')
                    .map_err(|_| syntax("more than three dice"))?,
                _ => return Err(syntax(&format!("`{c}` is not a die value (1-9)"))),
            }
        }
        Dice::new(&values).ok_or_else(|| syntax("no dice"))
    }
}

/// Every roll of `count` dice with `sides` sides, unordered, with its weight out of
/// `sides^count` (three six-sided dice: 56 rolls weighing 1, 3 or 6 out of 216).
pub fn all_rolls(count: u8, sides: u8) -> Vec<Chance<Dice>> {
    let total = u32::from(sides).pow(u32::from(count));
    let mut out = Vec::new();
    let mut values = [0u8; MAX_DICE];
    fn rec(
        values: &mut [u8; MAX_DICE],
        i: usize,
        count: usize,
        max: u8,
        total: u32,
        out: &mut Vec<Chance<Dice>>,
    ) {
        if i == count {
            let dice = Dice::new(&values[..count]).expect("values are 1..=sides");
            // Orderings of a multiset: count! / product of multiplicities!.
            let fact = |n: u32| (1..=n).product::<u32>();
            let mut weight = fact(count as u32);
            let v = dice.values();
            let mut run = 1;
            for k in 1..=v.len() {
                if k < v.len() && v[k] == v[k - 1] {
                    run += 1;
                } else {
                    weight /= fact(run);
                    run = 1;
                }
            }
            out.push(Chance {
                outcome: dice,
                weight,
                total,
            });
            return;
        }
        for v in (1..=max).rev() {
            values[i] = v;
            rec(values, i + 1, count, v, total, out);
        }
    }
    rec(&mut values, 0, usize::from(count), sides, total, &mut out);
    out
}

/// The outcome of a chance event of a tables game.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum TablesChance {
    /// The opening roll-off: one die for each seat, in seat order. Written `5:3`.
    RollOff([u8; 2]),
    /// The dice of a turn. Written `6-4-1`.
    Roll(Dice),
}

impl fmt::Display for TablesChance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TablesChance::RollOff([a, b]) => write!(f, "{a}:{b}"),
            TablesChance::Roll(d) => d.fmt(f),
        }
    }
}

impl FromStr for TablesChance {
    type Err = DiceError;

    /// Reads a roll-off `5:3` or a roll `6-4-1`.
    fn from_str(text: &str) -> Result<TablesChance, DiceError> {
        match text.trim().split_once(':') {
            Some((a, b)) => {
                let die = |s: &str| match s.trim().parse::<u8>() {
                    Ok(v @ 1..=MAX_SIDES) => Ok(v),
                    _ => Err(DiceError::Syntax {
                        text: text.to_string(),
                        reason: format!(
                            "a roll-off is two dice `first:second`, and `{}` is not a die value",
                            s.trim()
                        ),
                    }),
                };
                Ok(TablesChance::RollOff([die(a)?, die(b)?]))
            }
            None => text.parse().map(TablesChance::Roll),
        }
    }
}

/// The game's dice: chance event `k` of a game with seed `seed` is drawn from its own
/// generator, SplitMix64 started at a mix of the two numbers, so a game replays exactly, a
/// copy of a game copies just the two numbers, and drawing a roll costs a few nanoseconds.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct DiceStream {
    pub seed: u64,
    /// How many chance events have been resolved (the next one drawn is this one).
    pub events: u32,
}

/// SplitMix64 (Steele, Lea, Flood 2014): a 64-bit counter through a strong mixer.
struct SplitMix(u64);

impl SplitMix {
    const GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

    fn mix(mut z: u64) -> u64 {
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

impl rand::RngCore for SplitMix {
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(Self::GAMMA);
        Self::mix(self.0)
    }
    fn next_u32(&mut self) -> u32 {
        (self.next_u64() >> 32) as u32
    }
    fn fill_bytes(&mut self, dest: &mut [u8]) {
        for chunk in dest.chunks_mut(8) {
            let v = self.next_u64().to_le_bytes();
            chunk.copy_from_slice(&v[..chunk.len()]);
        }
    }
    fn try_fill_bytes(&mut self, dest: &mut [u8]) -> Result<(), rand::Error> {
        self.fill_bytes(dest);
        Ok(())
    }
}

impl DiceStream {
    fn rng(&self) -> SplitMix {
        SplitMix(SplitMix::mix(
            self.seed ^ SplitMix::mix(u64::from(self.events).wrapping_add(0x5EED)),
        ))
    }

    /// The pending event's roll of `count` dice with `sides` sides.
    pub fn roll(&self, count: u8, sides: u8) -> Dice {
        let mut rng = self.rng();
        let mut v = [0u8; MAX_DICE];
        for x in v.iter_mut().take(usize::from(count)) {
            *x = rng.gen_range(1..=sides);
        }
        Dice::new(&v[..usize::from(count)]).expect("count and sides were checked with the ruleset")
    }

    /// The pending event's roll-off: one die per seat.
    pub fn roll_off(&self, sides: u8) -> [u8; 2] {
        let mut rng = self.rng();
        [rng.gen_range(1..=sides), rng.gen_range(1..=sides)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn three_dice_have_56_rolls_weighing_216() {
        let rolls = all_rolls(3, 6);
        assert_eq!(
            rolls.len(),
            56,
            "C(8,3) multisets of three values out of six"
        );
        assert_eq!(rolls.iter().map(|c| c.weight).sum::<u32>(), 216);
        // 6 triples of weight 1, 30 rolls with a pair (6 x 5) of weight 3, 20 distinct of weight 6.
        for (w, n) in [(1, 6), (3, 30), (6, 20)] {
            assert_eq!(
                rolls.iter().filter(|c| c.weight == w).count(),
                n,
                "rolls of weight {w}"
            );
        }
        let find = |t: &str| {
            rolls
                .iter()
                .find(|c| c.outcome == t.parse().unwrap())
                .unwrap()
                .weight
        };
        assert_eq!(find("5-5-5"), 1);
        assert_eq!(find("6-6-1"), 3);
        assert_eq!(find("1-4-6"), 6);
    }

    #[test]
    fn dice_read_and_write_highest_first() {
        let d: Dice = "1-6-4".parse().unwrap();
        assert_eq!(d.to_string(), "6-4-1");
        assert_eq!("641".parse::<Dice>().unwrap(), d);
        assert_eq!("6, 4, 1".parse::<Dice>().unwrap(), d);
        assert!("6-4-x".parse::<Dice>().is_err());
        assert!("6-4-1-2".parse::<Dice>().is_err());
        assert!("".parse::<Dice>().is_err());
        assert!(matches!(
            d.check(2, 6),
            Err(DiceError::Count {
                got: 3,
                want: 2,
                ..
            })
        ));
        assert!(matches!(
            "7-1-1".parse::<Dice>().unwrap().check(3, 6),
            Err(DiceError::Side { value: 7, .. })
        ));
    }

    #[test]
    fn orders_of_doubles_and_triples() {
        let orders = |t: &str| {
            let d: Dice = t.parse().unwrap();
            let mut o: Vec<Vec<u8>> = d.orders().iter().map(|o| o[..d.len()].to_vec()).collect();
            o.sort();
            o
        };
        assert_eq!(orders("6-4-1").len(), 6);
        assert_eq!(
            orders("6-6-1"),
            [vec![1, 6, 6], vec![6, 1, 6], vec![6, 6, 1]]
        );
        assert_eq!(
            orders("6-1-1"),
            [vec![1, 1, 6], vec![1, 6, 1], vec![6, 1, 1]]
        );
        assert_eq!(orders("5-5-5"), [vec![5, 5, 5]]);
        assert_eq!(orders("3-2"), [vec![2, 3], vec![3, 2]]);
        assert_eq!(orders("4-4"), [vec![4, 4]]);
        assert_eq!(orders("4"), [vec![4]]);
    }

    #[test]
    fn chance_outcomes_round_trip_as_text() {
        for t in ["5:3", "6-4-1", "2-2-2"] {
            assert_eq!(t.parse::<TablesChance>().unwrap().to_string(), t);
        }
        assert!("0:3".parse::<TablesChance>().is_err());
    }

    #[test]
    fn the_stream_replays_and_differs_between_events() {
        let a = DiceStream { seed: 7, events: 3 };
        assert_eq!(a.roll(3, 6), a.roll(3, 6));
        let rolls: Vec<Dice> = (0..50)
            .map(|k| DiceStream { seed: 7, events: k }.roll(3, 6))
            .collect();
        assert!(
            rolls.iter().any(|r| *r != rolls[0]),
            "fifty events all gave the same roll"
        );
        assert!(rolls
            .iter()
            .all(|r| r.values().iter().all(|&v| (1..=6).contains(&v))));
    }

    #[test]
    fn the_stream_gives_fair_dice() {
        // 60 000 dice from 20 000 events of seed 1: each face 10 000 expected; the standard
        // deviation of a count is sqrt(60 000 · 1/6 · 5/6) ≈ 91, so ±500 is over 5 sigma.
        let mut faces = [0u32; 7];
        for k in 0..20_000 {
            for &v in (DiceStream { seed: 1, events: k }).roll(3, 6).values() {
                faces[usize::from(v)] += 1;
            }
        }
        for (face, &n) in faces.iter().enumerate().skip(1) {
            assert!(
                (9_500..=10_500).contains(&n),
                "face {face} came {n} times in 60 000"
            );
        }
        // Two seeds give different games.
        let a: Vec<Dice> = (0..20)
            .map(|k| DiceStream { seed: 1, events: k }.roll(3, 6))
            .collect();
        let b: Vec<Dice> = (0..20)
            .map(|k| DiceStream { seed: 2, events: k }.roll(3, 6))
            .collect();
        assert_ne!(a, b);
    }
}
