//! Move notation: coordinates (UCI style) and SAN, both ways.
//!
//! Coordinates: `e2e4`, `e7e8q`; standard castling as the king's move
//! (`e1g1`, king-takes-partner `e1h1` is read too). Free castling names
//! three squares, king from, king to, partner: `g1i1l1`, so it can never be
//! read as the plain king step `g1h1`.
//! SAN: `Nbd7`, `exd6`, `e8=Q+`, `O-O`, `O-O-O`; free castling
//! `O-O@i1` (towards the higher files) and `O-O-O@c1`.

use crate::geometry::Square;
use crate::position::{Color, Kind, Move, Position, Special};
use crate::variant::CastlingStyle;

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NotationError {
    #[error("empty move")]
    Empty,
    #[error("cannot read `{0}` as a move")]
    Garbled(String),
    #[error("no piece has the letter `{0}` in this variant")]
    UnknownPiece(char),
    #[error("`{text}` is not a legal move here{}", hint.as_ref().map(|h| format!(": {h}")).unwrap_or_default())]
    Illegal { text: String, hint: Option<String> },
    #[error("`{text}` is ambiguous: it could be {}", candidates.join(" or "))]
    Ambiguous { text: String, candidates: Vec<String> },
}

fn promotion_letter(pos: &Position, kind: Kind) -> char {
    pos.variant().kinds[kind.index()].letter
}

/// Coordinate notation of a move.
pub fn uci(pos: &Position, mv: Move) -> String {
    let shape = pos.variant().shape;
    let n = |s: Square| shape.name(s).to_string();
    match mv.special {
        Special::Castle { rook_from, .. } if pos.variant().spec.castling == CastlingStyle::Free => {
            format!("{}{}{}", n(mv.from), n(mv.to), n(rook_from))
        }
        _ => {
            let promo = mv.promotion.map(|k| promotion_letter(pos, k).to_ascii_lowercase().to_string()).unwrap_or_default();
            format!("{}{}{}", n(mv.from), n(mv.to), promo)
        }
    }
}

/// Reads a coordinate move and checks it against the legal moves.
pub fn parse_uci(pos: &Position, text: &str) -> Result<Move, NotationError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(NotationError::Empty);
    }
    let shape = pos.variant().shape;
    let garbled = || NotationError::Garbled(text.to_string());
    let mut squares = Vec::new();
    let mut rest = text;
    while let Some((sq, used)) = shape.parse_square_prefix(rest) {
        squares.push(sq);
        rest = &rest[used..];
        if squares.len() == 3 {
            break;
        }
    }
    let promotion = match rest.chars().collect::<Vec<_>>().as_slice() {
        [] => None,
        [c] => Some(pos.variant().kind_by_letter(*c).ok_or(NotationError::UnknownPiece(*c))?),
        _ => return Err(garbled()),
    };
    let legal = pos.legal_moves();
    let illegal = || NotationError::Illegal { text: text.to_string(), hint: None };
    let found = match squares.as_slice() {
        [from, to] => legal.iter().copied().find(|m| {
            let plain = m.from == *from && m.to == *to && m.promotion == promotion;
            let castle_as_capture = matches!(m.special, Special::Castle { rook_from, .. } if rook_from == *to && m.from == *from
                && pos.variant().spec.castling == CastlingStyle::Standard);
            (plain && !(m.is_castle() && pos.variant().spec.castling == CastlingStyle::Free)) || castle_as_capture
        }),
        [from, to, rook] if promotion.is_none() => legal
            .iter()
            .copied()
            .find(|m| matches!(m.special, Special::Castle { rook_from, .. } if rook_from == *rook) && m.from == *from && m.to == *to),
        _ => return Err(garbled()),
    };
    found.ok_or_else(|| {
        // Say why when the usual mistake is easy to spot.
        let hint = match squares.first() {
            Some(&from) if pos.piece_at(from).is_none() => Some(format!("no piece on {}", shape.name(from))),
            Some(&from) if pos.piece_at(from).map(|p| p.color) != Some(pos.side_to_move()) => {
                Some(format!("the piece on {} is not {}'s", shape.name(from), pos.side_to_move().name()))
            }
            _ => None,
        };
        match hint {
            Some(h) => NotationError::Illegal { text: text.to_string(), hint: Some(h) },
            None => illegal(),
        }
    })
}

/// Standard algebraic notation of a legal move, with check and mate marks.
pub fn san(pos: &Position, mv: Move) -> String {
    let mut out = san_without_suffix(pos, mv);
    let next = pos.play(mv);
    if next.is_check() {
        out.push(if next.count_legal_moves() == 0 { '#' } else { '+' });
    }
    out
}

fn san_without_suffix(pos: &Position, mv: Move) -> String {
    let v = pos.variant();
    let shape = v.shape;
    if let Special::Castle { rook_from, .. } = mv.special {
        let base = if shape.file(rook_from) > shape.file(mv.from) { "O-O" } else { "O-O-O" };
        return match v.spec.castling {
            CastlingStyle::Free => format!("{base}@{}", shape.name(mv.to)),
            _ => base.to_string(),
        };
    }
    let us = pos.side_to_move();
    let kind = pos.kind_at(us, mv.from).expect("move of a piece of the side to move");
    let info = &v.kinds[kind.index()];
    let capture = mv.special == Special::EnPassant || pos.by_color(us.other()).contains(mv.to);
    let mut out = String::new();
    if info.pawn {
        if capture {
            out.push((b'a' + shape.file(mv.from)) as char);
        }
    } else {
        out.push(info.letter);
        let rivals: Vec<Move> = pos
            .legal_moves()
            .into_iter()
            .filter(|m| m.to == mv.to && m.from != mv.from && !m.is_castle() && pos.kind_at(us, m.from) == Some(kind))
            .collect();
        if !rivals.is_empty() {
            let same_file = rivals.iter().any(|m| shape.file(m.from) == shape.file(mv.from));
            let same_rank = rivals.iter().any(|m| shape.rank(m.from) == shape.rank(mv.from));
            if !same_file {
                out.push((b'a' + shape.file(mv.from)) as char);
            } else if !same_rank {
                out.push_str(&(shape.rank(mv.from) + 1).to_string());
            } else {
                out.push_str(&shape.name(mv.from).to_string());
            }
        }
    }
    if capture {
        out.push('x');
    }
    out.push_str(&shape.name(mv.to).to_string());
    if let Some(p) = mv.promotion {
        out.push('=');
        out.push(promotion_letter(pos, p));
    }
    out
}

/// Reads SAN (also accepting `0-0`, a missing or extra `x`, and promotion
/// without `=`) and resolves it against the legal moves.
pub fn parse_san(pos: &Position, text: &str) -> Result<Move, NotationError> {
    let original = text;
    let text = text.trim().trim_end_matches(['+', '#', '!', '?']);
    if text.is_empty() {
        return Err(NotationError::Empty);
    }
    let v = pos.variant();
    let shape = v.shape;
    let garbled = || NotationError::Garbled(original.trim().to_string());
    let legal = pos.legal_moves();
    let pick = |candidates: Vec<Move>| -> Result<Move, NotationError> {
        match candidates.as_slice() {
            [m] => Ok(*m),
            [] => Err(NotationError::Illegal { text: original.trim().to_string(), hint: None }),
            _ => Err(NotationError::Ambiguous {
                text: original.trim().to_string(),
                candidates: candidates.iter().map(|m| uci(pos, *m)).collect(),
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
                    (shape.file(rook_from) > shape.file(m.from)) == kingside && dest.is_none_or(|d| d == m.to)
                }
                _ => false,
            })
            .collect();
        return pick(candidates);
    }

    let chars: Vec<char> = text.chars().collect();
    let (piece_letter, body_start) = match chars.first() {
        Some(c) if c.is_ascii_uppercase() => (Some(*c), 1),
        Some(_) => (None, 0),
        None => return Err(garbled()),
    };
    let mut body: String = chars[body_start..].iter().collect();
    // Promotion: "=Q" or a trailing letter after the destination.
    let mut promotion = None;
    if let Some(idx) = body.rfind('=') {
        let p: Vec<char> = body[idx + 1..].chars().collect();
        let [c] = p.as_slice() else { return Err(garbled()) };
        promotion = Some(v.kind_by_letter(*c).ok_or(NotationError::UnknownPiece(*c))?);
        body.truncate(idx);
    } else if let Some(c) = body.chars().last().filter(|c| c.is_ascii_uppercase()) {
        promotion = Some(v.kind_by_letter(c).ok_or(NotationError::UnknownPiece(c))?);
        body.pop();
    }
    let body: String = body.chars().filter(|c| *c != 'x' && *c != ':' && *c != '-').collect();
    // The destination is the square at the end; anything before it disambiguates.
    let (dest, prefix) = body
        .char_indices()
        .rev()
        .find_map(|(i, _)| shape.parse_square(&body[i..]).map(|sq| (sq, &body[..i])))
        .ok_or_else(garbled)?;
    let (from_file, from_rank) = parse_disambiguation(shape, prefix).ok_or_else(garbled)?;
    let kinds: Vec<Kind> = match piece_letter {
        Some(c) => vec![v.kind_by_letter(c).ok_or(NotationError::UnknownPiece(c))?],
        None => (0..v.kinds.len()).filter(|&k| v.kinds[k].pawn).map(|k| Kind(k as u8)).collect(),
    };
    let us: Color = pos.side_to_move();
    let candidates = legal
        .iter()
        .copied()
        .filter(|m| {
            !m.is_castle()
                && m.to == dest
                && m.promotion == promotion
                && pos.kind_at(us, m.from).is_some_and(|k| kinds.contains(&k))
                && from_file.is_none_or(|f| shape.file(m.from) == f)
                && from_rank.is_none_or(|r| shape.rank(m.from) == r)
        })
        .collect();
    pick(candidates)
}

fn parse_disambiguation(shape: crate::geometry::Shape, prefix: &str) -> Option<(Option<u8>, Option<u8>)> {
    if prefix.is_empty() {
        return Some((None, None));
    }
    if let Some(sq) = shape.parse_square(prefix) {
        return Some((Some(shape.file(sq)), Some(shape.rank(sq))));
    }
    let bytes = prefix.as_bytes();
    if bytes.len() == 1 && bytes[0].is_ascii_lowercase() && bytes[0] - b'a' < shape.files {
        return Some((Some(bytes[0] - b'a'), None));
    }
    let rank: u8 = prefix.parse().ok()?;
    (rank >= 1 && rank <= shape.ranks).then_some((None, Some(rank - 1)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fen::parse_position;
    use crate::variant::Registry;

    fn chess(fen: &str) -> Position {
        parse_position(Registry::builtin().get("chess").unwrap(), fen).unwrap()
    }

    #[test]
    fn uci_round_trip_and_errors() {
        let pos = chess("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        let mv = parse_uci(&pos, "e2e4").unwrap();
        assert_eq!(uci(&pos, mv), "e2e4");
        assert_eq!(mv.special, Special::DoubleStep);
        assert_eq!(parse_uci(&pos, ""), Err(NotationError::Empty));
        assert!(matches!(parse_uci(&pos, "e2e5"), Err(NotationError::Illegal { .. })));
        assert!(matches!(parse_uci(&pos, "zz"), Err(NotationError::Garbled(_))));
        assert!(matches!(parse_uci(&pos, "e2e4qq"), Err(NotationError::Garbled(_))));
        let err = parse_uci(&pos, "e7e5").unwrap_err().to_string();
        assert!(err.contains("not white's"), "{err}");
        let err = parse_uci(&pos, "e4e5").unwrap_err().to_string();
        assert!(err.contains("no piece on e4"), "{err}");
    }

    #[test]
    fn castling_both_ways() {
        let pos = chess("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        let short = parse_uci(&pos, "e1g1").unwrap();
        assert!(short.is_castle());
        assert_eq!(parse_uci(&pos, "e1h1").unwrap(), short);
        assert_eq!(san(&pos, short), "O-O");
        assert_eq!(parse_san(&pos, "0-0").unwrap(), short);
        assert_eq!(san(&pos, parse_san(&pos, "O-O-O").unwrap()), "O-O-O");
    }

    #[test]
    fn san_disambiguation_checks_and_promotion() {
        let pos = chess("1k6/4P3/8/8/8/8/K7/R6R w - - 0 1");
        let mv = parse_san(&pos, "Rad1").unwrap();
        assert_eq!(san(&pos, mv), "Rad1");
        assert!(matches!(parse_san(&pos, "Rd1"), Err(NotationError::Ambiguous { .. })));
        let promo = parse_san(&pos, "e8=Q").unwrap();
        assert_eq!(san(&pos, promo), "e8=Q+");
        assert_eq!(parse_san(&pos, "e8Q+").unwrap(), promo);
        assert!(matches!(parse_san(&pos, "e8=X"), Err(NotationError::UnknownPiece('X'))));
        let mate = chess("k7/8/1K6/8/8/8/8/7R w - - 0 1");
        assert_eq!(san(&mate, parse_san(&mate, "Rh8").unwrap()), "Rh8#");
    }
}
