//! Engine-vs-engine matches: engines run as child processes speaking UCI or
//! XBoard, games of any turn-based or crowd variant both sides know, and of
//! the simultaneous variants over UCI with joint moves ([`sim`]), from
//! opening files or random balanced openings, with clocks, adjudication,
//! PGN records and the statistics of the result (Elo, LOS, SPRT).

pub mod board;
pub mod engine;
pub mod game;
pub mod launch;
pub mod limits;
pub mod openings;
pub mod pgn;
pub mod positions;
pub mod sim;
pub mod sim_board;
pub mod stats;
pub mod study;
pub mod tournament;
pub mod uci;
pub mod xboard;

pub use engine::{EngineSpec, OwnEngine, Protocol};
pub use game::{
    Adjudication, Cause, DrawRule, GameRecord, PlayedMove, PlayedTurn, ResignRule, Termination,
};
pub use limits::{Limits, TimeControl};
pub use openings::Opening;
pub use stats::Sprt;
pub use tournament::{Event, MatchConfig, Pairing, Summary};
