//! The page's languages in headless Chromium (issue 29): a browser set to
//! French gets the lobby in French by itself ("auto"); choosing English in
//! the settings switches the page at once and stays; an English browser
//! that chooses French gets the settings, then a game, a refused move's
//! reason and the rules in French.
//!
//! Needs Debian's `chromium` and `chromium-driver`; without them this test
//! fails, it never skips.

use crate::common;

use common::browser::*;
use common::start_server;
use serde_json::Value;

async fn html_lang(page: &Page) -> String {
    let lang: Value = page
        .client
        .execute("return document.documentElement.lang;", vec![])
        .await
        .unwrap();
    lang.as_str().unwrap_or_default().to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_speaks_the_browsers_language_or_the_chosen_one() {
    let dir = tempfile::tempdir().unwrap();
    let (_driver_process, driver) = start_chromedriver();
    let base = start_server(dir.path()).await;

    // A French browser, nothing chosen: the lobby is French.
    let french = Page::open_in(
        &driver,
        &base,
        &dir.path().join("fr"),
        (1280, 900),
        Some("fr-FR,fr"),
    )
    .await;
    french.goto("/").await;
    french.wait_text("form.create h2", "Nouvelle partie").await;
    french.wait_text(".settings-link", "Réglages").await;
    french
        .wait_text("form.create button[type='submit']", "Créer la partie")
        .await;
    assert_eq!(html_lang(&french).await, "fr");
    french.screenshot("lobby-fr.png").await;
    assert!(french.console_errors().await.is_empty());

    // English chosen in the settings: the page switches at once, and stays.
    french.goto("/settings").await;
    french
        .wait_text(".settings legend", "Thème du plateau")
        .await;
    french.click("input[name='language'][value='en']").await;
    french.wait_text(".settings-link", "Settings").await;
    french.wait_text(".settings legend", "Board colours").await;
    french.goto("/").await;
    french.wait_text("form.create h2", "New game").await;
    assert_eq!(html_lang(&french).await, "en");

    // An English browser that chooses French: the settings redraw in
    // French, then a game against the engine is French too.
    let english = Page::open(&driver, &base, &dir.path().join("en"), (1280, 900)).await;
    english.goto("/").await;
    english.wait_text("form.create h2", "New game").await;
    english.goto("/settings").await;
    english.click("input[name='language'][value='fr']").await;
    english.wait_text(".settings-link", "Réglages").await;
    english
        .wait_text(".settings legend", "Thème du plateau")
        .await;
    english
        .create_game("chess", "days", "engine", "white")
        .await;
    assert_eq!(html_lang(&english).await, "fr");
    assert!(english.console_errors().await.is_empty());
    // A refused move is told in French (its 422 is the only console line).
    english.type_move("e2e5").await;
    english
        .wait_text(".game .error", "n'est pas un coup légal ici")
        .await;
    // The rules for players, in French too.
    english.click("details.rules summary").await;
    english.wait_text(".rules-text h1", "Échecs").await;
    english.wait_text(".rules-text", "Prise en passant").await;
    english.screenshot("game-fr.png").await;
    let logged = english.console_errors().await;
    assert!(logged.iter().all(|line| line.contains("422")), "{logged:?}");
}
