//! Shutting down (SIGTERM; `Server::shut_down`), on SQLite and, with
//! `PARITY_TEST_BACKEND=postgres`, on a cluster's node: the server says it
//! is not ready and refuses new games, each WebSocket is closed with 1012
//! ("service restart": reconnect) and each stream ends, no new connection
//! is taken, and it returns within the grace with every move kept.

use crate::common;

use std::time::{Duration, Instant};

use common::*;
use futures_util::StreamExt as _;
use parity_server::base::limits::Config;
use parity_server::base::refusal::Refusal;
use parity_server::hub::new_game::{NewGame, Opponent};
use serde_json::json;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::Message;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_shutdown_tells_clients_to_reconnect_and_keeps_every_move() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("shutdown.sqlite");
    let db = database_for(&path).await;
    let mut config = Config::default();
    config.limits.actions_per_second = std::num::NonZeroU32::new(1000).unwrap();
    let (s, server) = serve_keeping(dir, db.clone(), config).await;
    let (id, white, black) = s
        .friend_game("chess", json!({"initial": 900, "increment": 0}))
        .await;
    let moved = s.ok(&id, &white, "move/e2e4", None).await;
    let mut stream = s.stream(&id, Some(&black), None).await;
    let first = stream.until("gameFull", |v| v["type"] == "gameFull").await;
    assert_eq!(first["seq"], moved, "{first}");
    let url = format!("{}/api/ws/game/{id}", s.base.replace("http://", "ws://"));
    let (mut socket, _) = tokio_tungstenite::connect_async(url).await.expect("ws");

    let hub = server.hub.clone();
    let began = Instant::now();
    let shutting = tokio::spawn(server.shut_down(Duration::from_secs(5)));
    // The WebSocket: its events, then a close frame saying "restart".
    let close = loop {
        match tokio::time::timeout(Duration::from_secs(5), socket.next()).await {
            Ok(Some(Ok(Message::Close(frame)))) => break frame,
            Ok(Some(Ok(_))) => continue,
            other => panic!("no close frame: {other:?}"),
        }
    };
    let close = close.expect("a close frame with a code");
    assert_eq!(close.code, CloseCode::Restart, "{close:?}");
    assert!(close.reason.contains("reconnect"), "{close:?}");
    assert!(hub.shutdown().has_begun());
    assert_eq!(
        hub.readiness().await,
        Err("this server is shutting down".into())
    );
    let refused = hub
        .create(NewGame {
            variant: "chess".into(),
            clock: None,
            days: Some(3),
            opponent: Opponent::Friend,
            color: parity_server::hub::new_game::ColorChoice::White,
            public: false,
            fen: None,
        })
        .await;
    assert!(matches!(refused, Err(Refusal::Busy(_))), "{refused:?}");
    // Every connection ends in the grace: the stream too.
    assert!(shutting.await.unwrap(), "every connection ended in time");
    assert!(
        began.elapsed() < Duration::from_secs(5),
        "{:?}",
        began.elapsed()
    );
    assert!(stream.raw_text().contains("e2e4"), "{}", stream.raw_text());
    let again = reqwest::Client::new().get(s.url("/health")).send().await;
    assert!(again.is_err(), "no connection is taken after the shutdown");

    // A server on the same database: the move is there.
    let dir = tempfile::tempdir().unwrap();
    let (s2, _) = serve_keeping(dir, db, Config::default()).await;
    let full = s2.full(&id, Some(&white)).await;
    assert_eq!(full["moves"][0]["uci"], "e2e4", "{}", full["moves"]);
}
