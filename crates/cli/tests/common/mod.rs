//! Helpers shared by the `parity` binary's end-to-end tests.
// Each test file uses its own subset.
#![allow(dead_code)]

use std::path::PathBuf;
use std::process::{Command, Output};

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
