//! FEN with the variant's piece letters and multi-digit empty runs
//! (`12` on a 12-file board). Castling rights are `KQkq` for the outermost
//! partner on each side, or file letters (`A`..`P`, `a`..`p`) for others.
//! The en passant square is written only when a capture there is possible.

use crate::geometry::{Bitboard, Square, Word};
use crate::position::{Position, PositionError, Setup};
use crate::types::{ByColor, Color, Kind};
use crate::variant::Variant;

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    #[error("empty FEN")]
    Empty,
    #[error("board has {found} ranks, the variant has {expected}")]
    WrongRankCount { expected: usize, found: usize },
    #[error("rank {rank} covers {found} files, the variant has {expected}")]
    RankWidth {
        rank: usize,
        expected: usize,
        found: usize,
    },
    #[error("unknown piece letter `{0}`")]
    UnknownPiece(char),
    #[error("side to move must be `w` or `b`, got `{0}`")]
    BadSide(String),
    #[error("bad castling field `{0}`")]
    BadCastling(String),
    #[error("bad en passant field `{0}`")]
    BadEnPassant(String),
    #[error("bad move counter `{0}`")]
    BadClock(String),
    #[error("too many fields after the move counters")]
    TooManyFields,
    #[error("{0}")]
    Position(#[from] PositionError),
}

/// Which additions to FEN a board field may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Extension {
    /// Plain FEN: one letter per occupied square.
    Plain,
    /// The simultaneous family: `'` after a letter marks that side's
    /// last-moved piece, `(Xy)` holds a white and a black piece on one square.
    Simultaneous,
    /// The crowd family: `(PPn)` holds two or more pieces of any colours.
    Crowd,
}

/// A FEN board field. `pieces` has a bit wherever at least one piece of
/// that colour and kind stands; `groups` lists the squares written in
/// brackets with everything on them, in the order written.
pub(crate) struct Board {
    pub pieces: crate::position::Pieces,
    pub last_moved: ByColor<Bitboard>,
    pub groups: Vec<(Square, Vec<crate::types::Piece>)>,
}

pub(crate) fn parse_board(
    variant: &Variant,
    board: &str,
    ext: Extension,
) -> Result<Board, FenError> {
    let shape = variant.shape;
    let rows: Vec<&str> = board.split('/').collect();
    if rows.len() != shape.ranks as usize {
        return Err(FenError::WrongRankCount {
            expected: shape.ranks as usize,
            found: rows.len(),
        });
    }
    let mut out = Board {
        pieces: ByColor::both([Bitboard::EMPTY; crate::position::MAX_KINDS]),
        last_moved: ByColor::both(Bitboard::EMPTY),
        groups: Vec::new(),
    };
    let marks = ext == Extension::Simultaneous;
    for (i, row) in rows.iter().enumerate() {
        let rank = shape.ranks - 1 - i as u8;
        let width = |found| FenError::RankWidth {
            rank: rank as usize + 1,
            expected: shape.files as usize,
            found,
        };
        let chars: Vec<char> = row.chars().collect();
        let mut file = 0usize;
        let mut j = 0;
        while j < chars.len() {
            let c = chars[j];
            if c.is_ascii_digit() {
                let digits: String = chars[j..]
                    .iter()
                    .take_while(|d| d.is_ascii_digit())
                    .collect();
                j += digits.len();
                match digits.parse::<usize>() {
                    Ok(n)
                        if n > 0
                            && !digits.starts_with('0')
                            && file + n <= shape.files as usize =>
                    {
                        file += n
                    }
                    _ => return Err(width(file + digits.len())),
                }
                continue;
            }
            if file >= shape.files as usize {
                return Err(width(file + 1));
            }
            let sq = shape.square(file as u8, rank);
            // One square's text: a letter (maybe marked), or a bracketed group.
            let bracket = c == '(' && ext != Extension::Plain;
            let group: &[char] = if bracket {
                let close = chars[j..]
                    .iter()
                    .position(|&x| x == ')')
                    .ok_or(FenError::UnknownPiece('('))?;
                let inner = &chars[j + 1..j + close];
                j += close + 1;
                inner
            } else {
                let len = if marks && chars.get(j + 1) == Some(&'\'') {
                    2
                } else {
                    1
                };
                j += len;
                &chars[j - len..j]
            };
            let mut here = Vec::new();
            let mut k = 0;
            while k < group.len() {
                let letter = group[k];
                let kind = variant
                    .kind_by_letter(letter)
                    .filter(|_| letter.is_ascii_alphabetic())
                    .ok_or(FenError::UnknownPiece(letter))?;
                let color = if letter.is_ascii_uppercase() {
                    Color::White
                } else {
                    Color::Black
                };
                if ext != Extension::Crowd
                    && here.iter().any(|p: &crate::types::Piece| p.color == color)
                {
                    return Err(PositionError::SquareTaken(shape.name(sq).to_string()).into());
                }
                here.push(crate::types::Piece { color, kind });
                out.pieces[color][kind.index()] |= sq.bit();
                k += 1;
                if marks && group.get(k) == Some(&'\'') {
                    out.last_moved[color] |= sq.bit();
                    k += 1;
                }
            }
            let wrong_size = match ext {
                Extension::Simultaneous => bracket && here.len() != 2,
                Extension::Crowd => bracket && here.len() < 2,
                Extension::Plain => false,
            };
            if here.is_empty() || wrong_size {
                return Err(FenError::UnknownPiece(c));
            }
            if bracket {
                out.groups.push((sq, here));
            }
            file += 1;
        }
        if file != shape.files as usize {
            return Err(width(file));
        }
    }
    Ok(out)
}

/// Reads a FEN into an unvalidated setup.
pub fn parse_setup(variant: &Variant, text: &str) -> Result<Setup, FenError> {
    parse_setup_ext(variant, text, Extension::Plain).map(|(setup, _)| setup)
}

/// Reads a turn-based FEN whose board may use an extension; the setup's
/// pieces mark presence, the board's groups say what stands on each
/// bracketed square.
pub(crate) fn parse_setup_ext(
    variant: &Variant,
    text: &str,
    ext: Extension,
) -> Result<(Setup, Board), FenError> {
    let mut fields = text.split_whitespace();
    let board = fields.next().ok_or(FenError::Empty)?;
    let mut setup = Setup::empty();
    let board = parse_board(variant, board, ext)?;
    setup.pieces = board.pieces;
    setup.side = match fields.next() {
        None | Some("w") => Color::White,
        Some("b") => Color::Black,
        Some(s) => return Err(FenError::BadSide(s.to_string())),
    };
    if let Some(field) = fields.next() {
        setup.castling = parse_castling(variant, &setup, field)?;
    }
    if let Some(field) = fields.next() {
        if field != "-" {
            let sq = variant
                .shape
                .parse_square(field)
                .ok_or_else(|| FenError::BadEnPassant(field.to_string()))?;
            setup.en_passant = Some(sq);
        }
    }
    let clock = |f: Option<&str>, default: u32| -> Result<u32, FenError> {
        match f {
            None => Ok(default),
            Some(s) => s
                .parse::<u32>()
                .map_err(|_| FenError::BadClock(s.to_string())),
        }
    };
    setup.halfmove_clock = clock(fields.next(), 0)?;
    setup.fullmove_number = clock(fields.next(), 1)?;
    if fields.next().is_some() {
        return Err(FenError::TooManyFields);
    }
    Ok((setup, board))
}

pub(crate) fn parse_castling(
    variant: &Variant,
    setup: &Setup,
    field: &str,
) -> Result<ByColor<Bitboard>, FenError> {
    let shape = variant.shape;
    let bad = || FenError::BadCastling(field.to_string());
    let mut rights = ByColor::both(Bitboard::EMPTY);
    if field == "-" {
        return Ok(rights);
    }
    for c in field.chars() {
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let rank = if color == Color::White {
            0
        } else {
            shape.ranks - 1
        };
        let home = shape.rank_mask(rank);
        let king = (setup.pieces[color][variant.royal.index()] & home)
            .lowest()
            .ok_or_else(bad)?;
        let partners = (0..variant.kinds.len())
            .filter(|k| variant.castling_partner_kinds >> k & 1 != 0)
            .fold(Bitboard::EMPTY, |b, k| b | setup.pieces[color][k])
            & home;
        let kf = shape.file(king);
        let sq = match c.to_ascii_lowercase() {
            'k' => partners.filter_squares(|s| shape.file(s) > kf).highest(),
            'q' => partners.filter_squares(|s| shape.file(s) < kf).lowest(),
            f @ 'a'..='p' if f as u8 - b'a' < shape.files => {
                Some(shape.square(f as u8 - b'a', rank))
            }
            _ => None,
        }
        .ok_or_else(bad)?;
        rights[color] |= sq.bit();
    }
    Ok(rights)
}

/// Reads and validates a FEN.
pub fn parse_position<W: Word>(
    variant: &'static Variant,
    text: &str,
) -> Result<Position<W>, FenError> {
    let setup = parse_setup(variant, text)?;
    Ok(Position::from_setup(variant, &setup)?)
}

pub(crate) fn letter(variant: &Variant, color: Color, kind: Kind) -> char {
    let c = variant.kinds[kind.index()].letter;
    if color == Color::White {
        c
    } else {
        c.to_ascii_lowercase()
    }
}

/// Writes a position as FEN.
pub fn write<W: Word>(pos: &Position<W>) -> String {
    let v = pos.variant();
    let shape = v.shape;
    let mut out = String::new();
    for rank in (0..shape.ranks).rev() {
        let mut empty = 0;
        for file in 0..shape.files {
            match pos.piece_at(shape.square(file, rank)) {
                Some(p) => {
                    if empty > 0 {
                        out.push_str(&empty.to_string());
                        empty = 0;
                    }
                    out.push(letter(v, p.color, p.kind));
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            out.push_str(&empty.to_string());
        }
        if rank > 0 {
            out.push('/');
        }
    }
    out.push_str(if pos.side_to_move() == Color::White {
        " w "
    } else {
        " b "
    });
    let setup = pos.to_setup();
    out.push_str(&castling_letters(v, &setup.pieces, &setup.castling));
    out.push(' ');
    match pos.en_passant() {
        Some(ep) => out.push_str(&shape.name(ep.target).to_string()),
        None => out.push('-'),
    }
    out.push_str(&format!(
        " {} {}",
        pos.halfmove_clock(),
        pos.fullmove_number()
    ));
    out
}

/// The castling field for the given rights: `KQkq` for the outermost
/// partner on each side of the king, file letters for any other.
pub(crate) fn castling_letters(
    v: &Variant,
    pieces: &crate::position::Pieces,
    rights: &ByColor<Bitboard>,
) -> String {
    let shape = v.shape;
    let mut out = String::new();
    for color in Color::ALL {
        let own = rights[color];
        let Some(king) = pieces[color][v.royal.index()].lowest() else {
            continue;
        };
        if own.is_empty() {
            continue;
        }
        let kf = shape.file(king);
        let partners = (0..v.kinds.len())
            .filter(|k| v.castling_partner_kinds >> k & 1 != 0)
            .fold(Bitboard::EMPTY, |b, k| b | pieces[color][k])
            & v.home_rank(color);
        let outer_k = partners.filter_squares(|s| shape.file(s) > kf).highest();
        let outer_q = partners.filter_squares(|s| shape.file(s) < kf).lowest();
        // Kingside first, as in "KQkq".
        let mut squares: Vec<Square> = own.collect();
        squares.sort_by_key(|s| std::cmp::Reverse(shape.file(*s)));
        for sq in squares {
            let c = if Some(sq) == outer_k {
                'K'
            } else if Some(sq) == outer_q {
                'Q'
            } else {
                (b'A' + shape.file(sq)) as char
            };
            out.push(if color == Color::White {
                c
            } else {
                c.to_ascii_lowercase()
            });
        }
    }
    if out.is_empty() {
        "-".into()
    } else {
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::Registry;

    #[test]
    fn round_trips_builtin_starts() {
        let reg = Registry::builtin();
        for v in reg
            .iter()
            .filter(|v| v.spec.family == crate::variant::Family::TurnBased)
        {
            let pos = Position::<u128>::start(v);
            assert_eq!(write(&pos), v.spec.start_fen, "{}", v.id());
        }
    }

    #[test]
    fn malformed_fens_are_typed_errors() {
        let v = Registry::builtin().get("chess").unwrap();
        let e = |fen: &str| parse_position::<u128>(v, fen).unwrap_err();
        assert_eq!(e(""), FenError::Empty);
        assert_eq!(
            e("8/8/8 w - - 0 1"),
            FenError::WrongRankCount {
                expected: 8,
                found: 3
            }
        );
        assert!(matches!(
            e("rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
            FenError::RankWidth { rank: 7, .. }
        ));
        assert!(matches!(
            e("rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
            FenError::RankWidth { .. }
        ));
        assert_eq!(
            e("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1"),
            FenError::UnknownPiece('X')
        );
        assert_eq!(
            e("4k3/8/8/8/8/8/8/4K3 x - - 0 1"),
            FenError::BadSide("x".into())
        );
        assert_eq!(
            e("4k3/8/8/8/8/8/8/4K3 w Z - 0 1"),
            FenError::BadCastling("Z".into())
        );
        assert_eq!(
            e("4k3/8/8/8/8/8/8/4K3 w - z9 0 1"),
            FenError::BadEnPassant("z9".into())
        );
        assert_eq!(
            e("4k3/8/8/8/8/8/8/4K3 w - - x 1"),
            FenError::BadClock("x".into())
        );
        assert_eq!(
            e("4k3/8/8/8/8/8/8/4K3 w - - 0 1 9"),
            FenError::TooManyFields
        );
        assert!(matches!(
            e("4k3/8/8/8/8/8/8/4K3 w - - 0 99999999999"),
            FenError::BadClock(_)
        ));
        assert!(matches!(
            e("4k3/8/8/8/8/8/8/0004K3 w - - 0 1"),
            FenError::RankWidth { .. }
        ));
    }

    #[test]
    fn multi_digit_runs_on_wide_boards() {
        let v = Registry::builtin().get("parity12").unwrap();
        let fen = "r4k1f2n1/p5p3p1/2n2c6/1p2p1b5/1p2PQ3P2/3P3P3r/P1P4P4/RN1C3KF3 w - - 1 30";
        assert_eq!(write(&parse_position::<u128>(v, fen).unwrap()), fen);
        assert!(matches!(
            parse_position::<u128>(v, "13/12/12/12/12/12/12/12 w - - 0 1"),
            Err(FenError::RankWidth { rank: 8, .. })
        ));
    }

    #[test]
    fn castling_letters() {
        let v = Registry::builtin().get("chess").unwrap();
        let pos = parse_position::<u128>(v, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
        assert_eq!(pos.castling_rights(Color::White).count(), 2);
        assert_eq!(write(&pos), "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        // A rook that is not the outermost gets its file letter.
        let pos = parse_position::<u128>(v, "4k3/8/8/8/8/8/8/RR2K3 w B - 0 1").unwrap();
        assert_eq!(write(&pos), "4k3/8/8/8/8/8/8/RR2K3 w B - 0 1");
    }

    #[test]
    fn en_passant_written_only_when_capturable() {
        let v = Registry::builtin().get("chess").unwrap();
        let pos = parse_position::<u128>(v, "4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1").unwrap();
        assert_eq!(pos.en_passant(), None);
        let pos = parse_position::<u128>(v, "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1").unwrap();
        assert_eq!(write(&pos), "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1");
    }
}
