//! Parity's game server (`parity serve`): games of every variant family
//! between people, bots and our engine over HTTP and WebSocket, with
//! commit-reveal for simultaneous turns, clocks, and every event stored
//! durably in SQLite. The contract is `docs/server.md`.

// Layers, lowest first; each imports only from those above it in this
// list (tests/layers.rs checks it; docs/architecture.md draws it).
pub mod accounts;
pub mod base;
pub mod bot;
pub mod cluster;
pub mod game;
pub mod http;
pub mod hub;
pub mod lichess;
pub mod loadtest;
pub mod round;
pub mod store;
pub mod tournament;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use axum::http::StatusCode;
use parity_rules::Registry;
use tokio::net::TcpListener;
use tower_http::limit::RequestBodyLimitLayer;
use tower_http::timeout::TimeoutLayer;

use crate::base::limits::Config;
use crate::base::mail::Mailer;
use crate::base::push::PushKey;
use crate::base::refusal::Refusal;
use crate::base::signing;
use crate::cluster::Cluster;
use crate::game::clock::Downtime;
use crate::game::engine_seat::EnginePool;
use crate::game::event::now_ms;
use crate::http::{api, connections, edge, monitoring};
use crate::hub::notifier::{Notifier, Pusher};
use crate::hub::Hub;
pub use crate::store::Database;
use crate::store::{Change, Store, StoreError, Writer};

/// How often the server notes in the database that it is alive: a restart
/// charges running clocks up to the last beat before the crash.
const HEARTBEAT: Duration = Duration::from_secs(1);

#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    #[error("{0}")]
    Store(#[from] StoreError),
    #[error("{0}")]
    Io(#[from] std::io::Error),
    #[error("recovering unfinished games: {0}")]
    Recover(Refusal),
    #[error("the signing key: {0}")]
    Key(#[from] signing::KeyError),
    #[error("the metrics recorder: {0}")]
    Metrics(String),
    #[error("mail: {0}")]
    Mail(String),
    #[error("the Web Push key: {0}")]
    Push(String),
}

/// A server running on the current tokio runtime.
pub struct Server {
    pub addr: SocketAddr,
    pub hub: Arc<Hub>,
    /// Unfinished games found in the database and restarted.
    pub recovered: usize,
    /// Where the key that signs records is kept: the file `DB.key` beside
    /// a SQLite database; none when PostgreSQL keeps it (table `signing_key`).
    pub key_file: Option<PathBuf>,
    /// This node's id, when the server is a node of a cluster (PostgreSQL).
    pub node: Option<String>,
    /// The connections' task: it ends once the server has closed and
    /// every connection has ended.
    served: tokio::task::JoinHandle<()>,
}

impl Server {
    /// Shuts down (SIGTERM): no new games and `/ready` 503, every socket
    /// and stream told to reconnect, no new connections, the requests in
    /// flight answered, within `grace`; then every write waiting is
    /// committed and, in a cluster, the node leaves: its leases are free
    /// for the other nodes at once. False if some connection outlived
    /// `grace`.
    pub async fn shut_down(self, grace: Duration) -> bool {
        self.hub.shutdown().begin();
        let drained = tokio::time::timeout(grace, self.served).await.is_ok();
        // Queued after every write in flight: its commit is theirs too.
        let last = vec![Change::Heartbeat { at_ms: now_ms() }];
        if let Err(e) = self.hub.writer.write(last).await {
            tracing::error!("the last heartbeat: {e}");
        }
        if let Some(cluster) = self.hub.cluster() {
            if let Err(e) = cluster.leave().await {
                tracing::error!("leaving the cluster: {e}");
            }
        }
        drained
    }
}

/// Opens (or creates) the database and its signing key, restarts the
/// unfinished games and serves the API and the page on `listener`, for the
/// variants of `registry`, within `config`'s limits.
pub async fn start(
    db: impl Into<Database>,
    listener: TcpListener,
    registry: Registry,
    config: Config,
) -> Result<Server, ServeError> {
    let db = db.into();
    if config.metrics_token.is_some() {
        crate::base::metrics::install().map_err(ServeError::Metrics)?;
    }
    let grouping = store::Grouping {
        delay: config.commit_delay,
    };
    let (store, writer) = Store::open_grouped(&db, grouping).await?;
    let limits = config.limits.clone();
    let (record_key, key_file) = match store.signing_seed(signing::fresh_seed()).await? {
        Some(seed) => (ed25519_dalek::SigningKey::from_bytes(&seed), None),
        None => {
            let Database::Sqlite(path) = &db else {
                unreachable!("only SQLite keeps the key in a file")
            };
            let file = signing::key_file(path);
            (signing::load_or_create(&file)?, Some(file))
        }
    };
    let addr = listener.local_addr()?;
    let cluster = match &db {
        Database::Postgres(url) => {
            let node_url = config
                .node_url
                .clone()
                .unwrap_or_else(|| default_node_url(addr));
            Some(Cluster::join(url, node_url, node_secret(&record_key)).await?)
        }
        Database::Sqlite(_) => None,
    };
    let joins_running_cluster = match &cluster {
        Some(cluster) => cluster.others_alive().await?,
        None => false,
    };
    let downtimes = note_restart(&store, &writer, joins_running_cluster).await?;
    tokio::spawn(beat(writer.clone()));
    let mailer = config
        .mail
        .as_ref()
        .map(Mailer::start)
        .transpose()
        .map_err(ServeError::Mail)?;
    let public_url = config
        .public_url
        .clone()
        .unwrap_or_else(|| format!("http://{addr}"));
    let pusher = Pusher {
        key: push_key(&store, &writer).await?,
        contact: config.mail.as_ref().map_or_else(
            || public_url.clone(),
            |m| format!("mailto:{}", mail_address(&m.from)),
        ),
        allow_http: config.push_allow_http,
        http: reqwest::Client::new(),
    };
    let notifier = Notifier::new(store.clone(), writer.clone(), mailer, pusher, public_url);
    let hub = Arc::new(Hub::new(
        registry,
        store,
        writer,
        EnginePool::new(limits.engine_threads),
        downtimes,
        limits.clone(),
        record_key,
        notifier,
        cluster.clone(),
    ));
    // Games that waited too long for their friend are aborted, not resumed.
    hub.expire_waiting().await.map_err(ServeError::Recover)?;
    let recovered = hub.recover().await.map_err(ServeError::Recover)?;
    hub.keep_house();
    if let Some(cluster) = &cluster {
        cluster.keep_watch(Arc::downgrade(&hub));
        cluster.hear_news(Arc::downgrade(&hub));
    }
    let tournaments = crate::tournament::Tournaments::start(hub.clone());
    let app = api::router(hub.clone(), crate::lichess::routes(tournaments))
        .merge(monitoring::routes(
            hub.clone(),
            config.metrics_token.clone(),
        ))
        .layer(axum::middleware::from_fn(crate::http::language::middleware))
        .layer(RequestBodyLimitLayer::new(limits.max_body_bytes))
        .layer(TimeoutLayer::with_status_code(
            StatusCode::REQUEST_TIMEOUT,
            limits.request_timeout,
        ))
        .layer(axum::middleware::from_fn_with_state(
            Arc::new(config),
            edge::edge,
        ));
    let served = tokio::spawn(connections::serve(listener, app, limits, hub.clone()));
    Ok(Server {
        addr,
        served,
        hub,
        recovered,
        key_file,
        node: cluster.map(|c| c.node().to_string()),
    })
}

/// Ctrl-C, or SIGTERM (systemd, a container runtime, `kill`).
async fn stop_signal() -> std::io::Result<()> {
    #[cfg(unix)]
    {
        let mut terminate =
            tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())?;
        tokio::select! {
            pressed = tokio::signal::ctrl_c() => pressed,
            _ = terminate.recv() => Ok(()),
        }
    }
    #[cfg(not(unix))]
    tokio::signal::ctrl_c().await
}

/// Where other nodes reach a node listening on `addr` when no
/// `--node-url` says: the address, with loopback for "any address".
fn default_node_url(addr: SocketAddr) -> String {
    let ip = match addr.ip() {
        ip if !ip.is_unspecified() => ip,
        std::net::IpAddr::V4(_) => std::net::Ipv4Addr::LOCALHOST.into(),
        std::net::IpAddr::V6(_) => std::net::Ipv6Addr::LOCALHOST.into(),
    };
    format!("http://{}", SocketAddr::new(ip, addr.port()))
}

/// The secret nodes present to each other's internal endpoint: derived
/// from the signing key every node of the database shares, so it needs
/// no setup.
fn node_secret(key: &ed25519_dalek::SigningKey) -> String {
    use sha2::Digest as _;
    let digest = sha2::Sha256::digest([b"parity-node\n".as_slice(), &key.to_bytes()].concat());
    hex::encode(digest)
}

/// Records the downtime that ends now (from the last sign of life in the
/// database) and returns every downtime on record. A node that joins a
/// running cluster records none: the server was not down.
async fn note_restart(
    store: &Arc<Store>,
    writer: &Writer,
    joins_running_cluster: bool,
) -> Result<Arc<[Downtime]>, ServeError> {
    let last_alive = store.last_alive().await?;
    let up_ms = now_ms();
    let mut changes = vec![Change::Heartbeat { at_ms: up_ms }];
    if let Some(from_ms) = last_alive.filter(|&t| t < up_ms && !joins_running_cluster) {
        changes.push(Change::Downtime(Downtime {
            from_ms,
            to_ms: up_ms,
        }));
    }
    writer.write(changes).await?;
    let downtimes = store.downtimes().await?;
    Ok(downtimes.into())
}

/// Writes the heartbeat every [`HEARTBEAT`] while the server runs.
async fn beat(writer: Writer) {
    let mut tick = tokio::time::interval(HEARTBEAT);
    loop {
        tick.tick().await;
        match writer
            .write(vec![Change::Heartbeat { at_ms: now_ms() }])
            .await
        {
            Ok(()) => {}
            Err(StoreError::WriterGone) => return,
            Err(e) => tracing::error!("heartbeat not written: {e}"),
        }
    }
}

/// `parity serve`: binds `addr`, calls `ready` with the server, and runs
/// until Ctrl-C. Every acknowledged event is already on disk, so stopping
/// loses nothing.
pub fn run(
    db: &Database,
    addr: &str,
    registry: Registry,
    config: Config,
    ready: impl FnOnce(&Server),
) -> Result<(), ServeError> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async {
        let listener = TcpListener::bind(addr).await?;
        let grace = config.limits.shutdown_grace;
        let server = start(db.clone(), listener, registry, config).await?;
        ready(&server);
        stop_signal().await?;
        eprintln!("shutting down: the open connections have {grace:?} to finish");
        match server.shut_down(grace).await {
            true => eprintln!("shut down"),
            false => eprintln!("shut down; some connections were cut at the end of the grace"),
        }
        Ok(())
    })
}

/// The server's Web Push (VAPID) key: the stored one, or a new one stored
/// (the first node to write it wins; every node reads that one back).
async fn push_key(store: &Store, writer: &Writer) -> Result<PushKey, ServeError> {
    if store.server_key("vapid").await?.is_none() {
        let fresh = PushKey::generate();
        writer
            .write(vec![Change::ServerKey {
                name: "vapid".into(),
                value: fresh.private().to_string(),
            }])
            .await?;
    }
    let stored = store
        .server_key("vapid")
        .await?
        .ok_or_else(|| ServeError::Push("not stored".into()))?;
    PushKey::from_private(&stored).map_err(ServeError::Push)
}

/// The address in a mailbox (`Parity <parity@example.org>`).
fn mail_address(mailbox: &str) -> &str {
    mailbox
        .rsplit_once('<')
        .and_then(|(_, rest)| rest.strip_suffix('>'))
        .unwrap_or(mailbox)
        .trim()
}
