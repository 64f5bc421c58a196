//! The mailboxes of the games played on this node, and the lock that
//! loads one game at a time, so that no game ever gets two actors.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

use tokio::sync::mpsc;

use crate::round::msg::Msg;

pub struct Actors {
    mailboxes: Mutex<HashMap<String, mpsc::Sender<Msg>>>,
    loading: tokio::sync::Mutex<()>,
    /// How long a game with nothing pending and nobody watching keeps its actor.
    pub(crate) idle: Duration,
}

impl Default for Actors {
    fn default() -> Actors {
        Actors {
            mailboxes: Mutex::default(),
            loading: tokio::sync::Mutex::new(()),
            idle: Duration::from_secs(60),
        }
    }
}

impl Actors {
    /// The mailbox of the game's actor, if it runs here.
    pub fn running(&self, id: &str) -> Option<mpsc::Sender<Msg>> {
        self.lock().get(id).filter(|tx| !tx.is_closed()).cloned()
    }

    /// Held while a game is loaded: one load at a time.
    pub async fn one_load(&self) -> tokio::sync::MutexGuard<'_, ()> {
        self.loading.lock().await
    }

    pub fn insert(&self, id: String, tx: mpsc::Sender<Msg>) {
        self.lock().insert(id, tx);
    }

    /// Forgets an actor that stops (if it is still the listed one).
    pub fn forget(&self, id: &str, tx: &mpsc::Sender<Msg>) {
        let mut mailboxes = self.lock();
        if mailboxes
            .get(id)
            .is_some_and(|listed| listed.same_channel(tx))
        {
            mailboxes.remove(id);
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, mpsc::Sender<Msg>>> {
        self.mailboxes.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stopped_actor_is_not_running_and_a_newer_one_is_not_forgotten() {
        let actors = Actors::default();
        let (old, old_rx) = mpsc::channel(1);
        actors.insert("g".into(), old.clone());
        assert!(actors.running("g").is_some());
        drop(old_rx);
        assert!(actors.running("g").is_none(), "its mailbox is closed");
        let (new, _new_rx) = mpsc::channel(1);
        actors.insert("g".into(), new.clone());
        actors.forget("g", &old);
        assert!(actors.running("g").is_some_and(|tx| tx.same_channel(&new)));
        actors.forget("g", &new);
        assert!(actors.running("g").is_none());
    }
}
