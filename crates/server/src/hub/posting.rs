//! Posting a chat line: checked, stored, and sent to the game's listeners
//! here and on the other nodes.

use std::sync::Arc;

use crate::base::limits::Limits;
use crate::base::refusal::{Refusal, Said};
use crate::game::event::now_ms;
use crate::hub::chat::MAX_CHAT_CHARS;
use crate::hub::notices::Notices;
use crate::store::{Change, ChatLine, Store, Writer};

/// The marks and overrides that reorder the text around them (a name can
/// be made to read as another's).
fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// Games' chat: lines checked, stored, then told.
pub struct Posting {
    store: Arc<Store>,
    writer: Writer,
    limits: Limits,
    notices: Arc<Notices>,
}

impl Posting {
    pub fn new(
        store: Arc<Store>,
        writer: Writer,
        limits: Limits,
        notices: Arc<Notices>,
    ) -> Posting {
        Posting {
            store,
            writer,
            limits,
            notices,
        }
    }

    /// Stores a chat line of `game` and sends it to the game's listeners.
    pub async fn post_chat(
        &self,
        game: &str,
        author: &str,
        room: &str,
        text: &str,
    ) -> Result<(), Refusal> {
        let text = text.trim();
        if text.is_empty() {
            return Err(Refusal::Malformed(Said::new(
                "server-refusal-empty-chat-line",
            )));
        }
        if text.chars().count() > MAX_CHAT_CHARS {
            return Err(Refusal::Malformed(
                Said::new("server-refusal-chat-line-has-most-characters")
                    .with("MAX_CHAT_CHARS", MAX_CHAT_CHARS),
            ));
        }
        if text.chars().any(|c| c.is_control() || is_bidi_control(c)) {
            return Err(Refusal::Malformed(Said::new(
                "server-refusal-control-text-direction-characters-chat",
            )));
        }
        if self.store.load(game).await?.is_none() {
            return Err(Refusal::no_game(game));
        }
        let most = self.limits.chat_lines_per_game;
        if self.store.chat(game).await?.len() >= most {
            return Err(Refusal::NotNow(
                Said::new("server-refusal-game-s-chat-full-lines").with("most", most),
            ));
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
        self.notices.chat(game, line);
        Ok(())
    }
}
