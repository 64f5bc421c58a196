//! `POST /api/analysis`: our engine's view of a position. Turn-based and
//! crowd positions get a score and a principal variation; simultaneous
//! ones get the equilibrium the engine found: a mixed strategy for each
//! side and the value of the position. Scores are from White's side.

use std::sync::Arc;
use std::time::Duration;

use parity_engine::eval::{Score, MATE, MATE_BOUND};
use parity_engine::search::{Limits, Report, Searcher, Shared};
use parity_engine::simsearch::{Mixed, SimLimits, SimSearcher};
use parity_rules::simultaneous::SimPosition;
use parity_rules::{AnyGame, Color, Move, TurnPosition};
use serde::{Deserialize, Serialize};

use crate::game::event::Side;

/// Transposition table per analysis, in MB.
const HASH_MB: usize = 16;
/// The deepest an analysis goes: plies (turn-based), turns (simultaneous).
const MAX_PLIES: i32 = 64;
const MAX_TURNS: u32 = 3;

/// A score from White's side: centipawns, or moves to mate (negative:
/// Black mates).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum ScoreView {
    Cp { cp: i32 },
    Mate { mate: i32 },
}

impl ScoreView {
    /// `score` as the search gives it, from the side to move.
    fn new(score: Score, mover: Color) -> ScoreView {
        let sign = if mover == Color::White { 1 } else { -1 };
        if score > MATE_BOUND {
            ScoreView::Mate {
                mate: sign * (MATE - score + 1) / 2,
            }
        } else if score < -MATE_BOUND {
            ScoreView::Mate {
                mate: -sign * (MATE + score) / 2,
            }
        } else {
            ScoreView::Cp { cp: sign * score }
        }
    }
}

/// One move of a side's mixed strategy.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Choice {
    pub uci: String,
    pub san: String,
    pub probability: f64,
}

#[derive(Clone, Debug, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Evaluation {
    TurnBased {
        to_move: Side,
        depth: i32,
        nodes: u64,
        score: ScoreView,
        pv_uci: Vec<String>,
        pv_san: Vec<String>,
    },
    Simultaneous {
        depth: u32,
        nodes: u64,
        /// White's expected payoff in [-1, 1] (1: White wins).
        value: f64,
        white: Vec<Choice>,
        black: Vec<Choice>,
    },
    /// The rules have ended the game here.
    Over { outcome: String },
}

/// Searches the last position of `game` for `time` (blocking).
pub fn evaluate(game: &AnyGame, time: Duration) -> Evaluation {
    if let Some(outcome) = game.outcome() {
        return Evaluation::Over {
            outcome: outcome.to_string(),
        };
    }
    let shared = Arc::new(Shared::new(HASH_MB));
    match game {
        AnyGame::TurnBased(g) => turn_based(game, g.positions(), shared, time),
        AnyGame::TurnBased64(g) => turn_based(game, g.positions(), shared, time),
        AnyGame::Crowd(g) => turn_based(game, g.positions(), shared, time),
        AnyGame::Simultaneous(g) => simultaneous(game, g.positions(), shared, time, None).0,
    }
}

/// One simultaneous turn's search: the equilibrium and White's expected
/// payoff (in [-1, 1]) of each side's played move against it.
pub struct TurnSearch {
    pub evaluation: Evaluation,
    pub played_payoff: [f64; 2],
}

/// The search of a simultaneous game's last position, and White's expected
/// payoff of each side's move of `played` against the other side's
/// strategy (for the game's computer analysis).
pub fn evaluate_turn(game: &AnyGame, played: [Move; 2], time: Duration) -> TurnSearch {
    let AnyGame::Simultaneous(g) = game else {
        return TurnSearch {
            evaluation: evaluate(game, time),
            played_payoff: [0.0; 2],
        };
    };
    let shared = Arc::new(Shared::new(HASH_MB));
    let (evaluation, payoffs) = simultaneous(game, g.positions(), shared, time, Some(played));
    TurnSearch {
        evaluation,
        played_payoff: payoffs.unwrap_or([0.0; 2]),
    }
}

fn turn_based<P: TurnPosition>(
    game: &AnyGame,
    positions: &[P],
    shared: Arc<Shared>,
    time: Duration,
) -> Evaluation {
    let (root, before) = positions
        .split_last()
        .expect("a game has its start position");
    let keys: Vec<u64> = before.iter().map(TurnPosition::key).collect();
    let limits = Limits {
        depth: Some(MAX_PLIES),
        movetime: Some(time),
        ..Limits::default()
    };
    let mut last: Option<Report> = None;
    let result =
        Searcher::new(shared, root.clone(), &keys, limits).run(1, |r| last = Some(r.clone()));
    let mover = game.to_move().expect("a side moves");
    let pv = last
        .as_ref()
        .map_or_else(|| result.best.into_iter().collect(), |r| r.pv.clone());
    let (mut pv_uci, mut pv_san) = (Vec::new(), Vec::new());
    let mut line = game.clone();
    for mv in pv {
        let color = line.to_move().expect("a side moves");
        pv_uci.push(line.uci(color, mv));
        pv_san.push(line.san(color, mv));
        if line.play(mv).is_err() {
            break;
        }
    }
    Evaluation::TurnBased {
        to_move: mover.into(),
        depth: last.as_ref().map_or(result.depth, |r| r.depth),
        nodes: result.nodes,
        score: ScoreView::new(last.map_or(result.score, |r| r.score), mover),
        pv_uci,
        pv_san,
    }
}

fn simultaneous(
    game: &AnyGame,
    positions: &[SimPosition],
    shared: Arc<Shared>,
    time: Duration,
    played: Option<[Move; 2]>,
) -> (Evaluation, Option<[f64; 2]>) {
    let (root, before) = positions
        .split_last()
        .expect("a game has its start position");
    let keys: Vec<u64> = before.iter().map(SimPosition::hash).collect();
    let limits = SimLimits {
        depth: Some(MAX_TURNS),
        movetime: Some(time),
        ..SimLimits::default()
    };
    let mut searcher = SimSearcher::new(root.variant(), &keys, shared);
    let result = searcher.run(root, &limits, |_| {});
    let payoffs = played.map(|[w, b]| {
        [
            searcher.payoff_against(root, Color::White, w, &result.black, result.depth),
            searcher.payoff_against(root, Color::Black, b, &result.white, result.depth),
        ]
    });
    let choices = |color: Color, mixed: &Mixed| {
        let mut out: Vec<Choice> = mixed
            .moves
            .iter()
            .zip(&mixed.probabilities)
            .filter(|(_, &p)| p > 0.0)
            .map(|(&mv, &p)| Choice {
                uci: game.uci(color, mv),
                san: game.san(color, mv),
                probability: p,
            })
            .collect();
        out.sort_by(|a, b| b.probability.total_cmp(&a.probability));
        out
    };
    let evaluation = Evaluation::Simultaneous {
        depth: result.depth,
        nodes: result.stats.nodes,
        value: result.value,
        white: choices(Color::White, &result.white),
        black: choices(Color::Black, &result.black),
    };
    (evaluation, payoffs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_scores_read_from_whites_side() {
        assert_eq!(
            ScoreView::new(MATE - 1, Color::White),
            ScoreView::Mate { mate: 1 }
        );
        assert_eq!(
            ScoreView::new(MATE - 1, Color::Black),
            ScoreView::Mate { mate: -1 }
        );
        assert_eq!(
            ScoreView::new(-(MATE - 2), Color::White),
            ScoreView::Mate { mate: -1 }
        );
        assert_eq!(
            ScoreView::new(-(MATE - 2), Color::Black),
            ScoreView::Mate { mate: 1 }
        );
        assert_eq!(ScoreView::new(35, Color::Black), ScoreView::Cp { cp: -35 });
    }
}
