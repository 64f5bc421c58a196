//! Evaluation for any variant file, as a sum of named terms (`params.rs`)
//! over features of the position (`terms.rs`): material, piece-square terms
//! by file, rank and reach, mobility, king safety, pawn structure, open
//! lines, threats and, for the crowd family, crowds. Tapered between
//! middlegame and endgame by the non-pawn material left. The terms are
//! tuned from game results (`parity tune`, `crate::tune`); a variant
//! without a tuned file keeps defaults derived from its pieces and board.

mod params;
mod terms;

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use parity_rules::geometry::Word;
use parity_rules::position::MAX_KINDS;
use parity_rules::{Bitboard, Color, Kind, Square, Variant};

use parity_rules::{PieceView, TurnPosition};

pub use params::{
    pair, variant_of, Layout, Pair, Params, ParamsError, MAX_KING_ATTACK, SHELTER_BUCKETS,
    SHELTER_FILE_BUCKETS, STORM_BUCKETS,
};
pub use terms::{trace, Trace};

/// Centipawns; mate scores lie beyond [`MATE_BOUND`].
pub type Score = i32;
pub const MATE: Score = 30_000;
pub const MATE_BOUND: Score = MATE - 1_000;

/// The tuned parameter files of the built-in variants (`variants/*.eval.toml`).
const TUNED: &[(&str, &str)] = &[
    (
        "chess",
        include_str!("../../../../variants/chess.eval.toml"),
    ),
    (
        "tutti-frutti",
        include_str!("../../../../variants/tutti-frutti.eval.toml"),
    ),
];

/// The tuned file of a built-in variant, if it has one.
pub fn tuned_params(id: &str) -> Option<&'static str> {
    TUNED.iter().find(|(v, _)| *v == id).map(|(_, text)| *text)
}

/// Per-variant tables, built once and shared.
#[derive(Debug)]
pub struct EvalTables {
    /// Material value per kind for move ordering and exchanges (the royal
    /// piece counts 0): the variant file's, or derived from the reach.
    pub value: [Score; MAX_KINDS],
    pub params: Params,
    royal: Kind,
    pawn: [bool; MAX_KINDS],
    colour_bound: [bool; MAX_KINDS],
    /// Material and square terms, per colour, square and kind.
    psq: [Vec<[Pair; MAX_KINDS]>; 2],
    /// The square features behind `psq`, for tracing: the reach term's
    /// coefficient, the file bucket and the relative rank.
    reach_coefficient: [Vec<[i32; MAX_KINDS]>; 2],
    file_bucket: Vec<usize>,
    relative_rank: [Vec<usize>; 2],
    phase_weight: [i32; MAX_KINDS],
    full_phase: i32,
    /// Half the average reach on an empty board, per kind (mobility baseline).
    mobility_base: [i32; MAX_KINDS],
    /// Sets of squares in `u128` (every board) and, for boards of at most
    /// 64 squares, in `u64`: the evaluation reads those of the position's word.
    masks: Masks,
    masks64: Option<Masks<u64>>,
    /// Manhattan distance from the centre in half-squares, per square
    /// (corners farthest), and its maximum.
    from_centre: Vec<i32>,
    max_from_centre: i32,
    /// Attack weight of each kind on the king's zone.
    king_attack_weight: [i32; MAX_KINDS],
    /// Per kind, the kinds worth less (neither pawns nor royal), as bits.
    lesser: [u32; MAX_KINDS],
    /// Which optional king and space groups have a non-zero term: the
    /// search skips the others (they add nothing), the tuner never does.
    counts: Optional,
}

/// Groups of terms whose derived defaults are zero.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Optional {
    pub king_files: bool,
    pub safe_check: bool,
    pub space: bool,
}

/// The evaluation's sets of squares in one word.
#[derive(Debug)]
pub(crate) struct Masks<W: Word = u128> {
    /// What a pawn's terms read, per colour and square (one lookup a pawn).
    pub pawn_squares: [Vec<PawnSquare<W>>; 2],
    pub file_of: Vec<Bitboard<W>>,
    /// The king's square and its neighbours.
    pub king_zone: Vec<Bitboard<W>>,
    /// Squares one and two ranks in front of a king, per colour.
    pub shield: [Vec<Bitboard<W>>; 2],
    /// Per colour and king square, the squares in front of the king on
    /// each of its three files (the middle one kept off the edge, so a
    /// king in the corner is judged by three files too).
    pub king_files: [Vec<[Bitboard<W>; 3]>; 2],
    /// Per colour, the central half of the files on its ranks 2 to half
    /// the board: the squares a space advantage is counted on.
    pub space_zone: [Bitboard<W>; 2],
    pub light_squares: Bitboard<W>,
    /// Per colour and kind, for a kind whose captures are plain leaps:
    /// each index offset of its captures with the squares it may leave
    /// from, so the attacks of all its pieces are a few shifts.
    pub capture_shifts: [Vec<Option<Shifts<W>>>; 2],
}

/// Index offsets, each with the squares a piece may leave from by it.
pub(crate) type Shifts<W> = Vec<(i32, Bitboard<W>)>;

/// The sets a pawn of one colour on one square is judged by.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PawnSquare<W: Word = u128> {
    /// Squares in front on its own and the adjacent files.
    pub passed_span: Bitboard<W>,
    /// Squares in front on its own file.
    pub file_ahead: Bitboard<W>,
    /// Squares on the adjacent files level with or behind it.
    pub support_span: Bitboard<W>,
    pub adjacent_files: Bitboard<W>,
    /// Squares beside it on its rank, on the adjacent files.
    pub beside: Bitboard<W>,
    /// The square in front.
    pub front: Option<Square>,
    pub relative_rank: usize,
}

impl PawnSquare {
    fn convert<V: Word>(&self) -> PawnSquare<V> {
        PawnSquare {
            passed_span: self.passed_span.convert(),
            file_ahead: self.file_ahead.convert(),
            support_span: self.support_span.convert(),
            adjacent_files: self.adjacent_files.convert(),
            beside: self.beside.convert(),
            front: self.front,
            relative_rank: self.relative_rank,
        }
    }
}

impl Masks {
    /// The same sets in another word, which must hold the board.
    fn convert<V: Word>(&self) -> Masks<V> {
        let sets = |v: &[Bitboard]| v.iter().map(|b| b.convert()).collect::<Vec<_>>();
        Masks {
            pawn_squares: self
                .pawn_squares
                .each_ref()
                .map(|v| v.iter().map(PawnSquare::convert).collect()),
            file_of: sets(&self.file_of),
            king_zone: sets(&self.king_zone),
            shield: self.shield.each_ref().map(|v| sets(v)),
            king_files: self
                .king_files
                .each_ref()
                .map(|v| v.iter().map(|f| f.map(|b| b.convert())).collect()),
            space_zone: self.space_zone.map(|b| b.convert()),
            light_squares: self.light_squares.convert(),
            capture_shifts: self.capture_shifts.each_ref().map(|by_kind| {
                by_kind
                    .iter()
                    .map(|shifts| {
                        shifts.as_ref().map(|list| {
                            list.iter()
                                .map(|&(delta, from)| (delta, from.convert()))
                                .collect()
                        })
                    })
                    .collect()
            }),
        }
    }
}

/// A material lead from which the stronger side is steered to mate (mop-up).
const MOP_UP_LEAD: Score = 400;

type Cache = Mutex<HashMap<usize, Arc<EvalTables>>>;

fn cache() -> &'static Cache {
    static CACHE: OnceLock<Cache> = OnceLock::new();
    CACHE.get_or_init(Default::default)
}

/// The tables of a variant (variants are interned, so the address is its identity).
pub fn tables(variant: &'static Variant) -> Arc<EvalTables> {
    let mut map = cache().lock().unwrap_or_else(|e| e.into_inner());
    map.entry(variant as *const Variant as usize)
        .or_insert_with(|| Arc::new(EvalTables::new(variant)))
        .clone()
}

/// From now on, `variant` is evaluated with the built-in terms overridden
/// by the parameter file `text` (the UCI option `EvalFile`).
pub fn load_params(variant: &'static Variant, text: &str) -> Result<(), ParamsError> {
    let mut params = EvalTables::new(variant).params;
    params.read_toml(text)?;
    let t = Arc::new(EvalTables::with_params(variant, params));
    let mut map = cache().lock().unwrap_or_else(|e| e.into_inner());
    map.insert(variant as *const Variant as usize, t);
    Ok(())
}

/// A value for a piece whose file gives none, fitted to the chess pieces'
/// average reach on an empty 8x8 board (N 5.25, B 8.75, R 14, Q 22.75).
pub fn derived_value(average_reach: f64) -> Score {
    (20.0 * average_reach + 0.6 * average_reach * average_reach + 150.0).round() as Score
}

/// What the derived defaults and the tables both need from the board.
struct Geometry {
    value: [Score; MAX_KINDS],
    pawn: [bool; MAX_KINDS],
    mobility_base: [i32; MAX_KINDS],
    /// Reach on the empty board, per kind and square (White's tables).
    reach_at: Vec<Vec<i32>>,
}

impl Geometry {
    fn new(v: &'static Variant) -> Geometry {
        let shape = v.shape;
        let n = shape.len();
        let mut value = [0; MAX_KINDS];
        let mut pawn = [false; MAX_KINDS];
        let mut mobility_base = [0; MAX_KINDS];
        let mut reach_at = vec![vec![0; n]; v.kinds.len()];
        for (k, info) in v.kinds.iter().enumerate() {
            let t = v.boards.tables(Color::White, Kind(k as u8));
            for sq in shape.squares() {
                reach_at[k][sq.index()] = (v.boards.reach(&t.capture, sq, Bitboard::EMPTY)
                    | v.boards.reach(&t.quiet, sq, Bitboard::EMPTY))
                .count() as i32;
            }
            let average = reach_at[k].iter().sum::<i32>() as f64 / n as f64;
            mobility_base[k] = (average / 2.0).round() as i32;
            pawn[k] = info.pawn;
            value[k] = match (info.royal, info.pawn, info.value) {
                (true, _, _) => 0,
                (_, _, given) if given > 0 => given,
                (_, true, _) => 100,
                _ => derived_value(average),
            };
        }
        Geometry {
            value,
            pawn,
            mobility_base,
            reach_at,
        }
    }

    /// How much more than its average a piece reaches from `sq` (White's view).
    fn reach_coefficient(&self, k: usize, sq: Square) -> i32 {
        (self.reach_at[k][sq.index()] - 2 * self.mobility_base[k]).clamp(-10, 10)
    }
}

/// Terms derived from the variant's pieces and board alone, for a variant
/// without a tuned file (and the start of tuning).
fn derived_params(v: &'static Variant, g: &Geometry) -> Params {
    let mut p = Params::zero(v);
    let l = p.layout.clone();
    let shape = v.shape;
    let last_rank = shape.ranks as i32 - 1;
    let fb_max = (l.file_buckets as i32 - 1).max(1);
    for k in 0..l.kinds {
        let value = g.value[k];
        p.terms[l.material + k] = pair(value, value);
        if v.kinds[k].royal {
            for r in 0..l.ranks {
                let rel = r as i32;
                // Middlegame: stay home; endgame: come to the centre.
                let centre = last_rank - (2 * rel - last_rank).abs();
                p.terms[l.of_kind(l.rank, l.ranks, k, r)] =
                    pair(-25 * rel.min(3), 12 * centre / last_rank.max(1) - 6);
            }
            for f in 0..l.file_buckets {
                p.terms[l.of_kind(l.file, l.file_buckets, k, f)] =
                    pair(0, 12 * f as i32 / fb_max - 6);
            }
        } else if g.pawn[k] {
            for r in 0..l.ranks {
                p.terms[l.of_kind(l.rank, l.ranks, k, r)] = pair(3 * r as i32, 6 * r as i32);
            }
            for f in 0..l.file_buckets {
                p.terms[l.of_kind(l.file, l.file_buckets, k, f)] = pair(4 * f as i32, 0);
            }
        } else {
            p.terms[l.reach + k] = pair(3, 2);
            p.terms[l.mobility + k] = pair(3, 4);
        }
    }
    // Linear and quadratic in the attack units (the quadratic counts units^2 / 4).
    p.terms[l.king_danger] = pair(-5, 0);
    p.terms[l.king_danger + 1] = pair(-2, 0);
    for c in 0..SHELTER_BUCKETS {
        p.terms[l.shelter + c] = pair(10 * c as i32, 0);
    }
    p.terms[l.isolated] = pair(-10, -15);
    p.terms[l.doubled] = pair(-10, -20);
    for r in 0..l.ranks {
        let progress = r as i32 * 256 / last_rank.max(1);
        let p2 = progress * progress / 256;
        p.terms[l.passed + r] = pair(5 + 60 * p2 / 256, 10 + 170 * p2 / 256);
        p.terms[l.passed_free + r] = pair(0, 30 * p2 / 256);
    }
    p.terms[l.colour_pair] = pair(30, 45);
    p.terms[l.crowd_piece] = pair(8, 8);
    p.terms[l.crowd_king] = pair(30, 10);
    p.terms[l.tempo] = pair(12, 12);
    p
}

impl EvalTables {
    /// The tables with the variant's tuned terms, or derived ones.
    pub fn new(v: &'static Variant) -> EvalTables {
        let g = Geometry::new(v);
        let mut params = derived_params(v, &g);
        if let Some(text) = tuned_params(v.id()) {
            params
                .read_toml(text)
                .unwrap_or_else(|e| panic!("built-in parameters of {} broken: {e}", v.id()));
        }
        EvalTables::build(v, g, params)
    }

    /// The tables with the defaults derived from the variant alone.
    pub fn derived(v: &'static Variant) -> EvalTables {
        let g = Geometry::new(v);
        let params = derived_params(v, &g);
        EvalTables::build(v, g, params)
    }

    pub fn with_params(v: &'static Variant, params: Params) -> EvalTables {
        EvalTables::build(v, Geometry::new(v), params)
    }

    fn build(v: &'static Variant, g: Geometry, params: Params) -> EvalTables {
        assert_eq!(
            params.layout,
            Layout::new(v),
            "parameters of another variant"
        );
        let shape = v.shape;
        let n = shape.len();
        let kinds = v.kinds.len();
        let colour_bound: [bool; MAX_KINDS] =
            std::array::from_fn(|k| k < kinds && v.kinds[k].colour_bound);
        let phase_weight: [i32; MAX_KINDS] = std::array::from_fn(|k| {
            if k < kinds && !g.pawn[k] {
                g.value[k] / 100
            } else {
                0
            }
        });
        let start = parity_rules::fen::parse_setup(v, &v.spec.start_fen).ok();
        let full_phase = start
            .map(|s| {
                (0..kinds)
                    .map(|k| {
                        (s.pieces.white[k].count() + s.pieces.black[k].count()) as i32
                            * phase_weight[k]
                    })
                    .sum()
            })
            .unwrap_or(0)
            .max(1);

        let l = &params.layout;
        let last_rank = shape.ranks as usize - 1;
        let file_bucket: Vec<usize> = shape
            .squares()
            .map(|sq| {
                let f = shape.file(sq) as usize;
                f.min(shape.files as usize - 1 - f)
            })
            .collect();
        let relative_rank = Color::ALL.map(|c| {
            shape
                .squares()
                .map(|sq| {
                    let r = shape.rank(sq) as usize;
                    if c == Color::White {
                        r
                    } else {
                        last_rank - r
                    }
                })
                .collect::<Vec<_>>()
        });
        let mut psq = [
            vec![[Pair::default(); MAX_KINDS]; n],
            vec![[Pair::default(); MAX_KINDS]; n],
        ];
        let mut reach_coefficient = [vec![[0; MAX_KINDS]; n], vec![[0; MAX_KINDS]; n]];
        for color in Color::ALL {
            for sq in shape.squares() {
                // Reach tables are for White; mirror for Black.
                let wsq = if color == Color::White {
                    sq
                } else {
                    shape.flip_rank(sq)
                };
                let i = sq.index();
                for k in 0..kinds {
                    let rc = g.reach_coefficient(k, wsq);
                    reach_coefficient[color.index()][i][k] = rc;
                    psq[color.index()][i][k] = params.get(l.material + k)
                        + params.get(l.reach + k) * rc
                        + params.get(l.of_kind(l.file, l.file_buckets, k, file_bucket[i]))
                        + params.get(l.of_kind(
                            l.rank,
                            l.ranks,
                            k,
                            relative_rank[color.index()][i],
                        ));
                }
            }
        }

        let file_of: Vec<Bitboard> = shape
            .squares()
            .map(|sq| shape.file_mask(shape.file(sq)))
            .collect();
        let rank_of: Vec<Bitboard> = shape
            .squares()
            .map(|sq| shape.rank_mask(shape.rank(sq)))
            .collect();
        let adjacent_files: Vec<Bitboard> = shape
            .squares()
            .map(|sq| {
                let f = shape.file(sq) as i32;
                [f - 1, f + 1]
                    .into_iter()
                    .filter(|&x| x >= 0 && x < shape.files as i32)
                    .fold(Bitboard::EMPTY, |b, x| b | shape.file_mask(x as u8))
            })
            .collect();
        let ahead = |color: Color, sq: Square| -> Bitboard {
            let r = shape.rank(sq);
            (0..shape.ranks)
                .filter(|&x| if color == Color::White { x > r } else { x < r })
                .fold(Bitboard::EMPTY, |b, x| b | shape.rank_mask(x))
        };
        let passed_span = Color::ALL.map(|color| {
            shape
                .squares()
                .map(|sq| ahead(color, sq) & (file_of[sq.index()] | adjacent_files[sq.index()]))
                .collect::<Vec<_>>()
        });
        let support_span = Color::ALL.map(|color| {
            shape
                .squares()
                .map(|sq| adjacent_files[sq.index()] & !ahead(color, sq))
                .collect::<Vec<_>>()
        });
        let front = Color::ALL.map(|color| {
            shape
                .squares()
                .map(|sq| shape.offset(sq, 0, color.forward()))
                .collect::<Vec<_>>()
        });
        let king_zone: Vec<Bitboard> = shape
            .squares()
            .map(|sq| {
                let mut b = sq.bit();
                for dx in -1..=1 {
                    for dy in -1..=1 {
                        if let Some(t) = shape.offset(sq, dx, dy) {
                            b |= t.bit();
                        }
                    }
                }
                b
            })
            .collect();
        let shield = Color::ALL.map(|color| {
            shape
                .squares()
                .map(|sq| {
                    let dy = color.forward();
                    let mut b = Bitboard::EMPTY;
                    for dx in -1..=1 {
                        for step in 1..=2 {
                            if let Some(t) = shape.offset(sq, dx, dy * step) {
                                b |= t.bit();
                            }
                        }
                    }
                    b
                })
                .collect()
        });
        let king_files = Color::ALL.map(|color| {
            shape
                .squares()
                .map(|sq| {
                    let last = shape.files as i32 - 1;
                    let middle = (shape.file(sq) as i32).clamp(1, (last - 1).max(1));
                    std::array::from_fn(|i| {
                        let f = middle + i as i32 - 1;
                        if (0..=last).contains(&f) {
                            ahead(color, sq) & shape.file_mask(f as u8)
                        } else {
                            Bitboard::EMPTY
                        }
                    })
                })
                .collect()
        });
        let space_zone = Color::ALL.map(|color| {
            shape
                .squares()
                .filter(|&sq| {
                    let rank = relative_rank[color.index()][sq.index()];
                    2 * file_bucket[sq.index()] >= l.file_buckets
                        && (1..shape.ranks as usize / 2).contains(&rank)
                })
                .fold(Bitboard::EMPTY, |b, s| b | s.bit())
        });
        let light_squares = shape
            .squares()
            .filter(|&sq| (shape.file(sq) + shape.rank(sq)) % 2 == 1)
            .fold(Bitboard::EMPTY, |b, s| b | s.bit());
        let from_centre: Vec<i32> = shape
            .squares()
            .map(|sq| {
                (2 * shape.file(sq) as i32 + 1 - shape.files as i32).abs()
                    + (2 * shape.rank(sq) as i32 + 1 - shape.ranks as i32).abs()
            })
            .collect();
        let max_from_centre = from_centre.iter().copied().max().unwrap_or(0).max(1);
        let king_attack_weight = std::array::from_fn(|k| 1 + g.value[k] / 300);
        let capture_shifts = Color::ALL.map(|color| {
            (0..kinds)
                .map(|k| {
                    let capture = &v.boards.tables(color, Kind(k as u8)).capture;
                    let plain = capture.rides.is_empty() && capture.lame.iter().all(Vec::is_empty);
                    plain.then(|| {
                        let mut list: Vec<(i32, Bitboard)> = Vec::new();
                        for from in shape.squares() {
                            for to in capture.leaps[from.index()] {
                                let delta = to.0 as i32 - from.0 as i32;
                                match list.iter_mut().find(|(d, _)| *d == delta) {
                                    Some((_, set)) => *set = set.with(from),
                                    None => list.push((delta, from.bit())),
                                }
                            }
                        }
                        list
                    })
                })
                .collect()
        });
        let lesser = std::array::from_fn(|k| {
            (0..kinds)
                .filter(|&j| {
                    !g.pawn[j] && j != v.royal.index() && k < kinds && g.value[j] < g.value[k]
                })
                .fold(0u32, |bits, j| bits | 1 << j)
        });
        let pawn_squares = Color::ALL.map(|color| {
            let c = color.index();
            shape
                .squares()
                .map(|sq| {
                    let i = sq.index();
                    PawnSquare {
                        passed_span: passed_span[c][i],
                        file_ahead: passed_span[c][i] & file_of[i],
                        support_span: support_span[c][i],
                        adjacent_files: adjacent_files[i],
                        beside: adjacent_files[i] & rank_of[i],
                        front: front[c][i],
                        relative_rank: relative_rank[c][i],
                    }
                })
                .collect()
        });
        let masks = Masks {
            capture_shifts,
            pawn_squares,
            file_of,
            king_zone,
            shield,
            king_files,
            space_zone,
            light_squares,
        };
        let any = |groups: &[&str]| {
            l.group_ranges()
                .into_iter()
                .filter(|(name, _)| groups.contains(name))
                .any(|(_, range)| range.into_iter().any(|i| params.get(i) != Pair::default()))
        };
        let counts = Optional {
            king_files: any(&["shelter_file", "storm_file", "storm_blocked"]),
            safe_check: any(&["safe_check"]),
            space: any(&["space"]),
        };
        EvalTables {
            value: g.value,
            params,
            royal: v.royal,
            pawn: g.pawn,
            colour_bound,
            psq,
            reach_coefficient,
            file_bucket,
            relative_rank,
            phase_weight,
            full_phase,
            mobility_base: g.mobility_base,
            masks64: (n <= u64::BITS as usize).then(|| masks.convert()),
            masks,
            from_centre,
            max_from_centre,
            king_attack_weight,
            lesser,
            counts,
        }
    }

    /// The sets of squares in word `W` (a position's word always fits).
    #[inline]
    fn masks<W: Word>(&self) -> &Masks<W> {
        use std::any::Any;
        let wide: &dyn Any = &self.masks;
        wide.downcast_ref()
            .or_else(|| {
                let narrow: &dyn Any = self.masks64.as_ref()?;
                narrow.downcast_ref()
            })
            .expect("the evaluation's sets in the position's word")
    }

    /// Mixes a middlegame and an endgame score by the phase.
    #[inline]
    fn taper(&self, s: Pair, phase: i32) -> Score {
        let phase = phase.min(self.full_phase);
        (s.mg * phase + s.eg * (self.full_phase - phase)) / self.full_phase
    }
}

/// How far mobility, threats and king safety may plausibly move a score.
const LAZY_MARGIN: Score = 400;

/// Static evaluation from the side to move's point of view.
pub fn evaluate<B: TurnPosition>(pos: &B, t: &EvalTables) -> Score {
    evaluate_within(pos, t, -MATE, MATE)
}

/// Static evaluation for the side to move; when the score is clearly
/// outside `alpha..beta`, the costly terms are skipped and a rough score
/// is returned.
pub fn evaluate_within<B: TurnPosition>(
    pos: &B,
    t: &EvalTables,
    alpha: Score,
    beta: Score,
) -> Score {
    evaluate_lazily(pos, t, alpha, beta).0
}

/// [`evaluate_within`], and whether every term counted (false when the
/// costly ones were skipped): only full scores may be cached.
pub fn evaluate_lazily<B: TurnPosition>(
    pos: &B,
    t: &EvalTables,
    alpha: Score,
    beta: Score,
) -> (Score, bool) {
    let side = pos.side();
    if side == Color::White {
        terms::score(pos, t, Some(side), alpha, beta)
    } else {
        let (score, full) = terms::score(pos, t, Some(side), -beta, -alpha);
        (-score, full)
    }
}

/// The static evaluation of `pos` by group of terms, for White: each
/// group's middlegame and endgame values and their mix at the position's
/// phase, and the phase as a share of the full one (the `eval` command).
/// `side` is the side to move, None in the simultaneous variants.
pub fn evaluate_by_group<V: PieceView>(
    pos: &V,
    t: &EvalTables,
    side: Option<Color>,
) -> (Vec<(&'static str, Pair, Score)>, f64) {
    let tr = trace(pos, t, side);
    let rows = tr
        .by_group(t)
        .into_iter()
        .map(|(name, value)| (name, value, t.taper(value, tr.phase)))
        .collect();
    let share = tr.phase.min(t.full_phase) as f64 / t.full_phase as f64;
    (rows, share)
}

/// The mop-up term alone for the side to move (0 unless one side leads
/// by a piece): a learned evaluation's scores get it on top.
pub fn mop_up<B: TurnPosition>(pos: &B, t: &EvalTables) -> Score {
    let white = terms::mop_up_only(pos, t);
    if pos.side() == Color::White {
        white
    } else {
        -white
    }
}

/// Static evaluation for White, without a side to move (the simultaneous
/// variants have none); lazy outside `alpha..beta` as [`evaluate_within`].
pub fn evaluate_white<V: PieceView>(pos: &V, t: &EvalTables, alpha: Score, beta: Score) -> Score {
    terms::score(pos, t, None, alpha, beta).0
}

#[cfg(test)]
mod tests;
