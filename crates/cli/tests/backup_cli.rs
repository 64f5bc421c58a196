//! `parity backup` of a live server: while games are being played, the
//! copy is taken; a server started on the copy has every event
//! acknowledged before the backup began, signs with the same key, and its
//! records verify with `parity verify --key`.

use crate::common;

use std::process::Command;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use serde_json::Value;

const OPENING: [&str; 6] = ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6"];

fn backup(db: &std::path::Path, out: &std::path::Path) -> (bool, String) {
    let made = Command::new(env!("CARGO_BIN_EXE_parity"))
        .args(["backup", "--db"])
        .arg(db)
        .arg("--out")
        .arg(out)
        .output()
        .expect("parity backup runs");
    (
        made.status.success(),
        common::stdout(&made) + &common::stderr(&made),
    )
}

/// `parity verify --key KEY` accepts `record`.
fn assert_verifies(dir: &std::path::Path, record: &Value, key: &str) {
    let file = dir.join("record.json");
    std::fs::write(&file, record.to_string()).expect("write the record");
    let verified = Command::new(env!("CARGO_BIN_EXE_parity"))
        .arg("verify")
        .arg(&file)
        .args(["--key", key])
        .output()
        .expect("parity verify runs");
    assert!(
        verified.status.success(),
        "{}",
        common::stdout(&verified) + &common::stderr(&verified)
    );
}

#[test]
fn a_backup_of_a_live_server_restores_every_acknowledged_event() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("games.sqlite");
    let copy = dir.path().join("backup.sqlite");
    let (mut child, base, key) = common::serve_with_key(
        &db,
        &["--games-per-minute", "1000", "--actions-per-second", "1000"],
    );
    let api = Arc::new(common::Api::new(base));

    // One finished game, its signed record taken from the live server.
    let (finished, white, black) = common::friend_game(&api, &api, "chess");
    api.act(&finished, &white, "move/f2f3", Value::Null);
    api.act(&finished, &black, "move/e7e5", Value::Null);
    api.act(&finished, &white, "resign", Value::Null);
    let record = api.get(&format!("/api/games/{finished}/record"));

    // Games played on while the backup is taken: (game, acknowledged seq).
    let acked: Arc<Mutex<Vec<(String, u64)>>> = Arc::default();
    let stop = Arc::new(AtomicBool::new(false));
    let player = {
        let (api, acked, stop) = (api.clone(), acked.clone(), stop.clone());
        std::thread::spawn(move || {
            while !stop.load(Ordering::Relaxed) {
                let (id, white, black) = common::friend_game(&api, &api, "chess");
                for (i, mv) in OPENING.iter().enumerate() {
                    let token = if i % 2 == 0 { &white } else { &black };
                    let seq = api.act(&id, token, &format!("move/{mv}"), Value::Null);
                    acked.lock().unwrap().push((id.clone(), seq));
                }
            }
        })
    };
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while acked.lock().unwrap().len() < 30 {
        assert!(!player.is_finished(), "the player thread stopped");
        assert!(std::time::Instant::now() < deadline, "30 moves in a minute");
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let before: Vec<(String, u64)> = acked.lock().unwrap().clone();
    let (ok, said) = backup(&db, &copy);
    assert!(ok, "{said}");
    assert!(
        said.contains("events") && said.contains("backup.sqlite.key"),
        "{said}"
    );
    std::thread::sleep(std::time::Duration::from_millis(200));
    stop.store(true, Ordering::Relaxed);
    player.join().expect("the player thread");
    let after = acked.lock().unwrap().len();
    assert!(after > before.len(), "moves went on during the backup");
    let (again, said) = backup(&db, &copy);
    assert!(!again && said.contains("never overwrites"), "{said}");
    child.kill().expect("kill");
    child.wait().expect("reaped");

    // The server on the copy: the same key, every event acknowledged
    // before the backup began, the finished game's record as it was.
    let (mut restored, base, restored_key) = common::serve_with_key(&copy, &[]);
    let restored_api = common::Api::new(base);
    assert_eq!(restored_key, key, "the copy signs with the same key");
    for (id, seq) in &before {
        let events = restored_api.get(&format!("/api/games/{id}/record"))["events"].clone();
        let events = events.as_array().expect("events");
        assert!(
            events.iter().any(|e| e["seq"] == *seq),
            "game {id}: event {seq} acknowledged before the backup is missing"
        );
    }
    let restored_record = restored_api.get(&format!("/api/games/{finished}/record"));
    assert_eq!(restored_record["events"], record["events"]);
    assert_verifies(dir.path(), &restored_record, &key);
    restored.kill().expect("kill");
    restored.wait().expect("reaped");

    // A PostgreSQL URL or a missing file is a clear error.
    let (ok, said) = backup(
        std::path::Path::new("postgres://x@127.0.0.1/db"),
        &dir.path().join("p"),
    );
    assert!(!ok && said.contains("pg_dump"), "{said}");
    let (ok, said) = backup(&dir.path().join("none.sqlite"), &dir.path().join("n"));
    assert!(!ok && said.contains("no such database"), "{said}");
}

/// The PostgreSQL procedure of docs/deploy.md: `pg_dump --format=custom`
/// of a live server's database, `pg_restore` into an empty one, and a
/// server on it with the same key, events and verified records. Needs
/// `PARITY_TEST_POSTGRES` (scripts/test sets it).
#[test]
fn a_pg_dump_of_a_live_server_restores_its_games() {
    let dir = tempfile::tempdir().expect("temp dir");
    let live = common::fresh_database("backup");
    let (mut child, base, key) = common::serve_with_key(std::path::Path::new(&live), &[]);
    let api = common::Api::new(base);
    let (finished, white, black) = common::friend_game(&api, &api, "chess");
    api.act(&finished, &white, "move/f2f3", Value::Null);
    api.act(&finished, &black, "move/e7e5", Value::Null);
    api.act(&finished, &white, "resign", Value::Null);
    let (going, white, _) = common::friend_game(&api, &api, "chess");
    let acked = api.act(&going, &white, "move/e2e4", Value::Null);
    let record = api.get(&format!("/api/games/{finished}/record"));

    let dump = dir.path().join("games.dump");
    let dumped = Command::new("pg_dump")
        .args(["--format=custom", "--file"])
        .arg(&dump)
        .arg(&live)
        .output()
        .expect("pg_dump runs");
    assert!(dumped.status.success(), "{}", common::stderr(&dumped));
    child.kill().expect("kill");
    child.wait().expect("reaped");

    let restored_url = common::fresh_database("restored");
    let restored = Command::new("pg_restore")
        .args(["--no-owner", "--exit-on-error", "--dbname", &restored_url])
        .arg(&dump)
        .output()
        .expect("pg_restore runs");
    assert!(restored.status.success(), "{}", common::stderr(&restored));
    let (mut child, base, restored_key) =
        common::serve_with_key(std::path::Path::new(&restored_url), &[]);
    let api = common::Api::new(base);
    assert_eq!(restored_key, key, "the key is in the database");
    let events = api.get(&format!("/api/games/{going}/record"))["events"].clone();
    assert!(
        events
            .as_array()
            .expect("events")
            .iter()
            .any(|e| e["seq"] == acked),
        "the acknowledged move of the game going on: {events}"
    );
    let restored_record = api.get(&format!("/api/games/{finished}/record"));
    assert_eq!(restored_record["events"], record["events"]);
    assert_verifies(dir.path(), &restored_record, &key);
    child.kill().expect("kill");
    child.wait().expect("reaped");
}
