//! The web page end to end in headless Chromium, driven over WebDriver
//! (chromedriver) against the server and its embedded page: two browsers
//! with separate profiles play a simultaneous game through the page (invite
//! link, commit-reveal, a typed move, a failed capture, a shared square,
//! resignation, a draw declined, a rematch aborted), and one plays the engine on the 12x8 board.
//! A committed move outlives its tab and its browser: revealed from a new
//! tab, and after a browser restart; a second tab knows it too; another
//! device holding the seat says at once that the move is not there.
//! Screenshots go to `target/screenshots/`.
//!
//! Needs Debian's `chromium` and `chromium-driver` (`scripts/test` installs
//! them); without them this test fails, it never skips.

use crate::common;

use common::browser::*;
use common::start_server;
use std::path::Path;

async fn simultaneous_game(driver: &str, base: &str, dir: &Path) {
    let white = Page::open(driver, base, &dir.join("white"), (1280, 900)).await;
    // Black on a phone-sized window: the board scales to the width.
    let black = Page::open(driver, base, &dir.join("black"), (412, 915)).await;

    let (id, invite) = friend_game(&white, &black, "parity").await;
    assert!(invite.contains(&format!("/game/{id}?invite=")), "{invite}");
    let url = black.client.current_url().await.unwrap();
    assert!(
        !url.as_str().contains("invite"),
        "the invite stays in the address: {url}"
    );
    assert_eq!(black.game_full(&id).await["you"], "black");

    play_turn(
        &white,
        &black,
        1,
        ("e2", "e4"),
        Move::Click("d7", "d5"),
        None,
    )
    .await;
    // The waiting rule: both pawns that just moved carry the marker.
    white.find("[data-waiting='white']").await;
    white.find("[data-waiting='black']").await;
    play_turn(&white, &black, 2, ("g1", "f3"), Move::Typed("b8c6"), None).await;
    // exd5 while the d-pawn steps to d4: White's capture fails.
    play_turn(
        &white,
        &black,
        3,
        ("e4", "d5"),
        Move::Click("d5", "d4"),
        Some(("committed-white.png", "committed-black-view.png")),
    )
    .await;
    for page in [&white, &black] {
        page.wait_text(".notes [data-notes='white']", "failed capture")
            .await;
    }
    // Both knights land on e5: a shared square.
    play_turn(
        &white,
        &black,
        4,
        ("f3", "e5"),
        Move::Click("c6", "e5"),
        None,
    )
    .await;
    for page in [&white, &black] {
        page.find("[data-on='e5'][data-piece='white knight']").await;
        page.find("[data-on='e5'][data-piece='black knight']").await;
        page.wait_text(".notes [data-notes='black']", "shares e5")
            .await;
    }
    white.screenshot("shared-square.png").await;
    black.screenshot("shared-square-phone.png").await;

    // A draw offered and declined.
    white.click("[data-action='draw']").await;
    black.wait_text(".offer", "White offers a draw").await;
    black.click(".offer [data-answer='draw/no']").await;
    white.wait_hidden(".offer").await;

    white_resigns(&white, &black).await;
    // The ending in the rules' words, the same the server stores by name.
    // Each seated player reads the end in their own words.
    white
        .wait_text(".status", "You lost by resignation (0-1).")
        .await;
    black
        .wait_text(".status", "You won by resignation (0-1).")
        .await;

    // A rematch: both pages follow to the new game, which one side aborts.
    white.click("[data-action='rematch']").await;
    black
        .wait_text("[data-action='rematch']", "Accept rematch")
        .await;
    black.click("[data-action='rematch']").await;
    for page in [&white, &black] {
        page.wait_url_change(&id).await;
        page.find(".game[data-status='started']").await;
    }
    assert_eq!(white.game_id().await, black.game_id().await);
    white.click("[data-action='abort']").await;
    let aborted = format!("Game over: * ({}).", parity_rules::Reason::Abort.text());
    for page in [&white, &black] {
        page.wait_text(".status", &aborted).await;
    }
    white.client.close().await.unwrap();
    black.client.close().await.unwrap();
}

async fn engine_game_on_12x8(driver: &str, base: &str, dir: &Path) {
    let page = Page::open(driver, base, &dir.join("solo"), (1280, 900)).await;
    let id = page
        .create_game("parity12", "live", "engine", "white")
        .await;
    page.find("svg.board[data-files='12'][data-ranks='8']")
        .await;
    for n in 1..=3 {
        page.wait_text(".status", "Your move.").await;
        let full = page.game_full(&id).await;
        let legal: Vec<String> =
            serde_json::from_value(full["legal"]["white"].clone()).expect("legal moves");
        // A pawn step if there is one (deterministic), else the first move.
        let chosen = legal
            .iter()
            .find(|m| m.len() == 4 && m.ends_with('3') && m[1..2] == *"2")
            .or(legal.first())
            .expect("a legal move")
            .clone();
        page.play(&chosen[0..2], &chosen[2..4]).await;
        page.wait_count(".moves .mv", 2 * n).await;
    }
    page.wait_text(".status", "Your move.").await;
    page.screenshot("parity12-engine.png").await;
    page.client.close().await.unwrap();
}

/// Waits until a turn has resolved on every page.
async fn turn_resolves(pages: &[&Page], turn: usize) {
    for page in pages {
        page.find(&format!(".moves li[data-turn='{turn}']")).await;
        page.wait_text(".status", &format!("Turn {}", turn + 1))
            .await;
    }
}

async fn commitments_survive_the_browser(driver: &str, base: &str, dir: &Path) {
    let profile = dir.join("keeper");
    let mut white = Page::open(driver, base, &profile, (1280, 900)).await;
    let black = Page::open(driver, base, &dir.join("keeper-opponent"), (1280, 900)).await;
    let (id, _) = friend_game(&white, &black, "parity").await;
    let game = format!("/game/{id}");

    // Turn 1: White commits and closes the tab; Black commits; a new tab
    // of White's browser reveals the move.
    white.play("e2", "e4").await;
    white
        .wait_text(".status", "committed, waiting for opponent")
        .await;
    assert!(
        white.warns_before_unload().await,
        "no warning before leaving"
    );
    let key = format!("parity_commit:{id}:1:white");
    assert!(white.local_storage_keys().await.contains(&key));
    white.close_tab().await;
    black.play("d7", "d5").await;
    black.wait_text(".status", "both committed").await;
    white.goto(&game).await;
    turn_resolves(&[&white, &black], 1).await;
    white.screenshot("revealed-from-a-new-tab.png").await;
    assert!(
        !white.warns_before_unload().await,
        "a warning with nothing to lose"
    );
    white
        .wait_for("the turn's secret to go", async || {
            (!white.local_storage_keys().await.contains(&key)).then_some(())
        })
        .await;

    // Turn 2: the whole browser restarts in between.
    white.play("g1", "f3").await;
    white
        .wait_text(".status", "committed, waiting for opponent")
        .await;
    white.client.close().await.expect("the browser quits");
    black.play("b8", "c6").await;
    black.wait_text(".status", "both committed").await;
    white = Page::open(driver, base, &profile, (1280, 900)).await;
    white.goto(&game).await;
    turn_resolves(&[&white, &black], 2).await;

    // Turn 3: a second tab of White's browser knows the move too; another
    // device holds White's seat but not the move: it says so at once, and
    // the browser that has the move reveals it.
    white.play("e4", "e5").await;
    white
        .wait_text(".status", "committed, waiting for opponent")
        .await;
    let second_tab = white.client.new_window(true).await.expect("a new tab");
    white
        .client
        .switch_to_window(second_tab.handle)
        .await
        .unwrap();
    white.goto(&game).await;
    white
        .wait_text(".status", "committed, waiting for opponent")
        .await;
    white.wait_count(".sq.pending", 2).await;
    let seat = white
        .client
        .get_all_cookies()
        .await
        .unwrap()
        .into_iter()
        .find(|c| c.name() == format!("parity_seat_{id}"))
        .expect("White's seat cookie");
    let elsewhere = Page::open(driver, base, &dir.join("other-device"), (412, 915)).await;
    elsewhere.goto("/").await;
    elsewhere.client.add_cookie(seat).await.unwrap();
    elsewhere.goto(&game).await;
    let said = elsewhere
        .wait_text(".status", "is not on this device")
        .await;
    assert!(
        said.contains("turn 3") && said.contains("no reveal"),
        "{said}"
    );
    assert!(
        !elsewhere.warns_before_unload().await,
        "a warning with nothing to lose"
    );
    elsewhere.screenshot("move-on-another-device.png").await;
    black.play("a7", "a6").await;
    turn_resolves(&[&white, &black, &elsewhere], 3).await;
    white.wait_hidden("aside.panel > .error").await;
    for page in [white, black, elsewhere] {
        page.client.close().await.unwrap();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_plays_simultaneous_and_engine_games() {
    let dir = tempfile::tempdir().unwrap();
    let (_driver_process, driver) = start_chromedriver();
    let base = start_server(dir.path()).await;
    simultaneous_game(&driver, &base, dir.path()).await;
    commitments_survive_the_browser(&driver, &base, dir.path()).await;
    engine_game_on_12x8(&driver, &base, dir.path()).await;
}
