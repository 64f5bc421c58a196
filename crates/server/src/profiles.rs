//! What the profile page shows (`/@/{name}`): a user's rating history
//! and games, and, on one's own profile, one's personal API tokens
//! (`docs/server.md`, "Accounts on the page").

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{Extension, Path, Query, State};
use axum::http::HeaderMap;
use axum::routing::{delete, get};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{json, Value};

use crate::accounts;
use crate::edge::ClientIp;
use crate::error::ApiError;
use crate::hub::Hub;
use crate::sessions::logged_in;
use crate::store::{AccountChange, Change, UserRow};

/// Games a profile lists at most at once (a page; the next with `before`).
const MAX_GAMES: u32 = 100;

pub fn routes() -> Router<Arc<Hub>> {
    Router::new()
        .route("/api/user/{name}/rating-history", get(rating_history))
        .route("/api/user/{name}/games", get(games))
        .route("/api/account/tokens", get(tokens).post(new_token))
        .route("/api/account/tokens/{hash}", delete(revoke))
}

async fn user_named(hub: &Hub, name: &str) -> Result<UserRow, ApiError> {
    hub.store()
        .user(&accounts::user_id(name))
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("no user {name}")))
}

/// `GET /api/user/{name}/rating-history`: the rating after each rated
/// game, oldest first.
async fn rating_history(
    State(hub): State<Arc<Hub>>,
    Path(name): Path<String>,
) -> Result<Json<Value>, ApiError> {
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
) -> Result<Json<Value>, ApiError> {
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
                    ApiError::BadRequest(format!("before is a game's cursor MS:ID, not {cursor:?}"))
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
) -> Result<Json<Value>, ApiError> {
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
) -> Result<Json<Value>, ApiError> {
    let user = logged_in(&hub, ip, &headers).await?;
    let asked: NewToken = serde_json::from_slice(&body)
        .map_err(|e| ApiError::BadRequest(format!("bad JSON: {e}")))?;
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
) -> Result<Json<Value>, ApiError> {
    let user = logged_in(&hub, ip, &headers).await?;
    let own = hub.store().api_tokens_of(&user.id).await?;
    if !own.iter().any(|t| t.hash == hash) {
        return Err(ApiError::NotFound("no such token of yours".into()));
    }
    hub.writer
        .write(vec![Change::Account(AccountChange::RevokeApiToken {
            token_hash: hash,
        })])
        .await?;
    Ok(Json(json!({"ok": true})))
}
