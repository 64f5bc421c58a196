//! Telling, during one game, whether the opponent is predictable.
//!
//! The equilibrium strategy guarantees its value against anyone but gains
//! nothing from an opponent's mistakes of habit. A player that always
//! picks the move our search rates most likely for it (a pure player) can
//! be beaten by answering that move directly. After each of our moves we
//! record a forecast: for every reply, the position it leads to, the
//! probability the search gave it, and whether it was the most likely one.
//! When the game goes on, the reply actually played is found by its
//! position, and a log-likelihood ratio weighs two explanations: "plays the
//! most likely move" against "samples from the expected strategy".

use std::collections::HashMap;

use parity_rules::simultaneous::SimPosition;
use parity_rules::{Color, Move};

use crate::simsearch::Mixed;

/// The pure hypothesis leaves this much room for other moves, so that one
/// surprise does not weigh infinitely.
const SLIP: f64 = 0.05;
/// Turns whose expected strategy is this sure of one move say nothing.
const UNINFORMATIVE: f64 = 0.99;
/// Log-likelihood ratio (about 20 to 1) above which the opponent is
/// treated as predictable.
pub const PREDICTABLE: f64 = 3.0;

/// The possible replies after one of our moves.
#[derive(Clone, Debug)]
struct Forecast {
    /// Key of the next position, probability of the reply, most likely or not.
    replies: Vec<(u64, f64, bool)>,
}

/// Forecasts of one game, keyed by the turn's position.
#[derive(Clone, Debug, Default)]
pub struct OpponentModel {
    forecasts: HashMap<(u32, u64), Forecast>,
}

impl OpponentModel {
    pub fn clear(&mut self) {
        self.forecasts.clear();
    }

    /// Records, once `side` has chosen `ours` at `pos`, what each reply of
    /// the opponent would mean for the hypotheses; `expected` is the
    /// opponent's strategy as our search saw it.
    pub fn forecast(&mut self, pos: &SimPosition, side: Color, ours: Move, expected: &Mixed) {
        let Some(likely) = expected.most_likely() else {
            return;
        };
        let replies = pos
            .legal_moves(side.other())
            .into_iter()
            .map(|reply| {
                let pair = if side == Color::White {
                    [ours, reply]
                } else {
                    [reply, ours]
                };
                let key = pos.play_unchecked(pair).hash();
                let p = expected
                    .moves
                    .iter()
                    .position(|m| *m == reply)
                    .map_or(0.0, |i| expected.probabilities[i]);
                (key, p, reply == likely)
            })
            .collect();
        self.forecasts
            .insert((pos.turn_number(), pos.hash()), Forecast { replies });
    }

    /// The log-likelihood ratio, over the turns of `line` (positions at the
    /// start of each turn) that have a forecast, of "the opponent plays the
    /// most likely move" against "it samples from the expected strategy".
    pub fn evidence(&self, line: &[SimPosition]) -> f64 {
        let mut ratio = 0.0;
        for pair in line.windows(2) {
            let Some(f) = self.forecasts.get(&(pair[0].turn_number(), pair[0].hash())) else {
                continue;
            };
            ratio += f.weigh(pair[1].hash());
        }
        ratio
    }
}

impl Forecast {
    /// The log-likelihood ratio of the reply that led to `next`.
    fn weigh(&self, next: u64) -> f64 {
        let n = self.replies.len() as f64;
        let sure = self.replies.iter().map(|r| r.1).fold(0.0, f64::max);
        if n < 2.0 || sure >= UNINFORMATIVE {
            return 0.0;
        }
        // Replies that lead to the same position cannot be told apart.
        let (mut p, mut likely) = (0.0, false);
        let mut found = false;
        for &(key, prob, is_likely) in &self.replies {
            if key == next {
                found = true;
                p += prob;
                likely |= is_likely;
            }
        }
        if !found {
            return 0.0; // not one of the replies: the line was set up otherwise
        }
        let pure = if likely { 1.0 - SLIP } else { SLIP / (n - 1.0) };
        let sampled = p.max(SLIP / n);
        (pure / sampled).ln()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use parity_rules::Registry;

    fn setup() -> (SimPosition, Move, Mixed, Vec<Move>) {
        let v = Registry::builtin().get("parity").unwrap();
        let pos = SimPosition::start(v);
        let ours = pos.legal_moves(Color::White)[0];
        let theirs = pos.legal_moves(Color::Black);
        let expected = Mixed {
            moves: vec![theirs[0], theirs[1]],
            probabilities: vec![0.6, 0.4],
        };
        (pos, ours, expected, theirs)
    }

    fn evidence_after(reply: Move) -> f64 {
        let (pos, ours, expected, _) = setup();
        let mut model = OpponentModel::default();
        model.forecast(&pos, Color::White, ours, &expected);
        let next = pos.play_unchecked([ours, reply]);
        model.evidence(&[pos, next])
    }

    #[test]
    fn the_most_likely_reply_counts_for_a_pure_player() {
        let (_, _, _, theirs) = setup();
        let e = evidence_after(theirs[0]);
        assert!((e - (0.95f64 / 0.6).ln()).abs() < 1e-12, "{e}");
    }

    #[test]
    fn another_expected_reply_counts_strongly_against() {
        let (_, _, _, theirs) = setup();
        assert!(evidence_after(theirs[1]) < -3.0);
    }

    #[test]
    fn an_unexpected_reply_says_little_either_way() {
        // Neither hypothesis foresaw it.
        let (_, _, _, theirs) = setup();
        assert!(evidence_after(theirs[5]).abs() < 0.1);
    }

    #[test]
    fn repeated_likely_replies_pass_the_threshold() {
        let (pos, ours, expected, theirs) = setup();
        let mut model = OpponentModel::default();
        model.forecast(&pos, Color::White, ours, &expected);
        let next = pos.play_unchecked([ours, theirs[0]]);
        let one = model.evidence(&[pos, next]);
        assert!(one > 0.0 && one < PREDICTABLE);
        assert!(one * 7.0 > PREDICTABLE);
    }

    #[test]
    fn a_sure_strategy_says_nothing() {
        let (pos, ours, _, theirs) = setup();
        let mut model = OpponentModel::default();
        model.forecast(&pos, Color::White, ours, &Mixed::pure(theirs[0]));
        let next = pos.play_unchecked([ours, theirs[0]]);
        assert_eq!(model.evidence(&[pos, next]), 0.0);
    }
}
