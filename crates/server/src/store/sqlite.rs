//! The SQLite backend. One writer thread owns the writing connection;
//! WAL mode with `synchronous=FULL` makes a commit durable. Reads use a
//! second connection, which WAL lets run beside the writer.

use std::future::Future;
use std::path::Path;
use std::pin::pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll, Waker};

use rusqlite::types::ValueRef;
use rusqlite::Connection;

use super::sql::{sqlite_placeholders, Cell, Row, Session, Value};
use super::{answer, write_change, Job, Queue, StoreError};

/// The schema, one step per version (`PRAGMA user_version`); a database is
/// brought up to date on open.
const MIGRATIONS: &[&str] = &[
    r#"
    CREATE TABLE games (
        id TEXT PRIMARY KEY,
        variant TEXT NOT NULL,
        created_ms INTEGER NOT NULL,
        white TEXT NOT NULL,
        black TEXT NOT NULL,
        rematch_of TEXT,
        status TEXT NOT NULL,
        result TEXT,
        reason TEXT,
        turn INTEGER NOT NULL
    );
    CREATE INDEX games_by_status ON games (status, created_ms);
    CREATE TABLE events (
        game_id TEXT NOT NULL,
        seq INTEGER NOT NULL,
        at_ms INTEGER NOT NULL,
        kind TEXT NOT NULL,
        body_json TEXT NOT NULL,
        PRIMARY KEY (game_id, seq)
    ) WITHOUT ROWID;
    CREATE TABLE seats (
        game_id TEXT NOT NULL,
        color TEXT NOT NULL,
        token_sha256 TEXT,
        invite TEXT,
        PRIMARY KEY (game_id, color)
    ) WITHOUT ROWID;
    CREATE INDEX seats_by_token ON seats (token_sha256);
    CREATE TABLE hidden_moves (
        game_id TEXT NOT NULL,
        turn INTEGER NOT NULL,
        color TEXT NOT NULL,
        move TEXT NOT NULL,
        nonce TEXT NOT NULL,
        PRIMARY KEY (game_id, turn, color)
    ) WITHOUT ROWID;
"#,
    // Release 0.1 stored endings in words; they are machine names now
    // (`parity_rules::Reason`). Events keep the words and are read as the same reasons.
    r#"
    UPDATE games SET reason = CASE reason
        WHEN 'fifty moves' THEN 'fifty-moves'
        WHEN 'fifty turns' THEN 'fifty-moves'
        WHEN 'insufficient material' THEN 'insufficient-material'
        WHEN 'dead position' THEN 'insufficient-material'
        WHEN 'no legal move' THEN 'no-legal-move'
        WHEN 'both checkmated' THEN 'both-checkmated'
        WHEN 'kings share a square' THEN 'kings-share-square'
        WHEN 'no reveal' THEN 'no-reveal'
        ELSE reason END;
"#,
    // The server's heartbeat and the spans it was down, so a restart
    // charges running clocks up to the crash and not for the downtime.
    r#"
    CREATE TABLE heartbeat (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        at_ms INTEGER NOT NULL
    );
    CREATE TABLE downtimes (
        from_ms INTEGER NOT NULL,
        to_ms INTEGER NOT NULL
    );
"#,
    // Games are private unless their creator lists them; those of
    // earlier releases were all listed and stay so.
    r#"
    ALTER TABLE games ADD COLUMN public INTEGER NOT NULL DEFAULT 1;
"#,
    ACCOUNTS,
    PLAYERS,
    SESSIONS_SEEN,
    super::lobby::TABLES,
    CHAT_IDS,
    super::games::ANALYSES,
    super::accounts::PREFERENCES,
    super::accounts::NOTIFICATIONS,
    super::accounts::PUSH,
    super::accounts::RATINGS_DUE,
    super::tournaments::TABLES,
    EVENTS_APPENDED,
    super::games::HIDDEN_IN_EVENTS,
];

/// Events in a rowid table, keyed by an index: a row is appended to the
/// table's last page, where a group commit's events share pages, and only
/// the small index entry lands among its game's. Stored `WITHOUT ROWID`
/// before this step, every event rewrote its game's page of whole rows and
/// split it every few turns: a move cost about eight pages written.
const EVENTS_APPENDED: &str = r#"
    CREATE TABLE events_appended (
        game_id TEXT NOT NULL,
        seq INTEGER NOT NULL,
        at_ms INTEGER NOT NULL,
        kind TEXT NOT NULL,
        body_json TEXT NOT NULL,
        PRIMARY KEY (game_id, seq)
    );
    INSERT INTO events_appended (game_id, seq, at_ms, kind, body_json)
        SELECT game_id, seq, at_ms, kind, body_json FROM events ORDER BY game_id, seq;
    DROP TABLE events;
    ALTER TABLE events_appended RENAME TO events;
"#;

/// Chat lines numbered as in PostgreSQL (`id`), keeping their order (rowid).
const CHAT_IDS: &str = r#"
    CREATE TABLE chat_with_ids (
        id INTEGER PRIMARY KEY,
        game_id TEXT NOT NULL,
        at_ms INTEGER NOT NULL,
        author TEXT NOT NULL,
        room TEXT NOT NULL,
        text TEXT NOT NULL
    );
    INSERT INTO chat_with_ids (id, game_id, at_ms, author, room, text)
        SELECT rowid, game_id, at_ms, author, room, text FROM chat;
    DROP TABLE chat;
    ALTER TABLE chat_with_ids RENAME TO chat;
    CREATE INDEX chat_by_game ON chat (game_id);
"#;

/// When each log-in session was last used (idle sessions end), and by
/// which browser.
const SESSIONS_SEEN: &str = r#"
    ALTER TABLE sessions ADD COLUMN seen_ms INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE sessions ADD COLUMN agent TEXT NOT NULL DEFAULT '';
    UPDATE sessions SET seen_ms = created_ms;
    CREATE INDEX sessions_by_user ON sessions (user_id);
"#;

/// Users (`id` is the name in lowercase) and their personal API tokens,
/// kept as SHA-256 hashes like seat tokens.
const ACCOUNTS: &str = r#"
    CREATE TABLE users (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        password_hash TEXT,
        bot INTEGER NOT NULL,
        created_ms INTEGER NOT NULL
    ) WITHOUT ROWID;
    CREATE TABLE api_tokens (
        token_sha256 TEXT PRIMARY KEY,
        user_id TEXT NOT NULL REFERENCES users (id),
        scopes TEXT NOT NULL,
        created_ms INTEGER NOT NULL,
        revoked INTEGER NOT NULL DEFAULT 0
    ) WITHOUT ROWID;
    CREATE INDEX api_tokens_by_user ON api_tokens (user_id);
"#;

/// Seats held by accounts, rated games and ratings, chat, log-in sessions.
const PLAYERS: &str = r#"
    ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;
    CREATE TABLE players (
        game_id TEXT NOT NULL,
        color TEXT NOT NULL,
        user_id TEXT NOT NULL REFERENCES users (id),
        rating INTEGER,
        provisional INTEGER NOT NULL,
        PRIMARY KEY (game_id, color)
    ) WITHOUT ROWID;
    CREATE INDEX players_by_user ON players (user_id);
    CREATE TABLE ratings (
        user_id TEXT NOT NULL REFERENCES users (id),
        variant TEXT NOT NULL,
        rating REAL NOT NULL,
        deviation REAL NOT NULL,
        volatility REAL NOT NULL,
        games INTEGER NOT NULL,
        PRIMARY KEY (user_id, variant)
    ) WITHOUT ROWID;
    CREATE TABLE rating_history (
        user_id TEXT NOT NULL,
        game_id TEXT NOT NULL,
        variant TEXT NOT NULL,
        at_ms INTEGER NOT NULL,
        rating REAL NOT NULL,
        deviation REAL NOT NULL,
        PRIMARY KEY (user_id, game_id)
    ) WITHOUT ROWID;
    CREATE TABLE chat (
        game_id TEXT NOT NULL,
        at_ms INTEGER NOT NULL,
        author TEXT NOT NULL,
        room TEXT NOT NULL,
        text TEXT NOT NULL
    );
    CREATE INDEX chat_by_game ON chat (game_id);
    CREATE TABLE sessions (
        token_sha256 TEXT PRIMARY KEY,
        user_id TEXT NOT NULL REFERENCES users (id),
        created_ms INTEGER NOT NULL
    ) WITHOUT ROWID;
"#;

fn open_connection(path: &Path) -> Result<Connection, StoreError> {
    let conn = Connection::open(path)?;
    conn.busy_timeout(std::time::Duration::from_secs(10))?;
    let mode: String = conn.query_row("PRAGMA journal_mode=WAL", [], |r| r.get(0))?;
    if !mode.eq_ignore_ascii_case("wal") {
        return Err(StoreError::Corrupt(format!(
            "the database refuses WAL mode (it stays in {mode})"
        )));
    }
    conn.pragma_update(None, "synchronous", "FULL")?;
    Ok(conn)
}

fn migrate(conn: &mut Connection) -> Result<(), StoreError> {
    let version: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
    let version = usize::try_from(version)
        .map_err(|_| StoreError::Corrupt(format!("schema version {version}")))?;
    if version > MIGRATIONS.len() {
        return Err(StoreError::Corrupt(format!(
            "the database has schema version {version}, newer than this program ({})",
            MIGRATIONS.len()
        )));
    }
    let tx = conn.transaction()?;
    for step in &MIGRATIONS[version..] {
        tx.execute_batch(step)?;
    }
    tx.pragma_update(None, "user_version", MIGRATIONS.len() as i64)?;
    tx.commit()?;
    Ok(())
}

/// The result of a future that never waits: the shared write path
/// (`super::write_change`) over a SQLite connection, whose statements run
/// as they are called.
fn at_once<T>(future: impl Future<Output = T>) -> T {
    match pin!(future).poll(&mut Context::from_waker(Waker::noop())) {
        Poll::Ready(value) => value,
        Poll::Pending => unreachable!("a SQLite statement never waits"),
    }
}

impl Session for Connection {
    async fn execute(&self, sql: &str, params: &[Value]) -> Result<u64, StoreError> {
        let mut statement = self.prepare_cached(&sqlite_placeholders(sql))?;
        Ok(statement.execute(rusqlite::params_from_iter(params))? as u64)
    }

    async fn query(&self, sql: &str, params: &[Value]) -> Result<Vec<Row>, StoreError> {
        let mut statement = self.prepare_cached(&sqlite_placeholders(sql))?;
        let columns = statement.column_count();
        let mut rows = statement.query(rusqlite::params_from_iter(params))?;
        let mut all = Vec::new();
        while let Some(r) = rows.next()? {
            let mut cells = Vec::with_capacity(columns);
            for i in 0..columns {
                cells.push(match r.get_ref(i)? {
                    ValueRef::Null => Cell::Null,
                    ValueRef::Integer(v) => Cell::Int(v),
                    ValueRef::Real(v) => Cell::Real(v),
                    ValueRef::Text(t) => Cell::Text(
                        std::str::from_utf8(t)
                            .map_err(|e| StoreError::Corrupt(format!("text column {i}: {e}")))?
                            .to_string(),
                    ),
                    ValueRef::Blob(b) => Cell::Bytes(b.to_vec()),
                });
            }
            all.push(Row(cells));
        }
        Ok(all)
    }
}

impl rusqlite::ToSql for Value {
    fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
        match self {
            Value::Null => rusqlite::types::Null.to_sql(),
            Value::Text(v) => v.to_sql(),
            Value::Int(v) => v.to_sql(),
            Value::Real(v) => v.to_sql(),
            Value::Flag(v) => v.to_sql(),
        }
    }
}

/// The writer thread: takes every job that is waiting, commits them
/// together, then answers each.
pub(super) fn run(mut conn: Connection, mut jobs: Queue) {
    while let Some(batch) = jobs.blocking_batch() {
        let results = commit(&mut conn, &batch);
        answer(batch, results);
    }
}

/// Writes each job under its own savepoint, so a failing job is rolled
/// back alone; then commits all.
fn commit(conn: &mut Connection, batch: &[Job]) -> Vec<Result<(), String>> {
    let run = |conn: &mut Connection| -> Result<Vec<Result<(), String>>, StoreError> {
        let mut tx = conn.transaction()?;
        let mut results = Vec::with_capacity(batch.len());
        for job in batch {
            let mut sp = tx.savepoint()?;
            let written = at_once(async {
                for change in &job.changes {
                    write_change(&*sp, change).await?;
                }
                Ok::<(), StoreError>(())
            });
            results.push(match written {
                Ok(()) => sp.commit().map_err(|e| e.to_string()),
                Err(e) => {
                    sp.rollback()?;
                    Err(e.to_string())
                }
            });
        }
        tx.commit()?;
        Ok(results)
    };
    match run(conn) {
        Ok(results) => results,
        Err(e) => {
            tracing::error!("group commit failed: {e}");
            batch.iter().map(|_| Err(e.to_string())).collect()
        }
    }
}

/// Reading side of the database: one connection beside the writer's,
/// used off the async threads.
pub(super) struct Reader {
    read: Arc<Mutex<Connection>>,
}

/// Opens (creating and migrating if needed) the database and starts its
/// writer thread on `queue`.
pub(super) fn open(path: &Path, queue: Queue) -> Result<Reader, StoreError> {
    let mut write = open_connection(path)?;
    migrate(&mut write)?;
    let read = open_connection(path)?;
    std::thread::Builder::new()
        .name("db-writer".into())
        .spawn(move || run(write, queue))
        .map_err(|e| StoreError::Corrupt(format!("cannot start the writer: {e}")))?;
    Ok(Reader {
        read: Arc::new(Mutex::new(read)),
    })
}

impl Reader {
    async fn blocking<T: Send + 'static>(
        &self,
        sql: &str,
        params: &[Value],
        run: fn(&Connection, &str, &[Value]) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        let (read, sql, params) = (self.read.clone(), sql.to_string(), params.to_vec());
        tokio::task::spawn_blocking(move || {
            let conn = read.lock().unwrap_or_else(|e| e.into_inner());
            run(&conn, &sql, &params)
        })
        .await
        .map_err(|e| StoreError::Corrupt(format!("a database read panicked: {e}")))?
    }
}

impl Session for Reader {
    async fn execute(&self, sql: &str, params: &[Value]) -> Result<u64, StoreError> {
        self.blocking(sql, params, |c, sql, params| {
            at_once(Session::execute(c, sql, params))
        })
        .await
    }

    async fn query(&self, sql: &str, params: &[Value]) -> Result<Vec<Row>, StoreError> {
        self.blocking(sql, params, |c, sql, params| {
            at_once(Session::query(c, sql, params))
        })
        .await
    }
}
