//! `GET /api/variants/VARIANT/rules`: the variant's rules written for
//! players (`docs/rules/play/VARIANT.md`, embedded in the binary) as HTML
//! for the game page's rules panel; the full rulings beside them
//! (`docs/rules/VARIANT.md`) are for developers and stay out of it. The page inserts it as it is, so nothing of the
//! markdown passes as markup: raw HTML is escaped, links keep only their
//! text (theirs are relative to the repository) and images their alt text.

use pulldown_cmark::{html, Event, Options, Parser, Tag, TagEnd};

#[derive(rust_embed::Embed)]
#[folder = "../../docs/rules/"]
struct RulesDocs;

/// The rules of `variant` as HTML, or None when it has no rules page.
pub fn html(variant: &str) -> Option<String> {
    // Variant ids are plain names; anything else would name another file.
    if !variant
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b == b'-')
    {
        return None;
    }
    let file = RulesDocs::get(&format!("play/{variant}.md"))?;
    let text = String::from_utf8_lossy(&file.data);
    Some(render(&text))
}

/// Markdown to HTML with raw HTML escaped and links and images unwrapped.
fn render(markdown: &str) -> String {
    let events =
        Parser::new_ext(markdown, Options::ENABLE_TABLES).filter_map(|event| match event {
            Event::Html(raw) | Event::InlineHtml(raw) => Some(Event::Text(raw)),
            Event::Start(Tag::Link { .. } | Tag::Image { .. })
            | Event::End(TagEnd::Link | TagEnd::Image) => None,
            other => Some(other),
        });
    let mut out = String::new();
    html::push_html(&mut out, events);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_builtin_variant_has_its_rules() {
        for v in parity_rules::Registry::builtin().iter() {
            let page = html(v.id()).unwrap_or_else(|| panic!("no rules for {}", v.id()));
            assert!(page.starts_with("<h1>"), "{}: {}", v.id(), &page[..40]);
            // Written for players: no source files, tests or perft.
            for developer in ["crates/", ".rs", "perft", "Tests:", "Fairy-Stockfish"] {
                assert!(!page.contains(developer), "{}: {developer}", v.id());
            }
        }
        assert!(html("../README").is_none());
        assert!(html("rulings/x").is_none());
    }

    #[test]
    fn markup_in_the_markdown_is_escaped_and_links_unwrapped() {
        let page =
            render("# T\n\n<script>alert(1)</script>\n\nSee [chess](chess.md) <b>now</b>.\n");
        assert!(
            !page.contains("<script>") && !page.contains("<b>"),
            "{page}"
        );
        assert!(page.contains("&lt;script&gt;"), "{page}");
        assert!(page.contains("See chess"), "{page}");
        assert!(!page.contains("href"), "{page}");
    }
}
