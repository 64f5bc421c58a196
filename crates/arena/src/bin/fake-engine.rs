//! A scripted engine for the match tests. It speaks UCI (or XBoard with
//! `--xboard`), knows every turn-based and crowd variant of `parity-rules`,
//! and over UCI the simultaneous ones with joint moves (`position ... moves
//! e2e4:e7e5`, `go side white|black`, see docs/protocol.md); it plays the
//! first legal move (or a random one), and misbehaves on request:
//!
//! ```text
//! parity-fake-engine [--xboard] [--mode MODE] [--after N] [--score CP] [--value V] [--delay MS] [--seed S] [--no-setboard] [--no-sim]
//! MODE: first (default) | random | crash | hang | illegal | garbled | slow | wrong-side | resign | claim | claim-move | refuse | exit
//! ```
//!
//! The misbehaviour starts at its move number N+1 of a game (`--after`,
//! default 0): `crash` exits with code 3, `hang` stops answering, `illegal`
//! sends `a1a1`, `garbled` sends `xyzzy`, `slow` waits `--delay` ms before
//! each move, `resign` and `claim` (XBoard) resign or claim a draw,
//! `refuse` (XBoard) answers the opponent's move with `Illegal move`.
//! `exit` quits at once, before any handshake. `--score CP` reports that
//! score (its own point of view) with every move.
//!
//! Simultaneous variants: with every move it reports `info depth 1 nodes N
//! value V strategy ... opponent ...` (`--value`, default 0): the first
//! legal move with probability 1, or with `--mode random` every legal move
//! uniformly (and plays one at random). `wrong-side` answers with a move of
//! the other side. `--no-sim` leaves the simultaneous variants out of its
//! `UCI_Variant` combo.
//!
//! Over UCI it offers the option `Seed`, which reseeds its random moves
//! (as `--seed` does at the start).

use std::io::{self, BufRead, Write};
use std::time::Duration;

use parity_arena::board::{mover, turn_game};
use parity_rules::simultaneous::SimPosition;
use parity_rules::AnyGame;
use parity_rules::{notation, Color, Registry, Variant};
use rand::{RngExt, SeedableRng};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Mode {
    First,
    Random,
    Crash,
    Hang,
    Illegal,
    Garbled,
    Slow,
    WrongSide,
    Resign,
    Claim,
    ClaimMove,
    Refuse,
    Exit,
}

struct Fake {
    mode: Mode,
    after: u32,
    score: Option<i32>,
    value: f64,
    sim_variants: bool,
    delay: Duration,
    rng: rand_chacha::ChaCha8Rng,
    registry: Registry,
    variant: &'static Variant,
    board: AnyGame,
    /// The position when the variant is simultaneous.
    sim: Option<SimPosition>,
    moves_made: u32,
    out: io::Stdout,
}

impl Fake {
    fn say(&mut self, line: &str) {
        let mut out = self.out.lock();
        let _ = writeln!(out, "{line}");
        let _ = out.flush();
    }

    fn misbehaving(&self) -> bool {
        self.moves_made >= self.after
    }

    fn set_variant(&mut self, name: &str) {
        let name = if name == "normal" { "chess" } else { name };
        if let Some(v) = self.registry.get(name) {
            self.variant = v;
        }
        match turn_game(self.variant, None) {
            Ok(b) => {
                self.board = b;
                self.sim = None;
            }
            Err(_) => self.sim = Some(SimPosition::start(self.variant)),
        }
    }

    /// Misbehaves as asked; None when the engine is to fall silent.
    fn misbehave(&mut self) -> Option<Option<String>> {
        if self.misbehaving() {
            match self.mode {
                Mode::Crash => std::process::exit(3),
                Mode::Hang => loop {
                    std::thread::sleep(Duration::from_secs(3600));
                },
                Mode::Illegal => return Some(Some("a1a1".into())),
                Mode::Garbled => return Some(Some("xyzzy".into())),
                Mode::Slow => std::thread::sleep(self.delay),
                _ => {}
            }
        }
        None
    }

    /// A move for `color` in a simultaneous position, with its info line.
    fn choose_sim(&mut self, color: Color) -> Option<String> {
        if let Some(m) = self.misbehave() {
            return m;
        }
        let pos = self.sim.expect("a simultaneous position");
        let side = if self.mode == Mode::WrongSide && self.misbehaving() {
            color.other()
        } else {
            color
        };
        let names = |c: Color| -> Vec<String> {
            pos.legal_moves(c)
                .into_iter()
                .map(|m| notation::uci(&pos.side(c), m))
                .collect()
        };
        let (own, theirs) = (names(side), names(side.other()));
        if own.is_empty() {
            return None;
        }
        let list = |moves: &[String]| -> String {
            let p = 1.0 / moves.len() as f64;
            moves
                .iter()
                .map(|m| format!("{m} {p:.4}"))
                .collect::<Vec<_>>()
                .join(" ")
        };
        let random = self.mode == Mode::Random;
        let strategy = if random { list(&own) } else { list(&own[..1]) };
        let opponent = if theirs.is_empty() {
            String::new()
        } else {
            format!(" opponent {}", list(&theirs[..1]))
        };
        self.say(&format!(
            "info depth 1 nodes {} time 0 value {:.4} strategy {strategy}{opponent}",
            own.len(),
            self.value
        ));
        let mv = if random {
            own[self.rng.random_range(0..own.len())].clone()
        } else {
            own[0].clone()
        };
        self.moves_made += 1;
        Some(mv)
    }

    /// Plays `position ... moves w:b ...` in a simultaneous variant.
    fn sim_position(&mut self, fen: Option<&str>, turns: &[&str]) {
        let start = match fen {
            Some(f) => SimPosition::from_fen(self.variant, f),
            None => Ok(SimPosition::start(self.variant)),
        };
        let mut pos = match start {
            Ok(p) => p,
            Err(e) => return self.say(&format!("info string error: bad position: {e}")),
        };
        for turn in turns {
            let Some((w, b)) = turn.split_once(':') else {
                return self.say(&format!("info string error: `{turn}` is not white:black"));
            };
            let read = |c: Color, t: &str| notation::parse_uci(&pos.side(c), t).ok();
            let next = match (read(Color::White, w), read(Color::Black, b)) {
                (Some(w), Some(b)) => pos.resolve(w, b).ok(),
                _ => None,
            };
            match next {
                Some(t) => pos = t.position,
                None => return self.say(&format!("info string error: illegal turn {turn}")),
            }
        }
        self.sim = Some(pos);
    }

    /// The move to send, or None when the engine is to fall silent.
    fn choose(&mut self) -> Option<String> {
        if let Some(m) = self.misbehave() {
            return m;
        }
        let side = mover(&self.board);
        let legal = self.board.legal_moves(side);
        if legal.is_empty() {
            return None;
        }
        let mv = if self.mode == Mode::Random {
            legal[self.rng.random_range(0..legal.len())]
        } else {
            legal[0]
        };
        self.moves_made += 1;
        Some(self.board.uci(side, mv))
    }

    fn play_text(&mut self, text: &str) -> bool {
        match self.board.read_move(mover(&self.board), text) {
            Ok(mv) => self.board.play(mv).is_ok(),
            Err(_) => false,
        }
    }

    fn uci(&mut self, line: &str) -> bool {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.first().copied() {
            Some("uci") => {
                self.say("id name Fake Engine");
                self.say("id author Parity tests");
                self.say("option name Hash type spin default 16 min 1 max 1024");
                self.say("option name Seed type spin default 1 min 0 max 4294967295");
                let sim = if self.sim_variants {
                    " var parity var parity-single var move-neutral"
                } else {
                    ""
                };
                self.say(&format!("option name UCI_Variant type combo default chess var chess var tutti-frutti var parity12 var safety-in-numbers{sim}"));
                self.say("uciok");
            }
            Some("isready") => self.say("readyok"),
            Some("setoption") => {
                if let (Some(n), Some(v)) = (line.find("name "), line.find(" value ")) {
                    let value = line[v + 7..].trim().to_string();
                    match line[n + 5..v].trim() {
                        "UCI_Variant" => self.set_variant(&value),
                        "Hash" if value.parse::<u32>().is_err() => {
                            self.say(&format!("info string error: Hash {value} is not a number"))
                        }
                        "Seed" => {
                            if let Ok(seed) = value.parse() {
                                self.rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
                            }
                        }
                        _ => {}
                    }
                }
            }
            Some("ucinewgame") => self.moves_made = 0,
            Some("position") => {
                let fen = if words.get(1) == Some(&"fen") {
                    let end = words
                        .iter()
                        .position(|w| *w == "moves")
                        .unwrap_or(words.len());
                    Some(words[2..end].join(" "))
                } else {
                    None
                };
                if self.sim.is_some() {
                    let turns = match words.iter().position(|w| *w == "moves") {
                        Some(i) => words[i + 1..].to_vec(),
                        None => Vec::new(),
                    };
                    self.sim_position(fen.as_deref(), &turns);
                    return true;
                }
                self.board = match turn_game(self.variant, fen.as_deref()) {
                    Ok(b) => b,
                    Err(e) => {
                        self.say(&format!("info string bad position: {e}"));
                        return true;
                    }
                };
                if let Some(i) = words.iter().position(|w| *w == "moves") {
                    for m in &words[i + 1..] {
                        if !self.play_text(m) {
                            self.say(&format!("info string illegal move {m}"));
                            break;
                        }
                    }
                }
            }
            Some("go") if self.sim.is_some() => {
                let side = match words.get(1..3) {
                    Some(["side", "white"]) => Color::White,
                    Some(["side", "black"]) => Color::Black,
                    _ => {
                        self.say("info string error: go needs side white|black in a simultaneous variant");
                        return true;
                    }
                };
                match self.choose_sim(side) {
                    Some(m) => self.say(&format!("bestmove {m}")),
                    None => self.say("bestmove (none)"),
                }
            }
            Some("go") => {
                if let Some(cp) = self.score {
                    self.say(&format!("info depth 1 score cp {cp} nodes 1 pv"));
                }
                match self.choose() {
                    Some(m) => self.say(&format!("bestmove {m}")),
                    None => self.say("bestmove (none)"),
                }
            }
            Some("quit") => return false,
            _ => {}
        }
        true
    }

    fn xboard(&mut self, line: &str, setboard: bool, forced: &mut bool) -> bool {
        let words: Vec<&str> = line.split_whitespace().collect();
        let cmd = words.first().copied().unwrap_or("");
        match cmd {
            "protover" => {
                let names: Vec<&str> = self
                    .registry
                    .iter()
                    .filter(|v| turn_game(v, None).is_ok())
                    .map(|v| v.id())
                    .collect();
                self.say(&format!(
                    "feature myname=\"Fake XBoard\" ping=1 usermove=1 setboard={} san=0 variants=\"normal,{}\" done=1",
                    u8::from(setboard),
                    names.join(",")
                ));
            }
            "ping" => self.say(&format!("pong {}", words.get(1).unwrap_or(&""))),
            "new" => {
                self.variant = self.registry.get("chess").expect("chess");
                self.board = turn_game(self.variant, None).expect("chess");
                self.moves_made = 0;
                *forced = false;
            }
            "variant" => self.set_variant(words.get(1).copied().unwrap_or("chess")),
            "setboard" => match turn_game(self.variant, Some(line["setboard".len()..].trim())) {
                Ok(b) => self.board = b,
                Err(e) => self.say(&format!("tellusererror bad FEN: {e}")),
            },
            "force" => *forced = true,
            "go" => {
                *forced = false;
                self.xboard_move();
            }
            "quit" => return false,
            "usermove" => self.xboard_usermove(words.get(1).copied().unwrap_or(""), *forced),
            "xboard" | "accepted" | "rejected" | "level" | "st" | "sd" | "time" | "otim"
            | "post" | "easy" | "hard" | "result" | "option" | "?" | "computer" | "random" => {}
            other => {
                // A bare move (engines without usermove).
                if !other.is_empty() {
                    self.xboard_usermove(other, *forced);
                }
            }
        }
        true
    }

    fn xboard_usermove(&mut self, text: &str, forced: bool) {
        if self.mode == Mode::Refuse && self.misbehaving() {
            self.say(&format!("Illegal move: {text}"));
            return;
        }
        if !self.play_text(text) {
            self.say(&format!("Illegal move: {text}"));
            return;
        }
        if !forced {
            self.xboard_move();
        }
    }

    fn xboard_move(&mut self) {
        if self.misbehaving() {
            match self.mode {
                Mode::Resign => return self.say("resign"),
                Mode::Claim => return self.say("1/2-1/2 {I claim a draw}"),
                Mode::ClaimMove => self.say("1/2-1/2 {I claim a draw, but move anyway}"),
                _ => {}
            }
        }
        if let Some(cp) = self.score {
            self.say(&format!("1 {cp} 0 1 pv"));
        }
        if let Some(m) = self.choose() {
            if self.play_text(&m) || m == "a1a1" || m == "xyzzy" {
                self.say(&format!("move {m}"));
            }
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut mode = Mode::First;
    let mut xboard = false;
    let mut setboard = true;
    let mut after = 0;
    let mut score = None;
    let mut sim_value = 0.0f64;
    let mut sim_variants = true;
    let mut delay = 0u64;
    let mut seed = 1u64;
    let mut i = 0;
    let value = |i: usize| args.get(i + 1).cloned().unwrap_or_default();
    while i < args.len() {
        match args[i].as_str() {
            "--xboard" => xboard = true,
            "--no-setboard" => setboard = false,
            "--no-sim" => sim_variants = false,
            "--value" => {
                sim_value = value(i).parse().unwrap_or(0.0);
                i += 1;
            }
            "--mode" => {
                mode = match value(i).as_str() {
                    "first" => Mode::First,
                    "random" => Mode::Random,
                    "crash" => Mode::Crash,
                    "hang" => Mode::Hang,
                    "illegal" => Mode::Illegal,
                    "garbled" => Mode::Garbled,
                    "slow" => Mode::Slow,
                    "wrong-side" => Mode::WrongSide,
                    "resign" => Mode::Resign,
                    "claim" => Mode::Claim,
                    "claim-move" => Mode::ClaimMove,
                    "refuse" => Mode::Refuse,
                    "exit" => Mode::Exit,
                    other => {
                        eprintln!("unknown mode `{other}`");
                        std::process::exit(2);
                    }
                };
                i += 1;
            }
            "--after" => {
                after = value(i).parse().unwrap_or(0);
                i += 1;
            }
            "--score" => {
                score = value(i).parse().ok();
                i += 1;
            }
            "--delay" => {
                delay = value(i).parse().unwrap_or(0);
                i += 1;
            }
            "--seed" => {
                seed = value(i).parse().unwrap_or(1);
                i += 1;
            }
            "-h" | "--help" => {
                println!("parity-fake-engine [--xboard] [--mode MODE] [--after N] [--score CP] [--value V] [--delay MS] [--seed S] [--no-setboard] [--no-sim]");
                return;
            }
            other => {
                eprintln!("unknown argument `{other}`");
                std::process::exit(2);
            }
        }
        i += 1;
    }
    if mode == Mode::Exit {
        std::process::exit(4);
    }
    let registry = Registry::builtin();
    let variant = registry.get("chess").expect("chess");
    let mut fake = Fake {
        mode,
        after,
        score,
        value: sim_value,
        sim_variants,
        delay: Duration::from_millis(delay),
        rng: rand_chacha::ChaCha8Rng::seed_from_u64(seed),
        registry,
        variant,
        board: turn_game(variant, None).expect("chess"),
        sim: None,
        moves_made: 0,
        out: io::stdout(),
    };
    let stdin = io::stdin();
    let mut forced = false;
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let line = line.trim();
        let go_on = if xboard {
            fake.xboard(line, setboard, &mut forced)
        } else {
            fake.uci(line)
        };
        if !go_on {
            break;
        }
    }
}
