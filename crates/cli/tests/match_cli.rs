//! `parity match` end to end with the fake engine of `parity-arena`.

use crate::common;

use std::path::PathBuf;
use std::process::Command;

use common::{parity, text};

/// The fake engine of `parity-arena`, beside `parity`. `cargo test --workspace`
/// builds it; when only this package is tested it is built here, once.
fn fake() -> String {
    static BUILT: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    BUILT
        .get_or_init(|| {
            let dir = PathBuf::from(env!("CARGO_BIN_EXE_parity"))
                .parent()
                .expect("bin dir")
                .to_path_buf();
            let path = dir.join(format!(
                "parity-fake-engine{}",
                std::env::consts::EXE_SUFFIX
            ));
            if !path.exists() {
                let profile = dir
                    .file_name()
                    .and_then(|p| p.to_str())
                    .unwrap_or("debug")
                    .to_string();
                let profile = if profile == "debug" {
                    "dev".to_string()
                } else {
                    profile
                };
                let target = dir.parent().expect("target dir");
                let status = Command::new(env!("CARGO"))
                    .args([
                        "build",
                        "-p",
                        "parity-arena",
                        "--bin",
                        "parity-fake-engine",
                        "--profile",
                        &profile,
                        "--target-dir",
                    ])
                    .arg(target)
                    .status()
                    .expect("cargo runs");
                assert!(status.success(), "building parity-fake-engine failed");
            }
            assert!(
                path.exists(),
                "{} is missing: run the tests with `cargo test --workspace` (./scripts/test)",
                path.display()
            );
            path.display().to_string()
        })
        .clone()
}

fn temp(name: &str) -> PathBuf {
    common::temp("match-cli", name)
}

#[test]
fn a_match_of_two_fake_engines_prints_games_report_and_pgn() {
    let pgn = temp("games.pgn");
    let fake = fake();
    let a = format!("name=alpha,cmd={fake},arg=--mode,arg=random,arg=--seed,arg=5");
    let b = format!("name=beta,cmd={fake},arg=--mode,arg=random,arg=--seed,arg=6,tc=5+0.1");
    let o = parity(&[
        "match",
        "--variant",
        "tutti-frutti",
        "--engine",
        &a,
        "--engine",
        &b,
        "--depth",
        "1",
        "--games",
        "4",
        "--concurrency",
        "2",
        "--random-openings",
        "4",
        "--seed",
        "3",
        "--max-plies",
        "80",
        "--pgn",
        pgn.to_str().unwrap(),
        "--sprt",
        "elo0=0,elo1=10",
    ]);
    let out = text(&o.stdout);
    assert!(o.status.success(), "{}\n{out}", text(&o.stderr));
    for n in 1..=4 {
        assert!(out.contains(&format!("Finished game {n} (")), "{out}");
    }
    assert!(out.contains("Score of alpha vs beta:"), "{out}");
    assert!(
        out.contains("Elo difference:") && out.contains("LOS:"),
        "{out}"
    );
    assert!(out.contains("Game pairs (pentanomial"), "{out}");
    assert!(out.contains("SPRT: elo0 0 elo1 10"), "{out}");

    let games = std::fs::read_to_string(&pgn).unwrap();
    let registry = parity_rules::Registry::builtin();
    let records: Vec<&str> = games
        .split("[Event ")
        .filter(|g| !g.trim().is_empty())
        .collect();
    assert_eq!(records.len(), 4, "{games}");
    for r in records {
        let game = format!("[Event {r}");
        assert!(
            game.contains("[Variant \"tutti-frutti\"]") && game.contains("[Termination "),
            "{game}"
        );
        // Different limits per engine are written down.
        assert!(
            game.contains("[TimeControl \"?\"]") && game.contains("Limits \"tc 5+0.1, depth 1\"]"),
            "{game}"
        );
        parity_rules::record::replay(&registry, &game).unwrap_or_else(|e| panic!("{e}\n{game}"));
    }
    // --quiet leaves only the report.
    let o2 = parity(&[
        "match",
        "--variant",
        "tutti-frutti",
        "--engine",
        &a,
        "--engine",
        &b,
        "--depth",
        "1",
        "--games",
        "4",
        "--random-openings",
        "4",
        "--seed",
        "3",
        "--max-plies",
        "80",
        "--quiet",
    ]);
    assert!(o2.status.success());
    assert!(!text(&o2.stdout).contains("Finished game"));
    assert!(text(&o2.stdout).starts_with("Score of alpha vs beta"));
}

#[test]
fn a_failing_engine_loses_and_the_match_goes_on() {
    let fake = fake();
    let log = temp("engines.log");
    let o = parity(&[
        "match",
        "--engine",
        &format!("name=good,cmd={fake}"),
        "--engine",
        &format!("name=bad,cmd={fake},arg=--mode,arg=illegal,arg=--after,arg=2"),
        "--nodes",
        "10",
        "--games",
        "2",
        "--openings",
        "/dev/null",
        "--log",
        log.to_str().unwrap(),
    ]);
    // An empty openings file is an error...
    assert!(!o.status.success());
    assert!(
        text(&o.stderr).contains("no openings"),
        "{}",
        text(&o.stderr)
    );
    let openings = temp("openings.txt");
    std::fs::write(
        &openings,
        "# two openings\n1. e4 e5\nrnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1\n",
    )
    .unwrap();
    let o = parity(&[
        "match",
        "--engine",
        &format!("name=good,cmd={fake}"),
        "--engine",
        &format!("name=bad,cmd={fake},arg=--mode,arg=illegal,arg=--after,arg=2"),
        "--nodes",
        "10",
        "--games",
        "4",
        "--openings",
        openings.to_str().unwrap(),
        "--log",
        log.to_str().unwrap(),
    ]);
    let out = text(&o.stdout);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(
        out.matches("makes an illegal move: `a1a1`").count(),
        4,
        "{out}"
    );
    assert!(out.contains("Score of good vs bad: 4 - 0 - 0"), "{out}");
    assert!(out.contains("Terminations: rules infraction 4"), "{out}");
    let log = std::fs::read_to_string(&log).unwrap();
    assert!(
        log.contains("bad < bestmove a1a1")
            && log.contains("good > position fen rnbqkbnr/pppppppp/8/8/3P4"),
        "{log}"
    );
}

#[test]
fn bad_command_lines_are_clear_errors() {
    let fake = fake();
    let cases: Vec<(Vec<String>, &str)> = vec![
        (
            vec!["--engine".into(), format!("cmd={fake}")],
            "two --engine",
        ),
        (
            vec![
                "--engine".into(),
                format!("cmd={fake}"),
                "--engine".into(),
                format!("cmd={fake}"),
            ],
            "both engines are named",
        ),
        (
            vec![
                "--engine".into(),
                format!("name=a,cmd={fake}"),
                "--engine".into(),
                format!("name=b,cmd={fake}"),
            ],
            "no limit",
        ),
        (
            vec![
                "--engine".into(),
                format!("name=a,cmd={fake},speed=9"),
                "--engine".into(),
                format!("name=b,cmd={fake}"),
            ],
            "unknown key `speed`",
        ),
        (
            vec![
                "--variant".into(),
                "parity".into(),
                "--engine".into(),
                format!("name=a,cmd={fake}"),
                "--engine".into(),
                format!("name=b,cmd={fake},proto=xboard"),
                "--depth".into(),
                "1".into(),
            ],
            "simultaneous variant parity needs UCI",
        ),
        (
            vec![
                "--engine".into(),
                format!("name=a,cmd={fake}"),
                "--engine".into(),
                format!("name=b,cmd={fake}"),
                "--tc".into(),
                "fast".into(),
            ],
            "time control `fast`",
        ),
        (
            vec![
                "--engine".into(),
                format!("name=a,cmd={fake}"),
                "--engine".into(),
                format!("name=b,cmd={fake}"),
                "--depth".into(),
                "1".into(),
                "--sprt".into(),
                "elo0=5,elo1=1".into(),
            ],
            "elo1 > elo0",
        ),
    ];
    for (args, message) in cases {
        let mut all = vec!["match".to_string()];
        all.extend(args);
        let refs: Vec<&str> = all.iter().map(String::as_str).collect();
        let o = parity(&refs);
        assert!(!o.status.success(), "{all:?}");
        assert!(
            text(&o.stderr).contains(message),
            "{all:?}: {}",
            text(&o.stderr)
        );
    }
}

/// Splits a PGN file into games and replays each with `parity replay`.
fn replay_each(pgn: &std::path::Path, variant: &str) -> Vec<String> {
    let games = std::fs::read_to_string(pgn).unwrap();
    let records: Vec<String> = games
        .split("[Event ")
        .filter(|g| !g.trim().is_empty())
        .map(|g| format!("[Event {g}"))
        .collect();
    let mut outputs = Vec::new();
    for (i, game) in records.iter().enumerate() {
        assert!(game.contains(&format!("[Variant \"{variant}\"]")), "{game}");
        let file = temp(&format!("{variant}-game-{i}.pgn"));
        std::fs::write(&file, game).unwrap();
        let o = parity(&["replay", "--quiet", file.to_str().unwrap()]);
        assert!(o.status.success(), "{}\n{game}", text(&o.stderr));
        outputs.push(text(&o.stdout));
    }
    outputs
}

#[test]
fn a_simultaneous_match_of_fake_engines_replays() {
    let pgn = temp("parity.pgn");
    let fake = fake();
    let a =
        format!("name=alpha,cmd={fake},arg=--mode,arg=random,arg=--seed,arg=5,arg=--value,arg=0.5");
    let b = format!("name=beta,cmd={fake},arg=--mode,arg=random,arg=--seed,arg=6");
    let o = parity(&[
        "match",
        "--variant",
        "parity",
        "--engine",
        &a,
        "--engine",
        &b,
        "--depth",
        "1",
        "--games",
        "4",
        "--concurrency",
        "2",
        "--random-openings",
        "3",
        "--seed",
        "3",
        "--max-turns",
        "60",
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    let out = text(&o.stdout);
    assert!(o.status.success(), "{}\n{out}", text(&o.stderr));
    for n in 1..=4 {
        assert!(out.contains(&format!("Finished game {n} (")), "{out}");
    }
    assert!(
        out.contains("Score of alpha vs beta:")
            && out.contains("alpha as White: ")
            && out.contains("White vs Black: "),
        "{out}"
    );
    let games = std::fs::read_to_string(&pgn).unwrap();
    assert!(games.contains("+0.500/1 "), "{games}");
    let replayed = replay_each(&pgn, "parity");
    assert_eq!(replayed.len(), 4);
    for (r, line) in replayed
        .iter()
        .zip(out.lines().filter(|l| l.starts_with("Finished game")))
    {
        let last = r.lines().last().unwrap_or_default();
        assert!(last.contains(" turns; "), "{r}");
        // A game the rules ended ends the same way on replay.
        if !line.contains("adjudication") {
            let result = line
                .split(": ")
                .nth(1)
                .and_then(|x| x.split(' ').next())
                .unwrap();
            assert!(last.contains(&format!("; {result} (")), "{line} / {last}");
        }
    }
}

/// The report's terminations line, which must count only normal endings.
fn assert_all_games_normal(report: &str, games: usize) {
    let line = report
        .lines()
        .find(|l| l.starts_with("Terminations:"))
        .unwrap_or_else(|| panic!("no terminations in {report}"));
    assert_eq!(
        line.trim(),
        format!("Terminations: normal {games}"),
        "{report}"
    );
}

#[test]
fn our_engine_plays_itself() {
    // Without `cmd` an engine is this binary with `uci`; two settings of it.
    let pgn = temp("own.pgn");
    let o = parity(&[
        "match",
        "--engine",
        "name=small,option.Hash=1",
        "--engine",
        "name=big,option.Hash=8",
        "--nodes",
        "3000",
        "--games",
        "4",
        "--concurrency",
        "2",
        "--quiet",
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    let report = text(&o.stdout);
    assert!(o.status.success(), "{report}{}", text(&o.stderr));
    assert!(report.contains("Score of small vs big: "), "{report}");
    assert_all_games_normal(&report, 4);
    let games = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(games.matches("[Variant \"chess\"]").count(), 4);
}

#[test]
fn our_engine_plays_fairy_stockfish() {
    let fsf = "/usr/games/fairy-stockfish";
    assert!(
        std::path::Path::new(fsf).exists(),
        "{fsf} is missing: apt-get install fairy-stockfish (./scripts/test does)"
    );
    let o = parity(&[
        "match",
        "--engine",
        "name=parity",
        "--engine",
        &format!("name=fsf,cmd={fsf}"),
        "--nodes",
        "5000",
        "--games",
        "2",
        "--quiet",
    ]);
    let report = text(&o.stdout);
    assert!(o.status.success(), "{report}{}", text(&o.stderr));
    assert!(report.contains("Score of parity vs fsf: "), "{report}");
    assert_all_games_normal(&report, 2);
}

#[test]
fn our_engine_plays_parity_against_its_random_baseline() {
    // The joint-move UCI of `parity uci`, the mixed strategy against the
    // `Strategy random` baseline: every game ends by the rules and replays.
    let pgn = temp("own-parity.pgn");
    let o = parity(&[
        "match",
        "--variant",
        "parity",
        "--engine",
        "name=a",
        "--engine",
        "name=b,option.Strategy=random",
        "--depth",
        "1",
        "--games",
        "2",
        "--quiet",
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    let report = text(&o.stdout);
    assert!(o.status.success(), "{report}{}", text(&o.stderr));
    assert!(
        report.contains("Score of a vs b: ") && report.contains("White vs Black: "),
        "{report}"
    );
    assert_all_games_normal(&report, 2);
    let games = std::fs::read_to_string(&pgn).unwrap();
    // Our engine reports its value and strategy with each move.
    assert!(
        games.contains("/1 ") && games.matches("[Termination \"normal\"]").count() == 2,
        "{games}"
    );
    assert_eq!(replay_each(&pgn, "parity").len(), 2);
}

/// The positions file a match should write, worked out from its PGN on
/// its own terms: for each game in order whose result is a game result,
/// the position before each move from ply `opening + 8` on, unless its
/// side to move is in check or the move takes a piece (the enemy has
/// fewer pieces after it) or promotes; and how many positions of those
/// games were candidates before the check and capture filters.
fn expected_positions(pgn: &str, opening: usize) -> (Vec<String>, usize) {
    let registry = parity_rules::Registry::builtin();
    let (mut out, mut candidates) = (Vec::new(), 0);
    for r in pgn.split("[Event ").filter(|g| !g.trim().is_empty()) {
        let record = parity_rules::record::parse(&format!("[Event {r}")).unwrap();
        let termination = record.tag("Termination").unwrap();
        if !["normal", "adjudication", "time forfeit"].contains(&termination) {
            continue;
        }
        let score = match record.tag("Result").unwrap() {
            "1-0" => "1.0",
            "0-1" => "0.0",
            "1/2-1/2" => "0.5",
            other => panic!("result {other}"),
        };
        let variant = parity_rules::record::variant_of(&registry, &record).unwrap();
        let mut before = parity_rules::AnyGame::from_fen(variant, record.tag("FEN")).unwrap();
        let mut ply = 0;
        parity_rules::record::replay_with(variant, &record, |after, step| {
            let parity_rules::any::Step::Move { color, mv, .. } = *step else {
                panic!("a turn-based game");
            };
            let enemies = |g: &parity_rules::AnyGame| {
                g.pieces()
                    .iter()
                    .flat_map(|(_, ps)| ps)
                    .filter(|p| p.color != color)
                    .count()
            };
            if ply >= opening + 8 {
                candidates += 1;
                let capture = enemies(after) < enemies(&before);
                if !capture && mv.promotion.is_none() && !before.in_check(color) {
                    out.push(format!("{} [{score}]", before.fen()));
                }
            }
            before = after.clone();
            ply += 1;
        })
        .unwrap();
    }
    (out, candidates)
}

/// Runs a match of the fake engines with `--positions` and `--pgn`, and
/// checks the positions file line by line against its PGN; returns the
/// games' terminations.
fn positions_match(variant: &str, a: &str, b: &str, max_plies: &str) -> Vec<String> {
    let (pgn, positions) = (
        temp(&format!("{variant}-positions.pgn")),
        temp(&format!("{variant}.positions")),
    );
    let o = parity(&[
        "match",
        "--variant",
        variant,
        "--engine",
        a,
        "--engine",
        b,
        "--depth",
        "1",
        "--games",
        "6",
        "--concurrency",
        "2",
        "--random-openings",
        "4",
        "--seed",
        "5",
        "--max-plies",
        max_plies,
        "--pgn",
        pgn.to_str().unwrap(),
        "--positions",
        positions.to_str().unwrap(),
    ]);
    let out = text(&o.stdout);
    assert!(o.status.success(), "{}\n{out}", text(&o.stderr));
    let games = std::fs::read_to_string(&pgn).unwrap();
    let written = std::fs::read_to_string(&positions).unwrap();
    let lines: Vec<String> = written.lines().map(str::to_string).collect();
    assert!(
        out.contains(&format!("Positions: {} lines from ", lines.len())),
        "{out}"
    );
    // Every line reads back: a FEN of the variant whose side to move is
    // not in check, and White's score.
    let registry = parity_rules::Registry::builtin();
    let v = registry.get(variant).unwrap();
    for line in &lines {
        let (fen, score) = line.rsplit_once(' ').unwrap();
        assert!(["[1.0]", "[0.5]", "[0.0]"].contains(&score), "{line}");
        let game =
            parity_rules::AnyGame::from_fen(v, Some(fen)).unwrap_or_else(|e| panic!("{e}: {line}"));
        assert_eq!(game.fen(), fen, "the FEN is the rules' own");
        let side = game.to_move().unwrap();
        assert!(!game.in_check(side), "in check: {line}");
    }
    // Exactly the positions of the PGN's games, game by game, with each
    // game's result.
    let (expected, candidates) = expected_positions(&games, 4);
    assert_eq!(lines, expected, "positions file vs PGN\n{games}");
    assert!(!lines.is_empty(), "{games}");
    assert!(
        candidates > lines.len(),
        "checks and captures are left out: {candidates} candidates"
    );
    games
        .lines()
        .filter_map(|l| l.strip_prefix("[Termination \""))
        .map(|t| t.trim_end_matches("\"]").to_string())
        .collect()
}

#[test]
fn positions_files_hold_the_quiet_positions_of_real_games() {
    let fake = fake();
    let random = |name: &str, seed: u32| {
        format!("name={name},cmd={fake},arg=--mode,arg=random,arg=--seed,arg={seed}")
    };
    // Random games to 100 plies: checks, captures and promotions; crowds
    // written as `(PPn)`; 12x8 boards.
    for variant in ["chess", "safety-in-numbers", "parity12"] {
        positions_match(variant, &random("a", 1), &random("b", 2), "100");
    }
    // An engine whose 10th move is illegal: as White it makes it before
    // ply 23 ends the game (those games give nothing), as Black it does not.
    let bad = format!("name=bad,cmd={fake},arg=--mode,arg=illegal,arg=--after,arg=9");
    let ends = positions_match("chess", &random("a", 3), &bad, "23");
    assert_eq!(ends.len(), 6);
    assert!(ends.iter().any(|t| t == "rules infraction"), "{ends:?}");
    assert!(ends.iter().any(|t| t == "adjudication"), "{ends:?}");

    // The simultaneous variants are refused with a reason.
    let positions = temp("sim.positions");
    let o = parity(&[
        "match",
        "--variant",
        "parity",
        "--engine",
        &random("a", 1),
        "--engine",
        &random("b", 2),
        "--depth",
        "1",
        "--positions",
        positions.to_str().unwrap(),
    ]);
    assert!(!o.status.success());
    let err = text(&o.stderr);
    assert!(
        err.contains("--positions") && err.contains("simultaneous"),
        "{err}"
    );
}
