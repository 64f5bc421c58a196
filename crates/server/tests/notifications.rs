//! Notifications of a correspondence game between two accounts, with mail
//! on: each move's opponent is told on the bell and by a mail that a real
//! SMTP server (aiosmtpd from PyPI, `tests/python/smtp_sink.py`) receives,
//! once per move and never for one's own move; notifications that come
//! together go in one mail. A subscribed browser is pushed the same, to a
//! push service that decrypts RFC 8291 payloads (`tests/python/push_service.py`,
//! http-ece from PyPI) and sees the VAPID signature.
//!
//! Needs python3 with aiosmtpd and http-ece (`scripts/test` installs
//! them); without them this test fails, it never skips.

use crate::common;

use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::{json, Value};

struct Sink {
    child: Child,
    dir: PathBuf,
}

impl Drop for Sink {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Runs `tests/python/SCRIPT PORT DIR` on a free port: the process, the
/// port and the first line it prints (once it is ready).
fn run_python(script: &str, dir: &Path) -> (Child, u16, String) {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/python")
        .join(script);
    let mut child = Command::new("python3")
        .arg(&path)
        .arg(port.to_string())
        .arg(dir)
        .stdout(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("python3 runs {script}: {e}"));
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    (child, port, line)
}

/// Starts the SMTP server on a free port; returns it and its port.
fn start_sink(dir: &Path) -> (Sink, u16) {
    let (child, port, line) = run_python("smtp_sink.py", dir);
    assert_eq!(
        line.trim(),
        "ready",
        "the SMTP sink did not start (is aiosmtpd installed?)"
    );
    (
        Sink {
            child,
            dir: dir.to_path_buf(),
        },
        port,
    )
}

impl Sink {
    /// The mails received so far, oldest first.
    fn mails(&self) -> Vec<String> {
        let mut names: Vec<PathBuf> = std::fs::read_dir(&self.dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "eml"))
            .collect();
        names.sort();
        names
            .iter()
            .map(|p| std::fs::read_to_string(p).unwrap())
            .collect()
    }

    /// Waits until `n` mails have come.
    async fn wait_for(&self, n: usize) -> Vec<String> {
        for _ in 0..200 {
            let mails = self.mails();
            if mails.len() >= n {
                return mails;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!(
            "{n} mails expected, {} came: {:?}",
            self.mails().len(),
            self.mails()
        );
    }
}

fn header<'a>(mail: &'a str, name: &str) -> &'a str {
    mail.lines()
        .find_map(|l| l.strip_prefix(&format!("{name}: ")))
        .unwrap_or("")
}

/// Signs up `name`; returns its session cookie.
async fn sign_up(server: &common::TestServer, name: &str) -> String {
    let response = server
        .http
        .post(server.url("/api/signup"))
        .json(&json!({"username": name, "password": "correct horse battery"}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 200);
    let cookie = response
        .headers()
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find_map(|v| v.strip_prefix("parity_session="))
        .expect("a session cookie");
    format!("parity_session={}", cookie.split(';').next().unwrap())
}

async fn call(
    server: &common::TestServer,
    method: reqwest::Method,
    path: &str,
    cookie: &str,
    form: Option<&str>,
    body: Option<Value>,
) -> (u16, Value) {
    let mut request = server
        .http
        .request(method, server.url(path))
        .header("Cookie", cookie);
    if let Some(form) = form {
        request = request
            .header("Content-Type", "application/x-www-form-urlencoded")
            .body(form.to_string());
    }
    if let Some(body) = body {
        request = request.json(&body);
    }
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

/// `call` that must answer 200; its JSON body.
async fn call_ok(
    server: &common::TestServer,
    method: reqwest::Method,
    path: &str,
    cookie: &str,
    form: Option<&str>,
    body: Option<Value>,
) -> Value {
    let (status, answer) = call(server, method, path, cookie, form, body).await;
    assert_eq!(status, 200, "{path}: {answer}");
    answer
}

#[tokio::test(flavor = "multi_thread")]
async fn each_move_mails_the_opponent_once_and_the_mover_never() {
    let dir = tempfile::tempdir().unwrap();
    let (sink, port) = start_sink(&dir.path().join("mail"));
    let db = dir.path().join("mail.sqlite");
    let config = parity_server::base::limits::Config {
        mail: Some(parity_server::base::mail::MailConfig {
            smtp_url: format!("smtp://127.0.0.1:{port}"),
            from: "Parity <parity@parity.test>".into(),
            batch: Duration::from_millis(400),
        }),
        public_url: Some("https://parity.test".into()),
        ..Default::default()
    };
    let (server, _) = common::start_configured(tempfile::tempdir().unwrap(), &db, config).await;
    let post = reqwest::Method::POST;
    let put = reqwest::Method::PUT;
    let get = reqwest::Method::GET;

    let ann = sign_up(&server, "Ann").await;
    let ben = sign_up(&server, "Ben").await;
    for (cookie, email) in [(&ann, "ann@example.org"), (&ben, "ben@example.org")] {
        let change = json!({"email": email, "notifyEmail": true});
        call_ok(
            &server,
            put.clone(),
            "/api/account/preferences",
            cookie,
            None,
            Some(change),
        )
        .await;
    }

    // A challenge: Ben hears of it.
    let made = call_ok(
        &server,
        post.clone(),
        "/api/challenge/ben",
        &ann,
        Some("days=3&color=white"),
        None,
    )
    .await;
    let id = made["id"].as_str().unwrap().to_string();
    let mails = sink.wait_for(1).await;
    assert_eq!(header(&mails[0], "X-Rcpt-To"), "ben@example.org");
    assert!(
        header(&mails[0], "Subject").contains("Ann challenges you to chess"),
        "{}",
        mails[0]
    );
    call_ok(
        &server,
        post.clone(),
        &format!("/api/challenge/{id}/accept"),
        &ben,
        None,
        None,
    )
    .await;

    // Three moves: each mails the side to move next, and only it.
    let moves = [
        (&ann, "e2e4", "ben"),
        (&ben, "e7e5", "ann"),
        (&ann, "g1f3", "ben"),
    ];
    for (n, (mover, mv, told)) in moves.into_iter().enumerate() {
        call_ok(
            &server,
            post.clone(),
            &format!("/api/board/game/{id}/move/{mv}"),
            mover,
            None,
            None,
        )
        .await;
        let mails = sink.wait_for(n + 2).await;
        let mail = &mails[n + 1];
        assert_eq!(
            header(mail, "X-Rcpt-To"),
            format!("{told}@example.org"),
            "{mail}"
        );
        let opponent = if told == "ben" { "Ann" } else { "Ben" };
        assert!(
            header(mail, "Subject").contains(&format!("Your turn against {opponent}")),
            "{mail}"
        );
        assert!(
            mail.contains(&format!("https://parity.test/game/{id}")),
            "{mail}"
        );
    }
    // Nothing more: no mail for one's own move, none twice.
    tokio::time::sleep(Duration::from_millis(1000)).await;
    let mails = sink.mails();
    assert_eq!(mails.len(), 4, "{mails:?}");
    let to_ann = mails
        .iter()
        .filter(|m| header(m, "X-Rcpt-To") == "ann@example.org")
        .count();
    assert_eq!(to_ann, 1, "Ann is mailed for Ben's move only");

    // The bell: Ben's notifications, newest first, unread until read.
    let bell = call_ok(
        &server,
        get.clone(),
        "/api/account/notifications",
        &ben,
        None,
        None,
    )
    .await;
    assert_eq!(bell["unread"], 3, "{bell}");
    let list = bell["notifications"].as_array().unwrap();
    assert_eq!(list[0]["kind"], "yourTurn");
    assert_eq!(list[0]["url"], format!("/game/{id}"));
    assert_eq!(list.last().unwrap()["kind"], "challenge");
    call_ok(
        &server,
        post.clone(),
        "/api/account/notifications/read",
        &ben,
        None,
        None,
    )
    .await;
    let (_, bell) = call(
        &server,
        get.clone(),
        "/api/account/notifications",
        &ben,
        None,
        None,
    )
    .await;
    assert_eq!(bell["unread"], 0, "{bell}");
    let (status, _) = call(
        &server,
        get.clone(),
        "/api/account/notifications",
        "parity_session=nobody",
        None,
        None,
    )
    .await;
    assert_eq!(status, 401);

    // Two challenges at once: one mail that lists both.
    for _ in 0..2 {
        call_ok(
            &server,
            post.clone(),
            "/api/challenge/ben",
            &ann,
            Some("days=3"),
            None,
        )
        .await;
    }
    let mails = sink.wait_for(5).await;
    assert_eq!(
        header(&mails[4], "Subject"),
        "Parity: 2 things need you",
        "{}",
        mails[4]
    );
    assert_eq!(
        mails[4].matches("Ann challenges you to chess").count(),
        2,
        "{}",
        mails[4]
    );
    tokio::time::sleep(Duration::from_millis(800)).await;
    assert_eq!(sink.mails().len(), 5);

    // Ann reads French: what she is told from now on is in French.
    let change = json!({"language": "fr"});
    call_ok(
        &server,
        put,
        "/api/account/preferences",
        &ann,
        None,
        Some(change),
    )
    .await;
    call_ok(
        &server,
        post,
        "/api/challenge/ann",
        &ben,
        Some("days=3"),
        None,
    )
    .await;
    let mut told = Value::Null;
    for _ in 0..50 {
        let (_, bell) = call(
            &server,
            get.clone(),
            "/api/account/notifications",
            &ann,
            None,
            None,
        )
        .await;
        told = bell["notifications"][0].clone();
        if told["kind"] == "challenge" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(told["text"], "Ben vous défie en chess", "{told}");
    let mails = sink.wait_for(6).await;
    assert_eq!(header(&mails[5], "X-Rcpt-To"), "ann@example.org");
    assert!(mails[5].contains("Parity"), "{}", mails[5]);
}

/// The push service of `tests/python/push_service.py`: its subscription
/// and the messages it received, decrypted.
struct PushService {
    child: Child,
    dir: PathBuf,
    subscription: Value,
}

impl Drop for PushService {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl PushService {
    fn start(dir: &Path) -> PushService {
        let (child, port, line) = run_python("push_service.py", dir);
        let subscription: Value = serde_json::from_str(&line).unwrap_or_else(|_| {
            panic!("the push service did not start (is http-ece installed?): {line}")
        });
        // The service listens once it has printed; wait for its port.
        for _ in 0..100 {
            if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
                break;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        PushService {
            child,
            dir: dir.to_path_buf(),
            subscription,
        }
    }

    fn received(&self) -> Vec<Value> {
        let mut names: Vec<PathBuf> = std::fs::read_dir(&self.dir)
            .map(|d| d.map(|e| e.unwrap().path()).collect())
            .unwrap_or_default();
        names.retain(|p| p.extension().is_some_and(|e| e == "json"));
        names.sort();
        names
            .iter()
            .map(|p| serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap())
            .collect()
    }

    async fn wait_for(&self, n: usize) -> Vec<Value> {
        for _ in 0..200 {
            let got = self.received();
            if got.len() >= n {
                return got;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("{n} pushes expected: {:?}", self.received());
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_subscribed_browser_is_pushed_its_turn_encrypted_and_signed() {
    let dir = tempfile::tempdir().unwrap();
    let service = PushService::start(&dir.path().join("pushes"));
    let config = parity_server::base::limits::Config {
        push_allow_http: true,
        public_url: Some("https://parity.test".into()),
        ..Default::default()
    };
    let (server, _) = common::start_configured(
        tempfile::tempdir().unwrap(),
        &dir.path().join("push.sqlite"),
        config,
    )
    .await;
    let post = reqwest::Method::POST;
    let del = reqwest::Method::DELETE;
    let ann = sign_up(&server, "Ann").await;
    let ben = sign_up(&server, "Ben").await;

    let key = server.get("/api/push/key", None).await;
    let public = key.body["publicKey"].as_str().unwrap().to_string();
    assert_eq!(public.len(), 87, "a base64url P-256 point: {public}");

    // Bad subscriptions are refused by name.
    let mut bad = service.subscription.clone();
    bad["keys"]["auth"] = json!("c2hvcnQ");
    let (status, body) = call(
        &server,
        post.clone(),
        "/api/account/push",
        &ben,
        None,
        Some(bad),
    )
    .await;
    assert_eq!(status, 400, "{body}");
    assert!(
        body["error"].as_str().unwrap().contains("16 bytes"),
        "{body}"
    );
    let (status, _) = call(
        &server,
        post.clone(),
        "/api/account/push",
        "parity_session=x",
        None,
        Some(service.subscription.clone()),
    )
    .await;
    assert_eq!(status, 401);

    call_ok(
        &server,
        post.clone(),
        "/api/account/push",
        &ben,
        None,
        Some(service.subscription.clone()),
    )
    .await;

    // A correspondence game: Ben is pushed the challenge and Ann's move,
    // never his own.
    let made = call_ok(
        &server,
        post.clone(),
        "/api/challenge/ben",
        &ann,
        Some("days=3&color=white"),
        None,
    )
    .await;
    let id = made["id"].as_str().unwrap().to_string();
    service.wait_for(1).await;
    call(
        &server,
        post.clone(),
        &format!("/api/challenge/{id}/accept"),
        &ben,
        None,
        None,
    )
    .await;
    for (mover, mv) in [(&ann, "e2e4"), (&ben, "e7e5")] {
        let path = format!("/api/board/game/{id}/move/{mv}");
        call_ok(&server, post.clone(), &path, mover, None, None).await;
    }
    let pushes = service.wait_for(2).await;
    tokio::time::sleep(Duration::from_millis(800)).await;
    let pushes_now = service.received();
    assert_eq!(
        pushes_now.len(),
        2,
        "one push per event, none for Ben's own move: {pushes_now:?}"
    );
    for push in &pushes {
        assert!(push["error"].is_null(), "the payload decrypts: {push}");
        assert_eq!(push["encoding"], "aes128gcm");
        let auth = push["authorization"].as_str().unwrap();
        assert!(
            auth.starts_with("vapid t=") && auth.contains(&format!("k={public}")),
            "{auth}"
        );
    }
    let first: Value = serde_json::from_str(pushes[0]["text"].as_str().unwrap()).unwrap();
    assert_eq!(first["body"], "Ann challenges you to chess");
    let second: Value = serde_json::from_str(pushes[1]["text"].as_str().unwrap()).unwrap();
    assert_eq!(second["body"], "Your turn against Ann");
    assert_eq!(second["url"], format!("https://parity.test/game/{id}"));

    // Unsubscribed: nothing more.
    let endpoint = json!({"endpoint": service.subscription["endpoint"]});
    call_ok(
        &server,
        del,
        "/api/account/push",
        &ben,
        None,
        Some(endpoint),
    )
    .await;
    let path = format!("/api/board/game/{id}/move/g1f3");
    call(&server, post.clone(), &path, &ann, None, None).await;
    tokio::time::sleep(Duration::from_millis(800)).await;
    assert_eq!(service.received().len(), 2);
}
