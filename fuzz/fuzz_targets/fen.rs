//! Any text as a FEN for every built-in variant: never panics, and whatever
//! is accepted writes out and reads back as the same position. Simultaneous
//! and crowd variants also get their own FEN readers (`SimPosition::from_fen`,
//! `CrowdPosition::from_fen`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use parity_rules::crowd::CrowdPosition;
use parity_rules::simultaneous::SimPosition;
use parity_rules::variant::Family;
use parity_rules::{fen, Registry};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    for v in Registry::builtin().iter() {
        let _ = fen::parse_setup(v, text);
        if let Ok(pos) = fen::parse_position(v, text) {
            let written = fen::write(&pos);
            let again = fen::parse_position(v, &written)
                .unwrap_or_else(|e| panic!("{}: {text:?} was accepted but its FEN {written:?} is rejected: {e}", v.id()));
            assert_eq!(again, pos, "{}: {text:?} written as {written:?} reads back differently", v.id());
            assert_eq!(fen::write(&again), written, "{}: {text:?}", v.id());
        }
        if v.spec.family == Family::Crowd {
            if let Ok(pos) = CrowdPosition::from_fen(v, text) {
                let written = pos.to_fen();
                let again = CrowdPosition::from_fen(v, &written)
                    .unwrap_or_else(|e| panic!("{}: {text:?} was accepted but its FEN {written:?} is rejected: {e}", v.id()));
                assert_eq!(again, pos, "{}: {text:?} written as {written:?} reads back differently", v.id());
            }
        }
        if v.spec.family == Family::Simultaneous {
            if let Ok(pos) = SimPosition::from_fen(v, text) {
                let written = pos.to_fen();
                let again = SimPosition::from_fen(v, &written)
                    .unwrap_or_else(|e| panic!("{}: {text:?} was accepted but its FEN {written:?} is rejected: {e}", v.id()));
                assert_eq!(again, pos, "{}: {text:?} written as {written:?} reads back differently", v.id());
                assert_eq!(again.to_fen(), written, "{}: {text:?}", v.id());
            }
        }
    }
});
