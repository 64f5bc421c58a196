//! The engines' pool as the hub hands it out: engine seats and analyses,
//! each refused while the queue is full.

use std::time::Duration;

use parity_rules::AnyGame;

use crate::base::limits::Limits;
use crate::base::metrics;
use crate::base::refusal::Refusal;
use crate::game::analysis::{self, Evaluation};
use crate::game::engine_seat::{EnginePool, MAX_LEVEL, MIN_LEVEL};

pub struct EngineDesk {
    pool: EnginePool,
    /// Jobs that may wait for a worker before more are refused.
    queue: usize,
    analysis_time: Duration,
}

impl EngineDesk {
    pub fn new(pool: EnginePool, limits: &Limits) -> EngineDesk {
        EngineDesk {
            pool,
            queue: limits.engine_queue,
            analysis_time: limits.analysis_time,
        }
    }

    /// The workers engine seats search on.
    pub fn pool(&self) -> &EnginePool {
        &self.pool
    }

    fn check_queue(&self) -> Result<(), Refusal> {
        if self.pool.queued() >= self.queue {
            metrics::refused("engine_queue");
            return Err(Refusal::Busy(
                "the engines are all busy; try again in a minute".into(),
            ));
        }
        Ok(())
    }

    /// An engine seat of `level` can be had now.
    pub fn check_level(&self, level: u8) -> Result<(), Refusal> {
        if !(MIN_LEVEL..=MAX_LEVEL).contains(&level) {
            return Err(Refusal::Malformed(format!(
                "engine level must be {MIN_LEVEL} to {MAX_LEVEL}"
            )));
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
            .ok_or_else(|| Refusal::Internal("the analysis failed".into()))
    }

    /// Sets the pool's gauges (read at a scrape).
    pub fn measure(&self) {
        let (workers, busy, waiting) = self.pool.load();
        metrics::engines(workers, busy, waiting);
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
