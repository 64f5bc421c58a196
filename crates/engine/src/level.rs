//! The playing levels people choose from, 1 (a beginner) to 8 (the engine
//! at a second a move). Each is a search depth and time; below level 6 the
//! engine also errs on purpose: it searches several lines and plays the
//! best of their scores after adding to each a random amount up to the
//! level's spread, so it misses what a player of that strength misses
//! instead of playing perfect short lines. In the simultaneous variants,
//! where a third turn of search takes seconds, levels differ by depth
//! (one turn or two) and by a share of turns played at random. The ladder
//! is measured in matches (docs/benchmarks.md, "Levels").

use std::sync::Arc;
use std::time::Duration;

use parity_rules::{Move, TurnPosition};

use crate::eval::{Score, MATE_BOUND};
use crate::search::{Limits, Report, Searcher, Shared};
use crate::simplay::Strategy;

pub const MIN_LEVEL: u8 = 1;
pub const MAX_LEVEL: u8 = 8;

/// What a level searches, and how it errs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level {
    /// Plies (turn-based) or turns (simultaneous).
    pub depth: u32,
    pub movetime: Duration,
    /// Lines searched to choose among (1: the best line only).
    pub lines: usize,
    /// The most, in centipawns, a line's score may be raised at random.
    pub spread: Score,
    /// Simultaneous variants: the percentage of turns played by a random
    /// legal move instead of the search's strategy.
    pub random_percent: u8,
}

impl Level {
    /// Level `n` (clamped to 1..=8); simultaneous variants search turns,
    /// and play the mixed strategy without a spread (it is random already).
    pub fn of(n: u8, simultaneous: bool) -> Level {
        let n = n.clamp(MIN_LEVEL, MAX_LEVEL);
        if simultaneous {
            // depth (turns), ms, random percent. Two turns take 40 to 150 ms
            // in the middlegame, three take seconds: only level 8 may reach it.
            let (depth, ms, random_percent) = match n {
                1 => (1, 100, 25),
                2 => (1, 100, 12),
                3 => (1, 150, 4),
                4 => (1, 200, 0),
                5 => (2, 300, 3),
                6 => (2, 400, 2),
                7 => (2, 600, 1),
                _ => (8, 1000, 0),
            };
            return Level {
                depth,
                movetime: Duration::from_millis(ms),
                lines: 1,
                spread: 0,
                random_percent,
            };
        }
        // depth, ms, lines, spread
        let (depth, ms, lines, spread) = match n {
            1 => (1, 100, 8, 450),
            2 => (1, 150, 8, 250),
            3 => (2, 200, 6, 150),
            4 => (3, 250, 5, 80),
            5 => (4, 300, 4, 35),
            6 => (6, 500, 1, 0),
            7 => (9, 750, 1, 0),
            _ => (64, 1000, 1, 0),
        };
        Level {
            depth,
            movetime: Duration::from_millis(ms),
            lines,
            spread,
            random_percent: 0,
        }
    }

    /// The strategy a simultaneous level plays this turn: a random move
    /// for its share of turns (`draw` in [0, 1) decides), else `strategy`.
    pub fn simultaneous_strategy(&self, strategy: Strategy, draw: f64) -> Strategy {
        if draw * 100.0 < f64::from(self.random_percent) {
            Strategy::Random
        } else {
            strategy
        }
    }

    /// The search limits of this level.
    pub fn limits(&self) -> Limits {
        Limits {
            depth: Some(self.depth as i32),
            movetime: Some(self.movetime),
            ..Limits::default()
        }
    }

    /// This level's move at the last of `positions` (the others are the
    /// game before it); `random` gives numbers in [0, 1). None without a
    /// legal move.
    pub fn choose<B: TurnPosition>(
        &self,
        positions: &[B],
        shared: Arc<Shared>,
        mut random: impl FnMut() -> f64,
    ) -> Option<Move> {
        let (root, before) = positions.split_last().expect("a line has a start");
        let keys: Vec<u64> = before.iter().map(TurnPosition::key).collect();
        let mut lines: Vec<Option<Report>> = vec![None; self.lines];
        let result = Searcher::new(shared, root.clone(), &keys, self.limits())
            .with_multipv(self.lines)
            .run(1, |r| {
                if let Some(slot) = lines.get_mut(r.multipv.max(1) - 1) {
                    *slot = Some(r.clone());
                }
            });
        if self.spread == 0 {
            return result.best;
        }
        let deepest = lines.iter().flatten().map(|r| r.depth).max()?;
        let mut best: Option<(Move, f64)> = None;
        for line in lines.iter().flatten() {
            let Some(&mv) = line.pv.first() else { continue };
            // A line of a shallower depth is stale; a mate is never thrown away.
            if line.depth < deepest && line.score.abs() < MATE_BOUND {
                continue;
            }
            let noisy = f64::from(line.score) + f64::from(self.spread) * random();
            let noisy = if line.score.abs() >= MATE_BOUND {
                f64::from(line.score) * 10.0
            } else {
                noisy
            };
            if best.is_none_or(|(_, b)| noisy > b) {
                best = Some((mv, noisy));
            }
        }
        best.map(|(mv, _)| mv).or(result.best)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use parity_rules::{Position, Registry};

    fn line(fen: &str) -> Vec<Position> {
        let chess = Registry::builtin().get("chess").unwrap();
        vec![Position::from_fen(chess, fen).unwrap()]
    }

    #[test]
    fn levels_climb_in_depth_and_time_and_fall_in_spread() {
        for n in MIN_LEVEL..MAX_LEVEL {
            let (a, b) = (Level::of(n, false), Level::of(n + 1, false));
            assert!(b.depth >= a.depth && b.movetime > a.movetime, "{n}");
            assert!(b.spread <= a.spread, "{n}");
            assert!(a.lines >= 1);
        }
        assert_eq!(Level::of(0, false), Level::of(1, false));
        assert_eq!(Level::of(99, true), Level::of(8, true));
    }

    #[test]
    fn simultaneous_levels_climb_in_depth_and_fall_in_random_turns() {
        for n in MIN_LEVEL..MAX_LEVEL {
            let (a, b) = (Level::of(n, true), Level::of(n + 1, true));
            assert!(b.depth >= a.depth && b.movetime >= a.movetime, "{n}");
            assert!(
                b.depth > a.depth || b.random_percent < a.random_percent,
                "{n}"
            );
        }
        assert_eq!(Level::of(8, true).random_percent, 0);
        let one = Level::of(1, true);
        let share = f64::from(one.random_percent) / 100.0;
        assert_eq!(
            one.simultaneous_strategy(Strategy::Mixed, share - 0.01),
            Strategy::Random
        );
        assert_eq!(
            one.simultaneous_strategy(Strategy::Mixed, share + 0.01),
            Strategy::Mixed
        );
        let top = Level::of(8, true);
        assert_eq!(
            top.simultaneous_strategy(Strategy::Mixed, 0.0),
            Strategy::Mixed
        );
    }

    #[test]
    fn every_level_takes_a_free_queen_and_mates_in_one() {
        // White's rook mates on a8; elsewhere a queen hangs on d5.
        let mate = line("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
        let hanging = line("4k3/8/8/3q4/8/8/8/3RK3 w - - 0 1");
        for n in MIN_LEVEL..=MAX_LEVEL {
            let level = Level::of(n, false);
            for seed in 0..8u64 {
                let mut state = seed;
                let mut random = || {
                    state = state
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    (state >> 11) as f64 / (1u64 << 53) as f64
                };
                let shared = Arc::new(Shared::new(1));
                let mv = level.choose(&mate, shared.clone(), &mut random).unwrap();
                assert_eq!(mate[0].uci(mv), "a1a8", "level {n} seed {seed}");
                let mv = level.choose(&hanging, shared, &mut random).unwrap();
                assert_eq!(hanging[0].uci(mv), "d1d5", "level {n} seed {seed}");
            }
        }
    }

    #[test]
    fn low_levels_vary_their_moves_and_the_top_one_does_not() {
        let start = line("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        let moves = |n: u8| {
            let mut seen = std::collections::HashSet::new();
            for seed in 0..12u64 {
                let mut state = seed.wrapping_add(1);
                let random = move || {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    (state >> 11) as f64 / (1u64 << 53) as f64
                };
                let level = Level {
                    movetime: Duration::from_secs(60),
                    ..Level::of(n, false)
                };
                let mv = level
                    .choose(&start, Arc::new(Shared::new(1)), random)
                    .unwrap();
                seen.insert(mv);
            }
            seen.len()
        };
        assert!(moves(1) >= 3, "level 1 plays one opening move");
        assert_eq!(moves(6), 1, "level 6 errs");
    }
}
