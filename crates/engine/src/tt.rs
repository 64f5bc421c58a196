//! The transposition table, shared by search threads without locks: each
//! entry stores `key ^ data` beside `data`, so a torn write reads as a miss.

use std::sync::atomic::{AtomicU64, Ordering};

use parity_rules::{Move, Special};

use crate::eval::{Score, MATE_BOUND};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact,
    Lower,
    Upper,
}

impl Bound {
    /// What a node's `best` score says of its value, searched in `alpha..beta`.
    pub fn of(best: Score, alpha: Score, beta: Score) -> Bound {
        if best >= beta {
            Bound::Lower
        } else if best > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }
}

/// A 28-bit code of a move, unique among the legal moves of a position.
/// The search matches it against generated moves, never plays it blindly.
pub fn move_code(mv: Move) -> u32 {
    let (tag, extra) = match mv.special {
        Special::None => (0, 0),
        Special::DoubleStep => (1, 0),
        Special::EnPassant => (2, 0),
        Special::Castle { rook_from, .. } => (3, rook_from.0 as u32),
        Special::FromCrowd(k) => (4, k.0 as u32),
        Special::Join(k) => (5, k.map_or(0, |k| k.0 as u32 + 1)),
    };
    let promo = mv.promotion.map_or(0, |k| k.0 as u32 + 1);
    // Never 0: no move goes from a square to itself without a tag.
    mv.from.0 as u32 | (mv.to.0 as u32) << 7 | promo << 14 | tag << 18 | extra << 21
}

#[derive(Clone, Copy, Debug)]
pub struct Entry {
    pub move_code: u32,
    pub score: Score,
    pub depth: i32,
    pub bound: Bound,
}

pub struct Table {
    slots: Vec<[AtomicU64; 2]>,
    generation: AtomicU64,
}

impl Table {
    pub fn new(megabytes: usize) -> Table {
        let count = (megabytes.max(1) << 20) / 16;
        Table {
            slots: (0..count)
                .map(|_| [AtomicU64::new(0), AtomicU64::new(0)])
                .collect(),
            generation: AtomicU64::new(0),
        }
    }

    pub fn clear(&self) {
        for s in &self.slots {
            s[0].store(0, Ordering::Relaxed);
            s[1].store(0, Ordering::Relaxed);
        }
    }

    /// A new search begins: older entries become easier to replace.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    fn slot(&self, key: u64) -> &[AtomicU64; 2] {
        &self.slots[((key as u128 * self.slots.len() as u128) >> 64) as usize]
    }

    pub fn probe(&self, key: u64, ply: i32) -> Option<Entry> {
        let s = self.slot(key);
        let data = s[1].load(Ordering::Relaxed);
        if s[0].load(Ordering::Relaxed) ^ data != key || data == 0 {
            return None;
        }
        let bound = match data >> 62 {
            1 => Bound::Exact,
            2 => Bound::Lower,
            3 => Bound::Upper,
            _ => return None,
        };
        Some(Entry {
            move_code: (data & 0x0fff_ffff) as u32,
            score: from_tt((data >> 28) as u16 as i16 as Score, ply),
            depth: ((data >> 44) & 0xff) as i32 - 1,
            bound,
        })
    }

    pub fn store(&self, key: u64, ply: i32, entry: Entry) {
        let s = self.slot(key);
        let old = s[1].load(Ordering::Relaxed);
        let generation = self.generation.load(Ordering::Relaxed) & 0x3ff;
        let old_same_key = s[0].load(Ordering::Relaxed) ^ old == key;
        let old_depth = ((old >> 44) & 0xff) as i32 - 1;
        let old_generation = (old >> 52) & 0x3ff;
        // Keep a deeper entry of this search unless the new one is exact.
        if old != 0
            && old_generation == generation
            && old_depth > entry.depth + 2
            && entry.bound != Bound::Exact
        {
            return;
        }
        let move_code = if entry.move_code == 0 && old_same_key {
            old & 0x0fff_ffff
        } else {
            entry.move_code as u64
        };
        let bound = match entry.bound {
            Bound::Exact => 1u64,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        let data = move_code
            | (to_tt(entry.score, ply) as i16 as u16 as u64) << 28
            | ((entry.depth + 1).clamp(0, 255) as u64) << 44
            | generation << 52
            | bound << 62;
        s[0].store(key ^ data, Ordering::Relaxed);
        s[1].store(data, Ordering::Relaxed);
    }

    /// Permille of slots used by this search (UCI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation.load(Ordering::Relaxed) & 0x3ff;
        let sample = self.slots.len().min(1000);
        let used = self.slots[..sample]
            .iter()
            .filter(|s| {
                let d = s[1].load(Ordering::Relaxed);
                d != 0 && (d >> 52) & 0x3ff == generation
            })
            .count();
        (used * 1000 / sample.max(1)) as u32
    }
}

/// Mate scores are stored relative to the node, not the root.
fn to_tt(score: Score, ply: i32) -> Score {
    if score > MATE_BOUND {
        score + ply
    } else if score < -MATE_BOUND {
        score - ply
    } else {
        score
    }
}

fn from_tt(score: Score, ply: i32) -> Score {
    if score > MATE_BOUND {
        score - ply
    } else if score < -MATE_BOUND {
        score + ply
    } else {
        score
    }
}

// Squares fit in 7 bits of a move code.
const _: () = assert!(parity_rules::geometry::MAX_SQUARES <= 128);

#[cfg(test)]
mod tests {
    use super::*;
    use parity_rules::{Kind, Square};

    #[test]
    fn a_score_bounds_the_value_by_where_it_fell() {
        assert_eq!(Bound::of(50, 0, 50), Bound::Lower, "failed high");
        assert_eq!(Bound::of(20, 0, 50), Bound::Exact, "inside the window");
        assert_eq!(Bound::of(0, 0, 50), Bound::Upper, "failed low");
    }

    #[test]
    fn entries_round_trip() {
        let t = Table::new(1);
        let mv = Move {
            from: Square(12),
            to: Square(127),
            promotion: Some(Kind(3)),
            special: Special::None,
        };
        t.store(
            0xdead_beef,
            3,
            Entry {
                move_code: move_code(mv),
                score: -1234,
                depth: 9,
                bound: Bound::Lower,
            },
        );
        let e = t.probe(0xdead_beef, 3).unwrap();
        assert_eq!(e.move_code, move_code(mv));
        assert_eq!((e.score, e.depth, e.bound), (-1234, 9, Bound::Lower));
        assert!(t.probe(0xdead_beee, 3).is_none());
    }

    #[test]
    fn mate_scores_are_relative_to_the_node() {
        let t = Table::new(1);
        t.store(
            7,
            5,
            Entry {
                move_code: 0,
                score: crate::eval::MATE - 9,
                depth: 4,
                bound: Bound::Exact,
            },
        );
        assert_eq!(t.probe(7, 2).unwrap().score, crate::eval::MATE - 6);
    }

    #[test]
    fn codes_differ_for_different_moves() {
        let a = Move::new(Square(4), Square(6));
        let b = Move {
            special: Special::Castle {
                rook_from: Square(7),
                rook_to: Square(5),
            },
            ..a
        };
        let c = Move {
            special: Special::Castle {
                rook_from: Square(0),
                rook_to: Square(5),
            },
            ..a
        };
        assert!(move_code(a) != move_code(b) && move_code(b) != move_code(c));
        assert!(move_code(a) < 1 << 28 && move_code(b) < 1 << 28);
    }
}
