//! Engine-vs-engine matches: engines run as child processes speaking UCI or
//! XBoard, games of any turn-based or crowd variant both sides know, from
//! opening files or random balanced openings, with clocks, adjudication,
//! PGN records and the statistics of the result (Elo, LOS, SPRT).

pub mod board;
pub mod stats;
pub mod engine;
pub mod limits;
pub mod openings;
pub mod uci;
pub mod xboard;
