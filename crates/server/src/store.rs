//! Storage in SQLite: the append-only event log of every game, a games
//! table for listing, the seats' token hashes and the hidden moves.
//!
//! One writer thread owns the writing connection. It takes every job that
//! is waiting, writes them all in one transaction (group commit: one fsync
//! for many events), and only after the commit tells each job's sender.
//! WAL mode with `synchronous=FULL` makes a commit durable. Reads use a
//! second connection, which WAL lets run beside the writer.

use std::path::Path;
use std::sync::{Arc, Mutex};

use parity_rules::Color;
use rusqlite::{params, Connection, OptionalExtension};
use tokio::sync::{mpsc, oneshot};

use crate::clock::Downtime;
use crate::event::{Event, EventBody, Seat};
use crate::state::{Hidden, Summary};

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("database: {0}")]
    Sqlite(#[from] rusqlite::Error),
    #[error("stored data: {0}")]
    Corrupt(String),
    #[error("the database writer has stopped")]
    WriterGone,
}

/// The schema, one step per version (`PRAGMA user_version`); a database is
/// brought up to date on open.
const MIGRATIONS: &[&str] = &[r#"
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
];

fn color_name(c: Color) -> &'static str {
    c.name()
}

fn color_of(name: &str) -> Result<Color, StoreError> {
    match name {
        "white" => Ok(Color::White),
        "black" => Ok(Color::Black),
        other => Err(StoreError::Corrupt(format!("colour `{other}`"))),
    }
}

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

/// One row to write.
// Rows live only until their transaction commits, so their size does not matter.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug)]
pub enum Change {
    NewGame {
        id: String,
        variant: String,
        created_ms: i64,
        seats: [Seat; 2],
        rematch_of: Option<String>,
        /// Listed publicly; none: as the game it is a rematch of.
        public: Option<bool>,
    },
    /// A seat's token hash and invite (replacing the row).
    Seat {
        game: String,
        color: Color,
        token_hash: Option<String>,
        invite: Option<String>,
    },
    Event {
        game: String,
        event: Event,
    },
    Summary {
        game: String,
        summary: Summary,
    },
    Hidden {
        game: String,
        hidden: Hidden,
    },
    /// The server is alive at this time (ms since the Unix epoch).
    Heartbeat {
        at_ms: i64,
    },
    Downtime(Downtime),
}

fn write_change(tx: &Connection, change: &Change) -> Result<(), StoreError> {
    match change {
        Change::NewGame {
            id,
            variant,
            created_ms,
            seats,
            rematch_of,
            public,
        } => {
            let seat = |s: &Seat| serde_json::to_string(s).unwrap_or_default();
            tx.execute(
                "INSERT INTO games (id, variant, created_ms, white, black, rematch_of, status, turn, public)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, 'waiting', 1,
                         COALESCE(?7, (SELECT public FROM games WHERE id = ?6), 0))",
                params![id, variant, created_ms, seat(&seats[0]), seat(&seats[1]), rematch_of, public],
            )?;
        }
        Change::Seat {
            game,
            color,
            token_hash,
            invite,
        } => {
            tx.execute(
                "INSERT OR REPLACE INTO seats (game_id, color, token_sha256, invite) VALUES (?1, ?2, ?3, ?4)",
                params![game, color_name(*color), token_hash, invite],
            )?;
        }
        Change::Event { game, event } => {
            let body = serde_json::to_string(&event.body)
                .map_err(|e| StoreError::Corrupt(e.to_string()))?;
            tx.execute(
                "INSERT INTO events (game_id, seq, at_ms, kind, body_json) VALUES (?1, ?2, ?3, ?4, ?5)",
                params![game, event.seq as i64, event.at, event.body.kind(), body],
            )?;
        }
        Change::Summary { game, summary } => {
            tx.execute(
                "UPDATE games SET status = ?2, result = ?3, reason = ?4, turn = ?5 WHERE id = ?1",
                params![
                    game,
                    summary.status.name(),
                    summary.result,
                    summary.reason.map(|r| r.name()),
                    summary.turn
                ],
            )?;
        }
        Change::Hidden { game, hidden } => {
            tx.execute(
                "INSERT OR REPLACE INTO hidden_moves (game_id, turn, color, move, nonce) VALUES (?1, ?2, ?3, ?4, ?5)",
                params![game, hidden.turn, color_name(hidden.color), hidden.mv, hidden.nonce],
            )?;
        }
        Change::Heartbeat { at_ms } => {
            tx.execute(
                "INSERT OR REPLACE INTO heartbeat (id, at_ms) VALUES (1, ?1)",
                [at_ms],
            )?;
        }
        Change::Downtime(d) => {
            tx.execute(
                "INSERT INTO downtimes (from_ms, to_ms) VALUES (?1, ?2)",
                [d.from_ms, d.to_ms],
            )?;
        }
    }
    Ok(())
}

struct Job {
    changes: Vec<Change>,
    done: oneshot::Sender<Result<(), String>>,
}

/// The handle to the writer thread; cheap to clone.
#[derive(Clone)]
pub struct Writer {
    jobs: mpsc::UnboundedSender<Job>,
}

/// Jobs at most in one transaction, so one commit never waits too long.
const MAX_BATCH: usize = 1024;

impl Writer {
    /// Writes the changes in one transaction shared with other jobs;
    /// returns once it is durable, or with the reason it is not (then
    /// nothing of it is written).
    pub async fn write(&self, changes: Vec<Change>) -> Result<(), StoreError> {
        let (done, wait) = oneshot::channel();
        self.jobs
            .send(Job { changes, done })
            .map_err(|_| StoreError::WriterGone)?;
        match wait.await {
            Ok(Ok(())) => Ok(()),
            Ok(Err(message)) => Err(StoreError::Corrupt(message)),
            Err(_) => Err(StoreError::WriterGone),
        }
    }

    fn run(mut conn: Connection, mut jobs: mpsc::UnboundedReceiver<Job>) {
        while let Some(first) = jobs.blocking_recv() {
            let mut batch = vec![first];
            while batch.len() < MAX_BATCH {
                match jobs.try_recv() {
                    Ok(job) => batch.push(job),
                    Err(_) => break,
                }
            }
            let results = Writer::commit(&mut conn, &batch);
            for (job, result) in batch.into_iter().zip(results) {
                let _ = job.done.send(result);
            }
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
                let written = job.changes.iter().try_for_each(|c| write_change(&sp, c));
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
}

/// A game as stored.
#[derive(Clone, Debug)]
pub struct StoredGame {
    pub events: Vec<Event>,
    pub seats: [SeatRow; 2],
    pub hidden: Vec<Hidden>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SeatRow {
    pub token_hash: Option<String>,
    pub invite: Option<String>,
}

/// One line of `GET /api/games`.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Listing {
    pub id: String,
    pub variant: String,
    pub white: Seat,
    pub black: Seat,
    pub status: String,
    pub result: Option<String>,
    pub turn: u32,
}

/// Reading side of the database.
pub struct Store {
    read: Mutex<Connection>,
}

impl Store {
    /// Opens (creating and migrating if needed) the database and starts its writer.
    pub fn open(path: &Path) -> Result<(Arc<Store>, Writer), StoreError> {
        let mut write = open_connection(path)?;
        migrate(&mut write)?;
        let read = open_connection(path)?;
        let (jobs, queue) = mpsc::unbounded_channel();
        std::thread::Builder::new()
            .name("db-writer".into())
            .spawn(move || Writer::run(write, queue))
            .map_err(|e| StoreError::Corrupt(format!("cannot start the writer: {e}")))?;
        Ok((
            Arc::new(Store {
                read: Mutex::new(read),
            }),
            Writer { jobs },
        ))
    }

    fn with<T>(
        &self,
        f: impl FnOnce(&Connection) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        let conn = self.read.lock().unwrap_or_else(|e| e.into_inner());
        f(&conn)
    }

    /// Everything stored about a game, or none if there is no such game.
    pub fn load(&self, id: &str) -> Result<Option<StoredGame>, StoreError> {
        self.with(|conn| {
            let mut stmt = conn.prepare_cached(
                "SELECT seq, at_ms, body_json FROM events WHERE game_id = ?1 ORDER BY seq",
            )?;
            let rows = stmt.query_map([id], |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    r.get::<_, i64>(1)?,
                    r.get::<_, String>(2)?,
                ))
            })?;
            let mut events = Vec::new();
            for row in rows {
                let (seq, at, body) = row?;
                let body: EventBody = serde_json::from_str(&body)
                    .map_err(|e| StoreError::Corrupt(format!("game {id} event {seq}: {e}")))?;
                events.push(Event {
                    body,
                    seq: seq as u64,
                    at,
                });
            }
            if events.is_empty() {
                return Ok(None);
            }
            let mut seats = [SeatRow::default(), SeatRow::default()];
            let mut stmt = conn.prepare_cached(
                "SELECT color, token_sha256, invite FROM seats WHERE game_id = ?1",
            )?;
            let rows = stmt.query_map([id], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, Option<String>>(1)?,
                    r.get::<_, Option<String>>(2)?,
                ))
            })?;
            for row in rows {
                let (color, token_hash, invite) = row?;
                seats[color_of(&color)?.index()] = SeatRow { token_hash, invite };
            }
            let mut stmt = conn.prepare_cached(
                "SELECT turn, color, move, nonce FROM hidden_moves WHERE game_id = ?1",
            )?;
            let rows = stmt.query_map([id], |r| {
                Ok((
                    r.get::<_, u32>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, String>(2)?,
                    r.get::<_, String>(3)?,
                ))
            })?;
            let mut hidden = Vec::new();
            for row in rows {
                let (turn, color, mv, nonce) = row?;
                hidden.push(Hidden {
                    turn,
                    color: color_of(&color)?,
                    mv,
                    nonce,
                });
            }
            Ok(Some(StoredGame {
                events,
                seats,
                hidden,
            }))
        })
    }

    /// Ids of the games that are not finished, oldest first.
    pub fn unfinished(&self) -> Result<Vec<String>, StoreError> {
        self.with(|conn| {
            let mut stmt = conn.prepare_cached(
                "SELECT id FROM games WHERE status != 'finished' ORDER BY created_ms",
            )?;
            let ids = stmt.query_map([], |r| r.get(0))?;
            Ok(ids.collect::<Result<Vec<String>, _>>()?)
        })
    }

    /// Ids of the games still waiting for their friend that were created
    /// before `created_ms`.
    pub fn waiting_since_before(&self, created_ms: i64) -> Result<Vec<String>, StoreError> {
        self.with(|conn| {
            let mut stmt = conn.prepare_cached(
                "SELECT id FROM games WHERE status = 'waiting' AND created_ms < ?1 ORDER BY created_ms",
            )?;
            let ids = stmt.query_map([created_ms], |r| r.get(0))?;
            Ok(ids.collect::<Result<Vec<String>, _>>()?)
        })
    }

    /// The newest public games, live (waiting or started) or finished.
    pub fn list(&self, finished: bool, limit: u32) -> Result<Vec<Listing>, StoreError> {
        self.with(|conn| {
            let sql = if finished {
                "SELECT id, variant, white, black, status, result, turn FROM games
                 WHERE status = 'finished' AND public ORDER BY created_ms DESC LIMIT ?1"
            } else {
                "SELECT id, variant, white, black, status, result, turn FROM games
                 WHERE status != 'finished' AND public ORDER BY created_ms DESC LIMIT ?1"
            };
            let mut stmt = conn.prepare_cached(sql)?;
            let rows = stmt.query_map([limit], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, String>(2)?,
                    r.get::<_, String>(3)?,
                    r.get::<_, String>(4)?,
                    r.get::<_, Option<String>>(5)?,
                    r.get::<_, u32>(6)?,
                ))
            })?;
            let mut out = Vec::new();
            for row in rows {
                let (id, variant, white, black, status, result, turn) = row?;
                let seat = |text: &str| {
                    serde_json::from_str::<Seat>(text)
                        .map_err(|e| StoreError::Corrupt(format!("game {id} seat: {e}")))
                };
                out.push(Listing {
                    white: seat(&white)?,
                    black: seat(&black)?,
                    id,
                    variant,
                    status,
                    result,
                    turn,
                });
            }
            Ok(out)
        })
    }

    /// When the server was last known alive: its last heartbeat, or for a
    /// database without one its last event; none for an empty database.
    pub fn last_alive(&self) -> Result<Option<i64>, StoreError> {
        self.with(|conn| {
            let beat = conn
                .query_row("SELECT at_ms FROM heartbeat WHERE id = 1", [], |r| r.get(0))
                .optional()?;
            match beat {
                Some(at_ms) => Ok(Some(at_ms)),
                None => Ok(conn.query_row("SELECT MAX(at_ms) FROM events", [], |r| r.get(0))?),
            }
        })
    }

    /// Every span the server was down, oldest first.
    pub fn downtimes(&self) -> Result<Vec<Downtime>, StoreError> {
        self.with(|conn| {
            let mut stmt =
                conn.prepare_cached("SELECT from_ms, to_ms FROM downtimes ORDER BY from_ms")?;
            let rows = stmt.query_map([], |r| {
                Ok(Downtime {
                    from_ms: r.get(0)?,
                    to_ms: r.get(1)?,
                })
            })?;
            Ok(rows.collect::<Result<Vec<_>, _>>()?)
        })
    }

    /// Whether some seat of some game has this token hash.
    pub fn token_known(&self, token_hash: &str) -> Result<bool, StoreError> {
        self.with(|conn| {
            Ok(conn
                .query_row(
                    "SELECT 1 FROM seats WHERE token_sha256 = ?1 LIMIT 1",
                    [token_hash],
                    |_| Ok(()),
                )
                .optional()?
                .is_some())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::Status;

    fn event(seq: u64, body: EventBody) -> Change {
        Change::Event {
            game: "g000000001".into(),
            event: Event { body, seq, at: 7 },
        }
    }

    #[tokio::test]
    async fn writes_are_durable_and_read_back_and_a_bad_job_fails_alone() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.sqlite");
        {
            let (store, writer) = Store::open(&path).unwrap();
            let created = EventBody::Created {
                variant: "chess".into(),
                clock: None,
                days: None,
                white: Seat::Human,
                black: Seat::Engine { level: 1 },
                rematch_of: None,
                fen: None,
            };
            let first = vec![
                Change::NewGame {
                    id: "g000000001".into(),
                    variant: "chess".into(),
                    created_ms: 5,
                    seats: [Seat::Human, Seat::Engine { level: 1 }],
                    rematch_of: None,
                    public: Some(true),
                },
                Change::Seat {
                    game: "g000000001".into(),
                    color: Color::White,
                    token_hash: Some("abc".into()),
                    invite: None,
                },
                event(1, created),
            ];
            // The same event seq twice: the second job must fail and leave nothing.
            let again = vec![
                event(
                    2,
                    EventBody::DrawOffer {
                        color: crate::event::Side::White,
                    },
                ),
                event(
                    1,
                    EventBody::Joined {
                        color: crate::event::Side::Black,
                    },
                ),
            ];
            let (a, b) = tokio::join!(writer.write(first), writer.write(again));
            a.unwrap();
            assert!(b.is_err());
            writer
                .write(vec![Change::Summary {
                    game: "g000000001".into(),
                    summary: Summary {
                        status: Status::Started,
                        result: None,
                        reason: None,
                        turn: 3,
                    },
                }])
                .await
                .unwrap();
            assert!(store.token_known("abc").unwrap());
            assert!(!store.token_known("abd").unwrap());
        }
        // A new process sees what was acknowledged.
        let (store, _writer) = Store::open(&path).unwrap();
        let game = store.load("g000000001").unwrap().unwrap();
        assert_eq!(game.events.len(), 1);
        assert_eq!(game.events[0].body.kind(), "created");
        assert_eq!(game.seats[0].token_hash.as_deref(), Some("abc"));
        assert!(store.load("nope").unwrap().is_none());
        assert_eq!(store.unfinished().unwrap(), vec!["g000000001".to_string()]);
        let live = store.list(false, 10).unwrap();
        assert_eq!(live.len(), 1);
        assert_eq!(live[0].turn, 3);
        assert_eq!(live[0].status, "started");
        assert!(store.list(true, 10).unwrap().is_empty());
    }
}
