//! Every bad request gets its 4xx with `{"error": ...}` and changes
//! nothing: the game's record (its whole event log) is byte for byte the
//! same before and after.

use crate::common;

use common::*;
use serde_json::{json, Value};

/// Checks an answer's status and error body, and that the game's log did not move.
async fn refused(s: &TestServer, id: &str, before: &str, answer: Answer, status: u16, what: &str) {
    assert_eq!(answer.status, status, "{what}: {}", answer.text);
    assert!(answer.body["error"].is_string(), "{what}: {}", answer.text);
    let after = s.get(&format!("/api/games/{id}/record"), None).await.text;
    assert_eq!(after, before, "{what} changed the game");
}

async fn record(s: &TestServer, id: &str) -> String {
    s.get(&format!("/api/games/{id}/record"), None).await.text
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_creations_and_unknown_games() {
    let s = start().await;
    let raw = s
        .send(s.http.post(s.url("/api/games")).body("{not json"))
        .await;
    assert_eq!(raw.status, 400, "{}", raw.text);
    for (request, what) in [
        (
            json!({"variant": "nonesuch", "opponent": "friend"}),
            "unknown variant",
        ),
        (
            json!({"variant": "chess", "opponent": "robot"}),
            "bad opponent",
        ),
        (
            json!({"variant": "chess", "opponent": {"engine": {"level": 9}}}),
            "level 9",
        ),
        (
            json!({"variant": "chess", "opponent": "friend", "clock": {"initial": 60, "increment": 0}, "days": 3}),
            "clock and days",
        ),
        (
            json!({"variant": "chess", "opponent": "friend", "color": "green"}),
            "bad colour",
        ),
        (json!({"variant": "chess"}), "no opponent"),
    ] {
        let a = s.post("/api/games", None, Some(request)).await;
        assert_eq!(a.status, 400, "{what}: {}", a.text);
        assert!(a.body["error"].is_string());
    }
    assert!(s
        .get("/api/games?status=live", None)
        .await
        .body
        .as_array()
        .unwrap()
        .is_empty());
    for path in [
        "/api/games/zzzzzzzzzz",
        "/api/games/not-an-id",
        "/api/games/zzzzzzzzzz/record",
        "/api/nothing",
    ] {
        let a = s.get(path, None).await;
        assert_eq!(a.status, 404, "{path}: {}", a.text);
        assert!(a.body["error"].is_string());
    }
    let a = s
        .post("/api/board/game/zzzzzzzzzz/resign", Some("token"), None)
        .await;
    assert_eq!(a.status, 404, "{}", a.text);
    let a = s.get("/api/games?status=sideways", None).await;
    assert_eq!(a.status, 400, "{}", a.text);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_seat_actions_in_a_turn_based_game() {
    let s = start().await;
    let created = s
        .create(json!({"variant": "chess", "opponent": "friend", "color": "white"}))
        .await;
    let id = created["id"].as_str().unwrap().to_string();
    let white = created["token"].as_str().unwrap().to_string();
    let invite = created["invite"].as_str().unwrap().to_string();

    // Before the friend joins: the creator sees the invite link, nobody else does.
    let full = s.full(&id, Some(&white)).await;
    assert_eq!(full["status"], "waiting");
    assert_eq!(full["invite"], format!("/game/{id}?invite={invite}"));
    assert_eq!(s.full(&id, None).await["invite"], Value::Null);
    let before = record(&s, &id).await;
    let a = s
        .post(
            &format!("/api/games/{id}/join"),
            None,
            Some(json!({"invite": "nope"})),
        )
        .await;
    refused(&s, &id, &before, a, 403, "a wrong invite").await;
    let a = s
        .send(
            s.http
                .post(s.url(&format!("/api/games/{id}/join")))
                .body("["),
        )
        .await;
    refused(&s, &id, &before, a, 400, "a join with bad JSON").await;
    let a = s.act(&id, &white, "move/e2e4", None).await;
    refused(&s, &id, &before, a, 409, "a move before the game starts").await;

    let joined = s
        .post(
            &format!("/api/games/{id}/join"),
            None,
            Some(json!({"invite": invite})),
        )
        .await;
    assert_eq!(joined.status, 200, "{}", joined.text);
    let black = joined.body["token"].as_str().unwrap().to_string();
    assert_eq!(s.full(&id, Some(&white)).await["invite"], Value::Null);
    let before = record(&s, &id).await;
    let a = s
        .post(
            &format!("/api/games/{id}/join"),
            None,
            Some(json!({"invite": invite})),
        )
        .await;
    refused(&s, &id, &before, a, 403, "an invite used twice").await;

    // A token of another game makes its holder a spectator here.
    let other = s
        .create(json!({"variant": "chess", "opponent": "friend"}))
        .await["token"]
        .as_str()
        .unwrap()
        .to_string();

    let unauthenticated = s
        .post(&format!("/api/board/game/{id}/move/e2e4"), None, None)
        .await;
    refused(&s, &id, &before, unauthenticated, 401, "no token").await;
    for (token, what, status, expected) in [
        ("garbage-token", "move/e2e4", "a wrong token", 401),
        (other.as_str(), "move/e2e4", "a spectator's move", 403),
        (other.as_str(), "resign", "a spectator's resignation", 403),
        (white.as_str(), "move/e2e5", "an illegal move", 422),
        (black.as_str(), "move/e7e5", "a move out of turn", 409),
        (white.as_str(), "move/zz9", "a garbled move", 400),
        (white.as_str(), "draw/no", "declining no offer", 409),
        (
            white.as_str(),
            "draw/maybe",
            "a draw answer that is neither",
            404,
        ),
        (white.as_str(), "dance", "an unknown action", 404),
        (
            white.as_str(),
            "rematch",
            "a rematch of a running game",
            409,
        ),
    ] {
        let a = s.act(&id, token, what, None).await;
        refused(&s, &id, &before, a, expected, status).await;
    }
    let commit = json!({"commitment": "ab".repeat(32)});
    let a = s.act(&id, &white, "commit", Some(commit)).await;
    refused(
        &s,
        &id,
        &before,
        a,
        409,
        "a commitment in a turn-based game",
    )
    .await;
    let a = s
        .send(
            s.http
                .post(s.url(&format!("/api/board/game/{id}/commit")))
                .bearer_auth(&white)
                .body("{\"commitment\":"),
        )
        .await;
    refused(&s, &id, &before, a, 400, "bad JSON").await;
    let a = s
        .get(&format!("/api/games/{id}/stream?since=abc"), None)
        .await;
    refused(&s, &id, &before, a, 400, "a bad since").await;

    // After all that the game goes on as if nothing happened.
    s.ok(&id, &white, "move/e2e4", None).await;
    s.ok(&id, &black, "move/e7e5", None).await;
    let before = record(&s, &id).await;
    let a = s.act(&id, &white, "abort", None).await;
    refused(&s, &id, &before, a, 409, "an abort after both moved").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_commitments_and_reveals() {
    let s = start().await;
    let (id, white, black) = s.friend_game("parity", Value::Null).await;
    let turn = 1;
    let (wn, bn) = (nonce(1), nonce(2));
    let wc = commitment(&id, turn, "white", "e2e4", &wn);
    let bc = commitment(&id, turn, "black", "e7e6", &bn);
    let before = record(&s, &id).await;
    for (body, status, what) in [(
        json!({"move": "e2e4", "nonce": wn}),
        409,
        "a reveal before any commitment",
    )] {
        let a = s.act(&id, &white, "reveal", Some(body)).await;
        refused(&s, &id, &before, a, status, what).await;
    }
    for (body, status, what) in [
        (json!({"commitment": "xyz"}), 400, "a malformed commitment"),
        (
            json!({"commitment": wc.to_uppercase()}),
            400,
            "an uppercase commitment",
        ),
        (
            json!({"hash": wc}),
            400,
            "a commitment under the wrong name",
        ),
    ] {
        let a = s.act(&id, &white, "commit", Some(body)).await;
        refused(&s, &id, &before, a, status, what).await;
    }
    let a = s.act(&id, &white, "move/e2e4", None).await;
    refused(
        &s,
        &id,
        &before,
        a,
        409,
        "a plain move in a simultaneous game",
    )
    .await;

    s.ok(&id, &white, "commit", Some(json!({"commitment": wc})))
        .await;
    let before = record(&s, &id).await;
    let again = s
        .act(&id, &white, "commit", Some(json!({"commitment": bc})))
        .await;
    refused(&s, &id, &before, again, 409, "a second commitment").await;
    let early = s
        .act(
            &id,
            &white,
            "reveal",
            Some(json!({"move": "e2e4", "nonce": wn})),
        )
        .await;
    refused(
        &s,
        &id,
        &before,
        early,
        409,
        "a reveal before both commitments",
    )
    .await;

    s.ok(&id, &black, "commit", Some(json!({"commitment": bc})))
        .await;
    let before = record(&s, &id).await;
    for (body, status, what) in [
        (
            json!({"move": "e2e4", "nonce": bn}),
            422,
            "a reveal with the wrong nonce",
        ),
        (
            json!({"move": "d2d4", "nonce": wn}),
            422,
            "a reveal of another move",
        ),
        (
            json!({"move": "e2e4", "nonce": "not hex"}),
            400,
            "a malformed nonce",
        ),
        (json!({"move": "e2e4"}), 400, "a reveal without nonce"),
    ] {
        let a = s.act(&id, &white, "reveal", Some(body)).await;
        refused(&s, &id, &before, a, status, what).await;
    }

    // The WebSocket answers the same way. A spectator's socket cannot act:
    // its messages are refused unread (so not even their `id` comes back).
    let mut spectator = s.websocket(&id, None, None).await;
    for message in [json!({"id": 1, "t": "resign"}).to_string(), "{oops".into()] {
        spectator.send_raw(&message);
        let answer = spectator
            .lines
            .until("an error", |v| v["type"] == "error")
            .await;
        assert_eq!(
            (answer["status"].as_u64(), &answer["id"]),
            (Some(403), &Value::Null),
            "{message}: {answer}"
        );
    }
    let mut ws = s.websocket(&id, Some(&white), None).await;
    ws.send_raw("{oops");
    let bad = ws
        .lines
        .until("an error", |v| v["type"] == "error" && v["status"] == 400)
        .await;
    assert_eq!(bad["id"], Value::Null);
    let answer = ws.act(json!({"t": "fly"})).await;
    assert_eq!(answer["status"], 400, "{answer}");
    let answer = ws
        .act(json!({"t": "reveal", "move": "e2e4", "nonce": bn}))
        .await;
    assert_eq!(answer["status"], 422, "{answer}");
    let answer = ws.act(json!({"t": "commit", "commitment": wc})).await;
    assert_eq!(answer["status"], 409, "{answer}");
    assert_eq!(
        record(&s, &id).await,
        before,
        "the WebSocket's refusals changed the game"
    );

    // Both reveal properly: the turn resolves.
    let ack = ws
        .act(json!({"t": "reveal", "move": "e2e4", "nonce": wn}))
        .await;
    assert_eq!(ack["type"], "ack", "{ack}");
    s.reveal(&id, &black, "e7e6", &bn).await;
    assert_eq!(s.full(&id, None).await["turn"], 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_matching_reveal_of_an_illegal_move_is_refused_and_the_side_keeps_its_commitment() {
    let s = start().await;
    let (id, white, black) = s.friend_game("parity", Value::Null).await;
    let (wn, bn) = (nonce(1), nonce(2));
    let wc = commitment(&id, 1, "white", "e2e5", &wn);
    let bc = commitment(&id, 1, "black", "e7e5", &bn);
    s.ok(&id, &white, "commit", Some(json!({"commitment": wc})))
        .await;
    s.ok(&id, &black, "commit", Some(json!({"commitment": bc})))
        .await;
    let before = record(&s, &id).await;
    let a = s
        .act(
            &id,
            &white,
            "reveal",
            Some(json!({"move": "e2e5", "nonce": wn})),
        )
        .await;
    refused(
        &s,
        &id,
        &before,
        a,
        422,
        "a matching reveal of an illegal move",
    )
    .await;
    let full = s.full(&id, None).await;
    assert_eq!(full["committed"], json!({"white": true, "black": true}));
    assert_eq!(full["revealed"], json!({"white": false, "black": false}));
    // White cannot switch to another move either.
    let a = s
        .act(
            &id,
            &white,
            "reveal",
            Some(json!({"move": "e2e4", "nonce": wn})),
        )
        .await;
    refused(&s, &id, &before, a, 422, "a reveal of a move not committed").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn padded_and_reused_reveals_and_early_claims_are_refused() {
    let s = start().await;
    let (id, white, black) = s.friend_game("parity", Value::Null).await;
    // A commitment over padded move text: its reveal is a 400, nothing is
    // stored, and the error does not echo the padding.
    let padded = format!("e2e4{}", " ".repeat(1000));
    let wn = nonce(1);
    let wc = commitment(&id, 1, "white", &padded, &wn);
    s.ok(&id, &white, "commit", Some(json!({"commitment": wc})))
        .await;
    let bn = s.commit(&id, &black, "black", "e7e5", 2).await;
    let before = record(&s, &id).await;
    let a = s
        .act(
            &id,
            &white,
            "reveal",
            Some(json!({"move": padded, "nonce": wn})),
        )
        .await;
    assert!(a.text.len() < 500, "the error echoes the input: {}", a.text);
    refused(&s, &id, &before, a, 400, "a padded move").await;
    // Black revealed; without a clock it may claim the game only after the
    // reveal deadline.
    s.reveal(&id, &black, "e7e5", &bn).await;
    let before = record(&s, &id).await;
    let a = s.act(&id, &black, "claim-victory", None).await;
    assert!(a.text.contains("may still reveal"), "{}", a.text);
    refused(&s, &id, &before, a, 409, "a claim before the deadline").await;

    // A nonce of turn 1 used again in turn 2: the reveal is refused.
    let (id, white, black) = s.friend_game("parity", Value::Null).await;
    let wn = s.commit(&id, &white, "white", "e2e4", 3).await;
    let bn = s.commit(&id, &black, "black", "e7e5", 4).await;
    s.reveal(&id, &white, "e2e4", &wn).await;
    s.reveal(&id, &black, "e7e5", &bn).await;
    let again = s.commit(&id, &white, "white", "d2d4", 3).await;
    assert_eq!(again, wn);
    s.commit(&id, &black, "black", "d7d5", 5).await;
    let before = record(&s, &id).await;
    let a = s
        .act(
            &id,
            &white,
            "reveal",
            Some(json!({"move": "d2d4", "nonce": wn})),
        )
        .await;
    assert!(a.text.contains("nonce was already used"), "{}", a.text);
    refused(&s, &id, &before, a, 422, "a reused nonce").await;
}

/// The nodes' internal endpoint reads nothing without the cluster's
/// secret: a well-formed request that would play a move, sent by a client
/// without it, with a made-up one, or with the old forwarding header, is a
/// 401 and the game does not move.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_a_node_is_heard_on_the_internal_endpoint() {
    let s = start().await;
    let (id, white, _black) = s.friend_game("chess", Value::Null).await;
    let before = record(&s, &id).await;
    let forged = json!({
        "version": 1,
        "message": {
            "ask": "act",
            "game": id,
            "credentials": {
                "tokens": [{
                    "token": white,
                    "hash": parity_server::base::secret::token_hash(&white),
                    "other_cookie": false,
                }],
                "bearer": true,
            },
            "action": {"Move": "e2e4"},
        },
    });
    let url = s.url("/internal/node");
    for (request, what) in [
        (s.http.post(&url).json(&forged), "no secret"),
        (
            s.http
                .post(&url)
                .header("x-parity-node-secret", "0".repeat(64))
                .json(&forged),
            "a made-up secret",
        ),
        (
            s.http
                .post(&url)
                .header("x-parity-node-secret", "")
                .json(&forged),
            "an empty secret",
        ),
        (
            s.http
                .post(&url)
                .header("x-parity-forwarded", "1")
                .header("x-parity-client-ip", "10.9.8.7")
                .json(&forged),
            "the old forwarding headers",
        ),
        (s.http.post(&url).body("{garbled"), "garbled, no secret"),
    ] {
        let answer = s.send(request).await;
        refused(&s, &id, &before, answer, 401, what).await;
    }
    // The same seat plays through the public API: the refusals were not
    // for a move that could not be played.
    let seq = s.ok(&id, &white, "move/e2e4", None).await;
    assert!(seq > 0);
    assert_ne!(record(&s, &id).await, before);
}

/// A refusal is told in the request's language: `?lang=`, else
/// `Accept-Language`, else English (as API clients read it); a refused
/// move names the rules' reason in that language too.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn refusals_are_told_in_the_requests_language() {
    let s = start().await;
    let english = s.get("/api/games/nosuchgame", None).await;
    assert_eq!(english.status, 404);
    assert_eq!(english.body["error"], "no game nosuchgame");
    let french = s
        .send(
            s.http
                .get(s.url("/api/games/nosuchgame"))
                .header("Accept-Language", "fr-CH, fr;q=0.9, en;q=0.5"),
        )
        .await;
    assert_eq!(
        french.body["error"], "aucune partie nosuchgame",
        "{}",
        french.text
    );
    let asked = s.get("/api/games/nosuchgame?lang=fr", None).await;
    assert_eq!(asked.body["error"], "aucune partie nosuchgame");

    let (id, white, _) = s
        .friend_game("chess", json!({"initial": 300, "increment": 0}))
        .await;
    let before = record(&s, &id).await;
    let illegal = s.act(&id, &white, "move/e2e5", None).await;
    assert_eq!(
        illegal.body["error"], "`e2e5` is not a legal move here",
        "{}",
        illegal.text
    );
    let illegal = s.act(&id, &white, "move/e2e5?lang=fr", None).await;
    assert_eq!(
        illegal.body["error"], "`e2e5` n'est pas un coup légal ici",
        "{}",
        illegal.text
    );
    let theirs = s.act(&id, &white, "move/e7e5?lang=fr", None).await;
    assert_eq!(
        theirs.body["error"],
        "`e7e5` n'est pas un coup légal ici : la pièce en e7 n'est pas aux Blancs",
        "{}",
        theirs.text
    );
    refused(&s, &id, &before, theirs, 422, "a black pawn moved by White").await;
}
