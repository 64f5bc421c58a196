//! Whole games over the API: a chess game to checkmate, and a parity game
//! played by commit and reveal (white over HTTP, black over the
//! WebSocket) with a shared square and a failed capture, watched by a
//! spectator, with nothing of a committed move visible to anyone before
//! both commitments are in; chat lines on the WebSockets.

use crate::common;

use common::*;
use parity_rules::Registry;
use parity_rules::{record, AnyGame, Reason};
use serde_json::{json, Value};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_chess_game_to_checkmate() {
    let s = start().await;
    let (id, white, black) = s
        .friend_game("chess", json!({"initial": 300, "increment": 2}))
        .await;
    let mut spectator = s.stream(&id, None, None).await;
    let full = spectator
        .until("gameFull", |v| v["type"] == "gameFull")
        .await;
    assert_eq!(full["status"], "started");
    assert_eq!(full["you"], serde_json::Value::Null);
    assert_eq!(full["to_move"], "white");
    assert_eq!(legal(&full, "white").len(), 20);
    let mut seq = full["seq"].as_u64().unwrap();
    for (token, mv, san) in [
        (&white, "f2f3", "f3"),
        (&black, "e7e5", "e5"),
        (&white, "g2g4", "g4"),
        (&black, "d8h4", "Qh4#"),
    ] {
        let acked = s.ok(&id, token, &format!("move/{mv}"), None).await;
        let event = spectator.event(seq + 1).await;
        assert_eq!(event["type"], "move");
        assert_eq!(
            (event["uci"].as_str(), event["san"].as_str()),
            (Some(mv), Some(san))
        );
        assert!(event["clocks"]["white_ms"].as_i64().unwrap() > 0);
        seq = acked;
    }
    let finished = spectator.event(seq).await;
    assert_eq!(finished["type"], "finished");
    assert_eq!(
        (finished["result"].as_str(), finished["reason"].as_str()),
        (Some("0-1"), Some("checkmate"))
    );

    let full = s.full(&id, Some(&white)).await;
    assert_eq!(full["you"], "white");
    assert_eq!(full["status"], "finished");
    assert_eq!(full["moves"].as_array().unwrap().len(), 4);
    assert_eq!(full["moves"][3]["san"], "Qh4#");
    // One wording of the ending: the rules' name on the wire and in the
    // PGN's Termination, the rules' text for people.
    assert_eq!(full["reason"], Reason::Checkmate.name());
    assert_eq!(full["reason_text"], Reason::Checkmate.text());

    let pgn = s.get(&format!("/api/games/{id}/pgn"), None).await.text;
    assert!(pgn.contains("1. f3 e5 2. g4 Qh4#"), "{pgn}");
    assert!(pgn.contains("[Termination \"checkmate\"]"), "{pgn}");
    let Ok(AnyGame::TurnBased64(game)) = record::replay(&Registry::builtin(), &pgn) else {
        panic!("the PGN replays: {pgn}")
    };
    assert_eq!(game.moves().len(), 4);

    let record = s.get(&format!("/api/games/{id}/record"), None).await.text;
    let verified = s.verify(&record).expect("verifies");
    assert_eq!(verified.ending, Some(("0-1".into(), Reason::Checkmate)));

    // A friend game is private: listed neither live nor finished.
    let finished_list = s.get("/api/games?status=finished", None).await.body;
    assert!(!finished_list
        .as_array()
        .unwrap()
        .iter()
        .any(|g| g["id"] == id.as_str()));
    let live_list = s.get("/api/games?status=live", None).await.body;
    assert!(!live_list
        .as_array()
        .unwrap()
        .iter()
        .any(|g| g["id"] == id.as_str()));

    // A client that reconnects after seq 3 gets gameFull, then 4.. in order.
    let mut again = s.stream(&id, None, Some(3)).await;
    assert_eq!(
        again.until("gameFull", |v| v["type"] == "gameFull").await["seq"],
        seq
    );
    for n in 4..=seq {
        assert_eq!(again.until("next", |_| true).await["seq"], n);
    }
}

/// One turn of the parity game: moves in coordinates and SAN.
struct Turn {
    white: (&'static str, &'static str),
    black: (&'static str, &'static str),
}

const TURNS: [Turn; 4] = [
    Turn {
        white: ("g1f3", "Nf3"),
        black: ("b8c6", "Nc6"),
    },
    Turn {
        white: ("e2e4", "e4"),
        black: ("d7d5", "d5"),
    },
    // Both knights land on the empty e5: a shared square.
    Turn {
        white: ("f3e5", "Ne5"),
        black: ("c6e5", "Ne5"),
    },
    // White's pawn takes on d5 as black's pawn steps to d4: a failed capture.
    Turn {
        white: ("e4d5", "exd5"),
        black: ("d5d4", "d4"),
    },
];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_parity_game_by_commit_and_reveal() {
    let s = start().await;
    let (id, white, black) = s
        .friend_game("parity", json!({"initial": 600, "increment": 5}))
        .await;
    let mut black_ws = s.websocket(&id, Some(&black), None).await;
    let full = black_ws
        .lines
        .until("gameFull", |v| v["type"] == "gameFull")
        .await;
    assert_eq!(full["you"], "black");
    assert_eq!(full["to_move"], serde_json::Value::Null);
    assert_eq!(full["committed"], json!({"white": false, "black": false}));
    let mut white_stream = s.stream(&id, Some(&white), None).await;
    white_stream
        .until("gameFull", |v| v["type"] == "gameFull")
        .await;
    let mut spectator = s.stream(&id, None, None).await;
    spectator
        .until("gameFull", |v| v["type"] == "gameFull")
        .await;

    for (i, t) in TURNS.iter().enumerate() {
        let turn = i as u64 + 1;
        let (wn, bn) = (nonce(2 * turn), nonce(2 * turn + 1));
        let wc = commitment(&id, turn, "white", t.white.0, &wn);
        let bc = commitment(&id, turn, "black", t.black.0, &bn);
        // White commits first in odd turns, black in even ones; the other
        // side's views must not show the committed move.
        let white_first = turn % 2 == 1;
        let (first_move, first_side) = if white_first {
            (t.white, "white")
        } else {
            (t.black, "black")
        };
        let seq = if white_first {
            s.ok(&id, &white, "commit", Some(json!({"commitment": wc})))
                .await
        } else {
            let ack = black_ws.act(json!({"t": "commit", "commitment": bc})).await;
            assert_eq!(ack["type"], "ack", "{ack}");
            ack["seq"].as_u64().unwrap()
        };
        let committed = spectator.event(seq).await;
        assert_eq!(committed["type"], "committed");
        assert_eq!(committed["color"], first_side);
        black_ws.lines.event(seq).await;
        white_stream.event(seq).await;
        let hidden_from = |text: &str, what: &str| {
            let clean = scrub(text, &id);
            assert!(
                !clean.contains(first_move.0) && !clean.contains(first_move.1),
                "turn {turn}: {first_side}'s move {first_move:?} shows in {what}: {clean}"
            );
        };
        let (opponent_token, opponent_view) = if white_first {
            (&black, black_ws.lines.raw_text())
        } else {
            (&white, white_stream.raw_text())
        };
        hidden_from(&opponent_view, "the opponent's stream");
        hidden_from(&spectator.raw_text(), "the spectator's stream");
        for (path, token) in [
            (format!("/api/games/{id}"), Some(opponent_token.as_str())),
            (format!("/api/games/{id}"), None),
            (format!("/api/games/{id}/record"), None),
            (format!("/api/games/{id}/pgn"), None),
            ("/api/games?status=live".to_string(), None),
        ] {
            hidden_from(&s.get(&path, token).await.text, &path);
        }

        // The second commitment, then the reveals in the same order.
        let seq = if white_first {
            let ack = black_ws.act(json!({"t": "commit", "commitment": bc})).await;
            assert_eq!(ack["type"], "ack", "{ack}");
            ack["seq"].as_u64().unwrap()
        } else {
            s.ok(&id, &white, "commit", Some(json!({"commitment": wc})))
                .await
        };
        spectator.event(seq).await;
        let full = s.full(&id, None).await;
        assert_eq!(full["committed"], json!({"white": true, "black": true}));
        let reveal_white = || s.reveal(&id, &white, t.white.0, &wn);
        let reveal_black = async {
            let ack = black_ws
                .act(json!({"t": "reveal", "move": t.black.0, "nonce": bn}))
                .await;
            assert_eq!(ack["type"], "ack", "{ack}");
            ack["seq"].as_u64().unwrap()
        };
        if white_first {
            let seq = reveal_white().await;
            assert_eq!(spectator.event(seq).await["type"], "revealed");
            hidden_from(
                &s.get(&format!("/api/games/{id}"), Some(&black)).await.text,
                "gameFull after one reveal",
            );
            reveal_black.await;
        } else {
            let seq = reveal_black.await;
            assert_eq!(spectator.event(seq).await["type"], "revealed");
            hidden_from(&white_stream.raw_text(), "the stream after one reveal");
            reveal_white().await;
        }
        let resolved = spectator.until("turn", |v| v["type"] == "turn").await;
        assert_eq!(resolved["turn"], turn);
        assert_eq!(resolved["white"]["uci"], t.white.0);
        assert_eq!(resolved["white"]["san"], t.white.1);
        assert_eq!(resolved["black"]["san"], t.black.1);
        assert_eq!(resolved["white"]["nonce"], wn.as_str());
        assert_eq!(resolved["black"]["commitment"], bc.as_str());
        // The same search finds the moves once the turn is out (so the
        // checks above could fail).
        let shown = scrub(&spectator.raw_text(), &id);
        assert!(
            shown.contains(first_move.0) && shown.contains(first_move.1),
            "{shown}"
        );
        let notes = &resolved["notes"];
        match turn {
            3 => {
                assert_eq!(notes["white"]["co_occupied"], "e5", "{notes}");
                assert_eq!(notes["black"]["co_occupied"], "e5", "{notes}");
                assert!(notes["white"]["text"]
                    .as_str()
                    .unwrap()
                    .contains("shares e5"));
                let full = s.full(&id, None).await;
                let e5 = full["board"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|sq| sq["square"] == "e5")
                    .unwrap()
                    .clone();
                assert_eq!(e5["pieces"].as_array().unwrap().len(), 2, "{e5}");
            }
            4 => {
                assert_eq!(notes["white"]["failed_capture"], true, "{notes}");
                assert_eq!(notes["white"]["captured"], serde_json::Value::Null);
                assert!(notes["white"]["text"]
                    .as_str()
                    .unwrap()
                    .contains("failed capture"));
            }
            _ => {}
        }
    }

    let seq = s.ok(&id, &white, "resign", None).await;
    let finished = black_ws.lines.event(seq).await;
    assert_eq!(
        (finished["result"].as_str(), finished["reason"].as_str()),
        (Some("0-1"), Some("resignation"))
    );

    let record = s.get(&format!("/api/games/{id}/record"), None).await.text;
    let verified = s.verify(&record).expect("verifies");
    assert_eq!((verified.played, verified.commitments), (4, 8));
    let pgn = s.get(&format!("/api/games/{id}/pgn"), None).await.text;
    assert!(
        pgn.contains("3. Ne5 Ne5 {white: shares e5; black: shares e5}"),
        "{pgn}"
    );
    let Ok(AnyGame::Simultaneous(game)) = record::replay(&Registry::builtin(), &pgn) else {
        panic!("the PGN replays: {pgn}")
    };
    assert_eq!(game.turns().len(), 4);
}

/// A chat line reaches the game's WebSockets at once, a spectator's too,
/// in lichess's `chatLine` shape; the page reads the chat again on it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chat_lines_go_out_on_the_games_websockets() {
    let s = common::start().await;
    let (id, white, _black) = s.friend_game("chess", Value::Null).await;
    let mut watcher = s.websocket(&id, None, None).await;
    watcher
        .lines
        .until("gameFull", |v| v["type"] == "gameFull")
        .await;
    let said = s
        .post(
            &format!("/api/games/{id}/chat"),
            Some(&white),
            Some(json!({"room": "player", "text": "good game"})),
        )
        .await;
    assert_eq!(said.status, 200, "{}", said.text);
    let line = watcher
        .lines
        .until("chatLine", |v| v["type"] == "chatLine")
        .await;
    assert_eq!(
        (&line["username"], &line["text"], &line["room"]),
        (&json!("White"), &json!("good game"), &json!("player")),
        "{line}"
    );
}
