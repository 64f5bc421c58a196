//! The series of `GET /metrics` (docs/server.md, "Monitoring"). Every
//! name is here; each site that counts calls one function of this module.
//! Until [`install`] runs the calls cost next to nothing: the `metrics`
//! facade drops them.

use std::sync::OnceLock;
use std::time::Duration;

use metrics::{counter, describe_counter, describe_gauge, describe_histogram, gauge, histogram};
use metrics_exporter_prometheus::{PrometheusBuilder, PrometheusHandle};
use sha2::{Digest as _, Sha256};
use subtle::ConstantTimeEq as _;

const LIVE_GAMES: &str = "parity_live_games";
const CONNECTIONS: &str = "parity_connections";
const SOCKETS: &str = "parity_sockets";
const MOVES: &str = "parity_moves_total";
const TURN_LATENCY: &str = "parity_turn_latency_seconds";
const COMMIT_LATENCY: &str = "parity_commit_latency_seconds";
const ENGINE_QUEUE: &str = "parity_engine_queue";
const ENGINE_WORKERS: &str = "parity_engine_workers";
const ENGINE_BUSY: &str = "parity_engine_busy";
const REFUSALS: &str = "parity_rate_limit_refusals_total";
const LEASES: &str = "parity_node_leases";

/// Upper bounds of the latency histograms' buckets, in seconds: a move is
/// acknowledged after a commit, so both sit around a millisecond.
const LATENCY_BUCKETS: &[f64] = &[
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0,
];
/// How often histograms' samples are folded into their buckets, so
/// memory stays bounded between scrapes.
const UPKEEP_EVERY: Duration = Duration::from_secs(5);
/// The kinds of socket `parity_sockets` counts.
pub const WEBSOCKET: &str = "websocket";
pub const STREAM: &str = "stream";

static HANDLE: OnceLock<Result<PrometheusHandle, String>> = OnceLock::new();

/// Installs the process-wide recorder, once however many servers start.
/// An error when another recorder was installed first.
pub fn install() -> Result<(), String> {
    HANDLE
        .get_or_init(|| {
            let mut builder = PrometheusBuilder::new();
            for name in [TURN_LATENCY, COMMIT_LATENCY] {
                builder = builder
                    .set_buckets_for_metric(
                        metrics_exporter_prometheus::Matcher::Full(name.into()),
                        LATENCY_BUCKETS,
                    )
                    .map_err(|e| e.to_string())?;
            }
            let recorder = builder.build_recorder();
            let handle = recorder.handle();
            metrics::set_global_recorder(recorder).map_err(|e| e.to_string())?;
            let upkeep = handle.clone();
            std::thread::Builder::new()
                .name("metrics-upkeep".into())
                .spawn(move || loop {
                    std::thread::sleep(UPKEEP_EVERY);
                    upkeep.run_upkeep();
                })
                .map_err(|e| e.to_string())?;
            describe();
            Ok(handle)
        })
        .as_ref()
        .map(|_| ())
        .map_err(Clone::clone)
}

fn describe() {
    describe_gauge!(LIVE_GAMES, "Unfinished games whose task runs on this node.");
    describe_gauge!(CONNECTIONS, "Open TCP connections.");
    describe_gauge!(SOCKETS, "Open WebSockets and NDJSON streams, by kind.");
    describe_counter!(
        MOVES,
        "Moves applied: a turn-based move counts 1, a simultaneous turn 2."
    );
    describe_histogram!(
        TURN_LATENCY,
        metrics::Unit::Seconds,
        "Time from a game's task taking a seat's move, commitment or reveal to acknowledging it (checked, applied, stored)."
    );
    describe_histogram!(
        COMMIT_LATENCY,
        metrics::Unit::Seconds,
        "Time from handing changes to the store's writer to their durable commit."
    );
    describe_gauge!(ENGINE_QUEUE, "Engine searches waiting for a worker.");
    describe_gauge!(ENGINE_WORKERS, "Engine searches that may run at once.");
    describe_gauge!(ENGINE_BUSY, "Engine searches running.");
    describe_counter!(
        REFUSALS,
        "Requests and connections refused by a limit, by the limit's name."
    );
    describe_gauge!(
        LEASES,
        "Game leases this node holds in its cluster (0 without one)."
    );
    // Series with no event yet still show, as 0.
    gauge!(LIVE_GAMES).increment(0.0);
    gauge!(CONNECTIONS).increment(0.0);
    for kind in [WEBSOCKET, STREAM] {
        gauge!(SOCKETS, "kind" => kind).increment(0.0);
    }
    counter!(MOVES).increment(0);
}

/// The metrics in Prometheus's text format; none before [`install`].
pub fn render() -> Option<String> {
    HANDLE.get()?.as_ref().ok().map(PrometheusHandle::render)
}

/// Counts one open thing in a gauge while it lives.
pub struct Open(metrics::Gauge);

impl Open {
    fn new(gauge: metrics::Gauge) -> Open {
        gauge.increment(1.0);
        Open(gauge)
    }
}

impl Drop for Open {
    fn drop(&mut self) {
        self.0.decrement(1.0);
    }
}

pub fn live_game() -> Open {
    Open::new(gauge!(LIVE_GAMES))
}

pub fn connection() -> Open {
    Open::new(gauge!(CONNECTIONS))
}

/// `kind`: [`WEBSOCKET`] or [`STREAM`].
pub fn socket(kind: &'static str) -> Open {
    Open::new(gauge!(SOCKETS, "kind" => kind))
}

pub fn moves_applied(moves: u64) {
    counter!(MOVES).increment(moves);
}

pub fn turn_latency(took: Duration) {
    histogram!(TURN_LATENCY).record(took.as_secs_f64());
}

pub fn commit_latency(took: Duration) {
    histogram!(COMMIT_LATENCY).record(took.as_secs_f64());
}

/// The engine pool as it is now.
pub fn engines(workers: usize, busy: usize, waiting: usize) {
    gauge!(ENGINE_WORKERS).set(workers as f64);
    gauge!(ENGINE_BUSY).set(busy as f64);
    gauge!(ENGINE_QUEUE).set(waiting as f64);
}

/// A refusal by the limit named `limit` (a 429, a 503 or a closed connection).
pub fn refused(limit: &'static str) {
    counter!(REFUSALS, "limit" => limit).increment(1);
}

pub fn leases(held: usize) {
    gauge!(LEASES).set(held as f64);
}

/// The token `/metrics` asks for, kept as its SHA-256 so that comparing
/// takes the same time whatever is presented.
#[derive(Clone, PartialEq, Eq)]
pub struct MetricsToken([u8; 32]);

impl MetricsToken {
    pub fn new(token: &str) -> MetricsToken {
        MetricsToken(Sha256::digest(token.as_bytes()).into())
    }

    pub fn admits(&self, presented: &str) -> bool {
        let digest: [u8; 32] = Sha256::digest(presented.as_bytes()).into();
        self.0.ct_eq(&digest).into()
    }
}

impl std::fmt::Debug for MetricsToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("MetricsToken(…)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_token_admits_itself_only() {
        let token = MetricsToken::new("s3cret");
        assert!(token.admits("s3cret"));
        assert!(!token.admits("s3cre"));
        assert!(!token.admits("s3cret "));
        assert!(!token.admits(""));
        assert_eq!(format!("{token:?}"), "MetricsToken(…)");
    }
}
