//! Games against our engine at level 1: it answers every move of a
//! turn-based game and every turn of a simultaneous one.

use crate::common;

use common::*;
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_engine_answers_each_move_in_chess() {
    let s = start().await;
    let created = s
        .create(
            json!({"variant": "chess", "opponent": {"engine": {"level": 1}}, "color": "white",
                       "clock": {"initial": 600, "increment": 5}}),
        )
        .await;
    let id = created["id"].as_str().unwrap().to_string();
    let token = created["token"].as_str().unwrap().to_string();
    let mut stream = s.stream(&id, Some(&token), None).await;
    let full = stream.until("gameFull", |v| v["type"] == "gameFull").await;
    assert_eq!(full["black"], json!({"kind": "engine", "level": 1}));
    assert_eq!(full["white"], json!({"kind": "human", "joined": true}));
    for n in 0..6 {
        let full = s.full(&id, Some(&token)).await;
        if full["status"] == "finished" {
            break;
        }
        assert_eq!(full["to_move"], "white");
        // Quiet development moves keep the game going; otherwise the first legal move.
        let moves = legal(&full, "white");
        let mv = ["g1f3", "b1c3", "e2e3", "d2d3", "g2g3", "b2b3"]
            .iter()
            .map(|m| m.to_string())
            .find(|m| moves.contains(m))
            .unwrap_or_else(|| moves[0].clone());
        let seq = s.ok(&id, &token, &format!("move/{mv}"), None).await;
        let answer = stream
            .until("the engine's move", |v| {
                v["seq"].as_u64() > Some(seq) && (v["type"] == "move" || v["type"] == "finished")
            })
            .await;
        if answer["type"] == "move" {
            assert_eq!(answer["color"], "black", "move {n}: {answer}");
        }
    }
    // The engine declines a draw, and accepts a rematch once the game is over.
    let seq = s.ok(&id, &token, "draw/yes", None).await;
    let declined = stream
        .until("the engine's answer", |v| v["seq"].as_u64() > Some(seq))
        .await;
    assert_eq!(declined["type"], "draw_declined", "{declined}");
    s.ok(&id, &token, "resign", None).await;
    let a = s.act(&id, &token, "rematch", None).await;
    assert_eq!(a.status, 200, "{}", a.text);
    let rematch = stream
        .until("the rematch", |v| v["type"] == "rematch")
        .await;
    let new_id = rematch["game"].as_str().unwrap();
    let full = s.full(new_id, Some(&token)).await;
    assert_eq!(
        full["you"], "black",
        "the rematch swaps colours and keeps the token"
    );
    assert_eq!(full["rematch_of"], id.as_str());
    // The engine, now white, opens the new game. From seq 0: it may have
    // moved before the stream opens.
    let mut again = s.stream(new_id, Some(&token), Some(0)).await;
    again
        .until("the engine's first move", |v| v["type"] == "move")
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_engine_answers_each_turn_in_parity() {
    let s = start().await;
    let created = s
        .create(
            json!({"variant": "parity", "opponent": {"engine": {"level": 1}}, "color": "black"}),
        )
        .await;
    let id = created["id"].as_str().unwrap().to_string();
    let token = created["token"].as_str().unwrap().to_string();
    assert_eq!(created["color"], "black");
    // From seq 0: the engine may have committed before the stream opens.
    let mut stream = s.stream(&id, Some(&token), Some(0)).await;
    stream.until("gameFull", |v| v["type"] == "gameFull").await;
    for turn in 1..=5u64 {
        // The engine commits on its own, without knowing our move.
        let committed = stream
            .until("the engine's commitment", |v| {
                v["type"] == "committed" && v["turn"] == turn
            })
            .await;
        assert_eq!(committed["color"], "white");
        let full = s.full(&id, Some(&token)).await;
        if full["status"] == "finished" {
            break;
        }
        let moves = legal(&full, "black");
        let mv = moves[(turn as usize * 7) % moves.len()].clone();
        let nonce = s.commit(&id, &token, "black", &mv, turn).await;
        // Both commitments are in: the engine reveals by itself.
        stream
            .until("the engine's reveal", |v| {
                v["type"] == "revealed" && v["color"] == "white"
            })
            .await;
        s.reveal(&id, &token, &mv, &nonce).await;
        let resolved = stream.until("the turn", |v| v["type"] == "turn").await;
        assert_eq!(resolved["turn"], turn);
        assert_eq!(resolved["black"]["uci"], mv.as_str());
        let white = resolved["white"]["uci"].as_str().unwrap();
        assert_eq!(
            resolved["white"]["commitment"].as_str().unwrap(),
            commitment(
                &id,
                turn,
                "white",
                white,
                resolved["white"]["nonce"].as_str().unwrap()
            ),
            "the engine's commitment matches its move"
        );
        if stream.seen.iter().any(|v| v["type"] == "finished") {
            break;
        }
    }
    let record = s.get(&format!("/api/games/{id}/record"), None).await.text;
    s.verify(&record).expect("verifies");
}

/// While the server's one worker is busy, a level-1 engine waits for it:
/// that wait is not charged to its clock.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_engine_waiting_for_a_worker_keeps_its_time() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("test.sqlite");
    let (s, _) = start_with(dir, database_for(&db).await, |limits| {
        limits.engine_threads = 1
    })
    .await;
    let busy = s.engines.worker().await.expect("the one worker");
    let asked = std::time::Instant::now();
    let created = s
        .create(
            json!({"variant": "chess", "opponent": {"engine": {"level": 1}},
                       "color": "black", "clock": {"initial": 60, "increment": 0}}),
        )
        .await;
    let id = created["id"].as_str().unwrap();
    tokio::time::sleep(std::time::Duration::from_secs(2)).await;
    let full = s.full(id, None).await;
    assert!(
        full["moves"].as_array().unwrap().is_empty(),
        "moved without a worker"
    );
    drop(busy);
    let mut stream = s.stream(id, None, Some(0)).await;
    let moved = stream
        .until("the engine's move", |v| v["type"] == "move")
        .await;
    let took = asked.elapsed();
    let charged = 60_000 - moved["clocks"]["white_ms"].as_i64().expect("clocks");
    assert!(
        charged < 1000,
        "{charged} ms charged for a move that took {took:?}: {moved}"
    );
    let record = s.get(&format!("/api/games/{id}/record"), None).await.text;
    s.verify(&record).expect("the credited clock verifies");
}
