//! The `parity` command line.

mod account_cmd;
mod bot_cmd;
mod loadtest_cmd;
mod match_cmd;
mod serve_cmd;
mod solve_cmd;
mod study_cmd;
mod train_cmd;
mod tune_cmd;

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use clap::{Parser, Subcommand};
use parity_rules::any::Step;
use parity_rules::simultaneous;
use parity_rules::{notation, record, AnyGame, Color, Registry, Variant};

#[derive(Parser)]
#[command(
    name = "parity",
    version,
    about = "Chess variants: simultaneous, crowd and fairy"
)]
struct Cli {
    /// Load extra variant definitions (TOML); may be given more than once.
    #[arg(long = "variants", global = true, value_name = "FILE")]
    variant_files: Vec<PathBuf>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Count move paths to a depth (bulk-counted at the last ply).
    Perft {
        /// Variant id, e.g. chess, tutti-frutti, parity12.
        variant: String,
        /// Depth in plies.
        depth: u32,
        /// Start from this FEN instead of the variant's start position.
        #[arg(long)]
        fen: Option<String>,
        /// Print the count below each root move.
        #[arg(long)]
        divide: bool,
        /// Simultaneous variants: also count the distinct positions reached.
        #[arg(long)]
        distinct: bool,
    },
    /// Replay a game record (PGN with a [Variant] tag), printing each turn.
    Replay {
        file: PathBuf,
        /// Print only the final position and result.
        #[arg(long)]
        quiet: bool,
    },
    /// Speak UCI on stdin/stdout (Fairy-Stockfish conventions: UCI_Variant, VariantPath).
    Uci,
    /// Play engine-vs-engine games (UCI or XBoard engines, ours included).
    Match(Box<match_cmd::MatchArgs>),
    /// Self-play studies of the variants: White's first-move advantage.
    Study(study_cmd::StudyArgs),
    /// Fit the engine's evaluation terms to game results (Texel-style).
    Tune(Box<tune_cmd::TuneArgs>),
    /// Train a learned evaluation on positions with engines' scores.
    Train(Box<train_cmd::TrainArgs>),
    /// Solve a small simultaneous position exactly: value and equilibrium.
    Solve(solve_cmd::SolveArgs),
    /// Our engine's root strategy against the best response to it, played exactly.
    Exploit(solve_cmd::ExploitArgs),
    /// Run the game server: the web page and the HTTP/WebSocket API (docs/server.md).
    Serve(Box<serve_cmd::ServeArgs>),
    /// Run our engine as a bot account on a server: it accepts challenges
    /// and plays every variant, the simultaneous ones by commit and reveal.
    Bot(bot_cmd::BotArgs),
    /// Load-test the server: N simultaneous games over WebSockets, random
    /// legal moves, durable writes; prints moves/s and turn latency.
    Loadtest(Box<loadtest_cmd::LoadtestArgs>),
    /// Check a game record from the server (GET /api/games/ID/record) without
    /// the server: its signature, commitments against moves and nonces,
    /// legality, the order of events, clocks, the result.
    Verify {
        file: PathBuf,
        /// The server's public key (hex, as `parity serve` prints it and
        /// GET /api/key gives it); the record must be signed by it.
        #[arg(long)]
        key: Option<String>,
        /// Without --key: refuse a record without a signature (one of
        /// release 0.1, or one whose signature was stripped) instead of
        /// calling it unsigned.
        #[arg(long)]
        require_signature: bool,
        /// With --key: accept a record without a signature (release 0.1
        /// wrote none) as unsigned.
        #[arg(long)]
        allow_unsigned: bool,
    },
    /// Copy a live SQLite database, consistent as of one moment, with its
    /// signing key (docs/deploy.md, "Backups"); the server goes on running.
    Backup {
        /// The server's database (its `--db`).
        #[arg(long)]
        db: PathBuf,
        /// The copy to make; never overwritten. Its key goes to OUT.key.
        #[arg(long)]
        out: PathBuf,
    },
    /// Accounts on the server's database (docs/protocol.md, "Accounts and tokens").
    User {
        #[command(subcommand)]
        action: account_cmd::UserAction,
    },
    /// Personal API tokens on the server's database.
    Token {
        #[command(subcommand)]
        action: account_cmd::TokenAction,
    },
    /// List the variants and their pieces, or check a variant file.
    Variants {
        #[command(subcommand)]
        action: Option<VariantsAction>,
    },
}

#[derive(Subcommand)]
enum VariantsAction {
    /// Validate a variant file and describe what it defines.
    Check { file: PathBuf },
}

/// Why a command failed: a message for the user, or output that broke off.
enum Failure {
    Message(String),
    Output(io::Error),
}

impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Failure {
        Failure::Output(e)
    }
}

impl From<String> for Failure {
    fn from(m: String) -> Failure {
        Failure::Message(m)
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        // A reader that stops early (`| head`) is not an error.
        Err(Failure::Output(e)) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(Failure::Output(e)) => {
            eprintln!("error: writing output: {e}");
            ExitCode::FAILURE
        }
        Err(Failure::Message(message)) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

fn run(cli: Cli) -> Result<(), Failure> {
    let mut registry = Registry::builtin();
    for file in &cli.variant_files {
        registry.load_file(file).map_err(|e| e.to_string())?;
    }
    let mut out = io::stdout().lock();
    match cli.command {
        Command::Perft {
            variant,
            depth,
            fen,
            divide,
            distinct,
        } => {
            let variant = registry.get_or_err(&variant).map_err(|e| e.to_string())?;
            let game =
                AnyGame::from_fen(variant, fen.as_deref()).map_err(|e| format!("bad FEN: {e}"))?;
            run_perft(&mut out, &game, depth, divide, distinct)?;
        }
        Command::Variants { action: None } => {
            for v in registry.iter() {
                describe(&mut out, v)?;
            }
        }
        Command::Variants {
            action: Some(VariantsAction::Check { file }),
        } => {
            let text =
                std::fs::read_to_string(&file).map_err(|e| format!("{}: {e}", file.display()))?;
            let v = registry
                .resolve(&file.display().to_string(), &text)
                .map_err(|e| e.to_string())?;
            writeln!(out, "ok: {} is a valid variant", file.display())?;
            describe(&mut out, v)?;
        }
        Command::Replay { file, quiet } => replay(&mut out, &registry, &file, quiet)?,
        Command::Uci => {
            drop(out);
            parity_engine::uci::run_stdio();
        }
        Command::Match(args) => match_cmd::run(&mut out, &registry, *args)?,
        Command::Serve(args) => {
            drop(out);
            serve_cmd::run(registry, &args)?;
        }
        Command::Bot(args) => {
            drop(out);
            bot_cmd::run(registry, args)?;
        }
        Command::Loadtest(args) => loadtest_cmd::run(&mut out, *args)?,
        Command::Backup { db, out } => {
            let text = db.to_string_lossy();
            if let parity_server::store::Database::Postgres(_) =
                parity_server::store::Database::parse(&text)
            {
                return Err(Failure::Message(
                    "a PostgreSQL database is backed up with pg_dump (docs/deploy.md, \"Backups\")"
                        .into(),
                ));
            }
            let made = parity_server::store::backup::backup_sqlite(&db, &out)
                .map_err(|e| format!("backup: {e}"))?;
            println!(
                "{}: {} games, {} events, {} bytes{}",
                out.display(),
                made.games,
                made.events,
                made.bytes,
                match &made.key {
                    Some(key) => format!("; key in {}", key.display()),
                    None => "; no key file beside the database".into(),
                }
            );
        }
        Command::Verify {
            file,
            key,
            require_signature,
            allow_unsigned,
        } => {
            let key = key
                .map(|k| {
                    parity_server::base::signing::parse_key(&k).map_err(|e| format!("--key: {e}"))
                })
                .transpose()?;
            let text =
                std::fs::read_to_string(&file).map_err(|e| format!("{}: {e}", file.display()))?;
            let verified = parity_server::game::verify::verify(&registry, &text, key.as_ref())
                .map_err(|e| format!("{}: the record does not verify: {e}", file.display()))?;
            // A key asks for the server's word: a stripped signature is no answer.
            let signature_needed = require_signature || (key.is_some() && !allow_unsigned);
            if signature_needed && verified.signed == parity_server::game::verify::Signed::No {
                return Err(format!(
                    "{}: the record is not signed (--allow-unsigned accepts one of release 0.1)",
                    file.display()
                )
                .into());
            }
            writeln!(out, "ok ({}): {verified}", verified.signed)?;
        }
        Command::User { action } => account_cmd::user(&mut out, action)?,
        Command::Token { action } => account_cmd::token(&mut out, action)?,
        Command::Study(args) => study_cmd::run(&mut out, &registry, args)?,
        Command::Tune(args) => tune_cmd::run(&mut out, &registry, *args)?,
        Command::Train(args) => train_cmd::run(&mut out, &registry, *args)?,
        Command::Solve(args) => solve_cmd::solve(&mut out, &registry, args)?,
        Command::Exploit(args) => solve_cmd::exploit(&mut out, &registry, args)?,
    }
    Ok(())
}

/// Perft: per root move (per pair of moves, one per side, in a
/// simultaneous variant) with `divide`, then the total and its speed;
/// `distinct` counts the distinct positions of a simultaneous variant too.
fn run_perft(
    out: &mut impl Write,
    game: &AnyGame,
    depth: u32,
    divide: bool,
    distinct: bool,
) -> Result<(), Failure> {
    let start = Instant::now();
    let nodes = if divide && (depth > 0 || !game.is_simultaneous()) {
        let mut sum = 0;
        for (moves, n) in game.divide(depth) {
            writeln!(out, "{}: {n}", moves.join(" "))?;
            sum += n;
        }
        writeln!(out)?;
        sum
    } else {
        game.perft(depth)
    };
    report_speed(out, nodes, start)?;
    if let (true, AnyGame::Simultaneous(g)) = (distinct, game) {
        writeln!(
            out,
            "distinct {}",
            simultaneous::distinct_positions(g.position(), depth)
        )?;
    }
    Ok(())
}

fn report_speed(out: &mut impl Write, nodes: u64, start: Instant) -> Result<(), Failure> {
    let secs = start.elapsed().as_secs_f64();
    writeln!(out, "nodes {nodes}")?;
    writeln!(out, "time {secs:.3} s")?;
    writeln!(out, "nps {:.0}", nodes as f64 / secs.max(1e-9))?;
    Ok(())
}

fn replay(
    out: &mut impl Write,
    registry: &Registry,
    file: &PathBuf,
    quiet: bool,
) -> Result<(), Failure> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
    let rec = record::parse(&text).map_err(|e| format!("{}: {e}", file.display()))?;
    let variant =
        record::variant_of(registry, &rec).map_err(|e| format!("{}: {e}", file.display()))?;
    let mut printed: Result<(), io::Error> = Ok(());
    let result = record::replay_with(variant, &rec, |game, step| {
        if quiet || printed.is_err() {
            return;
        }
        printed = print_step(out, game, step);
    });
    printed?;
    let game = result.map_err(|e| format!("{}: {e}", file.display()))?;
    let verdict = game
        .outcome()
        .map_or("game goes on".to_string(), |o| o.to_string());
    match &game {
        AnyGame::Simultaneous(g) => {
            if quiet {
                write!(out, "{}", record::sim_diagram(g.position()))?;
            }
            writeln!(out, "{} turns; {verdict}", g.turns().len())?;
        }
        _ => writeln!(
            out,
            "{} moves; final {}; {verdict}",
            game.played(),
            game.fen()
        )?,
    }
    Ok(())
}

/// One replayed move, or a turn with its notes and the board after it.
fn print_step(out: &mut impl Write, game: &AnyGame, step: &Step) -> io::Result<()> {
    match (step, game) {
        (&Step::Move { number, color, mv }, _) => {
            let after = game.to_move().expect("a turn-based game");
            writeln!(
                out,
                "{number}{} {}  {}",
                if color == Color::White { "." } else { "..." },
                game.uci(after, mv),
                game.fen()
            )
        }
        (
            Step::Turn {
                number,
                moves,
                notes,
            },
            AnyGame::Simultaneous(g),
        ) => {
            let before = &g.positions()[g.positions().len() - 2];
            let text = |c: Color| notation::uci(&before.side(c), moves[c.index()]);
            writeln!(
                out,
                "turn {number}: white {}  black {}",
                text(Color::White),
                text(Color::Black)
            )?;
            let variant = game.variant();
            for c in Color::ALL {
                let d = record::describe(variant, &notes[c]);
                if !d.is_empty() {
                    writeln!(out, "  {}: {d}", c.name())?;
                }
            }
            write!(out, "{}", record::sim_diagram(g.position()))?;
            writeln!(out, "  {}\n", g.position().to_fen())
        }
        (Step::Turn { .. }, _) => unreachable!("turns are simultaneous"),
    }
}

fn describe(out: &mut impl Write, v: &Variant) -> Result<(), Failure> {
    let s = &v.spec;
    writeln!(
        out,
        "{} ({}): {}x{}, {:?}, castling {:?}",
        s.id, s.name, s.shape.files, s.shape.ranks, s.family, s.castling
    )?;
    if let Some(r) = s.simultaneous {
        writeln!(
            out,
            "  waiting rule {}, single occupation {}, check {:?}",
            r.waiting_rule, r.single_occupation, r.check
        )?;
    }
    for p in &s.pieces {
        writeln!(out, "  {} {:<10} {}", p.letter, p.name, p.betza)?;
    }
    writeln!(out, "  start {}", s.start_fen)?;
    Ok(())
}
