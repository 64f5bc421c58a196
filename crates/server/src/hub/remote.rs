//! Games another node owns: what this node asks their owner
//! ([`Hub::on_owner`]), how it serves what the others ask it
//! ([`Hub::serve_node`]), and the hub as the cluster's `NodeHub` (games
//! taken over, news heard).

use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::base::refusal::{Refusal, Said};
use crate::cluster::news::News;
use crate::cluster::node::{self, NodeReply, NodeRequest, Unreached, OWNER_PATIENCE};
use crate::cluster::NodeHub;
use crate::hub::{Hub, Owner};

impl Hub {
    /// Asks game `id`'s owner when that is another node, and gives its
    /// reply; none when the game is played here (and always on one node,
    /// or while serving another node's request: never asked on twice).
    /// An owner not yet known or not reachable (just killed: its lease is
    /// free then, and this node takes the game) is asked again, for up to
    /// [`OWNER_PATIENCE`].
    pub(crate) async fn on_owner(
        self: &Arc<Self>,
        id: &str,
        request: impl Fn() -> NodeRequest,
    ) -> Result<Option<NodeReply>, Refusal> {
        let Some(cluster) = self.cluster() else {
            return Ok(None);
        };
        if node::serving_node() {
            return Ok(None);
        }
        let deadline = Instant::now() + OWNER_PATIENCE;
        loop {
            // The owner last seen saves asking the database each time; an
            // owner that turns out wrong (unreachable, or no longer the
            // owner) is forgotten and looked up.
            let known = match self.actors.running(id) {
                Some(_) => return Ok(None),
                None => cluster.known_owner(id),
            };
            let url = match known {
                Some(url) => Some(url),
                None => match self.owner(id).await? {
                    Owner::Here(_) => return Ok(None),
                    Owner::There(url) => url,
                },
            };
            if let Some(url) = url {
                match cluster.remote().call(&url, &request()).await {
                    Ok(NodeReply::NotHere) | Err(Unreached::Gone) => cluster.forget_owner(id),
                    Ok(reply) => {
                        cluster.remember_owner(id, &url);
                        return Ok(Some(reply));
                    }
                    Err(Unreached::Failed(e)) => return Err(e),
                }
            }
            if Instant::now() >= deadline {
                return Err(Refusal::Busy(
                    Said::new("server-refusal-game-node-does-not-answer").with("id", id),
                ));
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Serves another node's request as this node's own clients are
    /// served, or answers that the game is not played here.
    pub(crate) async fn serve_node(self: &Arc<Self>, request: NodeRequest) -> NodeReply {
        node::serve_for_node(async {
            match self.owner(request.game()).await {
                Ok(Owner::Here(_)) => {}
                Ok(Owner::There(_)) => return NodeReply::NotHere,
                Err(refusal) => return NodeReply::Refused(refusal),
            }
            let served = match request {
                NodeRequest::Act {
                    game,
                    credentials,
                    action,
                } => self
                    .act(&game, &credentials, action)
                    .await
                    .map(NodeReply::Acted),
                NodeRequest::Join { game, invite } => {
                    self.join(&game, &invite).await.map(NodeReply::Joined)
                }
                NodeRequest::State { game, credentials } => self
                    .watch(&game, &credentials, None, true, false)
                    .await
                    .and_then(|w| {
                        Ok(NodeReply::State {
                            full: Box::new(w.full.ok_or_else(|| {
                                Refusal::Internal(
                                    Said::new("server-refusal-game-no-state-2").with("game", &game),
                                )
                            })?),
                            seq: w.seq,
                            cookie: w.cookie,
                            seat: w.seat.map(Into::into),
                        })
                    }),
                NodeRequest::Record { game } => self
                    .record(&game)
                    .await
                    .map(|text| NodeReply::Json { text }),
                NodeRequest::ReadMove { game, side, text } => self
                    .read_move(&game, side.color(), &text)
                    .await
                    .map(NodeReply::Read),
                NodeRequest::Pgn { game, site } => self
                    .pgn(&game, site)
                    .await
                    .map(|text| NodeReply::Text { text }),
                NodeRequest::Line { game } => {
                    self.line(&game).await.map(|text| NodeReply::Json { text })
                }
            };
            served.unwrap_or_else(NodeReply::Refused)
        })
        .await
    }
}

impl NodeHub for Hub {
    async fn take_over(self: Arc<Self>, id: String) -> Result<(), Refusal> {
        Hub::take_over(&self, &id).await
    }

    fn hear(&self, news: News) {
        self.notices.hear(news)
    }
}
