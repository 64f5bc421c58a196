//! parity12's free castling, counted from the rule text (Pacey): "A king
//! that has never moved, and is not in check, can 'leap' once a game, along
//! the first rank, to any unattacked empty square between it and an unmoved
//! rook, followed by said rook 'leaping' to the king's initial square ... It
//! does not matter if any squares in between are occupied or under attack."
//! No peer models this, so each count here is derived by hand in a comment.

use parity_rules::TurnPosition;
use parity_rules::{fen, notation, perft::perft, Position, Registry};

fn parity12(fen_text: &str) -> Position {
    fen::parse_position::<u128>(Registry::builtin().get("parity12").unwrap(), fen_text).unwrap()
}

fn castles(pos: &Position) -> Vec<String> {
    let mut out: Vec<String> = pos
        .legal_moves()
        .into_iter()
        .filter(|m| m.is_castle())
        .map(|m| notation::uci(pos, m))
        .collect();
    out.sort();
    out
}

#[test]
fn every_empty_square_between_king_and_rook() {
    // King g1, rooks a1 and l1, black king g8 far away.
    let pos = parity12("6k5/12/12/12/12/12/12/R5K4R w KQ - 0 1");
    // King side: h1 i1 j1 k1 (4); queen side: b1 c1 d1 e1 f1 (5).
    assert_eq!(
        castles(&pos),
        [
            "g1b1a1", "g1c1a1", "g1d1a1", "g1e1a1", "g1f1a1", "g1h1l1", "g1i1l1", "g1j1l1",
            "g1k1l1"
        ]
    );
    // Total: 5 king steps (f1 h1 f2 g2 h2) + 9 castlings + rook a1 (7 up,
    // 5 right) + rook l1 (7 up, 4 left) = 5 + 9 + 12 + 11 = 37.
    assert_eq!(perft(&pos, 1), 37);
}

#[test]
fn castling_to_the_next_square_is_not_a_king_step() {
    let pos = parity12("6k5/12/12/12/12/12/12/R5K4R w KQ - 0 1");
    let step = notation::parse_uci(&pos, "g1h1").unwrap();
    let castle = notation::parse_uci(&pos, "g1h1l1").unwrap();
    assert!(!step.is_castle() && castle.is_castle());
    assert_ne!(step, castle);
    assert_eq!(pos.san(step), "Kh1");
    // The rook lands on g1 and checks the black king down the g-file.
    assert_eq!(pos.san(castle), "O-O@h1+");
    assert_eq!(notation::parse_san(&pos, "O-O@h1").unwrap(), castle);
    assert_eq!(
        pos.san(notation::parse_uci(&pos, "g1c1a1").unwrap()),
        "O-O-O@c1+"
    );
    // Plain "O-O" names four moves here, so it is refused as ambiguous.
    assert!(matches!(
        notation::parse_san(&pos, "O-O"),
        Err(parity_rules::NotationError::Ambiguous { .. })
    ));
}

#[test]
fn occupied_squares_in_between_do_not_matter_but_destination_must_be_empty_and_safe() {
    // White knight on i1; black rook on j8 attacks the j-file.
    let pos = parity12("6k2r2/12/12/12/12/12/12/R5K1N2R w KQ - 0 1");
    // King side: h1 yes, i1 occupied, j1 attacked, k1 yes (leaping over the
    // knight and over attacked j1). Queen side: b1..f1 all five.
    assert_eq!(
        castles(&pos),
        ["g1b1a1", "g1c1a1", "g1d1a1", "g1e1a1", "g1f1a1", "g1h1l1", "g1k1l1"]
    );
}

#[test]
fn no_castling_out_of_check_or_without_rights() {
    // Black rook g8 checks the king down the g-file.
    let pos = parity12("1k4r5/12/12/12/12/12/12/R5K4R w KQ - 0 1");
    assert!(castles(&pos).is_empty());
    // Only the l1 rook keeps its right.
    let pos = parity12("6k5/12/12/12/12/12/12/R5K4R w K - 0 1");
    assert_eq!(castles(&pos), ["g1h1l1", "g1i1l1", "g1j1l1", "g1k1l1"]);
    // A rook right beside the king leaves no square between.
    let pos = parity12("6k5/12/12/12/12/12/12/6KR4 w K - 0 1");
    assert!(castles(&pos).is_empty());
}

#[test]
fn the_rook_lands_on_the_kings_square_and_rights_are_spent() {
    let pos = parity12("6k5/12/12/12/12/12/12/R5K4R w KQ - 0 1");
    let next = pos.play(notation::parse_uci(&pos, "g1i1l1").unwrap());
    assert_eq!(fen::write(&next), "6k5/12/12/12/12/12/12/R5R1K3 b - - 1 1");
    // Moving a rook spends only that rook's right.
    let next = pos.play(notation::parse_uci(&pos, "a1a2").unwrap());
    assert_eq!(fen::write(&next), "6k5/12/12/12/12/12/R11/6K4R b K - 1 1");
}

#[test]
fn black_castles_on_its_own_rank() {
    let pos = parity12("r5k4r/12/12/12/12/12/12/6K5 b kq - 0 1");
    assert_eq!(castles(&pos).len(), 9);
    // The start position has rights on both sides but pieces on every
    // square between king and rooks, so no castling there.
    let start = Position::<u128>::start(Registry::builtin().get("parity12").unwrap());
    assert!(castles(&start).is_empty());
    assert_eq!(perft(&start, 2), 1600);
}
