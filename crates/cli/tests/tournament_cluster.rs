//! A Swiss event on a cluster of `parity serve` nodes (one PostgreSQL
//! database): the node that runs the event is killed with SIGKILL between
//! two rounds, another node pairs the next round, and the event ends with
//! the same FIDE report (TRF) as a run where nobody was killed. Every game
//! ends the same way (White moves, Black resigns), so the report is a
//! function of the pairings alone. Needs `PARITY_TEST_POSTGRES`
//! (scripts/test sets it).

use std::collections::{HashMap, HashSet};
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::common;

const PLAYERS: [&str; 7] = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus"];
const ROUNDS: usize = 4;
/// The round after which the runner is killed (run A).
const KILLED_AFTER: usize = 2;
/// The most a step waits: the runner looks at each event every second;
/// the rest is a margin for a loaded machine.
const PATIENCE: Duration = Duration::from_secs(15);
/// The most the first pairing after the kill may take: a node looks at
/// the event every second and the runner's lock is free once it dies.
const TAKEOVER: Duration = Duration::from_secs(5);
/// From creating the event to its start: long enough for every player
/// to join before round 1 is paired.
const START_DELAY_MS: i64 = 8_000;

/// One `parity serve` node; killed when dropped.
struct Node {
    child: Child,
    api: common::Api,
    /// Its id in `nodes` and `game_owners`.
    id: String,
    killed: bool,
}

impl std::ops::Deref for Node {
    type Target = common::Api;
    fn deref(&self) -> &common::Api {
        &self.api
    }
}

impl Node {
    fn start(db: &str) -> Node {
        let binary = std::path::Path::new(env!("CARGO_BIN_EXE_parity"));
        let node = common::start_node(binary, db, Stdio::null());
        Node {
            child: node.child,
            api: common::Api::new(node.base),
            id: node.id,
            killed: false,
        }
    }

    /// SIGKILL: the node releases nothing, its PostgreSQL sessions just end.
    fn kill(&mut self) {
        self.child.kill().expect("kill");
        self.child.wait().expect("reaped");
        self.killed = true;
    }
}

impl Drop for Node {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn owner_of(db: &str, game: &str) -> Option<String> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime
        .block_on(parity_server::cluster::owner_of(db, game))
        .expect("the owners table")
}

fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64
}

/// Polls `probe` until it gives a value; fails after PATIENCE.
fn wait_for<T>(what: &str, mut probe: impl FnMut() -> Option<T>) -> T {
    let start = Instant::now();
    loop {
        if let Some(value) = probe() {
            return value;
        }
        assert!(
            start.elapsed() < PATIENCE,
            "{what}: not within {PATIENCE:?}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// One run of the event on a fresh database.
struct Run {
    db: String,
    nodes: Vec<Node>,
    /// The event's creator (the team's leader, not a player).
    director: String,
    /// Board API tokens by player name.
    tokens: HashMap<String, String>,
    swiss: String,
}

impl Run {
    /// Three nodes, a team of the director and the players, and a Swiss
    /// event of theirs that every player has joined before it starts.
    fn new() -> Run {
        let db = common::fresh_database("tournament_cluster");
        let nodes: Vec<Node> = (0..3).map(|_| Node::start(&db)).collect();
        let director = common::board_token(&db, "Director");
        let tokens: HashMap<String, String> = PLAYERS
            .iter()
            .map(|&name| (name.to_string(), common::board_token(&db, name)))
            .collect();
        let team = nodes[0].post(
            "/api/team",
            Some(&director),
            json!({"name": "Cluster Club"}),
        );
        let team = team["id"].as_str().expect("a team id").to_string();
        for (i, name) in PLAYERS.iter().enumerate() {
            let node = &nodes[i % nodes.len()];
            node.post(
                &format!("/team/{team}/join"),
                Some(&tokens[*name]),
                Value::Null,
            );
        }
        // A round interval of an hour: every round after the first is
        // started by the director's schedule-next-round.
        let created = nodes[1].post(
            &format!("/api/swiss/new/{team}"),
            Some(&director),
            json!({
                "name": "Cluster Swiss",
                "clock.limit": 600,
                "clock.increment": 0,
                "nbRounds": ROUNDS,
                "startsAt": now_ms() + START_DELAY_MS,
                "roundInterval": 3600,
                "variant": "standard",
                "rated": false,
            }),
        );
        let swiss = created["id"].as_str().expect("a Swiss id").to_string();
        for (i, name) in PLAYERS.iter().enumerate() {
            let node = &nodes[(i + 1) % nodes.len()];
            node.post(
                &format!("/api/swiss/{swiss}/join"),
                Some(&tokens[*name]),
                Value::Null,
            );
        }
        let event = nodes[2].get(&format!("/api/swiss/{swiss}"));
        assert_eq!(
            (&event["status"], &event["nbPlayers"]),
            (&json!("created"), &json!(PLAYERS.len())),
            "every player joined before the start: {event}"
        );
        Run {
            db,
            nodes,
            director,
            tokens,
            swiss,
        }
    }

    fn alive(&self) -> impl Iterator<Item = &Node> {
        self.nodes.iter().filter(|n| !n.killed)
    }

    fn event_node(&self) -> &Node {
        self.alive().next().expect("a node alive")
    }

    /// The event as a node that is still alive shows it.
    fn event(&self) -> Value {
        self.event_node().get(&format!("/api/swiss/{}", self.swiss))
    }

    /// Waits until round `round` is paired; its boards.
    fn paired(&self, round: usize) -> Vec<Value> {
        let event = wait_for(&format!("round {round} paired"), || {
            let event = self.event();
            (event["round"] == json!(round)).then_some(event)
        });
        let pairing = &event["pairings"][round - 1];
        assert_eq!(pairing["round"], json!(round), "{event}");
        pairing["boards"].as_array().expect("boards").clone()
    }

    /// Plays a round's games through the nodes alive, by the fixed rule:
    /// White plays e4, Black resigns.
    fn play(&self, boards: &[Value]) {
        let nodes: Vec<&Node> = self.alive().collect();
        for (i, board) in boards.iter().enumerate() {
            let id = board["id"].as_str().expect("a game id");
            let token = |side: &str| &self.tokens[board[side].as_str().expect("a name")];
            nodes[i % nodes.len()].act(id, token("white"), "move/e2e4", Value::Null);
            nodes[(i + 1) % nodes.len()].act(id, token("black"), "resign", Value::Null);
        }
    }

    /// Waits until round `round` is over and the runner has set when the
    /// next one is paired (an hour on: the round interval), or after the
    /// last round, finished the event; the event then.
    fn round_over(&self, round: usize) -> Value {
        wait_for(&format!("round {round} over, the next scheduled"), || {
            let event = self.event();
            let boards = event["pairings"][round - 1]["boards"].as_array()?.clone();
            let done = boards.iter().all(|b| b["result"] == "1-0");
            let next = match round {
                ROUNDS => event["status"] == "finished",
                _ => event["nextRound"]["in"].as_i64()? > 60,
            };
            (event["round"] == json!(round) && done && next).then_some(event)
        })
    }

    /// The director starts the next round now, through `node`.
    fn start_next_round(&self, node: &Node) {
        node.post(
            &format!("/api/swiss/{}/schedule-next-round", self.swiss),
            Some(&self.director),
            json!({"date": now_ms()}),
        );
    }

    /// The node that owns `games` (they were created by the event's runner).
    fn owner(&self, games: &[String]) -> String {
        let owners: HashSet<Option<String>> = games.iter().map(|g| owner_of(&self.db, g)).collect();
        assert_eq!(
            owners.len(),
            1,
            "one node created a round's games: {owners:?}"
        );
        let owner = owners.into_iter().next().unwrap().expect("an owner");
        assert!(
            self.alive().any(|n| n.id == owner),
            "{owner} is a node alive"
        );
        owner
    }

    /// The whole event, `kill` or not: its TRF and final JSON.
    fn play_event(mut self, kill: bool) -> (String, Value) {
        // The node that created the last round's games, and the one killed.
        let (mut runner, mut killed) = (None::<String>, None::<String>);
        let mut event = Value::Null;
        for round in 1..=ROUNDS {
            let boards = self.paired(round);
            let ids: Vec<String> = boards
                .iter()
                .map(|b| b["id"].as_str().unwrap().to_string())
                .collect();
            wait_for(&format!("round {round}'s games created"), || {
                ids.iter()
                    .all(|g| owner_of(&self.db, g).is_some())
                    .then_some(())
            });
            let owner = self.owner(&ids);
            if let Some(dead) = killed.take() {
                assert_ne!(dead, owner, "round {round} created by a survivor");
            } else if let Some(runner) = &runner {
                assert_eq!(runner, &owner, "the runner keeps the event: round {round}");
            }
            runner = Some(owner);
            self.play(&boards);
            event = self.round_over(round);
            if round == ROUNDS {
                break;
            }
            if kill && round == KILLED_AFTER {
                let dead = runner.clone().unwrap();
                let node = self.nodes.iter_mut().find(|n| n.id == dead).unwrap();
                node.kill();
                eprintln!("killed node {dead}, the runner, after round {round}");
                killed = Some(dead);
            }
            let node = self.alive().last().unwrap();
            let asked = Instant::now();
            self.start_next_round(node);
            self.paired(round + 1);
            if kill && round == KILLED_AFTER {
                let took = asked.elapsed();
                eprintln!("round {} paired {took:?} after it was asked for", round + 1);
                assert!(
                    took < TAKEOVER,
                    "round {} paired only after {took:?}",
                    round + 1
                );
            }
        }
        let trf = self.event_node().get(&format!("/swiss/{}.trf", self.swiss));
        (trf.as_str().expect("the TRF as text").to_string(), event)
    }
}

/// Every round paired once: three games and one bye among the seven
/// players, each player once; no game id twice; every game won by White.
fn check_pairings(event: &Value) {
    let pairings = event["pairings"].as_array().expect("pairings");
    assert_eq!(pairings.len(), ROUNDS, "{event}");
    let mut ids = HashSet::new();
    for (r, pairing) in pairings.iter().enumerate() {
        let boards = pairing["boards"].as_array().unwrap();
        let byes = pairing["byes"].as_array().unwrap();
        assert_eq!(
            (boards.len(), byes.len()),
            (PLAYERS.len() / 2, 1),
            "round {}: {pairing}",
            r + 1
        );
        let mut seated: Vec<&str> = byes.iter().map(|b| b.as_str().unwrap()).collect();
        for board in boards {
            assert!(
                ids.insert(board["id"].clone()),
                "game {} paired twice",
                board["id"]
            );
            assert_eq!(board["result"], "1-0", "{board}");
            seated.extend(["white", "black"].map(|side| board[side].as_str().unwrap()));
        }
        seated.sort();
        assert_eq!(seated, PLAYERS, "round {}: every player once", r + 1);
    }
}

/// Each player's line of the report scores a round as its colour says:
/// a win with White, a loss with Black; the bye a full point.
fn check_trf(trf: &str) {
    let lines: Vec<&str> = trf.lines().filter(|l| l.starts_with("001")).collect();
    assert_eq!(lines.len(), PLAYERS.len(), "{trf}");
    for line in lines {
        for r in 0..ROUNDS {
            let round = line.get(89 + 10 * r..).unwrap_or("");
            let round = &round[..round.len().min(10)];
            let fields: Vec<&str> = round.split_whitespace().collect();
            assert!(
                matches!(
                    fields[..],
                    [_, "w", "1"] | [_, "b", "0"] | ["0000", "-", "U"]
                ),
                "round {round:?} of {line:?}"
            );
        }
    }
}

#[test]
fn a_swiss_event_goes_on_when_its_runner_is_killed_between_rounds() {
    let (killed_trf, killed_event) = Run::new().play_event(true);
    let (trf, event) = Run::new().play_event(false);
    check_pairings(&killed_event);
    check_pairings(&event);
    check_trf(&trf);
    // The TRF has no dates or ids: the names, numbers, ratings, points,
    // places, opponents, colours and results must be the same.
    assert_eq!(killed_trf, trf, "the report with a kill and without");
}
