//! A game: a variant, a start position and the moves played, with
//! adjudication of the result and its reason.

use crate::fen::{self, FenError};
use crate::notation::{self, NotationError};
use crate::position::{Color, Move, Position};
use crate::variant::{StalemateResult, Variant};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Result {
    Win(Color),
    Draw,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    Checkmate,
    Stalemate,
    FiftyMoves,
    Repetition,
    InsufficientMaterial,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub result: Result,
    pub reason: Reason,
}

impl std::fmt::Display for Outcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let score = match self.result {
            Result::Win(Color::White) => "1-0",
            Result::Win(Color::Black) => "0-1",
            Result::Draw => "1/2-1/2",
        };
        let why = match self.reason {
            Reason::Checkmate => "checkmate",
            Reason::Stalemate => "stalemate",
            Reason::FiftyMoves => "fifty-move rule",
            Reason::Repetition => "repetition",
            Reason::InsufficientMaterial => "insufficient material",
        };
        write!(f, "{score} ({why})")
    }
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    #[error("start position: {0}")]
    Fen(#[from] FenError),
    #[error("move {number}: {error}")]
    Move { number: usize, error: NotationError },
    #[error("the game is over: {0}")]
    Over(Outcome),
}

#[derive(Clone, Debug)]
pub struct Game {
    moves: Vec<Move>,
    positions: Vec<Position>,
}

impl Game {
    pub fn new(start: Position) -> Game {
        Game {
            moves: Vec::new(),
            positions: vec![start],
        }
    }

    pub fn from_fen(variant: &'static Variant, fen: &str) -> std::result::Result<Game, GameError> {
        Ok(Game::new(fen::parse_position(variant, fen)?))
    }

    pub fn start(&self) -> &Position {
        &self.positions[0]
    }

    pub fn position(&self) -> &Position {
        self.positions
            .last()
            .expect("a game always has its start position")
    }

    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Plays a legal move; refuses moves once the game is decided.
    pub fn play(&mut self, mv: Move) -> std::result::Result<(), GameError> {
        if let Some(outcome) = self.outcome() {
            return Err(GameError::Over(outcome));
        }
        let pos = self.position();
        if !pos.is_legal(mv) {
            return Err(GameError::Move {
                number: self.moves.len() + 1,
                error: NotationError::Illegal {
                    text: notation::uci(pos, mv),
                    hint: None,
                },
            });
        }
        let next = pos.play(mv);
        self.moves.push(mv);
        self.positions.push(next);
        Ok(())
    }

    /// Plays a move given in SAN or coordinates.
    pub fn play_text(&mut self, text: &str) -> std::result::Result<Move, GameError> {
        if let Some(outcome) = self.outcome() {
            return Err(GameError::Over(outcome));
        }
        let pos = self.position();
        let mv = notation::parse_san(pos, text)
            .or_else(|san_err| notation::parse_uci(pos, text).map_err(|_| san_err))
            .map_err(|error| GameError::Move {
                number: self.moves.len() + 1,
                error,
            })?;
        self.play(mv)?;
        Ok(mv)
    }

    /// How many times the current position occurred since the last irreversible move.
    pub fn repetitions(&self) -> usize {
        let pos = self.position();
        let window = pos.halfmove_clock() as usize + 1;
        self.positions
            .iter()
            .rev()
            .take(window)
            .filter(|p| p.same_position(pos))
            .count()
    }

    /// The result if the game is over, with its reason.
    pub fn outcome(&self) -> Option<Outcome> {
        let pos = self.position();
        let v = pos.variant();
        if pos.count_legal_moves() == 0 {
            let mover = pos.side_to_move();
            return Some(if pos.is_check() {
                Outcome {
                    result: Result::Win(mover.other()),
                    reason: Reason::Checkmate,
                }
            } else {
                let result = match v.spec.stalemate {
                    StalemateResult::Draw => Result::Draw,
                    StalemateResult::Loss => Result::Win(mover.other()),
                    StalemateResult::Win => Result::Win(mover),
                };
                Outcome {
                    result,
                    reason: Reason::Stalemate,
                }
            });
        }
        if v.spec.insufficient_material && insufficient_material(pos) {
            return Some(Outcome {
                result: Result::Draw,
                reason: Reason::InsufficientMaterial,
            });
        }
        if v.spec.fifty_move_rule && pos.halfmove_clock() >= 100 {
            return Some(Outcome {
                result: Result::Draw,
                reason: Reason::FiftyMoves,
            });
        }
        if v.spec.repetition > 0 && self.repetitions() >= v.spec.repetition as usize {
            return Some(Outcome {
                result: Result::Draw,
                reason: Reason::Repetition,
            });
        }
        None
    }
}

/// Neither side can ever mate: only kings and pieces marked `minor`, and
/// at most one minor, or only colour-bound minors all on one square colour.
pub fn insufficient_material(pos: &Position) -> bool {
    let v = pos.variant();
    let shape = v.shape;
    let mut minors = Vec::new();
    for color in [Color::White, Color::Black] {
        for (k, info) in v.kinds.iter().enumerate() {
            if info.royal {
                continue;
            }
            let bb = pos.pieces(color, crate::position::Kind(k as u8));
            if bb.is_empty() {
                continue;
            }
            if !info.minor {
                return false;
            }
            minors.extend(bb.map(|sq| (info.colour_bound, (shape.file(sq) + shape.rank(sq)) % 2)));
        }
    }
    minors.len() <= 1 || (minors.iter().all(|m| m.0) && minors.iter().all(|m| m.1 == minors[0].1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::Registry;

    fn game(fen: &str) -> Game {
        Game::from_fen(Registry::builtin().get("chess").unwrap(), fen).unwrap()
    }

    #[test]
    fn checkmate_and_stalemate() {
        let mut g = game("k7/8/1K6/8/8/8/8/7R w - - 0 1");
        assert_eq!(g.outcome(), None);
        g.play_text("Rh8").unwrap();
        assert_eq!(
            g.outcome(),
            Some(Outcome {
                result: Result::Win(Color::White),
                reason: Reason::Checkmate
            })
        );
        assert!(matches!(g.play_text("Ka7"), Err(GameError::Over(_))));
        let stale = game("k7/8/1Q6/8/8/8/8/7K b - - 0 1");
        assert_eq!(
            stale.outcome(),
            Some(Outcome {
                result: Result::Draw,
                reason: Reason::Stalemate
            })
        );
    }

    #[test]
    fn fifty_moves_repetition_and_material() {
        let g = game("k7/8/8/8/8/8/8/K6R w - - 100 80");
        assert_eq!(g.outcome().map(|o| o.reason), Some(Reason::FiftyMoves));
        let mut g = game("k7/8/8/8/8/8/8/K6R w - - 0 1");
        for m in ["Rh2", "Kb8", "Rh1", "Ka8", "Rh2", "Kb8", "Rh1"] {
            assert_eq!(g.outcome(), None);
            g.play_text(m).unwrap();
        }
        assert_eq!(g.outcome(), None);
        g.play_text("Ka8").unwrap();
        assert_eq!(g.outcome().map(|o| o.reason), Some(Reason::Repetition));
        for fen in [
            "k7/8/8/8/8/8/8/K7 w - - 0 1",
            "k7/8/8/8/8/8/8/KN6 w - - 0 1",
            "kb6/8/8/8/8/8/8/K1B5 w - - 0 1",
        ] {
            assert_eq!(
                game(fen).outcome().map(|o| o.reason),
                Some(Reason::InsufficientMaterial),
                "{fen}"
            );
        }
        // Bishops on opposite colours and two knights are not dead by this rule.
        for fen in [
            "kb6/8/8/8/8/8/8/KB6 w - - 0 1",
            "k7/8/8/8/8/8/8/KNN5 w - - 0 1",
            "k7/8/8/8/8/8/8/KP6 w - - 0 1",
        ] {
            assert_eq!(game(fen).outcome(), None, "{fen}");
        }
    }

    #[test]
    fn bad_moves_are_errors_and_change_nothing() {
        let mut g = game("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        assert!(matches!(
            g.play_text("e5"),
            Err(GameError::Move { number: 1, .. })
        ));
        assert!(matches!(g.play_text("%%"), Err(GameError::Move { .. })));
        assert_eq!(g.moves().len(), 0);
        g.play_text("e4").unwrap();
        g.play_text("e7e5").unwrap();
        assert_eq!(g.moves().len(), 2);
    }
}
