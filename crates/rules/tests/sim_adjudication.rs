//! Simultaneous variants: the end-of-game rules (kings alone, fifty turns,
//! repetition of the whole state) and pins and castling under check.

use parity_rules::notation::parse_uci;
use parity_rules::simultaneous::SimPosition;
use parity_rules::SimGame;
use parity_rules::{Color, Registry};
use parity_rules::{Outcome, Reason};

fn pos(id: &str, fen: &str) -> SimPosition {
    SimPosition::from_fen(Registry::builtin().get(id).unwrap(), fen).unwrap()
}

fn moves_from(p: &SimPosition, color: Color, from: &str) -> Vec<String> {
    let mut out: Vec<String> = p
        .legal_moves(color)
        .into_iter()
        .map(|m| parity_rules::notation::uci(&p.side(color), m))
        .filter(|u| u.starts_with(from))
        .collect();
    out.sort();
    out
}

fn draw(reason: Reason) -> Option<Outcome> {
    Some(Outcome {
        winner: None,
        reason,
    })
}

#[test]
fn kings_alone_is_a_draw() {
    for id in ["parity", "parity-single", "move-neutral"] {
        assert_eq!(
            pos(id, "4k3/8/8/8/8/8/8/4K3 - - 0 1").outcome(),
            draw(Reason::InsufficientMaterial),
            "{id}"
        );
        assert_eq!(
            pos(id, "4k3/8/8/8/8/8/8/R3K3 - - 0 1").outcome(),
            None,
            "{id}"
        );
    }
}

#[test]
fn fifty_turns_without_capture_or_pawn_move() {
    for id in ["parity", "move-neutral"] {
        assert_eq!(
            pos(id, "4k3/8/8/8/8/8/8/R3K3 - - 49 70").outcome(),
            None,
            "{id}"
        );
        assert_eq!(
            pos(id, "4k3/8/8/8/8/8/8/R3K3 - - 50 71").outcome(),
            draw(Reason::FiftyMoves),
            "{id}"
        );
    }
}

#[test]
fn threefold_repetition_of_the_whole_state() {
    let v = Registry::builtin().get("parity").unwrap();
    let mut game = SimGame::new(SimPosition::start(v));
    let cycle = [
        ("g1f3", "g8f6"),
        ("b1c3", "b8c6"),
        ("f3g1", "f6g8"),
        ("c3b1", "c6b8"),
    ];
    let mut turns = 0;
    while game.outcome().is_none() {
        let (w, b) = cycle[turns % 4];
        let p = *game.position();
        game.play(
            parse_uci(&p.side(Color::White), w).unwrap(),
            parse_uci(&p.side(Color::Black), b).unwrap(),
        )
        .unwrap();
        turns += 1;
        assert!(turns <= 12, "no repetition found");
    }
    // The start has no last-moved markers, so it never recurs; the state
    // after turn 1 (knights on f3 and f6, both marked) recurs after 5 and 9.
    assert_eq!(turns, 9);
    assert_eq!(game.outcome(), draw(Reason::Repetition));
}

#[test]
fn a_pinned_piece_stays_pinned() {
    // parity: moving the e2 knight would expose the king to the free rook.
    let p = pos("parity", "4k3/4r3/8/8/8/8/4N3/4K3 - - 0 1");
    assert!(moves_from(&p, Color::White, "e2").is_empty());
    // ...but not to a waiting rook: that exposure is only a delayed check.
    let p = pos("parity", "4k3/4r'3/8/8/8/8/4N3/4K3 - - 0 1");
    assert_eq!(moves_from(&p, Color::White, "e2").len(), 6);
    // move-neutral: chess legality.
    let p = pos("move-neutral", "4k3/4r3/8/8/8/8/4N3/4K3 - - 0 1");
    assert!(moves_from(&p, Color::White, "e2").is_empty());
}

#[test]
fn no_castling_out_of_check() {
    let p = pos("parity", "4k3/4r3/8/8/8/8/8/4K2R K - 0 1");
    assert!(p.in_check(Color::White));
    // Only king steps; e2 stays in the free rook's line, a gamble the rules allow.
    assert_eq!(
        moves_from(&p, Color::White, "e1"),
        ["e1d1", "e1d2", "e1e2", "e1f1", "e1f2"]
    );
    // With the rook waiting it is only a delayed check, and castling is allowed.
    let p = pos("parity", "4k3/4r'3/8/8/8/8/8/4K2R K - 0 1");
    assert!(moves_from(&p, Color::White, "e1").contains(&"e1g1".to_string()));
    let p = pos("move-neutral", "4k3/4r3/8/8/8/8/8/4K2R K - 0 1");
    assert!(!moves_from(&p, Color::White, "e1").contains(&"e1g1".to_string()));
}
