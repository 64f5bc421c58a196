//! What the profile page shows (`/@/{name}`): a user's rating history
//! and games, and, on one's own profile, one's personal API tokens and
//! log-in sessions (`docs/server.md`, "Accounts on the page").

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{Extension, Path, Query, State};
use axum::http::HeaderMap;
use axum::routing::{delete, get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{json, Value};

use crate::accounts;
use crate::accounts::preferences::{self, Language};
use crate::base::push::Subscription;
use crate::base::refusal::{Refusal, Said};
use crate::game::event::now_ms;
use crate::game::state::variant_key;
use crate::http::auth::{current_session, logged_in, session_alive, token_user};
use crate::http::edge::ClientIp;
use crate::http::error::json_body;
use crate::hub::Hub;
use crate::store::{AccountChange, Change, UserRow};

/// Games a profile lists at most at once (a page; the next with `before`).
const MAX_GAMES: u32 = 100;

pub fn routes() -> Router<Arc<Hub>> {
    Router::new()
        .route("/api/user/{name}/rating-history", get(rating_history))
        .route("/api/user/{name}/games", get(games))
        .route("/api/account/tokens", get(tokens).post(new_token))
        .route("/api/account/tokens/{hash}", delete(revoke))
        .route("/api/account/sessions", get(sessions))
        .route("/api/account/sessions/{hash}", delete(end_session))
        .route(
            "/api/account/preferences",
            get(preferences).put(set_preferences),
        )
        .route("/api/account/notifications", get(notifications))
        .route("/api/push/key", get(push_key))
        .route("/api/account/push", post(subscribe).delete(unsubscribe))
        .route("/api/account/notifications/read", post(read_notifications))
}

/// Notifications a page lists at most.
const MAX_NOTIFICATIONS: u32 = 30;

/// `GET /api/account/notifications`: the latest notifications, newest
/// first, and how many are unread (the page's bell; a log-in only).
async fn notifications(
    State(hub): State<Arc<Hub>>,
    Extension(ClientIp(ip)): Extension<ClientIp>,
    headers: HeaderMap,
) -> Result<Json<Value>, Refusal> {
    let user = logged_in(&hub, ip, &headers).await?;
    let list = hub
        .store()
        .notifications(&user.id, MAX_NOTIFICATIONS)
        .await?;
    let unread = list.iter().filter(|n| !n.seen).count();
    Ok(Json(
        json!({"unread": unread, "notifications": list, "mail": hub.notifier().mails()}),
    ))
}

/// `GET /api/push/key`: the key a browser subscribes to our pushes with.
async fn push_key(State(hub): State<Arc<Hub>>) -> Json<Value> {
    Json(json!({"publicKey": hub.notifier().push_key()}))
}

/// Subscriptions one account may keep (the oldest go first).
const MAX_SUBSCRIPTIONS: usize = 10;

/// `POST /api/account/push` (a browser's `PushSubscription` as JSON):
/// notifications are pushed to it (a log-in only).
async fn subscribe(
    State(hub): State<Arc<Hub>>,
    Extension(ClientIp(ip)): Extension<ClientIp>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<Value>, Refusal> {
    let user = logged_in(&hub, ip, &headers).await?;
    let subscription: Subscription = serde_json::from_slice(&body).map_err(|e| {
        Refusal::Malformed(Said::new("server-refusal-bad-subscription").with("e", &e))
    })?;
    hub.notifier()
        .check_subscription(&subscription)
        .map_err(|e| Refusal::Malformed(e.into()))?;
    let mut changes = vec![Change::Account(AccountChange::AddPushSubscription {
        user_id: user.id.clone(),
        subscription: subscription.clone(),
        created_ms: now_ms(),
    })];
    let kept = hub.store().push_subscriptions(&user.id).await?;
    let others = kept.iter().filter(|s| s.endpoint != subscription.endpoint);
    for old in others.skip(MAX_SUBSCRIPTIONS - 1) {
        changes.push(Change::Account(AccountChange::RemovePushSubscription {
            endpoint: old.endpoint.clone(),
        }));
    }
    hub.writer.write(changes).await?;
    Ok(Json(json!({"ok": true})))
}

#[derive(Deserialize)]
struct Unsubscribe {
    endpoint: String,
}

/// `DELETE /api/account/push` `{endpoint}`: no more pushes to that browser.
async fn unsubscribe(
    State(hub): State<Arc<Hub>>,
    Extension(ClientIp(ip)): Extension<ClientIp>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<Value>, Refusal> {
    let user = logged_in(&hub, ip, &headers).await?;
    let asked: Unsubscribe = json_body(&body)?;
    let own = hub.store().push_subscriptions(&user.id).await?;
    let own = own.iter().any(|s| s.endpoint == asked.endpoint);
    let gone = AccountChange::RemovePushSubscription {
        endpoint: asked.endpoint,
    };
    end_own(&hub, own, "subscription", gone).await
}

/// `POST /api/account/notifications/read`: every notification read.
async fn read_notifications(
    State(hub): State<Arc<Hub>>,
    Extension(ClientIp(ip)): Extension<ClientIp>,
    headers: HeaderMap,
) -> Result<Json<Value>, Refusal> {
    let user = logged_in(&hub, ip, &headers).await?;
    let read = AccountChange::ReadNotifications { user_id: user.id };
    hub.writer.write(vec![Change::Account(read)]).await?;
    Ok(Json(json!({"ok": true})))
}

async fn user_named(hub: &Hub, name: &str) -> Result<UserRow, Refusal> {
    hub.store()
        .user(&accounts::user_id(name))
        .await?
        .ok_or_else(|| Refusal::NotFound(Said::new("server-refusal-no-user").with("name", name)))
}

/// `GET /api/user/{name}/rating-history`: the rating after each rated
/// game, oldest first.
async fn rating_history(
    State(hub): State<Arc<Hub>>,
    Path(name): Path<String>,
) -> Result<Json<Value>, Refusal> {
    let user = user_named(&hub, &name).await?;
    Ok(Json(json!(hub.store().rating_history(&user.id).await?)))
}

/// `GET /api/user/{name}/games?nb=N&before=CURSOR`: the user's games,
/// newest first; each has its `cursor`, and `before` one of them gives
/// the games after it (the profile's "more games").
async fn games(
    State(hub): State<Arc<Hub>>,
    Path(name): Path<String>,
    Query(query): Query<std::collections::HashMap<String, String>>,
) -> Result<Json<Value>, Refusal> {
    let user = user_named(&hub, &name).await?;
    let nb = query
        .get("nb")
        .and_then(|n| n.parse::<u32>().ok())
        .unwrap_or(MAX_GAMES)
        .clamp(1, MAX_GAMES);
    let before = query
        .get("before")
        .map(|cursor| {
            cursor
                .split_once(':')
                .and_then(|(ms, id)| Some((ms.parse::<i64>().ok()?, id.to_string())))
                .ok_or_else(|| {
                    Refusal::Malformed(
                        Said::new("server-refusal-before-game-s-cursor-ms")
                            .with("cursor", format!("{:?}", cursor)),
                    )
                })
        })
        .transpose()?;
    let games = hub.store().user_games(&user.id, false, nb, before).await?;
    Ok(Json(Value::Array(
        games
            .into_iter()
            .map(|g| {
                json!({
                    "id": g.id,
                    "variant": g.variant,
                    "color": g.color.name(),
                    "created_ms": g.created_ms,
                    "status": g.status,
                    "result": g.result,
                    "rated": g.rated,
                    "opponent": g.opponent,
                    "cursor": format!("{}:{}", g.created_ms, g.id),
                })
            })
            .collect(),
    )))
}

/// `GET /api/account/tokens`: the logged-in user's API tokens (their
/// hashes and scopes; the tokens themselves are never kept).
async fn tokens(
    State(hub): State<Arc<Hub>>,
    Extension(ClientIp(ip)): Extension<ClientIp>,
    headers: HeaderMap,
) -> Result<Json<Value>, Refusal> {
    let user = logged_in(&hub, ip, &headers).await?;
    Ok(Json(json!(hub.store().api_tokens_of(&user.id).await?)))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewToken {
    /// Lichess's scope names, e.g. `["board:play"]`.
    scopes: Vec<String>,
}

/// `POST /api/account/tokens` `{scopes}`: a new token, shown this once.
async fn new_token(
    State(hub): State<Arc<Hub>>,
    Extension(ClientIp(ip)): Extension<ClientIp>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<Value>, Refusal> {
    let user = logged_in(&hub, ip, &headers).await?;
    let asked: NewToken = json_body(&body)?;
    let token =
        accounts::add_token(hub.store(), &hub.writer, &user.id, &asked.scopes.join(",")).await?;
    Ok(Json(json!({"token": token})))
}

/// `DELETE /api/account/tokens/{hash}`: revokes one of the user's tokens.
async fn revoke(
    State(hub): State<Arc<Hub>>,
    Extension(ClientIp(ip)): Extension<ClientIp>,
    Path(hash): Path<String>,
    headers: HeaderMap,
) -> Result<Json<Value>, Refusal> {
    let user = logged_in(&hub, ip, &headers).await?;
    let own = hub.store().api_tokens_of(&user.id).await?;
    let own = own.iter().any(|t| t.hash == hash);
    let revoked = AccountChange::RevokeApiToken { token_hash: hash };
    end_own(&hub, own, "token", revoked).await
}

/// Writes `change`, the end of one of the user's tokens or log-ins, when
/// it is `own`; else a 404 that tells nothing of other accounts'.
async fn end_own(
    hub: &Hub,
    own: bool,
    what: &str,
    change: AccountChange,
) -> Result<Json<Value>, Refusal> {
    if !own {
        return Err(Refusal::NotFound(
            Said::new("server-refusal-no-such-yours").with("what", what),
        ));
    }
    hub.writer.write(vec![Change::Account(change)]).await?;
    Ok(Json(json!({"ok": true})))
}

/// The preferences as lichess's `GET /api/account/preferences` gives them.
fn preferences_json(prefs: &preferences::Preferences) -> Value {
    let mut answer = json!({"prefs": prefs});
    match prefs.language {
        Language::Auto => {}
        language => answer["language"] = json!(language),
    }
    answer
}

/// `GET /api/account/preferences`: the account's page preferences (a
/// log-in or a personal API token).
async fn preferences(
    State(hub): State<Arc<Hub>>,
    Extension(ClientIp(ip)): Extension<ClientIp>,
    headers: HeaderMap,
) -> Result<Json<Value>, Refusal> {
    let holder = token_user(&hub, ip, &headers).await?;
    let prefs = preferences::of(hub.store(), &holder.user.id).await?;
    Ok(Json(preferences_json(&prefs)))
}

/// `PUT /api/account/preferences` `{field: value, ...}`: sets the fields
/// named (a log-in: the account's own settings); answers all of them.
async fn set_preferences(
    State(hub): State<Arc<Hub>>,
    Extension(ClientIp(ip)): Extension<ClientIp>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<Value>, Refusal> {
    let user = logged_in(&hub, ip, &headers).await?;
    let change: Value = json_body(&body)?;
    let prefs = preferences::of(hub.store(), &user.id)
        .await?
        .changed(&change)
        .map_err(|e| Refusal::Malformed(e.into()))?;
    preferences::set(&hub.writer, &user.id, &prefs).await?;
    Ok(Json(preferences_json(&prefs)))
}

/// `GET /api/account/sessions`: the logged-in user's log-ins that have
/// not ended, most recently used first; `current` marks this one.
async fn sessions(
    State(hub): State<Arc<Hub>>,
    Extension(ClientIp(ip)): Extension<ClientIp>,
    headers: HeaderMap,
) -> Result<Json<Value>, Refusal> {
    let (user, this) = current_session(&hub, ip, &headers).await?;
    let now = now_ms();
    let listed: Vec<Value> = hub
        .store()
        .sessions_of(&user.id)
        .await?
        .into_iter()
        .filter(|s| session_alive(hub.limits(), s, now))
        .map(|s| {
            let current = s.hash == this.hash;
            json!({"hash": s.hash, "created_ms": s.created_ms, "seen_ms": s.seen_ms,
                   "agent": s.agent, "current": current})
        })
        .collect();
    Ok(Json(Value::Array(listed)))
}

/// `DELETE /api/account/sessions/{hash}`: logs out one of the user's
/// sessions (another browser's, or this one).
async fn end_session(
    State(hub): State<Arc<Hub>>,
    Extension(ClientIp(ip)): Extension<ClientIp>,
    Path(hash): Path<String>,
    headers: HeaderMap,
) -> Result<Json<Value>, Refusal> {
    let user = logged_in(&hub, ip, &headers).await?;
    let own = hub.store().sessions_of(&user.id).await?;
    let own = own.iter().any(|s| s.hash == hash);
    end_own(
        &hub,
        own,
        "log-in",
        AccountChange::EndSession { token_hash: hash },
    )
    .await
}

/// A user as lichess's `GET /api/account` and `GET /api/user/{name}`
/// show one, with a perf per rated variant; the page reads the same.
pub async fn user_json(hub: &Hub, user: &UserRow, origin: Option<&str>) -> Result<Value, Refusal> {
    let mut perfs = serde_json::Map::new();
    for (variant, rating) in hub.store().ratings(&user.id).await? {
        perfs.insert(
            variant_key(&variant).to_string(),
            json!({
                "games": rating.games,
                "rating": rating.shown(),
                "rd": rating.deviation.round() as i64,
                "prog": 0,
                "prov": rating.provisional(),
            }),
        );
    }
    let mut value = json!({
        "id": user.id,
        "username": user.name,
        "perfs": perfs,
        "createdAt": user.created_ms,
        "seenAt": crate::game::event::now_ms(),
        "playTime": {"total": 0, "tv": 0},
        "online": true,
    });
    if user.bot {
        value["title"] = json!("BOT");
    }
    if let Some(origin) = origin {
        value["url"] = json!(format!("{origin}/@/{}", user.name));
    }
    Ok(value)
}
