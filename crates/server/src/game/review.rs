//! The computer analysis of a finished game (`POST /api/games/{id}/analysis`):
//! every position searched for a fixed time, each move judged by what it
//! cost in winning chances, and each player's accuracy, as lichess defines
//! them (docs/analysis.md). Simultaneous games get, for each turn and side,
//! the engine's mixed strategy and the expected loss of the move played
//! against the other side's strategy.
//!
//! The searches run elsewhere (the engine pool); this file turns their
//! evaluations into the review that is stored with the game.

use parity_rules::any::Step;
use parity_rules::{AnyGame, Color, Move, Outcome};
use serde::{Deserialize, Serialize};

use crate::game::analysis::{Choice, Evaluation, ScoreView, TurnSearch};
use crate::game::event::Side;
use crate::game::pgn::MoveNote;

/// Centipawns beyond which an evaluation counts as won (lichess's ceiling);
/// a mate or a game won on the board counts as this.
const CP_CEILING: i32 = 1000;

/// A game's computer analysis as stored and served.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Review {
    /// The engine's time for each position, in ms.
    pub ms_per_position: u64,
    #[serde(flatten)]
    pub body: ReviewBody,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum ReviewBody {
    TurnBased {
        /// The start and the position after each move.
        positions: Vec<PositionEval>,
        moves: Vec<MoveReview>,
        white: PlayerReview,
        black: PlayerReview,
    },
    Simultaneous {
        turns: Vec<TurnReview>,
        white: SimPlayerReview,
        black: SimPlayerReview,
    },
}

/// The engine's view of one position, from White's side.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PositionEval {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cp: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mate: Option<i32>,
    /// The game's result when the rules ended it here.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub over: Option<String>,
    /// The engine's move here (UCI and SAN) and its line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub best: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub best_san: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub line: Vec<String>,
    pub depth: i32,
}

impl PositionEval {
    fn of(evaluation: &Evaluation, outcome: Option<Outcome>) -> PositionEval {
        match evaluation {
            Evaluation::TurnBased {
                depth,
                score,
                pv_uci,
                pv_san,
                ..
            } => {
                let (cp, mate) = match *score {
                    ScoreView::Cp { cp } => (Some(cp), None),
                    ScoreView::Mate { mate } => (None, Some(mate)),
                };
                PositionEval {
                    cp,
                    mate,
                    over: None,
                    best: pv_uci.first().cloned(),
                    best_san: pv_san.first().cloned(),
                    line: pv_san.clone(),
                    depth: *depth,
                }
            }
            _ => PositionEval {
                over: outcome.map(|o| o.result().to_string()),
                ..PositionEval::default()
            },
        }
    }

    /// The evaluation as PGN's `[%eval]` writes it: pawns (`0.17`) or a
    /// mate (`#-3`).
    pub fn pgn_eval(&self) -> Option<String> {
        match (self.cp, self.mate) {
            (Some(cp), _) => Some(format!("{:.2}", f64::from(cp) / 100.0)),
            (None, Some(mate)) => Some(format!("#{mate}")),
            _ => None,
        }
    }

    /// Centipawns from White's side within lichess's ceiling: a mate or a
    /// won game is the ceiling, a drawn one 0.
    pub fn capped_cp(&self) -> i32 {
        match (self.cp, self.mate, self.over.as_deref()) {
            (Some(cp), _, _) => cp.clamp(-CP_CEILING, CP_CEILING),
            (None, Some(mate), _) if mate > 0 => CP_CEILING,
            (None, Some(_), _) => -CP_CEILING,
            (None, None, Some("1-0")) => CP_CEILING,
            (None, None, Some("0-1")) => -CP_CEILING,
            _ => 0,
        }
    }
}

/// How bad a move was, by the winning chances it gave away.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Judgment {
    Inaccuracy,
    Mistake,
    Blunder,
}

impl Judgment {
    /// By the fall of the mover's winning chances (in [-1, 1]): lichess's
    /// thresholds 0.1, 0.2 and 0.3.
    pub fn of_drop(drop: f64) -> Option<Judgment> {
        if drop >= 0.3 {
            Some(Judgment::Blunder)
        } else if drop >= 0.2 {
            Some(Judgment::Mistake)
        } else if drop >= 0.1 {
            Some(Judgment::Inaccuracy)
        } else {
            None
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Judgment::Inaccuracy => "Inaccuracy",
            Judgment::Mistake => "Mistake",
            Judgment::Blunder => "Blunder",
        }
    }

    /// The mark a move list and a PGN put after the move.
    pub fn glyph(self) -> &'static str {
        match self {
            Judgment::Inaccuracy => "?!",
            Judgment::Mistake => "?",
            Judgment::Blunder => "??",
        }
    }
}

/// One move of a turn-based game as the analysis judges it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MoveReview {
    /// 1 for the first move of the game.
    pub ply: usize,
    pub color: Side,
    pub uci: String,
    pub san: String,
    /// Centipawns the move lost against the evaluation before it.
    pub cp_loss: i32,
    /// Lichess's accuracy of the move, 0 to 100.
    pub accuracy: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub judgment: Option<Judgment>,
}

impl MoveReview {
    /// Lichess's comment on a judged move: "Blunder. Nf3 was best."
    pub fn comment(&self, best_san: Option<&str>) -> Option<String> {
        let judgment = self.judgment?;
        Some(match best_san {
            Some(best) => format!("{}. {best} was best.", judgment.name()),
            None => format!("{}.", judgment.name()),
        })
    }
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PlayerReview {
    /// Lichess's game accuracy, 0 to 100; none without a move.
    pub accuracy: Option<f64>,
    /// Average centipawn loss.
    pub acpl: i32,
    pub inaccuracy: u32,
    pub mistake: u32,
    pub blunder: u32,
}

/// One side of a simultaneous turn.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SideTurn {
    pub uci: String,
    pub san: String,
    /// The engine's mixed strategy for this side here.
    pub strategy: Vec<Choice>,
    /// This side's expected score (0 to 1) of the move played against the
    /// other side's strategy.
    pub expected: f64,
    /// What the move cost against the equilibrium, in expected score
    /// (0: as good as the engine's strategy).
    pub loss: f64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TurnReview {
    pub number: u32,
    /// White's expected score (0 to 1) at the equilibrium.
    pub value: f64,
    pub depth: u32,
    pub white: SideTurn,
    pub black: SideTurn,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SimPlayerReview {
    /// The mean of the side's losses per turn, in expected score.
    pub average_loss: f64,
    /// Turns that lost at least 0.1 of a point.
    pub costly_turns: u32,
}

impl Review {
    /// What the PGN says after each move: `[%eval ...]`, and the judgment
    /// with its mark (turn-based games; none for simultaneous ones).
    pub fn pgn_notes(&self) -> Vec<MoveNote> {
        let ReviewBody::TurnBased {
            positions, moves, ..
        } = &self.body
        else {
            return Vec::new();
        };
        moves
            .iter()
            .map(|m| {
                let before = &positions[m.ply - 1];
                let mut comment = positions[m.ply]
                    .pgn_eval()
                    .map(|e| format!("[%eval {e}]"))
                    .unwrap_or_default();
                if let Some(text) = m.comment(before.best_san.as_deref()) {
                    if !comment.is_empty() {
                        comment.push(' ');
                    }
                    comment.push_str(&text);
                }
                MoveNote {
                    glyph: m.judgment.map_or("", Judgment::glyph),
                    comment,
                }
            })
            .collect()
    }
}

/// The positions a review searches: the game before each move and at its
/// end (turn-based), or before each turn with the pair played (simultaneous).
pub fn prefixes(game: &AnyGame) -> Vec<(AnyGame, Option<[Move; 2]>)> {
    let start = if game.starts_from_variant_start() {
        None
    } else {
        Some(game.start_fen())
    };
    let mut line = AnyGame::from_fen(game.variant(), start.as_deref())
        .expect("a game's own start position reads back");
    let mut out = Vec::new();
    for step in game.steps() {
        match step {
            Step::Move { mv, .. } => {
                out.push((line.clone(), None));
                line.play(mv).expect("a game's own moves replay");
            }
            Step::Turn { moves, .. } => {
                out.push((line.clone(), Some(moves)));
                line.play_turn(moves[0], moves[1])
                    .expect("a game's own turns replay");
            }
        }
    }
    if !game.is_simultaneous() {
        out.push((line, None));
    }
    out
}

/// Lichess's win percentage (0 to 100) of `cp` for the side it is from.
pub fn win_percent(cp: i32) -> f64 {
    50.0 + 50.0 * winning_chances(cp)
}

/// Lichess's winning chances in [-1, 1] of `cp`.
fn winning_chances(cp: i32) -> f64 {
    let cp = f64::from(cp.clamp(-CP_CEILING, CP_CEILING));
    2.0 / (1.0 + (-0.00368208 * cp).exp()) - 1.0
}

/// Lichess's accuracy of one move, from the mover's win percentages
/// before and after it.
pub fn move_accuracy(before: f64, after: f64) -> f64 {
    if after >= before {
        return 100.0;
    }
    let raw =
        103.1668100711649 * (-0.04354415386753951 * (before - after)).exp() - 3.166924740191411;
    // Lichess adds one point for the analysis' own imprecision.
    (raw + 1.0).clamp(0.0, 100.0)
}

fn std_dev(xs: &[f64]) -> f64 {
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    (xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n).sqrt()
}

/// Lichess's game accuracy of each side from White's win percentages at
/// the start and after every move (`first` moved first): the mean of the
/// volatility-weighted mean and the harmonic mean of the move accuracies.
pub fn game_accuracy(wins: &[f64], first: Color) -> [Option<f64>; 2] {
    let moves = wins.len().saturating_sub(1);
    if moves == 0 {
        return [None, None];
    }
    let window = (moves / 10).clamp(2, 8).min(wins.len());
    // One window per move: the first ones repeat the opening window.
    let mut windows: Vec<&[f64]> = vec![&wins[..window]; window.saturating_sub(2)];
    windows.extend(wins.windows(window));
    let mut per_side: [Vec<(f64, f64)>; 2] = [Vec::new(), Vec::new()];
    for (i, (pair, window)) in wins.windows(2).zip(windows).enumerate() {
        let mover = if i % 2 == 0 { first } else { !first };
        let weight = std_dev(window).clamp(0.5, 12.0);
        let accuracy = match mover {
            Color::White => move_accuracy(pair[0], pair[1]),
            Color::Black => move_accuracy(100.0 - pair[0], 100.0 - pair[1]),
        };
        per_side[mover.index()].push((accuracy, weight));
    }
    per_side.map(|moves| {
        if moves.is_empty() {
            return None;
        }
        let weighted = moves.iter().map(|(a, w)| a * w).sum::<f64>()
            / moves.iter().map(|(_, w)| w).sum::<f64>();
        let harmonic =
            moves.len() as f64 / moves.iter().map(|(a, _)| 1.0 / a.max(1e-9)).sum::<f64>();
        Some((weighted + harmonic) / 2.0)
    })
}

/// The review of a turn-based game from the evaluation of each of its
/// [`prefixes`] (the start, then after each move).
pub fn turn_based(game: &AnyGame, evaluations: &[Evaluation], ms_per_position: u64) -> Review {
    let lines = prefixes(game);
    let positions: Vec<PositionEval> = lines
        .iter()
        .zip(evaluations)
        .map(|((line, _), evaluation)| PositionEval::of(evaluation, line.outcome()))
        .collect();
    let mut moves = Vec::new();
    let mut first = Color::White;
    for (ply, step) in game.steps().into_iter().enumerate() {
        let Step::Move { color, mv, .. } = step else {
            continue;
        };
        if ply == 0 {
            first = color;
        }
        let (Some(before), Some(after)) = (positions.get(ply), positions.get(ply + 1)) else {
            break;
        };
        let line = &lines[ply].0;
        let uci = line.uci(color, mv);
        let sign = if color == Color::White { 1 } else { -1 };
        let (was, is) = (sign * before.capped_cp(), sign * after.capped_cp());
        let drop = winning_chances(was) - winning_chances(is);
        // The engine's own move is never judged: a deeper look disagreeing
        // with a shallower one is not the player's error.
        let judgment = if before.best.as_deref() == Some(uci.as_str()) {
            None
        } else {
            Judgment::of_drop(drop)
        };
        moves.push(MoveReview {
            ply: ply + 1,
            color: color.into(),
            san: line.san(color, mv),
            uci,
            cp_loss: (was - is).max(0),
            accuracy: move_accuracy(win_percent(was), win_percent(is)),
            judgment,
        });
    }
    let wins: Vec<f64> = positions
        .iter()
        .map(|p| win_percent(p.capped_cp()))
        .collect();
    let accuracy = game_accuracy(&wins, first);
    let player = |color: Color| {
        let own: Vec<&MoveReview> = moves.iter().filter(|m| m.color.color() == color).collect();
        let count = |j: Judgment| own.iter().filter(|m| m.judgment == Some(j)).count() as u32;
        PlayerReview {
            accuracy: accuracy[color.index()],
            acpl: if own.is_empty() {
                0
            } else {
                own.iter().map(|m| m.cp_loss).sum::<i32>() / own.len() as i32
            },
            inaccuracy: count(Judgment::Inaccuracy),
            mistake: count(Judgment::Mistake),
            blunder: count(Judgment::Blunder),
        }
    };
    Review {
        ms_per_position,
        body: ReviewBody::TurnBased {
            white: player(Color::White),
            black: player(Color::Black),
            positions,
            moves,
        },
    }
}

/// The review of a simultaneous game from the search of each turn.
pub fn simultaneous(game: &AnyGame, searches: &[TurnSearch], ms_per_position: u64) -> Review {
    let mut turns = Vec::new();
    for ((line, played), search) in prefixes(game).iter().zip(searches) {
        let (
            Some(played),
            Evaluation::Simultaneous {
                depth,
                value,
                white,
                black,
                ..
            },
        ) = (played, &search.evaluation)
        else {
            continue;
        };
        let side = |color: Color, strategy: &[Choice]| {
            let sign = if color == Color::White { 1.0 } else { -1.0 };
            let mv = played[color.index()];
            // Expected scores in [0, 1] for `color`.
            let expected = (1.0 + sign * search.played_payoff[color.index()]) / 2.0;
            let equilibrium = (1.0 + sign * value) / 2.0;
            SideTurn {
                uci: line.uci(color, mv),
                san: line.san(color, mv),
                strategy: strategy.to_vec(),
                expected,
                loss: (equilibrium - expected).max(0.0),
            }
        };
        turns.push(TurnReview {
            number: line.turn(),
            value: (1.0 + value) / 2.0,
            depth: *depth,
            white: side(Color::White, white),
            black: side(Color::Black, black),
        });
    }
    let player = |color: Color| {
        let losses: Vec<f64> = turns
            .iter()
            .map(|t| match color {
                Color::White => t.white.loss,
                Color::Black => t.black.loss,
            })
            .collect();
        SimPlayerReview {
            average_loss: if losses.is_empty() {
                0.0
            } else {
                losses.iter().sum::<f64>() / losses.len() as f64
            },
            costly_turns: losses.iter().filter(|&&l| l >= 0.1).count() as u32,
        }
    };
    Review {
        ms_per_position,
        body: ReviewBody::Simultaneous {
            white: player(Color::White),
            black: player(Color::Black),
            turns,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 0.05
    }

    #[test]
    fn win_percentages_follow_lichess_curve() {
        assert!(close(win_percent(0), 50.0));
        // +100 cp is 59.1%, +300 cp 75.1%.
        assert!(close(win_percent(100), 59.1), "{}", win_percent(100));
        assert!(close(win_percent(300), 75.1), "{}", win_percent(300));
        assert!(close(win_percent(-300), 24.9));
        // The ceiling: a mate or +5000 is +1000.
        assert_eq!(win_percent(5000), win_percent(1000));
    }

    #[test]
    fn a_move_that_keeps_the_win_percentage_is_perfect_and_a_big_drop_is_near_zero() {
        assert_eq!(move_accuracy(60.0, 60.0), 100.0);
        assert_eq!(move_accuracy(40.0, 55.0), 100.0);
        // A drop of 10 points: 103.17 e^-0.4354 - 3.17 + 1 = 64.6.
        assert!(
            close(move_accuracy(60.0, 50.0), 64.6),
            "{}",
            move_accuracy(60.0, 50.0)
        );
        assert!(move_accuracy(97.0, 3.0) < 2.0);
    }

    #[test]
    fn judgments_use_lichess_thresholds() {
        assert_eq!(Judgment::of_drop(0.05), None);
        assert_eq!(Judgment::of_drop(0.1), Some(Judgment::Inaccuracy));
        assert_eq!(Judgment::of_drop(0.25), Some(Judgment::Mistake));
        assert_eq!(Judgment::of_drop(0.6), Some(Judgment::Blunder));
        // From +100 to -200 for the mover: 0.18 - (-0.35) = 0.53.
        let drop = winning_chances(100) - winning_chances(-200);
        assert_eq!(Judgment::of_drop(drop), Some(Judgment::Blunder));
    }

    #[test]
    fn game_accuracy_of_a_flawless_side_is_100_and_of_a_blundering_side_far_less() {
        // White keeps a small edge; Black's second move (the fourth of the
        // game) gives it all away, and White never lets go.
        let cps = [20, 25, 20, 30, 500, 510, 490, 700, 690, 720, 710];
        let wins: Vec<f64> = cps.iter().map(|&cp| win_percent(cp)).collect();
        let [white, black] = game_accuracy(&wins, Color::White);
        let (white, black) = (white.unwrap(), black.unwrap());
        assert!(white > 95.0, "{white}");
        assert!(black < white - 10.0, "{black} against {white}");
        // Each side's accuracy lies within its moves' accuracies.
        assert!((0.0..=100.0).contains(&black));
    }

    #[test]
    fn a_game_without_moves_has_no_accuracy() {
        assert_eq!(game_accuracy(&[50.0], Color::White), [None, None]);
        assert_eq!(game_accuracy(&[], Color::White), [None, None]);
    }

    #[test]
    fn reviews_read_back_from_their_json() {
        let review = Review {
            ms_per_position: 300,
            body: ReviewBody::TurnBased {
                positions: vec![PositionEval {
                    cp: Some(20),
                    best: Some("e2e4".into()),
                    best_san: Some("e4".into()),
                    line: vec!["e4".into(), "e5".into()],
                    depth: 9,
                    ..PositionEval::default()
                }],
                moves: vec![],
                white: PlayerReview::default(),
                black: PlayerReview::default(),
            },
        };
        let text = serde_json::to_string(&review).unwrap();
        assert!(text.contains(r#""kind":"turn-based""#), "{text}");
        assert!(text.contains(r#""msPerPosition":300"#), "{text}");
        assert_eq!(serde_json::from_str::<Review>(&text).unwrap(), review);
    }
}
