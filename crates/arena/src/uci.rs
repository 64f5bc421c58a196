//! The UCI driver.
//!
//! Start: `uci` ... `uciok` (the options it lists are remembered), then the
//! spec's `setoption`s in order, `isready` ... `readyok`. A game:
//! `setoption name UCI_Variant value <name>` when the variant is not chess
//! or the engine lists a `UCI_Variant` option, `setoption name Seed value S`
//! when the game has a seed and the engine lists `Seed`, `ucinewgame`,
//! `isready`.
//! A move: `position startpos|fen <fen> moves ...`, `go` with `wtime btime
//! winc binc`, `nodes`, `depth`, `movetime` as set, then `info` lines (the
//! last `score` is kept) until `bestmove`.
//!
//! Simultaneous variants (docs/protocol.md, "UCI with joint moves"): the
//! moves of `position` are whole turns, `e2e4:e7e5`, and `go` starts with
//! `side white|black`; the `info` lines' `value V strategy m p ...
//! opponent m p ...` are kept (the last of each). An engine whose
//! `UCI_Variant` combo does not list a simultaneous variant is refused at
//! the start of the game.

use std::time::{Duration, Instant};

use crate::engine::{
    EngineSpec, Failure, FailureKind, GameSetup, MoveRequest, Process, ReadError, Reply, Score,
    Strategy,
};
use crate::limits::Limits;
use parity_rules::Color;

pub struct UciEngine {
    process: Process,
    id_name: Option<String>,
    options: Vec<String>,
    /// The values of the `UCI_Variant` combo, as last listed.
    variants: Option<Vec<String>>,
    start_fen: Option<String>,
    limits: Limits,
    timeout: Duration,
}

impl UciEngine {
    pub fn start(
        mut process: Process,
        spec: &EngineSpec,
        timeout: Duration,
    ) -> Result<UciEngine, Failure> {
        let start_failure =
            |f: Failure| Failure::new(FailureKind::Start, format!("UCI handshake: {f}"));
        process.send("uci").map_err(start_failure)?;
        let deadline = Instant::now() + timeout;
        let mut id_name = None;
        let mut options = Vec::new();
        let mut variants = None;
        loop {
            let line = read(&mut process, deadline, "uciok").map_err(start_failure)?;
            let line = line.trim();
            if line == "uciok" {
                break;
            }
            if let Some(name) = line.strip_prefix("id name ") {
                id_name = Some(name.trim().to_string());
            } else if let Some(rest) = line.strip_prefix("option name ") {
                let name = rest.split(" type ").next().unwrap_or(rest).trim();
                options.push(name.to_string());
                variants = variant_combo(line).or(variants);
            }
        }
        let mut engine = UciEngine {
            process,
            id_name,
            options,
            variants,
            start_fen: None,
            limits: Limits::default(),
            timeout,
        };
        for (name, value) in &spec.options {
            engine
                .process
                .send(&format!("setoption name {name} value {value}"))
                .map_err(start_failure)?;
        }
        // An option the engine could not take (a network file it cannot
        // read, say) would otherwise leave it playing something else.
        if let Some(error) = engine.sync().map_err(start_failure)? {
            return Err(Failure::new(
                FailureKind::Start,
                format!("it refused its options: {error}"),
            ));
        }
        Ok(engine)
    }

    /// `isready` until `readyok`; the first `info string error` line
    /// (Stockfish's `ERROR` too) seen on the way, if any.
    fn sync(&mut self) -> Result<Option<String>, Failure> {
        self.process.send("isready")?;
        let deadline = Instant::now() + self.timeout;
        let mut error = None;
        loop {
            let line = read(&mut self.process, deadline, "readyok")?;
            let line = line.trim();
            if line == "readyok" {
                return Ok(error);
            }
            if error.is_none() && is_error(line) {
                error = Some(line.to_string());
            }
            // An engine lists its variants again after loading more (Fairy-Stockfish's VariantPath).
            if let Some(v) = variant_combo(line) {
                self.variants = Some(v);
            }
        }
    }

    fn has_option(&self, name: &str) -> bool {
        self.options.iter().any(|o| o.eq_ignore_ascii_case(name))
    }
}

/// An `info string error...` line, in any case.
fn is_error(line: &str) -> bool {
    line.get(..17)
        .is_some_and(|head| head.eq_ignore_ascii_case("info string error"))
}

/// Reads a line or fails: EOF is a crash, a timeout a hang while waiting for `what`.
fn read(process: &mut Process, deadline: Instant, what: &str) -> Result<String, Failure> {
    match process.recv(deadline) {
        Ok(line) => Ok(line),
        Err(ReadError::Eof) => Err(process.crashed()),
        Err(ReadError::Timeout) => Err(Failure::new(
            FailureKind::Hang,
            format!("no `{what}` in time (hangs)"),
        )),
    }
}

/// The values of an `option name UCI_Variant type combo ... var a var b` line.
pub fn variant_combo(line: &str) -> Option<Vec<String>> {
    let rest = line
        .trim()
        .strip_prefix("option name UCI_Variant type combo")?;
    let words: Vec<&str> = rest.split_whitespace().collect();
    Some(
        words
            .windows(2)
            .filter(|w| w[0] == "var")
            .map(|w| w[1].to_string())
            .collect(),
    )
}

/// What an `info` line says for a simultaneous variant: `value V`,
/// `strategy m1 p1 m2 p2 ...` and `opponent m1 p1 ...` (each when present).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SimInfo {
    pub value: Option<f64>,
    pub strategy: Option<Strategy>,
    pub opponent: Option<Strategy>,
}

/// The keywords of an `info` line that end a list of moves.
const INFO_KEYWORDS: &[&str] = &[
    "depth",
    "seldepth",
    "time",
    "nodes",
    "pv",
    "multipv",
    "score",
    "currmove",
    "currmovenumber",
    "hashfull",
    "nps",
    "tbhits",
    "sbhits",
    "cpuload",
    "string",
    "refutation",
    "currline",
    "value",
    "strategy",
    "opponent",
];

/// Reads the simultaneous-variant items of an `info` line.
pub fn parse_info_sim(line: &str) -> SimInfo {
    let words: Vec<&str> = line.split_whitespace().collect();
    let mut info = SimInfo::default();
    let mut i = 1;
    while i < words.len() {
        match words[i] {
            "value" => {
                info.value = words
                    .get(i + 1)
                    .and_then(|v| v.parse::<f64>().ok())
                    .filter(|v| v.is_finite())
                    .or(info.value);
                i += 2;
            }
            list @ ("strategy" | "opponent") => {
                let mut moves = Vec::new();
                i += 1;
                while i + 1 < words.len() && !INFO_KEYWORDS.contains(&words[i]) {
                    match words[i + 1].parse::<f64>() {
                        Ok(p) if p.is_finite() => moves.push((words[i].to_string(), p)),
                        _ => break,
                    }
                    i += 2;
                }
                if list == "strategy" {
                    info.strategy = Some(moves);
                } else {
                    info.opponent = Some(moves);
                }
            }
            "string" => break,
            _ => i += 1,
        }
    }
    info
}

/// The score of an `info` line, if it has one.
pub fn parse_info_score(line: &str) -> (Option<Score>, Option<u32>) {
    let words: Vec<&str> = line.split_whitespace().collect();
    let mut score = None;
    let mut depth = None;
    let mut i = 1;
    while i < words.len() {
        match words[i] {
            "depth" => depth = words.get(i + 1).and_then(|d| d.parse().ok()),
            "score" => {
                score = match (
                    words.get(i + 1),
                    words.get(i + 2).and_then(|v| v.parse::<i32>().ok()),
                ) {
                    (Some(&"cp"), Some(v)) => Some(Score::Cp(v)),
                    (Some(&"mate"), Some(v)) => Some(Score::Mate(v)),
                    _ => score,
                };
            }
            // The rest of the line is moves or free text.
            "pv" | "string" => break,
            _ => {}
        }
        i += 1;
    }
    (score, depth)
}

impl crate::engine::Engine for UciEngine {
    fn id_name(&self) -> Option<&str> {
        self.id_name.as_deref()
    }

    fn new_game(&mut self, setup: &GameSetup) -> Result<(), Failure> {
        if setup.simultaneous {
            if let Some(list) = &self.variants {
                if !list.iter().any(|v| v.eq_ignore_ascii_case(&setup.variant)) {
                    return Err(Failure::new(
                        FailureKind::Start,
                        format!(
                            "does not offer the simultaneous variant `{}` (UCI_Variant: {})",
                            setup.variant,
                            list.join(" ")
                        ),
                    ));
                }
            }
        }
        if setup.variant_id != "chess" || self.has_option("UCI_Variant") {
            self.process.send(&format!(
                "setoption name UCI_Variant value {}",
                setup.variant
            ))?;
        }
        if let Some(seed) = setup.seed.filter(|_| self.has_option("Seed")) {
            self.process
                .send(&format!("setoption name Seed value {seed}"))?;
        }
        self.process.send("ucinewgame")?;
        self.start_fen = setup.start_fen.clone();
        self.limits = setup.limits;
        self.sync().map(|_| ())
    }

    fn go(&mut self, request: &MoveRequest) -> Result<Reply, Failure> {
        let mut position = match &self.start_fen {
            Some(fen) => format!("position fen {fen}"),
            None => "position startpos".to_string(),
        };
        if !request.moves.is_empty() {
            position.push_str(" moves ");
            position.push_str(&request.moves.join(" "));
        }
        self.process.drain();
        self.process.send(&position)?;
        let mut go = String::from("go");
        if let Some(side) = request.side {
            go.push_str(if side == Color::White {
                " side white"
            } else {
                " side black"
            });
        }
        if let Some(clocks) = request.clocks {
            let inc = request.increment.as_millis();
            go.push_str(&format!(
                " wtime {} btime {} winc {inc} binc {inc}",
                clocks[0].as_millis(),
                clocks[1].as_millis()
            ));
        }
        if let Some(n) = self.limits.nodes {
            go.push_str(&format!(" nodes {n}"));
        }
        if let Some(d) = self.limits.depth {
            go.push_str(&format!(" depth {d}"));
        }
        if let Some(m) = self.limits.movetime {
            go.push_str(&format!(" movetime {}", m.as_millis()));
        }
        let started = Instant::now();
        self.process.send(&go)?;
        let mut score = None;
        let mut depth = None;
        let mut sim = SimInfo::default();
        loop {
            let line = match self.process.recv(request.deadline) {
                Ok(line) => line,
                Err(ReadError::Eof) => return Err(self.process.crashed()),
                Err(ReadError::Timeout) => {
                    let _ = self.process.send("stop");
                    return Err(Failure::late(request.late, started.elapsed()));
                }
            };
            let line = line.trim();
            if line.starts_with("info ") {
                let (s, d) = parse_info_score(line);
                score = s.or(score);
                depth = d.or(depth);
                if request.side.is_some() {
                    let i = parse_info_sim(line);
                    sim.value = i.value.or(sim.value);
                    sim.strategy = i.strategy.or(sim.strategy);
                    sim.opponent = i.opponent.or(sim.opponent);
                }
            } else if let Some(rest) = line.strip_prefix("bestmove") {
                let elapsed = started.elapsed();
                let text = rest.split_whitespace().next().unwrap_or("");
                return Ok(Reply {
                    score,
                    depth,
                    value: sim.value,
                    strategy: sim.strategy.unwrap_or_default(),
                    opponent: sim.opponent.unwrap_or_default(),
                    ..Reply::new(text, elapsed)
                });
            }
        }
    }

    fn game_over(&mut self, _result: &str, _reason: &str) {}

    fn quit(&mut self) {
        let _ = self.process.send("quit");
        self.process.finish(Duration::from_millis(500));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_lines() {
        assert_eq!(
            parse_info_score("info depth 12 seldepth 18 score cp -35 nodes 1000 pv e2e4"),
            (Some(Score::Cp(-35)), Some(12))
        );
        assert_eq!(
            parse_info_score("info depth 3 score mate -2 pv a1a2"),
            (Some(Score::Mate(-2)), Some(3))
        );
        assert_eq!(
            parse_info_score("info depth 5 score cp 20 lowerbound"),
            (Some(Score::Cp(20)), Some(5))
        );
        assert_eq!(parse_info_score("info string score cp 99"), (None, None));
        assert_eq!(parse_info_score("info nodes 10"), (None, None));
    }

    #[test]
    fn simultaneous_info_lines() {
        let line = "info depth 2 nodes 51234 time 130 value 0.0420 strategy e2e4 0.6250 d2d4 0.3750 opponent e7e5 0.5000 c7c5 0.5000";
        let i = parse_info_sim(line);
        assert_eq!(i.value, Some(0.042));
        assert_eq!(
            i.strategy,
            Some(vec![
                ("e2e4".to_string(), 0.625),
                ("d2d4".to_string(), 0.375)
            ])
        );
        assert_eq!(
            i.opponent,
            Some(vec![("e7e5".to_string(), 0.5), ("c7c5".to_string(), 0.5)])
        );
        assert_eq!(parse_info_score(line), (None, Some(2)));
        // Lists end at a keyword; a lone value, or none, is fine.
        let i = parse_info_sim("info strategy g1f3 1 nodes 5 value -1");
        assert_eq!(
            (i.value, i.strategy.unwrap().len(), i.opponent),
            (Some(-1.0), 1, None)
        );
        assert_eq!(
            parse_info_sim("info depth 3 score cp 20 pv e2e4"),
            SimInfo::default()
        );
        assert_eq!(parse_info_sim("info string value 3"), SimInfo::default());
        assert_eq!(
            parse_info_sim("info value nan strategy e2e4 x").strategy,
            Some(vec![])
        );
    }

    #[test]
    fn variant_combos() {
        let line = "option name UCI_Variant type combo default chess var chess var parity var move-neutral";
        assert_eq!(
            variant_combo(line).unwrap(),
            ["chess", "parity", "move-neutral"]
        );
        assert_eq!(variant_combo("option name Hash type spin default 16"), None);
    }
}
