//! The part of lichess's API that its clients (berserk, lichess-bot) need,
//! in lichess's shapes, authenticated by personal API tokens (or the
//! page's log-in session): accounts, the event stream, challenges and
//! seeks, the Board and Bot game streams and actions, chat, export
//! (`docs/protocol.md`, "The lichess-compatible API").

mod challenges;
mod events;
mod game;
pub mod shapes;
mod tournaments;

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{Extension, Path, Query, State};
use axum::http::header::{ACCEPT, CONTENT_TYPE};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::{json, Value};

use crate::base::refusal::{Refusal, Said};
use crate::base::secret;
use crate::http::auth::token_user;
use crate::http::edge::{ClientIp, PublicOrigin};
use crate::http::profiles::user_json;
use crate::hub::Hub;

pub fn routes(tournaments: Arc<crate::tournament::Tournaments>) -> Router<Arc<Hub>> {
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
        .merge(tournaments::routes(tournaments))
}

/// The fields of a form or JSON body (lichess takes both; JSON `null`
/// is a field not given).
pub fn fields(headers: &HeaderMap, body: &Bytes) -> Result<HashMap<String, String>, Refusal> {
    let is_json = headers
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if is_json {
        let value: Value = serde_json::from_slice(body)
            .map_err(|e| Refusal::Malformed(Said::new("server-refusal-bad-json").with("e", &e)))?;
        let object = value
            .as_object()
            .ok_or_else(|| Refusal::Malformed(Said::new("server-refusal-body-must-json-object")))?;
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
async fn token_test(State(hub): State<Arc<Hub>>, body: Bytes) -> Result<Json<Value>, Refusal> {
    let text = std::str::from_utf8(&body).map_err(|_| {
        Refusal::Malformed(Said::new("server-refusal-body-tokens-separated-commas"))
    })?;
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

/// `GET /api/account`: the token's user.
async fn account(
    State(hub): State<Arc<Hub>>,
    Extension(ClientIp(ip)): Extension<ClientIp>,
    Extension(PublicOrigin(origin)): Extension<PublicOrigin>,
    headers: HeaderMap,
) -> Result<Json<Value>, Refusal> {
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
) -> Result<Json<Value>, Refusal> {
    let user = hub
        .store()
        .user(&crate::accounts::user_id(&name))
        .await?
        .ok_or_else(|| {
            Refusal::NotFound(Said::new("server-refusal-no-user").with("name", &name))
        })?;
    Ok(Json(user_json(&hub, &user, origin.as_deref()).await?))
}

/// `GET /api/users/status?ids=a,b`: known users, all shown online (a bot
/// whose status is not online restarts itself, lichess-bot does).
async fn users_status(
    State(hub): State<Arc<Hub>>,
    Query(query): Query<HashMap<String, String>>,
) -> Result<Json<Value>, Refusal> {
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
) -> Result<Json<Value>, Refusal> {
    let holder = token_user(&hub, ip, &headers).await?;
    match holder.user.bot {
        true => Ok(Json(json!({"ok": true}))),
        false => Err(Refusal::Malformed(Said::new(
            "server-refusal-only-operator-makes-bot-accounts",
        ))),
    }
}

/// `GET /api/account/playing`: the account's unfinished games, its turn first.
async fn playing(
    State(hub): State<Arc<Hub>>,
    Extension(ClientIp(ip)): Extension<ClientIp>,
    Query(query): Query<HashMap<String, String>>,
    headers: HeaderMap,
) -> Result<Json<Value>, Refusal> {
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
        let view = game::view_of(&hub, &holder.user.id, &game.id).await?;
        now_playing.push(view.event_game(game.color));
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
    origin: Extension<PublicOrigin>,
    Path(id): Path<String>,
    query: Query<HashMap<String, String>>,
    headers: HeaderMap,
) -> Result<Response, Refusal> {
    let wants_json = headers
        .get(ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.contains("application/json"));
    if !wants_json {
        return crate::http::api::pgn(State(hub), origin, Path(id), query).await;
    }
    let view = game::view_of(&hub, "", &id).await?;
    let mut json = view.export_json();
    if let Some(tournament) = hub.store().tournament_of_game(&id).await? {
        json["tournament"] = json!(tournament);
    }
    if crate::http::api::wants_evals(&query) {
        if let Some(review) = hub.review(&id).await? {
            shapes::add_analysis(&mut json, &review);
        }
    }
    Ok(Json(json).into_response())
}
