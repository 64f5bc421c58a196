//! The `parity` binary end to end: output and errors as a user sees them.

use crate::common;

use std::process::Command;

use common::{parity, stderr, stdout};

#[test]
fn perft_prints_nodes_time_and_speed() {
    let o = parity(&["perft", "chess", "3"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("nodes 8902"), "{out}");
    assert!(out.contains("time ") && out.contains("nps "), "{out}");
}

#[test]
fn perft_divide_sums_to_the_total() {
    let o = parity(&["perft", "parity12", "2", "--divide"]);
    let out = stdout(&o);
    let sum: u64 = out
        .lines()
        .filter_map(|l| l.split_once(": "))
        .map(|(_, n)| n.parse::<u64>().unwrap())
        .sum();
    assert_eq!(sum, 1600);
    assert_eq!(out.lines().filter(|l| l.contains(": ")).count(), 40);
    assert!(out.contains("nodes 1600"));
}

#[test]
fn perft_from_a_fen() {
    let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let o = parity(&["perft", "chess", "2", "--fen", fen]);
    assert!(stdout(&o).contains("nodes 2039"));
}

#[test]
fn bad_input_is_a_clear_error_with_failure_status() {
    let o = parity(&["perft", "nochess", "2"]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("unknown variant `nochess`") && stderr(&o).contains("parity12"),
        "{}",
        stderr(&o)
    );

    let o = parity(&["perft", "chess", "2", "--fen", "8/8/8/8/8/8/8/K7 w - - 0 1"]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("bad FEN: black has no king"),
        "{}",
        stderr(&o)
    );

    let o = parity(&[
        "perft",
        "chess",
        "2",
        "--fen",
        "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ]);
    assert!(stderr(&o).contains("rank 6"), "{}", stderr(&o));
}

#[test]
fn variants_lists_pieces_and_checks_files() {
    let o = parity(&["variants"]);
    let out = stdout(&o);
    for needle in [
        "chess",
        "tutti-frutti",
        "parity12",
        "Amazon",
        "QN",
        "Champion",
        "WAD",
        "FAD",
    ] {
        assert!(out.contains(needle), "{needle} missing from:\n{out}");
    }

    let dir = std::env::temp_dir().join(format!("parity-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("nightrider.toml");
    std::fs::write(&good, "id = \"nightrider-chess\"\ninherits = \"chess\"\n\n[[pieces]]\nletter = \"N\"\nname = \"Nightrider\"\nbetza = \"NN\"\n").unwrap();
    let o = parity(&["variants", "check", good.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("Nightrider"));
    // The loaded file is usable by every command. 16 pawn moves, and each
    // nightrider rides on: b1 to a3, c3, d5, and takes on e7 (g1 likewise).
    let o = parity(&[
        "--variants",
        good.to_str().unwrap(),
        "perft",
        "nightrider-chess",
        "1",
    ]);
    assert!(
        stdout(&o).contains("nodes 24"),
        "{}{}",
        stdout(&o),
        stderr(&o)
    );

    let bad = dir.join("broken.toml");
    std::fs::write(&bad, "id = \"broken\"\ninherits = \"chess\"\n\n[[pieces]]\nletter = \"Z\"\nname = \"Zed\"\nbetza = \"Wx\"\n").unwrap();
    let o = parity(&["variants", "check", bad.to_str().unwrap()]);
    assert!(!o.status.success());
    let err = stderr(&o);
    assert!(
        err.contains("broken.toml:7:")
            && err.contains("pieces.betza")
            && err.contains("unknown modifier `x`"),
        "{err}"
    );

    let o = parity(&[
        "variants",
        "check",
        dir.join("missing.toml").to_str().unwrap(),
    ]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("missing.toml"));
    std::fs::remove_dir_all(&dir).ok();
}

/// Runs `parity uci` with `input` on stdin; end of input ends the session.
fn uci_session(input: &str) -> String {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_parity"))
        .arg("uci")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("binary runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success());
    stdout(&o)
}

#[test]
fn uci_over_stdin_answers_and_survives_bad_input() {
    // `go depth` with a fixed depth answers before the input ends.
    let out = uci_session(
        "uci\nsetoption name UCI_Variant value parity12\nposition startpos moves f2f4 zzz\nisready\nposition startpos moves f2f4\ngo depth 3\nisready\nd\n",
    );
    assert!(out.contains("uciok"), "{out}");
    assert!(out.contains("info string error: move zzz"), "{out}");
    assert_eq!(out.matches("readyok").count(), 2, "{out}");
    assert!(out.contains("Variant: parity12"), "{out}");
    assert!(out.contains("bestmove "), "{out}");
}
