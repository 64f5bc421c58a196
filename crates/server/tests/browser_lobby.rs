//! The lobby and the game page's help in headless Chromium, at 1366 px and
//! on a 390 px phone: the variant cards (a diagram, the name and the
//! variant's one line; a click picks the variant for the form), no sideways
//! scrolling at 390 px in the lobby or on any variant's game page, the
//! rules panel, the explanation of a simultaneous turn shown once, and
//! private games kept off the lobby's lists. Screenshots go to
//! `target/screenshots/` (`lobby-desktop.png`, `lobby-phone.png`,
//! `lobby-phone-lists.png`, `parity12-phone.png`, `turn-help-phone.png`,
//! `rules-phone.png`).
//!
//! Needs Debian's `chromium` and `chromium-driver`; without them this test
//! fails, it never skips.

use crate::common;

use common::browser::*;
use parity_rules::Registry;
use serde_json::{json, Value};
use std::num::NonZeroU32;
use std::path::Path;

const DESKTOP: (u32, u32) = (1366, 900);
const PHONE: (u32, u32) = (390, 844);

/// The browsers of these tests, one test at a time: two cores are shared.
static ONE_AT_A_TIME: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// The server on a fresh database, with room for an engine game per
/// variant within a minute.
async fn start_roomy_server(dir: &Path) -> String {
    let mut config = parity_server::base::limits::Config::default();
    config.limits.games_per_minute = NonZeroU32::new(100).unwrap();
    config.limits.engine_games_per_minute = NonZeroU32::new(100).unwrap();
    common::start_server_with(dir, config).await
}

async fn script(page: &Page, code: &str) -> Value {
    page.client
        .execute(code, vec![])
        .await
        .expect("script runs")
}

/// The page's width against the window's: wider means sideways scrolling.
async fn widths(page: &Page) -> (i64, i64) {
    let answer = script(
        page,
        "return [document.documentElement.scrollWidth, window.innerWidth];",
    )
    .await;
    (answer[0].as_i64().unwrap(), answer[1].as_i64().unwrap())
}

/// No sideways scrolling in a window `width` px wide. A phone's emulated
/// viewport grows to a page wider than the phone (the lobby once made it
/// 497 px), so the viewport is held to the window's width too.
async fn assert_no_sideways_scroll(page: &Page, width: u32, what: &str) {
    let (scroll, inner) = widths(page).await;
    assert!(
        scroll <= inner && inner <= i64::from(width),
        "{what}: the page is {scroll} px wide, its viewport {inner} px, in a {width} px window"
    );
}

async fn select_value(page: &Page) -> String {
    page.find("select[name='variant']")
        .await
        .prop("value")
        .await
        .unwrap()
        .unwrap_or_default()
}

/// Bug 3 and point 8: the lobby at 1366 px and at 390 px, with games in
/// its lists; a card per variant with its diagram and its line; a click
/// on a card picks the variant.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_reads_well_on_a_desktop_and_a_phone() {
    let _turn = ONE_AT_A_TIME.lock().await;
    let dir = tempfile::tempdir().unwrap();
    let (_driver_process, driver) = start_chromedriver();
    let base = start_roomy_server(dir.path()).await;
    let registry = Registry::builtin();
    let variants: Vec<_> = registry.iter().collect();

    let phone = Page::open(&driver, &base, &dir.path().join("phone"), PHONE).await;
    // Games in both lists' places: one public game per family.
    phone.goto("/").await;
    for variant in ["parity12", "parity", "safety-in-numbers"] {
        let spec = json!({"variant": variant, "days": 3, "opponent": "friend", "public": true});
        let created = phone
            .client
            .execute_async(
                "const done = arguments[arguments.length - 1];
                 fetch('/api/games', {method: 'POST', headers: {'Content-Type': 'application/json'},
                   body: JSON.stringify(arguments[0])}).then(r => r.json()).then(done, e => done(String(e)));",
                vec![spec],
            )
            .await
            .unwrap();
        assert!(created["id"].is_string(), "{created}");
    }
    phone.goto("/").await;
    // Each engine level says about where it stands (the measured ladder).
    phone.wait_text(".level-rating", "about 1250").await;
    let level = phone.find("input[name='level']").await;
    level.clear().await.unwrap();
    level.send_keys("8").await.unwrap();
    phone.wait_text(".level-rating", "about 2800").await;
    // Not for the simultaneous variants: their ladder has no anchor on this scale.
    phone
        .find("select[name='variant']")
        .await
        .select_by_value("parity")
        .await
        .unwrap();
    let said = phone.find(".level-rating").await.text().await.unwrap();
    assert_eq!(said, "", "a rating for a simultaneous level");
    phone
        .find("select[name='variant']")
        .await
        .select_by_value("chess")
        .await
        .unwrap();
    phone.wait_text(".level-rating", "about 2800").await;
    phone
        .wait_count("table.games[data-status='live'] a[href^='/game/']", 3)
        .await;
    assert_no_sideways_scroll(&phone, PHONE.0, "the lobby at 390 px").await;
    phone
        .wait_count(".variant-card svg.board", variants.len())
        .await;
    assert_no_sideways_scroll(&phone, PHONE.0, "the lobby at 390 px with its cards").await;
    phone.screenshot("lobby-phone.png").await;
    script(&phone, "document.querySelector('.lists').scrollIntoView();").await;
    phone.screenshot("lobby-phone-lists.png").await;

    let desktop = Page::open(&driver, &base, &dir.path().join("desktop"), DESKTOP).await;
    desktop.goto("/").await;
    desktop
        .wait_count(".variant-card svg.board", variants.len())
        .await;
    desktop
        .wait_count("table.games[data-status='live'] a[href^='/game/']", 3)
        .await;
    assert_no_sideways_scroll(&desktop, DESKTOP.0, "the lobby at 1366 px").await;
    for v in &variants {
        let card = format!(".variant-card[data-variant='{}']", v.id());
        let line = desktop
            .find(&format!("{card} .variant-line"))
            .await
            .text()
            .await
            .unwrap();
        assert!(
            !line.trim().is_empty(),
            "{}: no description on its card",
            v.id()
        );
        assert_eq!(line.trim(), v.spec.description, "{}", v.id());
        let title = desktop
            .find(&format!("{card} .variant-title"))
            .await
            .text()
            .await
            .unwrap();
        assert_eq!(title, v.spec.name);
        // The diagram is the start position: one drawn piece per piece.
        let pieces = desktop
            .client
            .find_all(fantoccini::Locator::Css(&format!(
                "{card} svg.board [data-piece]"
            )))
            .await
            .unwrap()
            .len();
        let start = parity_rules::AnyGame::new(v).pieces();
        let expected: usize = start.iter().map(|(_, on)| on.len()).sum();
        assert_eq!(pieces, expected, "{}: pieces on the card's diagram", v.id());
    }
    for id in ["tutti-frutti", "parity12", "move-neutral"] {
        desktop
            .click(&format!(".variant-card[data-variant='{id}']"))
            .await;
        assert_eq!(
            select_value(&desktop).await,
            id,
            "a click on its card picks {id}"
        );
        desktop
            .find(&format!(
                ".variant-card[data-variant='{id}'][aria-pressed='true']"
            ))
            .await;
        desktop
            .wait_count(".variant-card[aria-pressed='true']", 1)
            .await;
        let said = desktop
            .find(".variant-description")
            .await
            .text()
            .await
            .unwrap();
        assert_eq!(said, registry.get(id).unwrap().spec.description);
    }
    desktop.click(".variant-card[data-variant='parity']").await;
    desktop.screenshot("lobby-desktop.png").await;
    for page in [phone, desktop] {
        page.client.close().await.unwrap();
    }
}

/// Bug 4: the description of the chosen variant is never empty.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_variant_is_described_in_the_lobby() {
    let _turn = ONE_AT_A_TIME.lock().await;
    let dir = tempfile::tempdir().unwrap();
    let (_driver_process, driver) = start_chromedriver();
    let base = start_roomy_server(dir.path()).await;
    let page = Page::open(&driver, &base, &dir.path().join("p"), DESKTOP).await;
    page.goto("/").await;
    for v in Registry::builtin().iter() {
        page.find(&format!(
            "select[name='variant'] option[value='{}']",
            v.id()
        ))
        .await
        .click()
        .await
        .unwrap();
        assert_eq!(select_value(&page).await, v.id());
        let said = page
            .find(".variant-description")
            .await
            .text()
            .await
            .unwrap();
        assert!(!said.trim().is_empty(), "{}: an empty description", v.id());
    }
    page.client.close().await.unwrap();
}

/// Every variant's game page at 390 px: no sideways scrolling, with the
/// rules panel open too; the rules are the variant's; the explanation of a
/// simultaneous turn comes in the first simultaneous game only (reloads
/// included), until it is dismissed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn game_pages_fit_a_phone_and_explain_the_rules() {
    let _turn = ONE_AT_A_TIME.lock().await;
    let dir = tempfile::tempdir().unwrap();
    let (_driver_process, driver) = start_chromedriver();
    let base = start_roomy_server(dir.path()).await;
    let phone = Page::open(&driver, &base, &dir.path().join("phone"), PHONE).await;
    let mut explained = false;
    for v in Registry::builtin().iter() {
        let id = v.id();
        let simultaneous = v.spec.simultaneous.is_some();
        let game = phone.create_game(id, "days", "engine", "white").await;
        phone.find(".game[data-status='started']").await;
        phone
            .find(&format!(
                "svg.board[data-files='{}'][data-ranks='{}']",
                v.shape.files, v.shape.ranks
            ))
            .await;
        phone.wait_text(".variant-name", &v.spec.name).await;
        assert_no_sideways_scroll(&phone, PHONE.0, &format!("the {id} game page at 390 px")).await;
        if id == "parity12" {
            phone.screenshot("parity12-phone.png").await;
        }

        let help = phone.find(".turn-help").await;
        if simultaneous && !explained {
            assert!(
                help.is_displayed().await.unwrap(),
                "{id}: no explanation of a turn"
            );
            let text = help.text().await.unwrap();
            for word in ["choose", "commit", "reveal", "resolve"] {
                assert!(text.contains(word), "the explanation lacks {word}: {text}");
            }
            phone.screenshot("turn-help-phone.png").await;
            phone.click(".turn-help button").await;
            phone.wait_hidden(".turn-help").await;
            phone.goto(&format!("/game/{game}")).await;
            phone.find(".game[data-status='started']").await;
            phone.wait_text(".variant-name", &v.spec.name).await;
            explained = true;
        }
        // Once dismissed it stays away, in this game and the next.
        let shown = phone.find(".turn-help").await.is_displayed().await.unwrap();
        assert!(
            !shown,
            "{id}: the explanation of a turn shows (explained before: {explained})"
        );

        phone.click("details.rules summary").await;
        // The rules for players, under the variant's name.
        phone.wait_text(".rules-text h1", &v.spec.name).await;
        assert_no_sideways_scroll(&phone, PHONE.0, &format!("the {id} rules at 390 px")).await;
        // The situations that surprise people, drawn by the board.
        if id == "parity" {
            phone
                .wait_count("figure.diagram .diagram-board svg", 4)
                .await;
            let failed = "figure.diagram:nth-of-type(1)";
            phone
                .find(&format!("{failed} [data-piece='white pawn'][data-on='d5']"))
                .await;
            phone
                .find(&format!("{failed} [data-piece='black pawn'][data-on='d4']"))
                .await;
            phone
                .find("figure.diagram:nth-of-type(2) .sq.shared[data-square='e5']")
                .await;
            let swapped = "figure.diagram:nth-of-type(3)";
            phone
                .find(&format!(
                    "{swapped} [data-piece='white pawn'][data-on='d5']"
                ))
                .await;
            phone
                .find(&format!(
                    "{swapped} [data-piece='black pawn'][data-on='e4']"
                ))
                .await;
            phone
                .wait_text("figure.diagram:nth-of-type(4) figcaption", "waiting rule")
                .await;
            script(
                &phone,
                "document.querySelector('figure.diagram:nth-of-type(2)').scrollIntoView();",
            )
            .await;
            phone.screenshot("rules-parity-diagrams.png").await;
        }
        if id == "safety-in-numbers" {
            phone
                .wait_count("figure.diagram .diagram-board svg", 3)
                .await;
            phone
                .find("figure.diagram:nth-of-type(1) [data-pieces-on='d4']")
                .await;
            script(
                &phone,
                "document.querySelector('figure.diagram').scrollIntoView();",
            )
            .await;
            phone.screenshot("rules-crowd-diagrams.png").await;
        }
        if id == "tutti-frutti" {
            phone.wait_text(".rules-text", "Amazon").await;
            // The legend: each new piece in words and a diagram of its reach
            // (the Amazon from the middle of a 7x7 board: 24 queen squares
            // and 8 knight squares).
            let amazon = phone
                .wait_text(
                    ".legend-piece[data-letter='A']",
                    "moves as a queen, or the knight",
                )
                .await;
            assert!(amazon.contains("Amazon"), "{amazon}");
            phone
                .wait_count(".legend-piece[data-letter='A'] .reach", 32)
                .await;
            phone.wait_count(".legend-piece", 3).await;
            script(
                &phone,
                "document.querySelector('.legend').scrollIntoView();",
            )
            .await;
            phone.screenshot("rules-legend.png").await;
            script(
                &phone,
                "document.querySelector('details.rules').scrollIntoView();",
            )
            .await;
            phone.screenshot("rules-phone.png").await;
        }
    }
    assert!(explained, "no simultaneous variant among the built-in ones");
    phone.client.close().await.unwrap();

    // Not dismissed, it stays with the first simultaneous game only.
    let other = Page::open(&driver, &base, &dir.path().join("other"), PHONE).await;
    let first = other.create_game("parity", "days", "engine", "white").await;
    other.find(".game[data-status='started']").await;
    assert!(other.find(".turn-help").await.is_displayed().await.unwrap());
    other
        .create_game("move-neutral", "days", "engine", "white")
        .await;
    other.find(".game[data-status='started']").await;
    other.wait_text(".variant-name", "Move-Neutral").await;
    assert!(
        !other.find(".turn-help").await.is_displayed().await.unwrap(),
        "the explanation of a turn shows in a second simultaneous game"
    );
    other.goto(&format!("/game/{first}")).await;
    other.find(".game[data-status='started']").await;
    other.wait_text(".variant-name", "Parity Chess").await;
    assert!(other.find(".turn-help").await.is_displayed().await.unwrap());
    other.client.close().await.unwrap();
}

/// A friend game created private is not in the lobby's lists; a public
/// one is.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn private_games_stay_off_the_lobby() {
    let _turn = ONE_AT_A_TIME.lock().await;
    let dir = tempfile::tempdir().unwrap();
    let (_driver_process, driver) = start_chromedriver();
    let base = start_roomy_server(dir.path()).await;
    let page = Page::open(&driver, &base, &dir.path().join("p"), PHONE).await;
    let private = page.create_game("parity", "days", "friend", "white").await;
    page.goto("/").await;
    page.find("input[name='public']")
        .await
        .click()
        .await
        .unwrap();
    page.find("input[name='opponent'][value='friend']")
        .await
        .click()
        .await
        .unwrap();
    page.click("form.create button[type='submit']").await;
    page.find(".game").await;
    let public = page.game_id().await;
    page.goto("/").await;
    page.find(&format!("table.games a[href='/game/{public}']"))
        .await;
    let listed = page
        .client
        .find_all(fantoccini::Locator::Css(&format!(
            "table.games a[href='/game/{private}']"
        )))
        .await
        .unwrap();
    assert!(listed.is_empty(), "the private game {private} is listed");
    page.client.close().await.unwrap();
}
