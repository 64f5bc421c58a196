//! Simultaneous-move chess: `parity`, `parity-single` and `move-neutral`.
//!
//! Both sides choose a move on the same position; [`SimPosition::resolve`]
//! applies the pair. A square may hold one white and one black piece at once,
//! and each side's last-moved pieces are part of the state (the waiting
//! rule). Everything here follows the rulings in `docs/rules/rulings.md`
//! (sections `simultaneous-variants-common-model`, `parity`,
//! `parity-single` and `move-neutral`).

use std::fmt;

use crate::geometry::{Bitboard, Square, Word};
use crate::outcome::{Outcome, Reason};
use crate::position::{Pieces, RiderSets};
use crate::types::{ByColor, Color, EnPassant, Kind, Move, Special};
use crate::variant::{Boards, Variant};

pub use crate::variant::{CheckModel, SimRules};

/// A check a side gives at the end of a turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CheckKind {
    /// From a piece that will be free to move: the king must move now.
    Immediate,
    /// Only from the piece that just moved, which must wait a turn.
    Delayed,
}

/// What happened to one side's move in a turn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SideNotes {
    /// The kind captured by this side's move, if the capture succeeded.
    pub captured: Option<Kind>,
    /// The move tried to capture but its target had left.
    pub failed_capture: bool,
    /// Both movers tried to take each other: both failed and swapped squares.
    pub swap: bool,
    /// This side's mover ended on a square shared with an enemy piece.
    pub co_occupied: Option<Square>,
    pub promotion: Option<Kind>,
    pub en_passant: bool,
    pub castled: bool,
    /// The check this side gives after the turn.
    pub check: Option<CheckKind>,
    /// This side's move would have given check, but the opponent's
    /// simultaneous move blocked or escaped it.
    pub failed_check: bool,
}

/// The result of resolving one turn.
#[derive(Clone, Copy, Debug)]
pub struct Turn {
    pub position: SimPosition,
    /// Per side: `notes[Color::White]`.
    pub notes: ByColor<SideNotes>,
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SimError {
    #[error("{} has no such legal move: {reason}", side.name())]
    Illegal { side: Color, reason: String },
    #[error("variant `{0}` is not a simultaneous variant")]
    NotSimultaneous(String),
}

/// A position of a simultaneous variant.
#[derive(Clone, Copy)]
pub struct SimPosition {
    pub(crate) variant: &'static Variant,
    pub(crate) rules: SimRules,
    pub(crate) pieces: Pieces,
    pub(crate) occupied: ByColor<Bitboard>,
    /// Squares of each side's pieces moved in the previous turn.
    pub(crate) last_moved: ByColor<Bitboard>,
    pub(crate) castling: ByColor<Bitboard>,
    /// Per side, the double step it made in the previous turn.
    pub(crate) en_passant: ByColor<Option<EnPassant>>,
    /// Turns since the last successful capture or pawn move.
    pub(crate) clock: u32,
    pub(crate) turn: u32,
}

impl PartialEq for SimPosition {
    fn eq(&self, other: &SimPosition) -> bool {
        std::ptr::eq(self.variant, other.variant)
            && self.same_state(other)
            && self.clock == other.clock
            && self.turn == other.turn
    }
}

impl Eq for SimPosition {}

impl fmt::Debug for SimPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SimPosition({} {})", self.variant.id(), self.to_fen())
    }
}

/// Removes one piece of `color` from `sq`.
fn remove(
    pieces: &mut Pieces,
    occupied: &mut ByColor<Bitboard>,
    color: Color,
    kind: Kind,
    sq: Square,
) {
    pieces[color][kind.index()] = pieces[color][kind.index()].without(sq);
    occupied[color] = occupied[color].without(sq);
}

fn place(
    pieces: &mut Pieces,
    occupied: &mut ByColor<Bitboard>,
    color: Color,
    kind: Kind,
    sq: Square,
) {
    pieces[color][kind.index()] = pieces[color][kind.index()].with(sq);
    occupied[color] = occupied[color].with(sq);
}

/// The board as one side's move generation sees it.
struct GenContext {
    occ: Bitboard,
    shared: Bitboard,
    /// Enemy pieces a move may capture: not kings, not on shared squares.
    capturable: Bitboard,
}

/// One piece's moves before any check rule, as squares.
struct Dests {
    from: Square,
    pawn: bool,
    /// Quiet and capture destinations.
    plain: Bitboard,
    /// Destinations of lame quiet leaps (a pawn's double step).
    lame: Bitboard,
    en_passant: Option<Move>,
}

/// Where legal move generation puts its moves: a list, a count, or a flag.
trait LegalSink {
    /// Stop at the first legal move.
    const ANY: bool;
    /// Every move of `d` but en passant is legal.
    fn plain(&mut self, pos: &SimPosition, color: Color, d: &Dests);
    fn push(&mut self, mv: Move);
    fn found(&self) -> bool;
}

impl LegalSink for Vec<Move> {
    const ANY: bool = false;
    fn plain(&mut self, pos: &SimPosition, color: Color, d: &Dests) {
        pos.expand_plain(color, d, |m| self.push(m));
    }
    fn push(&mut self, mv: Move) {
        Vec::push(self, mv);
    }
    fn found(&self) -> bool {
        !self.is_empty()
    }
}

struct Count(usize);

impl LegalSink for Count {
    const ANY: bool = false;
    fn plain(&mut self, pos: &SimPosition, color: Color, d: &Dests) {
        self.0 += pos.count_plain(color, d);
    }
    fn push(&mut self, _: Move) {
        self.0 += 1;
    }
    fn found(&self) -> bool {
        self.0 > 0
    }
}

struct Any(bool);

impl LegalSink for Any {
    const ANY: bool = true;
    fn plain(&mut self, _: &SimPosition, _: Color, d: &Dests) {
        self.0 |= (d.plain | d.lame).any();
    }
    fn push(&mut self, _: Move) {
        self.0 = true;
    }
    fn found(&self) -> bool {
        self.0
    }
}

impl SimPosition {
    pub fn start(variant: &'static Variant) -> SimPosition {
        SimPosition::from_fen(variant, &variant.spec.start_fen)
            .expect("start position validated at load")
    }

    pub fn variant(&self) -> &'static Variant {
        self.variant
    }
    pub fn rules(&self) -> SimRules {
        self.rules
    }
    pub fn pieces(&self, color: Color, kind: Kind) -> Bitboard {
        self.pieces[color][kind.index()]
    }
    pub fn by_color(&self, color: Color) -> Bitboard {
        self.occupied[color]
    }
    pub fn occupied(&self) -> Bitboard {
        self.occupied.white | self.occupied.black
    }
    /// Squares holding one white and one black piece.
    pub fn shared(&self) -> Bitboard {
        self.occupied.white & self.occupied.black
    }
    pub fn last_moved(&self, color: Color) -> Bitboard {
        self.last_moved[color]
    }
    pub fn castling_rights(&self, color: Color) -> Bitboard {
        self.castling[color]
    }
    pub fn en_passant(&self, color: Color) -> Option<EnPassant> {
        self.en_passant[color]
    }
    pub fn clock(&self) -> u32 {
        self.clock
    }
    pub fn turn_number(&self) -> u32 {
        self.turn
    }
    pub fn king(&self, color: Color) -> Square {
        self.pieces(color, self.variant.royal)
            .lowest()
            .expect("both kings are always on the board")
    }
    pub fn kind_at(&self, color: Color, sq: Square) -> Option<Kind> {
        if !self.occupied[color].contains(sq) {
            return None;
        }
        (0..self.variant.kinds.len())
            .find(|&k| self.pieces[color][k].contains(sq))
            .map(|k| Kind(k as u8))
    }

    /// Calls `f(square, capturers, defended)` for each enemy piece of
    /// `kind` that pieces of `by` free to move next turn (not waiting)
    /// attack; `defended` if an enemy piece, waiting or not, guards it.
    /// Shared squares hold nothing to capture.
    pub fn for_each_threat(
        &self,
        by: Color,
        kind: Kind,
        mut f: impl FnMut(Square, Bitboard, bool),
    ) {
        let v = self.variant;
        let them = by.other();
        let targets = self.pieces(them, kind) & !self.shared();
        if targets.is_empty() {
            return;
        }
        let occ = self.occupied();
        let movers = !self.certain_stayers(by);
        let (ours, theirs) = (
            v.boards.rider_sets(&self.pieces, by),
            v.boards.rider_sets(&self.pieces, them),
        );
        for sq in targets {
            let capturers = v.boards.attackers(&self.pieces, sq, by, occ, &ours) & movers;
            if capturers.any() {
                f(
                    sq,
                    capturers,
                    v.boards
                        .attackers(&self.pieces, sq, them, occ, &theirs)
                        .any(),
                );
            }
        }
    }

    /// [`Self::for_each_threat`] for every kind in turn, as
    /// `f(kind, square, capturers, defended)`: the attacks are found once
    /// for all kinds, and only attacked pieces are looked at.
    pub fn for_each_threat_of_any_kind(
        &self,
        by: Color,
        mut f: impl FnMut(Kind, Square, Bitboard, bool),
    ) {
        // In 64-bit sets where the board fits: each set operation is one
        // instruction, and the riders are slide lookups.
        match &self.variant.boards64 {
            Some(narrow) => self.threats_in(narrow, by, |kind, sq, capturers, defended| {
                f(kind, sq, capturers.wide(), defended)
            }),
            None => self.threats_in(&self.variant.boards, by, f),
        }
    }

    /// [`Self::for_each_threat_of_any_kind`] in the word of `boards`.
    fn threats_in<W: Word>(
        &self,
        boards: &Boards<W>,
        by: Color,
        mut f: impl FnMut(Kind, Square, Bitboard<W>, bool),
    ) {
        let v = self.variant;
        let them = by.other();
        let pieces: Pieces<W> = self.pieces.map(|sets| sets.map(|set| set.convert()));
        let occ = self.occupied().convert();
        let movers = (self.occupied[by] & !self.certain_stayers(by)).convert();
        // Every square a free piece of `by` could take on: a superset of
        // where `attackers` finds one, so it only skips empty calls.
        let mut reach = Bitboard::EMPTY;
        for k in 0..v.kinds.len() {
            let t = boards.tables(by, Kind(k as u8));
            for from in pieces[by][k] & movers {
                reach |= boards.reach(&t.capture, from, occ);
            }
        }
        let targets = (self.occupied[them] & !self.shared()).convert() & reach;
        if targets.is_empty() {
            return;
        }
        let ours = boards.rider_sets(&pieces, by);
        let mut theirs = None;
        for k in 0..v.kinds.len() {
            for sq in pieces[them][k] & targets {
                let capturers = boards.attackers(&pieces, sq, by, occ, &ours) & movers;
                if capturers.any() {
                    let theirs = theirs.get_or_insert_with(|| boards.rider_sets(&pieces, them));
                    let defended = boards.is_attacked(&pieces, sq, them, occ, theirs);
                    f(Kind(k as u8), sq, capturers, defended);
                }
            }
        }
    }

    /// Pieces of `by` attacking `sq` as in chess from where they stand.
    /// Nothing attacks a shared square: no capture can happen there.
    fn attackers_in(
        &self,
        pieces: &Pieces,
        occupied: &ByColor<Bitboard>,
        sq: Square,
        by: Color,
    ) -> Bitboard {
        if (occupied.white & occupied.black).contains(sq) {
            return Bitboard::EMPTY;
        }
        let v = self.variant;
        v.boards.attackers(
            pieces,
            sq,
            by,
            occupied.white | occupied.black,
            &v.boards.rider_sets(pieces, by),
        )
    }

    /// Enemy pieces that count for check against `color`'s king after a
    /// hypothetical board: in parity only pieces free to move next turn.
    fn checkers_in(
        &self,
        pieces: &Pieces,
        occupied: &ByColor<Bitboard>,
        color: Color,
        waiting: Bitboard,
    ) -> Bitboard {
        let king = (pieces[color][self.variant.royal.index()])
            .lowest()
            .expect("king present");
        let att = self.attackers_in(pieces, occupied, king, color.other());
        match self.rules.check {
            CheckModel::Parity => att & !waiting,
            CheckModel::MoveNeutral => att,
        }
    }

    /// True if `color` is in (immediate) check now.
    pub fn in_check(&self, color: Color) -> bool {
        self.checkers_in(
            &self.pieces,
            &self.occupied,
            color,
            self.last_moved[color.other()],
        )
        .any()
    }

    /// The board after `color` plays `mv` alone (the opponent standing still).
    fn after_own_move(&self, color: Color, mv: Move) -> (Pieces, ByColor<Bitboard>) {
        let (mut pieces, mut occupied) = (self.pieces, self.occupied);
        let them = color.other();
        let kind = self.kind_at(color, mv.from).expect("mover present");
        remove(&mut pieces, &mut occupied, color, kind, mv.from);
        if let Special::Castle { rook_from, rook_to } = mv.special {
            let rook = self
                .kind_at(color, rook_from)
                .expect("castling partner present");
            remove(&mut pieces, &mut occupied, color, rook, rook_from);
            place(&mut pieces, &mut occupied, color, rook, rook_to);
        } else if let Some((sq, victim)) = self.capture_target(color, mv) {
            remove(&mut pieces, &mut occupied, them, victim, sq);
        }
        place(
            &mut pieces,
            &mut occupied,
            color,
            mv.promotion.unwrap_or(kind),
            mv.to,
        );
        (pieces, occupied)
    }

    /// The enemy piece a move tries to capture, judged on the current position.
    pub(crate) fn capture_target(&self, color: Color, mv: Move) -> Option<(Square, Kind)> {
        let them = color.other();
        let sq = match mv.special {
            Special::EnPassant => self.en_passant[them]?.victim,
            Special::Castle { .. } => return None,
            _ => mv.to,
        };
        if self.shared().contains(sq) {
            return None;
        }
        self.kind_at(them, sq).map(|k| (sq, k))
    }

    /// What move generation reads of the board, computed once per side
    /// rather than once per piece.
    fn gen_context(&self, color: Color) -> GenContext {
        let them = color.other();
        let shared = self.shared();
        GenContext {
            occ: self.occupied(),
            shared,
            capturable: self.occupied[them]
                & !shared
                & !self.pieces[them][self.variant.royal.index()],
        }
    }

    /// Destinations of the piece on `from`, before any check rule.
    fn piece_dests(
        &self,
        color: Color,
        kind: Kind,
        from: Square,
        quiet_only: bool,
        ctx: &GenContext,
    ) -> Dests {
        let v = self.variant;
        let t = v.boards.tables(color, kind);
        let occ = ctx.occ;
        let reach = v.boards.leaps_and_rides(&t.quiet, from, occ);
        let mut lame_reach = Bitboard::EMPTY;
        for &(to, path) in &t.quiet.lame[from.index()] {
            if (path & occ).is_empty() {
                lame_reach = lame_reach.with(to);
            }
        }
        let mut plain = reach & !occ;
        let mut en_passant = None;
        if !quiet_only {
            // Same powers to move and to take: one attack serves both.
            let capture = if t.symmetric_modes {
                reach | lame_reach
            } else {
                v.boards.reach(&t.capture, from, occ)
            };
            plain |= capture & ctx.capturable;
            if let Some(ep) = self.en_passant[color.other()] {
                if t.en_passant[from.index()].contains(ep.target)
                    && !occ.contains(ep.target)
                    && !ctx.shared.contains(ep.victim)
                {
                    en_passant = Some(Move {
                        from,
                        to: ep.target,
                        promotion: None,
                        special: Special::EnPassant,
                    });
                }
            }
        }
        Dests {
            from,
            pawn: v.kinds[kind.index()].pawn,
            plain,
            lame: lame_reach & !occ,
            en_passant,
        }
    }

    /// Calls `f` on each move of `d` but en passant, in the order of the
    /// squares (promotions in the variant's order).
    fn expand_plain(&self, color: Color, d: &Dests, mut f: impl FnMut(Move)) {
        let v = self.variant;
        let zone = v.boards.promotion_zone[color.index()];
        let from = d.from;
        for to in d.plain | d.lame {
            if d.pawn && zone.contains(to) {
                for &p in &v.promotion_kinds {
                    f(Move {
                        from,
                        to,
                        promotion: Some(p),
                        special: Special::None,
                    });
                }
            } else if d.pawn && d.lame.contains(to) {
                f(Move {
                    from,
                    to,
                    promotion: None,
                    special: Special::DoubleStep,
                });
            } else {
                f(Move::new(from, to));
            }
        }
    }

    /// The number of moves [`Self::expand_plain`] gives.
    fn count_plain(&self, color: Color, d: &Dests) -> usize {
        let all = d.plain | d.lame;
        if !d.pawn {
            return all.count() as usize;
        }
        let zone = self.variant.boards.promotion_zone[color.index()];
        (all & zone).count() as usize * self.variant.promotion_kinds.len()
            + (all & !zone).count() as usize
    }

    /// Moves of the piece on `from` into `out`, before any check rule.
    fn piece_moves(
        &self,
        color: Color,
        kind: Kind,
        from: Square,
        quiet_only: bool,
        out: &mut Vec<Move>,
    ) {
        let d = self.piece_dests(color, kind, from, quiet_only, &self.gen_context(color));
        self.expand_plain(color, &d, |m| out.push(m));
        out.extend(d.en_passant);
    }

    /// True if the king's step to `to` is allowed by the king rule.
    fn king_step_allowed(&self, color: Color, mv: Move) -> bool {
        match self.rules.check {
            // Only enemy pieces certain to stay make a square a certain loss.
            CheckModel::Parity => {
                let them = color.other();
                let stayers = self.certain_stayers(them);
                if stayers.is_empty() {
                    return true;
                }
                let (pieces, occupied) = self.after_own_move(color, mv);
                (self.attackers_in(&pieces, &occupied, mv.to, them) & stayers).is_empty()
            }
            CheckModel::MoveNeutral => !self.exposes_king(color, mv),
        }
    }

    /// Pieces of `color` that cannot move this turn: its waiting pieces; and
    /// under single occupation with a co-occupant to move out, every other
    /// piece (the co-occupant itself must leave, so it does not stay).
    fn certain_stayers(&self, color: Color) -> Bitboard {
        let own = self.occupied[color];
        let duty = own & self.shared();
        if self.rules.single_occupation && duty.any() {
            return own & !duty;
        }
        if self.rules.waiting_rule {
            self.last_moved[color]
        } else {
            Bitboard::EMPTY
        }
    }

    /// True if `mv`, played alone, leaves `color`'s king in check.
    fn exposes_king(&self, color: Color, mv: Move) -> bool {
        let (pieces, occupied) = self.after_own_move(color, mv);
        self.checkers_in(&pieces, &occupied, color, self.last_moved[color.other()])
            .any()
    }

    /// Own pieces whose move alone could expose `color`'s king on `king`:
    /// the first own piece on a line to it of an enemy rider (`riders`).
    /// None where that test does not hold (lame or range-limited enemy
    /// pieces): then every move is tried.
    fn pin_candidates(&self, color: Color, king: Square, riders: &RiderSets) -> Option<Bitboard> {
        let v = self.variant;
        let them = color.other();
        if v.needs_slow_legality || v.boards.reverse_complex[them.index()] != 0 {
            return None;
        }
        let occ = self.occupied();
        let own = self.occupied[color];
        let mut candidates = Bitboard::EMPTY;
        let mut active = riders.active;
        while active != 0 {
            let d = active.trailing_zeros() as usize;
            active &= active - 1;
            let on_ray = riders.by_dir[d] & v.boards.dirs[d].ray[king.index()];
            if on_ray.is_empty() {
                continue;
            }
            let Some(blocker) = (v.boards.dir_attack(d, king, occ) & own).lowest() else {
                continue;
            };
            if (v.boards.dir_attack(d, king, occ.without(blocker)) & on_ray).any() {
                candidates = candidates.with(blocker);
            }
        }
        Some(candidates)
    }

    /// The legal moves of one side in this position.
    pub fn legal_moves(&self, color: Color) -> Vec<Move> {
        let mut out = Vec::with_capacity(64);
        self.generate(color, &mut out);
        out
    }

    /// The number of [`Self::legal_moves`], without listing them.
    pub fn legal_move_count(&self, color: Color) -> usize {
        let mut count = Count(0);
        self.generate(color, &mut count);
        count.0
    }

    /// True if `color` has a legal move; cheaper than counting them.
    pub fn has_legal_move(&self, color: Color) -> bool {
        let mut any = Any(false);
        self.generate(color, &mut any);
        any.0
    }

    /// [`Self::legal_moves`] with every move tried by playing it, without
    /// the pin shortcut or any other: the reference the property tests
    /// compare with.
    #[doc(hidden)]
    pub fn legal_moves_each_tried(&self, color: Color) -> Vec<Move> {
        let v = self.variant;
        let own = self.occupied[color];
        let king = self.king(color);
        let legal = |m: &Move| {
            if m.from == king {
                self.king_step_allowed(color, *m)
            } else {
                !self.exposes_king(color, *m)
            }
        };
        let mut pseudo = Vec::new();
        if self.rules.single_occupation {
            let duty = own & self.shared();
            if duty.any() {
                for from in duty {
                    let kind = self.kind_at(color, from).expect("piece on shared square");
                    if kind != v.royal && self.in_check(color) {
                        continue;
                    }
                    self.piece_moves(color, kind, from, true, &mut pseudo);
                }
                pseudo.retain(legal);
                return pseudo;
            }
        }
        let waiting = self.waiting(color);
        let in_check = self.in_check(color);
        for k in 0..v.kinds.len() {
            let kind = Kind(k as u8);
            if in_check && kind != v.royal && self.rules.check == CheckModel::Parity {
                continue;
            }
            for from in self.pieces(color, kind) & !waiting {
                self.piece_moves(color, kind, from, false, &mut pseudo);
            }
        }
        pseudo.retain(legal);
        if !in_check && !waiting.contains(king) && !self.shared().contains(king) {
            self.castling_moves(color, |m| pseudo.push(m));
        }
        pseudo
    }

    /// `color`'s pieces that moved last turn and must wait, if the variant
    /// has the waiting rule.
    fn waiting(&self, color: Color) -> Bitboard {
        if self.rules.waiting_rule {
            self.last_moved[color]
        } else {
            Bitboard::EMPTY
        }
    }

    /// True if `color`'s king may step from `king` to `to` (not en passant):
    /// [`Self::king_step_allowed`] without building the board after the
    /// move. A piece taken on `to` cannot attack `to`, so it may stay in
    /// `pieces`; only the occupancy changes.
    fn king_step_ok(&self, color: Color, king: Square, to: Square, riders: &RiderSets) -> bool {
        let them = color.other();
        let mask = match self.rules.check {
            CheckModel::Parity => self.certain_stayers(them),
            CheckModel::MoveNeutral => !Bitboard::EMPTY,
        };
        if mask.is_empty() {
            return true;
        }
        let occ = self.occupied[color].without(king).with(to) | self.occupied[them];
        (self
            .variant
            .boards
            .attackers(&self.pieces, to, them, occ, riders)
            & mask)
            .is_empty()
    }

    /// Legal moves of `color` into `sink`, in the order of kinds, then
    /// squares, then destinations, castling last (for `S::ANY` the king
    /// first, stopping at the first move). Out of check, only moves of a
    /// pin candidate or en passant (two squares emptied) can expose the
    /// king, so only those and the king's are tried.
    fn generate<S: LegalSink>(&self, color: Color, sink: &mut S) {
        let v = self.variant;
        let own = self.occupied[color];
        let king = self.king(color);
        let them = color.other();

        if self.rules.single_occupation {
            let duty = own & self.shared();
            if duty.any() {
                // Leave the shared square without capturing; the waiting rule
                // does not apply, and the piece may return where it came from.
                let mut pseudo = Vec::new();
                for from in duty {
                    let kind = self.kind_at(color, from).expect("piece on shared square");
                    if kind != v.royal && self.in_check(color) {
                        continue;
                    }
                    self.piece_moves(color, kind, from, true, &mut pseudo);
                }
                for m in pseudo {
                    let legal = if m.from == king {
                        self.king_step_allowed(color, m)
                    } else {
                        !self.exposes_king(color, m)
                    };
                    if legal {
                        sink.push(m);
                    }
                }
                return;
            }
        }

        let waiting = self.waiting(color);
        let ctx = self.gen_context(color);
        let riders = v.boards.rider_sets(&self.pieces, them);
        // `in_check` without a second rider scan: nothing attacks a shared square.
        let in_check = !ctx.shared.contains(king) && {
            let att = v
                .boards
                .attackers(&self.pieces, king, them, ctx.occ, &riders);
            match self.rules.check {
                CheckModel::Parity => (att & !self.last_moved[them]).any(),
                CheckModel::MoveNeutral => att.any(),
            }
        };
        let risky = if in_check {
            None
        } else {
            self.pin_candidates(color, king, &riders)
        };
        // To find any move, the king last: each of its steps costs an
        // attack scan, the other pieces' moves mostly none.
        let last = S::ANY.then_some(v.royal);
        let first = (0..v.kinds.len())
            .map(|k| Kind(k as u8))
            .filter(|&k| Some(k) != last);
        for kind in first.chain(last) {
            if in_check && kind != v.royal && self.rules.check == CheckModel::Parity {
                // Blocking or taking the checker cannot help: it moves at the same time.
                continue;
            }
            for from in self.pieces(color, kind) & !waiting {
                let d = self.piece_dests(color, kind, from, false, &ctx);
                if from == king {
                    self.expand_plain(color, &d, |m| {
                        if self.king_step_ok(color, king, m.to, &riders) {
                            sink.push(m);
                        }
                    });
                    if let Some(m) = d.en_passant {
                        if self.king_step_allowed(color, m) {
                            sink.push(m);
                        }
                    }
                } else {
                    if risky.is_none_or(|r| r.contains(from)) {
                        self.expand_plain(color, &d, |m| {
                            if !self.exposes_king(color, m) {
                                sink.push(m);
                            }
                        });
                    } else {
                        sink.plain(self, color, &d);
                    }
                    if let Some(m) = d.en_passant {
                        if !self.exposes_king(color, m) {
                            sink.push(m);
                        }
                    }
                }
                if S::ANY && sink.found() {
                    return;
                }
            }
        }
        if !in_check && !waiting.contains(king) && !ctx.shared.contains(king) {
            self.castling_moves(color, |m| sink.push(m));
        }
    }

    fn castling_moves(&self, color: Color, mut push: impl FnMut(Move)) {
        let rights = self.castling[color] & !self.waiting(color);
        if rights.is_empty() {
            return;
        }
        crate::movegen::for_each_castling(
            self.variant,
            self.king(color),
            rights,
            self.occupied(),
            |mv, path, _| {
                // As in chess, judged on the current position: the king may not
                // pass through or land on a square any enemy piece attacks.
                let (pieces, occupied) = self.after_own_move(color, mv);
                if path
                    .filter_squares(|s| {
                        self.attackers_in(&pieces, &occupied, s, color.other())
                            .any()
                    })
                    .is_empty()
                {
                    push(mv);
                }
            },
        );
    }

    /// Applies both sides' moves, each of which must be legal here.
    pub fn resolve(&self, white: Move, black: Move) -> Result<Turn, SimError> {
        for (color, mv) in [(Color::White, white), (Color::Black, black)] {
            if !self.legal_moves(color).contains(&mv) {
                let reason = self.why_illegal(color, mv);
                return Err(SimError::Illegal {
                    side: color,
                    reason,
                });
            }
        }
        Ok(self.resolve_unchecked([white, black]))
    }

    /// Every move of `color`'s pieces by their powers alone, before the
    /// waiting rule, shared-square duties and check; used to tell what a
    /// refused move was meant to be.
    pub fn pseudo_moves(&self, color: Color) -> Vec<Move> {
        let mut out = Vec::new();
        for k in 0..self.variant.kinds.len() {
            for from in self.pieces(color, Kind(k as u8)) {
                self.piece_moves(color, Kind(k as u8), from, false, &mut out);
            }
        }
        out
    }

    /// A short reason why `mv` is not legal for `color`.
    pub fn why_illegal(&self, color: Color, mv: Move) -> String {
        let name = |s: Square| self.variant.shape.name(s).to_string();
        if !self.occupied[color].contains(mv.from) {
            return format!("no {} piece on {}", color.name(), name(mv.from));
        }
        if self.rules.single_occupation && (self.occupied[color] & self.shared()).any() {
            if !self.shared().contains(mv.from) {
                return "the piece on the shared square must leave it this turn".into();
            }
            if self.capture_target(color, mv).is_some() {
                return "a piece leaving a shared square may not capture".into();
            }
            return format!(
                "{}{} does not leave the shared square legally",
                name(mv.from),
                name(mv.to)
            );
        }
        if self.rules.waiting_rule && self.last_moved[color].contains(mv.from) {
            return format!(
                "the piece on {} moved last turn and must wait",
                name(mv.from)
            );
        }
        if self.in_check(color)
            && mv.from != self.king(color)
            && self.rules.check == CheckModel::Parity
        {
            return "the king is in immediate check and must move".into();
        }
        format!("{}{} is not a legal move here", name(mv.from), name(mv.to))
    }

    /// Applies a pair of moves known to be legal.
    pub fn resolve_unchecked(&self, moves: [Move; 2]) -> Turn {
        let (next, mut notes) = self.apply(moves);
        self.note_checks(&next, moves, &mut notes);
        Turn {
            position: next,
            notes,
        }
    }

    /// The position after a pair of moves known to be legal, as
    /// [`Self::resolve_unchecked`] gives it, without the notes (whose
    /// checks cost four attack scans a side): for search and perft.
    pub fn play_unchecked(&self, moves: [Move; 2]) -> SimPosition {
        self.apply(moves).0
    }

    /// The position after a pair of legal moves, and the notes but checks.
    #[inline(always)]
    fn apply(&self, moves: [Move; 2]) -> (SimPosition, ByColor<SideNotes>) {
        let v = self.variant;
        let mut next = *self;
        let moves = ByColor::from(moves);
        let mut notes = ByColor::both(SideNotes::default());
        let colors = Color::ALL;
        let movers = ByColor::new_with(|c| self.kind_at(c, moves[c].from).expect("mover present"));
        let targets = ByColor::new_with(|c| self.capture_target(c, moves[c]));

        // 1. Both movers (and castling partners) leave their squares.
        for c in colors {
            let mv = moves[c];
            remove(&mut next.pieces, &mut next.occupied, c, movers[c], mv.from);
            if let Special::Castle { rook_from, .. } = mv.special {
                let rook = self
                    .kind_at(c, rook_from)
                    .expect("castling partner present");
                remove(&mut next.pieces, &mut next.occupied, c, rook, rook_from);
            }
        }
        // 2. A capture succeeds only if its target is still there.
        for c in colors {
            let them = c.other();
            if let Some((sq, kind)) = targets[c] {
                if next.pieces[them][kind.index()].contains(sq) {
                    remove(&mut next.pieces, &mut next.occupied, them, kind, sq);
                    next.castling[them] = next.castling[them].without(sq);
                    notes[c].captured = Some(kind);
                    notes[c].en_passant = moves[c].special == Special::EnPassant;
                } else {
                    notes[c].failed_capture = true;
                }
            }
        }
        let swap = |c: Color| targets[c].is_some_and(|(sq, _)| sq == moves[c.other()].from);
        if swap(Color::White) && swap(Color::Black) {
            notes.white.swap = true;
            notes.black.swap = true;
        }
        // 3. Both movers arrive.
        for c in colors {
            let mv = moves[c];
            let kind = mv.promotion.unwrap_or(movers[c]);
            place(&mut next.pieces, &mut next.occupied, c, kind, mv.to);
            // Last-moved markers exist only where the waiting rule reads them.
            let marked = |b: Bitboard| {
                if self.rules.waiting_rule {
                    b
                } else {
                    Bitboard::EMPTY
                }
            };
            next.last_moved[c] = marked(mv.to.bit());
            notes[c].promotion = mv.promotion;
            if let Special::Castle { rook_from, rook_to } = mv.special {
                let rook = self
                    .kind_at(c, rook_from)
                    .expect("castling partner present");
                place(&mut next.pieces, &mut next.occupied, c, rook, rook_to);
                next.last_moved[c] = marked(mv.to.bit().with(rook_to));
                notes[c].castled = true;
            }
            if movers[c] == v.royal {
                next.castling[c] = Bitboard::EMPTY;
            } else {
                next.castling[c] = next.castling[c].without(mv.from);
            }
        }
        let shared = next.shared();
        for c in colors {
            let mv = moves[c];
            let arrived = match mv.special {
                Special::Castle { rook_to, .. } => mv.to.bit().with(rook_to),
                _ => mv.to.bit(),
            };
            notes[c].co_occupied = (arrived & shared).lowest();
        }
        // En passant: open for one turn after a double step, while the pawn
        // stands alone where it landed and the square it passed is empty.
        for c in colors {
            let mv = moves[c];
            next.en_passant[c] = None;
            let alone =
                next.pieces[c][movers[c].index()].contains(mv.to) && !shared.contains(mv.to);
            if mv.special == Special::DoubleStep && alone {
                let back = if v.shape.rank(mv.to) > v.shape.rank(mv.from) {
                    -1
                } else {
                    1
                };
                if let Some(target) = v
                    .shape
                    .offset(mv.to, 0, back)
                    .filter(|t| !next.occupied().contains(*t))
                {
                    next.en_passant[c] = Some(EnPassant {
                        target,
                        victim: mv.to,
                    });
                }
            }
        }
        let irreversible = colors
            .into_iter()
            .any(|c| notes[c].captured.is_some() || v.kinds[movers[c].index()].pawn);
        next.clock = if irreversible { 0 } else { self.clock + 1 };
        next.turn = self.turn + 1;
        (next, notes)
    }

    /// Checks each side gives in `next`, and checks the other's move foiled.
    fn note_checks(&self, next: &SimPosition, moves: [Move; 2], notes: &mut ByColor<SideNotes>) {
        let v = self.variant;
        let moves = ByColor::from(moves);
        for c in Color::ALL {
            let them = c.other();
            let checkers = next.attackers_in(&next.pieces, &next.occupied, next.king(them), c);
            notes[c].check = match (checkers.any(), self.rules.check) {
                (false, _) => None,
                (true, CheckModel::MoveNeutral) => Some(CheckKind::Immediate),
                (true, CheckModel::Parity) if (checkers & !next.last_moved[c]).any() => {
                    Some(CheckKind::Immediate)
                }
                (true, CheckModel::Parity) => Some(CheckKind::Delayed),
            };
            let (alone, alone_occ) = self.after_own_move(c, moves[c]);
            let king_alone = alone[them][v.royal.index()].lowest().expect("king present");
            // A check this move attempted (not one already standing) that
            // the opponent's move blocked or escaped.
            let threatened = self.attackers_in(&alone, &alone_occ, king_alone, c).any();
            let already = self
                .attackers_in(&self.pieces, &self.occupied, self.king(them), c)
                .any();
            notes[c].failed_check = threatened && !already && checkers.is_empty();
        }
    }

    /// Same pieces, markers, rights and en passant: equal for repetition.
    pub fn same_state(&self, other: &SimPosition) -> bool {
        self.pieces == other.pieces
            && self.last_moved == other.last_moved
            && self.castling == other.castling
            && self.en_passant == other.en_passant
    }

    /// A key of the state for repetition and for counting distinct positions.
    pub fn hash(&self) -> u64 {
        let keys = &self.variant.zobrist;
        let mut h = 0u64;
        for c in Color::ALL {
            for k in 0..self.variant.kinds.len() {
                for sq in self.pieces[c][k] {
                    h ^= keys.piece(c, Kind(k as u8), sq);
                }
            }
            for sq in self.castling[c] {
                h ^= keys.castling(sq);
            }
            for sq in self.last_moved[c] {
                // Reuse the en passant keys, rotated per side, for the markers.
                h ^= keys.en_passant(sq).rotate_left(17 + 23 * c.index() as u32);
            }
            if let Some(ep) = self.en_passant[c] {
                h ^= keys
                    .en_passant(ep.target)
                    .rotate_left(41 * (c.index() as u32 + 1));
            }
        }
        h
    }
}

impl SimPosition {
    /// The outcome at the start of this turn, leaving out repetition (which
    /// needs the game's history; see [`crate::game::SimGame`]).
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome_with_counts(Color::ALL.map(|c| usize::from(self.has_legal_move(c))))
    }

    /// [`SimPosition::outcome`] for a caller that has already generated the
    /// legal moves of both sides: `counts` are their numbers.
    pub fn outcome_with_counts(&self, counts: [usize; 2]) -> Option<Outcome> {
        let draw = |reason| Some(Outcome::draw(reason));
        if self.king(Color::White) == self.king(Color::Black) {
            return draw(Reason::KingsShareSquare);
        }
        match self.rules.check {
            CheckModel::Parity => match counts {
                [0, 0] => return draw(Reason::NoLegalMove),
                [0, _] => return Some(Outcome::win(Color::Black, Reason::NoLegalMove)),
                [_, 0] => return Some(Outcome::win(Color::White, Reason::NoLegalMove)),
                _ => {}
            },
            CheckModel::MoveNeutral => {
                let mated = Color::ALL.map(|c| counts[c.index()] == 0 && self.in_check(c));
                let stalemated = Color::ALL.map(|c| counts[c.index()] == 0 && !self.in_check(c));
                match mated {
                    [true, true] => return draw(Reason::BothCheckmated),
                    [true, false] => return Some(Outcome::win(Color::Black, Reason::Checkmate)),
                    [false, true] => return Some(Outcome::win(Color::White, Reason::Checkmate)),
                    _ if stalemated[0] || stalemated[1] => return draw(Reason::Stalemate),
                    _ => {}
                }
            }
        }
        let royal = self.variant.royal;
        let only_kings = Color::ALL
            .iter()
            .all(|&c| self.occupied[c] == self.pieces(c, royal));
        if only_kings {
            return draw(Reason::InsufficientMaterial);
        }
        if self.variant.spec.fifty_move_rule && self.clock >= 50 {
            return draw(Reason::FiftyMoves);
        }
        None
    }
}

// ---- Joint perft ------------------------------------------------------------

/// Counts joint move pairs to `depth` turns: a regression number for these rules.
pub fn perft(pos: &SimPosition, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if depth == 1 {
        // The last turn is counted, not listed.
        return pos.legal_move_count(Color::White) as u64
            * pos.legal_move_count(Color::Black) as u64;
    }
    let white = pos.legal_moves(Color::White);
    let black = pos.legal_moves(Color::Black);
    let mut total = 0;
    for &w in &white {
        for &b in &black {
            total += perft(&pos.play_unchecked([w, b]), depth - 1);
        }
    }
    total
}

/// The number of distinct positions reached after exactly `depth` turns.
pub fn distinct_positions(pos: &SimPosition, depth: u32) -> usize {
    let mut frontier = vec![*pos];
    for _ in 0..depth {
        let mut seen = std::collections::HashSet::new();
        let mut next = Vec::new();
        for p in &frontier {
            for &w in &p.legal_moves(Color::White) {
                for &b in &p.legal_moves(Color::Black) {
                    let q = p.play_unchecked([w, b]);
                    if seen.insert((q.hash(), q.clock)) {
                        next.push(q);
                    }
                }
            }
        }
        frontier = next;
    }
    frontier.len()
}

#[cfg(test)]
mod tests {
    use rand_chacha::rand_core::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use crate::registry::Registry;

    /// The threats of both sides as found in word `W`'s tables.
    fn threats<W: Word>(
        pos: &SimPosition,
        boards: &Boards<W>,
    ) -> Vec<(Kind, Square, Bitboard, bool)> {
        let mut out = Vec::new();
        for by in Color::ALL {
            pos.threats_in(boards, by, |kind, sq, capturers, defended| {
                out.push((kind, sq, capturers.wide(), defended))
            });
        }
        out
    }

    #[test]
    fn threats_are_alike_in_both_words() {
        for id in ["parity", "move-neutral", "parity-single"] {
            let v = Registry::builtin().get(id).unwrap();
            let narrow = v.boards64.as_ref().unwrap();
            let mut found = 0;
            for seed in 0..20 {
                let mut rng = ChaCha8Rng::seed_from_u64(seed);
                let mut pos = SimPosition::start(v);
                for _ in 0..60 {
                    if pos.outcome().is_some() {
                        break;
                    }
                    let wide = threats(&pos, &v.boards);
                    assert_eq!(threats(&pos, narrow), wide, "{pos:?}");
                    found += wide.len();
                    let moves = Color::ALL.map(|c| {
                        let all = pos.legal_moves(c);
                        all[(rng.next_u64() % all.len() as u64) as usize]
                    });
                    pos = pos.play_unchecked(moves);
                }
            }
            assert!(found > 100, "{id}: only {found} threats");
        }
    }
}
