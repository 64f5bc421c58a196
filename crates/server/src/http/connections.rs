//! Accepting connections: a global and a per-IP cap (a connection over
//! either is closed at once), HTTP/1.1 with a header-read timeout that
//! also ends idle keep-alive connections, and a bounded read buffer.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::ConnectInfo;
use axum::Router;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::TcpListener;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tower::ServiceExt as _;

use crate::base::limits::Limits;
use crate::base::metrics;
use crate::hub::Hub;

/// hyper's read buffer, so also the longest request head: targets over
/// `max_uri_bytes` get their JSON 414 from the edge; heads over this are
/// refused by hyper itself (a target that long with its own bodiless 414).
const MAX_HEAD_BYTES: usize = 64 * 1024;
/// Pause after a failed accept (say, out of file descriptors), so the
/// loop does not spin while connections close.
const ACCEPT_BACKOFF: Duration = Duration::from_millis(50);

/// Open connections per IP address.
#[derive(Default)]
struct PerIp {
    open: Mutex<HashMap<IpAddr, usize>>,
}

impl PerIp {
    fn enter(self: &Arc<Self>, ip: IpAddr, cap: usize) -> Option<IpSlot> {
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        let count = open.entry(ip).or_insert(0);
        if *count >= cap {
            return None;
        }
        *count += 1;
        Some(IpSlot {
            per_ip: self.clone(),
            ip,
        })
    }
}

struct IpSlot {
    per_ip: Arc<PerIp>,
    ip: IpAddr,
}

impl Drop for IpSlot {
    fn drop(&mut self) {
        let mut open = self.per_ip.open.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(count) = open.get_mut(&self.ip) {
            *count -= 1;
            if *count == 0 {
                open.remove(&self.ip);
            }
        }
    }
}

/// A connection's place under both caps, held while it is open. Each
/// request carries it, so a WebSocket keeps it after the upgrade.
pub struct ConnectionSlot {
    _all: OwnedSemaphorePermit,
    _own: IpSlot,
    _counted: metrics::Open,
}

/// Serves `app` on `listener` until `hub` closes; then stops accepting,
/// lets each connection finish its request in flight (an idle one is
/// closed), and returns once every connection has ended.
pub async fn serve(listener: TcpListener, app: Router, limits: Limits, hub: Arc<Hub>) {
    let all = Arc::new(Semaphore::new(limits.max_connections));
    let per_ip = Arc::new(PerIp::default());
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .max_buf_size(MAX_HEAD_BYTES);
    let mut closed = std::pin::pin!(hub.shutdown().begun());
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            () = &mut closed => break,
        };
        let (tcp, peer) = match accepted {
            Ok(accepted) => accepted,
            Err(e) => {
                let said = crate::base::os::explain_open_files(e.to_string());
                tracing::warn!("accept: {said}");
                tokio::time::sleep(ACCEPT_BACKOFF).await;
                continue;
            }
        };
        let Ok(all) = all.clone().try_acquire_owned() else {
            metrics::refused("connections");
            continue;
        };
        let Some(own) = per_ip.enter(peer.ip(), limits.max_connections_per_ip) else {
            metrics::refused("connections_per_ip");
            continue;
        };
        // Without TCP_NODELAY a small event written behind another waits
        // for the peer's delayed ACK (~40 ms on Linux).
        if let Err(e) = tcp.set_nodelay(true) {
            tracing::warn!("TCP_NODELAY: {e}");
        }
        let slot = Arc::new(ConnectionSlot {
            _all: all,
            _own: own,
            _counted: metrics::connection(),
        });
        let app = app.clone();
        let service = hyper::service::service_fn(move |mut request: hyper::Request<Incoming>| {
            request
                .extensions_mut()
                .insert(ConnectInfo::<SocketAddr>(peer));
            request.extensions_mut().insert(slot.clone());
            app.clone().oneshot(request)
        });
        let connection = http
            .serve_connection(TokioIo::new(tcp), service)
            .with_upgrades();
        let closed = hub.shutdown().begun();
        tokio::spawn(async move {
            let mut connection = std::pin::pin!(connection);
            let ended = tokio::select! {
                ended = connection.as_mut() => ended,
                () = closed => {
                    connection.as_mut().graceful_shutdown();
                    connection.await
                }
            };
            if let Err(e) = ended {
                tracing::debug!("connection from {peer}: {e}");
            }
        });
    }
    drop(listener);
    // Every slot back: each connection, WebSockets included, has ended.
    let slots = u32::try_from(limits.max_connections).unwrap_or(u32::MAX);
    let _ = all.acquire_many(slots).await;
}
