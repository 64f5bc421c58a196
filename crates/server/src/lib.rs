//! Parity's game server (`parity serve`): games of every variant family
//! between people, bots and our engine over HTTP and WebSocket, with
//! commit-reveal for simultaneous turns, clocks, and every event stored
//! durably in SQLite. The contract is `docs/server.md`.

pub mod actor;
pub mod api;
mod assets;
pub mod clock;
pub mod engine_seat;
pub mod error;
pub mod event;
pub mod hub;
pub mod loadtest;
mod pgn;
pub mod play;
pub mod secret;
pub mod signing;
pub mod state;
pub mod store;
pub mod verify;

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use axum::serve::ListenerExt as _;
use parity_rules::Registry;
use tokio::net::TcpListener;

use crate::engine_seat::EnginePool;
use crate::error::ApiError;
use crate::hub::Hub;
use crate::store::{Store, StoreError};

#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    #[error("{0}")]
    Store(#[from] StoreError),
    #[error("{0}")]
    Io(#[from] std::io::Error),
    #[error("recovering unfinished games: {0}")]
    Recover(ApiError),
    #[error("the signing key: {0}")]
    Key(#[from] signing::KeyError),
}

/// A server running on the current tokio runtime.
pub struct Server {
    pub addr: SocketAddr,
    pub hub: Arc<Hub>,
    /// Unfinished games found in the database and restarted.
    pub recovered: usize,
    /// Where the key that signs records is kept (`DB.key`).
    pub key_file: PathBuf,
}

/// Opens (or creates) the database and its signing key, restarts the
/// unfinished games and serves the API and the page on `listener`, for the
/// variants of `registry`.
pub async fn start(
    db: &Path,
    listener: TcpListener,
    registry: Registry,
) -> Result<Server, ServeError> {
    let path = db.to_path_buf();
    let (store, writer) = tokio::task::spawn_blocking(move || Store::open(&path))
        .await
        .map_err(|e| ServeError::Io(std::io::Error::other(e)))??;
    let key_file = signing::key_file(db);
    let record_key = signing::load_or_create(&key_file)?;
    let hub = Arc::new(Hub::new(
        registry,
        store,
        writer,
        EnginePool::per_core(),
        record_key,
    ));
    let recovered = hub.recover().await.map_err(ServeError::Recover)?;
    let addr = listener.local_addr()?;
    let app = api::router(hub.clone());
    // Without TCP_NODELAY a small event written behind another waits for
    // the peer's delayed ACK (~40 ms on Linux).
    let listener = listener.tap_io(|tcp| {
        if let Err(e) = tcp.set_nodelay(true) {
            tracing::warn!("TCP_NODELAY: {e}");
        }
    });
    tokio::spawn(async move {
        if let Err(e) = axum::serve(listener, app).await {
            tracing::error!("server stopped: {e}");
        }
    });
    Ok(Server {
        addr,
        hub,
        recovered,
        key_file,
    })
}

/// `parity serve`: binds `addr`, calls `ready` with the server, and runs
/// until Ctrl-C. Every acknowledged event is already on disk, so stopping
/// loses nothing.
pub fn run(
    db: &Path,
    addr: &str,
    registry: Registry,
    ready: impl FnOnce(&Server),
) -> Result<(), ServeError> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async {
        let listener = TcpListener::bind(addr).await?;
        let server = start(db, listener, registry).await?;
        ready(&server);
        tokio::signal::ctrl_c().await?;
        Ok(())
    })
}
