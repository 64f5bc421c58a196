//! Board geometry for any rectangle of at most 128 squares.
//!
//! Squares are numbered rank by rank from a1 (`index = rank * files + file`), so
//! a step `(dx, dy)` is a constant index delta along a ray. That keeps the
//! classical "nearest blocker" ray trick valid on every board width.

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// Largest number of squares a board may have: one bit each in a `u128`.
pub const MAX_SQUARES: usize = 128;
/// Files and ranks are each limited to 16 (letters a..p, ranks 1..16).
pub const MAX_SIDE: u8 = 16;

/// A square index on some board; only meaningful together with its [`Shape`].
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Square(pub u8);

impl Square {
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
    #[inline]
    pub fn bit<W: Word>(self) -> Bitboard<W> {
        Bitboard(W::bit(self.0))
    }
}

/// The size of a rectangular board.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Shape {
    pub files: u8,
    pub ranks: u8,
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ShapeError {
    #[error("a board needs 1 to {MAX_SIDE} files and ranks, got {files}x{ranks}")]
    SideOutOfRange { files: u8, ranks: u8 },
    #[error("a board has at most {MAX_SQUARES} squares, {files}x{ranks} has {}", *files as usize * *ranks as usize)]
    TooManySquares { files: u8, ranks: u8 },
}

impl Shape {
    pub fn new(files: u8, ranks: u8) -> Result<Shape, ShapeError> {
        if files == 0 || ranks == 0 || files > MAX_SIDE || ranks > MAX_SIDE {
            return Err(ShapeError::SideOutOfRange { files, ranks });
        }
        if files as usize * ranks as usize > MAX_SQUARES {
            return Err(ShapeError::TooManySquares { files, ranks });
        }
        Ok(Shape { files, ranks })
    }

    #[inline]
    pub fn len(self) -> usize {
        self.files as usize * self.ranks as usize
    }

    #[inline]
    pub fn is_empty(self) -> bool {
        self.len() == 0
    }

    #[inline]
    pub fn square(self, file: u8, rank: u8) -> Square {
        debug_assert!(file < self.files && rank < self.ranks);
        Square(rank * self.files + file)
    }

    /// The square at signed coordinates, if on the board.
    #[inline]
    pub fn square_at(self, file: i32, rank: i32) -> Option<Square> {
        if file < 0 || rank < 0 || file >= self.files as i32 || rank >= self.ranks as i32 {
            None
        } else {
            Some(self.square(file as u8, rank as u8))
        }
    }

    #[inline]
    pub fn file(self, sq: Square) -> u8 {
        sq.0 % self.files
    }

    #[inline]
    pub fn rank(self, sq: Square) -> u8 {
        sq.0 / self.files
    }

    /// The square `steps` times `(dx, dy)` away, if on the board.
    #[inline]
    pub fn offset(self, sq: Square, dx: i32, dy: i32) -> Option<Square> {
        self.square_at(self.file(sq) as i32 + dx, self.rank(sq) as i32 + dy)
    }

    /// Every square of the board.
    #[inline]
    pub fn all(self) -> Bitboard {
        Bitboard(if self.len() == 128 {
            u128::MAX
        } else {
            (1u128 << self.len()) - 1
        })
    }

    pub fn squares(self) -> impl Iterator<Item = Square> {
        (0..self.len() as u8).map(Square)
    }

    pub fn rank_mask(self, rank: u8) -> Bitboard {
        let row = (1u128 << self.files) - 1;
        Bitboard(row << (rank as u32 * self.files as u32))
    }

    pub fn file_mask(self, file: u8) -> Bitboard {
        (0..self.ranks).fold(Bitboard::EMPTY, |b, r| b | self.square(file, r).bit())
    }

    /// Square name such as `e4` or `l10`.
    pub fn name(self, sq: Square) -> SquareName {
        SquareName {
            file: self.file(sq),
            rank: self.rank(sq),
        }
    }

    /// Parses a square name such as `e4` or `l10` that must fill `text`.
    pub fn parse_square(self, text: &str) -> Option<Square> {
        let (sq, used) = self.parse_square_prefix(text)?;
        (used == text.len()).then_some(sq)
    }

    /// Parses a square name at the start of `text`; returns it and the bytes used.
    /// Takes the longest rank number that is on the board (`a10` before `a1`).
    pub fn parse_square_prefix(self, text: &str) -> Option<(Square, usize)> {
        let bytes = text.as_bytes();
        let f = *bytes.first()?;
        if !f.is_ascii_lowercase() {
            return None;
        }
        let file = f - b'a';
        if file >= self.files {
            return None;
        }
        let digits = bytes[1..]
            .iter()
            .take(2)
            .take_while(|b| b.is_ascii_digit())
            .count();
        for len in (1..=digits).rev() {
            let s = std::str::from_utf8(&bytes[1..1 + len]).ok()?;
            if s.starts_with('0') {
                continue;
            }
            if let Ok(rank) = s.parse::<u8>() {
                if rank >= 1 && rank <= self.ranks {
                    return Some((self.square(file, rank - 1), 1 + len));
                }
            }
        }
        None
    }

    /// The square seen from the other side: same file, mirrored rank.
    #[inline]
    pub fn flip_rank(self, sq: Square) -> Square {
        self.square(self.file(sq), self.ranks - 1 - self.rank(sq))
    }
}

/// A displayable square name.
#[derive(Clone, Copy, Debug)]
pub struct SquareName {
    file: u8,
    rank: u8,
}

impl fmt::Display for SquareName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file) as char, self.rank + 1)
    }
}

/// The machine word a [`Bitboard`] keeps its squares in: `u128` fits every
/// board, `u64` boards of at most 64 squares and is cheaper to work with.
pub trait Word:
    Copy
    + Eq
    + std::hash::Hash
    + Default
    + fmt::Debug
    + fmt::LowerHex
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
{
    const ZERO: Self;
    const ALL: Self;
    /// Number of bits, so the largest board the word can hold.
    const BITS: u32;
    /// The word with bit `i` alone set.
    fn bit(i: u8) -> Self;
    fn count_ones(self) -> u32;
    fn trailing_zeros(self) -> u32;
    fn leading_zeros(self) -> u32;
    /// The word without its lowest set bit.
    fn clear_lowest(self) -> Self;
    /// Removes the lowest set bit and returns its index.
    fn pop_lowest(&mut self) -> Option<u8>;
    /// The low bits of a `u128` (boards that fit keep all their squares).
    fn from_wide(wide: u128) -> Self;
    fn to_wide(self) -> u128;
    /// The low 64 bits: every square of a board of at most 64 squares.
    fn low_u64(self) -> u64;
    /// Shifted towards higher bits by `by` (towards lower ones if negative).
    fn shift(self, by: i32) -> Self;
}

impl Word for u64 {
    const ZERO: u64 = 0;
    const ALL: u64 = u64::MAX;
    const BITS: u32 = 64;
    #[inline]
    fn bit(i: u8) -> u64 {
        1u64 << i
    }
    #[inline]
    fn count_ones(self) -> u32 {
        u64::count_ones(self)
    }
    #[inline]
    fn trailing_zeros(self) -> u32 {
        u64::trailing_zeros(self)
    }
    #[inline]
    fn leading_zeros(self) -> u32 {
        u64::leading_zeros(self)
    }
    #[inline]
    fn clear_lowest(self) -> u64 {
        self & self.wrapping_sub(1)
    }
    #[inline]
    fn pop_lowest(&mut self) -> Option<u8> {
        if *self == 0 {
            return None;
        }
        let i = self.trailing_zeros() as u8;
        *self &= *self - 1;
        Some(i)
    }
    #[inline]
    fn from_wide(wide: u128) -> u64 {
        wide as u64
    }
    #[inline]
    fn to_wide(self) -> u128 {
        u128::from(self)
    }
    #[inline]
    fn low_u64(self) -> u64 {
        self
    }
    #[inline]
    fn shift(self, by: i32) -> u64 {
        if by >= 0 {
            self << by
        } else {
            self >> -by
        }
    }
}

impl Word for u128 {
    const ZERO: u128 = 0;
    const ALL: u128 = u128::MAX;
    const BITS: u32 = 128;
    #[inline]
    fn bit(i: u8) -> u128 {
        1u128 << i
    }
    #[inline]
    fn count_ones(self) -> u32 {
        u128::count_ones(self)
    }
    #[inline]
    fn trailing_zeros(self) -> u32 {
        u128::trailing_zeros(self)
    }
    #[inline]
    fn leading_zeros(self) -> u32 {
        u128::leading_zeros(self)
    }
    #[inline]
    fn clear_lowest(self) -> u128 {
        self & self.wrapping_sub(1)
    }
    #[inline]
    fn pop_lowest(&mut self) -> Option<u8> {
        // A half at a time: 128-bit arithmetic costs several instructions
        // per operation, and boards up to 64 squares live in the low half.
        let low = *self as u64;
        if low != 0 {
            *self ^= u128::from(low & low.wrapping_neg());
            return Some(low.trailing_zeros() as u8);
        }
        let high = (*self >> 64) as u64;
        if high == 0 {
            return None;
        }
        *self ^= u128::from(high & high.wrapping_neg()) << 64;
        Some(64 + high.trailing_zeros() as u8)
    }
    #[inline]
    fn from_wide(wide: u128) -> u128 {
        wide
    }
    #[inline]
    fn to_wide(self) -> u128 {
        self
    }
    #[inline]
    fn low_u64(self) -> u64 {
        self as u64
    }
    #[inline]
    fn shift(self, by: i32) -> u128 {
        if by >= 0 {
            self << by
        } else {
            self >> -by
        }
    }
}

/// A set of squares, one bit each in a word `W` (by default one that fits
/// every board).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard<W: Word = u128>(pub W);

impl<W: Word> Bitboard<W> {
    pub const EMPTY: Bitboard<W> = Bitboard(W::ZERO);
    /// Every square the word can hold (more than the board has).
    pub const ALL: Bitboard<W> = Bitboard(W::ALL);

    #[inline]
    pub fn is_empty(self) -> bool {
        self.0 == W::ZERO
    }
    #[inline]
    pub fn any(self) -> bool {
        self.0 != W::ZERO
    }
    #[inline]
    pub fn count(self) -> u32 {
        self.0.count_ones()
    }
    #[inline]
    pub fn contains(self, sq: Square) -> bool {
        (self.0 & W::bit(sq.0)) != W::ZERO
    }
    #[inline]
    pub fn lowest(self) -> Option<Square> {
        self.any().then(|| Square(self.0.trailing_zeros() as u8))
    }
    #[inline]
    pub fn highest(self) -> Option<Square> {
        self.any()
            .then(|| Square((W::BITS - 1 - self.0.leading_zeros()) as u8))
    }
    /// True if more than one square is set.
    #[inline]
    pub fn several(self) -> bool {
        self.0.clear_lowest() != W::ZERO
    }
    #[inline]
    pub fn with(self, sq: Square) -> Bitboard<W> {
        Bitboard(self.0 | W::bit(sq.0))
    }
    #[inline]
    pub fn without(self, sq: Square) -> Bitboard<W> {
        Bitboard(self.0 & !W::bit(sq.0))
    }
    /// The same squares in a word of another size (which must hold them).
    #[inline]
    pub fn convert<V: Word>(self) -> Bitboard<V> {
        Bitboard(V::from_wide(self.0.to_wide()))
    }
    /// Every square moved `by` indices up (down if negative); squares
    /// pushed off the word are lost.
    #[inline]
    pub fn shift(self, by: i32) -> Bitboard<W> {
        Bitboard(self.0.shift(by))
    }
    /// The same squares in a `u128`.
    #[inline]
    pub fn wide(self) -> Bitboard {
        Bitboard(self.0.to_wide())
    }
}

impl<W: Word> Iterator for Bitboard<W> {
    type Item = Square;
    #[inline]
    fn next(&mut self) -> Option<Square> {
        self.0.pop_lowest().map(Square)
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.count() as usize;
        (n, Some(n))
    }
}

impl<W: Word> fmt::Debug for Bitboard<W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Bitboard({:#x})", self.0)
    }
}

macro_rules! bit_ops {
    ($($trait:ident $method:ident $assign:ident $assign_method:ident $op:tt),*) => {$(
        impl<W: Word> $trait for Bitboard<W> {
            type Output = Bitboard<W>;
            #[inline]
            fn $method(self, rhs: Bitboard<W>) -> Bitboard<W> { Bitboard(self.0 $op rhs.0) }
        }
        impl<W: Word> $assign for Bitboard<W> {
            #[inline]
            fn $assign_method(&mut self, rhs: Bitboard<W>) { self.0 = self.0 $op rhs.0 }
        }
    )*};
}
bit_ops!(BitAnd bitand BitAndAssign bitand_assign &, BitOr bitor BitOrAssign bitor_assign |, BitXor bitxor BitXorAssign bitxor_assign ^);

impl<W: Word> Not for Bitboard<W> {
    type Output = Bitboard<W>;
    #[inline]
    fn not(self) -> Bitboard<W> {
        Bitboard(!self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_up_to_128_squares() {
        for (f, r) in [
            (8, 8),
            (10, 8),
            (12, 8),
            (10, 10),
            (16, 8),
            (8, 16),
            (12, 10),
        ] {
            let shape = Shape::new(f, r).unwrap();
            assert_eq!(shape.all().count() as usize, f as usize * r as usize);
        }
        assert!(matches!(
            Shape::new(12, 12),
            Err(ShapeError::TooManySquares { .. })
        ));
        assert!(matches!(
            Shape::new(17, 2),
            Err(ShapeError::SideOutOfRange { .. })
        ));
    }

    #[test]
    fn square_names_round_trip_with_two_digit_ranks() {
        let shape = Shape::new(12, 10).unwrap();
        for sq in shape.squares() {
            let name = shape.name(sq).to_string();
            assert_eq!(shape.parse_square(&name), Some(sq), "{name}");
        }
        assert_eq!(shape.parse_square("l10"), Some(shape.square(11, 9)));
        assert_eq!(shape.parse_square("m1"), None);
        assert_eq!(shape.parse_square("a11"), None);
        assert_eq!(shape.parse_square("a0"), None);
        // On an 8-rank board "a10" is a1 followed by junk.
        let chess = Shape::new(8, 8).unwrap();
        assert_eq!(
            chess.parse_square_prefix("a10"),
            Some((chess.square(0, 0), 2))
        );
    }

    #[test]
    fn masks_and_offsets_respect_edges() {
        let shape = Shape::new(12, 8).unwrap();
        let l1 = shape.square(11, 0);
        assert_eq!(shape.offset(l1, 1, 0), None);
        assert_eq!(shape.offset(l1, -1, 1), Some(shape.square(10, 1)));
        assert_eq!(shape.rank_mask(7).count(), 12);
        assert_eq!(shape.file_mask(3).count(), 8);
        assert_eq!(shape.flip_rank(shape.square(4, 1)), shape.square(4, 6));
    }
}
