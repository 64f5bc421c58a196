//! The language of a request's answers: `?lang=` where the request gives
//! one, else the first of its `Accept-Language` the catalogue has
//! (`base::i18n`). The router's middleware sets it for the request's task
//! (`i18n::within`); a refusal is told in it (`http::error`), a game's
//! WebSocket keeps its upgrade request's for the whole session, and a
//! node asking another passes it on (`cluster::node`).

use axum::extract::Request;
use axum::http::header::ACCEPT_LANGUAGE;
use axum::http::HeaderMap;
use axum::middleware::Next;
use axum::response::Response;

use crate::base::i18n;

/// The language a request asks for.
pub fn of(query: Option<&str>, headers: &HeaderMap) -> &'static str {
    let asked = query
        .into_iter()
        .flat_map(|q| form_urlencoded::parse(q.as_bytes()))
        .find_map(|(key, value)| (key == "lang").then(|| i18n::known(&value)).flatten());
    asked.unwrap_or_else(|| {
        i18n::negotiate(
            headers
                .get(ACCEPT_LANGUAGE)
                .and_then(|v| v.to_str().ok())
                .unwrap_or_default(),
        )
    })
}

/// The middleware: the rest of the request runs in its language.
pub async fn middleware(request: Request, next: Next) -> Response {
    let lang = of(request.uri().query(), request.headers());
    i18n::within(lang, next.run(request)).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_query_wins_then_the_header_then_english() {
        let mut headers = HeaderMap::new();
        assert_eq!(of(None, &headers), "en");
        headers.insert(ACCEPT_LANGUAGE, "fr-FR,fr;q=0.9".parse().unwrap());
        assert_eq!(of(None, &headers), "fr");
        assert_eq!(of(Some("since=3&lang=en"), &headers), "en");
        assert_eq!(
            of(Some("lang=xx"), &headers),
            "fr",
            "an unknown language is not asked"
        );
    }

    #[tokio::test]
    async fn a_task_answers_in_its_language() {
        assert_eq!(i18n::current(), "en");
        assert_eq!(i18n::within("fr", async { i18n::current() }).await, "fr");
    }
}
