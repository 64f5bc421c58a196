//! Who a request is, in one place: a personal API token, the page's
//! log-in session, or neither. Failed attempts count against the
//! address (`base::limits::Quotas`).

use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::{Request, State};
use axum::http::header::{AUTHORIZATION, COOKIE};
use axum::http::HeaderMap;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::base::limits::Limits;
use crate::base::refusal::{Refusal, Said};
use crate::base::secret;
use crate::game::event::now_ms;
use crate::hub::Hub;
use crate::store::{AccountChange, Change, SessionRow, UserRow};

/// The page's log-in cookie (`crate::accounts`).
pub const SESSION_COOKIE: &str = "parity_session";

/// An account a request proves, and how.
pub struct Holder {
    pub user: UserRow,
    /// The personal API token's scopes; all of them for a log-in session.
    pub scopes: Vec<String>,
}

impl Holder {
    /// `bot:play` on a bot account, as lichess's Bot API requires.
    pub fn check_bot(&self) -> Result<(), Refusal> {
        if !self.user.bot {
            return Err(Refusal::Forbidden(Said::new(
                "server-refusal-bot-api-bot-accounts-parity",
            )));
        }
        if !self.scopes.iter().any(|s| s == "bot:play") {
            return Err(Refusal::Forbidden(Said::new(
                "server-refusal-token-lacks-scope-bot-play",
            )));
        }
        Ok(())
    }
}

fn bearer(headers: &HeaderMap) -> Option<&str> {
    headers
        .get(AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(str::trim)
}

/// Whether a Bearer token is a personal API token (not a seat token).
pub fn is_api_token(token: &str) -> bool {
    token.starts_with("pat_")
}

/// The log-in session cookie's token, if the request has one.
pub fn session_token(headers: &HeaderMap) -> Option<&str> {
    headers
        .get_all(COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, _)| *name == SESSION_COOKIE)
        .map(|(_, value)| value)
        .filter(|t| !t.is_empty() && t.len() <= 128)
}

/// The account of the request: its `Authorization: Bearer` personal API
/// token, else its log-in session; none when it has neither. A token or
/// session that is not known is a 401 (and counts as a failed attempt).
pub async fn holder(hub: &Hub, ip: IpAddr, headers: &HeaderMap) -> Result<Option<Holder>, Refusal> {
    if let Some(token) = bearer(headers).filter(|t| is_api_token(t)) {
        let known = match token.len() <= 128 {
            true => hub.store().api_token(&secret::token_hash(token)).await?,
            false => None,
        };
        return match known {
            Some((user, scopes)) => Ok(Some(Holder {
                user,
                scopes: scopes.split(',').map(str::to_string).collect(),
            })),
            None => Err(hub.quotas().auth_failure(
                ip,
                Refusal::Unauthenticated(Said::new("server-refusal-no-such-token")),
            )),
        };
    }
    if session_token(headers).is_none() {
        return Ok(None);
    }
    let user = logged_in(hub, ip, headers).await?;
    Ok(Some(Holder {
        user,
        scopes: crate::accounts::SCOPES
            .iter()
            .map(|s| s.to_string())
            .collect(),
    }))
}

/// The scope a personal API token needs on `path`: lichess's Board API
/// takes `board:play`, its Bot API `bot:play`.
fn scope_for(path: &str) -> Option<&'static str> {
    if path.starts_with("/api/board/") {
        Some("board:play")
    } else if path.starts_with("/api/bot/") {
        Some("bot:play")
    } else {
        None
    }
}

/// Refuses (403) a personal API token on a path its scopes do not open.
/// Tokens unknown here go on, to be refused and counted where they are read.
pub async fn require_scope(State(hub): State<Arc<Hub>>, request: Request, next: Next) -> Response {
    let (Some(scope), Some(token)) = (
        scope_for(request.uri().path()),
        bearer(request.headers()).filter(|t| is_api_token(t) && t.len() <= 128),
    ) else {
        return next.run(request).await;
    };
    match hub.store().api_token(&secret::token_hash(token)).await {
        Ok(Some((_, scopes))) if !scopes.split(',').any(|s| s == scope) => {
            Refusal::Forbidden(Said::new("server-refusal-token-lacks-scope").with("scope", scope))
                .into_response()
        }
        Err(e) => Refusal::from(e).into_response(),
        _ => next.run(request).await,
    }
}

/// The account of the request, which must have one.
pub async fn token_user(hub: &Hub, ip: IpAddr, headers: &HeaderMap) -> Result<Holder, Refusal> {
    holder(hub, ip, headers).await?.ok_or_else(|| {
        Refusal::Unauthenticated(Said::new("server-refusal-personal-api-token-log-needed"))
    })
}

/// The user of the request's log-in session (not of an API token): the
/// account's own settings take a log-in. An ended session is removed.
pub async fn logged_in(hub: &Hub, ip: IpAddr, headers: &HeaderMap) -> Result<UserRow, Refusal> {
    Ok(current_session(hub, ip, headers).await?.0)
}

/// The request's log-in session and its user; it is written as seen at
/// most once an hour (a write per request would be too many).
pub async fn current_session(
    hub: &Hub,
    ip: IpAddr,
    headers: &HeaderMap,
) -> Result<(UserRow, SessionRow), Refusal> {
    const SEEN_EVERY_MS: i64 = 3600 * 1000;
    let Some(token) = session_token(headers) else {
        return Err(Refusal::Unauthenticated(Said::new(
            "server-refusal-not-logged",
        )));
    };
    let token_hash = secret::token_hash(token);
    let now = now_ms();
    match hub.store().session(&token_hash).await? {
        Some((user, session)) if session_alive(hub.limits(), &session, now) => {
            if now - session.seen_ms >= SEEN_EVERY_MS {
                let seen = AccountChange::SeenSession {
                    token_hash,
                    seen_ms: now,
                };
                hub.writer.write(vec![Change::Account(seen)]).await?;
            }
            Ok((user, session))
        }
        found => {
            if found.is_some() {
                let ended = AccountChange::EndSession { token_hash };
                hub.writer.write(vec![Change::Account(ended)]).await?;
            }
            Err(hub.quotas().auth_failure(
                ip,
                Refusal::Unauthenticated(Said::new("server-refusal-log-has-ended")),
            ))
        }
    }
}

/// A session lasts `session_lifetime` from its log-in and
/// `session_idle` from its last use.
pub fn session_alive(limits: &Limits, session: &SessionRow, now_ms: i64) -> bool {
    let ms = |d: Duration| i64::try_from(d.as_millis()).unwrap_or(i64::MAX);
    now_ms.saturating_sub(session.created_ms) <= ms(limits.session_lifetime)
        && now_ms.saturating_sub(session.seen_ms) <= ms(limits.session_idle)
}
