//! The PostgreSQL backend (tokio-postgres). The writer is a task with its
//! own connection; reads share another. With PostgreSQL's default
//! `synchronous_commit = on`, a commit is durable when it returns.

use tokio_postgres::types::{ToSql, Type};
use tokio_postgres::{Client, GenericClient, Transaction};

use super::sql::{Cell, Row, Session, Value};
use super::{answer, write_change, Change, Database, Job, Queue, StoreError};
use crate::game::event::Event;

/// The schema, one step per version (table `parity_schema`). The same
/// tables as SQLite's, with PostgreSQL's types.
const MIGRATIONS: &[&str] = &[
    r#"
    CREATE TABLE games (
        id TEXT PRIMARY KEY,
        variant TEXT NOT NULL,
        created_ms BIGINT NOT NULL,
        white TEXT NOT NULL,
        black TEXT NOT NULL,
        rematch_of TEXT,
        status TEXT NOT NULL,
        result TEXT,
        reason TEXT,
        turn BIGINT NOT NULL,
        public BOOLEAN NOT NULL
    );
    CREATE INDEX games_by_status ON games (status, created_ms);
    CREATE TABLE events (
        game_id TEXT NOT NULL,
        seq BIGINT NOT NULL,
        at_ms BIGINT NOT NULL,
        kind TEXT NOT NULL,
        body_json TEXT NOT NULL,
        PRIMARY KEY (game_id, seq)
    );
    CREATE TABLE seats (
        game_id TEXT NOT NULL,
        color TEXT NOT NULL,
        token_sha256 TEXT,
        invite TEXT,
        PRIMARY KEY (game_id, color)
    );
    CREATE INDEX seats_by_token ON seats (token_sha256);
    CREATE TABLE hidden_moves (
        game_id TEXT NOT NULL,
        turn BIGINT NOT NULL,
        color TEXT NOT NULL,
        move TEXT NOT NULL,
        nonce TEXT NOT NULL,
        PRIMARY KEY (game_id, turn, color)
    );
    CREATE TABLE heartbeat (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        at_ms BIGINT NOT NULL
    );
    CREATE TABLE downtimes (
        from_ms BIGINT NOT NULL,
        to_ms BIGINT NOT NULL
    );
    CREATE TABLE signing_key (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        seed BYTEA NOT NULL
    );
"#,
    r#"
    CREATE TABLE nodes (
        id TEXT PRIMARY KEY,
        url TEXT NOT NULL,
        lock_key BIGINT NOT NULL,
        started_ms BIGINT NOT NULL,
        heartbeat_ms BIGINT NOT NULL
    );
    CREATE TABLE game_owners (
        game_id TEXT PRIMARY KEY,
        node_id TEXT NOT NULL,
        lease_key BIGINT NOT NULL
    );
    CREATE TABLE game_downtimes (
        game_id TEXT NOT NULL,
        from_ms BIGINT NOT NULL,
        to_ms BIGINT NOT NULL
    );
    CREATE INDEX game_downtimes_by_game ON game_downtimes (game_id);
"#,
    ACCOUNTS,
    PLAYERS,
    SESSIONS_SEEN,
    super::lobby::TABLES,
    super::games::ANALYSES,
    super::accounts::PREFERENCES,
    super::accounts::NOTIFICATIONS,
    super::accounts::PUSH,
    super::accounts::RATINGS_DUE,
    super::tournaments::TABLES,
    super::games::HIDDEN_IN_EVENTS,
];

/// When each log-in session was last used (idle sessions end), and by
/// which browser.
const SESSIONS_SEEN: &str = r#"
    ALTER TABLE sessions ADD COLUMN seen_ms BIGINT NOT NULL DEFAULT 0;
    ALTER TABLE sessions ADD COLUMN agent TEXT NOT NULL DEFAULT '';
    UPDATE sessions SET seen_ms = created_ms;
    CREATE INDEX sessions_by_user ON sessions (user_id);
"#;

/// Seats held by accounts, rated games and ratings, chat, log-in sessions.
const PLAYERS: &str = r#"
    ALTER TABLE games ADD COLUMN rated BOOLEAN NOT NULL DEFAULT FALSE;
    CREATE TABLE players (
        game_id TEXT NOT NULL,
        color TEXT NOT NULL,
        user_id TEXT NOT NULL REFERENCES users (id),
        rating BIGINT,
        provisional BOOLEAN NOT NULL,
        PRIMARY KEY (game_id, color)
    );
    CREATE INDEX players_by_user ON players (user_id);
    CREATE TABLE ratings (
        user_id TEXT NOT NULL REFERENCES users (id),
        variant TEXT NOT NULL,
        rating DOUBLE PRECISION NOT NULL,
        deviation DOUBLE PRECISION NOT NULL,
        volatility DOUBLE PRECISION NOT NULL,
        games INTEGER NOT NULL,
        PRIMARY KEY (user_id, variant)
    );
    CREATE TABLE rating_history (
        user_id TEXT NOT NULL,
        game_id TEXT NOT NULL,
        variant TEXT NOT NULL,
        at_ms BIGINT NOT NULL,
        rating DOUBLE PRECISION NOT NULL,
        deviation DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (user_id, game_id)
    );
    CREATE TABLE chat (
        id BIGSERIAL PRIMARY KEY,
        game_id TEXT NOT NULL,
        at_ms BIGINT NOT NULL,
        author TEXT NOT NULL,
        room TEXT NOT NULL,
        text TEXT NOT NULL
    );
    CREATE INDEX chat_by_game ON chat (game_id);
    CREATE TABLE sessions (
        token_sha256 TEXT PRIMARY KEY,
        user_id TEXT NOT NULL REFERENCES users (id),
        created_ms BIGINT NOT NULL
    );
"#;

/// Users (`id` is the name in lowercase) and their personal API tokens,
/// kept as SHA-256 hashes like seat tokens.
const ACCOUNTS: &str = r#"
    CREATE TABLE users (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        password_hash TEXT,
        bot BOOLEAN NOT NULL,
        created_ms BIGINT NOT NULL
    );
    CREATE TABLE api_tokens (
        token_sha256 TEXT PRIMARY KEY,
        user_id TEXT NOT NULL REFERENCES users (id),
        scopes TEXT NOT NULL,
        created_ms BIGINT NOT NULL,
        revoked BOOLEAN NOT NULL DEFAULT FALSE
    );
    CREATE INDEX api_tokens_by_user ON api_tokens (user_id);
"#;

/// The channel every commit announces its games' new events on, for the
/// other nodes (`crate::cluster`): `GAMEID:FIRST:LAST`, the seqs of the
/// game's events in the commit, then on lines of their own the events'
/// JSON lines when they fit in a notification.
pub const EVENTS_CHANNEL: &str = "parity_events";

/// PostgreSQL's limit on a notification's payload is 8000 bytes.
const MAX_NOTIFICATION: usize = 7900;

/// Any number that identifies our schema lock among the database's
/// advisory locks: servers starting together migrate one at a time.
const MIGRATION_LOCK: i64 = 0x7061_7269_7479;

pub(crate) async fn connect(url: &str) -> Result<Client, StoreError> {
    let (client, connection) = super::postgres_tls::connect(url).await?;
    tokio::spawn(async move {
        if let Err(e) = connection.await {
            tracing::error!("PostgreSQL connection: {e}");
        }
    });
    Ok(client)
}

async fn migrate(client: &mut Client) -> Result<(), StoreError> {
    let tx = client.transaction().await?;
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])
        .await?;
    tx.batch_execute("CREATE TABLE IF NOT EXISTS parity_schema (version INTEGER NOT NULL)")
        .await?;
    let version: Option<i32> = tx
        .query_opt("SELECT version FROM parity_schema", &[])
        .await?
        .map(|row| row.get(0));
    let version = version.unwrap_or(0);
    let done = usize::try_from(version)
        .map_err(|_| StoreError::Corrupt(format!("schema version {version}")))?;
    if done > MIGRATIONS.len() {
        return Err(StoreError::Corrupt(format!(
            "the database has schema version {version}, newer than this program ({})",
            MIGRATIONS.len()
        )));
    }
    for step in &MIGRATIONS[done..] {
        tx.batch_execute(step).await?;
    }
    tx.execute("DELETE FROM parity_schema", &[]).await?;
    tx.execute(
        "INSERT INTO parity_schema (version) VALUES ($1)",
        &[&(MIGRATIONS.len() as i32)],
    )
    .await?;
    tx.commit().await?;
    Ok(())
}

/// The database `name` on the server of `base` (a URL), created if it does
/// not exist: for tests and throwaway clusters.
pub async fn ensure_database(base: &str, name: &str) -> Result<Database, StoreError> {
    // A name is an identifier, not a value: only plain ones are allowed.
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Err(StoreError::Corrupt(format!("database name `{name}`")));
    }
    let client = connect(base).await?;
    let exists = client
        .query_opt("SELECT 1 FROM pg_database WHERE datname = $1", &[&name])
        .await?
        .is_some();
    if !exists {
        client
            .batch_execute(&format!("CREATE DATABASE {name}"))
            .await?;
    }
    let (address, query) = base.split_once('?').unwrap_or((base, ""));
    let server = match address.find("://").map(|at| at + 3) {
        Some(after) => match address[after..].find('/') {
            Some(slash) => &address[..after + slash],
            None => address,
        },
        None => address,
    };
    Ok(Database::Postgres(if query.is_empty() {
        format!("{server}/{name}")
    } else {
        format!("{server}/{name}?{query}")
    }))
}

/// Reading side of the database.
pub(super) struct Reader {
    client: Client,
}

/// Connects (creating the tables if needed) and starts the writer task on
/// `queue`.
pub(super) async fn open(url: &str, queue: Queue) -> Result<Reader, StoreError> {
    let mut write = connect(url).await?;
    migrate(&mut write).await?;
    let client = connect(url).await?;
    tokio::spawn(run(write, queue));
    Ok(Reader { client })
}

async fn run(mut client: Client, mut jobs: Queue) {
    while let Some(batch) = jobs.batch().await {
        let results = commit(&mut client, &batch).await;
        answer(batch, results);
    }
}

async fn commit(client: &mut Client, batch: &[Job]) -> Vec<Result<(), String>> {
    async fn all(
        client: &mut Client,
        batch: &[Job],
    ) -> Result<Vec<Result<(), String>>, StoreError> {
        let mut tx = client.transaction().await?;
        let mut results = Vec::with_capacity(batch.len());
        for job in batch {
            let sp = tx.savepoint("job").await?;
            let mut written = Ok(());
            for change in &job.changes {
                written = write_change(&On(&sp), change).await;
                if written.is_err() {
                    break;
                }
            }
            results.push(match written {
                Ok(()) => sp.commit().await.map_err(|e| e.to_string()),
                Err(e) => {
                    sp.rollback().await?;
                    Err(e.to_string())
                }
            });
        }
        let news = last_events(batch, &results);
        if !news.is_empty() {
            // Delivered by PostgreSQL when, and only if, the commit succeeds.
            tx.execute(
                "SELECT pg_notify($1, news) FROM unnest($2::text[]) AS news",
                &[&EVENTS_CHANNEL, &news],
            )
            .await?;
        }
        tx.commit().await?;
        Ok(results)
    }
    match all(client, batch).await {
        Ok(results) => results,
        Err(e) => {
            tracing::error!("group commit failed: {e}");
            batch.iter().map(|_| Err(e.to_string())).collect()
        }
    }
}

/// The notification of each game with new events in the jobs that
/// succeeded (see [`EVENTS_CHANNEL`]). A game's events in one batch are
/// one job's, so their seqs follow each other.
fn last_events(batch: &[Job], results: &[Result<(), String>]) -> Vec<String> {
    let mut games: std::collections::BTreeMap<&str, Vec<&Event>> = Default::default();
    for (job, _) in batch.iter().zip(results).filter(|(_, r)| r.is_ok()) {
        for change in &job.changes {
            if let Change::Event { game, event, .. } = change {
                games.entry(game.as_str()).or_default().push(event);
            }
        }
    }
    games
        .into_iter()
        .map(|(game, events)| {
            let (first, last) = (events[0].seq, events[events.len() - 1].seq);
            let mut notice = format!("{game}:{first}:{last}");
            for event in events {
                notice.push('\n');
                notice.push_str(&serde_json::to_string(event).unwrap_or_default());
            }
            if notice.len() > MAX_NOTIFICATION {
                notice = format!("{game}:{first}:{last}");
            }
            notice
        })
        .collect()
}

/// A transaction of the writer, as a [`Session`].
struct On<'a>(&'a Transaction<'a>);

pub(super) async fn execute_on(
    client: &impl GenericClient,
    sql: &str,
    params: &[Value],
) -> Result<u64, StoreError> {
    let params: Vec<&(dyn ToSql + Sync)> = params.iter().map(|p| p as _).collect();
    Ok(client.execute(sql, &params).await?)
}

pub(super) async fn query_on(
    client: &impl GenericClient,
    sql: &str,
    params: &[Value],
) -> Result<Vec<Row>, StoreError> {
    let params: Vec<&(dyn ToSql + Sync)> = params.iter().map(|p| p as _).collect();
    client
        .query(sql, &params)
        .await?
        .iter()
        .map(cells)
        .collect()
}

/// A row as [`Cell`]s, by each column's type.
fn cells(row: &tokio_postgres::Row) -> Result<Row, StoreError> {
    let mut cells = Vec::with_capacity(row.len());
    for (i, column) in row.columns().iter().enumerate() {
        let ty = column.type_();
        let cell = match *ty {
            Type::BOOL => row.try_get::<_, Option<bool>>(i)?.map(Cell::Flag),
            Type::INT8 => row.try_get::<_, Option<i64>>(i)?.map(Cell::Int),
            Type::INT4 => row
                .try_get::<_, Option<i32>>(i)?
                .map(|v| Cell::Int(v.into())),
            Type::INT2 => row
                .try_get::<_, Option<i16>>(i)?
                .map(|v| Cell::Int(v.into())),
            Type::FLOAT8 => row.try_get::<_, Option<f64>>(i)?.map(Cell::Real),
            Type::FLOAT4 => row
                .try_get::<_, Option<f32>>(i)?
                .map(|v| Cell::Real(v.into())),
            Type::TEXT | Type::VARCHAR | Type::BPCHAR | Type::NAME => {
                row.try_get::<_, Option<String>>(i)?.map(Cell::Text)
            }
            Type::BYTEA => row.try_get::<_, Option<Vec<u8>>>(i)?.map(Cell::Bytes),
            _ => {
                return Err(StoreError::Corrupt(format!(
                    "column `{}` has type {ty}",
                    column.name()
                )))
            }
        };
        cells.push(cell.unwrap_or(Cell::Null));
    }
    Ok(Row(cells))
}

impl Session for On<'_> {
    async fn execute(&self, sql: &str, params: &[Value]) -> Result<u64, StoreError> {
        execute_on(self.0, sql, params).await
    }

    async fn query(&self, sql: &str, params: &[Value]) -> Result<Vec<Row>, StoreError> {
        query_on(self.0, sql, params).await
    }
}

impl Session for Reader {
    async fn execute(&self, sql: &str, params: &[Value]) -> Result<u64, StoreError> {
        execute_on(&self.client, sql, params).await
    }

    async fn query(&self, sql: &str, params: &[Value]) -> Result<Vec<Row>, StoreError> {
        query_on(&self.client, sql, params).await
    }
}

impl Reader {
    pub(super) async fn signing_seed(&self, fresh: [u8; 32]) -> Result<[u8; 32], StoreError> {
        self.client
            .execute(
                "INSERT INTO signing_key (id, seed) VALUES (1, $1) ON CONFLICT (id) DO NOTHING",
                &[&&fresh[..]],
            )
            .await?;
        let seed: Vec<u8> = self
            .client
            .query_one("SELECT seed FROM signing_key WHERE id = 1", &[])
            .await?
            .get(0);
        seed.try_into().map_err(|b: Vec<u8>| {
            StoreError::Corrupt(format!("a signing key of {} bytes", b.len()))
        })
    }
}

impl ToSql for Value {
    fn to_sql(
        &self,
        ty: &Type,
        out: &mut bytes::BytesMut,
    ) -> Result<tokio_postgres::types::IsNull, Box<dyn std::error::Error + Sync + Send>> {
        match self {
            Value::Null => Ok(tokio_postgres::types::IsNull::Yes),
            Value::Text(v) => v.to_sql_checked(ty, out),
            // An integer column may be narrower than 64 bits.
            Value::Int(v) if *ty == Type::INT4 => i32::try_from(*v)?.to_sql_checked(ty, out),
            Value::Int(v) => v.to_sql_checked(ty, out),
            Value::Real(v) => v.to_sql_checked(ty, out),
            Value::Flag(v) => v.to_sql_checked(ty, out),
        }
    }

    // Each value checks its own type in `to_sql`.
    fn accepts(_: &Type) -> bool {
        true
    }

    tokio_postgres::types::to_sql_checked!();
}
