//! Parity's rules core: board geometry, Betza pieces, variants as data,
//! positions, legal moves, notation and adjudication. No I/O, no threads.

pub mod any;
pub mod betza;
pub mod crowd;
pub mod format;
pub mod game;
pub mod geometry;
pub mod movegen;
pub mod outcome;
pub mod perft;
pub mod position;
pub mod registry;
pub mod simultaneous;
pub mod slide;
pub mod types;
pub mod variant;
pub mod view;
pub mod zobrist;

pub use any::AnyGame;
pub use fen::FenError;
pub use format::{fen, notation, record};
pub use game::{Game, GameError, SimGame, TurnPosition};
pub use geometry::{Bitboard, Shape, Square, Word};
pub use notation::{IllegalHint, NotationError};
pub use outcome::{Outcome, Reason};
pub use position::{Position, PositionError, Setup};
pub use registry::{Registry, VariantError};
pub use types::{ByColor, Color, Kind, Move, Piece, Special};
pub use variant::{HasVariant, Variant};
pub use view::{NarrowView, PieceView};
