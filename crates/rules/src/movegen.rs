//! Legal move generation for the turn-based family.
//!
//! Moves come out per piece as destination sets (cozy-chess style), already
//! masked by check and pin constraints, so counting them at the leaves of a
//! perft is a popcount. Variants with lame or range-limited captures, whose
//! checks the masks cannot describe, take a slower path that plays each
//! pseudo-legal move and looks at the king.

use crate::geometry::{Bitboard, Square, Word};
use crate::position::{Position, RiderSets};
use crate::types::{Kind, Move, Special};
use crate::variant::{CastlingStyle, Variant};

/// Receives generated moves.
pub trait MoveSink<W: Word> {
    /// The sink only counts moves: the moves of several pieces of a kind
    /// may come in one `piece_moves` call, under the first one's square.
    const COUNTS_ONLY: bool = false;
    /// Ordinary moves of the piece `kind` on `from` to every square of `dests`
    /// (a pawn reaching its promotion zone promotes to each allowed kind).
    fn piece_moves(&mut self, pos: &Position<W>, from: Square, kind: Kind, dests: Bitboard<W>);
    /// One fully described move (castling, en passant, double steps).
    fn single(&mut self, pos: &Position<W>, mv: Move);
    /// Like `piece_moves` for a kind known not to be a pawn.
    #[inline]
    fn plain_moves(&mut self, pos: &Position<W>, from: Square, kind: Kind, dests: Bitboard<W>) {
        self.piece_moves(pos, from, kind, dests);
    }
}

/// Counts moves without building them.
#[derive(Default)]
pub struct Counter {
    pub count: u64,
}

impl<W: Word> MoveSink<W> for Counter {
    const COUNTS_ONLY: bool = true;
    #[inline]
    fn piece_moves(&mut self, pos: &Position<W>, _from: Square, kind: Kind, dests: Bitboard<W>) {
        let v = pos.variant();
        let b = pos.boards();
        if v.kinds[kind.index()].pawn {
            let zone = b.promotion_zone[pos.side_to_move().index()];
            self.count += (dests & zone).count() as u64 * v.promotion_kinds.len() as u64
                + (dests & !zone).count() as u64;
        } else {
            self.count += dests.count() as u64;
        }
    }
    #[inline]
    fn single(&mut self, _pos: &Position<W>, _mv: Move) {
        self.count += 1;
    }
    #[inline]
    fn plain_moves(&mut self, _pos: &Position<W>, _from: Square, _kind: Kind, dests: Bitboard<W>) {
        self.count += dests.count() as u64;
    }
}

/// Collects moves into a list.
impl<W: Word> MoveSink<W> for Vec<Move> {
    fn piece_moves(&mut self, pos: &Position<W>, from: Square, kind: Kind, dests: Bitboard<W>) {
        let v = pos.variant();
        let b = pos.boards();
        let zone = b.promotion_zone[pos.side_to_move().index()];
        let pawn = v.kinds[kind.index()].pawn;
        for to in dests {
            if pawn && zone.contains(to) {
                for &promo in &v.promotion_kinds {
                    self.push(Move {
                        from,
                        to,
                        promotion: Some(promo),
                        special: Special::None,
                    });
                }
            } else {
                self.push(Move::new(from, to));
            }
        }
    }
    fn single(&mut self, _pos: &Position<W>, mv: Move) {
        self.push(mv);
    }
}

/// Generates the legal moves of the side to move.
pub fn generate<W: Word, S: MoveSink<W>>(pos: &Position<W>, sink: &mut S) {
    if pos.variant().needs_slow_legality {
        let mut pseudo: Vec<Move> = Vec::new();
        generate_inner(pos, &mut pseudo, true);
        for mv in pseudo {
            if !pos.leaves_king_attacked(mv) {
                sink.single(pos, mv);
            }
        }
    } else {
        generate_inner(pos, sink, false);
    }
}

/// The squares strictly between a king and a riding checker, through which
/// the check can be blocked: none if the checker's leap reaches the king
/// too (a rook that also leaps two squares, checking from two away).
fn block_squares<W: Word>(pos: &Position<W>, king: Square, checker: Square) -> Bitboard<W> {
    let b = pos.boards();
    let them = pos.side_to_move().other();
    let Some(kind) = pos.kind_at(them, checker) else {
        return Bitboard::EMPTY;
    };
    if b.tables(them, kind).capture.leaps[checker.index()].contains(king) {
        return Bitboard::EMPTY;
    }
    for (d, dir) in b.dirs.iter().enumerate() {
        if b.reverse_riders[them.index()][d] >> kind.0 & 1 != 0
            && dir.ray[king.index()].contains(checker)
            && b.dir_attack(d, king, pos.occupied()).contains(checker)
        {
            return dir.ray[king.index()] & !dir.ray[checker.index()] & !checker.bit();
        }
    }
    Bitboard::EMPTY
}

/// An en passant capture from `from`, tested by playing it: taking the
/// passed pawn empties a second square, which no mask describes.
#[inline]
fn en_passant<W: Word, S: MoveSink<W>>(
    pos: &Position<W>,
    sink: &mut S,
    from: Square,
    to: Square,
    pseudo: bool,
) {
    let mv = Move {
        from,
        to,
        promotion: None,
        special: Special::EnPassant,
    };
    if pseudo || !pos.leaves_king_attacked(mv) {
        sink.single(pos, mv);
    }
}

fn generate_inner<W: Word, S: MoveSink<W>>(pos: &Position<W>, sink: &mut S, pseudo: bool) {
    let v = pos.variant();
    let b = pos.boards();
    let us = pos.side_to_move();
    let them = us.other();
    let occ = pos.occupied();
    let own = pos.by_color(us);
    let enemy = pos.by_color(them);
    let king = pos.king(us);
    let riders = pos.rider_sets(them);
    let checkers = if pseudo {
        Bitboard::EMPTY
    } else {
        pos.attackers_with(king, them, occ, &riders)
    };

    // King steps: each destination must be safe with the king lifted.
    let kt = b.tables(us, v.royal);
    let king_dests = if kt.symmetric_modes {
        b.reach(&kt.capture, king, occ) & !own
    } else {
        (b.reach(&kt.quiet, king, occ) & !occ) | (b.reach(&kt.capture, king, occ) & enemy)
    };
    let safe = if pseudo {
        king_dests
    } else {
        let lifted = occ.without(king);
        king_dests.filter_squares(|d| !pos.is_attacked_with(d, them, lifted, &riders))
    };
    sink.piece_moves(pos, king, v.royal, safe);
    if checkers.several() {
        return;
    }
    let target = match checkers.lowest() {
        Some(c) => c.bit() | block_squares(pos, king, c),
        None => Bitboard::ALL,
    };

    // Pins: an own piece alone between the king and an enemy rider.
    let mut pinned = Bitboard::EMPTY;
    let mut pin_rays = [(Square(0), Bitboard::EMPTY); 16];
    let mut pins = 0;
    if !pseudo {
        riders.for_each_pin(b, king, occ, own, |blocker, ray| {
            pinned = pinned.with(blocker);
            if pins < pin_rays.len() {
                pin_rays[pins] = (blocker, ray);
                pins += 1;
            }
        });
    }

    for (k, info) in v.kinds.iter().enumerate() {
        let kind = Kind(k as u8);
        if kind == v.royal {
            continue;
        }
        let t = b.tables(us, kind);
        let mut free = pos.pieces(us, kind) & !pinned;
        let mut stuck = pos.pieces(us, kind) & pinned;
        if let (true, Some(shifts)) = (S::COUNTS_ONLY && free.several(), &t.shifts) {
            count_by_shifts(pos, sink, kind, shifts, free, target);
            if let Some(ep) = pos.en_passant() {
                for from in t.en_passant_from[ep.target.index()] & free {
                    en_passant(pos, sink, from, ep.target, pseudo);
                }
            }
            free = Bitboard::EMPTY;
        }
        if t.plain {
            // The common case without the special moves' checks below.
            for from in free {
                let dests = b.leaps_and_rides(&t.capture, from, occ) & !own & target;
                sink.plain_moves(pos, from, kind, dests);
            }
            free = Bitboard::EMPTY;
        }
        while let Some(from) = free.next().or_else(|| stuck.next()) {
            let mut allowed = target;
            if free.is_empty() && pinned.contains(from) {
                allowed &= pin_rays[..pins]
                    .iter()
                    .filter(|(sq, _)| *sq == from)
                    .fold(Bitboard::ALL, |m, (_, ray)| m & *ray);
            }
            let dests = if t.symmetric_modes {
                b.leaps_and_rides(&t.capture, from, occ) & !own
            } else {
                (b.leaps_and_rides(&t.quiet, from, occ) & !occ)
                    | (b.reach(&t.capture, from, occ) & enemy)
            };
            // Lame leaps: a pawn's are double steps (which open en passant),
            // listed once even where another power reaches the same square.
            let mut steps = Bitboard::EMPTY;
            for &(to, path) in &t.quiet.lame[from.index()] {
                if (path & occ).is_empty() && !occ.contains(to) {
                    steps = steps.with(to);
                }
            }
            let doubles = if info.pawn {
                steps & allowed & !b.promotion_zone[us.index()]
            } else {
                Bitboard::EMPTY
            };
            sink.piece_moves(pos, from, kind, (dests | steps) & allowed & !doubles);
            for to in doubles {
                sink.single(
                    pos,
                    Move {
                        from,
                        to,
                        promotion: None,
                        special: Special::DoubleStep,
                    },
                );
            }
            if let Some(ep) = pos.en_passant() {
                if t.en_passant[from.index()].contains(ep.target) {
                    en_passant(pos, sink, from, ep.target, pseudo);
                }
            }
        }
    }

    if checkers.is_empty() {
        castling(pos, sink, pseudo, &riders);
    }
}

/// Counts the moves of the unpinned pieces `free` of a kind that has
/// shifts, all pieces at once: within one shift each destination comes from
/// one piece, so the destinations of each shift count as many moves.
fn count_by_shifts<W: Word, S: MoveSink<W>>(
    pos: &Position<W>,
    sink: &mut S,
    kind: Kind,
    shifts: &[crate::variant::LeapShift<W>],
    free: Bitboard<W>,
    target: Bitboard<W>,
) {
    let empty = !pos.occupied();
    let enemy = pos.by_color(pos.side_to_move().other());
    let first = free.lowest().expect("pieces to count");
    for s in shifts {
        let mut dests = ((free & s.quiet_from).shift(s.delta) & empty)
            | ((free & s.capture_from).shift(s.delta) & enemy);
        for (path, from) in &s.lame {
            let clear = path
                .iter()
                .fold(free & *from, |m, &step| m & empty.shift(-step));
            dests |= clear.shift(s.delta) & empty;
        }
        sink.piece_moves(pos, first, kind, dests & target);
    }
}

/// Castling moves; `riders` are the enemy's, which castling leaves as they are.
fn castling<W: Word, S: MoveSink<W>>(
    pos: &Position<W>,
    sink: &mut S,
    pseudo: bool,
    riders: &RiderSets<W>,
) {
    let us = pos.side_to_move();
    let rights = pos.castling_rights(us);
    if rights.is_empty() || (pseudo && pos.is_check()) {
        return;
    }
    let occ = pos.occupied();
    for_each_castling(
        pos.variant(),
        pos.king(us),
        rights,
        occ,
        |mv, path, after| {
            if !path
                .filter_squares(|s| pos.is_attacked_with(s, us.other(), after, riders))
                .any()
            {
                sink.single(pos, mv);
            }
        },
    );
}

/// Calls `each(move, squares the king must find unattacked, occupancy
/// after the move)` for every castling move whose squares are free. Each
/// rule family judges the attacks its own way.
pub(crate) fn for_each_castling<W: Word>(
    v: &Variant,
    king: Square,
    rights: Bitboard<W>,
    occ: Bitboard<W>,
    mut each: impl FnMut(Move, Bitboard<W>, Bitboard<W>),
) {
    let shape = v.shape;
    let rank = shape.rank(king);
    let kf = shape.file(king);
    let between = |a: u8, b: u8| {
        (a.min(b)..=a.max(b)).fold(Bitboard::EMPTY, |m, f| m.with(shape.square(f, rank)))
    };
    let castle = |kto: Square, rook: Square, rto: Square| Move {
        from: king,
        to: kto,
        promotion: None,
        special: Special::Castle {
            rook_from: rook,
            rook_to: rto,
        },
    };
    for rook in rights {
        let rf = shape.file(rook);
        match v.spec.castling {
            CastlingStyle::None => {}
            CastlingStyle::Standard => {
                let kingside = rf > kf;
                let kto_file = v.spec.castling_king_files[kingside as usize];
                let rto_file = if kingside { kto_file - 1 } else { kto_file + 1 };
                let (kto, rto) = (shape.square(kto_file, rank), shape.square(rto_file, rank));
                let span = between(kf, kto_file) | between(rf, rto_file);
                if (occ & span & !king.bit() & !rook.bit()).is_empty() {
                    let after = (occ ^ king.bit() ^ rook.bit()) | kto.bit() | rto.bit();
                    each(
                        castle(kto, rook, rto),
                        between(kf, kto_file).without(king) | kto.bit(),
                        after,
                    );
                }
            }
            CastlingStyle::Free => {
                // The king leaps to any empty square between; the partner to the king's square.
                for kto in between(kf, rf).without(king).without(rook) & !occ {
                    each(
                        castle(kto, rook, king),
                        kto.bit(),
                        (occ ^ rook.bit()) | kto.bit(),
                    );
                }
            }
        }
    }
}

impl<W: Word> Bitboard<W> {
    /// The squares of the set for which `keep` holds.
    #[inline]
    pub fn filter_squares(self, mut keep: impl FnMut(Square) -> bool) -> Bitboard<W> {
        let mut out = Bitboard::EMPTY;
        for sq in self {
            if keep(sq) {
                out = out.with(sq);
            }
        }
        out
    }
}

impl<W: Word> Position<W> {
    /// All legal moves of the side to move.
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut moves = Vec::with_capacity(64);
        generate(self, &mut moves);
        moves
    }

    /// Number of legal moves, counted without building them.
    pub fn count_legal_moves(&self) -> u64 {
        let mut c = Counter::default();
        generate(self, &mut c);
        c.count
    }

    pub fn is_legal(&self, mv: Move) -> bool {
        self.legal_moves().contains(&mv)
    }
}

#[cfg(test)]
mod tests {
    use rand_chacha::rand_core::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use crate::game::TurnPosition;
    use crate::registry::Registry;

    /// Pieces whose leaps and rides overlap: a rook that also leaps two
    /// squares (RD), a bishop that also leaps two diagonally (BA), and a
    /// queen with a knight (QN) beside them.
    const OVERLAPS: &str = r#"
id = "overlaps"
inherits = "chess"
name = "Overlaps"
description = "Chess with pieces whose leaps and rides reach the same squares."
start = "rxaqkyxr/pppppppp/8/8/8/8/PPPPPPPP/RXAQKYXR w KQkq - 0 1"
promotion = ["Q", "X", "Y", "A"]
castling_partners = ["R"]

[[pieces]]
letter = "X"
name = "Rook-dabbaba"
betza = "RD"
value = 600

[[pieces]]
letter = "Y"
name = "Bishop-alfil"
betza = "BA"
value = 400

[[pieces]]
letter = "A"
name = "Amazon"
betza = "QN"
value = 1300
"#;

    fn overlaps() -> &'static Variant {
        Registry::builtin()
            .add_text("overlaps.toml", OVERLAPS)
            .unwrap()
    }

    fn masked<W: Word>(pos: &Position<W>) -> Vec<Move> {
        let mut moves = Vec::new();
        generate_inner(pos, &mut moves, false);
        moves
    }

    fn each_tried<W: Word>(pos: &Position<W>) -> Vec<Move> {
        let mut moves = Vec::new();
        generate_inner(pos, &mut moves, true);
        moves.retain(|&mv| !pos.leaves_king_attacked(mv));
        moves
    }

    #[test]
    fn a_check_by_leap_and_ride_at_once_cannot_be_blocked() {
        let v = overlaps();
        // The black rook-dabbaba on e3 checks e1 along the file and by its leap.
        let pos =
            <Position as TurnPosition>::from_fen(v, "4k3/8/8/8/8/4x3/R7/4K3 w - - 0 1").unwrap();
        let moves = masked(&pos);
        // Only the king moves: a2e2 would leave the leap's check.
        assert_eq!(moves.len(), 4, "{moves:?}");
        assert!(
            moves.iter().all(|m| m.from == pos.king(pos.side_to_move())),
            "{moves:?}"
        );
    }

    /// Along `games` random games of at most `plies` plies of `v`, the masks
    /// give the moves playing gives; `also` checks more at each position.
    fn masks_agree_along_random_games<W: Word>(
        v: &'static Variant,
        games: u64,
        plies: usize,
        mut also: impl FnMut(u64, &Position<W>),
    ) {
        for seed in 0..games {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let mut pos = Position::<W>::start(v);
            for _ in 0..plies {
                also(seed, &pos);
                let mut fast = masked(&pos);
                let mut slow = each_tried(&pos);
                fast.sort_by_key(|m| format!("{m:?}"));
                slow.sort_by_key(|m| format!("{m:?}"));
                assert_eq!(fast, slow, "seed {seed}: {pos:?}");
                if slow.is_empty() {
                    break;
                }
                pos = pos.play(slow[(rng.next_u64() % slow.len() as u64) as usize]);
            }
        }
    }

    fn random_games_agree<W: Word>() {
        masks_agree_along_random_games::<W>(overlaps(), 40, 120, |_, _| {});
    }

    /// In 64-bit tables the rook's, bishop's and queen's rides are slide
    /// lookups (the queen's two); the 128-bit tables walk every ray.
    #[test]
    fn unit_rides_become_slide_lookups_in_64_bits() {
        let v = overlaps();
        let narrow = v.boards64.as_ref().unwrap();
        for (letter, slides, rides) in [
            ('R', 1, 0),
            ('B', 1, 0),
            ('Q', 2, 0),
            ('A', 2, 0),
            ('N', 0, 0),
        ] {
            let kind = v.kind_by_letter(letter).unwrap();
            let t = narrow.tables(crate::types::Color::White, kind);
            assert_eq!(
                (t.capture.slides.len(), t.capture.rides.len()),
                (slides, rides),
                "{letter}"
            );
            let wide = v.boards.tables(crate::types::Color::White, kind);
            assert!(wide.capture.slides.is_empty(), "{letter}");
        }
        assert_eq!(narrow.rider_slides[0].len(), 2);
    }

    #[test]
    fn masks_find_the_moves_playing_finds() {
        random_games_agree::<u64>();
        random_games_agree::<u128>();
    }

    /// A nightrider (walked in both words) and a forward-only rook (one
    /// direction, a slide table of its own in 64 bits) beside the chess
    /// sliders: both words count the same.
    const MIXED_RIDERS: &str = r#"
id = "mixed-riders"
inherits = "chess"
name = "Mixed riders"
description = "Chess with a nightrider and a forward rook."
start = "rwlqkbwr/pppppppp/8/8/8/8/PPPPPPPP/RWLQKBWR w KQkq - 0 1"
promotion = ["Q", "W", "L"]
castling_partners = ["R"]

[[pieces]]
letter = "W"
name = "Nightrider"
betza = "NN"
value = 500

[[pieces]]
letter = "L"
name = "Forward rook"
betza = "fR"
value = 300
"#;

    #[test]
    fn walked_and_looked_up_rides_count_alike_in_both_words() {
        let v = Registry::builtin()
            .add_text("mixed-riders.toml", MIXED_RIDERS)
            .unwrap();
        let narrow = v.boards64.as_ref().unwrap();
        let nightrider = v.kind_by_letter('W').unwrap();
        let t = narrow.tables(crate::types::Color::White, nightrider);
        assert!(t.capture.slides.is_empty() && !t.capture.rides.is_empty());
        let lance = v.kind_by_letter('L').unwrap();
        let t = narrow.tables(crate::types::Color::White, lance);
        assert_eq!((t.capture.slides.len(), t.capture.rides.len()), (1, 0));
        masks_agree_along_random_games::<u64>(v, 20, 60, |seed, pos| {
            let wide = crate::fen::parse_position::<u128>(v, &crate::fen::write(pos)).unwrap();
            assert_eq!(
                crate::perft::perft(pos, 2),
                crate::perft::perft(&wide, 2),
                "seed {seed}: {pos:?}"
            );
        });
    }
}
