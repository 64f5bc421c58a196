//! Helpers shared by the `parity` binary's end-to-end tests.
// Each test file uses its own subset.
#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};

/// Runs the `parity` binary with `args` to its end.
pub fn parity(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_parity"))
        .args(args)
        .output()
        .expect("binary runs")
}

pub fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

pub fn stdout(o: &Output) -> String {
    text(&o.stdout)
}

pub fn stderr(o: &Output) -> String {
    text(&o.stderr)
}

/// A fresh path `name` in this process's directory for `suite`.
pub fn temp(suite: &str, name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("parity-{suite}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    let _ = std::fs::remove_file(&path);
    path
}

/// Starts `parity serve` on `db` and a free loopback port, with `flags`;
/// returns the process (the caller kills it) and its base URL.
pub fn serve(db: &Path, flags: &[&str]) -> (Child, String) {
    let (child, base, _) = serve_with_key(db, flags);
    (child, base)
}

/// `parity serve` on `db`: the child, its base URL and the public key of
/// its records, from the two lines it prints at start.
pub fn serve_with_key(db: &Path, flags: &[&str]) -> (Child, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_parity"))
        .args(["serve", "--addr", "127.0.0.1:0", "--db"])
        .arg(db)
        .args(flags)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("parity serve starts");
    let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
    let (mut line, mut key_line) = (String::new(), String::new());
    stdout
        .read_line(&mut line)
        .expect("the server says where it listens");
    stdout
        .read_line(&mut key_line)
        .expect("the server says its key");
    let base = line
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap_or_else(|| panic!("no URL in {line:?}"))
        .trim_end_matches('/')
        .to_string();
    let key = key_line
        .split_whitespace()
        .find(|w| w.len() == 64 && w.bytes().all(|b| b.is_ascii_hexdigit()))
        .unwrap_or_else(|| panic!("no key in {key_line:?}"))
        .to_string();
    (child, base, key)
}
