//! The cluster's tables and locks on PostgreSQL (`crate::cluster` says
//! what they mean): `nodes`, `game_owners` and `game_downtimes`, the
//! advisory locks that are a node's life and a game's lease, and the
//! notifications between nodes. Only PostgreSQL runs a cluster, so these
//! statements are PostgreSQL's alone.

use tokio_postgres::Client;

use super::games::{downtime_of, event_of};
use super::postgres::{execute_on, query_on};
use super::sql::{params, Row, Session, Value};
use super::StoreError;
use crate::game::clock::Downtime;
use crate::game::event::Event;

/// SQL: whether some session holds the advisory lock `key` (an
/// expression) in this database. A bigint key shows in `pg_locks` as its
/// high and low 32 bits (classid, objid) with objsubid 1.
macro_rules! lock_held {
    ($key:literal) => {
        concat!(
            "EXISTS (SELECT 1 FROM pg_locks l
                     WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1
                       AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
                       AND l.classid::bigint = (",
            $key,
            " >> 32) & 4294967295 AND l.objid::bigint = ",
            $key,
            " & 4294967295)"
        )
    };
}

/// A session of a node on the cluster's database: its locks live as long
/// as the session does.
pub struct NodeSession {
    client: Client,
}

impl Session for NodeSession {
    async fn execute(&self, sql: &str, params: &[Value]) -> Result<u64, StoreError> {
        execute_on(&self.client, sql, params).await
    }

    async fn query(&self, sql: &str, params: &[Value]) -> Result<Vec<Row>, StoreError> {
        query_on(&self.client, sql, params).await
    }
}

/// The previous owner of a game, as `game_owners` says.
pub struct PreviousOwner {
    pub node: String,
    /// Its last heartbeat, while its row is kept.
    pub heartbeat_ms: Option<i64>,
}

impl NodeSession {
    pub fn new(client: Client) -> NodeSession {
        NodeSession { client }
    }

    /// Starts listening to the notification channels.
    pub async fn listen(&self, channels: &[&str]) -> Result<(), StoreError> {
        let sql: String = channels.iter().map(|c| format!("LISTEN {c};")).collect();
        Ok(self.client.batch_execute(&sql).await?)
    }

    /// Sends `payload` on the notification channel `channel`.
    pub async fn notify(&self, channel: &str, payload: &str) -> Result<(), StoreError> {
        self.execute("SELECT pg_notify($1, $2)", &params![channel, payload])
            .await
            .map(drop)
    }

    /// Joins as node `node`, reached at `url`, alive while this session
    /// holds the lock `alive`.
    pub async fn join(
        &self,
        node: &str,
        url: &str,
        alive: i64,
        now_ms: i64,
    ) -> Result<(), StoreError> {
        self.execute("SELECT pg_advisory_lock($1)", &params![alive])
            .await?;
        self.execute(
            "INSERT INTO nodes (id, url, lock_key, started_ms, heartbeat_ms)
             VALUES ($1, $2, $3, $4, $4)",
            &params![node, url, alive, now_ms],
        )
        .await
        .map(drop)
    }

    pub async fn heartbeat(&self, node: &str, now_ms: i64) -> Result<(), StoreError> {
        self.execute(
            "UPDATE nodes SET heartbeat_ms = $2 WHERE id = $1",
            &params![node, now_ms],
        )
        .await
        .map(drop)
    }

    /// Takes the lock `key` if it is free.
    pub async fn try_lock(&self, key: i64) -> Result<bool, StoreError> {
        match self
            .query_opt("SELECT pg_try_advisory_lock($1)", &params![key])
            .await?
        {
            Some(row) => row.flag(0),
            None => Ok(false),
        }
    }

    /// Frees every lock of this session.
    pub async fn unlock_all(&self) -> Result<(), StoreError> {
        self.execute("SELECT pg_advisory_unlock_all()", &[])
            .await
            .map(drop)
    }

    pub async fn previous_owner(&self, game: &str) -> Result<Option<PreviousOwner>, StoreError> {
        let row = self
            .query_opt(
                "SELECT o.node_id, n.heartbeat_ms FROM game_owners o
                 LEFT JOIN nodes n ON n.id = o.node_id WHERE o.game_id = $1",
                &params![game],
            )
            .await?;
        match row {
            Some(r) => Ok(Some(PreviousOwner {
                node: r.text(0)?,
                heartbeat_ms: r.maybe_int(1)?,
            })),
            None => Ok(None),
        }
    }

    /// Records that `node` owns `game` under the lease `key`, and the span
    /// nobody ran it if it was taken over from a dead node.
    pub async fn take_ownership(
        &self,
        game: &str,
        node: &str,
        key: i64,
        downtime: Option<Downtime>,
    ) -> Result<(), StoreError> {
        if let Some(d) = downtime {
            self.execute(
                "INSERT INTO game_downtimes (game_id, from_ms, to_ms) VALUES ($1, $2, $3)",
                &params![game, d.from_ms, d.to_ms],
            )
            .await?;
        }
        self.execute(
            "INSERT INTO game_owners (game_id, node_id, lease_key) VALUES ($1, $2, $3)
             ON CONFLICT (game_id) DO UPDATE SET node_id = excluded.node_id",
            &params![game, node, key],
        )
        .await
        .map(drop)
    }

    /// Frees the lock `key`.
    pub async fn unlock(&self, key: i64) -> Result<(), StoreError> {
        self.execute("SELECT pg_advisory_unlock($1)", &params![key])
            .await
            .map(drop)
    }

    /// Gives up `node`'s ownership of `game` and frees its lease `key`.
    pub async fn give_up(&self, game: &str, node: &str, key: i64) -> Result<(), StoreError> {
        self.execute(
            "DELETE FROM game_owners WHERE game_id = $1 AND node_id = $2",
            &params![game, node],
        )
        .await?;
        self.execute("SELECT pg_advisory_unlock($1)", &params![key])
            .await
            .map(drop)
    }

    /// The address of the node that owns `game`, as `game_owners` says.
    pub async fn owner_url(&self, game: &str) -> Result<Option<String>, StoreError> {
        let row = self
            .query_opt(
                "SELECT n.url FROM game_owners o JOIN nodes n ON n.id = o.node_id
                 WHERE o.game_id = $1",
                &params![game],
            )
            .await?;
        row.map(|r| r.text(0)).transpose()
    }

    /// Unfinished games whose owner's lease is free: their node died.
    pub async fn orphans(&self) -> Result<Vec<String>, StoreError> {
        const SQL: &str = concat!(
            "SELECT o.game_id FROM game_owners o JOIN games g ON g.id = o.game_id
             WHERE g.status <> 'finished' AND NOT ",
            lock_held!("o.lease_key")
        );
        let rows = self.query(SQL, &[]).await?;
        rows.iter().map(|r| r.text(0)).collect()
    }

    /// The spans `game` was taken over after its owner died.
    pub async fn downtimes(&self, game: &str) -> Result<Vec<Downtime>, StoreError> {
        let rows = self
            .query(
                "SELECT from_ms, to_ms FROM game_downtimes WHERE game_id = $1",
                &params![game],
            )
            .await?;
        rows.iter().map(downtime_of).collect()
    }

    /// Forgets the dead: owner rows of finished games whose lease is free
    /// (their node died before the game's actor stopped), then the rows of
    /// dead nodes that own nothing any more (a takeover still reads a dead
    /// owner's last heartbeat, so its row stays until then).
    pub async fn forget_dead_nodes(&self) -> Result<u64, StoreError> {
        const OWNERS: &str = concat!(
            "DELETE FROM game_owners o USING games g
             WHERE g.id = o.game_id AND g.status = 'finished' AND NOT ",
            lock_held!("o.lease_key")
        );
        const NODES: &str = concat!(
            "DELETE FROM nodes n WHERE NOT EXISTS (SELECT 1 FROM game_owners o WHERE o.node_id = n.id)
             AND NOT ",
            lock_held!("n.lock_key")
        );
        self.execute(OWNERS, &[]).await?;
        self.execute(NODES, &[]).await
    }

    /// Whether `node` is a member: some session holds its lock.
    pub async fn is_member(&self, node: &str) -> Result<bool, StoreError> {
        const SQL: &str = concat!(
            "SELECT 1 FROM nodes n WHERE n.id = $1 AND ",
            lock_held!("n.lock_key")
        );
        Ok(self.query_opt(SQL, &params![node]).await?.is_some())
    }

    /// Whether a node other than `node` is alive.
    pub async fn others_alive(&self, node: &str) -> Result<bool, StoreError> {
        const SQL: &str = concat!(
            "SELECT 1 FROM nodes n WHERE n.id <> $1 AND ",
            lock_held!("n.lock_key"),
            " LIMIT 1"
        );
        Ok(self.query_opt(SQL, &params![node]).await?.is_some())
    }

    /// The ids of the nodes in `nodes`, live or not yet forgotten.
    pub async fn node_ids(&self) -> Result<Vec<String>, StoreError> {
        let rows = self.query("SELECT id FROM nodes ORDER BY id", &[]).await?;
        rows.iter().map(|r| r.text(0)).collect()
    }

    /// The id of the node that owns `game`, as `game_owners` says.
    pub async fn owner_of(&self, game: &str) -> Result<Option<String>, StoreError> {
        let row = self
            .query_opt(
                "SELECT node_id FROM game_owners WHERE game_id = $1",
                &params![game],
            )
            .await?;
        row.map(|r| r.text(0)).transpose()
    }

    /// The seq of `game`'s last event; 0 for none.
    pub async fn last_seq(&self, game: &str) -> Result<u64, StoreError> {
        let row = self
            .query_opt(
                "SELECT COALESCE(MAX(seq), 0) FROM events WHERE game_id = $1",
                &params![game],
            )
            .await?;
        Ok(row.map(|r| r.int(0)).transpose()?.unwrap_or(0) as u64)
    }

    /// `game`'s events after `after`, in order.
    pub async fn events_after(&self, game: &str, after: u64) -> Result<Vec<Event>, StoreError> {
        let rows = self
            .query(
                "SELECT seq, at_ms, body_json FROM events WHERE game_id = $1 AND seq > $2 ORDER BY seq",
                &params![game, after as i64],
            )
            .await?;
        rows.iter().map(|r| event_of(game, r)).collect()
    }
}
