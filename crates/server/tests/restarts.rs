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
