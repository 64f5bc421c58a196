//! `parity train` end to end: scored positions in, a network out that the
//! engine loads and plays with.

use crate::common;

use common::{parity, stderr, stdout, temp};

const SAMPLE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../engine/tests/data/chess-fsf-scored-sample.positions"
);

#[test]
fn train_writes_a_network_the_engine_loads() {
    let out = temp("train_cli", "chess.net");
    let o = parity(&[
        "train",
        "--variant",
        "chess",
        "--positions",
        SAMPLE,
        "--hidden",
        "16",
        "--epochs",
        "4",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let report = stdout(&o);
    assert!(report.contains("2000 positions"), "{report}");
    // The held-out loss falls from the first epoch to the last.
    let held: Vec<f64> = report
        .lines()
        .filter_map(|l| l.split("held out ").nth(1)?.split(' ').next()?.parse().ok())
        .collect();
    assert_eq!(held.len(), 4, "{report}");
    assert!(held[3] < held[0], "{report}");
    let bytes = std::fs::read(&out).unwrap();
    let v = parity_rules::Registry::builtin().get("chess").unwrap();
    let net = parity_engine::net::Network::from_bytes(v, &bytes).unwrap();
    assert_eq!(net.hidden, 16);
    assert!(
        net.comment.contains("train --variant chess"),
        "{}",
        net.comment
    );
    // A knight up is good for the side that has it.
    use parity_rules::TurnPosition;
    let pos = <parity_rules::Position>::from_fen(
        v,
        "rnbqkb1r/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    )
    .unwrap();
    assert!(net.evaluate(&pos, parity_rules::Color::White) > 100);
}

#[test]
fn bad_training_input_is_refused() {
    let bad = temp("train_cli", "bad.positions");
    std::fs::write(
        &bad,
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1 [1.0] 12\n4k3/8/8/8/8/8/8/4K3 w - - 0 1 [1.0] x\n",
    )
    .unwrap();
    let out = temp("train_cli", "never.net");
    let (positions, out) = (bad.to_str().unwrap(), out.to_str().unwrap());
    for (variant, extra, said) in [
        ("chess", None, "line 2"),
        ("parity", None, "simultaneous"),
        ("chess", Some("--wdl=2"), "--wdl must be"),
        ("chess", Some("--hidden=0"), "--hidden must be"),
    ] {
        let mut args = vec![
            "train",
            "--variant",
            variant,
            "--positions",
            positions,
            "--out",
            out,
        ];
        args.extend(extra);
        let o = parity(&args);
        assert!(!o.status.success(), "{args:?}");
        assert!(stderr(&o).contains(said), "{args:?}: {}", stderr(&o));
    }
    assert!(
        !std::path::Path::new(out).exists(),
        "nothing written on an error"
    );
}

/// `parity uci` fed `commands` on its standard input.
fn uci_session(commands: &str) -> String {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_parity"))
        .arg("uci")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(commands.as_bytes())
        .unwrap();
    let o = child.wait_with_output().unwrap();
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn the_engine_plays_with_a_network_given_by_eval_net() {
    let out = temp("train_cli", "uci.net");
    let o = parity(&[
        "train",
        "--variant",
        "chess",
        "--positions",
        SAMPLE,
        "--hidden",
        "8",
        "--epochs",
        "2",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let path = out.to_str().unwrap();
    let said = uci_session(&format!(
        "uci\nsetoption name EvalNet value {path}\nposition startpos moves e2e4\neval\ngo depth 5\nisready\nsetoption name EvalNet value none\neval\nsetoption name EvalNet value {SAMPLE}\nisready\nquit\n"
    ));
    assert!(said.contains("option name EvalNet type string"), "{said}");
    assert!(said.contains("learned evaluation for chess"), "{said}");
    assert!(said.contains("(side to move, learned)"), "{said}");
    assert!(said.contains("bestmove "), "{said}");
    assert!(said.contains("hand-made evaluation for chess"), "{said}");
    // After `none`, the table's total is the hand-made one again.
    let after_none = said.split("hand-made evaluation for chess").nth(1).unwrap();
    assert!(!after_none.contains("learned)"), "{said}");
    // A file that is not a network: an error, and the engine still answers.
    assert!(said.contains("not a network file"), "{said}");
    assert!(said.trim_end().ends_with("readyok"), "{said}");
}
