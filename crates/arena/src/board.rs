//! The game of a match between engines that move in turn (turn-based and
//! crowd families), as the rules' [`AnyGame`]. The simultaneous family,
//! where both sides move at once, is played by [`crate::sim`] and refused here.

use parity_rules::{AnyGame, Color, Variant};

/// Why a variant or start position cannot be played in a match.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    #[error("`{0}` is a simultaneous variant: its games are played by `parity_arena::sim`")]
    Simultaneous(String),
    #[error("bad FEN `{fen}`: {error}")]
    Fen { fen: String, error: String },
}

/// A game of `variant` from `fen`, or from its start position.
pub fn turn_game(variant: &'static Variant, fen: Option<&str>) -> Result<AnyGame, BoardError> {
    let game = AnyGame::from_fen(variant, fen).map_err(|e| BoardError::Fen {
        fen: fen.unwrap_or_default().to_string(),
        error: e.to_string(),
    })?;
    if game.is_simultaneous() {
        return Err(BoardError::Simultaneous(variant.id().to_string()));
    }
    Ok(game)
}

/// The side to move of a game made by [`turn_game`].
pub fn mover(game: &AnyGame) -> Color {
    game.to_move().expect("sides move in turn in a match game")
}

#[cfg(test)]
mod tests {
    use super::*;
    use parity_rules::Registry;

    #[test]
    fn simultaneous_variants_and_bad_fens_are_refused() {
        let reg = Registry::builtin();
        assert!(matches!(
            turn_game(reg.get("parity").unwrap(), None),
            Err(BoardError::Simultaneous(_))
        ));
        assert!(matches!(
            turn_game(reg.get("chess").unwrap(), Some("8/8 w")),
            Err(BoardError::Fen { .. })
        ));
        let start = turn_game(reg.get("tutti-frutti").unwrap(), None).unwrap();
        assert!(start.starts_from_variant_start());
        assert_eq!(mover(&start), Color::White);
    }
}
