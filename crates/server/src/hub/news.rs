//! The hub's side of the news between nodes: what it tells the others,
//! and what it hears from them, for its own clients.

use std::sync::Arc;

use crate::base::refusal::Refusal;
use crate::cluster::news::News;
use crate::cluster::NodeHub;
use crate::hub::Hub;

impl Hub {
    /// In a cluster, tells the other nodes (in the background); this
    /// node's own clients have been told by the caller.
    pub(crate) fn tell_other_nodes(&self, news: News) {
        if let Some(cluster) = self.cluster().cloned() {
            tokio::spawn(async move { cluster.announce(news).await });
        }
    }
}

impl NodeHub for Hub {
    async fn take_over(self: Arc<Self>, id: String) -> Result<(), Refusal> {
        Hub::take_over(&self, &id).await
    }

    fn hear(&self, news: News) {
        match news {
            News::Account { user, event } => self.account_events().publish(&user, event),
            News::Chat { game, line } => self.chats().publish(&game, line),
        }
    }
}
