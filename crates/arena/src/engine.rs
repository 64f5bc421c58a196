//! Engines as child processes: how one is described on the command line
//! ([`EngineSpec`]), the process with its line reader and timeouts
//! ([`Process`]), and the protocol-independent interface ([`Engine`]) that
//! the UCI and XBoard drivers implement.

use std::fmt;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use parity_rules::Color;

use crate::limits::{Limits, TimeControl};

/// The protocol an engine speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    Uci,
    /// XBoard / CECP, protocol version 2.
    Xboard,
}

/// Our own engine: the command that runs `parity uci`.
#[derive(Clone, Debug)]
pub struct OwnEngine {
    pub command: PathBuf,
    pub args: Vec<String>,
}

impl OwnEngine {
    /// The running executable with the argument `uci` (for the `parity` binary).
    pub fn current_exe() -> Option<OwnEngine> {
        std::env::current_exe().ok().map(|command| OwnEngine {
            command,
            args: vec!["uci".into()],
        })
    }
}

/// One engine of a match, as given by `--engine key=value,...`.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineSpec {
    pub name: String,
    pub command: PathBuf,
    pub args: Vec<String>,
    pub dir: Option<PathBuf>,
    pub protocol: Protocol,
    /// UCI `setoption` / XBoard `option` settings, in the order given.
    pub options: Vec<(String, String)>,
    /// Our variant id -> the engine's name for it.
    pub variant_names: Vec<(String, String)>,
    /// Limits for this engine only; unset fields take the match's.
    pub limits: Limits,
    /// Where the engine's standard error goes (discarded when unset).
    pub stderr: Option<PathBuf>,
}

/// The names Fairy-Stockfish gives our variants when it loads the ini of
/// `shared/reference/perft` (an explicit `variant.ID=NAME` wins).
const FAIRY_STOCKFISH_NAMES: &[(&str, &str)] =
    &[("tutti-frutti", "tuttifrutti"), ("parity12", "pacey12x8")];

impl EngineSpec {
    /// Reads `name=N,cmd=PATH,arg=A,dir=D,proto=uci|xboard,option.K=V,variant.ID=NAME,
    /// tc=10+0.1,nodes=N,depth=N,movetime=MS,stderr=FILE`. A spec without
    /// `cmd` is our own engine (`own`, i.e. `parity uci`). A first item
    /// without `=` is the command, or our engine when it is `parity`.
    /// A comma inside a value is written `\,`.
    pub fn parse(text: &str, own: Option<&OwnEngine>) -> Result<EngineSpec, String> {
        let mut name = None;
        let mut command: Option<PathBuf> = None;
        let mut args = Vec::new();
        let mut dir = None;
        let mut protocol = None;
        let mut options = Vec::new();
        let mut variant_names = Vec::new();
        let mut limits = Limits::default();
        let mut stderr = None;
        let mut own_engine = false;
        for (i, item) in split_escaped(text).into_iter().enumerate() {
            let item = item.trim().to_string();
            if item.is_empty() {
                continue;
            }
            let Some((key, value)) = item.split_once('=') else {
                if i == 0 {
                    if item == "parity" {
                        own_engine = true;
                        name = Some(item);
                    } else {
                        command = Some(PathBuf::from(item));
                    }
                    continue;
                }
                return Err(format!("engine `{text}`: `{item}` is not key=value"));
            };
            let (key, value) = (key.trim(), value.trim().to_string());
            let number = |what: &str| -> Result<u64, String> {
                value
                    .parse()
                    .map_err(|_| format!("engine `{text}`: {what} `{value}` is not a whole number"))
            };
            match key {
                "name" => name = Some(value),
                "cmd" => command = Some(PathBuf::from(value)),
                "arg" => args.push(value),
                "dir" => dir = Some(PathBuf::from(value)),
                "proto" | "protocol" => {
                    protocol = Some(match value.as_str() {
                        "uci" => Protocol::Uci,
                        "xboard" | "cecp" | "winboard" => Protocol::Xboard,
                        other => {
                            return Err(format!(
                                "engine `{text}`: unknown protocol `{other}` (uci or xboard)"
                            ))
                        }
                    })
                }
                "tc" => limits.tc = Some(TimeControl::parse(&value)?),
                "nodes" => limits.nodes = Some(number("nodes")?),
                "depth" => limits.depth = Some(number("depth")? as u32),
                "movetime" => limits.movetime = Some(Duration::from_millis(number("movetime")?)),
                "stderr" => stderr = Some(PathBuf::from(value)),
                _ => {
                    if let Some(opt) = key.strip_prefix("option.") {
                        options.push((opt.to_string(), value));
                    } else if let Some(id) = key.strip_prefix("variant.") {
                        variant_names.push((id.to_string(), value));
                    } else {
                        return Err(format!(
                            "engine `{text}`: unknown key `{key}` (name, cmd, arg, dir, proto, option.NAME, variant.ID, tc, nodes, depth, movetime, stderr)"
                        ));
                    }
                }
            }
        }
        let (command, args) = match command {
            Some(c) => (c, args),
            None => {
                own_engine = true;
                let own = own.ok_or_else(|| {
                    format!(
                        "engine `{text}` has no cmd, and our own engine's command is unknown here"
                    )
                })?;
                let mut all = own.args.clone();
                all.extend(args);
                (own.command.clone(), all)
            }
        };
        let name = name.unwrap_or_else(|| {
            if own_engine {
                "parity".to_string()
            } else {
                command
                    .file_stem()
                    .map(|s| s.to_string_lossy().into_owned())
                    .unwrap_or_else(|| "engine".into())
            }
        });
        Ok(EngineSpec {
            name,
            command,
            args,
            dir,
            protocol: protocol.unwrap_or(Protocol::Uci),
            options,
            variant_names,
            limits,
            stderr,
        })
    }

    /// The engine's name for one of our variants.
    pub fn variant_name(&self, id: &str) -> String {
        if let Some((_, n)) = self.variant_names.iter().find(|(v, _)| v == id) {
            return n.clone();
        }
        let stem = self
            .command
            .file_name()
            .map(|s| s.to_string_lossy().to_ascii_lowercase())
            .unwrap_or_default();
        if stem.contains("fairy-stockfish") || stem.contains("fairy_stockfish") {
            if let Some((_, n)) = FAIRY_STOCKFISH_NAMES.iter().find(|(v, _)| *v == id) {
                return n.to_string();
            }
        }
        id.to_string()
    }
}

fn split_escaped(text: &str) -> Vec<String> {
    let mut out = vec![String::new()];
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&',') => {
                out.last_mut().expect("never empty").push(',');
                chars.next();
            }
            ',' => out.push(String::new()),
            c => out.last_mut().expect("never empty").push(c),
        }
    }
    out
}

/// Why an engine lost a game, or could not start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FailureKind {
    /// The process could not be started or failed its handshake.
    Start,
    /// The process exited or closed its output.
    Crash,
    /// No answer within the hang timeout (no clock running).
    Hang,
    /// Its clock (or move time plus margin) ran out.
    Time,
    /// It broke the protocol: a garbled or missing move, a false claim,
    /// a refusal of a legal move.
    Protocol,
    /// It resigned.
    Resign,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    pub kind: FailureKind,
    pub detail: String,
}

impl Failure {
    pub fn new(kind: FailureKind, detail: impl Into<String>) -> Failure {
        Failure {
            kind,
            detail: detail.into(),
        }
    }

    /// No move by the deadline, after `waited`: a loss on time when `late`
    /// is `Time` (a clock or move time ran out), else a hang.
    pub fn late(late: FailureKind, waited: Duration) -> Failure {
        let waited = waited.as_secs_f64();
        match late {
            FailureKind::Time => Failure::new(
                FailureKind::Time,
                format!("loses on time (no move after {waited:.2} s)"),
            ),
            _ => Failure::new(
                FailureKind::Hang,
                format!("hangs (no move after {waited:.1} s)"),
            ),
        }
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.detail)
    }
}

/// An engine's evaluation, from its own point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    Cp(i32),
    /// Mate in that many moves (negative: being mated).
    Mate(i32),
}

impl Score {
    /// Centipawns, mates as ±(30000 - moves).
    pub fn centipawns(self) -> i32 {
        match self {
            Score::Cp(c) => c,
            Score::Mate(m) if m >= 0 => 30_000 - m,
            Score::Mate(m) => -30_000 - m,
        }
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Cp(c) => write!(f, "{:+.2}", *c as f64 / 100.0),
            Score::Mate(m) if *m >= 0 => write!(f, "+M{m}"),
            Score::Mate(m) => write!(f, "-M{}", -m),
        }
    }
}

/// What a game tells an engine at its start.
#[derive(Clone, Debug)]
pub struct GameSetup {
    /// Our variant id.
    pub variant_id: String,
    /// The engine's name for it.
    pub variant: String,
    /// FEN of the start when it is not the variant's own start position.
    pub start_fen: Option<String>,
    pub limits: Limits,
    /// The engine's colour in this game.
    pub color: Color,
    /// A simultaneous variant, played with joint moves (docs/protocol.md).
    pub simultaneous: bool,
    /// Sent as UCI `setoption name Seed value S` when the engine offers
    /// `Seed` (our engine seeds its sampling of mixed strategies with it).
    pub seed: Option<u64>,
}

/// A request for a move.
#[derive(Clone, Debug)]
pub struct MoveRequest<'a> {
    /// Every move from the start, in coordinates.
    pub moves: &'a [String],
    /// Remaining time of White and Black when a clock runs.
    pub clocks: Option<[Duration; 2]>,
    pub increment: Duration,
    /// When the driver gives up waiting.
    pub deadline: Instant,
    /// What a missed deadline means: `Time` (a clock or move time) or `Hang`.
    pub late: FailureKind,
    /// Simultaneous variants: the side to choose a move for (`go side
    /// white|black`); `moves` are then whole turns, `e2e4:e7e5`.
    pub side: Option<Color>,
}

/// A mixed strategy as an engine reports it: moves with their probabilities.
pub type Strategy = Vec<(String, f64)>;

/// An engine's answer.
#[derive(Clone, Debug, PartialEq)]
pub struct Reply {
    pub text: String,
    pub score: Option<Score>,
    pub depth: Option<u32>,
    pub elapsed: Duration,
    /// Simultaneous variants: the expected payoff for White in [-1, 1].
    pub value: Option<f64>,
    /// Simultaneous variants: the engine's mixed strategy for its side...
    pub strategy: Strategy,
    /// ... and its estimate of the opponent's.
    pub opponent: Strategy,
}

impl Reply {
    /// A reply with a move and nothing else reported.
    pub fn new(text: impl Into<String>, elapsed: Duration) -> Reply {
        Reply {
            text: text.into(),
            score: None,
            depth: None,
            elapsed,
            value: None,
            strategy: Vec::new(),
            opponent: Vec::new(),
        }
    }
}

/// One engine process behind a protocol.
pub trait Engine: Send {
    /// The engine's own name (from `id name` / `myname`), if it gave one.
    fn id_name(&self) -> Option<&str>;
    /// Prepares a new game; the engine must be ready to be asked for moves.
    fn new_game(&mut self, setup: &GameSetup) -> Result<(), Failure>;
    /// Asks for a move in the position after `request.moves`.
    fn go(&mut self, request: &MoveRequest) -> Result<Reply, Failure>;
    /// Tells the engine the game ended (XBoard `result`).
    fn game_over(&mut self, result: &str, reason: &str);
    /// Ends the process politely, then for sure.
    fn quit(&mut self);
}

/// A shared protocol log: every line to and from every engine.
pub type Log = Arc<Mutex<Box<dyn Write + Send>>>;

/// Why a line could not be read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReadError {
    Timeout,
    Eof,
}

/// A running child process with a thread that reads its output by lines.
pub struct Process {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    label: String,
    log: Option<Log>,
    started: Instant,
}

impl Process {
    pub fn spawn(spec: &EngineSpec, label: &str, log: Option<Log>) -> Result<Process, Failure> {
        let mut cmd = Command::new(&spec.command);
        cmd.args(&spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped());
        match &spec.stderr {
            Some(path) => {
                let file = std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(path)
                    .map_err(|e| {
                        Failure::new(FailureKind::Start, format!("{}: {e}", path.display()))
                    })?;
                cmd.stderr(file);
            }
            None => {
                cmd.stderr(Stdio::null());
            }
        }
        if let Some(dir) = &spec.dir {
            cmd.current_dir(dir);
        }
        let mut child = cmd.spawn().map_err(|e| {
            Failure::new(
                FailureKind::Start,
                format!("cannot run `{}`: {e}", spec.command.display()),
            )
        })?;
        let stdout = child.stdout.take().expect("stdout was piped");
        let stdin = child.stdin.take();
        let (tx, rx) = mpsc::channel();
        std::thread::Builder::new()
            .name(format!("read {label}"))
            .spawn(move || {
                let mut reader = BufReader::new(stdout);
                let mut buf = Vec::new();
                loop {
                    buf.clear();
                    match reader.read_until(b'\n', &mut buf) {
                        Ok(0) | Err(_) => break,
                        Ok(_) => {
                            let line = String::from_utf8_lossy(&buf)
                                .trim_end_matches(['\n', '\r'])
                                .to_string();
                            if tx.send(line).is_err() {
                                break;
                            }
                        }
                    }
                }
            })
            .map_err(|e| {
                Failure::new(
                    FailureKind::Start,
                    format!("cannot start a reader thread: {e}"),
                )
            })?;
        Ok(Process {
            child,
            stdin,
            lines: rx,
            label: label.to_string(),
            log,
            started: Instant::now(),
        })
    }

    fn write_log(&self, dir: &str, line: &str) {
        if let Some(log) = &self.log {
            if let Ok(mut w) = log.lock() {
                let _ = writeln!(
                    w,
                    "{:>9.3} {} {dir} {line}",
                    self.started.elapsed().as_secs_f64(),
                    self.label
                );
            }
        }
    }

    /// Writes one line; a closed pipe means the engine is gone.
    pub fn send(&mut self, line: &str) -> Result<(), Failure> {
        self.write_log(">", line);
        let ok = match self.stdin.as_mut() {
            Some(stdin) => writeln!(stdin, "{line}")
                .and_then(|_| stdin.flush())
                .is_ok(),
            None => false,
        };
        if ok {
            Ok(())
        } else {
            Err(self.crashed())
        }
    }

    /// Reads one line, waiting until `deadline`.
    pub fn recv(&mut self, deadline: Instant) -> Result<String, ReadError> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(line) => {
                self.write_log("<", &line);
                Ok(line)
            }
            Err(RecvTimeoutError::Timeout) => Err(ReadError::Timeout),
            Err(RecvTimeoutError::Disconnected) => Err(ReadError::Eof),
        }
    }

    /// Reads and logs every line already waiting (output left over from the
    /// last move, such as a result claim after a mating move).
    pub fn drain(&mut self) {
        while let Ok(line) = self.lines.try_recv() {
            self.write_log("<", &line);
        }
    }

    /// A crash failure that says how the process ended, if it did.
    pub fn crashed(&mut self) -> Failure {
        let until = Instant::now() + Duration::from_millis(500);
        let status = loop {
            match self.child.try_wait() {
                Ok(Some(status)) => break Some(status),
                Ok(None) if Instant::now() < until => std::thread::sleep(Duration::from_millis(10)),
                _ => break None,
            }
        };
        let how = match status {
            Some(s) => match (s.code(), signal_of(&s)) {
                (Some(code), _) => format!("exited with code {code}"),
                (None, Some(sig)) => format!("killed by signal {sig}"),
                _ => format!("ended ({s})"),
            },
            None => "closed its output".to_string(),
        };
        self.write_log("!", &how);
        Failure::new(FailureKind::Crash, format!("crashed ({how})"))
    }

    /// Asks the process to end (after `quit` was sent), then kills it.
    pub fn finish(&mut self, grace: Duration) {
        self.stdin = None;
        let until = Instant::now() + grace;
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[cfg(unix)]
fn signal_of(s: &std::process::ExitStatus) -> Option<i32> {
    use std::os::unix::process::ExitStatusExt;
    s.signal()
}

#[cfg(not(unix))]
fn signal_of(_: &std::process::ExitStatus) -> Option<i32> {
    None
}

impl Drop for Process {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn own() -> OwnEngine {
        OwnEngine {
            command: PathBuf::from("/bin/parity"),
            args: vec!["uci".into()],
        }
    }

    #[test]
    fn spec_of_our_engine_and_of_others() {
        let s = EngineSpec::parse("name=a,option.Hash=16", Some(&own())).unwrap();
        assert_eq!(
            (s.name.as_str(), s.command.to_str().unwrap(), s.args.clone()),
            ("a", "/bin/parity", vec!["uci".to_string()])
        );
        assert_eq!(s.options, vec![("Hash".to_string(), "16".to_string())]);
        assert_eq!(
            EngineSpec::parse("parity", Some(&own())).unwrap().name,
            "parity"
        );
        assert!(EngineSpec::parse("name=a", None).is_err());

        let s = EngineSpec::parse(
            "cmd=/usr/games/fairy-stockfish,option.VariantPath=/x/y.ini,variant.chess=chess,nodes=1000,tc=10+0.1",
            Some(&own()),
        )
        .unwrap();
        assert_eq!(s.name, "fairy-stockfish");
        assert_eq!(s.protocol, Protocol::Uci);
        assert_eq!(s.variant_name("tutti-frutti"), "tuttifrutti");
        assert_eq!(s.variant_name("parity12"), "pacey12x8");
        assert_eq!(s.variant_name("chess"), "chess");
        assert_eq!(s.limits.nodes, Some(1000));
        assert_eq!(s.limits.tc.unwrap().increment, Duration::from_millis(100));

        let s = EngineSpec::parse("/usr/games/fairymax,arg=my.ini,proto=xboard,option.Ini File=a\\,b.ini,variant.tutti-frutti=tf", None).unwrap();
        assert_eq!(s.name, "fairymax");
        assert_eq!(s.protocol, Protocol::Xboard);
        assert_eq!(s.args, vec!["my.ini".to_string()]);
        assert_eq!(
            s.options,
            vec![("Ini File".to_string(), "a,b.ini".to_string())]
        );
        assert_eq!(s.variant_name("tutti-frutti"), "tf");

        assert!(EngineSpec::parse("cmd=x,colour=red", None)
            .unwrap_err()
            .contains("unknown key `colour`"));
        assert!(EngineSpec::parse("cmd=x,proto=usi", None).is_err());
        assert!(EngineSpec::parse("cmd=x,nodes=many", None).is_err());
    }

    #[test]
    fn scores() {
        assert_eq!(Score::Cp(-35).to_string(), "-0.35");
        assert_eq!(Score::Mate(3).to_string(), "+M3");
        assert_eq!(Score::Mate(-2).to_string(), "-M2");
        assert_eq!(Score::Mate(3).centipawns(), 29_997);
        assert_eq!(Score::Mate(-2).centipawns(), -29_998);
    }
}
