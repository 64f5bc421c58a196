//! Parity's rules core: board geometry, Betza pieces, variants as data,
//! positions, legal moves, notation and adjudication. No I/O, no threads.

pub mod betza;
pub mod crowd;
pub mod fen;
pub mod game;
pub mod geometry;
pub mod movegen;
pub mod notation;
pub mod perft;
pub mod position;
pub mod record;
pub mod simultaneous;
pub mod variant;
pub mod zobrist;

pub use fen::FenError;
pub use game::{Game, GameError, Outcome};
pub use geometry::{Bitboard, Shape, Square};
pub use notation::NotationError;
pub use position::{Color, Kind, Move, Piece, Position, PositionError, Setup, Special};
pub use variant::{Registry, Variant, VariantError};
