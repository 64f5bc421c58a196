//! Helpers shared by the `parity` binary's end-to-end tests.
// Each test file uses its own subset.
#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};

/// Runs the `parity` binary with `args` to its end.
pub fn parity(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_parity"))
        .args(args)
        .output()
        .expect("binary runs")
}

pub fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

pub fn stdout(o: &Output) -> String {
    text(&o.stdout)
}

pub fn stderr(o: &Output) -> String {
    text(&o.stderr)
}

/// A fresh path `name` in this process's directory for `suite`.
pub fn temp(suite: &str, name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("parity-{suite}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    let _ = std::fs::remove_file(&path);
    path
}

/// Starts `parity serve` on `db` and a free loopback port, with `flags`;
/// returns the process (the caller kills it) and its base URL.
pub fn serve(db: &Path, flags: &[&str]) -> (Child, String) {
    let (child, base, _) = serve_with_key(db, flags);
    (child, base)
}

/// As [`serve`], listening on `addr` (`[::1]:0`: IPv6 loopback).
pub fn serve_at(db: &Path, addr: &str, flags: &[&str]) -> (Child, String) {
    let (child, base, _) = serve_with_key_at(db, addr, flags);
    (child, base)
}

/// `parity serve` on `db`: the child, its base URL and the public key of
/// its records, from the two lines it prints at start.
pub fn serve_with_key(db: &Path, flags: &[&str]) -> (Child, String, String) {
    serve_with_key_at(db, "127.0.0.1:0", flags)
}

fn serve_with_key_at(db: &Path, addr: &str, flags: &[&str]) -> (Child, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_parity"))
        .args(["serve", "--addr", addr, "--db"])
        .arg(db)
        .args(flags)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("parity serve starts");
    let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
    let (mut line, mut key_line) = (String::new(), String::new());
    stdout
        .read_line(&mut line)
        .expect("the server says where it listens");
    stdout
        .read_line(&mut key_line)
        .expect("the server says its key");
    let base = line
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap_or_else(|| panic!("no URL in {line:?}"))
        .trim_end_matches('/')
        .to_string();
    let key = key_line
        .split_whitespace()
        .find(|w| w.len() == 64 && w.bytes().all(|b| b.is_ascii_hexdigit()))
        .unwrap_or_else(|| panic!("no key in {key_line:?}"))
        .to_string();
    (child, base, key)
}

/// A blocking JSON client of one running server.
pub struct Api {
    pub base: String,
    pub http: reqwest::blocking::Client,
}

impl Api {
    pub fn new(base: String) -> Api {
        let http = reqwest::blocking::Client::builder()
            .timeout(std::time::Duration::from_secs(60))
            .build()
            .expect("client");
        Api { base, http }
    }

    /// The status and the JSON (or text) of an answer.
    pub fn answer(&self, request: reqwest::blocking::RequestBuilder) -> (u16, serde_json::Value) {
        let response = request.send().expect("request");
        let status = response.status().as_u16();
        let text = response.text().expect("body");
        let body = serde_json::from_str(&text).unwrap_or(serde_json::Value::String(text));
        (status, body)
    }

    pub fn get(&self, path: &str) -> serde_json::Value {
        let (status, body) = self.answer(self.http.get(format!("{}{path}", self.base)));
        assert_eq!(status, 200, "{path} on {}: {body}", self.base);
        body
    }

    /// As [`Api::get`], with a Bearer token.
    pub fn get_with(&self, path: &str, token: &str) -> serde_json::Value {
        let request = self
            .http
            .get(format!("{}{path}", self.base))
            .bearer_auth(token);
        let (status, body) = self.answer(request);
        assert_eq!(status, 200, "{path} on {}: {body}", self.base);
        body
    }

    pub fn post(
        &self,
        path: &str,
        token: Option<&str>,
        body: serde_json::Value,
    ) -> serde_json::Value {
        let mut r = self.http.post(format!("{}{path}", self.base)).json(&body);
        if let Some(t) = token {
            r = r.bearer_auth(t);
        }
        let (status, answer) = self.answer(r);
        assert!(
            status == 200 || status == 201,
            "{path} on {}: {status} {answer}",
            self.base
        );
        answer
    }

    /// A seat's action; returns the seq it was acknowledged with.
    pub fn act(&self, id: &str, token: &str, what: &str, body: serde_json::Value) -> u64 {
        let answer = self.post(&format!("/api/board/game/{id}/{what}"), Some(token), body);
        answer["seq"].as_u64().expect("seq")
    }
}

/// A game created on `creator` against a friend who joins on `joiner`
/// (the same server or another node), white's clock 15 minutes: (id,
/// white's token, black's token).
pub fn friend_game(creator: &Api, joiner: &Api, variant: &str) -> (String, String, String) {
    let created = creator.post(
        "/api/games",
        None,
        serde_json::json!({"variant": variant, "opponent": "friend", "color": "white",
               "clock": {"initial": 900, "increment": 0}}),
    );
    let id = created["id"].as_str().unwrap().to_string();
    let joined = joiner.post(
        &format!("/api/games/{id}/join"),
        None,
        serde_json::json!({"invite": created["invite"]}),
    );
    (
        id,
        created["token"].as_str().unwrap().to_string(),
        joined["token"].as_str().unwrap().to_string(),
    )
}

/// The commitment as docs/server.md defines it, computed here independently.
pub fn commitment(game: &str, turn: u64, side: &str, mv: &str, nonce: &str) -> String {
    use sha2::Digest as _;
    let digest = sha2::Sha256::digest(format!("{game}:{turn}:{side}:{mv}:{nonce}").as_bytes());
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// The token on the last line of `parity token add`'s output.
fn token_made(db: &str, name: &str, scope: &str) -> String {
    let token = parity(&["token", "add", name, "--scope", scope, "--db", db]);
    assert!(token.status.success(), "{}", stderr(&token));
    stdout(&token)
        .lines()
        .last()
        .expect("a token")
        .trim()
        .to_string()
}

/// Makes bot account `name` on database `db` and a `bot:play` token.
pub fn bot_token(db: &str, name: &str) -> String {
    let added = parity(&["user", "add", name, "--bot", "--db", db]);
    assert!(added.status.success(), "{}", stderr(&added));
    token_made(db, name, "bot:play")
}

/// Makes user `name` (with a password, so not a bot) on database `db`
/// and a `board:play` token.
pub fn board_token(db: &str, name: &str) -> String {
    use std::io::Write;
    let mut add = Command::new(env!("CARGO_BIN_EXE_parity"))
        .args(["user", "add", name, "--db", db])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("parity user add runs");
    add.stdin
        .take()
        .expect("stdin")
        .write_all(b"a-long-password\n")
        .expect("password written");
    let added = add.wait_with_output().expect("parity user add ends");
    assert!(added.status.success(), "{}", stderr(&added));
    token_made(db, name, "board:play")
}

/// A fresh database `PREFIX_<random>` on the test PostgreSQL server
/// (`PARITY_TEST_POSTGRES`, which scripts/test sets): its URL.
pub fn fresh_database(prefix: &str) -> String {
    use sha2::Digest as _;
    let base = std::env::var("PARITY_TEST_POSTGRES").unwrap_or_else(|_| {
        panic!(
            "this test needs PostgreSQL: set PARITY_TEST_POSTGRES to a server's URL \
             (postgres://USER@HOST:PORT/DB, allowed to create databases); scripts/test does"
        )
    });
    let name = format!("{prefix}_{:016x}", {
        let seed = format!("{:?}{}", std::time::Instant::now(), std::process::id());
        let digest = sha2::Sha256::digest(seed.as_bytes());
        u64::from_be_bytes(digest[..8].try_into().unwrap())
    });
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    match runtime
        .block_on(parity_server::store::ensure_postgres_database(&base, &name))
        .expect("a test database")
    {
        parity_server::Database::Postgres(url) => url,
        other => panic!("not PostgreSQL: {other:?}"),
    }
}

/// A test CA (`ca.pem`) and, signed by it, a server certificate for the
/// subject alternative names `san` (`cert.pem`, `key.pem`), made by
/// openssl in `dir`.
pub fn certificates(dir: &Path, san: &str) {
    std::fs::write(
        dir.join("server.ext"),
        format!("subjectAltName={san}\nbasicConstraints=CA:FALSE\n"),
    )
    .expect("write server.ext");
    #[rustfmt::skip]
    let steps: [&[&str]; 3] = [
        &["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
          "-subj", "/CN=Parity test CA", "-keyout", "ca.key", "-out", "ca.pem"],
        &["req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=parity test server",
          "-keyout", "key.pem", "-out", "server.csr"],
        &["x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key",
          "-CAcreateserial", "-days", "1", "-extfile", "server.ext", "-out", "cert.pem"],
    ];
    for args in steps {
        let made = Command::new("openssl")
            .args(args)
            .current_dir(dir)
            .output()
            .expect("openssl runs (this test needs Debian's openssl)");
        assert!(made.status.success(), "openssl {args:?}: {}", stderr(&made));
    }
}

/// A `parity serve` node of a cluster as it starts: the process, its
/// base URL, its records' public key and its node id, from the three
/// lines it prints first.
pub struct NodeStart {
    pub child: Child,
    pub base: String,
    pub key: String,
    pub id: String,
}

/// Starts `binary` (this build, or another release) as a node on `db`,
/// its log going to `stderr`.
pub fn start_node(binary: &Path, db: &str, stderr: Stdio) -> NodeStart {
    let mut child = Command::new(binary)
        .args(["serve", "--addr", "127.0.0.1:0", "--db", db])
        .env("RUST_LOG", "info")
        .stdout(Stdio::piped())
        .stderr(stderr)
        .spawn()
        .expect("parity serve starts");
    let mut out = BufReader::new(child.stdout.take().expect("stdout"));
    let mut lines = Vec::new();
    for _ in 0..3 {
        let mut line = String::new();
        out.read_line(&mut line).expect("the server's first lines");
        lines.push(line);
    }
    let word = |line: &str, pick: &dyn Fn(&str) -> bool| {
        line.split_whitespace()
            .find(|w| pick(w))
            .unwrap_or_else(|| panic!("not found in {line:?}"))
            .trim_end_matches('/')
            .to_string()
    };
    let base = word(&lines[0], &|w| w.starts_with("http://"));
    let key = word(&lines[1], &|w| w.len() == 64);
    assert!(lines[2].starts_with("Node "), "{lines:?}");
    let id = word(&lines[2], &|w| w.len() == 10);
    NodeStart {
        child,
        base,
        key,
        id,
    }
}
