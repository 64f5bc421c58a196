//! Two `parity bot` processes play a parity game through `parity serve`
//! by commit and reveal: one bot's account challenges the other over
//! lichess's API, the other's bot accepts, both play to the end and stop
//! (`--games 1`); the game's record holds both sides' commitments and
//! reveals, and lichess's export names both bots.

use crate::common;

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

fn start_bot(base: &str, token: &str) -> Child {
    Command::new(env!("CARGO_BIN_EXE_parity"))
        .args([
            "bot", "--server", base, "--token", token, "--level", "1", "--games", "1",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("parity bot starts")
}

/// Waits for `child` to end by itself, or kills it after `limit`.
fn wait(child: &mut Child, limit: Duration) -> bool {
    let start = Instant::now();
    while start.elapsed() < limit {
        if let Some(status) = child.try_wait().expect("bot state") {
            return status.success();
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let _ = child.kill();
    false
}

#[test]
fn two_bots_play_a_parity_game_by_commit_and_reveal() {
    let db = common::temp("bot", "bots.sqlite");
    let db_arg = db.to_str().unwrap();
    let (a, b) = (
        common::bot_token(db_arg, "BotA"),
        common::bot_token(db_arg, "BotB"),
    );
    let (mut server, base) = common::serve(&db, &[]);
    let mut bots = [start_bot(&base, &a), start_bot(&base, &b)];
    let http = reqwest::blocking::Client::new();
    let challenge: serde_json::Value = http
        .post(format!("{base}/api/challenge/botb"))
        .bearer_auth(&a)
        .header("Content-Type", "application/x-www-form-urlencoded")
        .body("variant=parity&rated=false")
        .send()
        .and_then(|r| r.json())
        .expect("challenge made");
    let id = challenge["id"]
        .as_str()
        .expect("a challenge id")
        .to_string();
    let ended = bots
        .iter_mut()
        .map(|bot| wait(bot, Duration::from_secs(240)))
        .collect::<Vec<_>>();
    let game: serde_json::Value = http
        .get(format!("{base}/api/games/{id}"))
        .send()
        .and_then(|r| r.json())
        .expect("the game");
    let record = http
        .get(format!("{base}/api/games/{id}/record"))
        .send()
        .and_then(|r| r.text())
        .expect("the record");
    let export: serde_json::Value = http
        .get(format!("{base}/game/export/{id}"))
        .header("Accept", "application/json")
        .send()
        .and_then(|r| r.json())
        .expect("the export");
    server.kill().expect("server stopped");
    server.wait().expect("server reaped");
    let said: Vec<String> = bots
        .iter_mut()
        .map(|bot| {
            let mut text = String::new();
            if let Some(mut err) = bot.stderr.take() {
                let _ = std::io::Read::read_to_string(&mut err, &mut text);
            }
            text
        })
        .collect();
    assert_eq!(
        ended,
        [true, true],
        "both bots end after their game: {said:?}"
    );
    assert_eq!(game["status"], "finished", "{game}");
    assert!(game["turn"].as_u64().unwrap() > 3, "a real game: {game}");
    for side in ["white", "black"] {
        for kind in ["committed", "revealed"] {
            assert!(
                record.contains(&format!("\"type\":\"{kind}\",\"color\":\"{side}\"")),
                "no {kind} event of {side} in the record"
            );
        }
    }
    let names = [
        export["players"]["white"]["user"]["name"].as_str(),
        export["players"]["black"]["user"]["name"].as_str(),
    ];
    assert!(
        names == [Some("BotA"), Some("BotB")] || names == [Some("BotB"), Some("BotA")],
        "{export}"
    );
}
