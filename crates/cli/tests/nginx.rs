//! `parity serve` behind Debian's nginx with a self-signed certificate,
//! configured by `deploy/nginx.conf` (docs/deploy.md): berserk, trusting
//! the certificate, plays through lichess's API over https (its NDJSON
//! streams through the proxy unbuffered), and `tests/python/proxy_client.py`
//! checks the Secure cookie, a wss WebSocket, and that the rate limits
//! count the client's address. Our own clients over TLS (rustls): two
//! `parity bot --ca-file` play a parity game by commit and reveal over
//! https, `parity loadtest --server https://... --ca-file` plays over wss,
//! and without the CA the bot refuses the certificate. Needs `nginx` and
//! `openssl` (scripts/test
//! installs them); without them this test fails, it never skips.

mod common;

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// nginx's own address toward parity, which `--trusted-proxy` lists.
const PROXY_ADDR: &str = "127.0.0.3";

struct Nginx(Child);

impl Drop for Nginx {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port()
}

/// A test CA (`ca.pem`) and, signed by it, nginx's certificate for
/// 127.0.0.1 and localhost (`cert.pem`, `key.pem`), made by openssl.
fn certificates(dir: &Path) {
    std::fs::write(
        dir.join("server.ext"),
        "subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\n",
    )
    .expect("write server.ext");
    let steps: [&[&str]; 3] = [
        &["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
          "-subj", "/CN=Parity test CA", "-keyout", "ca.key", "-out", "ca.pem"],
        &["req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=localhost",
          "-keyout", "key.pem", "-out", "server.csr"],
        &["x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key",
          "-CAcreateserial", "-days", "1", "-extfile", "server.ext", "-out", "cert.pem"],
    ];
    for args in steps {
        let made = Command::new("openssl")
            .args(args)
            .current_dir(dir)
            .output()
            .expect("openssl runs (this test needs Debian's openssl)");
        assert!(made.status.success(), "openssl {args:?}: {}", common::stderr(&made));
    }
}

fn start_nginx(dir: &Path, listen: u16, upstream: &str) -> Nginx {
    let shipped = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../deploy/nginx.conf"),
    )
    .expect("deploy/nginx.conf");
    let path = |name: &str| dir.join(name).display().to_string();
    // Where a test's nginx keeps its files, instead of /var.
    let temp_paths: String = ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"]
        .iter()
        .map(|kind| format!("    {kind}_temp_path {};\n", path(kind)))
        .collect();
    let conf = shipped
        .replace("LISTEN", &format!("127.0.0.1:{listen}"))
        .replace("CERT", &path("cert.pem"))
        .replace("KEY;", &format!("{};", path("key.pem")))
        .replace("UPSTREAM", upstream)
        .replace("PROXY_ADDR", PROXY_ADDR)
        .replace(
            "http {\n",
            &format!("http {{\n    access_log off;\n{temp_paths}"),
        );
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
        .stderr(Stdio::piped())
        .spawn()
        .expect("nginx starts (this test needs Debian's nginx)");
    let nginx = Nginx(child);
    let deadline = Instant::now() + Duration::from_secs(10);
    while std::net::TcpStream::connect(("127.0.0.1", listen)).is_err() {
        assert!(
            Instant::now() < deadline,
            "nginx does not listen: {}",
            std::fs::read_to_string(dir.join("error.log")).unwrap_or_default()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    nginx
}

#[test]
fn behind_nginx_over_tls_clients_play_and_the_server_sees_their_address() {
    let dir = tempfile::tempdir().expect("temp dir");
    certificates(dir.path());
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
    let (mut server, base) = common::serve(
        &db,
        &[
            "--trusted-proxy",
            PROXY_ADDR,
            "--games-per-minute",
            "1000",
            "--actions-per-second",
            "1000",
        ],
    );
    let listen = free_port();
    let _nginx = start_nginx(dir.path(), listen, base.trim_start_matches("http://"));
    let public = format!("https://127.0.0.1:{listen}");
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
        "berserk through nginx:\n{}\n{}",
        common::stdout(&berserk),
        common::stderr(&berserk)
    );
    let proxy = Command::new("python3")
        .arg(scripts.join("proxy_client.py"))
        .arg(&public)
        .arg(&ca)
        .output()
        .expect("python3 runs the proxy client");
    assert!(
        proxy.status.success() && common::stdout(&proxy).trim() == "ok",
        "through nginx:\n{}\n{}",
        common::stdout(&proxy),
        common::stderr(&proxy)
    );

    // Our clients over TLS: without the CA, the certificate is refused.
    let bot = |token: &str, ca: Option<&Path>| {
        let mut command = Command::new(env!("CARGO_BIN_EXE_parity"));
        command.args(["bot", "--server", &public, "--token", token, "--level", "1", "--games", "1"]);
        if let Some(ca) = ca {
            command.arg("--ca-file").arg(ca);
        }
        command.stdout(Stdio::null()).stderr(Stdio::piped());
        command
    };
    let refused = bot(&bot_a, None).output().expect("parity bot runs");
    assert!(!refused.status.success());
    assert!(
        common::stderr(&refused).to_lowercase().contains("certificate"),
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
                panic!("the bots did not finish their game over https");
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
        .args(["loadtest", "--server", &public, "--games", "4", "--turns", "3", "--rate", "0"])
        .arg("--ca-file")
        .arg(&ca)
        .output()
        .expect("parity loadtest runs");
    server.kill().expect("server stopped");
    server.wait().expect("server reaped");
    assert!(
        loadtest.status.success(),
        "loadtest over https and wss:\n{}\n{}",
        common::stdout(&loadtest),
        common::stderr(&loadtest)
    );
}
