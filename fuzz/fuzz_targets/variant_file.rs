//! Any text as a variant file: resolving never panics, and an accepted
//! variant's start position round-trips through FEN and its legal moves can
//! be played and named.
//!
//! Note: every distinct accepted variant is compiled and kept for the whole
//! process (the registry interns variants), so memory grows with the number
//! of distinct valid files the fuzzer finds; `run-all.sh` restarts the
//! process every few minutes for that reason.
#![no_main]

use libfuzzer_sys::fuzz_target;
use parity_rules::TurnPosition;
use parity_rules::crowd::CrowdPosition;
use parity_rules::simultaneous::SimPosition;
use parity_rules::variant::Family;
use parity_rules::{fen, notation, Color, Position, Registry, Variant};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(v) = Registry::builtin().resolve("fuzz.toml", text) else { return };
    match v.spec.family {
        Family::TurnBased => turn_based(v),
        Family::Simultaneous => simultaneous(v),
        Family::Crowd => crowd(v),
    }
});

fn turn_based(v: &'static Variant) {
    let start = Position::start(v);
    let written = fen::write(&start);
    assert_eq!(fen::parse_position(v, &written), Ok(start), "start position {written:?} does not read back");
    let moves = start.legal_moves();
    assert_eq!(moves.len() as u64, start.count_legal_moves(), "move list and count disagree in {written:?}");
    for mv in moves {
        let _ = start.play(mv).legal_moves();
        let san = start.san(mv);
        assert_eq!(notation::parse_san(&start, &san), Ok(mv), "SAN {san:?} does not read back in {written:?}");
        let uci = notation::uci(&start, mv);
        assert_eq!(notation::parse_uci(&start, &uci), Ok(mv), "UCI {uci:?} does not read back in {written:?}");
    }
}

fn simultaneous(v: &'static Variant) {
    let start = SimPosition::start(v);
    let written = start.to_fen();
    assert_eq!(SimPosition::from_fen(v, &written), Ok(start), "start position {written:?} does not read back");
    let moves = [Color::White, Color::Black].map(|c| start.legal_moves(c));
    for (color, list) in [Color::White, Color::Black].into_iter().zip(&moves) {
        let side = start.side(color);
        for &mv in list {
            let uci = notation::uci(&side, mv);
            assert_eq!(notation::parse_uci(&side, &uci), Ok(mv), "{color:?} UCI {uci:?} does not read back in {written:?}");
            let san = notation::san_plain(&side, mv);
            assert_eq!(notation::parse_san(&side, &san), Ok(mv), "{color:?} SAN {san:?} does not read back in {written:?}");
        }
    }
    // Resolve a few pairs of moves (all of them would be slow for big boards).
    for (w, b) in moves[0].iter().zip(moves[1].iter().rev()).take(8) {
        let turn = start.resolve(*w, *b).unwrap_or_else(|e| panic!("legal pair {w:?} {b:?} refused in {written:?}: {e}"));
        let next = turn.position.to_fen();
        assert_eq!(SimPosition::from_fen(v, &next), Ok(turn.position), "{next:?} does not read back");
    }
}

fn crowd(v: &'static Variant) {
    let start = CrowdPosition::start(v);
    let written = start.to_fen();
    assert_eq!(CrowdPosition::from_fen(v, &written), Ok(start.clone()), "start position {written:?} does not read back");
    for mv in start.legal_moves() {
        let uci = notation::uci(&start, mv);
        assert_eq!(notation::parse_uci(&start, &uci), Ok(mv), "UCI {uci:?} does not read back in {written:?}");
        let san = start.san(mv);
        assert_eq!(notation::parse_san(&start, &san), Ok(mv), "SAN {san:?} does not read back in {written:?}");
    }
}
