//! Parity's engine: a variant-generic evaluation, an alpha-beta search for
//! the turn-based and crowd families, and the UCI front end.

pub mod eval;
pub mod level;
pub mod matrix;
pub mod net;
pub mod opponent;
pub mod search;
pub mod see;
pub mod simplay;
pub mod simsearch;
pub mod solve;
pub mod tt;
pub mod tune;
pub mod uci;

pub use search::{Limits, Report, SearchResult, Searcher};
