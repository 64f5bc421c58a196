//! The server's shutdown as a signal: once given, new games are refused,
//! `/ready` says 503, and every socket and stream ends, telling its client
//! to reconnect.

use std::future::Future;

use tokio::sync::watch;

pub struct Shutdown(watch::Sender<bool>);

impl Default for Shutdown {
    fn default() -> Shutdown {
        Shutdown(watch::Sender::new(false))
    }
}

impl Shutdown {
    pub fn begin(&self) {
        self.0.send_replace(true);
    }

    /// Resolves once the shutdown has begun (at once if it has).
    pub fn begun(&self) -> impl Future<Output = ()> + Send + 'static {
        let mut closing = self.0.subscribe();
        async move {
            let _ = closing.wait_for(|closing| *closing).await;
        }
    }

    pub fn has_begun(&self) -> bool {
        *self.0.borrow()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn waiters_hear_the_shutdown_and_later_ones_at_once() {
        let shutdown = Shutdown::default();
        let early = tokio::spawn(shutdown.begun());
        assert!(!shutdown.has_begun());
        shutdown.begin();
        early.await.unwrap();
        assert!(shutdown.has_begun());
        tokio::time::timeout(std::time::Duration::from_secs(1), shutdown.begun())
            .await
            .expect("a shutdown already begun resolves at once");
    }
}
