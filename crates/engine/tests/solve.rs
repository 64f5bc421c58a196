//! The exact solver (`solve.rs`) on hand-checked positions and against a
//! plain recursion without memo, then the simultaneous search measured
//! against it: on small positions in all three simultaneous variants, the
//! search's root value must be within `VALUE_TOLERANCE` of the exact value
//! and its root strategies exploitable by at most `EXPLOIT_TOLERANCE`.
//! Run with `--nocapture` to see the table (docs/benchmarks.md).

use std::sync::Arc;
use std::time::Instant;

use parity_engine::matrix::{pure_saddle_point, solve_lp, Matrix};
use parity_engine::search::Shared;
use parity_engine::simsearch::{leaf_payoff, terminal_payoff, SimLimits, SimSearch, SimSearcher};
use parity_engine::solve::{exploit, solve, SolveError, Solver};
use parity_rules::simultaneous::SimPosition;
use parity_rules::{notation, Color, Move, Registry};

const VALUE_TOLERANCE: f64 = 0.05;
const EXPLOIT_TOLERANCE: f64 = 0.05;

fn pos(variant: &str, fen: &str) -> SimPosition {
    let v = Registry::builtin()
        .get(variant)
        .unwrap_or_else(|| panic!("no variant {variant}"));
    SimPosition::from_fen(v, fen).unwrap_or_else(|e| panic!("{variant} {fen}: {e}"))
}

fn uci(p: &SimPosition, c: Color, mv: Move) -> String {
    notation::uci(&p.side(c), mv)
}

fn names(p: &SimPosition, c: Color, s: &[(Move, f64)]) -> Vec<String> {
    s.iter().map(|&(m, _)| uci(p, c, m)).collect()
}

/// The value as the issue defines it, by plain recursion over the path
/// with no memo: the reference for the solver's memo.
fn plain_value(p: &SimPosition, depth: u32, path: &mut Vec<u64>, game: &[u64]) -> f64 {
    if let Some(o) = p.outcome() {
        return terminal_payoff(&o);
    }
    if path.contains(&p.hash()) || game.contains(&p.hash()) {
        return 0.0;
    }
    if depth == 0 {
        return leaf_payoff(p, &parity_engine::eval::tables(p.variant()));
    }
    plain_game_value(p, depth, path, game)
}

fn plain_game_value(p: &SimPosition, depth: u32, path: &mut Vec<u64>, game: &[u64]) -> f64 {
    let (ws, bs) = (p.legal_moves(Color::White), p.legal_moves(Color::Black));
    path.push(p.hash());
    let g = Matrix::from_fn(ws.len(), bs.len(), |r, c| {
        plain_value(
            &p.resolve_unchecked([ws[r], bs[c]]).position,
            depth - 1,
            path,
            game,
        )
    });
    path.pop();
    pure_saddle_point(&g).map_or_else(|| solve_lp(&g).value, |(_, _, v)| v)
}

// ---------------------------------------------------------------------------
// Hand-checked positions

/// Parity: a lone king must move, and then it is the waiting piece and its
/// side's only one: no legal move at the start of turn 2, a loss. The kings
/// are too far apart to meet, so every pair of moves wins for White.
#[test]
fn a_lone_king_loses_under_the_waiting_rule() {
    let p = pos("parity", "4k3/8/8/8/8/8/8/R3K3 - - 0 1");
    for depth in 1..=2 {
        let e = solve(&p, depth, &[]).unwrap();
        assert_eq!(e.value, 1.0, "depth {depth}");
        let game = Solver::new(p.variant(), &[]).root_game(&p, depth).unwrap();
        assert!(game.payoff.as_slice().iter().all(|&v| v == 1.0));
    }
}

/// Move-neutral: Black's king on a8 has one legal move, to b8 (a7 and b7
/// are the white king's). White's Rh1-h8 meets it there: check along the
/// eighth rank, and a8, c8 (rook) and a7, b7, c7 (king) are covered, so
/// Black is mated at the start of turn 2. No other white move mates.
#[test]
fn mate_in_one_turn_is_found_and_is_the_only_equilibrium_move() {
    let p = pos("move-neutral", "k7/8/1K6/8/8/8/8/7R - - 0 1");
    assert_eq!(
        names(
            &p,
            Color::Black,
            &p.legal_moves(Color::Black)
                .into_iter()
                .map(|m| (m, 1.0))
                .collect::<Vec<_>>()
        ),
        ["a8b8"]
    );
    let e = solve(&p, 1, &[]).unwrap();
    assert_eq!(e.value, 1.0);
    assert_eq!(names(&p, Color::White, &e.white), ["h1h8"]);
    assert_eq!(e.white[0].1, 1.0);
    assert_eq!(names(&p, Color::Black, &e.black), ["a8b8"]);
    // Two turns deep slower mates win too (Rh1-c1 first, say).
    assert_eq!(solve(&p, 2, &[]).unwrap().value, 1.0);
    // At depth 1 every other white move leads to a non-terminal leaf.
    let game = Solver::new(p.variant(), &[]).root_game(&p, 1).unwrap();
    let mates = game.payoff.as_slice().iter().filter(|&&v| v == 1.0).count();
    assert_eq!(mates, 1);
}

/// Parity: Black's knight moved last turn and must wait, so White's
/// Rd1xd5 cannot fail. It is White's equilibrium move, a pure saddle point,
/// and the value is Black's best king or pawn move after losing the knight.
#[test]
fn a_forced_capture_of_a_waiting_piece() {
    let p = pos("parity", "4k3/6p1/8/3n'4/8/8/8/3RK3 - - 0 1");
    let t = parity_engine::eval::tables(p.variant());
    let take = p
        .legal_moves(Color::White)
        .into_iter()
        .find(|&m| uci(&p, Color::White, m) == "d1d5")
        .unwrap();
    let worst_after_capture = p
        .legal_moves(Color::Black)
        .into_iter()
        .map(|b| {
            let next = p.resolve_unchecked([take, b]).position;
            assert_eq!(next.by_color(Color::Black).count(), 2, "the knight is gone");
            next.outcome()
                .map_or_else(|| leaf_payoff(&next, &t), |o| terminal_payoff(&o))
        })
        .fold(f64::INFINITY, f64::min);
    let e = solve(&p, 1, &[]).unwrap();
    assert_eq!(names(&p, Color::White, &e.white), ["d1d5"]);
    assert!(
        (e.value - worst_after_capture).abs() < 1e-12,
        "{} vs {worst_after_capture}",
        e.value
    );
    assert_eq!(e.lp_solves, 0, "a pure saddle point needs no LP");
    // Two turns deep the capture is still the only equilibrium move.
    let e2 = solve(&p, 2, &[]).unwrap();
    assert_eq!(names(&p, Color::White, &e2.white), ["d1d5"]);
}

/// Parity-single: both knights arrived on f3 together and must leave it
/// now, without capturing. Each side guesses where the other goes (two
/// turns deep): no pure saddle point, and a mixed equilibrium that neither
/// best response gains against.
#[test]
fn a_guessing_game_has_a_mixed_equilibrium_with_zero_exploitability() {
    let p = pos("parity-single", "4k3/8/8/8/7p/5(N'n')2/3P4/4K3 - - 1 2");
    let mut solver = Solver::new(p.variant(), &[]);
    let game = solver.root_game(&p, 2).unwrap();
    assert!(pure_saddle_point(&game.payoff).is_none());
    assert!(p
        .legal_moves(Color::White)
        .iter()
        .all(|m| uci(&p, Color::White, *m).starts_with("f3")));
    let e = solver.solve(&p, 2).unwrap();
    assert!(e.lp_solves >= 1);
    for (side, strategy) in [(Color::White, &e.white), (Color::Black, &e.black)] {
        assert!(strategy.len() >= 2, "{side:?} mixes: {strategy:?}");
        assert!((strategy.iter().map(|s| s.1).sum::<f64>() - 1.0).abs() < 1e-9);
        let x = solver.exploit(&p, 2, side, strategy).unwrap();
        assert!(
            x.gain.abs() < 1e-9,
            "{side:?}: the equilibrium is exploitable by {}",
            x.gain
        );
        assert!((x.exact_value - e.value).abs() < 1e-12);
        // Any single move of the support is exploitable.
        let pure = solver.exploit(&p, 2, side, &strategy[..1]).unwrap();
        assert!(pure.gain > 1e-6, "{side:?}: a pure move is not exploitable");
    }
}

#[test]
fn exploiting_a_pure_mistake_gains_what_it_gives_away() {
    // In the mate-in-one position, White's h1h2 lets Black escape; the only
    // reply is a8b8, and the gain is 1 less that cell's value.
    let p = pos("move-neutral", "k7/8/1K6/8/8/8/8/7R - - 0 1");
    let h2 = p
        .legal_moves(Color::White)
        .into_iter()
        .find(|&m| uci(&p, Color::White, m) == "h1h2")
        .unwrap();
    let mut solver = Solver::new(p.variant(), &[]);
    let game = solver.root_game(&p, 2).unwrap();
    let r = game.white.iter().position(|&m| m == h2).unwrap();
    let x = solver.exploit(&p, 2, Color::White, &[(h2, 1.0)]).unwrap();
    assert_eq!(uci(&p, Color::Black, x.best_response), "a8b8");
    assert_eq!(x.value_against_strategy, game.payoff[(r, 0)]);
    assert!((x.gain - (1.0 - game.payoff[(r, 0)])).abs() < 1e-12);
    assert!(x.gain > 0.0);
    // Black's only move cannot be exploited.
    let b8 = game.black[0];
    let y = exploit(&p, 2, &[], Color::Black, &[(b8, 1.0)]).unwrap();
    assert!(y.gain.abs() < 1e-12);
}

#[test]
fn errors_are_reported() {
    let p = pos("parity", "4k3/8/8/3n4/8/8/8/3RK3 - - 0 1");
    assert_eq!(solve(&p, 0, &[]).unwrap_err(), SolveError::DepthZero);
    let done = pos("parity", "4k'3/8/8/8/8/8/8/R3K3 - - 1 2");
    assert!(matches!(solve(&done, 2, &[]), Err(SolveError::Finished(_))));
    let black_move = p.legal_moves(Color::Black)[0];
    let err = exploit(&p, 1, &[], Color::White, &[(black_move, 1.0)]).unwrap_err();
    assert!(
        matches!(err, SolveError::IllegalMove { side: "white", .. }),
        "{err}"
    );
    let white_move = p.legal_moves(Color::White)[0];
    assert_eq!(
        exploit(&p, 1, &[], Color::White, &[(white_move, 0.0)]).unwrap_err(),
        SolveError::EmptyStrategy
    );
}

/// A child that repeats a game position scores 0 whatever it is worth.
#[test]
fn game_keys_count_as_repetitions() {
    let p = pos("move-neutral", "4k3/8/8/3n4/8/8/8/3RK3 - - 0 1");
    let mut plain = Solver::new(p.variant(), &[]);
    let game = plain.root_game(&p, 2).unwrap();
    let child = p.resolve_unchecked([game.white[3], game.black[2]]).position;
    assert_ne!(game.payoff[(3, 2)], 0.0);
    let mut with_history = Solver::new(p.variant(), &[child.hash()]);
    let repeated = with_history.root_game(&p, 2).unwrap();
    assert_eq!(repeated.payoff[(3, 2)], 0.0);
}

/// The memo never changes a value: against plain recursion, three turns
/// deep, including move-neutral where two-turn repetitions happen (a king
/// steps out and back) and game keys.
#[test]
fn memo_agrees_with_plain_recursion() {
    let cases = [
        ("move-neutral", "4k3/8/8/8/8/8/4P3/4K3 - - 0 1", 3),
        ("move-neutral", "8/8/4k3/8/8/8/2N5/4K3 - - 0 1", 3),
        ("parity", "4k3/4p3/8/8/8/8/4P3/4K3 - - 0 1", 3),
        ("parity-single", "4k3/8/8/8/6(P'p')1/8/8/4K3 - - 0 2", 3),
        ("parity", "4k3/8/8/3n4/8/8/8/3RK3 - - 0 1", 2),
    ];
    for (variant, fen, depth) in cases {
        let p = pos(variant, fen);
        // A game key two turns back from one of the grandchildren.
        let game_keys = [
            p.hash() ^ 1,
            p.resolve_unchecked([
                p.legal_moves(Color::White)[0],
                p.legal_moves(Color::Black)[0],
            ])
            .position
            .hash(),
        ];
        for keys in [&game_keys[..1], &game_keys[..]] {
            let exact = solve(&p, depth, keys).unwrap();
            let reference = plain_game_value(&p, depth, &mut Vec::new(), keys);
            assert!(
                (exact.value - reference).abs() < 1e-9,
                "{variant} {fen} depth {depth}: {} vs {reference}",
                exact.value
            );
        }
    }
}

// ---------------------------------------------------------------------------
// The search against exact solutions

/// Small positions: kings and one to three pieces, some with last-moved
/// markers or shared squares. (variant, FEN, depth in turns)
const POSITIONS: &[(&str, &str, u32)] = &[
    // parity
    ("parity", "4k3/8/8/3n4/8/8/8/3RK3 - - 0 1", 3),
    ("parity", "4k3/8/8/3n'4/8/8/8/3RK3 - - 0 1", 2),
    ("parity", "4k3/6p1/8/3n'4/8/8/8/3RK3 - - 0 1", 2),
    ("parity", "6k1/5p2/8/8/8/8/1B6/6K1 - - 0 1", 3),
    ("parity", "4k3/8/8/8/3(Pp)4/8/8/4K3 - - 0 1", 3),
    ("parity", "8/8/3k4/8/2N'1p3/8/4K3/8 - - 0 1", 2),
    ("parity", "4k3/8/8/2(Nb)5/8/8/8/4K3 - - 0 1", 3),
    ("parity", "4k3/8/8/8/8/5q2/8/R3K3 - - 0 1", 2),
    ("parity", "4k3/8/2b'5/8/8/5N2/8/4K3 - - 0 1", 3),
    ("parity", "4k3/3p4/8/8/8/2N5/3P4/4K3 - - 0 1", 2),
    // parity-single
    ("parity-single", "4k3/8/8/8/6(P'p')1/8/8/4K3 - - 0 2", 3),
    ("parity-single", "4k3/8/8/8/7p/5(N'n')2/3P4/4K3 - - 1 2", 3),
    ("parity-single", "4k3/8/8/3n4/8/8/8/3RK3 - - 0 1", 3),
    ("parity-single", "8/8/3k4/8/2N'1p3/8/4K3/8 - - 0 1", 2),
    ("parity-single", "4k3/8/8/2(Nb)5/8/8/8/4K3 - - 0 1", 3),
    ("parity-single", "6k1/5p2/8/8/8/8/1B6/6K1 - - 0 1", 3),
    ("parity-single", "4k3/8/8/8/8/5q2/8/R3K3 - - 0 1", 2),
    // move-neutral (no waiting rule, so no markers)
    ("move-neutral", "k7/8/1K6/8/8/8/8/7R - - 0 1", 2),
    ("move-neutral", "4k3/8/8/8/8/8/4P3/4K3 - - 0 1", 3),
    ("move-neutral", "8/8/4k3/8/8/8/2N5/4K3 - - 0 1", 3),
    ("move-neutral", "4k3/8/8/8/3(Pp)4/8/8/4K3 - - 0 1", 3),
    ("move-neutral", "6k1/5p2/8/8/8/8/1B6/6K1 - - 0 1", 3),
    ("move-neutral", "8/8/3k4/8/2N1p3/8/4K3/8 - - 0 1", 3),
    ("move-neutral", "4k3/8/8/8/8/5q2/8/R3K3 - - 0 1", 2),
    ("move-neutral", "4k3/8/8/2(Nb)5/8/8/8/4K3 - - 0 1", 2),
    ("move-neutral", "4k3/8/8/3n4/8/8/8/3RK3 - - 0 1", 2),
];

struct Row {
    label: String,
    depth: u32,
    exact: f64,
    engine: f64,
    exploit: [f64; 2],
    nodes: u64,
    lps: u64,
    ms: u128,
}

#[test]
fn search_matches_exact_solutions() {
    assert!(POSITIONS.len() >= 20);
    let mut rows = Vec::new();
    // Each search against the exact solution with its own leaves.
    for search in [SimSearch::Doab, SimSearch::Tdoab] {
        for &(variant, fen, depth) in POSITIONS {
            let p = pos(variant, fen);
            let start = Instant::now();
            let mut solver =
                Solver::new(p.variant(), &[]).with_leaves(search.static_leaves(p.rules()));
            let exact = solver.solve(&p, depth).unwrap();
            let mut searcher = SimSearcher::new(p.variant(), &[], Arc::new(Shared::new(1)));
            let r = searcher.run(
                &p,
                &SimLimits {
                    depth: Some(depth),
                    search,
                    ..SimLimits::default()
                },
                |_| {},
            );
            assert_eq!(r.depth, depth);
            let mut exploit = [0.0; 2];
            for side in Color::ALL {
                let m = r.strategy(side);
                let strategy: Vec<(Move, f64)> = m
                    .moves
                    .iter()
                    .copied()
                    .zip(m.probabilities.iter().copied())
                    .collect();
                let x = solver.exploit(&p, depth, side, &strategy).unwrap();
                assert!(x.gain > -1e-9, "negative gain {}", x.gain);
                exploit[side.index()] = x.gain.max(0.0);
            }
            rows.push(Row {
                label: format!("{} {variant} {fen}", search.name()),
                depth,
                exact: exact.value,
                engine: r.value,
                exploit,
                nodes: exact.nodes,
                lps: exact.lp_solves,
                ms: start.elapsed().as_millis(),
            });
        }
    }
    println!("\n| position | depth | exact | engine | error | exploit W | exploit B | exact nodes | LPs | ms |");
    println!("|---|---|---|---|---|---|---|---|---|---|");
    let mut failures = Vec::new();
    for r in &rows {
        let error = r.engine - r.exact;
        let bad = error.abs() > VALUE_TOLERANCE || r.exploit.iter().any(|&e| e > EXPLOIT_TOLERANCE);
        println!(
            "| `{}` | {} | {:.6} | {:.6} | {:+.1e} | {:.1e} | {:.1e} | {} | {} | {}{} |",
            r.label,
            r.depth,
            r.exact,
            r.engine,
            error,
            r.exploit[0],
            r.exploit[1],
            r.nodes,
            r.lps,
            r.ms,
            if bad { " FAIL" } else { "" }
        );
        if bad {
            failures.push(format!(
                "{} depth {}: error {error:+.4}, exploitability W {:.4} B {:.4}",
                r.label, r.depth, r.exploit[0], r.exploit[1]
            ));
        }
    }
    let worst_error = rows
        .iter()
        .map(|r| (r.engine - r.exact).abs())
        .fold(0.0, f64::max);
    let worst_exploit = rows.iter().flat_map(|r| r.exploit).fold(0.0, f64::max);
    println!("\n{} positions; worst value error {worst_error:.1e}, worst exploitability {worst_exploit:.1e}", rows.len());
    assert!(
        failures.is_empty(),
        "the search misses the exact solution on {} positions:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
