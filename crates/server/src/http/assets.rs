//! The web page (`web/` at the repository root), embedded in the binary.
//! `/`, `/game/GAMEID`, `/analysis`, `/settings`, `/tournaments`, `/tournament/ID`
//! and a profile `/@/NAME` give `index.html`
//! (the page routes itself);
//! other paths give the file of that name.

use axum::http::{header, StatusCode, Uri};
use axum::response::{IntoResponse, Response};

#[derive(rust_embed::Embed)]
#[folder = "../../web/"]
struct Web;

/// The embedded file a path names.
fn file_for(path: &str) -> &str {
    let path = path.trim_start_matches('/');
    let is_game_page = path
        .strip_prefix("game/")
        .is_some_and(|rest| !rest.is_empty() && !rest.contains('/'));
    let is_profile = path
        .strip_prefix("@/")
        .is_some_and(|name| !name.is_empty() && !name.contains('/'));
    let is_tournament = path
        .strip_prefix("tournament/")
        .is_some_and(|id| !id.is_empty() && !id.contains('/'));
    let pages = ["analysis", "settings", "tournaments"];
    if path.is_empty() || is_game_page || is_profile || is_tournament || pages.contains(&path) {
        "index.html"
    } else {
        path
    }
}

pub async fn serve(uri: Uri) -> Response {
    match Web::get(file_for(uri.path())) {
        Some(file) => (
            [(header::CONTENT_TYPE, file.metadata.mimetype().to_string())],
            file.data,
        )
            .into_response(),
        // A missing file (a name with a dot) stays a short text; an
        // address a person typed or followed gets a page.
        None if uri
            .path()
            .rsplit('/')
            .next()
            .is_some_and(|last| last.contains('.')) =>
        {
            (StatusCode::NOT_FOUND, "not found\n").into_response()
        }
        None => (
            StatusCode::NOT_FOUND,
            [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
            not_found_page(uri.path()),
        )
            .into_response(),
    }
}

/// The page for an address that is no page of ours.
fn not_found_page(path: &str) -> String {
    let path: String = path
        .chars()
        .take(200)
        .map(|c| match c {
            '<' => "&lt;".to_string(),
            '>' => "&gt;".to_string(),
            '&' => "&amp;".to_string(),
            '"' => "&quot;".to_string(),
            c => c.to_string(),
        })
        .collect();
    format!(
        r#"<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Page not found · Parity</title>
<link rel="stylesheet" href="/style.css">
</head>
<body>
<main id="app" class="not-found">
<h1>Page not found</h1>
<p>There is no page at <code>{path}</code> on this server.</p>
<p><a class="button" href="/">Back to the lobby</a></p>
</main>
</body>
</html>
"#
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_answers_its_own_routes() {
        assert_eq!(file_for("/"), "index.html");
        assert_eq!(file_for("/game/a1B2c3D4e5"), "index.html");
        assert_eq!(file_for("/game/a1B2c3D4e5/x"), "game/a1B2c3D4e5/x");
        assert_eq!(file_for("/app.js"), "app.js");
        assert_eq!(file_for("/analysis"), "index.html");
        assert_eq!(file_for("/tournaments"), "index.html");
        assert_eq!(file_for("/tournament/Ab12Cd34"), "index.html");
        assert_eq!(file_for("/tournaments.js"), "tournaments.js");
        assert_eq!(file_for("/@/Ada"), "index.html");
        assert_eq!(file_for("/@/"), "@/");
        assert!(Web::get("index.html").is_some());
    }

    #[tokio::test]
    async fn an_unknown_address_is_a_page_and_a_missing_file_a_short_text() {
        let page = serve("/nonsense/path".parse().unwrap()).await;
        assert_eq!(page.status(), StatusCode::NOT_FOUND);
        assert_eq!(
            page.headers()[header::CONTENT_TYPE],
            "text/html; charset=utf-8"
        );
        let body = axum::body::to_bytes(page.into_body(), 1 << 16)
            .await
            .unwrap();
        let body = String::from_utf8(body.to_vec()).unwrap();
        assert!(body.contains("Page not found"), "{body}");
        assert!(body.contains("<code>/nonsense/path</code>"), "{body}");
        assert!(not_found_page("/a<b>&\"").contains("/a&lt;b&gt;&amp;&quot;"));
        let file = serve("/nothing.js".parse().unwrap()).await;
        assert_eq!(file.status(), StatusCode::NOT_FOUND);
        assert_ne!(
            file.headers()
                .get(header::CONTENT_TYPE)
                .map(|v| v.as_bytes()),
            Some(&b"text/html; charset=utf-8"[..])
        );
    }
}
