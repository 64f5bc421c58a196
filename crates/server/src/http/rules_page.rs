//! `GET /api/variants/VARIANT/rules`: the variant's rules written for
//! players (`docs/rules/play/VARIANT.md`, in French
//! `docs/rules/play/fr/VARIANT.md`, embedded in the binary) as HTML
//! for the game page's rules panel; the full rulings beside them
//! (`docs/rules/VARIANT.md`) are for developers and stay out of it. The
//! page inserts it as it is, so nothing of the markdown passes as markup:
//! raw HTML is escaped, links keep only their text (theirs are relative to
//! the repository) and images their alt text.
//!
//! A code block of kind `diagram` is a position the page draws with its
//! board: a FEN on its first line, optionally `moves: m1 m2` played from it
//! (turns `white:black`) on the second, then the caption.

use pulldown_cmark::{html, CodeBlockKind, CowStr, Event, Options, Parser, Tag, TagEnd};

#[derive(rust_embed::Embed)]
#[folder = "../../docs/rules/"]
struct RulesDocs;

/// The rules of `variant` as HTML in `lang` (English where that language
/// has no page), or None when it has no rules page.
pub fn html(variant: &str, lang: &str) -> Option<String> {
    source(variant, lang).map(|text| render(&text))
}

/// The markdown of `variant`'s rules in `lang`, else in English.
fn source(variant: &str, lang: &str) -> Option<String> {
    // Variant ids are plain names; anything else would name another file.
    if !variant
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b == b'-')
    {
        return None;
    }
    let translated = crate::base::i18n::known(lang)
        .filter(|l| *l != crate::base::i18n::LANGUAGES[0])
        .and_then(|l| RulesDocs::get(&format!("play/{l}/{variant}.md")));
    let file = translated.or_else(|| RulesDocs::get(&format!("play/{variant}.md")))?;
    Some(String::from_utf8_lossy(&file.data).into_owned())
}

/// A diagram as its code block writes it.
#[derive(Debug, PartialEq, Eq)]
struct Diagram {
    fen: String,
    moves: Vec<String>,
    caption: String,
}

impl Diagram {
    fn read(block: &str) -> Diagram {
        let mut lines = block.lines().map(str::trim);
        let fen = lines.next().unwrap_or_default().to_string();
        let mut rest: Vec<&str> = lines.collect();
        let moves = match rest.first().and_then(|l| l.strip_prefix("moves:")) {
            Some(list) => {
                let moves = list.split_whitespace().map(str::to_string).collect();
                rest.remove(0);
                moves
            }
            None => Vec::new(),
        };
        Diagram {
            fen,
            moves,
            caption: rest.join(" ").trim().to_string(),
        }
    }

    /// The figure the page fills: its data in attributes, all escaped.
    fn html(&self) -> String {
        format!(
            "<figure class=\"diagram\" data-fen=\"{}\" data-moves=\"{}\"><div class=\"diagram-board\"></div><figcaption>{}</figcaption></figure>\n",
            escape(&self.fen),
            escape(&self.moves.join(" ")),
            escape(&self.caption)
        )
    }
}

fn escape(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '<' => "&lt;".to_string(),
            '>' => "&gt;".to_string(),
            '&' => "&amp;".to_string(),
            '"' => "&quot;".to_string(),
            '\'' => "&#39;".to_string(),
            c => c.to_string(),
        })
        .collect()
}

/// The diagrams of `variant`'s rules page (for the tests that play them).
#[cfg(test)]
fn diagrams(variant: &str, lang: &str) -> Vec<Diagram> {
    let Some(text) = source(variant, lang) else {
        return Vec::new();
    };
    let mut found = Vec::new();
    let mut inside: Option<String> = None;
    for event in Parser::new(&text) {
        match event {
            Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(kind))) if &*kind == "diagram" => {
                inside = Some(String::new());
            }
            Event::Text(t) if inside.is_some() => inside.as_mut().expect("inside").push_str(&t),
            Event::End(TagEnd::CodeBlock) => {
                if let Some(block) = inside.take() {
                    found.push(Diagram::read(&block));
                }
            }
            _ => {}
        }
    }
    found
}

/// Markdown to HTML with raw HTML escaped, links and images unwrapped, and
/// diagrams turned into figures.
fn render(markdown: &str) -> String {
    let mut diagram: Option<String> = None;
    let events =
        Parser::new_ext(markdown, Options::ENABLE_TABLES).filter_map(|event| match event {
            Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(kind))) if &*kind == "diagram" => {
                diagram = Some(String::new());
                None
            }
            Event::Text(t) if diagram.is_some() => {
                diagram.as_mut().expect("in a diagram").push_str(&t);
                None
            }
            Event::End(TagEnd::CodeBlock) if diagram.is_some() => {
                let block = diagram.take().expect("in a diagram");
                Some(Event::Html(CowStr::from(Diagram::read(&block).html())))
            }
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
            let page = html(v.id(), "en").unwrap_or_else(|| panic!("no rules for {}", v.id()));
            assert!(page.starts_with("<h1>"), "{}: {}", v.id(), &page[..40]);
            // Written for players: no source files, tests or perft.
            for developer in ["crates/", ".rs", "perft", "Tests:", "Fairy-Stockfish"] {
                assert!(!page.contains(developer), "{}: {developer}", v.id());
            }
        }
        assert!(html("../README", "en").is_none());
        assert!(html("rulings/x", "fr").is_none());
        assert!(
            html("chess", "../x").is_some(),
            "an unknown language reads English"
        );
    }

    /// Every built-in variant's page exists in French, with the same
    /// diagrams (positions and moves) in the same order, captions translated.
    #[test]
    fn every_page_is_in_french_with_the_same_diagrams() {
        for v in parity_rules::Registry::builtin().iter() {
            let id = v.id();
            assert!(
                RulesDocs::get(&format!("play/fr/{id}.md")).is_some(),
                "docs/rules/play/fr/{id}.md"
            );
            let (en, fr) = (diagrams(id, "en"), diagrams(id, "fr"));
            assert_eq!(en.len(), fr.len(), "{id}");
            for (a, b) in en.iter().zip(&fr) {
                assert_eq!((&a.fen, &a.moves), (&b.fen, &b.moves), "{id}");
                assert_ne!(a.caption, b.caption, "{id}: a caption left in English");
            }
            assert_ne!(html(id, "en"), html(id, "fr"), "{id}");
        }
    }

    #[test]
    fn every_diagram_is_a_position_of_its_variant_and_its_moves_play() {
        let registry = parity_rules::Registry::builtin();
        let mut count = 0;
        for v in registry.iter() {
            for d in diagrams(v.id(), "en") {
                let mut game = parity_rules::AnyGame::from_fen(v, Some(&d.fen))
                    .unwrap_or_else(|e| panic!("{}: {}: {e}", v.id(), d.fen));
                for mv in &d.moves {
                    game.play_text(mv, false)
                        .unwrap_or_else(|e| panic!("{}: {}: {e}", v.id(), d.fen));
                }
                assert!(!d.caption.is_empty(), "{}: {}", v.id(), d.fen);
                count += 1;
            }
        }
        for (variant, least) in [("parity", 4), ("safety-in-numbers", 3)] {
            assert!(diagrams(variant, "en").len() >= least, "{variant}");
        }
        assert!(count >= 7);
    }

    #[test]
    fn a_diagram_becomes_a_figure_with_its_data_escaped() {
        let page = render(
            "# T\n\n```diagram\n8/8 w - - 0 1\nmoves: e2e4:e7e5\nA <b>bold</b> \"caption\"\n```\n",
        );
        assert!(
            page.contains(
                r#"<figure class="diagram" data-fen="8/8 w - - 0 1" data-moves="e2e4:e7e5">"#
            ),
            "{page}"
        );
        assert!(
            page.contains("<figcaption>A &lt;b&gt;bold&lt;/b&gt; &quot;caption&quot;</figcaption>"),
            "{page}"
        );
        assert!(!page.contains("<pre>"), "{page}");
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
