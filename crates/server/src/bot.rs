//! `parity bot`: our engine as a bot account on a server that speaks
//! lichess's Bot API. It accepts the challenges of the variants it knows,
//! plays each game on a task of its own, turn-based games by moves and
//! simultaneous ones by commit and reveal (docs/protocol.md, "Simultaneous
//! variants over the Bot API").

use std::collections::HashSet;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use parity_engine::search::Shared;
use parity_rules::{AnyGame, Color, Registry};
use serde_json::{json, Value};
use tokio::sync::Semaphore;

use crate::base::secret;
use crate::game::engine_seat::{Job, MAX_LEVEL, MIN_LEVEL};
use crate::game::state::variant_id;

#[derive(Debug, thiserror::Error)]
pub enum BotError {
    #[error("{0}")]
    Http(#[from] reqwest::Error),
    #[error("{method} {path}: {status}: {body}")]
    Refused {
        method: &'static str,
        path: String,
        status: u16,
        body: String,
    },
    #[error("{0} is not a bot account (make one with `parity user add NAME --bot`)")]
    NotABot(String),
    #[error("the server said something unreadable: {0}")]
    Protocol(String),
}

/// What `parity bot` is told.
#[derive(Clone, Debug)]
pub struct BotConfig {
    /// The server's base URL, e.g. `http://127.0.0.1:8080`.
    pub server: String,
    /// A personal API token of a bot account with the scope `bot:play`.
    pub token: String,
    /// Engine level 1..=8 (docs/server.md, "Engine levels").
    pub level: u8,
    /// Games played at once; further challenges are declined (`later`).
    pub concurrency: usize,
    /// Stop after this many games have ended (none: run until stopped).
    pub games: Option<usize>,
    /// A CA file (PEM) trusted for an https server, beside the system's roots.
    pub ca_file: Option<std::path::PathBuf>,
    /// Tournaments (arenas or Swiss events) to join at the start; their
    /// games come as any other.
    pub tournaments: Vec<String>,
}

/// Times a rate-limited request is tried again.
const MAX_RETRIES: u32 = 10;

/// The server, seen by the bot.
#[derive(Clone)]
struct Server {
    http: reqwest::Client,
    base: String,
    token: String,
}

impl Server {
    /// Sends a request; a 429 (the server's rate limit) waits as long
    /// as the server says and tries again.
    async fn send(
        &self,
        request: reqwest::RequestBuilder,
        method: &'static str,
        path: &str,
    ) -> Result<reqwest::Response, BotError> {
        let mut tries = 0;
        let response = loop {
            let again = request
                .try_clone()
                .expect("bodies are bytes, so requests clone");
            let response = again.bearer_auth(&self.token).send().await?;
            if response.status() != reqwest::StatusCode::TOO_MANY_REQUESTS || tries == MAX_RETRIES {
                break response;
            }
            tries += 1;
            let wait = response
                .headers()
                .get(reqwest::header::RETRY_AFTER)
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.parse::<u64>().ok())
                .unwrap_or(1);
            tokio::time::sleep(Duration::from_secs(wait.clamp(1, 60))).await;
        };
        let status = response.status().as_u16();
        if status >= 400 {
            let body = response.text().await.unwrap_or_default();
            return Err(BotError::Refused {
                method,
                path: path.to_string(),
                status,
                body,
            });
        }
        Ok(response)
    }

    async fn get(&self, path: &str) -> Result<reqwest::Response, BotError> {
        let url = format!("{}{path}", self.base);
        self.send(self.http.get(url), "GET", path).await
    }

    async fn post(&self, path: &str, body: Option<Value>) -> Result<(), BotError> {
        let url = format!("{}{path}", self.base);
        let mut request = self.http.post(url);
        if let Some(body) = body {
            request = request
                .header(reqwest::header::CONTENT_TYPE, "application/json")
                .body(body.to_string());
        }
        self.send(request, "POST", path).await.map(|_| ())
    }
}

/// The JSON lines of an NDJSON response, keep-alive lines left out; none
/// at its end.
struct Lines {
    response: reqwest::Response,
    buffer: Vec<u8>,
}

impl Lines {
    fn new(response: reqwest::Response) -> Lines {
        Lines {
            response,
            buffer: Vec::new(),
        }
    }

    async fn next(&mut self) -> Result<Option<Value>, BotError> {
        loop {
            if let Some(end) = self.buffer.iter().position(|&b| b == b'\n') {
                let line: Vec<u8> = self.buffer.drain(..=end).collect();
                let text = String::from_utf8_lossy(&line);
                if text.trim().is_empty() {
                    continue;
                }
                return serde_json::from_str(text.trim())
                    .map(Some)
                    .map_err(|e| BotError::Protocol(format!("{e}: {text}")));
            }
            match self.response.chunk().await? {
                Some(bytes) => self.buffer.extend_from_slice(&bytes),
                None => return Ok(None),
            }
        }
    }
}

/// [`run`] on a runtime of its own.
pub fn run_blocking(config: BotConfig, registry: Registry) -> Result<(), BotError> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| BotError::Protocol(format!("no runtime: {e}")))?
        .block_on(run(config, registry))
}

/// Runs the bot until it has played `config.games` games (or forever).
pub async fn run(config: BotConfig, registry: Registry) -> Result<(), BotError> {
    let http = crate::base::tls::http_client(config.ca_file.as_deref())
        .map_err(|e| BotError::Protocol(e.to_string()))?
        .build()?;
    let server = Server {
        http,
        base: config.server.trim_end_matches('/').to_string(),
        token: config.token.clone(),
    };
    let account: Value = serde_json::from_slice(&server.get("/api/account").await?.bytes().await?)
        .map_err(|e| BotError::Protocol(e.to_string()))?;
    let me = account["id"].as_str().unwrap_or_default().to_string();
    if account["title"] != "BOT" {
        return Err(BotError::NotABot(me));
    }
    tracing::info!("playing as {me} on {}", server.base);
    for id in &config.tournaments {
        join_tournament(&server, id).await?;
        tracing::info!("joined tournament {id}");
    }
    let registry = Arc::new(registry);
    let level = config.level.clamp(MIN_LEVEL, MAX_LEVEL);
    let playing: Arc<Mutex<HashSet<String>>> = Arc::default();
    let slots = Arc::new(Semaphore::new(config.concurrency.max(1)));
    let (ended_tx, mut ended) = tokio::sync::mpsc::unbounded_channel::<String>();
    let mut finished = 0;
    loop {
        let mut events = match server.get("/api/stream/event").await {
            Ok(response) => Lines::new(response),
            Err(e) => {
                tracing::warn!("event stream: {e}; again in a second");
                tokio::time::sleep(Duration::from_secs(1)).await;
                continue;
            }
        };
        loop {
            let event = tokio::select! {
                event = events.next() => event,
                Some(game) = ended.recv() => {
                    playing.lock().unwrap_or_else(|e| e.into_inner()).remove(&game);
                    finished += 1;
                    if config.games.is_some_and(|n| finished >= n) {
                        return Ok(());
                    }
                    continue;
                }
            };
            let event = match event {
                Ok(Some(event)) => event,
                Ok(None) => break,
                Err(e) => {
                    tracing::warn!("event stream: {e}");
                    break;
                }
            };
            match event["type"].as_str() {
                Some("challenge") => {
                    let challenge = &event["challenge"];
                    if challenge["challenger"]["id"] == me.as_str()
                        || challenge["status"] != "created"
                    {
                        continue;
                    }
                    let id = challenge["id"].as_str().unwrap_or_default();
                    let variant =
                        variant_id(challenge["variant"]["key"].as_str().unwrap_or_default());
                    let answer = match (
                        registry.get(variant).is_some(),
                        slots.available_permits() > 0,
                    ) {
                        (true, true) => {
                            server
                                .post(&format!("/api/challenge/{id}/accept"), None)
                                .await
                        }
                        (false, _) => {
                            server
                                .post(
                                    &format!("/api/challenge/{id}/decline"),
                                    Some(json!({"reason": "variant"})),
                                )
                                .await
                        }
                        (true, false) => {
                            server
                                .post(
                                    &format!("/api/challenge/{id}/decline"),
                                    Some(json!({"reason": "later"})),
                                )
                                .await
                        }
                    };
                    if let Err(e) = answer {
                        tracing::warn!("challenge {id}: {e}");
                    }
                }
                Some("gameStart") => {
                    let id = event["game"]["id"].as_str().unwrap_or_default().to_string();
                    if !playing
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .insert(id.clone())
                    {
                        continue; // already playing it (a reconnected stream repeats its games)
                    }
                    let (server, registry, me, ended, slots) = (
                        server.clone(),
                        registry.clone(),
                        me.clone(),
                        ended_tx.clone(),
                        slots.clone(),
                    );
                    tokio::spawn(async move {
                        let _slot = slots.acquire_owned().await;
                        if let Err(e) = play(&server, &registry, &me, &id, level).await {
                            tracing::warn!("game {id}: {e}");
                        }
                        let _ = ended.send(id);
                    });
                }
                _ => {}
            }
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// Joins tournament `id`: an arena, else a Swiss event of that id.
async fn join_tournament(server: &Server, id: &str) -> Result<(), BotError> {
    match server
        .post(&format!("/api/tournament/{id}/join"), None)
        .await
    {
        Err(BotError::Refused { status: 404, .. }) => {
            server.post(&format!("/api/swiss/{id}/join"), None).await
        }
        other => other,
    }
}

/// What the bot holds of a simultaneous turn: the move it committed and the nonce.
struct Secret {
    turn: u64,
    uci: String,
    nonce: String,
    revealed: bool,
}

/// Plays game `id` until it ends.
async fn play(
    server: &Server,
    registry: &Registry,
    me: &str,
    id: &str,
    level: u8,
) -> Result<(), BotError> {
    let mut lines = Lines::new(server.get(&format!("/api/bot/game/stream/{id}")).await?);
    let full = lines
        .next()
        .await?
        .ok_or_else(|| BotError::Protocol("the game stream ended at once".into()))?;
    let color = match (full["white"]["id"].as_str(), full["black"]["id"].as_str()) {
        (Some(w), _) if w == me => Color::White,
        (_, Some(b)) if b == me => Color::Black,
        _ => {
            return Err(BotError::Protocol(format!(
                "{me} plays no side of game {id}"
            )))
        }
    };
    let variant_key = full["variant"]["key"].as_str().unwrap_or_default();
    let variant = registry
        .get(variant_id(variant_key))
        .ok_or_else(|| BotError::Protocol(format!("unknown variant {variant_key}")))?;
    let fen = full["initialFen"].as_str().filter(|f| *f != "startpos");
    let start = AnyGame::from_fen(variant, fen).map_err(|e| BotError::Protocol(e.to_string()))?;
    let mut state = full["state"].clone();
    let mut secret: Option<Secret> = None;
    let mut answered = None;
    // Searched on one table and histories, as the UCI engine does a game.
    let memory = Job::new_memory();
    loop {
        if state["status"] != "started" {
            return Ok(());
        }
        let moves = state["moves"].as_str().unwrap_or_default().to_string();
        let mut game = start.clone();
        let texts: Vec<&str> = moves.split_whitespace().collect();
        let steps: Vec<String> = match game.is_simultaneous() {
            true => texts.chunks(2).map(|pair| pair.join(":")).collect(),
            false => texts.iter().map(|t| t.to_string()).collect(),
        };
        for step in &steps {
            game.play_text(step, false).map_err(BotError::Protocol)?;
        }
        if game.is_simultaneous() {
            let turn = state["turn"].as_u64().unwrap_or(1);
            let committed = &state["committed"];
            let mine = committed[color.name()].as_bool().unwrap_or(false);
            let both = mine && committed[color.other().name()].as_bool().unwrap_or(false);
            if !mine && secret.as_ref().is_none_or(|s| s.turn != turn) {
                if let Some(mv) = think(&game, color, level, &memory).await {
                    let uci = game.uci(color, mv);
                    let nonce = secret::new_nonce();
                    let commitment = secret::commitment(id, turn as u32, color, &uci, &nonce);
                    server
                        .post(
                            &format!("/api/bot/game/{id}/commit"),
                            Some(json!({"commitment": commitment})),
                        )
                        .await?;
                    secret = Some(Secret {
                        turn,
                        uci,
                        nonce,
                        revealed: false,
                    });
                }
            }
            if both {
                if let Some(s) = secret.as_mut().filter(|s| s.turn == turn && !s.revealed) {
                    server
                        .post(
                            &format!("/api/bot/game/{id}/reveal"),
                            Some(json!({"move": s.uci, "nonce": s.nonce})),
                        )
                        .await?;
                    s.revealed = true;
                }
            }
        } else if game.to_move() == Some(color) && answered.as_deref() != Some(moves.as_str()) {
            if let Some(mv) = think(&game, color, level, &memory).await {
                let uci = game.uci(color, mv);
                server
                    .post(&format!("/api/bot/game/{id}/move/{uci}"), None)
                    .await?;
                answered = Some(moves);
            }
        }
        state = loop {
            match lines.next().await? {
                Some(line) if line["type"] == "gameState" => break line,
                Some(_) => continue, // chat and other lines
                None => return Ok(()),
            }
        };
    }
}

/// The engine's move for `color` (off the async threads), searched on the
/// game's `memory`: the table and histories its last move left.
async fn think(
    game: &AnyGame,
    color: Color,
    level: u8,
    memory: &Arc<Shared>,
) -> Option<parity_rules::Move> {
    let job = Job::new(game, color, level);
    let memory = memory.clone();
    tokio::task::spawn_blocking(move || job.think_with(memory))
        .await
        .ok()
        .flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_games_moves_are_searched_on_its_memory() {
        let reg = Registry::builtin();
        let game = AnyGame::from_fen(reg.get("chess").unwrap(), None).unwrap();
        let memory = Job::new_memory();
        assert_eq!(memory.tt.hashfull(), 0);
        assert!(think(&game, Color::White, MAX_LEVEL, &memory)
            .await
            .is_some());
        // A search of a second fills the sampled slots of the 8 MB table.
        assert!(memory.tt.hashfull() > 0, "the search wrote elsewhere");
    }
}
