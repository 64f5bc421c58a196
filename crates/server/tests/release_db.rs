//! Databases written by the previous release (`tests/data/release-0.2/`,
//! made by that release's `parity serve` through its HTTP API, on SQLite
//! and on PostgreSQL) open in this one and read back as that release
//! answered: accounts, ratings and their history, games, chat in its
//! order, API tokens (the revoked one stays revoked), log-in sessions,
//! unfinished games, the lobby. Then the server plays on: passwords log
//! in, the unfinished rated game is finished and rated, the open
//! challenge is accepted. What has expired since the fixture was written
//! (its seek) is checked as expired.
//!
//! The PostgreSQL case needs `PARITY_TEST_POSTGRES`, a server's URL (as
//! `scripts/test` sets it): it loads the release's `pg_dump` into a fresh
//! database with `psql`.

use crate::common;

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::{json, Value};

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/release-0.2");

fn expected(backend: &str) -> Value {
    let path = Path::new(DATA).join(format!("expected-{backend}.json"));
    serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap()
}

fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64
}

#[tokio::test(flavor = "multi_thread")]
async fn a_release_0_2_sqlite_database_reads_back_and_plays_on() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("parity.sqlite");
    std::fs::copy(Path::new(DATA).join("parity.sqlite"), &db).unwrap();
    // The release kept the records' signing key beside the database.
    std::fs::copy(
        Path::new(DATA).join("parity.sqlite.key"),
        dir.path().join("parity.sqlite.key"),
    )
    .unwrap();
    reads_back_and_plays_on(dir, db.into(), expected("sqlite")).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_release_0_2_postgres_database_reads_back_and_plays_on() {
    // As the store's own tests: `scripts/test` always starts a PostgreSQL.
    let base = std::env::var("PARITY_TEST_POSTGRES").expect(
        "PARITY_TEST_POSTGRES names a PostgreSQL server to load the release's dump into \
         (scripts/test starts one)",
    );
    let name = format!("release_0_2_{:016x}", rand::random::<u64>());
    let db = parity_server::store::ensure_postgres_database(&base, &name)
        .await
        .expect("a fresh PostgreSQL database");
    let parity_server::Database::Postgres(url) = &db else {
        unreachable!()
    };
    load_dump(url, &Path::new(DATA).join("parity.pg.sql"));
    reads_back_and_plays_on(tempfile::tempdir().unwrap(), db, expected("postgres")).await;
}

/// `psql` on the PATH, else the newest under /usr/lib/postgresql.
fn psql() -> PathBuf {
    let on_path = std::env::var_os("PATH")
        .into_iter()
        .flat_map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
        .map(|d| d.join("psql"))
        .find(|p| p.is_file());
    if let Some(found) = on_path {
        return found;
    }
    let mut installed: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let version = e.file_name().to_str()?.parse().ok()?;
            let psql = e.path().join("bin/psql");
            psql.is_file().then_some((version, psql))
        })
        .collect();
    installed.sort();
    installed.pop().map(|(_, p)| p).expect(
        "psql, to load the PostgreSQL fixture: not on PATH nor in /usr/lib/postgresql/*/bin",
    )
}

/// Loads a plain `pg_dump` into the database at `url`; any error fails.
fn load_dump(url: &str, dump: &Path) {
    let out = std::process::Command::new(psql())
        .args(["-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", url, "-f"])
        .arg(dump)
        .output()
        .expect("psql runs");
    assert!(
        out.status.success(),
        "psql {}: {}{}",
        dump.display(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// `value` with what may differ between two servers on the same data
/// taken out: the origin in URLs (another port), `seenAt` (now).
fn scrub(value: &Value, origin: &str) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.iter()
                .filter(|(k, _)| k.as_str() != "seenAt")
                .map(|(k, v)| (k.clone(), scrub(v, origin)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(|v| scrub(v, origin)).collect()),
        Value::String(s) => Value::String(s.replace(origin, "ORIGIN")),
        other => other.clone(),
    }
}

fn cookie_of(response: &reqwest::Response) -> String {
    response
        .headers()
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find_map(|v| v.strip_prefix("parity_session="))
        .and_then(|v| v.split(';').next())
        .expect("a session cookie")
        .to_string()
}

/// GET with the session cookie `cookie`.
async fn get_logged_in(server: &common::TestServer, path: &str, cookie: &str) -> common::Answer {
    server
        .send(
            server
                .http
                .get(server.url(path))
                .header("Cookie", format!("parity_session={cookie}")),
        )
        .await
}

async fn ok_json(server: &common::TestServer, path: &str, token: Option<&str>) -> Value {
    let a = server.get(path, token).await;
    assert_eq!(a.status, 200, "GET {path}: {}", a.text);
    a.body
}

async fn reads_back_and_plays_on(dir: tempfile::TempDir, db: parity_server::Database, exp: Value) {
    let backend = exp["backend"].as_str().unwrap().to_string();
    let old_origin = exp["origin"].as_str().unwrap();
    let answers = &exp["answers"];
    // The fixture's log-in sessions are older than a session lasts by
    // default: they are kept alive here, to read them back.
    let (server, recovered) = common::start_with(dir, db, |limits| {
        limits.session_lifetime = Duration::from_secs(100 * 365 * 86_400);
        limits.session_idle = Duration::from_secs(100 * 365 * 86_400);
    })
    .await;
    let new_origin = server.base.clone();
    let same = |v: &Value| scrub(v, old_origin);
    let here = |v: &Value| scrub(v, &new_origin);
    // The one unfinished game (correspondence) resumes.
    assert_eq!(recovered, 1, "{backend}: unfinished games resumed");

    // The records' signing key is the release's.
    assert_eq!(
        ok_json(&server, "/api/key", None).await,
        answers["key"],
        "{backend}"
    );

    let accounts = exp["accounts"].as_object().unwrap();
    for (name, account) in accounts {
        let old = &answers["users"][name];
        let token = account["tokens"][0]["token"].as_str().unwrap();
        let what = |w: &str| format!("{backend}: {name}: {w}");

        let user = ok_json(&server, &format!("/api/user/{name}"), None).await;
        assert_eq!(here(&user), same(&old["user"]), "{}", what("profile"));
        let me = ok_json(&server, "/api/account", Some(token)).await;
        assert_eq!(here(&me), same(&old["account"]), "{}", what("/api/account"));
        let history = ok_json(&server, &format!("/api/user/{name}/rating-history"), None).await;
        assert_eq!(history, old["rating_history"], "{}", what("rating history"));
        let games = ok_json(&server, &format!("/api/user/{name}/games"), None).await;
        assert_eq!(games, old["games"], "{}", what("games"));
        let challenges = ok_json(&server, "/api/challenge", Some(token)).await;
        assert_eq!(
            here(&challenges),
            same(&old["challenges"]),
            "{}",
            what("challenges")
        );

        // Being played: the same, but for `secondsLeft` of the correspondence
        // game. That counts wall-clock time since the last move (as the
        // release did; the game's own clocks leave out the downtime, below).
        let mut playing = ok_json(&server, "/api/account/playing", Some(token)).await;
        let mut was = old["playing"].clone();
        let left = |p: &mut Value| -> Vec<i64> {
            p["nowPlaying"]
                .as_array_mut()
                .unwrap()
                .iter_mut()
                .map(|g| {
                    let s = g["secondsLeft"].as_i64().expect("secondsLeft");
                    g.as_object_mut().unwrap().remove("secondsLeft");
                    s
                })
                .collect()
        };
        let (now_left, was_left) = (left(&mut playing), left(&mut was));
        assert_eq!(here(&playing), same(&was), "{}", what("playing"));
        let since_written = (now_ms() - exp["written_ms"].as_i64().unwrap()) / 1000;
        for (now, was) in now_left.iter().zip(&was_left) {
            assert!(
                (was - since_written - 60..=was + 5).contains(now),
                "{}: secondsLeft {now}, was {was}",
                what("playing")
            );
        }

        // The log-in sessions, read with the cookie of one of them: that one
        // is now used (its `seen_ms` is now); the other is as it was.
        let session = account["session"].as_str().unwrap();
        let tokens = get_logged_in(&server, "/api/account/tokens", session).await;
        assert_eq!(tokens.status, 200, "{}: {}", what("tokens"), tokens.text);
        assert_eq!(tokens.body, old["tokens"], "{}", what("token list"));
        let sessions = get_logged_in(&server, "/api/account/sessions", session).await;
        assert_eq!(
            sessions.status,
            200,
            "{}: {}",
            what("sessions"),
            sessions.text
        );
        let unseen = |list: &Value| -> Value {
            Value::Array(
                list.as_array()
                    .unwrap()
                    .iter()
                    .map(|s| {
                        let mut s = s.clone();
                        if s["current"] == true {
                            s.as_object_mut().unwrap().remove("seen_ms");
                        }
                        s
                    })
                    .collect(),
            )
        };
        assert_eq!(
            unseen(&sessions.body),
            unseen(&old["sessions"]),
            "{}",
            what("sessions")
        );
        assert_eq!(
            sessions.body.as_array().unwrap().len(),
            2,
            "{}",
            what("sessions")
        );

        // Each password logs in; a wrong one does not.
        let login = |password: &str| {
            server
                .http
                .post(server.url("/api/login"))
                .json(&json!({"username": name, "password": password}))
                .send()
        };
        let password = account["password"].as_str().unwrap();
        let response = login(password).await.unwrap();
        assert_eq!(response.status().as_u16(), 200, "{}", what("log-in"));
        let cookie = cookie_of(&response);
        let me = get_logged_in(&server, "/api/me", &cookie).await;
        assert_eq!(me.body["username"], name.as_str(), "{}", what("/api/me"));
        let wrong = login(&format!("{password}!")).await.unwrap();
        assert_eq!(wrong.status().as_u16(), 401, "{}", what("a wrong password"));

        // Each live token authenticates, with its scopes; a revoked one does not.
        for t in account["tokens"].as_array().unwrap() {
            let token = t["token"].as_str().unwrap();
            let me = server.get("/api/account", Some(token)).await;
            assert_eq!(me.status, 200, "{}: {}", what("token"), me.text);
            assert_eq!(me.body["username"], name.as_str(), "{}", what("token"));
            let tested = server
                .send(
                    server
                        .http
                        .post(server.url("/api/token/test"))
                        .body(token.to_string()),
                )
                .await;
            assert_eq!(
                tested.body[token]["scopes"],
                t["scopes"],
                "{}",
                what("token scopes")
            );
            assert_eq!(
                tested.body[token]["userId"],
                account["id"],
                "{}",
                what("token user")
            );
        }
        for t in account["revoked_tokens"].as_array().unwrap() {
            let token = t.as_str().unwrap();
            let me = server.get("/api/account", Some(token)).await;
            assert_eq!(
                me.status,
                401,
                "{}: a revoked token: {}",
                what("token"),
                me.text
            );
            let tested = server
                .send(
                    server
                        .http
                        .post(server.url("/api/token/test"))
                        .body(token.to_string()),
                )
                .await;
            assert!(
                tested.body[token].is_null(),
                "{}: {}",
                what("revoked token"),
                tested.text
            );
        }
    }

    // Every game as the release showed it, and its record verifies, signed
    // with the release's key.
    for g in answers["games"].as_array().unwrap() {
        let id = g["id"].as_str().unwrap();
        let full = server.full(id, None).await;
        let was = g["full"].as_object().unwrap();
        for (field, value) in was {
            if field == "clocks" && was["status"] == "started" {
                // Running: it lost only the time a server ran.
                for side in ["white_ms", "black_ms"] {
                    let (now, then) = (full[field][side].as_i64(), value[side].as_i64());
                    let (now, then) = (now.unwrap(), then.unwrap());
                    assert!(
                        (then - 300_000..=then + 5_000).contains(&now),
                        "{backend}: {id} {side}: {now}, was {then}"
                    );
                }
                continue;
            }
            assert_eq!(&full[field], value, "{backend}: {id} {field}");
        }
        let record = server.get(&format!("/api/games/{id}/record"), None).await;
        assert_eq!(record.status, 200, "{backend}: {id}: {}", record.text);
        let verified = server
            .verify(&record.text)
            .unwrap_or_else(|e| panic!("{backend}: {id}: {e}"));
        assert_eq!(
            verified.signed,
            parity_server::game::verify::Signed::ByGivenKey,
            "{backend}: {id}"
        );
        let ending = verified
            .ending
            .map(|(result, reason)| (Value::from(result), Value::from(reason.name())));
        let stated = (g["full"]["status"] == "finished")
            .then(|| (g["full"]["result"].clone(), g["full"]["reason"].clone()));
        assert_eq!(ending, stated, "{backend}: {id}");
    }

    // The chat, line for line, in the order it was kept: first the lines
    // sent one after the other, then a burst sent at once, several in the
    // same millisecond, in the order the release kept them.
    let chat_game = answers["chat"]["game"].as_str().unwrap();
    let chat = ok_json(&server, &format!("/api/games/{chat_game}/chat"), None).await;
    assert_eq!(chat, answers["chat"]["lines"], "{backend}: chat");
    let lines = chat.as_array().unwrap();
    let said = |l: &Value| json!([l["user"], l["room"], l["text"]]);
    let sent = exp["chat_sent"].as_array().unwrap();
    let in_order: Vec<Value> = lines[..sent.len()].iter().map(said).collect();
    assert_eq!(&in_order, sent, "{backend}: chat order");
    let mut burst: Vec<String> = lines[sent.len()..]
        .iter()
        .map(|l| said(l).to_string())
        .collect();
    let mut sent_burst: Vec<String> = exp["chat_burst"]
        .as_array()
        .unwrap()
        .iter()
        .map(Value::to_string)
        .collect();
    burst.sort();
    sent_burst.sort();
    assert_eq!(burst, sent_burst, "{backend}: the chat's burst");

    // The seek lived 10 minutes: once past, it is gone and cannot be taken.
    let seeks = ok_json(&server, "/api/lobby/seeks", None).await;
    let seek = exp["seek"].as_str().unwrap();
    let tokens: Vec<&str> = accounts
        .values()
        .map(|a| a["tokens"][0]["token"].as_str().unwrap())
        .collect();
    let (ada, bo) = (tokens[0], tokens[1]);
    if now_ms() >= exp["stored"]["seek_expires_ms"].as_i64().unwrap() {
        assert_eq!(seeks, json!([]), "{backend}: the expired seek");
        let taken = server
            .post(&format!("/api/lobby/seeks/{seek}/accept"), Some(bo), None)
            .await;
        assert_eq!(
            taken.status, 404,
            "{backend}: the expired seek: {}",
            taken.text
        );
    } else {
        assert_eq!(seeks, answers["seeks"], "{backend}: the seek, still open");
    }

    // The unfinished rated game goes on to its end (fool's mate), and both
    // players are rated: one more game, a new rating, one more history point.
    let corr = exp["games"]
        .as_object()
        .unwrap()
        .iter()
        .find(|(label, _)| label.contains("unfinished"))
        .map(|(_, id)| id.as_str().unwrap())
        .unwrap();
    for (token, uci) in [(ada, "g2g4"), (bo, "d8h4")] {
        let moved = server
            .post(
                &format!("/api/board/game/{corr}/move/{uci}"),
                Some(token),
                None,
            )
            .await;
        assert_eq!(moved.status, 200, "{backend}: {uci}: {}", moved.text);
    }
    let full = server.full(corr, None).await;
    assert_eq!(
        (&full["status"], &full["result"], &full["reason"]),
        (&json!("finished"), &json!("0-1"), &json!("checkmate")),
        "{backend}: {full}"
    );
    for (i, name) in accounts.keys().enumerate() {
        let old = &answers["users"][name];
        let user = ok_json(&server, &format!("/api/user/{name}"), None).await;
        let (before, after) = (&old["user"]["perfs"], &user["perfs"]);
        let changed: Vec<&String> = after
            .as_object()
            .unwrap()
            .keys()
            .filter(|k| after[*k] != before[*k])
            .collect();
        assert_eq!(changed.len(), 1, "{backend}: {name}: {before} -> {after}");
        let key = changed[0];
        assert_eq!(
            after[key]["games"].as_i64().unwrap(),
            before[key]["games"].as_i64().unwrap() + 1,
            "{backend}: {name}"
        );
        let (was, now) = (
            before[key]["rating"].as_i64().unwrap(),
            after[key]["rating"].as_i64().unwrap(),
        );
        // Ada (White) was mated: down; Bo: up.
        assert!(
            if i == 0 { now < was } else { now > was },
            "{backend}: {name}: {was} -> {now}"
        );
        let history = ok_json(&server, &format!("/api/user/{name}/rating-history"), None).await;
        let (history, old_history) = (
            history.as_array().unwrap(),
            old["rating_history"].as_array().unwrap(),
        );
        assert_eq!(history.len(), old_history.len() + 1, "{backend}: {name}");
        assert_eq!(
            &history[..old_history.len()],
            &old_history[..],
            "{backend}: {name}"
        );
        assert_eq!(history.last().unwrap()["game"], corr, "{backend}: {name}");
    }

    // The open challenge never expires: Ada accepts it, and its game begins
    // rated, from its position.
    let challenge = exp["open_challenge"].as_str().unwrap();
    assert!(now_ms() < exp["stored"]["challenge_expires_ms"].as_i64().unwrap());
    let accepted = server
        .post(
            &format!("/api/challenge/{challenge}/accept"),
            Some(ada),
            None,
        )
        .await;
    assert_eq!(accepted.status, 200, "{backend}: {}", accepted.text);
    let full = server.full(challenge, None).await;
    assert_eq!(full["status"], "started", "{backend}: {full}");
    assert_eq!(full["fen"], exp["open_challenge_fen"], "{backend}: {full}");
    let games = ok_json(&server, "/api/user/ada_old/games?nb=1", None).await;
    assert_eq!(games[0]["id"], challenge, "{backend}: {games}");
    assert_eq!(games[0]["rated"], true, "{backend}: {games}");
    let open = ok_json(&server, "/api/challenge", Some(ada)).await;
    assert_eq!(open, json!({"in": [], "out": []}), "{backend}");
}
