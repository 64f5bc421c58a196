//! Forwarding: a request for a game another node owns goes to that node,
//! with the caller's credentials, marked as forwarded (header
//! [`FORWARDED`] carrying the cluster's secret) so that it is never
//! forwarded again, and with the caller's address for the rate limits.
//! Plain HTTP requests are passed on whole by [`route`]; a WebSocket's
//! actions and a feed's first state go through [`Remote`].

use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::header::{AUTHORIZATION, COOKIE, RETRY_AFTER, SET_COOKIE};
use axum::http::{HeaderMap, HeaderName, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::actor::{Acted, Credentials};
use crate::edge::ClientIp;
use crate::error::ApiError;
use crate::hub::Hub;
use crate::secret;
use crate::state::Action;

/// Marks a request one node forwards to another; its value is the secret.
pub const FORWARDED: &str = "x-parity-forwarded";
/// The address of the client a forwarded request came from.
pub const CLIENT_IP: &str = "x-parity-client-ip";
/// How long a forwarded request may take.
const FORWARD_TIMEOUT: Duration = Duration::from_secs(30);
/// How long a request waits for a game's owner to be known or reachable
/// (a lease just taken, an owner just killed) before a 503.
pub(crate) const OWNER_PATIENCE: Duration = Duration::from_secs(5);

tokio::task_local! {
    static FORWARDED_REQUEST: ();
}

/// Whether the request being served was forwarded by another node: then
/// it is served here or refused, never forwarded again.
pub(crate) fn is_forwarded() -> bool {
    FORWARDED_REQUEST.try_with(|_| ()).is_ok()
}

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
            return ApiError::Forbidden("not forwarded by a node of this cluster".into())
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
        return FORWARDED_REQUEST.scope((), next.run(request)).await;
    }
    let Some(id) = owned_game(request.uri().path()).map(str::to_string) else {
        return next.run(request).await;
    };
    let ip = request.extensions().get::<ClientIp>().map(|c| c.0);
    let (parts, body) = request.into_parts();
    let body = match axum::body::to_bytes(body, hub.limits().max_body_bytes).await {
        Ok(body) => body,
        Err(e) => return ApiError::BadRequest(format!("request body: {e}")).into_response(),
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

/// An answer from the owner, passed back as it came.
pub(crate) struct Answer {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub body: Bytes,
}

impl IntoResponse for Answer {
    fn into_response(self) -> Response {
        let mut response = (self.status, self.body).into_response();
        for (name, value) in &self.headers {
            if !hop_by_hop(name) {
                response.headers_mut().append(name, value.clone());
            }
        }
        response
    }
}

/// Headers that belong to one connection, not to the message.
fn hop_by_hop(name: &HeaderName) -> bool {
    matches!(
        name.as_str(),
        "connection"
            | "keep-alive"
            | "transfer-encoding"
            | "te"
            | "upgrade"
            | "content-length"
            | "proxy-connection"
            | "trailer"
    )
}

/// Why a forward did not reach the owner.
pub(crate) enum Unreached {
    /// No connection: the owner may have just died; ask again.
    Gone,
    Failed(ApiError),
}

/// The HTTP client that forwards to other nodes.
pub struct Remote {
    http: reqwest::Client,
    pub(crate) secret: String,
}

impl Remote {
    pub(crate) fn new(secret: String) -> Remote {
        let http = reqwest::Client::builder()
            .no_proxy()
            .timeout(FORWARD_TIMEOUT)
            .build()
            .expect("an HTTP client");
        Remote { http, secret }
    }

    /// Sends a request to the node at `url`, as forwarded.
    pub(crate) async fn send(
        &self,
        url: &str,
        method: Method,
        path: &str,
        headers: &HeaderMap,
        body: Bytes,
        ip: Option<IpAddr>,
    ) -> Result<Answer, Unreached> {
        let mut request = self.http.request(method, format!("{url}{path}"));
        for (name, value) in headers {
            // The Host stays the caller's: the owner judges origins as
            // this node did.
            if !hop_by_hop(name) {
                request = request.header(name, value);
            }
        }
        request = request.header(FORWARDED, &self.secret);
        if let Some(ip) = ip {
            request = request.header(CLIENT_IP, ip.to_string());
        }
        let response = request.body(body).send().await.map_err(|e| {
            if e.is_connect() {
                Unreached::Gone
            } else {
                Unreached::Failed(ApiError::Unavailable(format!("the game's node: {e}")))
            }
        })?;
        let status = response.status();
        let headers = response.headers().clone();
        let body = response.bytes().await.map_err(|e| {
            Unreached::Failed(ApiError::Unavailable(format!("the game's node: {e}")))
        })?;
        Ok(Answer {
            status,
            headers,
            body,
        })
    }
}

/// The headers that present `credentials` for game `id` as a request did.
pub(crate) fn credential_headers(id: &str, credentials: &Credentials) -> HeaderMap {
    let mut headers = HeaderMap::new();
    if credentials.bearer {
        let token = credentials.tokens.first().map_or("", |p| p.token.as_str());
        if let Ok(value) = HeaderValue::from_str(&format!("Bearer {token}")) {
            headers.insert(AUTHORIZATION, value);
        }
        return headers;
    }
    let cookies: Vec<String> = credentials
        .tokens
        .iter()
        .enumerate()
        .map(|(i, p)| match p.other_cookie {
            false => format!("parity_seat_{id}={}", p.token),
            // Another game's name: any other name reads the same.
            true => format!("parity_seat_forwarded{i}={}", p.token),
        })
        .collect();
    if let Ok(value) = HeaderValue::from_str(&cookies.join("; ")) {
        headers.insert(COOKIE, value);
    }
    headers
}

/// The route and body of a seat's action over HTTP.
pub(crate) fn action_request(id: &str, action: &Action) -> (String, serde_json::Value) {
    use serde_json::{json, Value};
    let board = format!("/api/board/game/{id}");
    match action {
        Action::Move(uci) => {
            let escaped: String = uci
                .bytes()
                .map(|b| match b {
                    b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' => (b as char).to_string(),
                    _ => format!("%{b:02X}"),
                })
                .collect();
            (format!("{board}/move/{escaped}"), Value::Null)
        }
        Action::Commit(commitment) => {
            (format!("{board}/commit"), json!({"commitment": commitment}))
        }
        Action::Reveal { mv, nonce } => (
            format!("{board}/reveal"),
            json!({"move": mv, "nonce": nonce}),
        ),
        Action::Resign => (format!("{board}/resign"), Value::Null),
        Action::Abort => (format!("{board}/abort"), Value::Null),
        Action::DrawYes => (format!("{board}/draw/yes"), Value::Null),
        Action::DrawNo => (format!("{board}/draw/no"), Value::Null),
        Action::Rematch => (format!("{board}/rematch/yes"), Value::Null),
        Action::RematchNo => (format!("{board}/rematch/no"), Value::Null),
        Action::ClaimVictory => (format!("{board}/claim-victory"), Value::Null),
    }
}

/// The token an answer sets as game `id`'s seat cookie.
pub(crate) fn cookie_set(id: &str, headers: &HeaderMap) -> Option<String> {
    let prefix = format!("parity_seat_{id}=");
    headers
        .get_all(SET_COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find_map(|v| v.strip_prefix(&prefix))
        .map(|rest| rest.split(';').next().unwrap_or_default().to_string())
}

/// An answer's JSON body, or the error it says.
pub(crate) fn json_or_error(answer: &Answer) -> Result<serde_json::Value, ApiError> {
    let value: serde_json::Value = serde_json::from_slice(&answer.body).unwrap_or_default();
    if answer.status.is_success() {
        return Ok(value);
    }
    let message = value["error"]
        .as_str()
        .unwrap_or("the game's node failed")
        .to_string();
    Err(match answer.status.as_u16() {
        400 => ApiError::BadRequest(message),
        401 => ApiError::Unauthorized(message),
        403 => ApiError::Forbidden(message),
        404 => ApiError::NotFound(message),
        409 => ApiError::Conflict(message),
        422 => ApiError::Unprocessable(message),
        429 => ApiError::TooManyRequests {
            message,
            retry_after: Duration::from_secs(
                answer
                    .headers
                    .get(RETRY_AFTER)
                    .and_then(|v| v.to_str().ok())
                    .and_then(|v| v.parse().ok())
                    .unwrap_or(1),
            ),
        },
        503 => ApiError::Unavailable(message),
        _ => ApiError::Internal(message),
    })
}

/// An action's answer from the owner, as the owner's hub gave it.
pub(crate) fn acted(id: &str, answer: &Answer) -> Result<Acted, ApiError> {
    let value = json_or_error(answer)?;
    Ok(Acted {
        seq: value["seq"].as_u64().unwrap_or_default(),
        game: value["game"].as_str().map(str::to_string),
        cookie: cookie_set(id, &answer.headers),
    })
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
