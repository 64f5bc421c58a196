//! `parity train`: a learned evaluation fitted to positions with an
//! engine's scores and game results (docs/engine.md, "Learned evaluation").

use std::io::{BufReader, Write};
use std::path::PathBuf;
use std::time::Instant;

use parity_engine::net::train::{self, DataSet, TrainOptions};
use parity_rules::Registry;

use super::Failure;

#[derive(clap::Args)]
pub struct TrainArgs {
    /// Variant id: a turn-based or crowd variant.
    #[arg(long)]
    variant: String,
    /// Positions, one `FEN [result] centipawns` a line, as `parity match
    /// --positions` writes them (centipawns for White); repeatable.
    #[arg(long = "positions", value_name = "FILE", required = true)]
    positions: Vec<PathBuf>,
    /// Write the network to this file (e.g. variants/chess.net).
    #[arg(long, value_name = "OUT")]
    out: PathBuf,
    /// Units of the hidden layer.
    #[arg(long, default_value_t = 128)]
    hidden: usize,
    /// Output buckets, chosen by the number of pieces on the board (equal
    /// shares up to half the board's squares); 1 for a single output.
    #[arg(long, default_value_t = 1)]
    buckets: usize,
    /// The hidden units' activation: `crelu` (clipped to 0..1) or
    /// `screlu` (its square).
    #[arg(long, default_value = "crelu")]
    activation: parity_engine::net::Activation,
    /// Passes over the positions.
    #[arg(long, default_value_t = 20)]
    epochs: usize,
    /// Positions per step of the optimiser (Adam).
    #[arg(long, default_value_t = 4096)]
    batch: usize,
    /// Adam's first step size; it falls to a tenth by the last epoch.
    #[arg(long, default_value_t = 0.002)]
    learning_rate: f32,
    /// Weight of the game's result in each position's target, against the
    /// engine's score (0 to 1; in chess 0 played best, docs/benchmarks.md).
    #[arg(long, default_value_t = 0.0)]
    wdl: f32,
    /// Threads computing the gradient.
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// Seed of the initial weights and of the order of the positions.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Read at most this many positions from each file.
    #[arg(long)]
    limit: Option<usize>,
    /// Also train on each position without castling rights mirrored file
    /// for file (only for variants whose pieces move alike both ways).
    #[arg(long)]
    mirror: bool,
}

pub fn run(out: &mut impl Write, registry: &Registry, args: TrainArgs) -> Result<(), Failure> {
    let v = registry
        .get_or_err(&args.variant)
        .map_err(|e| e.to_string())?;
    if !(0.0..=1.0).contains(&args.wdl) {
        return Err(Failure::Message(format!(
            "--wdl must be between 0 and 1, not {}",
            args.wdl
        )));
    }
    if args.hidden == 0 || args.hidden > parity_engine::net::MAX_HIDDEN {
        return Err(Failure::Message(format!(
            "--hidden must be 1 to {}, not {}",
            parity_engine::net::MAX_HIDDEN,
            args.hidden
        )));
    }
    if args.buckets == 0 || args.buckets > parity_engine::net::MAX_BUCKETS {
        return Err(Failure::Message(format!(
            "--buckets must be 1 to {}, not {}",
            parity_engine::net::MAX_BUCKETS,
            args.buckets
        )));
    }
    if args.mirror && !v.moves_mirror_symmetric() {
        return Err(Failure::Message(format!(
            "--mirror: some piece of {} moves differently to the left and to the right",
            v.id()
        )));
    }
    let began = Instant::now();
    let mut data = DataSet::new(v);
    data.mirror = args.mirror;
    for file in &args.positions {
        let f = std::fs::File::open(file).map_err(|e| format!("{}: {e}", file.display()))?;
        let read = data
            .read(v, BufReader::new(f), args.wdl, args.limit)
            .map_err(|e| format!("{}: {e}", file.display()))?;
        writeln!(out, "{}: {read} positions", file.display())?;
    }
    if data.is_empty() {
        return Err(Failure::Message("no positions to train on".into()));
    }
    writeln!(
        out,
        "{} positions (mirrored copies included) read in {:.1} s",
        data.len(),
        began.elapsed().as_secs_f64()
    )?;
    let options = TrainOptions {
        hidden: args.hidden,
        buckets: args.buckets,
        activation: args.activation,
        epochs: args.epochs,
        batch: args.batch,
        learning_rate: args.learning_rate,
        threads: args.threads,
        seed: args.seed,
        ..TrainOptions::default()
    };
    let mut last = None;
    let net = train::train(&data, &options, |l| {
        let _ = writeln!(
            out,
            "epoch {}: loss {:.6}, held out {:.6} ({:.0} s)",
            l.epoch,
            l.train,
            l.validation,
            began.elapsed().as_secs_f64()
        );
        last = Some(l);
    });
    let command: Vec<String> = std::env::args().collect();
    let summary = last.map_or(String::new(), |l| {
        format!(
            "; {} positions, loss {:.6}, held out {:.6}",
            data.len(),
            l.train,
            l.validation
        )
    });
    let comment = format!("{}{summary}", command.join(" "));
    let bytes = net.quantize(v, comment).to_bytes();
    std::fs::write(&args.out, bytes).map_err(|e| format!("{}: {e}", args.out.display()))?;
    writeln!(out, "network written to {}", args.out.display())?;
    Ok(())
}
