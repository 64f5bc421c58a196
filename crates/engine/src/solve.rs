//! Exact values of small simultaneous positions, to measure the search
//! against: full-width backward induction with a matrix game at every node.
//!
//! The value of a position searched `depth` turns deep is defined exactly as
//! [`SimSearcher`](crate::simsearch::SimSearcher) defines it, without its
//! shortcuts (serialized bounds, restricted games, a table that ignores the
//! path and reuses deeper results):
//!
//! - a finished position (`outcome()`) scores [`terminal_payoff`];
//! - else a position whose key is a game key or on the search path (the
//!   root included) scores 0, a repetition;
//! - else at depth 0, the solver's leaf payoff: [`leaf_payoff`] (static,
//!   the frozen search's) or another function of the position
//!   ([`Solver::with_leaves`], e.g. [`sharp_leaf_payoff`]);
//! - else the value of the |W| x |B| matrix of the children's values (every
//!   legal move of each side, the turn resolved, one turn less deep), solved
//!   by [`matrix::solve_lp`] after a pure saddle-point check.
//!
//! The root itself is never scored as a repetition or a leaf (as in the
//! search); a finished root or depth 0 is an error.
//!
//! **Memoization.** A value depends on the position (its key), the depth,
//! the clock (only through the fifty-turn rule, so only when
//! `clock + depth >= 50`) and on the path, but only through the path keys
//! that occur in its subtree. Game keys are fixed for a [`Solver`]. An
//! ancestor can occur in the subtree only if its state can be reached from
//! the node within `depth` turns; [`min_turns`] bounds that from below
//! (see there), and the ancestors it cannot rule out are part of the memo
//! key. Two lookups with equal keys therefore see the same repetitions and
//! get the same value: the memo never changes a result. Keys are the
//! 64-bit Zobrist keys of [`SimPosition::hash`], as in the search and the
//! repetition rule; a collision would go unnoticed in both.

use std::collections::HashMap;
use std::sync::Arc;

use parity_rules::simultaneous::SimPosition;
use parity_rules::Outcome;
use parity_rules::{notation, Color, Kind, Move};

use crate::eval::{self, EvalTables};
use crate::matrix::{self, Matrix};
#[cfg(doc)]
use crate::simsearch::sharp_leaf_payoff;
use crate::simsearch::{leaf_payoff, terminal_payoff, LeafPayoff};

/// The exact solution of a position.
#[derive(Clone, Debug)]
pub struct Exact {
    /// White's payoff in [-1, 1].
    pub value: f64,
    /// An equilibrium strategy of each side: moves with positive
    /// probability, most likely first.
    pub white: Vec<(Move, f64)>,
    pub black: Vec<(Move, f64)>,
    /// Positions visited (calls of the value function, the root's children
    /// and below), memo hits included.
    pub nodes: u64,
    /// Matrix games built and solved (inner nodes not found in the memo,
    /// and the root).
    pub matrices: u64,
    /// Of those, games without a pure saddle point, solved by the LP.
    pub lp_solves: u64,
}

/// How much a best response gains against one side's root strategy.
#[derive(Clone, Debug)]
pub struct Exploit {
    /// The exact value of the position (White's payoff).
    pub exact_value: f64,
    /// The opponent's best pure reply to the strategy, when the play after
    /// this turn is exact.
    pub best_response: Move,
    /// White's payoff when the strategy meets that reply.
    pub value_against_strategy: f64,
    /// What the reply gains for the opponent over the exact value: the
    /// exploitability of the strategy in payoff units (>= 0 up to rounding).
    pub gain: f64,
}

#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SolveError {
    #[error("depth must be at least 1 turn")]
    DepthZero,
    #[error("the position is already decided: {0}")]
    Finished(Outcome),
    #[error("{side} has no legal move {mv} here")]
    IllegalMove { side: &'static str, mv: String },
    #[error("the strategy to exploit has no move with positive probability")]
    EmptyStrategy,
}

/// The root's matrix game: every legal move of each side and White's
/// payoff of each pair, the continuation played exactly.
#[derive(Clone, Debug)]
pub struct RootGame {
    pub white: Vec<Move>,
    pub black: Vec<Move>,
    /// Rows are White's moves, columns Black's.
    pub payoff: Matrix,
}

/// Solves `pos` exactly `depth` turns deep after the game `game_keys`.
pub fn solve(pos: &SimPosition, depth: u32, game_keys: &[u64]) -> Result<Exact, SolveError> {
    Solver::new(pos.variant(), game_keys).solve(pos, depth)
}

/// The best reply to `side`'s root `strategy` and its gain (see [`Exploit`]).
pub fn exploit(
    pos: &SimPosition,
    depth: u32,
    game_keys: &[u64],
    side: Color,
    strategy: &[(Move, f64)],
) -> Result<Exploit, SolveError> {
    Solver::new(pos.variant(), game_keys).exploit(pos, depth, side, strategy)
}

/// What a position is worth before its children are looked at.
#[derive(Clone, Copy)]
struct Static {
    terminal: Option<f64>,
    leaf: f64,
}

#[derive(Clone, PartialEq, Eq, Hash)]
struct MemoKey {
    key: u64,
    depth: u32,
    /// The clock where the fifty-turn rule can strike within `depth` turns, else `u32::MAX`.
    clock: u32,
    /// Keys of the ancestors that may recur in the subtree, root first.
    ancestors: Vec<u64>,
}

/// Entries of the static cache before it is cleared (bounds its memory).
const STATIC_CACHE_LIMIT: usize = 1 << 20;

/// An exact solver with a memo that lasts across calls: solving a position
/// and then exploiting strategies at it costs one solve.
pub struct Solver {
    t: Arc<EvalTables>,
    /// White's payoff at depth 0.
    leaf: LeafPayoff,
    game_keys: Vec<u64>,
    /// Positions from the root to the current node's parent.
    path: Vec<SimPosition>,
    path_keys: Vec<u64>,
    memo: HashMap<MemoKey, f64>,
    statics: HashMap<(u64, bool), Static>,
    nodes: u64,
    matrices: u64,
    lp_solves: u64,
}

impl Solver {
    pub fn new(variant: &'static parity_rules::Variant, game_keys: &[u64]) -> Solver {
        Solver {
            t: eval::tables(variant),
            leaf: leaf_payoff,
            game_keys: game_keys.to_vec(),
            path: Vec::new(),
            path_keys: Vec::new(),
            memo: HashMap::new(),
            statics: HashMap::new(),
            nodes: 0,
            matrices: 0,
            lp_solves: 0,
        }
    }

    /// The same solver with other leaves (the search it checks must use them too).
    pub fn with_leaves(mut self, leaf: LeafPayoff) -> Solver {
        self.leaf = leaf;
        self
    }

    /// The exact value and an equilibrium of `pos`, `depth` turns deep.
    /// Counts are those of this call.
    pub fn solve(&mut self, pos: &SimPosition, depth: u32) -> Result<Exact, SolveError> {
        let before = (self.nodes, self.matrices, self.lp_solves);
        let game = self.root_game(pos, depth)?;
        let sol = self.solve_matrix(&game.payoff);
        let support = |moves: &[Move], p: &[f64]| {
            let mut s: Vec<(Move, f64)> = moves
                .iter()
                .copied()
                .zip(p.iter().copied())
                .filter(|&(_, p)| p > 1e-9)
                .collect();
            let total: f64 = s.iter().map(|m| m.1).sum();
            s.iter_mut().for_each(|m| m.1 /= total);
            s.sort_by(|a, b| b.1.total_cmp(&a.1));
            s
        };
        Ok(Exact {
            value: sol.value,
            white: support(&game.white, &sol.row_strategy),
            black: support(&game.black, &sol.col_strategy),
            nodes: self.nodes - before.0,
            matrices: self.matrices - before.1,
            lp_solves: self.lp_solves - before.2,
        })
    }

    /// The opponent's best pure reply to `side`'s `strategy` at the root of
    /// `pos`, every continuation played exactly (`depth - 1` turns deep).
    /// Probabilities are normalized; moves may repeat.
    pub fn exploit(
        &mut self,
        pos: &SimPosition,
        depth: u32,
        side: Color,
        strategy: &[(Move, f64)],
    ) -> Result<Exploit, SolveError> {
        let game = self.root_game(pos, depth)?;
        let moves = if side == Color::White {
            &game.white
        } else {
            &game.black
        };
        let mut p = vec![0.0; moves.len()];
        for &(mv, prob) in strategy {
            let i = moves
                .iter()
                .position(|&m| m == mv)
                .ok_or_else(|| SolveError::IllegalMove {
                    side: side.name(),
                    mv: notation::uci(&pos.side(side), mv),
                })?;
            if prob.is_finite() && prob > 0.0 {
                p[i] += prob;
            }
        }
        let total: f64 = p.iter().sum();
        if total <= 0.0 {
            return Err(SolveError::EmptyStrategy);
        }
        p.iter_mut().for_each(|x| *x /= total);
        let exact_value = self.solve_matrix(&game.payoff).value;
        let (best_response, value_against_strategy, gain) = if side == Color::White {
            let (c, v) = matrix::best_response_col(&game.payoff, &p);
            (game.black[c], v, exact_value - v)
        } else {
            let (r, v) = matrix::best_response_row(&game.payoff, &p);
            (game.white[r], v, v - exact_value)
        };
        Ok(Exploit {
            exact_value,
            best_response,
            value_against_strategy,
            gain,
        })
    }

    /// The root's full matrix of exact child values.
    pub fn root_game(&mut self, pos: &SimPosition, depth: u32) -> Result<RootGame, SolveError> {
        if depth == 0 {
            return Err(SolveError::DepthZero);
        }
        if let Some(outcome) = pos.outcome() {
            return Err(SolveError::Finished(outcome));
        }
        let white = pos.legal_moves(Color::White);
        let black = pos.legal_moves(Color::Black);
        let payoff = self.children(pos, &white, &black, depth);
        Ok(RootGame {
            white,
            black,
            payoff,
        })
    }

    /// The matrix of child values of `pos` (pushed on the path meanwhile).
    fn children(
        &mut self,
        pos: &SimPosition,
        white: &[Move],
        black: &[Move],
        depth: u32,
    ) -> Matrix {
        self.path.push(*pos);
        self.path_keys.push(pos.hash());
        let mut data = Vec::with_capacity(white.len() * black.len());
        for &w in white {
            for &b in black {
                let next = pos.play_unchecked([w, b]);
                data.push(self.value(&next, depth - 1));
            }
        }
        self.path.pop();
        self.path_keys.pop();
        Matrix::new(white.len(), black.len(), data)
    }

    fn solve_matrix(&mut self, payoff: &Matrix) -> matrix::Solution {
        self.matrices += 1;
        if let Some((r, c, value)) = matrix::pure_saddle_point(payoff) {
            let mut row_strategy = vec![0.0; payoff.rows()];
            let mut col_strategy = vec![0.0; payoff.cols()];
            row_strategy[r] = 1.0;
            col_strategy[c] = 1.0;
            return matrix::Solution {
                row_strategy,
                col_strategy,
                value,
            };
        }
        self.lp_solves += 1;
        matrix::solve_lp(payoff)
    }

    fn static_of(&mut self, pos: &SimPosition, key: u64) -> Static {
        let fifty = pos.variant().spec.fifty_move_rule && pos.clock() >= 50;
        if let Some(&s) = self.statics.get(&(key, fifty)) {
            return s;
        }
        let s = match pos.outcome() {
            Some(o) => Static {
                terminal: Some(terminal_payoff(&o)),
                leaf: 0.0,
            },
            None => Static {
                terminal: None,
                leaf: (self.leaf)(pos, &self.t),
            },
        };
        if self.statics.len() >= STATIC_CACHE_LIMIT {
            self.statics.clear();
        }
        self.statics.insert((key, fifty), s);
        s
    }

    /// White's exact payoff of `pos`, a child on the current path.
    fn value(&mut self, pos: &SimPosition, depth: u32) -> f64 {
        self.nodes += 1;
        let key = pos.hash();
        let s = self.static_of(pos, key);
        if let Some(v) = s.terminal {
            return v;
        }
        if self.path_keys.contains(&key) || self.game_keys.contains(&key) {
            return 0.0;
        }
        if depth == 0 {
            return s.leaf;
        }
        let fifty_near = pos.variant().spec.fifty_move_rule && pos.clock() + depth >= 50;
        let memo_key = MemoKey {
            key,
            depth,
            clock: if fifty_near { pos.clock() } else { u32::MAX },
            ancestors: self
                .path
                .iter()
                .filter(|a| min_turns(pos, a).is_some_and(|n| n <= depth))
                .map(|a| a.hash())
                .collect(),
        };
        if let Some(&v) = self.memo.get(&memo_key) {
            return v;
        }
        let white = pos.legal_moves(Color::White);
        let black = pos.legal_moves(Color::Black);
        let payoff = self.children(pos, &white, &black, depth);
        let v = self.solve_matrix(&payoff).value;
        self.memo.insert(memo_key, v);
        v
    }
}

/// A lower bound on the number of turns (at least 1) after which a position
/// in the state of `to` (pieces, markers, castling rights, en passant) can
/// follow `from`, or None if it never can. Per side:
/// - pieces are never added, pawns never made, castling rights never
///   regained;
/// - each turn a side's move puts one piece on one square (two when
///   castling, possible only while it has rights it loses on the way), so
///   the (kind, square) places of `to` that `from` lacks take that many
///   turns;
/// - under the waiting rule every turn marks the mover, so an unmarked
///   `to` never follows; and a marked piece of `from` that must leave its
///   square (no capture of that side's pieces, no shared-square duty) can
///   move in turn 2 at the earliest.
pub fn min_turns(from: &SimPosition, to: &SimPosition) -> Option<u32> {
    let v = from.variant();
    let rules = from.rules();
    let mut bound = 1;
    for c in Color::ALL {
        let (rights_from, rights_to) = (from.castling_rights(c), to.castling_rights(c));
        if (rights_to & !rights_from).any() {
            return None;
        }
        let count_from = from.by_color(c).count();
        if to.by_color(c).count() > count_from {
            return None;
        }
        let pawns = |p: &SimPosition| {
            (0..v.kinds.len())
                .filter(|&k| v.kinds[k].pawn)
                .map(|k| p.pieces(c, Kind(k as u8)).count())
                .sum::<u32>()
        };
        if pawns(to) > pawns(from) {
            return None;
        }
        let need: u32 = (0..v.kinds.len())
            .map(|k| (to.pieces(c, Kind(k as u8)) & !from.pieces(c, Kind(k as u8))).count())
            .sum();
        let castle = rights_from.any() && rights_to != rights_from;
        let mut side_bound = if castle { need.div_ceil(2) } else { need };
        if rules.waiting_rule {
            if to.last_moved(c).is_empty() {
                return None;
            }
            let duty = rules.single_occupation && (from.by_color(c) & from.shared()).any();
            let must_leave = from
                .last_moved(c)
                .filter(|&m| {
                    from.kind_at(c, m)
                        .is_some_and(|k| !to.pieces(c, k).contains(m))
                })
                .count()
                > 0;
            if !duty && to.by_color(c).count() == count_from && must_leave {
                side_bound = side_bound.max(2);
            }
        }
        bound = bound.max(side_bound);
    }
    Some(bound)
}

#[cfg(test)]
mod tests {
    use super::*;
    use parity_rules::Registry;

    fn pos(variant: &str, fen: &str) -> SimPosition {
        SimPosition::from_fen(Registry::builtin().get(variant).unwrap(), fen).unwrap()
    }

    #[test]
    fn min_turns_is_a_lower_bound_on_small_trees() {
        // Every position reached within three turns is at least min_turns away.
        for (variant, fen) in [
            ("parity", "4k3/8/8/8/8/8/8/R3K3 - - 0 1"),
            ("parity", "4k3/8/8/3n'4/8/8/8/3RK3 - - 0 1"),
            ("parity-single", "4k3/8/8/8/7p/5(N'n')2/3P4/4K3 - - 1 2"),
            ("move-neutral", "4k3/8/8/3n4/8/8/8/3RK3 - - 0 1"),
            ("parity", "4k2r/8/8/8/8/8/8/R3K3 Qk - 0 1"),
        ] {
            let root = pos(variant, fen);
            let mut frontier = vec![root];
            for turns in 1..=3u32 {
                let mut next = Vec::new();
                for p in &frontier {
                    if p.outcome().is_some() {
                        continue;
                    }
                    for w in p.legal_moves(Color::White) {
                        for b in p.legal_moves(Color::Black) {
                            next.push(p.play_unchecked([w, b]));
                        }
                    }
                }
                for q in &next {
                    let bound = min_turns(&root, q);
                    assert!(
                        bound.is_some_and(|n| n <= turns),
                        "{variant} {fen} -> {} in {turns}: {bound:?}",
                        q.to_fen()
                    );
                }
                next.truncate(3000);
                frontier = next;
            }
        }
    }

    /// The value by plain recursion under an explicit path, no memo.
    fn plain(p: &SimPosition, depth: u32, path: &mut Vec<u64>, t: &EvalTables) -> f64 {
        if let Some(o) = p.outcome() {
            return terminal_payoff(&o);
        }
        if path.contains(&p.hash()) {
            return 0.0;
        }
        if depth == 0 {
            return leaf_payoff(p, t);
        }
        let (ws, bs) = (p.legal_moves(Color::White), p.legal_moves(Color::Black));
        path.push(p.hash());
        let g = Matrix::from_fn(ws.len(), bs.len(), |r, c| {
            plain(&p.play_unchecked([ws[r], bs[c]]), depth - 1, path, t)
        });
        path.pop();
        matrix::pure_saddle_point(&g).map_or_else(|| matrix::solve_lp(&g).value, |(_, _, v)| v)
    }

    /// A position reached through two parents, where a repetition of one
    /// parent changes its value: the memo must tell the two paths apart, in
    /// either order. Move-neutral, where a king can step out and back.
    #[test]
    fn memo_tells_paths_apart_where_a_repetition_matters() {
        let root = pos("move-neutral", "8/8/4k3/8/8/8/2N5/4K3 - - 0 1");
        let t = eval::tables(root.variant());
        let mut parents: HashMap<u64, Vec<SimPosition>> = HashMap::new();
        let mut grandchildren: HashMap<u64, SimPosition> = HashMap::new();
        for w in root.legal_moves(Color::White) {
            for b in root.legal_moves(Color::Black) {
                let c = root.play_unchecked([w, b]);
                for w2 in c.legal_moves(Color::White) {
                    for b2 in c.legal_moves(Color::Black) {
                        let g = c.play_unchecked([w2, b2]);
                        let list = parents.entry(g.hash()).or_default();
                        if !list.iter().any(|p| p.hash() == c.hash()) {
                            list.push(c);
                        }
                        grandchildren.insert(g.hash(), g);
                    }
                }
            }
        }
        let mut found = 0;
        let mut keys: Vec<u64> = parents
            .keys()
            .copied()
            .filter(|k| parents[k].len() >= 2)
            .collect();
        keys.sort_unstable();
        for key in keys {
            let g = grandchildren[&key];
            let ps = &parents[&key];
            let values: Vec<f64> = ps
                .iter()
                .map(|c| plain(&g, 1, &mut vec![root.hash(), c.hash()], &t))
                .collect();
            let Some(j) = (1..ps.len()).find(|&j| (values[j] - values[0]).abs() > 1e-9) else {
                continue;
            };
            found += 1;
            for order in [[0, j], [j, 0]] {
                let mut solver = Solver::new(root.variant(), &[]);
                for i in order {
                    solver.path = vec![root, ps[i]];
                    solver.path_keys = vec![root.hash(), ps[i].hash()];
                    assert_eq!(
                        solver.value(&g, 1),
                        values[i],
                        "{} after {}",
                        g.to_fen(),
                        ps[i].to_fen()
                    );
                }
            }
            if found >= 20 {
                break;
            }
        }
        assert!(found > 0, "no position whose value depends on the path");
    }

    #[test]
    fn an_unmarked_position_never_recurs_under_the_waiting_rule() {
        let a = pos("parity", "4k3/8/8/8/8/8/8/R3K3 - - 0 1");
        let b = pos("parity", "4k'3/8/8/8/8/8/8/R'3K3 - - 1 2");
        assert_eq!(min_turns(&b, &a), None);
        assert!(min_turns(&a, &b).is_some());
    }
}
