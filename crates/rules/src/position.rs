//! Positions of the turn-based family: an unvalidated [`Setup`] becomes a
//! valid [`Position`] or a typed [`PositionError`]. Positions are plain
//! values; playing a move returns a new one.

use std::fmt;

use crate::geometry::{Bitboard, Square, Word};
use crate::types::{ByColor, Color, EnPassant, Kind, Move, Piece, Special};
use crate::variant::{Boards, CastlingStyle, Variant, MAX_DIRECTIONS, MAX_RIDER_SLIDES};

pub use crate::types::MAX_KINDS;

/// A position as read from a FEN, not yet checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    pub pieces: Pieces,
    pub side: Color,
    /// Squares of castling partners that keep their right, per colour.
    pub castling: ByColor<Bitboard>,
    pub en_passant: Option<Square>,
    pub halfmove_clock: u32,
    pub fullmove_number: u32,
}

impl Setup {
    pub fn empty() -> Setup {
        Setup {
            pieces: ByColor::both([Bitboard::EMPTY; MAX_KINDS]),
            side: Color::White,
            castling: ByColor::both(Bitboard::EMPTY),
            en_passant: None,
            halfmove_clock: 0,
            fullmove_number: 1,
        }
    }

    pub fn occupied(&self, color: Color) -> Bitboard {
        self.pieces[color]
            .iter()
            .fold(Bitboard::EMPTY, |a, &b| a | b)
    }

    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        for color in Color::ALL {
            for (k, bb) in self.pieces[color].iter().enumerate() {
                if bb.contains(sq) {
                    return Some(Piece {
                        color,
                        kind: Kind(k as u8),
                    });
                }
            }
        }
        None
    }
}

/// Why a setup is not a legal position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    #[error("{} has no king", .0.name())]
    MissingKing(Color),
    #[error("{} has more than one king", .0.name())]
    TooManyKings(Color),
    #[error("a {} pawn stands on {square}, its promotion rank", .color.name())]
    PawnOnLastRank { color: Color, square: String },
    #[error("two pieces stand on {0}")]
    SquareTaken(String),
    #[error("{} is in check but it is {}'s turn", .0.name(), .0.other().name())]
    OppositeCheck(Color),
    #[error("castling right on {0} has no unmoved king and partner to go with it")]
    BadCastling(String),
    #[error("en passant square {0} does not follow a double step")]
    BadEnPassant(String),
}

/// Riding attackers of one colour per direction (see [`Position::rider_sets`]).
#[derive(Clone, Copy)]
pub struct RiderSets<W: Word = u128> {
    /// The riders' colour.
    pub by: Color,
    /// The riders per direction, for the directions of `walked` only.
    pub by_dir: [Bitboard<W>; MAX_DIRECTIONS],
    /// Bit d is set if some rider rides direction d.
    pub active: u32,
    /// The directions of `active` that no slide table covers.
    pub walked: u32,
    /// The riders of each entry of the colour's `Boards::rider_slides`.
    pub by_slide: [Bitboard<W>; MAX_RIDER_SLIDES],
    /// Bit i is set if `by_slide[i]` is not empty.
    pub slides_active: u32,
}

impl<W: Word> RiderSets<W> {
    /// Each piece of `own` alone between `king` and one of these riders on
    /// its line, with the squares it may still go to (the line up to and
    /// including the rider).
    #[inline]
    pub(crate) fn for_each_pin(
        &self,
        v: &Boards<W>,
        king: Square,
        occ: Bitboard<W>,
        own: Bitboard<W>,
        mut pinned: impl FnMut(Square, Bitboard<W>),
    ) {
        let mut along = |d: usize, riders: Bitboard<W>| {
            let dir = &v.dirs[d];
            let riders = riders & dir.ray[king.index()];
            if riders.is_empty() {
                return;
            }
            let Some(blocker) = (v.dir_attack(d, king, occ) & own).lowest() else {
                return;
            };
            let beyond = v.dir_attack(d, king, occ.without(blocker)) & riders;
            if let Some(rider) = beyond.lowest() {
                pinned(blocker, dir.ray[king.index()] & !dir.ray[rider.index()]);
            }
        };
        let mut slides = self.slides_active;
        while slides != 0 {
            let i = slides.trailing_zeros() as usize;
            slides &= slides - 1;
            let (_, table, mut dirs) = v.rider_slides[self.by.index()][i];
            // No rider on the lines through the king: no direction to look at.
            if (table.attack(king, Bitboard::EMPTY) & self.by_slide[i]).is_empty() {
                continue;
            }
            while dirs != 0 {
                let d = dirs.trailing_zeros() as usize;
                dirs &= dirs - 1;
                along(d, self.by_slide[i]);
            }
        }
        let mut walked = self.walked;
        while walked != 0 {
            let d = walked.trailing_zeros() as usize;
            walked &= walked - 1;
            along(d, self.by_dir[d]);
        }
    }
}

/// A legal position of a turn-based variant, its squares kept in words
/// `W` (`u64` only for boards of at most 64 squares).
#[derive(Clone, Copy)]
pub struct Position<W: Word = u128> {
    pub(crate) variant: &'static Variant,
    /// The variant's tables in this position's word.
    pub(crate) boards: &'static Boards<W>,
    pub(crate) pieces: Pieces<W>,
    pub(crate) occupied: ByColor<Bitboard<W>>,
    pub(crate) side: Color,
    pub(crate) castling: ByColor<Bitboard<W>>,
    pub(crate) en_passant: Option<EnPassant>,
    pub(crate) halfmove_clock: u32,
    pub(crate) fullmove_number: u32,
    pub(crate) hash: u64,
}

impl<W: Word> PartialEq for Position<W> {
    fn eq(&self, other: &Position<W>) -> bool {
        std::ptr::eq(self.variant, other.variant)
            && self.pieces == other.pieces
            && self.side == other.side
            && self.castling == other.castling
            && self.en_passant == other.en_passant
            && self.halfmove_clock == other.halfmove_clock
            && self.fullmove_number == other.fullmove_number
    }
}

impl<W: Word> Eq for Position<W> {}

impl<W: Word> fmt::Debug for Position<W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Position({} {})",
            self.variant.id(),
            crate::fen::write(self)
        )
    }
}

impl<W: Word> Position<W> {
    /// The variant's start position.
    pub fn start(variant: &'static Variant) -> Position<W> {
        crate::fen::parse_position(variant, &variant.spec.start_fen)
            .expect("start position validated at load")
    }

    /// Checks a setup and turns it into a position.
    ///
    /// Panics if the board does not fit in `W` (choose the word by the
    /// variant, as [`crate::AnyGame`] does).
    pub fn from_setup(
        variant: &'static Variant,
        setup: &Setup,
    ) -> Result<Position<W>, PositionError> {
        let boards = variant
            .boards_in::<W>()
            .expect("the board fits in the position's word");
        let shape = variant.shape;
        let name = |sq: Square| shape.name(sq).to_string();
        let occupied = ByColor::new_with(|c| setup.occupied(c).convert());
        let mut seen: Bitboard = Bitboard::EMPTY;
        for color in Color::ALL {
            for bb in &setup.pieces[color] {
                if let Some(sq) = (seen & *bb).lowest() {
                    return Err(PositionError::SquareTaken(name(sq)));
                }
                seen |= *bb;
            }
        }
        for color in Color::ALL {
            let kings = setup.pieces[color][variant.royal.index()];
            if kings.is_empty() {
                return Err(PositionError::MissingKing(color));
            }
            if kings.several() {
                return Err(PositionError::TooManyKings(color));
            }
            for (k, info) in variant.kinds.iter().enumerate() {
                if info.pawn {
                    let on_last =
                        setup.pieces[color][k] & variant.boards.promotion_zone[color.index()];
                    if let Some(sq) = on_last.lowest() {
                        return Err(PositionError::PawnOnLastRank {
                            color,
                            square: name(sq),
                        });
                    }
                }
            }
        }
        let mut pos = Position {
            variant,
            boards,
            pieces: ByColor::new_with(|c| setup.pieces[c].map(Bitboard::convert)),
            occupied,
            side: setup.side,
            castling: ByColor::both(Bitboard::EMPTY),
            en_passant: None,
            halfmove_clock: setup.halfmove_clock,
            fullmove_number: setup.fullmove_number.max(1),
            hash: 0,
        };
        for color in Color::ALL {
            let rights: Bitboard<W> = setup.castling[color].convert();
            if rights.is_empty() {
                continue;
            }
            let home = variant.home_rank(color).convert();
            let king = pos.king(color);
            let partners = pos.castling_partners(color);
            let bad = rights & !(partners & home);
            if let Some(sq) = bad.lowest() {
                return Err(PositionError::BadCastling(name(sq)));
            }
            if variant.spec.castling == CastlingStyle::None || !home.contains(king) {
                return Err(PositionError::BadCastling(name(
                    rights.lowest().unwrap_or(king),
                )));
            }
            pos.castling[color] = rights;
        }
        if let Some(target) = setup.en_passant {
            let them = setup.side.other();
            let victim = shape.offset(target, 0, them.forward());
            let origin = shape.offset(target, 0, -them.forward());
            let valid = match (victim, origin) {
                (Some(v), Some(o)) => {
                    let pawn_there = variant
                        .kinds
                        .iter()
                        .enumerate()
                        .any(|(k, info)| info.pawn && pos.pieces[them][k].contains(v));
                    pawn_there
                        && !(occupied.white | occupied.black).contains(target)
                        && !(occupied.white | occupied.black).contains(o)
                }
                _ => false,
            };
            if !valid {
                return Err(PositionError::BadEnPassant(name(target)));
            }
            pos.en_passant = pos.capturable_en_passant(target, victim.expect("checked above"));
        }
        pos.hash = pos.compute_hash();
        let them = pos.side.other();
        if pos.is_attacked(pos.king(them), pos.side, pos.occupied()) {
            return Err(PositionError::OppositeCheck(them));
        }
        Ok(pos)
    }

    /// The setup this position came from (castling and en passant as held).
    pub fn to_setup(&self) -> Setup {
        Setup {
            pieces: ByColor::new_with(|c| self.pieces[c].map(Bitboard::wide)),
            side: self.side,
            castling: ByColor::new_with(|c| self.castling[c].wide()),
            en_passant: self.en_passant.map(|e| e.target),
            halfmove_clock: self.halfmove_clock,
            fullmove_number: self.fullmove_number,
        }
    }

    #[inline]
    pub fn variant(&self) -> &'static Variant {
        self.variant
    }
    /// The variant's tables in this position's word.
    #[inline]
    pub fn boards(&self) -> &'static Boards<W> {
        self.boards
    }
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }
    #[inline]
    pub fn occupied(&self) -> Bitboard<W> {
        self.occupied.white | self.occupied.black
    }
    #[inline]
    pub fn by_color(&self, color: Color) -> Bitboard<W> {
        self.occupied[color]
    }
    #[inline]
    pub fn pieces(&self, color: Color, kind: Kind) -> Bitboard<W> {
        self.pieces[color][kind.index()]
    }
    #[inline]
    pub fn king(&self, color: Color) -> Square {
        self.pieces(color, self.variant.royal)
            .lowest()
            .expect("a position always has both kings")
    }
    pub fn castling_rights(&self, color: Color) -> Bitboard<W> {
        self.castling[color]
    }
    pub fn en_passant(&self) -> Option<EnPassant> {
        self.en_passant
    }
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove_clock
    }
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove_number
    }
    /// Zobrist key of everything that matters for repetition.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    #[inline]
    pub fn kind_at(&self, color: Color, sq: Square) -> Option<Kind> {
        if !self.occupied[color].contains(sq) {
            return None;
        }
        let kinds = self.variant.kinds.len();
        (0..kinds)
            .find(|&k| self.pieces[color][k].contains(sq))
            .map(|k| Kind(k as u8))
    }

    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        Color::ALL
            .into_iter()
            .find_map(|color| self.kind_at(color, sq).map(|kind| Piece { color, kind }))
    }

    fn castling_partners(&self, color: Color) -> Bitboard<W> {
        let mask = self.variant.castling_partner_kinds;
        (0..self.variant.kinds.len())
            .filter(|k| mask >> k & 1 != 0)
            .fold(Bitboard::EMPTY, |b, k| b | self.pieces[color][k])
    }

    fn compute_hash(&self) -> u64 {
        let keys = &self.variant.zobrist;
        let mut h = 0;
        for color in Color::ALL {
            for k in 0..self.variant.kinds.len() {
                for sq in self.pieces[color][k] {
                    h ^= keys.piece(color, Kind(k as u8), sq);
                }
            }
            for sq in self.castling[color] {
                h ^= keys.castling(sq);
            }
        }
        if let Some(ep) = self.en_passant {
            h ^= keys.en_passant(ep.target);
        }
        if self.side == Color::Black {
            h ^= keys.black_to_move;
        }
        h
    }

    /// Keeps an en passant square only if the side to move has a legal
    /// capture there, so repetition ignores squares nobody can use.
    fn capturable_en_passant(&self, target: Square, victim: Square) -> Option<EnPassant> {
        let us = self.side;
        let v = self.variant;
        let b = self.boards;
        let ep = EnPassant { target, victim };
        let with_ep = Position {
            en_passant: Some(ep),
            ..*self
        };
        let legal = (0..v.kinds.len()).any(|k| {
            let from =
                b.tables(us, Kind(k as u8)).en_passant_from[target.index()] & self.pieces[us][k];
            from.filter_squares(|from| {
                !with_ep.leaves_king_attacked(Move {
                    from,
                    to: target,
                    promotion: None,
                    special: Special::EnPassant,
                })
            })
            .any()
        });
        legal.then_some(ep)
    }

    /// The riding attackers of `by`, grouped by the direction in which
    /// they are seen from an attacked square; computed once per node.
    #[inline]
    pub fn rider_sets(&self, by: Color) -> RiderSets<W> {
        self.boards.rider_sets(&self.pieces, by)
    }

    /// All pieces of `by` that attack `sq` given occupancy `occ`.
    pub fn attackers(&self, sq: Square, by: Color, occ: Bitboard<W>) -> Bitboard<W> {
        self.attackers_with(sq, by, occ, &self.rider_sets(by))
    }

    /// True if any piece of `by` attacks `sq` given occupancy `occ`.
    pub fn is_attacked(&self, sq: Square, by: Color, occ: Bitboard<W>) -> bool {
        self.is_attacked_with(sq, by, occ, &self.rider_sets(by))
    }

    #[inline]
    pub fn attackers_with(
        &self,
        sq: Square,
        by: Color,
        occ: Bitboard<W>,
        riders: &RiderSets<W>,
    ) -> Bitboard<W> {
        self.boards.attackers(&self.pieces, sq, by, occ, riders)
    }

    #[inline]
    pub fn is_attacked_with(
        &self,
        sq: Square,
        by: Color,
        occ: Bitboard<W>,
        riders: &RiderSets<W>,
    ) -> bool {
        self.boards.is_attacked(&self.pieces, sq, by, occ, riders)
    }

    /// Pieces giving check to the side to move.
    pub fn checkers(&self) -> Bitboard<W> {
        self.attackers(self.king(self.side), self.side.other(), self.occupied())
    }

    pub fn is_check(&self) -> bool {
        self.is_attacked(self.king(self.side), self.side.other(), self.occupied())
    }

    #[inline]
    fn toggle(&mut self, color: Color, kind: Kind, sq: Square) {
        self.pieces[color][kind.index()].0 ^= W::bit(sq.0);
        self.occupied[color].0 ^= W::bit(sq.0);
        self.hash ^= self.variant.zobrist.piece(color, kind, sq);
    }

    fn clear_castling(&mut self, color: Color, squares: Bitboard<W>) {
        let lost = self.castling[color] & squares;
        for sq in lost {
            self.hash ^= self.variant.zobrist.castling(sq);
        }
        self.castling[color] &= !lost;
    }

    /// Plays a move known to be legal (from [`Position::legal_moves`] or
    /// checked with [`Position::is_legal`]) and returns the new position.
    pub fn play(&self, mv: Move) -> Position<W> {
        let mut p = *self;
        let us = self.side;
        let them = us.other();
        let v = self.variant;
        let kind = self
            .kind_at(us, mv.from)
            .expect("a legal move starts on a piece of the side to move");
        let mut reset_clock = v.kinds[kind.index()].pawn;
        if let Some(ep) = p.en_passant.take() {
            p.hash ^= v.zobrist.en_passant(ep.target);
        }
        match mv.special {
            Special::Castle { rook_from, rook_to } => {
                let partner = self
                    .kind_at(us, rook_from)
                    .expect("castling partner present");
                p.toggle(us, kind, mv.from);
                p.toggle(us, partner, rook_from);
                p.toggle(us, kind, mv.to);
                p.toggle(us, partner, rook_to);
            }
            _ => {
                let victim_sq = match (mv.special, self.en_passant) {
                    (Special::EnPassant, Some(ep)) => Some(ep.victim),
                    _ => self.occupied[them].contains(mv.to).then_some(mv.to),
                };
                if let Some(sq) = victim_sq {
                    let victim = self.kind_at(them, sq).expect("captured piece present");
                    p.toggle(them, victim, sq);
                    p.clear_castling(them, sq.bit());
                    reset_clock = true;
                }
                p.toggle(us, kind, mv.from);
                p.toggle(us, mv.promotion.unwrap_or(kind), mv.to);
            }
        }
        if kind == v.royal {
            p.clear_castling(us, Bitboard::ALL);
        } else {
            p.clear_castling(us, mv.from.bit());
        }
        p.side = them;
        p.hash ^= v.zobrist.black_to_move;
        if mv.special == Special::DoubleStep {
            let dy = if v.shape.rank(mv.to) > v.shape.rank(mv.from) {
                -1
            } else {
                1
            };
            if let Some(target) = v.shape.offset(mv.to, 0, dy) {
                p.en_passant = p.capturable_en_passant(target, mv.to);
                if let Some(ep) = p.en_passant {
                    p.hash ^= v.zobrist.en_passant(ep.target);
                }
            }
        }
        p.halfmove_clock = if reset_clock {
            0
        } else {
            self.halfmove_clock + 1
        };
        if us == Color::Black {
            p.fullmove_number += 1;
        }
        p
    }

    /// Passes the move (for an engine's null-move search): the other side
    /// moves next and any en passant chance lapses. Not a legal chess move.
    pub fn play_null(&self) -> Position<W> {
        let mut p = *self;
        if let Some(ep) = p.en_passant.take() {
            p.hash ^= self.variant.zobrist.en_passant(ep.target);
        }
        p.side = self.side.other();
        p.hash ^= self.variant.zobrist.black_to_move;
        p.halfmove_clock += 1;
        p
    }

    /// True if the side to move's king is attacked after `mv` (for moves
    /// whose safety the fast generator cannot see, such as en passant).
    pub(crate) fn leaves_king_attacked(&self, mv: Move) -> bool {
        let next = self.play(mv);
        next.is_attacked(next.king(self.side), next.side, next.occupied())
    }

    /// Same pieces, side, rights and en passant: equal for repetition.
    pub fn same_position(&self, other: &Position<W>) -> bool {
        self.hash == other.hash
            && self.pieces == other.pieces
            && self.side == other.side
            && self.castling == other.castling
            && self.en_passant == other.en_passant
    }
}

/// Piece sets per colour and kind.
pub type Pieces<W = u128> = ByColor<[Bitboard<W>; MAX_KINDS]>;

/// The union of one colour's pieces of the kinds in `mask` (bit per kind).
#[inline]
pub fn kinds_union<W: Word>(pieces: &Pieces<W>, color: Color, mut mask: u32) -> Bitboard<W> {
    let mut out = Bitboard::EMPTY;
    while mask != 0 {
        let k = mask.trailing_zeros() as usize;
        mask &= mask - 1;
        out |= pieces[color][k];
    }
    out
}

impl<W: Word> Boards<W> {
    /// The riding attackers of `by`, grouped by the direction in which
    /// they are seen from an attacked square; computed once per node.
    #[inline]
    pub fn rider_sets(&self, pieces: &Pieces<W>, by: Color) -> RiderSets<W> {
        let v = self;
        let mut sets = RiderSets {
            by,
            by_dir: [Bitboard::EMPTY; MAX_DIRECTIONS],
            active: 0,
            walked: 0,
            by_slide: [Bitboard::EMPTY; MAX_RIDER_SLIDES],
            slides_active: 0,
        };
        for &(kinds, dirs) in &v.rider_groups[by.index()] {
            let riders = kinds_union(pieces, by, kinds);
            if riders.any() {
                sets.active |= dirs;
                let mut left = dirs;
                while left != 0 {
                    sets.by_dir[left.trailing_zeros() as usize] = riders;
                    left &= left - 1;
                }
            }
        }
        sets.walked = sets.active;
        for (i, &(kinds, _, dirs)) in v.rider_slides[by.index()].iter().enumerate() {
            let riders = kinds_union(pieces, by, kinds);
            if riders.any() {
                sets.by_slide[i] = riders;
                sets.slides_active |= 1 << i;
                sets.active |= dirs;
            }
        }
        sets
    }

    /// All pieces of `by` that attack `sq` given occupancy `occ`.
    pub fn attackers(
        &self,
        pieces: &Pieces<W>,
        sq: Square,
        by: Color,
        occ: Bitboard<W>,
        riders: &RiderSets<W>,
    ) -> Bitboard<W> {
        let v = self;
        let c = by.index();
        let mut att = Bitboard::EMPTY;
        let mut leapers = v.reverse_leapers[c];
        while leapers != 0 {
            let k = leapers.trailing_zeros() as usize;
            leapers &= leapers - 1;
            att |= v.tables[c][k].reverse_capture.leaps[sq.index()] & pieces[by][k];
        }
        let mut slides = riders.slides_active;
        while slides != 0 {
            let i = slides.trailing_zeros() as usize;
            slides &= slides - 1;
            att |= v.rider_slides[c][i].1.attack(sq, occ) & riders.by_slide[i];
        }
        let mut walked = riders.walked;
        while walked != 0 {
            let d = walked.trailing_zeros() as usize;
            walked &= walked - 1;
            let candidates = riders.by_dir[d] & v.dirs[d].ray[sq.index()];
            if candidates.any() {
                att |= v.dir_attack(d, sq, occ) & candidates;
            }
        }
        let mut complex = v.reverse_complex[c];
        while complex != 0 {
            let k = complex.trailing_zeros() as usize;
            complex &= complex - 1;
            att |= v.reach(&v.tables[c][k].reverse_capture, sq, occ) & pieces[by][k];
        }
        att
    }

    /// True if any piece of `by` attacks `sq` given occupancy `occ`.
    #[inline]
    pub fn is_attacked(
        &self,
        pieces: &Pieces<W>,
        sq: Square,
        by: Color,
        occ: Bitboard<W>,
        riders: &RiderSets<W>,
    ) -> bool {
        let v = self;
        let c = by.index();
        let mut leapers = v.reverse_leapers[c];
        while leapers != 0 {
            let k = leapers.trailing_zeros() as usize;
            leapers &= leapers - 1;
            if (v.tables[c][k].reverse_capture.leaps[sq.index()] & pieces[by][k]).any() {
                return true;
            }
        }
        let mut slides = riders.slides_active;
        while slides != 0 {
            let i = slides.trailing_zeros() as usize;
            slides &= slides - 1;
            if (v.rider_slides[c][i].1.attack(sq, occ) & riders.by_slide[i]).any() {
                return true;
            }
        }
        let mut walked = riders.walked;
        while walked != 0 {
            let d = walked.trailing_zeros() as usize;
            walked &= walked - 1;
            let candidates = riders.by_dir[d] & v.dirs[d].ray[sq.index()];
            if candidates.any() && (v.dir_attack(d, sq, occ) & candidates).any() {
                return true;
            }
        }
        let mut complex = v.reverse_complex[c];
        while complex != 0 {
            let k = complex.trailing_zeros() as usize;
            complex &= complex - 1;
            if (v.reach(&v.tables[c][k].reverse_capture, sq, occ) & pieces[by][k]).any() {
                return true;
            }
        }
        false
    }

    /// Attack along one direction to the first blocker (inclusive).
    #[inline]
    pub fn dir_attack(&self, d: usize, sq: Square, occ: Bitboard<W>) -> Bitboard<W> {
        let dir = &self.dirs[d];
        let ray = dir.ray[sq.index()];
        let blockers = ray & occ;
        let nearest = if dir.ascending {
            blockers.lowest()
        } else {
            blockers.highest()
        };
        match nearest {
            Some(b) => ray & !dir.ray[b.index()],
            None => ray,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::Registry;

    #[test]
    fn hash_is_incremental() {
        let v = Registry::builtin().get("chess").unwrap();
        let mut pos = Position::<u128>::start(v);
        for uci in [
            "e2e4", "d7d5", "e4d5", "g8f6", "f1b5", "c7c6", "g1f3", "c6b5", "e1g1",
        ] {
            let mv = crate::notation::parse_uci(&pos, uci).unwrap();
            pos = pos.play(mv);
            assert_eq!(pos.hash, pos.compute_hash(), "after {uci}");
        }
    }

    #[test]
    fn setup_errors_are_typed() {
        let v = Registry::builtin().get("chess").unwrap();
        let err = |fen: &str| match crate::fen::parse_position::<u128>(v, fen) {
            Err(crate::fen::FenError::Position(e)) => e,
            other => panic!("{fen}: expected a position error, got {other:?}"),
        };
        assert_eq!(
            err("8/8/8/8/8/8/8/K7 w - - 0 1"),
            PositionError::MissingKing(Color::Black)
        );
        assert_eq!(
            err("k7/8/8/8/8/8/8/KK6 w - - 0 1"),
            PositionError::TooManyKings(Color::White)
        );
        assert!(matches!(
            err("k6P/8/8/8/8/8/8/K7 w - - 0 1"),
            PositionError::PawnOnLastRank { .. }
        ));
        assert_eq!(
            err("k6R/8/8/8/8/8/8/K7 w - - 0 1"),
            PositionError::OppositeCheck(Color::Black)
        );
        assert!(matches!(
            err("4k3/8/8/8/8/8/8/4K2N w H - 0 1"),
            PositionError::BadCastling(_)
        ));
        assert!(matches!(
            err("k7/8/8/8/8/8/8/K7 w - e3 0 1"),
            PositionError::BadEnPassant(_)
        ));
    }
}
