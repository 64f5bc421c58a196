//! `parity serve` behind Debian's nginx with a self-signed certificate,
//! configured by `deploy/nginx.conf` (docs/deploy.md): berserk, trusting
//! the certificate, plays through lichess's API over https (its NDJSON
//! streams through the proxy unbuffered), and `tests/python/proxy_client.py`
//! checks the Secure cookie, a wss WebSocket, and that the rate limits
//! count the client's address. Needs `nginx` and `openssl` (scripts/test
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

/// A certificate for 127.0.0.1 and localhost, made by openssl.
fn certificate(dir: &Path) {
    let made = Command::new("openssl")
        .args(["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1"])
        .args(["-subj", "/CN=localhost"])
        .args(["-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"])
        .arg("-keyout")
        .arg(dir.join("key.pem"))
        .arg("-out")
        .arg(dir.join("cert.pem"))
        .output()
        .expect("openssl runs (this test needs Debian's openssl)");
    assert!(made.status.success(), "{}", common::stderr(&made));
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
    certificate(dir.path());
    let db = dir.path().join("games.sqlite");
    let db_arg = db.to_str().unwrap();
    let (alice, bob) = (
        common::board_token(db_arg, "Alice"),
        common::board_token(db_arg, "Bob"),
    );
    let (mut server, base) = common::serve(&db, &["--trusted-proxy", PROXY_ADDR]);
    let listen = free_port();
    let _nginx = start_nginx(dir.path(), listen, base.trim_start_matches("http://"));
    let public = format!("https://127.0.0.1:{listen}");
    let ca = dir.path().join("cert.pem");
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
    server.kill().expect("server stopped");
    server.wait().expect("server reaped");
    assert!(
        proxy.status.success() && common::stdout(&proxy).trim() == "ok",
        "through nginx:\n{}\n{}",
        common::stdout(&proxy),
        common::stderr(&proxy)
    );
}
