//! Matrix-game solvers against hand-derived equilibria, degenerate shapes
//! and random games.

use parity_engine::matrix::{
    best_response_col, best_response_row, exploitability, pure_saddle_point, run_rm_plus, solve,
    solve_lp, solve_rm_plus, Matrix, Method, Solution, LP_MAX_CELLS, RM_RELATIVE_TARGET,
};
use proptest::prelude::*;

/// SplitMix64 payoffs in [-1, 1), reproducible without a rand dependency.
fn random_game(rows: usize, cols: usize, seed: u64) -> Matrix {
    let mut s = seed;
    Matrix::from_fn(rows, cols, |_, _| {
        s = s.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = s;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        (z >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
    })
}

fn assert_distribution(p: &[f64]) {
    assert!(p.iter().all(|&x| x >= 0.0), "negative probability in {p:?}");
    assert!(
        (p.iter().sum::<f64>() - 1.0).abs() < 1e-9,
        "{p:?} does not sum to 1"
    );
}

/// Checks an equilibrium: both guarantees meet at the value.
fn assert_equilibrium(g: &Matrix, s: &Solution, tol: f64) {
    assert_distribution(&s.row_strategy);
    assert_distribution(&s.col_strategy);
    let row_guarantee = best_response_col(g, &s.row_strategy).1;
    let col_guarantee = best_response_row(g, &s.col_strategy).1;
    assert!(
        exploitability(g, &s.row_strategy, &s.col_strategy) < tol,
        "{s:?} is exploitable in {g:?}"
    );
    assert!(
        (s.value - row_guarantee).abs() < tol,
        "value {} vs row guarantee {row_guarantee}",
        s.value
    );
    assert!(
        (s.value - col_guarantee).abs() < tol,
        "value {} vs column guarantee {col_guarantee}",
        s.value
    );
}

fn assert_close(got: &[f64], want: &[f64], tol: f64) {
    assert_eq!(got.len(), want.len());
    assert!(
        got.iter().zip(want).all(|(a, b)| (a - b).abs() < tol),
        "{got:?} != {want:?}"
    );
}

/// LP, `solve` and RM+ all find the known, unique equilibrium.
fn check_known(g: &Matrix, row: &[f64], col: &[f64], value: f64) {
    let lp = solve_lp(g);
    assert_equilibrium(g, &lp, 1e-9);
    assert_close(&lp.row_strategy, row, 1e-9);
    assert_close(&lp.col_strategy, col, 1e-9);
    assert!(
        (lp.value - value).abs() < 1e-9,
        "LP value {} != {value}",
        lp.value
    );

    let (s, _) = solve(g);
    assert_close(&s.row_strategy, row, 1e-9);
    assert_close(&s.col_strategy, col, 1e-9);

    // RM+ converges roughly as 1/T here: 1e-4 takes up to ~50k iterations.
    let run = run_rm_plus(g, None, 100_000, 1e-4);
    assert!(
        run.exploitability <= 1e-4,
        "RM+ stopped at {} after {}",
        run.exploitability,
        run.iterations
    );
    assert_close(&run.solution.row_strategy, row, 1e-2);
    assert_close(&run.solution.col_strategy, col, 1e-2);
    assert!((run.solution.value - value).abs() < 1e-4);
}

#[test]
fn matching_pennies() {
    let g = Matrix::from_rows(&[[1.0, -1.0], [-1.0, 1.0]]);
    assert_eq!(pure_saddle_point(&g), None);
    check_known(&g, &[0.5, 0.5], &[0.5, 0.5], 0.0);
    assert_eq!(solve(&g).1, Method::Lp);
}

#[test]
fn rock_paper_scissors() {
    let g = Matrix::from_rows(&[[0.0, -1.0, 1.0], [1.0, 0.0, -1.0], [-1.0, 1.0, 0.0]]);
    let third = [1.0 / 3.0; 3];
    check_known(&g, &third, &third, 0.0);
}

/// Weighted RPS: rock beats scissors by `a`, paper beats rock by `b`,
/// scissors beat paper by `c` (rows and columns R, P, S):
///
/// ```text
///      R   P   S
///  R   0  -b   a
///  P   b   0  -c
///  S  -a   c   0
/// ```
///
/// The matrix is skew-symmetric, so the value is 0 and both players share
/// an equilibrium. A fully mixed `x` must make every column pay 0:
/// column R: `b xP - a xS = 0`, column P: `c xS - b xR = 0`, column S:
/// `a xR - c xP = 0`, solved by `xR : xP : xS = c : a : b`. Doubling rock's
/// win (a = 2, b = c = 1) thus gives (1/4, 1/2, 1/4): paper gains.
fn weighted_rps(a: f64, b: f64, c: f64) -> (Matrix, [f64; 3]) {
    let g = Matrix::from_rows(&[[0.0, -b, a], [b, 0.0, -c], [-a, c, 0.0]]);
    let s = a + b + c;
    (g, [c / s, a / s, b / s])
}

#[test]
fn rps_with_rock_winning_double() {
    let (g, x) = weighted_rps(2.0, 1.0, 1.0);
    assert_close(&x, &[0.25, 0.5, 0.25], 1e-15);
    check_known(&g, &x, &x, 0.0);
}

#[test]
fn rps_with_three_different_weights() {
    let (g, x) = weighted_rps(1.0, 2.0, 3.0);
    assert_close(&x, &[0.5, 1.0 / 6.0, 1.0 / 3.0], 1e-15);
    check_known(&g, &x, &x, 0.0);
}

/// RPS where the row player's wins pay 2 and losses cost 1. Every row and
/// every column of this circulant holds 0, -1 and 2, so uniform play by
/// either side makes the other indifferent: uniform against uniform is an
/// equilibrium worth (0 - 1 + 2) / 3 = 1/3 (unique, as the LP-exact
/// strategies confirm).
#[test]
fn rps_where_row_wins_pay_double() {
    let g = Matrix::from_rows(&[[0.0, -1.0, 2.0], [2.0, 0.0, -1.0], [-1.0, 2.0, 0.0]]);
    let third = [1.0 / 3.0; 3];
    check_known(&g, &third, &third, 1.0 / 3.0);
}

/// Shifting and scaling payoffs moves the value alike and keeps the
/// strategies: all-negative and large payoffs.
#[test]
fn negative_and_large_payoffs() {
    let (g, x) = weighted_rps(2.0, 1.0, 1.0);
    let shifted = Matrix::from_fn(3, 3, |r, c| g[(r, c)] - 5.0);
    assert!(shifted.as_slice().iter().all(|&v| v < 0.0));
    check_known(&shifted, &x, &x, -5.0);
    let scaled = Matrix::from_fn(3, 3, |r, c| 1000.0 * g[(r, c)] + 250.0);
    let lp = solve_lp(&scaled);
    assert_close(&lp.row_strategy, &x, 1e-9);
    assert!((lp.value - 250.0).abs() < 1e-7);
}

/// A 2x2 game `[[a, b], [c, d]]` without a saddle point makes each player
/// indifferent: `x a + (1-x) c = x b + (1-x) d` gives
/// `x = (d - c) / (a - b - c + d)`, likewise `y = (d - b) / (a - b - c + d)`
/// and the value `(ad - bc) / (a - b - c + d)`. For `[[3, -1], [-2, 1]]`:
/// x = 3/7, y = 2/7, value = (3 - 2) / 7 = 1/7.
#[test]
fn two_by_two_closed_form() {
    let g = Matrix::from_rows(&[[3.0, -1.0], [-2.0, 1.0]]);
    check_known(
        &g,
        &[3.0 / 7.0, 4.0 / 7.0],
        &[2.0 / 7.0, 5.0 / 7.0],
        1.0 / 7.0,
    );
}

#[test]
fn saddle_point() {
    // Row 1 dominates row 0; column 1 is below both others everywhere.
    let g = Matrix::from_rows(&[[3.0, 1.0, 4.0], [6.0, 2.0, 5.0], [0.0, -1.0, 7.0]]);
    assert_eq!(pure_saddle_point(&g), Some((1, 1, 2.0)));
    let (s, method) = solve(&g);
    assert_eq!(method, Method::Saddle);
    assert_eq!(
        s,
        Solution {
            row_strategy: vec![0.0, 1.0, 0.0],
            col_strategy: vec![0.0, 1.0, 0.0],
            value: 2.0
        }
    );
    check_known(&g, &[0.0, 1.0, 0.0], &[0.0, 1.0, 0.0], 2.0);
}

#[test]
fn no_saddle_point_when_maximin_is_below_minimax() {
    // maximin 0 (row 0), minimax 1 (column 1).
    let g = Matrix::from_rows(&[[0.0, 1.0], [2.0, -1.0]]);
    assert_eq!(pure_saddle_point(&g), None);
}

#[test]
fn dominated_column() {
    // Column 2 is worse for the minimizer than column 0 in every row; what
    // is left is the 2x2 game above.
    let g = Matrix::from_rows(&[[3.0, -1.0, 4.0], [-2.0, 1.0, 5.0]]);
    check_known(
        &g,
        &[3.0 / 7.0, 4.0 / 7.0],
        &[2.0 / 7.0, 5.0 / 7.0, 0.0],
        1.0 / 7.0,
    );
}

#[test]
fn dominated_row() {
    // A fourth row, rock with a fee, is strictly worse than rock.
    let g = Matrix::from_rows(&[
        [0.0, -1.0, 1.0],
        [1.0, 0.0, -1.0],
        [-1.0, 1.0, 0.0],
        [-1.0, -2.0, 0.0],
    ]);
    let third = [1.0 / 3.0; 3];
    check_known(&g, &[third[0], third[1], third[2], 0.0], &third, 0.0);
}

#[test]
fn iterated_dominance() {
    // Column 2 is dominated by column 0 (both rows); then row 1 dominates
    // row 0; then column 1 is the better answer: a saddle at (1, 1) worth 1,
    // which the LP must find too.
    let g = Matrix::from_rows(&[[4.0, 0.0, 5.0], [3.0, 1.0, 6.0]]);
    check_known(&g, &[0.0, 1.0], &[0.0, 1.0, 0.0], 1.0);
}

#[test]
fn one_row() {
    // The column player picks a minimum; two columns tie at -2.
    let g = Matrix::from_rows(&[[3.0, -2.0, 5.0, -2.0]]);
    let s = solve_lp(&g);
    assert_equilibrium(&g, &s, 1e-12);
    assert!((s.value + 2.0).abs() < 1e-12);
    assert!((s.col_strategy[1] + s.col_strategy[3] - 1.0).abs() < 1e-12);
    assert_eq!(solve(&g).1, Method::Saddle);
    assert_equilibrium(&g, &solve_rm_plus(&g, None, 100_000, 1e-9), 1e-9);
}

#[test]
fn one_column() {
    let g = Matrix::from_rows(&[[3.0], [-2.0], [5.0]]);
    let s = solve_lp(&g);
    assert_eq!(s.row_strategy, vec![0.0, 0.0, 1.0]);
    assert!((s.value - 5.0).abs() < 1e-12);
    assert_eq!(pure_saddle_point(&g), Some((2, 0, 5.0)));
    assert_equilibrium(&g, &solve_rm_plus(&g, None, 100_000, 1e-9), 1e-9);
    let one = Matrix::from_rows(&[[-4.0]]);
    assert_eq!(
        solve_lp(&one),
        Solution {
            row_strategy: vec![1.0],
            col_strategy: vec![1.0],
            value: -4.0
        }
    );
}

#[test]
fn all_payoffs_equal() {
    let g = Matrix::new(3, 4, vec![0.7; 12]);
    let s = solve_lp(&g);
    assert_equilibrium(&g, &s, 1e-12);
    assert!((s.value - 0.7).abs() < 1e-12);
    assert_eq!(solve(&g).1, Method::Saddle);
    let rm = solve_rm_plus(&g, None, 100, 0.0);
    assert_equilibrium(&g, &rm, 1e-12);
}

#[test]
fn degenerate_games() {
    // Many ties: identity (value 1/n, uniform), and a 0/1 game where every
    // ratio test ties.
    for n in 1..=8 {
        let id = Matrix::from_fn(n, n, |r, c| if r == c { 1.0 } else { 0.0 });
        let s = solve_lp(&id);
        assert_equilibrium(&id, &s, 1e-12);
        assert!((s.value - 1.0 / n as f64).abs() < 1e-12);
    }
    let g = Matrix::from_rows(&[
        [1.0, 1.0, 0.0, 0.0],
        [1.0, 0.0, 1.0, 0.0],
        [0.0, 1.0, 1.0, 0.0],
        [1.0, 1.0, 1.0, 1.0],
    ]);
    assert_equilibrium(&g, &solve_lp(&g), 1e-12);
}

#[test]
fn exploitability_is_the_sum_of_both_gains() {
    let g = Matrix::from_rows(&[[1.0, -1.0], [-1.0, 1.0]]);
    // Both on heads: the row player already gets 1 (no gain), the column
    // player gains 2 by switching to tails.
    assert_eq!(best_response_row(&g, &[1.0, 0.0]), (0, 1.0));
    assert_eq!(best_response_col(&g, &[1.0, 0.0]), (1, -1.0));
    assert_eq!(exploitability(&g, &[1.0, 0.0], &[1.0, 0.0]), 2.0);
    assert_eq!(exploitability(&g, &[0.5, 0.5], &[0.5, 0.5]), 0.0);
}

#[test]
fn rm_plus_respects_budget_and_target() {
    let g = random_game(6, 7, 3);
    let zero = run_rm_plus(&g, None, 0, 0.0);
    assert_eq!(zero.iterations, 0);
    assert_close(&zero.solution.row_strategy, &[1.0 / 6.0; 6], 1e-15);
    let fixed = run_rm_plus(&g, None, 123, 0.0);
    assert_eq!(fixed.iterations, 123);
    let early = run_rm_plus(&g, None, 1_000_000, 1e-3);
    assert!(early.iterations < 1_000_000 && early.exploitability <= 1e-3);
    let e = exploitability(
        &g,
        &early.solution.row_strategy,
        &early.solution.col_strategy,
    );
    assert!((e - early.exploitability).abs() < 1e-12);
}

#[test]
fn warm_start() {
    let g = random_game(12, 12, 7);
    let lp = solve_lp(&g);
    // An equilibrium meets any target at once.
    let at_once = run_rm_plus(&g, Some((&lp.row_strategy, &lp.col_strategy)), 1000, 1e-6);
    assert_eq!(at_once.iterations, 0);
    assert_close(&at_once.solution.row_strategy, &lp.row_strategy, 1e-12);

    // A nearby game (payoff noise of 1% of the range) from the old answer
    // needs fewer iterations, summed over a few games, than a cold start.
    let (mut warm_its, mut cold_its) = (0, 0);
    for seed in 0..8 {
        let g = random_game(12, 12, 100 + seed);
        let noise = random_game(12, 12, 200 + seed);
        let near = Matrix::from_fn(12, 12, |r, c| g[(r, c)] + 0.02 * noise[(r, c)]);
        let lp = solve_lp(&g);
        let warm = run_rm_plus(
            &near,
            Some((&lp.row_strategy, &lp.col_strategy)),
            100_000,
            2e-4,
        );
        let cold = run_rm_plus(&near, None, 100_000, 2e-4);
        assert!(warm.exploitability <= 2e-4 && cold.exploitability <= 2e-4);
        warm_its += warm.iterations;
        cold_its += cold.iterations;
    }
    assert!(
        2 * warm_its < cold_its,
        "warm {warm_its} vs cold {cold_its} iterations"
    );
}

#[test]
fn solve_picks_rm_plus_for_large_games() {
    let g = random_game(101, 100, 11);
    assert!(g.rows() * g.cols() > LP_MAX_CELLS);
    let (s, method) = solve(&g);
    assert_eq!(method, Method::RmPlus);
    let range = 2.0; // payoffs span nearly [-1, 1]
    assert!(exploitability(&g, &s.row_strategy, &s.col_strategy) <= RM_RELATIVE_TARGET * range);
    let lp = solve_lp(&g);
    assert_equilibrium(&g, &lp, 1e-9);
    assert!((s.value - lp.value).abs() <= RM_RELATIVE_TARGET * range);
}

#[test]
fn rm_plus_and_lp_agree_on_30x30() {
    for seed in 0..3 {
        let g = random_game(30, 30, 30 + seed);
        let lp = solve_lp(&g);
        assert_equilibrium(&g, &lp, 1e-9);
        let rm = run_rm_plus(&g, None, 5000, 0.0);
        assert!(
            rm.exploitability < 1e-4,
            "RM+ exploitability {}",
            rm.exploitability
        );
        assert!((rm.solution.value - lp.value).abs() < 1e-4);
    }
}

#[test]
fn lp_solves_rectangular_games_either_way_round() {
    // Transposing and negating swaps the players' roles.
    for (rows, cols) in [(3, 17), (17, 3), (1, 9), (9, 1), (40, 60), (60, 40)] {
        let g = random_game(rows, cols, (rows * 100 + cols) as u64);
        let s = solve_lp(&g);
        assert_equilibrium(&g, &s, 1e-9);
        let t = Matrix::from_fn(cols, rows, |r, c| -g[(c, r)]);
        let st = solve_lp(&t);
        assert!((s.value + st.value).abs() < 1e-9);
    }
}

fn game(max: usize, payoff: impl Strategy<Value = f64> + Clone) -> impl Strategy<Value = Matrix> {
    (1..=max, 1..=max).prop_flat_map(move |(r, c)| {
        prop::collection::vec(payoff.clone(), r * c).prop_map(move |data| Matrix::new(r, c, data))
    })
}

proptest! {
    #[test]
    fn random_games_lp_and_rm_plus(g in game(8, -1.0f64..=1.0)) {
        let lp = solve_lp(&g);
        assert_equilibrium(&g, &lp, 1e-6);
        let rm = run_rm_plus(&g, None, 20_000, 1e-3);
        prop_assert!(rm.exploitability < 0.01, "RM+ exploitability {}", rm.exploitability);
        prop_assert!((rm.solution.value - lp.value).abs() < 0.01);
        let (s, _) = solve(&g);
        assert_equilibrium(&g, &s, 1e-6);
    }

    /// Small integer payoffs: ties, degenerate pivots and saddle points.
    #[test]
    fn random_degenerate_games(g in game(8, (-2i32..=2).prop_map(f64::from))) {
        let lp = solve_lp(&g);
        assert_equilibrium(&g, &lp, 1e-9);
        let (s, method) = solve(&g);
        assert_equilibrium(&g, &s, 1e-9);

        // The saddle check against brute force.
        let is_saddle = |r: usize, c: usize| {
            (0..g.cols()).all(|j| g[(r, j)] >= g[(r, c)]) && (0..g.rows()).all(|i| g[(i, c)] <= g[(r, c)])
        };
        let any = (0..g.rows()).any(|r| (0..g.cols()).any(|c| is_saddle(r, c)));
        match pure_saddle_point(&g) {
            Some((r, c, v)) => {
                prop_assert!(is_saddle(r, c) && v == g[(r, c)]);
                prop_assert!((v - lp.value).abs() < 1e-9);
                prop_assert_eq!(method, Method::Saddle);
            }
            None => {
                prop_assert!(!any);
                prop_assert_eq!(method, Method::Lp);
            }
        }
    }
}
