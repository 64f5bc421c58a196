//! First-move studies with the fake engine: the statistics of a report
//! against hand-computed cases, a study interrupted and resumed giving the
//! same games as one run straight through, and the report's files.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use parity_arena::study::report::{self, PLOTS};
use parity_arena::study::results::{self, GameLine, GameResult};
use parity_arena::study::{
    self, Budget, BudgetLists, OpeningSet, Progress, RunOptions, StudyParams,
};
use parity_arena::Cause;
use parity_rules::Registry;

/// The scripted engine of this crate; `--mode random` plays random moves.
const FAKE: &str = env!("CARGO_BIN_EXE_parity-fake-engine");

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("parity-study-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-6
}

/// A study of chess and parity with the fake engine playing random moves
/// (seeded per game through the `Seed` option).
fn params(games: usize, seed: u64) -> StudyParams {
    let engine = format!("name=fake,cmd={},arg=--mode,arg=random", FAKE);
    StudyParams::first_move(
        &Registry::builtin(),
        &["chess".to_string(), "parity".to_string()],
        &BudgetLists {
            nodes: Budget::parse_list("nodes", "100,200").unwrap(),
            depth: Budget::parse_list("depth", "1").unwrap(),
            movetime: Vec::new(),
        },
        games,
        OpeningSet::parse("random:4").unwrap(),
        seed,
        Some(60),
        Some(30),
        engine,
    )
    .unwrap()
}

fn options(results: &Path, concurrency: usize) -> RunOptions {
    RunOptions {
        shard: parity_arena::study::Shard::ALL,
        results: results.to_path_buf(),
        concurrency,
        hang_timeout: Duration::from_secs(10),
        positions: None,
        time_margin: Duration::from_millis(200),
    }
}

/// Runs the study; returns the games it played.
fn run(p: &StudyParams, results: &Path, concurrency: usize) -> Result<usize, String> {
    let mut played = 0;
    study::run(
        &Registry::builtin(),
        p,
        None,
        &options(results, concurrency),
        |e| {
            if let Progress::Game { .. } = e {
                played += 1;
            }
        },
    )?;
    Ok(played)
}

/// The games of a results file by variant, budget and number.
fn games(path: &Path) -> BTreeMap<(String, Budget, usize), GameLine> {
    results::read(path)
        .unwrap()
        .games
        .into_iter()
        .map(|g| ((g.variant.clone(), g.budget, g.game), g))
        .collect()
}

/// A results file of one chess budget holding these results.
fn synthetic(dir: &Path, outcomes: &[(GameResult, usize)]) -> report::Tally {
    let p = StudyParams::first_move(
        &Registry::builtin(),
        &["chess".to_string()],
        &BudgetLists {
            nodes: vec![Budget::Nodes(1000)],
            ..BudgetLists::default()
        },
        outcomes.iter().map(|o| o.1).sum(),
        OpeningSet::Random { plies: 8 },
        1,
        Some(600),
        Some(300),
        "parity".into(),
    )
    .unwrap();
    let path = dir.join("synthetic.jsonl");
    let _ = std::fs::remove_file(&path);
    let (mut w, _) = results::open_for_study(&path, &p).unwrap();
    let mut n = 0;
    for &(result, count) in outcomes {
        for _ in 0..count {
            n += 1;
            w.append(&GameLine {
                study: w.id().to_string(),
                variant: "chess".into(),
                budget: Budget::Nodes(1000),
                game: n,
                fen: None,
                opening: "e2e4 e7e5".into(),
                result,
                end: if result == GameResult::Draw {
                    Cause::Repetition
                } else {
                    Cause::Checkmate
                },
                reason: String::new(),
                plies: Some(40 + n as u32),
                turns: None,
            })
            .unwrap();
        }
    }
    report::tally(&results::read(&path).unwrap())
}

#[test]
fn white_score_and_draw_rate_intervals_match_hand_values() {
    let dir = temp_dir("stats");
    // 50 White wins, 50 Black wins: s = 0.5; σ² = 0.25, σ/√100 = 0.05;
    // 0.5 ± 1.959964·0.05 = [0.402002, 0.597998]; Elo 0.
    // No draw in 100: Wilson [0, z²/(n + z²)] = [0, 3.841459/103.841459] = [0, 0.036993].
    let t = synthetic(
        &dir,
        &[(GameResult::WhiteWins, 50), (GameResult::BlackWins, 50)],
    );
    let c = &t.cells[0];
    assert_eq!((c.white.wins, c.white.draws, c.white.losses), (50, 0, 50));
    let e = c.score().unwrap();
    assert!(close(e.score, 0.5) && close(e.elo, 0.0), "{e:?}");
    assert!(
        close(e.score_low, 0.402_002) && close(e.score_high, 0.597_998),
        "{e:?}"
    );
    let d = c.draw_rate().unwrap();
    assert!(
        close(d.value, 0.0) && close(d.low, 0.0) && close(d.high, 0.036_993),
        "{d:?}"
    );

    // 60 - 20 - 20: s = 0.7; σ² = (60·0.3² + 20·0.2² + 20·0.7²)/100 = 0.16;
    // 0.7 ± 1.959964·0.04 = [0.621601, 0.778399].
    // Draws 20 of 100, Wilson: centre (0.2 + z²/200)/(1 + z²/100) = 0.211098,
    // half z/(1 + z²/100)·√(0.2·0.8/100 + z²/40000) = 0.077731: [0.133367, 0.288829].
    let t = synthetic(
        &dir,
        &[
            (GameResult::WhiteWins, 60),
            (GameResult::Draw, 20),
            (GameResult::BlackWins, 20),
        ],
    );
    let c = &t.cells[0];
    let e = c.score().unwrap();
    assert!(close(e.score, 0.7), "{e:?}");
    assert!(
        close(e.score_low, 0.621_601) && close(e.score_high, 0.778_399),
        "{e:?}"
    );
    let d = c.draw_rate().unwrap();
    assert!(close(d.value, 0.2), "{d:?}");
    assert!(close(d.low, 0.133_367) && close(d.high, 0.288_829), "{d:?}");
    assert_eq!(c.ends[&Cause::Repetition], 20);
    assert_eq!(c.ends[&Cause::Checkmate], 80);
    assert_eq!(c.lengths.len(), 100);

    // All 10 drawn: the trinomial interval has no width (every game
    // scored ½); Wilson's for the draws is [n/(n + z²), 1] = [0.722467, 1].
    let t = synthetic(&dir, &[(GameResult::Draw, 10)]);
    let c = &t.cells[0];
    let e = c.score().unwrap();
    assert!(close(e.score_low, 0.5) && close(e.score_high, 0.5), "{e:?}");
    let d = c.draw_rate().unwrap();
    assert!(close(d.low, 0.722_467) && close(d.high, 1.0), "{d:?}");

    // The table shows what was counted.
    let table = synthetic(
        &dir,
        &[(GameResult::WhiteWins, 3), (GameResult::BlackWins, 1)],
    )
    .table();
    assert!(table.contains("3-0-1") && table.contains("4/4"), "{table}");
}

#[test]
fn an_interrupted_study_resumes_to_the_same_games() {
    let dir = temp_dir("resume");
    let p = params(6, 7);
    // Straight through, two games at a time.
    let whole = dir.join("whole.jsonl");
    assert_eq!(run(&p, &whole, 2).unwrap(), 18);
    let reference = games(&whole);
    assert_eq!(reference.len(), 18);
    // Random moves: the games differ from one another.
    let distinct: std::collections::HashSet<String> = reference
        .values()
        .map(|g| format!("{:?}{}", g.result, g.length()))
        .collect();
    assert!(distinct.len() > 2, "{reference:?}");

    // The same study one game at a time, cut after 5 games and in the
    // middle of the 6th line, as a kill while writing would leave it.
    let cut = dir.join("cut.jsonl");
    assert_eq!(run(&p, &cut, 1).unwrap(), 18);
    assert_eq!(games(&cut), reference, "another concurrency, other games");
    let text = std::fs::read_to_string(&cut).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let mut torn = lines[..6].join("\n");
    torn.push('\n');
    torn.push_str(&lines[6][..lines[6].len() / 2]);
    std::fs::write(&cut, &torn).unwrap();
    let partial = results::read(&cut).unwrap();
    assert!(partial.torn);
    assert_eq!(partial.games.len(), 5);

    // Resumed: only the 13 missing games are played, and the file ends
    // up with the same games as the straight run.
    assert_eq!(run(&p, &cut, 2).unwrap(), 13);
    assert_eq!(games(&cut), reference);
    let text = std::fs::read_to_string(&cut).unwrap();
    assert_eq!(
        text.lines().count(),
        19,
        "the torn line is cut off:\n{text}"
    );
    assert!(!results::read(&cut).unwrap().torn);
    let (a, b) = (
        report::tally(&results::read(&whole).unwrap()),
        report::tally(&results::read(&cut).unwrap()),
    );
    assert_eq!(a.cells, b.cells);
    assert_eq!(a.table(), b.table());

    // Nothing is left to play.
    assert_eq!(run(&p, &cut, 2).unwrap(), 0);

    // A file of another study is refused, with what differs.
    let e = run(&params(6, 8), &cut, 2).unwrap_err();
    assert!(
        e.contains("other parameters") && e.contains("seed 7 in the file, 8 here"),
        "{e}"
    );
    let e = run(&params(4, 7), &cut, 2).unwrap_err();
    assert!(e.contains("games 6 in the file, 4 here"), "{e}");
    // A file that is not a results file is refused too.
    let junk = dir.join("junk.jsonl");
    std::fs::write(&junk, "hello\n").unwrap();
    let e = run(&p, &junk, 2).unwrap_err();
    assert!(e.contains("not a study results file"), "{e}");
    // A directory cannot be read.
    assert!(run(&p, &dir, 2).is_err());
}

#[test]
fn per_game_seeds_make_simultaneous_games_reproducible() {
    // Without seeds the fake engine's random sampling would depend on the
    // games its process played before; with them, a game is the same
    // wherever it runs: here game 3 alone equals game 3 of the full run.
    let dir = temp_dir("seeds");
    let p = params(4, 3);
    let whole = dir.join("whole.jsonl");
    run(&p, &whole, 1).unwrap();
    let all = games(&whole);
    let part = dir.join("part.jsonl");
    let mut kept = std::fs::read_to_string(&whole)
        .unwrap()
        .lines()
        .filter(|l| !l.contains("\"game\":3,"))
        .collect::<Vec<_>>()
        .join("\n");
    kept.push('\n');
    std::fs::write(&part, kept).unwrap();
    assert_eq!(run(&p, &part, 1).unwrap(), 3);
    assert_eq!(games(&part), all);
}

/// Elements of an SVG that draw data: circles, and rectangles, paths and
/// polylines in the plot palette's first colours.
fn data_elements(svg: &str) -> usize {
    let coloured = [
        "#4E79A7", "#F28E2B", "#E15759", "#76B7B2", "#59A14F", "#B07AA1",
    ];
    svg.lines()
        .filter(|l| {
            l.contains("<circle")
                || ((l.contains("<rect") || l.contains("<polyline") || l.contains("<path"))
                    && coloured.iter().any(|c| l.to_ascii_uppercase().contains(c)))
        })
        .count()
}

#[test]
fn the_report_has_every_plot_with_data_in_svg_and_png() {
    let dir = temp_dir("report");
    let p = params(4, 5);
    let file = dir.join("results.jsonl");
    run(&p, &file, 2).unwrap();
    let tally = report::tally(&results::read(&file).unwrap());
    let out = dir.join("report");
    let written = report::write(&tally, &out).unwrap();
    assert_eq!(written.len(), 1 + 2 * PLOTS.len());
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    for cell in &tally.cells {
        assert!(
            md.contains(&format!("| {} | {} | 4/4 |", cell.variant, cell.budget)),
            "{md}"
        );
    }

    // The same plots of a study with no game yet, to compare with.
    let empty_file = dir.join("empty.jsonl");
    results::open_for_study(&empty_file, &p).unwrap();
    let empty = report::tally(&results::read(&empty_file).unwrap());
    assert_eq!(empty.games(), 0);
    let empty_plots = empty.plots().unwrap();

    for (stem, empty_svg) in PLOTS.iter().zip(&empty_plots) {
        assert!(md.contains(&format!("({stem}.svg)")), "{stem}\n{md}");
        let svg = std::fs::read_to_string(out.join(format!("{stem}.svg"))).unwrap();
        assert!(
            svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"),
            "{stem}"
        );
        let (n, base) = (data_elements(&svg), data_elements(empty_svg));
        assert!(
            n >= 2 && n > base,
            "{stem}: {n} data elements, {base} without games"
        );
        let png = std::fs::read(out.join(format!("{stem}.png"))).unwrap();
        let image = resvg::tiny_skia::Pixmap::decode_png(&png)
            .unwrap_or_else(|e| panic!("{stem}.png: {e}"));
        assert!(image.width() >= 400 && image.height() >= 300, "{stem}");
        // Not a blank page.
        let first = image.pixels()[0];
        assert!(
            image.pixels().iter().any(|&px| px != first),
            "{stem}.png is blank"
        );
    }
}

#[test]
fn a_study_appends_the_positions_of_its_turn_based_games() {
    let dir = temp_dir("positions");
    let p = params(4, 3);
    let (results_file, positions) = (dir.join("r.jsonl"), dir.join("p.positions"));
    let opts = RunOptions {
        positions: Some(positions.clone()),
        ..options(&results_file, 2)
    };
    study::run(&Registry::builtin(), &p, None, &opts, |_| {}).unwrap();
    let text = std::fs::read_to_string(&positions).unwrap();
    let chess = Registry::builtin().get("chess").unwrap();
    let games = games(&results_file);
    // Only chess games give positions (parity is simultaneous): at most
    // one per ply after the 4 opening plies and the 8 after them, with the
    // results of those games.
    let room: u32 = games
        .values()
        .filter(|g| g.variant == "chess")
        .map(|g| g.plies.unwrap().saturating_sub(12))
        .sum();
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        !lines.is_empty() && lines.len() as u32 <= room,
        "{} of {room}",
        lines.len()
    );
    let scores: std::collections::HashSet<&str> = games
        .values()
        .filter(|g| g.variant == "chess")
        .map(|g| match g.result {
            GameResult::WhiteWins => "[1.0]",
            GameResult::Draw => "[0.5]",
            GameResult::BlackWins => "[0.0]",
        })
        .collect();
    for line in &lines {
        let (fen, score) = line.rsplit_once(' ').unwrap();
        assert!(scores.contains(score), "{line}");
        let g = parity_rules::AnyGame::from_fen(chess, Some(fen)).unwrap();
        assert!(!g.in_check(g.to_move().unwrap()), "{line}");
    }
    // A resumed study that has nothing left to play adds nothing.
    study::run(&Registry::builtin(), &p, None, &opts, |_| {}).unwrap();
    assert_eq!(std::fs::read_to_string(&positions).unwrap(), text);
}
