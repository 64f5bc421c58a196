//! The UCI front end, with the conventions of Fairy-Stockfish: the variant
//! is the option `UCI_Variant`, user variants come from `VariantPath`, and
//! `d`, `go perft N` and `bench` are there for testing. A malformed or
//! illegal command gets an `info string error: ...` and changes nothing.

use std::fmt::Write as _;
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use parity_rules::simultaneous::SimPosition;
use parity_rules::{
    notation, record, AnyGame, Color, Game, PieceView, Registry, TurnPosition, Variant,
};
use rand_chacha::rand_core::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::eval::{Score, MATE, MATE_BOUND};
use crate::level::{Level, MAX_LEVEL};
use crate::opponent::{OpponentModel, PREDICTABLE};
use crate::search::{Limits, Report, Searcher, Shared};
use crate::simplay::{self, Strategy, Target};
use crate::simsearch::{SimLimits, SimResult, SimSearch};

pub type Output = Arc<Mutex<dyn Write + Send>>;

const DEFAULT_HASH_MB: usize = 16;
/// The exploiter's default target and reference depth (plies).
const DEFAULT_TARGET: &str = "mixed:tdoab:100";
const DEFAULT_REFERENCE_PLIES: i32 = 3;
/// The simultaneous search `Search` starts with.
const DEFAULT_SIM_SEARCH: SimSearch = SimSearch::Tdoab;

pub struct Uci {
    registry: Registry,
    variant: &'static Variant,
    /// The game as the GUI set it: start position and moves.
    game: AnyGame,
    shared: Arc<Shared>,
    hash_mb: usize,
    threads: usize,
    overhead: Duration,
    search: Option<JoinHandle<()>>,
    /// Set by the search thread once its `bestmove` is written.
    answered: Arc<AtomicBool>,
    /// How a simultaneous move is chosen, and the generator that samples it.
    strategy: Strategy,
    rng: ChaCha8Rng,
    /// Whether the mixed player answers a predictable opponent directly.
    exploit: bool,
    opponent: Arc<Mutex<OpponentModel>>,
    /// Which simultaneous search runs (`Search`).
    sim_search: SimSearch,
    /// The exploiter's target and reference depth (`Target`, `ReferenceDepth`).
    target: Target,
    reference_plies: i32,
    /// Lines of the turn-based search (`MultiPV`).
    multipv: usize,
    /// A playing level (`Level`, 1 to 8; 0: full strength): its own depth
    /// and time instead of `go`'s limits, and its deliberate errors.
    level: u8,
    /// The words of a `go ponder` being pondered, to search for real on
    /// `ponderhit`; the pondering search's own `bestmove` is then not sent.
    pondering: Option<String>,
    silent: Arc<AtomicBool>,
    out: Output,
}

/// Positions of `bench`: variant and FEN (None: the start position).
const BENCH: &[(&str, Option<&str>)] = &[
    ("chess", None),
    (
        "chess",
        Some("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
    ),
    (
        "chess",
        Some("r1bq1rk1/pp2bppp/2n1pn2/2pp4/3P4/2PBPN2/PP1N1PPP/R1BQ1RK1 w - - 0 8"),
    ),
    ("chess", Some("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1")),
    ("chess", Some("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1")),
    ("tutti-frutti", None),
    ("parity12", None),
    ("safety-in-numbers", None),
];
const BENCH_DEPTH: i32 = 9;

impl Uci {
    pub fn new(out: Output) -> Uci {
        let registry = Registry::builtin();
        let variant = registry.get("chess").expect("chess is built in");
        Uci {
            game: AnyGame::new(variant),
            registry,
            variant,
            shared: Arc::new(Shared::new(DEFAULT_HASH_MB)),
            hash_mb: DEFAULT_HASH_MB,
            threads: 1,
            overhead: Duration::from_millis(10),
            search: None,
            answered: Arc::new(AtomicBool::new(false)),
            strategy: Strategy::Mixed,
            rng: ChaCha8Rng::seed_from_u64(0),
            exploit: true,
            opponent: Arc::default(),
            sim_search: DEFAULT_SIM_SEARCH,
            target: DEFAULT_TARGET.parse().expect("the default target parses"),
            reference_plies: DEFAULT_REFERENCE_PLIES,
            multipv: 1,
            level: 0,
            pondering: None,
            silent: Arc::new(AtomicBool::new(false)),
            out,
        }
    }

    fn say(&self, text: &str) {
        let mut out = self.out.lock().unwrap_or_else(|e| e.into_inner());
        // A GUI that went away cannot be told anything; the loop ends on EOF.
        let _ = writeln!(out, "{text}");
        let _ = out.flush();
    }

    fn error(&self, text: &str) {
        self.say(&format!("info string error: {text}"));
    }

    fn variant_option(&self) -> String {
        let vars: String = self
            .registry
            .iter()
            .map(|v| format!(" var {}", v.id()))
            .collect();
        format!(
            "option name UCI_Variant type combo default {}{vars}",
            self.variant.id()
        )
    }

    /// Reads commands until `quit` or end of input.
    pub fn run(mut self, input: impl BufRead) {
        for line in input.lines() {
            let Ok(line) = line else { break };
            if !self.handle(&line) {
                break;
            }
        }
        self.stop();
    }

    /// Handles one command; false means quit.
    pub fn handle(&mut self, line: &str) -> bool {
        self.reap();
        let line = line.trim();
        let (command, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let rest = rest.trim();
        match command {
            "" => {}
            "uci" => {
                self.say(&format!("id name Parity {}", env!("CARGO_PKG_VERSION")));
                self.say("id author the Parity developers");
                self.say(&self.variant_option());
                self.say("option name VariantPath type string default <empty>");
                self.say("option name EvalFile type string default <empty>");
                self.say("option name EvalNet type string default <empty>");
                self.say(&format!(
                    "option name Hash type spin default {DEFAULT_HASH_MB} min 1 max 65536"
                ));
                self.say("option name Threads type spin default 1 min 1 max 256");
                self.say("option name Move Overhead type spin default 10 min 0 max 5000");
                self.say("option name Clear Hash type button");
                self.say("option name MultiPV type spin default 1 min 1 max 256");
                self.say(&format!(
                    "option name Level type spin default 0 min 0 max {MAX_LEVEL}"
                ));
                self.say("option name Ponder type check default false");
                let strategies: String = Strategy::ALL
                    .iter()
                    .map(|(n, _)| format!(" var {n}"))
                    .collect();
                self.say(&format!(
                    "option name Strategy type combo default mixed{strategies}"
                ));
                let searches: String = SimSearch::ALL
                    .iter()
                    .map(|(n, _)| format!(" var {n}"))
                    .collect();
                self.say(&format!(
                    "option name Search type combo default {}{searches}",
                    DEFAULT_SIM_SEARCH.name()
                ));
                self.say(&format!(
                    "option name Target type string default {DEFAULT_TARGET}"
                ));
                self.say(&format!(
                    "option name ReferenceDepth type spin default {DEFAULT_REFERENCE_PLIES} min 0 max 20"
                ));
                self.say("option name Seed type spin default 0 min 0 max 4294967295");
                self.say("option name Exploit type check default true");
                self.say("uciok");
            }
            "isready" => {
                self.say("readyok");
            }
            "setoption" => self.set_option(rest),
            "ucinewgame" => {
                self.stop();
                self.shared.clear();
                self.opponent
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .clear();
                self.game = AnyGame::new(self.variant);
            }
            "position" => self.position(rest),
            "go" => self.go(rest),
            "stop" => self.stop(),
            "ponderhit" => self.ponderhit(),
            "quit" => return false,
            "d" => self.display(),
            "bench" => self.bench(rest),
            "flip" | "eval" => {
                let text = match &self.game {
                    AnyGame::TurnBased(g) => static_evaluation(g.position()),
                    AnyGame::TurnBased64(g) => static_evaluation(g.position()),
                    AnyGame::Crowd(g) => static_evaluation(g.position()),
                    AnyGame::Simultaneous(g) => {
                        let p = g.position();
                        let t = crate::eval::tables(p.variant());
                        let cp = crate::eval::evaluate_white(
                            p,
                            &t,
                            -crate::eval::MATE,
                            crate::eval::MATE,
                        );
                        format!(
                            "{}static evaluation: {cp} cp, payoff {:.4} (White)",
                            term_table(p, None),
                            crate::simsearch::leaf_payoff(p, &t)
                        )
                    }
                };
                self.say(&text);
            }
            other => self.error(&format!("unknown command '{other}'")),
        }
        true
    }

    fn set_option(&mut self, rest: &str) {
        let Some(after_name) = rest.strip_prefix("name") else {
            return self.error("setoption needs 'name <id> [value <x>]'");
        };
        let (name, value) = match after_name.split_once(" value") {
            Some((n, v)) => (n.trim(), v.trim()),
            None => (after_name.trim(), ""),
        };
        if self.search.is_some() {
            return self.error("setoption during a search is ignored");
        }
        match name.to_ascii_lowercase().as_str() {
            "uci_variant" => match self.registry.get(value) {
                Some(v) => {
                    self.variant = v;
                    self.game = AnyGame::new(v);
                }
                None => self.error(&format!("unknown variant '{value}'")),
            },
            "variantpath" => {
                if value.is_empty() || value == "<empty>" {
                    return;
                }
                let mut loaded = Vec::new();
                for file in value.split([';', ':']).filter(|f| !f.is_empty()) {
                    match self.registry.load_file(std::path::Path::new(file)) {
                        Ok(v) => loaded.push(v.id().to_string()),
                        Err(e) => return self.error(&e.to_string()),
                    }
                }
                self.say(&format!(
                    "info string loaded variants: {}",
                    loaded.join(", ")
                ));
                // Like Fairy-Stockfish: announce the grown list of variants.
                self.say(&self.variant_option());
            }
            "evalfile" => {
                if value.is_empty() || value == "<empty>" {
                    return;
                }
                if let Err(e) = self.load_eval_file(value) {
                    self.error(&format!("EvalFile {value}: {e}"));
                }
            }
            "evalnet" => {
                if value.is_empty() || value == "<empty>" {
                    return;
                }
                if let Err(e) = self.load_eval_net(value) {
                    self.error(&format!("EvalNet {value}: {e}"));
                }
            }
            "hash" => match value.parse::<usize>() {
                Ok(mb) if (1..=65536).contains(&mb) => {
                    self.hash_mb = mb;
                    self.shared = Arc::new(Shared::new(mb));
                }
                _ => self.error(&format!("Hash must be 1..65536 MB, not '{value}'")),
            },
            "threads" => match value.parse::<usize>() {
                Ok(n) if (1..=256).contains(&n) => self.threads = n,
                _ => self.error(&format!("Threads must be 1..256, not '{value}'")),
            },
            "move overhead" => match value.parse::<u64>() {
                Ok(ms) if ms <= 5000 => self.overhead = Duration::from_millis(ms),
                _ => self.error(&format!("Move Overhead must be 0..5000 ms, not '{value}'")),
            },
            "clear hash" => self.shared.clear(),
            "level" => match value.parse::<u8>() {
                Ok(n) if n <= MAX_LEVEL => self.level = n,
                _ => self.error(&format!("Level must be 0..{MAX_LEVEL}, not '{value}'")),
            },
            "multipv" => match value.parse::<usize>() {
                Ok(n) if (1..=256).contains(&n) => self.multipv = n,
                _ => self.error(&format!("MultiPV must be 1..256, not '{value}'")),
            },
            // The GUI says whether it will ponder; `go ponder` works either way.
            "ponder" => match value {
                "true" | "false" => {}
                _ => self.error(&format!("Ponder must be true or false, not '{value}'")),
            },
            "strategy" => match value.parse::<Strategy>() {
                Ok(st) => self.strategy = st,
                Err(e) => self.error(&e),
            },
            "search" => match value.parse::<SimSearch>() {
                Ok(search) => self.sim_search = search,
                Err(e) => self.error(&e),
            },
            "target" => match value.parse::<Target>() {
                Ok(t) => self.target = t,
                Err(e) => self.error(&e),
            },
            "referencedepth" => match value.parse::<i32>() {
                Ok(d) if (0..=20).contains(&d) => self.reference_plies = d,
                _ => self.error(&format!("ReferenceDepth must be 0..20, not '{value}'")),
            },
            "exploit" => match value {
                "true" => self.exploit = true,
                "false" => self.exploit = false,
                _ => self.error(&format!("Exploit must be true or false, not '{value}'")),
            },
            "seed" => match value.parse::<u64>() {
                Ok(seed) => self.rng = ChaCha8Rng::seed_from_u64(seed),
                Err(_) => self.error(&format!("Seed must be a whole number, not '{value}'")),
            },
            _ => self.error(&format!("unknown option '{name}'")),
        }
    }

    /// A learned evaluation from a file (`parity train` writes them) for
    /// the variant the file names, or `none`: the current variant's
    /// hand-made evaluation.
    fn load_eval_net(&mut self, path: &str) -> Result<(), String> {
        if path == "none" {
            crate::net::set(self.variant, None);
            self.say(&format!(
                "info string hand-made evaluation for {}",
                self.variant.id()
            ));
            return Ok(());
        }
        let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
        let id = crate::net::file_variant(&bytes).map_err(|e| e.to_string())?;
        let v = self
            .registry
            .get(&id)
            .ok_or_else(|| format!("unknown variant '{id}'"))?;
        let net = crate::net::Network::from_bytes(v, &bytes).map_err(|e| e.to_string())?;
        crate::net::set(v, Some(net));
        self.say(&format!(
            "info string learned evaluation for {} from {path}",
            v.id()
        ));
        Ok(())
    }

    /// Evaluation terms from a file (`parity tune` writes them) for the
    /// variant the file names, or the current one.
    fn load_eval_file(&mut self, path: &str) -> Result<(), String> {
        let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
        let v = match crate::eval::variant_of(&text) {
            Some(id) => self
                .registry
                .get(&id)
                .ok_or_else(|| format!("unknown variant '{id}'"))?,
            None => self.variant,
        };
        crate::eval::load_params(v, &text).map_err(|e| e.to_string())?;
        self.say(&format!(
            "info string evaluation terms for {} from {path}",
            v.id()
        ));
        Ok(())
    }

    fn position(&mut self, rest: &str) {
        if self.search.is_some() {
            return self.error("position during a search is ignored; send stop first");
        }
        let (setup, moves) = match rest.split_once(" moves") {
            Some((s, m)) => (s.trim(), m.trim()),
            None => (rest.trim(), ""),
        };
        let start = if setup == "startpos" {
            Ok(None)
        } else if let Some(text) = setup.strip_prefix("fen ") {
            Ok(Some(text.trim()))
        } else {
            Err(format!(
                "position needs 'startpos' or 'fen <fen>', not '{setup}'"
            ))
        };
        let mut game = match start.and_then(|fen| {
            AnyGame::from_fen(self.variant, fen).map_err(|e| format!("bad FEN: {e}"))
        }) {
            Ok(g) => g,
            Err(e) => return self.error(&e),
        };
        // A GUI may go on past the end the rules see (a claimable draw).
        for text in moves.split_whitespace() {
            if let Err(e) = game.play_text(text, true) {
                return self.error(&e);
            }
        }
        self.game = game;
    }

    fn go(&mut self, rest: &str) {
        if self.search.is_some() {
            return self.error("a search is already running");
        }
        if let Err(e) = self.start_search(rest) {
            // A GUI waits for `bestmove` after every `go`: answer a refusal too.
            self.error(&e);
            self.say("bestmove (none)");
        }
    }

    /// Starts the search `go` asks for (or runs `go perft`).
    fn start_search(&mut self, rest: &str) -> Result<(), String> {
        let words: Vec<&str> = rest.split_whitespace().collect();
        if words.first() == Some(&"perft") {
            return match words.get(1).and_then(|d| d.parse::<u32>().ok()) {
                Some(depth) => {
                    self.perft(depth);
                    Ok(())
                }
                None => Err("go perft needs a depth".into()),
            };
        }
        // `side white|black` says whom a simultaneous search plays for.
        let side = match words.iter().position(|w| *w == "side") {
            Some(i) => match words.get(i + 1).copied() {
                Some("white") => Some(Color::White),
                Some("black") => Some(Color::Black),
                other => {
                    return Err(format!(
                        "go side must be white or black, not {}",
                        other.unwrap_or("nothing")
                    ))
                }
            },
            None => None,
        };
        let ponder = words.contains(&"ponder");
        let limit_words: Vec<&str> = match words.iter().position(|w| *w == "side") {
            Some(i) => words[..i].iter().chain(&words[i + 2..]).copied().collect(),
            None => words.clone(),
        };
        let mut limits = parse_limits(&limit_words, self.overhead)?;
        let sim_choice = match (&self.game, side) {
            (AnyGame::Simultaneous(_), _) if ponder => {
                return Err("go ponder is not supported in simultaneous variants (there is no move to ponder on)".into());
            }
            (AnyGame::Simultaneous(_), None) => {
                return Err("a simultaneous variant needs 'go side white|black ...'".into());
            }
            (AnyGame::Simultaneous(g), Some(side)) => {
                // Drawn here, not in the search thread, so a seed fixes every choice.
                let u = (self.rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
                let exploit = self.exploit
                    && self.strategy == Strategy::Mixed
                    && self
                        .opponent
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .evidence(g.positions())
                        > PREDICTABLE;
                let strategy = match self.level {
                    0 => self.strategy,
                    n => {
                        let draw = (self.rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
                        Level::of(n, true).simultaneous_strategy(self.strategy, draw)
                    }
                };
                Some(SimTurn {
                    side,
                    search: self.sim_search,
                    target: self.target.clone(),
                    reference_plies: self.reference_plies,
                    strategy,
                    u,
                    exploit,
                    opponent: self.opponent.clone(),
                })
            }
            (_, Some(_)) => return Err("go side is for simultaneous variants".into()),
            (_, None) => None,
        };
        if ponder {
            // Ponder without limits; `ponderhit` searches again with them,
            // on the table the pondering filled.
            self.pondering = Some(
                words
                    .iter()
                    .filter(|w| **w != "ponder")
                    .copied()
                    .collect::<Vec<_>>()
                    .join(" "),
            );
            limits = Limits {
                infinite: true,
                overhead: self.overhead,
                ..Limits::default()
            };
        }
        // A level plays by its own depth and time, whatever `go` says.
        let level = (self.level > 0 && !ponder)
            .then(|| Level::of(self.level, matches!(self.game, AnyGame::Simultaneous(_))));
        if let Some(level) = level {
            limits = Limits {
                overhead: self.overhead,
                ..level.limits()
            };
        }
        // Drawn here, not in the search thread, so a seed fixes every choice.
        let draws: Vec<f64> = (0..level.map_or(0, |l| l.lines))
            .map(|_| (self.rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64)
            .collect();
        self.shared.stop.store(false, Ordering::Relaxed);
        let out = self.out.clone();
        let shared = self.shared.clone();
        let threads = self.threads;
        let multipv = self.multipv;
        let game = self.game.clone();
        let infinite = limits.infinite;
        self.answered.store(false, Ordering::Relaxed);
        let answered = self.answered.clone();
        let silent = self.silent.clone();
        self.search = Some(std::thread::spawn(move || {
            let mut draws = draws.into_iter();
            let mut random = move || draws.next().unwrap_or(0.5);
            // One call for the three turn-based games, each its own `Game<B>`.
            macro_rules! play_turn {
                ($game:expr) => {
                    play_turn(
                        &$game,
                        level,
                        &mut random,
                        shared.clone(),
                        limits,
                        threads,
                        multipv,
                        &out,
                    )
                };
            }
            let (best, ponder) = match game {
                AnyGame::TurnBased(g) => play_turn!(g),
                AnyGame::TurnBased64(g) => play_turn!(g),
                AnyGame::Crowd(g) => play_turn!(g),
                AnyGame::Simultaneous(g) => {
                    let turn = sim_choice.expect("a simultaneous go names its side");
                    (
                        think_simultaneous(g.positions(), turn, &limits, shared.clone(), &out),
                        None,
                    )
                }
            };
            if infinite {
                // UCI: in infinite mode the answer waits for `stop`.
                while !shared.stop.load(Ordering::Relaxed) {
                    std::thread::sleep(Duration::from_millis(2));
                }
            }
            let mut o = out.lock().unwrap_or_else(|e| e.into_inner());
            // Before the answer leaves: the GUI's next command may come at once.
            answered.store(true, Ordering::Release);
            if silent.load(Ordering::Acquire) {
                return; // a ponder search ended by `ponderhit`
            }
            let _ = match (best, ponder) {
                (Some(b), Some(p)) => writeln!(o, "bestmove {b} ponder {p}"),
                (Some(b), None) => writeln!(o, "bestmove {b}"),
                _ => writeln!(o, "bestmove (none)"),
            };
            let _ = o.flush();
        }));
        Ok(())
    }

    /// The GUI's opponent played the move we pondered on: search for real
    /// with the limits of the `go ponder`, on the table the pondering filled.
    fn ponderhit(&mut self) {
        let Some(words) = self.pondering.take() else {
            return; // not pondering: nothing to do
        };
        self.silent.store(true, Ordering::Release);
        self.stop();
        self.silent.store(false, Ordering::Release);
        self.go(&words);
    }

    /// Stops a running search and waits for its `bestmove`.
    fn stop(&mut self) {
        self.pondering = None;
        if let Some(handle) = self.search.take() {
            self.shared.stop.store(true, Ordering::Relaxed);
            let _ = handle.join();
        }
    }

    /// Ends a search that has answered, so that the next command may start
    /// one (a GUI replies to `bestmove` before the thread has quite ended).
    fn reap(&mut self) {
        if self.search.is_some() && self.answered.load(Ordering::Acquire) {
            self.stop();
        }
    }

    fn perft(&self, depth: u32) {
        let start = Instant::now();
        // A simultaneous turn is written `white:black`, as `position` reads it.
        let lines: Vec<(String, u64)> = self
            .game
            .divide(depth)
            .into_iter()
            .map(|(moves, n)| (moves.join(":"), n))
            .collect();
        let total: u64 = lines.iter().map(|(_, n)| n).sum();
        for (mv, n) in lines {
            self.say(&format!("{mv}: {n}"));
        }
        self.say("");
        self.say(&format!("Nodes searched: {total}"));
        self.say(&format!(
            "info string perft time {} ms",
            start.elapsed().as_millis()
        ));
    }

    fn display(&self) {
        let text = match &self.game {
            AnyGame::TurnBased(g) => describe(g.position()),
            AnyGame::TurnBased64(g) => describe(g.position()),
            AnyGame::Crowd(g) => describe(g.position()),
            AnyGame::Simultaneous(g) => {
                let p = g.position();
                format!(
                    "{}Variant: {}\nFen: {}\nKey: {:016X}\nTurn: {}\nIn check: white {}, black {}",
                    record::sim_diagram(p),
                    p.variant().id(),
                    p.to_fen(),
                    p.hash(),
                    p.turn_number(),
                    p.in_check(Color::White),
                    p.in_check(Color::Black)
                )
            }
        };
        for line in text.lines() {
            self.say(line);
        }
    }

    fn bench(&mut self, rest: &str) {
        let depth = match rest.split_whitespace().next().map(str::parse::<i32>) {
            None => BENCH_DEPTH,
            Some(Ok(d)) if (1..100).contains(&d) => d,
            Some(_) => return self.error("bench takes an optional depth 1..99"),
        };
        let start = Instant::now();
        let mut total = 0;
        // One table for every position, cleared before each (as a new game).
        let shared = Arc::new(Shared::new(DEFAULT_HASH_MB));
        for &(id, fen_text) in BENCH {
            let Some(v) = self.registry.get(id) else {
                continue;
            };
            let game = match AnyGame::from_fen(v, fen_text) {
                Ok(g) => g,
                Err(e) => return self.error(&format!("bad FEN: {e}")),
            };
            shared.clear();
            shared.stop.store(false, Ordering::Relaxed);
            let shared = shared.clone();
            let limits = Limits {
                depth: Some(depth),
                ..Limits::default()
            };
            let started = Instant::now();
            let nodes = match game {
                AnyGame::TurnBased(g) => bench_nodes(g.position(), shared, limits),
                AnyGame::TurnBased64(g) => bench_nodes(g.position(), shared, limits),
                AnyGame::Crowd(g) => bench_nodes(g.position(), shared, limits),
                AnyGame::Simultaneous(_) => {
                    unreachable!("bench lists only turn-based and crowd positions")
                }
            };
            let ms = started.elapsed().as_millis().max(1);
            self.say(&format!(
                "info string bench {id} {}: {nodes} nodes {ms} ms {} nps",
                fen_text.unwrap_or("startpos"),
                nodes as u128 * 1000 / ms
            ));
            total += nodes;
        }
        let ms = start.elapsed().as_millis().max(1);
        self.say("===========================");
        self.say(&format!("Total time (ms) : {ms}"));
        self.say(&format!("Nodes searched  : {total}"));
        self.say(&format!("Nodes/second    : {}", total as u128 * 1000 / ms));
    }
}

/// The static evaluation of a position whose sides move in turn: the
/// table of its terms, then the total for the side to move.
fn static_evaluation<B: TurnPosition>(p: &B) -> String {
    let tables = crate::eval::tables(p.variant());
    let hand_made = crate::eval::evaluate(p, &tables);
    match crate::net::of(p.variant()) {
        Some(net) => format!(
            "{}hand-made evaluation: {hand_made} cp (side to move)\nstatic evaluation: {} cp (side to move, learned)",
            term_table(p, Some(p.side())),
            net.evaluate(p, p.side()) + crate::eval::mop_up(p, &tables)
        ),
        None => format!(
            "{}static evaluation: {hand_made} cp (side to move)",
            term_table(p, Some(p.side()))
        ),
    }
}

/// The `eval` command's table: each group of terms (White's view, named as
/// in the parameter files) and the phase, a line each.
fn term_table<V: PieceView>(p: &V, side: Option<Color>) -> String {
    let t = crate::eval::tables(p.variant());
    let (rows, share) = crate::eval::evaluate_by_group(p, &t, side);
    let rule = "-".repeat(40);
    let mut out = format!("term (White)          mg      eg   mixed\n{rule}\n");
    for (name, value, mixed) in rows.iter().filter(|(_, v, _)| v.mg != 0 || v.eg != 0) {
        let _ = writeln!(out, "{name:<18}{:>7} {:>7} {mixed:>7}", value.mg, value.eg);
    }
    let _ = writeln!(out, "{rule}\nphase: {:.0}% middlegame", share * 100.0);
    out
}

/// What `d` shows of a position whose sides move in turn.
fn describe<B: TurnPosition>(p: &B) -> String {
    format!(
        "{}\nVariant: {}\nFen: {}\nKey: {:016X}\nSide to move: {}\nIn check: {}",
        p.diagram(),
        p.variant().id(),
        p.fen(),
        p.key(),
        p.side().name(),
        p.in_check()
    )
}

/// Nodes of a fixed-depth search from `root` (the `bench` command).
fn bench_nodes<B: TurnPosition>(root: &B, shared: Arc<Shared>, limits: Limits) -> u64 {
    Searcher::new(shared, root.clone(), &[], limits)
        .run(1, |_| {})
        .nodes
}

/// The move of a turn-based or crowd game: the level's choice when a level
/// is set, else the search within `limits`; with the move to ponder on.
#[allow(clippy::too_many_arguments)]
fn play_turn<B: TurnPosition>(
    game: &Game<B>,
    level: Option<Level>,
    random: &mut impl FnMut() -> f64,
    shared: Arc<Shared>,
    limits: Limits,
    threads: usize,
    multipv: usize,
    out: &Output,
) -> (Option<String>, Option<String>) {
    match level {
        Some(level) => {
            let best = level.choose(game.positions(), shared, random);
            (best.map(|m| game.position().uci(m)), None)
        }
        None => think(game.positions(), shared, limits, threads, multipv, out),
    }
}

/// Searches the last position of `line`, printing `info` lines; returns
/// the best move and the expected reply in coordinates.
fn think<B: TurnPosition>(
    line: &[B],
    shared: Arc<Shared>,
    limits: Limits,
    threads: usize,
    multipv: usize,
    out: &Output,
) -> (Option<String>, Option<String>) {
    let (root, before) = line.split_last().expect("a line has a start");
    let keys: Vec<u64> = before.iter().map(TurnPosition::key).collect();
    let searcher = Searcher::new(shared, root.clone(), &keys, limits).with_multipv(multipv);
    let result = searcher.run(threads, |r: &Report| {
        let mut o = out.lock().unwrap_or_else(|e| e.into_inner());
        let _ = writeln!(o, "{}", info_line(root, r, multipv > 1));
        let _ = o.flush();
    });
    let best = result.best.map(|m| root.uci(m));
    let ponder = match (result.best, result.ponder) {
        (Some(b), Some(p)) => Some(root.make(b).uci(p)),
        _ => None,
    };
    (best, ponder)
}

/// What a `go` in a simultaneous game asks for.
struct SimTurn {
    side: Color,
    search: SimSearch,
    target: Target,
    reference_plies: i32,
    strategy: Strategy,
    u: f64,
    exploit: bool,
    /// Hears the opponent's expected strategy after the move is chosen.
    opponent: Arc<Mutex<OpponentModel>>,
}

/// Chooses a simultaneous move, printing the strategy after each depth.
fn think_simultaneous(
    line: &[SimPosition],
    turn: SimTurn,
    limits: &Limits,
    shared: Arc<Shared>,
    out: &Output,
) -> Option<String> {
    let SimTurn {
        side,
        search,
        target,
        reference_plies,
        strategy,
        u,
        exploit,
        opponent,
    } = turn;
    let (root, before) = line.split_last().expect("a line has a start");
    let keys: Vec<u64> = before.iter().map(SimPosition::hash).collect();
    let sim_limits = SimLimits {
        search,
        depth: limits.depth.map(|d| d.max(1) as u32),
        nodes: limits.nodes,
        movetime: limits.movetime,
        time: limits.time[side.index()],
        increment: limits.increment[side.index()],
        overhead: limits.overhead,
    };
    let print = |r: &SimResult| {
        let mut o = out.lock().unwrap_or_else(|e| e.into_inner());
        let _ = writeln!(o, "{}", strategy_line(root, side, r));
        let _ = o.flush();
    };
    let request = simplay::Request {
        side,
        strategy,
        limits: sim_limits,
        u,
        exploit,
    };
    let (mv, result) = if strategy == Strategy::BestResponse {
        simplay::best_response(root, &keys, side, &target, reference_plies, shared)
    } else {
        simplay::choose(root, &keys, &request, shared, print)
    };
    if strategy != Strategy::Mixed && strategy != Strategy::MostLikely {
        print(&result);
    } else {
        let st = &result.stats;
        let mut o = out.lock().unwrap_or_else(|e| e.into_inner());
        let _ = writeln!(
            o,
            "info string stats nodes {} matrix-nodes {} settled-by-bounds {} settled-by-saddle {} lp-nodes {} lp-solves {} rm-solves {} share-without-lp {:.4}",
            st.nodes,
            st.matrix_nodes,
            st.settled_by_bounds,
            st.settled_by_saddle,
            st.lp_nodes,
            st.lp_solves,
            st.rm_solves,
            st.share_without_lp()
        );
    }
    if let Some(m) = mv {
        opponent.lock().unwrap_or_else(|e| e.into_inner()).forecast(
            root,
            side,
            m,
            result.strategy(side.other()),
        );
        if exploit {
            let mut o = out.lock().unwrap_or_else(|e| e.into_inner());
            let _ = writeln!(o, "info string exploit: the opponent looks predictable; answering its most likely move");
        }
    }
    mv.map(|m| notation::uci(&root.side(side), m))
}

/// `info depth D nodes N time T value V strategy m p ... opponent m p ...`
fn strategy_line(root: &SimPosition, side: Color, r: &SimResult) -> String {
    let list = |color: Color| -> String {
        let m = r.strategy(color);
        m.moves
            .iter()
            .zip(&m.probabilities)
            .map(|(mv, p)| format!(" {} {p:.4}", notation::uci(&root.side(color), *mv)))
            .collect()
    };
    format!(
        "info depth {} nodes {} time {} value {:.4} strategy{} opponent{}",
        r.depth,
        r.stats.nodes,
        r.elapsed.as_millis(),
        r.value,
        list(side),
        list(side.other())
    )
}

fn score_text(score: Score) -> String {
    if score > MATE_BOUND {
        format!("mate {}", (MATE - score + 1) / 2)
    } else if score < -MATE_BOUND {
        format!("mate -{}", (MATE + score) / 2)
    } else {
        format!("cp {score}")
    }
}

fn info_line<B: TurnPosition>(root: &B, r: &Report, multipv: bool) -> String {
    let ms = r.elapsed.as_millis();
    let nps = r.nodes as u128 * 1000 / ms.max(1);
    let mut pv = String::new();
    let mut pos = root.clone();
    for &mv in &r.pv {
        pv.push(' ');
        pv.push_str(&pos.uci(mv));
        pos = pos.make(mv);
    }
    let line = if multipv {
        format!(" multipv {}", r.multipv)
    } else {
        String::new()
    };
    format!(
        "info depth {} seldepth {}{line} score {} nodes {} nps {nps} hashfull {} time {ms} pv{pv}",
        r.depth,
        r.seldepth,
        score_text(r.score),
        r.nodes,
        r.hashfull
    )
}

/// Reads the limits of `go`.
pub fn parse_limits(words: &[&str], overhead: Duration) -> Result<Limits, String> {
    let mut l = Limits {
        overhead,
        ..Limits::default()
    };
    let mut i = 0;
    let number = |i: usize| -> Result<u64, String> {
        let key = words[i];
        let value = words
            .get(i + 1)
            .ok_or_else(|| format!("go {key} needs a number"))?;
        // Clocks may run negative in some GUIs: treat as zero.
        value
            .parse::<i64>()
            .map(|n| n.max(0) as u64)
            .map_err(|_| format!("go {key}: '{value}' is not a number"))
    };
    while i < words.len() {
        let ms = |n: u64| Duration::from_millis(n);
        match words[i] {
            "infinite" => l.infinite = true,
            "ponder" => {}
            "depth" => l.depth = Some(number(i)?.clamp(1, 127) as i32),
            "nodes" => l.nodes = Some(number(i)?.max(1)),
            "movetime" => l.movetime = Some(ms(number(i)?)),
            "wtime" => l.time[0] = Some(ms(number(i)?)),
            "btime" => l.time[1] = Some(ms(number(i)?)),
            "winc" => l.increment[0] = ms(number(i)?),
            "binc" => l.increment[1] = ms(number(i)?),
            "movestogo" => l.moves_to_go = Some(number(i)? as u32),
            "mate" => l.depth = Some((2 * number(i)? as i32).clamp(1, 127)),
            "searchmoves" => return Err("go searchmoves is not supported".into()),
            other => return Err(format!("go: unknown limit '{other}'")),
        }
        i += if matches!(words[i], "infinite" | "ponder") {
            1
        } else {
            2
        };
    }
    Ok(l)
}

/// The UCI loop on stdin and stdout.
pub fn run_stdio() {
    let out: Output = Arc::new(Mutex::new(std::io::stdout()));
    Uci::new(out).run(std::io::stdin().lock());
}
