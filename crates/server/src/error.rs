//! The API's errors: a status code and `{"error": "message"}`.

use std::time::Duration;

use axum::http::header::RETRY_AFTER;
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;

use crate::state::Refusal;
use crate::store::StoreError;

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ApiError {
    /// 400: bad JSON, bad move text, a malformed commitment or nonce.
    #[error("{0}")]
    BadRequest(String),
    /// 401: no token, or a token of no seat at all.
    #[error("{0}")]
    Unauthorized(String),
    /// 403: a spectator (a token of another game) or a bad invite.
    #[error("{0}")]
    Forbidden(String),
    #[error("{0}")]
    NotFound(String),
    /// 409: not now (out of turn, already committed, game over).
    #[error("{0}")]
    Conflict(String),
    /// 422: an illegal move or a reveal that does not match its commitment.
    #[error("{0}")]
    Unprocessable(String),
    /// 429: a per-IP rate limit; try again after `retry_after`.
    #[error("{message}")]
    TooManyRequests {
        message: String,
        retry_after: Duration,
    },
    #[error("{0}")]
    Internal(String),
    /// 503: the server is too busy for this now (the engine queue is full).
    #[error("{0}")]
    Unavailable(String),
}

/// Longest error message sent: inputs quoted in a message are cut, so an
/// error never echoes a large input back.
const MAX_MESSAGE_CHARS: usize = 160;

impl ApiError {
    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ApiError::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            ApiError::Forbidden(_) => StatusCode::FORBIDDEN,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::Conflict(_) => StatusCode::CONFLICT,
            ApiError::Unprocessable(_) => StatusCode::UNPROCESSABLE_ENTITY,
            ApiError::TooManyRequests { .. } => StatusCode::TOO_MANY_REQUESTS,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
            ApiError::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
        }
    }

    /// The message as sent: at most [`MAX_MESSAGE_CHARS`] characters.
    pub fn message(&self) -> String {
        clip(&self.to_string())
    }

    /// Whole seconds to wait before trying again, for `Retry-After`.
    pub fn retry_after_secs(&self) -> Option<u64> {
        match self {
            ApiError::TooManyRequests { retry_after, .. } => {
                Some((retry_after.as_secs() + u64::from(retry_after.subsec_nanos() > 0)).max(1))
            }
            _ => None,
        }
    }

    pub fn no_game(id: &str) -> ApiError {
        ApiError::NotFound(format!("no game {id}"))
    }
}

impl From<Refusal> for ApiError {
    fn from(r: Refusal) -> ApiError {
        match r {
            Refusal::Malformed(m) => ApiError::BadRequest(m),
            Refusal::NotNow(m) => ApiError::Conflict(m),
            Refusal::Unacceptable(m) => ApiError::Unprocessable(m),
        }
    }
}

impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> ApiError {
        tracing::error!("{e}");
        ApiError::Internal(format!("storage failed: {e}"))
    }
}

/// The error's JSON body.
#[derive(serde::Serialize)]
pub struct ErrorBody<'a> {
    pub error: &'a str,
}

/// `text` cut to [`MAX_MESSAGE_CHARS`] characters, marked with `…` where cut.
pub fn clip(text: &str) -> String {
    match text.char_indices().nth(MAX_MESSAGE_CHARS) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_string(),
    }
}

/// An error answer: `status` and `{"error": message}`.
pub fn error_response(status: StatusCode, message: &str) -> Response {
    (status, Json(ErrorBody { error: message })).into_response()
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut response = error_response(self.status(), &self.message());
        if let Some(secs) = self.retry_after_secs() {
            response
                .headers_mut()
                .insert(RETRY_AFTER, HeaderValue::from(secs));
        }
        response
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_messages_are_cut() {
        let long = ApiError::BadRequest(format!("no variant {}", "é".repeat(100_000)));
        let message = long.message();
        assert_eq!(message.chars().count(), MAX_MESSAGE_CHARS + 1);
        assert!(message.ends_with('…'));
        assert_eq!(ApiError::Conflict("short".into()).message(), "short");
    }
}
