//! The part of lichess's API that its clients (berserk, lichess-bot) need,
//! in lichess's shapes, authenticated by personal API tokens
//! (`docs/protocol.md`, "The lichess-compatible API").

use std::collections::BTreeMap;
use std::net::IpAddr;
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{Extension, State};
use axum::http::header::AUTHORIZATION;
use axum::http::HeaderMap;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::{json, Value};

use crate::edge::{ClientIp, PublicOrigin};
use crate::error::ApiError;
use crate::hub::Hub;
use crate::secret;
use crate::store::UserRow;

pub fn routes() -> Router<Arc<Hub>> {
    Router::new()
        .route("/api/token/test", post(token_test))
        .route("/api/account", get(account))
        // Lichess's export is our PGN (`GET /api/games/{id}/pgn`).
        .route("/game/export/{id}", get(crate::api::pgn))
}

/// The holder of a personal API token and the token's scopes.
pub struct TokenUser {
    pub user: UserRow,
    pub scopes: Vec<String>,
}

/// The user of the request's `Authorization: Bearer` personal API token;
/// a missing or unknown token is a 401 (and counts as a failed attempt).
pub async fn token_user(hub: &Hub, ip: IpAddr, headers: &HeaderMap) -> Result<TokenUser, ApiError> {
    let token = headers
        .get(AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(str::trim)
        .filter(|t| !t.is_empty() && t.len() <= 128)
        .ok_or_else(|| ApiError::Unauthorized("a personal API token is needed".into()))?;
    match hub.store().api_token(&secret::token_hash(token)).await? {
        Some((user, scopes)) => Ok(TokenUser {
            user,
            scopes: scopes.split(',').map(str::to_string).collect(),
        }),
        None => Err(hub
            .quotas()
            .auth_failure(ip, ApiError::Unauthorized("no such token".into()))),
    }
}

/// `POST /api/token/test`: for each comma-separated token of the body,
/// its scopes and user, or null.
async fn token_test(State(hub): State<Arc<Hub>>, body: Bytes) -> Result<Json<Value>, ApiError> {
    let text = std::str::from_utf8(&body)
        .map_err(|_| ApiError::BadRequest("the body is tokens separated by commas".into()))?;
    let mut answer = BTreeMap::new();
    for token in text
        .split(',')
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .take(100)
    {
        let known = match token.len() <= 128 {
            true => hub.store().api_token(&secret::token_hash(token)).await?,
            false => None,
        };
        let info = known
            .map(|(user, scopes)| json!({"scopes": scopes, "userId": user.id, "expires": null}));
        answer.insert(token.to_string(), info.unwrap_or(Value::Null));
    }
    Ok(Json(json!(answer)))
}

/// A user as lichess's `GET /api/account` and `GET /api/user/{name}` show one.
pub fn user_json(user: &UserRow, origin: Option<&str>) -> Value {
    let mut value = json!({
        "id": user.id,
        "username": user.name,
        "perfs": {},
        "createdAt": user.created_ms,
        "seenAt": crate::event::now_ms(),
        "playTime": {"total": 0, "tv": 0},
    });
    if user.bot {
        value["title"] = json!("BOT");
    }
    if let Some(origin) = origin {
        value["url"] = json!(format!("{origin}/@/{}", user.name));
    }
    value
}

/// `GET /api/account`: the token's user.
async fn account(
    State(hub): State<Arc<Hub>>,
    Extension(ClientIp(ip)): Extension<ClientIp>,
    Extension(PublicOrigin(origin)): Extension<PublicOrigin>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    let holder = token_user(&hub, ip, &headers).await?;
    Ok(Json(user_json(&holder.user, origin.as_deref())))
}
