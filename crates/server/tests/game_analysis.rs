//! The computer analysis of finished games: asked for over HTTP, made on
//! the engine pool, stored with the game, and exported in lichess's shapes.

use crate::common;

use std::time::Duration;

use serde_json::Value;

/// A server whose analyses search each position for 60 ms, at most
/// `per_hour` of them per address.
async fn start(per_hour: u32) -> common::TestServer {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("test.sqlite");
    let config = parity_server::base::limits::Config {
        limits: parity_server::base::limits::Limits {
            game_analyses_per_hour: std::num::NonZeroU32::new(per_hour).unwrap(),
            game_analysis_time: Duration::from_millis(60),
            ..Default::default()
        },
        ..Default::default()
    };
    common::start_configured(dir, &db, config).await.0
}

/// Lichess's JSON export at `path`.
async fn export_json(server: &common::TestServer, path: &str) -> common::Answer {
    let request = server
        .http
        .get(server.url(path))
        .header("Accept", "application/json");
    server.send(request).await
}

/// Asks for game `id`'s analysis and waits for it.
async fn analysed(server: &common::TestServer, id: &str) -> Value {
    let path = format!("/api/games/{id}/analysis");
    let asked = server.post(&path, None, None).await;
    assert!(matches!(asked.status, 200 | 202), "{}", asked.text);
    for _ in 0..600 {
        let a = server.get(&path, None).await;
        match a.status {
            200 if a.body.get("kind").is_some() => return a.body,
            202 => assert_eq!(a.body["status"], "running"),
            other => panic!("{other}: {}", a.text),
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the analysis of {id} did not end in a minute");
}

#[tokio::test]
async fn a_chess_game_is_judged_move_by_move_and_exported_as_lichess_does() {
    let server = start(10).await;
    let (id, white, black) = server.friend_game("chess", Value::Null).await;
    let path = format!("/api/games/{id}/analysis");

    // Nothing to analyse before the end, and nothing asked for yet.
    let early = server.post(&path, None, None).await;
    assert_eq!(early.status, 409, "{}", early.text);
    assert!(early.text.contains("not over"), "{}", early.text);
    let none = server.get(&path, None).await;
    assert_eq!(none.status, 200, "{}", none.text);
    assert_eq!(none.body["status"], "none");

    // The fool's mate: 2. g4?? lets Black mate at once.
    for (token, mv) in [
        (&white, "f2f3"),
        (&black, "e7e5"),
        (&white, "g2g4"),
        (&black, "d8h4"),
    ] {
        server.ok(&id, token, &format!("move/{mv}"), None).await;
    }
    assert_eq!(server.full(&id, None).await["status"], "finished");

    let review = analysed(&server, &id).await;
    assert_eq!(review["kind"], "turn-based", "{review}");
    assert_eq!(review["msPerPosition"], 60);
    let positions = review["positions"].as_array().unwrap();
    assert_eq!(
        positions.len(),
        5,
        "the start and after each move: {review}"
    );
    // Before g4 the engine's move is not g4; after it Black mates in one.
    assert_eq!(positions[3]["mate"], -1, "{review}");
    assert_eq!(positions[4]["over"], "0-1", "{review}");
    let moves = review["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 4);
    assert_eq!(moves[2]["san"], "g4");
    assert_eq!(moves[2]["judgment"], "blunder", "{review}");
    assert!(
        moves[3].get("judgment").is_none(),
        "the mate is best: {review}"
    );
    let (w, b) = (&review["white"], &review["black"]);
    assert!(w["blunder"].as_u64().unwrap() >= 1, "{review}");
    assert_eq!(b["blunder"], 0, "{review}");
    let (wa, ba) = (
        w["accuracy"].as_f64().unwrap(),
        b["accuracy"].as_f64().unwrap(),
    );
    assert!(ba > wa, "the mating side is the more accurate: {wa} {ba}");

    // Asked again: the stored analysis at once.
    let again = server.post(&path, None, None).await;
    assert_eq!(again.status, 200, "{}", again.text);
    assert_eq!(again.body, review);

    // Lichess's JSON export: one entry per move, the judgment on g4.
    let export = export_json(&server, &format!("/game/export/{id}?evals=true")).await;
    assert_eq!(export.status, 200, "{}", export.text);
    let analysis = export.body["analysis"]
        .as_array()
        .expect("an analysis array");
    assert_eq!(analysis.len(), 4, "{}", export.text);
    assert_eq!(analysis[2]["mate"], -1, "{}", export.text);
    assert_eq!(analysis[2]["judgment"]["name"], "Blunder");
    let comment = analysis[2]["judgment"]["comment"].as_str().unwrap();
    assert!(
        comment.starts_with("Blunder. ") && comment.ends_with(" was best."),
        "{comment}"
    );
    assert!(analysis[2]["best"].as_str().unwrap().len() >= 4);
    assert!(
        export.body["players"]["white"]["analysis"]["blunder"]
            .as_u64()
            .unwrap()
            >= 1
    );
    assert!(export.body["players"]["black"]["analysis"]["accuracy"].is_number());
    // `evals=false` leaves it out.
    let plain = export_json(&server, &format!("/game/export/{id}?evals=false")).await;
    assert!(plain.body.get("analysis").is_none(), "{}", plain.text);

    // The PGN: `[%eval]` after every move, the blunder marked.
    let pgn = server.get(&format!("/game/export/{id}"), None).await.text;
    assert!(pgn.contains("2. g4?? { [%eval #-1] Blunder. "), "{pgn}");
    assert_eq!(
        pgn.matches("[%eval ").count(),
        3,
        "no eval after the mate: {pgn}"
    );
    assert!(pgn.contains("2... Qh4#"), "{pgn}");
    let plain = server
        .get(&format!("/game/export/{id}?evals=false"), None)
        .await
        .text;
    assert!(!plain.contains("%eval"), "{plain}");
}

#[tokio::test]
async fn analyses_are_rate_limited_and_refused_for_unknown_games() {
    let server = start(1).await;
    for unknown in [
        server
            .post("/api/games/nosuchgame/analysis", None, None)
            .await,
        server.get("/api/games/nosuchgame/analysis", None).await,
    ] {
        assert_eq!(unknown.status, 404, "{}", unknown.text);
    }
    let mut ids = Vec::new();
    for _ in 0..2 {
        let (id, white, _) = server.friend_game("chess", Value::Null).await;
        server.ok(&id, &white, "move/e2e4", None).await;
        server.ok(&id, &white, "resign", None).await;
        ids.push(id);
    }
    analysed(&server, &ids[0]).await;
    let second = server
        .post(&format!("/api/games/{}/analysis", ids[1]), None, None)
        .await;
    assert_eq!(second.status, 429, "{}", second.text);
    assert!(
        second.text.contains("too many game analyses"),
        "{}",
        second.text
    );
}

#[tokio::test]
async fn a_parity_game_gets_each_sides_strategy_and_expected_loss_per_turn() {
    let server = start(10).await;
    let (id, white, black) = server.friend_game("parity", Value::Null).await;
    for (n, (w, b)) in [("e2e4", "e7e5"), ("g1f3", "b8c6")].into_iter().enumerate() {
        let n = n as u64;
        let wn = server.commit(&id, &white, "white", w, 2 * n).await;
        let bn = server.commit(&id, &black, "black", b, 2 * n + 1).await;
        server.reveal(&id, &white, w, &wn).await;
        server.reveal(&id, &black, b, &bn).await;
    }
    server.ok(&id, &black, "resign", None).await;

    let review = analysed(&server, &id).await;
    assert_eq!(review["kind"], "simultaneous", "{review}");
    let turns = review["turns"].as_array().unwrap();
    assert_eq!(turns.len(), 2, "{review}");
    assert_eq!(turns[0]["number"], 1);
    assert_eq!(turns[1]["white"]["uci"], "g1f3");
    assert_eq!(turns[1]["black"]["san"], "Nc6");
    for turn in turns {
        let value = turn["value"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&value), "{turn}");
        for side in ["white", "black"] {
            let s = &turn[side];
            let total: f64 = s["strategy"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c["probability"].as_f64().unwrap())
                .sum();
            assert!((total - 1.0).abs() < 1e-6, "{turn}");
            let (expected, loss) = (s["expected"].as_f64().unwrap(), s["loss"].as_f64().unwrap());
            assert!((0.0..=1.0).contains(&expected), "{turn}");
            assert!((0.0..=1.0).contains(&loss), "{turn}");
        }
    }
    assert!(review["white"]["averageLoss"].as_f64().unwrap() >= 0.0);
    // No lichess shape for simultaneous turns: the export is unchanged.
    let export = export_json(&server, &format!("/game/export/{id}")).await;
    assert!(export.body.get("analysis").is_none(), "{}", export.text);
}
