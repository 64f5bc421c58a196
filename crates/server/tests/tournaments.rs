//! An arena through the API: two accounts join, are paired, and the one
//! with Black goes berserk: its clock is halved, it gains no increment, a
//! second berserk is refused, and its win after seven moves scores 3; a
//! rematch is refused. An arena without berserk refuses it.

use crate::common;

use parity_server::accounts;
use parity_server::store::Store;
use serde_json::{json, Value};

async fn arena(server: &common::TestServer, token: &str, berserkable: bool) -> String {
    let made = server
        .post(
            "/api/tournament",
            Some(token),
            Some(json!({
                "clockTime": 3, "clockIncrement": 2, "minutes": 30, "waitMinutes": 0,
                "variant": "standard", "rated": false, "berserkable": berserkable,
            })),
        )
        .await;
    assert_eq!(made.status, 200, "{}", made.text);
    made.body["id"].as_str().unwrap().to_string()
}

/// Waits until the tournament has a game in play; its id and its players.
async fn paired(server: &common::TestServer, id: &str) -> (String, [String; 2]) {
    for _ in 0..200 {
        let t = server
            .get(&format!("/api/tournament/{id}"), None)
            .await
            .body;
        if let Some(duel) = t["duels"].as_array().and_then(|d| d.first()) {
            let name = |i: usize| duel["p"][i]["n"].as_str().unwrap().to_lowercase();
            return (duel["id"].as_str().unwrap().to_string(), [name(0), name(1)]);
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!("never paired");
}

fn standing<'a>(t: &'a Value, name: &str) -> &'a Value {
    t["standing"]["players"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["username"].as_str().unwrap().eq_ignore_ascii_case(name))
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_berserk_win_scores_an_extra_point() {
    let dir = tempfile::tempdir().unwrap();
    let db = common::database_for(&dir.path().join("tournaments.sqlite")).await;
    let (store, writer) = Store::open(&db).await.unwrap();
    let mut tokens = std::collections::HashMap::new();
    for name in ["Ann", "Ben"] {
        accounts::add_user(&store, &writer, name, Some("long enough"), false)
            .await
            .unwrap();
        let token = accounts::add_token(&store, &writer, name, "board:play")
            .await
            .unwrap();
        tokens.insert(name.to_lowercase(), token);
    }
    let (server, _) = common::start_with(dir, db, |_| {}).await;
    let id = arena(&server, &tokens["ann"], true).await;
    for token in tokens.values() {
        let joined = server
            .post(&format!("/api/tournament/{id}/join"), Some(token), None)
            .await;
        assert_eq!(joined.status, 200, "{}", joined.text);
    }
    let (game, [white, black]) = paired(&server, &id).await;
    let berserk = format!("/api/board/game/{game}/berserk");

    // A player of another game, or none, cannot go berserk here.
    assert_eq!(server.post(&berserk, None, None).await.status, 401);
    let gone = server.post(&berserk, Some(&tokens[&black]), None).await;
    assert_eq!(gone.status, 200, "{}", gone.text);
    let full = server.full(&game, Some(&tokens[&black])).await;
    assert_eq!(full["clocks"]["black_ms"], 90_000, "3+2 halved: {full}");
    assert_eq!(full["berserk"], json!({"white": false, "black": true}));
    let again = server.post(&berserk, Some(&tokens[&black]), None).await;
    assert_eq!(again.status, 409, "{}", again.text);

    // Seven moves each; Black gains no increment, White does.
    let moves = [
        "e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "f8c5", "b1c3", "g8f6", "d2d3", "d7d6", "c1g5",
        "h7h6", "g5h4", "g7g5",
    ];
    for (i, mv) in moves.iter().enumerate() {
        let side = if i % 2 == 0 { &white } else { &black };
        server
            .ok(&game, &tokens[side], &format!("move/{mv}"), None)
            .await;
    }
    let full = server.full(&game, Some(&tokens[&white])).await;
    assert!(
        full["clocks"]["black_ms"].as_i64().unwrap() <= 90_000,
        "{full}"
    );
    assert!(
        full["clocks"]["white_ms"].as_i64().unwrap() > 180_000,
        "{full}"
    );
    // White may no longer go berserk: it has moved.
    let late = server.post(&berserk, Some(&tokens[&white]), None).await;
    assert_eq!(late.status, 409, "{}", late.text);
    server.ok(&game, &tokens[&white], "resign", None).await;
    // The arena pairs its players again itself: no rematch.
    let rematch = server
        .post(
            &format!("/api/board/game/{game}/rematch"),
            Some(&tokens[&white]),
            None,
        )
        .await;
    assert_eq!(rematch.status, 409, "{}", rematch.text);
    assert!(rematch.text.contains("rematch"), "{}", rematch.text);

    let mut t = Value::Null;
    for _ in 0..100 {
        t = server
            .get(&format!("/api/tournament/{id}"), None)
            .await
            .body;
        if standing(&t, &black)["score"] == 3 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    let winner = standing(&t, &black);
    assert_eq!(
        (winner["score"].as_u64(), winner["rank"].as_u64()),
        (Some(3), Some(1)),
        "{t}"
    );
    assert_eq!(winner["nb"]["berserk"], 1);
    assert_eq!(standing(&t, &white)["score"], 0);

    // Its creator ends it; another arena, without berserk, refuses it.
    let ended = server
        .post(
            &format!("/api/tournament/{id}/terminate"),
            Some(&tokens["ann"]),
            None,
        )
        .await;
    assert_eq!(ended.status, 200, "{}", ended.text);
    let plain = arena(&server, &tokens["ann"], false).await;
    for token in tokens.values() {
        server
            .post(&format!("/api/tournament/{plain}/join"), Some(token), None)
            .await;
    }
    let (game, [_, black]) = paired(&server, &plain).await;
    let refused = server
        .post(
            &format!("/api/board/game/{game}/berserk"),
            Some(&tokens[&black]),
            None,
        )
        .await;
    assert_eq!(refused.status, 409, "{}", refused.text);
    assert!(refused.text.contains("berserk"), "{}", refused.text);
}
