//! The internal endpoint where nodes of a cluster ask each other
//! (`cluster::node`). Only a request carrying the cluster's secret is
//! read; anything else is a 401 and changes nothing.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use axum::Json;

use crate::base::refusal::{Refusal, Said};
use crate::cluster::node::{self, Envelope, NodeRequest, SECRET_HEADER, VERSION};
use crate::hub::Hub;

pub async fn serve(State(hub): State<Arc<Hub>>, headers: HeaderMap, body: Bytes) -> Response {
    let Some(cluster) = hub.cluster() else {
        return Refusal::Unauthenticated(Said::new("server-refusal-server-not-node-cluster"))
            .into_response();
    };
    let presented = headers.get(SECRET_HEADER).map_or(&[][..], |v| v.as_bytes());
    if !node::secret_matches(presented, &cluster.remote().secret) {
        return Refusal::Unauthenticated(Said::new("server-refusal-only-cluster-s-nodes-may"))
            .into_response();
    }
    let envelope: Envelope<NodeRequest> = match serde_json::from_slice(&body) {
        Ok(envelope) => envelope,
        Err(e) => {
            return Refusal::Malformed(Said::new("server-refusal-node-request").with("e", &e))
                .into_response()
        }
    };
    if envelope.version != VERSION {
        return Refusal::Malformed(
            Said::new("server-refusal-node-protocol-version-node-speaks")
                .with("version", envelope.version)
                .with("VERSION", VERSION),
        )
        .into_response();
    }
    let reply = hub.serve_node(envelope.message).await;
    Json(Envelope {
        version: VERSION,
        message: reply,
    })
    .into_response()
}
