//! `parity serve` behind each reverse proxy of `deploy/` (docs/deploy.md):
//! Debian's nginx running `deploy/nginx.conf` and Debian's Caddy running
//! `deploy/Caddyfile`, each with a certificate of a test CA made by
//! openssl, the names in CAPITALS of the file replaced.
//!
//! Through each proxy the same clients: berserk, trusting the CA, plays
//! through lichess's API over https (its NDJSON streams through the proxy
//! unbuffered); `tests/python/proxy_client.py` checks the Secure cookie, a
//! wss WebSocket, and that the rate limits count the client's address
//! (not the proxy's, not a forged `X-Forwarded-For`); our own clients over
//! TLS (rustls): without the CA `parity bot` refuses the certificate, with
//! `--ca-file` two bots play a parity game by commit and reveal over https,
//! and `parity loadtest --server https://... --ca-file` plays over wss.
//!
//! And a browser through each: headless Chromium, trusting the CA from an
//! NSS database in its `HOME` (no `--ignore-certificate-errors`), plays a
//! parity game in the page against a second Chromium, the page and its
//! moves over https, its live feed over wss; the server counts the
//! browser's requests against the browser's address. Screenshots go to
//! `target/screenshots/proxy-*.png`.
//!
//! Needs `nginx`, `caddy`, `openssl`, `certutil` (libnss3-tools),
//! `chromium` and `chromium-driver` (scripts/test installs them); without
//! them these tests fail, they never skip. One runs at a time.

use crate::common;

#[allow(dead_code)]
#[path = "../../server/tests/common/browser.rs"]
mod browser;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

#[derive(Clone, Copy)]
enum Proxy {
    Nginx,
    Caddy,
}

impl Proxy {
    fn name(self) -> &'static str {
        match self {
            Proxy::Nginx => "nginx",
            Proxy::Caddy => "Caddy",
        }
    }

    /// Where parity listens behind this proxy, and the address it sees
    /// the proxy's connections come from (its `--trusted-proxy`), which
    /// no client of the proxy has.
    fn parity_side(self) -> (&'static str, &'static str) {
        match self {
            // nginx connects from the address `proxy_bind` gives it.
            Proxy::Nginx => ("127.0.0.1:0", NGINX_ADDR),
            // Caddy 2.6 cannot choose its address (deploy/Caddyfile):
            // parity listens on IPv6 loopback, which Caddy reaches from
            // ::1, while the clients reach Caddy over IPv4.
            Proxy::Caddy => ("[::1]:0", "::1"),
        }
    }

    /// The proxy on 127.0.0.1:`listen` in front of parity at `upstream`
    /// (`host:port`), its certificate `dir/cert.pem`, once it listens.
    fn start(self, dir: &Path, listen: u16, upstream: &str) -> Running {
        match self {
            Proxy::Nginx => start_nginx(dir, listen, upstream),
            Proxy::Caddy => start_caddy(dir, listen, upstream),
        }
    }
}

/// nginx's own address toward parity (`proxy_bind`).
const NGINX_ADDR: &str = "127.0.0.3";

/// A running proxy, stopped when the test ends; its log for failures.
struct Running {
    child: Child,
    log: PathBuf,
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Running {
    fn wait_listening(mut self, what: &str, port: u16) -> Running {
        let deadline = Instant::now() + Duration::from_secs(20);
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            let exited = self.child.try_wait().expect("proxy state");
            assert!(
                exited.is_none() && Instant::now() < deadline,
                "{what} does not listen ({exited:?}): {}",
                std::fs::read_to_string(&self.log).unwrap_or_default()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        self
    }
}

/// The tests one at a time: each runs a proxy, a server and clients (or
/// two browsers) on a machine that may have two cores.
fn one_at_a_time() -> MutexGuard<'static, ()> {
    static LOCK: Mutex<()> = Mutex::new(());
    LOCK.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port()
}

fn shipped(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../deploy")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// `text` with `placeholder` replaced, which must be there.
fn fill(text: &str, placeholder: &str, value: &str) -> String {
    assert!(text.contains(placeholder), "no `{placeholder}` in {text}");
    text.replace(placeholder, value)
}

fn start_nginx(dir: &Path, listen: u16, upstream: &str) -> Running {
    let path = |name: &str| dir.join(name).display().to_string();
    // Where a test's nginx keeps its files, instead of /var.
    let temp_paths: String = ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"]
        .iter()
        .map(|kind| format!("    {kind}_temp_path {};\n", path(kind)))
        .collect();
    let mut conf = shipped("nginx.conf");
    for (placeholder, value) in [
        ("LISTEN", format!("127.0.0.1:{listen}")),
        ("CERT", path("cert.pem")),
        ("KEY;", format!("{};", path("key.pem"))),
        ("UPSTREAM", upstream.to_string()),
        ("PROXY_ADDR", NGINX_ADDR.to_string()),
        (
            "http {\n",
            format!("http {{\n    access_log off;\n{temp_paths}"),
        ),
    ] {
        conf = fill(&conf, placeholder, &value);
    }
    let user = match Command::new("id").arg("-u").output() {
        Ok(o) if common::stdout(&o).trim() == "0" => "user root;\n",
        _ => "",
    };
    let conf = format!(
        "daemon off;\n{user}pid {};\nerror_log {} info;\n{conf}",
        path("nginx.pid"),
        path("error.log")
    );
    std::fs::write(dir.join("nginx.conf"), conf).expect("write nginx.conf");
    let binary = ["/usr/sbin/nginx", "nginx"]
        .into_iter()
        .find(|b| Path::new(b).exists() || !b.starts_with('/'))
        .unwrap();
    let child = Command::new(binary)
        .arg("-p")
        .arg(dir)
        .arg("-c")
        .arg(dir.join("nginx.conf"))
        .args(["-e", &path("error.log")])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("nginx starts (these tests need Debian's nginx)");
    Running {
        child,
        log: dir.join("error.log"),
    }
    .wait_listening("nginx", listen)
}

/// Caddy on `deploy/Caddyfile`: the site is https://127.0.0.1:`listen`
/// with the test's certificate instead of an ACME one; no admin endpoint,
/// no redirect listener on port 80, its storage in `dir`.
fn start_caddy(dir: &Path, listen: u16, upstream: &str) -> Running {
    let path = |name: &str| dir.join(name).display().to_string();
    let site = format!(
        "\n{{\n\tadmin off\n\tauto_https disable_redirects\n\tskip_install_trust\n\
         \tstorage file_system {}\n}}\n\nhttps://127.0.0.1:{listen} {{\n\
         \tbind 127.0.0.1\n\ttls {} {}\n",
        path("caddy-data"),
        path("cert.pem"),
        path("key.pem"),
    );
    let conf = fill(&shipped("Caddyfile"), "\nSITE {\n", &site);
    let conf = fill(
        &conf,
        "reverse_proxy UPSTREAM {",
        &format!("reverse_proxy {upstream} {{"),
    );
    std::fs::write(dir.join("Caddyfile"), conf).expect("write Caddyfile");
    let binary = "/usr/bin/caddy";
    assert!(
        Path::new(binary).exists(),
        "{binary} is missing: install Debian's package `caddy` (scripts/test does)"
    );
    let log = std::fs::File::create(dir.join("caddy.log")).expect("caddy.log");
    let child = Command::new(binary)
        .args(["run", "--adapter", "caddyfile", "--config"])
        .arg(dir.join("Caddyfile"))
        // Caddy's own files (autosave, certificates) in the test's dir.
        .env("HOME", dir)
        .env("XDG_CONFIG_HOME", dir.join("caddy-config"))
        .env("XDG_DATA_HOME", dir.join("caddy-data"))
        .stdout(Stdio::null())
        .stderr(log)
        .spawn()
        .expect("caddy starts");
    Running {
        child,
        log: dir.join("caddy.log"),
    }
    .wait_listening("caddy", listen)
}

/// A server with `flags` behind `proxy` with the test's certificate: the
/// server, its own (plain) base URL, the proxy and its https URL.
fn behind(proxy: Proxy, dir: &Path, db: &Path, flags: &[&str]) -> (Child, String, Running, String) {
    let (addr, proxy_addr) = proxy.parity_side();
    let mut flags = flags.to_vec();
    flags.extend(["--trusted-proxy", proxy_addr]);
    let (server, base) = common::serve_at(db, addr, &flags);
    let listen = free_port();
    let running = proxy.start(dir, listen, base.trim_start_matches("http://"));
    (server, base, running, format!("https://127.0.0.1:{listen}"))
}

/// The clients' whole play through `proxy` (the module's doc).
fn clients_play_through(proxy: Proxy) {
    let _alone = one_at_a_time();
    let name = proxy.name();
    let dir = tempfile::tempdir().expect("temp dir");
    common::certificates(dir.path(), "IP:127.0.0.1,DNS:localhost");
    let db = dir.path().join("games.sqlite");
    let db_arg = db.to_str().unwrap();
    let (alice, bob) = (
        common::board_token(db_arg, "Alice"),
        common::board_token(db_arg, "Bob"),
    );
    let (bot_a, bot_b) = (
        common::bot_token(db_arg, "BotA"),
        common::bot_token(db_arg, "BotB"),
    );
    let (mut server, base, _proxy, public) = behind(
        proxy,
        dir.path(),
        &db,
        &["--games-per-minute", "1000", "--actions-per-second", "1000"],
    );
    let ca = dir.path().join("ca.pem");
    let scripts = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/python");

    let berserk = Command::new("python3")
        .arg(scripts.join("berserk_client.py"))
        .args([&public, &alice, &bob])
        .env("REQUESTS_CA_BUNDLE", &ca)
        .output()
        .expect("python3 runs berserk");
    assert!(
        berserk.status.success() && common::stdout(&berserk).trim() == "ok",
        "berserk through {name}:\n{}\n{}",
        common::stdout(&berserk),
        common::stderr(&berserk)
    );
    let checked = Command::new("python3")
        .arg(scripts.join("proxy_client.py"))
        .arg(&public)
        .arg(&ca)
        .output()
        .expect("python3 runs the proxy client");
    assert!(
        checked.status.success() && common::stdout(&checked).trim() == "ok",
        "through {name}:\n{}\n{}",
        common::stdout(&checked),
        common::stderr(&checked)
    );

    // Our clients over TLS: without the CA, the certificate is refused.
    let bot = |token: &str, ca: Option<&Path>| {
        let mut command = Command::new(env!("CARGO_BIN_EXE_parity"));
        command.args([
            "bot", "--server", &public, "--token", token, "--level", "1", "--games", "1",
        ]);
        if let Some(ca) = ca {
            command.arg("--ca-file").arg(ca);
        }
        command.stdout(Stdio::null()).stderr(Stdio::piped());
        command
    };
    let refused = bot(&bot_a, None).output().expect("parity bot runs");
    assert!(!refused.status.success());
    assert!(
        common::stderr(&refused)
            .to_lowercase()
            .contains("certificate"),
        "{}",
        common::stderr(&refused)
    );
    let mut bots = [&bot_a, &bot_b].map(|t| bot(t, Some(&ca)).spawn().expect("parity bot"));
    std::thread::sleep(Duration::from_millis(500));
    let http = reqwest::blocking::Client::new();
    let challenged = http
        .post(format!("{base}/api/challenge/botb"))
        .bearer_auth(&bot_a)
        .header("Content-Type", "application/x-www-form-urlencoded")
        .body("variant=parity&rated=false")
        .send()
        .expect("challenge made");
    assert_eq!(challenged.status(), 200);
    let deadline = Instant::now() + Duration::from_secs(180);
    for bot in &mut bots {
        let status = loop {
            if let Some(status) = bot.try_wait().expect("bot state") {
                break status;
            }
            if Instant::now() > deadline {
                let _ = bot.kill();
                panic!("the bots did not finish their game over https through {name}");
            }
            std::thread::sleep(Duration::from_millis(100));
        };
        let mut said = String::new();
        if let Some(mut err) = bot.stderr.take() {
            let _ = std::io::Read::read_to_string(&mut err, &mut said);
        }
        assert!(status.success(), "{status:?}: {said}");
    }
    let loadtest = Command::new(env!("CARGO_BIN_EXE_parity"))
        .args([
            "loadtest", "--server", &public, "--games", "4", "--turns", "3", "--rate", "0",
        ])
        .arg("--ca-file")
        .arg(&ca)
        .output()
        .expect("parity loadtest runs");
    server.kill().expect("server stopped");
    server.wait().expect("server reaped");
    assert!(
        loadtest.status.success(),
        "loadtest over https and wss through {name}:\n{}\n{}",
        common::stdout(&loadtest),
        common::stderr(&loadtest)
    );
}

#[test]
fn behind_nginx_over_tls_clients_play_and_the_server_sees_their_address() {
    clients_play_through(Proxy::Nginx);
}

#[test]
fn behind_caddy_over_tls_clients_play_and_the_server_sees_their_address() {
    clients_play_through(Proxy::Caddy);
}

/// An NSS certificate database in `home/.pki/nssdb` (where Chromium on
/// Linux looks, under `$HOME`) trusting `ca` to identify web sites.
fn trust_in_nss(home: &Path, ca: &Path) {
    let db = home.join(".pki/nssdb");
    std::fs::create_dir_all(&db).expect("the NSS database's directory");
    let db = format!("sql:{}", db.display());
    let steps: [&[&str]; 2] = [
        &["-N", "-d", &db, "--empty-password"],
        &[
            "-A",
            "-d",
            &db,
            "-n",
            "Parity test CA",
            "-t",
            "C,,",
            "-i",
            ca.to_str().unwrap(),
        ],
    ];
    for args in steps {
        let done = Command::new("certutil")
            .args(args)
            .output()
            .expect("certutil runs (this test needs Debian's libnss3-tools)");
        assert!(
            done.status.success(),
            "certutil {args:?}: {}",
            common::stderr(&done)
        );
    }
}

/// How many refused tokens one address may present a minute, in the
/// browser test: few, so the browser runs out.
const AUTH_FAILURES: &str = "5";

/// Headless Chromium's play through `proxy` (the module's doc).
fn browser_plays_through(proxy: Proxy) {
    let _alone = one_at_a_time();
    let name = proxy.name();
    let started = Instant::now();
    let dir = tempfile::tempdir().expect("temp dir");
    common::certificates(dir.path(), "IP:127.0.0.1,DNS:localhost");
    let ca = dir.path().join("ca.pem");
    let home = dir.path().join("home");
    trust_in_nss(&home, &ca);
    let db = dir.path().join("games.sqlite");
    let (mut server, _, _proxy, public) = behind(
        proxy,
        dir.path(),
        &db,
        &["--auth-failures-per-minute", AUTH_FAILURES],
    );
    let (_driver_process, driver) = browser::start_chromedriver_in(&home);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime");
    runtime.block_on(browser_game(proxy, &driver, &public, dir.path()));

    // The browser (from 127.0.0.1) has used up its refused tokens: another
    // client behind the same proxy has its own allowance, a client from
    // the browser's address has none. The server counted the browser's
    // address, not the proxy's.
    let wrong_token = |source: [u8; 4]| {
        let tls = parity_server::base::tls::client_config(Some(&ca)).expect("the test CA");
        let client = reqwest::blocking::Client::builder()
            .tls_backend_preconfigured(tls)
            .local_address(std::net::IpAddr::from(source))
            .timeout(Duration::from_secs(30))
            .build()
            .expect("an https client");
        client
            .get(format!("{public}/api/account"))
            .bearer_auth("pat_wrong")
            .send()
            .expect("an answer through the proxy")
            .status()
            .as_u16()
    };
    assert_eq!(
        wrong_token([127, 0, 0, 2]),
        401,
        "another client was counted as the browser"
    );
    assert_eq!(
        wrong_token([127, 0, 0, 1]),
        429,
        "the browser's address was not counted"
    );
    server.kill().expect("server stopped");
    server.wait().expect("server reaped");
    eprintln!(
        "the browser through {name}: {:.1} s",
        started.elapsed().as_secs_f64()
    );
}

#[test]
fn through_nginx_a_browser_plays_a_parity_game_over_https_and_wss() {
    browser_plays_through(Proxy::Nginx);
}

#[test]
fn through_caddy_a_browser_plays_a_parity_game_over_https_and_wss() {
    browser_plays_through(Proxy::Caddy);
}

/// Two browsers play three turns of a parity game through `proxy`, then
/// White resigns; one of them presents wrong tokens until refused.
async fn browser_game(proxy: Proxy, driver: &str, public: &str, dir: &Path) {
    use browser::Page;
    let white = Page::open(driver, public, &dir.join("white"), (1280, 900)).await;
    // Black on a phone-sized window.
    let black = Page::open(driver, public, &dir.join("black"), (412, 915)).await;
    for page in [&white, &black] {
        if let Err(e) = page.client.goto(&format!("{public}/")).await {
            panic!("Chromium does not open the page over https (does it trust the test CA?): {e}");
        }
        let title = page.client.title().await.expect("a title");
        assert!(
            !title.contains("Privacy error"),
            "Chromium does not trust the test CA (from its NSS database): {title:?}"
        );
    }
    let (id, _) = browser::friend_game(&white, &black, "parity").await;

    // Each turn: White picks (its page commits over https), Black's page
    // learns of the commitment from its live feed over wss, Black picks,
    // both pages reveal by themselves and show the turn.
    let turns = [
        (("e2", "e4"), ("d7", "d5")),
        (("g1", "f3"), ("b8", "c6")),
        (("e4", "d5"), ("d5", "d4")),
    ];
    for (turn, (white_move, black_move)) in (1..).zip(turns) {
        let black_move = browser::Move::Click(black_move.0, black_move.1);
        browser::play_turn(&white, &black, turn, white_move, black_move, None).await;
    }
    // exd5 while the pawn on d5 stepped to d4: White's capture failed.
    for page in [&white, &black] {
        page.wait_text(".notes [data-notes='white']", "failed capture")
            .await;
    }
    let file = proxy.name().to_lowercase();
    white.screenshot(&format!("proxy-{file}-white.png")).await;
    black
        .screenshot(&format!("proxy-{file}-black-phone.png"))
        .await;

    // Over https, the feed over wss and live (never fallen back to
    // polling), the seat cookie Secure: the proxy's X-Forwarded-Proto
    // believed.
    for (page, side) in [(&white, "White"), (&black, "Black")] {
        let url = page.client.current_url().await.expect("a URL");
        assert_eq!(url.scheme(), "https", "{side}: {url}");
        page.find(".conn[data-conn='live']").await;
        let seat = page
            .client
            .get_all_cookies()
            .await
            .expect("cookies")
            .into_iter()
            .find(|c| c.name() == format!("parity_seat_{id}"))
            .unwrap_or_else(|| panic!("{side}'s seat cookie"));
        assert_eq!(
            seat.secure(),
            Some(true),
            "{side}'s seat cookie is not Secure"
        );
    }

    browser::white_resigns(&white, &black).await;
    let full = white.game_full(&id).await;
    assert_eq!(full["status"], "finished", "{full}");
    assert_eq!(full["result"], "0-1", "{full}");
    assert_eq!(full["moves"].as_array().map(Vec::len), Some(3), "{full}");
    for (page, side) in [(&white, "White"), (&black, "Black")] {
        let errors = page.console_errors().await;
        assert!(
            errors.is_empty(),
            "{side}'s console has errors: {errors:#?}"
        );
    }

    // Wrong tokens from the page until the server refuses its address.
    let script = "const [tries, done] = arguments;
        (async () => {
          const statuses = [];
          for (let i = 0; i < tries; i++) {
            const r = await fetch('/api/account', {headers: {Authorization: 'Bearer pat_wrong'}});
            statuses.push(r.status);
          }
          return statuses;
        })().then(done, e => done(String(e)));";
    let allowed: u64 = AUTH_FAILURES.parse().unwrap();
    let statuses = white
        .client
        .execute_async(script, vec![serde_json::json!(allowed + 2)])
        .await
        .expect("fetch runs");
    let statuses: Vec<u64> =
        serde_json::from_value(statuses.clone()).unwrap_or_else(|_| panic!("statuses: {statuses}"));
    assert_eq!(statuses[0], 401, "{statuses:?}");
    assert_eq!(statuses.last(), Some(&429), "{statuses:?}");
    white.client.close().await.expect("White's browser closes");
    black.client.close().await.expect("Black's browser closes");
}
