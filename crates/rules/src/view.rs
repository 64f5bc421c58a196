//! What the evaluation and the page need to see of a position of any
//! family: which pieces stand where, crowds counted by their members.

use crate::crowd::CrowdPosition;
use crate::geometry::{Bitboard, Square, Word};
use crate::position::Position;
use crate::simultaneous::SimPosition;
use crate::types::{Color, Kind};
use crate::variant::{Boards, HasVariant};

/// The pieces of a position, in the word of its sets (`u64` for a
/// `Position<u64>`, `u128` otherwise), beside the variant's attack tables
/// in that word: the evaluation reads both without converting.
pub trait PieceView: HasVariant {
    /// The word of the position's sets.
    type W: Word;
    /// Squares where at least one piece of `color` and `kind` stands.
    fn presence(&self, color: Color, kind: Kind) -> Bitboard<Self::W>;
    fn occupied(&self) -> Bitboard<Self::W>;
    fn by_color(&self, color: Color) -> Bitboard<Self::W>;
    /// Squares whose pieces cannot be captured (crowds of the crowd family).
    fn crowd_squares(&self) -> Bitboard<Self::W> {
        Bitboard::EMPTY
    }
    /// The variant's attack tables in the word of the sets.
    fn boards(&self) -> &'static Boards<Self::W>;
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

impl<W: Word> PieceView for Position<W> {
    type W = W;
    #[inline]
    fn presence(&self, color: Color, kind: Kind) -> Bitboard<W> {
        self.pieces(color, kind)
    }
    #[inline]
    fn occupied(&self) -> Bitboard<W> {
        Position::occupied(self)
    }
    #[inline]
    fn by_color(&self, color: Color) -> Bitboard<W> {
        Position::by_color(self, color)
    }
    #[inline]
    fn boards(&self) -> &'static Boards<W> {
        Position::boards(self)
    }
}

impl PieceView for CrowdPosition {
    type W = u128;
    fn boards(&self) -> &'static Boards {
        &self.variant().boards
    }
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
    type W = u128;
    fn boards(&self) -> &'static Boards {
        &self.variant().boards
    }
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
