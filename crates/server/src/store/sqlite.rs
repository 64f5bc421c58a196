//! The SQLite backend. One writer thread owns the writing connection;
//! WAL mode with `synchronous=FULL` makes a commit durable. Reads use a
//! second connection, which WAL lets run beside the writer.

use std::path::Path;
use std::sync::Mutex;

use rusqlite::{params, Connection, OptionalExtension};

use parity_rules::Color;

use super::lobby::{self, ChallengeRow, Columns, SeekRow};
use super::{
    SessionRow,
    answer, batch_after, color_name, color_of, seat_text, AccountChange, ApiTokenRow, Change,
    ChatLine, GamePlayers, Job, Listing, PlayerRow, Queue, RatingPoint, SeatRow, StoreError,
    StoredGame, UserGame, UserRow,
};
use crate::base::ratings::Rating;
use crate::game::clock::Downtime;
use crate::game::event::{Event, EventBody, Seat};
use crate::game::state::{Hidden, Status};

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
];

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
            tx.execute(
                "INSERT INTO games (id, variant, created_ms, white, black, rematch_of, status, turn, public)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, 'waiting', 1,
                         COALESCE(?7, (SELECT public FROM games WHERE id = ?6), 0))",
                params![id, variant, created_ms, seat_text(&seats[0]), seat_text(&seats[1]), rematch_of, public],
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
            if let (Status::Finished, Some(result), true) =
                (summary.status, &summary.result, summary.both_moved)
            {
                rate(tx, game, result)?;
            }
        }
        Change::Player {
            game,
            color,
            user_id,
            rating,
            provisional,
        } => {
            tx.execute(
                "INSERT INTO players (game_id, color, user_id, rating, provisional) VALUES (?1, ?2, ?3, ?4, ?5)",
                params![game, color_name(*color), user_id, rating, provisional],
            )?;
        }
        Change::Rated { game } => {
            tx.execute("UPDATE games SET rated = 1 WHERE id = ?1", [game])?;
        }
        Change::Chat { game, line } => {
            tx.execute(
                "INSERT INTO chat (game_id, at_ms, author, room, text) VALUES (?1, ?2, ?3, ?4, ?5)",
                params![game, line.at_ms, line.author, line.room, line.text],
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
        Change::Account(change) => write_account_change(tx, change)?,
        Change::Lobby(change) => {
            for statement in lobby::statements(change) {
                let rows = tx.execute(statement.sql, rusqlite::params_from_iter(&statement.params))?;
                statement.touches.check(rows as u64)?;
            }
        }
    }
    Ok(())
}

fn write_account_change(tx: &Connection, change: &AccountChange) -> Result<(), StoreError> {
    match change {
        AccountChange::NewUser {
            id,
            name,
            password_hash,
            bot,
            created_ms,
        } => {
            tx.execute(
                "INSERT INTO users (id, name, password_hash, bot, created_ms) VALUES (?1, ?2, ?3, ?4, ?5)",
                params![id, name, password_hash, bot, created_ms],
            )?;
        }
        AccountChange::NewApiToken {
            token_hash,
            user_id,
            scopes,
            created_ms,
        } => {
            tx.execute(
                "INSERT INTO api_tokens (token_sha256, user_id, scopes, created_ms) VALUES (?1, ?2, ?3, ?4)",
                params![token_hash, user_id, scopes, created_ms],
            )?;
        }
        AccountChange::RevokeApiToken { token_hash } => {
            tx.execute(
                "UPDATE api_tokens SET revoked = 1 WHERE token_sha256 = ?1",
                [token_hash],
            )?;
        }
        AccountChange::NewSession {
            token_hash,
            user_id,
            created_ms,
            agent,
        } => {
            tx.execute(
                "INSERT INTO sessions (token_sha256, user_id, created_ms, seen_ms, agent)
                 VALUES (?1, ?2, ?3, ?3, ?4)",
                params![token_hash, user_id, created_ms, agent],
            )?;
        }
        AccountChange::SeenSession {
            token_hash,
            seen_ms,
        } => {
            tx.execute(
                "UPDATE sessions SET seen_ms = ?2 WHERE token_sha256 = ?1",
                params![token_hash, seen_ms],
            )?;
        }
        AccountChange::EndSession { token_hash } => {
            tx.execute("DELETE FROM sessions WHERE token_sha256 = ?1", [token_hash])?;
        }
    }
    Ok(())
}

/// Updates the ratings of a rated game's two players for its `result`,
/// once: in the transaction of the summary that finishes it.
fn rate(tx: &Connection, game: &str, result: &str) -> Result<(), StoreError> {
    let rated: Option<(String, bool)> = tx
        .query_row(
            "SELECT variant, rated FROM games WHERE id = ?1",
            [game],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .optional()?;
    let Some((variant, true)) = rated else {
        return Ok(());
    };
    let user = |color: &str| -> Result<Option<String>, StoreError> {
        Ok(tx
            .query_row(
                "SELECT user_id FROM players WHERE game_id = ?1 AND color = ?2",
                [game, color],
                |r| r.get(0),
            )
            .optional()?)
    };
    let (Some(white), Some(black)) = (user("white")?, user("black")?) else {
        return Ok(());
    };
    let done: bool = tx
        .query_row(
            "SELECT 1 FROM rating_history WHERE user_id = ?1 AND game_id = ?2",
            [&white, game],
            |_| Ok(()),
        )
        .optional()?
        .is_some();
    if done {
        return Ok(());
    }
    let rating = |user: &str| -> Result<Rating, StoreError> {
        Ok(tx
            .query_row(
                "SELECT rating, deviation, volatility, games FROM ratings WHERE user_id = ?1 AND variant = ?2",
                [user, &variant],
                |r| {
                    Ok(Rating {
                        rating: r.get(0)?,
                        deviation: r.get(1)?,
                        volatility: r.get(2)?,
                        games: r.get(3)?,
                    })
                },
            )
            .optional()?
            .unwrap_or_default())
    };
    let Some((w, b)) = crate::base::ratings::after_game(&rating(&white)?, &rating(&black)?, result)
    else {
        return Ok(());
    };
    let at_ms = crate::game::event::now_ms();
    for (user, new) in [(&white, w), (&black, b)] {
        tx.execute(
            "INSERT OR REPLACE INTO ratings (user_id, variant, rating, deviation, volatility, games)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            params![user, variant, new.rating, new.deviation, new.volatility, new.games],
        )?;
        tx.execute(
            "INSERT INTO rating_history (user_id, game_id, variant, at_ms, rating, deviation)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            params![user, game, variant, at_ms, new.rating, new.deviation],
        )?;
    }
    Ok(())
}

/// The writer thread: takes every job that is waiting, commits them
/// together, then answers each.
pub(super) fn run(mut conn: Connection, mut jobs: Queue) {
    while let Some(first) = jobs.blocking_recv() {
        let batch = batch_after(first, &mut jobs);
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

/// Reading side of the database.
pub(super) struct Reader {
    read: Mutex<Connection>,
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
        read: Mutex::new(read),
    })
}

impl Reader {
    pub(super) fn with<T>(
        &self,
        f: impl FnOnce(&Connection) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        let conn = self.read.lock().unwrap_or_else(|e| e.into_inner());
        f(&conn)
    }

    /// Everything stored about a game, or none if there is no such game.
    pub(super) fn load(&self, id: &str) -> Result<Option<StoredGame>, StoreError> {
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
    pub(super) fn unfinished(&self) -> Result<Vec<String>, StoreError> {
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
    pub(super) fn waiting_since_before(&self, created_ms: i64) -> Result<Vec<String>, StoreError> {
        self.with(|conn| {
            let mut stmt = conn.prepare_cached(
                "SELECT id FROM games WHERE status = 'waiting' AND created_ms < ?1 ORDER BY created_ms",
            )?;
            let ids = stmt.query_map([created_ms], |r| r.get(0))?;
            Ok(ids.collect::<Result<Vec<String>, _>>()?)
        })
    }

    /// The newest public games, live (waiting or started) or finished.
    pub(super) fn list(&self, finished: bool, limit: u32) -> Result<Vec<Listing>, StoreError> {
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

    pub(super) fn ping(&self) -> Result<(), StoreError> {
        self.with(|conn| {
            conn.query_row("SELECT 1", [], |r| r.get::<_, i64>(0))?;
            Ok(())
        })
    }

    /// When the server was last known alive: its last heartbeat, or for a
    /// database without one its last event; none for an empty database.
    pub(super) fn last_alive(&self) -> Result<Option<i64>, StoreError> {
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
    pub(super) fn downtimes(&self) -> Result<Vec<Downtime>, StoreError> {
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
    pub(super) fn token_known(&self, token_hash: &str) -> Result<bool, StoreError> {
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

const USER_COLUMNS: &str = "users.id, users.name, users.password_hash, users.bot, users.created_ms";
const USER_COLUMN_COUNT: usize = 5;
const SESSION_COLUMNS: &str =
    "sessions.token_sha256, sessions.created_ms, sessions.seen_ms, sessions.agent";

/// A session's columns, from column `first` on.
fn session_row(r: &rusqlite::Row<'_>, first: usize) -> rusqlite::Result<SessionRow> {
    Ok(SessionRow {
        hash: r.get(first)?,
        created_ms: r.get(first + 1)?,
        seen_ms: r.get(first + 2)?,
        agent: r.get(first + 3)?,
    })
}

fn user_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<UserRow> {
    Ok(UserRow {
        id: r.get(0)?,
        name: r.get(1)?,
        password_hash: r.get(2)?,
        bot: r.get(3)?,
        created_ms: r.get(4)?,
    })
}

/// Players, ratings, chat and sessions.
impl Reader {
    pub(super) fn players(&self, game: &str) -> Result<GamePlayers, StoreError> {
        self.with(|conn| {
            let (rated, created_ms) = conn
                .query_row(
                    "SELECT rated, created_ms FROM games WHERE id = ?1",
                    [game],
                    |r| Ok((r.get(0)?, r.get(1)?)),
                )
                .optional()?
                .unwrap_or((false, 0));
            let mut players = GamePlayers {
                rated,
                created_ms,
                ..GamePlayers::default()
            };
            let sql = format!(
                "SELECT {USER_COLUMNS}, players.rating, players.provisional, players.color
                 FROM players JOIN users ON users.id = players.user_id WHERE players.game_id = ?1"
            );
            let mut stmt = conn.prepare_cached(&sql)?;
            let rows = stmt.query_map([game], |r| {
                let row = PlayerRow {
                    user: user_row(r)?,
                    rating: r.get(5)?,
                    provisional: r.get(6)?,
                };
                Ok((r.get::<_, String>(7)?, row))
            })?;
            for row in rows {
                let (color, row) = row?;
                match color_of(&color)? {
                    Color::White => players.white = Some(row),
                    Color::Black => players.black = Some(row),
                }
            }
            Ok(players)
        })
    }

    pub(super) fn user_games(
        &self,
        user_id: &str,
        unfinished_only: bool,
        limit: u32,
        before: Option<(i64, String)>,
    ) -> Result<Vec<UserGame>, StoreError> {
        let (before_ms, before_id) = before.unzip();
        self.with(|conn| {
            let mut stmt = conn.prepare_cached(
                "SELECT games.id, games.variant, players.color, games.created_ms, games.status,
                        games.result, games.rated,
                        (SELECT users.name FROM players AS o JOIN users ON users.id = o.user_id
                         WHERE o.game_id = games.id AND o.color <> players.color)
                 FROM players JOIN games ON games.id = players.game_id
                 WHERE players.user_id = ?1 AND (?2 = 0 OR games.status <> 'finished')
                   AND (?4 IS NULL OR (games.created_ms, games.id) < (?4, ?5))
                 ORDER BY games.created_ms DESC, games.id DESC LIMIT ?3",
            )?;
            let given = params![user_id, unfinished_only, limit, before_ms, before_id];
            let rows = stmt.query_map(given, |r| {
                Ok((
                    UserGame {
                        id: r.get(0)?,
                        variant: r.get(1)?,
                        color: Color::White,
                        created_ms: r.get(3)?,
                        status: r.get(4)?,
                        result: r.get(5)?,
                        rated: r.get(6)?,
                        opponent: r.get(7)?,
                    },
                    r.get::<_, String>(2)?,
                ))
            })?;
            let mut games = Vec::new();
            for row in rows {
                let (mut game, color) = row?;
                game.color = color_of(&color)?;
                games.push(game);
            }
            Ok(games)
        })
    }

    pub(super) fn ratings(&self, user_id: &str) -> Result<Vec<(String, Rating)>, StoreError> {
        self.with(|conn| {
            let mut stmt = conn.prepare_cached(
                "SELECT variant, rating, deviation, volatility, games FROM ratings
                 WHERE user_id = ?1 ORDER BY variant",
            )?;
            let rows = stmt.query_map([user_id], |r| {
                Ok((
                    r.get(0)?,
                    Rating {
                        rating: r.get(1)?,
                        deviation: r.get(2)?,
                        volatility: r.get(3)?,
                        games: r.get(4)?,
                    },
                ))
            })?;
            Ok(rows.collect::<Result<Vec<_>, _>>()?)
        })
    }

    pub(super) fn rating_history(&self, user_id: &str) -> Result<Vec<RatingPoint>, StoreError> {
        self.with(|conn| {
            let mut stmt = conn.prepare_cached(
                "SELECT variant, game_id, at_ms, rating, deviation FROM rating_history
                 WHERE user_id = ?1 ORDER BY at_ms, game_id",
            )?;
            let rows = stmt.query_map([user_id], |r| {
                Ok(RatingPoint {
                    variant: r.get(0)?,
                    game: r.get(1)?,
                    at_ms: r.get(2)?,
                    rating: r.get(3)?,
                    deviation: r.get(4)?,
                })
            })?;
            Ok(rows.collect::<Result<Vec<_>, _>>()?)
        })
    }

    pub(super) fn chat(&self, game: &str) -> Result<Vec<ChatLine>, StoreError> {
        self.with(|conn| {
            let mut stmt = conn.prepare_cached(
                "SELECT at_ms, author, room, text FROM chat WHERE game_id = ?1 ORDER BY rowid",
            )?;
            let rows = stmt.query_map([game], |r| {
                Ok(ChatLine {
                    at_ms: r.get(0)?,
                    author: r.get(1)?,
                    room: r.get(2)?,
                    text: r.get(3)?,
                })
            })?;
            Ok(rows.collect::<Result<Vec<_>, _>>()?)
        })
    }

    pub(super) fn rated_games_between(
        &self,
        a: &str,
        b: &str,
        since_ms: &i64,
    ) -> Result<u32, StoreError> {
        self.with(|conn| {
            Ok(conn.query_row(
                "SELECT COUNT(*) FROM games
                 JOIN players AS one ON one.game_id = games.id
                 JOIN players AS other ON other.game_id = games.id
                 WHERE games.rated = 1 AND games.created_ms >= ?3
                   AND one.user_id = ?1 AND other.user_id = ?2 AND one.color <> other.color",
                params![a, b, since_ms],
                |r| r.get(0),
            )?)
        })
    }

    pub(super) fn session(
        &self,
        token_hash: &str,
    ) -> Result<Option<(UserRow, SessionRow)>, StoreError> {
        self.with(|conn| {
            let sql = format!(
                "SELECT {USER_COLUMNS}, {SESSION_COLUMNS} FROM sessions
                 JOIN users ON users.id = sessions.user_id WHERE sessions.token_sha256 = ?1"
            );
            Ok(conn
                .query_row(&sql, [token_hash], |r| {
                    Ok((user_row(r)?, session_row(r, USER_COLUMN_COUNT)?))
                })
                .optional()?)
        })
    }

    pub(super) fn sessions_of(&self, user_id: &str) -> Result<Vec<SessionRow>, StoreError> {
        self.with(|conn| {
            let sql = format!(
                "SELECT {SESSION_COLUMNS} FROM sessions WHERE user_id = ?1
                 ORDER BY seen_ms DESC, token_sha256"
            );
            let mut stmt = conn.prepare(&sql)?;
            let rows = stmt.query_map([user_id], |r| session_row(r, 0))?;
            Ok(rows.collect::<Result<Vec<_>, _>>()?)
        })
    }
}

/// Accounts: users and their API tokens.
impl Reader {
    pub(super) fn user_ids(&self) -> Result<Vec<String>, StoreError> {
        self.with(|conn| {
            let mut statement = conn.prepare("SELECT id FROM users")?;
            let ids = statement.query_map([], |r| r.get(0))?;
            Ok(ids.collect::<Result<_, _>>()?)
        })
    }

    pub(super) fn user(&self, id: &str) -> Result<Option<UserRow>, StoreError> {
        self.with(|conn| {
            let sql = format!("SELECT {USER_COLUMNS} FROM users WHERE id = ?1");
            Ok(conn.query_row(&sql, [id], user_row).optional()?)
        })
    }

    pub(super) fn api_token(
        &self,
        token_hash: &str,
    ) -> Result<Option<(UserRow, String)>, StoreError> {
        self.with(|conn| {
            let sql = format!(
                "SELECT {USER_COLUMNS}, api_tokens.scopes FROM api_tokens
                 JOIN users ON users.id = api_tokens.user_id
                 WHERE api_tokens.token_sha256 = ?1 AND api_tokens.revoked = 0"
            );
            Ok(conn
                .query_row(&sql, [token_hash], |r| Ok((user_row(r)?, r.get(5)?)))
                .optional()?)
        })
    }

    pub(super) fn api_tokens_of(&self, user_id: &str) -> Result<Vec<ApiTokenRow>, StoreError> {
        self.with(|conn| {
            let mut stmt = conn.prepare(
                "SELECT token_sha256, scopes, created_ms FROM api_tokens
                 WHERE user_id = ?1 AND revoked = 0 ORDER BY created_ms, token_sha256",
            )?;
            let rows = stmt.query_map([user_id], |r| {
                Ok(ApiTokenRow {
                    hash: r.get(0)?,
                    scopes: r.get(1)?,
                    created_ms: r.get(2)?,
                })
            })?;
            Ok(rows.collect::<Result<Vec<_>, _>>()?)
        })
    }
}

impl rusqlite::ToSql for lobby::Value {
    fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
        match self {
            lobby::Value::Text(v) => v.to_sql(),
            lobby::Value::MaybeText(v) => v.to_sql(),
            lobby::Value::Int(v) => v.to_sql(),
            lobby::Value::MaybeInt(v) => v.to_sql(),
            lobby::Value::Flag(v) => v.to_sql(),
        }
    }
}

impl Columns for rusqlite::Row<'_> {
    fn text(&self, i: usize) -> Result<String, StoreError> {
        Ok(self.get(i)?)
    }
    fn maybe_text(&self, i: usize) -> Result<Option<String>, StoreError> {
        Ok(self.get(i)?)
    }
    fn int(&self, i: usize) -> Result<i64, StoreError> {
        Ok(self.get(i)?)
    }
    fn maybe_int(&self, i: usize) -> Result<Option<i64>, StoreError> {
        Ok(self.get(i)?)
    }
    fn flag(&self, i: usize) -> Result<bool, StoreError> {
        Ok(self.get(i)?)
    }
}

/// The lobby (`lobby.rs` holds the statements).
impl Reader {
    fn lobby_rows<T>(
        &self,
        sql: &str,
        params: &[lobby::Value],
        row: fn(&rusqlite::Row<'_>) -> Result<T, StoreError>,
    ) -> Result<Vec<T>, StoreError> {
        self.with(|conn| {
            let mut stmt = conn.prepare(sql)?;
            let mut rows = stmt.query(rusqlite::params_from_iter(params))?;
            let mut all = Vec::new();
            while let Some(r) = rows.next()? {
                all.push(row(r)?);
            }
            Ok(all)
        })
    }

    pub(super) fn open_seeks(&self, now_ms: &i64) -> Result<Vec<SeekRow>, StoreError> {
        self.lobby_rows(lobby::OPEN_SEEKS, &[lobby::Value::Int(*now_ms)], |r| lobby::seek_row(r))
    }

    pub(super) fn challenge(&self, id: &str) -> Result<Option<ChallengeRow>, StoreError> {
        let params = [lobby::Value::Text(id.to_string())];
        Ok(self
            .lobby_rows(&lobby::challenge_by_id(), &params, |r| lobby::challenge_row(r))?
            .pop())
    }

    pub(super) fn open_challenges_of(
        &self,
        user_id: &str,
        now_ms: &i64,
    ) -> Result<Vec<ChallengeRow>, StoreError> {
        let params = [lobby::Value::Text(user_id.to_string()), lobby::Value::Int(*now_ms)];
        self.lobby_rows(&lobby::open_challenges_of(), &params, |r| lobby::challenge_row(r))
    }

    pub(super) fn expired_challenges(&self, now_ms: &i64) -> Result<Vec<ChallengeRow>, StoreError> {
        let params = [lobby::Value::Int(*now_ms)];
        self.lobby_rows(&lobby::expired_challenges(), &params, |r| lobby::challenge_row(r))
    }
}
