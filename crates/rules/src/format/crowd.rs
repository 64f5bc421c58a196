//! FEN and move notation of the crowd family: crowds written `(PPn)`
//! (two or more letters, any colours, any order; written white first, then
//! by the variant's piece order), and moves out of a crowd naming their piece.

use crate::crowd::{sort_members, CrowdPosition, Extras};
use crate::format::fen::{self, Extension, FenError};
use crate::geometry::{Bitboard, Square};
use crate::position::PositionError;
use crate::types::{ByColor, Color, EnPassant, Kind, Move, Piece};
use crate::variant::{CastlingStyle, HasVariant, Variant};

impl CrowdPosition {
    /// Reads FEN with crowds written `(PPn)`.
    pub fn from_fen(variant: &'static Variant, text: &str) -> Result<CrowdPosition, FenError> {
        let (setup, board) = fen::parse_setup_ext(variant, text, Extension::Crowd)?;
        let shape = variant.shape;
        let name = |sq: Square| shape.name(sq).to_string();
        let mut crowds = board.groups;
        for (_, m) in &mut crowds {
            sort_members(m);
        }
        let occupied = setup.occupied(Color::White) | setup.occupied(Color::Black);
        let crowd_squares = crowds.iter().fold(Bitboard::EMPTY, |b, (s, _)| b.with(*s));
        let mut pos = CrowdPosition {
            variant,
            presence: setup.pieces,
            occupied,
            crowd_squares,
            extras: Extras::from_groups(&crowds),
            side: setup.side,
            castling: ByColor::both(Bitboard::EMPTY),
            en_passant: None,
            halfmove_clock: setup.halfmove_clock,
            fullmove_number: setup.fullmove_number.max(1),
            hash: 0,
        };
        for color in Color::ALL {
            let royal = Piece {
                color,
                kind: variant.royal,
            };
            let kings = crowds
                .iter()
                .flat_map(|(_, m)| m)
                .filter(|p| **p == royal)
                .count()
                + (pos.presence(color, variant.royal) & !crowd_squares).count() as usize;
            if kings == 0 {
                return Err(PositionError::MissingKing(color).into());
            }
            if kings > 1 {
                return Err(PositionError::TooManyKings(color).into());
            }
            for (k, info) in variant.kinds.iter().enumerate() {
                if let Some(sq) = (pos.presence[color][k]
                    & variant.boards.promotion_zone[color.index()])
                .lowest()
                .filter(|_| info.pawn)
                {
                    return Err(PositionError::PawnOnLastRank {
                        color,
                        square: name(sq),
                    }
                    .into());
                }
            }
        }
        for color in Color::ALL {
            let rights = setup.castling[color];
            if rights.is_empty() {
                continue;
            }
            let home = variant.home_rank(color);
            let king = pos.king(color);
            let partners = (0..variant.kinds.len())
                .filter(|k| variant.castling_partner_kinds >> k & 1 != 0)
                .fold(Bitboard::EMPTY, |b, k| b | pos.presence[color][k]);
            if let Some(sq) = (rights & !(partners & home)).lowest() {
                return Err(PositionError::BadCastling(name(sq)).into());
            }
            if variant.spec.castling == CastlingStyle::None || !home.contains(king) {
                return Err(
                    PositionError::BadCastling(name(rights.lowest().unwrap_or(king))).into(),
                );
            }
            pos.castling[color] = rights;
        }
        if let Some(target) = setup.en_passant {
            let them = pos.side.other();
            let victim = shape.offset(target, 0, them.forward());
            let origin = shape.offset(target, 0, -them.forward());
            let valid = match (victim, origin) {
                (Some(v), Some(_)) => {
                    let lone_pawn = pos
                        .single(v)
                        .is_some_and(|p| p.color == them && variant.kinds[p.kind.index()].pawn);
                    // The origin may still hold a crowd the pawn stepped out of.
                    lone_pawn && !occupied.contains(target)
                }
                _ => false,
            };
            if !valid {
                return Err(PositionError::BadEnPassant(name(target)).into());
            }
            pos.en_passant = pos.capturable_en_passant(EnPassant {
                target,
                victim: victim.expect("checked above"),
            });
        }
        pos.hash = pos.compute_hash();
        if pos.king_in_check(pos.side.other()) {
            return Err(PositionError::OppositeCheck(pos.side.other()).into());
        }
        Ok(pos)
    }

    /// Writes FEN with crowds as `(PPn)`.
    pub fn to_fen(&self) -> String {
        let v = self.variant;
        let shape = v.shape;
        let mut out = String::new();
        for rank in (0..shape.ranks).rev() {
            let mut empty = 0;
            for file in 0..shape.files {
                let sq = shape.square(file, rank);
                let here = self.contents(sq);
                if here.is_empty() {
                    empty += 1;
                    continue;
                }
                if empty > 0 {
                    out.push_str(&empty.to_string());
                    empty = 0;
                }
                let letters: String = here
                    .iter()
                    .map(|p| fen::letter(v, p.color, p.kind))
                    .collect();
                if here.len() == 1 {
                    out.push_str(&letters);
                } else {
                    out.push('(');
                    out.push_str(&letters);
                    out.push(')');
                }
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
            }
            if rank > 0 {
                out.push('/');
            }
        }
        out.push_str(if self.side == Color::White {
            " w "
        } else {
            " b "
        });
        out.push_str(&fen::castling_letters(v, &self.presence, &self.castling));
        out.push(' ');
        match self.en_passant {
            Some(ep) => out.push_str(&shape.name(ep.target).to_string()),
            None => out.push('-'),
        }
        out.push_str(&format!(
            " {} {}",
            self.halfmove_clock, self.fullmove_number
        ));
        out
    }
}

impl HasVariant for CrowdPosition {
    fn variant(&self) -> &'static Variant {
        self.variant
    }
}

impl crate::format::notation::MoveContext for CrowdPosition {
    fn mover(&self) -> Color {
        self.side
    }
    fn legal(&self) -> Vec<Move> {
        self.legal_moves()
    }
    /// The lowest kind of `color` on `sq` (a crowd may hold several; moves
    /// out of such a square name theirs with [`Special::FromCrowd`]).
    fn kind_at(&self, color: Color, sq: Square) -> Option<Kind> {
        self.kinds_at(color, sq).next()
    }
    fn captured(&self, mv: Move) -> Option<Kind> {
        CrowdPosition::captured(self, mv).map(|p| p.kind)
    }
    fn mover_kind(&self, mv: Move) -> Option<Kind> {
        CrowdPosition::mover_kind(self, mv)
    }
    fn several_kinds(&self, color: Color, sq: Square) -> bool {
        self.kinds_at(color, sq).nth(1).is_some()
    }
}
