//! Any lines as UCI commands (searches and benches left out: they are
//! slow by design): the engine never panics, answers every bad command with
//! an `info string error`, and stays responsive (`isready` -> `readyok`).
#![no_main]

use std::io::Write;
use std::sync::{Arc, Mutex};

use libfuzzer_sys::fuzz_target;
use parity_engine::uci::Uci;

#[derive(Clone, Default)]
struct Sink(Arc<Mutex<Vec<u8>>>);

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let sink = Sink::default();
    let mut uci = Uci::new(Arc::new(Mutex::new(sink.clone())));
    for line in text.lines().take(64) {
        let command = line.split_whitespace().next().unwrap_or("");
        // Searches, perft and benches run as long as they are told to.
        if matches!(command, "go" | "bench" | "quit") || command.eq_ignore_ascii_case("setoption") && line.contains("VariantPath") {
            continue;
        }
        assert!(uci.handle(line));
    }
    sink.0.lock().unwrap().clear();
    assert!(uci.handle("isready"));
    let out = String::from_utf8(sink.0.lock().unwrap().clone()).unwrap();
    assert_eq!(out.trim(), "readyok");
});
