//! Variants as data: a TOML [`VariantSpec`] compiled into a [`Variant`] with
//! attack tables for its board shape.

use serde::{Deserialize, Serialize};

use crate::betza::MoveRule;
use crate::geometry::{Bitboard, Shape, Square, Word};
use crate::slide::SlideTable;
use crate::types::{Color, Kind};

/// How a variant's turns work. The crowd family comes with its own module.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Family {
    TurnBased,
    /// Both sides choose a move on the same position; see `simultaneous`.
    Simultaneous,
    /// Turn-based, but a square may hold a crowd of pieces; see `crowd`.
    Crowd,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CastlingStyle {
    /// No castling.
    None,
    /// FIDE castling: the king goes to a fixed file, the partner lands beside it.
    Standard,
    /// Pacey's free castling: the king leaps to any empty, unattacked square
    /// between it and the partner; the partner leaps to the king's square.
    Free,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum StalemateResult {
    Draw,
    Loss,
    Win,
}

/// The rules that tell the three simultaneous variants apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SimRules {
    /// A piece that just moved may not move in the next turn (Murali's rule 2).
    pub waiting_rule: bool,
    /// Co-occupants must leave a shared square on the next turn (parity-single).
    pub single_occupation: bool,
    pub check: CheckModel,
}

impl Default for SimRules {
    fn default() -> SimRules {
        SimRules {
            waiting_rule: true,
            single_occupation: false,
            check: CheckModel::Parity,
        }
    }
}

/// How check restricts moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CheckModel {
    /// Murali: immediate check (from a piece free to move) allows only king
    /// moves; a king may not step where a waiting enemy piece attacks.
    Parity,
    /// Smythe: chess legality judged on the current position alone.
    MoveNeutral,
}

/// The fully resolved description of a variant.
#[derive(Clone, Debug)]
pub struct VariantSpec {
    pub id: String,
    pub name: String,
    pub description: String,
    pub family: Family,
    /// Set exactly when `family` is simultaneous.
    pub simultaneous: Option<SimRules>,
    pub shape: Shape,
    pub pieces: Vec<ResolvedPiece>,
    pub start_fen: String,
    pub promotion: Vec<char>,
    pub castling: CastlingStyle,
    pub castling_partners: Vec<char>,
    pub castling_king_files: [u8; 2],
    pub fifty_move_rule: bool,
    pub repetition: u8,
    pub insufficient_material: bool,
    pub stalemate: StalemateResult,
}

#[derive(Clone, Debug)]
pub struct ResolvedPiece {
    pub letter: char,
    pub name: String,
    pub betza: String,
    pub rules: Vec<MoveRule>,
    pub value: i32,
    pub royal: bool,
    pub pawn: bool,
    pub minor: bool,
}

/// Rider directions a variant may use (the queen needs 8, a nightrider 8 more).
pub const MAX_DIRECTIONS: usize = 16;

/// Most slide tables the riding attackers of one colour look up (see
/// [`Boards::rider_slides`]); directions beyond them are walked.
pub const MAX_RIDER_SLIDES: usize = 8;

/// A ray direction: a step vector and, per square, the full ray to the edge.
#[derive(Debug)]
pub struct Direction<W: Word = u128> {
    pub step: (i8, i8),
    /// True if the square index grows along the ray (nearest blocker = lowest bit).
    pub ascending: bool,
    pub ray: Vec<Bitboard<W>>,
}

/// A rider move of one piece: direction index and per-square reachable ray.
#[derive(Debug, PartialEq, Eq)]
pub struct Ride<W: Word = u128> {
    pub dir: usize,
    pub mask: Vec<Bitboard<W>>,
    /// The direction's `ascending` and `ray`, kept here so that an attack
    /// reads one place.
    pub ascending: bool,
    pub beyond: Vec<Bitboard<W>>,
}

/// Everything a piece can reach in one mode (moving or capturing).
#[derive(Debug, Default, PartialEq, Eq)]
pub struct MoveSet<W: Word = u128> {
    /// Unblockable leaps, per square.
    pub leaps: Vec<Bitboard<W>>,
    /// Lame leaps: destination and the squares that must be empty, per square.
    pub lame: Vec<Vec<(Square, Bitboard<W>)>>,
    pub rides: Vec<Ride<W>>,
    /// Rides in unit steps without range limit, looked up by groups of
    /// directions (in the `u64` tables only; these are then not in `rides`).
    pub slides: Vec<&'static SlideTable<W>>,
}

impl<W: Word> MoveSet<W> {
    fn is_simple(&self) -> bool {
        self.lame.iter().all(Vec::is_empty)
    }
}

/// One piece type of one colour, compiled for a board.
#[derive(Debug)]
pub struct PieceTables<W: Word = u128> {
    pub quiet: MoveSet<W>,
    pub capture: MoveSet<W>,
    /// Squares on which this piece can capture en passant, per square.
    pub en_passant: Vec<Bitboard<W>>,
    /// Squares from which this piece can capture en passant onto the indexed square.
    pub en_passant_from: Vec<Bitboard<W>>,
    /// Quiet and capture sets are the same, so one attack serves both.
    pub symmetric_modes: bool,
    /// Besides, no lame leaps, no en passant and not a pawn: a piece's
    /// moves are its attack less its own side's squares.
    pub plain: bool,
    /// Squares from which a piece of this kind attacks the indexed square.
    pub reverse_capture: MoveSet<W>,
    /// For a leaper with few leaps and no lame captures (a pawn), its moves
    /// as shifts of the whole set of its pieces, so a count needs no loop
    /// over the pieces. `None` for other kinds.
    pub shifts: Option<Vec<LeapShift<W>>>,
}

/// Leaps of several pieces at once that share one index offset: a piece on
/// `quiet_from` goes `delta` squares on to an empty square, one on
/// `capture_from` to an enemy; one on a square of a `lame` entry to an
/// empty square when the squares at the listed offsets are empty too.
#[derive(Debug, PartialEq, Eq)]
pub struct LeapShift<W: Word = u128> {
    pub delta: i32,
    pub quiet_from: Bitboard<W>,
    pub capture_from: Bitboard<W>,
    pub lame: Vec<(Vec<i32>, Bitboard<W>)>,
}

/// Most shifts a kind may have to be counted by shifts (a pawn has 4).
const MAX_SHIFTS: usize = 4;

impl<W: Word> PieceTables<W> {
    /// The moves of this kind as shifts (see [`PieceTables::shifts`]).
    fn leap_shifts(&self, shape: Shape) -> Option<Vec<LeapShift<W>>> {
        let simple = self.quiet.rides.is_empty()
            && self.capture.rides.is_empty()
            && self.quiet.slides.is_empty()
            && self.capture.slides.is_empty()
            && self.capture.lame.iter().all(Vec::is_empty);
        if !simple {
            return None;
        }
        let mut out: Vec<LeapShift<W>> = Vec::new();
        fn entry<W: Word>(out: &mut Vec<LeapShift<W>>, delta: i32) -> &mut LeapShift<W> {
            let i = match out.iter().position(|s| s.delta == delta) {
                Some(i) => i,
                None => {
                    out.push(LeapShift {
                        delta,
                        quiet_from: Bitboard::EMPTY,
                        capture_from: Bitboard::EMPTY,
                        lame: Vec::new(),
                    });
                    out.len() - 1
                }
            };
            &mut out[i]
        }
        for from in shape.squares() {
            let offset = |sq: Square| sq.0 as i32 - from.0 as i32;
            for to in self.quiet.leaps[from.index()] {
                let e = entry(&mut out, offset(to));
                e.quiet_from = e.quiet_from.with(from);
            }
            for to in self.capture.leaps[from.index()] {
                let e = entry(&mut out, offset(to));
                e.capture_from = e.capture_from.with(from);
            }
            for &(to, path) in &self.quiet.lame[from.index()] {
                let path: Vec<i32> = path.map(offset).collect();
                let lame = &mut entry(&mut out, offset(to)).lame;
                match lame.iter().position(|(p, _)| *p == path) {
                    Some(j) => lame[j].1 = lame[j].1.with(from),
                    None => lame.push((path, from.bit())),
                }
            }
        }
        (out.len() <= MAX_SHIFTS).then_some(out)
    }
}

/// A variant's attack tables in one word size: what move generation and
/// attack detection read. Every variant has them in `u128`; boards of at
/// most 64 squares also in `u64` (see [`Variant::boards_in`]).
#[derive(Debug)]
pub struct Boards<W: Word = u128> {
    pub dirs: Vec<Direction<W>>,
    /// Per colour, per kind.
    pub tables: [Vec<PieceTables<W>>; 2],
    /// Squares where a pawn of each colour must promote.
    pub promotion_zone: [Bitboard<W>; 2],
    /// Per colour: for each direction, the kinds whose capture rides it
    /// without range limit, looking back from the attacked square.
    pub reverse_riders: [Vec<u32>; 2],
    /// The same per colour as groups: a set of kinds (never empty) and
    /// the set of directions that set of kinds rides, less those of
    /// `rider_slides` (so every group has directions to walk).
    pub rider_groups: [Vec<(u32, u32)>; 2],
    /// Per colour: the directions of `rider_groups` looked up in a slide
    /// table, as the group's kinds, the table and its directions.
    pub rider_slides: [Vec<(u32, &'static SlideTable<W>, u32)>; 2],
    /// Per colour: kinds whose reverse capture set has plain leaps.
    pub reverse_leapers: [u32; 2],
    /// Per colour: kinds with lame leaps or range-limited rides in their
    /// capture set; their whole reverse set is checked.
    pub reverse_complex: [u32; 2],
}

#[derive(Debug)]
pub struct KindInfo {
    pub letter: char,
    pub name: String,
    pub value: i32,
    pub royal: bool,
    pub pawn: bool,
    pub minor: bool,
    /// Never leaves its square colour (like a bishop).
    pub colour_bound: bool,
}

/// A compiled variant: the spec plus per-board tables.
#[derive(Debug)]
pub struct Variant {
    pub spec: VariantSpec,
    pub shape: Shape,
    pub kinds: Vec<KindInfo>,
    pub royal: Kind,
    pub promotion_kinds: Vec<Kind>,
    /// Kinds that may castle with the king, as a bit set over kind indices.
    pub castling_partner_kinds: u32,
    /// The attack tables, in the word that fits every board.
    pub boards: Boards,
    /// The same tables in 64-bit words, for boards of at most 64 squares.
    pub boards64: Option<Boards<u64>>,
    /// Some piece has a lame or range-limited capture: fall back to checking
    /// each move by playing it.
    pub needs_slow_legality: bool,
    pub zobrist: crate::zobrist::Keys,
}

impl Variant {
    pub fn id(&self) -> &str {
        &self.spec.id
    }

    pub fn kind_by_letter(&self, letter: char) -> Option<Kind> {
        let up = letter.to_ascii_uppercase();
        self.kinds
            .iter()
            .position(|k| k.letter == up)
            .map(|i| Kind(i as u8))
    }

    pub fn kind(&self, kind: Kind) -> &KindInfo {
        &self.kinds[kind.index()]
    }

    /// Every piece moves alike to the left and to the right, so a position
    /// mirrored file for file (without castling rights) is as good.
    pub fn moves_mirror_symmetric(&self) -> bool {
        self.spec.pieces.iter().all(|p| {
            p.rules.iter().all(|r| {
                p.rules
                    .contains(&crate::betza::MoveRule { dx: -r.dx, ..*r })
            })
        })
    }

    /// The attack tables in word `W`, if the board fits in it.
    pub fn boards_in<W: Word>(&self) -> Option<&Boards<W>> {
        use std::any::Any;
        let wide: &dyn Any = &self.boards;
        wide.downcast_ref().or_else(|| {
            let narrow: &dyn Any = self.boards64.as_ref()?;
            narrow.downcast_ref()
        })
    }

    /// The first-rank (home) squares of a colour.
    pub fn home_rank(&self, color: Color) -> Bitboard {
        self.shape.rank_mask(if color == Color::White {
            0
        } else {
            self.shape.ranks - 1
        })
    }

    pub(crate) fn compile(spec: VariantSpec) -> Variant {
        let shape = spec.shape;
        let kinds: Vec<KindInfo> = spec
            .pieces
            .iter()
            .map(|p| KindInfo {
                letter: p.letter,
                name: p.name.clone(),
                value: p.value,
                royal: p.royal,
                pawn: p.pawn,
                minor: p.minor,
                colour_bound: p.rules.iter().all(|r| (r.dx + r.dy) % 2 == 0),
            })
            .collect();
        let royal = Kind(kinds.iter().position(|k| k.royal).unwrap_or(0) as u8);
        let kind_of = |c: char| Kind(kinds.iter().position(|k| k.letter == c).unwrap_or(0) as u8);
        let promotion_kinds = spec.promotion.iter().map(|&c| kind_of(c)).collect();
        let castling_partner_kinds = spec
            .castling_partners
            .iter()
            .fold(0u32, |m, &c| m | 1 << kind_of(c).0);

        // Directions used by any rider, in both orientations.
        let mut steps: Vec<(i8, i8)> = Vec::new();
        for p in &spec.pieces {
            for r in p.rules.iter().filter(|r| r.is_rider()) {
                for s in [(r.dx, r.dy), (-r.dx, -r.dy), (r.dx, -r.dy), (-r.dx, r.dy)] {
                    if !steps.contains(&s) {
                        steps.push(s);
                    }
                }
            }
        }
        let dirs: Vec<Direction> = steps
            .iter()
            .map(|&(dx, dy)| Direction {
                step: (dx, dy),
                ascending: (dy as i32) * shape.files as i32 + dx as i32 > 0,
                ray: shape
                    .squares()
                    .map(|sq| ray_mask(shape, sq, dx, dy, 0))
                    .collect(),
            })
            .collect();
        assert!(dirs.len() <= MAX_DIRECTIONS, "checked in resolve_spec");
        let dir_index = |dx: i8, dy: i8| {
            dirs.iter()
                .position(|d| d.step == (dx, dy))
                .expect("direction registered")
        };

        // Ranks each kind of each colour starts on, for `i` moves.
        let start_board = spec.start_fen.split_whitespace().next().unwrap_or("");
        let home_ranks = |color: Color, letter: char| -> Vec<u8> {
            let target = if color == Color::White {
                letter
            } else {
                letter.to_ascii_lowercase()
            };
            start_board
                .split('/')
                .enumerate()
                // A malformed start (too many rows) is refused later; never overflow here.
                .take(shape.ranks as usize)
                .filter(|(_, row)| row.contains(target))
                .map(|(i, _)| shape.ranks.saturating_sub(1 + i as u8))
                .collect()
        };

        let mut needs_slow_legality = false;
        let tables: [Vec<PieceTables>; 2] = Color::ALL.map(|color| {
            spec.pieces
                .iter()
                .map(|p| {
                    let orient = |r: &MoveRule| {
                        if color == Color::White {
                            (r.dx, r.dy)
                        } else {
                            (r.dx, -r.dy)
                        }
                    };
                    let homes = home_ranks(color, p.letter);
                    let build = |want_capture: bool, reverse: bool| -> MoveSet {
                        let mut set = MoveSet {
                            leaps: vec![Bitboard::EMPTY; shape.len()],
                            lame: vec![Vec::new(); shape.len()],
                            rides: Vec::new(),
                            slides: Vec::new(),
                        };
                        let mut ride_masks: Vec<(usize, Vec<Bitboard>)> = Vec::new();
                        for r in &p.rules {
                            let ok = if want_capture {
                                r.can_capture
                            } else {
                                r.can_move
                            };
                            if !ok {
                                continue;
                            }
                            let (mut dx, mut dy) = orient(r);
                            if reverse {
                                (dx, dy) = (-dx, -dy);
                            }
                            for sq in shape.squares() {
                                // Reverse tables look from the target; `i` then
                                // applies to the origin square, which we cannot
                                // know here, so initial-only moves never attack.
                                if r.initial && (reverse || !homes.contains(&shape.rank(sq))) {
                                    continue;
                                }
                                if r.range == 1 {
                                    let Some(to) = shape.offset(sq, dx as i32, dy as i32) else {
                                        continue;
                                    };
                                    if r.lame {
                                        let g = gcd(dx.unsigned_abs(), dy.unsigned_abs()) as i8;
                                        let (ux, uy) = (dx / g, dy / g);
                                        let path = (1..g)
                                            .filter_map(|k| {
                                                shape.offset(sq, (ux * k) as i32, (uy * k) as i32)
                                            })
                                            .fold(Bitboard::EMPTY, |b, s| b.with(s));
                                        set.lame[sq.index()].push((to, path));
                                    } else {
                                        set.leaps[sq.index()] |= to.bit();
                                    }
                                } else {
                                    let d = dir_index(dx, dy);
                                    let entry = match ride_masks.iter().position(|(dd, _)| *dd == d)
                                    {
                                        Some(i) => i,
                                        None => {
                                            ride_masks
                                                .push((d, vec![Bitboard::EMPTY; shape.len()]));
                                            ride_masks.len() - 1
                                        }
                                    };
                                    ride_masks[entry].1[sq.index()] |=
                                        ray_mask(shape, sq, dx, dy, r.range);
                                }
                            }
                        }
                        set.rides = ride_masks
                            .into_iter()
                            .map(|(dir, mask)| Ride {
                                dir,
                                mask,
                                ascending: dirs[dir].ascending,
                                beyond: dirs[dir].ray.clone(),
                            })
                            .collect();
                        set
                    };
                    let quiet = build(false, false);
                    let capture = build(true, false);
                    let reverse_capture = build(true, true);
                    let en_passant: Vec<Bitboard> = shape
                        .squares()
                        .map(|sq| {
                            p.rules
                                .iter()
                                .filter(|r| r.en_passant && r.range == 1 && !r.lame)
                                .filter_map(|r| {
                                    let (dx, dy) = orient(r);
                                    shape.offset(sq, dx as i32, dy as i32)
                                })
                                .fold(Bitboard::EMPTY, |b, s| b.with(s))
                        })
                        .collect();
                    let mut en_passant_from = vec![Bitboard::EMPTY; shape.len()];
                    for from in shape.squares() {
                        for to in en_passant[from.index()] {
                            en_passant_from[to.index()] |= from.bit();
                        }
                    }
                    if !capture.is_simple() || p.rules.iter().any(|r| r.can_capture && r.range > 1)
                    {
                        needs_slow_legality = true;
                    }
                    let symmetric_modes = quiet == capture;
                    let plain = symmetric_modes
                        && !p.pawn
                        && quiet.lame.iter().all(Vec::is_empty)
                        && en_passant.iter().all(|b| b.is_empty());
                    let mut t = PieceTables {
                        quiet,
                        capture,
                        en_passant,
                        en_passant_from,
                        symmetric_modes,
                        plain,
                        reverse_capture,
                        shifts: None,
                    };
                    t.shifts = t.leap_shifts(shape);
                    t
                })
                .collect()
        });

        let reverse_riders: [Vec<u32>; 2] = [0, 1].map(|c| {
            (0..dirs.len())
                .map(|d| {
                    tables[c].iter().enumerate().fold(0u32, |m, (k, t)| {
                        let full = t.reverse_capture.rides.iter().any(|r| {
                            r.dir == d
                                && shape
                                    .squares()
                                    .all(|sq| r.mask[sq.index()] == dirs[d].ray[sq.index()])
                        });
                        if full {
                            m | 1 << k
                        } else {
                            m
                        }
                    })
                })
                .collect()
        });
        let kinds_where = |c: usize, pred: &dyn Fn(&MoveSet) -> bool| {
            tables[c].iter().enumerate().fold(0u32, |m, (k, t)| {
                if pred(&t.reverse_capture) {
                    m | 1 << k
                } else {
                    m
                }
            })
        };
        let reverse_leapers =
            [0, 1].map(|c| kinds_where(c, &|rc| rc.leaps.iter().any(|b| b.any())));
        let reverse_complex = [0, 1].map(|c| {
            kinds_where(c, &|rc| {
                !rc.is_simple()
                    || rc.rides.iter().any(|r| {
                        shape
                            .squares()
                            .any(|sq| r.mask[sq.index()] != dirs[r.dir].ray[sq.index()])
                    })
            })
        });
        let promotion_zone = [shape.rank_mask(shape.ranks - 1), shape.rank_mask(0)];
        let zobrist = crate::zobrist::Keys::new(shape.len(), kinds.len());
        let rider_groups = reverse_riders.clone().map(|masks| {
            let mut groups: Vec<(u32, u32)> = Vec::new();
            for (d, &kinds) in masks.iter().enumerate().filter(|(_, &k)| k != 0) {
                match groups.iter_mut().find(|(k, _)| *k == kinds) {
                    Some((_, dirs)) => *dirs |= 1 << d,
                    None => groups.push((kinds, 1 << d)),
                }
            }
            groups
        });
        let boards = Boards {
            dirs,
            tables,
            promotion_zone,
            reverse_riders,
            rider_groups,
            rider_slides: [Vec::new(), Vec::new()],
            reverse_leapers,
            reverse_complex,
        };
        let boards64 = (shape.len() <= u64::BITS as usize).then(|| boards.convert(shape));
        Variant {
            shape,
            kinds,
            royal,
            promotion_kinds,
            castling_partner_kinds,
            boards,
            boards64,
            needs_slow_legality,
            zobrist,
            spec,
        }
    }
}

impl<W: Word> Boards<W> {
    #[inline]
    pub fn tables(&self, color: Color, kind: Kind) -> &PieceTables<W> {
        &self.tables[color.index()][kind.index()]
    }

    /// The attack of a ride from `sq` given occupancy.
    #[inline]
    pub fn ride_attack(&self, ride: &Ride<W>, sq: Square, occ: Bitboard<W>) -> Bitboard<W> {
        let ray = ride.mask[sq.index()];
        let blockers = ray & occ;
        if blockers.is_empty() {
            return ray;
        }
        let nearest = if ride.ascending {
            blockers.lowest()
        } else {
            blockers.highest()
        };
        match nearest {
            Some(b) => ray & !ride.beyond[b.index()],
            None => ray,
        }
    }

    /// The leaps and rides of a move set from `sq`, without its lame leaps
    /// (which move generation handles apart: they make double steps).
    #[inline(always)]
    pub fn leaps_and_rides(&self, set: &MoveSet<W>, sq: Square, occ: Bitboard<W>) -> Bitboard<W> {
        let mut out = set.leaps[sq.index()];
        for ride in &set.rides {
            out |= self.ride_attack(ride, sq, occ);
        }
        for slide in &set.slides {
            out |= slide.attack(sq, occ);
        }
        out
    }

    /// Every square a move set reaches from `sq` (ignoring what stands there).
    #[inline]
    pub fn reach(&self, set: &MoveSet<W>, sq: Square, occ: Bitboard<W>) -> Bitboard<W> {
        let mut out = self.leaps_and_rides(set, sq, occ);
        for &(to, path) in &set.lame[sq.index()] {
            if (path & occ).is_empty() {
                out |= to.bit();
            }
        }
        out
    }

    /// The same tables in another word, which must hold the board; in a
    /// 64-bit word, unit-step rides without range limit become slide tables.
    fn convert<V: Word>(&self, shape: Shape) -> Boards<V> {
        let steps: Vec<(i8, i8)> = self.dirs.iter().map(|d| d.step).collect();
        let boards = |v: &[Bitboard<W>]| v.iter().map(|b| b.convert()).collect::<Vec<_>>();
        let set = |m: &MoveSet<W>| {
            let full = m
                .rides
                .iter()
                .filter(|r| r.mask == r.beyond)
                .fold(0, |dirs, r| dirs | 1 << r.dir);
            let (slides, slid) = slide_tables(shape, &steps, full);
            MoveSet {
                leaps: boards(&m.leaps),
                lame: m
                    .lame
                    .iter()
                    .map(|l| l.iter().map(|&(sq, path)| (sq, path.convert())).collect())
                    .collect(),
                rides: m
                    .rides
                    .iter()
                    .filter(|r| slid >> r.dir & 1 == 0)
                    .map(|r| Ride {
                        dir: r.dir,
                        mask: boards(&r.mask),
                        ascending: r.ascending,
                        beyond: boards(&r.beyond),
                    })
                    .collect(),
                slides,
            }
        };
        let mut rider_slides = [Vec::new(), Vec::new()];
        let mut slid_dirs = [0, 0];
        for c in 0..2 {
            for &(kinds, dirs) in &self.rider_groups[c] {
                let (tables, _) = slide_tables(shape, &steps, dirs);
                for table in tables {
                    if rider_slides[c].len() < MAX_RIDER_SLIDES {
                        let dirs = table.steps().iter().fold(0, |m, &step| {
                            m | 1 << steps.iter().position(|&s| s == step).expect("a direction")
                        });
                        rider_slides[c].push((kinds, table, dirs));
                        slid_dirs[c] |= dirs;
                    }
                }
            }
        }
        Boards {
            dirs: self
                .dirs
                .iter()
                .map(|d| Direction {
                    step: d.step,
                    ascending: d.ascending,
                    ray: boards(&d.ray),
                })
                .collect(),
            tables: [0, 1].map(|c| {
                self.tables[c]
                    .iter()
                    .map(|t| {
                        let mut out = PieceTables {
                            quiet: set(&t.quiet),
                            capture: set(&t.capture),
                            en_passant: boards(&t.en_passant),
                            en_passant_from: boards(&t.en_passant_from),
                            symmetric_modes: t.symmetric_modes,
                            plain: t.plain,
                            reverse_capture: set(&t.reverse_capture),
                            shifts: None,
                        };
                        out.shifts = out.leap_shifts(shape);
                        out
                    })
                    .collect()
            }),
            promotion_zone: self.promotion_zone.map(Bitboard::convert),
            reverse_riders: self.reverse_riders.clone(),
            rider_groups: [0, 1].map(|c| {
                self.rider_groups[c]
                    .iter()
                    .map(|&(kinds, dirs)| (kinds, dirs & !slid_dirs[c]))
                    .filter(|&(_, dirs)| dirs != 0)
                    .collect()
            }),
            rider_slides,
            reverse_leapers: self.reverse_leapers,
            reverse_complex: self.reverse_complex,
        }
    }
}

/// Slide tables for the rides in the directions `dirs` (a bit per index
/// into `steps`) that go in unit steps: one for the orthogonal and one for
/// the diagonal ones, or one per line (a direction and its opposite) where
/// a group's table would be too large. Returns the tables and the
/// directions they cover; none in a word wider than 64 bits.
fn slide_tables<V: Word>(
    shape: Shape,
    steps: &[(i8, i8)],
    dirs: u32,
) -> (Vec<&'static SlideTable<V>>, u32) {
    let mut tables = Vec::new();
    let mut covered = 0u32;
    let bits = |ds: &[usize]| ds.iter().fold(0u32, |m, &d| m | 1 << d);
    let steps_of = |ds: &[usize]| ds.iter().map(|&d| steps[d]).collect::<Vec<_>>();
    for diagonal in [false, true] {
        let group: Vec<usize> = (0..steps.len())
            .filter(|&d| {
                let (dx, dy) = steps[d];
                dirs >> d & 1 != 0
                    && dx.abs().max(dy.abs()) == 1
                    && (dx != 0 && dy != 0) == diagonal
            })
            .collect();
        if group.is_empty() {
            continue;
        }
        if let Some(t) = SlideTable::shared::<V>(shape, &steps_of(&group)) {
            tables.push(t);
            covered |= bits(&group);
            continue;
        }
        for &d in &group {
            let (dx, dy) = steps[d];
            let line: Vec<usize> = group
                .iter()
                .copied()
                .filter(|&e| steps[e] == (dx, dy) || steps[e] == (-dx, -dy))
                .collect();
            if line[0] != d {
                continue;
            }
            if let Some(t) = SlideTable::shared::<V>(shape, &steps_of(&line)) {
                tables.push(t);
                covered |= bits(&line);
            }
        }
    }
    (tables, covered)
}

fn gcd(a: u8, b: u8) -> u8 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// Squares reached by stepping `(dx, dy)` from `sq`, at most `range` times (0 = to the edge).
fn ray_mask(shape: Shape, sq: Square, dx: i8, dy: i8, range: u8) -> Bitboard {
    let mut out = Bitboard::EMPTY;
    let mut cur = sq;
    let mut n = 0;
    while let Some(next) = shape.offset(cur, dx as i32, dy as i32) {
        out |= next.bit();
        cur = next;
        n += 1;
        if range != 0 && n >= range {
            break;
        }
    }
    out
}

/// Anything that belongs to one variant: positions and the views of them
/// that notation and evaluation read.
pub trait HasVariant {
    fn variant(&self) -> &'static Variant;
}
