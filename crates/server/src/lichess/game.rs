//! The Board and Bot API's game stream (`gameFull`, then one cumulative
//! `gameState` per change, closed when the game ends), its chat, and the
//! Bot API's action paths, which are the Board API's.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::{Extension, Path, Query, State};
use axum::http::HeaderMap;
use axum::response::Response;
use axum::routing::{get, post};
use axum::{Json, Router};
use futures_util::StreamExt as _;
use parity_rules::Color;
use serde_json::{json, Value};
use tokio::sync::broadcast::error::RecvError;

use super::shapes::GameView;
use super::{fields, token_user};
use crate::base::refusal::{Refusal, Said};
use crate::game::event::EventBody;
use crate::game::event::Seat;
use crate::game::state::{variant_key, GameFull, MoveEntry};
use crate::http::api;
use crate::http::edge::ClientIp;
use crate::http::ndjson;
use crate::hub::Hub;
use crate::round::msg::Credentials;
use crate::store::GamePlayers;

/// Silence after which a lichess stream sends an empty line (lila: 6 s;
/// lichess-bot gives up after 15 s).
pub const KEEPALIVE: Duration = Duration::from_secs(6);

pub fn routes() -> Router<Arc<Hub>> {
    Router::new()
        .route("/api/board/game/stream/{id}", get(board_stream))
        .route("/api/bot/game/stream/{id}", get(bot_stream))
        .route("/api/bot/game/{id}/move/{uci}", post(api::play_move))
        .route("/api/bot/game/{id}/draw/{answer}", post(api::draw))
        .route("/api/bot/game/{id}/commit", post(api::commit))
        .route("/api/bot/game/{id}/reveal", post(api::reveal))
        .route("/api/board/game/{id}/takeback/{answer}", post(takeback))
        .route("/api/bot/game/{id}/takeback/{answer}", post(takeback))
        .route("/api/board/game/{id}/chat", get(chat).post(say))
        .route("/api/bot/game/{id}/chat", get(chat).post(say))
        .route("/api/games/{id}/chat", get(chat).post(say))
        // berserk's claim_victory ends its path with a slash.
        .route(
            "/api/board/game/{id}/claim-victory/",
            post(api::claim_victory),
        )
        .route("/api/bot/game/{id}/{action}", post(api::other_action))
}

/// A game as lichess shows it: our view, its players, lichess's view.
pub struct Seen {
    pub view: GameView,
    pub full: GameFull,
    pub players: GamePlayers,
}

impl Seen {
    pub fn event_game(&self, color: Color) -> Value {
        self.view.event_game(&self.full, &self.players, color)
    }

    /// Lichess's game JSON (`GET /game/export/{id}`, `Accept: application/json`).
    pub fn export_json(&self) -> Value {
        let v = &self.view;
        let (word, _) = v.status_word();
        let sans: Vec<&str> = self
            .full
            .moves
            .iter()
            .flat_map(MoveEntry::moves)
            .map(|(_, san)| san)
            .collect();
        let player = |color: Color| {
            let seat = match color {
                Color::White => self.full.white.seat,
                Color::Black => self.full.black.seat,
            };
            match (self.players.of(color), seat) {
                (Some(p), _) => {
                    let mut user = json!({"id": p.user.id, "name": p.user.name});
                    if p.user.bot {
                        user["title"] = json!("BOT");
                    }
                    let mut player =
                        json!({"user": user, "rating": p.rating, "provisional": p.provisional});
                    if let Some(diff) = p.rating_diff {
                        player["ratingDiff"] = json!(diff);
                    }
                    player
                }
                (None, Seat::Engine { level }) => json!({"aiLevel": level}),
                (None, Seat::Human) => json!({}),
            }
        };
        let mut game = json!({
            "id": v.id,
            "rated": self.players.rated,
            "variant": variant_key(&v.variant),
            "speed": v.speed(),
            "perf": v.speed(),
            "createdAt": self.players.created_ms,
            "lastMoveAt": v.last_move_at.unwrap_or(self.players.created_ms),
            "status": word,
            "players": {"white": player(Color::White), "black": player(Color::Black)},
            "moves": sans.join(" "),
        });
        if let Some(winner) = v.winner() {
            game["winner"] = json!(winner);
        }
        if let Some((initial, increment)) = v.clock {
            game["clock"] = json!({"initial": initial, "increment": increment, "totalTime": initial + 40 * increment});
        }
        if let Some(fen) = &v.initial_fen {
            game["initialFen"] = json!(fen);
        }
        game
    }
}

/// The credentials of account `user_id` in game `id` (none for no account).
fn credentials_of(hub: &Hub, user_id: &str, id: &str) -> Credentials {
    match user_id {
        "" => Credentials::default(),
        user => hub.keys().account_credentials(user, id),
    }
}

/// A game as account `user_id` (empty: nobody) sees it now.
pub async fn view_of(hub: &Arc<Hub>, user_id: &str, id: &str) -> Result<Seen, Refusal> {
    let credentials = credentials_of(hub, user_id, id);
    let watching = hub.watch(id, &credentials, None, true, false).await?;
    let full = watching.full.ok_or_else(|| {
        Refusal::Internal(Said::new("server-refusal-game-no-state").with("id", id))
    })?;
    let players = hub.store().players(id).await?;
    Ok(Seen {
        view: GameView::new(&full),
        full,
        players,
    })
}

async fn board_stream(
    hub: State<Arc<Hub>>,
    ip: Extension<ClientIp>,
    id: Path<String>,
    headers: HeaderMap,
) -> Result<Response, Refusal> {
    game_stream(hub, ip, id, headers, false).await
}

async fn bot_stream(
    hub: State<Arc<Hub>>,
    ip: Extension<ClientIp>,
    id: Path<String>,
    headers: HeaderMap,
) -> Result<Response, Refusal> {
    game_stream(hub, ip, id, headers, true).await
}

/// `GET /api/{board|bot}/game/stream/{id}`: `gameFull`, then a
/// `gameState` after every move, draw offer, commitment or ending, and
/// the game's chat as `chatLine`; closed after the last `gameState`.
async fn game_stream(
    State(hub): State<Arc<Hub>>,
    Extension(ClientIp(ip)): Extension<ClientIp>,
    Path(id): Path<String>,
    headers: HeaderMap,
    bot: bool,
) -> Result<Response, Refusal> {
    let holder = token_user(&hub, ip, &headers).await?;
    if bot {
        holder.check_bot()?;
    }
    let credentials = hub.keys().account_credentials(&holder.user.id, &id);
    let chat = hub.notices().chats().subscribe(&id);
    let opened = api::open_feed(&hub, ip, &id, credentials, None).await?;
    let players = hub.store().players(&id).await?;
    let view = GameView::new(&opened.full);
    let first = vec![ndjson::line(&view.full_json(&opened.full, &players))];
    let feed = opened.feed;
    let done = view.finished();
    let later = futures_util::stream::unfold(
        (view, feed, chat, done),
        |(mut view, mut feed, mut chat, done)| async move {
            if done {
                return None;
            }
            let out: Vec<Bytes> = tokio::select! {
                next = feed.next() => {
                    // A move and the end it makes are one gameState, as
                    // on lichess: the end is written with the move, so
                    // the feed gives both at once.
                    let logged = next.ok()?;
                    let mut states = Vec::new();
                    for (i, l) in logged.iter().enumerate() {
                        let ends_next = logged
                            .get(i + 1)
                            .is_some_and(|n| matches!(n.event.body, EventBody::Finished { .. }));
                        if view.apply(&l.event) && !ends_next {
                            states.push(ndjson::line(&view.state_json()));
                        }
                    }
                    states
                }
                said = chat.recv() => match said {
                    Ok(said) => vec![ndjson::line(&crate::hub::chat::chat_line_json(&said))],
                    Err(RecvError::Lagged(_)) => Vec::new(),
                    Err(RecvError::Closed) => return None,
                },
            };
            // The last gameState is out: the stream ends after it.
            let done = view.finished();
            Some((out, (view, feed, chat, done)))
        },
    );
    let source = futures_util::stream::once(async move { first }).chain(later);
    Ok(ndjson::stream(KEEPALIVE, source, hub.shutdown().begun()))
}

/// `POST .../takeback/{yes|no}`: takebacks are not played here, so an
/// offer is declined at once (lichess lets a side always decline).
async fn takeback(
    State(hub): State<Arc<Hub>>,
    Extension(ClientIp(ip)): Extension<ClientIp>,
    Path((id, answer)): Path<(String, String)>,
    headers: HeaderMap,
) -> Result<Json<Value>, Refusal> {
    if !matches!(answer.as_str(), "yes" | "no" | "true" | "false") {
        return Err(Refusal::NotFound(Said::new(
            "server-refusal-takeback-yes-takeback-no",
        )));
    }
    let holder = token_user(&hub, ip, &headers).await?;
    let seen = view_of(&hub, &holder.user.id, &id).await?;
    if seen.full.you.is_none() {
        return Err(Refusal::Forbidden(Said::new(
            "server-refusal-spectators-cannot-act-game",
        )));
    }
    Ok(Json(json!({"ok": true})))
}

/// `GET .../chat`: the game's chat, oldest first, as lichess lists it:
/// the last lines shown, each with its number `n` from 1; `?after=N`
/// gives only the lines after line N (the page reads what is new).
async fn chat(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    Query(query): Query<HashMap<String, String>>,
) -> Result<Json<Value>, Refusal> {
    let after: usize = match query.get("after") {
        Some(text) => text.parse().map_err(|_| {
            Refusal::Malformed(
                Said::new("server-refusal-after-line-number-not")
                    .with("text", format!("{:?}", text)),
            )
        })?,
        None => 0,
    };
    let lines = hub.store().chat(&id).await?;
    let first = after.max(
        lines
            .len()
            .saturating_sub(crate::hub::chat::CHAT_LINES_SHOWN),
    );
    Ok(Json(Value::Array(
        lines
            .into_iter()
            .enumerate()
            .skip(first)
            .map(|(i, l)| {
                json!({"n": i + 1, "text": l.text, "user": l.author, "room": l.room, "at": l.at_ms})
            })
            .collect(),
    )))
}

/// `POST .../chat` (`room`, `text`, as a form or JSON): by an account, or
/// on the page by a seat (named by its colour).
async fn say(
    State(hub): State<Arc<Hub>>,
    Extension(ClientIp(ip)): Extension<ClientIp>,
    Path(id): Path<String>,
    Query(query): Query<HashMap<String, String>>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<Value>, Refusal> {
    let mut given = fields(&headers, &body)?;
    given.extend(query);
    let text = given
        .get("text")
        .ok_or_else(|| Refusal::Malformed(Said::new("server-refusal-text-required")))?;
    let room = crate::hub::chat::room(given.get("room").map(String::as_str))?;
    let holder = crate::http::auth::holder(&hub, ip, &headers).await?;
    let credentials = api::credentials(&hub, ip, &headers, &id).await?;
    let seat = hub.watch(&id, &credentials, None, false, false).await?.seat;
    let author = match (holder, seat) {
        (Some(holder), _) => holder.user.name,
        (None, Some(Color::White)) => "White".to_string(),
        (None, Some(Color::Black)) => "Black".to_string(),
        (None, None) => {
            return Err(Refusal::Unauthenticated(Said::new(
                "server-refusal-log-hold-seat-chat",
            )))
        }
    };
    if room == "player" && seat.is_none() {
        return Err(Refusal::Forbidden(Said::new(
            "server-refusal-only-game-s-players-write",
        )));
    }
    hub.quotas().chat(&author, ip)?;
    hub.posting().post_chat(&id, &author, room, text).await?;
    Ok(Json(json!({"ok": true})))
}
