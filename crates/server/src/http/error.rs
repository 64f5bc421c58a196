//! The one place a [`Refusal`] becomes an HTTP status and
//! `{"error": "message"}`.

use axum::http::header::RETRY_AFTER;
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;

use crate::base::i18n;
use crate::base::refusal::{Refusal, Said};

/// Reads a JSON body; anything unreadable is a 400.
pub(crate) fn json_body<T: serde::de::DeserializeOwned>(
    body: &axum::body::Bytes,
) -> Result<T, Refusal> {
    serde_json::from_slice(body)
        .map_err(|e| Refusal::Malformed(Said::new("server-refusal-bad-json").with("e", &e)))
}

pub fn status(refusal: &Refusal) -> StatusCode {
    match refusal {
        Refusal::Malformed(_) => StatusCode::BAD_REQUEST,
        Refusal::Unauthenticated(_) => StatusCode::UNAUTHORIZED,
        Refusal::Forbidden(_) => StatusCode::FORBIDDEN,
        Refusal::NotFound(_) => StatusCode::NOT_FOUND,
        Refusal::NotNow(_) => StatusCode::CONFLICT,
        Refusal::Unacceptable(_) => StatusCode::UNPROCESSABLE_ENTITY,
        Refusal::TooMany { .. } => StatusCode::TOO_MANY_REQUESTS,
        Refusal::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        Refusal::Busy(_) => StatusCode::SERVICE_UNAVAILABLE,
    }
}

/// The error's JSON body.
#[derive(serde::Serialize)]
pub struct ErrorBody<'a> {
    pub error: &'a str,
}

/// An error answer: `status` and `{"error": message}`.
pub fn error_response(status: StatusCode, message: &str) -> Response {
    (status, Json(ErrorBody { error: message })).into_response()
}

impl IntoResponse for Refusal {
    fn into_response(self) -> Response {
        let mut response = error_response(status(&self), &self.message_in(i18n::current()));
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
    use std::time::Duration;

    #[test]
    fn each_refusal_has_its_own_status_and_a_rate_limit_says_when_to_retry() {
        let all = [
            Refusal::Malformed("m".into()),
            Refusal::Unauthenticated("m".into()),
            Refusal::Forbidden("m".into()),
            Refusal::NotFound("m".into()),
            Refusal::NotNow("m".into()),
            Refusal::Unacceptable("m".into()),
            Refusal::TooMany {
                message: "m".into(),
                retry_after: Duration::from_millis(6500),
            },
            Refusal::Busy("m".into()),
            Refusal::Internal("m".into()),
        ];
        let statuses: std::collections::HashSet<u16> = all
            .iter()
            .map(|r| r.clone().into_response().status().as_u16())
            .collect();
        assert_eq!(statuses.len(), all.len());
        let limited = all[6].clone().into_response();
        assert_eq!(limited.status(), StatusCode::TOO_MANY_REQUESTS);
        assert_eq!(limited.headers()[RETRY_AFTER], "7");
    }
}
