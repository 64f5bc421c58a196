//! Move notation: coordinates (UCI style) and SAN out, and one lenient
//! reader for SAN and the loose notations of the variant literature.
//!
//! Coordinates: `e2e4`, `e7e8q`; standard castling as the king's move
//! (`e1g1`, king-takes-partner `e1h1` is read too). Free castling names
//! three squares, king from, king to, partner: `g1i1l1`, so it can never be
//! read as the plain king step `g1h1`. Crowd family: a piece leaving a
//! square where the mover has several kinds is named first, `Qd4d8`; a
//! piece that may capture or join a lone enemy writes the join with a
//! trailing `&`, `d4d5&` (the plain `d4d5` captures).
//! SAN: `Nbd7`, `exd6`, `e8=Q+`, `O-O`, `O-O-O`; free castling
//! `O-O@i1` (towards the higher files) and `O-O-O@c1`. A join is written
//! without `x`; where the same piece could also capture, text without a
//! capture mark means the join.
//! The reader also takes `exN` (the e-pawn takes the knight), `Bxf` (the
//! bishop takes on the f-file), `B7xN`, `f3xB`, `RxR`, `Nc3-e4`, `Pe4xPd5`,
//! `0-0`, and promotion as `e8Q` or `e8=Q`; each is matched against the
//! legal moves and refused when it fits none or several.

use crate::geometry::Square;
use crate::geometry::Word;
use crate::position::Position;
use crate::types::{Color, Kind, Move, Special};
use crate::variant::{CastlingStyle, Family, HasVariant, Variant};

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NotationError {
    #[error("empty move")]
    Empty,
    #[error("cannot read `{0}` as a move")]
    Garbled(String),
    #[error("no piece has the letter `{0}` in this variant")]
    UnknownPiece(char),
    #[error("`{text}` is not a legal move here{}", hint.as_ref().map(|h| format!(": {h}")).unwrap_or_default())]
    Illegal {
        text: String,
        hint: Option<IllegalHint>,
    },
    #[error("`{text}` is ambiguous: it could be {}", candidates.join(" or "))]
    Ambiguous {
        text: String,
        candidates: Vec<String>,
    },
}

/// Why a move is not legal, where the usual mistake is easy to spot.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IllegalHint {
    /// Crowd family: a piece never joins its own side alone.
    #[error("a piece may not join its own side's pieces on {0} alone: a crowd forms only where an enemy piece stands")]
    JoinsOwnAlone(String),
    #[error("the piece on {square} is not {}'s", color.name())]
    NotYours { square: String, color: Color },
    #[error("no piece on {0}")]
    NoPiece(String),
    #[error("this variant has no castling")]
    NoCastling,
    #[error("castling that way is not possible now (the king or rook has moved, or the way is blocked or attacked)")]
    CastlingBlocked,
}

/// What notation needs from a position, seen by the side whose move is written.
pub trait MoveContext: HasVariant {
    /// The side making the move.
    fn mover(&self) -> Color;
    fn legal(&self) -> Vec<Move>;
    fn kind_at(&self, color: Color, sq: Square) -> Option<Kind>;
    /// The kind of enemy piece the move tries to capture, if any.
    fn captured(&self, mv: Move) -> Option<Kind>;
    /// The kind the move moves: the named one for a move out of a crowd
    /// ([`Special::named_kind`]), else the mover's piece on `from`.
    fn mover_kind(&self, mv: Move) -> Option<Kind> {
        mv.special
            .named_kind()
            .or_else(|| self.kind_at(self.mover(), mv.from))
    }
    /// `color` has pieces of several kinds on `sq` (crowd family only).
    fn several_kinds(&self, _color: Color, _sq: Square) -> bool {
        false
    }
}

impl<W: Word> HasVariant for Position<W> {
    fn variant(&self) -> &'static Variant {
        Position::variant(self)
    }
}

impl<W: Word> MoveContext for Position<W> {
    fn mover(&self) -> Color {
        self.side_to_move()
    }
    fn legal(&self) -> Vec<Move> {
        self.legal_moves()
    }
    fn kind_at(&self, color: Color, sq: Square) -> Option<Kind> {
        Position::kind_at(self, color, sq)
    }
    fn captured(&self, mv: Move) -> Option<Kind> {
        let them = self.side_to_move().other();
        match (mv.special, self.en_passant()) {
            (Special::EnPassant, Some(ep)) => Position::kind_at(self, them, ep.victim),
            (Special::Castle { .. }, _) => None,
            _ => Position::kind_at(self, them, mv.to),
        }
    }
}

fn letter(v: &Variant, kind: Kind) -> char {
    v.kinds[kind.index()].letter
}

/// Coordinate notation of a move.
pub fn uci<C: MoveContext + ?Sized>(ctx: &C, mv: Move) -> String {
    let v = ctx.variant();
    let n = |s: Square| v.shape.name(s).to_string();
    match mv.special {
        Special::Castle { rook_from, .. } if v.spec.castling == CastlingStyle::Free => {
            format!("{}{}{}", n(mv.from), n(mv.to), n(rook_from))
        }
        _ => {
            let promo = mv
                .promotion
                .map(|k| letter(v, k).to_ascii_lowercase().to_string())
                .unwrap_or_default();
            // A piece leaving a crowd where the mover has several kinds is
            // named, whatever the move (en passant and castling too).
            let named = ctx
                .several_kinds(ctx.mover(), mv.from)
                .then(|| ctx.mover_kind(mv))
                .flatten();
            let piece = named.map(|k| letter(v, k).to_string()).unwrap_or_default();
            let join = if mv.is_join() { "&" } else { "" };
            format!("{piece}{}{}{promo}{join}", n(mv.from), n(mv.to))
        }
    }
}

/// Reads a coordinate move and checks it against the legal moves.
pub fn parse_uci<C: MoveContext + ?Sized>(ctx: &C, text: &str) -> Result<Move, NotationError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(NotationError::Empty);
    }
    let v = ctx.variant();
    let shape = v.shape;
    let garbled = || NotationError::Garbled(text.to_string());
    let mut squares = Vec::new();
    let mut rest = text;
    // Crowd family: `Qd4d8`, the queen leaves the crowd on d4.
    let mut piece = None;
    if let Some(c) = rest.chars().next().filter(|c| c.is_ascii_uppercase()) {
        piece = Some(v.kind_by_letter(c).ok_or(NotationError::UnknownPiece(c))?);
        rest = &rest[1..];
    }
    // Crowd family: `d4d5&` joins the lone enemy that `d4d5` would capture.
    let join = rest.strip_suffix('&').inspect(|r| rest = r).is_some();
    while let Some((sq, used)) = shape.parse_square_prefix(rest) {
        squares.push(sq);
        rest = &rest[used..];
        if squares.len() == 3 {
            break;
        }
    }
    let promotion = match rest.chars().collect::<Vec<_>>().as_slice() {
        [] => None,
        [c] if c.is_ascii_alphabetic() => Some(
            v.kind_by_letter(*c)
                .ok_or(NotationError::UnknownPiece(*c))?,
        ),
        _ => return Err(garbled()),
    };
    let free = v.spec.castling == CastlingStyle::Free;
    let legal = ctx.legal();
    let found = match squares.as_slice() {
        [from, to] => {
            let fits: Vec<Move> = legal
                .iter()
                .copied()
                .filter(|m| {
                    let plain = m.from == *from && m.to == *to && m.promotion == promotion && !(m.is_castle() && free);
                    let castle_as_capture = !free
                        && m.from == *from
                        && matches!(m.special, Special::Castle { rook_from, .. } if rook_from == *to);
                    (plain || castle_as_capture) && m.is_join() == join && piece.is_none_or(|k| ctx.mover_kind(*m) == Some(k))
                })
                .collect();
            if fits.len() > 1 {
                return Err(NotationError::Ambiguous {
                    text: text.to_string(),
                    candidates: fits.iter().map(|m| uci(ctx, *m)).collect(),
                });
            }
            fits.first().copied()
        }
        [from, to, rook] if promotion.is_none() && piece.is_none() && !join => {
            legal.iter().copied().find(|m| {
                matches!(m.special, Special::Castle { rook_from, .. } if rook_from == *rook)
                    && m.from == *from
                    && m.to == *to
            })
        }
        _ => return Err(garbled()),
    };
    found.ok_or_else(|| illegal(ctx, text, squares.first().copied(), squares.get(1).copied()))
}

/// An `Illegal` error, with a hint when the usual mistake is easy to spot.
fn illegal<C: MoveContext + ?Sized>(
    ctx: &C,
    text: &str,
    from: Option<Square>,
    to: Option<Square>,
) -> NotationError {
    let v = ctx.variant();
    let shape = v.shape;
    let me = ctx.mover();
    let hint = from.and_then(|from| {
        if ctx.kind_at(me, from).is_some() {
            // Crowd family: a piece never joins its own side alone.
            let own_only = to.filter(|&to| {
                ctx.kind_at(me, to).is_some() && ctx.kind_at(me.other(), to).is_none()
            });
            own_only
                .filter(|_| v.spec.family == Family::Crowd)
                .map(|to| IllegalHint::JoinsOwnAlone(shape.name(to).to_string()))
        } else if ctx.kind_at(me.other(), from).is_some() {
            Some(IllegalHint::NotYours {
                square: shape.name(from).to_string(),
                color: me,
            })
        } else {
            Some(IllegalHint::NoPiece(shape.name(from).to_string()))
        }
    });
    NotationError::Illegal {
        text: text.to_string(),
        hint,
    }
}

/// SAN without check marks (the simultaneous records note checks apart).
pub fn san_plain<C: MoveContext + ?Sized>(ctx: &C, mv: Move) -> String {
    let v = ctx.variant();
    let shape = v.shape;
    if let Special::Castle { rook_from, .. } = mv.special {
        let base = if shape.file(rook_from) > shape.file(mv.from) {
            "O-O"
        } else {
            "O-O-O"
        };
        return match v.spec.castling {
            CastlingStyle::Free => format!("{base}@{}", shape.name(mv.to)),
            _ => base.to_string(),
        };
    }
    let kind = ctx.mover_kind(mv).expect("move of a piece of the mover");
    let info = &v.kinds[kind.index()];
    let capture = ctx.captured(mv).is_some();
    let mut out = String::new();
    let rivals: Vec<Move> = ctx
        .legal()
        .into_iter()
        .filter(|m| {
            m.to == mv.to && m.from != mv.from && !m.is_castle() && ctx.mover_kind(*m) == Some(kind)
        })
        .collect();
    let same_file = rivals
        .iter()
        .any(|m| shape.file(m.from) == shape.file(mv.from));
    let same_rank = rivals
        .iter()
        .any(|m| shape.rank(m.from) == shape.rank(mv.from));
    let file = (b'a' + shape.file(mv.from)) as char;
    if !info.pawn {
        out.push(info.letter);
    }
    // A pawn's capture always names its file; anything else only when a
    // rival of the same kind could reach the same square.
    match (info.pawn && capture, rivals.is_empty()) {
        (true, true) => out.push(file),
        (true, false) if !same_file => out.push(file),
        (false, true) => {}
        (_, false) if !same_file => out.push(file),
        (_, false) if !same_rank => {
            if info.pawn && capture {
                out.push(file);
            }
            out.push_str(&(shape.rank(mv.from) + 1).to_string());
        }
        _ => out.push_str(&shape.name(mv.from).to_string()),
    }
    if capture {
        out.push('x');
    }
    out.push_str(&shape.name(mv.to).to_string());
    if let Some(p) = mv.promotion {
        out.push('=');
        out.push(letter(v, p));
    }
    if is_crowd_join(ctx, mv) {
        out.push('&');
    }
    out
}

/// Crowd family: the move lands where pieces stand and captures none, so it
/// joins them (SAN marks it `&`).
fn is_crowd_join<C: MoveContext + ?Sized>(ctx: &C, mv: Move) -> bool {
    let occupied = || {
        Color::ALL
            .into_iter()
            .any(|c| ctx.kind_at(c, mv.to).is_some())
    };
    ctx.variant().spec.family == Family::Crowd
        && !mv.is_castle()
        && ctx.captured(mv).is_none()
        && (mv.is_join() || occupied())
}

/// One side of a move in the lenient reader: piece letter, file, rank.
#[derive(Default, Debug)]
struct Part {
    kind: Option<Kind>,
    file: Option<u8>,
    rank: Option<u8>,
}

fn parse_part(v: &Variant, text: &str) -> Result<Option<Part>, NotationError> {
    let shape = v.shape;
    let mut part = Part::default();
    let mut rest = text;
    if let Some(c) = rest.chars().next().filter(|c| c.is_ascii_uppercase()) {
        part.kind = Some(v.kind_by_letter(c).ok_or(NotationError::UnknownPiece(c))?);
        rest = &rest[1..];
    }
    if let Some(c) = rest.chars().next().filter(|c| c.is_ascii_lowercase()) {
        let f = c as u8 - b'a';
        if f >= shape.files {
            return Ok(None);
        }
        part.file = Some(f);
        rest = &rest[1..];
    }
    if !rest.is_empty() {
        match rest.parse::<u8>() {
            Ok(r) if r >= 1 && r <= shape.ranks && !rest.starts_with('0') => {
                part.rank = Some(r - 1)
            }
            _ => return Ok(None),
        }
    }
    Ok(Some(part))
}

/// Reads SAN or a literature notation and resolves it against the legal moves.
pub fn parse_san<C: MoveContext + ?Sized>(ctx: &C, text: &str) -> Result<Move, NotationError> {
    let original = text.trim();
    let text = original.trim_end_matches(['+', '#', '!', '?']);
    // Crowd family: `b4&` joins the pieces on b4.
    let (text, join_mark) = match text.strip_suffix('&') {
        Some(rest) => (rest, true),
        None => (text, false),
    };
    if text.is_empty() {
        return Err(NotationError::Empty);
    }
    let v = ctx.variant();
    let shape = v.shape;
    let garbled = || NotationError::Garbled(original.to_string());
    let legal = ctx.legal();
    let pick = |candidates: Vec<Move>| -> Result<Move, NotationError> {
        // A promotion written without its piece means the first listed (the queen).
        let first = v.promotion_kinds.first().copied();
        let preferred: Vec<Move> = if candidates.len() > 1
            && candidates.iter().all(|m| {
                m.promotion.is_some() && (m.from, m.to) == (candidates[0].from, candidates[0].to)
            }) {
            candidates
                .iter()
                .copied()
                .filter(|m| m.promotion == first)
                .collect()
        } else {
            candidates
        };
        match preferred.as_slice() {
            [m] => Ok(*m),
            [] => Err(NotationError::Illegal {
                text: original.to_string(),
                hint: None,
            }),
            many => Err(NotationError::Ambiguous {
                text: original.to_string(),
                candidates: many.iter().map(|m| uci(ctx, *m)).collect(),
            }),
        }
    };

    let castle_text = text.replace('0', "O");
    if castle_text.starts_with("O-O") {
        let (base, dest) = match castle_text.split_once('@') {
            Some((b, d)) => (b, Some(shape.parse_square(d).ok_or_else(garbled)?)),
            None => (castle_text.as_str(), None),
        };
        let kingside = match base {
            "O-O" => true,
            "O-O-O" => false,
            _ => return Err(garbled()),
        };
        let candidates = legal
            .iter()
            .copied()
            .filter(|m| match m.special {
                Special::Castle { rook_from, .. } => {
                    (shape.file(rook_from) > shape.file(m.from)) == kingside
                        && dest.is_none_or(|d| d == m.to)
                }
                _ => false,
            })
            .collect::<Vec<Move>>();
        if candidates.is_empty() {
            let why = if v.spec.castling == CastlingStyle::None {
                IllegalHint::NoCastling
            } else {
                IllegalHint::CastlingBlocked
            };
            return Err(NotationError::Illegal {
                text: original.to_string(),
                hint: Some(why),
            });
        }
        return pick(candidates);
    }
    if !text.is_ascii() {
        return Err(garbled());
    }

    // Promotion: `=Q`, `(Q)`, or a capital right after the destination rank.
    let mut body = text.to_string();
    let mut promotion = None;
    if let Some(idx) = body.rfind('=') {
        let p: Vec<char> = body[idx + 1..].trim_matches(['(', ')']).chars().collect();
        let [c] = p.as_slice() else {
            return Err(garbled());
        };
        promotion = Some(
            v.kind_by_letter(*c)
                .ok_or(NotationError::UnknownPiece(*c))?,
        );
        body.truncate(idx);
    } else {
        let b = body.as_bytes();
        if b.len() >= 2 && b[b.len() - 1].is_ascii_uppercase() && b[b.len() - 2].is_ascii_digit() {
            let c = b[b.len() - 1] as char;
            promotion = Some(v.kind_by_letter(c).ok_or(NotationError::UnknownPiece(c))?);
            body.pop();
        }
    }

    // Split into mover and target at `x`, `:` (capture) or `-` (move).
    let separator = body
        .char_indices()
        .find(|&(i, c)| (c == 'x' || c == ':' || c == '-') && i > 0);
    let (mover, target, capture) = match separator {
        Some((i, c)) => {
            let (mover, target) = (&body[..i], &body[i + 1..]);
            let mover = parse_part(v, mover)?.ok_or_else(garbled)?;
            let target = parse_part(v, target)?.ok_or_else(garbled)?;
            (mover, target, c != '-')
        }
        None => {
            // SAN: the destination square ends the text; the rest disambiguates.
            let (dest, prefix) = body
                .char_indices()
                .rev()
                .find_map(|(i, _)| shape.parse_square(&body[i..]).map(|sq| (sq, &body[..i])))
                .ok_or_else(garbled)?;
            let mover = parse_part(v, prefix)?.ok_or_else(garbled)?;
            (
                mover,
                Part {
                    kind: None,
                    file: Some(shape.file(dest)),
                    rank: Some(shape.rank(dest)),
                },
                false,
            )
        }
    };
    if target.kind.is_none() && target.file.is_none() && target.rank.is_none() && !capture {
        return Err(garbled());
    }
    // Without a letter the mover is a pawn, unless its square is given in full.
    let mover_kinds: Vec<Kind> = match mover.kind {
        Some(k) => vec![k],
        None if mover.file.is_some() && mover.rank.is_some() && separator.is_some() => {
            (0..v.kinds.len()).map(|k| Kind(k as u8)).collect()
        }
        None => (0..v.kinds.len())
            .filter(|&k| v.kinds[k].pawn)
            .map(|k| Kind(k as u8))
            .collect(),
    };
    let mut candidates: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|m| {
            let captured = ctx.captured(*m);
            !m.is_castle()
                && ctx.mover_kind(*m).is_some_and(|k| mover_kinds.contains(&k))
                && mover.file.is_none_or(|f| shape.file(m.from) == f)
                && mover.rank.is_none_or(|r| shape.rank(m.from) == r)
                && target.file.is_none_or(|f| shape.file(m.to) == f)
                && target.rank.is_none_or(|r| shape.rank(m.to) == r)
                && target.kind.is_none_or(|k| captured == Some(k))
                && (!capture || captured.is_some())
                && (promotion.is_none() || m.promotion == promotion)
        })
        .collect();
    // Crowd family: without a capture mark, a piece that may capture or
    // join a lone enemy joins.
    if !capture {
        let twin = |m: &Move| (m.from, m.to, m.promotion, ctx.mover_kind(*m));
        let joins: Vec<_> = candidates
            .iter()
            .filter(|m| m.is_join())
            .map(twin)
            .collect();
        candidates.retain(|m| m.is_join() || !joins.contains(&twin(m)));
    }
    if join_mark {
        candidates.retain(|m| is_crowd_join(ctx, *m));
    }
    pick(candidates)
}

/// Reads a move leniently against any family's move context: coordinates
/// first (promotion letter in any case), then SAN (some engines castle
/// as `O-O`). The error is the coordinate reader's, unless the text is
/// not coordinates at all (`Nf3`): then the SAN reader's says more.
pub fn parse_lenient<C: MoveContext + ?Sized>(ctx: &C, text: &str) -> Result<Move, NotationError> {
    let text = text.trim();
    // Castling is SAN's alone: its error, not "no piece has the letter O".
    if text.replace('0', "O").starts_with("O-O") {
        return parse_san(ctx, text);
    }
    parse_uci(ctx, text)
        .or_else(|first| {
            // `e7e8Q` is read already; all upper case (`E7E8Q`) is not
            // (an upper-case letter before lower-case squares names a
            // crowd member, `Qd4d8`).
            if !text.chars().any(|c| c.is_ascii_lowercase()) {
                parse_uci(ctx, &text.to_ascii_lowercase()).map_err(|_| first)
            } else {
                Err(first)
            }
        })
        .or_else(|first| {
            parse_san(ctx, text).map_err(|san| match first {
                NotationError::Garbled(_) => san,
                first => first,
            })
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fen::parse_position;
    use crate::game::TurnPosition;
    use crate::registry::Registry;

    fn chess(fen: &str) -> Position {
        parse_position::<u128>(Registry::builtin().get("chess").unwrap(), fen).unwrap()
    }

    #[test]
    fn castling_that_cannot_be_played_says_why() {
        // The king has no castling rights left.
        let pos = chess("r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1");
        for text in ["O-O", "0-0-0"] {
            let err = parse_lenient(&pos, text).unwrap_err().to_string();
            assert!(
                err.contains("not a legal move here: castling that way"),
                "{err}"
            );
        }
        let pos = chess("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        assert_eq!(pos.san(parse_lenient(&pos, "O-O").unwrap()), "O-O");
    }

    #[test]
    fn uci_round_trip_and_errors() {
        let pos = chess("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        let mv = parse_uci(&pos, "e2e4").unwrap();
        assert_eq!(uci(&pos, mv), "e2e4");
        assert_eq!(mv.special, Special::DoubleStep);
        assert_eq!(parse_uci(&pos, ""), Err(NotationError::Empty));
        assert!(matches!(
            parse_uci(&pos, "e2e5"),
            Err(NotationError::Illegal { .. })
        ));
        assert!(matches!(
            parse_uci(&pos, "zz"),
            Err(NotationError::Garbled(_))
        ));
        assert!(matches!(
            parse_uci(&pos, "e2e4qq"),
            Err(NotationError::Garbled(_))
        ));
        let err = parse_uci(&pos, "e7e5").unwrap_err().to_string();
        assert!(err.contains("not white's"), "{err}");
        let err = parse_uci(&pos, "e4e5").unwrap_err().to_string();
        assert!(err.contains("no piece on e4"), "{err}");
    }

    #[test]
    fn pawns_that_step_diagonally_are_disambiguated() {
        let mut reg = Registry::builtin();
        let text = "id = \"diag\"\ninherits = \"chess\"\n[[pieces]]\nletter = \"P\"\nname = \"Pawn\"\nbetza = \"fmWfmFfcF\"\npawn = true\n";
        let v = reg.add_text("diag.toml", text).unwrap();
        let pos = parse_position::<u128>(v, "4k3/8/8/8/8/8/2P1P3/4K3 w - - 0 1").unwrap();
        let from_c = parse_uci(&pos, "c2d3").unwrap();
        assert_eq!(pos.san(from_c), "cd3");
        assert_eq!(parse_san(&pos, "cd3").unwrap(), from_c);
        assert!(matches!(
            parse_san(&pos, "d3"),
            Err(NotationError::Ambiguous { .. })
        ));
    }

    #[test]
    fn literature_forms_resolve_against_legal_moves() {
        let cases = [
            ("4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1", "exN", "e4d5"),
            ("4k3/8/8/5p2/8/8/2B5/4K3 w - - 0 1", "Bxf", "c2f5"),
            ("2n1k2n/1B6/8/8/8/8/8/B3K3 w - - 0 1", "B7xN", "b7c8"),
            ("4k3/8/8/6b1/8/5N2/8/4K3 w - - 0 1", "f3xB", "f3g5"),
            ("4k3/r7/8/8/8/8/8/R3K3 w - - 0 1", "RxR", "a1a7"),
            ("6R1/8/8/8/8/8/k7/5RK1 w - - 0 1", "Rgf8", "g8f8"),
            ("4k3/p7/8/8/8/8/8/Q3K3 w - - 0 1", "Qxa7", "a1a7"),
            ("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", "O-O-O", "e1c1"),
            ("4k3/8/8/8/4P3/8/8/4K3 w - - 0 1", "e5", "e4e5"),
            ("4k3/8/8/8/8/2N5/8/4K3 w - - 0 1", "Nc3-e4", "c3e4"),
            ("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "Pe4xPd5", "e4d5"),
            ("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", "e2e4", "e2e4"),
            ("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", "e2-e4", "e2e4"),
        ];
        for (fen, text, expected) in cases {
            let pos = chess(fen);
            let mv = parse_san(&pos, text).unwrap_or_else(|e| panic!("{text} in {fen}: {e}"));
            assert_eq!(uci(&pos, mv), expected, "{text} in {fen}");
        }
        // Both bishops can take a knight; only B7xN says which.
        let pos = chess("2n1k2n/1B6/8/8/8/8/8/B3K3 w - - 0 1");
        assert!(matches!(
            parse_san(&pos, "BxN"),
            Err(NotationError::Ambiguous { .. })
        ));
        assert!(matches!(
            parse_san(&pos, "exB"),
            Err(NotationError::Illegal { .. })
        ));
        assert!(matches!(
            parse_san(&pos, "Bxh5"),
            Err(NotationError::Illegal { .. })
        ));
        assert!(matches!(
            parse_san(&pos, "Zxa1"),
            Err(NotationError::UnknownPiece('Z'))
        ));
        assert!(matches!(
            parse_san(&pos, "x"),
            Err(NotationError::Garbled(_))
        ));
    }

    #[test]
    fn a_double_step_another_power_also_reaches_is_listed_once() {
        // Found by fuzzing: a forward rider pawn reaches e4 both by its rider
        // move and by its lame double step; SAN must still name one move.
        let mut reg = Registry::builtin();
        let text = "id = \"w9\"\ninherits = \"chess\"\n[[pieces]]\nletter = \"P\"\nname = \"Pawn\"\nbetza = \"fmW9 eFifmnD\"\npawn = true\n";
        let v = reg.add_text("w9.toml", text).unwrap();
        let pos = Position::<u128>::start(v);
        let moves = pos.legal_moves();
        let mut keys: Vec<_> = moves.iter().map(|m| (m.from, m.to, m.promotion)).collect();
        keys.sort();
        keys.dedup();
        assert_eq!(keys.len(), moves.len());
        assert_eq!(moves.len() as u64, pos.count_legal_moves());
        let e4 = parse_san(&pos, "e4").unwrap();
        assert_eq!(e4.special, Special::DoubleStep);
        for mv in moves {
            assert_eq!(parse_san(&pos, &pos.san(mv)), Ok(mv));
        }
    }

    #[test]
    fn castling_both_ways() {
        let pos = chess("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        let short = parse_uci(&pos, "e1g1").unwrap();
        assert!(short.is_castle());
        assert_eq!(parse_uci(&pos, "e1h1").unwrap(), short);
        assert_eq!(pos.san(short), "O-O");
        assert_eq!(parse_san(&pos, "0-0").unwrap(), short);
        assert_eq!(pos.san(parse_san(&pos, "O-O-O").unwrap()), "O-O-O");
    }

    #[test]
    fn san_disambiguation_checks_and_promotion() {
        let pos = chess("1k6/4P3/8/8/8/8/K7/R6R w - - 0 1");
        let mv = parse_san(&pos, "Rad1").unwrap();
        assert_eq!(pos.san(mv), "Rad1");
        assert!(matches!(
            parse_san(&pos, "Rd1"),
            Err(NotationError::Ambiguous { .. })
        ));
        let promo = parse_san(&pos, "e8=Q").unwrap();
        assert_eq!(pos.san(promo), "e8=Q+");
        assert_eq!(parse_san(&pos, "e8Q+").unwrap(), promo);
        assert!(matches!(
            parse_san(&pos, "e8=X"),
            Err(NotationError::UnknownPiece('X'))
        ));
        let mate = chess("k7/8/1K6/8/8/8/8/7R w - - 0 1");
        assert_eq!(mate.san(parse_san(&mate, "Rh8").unwrap()), "Rh8#");
    }
}
