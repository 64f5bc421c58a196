//! What a game's actor needs from the server around it. The hub provides
//! it; the actor knows nothing above this layer.

use std::future::Future;
use std::time::{Duration, Instant};

use parity_rules::Color;
use tokio::sync::mpsc;

use crate::base::refusal::Refusal;
use crate::game::engine_seat::EnginePool;
use crate::game::state::{GameState, Setup};
use crate::round::msg::Msg;
use crate::store::{Change, SeatRow, Writer};

/// A new game's rows and its state after them.
pub struct Prepared {
    pub changes: Vec<Change>,
    pub state: GameState,
    pub seats: [SeatRow; 2],
}

/// The game a rematch is made from.
pub struct RematchOf {
    pub id: String,
    pub setup: Setup,
    pub seats: [SeatRow; 2],
}

pub trait Host: Clone + Send + Sync + 'static {
    fn writer(&self) -> &Writer;
    fn engines(&self) -> &EnginePool;
    /// Signs the records the server gives out.
    fn record_key(&self) -> &ed25519_dalek::SigningKey;
    /// How long a game with nothing pending and nobody watching keeps its actor.
    fn idle(&self) -> Duration;
    fn max_watchers(&self) -> usize;
    /// The actor of `id` stops: later requests load the game again.
    fn forget(&self, id: &str, mailbox: &mpsc::Sender<Msg>);
    /// The actor of `id` has stopped: its lease (in a cluster) goes.
    fn release(&self, id: &str) -> impl Future<Output = ()> + Send;
    /// Game `id` as stored, to bring an actor back in line with the database.
    fn replay(
        &self,
        id: &str,
    ) -> impl Future<Output = Result<(GameState, [SeatRow; 2]), Refusal>> + Send;
    /// The rows of the rematch `id` of `old`: colours swapped, each
    /// player's seat carried over.
    fn prepare_rematch(
        &self,
        old: RematchOf,
        id: String,
        now: Instant,
    ) -> impl Future<Output = Result<Prepared, Refusal>> + Send;
    /// Starts the rematch once its rows are written.
    fn start_rematch(&self, rematch: Prepared) -> impl Future<Output = ()> + Send;
    /// Rates game `id`, which just ended, and tells its players.
    fn game_ended(&self, id: &str) -> impl Future<Output = ()> + Send;
    /// Correspondence game `id` moved on to event `seq`: the `sides` must
    /// move now (not the one that just moved); their accounts are told.
    fn to_move(&self, id: &str, seq: u64, sides: Vec<Color>);
}
