//! The engines' pool as the hub hands it out: engine seats, analyses and
//! finished games' computer analyses, each refused while the queue is full.

use std::collections::HashSet;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use parity_rules::AnyGame;

use crate::base::limits::Limits;
use crate::base::metrics;
use crate::base::refusal::{Refusal, Said};
use crate::game::analysis::{self, Evaluation};
use crate::game::engine_seat::{EnginePool, MAX_LEVEL, MIN_LEVEL};
use crate::game::event::now_ms;
use crate::game::review::{self, Review};
use crate::store::{Change, Writer};

pub struct EngineDesk {
    pool: EnginePool,
    /// Jobs that may wait for a worker before more are refused.
    queue: usize,
    analysis_time: Duration,
    game_analysis_time: Duration,
    /// Finished games whose computer analysis runs on this node.
    reviewing: Arc<Mutex<HashSet<String>>>,
}

/// Holds a game in [`EngineDesk::reviewing`] while its analysis runs.
struct Reviewing(Arc<Mutex<HashSet<String>>>, String);

impl Drop for Reviewing {
    fn drop(&mut self) {
        self.0.lock().expect("the set of analyses").remove(&self.1);
    }
}

impl EngineDesk {
    pub fn new(pool: EnginePool, limits: &Limits) -> EngineDesk {
        EngineDesk {
            pool,
            queue: limits.engine_queue,
            analysis_time: limits.analysis_time,
            game_analysis_time: limits.game_analysis_time,
            reviewing: Arc::default(),
        }
    }

    /// The workers engine seats search on.
    pub fn pool(&self) -> &EnginePool {
        &self.pool
    }

    fn check_queue(&self) -> Result<(), Refusal> {
        if self.pool.queued() >= self.queue {
            metrics::refused("engine_queue");
            return Err(Refusal::Busy(Said::new(
                "server-refusal-engines-are-all-busy-try",
            )));
        }
        Ok(())
    }

    /// An engine seat of `level` can be had now.
    pub fn check_level(&self, level: u8) -> Result<(), Refusal> {
        if !(MIN_LEVEL..=MAX_LEVEL).contains(&level) {
            return Err(Refusal::Malformed(
                Said::new("server-refusal-engine-level-must")
                    .with("MIN_LEVEL", MIN_LEVEL)
                    .with("MAX_LEVEL", MAX_LEVEL),
            ));
        }
        self.check_queue()
    }

    /// Our engine's evaluation of the last position of `game`, within the
    /// queue and the time an analysis may take.
    pub async fn analyse(&self, game: AnyGame) -> Result<Evaluation, Refusal> {
        self.check_queue()?;
        let time = self.analysis_time;
        self.pool
            .run(move || analysis::evaluate(&game, time))
            .await
            .ok_or_else(|| Refusal::Internal(Said::new("server-refusal-analysis-failed")))
    }

    /// Whether finished game `id`'s computer analysis runs on this node.
    pub fn is_reviewing(&self, id: &str) -> bool {
        self.reviewing
            .lock()
            .expect("the set of analyses")
            .contains(id)
    }

    /// Starts the computer analysis of finished game `id` (unless it runs
    /// already), each position a job of its own on the pool so that engine
    /// seats are not held up; the review is written with the game.
    pub fn start_review(&self, id: &str, game: AnyGame, writer: Writer) -> Result<(), Refusal> {
        self.check_queue()?;
        {
            let mut reviewing = self.reviewing.lock().expect("the set of analyses");
            if reviewing.contains(id) {
                return Ok(());
            }
            // One analysis per worker at most: engine seats keep their share.
            if reviewing.len() >= self.pool.load().0 {
                return Err(Refusal::Busy(Said::new(
                    "server-refusal-engines-are-analysing-other-games",
                )));
            }
            reviewing.insert(id.to_string());
        }
        let held = Reviewing(self.reviewing.clone(), id.to_string());
        let (pool, time) = (self.pool.clone(), self.game_analysis_time);
        tokio::spawn(async move {
            let _held = held;
            let id = _held.1.clone();
            let Some(review) = review_on(&pool, &game, time).await else {
                tracing::error!("the analysis of game {id} failed");
                return;
            };
            let body = match serde_json::to_string(&review) {
                Ok(body) => body,
                Err(e) => return tracing::error!("the analysis of game {id}: {e}"),
            };
            let change = Change::Analysis {
                game: id.clone(),
                at_ms: now_ms(),
                body,
            };
            if let Err(e) = writer.write(vec![change]).await {
                tracing::error!("the analysis of game {id} is not stored: {e}");
            }
        });
        Ok(())
    }

    /// Sets the pool's gauges (read at a scrape).
    pub fn measure(&self) {
        let (workers, busy, waiting) = self.pool.load();
        metrics::engines(workers, busy, waiting);
    }
}

/// The computer analysis of `game`, one pool job per position.
async fn review_on(pool: &EnginePool, game: &AnyGame, time: Duration) -> Option<Review> {
    let ms = time.as_millis() as u64;
    let prefixes = review::prefixes(game);
    if game.is_simultaneous() {
        let mut searches = Vec::new();
        for (line, played) in prefixes {
            let played = played?;
            searches.push(
                pool.run(move || analysis::evaluate_turn(&line, played, time))
                    .await?,
            );
        }
        Some(review::simultaneous(game, &searches, ms))
    } else {
        let mut evaluations = Vec::new();
        for (line, _) in prefixes {
            evaluations.push(pool.run(move || analysis::evaluate(&line, time)).await?);
        }
        Some(review::turn_based(game, &evaluations, ms))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_outside_the_ladder_are_refused_as_malformed() {
        let desk = EngineDesk::new(EnginePool::new(1), &Limits::default());
        assert!(desk.check_level(MIN_LEVEL).is_ok());
        assert!(desk.check_level(MAX_LEVEL).is_ok());
        for level in [MIN_LEVEL - 1, MAX_LEVEL + 1] {
            assert!(matches!(
                desk.check_level(level),
                Err(Refusal::Malformed(_))
            ));
        }
    }

    #[test]
    fn a_full_queue_refuses_as_busy() {
        let limits = Limits {
            engine_queue: 0,
            ..Limits::default()
        };
        let desk = EngineDesk::new(EnginePool::new(1), &limits);
        assert!(matches!(desk.check_level(MIN_LEVEL), Err(Refusal::Busy(_))));
    }
}
