//! `parity tune` end to end: positions in, a parameter file out that the
//! engine loads.

use crate::common;

use common::{parity, stderr, stdout, temp};

const SAMPLE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../engine/tests/data/chess-fsf-sample.positions"
);

#[test]
fn tune_writes_terms_the_engine_loads() {
    let out = temp("tune_cli", "chess.eval.toml");
    let o = parity(&[
        "tune",
        "--variant",
        "chess",
        "--positions",
        SAMPLE,
        "--limit",
        "600",
        "--epochs",
        "100",
        "--params",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let report = stdout(&o);
    assert!(report.contains("600 positions"), "{report}");
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.contains("variant = \"chess\""), "{text}");
    assert!(text.contains("parity tune --variant chess"), "{text}");
    let v = parity_rules::Registry::builtin().get("chess").unwrap();
    parity_engine::eval::load_params(v, &text).unwrap();
}

#[test]
fn bad_positions_and_simultaneous_variants_are_refused() {
    let bad = temp("tune_cli", "bad.positions");
    std::fs::write(&bad, "4k3/8/8/8/8/8/8/4K3 w - - 0 1 [1.0]\n4k3/8/8 [1.0]\n").unwrap();
    let positions = bad.to_str().unwrap();
    for (variant, extra, said) in [
        ("chess", None, "line 2"),
        ("parity", None, "simultaneous"),
        ("chess", Some("--prior=-1"), "--prior must be"),
    ] {
        let mut args = vec!["tune", "--variant", variant, "--positions", positions];
        args.extend(extra);
        let o = parity(&args);
        assert!(!o.status.success(), "{args:?}");
        assert!(stderr(&o).contains(said), "{args:?}: {}", stderr(&o));
    }
}
