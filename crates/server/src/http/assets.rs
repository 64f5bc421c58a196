//! The web page (`web/` at the repository root), embedded in the binary.
//! `/`, `/game/GAMEID`, `/analysis` and a profile `/@/NAME` give `index.html`
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
    if path.is_empty() || is_game_page || is_profile || path == "analysis" {
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
        None => (StatusCode::NOT_FOUND, "not found\n").into_response(),
    }
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
        assert_eq!(file_for("/@/Ada"), "index.html");
        assert_eq!(file_for("/@/"), "@/");
        assert!(Web::get("index.html").is_some());
    }
}
