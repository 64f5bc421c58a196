//! `parity serve --metrics-token`, scraped as Prometheus would: after a
//! game's moves and a refused game, `tests/python/metrics_client.py`
//! reads `/metrics` with prometheus_client's parser (`pip install
//! prometheus-client`), checks each family's type and prints the samples,
//! whose numbers are checked here. Also: the token is required, and
//! without the flag `/metrics` does not exist, while `/health` and
//! `/ready` answer.

use crate::common;

use std::process::Command;

use serde_json::{json, Value};

const TOKEN: &str = "scrape-me-3f9a";

/// The samples of a scrape, by name with labels, as the Python client read them.
fn scrape_with_prometheus_client(base: &str, token: &str) -> Value {
    let script =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/python/metrics_client.py");
    let out = Command::new("python3")
        .arg(&script)
        .args([base, token])
        .output()
        .expect("python3 runs the client");
    assert!(
        out.status.success(),
        "the client failed (it needs prometheus-client: pip install prometheus-client):\n{}\n{}",
        common::stdout(&out),
        common::stderr(&out)
    );
    serde_json::from_str(common::stdout(&out).trim()).expect("the samples as JSON")
}

fn number(samples: &Value, name: &str) -> f64 {
    samples[name]
        .as_f64()
        .unwrap_or_else(|| panic!("no sample {name} in {samples}"))
}

#[test]
fn prometheus_client_reads_the_metrics_of_a_game() {
    let db = common::temp("metrics", "metrics.sqlite");
    let (mut server, base) = common::serve(
        &db,
        &[
            "--metrics-token",
            TOKEN,
            "--games-per-minute",
            "1",
            "--engine-threads",
            "3",
        ],
    );
    let api = common::Api::new(base.clone());
    let status = |path: &str, token: Option<&str>| {
        let mut request = api.http.get(format!("{base}{path}"));
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        let response = request.send().expect("request");
        (response.status().as_u16(), response.text().expect("body"))
    };
    assert_eq!(status("/health", None), (200, "ok".to_string()));
    assert_eq!(status("/ready", None), (200, "ready".to_string()));
    assert_eq!(status("/metrics", None).0, 401);
    assert_eq!(status("/metrics", Some("scrape-me-3f9b")).0, 401);

    let (id, white, black) = common::friend_game(&api, &api, "chess");
    for (token, uci) in [(&white, "e2e4"), (&black, "e7e5"), (&white, "g1f3")] {
        api.act(&id, token, &format!("move/{uci}"), json!({}));
    }
    // The second game this minute is refused.
    let (refused, body) = api.answer(
        api.http
            .post(format!("{base}/api/games"))
            .json(&json!({"variant": "chess", "opponent": "friend"})),
    );
    assert_eq!(refused, 429, "{body}");

    let samples = scrape_with_prometheus_client(&base, TOKEN);
    server.kill().expect("server stopped");
    server.wait().expect("server reaped");
    assert_eq!(number(&samples, "parity_moves_total"), 3.0, "{samples}");
    assert_eq!(number(&samples, "parity_live_games"), 1.0, "{samples}");
    assert_eq!(
        number(
            &samples,
            r#"parity_rate_limit_refusals_total{limit="games"}"#
        ),
        1.0
    );
    assert_eq!(number(&samples, "parity_turn_latency_seconds_count"), 3.0);
    assert!(number(&samples, "parity_turn_latency_seconds_sum") > 0.0);
    // The game's creation, join and three moves, at least, were committed.
    assert!(number(&samples, "parity_commit_latency_seconds_count") >= 5.0);
    assert_eq!(number(&samples, "parity_engine_workers"), 3.0);
    assert_eq!(number(&samples, "parity_engine_busy"), 0.0);
    assert_eq!(number(&samples, "parity_node_leases"), 0.0);
    assert!(number(&samples, "parity_connections") >= 1.0);

    // Without the flag there is no such page; the probes still answer.
    let (mut plain, plain_base) = common::serve(&common::temp("metrics", "plain.sqlite"), &[]);
    let plain_api = common::Api::new(plain_base.clone());
    let (metrics, body) = plain_api.answer(
        plain_api
            .http
            .get(format!("{plain_base}/metrics"))
            .bearer_auth(TOKEN),
    );
    let (health, _) = plain_api.answer(plain_api.http.get(format!("{plain_base}/health")));
    let (ready, _) = plain_api.answer(plain_api.http.get(format!("{plain_base}/ready")));
    plain.kill().expect("server stopped");
    plain.wait().expect("server reaped");
    assert_eq!(metrics, 404, "{body}");
    assert_eq!((health, ready), (200, 200));
}
