//! `parity study`: self-play studies of the variants (see docs/studies/README.md).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};
use parity_arena::engine::OwnEngine;
use parity_arena::study::{self, report, results, BudgetLists, OpeningSet, Progress, StudyParams};
use parity_arena::study::{Budget, GameResult};
use parity_rules::Registry;

#[derive(clap::Args)]
pub struct StudyArgs {
    #[command(subcommand)]
    command: StudyCommand,
}

#[derive(clap::Subcommand)]
enum StudyCommand {
    /// White's first-move advantage: our engine against itself in each
    /// variant, at one or more budgets; games go to a results file as they
    /// end, and the study resumes from it.
    FirstMove(Box<FirstMoveArgs>),
    /// Write the report of one or more results files (the shards of one
    /// study merge): report.md with SVG and PNG plots.
    Report(ReportArgs),
}

#[derive(clap::Args)]
struct FirstMoveArgs {
    /// Variant ids, comma-separated or repeated: chess, tutti-frutti,
    /// parity12, safety-in-numbers, parity, parity-single, move-neutral.
    #[arg(
        long = "variant",
        value_name = "IDS",
        required = true,
        value_delimiter = ','
    )]
    variants: Vec<String>,
    /// Games per variant and budget.
    #[arg(long)]
    games: usize,
    /// Node budgets per move, comma-separated (each a point of the
    /// score-vs-budget curve).
    #[arg(long, value_name = "N,...")]
    nodes: Option<String>,
    /// Depth budgets: the simultaneous variants' budget when given (1-2 is
    /// their practical range); the others' only without --nodes/--movetime.
    #[arg(long, value_name = "D,...")]
    depth: Option<String>,
    /// Milliseconds per move, comma-separated (games are then not reproducible).
    #[arg(long, value_name = "MS,...")]
    movetime: Option<String>,
    /// Where games start: `start`, `random:PLIES` (even; a simultaneous
    /// turn counts two plies) or an openings file.
    #[arg(long, default_value = "random:8")]
    openings: String,
    /// Seed of the openings and of each game's engine sampling.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The results file (JSON Lines); an existing one for the same study is resumed.
    #[arg(long, value_name = "FILE")]
    results: PathBuf,
    /// Play only shard K of N (0 <= K < N): N processes with the same
    /// parameters and --shard 0/N ... N-1/N play disjoint parts of the
    /// study, each game with the seed it has in the whole study; merge
    /// their results files with `parity study report`.
    #[arg(long, value_name = "K/N")]
    shard: Option<String>,
    /// Games played at the same time (default: the number of cores).
    #[arg(long)]
    concurrency: Option<usize>,
    /// Adjudicate a draw at this many plies (0: never).
    #[arg(long, default_value_t = 600)]
    max_plies: u32,
    /// Simultaneous variants: a draw at this many turns (0: never;
    /// default: half of --max-plies).
    #[arg(long, value_name = "TURNS")]
    max_turns: Option<u32>,
    /// The engine, as for `parity match --engine` (default: our own),
    /// without limits: the budgets set them.
    #[arg(long, value_name = "SPEC", default_value = "parity")]
    engine: String,
    /// Milliseconds an engine may overstep --movetime before it loses on time.
    #[arg(long, value_name = "MS", default_value_t = 100)]
    time_margin: u64,
    /// Seconds to wait for an engine's move without a time budget.
    #[arg(long, value_name = "SECONDS", default_value_t = 30)]
    hang_timeout: u64,
    /// Append each game's quiet positions with its result to this file,
    /// `<FEN> [1.0|0.5|0.0]` a line, for tuning the evaluation (see
    /// docs/match.md); simultaneous variants' games are not written.
    #[arg(long, value_name = "FILE")]
    positions: Option<PathBuf>,
    /// Also write the report into this directory at the end.
    #[arg(long, value_name = "DIR")]
    report: Option<PathBuf>,
}

#[derive(clap::Args)]
struct ReportArgs {
    /// The study's results file, or the files of its shards.
    #[arg(long, value_name = "FILE", required = true, num_args = 1..)]
    results: Vec<PathBuf>,
    /// Directory for report.md and the plots.
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
}

pub fn run(out: &mut impl Write, registry: &Registry, args: StudyArgs) -> Result<(), String> {
    match args.command {
        StudyCommand::FirstMove(a) => first_move(out, registry, &a),
        StudyCommand::Report(a) => write_report(out, &a.results, &a.out),
    }
}

fn params(registry: &Registry, a: &FirstMoveArgs) -> Result<StudyParams, String> {
    let list = |kind: &str, text: &Option<String>| -> Result<Vec<Budget>, String> {
        text.as_deref()
            .map_or(Ok(Vec::new()), |t| Budget::parse_list(kind, t))
    };
    let budgets = BudgetLists {
        nodes: list("nodes", &a.nodes)?,
        depth: list("depth", &a.depth)?,
        movetime: list("movetime", &a.movetime)?,
    };
    StudyParams::first_move(
        registry,
        &a.variants,
        &budgets,
        a.games,
        OpeningSet::parse(&a.openings)?,
        a.seed,
        (a.max_plies > 0).then_some(a.max_plies),
        match a.max_turns {
            Some(t) => (t > 0).then_some(t),
            None => (a.max_plies > 0).then_some(a.max_plies.div_ceil(2)),
        },
        a.engine.clone(),
    )
}

fn first_move(out: &mut impl Write, registry: &Registry, a: &FirstMoveArgs) -> Result<(), String> {
    let params = params(registry, a)?;
    let concurrency = a.concurrency.unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    });
    let shard = match &a.shard {
        Some(text) => study::Shard::parse(text)?,
        None => study::Shard::ALL,
    };
    let options = study::RunOptions {
        results: a.results.clone(),
        shard,
        concurrency: concurrency.max(1),
        hang_timeout: Duration::from_secs(a.hang_timeout.max(1)),
        time_margin: Duration::from_millis(a.time_margin),
        positions: a.positions.clone(),
    };
    if a.positions.is_some() {
        for plan in params.variants.iter().filter(|p| p.simultaneous) {
            let variant = registry.get_or_err(&plan.id).map_err(|e| e.to_string())?;
            if let Some(why) = parity_arena::positions::refuses(variant) {
                eprintln!("note: --positions: {why}; its games are not written");
            }
        }
    }
    let bar = ProgressBar::new(0);
    bar.set_style(
        ProgressStyle::with_template(
            "{bar:30.cyan/blue} {pos}/{len} games  {msg}  [{elapsed_precise} < {eta}]",
        )
        .expect("valid template")
        .progress_chars("=> "),
    );
    // White's wins, draws, Black's wins in the current run.
    let mut wdl = [0u32; 3];
    let mut current = String::new();
    let played = study::run(
        registry,
        &params,
        OwnEngine::current_exe().as_ref(),
        &options,
        |p| match p {
            Progress::Started { total, done } => {
                bar.set_length(total as u64);
                bar.set_position(done as u64);
                // The ETA counts only games played now.
                bar.reset_eta();
            }
            Progress::Run {
                variant, budget, ..
            } => {
                wdl = [0; 3];
                current = format!("{variant} {budget}");
                bar.set_message(current.clone());
            }
            Progress::Game { line } => {
                wdl[match line.result {
                    GameResult::WhiteWins => 0,
                    GameResult::Draw => 1,
                    GameResult::BlackWins => 2,
                }] += 1;
                bar.inc(1);
                bar.set_message(format!("{current}: White {}-{}-{}", wdl[0], wdl[1], wdl[2]));
            }
        },
    );
    bar.finish_and_clear();
    played?;
    let tally = report::tally(&results::read(&a.results)?);
    write!(out, "{}", tally.table()).map_err(|e| format!("writing output: {e}"))?;
    if let Some(dir) = &a.report {
        report::write(&tally, dir)?;
        writeln!(out, "report: {}", dir.join("report.md").display())
            .map_err(|e| format!("writing output: {e}"))?;
    }
    Ok(())
}

fn write_report(out: &mut impl Write, results: &[PathBuf], dir: &Path) -> Result<(), String> {
    let tally = report::tally(&results::read_all(results)?);
    report::write(&tally, dir)?;
    write!(out, "{}", tally.table()).map_err(|e| format!("writing output: {e}"))?;
    writeln!(out, "report: {}", dir.join("report.md").display())
        .map_err(|e| format!("writing output: {e}"))?;
    Ok(())
}
