//! The features of a position, computed once for two readers: the search
//! sums the terms' values (`Sum`), the tuner records how often each term
//! counts (`Trace`). Every term is White's count less Black's.

use parity_rules::position::MAX_KINDS;
use parity_rules::{Bitboard, Color, Kind, NarrowView, PieceView, Shape, Square, Word};

use super::{pair, EvalTables, Masks, Pair, Score, LAZY_MARGIN, MOP_UP_LEAD};

/// What the features are written to.
trait Sink {
    /// A piece on a square: its material and square terms.
    fn piece(&mut self, t: &EvalTables, color: Color, kind: usize, sq: Square);
    /// Term `index` counts `count` times for `color`.
    fn term(&mut self, t: &EvalTables, color: Color, index: usize, count: i32);
    /// A value that is not tuned.
    fn fixed(&mut self, color: Color, value: Pair);
    /// Whether the costly terms can be left out (lazy evaluation).
    fn enough(&mut self, t: &EvalTables, phase: i32) -> bool;
    /// Whether groups whose terms are all zero are counted anyway.
    const EVERY_GROUP: bool;
}

#[inline]
fn signed(color: Color, p: Pair) -> Pair {
    if color == Color::White {
        p
    } else {
        -p
    }
}

/// The search's sink: the terms' values, summed per colour (White's
/// less Black's is the total), so no term needs a sign.
struct Sum {
    by_color: [Pair; 2],
    alpha: Score,
    beta: Score,
    /// The costly terms were left out.
    lazy: bool,
}

impl Sum {
    #[inline]
    fn total(&self) -> Pair {
        self.by_color[0] - self.by_color[1]
    }
}

impl Sink for Sum {
    const EVERY_GROUP: bool = false;
    #[inline]
    fn piece(&mut self, t: &EvalTables, color: Color, kind: usize, sq: Square) {
        self.by_color[color.index()] += t.psq[color.index()][sq.index()][kind];
    }
    #[inline]
    fn term(&mut self, t: &EvalTables, color: Color, index: usize, count: i32) {
        self.by_color[color.index()] += t.params.get(index) * count;
    }
    #[inline]
    fn fixed(&mut self, color: Color, value: Pair) {
        self.by_color[color.index()] += value;
    }
    #[inline]
    fn enough(&mut self, t: &EvalTables, phase: i32) -> bool {
        let rough = t.taper(self.total(), phase);
        self.lazy = rough + LAZY_MARGIN <= self.alpha || rough - LAZY_MARGIN >= self.beta;
        self.lazy
    }
}

/// The tuner's sink: how often each term counts (White less Black), the
/// part that is not tuned, and the phase.
#[derive(Clone, Debug)]
pub struct Trace {
    pub counts: Vec<i32>,
    pub fixed: Pair,
    pub phase: i32,
    pub full_phase: i32,
}

impl Trace {
    /// Weights of the flat parameter list (`Params::values`: middlegame and
    /// endgame of each term), such that the evaluation for White is
    /// [`Self::offset`] plus their dot product with the values.
    pub fn coefficients(&self) -> Vec<(u32, f32)> {
        let mg = self.phase.min(self.full_phase) as f32 / self.full_phase as f32;
        let mut out = Vec::new();
        for (i, &c) in self.counts.iter().enumerate() {
            if c != 0 {
                if mg > 0.0 {
                    out.push((2 * i as u32, c as f32 * mg));
                }
                if mg < 1.0 {
                    out.push((2 * i as u32 + 1, c as f32 * (1.0 - mg)));
                }
            }
        }
        out
    }

    /// White's value of each group of terms (middlegame, endgame), in the
    /// order of the parameter file, with the part that is not tuned last
    /// as `mop_up`: what the `eval` command shows.
    pub fn by_group(&self, t: &EvalTables) -> Vec<(&'static str, Pair)> {
        let mut out: Vec<(&'static str, Pair)> = t
            .params
            .layout
            .group_ranges()
            .into_iter()
            .map(|(name, range)| {
                let sum = range.fold(Pair::default(), |sum, i| {
                    sum + t.params.get(i) * self.counts[i]
                });
                (name, sum)
            })
            .collect();
        out.push(("mop_up", self.fixed));
        out
    }

    /// The tapered value of the terms that are not tuned.
    pub fn offset(&self) -> f32 {
        let mg = self.phase.min(self.full_phase) as f32 / self.full_phase as f32;
        self.fixed.mg as f32 * mg + self.fixed.eg as f32 * (1.0 - mg)
    }
}

impl Sink for Trace {
    const EVERY_GROUP: bool = true;
    fn piece(&mut self, t: &EvalTables, color: Color, kind: usize, sq: Square) {
        let s = if color == Color::White { 1 } else { -1 };
        let l = &t.params.layout;
        let i = sq.index();
        self.counts[l.material + kind] += s;
        self.counts[l.reach + kind] += s * t.reach_coefficient[color.index()][i][kind];
        self.counts[l.of_kind(l.file, l.file_buckets, kind, t.file_bucket[i])] += s;
        self.counts[l.of_kind(l.rank, l.ranks, kind, t.relative_rank[color.index()][i])] += s;
    }
    fn term(&mut self, _: &EvalTables, color: Color, index: usize, count: i32) {
        self.counts[index] += if color == Color::White { count } else { -count };
    }
    fn fixed(&mut self, color: Color, value: Pair) {
        self.fixed += signed(color, value);
    }
    fn enough(&mut self, _: &EvalTables, _: i32) -> bool {
        false
    }
}

/// The evaluation for White; lazy outside `alpha..beta` (White's view).
/// `side` is the side to move, None in the simultaneous variants. The flag
/// tells whether every term counted (false when lazy).
pub(super) fn score<V: PieceView>(
    pos: &V,
    t: &EvalTables,
    side: Option<Color>,
    alpha: Score,
    beta: Score,
) -> (Score, bool) {
    // A board that fits in 64 bits is read in 64-bit sets, whatever the
    // position's word: every set operation costs one instruction.
    if <V::W as Word>::BITS > u64::BITS {
        if let Some(narrow) = NarrowView::of(pos) {
            return score_in(&narrow, t, side, alpha, beta);
        }
    }
    score_in(pos, t, side, alpha, beta)
}

/// [`score`] in the position's own word.
pub(super) fn score_in<V: PieceView>(
    pos: &V,
    t: &EvalTables,
    side: Option<Color>,
    alpha: Score,
    beta: Score,
) -> (Score, bool) {
    let mut sum = Sum {
        by_color: [Pair::default(); 2],
        alpha,
        beta,
        lazy: false,
    };
    let phase = features(pos, t, side, &mut sum);
    (t.taper(sum.total(), phase), !sum.lazy)
}

/// The features of `pos` for the tuner.
pub fn trace<V: PieceView>(pos: &V, t: &EvalTables, side: Option<Color>) -> Trace {
    let mut trace = Trace {
        counts: vec![0; t.params.layout.len],
        fixed: Pair::default(),
        phase: 0,
        full_phase: t.full_phase,
    };
    trace.phase = features(pos, t, side, &mut trace);
    trace
}

/// Writes the features of `pos` to `sink`; returns the phase.
fn features<V: PieceView, K: Sink>(
    pos: &V,
    t: &EvalTables,
    side: Option<Color>,
    sink: &mut K,
) -> i32 {
    let v = pos.variant();
    let boards = pos.boards();
    let m = t.masks::<V::W>();
    let l = &t.params.layout;
    let kinds = v.kinds.len();
    let royal = t.royal.index();
    let occ = pos.occupied();
    let crowds = pos.crowd_squares();
    let mut phase = 0;
    let mut pawns = [Bitboard::<V::W>::EMPTY; 2];
    let mut bound_colours = [[0u8; MAX_KINDS]; 2];
    let mut material = [0; 2];
    // Pieces per crowd square (only the crowd family has crowds).
    let mut crowd_size = [0u8; 128];
    pos.for_each_piece(|color, kind, sq| {
        let k = kind.index();
        let us = color.index();
        material[us] += t.value[k];
        sink.piece(t, color, k, sq);
        phase += t.phase_weight[k];
        if t.pawn[k] {
            pawns[us] |= sq.bit();
        }
        if t.colour_bound[k] {
            bound_colours[us][k] |= if m.light_squares.contains(sq) { 1 } else { 2 };
        }
        if crowds.contains(sq) {
            crowd_size[sq.index()] += 1;
            // Nothing on a crowd can be captured, and a king there is not in check.
            let index = if k == royal {
                l.crowd_king
            } else {
                l.crowd_piece
            };
            sink.term(t, color, index, 1);
        }
    });
    if let Some(side) = side {
        sink.term(t, side, l.tempo, 1);
    }

    // Pawn attacks first: pawn structure and mobility need them.
    let mut attacks_by = [[Bitboard::<V::W>::EMPTY; MAX_KINDS]; 2];
    let mut pawn_attacks = [Bitboard::<V::W>::EMPTY; 2];
    for color in Color::ALL {
        for k in (0..kinds).filter(|&k| t.pawn[k]) {
            let set = pos.presence(color, Kind(k as u8));
            if let Some(shifts) = &m.capture_shifts[color.index()][k] {
                for &(delta, from) in shifts {
                    attacks_by[color.index()][k] |= (set & from).shift(delta);
                }
            } else {
                let tab = boards.tables(color, Kind(k as u8));
                for sq in set {
                    attacks_by[color.index()][k] |= boards.reach(&tab.capture, sq, occ);
                }
            }
            pawn_attacks[color.index()] |= attacks_by[color.index()][k];
        }
    }

    let kings = Color::ALL.map(|c| pos.presence(c, t.royal).lowest());
    let shape = v.shape;
    let distance = |a: Square, b: Square| {
        let apart = |x: u8, y: u8| (x as i32 - y as i32).abs();
        apart(shape.file(a), shape.file(b)).max(apart(shape.rank(a), shape.rank(b)))
    };
    for color in Color::ALL {
        let us = color.index();
        let them = 1 - us;
        if let Some(k) = kings[us] {
            let shelter = (m.shield[us][k.index()] & pawns[us]).count() as usize;
            sink.term(
                t,
                color,
                l.shelter + shelter.min(super::SHELTER_BUCKETS - 1),
                1,
            );
            if K::EVERY_GROUP || t.counts.king_files {
                king_files(sink, t, m, color, k, &pawns, shape);
            }
        }
        for sq in pawns[us] {
            let ps = &m.pawn_squares[us][sq.index()];
            let rank = ps.relative_rank;
            let isolated = (pawns[us] & ps.adjacent_files).is_empty();
            if isolated {
                sink.term(t, color, l.isolated, 1);
            }
            if (pawns[us] & ps.file_ahead).any() {
                sink.term(t, color, l.doubled, 1);
            }
            if pawn_attacks[us].contains(sq) {
                sink.term(t, color, l.supported, 1);
            }
            if (pawns[us] & ps.beside).any() {
                sink.term(t, color, l.phalanx, 1);
            }
            let front = ps.front;
            if !isolated
                && (pawns[us] & ps.support_span).is_empty()
                && front.is_some_and(|f| pawn_attacks[them].contains(f))
            {
                sink.term(t, color, l.backward, 1);
            }
            if (pawns[them] & ps.passed_span).is_empty() {
                sink.term(t, color, l.passed + rank, 1);
                if (occ & ps.file_ahead).is_empty() {
                    sink.term(t, color, l.passed_free + rank, 1);
                }
                // Kings near the square in front matter more as the pawn advances.
                let weight = rank as i32 - 2;
                if weight > 0 {
                    let target = front.unwrap_or(sq);
                    if let Some(k) = kings[us] {
                        sink.term(t, color, l.passed_own_king, weight * distance(k, target));
                    }
                    if let Some(k) = kings[them] {
                        sink.term(t, color, l.passed_enemy_king, weight * distance(k, target));
                    }
                }
            }
        }
    }
    mop_up(
        sink,
        &material,
        &kings,
        t,
        v.shape.files.max(v.shape.ranks) as i32 - 1,
        distance,
    );
    let phase = phase.min(t.full_phase);
    if sink.enough(t, phase) {
        return phase;
    }

    // Mobility, open lines and attacks on the king's zone.
    let mut attacks = pawn_attacks;
    let mut king_attack = [0i32; 2];
    let mut king_attackers = [0i32; 2];
    let all_pawns = pawns[0] | pawns[1];
    for color in Color::ALL {
        let us = color.index();
        let them = 1 - us;
        if let Some(k) = kings[us] {
            let tab = boards.tables(color, t.royal);
            attacks_by[us][royal] = boards.reach(&tab.capture, k, occ);
            attacks[us] |= attacks_by[us][royal];
        }
        let own = pos.by_color(color);
        let enemy_zone = kings[them]
            .map(|k| m.king_zone[k.index()])
            .unwrap_or(Bitboard::EMPTY);
        let area = !(own & !crowds) & !pawn_attacks[them];
        for (k, by_kind) in attacks_by[us].iter_mut().enumerate().take(kinds) {
            if t.pawn[k] || k == royal {
                continue;
            }
            let kind = Kind(k as u8);
            let tab = boards.tables(color, kind);
            for sq in pos.presence(color, kind) {
                let hits = boards.reach(&tab.capture, sq, occ);
                let moves = if tab.symmetric_modes {
                    hits
                } else {
                    hits | boards.reach(&tab.quiet, sq, occ)
                };
                *by_kind |= hits;
                let reach = (moves & area).count() as i32 - t.mobility_base[k];
                sink.term(t, color, l.mobility + k, reach);
                if reach < 0 {
                    sink.term(t, color, l.mobility_low + k, -reach);
                }
                let file = m.file_of[sq.index()];
                if (file & all_pawns).is_empty() {
                    sink.term(t, color, l.open_line + k, 1);
                } else if (file & pawns[us]).is_empty() {
                    sink.term(t, color, l.half_open_line + k, 1);
                }
                let zone_hits = (hits & enemy_zone).count() as i32;
                if zone_hits > 0 {
                    king_attackers[us] += 1;
                    king_attack[us] += zone_hits * t.king_attack_weight[k];
                }
            }
            attacks[us] |= *by_kind;
        }
        if bound_colours[us].contains(&3) {
            sink.term(t, color, l.colour_pair, 1);
        }
    }

    for color in Color::ALL {
        let us = color.index();
        let them = 1 - us;
        // King safety: many attacks on the squares around the king.
        if king_attackers[them] >= 2 {
            let units = king_attack[them].min(super::MAX_KING_ATTACK);
            sink.term(t, color, l.king_danger, units);
            sink.term(t, color, l.king_danger + 1, units * units / 4);
        }
        // Checks the enemy can give on a square we do not guard, per kind:
        // a piece checks from where the same kind of ours would hit the king.
        if let Some(king) = kings[us].filter(|_| K::EVERY_GROUP || t.counts.safe_check) {
            let guarded = attacks[us] | pos.by_color(Color::ALL[them]);
            for (k, &hits) in attacks_by[them].iter().enumerate().take(kinds) {
                if k == royal || (hits & !guarded).is_empty() {
                    continue;
                }
                let tab = boards.tables(color, Kind(k as u8));
                if (boards.reach(&tab.capture, king, occ) & hits & !guarded).any() {
                    sink.term(t, color, l.safe_check + k, 1);
                }
            }
        }
        // Space: safe central squares on our side, those behind our pawns twice.
        if K::EVERY_GROUP || t.counts.space {
            let zone = m.space_zone[us] & !pawns[us] & !pawn_attacks[them];
            let back = -(shape.files as i32) * color.forward();
            let behind =
                pawns[us].shift(back) | pawns[us].shift(2 * back) | pawns[us].shift(3 * back);
            let space = zone.count() + (zone & behind).count();
            sink.term(t, color, l.space, space as i32);
        }
        // Threats against our pieces (nothing on a crowd can be taken).
        for k in 0..kinds {
            if k == royal {
                continue;
            }
            let mut lesser = Bitboard::EMPTY;
            let mut kinds_below = t.lesser[k];
            while kinds_below != 0 {
                lesser |= attacks_by[them][kinds_below.trailing_zeros() as usize];
                kinds_below &= kinds_below - 1;
            }
            for sq in pos.presence(color, Kind(k as u8)) & !crowds {
                if !t.pawn[k] && pawn_attacks[them].contains(sq) {
                    sink.term(t, color, l.threat_by_pawn + k, 1);
                } else if lesser.contains(sq) {
                    sink.term(t, color, l.threat_by_lesser + k, 1);
                }
                if attacks[them].contains(sq) && !attacks[us].contains(sq) {
                    sink.term(t, color, l.hanging + k, 1);
                }
            }
        }
        // A crowd of two breaks up when one piece leaves: ours is then exposed.
        for sq in crowds & pos.by_color(color) & attacks[them] {
            if crowd_size[sq.index()] == 2 && !pos.presence(color, t.royal).contains(sq) {
                sink.term(t, color, l.crowd_attacked, 1);
            }
        }
    }
    phase
}

/// Pawn shelter and storm on the king's three files: our nearest pawn in
/// front of the king on each, and the enemy's, by their distance from it.
fn king_files<W: Word, K: Sink>(
    sink: &mut K,
    t: &EvalTables,
    m: &Masks<W>,
    color: Color,
    king: Square,
    pawns: &[Bitboard<W>; 2],
    shape: Shape,
) {
    let l = &t.params.layout;
    let us = color.index();
    let nearest = |set: Bitboard<W>| {
        let pawn = if color == Color::White {
            set.lowest()
        } else {
            set.highest()
        };
        pawn.map(|p| (shape.rank(p) as i32 - shape.rank(king) as i32).abs())
    };
    let bucket = |distance: i32| (distance.min(4) - 1) as usize;
    for span in m.king_files[us][king.index()] {
        if span.is_empty() {
            continue;
        }
        let ours = nearest(span & pawns[us]);
        let shelter = ours.map_or(super::SHELTER_FILE_BUCKETS - 1, bucket);
        sink.term(t, color, l.shelter_file + shelter, 1);
        match nearest(span & pawns[1 - us]) {
            // Stopped by our pawn just in front of it.
            Some(d) if ours == Some(d - 1) => sink.term(t, color, l.storm_blocked, 1),
            Some(d) => sink.term(t, color, l.storm_file + bucket(d), 1),
            None => {}
        }
    }
}

/// The mop-up term alone, for White, tapered by the phase: what a learned
/// evaluation is given on top, so that a won ending is still steered to mate.
pub(super) fn mop_up_only<V: PieceView>(pos: &V, t: &EvalTables) -> Score {
    let mut material = [0; 2];
    let mut phase = 0;
    pos.for_each_piece(|color, kind, _| {
        material[color.index()] += t.value[kind.index()];
        phase += t.phase_weight[kind.index()];
    });
    if (material[0] - material[1]).abs() < MOP_UP_LEAD {
        return 0;
    }
    let v = pos.variant();
    let shape = v.shape;
    let distance = |a: Square, b: Square| {
        let apart = |x: u8, y: u8| (x as i32 - y as i32).abs();
        apart(shape.file(a), shape.file(b)).max(apart(shape.rank(a), shape.rank(b)))
    };
    let kings = Color::ALL.map(|c| pos.presence(c, t.royal).lowest());
    let mut sum = Sum {
        by_color: [Pair::default(); 2],
        alpha: -super::MATE,
        beta: super::MATE,
        lazy: false,
    };
    let farthest = shape.files.max(shape.ranks) as i32 - 1;
    mop_up(&mut sum, &material, &kings, t, farthest, distance);
    t.taper(sum.total(), phase.min(t.full_phase))
}

/// Far ahead in material, the endgame score also counts the losing king's
/// distance from the centre and the kings' closeness, so that a shallow
/// search finds the way to mate instead of shuffling (or repeating).
fn mop_up<K: Sink>(
    sink: &mut K,
    material: &[Score; 2],
    kings: &[Option<Square>; 2],
    t: &EvalTables,
    farthest: i32,
    distance: impl Fn(Square, Square) -> i32,
) {
    let lead = material[0] - material[1];
    if lead.abs() < MOP_UP_LEAD {
        return;
    }
    let (strong, weak) = if lead > 0 { (0, 1) } else { (1, 0) };
    let (Some(hunter), Some(prey)) = (kings[strong], kings[weak]) else {
        return;
    };
    let bonus = 120 * t.from_centre[prey.index()] / t.max_from_centre
        + 10 * (farthest - distance(hunter, prey));
    sink.fixed(Color::ALL[strong], pair(0, bonus));
}
