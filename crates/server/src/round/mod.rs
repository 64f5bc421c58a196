//! A game in play: one actor per game, answering after a durable write.

pub mod actor;
pub mod host;
pub mod msg;
