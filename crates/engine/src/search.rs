//! Iterative-deepening principal variation search with a transposition
//! table, quiescence search, null move, late move reductions, static
//! exchange evaluation (`see.rs`) for capture ordering and pruning, killer,
//! counter-move and continuation-history ordering, check and singular
//! extensions and futility pruning; time managed for movetime, depth, node
//! and clock limits, stretched or shrunk by the stability of the best
//! move. More threads search the same tree with a shared table (lazy SMP).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use parity_rules::variant::StalemateResult;
use parity_rules::{Color, Kind, Move, Special, Square};

use crate::eval::{self, EvalTables, Score, MATE, MATE_BOUND};
use crate::net::{Accumulator, Network};
use crate::see::SeeTables;
use crate::tt::{move_code, Bound, Entry, Table};
use parity_rules::TurnPosition;

pub const MAX_PLY: usize = 128;

/// How many plies back the network's sums may start from.
const NEAR_PLIES: usize = 4;
const INFINITY: Score = MATE + 1;
/// Move ordering scores: captures that win or hold material first, those
/// that lose it (static exchange) after every quiet move.
const GOOD_CAPTURE: i32 = 1 << 26;
const BAD_CAPTURE: i32 = -(1 << 24);
const KILLER: i32 = 1 << 25;
const NO_PIECE_TO: usize = usize::MAX;

/// What to search for how long. Empty limits mean "until stopped".
#[derive(Clone, Debug, Default)]
pub struct Limits {
    pub depth: Option<i32>,
    pub nodes: Option<u64>,
    pub movetime: Option<Duration>,
    /// Remaining clock time per colour (White, Black).
    pub time: [Option<Duration>; 2],
    pub increment: [Duration; 2],
    pub moves_to_go: Option<u32>,
    pub infinite: bool,
    /// Time kept in hand per move for communication (UCI `Move Overhead`).
    pub overhead: Duration,
}

/// One completed iteration.
#[derive(Clone, Debug)]
pub struct Report {
    pub depth: i32,
    pub seldepth: i32,
    pub score: Score,
    pub nodes: u64,
    pub elapsed: Duration,
    pub pv: Vec<Move>,
    pub hashfull: u32,
    /// Which line this is (1 = the best), when more than one is searched.
    pub multipv: usize,
}

#[derive(Clone, Debug)]
pub struct SearchResult {
    /// None only when the side to move has no legal move.
    pub best: Option<Move>,
    pub ponder: Option<Move>,
    pub score: Score,
    pub depth: i32,
    pub nodes: u64,
}

/// State shared by the threads of one engine.
pub struct Shared {
    pub tt: Table,
    pub stop: AtomicBool,
    nodes: AtomicU64,
    /// The main thread's move-ordering histories after its last search:
    /// the next search of the game starts from them.
    histories: Mutex<Option<Histories>>,
}

impl Shared {
    pub fn new(hash_megabytes: usize) -> Shared {
        Shared {
            tt: Table::new(hash_megabytes),
            stop: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            histories: Mutex::new(None),
        }
    }

    /// Forgets the table and the histories (a new game).
    pub fn clear(&self) {
        self.tt.clear();
        *self.histories_slot() = None;
    }

    fn histories_slot(&self) -> std::sync::MutexGuard<'_, Option<Histories>> {
        self.histories.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// What [`Searcher`] learns about quiet moves in one search and passes to
/// the next through [`Shared`].
struct Histories {
    history: Vec<i32>,
    continuation: Vec<i16>,
    counter_moves: Vec<u32>,
}

/// The reduction of a late quiet move, by depth and move number.
fn reduction(depth: i32, number: usize) -> i32 {
    static TABLE: std::sync::OnceLock<Vec<[i32; 64]>> = std::sync::OnceLock::new();
    let t = TABLE.get_or_init(|| {
        (0..64)
            .map(|d| {
                std::array::from_fn(|n| {
                    if d == 0 || n == 0 {
                        0
                    } else {
                        (0.5 + (d as f64).ln() * (n as f64).ln() / 1.7) as i32
                    }
                })
            })
            .collect()
    });
    t[(depth as usize).min(63)][number.min(63)]
}

/// A search of one position by one thread.
pub struct Searcher<B: TurnPosition> {
    shared: Arc<Shared>,
    eval: Arc<EvalTables>,
    see: SeeTables,
    root: B,
    /// Keys of the game and the current search path, for repetition.
    keys: Vec<u64>,
    limits: Limits,
    start: Instant,
    soft_deadline: Option<Instant>,
    /// The soft deadline comes from a clock: stretch or shrink it by how
    /// settled the search looks (not with `movetime`).
    flexible_time: bool,
    hard_deadline: Option<Instant>,
    main: bool,
    nodes: u64,
    unreported_nodes: u64,
    seldepth: i32,
    completed_depth: i32,
    aborted: bool,
    killers: Vec<[u32; 2]>,
    history: Vec<i32>,
    /// Kinds and squares of the variant, for piece-and-destination indices.
    kind_count: usize,
    square_count: usize,
    /// Continuation history: how good a quiet move (piece, destination) has
    /// been after a given move one or two plies before, indexed by both.
    continuation: Vec<i16>,
    /// The quiet move that refuted a given move (piece, destination) last.
    counter_moves: Vec<u32>,
    /// The piece and destination of the move played at each ply of the
    /// current path (`NO_PIECE_TO` for a null move).
    played: Vec<usize>,
    /// Static evaluation per ply of the current path (-INFINITY in check).
    static_evals: Vec<Score>,
    pv: Vec<Vec<Move>>,
    move_lists: Vec<Vec<Move>>,
    scores: Vec<Vec<i32>>,
    /// Per move of `move_lists`, the kind it captures and the kind that
    /// moves, found once by `score_moves`.
    move_kinds: Vec<Vec<(Option<Kind>, Kind)>>,
    /// Root lines to search (`MultiPV`), and the root moves of the lines
    /// already found in this iteration, which the next line leaves out.
    multipv: usize,
    excluded: Vec<Move>,
    /// Per ply, the move a singular-extension search leaves out (0: none).
    singular_move: Vec<u32>,
    /// For [`Self::score_at`] and [`Self::quiesce`]: a time after which
    /// they stop (the simultaneous search's deadline).
    leaf_deadline: Option<Instant>,
    /// Full static evaluations by key: a position met again through
    /// another move order is not evaluated twice.
    eval_cache: EvalCache,
    /// The variant's learned evaluation, which replaces the hand-made one,
    /// and its sums per ply of the current path.
    net: Option<Arc<Network>>,
    accumulators: Vec<Accumulator<B::W>>,
}

/// A small direct-mapped cache of full evaluations: the key's high half
/// beside the score, in one word.
struct EvalCache(Vec<u64>);

impl EvalCache {
    const SLOTS: usize = 1 << 15;

    fn new() -> EvalCache {
        EvalCache(vec![0; Self::SLOTS])
    }

    fn get(&self, key: u64) -> Option<Score> {
        let word = self.0[key as usize & (Self::SLOTS - 1)];
        (word != 0 && word >> 32 == key >> 32).then_some(word as u32 as Score)
    }

    fn put(&mut self, key: u64, score: Score) {
        self.0[key as usize & (Self::SLOTS - 1)] = key & !0xffff_ffff | score as u32 as u64;
    }
}

impl<B: TurnPosition> Searcher<B> {
    /// `game_keys` are the keys of the positions before `root` in the game,
    /// oldest first, so that repetitions of them count as draws.
    pub fn new(shared: Arc<Shared>, root: B, game_keys: &[u64], limits: Limits) -> Searcher<B> {
        let eval = eval::tables(root.variant());
        let v = root.variant();
        let see = SeeTables::new(&eval.value, v.kinds.len(), v.royal);
        let mut keys = game_keys.to_vec();
        keys.push(root.key());
        let net = crate::net::of(v);
        Searcher {
            shared,
            eval,
            see,
            root,
            keys,
            limits,
            start: Instant::now(),
            soft_deadline: None,
            flexible_time: false,
            hard_deadline: None,
            main: true,
            nodes: 0,
            unreported_nodes: 0,
            seldepth: 0,
            completed_depth: 0,
            aborted: false,
            killers: vec![[0; 2]; MAX_PLY + 1],
            history: vec![0; 2 * 128 * 128],
            kind_count: v.kinds.len(),
            square_count: v.shape.len(),
            continuation: vec![0; (2 * v.kinds.len() * v.shape.len()).pow(2)],
            counter_moves: vec![0; 2 * v.kinds.len() * v.shape.len()],
            played: vec![NO_PIECE_TO; MAX_PLY + 1],
            static_evals: vec![-INFINITY; MAX_PLY + 1],
            pv: vec![Vec::new(); MAX_PLY + 1],
            move_lists: vec![Vec::new(); MAX_PLY + 1],
            scores: vec![Vec::new(); MAX_PLY + 1],
            move_kinds: vec![Vec::new(); MAX_PLY + 1],
            multipv: 1,
            excluded: Vec::new(),
            singular_move: vec![0; MAX_PLY + 1],
            leaf_deadline: None,
            eval_cache: EvalCache::new(),
            accumulators: net
                .as_ref()
                .map_or(Vec::new(), |n| vec![Accumulator::new(n); MAX_PLY + 1]),
            net,
        }
    }

    /// Searches the `lines` best root moves, each with its own score and
    /// principal variation (UCI `MultiPV`); the best line decides.
    pub fn with_multipv(mut self, lines: usize) -> Searcher<B> {
        self.multipv = lines.max(1);
        self
    }

    /// The quiescence score of `pos` for its side to move (captures and
    /// promotions until the position is quiet, evasions in check), with a
    /// full window; never stops early. The simultaneous search's leaves.
    pub fn quiesce(&mut self, pos: &B) -> Score {
        self.aborted = false;
        self.quiescence(pos, -INFINITY, INFINITY, 0)
    }

    /// The position at the end of the quiescence line of `pos`: where no
    /// capture or promotion is pending (the tuner's positions).
    pub fn quiet_leaf(&mut self, pos: &B) -> B {
        self.quiesce(pos);
        let mut leaf = pos.clone();
        for &mv in &self.pv[0] {
            leaf = leaf.make(mv);
        }
        leaf
    }

    /// A time after which [`Self::score_at`] and [`Self::quiesce`] stop
    /// (their score is then meaningless: see [`Self::was_aborted`]).
    pub fn set_leaf_deadline(&mut self, deadline: Option<Instant>) {
        self.leaf_deadline = deadline;
    }

    /// Whether the last search was cut short by the deadline or `stop`.
    pub fn was_aborted(&self) -> bool {
        self.aborted
    }

    /// The score of `pos` for its side to move by a fixed-depth search on
    /// the shared table, without time limit (only `stop` ends it early,
    /// with a meaningless score). The simultaneous hybrid search's leaves.
    pub fn score_at(&mut self, pos: &B, depth: i32) -> Score {
        if self.leaf_deadline.is_some() && self.shared.stop.load(Ordering::Relaxed) {
            self.aborted = true;
            return 0;
        }
        self.keys.clear();
        self.keys.push(pos.key());
        self.aborted = false;
        self.search(pos, depth, -INFINITY, INFINITY, 0, true)
    }

    /// Searches with `threads` threads; `report` hears each completed
    /// iteration of the main thread.
    pub fn run(mut self, threads: usize, mut report: impl FnMut(&Report)) -> SearchResult {
        self.shared.tt.new_search();
        self.resume_histories();
        self.shared.nodes.store(0, Ordering::Relaxed);
        self.set_deadlines();
        let helpers: Vec<_> = (1..threads.max(1))
            .map(|id| {
                let mut helper = Searcher::new(
                    self.shared.clone(),
                    self.root.clone(),
                    &[],
                    Limits::default(),
                );
                helper.keys = self.keys.clone();
                helper.main = false;
                helper.limits.depth = self.limits.depth;
                std::thread::spawn(move || helper.iterate(id, &mut |_| {}))
            })
            .collect();
        let result = self.iterate(0, &mut report);
        self.shared.stop.store(true, Ordering::Relaxed);
        self.keep_histories();
        let helper_nodes: u64 = helpers
            .into_iter()
            .map(|h| h.join().map(|r| r.nodes).unwrap_or(0))
            .sum();
        SearchResult {
            nodes: result.nodes + helper_nodes,
            ..result
        }
    }

    /// Starts from the histories of the game's last search, if they are of
    /// this variant's size (kinds times squares sizes every table but the
    /// from-to one, which is fixed).
    fn resume_histories(&mut self) {
        let kept = self.shared.histories_slot().take();
        if let Some(h) = kept.filter(|h| h.counter_moves.len() == self.counter_moves.len()) {
            self.history = h.history;
            self.continuation = h.continuation;
            self.counter_moves = h.counter_moves;
        }
    }

    fn keep_histories(&mut self) {
        let h = Histories {
            history: std::mem::take(&mut self.history),
            continuation: std::mem::take(&mut self.continuation),
            counter_moves: std::mem::take(&mut self.counter_moves),
        };
        *self.shared.histories_slot() = Some(h);
    }

    fn set_deadlines(&mut self) {
        let l = &self.limits;
        let side = self.root.side().index();
        let (soft, hard) = match (l.movetime, l.time[side]) {
            (Some(t), _) => {
                let t = t.saturating_sub(l.overhead).max(Duration::from_millis(1));
                (t, t)
            }
            (None, Some(left)) if !l.infinite => {
                let left = left.saturating_sub(l.overhead);
                let inc = l.increment[side];
                // Spread over 20 moves: more of the clock goes to the opening and
                // middlegame, where games are decided (docs/benchmarks.md).
                let to_go = l.moves_to_go.unwrap_or(20).clamp(1, 40);
                let soft = left / to_go + inc * 3 / 4;
                let hard = (soft * 4)
                    .min(left / 3 + inc)
                    .min(left.saturating_sub(Duration::from_millis(5)));
                (soft.min(hard), hard.max(Duration::from_millis(1)))
            }
            _ => return,
        };
        self.soft_deadline = Some(self.start + soft);
        self.flexible_time = l.movetime.is_none();
        self.hard_deadline = Some(self.start + hard);
    }

    fn iterate(&mut self, thread_id: usize, report: &mut dyn FnMut(&Report)) -> SearchResult {
        let max_depth = self
            .limits
            .depth
            .unwrap_or(MAX_PLY as i32 - 1)
            .clamp(1, MAX_PLY as i32 - 1);
        let mut best: Option<(Vec<Move>, Score)> = None;
        let mut multipv_scores: Vec<Score> = Vec::new();
        let mut score = 0;
        let mut depth = 1;
        // For time use: iterations in a row with the same best move.
        let mut stable_iterations = 0;
        let mut previous_best: Option<Move> = None;
        while depth <= max_depth {
            // Helper threads spread over depths so that they fill the table ahead.
            if thread_id > 0 && depth > 1 && (depth + thread_id as i32) % 3 == 0 {
                depth += 1;
                continue;
            }
            self.seldepth = 0;
            self.excluded.clear();
            let previous_score = score;
            score = self.aspiration(depth, score);
            if self.aborted {
                // A root move that already beat the last iteration's best
                // (or its window) in this one is the better guess.
                if self.main && self.multipv == 1 && best.is_some() && !self.pv[0].is_empty() {
                    best = Some((self.pv[0].clone(), previous_score));
                }
                break;
            }
            self.completed_depth = depth;
            best = Some((self.pv[0].clone(), score));
            let mut lines = vec![(self.pv[0].clone(), score)];
            if self.main && self.multipv > 1 {
                let mut root_moves = Vec::new();
                self.root.generate(&mut root_moves, false);
                let wanted = self.multipv.min(root_moves.len());
                while lines.len() < wanted {
                    self.excluded = lines
                        .iter()
                        .filter_map(|(pv, _)| pv.first().copied())
                        .collect();
                    let previous = multipv_scores.get(lines.len()).copied().unwrap_or(score);
                    let s = self.aspiration(depth, previous);
                    if self.aborted || self.pv[0].is_empty() {
                        break;
                    }
                    lines.push((self.pv[0].clone(), s));
                }
                self.excluded.clear();
                // A later line can outscore an earlier one (search instability):
                // best first, and the best line decides the move.
                lines.sort_by_key(|(_, s)| std::cmp::Reverse(*s));
                best = Some(lines[0].clone());
                score = lines[0].1;
                multipv_scores = lines.iter().map(|(_, s)| *s).collect();
            }
            if self.main {
                for (i, (pv, s)) in lines.iter().enumerate() {
                    report(&Report {
                        depth,
                        seldepth: self.seldepth,
                        score: *s,
                        nodes: self.total_nodes(),
                        elapsed: self.start.elapsed(),
                        pv: pv.clone(),
                        hashfull: self.shared.tt.hashfull(),
                        multipv: i + 1,
                    });
                }
                if score.abs() > MATE_BOUND
                    && self.limits.depth.is_none()
                    && depth > 2 * (MATE - score.abs()) + 4
                {
                    break; // a mate is found and proven deep enough
                }
                let best_move = lines[0].0.first().copied();
                if best_move == previous_best {
                    stable_iterations += 1;
                } else {
                    stable_iterations = 0;
                }
                previous_best = best_move;
                // Spend more while the best move changes or the score falls,
                // less once it has held for several iterations.
                let mut scale = if !self.flexible_time || depth < 4 {
                    1.0
                } else {
                    match stable_iterations {
                        0 => 1.5,
                        1 => 1.2,
                        2 => 1.0,
                        3 => 0.85,
                        _ => 0.7,
                    }
                };
                if self.flexible_time && depth >= 4 && score < previous_score - 30 {
                    scale *= 1.3;
                }
                if let Some(d) = self.soft_deadline {
                    let budget = (d - self.start).mul_f64(scale);
                    // With a clock an iteration may overrun the soft limit (the
                    // hard one stops it); a fixed move time is spent within.
                    let start_by = if self.flexible_time { 0.7 } else { 0.5 };
                    if self.start.elapsed() > budget.mul_f64(start_by) {
                        break; // a new iteration would overrun the budget
                    }
                }
            }
            if self.aborted {
                break;
            }
            if self.shared.stop.load(Ordering::Relaxed) {
                break;
            }
            depth += 1;
        }
        let (pv, score) = best.unwrap_or_else(|| {
            // Stopped before the first iteration ended: any legal move.
            let mut moves = Vec::new();
            self.root.generate(&mut moves, false);
            (moves.into_iter().take(1).collect(), 0)
        });
        SearchResult {
            best: pv.first().copied(),
            ponder: pv.get(1).copied(),
            score,
            depth: self.completed_depth,
            nodes: self.nodes,
        }
    }

    fn aspiration(&mut self, depth: i32, previous: Score) -> Score {
        if depth < 5 || previous.abs() > MATE_BOUND {
            return self.search(&self.root.clone(), depth, -INFINITY, INFINITY, 0, true);
        }
        let mut delta = 25;
        let (mut alpha, mut beta) = (previous - delta, previous + delta);
        loop {
            let s = self.search(&self.root.clone(), depth, alpha, beta, 0, true);
            if self.aborted {
                return s;
            }
            if s <= alpha {
                alpha = (alpha - delta).max(-INFINITY);
            } else if s >= beta {
                beta = (beta + delta).min(INFINITY);
            } else {
                return s;
            }
            delta *= 2;
            if delta > 1000 {
                alpha = -INFINITY;
                beta = INFINITY;
            }
        }
    }

    fn total_nodes(&self) -> u64 {
        self.shared.nodes.load(Ordering::Relaxed) + self.unreported_nodes
    }

    #[inline]
    fn count_node(&mut self) {
        self.nodes += 1;
        self.unreported_nodes += 1;
        if self.nodes % 128 == 0
            && self
                .leaf_deadline
                .is_some_and(|d| Instant::now() >= d || self.shared.stop.load(Ordering::Relaxed))
        {
            self.aborted = true;
        }
        if self.unreported_nodes >= 1024 {
            self.shared
                .nodes
                .fetch_add(self.unreported_nodes, Ordering::Relaxed);
            self.unreported_nodes = 0;
            if self.completed_depth > 0 && self.main {
                let now = Instant::now();
                if self.hard_deadline.is_some_and(|d| now >= d) {
                    self.shared.stop.store(true, Ordering::Relaxed);
                }
            }
        }
    }

    /// True when the search must unwind. The first iteration always ends,
    /// so that there is a move to play.
    #[inline]
    fn should_stop(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        if self.completed_depth == 0 {
            return false;
        }
        let out_of_nodes = self.main && self.limits.nodes.is_some_and(|n| self.nodes >= n);
        if out_of_nodes || self.shared.stop.load(Ordering::Relaxed) {
            self.aborted = true;
        }
        self.aborted
    }

    fn is_draw(&self, pos: &B, ply: usize) -> bool {
        let clock = pos.halfmove_clock() as usize;
        let v = pos.variant();
        if v.spec.fifty_move_rule && clock >= 100 || pos.insufficient_material() {
            return true;
        }
        // A repetition within the search, or a third occurrence of a game position.
        let key = pos.key();
        let n = self.keys.len() - 1;
        let mut count = 0;
        let mut i = 2;
        while i <= clock.min(n) {
            if self.keys[n - i] == key {
                if n - i >= n - ply || count == 1 {
                    return true;
                }
                count += 1;
            }
            i += 2;
        }
        false
    }

    fn no_move_score(&self, pos: &B, in_check: bool, ply: usize) -> Score {
        let mated = -MATE + ply as Score;
        if in_check {
            return mated;
        }
        match pos.variant().spec.stalemate {
            StalemateResult::Draw => 0,
            StalemateResult::Loss => mated,
            StalemateResult::Win => -mated,
        }
    }

    fn evaluate(&mut self, pos: &B, ply: usize) -> Score {
        self.evaluate_within(pos, ply, -INFINITY, INFINITY)
    }

    /// The static evaluation, lazy outside `alpha..beta`; full ones are cached.
    fn evaluate_within(&mut self, pos: &B, ply: usize, alpha: Score, beta: Score) -> Score {
        let key = pos.key();
        if let Some(score) = self.eval_cache.get(key) {
            return score;
        }
        if let Some(net) = &self.net {
            // The sums of the path's last few plies, where this search has
            // made them, are the start (a parent found in the evaluation
            // cache made none).
            let (below, here) = self.accumulators.split_at_mut(ply);
            net.update(&below[ply.saturating_sub(NEAR_PLIES)..], pos, &mut here[0]);
            let score = net.output(&here[0], pos.side()) + eval::mop_up(pos, &self.eval);
            self.eval_cache.put(key, score);
            return score;
        }
        let (score, full) = eval::evaluate_lazily(pos, &self.eval, alpha, beta);
        if full {
            self.eval_cache.put(key, score);
        }
        score
    }

    fn has_pieces(&self, pos: &B) -> bool {
        let us = pos.side();
        let v = pos.variant();
        (0..v.kinds.len()).any(|k| {
            let kind = Kind(k as u8);
            !v.kinds[k].pawn && !v.kinds[k].royal && pos.presence(us, kind).any()
        })
    }

    fn history_index(side: Color, mv: Move) -> usize {
        side.index() * 128 * 128 + mv.from.index() * 128 + mv.to.index()
    }

    /// The index of a move by its side, kind and destination.
    fn piece_to(&self, side: Color, kind: Kind, mv: Move) -> usize {
        (side.index() * self.kind_count + kind.index()) * self.square_count + mv.to.index()
    }

    /// The continuation history entry of `piece_to` after the move played
    /// `back` plies before `ply`, if there is one.
    fn continuation_index(&self, ply: usize, back: usize, piece_to: usize) -> Option<usize> {
        let before = *self.played.get(ply.checked_sub(back)?)?;
        (before != NO_PIECE_TO).then(|| before * 2 * self.kind_count * self.square_count + piece_to)
    }

    /// Where the continuation histories after the moves one and two plies
    /// before `ply` start (the same for every move of the node).
    fn continuation_bases(&self, ply: usize) -> [Option<usize>; 2] {
        [1, 2].map(|back| self.continuation_index(ply, back, 0))
    }

    /// How good a quiet move has been: its own history plus its
    /// continuation history after the last two moves, given the node's
    /// [`Self::continuation_bases`].
    #[inline]
    fn quiet_history(
        &self,
        bases: [Option<usize>; 2],
        side: Color,
        mv: Move,
        piece_to: usize,
    ) -> i32 {
        let mut h = self.history[Self::history_index(side, mv)];
        for base in bases.into_iter().flatten() {
            h += self.continuation[base + piece_to] as i32;
        }
        h
    }

    /// The move that refuted the previous move last time, if any.
    fn counter_move(&self, ply: usize) -> u32 {
        match ply.checked_sub(1).map(|p| self.played[p]) {
            Some(prev) if prev != NO_PIECE_TO => self.counter_moves[prev],
            _ => 0,
        }
    }

    /// Orders moves: table move, captures and promotions that do not lose
    /// material (static exchange), killers, the counter move, history,
    /// then losing captures.
    fn score_moves(&mut self, pos: &B, ply: usize, tt_move: u32) {
        let mut scores = std::mem::take(&mut self.scores[ply]);
        scores.clear();
        let mut kinds = std::mem::take(&mut self.move_kinds[ply]);
        kinds.clear();
        let counter = self.counter_move(ply);
        let bases = self.continuation_bases(ply);
        let side = pos.side();
        // A plain move moves the piece on its square, and the moves of one
        // piece come together: its kind is looked up once.
        let mut last_plain: Option<(Square, Kind)> = None;
        for &mv in &self.move_lists[ply] {
            let code = move_code(mv);
            let victim = pos.victim(mv);
            let plain = matches!(mv.special, Special::None | Special::DoubleStep);
            let mover = match last_plain {
                Some((from, kind)) if plain && from == mv.from => kind,
                _ => {
                    let kind = pos.moved_kind(mv);
                    if plain {
                        last_plain = Some((mv.from, kind));
                    }
                    kind
                }
            };
            kinds.push((victim, mover));
            let s = if code == tt_move {
                1 << 30
            } else if victim.is_some() || mv.promotion.is_some() {
                let gain = victim.map_or(0, |k| self.eval.value[k.index()]);
                let cost = self.eval.value[mover.index()];
                let promo = mv.promotion.map_or(0, |k| self.eval.value[k.index()]);
                let base = 10 * gain - cost / 10 + promo;
                // Taking a dearer or equal piece never loses material.
                if (cost > gain || mv.promotion.is_some())
                    && self.see.see_known(pos, mv, mover, victim) < 0
                {
                    BAD_CAPTURE + base
                } else {
                    GOOD_CAPTURE + base
                }
            } else if self.killers[ply][0] == code {
                KILLER + 2
            } else if self.killers[ply][1] == code {
                KILLER + 1
            } else if counter == code {
                KILLER
            } else {
                let piece_to = self.piece_to(side, mover, mv);
                self.quiet_history(bases, side, mv, piece_to)
            };
            scores.push(s);
        }
        self.scores[ply] = scores;
        self.move_kinds[ply] = kinds;
    }

    /// Moves the best-scored remaining move to `i` and returns it.
    fn pick(&mut self, ply: usize, i: usize) -> Move {
        let scores = &mut self.scores[ply];
        // The first of the highest scores, in two passes that vectorise.
        let rest = &scores[i..];
        let high = rest.iter().copied().max().unwrap_or(i32::MIN);
        let best = i + rest.iter().position(|&s| s == high).unwrap_or(0);
        scores.swap(i, best);
        self.move_kinds[ply].swap(i, best);
        self.move_lists[ply].swap(i, best);
        self.move_lists[ply][i]
    }

    fn update_pv(&mut self, ply: usize, mv: Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(mv);
        line.extend_from_slice(&tail[0]);
    }

    fn search(
        &mut self,
        pos: &B,
        depth: i32,
        alpha: Score,
        beta: Score,
        ply: usize,
        allow_null: bool,
    ) -> Score {
        let in_check = pos.in_check();
        self.search_node(pos, in_check, depth, alpha, beta, ply, allow_null)
    }

    /// [`Self::search`] when the caller already knows whether the side to
    /// move is in check.
    #[allow(clippy::too_many_arguments)]
    fn search_node(
        &mut self,
        pos: &B,
        in_check: bool,
        mut depth: i32,
        mut alpha: Score,
        mut beta: Score,
        ply: usize,
        allow_null: bool,
    ) -> Score {
        self.pv[ply].clear();
        if self.should_stop() {
            return 0;
        }
        if in_check && ply < MAX_PLY / 2 {
            depth += 1;
        }
        if depth <= 0 || ply >= MAX_PLY - 1 {
            return self.quiescence_node(pos, in_check, alpha, beta, ply);
        }
        self.count_node();
        self.seldepth = self.seldepth.max(ply as i32);
        let pv_node = beta - alpha > 1;
        if ply > 0 {
            if self.is_draw(pos, ply) {
                return 0;
            }
            alpha = alpha.max(-MATE + ply as Score);
            beta = beta.min(MATE - ply as Score - 1);
            if alpha >= beta {
                return alpha;
            }
        }
        let key = pos.key();
        let entry = self.shared.tt.probe(key, ply as i32);
        let tt_move = entry.map_or(0, |e| e.move_code);
        let singular_search = self.singular_move[ply] != 0;
        if let Some(e) = entry.filter(|_| !singular_search) {
            let usable = match e.bound {
                Bound::Exact => true,
                Bound::Lower => e.score >= beta,
                Bound::Upper => e.score <= alpha,
            };
            if !pv_node && ply > 0 && e.depth >= depth && usable {
                return e.score;
            }
        }
        // Without a table move the node's ordering is poor: search it one
        // ply less (internal iterative reduction).
        if tt_move == 0 && depth >= 4 && !singular_search {
            depth -= 1;
        }
        let static_eval = if in_check {
            -INFINITY
        } else {
            self.evaluate(pos, ply)
        };
        self.static_evals[ply] = static_eval;
        // Better than two plies ago (or then in check): prune less.
        let improving = !in_check
            && (ply < 2
                || self.static_evals[ply - 2] == -INFINITY
                || static_eval > self.static_evals[ply - 2]);
        // The table's score bounds the value better than the evaluation.
        let eval = match entry {
            Some(e)
                if !in_check
                    && e.score.abs() < MATE_BOUND
                    && match e.bound {
                        Bound::Exact => true,
                        Bound::Lower => e.score > static_eval,
                        Bound::Upper => e.score < static_eval,
                    } =>
            {
                e.score
            }
            _ => static_eval,
        };
        if !pv_node && !in_check && ply > 0 {
            // The position is so good that a shallow search would fail high
            // anyway. By the static evaluation too: a table bound from a
            // shallower search can hide a threat (a quiet mate it never saw).
            if depth <= 7
                && eval.min(static_eval) - 80 * (depth - improving as i32) >= beta
                && beta.abs() < MATE_BOUND
            {
                return eval;
            }
            if allow_null && !singular_search && depth >= 3 && eval >= beta && self.has_pieces(pos)
            {
                let r = 3 + depth / 4 + ((eval - beta) / 200).min(2);
                let child = pos.make_null();
                self.keys.push(child.key());
                self.played[ply] = NO_PIECE_TO;
                let s = -self.search(&child, depth - 1 - r, -beta, -beta + 1, ply + 1, false);
                self.keys.pop();
                if self.aborted {
                    return 0;
                }
                if s >= beta {
                    return if s > MATE_BOUND { beta } else { s };
                }
            }
        }

        // Singular extension: the table move is searched one ply deeper when
        // every other move fails low against a margin below its score; when
        // another move beats beta too, the node fails high (multi-cut).
        let mut singular_extension = 0;
        if let Some(e) = entry {
            if ply > 0
                && !singular_search
                && depth >= 6
                && tt_move != 0
                && e.bound != Bound::Upper
                && e.depth >= depth - 3
                && e.score.abs() < MATE_BOUND
            {
                let singular_beta = e.score - 2 * depth;
                self.singular_move[ply] = tt_move;
                let s = self.search_node(
                    pos,
                    in_check,
                    (depth - 1) / 2,
                    singular_beta - 1,
                    singular_beta,
                    ply,
                    false,
                );
                self.singular_move[ply] = 0;
                if self.aborted {
                    return 0;
                }
                if s < singular_beta {
                    singular_extension = 1;
                } else if singular_beta >= beta {
                    return singular_beta;
                }
                // The excluded search ran at this ply and wrote its slot.
                self.static_evals[ply] = static_eval;
            }
        }

        let mut moves = std::mem::take(&mut self.move_lists[ply]);
        moves.clear();
        pos.generate(&mut moves, false);
        self.move_lists[ply] = moves;
        if self.move_lists[ply].is_empty() {
            return self.no_move_score(pos, in_check, ply);
        }
        self.score_moves(pos, ply, tt_move);

        let original_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_code = 0;
        let mut searched = 0usize;
        let mut quiets_tried: Vec<(Move, usize)> = Vec::new();
        let bases = self.continuation_bases(ply);
        let count = self.move_lists[ply].len();
        for i in 0..count {
            let mv = self.pick(ply, i);
            if ply == 0 && self.excluded.contains(&mv) {
                continue; // a line of MultiPV already found
            }
            let code = move_code(mv);
            if singular_search && code == self.singular_move[ply] {
                continue;
            }
            let order = self.scores[ply][i];
            let (victim, mover) = self.move_kinds[ply][i];
            let capture = victim.is_some();
            let quiet = !capture && mv.promotion.is_none();
            let killer = self.killers[ply].contains(&code);
            let piece_to = self.piece_to(pos.side(), mover, mv);
            let history = if quiet {
                self.quiet_history(bases, pos.side(), mv, piece_to)
            } else {
                0
            };
            // Late move pruning: enough quiet moves tried near the leaves
            // (before the move is made: most of them never are).
            if ply > 0 && !in_check && quiet && !killer && best > -MATE_BOUND {
                let late = (4 + 2 * depth * depth) * if improving { 3 } else { 2 } / 3;
                if depth <= 4 && searched >= late as usize {
                    continue;
                }
            }
            let child = pos.make(mv);
            let gives_check = child.in_check();
            if ply > 0 && !in_check && !gives_check && best > -MATE_BOUND {
                if quiet && !killer {
                    // Futility pruning near the leaves.
                    if depth <= 3 && eval + 100 + 110 * depth <= alpha {
                        continue;
                    }
                    // A move that has kept failing here and after these moves.
                    if depth <= 3 && searched > 0 && history < -3000 * depth {
                        continue;
                    }
                    // A quiet move that hangs material.
                    if depth <= 6
                        && self.see.see_known(pos, mv, mover, victim) < -25 * depth * depth
                    {
                        continue;
                    }
                } else if !quiet
                    && depth <= 6
                    && order < 0
                    && self.see.see_known(pos, mv, mover, victim) < -100 * depth
                {
                    continue; // a capture that loses too much to recover
                }
            }
            self.keys.push(child.key());
            self.played[ply] = piece_to;
            let new_depth = depth - 1 + singular_extension * i32::from(code == tt_move);
            let mut score;
            if searched == 0 {
                score =
                    -self.search_node(&child, gives_check, new_depth, -beta, -alpha, ply + 1, true);
            } else {
                let mut r = 0;
                if depth >= 3 && quiet && !gives_check && !in_check && searched >= 2 {
                    r = reduction(depth, searched);
                    if pv_node {
                        r -= 1;
                    }
                    if !improving {
                        r += 1;
                    }
                    if killer {
                        r -= 1;
                    }
                    r -= (history / 10000).clamp(-2, 2);
                    r = r.clamp(0, new_depth - 1);
                }
                score = -self.search_node(
                    &child,
                    gives_check,
                    new_depth - r,
                    -alpha - 1,
                    -alpha,
                    ply + 1,
                    true,
                );
                if score > alpha && r > 0 {
                    score = -self.search_node(
                        &child,
                        gives_check,
                        new_depth,
                        -alpha - 1,
                        -alpha,
                        ply + 1,
                        true,
                    );
                }
                if score > alpha && score < beta {
                    score = -self.search_node(
                        &child,
                        gives_check,
                        new_depth,
                        -beta,
                        -alpha,
                        ply + 1,
                        true,
                    );
                }
            }
            self.keys.pop();
            if self.aborted {
                return 0;
            }
            searched += 1;
            if score > best {
                best = score;
                best_code = code;
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, mv);
                    if score >= beta {
                        if quiet {
                            self.reward_quiet(
                                pos.side(),
                                ply,
                                (mv, piece_to),
                                depth,
                                &quiets_tried,
                            );
                        }
                        break;
                    }
                }
            }
            if quiet {
                quiets_tried.push((mv, piece_to));
            }
        }
        if searched == 0 {
            if singular_search {
                return alpha; // no other move: the table move is singular
            }
            // Every move was pruned: judge the node by its static value.
            return static_eval.clamp(-MATE_BOUND, MATE_BOUND);
        }
        if singular_search {
            return best; // without the best move, the node's value is not its own
        }
        let bound = Bound::of(best, original_alpha, beta);
        self.shared.tt.store(
            key,
            ply as i32,
            Entry {
                move_code: best_code,
                score: best,
                depth,
                bound,
            },
        );
        best
    }

    /// A quiet move refuted the node: it becomes a killer and the counter
    /// move of the previous move; its histories gain, and those of the
    /// quiet moves tried before it lose.
    fn reward_quiet(
        &mut self,
        side: Color,
        ply: usize,
        best: (Move, usize),
        depth: i32,
        others: &[(Move, usize)],
    ) {
        let code = move_code(best.0);
        if self.killers[ply][0] != code {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = code;
        }
        if let Some(prev) = ply.checked_sub(1).map(|p| self.played[p]) {
            if prev != NO_PIECE_TO {
                self.counter_moves[prev] = code;
            }
        }
        // A larger step (24 d² + 200 d - 150) won in self-play and lost
        // against fairy-stockfish (docs/benchmarks.md).
        let bonus = (depth * depth).min(400);
        let bonus_for = |won: bool| if won { bonus } else { -bonus };
        for (won, &(mv, piece_to)) in
            std::iter::once((true, &best)).chain(others.iter().map(|o| (false, o)))
        {
            let delta = bonus_for(won);
            let h = &mut self.history[Self::history_index(side, mv)];
            *h += delta - *h * delta.abs() / 16384;
            for back in [1, 2] {
                if let Some(i) = self.continuation_index(ply, back, piece_to) {
                    let c = &mut self.continuation[i];
                    *c += (delta - *c as i32 * delta.abs() / 16384) as i16;
                }
            }
        }
    }

    fn quiescence(&mut self, pos: &B, alpha: Score, beta: Score, ply: usize) -> Score {
        let in_check = pos.in_check();
        self.quiescence_node(pos, in_check, alpha, beta, ply)
    }

    /// [`Self::quiescence`] when the caller knows whether the side to move
    /// is in check.
    fn quiescence_node(
        &mut self,
        pos: &B,
        in_check: bool,
        mut alpha: Score,
        beta: Score,
        ply: usize,
    ) -> Score {
        self.pv[ply].clear();
        if self.should_stop() {
            return 0;
        }
        self.count_node();
        self.seldepth = self.seldepth.max(ply as i32);
        if ply >= MAX_PLY - 1 {
            return if in_check { 0 } else { self.evaluate(pos, ply) };
        }
        if pos.insufficient_material() {
            return 0;
        }
        // Outside the principal variation a stored bound may settle the node.
        let key = pos.key();
        let pv_node = beta - alpha > 1;
        if !pv_node {
            if let Some(e) = self.shared.tt.probe(key, ply as i32) {
                let usable = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => e.score >= beta,
                    Bound::Upper => e.score <= alpha,
                };
                if usable {
                    return e.score;
                }
            }
        }
        let original_alpha = alpha;
        let mut best_code = 0;
        let mut best = -INFINITY;
        let mut stand = -INFINITY;
        if !in_check {
            stand = self.evaluate_within(pos, ply, alpha, beta);
            if stand >= beta {
                return stand;
            }
            alpha = alpha.max(stand);
            best = stand;
        }
        let mut moves = std::mem::take(&mut self.move_lists[ply]);
        moves.clear();
        pos.generate(&mut moves, !in_check);
        self.move_lists[ply] = moves;
        if in_check && self.move_lists[ply].is_empty() {
            return self.no_move_score(pos, true, ply);
        }
        self.score_moves(pos, ply, 0);
        let best_promotion = pos
            .variant()
            .promotion_kinds
            .iter()
            .map(|k| self.eval.value[k.index()])
            .max()
            .unwrap_or(0);
        for i in 0..self.move_lists[ply].len() {
            let mv = self.pick(ply, i);
            if !in_check {
                if mv
                    .promotion
                    .is_some_and(|k| self.eval.value[k.index()] < best_promotion)
                {
                    continue;
                }
                let gain = self.move_kinds[ply][i]
                    .0
                    .map_or(0, |k| self.eval.value[k.index()]);
                let promo = mv.promotion.map_or(0, |k| self.eval.value[k.index()]);
                if promo == 0 && stand + gain + 200 < alpha {
                    continue; // delta pruning: even winning it leaves us below alpha
                }
                if self.scores[ply][i] < 0 {
                    break; // the rest lose material (static exchange)
                }
            }
            let child = pos.make(mv);
            let score = -self.quiescence(&child, -beta, -alpha, ply + 1);
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_code = move_code(mv);
                    self.update_pv(ply, mv);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        let bound = Bound::of(best, original_alpha, beta);
        self.shared.tt.store(
            key,
            ply as i32,
            Entry {
                move_code: best_code,
                score: best,
                depth: 0,
                bound,
            },
        );
        best
    }
}

/// Searches `root` on a fresh table with one thread: for tests and tools.
pub fn search_once<B: TurnPosition>(root: &B, game_keys: &[u64], limits: Limits) -> SearchResult {
    let shared = Arc::new(Shared::new(16));
    Searcher::new(shared, root.clone(), game_keys, limits).run(1, |_| {})
}

#[cfg(test)]
mod tests {
    use super::*;
    use parity_rules::{Position, Registry};

    fn budgets(limits: Limits) -> (Duration, Duration) {
        let v = Registry::builtin().get("chess").unwrap();
        let root = Position::<u64>::start(v);
        let mut s = Searcher::new(Arc::new(Shared::new(1)), root, &[], limits);
        s.set_deadlines();
        (
            s.soft_deadline.unwrap() - s.start,
            s.hard_deadline.unwrap() - s.start,
        )
    }

    /// The search of a node one ply below `root` after `first`, at
    /// `depth`, leaving `excluded` out as a singular-extension search does.
    fn search_below(root: &str, first: &str, excluded: Option<&str>, depth: i32) -> (Score, bool) {
        let v = Registry::builtin().get("chess").unwrap();
        let root = Position::<u64>::from_fen(v, root).unwrap();
        let find = |pos: &Position<u64>, uci: &str| {
            let mut moves = Vec::new();
            pos.generate(&mut moves, false);
            *moves
                .iter()
                .find(|&&m| pos.uci(m) == uci)
                .unwrap_or_else(|| panic!("{uci}"))
        };
        let child = root.make(find(&root, first));
        let mut s = Searcher::new(Arc::new(Shared::new(1)), root, &[], Limits::default());
        s.keys.push(child.key());
        s.played[0] = NO_PIECE_TO;
        if let Some(uci) = excluded {
            s.singular_move[1] = move_code(find(&child, uci));
        }
        let score = s.search_node(
            &child,
            child.in_check(),
            depth,
            -INFINITY,
            INFINITY,
            1,
            false,
        );
        (score, s.shared.tt.probe(child.key(), 1).is_some())
    }

    #[test]
    fn a_singular_search_leaves_its_move_out_and_the_table_alone() {
        // After ...Rb2 White's one legal move is Kxb2: without it, nothing.
        let root = "k7/1r6/8/8/8/8/8/K7 b - - 0 1";
        let (full, stored) = search_below(root, "b7b2", None, 4);
        assert!(stored);
        assert!(full.abs() < 200, "{full}");
        let (left_out, stored) = search_below(root, "b7b2", Some("a1b2"), 4);
        assert!(
            left_out <= -MATE + 1,
            "no other move, the window's floor: {left_out}"
        );
        assert!(!stored, "the value without the best move is not the node's");
        // White wins the queen with Rxd5; without it, White loses the rook.
        let root = "k7/8/8/3q4/8/8/8/K2R4 b - - 0 1";
        let (full, _) = search_below(root, "a8b8", None, 4);
        let (left_out, stored) = search_below(root, "a8b8", Some("d1d5"), 4);
        assert!(full > 300 && left_out < -300, "{full} {left_out}");
        assert!(!stored);
    }

    #[test]
    fn a_search_starts_from_the_last_ones_histories_until_a_new_game() {
        let registry = Registry::builtin();
        let start = |id: &str| {
            let v = registry.get(id).unwrap();
            Position::<u128>::from_fen(v, &v.spec.start_fen).unwrap()
        };
        let limits = Limits {
            depth: Some(6),
            ..Limits::default()
        };
        let shared = Arc::new(Shared::new(1));
        let resumed = |root| {
            let mut s = Searcher::new(shared.clone(), root, &[], limits.clone());
            s.resume_histories();
            s.history.iter().any(|&h| h != 0)
        };
        assert!(
            !resumed(start("chess")),
            "a first search starts from nothing"
        );
        search_once_on(&shared, start("chess"), &limits);
        assert!(resumed(start("chess")));
        // Resuming took them: a search that ends keeps its own.
        search_once_on(&shared, start("chess"), &limits);
        shared.clear();
        assert!(!resumed(start("chess")), "a new game forgets them");
        // Another board's histories do not fit.
        search_once_on(&shared, start("parity12"), &limits);
        assert!(!resumed(start("chess")));
    }

    fn search_once_on(shared: &Arc<Shared>, root: Position<u128>, limits: &Limits) {
        Searcher::new(shared.clone(), root, &[], limits.clone()).run(1, |_| {});
    }

    #[test]
    fn a_clock_is_spent_over_twenty_moves_and_a_hard_limit_keeps_a_reserve() {
        let clock = |left_ms: u64| Limits {
            time: [Some(Duration::from_millis(left_ms)), None],
            increment: [Duration::from_millis(100); 2],
            ..Limits::default()
        };
        // 10 s + 0.1 s: a twentieth of the clock and three quarters of the increment.
        let (soft, hard) = budgets(clock(10_000));
        assert_eq!(soft.as_millis(), 575, "{soft:?}");
        assert_eq!(hard, soft * 4);
        // Nearly flagged: never more than a third of what is left (plus the increment).
        let (soft, hard) = budgets(clock(300));
        assert!(hard <= Duration::from_millis(200), "{hard:?}");
        assert!(soft <= hard);
        // A fixed time per move is both limits, less the overhead.
        let (soft, hard) = budgets(Limits {
            movetime: Some(Duration::from_millis(100)),
            overhead: Duration::from_millis(10),
            ..Limits::default()
        });
        assert_eq!(
            (soft, hard),
            (Duration::from_millis(90), Duration::from_millis(90))
        );
    }
}
