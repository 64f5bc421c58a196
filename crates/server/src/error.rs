//! The API's errors: a status code and `{"error": "message"}`.

use axum::http::StatusCode;
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
    #[error("{0}")]
    Internal(String),
}

impl ApiError {
    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ApiError::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            ApiError::Forbidden(_) => StatusCode::FORBIDDEN,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::Conflict(_) => StatusCode::CONFLICT,
            ApiError::Unprocessable(_) => StatusCode::UNPROCESSABLE_ENTITY,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
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

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let message = self.to_string();
        (self.status(), Json(ErrorBody { error: &message })).into_response()
    }
}
