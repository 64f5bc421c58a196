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

use fantoccini::{elements::Element, key::Key, Client, ClientBuilder, Locator};
use hyper_util::client::legacy::connect::HttpConnector;
use parity_rules::Registry;
use serde_json::{json, Value};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";
/// Generous: an engine reply or a page update on a loaded two-core machine.
const WAIT: Duration = Duration::from_secs(120);
const POLL: Duration = Duration::from_millis(150);

/// A child process killed when the test ends, however it ends.
struct Reaped(Child);

impl Drop for Reaped {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn wait_for_port(port: u16, what: &str, child: &mut Child) {
    let start = Instant::now();
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        if let Some(status) = child.try_wait().unwrap() {
            panic!("{what} exited before listening: {status}");
        }
        assert!(
            start.elapsed() < WAIT,
            "{what} did not listen on port {port}"
        );
        std::thread::sleep(POLL);
    }
}

fn screenshot_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The server on a fresh database and port, in this test's runtime.
async fn start_server(dir: &Path) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let server = parity_server::start(
        &dir.join("games.sqlite"),
        listener,
        Registry::builtin(),
        Default::default(),
    )
    .await
    .expect("the server starts");
    format!("http://{}", server.addr)
}

fn start_chromedriver() -> (Reaped, String) {
    for path in [CHROMIUM, CHROMEDRIVER] {
        assert!(
            Path::new(path).exists(),
            "{path} is missing: install Debian's packages `chromium` and `chromium-driver` \
             (scripts/test does) to run the browser test"
        );
    }
    let port = free_port();
    let mut child = Command::new(CHROMEDRIVER)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromedriver starts");
    wait_for_port(port, "chromedriver", &mut child);
    (Reaped(child), format!("http://127.0.0.1:{port}"))
}

/// One browser (its own profile, so its own cookies: one player) on the page.
struct Page {
    client: Client,
    base: String,
}

impl Page {
    async fn open(driver: &str, base: &str, profile: &Path, size: (u32, u32)) -> Page {
        // Flags without which Chromium's background connections fail on a
        // closed network.
        let args = [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-dev-shm-usage",
        ]
        .iter()
        .map(|a| a.to_string())
        .chain([
            format!("--user-data-dir={}", profile.display()),
            format!("--window-size={},{}", size.0, size.1),
        ])
        .collect::<Vec<_>>();
        let caps = json!({
            "browserName": "chrome",
            "goog:chromeOptions": { "binary": CHROMIUM, "args": args },
        });
        let client = ClientBuilder::new(HttpConnector::new())
            .capabilities(caps.as_object().unwrap().clone())
            .connect(driver)
            .await
            .expect("chromedriver opens a browser session");
        Page {
            client,
            base: base.to_string(),
        }
    }

    async fn goto(&self, path: &str) {
        let url = if path.starts_with("http") {
            path.to_string()
        } else {
            format!("{}{path}", self.base)
        };
        self.client.goto(&url).await.expect("page loads");
    }

    async fn find(&self, css: &str) -> Element {
        match self
            .client
            .wait()
            .at_most(WAIT)
            .every(POLL)
            .for_element(Locator::Css(css))
            .await
        {
            Ok(element) => element,
            Err(e) => panic!("no `{css}` on the page: {e}\n{}", self.describe().await),
        }
    }

    /// Clicks `css`, finding it again if the page redrew it between the
    /// find and the click (the board is redrawn on every update).
    async fn click(&self, css: &str) {
        self.wait_for(&format!("a click on `{css}`"), async || {
            let element = self.client.find(Locator::Css(css)).await.ok()?;
            element.click().await.ok()
        })
        .await
    }

    /// Polls `probe` until it finds something; fails after `WAIT`.
    async fn wait_for<T>(&self, what: &str, mut probe: impl AsyncFnMut() -> Option<T>) -> T {
        let start = Instant::now();
        loop {
            if let Some(found) = probe().await {
                return found;
            }
            if start.elapsed() > WAIT {
                panic!("timed out waiting for {what}\n{}", self.describe().await);
            }
            tokio::time::sleep(POLL).await;
        }
    }

    /// Waits until the text of `css` contains `needle`; returns the text.
    async fn wait_text(&self, css: &str, needle: &str) -> String {
        self.wait_for(&format!("`{css}` to say `{needle}`"), async || {
            let text = self
                .client
                .find(Locator::Css(css))
                .await
                .ok()?
                .text()
                .await
                .ok()?;
            text.contains(needle).then_some(text)
        })
        .await
    }

    /// Waits until `css` matches exactly `n` elements.
    async fn wait_count(&self, css: &str, n: usize) {
        self.wait_for(&format!("{n} of `{css}`"), async || {
            let found = self.client.find_all(Locator::Css(css)).await.ok()?;
            (found.len() == n).then_some(())
        })
        .await
    }

    /// Waits until `css` is on the page but hidden.
    async fn wait_hidden(&self, css: &str) {
        self.wait_for(&format!("`{css}` to hide"), async || {
            let shown = self
                .client
                .find(Locator::Css(css))
                .await
                .ok()?
                .is_displayed()
                .await
                .ok()?;
            (!shown).then_some(())
        })
        .await
    }

    /// Waits until the page has left the game `id` for another.
    async fn wait_url_change(&self, id: &str) {
        self.wait_for(&format!("the page to leave game {id}"), async || {
            (self.game_id().await != id).then_some(())
        })
        .await
    }

    /// The page's status and error lines, for failure messages.
    async fn describe(&self) -> String {
        let mut out = String::new();
        for css in [".status", ".error", ".notes", ".meta"] {
            if let Ok(element) = self.client.find(Locator::Css(css)).await {
                out += &format!("{css}: {:?}\n", element.text().await.unwrap_or_default());
            }
        }
        out
    }

    /// Picks a piece and its target by clicking the two squares.
    async fn play(&self, from: &str, to: &str) {
        self.click(&format!("[data-square='{from}']")).await;
        self.find(&format!(".sq.selected[data-square='{from}']"))
            .await;
        self.click(&format!("[data-square='{to}']")).await;
    }

    /// Types a move into the move box and presses Enter.
    async fn type_move(&self, text: &str) {
        let input = self.find(".entry input").await;
        input
            .send_keys(&format!("{text}{}", char::from(Key::Enter)))
            .await
            .unwrap();
    }

    /// The game's state as this browser's seat sees it (`gameFull`).
    async fn game_full(&self, id: &str) -> Value {
        let script = "const done = arguments[arguments.length - 1];
            fetch('/api/games/' + arguments[0]).then(r => r.json()).then(done, e => done(String(e)));";
        self.client
            .execute_async(script, vec![json!(id)])
            .await
            .expect("fetch runs")
    }

    async fn game_id(&self) -> String {
        let url = self.client.current_url().await.unwrap();
        url.path().trim_start_matches("/game/").to_string()
    }

    /// Whether the page asks before it is left (it cancels `beforeunload`).
    async fn warns_before_unload(&self) -> bool {
        let script = "const e = new Event('beforeunload', {cancelable: true});
            window.dispatchEvent(e); return e.defaultPrevented;";
        let answer = self.client.execute(script, vec![]).await.expect("script runs");
        answer.as_bool().expect("a boolean")
    }

    async fn local_storage_keys(&self) -> Vec<String> {
        let keys = self
            .client
            .execute("return Object.keys(localStorage);", vec![])
            .await
            .expect("script runs");
        serde_json::from_value(keys).expect("a list of keys")
    }

    /// Closes this tab, going on in a new blank one of the same browser.
    async fn close_tab(&self) {
        let tab = self.client.new_window(true).await.expect("a new tab");
        self.client.close_window().await.expect("the tab closes");
        self.client
            .switch_to_window(tab.handle)
            .await
            .expect("to the new tab");
    }

    async fn screenshot(&self, name: &str) {
        let png = self.client.screenshot().await.expect("screenshot");
        std::fs::write(screenshot_dir().join(name), png).unwrap();
    }

    /// Fills the lobby's form and creates a game; returns its id.
    /// `timing` is `live` (the form's 10+5 clock) or `days` (correspondence).
    async fn create_game(
        &self,
        variant: &str,
        timing: &str,
        opponent: &str,
        color: &str,
    ) -> String {
        self.goto("/").await;
        self.find(&format!("select[name='variant'] option[value='{variant}']"))
            .await;
        self.find("select[name='variant']")
            .await
            .select_by_value(variant)
            .await
            .unwrap();
        self.click(&format!("input[name='timing'][value='{timing}']"))
            .await;
        self.click(&format!("input[name='opponent'][value='{opponent}']"))
            .await;
        if opponent == "engine" {
            let level = self.find("input[name='level']").await;
            level.clear().await.unwrap();
            level.send_keys("1").await.unwrap();
        }
        self.click(&format!("input[name='color'][value='{color}']"))
            .await;
        self.click("form.create button[type='submit']").await;
        self.find(".game").await;
        self.game_id().await
    }
}

/// One simultaneous turn through both pages: White picks (the page
/// commits), Black sees only "committed", Black picks, both pages reveal
/// by themselves and show the turn.
async fn play_turn(
    white: &Page,
    black: &Page,
    turn: usize,
    white_move: (&str, &str),
    black_move: Move<'_>,
    screenshots: Option<(&str, &str)>,
) {
    white.play(white_move.0, white_move.1).await;
    white
        .wait_text(".status", "committed, waiting for opponent")
        .await;
    black
        .wait_text(".commit-state[data-commit='white']", "committed")
        .await;
    if let Some((white_view, black_view)) = screenshots {
        white.screenshot(white_view).await;
        black.screenshot(black_view).await;
    }
    match black_move {
        Move::Click(from, to) => black.play(from, to).await,
        Move::Typed(text) => black.type_move(text).await,
    }
    for page in [white, black] {
        page.find(&format!(".moves li[data-turn='{turn}']")).await;
        page.wait_text(".status", &format!("Turn {}", turn + 1))
            .await;
    }
}

enum Move<'a> {
    Click(&'a str, &'a str),
    Typed(&'a str),
}

async fn simultaneous_game(driver: &str, base: &str, dir: &Path) {
    let white = Page::open(driver, base, &dir.join("white"), (1280, 900)).await;
    // Black on a phone-sized window: the board scales to the width.
    let black = Page::open(driver, base, &dir.join("black"), (412, 915)).await;

    let id = white.create_game("parity", "days", "friend", "white").await;
    let invite = white
        .find(".invite input")
        .await
        .prop("value")
        .await
        .unwrap()
        .expect("an invite link");
    assert!(invite.contains(&format!("/game/{id}?invite=")), "{invite}");
    black.goto(&invite).await;
    for page in [&white, &black] {
        page.find(".game[data-status='started']").await;
    }
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

    white.click("[data-action='resign']").await;
    white
        .client
        .accept_alert()
        .await
        .expect("the resign confirmation");
    // The ending in the rules' words, the same the server stores by name.
    let resigned = format!("Game over: 0-1 ({}).", parity_rules::Reason::Resignation.text());
    for page in [&white, &black] {
        page.wait_text(".status", &resigned).await;
    }

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
    let id = white.create_game("parity", "days", "friend", "white").await;
    let invite = white
        .find(".invite input")
        .await
        .prop("value")
        .await
        .unwrap()
        .expect("an invite link");
    black.goto(&invite).await;
    for page in [&white, &black] {
        page.find(".game[data-status='started']").await;
    }
    let game = format!("/game/{id}");

    // Turn 1: White commits and closes the tab; Black commits; a new tab
    // of White's browser reveals the move.
    white.play("e2", "e4").await;
    white
        .wait_text(".status", "committed, waiting for opponent")
        .await;
    assert!(white.warns_before_unload().await, "no warning before leaving");
    let key = format!("parity_commit:{id}:1:white");
    assert!(white.local_storage_keys().await.contains(&key));
    white.close_tab().await;
    black.play("d7", "d5").await;
    black.wait_text(".status", "both committed").await;
    white.goto(&game).await;
    turn_resolves(&[&white, &black], 1).await;
    white.screenshot("revealed-from-a-new-tab.png").await;
    assert!(!white.warns_before_unload().await, "a warning with nothing to lose");
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
    white.client.switch_to_window(second_tab.handle).await.unwrap();
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
    assert!(said.contains("turn 3") && said.contains("no reveal"), "{said}");
    assert!(!elsewhere.warns_before_unload().await, "a warning with nothing to lose");
    elsewhere.screenshot("move-on-another-device.png").await;
    black.play("a7", "a6").await;
    turn_resolves(&[&white, &black, &elsewhere], 3).await;
    white.wait_hidden(".error").await;
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
