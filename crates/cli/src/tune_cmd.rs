//! `parity tune`: the evaluation's terms fitted to game results
//! (docs/engine.md, "Tuning").

use std::io::{BufReader, Write};
use std::path::PathBuf;
use std::time::Instant;

use parity_engine::eval::{self, EvalTables};
use parity_engine::tune::{self, TuneOptions};
use parity_rules::Registry;

use super::Failure;

#[derive(clap::Args)]
pub struct TuneArgs {
    /// Variant id: a turn-based or crowd variant.
    #[arg(long)]
    variant: String,
    /// Positions with White's result, one `FEN [1.0|0.5|0.0]` a line, as
    /// `parity match --positions` writes them; repeatable.
    #[arg(long = "positions", value_name = "FILE", required = true)]
    positions: Vec<PathBuf>,
    /// Write the tuned terms to this file (TOML); default: print them.
    #[arg(long, value_name = "OUT")]
    params: Option<PathBuf>,
    /// Start from the terms of this file (over the built-in ones).
    #[arg(long, value_name = "FILE")]
    start: Option<PathBuf>,
    /// Start from the terms derived from the variant alone, not the built-in tuned ones.
    #[arg(long, conflicts_with = "start")]
    derived: bool,
    /// Passes of the optimiser (Adam) over the whole data set.
    #[arg(long, default_value_t = 2000)]
    epochs: usize,
    /// Adam's step size in centipawns.
    #[arg(long, default_value_t = 1.0)]
    learning_rate: f64,
    /// Keep these terms as they start (a name, or a group such as
    /// `king_danger`); repeatable. The pawn's material is always kept.
    #[arg(long, value_name = "TERM")]
    freeze: Vec<String>,
    /// Pull every term back towards its start: the loss adds
    /// PRIOR * sum(((term - start) / 100)^2). 0 lets terms the data cannot
    /// tell apart drift.
    #[arg(long, default_value_t = 0.0)]
    prior: f64,
    /// Read at most this many positions from each file.
    #[arg(long)]
    limit: Option<usize>,
}

pub fn run(out: &mut impl Write, registry: &Registry, args: TuneArgs) -> Result<(), Failure> {
    let v = registry
        .get_or_err(&args.variant)
        .map_err(|e| e.to_string())?;
    let mut start = if args.derived {
        EvalTables::derived(v).params
    } else {
        eval::tables(v).params.clone()
    };
    if let Some(file) = &args.start {
        let text = std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
        start
            .read_toml(&text)
            .map_err(|e| format!("{}: {e}", file.display()))?;
    }
    if !(args.prior >= 0.0 && args.prior.is_finite()) {
        return Err(Failure::Message(format!(
            "--prior must be a number of at least 0, not {}",
            args.prior
        )));
    }
    let tables = EvalTables::with_params(v, start.clone());
    let began = Instant::now();
    let mut samples = Vec::new();
    for file in &args.positions {
        let f = std::fs::File::open(file).map_err(|e| format!("{}: {e}", file.display()))?;
        let read = tune::read_samples(v, &tables, BufReader::new(f), args.limit)
            .map_err(|e| format!("{}: {e}", file.display()))?;
        writeln!(out, "{}: {} positions", file.display(), read.len())?;
        samples.extend(read);
    }
    if samples.is_empty() {
        return Err(Failure::Message("no positions to tune on".into()));
    }
    writeln!(
        out,
        "{} positions resolved to quiet ones in {:.1} s",
        samples.len(),
        began.elapsed().as_secs_f64()
    )?;
    let options = TuneOptions {
        epochs: args.epochs,
        learning_rate: args.learning_rate,
        frozen: tune::frozen_values(v, &start, &args.freeze),
        prior: args.prior,
    };
    let tuned = tune::tune(v, &start, &samples, &options, |epoch, loss| {
        let _ = writeln!(out, "epoch {epoch}: loss {loss:.6}");
    });
    let summary = format!(
        "{} positions, k {:.4}, loss {:.6} before, {:.6} after",
        tuned.samples, tuned.k, tuned.loss_before, tuned.loss_after
    );
    writeln!(out, "{summary}")?;
    let command: Vec<String> = std::env::args().collect();
    let header = format!(
        "Evaluation terms of {}, tuned from game results by:\n  {}\n{summary}",
        v.id(),
        command.join(" ")
    );
    let text = tuned.params.to_toml(v.id(), &header);
    match &args.params {
        Some(path) => {
            std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))?;
            writeln!(out, "terms written to {}", path.display())?;
        }
        None => write!(out, "{text}")?,
    }
    Ok(())
}
