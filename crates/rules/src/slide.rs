//! Slider attacks by table lookup ("fancy" magic bitboards) for rides in
//! unit steps without range limit (a rook's, a bishop's, any subset of
//! their directions) on boards of at most 64 squares.
//!
//! For each square, the squares where a blocker matters (the rays less
//! their last square) are multiplied by a number found by trial when the
//! table is built (a "magic"), so that the product's top bits number the
//! occupancies of those squares in a table of the group's attacks: one
//! multiply, one shift and one load, no BMI2/PEXT. The index has two bits
//! more than the blocker squares (a table four times the smallest), which
//! makes a magic quick to find on any board shape: a few milliseconds for
//! a rook on 8x8 where exact magics take a hundred. Tables depend only on
//! the board shape and the directions, so every variant with the same
//! ones shares them (see [`SlideTable::shared`]).

use std::any::Any;
use std::collections::HashMap;
use std::fmt;
use std::sync::{Mutex, OnceLock};

use crate::geometry::{Bitboard, Shape, Square, Word};

/// Index bits beyond the squares where a blocker matters.
const EXTRA_BITS: u32 = 2;

/// Most entries (one set each) a table may have; a larger group of
/// directions (long narrow boards) is split into its lines or left to the
/// ray walk. The rook's on 8x8 has 409,600 (3.2 MB).
const MAX_ENTRIES: usize = 1 << 19;

/// Trials per square before the search gives up (the directions then keep
/// the ray walk); a rook's squares on 8x8 need at most a few hundred.
const MAX_TRIALS: u32 = 1 << 20;

/// How to find one square's attacks in [`SlideTable::attacks`].
#[derive(Clone, Copy)]
struct SquareMagic {
    /// The squares where a blocker matters.
    mask: u64,
    magic: u64,
    /// 64 less the index bits.
    shift: u32,
    offset: u32,
}

/// The attacks of a ride in a set of unit-step directions, without range
/// limit, from every square of one board shape, for any occupancy.
pub struct SlideTable<W: Word = u64> {
    shape: Shape,
    /// The directions, as steps `(dx, dy)`.
    steps: Vec<(i8, i8)>,
    squares: Vec<SquareMagic>,
    attacks: Vec<Bitboard<W>>,
}

impl<W: Word> SlideTable<W> {
    /// The squares a ride in these directions reaches from `sq` up to and
    /// including the first occupied square in each direction.
    #[inline(always)]
    pub fn attack(&self, sq: Square, occ: Bitboard<W>) -> Bitboard<W> {
        let m = &self.squares[sq.index()];
        let index = (occ.0.low_u64() & m.mask).wrapping_mul(m.magic) >> m.shift;
        self.attacks[m.offset as usize + index as usize]
    }

    /// The directions this table covers.
    pub fn steps(&self) -> &[(i8, i8)] {
        &self.steps
    }
}

impl SlideTable<u64> {
    /// The table of these directions on this board, built once per process
    /// and shared; `None` if the word is not 64 bits wide, the board is
    /// larger, the table would have more than [`MAX_ENTRIES`] or no magic
    /// was found.
    pub fn shared<W: Word>(shape: Shape, steps: &[(i8, i8)]) -> Option<&'static SlideTable<W>> {
        type Cache = HashMap<(Shape, Vec<(i8, i8)>), Option<&'static SlideTable<u64>>>;
        static CACHE: OnceLock<Mutex<Cache>> = OnceLock::new();
        if W::BITS != u64::BITS || shape.len() > u64::BITS as usize {
            return None;
        }
        let mut key_steps = steps.to_vec();
        key_steps.sort_unstable();
        let table = *CACHE
            .get_or_init(Default::default)
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .entry((shape, key_steps))
            .or_insert_with_key(|(shape, steps)| {
                SlideTable::build(*shape, steps).map(|t| &*Box::leak(Box::new(t)))
            });
        let table: &'static dyn Any = table?;
        table.downcast_ref()
    }

    /// Finds the magics and fills the table (see the module's comment).
    fn build(shape: Shape, steps: &[(i8, i8)]) -> Option<SlideTable<u64>> {
        debug_assert!(steps.iter().all(|&(dx, dy)| dx.abs().max(dy.abs()) == 1));
        // Per square, each direction's ray to the edge and whether it ascends.
        let rays: Vec<Vec<(u64, bool)>> = shape
            .squares()
            .map(|sq| {
                steps
                    .iter()
                    .map(|&step| (walk(shape, sq, step), ray_ascends(shape, step)))
                    .collect()
            })
            .collect();
        let masks: Vec<u64> = rays
            .iter()
            .map(|rays| {
                rays.iter().fold(0, |m, &(ray, ascending)| {
                    // The last square of a ray never blocks anything beyond it.
                    let last = if ray == 0 {
                        0
                    } else if ascending {
                        1u64 << (63 - ray.leading_zeros())
                    } else {
                        ray & ray.wrapping_neg()
                    };
                    m | (ray & !last)
                })
            })
            .collect();
        let entries = masks
            .iter()
            .map(|m| 1usize << (m.count_ones() + EXTRA_BITS));
        if entries.sum::<usize>() > MAX_ENTRIES {
            return None;
        }
        let mut search = MagicSearch::new(shape);
        let mut squares = Vec::with_capacity(shape.len());
        let mut attacks = Vec::new();
        let mut occupancies = Vec::new();
        let mut reference = Vec::new();
        for sq in shape.squares() {
            let mask = masks[sq.index()];
            occupancies.clear();
            reference.clear();
            // Every subset of the mask (carry-rippler) and its attack.
            let mut sub = 0u64;
            loop {
                occupancies.push(sub);
                reference.push(
                    rays[sq.index()]
                        .iter()
                        .fold(0, |a, &(ray, ascending)| a | ray_until(ray, ascending, sub)),
                );
                sub = sub.wrapping_sub(mask) & mask;
                if sub == 0 {
                    break;
                }
            }
            let (magic, shift) = if mask == 0 {
                // One entry; a zero product shifted by 63 is always 0.
                (0, 63)
            } else {
                search.find(mask, &occupancies, &reference)?
            };
            let offset = attacks.len();
            attacks.resize(offset + (1 << (64 - shift)), Bitboard(0));
            for (&occ, &att) in occupancies.iter().zip(&reference) {
                attacks[offset + (occ.wrapping_mul(magic) >> shift) as usize] = Bitboard(att);
            }
            squares.push(SquareMagic {
                mask,
                magic,
                shift,
                offset: offset as u32,
            });
        }
        Some(SlideTable {
            shape,
            steps: steps.to_vec(),
            squares,
            attacks,
        })
    }
}

/// The state of the search for one board's magics.
struct MagicSearch {
    rng: XorShift,
    /// Which trial last wrote each slot, so a failed trial needs no clearing.
    written_in: Vec<u32>,
    slots: Vec<u64>,
    trial: u32,
}

impl MagicSearch {
    fn new(shape: Shape) -> MagicSearch {
        // A fixed seed makes the tables the same in every run.
        let seed = 0x9E37_79B9_7F4A_7C15 ^ ((shape.files as u64) << 8 | shape.ranks as u64);
        MagicSearch {
            rng: XorShift(seed),
            written_in: Vec::new(),
            slots: Vec::new(),
            trial: 0,
        }
    }

    /// A magic and its shift for the blocker squares `mask` such that the
    /// index tells the attacks apart: `reference[i]` is the attack for
    /// `occupancies[i]`.
    fn find(&mut self, mask: u64, occupancies: &[u64], reference: &[u64]) -> Option<(u64, u32)> {
        let bits = mask.count_ones();
        let shift = 64 - bits - EXTRA_BITS;
        let size = 1 << (64 - shift);
        if self.written_in.len() < size {
            self.written_in.resize(size, 0);
            self.slots.resize(size, 0);
        }
        for _ in 0..MAX_TRIALS {
            let magic = self.rng.sparse();
            // Quick reject: the mask's bits must spread into the top byte.
            if (mask.wrapping_mul(magic) >> 56).count_ones() < 6.min(bits) {
                continue;
            }
            self.trial += 1;
            let trial = self.trial;
            let (written_in, slots) = (&mut self.written_in, &mut self.slots);
            let fits = occupancies.iter().zip(reference).all(|(&occ, &att)| {
                let i = (occ.wrapping_mul(magic) >> shift) as usize;
                if written_in[i] != trial {
                    written_in[i] = trial;
                    slots[i] = att;
                    true
                } else {
                    slots[i] == att
                }
            });
            if fits {
                return Some((magic, shift));
            }
        }
        None
    }
}

/// Tables are shared, so the same shape and directions make the same table.
impl<W: Word> PartialEq for SlideTable<W> {
    fn eq(&self, other: &SlideTable<W>) -> bool {
        self.shape == other.shape && self.steps == other.steps
    }
}

impl<W: Word> Eq for SlideTable<W> {}

impl<W: Word> fmt::Debug for SlideTable<W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "SlideTable({:?}, {} entries)",
            self.steps,
            self.attacks.len()
        )
    }
}

/// The part of a ray up to and including its first square in `occ`.
fn ray_until(ray: u64, ascending: bool, occ: u64) -> u64 {
    let blockers = ray & occ;
    if blockers == 0 {
        ray
    } else if ascending {
        // The squares up to the lowest blocker.
        ray & (blockers ^ (blockers - 1))
    } else {
        // The squares from the highest blocker up.
        ray & !((1u64 << (63 - blockers.leading_zeros())) - 1)
    }
}

/// True if the square index grows along a step.
fn ray_ascends(shape: Shape, (dx, dy): (i8, i8)) -> bool {
    dy as i32 * shape.files as i32 + dx as i32 > 0
}

/// The squares from `sq` along `step` to the edge.
fn walk(shape: Shape, sq: Square, (dx, dy): (i8, i8)) -> u64 {
    let mut out = 0;
    let mut cur = sq;
    while let Some(next) = shape.offset(cur, dx as i32, dy as i32) {
        out |= 1u64 << next.0;
        cur = next;
    }
    out
}

/// Marsaglia's xorshift64*.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number with few bits set, which makes a good magic more often.
    fn sparse(&mut self) -> u64 {
        self.next() & self.next() & self.next()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ROOK: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
    const BISHOP: [(i8, i8); 4] = [(1, 1), (-1, -1), (1, -1), (-1, 1)];

    /// The attack along `step` from `sq`, square by square.
    fn step_by_step(shape: Shape, sq: Square, (dx, dy): (i8, i8), occ: u64) -> u64 {
        let mut out = 0;
        let mut cur = sq;
        while let Some(next) = shape.offset(cur, dx as i32, dy as i32) {
            out |= 1u64 << next.0;
            if occ >> next.0 & 1 != 0 {
                break;
            }
            cur = next;
        }
        out
    }

    /// Lookups equal the ray walk from every square for random occupancies,
    /// on square and non-square boards up to 64 squares.
    #[test]
    fn lookups_equal_the_ray_walk() {
        let groups: [&[(i8, i8)]; 6] = [
            &ROOK,
            &BISHOP,
            &[(0, 1)],
            &[(1, 0), (-1, 0)],
            &[(0, 1), (1, 0), (-1, 0)],
            &[(1, 1), (-1, 1)],
        ];
        let mut rng = XorShift(7);
        let mut built = 0;
        for (files, ranks) in [
            (8, 8),
            (7, 9),
            (10, 6),
            (5, 5),
            (1, 8),
            (8, 1),
            (16, 4),
            (3, 11),
        ] {
            let shape = Shape::new(files, ranks).unwrap();
            let all = if shape.len() == 64 {
                u64::MAX
            } else {
                (1 << shape.len()) - 1
            };
            for steps in groups {
                let Some(table) = SlideTable::shared::<u64>(shape, steps) else {
                    // Only a group too large for the budget may go without.
                    assert!(
                        (files, ranks) == (16, 4) && steps.iter().any(|s| s.1 == 0),
                        "{files}x{ranks} {steps:?}"
                    );
                    continue;
                };
                built += 1;
                for sq in shape.squares() {
                    for n in 0..300 {
                        // Sparse and dense occupancies.
                        let occ = match n % 3 {
                            0 => rng.sparse(),
                            1 => rng.next(),
                            _ => rng.next() | rng.next(),
                        } & all;
                        let walked = steps
                            .iter()
                            .fold(0, |a, &s| a | step_by_step(shape, sq, s, occ));
                        assert_eq!(
                            table.attack(sq, Bitboard(occ)).0,
                            walked,
                            "{files}x{ranks} {steps:?} from {sq:?} occ {occ:#x}"
                        );
                    }
                }
            }
        }
        assert!(built >= 40);
    }

    #[test]
    fn tables_are_shared_and_only_in_64_bits() {
        let chess = Shape::new(8, 8).unwrap();
        let a = SlideTable::shared::<u64>(chess, &ROOK).unwrap();
        let mut reversed = ROOK;
        reversed.reverse();
        let b = SlideTable::shared::<u64>(chess, &reversed).unwrap();
        assert!(std::ptr::eq(a, b));
        // Four times as large as exact magics' (2^14 entries for a corner).
        assert_eq!(a.attacks.len(), 4 * 102_400);
        assert!(SlideTable::shared::<u128>(chess, &ROOK).is_none());
        assert!(SlideTable::shared::<u64>(Shape::new(12, 8).unwrap(), &ROOK).is_none());
    }
}
