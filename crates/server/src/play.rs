//! One game of any rule family, as the server needs it: moves read as text,
//! written as coordinates and SAN, the board as a list, and the outcome.

use parity_rules::crowd::{CrowdGame, CrowdPosition};
use parity_rules::game::{Reason, Result as GameResult};
use parity_rules::notation::{self, NotationError};
use parity_rules::simultaneous::{SideNotes, SimGame, SimPosition, SimReason};
use parity_rules::variant::Family;
use parity_rules::{fen, Color, Game, Move, Outcome, Position, Square, Variant};
use serde::Serialize;

use crate::event::Side;

/// The rules' game of a variant's family.
#[derive(Clone, Debug)]
pub enum Play {
    TurnBased(Game),
    Crowd(CrowdGame),
    Simultaneous(SimGame),
}

/// How the rules ended a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ending {
    pub winner: Option<Color>,
    pub reason: &'static str,
}

/// Why a move text is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// Not a move at all (400).
    #[error("bad move text: {0}")]
    Garbled(String),
    /// A move, but not a legal one here (422).
    #[error("{0}")]
    Illegal(String),
}

impl From<NotationError> for MoveError {
    fn from(e: NotationError) -> MoveError {
        match e {
            NotationError::Empty | NotationError::Garbled(_) | NotationError::UnknownPiece(_) => {
                MoveError::Garbled(e.to_string())
            }
            NotationError::Illegal { .. } | NotationError::Ambiguous { .. } => {
                MoveError::Illegal(e.to_string())
            }
        }
    }
}

/// One occupied square of `gameFull.board`.
#[derive(Clone, Debug, Serialize)]
pub struct BoardSquare {
    pub square: String,
    pub pieces: Vec<BoardPiece>,
    /// The sides whose piece on this square moved in the last move or turn.
    pub last_moved: Vec<Side>,
}

#[derive(Clone, Debug, Serialize)]
pub struct BoardPiece {
    pub color: Side,
    pub letter: String,
    pub name: String,
}

fn turn_based_ending(outcome: Outcome) -> Ending {
    Ending {
        winner: match outcome.result {
            GameResult::Win(c) => Some(c),
            GameResult::Draw => None,
        },
        reason: match outcome.reason {
            Reason::Checkmate => "checkmate",
            Reason::Stalemate => "stalemate",
            Reason::FiftyMoves => "fifty moves",
            Reason::Repetition => "repetition",
            Reason::InsufficientMaterial => "insufficient material",
        },
    }
}

/// The `reason` the server writes for each way the simultaneous rules end a game.
pub fn sim_reason(reason: SimReason) -> &'static str {
    match reason {
        SimReason::NoLegalMove => "no legal move",
        SimReason::Checkmate => "checkmate",
        SimReason::BothCheckmated => "both checkmated",
        SimReason::Stalemate => "stalemate",
        SimReason::KingsShareSquare => "kings share a square",
        SimReason::FiftyTurns => "fifty turns",
        SimReason::Repetition => "repetition",
        SimReason::DeadPosition => "dead position",
    }
}

impl Play {
    /// A new game from the variant's start position.
    pub fn new(variant: &'static Variant) -> Play {
        match variant.spec.family {
            Family::TurnBased => Play::TurnBased(Game::new(Position::start(variant))),
            Family::Crowd => Play::Crowd(CrowdGame::new(CrowdPosition::start(variant))),
            Family::Simultaneous => Play::Simultaneous(SimGame::new(SimPosition::start(variant))),
        }
    }

    pub fn is_simultaneous(&self) -> bool {
        matches!(self, Play::Simultaneous(_))
    }

    pub fn variant(&self) -> &'static Variant {
        match self {
            Play::TurnBased(g) => g.position().variant(),
            Play::Crowd(g) => g.position().variant(),
            Play::Simultaneous(g) => g.position().variant(),
        }
    }

    pub fn fen(&self) -> String {
        match self {
            Play::TurnBased(g) => fen::write(g.position()),
            Play::Crowd(g) => g.position().to_fen(),
            Play::Simultaneous(g) => g.position().to_fen(),
        }
    }

    pub fn start_fen(&self) -> String {
        match self {
            Play::TurnBased(g) => fen::write(g.start()),
            Play::Crowd(g) => g.start().to_fen(),
            Play::Simultaneous(g) => g.start().to_fen(),
        }
    }

    /// The full move number (turn-based) or the turn number (simultaneous).
    pub fn turn(&self) -> u32 {
        match self {
            Play::TurnBased(g) => g.position().fullmove_number(),
            Play::Crowd(g) => g.position().fullmove_number(),
            Play::Simultaneous(g) => g.position().turn_number(),
        }
    }

    /// Moves (turn-based) or turns (simultaneous) played so far.
    pub fn played(&self) -> usize {
        match self {
            Play::TurnBased(g) => g.moves().len(),
            Play::Crowd(g) => g.moves().len(),
            Play::Simultaneous(g) => g.turns().len(),
        }
    }

    /// The side to move; none in simultaneous games.
    pub fn to_move(&self) -> Option<Color> {
        match self {
            Play::TurnBased(g) => Some(g.position().side_to_move()),
            Play::Crowd(g) => Some(g.position().side_to_move()),
            Play::Simultaneous(_) => None,
        }
    }

    /// The side's legal moves in coordinates (none for the side not to move).
    pub fn legal(&self, color: Color) -> Vec<String> {
        if self.to_move().is_some_and(|c| c != color) {
            return Vec::new();
        }
        match self {
            Play::TurnBased(g) => {
                let pos = g.position();
                pos.legal_moves()
                    .into_iter()
                    .map(|m| notation::uci(pos, m))
                    .collect()
            }
            Play::Crowd(g) => {
                let pos = g.position();
                pos.legal_moves()
                    .into_iter()
                    .map(|m| notation::uci(pos, m))
                    .collect()
            }
            Play::Simultaneous(g) => {
                let pos = g.position();
                let side = pos.side(color);
                pos.legal_moves(color)
                    .into_iter()
                    .map(|m| notation::uci(&side, m))
                    .collect()
            }
        }
    }

    /// Reads a move of `color` in coordinates against its legal moves now.
    pub fn read_move(&self, color: Color, text: &str) -> Result<Move, MoveError> {
        Ok(match self {
            Play::TurnBased(g) => notation::parse_uci(g.position(), text)?,
            Play::Crowd(g) => notation::parse_uci(g.position(), text)?,
            Play::Simultaneous(g) => notation::parse_uci(&g.position().side(color), text)?,
        })
    }

    /// A legal move of `color` in coordinates and in SAN (with check marks
    /// in the turn-based families).
    pub fn names(&self, color: Color, mv: Move) -> (String, String) {
        match self {
            Play::TurnBased(g) => {
                let pos = g.position();
                (notation::uci(pos, mv), notation::san(pos, mv))
            }
            Play::Crowd(g) => {
                let pos = g.position();
                (notation::uci(pos, mv), pos.san(mv))
            }
            Play::Simultaneous(g) => {
                let side = g.position().side(color);
                (notation::uci(&side, mv), notation::san_plain(&side, mv))
            }
        }
    }

    /// Plays a turn-based move read by [`Play::read_move`].
    pub fn play(&mut self, mv: Move) -> Result<(), MoveError> {
        match self {
            Play::TurnBased(g) => g.play(mv).map_err(|e| MoveError::Illegal(e.to_string())),
            Play::Crowd(g) => g.play(mv).map_err(MoveError::Illegal),
            Play::Simultaneous(_) => Err(MoveError::Illegal(
                "a simultaneous game is played by commit and reveal".into(),
            )),
        }
    }

    /// Resolves a simultaneous turn.
    pub fn play_turn(&mut self, white: Move, black: Move) -> Result<[SideNotes; 2], MoveError> {
        match self {
            Play::Simultaneous(g) => g
                .play(white, black)
                .map_err(|e| MoveError::Illegal(e.to_string())),
            _ => Err(MoveError::Illegal(
                "only simultaneous games have turns".into(),
            )),
        }
    }

    /// The rules' verdict on the current position.
    pub fn ending(&self) -> Option<Ending> {
        match self {
            Play::TurnBased(g) => g.outcome().map(turn_based_ending),
            Play::Crowd(g) => g.outcome().map(turn_based_ending),
            Play::Simultaneous(g) => g.outcome().map(|o| Ending {
                winner: o.winner,
                reason: sim_reason(o.reason),
            }),
        }
    }

    /// The occupied squares, in square order.
    pub fn board(&self) -> Vec<BoardSquare> {
        let v = self.variant();
        let piece = |color: Color, kind: parity_rules::Kind| {
            let info = v.kind(kind);
            BoardPiece {
                color: color.into(),
                letter: info.letter.to_string(),
                name: info.name.to_lowercase(),
            }
        };
        // The square and side of the last move's piece (turn-based families).
        let last_move = |moves: &[Move], mover: Color| moves.last().map(|m| (m.to, mover));
        let mut out = Vec::new();
        let mut push = |sq: Square, pieces: Vec<BoardPiece>, last_moved: Vec<Side>| {
            if !pieces.is_empty() {
                out.push(BoardSquare {
                    square: v.shape.name(sq).to_string(),
                    pieces,
                    last_moved,
                });
            }
        };
        match self {
            Play::TurnBased(g) => {
                let pos = g.position();
                let last = last_move(g.moves(), pos.side_to_move().other());
                for sq in v.shape.squares() {
                    let pieces = pos
                        .piece_at(sq)
                        .map(|p| piece(p.color, p.kind))
                        .into_iter()
                        .collect();
                    let marks = last.filter(|(s, _)| *s == sq).map(|(_, c)| c.into());
                    push(sq, pieces, marks.into_iter().collect());
                }
            }
            Play::Crowd(g) => {
                let pos = g.position();
                let last = last_move(g.moves(), pos.side_to_move().other());
                for sq in v.shape.squares() {
                    let pieces = pos
                        .contents(sq)
                        .into_iter()
                        .map(|p| piece(p.color, p.kind))
                        .collect();
                    let marks = last.filter(|(s, _)| *s == sq).map(|(_, c)| c.into());
                    push(sq, pieces, marks.into_iter().collect());
                }
            }
            Play::Simultaneous(g) => {
                let pos = g.position();
                for sq in v.shape.squares() {
                    let colors = [Color::White, Color::Black];
                    let pieces = colors
                        .iter()
                        .filter_map(|&c| pos.kind_at(c, sq).map(|k| piece(c, k)))
                        .collect();
                    let marks = colors
                        .iter()
                        .filter(|&&c| pos.last_moved(c).contains(sq))
                        .map(|&c| c.into())
                        .collect();
                    push(sq, pieces, marks);
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use parity_rules::Registry;

    #[test]
    fn reads_plays_and_lists_a_turn_based_game() {
        let v = Registry::builtin().get("chess").unwrap();
        let mut play = Play::new(v);
        assert_eq!(play.legal(Color::White).len(), 20);
        assert!(play.legal(Color::Black).is_empty());
        assert!(matches!(
            play.read_move(Color::White, "zz"),
            Err(MoveError::Garbled(_))
        ));
        assert!(matches!(
            play.read_move(Color::White, "e2e5"),
            Err(MoveError::Illegal(_))
        ));
        for text in ["f2f3", "e7e5", "g2g4"] {
            let color = play.to_move().unwrap();
            let mv = play.read_move(color, text).unwrap();
            play.play(mv).unwrap();
        }
        let mv = play.read_move(Color::Black, "d8h4").unwrap();
        assert_eq!(play.names(Color::Black, mv).1, "Qh4#");
        play.play(mv).unwrap();
        assert_eq!(
            play.ending(),
            Some(Ending {
                winner: Some(Color::Black),
                reason: "checkmate"
            })
        );
        let h4 = play.board().into_iter().find(|s| s.square == "h4").unwrap();
        assert_eq!(h4.pieces[0].name, "queen");
        assert_eq!(h4.last_moved, vec![Side::Black]);
    }

    #[test]
    fn a_shared_square_lists_both_pieces() {
        let v = Registry::builtin().get("parity").unwrap();
        let mut play = Play::new(v);
        for (w, b) in [("g1f3", "b8c6"), ("e2e3", "e7e6"), ("f3e5", "c6e5")] {
            let wm = play.read_move(Color::White, w).unwrap();
            let bm = play.read_move(Color::Black, b).unwrap();
            play.play_turn(wm, bm).unwrap();
        }
        let e5 = play.board().into_iter().find(|s| s.square == "e5").unwrap();
        assert_eq!(e5.pieces.len(), 2);
        assert_eq!(e5.last_moved, vec![Side::White, Side::Black]);
        assert_eq!(play.turn(), 4);
        assert_eq!(play.to_move(), None);
    }
}
