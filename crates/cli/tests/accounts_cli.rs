//! `parity user add` and `parity token add` against a server's database:
//! the password (read from standard input) is stored only as an argon2id
//! hash, never in clear in the database or in any output or log; the token
//! printed on the last line works on the running server's lichess routes.

use crate::common;

use std::io::Write;
use std::process::{Command, Stdio};

const PASSWORD: &str = "pw-Zq8xW3vN-unique";

fn parity_with_stdin(args: &[&str], input: &str) -> std::process::Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_parity"))
        .args(args)
        .env("RUST_LOG", "trace")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("binary runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("password written");
    child.wait_with_output().expect("binary ends")
}

/// Every byte the database keeps: the file and its WAL.
fn database_bytes(db: &std::path::Path) -> Vec<u8> {
    let mut bytes = std::fs::read(db).expect("database file");
    let wal = db.with_extension("sqlite-wal");
    bytes.extend(std::fs::read(wal).unwrap_or_default());
    bytes
}

fn contains(haystack: &[u8], needle: &str) -> bool {
    haystack
        .windows(needle.len())
        .any(|w| w == needle.as_bytes())
}

#[test]
fn users_and_tokens_from_the_command_line_and_no_password_in_clear() {
    let db = common::temp("accounts", "accounts.sqlite");
    let db_arg = db.to_str().unwrap();
    let mut said = String::new();

    let made = parity_with_stdin(
        &["user", "add", "Alice", "--db", db_arg],
        &format!("{PASSWORD}\n"),
    );
    assert!(made.status.success(), "{}", common::stderr(&made));
    said += &(common::stdout(&made) + &common::stderr(&made));
    let again = parity_with_stdin(
        &["user", "add", "ALICE", "--db", db_arg],
        "another-password\n",
    );
    assert!(
        !again.status.success(),
        "names are unique whatever their case"
    );
    assert!(
        common::stderr(&again).contains("taken"),
        "{}",
        common::stderr(&again)
    );

    let bot = common::parity(&["user", "add", "RoboBot", "--bot", "--db", db_arg]);
    assert!(bot.status.success(), "{}", common::stderr(&bot));
    let token_out = common::parity(&[
        "token", "add", "robobot", "--scope", "bot:play", "--db", db_arg,
    ]);
    assert!(token_out.status.success(), "{}", common::stderr(&token_out));
    let token = common::stdout(&token_out)
        .lines()
        .last()
        .expect("a line")
        .to_string();
    assert!(token.len() > 40 && !token.contains(' '), "{token:?}");
    let bad_scope = common::parity(&[
        "token",
        "add",
        "robobot",
        "--scope",
        "email:read",
        "--db",
        db_arg,
    ]);
    assert!(!bad_scope.status.success());

    let bytes = database_bytes(&db);
    assert!(
        !contains(&bytes, PASSWORD),
        "the password is in the database in clear"
    );
    assert!(
        contains(&bytes, "$argon2id$"),
        "the password's argon2id hash is stored"
    );
    assert!(!contains(&bytes, &token), "the token is stored only hashed");

    // The server, logging everything, answers for the token.
    let log = db.with_extension("log");
    let mut server = Command::new(env!("CARGO_BIN_EXE_parity"))
        .args(["serve", "--addr", "127.0.0.1:0", "--db", db_arg])
        .env("RUST_LOG", "trace")
        .stdout(Stdio::piped())
        .stderr(std::fs::File::create(&log).expect("log file"))
        .spawn()
        .expect("parity serve starts");
    let mut first = String::new();
    std::io::BufRead::read_line(
        &mut std::io::BufReader::new(server.stdout.take().expect("stdout")),
        &mut first,
    )
    .expect("the server says where it listens");
    let base = first
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .expect("a URL")
        .trim_end_matches('/')
        .to_string();
    let http = reqwest::blocking::Client::new();
    let tested: serde_json::Value = http
        .post(format!("{base}/api/token/test"))
        .body(format!("{token},not-a-token"))
        .send()
        .and_then(|r| r.json())
        .expect("token test");
    assert_eq!(tested[&token]["userId"], "robobot", "{tested}");
    assert_eq!(tested[&token]["scopes"], "bot:play", "{tested}");
    assert!(tested["not-a-token"].is_null(), "{tested}");
    let account: serde_json::Value = http
        .get(format!("{base}/api/account"))
        .bearer_auth(&token)
        .send()
        .and_then(|r| r.json())
        .expect("account");
    assert_eq!(account["username"], "RoboBot", "{account}");
    assert_eq!(account["title"], "BOT", "{account}");
    server.kill().expect("server stopped");
    server.wait().expect("server reaped");

    said += &std::fs::read_to_string(&log).expect("server log");
    assert!(
        !said.contains(PASSWORD),
        "the password is in an output or log"
    );
}
