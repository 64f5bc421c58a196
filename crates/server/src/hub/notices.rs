//! What clients hear about besides their games' events: account events
//! (challenges, games started and finished) and chat lines, told to this
//! node's listeners and, in a cluster, to the other nodes', which hear
//! them back through `hear`.

use std::sync::Arc;

use crate::accounts::events::{AccountEvent, AccountEvents};
use crate::cluster::news::News;
use crate::cluster::Cluster;
use crate::hub::chat::Chats;
use crate::store::ChatLine;

#[derive(Default)]
pub struct Notices {
    account_events: AccountEvents,
    chats: Chats,
    cluster: Option<Arc<Cluster>>,
}

impl Notices {
    pub fn new(cluster: Option<Arc<Cluster>>) -> Notices {
        Notices {
            cluster,
            ..Notices::default()
        }
    }

    pub fn account_events(&self) -> &AccountEvents {
        &self.account_events
    }

    pub fn chats(&self) -> &Chats {
        &self.chats
    }

    /// Tells an account, here and on the other nodes.
    pub fn tell(&self, user: &str, event: AccountEvent) {
        self.account_events.publish(user, event.clone());
        self.tell_other_nodes(News::Account {
            user: user.to_string(),
            event,
        });
    }

    /// Sends a stored chat line to the game's listeners, here and on the
    /// other nodes.
    pub fn chat(&self, game: &str, line: ChatLine) {
        self.chats.publish(game, line.clone());
        self.tell_other_nodes(News::Chat {
            game: game.to_string(),
            line,
        });
    }

    /// News from another node, for this node's listeners.
    pub fn hear(&self, news: News) {
        match news {
            News::Account { user, event } => self.account_events.publish(&user, event),
            News::Chat { game, line } => self.chats.publish(&game, line),
        }
    }

    /// In a cluster, tells the other nodes (in the background).
    fn tell_other_nodes(&self, news: News) {
        if let Some(cluster) = self.cluster.clone() {
            tokio::spawn(async move { cluster.announce(news).await });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_node_alone_tells_its_own_listeners() {
        let notices = Notices::new(None);
        let mut account = notices.account_events().subscribe("u1");
        let mut chat = notices.chats().subscribe("g1");
        notices.tell("u1", AccountEvent::GameStart { game: "g1".into() });
        let line = ChatLine {
            at_ms: 1,
            author: "ann".into(),
            room: "player".into(),
            text: "hello".into(),
        };
        notices.chat("g1", line.clone());
        notices.hear(News::Account {
            user: "u1".into(),
            event: AccountEvent::GameFinish { game: "g1".into() },
        });
        assert!(matches!(account.try_recv(), Ok(AccountEvent::GameStart { game }) if game == "g1"));
        assert_eq!(chat.try_recv().unwrap().text, "hello");
        assert!(matches!(
            account.try_recv(),
            Ok(AccountEvent::GameFinish { .. })
        ));
    }
}
