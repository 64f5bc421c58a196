//! berserk, the lichess Python client (`pip install berserk`), unchanged,
//! drives `parity serve` through lichess's API: `tests/python/berserk_client.py`
//! tests tokens, the account, the event stream, challenges, a rated game to
//! mate through `gameState`, a draw, a resignation, chat, a game against our
//! engine, seeks and export.

use crate::common;

use std::process::Command;

#[test]
fn berserk_plays_through_the_lichess_api() {
    let probe = Command::new("python3")
        .args(["-c", "import berserk"])
        .output()
        .expect("python3 runs (this test needs python3 with berserk: pip install berserk)");
    assert!(
        probe.status.success(),
        "this test needs berserk: pip install berserk ({})",
        common::stderr(&probe)
    );
    let db = common::temp("berserk", "berserk.sqlite");
    let db_arg = db.to_str().unwrap();
    let alice = common::board_token(db_arg, "Alice");
    let bob = common::board_token(db_arg, "Bob");
    let (mut server, base) = common::serve(&db, &[]);
    let script =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/python/berserk_client.py");
    let out = Command::new("python3")
        .arg(&script)
        .args([&base, &alice, &bob])
        .output()
        .expect("python3 runs the client");
    server.kill().expect("server stopped");
    server.wait().expect("server reaped");
    assert!(
        out.status.success() && common::stdout(&out).trim() == "ok",
        "the client failed:\n{}\n{}",
        common::stdout(&out),
        common::stderr(&out)
    );
}
