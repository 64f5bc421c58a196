//! Records signed by the server: real games on an in-process server, their
//! records checked with the key the server serves, then changed the ways a
//! cheat would change them, each refused with its reason.

use crate::common;

use std::time::Duration;

use common::TestServer;
use parity_rules::{AnyGame, Color, Reason, Registry};
use parity_server::base::signing::{self, SignatureError};
use parity_server::game::verify::{Signed, VerifyError};
use serde_json::{json, Value};

/// The first 12 turns of `games/parity-long.pgn`.
const PARITY_12: &str = "e2e4/d7d5 g1f3/b8c6 e4d5/d5e4 f3g5/c8f5 d5c6/c6e5 b1c3/b7c6 \
                         g2g4/e5g4 c3e4/d8d4 d1e2/e8c8 g4f5/f5g6 e2a6/g4e5 f5g6/c8b8";

/// Plays "white/black ..." turns, each side committing then revealing.
async fn play_turns(s: &TestServer, id: &str, white: &str, black: &str, turns: &str) {
    for (i, pair) in turns.split_whitespace().enumerate() {
        let (w, b) = pair.split_once('/').unwrap();
        let n = 2 * i as u64;
        let nw = s.commit(id, white, "white", w, n).await;
        let nb = s.commit(id, black, "black", b, n + 1).await;
        s.reveal(id, white, w, &nw).await;
        s.reveal(id, black, b, &nb).await;
    }
}

async fn record(s: &TestServer, id: &str) -> Value {
    let answer = s.get(&format!("/api/games/{id}/record"), None).await;
    assert_eq!(answer.status, 200, "{}", answer.text);
    answer.body
}

/// Why the server's key refuses a changed record.
fn refused(s: &TestServer, record: &Value) -> String {
    match s.verify(&record.to_string()) {
        Ok(v) => panic!("a changed record verified: {v}"),
        Err(e) => e.to_string(),
    }
}

fn events(record: &mut Value) -> &mut Vec<Value> {
    record["events"].as_array_mut().unwrap()
}

fn last(record: &mut Value) -> &mut Value {
    events(record).last_mut().unwrap()
}

/// Takes out the first event of `kind` and numbers the rest again, as a
/// careful forger would.
fn delete_first(record: &Value, kind: &str) -> Value {
    let mut changed = record.clone();
    let list = events(&mut changed);
    let at = list.iter().position(|e| e["type"] == kind).unwrap();
    list.remove(at);
    for (i, event) in list.iter_mut().enumerate() {
        event["seq"] = (i + 1).into();
    }
    changed
}

#[tokio::test]
async fn records_verify_with_the_served_key_and_every_tampering_is_named() {
    let s = common::start().await;
    let served = s.get("/api/key", None).await;
    assert_eq!(served.status, 200);
    assert_eq!(served.body["key"], signing::key_text(&s.key));
    assert_eq!(served.body["algorithm"], "ed25519");

    // Twelve turns with a clock, then Black resigns.
    let (id, white, black) = s
        .friend_game("parity", json!({"initial": 300, "increment": 3}))
        .await;
    play_turns(&s, &id, &white, &black, PARITY_12).await;
    s.ok(&id, &black, "resign", None).await;
    let mut resigned = record(&s, &id).await;
    let verified = s
        .verify(&resigned.to_string())
        .expect("the record verifies");
    assert_eq!(verified.signed, Signed::ByGivenKey);
    assert_eq!((verified.played, verified.commitments), (12, 24));
    assert_eq!(verified.ending, Some(("1-0".into(), Reason::Resignation)));
    assert_eq!(last(&mut resigned)["by"], "black");
    assert_eq!(resigned["signature"]["key"], signing::key_text(&s.key));

    let mut flipped = resigned.clone();
    last(&mut flipped)["result"] = "0-1".into();
    assert!(
        refused(&s, &flipped).contains("black resigned, so the result is 1-0; the record says 0-1"),
        "{}",
        refused(&s, &flipped)
    );

    let mut aborted = resigned.clone();
    last(&mut aborted)["reason"] = "abort".into();
    last(&mut aborted)["result"] = "*".into();
    assert!(
        refused(&s, &aborted).contains("an abort in turn 13, after turn 1 resolved"),
        "{}",
        refused(&s, &aborted)
    );

    let mut agreed = resigned.clone();
    last(&mut agreed)["reason"] = "agreement".into();
    last(&mut agreed)["result"] = "1/2-1/2".into();
    assert!(refused(&s, &agreed).contains("a draw by agreement without a standing offer"));

    let unrevealed = delete_first(&resigned, "revealed");
    assert!(
        refused(&s, &unrevealed).contains("(turn): turn 1 before white revealed"),
        "{}",
        refused(&s, &unrevealed)
    );
    let unjoined = delete_first(&resigned, "joined");
    assert!(
        refused(&s, &unjoined).contains("(started): the game started before white joined"),
        "{}",
        refused(&s, &unjoined)
    );
    let unstarted = delete_first(&resigned, "started");
    assert!(
        refused(&s, &unstarted).contains("(committed): before the game started"),
        "{}",
        refused(&s, &unstarted)
    );
    // Deleted without numbering the rest again: the gap is the reason.
    let mut gap = resigned.clone();
    events(&mut gap).remove(5);
    assert!(refused(&s, &gap).contains("expected seq 6"));

    let mut empty = resigned.clone();
    events(&mut empty).clear();
    assert!(refused(&s, &empty).contains("the record has no events"));

    // Reformatted, the record is the same record; stripped of its
    // signature it is only an unsigned one.
    let pretty = serde_json::to_string_pretty(&resigned).unwrap();
    assert!(s.verify(&pretty).is_ok());
    let mut stripped = resigned.clone();
    stripped.as_object_mut().unwrap().remove("signature");
    assert_eq!(s.verify(&stripped.to_string()).unwrap().signed, Signed::No);
    let other = ed25519_dalek::SigningKey::from_bytes(&[9; 32]).verifying_key();
    assert!(matches!(
        parity_server::game::verify::verify(
            &Registry::builtin(),
            &resigned.to_string(),
            Some(&other)
        ),
        Err(VerifyError::Signature(SignatureError::OtherKey { .. }))
    ));
}

#[tokio::test]
async fn a_forged_turn_with_a_recomputed_commitment_is_caught_by_the_signature() {
    let s = common::start().await;
    let (id, white, black) = s.friend_game("parity", Value::Null).await;
    play_turns(&s, &id, &white, &black, "e2e4/d7d5").await;
    s.ok(&id, &white, "resign", None).await;
    let signed = record(&s, &id).await;
    assert!(s.verify(&signed.to_string()).is_ok());

    // White claims d2d4 instead of e2e4: a new nonce, the commitment to
    // it, its SAN and the position it gives. Every check of the events
    // passes; only the signature can tell.
    let registry = Registry::builtin();
    let mut game = AnyGame::new(registry.get("parity").unwrap());
    let wm = parity_server::game::play::read_move(&game, Color::White, "d2d4").unwrap();
    let bm = parity_server::game::play::read_move(&game, Color::Black, "d7d5").unwrap();
    let san = game.san(Color::White, wm);
    game.play_turn(wm, bm).unwrap();
    let nonce = common::nonce(77);
    let commitment = common::commitment(&id, 1, "white", "d2d4", &nonce);
    let mut forged = signed.clone();
    for event in events(&mut forged) {
        if event["type"] == "committed" && event["color"] == "white" {
            event["commitment"] = commitment.clone().into();
        }
        if event["type"] == "turn" {
            event["white"] =
                json!({"uci": "d2d4", "san": san, "nonce": nonce, "commitment": commitment});
            event["fen"] = game.fen().into();
        }
    }
    assert!(matches!(
        s.verify(&forged.to_string()),
        Err(VerifyError::Signature(SignatureError::Mismatch))
    ));
    assert!(refused(&s, &forged).contains("it was changed after the server signed it"));
    // Without its signature the forgery is a consistent game, which is
    // all an unsigned record can claim to be.
    forged.as_object_mut().unwrap().remove("signature");
    assert_eq!(s.verify(&forged.to_string()).unwrap().signed, Signed::No);
}

#[tokio::test]
async fn time_and_agreement_records_name_their_loser_and_their_offer() {
    let s = common::start().await;
    // White moves at once; Black's 2 s run out.
    let (id, white, _black) = s
        .friend_game("chess", json!({"initial": 2, "increment": 0}))
        .await;
    s.ok(&id, &white, "move/e2e4", None).await;
    let deadline = tokio::time::Instant::now() + common::PATIENCE;
    while s.full(&id, None).await["status"] != "finished" {
        assert!(
            tokio::time::Instant::now() < deadline,
            "black never flagged"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let flagged = record(&s, &id).await;
    let verified = s.verify(&flagged.to_string()).expect("verifies");
    assert_eq!(verified.ending, Some(("1-0".into(), Reason::Time)));
    let mut flipped = flagged.clone();
    last(&mut flipped)["result"] = "0-1".into();
    assert!(refused(&s, &flipped).contains("white lost on time, but its clock was not running"));
    let mut refilled = flagged.clone();
    events(&mut refilled)[4]["clocks"]["white_ms"] = 9_000.into();
    assert!(
        refused(&s, &refilled).contains("white's clock went up from 2000 ms to 9000 ms"),
        "{}",
        refused(&s, &refilled)
    );

    // An offer, a move, the acceptance.
    let (id, white, black) = s.friend_game("chess", Value::Null).await;
    s.ok(&id, &white, "draw/yes", None).await;
    s.ok(&id, &white, "move/e2e4", None).await;
    s.ok(&id, &black, "draw/yes", None).await;
    let agreed = record(&s, &id).await;
    let verified = s.verify(&agreed.to_string()).expect("verifies");
    assert_eq!(verified.ending, Some(("1/2-1/2".into(), Reason::Agreement)));
    let unoffered = delete_first(&agreed, "draw_offer");
    assert!(refused(&s, &unoffered).contains("a draw by agreement without a standing offer"));
}
