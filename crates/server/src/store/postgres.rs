//! The PostgreSQL backend (tokio-postgres). The writer is a task with its
//! own connection; reads share another. With PostgreSQL's default
//! `synchronous_commit = on`, a commit is durable when it returns.

use tokio_postgres::types::ToSql;
use tokio_postgres::{Client, Transaction};

use parity_rules::Color;

use super::lobby::{self, ChallengeRow, Columns, SeekRow};
use super::{
    answer, batch_after, color_name, color_of, seat_text, AccountChange, ApiTokenRow, Change,
    ChatLine, Database, GamePlayers, Job, Listing, PlayerRow, Queue, RatingPoint, SeatRow,
    SessionRow, StoreError, StoredGame, UserGame, UserRow,
};
use crate::base::ratings::Rating;
use crate::game::clock::Downtime;
use crate::game::event::{Event, EventBody, Seat};
use crate::game::state::{Hidden, Status};

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
    while let Some(first) = jobs.recv().await {
        let batch = batch_after(first, &mut jobs);
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
                written = write_change(&sp, change).await;
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
            if let Change::Event { game, event } = change {
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

async fn write_change(tx: &Transaction<'_>, change: &Change) -> Result<(), StoreError> {
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
                 VALUES ($1, $2, $3, $4, $5, $6, 'waiting', 1,
                         COALESCE($7, (SELECT public FROM games WHERE id = $6), FALSE))",
                &[id, variant, created_ms, &seat_text(&seats[0]), &seat_text(&seats[1]), rematch_of, public],
            )
            .await?;
        }
        Change::Seat {
            game,
            color,
            token_hash,
            invite,
        } => {
            tx.execute(
                "INSERT INTO seats (game_id, color, token_sha256, invite) VALUES ($1, $2, $3, $4)
                 ON CONFLICT (game_id, color) DO UPDATE
                 SET token_sha256 = EXCLUDED.token_sha256, invite = EXCLUDED.invite",
                &[game, &color_name(*color), token_hash, invite],
            )
            .await?;
        }
        Change::Event { game, event } => {
            let body = serde_json::to_string(&event.body)
                .map_err(|e| StoreError::Corrupt(e.to_string()))?;
            tx.execute(
                "INSERT INTO events (game_id, seq, at_ms, kind, body_json) VALUES ($1, $2, $3, $4, $5)",
                &[game, &(event.seq as i64), &event.at, &event.body.kind(), &body],
            )
            .await?;
        }
        Change::Summary { game, summary } => {
            tx.execute(
                "UPDATE games SET status = $2, result = $3, reason = $4, turn = $5 WHERE id = $1",
                &[
                    game,
                    &summary.status.name(),
                    &summary.result,
                    &summary.reason.map(|r| r.name()),
                    &i64::from(summary.turn),
                ],
            )
            .await?;
            if let (Status::Finished, Some(result), true) =
                (summary.status, &summary.result, summary.both_moved)
            {
                rate(tx, game, result).await?;
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
                "INSERT INTO players (game_id, color, user_id, rating, provisional) VALUES ($1, $2, $3, $4, $5)",
                &[game, &color_name(*color), user_id, rating, provisional],
            )
            .await?;
        }
        Change::Rated { game } => {
            tx.execute("UPDATE games SET rated = TRUE WHERE id = $1", &[game])
                .await?;
        }
        Change::Chat { game, line } => {
            tx.execute(
                "INSERT INTO chat (game_id, at_ms, author, room, text) VALUES ($1, $2, $3, $4, $5)",
                &[game, &line.at_ms, &line.author, &line.room, &line.text],
            )
            .await?;
        }
        Change::Hidden { game, hidden } => {
            tx.execute(
                "INSERT INTO hidden_moves (game_id, turn, color, move, nonce) VALUES ($1, $2, $3, $4, $5)
                 ON CONFLICT (game_id, turn, color) DO UPDATE
                 SET move = EXCLUDED.move, nonce = EXCLUDED.nonce",
                &[
                    game,
                    &i64::from(hidden.turn),
                    &color_name(hidden.color),
                    &hidden.mv,
                    &hidden.nonce,
                ],
            )
            .await?;
        }
        Change::Heartbeat { at_ms } => {
            tx.execute(
                "INSERT INTO heartbeat (id, at_ms) VALUES (1, $1)
                 ON CONFLICT (id) DO UPDATE SET at_ms = EXCLUDED.at_ms",
                &[at_ms],
            )
            .await?;
        }
        Change::Downtime(d) => {
            tx.execute(
                "INSERT INTO downtimes (from_ms, to_ms) VALUES ($1, $2)",
                &[&d.from_ms, &d.to_ms],
            )
            .await?;
        }
        Change::Account(change) => write_account_change(tx, change).await?,
        Change::Lobby(change) => {
            for statement in lobby::statements(change) {
                let params: Vec<&(dyn ToSql + Sync)> =
                    statement.params.iter().map(|p| p as &(dyn ToSql + Sync)).collect();
                let rows = tx.execute(statement.sql, &params).await?;
                statement.touches.check(rows)?;
            }
        }
    }
    Ok(())
}

async fn write_account_change(
    tx: &Transaction<'_>,
    change: &AccountChange,
) -> Result<(), StoreError> {
    match change {
        AccountChange::NewUser {
            id,
            name,
            password_hash,
            bot,
            created_ms,
        } => {
            tx.execute(
                "INSERT INTO users (id, name, password_hash, bot, created_ms) VALUES ($1, $2, $3, $4, $5)",
                &[id, name, password_hash, bot, created_ms],
            )
            .await?;
        }
        AccountChange::NewApiToken {
            token_hash,
            user_id,
            scopes,
            created_ms,
        } => {
            tx.execute(
                "INSERT INTO api_tokens (token_sha256, user_id, scopes, created_ms) VALUES ($1, $2, $3, $4)",
                &[token_hash, user_id, scopes, created_ms],
            )
            .await?;
        }
        AccountChange::RevokeApiToken { token_hash } => {
            tx.execute(
                "UPDATE api_tokens SET revoked = TRUE WHERE token_sha256 = $1",
                &[token_hash],
            )
            .await?;
        }
        AccountChange::NewSession {
            token_hash,
            user_id,
            created_ms,
            agent,
        } => {
            tx.execute(
                "INSERT INTO sessions (token_sha256, user_id, created_ms, seen_ms, agent)
                 VALUES ($1, $2, $3, $3, $4)",
                &[token_hash, user_id, created_ms, agent],
            )
            .await?;
        }
        AccountChange::SeenSession {
            token_hash,
            seen_ms,
        } => {
            tx.execute(
                "UPDATE sessions SET seen_ms = $2 WHERE token_sha256 = $1",
                &[token_hash, seen_ms],
            )
            .await?;
        }
        AccountChange::EndSession { token_hash } => {
            tx.execute(
                "DELETE FROM sessions WHERE token_sha256 = $1",
                &[token_hash],
            )
            .await?;
        }
    }
    Ok(())
}

/// Updates the ratings of a rated game's two players for its `result`,
/// once: in the transaction of the summary that finishes it. The rows are
/// locked (in user order) so that nodes finishing two games of one player
/// at once apply both.
async fn rate(tx: &Transaction<'_>, game: &str, result: &str) -> Result<(), StoreError> {
    let Some(row) = tx
        .query_opt("SELECT variant, rated FROM games WHERE id = $1", &[&game])
        .await?
    else {
        return Ok(());
    };
    let (variant, rated): (String, bool) = (row.get(0), row.get(1));
    if !rated {
        return Ok(());
    }
    let user = async |color: &str| -> Result<Option<String>, StoreError> {
        Ok(tx
            .query_opt(
                "SELECT user_id FROM players WHERE game_id = $1 AND color = $2",
                &[&game, &color],
            )
            .await?
            .map(|r| r.get(0)))
    };
    let (Some(white), Some(black)) = (user("white").await?, user("black").await?) else {
        return Ok(());
    };
    let done = tx
        .query_opt(
            "SELECT 1 FROM rating_history WHERE user_id = $1 AND game_id = $2",
            &[&white, &game],
        )
        .await?
        .is_some();
    if done {
        return Ok(());
    }
    let fresh = Rating::default();
    let mut users = [&white, &black];
    users.sort();
    for user in users {
        tx.execute(
            "INSERT INTO ratings (user_id, variant, rating, deviation, volatility, games)
             VALUES ($1, $2, $3, $4, $5, 0) ON CONFLICT DO NOTHING",
            &[
                user,
                &variant,
                &fresh.rating,
                &fresh.deviation,
                &fresh.volatility,
            ],
        )
        .await?;
    }
    let mut rating = std::collections::HashMap::new();
    for user in users {
        let r = tx
            .query_one(
                "SELECT rating, deviation, volatility, games FROM ratings
                 WHERE user_id = $1 AND variant = $2 FOR UPDATE",
                &[user, &variant],
            )
            .await?;
        let games: i32 = r.get(3);
        rating.insert(
            user.clone(),
            Rating {
                rating: r.get(0),
                deviation: r.get(1),
                volatility: r.get(2),
                games: games.max(0) as u32,
            },
        );
    }
    let Some((w, b)) = crate::base::ratings::after_game(&rating[&white], &rating[&black], result)
    else {
        return Ok(());
    };
    let at_ms = crate::game::event::now_ms();
    for (user, new) in [(&white, w), (&black, b)] {
        tx.execute(
            "UPDATE ratings SET rating = $3, deviation = $4, volatility = $5, games = $6
             WHERE user_id = $1 AND variant = $2",
            &[
                user,
                &variant,
                &new.rating,
                &new.deviation,
                &new.volatility,
                &(new.games as i32),
            ],
        )
        .await?;
        tx.execute(
            "INSERT INTO rating_history (user_id, game_id, variant, at_ms, rating, deviation)
             VALUES ($1, $2, $3, $4, $5, $6)",
            &[user, &game, &variant, &at_ms, &new.rating, &new.deviation],
        )
        .await?;
    }
    Ok(())
}

/// A row of `from_ms, to_ms`.
pub(crate) fn downtime_of(row: &tokio_postgres::Row) -> Downtime {
    Downtime {
        from_ms: row.get(0),
        to_ms: row.get(1),
    }
}

fn turn_of(value: i64) -> Result<u32, StoreError> {
    u32::try_from(value).map_err(|_| StoreError::Corrupt(format!("turn {value}")))
}

impl Reader {
    pub(super) async fn load(&self, id: &str) -> Result<Option<StoredGame>, StoreError> {
        let rows = self
            .client
            .query(
                "SELECT seq, at_ms, body_json FROM events WHERE game_id = $1 ORDER BY seq",
                &[&id],
            )
            .await?;
        let mut events = Vec::with_capacity(rows.len());
        for row in rows {
            let (seq, at, body): (i64, i64, String) = (row.get(0), row.get(1), row.get(2));
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
        for row in self
            .client
            .query(
                "SELECT color, token_sha256, invite FROM seats WHERE game_id = $1",
                &[&id],
            )
            .await?
        {
            let color: String = row.get(0);
            seats[color_of(&color)?.index()] = SeatRow {
                token_hash: row.get(1),
                invite: row.get(2),
            };
        }
        let mut hidden = Vec::new();
        for row in self
            .client
            .query(
                "SELECT turn, color, move, nonce FROM hidden_moves WHERE game_id = $1",
                &[&id],
            )
            .await?
        {
            let color: String = row.get(1);
            hidden.push(Hidden {
                turn: turn_of(row.get(0))?,
                color: color_of(&color)?,
                mv: row.get(2),
                nonce: row.get(3),
            });
        }
        Ok(Some(StoredGame {
            events,
            seats,
            hidden,
        }))
    }

    async fn ids(
        &self,
        sql: &str,
        params: &[&(dyn tokio_postgres::types::ToSql + Sync)],
    ) -> Result<Vec<String>, StoreError> {
        Ok(self
            .client
            .query(sql, params)
            .await?
            .iter()
            .map(|row| row.get(0))
            .collect())
    }

    pub(super) async fn unfinished(&self) -> Result<Vec<String>, StoreError> {
        self.ids(
            "SELECT id FROM games WHERE status != 'finished' ORDER BY created_ms",
            &[],
        )
        .await
    }

    pub(super) async fn waiting_since_before(
        &self,
        created_ms: i64,
    ) -> Result<Vec<String>, StoreError> {
        self.ids(
            "SELECT id FROM games WHERE status = 'waiting' AND created_ms < $1 ORDER BY created_ms",
            &[&created_ms],
        )
        .await
    }

    pub(super) async fn list(
        &self,
        finished: bool,
        limit: u32,
    ) -> Result<Vec<Listing>, StoreError> {
        let sql = if finished {
            "SELECT id, variant, white, black, status, result, turn FROM games
             WHERE status = 'finished' AND public ORDER BY created_ms DESC LIMIT $1"
        } else {
            "SELECT id, variant, white, black, status, result, turn FROM games
             WHERE status != 'finished' AND public ORDER BY created_ms DESC LIMIT $1"
        };
        let mut out = Vec::new();
        for row in self.client.query(sql, &[&i64::from(limit)]).await? {
            let id: String = row.get(0);
            let seat = |text: String| {
                serde_json::from_str::<Seat>(&text)
                    .map_err(|e| StoreError::Corrupt(format!("game {id} seat: {e}")))
            };
            out.push(Listing {
                white: seat(row.get(2))?,
                black: seat(row.get(3))?,
                variant: row.get(1),
                status: row.get(4),
                result: row.get(5),
                turn: turn_of(row.get(6))?,
                id,
            });
        }
        Ok(out)
    }

    pub(super) async fn ping(&self) -> Result<(), StoreError> {
        self.client.query_one("SELECT 1", &[]).await?;
        Ok(())
    }

    pub(super) async fn last_alive(&self) -> Result<Option<i64>, StoreError> {
        let beat = self
            .client
            .query_opt("SELECT at_ms FROM heartbeat WHERE id = 1", &[])
            .await?;
        match beat {
            Some(row) => Ok(Some(row.get(0))),
            None => Ok(self
                .client
                .query_one("SELECT MAX(at_ms) FROM events", &[])
                .await?
                .get(0)),
        }
    }

    pub(super) async fn downtimes(&self) -> Result<Vec<Downtime>, StoreError> {
        Ok(self
            .client
            .query("SELECT from_ms, to_ms FROM downtimes ORDER BY from_ms", &[])
            .await?
            .iter()
            .map(downtime_of)
            .collect())
    }

    pub(super) async fn token_known(&self, token_hash: &str) -> Result<bool, StoreError> {
        Ok(self
            .client
            .query_opt(
                "SELECT 1 FROM seats WHERE token_sha256 = $1 LIMIT 1",
                &[&token_hash],
            )
            .await?
            .is_some())
    }

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

const USER_COLUMNS: &str = "users.id, users.name, users.password_hash, users.bot, users.created_ms";
const USER_COLUMN_COUNT: usize = 5;
const SESSION_COLUMNS: &str =
    "sessions.token_sha256, sessions.created_ms, sessions.seen_ms, sessions.agent";

/// A session's columns, from column `first` on.
fn session_row(row: &tokio_postgres::Row, first: usize) -> SessionRow {
    SessionRow {
        hash: row.get(first),
        created_ms: row.get(first + 1),
        seen_ms: row.get(first + 2),
        agent: row.get(first + 3),
    }
}

fn user_row(row: &tokio_postgres::Row) -> UserRow {
    UserRow {
        id: row.get(0),
        name: row.get(1),
        password_hash: row.get(2),
        bot: row.get(3),
        created_ms: row.get(4),
    }
}

/// Players, ratings, chat and sessions.
impl Reader {
    pub(super) async fn players(&self, game: &str) -> Result<GamePlayers, StoreError> {
        let (rated, created_ms) = self
            .client
            .query_opt(
                "SELECT rated, created_ms FROM games WHERE id = $1",
                &[&game],
            )
            .await?
            .map_or((false, 0), |r| (r.get(0), r.get(1)));
        let mut players = GamePlayers {
            rated,
            created_ms,
            ..GamePlayers::default()
        };
        let sql = format!(
            "SELECT {USER_COLUMNS}, players.rating, players.provisional, players.color
             FROM players JOIN users ON users.id = players.user_id WHERE players.game_id = $1"
        );
        for r in self.client.query(&sql, &[&game]).await? {
            let row = PlayerRow {
                user: user_row(&r),
                rating: r.get(5),
                provisional: r.get(6),
            };
            match color_of(r.get(7))? {
                Color::White => players.white = Some(row),
                Color::Black => players.black = Some(row),
            }
        }
        Ok(players)
    }

    pub(super) async fn user_games(
        &self,
        user_id: &str,
        unfinished_only: bool,
        limit: u32,
        before: Option<(i64, String)>,
    ) -> Result<Vec<UserGame>, StoreError> {
        let (before_ms, before_id) = before.unzip();
        let rows = self
            .client
            .query(
                "SELECT games.id, games.variant, players.color, games.created_ms, games.status,
                        games.result, games.rated,
                        (SELECT users.name FROM players AS o JOIN users ON users.id = o.user_id
                         WHERE o.game_id = games.id AND o.color <> players.color)
                 FROM players JOIN games ON games.id = players.game_id
                 WHERE players.user_id = $1 AND (NOT $2 OR games.status <> 'finished')
                   AND ($4::BIGINT IS NULL OR (games.created_ms, games.id) < ($4, $5::TEXT))
                 ORDER BY games.created_ms DESC, games.id DESC LIMIT $3",
                &[
                    &user_id,
                    &unfinished_only,
                    &i64::from(limit),
                    &before_ms,
                    &before_id,
                ],
            )
            .await?;
        rows.iter()
            .map(|r| {
                Ok(UserGame {
                    id: r.get(0),
                    variant: r.get(1),
                    color: color_of(r.get(2))?,
                    created_ms: r.get(3),
                    status: r.get(4),
                    result: r.get(5),
                    rated: r.get(6),
                    opponent: r.get(7),
                })
            })
            .collect()
    }

    pub(super) async fn ratings(&self, user_id: &str) -> Result<Vec<(String, Rating)>, StoreError> {
        let rows = self
            .client
            .query(
                "SELECT variant, rating, deviation, volatility, games FROM ratings
                 WHERE user_id = $1 ORDER BY variant",
                &[&user_id],
            )
            .await?;
        Ok(rows
            .iter()
            .map(|r| {
                let games: i32 = r.get(4);
                (
                    r.get(0),
                    Rating {
                        rating: r.get(1),
                        deviation: r.get(2),
                        volatility: r.get(3),
                        games: games.max(0) as u32,
                    },
                )
            })
            .collect())
    }

    pub(super) async fn rating_history(
        &self,
        user_id: &str,
    ) -> Result<Vec<RatingPoint>, StoreError> {
        let rows = self
            .client
            .query(
                "SELECT variant, game_id, at_ms, rating, deviation FROM rating_history
                 WHERE user_id = $1 ORDER BY at_ms, game_id",
                &[&user_id],
            )
            .await?;
        Ok(rows
            .iter()
            .map(|r| RatingPoint {
                variant: r.get(0),
                game: r.get(1),
                at_ms: r.get(2),
                rating: r.get(3),
                deviation: r.get(4),
            })
            .collect())
    }

    pub(super) async fn chat(&self, game: &str) -> Result<Vec<ChatLine>, StoreError> {
        let rows = self
            .client
            .query(
                "SELECT at_ms, author, room, text FROM chat WHERE game_id = $1 ORDER BY id",
                &[&game],
            )
            .await?;
        Ok(rows
            .iter()
            .map(|r| ChatLine {
                at_ms: r.get(0),
                author: r.get(1),
                room: r.get(2),
                text: r.get(3),
            })
            .collect())
    }

    pub(super) async fn rated_games_between(
        &self,
        a: &str,
        b: &str,
        since_ms: i64,
    ) -> Result<u32, StoreError> {
        let row = self
            .client
            .query_one(
                "SELECT COUNT(*) FROM games
                 JOIN players AS one ON one.game_id = games.id
                 JOIN players AS other ON other.game_id = games.id
                 WHERE games.rated AND games.created_ms >= $3
                   AND one.user_id = $1 AND other.user_id = $2 AND one.color <> other.color",
                &[&a, &b, &since_ms],
            )
            .await?;
        Ok(u32::try_from(row.get::<_, i64>(0)).unwrap_or(u32::MAX))
    }

    pub(super) async fn session(
        &self,
        token_hash: &str,
    ) -> Result<Option<(UserRow, SessionRow)>, StoreError> {
        let sql = format!(
            "SELECT {USER_COLUMNS}, {SESSION_COLUMNS} FROM sessions
             JOIN users ON users.id = sessions.user_id WHERE sessions.token_sha256 = $1"
        );
        Ok(self
            .client
            .query_opt(&sql, &[&token_hash])
            .await?
            .map(|r| (user_row(&r), session_row(&r, USER_COLUMN_COUNT))))
    }

    pub(super) async fn sessions_of(&self, user_id: &str) -> Result<Vec<SessionRow>, StoreError> {
        let sql = format!(
            "SELECT {SESSION_COLUMNS} FROM sessions WHERE user_id = $1
             ORDER BY seen_ms DESC, token_sha256"
        );
        let rows = self.client.query(&sql, &[&user_id]).await?;
        Ok(rows.iter().map(|r| session_row(r, 0)).collect())
    }
}

/// Accounts: users and their API tokens.
impl Reader {
    pub(super) async fn user_ids(&self) -> Result<Vec<String>, StoreError> {
        let rows = self.client.query("SELECT id FROM users", &[]).await?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }

    pub(super) async fn user(&self, id: &str) -> Result<Option<UserRow>, StoreError> {
        let sql = format!("SELECT {USER_COLUMNS} FROM users WHERE id = $1");
        Ok(self
            .client
            .query_opt(&sql, &[&id])
            .await?
            .as_ref()
            .map(user_row))
    }

    pub(super) async fn api_token(
        &self,
        token_hash: &str,
    ) -> Result<Option<(UserRow, String)>, StoreError> {
        let sql = format!(
            "SELECT {USER_COLUMNS}, api_tokens.scopes FROM api_tokens
             JOIN users ON users.id = api_tokens.user_id
             WHERE api_tokens.token_sha256 = $1 AND NOT api_tokens.revoked"
        );
        Ok(self
            .client
            .query_opt(&sql, &[&token_hash])
            .await?
            .map(|row| (user_row(&row), row.get(5))))
    }

    pub(super) async fn api_tokens_of(
        &self,
        user_id: &str,
    ) -> Result<Vec<ApiTokenRow>, StoreError> {
        let rows = self
            .client
            .query(
                "SELECT token_sha256, scopes, created_ms FROM api_tokens
                 WHERE user_id = $1 AND NOT revoked ORDER BY created_ms, token_sha256",
                &[&user_id],
            )
            .await?;
        Ok(rows
            .iter()
            .map(|r| ApiTokenRow {
                hash: r.get(0),
                scopes: r.get(1),
                created_ms: r.get(2),
            })
            .collect())
    }
}

impl ToSql for lobby::Value {
    fn to_sql(
        &self,
        ty: &tokio_postgres::types::Type,
        out: &mut bytes::BytesMut,
    ) -> Result<tokio_postgres::types::IsNull, Box<dyn std::error::Error + Sync + Send>> {
        match self {
            lobby::Value::Text(v) => v.to_sql_checked(ty, out),
            lobby::Value::MaybeText(v) => v.to_sql_checked(ty, out),
            lobby::Value::Int(v) => v.to_sql_checked(ty, out),
            lobby::Value::MaybeInt(v) => v.to_sql_checked(ty, out),
            lobby::Value::Flag(v) => v.to_sql_checked(ty, out),
        }
    }

    // Each value checks its own type in `to_sql`.
    fn accepts(_: &tokio_postgres::types::Type) -> bool {
        true
    }

    tokio_postgres::types::to_sql_checked!();
}

impl Columns for tokio_postgres::Row {
    fn text(&self, i: usize) -> Result<String, StoreError> {
        Ok(self.try_get(i)?)
    }
    fn maybe_text(&self, i: usize) -> Result<Option<String>, StoreError> {
        Ok(self.try_get(i)?)
    }
    fn int(&self, i: usize) -> Result<i64, StoreError> {
        Ok(self.try_get(i)?)
    }
    fn maybe_int(&self, i: usize) -> Result<Option<i64>, StoreError> {
        Ok(self.try_get(i)?)
    }
    fn flag(&self, i: usize) -> Result<bool, StoreError> {
        Ok(self.try_get(i)?)
    }
}

/// The lobby (`lobby.rs` holds the statements).
impl Reader {
    async fn lobby_rows<T>(
        &self,
        sql: &str,
        params: &[lobby::Value],
        row: fn(&tokio_postgres::Row) -> Result<T, StoreError>,
    ) -> Result<Vec<T>, StoreError> {
        let params: Vec<&(dyn ToSql + Sync)> =
            params.iter().map(|p| p as &(dyn ToSql + Sync)).collect();
        self.client.query(sql, &params).await?.iter().map(row).collect()
    }

    pub(super) async fn open_seeks(&self, now_ms: i64) -> Result<Vec<SeekRow>, StoreError> {
        self.lobby_rows(lobby::OPEN_SEEKS, &[lobby::Value::Int(now_ms)], lobby::seek_row)
            .await
    }

    pub(super) async fn challenge(&self, id: &str) -> Result<Option<ChallengeRow>, StoreError> {
        let params = [lobby::Value::Text(id.to_string())];
        Ok(self
            .lobby_rows(&lobby::challenge_by_id(), &params, lobby::challenge_row)
            .await?
            .pop())
    }

    pub(super) async fn open_challenges_of(
        &self,
        user_id: &str,
        now_ms: i64,
    ) -> Result<Vec<ChallengeRow>, StoreError> {
        let params = [lobby::Value::Text(user_id.to_string()), lobby::Value::Int(now_ms)];
        self.lobby_rows(&lobby::open_challenges_of(), &params, lobby::challenge_row)
            .await
    }

    pub(super) async fn expired_challenges(
        &self,
        now_ms: i64,
    ) -> Result<Vec<ChallengeRow>, StoreError> {
        let params = [lobby::Value::Int(now_ms)];
        self.lobby_rows(&lobby::expired_challenges(), &params, lobby::challenge_row)
            .await
    }
}
