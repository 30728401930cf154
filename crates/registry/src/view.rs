//! Board views: what a renderer (the web page, the terminal) draws of a position, by the
//! board's geometry rather than by family. Serialised as the web page reads them.

use serde::Serialize;

/// A position as a renderer sees it.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "board", rename_all = "lowercase")]
pub enum BoardView {
    Grid(GridView),
    Track(TrackView),
}

impl BoardView {
    /// The position string of the viewed position.
    pub fn position(&self) -> &str {
        match self {
            BoardView::Grid(g) => &g.position,
            BoardView::Track(t) => &t.position,
        }
    }
}

/// A board of squares in files and ranks.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GridView {
    pub position: String,
    pub files: u8,
    pub ranks: u8,
    /// The occupied squares.
    pub squares: Vec<SquareView>,
    /// The squares of kings in check.
    pub check: Vec<String>,
    /// Which seats are still playing.
    pub active: Vec<bool>,
    /// The seat whose turn it is (or was, when the game ended).
    pub to_move: u8,
    /// Games with stakes: stakes, payments, pot, balances, who is out, each seat's target.
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub stakes: Option<StakesView>,
}

/// One occupied square.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SquareView {
    /// Its name (`e4`).
    pub sq: String,
    pub seat: u8,
    /// The letters of the pieces on it, bottom first (a pawn under the piece sharing its
    /// square, as set up).
    pub pieces: Vec<String>,
}

/// The stakes of a four-player game.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StakesView {
    /// Each seat's stake; `None` while its bet is still to be made.
    pub stakes: Vec<Option<u32>>,
    pub paid: Vec<u64>,
    pub pot: u64,
    pub balances: Vec<f64>,
    /// The seats out of the game, in the order they went out.
    pub out: Vec<u8>,
    /// Whose pieces each seat may capture.
    pub targets: Vec<u8>,
}

/// A tables board: points along a track, the bar, the checkers borne off, the dice.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TrackView {
    pub position: String,
    /// `points[p - 1]` for board point `p` (the first seat's numbering): `[seat, count]`.
    pub points: Vec<Option<[u8; 2]>>,
    /// The board points whose two checkers still stand stacked, one on the other (Doblet).
    pub stacked: Vec<u8>,
    /// Checkers on the bar, per seat.
    pub bar: [u8; 2],
    /// Checkers borne off, per seat.
    pub off: [u8; 2],
    /// Checkers per seat.
    pub checkers: u8,
    /// Per seat, its own point numbers (index) to board points (value), with the bar and
    /// off at their own indexes.
    pub map: Vec<Vec<u8>>,
    /// `roll-off`, `roll`, `move`, or how the game ended (`falla`, `bore-off`).
    pub phase: String,
    /// The seat the phase is about (to roll, to move, the loser of a falla, the winner).
    pub seat: Option<u8>,
    /// The dice to play (or that could not all be played).
    pub dice: Vec<u8>,
}
