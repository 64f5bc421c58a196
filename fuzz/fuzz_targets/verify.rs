//! `parity verify`'s reader of game records (`GET /api/games/ID/record`):
//! any text gets a verdict, never a panic, and an accepted record's counts
//! fit its events.
#![no_main]

use libfuzzer_sys::fuzz_target;
use parity_rules::Registry;
use parity_server::game::verify::{verify, Record};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let registry = Registry::builtin();
    if let Ok(verified) = verify(&registry, text, None) {
        let record: Record = serde_json::from_str(text).expect("a verified record reads");
        assert!(verified.played + verified.commitments <= record.events.len());
        assert_eq!(verified.id, record.id);
        let _ = verified.to_string();
    }
});
