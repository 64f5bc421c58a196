//! Short matches against the Debian engines the benchmarks use:
//! `fairy-stockfish` (UCI) and `fairymax` (XBoard, with our own ini file
//! for tutti-frutti). `scripts/test` installs them; a missing one fails here
//! with a message saying so, never a silent skip.

use std::path::Path;
use std::time::Duration;

use parity_arena::engine::EngineSpec;
use parity_arena::game::Termination;
use parity_arena::openings;
use parity_arena::tournament::{self, Event, MatchConfig, Pairing};
use parity_arena::{pgn, Adjudication, GameRecord, Limits, TimeControl};
use parity_rules::Registry;

const FAKE: &str = env!("CARGO_BIN_EXE_parity-fake-engine");
const FAIRY_STOCKFISH: &str = "/usr/games/fairy-stockfish";
const FAIRYMAX: &str = "/usr/games/fairymax";

fn fmax_ini() -> String {
    format!("{}/tests/data/fmax-parity.ini", env!("CARGO_MANIFEST_DIR"))
}

fn fsf_ini() -> String {
    format!(
        "{}/tests/data/fairy-stockfish-parity.ini",
        env!("CARGO_MANIFEST_DIR")
    )
}

fn need(path: &str, package: &str) {
    assert!(
        Path::new(path).exists(),
        "{path} is missing: install the Debian package `{package}` (./scripts/test does: apt-get install {package})"
    );
}

fn config(variant: &str, a: &str, b: &str, games: usize, limits: Limits) -> MatchConfig {
    let variant = Registry::builtin().get(variant).unwrap();
    MatchConfig {
        variant,
        engines: [
            EngineSpec::parse(a, None).unwrap(),
            EngineSpec::parse(b, None).unwrap(),
        ],
        limits,
        openings: openings::random_balanced(variant, games.div_ceil(2), 6, 11).unwrap(),
        pairing: Pairing::ColoursSwapped,
        games,
        only: None,
        engine_seed: None,
        concurrency: 2,
        adjudication: Adjudication {
            max_plies: Some(160),
            ..Adjudication::default()
        },
        time_margin: Duration::from_millis(300),
        hang_timeout: Duration::from_secs(20),
        sprt: None,
        event: "peer test".into(),
        log: None,
    }
}

/// Plays the match; no game may end by an engine failure, and every record replays.
fn play_clean(c: &MatchConfig) -> Vec<GameRecord> {
    let mut games = Vec::new();
    let summary = tournament::run(c, |e| {
        if let Event::GameFinished { game, .. } = e {
            games.push(game.clone());
        }
    })
    .unwrap_or_else(|e| panic!("match failed to start: {e}"));
    assert_eq!(summary.games, c.games);
    let registry = Registry::builtin();
    for g in &games {
        assert!(
            matches!(
                g.ending.termination,
                Termination::Normal | Termination::Adjudication
            ),
            "game {} ({} - {}) ended by {:?}: {}\nmoves: {}",
            g.number,
            g.white,
            g.black,
            g.ending.termination,
            g.ending.reason,
            g.moves
                .iter()
                .map(|m| m.uci.as_str())
                .collect::<Vec<_>>()
                .join(" ")
        );
        assert!(g.moves.len() >= 2, "{:?}", g.ending);
        eprintln!(
            "{} game {}: {} - {}: {} {{{}}} after {} plies",
            c.variant.id(),
            g.number,
            g.white,
            g.black,
            g.ending.result_text(),
            g.ending.reason,
            g.opening.len() + g.moves.len()
        );
        let text = pgn::write(g, "peer test", "2026.01.01");
        parity_rules::record::replay(&registry, &text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    }
    games
}

#[test]
fn fairy_stockfish_against_itself_in_chess() {
    need(FAIRY_STOCKFISH, "fairy-stockfish");
    let c = config(
        "chess",
        &format!("name=fsf-a,cmd={FAIRY_STOCKFISH},option.Hash=8"),
        &format!("name=fsf-b,cmd={FAIRY_STOCKFISH},option.Hash=8"),
        4,
        Limits {
            nodes: Some(2000),
            ..Limits::default()
        },
    );
    let games = play_clean(&c);
    // Engine moves carry Fairy-Stockfish's scores.
    assert!(games
        .iter()
        .flat_map(|g| &g.moves)
        .any(|m| m.score.is_some() && m.depth.is_some()));
}

#[test]
fn fairy_stockfish_against_the_fake_engine_with_a_clock() {
    need(FAIRY_STOCKFISH, "fairy-stockfish");
    let c = config(
        "chess",
        &format!("name=fsf,cmd={FAIRY_STOCKFISH},option.Hash=8"),
        &format!("name=fake,cmd={FAKE},arg=--mode,arg=random"),
        2,
        Limits {
            tc: Some(TimeControl::parse("2+0.05").unwrap()),
            ..Limits::default()
        },
    );
    let games = play_clean(&c);
    // A random mover loses to Fairy-Stockfish.
    for g in &games {
        let fsf_white = g.white == "fsf";
        assert_eq!(
            g.ending.result_text(),
            if fsf_white { "1-0" } else { "0-1" },
            "{:?}",
            g.ending
        );
    }
}

#[test]
fn fairy_stockfish_plays_tutti_frutti_from_an_ini() {
    // Fixed nodes and a seeded random mover: the same games every run (the
    // random mover never castles with the Empress here, which Debian's
    // Fairy-Stockfish 11.1 could not follow).
    need(FAIRY_STOCKFISH, "fairy-stockfish");
    let c = config(
        "tutti-frutti",
        &format!(
            "name=fsf,cmd={FAIRY_STOCKFISH},option.VariantPath={}",
            fsf_ini()
        ),
        &format!("name=fake,cmd={FAKE},arg=--mode,arg=random"),
        2,
        Limits {
            nodes: Some(3000),
            ..Limits::default()
        },
    );
    play_clean(&c);
}

#[test]
fn fairymax_plays_chess_and_tutti_frutti_from_our_ini() {
    need(FAIRYMAX, "fairymax");
    for variant in ["chess", "tutti-frutti"] {
        let c = config(
            variant,
            &format!(
                "name=fairymax,cmd={FAIRYMAX},arg={},proto=xboard",
                fmax_ini()
            ),
            &format!("name=fake,cmd={FAKE},arg=--mode,arg=random"),
            2,
            Limits {
                tc: Some(TimeControl::parse("2+0.05").unwrap()),
                ..Limits::default()
            },
        );
        play_clean(&c);
    }
}

#[test]
fn fairymax_against_fairy_stockfish_in_chess() {
    // Not tutti-frutti: Debian's Fairy-Stockfish 11.1 reads only
    // `castlingRookPiece` (one kind), so it cannot castle with the Empress
    // and would refuse such a castling by Fairy-Max (see docs/match.md).
    need(FAIRYMAX, "fairymax");
    need(FAIRY_STOCKFISH, "fairy-stockfish");
    let c = config(
        "chess",
        &format!(
            "name=fairymax,cmd={FAIRYMAX},arg={},proto=xboard",
            fmax_ini()
        ),
        &format!("name=fsf,cmd={FAIRY_STOCKFISH},option.Hash=8"),
        2,
        Limits {
            tc: Some(TimeControl::parse("2+0.05").unwrap()),
            ..Limits::default()
        },
    );
    play_clean(&c);
}
