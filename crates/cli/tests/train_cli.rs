//! `parity train` end to end: scored positions in, a network out that the
//! engine loads and plays with.

use crate::common;

use common::{parity, stderr, stdout, temp};

const SAMPLE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../engine/tests/data/chess-fsf-scored-sample.positions"
);

/// `parity train` on the sample, with `extra` settings, writing `out`.
fn train_sample(out: &std::path::Path, extra: &[&str]) -> std::process::Output {
    let mut args = vec!["train", "--variant", "chess", "--positions", SAMPLE];
    args.extend_from_slice(extra);
    args.extend(["--out", out.to_str().unwrap()]);
    parity(&args)
}

#[test]
fn train_writes_a_network_the_engine_loads() {
    let out = temp("train_cli", "chess.net");
    let o = train_sample(&out, &["--hidden", "16", "--epochs", "4", "--batch", "64"]);
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
    // Where fairy-stockfish saw a clear lead, the network mostly sees the same side ahead.
    use parity_rules::TurnPosition;
    let text = std::fs::read_to_string(SAMPLE).unwrap();
    let (mut agree, mut clear) = (0, 0);
    for line in text.lines() {
        let l = parity_engine::tune::parse_line(line).unwrap().unwrap();
        let Some(cp) = l.centipawns.filter(|cp| cp.abs() >= 300) else {
            continue;
        };
        let pos = <parity_rules::Position>::from_fen(v, l.fen).unwrap();
        let mut score = net.evaluate(&pos, pos.side());
        if pos.side() == parity_rules::Color::Black {
            score = -score;
        }
        clear += 1;
        agree += (score.signum() == cp.signum()) as i32;
    }
    assert!(clear > 500 && agree * 10 > clear * 8, "{agree} of {clear}");
}

#[test]
fn buckets_and_squared_units_are_kept_in_the_file() {
    let out = temp("train_cli", "buckets.net");
    let o = train_sample(
        &out,
        &[
            "--hidden",
            "16",
            "--epochs",
            "2",
            "--buckets",
            "4",
            "--activation",
            "screlu",
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let v = parity_rules::Registry::builtin().get("chess").unwrap();
    let net = parity_engine::net::Network::from_bytes(v, &std::fs::read(&out).unwrap()).unwrap();
    assert_eq!(
        (net.buckets, net.activation),
        (4, parity_engine::net::Activation::SquaredClippedRelu)
    );
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
        ("chess", Some("--buckets=0"), "--buckets must be"),
        ("chess", Some("--activation=relu"), "crelu or screlu"),
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

/// `parity uci` fed each of `steps` on its standard input, the next one
/// once the output so far holds a line starting with the step's `until`.
fn uci_session(steps: &[(&str, &str)]) -> String {
    use std::io::{BufRead, BufReader, Write};
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_parity"))
        .arg("uci")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let mut output = BufReader::new(child.stdout.take().unwrap());
    let mut said = String::new();
    for (commands, until) in steps {
        input.write_all(commands.as_bytes()).unwrap();
        input.flush().unwrap();
        loop {
            let mut line = String::new();
            if output.read_line(&mut line).unwrap() == 0 {
                break;
            }
            said.push_str(&line);
            if line.starts_with(until) {
                break;
            }
        }
    }
    drop(input);
    child.wait().unwrap();
    said
}

#[test]
fn the_engine_plays_with_a_network_given_by_eval_net() {
    let out = temp("train_cli", "uci.net");
    let o = train_sample(&out, &["--hidden", "8", "--epochs", "2"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let path = out.to_str().unwrap();
    let load = format!("uci\nsetoption name EvalNet value {path}\nposition startpos moves e2e4\neval\ngo depth 5\n");
    let bad = format!("setoption name EvalNet value {SAMPLE}\nisready\n");
    let said = uci_session(&[
        (&load, "bestmove"),
        (
            "setoption name EvalNet value none\neval\n",
            "static evaluation",
        ),
        (&bad, "readyok"),
        ("quit\n", ""),
    ]);
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
