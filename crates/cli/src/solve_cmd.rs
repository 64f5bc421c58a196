//! `parity solve` and `parity exploit`: exact values of small simultaneous
//! positions, and what a best response gains against our engine's strategy
//! (see docs/engine.md, "Exact solutions and exploitability").

use std::io::Write;
use std::sync::Arc;
use std::time::Instant;

use clap::ValueEnum;
use parity_engine::search::Shared;
use parity_engine::simsearch::{Mixed, SimLimits, SimSearch, SimSearcher};
use parity_engine::solve::{SolveError, Solver};
use parity_rules::simultaneous::SimPosition;
use parity_rules::{notation, Color, Move, Registry};

use super::Failure;

/// The position both commands work on.
#[derive(clap::Args)]
pub struct PositionArgs {
    /// Simultaneous variant: parity, parity-single or move-neutral.
    variant: String,
    /// Start from this simultaneous FEN instead of the variant's start position.
    #[arg(long)]
    fen: Option<String>,
    /// Turns to look ahead (at least 1). Full width: keep positions small.
    #[arg(long)]
    depth: u32,
}

#[derive(clap::Args)]
pub struct SolveArgs {
    #[command(flatten)]
    position: PositionArgs,
}

#[derive(clap::Args)]
pub struct ExploitArgs {
    #[command(flatten)]
    position: PositionArgs,
    /// Exploit only this side's strategy (default: both).
    #[arg(long, value_enum)]
    side: Option<Side>,
    /// Depth of our engine's search, in turns (default: --depth).
    #[arg(long, conflicts_with = "nodes")]
    engine_depth: Option<u32>,
    /// Search with this node budget instead of a depth.
    #[arg(long)]
    nodes: Option<u64>,
}

#[derive(Clone, Copy, ValueEnum)]
enum Side {
    White,
    Black,
}

impl Side {
    fn color(self) -> Color {
        match self {
            Side::White => Color::White,
            Side::Black => Color::Black,
        }
    }
}

/// The position, checked: a simultaneous variant, a good FEN, depth >= 1,
/// a game still going on.
fn position(registry: &Registry, args: &PositionArgs) -> Result<SimPosition, Failure> {
    let variant = registry
        .get_or_err(&args.variant)
        .map_err(|e| e.to_string())?;
    if variant.spec.simultaneous.is_none() {
        let sims: Vec<&str> = registry
            .iter()
            .filter(|v| v.spec.simultaneous.is_some())
            .map(|v| v.id())
            .collect();
        return Err(format!(
            "`{}` is not a simultaneous variant; solve and exploit need one of: {}",
            variant.id(),
            sims.join(", ")
        )
        .into());
    }
    let pos = match &args.fen {
        Some(text) => SimPosition::from_fen(variant, text).map_err(|e| format!("bad FEN: {e}"))?,
        None => SimPosition::start(variant),
    };
    if args.depth == 0 {
        return Err(SolveError::DepthZero.to_string().into());
    }
    if let Some(outcome) = pos.outcome() {
        return Err(SolveError::Finished(outcome).to_string().into());
    }
    Ok(pos)
}

fn write_strategy(
    out: &mut impl Write,
    pos: &SimPosition,
    title: &str,
    color: Color,
    moves: &[(Move, f64)],
) -> Result<(), Failure> {
    writeln!(out, "{title}")?;
    for &(mv, p) in moves {
        writeln!(out, "  {:<8} {p:.6}", notation::uci(&pos.side(color), mv))?;
    }
    Ok(())
}

fn pairs(m: &Mixed) -> Vec<(Move, f64)> {
    m.moves
        .iter()
        .copied()
        .zip(m.probabilities.iter().copied())
        .collect()
}

pub fn solve(out: &mut impl Write, registry: &Registry, args: SolveArgs) -> Result<(), Failure> {
    let pos = position(registry, &args.position)?;
    let depth = args.position.depth;
    let start = Instant::now();
    let exact = Solver::new(pos.variant(), &[])
        .solve(&pos, depth)
        .map_err(|e| e.to_string())?;
    writeln!(out, "position {} {}", pos.variant().id(), pos.to_fen())?;
    writeln!(out, "depth {depth} turns")?;
    writeln!(out, "value {:.6} (White's payoff in [-1, 1])", exact.value)?;
    write_strategy(out, &pos, "white strategy", Color::White, &exact.white)?;
    write_strategy(out, &pos, "black strategy", Color::Black, &exact.black)?;
    writeln!(out, "nodes {}", exact.nodes)?;
    writeln!(out, "matrices {} (lp {})", exact.matrices, exact.lp_solves)?;
    writeln!(out, "time {:.3} s", start.elapsed().as_secs_f64())?;
    Ok(())
}

pub fn exploit(
    out: &mut impl Write,
    registry: &Registry,
    args: ExploitArgs,
) -> Result<(), Failure> {
    let pos = position(registry, &args.position)?;
    let depth = args.position.depth;
    let limits = match (args.nodes, args.engine_depth.unwrap_or(depth)) {
        (Some(n), _) => SimLimits {
            nodes: Some(n),
            search: SimSearch::Doab,
            ..SimLimits::default()
        },
        (None, 0) => return Err("engine depth must be at least 1 turn".to_string().into()),
        (None, d) => SimLimits {
            depth: Some(d),
            search: SimSearch::Doab,
            ..SimLimits::default()
        },
    };
    writeln!(out, "position {} {}", pos.variant().id(), pos.to_fen())?;

    let mut searcher = SimSearcher::new(pos.variant(), &[], Arc::new(Shared::new(1)));
    let engine = searcher.run(&pos, &limits, |_| {});
    writeln!(
        out,
        "engine depth {} value {:.6} nodes {} time {:.3} s",
        engine.depth,
        engine.value,
        engine.stats.nodes,
        engine.elapsed.as_secs_f64()
    )?;
    write_strategy(
        out,
        &pos,
        "engine white strategy",
        Color::White,
        &pairs(&engine.white),
    )?;
    write_strategy(
        out,
        &pos,
        "engine black strategy",
        Color::Black,
        &pairs(&engine.black),
    )?;

    let start = Instant::now();
    let mut solver = Solver::new(pos.variant(), &[]);
    let exact = solver.solve(&pos, depth).map_err(|e| e.to_string())?;
    writeln!(
        out,
        "exact depth {depth} value {:.6} nodes {} matrices {} (lp {}) time {:.3} s",
        exact.value,
        exact.nodes,
        exact.matrices,
        exact.lp_solves,
        start.elapsed().as_secs_f64()
    )?;
    writeln!(
        out,
        "value error {:+.6} (engine - exact)",
        engine.value - exact.value
    )?;
    let sides = match args.side {
        Some(s) => vec![s.color()],
        None => Color::ALL.to_vec(),
    };
    for side in sides {
        let x = solver
            .exploit(&pos, depth, side, &pairs(engine.strategy(side)))
            .map_err(|e| e.to_string())?;
        let them = side.other();
        // The gain is >= 0 up to rounding; don't print -0.000000.
        let gain = if x.gain > -1e-9 {
            x.gain.max(0.0)
        } else {
            x.gain
        };
        writeln!(
            out,
            "{} strategy: {}'s best response {}, value against it {:.6}, gain {:.6}",
            side.name(),
            them.name(),
            notation::uci(&pos.side(them), x.best_response),
            x.value_against_strategy,
            gain
        )?;
    }
    Ok(())
}
