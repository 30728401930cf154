//! The two-seat evaluation's weights, in centipawns: one named field per term, so the
//! evaluation reads `w.isolated_mg` and a tuner can walk them all as a vector.
//!
//! `_mg` and `_eg` are the middlegame and endgame halves, blended by the material left.
//! The defaults are the values the engine plays with; `examples/texel.rs` fits them to
//! game results (Texel's method) and prints a new list in this file's form.

macro_rules! weights {
    ($($(#[$doc:meta])* $name:ident = $default:expr,)*) => {
        /// Every weight of the two-seat evaluation (see the module's doc).
        #[derive(Copy, Clone, Debug, PartialEq, Eq)]
        pub struct Weights {
            $($(#[$doc])* pub $name: i32,)*
        }

        impl Weights {
            /// The weights the engine plays with.
            pub const DEFAULT: Weights = Weights { $($name: $default,)* };
            /// The weights' names, in the order of [`Weights::to_vec`].
            pub const NAMES: &'static [&'static str] = &[$(stringify!($name),)*];

            /// The weights in [`Weights::NAMES`] order.
            pub fn to_vec(&self) -> Vec<i32> {
                vec![$(self.$name,)*]
            }

            /// Weights from values in [`Weights::NAMES`] order (as many as there are names).
            pub fn from_slice(values: &[i32]) -> Option<Weights> {
                let mut it = values.iter().copied();
                let w = Weights { $($name: it.next()?,)* };
                it.next().is_none().then_some(w)
            }
        }
    };
}

weights! {
    /// Material: Fairy-Stockfish's shatranj values (its fers and alfil; its knight and rook,
    /// the rook raised as the strongest piece; the pawn's endgame lowered as it promotes to
    /// a fers only), scaled to keep the knight at 420. Against the earlier hand-set values
    /// (rook 650/580, pawn 80/100) they won an SPRT (shatranj, 10,000 nodes): +25 Elo.
    pawn_mg = 68,
    pawn_eg = 100,
    fil_mg = 188,
    fil_eg = 177,
    fers_mg = 226,
    fers_eg = 242,
    knight_mg = 420,
    knight_eg = 459,
    rook_mg = 720,
    rook_eg = 777,
    /// Four seats, and with two any piece the tables below do not name: mobility per square
    /// a piece reaches (pseudo-legally) that no enemy pawn guards, both halves.
    fers_mobility = 5,
    fil_mobility = 4,
    knight_mobility = 12,
    rook_mobility = 10,
    other_mobility = 3,
    /// Two seats: the fers' and fil's mobility by Fairy-Stockfish's formula for its fairy
    /// pieces, `max · (n − 2) / (8 + n)` for n squares counted (its `MaxMobility`, scaled as
    /// the material); the knight's and rook's by [`KNIGHT_MOBILITY`] and [`ROOK_MOBILITY`].
    fairy_mobility_mg = 81,
    fairy_mobility_eg = 108,
    /// A pawn's double step (or a piece's first-move leap) still open.
    double_step = 3,
    /// Piece-square terms: a pawn on the middle lines; the king away from its home square
    /// (middlegame, per step up to four) and, in the endgame, by Fairy-Stockfish's king
    /// squares (two seats; in percent of its values, the material's scale); a rook near
    /// the centre; a leaper by the squares it reaches from here and its centrality.
    pawn_centre_mg = 8,
    king_away_mg = -8,
    king_place_eg = 54,
    rook_centre_mg = 2,
    rook_centre_eg = 2,
    leaper_reach_mg = 3,
    leaper_reach_eg = 2,
    leaper_centre_mg = 4,
    leaper_centre_eg = 3,
    /// A pawn by the steps still to go to promotion (the middlegame takes half).
    advance_1 = 70,
    advance_2 = 40,
    advance_3 = 22,
    advance_4 = 10,
    advance_5 = 4,
    /// A passed pawn (no enemy pawn ahead on its line or beside it) by the steps still to
    /// go, endgame (the middlegame takes a third).
    passed_1 = 90,
    passed_2 = 60,
    passed_3 = 35,
    passed_4 = 20,
    passed_5 = 10,
    passed_6 = 5,
    /// Pawn structure, per pawn: no own pawn on a neighbouring line (isolated), another
    /// own pawn on its line (doubled), guarded by an own pawn, or an own pawn beside it
    /// (a phalanx). A pawn that cannot go back needs its neighbours.
    isolated_mg = -8,
    isolated_eg = -12,
    doubled_mg = -6,
    doubled_eg = -20,
    guarded_mg = 6,
    guarded_eg = 4,
    phalanx_mg = 4,
    phalanx_eg = 3,
    /// Threats: a piece (not pawn or king) attacked by an enemy pawn; a piece or pawn
    /// hanging (attacked and not strongly protected, and either undefended or, a piece,
    /// attacked twice). The side to move can answer one threat, rarely two. Scaled from
    /// Fairy-Stockfish's threat by a safe pawn and hanging piece, as the material is.
    pawn_threat_mg = -90,
    pawn_threat_eg = -50,
    hanging_mg = -37,
    hanging_eg = -19,
    /// A rook attacked by a knight, fers or fil, or a knight attacked by a fers or fil: the
    /// exchange loses material even where the piece is defended (about Fairy-Stockfish's
    /// threat by a minor piece).
    lesser_threat_mg = -40,
    lesser_threat_eg = -40,
    /// A piece an enemy pawn could attack by one safe step (Fairy-Stockfish's threat by a
    /// pawn push, scaled).
    push_threat_mg = -26,
    push_threat_eg = -21,
    /// Fairy-Stockfish's threats by a rook, knight and king, scaled: a pawn, knight or rook
    /// that no own pawn guards, attacked by an enemy rook; a pawn so attacked by a knight; a
    /// knight attacked by a knight; any such piece or pawn attacked by the enemy king (once).
    rook_threat_pawn_mg = -2,
    rook_threat_pawn_eg = -24,
    rook_threat_knight_mg = -20,
    rook_threat_knight_eg = -37,
    rook_threat_rook_mg = 0,
    rook_threat_rook_eg = -21,
    knight_threat_pawn_mg = -3,
    knight_threat_pawn_eg = -17,
    knight_threat_knight_mg = -30,
    knight_threat_knight_eg = -22,
    king_threat_mg = -13,
    king_threat_eg = -48,
    /// Per square a seat attacks that the enemy contests and no own pawn guards: the
    /// enemy restricts its pieces there (Fairy-Stockfish's restricted piece, both halves).
    restricted = -4,
    /// A rook on a line free of pawns (open), or of its own pawns only (half-open).
    rook_open_mg = 20,
    rook_open_eg = 10,
    rook_half_open_mg = 10,
    rook_half_open_eg = 5,
    /// King safety (middlegame): per own piece beside the king, and per enemy piece near
    /// it (4 less its distance).
    king_shield = 6,
    king_danger = -5,
    /// Fairy-Stockfish's king danger (`king_danger` in the evaluation: pieces bearing on the
    /// king's ring, checks, flank attacks), in percent of its units (54 would put its knight,
    /// 781, at libro's 420 as the material does; with a network fitted on top, 54 lost an
    /// SPRT at 10,000 nodes and 20 won one: docs/strength.md). It counts only under a network of
    /// `net::Mode::AddedWithKingDanger` (shatranj's).
    king_danger_scale = 20,
    /// The side to move acts first.
    tempo = 10,
}

/// Two seats: the knight's mobility, (middlegame, endgame) by the squares it counts in its
/// seat's mobility area: Fairy-Stockfish's `MobilityBonus` for the knight, scaled as the
/// material (× 420/781, its knight to libro's), rounded.
pub const KNIGHT_MOBILITY: [(i32, i32); 9] = [
    (-33, -42),
    (-29, -31),
    (-6, -17),
    (-2, -9),
    (2, 4),
    (6, 7),
    (11, 9),
    (15, 11),
    (20, 14),
];

/// Two seats: the rook's mobility, as [`KNIGHT_MOBILITY`] from Fairy-Stockfish's rook row
/// (a rook counting more squares, on a larger board, takes the last entry).
pub const ROOK_MOBILITY: [(i32, i32); 15] = [
    (-32, -44),
    (-13, -8),
    (0, 9),
    (2, 23),
    (2, 39),
    (8, 54),
    (11, 55),
    (16, 66),
    (22, 72),
    (22, 75),
    (22, 82),
    (24, 86),
    (31, 89),
    (31, 91),
    (36, 94),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_vector_reads_back_to_the_same_weights_and_a_short_one_is_refused() {
        let v = Weights::DEFAULT.to_vec();
        assert_eq!(v.len(), Weights::NAMES.len());
        assert_eq!(Weights::from_slice(&v), Some(Weights::DEFAULT));
        assert_eq!(Weights::from_slice(&v[1..]), None);
        let mut longer = v.clone();
        longer.push(0);
        assert_eq!(Weights::from_slice(&longer), None);
        let i = Weights::NAMES.iter().position(|&n| n == "tempo").unwrap();
        let mut changed = v;
        changed[i] = 11;
        assert_eq!(Weights::from_slice(&changed).unwrap().tempo, 11);
    }
}
