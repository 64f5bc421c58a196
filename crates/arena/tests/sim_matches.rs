//! Matches of the simultaneous variants between fake engines speaking UCI
//! with joint moves: both engines are asked at once, every way an engine can
//! fail loses that game (both failing in one turn draws it), and the match
//! goes on; records replay with the rules.

use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use parity_arena::engine::{EngineSpec, Log};
use parity_arena::game::Termination;
use parity_arena::openings::{self, Opening};
use parity_arena::tournament::{self, MatchConfig, Summary};
use parity_arena::{pgn, Adjudication, DrawRule, GameRecord, Limits, ResignRule, TimeControl};
use parity_rules::{Color, Registry};

mod common;
use common::{fake, run};

fn config(variant: &str, a: EngineSpec, b: EngineSpec, games: usize) -> MatchConfig {
    common::config(
        variant,
        a,
        b,
        games,
        2,
        Adjudication {
            max_turns: Some(40),
            ..Adjudication::default()
        },
    )
}

/// Every game's record replays with the rules, to the end it reports.
fn replays(games: &[GameRecord]) {
    let registry = Registry::builtin();
    for g in games {
        let text = pgn::write(g, "test", "2026.01.01");
        let replayed = parity_rules::record::replay(&registry, &text)
            .unwrap_or_else(|e| panic!("{e}\n{text}"));
        let parity_rules::AnyGame::Simultaneous(game) = replayed else {
            panic!("not simultaneous:\n{text}")
        };
        assert_eq!(
            game.turns().len(),
            g.opening.len() + g.turns.len(),
            "{text}"
        );
        assert!(
            text.contains(&format!("[Variant \"{}\"]", g.variant.id())),
            "{text}"
        );
        assert!(
            text.contains(&format!("[Result \"{}\"]", g.ending.result_text())),
            "{text}"
        );
        assert!(
            text.contains(&format!("[Termination \"{}\"]", g.ending.termination.pgn())),
            "{text}"
        );
        assert!(
            text.contains(&format!("[PlyCount \"{}\"]", 2 * game.turns().len())),
            "{text}"
        );
        // A game that ended by the rules ends so on replay too.
        if g.ending.termination == Termination::Normal {
            let o = game
                .outcome()
                .unwrap_or_else(|| panic!("replay does not end: {:?}\n{text}", g.ending));
            assert_eq!(o.winner, g.ending.winner, "{text}");
        }
    }
}

/// The misbehaving engine (named `bad`) lost every game, with this termination and words.
fn bad_engine_lost_all(
    summary: &Summary,
    games: &[GameRecord],
    termination: Termination,
    words: &str,
) {
    assert_eq!(summary.games, games.len());
    for g in games {
        let bad = if g.white == "bad" {
            Color::White
        } else {
            Color::Black
        };
        assert_eq!(
            g.ending.winner,
            Some(bad.other()),
            "game {}: {:?}",
            g.number,
            g.ending
        );
        assert_eq!(g.ending.termination, termination, "{:?}", g.ending);
        assert!(g.ending.reason.contains(words), "{:?}", g.ending);
        assert!(
            g.ending.reason.starts_with(if bad == Color::White {
                "White"
            } else {
                "Black"
            }),
            "{:?}",
            g.ending
        );
    }
    assert_eq!(summary.trinomial.wins as usize, games.len());
    replays(games);
}

/// A protocol log in memory.
fn memory_log() -> (Log, Arc<Mutex<Vec<u8>>>) {
    struct Shared(Arc<Mutex<Vec<u8>>>);
    impl Write for Shared {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let buf = Arc::new(Mutex::new(Vec::new()));
    (Arc::new(Mutex::new(Box::new(Shared(buf.clone())))), buf)
}

#[test]
fn a_simultaneous_match_between_good_engines() {
    let mut c = config(
        "parity",
        fake("a", "--mode random --seed 1 --value 0.25"),
        fake("b", "--mode random --seed 2"),
        4,
    );
    let (log, lines) = memory_log();
    c.log = Some(log);
    let (summary, games) = run(&c);
    assert_eq!(summary.games, 4);
    assert_eq!(
        games.iter().map(|g| g.white.as_str()).collect::<Vec<_>>(),
        ["a", "b", "a", "b"]
    );
    assert_eq!(games[0].opening, games[1].opening);
    assert_ne!(games[0].opening, games[2].opening);
    assert_eq!(games[0].opening.len(), 2);
    assert!(
        games[0].opening[0].0.contains(':'),
        "{:?}",
        games[0].opening
    );
    assert_eq!(summary.pentanomial.pairs(), 2);
    for g in &games {
        assert!(
            matches!(
                g.ending.termination,
                Termination::Normal | Termination::Adjudication
            ),
            "{:?}",
            g.ending
        );
        assert!(!g.turns.is_empty());
        // What each engine reported is kept: a's value, both strategies.
        let a = if g.white == "a" { 0 } else { 1 };
        for t in &g.turns {
            assert_eq!(t.moves[a].value, Some(0.25));
            assert_eq!(t.moves[1 - a].value, Some(0.0));
            for m in &t.moves {
                assert!(!m.strategy.is_empty() && !m.opponent.is_empty(), "{m:?}");
                assert!(m.strategy.iter().any(|(mv, _)| *mv == m.uci), "{m:?}");
                assert_eq!(m.depth, Some(1));
            }
        }
        let text = pgn::write(g, "t", "2026.01.01");
        assert!(text.contains("+0.250/1 "), "{text}");
    }
    replays(&games);
    // Per-colour results add up.
    let c = summary.by_colour;
    assert_eq!(c.wins + c.draws + c.losses, 4);
    let report = summary.report();
    assert!(
        report.contains("White vs Black: ") && report.contains("a as White: "),
        "{report}"
    );
    // The protocol: joint moves, `go side`, and neither engine told the other's move of the turn.
    let log = String::from_utf8(lines.lock().unwrap().clone()).unwrap();
    assert!(
        log.contains("setoption name UCI_Variant value parity"),
        "{log}"
    );
    assert!(
        log.contains("> go side white depth 1") && log.contains("> go side black depth 1"),
        "{log}"
    );
    let opening = games[0]
        .opening
        .iter()
        .map(|(j, _)| j.as_str())
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        log.contains(&format!("> position startpos moves {opening}\n")),
        "{log}"
    );
}

#[test]
fn both_engines_think_at_once() {
    // Each move takes 250 ms: 6 turns asked one engine after the other
    // would take 3 s; at once, 1.5 s.
    let mut c = config(
        "parity",
        fake("a", "--mode slow --delay 250"),
        fake("b", "--mode slow --delay 250 --seed 2"),
        1,
    );
    c.openings = vec![Opening {
        fen: None,
        moves: Vec::new(),
    }];
    c.adjudication.max_turns = Some(6);
    let start = Instant::now();
    let (_, games) = run(&c);
    let wall = start.elapsed();
    let g = &games[0];
    assert_eq!(
        (g.turns.len(), g.ending.termination),
        (6, Termination::Adjudication),
        "{:?}",
        g.ending
    );
    assert_eq!(g.ending.reason, "Draw by adjudication: 6 turns");
    let thinking: Duration = g
        .turns
        .iter()
        .flat_map(|t| t.moves.iter().map(|m| m.elapsed))
        .sum();
    assert!(thinking >= Duration::from_millis(2900), "{thinking:?}");
    assert!(
        wall < Duration::from_millis(2500),
        "{wall:?} for {thinking:?} of thinking"
    );
}

#[test]
fn a_crash_loses_and_the_engine_is_restarted() {
    let c = config(
        "parity",
        fake("good", ""),
        fake("bad", "--mode crash --after 2"),
        4,
    );
    let (summary, games) = run(&c);
    bad_engine_lost_all(
        &summary,
        &games,
        Termination::Abandoned,
        "crashed (exited with code 3)",
    );
    for g in &games {
        assert_eq!(g.turns.len(), 2, "{:?}", g.ending);
    }
}

#[test]
fn a_hang_loses() {
    let c = config(
        "move-neutral",
        fake("good", ""),
        fake("bad", "--mode hang --after 1"),
        2,
    );
    let (summary, games) = run(&c);
    bad_engine_lost_all(&summary, &games, Termination::StalledConnection, "hangs");
}

#[test]
fn illegal_garbled_and_wrong_side_moves_lose() {
    for (mode, words) in [
        ("illegal --after 3", "illegal move: `a1a1`"),
        ("garbled", "`xyzzy`"),
        ("wrong-side --after 1", "illegal move: `"),
    ] {
        let c = config(
            "parity-single",
            fake("good", ""),
            fake("bad", &format!("--mode {mode}")),
            2,
        );
        let (summary, games) = run(&c);
        bad_engine_lost_all(&summary, &games, Termination::RulesInfraction, words);
        assert_eq!(summary.terminations.get("rules infraction"), Some(&2));
    }
}

#[test]
fn the_clock_decides_a_slow_engine_and_both_clocks_run() {
    let mut c = config(
        "parity",
        fake("good", ""),
        fake("bad", "--mode slow --after 1 --delay 600"),
        2,
    );
    c.limits = Limits {
        tc: Some(TimeControl::parse("0.5+0.01").unwrap()),
        ..Limits::default()
    };
    c.time_margin = Duration::from_millis(50);
    let (summary, games) = run(&c);
    bad_engine_lost_all(&summary, &games, Termination::TimeForfeit, "loses on time");
    let text = pgn::write(&games[0], "t", "2026.01.01");
    assert!(text.contains("[TimeControl \"0.5+0.01\"]"), "{text}");
    // Two slow engines with clocks that last: nobody loses on time, though
    // each turn takes as long as one move.
    let mut c = config(
        "parity",
        fake("a", "--mode slow --delay 100"),
        fake("b", "--mode slow --delay 100"),
        2,
    );
    c.limits = Limits {
        tc: Some(TimeControl::parse("0.5+0.1").unwrap()),
        ..Limits::default()
    };
    c.adjudication.max_turns = Some(6);
    let (_, games) = run(&c);
    for g in &games {
        assert_eq!(
            g.ending.termination,
            Termination::Adjudication,
            "{:?}",
            g.ending
        );
    }
}

#[test]
fn both_failing_in_one_turn_is_a_draw() {
    let c = config(
        "parity",
        fake("a", "--mode crash --after 1"),
        fake("b", "--mode illegal --after 1"),
        2,
    );
    let (summary, games) = run(&c);
    assert_eq!(summary.trinomial.draws, 2);
    for g in &games {
        assert_eq!(g.ending.winner, None, "{:?}", g.ending);
        assert_eq!(
            g.ending.termination,
            Termination::Abandoned,
            "{:?}",
            g.ending
        );
        assert!(
            g.ending
                .reason
                .starts_with("Draw: both fail in the same turn"),
            "{:?}",
            g.ending
        );
        assert!(
            g.ending.reason.contains("crashed") && g.ending.reason.contains("a1a1"),
            "{:?}",
            g.ending
        );
        assert_eq!(g.turns.len(), 1);
    }
    replays(&games);
}

#[test]
fn fen_openings_number_turns_from_the_fen() {
    let mut c = config(
        "parity",
        fake("a", "--mode random --seed 5"),
        fake("b", "--mode random --seed 6"),
        2,
    );
    let fen = "rnbqkbnr/pppp1ppp/8/4p'3/4P'3/8/PPPP1PPP/RNBQKBNR KQkq - 0 7";
    c.openings = openings::parse(&format!("{fen} moves g1f3:b8c6\n"), c.variant).unwrap();
    let (summary, games) = run(&c);
    assert_eq!(summary.games, 2);
    for g in &games {
        assert_eq!(g.start_fen.as_deref(), Some(fen));
        let text = pgn::write(g, "t", "2026.01.01");
        assert!(
            text.contains("[SetUp \"1\"]") && text.contains("\n\n7. Nf3 Nc6 8. "),
            "{text}"
        );
    }
    replays(&games);
}

#[test]
fn what_cannot_play_a_simultaneous_variant_stops_the_match_up_front() {
    let c = config("parity", fake("good", ""), fake("bad", "--xboard"), 2);
    let err = tournament::run(&c, |_| {}).unwrap_err();
    assert!(
        err.contains("engine bad") && err.contains("XBoard"),
        "{err}"
    );
    let c = config("parity", fake("good", ""), fake("bad", "--no-sim"), 2);
    let err = tournament::run(&c, |_| {}).unwrap_err();
    assert!(
        err.contains("engine bad")
            && err.contains("does not offer the simultaneous variant `parity`"),
        "{err}"
    );
    let mut c = config("parity", fake("a", ""), fake("b", ""), 2);
    c.adjudication.resign = Some(ResignRule {
        moves: 3,
        score: 500,
    });
    assert!(tournament::run(&c, |_| {})
        .unwrap_err()
        .contains("--resign"));
    c.adjudication.resign = None;
    c.adjudication.draw = Some(DrawRule {
        movenumber: 10,
        moves: 3,
        score: 5,
    });
    assert!(tournament::run(&c, |_| {}).unwrap_err().contains("--draw"));
}
