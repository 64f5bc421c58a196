//! Accounts: users, their API tokens and log-in sessions, and ratings.
//! Each statement is written once for both databases (`sql.rs`).

use super::sql::{params, Row, Session, Statement};
use super::{
    AccountChange, ApiTokenRow, GameRatings, RatedSide, RatingInputs, RatingPoint, SessionRow,
    Store, StoreError, UserRow,
};
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

/// Finished rated games whose ratings are still to be written: the
/// finishing summary marks the game, the accounts layer rates it and
/// removes the mark (`crate::accounts::glicko`), so a crash in between
/// leaves the game due, never unrated.
pub(super) const RATINGS_DUE: &str = r#"
    CREATE TABLE ratings_due (
        game_id TEXT PRIMARY KEY
    );
    CREATE INDEX rating_history_by_game ON rating_history (game_id);
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
        AccountChange::Rate(rate) => return rate_statements(rate),
        AccountChange::NotRated { game } => Statement::one(
            "DELETE FROM ratings_due WHERE game_id = $1",
            params![game],
            "the game's rating",
        ),
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

/// A game's ratings: the game is no longer due (another node may have
/// rated it first), and each rating is written only if it is still the
/// one read (its count of games), in user order so that two nodes writing
/// the same two players never wait on each other.
fn rate_statements(rate: &GameRatings) -> Vec<Statement> {
    let mut statements = vec![Statement::one(
        "DELETE FROM ratings_due WHERE game_id = $1",
        params![&rate.game],
        "the game's rating",
    )];
    let fresh = Rating::default();
    let mut sides: Vec<&RatedSide> = rate.sides.iter().collect();
    sides.sort_by(|a, b| a.user_id.cmp(&b.user_id));
    for side in sides {
        let after = &side.after;
        statements.extend([
            Statement::new(
                "INSERT INTO ratings (user_id, variant, rating, deviation, volatility, games)
                 VALUES ($1, $2, $3, $4, $5, 0) ON CONFLICT DO NOTHING",
                params![
                    &side.user_id,
                    &rate.variant,
                    fresh.rating,
                    fresh.deviation,
                    fresh.volatility
                ],
            ),
            Statement::one(
                "UPDATE ratings SET rating = $3, deviation = $4, volatility = $5, games = $6
                 WHERE user_id = $1 AND variant = $2 AND games = $7",
                params![
                    &side.user_id,
                    &rate.variant,
                    after.rating,
                    after.deviation,
                    after.volatility,
                    after.games,
                    side.games_before
                ],
                "the rating read",
            ),
            Statement::new(
                "INSERT INTO rating_history (user_id, game_id, variant, at_ms, rating, deviation)
                 VALUES ($1, $2, $3, $4, $5, $6)",
                params![
                    &side.user_id,
                    &rate.game,
                    &rate.variant,
                    rate.at_ms,
                    after.rating,
                    after.deviation
                ],
            ),
        ]);
    }
    statements
}

fn rating_of(r: &Row, first: usize) -> Result<Rating, StoreError> {
    Ok(Rating {
        rating: r.real(first)?,
        deviation: r.real(first + 1)?,
        volatility: r.real(first + 2)?,
        games: r.count(first + 3)?,
    })
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
            .query_opt(
                "SELECT value FROM server_keys WHERE name = $1",
                &params![name],
            )
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
            .query_opt(
                "SELECT body FROM preferences WHERE user_id = $1",
                &params![user_id],
            )
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

    /// Finished rated games whose ratings are still to be written, at most `limit`.
    pub async fn ratings_due(&self, limit: i64) -> Result<Vec<String>, StoreError> {
        let rows = self
            .reader
            .query(
                "SELECT game_id FROM ratings_due ORDER BY game_id LIMIT $1",
                &params![limit],
            )
            .await?;
        rows.iter().map(|r| r.text(0)).collect()
    }

    /// What rating a due game takes: its variant and result, and each
    /// account's rating now (a newcomer's if it has none); none when the
    /// game is not due.
    pub async fn rating_inputs(&self, game: &str) -> Result<Option<RatingInputs>, StoreError> {
        let s = &self.reader;
        let Some(row) = s
            .query_opt(
                "SELECT games.variant, games.result FROM ratings_due
                 JOIN games ON games.id = ratings_due.game_id WHERE ratings_due.game_id = $1",
                &params![game],
            )
            .await?
        else {
            return Ok(None);
        };
        let (variant, result) = (row.text(0)?, row.maybe_text(1)?);
        let mut players: [Option<(String, Rating)>; 2] = [None, None];
        for r in s
            .query(
                "SELECT players.color, players.user_id, ratings.rating, ratings.deviation,
                        ratings.volatility, ratings.games
                 FROM players LEFT JOIN ratings
                   ON ratings.user_id = players.user_id AND ratings.variant = $2
                 WHERE players.game_id = $1",
                &params![game, &variant],
            )
            .await?
        {
            let rating = match r.maybe_real(2)? {
                Some(_) => rating_of(&r, 2)?,
                None => Rating::default(),
            };
            let slot = match r.text(0)?.as_str() {
                "white" => 0,
                "black" => 1,
                other => return Err(StoreError::Corrupt(format!("colour `{other}`"))),
            };
            players[slot] = Some((r.text(1)?, rating));
        }
        Ok(Some(RatingInputs {
            variant,
            result,
            players,
        }))
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
