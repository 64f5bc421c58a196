//! The HTTP and WebSocket API (`docs/server.md`, "HTTP and WebSocket API").

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use axum::extract::{Extension, Path, Query, State};
use axum::http::header::{AUTHORIZATION, CONTENT_TYPE, COOKIE, SET_COOKIE};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{any, get, post};
use axum::{Json, Router};
use futures_util::{SinkExt as _, StreamExt as _};
use parity_rules::Color;
use serde::Deserialize;
use tokio::sync::broadcast;
use tokio::sync::broadcast::error::{RecvError, TryRecvError};

use crate::base::metrics;
use crate::base::refusal::{Refusal, Said};
use crate::base::secret;
use crate::game::event::{EventLine, LiveClock, Logged, Side};
use crate::game::line::{Line, LineRequest};
use crate::game::state::{Action, GameFull, Status, VariantListing};
use crate::http::connections::ConnectionSlot;
use crate::http::edge::{ClientIp, PublicOrigin};
use crate::http::error::json_body;
use crate::hub::new_game::{ColorChoice, NewGame, Opponent};
use crate::hub::Hub;
use crate::round::msg::{Acted, Credentials, Presented};

/// Silence after which a stream sends an empty line.
const KEEPALIVE: Duration = Duration::from_secs(10);
/// A WebSocket message not taken by the client within this is dropped
/// with the socket: slow readers are cut off, not buffered for.
const SEND_TIMEOUT: Duration = Duration::from_secs(10);
/// Other games' seat cookies looked at, at most.
const MAX_COOKIES: usize = 64;
const COOKIE_PREFIX: &str = "parity_seat_";

/// The whole API; `adapters` are routes of the layers above (lichess's).
pub fn router(hub: Arc<Hub>, adapters: Router<Arc<Hub>>) -> Router {
    Router::new()
        .route("/api/variants", get(variants))
        .route("/api/i18n/{lang}", get(messages))
        .route("/api/variants/{id}/rules", get(variant_rules))
        .route("/api/key", get(public_key))
        .route("/api/games", get(list_games).post(create_game))
        .route("/api/games/{id}", get(game_full))
        .route("/api/games/{id}/join", post(join))
        .route("/api/games/{id}/record", get(record))
        .route("/api/games/{id}/pgn", get(pgn))
        .route("/api/games/{id}/positions", get(positions))
        .route(
            "/api/games/{id}/analysis",
            get(game_analysis).post(request_game_analysis),
        )
        .route("/api/analysis", post(analyse))
        .route("/api/analysis/line", post(analysis_line))
        .route("/api/games/{id}/read-move", get(read_move))
        .route("/api/games/{id}/stream", get(stream))
        .route("/api/board/game/{id}/move/{uci}", post(play_move))
        .route("/api/board/game/{id}/commit", post(commit))
        .route("/api/board/game/{id}/reveal", post(reveal))
        .route("/api/board/game/{id}/draw/{answer}", post(draw))
        .route("/api/board/game/{id}/rematch/{answer}", post(rematch))
        .route("/api/board/game/{id}/{action}", post(other_action))
        .route("/api/ws/game/{id}", get(websocket))
        .merge(adapters)
        .merge(crate::http::sessions::routes())
        .merge(crate::http::profiles::routes())
        .route(crate::cluster::node::PATH, post(crate::http::node::serve))
        .route("/api", any(no_such_endpoint))
        .route("/api/{*rest}", any(no_such_endpoint))
        .route_layer(axum::middleware::from_fn_with_state(
            hub.clone(),
            crate::http::auth::require_scope,
        ))
        .fallback(crate::http::assets::serve)
        .with_state(hub)
}

async fn no_such_endpoint() -> Refusal {
    Refusal::NotFound(Said::new("server-refusal-no-such-endpoint"))
}

fn json_text(status: StatusCode, text: String) -> Response {
    (status, [(CONTENT_TYPE, "application/json")], text).into_response()
}

fn present(token: &str, other_cookie: bool) -> Option<Presented> {
    // Tokens are 43 characters; anything much longer is not one.
    (!token.is_empty() && token.len() <= 128).then(|| Presented {
        token: token.to_string(),
        hash: secret::token_hash(token),
        other_cookie,
    })
}

/// The tokens a request carries: the Bearer token alone, or the cookie of
/// this game first and then other games' seat cookies (a rematch keeps
/// each player's token, so the old game's cookie opens the new seat).
fn seat_credentials(headers: &HeaderMap, id: &str) -> Credentials {
    let bearer = headers
        .get(AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "));
    if let Some(token) = bearer {
        return Credentials {
            tokens: present(token.trim(), false).into_iter().collect(),
            bearer: true,
        };
    }
    let own_name = format!("{COOKIE_PREFIX}{id}");
    let mut own = None;
    let mut others = Vec::new();
    let pairs = headers
        .get_all(COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='));
    for (name, value) in pairs {
        if name == own_name {
            own = present(value, false);
        } else if name.starts_with(COOKIE_PREFIX) && others.len() < MAX_COOKIES {
            others.extend(present(value, true));
        }
    }
    Credentials {
        tokens: own.into_iter().chain(others).collect(),
        bearer: false,
    }
}

/// The credentials of a request in game `id`: its seat tokens, and the
/// seat tokens of its account (a personal API token, or the page's
/// log-in session, which adds them to the seat cookies).
pub(crate) async fn credentials(
    hub: &Hub,
    ip: IpAddr,
    headers: &HeaderMap,
    id: &str,
) -> Result<Credentials, Refusal> {
    let api_token = headers
        .get(AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .is_some_and(|t| crate::http::auth::is_api_token(t.trim()));
    let seats = match api_token {
        true => Credentials::default(),
        false => seat_credentials(headers, id),
    };
    if seats.bearer {
        return Ok(seats);
    }
    match crate::http::auth::holder(hub, ip, headers).await? {
        Some(holder) => {
            let mut account = hub.keys().account_credentials(&holder.user.id, id);
            account.bearer = api_token;
            account.tokens.extend(seats.tokens);
            Ok(account)
        }
        None => Ok(seats),
    }
}

/// A viewer whose Bearer token or cookie for this game holds no seat has
/// failed to authenticate, and is counted so: the Bearer token is refused
/// (401), the cookie (perhaps a stale one) still lets it watch; past the
/// allowance both get a 429.
fn check_viewer(
    hub: &Hub,
    ip: IpAddr,
    credentials: &Credentials,
    seat: Option<Color>,
) -> Result<(), Refusal> {
    let claims_a_seat = credentials.bearer || credentials.tokens.iter().any(|p| !p.other_cookie);
    if seat.is_some() || !claims_a_seat {
        return Ok(());
    }
    let refusal = Refusal::Unauthenticated(Said::new("server-refusal-token-holds-no-seat-game"));
    match hub.quotas().auth_failure(ip, refusal) {
        Refusal::Unauthenticated(_) if !credentials.bearer => Ok(()),
        refused => Err(refused),
    }
}

/// The seat cookie of a game: the page keeps the token where scripts cannot read it.
fn seat_cookie(id: &str, token: &str) -> HeaderValue {
    let text =
        format!("{COOKIE_PREFIX}{id}={token}; Path=/; HttpOnly; SameSite=Strict; Max-Age=31536000");
    HeaderValue::from_str(&text).unwrap_or_else(|_| HeaderValue::from_static(""))
}

fn with_cookie(mut response: Response, id: &str, token: Option<&str>) -> Response {
    if let Some(token) = token {
        response
            .headers_mut()
            .append(SET_COOKIE, seat_cookie(id, token));
    }
    response
}

async fn variants(State(hub): State<Arc<Hub>>) -> Json<Vec<VariantListing>> {
    Json(hub.registry().iter().map(VariantListing::new).collect())
}

/// The page's words in one language (`base::i18n`).
async fn messages(Path(lang): Path<String>) -> Result<Json<serde_json::Value>, Refusal> {
    let catalogue = crate::base::i18n::catalogue();
    let messages = catalogue.page_messages(&lang).ok_or_else(|| {
        Refusal::NotFound(
            Said::new("server-refusal-no-language-known")
                .with("lang", format!("{:?}", lang))
                .with("LANGUAGES", crate::base::i18n::LANGUAGES.join(", ")),
        )
    })?;
    Ok(Json(
        serde_json::json!({"lang": lang, "messages": messages}),
    ))
}

/// The variant's rules page as HTML (`rules_page`), in the request's
/// language (`?lang=` or `Accept-Language`).
async fn variant_rules(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
) -> Result<Response, Refusal> {
    let lang = crate::base::i18n::current();
    let known = hub.registry().get(&id).is_some();
    let page = known
        .then(|| crate::http::rules_page::html(&id, lang))
        .flatten();
    let page = page.ok_or_else(|| {
        Refusal::NotFound(
            Said::new("server-refusal-no-rules-variant").with("id", format!("{:?}", id)),
        )
    })?;
    Ok(([(CONTENT_TYPE, "text/html; charset=utf-8")], page).into_response())
}

/// The key that checks the server's records (`parity verify --key`).
async fn public_key(State(hub): State<Arc<Hub>>) -> Json<serde_json::Value> {
    let key = crate::base::signing::key_text(&hub.keys().public_key());
    Json(serde_json::json!({"key": key, "algorithm": "ed25519"}))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CreateRequest {
    variant: String,
    #[serde(default)]
    clock: Option<LiveClock>,
    #[serde(default)]
    days: Option<u32>,
    opponent: serde_json::Value,
    #[serde(default = "random_color")]
    color: ColorChoice,
    #[serde(default)]
    public: bool,
    /// A start position other than the variant's (lichess's `fen`).
    #[serde(default)]
    fen: Option<String>,
}

fn random_color() -> ColorChoice {
    ColorChoice::Random
}

/// `"friend"` or `{"engine": {"level": N}}`.
fn opponent_of(value: &serde_json::Value) -> Result<Opponent, Refusal> {
    let level = value
        .get("engine")
        .and_then(|engine| engine.get("level"))
        .and_then(serde_json::Value::as_u64);
    match (value.as_str(), level) {
        (Some("friend"), _) => Ok(Opponent::Friend),
        (None, Some(level)) => Ok(Opponent::Engine {
            level: u8::try_from(level).unwrap_or(u8::MAX),
        }),
        _ => Err(Refusal::Malformed(
            Said::new("server-refusal-opponent-must-friend-not").with("value", value),
        )),
    }
}

async fn create_game(
    State(hub): State<Arc<Hub>>,
    Extension(ClientIp(ip)): Extension<ClientIp>,
    body: Bytes,
) -> Result<Response, Refusal> {
    let request: CreateRequest = json_body(&body)?;
    let opponent = opponent_of(&request.opponent)?;
    hub.quotas()
        .create_game(ip, matches!(opponent, Opponent::Engine { .. }))?;
    let created = hub
        .create(NewGame {
            variant: request.variant,
            clock: request.clock,
            days: request.days,
            opponent,
            color: request.color,
            public: request.public,
            fen: request.fen,
        })
        .await?;
    let response = (StatusCode::CREATED, Json(&created)).into_response();
    Ok(with_cookie(response, &created.id, Some(&created.token)))
}

async fn list_games(
    State(hub): State<Arc<Hub>>,
    Query(query): Query<HashMap<String, String>>,
) -> Result<Response, Refusal> {
    let finished = match query.get("status").map(String::as_str) {
        None | Some("live") => false,
        Some("finished") => true,
        Some(other) => {
            return Err(Refusal::Malformed(
                Said::new("server-refusal-status-must-live-finished-not")
                    .with("other", format!("{:?}", other)),
            ))
        }
    };
    Ok(Json(hub.list(finished).await?).into_response())
}

fn since_of(query: &HashMap<String, String>) -> Result<Option<u64>, Refusal> {
    query
        .get("since")
        .map(|s| {
            s.parse::<u64>().map_err(|_| {
                Refusal::Malformed(
                    Said::new("server-refusal-since-must-seq-number-not")
                        .with("s", format!("{:?}", s)),
                )
            })
        })
        .transpose()
}

async fn game_full(
    State(hub): State<Arc<Hub>>,
    Extension(ClientIp(ip)): Extension<ClientIp>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, Refusal> {
    let credentials = credentials(&hub, ip, &headers, &id).await?;
    let watching = hub.watch(&id, &credentials, None, true, false).await?;
    check_viewer(&hub, ip, &credentials, watching.seat)?;
    let full = watching.full.ok_or_else(|| {
        Refusal::Internal(Said::new("server-refusal-game-no-state").with("id", &id))
    })?;
    Ok(with_cookie(
        Json(full).into_response(),
        &id,
        watching.cookie.as_deref(),
    ))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct JoinRequest {
    invite: String,
}

async fn join(
    State(hub): State<Arc<Hub>>,
    Extension(ClientIp(ip)): Extension<ClientIp>,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Response, Refusal> {
    let request: JoinRequest = json_body(&body)?;
    let joined = hub.join(&id, &request.invite).await.map_err(|e| match e {
        Refusal::Forbidden(_) => hub.quotas().auth_failure(ip, e),
        e => e,
    })?;
    let response = Json(&joined).into_response();
    Ok(with_cookie(response, &id, Some(&joined.token)))
}

async fn record(State(hub): State<Arc<Hub>>, Path(id): Path<String>) -> Result<Response, Refusal> {
    Ok(json_text(StatusCode::OK, hub.record(&id).await?))
}

/// Longer than any move in any notation (`Pe4xPd5`, `O-O-O@c1`, ...).
const MAX_TYPED_MOVE: usize = 32;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ReadMoveQuery {
    color: Side,
    text: String,
}

/// Typed move text (coordinates, SAN or the lenient notation of the
/// variant literature) read against `color`'s legal moves now: its
/// coordinates and SAN, or why it is not a move here.
async fn read_move(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    Query(query): Query<ReadMoveQuery>,
) -> Result<Response, Refusal> {
    if query.text.len() > MAX_TYPED_MOVE {
        return Err(Refusal::Malformed(Said::new(
            "server-refusal-move-text-too-long",
        )));
    }
    let read = hub.read_move(&id, query.color.color(), &query.text).await?;
    Ok(Json(read).into_response())
}

/// The game's PGN; with its computer analysis' evaluations unless
/// `evals=false` (lichess's default).
pub(crate) async fn pgn(
    State(hub): State<Arc<Hub>>,
    Extension(PublicOrigin(origin)): Extension<PublicOrigin>,
    Path(id): Path<String>,
    Query(query): Query<HashMap<String, String>>,
) -> Result<Response, Refusal> {
    let site = format!("{}/game/{id}", origin.unwrap_or_default());
    let annotated = match wants_evals(&query) {
        true => hub.annotated_pgn(&id, &site).await?,
        false => None,
    };
    let text = match annotated {
        Some(text) => text,
        None => hub.pgn(&id, site).await?,
    };
    Ok((
        [(CONTENT_TYPE, "application/x-chess-pgn; charset=utf-8")],
        text,
    )
        .into_response())
}

/// Whether an export includes the computer analysis: lichess's `evals`,
/// true unless `false` or `0`.
pub(crate) fn wants_evals(query: &HashMap<String, String>) -> bool {
    !matches!(query.get("evals").map(String::as_str), Some("false" | "0"))
}

/// The game's line: the position after every move or turn.
async fn positions(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
) -> Result<Response, Refusal> {
    Ok(json_text(StatusCode::OK, hub.line(&id).await?))
}

/// The analysis board's line: a position from a FEN or PGN, moves from it.
async fn analysis_line(State(hub): State<Arc<Hub>>, body: Bytes) -> Result<Response, Refusal> {
    let request: LineRequest = json_body(&body)?;
    let game = request.game(hub.registry())?;
    Ok(Json(Line::of(&game)).into_response())
}

/// Our engine's evaluation of a line's last position, within `ip`'s quota.
async fn analyse(
    State(hub): State<Arc<Hub>>,
    Extension(ClientIp(ip)): Extension<ClientIp>,
    body: Bytes,
) -> Result<Response, Refusal> {
    let request: LineRequest = json_body(&body)?;
    let game = request.game(hub.registry())?;
    hub.quotas().analysis(ip)?;
    Ok(Json(hub.engines().analyse(game).await?).into_response())
}

/// A game's computer analysis: 200 with it, 202 while it runs, 200
/// `{"status": "none"}` before anyone asked for one (not a 404: the page
/// asks on every finished game, and browsers log each 404).
async fn game_analysis(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
) -> Result<Response, Refusal> {
    if let Some(answer) = analysis_made_or_running(&hub, &id).await? {
        return Ok(answer);
    }
    hub.replay(&id).await?;
    Ok(json_text(StatusCode::OK, r#"{"status":"none"}"#.into()))
}

/// Asks for a finished game's computer analysis, within `ip`'s quota: 202
/// while it runs, 200 with it once made.
async fn request_game_analysis(
    State(hub): State<Arc<Hub>>,
    Extension(ClientIp(ip)): Extension<ClientIp>,
    Path(id): Path<String>,
) -> Result<Response, Refusal> {
    if let Some(answer) = analysis_made_or_running(&hub, &id).await? {
        return Ok(answer);
    }
    let (state, _) = hub.replay(&id).await?;
    if state.status() != Status::Finished {
        return Err(Refusal::NotNow(Said::new(
            "server-refusal-game-not-over-can-analysed",
        )));
    }
    if state.play().played() == 0 {
        return Err(Refusal::NotNow(Said::new(
            "server-refusal-game-has-no-move-analyse",
        )));
    }
    hub.quotas().game_analysis(ip)?;
    hub.engines()
        .start_review(&id, state.play().clone(), hub.writer.clone())?;
    Ok(analysis_running())
}

/// The stored analysis of game `id` (200), or 202 while it runs here.
async fn analysis_made_or_running(hub: &Hub, id: &str) -> Result<Option<Response>, Refusal> {
    if let Some(body) = hub.store().analysis(id).await? {
        return Ok(Some(json_text(StatusCode::OK, body)));
    }
    Ok(hub.engines().is_reviewing(id).then(analysis_running))
}

fn analysis_running() -> Response {
    json_text(StatusCode::ACCEPTED, r#"{"status":"running"}"#.into())
}

/// A seat's action within `ip`'s rate limits: the actions it may send,
/// and the refused tokens it may present.
async fn seat_action(
    hub: &Arc<Hub>,
    ip: IpAddr,
    id: &str,
    credentials: &Credentials,
    action: Action,
) -> Result<Acted, Refusal> {
    hub.quotas().action(ip)?;
    // A tournament pairs its players again itself (as on lichess).
    if action == Action::Rematch && hub.store().tournament_of_game(id).await?.is_some() {
        return Err(Refusal::NotNow(Said::new(
            "server-refusal-tournament-no-rematch",
        )));
    }
    hub.act(id, credentials, action).await.map_err(|e| match e {
        Refusal::Unauthenticated(_) | Refusal::Forbidden(_) => hub.quotas().auth_failure(ip, e),
        e => e,
    })
}

/// A seat's action over HTTP, answered once its events are durable.
pub(crate) async fn act(
    hub: &Arc<Hub>,
    ip: IpAddr,
    id: &str,
    headers: &HeaderMap,
    action: Action,
) -> Result<Response, Refusal> {
    let credentials = credentials(hub, ip, headers, id).await?;
    let acted = seat_action(hub, ip, id, &credentials, action).await?;
    let mut body = serde_json::json!({"ok": true, "seq": acted.seq});
    if let Some(game) = acted.game {
        body["game"] = game.into();
    }
    Ok(with_cookie(
        Json(body).into_response(),
        id,
        acted.cookie.as_deref(),
    ))
}

/// A move; with lichess's `?offeringDraw=true` it also offers a draw.
pub(crate) async fn play_move(
    State(hub): State<Arc<Hub>>,
    Extension(ClientIp(ip)): Extension<ClientIp>,
    Path((id, uci)): Path<(String, String)>,
    Query(query): Query<HashMap<String, String>>,
    headers: HeaderMap,
) -> Result<Response, Refusal> {
    let offering_draw = match query.get("offeringDraw").map(String::as_str) {
        None | Some("false") => false,
        Some("true") => true,
        Some(other) => {
            return Err(Refusal::Malformed(
                Said::new("server-refusal-offeringdraw-true-false-not")
                    .with("other", format!("{:?}", other)),
            ))
        }
    };
    let moved = act(&hub, ip, &id, &headers, Action::Move(uci)).await?;
    if offering_draw {
        // The move stands whether or not the offer can be made now.
        let _ = act(&hub, ip, &id, &headers, Action::DrawYes).await;
    }
    Ok(moved)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CommitRequest {
    commitment: String,
}

pub(crate) async fn commit(
    State(hub): State<Arc<Hub>>,
    Extension(ClientIp(ip)): Extension<ClientIp>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, Refusal> {
    let request: CommitRequest = json_body(&body)?;
    act(&hub, ip, &id, &headers, Action::Commit(request.commitment)).await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RevealRequest {
    #[serde(rename = "move")]
    mv: String,
    nonce: String,
}

pub(crate) async fn reveal(
    State(hub): State<Arc<Hub>>,
    Extension(ClientIp(ip)): Extension<ClientIp>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, Refusal> {
    let request: RevealRequest = json_body(&body)?;
    let action = Action::Reveal {
        mv: request.mv,
        nonce: request.nonce,
    };
    act(&hub, ip, &id, &headers, action).await
}

pub(crate) async fn draw(
    State(hub): State<Arc<Hub>>,
    Extension(ClientIp(ip)): Extension<ClientIp>,
    Path((id, answer)): Path<(String, String)>,
    headers: HeaderMap,
) -> Result<Response, Refusal> {
    let answer = match answer.as_str() {
        "true" => "yes",
        "false" => "no",
        other => other,
    };
    let action = yes_or_no(answer, Action::DrawYes, Action::DrawNo, "draw")?;
    act(&hub, ip, &id, &headers, action).await
}

/// The action of a `ROUTE/yes` or `ROUTE/no` answer.
fn yes_or_no(answer: &str, yes: Action, no: Action, route: &str) -> Result<Action, Refusal> {
    match answer {
        "yes" => Ok(yes),
        "no" => Ok(no),
        _ => Err(Refusal::NotFound(
            Said::new("server-refusal-yes-no")
                .with("route", route)
                .with("route", route),
        )),
    }
}

/// `rematch/yes` is `rematch`; `rematch/no` withdraws this side's offer or
/// declines the other's, as lichess's rematch-no.
async fn rematch(
    State(hub): State<Arc<Hub>>,
    Extension(ClientIp(ip)): Extension<ClientIp>,
    Path((id, answer)): Path<(String, String)>,
    headers: HeaderMap,
) -> Result<Response, Refusal> {
    let action = yes_or_no(&answer, Action::Rematch, Action::RematchNo, "rematch")?;
    act(&hub, ip, &id, &headers, action).await
}

pub(crate) async fn other_action(
    State(hub): State<Arc<Hub>>,
    Extension(ClientIp(ip)): Extension<ClientIp>,
    Path((id, name)): Path<(String, String)>,
    headers: HeaderMap,
) -> Result<Response, Refusal> {
    let action = match name.as_str() {
        "resign" => Action::Resign,
        "abort" => Action::Abort,
        "rematch" => Action::Rematch,
        "claim-victory" => Action::ClaimVictory,
        _ => {
            return Err(Refusal::NotFound(
                Said::new("server-refusal-no-action").with("name", format!("{:?}", name)),
            ))
        }
    };
    act(&hub, ip, &id, &headers, action).await
}

pub(crate) async fn claim_victory(
    State(hub): State<Arc<Hub>>,
    Extension(ClientIp(ip)): Extension<ClientIp>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, Refusal> {
    act(&hub, ip, &id, &headers, Action::ClaimVictory).await
}

/// The live events of a game from a known seq on. A viewer whose game's
/// task restarted catches up from the log, so no event is skipped or
/// repeated; one that falls a whole broadcast buffer behind is dropped
/// (it reconnects with `since`), so nobody buffers for a slow reader.
pub(crate) struct Feed {
    hub: Arc<Hub>,
    id: String,
    credentials: Credentials,
    last: u64,
    live: broadcast::Receiver<Logged>,
}

/// Adds to `batch` the events after `last` already in `live`, without waiting.
fn waiting(
    live: &mut broadcast::Receiver<Logged>,
    last: &mut u64,
    batch: &mut Vec<Logged>,
) -> Result<(), Refusal> {
    loop {
        match live.try_recv() {
            Ok(logged) if logged.seq <= *last => {}
            Ok(logged) => {
                *last = logged.seq;
                batch.push(logged);
            }
            Err(TryRecvError::Lagged(_)) => return Err(too_slow()),
            // Closed: the next `Feed::next` catches up from the log.
            Err(TryRecvError::Empty | TryRecvError::Closed) => return Ok(()),
        }
    }
}

fn too_slow() -> Refusal {
    Refusal::Busy(Said::new("server-refusal-too-slow-reader"))
}

impl Feed {
    /// The next events: one, and every other one already waiting, so that
    /// events written together (two reveals and the turn) leave together.
    pub(crate) async fn next(&mut self) -> Result<Vec<Logged>, Refusal> {
        loop {
            match self.live.recv().await {
                Ok(logged) if logged.seq <= self.last => continue,
                Ok(logged) => {
                    self.last = logged.seq;
                    let mut batch = vec![logged];
                    waiting(&mut self.live, &mut self.last, &mut batch)?;
                    return Ok(batch);
                }
                Err(RecvError::Lagged(_)) => return Err(too_slow()),
                Err(RecvError::Closed) => {
                    let watching = self
                        .hub
                        .watch(&self.id, &self.credentials, Some(self.last), false, true)
                        .await?;
                    let Some(live) = watching.live else {
                        return Err(Refusal::Internal(Said::new("server-refusal-no-live-feed")));
                    };
                    self.live = live;
                    let missed: Vec<Logged> = watching
                        .catchup
                        .into_iter()
                        .filter(|l| l.seq > self.last)
                        .collect();
                    if let Some(last) = missed.last() {
                        self.last = last.seq;
                        return Ok(missed);
                    }
                }
            }
        }
    }

    /// The events already waiting, without waiting for one.
    pub(crate) fn ready(&mut self) -> Result<Vec<Logged>, Refusal> {
        let mut batch = Vec::new();
        waiting(&mut self.live, &mut self.last, &mut batch)?;
        Ok(batch)
    }
}

/// A stream's or WebSocket's start: the game as the viewer sees it, the
/// events after `since`, the feed that follows, the cookie to set and the
/// viewer's seat.
pub(crate) struct Opened {
    pub full: GameFull,
    pub catchup: Vec<EventLine>,
    pub feed: Feed,
    pub cookie: Option<String>,
    pub seat: Option<Color>,
}

impl Opened {
    /// `gameFull`'s line, then the events after `since`.
    pub fn first_lines(&self) -> Vec<EventLine> {
        let full = serde_json::to_string(&self.full).expect("a game view serializes");
        std::iter::once(EventLine::new(full))
            .chain(self.catchup.iter().cloned())
            .collect()
    }
}

pub(crate) async fn open_feed(
    hub: &Arc<Hub>,
    ip: IpAddr,
    id: &str,
    credentials: Credentials,
    since: Option<u64>,
) -> Result<Opened, Refusal> {
    let watching = hub.watch(id, &credentials, since, true, true).await?;
    check_viewer(hub, ip, &credentials, watching.seat)?;
    let full = watching.full.ok_or_else(|| {
        Refusal::Internal(Said::new("server-refusal-game-no-state").with("id", id))
    })?;
    let live = watching
        .live
        .ok_or_else(|| Refusal::Internal(Said::new("server-refusal-no-live-feed")))?;
    let feed = Feed {
        hub: hub.clone(),
        id: id.to_string(),
        credentials,
        last: watching.seq,
        live,
    };
    Ok(Opened {
        full,
        catchup: watching.catchup.into_iter().map(|l| l.line).collect(),
        feed,
        cookie: watching.cookie,
        seat: watching.seat,
    })
}

async fn stream(
    State(hub): State<Arc<Hub>>,
    Extension(ClientIp(ip)): Extension<ClientIp>,
    Path(id): Path<String>,
    Query(query): Query<HashMap<String, String>>,
    headers: HeaderMap,
) -> Result<Response, Refusal> {
    let since = since_of(&query)?;
    let opened = open_feed(
        &hub,
        ip,
        &id,
        credentials(&hub, ip, &headers, &id).await?,
        since,
    )
    .await?;
    let first: Vec<Bytes> = opened.first_lines().iter().map(EventLine::ndjson).collect();
    let (feed, cookie) = (opened.feed, opened.cookie);
    let later = futures_util::stream::unfold(feed, |mut feed| async move {
        let logged = feed.next().await.ok()?;
        Some((logged.iter().map(|l| l.line.ndjson()).collect(), feed))
    });
    let source = futures_util::stream::once(async move { first }).chain(later);
    let response = crate::http::ndjson::stream(KEEPALIVE, source, hub.shutdown().begun());
    Ok(with_cookie(response, &id, cookie.as_deref()))
}

/// A client's message on the WebSocket.
#[derive(Deserialize)]
#[serde(tag = "t", rename_all = "lowercase")]
enum WsCommand {
    Move {
        uci: String,
    },
    Commit {
        commitment: String,
    },
    Reveal {
        #[serde(rename = "move")]
        mv: String,
        nonce: String,
    },
    Resign,
    Abort,
    /// `yes: true` offers or accepts a draw, `false` declines.
    Draw {
        yes: bool,
    },
    Rematch,
    #[serde(rename = "claim-victory")]
    ClaimVictory,
}

impl From<WsCommand> for Action {
    fn from(command: WsCommand) -> Action {
        match command {
            WsCommand::Move { uci } => Action::Move(uci),
            WsCommand::Commit { commitment } => Action::Commit(commitment),
            WsCommand::Reveal { mv, nonce } => Action::Reveal { mv, nonce },
            WsCommand::Resign => Action::Resign,
            WsCommand::Abort => Action::Abort,
            WsCommand::Draw { yes: true } => Action::DrawYes,
            WsCommand::Draw { yes: false } => Action::DrawNo,
            WsCommand::Rematch => Action::Rematch,
            WsCommand::ClaimVictory => Action::ClaimVictory,
        }
    }
}

fn ws_error(request: &serde_json::Value, e: &Refusal) -> String {
    let message = e.message_in(crate::base::i18n::current());
    let mut error = serde_json::json!({"type": "error", "id": request, "status": crate::http::error::status(e).as_u16(), "error": message});
    if let Some(secs) = e.retry_after_secs() {
        error["retry_after"] = secs.into();
    }
    error.to_string()
}

/// Answers one message of a seat's socket with an `ack` or an `error`.
async fn ws_action(
    hub: &Arc<Hub>,
    ip: IpAddr,
    id: &str,
    credentials: &Credentials,
    text: &str,
) -> String {
    let value: serde_json::Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) => {
            let e = Refusal::Malformed(Said::new("server-refusal-bad-json").with("e", &e));
            return ws_error(&serde_json::Value::Null, &e);
        }
    };
    let request = value.get("id").cloned().unwrap_or_default();
    match serde_json::from_value::<WsCommand>(value) {
        Err(e) => ws_error(
            &request,
            &Refusal::Malformed(Said::new("server-refusal-bad-action").with("e", &e)),
        ),
        Ok(command) => match seat_action(hub, ip, id, credentials, command.into()).await {
            Ok(acted) => {
                let mut ack = serde_json::json!({"type": "ack", "id": request, "seq": acted.seq});
                if let Some(game) = acted.game {
                    ack["game"] = game.into();
                }
                ack.to_string()
            }
            Err(e) => ws_error(&request, &e),
        },
    }
}

/// The socket's owner, known from the upgrade request alone.
struct WsViewer {
    ip: IpAddr,
    credentials: Credentials,
    /// None: a spectator, whose messages are refused unread.
    seat: Option<Color>,
    /// The connection's place under the caps, kept after the upgrade.
    _slot: Option<Arc<ConnectionSlot>>,
}

async fn websocket(
    State(hub): State<Arc<Hub>>,
    Extension(ClientIp(ip)): Extension<ClientIp>,
    slot: Option<Extension<Arc<ConnectionSlot>>>,
    Path(id): Path<String>,
    Query(query): Query<HashMap<String, String>>,
    headers: HeaderMap,
    upgrade: WebSocketUpgrade,
) -> Result<Response, Refusal> {
    let since = since_of(&query)?;
    let credentials = credentials(&hub, ip, &headers, &id).await?;
    let chat = hub.notices().chats().subscribe(&id);
    let opened = open_feed(&hub, ip, &id, credentials.clone(), since).await?;
    let viewer = WsViewer {
        ip,
        credentials,
        seat: opened.seat,
        _slot: slot.map(|Extension(slot)| slot),
    };
    let size = hub.limits().max_ws_message_bytes;
    // The session outlives the request: it keeps the request's language.
    let lang = crate::base::i18n::current();
    Ok(upgrade
        .max_message_size(size)
        .max_frame_size(size)
        .read_buffer_size(size)
        .on_upgrade(move |socket| async move {
            let _open = metrics::socket(metrics::WEBSOCKET);
            let first = opened.first_lines();
            let session = ws_session(socket, hub, id, viewer, first, opened.feed, chat);
            crate::base::i18n::within(lang, session).await;
        }))
}

/// A WebSocket message over the event's shared bytes.
fn text_message(line: &EventLine) -> Message {
    Message::Text(Utf8Bytes::try_from(line.json()).expect("an event line is UTF-8"))
}

/// Sends messages with one flush, so lines that arrive together (a reveal
/// and the turn it ends) cost one write to the socket, not one each; or
/// gives up on a client that does not read.
async fn send_all_or_drop(socket: &mut WebSocket, messages: Vec<Message>) -> bool {
    let sent = async {
        for message in messages {
            socket.feed(message).await?;
        }
        socket.flush().await
    };
    matches!(tokio::time::timeout(SEND_TIMEOUT, sent).await, Ok(Ok(())))
}

async fn ws_session(
    mut socket: WebSocket,
    hub: Arc<Hub>,
    id: String,
    viewer: WsViewer,
    first: Vec<EventLine>,
    mut feed: Feed,
    mut chat: broadcast::Receiver<crate::store::ChatLine>,
) {
    let first = first.iter().map(text_message).collect();
    if !send_all_or_drop(&mut socket, first).await {
        return;
    }
    let spectating = Refusal::Forbidden(Said::new("server-refusal-spectators-cannot-act-game"));
    let mut closed = std::pin::pin!(hub.shutdown().begun());
    let mut keepalive =
        tokio::time::interval_at(tokio::time::Instant::now() + KEEPALIVE, KEEPALIVE);
    loop {
        let out: Vec<Message> = tokio::select! {
            incoming = socket.recv() => match incoming {
                Some(Ok(Message::Text(text))) => {
                    let reply = match viewer.seat {
                        Some(_) => ws_action(&hub, viewer.ip, &id, &viewer.credentials, text.as_str()).await,
                        None => ws_error(&serde_json::Value::Null, &spectating),
                    };
                    // The events the action wrote are in the feed by now:
                    // they leave with its answer, in one write.
                    let Ok(events) = feed.ready() else { return };
                    let events = events.iter().map(|l| text_message(&l.line));
                    std::iter::once(Message::Text(reply.into())).chain(events).collect()
                }
                Some(Ok(Message::Close(_))) | Some(Err(_)) | None => return,
                Some(Ok(_)) => continue,
            },
            next = feed.next() => match next {
                Ok(logged) => logged.iter().map(|l| text_message(&l.line)).collect(),
                Err(_) => return,
            },
            // Chat lines have no seq: the page reads the chat again on one.
            said = chat.recv() => match said {
                Ok(said) => vec![Message::Text(crate::hub::chat::chat_line_json(&said).to_string().into())],
                Err(RecvError::Lagged(_)) => Vec::new(),
                Err(RecvError::Closed) => return,
            },
            _ = keepalive.tick() => vec![Message::Ping(Bytes::new())],
            // 1012, "service restart": the page reconnects (to another node).
            () = &mut closed => {
                let close = CloseFrame { code: 1012, reason: "the server restarts; reconnect".into() };
                let _ = send_all_or_drop(&mut socket, vec![Message::Close(Some(close))]).await;
                return;
            }
        };
        if !send_all_or_drop(&mut socket, out).await {
            return;
        }
        keepalive.reset();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_socket_sends_the_same_copy_of_an_event() {
        let line = EventLine::new(r#"{"type":"move","seq":3}"#.to_string());
        let (a, b) = (line.clone(), line.clone());
        assert_eq!(
            a.ndjson().as_ptr(),
            b.ndjson().as_ptr(),
            "clones share bytes"
        );
        assert_eq!(&a.ndjson()[..], b"{\"type\":\"move\",\"seq\":3}\n");
        let Message::Text(text) = text_message(&b) else {
            panic!("a text message")
        };
        assert_eq!(text.as_str(), line.as_str());
        assert_eq!(
            text.as_str().as_ptr(),
            a.ndjson().as_ptr(),
            "no copy for a WebSocket"
        );
    }

    fn logged(seq: u64) -> Logged {
        use crate::game::event::{Event, EventBody};
        let body = EventBody::Joined { color: Side::White };
        Logged::new(Event { body, seq, at: 0 }).unwrap()
    }

    #[test]
    fn events_waiting_leave_together_and_a_lag_drops_the_reader() {
        let (tx, mut live) = broadcast::channel(4);
        let (mut last, mut batch) = (2, Vec::new());
        for seq in [2, 3, 4] {
            tx.send(logged(seq)).unwrap();
        }
        waiting(&mut live, &mut last, &mut batch).unwrap();
        let seqs: Vec<u64> = batch.iter().map(|l| l.seq).collect();
        assert_eq!(
            seqs,
            [3, 4],
            "seen events are skipped, the rest come at once"
        );
        assert_eq!(last, 4);
        for seq in 5..=10 {
            tx.send(logged(seq)).unwrap();
        }
        assert!(
            waiting(&mut live, &mut last, &mut batch).is_err(),
            "lost events are not skipped silently"
        );
    }

    #[test]
    fn credentials_prefer_bearer_then_this_games_cookie() {
        let mut headers = HeaderMap::new();
        headers.insert(
            COOKIE,
            HeaderValue::from_static("parity_seat_b=OLD; theme=dark; parity_seat_a=MINE"),
        );
        let c = seat_credentials(&headers, "a");
        let tokens: Vec<(&str, bool)> = c
            .tokens
            .iter()
            .map(|p| (p.token.as_str(), p.other_cookie))
            .collect();
        assert_eq!(tokens, vec![("MINE", false), ("OLD", true)]);
        headers.insert(AUTHORIZATION, HeaderValue::from_static("Bearer BOT"));
        let c = seat_credentials(&headers, "a");
        assert_eq!(c.tokens.len(), 1);
        assert_eq!(c.tokens[0].token, "BOT");
        assert_eq!(c.tokens[0].hash, secret::token_hash("BOT"));
    }
}
