//! Perft: the number of leaf nodes of the legal-move tree, the standard check of a move
//! generator. Decided positions (checkmate, stalemate that ends the game, bare king, a
//! single seat left) have no children; the repetition and no-progress draws are ignored.

use crate::position::{MoveList, Position};
use crate::rules::ChessRules;
use libro_core::Game as _;
use crate::options::ForcedCapture;

/// Counts the leaves `depth` plies below `pos`, counting the last ply in bulk.
pub fn perft(r: &ChessRules, pos: &Position, depth: u32) -> u64 {
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
        total += perft(r, &child, depth - 1);
    }
    total
}

/// Perft split by the first move: each legal move in coordinate notation with its count.
pub fn perft_divide(game: &crate::ChessGame, depth: u32) -> Vec<(String, u64)> {
    let r = game.rules();
    let pos = game.position();
    let mut moves = MoveList::new();
    game.legal_moves(&mut moves);
    moves
        .iter()
        .map(|&mv| {
            let mut child = *pos;
            child.play(r, mv);
            let n = if depth <= 1 { 1 } else { perft(r, &child, depth - 1) };
            (game.move_text(mv), n)
        })
        .collect()
}
