//! The crowd family: `safety-in-numbers` (Betza's Crowd Chess 1).
//!
//! Turn-based chess where a square may hold any number of pieces of either
//! colour; two or more make a crowd, and nothing is ever captured on a
//! crowd. Everything here follows `docs/rules/rulings.md#safety-in-numbers`:
//!
//! - to an empty square a piece moves as usual (move power);
//! - to a square with one enemy piece it captures with its capture power;
//!   or, if its move and capture powers differ (the pawn; any Betza piece
//!   with separate `m`/`c` parts) and its move power reaches, it joins the
//!   enemy and makes a crowd;
//! - to a square with one friendly piece: never;
//! - to a crowd holding at least one enemy it joins, with either power;
//! - to an all-friendly crowd: never;
//! - crowds block riders and lame leaps like single pieces; a pawn that
//!   joins a crowd with its double step cannot be taken en passant;
//! - a king is in check only when it stands alone and an enemy capture
//!   power reaches it; a move may not leave one's own king in check.
//!
//! "Powers differ" means the compiled move and capture sets differ
//! (`PieceTables::symmetric_modes` is false).
//!
//! A move leaving a square on which the mover has pieces of several kinds
//! says which with [`Special::FromCrowd`]. When both powers reach a lone
//! enemy, the plain move captures and [`Special::Join`] (naming the kind
//! the same way if needed) joins; a join that is the only way there (the
//! pawn's straight step) stays a plain move. Every other move is an
//! ordinary [`Move`].
//!
//! Legal moves come by masks, as in the turn-based generator (see
//! `CrowdPosition::generate`): the crowd rules make a king's safety a
//! matter of checks and pins once its own square is accounted for. Only
//! variants with lame or range-limited captures, and an en passant capture
//! by a royal piece, play each move and look at the king.
//!
//! A crowd is stored as presence bits plus `Extras` (the second and later
//! pieces of one colour and kind on a square), inline, so copy-make never
//! allocates.
//!
//! FEN: ordinary FEN plus `(PPn)` for a crowd (two or more letters, any
//! colours, any order; written white first, then by the variant's piece order).

use std::fmt;

use crate::geometry::{Bitboard, Square};
use crate::position::{Pieces, RiderSets};
use crate::types::{ByColor, Color, EnPassant, Kind, Move, Piece, Special};
use crate::variant::{Variant, MAX_DIRECTIONS};

/// A position of the crowd family.
pub struct CrowdPosition {
    pub(crate) variant: &'static Variant,
    /// A bit wherever at least one piece of that colour and kind stands
    /// (alone or in a crowd): what attacks and blocks.
    pub(crate) presence: Pieces,
    pub(crate) occupied: Bitboard,
    pub(crate) crowd_squares: Bitboard,
    /// Second and later pieces of one colour and kind on a square (a
    /// presence bit counts the first): with `presence`, every crowd.
    pub(crate) extras: Extras,
    pub(crate) side: Color,
    pub(crate) castling: ByColor<Bitboard>,
    pub(crate) en_passant: Option<EnPassant>,
    pub(crate) halfmove_clock: u32,
    pub(crate) fullmove_number: u32,
    pub(crate) hash: u64,
}

// By hand: every field but the extras is copied bitwise, which the
// derived field-by-field clone did not inline (4% of crowd perft).
impl Clone for CrowdPosition {
    #[inline]
    fn clone(&self) -> CrowdPosition {
        CrowdPosition {
            extras: self.extras.clone(),
            ..*self
        }
    }
}

/// `more` pieces of `piece` on `sq` beyond the one its presence bit counts.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Extra {
    sq: Square,
    piece: Piece,
    more: u32,
}

impl Extra {
    fn key(&self) -> (u8, Color, Kind) {
        (self.sq.0, self.piece.color, self.piece.kind)
    }
}

const INLINE_EXTRAS: usize = 8;
const NO_EXTRA: Extra = Extra {
    sq: Square(0),
    piece: Piece {
        color: Color::White,
        kind: Kind(0),
    },
    more: 0,
};

/// The extras sorted by square, colour and kind. Inline while few (always,
/// in games from the usual start), so copy-make never allocates.
#[derive(Clone, Debug)]
pub(crate) enum Extras {
    Inline {
        len: u8,
        items: [Extra; INLINE_EXTRAS],
    },
    Spilled(Vec<Extra>),
}

impl Extras {
    pub(crate) const NONE: Extras = Extras::Inline {
        len: 0,
        items: [NO_EXTRA; INLINE_EXTRAS],
    };

    #[inline]
    fn as_slice(&self) -> &[Extra] {
        match self {
            Extras::Inline { len, items } => &items[..*len as usize],
            Extras::Spilled(v) => v,
        }
    }

    fn find(&self, sq: Square, piece: Piece) -> Result<usize, usize> {
        self.as_slice()
            .binary_search_by_key(&(sq.0, piece.color, piece.kind), Extra::key)
    }

    /// How many more of `piece` stand on `sq` than its presence bit says.
    #[inline]
    fn more(&self, sq: Square, piece: Piece) -> u32 {
        if self.as_slice().is_empty() {
            return 0;
        }
        self.find(sq, piece).map_or(0, |i| self.as_slice()[i].more)
    }

    fn add(&mut self, sq: Square, piece: Piece) {
        match self.find(sq, piece) {
            Ok(i) => match self {
                Extras::Inline { items, .. } => items[i].more += 1,
                Extras::Spilled(v) => v[i].more += 1,
            },
            Err(i) => {
                let e = Extra { sq, piece, more: 1 };
                match self {
                    Extras::Inline { len, items } if (*len as usize) < INLINE_EXTRAS => {
                        let n = *len as usize;
                        items.copy_within(i..n, i + 1);
                        items[i] = e;
                        *len += 1;
                    }
                    Extras::Inline { items, .. } => {
                        let mut v = items.to_vec();
                        v.insert(i, e);
                        *self = Extras::Spilled(v);
                    }
                    Extras::Spilled(v) => v.insert(i, e),
                }
            }
        }
    }

    /// Takes one extra `piece` off `sq`; false if there was none.
    fn take(&mut self, sq: Square, piece: Piece) -> bool {
        let Ok(i) = self.find(sq, piece) else {
            return false;
        };
        match self {
            Extras::Inline { len, items } => {
                items[i].more -= 1;
                if items[i].more == 0 {
                    items.copy_within(i + 1..*len as usize, i);
                    *len -= 1;
                }
            }
            Extras::Spilled(v) => {
                v[i].more -= 1;
                if v[i].more == 0 {
                    v.remove(i);
                }
            }
        }
        true
    }

    /// From members listed per square (each list sorted).
    pub(crate) fn from_groups(groups: &[(Square, Vec<Piece>)]) -> Extras {
        let mut out = Extras::NONE;
        let mut groups: Vec<&(Square, Vec<Piece>)> = groups.iter().collect();
        groups.sort_by_key(|(s, _)| *s);
        for (sq, members) in groups {
            let mut seen: Vec<Piece> = Vec::new();
            for &p in members {
                if seen.contains(&p) {
                    out.add(*sq, p);
                } else {
                    seen.push(p);
                }
            }
        }
        out
    }
}

impl PartialEq for Extras {
    fn eq(&self, other: &Extras) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl Eq for Extras {}

impl PartialEq for CrowdPosition {
    fn eq(&self, other: &CrowdPosition) -> bool {
        std::ptr::eq(self.variant, other.variant)
            && self.same_position(other)
            && self.halfmove_clock == other.halfmove_clock
            && self.fullmove_number == other.fullmove_number
    }
}

impl Eq for CrowdPosition {}

impl fmt::Debug for CrowdPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "CrowdPosition({} {})", self.variant.id(), self.to_fen())
    }
}

pub(crate) fn sort_members(members: &mut [Piece]) {
    members.sort_by_key(|p| (p.color, p.kind));
}

impl CrowdPosition {
    /// The variant's start position.
    pub fn start(variant: &'static Variant) -> CrowdPosition {
        CrowdPosition::from_fen(variant, &variant.spec.start_fen)
            .expect("start position validated at load")
    }

    #[inline]
    pub fn variant(&self) -> &'static Variant {
        self.variant
    }
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }
    /// Every occupied square, single pieces and crowds alike.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.occupied
    }
    /// Squares holding two or more pieces.
    #[inline]
    pub fn crowd_squares(&self) -> Bitboard {
        self.crowd_squares
    }
    /// The crowds, by square, with their members (white first, then by kind).
    pub fn crowds(&self) -> impl Iterator<Item = (Square, Vec<Piece>)> + '_ {
        self.crowd_squares
            .into_iter()
            .map(|sq| (sq, self.contents(sq)))
    }
    /// Squares where at least one piece of `color` and `kind` stands.
    #[inline]
    pub fn presence(&self, color: Color, kind: Kind) -> Bitboard {
        self.presence[color][kind.index()]
    }
    /// Squares where at least one piece of `color` stands.
    pub fn by_color(&self, color: Color) -> Bitboard {
        self.presence[color]
            .iter()
            .fold(Bitboard::EMPTY, |a, &b| a | b)
    }
    pub fn castling_rights(&self, color: Color) -> Bitboard {
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
    /// Zobrist key of everything that matters for repetition, crowds included.
    pub fn hash(&self) -> u64 {
        self.hash
    }
    pub fn king(&self, color: Color) -> Square {
        self.presence(color, self.variant.royal)
            .lowest()
            .expect("a position always has both kings")
    }

    /// Everything on `sq` (white first, then by kind).
    pub fn contents(&self, sq: Square) -> Vec<Piece> {
        self.members(sq).collect()
    }

    /// Everything on `sq`, white first, then by kind, each piece as often
    /// as it stands there.
    pub fn members(&self, sq: Square) -> impl Iterator<Item = Piece> + '_ {
        let kinds = self.variant.kinds.len();
        Color::ALL.into_iter().flat_map(move |color| {
            (0..kinds)
                .filter(move |&k| self.presence[color][k].contains(sq))
                .flat_map(move |k| {
                    let piece = Piece {
                        color,
                        kind: Kind(k as u8),
                    };
                    std::iter::repeat_n(piece, 1 + self.extras.more(sq, piece) as usize)
                })
        })
    }

    /// How many pieces stand on `sq`.
    fn count_at(&self, sq: Square) -> usize {
        if !self.crowd_squares.contains(sq) {
            return self.occupied.contains(sq) as usize;
        }
        self.members(sq).count()
    }

    /// The piece on `sq` if it stands there alone.
    pub fn single(&self, sq: Square) -> Option<Piece> {
        if !self.occupied.contains(sq) || self.crowd_squares.contains(sq) {
            return None;
        }
        Color::ALL.into_iter().find_map(|color| {
            (0..self.variant.kinds.len())
                .find(|&k| self.presence[color][k].contains(sq))
                .map(|k| Piece {
                    color,
                    kind: Kind(k as u8),
                })
        })
    }

    /// The kinds of `color` on `sq`, each once, lowest first.
    pub fn kinds_at(&self, color: Color, sq: Square) -> impl Iterator<Item = Kind> + Clone + '_ {
        let presence = &self.presence[color];
        (0..self.variant.kinds.len())
            .filter(move |&k| presence[k].contains(sq))
            .map(|k| Kind(k as u8))
    }

    /// The kind of `color` on `sq` if there is exactly one (a loop the
    /// engine runs for every move it orders).
    fn only_kind(&self, color: Color, sq: Square) -> Option<Kind> {
        let crowd = self.crowd_squares.contains(sq);
        let mut found = None;
        for k in 0..self.variant.kinds.len() {
            if self.presence[color][k].contains(sq) {
                if found.is_some() {
                    return None;
                }
                found = Some(Kind(k as u8));
                if !crowd {
                    break;
                }
            }
        }
        found
    }

    /// Number of pieces on the board.
    pub fn piece_count(&self) -> usize {
        let present: u32 = self
            .presence
            .iter()
            .flat_map(|kinds| kinds.iter())
            .map(|b| b.count())
            .sum();
        let more: u32 = self.extras.as_slice().iter().map(|e| e.more).sum();
        (present + more) as usize
    }

    /// Takes one `piece` off `sq`, keeping the hash.
    fn remove_piece(&mut self, sq: Square, piece: Piece) {
        // A lone piece: no crowd to touch (the common case, kept cheap).
        if !self.crowd_squares.contains(sq) {
            let presence = &mut self.presence[piece.color][piece.kind.index()];
            debug_assert!(presence.contains(sq), "the piece to remove stands there");
            *presence = presence.without(sq);
            self.occupied = self.occupied.without(sq);
            self.hash ^= self.variant.zobrist.piece(piece.color, piece.kind, sq);
            return;
        }
        self.hash ^= self.square_key(sq);
        if !self.extras.take(sq, piece) {
            let presence = &mut self.presence[piece.color][piece.kind.index()];
            debug_assert!(presence.contains(sq), "the piece to remove stands there");
            *presence = presence.without(sq);
        }
        if self.count_at(sq) < 2 {
            self.crowd_squares = self.crowd_squares.without(sq);
        }
        self.hash ^= self.square_key(sq);
    }

    /// Puts `piece` on `sq`, keeping the hash.
    fn add_piece(&mut self, sq: Square, piece: Piece) {
        if !self.occupied.contains(sq) {
            self.presence[piece.color][piece.kind.index()] |= sq.bit();
            self.occupied = self.occupied.with(sq);
            self.hash ^= self.variant.zobrist.piece(piece.color, piece.kind, sq);
            return;
        }
        self.hash ^= self.square_key(sq);
        let presence = &mut self.presence[piece.color][piece.kind.index()];
        if presence.contains(sq) {
            self.extras.add(sq, piece);
        } else {
            *presence |= sq.bit();
        }
        self.crowd_squares = self.crowd_squares.with(sq);
        self.hash ^= self.square_key(sq);
    }

    /// The part of the hash that says what stands on `sq`.
    fn square_key(&self, sq: Square) -> u64 {
        let keys = &self.variant.zobrist;
        if !self.crowd_squares.contains(sq) {
            return self
                .single(sq)
                .map_or(0, |p| keys.piece(p.color, p.kind, sq));
        }
        let mut h = 0;
        for color in Color::ALL {
            for kind in self.kinds_at(color, sq) {
                let n = 1 + self.extras.more(sq, Piece { color, kind });
                // Crowd members are told apart from a lone piece and by how
                // many of them stand there.
                let key = keys.piece(color, kind, sq);
                h ^= key.rotate_left(n.wrapping_mul(7)) ^ 0x9e37_79b9_7f4a_7c15u64.rotate_left(n);
            }
        }
        h
    }

    pub(crate) fn compute_hash(&self) -> u64 {
        let v = self.variant;
        let keys = &v.zobrist;
        let mut h = 0;
        for color in Color::ALL {
            for k in 0..v.kinds.len() {
                let kind = Kind(k as u8);
                for sq in self.presence[color][k] & !self.crowd_squares {
                    h ^= keys.piece(color, kind, sq);
                }
            }
        }
        for sq in self.crowd_squares {
            h ^= self.square_key(sq);
        }
        for color in Color::ALL {
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

    /// Same pieces, crowds, side, rights and en passant: equal for repetition.
    pub fn same_position(&self, other: &CrowdPosition) -> bool {
        self.hash == other.hash
            && self.presence == other.presence
            && self.crowd_squares == other.crowd_squares
            && self.extras == other.extras
            && self.side == other.side
            && self.castling == other.castling
            && self.en_passant == other.en_passant
    }

    // ---- Attacks and check ----------------------------------------------

    /// True if a capture power of some piece of `by` (alone or in a crowd)
    /// reaches `sq`, with crowds and single pieces blocking.
    pub fn is_attacked(&self, sq: Square, by: Color) -> bool {
        self.is_attacked_with(sq, by, self.occupied)
    }

    fn is_attacked_with(&self, sq: Square, by: Color, occ: Bitboard) -> bool {
        let v = self.variant;
        v.boards.is_attacked(
            &self.presence,
            sq,
            by,
            occ,
            &v.boards.rider_sets(&self.presence, by),
        )
    }

    /// A king is in check when it stands alone and is attacked.
    pub fn king_in_check(&self, color: Color) -> bool {
        let king = self.king(color);
        !self.crowd_squares.contains(king) && self.is_attacked(king, color.other())
    }

    /// The side to move is in check.
    pub fn is_check(&self) -> bool {
        self.king_in_check(self.side)
    }

    // ---- Moves ----------------------------------------------------------

    /// The kind a move moves (the king for castling).
    pub fn mover_kind(&self, mv: Move) -> Option<Kind> {
        let us = self.side;
        let v = self.variant;
        match mv.special {
            Special::Castle { .. } => Some(v.royal),
            Special::EnPassant => self
                .kinds_at(us, mv.from)
                .into_iter()
                .find(|&k| v.boards.tables(us, k).en_passant[mv.from.index()].contains(mv.to)),
            special => match special.named_kind() {
                Some(k) => self.presence(us, k).contains(mv.from).then_some(k),
                None => self.only_kind(us, mv.from),
            },
        }
    }

    /// Moves of the side to move that follow the crowd rules, before the
    /// king-safety test.
    pub fn pseudo_legal_moves(&self) -> Vec<Move> {
        let v = self.variant;
        let us = self.side;
        let them = us.other();
        let occ = self.occupied;
        let promo_options: Vec<Option<Kind>> =
            v.promotion_kinds.iter().copied().map(Some).collect();
        let theirs = self.by_color(them);
        let mut out = Vec::new();
        for from in self.by_color(us) {
            let kinds = self.kinds_at(us, from);
            let tag = kinds.clone().nth(1).is_some();
            for kind in kinds {
                let t = v.boards.tables(us, kind);
                let quiet = v.boards.reach(&t.quiet, from, occ);
                let capture = v.boards.reach(&t.capture, from, occ);
                let named = tag.then_some(kind);
                let plain = named.map_or(Special::None, Special::FromCrowd);
                let both = if t.symmetric_modes {
                    Bitboard::EMPTY
                } else {
                    quiet & capture
                };
                for to in quiet | capture {
                    let lone = occ.contains(to) && !self.crowd_squares.contains(to);
                    // One piece: capture it, or join it by move power; a crowd:
                    // join it if an enemy stands there.
                    let ok = if !occ.contains(to) {
                        quiet.contains(to)
                    } else {
                        theirs.contains(to)
                    };
                    if !ok {
                        continue;
                    }
                    // Both powers reach a lone enemy: the plain move captures, `Join` joins.
                    let specials: &[Special] = if lone && both.contains(to) {
                        &[plain, Special::Join(named)]
                    } else {
                        &[plain]
                    };
                    let promotions: &[Option<Kind>] = if v.kinds[kind.index()].pawn
                        && v.boards.promotion_zone[us.index()].contains(to)
                    {
                        &promo_options
                    } else {
                        &[None]
                    };
                    for &promotion in promotions {
                        for &special in specials {
                            out.push(Move {
                                from,
                                to,
                                promotion,
                                special,
                            });
                        }
                    }
                }
            }
        }
        self.en_passant_moves(&mut out);
        self.castling_moves(self.is_check(), |mv| out.push(mv));
        out
    }

    fn en_passant_moves(&self, out: &mut Vec<Move>) {
        let Some(ep) = self.en_passant else { return };
        let v = self.variant;
        let us = self.side;
        for k in 0..v.kinds.len() {
            let from = v.boards.tables(us, Kind(k as u8)).en_passant_from[ep.target.index()]
                & self.presence[us][k];
            for from in from {
                out.push(Move {
                    from,
                    to: ep.target,
                    promotion: None,
                    special: Special::EnPassant,
                });
            }
        }
    }

    /// Castling moves whose squares the king may cross: legal as they come
    /// (the king lands alone where the path test looked, on the board as it
    /// will be).
    fn castling_moves(&self, in_check: bool, mut each: impl FnMut(Move)) {
        let us = self.side;
        let rights = self.castling[us];
        if rights.is_empty() || in_check {
            return;
        }
        let v = self.variant;
        crate::movegen::for_each_castling(
            v,
            self.king(us),
            rights,
            self.occupied,
            |mv, path, after| {
                // A crowd the king or partner leaves is still occupied.
                let after = after | self.crowd_squares;
                if !path
                    .filter_squares(|s| self.is_attacked_with(s, us.other(), after))
                    .any()
                {
                    each(mv);
                }
            },
        );
    }

    /// All legal moves of the side to move.
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut out = Vec::with_capacity(64);
        self.generate(&mut Collect {
            out: &mut out,
            noisy_only: false,
        });
        out
    }

    /// The legal moves into `out`; with `noisy_only`, only captures and
    /// promotions (in the order of [`Self::legal_moves`]).
    pub fn legal_moves_into(&self, out: &mut Vec<Move>, noisy_only: bool) {
        self.generate(&mut Collect { out, noisy_only });
    }

    /// Number of legal moves, counted without building them.
    pub fn count_legal_moves(&self) -> u64 {
        let mut count = Count(0);
        self.generate(&mut count);
        count.0
    }

    /// [`Self::legal_moves`] with every pseudo-legal move played and the
    /// king looked at: the reference the property tests compare with.
    #[doc(hidden)]
    pub fn legal_moves_each_tried(&self) -> Vec<Move> {
        let us = self.side;
        let mut moves = self.pseudo_legal_moves();
        moves.retain(|&mv| !self.play(mv).king_in_check(us));
        moves
    }

    pub fn is_legal(&self, mv: Move) -> bool {
        self.legal_moves().contains(&mv)
    }

    /// Legal moves by masks, as the turn-based generator does, in the order
    /// of [`Self::pseudo_legal_moves`]. A king is in check only alone, a
    /// join changes no square's occupancy and captures nothing, and a
    /// piece leaving a crowd leaves the square occupied, so for a piece
    /// other than the king (see [`Guard`]):
    /// - king alone: answer a check by capturing or blocking, never by a
    ///   join; a lone piece pinned to the king stays on the pin's line (a
    ///   piece leaving a crowd is never pinned);
    /// - king in a crowd: anything goes, except for the one piece of ours
    ///   sharing it, whose leaving leaves the king alone: it must then
    ///   answer the checks the king would be in.
    ///
    /// The king may join anything, and steps elsewhere to squares not
    /// attacked (its own square emptied if it stood alone).
    fn generate<S: CrowdSink>(&self, sink: &mut S) {
        let v = self.variant;
        let us = self.side;
        if v.needs_slow_legality || v.boards.reverse_complex[us.other().index()] != 0 {
            // Lame or range-limited captures: checks no mask describes, so
            // each move is played and the king looked at.
            let zone = v.boards.promotion_zone[us.index()];
            for mv in self.legal_moves_each_tried() {
                let noisy =
                    mv.promotion.is_some() && zone.contains(mv.to) || self.captured(mv).is_some();
                sink.single(mv, noisy);
            }
            return;
        }
        let them = us.other();
        let occ = self.occupied;
        let theirs = self.by_color(them);
        let lone_enemies = theirs & !self.crowd_squares;
        let enemy_crowds = theirs & self.crowd_squares;
        let king = self.king(us);
        let riders = v.boards.rider_sets(&self.presence, them);
        let guard = Guard::new(self, king, &riders);
        let lifted = if self.crowd_squares.contains(king) {
            occ
        } else {
            occ.without(king)
        };
        let mut piece_moves = |from: Square, kind: Kind, several: bool| {
            let t = v.boards.tables(us, kind);
            let quiet = v.boards.reach(&t.quiet, from, occ);
            let capture = if t.symmetric_modes {
                quiet
            } else {
                v.boards.reach(&t.capture, from, occ)
            };
            let steps = quiet & !occ;
            let captures = capture & lone_enemies;
            // Joins: a lone enemy by move power alone (a plain move), or by
            // move power where capture power also reaches (`Special::Join`);
            // a crowd with an enemy by either power.
            let joins = (quiet & !capture & lone_enemies) | ((quiet | capture) & enemy_crowds);
            let join_specials = if t.symmetric_modes {
                Bitboard::EMPTY
            } else {
                quiet & capture & lone_enemies
            };
            let (allowed, may_join) = if kind == v.royal {
                let safe = (steps | captures).filter_squares(|to| {
                    !v.boards
                        .is_attacked(&self.presence, to, them, lifted, &riders)
                });
                (safe, true)
            } else {
                guard.allowed(from)
            };
            let (joins, join_specials) = if may_join {
                (joins, join_specials)
            } else {
                (Bitboard::EMPTY, Bitboard::EMPTY)
            };
            let captures = captures & allowed;
            sink.piece_moves(
                self,
                from,
                kind,
                several,
                ((steps & allowed) | captures | joins, join_specials),
                captures,
            );
        };
        if S::IN_ORDER {
            for from in self.by_color(us) {
                match self.only_kind(us, from) {
                    Some(kind) => piece_moves(from, kind, false),
                    None => {
                        for kind in self.kinds_at(us, from) {
                            piece_moves(from, kind, true);
                        }
                    }
                }
            }
        } else {
            for k in 0..v.kinds.len() {
                for from in self.presence[us][k] {
                    piece_moves(from, Kind(k as u8), false);
                }
            }
        }
        if let Some(ep) = self.en_passant {
            for k in 0..v.kinds.len() {
                let from = v.boards.tables(us, Kind(k as u8)).en_passant_from[ep.target.index()]
                    & self.presence[us][k];
                for from in from {
                    let mv = Move {
                        from,
                        to: ep.target,
                        promotion: None,
                        special: Special::EnPassant,
                    };
                    if self.en_passant_is_safe(mv, ep) {
                        sink.single(mv, true);
                    }
                }
            }
        }
        self.castling_moves(guard.in_check, |mv| sink.single(mv, false));
    }

    /// Whether `mv`, an en passant capture, leaves the king safe: told from
    /// the squares it empties and fills.
    fn en_passant_is_safe(&self, mv: Move, ep: EnPassant) -> bool {
        let v = self.variant;
        let us = self.side;
        let them = us.other();
        let king = self.king(us);
        if self.mover_kind(mv) == Some(v.royal) {
            // A royal that takes en passant (no built-in variant has one):
            // played and looked at.
            return !self.play(mv).king_in_check(us);
        }
        let alone_after =
            !self.crowd_squares.contains(king) || (mv.from == king && self.count_at(king) == 2);
        if !alone_after {
            return true;
        }
        let mut pieces = self.presence;
        let mut occ = self.occupied.with(mv.to);
        if let Some(q) = self.single(ep.victim) {
            pieces[q.color][q.kind.index()] = pieces[q.color][q.kind.index()].without(ep.victim);
            occ = occ.without(ep.victim);
        }
        if !self.crowd_squares.contains(mv.from) {
            occ = occ.without(mv.from);
        }
        !v.boards.is_attacked(
            &pieces,
            king,
            them,
            occ,
            &v.boards.rider_sets(&pieces, them),
        )
    }

    /// Plays a legal move and returns the new position.
    pub fn play(&self, mv: Move) -> CrowdPosition {
        let v = self.variant;
        let keys = &v.zobrist;
        let us = self.side;
        let them = us.other();
        let kind = self
            .mover_kind(mv)
            .expect("a legal move names a piece of the side to move");
        let mut p = self.clone();
        if let Some(ep) = p.en_passant.take() {
            p.hash ^= keys.en_passant(ep.target);
        }
        let mut reset_clock = v.kinds[kind.index()].pawn;
        let mut lost = [Bitboard::EMPTY; 2];
        match mv.special {
            Special::Castle { rook_from, rook_to } => {
                let partner = (0..v.kinds.len())
                    .find(|&k| {
                        v.castling_partner_kinds >> k & 1 != 0
                            && self.presence[us][k].contains(rook_from)
                    })
                    .map(|k| Kind(k as u8))
                    .expect("castling partner present");
                p.remove_piece(mv.from, Piece { color: us, kind });
                p.remove_piece(
                    rook_from,
                    Piece {
                        color: us,
                        kind: partner,
                    },
                );
                p.add_piece(mv.to, Piece { color: us, kind });
                p.add_piece(
                    rook_to,
                    Piece {
                        color: us,
                        kind: partner,
                    },
                );
            }
            _ => {
                if let Some((sq, q)) = self.victim(mv, kind) {
                    p.remove_piece(sq, q);
                    lost[them.index()] |= sq.bit();
                    reset_clock = true;
                }
                p.remove_piece(mv.from, Piece { color: us, kind });
                p.add_piece(
                    mv.to,
                    Piece {
                        color: us,
                        kind: mv.promotion.unwrap_or(kind),
                    },
                );
            }
        }
        // The king's move spends both rights; a partner's move spends its own
        // (another piece leaving the partner's crowd spends nothing).
        if kind == v.royal {
            lost[us.index()] = Bitboard(u128::MAX);
        } else if v.castling_partner_kinds >> kind.0 & 1 != 0 {
            lost[us.index()] |= mv.from.bit();
        }
        for (rights, lost) in p.castling.iter_mut().zip(lost) {
            for sq in *rights & lost {
                p.hash ^= keys.castling(sq);
            }
            *rights &= !lost;
        }
        p.side = them;
        p.hash ^= keys.black_to_move;
        p.halfmove_clock = if reset_clock {
            0
        } else {
            self.halfmove_clock + 1
        };
        if us == Color::Black {
            p.fullmove_number += 1;
        }
        // A double step that lands alone may be answered en passant.
        let double = v.kinds[kind.index()].pawn
            && mv.promotion.is_none()
            && v.boards.tables(us, kind).quiet.lame[mv.from.index()]
                .iter()
                .any(|&(to, _)| to == mv.to);
        if double && p.single(mv.to).is_some() {
            let back = if v.shape.rank(mv.to) > v.shape.rank(mv.from) {
                -1
            } else {
                1
            };
            if let Some(target) = v
                .shape
                .offset(mv.to, 0, back)
                .filter(|t| !p.occupied.contains(*t))
            {
                p.en_passant = p.capturable_en_passant(EnPassant {
                    target,
                    victim: mv.to,
                });
                if let Some(ep) = p.en_passant {
                    p.hash ^= keys.en_passant(ep.target);
                }
            }
        }
        debug_assert_eq!(p.hash, p.compute_hash(), "{:?} {:?}", self, mv);
        p
    }

    /// Passes the move (for an engine's null-move search); see [`crate::Position::play_null`].
    pub fn play_null(&self) -> CrowdPosition {
        let keys = &self.variant.zobrist;
        let mut p = self.clone();
        if let Some(ep) = p.en_passant.take() {
            p.hash ^= keys.en_passant(ep.target);
        }
        p.side = self.side.other();
        p.hash ^= keys.black_to_move;
        p.halfmove_clock += 1;
        debug_assert_eq!(p.hash, p.compute_hash());
        p
    }

    /// Keeps an en passant square only if the side to move can legally use it.
    pub(crate) fn capturable_en_passant(&self, ep: EnPassant) -> Option<EnPassant> {
        let v = self.variant;
        let us = self.side;
        let with = CrowdPosition {
            en_passant: Some(ep),
            ..self.clone()
        };
        (0..v.kinds.len())
            .flat_map(|k| {
                v.boards.tables(us, Kind(k as u8)).en_passant_from[ep.target.index()]
                    & self.presence[us][k]
            })
            .any(|from| {
                let mv = Move {
                    from,
                    to: ep.target,
                    promotion: None,
                    special: Special::EnPassant,
                };
                with.en_passant_is_safe(mv, ep)
            })
            .then_some(ep)
    }

    /// The game is over: `Some(winner)` for checkmate, `Some(None)` for stalemate.
    pub fn terminal(&self) -> Option<Option<Color>> {
        if !self.legal_moves().is_empty() {
            return None;
        }
        Some(if self.is_check() {
            Some(self.side.other())
        } else {
            None
        })
    }

    /// No sequence of legal moves can mate (a conservative claim, reasoned
    /// in `docs/rules/safety-in-numbers.md`): plain kings, bare or with one
    /// `minor` of equal move and capture powers off its own king's square.
    /// Why: a lone king never checks a lone king, and one checking from a
    /// crowd can be joined; with no split powers no crowd ever pairs a king
    /// with its minor (a king cannot leave the enemy king's crowd); a king
    /// next to a crowd joins it, so a mate would have no crowd at all and be
    /// a mate of chess, which `minor` rules out.
    pub fn insufficient_material(&self) -> bool {
        let v = self.variant;
        if self.piece_count() > 3 || !Color::ALL.into_iter().all(|c| royal_is_king(v, c)) {
            return false;
        }
        for color in Color::ALL {
            for k in (0..v.kinds.len())
                .map(|k| Kind(k as u8))
                .filter(|&k| k != v.royal)
            {
                if let Some(sq) = self.presence(color, k).lowest() {
                    return v.kinds[k.index()].minor
                        && v.boards.tables(color, k).symmetric_modes
                        && !self.presence(color, v.royal).contains(sq);
                }
            }
        }
        true
    }
}

impl CrowdPosition {
    /// The piece a move captures, if any (never one in a crowd).
    pub fn captured(&self, mv: Move) -> Option<Piece> {
        self.victim(mv, self.mover_kind(mv)?).map(|(_, q)| q)
    }

    /// Where and what `mv`, moving a piece of `kind`, captures: a lone enemy
    /// its capture power reaches, unless the move joins it.
    fn victim(&self, mv: Move, kind: Kind) -> Option<(Square, Piece)> {
        let v = self.variant;
        let us = self.side;
        match (mv.special, self.en_passant) {
            (Special::Castle { .. } | Special::Join(_), _) => None,
            (Special::EnPassant, Some(ep)) => self.single(ep.victim).map(|q| (ep.victim, q)),
            _ => self
                .single(mv.to)
                .filter(|q| {
                    q.color != us
                        && v.boards
                            .reach(&v.boards.tables(us, kind).capture, mv.from, self.occupied)
                            .contains(mv.to)
                })
                .map(|q| (mv.to, q)),
        }
    }
}

/// The royal piece of `color` moves and captures exactly one step in every
/// direction, like the chess king.
fn royal_is_king(v: &Variant, color: Color) -> bool {
    let t = v.boards.tables(color, v.royal);
    let ring = |sq: Square| {
        (-1..=1)
            .flat_map(|dx| (-1..=1).map(move |dy| (dx, dy)))
            .filter_map(|(dx, dy)| {
                if (dx, dy) == (0, 0) {
                    None
                } else {
                    v.shape.offset(sq, dx, dy)
                }
            })
            .fold(Bitboard::EMPTY, |b, s| b.with(s))
    };
    t.symmetric_modes
        && t.capture.rides.is_empty()
        && v.shape.squares().all(|sq| {
            t.capture.lame[sq.index()].is_empty() && t.capture.leaps[sq.index()] == ring(sq)
        })
}

/// Counts move paths to `depth` plies.
pub fn perft(pos: &CrowdPosition, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal_moves(),
        _ => pos
            .legal_moves()
            .into_iter()
            .map(|mv| perft(&pos.play(mv), depth - 1))
            .sum(),
    }
}

/// What a move of a piece other than the king must do to keep the king
/// safe (see [`CrowdPosition::generate`]).
struct Guard {
    /// Where moves that neither join nor leave the king's square may go.
    target: Bitboard,
    /// Joins are allowed (no check to answer).
    joins: bool,
    pinned: Bitboard,
    pin_rays: [(Square, Bitboard); MAX_DIRECTIONS],
    pins: usize,
    king: Square,
    /// The king shares its square with one piece of ours alone: that
    /// piece's target and joins.
    exit: Option<(Bitboard, bool)>,
    in_check: bool,
}

impl Guard {
    fn new(pos: &CrowdPosition, king: Square, riders: &RiderSets) -> Guard {
        let v = pos.variant;
        let occ = pos.occupied;
        let mut guard = Guard {
            target: Bitboard(u128::MAX),
            joins: true,
            pinned: Bitboard::EMPTY,
            pin_rays: [(Square(0), Bitboard::EMPTY); MAX_DIRECTIONS],
            pins: 0,
            king,
            exit: None,
            in_check: false,
        };
        if pos.crowd_squares.contains(king) {
            if pos.count_at(king) == 2 {
                guard.exit = Some(match evasions(pos, king, riders) {
                    None => (Bitboard(u128::MAX), true),
                    Some(target) => (target, false),
                });
            }
            return guard;
        }
        if let Some(target) = evasions(pos, king, riders) {
            guard.target = target;
            guard.joins = false;
            guard.in_check = true;
        }
        // Pins: a lone piece of ours, alone between the king and a rider.
        let own_lone = pos.by_color(pos.side) & !pos.crowd_squares;
        riders.for_each_pin(&v.boards, king, occ, own_lone, |blocker, ray| {
            guard.pinned = guard.pinned.with(blocker);
            guard.pin_rays[guard.pins] = (blocker, ray);
            guard.pins += 1;
        });
        guard
    }

    /// Where a piece of ours on `from` (not the king) may go by moves that
    /// do not join, and whether it may join.
    #[inline]
    fn allowed(&self, from: Square) -> (Bitboard, bool) {
        if from == self.king {
            if let Some(exit) = self.exit {
                return exit;
            }
        }
        if !self.pinned.contains(from) {
            return (self.target, self.joins);
        }
        // A pinned piece keeps to its line: nothing there to join.
        let ray = self.pin_rays[..self.pins]
            .iter()
            .filter(|(sq, _)| *sq == from)
            .fold(Bitboard(u128::MAX), |m, (_, ray)| m & *ray);
        (self.target & ray, false)
    }
}

/// `None` if the king on `king`, alone, would not be attacked; else the
/// squares where a move that neither joins nor moves the king answers
/// every attack: the attacker (taken) and the squares between it and a
/// riding attacker; none for two attackers.
fn evasions(pos: &CrowdPosition, king: Square, riders: &RiderSets) -> Option<Bitboard> {
    let v = pos.variant;
    let them = pos.side.other();
    let c = them.index();
    let mut leapers = Bitboard::EMPTY;
    let mut kinds = v.boards.reverse_leapers[c];
    while kinds != 0 {
        let k = kinds.trailing_zeros() as usize;
        kinds &= kinds - 1;
        leapers |=
            v.boards.tables[c][k].reverse_capture.leaps[king.index()] & pos.presence[them][k];
    }
    let mut attackers = leapers;
    let mut between = Bitboard::EMPTY;
    let mut active = riders.active;
    while active != 0 {
        let d = active.trailing_zeros() as usize;
        active &= active - 1;
        let dir = &v.boards.dirs[d];
        let candidates = riders.by_dir[d] & dir.ray[king.index()];
        if candidates.is_empty() {
            continue;
        }
        if let Some(rider) = (v.boards.dir_attack(d, king, pos.occupied) & candidates).lowest() {
            attackers = attackers.with(rider);
            between |= dir.ray[king.index()] & !dir.ray[rider.index()] & !rider.bit();
        }
    }
    if attackers.is_empty() {
        None
    } else if attackers.several() {
        Some(Bitboard::EMPTY)
    } else if leapers.any() {
        // A leaper there too (a crowd may hold both): no block helps.
        Some(attackers)
    } else {
        Some(attackers | between)
    }
}

/// Receives the legal moves of a crowd position.
trait CrowdSink {
    /// Moves must come in the order of [`CrowdPosition::pseudo_legal_moves`]
    /// (by square, then kind); a counter need not.
    const IN_ORDER: bool;
    /// Moves of the `kind` on `from` (`several`: the mover has pieces of
    /// several kinds there): plain moves to `dests.0`, [`Special::Join`]
    /// to `dests.1`; `captures`, within `dests.0`, take a piece.
    fn piece_moves(
        &mut self,
        pos: &CrowdPosition,
        from: Square,
        kind: Kind,
        several: bool,
        dests: (Bitboard, Bitboard),
        captures: Bitboard,
    );
    /// One fully described move; `noisy`: a capture or promotion.
    fn single(&mut self, mv: Move, noisy: bool);
}

struct Count(u64);

impl CrowdSink for Count {
    const IN_ORDER: bool = false;
    #[inline]
    fn piece_moves(
        &mut self,
        pos: &CrowdPosition,
        _from: Square,
        kind: Kind,
        _several: bool,
        (plain, joins): (Bitboard, Bitboard),
        _captures: Bitboard,
    ) {
        let v = pos.variant;
        if v.kinds[kind.index()].pawn {
            let zone = v.boards.promotion_zone[pos.side.index()];
            let promoting = (plain & zone).count() + (joins & zone).count();
            let staying = (plain & !zone).count() + (joins & !zone).count();
            self.0 += promoting as u64 * v.promotion_kinds.len() as u64 + staying as u64;
        } else {
            self.0 += (plain.count() + joins.count()) as u64;
        }
    }
    #[inline]
    fn single(&mut self, _mv: Move, _noisy: bool) {
        self.0 += 1;
    }
}

struct Collect<'a> {
    out: &'a mut Vec<Move>,
    noisy_only: bool,
}

impl CrowdSink for Collect<'_> {
    const IN_ORDER: bool = true;
    fn piece_moves(
        &mut self,
        pos: &CrowdPosition,
        from: Square,
        kind: Kind,
        several: bool,
        (plain, joins): (Bitboard, Bitboard),
        captures: Bitboard,
    ) {
        let v = pos.variant;
        let zone = if v.kinds[kind.index()].pawn {
            v.boards.promotion_zone[pos.side.index()]
        } else {
            Bitboard::EMPTY
        };
        let named = several.then_some(kind);
        let plain_special = named.map_or(Special::None, Special::FromCrowd);
        let mut dests = plain | joins;
        if self.noisy_only {
            dests &= zone | captures;
        }
        for to in dests {
            let mut push = |promotion, special| {
                self.out.push(Move {
                    from,
                    to,
                    promotion,
                    special,
                })
            };
            if zone.contains(to) {
                for &promotion in &v.promotion_kinds {
                    if plain.contains(to) {
                        push(Some(promotion), plain_special);
                    }
                    if joins.contains(to) {
                        push(Some(promotion), Special::Join(named));
                    }
                }
            } else {
                if plain.contains(to) {
                    push(None, plain_special);
                }
                if joins.contains(to) && !self.noisy_only {
                    push(None, Special::Join(named));
                }
            }
        }
    }
    fn single(&mut self, mv: Move, noisy: bool) {
        if noisy || !self.noisy_only {
            self.out.push(mv);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::Registry;

    fn sin() -> &'static Variant {
        Registry::builtin().get("safety-in-numbers").unwrap()
    }

    #[test]
    fn start_is_chess_start() {
        let v = sin();
        let pos = CrowdPosition::start(v);
        assert_eq!(
            pos.to_fen(),
            Registry::builtin().get("chess").unwrap().spec.start_fen
        );
        assert_eq!(perft(&pos, 1), 20);
        assert_eq!(perft(&pos, 2), 400);
    }

    #[test]
    fn crowd_fen_round_trips() {
        let v = sin();
        for fen in [
            "rnbq1bnr/pppppppp/8/8/8/5(Kk)2/PPPPPPPP/RNBQ1BNR w - - 0 1",
            "4k3/8/8/3(PPbn)4/8/8/8/4K3 b - - 3 20",
        ] {
            let pos = CrowdPosition::from_fen(v, fen).unwrap();
            assert_eq!(pos.to_fen(), fen);
        }
        // Any order in, canonical order out.
        let pos = CrowdPosition::from_fen(v, "4k3/8/8/3(nPbP)4/8/8/8/4K3 b - - 3 20").unwrap();
        assert_eq!(pos.to_fen(), "4k3/8/8/3(PPbn)4/8/8/8/4K3 b - - 3 20");
        assert!(CrowdPosition::from_fen(v, "4k3/8/8/3(P)4/8/8/8/4K3 w - - 0 1").is_err());
        assert!(CrowdPosition::from_fen(v, "4k3/8/8/3(PK)4/8/8/8/4K3 w - - 0 1").is_err());
    }

    #[test]
    fn double_step_out_of_a_crowd_round_trips_with_en_passant() {
        let v = sin();
        let before = CrowdPosition::from_fen(v, "k7/5(Pp)2/8/4P3/8/8/8/4K3 b - - 0 1").unwrap();
        let mv = before
            .legal_moves()
            .into_iter()
            .find(|m| crate::notation::uci(&before, *m) == "f7f5")
            .expect("f7f5 is legal");
        let after = before.play(mv);
        let fen = after.to_fen();
        assert_eq!(fen, "k7/5P2/8/4Pp2/8/8/8/4K3 w - f6 0 2");
        assert_eq!(CrowdPosition::from_fen(v, &fen).unwrap(), after);
        // Found by random play (crowd_examples).
        let found = "rnk2b2/1p1b1Prp/p7/1B(Pp)(Pp)pp(Pp)q/Q6P/1P5N/P2K1P2/RNB4R w - f6 0 22";
        let pos = CrowdPosition::from_fen(v, found).unwrap();
        assert_eq!(pos.to_fen(), found);
    }

    #[test]
    fn hash_tells_crowds_apart() {
        let v = sin();
        let a = CrowdPosition::from_fen(v, "4k3/8/8/3(PPn)4/8/8/8/4K3 w - - 0 1").unwrap();
        let b = CrowdPosition::from_fen(v, "4k3/8/8/3(Pn)4/8/8/8/4K3 w - - 0 1").unwrap();
        let c = CrowdPosition::from_fen(v, "4k3/8/8/3(Pnn)4/8/8/8/4K3 w - - 0 1").unwrap();
        assert_ne!(a.hash(), b.hash());
        assert_ne!(a.hash(), c.hash());
        assert_ne!(b.hash(), c.hash());
    }
}
