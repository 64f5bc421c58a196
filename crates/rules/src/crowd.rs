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
//! FEN: ordinary FEN plus `(PPn)` for a crowd (two or more letters, any
//! colours, any order; written white first, then by the variant's piece order).

use std::fmt;

use crate::geometry::{Bitboard, Square};
use crate::position::{Pieces, MAX_KINDS};
use crate::types::{ByColor, Color, EnPassant, Kind, Move, Piece, Special};
use crate::variant::Variant;

/// A position of the crowd family.
pub struct CrowdPosition {
    pub(crate) variant: &'static Variant,
    /// A bit wherever at least one piece of that colour and kind stands
    /// (alone or in a crowd): what attacks and blocks.
    pub(crate) presence: Pieces,
    pub(crate) occupied: Bitboard,
    pub(crate) crowd_squares: Bitboard,
    /// Crowds sorted by square; members sorted by colour, then kind.
    pub(crate) crowds: Vec<(Square, Vec<Piece>)>,
    pub(crate) side: Color,
    pub(crate) castling: ByColor<Bitboard>,
    pub(crate) en_passant: Option<EnPassant>,
    pub(crate) halfmove_clock: u32,
    pub(crate) fullmove_number: u32,
    pub(crate) hash: u64,
}

// By hand: every field but the crowds is copied bitwise, which the
// derived field-by-field clone did not inline (4% of crowd perft).
impl Clone for CrowdPosition {
    fn clone(&self) -> CrowdPosition {
        CrowdPosition {
            crowds: self.crowds.clone(),
            ..*self
        }
    }
}

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
    pub fn crowds(&self) -> &[(Square, Vec<Piece>)] {
        &self.crowds
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
        if self.crowd_squares.contains(sq) {
            return self.crowd(sq).to_vec();
        }
        self.single(sq).into_iter().collect()
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

    fn crowd(&self, sq: Square) -> &[Piece] {
        match self.crowds.binary_search_by_key(&sq, |(s, _)| *s) {
            Ok(i) => &self.crowds[i].1,
            Err(_) => &[],
        }
    }

    /// The kinds of `color` on `sq`, each once, lowest first.
    pub fn kinds_at(&self, color: Color, sq: Square) -> impl Iterator<Item = Kind> + Clone + '_ {
        let presence = &self.presence[color];
        (0..self.variant.kinds.len())
            .filter(move |&k| presence[k].contains(sq))
            .map(|k| Kind(k as u8))
    }

    /// Number of pieces on the board.
    pub fn piece_count(&self) -> usize {
        let crowded: usize = self.crowds.iter().map(|(_, m)| m.len()).sum();
        (self.occupied & !self.crowd_squares).count() as usize + crowded
    }

    /// Replaces what stands on `sq`.
    fn set_square(&mut self, sq: Square, mut members: Vec<Piece>) {
        for c in Color::ALL {
            for k in 0..MAX_KINDS {
                self.presence[c][k] = self.presence[c][k].without(sq);
            }
        }
        for p in &members {
            self.presence[p.color][p.kind.index()] |= sq.bit();
        }
        let pos = self.crowds.binary_search_by_key(&sq, |(s, _)| *s);
        self.occupied = if members.is_empty() {
            self.occupied.without(sq)
        } else {
            self.occupied.with(sq)
        };
        if members.len() >= 2 {
            sort_members(&mut members);
            self.crowd_squares = self.crowd_squares.with(sq);
            match pos {
                Ok(i) => self.crowds[i].1 = members,
                Err(i) => self.crowds.insert(i, (sq, members)),
            }
        } else {
            self.crowd_squares = self.crowd_squares.without(sq);
            if let Ok(i) = pos {
                self.crowds.remove(i);
            }
        }
    }

    fn remove_piece(&mut self, sq: Square, piece: Piece) {
        // A lone piece: no crowd list to touch (the common case, kept cheap).
        if !self.crowd_squares.contains(sq) {
            let presence = &mut self.presence[piece.color][piece.kind.index()];
            debug_assert!(presence.contains(sq), "the piece to remove stands there");
            *presence = presence.without(sq);
            self.occupied = self.occupied.without(sq);
            return;
        }
        let mut here = self.contents(sq);
        let i = here
            .iter()
            .position(|p| *p == piece)
            .expect("the piece to remove stands there");
        here.remove(i);
        self.set_square(sq, here);
    }

    fn add_piece(&mut self, sq: Square, piece: Piece) {
        if !self.occupied.contains(sq) {
            self.presence[piece.color][piece.kind.index()] |= sq.bit();
            self.occupied = self.occupied.with(sq);
            return;
        }
        let mut here = self.contents(sq);
        here.push(piece);
        self.set_square(sq, here);
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
        for (sq, members) in &self.crowds {
            let mut i = 0;
            while i < members.len() {
                let p = members[i];
                let n = members[i..].iter().take_while(|q| **q == p).count();
                // Crowd members are told apart from a lone piece and by how
                // many of them stand there.
                let key = keys.piece(p.color, p.kind, *sq);
                h ^= key.rotate_left(n as u32 * 7) ^ 0x9e37_79b9_7f4a_7c15u64.rotate_left(n as u32);
                i += n;
            }
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
            && self.crowds == other.crowds
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
        v.is_attacked(
            &self.presence,
            sq,
            by,
            occ,
            &v.rider_sets(&self.presence, by),
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
                .find(|&k| v.tables(us, k).en_passant[mv.from.index()].contains(mv.to)),
            special => match special.named_kind() {
                Some(k) => self.presence(us, k).contains(mv.from).then_some(k),
                None => {
                    let mut kinds = self.kinds_at(us, mv.from);
                    match (kinds.next(), kinds.next()) {
                        (Some(k), None) => Some(k),
                        _ => None,
                    }
                }
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
                let t = v.tables(us, kind);
                let quiet = v.reach(&t.quiet, from, occ);
                let capture = v.reach(&t.capture, from, occ);
                let named = tag.then_some(kind);
                let plain = named.map_or(Special::None, Special::FromCrowd);
                let both = if t.symmetric_modes {
                    Bitboard::EMPTY
                } else {
                    quiet & capture
                };
                for to in quiet | capture {
                    let lone = occ.contains(to) && !self.crowd_squares.contains(to);
                    let ok = if !occ.contains(to) {
                        quiet.contains(to)
                    } else if lone {
                        // One piece: capture it, or join it by move power.
                        theirs.contains(to)
                    } else {
                        self.crowd(to).iter().any(|p| p.color == them)
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
                        && v.promotion_zone[us.index()].contains(to)
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
        self.castling_moves(&mut out);
        out
    }

    fn en_passant_moves(&self, out: &mut Vec<Move>) {
        let Some(ep) = self.en_passant else { return };
        let v = self.variant;
        let us = self.side;
        for k in 0..v.kinds.len() {
            let from = v.tables(us, Kind(k as u8)).en_passant_from[ep.target.index()]
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

    fn castling_moves(&self, out: &mut Vec<Move>) {
        let us = self.side;
        let rights = self.castling[us];
        if rights.is_empty() || self.is_check() {
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
                    out.push(mv);
                }
            },
        );
    }

    /// All legal moves of the side to move.
    pub fn legal_moves(&self) -> Vec<Move> {
        let us = self.side;
        let mut moves = self.pseudo_legal_moves();
        moves.retain(|&mv| !self.play(mv).king_in_check(us));
        moves
    }

    pub fn is_legal(&self, mv: Move) -> bool {
        self.legal_moves().contains(&mv)
    }

    /// Plays a legal move and returns the new position.
    pub fn play(&self, mv: Move) -> CrowdPosition {
        let v = self.variant;
        let us = self.side;
        let them = us.other();
        let kind = self
            .mover_kind(mv)
            .expect("a legal move names a piece of the side to move");
        let mut p = self.clone();
        p.en_passant = None;
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
            *rights &= !lost;
        }
        p.side = them;
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
            && v.tables(us, kind).quiet.lame[mv.from.index()]
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
            }
        }
        p.hash = p.compute_hash();
        p
    }

    /// Passes the move (for an engine's null-move search); see [`crate::Position::play_null`].
    pub fn play_null(&self) -> CrowdPosition {
        let mut p = self.clone();
        p.en_passant = None;
        p.side = self.side.other();
        p.halfmove_clock += 1;
        p.hash = p.compute_hash();
        p
    }

    /// Keeps an en passant square only if the side to move can legally use it.
    pub(crate) fn capturable_en_passant(&self, ep: EnPassant) -> Option<EnPassant> {
        let with = CrowdPosition {
            en_passant: Some(ep),
            ..self.clone()
        };
        let mut moves = Vec::new();
        with.en_passant_moves(&mut moves);
        moves
            .into_iter()
            .any(|mv| !with.play(mv).king_in_check(with.side))
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
                        && v.tables(color, k).symmetric_modes
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
                        && v.reach(&v.tables(us, kind).capture, mv.from, self.occupied)
                            .contains(mv.to)
                })
                .map(|q| (mv.to, q)),
        }
    }
}

/// The royal piece of `color` moves and captures exactly one step in every
/// direction, like the chess king.
fn royal_is_king(v: &Variant, color: Color) -> bool {
    let t = v.tables(color, v.royal);
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
        1 => pos.legal_moves().len() as u64,
        _ => pos
            .legal_moves()
            .into_iter()
            .map(|mv| perft(&pos.play(mv), depth - 1))
            .sum(),
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
