//! FEN and move notation of the simultaneous family.
//!
//! FEN: `<board> <castling> <en passant> <clock> <turn>`. The board is FEN
//! with two additions: `'` after a letter marks that side's last-moved
//! piece, and `(Xy)` holds a white and a black piece on one square, white
//! first. There is no side to move. The en passant field lists the squares
//! passed over by the previous turn's double steps (`e3,d6`) or `-`.

use crate::format::fen::FenError;
use crate::geometry::{Bitboard, Square};
use crate::position::Setup;
use crate::simultaneous::SimPosition;
use crate::types::{ByColor, Color, EnPassant, Kind, Move};
use crate::variant::{HasVariant, Variant};

impl SimPosition {
    pub fn from_fen(variant: &'static Variant, text: &str) -> Result<SimPosition, FenError> {
        let rules = variant
            .spec
            .simultaneous
            .ok_or_else(|| FenError::BadSide(format!("{} is not simultaneous", variant.id())))?;
        let shape = variant.shape;
        let mut fields = text.split_whitespace();
        let board = crate::fen::parse_board(
            variant,
            fields.next().ok_or(FenError::Empty)?,
            crate::fen::Extension::Simultaneous,
        )?;
        let mut setup = Setup::empty();
        setup.pieces = board.pieces;
        // Markers mean nothing without the waiting rule; they are dropped.
        let last_moved = if rules.waiting_rule {
            board.last_moved
        } else {
            ByColor::both(Bitboard::EMPTY)
        };
        let castling_field = fields.next().unwrap_or("-");
        let mut en_passant = ByColor::both(None);
        if let Some(field) = fields.next() {
            if field != "-" {
                for part in field.split(',') {
                    let bad = || FenError::BadEnPassant(field.to_string());
                    let target = shape.parse_square(part).ok_or_else(bad)?;
                    // The side whose pawn can have double-stepped over `target`:
                    // a pawn just beyond it, with a lame leap to there from just behind.
                    let pawn_beyond = |c: Color| {
                        let victim = shape.offset(target, 0, c.forward())?;
                        let origin = shape.offset(target, 0, -c.forward())?;
                        variant
                            .kinds
                            .iter()
                            .enumerate()
                            .any(|(k, i)| {
                                i.pawn
                                    && setup.pieces[c][k].contains(victim)
                                    && variant.boards.tables(c, Kind(k as u8)).quiet.lame
                                        [origin.index()]
                                    .iter()
                                    .any(|&(to, _)| to == victim)
                            })
                            .then_some(victim)
                    };
                    let (color, victim) = Color::ALL
                        .into_iter()
                        .find_map(|c| pawn_beyond(c).map(|v| (c, v)))
                        .ok_or_else(bad)?;
                    en_passant[color] = Some(EnPassant { target, victim });
                }
            }
        }
        let number = |f: Option<&str>, default: u32| -> Result<u32, FenError> {
            f.map_or(Ok(default), |s| {
                s.parse().map_err(|_| FenError::BadClock(s.to_string()))
            })
        };
        let clock = number(fields.next(), 0)?;
        let turn = number(fields.next(), 1)?.max(1);
        if fields.next().is_some() {
            return Err(FenError::TooManyFields);
        }
        let castling = crate::fen::parse_castling(variant, &setup, castling_field)?;
        let occupied = ByColor::new_with(|c| setup.occupied(c));
        let pos = SimPosition {
            variant,
            rules,
            pieces: setup.pieces,
            occupied,
            last_moved,
            castling,
            en_passant,
            clock,
            turn,
        };
        pos.validate()?;
        Ok(pos)
    }

    fn validate(&self) -> Result<(), FenError> {
        use crate::position::PositionError;
        let v = self.variant;
        let name = |sq: Square| v.shape.name(sq).to_string();
        for c in Color::ALL {
            let kings = self.pieces(c, v.royal);
            if kings.is_empty() {
                return Err(PositionError::MissingKing(c).into());
            }
            if kings.several() {
                return Err(PositionError::TooManyKings(c).into());
            }
            for (k, info) in v.kinds.iter().enumerate() {
                if let Some(sq) = (self.pieces[c][k] & v.boards.promotion_zone[c.index()])
                    .lowest()
                    .filter(|_| info.pawn)
                {
                    return Err(PositionError::PawnOnLastRank {
                        color: c,
                        square: name(sq),
                    }
                    .into());
                }
            }
            let partners = (0..v.kinds.len())
                .filter(|k| v.castling_partner_kinds >> k & 1 != 0)
                .fold(Bitboard::EMPTY, |b, k| b | self.pieces[c][k]);
            if let Some(sq) = (self.castling[c] & !(partners & v.home_rank(c))).lowest() {
                return Err(PositionError::BadCastling(name(sq)).into());
            }
            if let Some(ep) = self.en_passant[c] {
                let pawn_there = v
                    .kinds
                    .iter()
                    .enumerate()
                    .any(|(k, i)| i.pawn && self.pieces[c][k].contains(ep.victim));
                if !pawn_there || self.occupied().contains(ep.target) {
                    return Err(PositionError::BadEnPassant(name(ep.target)).into());
                }
            }
        }
        Ok(())
    }

    pub fn to_fen(&self) -> String {
        let v = self.variant;
        let shape = v.shape;
        let letter = |c: Color, sq: Square| -> String {
            let kind = self.kind_at(c, sq).expect("piece present");
            let l = v.kinds[kind.index()].letter;
            let mut s = if c == Color::White {
                l.to_string()
            } else {
                l.to_ascii_lowercase().to_string()
            };
            if self.last_moved[c].contains(sq) {
                s.push('\'');
            }
            s
        };
        let mut out = String::new();
        for rank in (0..shape.ranks).rev() {
            let mut empty = 0;
            for file in 0..shape.files {
                let sq = shape.square(file, rank);
                let here: Vec<Color> = Color::ALL
                    .into_iter()
                    .filter(|&c| self.occupied[c].contains(sq))
                    .collect();
                if here.is_empty() {
                    empty += 1;
                    continue;
                }
                if empty > 0 {
                    out.push_str(&empty.to_string());
                    empty = 0;
                }
                match here.as_slice() {
                    [c] => out.push_str(&letter(*c, sq)),
                    _ => out.push_str(&format!(
                        "({}{})",
                        letter(Color::White, sq),
                        letter(Color::Black, sq)
                    )),
                }
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
            }
            if rank > 0 {
                out.push('/');
            }
        }
        let castling = crate::fen::castling_letters(v, &self.pieces, &self.castling);
        let eps: Vec<String> = self
            .en_passant
            .iter()
            .flatten()
            .map(|e| shape.name(e.target).to_string())
            .collect();
        let ep = if eps.is_empty() {
            "-".to_string()
        } else {
            eps.join(",")
        };
        format!("{out} {castling} {ep} {} {}", self.clock, self.turn)
    }
}

/// One side's view of a simultaneous position, for reading and writing moves.
#[derive(Clone, Copy)]
pub struct SimSide<'a> {
    pub position: &'a SimPosition,
    pub color: Color,
    /// Read moves against the pseudo moves instead of the legal ones.
    pub relaxed: bool,
}

impl SimPosition {
    pub fn side(&self, color: Color) -> SimSide<'_> {
        SimSide {
            position: self,
            color,
            relaxed: false,
        }
    }
}

impl HasVariant for SimSide<'_> {
    fn variant(&self) -> &'static Variant {
        self.position.variant
    }
}

impl HasVariant for SimPosition {
    fn variant(&self) -> &'static Variant {
        self.variant
    }
}

impl crate::format::notation::MoveContext for SimSide<'_> {
    fn mover(&self) -> Color {
        self.color
    }
    fn legal(&self) -> Vec<Move> {
        if self.relaxed {
            self.position.pseudo_moves(self.color)
        } else {
            self.position.legal_moves(self.color)
        }
    }
    fn kind_at(&self, color: Color, sq: Square) -> Option<Kind> {
        self.position.kind_at(color, sq)
    }
    fn captured(&self, mv: Move) -> Option<Kind> {
        self.position.capture_target(self.color, mv).map(|(_, k)| k)
    }
}
