//! The part of lichess's API that its clients (berserk, lichess-bot) need,
//! in lichess's shapes, authenticated by personal API tokens (or the
//! page's log-in session): accounts, the event stream, challenges and
//! seeks, the Board and Bot game streams and actions, chat, export
//! (`docs/protocol.md`, "The lichess-compatible API").

mod challenges;
mod events;
mod game;
pub mod shapes;

use std::collections::{BTreeMap, HashMap};
use std::net::IpAddr;
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{Extension, Path, Query, State};
use axum::http::header::{ACCEPT, AUTHORIZATION, CONTENT_TYPE, COOKIE};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::{json, Value};

use crate::edge::{ClientIp, PublicOrigin};
use crate::error::ApiError;
use crate::hub::Hub;
use crate::secret;
use crate::store::UserRow;

/// The page's log-in cookie (`crate::accounts`).
pub const SESSION_COOKIE: &str = "parity_session";

pub fn routes() -> Router<Arc<Hub>> {
    Router::new()
        .route("/api/token/test", post(token_test))
        .route("/api/account", get(account))
        .route("/api/account/playing", get(playing))
        .route("/api/user/{name}", get(user))
        .route("/api/users/status", get(users_status))
        .route("/api/bot/account/upgrade", post(upgrade))
        .route("/game/export/{id}", get(export))
        .merge(events::routes())
        .merge(challenges::routes())
        .merge(game::routes())
}

/// An account a request proves, and how.
pub struct Holder {
    pub user: UserRow,
    /// The personal API token's scopes; all of them for a log-in session.
    pub scopes: Vec<String>,
}

impl Holder {
    /// `bot:play` on a bot account, as lichess's Bot API requires.
    pub fn check_bot(&self) -> Result<(), ApiError> {
        if !self.user.bot {
            return Err(ApiError::Forbidden(
                "the Bot API is for bot accounts (`parity user add NAME --bot`)".into(),
            ));
        }
        if !self.scopes.iter().any(|s| s == "bot:play") {
            return Err(ApiError::Forbidden(
                "this token lacks the scope bot:play".into(),
            ));
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
pub async fn holder(
    hub: &Hub,
    ip: IpAddr,
    headers: &HeaderMap,
) -> Result<Option<Holder>, ApiError> {
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
            None => Err(hub
                .quotas()
                .auth_failure(ip, ApiError::Unauthorized("no such token".into()))),
        };
    }
    if session_token(headers).is_none() {
        return Ok(None);
    }
    let user = crate::sessions::logged_in(hub, ip, headers).await?;
    Ok(Some(Holder {
        user,
        scopes: crate::accounts::SCOPES
            .iter()
            .map(|s| s.to_string())
            .collect(),
    }))
}

/// The account of the request, which must have one.
pub async fn token_user(hub: &Hub, ip: IpAddr, headers: &HeaderMap) -> Result<Holder, ApiError> {
    holder(hub, ip, headers)
        .await?
        .ok_or_else(|| ApiError::Unauthorized("a personal API token or a log-in is needed".into()))
}

/// The fields of a form or JSON body (lichess takes both; JSON `null`
/// is a field not given).
pub fn fields(headers: &HeaderMap, body: &Bytes) -> Result<HashMap<String, String>, ApiError> {
    let is_json = headers
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if is_json {
        let value: Value = serde_json::from_slice(body)
            .map_err(|e| ApiError::BadRequest(format!("bad JSON: {e}")))?;
        let object = value
            .as_object()
            .ok_or_else(|| ApiError::BadRequest("the body must be a JSON object".into()))?;
        return Ok(object
            .iter()
            .filter_map(|(k, v)| {
                let text = match v {
                    Value::Null => return None,
                    Value::String(s) => s.clone(),
                    other => other.to_string(),
                };
                Some((k.clone(), text))
            })
            .collect());
    }
    Ok(form_urlencoded::parse(body)
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect())
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

/// A user as lichess's `GET /api/account` and `GET /api/user/{name}`
/// show one, with a perf per rated variant.
pub async fn user_json(hub: &Hub, user: &UserRow, origin: Option<&str>) -> Result<Value, ApiError> {
    let mut perfs = serde_json::Map::new();
    for (variant, rating) in hub.store().ratings(&user.id).await? {
        perfs.insert(
            shapes::variant_key(&variant).to_string(),
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
        "seenAt": crate::event::now_ms(),
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

/// `GET /api/account`: the token's user.
async fn account(
    State(hub): State<Arc<Hub>>,
    Extension(ClientIp(ip)): Extension<ClientIp>,
    Extension(PublicOrigin(origin)): Extension<PublicOrigin>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    let holder = token_user(&hub, ip, &headers).await?;
    Ok(Json(
        user_json(&hub, &holder.user, origin.as_deref()).await?,
    ))
}

/// `GET /api/user/{name}`: anyone's public profile.
async fn user(
    State(hub): State<Arc<Hub>>,
    Extension(PublicOrigin(origin)): Extension<PublicOrigin>,
    Path(name): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let user = hub
        .store()
        .user(&crate::accounts::user_id(&name))
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("no user {name}")))?;
    Ok(Json(user_json(&hub, &user, origin.as_deref()).await?))
}

/// `GET /api/users/status?ids=a,b`: known users, all shown online (a bot
/// whose status is not online restarts itself, lichess-bot does).
async fn users_status(
    State(hub): State<Arc<Hub>>,
    Query(query): Query<HashMap<String, String>>,
) -> Result<Json<Value>, ApiError> {
    let ids = query.get("ids").map(String::as_str).unwrap_or_default();
    let mut list = Vec::new();
    for id in ids.split(',').filter(|s| !s.is_empty()).take(100) {
        if let Some(user) = hub.store().user(&crate::accounts::user_id(id)).await? {
            let mut entry = json!({"id": user.id, "name": user.name, "online": true});
            if user.bot {
                entry["title"] = json!("BOT");
            }
            list.push(entry);
        }
    }
    Ok(Json(Value::Array(list)))
}

/// `POST /api/bot/account/upgrade`: accounts are made bots by the
/// operator (`parity user add NAME --bot`); a bot is already one.
async fn upgrade(
    State(hub): State<Arc<Hub>>,
    Extension(ClientIp(ip)): Extension<ClientIp>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    let holder = token_user(&hub, ip, &headers).await?;
    match holder.user.bot {
        true => Ok(Json(json!({"ok": true}))),
        false => Err(ApiError::BadRequest(
            "only the operator makes bot accounts here: parity user add NAME --bot".into(),
        )),
    }
}

/// `GET /api/account/playing`: the account's unfinished games, its turn first.
async fn playing(
    State(hub): State<Arc<Hub>>,
    Extension(ClientIp(ip)): Extension<ClientIp>,
    Query(query): Query<HashMap<String, String>>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    let holder = token_user(&hub, ip, &headers).await?;
    let nb = query
        .get("nb")
        .and_then(|n| n.parse::<u32>().ok())
        .unwrap_or(9)
        .clamp(1, 50);
    let mut now_playing = Vec::new();
    for game in hub
        .store()
        .user_games(&holder.user.id, true, nb, None)
        .await?
    {
        let view = game::view_of(&hub, ip, &holder.user.id, &game.id).await?;
        now_playing.push(view.event_game(&game.color));
    }
    now_playing.sort_by_key(|g| !g["isMyTurn"].as_bool().unwrap_or(false));
    let my_turn = now_playing.iter().filter(|g| g["isMyTurn"] == true).count();
    Ok(Json(
        json!({"nbMyTurn": my_turn, "nowPlaying": now_playing}),
    ))
}

/// `GET /game/export/{id}`: the PGN, or with `Accept: application/json`
/// lichess's game JSON.
async fn export(
    State(hub): State<Arc<Hub>>,
    Extension(ClientIp(ip)): Extension<ClientIp>,
    origin: Extension<PublicOrigin>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let wants_json = headers
        .get(ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.contains("application/json"));
    if !wants_json {
        return crate::api::pgn(State(hub), origin, Path(id)).await;
    }
    let view = game::view_of(&hub, ip, "", &id).await?;
    Ok(Json(view.export_json()).into_response())
}
