//! Navigation, positions and the analysis board in headless Chromium: the
//! move list of a simultaneous game navigated back (click, arrow keys,
//! buttons) while the game goes on, each turn's notes named by side, a
//! finished game replayed, a game started from a FEN (and a bad FEN
//! refused), the FEN shown with a copy button, and the analysis board
//! with the engine's mixed strategies and a score with its variation.
//!
//! Needs Debian's `chromium` and `chromium-driver` (`scripts/test` installs
//! them); without them this test fails, it never skips.

use crate::common;

use common::browser::*;
use common::start_server;
use fantoccini::key::Key;
use fantoccini::Locator;
use serde_json::{json, Value};
use std::path::Path;

const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// Sends `key` to the page (to the body, not to any input).
async fn press(page: &Page, key: Key) {
    page.find("body")
        .await
        .send_keys(&char::from(key).to_string())
        .await
        .unwrap();
}

/// The value of the FEN field, once it is `want`.
async fn wait_fen(page: &Page, want: &str) {
    page.wait_for(&format!("the FEN field to read {want}"), async || {
        let value = page
            .client
            .find(Locator::Css(".fen"))
            .await
            .ok()?
            .prop("value")
            .await
            .ok()??;
        (value == want).then_some(())
    })
    .await
}

/// Runs `fetch(path, {method})` in the page (with its seat cookie); returns the JSON.
async fn fetch(page: &Page, method: &str, path: &str) -> Value {
    let script = "const done = arguments[arguments.length - 1];
        fetch(arguments[0], {method: arguments[1]}).then(r => r.json()).then(done, e => done(String(e)));";
    page.client
        .execute_async(script, vec![json!(path), json!(method)])
        .await
        .expect("fetch runs")
}

/// One simultaneous turn, both moves clicked on the two pages.
async fn play_turn(white: &Page, black: &Page, turn: usize, w: (&str, &str), b: (&str, &str)) {
    white.play(w.0, w.1).await;
    white
        .wait_text(".status", "committed, waiting for opponent")
        .await;
    black.play(b.0, b.1).await;
    for page in [white, black] {
        page.find(&format!(".moves li[data-turn='{turn}']")).await;
        page.wait_text(".status", &format!("Turn {}", turn + 1))
            .await;
    }
}

async fn navigation_in_a_simultaneous_game(driver: &str, base: &str, dir: &Path) {
    let white = Page::open(driver, base, &dir.join("white"), (1280, 900)).await;
    let black = Page::open(driver, base, &dir.join("black"), (1280, 900)).await;
    let (id, _) = friend_game(&white, &black, "parity").await;
    play_turn(&white, &black, 1, ("g1", "f3"), ("b8", "c6")).await;
    play_turn(&white, &black, 2, ("e2", "e3"), ("e7", "e6")).await;
    // Both knights jump to e5: a shared square.
    play_turn(&white, &black, 3, ("f3", "e5"), ("c6", "e5")).await;

    // Bug 8: each side's note is named.
    let note = white
        .wait_text(".moves li[data-turn='3'] .move-note", "White: ")
        .await;
    assert_eq!(note, "White: shares e5 · Black: shares e5");

    let line = fetch(&white, "GET", &format!("/api/games/{id}/positions")).await;
    let fen_after = |turn: usize| line["positions"][turn]["fen"].as_str().unwrap().to_string();
    wait_fen(&white, &fen_after(3)).await;
    white.wait_count("[data-on='e5']", 2).await;

    // A click on turn 1: the knights back on f3 and c6, both waiting.
    white.click(".moves li[data-turn='1']").await;
    white.find(".moves li.current[data-turn='1']").await;
    wait_fen(&white, &fen_after(1)).await;
    white
        .find("[data-piece='white knight'][data-on='f3']")
        .await;
    white
        .find("[data-piece='black knight'][data-on='c6']")
        .await;
    white.wait_count("[data-on='e5']", 0).await;
    white.wait_count("[data-waiting='white']", 1).await;
    white.wait_count("[data-waiting='black']", 1).await;
    white.find(".sq.last[data-square='g1']").await;
    white.screenshot("navigated-back.png").await;

    // The arrow keys: on to turn 2, back to turn 1 and the start.
    press(&white, Key::Right).await;
    wait_fen(&white, &fen_after(2)).await;
    white.find("[data-piece='white pawn'][data-on='e3']").await;
    press(&white, Key::Left).await;
    press(&white, Key::Left).await;
    wait_fen(&white, &fen_after(0)).await;
    white
        .find("[data-piece='white knight'][data-on='g1']")
        .await;
    white.wait_count("[data-waiting]", 0).await;
    white.wait_count(".moves .current", 0).await;
    white.find("button[data-nav='first'][disabled]").await;
    press(&white, Key::End).await;
    wait_fen(&white, &fen_after(3)).await;
    press(&white, Key::Up).await;
    wait_fen(&white, &fen_after(0)).await;

    // The game goes on while White looks at turn 1: a new turn does not
    // bring the page back.
    white.click("button[data-nav='next']").await;
    wait_fen(&white, &fen_after(1)).await;
    white.type_move("a2a3").await;
    white
        .wait_text(".status", "committed, waiting for opponent")
        .await;
    black.play("a7", "a6").await;
    white.find(".moves li[data-turn='4']").await;
    white.wait_text(".status", "Turn 5").await;
    white.find(".moves li.current[data-turn='1']").await;
    wait_fen(&white, &fen_after(1)).await;
    white
        .find("[data-piece='white knight'][data-on='f3']")
        .await;
    // Black, who stayed on the last position, follows the game.
    black.find(".moves li.current[data-turn='4']").await;
    black.find("[data-piece='black pawn'][data-on='a6']").await;
    // The last button (or a click on the board) comes back to the game.
    white.click("button[data-nav='last']").await;
    white.find("[data-piece='white pawn'][data-on='a3']").await;
    white.wait_count("[data-on='e5']", 2).await;
    let now = fetch(&white, "GET", &format!("/api/games/{id}")).await;
    wait_fen(&white, now["fen"].as_str().unwrap()).await;
    white.client.close().await.unwrap();
    black.client.close().await.unwrap();
}

async fn a_finished_game_replays(driver: &str, base: &str, dir: &Path) {
    let page = Page::open(driver, base, &dir.join("replay"), (1280, 900)).await;
    let id = page.create_game("chess", "days", "engine", "white").await;
    page.play("e2", "e4").await;
    page.wait_count(".moves .mv", 2).await;
    page.play("d2", "d4").await;
    page.wait_count(".moves .mv", 4).await;
    let resigned = fetch(&page, "POST", &format!("/api/board/game/{id}/resign")).await;
    assert_eq!(resigned["ok"], true, "{resigned}");
    page.find(".game[data-status='finished']").await;

    // The FEN of the game now, with a copy button.
    let full = fetch(&page, "GET", &format!("/api/games/{id}")).await;
    wait_fen(&page, full["fen"].as_str().unwrap()).await;
    page.find(".fen-box button[data-copy='fen']").await;

    page.click(".moves [data-ply='1']").await;
    page.find(".moves .mv.current[data-ply='1']").await;
    page.find("[data-piece='white pawn'][data-on='e4']").await;
    page.wait_count("[data-on='e2']", 0).await;
    page.find(".sq.last[data-square='e2']").await;
    press(&page, Key::Home).await;
    wait_fen(&page, START_FEN).await;
    page.find("[data-piece='white pawn'][data-on='e2']").await;
    for _ in 0..3 {
        page.click("button[data-nav='next']").await;
    }
    page.find(".moves .mv.current[data-ply='3']").await;
    page.find("[data-piece='white pawn'][data-on='d4']").await;
    page.find("[data-piece='white pawn'][data-on='e4']").await;
    let line = fetch(&page, "GET", &format!("/api/games/{id}/positions")).await;
    let third = line["positions"][3]["fen"].as_str().unwrap().to_string();
    wait_fen(&page, &third).await;

    // "analyse" opens the position shown on the analysis board.
    page.click(".fen-box a.analyse").await;
    page.find("section.analysis").await;
    wait_fen(&page, &third).await;
    page.find(".eval .score").await;
    page.client.close().await.unwrap();
}

/// Creates a game from the lobby with a start position; returns the page's error or none.
async fn create_from_fen(page: &Page, variant: &str, fen: &str) {
    page.goto("/").await;
    page.find(&format!("select[name='variant'] option[value='{variant}']"))
        .await;
    page.find("select[name='variant']")
        .await
        .select_by_value(variant)
        .await
        .unwrap();
    page.click("input[name='opponent'][value='friend']").await;
    let field = page.find("input[name='fen']").await;
    field.clear().await.unwrap();
    field.send_keys(fen).await.unwrap();
    page.click("form.create button[type='submit']").await;
}

async fn a_game_from_a_fen(driver: &str, base: &str, dir: &Path) {
    let page = Page::open(driver, base, &dir.join("fen"), (1280, 900)).await;
    create_from_fen(&page, "chess", "rnbqkbnr/pppppppp/8 w - - 0 1").await;
    let error = page.wait_text("form.create .error", "bad FEN").await;
    assert_eq!(
        error,
        "bad FEN for chess: board has 3 ranks, the variant has 8"
    );

    let fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1";
    create_from_fen(&page, "chess", fen).await;
    page.find(".game").await;
    wait_fen(&page, fen).await;
    page.wait_count("[data-piece]", 3).await;
    page.find("[data-piece='white pawn'][data-on='e2']").await;
    page.find("[data-piece='black king'][data-on='e8']").await;

    // A crowd position of safety-in-numbers.
    let crowd = "4k3/8/8/3(PPn)4/8/8/8/4K3 w - - 0 1";
    create_from_fen(&page, "safety-in-numbers", crowd).await;
    page.find(".game").await;
    wait_fen(&page, crowd).await;
    page.wait_count("[data-on='d5']", 3).await;
    page.find(".badge").await;
    page.client.close().await.unwrap();
}

async fn the_analysis_board(driver: &str, base: &str, dir: &Path) {
    let page = Page::open(driver, base, &dir.join("analysis"), (1280, 900)).await;

    // A simultaneous position: both sides' mixed strategies and the value.
    let fen = "r1bqkbnr/pppp1ppp/2n'5/4p3/4P3/5N'2/PPPP1PPP/RNBQKB1R KQkq - 1 3";
    page.goto(&format!("/analysis?variant=parity&fen={}", urlencode(fen)))
        .await;
    page.find(".eval[data-kind='simultaneous']").await;
    for side in ["white", "black"] {
        let rows = page
            .client
            .find_all(Locator::Css(&format!(".strategy[data-side='{side}'] li")))
            .await
            .unwrap();
        assert!(!rows.is_empty(), "no {side} strategy");
        let mut sum = 0.0;
        for row in rows {
            let p: f64 = row
                .attr("data-probability")
                .await
                .unwrap()
                .unwrap()
                .parse()
                .unwrap();
            sum += p;
        }
        assert!(
            (sum - 1.0).abs() < 1e-6,
            "{side}'s probabilities sum to {sum}"
        );
    }
    page.wait_text(".eval .value", "Value for White").await;
    // The waiting marks of the FEN (`N'`) are drawn.
    page.wait_count("[data-waiting='white']", 1).await;
    page.screenshot("analysis-mixed.png").await;

    // A simultaneous turn made on the board: White's move, then Black's.
    // The turns are numbered from the FEN's (issue 29 item 6).
    page.wait_text(".status", "Turn 3: choose White's move")
        .await;
    page.play("f1", "c4").await;
    page.wait_text(
        ".status",
        "Turn 3: White chose f1c4; now choose Black's move",
    )
    .await;
    page.find(".sq.pending[data-square='c4']").await;
    page.play("d7", "d5").await;
    page.find(".moves li[data-turn='1']").await;
    page.find("[data-piece='white bishop'][data-on='c4']").await;
    page.find(".eval[data-kind='simultaneous']").await;
    page.wait_text(".status", "Turn 4:").await;
    page.wait_text(".notes", "Turn 3").await;
    // The address keeps the line: reloaded, it is all there.
    let url = page.client.current_url().await.unwrap();
    let query = url.query().unwrap_or_default().to_string();
    assert!(query.contains("moves=f1c4%3Ad7d5"), "{query}");
    page.goto(&format!("/analysis?{query}")).await;
    page.find(".moves li[data-turn='1']").await;
    page.find("[data-piece='white bishop'][data-on='c4']").await;
    page.wait_text(".status", "Turn 4:").await;
    assert_eq!(
        page.find("ol.moves")
            .await
            .attr("start")
            .await
            .unwrap()
            .as_deref(),
        Some("3")
    );
    // Moves that do not play there: the start, and why.
    page.goto(&format!(
        "/analysis?variant=parity&fen={}&moves=a1a8",
        urlencode(fen)
    ))
    .await;
    page.find(".error:not([hidden])").await;
    page.wait_text(".status", "Turn 3: choose White's move")
        .await;

    // A chess position: a mate in one, its score and variation.
    let mate = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1";
    page.goto(&format!("/analysis?variant=chess&fen={}", urlencode(mate)))
        .await;
    page.wait_text(".eval .score", "#1").await;
    page.wait_text(".eval .pv", "1. Ra8#").await;
    page.screenshot("analysis-mate.png").await;
    page.play("a1", "a8").await;
    page.find(".moves .mv[data-ply='1']").await;
    page.wait_text(".eval .outcome", "checkmate").await;
    page.wait_text(".status", "Game over").await;
    press(&page, Key::Left).await;
    page.wait_text(".eval .score", "#1").await;

    // A PGN pasted into the form.
    page.find("textarea[name='pgn']")
        .await
        .send_keys("1. e4 e5 2. Nf3 Nc6")
        .await
        .unwrap();
    page.find("select[name='variant']")
        .await
        .select_by_value("chess")
        .await
        .unwrap();
    page.click("form.setup button[type='submit']").await;
    page.wait_count(".moves .mv", 4).await;
    page.find("[data-piece='white knight'][data-on='f3']").await;
    page.find(".eval .score").await;
    // A bad FEN says why.
    page.find("textarea[name='pgn']")
        .await
        .clear()
        .await
        .unwrap();
    let field = page.find("form.setup input[name='fen']").await;
    field.clear().await.unwrap();
    field.send_keys("8/8/8 w - - 0 1").await.unwrap();
    page.click("form.setup button[type='submit']").await;
    page.wait_text("aside.panel > .error", "bad FEN for chess")
        .await;
    page.client.close().await.unwrap();
}

/// Scrolls the page to the element `css` (for a screenshot of it).
async fn scroll_to(page: &Page, css: &str) {
    page.client
        .execute(
            "document.querySelector(arguments[0]).scrollIntoView({block: 'center'})",
            vec![json!(css)],
        )
        .await
        .expect("the page scrolls");
}

/// A finished game's computer analysis on its page: asked for with the
/// button, drawn as a graph with the judged moves marked, the accuracy of
/// each player; for a simultaneous game each turn's strategies and losses.
async fn the_computer_analysis(driver: &str, base: &str, dir: &Path) {
    let white = Page::open(driver, base, &dir.join("review-white"), (1280, 900)).await;
    let black = Page::open(driver, base, &dir.join("review-black"), (1280, 900)).await;
    let (id, _) = friend_game(&white, &black, "chess").await;
    assert!(
        white
            .find(".review")
            .await
            .attr("hidden")
            .await
            .unwrap()
            .is_some(),
        "no analysis while the game goes on"
    );
    // The fool's mate: 2. g4?? is a blunder.
    for (n, (page, from, to)) in [
        (&white, "f2", "f3"),
        (&black, "e7", "e5"),
        (&white, "g2", "g4"),
        (&black, "d8", "h4"),
    ]
    .into_iter()
    .enumerate()
    {
        page.wait_count(".moves .mv", n).await;
        page.play(from, to).await;
    }
    white.find(".game[data-status='finished']").await;
    white.click("[data-action='request-analysis']").await;
    white.find(".eval-graph").await;
    let blunder = white.find(".moves .mv.blunder[data-ply='3']").await;
    assert_eq!(blunder.text().await.unwrap(), "g4??");
    let title = blunder.attr("title").await.unwrap().unwrap_or_default();
    assert!(
        title.starts_with("Blunder. ") && title.ends_with(" was best."),
        "{title}"
    );
    white
        .wait_text(".review-player[data-color='white']", "1 blunder")
        .await;
    white
        .wait_text(".review-player[data-color='black']", "0 blunders")
        .await;
    white.find(".eval-graph .graph-mark.blunder").await;
    scroll_to(&white, ".review").await;
    white.screenshot("analysis-chess.png").await;
    // The other player, opening the game again, sees the stored analysis.
    black.goto(&format!("/game/{id}")).await;
    black.find(".eval-graph").await;
    black.find(".moves .mv.blunder[data-ply='3']").await;
    assert!(
        black
            .find("[data-action='request-analysis']")
            .await
            .attr("hidden")
            .await
            .unwrap()
            .is_some(),
        "the button is gone once the analysis exists"
    );

    // A simultaneous game: each turn's strategies and expected losses.
    let (id, _) = friend_game(&white, &black, "parity").await;
    play_turn(&white, &black, 1, ("e2", "e4"), ("e7", "e5")).await;
    play_turn(&white, &black, 2, ("g1", "f3"), ("b8", "c6")).await;
    let resigned = fetch(&white, "POST", &format!("/api/board/game/{id}/resign")).await;
    assert_eq!(resigned["ok"], true, "{resigned}");
    white.find(".game[data-status='finished']").await;
    white.click("[data-action='request-analysis']").await;
    white.find(".eval-graph").await;
    white.wait_text(".review-turn", "Engine's strategy").await;
    white.wait_text(".review-turn", "Turn 2").await;
    white
        .wait_text(
            ".review-player[data-color='white']",
            "average expected loss",
        )
        .await;
    white.click(".moves li[data-turn='1']").await;
    white.wait_text(".review-turn", "Turn 1").await;
    scroll_to(&white, ".review").await;
    white.screenshot("analysis-parity.png").await;
    let errors = white.console_errors().await;
    assert!(errors.is_empty(), "{errors:?}");
    white.client.close().await.unwrap();
    black.client.close().await.unwrap();
}

fn urlencode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn navigation_positions_and_the_analysis_board() {
    let dir = tempfile::tempdir().unwrap();
    let (_driver_process, driver) = start_chromedriver();
    let base = start_server(dir.path()).await;
    navigation_in_a_simultaneous_game(&driver, &base, dir.path()).await;
    a_finished_game_replays(&driver, &base, dir.path()).await;
    a_game_from_a_fen(&driver, &base, dir.path()).await;
    the_analysis_board(&driver, &base, dir.path()).await;
    the_computer_analysis(&driver, &base, dir.path()).await;
}
