//! The one catalogue of words, the page's and the server's: Fluent files
//! in `web/locales/LANG/*.ftl`, embedded in the binary. The server formats
//! its own messages (notifications, mail) with `fluent-bundle`; the page
//! gets each language's messages as JSON (`/api/i18n/LANG`), read from
//! the same files by `fluent-syntax`, and formats them in `web/i18n.js`.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource, FluentValue};
use fluent_syntax::ast;
use serde_json::{json, Value};

/// The languages of the catalogue; the first is the fallback.
pub const LANGUAGES: &[&str] = &["en", "fr"];

#[derive(rust_embed::Embed)]
#[folder = "../../web/locales/"]
struct Files;

#[derive(Debug, thiserror::Error)]
pub enum CatalogueError {
    #[error("{file}: {message}")]
    Broken { file: String, message: String },
}

/// One language: its bundle for the server, its messages for the page.
struct Language {
    bundle: FluentBundle<FluentResource>,
    page: Value,
}

pub struct Catalogue {
    languages: BTreeMap<&'static str, Language>,
}

tokio::task_local! {
    static LANGUAGE: &'static str;
}

/// The language of the answer being made (`within`), else the fallback.
pub fn current() -> &'static str {
    LANGUAGE.try_with(|lang| *lang).unwrap_or(LANGUAGES[0])
}

/// Runs `work` with `lang` as the language of its answers.
pub fn within<F: std::future::Future>(
    lang: &'static str,
    work: F,
) -> impl std::future::Future<Output = F::Output> {
    LANGUAGE.scope(lang, work)
}

/// The catalogue, read once; `check` names any fault at start-up.
pub fn catalogue() -> &'static Catalogue {
    static CATALOGUE: OnceLock<Catalogue> = OnceLock::new();
    CATALOGUE
        .get_or_init(|| Catalogue::load().expect("the embedded catalogue reads (tests check it)"))
}

/// Reads the embedded catalogue, or says which file is broken and how.
pub fn check() -> Result<(), CatalogueError> {
    Catalogue::load().map(|_| ())
}

/// The catalogue's language for a preference (`auto` or unknown: none).
pub fn known(language: &str) -> Option<&'static str> {
    LANGUAGES.iter().copied().find(|l| *l == language)
}

/// The first language of an `Accept-Language` header that the catalogue
/// has, else the fallback.
pub fn negotiate(accept_language: &str) -> &'static str {
    accept_language
        .split(',')
        .filter_map(|item| item.split(';').next())
        .map(|tag| tag.trim().to_ascii_lowercase())
        .find_map(|tag| known(tag.split('-').next().unwrap_or_default()))
        .unwrap_or(LANGUAGES[0])
}

impl Catalogue {
    fn load() -> Result<Catalogue, CatalogueError> {
        let mut languages = BTreeMap::new();
        for &lang in LANGUAGES {
            let id: unic_langid::LanguageIdentifier = lang.parse().expect("a language tag");
            let mut bundle = FluentBundle::new_concurrent(vec![id]);
            // Plain text: mail and notifications carry no bidi isolation marks.
            bundle.set_use_isolating(false);
            let mut page = serde_json::Map::new();
            let mut files: Vec<String> = Files::iter()
                .filter(|f| f.starts_with(&format!("{lang}/")) && f.ends_with(".ftl"))
                .map(|f| f.to_string())
                .collect();
            files.sort();
            for file in files {
                let broken = |message: String| CatalogueError::Broken {
                    file: format!("web/locales/{file}"),
                    message,
                };
                let bytes = Files::get(&file).expect("listed").data;
                let text =
                    String::from_utf8(bytes.to_vec()).map_err(|_| broken("not UTF-8".into()))?;
                let syntax = fluent_syntax::parser::parse(text.as_str())
                    .map_err(|(_, errors)| broken(format!("{:?}", errors[0])))?;
                for entry in &syntax.body {
                    if let ast::Entry::Message(message) = entry {
                        let value = message.value.as_ref().ok_or_else(|| {
                            broken(format!("message {} has no value", message.id.name))
                        })?;
                        page.insert(message.id.name.to_string(), pattern_json(value));
                    }
                }
                let resource = FluentResource::try_new(text)
                    .map_err(|(_, errors)| broken(format!("{:?}", errors[0])))?;
                bundle
                    .add_resource(resource)
                    .map_err(|errors| broken(format!("{:?}", errors[0])))?;
            }
            languages.insert(
                lang,
                Language {
                    bundle,
                    page: Value::Object(page),
                },
            );
        }
        Ok(Catalogue { languages })
    }

    /// The page's messages in `lang` (`/api/i18n/LANG`), if the catalogue has it.
    pub fn page_messages(&self, lang: &str) -> Option<&Value> {
        self.languages.get(lang).map(|l| &l.page)
    }

    /// Message `id` in `lang` (the fallback language for one the
    /// catalogue lacks), with `args`; the id itself if no language has it.
    pub fn text(&self, lang: &str, id: &str, args: &[(&str, &str)]) -> String {
        let chosen = known(lang).unwrap_or(LANGUAGES[0]);
        for lang in [chosen, LANGUAGES[0]] {
            let bundle = &self.languages[lang].bundle;
            let Some(pattern) = bundle.get_message(id).and_then(|m| m.value()) else {
                continue;
            };
            let mut fluent_args = FluentArgs::new();
            for (name, value) in args {
                // A count selects its plural form only as a number.
                let value = match value.parse::<i64>() {
                    Ok(number) if number.to_string() == *value => FluentValue::from(number),
                    _ => FluentValue::from(*value),
                };
                fluent_args.set(*name, value);
            }
            let mut errors = Vec::new();
            return bundle
                .format_pattern(pattern, Some(&fluent_args), &mut errors)
                .into_owned();
        }
        id.to_string()
    }

    /// Every message id of `lang`.
    pub fn ids(&self, lang: &str) -> Vec<String> {
        self.page_messages(lang)
            .and_then(Value::as_object)
            .map(|m| m.keys().cloned().collect())
            .unwrap_or_default()
    }
}

/// A pattern as the page reads it: its text when it is only text, else
/// its parts, each text, `{"var": name}` or
/// `{"select": name, "variants": {key: parts}, "default": key}`.
fn pattern_json(pattern: &ast::Pattern<&str>) -> Value {
    let mut parts: Vec<Value> = Vec::new();
    for element in &pattern.elements {
        match element {
            ast::PatternElement::TextElement { value } => push_text(&mut parts, value),
            ast::PatternElement::Placeable { expression } => {
                expression_json(&mut parts, expression)
            }
        }
    }
    match parts.as_slice() {
        [] => json!(""),
        [Value::String(text)] => json!(text),
        _ => Value::Array(parts),
    }
}

fn push_text(parts: &mut Vec<Value>, text: &str) {
    if let Some(Value::String(last)) = parts.last_mut() {
        last.push_str(text);
    } else {
        parts.push(json!(text));
    }
}

fn expression_json(parts: &mut Vec<Value>, expression: &ast::Expression<&str>) {
    match expression {
        ast::Expression::Inline(inline) => inline_json(parts, inline),
        ast::Expression::Select { selector, variants } => {
            let name = match selector {
                ast::InlineExpression::VariableReference { id } => id.name,
                _ => "",
            };
            let mut by_key = serde_json::Map::new();
            let mut default = String::new();
            for variant in variants {
                let key = match &variant.key {
                    ast::VariantKey::Identifier { name } => name.to_string(),
                    ast::VariantKey::NumberLiteral { value } => value.to_string(),
                };
                if variant.default {
                    default = key.clone();
                }
                by_key.insert(key, pattern_json(&variant.value));
            }
            parts.push(json!({"select": name, "variants": by_key, "default": default}));
        }
    }
}

fn inline_json(parts: &mut Vec<Value>, inline: &ast::InlineExpression<&str>) {
    match inline {
        ast::InlineExpression::StringLiteral { value } => push_text(
            parts,
            &fluent_syntax::unicode::unescape_unicode_to_string(value),
        ),
        ast::InlineExpression::NumberLiteral { value } => push_text(parts, value),
        ast::InlineExpression::VariableReference { id } => parts.push(json!({"var": id.name})),
        ast::InlineExpression::Placeable { expression } => expression_json(parts, expression),
        // Functions and references to other messages or terms are not used
        // in the catalogue; `each_message_has_the_same_variables` refuses them.
        _ => parts.push(json!({"unsupported": format!("{inline:?}")})),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_catalogue_reads_and_both_languages_have_the_same_messages() {
        check().unwrap();
        let c = catalogue();
        let (en, fr) = (c.ids("en"), c.ids("fr"));
        assert!(en.len() > 20, "{en:?}");
        assert_eq!(en, fr, "English and French name the same messages");
    }

    fn variables(part: &Value, found: &mut std::collections::BTreeSet<String>) {
        match part {
            Value::Array(parts) => parts.iter().for_each(|p| variables(p, found)),
            Value::Object(o) => {
                assert!(!o.contains_key("unsupported"), "{o:?}");
                if let Some(name) = o.get("var").or(o.get("select")) {
                    found.insert(name.as_str().unwrap().to_string());
                }
                if let Some(Value::Object(variants)) = o.get("variants") {
                    variants.values().for_each(|p| variables(p, found));
                }
            }
            _ => {}
        }
    }

    #[test]
    fn each_message_has_the_same_variables_in_both_languages() {
        let c = catalogue();
        let (en, fr) = (
            c.page_messages("en").unwrap(),
            c.page_messages("fr").unwrap(),
        );
        for (id, pattern) in en.as_object().unwrap() {
            let (mut a, mut b) = Default::default();
            variables(pattern, &mut a);
            variables(&fr[id], &mut b);
            assert_eq!(a, b, "{id}");
        }
    }

    #[test]
    fn messages_format_with_their_arguments_in_each_language() {
        let c = catalogue();
        assert_eq!(
            c.text("en", "common-invite-failed", &[("error", "gone")]),
            "could not join with this invite: gone"
        );
        assert_eq!(
            c.text("fr", "common-invite-failed", &[("error", "gone")]),
            "impossible de rejoindre avec cette invitation : gone"
        );
        assert_eq!(
            c.text("de", "common-settings", &[]),
            "Settings",
            "the fallback"
        );
        assert_eq!(c.text("fr", "no-such-message", &[]), "no-such-message");
    }

    #[test]
    fn the_page_gets_text_variables_and_plurals_as_parts() {
        let syntax = fluent_syntax::parser::parse(
            "a = plain\nb = hello { $name }!\nc = { $n ->\n    [one] one game\n   *[other] { $n } games\n}\nd = {\"{\"}x{\"}\"}\n",
        )
        .unwrap();
        let json: Vec<Value> = syntax
            .body
            .iter()
            .filter_map(|e| match e {
                ast::Entry::Message(m) => Some(pattern_json(m.value.as_ref().unwrap())),
                _ => None,
            })
            .collect();
        assert_eq!(json[0], json!("plain"));
        assert_eq!(json[1], json!(["hello ", {"var": "name"}, "!"]));
        assert_eq!(
            json[2],
            json!([{"select": "n", "default": "other",
                    "variants": {"one": "one game", "other": [{"var": "n"}, " games"]}}])
        );
        assert_eq!(json[3], json!("{x}"));
    }

    /// The page lists the same languages (`web/i18n.js`), and each has its folder.
    #[test]
    fn the_page_knows_the_same_languages() {
        let web = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web");
        let script = std::fs::read_to_string(web.join("i18n.js")).unwrap();
        let quoted: Vec<String> = LANGUAGES.iter().map(|l| format!("'{l}'")).collect();
        let line = format!("export const LANGUAGES = [{}];", quoted.join(", "));
        assert!(script.contains(&line), "web/i18n.js lacks `{line}`");
        for lang in LANGUAGES {
            assert!(
                web.join("locales").join(lang).is_dir(),
                "web/locales/{lang}"
            );
        }
    }

    #[test]
    fn a_browsers_languages_pick_the_first_the_catalogue_has() {
        assert_eq!(negotiate("fr-CH, fr;q=0.9, en;q=0.8"), "fr");
        assert_eq!(negotiate("de-DE,de;q=0.9,en;q=0.5"), "en");
        assert_eq!(negotiate("de"), "en");
        assert_eq!(negotiate(""), "en");
    }

    /// Every message the server names with a literal, `Said::new("id")`
    /// or `"server-..."`, is in English (a missing one would show its id).
    #[test]
    fn every_message_the_server_names_exists() {
        let en: std::collections::BTreeSet<String> = catalogue().ids("en").into_iter().collect();
        let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut missing = Vec::new();
        let mut stack = vec![src];
        let mut named = 0;
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    stack.push(path);
                    continue;
                }
                let source = std::fs::read_to_string(&path).unwrap();
                for (at, _) in source.match_indices("\"server-") {
                    let rest = &source[at + 1..];
                    let id = &rest[..rest.find('"').unwrap_or(0)];
                    // Not an id (`server-too-many-{}` is completed by the
                    // limit's name, limits.rs; this comment's `server-...`).
                    let id_like = id
                        .chars()
                        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
                    if !id_like || id.ends_with('-') {
                        continue;
                    }
                    named += 1;
                    if !en.contains(id) {
                        missing.push(format!("{}: {id}", path.display()));
                    }
                }
            }
        }
        assert!(named > 100, "{named}");
        assert!(missing.is_empty(), "not in web/locales/en: {missing:?}");
    }

    /// Every id the page asks for with a literal, `t('id'`, is in English.
    #[test]
    fn every_message_the_page_asks_for_exists() {
        let en: std::collections::BTreeSet<String> = catalogue().ids("en").into_iter().collect();
        let web = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web");
        let mut missing = Vec::new();
        for entry in std::fs::read_dir(&web).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_none_or(|e| e != "js") {
                continue;
            }
            let source = std::fs::read_to_string(&path).unwrap();
            for (at, _) in source.match_indices("t('") {
                let before = source[..at].chars().next_back();
                if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.') {
                    continue; // another function's name ending in t
                }
                let rest = &source[at + 3..];
                let id = &rest[..rest.find('\'').unwrap_or(0)];
                if !en.contains(id) {
                    missing.push(format!("{}: {id}", path.display()));
                }
            }
        }
        assert!(missing.is_empty(), "not in web/locales/en: {missing:?}");
    }
}
