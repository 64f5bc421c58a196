//! `parity loadtest`: the server in-process on a temporary database, and
//! N simultaneous games played over loopback WebSockets by clients that
//! pick random legal moves. It reports the sustained moves per second
//! (every event durable before it is acknowledged) and the latency from a
//! turn's last reveal to its `turn` broadcast.

use std::fmt;
use std::sync::Arc;
use std::time::{Duration, Instant};

use futures_util::stream::{SplitSink, SplitStream};
use futures_util::{SinkExt, StreamExt};
use parity_rules::{Color, Registry};
use rand::RngExt as _;
use serde_json::{json, Value};
use tokio::net::TcpStream;
use tokio::sync::Semaphore;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

use crate::event::LiveClock;
use crate::hub::{ColorChoice, Hub, NewGame, Opponent};
use crate::play::Play;
use crate::secret;

#[derive(Clone, Debug)]
pub struct LoadConfig {
    pub games: usize,
    /// Turns per game at most; a game still going then is resigned.
    pub turns: u32,
    /// A simultaneous variant.
    pub variant: String,
}

#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error("{0}")]
    Setup(String),
    #[error("game {game}: {message}")]
    Game { game: String, message: String },
}

#[derive(Debug)]
pub struct LoadReport {
    pub games: usize,
    pub turns: usize,
    pub elapsed: Duration,
    /// From the last reveal sent to the `turn` event received, per turn.
    pub latencies: Vec<Duration>,
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let rank = ((p * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    sorted[rank - 1]
}

impl fmt::Display for LoadReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let secs = self.elapsed.as_secs_f64().max(1e-9);
        let moves = 2 * self.turns;
        let mut sorted = self.latencies.clone();
        sorted.sort();
        let ms = |d: Duration| d.as_secs_f64() * 1000.0;
        writeln!(
            f,
            "games {}, turns {} ({} moves) in {:.2} s",
            self.games, self.turns, moves, secs
        )?;
        writeln!(
            f,
            "moves/s {:.0} sustained (5 durable events per turn: 2 commits, 2 reveals, the turn)",
            moves as f64 / secs
        )?;
        write!(
            f,
            "last reveal -> turn broadcast: p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
            ms(percentile(&sorted, 0.50)),
            ms(percentile(&sorted, 0.99)),
            ms(sorted.last().copied().unwrap_or_default())
        )
    }
}

type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// One seat's WebSocket.
struct Seat {
    sink: SplitSink<Socket, Message>,
    source: SplitStream<Socket>,
    next_id: u64,
}

impl Seat {
    async fn connect(base: &str, game: &str, token: &str) -> Result<Seat, String> {
        let url = format!("{base}/api/ws/game/{game}");
        let mut request = url.into_client_request().map_err(|e| e.to_string())?;
        let cookie = format!("parity_seat_{game}={token}")
            .parse()
            .map_err(|e| format!("{e}"))?;
        request.headers_mut().insert("cookie", cookie);
        let (socket, _) = tokio_tungstenite::connect_async(request)
            .await
            .map_err(|e| format!("websocket: {e}"))?;
        let (sink, source) = socket.split();
        let mut seat = Seat {
            sink,
            source,
            next_id: 1,
        };
        seat.until(|v| v["type"] == "gameFull").await?;
        Ok(seat)
    }

    /// The next message that satisfies `pred`.
    async fn until(&mut self, pred: impl Fn(&Value) -> bool + Sync) -> Result<Value, String> {
        let mut found = self.all(&[&pred]).await?;
        Ok(found.remove(0).0)
    }

    /// Reads until each predicate has matched a message (in any order);
    /// returns the messages and when they arrived. Other messages are
    /// dropped, so a step waits for everything it needs at once.
    async fn all(
        &mut self,
        preds: &[&(dyn Fn(&Value) -> bool + Sync)],
    ) -> Result<Vec<(Value, Instant)>, String> {
        let mut found: Vec<Option<(Value, Instant)>> = vec![None; preds.len()];
        while found.iter().any(Option::is_none) {
            let value = match self.source.next().await {
                Some(Ok(Message::Text(text))) => {
                    serde_json::from_str::<Value>(&text).map_err(|e| e.to_string())?
                }
                Some(Ok(_)) => continue,
                Some(Err(e)) => return Err(e.to_string()),
                None => return Err("the server closed the socket".into()),
            };
            if let Some(i) = (0..preds.len()).find(|&i| found[i].is_none() && preds[i](&value)) {
                found[i] = Some((value, Instant::now()));
            }
        }
        Ok(found.into_iter().flatten().collect())
    }

    /// Sends an action; returns its id.
    async fn send(&mut self, mut action: Value) -> Result<u64, String> {
        let id = self.next_id;
        self.next_id += 1;
        action["id"] = id.into();
        self.sink
            .send(Message::Text(action.to_string().into()))
            .await
            .map_err(|e| e.to_string())?;
        Ok(id)
    }

    async fn acked(&mut self, id: u64) -> Result<(), String> {
        let answer = self.until(answered(id)).await?;
        check_ack(&answer)
    }
}

/// The ack or error of the action `id`.
fn answered(id: u64) -> impl Fn(&Value) -> bool + Sync {
    move |v: &Value| (v["type"] == "ack" || v["type"] == "error") && v["id"] == id
}

fn check_ack(answer: &Value) -> Result<(), String> {
    match answer["type"].as_str() {
        Some("ack") => Ok(()),
        _ => Err(format!("refused: {answer}")),
    }
}

/// A game ready to play: its id, both seats' sockets and a copy of the rules' game.
struct Table {
    id: String,
    seats: [Seat; 2],
    play: Play,
}

async fn set_table(hub: &Arc<Hub>, base: &str, variant: &str) -> Result<Table, String> {
    let created = hub
        .create(NewGame {
            variant: variant.to_string(),
            clock: Some(LiveClock {
                initial: 3600,
                increment: 0,
            }),
            days: None,
            opponent: Opponent::Friend,
            color: ColorChoice::White,
        })
        .await
        .map_err(|e| e.to_string())?;
    let invite = created.invite.ok_or("no invite")?;
    let joined = hub
        .join(&created.id, &invite)
        .await
        .map_err(|e| e.to_string())?;
    let white = Seat::connect(base, &created.id, &created.token).await?;
    let black = Seat::connect(base, &created.id, &joined.token).await?;
    let v = hub.registry().get(variant).ok_or("unknown variant")?;
    Ok(Table {
        id: created.id,
        seats: [white, black],
        play: Play::new(v),
    })
}

const COLORS: [Color; 2] = [Color::White, Color::Black];

/// Plays random legal moves for up to `turns` turns; returns the latency of each turn.
async fn play_table(mut table: Table, turns: u32) -> Result<Vec<Duration>, String> {
    let mut latencies = Vec::new();
    for _ in 0..turns {
        if table.play.ending().is_some() {
            return Ok(latencies);
        }
        let turn = table.play.turn();
        let mut chosen = Vec::with_capacity(2);
        for color in COLORS {
            let legal = table.play.legal(color);
            let mv = legal[rand::rng().random_range(0..legal.len())].clone();
            let nonce = secret::new_nonce();
            let commitment = secret::commitment(&table.id, turn, color, &mv, &nonce);
            let seat = &mut table.seats[color.index()];
            let id = seat
                .send(json!({"t": "commit", "commitment": commitment}))
                .await?;
            chosen.push((mv, nonce, id));
        }
        for (seat, (_, _, id)) in table.seats.iter_mut().zip(&chosen) {
            seat.acked(*id).await?;
        }
        let mut reveal_ids = Vec::with_capacity(2);
        for (seat, (mv, nonce, _)) in table.seats.iter_mut().zip(&chosen) {
            reveal_ids.push(
                seat.send(json!({"t": "reveal", "move": mv, "nonce": nonce}))
                    .await?,
            );
        }
        let last_reveal = Instant::now();
        // Each seat waits for its reveal's ack and the turn together, as
        // they may come in either order.
        let is_turn = move |v: &Value| v["type"] == "turn" && v["turn"] == turn;
        let mut resolved = Value::Null;
        for (seat, id) in table.seats.iter_mut().zip(reveal_ids) {
            let found = seat.all(&[&answered(id), &is_turn]).await?;
            check_ack(&found[0].0)?;
            if resolved.is_null() {
                latencies.push(found[1].1 - last_reveal);
                resolved = found[1].0.clone();
            }
        }
        let moves: Vec<_> = COLORS
            .iter()
            .map(|&c| {
                let uci = resolved[c.name()]["uci"].as_str().unwrap_or_default();
                table.play.read_move(c, uci).map_err(|e| e.to_string())
            })
            .collect::<Result<_, _>>()?;
        table
            .play
            .play_turn(moves[0], moves[1])
            .map_err(|e| e.to_string())?;
    }
    if table.play.ending().is_none() {
        let id = table.seats[0].send(json!({"t": "resign"})).await?;
        table.seats[0].acked(id).await?;
    }
    Ok(latencies)
}

/// Runs the load test on the current tokio runtime.
pub async fn run(config: &LoadConfig) -> Result<LoadReport, LoadError> {
    let setup = |e: String| LoadError::Setup(e);
    let registry = Registry::builtin();
    let variant = registry
        .get_or_err(&config.variant)
        .map_err(|e| setup(e.to_string()))?;
    if !Play::new(variant).is_simultaneous() {
        return Err(setup(format!(
            "{} is not a simultaneous variant",
            variant.id()
        )));
    }
    let dir = tempfile::tempdir().map_err(|e| setup(e.to_string()))?;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .map_err(|e| setup(e.to_string()))?;
    let server = crate::start(&dir.path().join("load.sqlite"), listener, registry)
        .await
        .map_err(|e| setup(e.to_string()))?;
    let base = format!("ws://{}", server.addr);

    // Tables are set a few at a time, so connections do not pile up in the backlog.
    let setting = Arc::new(Semaphore::new(32));
    let mut pending = Vec::with_capacity(config.games);
    for _ in 0..config.games {
        let (hub, base, variant, setting) = (
            server.hub.clone(),
            base.clone(),
            config.variant.clone(),
            setting.clone(),
        );
        pending.push(tokio::spawn(async move {
            let _permit = setting.acquire_owned().await.map_err(|e| e.to_string())?;
            set_table(&hub, &base, &variant).await
        }));
    }
    let mut tables = Vec::with_capacity(config.games);
    for task in pending {
        let table = task
            .await
            .map_err(|e| setup(e.to_string()))?
            .map_err(setup)?;
        tables.push(table);
    }

    let start = Instant::now();
    let games: Vec<_> = tables
        .into_iter()
        .map(|table| {
            let id = table.id.clone();
            let turns = config.turns;
            (id, tokio::spawn(play_table(table, turns)))
        })
        .collect();
    let mut latencies = Vec::new();
    for (game, task) in games {
        let played = task.await.map_err(|e| LoadError::Game {
            game: game.clone(),
            message: e.to_string(),
        })?;
        latencies.extend(played.map_err(|message| LoadError::Game { game, message })?);
    }
    Ok(LoadReport {
        games: config.games,
        turns: latencies.len(),
        elapsed: start.elapsed(),
        latencies,
    })
}

/// `parity loadtest`: runs [`run`] on its own runtime.
pub fn run_blocking(config: &LoadConfig) -> Result<LoadReport, LoadError> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| LoadError::Setup(e.to_string()))?
        .block_on(run(config))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_take_the_rank_above() {
        let d: Vec<Duration> = (1..=100).map(Duration::from_millis).collect();
        assert_eq!(percentile(&d, 0.99), Duration::from_millis(99));
        assert_eq!(percentile(&d, 0.50), Duration::from_millis(50));
        assert_eq!(percentile(&[], 0.99), Duration::ZERO);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_small_load_test_plays_every_turn() {
        let config = LoadConfig {
            games: 3,
            turns: 4,
            variant: "parity".into(),
        };
        let report = run(&config).await.expect("runs");
        assert_eq!(report.games, 3);
        assert!(report.turns >= 3, "{report}");
        assert_eq!(report.latencies.len(), report.turns);
        assert!(report.to_string().contains("p99"), "{report}");
    }
}
