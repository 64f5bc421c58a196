//! What a new player trips over (issue 29), in headless Chromium: an
//! unknown address, a used invite link opened again by the player who
//! used it, the connection's word in a correspondence game's footer,
//! castling typed when it cannot be played, a guest's own games listed,
//! why a piece may not join its own pieces in Safety in Numbers, the
//! focus ring and the board by keyboard,
//! a user name too long, and quick pairing in the variant the player
//! picked.
//!
//! Needs Debian's `chromium` and `chromium-driver` (`scripts/test` installs
//! them); without them this test fails, it never skips.

use crate::common;

use common::browser::*;
use common::start_server;
use fantoccini::actions::{InputSource, KeyAction, KeyActions};
use fantoccini::key::Key;
use fantoccini::Locator;
use futures_util::FutureExt as _;
use std::panic::AssertUnwindSafe;

/// The text of `css`, or none while it is hidden or absent.
async fn shown_text(page: &Page, css: &str) -> Option<String> {
    let element = page.client.find(Locator::Css(css)).await.ok()?;
    if !element.is_displayed().await.ok()? {
        return None;
    }
    element.text().await.ok().filter(|t| !t.is_empty())
}

/// Presses `keys` on whatever has the focus.
async fn keys(page: &Page, keys: &[Key]) {
    let mut actions = KeyActions::new("keyboard".into());
    for &key in keys {
        actions = actions
            .then(KeyAction::Down {
                value: char::from(key),
            })
            .then(KeyAction::Up {
                value: char::from(key),
            });
    }
    page.client.perform_actions(actions).await.unwrap();
}

/// Runs one item's check; its failure is kept, so that every item is
/// tried and one run shows which of them fail.
async fn item(failed: &mut Vec<String>, name: &str, check: impl std::future::Future<Output = ()>) {
    if let Err(e) = AssertUnwindSafe(check).catch_unwind().await {
        let why = e
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default();
        failed.push(format!(
            "{name}: {}",
            why.lines().next().unwrap_or_default()
        ));
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn what_a_new_player_trips_over() {
    let dir = tempfile::tempdir().unwrap();
    let (_driver_process, driver) = start_chromedriver();
    let base = start_server(dir.path()).await;
    let white = Page::open(&driver, &base, &dir.path().join("white"), (1280, 900)).await;
    let black = Page::open(&driver, &base, &dir.path().join("black"), (1280, 900)).await;
    let stranger = Page::open(&driver, &base, &dir.path().join("stranger"), (1280, 900)).await;
    let mut failed = Vec::new();

    item(&mut failed, "7, an unknown address", async {
        white.goto("/nonsense/path").await;
        white.wait_text("main.not-found h1", "Page not found").await;
        white
            .wait_text("main.not-found code", "/nonsense/path")
            .await;
        white.screenshot("newcomer-not-found.png").await;
        white.click("main.not-found a[href='/']").await;
        white.find("form.create").await;
    })
    .await;

    let (id, invite) = friend_game(&white, &black, "chess").await;
    black.goto(&invite).await;
    black.find(".game[data-status='started']").await;
    item(&mut failed, "9, the footer's connection", async {
        let conn = black.wait_text(".conn", "connected").await;
        assert!(!conn.contains("live"), "{conn}");
    })
    .await;
    item(
        &mut failed,
        "3, a used invite opened again by its player",
        async {
            assert_eq!(
                shown_text(&black, ".game .error").await,
                None,
                "the seat holder sees no error on the used link"
            );
            assert!(black.client.current_url().await.unwrap().query().is_none());
            // Another browser with the used link is told, as before.
            stranger.goto(&invite).await;
            stranger
                .wait_text(".game .error", "could not join with this invite")
                .await;
        },
    )
    .await;

    item(
        &mut failed,
        "4, castling typed when it cannot be played",
        async {
            white.goto(&format!("/game/{id}")).await;
            white.find(".game[data-status='started']").await;
            white.type_move("O-O").await;
            let message = white.wait_text(".game .error", "castling").await;
            assert!(
                !message.contains('`') && !message.contains("letter"),
                "{message}"
            );
            // The move shows as code, not between backticks.
            white.wait_text(".game .error code", "O-O").await;
            white.screenshot("newcomer-castling.png").await;
        },
    )
    .await;

    item(&mut failed, "10, a guest's own games", async {
        // Black, a guest, holds the friend game (White to move) and makes
        // an engine game as White (their move): both are listed in the
        // lobby, theirs to move first, and counted in the header and title.
        let engine_game = black.create_game("chess", "days", "engine", "white").await;
        black.goto("/").await;
        black.wait_count("section.my-games:not([hidden]) tr[data-game]", 2).await;
        let first = black.wait_text("section.my-games tr[data-game]", "Your turn").await;
        assert!(first.contains("Engine, level 1"), "{first}");
        black
            .find(&format!("section.my-games tr[data-game='{engine_game}'].my-turn a[href='/game/{engine_game}']"))
            .await;
        let waiting = black
            .wait_text(&format!("section.my-games tr[data-game='{id}']"), "Waiting")
            .await;
        assert!(waiting.contains("Chess"), "{waiting}");
        black.wait_text("nav.my-games", "Your games: 2").await;
        black.wait_text("nav.my-games .turn-badge", "1 your turn").await;
        assert_eq!(black.client.title().await.unwrap(), "(1) Parity");
        black.screenshot("newcomer-your-games.png").await;
        // A game that ends leaves the list.
        black.goto(&format!("/game/{engine_game}")).await;
        black.click("[data-action='abort']").await;
        black.wait_text(".status", "aborted").await;
        black.goto("/").await;
        black.wait_count("section.my-games tr[data-game]", 1).await;
        black.wait_text("nav.my-games", "Your games: 1").await;
    })
    .await;

    item(&mut failed, "8, why a piece may not join its own", async {
        // Safety in Numbers: the knight picked, then its own pawn clicked,
        // as if to join it; then the queen typed onto its own pawn.
        black.create_game("safety-in-numbers", "days", "engine", "white").await;
        black.find(".game[data-status='started']").await;
        black.click("[data-square='g1']").await;
        black.click("[data-square='g2']").await;
        black
            .wait_text(".notice", "The piece on g1 may not join your own pieces on g2: a crowd forms only where an enemy piece stands")
            .await;
        black.type_move("d1d2").await;
        let message = black
            .wait_text(".game .error", "crowd forms only where an enemy piece stands")
            .await;
        assert!(message.contains("d2"), "{message}");
        black.screenshot("newcomer-crowd-rule.png").await;
    })
    .await;

    item(&mut failed, "12, the focus ring and the board by keyboard", async {
        white.create_game("chess", "days", "engine", "white").await;
        white.find(".game[data-status='started']").await;
        white
            .client
            .execute("document.activeElement?.blur(); window.scrollTo(0, 0);", vec![])
            .await
            .unwrap();
        // The first stop, in the dark header, wears a thick light ring.
        keys(&white, &[Key::Tab]).await;
        let ring = white
            .client
            .execute(
                "const s = getComputedStyle(document.activeElement); \
                 return [document.activeElement.closest('header') !== null, s.outlineStyle, s.outlineWidth, s.outlineColor];",
                vec![],
            )
            .await
            .unwrap();
        assert_eq!(ring, serde_json::json!([true, "solid", "3px", "rgb(251, 191, 36)"]));
        // Tab reaches the board; arrows move its cursor, Enter picks.
        let mut on_board = false;
        for _ in 0..40 {
            let active = white.client.active_element().await.unwrap();
            if active.attr("class").await.unwrap().as_deref() == Some("board") {
                on_board = true;
                break;
            }
            keys(&white, &[Key::Tab]).await;
        }
        assert!(on_board, "Tab reaches the board");
        keys(&white, &[Key::Right]).await;
        white.wait_text(".board-cursor", "e2: white pawn").await;
        keys(&white, &[Key::Enter]).await;
        white.find(".sq.selected[data-square='e2']").await;
        keys(&white, &[Key::Up, Key::Up]).await;
        white.wait_text(".board-cursor", "e4: empty").await;
        white.screenshot("newcomer-keyboard-board.png").await;
        keys(&white, &[Key::Enter]).await;
        white.wait_text(".moves", "e4").await;
    })
    .await;

    item(&mut failed, "5, a name too long", async {
        // A pasted 200-character name is refused with the rule, not cut
        // to 20 and taken.
        white.goto("/").await;
        white.click("nav.account [data-mode='signup']").await;
        let long = "a".repeat(200);
        white
            .find("form.login-form input[name='username']")
            .await
            .send_keys(&long)
            .await
            .unwrap();
        white
            .find("form.login-form input[name='password']")
            .await
            .send_keys("correct horse battery")
            .await
            .unwrap();
        white.click("form.login-form button[type='submit']").await;
        white.wait_text("form.login-form .error", "2 to 20").await;
        let cut = reqwest::get(format!("{base}/api/user/{}", &long[..20]))
            .await
            .unwrap();
        assert_eq!(cut.status(), 404, "no account was made under a cut name");
    })
    .await;

    item(
        &mut failed,
        "1, quick pairing in the variant picked",
        async {
            // Logged in (quick pairing is for accounts), a card picks the
            // variant of every form, and 5+3 seeks a game in it.
            white.goto("/").await;
            white.click("nav.account [data-mode='signup']").await;
            for (field, text) in [
                ("username", "Newbie"),
                ("password", "correct horse battery"),
            ] {
                let input = white
                    .find(&format!("form.login-form input[name='{field}']"))
                    .await;
                input.clear().await.unwrap();
                input.send_keys(text).await.unwrap();
            }
            white.click("form.login-form button[type='submit']").await;
            white.wait_text("nav.account .me", "Newbie").await;
            white
                .click(".variant-card[data-variant='safety-in-numbers']")
                .await;
            white.wait_text(".quick-variant", "Safety in Numbers").await;
            white.click("[data-quick='5+3']").await;
            let seeks: serde_json::Value = white
                .wait_for("a quick-pairing seek", async || {
                    let seeks: serde_json::Value = reqwest::get(format!("{base}/api/lobby/seeks"))
                        .await
                        .ok()?
                        .json()
                        .await
                        .ok()?;
                    (!seeks.as_array()?.is_empty()).then_some(seeks)
                })
                .await;
            assert_eq!(seeks[0]["variant"], "safety-in-numbers", "{seeks}");
            white.screenshot("newcomer-quick-pairing.png").await;
        },
    )
    .await;

    // The refusals above log their status (a 404 page, a 400 sign-up);
    // no script error may.
    for page in [&white, &black, &stranger] {
        let errors: Vec<String> = page
            .console_errors()
            .await
            .into_iter()
            .filter(|e| !e.contains("Failed to load resource"))
            .collect();
        assert_eq!(errors, Vec::<String>::new());
    }
    assert!(failed.is_empty(), "items that fail:\n{}", failed.join("\n"));
}
