//! The board: each player's checkers on its own points, its bar and what it has borne off;
//! read and written as gnubg Position IDs.

use crate::notation::{BAR, OFF};
use crate::rules::MAX_CHECKERS;
use std::fmt;

/// The own points 1–24 of a mask of points (bit `p` for point `p`), lowest first.
pub(crate) fn points_in(mask: u32) -> impl Iterator<Item = u8> {
    (1..25u8).filter(move |p| mask >> p & 1 == 1)
}

/// What is wrong with a gnubg Position ID.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IdError {
    #[error("`{0}` is not a gnubg Position ID: it has {1} characters, an ID has 14")]
    Length(String, usize),
    #[error("`{0}` is not a gnubg Position ID: `{1}` is not a base64 character (A-Z a-z 0-9 + /)")]
    Character(String, char),
    #[error("`{0}` is not a gnubg Position ID: {1}")]
    Key(String, String),
}

/// Where every checker is: for each seat, counts on its own points 1–24, on the bar
/// ([`BAR`] = 25) and borne off ([`OFF`] = 0); and, in games that begin with checkers
/// stacked in pairs (Doblet), the own points whose pair is still stacked.
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct Board {
    counts: [[u8; 26]; 2],
    /// Per seat, bit `p` set: the pair on its own point `p` is still stacked.
    stacked: [u32; 2],
}

/// Written as the derived `Debug` was before stacked pairs, which are added only when some
/// remain: a ruleset's canonical text (and digest) holds its start board this way.
impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut d = f.debug_struct("Board");
        d.field("counts", &self.counts);
        if self.stacked != [0, 0] {
            d.field("stacked", &self.stacked);
        }
        d.finish()
    }
}

const BASE64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

impl Board {
    /// A board from each seat's counts (index 0 off, 1–24 points, 25 bar).
    pub fn from_counts(counts: [[u8; 26]; 2]) -> Board {
        Board {
            counts,
            stacked: [0, 0],
        }
    }

    /// The same board with each seat's pairs on the own points of `stacked` (bit `p` for
    /// point `p`) still stacked.
    pub fn with_stacked(self, stacked: [u32; 2]) -> Board {
        Board { stacked, ..self }
    }

    /// Seat `seat`'s own points whose pair is still stacked, bit `p` for point `p`.
    #[inline]
    pub fn stacked(&self, seat: usize) -> u32 {
        self.stacked[seat]
    }

    /// Lays down seat `seat`'s pair on its own point `point`: both checkers stay there.
    #[inline]
    pub(crate) fn lay_down(&mut self, seat: usize, point: u8) {
        self.stacked[seat] &= !(1 << point);
    }

    /// Seat `seat`'s checkers on its own point `point` (0 off, 1–24, 25 bar).
    #[inline]
    pub fn count(&self, seat: usize, point: u8) -> u8 {
        self.counts[seat][usize::from(point)]
    }

    /// Seat `seat`'s counts (index 0 off, 1–24 points, 25 bar).
    #[inline]
    pub fn counts(&self, seat: usize) -> &[u8; 26] {
        &self.counts[seat]
    }

    #[inline]
    pub(crate) fn counts_mut(&mut self, seat: usize) -> &mut [u8; 26] {
        &mut self.counts[seat]
    }

    /// Checkers of `seat` still in play (on a point or the bar).
    pub fn in_play(&self, seat: usize) -> u8 {
        self.counts[seat][1..].iter().sum()
    }

    /// The gnubg Position ID with `on_roll` as the player on roll: the 80-bit key lists the
    /// other player first, then the player on roll, each from its own point 1 to 24 and then
    /// its bar, a one per checker and a zero after each point; packed little-endian and
    /// written as 14 base64 characters.
    pub fn gnubg_id(&self, on_roll: usize) -> String {
        let mut key = [0u8; 10];
        let mut bit = 0usize;
        for seat in [1 - on_roll, on_roll] {
            for p in 1..=BAR {
                for _ in 0..self.counts[seat][usize::from(p)] {
                    key[bit / 8] |= 1 << (bit % 8);
                    bit += 1;
                }
                bit += 1;
            }
        }
        let mut out = String::with_capacity(14);
        for chunk in key.chunks(3) {
            let b = [
                chunk[0],
                *chunk.get(1).unwrap_or(&0),
                *chunk.get(2).unwrap_or(&0),
            ];
            let n = u32::from(b[0]) << 16 | u32::from(b[1]) << 8 | u32::from(b[2]);
            for i in 0..=chunk.len() {
                out.push(char::from(BASE64[(n >> (18 - 6 * i) & 63) as usize]));
            }
        }
        out
    }

    /// Reads a gnubg Position ID, `on_roll` being the seat the ID's player on roll is;
    /// each side has `checkers` checkers, those not on a point or the bar being borne off.
    pub fn from_gnubg_id(id: &str, on_roll: usize, checkers: u8) -> Result<Board, IdError> {
        let chars: Vec<char> = id.chars().collect();
        if chars.len() != 14 {
            return Err(IdError::Length(id.to_string(), chars.len()));
        }
        let mut key = [0u8; 10];
        let mut acc = 0u32;
        let mut nbits = 0;
        let mut byte = 0;
        for &c in &chars {
            let v = BASE64
                .iter()
                .position(|&b| char::from(b) == c)
                .ok_or_else(|| IdError::Character(id.to_string(), c))?;
            acc = acc << 6 | v as u32;
            nbits += 6;
            if nbits >= 8 {
                nbits -= 8;
                if byte < 10 {
                    key[byte] = (acc >> nbits) as u8;
                }
                byte += 1;
                acc &= (1 << nbits) - 1;
            }
        }
        if acc != 0 {
            return Err(IdError::Key(
                id.to_string(),
                "its last character has bits set beyond the 80-bit key".into(),
            ));
        }
        let bit_at = |i: usize| key[i / 8] >> (i % 8) & 1 == 1;
        let mut counts = [[0u8; 26]; 2];
        let mut i = 0;
        let side_names = ["the player not on roll", "the player on roll"];
        for (k, seat) in [1 - on_roll, on_roll].into_iter().enumerate() {
            let mut total = 0u8;
            for slot in counts[seat].iter_mut().skip(1) {
                let mut n = 0u8;
                while i < 80 && bit_at(i) {
                    n += 1;
                    i += 1;
                }
                if i >= 80 {
                    return Err(IdError::Key(
                        id.to_string(),
                        format!(
                            "the key runs out before the end of {}'s points",
                            side_names[k]
                        ),
                    ));
                }
                i += 1;
                *slot = n;
                total = total.saturating_add(n);
            }
            if total > checkers.min(MAX_CHECKERS) {
                return Err(IdError::Key(
                    id.to_string(),
                    format!(
                        "{} has {total} checkers on the board; a player has {checkers}",
                        side_names[k]
                    ),
                ));
            }
            counts[seat][usize::from(OFF)] = checkers - total;
        }
        if (i..80).any(bit_at) {
            return Err(IdError::Key(
                id.to_string(),
                "bits are set after both players' checkers".into(),
            ));
        }
        Ok(Board::from_counts(counts))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn setup(points: &[(u8, u8)]) -> [u8; 26] {
        let mut c = [0u8; 26];
        for &(p, n) in points {
            c[usize::from(p)] = n;
        }
        c
    }

    #[test]
    fn fallas_start_is_the_reference_id() {
        // 13 on each 6-point and 2 on each 24-point (tests/reference/README.md, checked with gnubg 1.07).
        let side = setup(&[(6, 13), (24, 2)]);
        let board = Board::from_counts([side, side]);
        assert_eq!(board.gnubg_id(0), "4P8DADDg/wMAMA");
        assert_eq!(
            board.gnubg_id(1),
            "4P8DADDg/wMAMA",
            "the start is symmetric"
        );
        let back = Board::from_gnubg_id("4P8DADDg/wMAMA", 0, 15).unwrap();
        assert_eq!(back.counts(0), &side);
        assert_eq!(back.counts(1), &side);
    }

    #[test]
    fn backgammon_start_decodes_and_encodes() {
        // Backgammon: 2 on the 24-point, 5 on the 13, 3 on the 8, 5 on the 6, for each side.
        let side = setup(&[(24, 2), (13, 5), (8, 3), (6, 5)]);
        let board = Board::from_gnubg_id("4HPwATDgc/ABMA", 0, 15).unwrap();
        assert_eq!(board.counts(0), &side);
        assert_eq!(board.counts(1), &side);
        assert_eq!(board.gnubg_id(0), "4HPwATDgc/ABMA");
    }

    #[test]
    fn the_player_on_roll_comes_second_in_the_key() {
        // White has one checker on its 1-point, black one on its 2-point; the rest are off.
        let board = Board::from_counts([setup(&[(0, 14), (1, 1)]), setup(&[(0, 14), (2, 1)])]);
        // On roll white: black's key first = 0 1 0 (point 1 empty, one on point 2), then 23
        // more zeros (points 3-24 and bar) -> 25 zeros and one 1 at bit 1; white's part starts
        // at bit 26 with its one checker on point 1. Bits 1 and 26 set.
        let id = board.gnubg_id(0);
        let decoded = Board::from_gnubg_id(&id, 0, 15).unwrap();
        assert_eq!(decoded, board);
        assert_ne!(
            board.gnubg_id(1),
            id,
            "swapping the player on roll changes the ID here"
        );
        // bits 1 and 26: bytes 02 00 00 04 00.. -> base64 of 0x02 0x00 0x00 = "AgAA", of 0x04 0x00 0x00 = "BAAA".
        assert_eq!(id, "AgAABAAAAAAAAA");
    }

    #[test]
    fn bad_ids_say_what_is_wrong() {
        assert!(matches!(
            Board::from_gnubg_id("4P8DADDg/wMAM", 0, 15),
            Err(IdError::Length(_, 13))
        ));
        assert!(matches!(
            Board::from_gnubg_id("4P8DADDg/wMA!A", 0, 15),
            Err(IdError::Character(_, '!'))
        ));
        // All 80 bits set: the first player's first point already holds more than fits.
        assert!(matches!(
            Board::from_gnubg_id("//////////////", 0, 15),
            Err(IdError::Key(..))
        ));
        // The start position with only 14 checkers a side allowed.
        let e = Board::from_gnubg_id("4P8DADDg/wMAMA", 0, 14)
            .unwrap_err()
            .to_string();
        assert!(e.contains("15 checkers"), "{e}");
        // A last character with bits beyond the key.
        assert!(matches!(
            Board::from_gnubg_id("4P8DADDg/wMAMB", 0, 15),
            Err(IdError::Key(..))
        ));
    }

    proptest::proptest! {
        #[test]
        fn any_board_reads_back_from_its_id(
            spots in proptest::collection::vec((0usize..2, 1u8..=25), 0..=30),
            on_roll in 0usize..2,
        ) {
            // Up to 15 checkers a side on points 1-24 or the bar; the rest borne off.
            let mut counts = [[0u8; 26]; 2];
            for (seat, point) in spots {
                if counts[seat][1..].iter().sum::<u8>() < 15 {
                    counts[seat][usize::from(point)] += 1;
                }
            }
            for c in counts.iter_mut() {
                c[0] = 15 - c[1..].iter().sum::<u8>();
            }
            let board = Board::from_counts(counts);
            let id = board.gnubg_id(on_roll);
            proptest::prop_assert_eq!(id.len(), 14);
            proptest::prop_assert_eq!(Board::from_gnubg_id(&id, on_roll, 15).unwrap(), board);
        }
    }
}
