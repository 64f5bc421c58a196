//! The search and the rules see a game's end the same way: where the rules
//! draw a position, the search scores it as a draw.

use parity_engine::search::{search_once, Limits};
use parity_rules::crowd::CrowdPosition;
use parity_rules::{Game, Outcome, Position, Reason, Registry, TurnPosition, Variant};

fn draws<P: TurnPosition>(variant: &'static Variant, fen: &str) -> (bool, i32) {
    let pos = P::from_fen(variant, fen).unwrap();
    let rules =
        Game::new(pos.clone()).outcome() == Some(Outcome::draw(Reason::InsufficientMaterial));
    let limits = Limits {
        depth: Some(3),
        ..Limits::default()
    };
    (rules, search_once(&pos, &[], limits).score)
}

#[test]
fn insufficient_material_is_a_draw_to_both() {
    let reg = Registry::builtin();
    let crowd = reg.get("safety-in-numbers").unwrap();
    let chess = reg.get("chess").unwrap();
    // King and knight against king: the rules draw it, so the search scores 0
    // (it used to count the knight in safety-in-numbers).
    for fen in [
        "k7/8/8/8/8/8/8/KN6 w - - 0 1",
        "kb6/8/8/8/8/8/8/K7 b - - 0 1",
    ] {
        assert_eq!(
            draws::<CrowdPosition>(crowd, fen),
            (true, 0),
            "safety-in-numbers {fen}"
        );
        assert_eq!(draws::<Position>(chess, fen), (true, 0), "chess {fen}");
    }
    // A rook is enough to mate: neither calls it a draw.
    let (rules, score) = draws::<CrowdPosition>(crowd, "k7/8/8/8/8/8/8/KR6 w - - 0 1");
    assert!(!rules && score > 300, "{score}");
}
