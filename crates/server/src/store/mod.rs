//! Storage: the append-only event log of every game, a games table for
//! listing, the seats' token hashes and the hidden moves, in SQLite
//! (embedded, the default: `--db FILE`) or PostgreSQL (`--db
//! postgres://...`). Both have the same tables and the same writer.
//!
//! One writer owns the writing connection. It takes every job that is
//! waiting, writes them all in one transaction (group commit: one flush
//! for many events), each job under its own savepoint so that a failing
//! job is rolled back alone, and only after the commit tells each job's
//! sender. Reads use another connection.

mod accounts;
pub mod backup;
pub(crate) mod cluster;
mod games;
pub mod lobby;
pub(crate) mod postgres;
pub(crate) mod postgres_tls;
mod sql;
mod sqlite;
pub mod tournaments;

pub use accounts::NotificationRow;
pub use postgres::ensure_database as ensure_postgres_database;
pub use postgres_tls::check_url as check_postgres_url;

impl From<StoreError> for crate::base::refusal::Refusal {
    fn from(e: StoreError) -> Self {
        use crate::base::refusal::{Refusal, Said};
        if let StoreError::Gone(what) = e {
            return Refusal::NotFound(what.into());
        }
        tracing::error!("{e}");
        Refusal::Internal(Said::new("server-refusal-storage-failed").with("e", &e))
    }
}

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use parity_rules::Color;
use tokio::sync::{mpsc, oneshot};

use crate::base::metrics;
use crate::base::ratings::Rating;
use crate::game::clock::Downtime;
use crate::game::event::{Event, Seat};
use crate::game::state::{Hidden, Summary};
use sql::{Row, Session, Value};

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("database: {0}")]
    Sqlite(#[from] rusqlite::Error),
    #[error("database: {}", with_causes(.0))]
    Postgres(#[from] tokio_postgres::Error),
    #[error("stored data: {0}")]
    Corrupt(String),
    /// A lobby row another request took or answered first.
    #[error("gone: {0}")]
    Gone(String),
    /// A database URL or its TLS settings that cannot be used.
    #[error("database settings: {0}")]
    Config(String),
    #[error("the database writer has stopped")]
    WriterGone,
}

/// An error and its causes, for tokio-postgres whose own text is only
/// "db error" or "error performing TLS handshake".
fn with_causes(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut cause = error.source();
    while let Some(e) = cause {
        text = format!("{text}: {e}");
        cause = e.source();
    }
    text
}

/// Where the games are kept.
#[derive(Clone, PartialEq, Eq)]
pub enum Database {
    /// A SQLite file (created if missing).
    Sqlite(PathBuf),
    /// A PostgreSQL connection URL (`postgres://USER@HOST/DB`); the
    /// database must exist, its tables are created if missing.
    Postgres(String),
}

impl Database {
    /// A `postgres://` or `postgresql://` URL, else a SQLite file's path.
    pub fn parse(text: &str) -> Database {
        if text.starts_with("postgres://") || text.starts_with("postgresql://") {
            Database::Postgres(text.to_string())
        } else {
            Database::Sqlite(PathBuf::from(text))
        }
    }
}

impl From<&Path> for Database {
    fn from(path: &Path) -> Database {
        Database::Sqlite(path.to_path_buf())
    }
}

impl From<&PathBuf> for Database {
    fn from(path: &PathBuf) -> Database {
        Database::Sqlite(path.clone())
    }
}

impl From<PathBuf> for Database {
    fn from(path: PathBuf) -> Database {
        Database::Sqlite(path)
    }
}

/// The path or the URL, without a password.
impl fmt::Display for Database {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Database::Sqlite(path) => write!(f, "{}", path.display()),
            Database::Postgres(url) => match (url.find("://"), url.rfind('@')) {
                (Some(scheme), Some(at)) if at > scheme => {
                    let user = &url[scheme + 3..at];
                    let user = user.split_once(':').map_or(user, |(u, _)| u);
                    write!(f, "{}{user}{}", &url[..scheme + 3], &url[at..])
                }
                _ => write!(f, "{url}"),
            },
        }
    }
}

impl fmt::Debug for Database {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Database({self})")
    }
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
        /// The move this event's side keeps hidden until the turn
        /// resolves (a first reveal, an engine's commitment): stored
        /// beside the event, never sent with it.
        hidden: Option<Hidden>,
    },
    Summary {
        game: String,
        summary: Summary,
    },
    /// The server is alive at this time (ms since the Unix epoch).
    Heartbeat {
        at_ms: i64,
    },
    Downtime(Downtime),
    /// Users and their API tokens (`crate::accounts`).
    Account(AccountChange),
    /// Open seeks and challenges (`lobby.rs`).
    Lobby(lobby::LobbyChange),
    /// Tournaments and teams (`tournaments.rs`).
    Tournament(tournaments::TournamentChange),
    /// A seat held by an account, with its rating in the game's variant
    /// when the game began.
    Player {
        game: String,
        color: Color,
        user_id: String,
        rating: Option<i64>,
        provisional: bool,
    },
    /// The game counts for the ratings of its two players: the summary
    /// that finishes it updates them in its transaction.
    Rated {
        game: String,
    },
    /// A chat line of a game (`room` is lichess's `player` or `spectator`).
    Chat {
        game: String,
        line: ChatLine,
    },
    /// A key of the server's kept in the database (the VAPID key of Web
    /// Push); the first one written stays.
    ServerKey {
        name: String,
        value: String,
    },
    /// A finished game's computer analysis, as JSON.
    Analysis {
        game: String,
        at_ms: i64,
        body: String,
    },
}

/// A change to the accounts' tables.
#[derive(Clone, Debug)]
pub enum AccountChange {
    NewUser {
        /// The name in lowercase: names are unique whatever their case.
        id: String,
        name: String,
        /// An argon2id PHC string; none for an account that cannot log in (a bot).
        password_hash: Option<String>,
        bot: bool,
        created_ms: i64,
    },
    NewApiToken {
        token_hash: String,
        user_id: String,
        /// Comma-separated, as lichess writes them.
        scopes: String,
        created_ms: i64,
    },
    RevokeApiToken {
        token_hash: String,
    },
    /// A log-in: the session cookie's token, stored hashed, and the
    /// browser's `User-Agent` (clipped) to tell sessions apart.
    NewSession {
        token_hash: String,
        user_id: String,
        created_ms: i64,
        agent: String,
    },
    /// A session was used at `seen_ms` (written at most hourly).
    SeenSession {
        token_hash: String,
        seen_ms: i64,
    },
    /// A log-out.
    EndSession {
        token_hash: String,
    },
    /// An account's page preferences (`crate::accounts::preferences`), as JSON.
    SetPreferences {
        user_id: String,
        body: String,
    },
    /// A notification for the page's bell; `id` names its event, so the
    /// same event is kept once.
    Notify(NotificationRow),
    /// Every notification of the account read.
    ReadNotifications {
        user_id: String,
    },
    /// A browser's push subscription for the account (replacing any of
    /// the same endpoint).
    AddPushSubscription {
        user_id: String,
        subscription: crate::base::push::Subscription,
        created_ms: i64,
    },
    RemovePushSubscription {
        endpoint: String,
    },
    /// A due game's new ratings (`crate::accounts::glicko`).
    Rate(GameRatings),
    /// A due game that changes no rating (not between two accounts, or
    /// without a win or a draw).
    NotRated {
        game: String,
    },
}

/// A finished game's ratings, computed from [`RatingInputs`].
#[derive(Clone, Debug, PartialEq)]
pub struct GameRatings {
    pub game: String,
    pub variant: String,
    pub at_ms: i64,
    /// White's, then Black's.
    pub sides: [RatedSide; 2],
}

/// One player's new rating, and the count of rated games it was read
/// with: written only if no other game changed it since.
#[derive(Clone, Debug, PartialEq)]
pub struct RatedSide {
    pub user_id: String,
    pub games_before: u32,
    pub after: Rating,
}

/// What a due game's ratings are computed from.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingInputs {
    pub variant: String,
    pub result: Option<String>,
    /// White's and Black's account and rating, where the seat is an account's.
    pub players: [Option<(String, Rating)>; 2],
}

/// A chat line as stored and shown.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ChatLine {
    pub at_ms: i64,
    /// The writer's user name, or `White`/`Black` for an anonymous seat.
    pub author: String,
    pub room: String,
    pub text: String,
}

/// An account's seat in a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerRow {
    pub user: UserRow,
    /// The rating in the game's variant when it began (lichess's `rating`).
    pub rating: Option<i64>,
    pub provisional: bool,
    /// What the game changed the rating by, once a rated game is rated
    /// (lichess's `ratingDiff`).
    pub rating_diff: Option<i64>,
}

/// A game's players that are accounts, and whether it is rated.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GamePlayers {
    pub rated: bool,
    /// When the game was made (ms since the Unix epoch); 0 for no such game.
    pub created_ms: i64,
    pub white: Option<PlayerRow>,
    pub black: Option<PlayerRow>,
}

impl GamePlayers {
    pub fn of(&self, color: Color) -> Option<&PlayerRow> {
        match color {
            Color::White => self.white.as_ref(),
            Color::Black => self.black.as_ref(),
        }
    }
}

/// A game of an account, newest first in lists.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UserGame {
    pub id: String,
    pub variant: String,
    pub color: Color,
    pub created_ms: i64,
    pub status: String,
    pub result: Option<String>,
    pub rated: bool,
    /// The opponent's user name, when the opponent is an account.
    pub opponent: Option<String>,
}

/// One point of a rating graph: the rating after a rated game.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct RatingPoint {
    pub variant: String,
    pub game: String,
    pub at_ms: i64,
    pub rating: f64,
    pub deviation: f64,
}

/// A personal API token as its owner's list shows it: never the token.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct ApiTokenRow {
    /// The SHA-256 of the token, which names it to revoke it.
    pub hash: String,
    pub scopes: String,
    pub created_ms: i64,
}

/// A log-in session as its owner's list shows it: never the token.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct SessionRow {
    /// The SHA-256 of the cookie's token, which names it to end it.
    pub hash: String,
    pub created_ms: i64,
    /// When it was last used, to the hour.
    pub seen_ms: i64,
    pub agent: String,
}

/// A user as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UserRow {
    pub id: String,
    pub name: String,
    pub password_hash: Option<String>,
    pub bot: bool,
    pub created_ms: i64,
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

/// Changes to write together, and who waits for them.
struct Job {
    changes: Vec<Change>,
    done: oneshot::Sender<Result<(), String>>,
}

/// The jobs for the writer, taken a batch at a time.
struct Queue {
    jobs: mpsc::UnboundedReceiver<Job>,
    grouping: Grouping,
    /// Jobs in the last batch.
    last: usize,
}

impl Queue {
    /// The next batch, waiting for its first job on this thread (SQLite's
    /// writer); none once every writer handle is gone.
    fn blocking_batch(&mut self) -> Option<Vec<Job>> {
        let first = self.jobs.blocking_recv()?;
        if let Some(wait) = self.grouping.wait_after(self.last) {
            std::thread::sleep(wait);
        }
        Some(self.batch_after(first))
    }

    /// The next batch, waiting for its first job as a task (PostgreSQL's).
    async fn batch(&mut self) -> Option<Vec<Job>> {
        let first = self.jobs.recv().await?;
        if let Some(wait) = self.grouping.wait_after(self.last) {
            tokio::time::sleep(wait).await;
        }
        Some(self.batch_after(first))
    }

    /// `first` and every job waiting behind it, up to [`MAX_BATCH`].
    fn batch_after(&mut self, first: Job) -> Vec<Job> {
        let mut batch = vec![first];
        while batch.len() < MAX_BATCH {
            match self.jobs.try_recv() {
                Ok(job) => batch.push(job),
                Err(_) => break,
            }
        }
        self.last = batch.len();
        batch
    }
}

/// Jobs at most in one transaction, so one commit never waits too long.
const MAX_BATCH: usize = 1024;

/// How the writer groups jobs into commits. Each commit is flushed to disk
/// once, and on a busy server that flush and the pages it writes are most
/// of the CPU a move costs, so there the writer waits `delay` for more jobs
/// before it writes (PostgreSQL's `commit_delay` and `commit_siblings`).
/// A commit of one job means the server is not busy: the next is written
/// at once.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Grouping {
    pub delay: Duration,
}

impl Grouping {
    /// The default of `parity serve --commit-delay-us`.
    pub const SERVE_DEFAULT: Duration = Duration::from_millis(2);

    /// How long to wait for company, after a commit of `last` jobs.
    fn wait_after(&self, last: usize) -> Option<Duration> {
        (last >= 2 && !self.delay.is_zero()).then_some(self.delay)
    }
}

/// Tells each job of `batch` how it went.
fn answer(batch: Vec<Job>, results: Vec<Result<(), String>>) {
    for (job, result) in batch.into_iter().zip(results) {
        let _ = job.done.send(result);
    }
}

/// The handle to the writer; cheap to clone.
#[derive(Clone)]
pub struct Writer {
    jobs: mpsc::UnboundedSender<Job>,
}

impl Writer {
    /// Writes the changes in one transaction shared with other jobs;
    /// returns once it is durable, or with the reason it is not (then
    /// nothing of it is written).
    pub async fn write(&self, changes: Vec<Change>) -> Result<(), StoreError> {
        let (done, wait) = oneshot::channel();
        let started = Instant::now();
        self.jobs
            .send(Job { changes, done })
            .map_err(|_| StoreError::WriterGone)?;
        match wait.await {
            Ok(Ok(())) => {
                metrics::commit_latency(started.elapsed());
                Ok(())
            }
            // A job's error crosses the writer as text; `Gone` is told apart.
            Ok(Err(message)) => Err(match message.strip_prefix("gone: ") {
                Some(what) => StoreError::Gone(what.to_string()),
                None => StoreError::Corrupt(message),
            }),
            Err(_) => Err(StoreError::WriterGone),
        }
    }
}

/// Writes one change in the writer's transaction `tx`.
async fn write_change(tx: &impl Session, change: &Change) -> Result<(), StoreError> {
    let statements = match change {
        Change::Account(change) => accounts::statements(change),
        Change::Lobby(change) => lobby::statements(change),
        Change::Tournament(change) => tournaments::statements(change),
        other => games::statements(other)?,
    };
    for statement in &statements {
        tx.run(statement).await?;
    }
    Ok(())
}

/// Reading side of the database; its queries are in `games.rs`,
/// `accounts.rs` and `lobby.rs`.
pub struct Store {
    reader: Reader,
}

/// The reading connection of either database.
enum Reader {
    Sqlite(sqlite::Reader),
    Postgres(postgres::Reader),
}

impl Session for Reader {
    async fn execute(&self, sql: &str, params: &[Value]) -> Result<u64, StoreError> {
        match self {
            Reader::Sqlite(r) => r.execute(sql, params).await,
            Reader::Postgres(r) => r.execute(sql, params).await,
        }
    }

    async fn query(&self, sql: &str, params: &[Value]) -> Result<Vec<Row>, StoreError> {
        match self {
            Reader::Sqlite(r) => r.query(sql, params).await,
            Reader::Postgres(r) => r.query(sql, params).await,
        }
    }
}

impl Store {
    /// Opens (creating or bringing the schema up to date if needed) the
    /// database and starts its writer.
    pub async fn open(db: &Database) -> Result<(Arc<Store>, Writer), StoreError> {
        Self::open_grouped(db, Grouping::default()).await
    }

    /// [`Store::open`], with the writer grouping jobs as `grouping` says.
    pub async fn open_grouped(
        db: &Database,
        grouping: Grouping,
    ) -> Result<(Arc<Store>, Writer), StoreError> {
        let (jobs, queue) = mpsc::unbounded_channel();
        let queue = Queue {
            jobs: queue,
            grouping,
            last: 0,
        };
        let reader = match db {
            Database::Sqlite(path) => {
                let path = path.clone();
                let reader = tokio::task::spawn_blocking(move || sqlite::open(&path, queue))
                    .await
                    .map_err(|e| StoreError::Corrupt(format!("opening the database: {e}")))??;
                Reader::Sqlite(reader)
            }
            Database::Postgres(url) => Reader::Postgres(postgres::open(url, queue).await?),
        };
        Ok((Arc::new(Store { reader }), Writer { jobs }))
    }

    /// The seed of the key that signs records, when the database keeps it
    /// (PostgreSQL: every server on the database signs with one key, made
    /// by the first with `fresh`); none when it is kept in a file beside
    /// the database (SQLite).
    pub async fn signing_seed(&self, fresh: [u8; 32]) -> Result<Option<[u8; 32]>, StoreError> {
        match &self.reader {
            Reader::Sqlite(_) => Ok(None),
            Reader::Postgres(p) => p.signing_seed(fresh).await.map(Some),
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::game::event::EventBody;
    use crate::game::state::Status;

    /// A fresh PostgreSQL database for a test, when `PARITY_TEST_POSTGRES`
    /// names a server (a URL whose database may be created in).
    pub(crate) async fn fresh_postgres() -> Option<Database> {
        let base = std::env::var("PARITY_TEST_POSTGRES").ok()?;
        Some(
            postgres::ensure_database(&base, &format!("unit_{:016x}", rand::random::<u64>()))
                .await
                .expect("a test database"),
        )
    }

    fn empty_job() -> Job {
        let (done, _) = oneshot::channel();
        Job {
            changes: Vec::new(),
            done,
        }
    }

    /// A job sent `after` from now, from another thread.
    fn job_later(
        jobs: &mpsc::UnboundedSender<Job>,
        after: Duration,
    ) -> std::thread::JoinHandle<()> {
        let jobs = jobs.clone();
        std::thread::spawn(move || {
            std::thread::sleep(after);
            jobs.send(empty_job()).unwrap();
        })
    }

    /// Checks how `take` (a way to wait for the next batch) groups jobs.
    fn groups_when_busy(take: &mut dyn FnMut(&mut Queue) -> usize) {
        let (jobs, receiver) = mpsc::unbounded_channel();
        let delay = Duration::from_secs(1);
        let mut queue = Queue {
            jobs: receiver,
            grouping: Grouping { delay },
            last: 0,
        };
        // Idle: the first job is written alone, before the next comes.
        jobs.send(empty_job()).unwrap();
        let late = job_later(&jobs, Duration::from_millis(500));
        assert_eq!(take(&mut queue), 1);
        late.join().unwrap();
        assert_eq!(take(&mut queue), 1);
        // Two jobs waiting: a busy server, so the next commit waits for company.
        jobs.send(empty_job()).unwrap();
        jobs.send(empty_job()).unwrap();
        assert_eq!(take(&mut queue), 2);
        jobs.send(empty_job()).unwrap();
        let late = job_later(&jobs, Duration::from_millis(50));
        assert_eq!(take(&mut queue), 2, "the job sent meanwhile");
        late.join().unwrap();
        // No delay: never waits.
        queue.grouping = Grouping::default();
        jobs.send(empty_job()).unwrap();
        jobs.send(empty_job()).unwrap();
        assert_eq!(take(&mut queue), 2);
        jobs.send(empty_job()).unwrap();
        let late = job_later(&jobs, Duration::from_millis(500));
        assert_eq!(take(&mut queue), 1);
        late.join().unwrap();
    }

    #[test]
    fn a_busy_writer_waits_for_more_jobs_and_an_idle_one_does_not() {
        // SQLite's writer thread.
        groups_when_busy(&mut |q| q.blocking_batch().unwrap().len());
        // PostgreSQL's writer task.
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
            .unwrap();
        groups_when_busy(&mut |q| runtime.block_on(q.batch()).unwrap().len());
    }

    fn event(seq: u64, body: EventBody) -> Change {
        Change::Event {
            game: "g000000001".into(),
            event: Event { body, seq, at: 7 },
            hidden: None,
        }
    }

    async fn writes_are_durable_and_read_back_and_a_bad_job_fails_alone(db: Database) {
        {
            let (store, writer) = Store::open(&db).await.unwrap();
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
                        color: crate::game::event::Side::White,
                    },
                ),
                event(
                    1,
                    EventBody::Joined {
                        color: crate::game::event::Side::Black,
                    },
                ),
            ];
            let (a, b) = tokio::join!(writer.write(first), writer.write(again));
            a.unwrap();
            assert!(b.is_err());
            writer
                .write(vec![
                    Change::Summary {
                        game: "g000000001".into(),
                        summary: Summary {
                            status: Status::Started,
                            result: None,
                            reason: None,
                            turn: 3,
                            both_moved: true,
                        },
                    },
                    Change::Event {
                        game: "g000000001".into(),
                        event: Event {
                            body: EventBody::Revealed {
                                color: crate::game::event::Side::Black,
                                turn: 3,
                                clocks: None,
                            },
                            seq: 2,
                            at: 8,
                        },
                        hidden: Some(Hidden {
                            turn: 3,
                            color: Color::Black,
                            mv: "e7e5".into(),
                            nonce: "n".into(),
                        }),
                    },
                    Change::Heartbeat { at_ms: 40 },
                    Change::Heartbeat { at_ms: 50 },
                    Change::Downtime(Downtime {
                        from_ms: 10,
                        to_ms: 20,
                    }),
                ])
                .await
                .unwrap();
            assert!(store.token_known("abc").await.unwrap());
            assert!(!store.token_known("abd").await.unwrap());
        }
        // A new process sees what was acknowledged.
        let (store, _writer) = Store::open(&db).await.unwrap();
        let game = store.load("g000000001").await.unwrap().unwrap();
        assert_eq!(game.events.len(), 2);
        assert_eq!(game.events[0].body.kind(), "created");
        // The hidden move is read back beside its event, not inside it.
        assert_eq!(game.events[1].body.kind(), "revealed");
        assert_eq!(game.seats[0].token_hash.as_deref(), Some("abc"));
        assert_eq!(
            game.hidden,
            vec![Hidden {
                turn: 3,
                color: Color::Black,
                mv: "e7e5".into(),
                nonce: "n".into(),
            }]
        );
        assert!(store.load("nope").await.unwrap().is_none());
        assert_eq!(
            store.unfinished().await.unwrap(),
            vec!["g000000001".to_string()]
        );
        assert!(store.waiting_since_before(100).await.unwrap().is_empty());
        let live = store.list(false, 10).await.unwrap();
        assert_eq!(live.len(), 1);
        assert_eq!(live[0].turn, 3);
        assert_eq!(live[0].status, "started");
        assert_eq!(live[0].black, Seat::Engine { level: 1 });
        assert!(store.list(true, 10).await.unwrap().is_empty());
        assert_eq!(store.last_alive().await.unwrap(), Some(50));
        assert_eq!(
            store.downtimes().await.unwrap(),
            vec![Downtime {
                from_ms: 10,
                to_ms: 20
            }]
        );
    }

    #[tokio::test]
    async fn sqlite_writes_are_durable_and_a_bad_job_fails_alone() {
        let dir = tempfile::tempdir().unwrap();
        let db = Database::from(dir.path().join("t.sqlite"));
        writes_are_durable_and_read_back_and_a_bad_job_fails_alone(db.clone()).await;
        let (store, _) = Store::open(&db).await.unwrap();
        assert_eq!(store.signing_seed([7; 32]).await.unwrap(), None);
    }

    #[tokio::test]
    async fn postgres_writes_are_durable_and_a_bad_job_fails_alone() {
        let db = fresh_postgres().await.expect(
            "PARITY_TEST_POSTGRES names no PostgreSQL server: scripts/test starts one and sets it",
        );
        writes_are_durable_and_read_back_and_a_bad_job_fails_alone(db.clone()).await;
        let (store, _) = Store::open(&db).await.unwrap();
        assert_eq!(store.signing_seed([7; 32]).await.unwrap(), Some([7; 32]));
        assert_eq!(
            store.signing_seed([8; 32]).await.unwrap(),
            Some([7; 32]),
            "the first key made stays"
        );
    }

    /// Players, ratings (once, after the finishing summary), chat, sessions.
    async fn accounts_players_and_ratings(db: Database) {
        let (store, writer) = Store::open(&db).await.unwrap();
        let user = |id: &str| {
            Change::Account(AccountChange::NewUser {
                id: id.to_lowercase(),
                name: id.into(),
                password_hash: None,
                bot: false,
                created_ms: 1,
            })
        };
        let game = "r000000001".to_string();
        let player = |color, user_id: &str| Change::Player {
            game: game.clone(),
            color,
            user_id: user_id.into(),
            rating: Some(1500),
            provisional: true,
        };
        let summary_of = |status, result: Option<&str>, both_moved| Change::Summary {
            game: game.clone(),
            summary: Summary {
                status,
                result: result.map(str::to_string),
                reason: None,
                turn: 9,
                both_moved,
            },
        };
        let summary = |status, result| summary_of(status, result, true);
        writer
            .write(vec![
                user("Ann"),
                user("Ben"),
                Change::NewGame {
                    id: game.clone(),
                    variant: "chess".into(),
                    created_ms: 77,
                    seats: [Seat::Human, Seat::Human],
                    rematch_of: None,
                    public: Some(false),
                },
                player(Color::White, "ann"),
                player(Color::Black, "ben"),
                Change::Rated { game: game.clone() },
                summary(Status::Started, None),
            ])
            .await
            .unwrap();
        let players = store.players(&game).await.unwrap();
        assert!(players.rated);
        assert_eq!(
            players.of(Color::White).unwrap().rating_diff,
            None,
            "not rated yet"
        );
        assert_eq!(players.created_ms, 77);
        assert_eq!(players.of(Color::Black).unwrap().user.name, "Ben");
        let playing = store.user_games("ann", true, 10, None).await.unwrap();
        assert_eq!(playing.len(), 1);
        assert_eq!(
            (playing[0].color, playing[0].opponent.as_deref()),
            (Color::White, Some("Ben"))
        );
        assert!(
            store.ratings("ann").await.unwrap().is_empty(),
            "no rating before the end"
        );
        // A game won before each side moved (a resignation at once) rates nothing.
        writer
            .write(vec![summary_of(Status::Finished, Some("1-0"), false)])
            .await
            .unwrap();
        assert!(store.ratings_due(10).await.unwrap().is_empty());
        writer
            .write(vec![summary(Status::Finished, Some("1-0"))])
            .await
            .unwrap();
        // The finishing summary marks the game due; the accounts layer rates it.
        assert_eq!(store.ratings_due(10).await.unwrap(), vec![game.clone()]);
        let inputs = store.rating_inputs(&game).await.unwrap().unwrap();
        assert_eq!(
            (inputs.variant.as_str(), inputs.result.as_deref()),
            ("chess", Some("1-0"))
        );
        assert_eq!(inputs.players[0], Some(("ann".into(), Rating::default())));
        // Ratings computed from what was read, then changed by another game,
        // are refused and change nothing.
        let stale = |games_before| {
            Change::Account(AccountChange::Rate(GameRatings {
                game: game.clone(),
                variant: "chess".into(),
                at_ms: 5,
                sides: [("ann", 1600.0), ("ben", 1400.0)].map(|(user, rating)| RatedSide {
                    user_id: user.into(),
                    games_before,
                    after: Rating {
                        rating,
                        games: games_before + 1,
                        ..Rating::default()
                    },
                }),
            }))
        };
        assert!(matches!(
            writer.write(vec![stale(3)]).await,
            Err(StoreError::Gone(_))
        ));
        assert!(store.ratings("ann").await.unwrap().is_empty());
        assert_eq!(store.ratings_due(10).await.unwrap(), vec![game.clone()]);
        crate::accounts::glicko::rate(&store, &writer, &game)
            .await
            .unwrap();
        assert!(store.ratings_due(10).await.unwrap().is_empty());
        // The same ratings again (a second rater) are refused: the game is
        // no longer due.
        assert!(matches!(
            writer.write(vec![stale(0)]).await,
            Err(StoreError::Gone(_))
        ));
        // A second finishing summary (a replay, a retry) rates nothing again.
        writer
            .write(vec![summary(Status::Finished, Some("1-0"))])
            .await
            .unwrap();
        assert!(store.ratings_due(10).await.unwrap().is_empty());
        let ann = store.ratings("ann").await.unwrap();
        let ben = store.ratings("ben").await.unwrap();
        assert_eq!(ann.len(), 1);
        assert_eq!(ann[0].0, "chess");
        assert!(
            ann[0].1.rating > 1500.0 && ben[0].1.rating < 1500.0,
            "{ann:?} {ben:?}"
        );
        assert_eq!((ann[0].1.games, ben[0].1.games), (1, 1));
        let history = store.rating_history("ann").await.unwrap();
        assert_eq!(history.len(), 1);
        assert_eq!(history[0].game, game);
        // The export's `ratingDiff`: what this game changed each rating by.
        let players = store.players(&game).await.unwrap();
        let diff = |c| players.of(c).unwrap().rating_diff.unwrap();
        assert_eq!(diff(Color::White), ann[0].1.shown() - 1500);
        assert_eq!(diff(Color::Black), ben[0].1.shown() - 1500);
        assert!(diff(Color::White) > 0 && diff(Color::Black) < 0);
        assert!(store
            .user_games("ann", true, 10, None)
            .await
            .unwrap()
            .is_empty());
        assert_eq!(
            store
                .user_games("ann", false, 10, None)
                .await
                .unwrap()
                .len(),
            1
        );
        let line = ChatLine {
            at_ms: 5,
            author: "Ann".into(),
            room: "player".into(),
            text: "gg".into(),
        };
        writer
            .write(vec![
                Change::Chat {
                    game: game.clone(),
                    line: line.clone(),
                },
                Change::Account(AccountChange::NewSession {
                    token_hash: "s1".into(),
                    user_id: "ben".into(),
                    created_ms: 6,
                    agent: "Firefox".into(),
                }),
                Change::Account(AccountChange::SeenSession {
                    token_hash: "s1".into(),
                    seen_ms: 9,
                }),
            ])
            .await
            .unwrap();
        assert_eq!(store.chat(&game).await.unwrap(), vec![line]);
        let (user, session) = store.session("s1").await.unwrap().unwrap();
        assert_eq!(user.name, "Ben");
        let expected = SessionRow {
            hash: "s1".into(),
            created_ms: 6,
            seen_ms: 9,
            agent: "Firefox".into(),
        };
        assert_eq!(session, expected);
        assert_eq!(store.sessions_of("ben").await.unwrap(), vec![expected]);
        writer
            .write(vec![Change::Account(AccountChange::EndSession {
                token_hash: "s1".into(),
            })])
            .await
            .unwrap();
        assert!(store.session("s1").await.unwrap().is_none());
        assert_eq!(store.sessions_of("ben").await.unwrap(), vec![]);

        // Notifications: one per event id, the newest 100 kept.
        let notice = |n: i64| {
            Change::Account(AccountChange::Notify(NotificationRow {
                id: format!("event{n}:ben"),
                user_id: "ben".into(),
                at_ms: n,
                kind: "yourTurn".into(),
                text: format!("turn {n}"),
                url: "/game/x".into(),
                seen: false,
            }))
        };
        writer.write((0..105).map(notice).collect()).await.unwrap();
        writer.write(vec![notice(104)]).await.unwrap();
        let kept = store.notifications("ben", 500).await.unwrap();
        assert_eq!(kept.len(), 100);
        assert_eq!((kept[0].at_ms, kept[99].at_ms), (104, 5));
        writer
            .write(vec![Change::Account(AccountChange::ReadNotifications {
                user_id: "ben".into(),
            })])
            .await
            .unwrap();
        assert!(store
            .notifications("ben", 5)
            .await
            .unwrap()
            .iter()
            .all(|n| n.seen));
    }

    #[tokio::test]
    async fn sqlite_players_ratings_chat_and_sessions() {
        let dir = tempfile::tempdir().unwrap();
        accounts_players_and_ratings(Database::from(dir.path().join("r.sqlite"))).await;
    }

    #[tokio::test]
    async fn postgres_players_ratings_chat_and_sessions() {
        let db = fresh_postgres().await.expect(
            "PARITY_TEST_POSTGRES names no PostgreSQL server: scripts/test starts one and sets it",
        );
        accounts_players_and_ratings(db).await;
    }

    /// Two nodes (two stores on one database) each finish a rated game of
    /// Ann's at once: both games count, whichever wrote first.
    async fn two_nodes_rate_one_players_games_at_once(db: Database) {
        let (a, a_writer) = Store::open(&db).await.unwrap();
        let (b, b_writer) = Store::open(&db).await.unwrap();
        let mut changes = Vec::new();
        for id in ["ann", "ben", "cid"] {
            changes.push(Change::Account(AccountChange::NewUser {
                id: id.into(),
                name: id.into(),
                password_hash: None,
                bot: false,
                created_ms: 1,
            }));
        }
        let games = ["q000000001", "q000000002"];
        for (game, opponent) in games.iter().zip(["ben", "cid"]) {
            changes.push(Change::NewGame {
                id: game.to_string(),
                variant: "chess".into(),
                created_ms: 2,
                seats: [Seat::Human, Seat::Human],
                rematch_of: None,
                public: Some(true),
            });
            for (color, user) in [(Color::White, "ann"), (Color::Black, opponent)] {
                changes.push(Change::Player {
                    game: game.to_string(),
                    color,
                    user_id: user.into(),
                    rating: Some(1500),
                    provisional: true,
                });
            }
            changes.push(Change::Rated {
                game: game.to_string(),
            });
            changes.push(Change::Summary {
                game: game.to_string(),
                summary: Summary {
                    status: Status::Finished,
                    result: Some("1-0".into()),
                    reason: None,
                    turn: 5,
                    both_moved: true,
                },
            });
        }
        a_writer.write(changes).await.unwrap();
        let (x, y) = tokio::join!(
            crate::accounts::glicko::rate(&a, &a_writer, games[0]),
            crate::accounts::glicko::rate(&b, &b_writer, games[1]),
        );
        x.unwrap();
        y.unwrap();
        let ann = a.ratings("ann").await.unwrap();
        assert_eq!(ann[0].1.games, 2, "{ann:?}");
        assert_eq!(a.rating_history("ann").await.unwrap().len(), 2);
        assert!(a.ratings_due(10).await.unwrap().is_empty());
    }

    #[tokio::test]
    async fn sqlite_two_nodes_rate_one_players_games_at_once() {
        let dir = tempfile::tempdir().unwrap();
        two_nodes_rate_one_players_games_at_once(Database::from(dir.path().join("q.sqlite"))).await;
    }

    #[tokio::test]
    async fn postgres_two_nodes_rate_one_players_games_at_once() {
        let db = fresh_postgres().await.expect(
            "PARITY_TEST_POSTGRES names no PostgreSQL server: scripts/test starts one and sets it",
        );
        two_nodes_rate_one_players_games_at_once(db).await;
    }

    #[test]
    fn databases_read_from_text_and_hide_passwords() {
        assert_eq!(
            Database::parse("games.sqlite"),
            Database::Sqlite("games.sqlite".into())
        );
        let pg = Database::parse("postgres://parity:secret@db.example:5432/parity");
        assert!(matches!(pg, Database::Postgres(_)));
        assert_eq!(pg.to_string(), "postgres://parity@db.example:5432/parity");
        assert!(matches!(
            Database::parse("postgresql://localhost/x"),
            Database::Postgres(_)
        ));
    }
}
