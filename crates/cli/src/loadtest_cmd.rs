//! `parity loadtest`: the load test of `parity_server::loadtest`, in this
//! process or, with `--clients N`, played by N client processes (this
//! program again, `--child`) against one server, so that client and server
//! do not share one process's open files; their reports are merged. With
//! no `--server`, `--clients` starts `parity serve` in its own process on a
//! temporary SQLite file and reports the CPU it spent per move.

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::Duration;

use clap::Args;
use parity_server::base::os;
use parity_server::loadtest::{self, LoadConfig, LoadReport};

#[derive(Args)]
pub struct LoadtestArgs {
    /// Games played at once.
    #[arg(long, default_value_t = 1000)]
    games: usize,
    /// Turns per game at most (then the game is resigned).
    #[arg(long, default_value_t = 20)]
    turns: u32,
    /// A simultaneous variant.
    #[arg(long, default_value = "parity")]
    variant: String,
    /// Moves per second offered by all games together, each game on a
    /// fixed schedule (0: every game as fast as it can).
    #[arg(long, default_value_t = 1000.0)]
    rate: f64,
    /// Play on this running server (http://HOST:PORT) instead of one
    /// in-process; repeated: the nodes of a cluster, games created on
    /// each in turn, each game's black seat on the next node. Start
    /// them with limits lifted for one address (docs/benchmarks.md).
    #[arg(long = "server", value_name = "URL")]
    servers: Vec<String>,
    /// Trust this CA (PEM) for https servers, beside the system's roots.
    #[arg(long, value_name = "FILE")]
    ca_file: Option<PathBuf>,
    /// Play the games from N client processes (each games/N of them at
    /// rate/N), started together, their reports merged; without
    /// `--server`, against `parity serve` started in its own process on a
    /// temporary SQLite file, whose CPU per 1000 moves is reported.
    #[arg(long, value_name = "N")]
    clients: Option<usize>,
    /// The process id of the (local) server played on: its CPU time
    /// while the games play is reported, per 1000 moves.
    #[arg(long, value_name = "PID")]
    server_pid: Option<u32>,
    /// A client process of `--clients`: sets its tables, says `ready`,
    /// plays when a line comes on stdin, prints its report as JSON.
    #[arg(long, hide = true)]
    child: bool,
    /// Where in their slots this process's games start (a fraction).
    #[arg(long, hide = true, default_value_t = 0.0)]
    phase: f64,
}

pub fn run(out: &mut impl Write, args: LoadtestArgs) -> Result<(), String> {
    os::raise_open_files();
    let config = LoadConfig {
        games: args.games,
        turns: args.turns,
        variant: args.variant.clone(),
        rate: (args.rate != 0.0).then_some(args.rate),
        servers: args.servers.clone(),
        ca_file: args.ca_file.clone(),
        phase: args.phase,
    };
    if args.child {
        let report = child(&config)?;
        writeln!(out, "{}", report.to_json()).map_err(|e| e.to_string())?;
        return Ok(());
    }
    let report = match args.clients {
        Some(clients) => with_clients(&args, config, clients.max(1))?,
        None => in_one_process(&config, args.server_pid)?,
    };
    writeln!(out, "{report}").map_err(|e| e.to_string())
}

fn runtime() -> Result<tokio::runtime::Runtime, String> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())
}

/// Every client here; the server's CPU measured from the start of play
/// when its process id is given.
fn in_one_process(config: &LoadConfig, server: Option<u32>) -> Result<LoadReport, String> {
    let before = std::sync::Mutex::new(None);
    let gate = async { *before.lock().expect("not poisoned") = server.and_then(os::process_cpu) };
    let mut report = runtime()?
        .block_on(loadtest::run_gated(config, gate))
        .map_err(|e| format!("loadtest: {e}"))?;
    let before = before.into_inner().expect("not poisoned");
    report.server_cpu = spent(server, before)?;
    Ok(report)
}

fn spent(server: Option<u32>, before: Option<Duration>) -> Result<Option<Duration>, String> {
    let Some(pid) = server else { return Ok(None) };
    match (before, os::process_cpu(pid)) {
        (Some(before), Some(after)) => Ok(Some(after.saturating_sub(before))),
        _ => Err(format!(
            "loadtest: cannot read the CPU time of process {pid} (/proc/{pid}/stat)"
        )),
    }
}

/// A client process: plays once told to on stdin.
fn child(config: &LoadConfig) -> Result<LoadReport, String> {
    let gate = async {
        println!("ready");
        let _ = std::io::stdout().flush();
        let _ =
            tokio::task::spawn_blocking(|| std::io::stdin().read_line(&mut String::new())).await;
    };
    runtime()?
        .block_on(loadtest::run_gated(config, gate))
        .map_err(|e| format!("loadtest: {e}"))
}

/// `parity serve` in its own process on a temporary SQLite file, every
/// per-address limit lifted (all its players share 127.0.0.1).
struct Spawned {
    process: Child,
    url: String,
    _dir: tempfile::TempDir,
}

impl Drop for Spawned {
    fn drop(&mut self) {
        let _ = self.process.kill();
        let _ = self.process.wait();
    }
}

fn spawn_server() -> Result<Spawned, String> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let db = dir.path().join("load.sqlite");
    let lifted = [
        "--games-per-minute",
        "100000000",
        "--actions-per-second",
        "100000000",
        "--max-connections",
        "1000000",
        "--max-connections-per-ip",
        "1000000",
    ];
    let mut process = Command::new(std::env::current_exe().map_err(|e| e.to_string())?)
        .arg("serve")
        .arg("--db")
        .arg(&db)
        .args(["--addr", "127.0.0.1:0"])
        .args(lifted)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| format!("loadtest: starting parity serve: {e}"))?;
    let mut lines = BufReader::new(process.stdout.take().expect("piped")).lines();
    // "Parity server on http://127.0.0.1:PORT/ (database ...)"
    let first = lines.next().and_then(Result::ok).unwrap_or_default();
    std::thread::spawn(move || lines.for_each(drop));
    let url = first
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .map(|w| w.trim_end_matches('/').to_string());
    let mut spawned = Spawned {
        process,
        url: String::new(),
        _dir: dir,
    };
    spawned.url = url.ok_or_else(|| format!("loadtest: parity serve did not start: {first:?}"))?;
    Ok(spawned)
}

struct Client {
    process: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Client {
    fn line(&mut self, k: usize) -> Result<String, String> {
        let mut line = String::new();
        self.stdout
            .read_line(&mut line)
            .map_err(|e| e.to_string())?;
        if line.is_empty() {
            let status = self.process.wait().map_err(|e| e.to_string())?;
            return Err(format!(
                "loadtest: client process {k} stopped ({status}); its error is above"
            ));
        }
        Ok(line)
    }
}

/// The games split over `clients` processes that start playing together.
fn with_clients(
    args: &LoadtestArgs,
    config: LoadConfig,
    clients: usize,
) -> Result<LoadReport, String> {
    let clients = clients.min(config.games.max(1));
    let spawned = match config.servers.is_empty() {
        true => Some(spawn_server()?),
        false => None,
    };
    let servers = match &spawned {
        Some(s) => vec![s.url.clone()],
        None => config.servers.clone(),
    };
    let pid = spawned.as_ref().map(|s| s.process.id()).or(args.server_pid);
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let mut children = Vec::with_capacity(clients);
    for k in 0..clients {
        let games = config.games / clients + usize::from(k < config.games % clients);
        // Each process's share of the rate is its share of the games, so
        // every game keeps the period of the whole load.
        let rate = config
            .rate
            .map_or(0.0, |r| r * games as f64 / config.games as f64);
        let mut command = Command::new(&exe);
        command
            .arg("loadtest")
            .arg("--child")
            .args([
                "--games",
                &games.to_string(),
                "--turns",
                &config.turns.to_string(),
            ])
            .args(["--variant", &config.variant, "--rate", &rate.to_string()])
            .args(["--phase", &(k as f64 / clients as f64).to_string()]);
        for server in &servers {
            command.args(["--server", server]);
        }
        if let Some(ca) = &config.ca_file {
            command.arg("--ca-file").arg(ca);
        }
        let mut process = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .map_err(|e| format!("loadtest: starting client process {k}: {e}"))?;
        let stdin = process.stdin.take().expect("piped");
        let stdout = BufReader::new(process.stdout.take().expect("piped"));
        children.push(Client {
            process,
            stdin,
            stdout,
        });
    }
    let result = play_together(&mut children, pid);
    for child in &mut children {
        let _ = child.process.kill();
        let _ = child.process.wait();
    }
    drop(spawned);
    result
}

fn play_together(children: &mut [Client], pid: Option<u32>) -> Result<LoadReport, String> {
    for (k, child) in children.iter_mut().enumerate() {
        let line = child.line(k)?;
        if line.trim() != "ready" {
            return Err(format!("loadtest: client process {k} said {line:?}"));
        }
    }
    let before = pid.and_then(os::process_cpu);
    for child in children.iter_mut() {
        writeln!(child.stdin, "go").map_err(|e| e.to_string())?;
        child.stdin.flush().map_err(|e| e.to_string())?;
    }
    let mut reports = Vec::with_capacity(children.len());
    for (k, child) in children.iter_mut().enumerate() {
        let line = child.line(k)?;
        let value = serde_json::from_str(&line).map_err(|e| format!("client process {k}: {e}"))?;
        reports.push(LoadReport::from_json(&value)?);
    }
    let mut merged = LoadReport::merge(reports);
    merged.server_cpu = spent(pid, before)?;
    Ok(merged)
}
