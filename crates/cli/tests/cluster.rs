//! Several `parity serve` nodes on one PostgreSQL database
//! (docs/server.md, "Several nodes"): any node serves any game, every
//! node's feeds get every event, and when the owner of games is killed
//! with SIGKILL another node takes them over and they finish there with
//! every acknowledged event; an account's events and a game's chat reach
//! clients on every node. Needs `PARITY_TEST_POSTGRES` (scripts/test
//! sets it); without it these tests fail.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::common;

use common::commitment;

/// The most this test waits for a takeover: the server takes a killed
/// owner's games over within 1 s (docs/server.md, "Failover"); the rest
/// is a margin for a loaded machine.
const TAKEOVER: Duration = Duration::from_secs(5);
const PATIENCE: Duration = Duration::from_secs(30);

fn owner_of(db: &str, game: &str) -> Option<String> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime
        .block_on(parity_server::cluster::owner_of(db, game))
        .expect("the owners table")
}

fn node_ids(db: &str) -> Vec<String> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime
        .block_on(parity_server::cluster::node_ids(db))
        .expect("the nodes table")
}

/// One `parity serve` node; killed when dropped.
struct Node {
    child: Child,
    api: common::Api,
    key: String,
    id: String,
}

impl std::ops::Deref for Node {
    type Target = common::Api;
    fn deref(&self) -> &common::Api {
        &self.api
    }
}

impl Node {
    fn start(db: &str, log: &Path) -> Node {
        Node::start_binary(Path::new(env!("CARGO_BIN_EXE_parity")), db, log)
    }

    /// A node run by `binary`, another release of `parity`.
    fn start_binary(binary: &Path, db: &str, log: &Path) -> Node {
        let log = std::fs::File::create(log).expect("a log file");
        let node = common::start_node(binary, db, Stdio::from(log));
        Node {
            child: node.child,
            api: common::Api::new(node.base),
            key: node.key,
            id: node.id,
        }
    }

    /// Stops (`STOP`) or resumes (`CONT`) the process.
    fn signal(&self, name: &str) {
        let status = Command::new("kill")
            .args([&format!("-{name}"), &self.child.id().to_string()])
            .status()
            .expect("kill runs");
        assert!(status.success(), "kill -{name}");
    }

    /// SIGTERM, as a rolling upgrade stops a node: it must exit by
    /// itself, and cleanly, within its shutdown grace (10 s) and a margin.
    fn terminate(mut self) {
        self.signal("TERM");
        let sent = Instant::now();
        let status = loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                break status;
            }
            assert!(
                sent.elapsed() < Duration::from_secs(20),
                "still running after SIGTERM"
            );
            std::thread::sleep(Duration::from_millis(20));
        };
        assert!(status.success(), "{status:?}");
    }

    /// Waits for `/ready` to say 200, as a load balancer would.
    fn wait_ready(&self) {
        let deadline = Instant::now() + PATIENCE;
        while self.answer(self.http.get(format!("{}/ready", self.base))).0 != 200 {
            assert!(Instant::now() < deadline, "{} never ready", self.base);
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// SIGKILL: no chance to release anything.
    fn kill(&mut self) {
        self.child.kill().expect("kill");
        self.child.wait().expect("reaped");
    }

    fn record(&self, id: &str) -> Value {
        self.get(&format!("/api/games/{id}/record"))
    }

    /// The game's NDJSON stream from `since` on, read by a thread: every
    /// line but the keep-alives.
    fn stream(&self, id: &str, since: u64) -> mpsc::Receiver<Value> {
        self.ndjson(&format!("/api/games/{id}/stream?since={since}"), None)
    }

    /// An NDJSON stream of this node (with a Bearer token), read by a
    /// thread: every line but the keep-alives.
    fn ndjson(&self, path: &str, token: Option<&str>) -> mpsc::Receiver<Value> {
        let url = format!("{}{path}", self.base);
        let token = token.map(str::to_string);
        let (lines, received) = mpsc::channel();
        std::thread::spawn(move || {
            let client = reqwest::blocking::Client::builder()
                .timeout(None)
                .build()
                .unwrap();
            let mut request = client.get(url);
            if let Some(token) = token {
                request = request.bearer_auth(token);
            }
            let response = request.send().expect("stream");
            assert_eq!(response.status().as_u16(), 200);
            for line in BufReader::new(response).lines() {
                let Ok(line) = line else { return };
                if line.trim().is_empty() {
                    continue;
                }
                if lines
                    .send(serde_json::from_str(&line).expect("a JSON line"))
                    .is_err()
                {
                    return;
                }
            }
        });
        received
    }
}

impl Drop for Node {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn nonce(turn: u64, side: usize) -> String {
    format!("{:032x}", 0xabc0 + turn * 2 + side as u64)
}

/// A game created on `creator` against a friend who joins on `joiner`.
fn friend_game(creator: &Node, joiner: &Node, variant: &str) -> (String, String, String) {
    common::friend_game(creator, joiner, variant)
}

/// Both commitments of a simultaneous turn, white's through `white_node`
/// and black's through `black_node`; returns the acknowledged seqs.
fn commit_turn(
    nodes: [&Node; 2],
    id: &str,
    tokens: [&str; 2],
    turn: u64,
    moves: [&str; 2],
) -> Vec<u64> {
    (0..2)
        .map(|i| {
            let side = ["white", "black"][i];
            let c = commitment(id, turn, side, moves[i], &nonce(turn, i));
            nodes[i].act(id, tokens[i], "commit", json!({"commitment": c}))
        })
        .collect()
}

fn reveal(node: &Node, id: &str, token: &str, turn: u64, side: usize, mv: &str) -> u64 {
    node.act(
        id,
        token,
        "reveal",
        json!({"move": mv, "nonce": nonce(turn, side)}),
    )
}

/// Lines from a feed until the event `seq` arrived; fails after PATIENCE.
fn read_until(feed: &mpsc::Receiver<Value>, seq: u64, seen: &mut Vec<Value>) {
    let deadline = Instant::now() + PATIENCE;
    while seen.last().and_then(|e| e["seq"].as_u64()).unwrap_or(0) < seq {
        let left = deadline.saturating_duration_since(Instant::now());
        let line = feed
            .recv_timeout(left)
            .unwrap_or_else(|_| panic!("event {seq} never came; had {seen:?}"));
        if line["type"] != "gameFull" {
            seen.push(line);
        }
    }
}

/// The events of a record, checked against the events a feed delivered
/// and the seqs the players were acknowledged with.
fn check_record(record: &Value, fed: &[Value], acked: &[u64]) {
    let events = record["events"].as_array().expect("events");
    for (i, event) in events.iter().enumerate() {
        assert_eq!(event["seq"], i as u64 + 1, "the log has no gap");
    }
    assert_eq!(
        fed,
        &events[..fed.len()],
        "the feed had the record's events, in order"
    );
    for &seq in acked {
        assert!(
            seq as usize <= events.len(),
            "acknowledged event {seq} is in the record"
        );
    }
}

fn verify(dir: &Path, record: &Value, key: &str) {
    let file = dir.join(format!("{}.json", record["id"].as_str().unwrap()));
    std::fs::write(&file, record.to_string()).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_parity"))
        .arg("verify")
        .arg(&file)
        .args(["--key", key])
        .output()
        .expect("parity verify runs");
    let text =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success() && text.starts_with("ok (signed by the given key)"),
        "{text}"
    );
}

#[test]
fn two_nodes_serve_one_game_and_both_feeds_see_every_event() {
    let dir = tempfile::tempdir().unwrap();
    let db = common::fresh_database("cluster");
    let a = Node::start(&db, &dir.path().join("a.log"));
    let b = Node::start(&db, &dir.path().join("b.log"));
    assert_eq!(a.key, b.key, "one database, one signing key");
    assert_ne!(a.id, b.id);

    // Created on A (its owner), joined and played on B.
    let (id, white, black) = friend_game(&a, &b, "parity");
    assert_eq!(owner_of(&db, &id).as_deref(), Some(a.id.as_str()));
    let on_a = a.stream(&id, 0);
    let on_b = b.stream(&id, 0);
    let mut acked = commit_turn([&b, &b], &id, [&white, &black], 1, ["e2e4", "d7d5"]);
    acked.push(reveal(&b, &id, &white, 1, 0, "e2e4"));
    acked.push(reveal(&a, &id, &black, 1, 1, "d7d5"));
    acked.extend(commit_turn(
        [&a, &b],
        &id,
        [&white, &black],
        2,
        ["g1f3", "g8f6"],
    ));
    acked.push(reveal(&b, &id, &black, 2, 1, "g8f6"));
    acked.push(reveal(&b, &id, &white, 2, 0, "g1f3"));
    assert_eq!(
        owner_of(&db, &id).as_deref(),
        Some(a.id.as_str()),
        "still A's"
    );
    let last = *acked.iter().max().unwrap();
    let full = b.get(&format!("/api/games/{id}"));
    assert_eq!(
        (full["seq"].as_u64(), full["turn"].as_u64()),
        (Some(last), Some(3))
    );

    let (mut seen_a, mut seen_b) = (Vec::new(), Vec::new());
    read_until(&on_a, last, &mut seen_a);
    read_until(&on_b, last, &mut seen_b);
    assert_eq!(seen_a, seen_b, "the owner's feed and the relayed one agree");
    let record = b.record(&id);
    assert_eq!(record, a.record(&id), "the same record through either node");
    check_record(&record, &seen_b, &acked);
    // A reconnecting client on B catches up with `since`.
    let mut caught_up = Vec::new();
    read_until(&b.stream(&id, 4), last, &mut caught_up);
    assert_eq!(caught_up, seen_b[4..], "since 4: the events after 4");
    b.act(&id, &black, "resign", Value::Null);
    assert_eq!(a.get(&format!("/api/games/{id}"))["result"], "1-0");
    verify(dir.path(), &b.record(&id), &b.key);
}

#[test]
fn a_killed_owners_games_are_taken_over_and_finish_on_another_node() {
    let dir = tempfile::tempdir().unwrap();
    let db = common::fresh_database("cluster");
    let mut a = Node::start(&db, &dir.path().join("a.log"));
    let b = Node::start(&db, &dir.path().join("b.log"));
    let c = Node::start(&db, &dir.path().join("c.log"));

    // A parity game and a chess game, both created on A and played on B and C.
    let (sim, sw, sb) = friend_game(&a, &b, "parity");
    let (chess, cw, cb) = friend_game(&a, &c, "chess");
    let sim_feed = c.stream(&sim, 0);
    let chess_feed = b.stream(&chess, 0);
    let mut sim_acked = commit_turn([&b, &c], &sim, [&sw, &sb], 1, ["e2e4", "d7d5"]);
    sim_acked.push(reveal(&c, &sim, &sb, 1, 1, "d7d5"));
    sim_acked.push(reveal(&b, &sim, &sw, 1, 0, "e2e4"));
    // Turn 2: both commitments and white's reveal in when A dies, so
    // white's move is known only to the database.
    sim_acked.extend(commit_turn([&b, &c], &sim, [&sw, &sb], 2, ["g1f3", "g8f6"]));
    sim_acked.push(reveal(&b, &sim, &sw, 2, 0, "g1f3"));
    let mut chess_acked = Vec::new();
    for (node, token, mv) in [(&b, &cw, "f2f3"), (&c, &cb, "e7e5"), (&b, &cw, "g2g4")] {
        chess_acked.push(node.act(&chess, token, &format!("move/{mv}"), Value::Null));
    }
    for id in [&sim, &chess] {
        assert_eq!(owner_of(&db, id).as_deref(), Some(a.id.as_str()));
    }
    let black_ms = b.get(&format!("/api/games/{chess}"))["clocks"]["black_ms"]
        .as_i64()
        .unwrap();

    a.kill();
    let killed = Instant::now();
    // Nobody asks for the games: the other nodes take them over by themselves.
    for id in [&sim, &chess] {
        loop {
            let owner = owner_of(&db, id);
            if owner.as_deref().is_some_and(|o| o == b.id || o == c.id) {
                break;
            }
            assert!(
                killed.elapsed() < TAKEOVER,
                "game {id} not taken over {TAKEOVER:?} after its owner died (owner {owner:?})"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
    let takeover = killed.elapsed();
    eprintln!("both games taken over {takeover:?} after the SIGKILL");
    // A's row in `nodes` goes once it owns nothing.
    loop {
        let nodes = node_ids(&db);
        if !nodes.contains(&a.id) {
            assert!(nodes.contains(&b.id) && nodes.contains(&c.id), "{nodes:?}");
            break;
        }
        assert!(
            killed.elapsed() < TAKEOVER * 2,
            "the dead node's row stayed: {nodes:?}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }

    // Black's clock ran until A died and not while nobody owned the game.
    let full = b.get(&format!("/api/games/{chess}"));
    let charged = black_ms - full["clocks"]["black_ms"].as_i64().unwrap();
    assert!(
        charged < 3000,
        "black was charged {charged} ms; the takeover took {takeover:?}"
    );

    // The games finish through B: black's reveal resolves turn 2 with
    // white's move revealed to A before it died; black mates in chess.
    sim_acked.push(reveal(&b, &sim, &sb, 2, 1, "g8f6"));
    let full = b.get(&format!("/api/games/{sim}"));
    assert_eq!(
        (
            full["turn"].as_u64(),
            full["moves"][1]["white"]["san"].as_str()
        ),
        (Some(3), Some("Nf3"))
    );
    sim_acked.push(b.act(&sim, &sb, "resign", Value::Null));
    chess_acked.push(b.act(&chess, &cb, "move/d8h4", Value::Null));
    let full = b.get(&format!("/api/games/{chess}"));
    assert_eq!(
        (full["result"].as_str(), full["reason"].as_str()),
        (Some("0-1"), Some("checkmate"))
    );
    assert_eq!(b.get(&format!("/api/games/{sim}"))["result"], "1-0");

    // Every acknowledged event is in the records; the feeds on B and C
    // went on across the takeover; `parity verify` accepts the records.
    for (id, feed, acked) in [
        (&sim, &sim_feed, &sim_acked),
        (&chess, &chess_feed, &chess_acked),
    ] {
        let last = *acked.iter().max().unwrap();
        let mut seen = Vec::new();
        read_until(feed, last, &mut seen);
        let record = b.record(id);
        assert_eq!(record, c.record(id), "the same record through B and C");
        check_record(&record, &seen, acked);
        assert_eq!(
            record["events"].as_array().unwrap().last().unwrap()["type"],
            "finished"
        );
        verify(dir.path(), &record, &a.key);
    }
}

/// Waits until a node of `nodes` owns `id`.
fn owned_by_one_of(db: &str, id: &str, nodes: &[&Node]) {
    let start = Instant::now();
    loop {
        let owner = owner_of(db, id);
        if owner
            .as_deref()
            .is_some_and(|o| nodes.iter().any(|n| n.id == o))
        {
            return;
        }
        assert!(
            start.elapsed() < TAKEOVER,
            "game {id} not taken over (owner {owner:?})"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// docs/deploy.md, "Upgrades": a cluster of two nodes of the old release
/// (`PARITY_UPGRADE_FROM`, a `parity` binary of another commit with the
/// same schema; by default this build, which tests the procedure only)
/// is rolled one node at a time to this build: SIGTERM, a new node,
/// `/ready`, the next. Two games go on through every step and finish
/// with every acknowledged event; old and new nodes serve each other's
/// games while both run. `scripts/rolling-upgrade REV` runs it against
/// a build of REV.
#[test]
fn a_cluster_upgraded_one_node_at_a_time_keeps_its_games() {
    let dir = tempfile::tempdir().unwrap();
    let db = common::fresh_database("upgrade");
    let old = std::env::var_os("PARITY_UPGRADE_FROM")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| env!("CARGO_BIN_EXE_parity").into());
    let log = |name: &str| dir.path().join(format!("{name}.log"));
    let a = Node::start_binary(&old, &db, &log("a-old"));
    let b = Node::start_binary(&old, &db, &log("b-old"));
    // A parity game owned by A, a chess game owned by B.
    let (sim, sw, sb) = friend_game(&a, &b, "parity");
    let (chess, cw, cb) = friend_game(&b, &a, "chess");
    let (mut sim_acked, mut chess_acked) = (Vec::new(), Vec::new());
    let sim_turns = [["e2e4", "d7d5"], ["g1f3", "g8f6"], ["b1c3", "b8c6"]];
    let chess_moves = ["f2f3", "e7e5", "g2g4", "d8h4"];
    let mut play = |turn: usize, nodes: [&Node; 2]| {
        let t = turn as u64 + 1;
        sim_acked.extend(commit_turn(nodes, &sim, [&sw, &sb], t, sim_turns[turn]));
        sim_acked.push(reveal(nodes[1], &sim, &sb, t, 1, sim_turns[turn][1]));
        sim_acked.push(reveal(nodes[0], &sim, &sw, t, 0, sim_turns[turn][0]));
        let token = [&cw, &cb][turn % 2];
        let mv = chess_moves[turn];
        chess_acked.push(nodes[turn % 2].act(&chess, token, &format!("move/{mv}"), Value::Null));
    };
    play(0, [&a, &b]);

    // A leaves; B (old) takes its game; A comes back new, beside old B.
    a.terminate();
    owned_by_one_of(&db, &sim, &[&b]);
    let a = Node::start_binary(Path::new(env!("CARGO_BIN_EXE_parity")), &db, &log("a-new"));
    a.wait_ready();
    play(1, [&a, &b]);

    // B leaves; new A takes both; B comes back new.
    b.terminate();
    for id in [&sim, &chess] {
        owned_by_one_of(&db, id, &[&a]);
    }
    let b = Node::start_binary(Path::new(env!("CARGO_BIN_EXE_parity")), &db, &log("b-new"));
    b.wait_ready();
    play(2, [&b, &a]);
    chess_acked.push(b.act(
        &chess,
        &cb,
        &format!("move/{}", chess_moves[3]),
        Value::Null,
    ));
    sim_acked.push(a.act(&sim, &sb, "resign", Value::Null));

    let finished = |id: &str| b.get(&format!("/api/games/{id}"))["result"].clone();
    assert_eq!(
        (finished(&sim), finished(&chess)),
        (json!("1-0"), json!("0-1"))
    );
    for (id, acked) in [(&sim, &sim_acked), (&chess, &chess_acked)] {
        let record = a.record(id);
        assert_eq!(record, b.record(id), "the same record through A and B");
        check_record(&record, &[], acked);
        verify(dir.path(), &record, &a.key);
    }
}

#[test]
fn the_time_nobody_owned_a_game_is_not_charged_to_its_clocks() {
    let dir = tempfile::tempdir().unwrap();
    let db = common::fresh_database("cluster");
    let mut a = Node::start(&db, &dir.path().join("a.log"));
    let b = Node::start(&db, &dir.path().join("b.log"));
    let (chess, white, black) = friend_game(&a, &b, "chess");
    b.act(&chess, &white, "move/e2e4", Value::Null);
    let black_ms = b.get(&format!("/api/games/{chess}"))["clocks"]["black_ms"]
        .as_i64()
        .unwrap();
    // B cannot take the game over while it is stopped: for that long,
    // nobody runs the game, as while a single server is down.
    let orphaned = Duration::from_secs(3);
    b.signal("STOP");
    a.kill();
    std::thread::sleep(orphaned);
    b.signal("CONT");
    let resumed = Instant::now();
    while owner_of(&db, &chess).as_deref() != Some(b.id.as_str()) {
        assert!(resumed.elapsed() < TAKEOVER, "not taken over");
        std::thread::sleep(Duration::from_millis(20));
    }
    let clocks = b.get(&format!("/api/games/{chess}"))["clocks"].clone();
    let charged = black_ms - clocks["black_ms"].as_i64().unwrap();
    assert!(
        charged < orphaned.as_millis() as i64 - 1000,
        "black was charged {charged} ms of the {orphaned:?} nobody owned the game: {clocks}"
    );
    assert_eq!(clocks["running"], json!(["black"]));
    b.act(&chess, &black, "move/e7e5", Value::Null);
    b.act(&chess, &black, "resign", Value::Null);
    verify(dir.path(), &b.record(&chess), &b.key);
}

/// The first line of `feed` that satisfies `pred`.
fn wait_for(feed: &mpsc::Receiver<Value>, what: &str, pred: impl Fn(&Value) -> bool) -> Value {
    let start = Instant::now();
    loop {
        let left = PATIENCE.saturating_sub(start.elapsed());
        match feed.recv_timeout(left) {
            Ok(line) if pred(&line) => return line,
            Ok(_) => {}
            Err(e) => panic!("no {what} within {PATIENCE:?}: {e}"),
        }
    }
}

/// Account events and chat lines go to every node: Ada's event stream on
/// B hears the start and the end of the game she plays through A, and
/// her game's board stream on B gets the chat line she says through A.
#[test]
fn account_events_and_chat_reach_every_node() {
    let dir = tempfile::tempdir().unwrap();
    let db = common::fresh_database("cluster");
    let a = Node::start(&db, &dir.path().join("a.log"));
    let b = Node::start(&db, &dir.path().join("b.log"));
    let added = common::parity(&["user", "add", "Ada", "--bot", "--db", &db]);
    assert!(added.status.success(), "{}", common::stderr(&added));
    let made = common::parity(&["token", "add", "Ada", "--scope", "board:play", "--db", &db]);
    assert!(made.status.success(), "{}", common::stderr(&made));
    let token = common::stdout(&made).lines().last().unwrap().to_string();
    let is_game = |v: &Value, game: &str| v["game"]["gameId"] == game || v["game"]["id"] == game;

    let events = b.ndjson("/api/stream/event", Some(&token));
    let started = a.post(
        "/api/challenge/ai",
        Some(&token),
        json!({"level": 1, "days": 3, "color": "white"}),
    );
    let game = started["id"].as_str().unwrap().to_string();
    wait_for(&events, "gameStart on B", |v| {
        v["type"] == "gameStart" && is_game(v, &game)
    });

    let board = b.ndjson(&format!("/api/board/game/stream/{game}"), Some(&token));
    wait_for(&board, "gameFull on B", |v| v["type"] == "gameFull");
    a.post(
        &format!("/api/board/game/{game}/chat"),
        Some(&token),
        json!({"room": "player", "text": "hello from A"}),
    );
    let line = wait_for(&board, "chatLine on B", |v| v["type"] == "chatLine");
    assert_eq!(
        (&line["text"], &line["username"]),
        (&json!("hello from A"), &json!("Ada"))
    );

    a.post(
        &format!("/api/board/game/{game}/resign"),
        Some(&token),
        Value::Null,
    );
    wait_for(&events, "gameFinish on B", |v| {
        v["type"] == "gameFinish" && is_game(v, &game)
    });
}

/// A client cannot choose the address the rate limits count through a
/// node that does not own the game: the node it reaches counts the
/// address it sees, and nodes no longer pass an address header on. Bad
/// tokens through B with a new made-up address each are refused 429 once
/// a per-address quota is spent, and the forged request
/// on B's internal endpoint is a 401 that moves nothing.
#[test]
fn a_client_cannot_choose_its_address_through_another_node() {
    let dir = tempfile::tempdir().unwrap();
    let db = common::fresh_database("cluster");
    let a = Node::start(&db, &dir.path().join("a.log"));
    let b = Node::start(&db, &dir.path().join("b.log"));
    let (id, white, _black) = friend_game(&a, &a, "chess");
    assert_eq!(owner_of(&db, &id).as_deref(), Some(a.id.as_str()));
    let mut statuses = Vec::new();
    for i in 0..40 {
        let request = b
            .http
            .post(format!("{}/api/board/game/{id}/move/e2e4", b.base))
            .bearer_auth(format!("bad-token-{i}"))
            .header(
                "x-parity-client-ip",
                format!("10.1.{}.{}", i / 250, i % 250 + 1),
            )
            .header("x-parity-forwarded", "whatever");
        statuses.push(b.answer(request).0);
    }
    // 20 actions a second and 30 refused tokens a minute per address: one
    // address spends them, so at least the last ten are refused as too many
    // (the per-second bucket may let one through between them as it refills).
    // Were the header believed, each request would be a new address: no 429.
    let limited = statuses.iter().position(|&s| s == 429);
    let too_many = statuses.iter().filter(|&&s| s == 429).count();
    assert!(
        limited.is_some_and(|first| first >= 20) && too_many >= 10,
        "401s, then 429s once a limit is spent: {statuses:?}"
    );

    let forged = json!({
        "version": 1,
        "message": {
            "ask": "act",
            "game": id,
            "credentials": {
                "tokens": [{"token": white, "hash": parity_server::base::secret::token_hash(&white), "other_cookie": false}],
                "bearer": true,
            },
            "action": {"Move": "e2e4"},
        },
    });
    let before = a.record(&id);
    for secret in [None, Some(a.key.as_str()), Some("")] {
        let mut request = b
            .http
            .post(format!("{}/internal/node", b.base))
            .json(&forged);
        if let Some(secret) = secret {
            request = request.header("x-parity-node-secret", secret);
        }
        let (status, body) = b.answer(request);
        assert_eq!(status, 401, "{secret:?}: {body}");
    }
    assert_eq!(a.record(&id), before, "the forged move was not played");
    // Through B, once a second has refilled the action quota, the seat's
    // own token plays: typed to the owner, A.
    std::thread::sleep(Duration::from_millis(1500));
    let seq = b.act(&id, &white, "move/e2e4", Value::Null);
    assert!(seq > 0);
    assert_ne!(a.record(&id), before);
}

/// The lobby is the cluster's (docs/server.md, "Several nodes"): a seek
/// posted through A survives A's restart, is listed by C and accepted
/// through B, and both players' event streams start the game; two
/// accept it at once through B and C and only one game begins; a
/// challenge sent through B is declined through C, and the challenger's
/// stream on A hears it.
#[test]
fn seeks_and_challenges_are_shared_by_every_node() {
    let dir = tempfile::tempdir().unwrap();
    let db = common::fresh_database("cluster");
    let mut a = Node::start(&db, &dir.path().join("a.log"));
    let b = Node::start(&db, &dir.path().join("b.log"));
    let c = Node::start(&db, &dir.path().join("c.log"));
    let [ada, bob, cy] = ["Ada", "Bob", "Cy"].map(|name| common::board_token(&db, name));
    let seek_terms = json!({"variant": "parity", "clock": {"initial": 300, "increment": 3}});
    let seek = a.post("/api/lobby/seeks", Some(&ada), seek_terms.clone());
    let id = seek["id"].as_str().expect("an open seek").to_string();

    a.kill();
    let a = Node::start(&db, &dir.path().join("a2.log"));
    let listed =
        |node: &Node| -> Vec<Value> { node.get("/api/lobby/seeks").as_array().unwrap().clone() };
    for node in [&a, &c] {
        let seeks = listed(node);
        assert_eq!(seeks.len(), 1, "{seeks:?}");
        assert_eq!(
            (&seeks[0]["id"], &seeks[0]["user"]),
            (&json!(id), &json!("Ada"))
        );
    }
    let ada_events = a.ndjson("/api/stream/event", Some(&ada));
    let bob_events = b.ndjson("/api/stream/event", Some(&bob));
    let game = b.post(
        &format!("/api/lobby/seeks/{id}/accept"),
        Some(&bob),
        Value::Null,
    )["game"]
        .as_str()
        .unwrap()
        .to_string();
    for (events, whose) in [(&ada_events, "Ada's on A"), (&bob_events, "Bob's on B")] {
        wait_for(events, whose, |v| {
            v["type"] == "gameStart" && v["game"]["gameId"] == game
        });
    }
    assert!(listed(&c).is_empty());
    let full = c.get(&format!("/api/games/{game}"));
    assert_eq!(full["variant"]["id"], "parity", "{full}");

    // Two accept one seek at once, through B and C: one game.
    let second = a.post("/api/lobby/seeks", Some(&ada), seek_terms)["id"]
        .as_str()
        .unwrap()
        .to_string();
    let statuses: Vec<u16> = std::thread::scope(|s| {
        let tries: Vec<_> = [(&b, &bob), (&c, &cy)]
            .map(|(node, token)| {
                let url = format!("{}/api/lobby/seeks/{second}/accept", node.base);
                s.spawn(move || node.answer(node.http.post(url).bearer_auth(token)).0)
            })
            .into_iter()
            .collect();
        tries.into_iter().map(|t| t.join().unwrap()).collect()
    });
    let mut sorted = statuses.clone();
    sorted.sort();
    assert_eq!(sorted, [200, 404], "{statuses:?}");

    // A challenge sent through B, declined through C, heard on A.
    let challenge = b.post(
        "/api/challenge/cy",
        Some(&ada),
        json!({"variant": "chess", "days": 2}),
    );
    let challenge_id = challenge["id"].as_str().unwrap().to_string();
    let incoming = a.get_with("/api/challenge", &cy);
    assert_eq!(incoming["in"][0]["id"], json!(challenge_id), "{incoming}");
    c.post(
        &format!("/api/challenge/{challenge_id}/decline"),
        Some(&cy),
        json!({"reason": "later"}),
    );
    wait_for(&ada_events, "challengeDeclined on A", |v| {
        v["type"] == "challengeDeclined" && v["challenge"]["id"] == json!(challenge_id)
    });
    assert_eq!(a.get_with("/api/challenge", &ada)["out"], json!([]));
    let again = b.answer(
        b.http
            .post(format!("{}/api/challenge/{challenge_id}/accept", b.base))
            .bearer_auth(&cy),
    );
    assert_eq!(
        again.0, 404,
        "a declined challenge cannot be accepted: {}",
        again.1
    );
}
