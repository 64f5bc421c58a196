//! The match runner's readers of text from users and engines: engine
//! specs, time controls, SPRT settings, opening files, UCI `info` lines and
//! XBoard feature and thinking lines. Any text: an answer or a clear error,
//! never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use parity_arena::{engine::EngineSpec, limits::TimeControl, openings, stats::Sprt, uci, xboard};
use parity_rules::Registry;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let _ = EngineSpec::parse(text, None);
    let _ = TimeControl::parse(text);
    let _ = Sprt::parse(text);
    let _ = uci::parse_info_sim(text);
    let _ = uci::parse_info_score(text);
    let _ = xboard::parse_features(text);
    let _ = xboard::parse_thinking(text);
    let registry = Registry::builtin();
    for id in ["chess", "safety-in-numbers", "parity"] {
        let _ = openings::parse(text, registry.get(id).unwrap());
    }
});
