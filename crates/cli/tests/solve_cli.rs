//! `parity solve` and `parity exploit` end to end: output and errors.

use crate::common;

use common::{parity, stderr, stdout};

/// The number after `key` on the line that starts with it.
fn number(out: &str, key: &str) -> f64 {
    let line = out
        .lines()
        .find(|l| l.starts_with(key))
        .unwrap_or_else(|| panic!("no `{key}` in:\n{out}"));
    line[key.len()..]
        .split_whitespace()
        .next()
        .unwrap()
        .trim_end_matches(',')
        .parse()
        .unwrap()
}

/// Move lines (`  e1e2   0.500000`) under `title`, up to the next title.
fn strategy(out: &str, title: &str) -> Vec<(String, f64)> {
    out.lines()
        .skip_while(|l| *l != title)
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .map(|l| {
            let mut f = l.split_whitespace();
            (
                f.next().unwrap().to_string(),
                f.next().unwrap().parse().unwrap(),
            )
        })
        .collect()
}

const MATE: &str = "k7/8/1K6/8/8/8/8/7R - - 0 1";
const KNIGHTS: &str = "4k3/8/8/8/7p/5(N'n')2/3P4/4K3 - - 1 2";

#[test]
fn solve_prints_value_equilibrium_and_counts() {
    // Move-neutral mate in one turn: Black's only move is Kb8, White's Rh8 mates.
    let o = parity(&["solve", "move-neutral", "--fen", MATE, "--depth", "1"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.starts_with(&format!("position move-neutral {MATE}\ndepth 1 turns\n")),
        "{out}"
    );
    assert_eq!(number(&out, "value "), 1.0);
    assert_eq!(
        strategy(&out, "white strategy"),
        [("h1h8".to_string(), 1.0)]
    );
    assert_eq!(
        strategy(&out, "black strategy"),
        [("a8b8".to_string(), 1.0)]
    );
    assert!(number(&out, "nodes ") > 0.0);
    assert!(out.contains("matrices 1 (lp 0)"), "{out}");
    assert!(out.contains("time "), "{out}");
}

#[test]
fn solve_mixes_where_the_game_is_a_guess() {
    // Both knights must leave f3: a guessing game with a mixed equilibrium.
    let o = parity(&["solve", "parity-single", "--fen", KNIGHTS, "--depth", "2"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    for side in ["white strategy", "black strategy"] {
        let s = strategy(&out, side);
        assert!(s.len() >= 2, "{side} is pure:\n{out}");
        assert!(
            (s.iter().map(|m| m.1).sum::<f64>() - 1.0).abs() < 1e-5,
            "{out}"
        );
        assert!(
            s.iter().all(|(m, _)| m.starts_with("f3")),
            "only the knight may move:\n{out}"
        );
    }
    let v = number(&out, "value ");
    assert!(v > -1.0 && v < 1.0, "{out}");
    assert!(!out.contains("(lp 0)"), "a mixed root needs an LP:\n{out}");
}

#[test]
fn exploit_compares_the_engine_with_the_exact_solution() {
    let o = parity(&["exploit", "parity-single", "--fen", KNIGHTS, "--depth", "2"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    for needle in [
        "engine depth 2 value ",
        "engine white strategy",
        "engine black strategy",
        "exact depth 2 value ",
        "value error ",
    ] {
        assert!(out.contains(needle), "{needle} missing:\n{out}");
    }
    let engine = number(&out, "engine depth 2 value ");
    let exact = number(&out, "exact depth 2 value ");
    assert!((engine - exact).abs() <= 0.05, "{out}");
    let gains: Vec<f64> = out
        .lines()
        .filter_map(|l| l.split(", gain ").nth(1))
        .map(|g| g.parse().unwrap())
        .collect();
    assert_eq!(gains.len(), 2, "{out}");
    assert!(gains.iter().all(|&g| (0.0..=0.05).contains(&g)), "{out}");
    assert!(
        out.contains("white strategy: black's best response f3"),
        "{out}"
    );
    assert!(
        out.contains("black strategy: white's best response f3"),
        "{out}"
    );
}

#[test]
fn exploit_one_side_with_a_node_budget_or_a_shallower_engine() {
    // A depth-1 engine judged two turns deep; only White's strategy.
    let o = parity(&[
        "exploit",
        "move-neutral",
        "--fen",
        MATE,
        "--depth",
        "2",
        "--engine-depth",
        "1",
        "--side",
        "white",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("engine depth 1 value 1.000000"), "{out}");
    assert!(out.contains("exact depth 2 value 1.000000"), "{out}");
    assert!(
        out.contains(
            "white strategy: black's best response a8b8, value against it 1.000000, gain 0.000000"
        ),
        "{out}"
    );
    assert!(!out.contains("black strategy:"), "{out}");

    let o = parity(&[
        "exploit",
        "parity",
        "--fen",
        "4k3/8/8/3n4/8/8/8/3RK3 - - 0 1",
        "--depth",
        "1",
        "--nodes",
        "100000",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o).matches(", gain ").count(), 2);
}

#[test]
fn bad_requests_are_clear_errors() {
    let cases: &[(&[&str], &str)] = &[
        (&["solve", "chess", "--depth", "2"], "`chess` is not a simultaneous variant; solve and exploit need one of: parity, parity-single, move-neutral"),
        (&["exploit", "tutti-frutti", "--depth", "1"], "`tutti-frutti` is not a simultaneous variant"),
        (&["solve", "nochess", "--depth", "2"], "unknown variant `nochess`"),
        (&["solve", "parity", "--fen", "8/8/8", "--depth", "2"], "bad FEN: "),
        (&["exploit", "parity", "--fen", "4k3/8/8/8/8/8/8/R3K3 - - 0 1 9 9", "--depth", "2"], "bad FEN: "),
        (&["solve", "parity", "--depth", "0"], "depth must be at least 1 turn"),
        (&["exploit", "parity", "--depth", "0"], "depth must be at least 1 turn"),
        (&["exploit", "parity", "--depth", "1", "--engine-depth", "0"], "engine depth must be at least 1 turn"),
        (&["solve", "parity", "--fen", "4k'3/8/8/8/8/8/8/R3K3 - - 1 2", "--depth", "2"], "the position is already decided: 1-0 (no legal move)"),
        (&["exploit", "move-neutral", "--fen", "4k3/8/8/8/8/8/8/4K3 - - 0 1", "--depth", "1"], "the position is already decided: 1/2-1/2 (insufficient material)"),
    ];
    for (args, message) in cases {
        let o = parity(args);
        assert!(!o.status.success(), "{args:?} succeeded");
        assert!(stderr(&o).contains(message), "{args:?}: {}", stderr(&o));
        assert!(stdout(&o).is_empty(), "{args:?}: {}", stdout(&o));
    }
    // Usage errors come from the argument parser.
    for args in [
        &["solve", "parity"][..],
        &["exploit", "parity", "--depth", "1", "--side", "red"],
        &[
            "exploit",
            "parity",
            "--depth",
            "1",
            "--engine-depth",
            "1",
            "--nodes",
            "9",
        ],
    ] {
        let o = parity(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
    }
}
