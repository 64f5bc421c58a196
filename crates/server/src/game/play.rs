//! What the server adds to the rules' [`AnyGame`]: how a refused move is
//! answered, and the board as the page and bots receive it.

use parity_rules::notation::{IllegalHint, NotationError};
use parity_rules::{AnyGame, Color, FenError, PositionError};
use serde::{Deserialize, Serialize};

use crate::base::refusal::Said;
use crate::game::event::Side;

/// Why a move text is refused, in the catalogue's words (`base::i18n`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// Not a move at all (400).
    #[error("{0}")]
    Garbled(Said),
    /// A move, but not a legal one here (422).
    #[error("{0}")]
    Illegal(Said),
}

impl From<NotationError> for MoveError {
    fn from(e: NotationError) -> MoveError {
        match e {
            NotationError::Empty => MoveError::Garbled(Said::new("server-move-empty")),
            NotationError::Garbled(text) => {
                MoveError::Garbled(Said::new("server-move-garbled").with("text", &text))
            }
            NotationError::UnknownPiece(letter) => {
                MoveError::Garbled(Said::new("server-move-unknown-piece").with("letter", letter))
            }
            NotationError::Illegal { text, hint: None } => {
                MoveError::Illegal(Said::new("server-move-illegal").with("text", &text))
            }
            NotationError::Illegal {
                text,
                hint: Some(hint),
            } => MoveError::Illegal(hint_said(hint).with("text", &text)),
            NotationError::Ambiguous { text, candidates } => MoveError::Illegal(
                Said::new("server-move-ambiguous")
                    .with("text", &text)
                    .with("candidates", candidates.join(" / ")),
            ),
        }
    }
}

/// An illegal move's message with its hint.
fn hint_said(hint: IllegalHint) -> Said {
    match hint {
        IllegalHint::JoinsOwnAlone(square) => {
            Said::new("server-move-illegal-joins-own-alone").with("square", &square)
        }
        IllegalHint::NotYours { square, color } => Said::new("server-move-illegal-not-yours")
            .with("square", &square)
            .with("color", color.name()),
        IllegalHint::NoPiece(square) => {
            Said::new("server-move-illegal-no-piece").with("square", &square)
        }
        IllegalHint::NoCastling => Said::new("server-move-illegal-no-castling"),
        IllegalHint::CastlingBlocked => Said::new("server-move-illegal-castling-blocked"),
    }
}

/// Why a FEN is refused, in the catalogue's words: `bad FEN for VARIANT: ...`.
pub fn fen_refused(variant: &str, e: &FenError) -> Said {
    let said = |id: &str| Said::new(id).with("variant", variant);
    match e {
        FenError::Empty => said("server-fen-empty"),
        FenError::WrongRankCount { expected, found } => said("server-fen-rank-count")
            .with("found", found)
            .with("expected", expected),
        FenError::RankWidth {
            rank,
            expected,
            found,
        } => said("server-fen-rank-width")
            .with("rank", rank)
            .with("found", found)
            .with("expected", expected),
        FenError::UnknownPiece(letter) => said("server-fen-unknown-piece").with("letter", letter),
        FenError::BadSide(side) => said("server-fen-bad-side").with("side", side),
        FenError::BadCastling(field) => said("server-fen-bad-castling").with("field", field),
        FenError::BadEnPassant(field) => said("server-fen-bad-en-passant").with("field", field),
        FenError::BadClock(field) => said("server-fen-bad-clock").with("field", field),
        FenError::TooManyFields => said("server-fen-too-many-fields"),
        FenError::Position(p) => match p {
            PositionError::MissingKing(c) => said("server-fen-no-king").with("color", c.name()),
            PositionError::TooManyKings(c) => {
                said("server-fen-too-many-kings").with("color", c.name())
            }
            PositionError::PawnOnLastRank { color, square } => said("server-fen-pawn-last-rank")
                .with("color", color.name())
                .with("square", square),
            PositionError::SquareTaken(square) => {
                said("server-fen-square-taken").with("square", square)
            }
            PositionError::OppositeCheck(c) => {
                said("server-fen-opposite-check").with("color", c.name())
            }
            PositionError::BadCastling(square) => {
                said("server-fen-castling-right").with("square", square)
            }
            PositionError::BadEnPassant(square) => {
                said("server-fen-en-passant-square").with("square", square)
            }
        },
    }
}

impl From<parity_rules::GameError> for MoveError {
    fn from(e: parity_rules::GameError) -> MoveError {
        MoveError::Illegal(Said::as_is(e))
    }
}

/// One occupied square of `gameFull.board`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardSquare {
    pub square: String,
    pub pieces: Vec<BoardPiece>,
    /// The sides whose piece on this square moved in the last move or turn.
    pub last_moved: Vec<Side>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardPiece {
    pub color: Side,
    pub letter: String,
    pub name: String,
}

/// The side's legal moves in coordinates (none for the side not to move).
pub fn legal_texts(game: &AnyGame, color: Color) -> Vec<String> {
    game.legal_moves(color)
        .into_iter()
        .map(|m| game.uci(color, m))
        .collect()
}

/// Reads a move of `color` in coordinates against its legal moves now.
pub fn read_move(
    game: &AnyGame,
    color: Color,
    text: &str,
) -> Result<parity_rules::Move, MoveError> {
    Ok(game.parse_uci(color, text)?)
}

/// A typed move read against the legal moves: what the page plays or commits.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TypedMove {
    pub uci: String,
    pub san: String,
}

/// Reads typed text of `color` leniently: coordinates, SAN, or the
/// notation of the variant literature (`exN`, `Nc3-e4`).
pub fn read_typed_move(game: &AnyGame, color: Color, text: &str) -> Result<TypedMove, MoveError> {
    let mv = game.read_move(color, text)?;
    Ok(TypedMove {
        uci: game.uci(color, mv),
        san: game.san(color, mv),
    })
}

/// The longest move text a reveal may carry: the rules' coordinates of any
/// move (a piece letter, three squares, a promotion, `&`) are shorter.
pub const MAX_MOVE_TEXT: usize = 16;

/// Whether `text` could be a move's coordinates at all: 1 to
/// [`MAX_MOVE_TEXT`] printable ASCII characters, no spaces.
pub fn is_move_text(text: &str) -> bool {
    (1..=MAX_MOVE_TEXT).contains(&text.len()) && text.bytes().all(|b| b.is_ascii_graphic())
}

/// Reads a revealed move: it must be exactly the coordinates the rules
/// write for it, so a commitment is over one text per move and a record
/// stores nothing but that text.
pub fn read_canonical_move(
    game: &AnyGame,
    color: Color,
    text: &str,
) -> Result<parity_rules::Move, MoveError> {
    let mv = read_move(game, color, text)?;
    let canonical = game.uci(color, mv);
    if text != canonical {
        return Err(MoveError::Garbled(
            Said::new("server-move-not-canonical")
                .with("text", format!("{text:?}"))
                .with("canonical", format!("{canonical:?}")),
        ));
    }
    Ok(mv)
}

/// The occupied squares, in square order.
pub fn board(game: &AnyGame) -> Vec<BoardSquare> {
    let v = game.variant();
    game.pieces()
        .into_iter()
        .map(|(sq, pieces)| BoardSquare {
            square: v.shape.name(sq).to_string(),
            pieces: pieces
                .into_iter()
                .map(|p| {
                    let info = v.kind(p.kind);
                    BoardPiece {
                        color: p.color.into(),
                        letter: info.letter.to_string(),
                        name: info.name.to_lowercase(),
                    }
                })
                .collect(),
            last_moved: game.last_moved(sq).into_iter().map(Side::from).collect(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use parity_rules::{Outcome, Reason, Registry};

    #[test]
    fn reads_plays_and_lists_a_turn_based_game() {
        let v = Registry::builtin().get("chess").unwrap();
        let mut game = AnyGame::new(v);
        assert_eq!(legal_texts(&game, Color::White).len(), 20);
        assert!(legal_texts(&game, Color::Black).is_empty());
        assert!(matches!(
            read_move(&game, Color::White, "zz"),
            Err(MoveError::Garbled(_))
        ));
        assert!(matches!(
            read_move(&game, Color::White, "e2e5"),
            Err(MoveError::Illegal(_))
        ));
        for text in ["f2f3", "e7e5", "g2g4"] {
            let color = game.to_move().unwrap();
            let mv = read_move(&game, color, text).unwrap();
            game.play(mv).unwrap();
        }
        let mv = read_move(&game, Color::Black, "d8h4").unwrap();
        assert_eq!(game.san(Color::Black, mv), "Qh4#");
        game.play(mv).unwrap();
        assert_eq!(
            game.outcome(),
            Some(Outcome::win(Color::Black, Reason::Checkmate))
        );
        let h4 = board(&game).into_iter().find(|s| s.square == "h4").unwrap();
        assert_eq!(h4.pieces[0].name, "queen");
        assert_eq!(h4.last_moved, vec![Side::Black]);
    }

    #[test]
    fn a_shared_square_lists_both_pieces() {
        let v = Registry::builtin().get("parity").unwrap();
        let mut game = AnyGame::new(v);
        for (w, b) in [("g1f3", "b8c6"), ("e2e3", "e7e6"), ("f3e5", "c6e5")] {
            let wm = read_move(&game, Color::White, w).unwrap();
            let bm = read_move(&game, Color::Black, b).unwrap();
            game.play_turn(wm, bm).unwrap();
        }
        let e5 = board(&game).into_iter().find(|s| s.square == "e5").unwrap();
        assert_eq!(e5.pieces.len(), 2);
        assert_eq!(e5.last_moved, vec![Side::White, Side::Black]);
        assert_eq!(game.turn(), 4);
        assert_eq!(game.to_move(), None);
    }
}

#[cfg(test)]
mod words {
    use super::*;

    /// A refused FEN and a refused move say the rules' reason in English as
    /// the rules word it, and in French.
    #[test]
    fn refusals_name_the_rules_reason_in_each_language() {
        let chess = parity_rules::Registry::builtin().get("chess").unwrap();
        let e = AnyGame::from_fen(chess, Some("8/8/8/8/8/8/8/K6k w - - 0 1 x"))
            .err()
            .unwrap();
        let said = fen_refused("chess", &e);
        assert_eq!(said.to_string(), format!("bad FEN for chess: {e}"));
        let e = AnyGame::from_fen(chess, Some("8/8/8/8/8/8/8/8 w - - 0 1"))
            .err()
            .unwrap();
        let said = fen_refused("chess", &e);
        assert_eq!(said.to_string(), format!("bad FEN for chess: {e}"));
        assert_eq!(
            said.in_language("fr"),
            "FEN invalide pour chess : les Blancs n'ont pas de roi"
        );
        let game = AnyGame::new(chess);
        let e = MoveError::from(game.parse_uci(Color::White, "e7e5").err().unwrap());
        let MoveError::Illegal(said) = e else {
            panic!("{e}")
        };
        assert_eq!(
            said.to_string(),
            "`e7e5` is not a legal move here: the piece on e7 is not white's"
        );
        assert_eq!(
            said.in_language("fr"),
            "`e7e5` n'est pas un coup légal ici : la pièce en e7 n'est pas aux Blancs"
        );
    }
}
