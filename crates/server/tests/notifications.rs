//! Notifications of a correspondence game between two accounts, with mail
//! on: each move's opponent is told on the bell and by a mail that a real
//! SMTP server (aiosmtpd from PyPI, `tests/python/smtp_sink.py`) receives,
//! once per move and never for one's own move; notifications that come
//! together go in one mail.
//!
//! Needs python3 with aiosmtpd (`scripts/test` installs it); without it
//! this test fails, it never skips.

mod common;

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

/// Starts the SMTP server on a free port; returns it and its port.
fn start_sink(dir: &Path) -> (Sink, u16) {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/python/smtp_sink.py");
    let mut child = Command::new("python3")
        .arg(&script)
        .arg(port.to_string())
        .arg(dir)
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3 runs the SMTP sink (pip install aiosmtpd)");
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    assert_eq!(line.trim(), "ready", "the SMTP sink did not start (is aiosmtpd installed?)");
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
        panic!("{n} mails expected, {} came: {:?}", self.mails().len(), self.mails());
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
    let mut request = server.http.request(method, server.url(path)).header("Cookie", cookie);
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
        let (status, body) =
            call(&server, put.clone(), "/api/account/preferences", cookie, None, Some(change)).await;
        assert_eq!(status, 200, "{body}");
    }

    // A challenge: Ben hears of it.
    let (status, made) =
        call(&server, post.clone(), "/api/challenge/ben", &ann, Some("days=3&color=white"), None).await;
    assert_eq!(status, 200, "{made}");
    let id = made["id"].as_str().unwrap().to_string();
    let mails = sink.wait_for(1).await;
    assert_eq!(header(&mails[0], "X-Rcpt-To"), "ben@example.org");
    assert!(header(&mails[0], "Subject").contains("Ann challenges you to chess"), "{}", mails[0]);
    let (status, _) = call(&server, post.clone(), &format!("/api/challenge/{id}/accept"), &ben, None, None).await;
    assert_eq!(status, 200);

    // Three moves: each mails the side to move next, and only it.
    let moves = [(&ann, "e2e4", "ben"), (&ben, "e7e5", "ann"), (&ann, "g1f3", "ben")];
    for (n, (mover, mv, told)) in moves.into_iter().enumerate() {
        let (status, body) = call(
            &server,
            post.clone(),
            &format!("/api/board/game/{id}/move/{mv}"),
            mover,
            None,
            None,
        )
        .await;
        assert_eq!(status, 200, "{mv}: {body}");
        let mails = sink.wait_for(n + 2).await;
        let mail = &mails[n + 1];
        assert_eq!(header(mail, "X-Rcpt-To"), format!("{told}@example.org"), "{mail}");
        let opponent = if told == "ben" { "Ann" } else { "Ben" };
        assert!(header(mail, "Subject").contains(&format!("Your turn against {opponent}")), "{mail}");
        assert!(mail.contains(&format!("https://parity.test/game/{id}")), "{mail}");
    }
    // Nothing more: no mail for one's own move, none twice.
    tokio::time::sleep(Duration::from_millis(1000)).await;
    let mails = sink.mails();
    assert_eq!(mails.len(), 4, "{mails:?}");
    let to_ann = mails.iter().filter(|m| header(m, "X-Rcpt-To") == "ann@example.org").count();
    assert_eq!(to_ann, 1, "Ann is mailed for Ben's move only");

    // The bell: Ben's notifications, newest first, unread until read.
    let (status, bell) = call(&server, get.clone(), "/api/account/notifications", &ben, None, None).await;
    assert_eq!(status, 200, "{bell}");
    assert_eq!(bell["unread"], 3, "{bell}");
    let list = bell["notifications"].as_array().unwrap();
    assert_eq!(list[0]["kind"], "yourTurn");
    assert_eq!(list[0]["url"], format!("/game/{id}"));
    assert_eq!(list.last().unwrap()["kind"], "challenge");
    let (status, _) = call(&server, post.clone(), "/api/account/notifications/read", &ben, None, None).await;
    assert_eq!(status, 200);
    let (_, bell) = call(&server, get.clone(), "/api/account/notifications", &ben, None, None).await;
    assert_eq!(bell["unread"], 0, "{bell}");
    let (status, _) = call(&server, get.clone(), "/api/account/notifications", "parity_session=nobody", None, None).await;
    assert_eq!(status, 401);

    // Two challenges at once: one mail that lists both.
    for _ in 0..2 {
        let (status, made) =
            call(&server, post.clone(), "/api/challenge/ben", &ann, Some("days=3"), None).await;
        assert_eq!(status, 200, "{made}");
    }
    let mails = sink.wait_for(5).await;
    assert_eq!(header(&mails[4], "Subject"), "Parity: 2 things need you", "{}", mails[4]);
    assert_eq!(mails[4].matches("Ann challenges you to chess").count(), 2, "{}", mails[4]);
    tokio::time::sleep(Duration::from_millis(800)).await;
    assert_eq!(sink.mails().len(), 5);
}
