//! `/health`, `/ready` and `/metrics` (docs/server.md, "Monitoring"), on
//! SQLite and, with `PARITY_TEST_BACKEND=postgres`, on a cluster's node:
//! the token guards the metrics, and moves, sockets, refusals and leases
//! move the numbers they should. The metrics are process-wide, so only
//! one test of this file plays moves.

mod common;

use std::collections::HashMap;
use std::num::NonZeroU32;

use common::*;
use parity_server::base::limits::Config;
use parity_server::base::metrics::MetricsToken;
use serde_json::json;

const TOKEN: &str = "a-metrics-token-for-tests";

/// The samples of a scrape, by name with labels as written
/// (`parity_sockets{kind="stream"}`).
async fn scrape(s: &TestServer) -> HashMap<String, f64> {
    let response = s
        .http
        .get(s.url("/metrics"))
        .bearer_auth(TOKEN)
        .send()
        .await
        .expect("scrape");
    assert_eq!(response.status(), 200);
    let content_type = response.headers()["content-type"].to_str().unwrap();
    assert!(content_type.starts_with("text/plain"), "{content_type}");
    let text = response.text().await.expect("body");
    text.lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let (name, value) = l.rsplit_once(' ').expect("a sample");
            (name.to_string(), value.parse().expect("a number"))
        })
        .collect()
}

fn sample(samples: &HashMap<String, f64>, name: &str) -> f64 {
    samples.get(name).copied().unwrap_or(0.0)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_follow_moves_sockets_refusals_and_leases() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("monitoring.sqlite");
    let mut config = Config::default();
    config.limits.actions_per_second = NonZeroU32::new(1000).unwrap();
    config.limits.games_per_minute = NonZeroU32::new(2).unwrap();
    config.metrics_token = Some(MetricsToken::new(TOKEN));
    let (s, _) = start_configured(dir, &db, config).await;

    let health = s.get("/health", None).await;
    assert_eq!((health.status, health.text.as_str()), (200, "ok"));
    let ready = s.get("/ready", None).await;
    assert_eq!((ready.status, ready.text.as_str()), (200, "ready"));
    for token in [None, Some("wrong"), Some("a-metrics-token-for-test")] {
        let refused = s.get("/metrics", token).await;
        assert_eq!(refused.status, 401, "{token:?}: {}", refused.text);
        assert!(!refused.text.contains("parity_"), "{}", refused.text);
    }
    let before = scrape(&s).await;

    // Chess: two moves, watched on a stream and a WebSocket.
    let (chess, white, black) = s.friend_game("chess", json!(null)).await;
    let mut stream = s.stream(&chess, None, None).await;
    stream.until("gameFull", |v| v["type"] == "gameFull").await;
    let mut socket = s.websocket(&chess, Some(&black), None).await;
    socket
        .lines
        .until("gameFull", |v| v["type"] == "gameFull")
        .await;
    s.ok(&chess, &white, "move/e2e4", None).await;
    s.ok(&chess, &black, "move/e7e5", None).await;
    // Parity: one simultaneous turn, both sides' moves.
    let (parity, white, black) = s.friend_game("parity", json!(null)).await;
    let white_nonce = s.commit(&parity, &white, "white", "g1f3", 1).await;
    let black_nonce = s.commit(&parity, &black, "black", "b8c6", 2).await;
    s.reveal(&parity, &white, "g1f3", &white_nonce).await;
    s.reveal(&parity, &black, "b8c6", &black_nonce).await;
    // A third game this minute is one too many.
    let refused = s
        .post(
            "/api/games",
            None,
            Some(json!({"variant": "chess", "opponent": "friend"})),
        )
        .await;
    assert_eq!(refused.status, 429, "{}", refused.text);

    let after = scrape(&s).await;
    let grew = |name: &str| sample(&after, name) - sample(&before, name);
    assert_eq!(grew("parity_moves_total"), 4.0, "{after:?}");
    assert_eq!(
        grew(r#"parity_rate_limit_refusals_total{limit="games"}"#),
        1.0,
        "{after:?}"
    );
    assert_eq!(grew("parity_live_games"), 2.0, "{after:?}");
    assert!(sample(&after, r#"parity_sockets{kind="stream"}"#) >= 1.0);
    assert!(sample(&after, r#"parity_sockets{kind="websocket"}"#) >= 1.0);
    assert!(sample(&after, "parity_connections") >= 2.0, "{after:?}");
    // Two moves, two commitments, two reveals; every one stored first.
    assert_eq!(grew("parity_turn_latency_seconds_count"), 6.0, "{after:?}");
    assert!(grew("parity_commit_latency_seconds_count") >= 6.0);
    assert_eq!(
        sample(&after, r#"parity_turn_latency_seconds_bucket{le="+Inf"}"#),
        sample(&after, "parity_turn_latency_seconds_count")
    );
    let (workers, _, _) = s.engines.load();
    assert_eq!(sample(&after, "parity_engine_workers"), workers as f64);
    assert_eq!(sample(&after, "parity_engine_queue"), 0.0);
    // On PostgreSQL this node holds the lease of each game it plays.
    let leases = sample(&after, "parity_node_leases");
    match std::env::var("PARITY_TEST_BACKEND").as_deref() {
        Ok("postgres") => assert!(leases >= 2.0, "{after:?}"),
        _ => assert_eq!(leases, 0.0),
    }

    // A socket that closes leaves the count.
    let open_sockets = sample(&after, r#"parity_sockets{kind="websocket"}"#);
    drop(socket);
    let deadline = std::time::Instant::now() + PATIENCE;
    while sample(&scrape(&s).await, r#"parity_sockets{kind="websocket"}"#) >= open_sockets {
        assert!(
            std::time::Instant::now() < deadline,
            "the socket stays counted"
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_a_token_there_are_no_metrics_but_health_and_readiness() {
    let s = start().await;
    let metrics = s.get("/metrics", Some(TOKEN)).await;
    assert_eq!(metrics.status, 404, "{}", metrics.text);
    assert!(!metrics.text.contains("parity_"), "{}", metrics.text);
    // A load balancer probes often: neither probe is rate-limited.
    for _ in 0..50 {
        assert_eq!(s.get("/health", None).await.status, 200);
        let ready = s.get("/ready", None).await;
        assert_eq!((ready.status, ready.text.as_str()), (200, "ready"));
    }
}
