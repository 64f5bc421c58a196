//! `parity match`: engine-vs-engine games (see docs/match.md).

use std::fs::OpenOptions;
use std::io::{LineWriter, Write};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};
use parity_arena::engine::{EngineSpec, Log, OwnEngine};
use parity_arena::positions::{self, PositionsFile};
use parity_arena::tournament::{self, Event, MatchConfig, Pairing};
use parity_arena::{openings, pgn, Adjudication, DrawRule, Limits, ResignRule, Sprt, TimeControl};
use parity_rules::Registry;

#[derive(clap::Args)]
pub struct MatchArgs {
    /// Variant id: chess, tutti-frutti, parity12, safety-in-numbers, or the
    /// simultaneous parity, parity-single, move-neutral (UCI joint moves).
    #[arg(long, default_value = "chess")]
    variant: String,
    /// An engine, given twice: key=value pairs separated by commas:
    /// name, cmd, arg (repeatable), dir, proto=uci|xboard, option.NAME=VALUE,
    /// variant.ID=NAME, tc, nodes, depth, movetime, stderr. Without cmd it is
    /// our own engine (`parity uci`).
    #[arg(long = "engine", value_name = "SPEC", required = true)]
    engines: Vec<String>,
    /// Clock per side: SECONDS[+INCREMENT], e.g. 10+0.1.
    #[arg(long)]
    tc: Option<String>,
    /// Nodes per move.
    #[arg(long)]
    nodes: Option<u64>,
    /// Depth per move.
    #[arg(long)]
    depth: Option<u32>,
    /// Milliseconds per move.
    #[arg(long, value_name = "MS")]
    movetime: Option<u64>,
    /// Number of games (default 2).
    #[arg(long, conflicts_with = "rounds")]
    games: Option<usize>,
    /// Number of openings, each played twice with colours swapped.
    #[arg(long)]
    rounds: Option<usize>,
    /// Openings file: FEN/EPD lines, move lines, or PGN (see docs/match.md).
    #[arg(long, value_name = "FILE", conflicts_with = "random_openings")]
    openings: Option<PathBuf>,
    /// Random balanced openings of this many plies (the default, 8 plies);
    /// for a simultaneous variant, of this many turns (default 4).
    #[arg(long, value_name = "PLIES")]
    random_openings: Option<usize>,
    /// Seed of the random openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games played at the same time.
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// Adjudicate a draw at this many plies (0: never).
    #[arg(long, default_value_t = 600)]
    max_plies: u32,
    /// Simultaneous variants: adjudicate a draw at this many turns (0: never;
    /// default: half of --max-plies).
    #[arg(long, value_name = "TURNS")]
    max_turns: Option<u32>,
    /// Resign adjudication: moves=N,score=CP (both engines agree for N moves each).
    #[arg(long, value_name = "RULE")]
    resign: Option<String>,
    /// Draw adjudication: movenumber=M,moves=N,score=CP.
    #[arg(long, value_name = "RULE")]
    draw: Option<String>,
    /// Stop when an SPRT decides: elo0=0,elo1=10,alpha=0.05,beta=0.05.
    #[arg(long, value_name = "TEST")]
    sprt: Option<String>,
    /// Append the games to this PGN file.
    #[arg(long, value_name = "FILE")]
    pgn: Option<PathBuf>,
    /// Append each finished game's quiet positions with its result to this
    /// file, `<FEN> [1.0|0.5|0.0]` a line (White's score), for tuning the
    /// evaluation (turn-based and crowd variants; see docs/match.md).
    #[arg(long, value_name = "FILE")]
    positions: Option<PathBuf>,
    /// Write every line to and from the engines to this file.
    #[arg(long, value_name = "FILE")]
    log: Option<PathBuf>,
    /// Milliseconds an engine may overstep its clock before it loses on time.
    #[arg(long, value_name = "MS", default_value_t = 100)]
    time_margin: u64,
    /// Seconds to wait for an engine when no clock runs (and for its start).
    #[arg(long, value_name = "SECONDS", default_value_t = 30)]
    hang_timeout: u64,
    /// The PGN Event tag.
    #[arg(long, default_value = "parity match")]
    event: String,
    /// No line per game, only the final report.
    #[arg(long)]
    quiet: bool,
}

fn config(registry: &Registry, a: &MatchArgs) -> Result<MatchConfig, String> {
    let variant = registry.get_or_err(&a.variant).map_err(|e| e.to_string())?;
    let own = OwnEngine::current_exe();
    if a.engines.len() != 2 {
        return Err(format!(
            "a match needs two --engine, got {}",
            a.engines.len()
        ));
    }
    let engines = [
        EngineSpec::parse(&a.engines[0], own.as_ref())?,
        EngineSpec::parse(&a.engines[1], own.as_ref())?,
    ];
    if engines[0].name == engines[1].name {
        return Err(format!(
            "both engines are named `{}`; give them names with name=",
            engines[0].name
        ));
    }
    let limits = Limits {
        tc: a.tc.as_deref().map(TimeControl::parse).transpose()?,
        nodes: a.nodes,
        depth: a.depth,
        movetime: a.movetime.map(Duration::from_millis),
    };
    let games = match (a.games, a.rounds) {
        (Some(g), _) => g,
        (None, Some(r)) => 2 * r,
        (None, None) => 2,
    };
    let openings = match &a.openings {
        Some(path) => openings::load(path, variant)?,
        None => {
            let default = if parity_arena::sim_board::is_simultaneous(variant) {
                4
            } else {
                8
            };
            openings::random_balanced(
                variant,
                games.div_ceil(2).max(1),
                a.random_openings.unwrap_or(default),
                a.seed,
            )?
        }
    };
    let log: Option<Log> = match &a.log {
        Some(path) => {
            let f = std::fs::File::create(path).map_err(|e| format!("{}: {e}", path.display()))?;
            Some(Arc::new(Mutex::new(Box::new(LineWriter::new(f)))))
        }
        None => None,
    };
    Ok(MatchConfig {
        variant,
        engines,
        limits,
        openings,
        pairing: Pairing::ColoursSwapped,
        games,
        only: None,
        engine_seed: None,
        concurrency: a.concurrency.max(1),
        adjudication: Adjudication {
            max_plies: (a.max_plies > 0).then_some(a.max_plies),
            max_turns: match a.max_turns {
                Some(t) => (t > 0).then_some(t),
                None => (a.max_plies > 0).then_some(a.max_plies.div_ceil(2)),
            },
            resign: a.resign.as_deref().map(ResignRule::parse).transpose()?,
            draw: a.draw.as_deref().map(DrawRule::parse).transpose()?,
        },
        time_margin: Duration::from_millis(a.time_margin),
        hang_timeout: Duration::from_secs(a.hang_timeout.max(1)),
        sprt: a.sprt.as_deref().map(Sprt::parse).transpose()?,
        event: a.event.clone(),
        log,
    })
}

/// Runs the match, printing a line per game (unless quiet) and the report.
pub fn run(out: &mut impl Write, registry: &Registry, args: MatchArgs) -> Result<(), String> {
    let config = config(registry, &args)?;
    let mut positions_file = match &args.positions {
        Some(path) => {
            if let Some(why) = positions::refuses(config.variant) {
                return Err(format!("--positions: {why}"));
            }
            Some(PositionsFile::append(path)?)
        }
        None => None,
    };
    let mut pgn_file = match &args.pgn {
        Some(path) => Some(
            OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .map_err(|e| format!("{}: {e}", path.display()))?,
        ),
        None => None,
    };
    let date = pgn::today();
    let bar = ProgressBar::new(config.games as u64);
    bar.set_style(
        ProgressStyle::with_template(
            "{bar:30.cyan/blue} {pos}/{len} games  {msg}  [{elapsed_precise} < {eta}]",
        )
        .expect("valid template")
        .progress_chars("=> "),
    );
    let mut failure: Option<String> = None;
    let summary = tournament::run(&config, |event| {
        if let Event::GameFinished { game, summary } = event {
            if let Some(f) = pgn_file.as_mut() {
                if let Err(e) = f.write_all(pgn::write(game, &config.event, &date).as_bytes()) {
                    failure.get_or_insert(format!("writing the PGN file: {e}"));
                }
            }
            if let Some(p) = positions_file.as_mut() {
                if let Err(e) = p.write_game(game) {
                    failure.get_or_insert(e);
                }
            }
            if !args.quiet {
                let line = format!(
                    "Finished game {} ({} vs {}): {} {{{}}}",
                    game.number,
                    game.white,
                    game.black,
                    game.ending.result_text(),
                    game.ending.reason
                );
                bar.suspend(|| {
                    if let Err(e) = writeln!(out, "{line}").and_then(|_| out.flush()) {
                        failure.get_or_insert(format!("writing output: {e}"));
                    }
                });
            }
            bar.inc(1);
            bar.set_message(summary.short());
        }
    })?;
    bar.finish_and_clear();
    if let Some(f) = failure {
        return Err(f);
    }
    write!(out, "{}", summary.report()).map_err(|e| format!("writing output: {e}"))?;
    if let Some(p) = &positions_file {
        writeln!(out, "{}", p.summary()).map_err(|e| format!("writing output: {e}"))?;
    }
    Ok(())
}
