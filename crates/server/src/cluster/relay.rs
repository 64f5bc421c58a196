//! Relays: the live events of a game this node has subscribers for but
//! does not own. Each commit's notification goes to the game's relay: its
//! events' lines when they follow the last one passed on (the lines the
//! owner's actor broadcasts: an event's JSON as `GameState` writes it),
//! else the relay reads every event after the last it passed on from the
//! database. So a stream or WebSocket on any node sees every event once,
//! in order, and `since` works.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use tokio::sync::{broadcast, mpsc};

use crate::game::event::Logged;
use crate::store::cluster::NodeSession;
use crate::store::StoreError;

/// Lines a slow viewer may fall behind, as for an actor's feed.
const FEED_CAPACITY: usize = 256;

struct Relay {
    feed: broadcast::Sender<Logged>,
    /// The game's notifications.
    news: mpsc::UnboundedSender<Notice>,
}

/// A commit's notification for one game.
struct Notice {
    first: u64,
    last: u64,
    /// The events' lines, unless they did not fit.
    lines: Vec<String>,
}

impl Notice {
    /// `GAMEID:FIRST:LAST` and the lines (`store::postgres::EVENTS_CHANNEL`).
    fn read(payload: &str) -> Option<(&str, Notice)> {
        let mut lines = payload.split('\n');
        let mut head = lines.next()?.split(':');
        let game = head.next()?;
        let first = head.next()?.parse().ok()?;
        let last = head.next()?.parse().ok()?;
        let lines: Vec<String> = lines.map(str::to_string).collect();
        let complete = last >= first && lines.len() as u64 == last - first + 1;
        Some((
            game,
            Notice {
                first,
                last,
                lines: if complete { lines } else { Vec::new() },
            },
        ))
    }
}

pub(crate) struct Relays {
    session: Arc<NodeSession>,
    relays: Mutex<HashMap<String, Relay>>,
}

/// A game's events after `after`, as the lines subscribers get.
async fn events_after(
    session: &NodeSession,
    game: &str,
    after: u64,
) -> Result<Vec<Logged>, StoreError> {
    session
        .events_after(game, after)
        .await?
        .into_iter()
        .map(|event| Logged::new(event).map_err(|e| StoreError::Corrupt(e.to_string())))
        .collect()
}

impl Relays {
    pub(crate) fn new(session: Arc<NodeSession>) -> Relays {
        Relays {
            session,
            relays: Mutex::new(HashMap::new()),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Relay>> {
        self.relays.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A notification: to its game's relay, if there is one.
    pub(crate) fn notified(&self, payload: &str) {
        let Some((game, notice)) = Notice::read(payload) else {
            return;
        };
        if let Some(relay) = self.lock().get(game) {
            let _ = relay.news.send(notice);
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
        let last = self.session.last_seq(game).await?;
        let mut relays = self.lock();
        if let Some(relay) = relays.get(game) {
            return Ok((relay.feed.subscribe(), relay.feed.receiver_count()));
        }
        let (feed, receiver) = broadcast::channel(FEED_CAPACITY);
        // Events committed between the read above and now sent their
        // notification to nobody: the relay reads once at its start.
        let (news, notices) = mpsc::unbounded_channel();
        tokio::spawn(pass_on(
            self.session.clone(),
            game.to_string(),
            last,
            feed.clone(),
            notices,
        ));
        relays.insert(game.to_string(), Relay { feed, news });
        Ok((receiver, 1))
    }

    /// A game's events after `after`, from the database.
    pub(crate) async fn events_after(
        &self,
        game: &str,
        after: u64,
    ) -> Result<Vec<Logged>, StoreError> {
        events_after(&self.session, game, after).await
    }

    /// Stops the relays nobody reads.
    pub(crate) fn sweep(&self) {
        self.lock()
            .retain(|_, relay| relay.feed.receiver_count() > 0);
    }
}

/// A relay's task: the events after `last`, in order: from the database
/// at its start and whenever a notification does not carry the events
/// that follow.
async fn pass_on(
    session: Arc<NodeSession>,
    game: String,
    mut last: u64,
    feed: broadcast::Sender<Logged>,
    mut notices: mpsc::UnboundedReceiver<Notice>,
) {
    let mut read = true;
    loop {
        if read {
            match events_after(&session, &game, last).await {
                Ok(lines) => {
                    for logged in lines {
                        last = logged.seq;
                        let _ = feed.send(logged);
                    }
                }
                Err(e) => tracing::error!("game {game}: relaying events: {e}"),
            }
        }
        let Some(notice) = notices.recv().await else {
            return;
        };
        read = false;
        if notice.last <= last {
            continue;
        }
        if notice.first != last + 1 || notice.lines.is_empty() {
            read = true;
            continue;
        }
        for (seq, line) in (notice.first..).zip(notice.lines) {
            match Logged::parse(line) {
                Ok(logged) if logged.seq == seq => {
                    last = seq;
                    let _ = feed.send(logged);
                }
                // Not the event the notice promised: read the log instead.
                Ok(_) | Err(_) => {
                    tracing::error!("game {game}: a notified event {seq} does not read back");
                    read = true;
                    break;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_notice_carries_its_lines_only_when_all_are_there() {
        let (game, notice) = Notice::read("a1B2c3D4e5:4:5\n{\"seq\":4}\n{\"seq\":5}").unwrap();
        assert_eq!((game, notice.first, notice.last), ("a1B2c3D4e5", 4, 5));
        assert_eq!(notice.lines, vec![r#"{"seq":4}"#, r#"{"seq":5}"#]);
        // Too long for a notification: the seqs alone, the relay reads.
        let (_, notice) = Notice::read("a1B2c3D4e5:4:5").unwrap();
        assert!(notice.lines.is_empty());
        let (_, notice) = Notice::read("a1B2c3D4e5:4:6\n{}").unwrap();
        assert!(notice.lines.is_empty());
        assert!(Notice::read("a1B2c3D4e5:x:5").is_none());
    }
}
