//! Tuning on real games: 3,000 positions of Debian's fairy-stockfish
//! against itself (`parity match --positions`, 4,000 nodes a move).

use parity_engine::eval::EvalTables;
use parity_engine::tune::{self, TuneOptions};
use parity_rules::Registry;

const SAMPLE: &str = include_str!("data/chess-fsf-sample.positions");

#[test]
fn the_loss_falls_on_real_games_and_the_same_input_gives_the_same_terms() {
    let v = Registry::builtin().get("chess").unwrap();
    let start = EvalTables::derived(v).params;
    let tables = EvalTables::with_params(v, start.clone());
    let samples = tune::read_samples(v, &tables, SAMPLE.as_bytes(), None).unwrap();
    assert_eq!(samples.len(), SAMPLE.lines().count());
    let options = TuneOptions {
        epochs: 150,
        learning_rate: 1.0,
        ..TuneOptions::default()
    };
    let first = tune::tune(v, &start, &samples, &options, |_, _| {});
    assert!(
        first.loss_after < first.loss_before * 0.995,
        "loss {} -> {}",
        first.loss_before,
        first.loss_after
    );
    assert!(first.k > 0.1 && first.k < 5.0, "k {}", first.k);
    // The pawn anchors the scale.
    let pawn = v.kind_by_letter('P').unwrap();
    let l = &start.layout;
    assert_eq!(
        first.params.kind_term(l.material, pawn),
        start.kind_term(l.material, pawn)
    );
    let second = tune::tune(v, &start, &samples, &options, |_, _| {});
    assert_eq!(first.params, second.params);
}

#[test]
fn a_garbled_line_is_named() {
    let v = Registry::builtin().get("chess").unwrap();
    let tables = EvalTables::derived(v);
    let text = "4k3/8/8/8/8/8/8/4K3 w - - 0 1 [0.5]\nnot a fen [1.0]\n";
    let err = tune::read_samples(v, &tables, text.as_bytes(), None).unwrap_err();
    assert!(err.to_string().starts_with("line 2:"), "{err}");
}
