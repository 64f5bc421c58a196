//! The settings page in headless Chromium: a guest's board colours, piece
//! set and sounds kept in the browser and applied to a game; confirming a
//! simultaneous move before it is committed; an account's settings kept on
//! the server and found again in another browser; its e-mail address and
//! the header's bell telling of a challenge.
//!
//! Needs Debian's `chromium` and `chromium-driver`; without them this test
//! fails, it never skips.

use crate::common;

use common::browser::*;
use common::start_server;
use fantoccini::key::Key;
use serde_json::{json, Value};

/// The computed fill of the first square of `class` (light or dark).
async fn square_fill(page: &Page, class: &str) -> String {
    let script = "return getComputedStyle(document.querySelector(arguments[0])).fill;";
    let fill: Value = page
        .client
        .execute(script, vec![json!(format!(".sq.{class}:not(.last)"))])
        .await
        .expect("the style reads");
    fill.as_str().unwrap_or_default().to_string()
}

async fn sign_up(page: &Page, name: &str) {
    page.goto("/").await;
    let status = page
        .client
        .execute_async(
            "const done = arguments[arguments.length - 1];
             fetch('/api/signup', {method: 'POST', headers: {'Content-Type': 'application/json'},
               body: JSON.stringify({username: arguments[0], password: 'correct horse battery'})})
               .then(r => done(r.status), e => done(String(e)));",
            vec![json!(name)],
        )
        .await
        .unwrap();
    assert_eq!(status, json!(200), "sign-up of {name}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn settings_change_the_page_and_follow_the_account() {
    let dir = tempfile::tempdir().unwrap();
    let (_driver_process, driver) = start_chromedriver();
    let base = start_server(dir.path()).await;

    // A guest: blue squares, letters for pieces, no sound.
    let guest = Page::open(&driver, &base, &dir.path().join("guest"), (1280, 900)).await;
    guest.goto("/settings").await;
    guest
        .wait_text(".settings .where", "Saved in this browser")
        .await;
    guest.click("input[name='theme'][value='blue']").await;
    guest.click("input[name='pieceSet'][value='letters']").await;
    guest.click("input[name='sound']").await;
    guest.wait_text(".settings .saved", "Saved.").await;
    guest.find(".preview .pc .glyph").await;
    guest.screenshot("settings.png").await;

    let id = guest.create_game("chess", "days", "engine", "white").await;
    assert_eq!(square_fill(&guest, "dark").await, "rgb(125, 152, 171)");
    assert_eq!(square_fill(&guest, "light").await, "rgb(222, 227, 230)");
    // Every piece is its letter: no drawn bodies.
    guest.find("[data-piece='white king'] .glyph").await;
    guest.wait_text("[data-action='mute']", "Sound off").await;
    guest.screenshot("settings-game.png").await;
    // Kept across a reload.
    guest.goto(&format!("/game/{id}")).await;
    guest.find("[data-piece='white king'] .glyph").await;
    assert_eq!(square_fill(&guest, "dark").await, "rgb(125, 152, 171)");

    // Confirming a simultaneous move: nothing is committed before "Commit".
    guest.goto("/settings").await;
    guest.click("input[name='confirmCommit']").await;
    guest.wait_text(".settings .saved", "Saved.").await;
    let id = guest.create_game("parity", "days", "engine", "white").await;
    guest.play("e2", "e4").await;
    guest.wait_text(".chooser-title", "Commit e4?").await;
    let full = guest.game_full(&id).await;
    assert!(
        full["committed"]["white"] != true,
        "committed before confirming: {full}"
    );
    guest.click(".chooser-cancel").await;
    guest.wait_count(".chooser", 0).await;
    guest.play("e2", "e4").await;
    guest.click(".chooser button[data-choice='commit']").await;
    guest.find(".moves li[data-turn='1']").await;

    // An account: its settings live on the server.
    let first = Page::open(&driver, &base, &dir.path().join("first"), (1280, 900)).await;
    sign_up(&first, "Painter").await;
    first.goto("/settings").await;
    first
        .wait_text(".settings .where", "Saved with your account, Painter")
        .await;
    first.click("input[name='theme'][value='green']").await;
    first.wait_text(".settings .saved", "Saved.").await;
    let second = Page::open(&driver, &base, &dir.path().join("second"), (1280, 900)).await;
    second.goto("/").await;
    let logged = second
        .client
        .execute_async(
            "const done = arguments[arguments.length - 1];
             fetch('/api/login', {method: 'POST', headers: {'Content-Type': 'application/json'},
               body: JSON.stringify({username: 'Painter', password: 'correct horse battery'})})
               .then(r => done(r.status), e => done(String(e)));",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(logged, json!(200));
    second.goto("/settings").await;
    second
        .find("input[name='theme'][value='green']:checked")
        .await;
    second.create_game("chess", "days", "engine", "white").await;
    assert_eq!(square_fill(&second, "dark").await, "rgb(118, 150, 86)");
    // Notifications: an e-mail address (this server sends no mail, and
    // says so), and the bell telling of a challenge.
    first.goto("/settings").await;
    first
        .wait_text(".settings .mail-off", "This server sends no mail")
        .await;
    let email = first.find("input[name='email']").await;
    email
        .send_keys(&format!("painter@example.org{}", char::from(Key::Tab)))
        .await
        .unwrap();
    first.wait_text(".settings .saved", "Saved.").await;
    first.click("input[name='notifyEmail']").await;
    first.find("input[name='notifyEmail']:checked").await;
    // Pushes: the choice is there, and the service worker is served.
    first.find("input[name='push']").await;
    let worker = first
        .client
        .execute_async(
            "const done = arguments[arguments.length - 1];
             fetch('/sw.js').then(async r => done([r.headers.get('content-type'), await r.text()]),
               e => done(String(e)));",
            vec![],
        )
        .await
        .unwrap();
    assert!(
        worker[0].as_str().unwrap().contains("javascript"),
        "{worker}"
    );
    assert!(
        worker[1].as_str().unwrap().contains("showNotification"),
        "{worker}"
    );
    sign_up(&guest, "Sitter").await;
    let challenged = guest
        .client
        .execute_async(
            "const done = arguments[arguments.length - 1];
             fetch('/api/challenge/painter', {method: 'POST',
               headers: {'Content-Type': 'application/x-www-form-urlencoded'}, body: 'days=3'})
               .then(r => done(r.status), e => done(String(e)));",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(challenged, json!(200));
    first.goto("/").await;
    first.wait_text("nav.bell .bell-count", "1").await;
    first.click("nav.bell .bell-button").await;
    first
        .wait_text(
            "nav.bell .bell-list li[data-kind='challenge']",
            "Sitter challenges you to chess",
        )
        .await;
    first.screenshot("bell.png").await;
    first.wait_hidden("nav.bell .bell-count").await;
    let prefs = first
        .client
        .execute_async(
            "const done = arguments[arguments.length - 1];
             fetch('/api/account/preferences').then(r => r.json()).then(done, e => done(String(e)));",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(prefs["prefs"]["email"], "painter@example.org", "{prefs}");
    assert_eq!(prefs["prefs"]["notifyEmail"], true, "{prefs}");
    for page in [&guest, &first, &second] {
        let errors = page.console_errors().await;
        assert!(errors.is_empty(), "{errors:?}");
    }
    for page in [guest, first, second] {
        page.client.close().await.unwrap();
    }
}
