//! The page's log-in: sign-up, log-in and log-out with a name and a
//! password, and the session cookie they set (`docs/server.md`,
//! "Accounts on the page"). The cookie holds a random token; the database
//! keeps only its SHA-256, like seat and API tokens.

use std::net::IpAddr;
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{Extension, State};
use axum::http::header::{SET_COOKIE, USER_AGENT};
use axum::http::{HeaderMap, HeaderValue};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::Value;

use crate::accounts::{self, AccountError};
use crate::base::refusal::{Refusal, Said};
use crate::base::secret;
use crate::game::event::now_ms;
use crate::http::auth::{logged_in, session_token, SESSION_COOKIE};
use crate::http::edge::{ClientIp, PublicOrigin};
use crate::http::profiles::user_json;
use crate::hub::Hub;
use crate::store::{AccountChange, Change, UserRow};

pub fn routes() -> Router<Arc<Hub>> {
    Router::new()
        .route("/api/signup", post(signup))
        .route("/api/login", post(login))
        .route("/api/logout", post(logout))
        .route("/api/me", get(me))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Credentials {
    username: String,
    password: String,
}

fn read_credentials(body: &Bytes) -> Result<Credentials, Refusal> {
    serde_json::from_slice(body)
        .map_err(|e| Refusal::Malformed(Said::new("server-refusal-bad-json").with("e", &e)))
}

impl From<AccountError> for Refusal {
    fn from(e: AccountError) -> Refusal {
        let said = e.said();
        match e {
            AccountError::NameTaken(_) | AccountError::LooksLike(..) => Refusal::NotNow(said),
            AccountError::NoSuchUser(_) => Refusal::NotFound(said),
            AccountError::Hash(_) | AccountError::Store(_) => Refusal::Internal(said),
            AccountError::Busy => Refusal::Busy(said),
            _ => Refusal::Malformed(said),
        }
    }
}

fn session_cookie(value: &str, max_age: u64) -> HeaderValue {
    let text =
        format!("{SESSION_COOKIE}={value}; Path=/; HttpOnly; SameSite=Lax; Max-Age={max_age}");
    HeaderValue::from_str(&text).unwrap_or_else(|_| HeaderValue::from_static(""))
}

/// Opens a session of `user`: the answer is the user, with the cookie.
async fn open_session(
    hub: &Hub,
    user: &UserRow,
    origin: Option<&str>,
    headers: &HeaderMap,
) -> Result<Response, Refusal> {
    let token = secret::new_token();
    hub.writer
        .write(vec![Change::Account(AccountChange::NewSession {
            token_hash: secret::token_hash(&token),
            user_id: user.id.clone(),
            created_ms: now_ms(),
            agent: user_agent(headers),
        })])
        .await?;
    let mut response = Json(user_json(hub, user, origin).await?).into_response();
    response.headers_mut().append(
        SET_COOKIE,
        session_cookie(&token, hub.limits().session_lifetime.as_secs()),
    );
    Ok(response)
}

/// The browser's `User-Agent`, shortened and printable, to name a session.
fn user_agent(headers: &HeaderMap) -> String {
    const MAX_AGENT_CHARS: usize = 200;
    headers
        .get(USER_AGENT)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .chars()
        .filter(|c| !c.is_control())
        .take(MAX_AGENT_CHARS)
        .collect()
}

/// `POST /api/signup` `{username, password}`: a new account, logged in.
/// Each costs an argon2 hash: an address has a few a minute.
async fn signup(
    State(hub): State<Arc<Hub>>,
    Extension(ClientIp(ip)): Extension<ClientIp>,
    Extension(PublicOrigin(origin)): Extension<PublicOrigin>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, Refusal> {
    let asked = read_credentials(&body)?;
    hub.quotas().signup(ip)?;
    let user = accounts::add_user(
        hub.store(),
        &hub.writer,
        &asked.username,
        Some(&asked.password),
        false,
    )
    .await?;
    open_session(&hub, &user, origin.as_deref(), &headers).await
}

/// `POST /api/login` `{username, password}`. A wrong name or password is
/// a failed authentication, counted against the address like a bad token.
async fn login(
    State(hub): State<Arc<Hub>>,
    Extension(ClientIp(ip)): Extension<ClientIp>,
    Extension(PublicOrigin(origin)): Extension<PublicOrigin>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, Refusal> {
    let asked = read_credentials(&body)?;
    let user_id = accounts::user_id(&asked.username);
    // Before any hash: a guess costs the guesser, not the server.
    hub.quotas().login(ip, &user_id)?;
    let user = hub.store().user(&user_id).await?;
    let phc = user.as_ref().and_then(|u| u.password_hash.clone());
    let matches =
        accounts::argon2_work(move || accounts::login_matches(&asked.password, phc.as_deref()))
            .await?;
    match user {
        Some(user) if matches => open_session(&hub, &user, origin.as_deref(), &headers).await,
        _ => Err(refused(&hub, ip)),
    }
}

fn refused(hub: &Hub, ip: IpAddr) -> Refusal {
    hub.quotas().auth_failure(
        ip,
        Refusal::Unauthenticated(Said::new("server-refusal-wrong-user-name-password")),
    )
}

/// `POST /api/logout`: ends the session of the cookie and clears it.
async fn logout(State(hub): State<Arc<Hub>>, headers: HeaderMap) -> Result<Response, Refusal> {
    if let Some(token) = session_token(&headers) {
        hub.writer
            .write(vec![Change::Account(AccountChange::EndSession {
                token_hash: secret::token_hash(token),
            })])
            .await?;
    }
    let mut response = Json(serde_json::json!({"ok": true})).into_response();
    response
        .headers_mut()
        .append(SET_COOKIE, session_cookie("", 0));
    Ok(response)
}

/// `GET /api/me`: the logged-in account; `null` without a log-in cookie
/// (a page asks before anyone logs in), 401 for a log-in that has ended.
async fn me(
    State(hub): State<Arc<Hub>>,
    Extension(ClientIp(ip)): Extension<ClientIp>,
    Extension(PublicOrigin(origin)): Extension<PublicOrigin>,
    headers: HeaderMap,
) -> Result<Json<Value>, Refusal> {
    if session_token(&headers).is_none() {
        return Ok(Json(Value::Null));
    }
    let user = logged_in(&hub, ip, &headers).await?;
    Ok(Json(user_json(&hub, &user, origin.as_deref()).await?))
}
