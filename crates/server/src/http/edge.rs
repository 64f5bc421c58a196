//! The edge every request and answer passes (docs/server.md, "The
//! edge"): over-long targets and cross-site writes are refused before the
//! API sees them; every error leaves as `{"error": ...}`; every answer
//! carries the security headers; cookies are `Secure` behind TLS.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;

use axum::extract::{ConnectInfo, Request, State};
use axum::http::header::{
    ALLOW, CONTENT_SECURITY_POLICY, CONTENT_TYPE, HOST, ORIGIN, REFERRER_POLICY, RETRY_AFTER,
    SET_COOKIE, UPGRADE, X_CONTENT_TYPE_OPTIONS, X_FRAME_OPTIONS,
};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::base::limits::Config;
use crate::base::refusal::{clip, Refusal, Said};
use crate::http::error::error_response;

/// The page is ES modules, a style sheet and SVG from this origin; the
/// only other source is the empty `data:` favicon. `connect-src` is added
/// per request: the WebSocket's URL on this host.
const CSP: &str = "default-src 'self'; img-src 'self' data:; object-src 'none'; \
                   base-uri 'none'; form-action 'self'; frame-ancestors 'none'";
/// Longest non-JSON error body read to turn it into JSON.
const MAX_PLAIN_ERROR: usize = 4096;

/// The client's address, as the rate limits see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClientIp(pub IpAddr);

/// Where clients reach the server, `http://host:port` (or `https://`
/// behind TLS): the request's `Host`, or behind a trusted proxy its
/// `X-Forwarded-Host`. None when the host is not a plain name or address.
/// The PGN's `Site` is written from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PublicOrigin(pub Option<String>);

/// The middleware around the whole router.
pub async fn edge(State(config): State<Arc<Config>>, mut request: Request, next: Next) -> Response {
    let peer = request
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |ConnectInfo(addr)| {
            addr.ip()
        });
    let proxied = config.trusts(peer);
    let headers = request.headers();
    let secure = config.secure_cookies || (proxied && forwarded_https(headers));
    let csp = content_security_policy(headers.get(HOST));
    let origin = public_origin(headers, proxied, secure);
    let target = request
        .uri()
        .path_and_query()
        .map_or(0, |pq| pq.as_str().len());
    let response = if target > config.limits.max_uri_bytes {
        error_response(
            StatusCode::URI_TOO_LONG,
            &format!(
                "the request target is longer than {} bytes",
                config.limits.max_uri_bytes
            ),
        )
    } else if cross_site(request.method(), headers, proxied) {
        Refusal::Forbidden(Said::new("server-refusal-cross-site-requests-may-not")).into_response()
    } else {
        let ip = match proxied {
            true => forwarded_client(headers, &config).unwrap_or(peer),
            false => peer,
        };
        request.extensions_mut().insert(ClientIp(ip));
        request.extensions_mut().insert(origin);
        next.run(request).await
    };
    let mut response = json_errors(response).await;
    if secure {
        mark_cookies_secure(response.headers_mut());
    }
    add_security_headers(response.headers_mut(), csp);
    response
}

/// [`CSP`], with the page's WebSocket host allowed where `host` is a
/// plain host name or address (not every browser counts `ws:` as 'self').
fn content_security_policy(host: Option<&HeaderValue>) -> HeaderValue {
    host.filter(|h| plain_host(h))
        .and_then(|h| h.to_str().ok())
        .and_then(|h| {
            HeaderValue::from_str(&format!("{CSP}; connect-src 'self' ws://{h} wss://{h}")).ok()
        })
        .unwrap_or(HeaderValue::from_static(CSP))
}

/// A host name or address with its port, nothing else.
fn plain_host(host: &HeaderValue) -> bool {
    host.as_bytes()
        .iter()
        .all(|b| b.is_ascii_alphanumeric() || b".-:[]".contains(b))
}

fn public_origin(headers: &HeaderMap, proxied: bool, secure: bool) -> PublicOrigin {
    let host = proxied
        .then(|| headers.get("x-forwarded-host"))
        .flatten()
        .or_else(|| headers.get(HOST))
        .filter(|h| !h.is_empty() && plain_host(h))
        .and_then(|h| h.to_str().ok());
    let scheme = if secure { "https" } else { "http" };
    PublicOrigin(host.map(|host| format!("{scheme}://{host}")))
}

/// Whether a request that changes state, or opens a WebSocket, comes
/// from another site's page. Requests without `Origin` and
/// `Sec-Fetch-Site` (bots, curl) are not a browser's and pass.
fn cross_site(method: &Method, headers: &HeaderMap, proxied: bool) -> bool {
    let safe = matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS);
    if safe && !headers.contains_key(UPGRADE) {
        return false;
    }
    let fetch_site = headers.get("sec-fetch-site").map(HeaderValue::as_bytes);
    if fetch_site.is_some_and(|site| site != b"same-origin" && site != b"none") {
        return true;
    }
    let Some(origin) = headers.get(ORIGIN) else {
        return false;
    };
    let host = proxied
        .then(|| headers.get("x-forwarded-host"))
        .flatten()
        .or_else(|| headers.get(HOST));
    let origin_authority = origin.to_str().ok().and_then(|o| {
        o.strip_prefix("https://")
            .or_else(|| o.strip_prefix("http://"))
    });
    match (origin_authority, host.and_then(|h| h.to_str().ok())) {
        (Some(authority), Some(host)) => !authority.eq_ignore_ascii_case(host),
        _ => true,
    }
}

fn forwarded_https(headers: &HeaderMap) -> bool {
    headers
        .get("x-forwarded-proto")
        .is_some_and(|v| v.as_bytes().eq_ignore_ascii_case(b"https"))
}

/// Behind trusted proxies, the client's address: the last one in
/// `X-Forwarded-For` that is not a proxy's (each proxy appends the peer
/// it saw; what the client wrote itself comes before).
fn forwarded_client(headers: &HeaderMap, config: &Config) -> Option<IpAddr> {
    let listed: Vec<Option<IpAddr>> = headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(|text| text.trim().parse::<IpAddr>().ok())
        .collect();
    for address in listed.into_iter().rev() {
        match address {
            Some(ip) if config.trusts(ip) => continue,
            // A garbled entry: nothing before it can be trusted.
            other => return other,
        }
    }
    None
}

/// Gives an error answer that is not JSON (axum's and tower-http's own:
/// 405, 408, 413, a missing file...) the body `{"error": ...}`: its text
/// cut short, or the status's name. A page (the page for an unknown
/// address) stays a page.
async fn json_errors(response: Response) -> Response {
    let status = response.status();
    let kept = response.headers().get(CONTENT_TYPE).is_some_and(|v| {
        v.as_bytes().starts_with(b"application/json") || v.as_bytes().starts_with(b"text/html")
    });
    if kept || !(status.is_client_error() || status.is_server_error()) {
        return response;
    }
    let (parts, body) = response.into_parts();
    let text = axum::body::to_bytes(body, MAX_PLAIN_ERROR)
        .await
        .map(|bytes| String::from_utf8_lossy(&bytes).trim().to_string())
        .unwrap_or_default();
    let message = if text.is_empty() {
        status.canonical_reason().unwrap_or("error").to_lowercase()
    } else {
        clip(&text)
    };
    let mut json = error_response(status, &message);
    for name in [ALLOW, RETRY_AFTER] {
        if let Some(value) = parts.headers.get(&name) {
            json.headers_mut().insert(name, value.clone());
        }
    }
    json
}

fn mark_cookies_secure(headers: &mut HeaderMap) {
    let cookies: Vec<HeaderValue> = headers.get_all(SET_COOKIE).iter().cloned().collect();
    headers.remove(SET_COOKIE);
    for cookie in cookies {
        let secure = HeaderValue::from_bytes(&[cookie.as_bytes(), b"; Secure"].concat());
        headers.append(SET_COOKIE, secure.unwrap_or(cookie));
    }
}

fn add_security_headers(headers: &mut HeaderMap, csp: HeaderValue) {
    headers.insert(CONTENT_SECURITY_POLICY, csp);
    headers.insert(X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    headers.insert(X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    // Game links carry invites: no page is told where its visitor came from.
    headers.insert(REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_client_is_the_last_forwarded_address_no_proxy_wrote() {
        let config = Config {
            trusted_proxies: ["10.0.0.0/8", "127.0.0.1"]
                .iter()
                .map(|t| crate::base::limits::parse_proxy(t).unwrap())
                .collect(),
            ..Config::default()
        };
        assert!(config.trusts("10.9.8.7".parse().unwrap()));
        assert!(!config.trusts("11.0.0.1".parse().unwrap()));
        let client = |values: &[&str]| {
            let mut headers = HeaderMap::new();
            for v in values {
                headers.append("x-forwarded-for", HeaderValue::from_str(v).unwrap());
            }
            forwarded_client(&headers, &config)
        };
        // The client wrote 6.6.6.6 itself; the proxies saw 8.8.8.8.
        let seen = Some("8.8.8.8".parse().unwrap());
        assert_eq!(client(&["6.6.6.6, 8.8.8.8, 10.0.0.2"]), seen);
        assert_eq!(client(&["6.6.6.6", "8.8.8.8", "127.0.0.1"]), seen);
        assert_eq!(client(&["6.6.6.6, garbage, 10.0.0.2"]), None);
        assert_eq!(client(&[]), None);
        assert!(crate::base::limits::parse_proxy("10.0.0.0/33").is_err());
        assert!(crate::base::limits::parse_proxy("proxy").is_err());
    }

    fn request(method: Method, headers: &[(&str, &str)]) -> (Method, HeaderMap) {
        let mut map = HeaderMap::new();
        for (name, value) in headers {
            map.insert(
                axum::http::HeaderName::from_bytes(name.as_bytes()).unwrap(),
                HeaderValue::from_str(value).unwrap(),
            );
        }
        (method, map)
    }

    #[test]
    fn cross_site_writes_and_upgrades_are_told_apart() {
        let host = ("host", "127.0.0.1:8080");
        for (method, headers, cross) in [
            (Method::POST, vec![host], false),
            (
                Method::POST,
                vec![host, ("origin", "http://127.0.0.1:8080")],
                false,
            ),
            (
                Method::POST,
                vec![host, ("origin", "http://evil.example")],
                true,
            ),
            (Method::POST, vec![host, ("origin", "null")], true),
            (
                Method::POST,
                vec![host, ("sec-fetch-site", "cross-site")],
                true,
            ),
            (
                Method::POST,
                vec![host, ("sec-fetch-site", "same-site")],
                true,
            ),
            (
                Method::POST,
                vec![host, ("sec-fetch-site", "same-origin")],
                false,
            ),
            (
                Method::GET,
                vec![host, ("origin", "http://evil.example")],
                false,
            ),
            (
                Method::GET,
                vec![
                    host,
                    ("upgrade", "websocket"),
                    ("origin", "http://evil.example"),
                ],
                true,
            ),
        ] {
            let (method, map) = request(method, &headers);
            assert_eq!(
                cross_site(&method, &map, false),
                cross,
                "{method} {headers:?}"
            );
        }
    }

    #[test]
    fn the_policy_lets_the_page_reach_its_own_websocket_only() {
        let csp = content_security_policy(Some(&HeaderValue::from_static("127.0.0.1:8080")));
        assert!(csp
            .to_str()
            .unwrap()
            .ends_with("connect-src 'self' ws://127.0.0.1:8080 wss://127.0.0.1:8080"));
        let odd = content_security_policy(Some(&HeaderValue::from_static("x; script-src *")));
        assert_eq!(odd, CSP);
    }

    #[test]
    fn cookies_become_secure() {
        let mut headers = HeaderMap::new();
        headers.append(SET_COOKIE, HeaderValue::from_static("a=1; HttpOnly"));
        mark_cookies_secure(&mut headers);
        assert_eq!(headers[SET_COOKIE], "a=1; HttpOnly; Secure");
    }
}
