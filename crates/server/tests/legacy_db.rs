//! A database written by release 0.1 (`tests/data/legacy/`, made by that
//! release's `parity serve`) loads in this one: its unfinished games resume
//! and go on, every game reads back as it was, the endings stored in words
//! read as today's machine names, and every record still verifies: signed
//! when this server gives it out, unsigned as release 0.1 gave it out. A
//! game that has waited for its friend since then has expired: it is aborted.

use crate::common;

use std::path::Path;

use parity_rules::{AnyGame, Reason, Registry};
use parity_server::game::verify::{verify, Signed};
use serde_json::Value;

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/legacy");

#[tokio::test]
async fn a_release_0_1_database_loads_replays_and_plays_on() {
    let expected: Value = serde_json::from_str(
        &std::fs::read_to_string(Path::new(DATA).join("expected.json")).unwrap(),
    )
    .unwrap();
    let games = expected["games"].as_array().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("parity.sqlite");
    std::fs::copy(Path::new(DATA).join("parity-0.1.sqlite"), &db).unwrap();
    // Release 0.1 wrote SQLite only: this test is SQLite's on either backend.
    let (server, recovered) = common::start_with(dir, db.as_path().into(), |_| {}).await;
    let started = games.iter().filter(|g| g["status"] == "started").count();
    assert_eq!(recovered, started);

    let mut renamed = 0;
    let mut expired = 0;
    for g in games {
        let id = g["id"].as_str().unwrap();
        let full = server.full(id, None).await;
        if g["status"] == "waiting" {
            assert_eq!(
                (
                    full["status"].as_str(),
                    full["result"].as_str(),
                    full["reason"].as_str()
                ),
                (Some("finished"), Some("*"), Some("abort")),
                "{id}"
            );
            expired += 1;
            continue;
        }
        assert_eq!(full["status"], g["status"], "{id}");
        assert_eq!(full["result"], g["result"], "{id}");
        if !g["final_fen"].is_null() {
            assert_eq!(full["fen"], g["final_fen"], "{id}");
        }
        if let Some(old) = g["reason"].as_str() {
            let reason = Reason::from_name(old).unwrap_or_else(|| panic!("{id}: `{old}`"));
            assert_eq!(full["reason"], reason.name(), "{id}");
            renamed += usize::from(old != reason.name());
        }
        let record = server.get(&format!("/api/games/{id}/record"), None).await;
        assert_eq!(record.status, 200, "{id}");
        let verified = server
            .verify(&record.text)
            .unwrap_or_else(|e| panic!("{id}: {e}"));
        assert_eq!(verified.signed, Signed::ByGivenKey, "{id}");
        let ending = verified
            .ending
            .map(|(result, reason)| (result, reason.name().to_string()));
        let stated = g["result"].as_str().map(|r| {
            let old = g["reason"].as_str().unwrap();
            (
                r.to_string(),
                Reason::from_name(old).unwrap().name().to_string(),
            )
        });
        assert_eq!(ending, stated, "{id}");
    }
    // The words that changed: fifty moves, fifty turns, dead position, no
    // legal move, kings share a square, no reveal...
    assert!(renamed >= 6, "{renamed}");
    assert_eq!(expired, 1);

    // A simultaneous game stopped between two reveals goes on: Black
    // reveals the move it committed to, and the turn resolves.
    let pending = games.iter().find(|g| g["id"] == "O26W4qPg1a").unwrap();
    let black = pending["pending"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["color"] == "black")
        .unwrap();
    let token = pending["tokens"]["black"].as_str().unwrap();
    server
        .reveal(
            "O26W4qPg1a",
            token,
            black["move"].as_str().unwrap(),
            black["nonce"].as_str().unwrap(),
        )
        .await;
    let full = server.full("O26W4qPg1a", Some(token)).await;
    assert_eq!(full["turn"], 3);
    assert_eq!(full["status"], "started");

    // The games table now holds machine names too.
    let conn = rusqlite::Connection::open(&db).unwrap();
    let mut names = conn
        .prepare("SELECT DISTINCT reason FROM games WHERE reason IS NOT NULL")
        .unwrap();
    let names: Vec<String> = names
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    for name in &names {
        let reason = Reason::from_name(name).unwrap();
        assert_eq!(reason.name(), name);
    }
}

/// The record of a game as release 0.1 served it (`GET /api/games/ID/record`,
/// no signature), made from its stored events: each event is its stored
/// body with `seq` and `at` after it, as 0.1 wrote them.
fn release_0_1_record(conn: &rusqlite::Connection, registry: &Registry, id: &str) -> String {
    let variant: String = conn
        .query_row("SELECT variant FROM games WHERE id = ?1", [id], |r| {
            r.get(0)
        })
        .unwrap();
    let mut stmt = conn
        .prepare("SELECT seq, at_ms, body_json FROM events WHERE game_id = ?1 ORDER BY seq")
        .unwrap();
    let events: Vec<String> = stmt
        .query_map([id], |r| {
            let (seq, at, body): (i64, i64, String) = (r.get(0)?, r.get(1)?, r.get(2)?);
            Ok(format!(
                "{},\"seq\":{seq},\"at\":{at}}}",
                body.strip_suffix('}').unwrap()
            ))
        })
        .unwrap()
        .map(Result::unwrap)
        .collect();
    let fen = AnyGame::new(registry.get(&variant).unwrap()).start_fen();
    format!(
        "{{\"id\":{},\"variant\":{},\"fen\":{},\"events\":[{}]}}",
        Value::from(id),
        Value::from(variant),
        Value::from(fen),
        events.join(",")
    )
}

#[test]
fn records_as_release_0_1_gave_them_out_verify_as_unsigned() {
    let expected: Value = serde_json::from_str(
        &std::fs::read_to_string(Path::new(DATA).join("expected.json")).unwrap(),
    )
    .unwrap();
    let conn = rusqlite::Connection::open_with_flags(
        format!("file:{DATA}/parity-0.1.sqlite?immutable=1"),
        rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY | rusqlite::OpenFlags::SQLITE_OPEN_URI,
    )
    .unwrap();
    let registry = Registry::builtin();
    // A key is given: an unsigned record still verifies, marked unsigned.
    let key = ed25519_dalek::SigningKey::from_bytes(&[1; 32]).verifying_key();
    let games = expected["games"].as_array().unwrap();
    for g in games {
        let id = g["id"].as_str().unwrap();
        let text = release_0_1_record(&conn, &registry, id);
        let verified =
            verify(&registry, &text, Some(&key)).unwrap_or_else(|e| panic!("{id}: {e}\n{text}"));
        assert_eq!(verified.signed, Signed::No, "{id}");
        let stated = g["result"].as_str().map(|r| {
            let old = g["reason"].as_str().unwrap();
            (r.to_string(), Reason::from_name(old).unwrap())
        });
        assert_eq!(verified.ending, stated, "{id}");
        assert_eq!(format!("ok ({})", verified.signed), "ok (unsigned)");
    }
    assert_eq!(games.len(), 42);
}
