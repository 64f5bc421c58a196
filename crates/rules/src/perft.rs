//! Perft: counting move paths, the standard correctness check of a move
//! generator. The last ply is counted from destination sets, not played.

use crate::geometry::Word;
use crate::position::Position;
use crate::types::Move;

pub fn perft<W: Word>(pos: &Position<W>, depth: u32) -> u64 {
    let mut buffers = vec![Vec::with_capacity(256); depth as usize];
    perft_with(pos, depth, &mut buffers)
}

/// Perft with one reusable move list per ply, so no node allocates.
fn perft_with<W: Word>(pos: &Position<W>, depth: u32, buffers: &mut [Vec<Move>]) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal_moves(),
        _ => {
            let (list, rest) = buffers.split_first_mut().expect("one buffer per ply");
            list.clear();
            crate::movegen::generate(pos, list);
            list.iter()
                .map(|&mv| perft_with(&pos.play(mv), depth - 1, rest))
                .sum()
        }
    }
}
