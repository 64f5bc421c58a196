//! One game by the rules, without storage or network: its events, clock,
//! moves as text, state and the decisions on actions, records and their
//! verification, analysis, and the engine seats' pool.

pub mod analysis;
pub mod clock;
pub mod engine_seat;
pub mod event;
pub mod line;
pub(crate) mod pgn;
pub mod play;
pub mod review;
pub mod state;
pub mod verify;
