//! The messages a game's actor takes, and what it answers.

use parity_rules::{Color, Move};
use tokio::sync::{broadcast, oneshot};

use crate::base::refusal::Refusal;
use crate::game::event::{Logged, Side};
use crate::game::play::TypedMove;
use crate::game::state::{Action, GameFull};

/// One token a request presented.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Presented {
    pub token: String,
    pub hash: String,
    /// Found in a cookie named for another game (a rematch keeps tokens).
    pub other_cookie: bool,
}

/// The tokens a request carries, the most specific first.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Credentials {
    pub tokens: Vec<Presented>,
    /// The request sent an `Authorization: Bearer` header (tokens holds it
    /// if it looked like a token at all).
    pub bearer: bool,
}

impl Credentials {
    pub fn is_empty(&self) -> bool {
        self.tokens.is_empty()
    }
    pub fn hashes(&self) -> Vec<String> {
        self.tokens.iter().map(|t| t.hash.clone()).collect()
    }
}

/// An accepted action.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Acted {
    /// The last event it added.
    pub seq: u64,
    /// The new game, when the action made a rematch.
    pub game: Option<String>,
    /// A token to set as this game's cookie (it came under another game's name).
    pub cookie: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Joined {
    pub id: String,
    pub color: Side,
    pub token: String,
}

/// What a viewer gets: the state, the events it missed, the live feed.
#[derive(Debug)]
pub struct Watching {
    pub full: Option<GameFull>,
    pub catchup: Vec<Logged>,
    pub live: Option<broadcast::Receiver<Logged>>,
    /// The log's length when this was taken.
    pub seq: u64,
    pub cookie: Option<String>,
    /// The seat the viewer's tokens hold, if any.
    pub seat: Option<Color>,
}

pub enum Msg {
    Act {
        credentials: Credentials,
        action: Action,
        reply: oneshot::Sender<Result<Acted, Refusal>>,
    },
    Join {
        invite: String,
        reply: oneshot::Sender<Result<Joined, Refusal>>,
    },
    Watch {
        credentials: Credentials,
        since: Option<u64>,
        full: bool,
        live: bool,
        reply: oneshot::Sender<Result<Watching, Refusal>>,
    },
    /// Aborts the game if the friend has still not joined.
    Expire { reply: oneshot::Sender<()> },
    Record {
        reply: oneshot::Sender<Result<String, Refusal>>,
    },
    Pgn {
        site: String,
        /// The names of the accounts holding the seats, white's first.
        accounts: [Option<String>; 2],
        reply: oneshot::Sender<String>,
    },
    /// An engine search got a worker: its wait ends.
    Working { color: Color },
    /// The game's line, for the move list's navigation.
    Line {
        reply: oneshot::Sender<crate::game::line::Line>,
    },
    /// Typed move text read against the game now.
    ReadMove {
        color: Color,
        text: String,
        reply: oneshot::Sender<Result<TypedMove, Refusal>>,
    },
    /// An engine search finished; `epoch` is the number of moves or turns
    /// played when it started, so a late answer is recognised.
    Thought {
        color: Color,
        epoch: usize,
        mv: Option<Move>,
    },
}
