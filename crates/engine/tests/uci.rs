//! Scripted UCI sessions, run in-process: each command's answer is read
//! from the engine's output, and every bad command must leave the engine
//! responsive and its position unchanged.

use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use parity_engine::uci::Uci;

#[derive(Clone, Default)]
struct Buffer(Arc<Mutex<Vec<u8>>>);

impl Write for Buffer {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

struct Session {
    uci: Uci,
    buffer: Buffer,
}

impl Session {
    fn new() -> Session {
        let buffer = Buffer::default();
        let uci = Uci::new(Arc::new(Mutex::new(buffer.clone())));
        Session { uci, buffer }
    }

    /// Sends one command and returns what the engine printed since.
    fn send(&mut self, command: &str) -> String {
        self.buffer.0.lock().unwrap().clear();
        assert!(self.uci.handle(command));
        self.output()
    }

    fn output(&self) -> String {
        String::from_utf8(self.buffer.0.lock().unwrap().clone()).unwrap()
    }

    /// Waits for the search to answer and returns its output.
    fn wait_bestmove(&mut self) -> String {
        let start = Instant::now();
        // A whole line: the engine may be caught between writing
        // `bestmove` and its move.
        let answered = |out: &str| {
            out.split_inclusive('\n')
                .any(|l| l.starts_with("bestmove") && l.ends_with('\n'))
        };
        while !answered(&self.output()) {
            assert!(
                start.elapsed() < Duration::from_secs(120),
                "no bestmove; output so far:\n{}",
                self.output()
            );
            std::thread::sleep(Duration::from_millis(5));
        }
        self.output()
    }

    fn fen(&mut self) -> String {
        let d = self.send("d");
        d.lines()
            .find_map(|l| l.strip_prefix("Fen: "))
            .expect("d prints the FEN")
            .to_string()
    }

    fn assert_alive(&mut self) {
        assert_eq!(self.send("isready").trim(), "readyok");
    }
}

fn bestmove(output: &str) -> String {
    let line = output
        .lines()
        .find(|l| l.starts_with("bestmove"))
        .unwrap_or_else(|| panic!("no bestmove line in:\n{output}"));
    line.split_whitespace().nth(1).unwrap().to_string()
}

#[test]
fn handshake_lists_variants_and_options() {
    let mut s = Session::new();
    let out = s.send("uci");
    assert!(out.starts_with("id name Parity"));
    let combo = out
        .lines()
        .find(|l| l.starts_with("option name UCI_Variant type combo default chess"))
        .expect("UCI_Variant");
    for variant in [
        "chess",
        "tutti-frutti",
        "parity12",
        "safety-in-numbers",
        "parity",
        "parity-single",
        "move-neutral",
    ] {
        assert!(
            combo.contains(&format!(" var {variant}")),
            "{variant} missing: {combo}"
        );
    }
    assert!(
        out.contains("option name Strategy type combo default mixed var mixed"),
        "{out}"
    );
    for option in [
        "VariantPath type string",
        "Hash type spin",
        "Threads type spin",
        "Move Overhead",
    ] {
        assert!(
            out.contains(&format!("option name {option}")),
            "{option} missing:\n{out}"
        );
    }
    assert!(out.trim_end().ends_with("uciok"));
    s.assert_alive();
}

#[test]
fn position_with_moves_and_display() {
    let mut s = Session::new();
    s.send("position startpos moves e2e4 e7e5 g1f3");
    assert_eq!(
        s.fen(),
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"
    );
    s.send("position fen 4k3/8/8/8/8/8/8/4K2R w K - 0 1 moves e1g1");
    assert_eq!(s.fen(), "4k3/8/8/8/8/8/8/5RK1 b - - 1 1");
}

#[test]
fn eval_shows_its_terms_and_the_total() {
    let mut s = Session::new();
    // White is a knight up: material carries it, the total is for Black to move.
    s.send("position fen rnbqkb1r/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1");
    let out = s.send("eval");
    let material: i32 = out
        .lines()
        .find_map(|l| l.strip_prefix("material"))
        .and_then(|rest| rest.split_whitespace().next()?.parse().ok())
        .expect("a material line");
    assert!(material > 250, "{out}");
    let total: i32 = out
        .lines()
        .find_map(|l| l.strip_prefix("static evaluation: "))
        .and_then(|rest| rest.split_whitespace().next()?.parse().ok())
        .expect("a total line");
    assert!(total < -150, "{out}");
    assert!(out.contains("phase: 9"), "{out}");
    // A simultaneous variant has the same table, and no side to move.
    s.send("setoption name UCI_Variant value parity");
    s.send("position startpos");
    let out = s.send("eval");
    assert!(out.contains("phase: 100% middlegame"), "{out}");
    assert!(!out.contains("tempo"), "{out}");
    assert!(out.contains("payoff"), "{out}");
}

#[test]
fn bad_commands_get_errors_and_change_nothing() {
    let mut s = Session::new();
    s.send("position startpos moves e2e4");
    let before = s.fen();
    for bad in [
        "position fen rnbqkbnr/pppppppp/8/8 w KQkq - 0 1",
        "position startpos moves e2e4 e7e5 e1e3",
        "position startpos moves zz9",
        "position somewhere",
        "setoption name UCI_Variant value no-such-variant",
        "setoption name Hash value lots",
        "setoption name Threads value 0",
        "setoption name Unknown value 1",
        "setoption",
        "go depth many",
        "go sideways 3",
        "go perft",
        "bench -4",
        "fly me to the moon",
    ] {
        let out = s.send(bad);
        assert!(
            out.starts_with("info string error: "),
            "{bad:?} gave {out:?}"
        );
        // A GUI waits for `bestmove` after any `go`, even a refused one.
        if bad.starts_with("go") {
            assert!(out.ends_with("\nbestmove (none)\n"), "{bad:?} gave {out:?}");
        } else {
            assert!(!out.contains("bestmove"), "{bad:?} gave {out:?}");
        }
        assert_eq!(s.fen(), before, "{bad:?} changed the position");
        s.assert_alive();
    }
    // `go side` belongs to the simultaneous variants.
    let out = s.send("go side white depth 1");
    assert!(
        out.starts_with("info string error: go side is for simultaneous"),
        "{out}"
    );
    assert!(out.ends_with("bestmove (none)\n"), "{out}");
}

#[test]
fn search_answers_with_a_legal_move() {
    let mut s = Session::new();
    s.send("position startpos moves e2e4");
    s.send("go depth 5");
    let out = s.wait_bestmove();
    assert!(out.contains("info depth 5 "), "{out}");
    let mv = bestmove(&out);
    // The answer is a legal black move: playing it is accepted.
    let answer = s.send(&format!("position startpos moves e2e4 {mv}"));
    assert!(answer.is_empty(), "{mv}: {answer}");
}

#[test]
fn a_node_budget_gives_reproducible_searches() {
    let run = || {
        let mut s = Session::new();
        s.send("position fen r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
        s.send("go nodes 20000");
        let out = s.wait_bestmove();
        let last_info = out
            .lines()
            .rfind(|l| l.starts_with("info depth"))
            .unwrap()
            .to_string();
        let nodes: Vec<&str> = last_info
            .split_whitespace()
            .skip_while(|w| *w != "nodes")
            .take(2)
            .collect();
        (
            bestmove(&out),
            nodes.join(" "),
            last_info.split(" pv ").nth(1).unwrap().to_string(),
        )
    };
    assert_eq!(run(), run());
}

#[test]
fn stop_ends_an_infinite_search() {
    let mut s = Session::new();
    s.send("position startpos");
    s.send("go infinite");
    std::thread::sleep(Duration::from_millis(200));
    assert!(
        !s.output().contains("bestmove"),
        "infinite search answered before stop"
    );
    s.send("stop");
    let out = s.output();
    assert!(out.contains("bestmove"), "{out}");
    s.assert_alive();
}

#[test]
fn multipv_reports_distinct_lines_best_first() {
    let mut s = Session::new();
    s.send("setoption name MultiPV value 3");
    s.send("position startpos moves e2e4 e7e5");
    s.send("go depth 4");
    let out = s.wait_bestmove();
    let lines: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("info depth 4 "))
        .collect();
    assert_eq!(lines.len(), 3, "{out}");
    let field = |line: &str, key: &str| -> String {
        let mut w = line.split_whitespace().skip_while(|w| *w != key);
        w.next();
        w.next().unwrap().to_string()
    };
    let firsts: Vec<String> = lines.iter().map(|l| field(l, "pv")).collect();
    for (i, line) in lines.iter().enumerate() {
        assert_eq!(field(line, "multipv"), (i + 1).to_string(), "{line}");
    }
    assert!(
        firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2],
        "{out}"
    );
    let scores: Vec<i32> = lines
        .iter()
        .map(|l| field(l, "cp").parse().unwrap())
        .collect();
    assert!(
        scores[0] >= scores[1] && scores[1] >= scores[2],
        "{scores:?}"
    );
    // The best line is the move played.
    assert_eq!(bestmove(&out), firsts[0]);
    // Every depth reports its lines best first, also where a later line
    // outscored an earlier one (the start position at depth 5 did).
    s.send("position startpos");
    s.send("go depth 6");
    let out = s.wait_bestmove();
    for depth in 1..=6 {
        let scores: Vec<i32> = out
            .lines()
            .filter(|l| l.starts_with(&format!("info depth {depth} ")))
            .map(|l| field(l, "cp").parse().unwrap())
            .collect();
        assert_eq!(scores.len(), 3, "{out}");
        assert!(
            scores.windows(2).all(|w| w[0] >= w[1]),
            "depth {depth}: {scores:?}"
        );
    }
    // One line (the default) prints no multipv field.
    s.send("setoption name MultiPV value 1");
    s.send("go depth 3");
    assert!(!s.wait_bestmove().contains("multipv"));
    assert!(s
        .send("setoption name MultiPV value 0")
        .starts_with("info string error"));
}

#[test]
fn ponder_waits_for_ponderhit_or_stop() {
    let mut s = Session::new();
    s.send("position startpos moves e2e4 e7e5");
    // Pondering does not answer by itself, whatever the limits say.
    s.send("go ponder movetime 50");
    std::thread::sleep(Duration::from_millis(300));
    assert!(!s.output().contains("bestmove"), "{}", s.output());
    // ponderhit: a real search with the limits of `go ponder`, one bestmove.
    s.send("ponderhit");
    let started = Instant::now();
    let out = s.wait_bestmove();
    assert!(started.elapsed() < Duration::from_secs(5));
    std::thread::sleep(Duration::from_millis(100));
    assert_eq!(s.output().matches("bestmove").count(), 1, "{}", s.output());
    let mv = bestmove(&out);
    assert!(s
        .send(&format!("position startpos moves e2e4 e7e5 {mv}"))
        .is_empty());
    // stop while pondering: the ponder search's answer.
    s.send("go ponder wtime 1000 btime 1000");
    std::thread::sleep(Duration::from_millis(100));
    let out = s.send("stop");
    assert!(out.contains("bestmove "), "{out}");
    s.assert_alive();
    assert!(s.send("uci").contains("option name Ponder type check"));
}

#[test]
fn simultaneous_searches_are_selectable_and_keep_time() {
    let mut s = Session::new();
    assert!(s.send("uci").contains(
        "option name Search type combo default tdoab var doab var qdoab var tdoab var hybrid"
    ));
    assert!(s
        .send("setoption name Search value mcts")
        .starts_with("info string error"));
    s.send("setoption name UCI_Variant value parity");
    s.send("position startpos moves e2e4:e7e5 g1f3:b8c6");
    for search in ["doab", "qdoab", "tdoab", "hybrid"] {
        assert!(s
            .send(&format!("setoption name Search value {search}"))
            .is_empty());
        let started = Instant::now();
        s.send("go side white movetime 100");
        let out = s.wait_bestmove();
        // Loose: the machine may be busy; a search that ignored the clock
        // would take seconds.
        assert!(
            started.elapsed() < Duration::from_millis(1500),
            "{search}: {:?}",
            started.elapsed()
        );
        let mv = bestmove(&out);
        assert!(
            s.send(&format!(
                "position startpos moves e2e4:e7e5 g1f3:b8c6 {mv}:a7a6"
            ))
            .is_empty(),
            "{search}: {mv}"
        );
        s.send("position startpos moves e2e4:e7e5 g1f3:b8c6");
    }
    // With a clock too.
    s.send("go side black wtime 2000 btime 2000 winc 20 binc 20");
    let started = Instant::now();
    assert!(!bestmove(&s.wait_bestmove()).is_empty());
    assert!(started.elapsed() < Duration::from_millis(1500));
}

#[test]
fn the_exploiter_reports_its_prediction() {
    let mut s = Session::new();
    s.send("setoption name UCI_Variant value parity");
    s.send("setoption name Strategy value best-response");
    assert!(s
        .send("setoption name Target value naive-sequential:50")
        .is_empty());
    assert!(s.send("setoption name ReferenceDepth value 1").is_empty());
    assert!(s
        .send("setoption name Target value best-response")
        .starts_with("info string error"));
    // Black's queen must wait: the exploiter takes it.
    s.send("position fen 4k3/8/8/3q'4/4P3/8/8/4K3 - - 0 5");
    s.send("go side white movetime 100");
    let out = s.wait_bestmove();
    assert_eq!(bestmove(&out), "e4d5", "{out}");
    let info = out
        .lines()
        .find(|l| l.starts_with("info depth"))
        .expect("an info line");
    assert!(info.contains("strategy e4d5 1.0000 opponent "), "{info}");
}

#[test]
fn clock_limits_answer() {
    let mut s = Session::new();
    s.send("position startpos");
    s.send("go wtime 1000 btime 1000 winc 10 binc 10");
    assert!(!bestmove(&s.wait_bestmove()).is_empty());
    s.send("go movetime 50");
    assert!(!bestmove(&s.wait_bestmove()).is_empty());
}

#[test]
fn perft_through_uci() {
    let mut s = Session::new();
    s.send("position startpos");
    let out = s.send("go perft 3");
    assert!(out.contains("Nodes searched: 8902"), "{out}");
    assert!(out.contains("e2e4: 600"), "{out}");
    s.send("setoption name UCI_Variant value tutti-frutti");
    s.send("position startpos");
    let out = s.send("go perft 2");
    let nodes: u64 = out
        .lines()
        .find_map(|l| l.strip_prefix("Nodes searched: "))
        .unwrap()
        .parse()
        .unwrap();
    assert!(nodes > 400, "{out}");
}

#[test]
fn every_variant_plays() {
    for (variant, moves) in [
        ("tutti-frutti", "e2e4"),
        ("parity12", "f2f4"),
        ("safety-in-numbers", "e2e4 e7e5 g1f3"),
    ] {
        let mut s = Session::new();
        s.send(&format!("setoption name UCI_Variant value {variant}"));
        s.send("ucinewgame");
        let out = s.send(&format!("position startpos moves {moves}"));
        assert!(out.is_empty(), "{variant}: {out}");
        s.send("go depth 3");
        let mv = bestmove(&s.wait_bestmove());
        let out = s.send(&format!("position startpos moves {moves} {mv}"));
        assert!(out.is_empty(), "{variant}: {mv} was not legal: {out}");
        assert!(s.send("d").contains(&format!("Variant: {variant}")));
    }
}

#[test]
fn crowd_moves_round_trip() {
    let mut s = Session::new();
    s.send("setoption name UCI_Variant value safety-in-numbers");
    // The e-pawn joins the black pawn on e5 with its forward step: a crowd.
    s.send("position fen 4k3/8/8/4p3/4P3/8/8/4K3 w - - 0 1 moves e4e5");
    let d = s.send("d");
    assert!(d.contains("crowd on e5"), "{d}");
    assert!(s.fen().contains("(Pp)"), "{}", s.fen());
}

#[test]
fn variant_path_loads_user_variants() {
    let dir = std::env::temp_dir().join(format!("parity-uci-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("knightmare.toml");
    std::fs::write(
        &file,
        "id = \"knightmare\"\ninherits = \"chess\"\nstart = \"nnnnknnn/pppppppp/8/8/8/8/PPPPPPPP/NNNNKNNN w - - 0 1\"\n",
    )
    .unwrap();
    let mut s = Session::new();
    let out = s.send(&format!(
        "setoption name VariantPath value {}",
        file.display()
    ));
    assert!(out.contains("var knightmare"), "{out}");
    s.send("setoption name UCI_Variant value knightmare");
    s.send("position startpos");
    assert!(s.fen().starts_with("nnnnknnn/"));
    let out = s.send("setoption name VariantPath value /no/such/file.toml");
    assert!(out.starts_with("info string error"), "{out}");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn bench_reports_nodes_and_speed() {
    let mut s = Session::new();
    let out = s.send("bench 3");
    assert!(out.contains("Nodes searched  : "), "{out}");
    assert!(out.contains("Nodes/second    : "), "{out}");
    for variant in ["chess", "tutti-frutti", "parity12", "safety-in-numbers"] {
        assert!(
            out.contains(&format!("bench {variant} ")),
            "{variant} missing from bench"
        );
    }
}

#[test]
fn quit_ends_the_session() {
    let mut s = Session::new();
    assert!(!s.uci.handle("quit"));
}

#[test]
fn several_threads_search_together() {
    let mut s = Session::new();
    s.send("setoption name Threads value 2");
    s.send("setoption name Hash value 8");
    s.send("position startpos moves d2d4");
    s.send("go depth 6");
    let out = s.wait_bestmove();
    let mv = bestmove(&out);
    assert!(
        s.send(&format!("position startpos moves d2d4 {mv}"))
            .is_empty(),
        "{mv}"
    );
}

#[test]
fn simultaneous_turns_are_joint_moves() {
    let mut s = Session::new();
    s.send("setoption name UCI_Variant value parity");
    assert!(s
        .send("position startpos moves e2e4:e7e5 g1f3:b8c6")
        .is_empty());
    let fen = s.fen();
    assert!(
        fen.starts_with("r1bqkbnr/pppp1ppp/2n'5/4p3/4P3/5N'2/"),
        "{fen}"
    );
    for bad in [
        "position startpos moves e2e4",
        "position startpos moves e2e4:e7e5 g1f3:e5e4",
        "position startpos moves e2e5:e7e5",
        "position startpos moves e2e4:e7e5:d7d5",
        "go depth 1",
        "go side red depth 1",
    ] {
        let out = s.send(bad);
        assert!(
            out.starts_with("info string error: "),
            "{bad:?} gave {out:?}"
        );
        assert_eq!(
            out.contains("bestmove (none)"),
            bad.starts_with("go"),
            "{bad:?} gave {out:?}"
        );
        assert_eq!(s.fen(), fen, "{bad:?} changed the position");
    }
    // Without `go side` (a GUI that knows nothing of joint moves): an answer all the same.
    let out = s.send("go movetime 50");
    assert_eq!(
        out,
        "info string error: a simultaneous variant needs 'go side white|black ...'\nbestmove (none)\n"
    );
    let out = s.send("go ponder side white depth 1");
    assert!(out.contains("go ponder is not supported"), "{out}");
    assert!(out.ends_with("bestmove (none)\n"), "{out}");
    s.assert_alive();
    let out = s.send("go perft 1");
    assert!(out.contains("Nodes searched: "), "{out}");
}

#[test]
fn simultaneous_search_reports_a_mixed_strategy() {
    let mut s = Session::new();
    s.send("setoption name UCI_Variant value move-neutral");
    s.send("position startpos moves d2d4:d7d5");
    s.send("go side black depth 1");
    let out = s.wait_bestmove();
    let info = out
        .lines()
        .find(|l| l.starts_with("info depth 1 "))
        .expect("an info line");
    assert!(
        info.contains(" value ") && info.contains(" strategy ") && info.contains(" opponent "),
        "{info}"
    );
    let strategy: Vec<&str> = info
        .split(" strategy ")
        .nth(1)
        .unwrap()
        .split(" opponent ")
        .next()
        .unwrap()
        .split_whitespace()
        .collect();
    let total: f64 = strategy
        .chunks(2)
        .map(|c| c[1].parse::<f64>().unwrap())
        .sum();
    assert!((total - 1.0).abs() < 1e-3, "{info}");
    let mv = bestmove(&out);
    assert!(
        strategy.chunks(2).any(|c| c[0] == mv),
        "{mv} is not in the strategy {info}"
    );
    // The answer is legal: a turn with it is accepted.
    assert!(s
        .send(&format!("position startpos moves d2d4:d7d5 e2e3:{mv}"))
        .is_empty());
}

#[test]
fn a_seed_makes_simultaneous_choices_reproducible() {
    let run = |seed: u32| {
        let mut s = Session::new();
        s.send("setoption name UCI_Variant value parity");
        s.send("setoption name Strategy value random");
        s.send(&format!("setoption name Seed value {seed}"));
        s.send("position startpos");
        (0..4)
            .map(|_| {
                s.send("go side white depth 1");
                bestmove(&s.wait_bestmove())
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(run(7), run(7));
    assert_ne!(run(7), run(8));
}

#[test]
fn every_strategy_answers_legally() {
    for strategy in [
        "mixed",
        "most-likely",
        "naive-sequential",
        "greedy",
        "random",
    ] {
        let mut s = Session::new();
        s.send("setoption name UCI_Variant value parity-single");
        s.send(&format!("setoption name Strategy value {strategy}"));
        s.send("position startpos moves e2e4:d7d5");
        s.send("go side white depth 1");
        let mv = bestmove(&s.wait_bestmove());
        assert!(
            s.send(&format!("position startpos moves e2e4:d7d5 {mv}:g8f6"))
                .is_empty(),
            "{strategy}: {mv}"
        );
    }
    let mut s = Session::new();
    let out = s.send("setoption name Strategy value clever");
    assert!(out.starts_with("info string error"), "{out}");
}

/// Plays `turns` turns of parity at depth 2 between a mixed White and a
/// Black of `black_strategy`; returns how many of White's answers said it
/// was exploiting.
fn exploit_lines_against(black_strategy: &str, turns: usize) -> usize {
    let (mut white, mut black) = (Session::new(), Session::new());
    for (s, strategy, seed) in [(&mut white, "mixed", 1), (&mut black, black_strategy, 2)] {
        s.send("setoption name UCI_Variant value parity");
        s.send(&format!("setoption name Strategy value {strategy}"));
        s.send(&format!("setoption name Seed value {seed}"));
    }
    let mut moves = String::new();
    let mut exploiting = 0;
    for _ in 0..turns {
        let mut answers = Vec::new();
        for (s, side) in [(&mut white, "white"), (&mut black, "black")] {
            assert!(s
                .send(&format!("position startpos moves{moves}"))
                .is_empty());
            s.send(&format!("go side {side} depth 2"));
            let out = s.wait_bestmove();
            if side == "white" && out.contains("info string exploit:") {
                exploiting += 1;
            }
            answers.push(bestmove(&out));
        }
        if answers.iter().any(|a| a == "(none)") {
            break;
        }
        moves += &format!(" {}:{}", answers[0], answers[1]);
    }
    exploiting
}

#[test]
fn a_predictable_opponent_is_answered_directly() {
    assert!(
        exploit_lines_against("most-likely", 24) > 0,
        "a pure player was never exploited"
    );
    assert_eq!(
        exploit_lines_against("mixed", 24),
        0,
        "a mixing player was taken for a pure one"
    );
}

#[test]
fn low_simultaneous_levels_play_some_turns_at_random() {
    let first_moves = |level: u32| {
        (0..24)
            .map(|seed| {
                let mut s = Session::new();
                s.send("setoption name UCI_Variant value parity");
                s.send(&format!("setoption name Level value {level}"));
                s.send(&format!("setoption name Seed value {seed}"));
                s.send("position startpos");
                s.send("go side white");
                bestmove(&s.wait_bestmove())
            })
            .collect::<std::collections::HashSet<_>>()
    };
    // Level 4 plays its one-turn equilibrium (pure from the start);
    // level 1 plays 20% of its turns at random among 20 moves.
    let four = first_moves(4);
    let one = first_moves(1);
    assert!(four.len() <= 2, "level 4 errs: {four:?}");
    assert!(one.len() >= 4, "level 1 never errs: {one:?}");
}

#[test]
fn a_level_plays_its_own_search_and_a_seed_fixes_its_errors() {
    let moves_at = |seed: u32| {
        let mut s = Session::new();
        s.send("setoption name Level value 1");
        s.send(&format!("setoption name Seed value {seed}"));
        // The level's own depth and time, whatever `go` asks for.
        s.send("position startpos");
        s.send("go infinite");
        let first = bestmove(&s.wait_bestmove());
        s.send("position startpos moves e2e4");
        s.send("go depth 30");
        (first, bestmove(&s.wait_bestmove()))
    };
    let a = moves_at(7);
    assert_eq!(a, moves_at(7), "the same seed, the same choices");
    let distinct: std::collections::HashSet<_> = (0..12).map(|seed| moves_at(seed).0).collect();
    assert!(
        distinct.len() >= 3,
        "level 1 always opens the same way: {distinct:?}"
    );

    let mut s = Session::new();
    assert!(s
        .send("uci")
        .contains("option name Level type spin default 0 min 0 max 8"));
    for bad in ["9", "-1", "strong"] {
        let out = s.send(&format!("setoption name Level value {bad}"));
        assert!(out.contains("Level must be 0..8"), "{bad}: {out}");
    }
    // Every level mates in one.
    for level in 1..=8 {
        s.send(&format!("setoption name Level value {level}"));
        s.send("position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
        s.send("go movetime 50");
        assert_eq!(bestmove(&s.wait_bestmove()), "a1a8", "level {level}");
    }
}
