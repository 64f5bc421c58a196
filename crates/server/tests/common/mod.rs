//! A server on a temporary database, and clients for it: HTTP, the NDJSON
//! stream and the WebSocket. Every wait has a generous deadline, and no
//! test measures speed.

#![allow(dead_code)]

use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use parity_rules::Registry;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

pub const PATIENCE: Duration = Duration::from_secs(60);

pub struct TestServer {
    pub base: String,
    pub http: reqwest::Client,
    /// The server's public key: its records are signed with it.
    pub key: ed25519_dalek::VerifyingKey,
    /// The server's engine workers.
    pub engines: parity_server::game::engine_seat::EnginePool,
    _dir: tempfile::TempDir,
}

pub async fn start() -> TestServer {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("test.sqlite");
    start_on(dir, &db).await.0
}

/// A server on the database `db` (in `dir`, kept while the server lives),
/// with the number of unfinished games it resumed.
pub async fn start_on(dir: tempfile::TempDir, db: &std::path::Path) -> (TestServer, usize) {
    start_with(dir, database_for(db).await, |_| {}).await
}

/// The database of a test server for the file `path`: that SQLite file,
/// or with `PARITY_TEST_BACKEND=postgres` a database named after the path
/// on the PostgreSQL server `PARITY_TEST_POSTGRES` (`scripts/test` starts
/// one and runs the server tests on each backend). The same path gives the
/// same database, so a restarted server finds its games.
pub async fn database_for(path: &std::path::Path) -> parity_server::Database {
    if std::env::var("PARITY_TEST_BACKEND").as_deref() != Ok("postgres") {
        return parity_server::Database::from(path);
    }
    let base = std::env::var("PARITY_TEST_POSTGRES")
        .expect("PARITY_TEST_BACKEND=postgres needs PARITY_TEST_POSTGRES, a server's URL");
    let digest = Sha256::digest(path.to_string_lossy().as_bytes());
    let name: String = digest[..8].iter().map(|b| format!("{b:02x}")).collect();
    parity_server::store::ensure_postgres_database(&base, &format!("t_{name}"))
        .await
        .expect("a test database")
}

/// As [`start_on`], on the database `db`, with the limits changed by `tune`.
pub async fn start_with(
    dir: tempfile::TempDir,
    db: parity_server::Database,
    tune: impl FnOnce(&mut parity_server::base::limits::Limits),
) -> (TestServer, usize) {
    // Tests play both seats from one address, faster than people do.
    let mut config = parity_server::base::limits::Config::default();
    config.limits.actions_per_second = std::num::NonZeroU32::new(1000).unwrap();
    tune(&mut config.limits);
    serve(dir, db, config).await
}

/// A server with the limits of `config`, as [`start_on`].
pub async fn start_configured(
    dir: tempfile::TempDir,
    db: &std::path::Path,
    config: parity_server::base::limits::Config,
) -> (TestServer, usize) {
    serve(dir, database_for(db).await, config).await
}

async fn serve(
    dir: tempfile::TempDir,
    db: parity_server::Database,
    config: parity_server::base::limits::Config,
) -> (TestServer, usize) {
    let (test, server) = serve_keeping(dir, db, config).await;
    (test, server.recovered)
}

/// As [`serve`], keeping the server (to shut it down).
pub async fn serve_keeping(
    dir: tempfile::TempDir,
    db: parity_server::Database,
    config: parity_server::base::limits::Config,
) -> (TestServer, parity_server::Server) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let server = parity_server::start(db, listener, Registry::builtin(), config)
        .await
        .expect("server starts");
    let test = TestServer {
        base: format!("http://{}", server.addr),
        http: reqwest::Client::new(),
        key: server.hub.keys().public_key(),
        engines: server.hub.engines().pool().clone(),
        _dir: dir,
    };
    (test, server)
}

/// The commitment as docs/server.md defines it, computed here independently.
pub fn commitment(game: &str, turn: u64, side: &str, mv: &str, nonce: &str) -> String {
    let digest = Sha256::digest(format!("{game}:{turn}:{side}:{mv}:{nonce}").as_bytes());
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// A fresh nonce: 32 lowercase hex characters.
pub fn nonce(n: u64) -> String {
    format!(
        "{:032x}",
        0x5eed_0000_0000_0000_u128 + u128::from(n) * 0x1_0000_0001
    )
}

/// A status and the JSON (or text) body of an answer.
pub struct Answer {
    pub status: u16,
    pub body: Value,
    pub text: String,
}

impl TestServer {
    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    /// `parity verify` of a record text, with this server's key.
    pub fn verify(
        &self,
        record: &str,
    ) -> Result<parity_server::game::verify::Verified, parity_server::game::verify::VerifyError>
    {
        parity_server::game::verify::verify(&Registry::builtin(), record, Some(&self.key))
    }

    pub async fn send(&self, request: reqwest::RequestBuilder) -> Answer {
        let response = request.send().await.expect("request");
        let status = response.status().as_u16();
        let text = response.text().await.expect("body");
        let body = serde_json::from_str(&text).unwrap_or(Value::Null);
        Answer { status, body, text }
    }

    pub async fn get(&self, path: &str, token: Option<&str>) -> Answer {
        let mut r = self.http.get(self.url(path));
        if let Some(t) = token {
            r = r.bearer_auth(t);
        }
        self.send(r).await
    }

    pub async fn post(&self, path: &str, token: Option<&str>, body: Option<Value>) -> Answer {
        let mut r = self.http.post(self.url(path));
        if let Some(t) = token {
            r = r.bearer_auth(t);
        }
        if let Some(b) = body {
            r = r.json(&b);
        }
        self.send(r).await
    }

    /// Creates a game; returns the answer's JSON.
    pub async fn create(&self, request: Value) -> Value {
        let a = self.post("/api/games", None, Some(request)).await;
        assert_eq!(a.status, 201, "{}", a.text);
        a.body
    }

    /// A game against a friend: (id, creator's token, friend's token).
    pub async fn friend_game(&self, variant: &str, clock: Value) -> (String, String, String) {
        let created = self
            .create(
                json!({"variant": variant, "clock": clock, "opponent": "friend", "color": "white"}),
            )
            .await;
        let id = created["id"].as_str().unwrap().to_string();
        let invite = created["invite"].as_str().unwrap();
        let joined = self
            .post(
                &format!("/api/games/{id}/join"),
                None,
                Some(json!({"invite": invite})),
            )
            .await;
        assert_eq!(joined.status, 200, "{}", joined.text);
        assert_eq!(joined.body["color"], "black");
        (
            id,
            created["token"].as_str().unwrap().to_string(),
            joined.body["token"].as_str().unwrap().to_string(),
        )
    }

    pub async fn full(&self, id: &str, token: Option<&str>) -> Value {
        let a = self.get(&format!("/api/games/{id}"), token).await;
        assert_eq!(a.status, 200, "{}", a.text);
        a.body
    }

    /// A seat action; returns the answer.
    pub async fn act(&self, id: &str, token: &str, what: &str, body: Option<Value>) -> Answer {
        self.post(&format!("/api/board/game/{id}/{what}"), Some(token), body)
            .await
    }

    pub async fn ok(&self, id: &str, token: &str, what: &str, body: Option<Value>) -> u64 {
        let a = self.act(id, token, what, body).await;
        assert_eq!(a.status, 200, "{what}: {}", a.text);
        assert_eq!(a.body["ok"], true);
        a.body["seq"].as_u64().expect("seq")
    }

    /// Commits to a move of the current turn; returns the nonce.
    pub async fn commit(&self, id: &str, token: &str, side: &str, mv: &str, n: u64) -> String {
        let turn = self.full(id, Some(token)).await["turn"].as_u64().unwrap();
        let nonce = nonce(n);
        let c = commitment(id, turn, side, mv, &nonce);
        self.ok(id, token, "commit", Some(json!({"commitment": c})))
            .await;
        nonce
    }

    pub async fn reveal(&self, id: &str, token: &str, mv: &str, nonce: &str) -> u64 {
        self.ok(
            id,
            token,
            "reveal",
            Some(json!({"move": mv, "nonce": nonce})),
        )
        .await
    }

    /// Opens the NDJSON stream of a game.
    pub async fn stream(&self, id: &str, token: Option<&str>, since: Option<u64>) -> Lines {
        let mut path = format!("/api/games/{id}/stream");
        if let Some(s) = since {
            path.push_str(&format!("?since={s}"));
        }
        let mut r = self.http.get(self.url(&path));
        if let Some(t) = token {
            r = r.bearer_auth(t);
        }
        let response = r.send().await.expect("stream opens");
        assert_eq!(response.status().as_u16(), 200);
        assert_eq!(
            response.headers()["content-type"].to_str().unwrap(),
            "application/x-ndjson"
        );
        let raw = Arc::new(Mutex::new(Vec::new()));
        let (tx, rx) = mpsc::unbounded_channel();
        let keep = raw.clone();
        tokio::spawn(async move {
            let mut body = response.bytes_stream();
            let mut pending = Vec::new();
            while let Some(Ok(chunk)) = body.next().await {
                keep.lock().unwrap().extend_from_slice(&chunk);
                pending.extend_from_slice(&chunk);
                while let Some(i) = pending.iter().position(|&b| b == b'\n') {
                    let line: Vec<u8> = pending.drain(..=i).collect();
                    let line = String::from_utf8_lossy(&line[..line.len() - 1]).to_string();
                    if !line.is_empty() && tx.send(line).is_err() {
                        return;
                    }
                }
            }
        });
        Lines {
            raw,
            lines: rx,
            seen: Vec::new(),
        }
    }

    /// Opens the WebSocket of a game; the token goes as the seat cookie.
    pub async fn websocket(
        &self,
        id: &str,
        cookie_token: Option<&str>,
        since: Option<u64>,
    ) -> Socket {
        let mut url = format!("{}/api/ws/game/{id}", self.base.replace("http://", "ws://"));
        if let Some(s) = since {
            url.push_str(&format!("?since={s}"));
        }
        let mut request = url.into_client_request().expect("ws url");
        if let Some(t) = cookie_token {
            request.headers_mut().insert(
                "cookie",
                format!("theme=dark; parity_seat_{id}={t}").parse().unwrap(),
            );
        }
        let (stream, _) = tokio_tungstenite::connect_async(request)
            .await
            .expect("websocket opens");
        let (mut sink, mut source) = stream.split();
        let raw = Arc::new(Mutex::new(Vec::new()));
        let (tx, rx) = mpsc::unbounded_channel();
        let (out, mut outgoing) = mpsc::unbounded_channel::<String>();
        let keep = raw.clone();
        tokio::spawn(async move {
            loop {
                tokio::select! {
                    msg = source.next() => match msg {
                        Some(Ok(Message::Text(text))) => {
                            keep.lock().unwrap().extend_from_slice(text.as_bytes());
                            keep.lock().unwrap().push(b'\n');
                            if tx.send(text.to_string()).is_err() {
                                return;
                            }
                        }
                        Some(Ok(_)) => {}
                        _ => return,
                    },
                    text = outgoing.recv() => match text {
                        Some(text) => {
                            if sink.send(Message::Text(text.into())).await.is_err() {
                                return;
                            }
                        }
                        None => return,
                    },
                }
            }
        });
        Socket {
            lines: Lines {
                raw,
                lines: rx,
                seen: Vec::new(),
            },
            out,
            next_id: 1,
        }
    }
}

/// Lines of a stream or WebSocket, kept raw too.
pub struct Lines {
    pub raw: Arc<Mutex<Vec<u8>>>,
    lines: mpsc::UnboundedReceiver<String>,
    pub seen: Vec<Value>,
}

impl Lines {
    /// Waits for the first line (from the one after the last returned)
    /// that satisfies `pred`.
    pub async fn until(&mut self, what: &str, pred: impl Fn(&Value) -> bool) -> Value {
        let wait = async {
            loop {
                let line = self.lines.recv().await.expect("stream open");
                let value: Value = serde_json::from_str(&line).expect("a JSON line");
                self.seen.push(value.clone());
                if pred(&value) {
                    return value;
                }
            }
        };
        tokio::time::timeout(PATIENCE, wait)
            .await
            .unwrap_or_else(|_| {
                let kinds: Vec<String> = self
                    .seen
                    .iter()
                    .map(|v| format!("{}:{}", v["seq"], v["type"]))
                    .collect();
                panic!("waited too long for {what}; seen {kinds:?}")
            })
    }

    /// Waits for the event with this seq.
    pub async fn event(&mut self, seq: u64) -> Value {
        self.until(&format!("event {seq}"), |v| {
            v["seq"] == seq && v["type"] != "gameFull"
        })
        .await
    }

    pub fn raw_text(&self) -> String {
        String::from_utf8_lossy(&self.raw.lock().unwrap()).to_string()
    }
}

pub struct Socket {
    pub lines: Lines,
    out: mpsc::UnboundedSender<String>,
    next_id: u64,
}

impl Socket {
    /// Sends an action and waits for its ack or error.
    pub async fn act(&mut self, mut action: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        action["id"] = id.into();
        self.out.send(action.to_string()).expect("socket open");
        self.lines
            .until("the answer", |v| {
                (v["type"] == "ack" || v["type"] == "error") && v["id"] == id
            })
            .await
    }

    pub fn send_raw(&self, text: &str) {
        self.out.send(text.to_string()).expect("socket open");
    }
}

/// A message with what every viewer may see anyway taken out: the lists
/// of legal moves (they hold every move), and random hex (commitments,
/// nonces, a record's key and signature) and the game id, which could
/// spell a move's letters by chance.
pub fn scrub(text: &str, id: &str) -> String {
    fn walk(v: &mut Value) {
        match v {
            Value::Object(map) => {
                map.remove("legal");
                map.values_mut().for_each(walk);
            }
            Value::Array(items) => items.iter_mut().for_each(walk),
            Value::String(s) => {
                let hex = s.bytes().all(|b| b.is_ascii_hexdigit());
                if hex && [32, 64, 128].contains(&s.len()) {
                    s.clear();
                }
            }
            _ => {}
        }
    }
    let mut out = String::new();
    for line in text.lines() {
        match serde_json::from_str::<Value>(line) {
            Ok(mut v) => {
                walk(&mut v);
                out.push_str(&v.to_string());
            }
            Err(_) => out.push_str(line),
        }
        out.push('\n');
    }
    out.replace(id, "")
}

/// The legal moves of `side` in a `gameFull`.
pub fn legal(full: &Value, side: &str) -> Vec<String> {
    full["legal"][side]
        .as_array()
        .map(|l| l.iter().map(|m| m.as_str().unwrap().to_string()).collect())
        .unwrap_or_default()
}
pub mod browser;

/// A server for the browser tests on a fresh database and port, in this
/// test's runtime: its base URL.
pub async fn start_server(dir: &std::path::Path) -> String {
    start_server_with(dir, Default::default()).await
}

/// As [`start_server`], within `config`'s limits.
pub async fn start_server_with(
    dir: &std::path::Path,
    config: parity_server::base::limits::Config,
) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let server = parity_server::start(
        database_for(&dir.join("games.sqlite")).await,
        listener,
        Registry::builtin(),
        config,
    )
    .await
    .expect("the server starts");
    format!("http://{}", server.addr)
}

/// Runs SQL (one statement, values written in) on a test database, and
/// reads back the first column of the first row as a number, if any.
pub async fn sql_i64(db: &parity_server::Database, statement: &str) -> Option<i64> {
    match db {
        parity_server::Database::Sqlite(path) => {
            let conn = rusqlite::Connection::open(path).expect("the test database");
            let mut stmt = conn.prepare(statement).expect(statement);
            let mut rows = stmt.query([]).expect(statement);
            rows.next()
                .expect(statement)
                .and_then(|row| row.get::<_, i64>(0).ok())
        }
        parity_server::Database::Postgres(url) => {
            let (client, connection) = tokio_postgres::connect(url, tokio_postgres::NoTls)
                .await
                .expect("the test database");
            tokio::spawn(connection);
            let rows = client.query(statement, &[]).await.expect(statement);
            rows.first().and_then(|row| row.try_get::<_, i64>(0).ok())
        }
    }
}
