//! `parity serve` as a process: killed with SIGKILL in the middle of games
//! and restarted on the same database, it has every acknowledged event and
//! the games go on to their end; `parity verify` accepts their records,
//! signed with the key the server printed (the same after the restart), and
//! rejects tampered ones.

use crate::common;

use std::path::Path;
use std::process::{Child, Command};
use std::time::Duration;

use common::commitment;
use serde_json::{json, Value};

/// A running `parity serve`; killed when dropped.
struct Served {
    child: Child,
    api: common::Api,
    /// The public key the server printed, which signs its records.
    key: String,
}

impl std::ops::Deref for Served {
    type Target = common::Api;
    fn deref(&self) -> &common::Api {
        &self.api
    }
}

impl Served {
    fn start(db: &Path) -> Served {
        let (child, base, key) = common::serve_with_key(db, &[]);
        Served {
            child,
            api: common::Api::new(base),
            key,
        }
    }

    /// SIGKILL: no chance to flush or close anything.
    fn kill(mut self) {
        self.child.kill().expect("kill");
        self.child.wait().expect("reaped");
    }

    /// A game against a friend: (id, white's token, black's token).
    fn friend_game(&self, variant: &str) -> (String, String, String) {
        common::friend_game(self, self, variant)
    }

    fn events(&self, id: &str) -> Vec<Value> {
        self.get(&format!("/api/games/{id}/record"))["events"]
            .as_array()
            .expect("events")
            .clone()
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Commits both sides to a turn; returns the nonces.
fn commit_both(
    s: &Served,
    id: &str,
    tokens: [&str; 2],
    turn: u64,
    moves: [&str; 2],
) -> [String; 2] {
    let nonces = [
        format!("{:032x}", turn * 2),
        format!("{:032x}", turn * 2 + 1),
    ];
    for (i, side) in ["white", "black"].into_iter().enumerate() {
        let c = commitment(id, turn, side, moves[i], &nonces[i]);
        s.act(id, tokens[i], "commit", json!({"commitment": c}));
    }
    nonces
}

fn reveal(s: &Served, id: &str, token: &str, mv: &str, nonce: &str) -> u64 {
    s.act(id, token, "reveal", json!({"move": mv, "nonce": nonce}))
}

/// `parity verify FILE [--key KEY]`: whether it passed, and what it said.
fn verify(file: &Path, key: Option<&str>) -> (bool, String) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_parity"));
    command.arg("verify").arg(file);
    if let Some(key) = key {
        command.args(["--key", key]);
    }
    let out = command.output().expect("parity verify runs");
    let text =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    (out.status.success(), text)
}

#[test]
fn a_killed_server_keeps_every_acknowledged_event_and_the_games_go_on() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("games.sqlite");
    let server = Served::start(&db);

    // Chess: three moves; black's clock runs when the server dies.
    let (chess, cw, cb) = server.friend_game("chess");
    for (token, mv) in [(&cw, "f2f3"), (&cb, "e7e5"), (&cw, "g2g4")] {
        server.act(&chess, token, &format!("move/{mv}"), Value::Null);
    }
    // Parity: one whole turn, then turn 2 with both commitments and
    // white's reveal in: white's move is known only to the server.
    let (sim, sw, sb) = server.friend_game("parity");
    let n1 = commit_both(&server, &sim, [&sw, &sb], 1, ["e2e4", "d7d5"]);
    reveal(&server, &sim, &sw, "e2e4", &n1[0]);
    reveal(&server, &sim, &sb, "d7d5", &n1[1]);
    let n2 = commit_both(&server, &sim, [&sw, &sb], 2, ["g1f3", "g8f6"]);
    let acked = reveal(&server, &sim, &sw, "g1f3", &n2[0]);

    let chess_before = server.events(&chess);
    let sim_before = server.events(&sim);
    assert_eq!(sim_before.last().unwrap()["seq"], acked);
    let black_ms = chess_before.last().unwrap()["clocks"]["black_ms"]
        .as_i64()
        .unwrap();
    let first_key = server.key.clone();
    server.kill();
    // Down for a while: the clocks must not be charged for it.
    let down = Duration::from_secs(4);
    std::thread::sleep(down);

    let server = Served::start(&db);
    assert_eq!(server.key, first_key, "the key is kept beside the database");
    assert_eq!(
        server.events(&chess),
        chess_before,
        "chess events survive as acknowledged"
    );
    assert_eq!(
        server.events(&sim),
        sim_before,
        "parity events survive as acknowledged"
    );
    // Both games are back, and still private (friend games are not listed).
    for id in [&chess, &sim] {
        assert_eq!(server.get(&format!("/api/games/{id}"))["status"], "started");
    }
    let live = server.get("/api/games?status=live");
    assert_eq!(live, json!([]), "{live:?}");
    let full = server.get(&format!("/api/games/{chess}"));
    let charged = black_ms - full["clocks"]["black_ms"].as_i64().unwrap();
    assert!(
        charged < down.as_millis() as i64,
        "black was charged {charged} ms for {} ms of downtime",
        down.as_millis()
    );

    // The games go on: black mates; the parity turn resolves with the
    // move white revealed before the crash, then black resigns.
    server.act(&chess, &cb, "move/d8h4", Value::Null);
    let full = server.get(&format!("/api/games/{chess}"));
    assert_eq!(
        (full["result"].as_str(), full["reason"].as_str()),
        (Some("0-1"), Some("checkmate"))
    );
    reveal(&server, &sim, &sb, "g8f6", &n2[1]);
    let full = server.get(&format!("/api/games/{sim}"));
    assert_eq!(full["turn"], 3);
    assert_eq!(full["moves"][1]["white"]["san"], "Nf3");
    server.act(&sim, &sb, "resign", Value::Null);
    let full = server.get(&format!("/api/games/{sim}"));
    assert_eq!(full["result"], "1-0");

    // `parity verify` accepts both records and rejects tampered copies.
    for id in [&chess, &sim] {
        let text = serde_json::to_string(&server.get(&format!("/api/games/{id}/record"))).unwrap();
        let file = dir.path().join(format!("{id}.json"));
        std::fs::write(&file, &text).unwrap();
        let (ok, out) = verify(&file, Some(&first_key));
        assert!(ok, "{out}");
        assert!(
            out.starts_with("ok (signed by the given key): game"),
            "{out}"
        );
    }
    let record = server.get(&format!("/api/games/{sim}/record"));
    let turn = record["events"]
        .as_array()
        .unwrap()
        .iter()
        .position(|e| e["type"] == "turn")
        .unwrap();
    for (field, value, what) in [
        ("nonce", json!(format!("{:032x}", 99)), "a changed nonce"),
        ("uci", json!("d2d4"), "a changed move"),
    ] {
        let mut tampered = record.clone();
        tampered["events"][turn]["white"][field] = value;
        let file = dir.path().join("tampered.json");
        std::fs::write(&file, tampered.to_string()).unwrap();
        let (ok, out) = verify(&file, Some(&first_key));
        assert!(!ok, "{what} verified: {out}");
        assert!(
            out.contains("does not verify") && out.contains("commitment"),
            "{what}: {out}"
        );
    }
    let mut tampered = server.get(&format!("/api/games/{chess}/record"));
    let last = tampered["events"].as_array().unwrap().len() - 1;
    tampered["events"][last]["result"] = json!("1-0");
    let file = dir.path().join("tampered-result.json");
    std::fs::write(&file, tampered.to_string()).unwrap();
    let (ok, out) = verify(&file, Some(&first_key));
    assert!(!ok && out.contains("the rules say 0-1"), "{out}");
}

#[test]
fn verify_checks_the_signature_with_the_key_the_server_prints() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("games.sqlite");
    let server = Served::start(&db);
    assert_eq!(server.get("/api/key")["key"], server.key.as_str());
    let key_file = dir.path().join("games.sqlite.key");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        let mode = std::fs::metadata(&key_file)
            .expect("the key file")
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600, "{mode:o}");
    }

    let (id, white, black) = server.friend_game("parity");
    let nonces = commit_both(&server, &id, [&white, &black], 1, ["e2e4", "d7d5"]);
    reveal(&server, &id, &white, "e2e4", &nonces[0]);
    reveal(&server, &id, &black, "d7d5", &nonces[1]);
    server.act(&id, &black, "resign", Value::Null);
    let record = server.get(&format!("/api/games/{id}/record"));
    let write = |name: &str, value: &Value| {
        let file = dir.path().join(name);
        std::fs::write(&file, value.to_string()).unwrap();
        file
    };
    let file = write("record.json", &record);
    let (ok, out) = verify(&file, Some(&server.key));
    assert!(ok, "{out}");
    assert!(
        out.starts_with(&format!(
            "ok (signed by the given key): game {id} (parity): 1 turns legal"
        )),
        "{out}"
    );
    let (ok, out) = verify(&file, None);
    assert!(ok && out.contains("signed by the key it names"), "{out}");

    // Another server's key.
    let other = Served::start(&dir.path().join("other.sqlite"));
    assert_ne!(other.key, server.key);
    let (ok, out) = verify(&file, Some(&other.key));
    assert!(!ok && out.contains("not by the given key"), "{out}");
    let (ok, out) = verify(&file, Some("not-a-key"));
    assert!(!ok && out.contains("--key"), "{out}");

    let mut flipped = record.clone();
    let last = flipped["events"].as_array().unwrap().len() - 1;
    flipped["events"][last]["result"] = json!("0-1");
    let (ok, out) = verify(&write("flipped.json", &flipped), Some(&server.key));
    assert!(!ok, "{out}");
    assert!(
        out.contains("does not verify") && out.contains("black resigned, so the result is 1-0"),
        "{out}"
    );
    let mut retimed = record.clone();
    retimed["events"][1]["at"] = json!(0);
    let (ok, out) = verify(&write("retimed.json", &retimed), Some(&server.key));
    assert!(
        !ok && out.contains("changed after the server signed it"),
        "{out}"
    );

    let mut unsigned = record.clone();
    unsigned.as_object_mut().unwrap().remove("signature");
    // With the key, a stripped signature is refused; without it, or with
    // --allow-unsigned (records of release 0.1), it is only "unsigned".
    let (ok, out) = verify(&write("unsigned.json", &unsigned), Some(&server.key));
    assert!(!ok && out.contains("not signed"), "{out}");
    let (ok, out) = verify(&write("unsigned.json", &unsigned), None);
    assert!(ok && out.starts_with("ok (unsigned): game"), "{out}");
    let run = |flags: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_parity"))
            .arg("verify")
            .arg(write("unsigned.json", &unsigned))
            .args(flags)
            .output()
            .expect("parity verify runs");
        let text = String::from_utf8_lossy(&out.stdout).to_string()
            + &String::from_utf8_lossy(&out.stderr);
        (out.status.success(), text)
    };
    let (ok, out) = run(&["--key", &server.key, "--allow-unsigned"]);
    assert!(ok && out.starts_with("ok (unsigned): game"), "{out}");
    let (ok, out) = run(&["--require-signature"]);
    assert!(!ok && out.contains("not signed"), "{out}");
}

#[test]
fn loadtest_plays_games_over_websockets_and_reports() {
    let out = Command::new(env!("CARGO_BIN_EXE_parity"))
        .args(["loadtest", "--games", "4", "--turns", "3"])
        .output()
        .expect("parity loadtest runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        text.starts_with("games 4, 1000 moves/s offered: turns "),
        "{text}"
    );
    assert!(text.contains("moves/s") && text.contains("p99"), "{text}");
    let bad = Command::new(env!("CARGO_BIN_EXE_parity"))
        .args(["loadtest", "--games", "1", "--variant", "chess"])
        .output()
        .expect("parity loadtest runs");
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("not a simultaneous variant"));
}

/// `--clients 2`: `parity serve` in its own process, two client processes
/// of 10 games each; the merged report counts every turn of both, and the
/// server's CPU.
#[test]
fn loadtest_plays_from_client_processes_against_a_spawned_server() {
    let out = Command::new(env!("CARGO_BIN_EXE_parity"))
        .args(["loadtest", "--games", "20", "--turns", "3", "--rate", "400"])
        .args(["--clients", "2"])
        .output()
        .expect("parity loadtest runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Paced games that end are replaced, so every one plays its 3 turns.
    assert!(
        text.starts_with(
            "games 20, 400 moves/s offered by 2 client processes: turns 60 (120 moves)"
        ),
        "{text}"
    );
    assert!(
        text.contains("s per 1000 moves") && text.contains("p99"),
        "{text}"
    );
}

/// SIGTERM (systemd's stop): the server shuts down in order and exits 0
/// within its grace (`--shutdown-grace`), its moves kept.
#[test]
fn sigterm_shuts_the_server_down_in_order() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("games.sqlite");
    let (mut child, base, _) = common::serve_with_key(&db, &["--shutdown-grace", "3"]);
    let api = common::Api::new(base);
    let (id, white, _) = common::friend_game(&api, &api, "chess");
    let acked = api.act(&id, &white, "move/e2e4", Value::Null);
    let term = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(term.success());
    let sent = std::time::Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        assert!(
            sent.elapsed() < Duration::from_secs(10),
            "still running 10 s after SIGTERM"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(status.success(), "{status:?}");
    let server = Served::start(&db);
    assert_eq!(server.events(&id).last().unwrap()["seq"], acked);
}
