//! A real UCI client drives the binary: python-chess (`pip install chess`)
//! runs `tests/python/gui_client.py` against `parity uci`. The script plays
//! chess with pondering and a clock, analyses with MultiPV, and sends a
//! simultaneous variant without `go side`, which must be answered with
//! `bestmove (none)` instead of leaving the client waiting, and plays with
//! the learned evaluation of `bench/nets/` through `EvalNet`, then without.

use std::path::Path;
use std::process::Command;

#[test]
fn python_chess_drives_the_engine() {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/python/gui_client.py");
    let probe = Command::new("python3")
        .args(["-c", "import chess.engine"])
        .output()
        .expect("python3 runs (this test needs python3 with python-chess: pip install chess)");
    assert!(
        probe.status.success(),
        "this test needs python-chess: pip install chess ({})",
        String::from_utf8_lossy(&probe.stderr)
    );
    let out = Command::new("python3")
        .arg(&script)
        .arg(env!("CARGO_BIN_EXE_parity"))
        .output()
        .expect("python3 runs the client");
    assert!(
        out.status.success() && String::from_utf8_lossy(&out.stdout).trim() == "ok",
        "the client failed:\n{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}
