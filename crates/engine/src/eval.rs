//! Evaluation for any variant file: material (from the file, or derived
//! from the piece's mobility when the file gives no value), piece-square
//! terms generated from the board's shape, mobility, king safety, pawn
//! structure and, for the crowd family, crowd shelter. Tapered between
//! middlegame and endgame by the non-pawn material left.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use parity_rules::position::MAX_KINDS;
use parity_rules::{Bitboard, Color, Kind, Square, Variant};

use parity_rules::{PieceView, TurnPosition};

/// Centipawns; mate scores lie beyond [`MATE_BOUND`].
pub type Score = i32;
pub const MATE: Score = 30_000;
pub const MATE_BOUND: Score = MATE - 1_000;
pub const TEMPO: Score = 12;

/// Per-variant tables, built once and shared.
#[derive(Debug)]
pub struct EvalTables {
    /// Material value per kind (the royal piece counts 0).
    pub value: [Score; MAX_KINDS],
    royal: Kind,
    pawn: [bool; MAX_KINDS],
    colour_bound: [bool; MAX_KINDS],
    /// Middlegame and endgame piece-square scores including material,
    /// per colour, kind and square.
    mg: [Vec<[Score; MAX_KINDS]>; 2],
    eg: [Vec<[Score; MAX_KINDS]>; 2],
    phase_weight: [i32; MAX_KINDS],
    full_phase: i32,
    /// Average reach on an empty board, per kind (mobility baseline).
    mobility_base: [i32; MAX_KINDS],
    /// Squares in front of a pawn on its own and adjacent files, per colour.
    passed_span: [Vec<Bitboard>; 2],
    /// Progress of a pawn toward promotion in [0, 256], per colour and square.
    progress: [Vec<i32>; 2],
    file_of: Vec<Bitboard>,
    adjacent_files: Vec<Bitboard>,
    /// The king's square and its neighbours.
    king_zone: Vec<Bitboard>,
    /// Squares one and two ranks in front of a king, per colour.
    shield: [Vec<Bitboard>; 2],
    light_squares: Bitboard,
    /// Manhattan distance from the centre in half-squares, per square
    /// (corners farthest), and its maximum.
    from_centre: Vec<i32>,
    max_from_centre: i32,
}

/// A material lead from which the stronger side is steered to mate (mop-up).
const MOP_UP_LEAD: Score = 400;

/// The tables of a variant (variants are interned, so the address is its identity).
pub fn tables(variant: &'static Variant) -> Arc<EvalTables> {
    static CACHE: OnceLock<Mutex<HashMap<usize, Arc<EvalTables>>>> = OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    let mut map = cache.lock().unwrap_or_else(|e| e.into_inner());
    map.entry(variant as *const Variant as usize)
        .or_insert_with(|| Arc::new(EvalTables::new(variant)))
        .clone()
}

/// A value for a piece whose file gives none, fitted to the chess pieces'
/// average reach on an empty 8x8 board (N 5.25, B 8.75, R 14, Q 22.75).
pub fn derived_value(average_reach: f64) -> Score {
    (20.0 * average_reach + 0.6 * average_reach * average_reach + 150.0).round() as Score
}

impl EvalTables {
    pub fn new(v: &'static Variant) -> EvalTables {
        let shape = v.shape;
        let n = shape.len();
        let kinds = v.kinds.len();
        let mut value = [0; MAX_KINDS];
        let mut pawn = [false; MAX_KINDS];
        let mut colour_bound = [false; MAX_KINDS];
        let mut mobility_base = [0; MAX_KINDS];
        let mut reach_at = vec![vec![0u32; n]; kinds];
        for (k, info) in v.kinds.iter().enumerate() {
            let t = v.tables(Color::White, Kind(k as u8));
            for sq in shape.squares() {
                reach_at[k][sq.index()] = (v.reach(&t.capture, sq, Bitboard::EMPTY)
                    | v.reach(&t.quiet, sq, Bitboard::EMPTY))
                .count();
            }
            let average = reach_at[k].iter().sum::<u32>() as f64 / n as f64;
            mobility_base[k] = (average / 2.0).round() as i32;
            pawn[k] = info.pawn;
            colour_bound[k] = info.colour_bound;
            value[k] = match (info.royal, info.pawn, info.value) {
                (true, _, _) => 0,
                (_, _, given) if given > 0 => given,
                (_, true, _) => 100,
                _ => derived_value(average),
            };
        }
        let phase_weight: [i32; MAX_KINDS] = std::array::from_fn(|k| {
            if k < kinds && !pawn[k] {
                value[k] / 100
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

        let center = |sq: Square| {
            // Distance from the centre in half-squares: 0 in the middle.
            let fx = (2 * shape.file(sq) as i32 + 1 - shape.files as i32).abs();
            let fy = (2 * shape.rank(sq) as i32 + 1 - shape.ranks as i32).abs();
            fx.max(fy)
        };
        let max_center = center(Square(0)).max(1);
        let mut mg = [vec![[0; MAX_KINDS]; n], vec![[0; MAX_KINDS]; n]];
        let mut eg = [vec![[0; MAX_KINDS]; n], vec![[0; MAX_KINDS]; n]];
        let mut progress = [vec![0; n], vec![0; n]];
        let last_rank = shape.ranks as i32 - 1;
        for color in Color::ALL {
            for sq in shape.squares() {
                let rel = if color == Color::White {
                    shape.rank(sq) as i32
                } else {
                    last_rank - shape.rank(sq) as i32
                };
                progress[color.index()][sq.index()] = rel * 256 / last_rank.max(1);
                // Reach tables are for White; mirror for Black.
                let wsq = if color == Color::White {
                    sq
                } else {
                    shape.flip_rank(sq)
                };
                let c = center(sq);
                for k in 0..kinds {
                    let (m, e) = if v.kinds[k].royal {
                        // Middlegame: stay home; endgame: come to the centre.
                        (-25 * rel.min(3), 24 * (max_center - c) / max_center - 12)
                    } else if pawn[k] {
                        let central = (max_center
                            - (2 * shape.file(sq) as i32 + 1 - shape.files as i32).abs())
                        .max(0);
                        (rel * central * 2, rel * 6)
                    } else {
                        let r = reach_at[k][wsq.index()] as i32;
                        let bonus = 3 * (r - mobility_base[k] * 2);
                        (bonus.clamp(-30, 30), (bonus / 2).clamp(-20, 20))
                    };
                    mg[color.index()][sq.index()][k] = value[k] + m;
                    eg[color.index()][sq.index()][k] = value[k] + e;
                }
            }
        }

        let file_of: Vec<Bitboard> = shape
            .squares()
            .map(|sq| shape.file_mask(shape.file(sq)))
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
                .collect()
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
        EvalTables {
            from_centre,
            max_from_centre,
            value,
            royal: v.royal,
            pawn,
            colour_bound,
            mg,
            eg,
            phase_weight,
            full_phase,
            mobility_base,
            passed_span,
            progress,
            file_of,
            adjacent_files,
            king_zone,
            shield,
            light_squares,
        }
    }
}

#[derive(Default, Clone, Copy)]
struct Side {
    mg: Score,
    eg: Score,
}

/// How far mobility and king safety may plausibly move a score.
const LAZY_MARGIN: Score = 350;

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
    if pos.side() == Color::White {
        evaluate_white(pos, t, alpha - TEMPO, beta - TEMPO) + TEMPO
    } else {
        TEMPO - evaluate_white(pos, t, TEMPO - beta, TEMPO - alpha)
    }
}

/// Static evaluation for White, without a side to move (the simultaneous
/// variants have none); lazy outside `alpha..beta` as [`evaluate_within`].
pub fn evaluate_white<V: PieceView>(pos: &V, t: &EvalTables, alpha: Score, beta: Score) -> Score {
    let v = pos.variant();
    let kinds = v.kinds.len();
    let occ = pos.occupied();
    let crowds = pos.crowd_squares();
    let mut side = [Side::default(); 2];
    let mut phase = 0;
    let mut pawns = [Bitboard::EMPTY; 2];
    let mut bound_colours = [[0u8; MAX_KINDS]; 2];
    let mut material = [0; 2];
    pos.for_each_piece(|color, kind, sq| {
        let k = kind.index();
        material[color.index()] += t.value[k];
        let s = &mut side[color.index()];
        s.mg += t.mg[color.index()][sq.index()][k];
        s.eg += t.eg[color.index()][sq.index()][k];
        phase += t.phase_weight[k];
        if t.pawn[k] {
            pawns[color.index()] |= sq.bit();
        }
        if t.colour_bound[k] {
            bound_colours[color.index()][k] |= if t.light_squares.contains(sq) { 1 } else { 2 };
        }
        if crowds.contains(sq) && k != t.royal.index() {
            // Nothing on a crowd can be captured.
            s.mg += 8;
            s.eg += 8;
        }
    });

    let kings = Color::ALL.map(|c| pos.presence(c, t.royal).lowest());
    for color in Color::ALL {
        let us = color.index();
        if let Some(k) = kings[us] {
            side[us].mg += 10 * (t.shield[us][k.index()] & pawns[us]).count().min(3) as i32;
            if crowds.contains(k) {
                // A king in a crowd cannot be checked.
                side[us].mg += 30;
                side[us].eg += 10;
            }
        }
        // Pawn structure.
        for sq in pawns[us] {
            let i = sq.index();
            if (pawns[us] & t.adjacent_files[i]).is_empty() {
                side[us].mg -= 10;
                side[us].eg -= 15;
            }
            if (pawns[us] & t.file_of[i]).several() {
                side[us].mg -= 6;
                side[us].eg -= 12;
            }
            if (pawns[1 - us] & t.passed_span[us][i]).is_empty() {
                let p = t.progress[us][i];
                let p2 = p * p / 256;
                side[us].mg += 5 + 60 * p2 / 256;
                side[us].eg += 10 + 170 * p2 / 256;
                // Free path: nothing stands in front on its file.
                if (occ & t.passed_span[us][i] & t.file_of[i]).is_empty() {
                    side[us].eg += 30 * p2 / 256;
                }
            }
        }
    }
    mop_up(&mut side, &material, &kings, t, v);
    let phase = phase.min(t.full_phase);
    let taper = |side: &[Side; 2]| {
        let mg = side[0].mg - side[1].mg;
        let eg = side[0].eg - side[1].eg;
        (mg * phase + eg * (t.full_phase - phase)) / t.full_phase
    };
    // Mobility and king safety rarely move the score this far.
    let rough = taper(&side);
    if rough + LAZY_MARGIN <= alpha || rough - LAZY_MARGIN >= beta {
        return rough;
    }

    let mut king_attack = [0i32; 2];
    let mut king_attackers = [0i32; 2];
    for color in Color::ALL {
        let us = color.index();
        let own = pos.by_color(color);
        let enemy_zone = kings[1 - us]
            .map(|k| t.king_zone[k.index()])
            .unwrap_or(Bitboard::EMPTY);
        for k in 0..kinds {
            if t.pawn[k] || k == t.royal.index() {
                continue;
            }
            let kind = Kind(k as u8);
            let tab = v.tables(color, kind);
            for sq in pos.presence(color, kind) {
                let attacks = v.reach(&tab.capture, sq, occ);
                let moves = if tab.symmetric_modes {
                    attacks
                } else {
                    attacks | v.reach(&tab.quiet, sq, occ)
                };
                let reach = moves & !(own & !crowds);
                let m = reach.count() as i32 - t.mobility_base[k];
                side[us].mg += 3 * m;
                side[us].eg += 4 * m;
                let hits = (attacks & enemy_zone).count() as i32;
                if hits > 0 {
                    king_attackers[us] += 1;
                    king_attack[us] += hits * (1 + t.value[k] / 300);
                }
            }
        }
        if bound_colours[us].contains(&3) {
            side[us].mg += 30;
            side[us].eg += 45;
        }
    }
    for us in 0..2 {
        // King safety: many attacks on the squares around the king.
        if king_attackers[1 - us] >= 2 {
            let units = king_attack[1 - us].min(40);
            side[us].mg -= units * units / 2 + 5 * units;
        }
    }
    taper(&side)
}

/// Far ahead in material, the endgame score also counts the losing king's
/// distance from the centre and the kings' closeness, so that a shallow
/// search finds the way to mate instead of shuffling (or repeating).
fn mop_up(
    side: &mut [Side; 2],
    material: &[Score; 2],
    kings: &[Option<Square>; 2],
    t: &EvalTables,
    v: &Variant,
) {
    let lead = material[0] - material[1];
    if lead.abs() < MOP_UP_LEAD {
        return;
    }
    let (strong, weak) = if lead > 0 { (0, 1) } else { (1, 0) };
    let (Some(hunter), Some(prey)) = (kings[strong], kings[weak]) else {
        return;
    };
    let shape = v.shape;
    let apart = |a: u8, b: u8| (a as i32 - b as i32).abs();
    let distance = apart(shape.file(hunter), shape.file(prey))
        .max(apart(shape.rank(hunter), shape.rank(prey)));
    let farthest = shape.files.max(shape.ranks) as i32 - 1;
    side[strong].eg +=
        120 * t.from_centre[prey.index()] / t.max_from_centre + 10 * (farthest - distance);
}

#[cfg(test)]
mod tests {
    use super::*;
    use parity_rules::{fen, Registry};

    fn eval_fen(variant: &str, text: &str) -> Score {
        let v = Registry::builtin().get(variant).unwrap();
        let pos = fen::parse_position(v, text).unwrap();
        evaluate(&pos, &tables(v))
    }

    #[test]
    fn start_positions_are_nearly_level() {
        for v in Registry::builtin().iter() {
            if v.spec.family != parity_rules::variant::Family::TurnBased {
                continue;
            }
            let pos = parity_rules::Position::start(v);
            let e = evaluate(&pos, &tables(v));
            assert!((e - TEMPO).abs() <= 5, "{}: {e}", v.id());
        }
    }

    #[test]
    fn symmetric_under_colour_flip() {
        let a = eval_fen(
            "chess",
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
        );
        let b = eval_fen(
            "chess",
            "rnbqk2r/pppp1ppp/5n2/2b1p3/4P3/2N2N2/PPPP1PPP/R1BQKB1R b KQkq - 4 4",
        );
        assert_eq!(a, b);
    }

    #[test]
    fn extra_material_counts() {
        let up = eval_fen("chess", "4k3/8/8/8/8/8/8/3QK3 w - - 0 1");
        assert!(up > 700, "{up}");
        let down = eval_fen("chess", "4k3/8/8/8/8/8/8/3QK3 b - - 0 1");
        assert!(down < -700, "{down}");
    }

    #[test]
    fn far_ahead_the_lone_king_belongs_on_the_edge_near_ours() {
        // Only the black king differs, at the same distance from White's.
        let centre = eval_fen("chess", "8/8/8/8/4k3/8/8/3QK3 w - - 0 1");
        let edge = eval_fen("chess", "8/8/8/8/1k6/8/8/3QK3 w - - 0 1");
        assert!(edge > centre + 30, "edge {edge}, centre {centre}");
        let side = eval_fen("chess", "4k3/8/8/8/8/8/8/3QK3 w - - 0 1");
        let corner = eval_fen("chess", "7k/8/8/8/8/8/8/3QK3 w - - 0 1");
        assert!(corner > side + 30, "corner {corner}, side {side}");
        // Kings closer (the opposition) is better for the side ahead.
        let near = eval_fen("chess", "4k3/8/4K3/8/8/8/8/3Q4 w - - 0 1");
        let far = eval_fen("chess", "4k3/8/8/8/8/8/8/3QK3 w - - 0 1");
        assert!(near > far, "near {near}, far {far}");
        // Level material: no such term.
        let a = eval_fen("chess", "8/8/8/4k3/8/8/8/3QK2q w - - 0 1");
        let b = eval_fen("chess", "4k3/8/8/8/8/8/8/3QK2q w - - 0 1");
        assert!((a - b).abs() < 30, "{a} {b}");
    }

    #[test]
    fn passed_pawns_count_more_when_advanced() {
        let far = eval_fen("chess", "4k3/8/8/8/8/8/P7/4K3 w - - 0 1");
        let near = eval_fen("chess", "4k3/P7/8/8/8/8/8/4K3 w - - 0 1");
        assert!(near > far + 100, "{near} vs {far}");
    }

    #[test]
    fn derived_values_follow_mobility() {
        assert!((derived_value(5.25) - 320).abs() < 60);
        assert!((derived_value(14.0) - 500).abs() < 60);
        assert!((derived_value(22.75) - 900).abs() < 60);
    }

    #[test]
    fn pieces_without_values_get_derived_ones() {
        let mut reg = Registry::builtin();
        let v = reg
            .add_text(
                "t.toml",
                "id = \"nameless\"\ninherits = \"chess\"\n[[pieces]]\nletter = \"C\"\nname = \"Camel\"\nbetza = \"C\"\n",
            )
            .unwrap();
        let t = tables(v);
        let camel = v.kind_by_letter('C').unwrap();
        let knight = v.kind_by_letter('N').unwrap();
        assert!(
            t.value[camel.index()] > 150
                && t.value[camel.index()] < t.value[v.kind_by_letter('Q').unwrap().index()]
        );
        assert_eq!(t.value[knight.index()], 320);
    }
}
