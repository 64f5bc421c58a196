//! Several nodes on one PostgreSQL database (docs/server.md, "Several
//! nodes"). Every `parity serve` on a `postgres://` database is a node of
//! it: it accepts any request for any game, and exactly one node owns a
//! live game, the one that holds the game's **lease**, a session-level
//! advisory lock on a connection kept for it (PostgreSQL frees it the
//! moment that connection dies, so a killed node's games are free at
//! once). The table `game_owners` says which node holds a lease, so the
//! others can ask it (`node`); `nodes` lists the nodes, their
//! addresses and heartbeats. Every commit notifies the channel
//! `parity_events`; a node relays the new events of the games it has
//! subscribers for but does not own (`relay`). Account events and chat
//! lines go to the other nodes on `parity_news` (`news`). Every second
//! each node takes over the unfinished games whose lease is free.

pub(crate) mod news;
pub(crate) mod node;
mod relay;

use std::collections::HashMap;
use std::sync::{Arc, Weak};
use std::time::Duration;

use futures_util::StreamExt as _;
use sha2::{Digest, Sha256};
use tokio_postgres::AsyncMessage;

pub(crate) use node::Remote;

use crate::base::refusal::Refusal;
use crate::game::clock::Downtime;
use crate::game::event::now_ms;
use crate::store::cluster::NodeSession;
use crate::store::postgres::EVENTS_CHANNEL;
use crate::store::StoreError;

/// How often a node beats in `nodes`, sweeps its relays and looks for
/// games whose owner died: a dead owner's games are taken over within
/// about this (plus the time to replay them).
pub const WATCH_EVERY: Duration = Duration::from_secs(1);

/// Every this many ticks a node forgets the owners it has seen.
const FORGET_OWNERS_EVERY: u64 = 60;

/// One node of the cluster.
/// What a node's cluster duties call back into: the node's hub.
pub trait NodeHub: Send + Sync + 'static {
    /// Takes over the game `id`, whose owner died.
    fn take_over(
        self: Arc<Self>,
        id: String,
    ) -> impl std::future::Future<Output = Result<(), Refusal>> + Send;
    /// Passes news from another node to this node's clients.
    fn hear(&self, news: news::News);
}

pub struct Cluster {
    /// This node's id in `nodes` (new at every start).
    node: String,
    /// The session holding this node's leases; also its heartbeat and
    /// the relays' reads.
    session: Arc<NodeSession>,
    /// Keeps the LISTEN connection open.
    _listening: NodeSession,
    /// The other nodes' news as heard, until `hear_news` takes it.
    heard: std::sync::Mutex<Option<tokio::sync::mpsc::UnboundedReceiver<String>>>,
    /// The leases this node holds, with how many actors hold each (an
    /// actor stopping and a new one starting may overlap).
    held: tokio::sync::Mutex<HashMap<String, usize>>,
    /// The tournaments this node runs (their locks, kept for its life).
    led: tokio::sync::Mutex<std::collections::HashSet<String>>,
    relays: Arc<relay::Relays>,
    remote: Remote,
    /// The owners of other nodes' games, as last seen.
    known_owners: std::sync::Mutex<HashMap<String, String>>,
    /// Set when the node leaves on shutdown: it takes over nothing more.
    left: std::sync::atomic::AtomicBool,
}

/// The answer to asking for a game's lease.
pub(crate) enum Lease {
    /// This node holds it now.
    Taken,
    /// Another node does: its address, once it has written it.
    HeldBy(Option<String>),
}

/// The advisory lock key of a game's lease.
fn lease_key(game: &str) -> i64 {
    lock_key("parity-lease", game)
}

/// An advisory lock key for `name` in `space`.
fn lock_key(space: &str, name: &str) -> i64 {
    let digest = Sha256::digest(format!("{space}:{name}").as_bytes());
    i64::from_be_bytes(digest[..8].try_into().expect("8 bytes"))
}

/// Connects a session that this node cannot live without: when it drops,
/// the node's leases are gone (or its relays deaf), so the process stops
/// rather than act as an owner it no longer is. `on_message` gets the
/// session's notifications.
async fn vital_session(
    url: &str,
    what: &'static str,
    on_message: impl Fn(tokio_postgres::Notification) + Send + 'static,
) -> Result<NodeSession, StoreError> {
    let (client, mut connection) = crate::store::postgres_tls::connect(url).await?;
    tokio::spawn(async move {
        let mut messages = futures_util::stream::poll_fn(move |cx| connection.poll_message(cx));
        let error = loop {
            match messages.next().await {
                Some(Ok(AsyncMessage::Notification(n))) => on_message(n),
                Some(Ok(_)) => {}
                Some(Err(e)) => break e.to_string(),
                None => break "closed".to_string(),
            }
        };
        tracing::error!("the PostgreSQL session of this node's {what} is gone ({error}); stopping");
        std::process::exit(1);
    });
    Ok(NodeSession::new(client))
}

impl Cluster {
    /// Joins the cluster of the database `url` as a new node that others
    /// reach at `node_url`; `secret` opens the nodes' internal endpoint
    /// (`node`) to each other.
    pub async fn join(
        url: &str,
        node_url: String,
        secret: String,
    ) -> Result<Arc<Cluster>, StoreError> {
        let session = Arc::new(vital_session(url, "leases", |_| {}).await?);
        let relays = Arc::new(relay::Relays::new(session.clone()));
        let heard = relays.clone();
        let (news, news_heard) = news::channel();
        let listening = vital_session(url, "event notifications", move |n| {
            if n.channel() == news::NEWS_CHANNEL {
                let _ = news.send(n.payload().to_string());
            } else {
                heard.notified(n.payload())
            }
        })
        .await?;
        listening
            .listen(&[EVENTS_CHANNEL, news::NEWS_CHANNEL])
            .await?;
        let node = crate::base::secret::new_game_id();
        // Held while the node lives: whether a node is alive is whether
        // its session is.
        let alive = lock_key("parity-node", &node);
        session.join(&node, &node_url, alive, now_ms()).await?;
        tracing::info!("node {node} of the cluster, reached at {node_url}");
        Ok(Arc::new(Cluster {
            node,
            session,
            _listening: listening,
            heard: std::sync::Mutex::new(Some(news_heard)),
            held: tokio::sync::Mutex::new(HashMap::new()),
            led: tokio::sync::Mutex::new(Default::default()),
            relays,
            remote: Remote::new(secret),
            known_owners: std::sync::Mutex::new(HashMap::new()),
            left: std::sync::atomic::AtomicBool::new(false),
        }))
    }

    pub fn node(&self) -> &str {
        &self.node
    }

    fn owners(&self) -> std::sync::MutexGuard<'_, HashMap<String, String>> {
        self.known_owners.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The address of the node last seen owning `game`.
    pub(crate) fn known_owner(&self, game: &str) -> Option<String> {
        self.owners().get(game).cloned()
    }

    pub(crate) fn remember_owner(&self, game: &str, url: &str) {
        let mut owners = self.owners();
        if owners.get(game).map(String::as_str) != Some(url) {
            owners.insert(game.to_string(), url.to_string());
        }
    }

    pub(crate) fn forget_owner(&self, game: &str) {
        self.owners().remove(game);
    }

    pub(crate) fn remote(&self) -> &Remote {
        &self.remote
    }

    pub(crate) fn relays(&self) -> &relay::Relays {
        &self.relays
    }

    /// Takes the lease of `game` if it is free. A lease taken from a node
    /// that died holding it records the span from that node's last
    /// heartbeat to now as the game's downtime: as after a restart, the
    /// time nobody ran the game is not charged to its clocks.
    pub(crate) async fn acquire(&self, game: &str) -> Result<Lease, StoreError> {
        let mut held = self.held.lock().await;
        if let Some(holders) = held.get_mut(game) {
            *holders += 1;
            return Ok(Lease::Taken);
        }
        let key = lease_key(game);
        if !self.session.try_lock(key).await? {
            return Ok(Lease::HeldBy(self.session.owner_url(game).await?));
        }
        held.insert(game.to_string(), 1);
        if let Err(e) = self.record_takeover(game, key).await {
            held.remove(game);
            self.unlock(game, key).await?;
            return Err(e);
        }
        Ok(Lease::Taken)
    }

    async fn record_takeover(&self, game: &str, key: i64) -> Result<(), StoreError> {
        let now = now_ms();
        let previous = self.session.previous_owner(game).await?;
        let downtime = previous.and_then(|owner| {
            let from_ms = owner
                .heartbeat_ms
                .filter(|&b| owner.node != self.node && b < now)?;
            tracing::info!(
                "game {game}: taken over from node {}, silent since {} ms",
                owner.node,
                now - from_ms
            );
            Some(Downtime {
                from_ms,
                to_ms: now,
            })
        });
        self.session
            .take_ownership(game, &self.node, key, downtime)
            .await
    }

    /// Whether this node runs tournament `id`: it takes the tournament's
    /// lock when it is free and keeps it while the node lives, so one node
    /// pairs each tournament and another takes over when it dies.
    pub(crate) async fn leads(&self, tournament: &str) -> Result<bool, StoreError> {
        let mut led = self.led.lock().await;
        if led.contains(tournament) {
            return Ok(true);
        }
        if !self
            .session
            .try_lock(lock_key("parity-tournament", tournament))
            .await?
        {
            return Ok(false);
        }
        led.insert(tournament.to_string());
        Ok(true)
    }

    /// Frees the lock of a tournament that ended.
    pub(crate) async fn stop_leading(&self, tournament: &str) -> Result<(), StoreError> {
        if self.led.lock().await.remove(tournament) {
            self.session
                .unlock(lock_key("parity-tournament", tournament))
                .await?;
        }
        Ok(())
    }

    /// Gives back one hold of `game`'s lease; the last one frees it.
    pub(crate) async fn release(&self, game: &str) -> Result<(), StoreError> {
        let mut held = self.held.lock().await;
        match held.get_mut(game) {
            Some(holders) if *holders > 1 => {
                *holders -= 1;
                return Ok(());
            }
            Some(_) => {
                held.remove(game);
            }
            None => return Ok(()),
        }
        self.unlock(game, lease_key(game)).await
    }

    async fn unlock(&self, game: &str, key: i64) -> Result<(), StoreError> {
        self.session.give_up(game, &self.node, key).await
    }

    /// The spans `game` was taken over after its owner died.
    pub(crate) async fn downtimes(&self, game: &str) -> Result<Vec<Downtime>, StoreError> {
        self.session.downtimes(game).await
    }

    /// Whether this node is still a member: its session answers and holds
    /// the node's lock (`/ready`).
    pub async fn is_member(&self) -> Result<bool, StoreError> {
        self.session.is_member(&self.node).await
    }

    /// Leaves the cluster (a shutdown): frees every lease and the node's
    /// own lock at once, so the other nodes take its games over on their
    /// next watch rather than on finding its session gone.
    pub async fn leave(&self) -> Result<(), StoreError> {
        self.left.store(true, std::sync::atomic::Ordering::SeqCst);
        let mut held = self.held.lock().await;
        self.session.unlock_all().await?;
        held.clear();
        Ok(())
    }

    /// Game leases this node holds now.
    pub async fn leases_held(&self) -> usize {
        self.held.lock().await.len()
    }

    /// Whether another node is alive (its session is): then this node
    /// joins a running cluster, and the time since the last heartbeat is
    /// no downtime.
    pub async fn others_alive(&self) -> Result<bool, StoreError> {
        self.session.others_alive(&self.node).await
    }

    /// Every [`WATCH_EVERY`]: the heartbeat, the relays nobody reads any
    /// more, the rows of dead nodes, and the games whose owner died, which this node takes over
    /// (each game by the first node to get its lease).
    pub fn keep_watch<H: NodeHub>(self: &Arc<Self>, hub: Weak<H>) {
        let cluster = self.clone();
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(WATCH_EVERY);
            let mut ticks = 0u64;
            loop {
                tick.tick().await;
                let Some(hub) = hub.upgrade() else { return };
                if cluster.left.load(std::sync::atomic::Ordering::SeqCst) {
                    return;
                }
                if let Err(e) = cluster.session.heartbeat(&cluster.node, now_ms()).await {
                    tracing::error!("node heartbeat not written: {e}");
                }
                cluster.relays.sweep();
                ticks += 1;
                if ticks % FORGET_OWNERS_EVERY == 0 {
                    // Bounds the memory; a wrong owner is found out anyway.
                    cluster.owners().clear();
                }
                if let Err(e) = cluster.session.forget_dead_nodes().await {
                    tracing::error!("forgetting dead nodes: {e}");
                }
                match cluster.session.orphans().await {
                    Ok(games) => {
                        for game in games {
                            if let Err(e) = hub.clone().take_over(game.clone()).await {
                                tracing::error!("game {game} not taken over: {e}");
                            }
                        }
                    }
                    Err(e) => tracing::error!("looking for orphaned games: {e}"),
                }
            }
        });
    }
}

/// A session on the database `url`, for tests and operators.
async fn look(url: &str) -> Result<NodeSession, StoreError> {
    Ok(NodeSession::new(
        crate::store::postgres::connect(url).await?,
    ))
}

/// The ids of the nodes in `nodes` on the database `url`, live or not
/// yet forgotten (for tests and operators).
pub async fn node_ids(url: &str) -> Result<Vec<String>, StoreError> {
    look(url).await?.node_ids().await
}

/// The id of the node that owns `game` on the database `url`, as
/// `game_owners` says (for tests and operators).
pub async fn owner_of(url: &str, game: &str) -> Result<Option<String>, StoreError> {
    look(url).await?.owner_of(game).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lease_keys_differ_by_game_and_stay_the_same() {
        assert_eq!(lease_key("a1B2c3D4e5"), lease_key("a1B2c3D4e5"));
        assert_ne!(lease_key("a1B2c3D4e5"), lease_key("a1B2c3D4e6"));
    }
}
