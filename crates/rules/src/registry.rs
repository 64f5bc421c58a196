//! Variant files: read (TOML, inheriting from another variant), resolved
//! into a [`VariantSpec`], compiled into a [`Variant`] and checked by
//! reading its start position; the built-in files and the [`Registry`] of
//! known variants.

use std::collections::HashMap;
use std::path::Path;
use std::sync::{Mutex, OnceLock};

use serde::Deserialize;

use crate::betza;
use crate::crowd::CrowdPosition;
use crate::geometry::Shape;
use crate::simultaneous::SimPosition;
use crate::types::MAX_KINDS;
use crate::variant::{
    CastlingStyle, Family, ResolvedPiece, SimRules, StalemateResult, Variant, VariantSpec,
    MAX_DIRECTIONS,
};

/// One piece type of a variant as written in its file.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PieceSpec {
    pub letter: toml::Spanned<String>,
    pub name: String,
    pub betza: toml::Spanned<String>,
    /// Rough value in centipawns, a hint for engines.
    #[serde(default)]
    pub value: i32,
    /// The piece that must not be left in check (one per side).
    #[serde(default)]
    pub royal: bool,
    /// Promotes on the last rank, resets the 50-move count, can be taken en passant.
    #[serde(default)]
    pub pawn: bool,
    /// King and this piece alone cannot mate a lone king.
    #[serde(default)]
    pub minor: bool,
}

/// A variant file as written: every field optional so that a file may
/// inherit from another variant and override only what differs.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VariantFile {
    pub id: toml::Spanned<String>,
    pub name: Option<String>,
    pub inherits: Option<toml::Spanned<String>>,
    pub family: Option<toml::Spanned<Family>>,
    /// Rules of the simultaneous family (with `family = "simultaneous"`).
    pub simultaneous: Option<toml::Spanned<SimRules>>,
    pub files: Option<toml::Spanned<u8>>,
    pub ranks: Option<toml::Spanned<u8>>,
    pub start: Option<toml::Spanned<String>>,
    pub promotion: Option<toml::Spanned<Vec<String>>>,
    pub castling: Option<toml::Spanned<CastlingStyle>>,
    pub castling_partners: Option<toml::Spanned<Vec<String>>>,
    /// Standard castling: the king's destination files, queen side then king side.
    pub castling_king_files: Option<toml::Spanned<[String; 2]>>,
    pub fifty_move_rule: Option<bool>,
    pub repetition: Option<u8>,
    pub insufficient_material: Option<bool>,
    pub stalemate: Option<toml::Spanned<StalemateResult>>,
    pub pieces: Option<Vec<PieceSpec>>,
    pub description: Option<String>,
}

/// Where a problem in a variant file is.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{line}:{column}: {field}: {message}")]
pub struct VariantError {
    pub file: String,
    pub line: usize,
    pub column: usize,
    pub field: String,
    pub message: String,
}

/// The key a TOML error is about: the key of the line it points into, or
/// the field an "unknown field" or "missing field" message names.
fn field_at(text: &str, offset: usize, message: &str) -> String {
    let quoted = message
        .split('`')
        .nth(1)
        .filter(|_| message.contains("field"));
    if let Some(name) = quoted {
        return name.to_string();
    }
    let line_start = text[..offset.min(text.len())]
        .rfind('\n')
        .map_or(0, |i| i + 1);
    let line = text[line_start..].lines().next().unwrap_or("");
    match line.split_once('=') {
        Some((key, _)) if !key.trim().is_empty() => key.trim().to_string(),
        _ => "file".to_string(),
    }
}

/// Line and column (1-based) of a byte offset.
fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.len() - before.rfind('\n').map_or(0, |i| i + 1) + 1;
    (line, column)
}

struct Source<'a> {
    name: &'a str,
    text: &'a str,
}

impl Source<'_> {
    fn error(
        &self,
        span: std::ops::Range<usize>,
        field: &str,
        message: impl Into<String>,
    ) -> VariantError {
        let (line, column) = line_col(self.text, span.start);
        VariantError {
            file: self.name.to_string(),
            line,
            column,
            field: field.to_string(),
            message: message.into(),
        }
    }
}

/// The built-in variant files, embedded at build time.
pub const BUILTIN: &[(&str, &str)] = &[
    ("chess", include_str!("../../../variants/chess.toml")),
    (
        "tutti-frutti",
        include_str!("../../../variants/tutti-frutti.toml"),
    ),
    ("parity12", include_str!("../../../variants/parity12.toml")),
    ("parity", include_str!("../../../variants/parity.toml")),
    (
        "parity-single",
        include_str!("../../../variants/parity-single.toml"),
    ),
    (
        "move-neutral",
        include_str!("../../../variants/move-neutral.toml"),
    ),
    (
        "safety-in-numbers",
        include_str!("../../../variants/safety-in-numbers.toml"),
    ),
];

/// A set of known variants: the built-ins plus any files loaded by the user.
#[derive(Clone)]
pub struct Registry {
    variants: Vec<&'static Variant>,
}

impl Registry {
    /// The built-in variants.
    pub fn builtin() -> Registry {
        static BUILT: OnceLock<Registry> = OnceLock::new();
        BUILT
            .get_or_init(|| {
                let mut reg = Registry {
                    variants: Vec::new(),
                };
                for (name, text) in BUILTIN {
                    let file = format!("variants/{name}.toml");
                    reg.add_text(&file, text)
                        .unwrap_or_else(|e| panic!("built-in variant broken: {e}"));
                }
                reg
            })
            .clone()
    }

    pub fn get(&self, id: &str) -> Option<&'static Variant> {
        self.variants.iter().copied().find(|v| v.spec.id == id)
    }

    pub fn get_or_err(&self, id: &str) -> Result<&'static Variant, UnknownVariant> {
        self.get(id).ok_or_else(|| UnknownVariant {
            id: id.to_string(),
            known: self.variants.iter().map(|v| v.spec.id.clone()).collect(),
        })
    }

    pub fn iter(&self) -> impl Iterator<Item = &'static Variant> + '_ {
        self.variants.iter().copied()
    }

    /// Loads a variant file; a variant with the same id replaces the old one.
    pub fn load_file(&mut self, path: &Path) -> Result<&'static Variant, VariantError> {
        let name = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|e| VariantError {
            file: name.clone(),
            line: 0,
            column: 0,
            field: "file".into(),
            message: e.to_string(),
        })?;
        self.add_text(&name, &text)
    }

    /// Compiles variant text named `file` (for messages) and adds it.
    pub fn add_text(&mut self, file: &str, text: &str) -> Result<&'static Variant, VariantError> {
        let variant = self.resolve(file, text)?;
        self.variants.retain(|v| v.spec.id != variant.spec.id);
        self.variants.push(variant);
        Ok(variant)
    }

    /// Parses, compiles and validates variant text without adding it.
    pub fn resolve(&self, file: &str, text: &str) -> Result<&'static Variant, VariantError> {
        let src = Source { name: file, text };
        let raw: VariantFile = toml::from_str(text).map_err(|e| {
            let span = e.span().unwrap_or(0..0);
            src.error(
                span.clone(),
                &field_at(text, span.start, e.message()),
                e.message().trim(),
            )
        })?;
        let parent = match &raw.inherits {
            Some(p) => Some(self.get(p.get_ref()).ok_or_else(|| {
                src.error(
                    p.span(),
                    "inherits",
                    format!("no variant `{}` to inherit from", p.get_ref()),
                )
            })?),
            None => None,
        };
        let (spec, start_span) = resolve_spec(&src, raw, parent.map(|v| &v.spec))?;
        let variant = intern(spec);
        // The start position must be a legal position of the variant.
        let checked = match variant.spec.family {
            Family::TurnBased => {
                crate::fen::parse_position::<u128>(variant, &variant.spec.start_fen).map(|_| ())
            }
            Family::Simultaneous => {
                SimPosition::from_fen(variant, &variant.spec.start_fen).map(|_| ())
            }
            Family::Crowd => CrowdPosition::from_fen(variant, &variant.spec.start_fen).map(|_| ()),
        };
        checked.map_err(|e| src.error(start_span, "start", e.to_string()))?;
        Ok(variant)
    }
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown variant `{id}` (known: {})", known.join(", "))]
pub struct UnknownVariant {
    pub id: String,
    pub known: Vec<String>,
}

/// Variants live for the whole process so positions can hold a plain
/// reference; the same spec text is compiled and kept only once.
fn intern(spec: VariantSpec) -> &'static Variant {
    static TABLE: OnceLock<Mutex<HashMap<String, &'static Variant>>> = OnceLock::new();
    let key = format!("{spec:?}");
    let mut table = TABLE
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    table
        .entry(key)
        .or_insert_with(|| Box::leak(Box::new(Variant::compile(spec))))
}

fn single_letter(
    src: &Source,
    span: std::ops::Range<usize>,
    field: &str,
    s: &str,
) -> Result<char, VariantError> {
    let mut chars = s.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) if c.is_ascii_uppercase() => Ok(c),
        _ => Err(src.error(
            span,
            field,
            format!("`{s}` is not a single upper-case letter"),
        )),
    }
}

fn resolve_spec(
    src: &Source,
    raw: VariantFile,
    parent: Option<&VariantSpec>,
) -> Result<(VariantSpec, std::ops::Range<usize>), VariantError> {
    let id = raw.id.get_ref().clone();
    if id.is_empty()
        || !id
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
    {
        return Err(src.error(
            raw.id.span(),
            "id",
            "an id uses lower-case letters, digits and '-'",
        ));
    }
    let missing = |field: &str| src.error(0..0, field, "missing (and not inherited)");

    let files = raw.files.as_ref().map(|f| (*f.get_ref(), f.span()));
    let ranks = raw.ranks.as_ref().map(|r| (*r.get_ref(), r.span()));
    let (files, files_span) = files
        .or(parent.map(|p| (p.shape.files, 0..0)))
        .ok_or_else(|| missing("files"))?;
    let (ranks, _) = ranks
        .or(parent.map(|p| (p.shape.ranks, 0..0)))
        .ok_or_else(|| missing("ranks"))?;
    let shape =
        Shape::new(files, ranks).map_err(|e| src.error(files_span, "files", e.to_string()))?;

    // Pieces: the parent's, with the file's pieces added or replacing by letter.
    let mut pieces: Vec<ResolvedPiece> = parent.map(|p| p.pieces.clone()).unwrap_or_default();
    for p in raw.pieces.unwrap_or_default() {
        let letter = single_letter(src, p.letter.span(), "pieces.letter", p.letter.get_ref())?;
        let rules = betza::parse(p.betza.get_ref()).map_err(|e| {
            src.error(
                p.betza.span(),
                "pieces.betza",
                format!("piece {letter}: {e}"),
            )
        })?;
        // Attack tables cannot tell whether a piece has moved, so a capturing
        // `i` move would take a king that no check test sees.
        if rules.iter().any(|r| r.initial && r.can_capture) {
            return Err(src.error(
                p.betza.span(),
                "pieces.betza",
                format!("piece {letter}: an initial move (i) must be move-only (add m)"),
            ));
        }
        let piece = ResolvedPiece {
            letter,
            name: p.name,
            betza: p.betza.into_inner(),
            rules,
            value: p.value,
            royal: p.royal,
            pawn: p.pawn,
            minor: p.minor,
        };
        match pieces.iter_mut().find(|q| q.letter == letter) {
            Some(q) => *q = piece,
            None => pieces.push(piece),
        }
    }
    if pieces.is_empty() {
        return Err(missing("pieces"));
    }
    if pieces.len() > MAX_KINDS {
        return Err(src.error(
            0..0,
            "pieces",
            format!("at most {MAX_KINDS} piece types, got {}", pieces.len()),
        ));
    }
    let mut rider_steps: Vec<(i8, i8)> = Vec::new();
    for r in pieces
        .iter()
        .flat_map(|p| &p.rules)
        .filter(|r| r.is_rider())
    {
        for s in [(r.dx, r.dy), (-r.dx, -r.dy), (r.dx, -r.dy), (-r.dx, r.dy)] {
            if !rider_steps.contains(&s) {
                rider_steps.push(s);
            }
        }
    }
    if rider_steps.len() > MAX_DIRECTIONS {
        return Err(src.error(
            0..0,
            "pieces",
            format!(
                "at most {MAX_DIRECTIONS} rider directions, got {}",
                rider_steps.len()
            ),
        ));
    }
    if pieces.iter().filter(|p| p.royal).count() != 1 {
        return Err(src.error(
            0..0,
            "pieces",
            "exactly one piece type must be royal (the king)",
        ));
    }
    let has = |c: char| pieces.iter().any(|p| p.letter == c);
    // A list of the variant's piece letters (promotion, castling partners).
    let letters = |list: &toml::Spanned<Vec<String>>, field: &str| {
        let mut out = Vec::new();
        for s in list.get_ref() {
            let c = single_letter(src, list.span(), field, s)?;
            if !has(c) {
                return Err(src.error(list.span(), field, format!("no piece with letter {c}")));
            }
            out.push(c);
        }
        Ok(out)
    };

    let promotion = match &raw.promotion {
        Some(list) => letters(list, "promotion")?,
        None => parent.map(|p| p.promotion.clone()).unwrap_or_default(),
    };
    if pieces.iter().any(|p| p.pawn) && promotion.is_empty() {
        return Err(src.error(
            0..0,
            "promotion",
            "a variant with pawns needs a promotion list",
        ));
    }

    let castling = raw
        .castling
        .as_ref()
        .map(|c| *c.get_ref())
        .or(parent.map(|p| p.castling))
        .unwrap_or(CastlingStyle::None);
    let castling_partners = match &raw.castling_partners {
        Some(list) => letters(list, "castling_partners")?,
        None => parent
            .map(|p| p.castling_partners.clone())
            .unwrap_or_else(|| if has('R') { vec!['R'] } else { vec![] }),
    };
    if castling != CastlingStyle::None && castling_partners.is_empty() {
        return Err(src.error(
            0..0,
            "castling_partners",
            "castling needs at least one partner piece",
        ));
    }
    let castling_king_files = match &raw.castling_king_files {
        Some(f) => {
            let mut out = [0u8; 2];
            for (i, s) in f.get_ref().iter().enumerate() {
                let b = s.as_bytes();
                if b.len() != 1 || !b[0].is_ascii_lowercase() || b[0] - b'a' >= shape.files {
                    return Err(src.error(
                        f.span(),
                        "castling_king_files",
                        format!("`{s}` is not a file of this board"),
                    ));
                }
                out[i] = b[0] - b'a';
            }
            out
        }
        None => parent
            .map(|p| p.castling_king_files)
            .unwrap_or([2, shape.files.saturating_sub(2)]),
    };
    // The partner lands beside the king on the inner side, so each king file
    // needs a square inside it, and queen side lies left of king side.
    let [q, k] = castling_king_files;
    if castling == CastlingStyle::Standard
        && !(q + 1 < shape.files && k >= 1 && k < shape.files && q < k)
    {
        let span = raw.castling_king_files.as_ref().map_or(0..0, |f| f.span());
        return Err(src.error(
            span,
            "castling_king_files",
            "needs queen-side file left of king-side file, with room for the partner beside each",
        ));
    }

    let start = raw.start.as_ref().map(|s| (s.get_ref().clone(), s.span()));
    let (start_fen, start_span) = start
        .or(parent.map(|p| (p.start_fen.clone(), 0..0)))
        .ok_or_else(|| missing("start"))?;

    let family = raw
        .family
        .as_ref()
        .map(|f| *f.get_ref())
        .or(parent.map(|p| p.family))
        .unwrap_or(Family::TurnBased);
    let simultaneous = match (family, &raw.simultaneous) {
        (Family::Simultaneous, Some(r)) => Some(*r.get_ref()),
        (Family::Simultaneous, None) => parent
            .and_then(|p| p.simultaneous)
            .or(Some(Default::default())),
        (_, Some(r)) => {
            return Err(src.error(
                r.span(),
                "simultaneous",
                "only a variant with family = \"simultaneous\" takes this table",
            ))
        }
        (_, None) => None,
    };
    let spec = VariantSpec {
        id,
        name: raw
            .name
            .or(parent.map(|p| p.name.clone()))
            .unwrap_or_else(|| raw.id.get_ref().clone()),
        description: raw
            .description
            .or(parent.map(|p| p.description.clone()))
            .unwrap_or_default(),
        family,
        simultaneous,
        shape,
        pieces,
        start_fen,
        promotion,
        castling,
        castling_partners,
        castling_king_files,
        fifty_move_rule: raw
            .fifty_move_rule
            .or(parent.map(|p| p.fifty_move_rule))
            .unwrap_or(true),
        repetition: raw.repetition.or(parent.map(|p| p.repetition)).unwrap_or(3),
        insufficient_material: raw
            .insufficient_material
            .or(parent.map(|p| p.insufficient_material))
            .unwrap_or(true),
        stalemate: raw
            .stalemate
            .as_ref()
            .map(|s| *s.get_ref())
            .or(parent.map(|p| p.stalemate))
            .unwrap_or(StalemateResult::Draw),
    };
    Ok((spec, start_span))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtins_load() {
        let reg = Registry::builtin();
        for id in ["chess", "tutti-frutti", "parity12"] {
            let v = reg.get(id).unwrap();
            assert_eq!(v.id(), id);
        }
        assert_eq!(
            reg.get("parity12").unwrap().shape,
            Shape {
                files: 12,
                ranks: 8
            }
        );
        let err = reg.get_or_err("nope").unwrap_err();
        assert!(err.to_string().contains("chess"));
    }

    #[test]
    fn broken_file_names_line_and_field() {
        let reg = Registry::builtin();
        let text = "id = \"x\"\ninherits = \"chess\"\n\n[[pieces]]\nletter = \"Z\"\nname = \"Zed\"\nbetza = \"Wq\"\n";
        let e = reg.resolve("my.toml", text).unwrap_err();
        assert_eq!(
            (e.file.as_str(), e.line, e.field.as_str()),
            ("my.toml", 7, "pieces.betza")
        );
        assert!(e.message.contains("unknown modifier"), "{e}");

        // A capturing initial move would take a king from the start of chess
        // (a2-c5-e8) without any check test seeing it.
        let text = "id = \"x\"\ninherits = \"chess\"\n[[pieces]]\nletter = \"P\"\nname = \"n\"\nbetza = \"iZ2\"\n";
        let e = reg.resolve("my.toml", text).unwrap_err();
        assert_eq!((e.line, e.field.as_str()), (6, "pieces.betza"), "{e}");
        assert!(e.message.contains("move-only"), "{e}");

        let e = reg
            .resolve("my.toml", "id = \"x\"\nfiles = \"eight\"\n")
            .unwrap_err();
        assert_eq!((e.line, e.field.as_str()), (2, "files"), "{e}");
        let e = reg
            .resolve(
                "my.toml",
                "id = \"x\"\ninherits = \"chess\"\ncastling = \"fancy\"\n",
            )
            .unwrap_err();
        assert_eq!((e.line, e.field.as_str()), (3, "castling"), "{e}");

        let e = reg
            .resolve(
                "my.toml",
                "id = \"x\"\ninherits = \"chess\"\nstart = \"8/8 w - - 0 1\"\n",
            )
            .unwrap_err();
        assert_eq!((e.line, e.field.as_str()), (3, "start"), "{e}");

        let e = reg
            .resolve("my.toml", "id = \"x\"\ninherits = \"chess\"\nbogus = 1\n")
            .unwrap_err();
        assert_eq!(e.line, 3, "{e}");
        assert!(e.message.contains("bogus"), "{e}");
    }

    #[test]
    fn inheritance_overrides_by_letter() {
        let mut reg = Registry::builtin();
        let text = "id = \"knightrider-chess\"\ninherits = \"chess\"\n[[pieces]]\nletter = \"N\"\nname = \"Nightrider\"\nbetza = \"NN\"\nvalue = 500\n";
        let v = reg.add_text("nr.toml", text).unwrap();
        assert_eq!(v.kinds.len(), 6);
        assert_eq!(v.kind(v.kind_by_letter('N').unwrap()).name, "Nightrider");
        assert_eq!(v.spec.start_fen, reg.get("chess").unwrap().spec.start_fen);
    }
}
