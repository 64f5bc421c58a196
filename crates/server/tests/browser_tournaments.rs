//! An arena on the page, in headless Chromium, two browsers (two
//! profiles, two players): Alice and Bruno sign up; Alice creates an arena
//! with the form on `/tournaments` and lands on its page; both press Join,
//! and their first game opens by itself on both pages; Black mates in two
//! (fool's mate); the arena pairs them again at once and the next game
//! opens by itself on both finished games' pages; from it both follow
//! "Back to the tournament", which does not send them back to a game they
//! opened, and read the standings: the winner first with 2 points, the
//! loser 0. axe-core finds no serious or critical violation on
//! the list or the tournament's page. Screenshots go to
//! `target/screenshots/` (`tournaments-form.png`, `tournament-joined.png`,
//! `tournament-game.png`, `tournament-game-over.png`,
//! `tournament-standings.png`, `tournaments-list.png`).
//!
//! Needs Debian's `chromium` and `chromium-driver` and axe-core (npm;
//! `scripts/test` installs it under `target/npm`, or `PARITY_AXE` names
//! its `axe.min.js`); without them this test fails, it never skips.

use crate::common;

use common::browser::*;
use common::start_server;
use fantoccini::key::Key;
use fantoccini::Locator;
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
    page.find(".login-form input[name='password']")
        .await
        .send_keys(&format!("pw-of-{name}{}", char::from(Key::Enter)))
        .await
        .unwrap();
    page.wait_text("nav.account .me", name).await;
}

/// `GET path` from the page (its session cookie); the JSON answer.
async fn get_json(page: &Page, path: &str) -> Value {
    let script = "const done = arguments[arguments.length - 1];
        fetch(arguments[0], {headers: {Accept: 'application/json'}})
          .then(r => r.json()).then(done, e => done(String(e)));";
    page.client
        .execute_async(script, vec![json!(path)])
        .await
        .expect("fetch runs")
}

/// Replaces the value of the form's field `name` with `value`.
async fn fill(page: &Page, name: &str, value: &str) {
    let field = page
        .find(&format!("form.create-tournament [name='{name}']"))
        .await;
    field.clear().await.unwrap();
    field.send_keys(value).await.unwrap();
}

/// Waits until the page is on a path starting with `prefix`; the rest.
async fn wait_path(page: &Page, prefix: &str) -> String {
    page.wait_for(&format!("a page under {prefix}"), async || {
        let url = page.client.current_url().await.ok()?;
        url.path().strip_prefix(prefix).map(str::to_string)
    })
    .await
}

/// Waits until `player`'s cell `class` in the standings reads exactly
/// `want` (contains would let "20" pass for "2").
async fn wait_cell(page: &Page, player: &str, class: &str, want: &str) {
    let css = format!("table.standings tr[data-player='{player}'] .{class}");
    page.wait_for(&format!("`{css}` to read `{want}`"), async || {
        let text = page
            .client
            .find(Locator::Css(&css))
            .await
            .ok()?
            .text()
            .await
            .ok()?;
        (text.trim() == want).then_some(())
    })
    .await
}

#[tokio::test(flavor = "multi_thread")]
async fn an_arena_on_the_page_pairs_plays_and_scores() {
    let axe = axe_script();
    let dir = tempfile::tempdir().unwrap();
    let base = start_server(dir.path()).await;
    let (_driver, driver_url) = start_chromedriver();
    let alice = Page::open(&driver_url, &base, &dir.path().join("alice"), DESKTOP).await;
    let bruno = Page::open(&driver_url, &base, &dir.path().join("bruno"), DESKTOP).await;
    sign_up(&alice, "Alice").await;
    sign_up(&bruno, "Bruno").await;

    // Alice creates an arena with the form: chess, 3+0 (enough for a
    // loaded machine's clicks), 10 minutes, starting now.
    alice.click("header a.tournaments-link").await;
    alice
        .find("form.create-tournament select[name='variant'] option[value='chess']")
        .await;
    alice
        .find("form.create-tournament select[name='variant']")
        .await
        .select_by_value("chess")
        .await
        .unwrap();
    fill(&alice, "name", "Saturday Arena").await;
    fill(&alice, "clockMinutes", "3").await;
    fill(&alice, "increment", "0").await;
    fill(&alice, "minutes", "10").await;
    fill(&alice, "wait", "0").await;
    alice.screenshot("tournaments-form.png").await;
    alice
        .click("form.create-tournament button[type='submit']")
        .await;
    let id = wait_path(&alice, "/tournament/").await;
    assert!(!id.is_empty(), "the new tournament's page");
    alice
        .wait_text(".tournament h1.name", "Saturday Arena")
        .await;
    let terms = alice.wait_text(".tournament .terms", "3+0").await;
    assert!(
        terms.contains("Arena") && terms.contains("rated"),
        "{terms}"
    );
    alice.wait_text(".tournament .status", "Ends in").await;
    alice.wait_text(".standings-box", "No players yet").await;

    // Alice joins: her row, first with nothing yet, and Withdraw instead
    // of Join. She is alone, so nobody to play.
    alice.click(".actions button.join").await;
    alice.find(".actions button.withdraw").await;
    wait_cell(&alice, "Alice", "rank", "1").await;
    wait_cell(&alice, "Alice", "score", "0").await;
    wait_cell(&alice, "Alice", "sheet", "").await;
    alice
        .find("table.standings tr.me[data-player='Alice']")
        .await;
    alice.wait_text(".duels-box", "No games in play").await;
    alice.screenshot("tournament-joined.png").await;

    // Bruno finds it in the list, opens it and joins: the arena pairs the
    // two, and both pages open the game by themselves.
    bruno.goto("/tournaments").await;
    let listed = bruno
        .wait_text("section.started .tournament-list", "Saturday Arena")
        .await;
    assert!(listed.contains("1 player"), "{listed}");
    bruno
        .click(&format!(
            "section.started li[data-id='{id}'] a[href='/tournament/{id}']"
        ))
        .await;
    bruno.find("table.standings tr[data-player='Alice']").await;
    bruno.click(".actions button.join").await;
    let game = wait_path(&bruno, "/game/").await;
    assert_eq!(wait_path(&alice, "/game/").await, game, "the same game");
    for page in [&alice, &bruno] {
        page.find(".game[data-status='started']").await;
    }
    let seat = alice.game_full(&game).await["you"].clone();
    let (white, black, winner, loser) = match seat.as_str() {
        Some("white") => (&alice, &bruno, "Bruno", "Alice"),
        Some("black") => (&bruno, &alice, "Alice", "Bruno"),
        _ => panic!("Alice holds a seat: {seat}"),
    };
    assert_eq!(
        black.game_full(&game).await["you"],
        "black",
        "one seat each"
    );
    let export = get_json(white, &format!("/game/export/{game}")).await;
    assert_eq!(export["tournament"], id.as_str(), "{export}");
    assert_eq!(export["clock"]["initial"], 180, "{export}");
    for page in [white, black] {
        page.find(&format!(
            ".tournament-link:not([hidden]) a[href='/tournament/{id}']"
        ))
        .await;
    }

    // Fool's mate, by clicks: 1.f3 e5 2.g4 Qh4#.
    white.play("f2", "f3").await;
    black.wait_text(".moves", "f3").await;
    black.play("e7", "e5").await;
    white.wait_text(".moves", "e5").await;
    white.play("g2", "g4").await;
    black.wait_text(".moves", "g4").await;
    black.screenshot("tournament-game.png").await;
    black.play("d8", "h4").await;
    white
        .wait_text(".status", "You lost by checkmate (0-1)")
        .await;
    black
        .wait_text(".status", "You won by checkmate (0-1)")
        .await;
    white.screenshot("tournament-game-over.png").await;

    // Both wait in the arena again; the runner pairs them again at once,
    // and the finished game's page opens the next one by itself, on both.
    let mut next = Vec::new();
    for page in [white, black] {
        let id = page
            .wait_for("the next game to open", async || {
                let url = page.client.current_url().await.ok()?;
                let other = url.path().strip_prefix("/game/")?.to_string();
                (other != game).then_some(other)
            })
            .await;
        next.push(id);
    }
    assert_eq!(next[0], next[1], "the same next game on both pages");
    let rematch = next[0].clone();

    // Back to the tournament: the standings have the mate in them.
    for page in [white, black] {
        page.click(".tournament-link a").await;
        assert_eq!(wait_path(page, "/tournament/").await, id);
        wait_cell(page, winner, "score", "2").await;
        wait_cell(page, winner, "rank", "1").await;
        wait_cell(page, winner, "sheet", "2").await;
        wait_cell(page, loser, "score", "0").await;
        wait_cell(page, loser, "rank", "2").await;
        wait_cell(page, loser, "sheet", "0").await;
        page.find(&format!(
            "table.standings tbody tr:first-child[data-player='{winner}']"
        ))
        .await;
        page.find(&format!(".duels a[href='/game/{rematch}']"))
            .await;
    }
    black
        .find(&format!("table.standings tr.me[data-player='{winner}']"))
        .await;
    black.screenshot("tournament-standings.png").await;
    let violations = serious_violations(black, &axe).await;
    assert!(
        violations.is_empty(),
        "the tournament's page: {violations:#?}"
    );

    // The list counts both players; axe-core on it too.
    alice.goto("/tournaments").await;
    let listed = alice
        .wait_text(&format!("li[data-id='{id}']"), "2 players")
        .await;
    assert!(listed.contains("Arena"), "{listed}");
    alice
        .find("form.create-tournament select[name='variant'] option")
        .await;
    alice.screenshot("tournaments-list.png").await;
    let violations = serious_violations(&alice, &axe).await;
    assert!(
        violations.is_empty(),
        "the tournaments' list: {violations:#?}"
    );

    for page in [&alice, &bruno] {
        let errors = page.console_errors().await;
        assert!(errors.is_empty(), "{errors:?}");
    }
}
