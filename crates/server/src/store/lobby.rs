//! The lobby's rows: open seeks and challenges, stored so that every node
//! of a cluster sees the same lobby and a restart keeps it. Each statement
//! is written once for both databases: `$N` placeholders, which SQLite
//! reads as named parameters numbered by first appearance, so in every
//! statement they first appear in order (a test checks).

use super::{StoreError, UserRow};

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
    TakeSeek { id: String },
    /// Withdrawn by its owner.
    DropSeek { id: String, user_id: String },
    NewChallenge(ChallengeRow),
    /// Answered (accepted, declined, canceled or expired), if still open.
    EndChallenge { id: String, outcome_json: String },
    /// Open again: its game could not begin.
    ReopenChallenge { id: String },
    /// Forgets seeks and challenges that expired before `before_ms`.
    Purge { before_ms: i64 },
}

/// A statement's parameter, bound by each database's own types.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Value {
    Text(String),
    MaybeText(Option<String>),
    Int(i64),
    MaybeInt(Option<i64>),
    Flag(bool),
}

/// What a write must have touched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Touches {
    Any,
    /// One row, else the thing is gone.
    One(&'static str),
}

pub(super) struct Statement {
    pub sql: &'static str,
    pub params: Vec<Value>,
    pub touches: Touches,
}

impl Touches {
    pub(super) fn check(self, rows: u64) -> Result<(), StoreError> {
        match self {
            Touches::One(what) if rows == 0 => Err(StoreError::Gone(what.to_string())),
            _ => Ok(()),
        }
    }
}

/// The statements of a change.
pub(super) fn statements(change: &LobbyChange) -> Vec<Statement> {
    use Value::*;
    let one = |sql, params, what| Statement {
        sql,
        params,
        touches: Touches::One(what),
    };
    match change {
        LobbyChange::NewSeek(s) => vec![Statement {
            sql: "INSERT INTO seeks (id, user_id, rating, provisional, terms_json, rating_low,
                                     rating_high, created_ms, expires_ms)
                  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
            params: vec![
                Text(s.id.clone()),
                Text(s.owner.id.clone()),
                Int(s.rating),
                Flag(s.provisional),
                Text(s.terms_json.clone()),
                MaybeInt(s.rating_range.map(|r| r.0)),
                MaybeInt(s.rating_range.map(|r| r.1)),
                Int(s.created_ms),
                Int(s.expires_ms),
            ],
            touches: Touches::Any,
        }],
        LobbyChange::TakeSeek { id } => vec![one(
            "DELETE FROM seeks WHERE id = $1",
            vec![Text(id.clone())],
            "this seek was taken or withdrawn",
        )],
        LobbyChange::DropSeek { id, user_id } => vec![one(
            "DELETE FROM seeks WHERE id = $1 AND user_id = $2",
            vec![Text(id.clone()), Text(user_id.clone())],
            "no such open seek of yours",
        )],
        LobbyChange::NewChallenge(c) => vec![Statement {
            sql: "INSERT INTO challenges (id, challenger, dest, challenger_rating,
                      challenger_provisional, dest_rating, dest_provisional, terms_json,
                      created_ms, expires_ms, outcome_json)
                  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
            params: vec![
                Text(c.id.clone()),
                Text(c.challenger.id.clone()),
                Text(c.dest.id.clone()),
                Int(c.challenger_rating.0),
                Flag(c.challenger_rating.1),
                Int(c.dest_rating.0),
                Flag(c.dest_rating.1),
                Text(c.terms_json.clone()),
                Int(c.created_ms),
                Int(c.expires_ms),
                MaybeText(c.outcome_json.clone()),
            ],
            touches: Touches::Any,
        }],
        LobbyChange::EndChallenge { id, outcome_json } => vec![one(
            "UPDATE challenges SET outcome_json = $1 WHERE id = $2 AND outcome_json IS NULL",
            vec![Text(outcome_json.clone()), Text(id.clone())],
            "this challenge was already answered",
        )],
        LobbyChange::ReopenChallenge { id } => vec![Statement {
            sql: "UPDATE challenges SET outcome_json = NULL WHERE id = $1",
            params: vec![Text(id.clone())],
            touches: Touches::Any,
        }],
        LobbyChange::Purge { before_ms } => ["seeks", "challenges"]
            .into_iter()
            .map(|table| Statement {
                sql: match table {
                    "seeks" => "DELETE FROM seeks WHERE expires_ms < $1",
                    _ => "DELETE FROM challenges WHERE expires_ms < $1",
                },
                params: vec![Int(*before_ms)],
                touches: Touches::Any,
            })
            .collect(),
    }
}

/// A user's columns under the alias `table`.
macro_rules! user_columns {
    ($table:literal) => {
        concat!(
            $table, ".id, ", $table, ".name, ", $table, ".password_hash, ",
            $table, ".bot, ", $table, ".created_ms"
        )
    };
}
const USER_COLUMNS: usize = 5;

/// The open seeks at `$1` (ms), oldest first.
pub(super) const OPEN_SEEKS: &str = concat!(
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
pub(super) fn challenge_by_id() -> String {
    format!("{CHALLENGE_SELECT} WHERE c.id = $1")
}

/// The open challenges to or from account `$1` at `$2` (ms), oldest first.
pub(super) fn open_challenges_of() -> String {
    format!(
        "{CHALLENGE_SELECT} WHERE (c.challenger = $1 OR c.dest = $1)
         AND c.outcome_json IS NULL AND c.expires_ms > $2 ORDER BY c.created_ms, c.id"
    )
}

/// The unanswered challenges expired at `$1` (ms), oldest first.
pub(super) fn expired_challenges() -> String {
    format!(
        "{CHALLENGE_SELECT} WHERE c.outcome_json IS NULL AND c.expires_ms <= $1
         ORDER BY c.created_ms, c.id"
    )
}

/// A row of either database, read by column index.
pub(super) trait Columns {
    fn text(&self, i: usize) -> Result<String, StoreError>;
    fn maybe_text(&self, i: usize) -> Result<Option<String>, StoreError>;
    fn int(&self, i: usize) -> Result<i64, StoreError>;
    fn maybe_int(&self, i: usize) -> Result<Option<i64>, StoreError>;
    fn flag(&self, i: usize) -> Result<bool, StoreError>;
}

fn user(r: &impl Columns, first: usize) -> Result<UserRow, StoreError> {
    Ok(UserRow {
        id: r.text(first)?,
        name: r.text(first + 1)?,
        password_hash: r.maybe_text(first + 2)?,
        bot: r.flag(first + 3)?,
        created_ms: r.int(first + 4)?,
    })
}

pub(super) fn seek_row(r: &impl Columns) -> Result<SeekRow, StoreError> {
    let c = USER_COLUMNS;
    let range = match (r.maybe_int(c + 4)?, r.maybe_int(c + 5)?) {
        (Some(low), Some(high)) => Some((low, high)),
        _ => None,
    };
    Ok(SeekRow {
        owner: user(r, 0)?,
        id: r.text(c)?,
        rating: r.int(c + 1)?,
        provisional: r.flag(c + 2)?,
        terms_json: r.text(c + 3)?,
        rating_range: range,
        created_ms: r.int(c + 6)?,
        expires_ms: r.int(c + 7)?,
    })
}

pub(super) fn challenge_row(r: &impl Columns) -> Result<ChallengeRow, StoreError> {
    let c = 2 * USER_COLUMNS;
    Ok(ChallengeRow {
        challenger: user(r, 0)?,
        dest: user(r, USER_COLUMNS)?,
        id: r.text(c)?,
        challenger_rating: (r.int(c + 1)?, r.flag(c + 2)?),
        dest_rating: (r.int(c + 3)?, r.flag(c + 4)?),
        terms_json: r.text(c + 5)?,
        created_ms: r.int(c + 6)?,
        expires_ms: r.int(c + 7)?,
        outcome_json: r.maybe_text(c + 8)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// SQLite numbers `$N` by first appearance: they must appear in order.
    fn placeholders_in_order(sql: &str) {
        let mut seen = Vec::new();
        let bytes = sql.as_bytes();
        for (i, b) in bytes.iter().enumerate() {
            if *b == b'$' {
                let digits: String = sql[i + 1..].chars().take_while(char::is_ascii_digit).collect();
                let n: usize = digits.parse().expect("a number after $");
                if !seen.contains(&n) {
                    seen.push(n);
                }
            }
        }
        let ordered: Vec<usize> = (1..=seen.len()).collect();
        assert_eq!(seen, ordered, "{sql}");
    }

    #[test]
    fn every_statement_numbers_its_placeholders_in_order() {
        let user = UserRow {
            id: "ada".into(),
            name: "Ada".into(),
            password_hash: None,
            bot: false,
            created_ms: 1,
        };
        let changes = [
            LobbyChange::NewSeek(SeekRow {
                id: "s".into(),
                owner: user.clone(),
                rating: 1500,
                provisional: true,
                terms_json: "{}".into(),
                rating_range: None,
                created_ms: 1,
                expires_ms: 2,
            }),
            LobbyChange::TakeSeek { id: "s".into() },
            LobbyChange::DropSeek { id: "s".into(), user_id: "ada".into() },
            LobbyChange::NewChallenge(ChallengeRow {
                id: "c".into(),
                challenger: user.clone(),
                challenger_rating: (1500, true),
                dest: user,
                dest_rating: (1500, true),
                terms_json: "{}".into(),
                created_ms: 1,
                expires_ms: 2,
                outcome_json: None,
            }),
            LobbyChange::EndChallenge { id: "c".into(), outcome_json: "{}".into() },
            LobbyChange::ReopenChallenge { id: "c".into() },
            LobbyChange::Purge { before_ms: 3 },
        ];
        for change in &changes {
            for statement in statements(change) {
                placeholders_in_order(statement.sql);
                let count = statement.sql.matches('$').count();
                assert!(statement.params.len() <= count, "{}", statement.sql);
            }
        }
        for sql in [OPEN_SEEKS.to_string(), challenge_by_id(), open_challenges_of(), expired_challenges()] {
            placeholders_in_order(&sql);
        }
        // Out of order, the check fails.
        let out_of_order =
            std::panic::catch_unwind(|| placeholders_in_order("SELECT $2 WHERE x = $1"));
        assert!(out_of_order.is_err());
    }
}
