//! Matches between scripted fake engines: every way an engine can fail
//! loses that game with its reason, and the match goes on.

use std::time::Duration;

use parity_arena::engine::EngineSpec;
use parity_arena::game::Termination;
use parity_arena::openings;
use parity_arena::tournament::{self, MatchConfig, Summary};
use parity_arena::{pgn, Adjudication, GameRecord, Limits, ResignRule, TimeControl};
use parity_rules::{Color, Registry};

mod common;
use common::{fake, run};

fn config(variant: &str, a: EngineSpec, b: EngineSpec, games: usize) -> MatchConfig {
    common::config(
        variant,
        a,
        b,
        games,
        4,
        Adjudication {
            max_plies: Some(60),
            ..Adjudication::default()
        },
    )
}

/// Every game's record replays with the rules and ends as reported.
fn replays(games: &[GameRecord]) {
    let registry = Registry::builtin();
    for g in games {
        let text = pgn::write(g, "test", "2026.01.01");
        parity_rules::record::replay(&registry, &text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert!(
            text.contains(&format!("[Result \"{}\"]", g.ending.result_text())),
            "{text}"
        );
        assert!(
            text.contains(&format!("[Termination \"{}\"]", g.ending.termination.pgn())),
            "{text}"
        );
    }
}

/// The misbehaving engine (the second) lost every game it played, with this termination and words.
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
    }
    assert_eq!(summary.trinomial.wins as usize, games.len());
    replays(games);
}

#[test]
fn good_engines_play_to_the_end_with_alternating_colours() {
    let c = config(
        "chess",
        fake("a", "--mode random --seed 1"),
        fake("b", "--mode random --seed 2"),
        4,
    );
    let (summary, games) = run(&c);
    assert_eq!(summary.games, 4);
    assert_eq!(
        games.iter().map(|g| g.white.as_str()).collect::<Vec<_>>(),
        ["a", "b", "a", "b"]
    );
    // Pairs share their opening.
    assert_eq!(games[0].opening, games[1].opening);
    assert_ne!(games[0].opening, games[2].opening);
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
    }
    replays(&games);
    let report = summary.report();
    assert!(
        report.contains("Score of a vs b") && report.contains("Elo difference"),
        "{report}"
    );
}

#[test]
fn a_crash_loses_and_the_engine_is_restarted() {
    let c = config(
        "chess",
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
    // It was restarted for each game and played its first two moves each time.
    for g in &games {
        let bad_moves = g.moves.len() / 2;
        assert!(bad_moves >= 2, "{:?}", g.moves);
    }
}

#[test]
fn a_hang_loses() {
    let c = config(
        "chess",
        fake("good", ""),
        fake("bad", "--mode hang --after 1"),
        2,
    );
    let (summary, games) = run(&c);
    bad_engine_lost_all(&summary, &games, Termination::StalledConnection, "hangs");
}

#[test]
fn an_illegal_move_loses_with_its_text() {
    let c = config(
        "tutti-frutti",
        fake("good", ""),
        fake("bad", "--mode illegal --after 3"),
        2,
    );
    let (summary, games) = run(&c);
    bad_engine_lost_all(
        &summary,
        &games,
        Termination::RulesInfraction,
        "illegal move: `a1a1`",
    );
}

#[test]
fn a_garbled_move_loses_with_its_text() {
    let c = config("chess", fake("good", ""), fake("bad", "--mode garbled"), 2);
    let (summary, games) = run(&c);
    bad_engine_lost_all(&summary, &games, Termination::RulesInfraction, "`xyzzy`");
}

#[test]
fn the_clock_decides_a_slow_engine() {
    let mut c = config(
        "chess",
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
}

#[test]
fn an_engine_that_cannot_start_stops_the_match_before_it_begins() {
    let c = config("chess", fake("good", ""), fake("bad", "--mode exit"), 2);
    let err = tournament::run(&c, |_| {}).unwrap_err();
    assert!(
        err.contains("engine bad") && err.contains("crashed"),
        "{err}"
    );
    let mut c = config(
        "chess",
        fake("good", ""),
        EngineSpec::parse("name=bad,cmd=/nonexistent/engine", None).unwrap(),
        2,
    );
    c.games = 2;
    let err = tournament::run(&c, |_| {}).unwrap_err();
    assert!(err.contains("cannot run `/nonexistent/engine`"), "{err}");
}

#[test]
fn an_option_the_engine_refuses_stops_the_match() {
    let mut picky = fake("picky", "");
    picky.options.push(("Hash".into(), "lots".into()));
    let c = config("chess", fake("good", ""), picky, 2);
    let err = tournament::run(&c, |_| {}).unwrap_err();
    assert!(
        err.contains("engine picky") && err.contains("Hash lots is not a number"),
        "{err}"
    );
}

#[test]
fn resign_adjudication_needs_both_engines() {
    // The first engine thinks it is lost (-900 cp), the second agrees (+900 cp).
    let mut c = config(
        "chess",
        fake("loser", "--score -900"),
        fake("winner", "--score 900"),
        2,
    );
    c.adjudication.resign = Some(ResignRule {
        moves: 3,
        score: 500,
    });
    let (summary, games) = run(&c);
    assert_eq!(summary.trinomial.losses, 2);
    for g in &games {
        assert_eq!(
            g.ending.termination,
            Termination::Adjudication,
            "{:?}",
            g.ending
        );
        assert!(
            g.ending.reason.contains("wins by adjudication"),
            "{:?}",
            g.ending
        );
        assert_eq!(g.moves.len(), 6);
    }
    // If only one engine believes it, the game goes on.
    let mut c = config(
        "chess",
        fake("loser", "--score -900"),
        fake("winner", "--score 0"),
        2,
    );
    c.adjudication.resign = Some(ResignRule {
        moves: 3,
        score: 500,
    });
    let (_, games) = run(&c);
    assert!(games
        .iter()
        .all(|g| g.ending.termination != Termination::Adjudication || g.ending.winner.is_none()));
}

#[test]
fn xboard_engines_play_and_fail_like_uci_ones() {
    let c = config(
        "tutti-frutti",
        fake("good", "--mode random"),
        fake("bad", "--xboard --mode random"),
        2,
    );
    let (summary, games) = run(&c);
    assert_eq!(summary.games, 2);
    replays(&games);
    for (mode, termination, words) in [
        ("resign --after 2", Termination::Normal, "resigns"),
        (
            "claim --after 2",
            Termination::RulesInfraction,
            "claims `1/2-1/2",
        ),
        (
            "refuse --after 2",
            Termination::RulesInfraction,
            "refuses a legal move",
        ),
        ("crash --after 2", Termination::Abandoned, "crashed"),
        (
            "illegal --after 2",
            Termination::RulesInfraction,
            "illegal move: `a1a1`",
        ),
        ("hang --after 2", Termination::StalledConnection, "hangs"),
    ] {
        let c = config(
            "chess",
            fake("good", ""),
            fake("bad", &format!("--xboard --mode {mode}")),
            2,
        );
        let (summary, games) = run(&c);
        bad_engine_lost_all(&summary, &games, termination, words);
    }
}

#[test]
fn an_xboard_claim_followed_by_a_move_is_ignored() {
    let c = config(
        "chess",
        fake("good", ""),
        fake("claimer", "--xboard --mode claim-move --after 1"),
        2,
    );
    let (summary, games) = run(&c);
    assert_eq!(summary.games, 2);
    for g in &games {
        assert!(
            matches!(
                g.ending.termination,
                Termination::Normal | Termination::Adjudication
            ),
            "{:?}",
            g.ending
        );
        assert!(g.moves.len() > 6);
    }
}

#[test]
fn xboard_engine_without_setboard_refuses_fen_openings_up_front() {
    let mut c = config(
        "chess",
        fake("good", ""),
        fake("bad", "--xboard --no-setboard"),
        2,
    );
    let v = c.variant;
    c.openings = openings::parse(
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n",
        v,
    )
    .unwrap();
    let err = tournament::run(&c, |_| {}).unwrap_err();
    assert!(err.contains("setboard"), "{err}");
    // Openings given as moves are fine.
    c.openings = openings::parse("e2e4 e7e5\n", v).unwrap();
    let (summary, _) = run(&c);
    assert_eq!(summary.games, 2);
}

#[test]
fn crowd_variant_matches_and_fen_starts() {
    let mut c = config(
        "safety-in-numbers",
        fake("a", "--mode random --seed 3"),
        fake("b", "--mode random --seed 4"),
        2,
    );
    c.openings = openings::parse(
        "rnbqkbnr/pppppppp/8/8/4(Pn)3/8/PPPP1PPP/R1BQKBNR b KQkq - 0 1\n",
        c.variant,
    )
    .unwrap();
    let (summary, games) = run(&c);
    assert_eq!(summary.games, 2);
    for g in &games {
        assert_eq!(
            g.start_fen.as_deref(),
            Some("rnbqkbnr/pppppppp/8/8/4(Pn)3/8/PPPP1PPP/R1BQKBNR b KQkq - 0 1")
        );
        let text = pgn::write(g, "t", "2026.01.01");
        assert!(
            text.contains("[SetUp \"1\"]")
                && text.contains("[Variant \"safety-in-numbers\"]")
                && text.contains("1... "),
            "{text}"
        );
    }
    replays(&games);
}

#[test]
fn sprt_stops_a_lopsided_match() {
    // A random mover against a resigning-by-adjudication loser: the first
    // engine wins every game, so H1 (elo1 = 100) is accepted early.
    let mut c = config(
        "chess",
        fake("strong", "--score 900"),
        fake("weak", "--score -900"),
        200,
    );
    c.adjudication.resign = Some(ResignRule {
        moves: 1,
        score: 500,
    });
    c.sprt = Some(parity_arena::Sprt::parse("elo0=0,elo1=100").unwrap());
    c.openings = openings::random_balanced(c.variant, 100, 6, 9).unwrap();
    let (summary, _) = run(&c);
    let (_, llr, state) = summary.sprt.unwrap();
    assert_eq!(state, parity_arena::stats::SprtState::AcceptH1, "{llr}");
    assert!(
        summary.stopped_by_sprt && summary.games < 200,
        "{}",
        summary.games
    );
    assert!(
        summary.report().contains("H1 accepted"),
        "{}",
        summary.report()
    );
}

#[test]
fn self_play_options_give_each_game_its_opening_a_subset_and_seeds() {
    use parity_arena::Pairing;
    let a = fake("a", "--mode random");
    let b = fake("b", "--mode random");
    let mut c = config("chess", a, b, 6);
    let variant = Registry::builtin().get("chess").unwrap();
    c.openings = openings::random_balanced(variant, 6, 4, 9).unwrap();
    c.pairing = Pairing::OnePerGame;
    c.only = Some(vec![1, 4, 5]);
    c.engine_seed = Some(21);
    // One worker: game 5 follows game 2 in the same engine processes.
    c.concurrency = 1;
    let (summary, games) = run(&c);
    assert_eq!((summary.games, summary.planned), (3, 3));
    // No colour-swapped pairs, so no pentanomial.
    assert_eq!(summary.pentanomial.pairs(), 0);
    let numbers: Vec<usize> = games.iter().map(|g| g.number).collect();
    assert_eq!(numbers, [2, 5, 6]);
    for g in &games {
        let coords: Vec<&str> = g.opening.iter().map(|(uci, _)| uci.as_str()).collect();
        assert_eq!(coords, c.openings[g.number - 1].moves, "game {}", g.number);
    }
    // Seeded per game: game 5 alone is game 5 of the three.
    c.only = Some(vec![4]);
    let (_, again) = run(&c);
    let uci = |g: &GameRecord| g.moves.iter().map(|m| m.uci.clone()).collect::<Vec<_>>();
    assert_eq!(uci(&again[0]), uci(&games[1]));
    // Indices beyond the match are refused.
    c.only = Some(vec![6]);
    assert!(tournament::run(&c, |_| {}).unwrap_err().contains("beyond"));
}
