//! Perft: the number of leaf nodes of the legal-move tree, the standard check of a move
//! generator. Decided positions (checkmate, stalemate that ends the game, bare king, a
//! single seat left) have no children; the repetition and no-progress draws are ignored.

use crate::options::ForcedCapture;
use crate::position::{with_pos, MoveList, Pos, Position};
use crate::rules::{ChessRules, Width};
use libro_core::Game as _;

/// Counts the leaves `depth` plies below `pos`, counting the last ply in bulk.
pub fn perft(r: &ChessRules, pos: &Position, depth: u32) -> u64 {
    with_pos!(pos, p => perft_in(r, p, depth))
}

/// [`perft`] in the position's own width.
pub(crate) fn perft_in<B: Width>(r: &ChessRules, pos: &Pos<B>, depth: u32) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("popcnt") {
        // SAFETY: the CPU has the `popcnt` instruction, checked just above.
        return unsafe { perft_popcnt(r, pos, depth) };
    }
    perft_plain(r, pos, depth)
}

/// The same recursion compiled with the `popcnt` instruction (the build targets baseline
/// x86-64, whose software bit count dominates bulk counting).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
fn perft_popcnt<B: Width>(r: &ChessRules, pos: &Pos<B>, depth: u32) -> u64 {
    perft_body!(perft_popcnt, r, pos, depth)
}

fn perft_plain<B: Width>(r: &ChessRules, pos: &Pos<B>, depth: u32) -> u64 {
    perft_body!(perft_plain, r, pos, depth)
}

/// The perft recursion, expanded into each variant so that the generator inlines into it.
macro_rules! perft_body {
    ($recurse:ident, $r:expr, $pos:expr, $depth:expr) => {{
        let (r, pos, depth) = ($r, $pos, $depth);
        perft_step(r, pos, depth, |child, d| $recurse(r, child, d))
    }};
}
use perft_body;

#[inline(always)]
fn perft_step<B: Width>(
    r: &ChessRules,
    pos: &Pos<B>,
    depth: u32,
    mut recurse: impl FnMut(&Pos<B>, u32) -> u64,
) -> u64 {
    if depth == 0 {
        return 1;
    }
    if pos.decided(r) {
        return 0;
    }
    if depth == 1 && r.options.forced_capture == ForcedCapture::None {
        if pos.bets_pending > 0 {
            return 101;
        }
        let n = pos.count_piece_moves(r);
        return if n == 0 && pos.may_pass(r) { 1 } else { n };
    }
    let mut moves = MoveList::new();
    pos.legal_moves(r, &mut moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut total = 0;
    for &mv in &moves {
        let mut child = *pos;
        child.play(r, mv);
        total += recurse(&child, depth - 1);
    }
    total
}

/// Perft split by the first move: each legal move in coordinate notation with its count.
pub fn perft_divide(game: &crate::ChessGame, depth: u32) -> Vec<(String, u64)> {
    let r = game.rules();
    let mut moves = MoveList::new();
    game.legal_moves(&mut moves);
    moves
        .iter()
        .map(|&mv| {
            let mut child = game.position().clone();
            child.play(r, mv);
            let n = if depth <= 1 {
                1
            } else {
                perft(r, &child, depth - 1)
            };
            (game.move_text(mv), n)
        })
        .collect()
}
