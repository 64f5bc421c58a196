//! Positions and analysis over HTTP: games from a FEN, the line of a game
//! (the position after each move or turn), and the engine's evaluation.

use crate::common;

use serde_json::{json, Value};

const MATE_IN_ONE: &str = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1";

fn probabilities_sum(choices: &Value) -> f64 {
    choices
        .as_array()
        .expect("a list of moves")
        .iter()
        .map(|c| c["probability"].as_f64().expect("a probability"))
        .sum()
}

#[tokio::test]
async fn a_bad_fen_or_variant_is_a_400_with_a_reason() {
    let server = common::start().await;
    let a = server
        .post(
            "/api/analysis",
            None,
            Some(json!({"variant": "chess", "fen": "8/8/zz w - - 0 1"})),
        )
        .await;
    assert_eq!(a.status, 400, "{}", a.text);
    let error = a.body["error"].as_str().expect("a JSON error");
    assert!(error.starts_with("bad FEN for chess"), "{error}");

    let a = server
        .post(
            "/api/analysis",
            None,
            Some(json!({"variant": "no-such-chess"})),
        )
        .await;
    assert_eq!(a.status, 400, "{}", a.text);
    assert!(
        a.body["error"].as_str().unwrap().contains("no-such-chess"),
        "{}",
        a.text
    );

    let a = server
        .post(
            "/api/analysis/line",
            None,
            Some(json!({"variant": "chess", "moves": ["e2e5"]})),
        )
        .await;
    assert_eq!(a.status, 400, "{}", a.text);
    assert!(
        a.body["error"].as_str().unwrap().contains("e2e5"),
        "{}",
        a.text
    );

    let a = server
        .post(
            "/api/games",
            None,
            Some(json!({"variant": "chess", "opponent": "friend", "fen": "rnbqkbnr/pppppppp w - - 0 1"})),
        )
        .await;
    assert_eq!(a.status, 400, "{}", a.text);
    assert!(
        a.body["error"]
            .as_str()
            .unwrap()
            .starts_with("bad FEN for chess: board has 2 ranks"),
        "{}",
        a.text
    );

    // A position the rules already end is no start.
    let mated = "R5k1/5ppp/8/8/8/8/8/6K1 b - - 1 1";
    let a = server
        .post(
            "/api/games",
            None,
            Some(json!({"variant": "chess", "opponent": "friend", "fen": mated})),
        )
        .await;
    assert_eq!(a.status, 400, "{}", a.text);
    assert!(
        a.body["error"].as_str().unwrap().contains("already over"),
        "{}",
        a.text
    );
}

#[tokio::test]
async fn the_engine_finds_a_mate_in_one_with_its_variation() {
    let server = common::start().await;
    let a = server
        .post(
            "/api/analysis",
            None,
            Some(json!({"variant": "chess", "fen": MATE_IN_ONE})),
        )
        .await;
    assert_eq!(a.status, 200, "{}", a.text);
    assert_eq!(a.body["kind"], "turn-based", "{}", a.text);
    assert_eq!(a.body["score"], json!({"mate": 1}), "{}", a.text);
    assert_eq!(a.body["pv_uci"][0], "a1a8");
    assert_eq!(a.body["pv_san"][0], "Ra8#");
    assert!(a.body["depth"].as_i64().unwrap() >= 1);

    // The same from Black's side: Black mates, so the score is negative.
    let black = "r5k1/8/8/8/8/8/5PPP/6K1 b - - 0 1";
    let a = server
        .post(
            "/api/analysis",
            None,
            Some(json!({"variant": "chess", "fen": black})),
        )
        .await;
    assert_eq!(a.body["score"], json!({"mate": -1}), "{}", a.text);
    assert_eq!(a.body["pv_san"][0], "Ra1#");
}

#[tokio::test]
async fn a_simultaneous_position_gets_both_sides_mixed_strategies() {
    let server = common::start().await;
    let a = server
        .post(
            "/api/analysis",
            None,
            Some(json!({"variant": "parity", "moves": ["g1f3:b8c6", "e2e3:e7e6"]})),
        )
        .await;
    assert_eq!(a.status, 200, "{}", a.text);
    assert_eq!(a.body["kind"], "simultaneous", "{}", a.text);
    for side in ["white", "black"] {
        let sum = probabilities_sum(&a.body[side]);
        assert!((sum - 1.0).abs() < 1e-6, "{side}: {sum} in {}", a.text);
        assert!(
            a.body[side][0]["uci"].as_str().is_some() && a.body[side][0]["san"].as_str().is_some()
        );
    }
    let value = a.body["value"].as_f64().unwrap();
    assert!((-1.0..=1.0).contains(&value), "{value}");

    // A finished position says so instead of searching.
    let a = server
        .post(
            "/api/analysis",
            None,
            Some(json!({"variant": "chess", "moves": ["f2f3", "e7e5", "g2g4", "d8h4"]})),
        )
        .await;
    assert_eq!(a.body["kind"], "over", "{}", a.text);
}

#[tokio::test]
async fn the_analysis_line_reads_a_pgn_and_moves() {
    let server = common::start().await;
    let pgn = "[Variant \"chess\"]\n\n1. e4 e5 2. Nf3 *\n";
    let a = server
        .post("/api/analysis/line", None, Some(json!({"pgn": pgn})))
        .await;
    assert_eq!(a.status, 200, "{}", a.text);
    assert_eq!(a.body["positions"].as_array().unwrap().len(), 4);
    assert_eq!(a.body["moves"][2]["san"], "Nf3");
    assert_eq!(
        a.body["positions"][3]["fen"],
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"
    );
    assert_eq!(a.body["positions"][3]["to_move"], "black");
    assert!(a.body["legal"]["black"]
        .as_array()
        .unwrap()
        .contains(&json!("b8c6")));

    let a = server
        .post(
            "/api/analysis/line",
            None,
            Some(json!({"variant": "parity", "moves": ["g1f3:b8c6"]})),
        )
        .await;
    assert_eq!(a.status, 200, "{}", a.text);
    assert_eq!(a.body["moves"][0]["white"]["san"], "Nf3");
    assert_eq!(a.body["positions"][1]["to_move"], Value::Null);
    let f3 = a.body["positions"][1]["board"]
        .as_array()
        .unwrap()
        .iter()
        .find(|sq| sq["square"] == "f3")
        .unwrap()
        .clone();
    assert_eq!(f3["last_moved"], json!(["white"]));
}

#[tokio::test]
async fn a_game_from_a_fen_starts_there_and_its_pgn_and_record_say_so() {
    let server = common::start().await;
    // Black to move: the PGN numbers the first move `1...`.
    let fen = "4k3/8/8/8/8/8/4P3/4K3 b - - 0 1";
    let created = server
        .create(json!({"variant": "chess", "opponent": "friend", "color": "white", "fen": fen}))
        .await;
    let id = created["id"].as_str().unwrap();
    let white = created["token"].as_str().unwrap();
    let joined = server
        .post(
            &format!("/api/games/{id}/join"),
            None,
            Some(json!({"invite": created["invite"]})),
        )
        .await;
    let black = joined.body["token"].as_str().unwrap();
    let full = server.full(id, Some(white)).await;
    assert_eq!(full["fen"], fen);
    assert_eq!(full["to_move"], "black");
    server.ok(id, black, "move/e8d7", None).await;
    server.ok(id, white, "move/e2e4", None).await;

    let pgn = server.get(&format!("/api/games/{id}/pgn"), None).await.text;
    assert!(
        pgn.contains("[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 1\"]"),
        "{pgn}"
    );
    assert!(pgn.contains("1... Kd7 2. e4"), "{pgn}");

    let line = server
        .get(&format!("/api/games/{id}/positions"), None)
        .await;
    assert_eq!(line.status, 200, "{}", line.text);
    let positions = line.body["positions"].as_array().unwrap();
    assert_eq!(positions.len(), 3);
    assert_eq!(positions[0]["fen"], fen);
    assert_eq!(positions[2]["fen"], full_fen(&server, id).await);

    let record = server
        .get(&format!("/api/games/{id}/record"), None)
        .await
        .text;
    server
        .verify(&record)
        .expect("the record of a game from a FEN verifies");

    // A simultaneous game from a FEN, and its record.
    let sim_fen = "4k3/8/8/4n3/7p/8/3P4/4K1N1 - - 0 1";
    let created = server
        .create(json!({"variant": "parity-single", "opponent": "friend", "fen": sim_fen}))
        .await;
    let id = created["id"].as_str().unwrap();
    assert_eq!(server.full(id, None).await["fen"], sim_fen);
    let pgn = server.get(&format!("/api/games/{id}/pgn"), None).await.text;
    assert!(
        pgn.contains(&format!("[SetUp \"1\"]\n[FEN \"{sim_fen}\"]")),
        "{pgn}"
    );
}

async fn full_fen(server: &common::TestServer, id: &str) -> Value {
    server.full(id, None).await["fen"].clone()
}

#[tokio::test]
async fn a_simultaneous_games_positions_keep_shared_squares_and_waiting_marks() {
    let server = common::start().await;
    let (id, white, black) = server.friend_game("parity", json!(null)).await;
    let turns = [("g1f3", "b8c6"), ("e2e3", "e7e6"), ("f3e5", "c6e5")];
    for (n, (w, b)) in turns.into_iter().enumerate() {
        let n = n as u64 * 2;
        let wn = server.commit(&id, &white, "white", w, n).await;
        let bn = server.commit(&id, &black, "black", b, n + 1).await;
        server.reveal(&id, &white, w, &wn).await;
        server.reveal(&id, &black, b, &bn).await;
    }
    let line = server
        .get(&format!("/api/games/{id}/positions"), None)
        .await;
    assert_eq!(line.status, 200, "{}", line.text);
    let positions = line.body["positions"].as_array().unwrap();
    assert_eq!(positions.len(), 4);
    let square = |i: usize, name: &str| {
        positions[i]["board"]
            .as_array()
            .unwrap()
            .iter()
            .find(|sq| sq["square"] == name)
            .cloned()
    };
    // After turn 3 both knights share e5 and both must wait there.
    let e5 = square(3, "e5").unwrap();
    assert_eq!(e5["pieces"].as_array().unwrap().len(), 2);
    assert_eq!(e5["last_moved"], json!(["white", "black"]));
    // After turn 1 the knights stood on f3 and c6, waiting.
    assert_eq!(square(1, "f3").unwrap()["last_moved"], json!(["white"]));
    assert!(square(1, "e5").is_none());
    assert_eq!(line.body["moves"][2]["notes"]["white"]["co_occupied"], "e5");
    assert_eq!(positions[3]["fen"], server.full(&id, None).await["fen"]);
}

/// A server with its own limits, on a fresh database.
async fn start_with(limits: parity_server::base::limits::Limits) -> common::TestServer {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("test.sqlite");
    let config = parity_server::base::limits::Config {
        limits,
        ..Default::default()
    };
    common::start_configured(dir, &db, config).await.0
}

#[tokio::test]
async fn analyses_keep_to_the_engine_pools_limits() {
    let once_a_minute = parity_server::base::limits::Limits {
        analyses_per_minute: std::num::NonZeroU32::new(1).unwrap(),
        ..Default::default()
    };
    let server = start_with(once_a_minute).await;
    let ask = json!({"variant": "chess", "fen": MATE_IN_ONE});
    assert_eq!(
        server
            .post("/api/analysis", None, Some(ask.clone()))
            .await
            .status,
        200
    );
    let again = server.post("/api/analysis", None, Some(ask.clone())).await;
    assert_eq!(again.status, 429, "{}", again.text);
    assert!(
        again.body["error"]
            .as_str()
            .unwrap()
            .contains("too many analyses"),
        "{}",
        again.text
    );
    // Lines need no engine: they are not counted.
    let line = server
        .post("/api/analysis/line", None, Some(ask.clone()))
        .await;
    assert_eq!(line.status, 200, "{}", line.text);

    let no_queue = parity_server::base::limits::Limits {
        engine_queue: 0,
        ..Default::default()
    };
    let server = start_with(no_queue).await;
    let busy = server.post("/api/analysis", None, Some(ask)).await;
    assert_eq!(busy.status, 503, "{}", busy.text);
    assert!(
        busy.body["error"]
            .as_str()
            .unwrap()
            .contains("engines are all busy"),
        "{}",
        busy.text
    );
}
