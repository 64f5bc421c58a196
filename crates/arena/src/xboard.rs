//! The XBoard (CECP, protocol version 2) driver.
//!
//! Start: `xboard`, `protover 2`, then `feature` lines until `done=1` (or
//! two seconds without `done=0`); each feature is answered `accepted`,
//! except `san=1`, which is `rejected` so moves come in coordinates. The
//! spec's options are sent as `option NAME=VALUE`.
//! A game: `new`, `variant <name>` (not for chess; the name must be in the
//! engine's `variants` feature), `setboard <fen>` for a start that is not
//! the variant's own (needs `setboard=1`), `level 0 <base> <inc>`, `st`,
//! `sd`, `post`, `easy`, `force`, and `ping`/`pong` when the engine has ping.
//! The engine stays in force mode between its moves: a move request sends
//! the moves it has not seen (with `usermove` when it asked for that),
//! `time`/`otim` in centiseconds, `go`, reads thinking lines (`ply score
//! time nodes pv`) until `move X`, then `force` again.
//! `resign` loses; so does `Illegal move` (the engine refuses one of our
//! legal moves: the rules disagree), and a result claim (the rules already
//! said the game goes on) that no move follows within a second. Lines left
//! from the engine's previous move (a claim after its mating move) are read
//! and ignored before the next request.

use std::time::{Duration, Instant};

use crate::engine::{
    EngineSpec, Failure, FailureKind, GameSetup, MoveRequest, Process, ReadError, Reply, Score,
};
use crate::limits::Limits;
use parity_rules::Color;

pub struct XboardEngine {
    process: Process,
    features: Vec<(String, String)>,
    sent: usize,
    ping: u32,
    limits: Limits,
    color: Color,
    timeout: Duration,
}

/// Splits a `feature` line into (name, value) pairs; values may be quoted.
pub fn parse_features(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = text.trim();
    while let Some(eq) = rest.find('=') {
        let name = rest[..eq].trim().to_string();
        let after = &rest[eq + 1..];
        let (value, tail) = if let Some(q) = after.strip_prefix('"') {
            match q.find('"') {
                Some(end) => (q[..end].to_string(), &q[end + 1..]),
                None => (q.to_string(), ""),
            }
        } else {
            let end = after.find(char::is_whitespace).unwrap_or(after.len());
            (after[..end].to_string(), &after[end..])
        };
        out.push((name, value));
        rest = tail.trim_start();
    }
    out
}

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

impl XboardEngine {
    pub fn start(
        mut process: Process,
        spec: &EngineSpec,
        timeout: Duration,
    ) -> Result<XboardEngine, Failure> {
        let start_failure =
            |f: Failure| Failure::new(FailureKind::Start, format!("XBoard handshake: {f}"));
        process.send("xboard").map_err(start_failure)?;
        process.send("protover 2").map_err(start_failure)?;
        let mut features = Vec::new();
        // Protocol 2: wait up to 2 s for features unless the engine says done=0.
        let mut deadline = Instant::now() + Duration::from_secs(2).min(timeout);
        let mut waiting_for_done = false;
        loop {
            let line = match process.recv(deadline) {
                Ok(line) => line,
                Err(ReadError::Eof) => return Err(start_failure(process.crashed())),
                Err(ReadError::Timeout) if !waiting_for_done => break,
                Err(ReadError::Timeout) => {
                    return Err(start_failure(Failure::new(
                        FailureKind::Hang,
                        "no `feature done=1` in time",
                    )))
                }
            };
            let Some(rest) = line.trim().strip_prefix("feature ") else {
                continue;
            };
            let mut done = false;
            for (name, value) in parse_features(rest) {
                let reply = if name == "san" && value == "1" {
                    "rejected"
                } else {
                    "accepted"
                };
                if name == "done" {
                    if value == "0" {
                        waiting_for_done = true;
                        deadline = Instant::now() + timeout;
                    } else {
                        done = true;
                    }
                }
                process
                    .send(&format!("{reply} {name}"))
                    .map_err(start_failure)?;
                features.push((name, value));
            }
            if done {
                break;
            }
        }
        let mut engine = XboardEngine {
            process,
            features,
            sent: 0,
            ping: 0,
            limits: Limits::default(),
            color: Color::White,
            timeout,
        };
        for (name, value) in &spec.options {
            engine
                .process
                .send(&format!("option {name}={value}"))
                .map_err(start_failure)?;
        }
        engine.sync().map_err(start_failure)?;
        Ok(engine)
    }

    fn feature(&self, name: &str) -> Option<&str> {
        self.features
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    fn sync(&mut self) -> Result<(), Failure> {
        if self.feature("ping") != Some("1") {
            return Ok(());
        }
        self.ping += 1;
        let n = self.ping;
        self.process.send(&format!("ping {n}"))?;
        let deadline = Instant::now() + self.timeout;
        let want = format!("pong {n}");
        while read(&mut self.process, deadline, &want)?.trim() != want {}
        Ok(())
    }

    fn send_move(&mut self, mv: &str) -> Result<(), Failure> {
        if self.feature("usermove") == Some("1") {
            self.process.send(&format!("usermove {mv}"))
        } else {
            self.process.send(mv)
        }
    }
}

/// Seconds as XBoard's `level` writes them: `M:SS` or whole minutes.
fn level_base(d: Duration) -> String {
    let secs = d.as_secs_f64().round() as u64;
    if secs % 60 == 0 {
        format!("{}", secs / 60)
    } else {
        format!("{}:{:02}", secs / 60, secs % 60)
    }
}

/// A thinking line `ply score time nodes pv...`: (score, depth).
pub fn parse_thinking(line: &str) -> Option<(Score, u32)> {
    let mut words = line.split_whitespace();
    let ply: u32 = words.next()?.trim_end_matches(['.', '&']).parse().ok()?;
    let score: i32 = words.next()?.parse().ok()?;
    let _time: i64 = words.next()?.parse().ok()?;
    let _nodes: i64 = words.next()?.parse().ok()?;
    Some((Score::Cp(score), ply))
}

impl crate::engine::Engine for XboardEngine {
    fn id_name(&self) -> Option<&str> {
        self.feature("myname")
    }

    fn new_game(&mut self, setup: &GameSetup) -> Result<(), Failure> {
        if setup.simultaneous {
            return Err(Failure::new(
                FailureKind::Start,
                "XBoard cannot play a simultaneous variant; it needs UCI with joint moves"
                    .to_string(),
            ));
        }
        self.process.send("new")?;
        if setup.variant_id != "chess" {
            if let Some(list) = self.feature("variants") {
                if !list.split(',').any(|v| v.trim() == setup.variant) {
                    return Err(Failure::new(
                        FailureKind::Start,
                        format!(
                            "does not know variant `{}` (it knows: {list})",
                            setup.variant
                        ),
                    ));
                }
            }
            self.process.send(&format!("variant {}", setup.variant))?;
        }
        if let Some(fen) = &setup.start_fen {
            if self.feature("setboard") != Some("1") {
                return Err(Failure::new(
                    FailureKind::Start,
                    "cannot start from a FEN (no `setboard` feature); use openings given as moves"
                        .to_string(),
                ));
            }
            self.process.send("force")?;
            self.process.send(&format!("setboard {fen}"))?;
        }
        self.limits = setup.limits;
        self.color = setup.color;
        if self.limits.nodes.is_some() {
            return Err(Failure::new(
                FailureKind::Start,
                "XBoard engines take no node limit here; use --tc, --depth or --movetime"
                    .to_string(),
            ));
        }
        if let Some(tc) = self.limits.tc {
            let inc = tc.increment.as_secs_f64();
            self.process
                .send(&format!("level 0 {} {}", level_base(tc.base), inc))?;
        }
        if let Some(m) = self.limits.movetime {
            self.process
                .send(&format!("st {}", m.as_secs_f64().ceil().max(1.0) as u64))?;
        }
        if let Some(d) = self.limits.depth {
            self.process.send(&format!("sd {d}"))?;
        }
        self.process.send("post")?;
        self.process.send("easy")?;
        self.process.send("force")?;
        self.sent = 0;
        self.sync()
    }

    fn go(&mut self, request: &MoveRequest) -> Result<Reply, Failure> {
        if request.side.is_some() {
            return Err(Failure::new(
                FailureKind::Protocol,
                "cannot be asked for a joint move over XBoard",
            ));
        }
        self.process.drain();
        for i in self.sent..request.moves.len() {
            let mv = request.moves[i].clone();
            self.send_move(&mv)?;
        }
        self.sent = request.moves.len();
        if let Some(clocks) = request.clocks {
            // The engine is asked only on its own turn.
            let (own, other) = (
                clocks[self.color.index()],
                clocks[self.color.other().index()],
            );
            self.process
                .send(&format!("time {}", own.as_millis() / 10))?;
            self.process
                .send(&format!("otim {}", other.as_millis() / 10))?;
        }
        let started = Instant::now();
        self.process.send("go")?;
        let mut score = None;
        let mut depth = None;
        let mut deadline = request.deadline;
        let mut claim: Option<String> = None;
        loop {
            let line = match self.process.recv(deadline) {
                Ok(line) => line,
                Err(ReadError::Eof) => return Err(self.process.crashed()),
                Err(ReadError::Timeout) => {
                    if let Some(claim) = claim {
                        return Err(Failure::new(
                            FailureKind::Protocol,
                            format!("claims `{claim}` but the game goes on"),
                        ));
                    }
                    let _ = self.process.send("?");
                    return Err(Failure::late(request.late, started.elapsed()));
                }
            };
            let line = line.trim();
            let text = line
                .strip_prefix("move ")
                .or_else(|| line.split_once("My move is:").map(|(_, m)| m))
                .map(str::trim);
            if let Some(text) = text {
                let elapsed = started.elapsed();
                self.sent += 1;
                self.process.send("force")?;
                return Ok(Reply {
                    score,
                    depth,
                    ..Reply::new(text, elapsed)
                });
            }
            if line == "resign" || line.starts_with("resign ") {
                return Err(Failure::new(FailureKind::Resign, "resigns"));
            }
            if line.starts_with("Illegal move") {
                return Err(Failure::new(
                    FailureKind::Protocol,
                    format!("refuses a legal move, the rules differ: `{line}`"),
                ));
            }
            if ["1-0", "0-1", "1/2-1/2"]
                .iter()
                .any(|r| line.starts_with(r))
            {
                // A claim the rules do not back: it stands only if no move
                // follows within a second.
                claim = Some(line.to_string());
                deadline = deadline.min(Instant::now() + Duration::from_secs(1));
            }
            if let Some((s, d)) = parse_thinking(line) {
                score = Some(s);
                depth = Some(d);
            }
        }
    }

    fn game_over(&mut self, result: &str, reason: &str) {
        let _ = self.process.send(&format!("result {result} {{{reason}}}"));
    }

    fn quit(&mut self) {
        let _ = self.process.send("quit");
        self.process.finish(Duration::from_millis(500));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn features_and_thinking() {
        let f = parse_features(
            r#"myname="Fairy-Max 5.0b" setboard=0 ping=1 variants="normal,tutti-frutti" done=0"#,
        );
        assert_eq!(f[0], ("myname".to_string(), "Fairy-Max 5.0b".to_string()));
        assert_eq!(f[1], ("setboard".to_string(), "0".to_string()));
        assert_eq!(
            f[3],
            ("variants".to_string(), "normal,tutti-frutti".to_string())
        );
        assert_eq!(f[4], ("done".to_string(), "0".to_string()));
        assert_eq!(
            parse_thinking(" 4      9        0       2274 g1f3 g8f6"),
            Some((Score::Cp(9), 4))
        );
        assert_eq!(parse_thinking("move e2e4"), None);
        assert_eq!(level_base(Duration::from_secs(10)), "0:10");
        assert_eq!(level_base(Duration::from_secs(120)), "2");
    }
}
