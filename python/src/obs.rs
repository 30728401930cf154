//! Observation tensors, from the registry's board views so that any ruleset of a board
//! geometry gets one. The layouts are documented in the package README and `Game`'s
//! docstring; the tests check them against positions read by hand.

use libro_core::Turn;
use libro_registry::{AnyRuleset, BoardView, DynGame, Geometry};

/// How a ruleset's positions become a flat vector of floats.
pub enum Layout {
    /// Planes over ranks x files (row-major, rank 1 first, file a first): one plane per
    /// (seat, piece type) holding 1 where that seat has that piece, then one plane per seat
    /// all 1 for the seat to move.
    Grid {
        files: usize,
        ranks: usize,
        seats: usize,
        /// The piece types' letters in upper case, in the ruleset's order.
        letters: Vec<String>,
    },
    /// Per seat, its checkers on each board point (the first seat's numbering 1..points);
    /// then the checkers on the bar per seat, borne off per seat; the dice to play, one
    /// one-hot block of `sides` per die (largest first); the seat to move, one-hot; and in
    /// games that begin with pairs stacked (Doblet), 1 on each board point whose pair is
    /// still stacked.
    Track {
        points: usize,
        dice: usize,
        sides: usize,
        stacks: bool,
    },
}

impl Layout {
    pub fn of(rules: &AnyRuleset) -> Layout {
        match rules.geometry() {
            Geometry::Grid { files, ranks } => Layout::Grid {
                files: usize::from(files),
                ranks: usize::from(ranks),
                seats: rules.seat_names().len(),
                letters: rules
                    .pieces()
                    .into_iter()
                    .map(|p| p.letter.to_uppercase())
                    .collect(),
            },
            Geometry::Track { points } => {
                let (dice, sides) = rules.dice().unwrap_or((0, 0));
                let stacks = matches!(rules.new_game(0).view(), BoardView::Track(v) if !v.stacked.is_empty());
                Layout::Track {
                    points: usize::from(points),
                    dice: usize::from(dice),
                    sides: usize::from(sides),
                    stacks,
                }
            }
        }
    }

    /// The tensor's shape: (planes, ranks, files) for grids, (length,) for tracks.
    pub fn shape(&self) -> Vec<usize> {
        match self {
            Layout::Grid {
                files,
                ranks,
                seats,
                letters,
            } => vec![seats * letters.len() + seats, *ranks, *files],
            Layout::Track { .. } => vec![self.size()],
        }
    }

    pub fn size(&self) -> usize {
        match self {
            Layout::Grid { .. } => self.shape().iter().product(),
            Layout::Track {
                points,
                dice,
                sides,
                stacks,
            } => 2 * points + 4 + dice * sides + 2 + if *stacks { *points } else { 0 },
        }
    }

    /// Writes the tensor of `g` into `out` (of `size()` floats, zeroed by the caller).
    pub fn write(&self, g: &dyn DynGame, out: &mut [f32]) {
        let to_move = match g.turn() {
            Turn::Seat(s) => Some(s.index()),
            _ => None,
        };
        match (self, g.view()) {
            (
                Layout::Grid {
                    files,
                    ranks,
                    seats,
                    letters,
                },
                BoardView::Grid(view),
            ) => {
                let area = files * ranks;
                for sq in &view.squares {
                    let Some(cell) = square_index(&sq.sq, *files, *ranks) else {
                        continue;
                    };
                    for letter in &sq.pieces {
                        let upper = letter.to_uppercase();
                        if let Some(t) = letters.iter().position(|l| *l == upper) {
                            let plane = usize::from(sq.seat) * letters.len() + t;
                            out[plane * area + cell] = 1.0;
                        }
                    }
                }
                if let Some(s) = to_move {
                    let plane = seats * letters.len() + s;
                    out[plane * area..(plane + 1) * area].fill(1.0);
                }
            }
            (
                Layout::Track {
                    points,
                    dice,
                    sides,
                    stacks,
                },
                BoardView::Track(view),
            ) => {
                for (p, point) in view.points.iter().enumerate().take(*points) {
                    if let Some([seat, count]) = point {
                        out[usize::from(*seat) * points + p] = f32::from(*count);
                    }
                }
                let base = 2 * points;
                out[base] = f32::from(view.bar[0]);
                out[base + 1] = f32::from(view.bar[1]);
                out[base + 2] = f32::from(view.off[0]);
                out[base + 3] = f32::from(view.off[1]);
                let dice_base = base + 4;
                // The dice to play only while a seat is to move (a finished game's view keeps
                // the dice that could not be played).
                if to_move.is_some() {
                    for (i, &d) in view.dice.iter().enumerate().take(*dice) {
                        if (1..=*sides).contains(&usize::from(d)) {
                            out[dice_base + i * sides + usize::from(d) - 1] = 1.0;
                        }
                    }
                }
                if let Some(s) = to_move {
                    out[dice_base + dice * sides + s] = 1.0;
                }
                if *stacks {
                    let stacks_base = dice_base + dice * sides + 2;
                    for &p in &view.stacked {
                        if (1..=*points).contains(&usize::from(p)) {
                            out[stacks_base + usize::from(p) - 1] = 1.0;
                        }
                    }
                }
            }
            _ => unreachable!("a ruleset's views have its geometry"),
        }
    }
}

/// The cell (rank * files + file) of a square name such as `e4` or `l12`.
fn square_index(name: &str, files: usize, ranks: usize) -> Option<usize> {
    let split = name.find(|c: char| c.is_ascii_digit())?;
    let (letters, digits) = name.split_at(split);
    let mut file = 0usize;
    for c in letters.chars() {
        if !c.is_ascii_lowercase() {
            return None;
        }
        file = file * 26 + usize::from(c as u8 - b'a') + 1;
    }
    let file = file.checked_sub(1)?;
    let rank = digits.parse::<usize>().ok()?.checked_sub(1)?;
    (file < files && rank < ranks).then_some(rank * files + file)
}

#[cfg(test)]
mod tests {
    use super::square_index;

    #[test]
    fn square_names_map_to_rank_major_cells() {
        assert_eq!(square_index("a1", 8, 8), Some(0));
        assert_eq!(square_index("h1", 8, 8), Some(7));
        assert_eq!(square_index("a2", 8, 8), Some(8));
        assert_eq!(square_index("l12", 12, 12), Some(143));
        assert_eq!(square_index("i9", 8, 8), None);
    }
}
