//! Accounts: users, their API tokens and log-in sessions, and ratings.
//! Each statement is written once for both databases (`sql.rs`).

use super::sql::{params, Row, Session, Statement};
use super::{AccountChange, ApiTokenRow, RatingPoint, SessionRow, Store, StoreError, UserRow};
use crate::base::ratings::Rating;

/// A user's columns under the table name or alias `table` (5 columns).
macro_rules! user_columns {
    ($table:literal) => {
        concat!(
            $table,
            ".id, ",
            $table,
            ".name, ",
            $table,
            ".password_hash, ",
            $table,
            ".bot, ",
            $table,
            ".created_ms"
        )
    };
}
pub(super) use user_columns;

/// The number of columns [`user_columns!`] names.
pub(super) const USER_COLUMNS: usize = 5;

/// A user from the columns of [`user_columns!`] starting at `first`.
pub(super) fn user_row(r: &Row, first: usize) -> Result<UserRow, StoreError> {
    Ok(UserRow {
        id: r.text(first)?,
        name: r.text(first + 1)?,
        password_hash: r.maybe_text(first + 2)?,
        bot: r.flag(first + 3)?,
        created_ms: r.int(first + 4)?,
    })
}

macro_rules! session_columns {
    () => {
        "sessions.token_sha256, sessions.created_ms, sessions.seen_ms, sessions.agent"
    };
}

fn session_row(r: &Row, first: usize) -> Result<SessionRow, StoreError> {
    Ok(SessionRow {
        hash: r.text(first)?,
        created_ms: r.int(first + 1)?,
        seen_ms: r.int(first + 2)?,
        agent: r.text(first + 3)?,
    })
}

/// Each account's page preferences, one JSON document: both databases
/// read this.
pub(super) const PREFERENCES: &str = r#"
    CREATE TABLE preferences (
        user_id TEXT PRIMARY KEY REFERENCES users (id),
        body TEXT NOT NULL
    );
"#;

/// What an account is told of on the page's bell (and by mail or push).
pub(super) const NOTIFICATIONS: &str = r#"
    CREATE TABLE notifications (
        id TEXT PRIMARY KEY,
        user_id TEXT NOT NULL REFERENCES users (id),
        at_ms BIGINT NOT NULL,
        kind TEXT NOT NULL,
        text TEXT NOT NULL,
        url TEXT NOT NULL,
        seen BOOLEAN NOT NULL
    );
    CREATE INDEX notifications_by_user ON notifications (user_id, at_ms);
"#;

/// Browsers' push subscriptions, and the server's own keys (the VAPID key).
pub(super) const PUSH: &str = r#"
    CREATE TABLE push_subscriptions (
        endpoint TEXT PRIMARY KEY,
        user_id TEXT NOT NULL REFERENCES users (id),
        p256dh TEXT NOT NULL,
        auth TEXT NOT NULL,
        created_ms BIGINT NOT NULL
    );
    CREATE INDEX push_subscriptions_by_user ON push_subscriptions (user_id);
    CREATE TABLE server_keys (
        name TEXT PRIMARY KEY,
        value TEXT NOT NULL
    );
"#;

/// A notification as stored.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct NotificationRow {
    pub id: String,
    #[serde(skip)]
    pub user_id: String,
    pub at_ms: i64,
    /// `yourTurn` or `challenge`.
    pub kind: String,
    pub text: String,
    pub url: String,
    pub seen: bool,
}

/// Notifications kept per account: the oldest beyond go.
const KEPT_NOTIFICATIONS: i64 = 100;

/// The statements of a change to the accounts.
pub(super) fn statements(change: &AccountChange) -> Vec<Statement> {
    if let AccountChange::Notify(n) = change {
        return vec![
            Statement::new(
                "INSERT INTO notifications (id, user_id, at_ms, kind, text, url, seen)
                 VALUES ($1, $2, $3, $4, $5, $6, FALSE) ON CONFLICT (id) DO NOTHING",
                params![&n.id, &n.user_id, n.at_ms, &n.kind, &n.text, &n.url],
            ),
            Statement::new(
                "DELETE FROM notifications WHERE user_id = $1 AND id NOT IN
                 (SELECT id FROM notifications WHERE user_id = $1 ORDER BY at_ms DESC, id LIMIT $2)",
                params![&n.user_id, KEPT_NOTIFICATIONS],
            ),
        ];
    }
    let statement = match change {
        AccountChange::NewUser {
            id,
            name,
            password_hash,
            bot,
            created_ms,
        } => Statement::new(
            "INSERT INTO users (id, name, password_hash, bot, created_ms) VALUES ($1, $2, $3, $4, $5)",
            params![id, name, password_hash.as_ref(), *bot, *created_ms],
        ),
        AccountChange::NewApiToken {
            token_hash,
            user_id,
            scopes,
            created_ms,
        } => Statement::new(
            "INSERT INTO api_tokens (token_sha256, user_id, scopes, created_ms) VALUES ($1, $2, $3, $4)",
            params![token_hash, user_id, scopes, *created_ms],
        ),
        AccountChange::RevokeApiToken { token_hash } => Statement::new(
            "UPDATE api_tokens SET revoked = TRUE WHERE token_sha256 = $1",
            params![token_hash],
        ),
        AccountChange::NewSession {
            token_hash,
            user_id,
            created_ms,
            agent,
        } => Statement::new(
            "INSERT INTO sessions (token_sha256, user_id, created_ms, seen_ms, agent)
             VALUES ($1, $2, $3, $3, $4)",
            params![token_hash, user_id, *created_ms, agent],
        ),
        AccountChange::SeenSession {
            token_hash,
            seen_ms,
        } => Statement::new(
            "UPDATE sessions SET seen_ms = $2 WHERE token_sha256 = $1",
            params![token_hash, *seen_ms],
        ),
        AccountChange::EndSession { token_hash } => Statement::new(
            "DELETE FROM sessions WHERE token_sha256 = $1",
            params![token_hash],
        ),
        AccountChange::Notify(_) => unreachable!("written above"),
        AccountChange::ReadNotifications { user_id } => Statement::new(
            "UPDATE notifications SET seen = TRUE WHERE user_id = $1 AND NOT seen",
            params![user_id],
        ),
        AccountChange::AddPushSubscription {
            user_id,
            subscription,
            created_ms,
        } => Statement::new(
            "INSERT INTO push_subscriptions (endpoint, user_id, p256dh, auth, created_ms)
             VALUES ($1, $2, $3, $4, $5) ON CONFLICT (endpoint) DO UPDATE
             SET user_id = excluded.user_id, p256dh = excluded.p256dh, auth = excluded.auth,
                 created_ms = excluded.created_ms",
            params![
                &subscription.endpoint,
                user_id,
                &subscription.keys.p256dh,
                &subscription.keys.auth,
                *created_ms
            ],
        ),
        AccountChange::RemovePushSubscription { endpoint } => Statement::new(
            "DELETE FROM push_subscriptions WHERE endpoint = $1",
            params![endpoint],
        ),
        AccountChange::SetPreferences { user_id, body } => Statement::new(
            "INSERT INTO preferences (user_id, body) VALUES ($1, $2)
             ON CONFLICT (user_id) DO UPDATE SET body = excluded.body",
            params![user_id, body],
        ),
    };
    vec![statement]
}

fn rating_of(r: &Row, first: usize) -> Result<Rating, StoreError> {
    Ok(Rating {
        rating: r.real(first)?,
        deviation: r.real(first + 1)?,
        volatility: r.real(first + 2)?,
        games: r.count(first + 3)?,
    })
}

/// Updates the ratings of a rated game's two players for its `result`,
/// once: in the transaction of the summary that finishes it. The rows are
/// written (in user order) before they are read, which locks them in
/// PostgreSQL, so that nodes finishing two games of one player at once
/// apply both; SQLite has one writer.
pub(super) async fn rate(tx: &impl Session, game: &str, result: &str) -> Result<(), StoreError> {
    let Some(row) = tx
        .query_opt(
            "SELECT variant, rated FROM games WHERE id = $1",
            &params![game],
        )
        .await?
    else {
        return Ok(());
    };
    let (variant, rated) = (row.text(0)?, row.flag(1)?);
    if !rated {
        return Ok(());
    }
    let (mut white, mut black) = (None, None);
    for r in tx
        .query(
            "SELECT color, user_id FROM players WHERE game_id = $1",
            &params![game],
        )
        .await?
    {
        match r.text(0)?.as_str() {
            "white" => white = Some(r.text(1)?),
            "black" => black = Some(r.text(1)?),
            other => return Err(StoreError::Corrupt(format!("colour `{other}`"))),
        }
    }
    let (Some(white), Some(black)) = (white, black) else {
        return Ok(());
    };
    let done = tx
        .query_opt(
            "SELECT 1 FROM rating_history WHERE user_id = $1 AND game_id = $2",
            &params![&white, game],
        )
        .await?;
    if done.is_some() {
        return Ok(());
    }
    let fresh = Rating::default();
    let mut users = [&white, &black];
    users.sort();
    for user in users {
        tx.execute(
            "INSERT INTO ratings (user_id, variant, rating, deviation, volatility, games)
             VALUES ($1, $2, $3, $4, $5, 0) ON CONFLICT DO NOTHING",
            &params![
                user,
                &variant,
                fresh.rating,
                fresh.deviation,
                fresh.volatility
            ],
        )
        .await?;
        tx.execute(
            "UPDATE ratings SET games = games WHERE user_id = $1 AND variant = $2",
            &params![user, &variant],
        )
        .await?;
    }
    let mut before = Vec::with_capacity(2);
    for user in [&white, &black] {
        let row = tx
            .query_opt(
                "SELECT rating, deviation, volatility, games FROM ratings
                 WHERE user_id = $1 AND variant = $2",
                &params![user, &variant],
            )
            .await?
            .ok_or_else(|| StoreError::Corrupt(format!("no rating of {user}")))?;
        before.push(rating_of(&row, 0)?);
    }
    let Some((w, b)) = crate::base::ratings::after_game(&before[0], &before[1], result) else {
        return Ok(());
    };
    let at_ms = crate::game::event::now_ms();
    for (user, new) in [(&white, w), (&black, b)] {
        tx.execute(
            "UPDATE ratings SET rating = $3, deviation = $4, volatility = $5, games = $6
             WHERE user_id = $1 AND variant = $2",
            &params![
                user,
                &variant,
                new.rating,
                new.deviation,
                new.volatility,
                new.games
            ],
        )
        .await?;
        tx.execute(
            "INSERT INTO rating_history (user_id, game_id, variant, at_ms, rating, deviation)
             VALUES ($1, $2, $3, $4, $5, $6)",
            &params![user, game, &variant, at_ms, new.rating, new.deviation],
        )
        .await?;
    }
    Ok(())
}

/// Users, their tokens, sessions and ratings.
impl Store {
    /// The ids of every user (a new name is checked against them).
    pub async fn user_ids(&self) -> Result<Vec<String>, StoreError> {
        let rows = self.reader.query("SELECT id FROM users", &[]).await?;
        rows.iter().map(|r| r.text(0)).collect()
    }

    /// The user whose lowercase name is `id`.
    pub async fn user(&self, id: &str) -> Result<Option<UserRow>, StoreError> {
        const SQL: &str = concat!(
            "SELECT ",
            user_columns!("users"),
            " FROM users WHERE id = $1"
        );
        match self.reader.query_opt(SQL, &params![id]).await? {
            Some(r) => Ok(Some(user_row(&r, 0)?)),
            None => Ok(None),
        }
    }

    /// The user and scopes of the unrevoked API token with this hash.
    pub async fn api_token(
        &self,
        token_hash: &str,
    ) -> Result<Option<(UserRow, String)>, StoreError> {
        const SQL: &str = concat!(
            "SELECT ",
            user_columns!("users"),
            ", api_tokens.scopes FROM api_tokens
             JOIN users ON users.id = api_tokens.user_id
             WHERE api_tokens.token_sha256 = $1 AND NOT api_tokens.revoked"
        );
        match self.reader.query_opt(SQL, &params![token_hash]).await? {
            Some(r) => Ok(Some((user_row(&r, 0)?, r.text(USER_COLUMNS)?))),
            None => Ok(None),
        }
    }

    /// A user's unrevoked API tokens, oldest first.
    pub async fn api_tokens_of(&self, user_id: &str) -> Result<Vec<ApiTokenRow>, StoreError> {
        let rows = self
            .reader
            .query(
                "SELECT token_sha256, scopes, created_ms FROM api_tokens
                 WHERE user_id = $1 AND NOT revoked ORDER BY created_ms, token_sha256",
                &params![user_id],
            )
            .await?;
        rows.iter()
            .map(|r| {
                Ok(ApiTokenRow {
                    hash: r.text(0)?,
                    scopes: r.text(1)?,
                    created_ms: r.int(2)?,
                })
            })
            .collect()
    }

    /// The session whose cookie token has this hash, and its user.
    pub async fn session(
        &self,
        token_hash: &str,
    ) -> Result<Option<(UserRow, SessionRow)>, StoreError> {
        const SQL: &str = concat!(
            "SELECT ",
            user_columns!("users"),
            ", ",
            session_columns!(),
            " FROM sessions JOIN users ON users.id = sessions.user_id
             WHERE sessions.token_sha256 = $1"
        );
        match self.reader.query_opt(SQL, &params![token_hash]).await? {
            Some(r) => Ok(Some((user_row(&r, 0)?, session_row(&r, USER_COLUMNS)?))),
            None => Ok(None),
        }
    }

    /// A user's log-in sessions, most recently used first.
    pub async fn sessions_of(&self, user_id: &str) -> Result<Vec<SessionRow>, StoreError> {
        const SQL: &str = concat!(
            "SELECT ",
            session_columns!(),
            " FROM sessions WHERE user_id = $1 ORDER BY seen_ms DESC, token_sha256"
        );
        let rows = self.reader.query(SQL, &params![user_id]).await?;
        rows.iter().map(|r| session_row(r, 0)).collect()
    }

    /// An account's push subscriptions, newest first.
    pub async fn push_subscriptions(
        &self,
        user_id: &str,
    ) -> Result<Vec<crate::base::push::Subscription>, StoreError> {
        let rows = self
            .reader
            .query(
                "SELECT endpoint, p256dh, auth FROM push_subscriptions
                 WHERE user_id = $1 ORDER BY created_ms DESC, endpoint",
                &params![user_id],
            )
            .await?;
        rows.iter()
            .map(|r| {
                Ok(crate::base::push::Subscription {
                    endpoint: r.text(0)?,
                    keys: crate::base::push::SubscriptionKeys {
                        p256dh: r.text(1)?,
                        auth: r.text(2)?,
                    },
                    expiration_time: None,
                })
            })
            .collect()
    }

    /// A key of the server's (`Change::ServerKey`), if one was written.
    pub async fn server_key(&self, name: &str) -> Result<Option<String>, StoreError> {
        let row = self
            .reader
            .query_opt("SELECT value FROM server_keys WHERE name = $1", &params![name])
            .await?;
        row.map(|r| r.text(0)).transpose()
    }

    /// An account's latest notifications, newest first.
    pub async fn notifications(
        &self,
        user_id: &str,
        most: u32,
    ) -> Result<Vec<NotificationRow>, StoreError> {
        let rows = self
            .reader
            .query(
                "SELECT id, user_id, at_ms, kind, text, url, seen FROM notifications
                 WHERE user_id = $1 ORDER BY at_ms DESC, id LIMIT $2",
                &params![user_id, most],
            )
            .await?;
        rows.iter()
            .map(|r| {
                Ok(NotificationRow {
                    id: r.text(0)?,
                    user_id: r.text(1)?,
                    at_ms: r.int(2)?,
                    kind: r.text(3)?,
                    text: r.text(4)?,
                    url: r.text(5)?,
                    seen: r.flag(6)?,
                })
            })
            .collect()
    }

    /// An account's page preferences (JSON), if it set any.
    pub async fn preferences(&self, user_id: &str) -> Result<Option<String>, StoreError> {
        let row = self
            .reader
            .query_opt("SELECT body FROM preferences WHERE user_id = $1", &params![user_id])
            .await?;
        row.map(|r| r.text(0)).transpose()
    }

    /// An account's ratings, by variant id.
    pub async fn ratings(&self, user_id: &str) -> Result<Vec<(String, Rating)>, StoreError> {
        let rows = self
            .reader
            .query(
                "SELECT variant, rating, deviation, volatility, games FROM ratings
                 WHERE user_id = $1 ORDER BY variant",
                &params![user_id],
            )
            .await?;
        rows.iter()
            .map(|r| Ok((r.text(0)?, rating_of(r, 1)?)))
            .collect()
    }

    /// An account's rating after each of its rated games, oldest first.
    pub async fn rating_history(&self, user_id: &str) -> Result<Vec<RatingPoint>, StoreError> {
        let rows = self
            .reader
            .query(
                "SELECT variant, game_id, at_ms, rating, deviation FROM rating_history
                 WHERE user_id = $1 ORDER BY at_ms, game_id",
                &params![user_id],
            )
            .await?;
        rows.iter()
            .map(|r| {
                Ok(RatingPoint {
                    variant: r.text(0)?,
                    game: r.text(1)?,
                    at_ms: r.int(2)?,
                    rating: r.real(3)?,
                    deviation: r.real(4)?,
                })
            })
            .collect()
    }
}
