//! Two-player zero-sum matrix games, as met at every turn of simultaneous
//! chess: an exact LP solver (our own dense simplex), regret matching+ for
//! large or warm-started games, and `solve`, which picks between them after
//! a cheap pure saddle-point check.
//!
//! Conventions: rows belong to the maximizing player, entries are payoffs to
//! that player, strategies are probability vectors.

use std::ops::{Index, IndexMut};

/// A dense row-major payoff matrix with at least one row and one column.
#[derive(Clone, Debug, PartialEq)]
pub struct Matrix {
    rows: usize,
    cols: usize,
    data: Vec<f64>,
}

impl Matrix {
    /// Panics unless `data` holds `rows * cols > 0` finite entries.
    pub fn new(rows: usize, cols: usize, data: Vec<f64>) -> Matrix {
        assert!(
            rows > 0 && cols > 0,
            "a game needs at least one action per player"
        );
        assert_eq!(
            data.len(),
            rows * cols,
            "payoff data does not match {rows}x{cols}"
        );
        assert!(data.iter().all(|v| v.is_finite()), "payoffs must be finite");
        Matrix { rows, cols, data }
    }

    pub fn from_fn(rows: usize, cols: usize, mut f: impl FnMut(usize, usize) -> f64) -> Matrix {
        let mut data = Vec::with_capacity(rows * cols);
        for r in 0..rows {
            for c in 0..cols {
                data.push(f(r, c));
            }
        }
        Matrix::new(rows, cols, data)
    }

    /// Panics if the rows differ in length.
    pub fn from_rows<R: AsRef<[f64]>>(rows: &[R]) -> Matrix {
        let cols = rows.first().map_or(0, |r| r.as_ref().len());
        assert!(
            rows.iter().all(|r| r.as_ref().len() == cols),
            "ragged payoff rows"
        );
        Matrix::new(
            rows.len(),
            cols,
            rows.iter()
                .flat_map(|r| r.as_ref().iter().copied())
                .collect(),
        )
    }

    pub fn rows(&self) -> usize {
        self.rows
    }

    pub fn cols(&self) -> usize {
        self.cols
    }

    pub fn row(&self, r: usize) -> &[f64] {
        &self.data[r * self.cols..(r + 1) * self.cols]
    }

    pub fn as_slice(&self) -> &[f64] {
        &self.data
    }

    fn min_max(&self) -> (f64, f64) {
        self.data
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &v| {
                (lo.min(v), hi.max(v))
            })
    }
}

impl Index<(usize, usize)> for Matrix {
    type Output = f64;
    fn index(&self, (r, c): (usize, usize)) -> &f64 {
        assert!(c < self.cols);
        &self.data[r * self.cols + c]
    }
}

impl IndexMut<(usize, usize)> for Matrix {
    fn index_mut(&mut self, (r, c): (usize, usize)) -> &mut f64 {
        assert!(c < self.cols);
        &mut self.data[r * self.cols + c]
    }
}

/// Mixed strategies for both players and the value of the game to the row
/// player (for RM+, an estimate within half the exploitability).
#[derive(Clone, Debug, PartialEq)]
pub struct Solution {
    pub row_strategy: Vec<f64>,
    pub col_strategy: Vec<f64>,
    pub value: f64,
}

impl Solution {
    fn pure(rows: usize, cols: usize, r: usize, c: usize, value: f64) -> Solution {
        let mut row_strategy = vec![0.0; rows];
        let mut col_strategy = vec![0.0; cols];
        row_strategy[r] = 1.0;
        col_strategy[c] = 1.0;
        Solution {
            row_strategy,
            col_strategy,
            value,
        }
    }
}

// ---------------------------------------------------------------------------
// Best responses and exploitability

/// The row player's best pure reply to the column strategy `col`: its index
/// (the first one on ties) and its expected payoff, `max_i (A col)_i`. That
/// payoff is also the most the column player can be made to concede: its
/// guarantee with `col`.
pub fn best_response_row(payoff: &Matrix, col: &[f64]) -> (usize, f64) {
    assert_eq!(col.len(), payoff.cols);
    let mut best = (0, f64::NEG_INFINITY);
    for r in 0..payoff.rows {
        let v = dot(payoff.row(r), col);
        if v > best.1 {
            best = (r, v);
        }
    }
    best
}

/// The column player's best pure reply to the row strategy `row`: its index
/// (the first one on ties) and the row player's expected payoff against it,
/// `min_j (row^T A)_j`, the row player's guarantee with `row`.
pub fn best_response_col(payoff: &Matrix, row: &[f64]) -> (usize, f64) {
    assert_eq!(row.len(), payoff.rows);
    let mut best = (0, f64::INFINITY);
    for c in 0..payoff.cols {
        // Strided, but games are small and this avoids a buffer.
        let v: f64 = row
            .iter()
            .enumerate()
            .map(|(r, &p)| p * payoff.data[r * payoff.cols + c])
            .sum();
        if v < best.1 {
            best = (c, v);
        }
    }
    best
}

/// The summed gain of both best responses (the duality gap, "NashConv"):
/// `max_i (A col)_i - min_j (row^T A)_j`. It is never negative, is zero
/// exactly at an equilibrium, and bounds each player's own loss to a best
/// responder as well as the error of any value between the two guarantees.
pub fn exploitability(payoff: &Matrix, row: &[f64], col: &[f64]) -> f64 {
    best_response_row(payoff, col).1 - best_response_col(payoff, row).1
}

/// Eight independent sums: a single running sum cannot be vectorized (f64
/// addition is not associative) and waits on each add's latency.
fn dot(a: &[f64], b: &[f64]) -> f64 {
    let n = a.len().min(b.len());
    let (a, b) = (&a[..n], &b[..n]);
    let mut acc = [0.0; 8];
    for (x, y) in a.chunks_exact(8).zip(b.chunks_exact(8)) {
        for k in 0..8 {
            acc[k] += x[k] * y[k];
        }
    }
    let tail = n - n % 8;
    let rest: f64 = a[tail..].iter().zip(&b[tail..]).map(|(x, y)| x * y).sum();
    acc.iter().sum::<f64>() + rest
}

// ---------------------------------------------------------------------------
// Pure saddle point

/// A pure equilibrium `(row, col, value)` if one exists, in `O(rows * cols)`
/// and without allocating. It exists iff max-min equals min-max; both are
/// matrix entries, so comparing them exactly is sound.
pub fn pure_saddle_point(payoff: &Matrix) -> Option<(usize, usize, f64)> {
    let (mut best_row, mut maximin) = (0, f64::NEG_INFINITY);
    for r in 0..payoff.rows {
        let m = payoff.row(r).iter().copied().fold(f64::INFINITY, f64::min);
        if m > maximin {
            (best_row, maximin) = (r, m);
        }
    }
    // Every column maximum is >= maximin; a saddle needs one equal to it.
    'cols: for c in 0..payoff.cols {
        for r in 0..payoff.rows {
            if payoff.data[r * payoff.cols + c] > maximin {
                continue 'cols;
            }
        }
        return Some((best_row, c, maximin));
    }
    None
}

// ---------------------------------------------------------------------------
// Linear programming

/// Entering columns need a reduced cost below `-OPT_EPS`.
const OPT_EPS: f64 = 1e-11;
/// Pivot elements must exceed this (entries are scaled to [1, 2]).
const PIV_EPS: f64 = 1e-9;
/// Ratios this close count as ties.
const TIE_EPS: f64 = 1e-12;

/// Solves the game exactly (up to f64 rounding) by the simplex method.
///
/// After shifting and scaling the payoffs into `A' = [1, 2]` the column
/// player's problem is `max 1·y  s.t.  A'y <= 1, y >= 0`, feasible at `y = 0`
/// (no phase one) and bounded since `A' > 0`. Its optimum is `1/v'`, `y v'`
/// is the column strategy and the dual prices of the rows, read off the
/// slack columns of the final tableau, are the row strategy times `v'`.
/// The player with fewer actions supplies the constraints (the game is
/// transposed and negated if needed), so the tableau has
/// `(min + 1) x (rows + cols + 1)` cells.
///
/// Pivoting is Dantzig's rule with ties in the ratio test going to the
/// larger pivot; after a run of degenerate pivots it switches to Bland's
/// rule, which cannot cycle. If rounding ever defeats it (a pivot cap), the
/// game goes to RM+ (`RM_ITERATIONS`, target 1e-6 of the payoff range).
pub fn solve_lp(payoff: &Matrix) -> Solution {
    try_lp(payoff)
        .unwrap_or_else(|| solve_rm_plus(payoff, None, RM_ITERATIONS, 1e-6 * payoff_range(payoff)))
}

fn try_lp(payoff: &Matrix) -> Option<Solution> {
    let (m, n) = (payoff.rows, payoff.cols);
    if m <= n {
        simplex_game(m, n, |i, j| payoff.data[i * n + j], false)
    } else {
        // The column player maximizes -A^T; swap the answers back.
        simplex_game(n, m, |i, j| -payoff.data[j * n + i], false).map(|s| Solution {
            row_strategy: s.col_strategy,
            col_strategy: s.row_strategy,
            value: -s.value,
        })
    }
}

fn payoff_range(payoff: &Matrix) -> f64 {
    let (lo, hi) = payoff.min_max();
    hi - lo
}

/// The simplex core for the `m x n` game `g` with `m` constraints; `None`
/// only if rounding trips the safeguards. `bland` starts in Bland's rule
/// (tests only: random games rarely see more than 4 degenerate pivots in a
/// row, so the switch itself is rare).
fn simplex_game(
    m: usize,
    n: usize,
    g: impl Fn(usize, usize) -> f64,
    mut bland: bool,
) -> Option<Solution> {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for i in 0..m {
        for j in 0..n {
            lo = lo.min(g(i, j));
            hi = hi.max(g(i, j));
        }
    }
    let scale = if hi > lo { hi - lo } else { 1.0 };

    // Rows 0..m: [A' | I | 1]; row m: the objective, [-1 | 0 | 0].
    let w = n + m + 1;
    let mut t = vec![0.0; (m + 1) * w];
    for i in 0..m {
        let row = &mut t[i * w..(i + 1) * w];
        for (j, cell) in row[..n].iter_mut().enumerate() {
            *cell = (g(i, j) - lo) / scale + 1.0;
        }
        row[n + i] = 1.0;
        row[w - 1] = 1.0;
    }
    t[m * w..m * w + n].fill(-1.0);
    let mut basis: Vec<usize> = (n..n + m).collect();

    let max_pivots = 50 * (m + n) + 1000;
    let mut degenerate_run = 0;
    for _ in 0..max_pivots {
        let obj = &t[m * w..m * w + w - 1];
        let entering = if bland {
            obj.iter().position(|&v| v < -OPT_EPS)
        } else {
            let (j, &v) = obj.iter().enumerate().min_by(|a, b| a.1.total_cmp(b.1))?;
            (v < -OPT_EPS).then_some(j)
        };
        let Some(c) = entering else {
            return Some(read_solution(&t, &basis, m, n, lo, scale));
        };

        let mut leave: Option<(usize, f64, f64)> = None; // (row, ratio, pivot)
        for i in 0..m {
            let a = t[i * w + c];
            if a <= PIV_EPS {
                continue;
            }
            let ratio = t[i * w + w - 1].max(0.0) / a;
            leave = match leave {
                None => Some((i, ratio, a)),
                Some((_, best, _)) if ratio < best - TIE_EPS => Some((i, ratio, a)),
                Some((r, best, p)) if ratio <= best + TIE_EPS => {
                    let better = if bland { basis[i] < basis[r] } else { a > p };
                    Some(if better { (i, ratio, a) } else { (r, best, p) })
                }
                keep => keep,
            };
        }
        // Unbounded is impossible with A' > 0 unless rounding broke the tableau.
        let (r, ratio, _) = leave?;
        if ratio <= TIE_EPS {
            degenerate_run += 1;
            bland |= degenerate_run > m + n;
        } else {
            degenerate_run = 0;
        }
        pivot(&mut t, w, r, c);
        basis[r] = c;
    }
    None
}

fn pivot(t: &mut [f64], w: usize, r: usize, c: usize) {
    let (before, rest) = t.split_at_mut(r * w);
    let (prow, after) = rest.split_at_mut(w);
    let inv = 1.0 / prow[c];
    prow.iter_mut().for_each(|v| *v *= inv);
    prow[c] = 1.0;
    for row in before.chunks_exact_mut(w).chain(after.chunks_exact_mut(w)) {
        let f = row[c];
        if f != 0.0 {
            row.iter_mut()
                .zip(prow.iter())
                .for_each(|(v, p)| *v -= f * p);
            row[c] = 0.0;
        }
    }
}

fn read_solution(t: &[f64], basis: &[usize], m: usize, n: usize, lo: f64, scale: f64) -> Solution {
    let w = n + m + 1;
    let mut col_strategy = vec![0.0; n];
    for (i, &b) in basis.iter().enumerate() {
        if b < n {
            col_strategy[b] = t[i * w + w - 1].max(0.0);
        }
    }
    let mut row_strategy: Vec<f64> = t[m * w + n..m * w + n + m]
        .iter()
        .map(|v| v.max(0.0))
        .collect();
    let total = col_strategy.iter().sum::<f64>();
    // The LP optimum is 1/v' with v' in [1, 2].
    let value = (1.0 / total - 1.0) * scale + lo;
    normalize_into(&mut col_strategy);
    normalize_into(&mut row_strategy);
    Solution {
        row_strategy,
        col_strategy,
        value,
    }
}

/// Scales `v` to sum 1 (uniform if it sums to zero).
fn normalize_into(v: &mut [f64]) {
    let s: f64 = v.iter().sum();
    if s > 0.0 {
        v.iter_mut().for_each(|x| *x /= s);
    } else {
        v.fill(1.0 / v.len() as f64);
    }
}

// ---------------------------------------------------------------------------
// Regret matching+

/// How often (in iterations) RM+ measures the exploitability of its average
/// when given a target: each check costs about one iteration.
const CHECK_EVERY: usize = 16;

/// Warm regrets are the warm strategy times `range * sqrt(rows + cols)`
/// times this. Tuned on random games from 5x5 to 100x100 re-solved after
/// uniform payoff noise of up to 0.5%, 2.5% and 10% of the range: 0.2 cut
/// the iterations to a target by 2-12x, 1.7-3x and 1.2-3x against a cold
/// start; 1.0 was often slower than cold (the seed outweighs new evidence).
const WARM_REGRET: f64 = 0.2;
/// Weight of a warm start in the average, in iterations' worth.
const WARM_WEIGHT: f64 = 1.0;

/// What a run of RM+ did.
#[derive(Clone, Debug, PartialEq)]
pub struct RmPlusRun {
    /// Average strategies; the value is the midpoint of the two guarantees.
    pub solution: Solution,
    /// Iterations run (0 when the warm start already met the target).
    pub iterations: usize,
    /// Exploitability of `solution`, as [`exploitability`] defines it.
    pub exploitability: f64,
}

/// Regret matching+ with alternating updates (the column player moves first
/// each iteration, then the row player answers its fresh strategy) and
/// linear averaging (iteration `t` weighs `t`). Stops after `iterations` or,
/// if `target > 0`, as soon as a check finds the average's exploitability
/// at most `target`; see [`run_rm_plus`].
pub fn solve_rm_plus(
    payoff: &Matrix,
    warm: Option<(&[f64], &[f64])>,
    iterations: usize,
    target: f64,
) -> Solution {
    run_rm_plus(payoff, warm, iterations, target).solution
}

/// [`solve_rm_plus`] with its iteration count and final exploitability.
///
/// A warm start `(row, col)` (e.g. the previous search iteration's answer)
/// is returned at once if it already meets `target`. Otherwise it seeds the
/// regrets in proportion to it (so the first iterate plays it, and a few
/// bad iterations don't wash it out) and the averages with the weight of
/// one iteration.
pub fn run_rm_plus(
    payoff: &Matrix,
    warm: Option<(&[f64], &[f64])>,
    iterations: usize,
    target: f64,
) -> RmPlusRun {
    let (m, n) = (payoff.rows, payoff.cols);
    let a = &payoff.data;
    let range = payoff_range(payoff);

    if let Some((wr, wc)) = warm {
        assert!(
            wr.len() == m && wc.len() == n,
            "warm start does not fit the game"
        );
        if target > 0.0 {
            let clamp = |w: &[f64]| w.iter().map(|p| p.max(0.0)).collect();
            let mut solution = Solution {
                row_strategy: clamp(wr),
                col_strategy: clamp(wc),
                value: 0.0,
            };
            normalize_into(&mut solution.row_strategy);
            normalize_into(&mut solution.col_strategy);
            let e = exploitability(payoff, &solution.row_strategy, &solution.col_strategy);
            if e <= target {
                solution.value = midpoint(payoff, &solution);
                return RmPlusRun {
                    solution,
                    iterations: 0,
                    exploitability: e,
                };
            }
        }
    }

    // One buffer: regrets, current strategy, weighted sum and utilities, per side.
    let mut buf = vec![0.0; 4 * (m + n)];
    let (qr, rest) = buf.split_at_mut(m);
    let (xr, rest) = rest.split_at_mut(m);
    let (sr, rest) = rest.split_at_mut(m);
    let (ur, rest) = rest.split_at_mut(m);
    let (qc, rest) = rest.split_at_mut(n);
    let (yc, rest) = rest.split_at_mut(n);
    let (sc, uc) = rest.split_at_mut(n);

    let mut weight = 0.0;
    if let Some((wr, wc)) = warm {
        let seed = range.max(f64::MIN_POSITIVE) * ((m + n) as f64).sqrt() * WARM_REGRET;
        weight = WARM_WEIGHT;
        for (w, q, s) in [(wr, &mut *qr, &mut *sr), (wc, &mut *qc, &mut *sc)] {
            q.iter_mut().zip(w).for_each(|(q, &p)| *q = p.max(0.0));
            normalize_into(q);
            s.iter_mut()
                .zip(q.iter())
                .for_each(|(s, &p)| *s = p * weight);
            q.iter_mut().for_each(|q| *q *= seed);
        }
    }
    regret_matching(qc, yc);

    let mut done = 0;
    let (mut exploit, mut measured_at) = (f64::INFINITY, usize::MAX);
    for t in 1..=iterations {
        done = t;
        let tw = t as f64;
        // Column player: regrets against the row player's current strategy.
        regret_matching(qr, xr);
        uc.fill(0.0);
        for (i, &p) in xr.iter().enumerate() {
            if p != 0.0 {
                uc.iter_mut()
                    .zip(&a[i * n..(i + 1) * n])
                    .for_each(|(u, &v)| *u += p * v);
            }
        }
        let ev = dot(uc, yc);
        qc.iter_mut()
            .zip(uc.iter())
            .for_each(|(q, &u)| *q = (*q + ev - u).max(0.0));
        regret_matching(qc, yc);
        // Row player: regrets against the column player's new strategy.
        for (i, u) in ur.iter_mut().enumerate() {
            *u = dot(&a[i * n..(i + 1) * n], yc);
        }
        let ev = dot(ur, xr);
        qr.iter_mut()
            .zip(ur.iter())
            .for_each(|(q, &u)| *q = (*q + u - ev).max(0.0));

        sr.iter_mut()
            .zip(xr.iter())
            .for_each(|(s, &p)| *s += tw * p);
        sc.iter_mut()
            .zip(yc.iter())
            .for_each(|(s, &p)| *s += tw * p);
        weight += tw;

        if target > 0.0 && t % CHECK_EVERY == 0 {
            exploit = average_gap(a, n, sr, sc, ur, uc) / weight;
            measured_at = t;
            if exploit <= target {
                break;
            }
        }
    }

    let mut solution = Solution {
        row_strategy: sr.to_vec(),
        col_strategy: sc.to_vec(),
        value: 0.0,
    };
    normalize_into(&mut solution.row_strategy);
    normalize_into(&mut solution.col_strategy);
    if measured_at != done {
        exploit = exploitability(payoff, &solution.row_strategy, &solution.col_strategy);
    }
    solution.value = midpoint(payoff, &solution);
    RmPlusRun {
        solution,
        iterations: done,
        exploitability: exploit,
    }
}

/// Strategy proportional to the positive regrets, uniform if there are none.
fn regret_matching(q: &[f64], out: &mut [f64]) {
    let s: f64 = q.iter().sum();
    if s > 0.0 {
        let inv = 1.0 / s;
        out.iter_mut().zip(q).for_each(|(o, &v)| *o = v * inv);
    } else {
        out.fill(1.0 / out.len() as f64);
    }
}

/// Exploitability of the unnormalized averages `sr`, `sc` times their weight.
fn average_gap(a: &[f64], n: usize, sr: &[f64], sc: &[f64], ur: &mut [f64], uc: &mut [f64]) -> f64 {
    for (i, u) in ur.iter_mut().enumerate() {
        *u = dot(&a[i * n..(i + 1) * n], sc);
    }
    uc.fill(0.0);
    for (i, &p) in sr.iter().enumerate() {
        if p != 0.0 {
            uc.iter_mut()
                .zip(&a[i * n..(i + 1) * n])
                .for_each(|(u, &v)| *u += p * v);
        }
    }
    let best_row = ur.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let best_col = uc.iter().copied().fold(f64::INFINITY, f64::min);
    best_row - best_col
}

/// The midpoint of the two guarantees: within half the exploitability of
/// the true value, which lies between them.
fn midpoint(payoff: &Matrix, s: &Solution) -> f64 {
    (best_response_row(payoff, &s.col_strategy).1 + best_response_col(payoff, &s.row_strategy).1)
        / 2.0
}

// ---------------------------------------------------------------------------
// Choosing a method

/// Games with at most this many cells go to the LP, larger ones to RM+.
/// On random square games the LP and a cold RM+ run to `RM_RELATIVE_TARGET`
/// take about as long at 100x100 (~2 ms); the LP is 4-15x faster at 20x20
/// to 64x64 and exact, RM+ 3-7x faster at 200x200 to 300x300 (the simplex
/// grows as the cube). Rectangular games are cheaper for the LP than this
/// suggests, since only the smaller side makes constraints.
pub const LP_MAX_CELLS: usize = 10_000;
/// RM+ budget in `solve` (and for the LP's fallback). Random games reach
/// the target in a few hundred iterations.
pub const RM_ITERATIONS: usize = 10_000;
/// RM+ target in `solve`, relative to the payoff range.
pub const RM_RELATIVE_TARGET: f64 = 1e-4;

/// How `solve` settled a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// A pure saddle point; no LP or iteration.
    Saddle,
    /// The simplex solver (exact up to rounding).
    Lp,
    /// Regret matching+ to `RM_RELATIVE_TARGET` times the payoff range
    /// (also where the LP gave up, which rounding could in principle cause).
    RmPlus,
}

/// Solves a game: a pure saddle point if there is one, else the LP for
/// games of at most `LP_MAX_CELLS` cells, else RM+ (cold, `RM_ITERATIONS`
/// at most, to `RM_RELATIVE_TARGET` times the payoff range).
pub fn solve(payoff: &Matrix) -> (Solution, Method) {
    if let Some((r, c, v)) = pure_saddle_point(payoff) {
        return (
            Solution::pure(payoff.rows, payoff.cols, r, c, v),
            Method::Saddle,
        );
    }
    if payoff.rows * payoff.cols <= LP_MAX_CELLS {
        if let Some(s) = try_lp(payoff) {
            return (s, Method::Lp);
        }
    }
    let target = RM_RELATIVE_TARGET * payoff_range(payoff);
    (
        solve_rm_plus(payoff, None, RM_ITERATIONS, target),
        Method::RmPlus,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Small integers from a fixed LCG: ties everywhere.
    fn integer_game(rows: usize, cols: usize, seed: &mut u64) -> Matrix {
        Matrix::from_fn(rows, cols, |_, _| {
            *seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((*seed >> 33) % 5) as f64 - 2.0
        })
    }

    #[test]
    fn dot_matches_a_plain_sum() {
        for n in 0..=20 {
            let a: Vec<f64> = (0..n).map(|i| i as f64 * 0.5 - 3.0).collect();
            let b: Vec<f64> = (0..n).map(|i| 1.0 / (i as f64 + 1.0)).collect();
            let plain: f64 = a.iter().zip(&b).map(|(x, y)| x * y).sum();
            assert!((dot(&a, &b) - plain).abs() < 1e-12);
        }
    }

    /// Bland's rule is the guard against cycling but seldom runs (the
    /// degenerate streak must exceed rows + cols), so test it on its own.
    #[test]
    fn blands_rule_alone_solves_degenerate_games() {
        let mut seed = 1;
        for rows in 1..=7 {
            for cols in 1..=7 {
                for _ in 0..20 {
                    let g = integer_game(rows, cols, &mut seed);
                    let dantzig = simplex_game(rows, cols, |i, j| g[(i, j)], false).unwrap();
                    let bland = simplex_game(rows, cols, |i, j| g[(i, j)], true).unwrap();
                    for s in [&dantzig, &bland] {
                        assert!(
                            exploitability(&g, &s.row_strategy, &s.col_strategy) < 1e-9,
                            "{g:?}: {s:?}"
                        );
                    }
                    assert!((dantzig.value - bland.value).abs() < 1e-9);
                }
            }
        }
    }

    #[test]
    fn warm_start_needs_matching_lengths() {
        let g = Matrix::from_rows(&[[1.0, -1.0], [-1.0, 1.0]]);
        let r = std::panic::catch_unwind(|| run_rm_plus(&g, Some((&[1.0], &[0.5, 0.5])), 10, 0.0));
        assert!(r.is_err());
    }

    #[test]
    fn matrix_shapes() {
        let g = Matrix::from_rows(&[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]);
        assert_eq!((g.rows(), g.cols(), g[(1, 2)]), (2, 3, 6.0));
        assert_eq!(g.row(1), &[4.0, 5.0, 6.0]);
        assert_eq!(g, Matrix::from_fn(2, 3, |r, c| (r * 3 + c + 1) as f64));
        assert!(std::panic::catch_unwind(|| Matrix::new(0, 3, vec![])).is_err());
        assert!(std::panic::catch_unwind(|| Matrix::new(1, 1, vec![f64::NAN])).is_err());
    }
}
