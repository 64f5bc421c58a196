//! The UCI driver.
//!
//! Start: `uci` ... `uciok` (the options it lists are remembered), then the
//! spec's `setoption`s in order, `isready` ... `readyok`. A game:
//! `setoption name UCI_Variant value <name>` when the variant is not chess
//! or the engine lists a `UCI_Variant` option, `ucinewgame`, `isready`.
//! A move: `position startpos|fen <fen> moves ...`, `go` with `wtime btime
//! winc binc`, `nodes`, `depth`, `movetime` as set, then `info` lines (the
//! last `score` is kept) until `bestmove`.

use std::time::{Duration, Instant};

use crate::engine::{EngineSpec, Failure, FailureKind, GameSetup, MoveRequest, Process, ReadError, Reply, Score};
use crate::limits::Limits;

pub struct UciEngine {
    process: Process,
    id_name: Option<String>,
    options: Vec<String>,
    start_fen: Option<String>,
    limits: Limits,
    timeout: Duration,
}

impl UciEngine {
    pub fn start(mut process: Process, spec: &EngineSpec, timeout: Duration) -> Result<UciEngine, Failure> {
        let start_failure = |f: Failure| Failure::new(FailureKind::Start, format!("UCI handshake: {f}"));
        process.send("uci").map_err(start_failure)?;
        let deadline = Instant::now() + timeout;
        let mut id_name = None;
        let mut options = Vec::new();
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
            }
        }
        let mut engine = UciEngine { process, id_name, options, start_fen: None, limits: Limits::default(), timeout };
        for (name, value) in &spec.options {
            engine.process.send(&format!("setoption name {name} value {value}")).map_err(start_failure)?;
        }
        engine.sync().map_err(start_failure)?;
        Ok(engine)
    }

    fn sync(&mut self) -> Result<(), Failure> {
        self.process.send("isready")?;
        let deadline = Instant::now() + self.timeout;
        while read(&mut self.process, deadline, "readyok")?.trim() != "readyok" {}
        Ok(())
    }

    fn has_option(&self, name: &str) -> bool {
        self.options.iter().any(|o| o.eq_ignore_ascii_case(name))
    }
}

/// Reads a line or fails: EOF is a crash, a timeout a hang while waiting for `what`.
fn read(process: &mut Process, deadline: Instant, what: &str) -> Result<String, Failure> {
    match process.recv(deadline) {
        Ok(line) => Ok(line),
        Err(ReadError::Eof) => Err(process.crashed()),
        Err(ReadError::Timeout) => Err(Failure::new(FailureKind::Hang, format!("no `{what}` in time (hangs)"))),
    }
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
                score = match (words.get(i + 1), words.get(i + 2).and_then(|v| v.parse::<i32>().ok())) {
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
        if setup.variant_id != "chess" || self.has_option("UCI_Variant") {
            self.process.send(&format!("setoption name UCI_Variant value {}", setup.variant))?;
        }
        self.process.send("ucinewgame")?;
        self.start_fen = setup.start_fen.clone();
        self.limits = setup.limits;
        self.sync()
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
        if let Some(clocks) = request.clocks {
            let inc = request.increment.as_millis();
            go.push_str(&format!(" wtime {} btime {} winc {inc} binc {inc}", clocks[0].as_millis(), clocks[1].as_millis()));
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
        loop {
            let line = match self.process.recv(request.deadline) {
                Ok(line) => line,
                Err(ReadError::Eof) => return Err(self.process.crashed()),
                Err(ReadError::Timeout) => {
                    let _ = self.process.send("stop");
                    let waited = started.elapsed().as_secs_f64();
                    return Err(match request.late {
                        FailureKind::Time => Failure::new(FailureKind::Time, format!("loses on time (no move after {waited:.2} s)")),
                        _ => Failure::new(FailureKind::Hang, format!("hangs (no move after {waited:.1} s)")),
                    });
                }
            };
            let line = line.trim();
            if line.starts_with("info ") {
                let (s, d) = parse_info_score(line);
                score = s.or(score);
                depth = d.or(depth);
            } else if let Some(rest) = line.strip_prefix("bestmove") {
                let elapsed = started.elapsed();
                let text = rest.split_whitespace().next().unwrap_or("").to_string();
                return Ok(Reply { text, score, depth, elapsed });
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
        assert_eq!(parse_info_score("info depth 12 seldepth 18 score cp -35 nodes 1000 pv e2e4"), (Some(Score::Cp(-35)), Some(12)));
        assert_eq!(parse_info_score("info depth 3 score mate -2 pv a1a2"), (Some(Score::Mate(-2)), Some(3)));
        assert_eq!(parse_info_score("info depth 5 score cp 20 lowerbound"), (Some(Score::Cp(20)), Some(5)));
        assert_eq!(parse_info_score("info string score cp 99"), (None, None));
        assert_eq!(parse_info_score("info nodes 10"), (None, None));
    }
}
