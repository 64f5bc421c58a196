//! What the evaluation and the page need to see of a position of any
//! family: which pieces stand where, crowds counted by their members.

use crate::crowd::CrowdPosition;
use crate::geometry::{Bitboard, Square, Word};
use crate::position::Position;
use crate::simultaneous::SimPosition;
use crate::types::{Color, Kind, MAX_KINDS};
use crate::variant::{Boards, HasVariant, Variant};

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

/// A position's sets copied into `u64` words, for a board of at most 64
/// squares kept in a wider word (the simultaneous and crowd families use
/// `u128` on every board): the evaluation reads many sets many times, and
/// 64-bit operations are each one instruction.
pub struct NarrowView<'a, P: PieceView> {
    /// The position itself, for its pieces one by one (crowds' members).
    pos: &'a P,
    boards: &'static Boards<u64>,
    presence: [[Bitboard<u64>; MAX_KINDS]; 2],
    by_color: [Bitboard<u64>; 2],
    occupied: Bitboard<u64>,
    crowd_squares: Bitboard<u64>,
}

impl<'a, P: PieceView> NarrowView<'a, P> {
    /// The narrowed view of `pos`, or None if its board needs more than 64 bits.
    pub fn of(pos: &'a P) -> Option<NarrowView<'a, P>> {
        let v = pos.variant();
        let boards = v.boards64.as_ref()?;
        let mut presence = [[Bitboard::EMPTY; MAX_KINDS]; 2];
        for color in Color::ALL {
            for (k, set) in presence[color.index()]
                .iter_mut()
                .enumerate()
                .take(v.kinds.len())
            {
                *set = pos.presence(color, Kind(k as u8)).convert();
            }
        }
        Some(NarrowView {
            pos,
            boards,
            presence,
            by_color: Color::ALL.map(|c| pos.by_color(c).convert()),
            occupied: pos.occupied().convert(),
            crowd_squares: pos.crowd_squares().convert(),
        })
    }
}

impl<P: PieceView> HasVariant for NarrowView<'_, P> {
    fn variant(&self) -> &'static Variant {
        self.pos.variant()
    }
}

impl<P: PieceView> PieceView for NarrowView<'_, P> {
    type W = u64;
    #[inline]
    fn presence(&self, color: Color, kind: Kind) -> Bitboard<u64> {
        self.presence[color.index()][kind.index()]
    }
    #[inline]
    fn occupied(&self) -> Bitboard<u64> {
        self.occupied
    }
    #[inline]
    fn by_color(&self, color: Color) -> Bitboard<u64> {
        self.by_color[color.index()]
    }
    #[inline]
    fn crowd_squares(&self) -> Bitboard<u64> {
        self.crowd_squares
    }
    #[inline]
    fn boards(&self) -> &'static Boards<u64> {
        self.boards
    }
    /// The position's own: a crowd's members are not in the sets.
    fn for_each_piece(&self, f: impl FnMut(Color, Kind, Square)) {
        self.pos.for_each_piece(f)
    }
}
