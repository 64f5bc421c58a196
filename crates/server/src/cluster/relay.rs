//! Relays: the live events of a game this node has subscribers for but
//! does not own. Each commit's notification (`GAMEID:SEQ`) wakes the
//! game's relay, which reads every event after the last it passed on from
//! the database, in order, and broadcasts the same lines the owner's
//! actor does (an event's JSON as `GameState` writes it), so a stream or
//! WebSocket on any node sees every event once, and `since` works.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use tokio::sync::{broadcast, watch};
use tokio_postgres::Client;

use crate::actor::Logged;
use crate::event::{Event, EventBody, EventLine};
use crate::store::StoreError;

/// Lines a slow viewer may fall behind, as for an actor's feed.
const FEED_CAPACITY: usize = 256;

struct Relay {
    feed: broadcast::Sender<Logged>,
    /// Bumped by every notification for the game.
    news: watch::Sender<u64>,
}

pub(crate) struct Relays {
    session: Arc<Client>,
    relays: Mutex<HashMap<String, Relay>>,
}

/// A game's events after `after`, as the lines subscribers get.
pub(crate) async fn events_after(
    session: &Client,
    game: &str,
    after: u64,
) -> Result<Vec<Logged>, StoreError> {
    let rows = session
        .query(
            "SELECT seq, at_ms, body_json FROM events WHERE game_id = $1 AND seq > $2 ORDER BY seq",
            &[&game, &(after as i64)],
        )
        .await?;
    rows.iter()
        .map(|row| {
            let (seq, at, body): (i64, i64, String) = (row.get(0), row.get(1), row.get(2));
            let body: EventBody = serde_json::from_str(&body)
                .map_err(|e| StoreError::Corrupt(format!("game {game} event {seq}: {e}")))?;
            let event = Event {
                body,
                seq: seq as u64,
                at,
            };
            let line = serde_json::to_string(&event).map_err(|e| StoreError::Corrupt(e.to_string()))?;
            Ok(Logged {
                seq: event.seq,
                line: EventLine::new(line),
            })
        })
        .collect()
}

impl Relays {
    pub(crate) fn new(session: Arc<Client>) -> Relays {
        Relays {
            session,
            relays: Mutex::new(HashMap::new()),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Relay>> {
        self.relays.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A notification's payload, `GAMEID:SEQ`: wakes that game's relay.
    pub(crate) fn notified(&self, payload: &str) {
        let Some((game, _seq)) = payload.split_once(':') else { return };
        if let Some(relay) = self.lock().get(game) {
            relay.news.send_modify(|wakes| *wakes = wakes.wrapping_add(1));
        }
    }

    /// The live events of `game` from now on, and how many read them.
    pub(crate) async fn subscribe(
        &self,
        game: &str,
    ) -> Result<(broadcast::Receiver<Logged>, usize), StoreError> {
        if let Some(relay) = self.lock().get(game) {
            return Ok((relay.feed.subscribe(), relay.feed.receiver_count()));
        }
        let last: i64 = self
            .session
            .query_one(
                "SELECT COALESCE(MAX(seq), 0) FROM events WHERE game_id = $1",
                &[&game],
            )
            .await?
            .get(0);
        let mut relays = self.lock();
        if let Some(relay) = relays.get(game) {
            return Ok((relay.feed.subscribe(), relay.feed.receiver_count()));
        }
        let (feed, receiver) = broadcast::channel(FEED_CAPACITY);
        // Events committed between the read above and now sent their
        // notification to nobody: the relay reads once at its start.
        let (news, wake) = watch::channel(0);
        tokio::spawn(pass_on(
            self.session.clone(),
            game.to_string(),
            last as u64,
            feed.clone(),
            wake,
        ));
        relays.insert(game.to_string(), Relay { feed, news });
        Ok((receiver, 1))
    }

    /// A game's events after `after`, from the database.
    pub(crate) async fn events_after(&self, game: &str, after: u64) -> Result<Vec<Logged>, StoreError> {
        events_after(&self.session, game, after).await
    }

    /// Stops the relays nobody reads.
    pub(crate) fn sweep(&self) {
        self.lock().retain(|_, relay| relay.feed.receiver_count() > 0);
    }
}

/// A relay's task: at its start and on each wake, the events after
/// `last`, in order.
async fn pass_on(
    session: Arc<Client>,
    game: String,
    mut last: u64,
    feed: broadcast::Sender<Logged>,
    mut wake: watch::Receiver<u64>,
) {
    loop {
        wake.borrow_and_update();
        match events_after(&session, &game, last).await {
            Ok(lines) => {
                for logged in lines {
                    last = logged.seq;
                    let _ = feed.send(logged);
                }
            }
            Err(e) => tracing::error!("game {game}: relaying events: {e}"),
        }
        if wake.changed().await.is_err() {
            return;
        }
    }
}
