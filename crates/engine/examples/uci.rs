//! The engine's UCI loop without the server: builds in a minute, for
//! engine work (`cargo build --release -p parity-engine --example uci`).
//! `parity uci` is the same loop.

fn main() {
    parity_engine::uci::run_stdio();
}
