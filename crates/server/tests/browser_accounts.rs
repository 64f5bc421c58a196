//! Accounts on the page in headless Chromium, two browsers (two profiles,
//! two players): both sign up in the header; Alice posts a rated seek in
//! the lobby, Bruno sees it in his and accepts, and both pages land on the
//! same game at once, each holding its own colour; they chat; after a
//! move each Alice resigns while Bruno has his profile open, whose rating
//! moves without a reload; each reads the end in their own words with
//! the rating change; Bruno's profile shows his changed, provisional
//! rating, the graph and the game; Alice makes a personal API token on her
//! profile and revokes it, then ends a second log-in of hers listed there.
//! Then direct challenges: Carla challenges Dora
//! from Dora's profile; Dora declines it in her lobby, Carla cancels the
//! next, and Dora accepts the third, which opens the game on both pages;
//! then both press the same quick-pairing button and meet in a new game.
//! Screenshots go to `target/screenshots/` (`accounts-signup-form-Alice.png`,
//! `accounts-signup.png`, `accounts-logged-out.png`, `accounts-seeks.png`,
//! `accounts-game.png`, `accounts-game-over.png`, `accounts-profile.png`, `accounts-tokens.png`,
//! `accounts-sessions.png`,
//! `challenges-form.png`, `challenges-incoming.png`,
//! `challenges-declined.png`, `challenges-quick-pairing.png`).
//!
//! Needs Debian's `chromium` and `chromium-driver`; without them this test
//! fails, it never skips.

use crate::common;

use common::browser::*;
use common::start_server;
use fantoccini::key::Key;
use serde_json::{json, Value};

const DESKTOP: (u32, u32) = (1366, 900);

async fn sign_up(page: &Page, name: &str) {
    page.goto("/").await;
    page.click("nav.account [data-mode='signup']").await;
    page.find(".login-form input[name='username']")
        .await
        .send_keys(name)
        .await
        .unwrap();
    page.screenshot(&format!("accounts-signup-form-{name}.png"))
        .await;
    page.find(".login-form input[name='password']")
        .await
        .send_keys(&format!("pw-of-{name}{}", char::from(Key::Enter)))
        .await
        .unwrap();
    page.wait_text("nav.account .me", name).await;
}

/// Runs `fetch(path, {method})` in the page (its cookies); the JSON answer.
async fn fetch(page: &Page, method: &str, path: &str) -> Value {
    let script = "const done = arguments[arguments.length - 1];
        fetch(arguments[1], {method: arguments[0]}).then(r => r.json()).then(done, e => done(String(e)));";
    page.client
        .execute_async(script, vec![json!(method), json!(path)])
        .await
        .expect("fetch runs")
}

async fn game_page_id(page: &Page) -> String {
    page.wait_for("the game page", async || {
        let url = page.client.current_url().await.ok()?;
        url.path().starts_with("/game/").then_some(())
    })
    .await;
    page.find(".game[data-status='started']").await;
    page.game_id().await
}

#[tokio::test(flavor = "multi_thread")]
async fn seeks_games_ratings_and_tokens_on_the_page() {
    let dir = tempfile::tempdir().unwrap();
    let base = start_server(dir.path()).await;
    let (_driver, driver_url) = start_chromedriver();
    let alice = Page::open(&driver_url, &base, &dir.path().join("alice"), DESKTOP).await;
    let bruno = Page::open(&driver_url, &base, &dir.path().join("bruno"), DESKTOP).await;

    sign_up(&alice, "Alice").await;
    alice.find("form.seek:not([hidden])").await;
    alice.screenshot("accounts-signup.png").await;

    // Alice seeks a rated correspondence game as White.
    alice
        .click("form.seek input[name='timing'][value='days']")
        .await;
    alice
        .find("form.seek select[name='color'] option[value='white']")
        .await
        .click()
        .await
        .unwrap();
    alice.click("form.seek button[type='submit']").await;
    alice
        .find("table.seek-list [data-seek-action='cancel']")
        .await;

    // Bruno (logged out, he sees the seek but no button) signs up and accepts.
    bruno.goto("/").await;
    bruno.wait_text("table.seek-list", "Alice").await;
    bruno.find(".seek-login:not([hidden])").await;
    bruno.screenshot("accounts-logged-out.png").await;
    sign_up(&bruno, "Bruno").await;
    let row = bruno.wait_text("table.seek-list", "Alice").await;
    assert!(
        row.contains("rated") && row.contains("3 days") && row.contains("white"),
        "{row}"
    );
    assert!(
        row.contains("1500?"),
        "the seeker's provisional rating: {row}"
    );
    bruno.screenshot("accounts-seeks.png").await;
    bruno
        .click("table.seek-list [data-seek-action='accept']")
        .await;

    // Both pages are on the one game, each in its own seat.
    let id = game_page_id(&bruno).await;
    assert_eq!(
        game_page_id(&alice).await,
        id,
        "Alice's page follows her event stream"
    );
    assert_eq!(alice.game_full(&id).await["you"], "white");
    assert_eq!(bruno.game_full(&id).await["you"], "black");
    alice.play("e2", "e4").await;
    bruno.wait_text(".moves", "e4").await;
    bruno
        .wait_text(".player[data-slot='top']", "Alice (1500?)")
        .await;
    bruno
        .wait_text(".player[data-slot='bottom']", "You, Bruno")
        .await;

    // The chat: Alice writes, Bruno reads.
    alice
        .find(".chat-say input")
        .await
        .send_keys(&format!("good luck{}", char::from(Key::Enter)))
        .await
        .unwrap();
    bruno.wait_text(".chat-lines", "good luck").await;
    assert!(bruno
        .wait_text(".chat-lines", "Alice")
        .await
        .contains("Alice"));
    bruno.screenshot("accounts-game.png").await;

    // Bruno answers (a rated game counts once each side has moved), then
    // Alice resigns with her log-in; the rated game moves both ratings.
    bruno.play("e7", "e5").await;
    alice.wait_text(".moves", "e5").await;
    // Alice's lobby lists her game, hers to move, against Bruno.
    alice.goto("/").await;
    let mine = alice
        .wait_text(
            &format!("section.my-games tr[data-game='{id}'].my-turn"),
            "Your turn",
        )
        .await;
    assert!(mine.contains("Bruno") && mine.contains("days"), "{mine}");
    alice
        .wait_text("nav.my-games .turn-badge", "1 your turn")
        .await;
    alice.goto(&format!("/game/{id}")).await;
    alice.find(".game[data-status='started']").await;
    // Bruno watches his own profile while the game ends: it moves
    // without a reload (issue 29, item 11).
    bruno.goto("/@/Bruno").await;
    bruno.find(".profile[data-user='bruno'] .standing").await;
    bruno
        .wait_count(".ratings [data-variant='standard']", 0)
        .await;
    tokio::time::sleep(std::time::Duration::from_secs(1)).await; // its event stream opens
    let resigned = fetch(&alice, "POST", &format!("/api/board/game/{id}/resign")).await;
    assert_eq!(resigned["ok"], true, "{resigned}");
    let rating = bruno
        .wait_text(".ratings [data-variant='standard'] .rating", "?")
        .await;
    // Each player reads the end in their own words, with the rating it
    // moved: Alice where she played, Bruno on opening the game again.
    let lost = alice
        .wait_text(".status", "You lost by resignation (0-1). Your rating: ")
        .await;
    assert!(lost.contains("(\u{2212}"), "{lost}");
    bruno.goto(&format!("/game/{id}")).await;
    let won = bruno
        .wait_text(".status", "You won by resignation (0-1). Your rating: ")
        .await;
    assert!(won.contains("(+"), "{won}");
    let alice_label = bruno
        .wait_text(".player[data-slot='top']", "Alice (1500? ")
        .await;
    assert!(alice_label.contains('\u{2212}'), "{alice_label}");
    bruno.screenshot("accounts-game-over.png").await;
    bruno.goto("/@/Bruno").await;
    bruno
        .wait_text(".ratings [data-variant='standard'] .rating", "?")
        .await;
    let value: f64 = rating.trim_end_matches('?').parse().unwrap();
    assert!(value > 1500.0, "the winner's rating went up: {rating}");
    bruno
        .find(&format!(
            "table.user-games tr[data-game='{id}'] a[href='/game/{id}']"
        ))
        .await;
    let result = bruno
        .wait_text(&format!("table.user-games tr[data-game='{id}']"), "won")
        .await;
    assert!(
        result.contains("Alice") && result.contains("rated"),
        "{result}"
    );
    bruno
        .find("svg.rating-graph polyline[data-variant='chess']")
        .await;
    bruno.find(".tokens").await;
    bruno.screenshot("accounts-profile.png").await;
    // Tokens are on one's own profile only.
    bruno.goto("/@/Alice").await;
    bruno
        .find(".profile[data-user='alice'] table.user-games")
        .await;
    bruno.wait_count(".tokens", 0).await;

    // Alice's own profile: her rating fell; she makes a token and revokes it.
    alice.goto("/@/alice").await;
    let rating = alice.wait_text(".ratings .rating", "?").await;
    assert!(
        rating.trim_end_matches('?').parse::<f64>().unwrap() < 1500.0,
        "{rating}"
    );
    alice
        .click(".tokens form.new-token button[type='submit']")
        .await;
    let token = alice
        .wait_for("the new token", async || {
            let value = alice.find("input.token").await.prop("value").await.ok()??;
            value.starts_with("pat_").then_some(value)
        })
        .await;
    alice.wait_count("table.token-list tr[data-hash]", 1).await;
    let account = alice
        .client
        .execute_async(
            "const done = arguments[arguments.length - 1];
             fetch('/api/account', {headers: {Authorization: 'Bearer ' + arguments[0]}, credentials: 'omit'})
               .then(r => r.json()).then(done, e => done(String(e)));",
            vec![json!(token)],
        )
        .await
        .unwrap();
    assert_eq!(account["id"], "alice", "the token works: {account}");
    alice.screenshot("accounts-tokens.png").await;
    alice.click("table.token-list .revoke").await;
    alice.wait_count("table.token-list tr[data-hash]", 0).await;

    // Alice logs in from a second client (its cookie not this page's):
    // her profile lists both log-ins, and she ends the other one.
    let second = alice
        .client
        .execute_async(
            "const done = arguments[arguments.length - 1];
             fetch('/api/login', {method: 'POST', credentials: 'omit',
                                  headers: {'Content-Type': 'application/json'},
                                  body: JSON.stringify({username: 'Alice', password: 'pw-of-Alice'})})
               .then(r => done(r.status), e => done(String(e)));",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(second, json!(200), "the second log-in");
    alice.goto("/@/alice").await;
    alice
        .wait_count("table.session-list tr[data-hash]", 2)
        .await;
    let current = alice.wait_text("table.session-list", "this one").await;
    assert!(current.contains("Chrom"), "the browser is named: {current}");
    alice
        .client
        .execute(
            "document.querySelector('.sessions').scrollIntoView()",
            vec![],
        )
        .await
        .unwrap();
    alice.screenshot("accounts-sessions.png").await;
    alice.click("table.session-list .end-session").await;
    alice
        .wait_count("table.session-list tr[data-hash]", 1)
        .await;
    let listed = fetch(&alice, "GET", "/api/account/sessions").await;
    assert_eq!(listed.as_array().map(Vec::len), Some(1), "{listed}");
    assert_eq!(listed[0]["current"], true, "{listed}");

    for page in [&alice, &bruno] {
        let errors = page.console_errors().await;
        assert!(errors.is_empty(), "{errors:?}");
    }
}

/// Carla's challenge form on Dora's profile: 5+3, rated, Carla Black.
async fn send_challenge(carla: &Page) {
    carla
        .find("form.challenge-form select[name='color'] option[value='black']")
        .await
        .click()
        .await
        .unwrap();
    carla
        .click("form.challenge-form button[type='submit']")
        .await;
    carla
        .wait_text(".challenge-status", "Waiting for Dora")
        .await;
}

#[tokio::test(flavor = "multi_thread")]
async fn direct_challenges_and_quick_pairing_on_the_page() {
    let dir = tempfile::tempdir().unwrap();
    let base = start_server(dir.path()).await;
    let (_driver, driver_url) = start_chromedriver();
    let carla = Page::open(&driver_url, &base, &dir.path().join("carla"), DESKTOP).await;
    let dora = Page::open(&driver_url, &base, &dir.path().join("dora"), DESKTOP).await;
    sign_up(&carla, "Carla").await;
    sign_up(&dora, "Dora").await;
    dora.find("form.seek:not([hidden])").await;
    dora.wait_hidden("section.challenges").await;

    // No form on one's own profile; one on another player's.
    carla.goto("/@/Carla").await;
    carla.find(".profile[data-user='carla'] .tokens").await;
    carla.wait_count("form.challenge-form", 0).await;
    carla.goto("/@/Dora").await;
    carla.find("form.challenge-form").await;
    carla.screenshot("challenges-form.png").await;

    // The first is declined: Dora's lobby lists it as it arrives.
    send_challenge(&carla).await;
    let row = dora
        .wait_text("table.challenge-list tr[data-direction='in']", "Carla")
        .await;
    assert!(
        row.contains("5+3") && row.contains("rated") && row.contains("black"),
        "{row}"
    );
    assert!(row.contains("1500?"), "Carla's provisional rating: {row}");
    dora.screenshot("challenges-incoming.png").await;
    dora.click("tr[data-direction='in'] [data-challenge-action='decline']")
        .await;
    dora.wait_hidden("section.challenges").await;
    carla.wait_text(".challenge-status", "Dora declined").await;
    carla.screenshot("challenges-declined.png").await;

    // The second Carla cancels before Dora answers: it leaves Dora's list.
    send_challenge(&carla).await;
    dora.wait_count("table.challenge-list tr[data-direction='in']", 1)
        .await;
    carla.click(".cancel-challenge").await;
    carla.wait_text(".challenge-status", "canceled").await;
    dora.wait_count("table.challenge-list tr[data-direction='in']", 0)
        .await;

    // The third Dora accepts: both pages are on the game, Carla Black.
    send_challenge(&carla).await;
    dora.click("tr[data-direction='in'] [data-challenge-action='accept']")
        .await;
    let id = game_page_id(&dora).await;
    assert_eq!(
        game_page_id(&carla).await,
        id,
        "Carla's profile page follows her event stream into the game"
    );
    assert_eq!(carla.game_full(&id).await["you"], "black");
    assert_eq!(dora.game_full(&id).await["you"], "white");
    let export = dora
        .client
        .execute_async(
            "const done = arguments[arguments.length - 1];
             fetch('/game/export/' + arguments[0], {headers: {Accept: 'application/json'}})
               .then(r => r.json()).then(done, e => done(String(e)));",
            vec![json!(id)],
        )
        .await
        .unwrap();
    assert_eq!(export["rated"], true, "the challenge's terms: {export}");
    assert_eq!(export["clock"]["initial"], 300, "{export}");

    // Quick pairing: Carla's 3+2 waits in the list; Dora's meets it.
    carla.goto("/").await;
    carla.click(".quick-pairing [data-quick='3+2']").await;
    carla
        .find("table.seek-list [data-seek-action='cancel']")
        .await;
    carla.screenshot("challenges-quick-pairing.png").await;
    dora.goto("/").await;
    dora.wait_text("table.seek-list", "Carla").await;
    dora.click(".quick-pairing [data-quick='3+2']").await;
    let quick = game_page_id(&dora).await;
    assert_ne!(quick, id, "a new game");
    assert_eq!(game_page_id(&carla).await, quick);

    for page in [&carla, &dora] {
        let errors = page.console_errors().await;
        assert!(errors.is_empty(), "{errors:?}");
    }
}
