//! Zobrist keys for repetition detection.

use crate::geometry::{Square, MAX_SQUARES};
use crate::position::{Color, Kind};

/// Random keys for one variant's pieces and squares.
#[derive(Debug)]
pub struct Keys {
    kinds: usize,
    pieces: Vec<u64>,
    castling: [u64; MAX_SQUARES],
    en_passant: [u64; MAX_SQUARES],
    pub black_to_move: u64,
}

/// SplitMix64: a fixed, well-mixed sequence so keys are the same in every run.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

impl Keys {
    pub fn new(squares: usize, kinds: usize) -> Keys {
        let mut rng = SplitMix(0x5041_5249_5459); // "PARITY"
        let pieces = (0..2 * kinds * squares).map(|_| rng.next()).collect();
        let mut castling = [0; MAX_SQUARES];
        castling.iter_mut().for_each(|k| *k = rng.next());
        let mut en_passant = [0; MAX_SQUARES];
        en_passant.iter_mut().for_each(|k| *k = rng.next());
        Keys { kinds, pieces, castling, en_passant, black_to_move: rng.next() }
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
