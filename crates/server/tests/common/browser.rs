//! Headless Chromium over WebDriver (chromedriver): the harness every
//! browser test shares. It knows the page, not the server: the server
//! tests start theirs with `common::start_server`, and the `parity`
//! binary's proxy test (crates/cli/tests/proxies.rs) includes this file
//! to drive the page behind nginx over https.
//!
//! Needs Debian's `chromium` and `chromium-driver` (`scripts/test` installs
//! them); without them a browser test fails, it never skips.

use fantoccini::{elements::Element, key::Key, Client, ClientBuilder, Locator};
use hyper_util::client::legacy::connect::HttpConnector;
use serde_json::{json, Value};
use std::net::{TcpListener, TcpStream};
use std::os::unix::process::CommandExt as _;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub const CHROMIUM: &str = "/usr/bin/chromium";
pub const CHROMEDRIVER: &str = "/usr/bin/chromedriver";
/// Generous: an engine reply or a page update on a loaded two-core machine.
pub const WAIT: Duration = Duration::from_secs(120);
pub const POLL: Duration = Duration::from_millis(150);

/// A child process killed when the test ends, however it ends.
pub struct Reaped(pub Child);

impl Drop for Reaped {
    fn drop(&mut self) {
        // The whole process group: chromedriver and the browsers it started,
        // which a failed test never closes.
        let _ = Command::new("kill")
            .args(["-KILL", "--", &format!("-{}", self.0.id())])
            .status();
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

pub fn wait_for_port(port: u16, what: &str, child: &mut Child) {
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

pub fn screenshot_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// White creates a game against a friend in the lobby and Black joins by
/// the invite link; the game's id and the link, once both pages show the
/// game started.
pub async fn friend_game(white: &Page, black: &Page, variant: &str) -> (String, String) {
    let id = white.create_game(variant, "days", "friend", "white").await;
    let invite = white
        .find(".invite input")
        .await
        .prop("value")
        .await
        .unwrap()
        .expect("an invite link");
    black.goto(&invite).await;
    for page in [white, black] {
        page.find(".game[data-status='started']").await;
    }
    (id, invite)
}

pub fn start_chromedriver() -> (Reaped, String) {
    chromedriver(None)
}

/// As [`start_chromedriver`], its browsers with `home` as their `HOME`:
/// the certificates they trust besides the system's are those of
/// `home/.pki/nssdb` (a test CA, added with NSS's `certutil`).
pub fn start_chromedriver_in(home: &Path) -> (Reaped, String) {
    chromedriver(Some(home))
}

fn chromedriver(home: Option<&Path>) -> (Reaped, String) {
    for path in [CHROMIUM, CHROMEDRIVER] {
        assert!(
            Path::new(path).exists(),
            "{path} is missing: install Debian's packages `chromium` and `chromium-driver` \
             (scripts/test does) to run the browser test"
        );
    }
    let port = free_port();
    let mut command = Command::new(CHROMEDRIVER);
    if let Some(home) = home {
        command.env("HOME", home);
    }
    let mut child = command
        .process_group(0)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromedriver starts");
    wait_for_port(port, "chromedriver", &mut child);
    (Reaped(child), format!("http://127.0.0.1:{port}"))
}

/// One browser (its own profile, so its own cookies: one player) on the page.
pub struct Page {
    pub client: Client,
    pub base: String,
}

impl Page {
    pub async fn open(driver: &str, base: &str, profile: &Path, size: (u32, u32)) -> Page {
        Page::open_in(driver, base, profile, size, None).await
    }

    /// A browser whose languages are `languages` (`fr-FR,fr`), as its
    /// user set them: `navigator.languages` and `Accept-Language`.
    pub async fn open_in(
        driver: &str,
        base: &str,
        profile: &Path,
        size: (u32, u32),
        languages: Option<&str>,
    ) -> Page {
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
        let mut options = json!({ "binary": CHROMIUM, "args": args });
        if let Some(languages) = languages {
            let first = languages.split(',').next().unwrap_or(languages);
            options["args"]
                .as_array_mut()
                .unwrap()
                .push(json!(format!("--lang={first}")));
            options["prefs"] = json!({"intl": {"accept_languages": languages}});
        }
        // Headless Chromium's windows are at least 500 px wide: a phone's
        // width is emulated.
        if size.0 < 500 {
            options["mobileEmulation"] = json!({"deviceMetrics": {
                "width": size.0, "height": size.1, "pixelRatio": 1.0, "touch": false,
            }});
        }
        let caps = json!({
            "browserName": "chrome",
            "goog:chromeOptions": options,
            // Keeps the console for `console_errors`.
            "goog:loggingPrefs": { "browser": "ALL" },
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

    pub async fn goto(&self, path: &str) {
        let url = if path.starts_with("http") {
            path.to_string()
        } else {
            format!("{}{path}", self.base)
        };
        self.client.goto(&url).await.expect("page loads");
    }

    pub async fn find(&self, css: &str) -> Element {
        let deadline = Instant::now() + WAIT;
        loop {
            match self
                .client
                .wait()
                .at_most(deadline.saturating_duration_since(Instant::now()))
                .every(POLL)
                .for_element(Locator::Css(css))
                .await
            {
                Ok(element) => return element,
                // The page moved on while the driver looked (a form that
                // routes to the game page): look again on the new page.
                Err(e)
                    if e.to_string().contains("aborted by navigation")
                        && Instant::now() < deadline =>
                {
                    tokio::time::sleep(POLL).await;
                }
                Err(e) => panic!("no `{css}` on the page: {e}\n{}", self.describe().await),
            }
        }
    }

    /// Clicks `css`, finding it again if the page redrew it between the
    /// find and the click (the board is redrawn on every update).
    pub async fn click(&self, css: &str) {
        self.wait_for(&format!("a click on `{css}`"), async || {
            let element = self.client.find(Locator::Css(css)).await.ok()?;
            element.click().await.ok()
        })
        .await
    }

    /// Polls `probe` until it finds something; fails after `WAIT`.
    pub async fn wait_for<T>(&self, what: &str, mut probe: impl AsyncFnMut() -> Option<T>) -> T {
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
    pub async fn wait_text(&self, css: &str, needle: &str) -> String {
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
    pub async fn wait_count(&self, css: &str, n: usize) {
        self.wait_for(&format!("{n} of `{css}`"), async || {
            let found = self.client.find_all(Locator::Css(css)).await.ok()?;
            (found.len() == n).then_some(())
        })
        .await
    }

    /// Waits until `css` is on the page but hidden.
    pub async fn wait_hidden(&self, css: &str) {
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
    pub async fn wait_url_change(&self, id: &str) {
        self.wait_for(&format!("the page to leave game {id}"), async || {
            (self.game_id().await != id).then_some(())
        })
        .await
    }

    /// The page's status and error lines, for failure messages.
    pub async fn describe(&self) -> String {
        let mut out = String::new();
        for css in [".status", ".error", ".notes", ".meta"] {
            if let Ok(element) = self.client.find(Locator::Css(css)).await {
                out += &format!("{css}: {:?}\n", element.text().await.unwrap_or_default());
            }
        }
        out
    }

    /// Picks a piece and its target by clicking the two squares.
    pub async fn play(&self, from: &str, to: &str) {
        self.click(&format!("[data-square='{from}']")).await;
        self.find(&format!(".sq.selected[data-square='{from}']"))
            .await;
        self.click(&format!("[data-square='{to}']")).await;
    }

    /// Types a move into the move box and presses Enter.
    pub async fn type_move(&self, text: &str) {
        let input = self.find(".entry input").await;
        input
            .send_keys(&format!("{text}{}", char::from(Key::Enter)))
            .await
            .unwrap();
    }

    /// The game's state as this browser's seat sees it (`gameFull`).
    pub async fn game_full(&self, id: &str) -> Value {
        let script = "const done = arguments[arguments.length - 1];
            fetch('/api/games/' + arguments[0]).then(r => r.json()).then(done, e => done(String(e)));";
        self.client
            .execute_async(script, vec![json!(id)])
            .await
            .expect("fetch runs")
    }

    pub async fn game_id(&self) -> String {
        let url = self.client.current_url().await.unwrap();
        url.path().trim_start_matches("/game/").to_string()
    }

    /// Whether the page asks before it is left (it cancels `beforeunload`).
    pub async fn warns_before_unload(&self) -> bool {
        let script = "const e = new Event('beforeunload', {cancelable: true});
            window.dispatchEvent(e); return e.defaultPrevented;";
        let answer = self
            .client
            .execute(script, vec![])
            .await
            .expect("script runs");
        answer.as_bool().expect("a boolean")
    }

    pub async fn local_storage_keys(&self) -> Vec<String> {
        let keys = self
            .client
            .execute("return Object.keys(localStorage);", vec![])
            .await
            .expect("script runs");
        serde_json::from_value(keys).expect("a list of keys")
    }

    /// Closes this tab, going on in a new blank one of the same browser.
    pub async fn close_tab(&self) {
        let tab = self.client.new_window(true).await.expect("a new tab");
        self.client.close_window().await.expect("the tab closes");
        self.client
            .switch_to_window(tab.handle)
            .await
            .expect("to the new tab");
    }

    pub async fn screenshot(&self, name: &str) {
        let png = self.client.screenshot().await.expect("screenshot");
        std::fs::write(screenshot_dir().join(name), png).unwrap();
    }

    /// Fills the lobby's form and creates a game; returns its id.
    /// `timing` is `live` (the form's 10+5 clock) or `days` (correspondence).
    pub async fn create_game(
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

/// chromedriver's log endpoint (`goog:loggingPrefs` in `Page::open` keeps
/// the browser console): the entries since the last call.
#[derive(Debug)]
struct BrowserLog;

impl fantoccini::wd::WebDriverCompatibleCommand for BrowserLog {
    fn endpoint(
        &self,
        base_url: &reqwest::Url,
        session_id: Option<&str>,
    ) -> Result<reqwest::Url, <reqwest::Url as std::str::FromStr>::Err> {
        base_url.join(&format!(
            "session/{}/se/log",
            session_id.unwrap_or_default()
        ))
    }

    fn method_and_body(&self, _: &reqwest::Url) -> (reqwest::Method, Option<String>) {
        (
            reqwest::Method::POST,
            Some(json!({"type": "browser"}).to_string()),
        )
    }
}

impl Page {
    /// The console errors (and uncaught exceptions) the page logged since
    /// the last call, as "source: message" lines.
    pub async fn console_errors(&self) -> Vec<String> {
        let log = self
            .client
            .issue_cmd(BrowserLog)
            .await
            .expect("chromedriver gives the browser log");
        log.as_array()
            .expect("a list of log entries")
            .iter()
            .filter(|entry| entry["level"] == "SEVERE")
            .map(|entry| entry["message"].as_str().unwrap_or_default().to_string())
            .collect()
    }
}

/// One simultaneous turn through both pages: White picks (the page
/// commits), Black sees only "committed", Black picks, both pages reveal
/// by themselves and show the turn.
pub async fn play_turn(
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

/// Black's move: clicked from square to square, or typed.
pub enum Move<'a> {
    Click(&'a str, &'a str),
    Typed(&'a str),
}

/// White resigns through the page; both pages show 0-1.
pub async fn white_resigns(white: &Page, black: &Page) {
    white.click("[data-action='resign']").await;
    white
        .client
        .accept_alert()
        .await
        .expect("the resign confirmation");
    for page in [white, black] {
        page.wait_text(".status", "(0-1).").await;
    }
}

/// axe-core's script: `PARITY_AXE`, or where `scripts/test` installs it.
pub fn axe_script() -> String {
    let path = std::env::var("PARITY_AXE").unwrap_or_else(|_| {
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../target/npm/node_modules/axe-core/axe.min.js"
        )
        .to_string()
    });
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("axe-core at {path} ({e}): run scripts/test, which installs it"))
}

/// The serious and critical violations axe-core finds on the page now:
/// `rule: the first element's selector (n elements)`.
pub async fn serious_violations(page: &Page, axe: &str) -> Vec<String> {
    page.client
        .execute(axe, vec![])
        .await
        .expect("axe-core loads");
    let script = "const done = arguments[arguments.length - 1];
        axe.run(document, {resultTypes: ['violations']})
          .then(r => done(r.violations.map(v => ({id: v.id, impact: v.impact,
             help: v.help, targets: v.nodes.map(n => n.target.join(' '))}))), e => done(String(e)));";
    let found: Value = page
        .client
        .execute_async(script, vec![])
        .await
        .expect("axe-core runs");
    let list = found
        .as_array()
        .unwrap_or_else(|| panic!("axe-core: {found}"));
    list.iter()
        .filter(|v| matches!(v["impact"].as_str(), Some("serious" | "critical")))
        .map(|v| {
            let targets = v["targets"].as_array().cloned().unwrap_or_default();
            format!(
                "{} ({}): {} ({} elements)",
                v["id"].as_str().unwrap_or_default(),
                v["help"].as_str().unwrap_or_default(),
                targets.first().and_then(Value::as_str).unwrap_or_default(),
                targets.len()
            )
        })
        .collect()
}
