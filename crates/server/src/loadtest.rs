//! `parity loadtest`: the server in-process on a temporary database, and
//! N simultaneous games played over loopback WebSockets by clients that
//! pick random legal moves. It reports the sustained moves per second
//! (every event durable before it is acknowledged) and the latency from a
//! turn's last reveal to its `turn` broadcast.
//!
//! With a target rate, each game plays a turn every `2 * games / rate`
//! seconds on a fixed schedule (games evenly staggered), as people do who
//! think between moves; a game that falls behind plays its late turns at
//! once. Without one, every game plays as fast as it can: that measures
//! capacity, and latency is then mostly the queue the clients build.
//!
//! Given the addresses of running servers (the nodes of a cluster), it
//! plays there instead, over HTTP and WebSockets only: games are created
//! on the nodes in turn, and each game's black seat joins and plays on
//! the next node, so the two players of a game are on different nodes.

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

use crate::base::limits::{Config, Limits};
use crate::base::secret;
use crate::game::event::LiveClock;
use crate::game::play;
use crate::hub::new_game::{ColorChoice, NewGame, Opponent};
use crate::hub::Hub;
use parity_rules::AnyGame;

#[derive(Clone, Debug)]
pub struct LoadConfig {
    pub games: usize,
    /// Turns per game at most; a game still going then is resigned.
    pub turns: u32,
    /// A simultaneous variant.
    pub variant: String,
    /// Moves per second offered by all games together; `None`: as fast as possible.
    pub rate: Option<f64>,
    /// Running servers to play on (`http://HOST:PORT` or `https://`);
    /// none: a server in-process on a temporary SQLite database.
    pub servers: Vec<String>,
    /// A CA file (PEM) trusted for https servers, beside the system's roots.
    pub ca_file: Option<std::path::PathBuf>,
    /// Where in its slot of the schedule each paced game starts, as a
    /// fraction of the slot: client processes playing one load each take
    /// their own, so their games do not all move at the same instants.
    pub phase: f64,
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
    pub rate: Option<f64>,
    pub turns: usize,
    pub elapsed: Duration,
    /// From the last reveal sent to the `turn` event received, per turn.
    pub latencies: Vec<Duration>,
    /// Paced runs of 3 turns or more: moves per second completed while every
    /// game was on its schedule.
    pub steady: Option<f64>,
    /// The CPU time (user and system) the server process spent while the
    /// games played, when it is known (a server in its own process here).
    pub server_cpu: Option<Duration>,
    /// Client processes whose reports were merged into this one (1: this one).
    pub clients: usize,
}

impl LoadReport {
    /// The report as one line of JSON, as a client process hands it to the
    /// one that merges (latencies in microseconds, every one of them).
    pub fn to_json(&self) -> Value {
        json!({
            "games": self.games,
            "rate": self.rate,
            "turns": self.turns,
            "elapsed_us": self.elapsed.as_micros() as u64,
            "latencies_us": self.latencies.iter().map(|d| d.as_micros() as u64).collect::<Vec<_>>(),
            "steady": self.steady,
            "server_cpu_us": self.server_cpu.map(|d| d.as_micros() as u64),
            "clients": self.clients,
        })
    }

    pub fn from_json(v: &Value) -> Result<LoadReport, String> {
        let count = |key: &str| {
            v[key]
                .as_u64()
                .ok_or_else(|| format!("a client's report has no {key}"))
        };
        let latencies = v["latencies_us"]
            .as_array()
            .ok_or("a client's report has no latencies")?
            .iter()
            .map(|l| l.as_u64().map(Duration::from_micros).ok_or("a bad latency"))
            .collect::<Result<_, _>>()?;
        Ok(LoadReport {
            games: count("games")? as usize,
            rate: v["rate"].as_f64(),
            turns: count("turns")? as usize,
            elapsed: Duration::from_micros(count("elapsed_us")?),
            latencies,
            steady: v["steady"].as_f64(),
            server_cpu: v["server_cpu_us"].as_u64().map(Duration::from_micros),
            clients: v["clients"].as_u64().unwrap_or(1) as usize,
        })
    }

    /// The reports of client processes that played one load together,
    /// started at one signal: games, turns and rates add up, the run lasts
    /// as long as the longest, and percentiles are taken over every
    /// latency, not averaged.
    pub fn merge(reports: Vec<LoadReport>) -> LoadReport {
        let sum = |f: fn(&LoadReport) -> Option<f64>| {
            reports
                .iter()
                .map(f)
                .collect::<Option<Vec<_>>>()
                .map(|v| v.iter().sum())
        };
        LoadReport {
            games: reports.iter().map(|r| r.games).sum(),
            rate: sum(|r| r.rate),
            turns: reports.iter().map(|r| r.turns).sum(),
            elapsed: reports.iter().map(|r| r.elapsed).max().unwrap_or_default(),
            steady: sum(|r| r.steady),
            server_cpu: None,
            clients: reports.iter().map(|r| r.clients).sum(),
            latencies: reports.into_iter().flat_map(|r| r.latencies).collect(),
        }
    }
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
        let offered = match self.rate {
            Some(rate) => format!("{rate:.0} moves/s offered"),
            None => "as fast as possible".to_string(),
        };
        let clients = match self.clients {
            0 | 1 => String::new(),
            n => format!(" by {n} client processes"),
        };
        writeln!(
            f,
            "games {}, {offered}{clients}: turns {} ({} moves) in {:.2} s",
            self.games, self.turns, moves, secs
        )?;
        if let Some(cpu) = self.server_cpu {
            writeln!(
                f,
                "server CPU {:.2} s (user and system): {:.3} s per 1000 moves",
                cpu.as_secs_f64(),
                cpu.as_secs_f64() * 1000.0 / moves.max(1) as f64
            )?;
        }
        let sustained = match self.steady {
            Some(steady) => format!("{steady:.0} sustained while every game was on its schedule"),
            None => format!("{:.0} sustained", moves as f64 / secs),
        };
        writeln!(
            f,
            "moves/s {sustained} (5 durable events per turn: 2 commits, 2 reveals, the turn)"
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

/// How long a seat's WebSocket may take to open.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(60);

type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// One seat's WebSocket.
struct Seat {
    sink: SplitSink<Socket, Message>,
    source: SplitStream<Socket>,
    next_id: u64,
}

impl Seat {
    async fn connect(
        base: &str,
        game: &str,
        token: &str,
        tls: Option<Arc<rustls::ClientConfig>>,
    ) -> Result<Seat, String> {
        let url = format!("{base}/api/ws/game/{game}");
        let mut request = url.into_client_request().map_err(|e| e.to_string())?;
        let cookie = format!("parity_seat_{game}={token}")
            .parse()
            .map_err(|e| format!("{e}"))?;
        request.headers_mut().insert("cookie", cookie);
        let connector = tls.map(tokio_tungstenite::Connector::Rustls);
        let connecting =
            tokio_tungstenite::connect_async_tls_with_config(request, None, true, connector);
        // A server out of descriptors leaves connections in its backlog
        // unanswered: give up rather than wait for ever.
        let (socket, _) = tokio::time::timeout(CONNECT_TIMEOUT, connecting)
            .await
            .map_err(|_| {
                format!(
                    "websocket: no answer in {} s (is the server out of open files? it logs `accept: Too many open files`)",
                    CONNECT_TIMEOUT.as_secs()
                )
            })?
            .map_err(|e| crate::base::os::explain_open_files(format!("websocket: {e}")))?;
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
    play: AnyGame,
}

/// Where the games are played.
#[derive(Clone)]
enum Servers {
    /// In this process: games are created through its hub.
    Here { hub: Arc<Hub>, base: String },
    /// Running nodes, in turn; `next` counts the games set.
    Nodes {
        bases: Arc<[String]>,
        next: Arc<std::sync::atomic::AtomicUsize>,
        http: reqwest::Client,
        /// For `https://` nodes: their sockets over wss.
        tls: Arc<rustls::ClientConfig>,
    },
}

/// What it takes to set a new table.
#[derive(Clone)]
struct TableStart {
    servers: Servers,
    registry: Registry,
    variant: String,
}

impl TableStart {
    async fn set(&self) -> Result<Table, String> {
        match &self.servers {
            Servers::Here { hub, base } => set_table(hub, base, &self.variant).await,
            Servers::Nodes {
                bases,
                next,
                http,
                tls,
            } => {
                let n = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let (white, black) = (&bases[n % bases.len()], &bases[(n + 1) % bases.len()]);
                self.set_remote(http, tls, white, black).await
            }
        }
    }

    /// A game created on node `white` and joined on node `black`, each
    /// seat's socket on its node.
    async fn set_remote(
        &self,
        http: &reqwest::Client,
        tls: &Arc<rustls::ClientConfig>,
        white: &str,
        black: &str,
    ) -> Result<Table, String> {
        let post = |url: String, body: Value| {
            http.post(url)
                .header("content-type", "application/json")
                .body(body.to_string())
                .send()
        };
        let read = |response: reqwest::Response| async move {
            let status = response.status();
            let text = response.text().await.map_err(|e| e.to_string())?;
            match status.is_success() {
                true => serde_json::from_str::<Value>(&text).map_err(|e| e.to_string()),
                false => Err(format!("{status}: {text}")),
            }
        };
        let new = json!({"variant": self.variant, "opponent": "friend", "color": "white",
                         "clock": {"initial": 3600, "increment": 0}});
        let created = read(
            post(format!("{white}/api/games"), new)
                .await
                .map_err(|e| e.to_string())?,
        )
        .await?;
        let id = created["id"].as_str().ok_or("no id")?.to_string();
        let invite = json!({"invite": created["invite"]});
        let joined = read(
            post(format!("{black}/api/games/{id}/join"), invite)
                .await
                .map_err(|e| e.to_string())?,
        )
        .await?;
        let token = |v: &Value| v["token"].as_str().map(str::to_string).ok_or("no token");
        let ws = |base: &str| {
            base.replacen("https://", "wss://", 1)
                .replacen("http://", "ws://", 1)
        };
        let tls = Some(tls.clone());
        let white_seat = Seat::connect(&ws(white), &id, &token(&created)?, tls.clone()).await?;
        let black_seat = Seat::connect(&ws(black), &id, &token(&joined)?, tls).await?;
        let v = self.registry.get(&self.variant).ok_or("unknown variant")?;
        Ok(Table {
            id,
            seats: [white_seat, black_seat],
            play: AnyGame::new(v),
        })
    }
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
            public: false,
            fen: None,
        })
        .await
        .map_err(|e| e.to_string())?;
    let invite = created.invite.ok_or("no invite")?;
    let joined = hub
        .join(&created.id, &invite)
        .await
        .map_err(|e| e.to_string())?;
    let white = Seat::connect(base, &created.id, &created.token, None).await?;
    let black = Seat::connect(base, &created.id, &joined.token, None).await?;
    let v = hub.registry().get(variant).ok_or("unknown variant")?;
    Ok(Table {
        id: created.id,
        seats: [white, black],
        play: AnyGame::new(v),
    })
}

/// When a paced game plays its turns: the first at `first`, then one every `period`.
#[derive(Clone, Copy)]
struct Pace {
    first: tokio::time::Instant,
    period: Duration,
}

/// One turn played: when its `turn` event arrived, and how long after the last reveal.
struct TurnTiming {
    resolved: Instant,
    latency: Duration,
}

/// Plays random legal moves for `turns` turns; a paced game that ends is
/// replaced by a new one, so the offered load holds; an unpaced one stops.
async fn play_table(
    mut table: Table,
    next: TableStart,
    turns: u32,
    pace: Option<Pace>,
) -> Result<Vec<TurnTiming>, String> {
    let mut timings = Vec::new();
    for k in 0..turns {
        if table.play.outcome().is_some() {
            if pace.is_none() {
                return Ok(timings);
            }
            table = next.set().await?;
        }
        if let Some(pace) = pace {
            tokio::time::sleep_until(pace.first + pace.period * k).await;
        }
        let turn = table.play.turn();
        let mut chosen = Vec::with_capacity(2);
        for color in Color::ALL {
            let legal = play::legal_texts(&table.play, color);
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
                timings.push(TurnTiming {
                    resolved: found[1].1,
                    latency: found[1].1 - last_reveal,
                });
                resolved = found[1].0.clone();
            }
        }
        let moves: Vec<_> = Color::ALL
            .iter()
            .map(|&c| {
                let uci = resolved[c.name()]["uci"].as_str().unwrap_or_default();
                play::read_move(&table.play, c, uci).map_err(|e| e.to_string())
            })
            .collect::<Result<_, _>>()?;
        table
            .play
            .play_turn(moves[0], moves[1])
            .map_err(|e| e.to_string())?;
    }
    if table.play.outcome().is_none() {
        let id = table.seats[0].send(json!({"t": "resign"})).await?;
        table.seats[0].acked(id).await?;
    }
    Ok(timings)
}

/// Runs the load test on the current tokio runtime.
pub async fn run(config: &LoadConfig) -> Result<LoadReport, LoadError> {
    run_gated(config, async {}).await
}

/// Runs the load test, the games set first and played once `gate` is
/// ready: client processes set their tables, then all start together.
pub async fn run_gated(
    config: &LoadConfig,
    gate: impl std::future::Future<Output = ()>,
) -> Result<LoadReport, LoadError> {
    let setup = |e: String| LoadError::Setup(e);
    if config.rate.is_some_and(|r| !(r.is_finite() && r > 0.0)) {
        return Err(setup(
            "the rate must be a positive number of moves per second".into(),
        ));
    }
    let registry = Registry::builtin();
    let variant = registry
        .get_or_err(&config.variant)
        .map_err(|e| setup(e.to_string()))?;
    if !AnyGame::new(variant).is_simultaneous() {
        return Err(setup(format!(
            "{} is not a simultaneous variant",
            variant.id()
        )));
    }
    let dir = tempfile::tempdir().map_err(|e| setup(e.to_string()))?;
    let servers = match config.servers.as_slice() {
        [] => serve_here(config, &dir, registry.clone()).await?,
        bases => Servers::Nodes {
            bases: bases
                .iter()
                .map(|b| b.trim_end_matches('/').to_string())
                .collect(),
            next: Default::default(),
            http: crate::base::tls::http_client(config.ca_file.as_deref())
                .map_err(|e| setup(e.to_string()))?
                .no_proxy()
                .build()
                .map_err(|e| setup(e.to_string()))?,
            tls: Arc::new(
                crate::base::tls::client_config(config.ca_file.as_deref())
                    .map_err(|e| setup(e.to_string()))?,
            ),
        },
    };
    let next = TableStart {
        servers,
        registry,
        variant: config.variant.clone(),
    };
    play_all(config, next, gate).await
}

/// The server in this process, on a temporary SQLite database in `dir`.
async fn serve_here(
    config: &LoadConfig,
    dir: &tempfile::TempDir,
    registry: Registry,
) -> Result<Servers, LoadError> {
    let setup = |e: String| LoadError::Setup(e);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .map_err(|e| setup(e.to_string()))?;
    // Every player is on this machine: the per-address limits are lifted
    // to what the load needs, every other limit stays as served.
    let served = Config {
        limits: Limits {
            max_connections: Limits::default().max_connections.max(2 * config.games + 64),
            max_connections_per_ip: usize::MAX,
            actions_per_second: std::num::NonZeroU32::new(1_000_000).expect("not zero"),
            ..Limits::default()
        },
        ..Config::default()
    };
    let server = crate::start(&dir.path().join("load.sqlite"), listener, registry, served)
        .await
        .map_err(|e| setup(e.to_string()))?;
    Ok(Servers::Here {
        hub: server.hub.clone(),
        base: format!("ws://{}", server.addr),
    })
}

/// Sets every table, plays them all and reports.
async fn play_all(
    config: &LoadConfig,
    next: TableStart,
    gate: impl std::future::Future<Output = ()>,
) -> Result<LoadReport, LoadError> {
    let setup = |e: String| LoadError::Setup(crate::base::os::explain_open_files(e));
    // Tables are set a few at a time, so connections do not pile up in the backlog.
    let setting = Arc::new(Semaphore::new(32));
    let mut pending = Vec::with_capacity(config.games);
    for _ in 0..config.games {
        let (next, setting) = (next.clone(), setting.clone());
        pending.push(tokio::spawn(async move {
            let _permit = setting.acquire_owned().await.map_err(|e| e.to_string())?;
            next.set().await
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
    gate.await;

    let start = Instant::now();
    let period = config
        .rate
        .map(|rate| Duration::from_secs_f64(2.0 * config.games as f64 / rate));
    let games: Vec<_> = tables
        .into_iter()
        .enumerate()
        .map(|(i, table)| {
            let id = table.id.clone();
            let pace = period.map(|period| Pace {
                first: tokio::time::Instant::from_std(start)
                    + period.mul_f64((i as f64 + config.phase) / config.games as f64),
                period,
            });
            let next = next.clone();
            (
                id,
                tokio::spawn(play_table(table, next, config.turns, pace)),
            )
        })
        .collect();
    let mut timings = Vec::new();
    for (game, task) in games {
        let played = task.await.map_err(|e| LoadError::Game {
            game: game.clone(),
            message: e.to_string(),
        })?;
        timings.extend(played.map_err(|message| LoadError::Game {
            game,
            message: crate::base::os::explain_open_files(message),
        })?);
    }
    let elapsed = start.elapsed();
    // Every game is on its schedule from the end of the first period (the
    // last one has started) to the start of the last one (the first has
    // stopped); turns resolving just after the window balance those that
    // were sent just before it.
    let steady = period.filter(|_| config.turns >= 3).map(|period| {
        let (from, to) = (start + period, start + period * (config.turns - 1));
        let done = timings
            .iter()
            .filter(|t| (from..=to).contains(&t.resolved))
            .count();
        2.0 * done as f64 / (to - from).as_secs_f64()
    });
    Ok(LoadReport {
        games: config.games,
        rate: config.rate,
        turns: timings.len(),
        elapsed,
        latencies: timings.into_iter().map(|t| t.latency).collect(),
        steady,
        server_cpu: None,
        clients: 1,
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
    fn reports_merge_over_every_latency() {
        let report = |ms: &[u64], steady| LoadReport {
            games: 2,
            rate: Some(10.0),
            turns: ms.len(),
            elapsed: Duration::from_millis(ms.len() as u64 * 100),
            latencies: ms.iter().copied().map(Duration::from_millis).collect(),
            steady: Some(steady),
            server_cpu: None,
            clients: 1,
        };
        let a = report(&[1, 2, 3], 9.0);
        let back = LoadReport::from_json(&a.to_json()).expect("reads");
        assert_eq!((back.turns, &back.latencies), (3, &a.latencies));
        let merged = LoadReport::merge(vec![back, report(&[100; 7], 10.0)]);
        assert_eq!((merged.games, merged.turns, merged.clients), (4, 10, 2));
        assert_eq!((merged.rate, merged.steady), (Some(20.0), Some(19.0)));
        assert_eq!(merged.elapsed, Duration::from_millis(700));
        let text = merged.to_string();
        // p50 over all ten latencies is 100 ms, not an average of the two p50s.
        assert!(
            text.contains("p50 100.0 ms") && text.contains("2 client processes"),
            "{text}"
        );
    }

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
            rate: None,
            servers: Vec::new(),
            ca_file: None,
            phase: 0.0,
        };
        let report = run(&config).await.expect("runs");
        assert_eq!(report.games, 3);
        assert!(report.turns >= 3, "{report}");
        assert_eq!(report.latencies.len(), report.turns);
        assert!(report.to_string().contains("p99"), "{report}");
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_paced_load_test_keeps_to_its_schedule() {
        // 4 games at 16 moves/s: one turn per game every 0.5 s, so 3 turns
        // take at least 1 s (the last game starts 3/8 s late); the steady
        // window, from 0.5 s to 1 s, holds the 4 second turns.
        let config = LoadConfig {
            games: 4,
            turns: 3,
            variant: "parity".into(),
            rate: Some(16.0),
            servers: Vec::new(),
            ca_file: None,
            phase: 0.0,
        };
        let report = run(&config).await.expect("runs");
        assert_eq!(report.turns, 12, "{report}");
        let steady = report.steady.expect("paced");
        assert!((8.0..=24.0).contains(&steady), "{report}");
        assert!(report.elapsed >= Duration::from_millis(1000), "{report}");
        assert!(
            report.to_string().contains("16 moves/s offered"),
            "{report}"
        );
        let bad = LoadConfig {
            rate: Some(0.0),
            ..config
        };
        assert!(matches!(run(&bad).await, Err(LoadError::Setup(_))));
    }
}
