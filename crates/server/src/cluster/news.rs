//! News between nodes: what a node tells the clients of an account or a
//! game that may be connected to another node (account events, chat
//! lines) goes out on the channel [`NEWS_CHANNEL`] as well, and every
//! other node tells its own clients. Only ids and short texts travel; a
//! node reads anything else (a game's state) as for its own clients.

use std::sync::{Arc, Weak};

use serde::{Deserialize, Serialize};
use tokio::sync::mpsc;

use super::{Cluster, NodeHub};
use crate::accounts::events::AccountEvent;
use crate::store::ChatLine;

/// The channel of news (`pg_notify`), beside the events' channel.
pub const NEWS_CHANNEL: &str = "parity_news";

/// What one node tells the others.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum News {
    Account { user: String, event: AccountEvent },
    Chat { game: String, line: ChatLine },
}

/// A notification's payload: the news and the node it is from.
#[derive(Debug, Serialize, Deserialize)]
struct Notice {
    from: String,
    news: News,
}

impl Cluster {
    /// Tells the other nodes (they pass it to their clients).
    pub(crate) async fn announce(&self, news: News) {
        let notice = Notice {
            from: self.node.clone(),
            news,
        };
        let payload = match serde_json::to_string(&notice) {
            Ok(payload) => payload,
            Err(e) => return tracing::error!("news not written: {e}"),
        };
        if let Err(e) = self.session.notify(NEWS_CHANNEL, &payload).await {
            tracing::error!("news not sent to the other nodes: {e}");
        }
    }

    /// Passes the other nodes' news to this node's clients, for as long
    /// as the hub lives.
    pub fn hear_news<H: NodeHub>(self: &Arc<Self>, hub: Weak<H>) {
        let Some(mut heard) = self.heard.lock().unwrap_or_else(|e| e.into_inner()).take() else {
            return;
        };
        let node = self.node.clone();
        tokio::spawn(async move {
            while let Some(payload) = heard.recv().await {
                let Some(hub) = hub.upgrade() else { return };
                match serde_json::from_str::<Notice>(&payload) {
                    Ok(notice) if notice.from != node => hub.hear(notice.news),
                    Ok(_) => {}
                    Err(e) => tracing::warn!("unreadable news from another node: {e}"),
                }
            }
        });
    }
}

/// Where the listening session puts the news it hears.
pub(crate) fn channel() -> (
    mpsc::UnboundedSender<String>,
    mpsc::UnboundedReceiver<String>,
) {
    mpsc::unbounded_channel()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn news_reads_back_as_written() {
        for news in [
            News::Account {
                user: "ada".into(),
                event: AccountEvent::ChallengeDeclined {
                    id: "a1B2c3D4".into(),
                    reason: "later".into(),
                },
            },
            News::Chat {
                game: "a1B2c3D4".into(),
                line: ChatLine {
                    at_ms: 7,
                    author: "Ada".into(),
                    room: "player".into(),
                    text: "gg \"all\"\n".into(),
                },
            },
        ] {
            let notice = Notice {
                from: "node".into(),
                news: news.clone(),
            };
            let back: Notice =
                serde_json::from_str(&serde_json::to_string(&notice).unwrap()).unwrap();
            assert_eq!((back.from.as_str(), back.news), ("node", news));
        }
    }
}
