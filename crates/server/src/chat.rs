//! Games' chat: lines are stored (table `chat`) and go out live to the
//! game's lichess streams and to its pages' WebSockets (as `chatLine`).

use std::collections::HashMap;
use std::sync::Mutex;

use tokio::sync::broadcast;

use crate::cluster::news::News;
use crate::error::ApiError;
use crate::event::now_ms;
use crate::hub::Hub;
use crate::store::{Change, ChatLine};

/// The longest chat line taken, in characters (lichess's limit).
pub const MAX_CHAT_CHARS: usize = 140;
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
pub fn room(text: Option<&str>) -> Result<&'static str, ApiError> {
    match text.unwrap_or("player") {
        "player" => Ok("player"),
        "spectator" => Ok("spectator"),
        other => Err(ApiError::BadRequest(format!(
            "room is player or spectator, not {other:?}"
        ))),
    }
}

impl Hub {
    /// Stores a chat line of `game` and sends it to the game's listeners.
    pub async fn post_chat(
        &self,
        game: &str,
        author: &str,
        room: &str,
        text: &str,
    ) -> Result<(), ApiError> {
        let text = text.trim();
        if text.is_empty() {
            return Err(ApiError::BadRequest("an empty chat line".into()));
        }
        if text.chars().count() > MAX_CHAT_CHARS {
            return Err(ApiError::BadRequest(format!(
                "a chat line has at most {MAX_CHAT_CHARS} characters"
            )));
        }
        if text.chars().any(char::is_control) {
            return Err(ApiError::BadRequest(
                "control characters in a chat line".into(),
            ));
        }
        if self.store().load(game).await?.is_none() {
            return Err(ApiError::no_game(game));
        }
        let line = ChatLine {
            at_ms: now_ms(),
            author: author.to_string(),
            room: room.to_string(),
            text: text.to_string(),
        };
        self.writer
            .write(vec![Change::Chat {
                game: game.to_string(),
                line: line.clone(),
            }])
            .await?;
        self.chats().publish(game, line.clone());
        self.tell_other_nodes(News::Chat {
            game: game.to_string(),
            line,
        });
        Ok(())
    }
}
