//! `parity serve` under attack, over loopback: each attack gets its 4xx,
//! 429 or 503 with a JSON error body, changes nothing, and leaves the
//! server's resident memory under [`MAX_RSS_MB`]. Counts and waits are
//! bounded so the whole file runs in well under a minute.

use crate::common;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::Child;
use std::thread;
use std::time::{Duration, Instant};

use reqwest::blocking::{Client, RequestBuilder};
use serde_json::{json, Value};

/// The bound on the server's resident memory after every attack.
const MAX_RSS_MB: u64 = 150;

/// A running `parity serve` with its own flags; killed when dropped.
struct Target {
    child: Child,
    base: String,
    http: Client,
    db: std::path::PathBuf,
    _dir: tempfile::TempDir,
}

impl Target {
    fn start(flags: &[&str]) -> Target {
        let dir = tempfile::tempdir().expect("temp dir");
        let db = dir.path().join("games.sqlite");
        let (child, base) = common::serve(&db, flags);
        let http = Client::builder()
            .timeout(Duration::from_secs(30))
            .build()
            .expect("client");
        Target {
            child,
            base,
            http,
            db,
            _dir: dir,
        }
    }

    fn addr(&self) -> &str {
        self.base.trim_start_matches("http://")
    }

    fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    /// Status, headers and JSON body (`Value::Null` if not JSON).
    fn send(&self, request: RequestBuilder) -> (u16, reqwest::header::HeaderMap, Value, String) {
        let response = request.send().expect("request");
        let status = response.status().as_u16();
        let headers = response.headers().clone();
        let text = response.text().expect("body");
        let body = serde_json::from_str(&text).unwrap_or(Value::Null);
        (status, headers, body, text)
    }

    fn create(&self, request: Value) -> (u16, reqwest::header::HeaderMap, Value, String) {
        self.send(self.http.post(self.url("/api/games")).json(&request))
    }

    fn get(&self, path: &str) -> Value {
        let (status, _, body, text) = self.send(self.http.get(self.url(path)));
        assert_eq!(status, 200, "{path}: {text}");
        body
    }

    fn record(&self, id: &str) -> String {
        self.send(self.http.get(self.url(&format!("/api/games/{id}/record"))))
            .3
    }

    /// The server's resident memory, in MB.
    fn rss_mb(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
            .expect("/proc/PID/status");
        let kib: u64 = status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.split_whitespace().next())
            .and_then(|v| v.parse().ok())
            .expect("VmRSS");
        kib / 1024
    }

    fn assert_memory(&self, after: &str) {
        let rss = self.rss_mb();
        println!("after {after}: server RSS {rss} MB");
        assert!(rss < MAX_RSS_MB, "after {after}: RSS {rss} MB");
    }
}

impl Drop for Target {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Checks an error answer: the status, and `{"error": ...}` short enough
/// not to echo a large input.
fn assert_error(
    answer: &(u16, reqwest::header::HeaderMap, Value, String),
    status: u16,
    what: &str,
) {
    let (got, _, body, text) = answer;
    assert_eq!(*got, status, "{what}: {text}");
    assert!(
        body["error"].is_string(),
        "{what}: not a JSON error: {text:?}"
    );
    assert!(text.len() < 400, "{what}: {} bytes of error", text.len());
}

/// A raw request on a fresh connection; the answer's status line and the
/// rest of what the server sent.
fn raw(addr: &str, request: &[u8]) -> (String, String) {
    let mut tcp = TcpStream::connect(addr).expect("connect");
    tcp.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    tcp.write_all(request).expect("write");
    let mut answer = Vec::new();
    let mut chunk = [0u8; 4096];
    while let Ok(n) = tcp.read(&mut chunk) {
        if n == 0 {
            break;
        }
        answer.extend_from_slice(&chunk[..n]);
        if answer.windows(4).any(|w| w == b"\r\n\r\n") {
            if answer.starts_with(b"HTTP/1.1 101") {
                break;
            }
            // The head is in: the short body follows at once.
            tcp.set_read_timeout(Some(Duration::from_millis(300)))
                .unwrap();
        }
    }
    let text = String::from_utf8_lossy(&answer).to_string();
    let (status, rest) = text.split_once("\r\n").unwrap_or((&text, ""));
    (status.to_string(), rest.to_string())
}

/// [`raw`], read as [`Target::send`] reads an answer: status, headers,
/// JSON body and its text. For requests a client cannot finish writing
/// because the server answers first and closes (a too-large body).
fn raw_answer(addr: &str, request: &[u8]) -> (u16, reqwest::header::HeaderMap, Value, String) {
    let (status_line, rest) = raw(addr, request);
    let status = status_line
        .split(' ')
        .nth(1)
        .and_then(|code| code.parse().ok())
        .unwrap_or_else(|| panic!("no status in {status_line:?}"));
    let (head, text) = rest.split_once("\r\n\r\n").unwrap_or((&rest, ""));
    let mut headers = reqwest::header::HeaderMap::new();
    for line in head.lines() {
        if let Some((name, value)) = line.split_once(':') {
            let name = reqwest::header::HeaderName::from_bytes(name.trim().as_bytes());
            let value = reqwest::header::HeaderValue::from_str(value.trim());
            if let (Ok(name), Ok(value)) = (name, value) {
                headers.append(name, value);
            }
        }
    }
    let body = serde_json::from_str(text).unwrap_or(Value::Null);
    (status, headers, body, text.to_string())
}

fn upgrade_request(addr: &str, path: &str, extra: &str) -> String {
    format!(
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
         Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n{extra}\r\n"
    )
}

/// Waits (10 s at most) for the server to close `tcp`; what it sent before.
fn assert_closed(tcp: &mut TcpStream, what: &str) -> Vec<u8> {
    tcp.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let mut sent = Vec::new();
    if let Err(e) = tcp.read_to_end(&mut sent) {
        let open = matches!(
            e.kind(),
            std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
        );
        assert!(!open, "{what} stayed open");
    }
    sent
}

/// A public game against a friend; its id.
fn friend_game(t: &Target) -> String {
    let (status, _, body, text) =
        t.create(json!({"variant": "chess", "opponent": "friend", "public": true}));
    assert_eq!(status, 201, "{text}");
    body["id"].as_str().unwrap().to_string()
}

/// Open-file limit of this process: the idle-socket attack opens fewer
/// sockets where it is low.
fn open_file_limit() -> usize {
    std::fs::read_to_string("/proc/self/limits")
        .ok()
        .and_then(|limits| {
            let line = limits.lines().find(|l| l.starts_with("Max open files"))?;
            line.split_whitespace().nth(3)?.parse().ok()
        })
        .unwrap_or(1024)
}

#[test]
fn idle_half_requests_are_cut_by_the_header_timeout_and_the_caps() {
    let sockets = 2000.min(open_file_limit() / 2 - 64);
    let cap = (sockets + 100).to_string();
    let t = Target::start(&[
        "--header-timeout",
        "2",
        "--max-connections",
        &cap,
        "--max-connections-per-ip",
        &cap,
    ]);
    let start = Instant::now();
    let mut idle: Vec<TcpStream> = (0..sockets)
        .map(|_| {
            let mut tcp = TcpStream::connect(t.addr()).expect("connect");
            tcp.write_all(b"GET /api/vari")
                .expect("half a request line");
            tcp
        })
        .collect();
    let opened = Instant::now();
    println!("{sockets} idle sockets opened in {:?}", opened - start);
    thread::sleep(Duration::from_millis(500));
    t.assert_memory(&format!("{sockets} idle sockets"));
    // Each is closed by the server within the header timeout (2 s), plus slack.
    for tcp in &mut idle {
        assert_closed(tcp, "an idle socket");
    }
    // The last was opened at `opened`: its 2 s ran out by then, plus slack.
    let waited = opened.elapsed();
    println!("{sockets} idle sockets all closed {waited:?} after the last opened");
    assert!(waited < Duration::from_secs(8), "{waited:?}");
    drop(idle);
    assert_eq!(t.get("/api/games").as_array().map(Vec::len), Some(0));

    // A small per-IP cap: connections over it are closed at once, and a
    // normal request gets in once the idle ones have timed out.
    let t = Target::start(&["--header-timeout", "2", "--max-connections-per-ip", "20"]);
    let held: Vec<TcpStream> = (0..20)
        .map(|_| {
            let mut tcp = TcpStream::connect(t.addr()).expect("connect");
            tcp.write_all(b"GET /").unwrap();
            tcp
        })
        .collect();
    thread::sleep(Duration::from_millis(200));
    let mut over = TcpStream::connect(t.addr()).expect("the kernel accepts");
    let _ = over.write_all(b"GET /api/variants HTTP/1.1\r\nHost: x\r\n\r\n");
    assert!(assert_closed(&mut over, "a connection over the cap").is_empty());
    thread::sleep(Duration::from_millis(2500));
    assert!(t
        .get("/api/variants")
        .as_array()
        .is_some_and(|v| !v.is_empty()));
    drop(held);
}

#[test]
fn huge_websocket_messages_are_refused_unread() {
    let t = Target::start(&[]);
    let id = friend_game(&t);
    let before = t.record(&id);
    let path = format!("/api/ws/game/{id}");
    let attackers: Vec<_> = (0..4)
        .map(|_| {
            let addr = t.addr().to_string();
            let path = path.clone();
            thread::spawn(move || {
                let mut tcp = TcpStream::connect(&addr).expect("connect");
                tcp.write_all(upgrade_request(&addr, &path, "").as_bytes())
                    .unwrap();
                let mut head = [0u8; 1024];
                let n = tcp.read(&mut head).unwrap();
                let head = String::from_utf8_lossy(&head[..n]).to_string();
                assert!(head.starts_with("HTTP/1.1 101"), "{head}");
                // A masked text frame announcing 60 MB, then as much of it as the server takes.
                let size: u64 = 60 << 20;
                let mut frame = vec![0x81, 0xFF];
                frame.extend_from_slice(&size.to_be_bytes());
                frame.extend_from_slice(&[1, 2, 3, 4]);
                let _ = tcp.write_all(&frame);
                let chunk = vec![b' '; 1 << 20];
                let mut sent = 0u64;
                tcp.set_write_timeout(Some(Duration::from_secs(5))).unwrap();
                while sent < size {
                    match tcp.write(&chunk) {
                        Ok(0) | Err(_) => break,
                        Ok(n) => sent += n as u64,
                    }
                }
                sent
            })
        })
        .collect();
    for attacker in attackers {
        let sent = attacker.join().expect("attacker");
        println!(
            "a 60 MB message: {} MB written before the server closed",
            sent >> 20
        );
        assert!(sent < 60 << 20, "the server read the whole message");
    }
    t.assert_memory("four 60 MB WebSocket messages");
    assert_eq!(t.record(&id), before, "the game changed");
}

#[test]
fn floods_of_games_and_wrong_tokens_get_429() {
    let t = Target::start(&[]);
    let mut answers = [0usize; 600];
    let mut retry_after = None;
    for _ in 0..3000 {
        let answer = t.create(json!({"variant": "chess", "opponent": "friend", "public": true}));
        answers[usize::from(answer.0)] += 1;
        if answer.0 == 429 {
            assert_error(&answer, 429, "a game too many");
            retry_after = answer.1.get("retry-after").cloned();
        }
    }
    println!(
        "3000 games: {} created, {} refused",
        answers[201], answers[429]
    );
    assert_eq!(answers[201], 20, "the default allowance is 20 a minute");
    assert_eq!(answers[429], 2980);
    let wait: u64 = retry_after
        .expect("Retry-After")
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=60).contains(&wait), "Retry-After {wait}");
    assert_eq!(t.get("/api/games").as_array().map(Vec::len), Some(20));
    // Engine games have a stricter allowance of their own.
    let engine = |_| {
        t.create(json!({"variant": "chess", "opponent": {"engine": {"level": 1}}}))
            .0
    };
    let statuses: Vec<u16> = (0..10).map(engine).collect();
    assert_eq!(
        statuses.iter().filter(|&&s| s == 201).count(),
        6,
        "{statuses:?}"
    );
    assert_eq!(
        statuses.iter().filter(|&&s| s == 429).count(),
        4,
        "{statuses:?}"
    );
    t.assert_memory("3000 game creations");

    let id = t.get("/api/games")[0]["id"].as_str().unwrap().to_string();
    let before = t.record(&id);
    let mut counts = [0usize; 600];
    for n in 0..3000 {
        let answer = t.send(
            t.http
                .post(t.url(&format!("/api/board/game/{id}/resign")))
                .bearer_auth(format!("wrong-token-{n}")),
        );
        counts[usize::from(answer.0)] += 1;
        if answer.0 == 429 {
            assert_error(&answer, 429, "a wrong token too many");
            assert!(answer.1.contains_key("retry-after"));
        }
    }
    println!(
        "3000 wrong tokens: {} answered 401, {} 429",
        counts[401], counts[429]
    );
    assert!(
        counts[401] <= 40,
        "{} wrong tokens were looked up",
        counts[401]
    );
    assert_eq!(counts[401] + counts[429], 3000);
    assert_eq!(t.record(&id), before, "the game changed");
    t.assert_memory("3000 wrong tokens");
}

#[test]
fn cross_site_requests_are_refused() {
    let t = Target::start(&[]);
    let id = friend_game(&t);
    let before = t.record(&id);
    let spec = json!({"variant": "chess", "opponent": "friend"});
    for (name, value) in [
        ("origin", "http://evil.example"),
        ("origin", "null"),
        ("sec-fetch-site", "cross-site"),
    ] {
        let answer = t.send(
            t.http
                .post(t.url("/api/games"))
                .header(name, value)
                .header("content-type", "text/plain")
                .body(spec.to_string()),
        );
        assert_error(&answer, 403, &format!("a POST with {name}: {value}"));
        let answer = t.send(
            t.http
                .post(t.url(&format!("/api/board/game/{id}/abort")))
                .header(name, value),
        );
        assert_error(&answer, 403, &format!("an action with {name}: {value}"));
    }
    let (status, _) = raw(
        t.addr(),
        upgrade_request(
            t.addr(),
            &format!("/api/ws/game/{id}"),
            "Origin: http://evil.example\r\n",
        )
        .as_bytes(),
    );
    assert!(status.contains(" 403 "), "a cross-site WebSocket: {status}");
    assert_eq!(t.record(&id), before, "the game changed");
    // The page's own requests, and bots without Origin, pass.
    let same = t.send(
        t.http
            .post(t.url("/api/games"))
            .header("origin", t.base.clone())
            .header("sec-fetch-site", "same-origin")
            .json(&spec),
    );
    assert_eq!(same.0, 201, "{}", same.3);
    let (status, _) = raw(
        t.addr(),
        upgrade_request(
            t.addr(),
            &format!("/api/ws/game/{id}"),
            &format!("Origin: {}\r\n", t.base),
        )
        .as_bytes(),
    );
    assert!(
        status.contains(" 101 "),
        "a same-origin WebSocket: {status}"
    );
}

#[test]
fn every_error_is_json_and_short_and_every_answer_has_the_security_headers() {
    let t = Target::start(&[]);
    let id = friend_game(&t);
    let before = t.record(&id);
    let huge = "x".repeat(100_000);
    let answers = [
        (
            t.send(t.http.put(t.url("/api/games"))),
            405,
            "PUT /api/games",
        ),
        (
            t.send(t.http.get(t.url(&format!("/api/games/{id}/join")))),
            405,
            "GET of a POST route",
        ),
        (
            // Raw: the server answers and closes before a client has
            // written all 100 KB, which a client library reports as an
            // error instead of the answer.
            raw_answer(
                t.addr(),
                format!(
                    "POST /api/games HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\n\
                     Content-Length: 100000\r\n\r\n{}",
                    t.addr(),
                    " ".repeat(1000)
                )
                .as_bytes(),
            ),
            413,
            "a 100 KB body",
        ),
        (
            t.send(
                t.http
                    .get(t.url(&format!("/api/games?x={}", &huge[..8000]))),
            ),
            414,
            "an 8 KB target",
        ),
        (
            t.create(json!({"variant": &huge[..10_000], "opponent": "friend"})),
            400,
            "a 10 KB variant name",
        ),
        (
            t.create(json!({"variant": "chess", "opponent": "friend", "color": &huge[..10_000]})),
            400,
            "a 10 KB colour",
        ),
        (
            t.create(json!({"variant": "chess", "opponent": &huge[..10_000]})),
            400,
            "a 10 KB opponent",
        ),
        (
            t.send(t.http.get(t.url(&format!("/api/games/{}", &huge[..3000])))),
            404,
            "a 3 KB game id",
        ),
        (
            t.send(t.http.get(t.url("/no-such-file.js"))),
            404,
            "a missing file",
        ),
    ];
    for (answer, status, what) in &answers {
        assert_error(answer, *status, what);
        assert!(!answer.3.contains(&huge[..200]), "{what} echoed its input");
        let headers = &answer.1;
        for name in [
            "content-security-policy",
            "x-content-type-options",
            "x-frame-options",
            "referrer-policy",
        ] {
            assert!(headers.contains_key(name), "{what}: no {name}");
        }
    }
    let page = t.http.get(t.url("/")).send().expect("the page");
    let csp = page.headers()["content-security-policy"].to_str().unwrap();
    assert!(csp.contains("default-src 'self'") && csp.contains("frame-ancestors 'none'"));
    assert_eq!(page.headers()["x-content-type-options"], "nosniff");
    assert_eq!(page.headers()["x-frame-options"], "DENY");
    assert_eq!(t.record(&id), before, "the game changed");
    t.assert_memory("the bad requests");
}

#[test]
fn waiting_games_expire_and_limits_answer_503() {
    let t = Target::start(&[
        "--waiting-expiry",
        "1",
        "--engine-queue",
        "0",
        "--max-watchers-per-game",
        "2",
    ]);
    let id = friend_game(&t);
    // Spectators up to the cap; the seat still gets in.
    let watch = |token: Option<&str>| {
        let mut request = t.http.get(t.url(&format!("/api/games/{id}/stream")));
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        request.send().expect("stream")
    };
    let watchers: Vec<_> = (0..2).map(|_| watch(None)).collect();
    assert!(watchers.iter().all(|w| w.status() == 200));
    let third = watch(None);
    assert_eq!(third.status(), 503);
    let body: Value = serde_json::from_str(&third.text().unwrap()).expect("JSON");
    assert!(body["error"].is_string());
    drop(watchers);

    let answer = t.create(json!({"variant": "chess", "opponent": {"engine": {"level": 1}}}));
    assert_error(&answer, 503, "an engine game with the queue full");

    let listed = |status: &str| {
        t.get(&format!("/api/games?status={status}"))
            .as_array()
            .unwrap()
            .iter()
            .any(|g| g["id"] == id.as_str())
    };
    assert!(listed("live"));
    let deadline = Instant::now() + Duration::from_secs(10);
    while listed("live") {
        assert!(Instant::now() < deadline, "the waiting game never expired");
        thread::sleep(Duration::from_millis(200));
    }
    let full = t.get(&format!("/api/games/{id}"));
    assert_eq!(
        (full["status"].as_str(), full["reason"].as_str()),
        (Some("finished"), Some("abort"))
    );
    assert!(listed("finished"));
}

#[test]
fn friend_games_are_private_unless_asked() {
    let t = Target::start(&[]);
    let private = t.create(json!({"variant": "chess", "opponent": "friend"}));
    assert_eq!(private.0, 201);
    let public = friend_game(&t);
    let live = t.get("/api/games");
    let ids: Vec<&str> = live
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|g| g["id"].as_str())
        .collect();
    assert_eq!(ids, vec![public.as_str()]);
    // The private game is still there for whoever has its link.
    let id = private.2["id"].as_str().unwrap();
    assert_eq!(t.get(&format!("/api/games/{id}"))["status"], "waiting");
}

/// 80 plies of a chess game that neither ends nor checks.
const LONG_GAME: &str = "h2h3 g7g6 g1f3 a7a5 e2e4 a5a4 b1a3 d7d6 a3b5 b8a6 a1b1 a6c5 c2c3 e7e6 \
    d2d3 g8h6 f3g5 d8d7 d1d2 h6g8 c3c4 f7f5 f2f4 d7d8 e4e5 c5e4 b5a3 a8a7 d2d1 e4d2 g2g3 d2f1 \
    g5f7 d6e5 f7d8 e8d7 b2b3 c7c6 d1d2 f8a3 d2b4 e5e4 b4c5 e4d3 c1b2 g8f6 c5a7 f6g4 d8c6 d7e8 \
    c6d8 a3b2 a7a5 h7h6 h1g1 e8e7 b3b4 h8e8 b1c1 h6h5 a5f5 g6g5 f5g4 b2g7 e1f1 g7h8 c1d1 h5g4 \
    d1a1 e7d8 h3g4 e8f8 a1b1 c8d7 f4f5 f8g8 f5e6 d7b5 f1e1 h8b2";

#[test]
fn unread_streams_and_padded_moves_hold_no_memory() {
    let t = Target::start(&["--actions-per-second", "1000"]);
    let (status, _, created, text) =
        t.create(json!({"variant": "chess", "opponent": "friend", "color": "white"}));
    assert_eq!(status, 201, "{text}");
    let id = created["id"].as_str().unwrap().to_string();
    let joined = t.send(
        t.http
            .post(t.url(&format!("/api/games/{id}/join")))
            .json(&json!({"invite": created["invite"]})),
    );
    assert_eq!(joined.0, 200, "{}", joined.3);
    let tokens = [
        created["token"].as_str().unwrap().to_string(),
        joined.2["token"].as_str().unwrap().to_string(),
    ];
    let play = |ply: usize, text: &str| {
        t.send(
            t.http
                .post(t.url(&format!("/api/board/game/{id}/move/{text}")))
                .bearer_auth(&tokens[ply % 2]),
        )
    };
    let moves: Vec<&str> = LONG_GAME.split_whitespace().collect();
    // A move padded with spaces is read, and stored as its canonical text.
    let padded = format!("{}{}", moves[0], "%20".repeat(1000));
    assert_eq!(play(0, &padded).0, 200);
    assert!(!t.record(&id).contains("  "), "the padding is stored");
    for (ply, uci) in moves[..40].iter().enumerate().skip(1) {
        let answer = play(ply, uci);
        assert_eq!(answer.0, 200, "{uci}: {}", answer.3);
    }
    // 30 streams that never read while the game goes on.
    let request = format!(
        "GET /api/games/{id}/stream HTTP/1.1\r\nHost: {}\r\n\r\n",
        t.addr()
    );
    let streams: Vec<TcpStream> = (0..30)
        .map(|_| {
            let mut tcp = TcpStream::connect(t.addr()).expect("connect");
            tcp.write_all(request.as_bytes()).unwrap();
            tcp
        })
        .collect();
    for (ply, uci) in moves.iter().enumerate().skip(40) {
        let answer = play(ply, uci);
        assert_eq!(answer.0, 200, "{uci}: {}", answer.3);
    }
    let record = t.record(&id);
    assert!(record.contains(moves[79]), "the last move is in the record");
    println!("a record of 80 plies: {} bytes", record.len());
    assert!(record.len() < 64 << 10, "{} bytes", record.len());
    t.assert_memory("30 unread streams of an 80-ply game");
    drop(streams);
    thread::sleep(Duration::from_millis(300));
    t.assert_memory("30 unread streams closed");
    let full = t.get(&format!("/api/games/{id}"));
    assert_eq!(full["moves"].as_array().map(Vec::len), Some(80), "{full}");
}

#[test]
fn wrong_tokens_on_streams_and_upgrades_count_as_failed_authentication() {
    let t = Target::start(&[]);
    let id = friend_game(&t);
    let paths = [
        format!("/api/games/{id}"),
        format!("/api/games/{id}/stream"),
    ];
    let mut counts = [0usize; 600];
    for n in 0..40 {
        let path = &paths[n % 2];
        let answer = t.send(
            t.http
                .get(t.url(path))
                .bearer_auth(format!("wrong-token-{n}")),
        );
        counts[usize::from(answer.0)] += 1;
        assert!(
            answer.0 == 401 || answer.0 == 429,
            "{path}: {} {}",
            answer.0,
            answer.3
        );
        assert_error(&answer, answer.0, "a wrong token on a GET");
    }
    let (status, _) = raw(
        t.addr(),
        upgrade_request(
            t.addr(),
            &format!("/api/ws/game/{id}"),
            "Authorization: Bearer wrong-token\r\n",
        )
        .as_bytes(),
    );
    counts[if status.contains(" 429 ") { 429 } else { 401 }] += 1;
    assert!(
        status.contains(" 429 ") || status.contains(" 401 "),
        "an upgrade with a wrong token: {status}"
    );
    println!(
        "41 wrong tokens on GETs and upgrades: {} answered 401, {} 429",
        counts[401], counts[429]
    );
    assert_eq!(counts[401], 30, "the allowance is 30 a minute");
    assert_eq!(counts[429], 11);
    // A stale cookie of this game still lets its holder watch, without a seat.
    let answer = t.send(
        t.http
            .get(t.url(&format!("/api/games/{id}")))
            .header("Cookie", format!("parity_seat_{id}=stale")),
    );
    assert_eq!(answer.0, 429, "counted even so: {}", answer.3);
    let fresh = Target::start(&[]);
    let id = friend_game(&fresh);
    let answer = fresh.send(
        fresh
            .http
            .get(fresh.url(&format!("/api/games/{id}")))
            .header("Cookie", format!("parity_seat_{id}=stale")),
    );
    assert_eq!(answer.0, 200, "{}", answer.3);
    assert!(answer.2["you"].is_null(), "a spectator: {}", answer.3);
}

/// A client whose connections come from `ip` (any address of 127/8 is
/// this machine), so that each stands for another attacker.
fn client_from(ip: &str) -> Client {
    Client::builder()
        .local_address(ip.parse::<std::net::IpAddr>().expect("an address"))
        .timeout(Duration::from_secs(60))
        .build()
        .expect("client")
}

fn log_in(
    t: &Target,
    from: &Client,
    name: &str,
    password: &str,
) -> (u16, reqwest::header::HeaderMap, Value, String) {
    t.send(
        from.post(t.url("/api/login"))
            .json(&json!({"username": name, "password": password})),
    )
}

/// Password guessing: the log-in quota is asked before any hash, per
/// account (guesses from many addresses) and per address (guesses at many
/// accounts); once either is spent the right password is refused too.
#[test]
fn password_guesses_are_limited_per_account_and_per_address() {
    let t = Target::start(&[]);
    for name in ["alice", "bob"] {
        let made = t.send(
            t.http
                .post(t.url("/api/signup"))
                .json(&json!({"username": name, "password": "correct horse"})),
        );
        assert_eq!(made.0, 200, "{}", made.3);
    }
    // Ten guesses at alice's password, each from its own address.
    for i in 0..10 {
        let guess = log_in(
            &t,
            &client_from(&format!("127.0.1.{}", i + 1)),
            "alice",
            &format!("guess {i}"),
        );
        assert_error(&guess, 401, "a wrong password");
    }
    let right = log_in(&t, &client_from("127.0.1.100"), "alice", "correct horse");
    assert_error(&right, 429, "alice's right password after ten guesses");
    assert!(right.1.contains_key("retry-after"));

    // Ten guesses from one address, each at another name.
    let guesser = client_from("127.0.2.1");
    for i in 0..10 {
        let guess = log_in(&t, &guesser, &format!("nobody{i}"), "correct horse");
        assert_error(&guess, 401, "an unknown name");
    }
    let right = log_in(&t, &guesser, "bob", "correct horse");
    assert_error(&right, 429, "bob's right password from a spent address");
    // Bob himself, from his own address, still logs in.
    let own = log_in(&t, &client_from("127.0.2.2"), "bob", "correct horse");
    assert_eq!(own.0, 200, "{}", own.3);
}

/// The server's peak resident memory, in MB.
fn peak_mb(t: &Target) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{}/status", t.child.id())).expect("status");
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse::<u64>().ok())
        .expect("VmHWM")
        / 1024
}

/// Sixty-four log-ins at once (eight addresses, each within its quota):
/// each argon2 hash holds about 19 MiB, only a few run at once, each in
/// its thread's own memory, so the server's peak memory stays under the
/// bound (unbounded, it passed 1 GiB).
#[test]
fn concurrent_log_ins_hold_bounded_memory() {
    let t = Target::start(&[]);
    let answers: Vec<u16> = thread::scope(|scope| {
        let handles: Vec<_> = (0..64)
            .map(|i| {
                let t = &t;
                scope.spawn(move || {
                    let from = client_from(&format!("127.0.3.{}", i % 8 + 1));
                    log_in(t, &from, &format!("someone{i}"), "a wrong password").0
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a log-in"))
            .collect()
    });
    assert!(answers.iter().all(|&s| s == 401), "{answers:?}");
    let peak = peak_mb(&t);
    println!("64 concurrent log-ins: server peak RSS {peak} MB");
    assert!(peak < MAX_RSS_MB, "peak RSS {peak} MB");
    t.assert_memory("64 concurrent log-ins");
}

/// A bot account's `bot:play` token on the server's database.
fn bot_token(t: &Target, name: &str) -> String {
    common::bot_token(t.db.to_str().expect("a UTF-8 path"), name)
}

/// `POST /api/challenge/ai` takes from the same allowance of engine games
/// as `POST /api/games` (it once started twenty in 0.1 s).
#[test]
fn engine_challenges_keep_the_engine_game_limit() {
    let t = Target::start(&[]);
    let token = bot_token(&t, "robo");
    let statuses: Vec<u16> = (0..10)
        .map(|_| {
            t.send(
                t.http
                    .post(t.url("/api/challenge/ai"))
                    .bearer_auth(&token)
                    .json(&json!({"level": 8, "days": 3})),
            )
            .0
        })
        .collect();
    assert_eq!(
        (
            statuses.iter().filter(|&&s| s == 201 || s == 200).count(),
            statuses.iter().filter(|&&s| s == 429).count()
        ),
        (6, 4),
        "{statuses:?}"
    );
}

/// Open challenges are bounded per account (20) and per pair (3): a
/// flood from one account does not grow the receiver's list without end.
#[test]
fn open_challenges_are_bounded_per_account_and_per_pair() {
    let t = Target::start(&[]);
    let flooder = bot_token(&t, "flooder");
    for name in (0..8).map(|i| format!("target{i}")) {
        bot_token(&t, &name);
    }
    let challenge = |dest: &str| {
        t.send(
            t.http
                .post(t.url(&format!("/api/challenge/{dest}")))
                .bearer_auth(&flooder)
                .json(&json!({"days": 3})),
        )
    };
    let to_one: Vec<u16> = (0..5).map(|_| challenge("target0").0).collect();
    assert_eq!(to_one, [200, 200, 200, 409, 409]);
    let mut statuses = Vec::new();
    for i in 1..8 {
        for _ in 0..3 {
            let answer = challenge(&format!("target{i}"));
            if answer.0 == 409 {
                assert_error(&answer, 409, "a challenge too many");
            }
            statuses.push(answer.0);
        }
    }
    assert_eq!(
        statuses.iter().filter(|&&s| s == 200).count(),
        17,
        "20 open in all: {statuses:?}"
    );
    let listed = t.send(t.http.get(t.url("/api/challenge")).bearer_auth(&flooder));
    assert_eq!(
        listed.2["out"].as_array().map(Vec::len),
        Some(20),
        "{}",
        listed.3
    );
}

/// A human account's `board:play` token on the server's database.
fn board_token(t: &Target, name: &str) -> String {
    common::board_token(t.db.to_str().expect("a UTF-8 path"), name)
}

/// A token plays only through the API its scope names: `bot:play` on the
/// Bot API, `board:play` on the Board API; on the other it is a 403 and the
/// game does not move.
#[test]
fn tokens_play_only_through_the_api_of_their_scope() {
    let t = Target::start(&[]);
    for (token, own, other) in [
        (bot_token(&t, "robo"), "bot", "board"),
        (board_token(&t, "human"), "board", "bot"),
    ] {
        let started = t.send(
            t.http
                .post(t.url("/api/challenge/ai"))
                .bearer_auth(&token)
                .json(&json!({"level": 1, "days": 3, "color": "white"})),
        );
        assert_eq!(started.0, 201, "{}", started.3);
        let id = started.2["id"].as_str().expect("a game id").to_string();
        let before = t.record(&id);
        let wrong = t.send(
            t.http
                .post(t.url(&format!("/api/{other}/game/{id}/move/e2e4")))
                .bearer_auth(&token),
        );
        assert_error(&wrong, 403, &format!("a {own} token on the {other} API"));
        assert_eq!(t.record(&id), before, "the game moved");
        let right = t.send(
            t.http
                .post(t.url(&format!("/api/{own}/game/{id}/move/e2e4")))
                .bearer_auth(&token),
        );
        assert_eq!(right.0, 200, "{}", right.3);
    }
}

/// Rating farming: two accounts play rated games that one resigns before
/// moving. Such a game changes no rating; one where each side moved does.
#[test]
fn a_rated_game_resigned_before_both_moved_changes_no_rating() {
    let t = Target::start(&[]);
    let (farmer, feeder) = (board_token(&t, "farmer"), board_token(&t, "feeder"));
    let rated_game = || {
        let made = t.send(
            t.http
                .post(t.url("/api/challenge/feeder"))
                .bearer_auth(&farmer)
                .json(&json!({"rated": true, "days": 3, "color": "white"})),
        );
        assert_eq!(made.0, 200, "{}", made.3);
        let id = made.2["id"].as_str().expect("a challenge id").to_string();
        let accepted = t.send(
            t.http
                .post(t.url(&format!("/api/challenge/{id}/accept")))
                .bearer_auth(&feeder),
        );
        assert_eq!(accepted.0, 200, "{}", accepted.3);
        id
    };
    let play = |token: &str, path: String| {
        let answer = t.send(t.http.post(t.url(&path)).bearer_auth(token));
        assert_eq!(answer.0, 200, "{path}: {}", answer.3);
    };
    let history = || t.get("/api/user/farmer/rating-history");
    for _ in 0..3 {
        let game = rated_game();
        play(&farmer, format!("/api/board/game/{game}/move/e2e4"));
        play(&feeder, format!("/api/board/game/{game}/resign"));
    }
    assert_eq!(
        history(),
        json!([]),
        "no rating from games the feeder never moved in"
    );
    let game = rated_game();
    play(&farmer, format!("/api/board/game/{game}/move/e2e4"));
    play(&feeder, format!("/api/board/game/{game}/move/e7e5"));
    play(&feeder, format!("/api/board/game/{game}/resign"));
    assert_eq!(history().as_array().map(Vec::len), Some(1), "{}", history());
}

/// Rating farming by volume: the same two accounts begin at most ten
/// rated games in 24 hours, counting a challenge accepted late; a casual
/// game is still theirs to play.
#[test]
fn rated_games_between_two_accounts_are_limited_per_day() {
    let t = Target::start(&[]);
    let (farmer, feeder) = (board_token(&t, "farmer"), board_token(&t, "feeder"));
    let challenge = |rated: bool| {
        t.send(
            t.http
                .post(t.url("/api/challenge/feeder"))
                .bearer_auth(&farmer)
                .json(&json!({"rated": rated, "days": 3})),
        )
    };
    let accept = |made: &(u16, reqwest::header::HeaderMap, Value, String)| {
        assert_eq!(made.0, 200, "{}", made.3);
        let id = made.2["id"].as_str().expect("a challenge id");
        t.send(
            t.http
                .post(t.url(&format!("/api/challenge/{id}/accept")))
                .bearer_auth(&feeder),
        )
    };
    for game in 0..9 {
        let accepted = accept(&challenge(true));
        assert_eq!(accepted.0, 200, "rated game {game}: {}", accepted.3);
    }
    let (tenth, eleventh) = (challenge(true), challenge(true));
    assert_eq!(accept(&tenth).0, 200, "the tenth rated game");
    assert_error(
        &accept(&eleventh),
        409,
        "an eleventh rated game, accepted late",
    );
    assert_error(&challenge(true), 409, "an eleventh rated challenge");
    assert_eq!(accept(&challenge(false)).0, 200, "a casual game");
}

/// A correspondence game of `token`'s account against the engine: its id.
fn correspondence_game_with_the_engine(t: &Target, token: &str) -> String {
    let started = t.send(
        t.http
            .post(t.url("/api/challenge/ai"))
            .bearer_auth(token)
            .json(&json!({"level": 1, "days": 3})),
    );
    assert_eq!(started.0, 201, "{}", started.3);
    started.2["id"].as_str().expect("a game id").to_string()
}

/// Chat abuse: a spectator writing in the players' room, an account named
/// like a seat, text-direction overrides, and a flood of lines.
#[test]
fn chat_is_for_players_in_their_room_and_bounded() {
    let t = Target::start(&[]);
    let (player, stranger) = (board_token(&t, "player"), board_token(&t, "stranger"));
    let id = correspondence_game_with_the_engine(&t, &player);
    let say = |token: &str, room: &str, text: &str| {
        t.send(
            t.http
                .post(t.url(&format!("/api/board/game/{id}/chat")))
                .bearer_auth(token)
                .json(&json!({"room": room, "text": text})),
        )
    };
    assert_error(
        &say(&stranger, "player", "I am white"),
        403,
        "a stranger in the players' room",
    );
    assert_eq!(say(&stranger, "spectator", "hello").0, 200);
    assert_error(
        &say(&player, "player", "ab\u{202E}cd"),
        400,
        "a right-to-left override",
    );
    for name in ["White", "black"] {
        let made = t.send(
            t.http
                .post(t.url("/api/signup"))
                .json(&json!({"username": name, "password": "correct horse"})),
        );
        assert_error(&made, 400, &format!("an account named {name}"));
    }
    let statuses: Vec<u16> = (0..25)
        .map(|i| say(&player, "player", &format!("line {i}")).0)
        .collect();
    // Twenty attempts a minute, the refused override among them.
    assert_eq!(
        statuses.iter().filter(|&&s| s == 200).count(),
        19,
        "{statuses:?}"
    );
    assert_eq!(
        statuses.iter().filter(|&&s| s == 429).count(),
        6,
        "{statuses:?}"
    );
    let lines = t.get(&format!("/api/board/game/{id}/chat"));
    assert_eq!(lines.as_array().map(Vec::len), Some(20), "{lines}");
    assert!(lines
        .as_array()
        .unwrap()
        .iter()
        .all(|l| l["text"] != "I am white"));
}

/// A chat flood within the rate: a game keeps at most 300 lines, and a
/// reader after line N gets only the lines after it.
#[test]
fn a_games_chat_is_bounded_and_read_from_where_one_left() {
    let t = Target::start(&["--chat-lines-per-minute", "1000"]);
    let player = board_token(&t, "player");
    let id = correspondence_game_with_the_engine(&t, &player);
    let statuses: Vec<u16> = (0..305)
        .map(|i| {
            t.send(
                t.http
                    .post(t.url(&format!("/api/board/game/{id}/chat")))
                    .bearer_auth(&player)
                    .json(&json!({"room": "player", "text": format!("line {i}")})),
            )
            .0
        })
        .collect();
    assert!(statuses[..300].iter().all(|&s| s == 200), "{statuses:?}");
    assert_eq!(&statuses[300..], &[409; 5], "lines beyond the 300th");
    let last = t.get(&format!("/api/board/game/{id}/chat"));
    assert_eq!(
        last.as_array().map(Vec::len),
        Some(100),
        "the last lines shown"
    );
    let new = t.get(&format!("/api/board/game/{id}/chat?after=298"));
    assert_eq!(
        new,
        json!([
            {"n": 299, "text": "line 298", "user": "player", "room": "player", "at": new[0]["at"]},
            {"n": 300, "text": "line 299", "user": "player", "room": "player", "at": new[1]["at"]},
        ])
    );
}

/// A stolen or forgotten log-in: its owner lists the account's log-ins and
/// ends another one; a log-in unused for longer than `--session-idle-days`
/// has ended; no one ends another account's log-in.
#[test]
fn log_ins_are_listed_ended_and_end_when_idle() {
    let t = Target::start(&[]);
    let log_in = |path: &str, agent: &str, name: &str| {
        let answer = t
            .http
            .post(t.url(path))
            .header("User-Agent", agent)
            .json(&json!({"username": name, "password": "correct horse"}))
            .send()
            .expect("request");
        assert_eq!(answer.status(), 200, "{path} as {name}");
        let cookie = answer.headers()["set-cookie"].to_str().unwrap().to_string();
        cookie.split(';').next().unwrap().to_string()
    };
    let with = |cookie: &str, method: reqwest::Method, path: &str| {
        t.send(t.http.request(method, t.url(path)).header("Cookie", cookie))
    };
    let desk = log_in("/api/signup", "Desk browser", "sleeper");
    let phone = log_in("/api/login", "Phone browser", "sleeper");
    let other = log_in("/api/signup", "Other browser", "intruder");
    let listed = with(&desk, reqwest::Method::GET, "/api/account/sessions");
    assert_eq!(listed.0, 200, "{}", listed.3);
    let sessions = listed.2.as_array().expect("a list").clone();
    assert_eq!(sessions.len(), 2, "{}", listed.3);
    let agents: Vec<(&str, bool)> = sessions
        .iter()
        .map(|s| {
            (
                s["agent"].as_str().unwrap(),
                s["current"].as_bool().unwrap(),
            )
        })
        .collect();
    assert!(agents.contains(&("Desk browser", true)), "{agents:?}");
    assert!(agents.contains(&("Phone browser", false)), "{agents:?}");
    let phone_hash = sessions
        .iter()
        .find(|s| s["current"] == false)
        .and_then(|s| s["hash"].as_str())
        .unwrap()
        .to_string();
    let ending = format!("/api/account/sessions/{phone_hash}");
    assert_error(
        &with(&other, reqwest::Method::DELETE, &ending),
        404,
        "another account's log-in",
    );
    assert_eq!(with(&phone, reqwest::Method::GET, "/api/me").0, 200);
    assert_eq!(with(&desk, reqwest::Method::DELETE, &ending).0, 200);
    assert_error(
        &with(&phone, reqwest::Method::GET, "/api/me"),
        401,
        "an ended log-in",
    );
    // The desk's log-in last used eight days ago (the default idle limit
    // is seven).
    let backdated = std::process::Command::new("python3")
        .args([
            "-c",
            "import sqlite3, sys; db = sqlite3.connect(sys.argv[1], timeout=10); \
             db.execute('UPDATE sessions SET seen_ms = seen_ms - 8 * 86400000 \
                         WHERE user_id = ?', ('sleeper',)); db.commit()",
            t.db.to_str().expect("a UTF-8 path"),
        ])
        .status()
        .expect("python3 runs");
    assert!(backdated.success());
    assert_error(
        &with(&desk, reqwest::Method::GET, "/api/me"),
        401,
        "a log-in idle for eight days",
    );
    assert_eq!(with(&other, reqwest::Method::GET, "/api/me").0, 200);
}

/// A forged `X-Forwarded-For`: a peer that is not among the
/// `--trusted-proxy` addresses cannot choose its address for the rate
/// limits (its wrong tokens get 429 past 30); from a listed proxy, each
/// forwarded client has its own allowance.
#[test]
fn only_a_listed_proxy_chooses_the_clients_address() {
    let wrong_tokens = |t: &Target| -> Vec<u16> {
        (0..40)
            .map(|i| {
                t.send(
                    t.http
                        .get(t.url("/api/account"))
                        .bearer_auth("pat_not-a-token")
                        .header("X-Forwarded-For", format!("203.0.113.{i}")),
                )
                .0
            })
            .collect()
    };
    let elsewhere = Target::start(&["--trusted-proxy", "10.0.0.0/8"]);
    let statuses = wrong_tokens(&elsewhere);
    assert_eq!(
        statuses.iter().filter(|&&s| s == 429).count(),
        10,
        "{statuses:?}"
    );
    let here = Target::start(&["--trusted-proxy", "127.0.0.1,::1"]);
    let statuses = wrong_tokens(&here);
    assert!(statuses.iter().all(|&s| s == 401), "{statuses:?}");
}

/// A name that reads like a player's (`aIice` beside `alice`) is refused
/// as a taken one is; a name that only starts alike is not.
#[test]
fn look_alike_names_are_refused() {
    let t = Target::start(&[]);
    let sign_up = |name: &str| {
        t.send(
            t.http
                .post(t.url("/api/signup"))
                .json(&json!({"username": name, "password": "correct horse"})),
        )
    };
    assert_eq!(sign_up("alice").0, 200);
    for twin in ["aIice", "AL1CE", "al_ice"] {
        assert_error(&sign_up(twin), 409, &format!("{twin} beside alice"));
    }
    assert_eq!(sign_up("alicia").0, 200);
}
