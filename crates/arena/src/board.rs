//! One game's board for the turn-based ([`Game`]) and crowd
//! ([`CrowdGame`]) families. The simultaneous family, where both sides move
//! at once, is played by [`crate::sim`] on a `SimGame` and refused here.

use parity_rules::crowd::{CrowdGame, CrowdPosition};
use parity_rules::notation::{self, MoveContext, NotationError};
use parity_rules::variant::Family;
use parity_rules::{fen, Color, Game, Kind, Move, Outcome, Position, Variant};

/// A game in progress of a turn-based or crowd variant.
#[derive(Clone, Debug)]
pub enum Board {
    Turn(Game),
    Crowd(CrowdGame),
}

/// Why a variant or start position cannot be played in a match.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    #[error("`{0}` is a simultaneous variant: its games are played by `parity_arena::sim`")]
    Simultaneous(String),
    #[error("bad FEN `{fen}`: {error}")]
    Fen { fen: String, error: String },
}

impl Board {
    /// The variant's start position, or `fen`.
    pub fn new(variant: &'static Variant, fen: Option<&str>) -> Result<Board, BoardError> {
        let bad = |f: &str, e: String| BoardError::Fen {
            fen: f.to_string(),
            error: e,
        };
        match variant.spec.family {
            Family::Simultaneous => Err(BoardError::Simultaneous(variant.id().to_string())),
            Family::TurnBased => {
                let start = match fen {
                    Some(f) => {
                        fen::parse_position(variant, f).map_err(|e| bad(f, e.to_string()))?
                    }
                    None => Position::start(variant),
                };
                Ok(Board::Turn(Game::new(start)))
            }
            Family::Crowd => {
                let start = match fen {
                    Some(f) => {
                        CrowdPosition::from_fen(variant, f).map_err(|e| bad(f, e.to_string()))?
                    }
                    None => CrowdPosition::start(variant),
                };
                Ok(Board::Crowd(CrowdGame::new(start)))
            }
        }
    }

    pub fn variant(&self) -> &'static Variant {
        match self {
            Board::Turn(g) => g.position().variant(),
            Board::Crowd(g) => g.position().variant(),
        }
    }

    fn ctx(&self) -> &dyn MoveContext {
        match self {
            Board::Turn(g) => g.position(),
            Board::Crowd(g) => g.position(),
        }
    }

    pub fn side_to_move(&self) -> Color {
        self.ctx().mover()
    }

    pub fn legal_moves(&self) -> Vec<Move> {
        self.ctx().legal()
    }

    pub fn moves(&self) -> &[Move] {
        match self {
            Board::Turn(g) => g.moves(),
            Board::Crowd(g) => g.moves(),
        }
    }

    /// FEN of the current position (crowds as `(PPn)`).
    pub fn fen(&self) -> String {
        match self {
            Board::Turn(g) => fen::write(g.position()),
            Board::Crowd(g) => g.position().to_fen(),
        }
    }

    /// FEN of the start position.
    pub fn start_fen(&self) -> String {
        match self {
            Board::Turn(g) => fen::write(g.start()),
            Board::Crowd(g) => g.start().to_fen(),
        }
    }

    /// True when the game started from the variant's own start position.
    pub fn starts_from_variant_start(&self) -> bool {
        let v = self.variant();
        match Board::new(v, None) {
            Ok(b) => b.start_fen() == self.start_fen(),
            Err(_) => false,
        }
    }

    pub fn fullmove_number(&self) -> u32 {
        match self {
            Board::Turn(g) => g.position().fullmove_number(),
            Board::Crowd(g) => g.position().fullmove_number(),
        }
    }

    pub fn is_check(&self) -> bool {
        match self {
            Board::Turn(g) => g.position().is_check(),
            Board::Crowd(g) => g.position().is_check(),
        }
    }

    /// The result by the rules of the game, if it is over.
    pub fn outcome(&self) -> Option<Outcome> {
        match self {
            Board::Turn(g) => g.outcome(),
            Board::Crowd(g) => g.outcome(),
        }
    }

    /// Coordinate text of a legal move in the current position.
    pub fn uci(&self, mv: Move) -> String {
        notation::uci(self.ctx(), mv)
    }

    /// SAN of a legal move in the current position, with check marks.
    pub fn san(&self, mv: Move) -> String {
        match self {
            Board::Turn(g) => notation::san(g.position(), mv),
            Board::Crowd(g) => g.position().san(mv),
        }
    }

    /// Reads a move an engine sent: coordinates first (promotion letter in
    /// any case), then SAN (some XBoard engines castle as `O-O`).
    pub fn parse_move(&self, text: &str) -> Result<Move, NotationError> {
        read_move(self.ctx(), text)
    }

    /// Plays a legal move (the caller checked it with [`Board::parse_move`]).
    pub fn play(&mut self, mv: Move) -> Result<(), String> {
        match self {
            Board::Turn(g) => g.play(mv).map_err(|e| e.to_string()),
            Board::Crowd(g) => g.play(mv),
        }
    }

    /// Material of each side by the variant's piece values (kings count 0).
    pub fn material(&self) -> [i64; 2] {
        let v = self.variant();
        let mut out = [0i64; 2];
        let value = |k: Kind| v.kinds[k.index()].value as i64;
        match self {
            Board::Turn(g) => {
                let pos = g.position();
                for color in [Color::White, Color::Black] {
                    for k in 0..v.kinds.len() {
                        let kind = Kind(k as u8);
                        out[color.index()] += pos.pieces(color, kind).count() as i64 * value(kind);
                    }
                }
            }
            Board::Crowd(g) => {
                let pos = g.position();
                for sq in pos.occupied() {
                    for p in pos.contents(sq) {
                        out[p.color.index()] += value(p.kind);
                    }
                }
            }
        }
        out
    }

    /// Same pieces, side, rights: the key used to tell openings apart.
    pub fn position_key(&self) -> u64 {
        match self {
            Board::Turn(g) => g.position().hash(),
            Board::Crowd(g) => g.position().hash(),
        }
    }
}

/// Reads a move an engine sent, against any family's move context:
/// coordinates first (promotion letter in any case), then SAN.
pub fn read_move(ctx: &dyn MoveContext, text: &str) -> Result<Move, NotationError> {
    let text = text.trim();
    notation::parse_uci(ctx, text)
        .or_else(|first| {
            // `e7e8Q` is read already; all upper case (`E7E8Q`) is not
            // (an upper-case letter before lower-case squares names a
            // crowd member, `Qd4d8`).
            if !text.chars().any(|c| c.is_ascii_lowercase()) {
                notation::parse_uci(ctx, &text.to_ascii_lowercase()).map_err(|_| first)
            } else {
                Err(first)
            }
        })
        .or_else(|first| notation::parse_san(ctx, text).map_err(|_| first))
}

#[cfg(test)]
mod tests {
    use super::*;
    use parity_rules::Registry;

    #[test]
    fn reads_engine_moves_leniently() {
        let reg = Registry::builtin();
        let mut b = Board::new(
            reg.get("chess").unwrap(),
            Some("4k3/P7/8/8/8/8/8/4K2R w K - 0 1"),
        )
        .unwrap();
        for text in ["a7a8q", "a7a8Q", "A7A8Q"] {
            let mv = b.parse_move(text).unwrap();
            assert_eq!(b.uci(mv), "a7a8q");
        }
        assert_eq!(b.uci(b.parse_move("O-O").unwrap()), "e1g1");
        // A promotion without its letter is to the first listed piece.
        assert_eq!(b.uci(b.parse_move("a7a8").unwrap()), "a7a8q");
        assert!(matches!(
            b.parse_move("e2e4"),
            Err(NotationError::Illegal { .. })
        ));
        assert!(b.parse_move("hello").is_err());
        let mv = b.parse_move("e1g1").unwrap();
        b.play(mv).unwrap();
        assert_eq!(b.side_to_move(), Color::Black);
    }

    #[test]
    fn crowd_boards_and_material() {
        let reg = Registry::builtin();
        let b = Board::new(
            reg.get("safety-in-numbers").unwrap(),
            Some("4k3/8/8/3(PPn)4/8/8/8/4K3 w - - 0 1"),
        )
        .unwrap();
        assert_eq!(b.material(), [200, 320]);
        let start = Board::new(reg.get("tutti-frutti").unwrap(), None).unwrap();
        let m = start.material();
        assert_eq!(m[0], m[1]);
        assert!(start.starts_from_variant_start());
        assert!(matches!(
            Board::new(reg.get("parity").unwrap(), None),
            Err(BoardError::Simultaneous(_))
        ));
    }
}
