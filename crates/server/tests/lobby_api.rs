//! What the lobby and the game page's help read from the API: each
//! variant's description and start position, its rules as escaped HTML;
//! and the PGN's Date, TimeControl and absolute Site, from the request's
//! Host or, behind a trusted proxy, its X-Forwarded-Host and -Proto.

use crate::common;

use common::*;
use parity_rules::{record, AnyGame, Registry};
use serde_json::json;

fn tag(pgn: &str, name: &str) -> String {
    let start = format!("[{name} \"");
    let line = pgn
        .lines()
        .find(|l| l.starts_with(&start))
        .unwrap_or_else(|| panic!("no {name} tag in {pgn}"));
    line[start.len()..line.len() - 2].to_string()
}

fn today() -> String {
    let ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64;
    record::pgn_date(ms)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn variants_come_with_their_description_start_and_rules() {
    let s = start().await;
    let listed = s.get("/api/variants", None).await.body;
    let registry = Registry::builtin();
    assert_eq!(listed.as_array().unwrap().len(), registry.iter().count());
    for v in listed.as_array().unwrap() {
        let id = v["id"].as_str().unwrap();
        let variant = registry.get(id).unwrap();
        assert_eq!(v["description"], variant.spec.description.as_str());
        assert!(!variant.spec.description.is_empty(), "{id}");
        let pieces: usize = v["start"]
            .as_array()
            .unwrap()
            .iter()
            .map(|sq| sq["pieces"].as_array().unwrap().len())
            .sum();
        let expected: usize = AnyGame::new(variant)
            .pieces()
            .iter()
            .map(|(_, p)| p.len())
            .sum();
        assert_eq!(pieces, expected, "{id}");

        let rules = s.get(&format!("/api/variants/{id}/rules"), None).await;
        assert_eq!(rules.status, 200, "{id}: {}", rules.text);
        // Written for players, under the variant's name.
        let title = rules.text.lines().next().unwrap_or_default();
        assert_eq!(title, format!("<h1>{}</h1>", variant.spec.name), "{id}");
        assert!(!rules.text.contains("<a "), "{id}: links kept");
    }
    let unknown = s.get("/api/variants/nonesuch/rules", None).await;
    assert_eq!(unknown.status, 404);
    assert!(unknown.body["error"].is_string(), "{}", unknown.text);
    // Rulings are a document, not a variant.
    assert_eq!(s.get("/api/variants/rulings/rules", None).await.status, 404);
    // A gameFull's variant has its description too (the page's help).
    let (id, white, _) = s.friend_game("chess", serde_json::Value::Null).await;
    let full = s.full(&id, Some(&white)).await;
    assert_eq!(
        full["variant"]["description"],
        registry.get("chess").unwrap().spec.description.as_str()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_pgn_has_date_time_control_and_an_absolute_site() {
    let s = start().await;
    let (id, white, black) = s
        .friend_game("chess", json!({"initial": 600, "increment": 5}))
        .await;
    s.ok(&id, &white, "move/e2e4", None).await;
    s.ok(&id, &black, "move/e7e5", None).await;
    let pgn = s.get(&format!("/api/games/{id}/pgn"), None).await.text;
    assert_eq!(tag(&pgn, "Site"), s.url(&format!("/game/{id}")));
    assert!(tag(&pgn, "Site").starts_with("http://127.0.0.1:"), "{pgn}");
    assert_eq!(tag(&pgn, "Date"), today());
    assert_eq!(tag(&pgn, "TimeControl"), "600+5");
    assert!(pgn.contains("1. e4 e5"), "{pgn}");
    let Ok(AnyGame::TurnBased64(game)) = record::replay(&Registry::builtin(), &pgn) else {
        panic!("the PGN replays: {pgn}")
    };
    assert_eq!(game.moves().len(), 2);

    // Correspondence, as lichess writes it, and a game without a clock:
    // no live clock, "-".
    let correspondence = s
        .create(json!({"variant": "tutti-frutti", "days": 3, "opponent": "friend"}))
        .await;
    let cid = correspondence["id"].as_str().unwrap();
    let pgn = s.get(&format!("/api/games/{cid}/pgn"), None).await.text;
    assert_eq!(tag(&pgn, "TimeControl"), "-");
    assert_eq!(tag(&pgn, "Date"), today());
    let (sid, _, _) = s.friend_game("parity", serde_json::Value::Null).await;
    let pgn = s.get(&format!("/api/games/{sid}/pgn"), None).await.text;
    assert_eq!(tag(&pgn, "TimeControl"), "-");
    assert_eq!(tag(&pgn, "Date"), today());
    assert_eq!(tag(&pgn, "Site"), s.url(&format!("/game/{sid}")));
    assert!(record::replay(&Registry::builtin(), &pgn).is_ok(), "{pgn}");

    // The Host the client used; a proxy's headers count only when the
    // server trusts its proxy (below).
    let pgn = s
        .send(
            s.http
                .get(s.url(&format!("/api/games/{id}/pgn")))
                .header("host", "parity.example:8080")
                .header("x-forwarded-host", "evil.example")
                .header("x-forwarded-proto", "https"),
        )
        .await
        .text;
    assert_eq!(
        tag(&pgn, "Site"),
        format!("http://parity.example:8080/game/{id}")
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn behind_a_trusted_proxy_the_site_is_the_proxys() {
    let dir = tempfile::tempdir().unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let config = parity_server::base::limits::Config {
        trusted_proxies: vec![parity_server::base::limits::parse_proxy("127.0.0.1").unwrap()],
        ..Default::default()
    };
    let server = parity_server::start(
        &dir.path().join("t.sqlite"),
        listener,
        Registry::builtin(),
        config,
    )
    .await
    .unwrap();
    let base = format!("http://{}", server.addr);
    let http = reqwest::Client::new();
    let created: serde_json::Value = http
        .post(format!("{base}/api/games"))
        .json(&json!({"variant": "parity12", "clock": {"initial": 180, "increment": 2}, "opponent": "friend"}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let id = created["id"].as_str().unwrap();
    let pgn = http
        .get(format!("{base}/api/games/{id}/pgn"))
        .header("x-forwarded-host", "parity.example")
        .header("x-forwarded-proto", "https")
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert_eq!(
        tag(&pgn, "Site"),
        format!("https://parity.example/game/{id}")
    );
    assert_eq!(tag(&pgn, "TimeControl"), "180+2");
}
