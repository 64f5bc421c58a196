//! Users and personal API tokens on both backends: lichess's
//! `POST /api/token/test` and `GET /api/account` answer for a token in
//! lichess's shapes, and a revoked token stops working at once; a
//! user's games come a page at a time; an unanswered challenge expires.

use crate::common;

use parity_server::accounts;
use parity_server::store::Store;
use serde_json::Value;

#[tokio::test(flavor = "multi_thread")]
async fn tokens_name_their_user_and_scopes_until_revoked() {
    let dir = tempfile::tempdir().unwrap();
    let db = common::database_for(&dir.path().join("accounts.sqlite")).await;
    let (store, writer) = Store::open(&db).await.unwrap();
    let (server, _) = common::start_with(dir, db.clone(), |_| {}).await;

    let human = accounts::add_user(&store, &writer, "Carol", Some("long enough"), false)
        .await
        .unwrap();
    assert!(human
        .password_hash
        .as_deref()
        .unwrap()
        .starts_with("$argon2id$"));
    let taken = accounts::add_user(&store, &writer, "cAROL", None, true).await;
    assert!(
        matches!(taken, Err(accounts::AccountError::NameTaken(_))),
        "{taken:?}"
    );
    accounts::add_user(&store, &writer, "Beep-Bot", None, true)
        .await
        .unwrap();
    let board = accounts::add_token(&store, &writer, "CAROL", "board:play")
        .await
        .unwrap();
    let bot = accounts::add_token(&store, &writer, "beep-bot", "bot:play,board:play")
        .await
        .unwrap();
    assert!(accounts::add_token(&store, &writer, "nobody", "bot:play")
        .await
        .is_err());

    let tested = server
        .http
        .post(server.url("/api/token/test"))
        .body(format!("{board}, {bot},nope"))
        .send()
        .await
        .unwrap()
        .json::<Value>()
        .await
        .unwrap();
    assert_eq!(tested[&board]["userId"], "carol", "{tested}");
    assert_eq!(tested[&board]["scopes"], "board:play", "{tested}");
    assert!(tested[&board]["expires"].is_null(), "{tested}");
    assert_eq!(tested[&bot]["scopes"], "bot:play,board:play", "{tested}");
    assert!(tested["nope"].is_null(), "{tested}");

    let account = server.get("/api/account", Some(&board)).await;
    assert_eq!(account.status, 200, "{:?}", account.body);
    assert_eq!(account.body["id"], "carol");
    assert_eq!(account.body["username"], "Carol");
    assert!(account.body.get("title").is_none(), "{}", account.body);
    assert!(account.body["createdAt"].as_i64().unwrap() > 1_600_000_000_000);
    assert!(account.body["perfs"].is_object());
    let account = server.get("/api/account", Some(&bot)).await;
    assert_eq!(account.body["title"], "BOT", "{}", account.body);
    assert_eq!(server.get("/api/account", None).await.status, 401);
    assert_eq!(
        server.get("/api/account", Some("pat_nothing")).await.status,
        401
    );

    accounts::revoke_token(&writer, &board).await.unwrap();
    assert_eq!(server.get("/api/account", Some(&board)).await.status, 401);
    let tested = server
        .http
        .post(server.url("/api/token/test"))
        .body(board.clone())
        .send()
        .await
        .unwrap()
        .json::<Value>()
        .await
        .unwrap();
    assert!(tested[&board].is_null(), "a revoked token: {tested}");
}

/// Lichess's `GET /game/export/{id}` is the game's PGN; our own NDJSON
/// stream lives at `/api/games/{id}/stream`, leaving lichess's stream
/// paths to lichess's shapes.
#[tokio::test(flavor = "multi_thread")]
async fn the_export_is_the_pgn_and_our_stream_has_its_own_path() {
    let server = common::start().await;
    let (id, white, black) = server.friend_game("chess", Value::Null).await;
    server.ok(&id, &white, "move/e2e4", None).await;
    server.ok(&id, &black, "move/e7e5", None).await;
    let export = server.get(&format!("/game/export/{id}"), None).await;
    assert_eq!(export.status, 200, "{}", export.text);
    assert!(export.text.contains("1. e4 e5"), "{}", export.text);
    assert_eq!(
        export.text,
        server.get(&format!("/api/games/{id}/pgn"), None).await.text
    );
    assert_eq!(
        server.get("/game/export/nosuchgame", None).await.status,
        404
    );

    let mut ours = server.stream(&id, Some(&white), None).await;
    ours.until("our gameFull", |v| v["type"] == "gameFull")
        .await;
}

/// A server with one account, `name`, and a `board:play` token of it.
async fn server_with_player(file: &str, name: &str) -> (common::TestServer, String) {
    let dir = tempfile::tempdir().unwrap();
    let db = common::database_for(&dir.path().join(file)).await;
    let (store, writer) = Store::open(&db).await.unwrap();
    let (server, _) = common::start_with(dir, db.clone(), |_| {}).await;
    accounts::add_user(&store, &writer, name, Some("long enough"), false)
        .await
        .unwrap();
    let token = accounts::add_token(&store, &writer, &name.to_lowercase(), "board:play")
        .await
        .unwrap();
    (server, token)
}

/// `POST /api/challenge/ai` with the form `body`.
async fn engine_game(server: &common::TestServer, token: &str, body: &str) -> common::Answer {
    server
        .send(
            server
                .http
                .post(server.url("/api/challenge/ai"))
                .bearer_auth(token)
                .header("Content-Type", "application/x-www-form-urlencoded")
                .body(body.to_string()),
        )
        .await
}

/// A profile's games come a page at a time, newest first: each game has
/// a cursor, and `before` one of them gives the games after it.
#[tokio::test(flavor = "multi_thread")]
async fn a_users_games_page_by_cursor() {
    let (server, token) = server_with_player("pages.sqlite", "Pia").await;
    let mut made = Vec::new();
    for _ in 0..3 {
        let game = engine_game(&server, &token, "level=1&days=3&color=white").await;
        assert_eq!(game.status, 201, "{}", game.text);
        made.push(game.body["id"].as_str().unwrap().to_string());
    }
    let ids = |page: &Value| -> Vec<String> {
        page.as_array()
            .unwrap()
            .iter()
            .map(|g| g["id"].as_str().unwrap().to_string())
            .collect()
    };
    let first = server.get("/api/user/pia/games?nb=2", None).await;
    assert_eq!(first.status, 200, "{}", first.text);
    let cursor = first.body[1]["cursor"].as_str().unwrap().to_string();
    let second = server
        .get(&format!("/api/user/pia/games?nb=2&before={cursor}"), None)
        .await;
    let mut seen = [ids(&first.body), ids(&second.body)].concat();
    assert_eq!(seen.len(), 3, "{} then {}", first.text, second.text);
    seen.sort();
    made.sort();
    assert_eq!(seen, made, "every game once, over two pages");
    let bad = server
        .get("/api/user/pia/games?before=yesterday", None)
        .await;
    assert_eq!(bad.status, 400, "{}", bad.text);
}

/// What lichess-bot reads to judge time: a correspondence game in
/// `/api/account/playing` carries `secondsLeft` (its days for the move),
/// and the export's `lastMoveAt` moves on with the game.
#[tokio::test(flavor = "multi_thread")]
async fn correspondence_games_show_seconds_left_and_the_export_the_last_move() {
    let (server, token) = server_with_player("times.sqlite", "Tess").await;
    let game = engine_game(&server, &token, "level=1&days=2&color=white").await;
    assert_eq!(game.status, 201, "{}", game.text);
    let id = game.body["id"].as_str().unwrap().to_string();
    let playing = server.get("/api/account/playing", Some(&token)).await;
    let now_playing = &playing.body["nowPlaying"][0];
    assert_eq!(now_playing["isMyTurn"], true, "{}", playing.text);
    let left = now_playing["secondsLeft"].as_i64().expect("secondsLeft");
    assert!((2 * 86_400 - 60..=2 * 86_400).contains(&left), "{left}");

    tokio::time::sleep(std::time::Duration::from_millis(30)).await;
    let moved = server
        .send(
            server
                .http
                .post(server.url(&format!("/api/board/game/{id}/move/e2e4")))
                .bearer_auth(&token),
        )
        .await;
    assert_eq!(moved.status, 200, "{}", moved.text);
    let export = server
        .send(
            server
                .http
                .get(server.url(&format!("/game/export/{id}")))
                .header("Accept", "application/json"),
        )
        .await;
    assert_eq!(export.status, 200, "{}", export.text);
    let created = export.body["createdAt"].as_i64().unwrap();
    let last = export.body["lastMoveAt"].as_i64().unwrap();
    assert!(
        last >= created + 30,
        "lastMoveAt {last}, createdAt {created}"
    );
}

/// A challenge nobody answers is canceled after `challenge_expiry`: the
/// challenger's event stream hears `challengeCanceled`, and it can no
/// longer be accepted.
#[tokio::test(flavor = "multi_thread")]
async fn an_unanswered_challenge_expires_and_its_challenger_hears_it() {
    let dir = tempfile::tempdir().unwrap();
    let db = common::database_for(&dir.path().join("expiry.sqlite")).await;
    let (store, writer) = Store::open(&db).await.unwrap();
    let (server, _) = common::start_with(dir, db.clone(), |limits| {
        limits.challenge_expiry = std::time::Duration::from_secs(2);
    })
    .await;
    let mut tokens = Vec::new();
    for name in ["Ada", "Bob"] {
        accounts::add_user(&store, &writer, name, Some("long enough"), false)
            .await
            .unwrap();
        tokens.push(
            accounts::add_token(&store, &writer, name, "board:play")
                .await
                .unwrap(),
        );
    }
    let (ada, bob) = (&tokens[0], &tokens[1]);
    let mut events = server
        .http
        .get(server.url("/api/stream/event"))
        .bearer_auth(ada)
        .send()
        .await
        .unwrap();
    assert_eq!(events.status().as_u16(), 200);

    let sent = server
        .send(
            server
                .http
                .post(server.url("/api/challenge/bob"))
                .bearer_auth(ada)
                .header("Content-Type", "application/x-www-form-urlencoded")
                .body("clock.limit=300&clock.increment=0"),
        )
        .await;
    assert_eq!(sent.status, 200, "{}", sent.text);
    let id = sent.body["id"].as_str().unwrap().to_string();
    let open = server.get("/api/challenge", Some(bob)).await;
    assert_eq!(open.body["in"][0]["id"], id.as_str(), "{}", open.text);

    let mut seen = Vec::new();
    let mut pending = String::new();
    let canceled = tokio::time::timeout(std::time::Duration::from_secs(20), async {
        while let Some(chunk) = events.chunk().await.unwrap() {
            pending.push_str(&String::from_utf8_lossy(&chunk));
            while let Some(i) = pending.find('\n') {
                let line: String = pending.drain(..=i).collect();
                let Ok(event) = serde_json::from_str::<Value>(line.trim()) else {
                    continue;
                };
                seen.push(event["type"].as_str().unwrap_or("").to_string());
                if event["type"] == "challengeCanceled" {
                    return event;
                }
            }
        }
        panic!("the event stream ended; seen {seen:?}");
    })
    .await
    .expect("challengeCanceled within 20 s");
    assert_eq!(canceled["challenge"]["id"], id.as_str(), "{canceled}");

    let late = server
        .post(&format!("/api/challenge/{id}/accept"), Some(bob), None)
        .await;
    assert_eq!(late.status, 404, "{}", late.text);
    let open = server.get("/api/challenge", Some(bob)).await;
    assert_eq!(open.body["in"], serde_json::json!([]), "{}", open.text);
}

/// Seeks and challenges are stored: after a restart the seek is listed
/// and accepted, the challenge is still Bob's to decline, and a seek can
/// be taken only once.
#[tokio::test(flavor = "multi_thread")]
async fn open_seeks_and_challenges_outlive_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let db = common::database_for(&dir.path().join("lobby.sqlite")).await;
    let (store, writer) = Store::open(&db).await.unwrap();
    let mut tokens = Vec::new();
    for name in ["Ada", "Bob"] {
        accounts::add_user(&store, &writer, name, Some("long enough"), false)
            .await
            .unwrap();
        tokens.push(
            accounts::add_token(&store, &writer, name, "board:play")
                .await
                .unwrap(),
        );
    }
    let (ada, bob) = (&tokens[0], &tokens[1]);
    let config = parity_server::base::limits::Config::default();
    let (s, server) = common::serve_keeping(dir, db.clone(), config.clone()).await;
    let terms = serde_json::json!({"variant": "chess", "clock": {"initial": 180, "increment": 2}});
    let seek = s.post("/api/lobby/seeks", Some(ada), Some(terms)).await;
    assert_eq!(seek.status, 200, "{}", seek.text);
    let seek_id = seek.body["id"].as_str().unwrap().to_string();
    let sent = s
        .send(
            s.http
                .post(s.url("/api/challenge/bob"))
                .bearer_auth(ada)
                .header("Content-Type", "application/x-www-form-urlencoded")
                .body("variant=parity&days=3"),
        )
        .await;
    assert_eq!(sent.status, 200, "{}", sent.text);
    let challenge_id = sent.body["id"].as_str().unwrap().to_string();
    server.shut_down(std::time::Duration::from_secs(2)).await;

    let (s, _server) = common::serve_keeping(tempfile::tempdir().unwrap(), db, config).await;
    let listed = s.get("/api/lobby/seeks", None).await;
    assert_eq!(listed.body[0]["id"], seek_id.as_str(), "{}", listed.text);
    assert_eq!(listed.body[0]["user"], "Ada");
    let incoming = s.get("/api/challenge", Some(bob)).await;
    assert_eq!(
        incoming.body["in"][0]["id"],
        challenge_id.as_str(),
        "{}",
        incoming.text
    );
    let declined = s
        .post(
            &format!("/api/challenge/{challenge_id}/decline"),
            Some(bob),
            None,
        )
        .await;
    assert_eq!(declined.status, 200, "{}", declined.text);
    let accepted = s
        .post(
            &format!("/api/lobby/seeks/{seek_id}/accept"),
            Some(bob),
            None,
        )
        .await;
    assert_eq!(accepted.status, 200, "{}", accepted.text);
    let game = accepted.body["game"].as_str().unwrap();
    assert_eq!(s.full(game, None).await["variant"]["id"], "chess");
    let twice = s
        .post(
            &format!("/api/lobby/seeks/{seek_id}/accept"),
            Some(bob),
            None,
        )
        .await;
    assert_eq!(twice.status, 404, "{}", twice.text);
    assert_eq!(
        s.get("/api/lobby/seeks", None).await.body,
        serde_json::json!([])
    );
    assert_eq!(
        s.get("/api/challenge", Some(bob)).await.body["in"],
        serde_json::json!([])
    );
}

/// A server stopped between the summary that ends a rated game and the
/// game's rating (the game left due) rates it when it starts again.
#[tokio::test(flavor = "multi_thread")]
async fn a_game_ended_before_a_crash_is_rated_on_the_next_start() {
    use parity_rules::Color;
    use parity_server::game::event::Seat;
    use parity_server::game::state::{Status, Summary};
    use parity_server::store::Change;

    let dir = tempfile::tempdir().unwrap();
    let db = common::database_for(&dir.path().join("rated.sqlite")).await;
    let (store, writer) = Store::open(&db).await.unwrap();
    for name in ["Ada", "Bob"] {
        accounts::add_user(&store, &writer, name, Some("long enough"), false)
            .await
            .unwrap();
    }
    let game = "c000000001";
    let mut changes = vec![Change::NewGame {
        id: game.into(),
        variant: "chess".into(),
        created_ms: 1,
        seats: [Seat::Human, Seat::Human],
        rematch_of: None,
        public: Some(true),
    }];
    for (color, user) in [(Color::White, "ada"), (Color::Black, "bob")] {
        changes.push(Change::Player {
            game: game.into(),
            color,
            user_id: user.into(),
            rating: Some(1500),
            provisional: true,
        });
    }
    changes.push(Change::Rated { game: game.into() });
    changes.push(Change::Summary {
        game: game.into(),
        summary: Summary {
            status: Status::Finished,
            result: Some("0-1".into()),
            reason: None,
            turn: 7,
            both_moved: true,
        },
    });
    writer.write(changes).await.unwrap();
    assert_eq!(store.ratings_due(10).await.unwrap(), vec![game.to_string()]);
    drop((store, writer));

    let config = parity_server::base::limits::Config::default();
    let (s, _server) = common::serve_keeping(dir, db, config).await;
    let perf = |user: Value| user["perfs"]["standard"].clone();
    let bob = perf(s.get("/api/user/bob", None).await.body);
    let ada = perf(s.get("/api/user/ada", None).await.body);
    assert_eq!(
        (ada["games"].as_i64(), bob["games"].as_i64()),
        (Some(1), Some(1))
    );
    assert!(bob["rating"].as_i64().unwrap() > 1500, "the winner: {bob}");
    assert!(ada["rating"].as_i64().unwrap() < 1500, "the loser: {ada}");
}
