//! Perft: counting move paths, the standard correctness check of a move
//! generator. The last ply is counted from destination sets, not played.

use crate::position::{Move, Position};

pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal_moves(),
        _ => pos.legal_moves().into_iter().map(|mv| perft(&pos.play(mv), depth - 1)).sum(),
    }
}

/// Perft per root move.
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    pos.legal_moves().into_iter().map(|mv| (mv, perft(&pos.play(mv), depth - 1))).collect()
}
