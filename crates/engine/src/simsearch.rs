//! Search for the simultaneous variants, where every turn is a matrix game.
//!
//! In the spirit of double-oracle alpha-beta (Bošanský et al., Artificial
//! Intelligence 2016): a depth-limited search in turns. At each node two
//! serialized alpha-beta searches bound the value (White committing first
//! gives a lower bound, Black committing first an upper bound); when they
//! meet, the node has a pure saddle point and needs no matrix game. Else a
//! restricted game over a few candidate moves of each side is solved and
//! grown by best responses over all moves until neither side gains.
//! Leaves are the turn-based evaluation mapped to a payoff in [-1, 1].
//! Values are always White's payoff.

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

use parity_rules::simultaneous::{SimPosition, SimRules};
use parity_rules::Outcome;
use parity_rules::{Color, Move};

use crate::eval::{self, EvalTables, Score, MATE, MATE_BOUND};
use crate::matrix::{self, Matrix, Method};
use crate::search::{Limits, Searcher, Shared};
use parity_rules::{Position, Setup, Word};
// Keys are Zobrist keys already: a multiply mixes them enough, where the
// default SipHash cost 8% of a search's instructions.
use rustc_hash::FxHashMap;

/// A best response must gain this much to enter the restricted game.
const EPSILON: f64 = 1e-4;
/// Leaf payoffs (and whether each side can move there) kept per search.
const LEAF_CACHE: usize = 4_000_000;
/// Candidate moves of each side that seed a restricted game.
const SEED_MOVES: usize = 2;

/// Maps a centipawn score to a payoff in (-1, 1): mostly twice the
/// logistic expected score less one, plus a little of a slower curve
/// (400 cp ~ 0.79).
pub fn payoff_of_score(cp: Score) -> f64 {
    let cp = cp as f64;
    let logistic = 2.0 / (1.0 + 10f64.powf(-cp / 400.0)) - 1.0;
    // The logistic is flat far ahead (+1500 cp: 0.99964, +1550: 0.99973),
    // so progress there would fall below EPSILON; a slower curve keeps it.
    (1.0 - SLOW_SHARE) * logistic + SLOW_SHARE * (cp / 2000.0).tanh()
}

/// The share of the slow curve in a leaf's payoff.
const SLOW_SHARE: f64 = 0.05;

/// White's payoff of a position at the search horizon.
pub type LeafPayoff = fn(&SimPosition, &EvalTables) -> f64;

/// The static payoff of a position for White.
pub fn leaf_payoff(pos: &SimPosition, t: &EvalTables) -> f64 {
    payoff_of_score(eval::evaluate_white(pos, t, -MATE, MATE))
}

/// The material `by` threatens to win next turn, in centipawns: half its
/// best capture (the other side can move that piece away or defend it at
/// the same time) plus half the second best (it cannot save both). A
/// capture of a defended piece gains the victim less the cheapest
/// capturer. Only pieces free to move next turn capture; kings are not
/// counted (a check is the rules' business) nor are shared squares.
pub fn threat(pos: &SimPosition, by: Color, t: &EvalTables) -> Score {
    let v = pos.variant();
    let (mut best, mut second) = (0, 0);
    pos.for_each_threat_of_any_kind(by, |kind, _, capturers, defended| {
        if kind == v.royal {
            return;
        }
        let victim = t.value[kind.index()];
        let gain = if defended {
            let cheapest = capturers
                .filter_map(|from| pos.kind_at(by, from))
                .map(|k| t.value[k.index()])
                .min()
                .unwrap_or(victim);
            victim - cheapest
        } else {
            victim
        };
        if gain > best {
            (best, second) = (gain, best);
        } else if gain > second {
            second = gain;
        }
    });
    (best + second) / 2
}

/// The static payoff of a position for White with each side's threats
/// ([`threat`]) added: a cheap stand-in for a quiescence search. (Half the
/// threats scored 22.5% against this at 100 ms a move, twice 53.7%:
/// docs/benchmarks.md.)
pub fn sharp_leaf_payoff(pos: &SimPosition, t: &EvalTables) -> f64 {
    let stat = eval::evaluate_white(pos, t, -MATE, MATE);
    payoff_of_score(stat + threat(pos, Color::White, t) - threat(pos, Color::Black, t))
}

/// The payoff of a finished game for White: 1, 0 or -1.
pub fn terminal_payoff(outcome: &Outcome) -> f64 {
    match outcome.winner {
        Some(Color::White) => 1.0,
        Some(Color::Black) => -1.0,
        None => 0.0,
    }
}

/// Which simultaneous search runs (UCI option `Search`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SimSearch {
    /// Double-oracle alpha-beta with static leaves: the search of issue 6,
    /// kept unchanged as the frozen baseline.
    Doab,
    /// The same search with quiescence leaves: each leaf is the mean of the
    /// turn-based quiescence scores with White and with Black to move.
    Qdoab,
    /// The same double-oracle alpha-beta with threat-aware leaves
    /// ([`sharp_leaf_payoff`]) where the waiting rule holds, static ones
    /// elsewhere ([`SimSearch::weighs_threats`]): the default, as it beat
    /// `Doab` at equal time in parity (docs/benchmarks.md, issue 18).
    #[default]
    Tdoab,
    /// Double oracle over the first turn only, each pair of moves scored by
    /// turn-based alpha-beta (quiescence, then 1, 2, ... plies as the
    /// iterations deepen) with each side to move, the two scores averaged.
    Hybrid,
}

impl SimSearch {
    pub const ALL: [(&'static str, SimSearch); 4] = [
        ("doab", SimSearch::Doab),
        ("qdoab", SimSearch::Qdoab),
        ("tdoab", SimSearch::Tdoab),
        ("hybrid", SimSearch::Hybrid),
    ];

    /// Whether this search's leaves weigh threats under `rules`: `Tdoab`
    /// where the waiting rule holds. Without it (move-neutral) every piece
    /// may move every turn, a threatened piece always can step away, and
    /// the threat leaves lost there (docs/benchmarks.md, issue 18).
    pub fn weighs_threats(self, rules: SimRules) -> bool {
        self == SimSearch::Tdoab && rules.waiting_rule
    }

    /// The leaf payoff of the alpha-beta searches with static leaves
    /// (`Doab`, `Tdoab`) under `rules`: what the exact solver must use to
    /// check them.
    pub fn static_leaves(self, rules: SimRules) -> LeafPayoff {
        if self.weighs_threats(rules) {
            sharp_leaf_payoff
        } else {
            leaf_payoff
        }
    }

    pub fn name(self) -> &'static str {
        SimSearch::ALL
            .iter()
            .find(|(_, s)| *s == self)
            .map(|(n, _)| *n)
            .expect("every search is named")
    }
}

impl std::str::FromStr for SimSearch {
    type Err = String;
    fn from_str(text: &str) -> Result<SimSearch, String> {
        SimSearch::ALL
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(text))
            .map(|(_, s)| *s)
            .ok_or_else(|| format!("unknown search '{text}' (doab, qdoab, tdoab, hybrid)"))
    }
}

/// Limits of one search, as for the turn-based engine.
#[derive(Clone, Debug, Default)]
pub struct SimLimits {
    /// Which search (default: the double-oracle alpha-beta; the exact
    /// solver's tools ask for `Doab` explicitly, as its leaves are theirs).
    pub search: SimSearch,
    /// Turns to look ahead.
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub movetime: Option<Duration>,
    /// Remaining clock time of the side searched for, and its increment.
    pub time: Option<Duration>,
    pub increment: Duration,
    pub overhead: Duration,
}

/// The soft and hard time limits of a search: with `movetime`, both are the
/// move time less the overhead; with a clock, the soft limit is a
/// thirtieth of what is left plus 3/4 of the increment, and the hard limit
/// three times that, at most a third of what is left plus half the
/// increment and never within 5 ms of the flag. No new iteration starts
/// after half the soft limit; the hard limit stops the search.
pub fn time_budget(limits: &SimLimits) -> Option<(Duration, Duration)> {
    let min = Duration::from_millis(1);
    match (limits.movetime, limits.time) {
        (Some(t), _) => {
            let t = t.saturating_sub(limits.overhead).max(min);
            Some((t, t))
        }
        (None, Some(left)) => {
            let left = left.saturating_sub(limits.overhead);
            let inc = limits.increment;
            let soft = left / 30 + inc * 3 / 4;
            let hard = (soft * 3)
                .min(left / 3 + inc / 2)
                .min(left.saturating_sub(Duration::from_millis(5)))
                .max(min);
            Some((soft.min(hard).max(min), hard))
        }
        _ => None,
    }
}

/// A mixed strategy: moves with positive probability.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Mixed {
    pub moves: Vec<Move>,
    pub probabilities: Vec<f64>,
}

impl Mixed {
    pub fn pure(mv: Move) -> Mixed {
        Mixed {
            moves: vec![mv],
            probabilities: vec![1.0],
        }
    }

    /// The most likely move.
    pub fn most_likely(&self) -> Option<Move> {
        let best = (0..self.moves.len())
            .max_by(|&a, &b| self.probabilities[a].total_cmp(&self.probabilities[b]))?;
        Some(self.moves[best])
    }

    /// A move drawn with its probability, from `u` uniform in [0, 1).
    pub fn sample(&self, u: f64) -> Option<Move> {
        let mut acc = 0.0;
        for (mv, p) in self.moves.iter().zip(&self.probabilities) {
            acc += p;
            if u < acc {
                return Some(*mv);
            }
        }
        self.moves.last().copied()
    }
}

/// Counts that tell how a search spent its effort.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SimStats {
    pub nodes: u64,
    /// Inner nodes (depth >= 1, not terminal, not from the table).
    pub matrix_nodes: u64,
    /// Inner nodes settled by the serialized bounds alone (pure saddle point or cutoff).
    pub settled_by_bounds: u64,
    /// Inner nodes whose restricted game had a pure saddle point.
    pub settled_by_saddle: u64,
    pub lp_solves: u64,
    pub rm_solves: u64,
    /// Inner nodes that needed at least one LP or RM+ solve.
    pub lp_nodes: u64,
}

impl SimStats {
    /// Share of inner nodes settled without a linear program.
    pub fn share_without_lp(&self) -> f64 {
        if self.matrix_nodes == 0 {
            return 1.0;
        }
        1.0 - self.lp_nodes as f64 / self.matrix_nodes as f64
    }
}

/// The result of a search: both sides' strategies at the root and the value.
#[derive(Clone, Debug, Default)]
pub struct SimResult {
    pub white: Mixed,
    pub black: Mixed,
    /// White's expected payoff in [-1, 1].
    pub value: f64,
    /// Deepest completed iteration, in turns.
    pub depth: u32,
    pub stats: SimStats,
    pub elapsed: Duration,
}

impl SimResult {
    pub fn strategy(&self, color: Color) -> &Mixed {
        if color == Color::White {
            &self.white
        } else {
            &self.black
        }
    }
}

#[derive(Clone)]
struct Entry {
    depth: u32,
    value: f64,
    /// Support of the equilibrium, for ordering at the next iteration.
    white: Vec<Move>,
    black: Vec<Move>,
}

/// One search of a simultaneous position.
pub struct SimSearcher {
    t: Arc<EvalTables>,
    table: FxHashMap<u64, Entry>,
    /// Serialized search results: (key, depth, White first) -> value and bound.
    serial_table: FxHashMap<(u64, u32, bool), (f64, Bound)>,
    /// Keys of the game before the root and of the current path.
    path: Vec<u64>,
    stats: SimStats,
    start: Instant,
    deadline: Option<Instant>,
    node_limit: Option<u64>,
    /// Shared with the UCI loop, whose `stop` ends the search.
    shared: Arc<Shared>,
    aborted: bool,
    completed: u32,
    /// Quiescence leaves ([`SimSearch::Qdoab`]): the turn-based searcher
    /// that scores them, and the leaf payoffs seen, by key.
    quiescence: bool,
    /// Plies of turn-based search at the leaves (0: quiescence only), when
    /// the leaves are searched.
    leaf_plies: i32,
    hybrid: bool,
    /// Threat-aware static leaves ([`SimSearch::Tdoab`]).
    sharp: bool,
    /// Share of the hard time limit the search leaves to the caller
    /// (for [`Self::best_reply`]); 0 by default.
    pub reserve: f64,
    hard_deadline: Option<Instant>,
    quiescers: Quiescers,
    leaves: FxHashMap<u64, f64>,
    /// Whether each side has a legal move, by key, at the horizon.
    can_move: FxHashMap<u64, [bool; 2]>,
}

/// The turn-based searchers of the quiescence leaves, each made at its
/// first leaf: in 64-bit sets where the board fits (each set operation one
/// instruction), in 128-bit ones elsewhere.
#[derive(Default)]
struct Quiescers {
    narrow: Option<Searcher<Position<u64>>>,
    wide: Option<Searcher<Position>>,
}

/// How a searched leaf is scored: by the turn-based search of `plies`
/// (0: quiescence) with each side to move, stopping at `deadline`.
struct LeafSearch<'a> {
    shared: &'a Arc<Shared>,
    deadline: Option<Instant>,
    plies: i32,
}

impl LeafSearch<'_> {
    /// White's payoff of `pos` from the turn-based scores of its views in
    /// word `W`, or None if the search ran out of time.
    fn payoff<W: Word>(
        &self,
        pos: &SimPosition,
        quiescer: &mut Option<Searcher<Position<W>>>,
        t: &EvalTables,
    ) -> Option<f64> {
        let mut score = |p: &Position<W>| -> Option<Score> {
            let q = quiescer.get_or_insert_with(|| {
                Searcher::new(self.shared.clone(), *p, &[], Limits::default())
            });
            q.set_leaf_deadline(self.deadline);
            let s = if self.plies == 0 {
                q.quiesce(p)
            } else {
                q.score_at(p, self.plies)
            };
            (!q.was_aborted()).then(|| s.clamp(-MATE_BOUND, MATE_BOUND))
        };
        // A view may not exist (a shared square, or the side not to move in check).
        match (
            as_turn_based::<W>(pos, Color::White),
            as_turn_based::<W>(pos, Color::Black),
        ) {
            (Some(w), Some(b)) => score(&w)
                .zip(score(&b))
                .map(|(white, black)| payoff_of_score((white - black) / 2)),
            (Some(w), None) => score(&w).map(payoff_of_score),
            (None, Some(b)) => score(&b).map(|s| payoff_of_score(-s)),
            (None, None) => Some(leaf_payoff(pos, t)),
        }
    }
}

/// The moves of a restricted game: all legal ones and the chosen indices, per side.
struct Candidates<'a> {
    pos: &'a SimPosition,
    all: [&'a [Move]; 2],
    chosen: [&'a [usize]; 2],
    depth: u32,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

/// The moves of both sides, best first by a cheap guess.
fn ordered_moves(
    pos: &SimPosition,
    mut moves: Vec<Move>,
    color: Color,
    t: &EvalTables,
    first: &[Move],
) -> Vec<Move> {
    let side = pos.side(color);
    let score = |mv: &Move| -> i32 {
        if let Some(i) = first.iter().position(|f| f == mv) {
            return 1_000_000 - i as i32;
        }
        let victim = parity_rules::notation::MoveContext::captured(&side, *mv)
            .map_or(0, |k| t.value[k.index()]);
        let promo = mv.promotion.map_or(0, |k| t.value[k.index()]);
        10 * victim + promo
    };
    moves.sort_by_key(|mv| std::cmp::Reverse(score(mv)));
    moves
}

impl SimSearcher {
    pub fn new(
        root_variant: &'static parity_rules::Variant,
        game_keys: &[u64],
        shared: Arc<Shared>,
    ) -> SimSearcher {
        SimSearcher {
            t: eval::tables(root_variant),
            table: FxHashMap::default(),
            serial_table: FxHashMap::default(),
            path: game_keys.to_vec(),
            stats: SimStats::default(),
            start: Instant::now(),
            deadline: None,
            node_limit: None,
            shared,
            aborted: false,
            completed: 0,
            quiescence: false,
            leaf_plies: 0,
            hybrid: false,
            sharp: false,
            reserve: 0.0,
            hard_deadline: None,
            quiescers: Quiescers::default(),
            leaves: FxHashMap::default(),
            can_move: FxHashMap::default(),
        }
    }

    /// White's payoff of `pos` by the hybrid search's leaf evaluation with
    /// `plies` of turn-based search (0: quiescence) for each side to move,
    /// unlimited in time: the reference of the exploiter
    /// (`simplay::best_response`).
    pub fn searched_payoff(&mut self, pos: &SimPosition, plies: i32) -> f64 {
        if let Some(outcome) = pos.outcome() {
            return terminal_payoff(&outcome);
        }
        let key = pos.hash();
        if self.path.contains(&key) {
            return 0.0;
        }
        if !self.quiescence || self.leaf_plies != plies {
            self.leaves.clear();
        }
        self.quiescence = true;
        self.leaf_plies = plies;
        self.leaf(pos, key)
    }

    /// White's payoff of a leaf: the static evaluation, the threat-aware
    /// one ([`SimSearch::Tdoab`]), or with [`SimSearch::Qdoab`] the mean of
    /// the quiescence scores with each side to move (static where the
    /// position has no turn-based view). Kept by key: the serialized
    /// searches of a node reach the same leaves.
    fn leaf(&mut self, pos: &SimPosition, key: u64) -> f64 {
        if let Some(&v) = self.leaves.get(&key) {
            return v;
        }
        let v = if self.sharp {
            sharp_leaf_payoff(pos, &self.t)
        } else if self.quiescence {
            let Some(v) = self.searched_leaf(pos) else {
                self.aborted = true; // out of time inside the leaf
                return 0.0;
            };
            v
        } else {
            leaf_payoff(pos, &self.t)
        };
        if self.leaves.len() < LEAF_CACHE {
            self.leaves.insert(key, v);
        }
        v
    }

    /// White's payoff of a leaf by turn-based search, or None if it ran out of time.
    fn searched_leaf(&mut self, pos: &SimPosition) -> Option<f64> {
        // The first iteration always ends: its leaves have no deadline.
        let deadline = if self.completed > 0 {
            self.deadline
        } else {
            None
        };
        let leaf = LeafSearch {
            shared: &self.shared,
            deadline,
            plies: self.leaf_plies,
        };
        if pos.variant().boards64.is_some() {
            leaf.payoff(pos, &mut self.quiescers.narrow, &self.t)
        } else {
            leaf.payoff(pos, &mut self.quiescers.wide, &self.t)
        }
    }

    /// The outcome of a position at the horizon, whose key is `key`.
    /// Whether each side can move is kept by key, as the leaves are.
    fn horizon_outcome(&mut self, pos: &SimPosition, key: u64) -> Option<Outcome> {
        let can_move = match self.can_move.get(&key) {
            Some(&known) => known,
            None => {
                let known = Color::ALL.map(|c| pos.has_legal_move(c));
                if self.can_move.len() < LEAF_CACHE {
                    self.can_move.insert(key, known);
                }
                known
            }
        };
        pos.outcome_with_counts(can_move.map(usize::from))
    }

    pub fn tables(&self) -> &EvalTables {
        &self.t
    }

    /// Iteratively deepened search of `root`; `report` hears each completed depth.
    pub fn run(
        &mut self,
        root: &SimPosition,
        limits: &SimLimits,
        mut report: impl FnMut(&SimResult),
    ) -> SimResult {
        self.start = Instant::now();
        self.node_limit = limits.nodes;
        let leaf_kind = (self.quiescence, self.sharp);
        self.quiescence = matches!(limits.search, SimSearch::Qdoab | SimSearch::Hybrid);
        self.sharp = limits.search.weighs_threats(root.rules());
        if (self.quiescence, self.sharp) != leaf_kind {
            self.leaves.clear(); // payoffs of another kind of leaf
        }
        self.hybrid = limits.search == SimSearch::Hybrid;
        let budget = time_budget(limits);
        self.hard_deadline = budget.map(|(_, hard)| self.start + hard);
        // The search itself stops early enough to leave `reserve` of the
        // hard limit to what follows it (the exploiting reply).
        self.deadline = budget.map(|(_, hard)| {
            self.start
                + hard
                    .mul_f64(1.0 - self.reserve)
                    .max(Duration::from_millis(1))
        });
        let budget = budget.map(|(soft, _)| soft);
        let max_depth = limits.depth.unwrap_or(64).max(1);
        let mut best: Option<SimResult> = None;
        for depth in 1..=max_depth {
            // The hybrid search deepens its leaves, not its turns.
            let turns = if self.hybrid {
                self.leaf_plies = depth as i32 - 1;
                self.leaves.clear();
                1
            } else {
                depth
            };
            let Some((white, black, value)) = self.root(root, turns) else {
                break;
            };
            if self.hybrid {
                // The root's support seeds the next iteration's restricted game.
                self.table.insert(
                    root.hash(),
                    Entry {
                        depth: 0,
                        value,
                        white: white.moves.clone(),
                        black: black.moves.clone(),
                    },
                );
            }
            self.completed = depth;
            let result = SimResult {
                white,
                black,
                value,
                depth,
                stats: self.stats,
                elapsed: self.start.elapsed(),
            };
            report(&result);
            best = Some(result);
            if limits.depth.is_none() && budget.is_none() && limits.nodes.is_none() {
                break; // no limit at all: one turn deep
            }
            if budget.is_some_and(|b| self.start.elapsed() > b / 2)
                || self.shared.stop.load(Ordering::Relaxed)
            {
                break;
            }
        }
        best.unwrap_or_else(|| {
            // Stopped before depth 1 ended (cannot happen: depth 1 always ends).
            let w = root.legal_moves(Color::White).first().copied();
            let b = root.legal_moves(Color::Black).first().copied();
            SimResult {
                white: w.map(Mixed::pure).unwrap_or_default(),
                black: b.map(Mixed::pure).unwrap_or_default(),
                ..SimResult::default()
            }
        })
    }

    fn out_of_budget(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        if self.completed == 0 {
            return false; // the first iteration always ends
        }
        if self.node_limit.is_some_and(|n| self.stats.nodes >= n)
            || self.shared.stop.load(Ordering::Relaxed)
            || ((self.hybrid || self.stats.nodes % 32 == 0)
                && self.deadline.is_some_and(|d| Instant::now() >= d))
        {
            self.aborted = true;
        }
        self.aborted
    }

    /// The root's restricted game, solved; None if the search was stopped.
    fn root(&mut self, root: &SimPosition, depth: u32) -> Option<(Mixed, Mixed, f64)> {
        let moves = [
            root.legal_moves(Color::White),
            root.legal_moves(Color::Black),
        ];
        if let Some(outcome) = root.outcome_with_counts([moves[0].len(), moves[1].len()]) {
            return Some((
                Mixed::default(),
                Mixed::default(),
                terminal_payoff(&outcome),
            ));
        }
        self.stats.matrix_nodes += 1;
        self.path.push(root.hash());
        let solved = self.matrix_game(root, &moves, depth);
        self.path.pop();
        if self.aborted {
            return None;
        }
        let (w, b, sol) = solved;
        let mixed = |moves: &[Move], p: &[f64]| {
            let mut pairs: Vec<(Move, f64)> = moves
                .iter()
                .copied()
                .zip(p.iter().copied())
                .filter(|(_, p)| *p > 1e-6)
                .collect();
            pairs.sort_by(|a, b| b.1.total_cmp(&a.1));
            let total: f64 = pairs.iter().map(|p| p.1).sum();
            Mixed {
                moves: pairs.iter().map(|p| p.0).collect(),
                probabilities: pairs.iter().map(|p| p.1 / total).collect(),
            }
        };
        Some((
            mixed(&w, &sol.row_strategy),
            mixed(&b, &sol.col_strategy),
            sol.value,
        ))
    }

    /// After [`Self::run`]: `side`'s best move at `root` against the single
    /// opponent move `theirs`, each pair searched `depth - 1` turns further,
    /// with its payoff for White. None if the search was stopped.
    pub fn best_reply(
        &mut self,
        root: &SimPosition,
        side: Color,
        theirs: Move,
        depth: u32,
    ) -> Option<(Move, f64)> {
        // The search kept `reserve` of its time for this sweep; without a
        // clock the sweep is short and ends by itself.
        (self.aborted, self.deadline, self.node_limit) = (false, self.hard_deadline, None);
        self.completed = self.completed.max(1);
        let depth = if self.hybrid { 1 } else { depth };
        let sign = if side == Color::White { 1.0 } else { -1.0 };
        let hint = self.table.get(&root.hash()).map(|e| {
            if side == Color::White {
                e.white.clone()
            } else {
                e.black.clone()
            }
        });
        let ours = ordered_moves(
            root,
            root.legal_moves(side),
            side,
            &self.t,
            &hint.unwrap_or_default(),
        );
        self.path.push(root.hash());
        let mut best: Option<(Move, f64)> = None;
        for m in ours {
            let pair = if side == Color::White {
                [m, theirs]
            } else {
                [theirs, m]
            };
            let next = root.play_unchecked(pair);
            let v = if self.path.contains(&next.hash()) {
                0.0
            } else {
                self.value(&next, depth.max(1) - 1, -1.0, 1.0)
            };
            if self.aborted {
                break;
            }
            if best.is_none_or(|(_, b)| sign * v > sign * b) {
                best = Some((m, v));
            }
        }
        self.path.pop();
        if self.aborted {
            None
        } else {
            best
        }
    }

    /// After [`Self::run`]: White's expected payoff when `side` plays
    /// `played` at `root` and the other side plays `theirs`, each pair
    /// searched `depth - 1` turns further, without a time limit (the pairs
    /// the search met come from its table).
    pub fn payoff_against(
        &mut self,
        root: &SimPosition,
        side: Color,
        played: Move,
        theirs: &Mixed,
        depth: u32,
    ) -> f64 {
        (self.aborted, self.deadline, self.node_limit) = (false, None, None);
        self.completed = self.completed.max(1);
        let depth = if self.hybrid { 1 } else { depth.max(1) };
        self.path.push(root.hash());
        let mut expected = 0.0;
        for (&m, &p) in theirs.moves.iter().zip(&theirs.probabilities) {
            let pair = if side == Color::White {
                [played, m]
            } else {
                [m, played]
            };
            let next = root.play_unchecked(pair);
            let v = if self.path.contains(&next.hash()) {
                0.0
            } else {
                self.value(&next, depth - 1, -1.0, 1.0)
            };
            expected += p * v;
        }
        self.path.pop();
        expected
    }

    /// White's payoff of `pos` searched `depth` turns deep.
    pub fn value(&mut self, pos: &SimPosition, depth: u32, alpha: f64, beta: f64) -> f64 {
        self.stats.nodes += 1;
        if self.out_of_budget() {
            return 0.0;
        }
        let key = pos.hash();
        if depth == 0 {
            // Leaves need only know whether each side can move.
            if let Some(outcome) = self.horizon_outcome(pos, key) {
                return terminal_payoff(&outcome);
            }
            return if self.path.contains(&key) {
                0.0
            } else {
                self.leaf(pos, key)
            };
        }
        let moves = [pos.legal_moves(Color::White), pos.legal_moves(Color::Black)];
        if let Some(outcome) = pos.outcome_with_counts([moves[0].len(), moves[1].len()]) {
            return terminal_payoff(&outcome);
        }
        if self.path.contains(&key) {
            return 0.0; // a repetition: the side that repeats can force a draw
        }
        if let Some(e) = self.table.get(&key) {
            if e.depth >= depth {
                return e.value;
            }
        }
        self.stats.matrix_nodes += 1;
        self.path.push(key);
        let lower = self.serial_with(pos, &moves, depth, true, alpha, beta);
        let value = if self.aborted {
            0.0
        } else if lower >= beta {
            self.stats.settled_by_bounds += 1;
            lower
        } else {
            let upper = self.serial_with(pos, &moves, depth, false, alpha.max(lower), beta);
            if self.aborted {
                0.0
            } else if upper <= alpha || upper - lower < 1e-9 {
                self.stats.settled_by_bounds += 1;
                if upper - lower < 1e-9 {
                    self.table.insert(
                        key,
                        Entry {
                            depth,
                            value: upper,
                            white: Vec::new(),
                            black: Vec::new(),
                        },
                    );
                }
                upper
            } else {
                let (w, b, sol) = self.matrix_game(pos, &moves, depth);
                if !self.aborted {
                    let support = |m: &[Move], p: &[f64]| {
                        m.iter()
                            .zip(p)
                            .filter(|(_, p)| **p > 1e-6)
                            .map(|(m, _)| *m)
                            .collect()
                    };
                    let entry = Entry {
                        depth,
                        value: sol.value,
                        white: support(&w, &sol.row_strategy),
                        black: support(&b, &sol.col_strategy),
                    };
                    self.table.insert(key, entry);
                }
                sol.value
            }
        };
        self.path.pop();
        value
    }

    /// Double oracle: a restricted game grown by best responses. Returns
    /// the candidate moves of both sides and the restricted game's solution.
    fn matrix_game(
        &mut self,
        pos: &SimPosition,
        moves: &[Vec<Move>; 2],
        depth: u32,
    ) -> (Vec<Move>, Vec<Move>, matrix::Solution) {
        let hint = self.table.get(&pos.hash()).cloned();
        let (hw, hb) = hint.map(|e| (e.white, e.black)).unwrap_or_default();
        let all_w = ordered_moves(pos, moves[0].clone(), Color::White, &self.t, &hw);
        let all_b = ordered_moves(pos, moves[1].clone(), Color::Black, &self.t, &hb);
        let mut rows: Vec<usize> = (0..all_w.len().min(SEED_MOVES.max(hw.len()))).collect();
        let mut cols: Vec<usize> = (0..all_b.len().min(SEED_MOVES.max(hb.len()))).collect();
        let mut cells: FxHashMap<(usize, usize), f64> = FxHashMap::default();
        let mut used_lp = false;
        loop {
            let mut filled = Vec::with_capacity(rows.len() * cols.len());
            for &r in &rows {
                for &c in &cols {
                    filled.push(self.cell(&mut cells, pos, (&all_w, r), (&all_b, c), depth));
                }
            }
            let game = Matrix::new(rows.len(), cols.len(), filled);
            let (sol, method) = matrix::solve(&game);
            match method {
                Method::Saddle => {}
                Method::Lp => self.stats.lp_solves += 1,
                Method::RmPlus => self.stats.rm_solves += 1,
            }
            used_lp |= method != Method::Saddle;
            if self.aborted {
                return (
                    rows.iter().map(|&r| all_w[r]).collect(),
                    cols.iter().map(|&c| all_b[c]).collect(),
                    sol,
                );
            }
            // Best responses over all moves against the other side's strategy.
            let cand = Candidates {
                pos,
                all: [&all_w, &all_b],
                chosen: [&rows, &cols],
                depth,
            };
            let best_row = self.best_response(
                &mut cells,
                &cand,
                Color::White,
                &sol.col_strategy,
                sol.value + EPSILON,
            );
            let best_col = self.best_response(
                &mut cells,
                &cand,
                Color::Black,
                &sol.row_strategy,
                sol.value - EPSILON,
            );
            if self.aborted || (best_row.is_none() && best_col.is_none()) {
                if used_lp {
                    self.stats.lp_nodes += 1;
                } else {
                    self.stats.settled_by_saddle += 1;
                }
                return (
                    rows.iter().map(|&r| all_w[r]).collect(),
                    cols.iter().map(|&c| all_b[c]).collect(),
                    sol,
                );
            }
            rows.extend(best_row);
            cols.extend(best_col);
        }
    }

    /// The move of `side`, outside its restricted set, that does better than
    /// `threshold` against the other side's restricted strategy `other`.
    fn best_response(
        &mut self,
        cells: &mut FxHashMap<(usize, usize), f64>,
        cand: &Candidates<'_>,
        side: Color,
        other: &[f64],
        threshold: f64,
    ) -> Option<usize> {
        let us = side.index();
        let sign = if side == Color::White { 1.0 } else { -1.0 };
        let (mut best, mut best_value) = (None, threshold);
        for m in 0..cand.all[us].len() {
            if cand.chosen[us].contains(&m) {
                continue;
            }
            let mut u = 0.0;
            for (j, &o) in cand.chosen[1 - us].iter().enumerate() {
                if other[j] > 1e-9 {
                    let (r, c) = if side == Color::White { (m, o) } else { (o, m) };
                    u += other[j]
                        * self.cell(
                            cells,
                            cand.pos,
                            (cand.all[0], r),
                            (cand.all[1], c),
                            cand.depth,
                        );
                }
            }
            if sign * u > sign * best_value {
                best_value = u;
                best = Some(m);
            }
        }
        best
    }

    /// The value of one pair of moves (the turn resolved, one turn less
    /// deep), searched once per restricted game.
    fn cell(
        &mut self,
        cells: &mut FxHashMap<(usize, usize), f64>,
        pos: &SimPosition,
        (ws, r): (&[Move], usize),
        (bs, c): (&[Move], usize),
        depth: u32,
    ) -> f64 {
        if let Some(&v) = cells.get(&(r, c)) {
            return v;
        }
        let next = pos.play_unchecked([ws[r], bs[c]]);
        let v = self.value(&next, depth - 1, -1.0, 1.0);
        if !self.aborted {
            cells.insert((r, c), v);
        }
        v
    }

    /// Serialized alpha-beta: one side commits first and the other answers
    /// knowing its move. White first bounds the value from below, Black
    /// first from above.
    fn serial(
        &mut self,
        pos: &SimPosition,
        depth: u32,
        white_first: bool,
        alpha: f64,
        beta: f64,
    ) -> f64 {
        self.stats.nodes += 1;
        if self.out_of_budget() {
            return 0.0;
        }
        if depth == 0 {
            let key = pos.hash();
            return match self.horizon_outcome(pos, key) {
                Some(outcome) => terminal_payoff(&outcome),
                None => self.leaf(pos, key),
            };
        }
        let moves = [pos.legal_moves(Color::White), pos.legal_moves(Color::Black)];
        if let Some(outcome) = pos.outcome_with_counts([moves[0].len(), moves[1].len()]) {
            return terminal_payoff(&outcome);
        }
        self.serial_with(pos, &moves, depth, white_first, alpha, beta)
    }

    /// [`Self::serial`] of a live inner node whose legal moves are known.
    fn serial_with(
        &mut self,
        pos: &SimPosition,
        moves: &[Vec<Move>; 2],
        depth: u32,
        white_first: bool,
        mut alpha: f64,
        mut beta: f64,
    ) -> f64 {
        let key = pos.hash();
        if let Some(&(v, bound)) = self.serial_table.get(&(key, depth, white_first)) {
            match bound {
                Bound::Exact => return v,
                Bound::Lower if v >= beta => return v,
                Bound::Upper if v <= alpha => return v,
                Bound::Lower => alpha = alpha.max(v),
                Bound::Upper => beta = beta.min(v),
            }
        }
        let (alpha0, beta0) = (alpha, beta);
        let hint = self
            .table
            .get(&key)
            .map(|e| (e.white.clone(), e.black.clone()))
            .unwrap_or_default();
        let ws = ordered_moves(pos, moves[0].clone(), Color::White, &self.t, &hint.0);
        let bs = ordered_moves(pos, moves[1].clone(), Color::Black, &self.t, &hint.1);
        let (firsts, seconds) = if white_first { (&ws, &bs) } else { (&bs, &ws) };
        // The first mover maximises its own payoff: White maximises, Black minimises.
        let sign = if white_first { 1.0 } else { -1.0 };
        let mut best = -2.0 * sign;
        for &f in firsts.iter() {
            let mut reply = 2.0 * sign;
            for &s in seconds.iter() {
                let pair = if white_first { [f, s] } else { [s, f] };
                let next = pos.play_unchecked(pair);
                let v = if self.path.contains(&next.hash()) {
                    0.0
                } else {
                    self.serial(&next, depth - 1, white_first, alpha, beta)
                };
                if self.aborted {
                    return 0.0;
                }
                // The second mover picks the worst for the first.
                if v * sign < reply * sign {
                    reply = v;
                }
                let cut = if white_first {
                    reply <= alpha
                } else {
                    reply >= beta
                };
                if cut {
                    break;
                }
            }
            if reply * sign > best * sign {
                best = reply;
            }
            if white_first {
                alpha = alpha.max(best);
            } else {
                beta = beta.min(best);
            }
            if alpha >= beta {
                break;
            }
        }
        let bound = if best <= alpha0 {
            Bound::Upper
        } else if best >= beta0 {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.serial_table
            .insert((key, depth, white_first), (best, bound));
        best
    }
}

/// The turn-based view of a simultaneous position with `side` to move, when
/// there is one (no shared square).
pub fn as_turn_based<W: Word>(pos: &SimPosition, side: Color) -> Option<Position<W>> {
    if pos.shared().any() {
        return None;
    }
    let v = pos.variant();
    let mut setup = Setup::empty();
    for c in Color::ALL {
        for k in 0..v.kinds.len() {
            setup.pieces[c][k] = pos.pieces(c, parity_rules::Kind(k as u8));
        }
        setup.castling[c] = pos.castling_rights(c);
    }
    setup.side = side;
    setup.en_passant = pos.en_passant(side.other()).map(|e| e.target);
    setup.halfmove_clock = pos.clock();
    setup.fullmove_number = pos.turn_number();
    Position::from_setup(v, &setup).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use parity_rules::Registry;

    #[test]
    fn payoffs_are_bounded_and_odd() {
        assert_eq!(payoff_of_score(0), 0.0);
        assert!((payoff_of_score(400) - 0.787).abs() < 0.01);
        assert!((payoff_of_score(-400) + payoff_of_score(400)).abs() < 1e-12);
        assert!(payoff_of_score(10_000) < 1.0 && payoff_of_score(-10_000) > -1.0);
    }

    #[test]
    fn progress_far_ahead_outweighs_the_best_response_threshold() {
        for cp in [1500, 2500] {
            assert!(
                payoff_of_score(cp + 50) - payoff_of_score(cp) > EPSILON,
                "at {cp} cp"
            );
        }
    }

    #[test]
    fn start_position_is_near_even_and_strategies_are_distributions() {
        let v = Registry::builtin().get("parity").unwrap();
        let pos = SimPosition::start(v);
        let mut s = SimSearcher::new(v, &[], Arc::new(Shared::new(1)));
        let r = s.run(
            &pos,
            &SimLimits {
                depth: Some(1),
                ..SimLimits::default()
            },
            |_| {},
        );
        assert!(r.value.abs() < 0.2, "{}", r.value);
        for m in [&r.white, &r.black] {
            assert!(!m.moves.is_empty());
            assert!((m.probabilities.iter().sum::<f64>() - 1.0).abs() < 1e-9);
        }
    }

    #[test]
    fn a_move_of_the_equilibrium_earns_its_value_and_others_no_more() {
        let v = Registry::builtin().get("parity").unwrap();
        let pos = SimPosition::start(v);
        let mut s = SimSearcher::new(v, &[], Arc::new(Shared::new(1)));
        let r = s.run(
            &pos,
            &SimLimits {
                depth: Some(1),
                ..SimLimits::default()
            },
            |_| {},
        );
        // Every move of a side's support earns the value against the
        // other's strategy; a move outside it, at most that.
        for &m in &r.white.moves {
            let earned = s.payoff_against(&pos, Color::White, m, &r.black, 1);
            assert!(
                (earned - r.value).abs() < 1e-6,
                "{m:?}: {earned} against {}",
                r.value
            );
        }
        for &m in &r.black.moves {
            let earned = s.payoff_against(&pos, Color::Black, m, &r.white, 1);
            assert!(
                (earned - r.value).abs() < 1e-6,
                "{m:?}: {earned} against {}",
                r.value
            );
        }
        let outside = pos
            .legal_moves(Color::White)
            .into_iter()
            .find(|m| !r.white.moves.contains(m))
            .expect("a move outside White's support");
        let earned = s.payoff_against(&pos, Color::White, outside, &r.black, 1);
        assert!(earned <= r.value + 1e-6, "{earned} against {}", r.value);
    }

    #[test]
    fn time_budgets_stay_inside_the_clock() {
        let ms = Duration::from_millis;
        let limits = |movetime: Option<u64>, left: Option<u64>, inc: u64| SimLimits {
            movetime: movetime.map(ms),
            time: left.map(ms),
            increment: ms(inc),
            overhead: ms(10),
            ..SimLimits::default()
        };
        assert_eq!(
            time_budget(&limits(Some(100), None, 0)),
            Some((ms(90), ms(90)))
        );
        assert_eq!(time_budget(&limits(None, None, 0)), None);
        // 60 s + 1 s: soft = 59.99/30 + 0.75 s, hard three times that.
        let (soft, hard) = time_budget(&limits(None, Some(60_000), 1000)).unwrap();
        assert_eq!(soft, ms(59_990) / 30 + ms(750));
        assert_eq!(hard, soft * 3);
        // A short clock with a large increment: never past the flag.
        for left in [1u64, 20, 50, 200, 1000] {
            let (soft, hard) = time_budget(&limits(None, Some(left), 5000)).unwrap();
            assert!(soft <= hard, "{left}: {soft:?} {hard:?}");
            assert!(
                hard <= ms(left.saturating_sub(15)).max(ms(1)),
                "{left}: {hard:?}"
            );
        }
    }

    #[test]
    fn searches_parse_and_name() {
        for (name, s) in SimSearch::ALL {
            assert_eq!(name.parse::<SimSearch>().unwrap(), s);
            assert_eq!(s.name(), name);
        }
        assert!("mcts".parse::<SimSearch>().is_err());
        assert_eq!(SimSearch::default(), SimSearch::Tdoab);
    }

    /// White's queen can take a pawn that another pawn defends. The static
    /// leaves of the frozen search see a pawn won; the searched leaves of
    /// `qdoab` and `hybrid` see the queen lost to the recapture next turn.
    #[test]
    fn searched_leaves_see_the_recapture() {
        let v = Registry::builtin().get("parity").unwrap();
        let pos = SimPosition::from_fen(v, "4k3/8/3p4/4p3/8/8/4Q3/4K3 - - 0 5").unwrap();
        let take = |r: &SimResult| -> f64 {
            let m = r.strategy(Color::White);
            m.moves
                .iter()
                .zip(&m.probabilities)
                .filter(|(mv, _)| {
                    parity_rules::notation::uci(&pos.side(Color::White), **mv) == "e2e5"
                })
                .map(|(_, p)| *p)
                .sum()
        };
        let run = |search: SimSearch| {
            let mut s = SimSearcher::new(v, &[], Arc::new(Shared::new(1)));
            s.run(
                &pos,
                &SimLimits {
                    search,
                    depth: Some(1),
                    ..SimLimits::default()
                },
                |_| {},
            )
        };
        // The frozen search still gives the capture some weight (a pawn won,
        // statically); the searched leaves give it none.
        let frozen = run(SimSearch::Doab);
        assert!(take(&frozen) > 0.01, "{:?}", frozen.white);
        for search in [SimSearch::Qdoab, SimSearch::Hybrid] {
            let r = run(search);
            assert!(take(&r) < 1e-6, "{search:?}: {:?}", r.white);
            assert!(r.value > 0.5, "{search:?}: a queen up, {}", r.value);
        }
    }

    /// Threats count half the best capture and half the second; a defended
    /// victim gains its value less the capturer's; a waiting piece captures
    /// nothing next turn but still defends.
    #[test]
    fn threats_weigh_captures_the_other_side_cannot_all_parry() {
        let v = Registry::builtin().get("parity").unwrap();
        let t = eval::tables(v);
        let value = |k: &str| t.value[v.kind_by_letter(k.chars().next().unwrap()).unwrap().index()];
        let threat_in =
            |fen: &str, by: Color| threat(&SimPosition::from_fen(v, fen).unwrap(), by, &t);
        // The rook attacks an undefended knight: half a knight.
        assert_eq!(
            threat_in("4k3/8/8/3n4/8/8/8/3RK3 - - 0 1", Color::White),
            value("n") / 2
        );
        // A knight and a bishop on the rook's lines: half of each.
        assert_eq!(
            threat_in("4k3/8/8/3n4/8/8/8/b2RK3 - - 0 1", Color::White),
            (value("n") + value("b")) / 2
        );
        // The knight defended by a pawn: the rook would win a knight for a rook.
        assert_eq!(
            threat_in("4k3/8/4p3/3n4/8/8/8/3RK3 - - 0 1", Color::White),
            0
        );
        // The rook just moved (waiting): no threat; the knight it attacks
        // still threatens nothing either, and the rook still defends d2.
        assert_eq!(
            threat_in("4k3/8/8/3n4/8/8/8/3R'K3 - - 0 1", Color::White),
            0
        );
        assert_eq!(
            threat_in("4k3/8/8/3n4/8/4P3/8/4R'2K - - 0 1", Color::Black),
            0
        );
        assert_eq!(
            threat_in("4k3/8/8/3n4/8/4P3/8/7K - - 0 1", Color::Black),
            value("p") / 2
        );
    }

    #[test]
    fn the_hybrid_search_deepens_its_leaves_and_stops_on_time() {
        let v = Registry::builtin().get("parity").unwrap();
        let pos = SimPosition::start(v);
        let mut s = SimSearcher::new(v, &[], Arc::new(Shared::new(1)));
        let mut depths = Vec::new();
        let r = s.run(
            &pos,
            &SimLimits {
                search: SimSearch::Hybrid,
                depth: Some(3),
                ..SimLimits::default()
            },
            |r| depths.push(r.depth),
        );
        assert_eq!(depths, [1, 2, 3]);
        assert!(r.value.abs() < 0.2, "{}", r.value);
        // A move time is kept (loosely: the machine may be busy).
        let mut s = SimSearcher::new(v, &[], Arc::new(Shared::new(1)));
        let start = Instant::now();
        s.run(
            &pos,
            &SimLimits {
                search: SimSearch::Hybrid,
                movetime: Some(Duration::from_millis(50)),
                ..SimLimits::default()
            },
            |_| {},
        );
        assert!(
            start.elapsed() < Duration::from_millis(1000),
            "{:?}",
            start.elapsed()
        );
    }

    /// The searched leaves of a board of at most 64 squares, scored in
    /// 64-bit sets, give what the 128-bit ones give, along random games
    /// (a searcher of each word, fed the same leaves, so that their tables
    /// fill alike); the search picks the 64-bit searcher there, and the
    /// 128-bit one on a board of more squares.
    #[test]
    fn searched_leaves_score_alike_in_both_words() {
        use rand_chacha::rand_core::{Rng, SeedableRng};
        use rand_chacha::ChaCha8Rng;
        let mut registry = Registry::builtin();
        for id in ["parity", "move-neutral"] {
            let v = registry.get(id).unwrap();
            let mut s = SimSearcher::new(v, &[], Arc::new(Shared::new(1)));
            s.searched_payoff(&SimPosition::start(v), 0);
            assert!(s.quiescers.narrow.is_some() && s.quiescers.wide.is_none());
            let t = eval::tables(v);
            for plies in [0, 1] {
                let (narrow_shared, wide_shared) =
                    (Arc::new(Shared::new(1)), Arc::new(Shared::new(1)));
                let leaf = |shared| LeafSearch {
                    shared,
                    deadline: None,
                    plies,
                };
                let (mut narrow, mut wide) = (None, None);
                let mut rng = ChaCha8Rng::seed_from_u64(plies as u64);
                let mut pos = SimPosition::start(v);
                for _ in 0..40 {
                    if pos.outcome().is_some() {
                        break;
                    }
                    assert_eq!(
                        leaf(&narrow_shared).payoff::<u64>(&pos, &mut narrow, &t),
                        leaf(&wide_shared).payoff::<u128>(&pos, &mut wide, &t),
                        "{pos:?}"
                    );
                    let moves = Color::ALL.map(|c| {
                        let all = pos.legal_moves(c);
                        all[(rng.next_u64() % all.len() as u64) as usize]
                    });
                    pos = pos.play_unchecked(moves);
                }
            }
        }
        let v = registry
            .add_text(
                "wide-parity.toml",
                "id = \"wide-parity\"\ninherits = \"parity12\"\nfamily = \"simultaneous\"\n\
                 start = \"rnbfcqkcfbnr/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/RNBFCQKCFBNR KQkq - 0 1\"\n\
                 [simultaneous]\nwaiting_rule = true\nsingle_occupation = false\ncheck = \"parity\"\n",
            )
            .unwrap();
        let mut s = SimSearcher::new(v, &[], Arc::new(Shared::new(1)));
        assert!(s.searched_payoff(&SimPosition::start(v), 0).abs() < 0.2);
        assert!(s.quiescers.wide.is_some() && s.quiescers.narrow.is_none());
    }
}
