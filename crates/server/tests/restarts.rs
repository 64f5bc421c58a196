//! A restart charges the clocks by the written policy (docs/server.md,
//! "Time"): the time the server ran after the last event counts, up to its
//! last heartbeat; the time it was down does not.

use crate::common;

use std::time::Duration;

use parity_server::game::event::now_ms;
use serde_json::json;

#[test]
fn a_restart_charges_the_time_up_to_the_crash_and_not_the_downtime() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.sqlite");
    // First life: a chess game whose White clock (one minute) runs; then
    // the runtime stops dead, as in a crash.
    let first = tokio::runtime::Runtime::new().unwrap();
    let db = first.block_on(common::database_for(&path));
    let id = first.block_on(async {
        let (s, _) = common::start_on(tempfile::tempdir().unwrap(), &path).await;
        let clock = json!({"initial": 60, "increment": 0});
        s.friend_game("chess", clock).await.0
    });
    first.shutdown_timeout(Duration::from_secs(5));
    // Let a heartbeat already on its way land before it is rewritten.
    std::thread::sleep(Duration::from_secs(1));

    // The game's events 20 s ago, the last heartbeat 10 s ago: 10 s ran
    // on White's clock before the crash, 10 s the server was down.
    let sql = tokio::runtime::Runtime::new().unwrap();
    let last = sql
        .block_on(common::sql_i64(
            &db,
            &format!("SELECT MAX(at_ms) FROM events WHERE game_id = '{id}'"),
        ))
        .expect("the game's events");
    let now = now_ms();
    sql.block_on(common::sql_i64(
        &db,
        &format!(
            "UPDATE events SET at_ms = at_ms - {} WHERE game_id = '{id}'",
            last - (now - 20_000)
        ),
    ));
    sql.block_on(common::sql_i64(
        &db,
        &format!("UPDATE heartbeat SET at_ms = {}", now - 10_000),
    ));

    let second = tokio::runtime::Runtime::new().unwrap();
    second.block_on(async {
        let (s, recovered) = common::start_on(tempfile::tempdir().unwrap(), &path).await;
        assert_eq!(recovered, 1);
        let clocks = s.full(&id, None).await["clocks"].clone();
        let white = clocks["white_ms"].as_i64().unwrap();
        // 60 s less the 10 s before the crash, less what ran since the
        // restart (a little); with the downtime charged it would be 40 s,
        // with nothing charged 60 s.
        assert!((45_000..=50_000).contains(&white), "{clocks}");
        assert_eq!(clocks["running"], json!(["white"]));
    });
    let downtimes = sql.block_on(common::sql_i64(&db, "SELECT COUNT(*) FROM downtimes"));
    assert_eq!(downtimes, Some(1));
}

/// The moves the server holds hidden outlive a crash: a first reveal, and
/// an engine's committed move, kept beside their events (docs/server.md,
/// "Commit and reveal"). After the restart the turn resolves with them.
#[test]
fn hidden_moves_outlive_a_crash() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("hidden.sqlite");
    // First life: a friend game where White has revealed and Black has
    // not, and a game where the engine (White) has committed.
    let first = tokio::runtime::Runtime::new().unwrap();
    let (friend, engine) = first.block_on(async {
        let (s, _) = common::start_on(tempfile::tempdir().unwrap(), &path).await;
        let clock = json!({"initial": 600, "increment": 0});
        let (id, white, black) = s.friend_game("parity", clock).await;
        let white_nonce = s.commit(&id, &white, "white", "e2e4", 1).await;
        let black_nonce = s.commit(&id, &black, "black", "d7d5", 2).await;
        s.reveal(&id, &white, "e2e4", &white_nonce).await;
        let created = s
            .create(json!({"variant": "parity", "opponent": {"engine": {"level": 1}}, "color": "black"}))
            .await;
        let engine_game = created["id"].as_str().unwrap().to_string();
        let token = created["token"].as_str().unwrap().to_string();
        s.stream(&engine_game, Some(&token), Some(0))
            .await
            .until("the engine's commitment", |v| v["type"] == "committed")
            .await;
        ((id, black, black_nonce), (engine_game, token))
    });
    first.shutdown_timeout(Duration::from_secs(5));

    let second = tokio::runtime::Runtime::new().unwrap();
    second.block_on(async {
        let (s, recovered) = common::start_on(tempfile::tempdir().unwrap(), &path).await;
        assert_eq!(recovered, 2);
        let (id, black, black_nonce) = friend;
        s.reveal(&id, &black, "d7d5", &black_nonce).await;
        let turn = s
            .stream(&id, None, Some(0))
            .await
            .until("the turn", |v| v["type"] == "turn")
            .await;
        assert_eq!(turn["white"]["uci"], "e2e4", "{turn}");
        assert_eq!(turn["black"]["uci"], "d7d5", "{turn}");

        let (id, token) = engine;
        let full = s.full(&id, Some(&token)).await;
        let mv = common::legal(&full, "black")[0].clone();
        let nonce = s.commit(&id, &token, "black", &mv, 3).await;
        let mut stream = s.stream(&id, Some(&token), Some(0)).await;
        stream
            .until("the engine's reveal", |v| {
                v["type"] == "revealed" && v["color"] == "white"
            })
            .await;
        s.reveal(&id, &token, &mv, &nonce).await;
        let turn = stream.until("the turn", |v| v["type"] == "turn").await;
        let white = &turn["white"];
        assert_eq!(
            white["commitment"].as_str().unwrap(),
            common::commitment(
                &id,
                1,
                "white",
                white["uci"].as_str().unwrap(),
                white["nonce"].as_str().unwrap()
            ),
            "the engine's move after the crash is the one it committed to: {turn}"
        );
    });
}
