//! Running tournaments: every second (or when a player joins), each
//! unfinished event this node runs (in a cluster: whose lock it holds)
//! takes its next step (`plan.rs`). A batch of pairings is written first,
//! with its games' ids, and only then are the games created; a game
//! written but not created (a crash between) is created on the next step,
//! by whichever node runs the event then. So no pairing is lost or made
//! twice.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::Notify;

use crate::base::refusal::{Refusal, Said};
use crate::base::secret;
use crate::game::event::{now_ms, LiveClock};
use crate::hub::players::{Pairing, Player};
use crate::hub::Hub;
use crate::store::tournaments::{PairedGameRow, TournamentChange};
use crate::store::{Change, StoreError};
use crate::tournament::plan::{self, Step};
use crate::tournament::Tournament;

/// The tournaments of a server: what players ask (`mod.rs`) and the
/// loop that runs them.
pub struct Tournaments {
    hub: Arc<Hub>,
    wake: Notify,
}

/// How often every event is looked at when nothing wakes the loop.
const TICK: Duration = Duration::from_secs(1);

impl Tournaments {
    /// The tournaments of `hub`, run until its shutdown begins.
    pub fn start(hub: Arc<Hub>) -> Arc<Tournaments> {
        let tournaments = Arc::new(Tournaments {
            hub,
            wake: Notify::new(),
        });
        let weak = Arc::downgrade(&tournaments);
        let stop = tournaments.hub.shutdown().begun();
        tokio::spawn(async move {
            tokio::pin!(stop);
            loop {
                let Some(tournaments) = weak.upgrade() else {
                    return;
                };
                tournaments.tick().await;
                tokio::select! {
                    _ = &mut stop => return,
                    _ = tokio::time::sleep(TICK) => {}
                    _ = tournaments.wake.notified() => {}
                }
            }
        });
        tournaments
    }

    pub(crate) fn hub(&self) -> &Arc<Hub> {
        &self.hub
    }

    /// Looks at the events now rather than at the next tick.
    pub(crate) fn nudge(&self) {
        self.wake.notify_one();
    }

    async fn tick(&self) {
        let events = match self.hub.store().unfinished_tournaments().await {
            Ok(events) => events,
            Err(e) => return tracing::error!("tournaments not read: {e}"),
        };
        let now = now_ms();
        for row in events {
            if row.status == "created" && row.starts_ms > now {
                continue;
            }
            if let Some(cluster) = self.hub.cluster() {
                match cluster.leads(&row.id).await {
                    Ok(true) => {}
                    Ok(false) => continue,
                    Err(e) => {
                        tracing::error!("tournament {}: lock not taken: {e}", row.id);
                        continue;
                    }
                }
            }
            if let Err(e) = self.step(&row.id, now).await {
                tracing::error!("tournament {}: {e}", row.id);
            }
        }
    }

    /// Takes tournament `id`'s next step at `now`.
    pub(crate) async fn step(&self, id: &str, now: i64) -> Result<(), Refusal> {
        let event = self.event(id).await?;
        self.create_games(&event).await;
        // A Swiss pairing of hundreds of players takes about a second.
        let planned = event.clone();
        let step = tokio::task::spawn_blocking(move || plan::next(&planned, now))
            .await
            .map_err(|e| Refusal::Internal(Said::as_is(format!("pairing: {e}"))))?
            .map_err(|e| Refusal::Internal(Said::as_is(format!("pairing: {e}"))))?;
        let change = match step {
            Step::Wait => return Ok(()),
            Step::Finish => TournamentChange::Finish {
                tournament: id.to_string(),
                at_ms: now,
            },
            Step::Schedule(at) => TournamentChange::Schedule {
                tournament: id.to_string(),
                next_round_ms: at,
                replace: false,
            },
            Step::Pair(batch) => TournamentChange::Pair {
                tournament: id.to_string(),
                batch: event.row.batch,
                round: batch.round,
                started: true,
                games: batch
                    .games
                    .into_iter()
                    .enumerate()
                    .map(|(board, [white, black])| PairedGameRow {
                        game_id: secret::new_game_id(),
                        round: batch.round,
                        board: board as i64 + 1,
                        white,
                        black,
                        paired_ms: now,
                        berserk: [false; 2],
                        status: None,
                        result: None,
                        turn: 0,
                    })
                    .collect(),
                byes: batch.byes,
            },
        };
        let paired = matches!(change, TournamentChange::Pair { .. });
        let finished = matches!(change, TournamentChange::Finish { .. });
        match self
            .hub
            .writer
            .write(vec![Change::Tournament(change)])
            .await
        {
            // Another node or request was first: the next step reads it.
            Err(StoreError::Gone(_)) => return Ok(()),
            other => other?,
        }
        if paired {
            self.create_games(&self.event(id).await?).await;
        }
        if let (true, Some(cluster)) = (finished, self.hub.cluster()) {
            cluster.stop_leading(id).await?;
        }
        Ok(())
    }

    /// Creates the games of `event` that are paired but not created yet.
    async fn create_games(&self, event: &Tournament) {
        let user = |id: &str| {
            event
                .entrants
                .iter()
                .find(|e| e.user.id == id)
                .map(|e| e.user.clone())
        };
        for game in event.games.iter().filter(|g| g.status.is_none()) {
            let (Some(white), Some(black)) = (user(&game.white), user(&game.black)) else {
                tracing::error!(
                    "tournament {}: game {} without its players",
                    event.row.id,
                    game.game_id
                );
                continue;
            };
            let pairing = Pairing {
                id: Some(game.game_id.clone()),
                variant: event.row.variant.clone(),
                clock: Some(LiveClock {
                    initial: u32::try_from(event.row.clock_limit).unwrap_or(60),
                    increment: u32::try_from(event.row.clock_increment).unwrap_or(0),
                }),
                days: None,
                white: Player::Account(white),
                black: Player::Account(black),
                rated: event.row.rated,
                fen: event.settings.position.clone(),
                by_tournament: true,
            };
            if let Err(e) = self.hub.pair(pairing).await {
                tracing::error!(
                    "tournament {}: game {} not created: {e}",
                    event.row.id,
                    game.game_id
                );
            }
        }
    }
}
