//! Games' chat: lines are stored (table `chat`) and go out live to the
//! game's lichess streams and to its pages' WebSockets (as `chatLine`).

use std::collections::HashMap;
use std::sync::Mutex;

use tokio::sync::broadcast;

use crate::base::refusal::{Refusal, Said};
use crate::store::ChatLine;

/// The longest chat line taken, in characters (lichess's limit).
pub const MAX_CHAT_CHARS: usize = 140;
/// The most recent lines a game's chat shows; older ones stay stored.
pub const CHAT_LINES_SHOWN: usize = 100;
/// Lines a listener may fall behind before it misses some.
const CHAT_CAPACITY: usize = 32;

/// The live chat of each game that someone listens to.
#[derive(Default)]
pub struct Chats {
    rooms: Mutex<HashMap<String, broadcast::Sender<ChatLine>>>,
}

impl Chats {
    pub fn subscribe(&self, game: &str) -> broadcast::Receiver<ChatLine> {
        let mut rooms = self.rooms.lock().unwrap_or_else(|e| e.into_inner());
        rooms.retain(|_, tx| tx.receiver_count() > 0);
        rooms
            .entry(game.to_string())
            .or_insert_with(|| broadcast::channel(CHAT_CAPACITY).0)
            .subscribe()
    }

    pub(crate) fn publish(&self, game: &str, line: ChatLine) {
        let rooms = self.rooms.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(tx) = rooms.get(game) {
            let _ = tx.send(line);
        }
    }
}

/// Lichess's `chatLine` of a game stream; the page's WebSocket sends the same.
pub fn chat_line_json(line: &ChatLine) -> serde_json::Value {
    serde_json::json!({
        "type": "chatLine",
        "room": line.room,
        "username": line.author,
        "text": line.text,
    })
}

/// The room of a chat line: lichess's `player` or `spectator`.
pub fn room(text: Option<&str>) -> Result<&'static str, Refusal> {
    match text.unwrap_or("player") {
        "player" => Ok("player"),
        "spectator" => Ok("spectator"),
        other => Err(Refusal::Malformed(
            Said::new("server-refusal-room-player-spectator-not")
                .with("other", format!("{:?}", other)),
        )),
    }
}
