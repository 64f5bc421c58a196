//! The `parity` command line.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use clap::{Parser, Subcommand};
use parity_rules::{fen, notation, perft, Position, Registry, Variant};

#[derive(Parser)]
#[command(name = "parity", version, about = "Chess variants: simultaneous, crowd and fairy")]
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

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

fn run(cli: Cli) -> Result<(), String> {
    let mut registry = Registry::builtin();
    for file in &cli.variant_files {
        registry.load_file(file).map_err(|e| e.to_string())?;
    }
    match cli.command {
        Command::Perft { variant, depth, fen, divide } => {
            let variant = registry.get_or_err(&variant).map_err(|e| e.to_string())?;
            let pos = match &fen {
                Some(text) => fen::parse_position(variant, text).map_err(|e| format!("bad FEN: {e}"))?,
                None => Position::start(variant),
            };
            run_perft(&pos, depth, divide);
            Ok(())
        }
        Command::Variants { action: None } => {
            for v in registry.iter() {
                describe(v);
            }
            Ok(())
        }
        Command::Variants { action: Some(VariantsAction::Check { file }) } => {
            let text = std::fs::read_to_string(&file).map_err(|e| format!("{}: {e}", file.display()))?;
            let v = registry.resolve(&file.display().to_string(), &text).map_err(|e| e.to_string())?;
            println!("ok: {} is a valid variant", file.display());
            describe(v);
            Ok(())
        }
    }
}

fn run_perft(pos: &Position, depth: u32, divide: bool) {
    let start = Instant::now();
    let nodes = if divide {
        let mut total = 0;
        for (mv, n) in perft::divide(pos, depth) {
            println!("{}: {n}", notation::uci(pos, mv));
            total += n;
        }
        println!();
        total
    } else {
        perft::perft(pos, depth)
    };
    let secs = start.elapsed().as_secs_f64();
    println!("nodes {nodes}");
    println!("time {secs:.3} s");
    println!("nps {:.0}", nodes as f64 / secs.max(1e-9));
}

fn describe(v: &Variant) {
    let s = &v.spec;
    println!("{} ({}): {}x{}, {:?}, castling {:?}", s.id, s.name, s.shape.files, s.shape.ranks, s.family, s.castling);
    for p in &s.pieces {
        println!("  {} {:<10} {}", p.letter, p.name, p.betza);
    }
    println!("  start {}", s.start_fen);
}
