//! Accessibility of the page (issue 29), in headless Chromium: axe-core
//! (npm; `scripts/test` installs it under `target/npm`, or `PARITY_AXE`
//! names its `axe.min.js`) finds no serious or critical violation on the
//! lobby, a game, the analysis board, a profile and the settings; the
//! moves of a game are announced in a live region for screen readers.
//!
//! Needs Debian's `chromium` and `chromium-driver` and axe-core; without
//! them this test fails, it never skips.

use crate::common;

use common::browser::*;
use common::start_server;
use serde_json::json;

#[tokio::test(flavor = "multi_thread")]
async fn pages_pass_axe_and_moves_are_announced() {
    let axe = axe_script();
    let dir = tempfile::tempdir().unwrap();
    let (_driver_process, driver) = start_chromedriver();
    let base = start_server(dir.path()).await;
    let page = Page::open(&driver, &base, &dir.path().join("a11y"), (1280, 900)).await;
    let mut failures = Vec::new();

    page.goto("/").await;
    page.find(".variant-card").await;
    for v in serious_violations(&page, &axe).await {
        failures.push(format!("lobby: {v}"));
    }

    // A game against the engine: the reply is announced.
    let id = page.create_game("chess", "days", "engine", "white").await;
    page.find(".game[data-status='started']").await;
    page.play("e2", "e4").await;
    // Our move and the engine's reply, together or one after the other.
    page.wait_text(".moves", "e4").await;
    let said = page.wait_text(".move-announce", "Black played").await;
    assert!(said.ends_with('.'), "{said}");
    assert_eq!(
        page.find(".move-announce")
            .await
            .attr("aria-live")
            .await
            .unwrap()
            .as_deref(),
        Some("polite")
    );
    for v in serious_violations(&page, &axe).await {
        failures.push(format!("game {id}: {v}"));
    }

    page.goto("/analysis?variant=parity").await;
    page.find(".eval[data-kind='simultaneous']").await;
    for v in serious_violations(&page, &axe).await {
        failures.push(format!("analysis board: {v}"));
    }

    // A profile: sign up, then one's own page (tokens and sessions too).
    let signed = page
        .client
        .execute_async(
            "const done = arguments[arguments.length - 1];
             fetch('/api/signup', {method: 'POST', headers: {'Content-Type': 'application/json'},
               body: JSON.stringify({username: 'Reader', password: 'correct horse battery'})})
               .then(r => done(r.status), e => done(String(e)));",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(signed, json!(200), "sign-up");
    page.goto("/@/Reader").await;
    page.find(".profile .tokens").await;
    for v in serious_violations(&page, &axe).await {
        failures.push(format!("profile: {v}"));
    }
    page.screenshot("a11y-profile.png").await;
    page.goto("/settings").await;
    page.wait_text(".settings .where", "Saved with your account")
        .await;
    for v in serious_violations(&page, &axe).await {
        failures.push(format!("settings: {v}"));
    }
    assert!(
        failures.is_empty(),
        "axe-core's serious or critical violations:\n{}",
        failures.join("\n")
    );
}
