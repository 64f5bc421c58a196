//! Who sits on each side of a game made by the lobby.

use crate::game::event::LiveClock;
use crate::store::UserRow;

/// Who sits on one side of a new game.
#[derive(Clone, Debug)]
pub enum Player {
    Account(UserRow),
    Engine { level: u8 },
}

/// A game between accounts (or an account and our engine), made by an
/// accepted challenge or seek.
#[derive(Clone, Debug)]
pub struct Pairing {
    /// The game's id: a challenge's game takes the challenge's id, as on
    /// lichess (lichess-bot tells its games by it); none for a new one.
    pub id: Option<String>,
    pub variant: String,
    pub clock: Option<LiveClock>,
    pub days: Option<u32>,
    pub white: Player,
    pub black: Player,
    /// Counts for the ratings; only between two accounts.
    pub rated: bool,
    pub fen: Option<String>,
    /// Paired by a tournament, not chosen by the players: the daily limit
    /// on rated games between two accounts does not apply.
    pub by_tournament: bool,
}
