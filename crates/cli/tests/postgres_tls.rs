//! `parity serve` on a PostgreSQL that takes TLS only: a server of our own
//! (Debian's `initdb`), `ssl = on` with a certificate for 127.0.0.1 made by
//! openssl under a test CA, and a pg_hba.conf that rejects every TCP
//! session without TLS. libpq's `sslmode` values mean what they mean to
//! libpq (store/postgres_tls.rs); `pg_dump` takes the same URL
//! (docs/deploy.md). Needs PostgreSQL and openssl (scripts/test installs
//! them); without them this test fails, it never skips.

use crate::common;

use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn run(what: &str, command: &mut Command) -> Output {
    let done = command.output().unwrap_or_else(|e| {
        panic!("{what} runs (this test needs Debian's postgresql and openssl): {e}")
    });
    assert!(
        done.status.success(),
        "{what}: {}{}",
        common::stdout(&done),
        common::stderr(&done)
    );
    done
}

fn postgres_bin() -> PathBuf {
    let mut versions: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .expect("PostgreSQL in /usr/lib/postgresql (Debian's postgresql package)")
        .filter_map(|e| e.ok().map(|e| e.path().join("bin")))
        .filter(|bin| bin.join("initdb").exists())
        .collect();
    versions.sort_by_key(|bin| {
        bin.parent()
            .and_then(|v| v.file_name()?.to_str()?.parse::<u32>().ok())
            .unwrap_or(0)
    });
    versions
        .pop()
        .expect("an initdb in /usr/lib/postgresql/*/bin")
}

/// A PostgreSQL server of its own, stopped when dropped.
struct Postgres {
    bin: PathBuf,
    data: PathBuf,
    as_postgres: bool,
    port: u16,
}

impl Postgres {
    fn command(&self, program: &str) -> Command {
        let path = self.bin.join(program);
        if self.as_postgres {
            // PostgreSQL will not run as root.
            let mut command = Command::new("runuser");
            command.args(["-u", "postgres", "--"]).arg(path);
            command
        } else {
            Command::new(path)
        }
    }

    /// initdb in `dir`, TLS on with `dir`'s certificate, TCP without TLS
    /// rejected.
    fn start(dir: &Path) -> Postgres {
        let as_postgres = common::stdout(&run("id", Command::new("id").arg("-u"))).trim() == "0";
        let data = dir.join("data");
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let server = Postgres {
            bin: postgres_bin(),
            data: data.clone(),
            as_postgres,
            port,
        };
        if as_postgres {
            run(
                "chown",
                Command::new("chown").args(["-R", "postgres"]).arg(dir),
            );
        }
        run(
            "initdb",
            server.command("initdb").arg("-D").arg(&data).args([
                "-U",
                "postgres",
                "--auth=trust",
                "-E",
                "UTF8",
            ]),
        );
        // The key must be the server's own and private.
        let key = data.join("server.key");
        std::fs::copy(dir.join("key.pem"), &key).unwrap();
        std::fs::copy(dir.join("cert.pem"), data.join("server.crt")).unwrap();
        std::fs::set_permissions(&key, std::fs::Permissions::from_mode(0o600)).unwrap();
        if as_postgres {
            run(
                "chown",
                Command::new("chown").args(["-R", "postgres"]).arg(&data),
            );
        }
        std::fs::write(
            data.join("pg_hba.conf"),
            "local all all trust\n\
             hostssl all all 127.0.0.1/32 trust\n\
             hostnossl all all 127.0.0.1/32 reject\n",
        )
        .unwrap();
        let mut config = std::fs::OpenOptions::new()
            .append(true)
            .open(data.join("postgresql.conf"))
            .unwrap();
        std::io::Write::write_all(
            &mut config,
            format!(
                "ssl = on\nlisten_addresses = '127.0.0.1'\nport = {port}\n\
                 unix_socket_directories = '{}'\n",
                dir.display()
            )
            .as_bytes(),
        )
        .unwrap();
        run(
            "pg_ctl start",
            server
                .command("pg_ctl")
                .arg("-D")
                .arg(&data)
                .arg("-l")
                .arg(dir.join("server.log"))
                .args(["-w", "start"]),
        );
        server
    }

    fn url(&self, host: &str, query: &str) -> String {
        format!("postgres://postgres@{host}:{}/postgres?{query}", self.port)
    }

    /// How many client sessions of database `postgres` use TLS, and how
    /// many do not (asked over the Unix socket, which needs none).
    fn sessions_by_tls(&self, socket_dir: &Path) -> String {
        let asked = run(
            "psql",
            self.command("psql")
                .arg("-h")
                .arg(socket_dir)
                .args(["-p", &self.port.to_string(), "-U", "postgres", "-At", "-c"])
                .arg(
                    "SELECT s.ssl, count(*) FROM pg_stat_ssl s JOIN pg_stat_activity a USING (pid) \
                     WHERE a.datname = 'postgres' AND a.client_addr IS NOT NULL \
                     GROUP BY s.ssl ORDER BY s.ssl",
                ),
        );
        common::stdout(&asked).trim().to_string()
    }
}

impl Drop for Postgres {
    fn drop(&mut self) {
        let _ = self
            .command("pg_ctl")
            .arg("-D")
            .arg(&self.data)
            .args(["-m", "immediate", "stop"])
            .output();
    }
}

/// `parity serve` on `url` refuses to start: what it says.
fn refused(url: &str) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_parity"))
        .args(["serve", "--addr", "127.0.0.1:0", "--db", url])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("parity serve runs");
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            assert!(!status.success(), "parity serve on {url} should not start");
            break;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("parity serve on {url} neither started nor failed");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let mut said = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut said).unwrap();
    said
}

#[test]
fn a_postgresql_that_takes_only_tls_serves_with_libpqs_sslmodes() {
    let dir = tempfile::tempdir().expect("temp dir");
    common::certificates(dir.path(), "IP:127.0.0.1");
    let postgres = Postgres::start(dir.path());
    let ca = dir.path().join("ca.pem").display().to_string();
    let root = |mode: &str| format!("sslmode={mode}&sslrootcert={ca}");

    // Without TLS the server turns the session away; without the CA the
    // certificate is unknown; `localhost` is not the name it was made for.
    let plain = refused(&postgres.url("127.0.0.1", "sslmode=disable"));
    assert!(plain.contains("no encryption"), "{plain}");
    let unknown = refused(&postgres.url("127.0.0.1", "sslmode=verify-full"));
    assert!(unknown.contains("certificate"), "{unknown}");
    let wrong_name = refused(&postgres.url("localhost", &root("verify-full")));
    assert!(
        wrong_name.to_lowercase().contains("not valid for name"),
        "{wrong_name}"
    );
    let bad_mode = refused(&postgres.url("127.0.0.1", "sslmode=verify"));
    assert!(bad_mode.contains("sslmode `verify`"), "{bad_mode}");

    // verify-full: a game made and a move acknowledged, every session of
    // the node (writer, reader, the cluster's leases and notifications)
    // over TLS.
    let full = postgres.url("127.0.0.1", &root("verify-full"));
    let (mut server, base) = common::serve(Path::new(&full), &[]);
    let api = common::Api::new(base);
    let (id, white, _black) = common::friend_game(&api, &api, "parity");
    let seq = api.act(
        &id,
        &white,
        "commit",
        serde_json::json!({"commitment": common::commitment(&id, 1, "white", "e2e4", "n1")}),
    );
    assert!(seq > 0);
    let sessions = postgres.sessions_by_tls(dir.path());
    let tls_sessions: u32 = sessions
        .strip_prefix("t|")
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("sessions by TLS: {sessions:?}"));
    assert!(tls_sessions >= 4, "{sessions}");
    server.kill().unwrap();
    server.wait().unwrap();

    // verify-ca takes any name, require any certificate: the same game.
    for url in [
        postgres.url("localhost", &root("verify-ca")),
        postgres.url("127.0.0.1", "sslmode=require"),
    ] {
        let (mut server, base) = common::serve(Path::new(&url), &[]);
        let game = common::Api::new(base).get(&format!("/api/games/{id}"));
        assert_eq!(game["id"], id.as_str(), "{url}: {game}");
        server.kill().unwrap();
        server.wait().unwrap();
    }

    // The backup procedure's pg_dump takes the same URL (libpq's own).
    let dump = dir.path().join("games.dump");
    run(
        "pg_dump over TLS",
        postgres
            .command("pg_dump")
            .args(["--format=custom", "--file"])
            .arg(&dump)
            .arg(&full),
    );
    assert!(std::fs::metadata(&dump).unwrap().len() > 0);
}
