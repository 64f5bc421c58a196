//! The board of a simultaneous variant in a match: its start, turns read
//! and written as `white:black`, the game after an opening. The
//! counterpart of `board.rs` for the family `sim.rs` plays.

use parity_rules::notation;
use parity_rules::notation::parse_lenient as read_move;
use parity_rules::simultaneous::SimPosition;
use parity_rules::variant::Family;
use parity_rules::SimGame;
use parity_rules::{Color, Move, Variant};

/// True for the simultaneous variants (played by [`crate::sim`]).
pub fn is_simultaneous(variant: &Variant) -> bool {
    variant.spec.family == Family::Simultaneous
}

/// The variant's start position, or a simultaneous FEN.
pub fn start_position(variant: &'static Variant, fen: Option<&str>) -> Result<SimPosition, String> {
    if !is_simultaneous(variant) {
        return Err(format!("`{}` is not a simultaneous variant", variant.id()));
    }
    match fen {
        Some(f) => SimPosition::from_fen(variant, f).map_err(|e| format!("bad FEN `{f}`: {e}")),
        None => Ok(SimPosition::start(variant)),
    }
}

/// True when `pos` is the variant's own start position.
pub fn is_variant_start(pos: &SimPosition) -> bool {
    pos.to_fen() == SimPosition::start(pos.variant()).to_fen()
}

/// Reads a turn `white:black` (coordinates or SAN on each side of the colon).
pub fn parse_turn(pos: &SimPosition, text: &str) -> Result<[Move; 2], String> {
    let (w, b) = text
        .split_once(':')
        .ok_or_else(|| format!("`{text}`: a turn is written white:black, e.g. e2e4:e7e5"))?;
    let mut out = [None, None];
    for (color, part) in [(Color::White, w), (Color::Black, b)] {
        let mv = read_move(&pos.side(color), part)
            .map_err(|e| format!("`{text}`: {}: {e}", color.name()))?;
        out[color.index()] = Some(mv);
    }
    Ok(out.map(|m| m.expect("both sides read")))
}

/// A turn in coordinates, `e2e4:e7e5`.
pub fn joint_text(pos: &SimPosition, moves: [Move; 2]) -> String {
    format!(
        "{}:{}",
        notation::uci(&pos.side(Color::White), moves[0]),
        notation::uci(&pos.side(Color::Black), moves[1])
    )
}

/// A turn in SAN, `e4 e5`.
pub fn san_text(pos: &SimPosition, moves: [Move; 2]) -> String {
    format!(
        "{} {}",
        notation::san_plain(&pos.side(Color::White), moves[0]),
        notation::san_plain(&pos.side(Color::Black), moves[1])
    )
}

/// The game after an opening's turns.
pub fn opening_game(
    variant: &'static Variant,
    fen: Option<&str>,
    turns: &[String],
) -> Result<SimGame, String> {
    let mut game = SimGame::new(start_position(variant, fen)?);
    for text in turns {
        let pos = *game.position();
        let [w, b] = parse_turn(&pos, text)?;
        game.play(w, b).map_err(|e| format!("`{text}`: {e}"))?;
    }
    Ok(game)
}

#[cfg(test)]
mod tests {
    use super::*;
    use parity_rules::{PieceView, Registry};

    fn v(id: &str) -> &'static Variant {
        Registry::builtin().get(id).unwrap()
    }

    #[test]
    fn turns_read_and_write() {
        let pos = SimPosition::start(v("parity"));
        let moves = parse_turn(&pos, "e2e4:e7e5").unwrap();
        assert_eq!(joint_text(&pos, moves), "e2e4:e7e5");
        assert_eq!(san_text(&pos, moves), "e4 e5");
        assert_eq!(
            parse_turn(&pos, "Nf3:Nc6")
                .map(|m| joint_text(&pos, m))
                .unwrap(),
            "g1f3:b8c6"
        );
        assert!(parse_turn(&pos, "e2e4")
            .unwrap_err()
            .contains("white:black"));
        assert!(parse_turn(&pos, "e2e4:e2e4").unwrap_err().contains("black"));
        assert!(parse_turn(&pos, "a1a1:e7e5").unwrap_err().contains("white"));
        assert_eq!(pos.material()[0], pos.material()[1]);
        assert!(is_variant_start(&pos));
        assert!(start_position(v("chess"), None).is_err());
    }
}
