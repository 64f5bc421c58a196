//! Any bytes as a network file (`parity train` writes them): reading never
//! panics, and an accepted network evaluates the start position and writes
//! back the same bytes (a version 1 file: bytes that read back as it).
#![no_main]

use libfuzzer_sys::fuzz_target;
use parity_engine::net::{file_variant, Network};
use parity_rules::{Color, Position, Registry};

fuzz_target!(|data: &[u8]| {
    let v = Registry::builtin().get("chess").expect("chess is built in");
    let named = file_variant(data);
    let Ok(net) = Network::from_bytes(v, data) else { return };
    assert_eq!(named.as_deref(), Ok("chess"));
    let _ = net.evaluate(&<Position>::start(v), Color::White);
    let written = net.to_bytes();
    if data[8..12] == 1u32.to_le_bytes() {
        let again = Network::from_bytes(v, &written);
        assert_eq!(again.as_ref(), Ok(&net), "a version 1 file reads back differently");
    } else {
        assert_eq!(written, data, "an accepted file writes back differently");
    }
});
