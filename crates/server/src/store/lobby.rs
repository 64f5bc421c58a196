//! The lobby's rows: open seeks and challenges, stored so that every node
//! of a cluster sees the same lobby and a restart keeps it. Each statement
//! is written once for both databases (`sql.rs`).

use super::accounts::{user_columns, user_row, USER_COLUMNS};
use super::sql::{params, Row, Session, Statement};
use super::{Store, StoreError, UserRow};

/// The tables (one schema step in both databases).
pub(super) const TABLES: &str = r#"
    CREATE TABLE seeks (
        id TEXT PRIMARY KEY,
        user_id TEXT NOT NULL REFERENCES users (id),
        rating BIGINT NOT NULL,
        provisional BOOLEAN NOT NULL,
        terms_json TEXT NOT NULL,
        rating_low BIGINT,
        rating_high BIGINT,
        created_ms BIGINT NOT NULL,
        expires_ms BIGINT NOT NULL
    );
    CREATE INDEX seeks_by_expiry ON seeks (expires_ms);
    CREATE TABLE challenges (
        id TEXT PRIMARY KEY,
        challenger TEXT NOT NULL REFERENCES users (id),
        dest TEXT NOT NULL REFERENCES users (id),
        challenger_rating BIGINT NOT NULL,
        challenger_provisional BOOLEAN NOT NULL,
        dest_rating BIGINT NOT NULL,
        dest_provisional BOOLEAN NOT NULL,
        terms_json TEXT NOT NULL,
        created_ms BIGINT NOT NULL,
        expires_ms BIGINT NOT NULL,
        outcome_json TEXT
    );
    CREATE INDEX challenges_by_challenger ON challenges (challenger);
    CREATE INDEX challenges_by_dest ON challenges (dest);
"#;

/// An open seek as stored; its terms are the lobby's JSON.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeekRow {
    pub id: String,
    pub owner: UserRow,
    pub rating: i64,
    pub provisional: bool,
    pub terms_json: String,
    pub rating_range: Option<(i64, i64)>,
    pub created_ms: i64,
    pub expires_ms: i64,
}

/// A challenge as stored, open or answered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChallengeRow {
    pub id: String,
    pub challenger: UserRow,
    pub challenger_rating: (i64, bool),
    pub dest: UserRow,
    pub dest_rating: (i64, bool),
    pub terms_json: String,
    pub created_ms: i64,
    pub expires_ms: i64,
    /// None while open.
    pub outcome_json: Option<String>,
}

/// Changes to the lobby. `TakeSeek`, `DropSeek` and `EndChallenge` fail
/// with [`StoreError::Gone`] when another request (on any node) was first.
#[derive(Clone, Debug)]
pub enum LobbyChange {
    NewSeek(SeekRow),
    /// Taken into a game by anyone.
    TakeSeek {
        id: String,
    },
    /// Withdrawn by its owner.
    DropSeek {
        id: String,
        user_id: String,
    },
    NewChallenge(ChallengeRow),
    /// Answered (accepted, declined, canceled or expired), if still open.
    EndChallenge {
        id: String,
        outcome_json: String,
    },
    /// Open again: its game could not begin.
    ReopenChallenge {
        id: String,
    },
    /// Forgets seeks and challenges that expired before `before_ms`.
    Purge {
        before_ms: i64,
    },
}

/// The statements of a change.
pub(super) fn statements(change: &LobbyChange) -> Vec<Statement> {
    match change {
        LobbyChange::NewSeek(s) => vec![Statement::new(
            "INSERT INTO seeks (id, user_id, rating, provisional, terms_json, rating_low,
                                rating_high, created_ms, expires_ms)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
            params![
                &s.id,
                &s.owner.id,
                s.rating,
                s.provisional,
                &s.terms_json,
                s.rating_range.map(|r| r.0),
                s.rating_range.map(|r| r.1),
                s.created_ms,
                s.expires_ms,
            ],
        )],
        LobbyChange::TakeSeek { id } => vec![Statement::one(
            "DELETE FROM seeks WHERE id = $1",
            params![id],
            "this seek was taken or withdrawn",
        )],
        LobbyChange::DropSeek { id, user_id } => vec![Statement::one(
            "DELETE FROM seeks WHERE id = $1 AND user_id = $2",
            params![id, user_id],
            "no such open seek of yours",
        )],
        LobbyChange::NewChallenge(c) => vec![Statement::new(
            "INSERT INTO challenges (id, challenger, dest, challenger_rating,
                 challenger_provisional, dest_rating, dest_provisional, terms_json,
                 created_ms, expires_ms, outcome_json)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
            params![
                &c.id,
                &c.challenger.id,
                &c.dest.id,
                c.challenger_rating.0,
                c.challenger_rating.1,
                c.dest_rating.0,
                c.dest_rating.1,
                &c.terms_json,
                c.created_ms,
                c.expires_ms,
                c.outcome_json.as_ref(),
            ],
        )],
        LobbyChange::EndChallenge { id, outcome_json } => vec![Statement::one(
            "UPDATE challenges SET outcome_json = $1 WHERE id = $2 AND outcome_json IS NULL",
            params![outcome_json, id],
            "this challenge was already answered",
        )],
        LobbyChange::ReopenChallenge { id } => vec![Statement::new(
            "UPDATE challenges SET outcome_json = NULL WHERE id = $1",
            params![id],
        )],
        LobbyChange::Purge { before_ms } => vec![
            Statement::new(
                "DELETE FROM seeks WHERE expires_ms < $1",
                params![*before_ms],
            ),
            Statement::new(
                "DELETE FROM challenges WHERE expires_ms < $1",
                params![*before_ms],
            ),
        ],
    }
}

/// The open seeks at `$1` (ms), oldest first.
const OPEN_SEEKS: &str = concat!(
    "SELECT ",
    user_columns!("u"),
    ", s.id, s.rating, s.provisional, s.terms_json, s.rating_low, s.rating_high,
       s.created_ms, s.expires_ms
     FROM seeks s JOIN users u ON u.id = s.user_id
     WHERE s.expires_ms > $1 ORDER BY s.created_ms, s.id"
);

const CHALLENGE_SELECT: &str = concat!(
    "SELECT ",
    user_columns!("a"),
    ", ",
    user_columns!("b"),
    ", c.id, c.challenger_rating, c.challenger_provisional, c.dest_rating,
       c.dest_provisional, c.terms_json, c.created_ms, c.expires_ms, c.outcome_json
     FROM challenges c JOIN users a ON a.id = c.challenger JOIN users b ON b.id = c.dest"
);

/// The challenge `$1`, open or answered.
fn challenge_by_id() -> String {
    format!("{CHALLENGE_SELECT} WHERE c.id = $1")
}

/// The open challenges to or from account `$1` at `$2` (ms), oldest first.
fn open_challenges_of() -> String {
    format!(
        "{CHALLENGE_SELECT} WHERE (c.challenger = $1 OR c.dest = $1)
         AND c.outcome_json IS NULL AND c.expires_ms > $2 ORDER BY c.created_ms, c.id"
    )
}

/// The unanswered challenges expired at `$1` (ms), oldest first.
fn expired_challenges() -> String {
    format!(
        "{CHALLENGE_SELECT} WHERE c.outcome_json IS NULL AND c.expires_ms <= $1
         ORDER BY c.created_ms, c.id"
    )
}

fn seek_row(r: &Row) -> Result<SeekRow, StoreError> {
    let c = USER_COLUMNS;
    let range = match (r.maybe_int(c + 4)?, r.maybe_int(c + 5)?) {
        (Some(low), Some(high)) => Some((low, high)),
        _ => None,
    };
    Ok(SeekRow {
        owner: user_row(r, 0)?,
        id: r.text(c)?,
        rating: r.int(c + 1)?,
        provisional: r.flag(c + 2)?,
        terms_json: r.text(c + 3)?,
        rating_range: range,
        created_ms: r.int(c + 6)?,
        expires_ms: r.int(c + 7)?,
    })
}

fn challenge_row(r: &Row) -> Result<ChallengeRow, StoreError> {
    let c = 2 * USER_COLUMNS;
    Ok(ChallengeRow {
        challenger: user_row(r, 0)?,
        dest: user_row(r, USER_COLUMNS)?,
        id: r.text(c)?,
        challenger_rating: (r.int(c + 1)?, r.flag(c + 2)?),
        dest_rating: (r.int(c + 3)?, r.flag(c + 4)?),
        terms_json: r.text(c + 5)?,
        created_ms: r.int(c + 6)?,
        expires_ms: r.int(c + 7)?,
        outcome_json: r.maybe_text(c + 8)?,
    })
}

/// The lobby, shared by a cluster's nodes.
impl Store {
    /// The seeks open at `now_ms`, oldest first.
    pub async fn open_seeks(&self, now_ms: i64) -> Result<Vec<SeekRow>, StoreError> {
        let rows = self.reader.query(OPEN_SEEKS, &params![now_ms]).await?;
        rows.iter().map(seek_row).collect()
    }

    /// Challenge `id`, open or answered (until purged).
    pub async fn challenge(&self, id: &str) -> Result<Option<ChallengeRow>, StoreError> {
        match self
            .reader
            .query_opt(&challenge_by_id(), &params![id])
            .await?
        {
            Some(r) => Ok(Some(challenge_row(&r)?)),
            None => Ok(None),
        }
    }

    /// The challenges to or from `user_id` open at `now_ms`, oldest first.
    pub async fn open_challenges_of(
        &self,
        user_id: &str,
        now_ms: i64,
    ) -> Result<Vec<ChallengeRow>, StoreError> {
        let rows = self
            .reader
            .query(&open_challenges_of(), &params![user_id, now_ms])
            .await?;
        rows.iter().map(challenge_row).collect()
    }

    /// The unanswered challenges expired at `now_ms`.
    pub async fn expired_challenges(&self, now_ms: i64) -> Result<Vec<ChallengeRow>, StoreError> {
        let rows = self
            .reader
            .query(&expired_challenges(), &params![now_ms])
            .await?;
        rows.iter().map(challenge_row).collect()
    }
}
