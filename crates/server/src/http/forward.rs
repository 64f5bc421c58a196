//! The cluster's middleware: a request for a game another node owns is
//! passed on to that node; a request another node forwarded is served here.

use std::net::IpAddr;
use std::sync::Arc;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::base::refusal::Refusal;
use crate::base::secret;
use crate::cluster::forward::{serve_forwarded, CLIENT_IP, FORWARDED};
use crate::http::edge::ClientIp;
use crate::hub::Hub;

/// The game of a request that is served by the game's owner; none for
/// other requests and for the feeds (streams and WebSockets are served
/// where they arrive, from a relay).
fn owned_game(path: &str) -> Option<&str> {
    let id = if let Some(rest) = path.strip_prefix("/api/games/") {
        let mut parts = rest.split('/');
        parts.next().filter(|_| parts.next() != Some("stream"))
    } else if let Some(rest) = path
        .strip_prefix("/api/board/game/")
        .or_else(|| path.strip_prefix("/api/bot/game/"))
    {
        rest.split('/').next().filter(|&first| first != "stream")
    } else {
        path.strip_prefix("/game/export/")
    }?;
    secret::is_game_id(id).then_some(id)
}

/// The cluster's middleware, innermost: passes a request for a game
/// another node owns on to that node; serves a forwarded one here.
pub async fn route(State(hub): State<Arc<Hub>>, mut request: Request, next: Next) -> Response {
    let Some(cluster) = hub.cluster() else {
        return next.run(request).await;
    };
    if let Some(mark) = request.headers().get(FORWARDED) {
        if mark.as_bytes() != cluster.remote().secret.as_bytes() {
            return Refusal::Forbidden("not forwarded by a node of this cluster".into())
                .into_response();
        }
        let client = request
            .headers()
            .get(CLIENT_IP)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse::<IpAddr>().ok());
        if let Some(ip) = client {
            request.extensions_mut().insert(ClientIp(ip));
        }
        return serve_forwarded(next.run(request)).await;
    }
    let Some(id) = owned_game(request.uri().path()).map(str::to_string) else {
        return next.run(request).await;
    };
    let ip = request.extensions().get::<ClientIp>().map(|c| c.0);
    let (parts, body) = request.into_parts();
    let body = match axum::body::to_bytes(body, hub.limits().max_body_bytes).await {
        Ok(body) => body,
        Err(e) => return Refusal::Malformed(format!("request body: {e}")).into_response(),
    };
    let path = parts
        .uri
        .path_and_query()
        .map_or(parts.uri.path(), |p| p.as_str())
        .to_string();
    let sent = hub
        .forward(
            &id,
            parts.method.clone(),
            &path,
            &parts.headers,
            body.clone(),
            ip,
        )
        .await;
    match sent {
        Ok(Some(answer)) => answer.into_response(),
        Ok(None) => {
            let request = Request::from_parts(parts, Body::from(body));
            next.run(request).await
        }
        Err(e) => e.into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Actions and reads go to the owner; the feeds are served where they
    /// arrive (a forwarded stream would be buffered whole, and never end).
    #[test]
    fn feeds_stay_on_the_node_they_reach() {
        let id = secret::new_game_id();
        for path in [
            format!("/api/games/{id}"),
            format!("/api/games/{id}/record"),
            format!("/api/board/game/{id}/move/e2e4"),
            format!("/api/bot/game/{id}/move/e2e4"),
            format!("/api/bot/game/{id}/commit"),
            format!("/api/bot/game/{id}/chat"),
            format!("/game/export/{id}"),
        ] {
            assert_eq!(owned_game(&path), Some(id.as_str()), "{path}");
        }
        for path in [
            format!("/api/games/{id}/stream"),
            format!("/api/board/game/stream/{id}"),
            format!("/api/bot/game/stream/{id}"),
            format!("/api/ws/game/{id}"),
            "/api/games/not-an-id/record".to_string(),
        ] {
            assert_eq!(owned_game(&path), None, "{path}");
        }
    }
}
