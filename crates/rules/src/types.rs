//! The small types every family shares: colours and per-colour values,
//! piece kinds, pieces and moves.

use crate::geometry::Square;

/// Piece types a variant may have; keeps a position small enough to copy.
pub const MAX_KINDS: usize = 12;

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Color {
    White = 0,
    Black = 1,
}

impl Color {
    /// Both colours, White first.
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }
    #[inline]
    pub fn other(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
    /// +1 for White (moves up the board), -1 for Black.
    #[inline]
    pub fn forward(self) -> i32 {
        match self {
            Color::White => 1,
            Color::Black => -1,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Color::White => "white",
            Color::Black => "black",
        }
    }
    /// The name with a capital, as at the start of a sentence.
    pub fn title(self) -> &'static str {
        match self {
            Color::White => "White",
            Color::Black => "Black",
        }
    }
}

impl std::ops::Not for Color {
    type Output = Color;
    fn not(self) -> Color {
        self.other()
    }
}

/// One value per colour, indexed by [`Color`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct ByColor<T> {
    pub white: T,
    pub black: T,
}

impl<T> ByColor<T> {
    pub const fn new(white: T, black: T) -> ByColor<T> {
        ByColor { white, black }
    }

    /// The value of each colour as `f` gives it.
    pub fn new_with(mut f: impl FnMut(Color) -> T) -> ByColor<T> {
        ByColor {
            white: f(Color::White),
            black: f(Color::Black),
        }
    }

    #[inline]
    pub fn get(&self, color: Color) -> &T {
        match color {
            Color::White => &self.white,
            Color::Black => &self.black,
        }
    }

    #[inline]
    pub fn get_mut(&mut self, color: Color) -> &mut T {
        match color {
            Color::White => &mut self.white,
            Color::Black => &mut self.black,
        }
    }

    pub fn map<U>(self, mut f: impl FnMut(T) -> U) -> ByColor<U> {
        ByColor {
            white: f(self.white),
            black: f(self.black),
        }
    }

    pub fn as_ref(&self) -> ByColor<&T> {
        ByColor {
            white: &self.white,
            black: &self.black,
        }
    }

    /// White's value, then Black's.
    pub fn iter(&self) -> std::array::IntoIter<&T, 2> {
        [&self.white, &self.black].into_iter()
    }

    pub fn iter_mut(&mut self) -> std::array::IntoIter<&mut T, 2> {
        [&mut self.white, &mut self.black].into_iter()
    }

    /// Each colour with its value, White first.
    pub fn with_colors(&self) -> impl Iterator<Item = (Color, &T)> {
        Color::ALL.into_iter().zip(self.iter())
    }

    pub fn into_array(self) -> [T; 2] {
        [self.white, self.black]
    }
}

impl<T: Copy> ByColor<T> {
    /// The same value for both colours.
    pub const fn both(value: T) -> ByColor<T> {
        ByColor {
            white: value,
            black: value,
        }
    }
}

impl<T> IntoIterator for ByColor<T> {
    type Item = T;
    type IntoIter = std::array::IntoIter<T, 2>;
    fn into_iter(self) -> Self::IntoIter {
        self.into_array().into_iter()
    }
}

impl<T> From<[T; 2]> for ByColor<T> {
    fn from([white, black]: [T; 2]) -> ByColor<T> {
        ByColor { white, black }
    }
}

impl<T> std::ops::Index<Color> for ByColor<T> {
    type Output = T;
    #[inline]
    fn index(&self, color: Color) -> &T {
        self.get(color)
    }
}

impl<T> std::ops::IndexMut<Color> for ByColor<T> {
    #[inline]
    fn index_mut(&mut self, color: Color) -> &mut T {
        self.get_mut(color)
    }
}

/// A piece type: an index into the variant's piece table.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Kind(pub u8);

impl Kind {
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Piece {
    pub color: Color,
    pub kind: Kind,
}

/// What a move does besides moving one piece.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Special {
    None,
    /// A pawn's lame multi-step that may be answered en passant.
    DoubleStep,
    EnPassant,
    /// The king goes `from` -> `to`, the partner `rook_from` -> `rook_to`.
    Castle {
        rook_from: Square,
        rook_to: Square,
    },
    /// Crowd family only: the piece of this kind leaves `from`, where the
    /// mover has pieces of several kinds (see `crowd`). Any double step or
    /// promotion is still read from the squares and `promotion`.
    FromCrowd(Kind),
    /// Crowd family only: the mover joins a lone enemy piece that its
    /// capture power also reaches, instead of capturing it (the plain move
    /// to that square is the capture). The kind is named as in `FromCrowd`
    /// when the mover has pieces of several kinds on `from`.
    Join(Option<Kind>),
}

impl Special {
    /// The kind a crowd move names (`FromCrowd`, or a `Join` out of a mixed crowd).
    #[inline]
    pub fn named_kind(self) -> Option<Kind> {
        match self {
            Special::FromCrowd(k) | Special::Join(Some(k)) => Some(k),
            _ => None,
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Move {
    pub from: Square,
    pub to: Square,
    pub promotion: Option<Kind>,
    pub special: Special,
}

impl Move {
    pub fn new(from: Square, to: Square) -> Move {
        Move {
            from,
            to,
            promotion: None,
            special: Special::None,
        }
    }
    pub fn is_castle(&self) -> bool {
        matches!(self.special, Special::Castle { .. })
    }
    pub fn is_join(&self) -> bool {
        matches!(self.special, Special::Join(_))
    }
}

/// The square a double-stepping pawn passed over, and where it stands.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct EnPassant {
    pub target: Square,
    pub victim: Square,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn by_color_indexes_maps_and_lists_white_first() {
        let mut counts = ByColor::new(1, 2);
        counts[Color::Black] += 10;
        assert_eq!((counts[Color::White], counts[Color::Black]), (1, 12));
        assert_eq!(counts.map(|n| n * 2), ByColor::new(2, 24));
        assert_eq!(
            ByColor::new_with(Color::name).into_array(),
            ["white", "black"]
        );
        let order: Vec<Color> = counts.with_colors().map(|(c, _)| c).collect();
        assert_eq!(order, Color::ALL);
        assert_eq!(counts.iter().copied().sum::<i32>(), 13);
        assert_eq!(ByColor::from([3, 4]), ByColor::new(3, 4));
    }
}
