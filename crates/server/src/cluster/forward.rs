//! Forwarding: a request for a game another node owns goes to that node,
//! with the caller's credentials, marked as forwarded (header
//! [`FORWARDED`] carrying the cluster's secret) so that it is never
//! forwarded again, and with the caller's address for the rate limits.
//! Plain HTTP requests are passed on whole by [`route`]; a WebSocket's
//! actions and a feed's first state go through [`Remote`].

use std::net::IpAddr;
use std::time::Duration;

use axum::body::Bytes;
use axum::http::header::{AUTHORIZATION, COOKIE, RETRY_AFTER, SET_COOKIE};
use axum::http::{HeaderMap, HeaderName, HeaderValue, Method, StatusCode};
use axum::response::{IntoResponse, Response};

use crate::base::refusal::Refusal;
use crate::game::state::Action;
use crate::round::msg::{Acted, Credentials};

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

/// Serves `work` as a request another node forwarded: it is served here
/// or refused, never forwarded again.
pub(crate) async fn serve_forwarded<T>(work: impl std::future::Future<Output = T>) -> T {
    FORWARDED_REQUEST.scope((), work).await
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
    Failed(Refusal),
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
                Unreached::Failed(Refusal::Busy(format!("the game's node: {e}")))
            }
        })?;
        let status = response.status();
        let headers = response.headers().clone();
        let body = response
            .bytes()
            .await
            .map_err(|e| Unreached::Failed(Refusal::Busy(format!("the game's node: {e}"))))?;
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

/// The refusal an answer of `status` with `message` stands for: what a
/// node reads back from another (the inverse of [`status`]).
pub fn from_status(status: StatusCode, message: String, headers: &HeaderMap) -> Refusal {
    match status.as_u16() {
        400 => Refusal::Malformed(message),
        401 => Refusal::Unauthenticated(message),
        403 => Refusal::Forbidden(message),
        404 => Refusal::NotFound(message),
        409 => Refusal::NotNow(message),
        422 => Refusal::Unacceptable(message),
        429 => Refusal::TooMany {
            message,
            retry_after: Duration::from_secs(
                headers
                    .get(RETRY_AFTER)
                    .and_then(|v| v.to_str().ok())
                    .and_then(|v| v.parse().ok())
                    .unwrap_or(1),
            ),
        },
        503 => Refusal::Busy(message),
        _ => Refusal::Internal(message),
    }
}

/// An answer's JSON body, or the error it says.
pub(crate) fn json_or_error(answer: &Answer) -> Result<serde_json::Value, Refusal> {
    let value: serde_json::Value = serde_json::from_slice(&answer.body).unwrap_or_default();
    if answer.status.is_success() {
        return Ok(value);
    }
    let message = value["error"]
        .as_str()
        .unwrap_or("the game's node failed")
        .to_string();
    Err(from_status(answer.status, message, &answer.headers))
}

/// An action's answer from the owner, as the owner's hub gave it.
pub(crate) fn acted(id: &str, answer: &Answer) -> Result<Acted, Refusal> {
    let value = json_or_error(answer)?;
    Ok(Acted {
        seq: value["seq"].as_u64().unwrap_or_default(),
        game: value["game"].as_str().map(str::to_string),
        cookie: cookie_set(id, &answer.headers),
    })
}
