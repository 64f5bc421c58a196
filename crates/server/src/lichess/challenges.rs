//! Challenges (`/api/challenge/...`), games against our engine
//! (`/api/challenge/ai`), lichess's board seek, and the page's lobby of
//! open seeks (`/api/lobby/seeks`).

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::{Extension, Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, get, post};
use axum::{Json, Router};
use serde_json::{json, Value};

use super::events::challenge_event;
use super::game::{view_of, KEEPALIVE};
use super::{fields, token_user};
use crate::accounts::events::AccountEvent;
use crate::base::refusal::{Refusal, Said};
use crate::game::event::LiveClock;
use crate::game::state::variant_id;
use crate::http::edge::{ClientIp, PublicOrigin};
use crate::hub::lobby::{SeekRequest, Sought, Terms, SEEK_LIFETIME};
use crate::hub::new_game::ColorChoice;
use crate::hub::players::{Pairing, Player};
use crate::hub::Hub;

/// The longest a board seek's request may stay open.
const BOARD_SEEK_LIFETIME: Duration = Duration::from_secs(60 * 60);

pub fn routes() -> Router<Arc<Hub>> {
    Router::new()
        .route("/api/challenge", get(list))
        .route("/api/challenge/ai", post(ai))
        .route("/api/challenge/{name}", post(challenge))
        .route("/api/challenge/{id}/accept", post(accept))
        .route("/api/challenge/{id}/decline", post(decline))
        .route("/api/challenge/{id}/cancel", post(cancel))
        .route("/api/board/seek", post(board_seek))
        .route("/api/lobby/seeks", get(seeks).post(page_seek))
        .route("/api/lobby/seeks/{id}/accept", post(accept_seek))
        .route("/api/lobby/seeks/{id}", delete(cancel_seek))
}

fn flag(given: &HashMap<String, String>, key: &str) -> Result<bool, Refusal> {
    match given.get(key).map(String::as_str) {
        None | Some("false") => Ok(false),
        Some("true") => Ok(true),
        Some(other) => Err(Refusal::Malformed(
            Said::new("server-refusal-true-false-not")
                .with("key", key)
                .with("other", format!("{:?}", other)),
        )),
    }
}

fn number<T: std::str::FromStr>(
    given: &HashMap<String, String>,
    key: &str,
) -> Result<Option<T>, Refusal> {
    given
        .get(key)
        .map(|text| {
            text.parse().map_err(|_| {
                Refusal::Malformed(
                    Said::new("server-refusal-must-whole-number-not")
                        .with("key", key)
                        .with("text", format!("{:?}", text)),
                )
            })
        })
        .transpose()
}

fn color(given: &HashMap<String, String>) -> Result<ColorChoice, Refusal> {
    match given.get("color").map(String::as_str) {
        None | Some("random") => Ok(ColorChoice::Random),
        Some("white") => Ok(ColorChoice::White),
        Some("black") => Ok(ColorChoice::Black),
        Some(other) => Err(Refusal::Malformed(
            Said::new("server-refusal-color-white-black-random-not")
                .with("other", format!("{:?}", other)),
        )),
    }
}

/// The terms of lichess's challenge fields: `variant`, `rated`,
/// `clock.limit` and `clock.increment` (seconds) or `days`, `color`, `fen`.
fn challenge_terms(given: &HashMap<String, String>) -> Result<Terms, Refusal> {
    let limit: Option<u32> = number(given, "clock.limit")?;
    let increment: Option<u32> = number(given, "clock.increment")?;
    let clock = match (limit, increment) {
        (None, None) => None,
        (limit, increment) => Some(LiveClock {
            initial: limit.unwrap_or(0),
            increment: increment.unwrap_or(0),
        }),
    };
    let fen = given.get("fen").filter(|f| !f.trim().is_empty()).cloned();
    Ok(Terms {
        variant: variant_id(given.get("variant").map_or("standard", String::as_str)).to_string(),
        clock,
        days: number(given, "days")?,
        rated: flag(given, "rated")?,
        color: color(given)?,
        fen,
    })
}

/// `GET /api/challenge`: the account's open challenges, in and out.
async fn list(
    State(hub): State<Arc<Hub>>,
    Extension(ClientIp(ip)): Extension<ClientIp>,
    Extension(PublicOrigin(origin)): Extension<PublicOrigin>,
    headers: HeaderMap,
) -> Result<Json<Value>, Refusal> {
    let holder = token_user(&hub, ip, &headers).await?;
    let me = holder.user.id;
    let (mut incoming, mut outgoing) = (Vec::new(), Vec::new());
    for c in hub.matchmaking().open_challenges_of(&me).await? {
        let event = challenge_event(&hub, "challenge", &c, origin.as_deref(), &me);
        match c.challenger.id == me {
            true => outgoing.push(event["challenge"].clone()),
            false => incoming.push(event["challenge"].clone()),
        }
    }
    Ok(Json(json!({"in": incoming, "out": outgoing})))
}

/// `POST /api/challenge/{username}`.
async fn challenge(
    State(hub): State<Arc<Hub>>,
    Extension(ClientIp(ip)): Extension<ClientIp>,
    Extension(PublicOrigin(origin)): Extension<PublicOrigin>,
    Path(name): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<Value>, Refusal> {
    let holder = token_user(&hub, ip, &headers).await?;
    let terms = challenge_terms(&fields(&headers, &body)?)?;
    let dest = hub
        .store()
        .user(&crate::accounts::user_id(&name))
        .await?
        .ok_or_else(|| {
            Refusal::NotFound(Said::new("server-refusal-no-user").with("name", &name))
        })?;
    let me = holder.user.id.clone();
    let c = hub
        .matchmaking()
        .challenge(holder.user, dest, terms)
        .await?;
    let event = challenge_event(&hub, "challenge", &c, origin.as_deref(), &me);
    Ok(Json(event["challenge"].clone()))
}

/// `POST /api/challenge/ai`: a game against our engine at `level` 1-8, begun at once.
async fn ai(
    State(hub): State<Arc<Hub>>,
    Extension(ClientIp(ip)): Extension<ClientIp>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, Refusal> {
    let holder = token_user(&hub, ip, &headers).await?;
    let given = fields(&headers, &body)?;
    let level: u8 = number(&given, "level")?
        .ok_or_else(|| Refusal::Malformed(Said::new("server-refusal-level-1-8-required")))?;
    let terms = challenge_terms(&given)?;
    // The same allowance as `POST /api/games` against the engine.
    hub.quotas().create_game(ip, true)?;
    let me_white = match terms.color {
        ColorChoice::White => true,
        ColorChoice::Black => false,
        ColorChoice::Random => rand::random::<bool>(),
    };
    let me = Player::Account(holder.user.clone());
    let engine = Player::Engine { level };
    let (white, black) = match me_white {
        true => (me, engine),
        false => (engine, me),
    };
    let game = hub
        .pair(Pairing {
            id: None,
            variant: terms.variant,
            clock: terms.clock,
            days: terms.days,
            white,
            black,
            rated: false,
            fen: terms.fen,
            by_tournament: false,
        })
        .await?;
    let seen = view_of(&hub, &holder.user.id, &game).await?;
    let view = &seen.view;
    let answer = json!({
        "id": game,
        "fullId": game,
        "variant": view.variant_json(),
        "speed": view.speed(),
        "perf": view.speed(),
        "rated": false,
        "source": "ai",
        "createdAt": seen.players.created_ms,
        "fen": seen.view.fen,
        "turns": 0,
        "status": {"id": 20, "name": "started"},
        "player": if me_white { "white" } else { "black" },
    });
    Ok((StatusCode::CREATED, Json(answer)).into_response())
}

async fn accept(
    State(hub): State<Arc<Hub>>,
    Extension(ClientIp(ip)): Extension<ClientIp>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<Value>, Refusal> {
    let holder = token_user(&hub, ip, &headers).await?;
    hub.matchmaking()
        .accept_challenge(&hub, &id, &holder.user.id)
        .await?;
    Ok(Json(json!({"ok": true})))
}

async fn decline(
    State(hub): State<Arc<Hub>>,
    Extension(ClientIp(ip)): Extension<ClientIp>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<Value>, Refusal> {
    let holder = token_user(&hub, ip, &headers).await?;
    let given = fields(&headers, &body)?;
    let reason = given.get("reason").map_or("generic", String::as_str);
    hub.matchmaking()
        .decline_challenge(&id, &holder.user.id, reason)
        .await?;
    Ok(Json(json!({"ok": true})))
}

async fn cancel(
    State(hub): State<Arc<Hub>>,
    Extension(ClientIp(ip)): Extension<ClientIp>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<Value>, Refusal> {
    let holder = token_user(&hub, ip, &headers).await?;
    hub.matchmaking()
        .cancel_challenge(&id, &holder.user.id)
        .await?;
    Ok(Json(json!({"ok": true})))
}

/// A rating range `LOW-HIGH`.
fn rating_range(text: Option<&String>) -> Result<Option<(i64, i64)>, Refusal> {
    let Some(text) = text.filter(|t| !t.is_empty()) else {
        return Ok(None);
    };
    let bad = || {
        Refusal::Malformed(
            Said::new("server-refusal-ratingrange-low-high-not")
                .with("text", format!("{:?}", text)),
        )
    };
    let (low, high) = text.split_once('-').ok_or_else(bad)?;
    let (low, high): (i64, i64) = (
        low.trim().parse().map_err(|_| bad())?,
        high.trim().parse().map_err(|_| bad())?,
    );
    if low > high {
        return Err(bad());
    }
    Ok(Some((low, high)))
}

/// `POST /api/board/seek`: `time` (minutes) and `increment` (seconds), or
/// `days`; `variant`, `rated`, `color`, `ratingRange`. A real-time seek
/// lives while the request is open (empty lines) and ends it when its
/// game begins (`gameStart` on the event stream); a correspondence seek
/// answers its id at once and waits in the lobby.
async fn board_seek(
    State(hub): State<Arc<Hub>>,
    Extension(ClientIp(ip)): Extension<ClientIp>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, Refusal> {
    let holder = token_user(&hub, ip, &headers).await?;
    let given = fields(&headers, &body)?;
    let minutes: Option<f64> = given
        .get("time")
        .map(|t| {
            t.parse().map_err(|_| {
                Refusal::Malformed(
                    Said::new("server-refusal-time-minutes-not").with("t", format!("{:?}", t)),
                )
            })
        })
        .transpose()?;
    let days: Option<u32> = number(&given, "days")?;
    let clock = match (minutes, days) {
        (Some(minutes), None) => Some(LiveClock {
            initial: (minutes * 60.0).round().clamp(0.0, f64::from(u32::MAX)) as u32,
            increment: number(&given, "increment")?.unwrap_or(0),
        }),
        (None, Some(_)) => None,
        _ => {
            return Err(Refusal::Malformed(Said::new(
                "server-refusal-give-time-increment-days",
            )))
        }
    };
    let terms = Terms {
        variant: variant_id(given.get("variant").map_or("standard", String::as_str)).to_string(),
        clock,
        days,
        rated: flag(&given, "rated")?,
        color: color(&given)?,
        fen: None,
    };
    // A real-time seek lives as long as its request.
    let attached = clock.is_some();
    let request = SeekRequest {
        terms,
        rating_range: rating_range(given.get("ratingRange"))?,
        lifetime: if attached {
            BOARD_SEEK_LIFETIME
        } else {
            SEEK_LIFETIME
        },
    };
    let user_id = holder.user.id.clone();
    // Subscribed before seeking, so that the game's start is not missed
    // (it may begin on another node: account events reach every node).
    let mut events = hub.notices().account_events().subscribe(&user_id);
    let id = match hub.matchmaking().seek(&hub, holder.user, request).await? {
        Sought::Paired { .. } => return Ok(Json(json!({"ok": true})).into_response()),
        Sought::Open { id } if !attached => return Ok(Json(json!({"id": id})).into_response()),
        Sought::Open { id } => id,
    };
    let withdraw = WithdrawOnDrop {
        hub: hub.clone(),
        seek: id,
        user_id,
    };
    // Ends when a game of the seeker begins; a client that hangs up
    // drops `withdraw`, which withdraws the seek.
    let source = futures_util::stream::once(async move {
        let _withdraw = withdraw;
        loop {
            match events.recv().await {
                Ok(AccountEvent::GameStart { .. }) => break,
                Err(tokio::sync::broadcast::error::RecvError::Closed) => break,
                _ => {}
            }
        }
        Vec::new()
    });
    Ok(crate::http::ndjson::stream(
        KEEPALIVE,
        source,
        hub.shutdown().begun(),
    ))
}

/// Withdraws an open board seek when its request ends; after its game
/// began, the seek is already gone and this does nothing.
struct WithdrawOnDrop {
    hub: Arc<Hub>,
    seek: String,
    user_id: String,
}

impl Drop for WithdrawOnDrop {
    fn drop(&mut self) {
        let (hub, seek, user_id) = (self.hub.clone(), self.seek.clone(), self.user_id.clone());
        tokio::spawn(async move {
            let _ = hub.matchmaking().cancel_seek(&seek, &user_id).await;
        });
    }
}

/// `GET /api/lobby/seeks`: the open seeks, oldest first.
async fn seeks(State(hub): State<Arc<Hub>>) -> Result<Json<Value>, Refusal> {
    Ok(Json(json!(hub.matchmaking().open_seeks().await?)))
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct PageSeek {
    variant: String,
    #[serde(default)]
    clock: Option<LiveClock>,
    #[serde(default)]
    days: Option<u32>,
    #[serde(default)]
    rated: bool,
    #[serde(default = "random")]
    color: ColorChoice,
    #[serde(default)]
    rating_range: Option<(i64, i64)>,
}

fn random() -> ColorChoice {
    ColorChoice::Random
}

/// `POST /api/lobby/seeks` (JSON): a seek from the page, or a game at once
/// when an open seek fits (quick pairing).
async fn page_seek(
    State(hub): State<Arc<Hub>>,
    Extension(ClientIp(ip)): Extension<ClientIp>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<Value>, Refusal> {
    let holder = token_user(&hub, ip, &headers).await?;
    let seek: PageSeek = serde_json::from_slice(&body)
        .map_err(|e| Refusal::Malformed(Said::new("server-refusal-bad-json").with("e", &e)))?;
    let request = SeekRequest {
        terms: Terms {
            variant: seek.variant,
            clock: seek.clock,
            days: seek.days,
            rated: seek.rated,
            color: seek.color,
            fen: None,
        },
        rating_range: seek.rating_range,
        lifetime: SEEK_LIFETIME,
    };
    Ok(Json(
        match hub.matchmaking().seek(&hub, holder.user, request).await? {
            Sought::Paired { game } => json!({"game": game}),
            Sought::Open { id } => json!({"id": id}),
        },
    ))
}

async fn accept_seek(
    State(hub): State<Arc<Hub>>,
    Extension(ClientIp(ip)): Extension<ClientIp>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<Value>, Refusal> {
    let holder = token_user(&hub, ip, &headers).await?;
    let game = hub
        .matchmaking()
        .accept_seek(&hub, &id, holder.user)
        .await?;
    Ok(Json(json!({"game": game})))
}

async fn cancel_seek(
    State(hub): State<Arc<Hub>>,
    Extension(ClientIp(ip)): Extension<ClientIp>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<Value>, Refusal> {
    let holder = token_user(&hub, ip, &headers).await?;
    hub.matchmaking().cancel_seek(&id, &holder.user.id).await?;
    Ok(Json(json!({"ok": true})))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn given(pairs: &[(&str, &str)]) -> HashMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn challenge_fields_read_as_lichess_writes_them() {
        let t = challenge_terms(&given(&[
            ("rated", "true"),
            ("clock.limit", "300"),
            ("clock.increment", "3"),
            ("color", "black"),
            ("variant", "standard"),
        ]))
        .unwrap();
        assert_eq!(t.variant, "chess");
        assert!(t.rated);
        assert_eq!(
            t.clock,
            Some(LiveClock {
                initial: 300,
                increment: 3
            })
        );
        assert_eq!(t.color, ColorChoice::Black);
        let t = challenge_terms(&given(&[("days", "3"), ("variant", "parity")])).unwrap();
        assert_eq!(
            (t.variant.as_str(), t.days, t.clock),
            ("parity", Some(3), None)
        );
        assert!(challenge_terms(&given(&[("rated", "yes")])).is_err());
        assert!(challenge_terms(&given(&[("clock.limit", "five")])).is_err());
        assert!(challenge_terms(&given(&[("color", "green")])).is_err());
        assert_eq!(
            rating_range(Some(&"1500-1800".to_string())).unwrap(),
            Some((1500, 1800))
        );
        assert!(rating_range(Some(&"1800-1500".to_string())).is_err());
    }
}
