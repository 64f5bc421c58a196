//! The page's log-in on both backends: sign-up and log-in set an HttpOnly
//! session cookie whose token the database keeps only hashed, a wrong
//! password is a 401 counted as a failed authentication, `/api/me` names
//! the account, log-out ends the session; an account's seats follow its
//! log-in to a second browser that holds no seat cookie; the password is
//! never in the database or the server's log.

mod common;

use std::io::Write;
use std::sync::{Arc, Mutex, OnceLock};

use serde_json::{json, Value};
use sha2::{Digest, Sha256};

const PASSWORD: &str = "pw-Kx7Lq2-sessions";

/// Everything the server logs in this test binary, at every level.
fn captured_log() -> Arc<Mutex<Vec<u8>>> {
    static LOG: OnceLock<Arc<Mutex<Vec<u8>>>> = OnceLock::new();
    LOG.get_or_init(|| {
        let log = Arc::new(Mutex::new(Vec::new()));
        let writer = Capture(log.clone());
        tracing_subscriber::fmt()
            .with_max_level(tracing::Level::TRACE)
            .with_writer(move || writer.clone())
            .init();
        log
    })
    .clone()
}

#[derive(Clone)]
struct Capture(Arc<Mutex<Vec<u8>>>);

impl Write for Capture {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(bytes);
        Ok(bytes.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A request with the session cookie `session` (none: no cookie at all).
async fn send(
    server: &common::TestServer,
    method: reqwest::Method,
    path: &str,
    session: Option<&str>,
    body: Option<Value>,
) -> reqwest::Response {
    let mut request = server.http.request(method, server.url(path));
    if let Some(session) = session {
        request = request.header("Cookie", format!("parity_session={session}"));
    }
    if let Some(body) = body {
        request = request.json(&body);
    }
    request.send().await.unwrap()
}

/// The `parity_session` cookie an answer sets: its value and attributes.
fn set_session(response: &reqwest::Response) -> (String, String) {
    let header = response
        .headers()
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find(|v| v.starts_with("parity_session="))
        .expect("a session cookie")
        .to_string();
    let value = header["parity_session=".len()..]
        .split(';')
        .next()
        .unwrap()
        .to_string();
    (value, header)
}

async fn log_in(server: &common::TestServer, path: &str, name: &str) -> (u16, Option<String>) {
    let body = json!({"username": name, "password": PASSWORD});
    let response = send(server, reqwest::Method::POST, path, None, Some(body)).await;
    let status = response.status().as_u16();
    let cookie = (status == 200).then(|| set_session(&response).0);
    (status, cookie)
}

async fn status_of(response: reqwest::Response) -> (u16, Value) {
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

#[tokio::test(flavor = "multi_thread")]
async fn sign_up_log_in_log_out_and_seats_follow_the_account() {
    let log = captured_log();
    let dir = tempfile::tempdir().unwrap();
    let db = common::database_for(&dir.path().join("sessions.sqlite")).await;
    let (server, _) = common::start_with(dir, db.clone(), |_| {}).await;
    let get = reqwest::Method::GET;
    let post = reqwest::Method::POST;

    // Sign-up: the cookie is HttpOnly, Lax, site-wide; the account is logged in.
    let body = json!({"username": "Ada", "password": PASSWORD});
    let signed = send(
        &server,
        post.clone(),
        "/api/signup",
        None,
        Some(body.clone()),
    )
    .await;
    assert_eq!(signed.status(), 200);
    let (ada, header) = set_session(&signed);
    assert_eq!(ada.len(), 43, "{header}");
    for attribute in ["HttpOnly", "SameSite=Lax", "Path=/"] {
        assert!(header.contains(attribute), "{header}");
    }
    let (status, me) =
        status_of(send(&server, get.clone(), "/api/me", Some(&ada), None).await).await;
    assert_eq!(
        (status, me["username"].as_str()),
        (200, Some("Ada")),
        "{me}"
    );
    let again = send(&server, post.clone(), "/api/signup", None, Some(body)).await;
    assert_eq!(again.status(), 409, "the name is taken");
    let short = json!({"username": "Bea", "password": "short"});
    let short = send(&server, post.clone(), "/api/signup", None, Some(short)).await;
    assert_eq!(short.status(), 400);

    // The database keeps the session's hash, never its token or the password.
    let hash: String = Sha256::digest(ada.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let sessions_of = |token_sql: String| {
        let db = db.clone();
        async move {
            common::sql_i64(
                &db,
                &format!("SELECT COUNT(*) FROM sessions WHERE token_sha256 = '{token_sql}'"),
            )
            .await
            .unwrap()
        }
    };
    assert_eq!(sessions_of(hash.clone()).await, 1);
    assert_eq!(sessions_of(ada.clone()).await, 0);

    // Log-in: a right password opens a second session, a wrong one is a 401.
    assert_eq!(log_in(&server, "/api/login", "nobody").await.0, 401);
    let wrong = json!({"username": "ada", "password": "not the password"});
    let wrong = send(&server, post.clone(), "/api/login", None, Some(wrong)).await;
    assert_eq!(wrong.status(), 401);
    assert!(wrong.headers().get("set-cookie").is_none());
    let (status, ada_elsewhere) = log_in(&server, "/api/login", "ADA").await;
    assert_eq!(status, 200);
    let ada_elsewhere = ada_elsewhere.unwrap();
    assert_ne!(ada_elsewhere, ada);
    let (status, nobody) = status_of(send(&server, get.clone(), "/api/me", None, None).await).await;
    assert_eq!(
        (status, nobody),
        (200, serde_json::Value::Null),
        "no log-in: null"
    );

    // A game between two accounts from a seek; each plays it from a
    // browser that holds only its log-in.
    let (_, bob) = log_in(&server, "/api/signup", "Bob").await;
    let bob = bob.unwrap();
    let seek = json!({"variant": "chess", "days": 3, "color": "white", "rated": true});
    let (status, sought) = status_of(
        send(
            &server,
            post.clone(),
            "/api/lobby/seeks",
            Some(&ada),
            Some(seek),
        )
        .await,
    )
    .await;
    assert_eq!(status, 200, "{sought}");
    let seek_id = sought["id"].as_str().expect("an open seek").to_string();
    let accept = format!("/api/lobby/seeks/{seek_id}/accept");
    let (status, accepted) =
        status_of(send(&server, post.clone(), &accept, Some(&bob), None).await).await;
    assert_eq!(status, 200, "{accepted}");
    let game = accepted["game"].as_str().unwrap().to_string();
    let full = format!("/api/games/{game}");
    let (_, seen) =
        status_of(send(&server, get.clone(), &full, Some(&ada_elsewhere), None).await).await;
    assert_eq!(seen["you"], "white", "{seen}");
    let (_, seen) = status_of(send(&server, get.clone(), &full, None, None).await).await;
    assert!(seen["you"].is_null(), "no log-in, no seat: {seen}");
    let e4 = format!("/api/board/game/{game}/move/e2e4");
    let (status, moved) =
        status_of(send(&server, post.clone(), &e4, Some(&ada_elsewhere), None).await).await;
    assert_eq!(status, 200, "{moved}");
    let e5 = format!("/api/board/game/{game}/move/e7e5");
    assert_eq!(
        send(&server, post.clone(), &e5, Some(&ada), None)
            .await
            .status(),
        409,
        "not White's seat now"
    );
    assert_eq!(
        send(&server, post.clone(), &e5, Some(&bob), None)
            .await
            .status(),
        200
    );

    // Log-out ends that session only, and clears its cookie.
    let out = send(&server, post.clone(), "/api/logout", Some(&ada), None).await;
    assert_eq!(out.status(), 200);
    let (cleared, header) = set_session(&out);
    assert!(
        cleared.is_empty() && header.contains("Max-Age=0"),
        "{header}"
    );
    assert_eq!(sessions_of(hash).await, 0);
    assert_eq!(
        send(&server, get.clone(), "/api/me", Some(&ada), None)
            .await
            .status(),
        401
    );
    let nf3 = format!("/api/board/game/{game}/move/g1f3");
    assert_eq!(
        send(&server, post.clone(), &nf3, Some(&ada), None)
            .await
            .status(),
        401,
        "an ended log-in holds no seat"
    );
    assert_eq!(
        send(&server, get.clone(), "/api/me", Some(&ada_elsewhere), None)
            .await
            .status(),
        200
    );

    // No password in clear anywhere: not in the log (read before this
    // test's own queries, which PostgreSQL's client logs, name it) ...
    let logged = String::from_utf8_lossy(&log.lock().unwrap()).into_owned();
    assert!(!logged.contains(PASSWORD), "the password is in the log");
    assert!(
        !logged.contains(&ada_elsewhere),
        "a session token is in the log"
    );
    // ... and not in the database: the users table holds argon2id hashes.
    let clear = format!("SELECT COUNT(*) FROM users WHERE password_hash LIKE '%{PASSWORD}%' OR password_hash NOT LIKE '$argon2id$%'");
    assert_eq!(common::sql_i64(&db, &clear).await, Some(0));
    let users = common::sql_i64(&db, "SELECT COUNT(*) FROM users").await;
    assert_eq!(users, Some(2));
    if let parity_server::Database::Sqlite(path) = &db {
        let mut bytes = std::fs::read(path).unwrap();
        bytes.extend(std::fs::read(path.with_extension("sqlite-wal")).unwrap_or_default());
        assert!(!bytes
            .windows(PASSWORD.len())
            .any(|w| w == PASSWORD.as_bytes()));
    }
}

/// Failed log-ins are failed authentications: past the allowance, 429.
#[tokio::test(flavor = "multi_thread")]
async fn guessing_passwords_is_rate_limited() {
    let server = common::start().await;
    let wrong = json!({"username": "nobody", "password": "guess-guess"});
    let mut statuses = Vec::new();
    for _ in 0..40 {
        let response = send(
            &server,
            reqwest::Method::POST,
            "/api/login",
            None,
            Some(wrong.clone()),
        )
        .await;
        statuses.push(response.status().as_u16());
    }
    assert_eq!(statuses[0], 401);
    assert!(statuses.contains(&429), "{statuses:?}");
}

/// A sign-up costs an argon2 hash: an address has five a minute, then
/// 429. Behind TLS (`--secure-cookies`) the session cookie is `Secure`.
#[tokio::test(flavor = "multi_thread")]
async fn sign_ups_are_rate_limited_and_secure_behind_tls() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("signups.sqlite");
    let config = parity_server::base::limits::Config {
        secure_cookies: true,
        ..Default::default()
    };
    let (server, _) = common::start_configured(dir, &db, config).await;
    let mut statuses = Vec::new();
    for n in 0..8 {
        let body = json!({"username": format!("user{n}"), "password": PASSWORD});
        let response = send(
            &server,
            reqwest::Method::POST,
            "/api/signup",
            None,
            Some(body),
        )
        .await;
        if response.status() == 200 {
            let (_, header) = set_session(&response);
            assert!(header.contains("; Secure"), "{header}");
        }
        statuses.push(response.status().as_u16());
    }
    assert_eq!(statuses, [200, 200, 200, 200, 200, 429, 429, 429]);
}

/// A log-in session ends its lifetime after the log-in (`--session-days`),
/// whatever the cookie says: `/api/me` is then a 401 and the page asks
/// for the password again.
#[tokio::test(flavor = "multi_thread")]
async fn a_session_ends_after_its_lifetime() {
    let dir = tempfile::tempdir().unwrap();
    let db = common::database_for(&dir.path().join("lifetime.sqlite")).await;
    let (server, _) = common::start_with(dir, db, |limits| {
        limits.session_lifetime = std::time::Duration::from_secs(1);
    })
    .await;
    let (status, session) = log_in(&server, "/api/signup", "Ada").await;
    assert_eq!(status, 200);
    let session = session.expect("a session");
    let me = |session: String| {
        let server = &server;
        async move {
            status_of(
                send(
                    server,
                    reqwest::Method::GET,
                    "/api/me",
                    Some(&session),
                    None,
                )
                .await,
            )
            .await
            .0
        }
    };
    assert_eq!(me(session.clone()).await, 200);
    tokio::time::sleep(std::time::Duration::from_millis(1200)).await;
    assert_eq!(
        me(session.clone()).await,
        401,
        "a session past its lifetime"
    );
    let (status, again) = log_in(&server, "/api/login", "Ada").await;
    assert_eq!(status, 200);
    assert_eq!(me(again.expect("a new session")).await, 200);
}

#[tokio::test(flavor = "multi_thread")]
async fn an_accounts_settings_are_kept_and_bad_ones_refused() {
    let dir = tempfile::tempdir().unwrap();
    let db = common::database_for(&dir.path().join("settings.sqlite")).await;
    let (server, _) = common::start_with(dir, db, |_| {}).await;
    let (status, cookie) = log_in(&server, "/api/signup", "Settle").await;
    assert_eq!(status, 200);
    let cookie = cookie.unwrap();
    let path = "/api/account/preferences";
    let get = reqwest::Method::GET;
    let put = reqwest::Method::PUT;

    // The defaults, in lichess's `{prefs}`.
    let (status, body) =
        status_of(send(&server, get.clone(), path, Some(&cookie), None).await).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["prefs"]["theme"], "brown");
    assert_eq!(body["prefs"]["confirmCommit"], false);
    assert!(body.get("language").is_none(), "{body}");

    // A change sets its fields and keeps the others.
    let change = json!({"theme": "green", "pieceSet": "letters", "language": "fr"});
    let (status, body) =
        status_of(send(&server, put.clone(), path, Some(&cookie), Some(change)).await).await;
    assert_eq!(status, 200, "{body}");
    let (_, body) = status_of(send(&server, get.clone(), path, Some(&cookie), None).await).await;
    assert_eq!(body["prefs"]["theme"], "green");
    assert_eq!(body["prefs"]["pieceSet"], "letters");
    assert_eq!(body["prefs"]["sound"], true);
    assert_eq!(body["language"], "fr");

    // Bad values and fields are a 400 that names them; nothing changes.
    for (bad, named) in [
        (json!({"theme": "pink"}), "pink"),
        (json!({"volume": 3}), "volume"),
        (json!(["theme"]), "object"),
    ] {
        let (status, body) =
            status_of(send(&server, put.clone(), path, Some(&cookie), Some(bad)).await).await;
        assert_eq!(status, 400, "{body}");
        assert!(body["error"].as_str().unwrap().contains(named), "{body}");
    }
    let garbled = server
        .http
        .put(server.url(path))
        .header("Cookie", format!("parity_session={cookie}"))
        .body("{theme")
        .send()
        .await
        .unwrap();
    assert_eq!(garbled.status().as_u16(), 400);
    let (_, body) = status_of(send(&server, get.clone(), path, Some(&cookie), None).await).await;
    assert_eq!(body["prefs"]["theme"], "green");

    // Without a log-in: nothing to read or set.
    let (status, _) = status_of(send(&server, get, path, None, None).await).await;
    assert_eq!(status, 401);
    let (status, _) =
        status_of(send(&server, put, path, None, Some(json!({"theme": "blue"}))).await).await;
    assert_eq!(status, 401);
}
