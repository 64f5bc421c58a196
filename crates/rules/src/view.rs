//! What the evaluation and the page need to see of a position of any
//! family: which pieces stand where, crowds counted by their members.

use crate::crowd::CrowdPosition;
use crate::geometry::{Bitboard, Square, Word};
use crate::position::Position;
use crate::simultaneous::SimPosition;
use crate::types::{Color, Kind};
use crate::variant::HasVariant;

/// The pieces of a position.
pub trait PieceView: HasVariant {
    /// Squares where at least one piece of `color` and `kind` stands.
    fn presence(&self, color: Color, kind: Kind) -> Bitboard;
    fn occupied(&self) -> Bitboard;
    fn by_color(&self, color: Color) -> Bitboard;
    /// Squares whose pieces cannot be captured (crowds of the crowd family).
    fn crowd_squares(&self) -> Bitboard {
        Bitboard::EMPTY
    }
    /// Calls `f` once per piece, with its multiplicity in crowds (by
    /// default a square holds at most one piece of a colour).
    fn for_each_piece(&self, mut f: impl FnMut(Color, Kind, Square)) {
        for color in Color::ALL {
            for k in 0..self.variant().kinds.len() {
                for sq in self.presence(color, Kind(k as u8)) {
                    f(color, Kind(k as u8), sq);
                }
            }
        }
    }

    /// Material of each side by the variant's piece values (kings count 0).
    fn material(&self) -> [i64; 2] {
        let v = self.variant();
        let mut out = [0i64; 2];
        self.for_each_piece(|color, kind, _| {
            out[color.index()] += v.kinds[kind.index()].value as i64;
        });
        out
    }

    /// The board as text, rank 8 (or the last) on top; a crowd shows as `*`.
    fn diagram(&self) -> String {
        let v = self.variant();
        let shape = v.shape;
        let mut cells = vec![Vec::new(); shape.len()];
        self.for_each_piece(|color, kind, sq| {
            let letter = v.kinds[kind.index()].letter;
            cells[sq.index()].push(if color == Color::White {
                letter
            } else {
                letter.to_ascii_lowercase()
            });
        });
        let mut out = String::new();
        for rank in (0..shape.ranks).rev() {
            out.push_str(&format!("{:>2} ", rank + 1));
            for file in 0..shape.files {
                let here = &cells[shape.square(file, rank).index()];
                out.push(match here.as_slice() {
                    [] => '.',
                    [one] => *one,
                    _ => '*',
                });
                out.push(' ');
            }
            out.push('\n');
        }
        out.push_str("   ");
        for file in 0..shape.files {
            out.push((b'a' + file) as char);
            out.push(' ');
        }
        out.push('\n');
        for sq in shape.squares() {
            if cells[sq.index()].len() > 1 {
                let crowd: String = cells[sq.index()].iter().collect();
                out.push_str(&format!("crowd on {}: {crowd}\n", shape.name(sq)));
            }
        }
        out
    }
}

/// Sets come out in `u128` whatever the position's word: widening is free
/// and the evaluation's tables stay one per variant.
impl<W: Word> PieceView for Position<W> {
    fn presence(&self, color: Color, kind: Kind) -> Bitboard {
        self.pieces(color, kind).wide()
    }
    fn occupied(&self) -> Bitboard {
        Position::occupied(self).wide()
    }
    fn by_color(&self, color: Color) -> Bitboard {
        Position::by_color(self, color).wide()
    }
}

impl PieceView for CrowdPosition {
    fn presence(&self, color: Color, kind: Kind) -> Bitboard {
        CrowdPosition::presence(self, color, kind)
    }
    fn occupied(&self) -> Bitboard {
        CrowdPosition::occupied(self)
    }
    fn by_color(&self, color: Color) -> Bitboard {
        CrowdPosition::by_color(self, color)
    }
    fn crowd_squares(&self) -> Bitboard {
        CrowdPosition::crowd_squares(self)
    }
    fn for_each_piece(&self, mut f: impl FnMut(Color, Kind, Square)) {
        let crowded = self.crowd_squares();
        for color in Color::ALL {
            for k in 0..self.variant().kinds.len() {
                for sq in self.presence(color, Kind(k as u8)) & !crowded {
                    f(color, Kind(k as u8), sq);
                }
            }
        }
        for sq in crowded {
            for p in self.members(sq) {
                f(p.color, p.kind, sq);
            }
        }
    }
}

/// A shared square holds one white and one black piece, each seen as if alone.
impl PieceView for SimPosition {
    fn presence(&self, color: Color, kind: Kind) -> Bitboard {
        self.pieces(color, kind)
    }
    fn occupied(&self) -> Bitboard {
        SimPosition::occupied(self)
    }
    fn by_color(&self, color: Color) -> Bitboard {
        SimPosition::by_color(self, color)
    }
}
