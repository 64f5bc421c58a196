//! For load balancers and Prometheus (docs/server.md, "Monitoring"):
//! `/health` and `/ready`, open to all and cheap, and `/metrics`, only
//! for the bearer of the metrics token.

use std::sync::Arc;
use std::time::Duration;

use axum::extract::State;
use axum::http::header::{AUTHORIZATION, CONTENT_TYPE, WWW_AUTHENTICATE};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;

use crate::base::metrics::{self, MetricsToken};
use crate::base::refusal::{Refusal, Said};
use crate::hub::Hub;

/// Longest wait for the database's answer before `/ready` says 503, well
/// within a load balancer's probe timeout.
const READY_TIMEOUT: Duration = Duration::from_secs(2);
/// Prometheus's text exposition format.
const TEXT_FORMAT: &str = "text/plain; version=0.0.4; charset=utf-8";

struct Monitoring {
    hub: Arc<Hub>,
    /// None: `/metrics` is not served.
    token: Option<MetricsToken>,
}

pub fn routes(hub: Arc<Hub>, token: Option<MetricsToken>) -> Router {
    Router::new()
        .route("/health", get(health))
        .route("/ready", get(ready))
        .route("/metrics", get(scrape))
        .with_state(Arc::new(Monitoring { hub, token }))
}

/// Alive: the process serves requests.
async fn health() -> &'static str {
    "ok"
}

/// Ready for traffic: the store answers and the node is in its cluster.
async fn ready(State(monitoring): State<Arc<Monitoring>>) -> Response {
    match tokio::time::timeout(READY_TIMEOUT, monitoring.hub.readiness()).await {
        Ok(Ok(())) => "ready".into_response(),
        Ok(Err(reason)) => Refusal::Busy(reason.into()).into_response(),
        Err(_) => Refusal::Busy(
            Said::new("server-refusal-database-did-not-answer-within")
                .with("as_secs", READY_TIMEOUT.as_secs()),
        )
        .into_response(),
    }
}

async fn scrape(State(monitoring): State<Arc<Monitoring>>, headers: HeaderMap) -> Response {
    let Some(token) = &monitoring.token else {
        return Refusal::NotFound(Said::new("server-refusal-no-such-page")).into_response();
    };
    let presented = headers
        .get(AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(str::trim);
    if !presented.is_some_and(|p| token.admits(p)) {
        let mut refused =
            Refusal::Unauthenticated(Said::new("server-refusal-metrics-token-required-bearer"))
                .into_response();
        refused
            .headers_mut()
            .insert(WWW_AUTHENTICATE, "Bearer".parse().expect("a header value"));
        return refused;
    }
    monitoring.hub.measure_now().await;
    match metrics::render() {
        Some(text) => ([(CONTENT_TYPE, TEXT_FORMAT)], text).into_response(),
        None => Refusal::Internal(Said::new("server-refusal-metrics-recorder-not-installed"))
            .into_response(),
    }
}
