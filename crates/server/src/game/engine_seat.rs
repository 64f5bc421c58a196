//! Our engine in a seat. A search runs on tokio's blocking pool behind a
//! semaphore with one permit per core, so thinking engines never stall
//! the tasks that serve games, and never oversubscribe the machine.
//!
//! Levels 1..=8 are the engine's (`parity_engine::level`): a depth, a time
//! and, for the lower ones, deliberate error; simultaneous variants play
//! the mixed strategy of the default search (docs/engine.md), the lower
//! levels with a share of random turns.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use parity_engine::level::Level;
use parity_engine::search::Shared;
use parity_engine::simplay::{self, Strategy};
use parity_engine::simsearch::SimLimits;
use parity_rules::simultaneous::SimPosition;
use parity_rules::{AnyGame, Color, Move};
use rand::RngExt as _;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

pub use parity_engine::level::{MAX_LEVEL, MIN_LEVEL};
/// Transposition table per search, in MB: small, as levels search shallow.
const HASH_MB: usize = 8;
/// Seats whose table and histories are kept, per worker of the pool.
const SEATS_KEPT_PER_WORKER: usize = 4;

/// A game to think about, from the seat of `color`, at a strength.
#[derive(Clone, Debug)]
pub struct Job {
    game: AnyGame,
    color: Color,
    level: Level,
}

impl Job {
    /// What the engine playing `color` at `level` must think about now.
    pub fn new(game: &AnyGame, color: Color, level: u8) -> Job {
        Job {
            game: game.clone(),
            color,
            level: Level::of(level, game.is_simultaneous()),
        }
    }

    /// Searches (blocking) with a table and histories of its own; none if
    /// there is no legal move.
    pub fn think(self) -> Option<Move> {
        self.think_with(Job::new_memory())
    }

    /// A new table and histories for a seat's searches.
    pub fn new_memory() -> Arc<Shared> {
        Arc::new(Shared::new(HASH_MB))
    }

    /// Searches (blocking) on `shared`, the table and histories the seat's
    /// last search left; none if there is no legal move.
    pub fn think_with(self, shared: Arc<Shared>) -> Option<Move> {
        shared.stop.store(false, Ordering::Relaxed);
        let mut rng = rand::rng();
        let random = move || rng.random::<f64>();
        match &self.game {
            AnyGame::TurnBased(g) => self.level.choose(g.positions(), shared, random),
            AnyGame::TurnBased64(g) => self.level.choose(g.positions(), shared, random),
            AnyGame::Crowd(g) => self.level.choose(g.positions(), shared, random),
            AnyGame::Simultaneous(g) => {
                let (root, before) = g
                    .positions()
                    .split_last()
                    .expect("a game has its start position");
                let keys: Vec<u64> = before.iter().map(SimPosition::hash).collect();
                let request = simplay::Request {
                    side: self.color,
                    strategy: self
                        .level
                        .simultaneous_strategy(Strategy::Mixed, rand::rng().random()),
                    limits: SimLimits {
                        depth: Some(self.level.depth),
                        movetime: Some(self.level.movetime),
                        ..SimLimits::default()
                    },
                    u: rand::rng().random(),
                    exploit: false,
                };
                simplay::choose(root, &keys, &request, shared, |_| {}).0
            }
        }
    }
}

/// An engine's seat: a game and the colour it plays.
pub type Seat = (String, Color);

/// The tables and histories of the seats that searched last, so that a
/// seat's search starts from its previous one's, as the UCI engine's does
/// (the levels are measured that way). Only the most recent seats keep
/// theirs: memory stays under `capacity` tables of [`HASH_MB`].
struct Memories {
    seats: Mutex<VecDeque<(Seat, Arc<Shared>)>>,
    capacity: usize,
}

impl Memories {
    /// The seat's memory, or a new one in place of the least recent. One
    /// still held by a search (of an earlier turn) is not shared: one
    /// search ending would stop the other.
    fn of(&self, seat: Seat) -> Arc<Shared> {
        let mut seats = self.seats.lock().unwrap_or_else(|e| e.into_inner());
        let kept = seats.iter().position(|(s, _)| *s == seat);
        let shared = match kept.and_then(|i| seats.remove(i)) {
            Some((_, shared)) if Arc::strong_count(&shared) == 1 => shared,
            _ => Job::new_memory(),
        };
        seats.push_front((seat, shared.clone()));
        seats.truncate(self.capacity);
        shared
    }

    /// Forgets a game's seats (it ended).
    fn forget(&self, game: &str) {
        let mut seats = self.seats.lock().unwrap_or_else(|e| e.into_inner());
        seats.retain(|((id, _), _)| id != game);
    }
}

/// The bounded pool engine searches run in.
#[derive(Clone)]
pub struct EnginePool {
    permits: Arc<Semaphore>,
    /// Searches that may run at once.
    workers: usize,
    /// Searches running or waiting for a permit.
    queued: Arc<AtomicUsize>,
    memories: Arc<Memories>,
}

/// Counts a search in [`EnginePool::queued`] while it lives.
struct InQueue(Arc<AtomicUsize>);

impl Drop for InQueue {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

impl EnginePool {
    /// A pool running at most `threads` searches at once.
    pub fn new(threads: usize) -> EnginePool {
        EnginePool {
            permits: Arc::new(Semaphore::new(threads.max(1))),
            workers: threads.max(1),
            queued: Arc::new(AtomicUsize::new(0)),
            memories: Arc::new(Memories {
                seats: Mutex::new(VecDeque::new()),
                capacity: SEATS_KEPT_PER_WORKER * threads.max(1),
            }),
        }
    }

    /// The table and histories `seat`'s last search left (new ones if it
    /// has none or they were given to more recent seats).
    pub fn memory(&self, seat: Seat) -> Arc<Shared> {
        self.memories.of(seat)
    }

    /// Frees the memories of a game's seats.
    pub fn game_ended(&self, game: &str) {
        self.memories.forget(game);
    }

    /// Searches running or waiting for a permit now.
    pub fn queued(&self) -> usize {
        self.queued.load(Ordering::Relaxed)
    }

    /// Searches that may run at once, running now, and waiting for a
    /// worker now (for the metrics).
    pub fn load(&self) -> (usize, usize, usize) {
        let busy = self
            .workers
            .saturating_sub(self.permits.available_permits());
        (self.workers, busy, self.queued().saturating_sub(busy))
    }

    /// One permit per core.
    pub fn per_core() -> EnginePool {
        EnginePool::new(std::thread::available_parallelism().map_or(1, |n| n.get()))
    }

    /// Waits for a free worker; counted in [`EnginePool::queued`] from now
    /// until its search ends.
    pub async fn worker(&self) -> Option<Worker> {
        self.queued.fetch_add(1, Ordering::Relaxed);
        let in_queue = InQueue(self.queued.clone());
        let permit = self.permits.clone().acquire_owned().await.ok()?;
        Some(Worker {
            _permit: permit,
            _in_queue: in_queue,
        })
    }

    /// Runs the job when a worker is free; none if there is no legal move
    /// or the search failed.
    pub async fn think(&self, job: Job) -> Option<Move> {
        self.worker().await?.think(job).await
    }

    /// Runs a blocking search `f` when a worker is free; none if it failed.
    pub async fn run<T: Send + 'static>(
        &self,
        f: impl FnOnce() -> T + Send + 'static,
    ) -> Option<T> {
        self.worker().await?.run(f).await
    }
}

/// A search's hold on one of the pool's workers.
pub struct Worker {
    _permit: OwnedSemaphorePermit,
    _in_queue: InQueue,
}

impl Worker {
    /// Searches on a blocking thread, holding the worker until the search
    /// ends even if nobody waits for its answer any more.
    pub async fn think(self, job: Job) -> Option<Move> {
        self.run(move || job.think()).await.flatten()
    }

    /// [`Worker::think`] on the table and histories of the seat's last
    /// search.
    pub async fn think_with(self, job: Job, shared: Arc<Shared>) -> Option<Move> {
        self.run(move || job.think_with(shared)).await.flatten()
    }

    /// Runs the blocking `f` on this worker; none if it panicked.
    pub async fn run<T: Send + 'static>(self, f: impl FnOnce() -> T + Send + 'static) -> Option<T> {
        tokio::task::spawn_blocking(move || {
            let _held = self;
            f()
        })
        .await
        .ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use parity_rules::Registry;

    #[test]
    fn the_engine_finds_a_legal_move_in_each_family() {
        let reg = Registry::builtin();
        for id in ["chess", "safety-in-numbers", "parity"] {
            let game = AnyGame::new(reg.get(id).unwrap());
            for color in Color::ALL {
                if game.to_move().is_some_and(|c| c != color) {
                    continue;
                }
                let mv = Job::new(&game, color, 1).think().expect("a move");
                assert!(game.legal_moves(color).contains(&mv), "{id}: {mv:?}");
            }
        }
    }

    #[test]
    fn a_seat_keeps_its_memory_while_it_is_among_the_recent_ones() {
        let pool = EnginePool::new(1);
        let seat = |g: &str, c| (g.to_string(), c);
        let kept = Arc::downgrade(&pool.memory(seat("a", Color::White)));
        assert!(Arc::ptr_eq(
            &pool.memory(seat("a", Color::White)),
            &kept.upgrade().unwrap()
        ));
        let black = pool.memory(seat("a", Color::Black));
        assert!(!Arc::ptr_eq(&black, &kept.upgrade().unwrap()));
        drop(black);
        // Three more recent seats leave it among the four kept.
        for g in ["b", "c"] {
            pool.memory(seat(g, Color::White));
        }
        assert!(Arc::ptr_eq(
            &pool.memory(seat("a", Color::White)),
            &kept.upgrade().unwrap()
        ));
        for g in ["d", "e", "f", "g"] {
            pool.memory(seat(g, Color::White));
        }
        assert!(
            kept.upgrade().is_none(),
            "four more recent seats push it out"
        );
        assert_eq!(
            pool.memories.seats.lock().unwrap().len(),
            SEATS_KEPT_PER_WORKER
        );
        let kept = Arc::downgrade(&pool.memory(seat("a", Color::White)));
        pool.game_ended("a");
        assert!(kept.upgrade().is_none(), "an ended game's memory is freed");
        // One still held by a search is not given to a second one.
        let held = pool.memory(seat("a", Color::White));
        assert!(!Arc::ptr_eq(&held, &pool.memory(seat("a", Color::White))));
    }
}
