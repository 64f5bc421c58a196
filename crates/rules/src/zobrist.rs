//! Zobrist keys for repetition detection.

use rand_chacha::rand_core::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::geometry::{Square, MAX_SQUARES};
use crate::types::{Color, Kind};

/// Random keys for one variant's pieces and squares.
#[derive(Debug)]
pub struct Keys {
    kinds: usize,
    pieces: Vec<u64>,
    castling: [u64; MAX_SQUARES],
    en_passant: [u64; MAX_SQUARES],
    pub black_to_move: u64,
}

impl Keys {
    pub fn new(squares: usize, kinds: usize) -> Keys {
        // A fixed seed, so keys are the same in every run.
        let mut rng = ChaCha8Rng::seed_from_u64(0x5041_5249_5459); // "PARITY"
        let pieces = (0..2 * kinds * squares).map(|_| rng.next_u64()).collect();
        let mut castling = [0; MAX_SQUARES];
        castling.iter_mut().for_each(|k| *k = rng.next_u64());
        let mut en_passant = [0; MAX_SQUARES];
        en_passant.iter_mut().for_each(|k| *k = rng.next_u64());
        Keys {
            kinds,
            pieces,
            castling,
            en_passant,
            black_to_move: rng.next_u64(),
        }
    }

    #[inline]
    pub fn piece(&self, color: Color, kind: Kind, sq: Square) -> u64 {
        self.pieces[(sq.index() * 2 + color.index()) * self.kinds + kind.index()]
    }

    #[inline]
    pub fn castling(&self, sq: Square) -> u64 {
        self.castling[sq.index()]
    }

    #[inline]
    pub fn en_passant(&self, sq: Square) -> u64 {
        self.en_passant[sq.index()]
    }
}
