//! What an account hears about (`/api/stream/event` reads it): a bus per
//! account, for whoever listens.

use std::collections::HashMap;
use std::sync::Mutex;

use tokio::sync::broadcast;

/// What an account hears about on `/api/stream/event`.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum AccountEvent {
    GameStart {
        game: String,
    },
    GameFinish {
        game: String,
    },
    /// A challenge to or from the account (its id in the lobby).
    Challenge {
        id: String,
    },
    ChallengeCanceled {
        id: String,
    },
    ChallengeDeclined {
        id: String,
        reason: String,
    },
}

/// Events per account, for whoever listens; nothing is kept for an
/// account that is not listening (its stream starts with its games).
#[derive(Default)]
pub struct AccountEvents {
    channels: Mutex<HashMap<String, broadcast::Sender<AccountEvent>>>,
}

/// Events an account's stream may fall behind before it is cut off.
const EVENT_CAPACITY: usize = 64;

impl AccountEvents {
    pub fn subscribe(&self, user_id: &str) -> broadcast::Receiver<AccountEvent> {
        let mut channels = self.channels.lock().unwrap_or_else(|e| e.into_inner());
        channels.retain(|_, tx| tx.receiver_count() > 0);
        channels
            .entry(user_id.to_string())
            .or_insert_with(|| broadcast::channel(EVENT_CAPACITY).0)
            .subscribe()
    }

    pub fn publish(&self, user_id: &str, event: AccountEvent) {
        let channels = self.channels.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(tx) = channels.get(user_id) {
            let _ = tx.send(event);
        }
    }
}
