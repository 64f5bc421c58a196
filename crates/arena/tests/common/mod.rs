//! Helpers shared by the match tests: fake engines, a match configuration
//! and a runner that collects the finished games.

use std::time::Duration;

use parity_arena::engine::EngineSpec;
use parity_arena::openings;
use parity_arena::tournament::{self, Event, MatchConfig, Pairing, Summary};
use parity_arena::{Adjudication, GameRecord, Limits};
use parity_rules::Registry;

pub const FAKE: &str = env!("CARGO_BIN_EXE_parity-fake-engine");

/// The fake engine with command-line arguments (`--xboard` makes it speak XBoard).
pub fn fake(name: &str, args: &str) -> EngineSpec {
    let mut spec = format!("name={name},cmd={FAKE}");
    for a in args.split_whitespace() {
        spec.push_str(&format!(",arg={a}"));
    }
    if args.contains("--xboard") {
        spec.push_str(",proto=xboard");
    }
    EngineSpec::parse(&spec, None).unwrap()
}

/// Two engines, depth 1, random balanced openings of `opening_length`
/// (plies, or turns in a simultaneous variant), two games at a time.
pub fn config(
    variant: &str,
    a: EngineSpec,
    b: EngineSpec,
    games: usize,
    opening_length: usize,
    adjudication: Adjudication,
) -> MatchConfig {
    let variant = Registry::builtin().get(variant).unwrap();
    MatchConfig {
        variant,
        engines: [a, b],
        limits: Limits {
            depth: Some(1),
            ..Limits::default()
        },
        openings: openings::random_balanced(variant, games.div_ceil(2), opening_length, 1).unwrap(),
        pairing: Pairing::ColoursSwapped,
        games,
        only: None,
        engine_seed: None,
        concurrency: 2,
        adjudication,
        time_margin: Duration::from_millis(200),
        hang_timeout: Duration::from_secs(2),
        sprt: None,
        event: "test".into(),
        log: None,
    }
}

/// Plays the match and returns its summary and games in order.
pub fn run(config: &MatchConfig) -> (Summary, Vec<GameRecord>) {
    let mut games = Vec::new();
    let summary = tournament::run(config, |e| {
        if let Event::GameFinished { game, .. } = e {
            games.push(game.clone());
        }
    })
    .unwrap();
    games.sort_by_key(|g| g.number);
    (summary, games)
}
