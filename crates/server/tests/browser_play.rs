//! Playing on the page, in headless Chromium (issue 17, "play: input and
//! feel"): drag and drop, premoves, typed moves in SAN and the lenient
//! notation, a declined draw and a rematch offer waiting, withdrawn and
//! declined, the mated king marked, a square still shared marked every
//! turn, why a piece cannot move, a side panel that keeps still, the
//! low-time clock, the mute toggle, the "no such game" page, and no
//! console errors. Screenshots go to `target/screenshots/`.
//!
//! Needs Debian's `chromium` and `chromium-driver`; without them this test
//! fails, it never skips.

use crate::common;

use common::browser::*;
use common::start_server_with;
use fantoccini::actions::{
    InputSource, MouseActions, PointerAction, MOUSE_BUTTON_LEFT, MOUSE_BUTTON_RIGHT,
};
use parity_server::base::limits::{Config, Limits};
use serde_json::{json, Value};
use std::num::NonZeroU32;
use std::path::Path;
use std::time::Duration;

/// The server with room for the games these scenarios create from one address.
async fn start_roomy_server(dir: &Path) -> String {
    let room = NonZeroU32::new(200).unwrap();
    let config = Config {
        limits: Limits {
            games_per_minute: room,
            engine_games_per_minute: room,
            ..Limits::default()
        },
        ..Config::default()
    };
    start_server_with(dir, config).await
}

/// The page's own `fetch`, so the seat cookie lands in its browser.
async fn fetch_json(page: &Page, method: &str, path: &str, body: Value) -> Value {
    let script = "const [method, path, body, done] = arguments;
        fetch(path, {method, headers: {'Content-Type': 'application/json'},
            body: body === null ? undefined : JSON.stringify(body)})
          .then(r => r.json()).then(done, e => done(String(e)));";
    page.client
        .execute_async(script, vec![json!(method), json!(path), body])
        .await
        .expect("fetch runs")
}

async fn script(page: &Page, code: &str, args: Vec<Value>) -> Value {
    page.client.execute(code, args).await.expect("script runs")
}

/// The centre of a square in the viewport.
async fn square_centre(page: &Page, square: &str) -> (f64, f64) {
    page.find(&format!("[data-square='{square}']")).await;
    let at = script(
        page,
        "const r = document.querySelector(`[data-square='${arguments[0]}']`).getBoundingClientRect();
         return [r.x + r.width / 2, r.y + r.height / 2];",
        vec![json!(square)],
    )
    .await;
    (at[0].as_f64().unwrap(), at[1].as_f64().unwrap())
}

fn pointer_to((x, y): (f64, f64)) -> PointerAction {
    PointerAction::MoveTo {
        duration: Some(Duration::from_millis(60)),
        x: x.round(),
        y: y.round(),
    }
}

/// Drags the piece on `from` to `to` with the mouse (pointer down, moves,
/// up); checks halfway that the piece follows the pointer.
async fn drag(page: &Page, from: &str, to: &str) {
    let start = square_centre(page, from).await;
    let end = square_centre(page, to).await;
    let halfway = ((start.0 + end.0) / 2.0, (start.1 + end.1) / 2.0);
    let press = MouseActions::new("mouse".into())
        .then(pointer_to(start))
        .then(PointerAction::Down {
            button: MOUSE_BUTTON_LEFT,
        })
        .then(pointer_to(halfway));
    page.client
        .perform_actions(press)
        .await
        .expect("the press and the drag");
    page.find(".drag-ghost").await;
    page.find(&format!(".square-pieces.dragged[data-pieces-on='{from}']"))
        .await;
    let release = MouseActions::new("mouse".into())
        .then(pointer_to(end))
        .then(PointerAction::Up {
            button: MOUSE_BUTTON_LEFT,
        });
    page.client
        .perform_actions(release)
        .await
        .expect("the drop");
    page.wait_count(".drag-ghost", 0).await;
}

async fn right_click(page: &Page, square: &str) {
    let at = square_centre(page, square).await;
    let click = MouseActions::new("mouse".into())
        .then(pointer_to(at))
        .then(PointerAction::Down {
            button: MOUSE_BUTTON_RIGHT,
        })
        .then(PointerAction::Up {
            button: MOUSE_BUTTON_RIGHT,
        });
    page.client
        .perform_actions(click)
        .await
        .expect("a right click");
}

/// The moves of the move list, in order.
async fn move_list(page: &Page) -> Vec<String> {
    let moves = script(
        page,
        "return [...document.querySelectorAll('.moves .mv')].map(m => m.textContent.trim());",
        vec![],
    )
    .await;
    serde_json::from_value(moves).unwrap()
}

async fn wait_moves(page: &Page, expected: &[&str]) {
    page.wait_for(&format!("the moves {expected:?}"), async || {
        (move_list(page).await == expected).then_some(())
    })
    .await
}

/// Waits for this page's turn, then types a move.
async fn type_on_turn(page: &Page, text: &str) {
    page.wait_text(".status", "Your move.").await;
    page.type_move(text).await;
}

fn assert_no_console_errors(errors: Vec<String>, who: &str) {
    assert!(errors.is_empty(), "{who}'s console has errors: {errors:#?}");
}

/// Chess between two browsers: drag and drop, premoves (played, cancelled,
/// dropped), SAN and lenient typed moves, sounds and the mute toggle, a
/// declined draw, a rematch offer withdrawn and declined; no console errors.
async fn chess_by_hand(driver: &str, base: &str, dir: &Path) {
    let white = Page::open(driver, base, &dir.join("white"), (1280, 900)).await;
    let black = Page::open(driver, base, &dir.join("black"), (1280, 900)).await;
    friend_game(&white, &black, "chess").await;

    // Drag and drop.
    drag(&white, "e2", "e4").await;
    wait_moves(&white, &["e4"]).await;

    // A premove queued on Black's turn, cancelled by a right click, queued
    // again, and played as soon as Black has moved.
    white.play("g1", "f3").await;
    white.wait_count(".sq.premove", 2).await;
    right_click(&white, "a6").await;
    white.wait_count(".sq.premove", 0).await;
    white.click("[data-square='g1']").await;
    white.click("[data-square='f3']").await;
    white.wait_count(".sq.premove", 2).await;
    type_on_turn(&black, "e5").await; // SAN
    for page in [&white, &black] {
        wait_moves(page, &["e4", "e5", "Nf3"]).await;
    }
    white.wait_count(".sq.premove", 0).await;
    // White has clicked, so its page may sound: Black's move was heard.
    assert_eq!(
        script(&white, "return document.body.dataset.lastSound;", vec![]).await,
        "move"
    );

    // A premove that is illegal when its turn comes is dropped, and said so.
    white.play("d1", "h5").await;
    white.wait_count(".sq.premove", 2).await;
    type_on_turn(&black, "Nb8-c6").await; // the literature's notation
    wait_moves(&black, &["e4", "e5", "Nf3", "Nc6"]).await;
    white.wait_text(".notice", "dropped").await;
    white.wait_count(".sq.premove", 0).await;
    assert_eq!(
        move_list(&white).await.len(),
        4,
        "the dropped premove was played"
    );

    // Typed SAN with the mover's square and a capture mark; `exN`-style
    // is read the same way (the rules' unit tests cover each form).
    type_on_turn(&white, "Bf1-c4").await;
    type_on_turn(&black, "Ng8-f6").await;
    type_on_turn(&white, "Nf3xe5").await;
    type_on_turn(&black, "Nc6xN").await;
    for page in [&white, &black] {
        wait_moves(
            page,
            &["e4", "e5", "Nf3", "Nc6", "Bc4", "Nf6", "Nxe5", "Nxe5"],
        )
        .await;
    }
    assert_eq!(
        script(&white, "return document.body.dataset.lastSound;", vec![]).await,
        "capture"
    );

    // Muting is remembered across a reload; a muted page plays nothing.
    white.click("[data-action='mute']").await;
    white.wait_text("[data-action='mute']", "Sound off").await;
    white.client.refresh().await.unwrap();
    white.wait_text("[data-action='mute']", "Sound off").await;
    // Kept as the setting "sounds" (settings.js).
    assert_eq!(
        script(
            &white,
            "return JSON.parse(localStorage.getItem('parity-settings')).sound;",
            vec![]
        )
        .await,
        false
    );
    white.click("[data-square='a7']").await; // a gesture, so only the mute can silence it
    type_on_turn(&white, "d4").await;
    wait_moves(
        &black,
        &["e4", "e5", "Nf3", "Nc6", "Bc4", "Nf6", "Nxe5", "Nxe5", "d4"],
    )
    .await;
    type_on_turn(&black, "Nxc4").await;
    wait_moves(
        &white,
        &[
            "e4", "e5", "Nf3", "Nc6", "Bc4", "Nf6", "Nxe5", "Nxe5", "d4", "Nxc4",
        ],
    )
    .await;
    assert_eq!(
        script(
            &white,
            "return document.body.dataset.lastSound ?? null;",
            vec![]
        )
        .await,
        Value::Null,
        "a muted page played a sound"
    );

    // A declined draw is said on the offering side.
    white.click("[data-action='draw']").await;
    black.wait_text(".offer", "White offers a draw").await;
    black.click(".offer [data-answer='draw/no']").await;
    white
        .wait_text(".notice", "Your draw offer was declined.")
        .await;

    // A rematch offer waits, can be withdrawn, and can be declined.
    white_resigns(&white, &black).await;
    white.click("[data-action='rematch']").await;
    white.wait_text(".offer", "waiting for your opponent").await;
    black.wait_text(".offer", "White asks for a rematch").await;
    white.screenshot("rematch-waiting.png").await;
    white.click(".offer [data-answer='rematch/no']").await;
    white.wait_hidden(".offer").await;
    white
        .wait_text(".notice", "You withdrew your rematch offer.")
        .await;
    black.wait_hidden(".offer").await;
    black.wait_text("[data-action='rematch']", "Rematch").await;
    white.click("[data-action='rematch']").await;
    black.wait_text(".offer", "White asks for a rematch").await;
    black.click(".offer [data-answer='rematch/no']").await;
    white
        .wait_text(".notice", "Your rematch offer was declined.")
        .await;
    white.wait_hidden(".offer").await;

    assert_no_console_errors(white.console_errors().await, "White");
    assert_no_console_errors(black.console_errors().await, "Black");
    white.client.close().await.unwrap();
    black.client.close().await.unwrap();
}

/// Fool's mate: the mated king stays marked once the game is over.
async fn checkmate(driver: &str, base: &str, dir: &Path) {
    let white = Page::open(driver, base, &dir.join("mate-white"), (1280, 900)).await;
    let black = Page::open(driver, base, &dir.join("mate-black"), (1280, 900)).await;
    friend_game(&white, &black, "chess").await;
    type_on_turn(&white, "f3").await;
    type_on_turn(&black, "e5").await;
    type_on_turn(&white, "g4").await;
    type_on_turn(&black, "Qh4#").await;
    white
        .wait_text(".status", "You lost by checkmate (0-1).")
        .await;
    black
        .wait_text(".status", "You won by checkmate (0-1).")
        .await;
    for page in [&white, &black] {
        page.find(".sq.check[data-square='e1']").await;
    }
    white.screenshot("checkmate.png").await;
    white.client.close().await.unwrap();
    black.client.close().await.unwrap();
}

/// The bounding box of an element in the viewport: [left, top, right, bottom].
async fn bounds(page: &Page, css: &str) -> [f64; 4] {
    page.find(css).await;
    let r = script(
        page,
        "const r = document.querySelector(arguments[0]).getBoundingClientRect();
         return [r.left, r.top, r.right, r.bottom];",
        vec![json!(css)],
    )
    .await;
    serde_json::from_value(r).unwrap()
}

fn overlap(a: [f64; 4], b: [f64; 4]) -> bool {
    a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3]
}

/// One simultaneous turn: each page plays its move (a pair of squares is
/// clicked or dragged; other text is typed), then waits for the turn.
async fn sim_turn(white: &Page, black: &Page, turn: usize, white_move: &str, black_move: &str) {
    for (page, mv) in [(white, white_move), (black, black_move)] {
        match mv.split_once('>') {
            Some((from, to)) => drag(page, from, to).await,
            None => page.type_move(mv).await,
        }
    }
    for page in [white, black] {
        page.find(&format!(".moves li[data-turn='{turn}']")).await;
        page.wait_text(".status", &format!("Turn {}", turn + 1))
            .await;
    }
}

/// Parity: a waiting piece says why it cannot move; a shared square keeps
/// its mark as long as it is shared; the waiting marks there keep off the
/// lower piece; the move box does not move when the turn notes come.
async fn simultaneous(driver: &str, base: &str, dir: &Path) {
    let white = Page::open(driver, base, &dir.join("sim-white"), (1280, 900)).await;
    let black = Page::open(driver, base, &dir.join("sim-black"), (412, 915)).await;
    friend_game(&white, &black, "parity").await;
    let entry_before = bounds(&white, ".entry").await;

    sim_turn(&white, &black, 1, "e2>e4", "d7d5").await;
    white.click("[data-square='e4']").await;
    white
        .wait_text(".notice", "Your piece on e4 moved last turn and must wait")
        .await;
    assert_eq!(
        bounds(&white, ".entry").await[1],
        entry_before[1],
        "the move box moved when the turn's notes came"
    );
    sim_turn(&white, &black, 2, "Ng1-f3", "Nc6").await;
    sim_turn(&white, &black, 3, "a3", "a6").await;
    sim_turn(&white, &black, 4, "f3>e5", "c6e5").await;
    for page in [&white, &black] {
        page.find("[data-on='e5'][data-piece='black knight']").await;
        page.find(".sq.shared[data-square='e5']").await;
    }
    // Both knights must wait: their marks keep off the lower piece's
    // place, the square's bottom-right (from 40% of its size on).
    let [left, top, right, bottom] = bounds(&white, "[data-square='e5']").await;
    let lower = [
        left + 0.4 * (right - left),
        top + 0.4 * (bottom - top),
        right,
        bottom,
    ];
    for color in ["white", "black"] {
        let mark = bounds(
            &white,
            &format!("[data-pieces-on='e5'] [data-waiting='{color}']"),
        )
        .await;
        assert!(
            !overlap(mark, lower),
            "{color}'s waiting mark {mark:?} covers the lower piece {lower:?}"
        );
    }
    white.screenshot("shared-waiting-marks.png").await;
    sim_turn(&white, &black, 5, "h3", "h6").await;
    for page in [&white, &black] {
        page.find(".sq.shared[data-square='e5']").await;
    }
    white.screenshot("shared-square-kept.png").await;
    assert_eq!(
        bounds(&white, ".entry").await[1],
        entry_before[1],
        "the move box moved with the turns"
    );
    assert_no_console_errors(white.console_errors().await, "White");
    assert_no_console_errors(black.console_errors().await, "Black");
    white.client.close().await.unwrap();
    black.client.close().await.unwrap();
}

/// Safety in numbers: a pawn joins a lone enemy pawn, a knight joins the
/// pair: a crowd of three on e5.
async fn crowd(driver: &str, base: &str, dir: &Path) {
    let white = Page::open(driver, base, &dir.join("crowd-white"), (1280, 900)).await;
    let black = Page::open(driver, base, &dir.join("crowd-black"), (1280, 900)).await;
    friend_game(&white, &black, "safety-in-numbers").await;
    for (page, from, to) in [
        (&white, "e2", "e4"),
        (&black, "e7", "e5"),
        (&white, "g1", "f3"),
        (&black, "a7", "a6"),
        (&white, "e4", "e5"),
        (&black, "a6", "a5"),
        (&white, "f3", "e5"),
    ] {
        page.wait_text(".status", "Your move.").await;
        let before = move_list(page).await.len();
        page.play(from, to).await;
        page.wait_for("the move", async || {
            (move_list(page).await.len() == before + 1).then_some(())
        })
        .await;
    }
    for page in [&white, &black] {
        page.wait_count("[data-on='e5']", 3).await;
        page.wait_text(".badge", "3").await;
    }
    white.screenshot("crowd.png").await;
    white.client.close().await.unwrap();
    black.client.close().await.unwrap();
}

/// A game with a 9-second clock: the running clock turns to the low-time
/// colour (a 10-minute clock does not: `chess_by_hand` has none low).
async fn low_time(driver: &str, base: &str, dir: &Path) {
    let white = Page::open(driver, base, &dir.join("clock-white"), (1280, 900)).await;
    let black = Page::open(driver, base, &dir.join("clock-black"), (1280, 900)).await;
    white.goto("/").await;
    let spec = json!({"variant": "chess", "clock": {"initial": 9, "increment": 0},
        "days": null, "opponent": "friend", "color": "white", "public": false});
    let created = fetch_json(&white, "POST", "/api/games", spec).await;
    let id = created["id"].as_str().expect("a game id");
    white.goto(&format!("/game/{id}")).await;
    black
        .goto(created["invite_url"].as_str().expect("an invite link"))
        .await;
    // The clocks start with the game: White's 9 s are low at once.
    white.find(".clock.running.low[data-clock='white']").await;
    white.screenshot("low-time.png").await;
    white.client.close().await.unwrap();
    black.client.close().await.unwrap();
}

/// An unknown game: a page that says so, a way back, and no polling.
async fn no_such_game(driver: &str, base: &str, dir: &Path) {
    let page = Page::open(driver, base, &dir.join("lost"), (1280, 900)).await;
    page.goto("/game/noSuchGame1").await;
    page.wait_text(".no-such-game", "No such game").await;
    let back = page.find(".no-such-game a[href='/']").await;
    assert_eq!(back.text().await.unwrap(), "Back to the lobby");
    assert!(page
        .client
        .find(fantoccini::Locator::Css(".board"))
        .await
        .is_err());
    // Three seconds is long enough for the feed to have given up on its
    // socket and polled; the page has asked once.
    tokio::time::sleep(Duration::from_secs(4)).await;
    let asked = script(
        &page,
        "return performance.getEntriesByType('resource').filter(e => e.name.includes('/api/games/noSuchGame1')).length;",
        vec![],
    )
    .await;
    assert_eq!(asked, 1, "the page asked for the unknown game again");
    page.screenshot("no-such-game.png").await;
    page.client.close().await.unwrap();
}

/// A Parity Chess game from a position where White's king is in immediate
/// check: clicking the rook says why it cannot move.
async fn immediate_check(driver: &str, base: &str, dir: &Path) {
    let white = Page::open(driver, base, &dir.join("check-white"), (1280, 900)).await;
    white.goto("/").await;
    let created = fetch_json(
        &white,
        "POST",
        "/api/games",
        json!({"variant": "parity", "opponent": {"engine": {"level": 1}}, "color": "white",
               "fen": "4k3/8/8/8/8/8/4r3/4K2R - - 0 1"}),
    )
    .await;
    let id = created["id"]
        .as_str()
        .unwrap_or_else(|| panic!("{created}"));
    white.goto(&format!("/game/{id}")).await;
    white.find(".game[data-status='started']").await;
    white.click("[data-square='h1']").await;
    white
        .wait_text(
            ".notice",
            "Your king is in immediate check: only the king may move.",
        )
        .await;
    assert_no_console_errors(white.console_errors().await, "white in immediate check");
    white.client.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn playing_on_the_page_feels_right() {
    let dir = tempfile::tempdir().unwrap();
    let (_driver_process, driver) = start_chromedriver();
    let base = start_roomy_server(dir.path()).await;
    no_such_game(&driver, &base, dir.path()).await;
    chess_by_hand(&driver, &base, dir.path()).await;
    checkmate(&driver, &base, dir.path()).await;
    simultaneous(&driver, &base, dir.path()).await;
    immediate_check(&driver, &base, dir.path()).await;
    crowd(&driver, &base, dir.path()).await;
    low_time(&driver, &base, dir.path()).await;
}
