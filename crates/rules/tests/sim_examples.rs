//! The worked examples of the simultaneous-variant sources, one test each:
//! Smythe's six Move-Neutral examples and Murali's examples and rules for
//! Parity Chess and Parity Chess with Single Occupation (sources listed in
//! `docs/rules/rulings.md#variant-ids`). Where a source is vague, the test
//! follows `docs/rules/rulings.md`.
//!
//! Every test builds a small simultaneous FEN, reads the moves through the
//! notation module (so a move is always one of the side's legal moves),
//! resolves the turn and checks the resulting FEN and each side's notes.

use parity_rules::simultaneous::{CheckKind, SideNotes, SimError, SimPosition, Turn};
use parity_rules::{notation, Color, Move, Registry, Special, Variant};
use parity_rules::{GameError, Outcome, Reason, SimGame};

const W: Color = Color::White;
const B: Color = Color::Black;

fn variant(id: &str) -> &'static Variant {
    Registry::builtin()
        .get(id)
        .unwrap_or_else(|| panic!("no variant {id}"))
}

fn pos(id: &str, fen: &str) -> SimPosition {
    let p = SimPosition::from_fen(variant(id), fen).unwrap_or_else(|e| panic!("{id} {fen}: {e}"));
    // Every hand-written FEN here is written the way the code writes it.
    assert_eq!(p.to_fen(), fen, "FEN not in canonical form");
    p
}

/// A coordinate move of `color`, which must be legal.
fn uci(p: &SimPosition, color: Color, text: &str) -> Move {
    notation::parse_uci(&p.side(color), text)
        .unwrap_or_else(|e| panic!("{} {text} in {p:?}: {e}", color.name()))
}

/// A move written as in the literature (`Pe4xPd5`, `Qd3-f5`), which must be legal.
fn san(p: &SimPosition, color: Color, text: &str) -> Move {
    notation::parse_san(&p.side(color), text)
        .unwrap_or_else(|e| panic!("{} {text} in {p:?}: {e}", color.name()))
}

fn play(p: &SimPosition, white: Move, black: Move) -> Turn {
    let t = p
        .resolve(white, black)
        .unwrap_or_else(|e| panic!("{p:?}: {e}"));
    // Every resulting position reads back from its own FEN.
    let back = SimPosition::from_fen(p.variant(), &t.position.to_fen());
    assert_eq!(
        back.as_ref().ok(),
        Some(&t.position),
        "FEN round trip of {} failed: {back:?}",
        t.position.to_fen()
    );
    t
}

fn play_uci(p: &SimPosition, white: &str, black: &str) -> Turn {
    play(p, uci(p, W, white), uci(p, B, black))
}

/// The legal moves of `color` as sorted coordinate strings.
fn legal(p: &SimPosition, color: Color) -> Vec<String> {
    let mut out: Vec<String> = p
        .legal_moves(color)
        .into_iter()
        .map(|m| notation::uci(&p.side(color), m))
        .collect();
    out.sort();
    out
}

fn moves_from(p: &SimPosition, color: Color, square: &str) -> Vec<String> {
    legal(p, color)
        .into_iter()
        .filter(|m| m.starts_with(square))
        .collect()
}

fn notes(t: &Turn, color: Color) -> SideNotes {
    t.notes[color]
}

fn sq(p: &SimPosition, name: &str) -> parity_rules::Square {
    p.variant().shape.parse_square(name).unwrap()
}

fn win(color: Color) -> Option<Outcome> {
    Some(Outcome {
        winner: Some(color),
        reason: Reason::NoLegalMove,
    })
}

// ---- Move-Neutral Chess (Smythe) ---------------------------------------------

/// Smythe 1: White plays Ke1-e2 while Black plays Nc6-d4; White is now in
/// check, but the king move, legal when it was chosen, stands. Ruling: each
/// move is judged on the current position alone; the check binds next turn.
#[test]
fn move_neutral_king_walks_into_check_and_the_move_stands() {
    let p = pos("move-neutral", "4k3/8/2n5/8/8/8/8/4K3 - - 0 1");
    let t = play(&p, san(&p, W, "Ke1-e2"), san(&p, B, "Nc6-d4"));
    assert_eq!(t.position.to_fen(), "4k3/8/8/8/3n4/8/4K3/8 - - 1 2");
    assert_eq!(notes(&t, B).check, Some(CheckKind::Immediate));
    assert_eq!(notes(&t, W), SideNotes::default());
    assert!(t.position.in_check(W));
    assert!(!t.position.in_check(B));
    // White must now get out of check: only king steps off the knight's squares (f3 is attacked).
    assert_eq!(
        legal(&t.position, W),
        ["e2d1", "e2d2", "e2d3", "e2e1", "e2e3", "e2f1", "e2f2"]
    );
    assert_eq!(t.position.outcome(), None);
}

/// Smythe 2: Bc1xQg5 and Qg5xBc1 at once: both captures fail and the two
/// pieces trade places (bishop on g5, queen on c1). Ruling: two pieces that
/// try to take each other both fail and swap squares.
#[test]
fn move_neutral_mutual_capture_swaps() {
    let p = pos("move-neutral", "4k3/8/8/6q1/8/8/7K/2B5 - - 0 1");
    let t = play(&p, san(&p, W, "Bc1xQg5"), san(&p, B, "Qg5xBc1"));
    assert_eq!(t.position.to_fen(), "4k3/8/8/6B1/8/8/7K/2q5 - - 1 2");
    for c in [W, B] {
        let n = notes(&t, c);
        assert!(n.swap && n.failed_capture, "{c:?}: {n:?}");
        assert_eq!(n.captured, None);
        assert_eq!(n.check, None);
    }
}

/// Smythe 3: White tries Bg5xNf6 but Black plays Nf6-e4: the bishop lands
/// on the empty f6 and the knight on e4. Ruling: a capture whose target has
/// left is a failed capture and the mover simply lands on the square.
#[test]
fn move_neutral_escaped_capture() {
    let p = pos("move-neutral", "4k3/8/5n2/6B1/8/8/8/4K3 - - 0 1");
    let t = play(&p, san(&p, W, "Bg5xNf6"), san(&p, B, "Nf6-e4"));
    assert_eq!(t.position.to_fen(), "4k3/8/5B2/8/4n3/8/8/4K3 - - 1 2");
    assert_eq!(
        notes(&t, W),
        SideNotes {
            failed_capture: true,
            ..SideNotes::default()
        }
    );
    assert_eq!(notes(&t, B), SideNotes::default());
}

/// Smythe 4: White tries Pe4xPd5 while Black plays Pd5-d4: both pawns
/// survive, White's on d5 (a diagonal pawn move without a capture) and
/// Black's on d4. Ruling: a pawn whose diagonal capture fails still ends on
/// the diagonal square.
#[test]
fn move_neutral_pawn_capture_becomes_a_diagonal_move() {
    let p = pos("move-neutral", "4k3/8/8/3p4/4P3/8/8/4K3 - - 0 1");
    let t = play(&p, san(&p, W, "Pe4xPd5"), san(&p, B, "d5-d4"));
    assert_eq!(t.position.to_fen(), "4k3/8/8/3P4/3p4/8/8/4K3 - - 0 2");
    assert_eq!(
        notes(&t, W),
        SideNotes {
            failed_capture: true,
            ..SideNotes::default()
        }
    );
    assert_eq!(notes(&t, B), SideNotes::default());
    // The two pawns have passed each other and may go on.
    assert_eq!(moves_from(&t.position, W, "d5"), ["d5d6"]);
    assert_eq!(moves_from(&t.position, B, "d4"), ["d4d3"]);
}

/// Smythe 5: Qd3-f5 and f7-f5 at once: both end on f5 and share it until
/// one of them leaves; neither can be captured meanwhile. Ruling: a
/// co-occupied square holds one piece of each colour, nobody captures
/// there, and it blocks sliders.
#[test]
fn move_neutral_two_pieces_share_f5() {
    let p = pos("move-neutral", "4k3/5p2/8/7r/8/3Q4/8/4KR2 - - 0 1");
    let t = play(&p, san(&p, W, "Qd3-f5"), san(&p, B, "f7-f5"));
    // No en passant square: the double-stepped pawn shares f5 and cannot be taken.
    assert_eq!(t.position.to_fen(), "4k3/8/8/5(Qp)1r/8/8/8/4KR2 - - 0 2");
    let f5 = sq(&p, "f5");
    for c in [W, B] {
        assert_eq!(notes(&t, c).co_occupied, Some(f5), "{c:?}");
        assert_eq!(notes(&t, c).captured, None);
    }
    let q = t.position;
    assert_eq!(q.shared(), f5.bit());
    // Neither rook may take on f5 or pass through it.
    assert_eq!(
        moves_from(&q, W, "f1"),
        ["f1f2", "f1f3", "f1f4", "f1g1", "f1h1"]
    );
    assert_eq!(
        moves_from(&q, B, "h5"),
        ["h5g5", "h5h1", "h5h2", "h5h3", "h5h4", "h5h6", "h5h7", "h5h8"]
    );
    // Once the queen leaves, the pawn stands alone and can be taken.
    let t2 = play_uci(&q, "f5c2", "e8d8");
    assert_eq!(t2.position.to_fen(), "3k4/8/8/5p1r/8/8/2Q5/4KR2 - - 1 3");
    assert!(legal(&t2.position, W).contains(&"f1f5".to_string()));
    let t3 = play_uci(&t2.position, "f1f5", "d8e8");
    assert_eq!(notes(&t3, W).captured, t2.position.kind_at(B, f5));
    assert_eq!(t3.position.to_fen(), "4k3/8/8/5R1r/8/8/2Q5/4K3 - - 0 4");
}

/// Smythe 6: Ke3-e4 and Ke6-e5 at once: both king moves stand and both
/// kings are in check. Ruling: kings may end adjacent; each must get out of
/// check next turn, and no move may capture a king.
#[test]
fn move_neutral_kings_end_adjacent() {
    let p = pos("move-neutral", "8/p7/4k3/8/8/4K3/P7/8 - - 0 1");
    let t = play(&p, san(&p, W, "Ke3-e4"), san(&p, B, "Ke6-e5"));
    assert_eq!(t.position.to_fen(), "8/p7/8/4k3/4K3/8/P7/8 - - 1 2");
    assert_eq!(notes(&t, W).check, Some(CheckKind::Immediate));
    assert_eq!(notes(&t, B).check, Some(CheckKind::Immediate));
    let q = t.position;
    assert!(q.in_check(W) && q.in_check(B));
    // Only king steps away from the other king; no pawn move, no king capture.
    assert_eq!(legal(&q, W), ["e4d3", "e4e3", "e4f3"]);
    assert_eq!(legal(&q, B), ["e5d6", "e5e6", "e5f6"]);
    assert_eq!(q.outcome(), None);
}

// ---- Parity Chess (Murali) ----------------------------------------------------

/// Murali e.g. 1: the g-pawns of both sides move to g4 at once and share
/// it. Ruling (rule 3): two enemy pieces arriving together co-occupy. By the
/// waiting rule both must then stay one turn; after that each may go on
/// forward (Murali's "mobility of pawns": the pawns pass each other).
#[test]
fn parity_pawns_share_g4_then_pass() {
    let p = pos("parity", "4k3/8/8/6p1/8/6P1/8/4K3 - - 0 1");
    let t = play_uci(&p, "g3g4", "g5g4");
    assert_eq!(t.position.to_fen(), "4k3/8/8/8/6(P'p')1/8/8/4K3 - - 0 2");
    let g4 = sq(&p, "g4");
    assert_eq!(
        notes(&t, W),
        SideNotes {
            co_occupied: Some(g4),
            ..SideNotes::default()
        }
    );
    assert_eq!(
        notes(&t, B),
        SideNotes {
            co_occupied: Some(g4),
            ..SideNotes::default()
        }
    );
    let q = t.position;
    assert!(moves_from(&q, W, "g4").is_empty());
    assert!(moves_from(&q, B, "g4").is_empty());
    let t = play_uci(&q, "e1d2", "e8d7");
    assert_eq!(t.position.to_fen(), "8/3k'4/8/8/6(Pp)1/8/3K'4/8 - - 1 3");
    let q = t.position;
    assert_eq!(moves_from(&q, W, "g4"), ["g4g5"]);
    assert_eq!(moves_from(&q, B, "g4"), ["g4g3"]);
    let t = play_uci(&q, "g4g5", "g4g3");
    assert_eq!(t.position.to_fen(), "8/3k4/8/6P'1/8/6p'1/3K4/8 - - 0 4");
    // The same meeting by White's double step: the shared pawn cannot be
    // taken en passant, so no en passant square is recorded.
    let p = pos("parity", "4k3/8/8/6p1/8/8/6P1/4K3 - - 0 1");
    let t = play_uci(&p, "g2g4", "g5g4");
    assert_eq!(t.position.to_fen(), "4k3/8/8/8/6(P'p')1/8/8/4K3 - - 0 2");
}

/// Murali e.g. 2: White's knight and Black's bishop land on b4 together.
/// Ruling: the square is shared; nothing may capture there (rule 5), it
/// blocks sliders, and in `parity` the pair may stay as long as they like.
#[test]
fn parity_knight_and_bishop_share_b4() {
    let p = pos("parity", "4kb2/1p6/8/8/8/3N4/8/1R4K1 - - 0 1");
    let t = play_uci(&p, "d3b4", "f8b4");
    assert_eq!(
        t.position.to_fen(),
        "4k3/1p6/8/8/1(N'b')6/8/8/1R4K1 - - 1 2"
    );
    let b4 = sq(&p, "b4");
    assert_eq!(notes(&t, W).co_occupied, Some(b4));
    assert_eq!(notes(&t, B).co_occupied, Some(b4));
    let q = t.position;
    assert_eq!(
        moves_from(&q, W, "b1"),
        ["b1a1", "b1b2", "b1b3", "b1c1", "b1d1", "b1e1", "b1f1"]
    );
    assert!(moves_from(&q, W, "b4").is_empty() && moves_from(&q, B, "b4").is_empty());
    // Two turns later both still stand there: nothing forces them out.
    let t = play_uci(&q, "g1h1", "e8d8");
    let t = play_uci(&t.position, "b1c1", "b7b6");
    assert_eq!(t.position.to_fen(), "3k4/8/1p'6/8/1(Nb)6/8/8/2R'4K - - 0 4");
    assert!(
        !moves_from(&t.position, W, "b4").is_empty()
            && !moves_from(&t.position, B, "b4").is_empty()
    );
}

/// Murali "leaving a common square": the piece that leaves attacks the one
/// that stayed but must wait a turn, while a stayer of the same move type
/// may take it at once. Ruling: attacks from and onto the vacated square are
/// as in chess; a capture of a waiting piece succeeds.
#[test]
fn parity_leaving_a_common_square() {
    let p = pos("parity", "4k3/8/8/8/3(Rr)4/8/8/4K3 - - 0 1");
    let t = play_uci(&p, "d4d6", "e8f7");
    assert_eq!(t.position.to_fen(), "8/5k'2/3R'4/8/3r4/8/8/4K3 - - 1 2");
    let q = t.position;
    assert!(
        moves_from(&q, W, "d6").is_empty(),
        "the rook that left must wait"
    );
    assert!(legal(&q, B).contains(&"d4d6".to_string()));
    let t = play_uci(&q, "e1e2", "d4d6");
    assert_eq!(notes(&t, B).captured, q.kind_at(W, sq(&p, "d6")));
    assert_eq!(t.position.to_fen(), "8/5k2/3r'4/8/8/8/4K'3/8 - - 0 3");
}

/// Murali "mutual check": Black checks with a bishop while White checks
/// with a knight; both are delayed checks (from the piece that just moved),
/// so neither king need move at once, but the checks become immediate one
/// turn later. Ruling: delayed check restricts nothing; immediate check
/// allows only king moves.
#[test]
fn parity_mutual_delayed_check() {
    let p = pos("parity", "4kb2/p7/8/8/4N3/8/P7/4K3 - - 0 1");
    let t = play_uci(&p, "e4f6", "f8b4");
    assert_eq!(t.position.to_fen(), "4k3/p7/5N'2/8/1b'6/8/P7/4K3 - - 1 2");
    assert_eq!(notes(&t, W).check, Some(CheckKind::Delayed));
    assert_eq!(notes(&t, B).check, Some(CheckKind::Delayed));
    let q = t.position;
    assert!(!q.in_check(W) && !q.in_check(B));
    assert!(legal(&q, W).contains(&"a2a3".to_string()));
    assert!(legal(&q, B).contains(&"a7a6".to_string()));
    let t = play_uci(&q, "a2a3", "a7a6");
    assert_eq!(t.position.to_fen(), "4k3/8/p'4N2/8/1b6/P'7/8/4K3 - - 0 3");
    let q = t.position;
    assert!(q.in_check(W) && q.in_check(B));
    // Only king moves now; capturing the checker cannot help (it moves too).
    assert_eq!(legal(&q, W), ["e1d1", "e1d2", "e1e2", "e1f1", "e1f2"]);
    assert_eq!(legal(&q, B), ["e8d7", "e8d8", "e8e7", "e8f7", "e8f8"]);
    let nd5 = Move::new(sq(&p, "f6"), sq(&p, "d5"));
    assert!(
        q.why_illegal(W, nd5).contains("immediate check"),
        "{}",
        q.why_illegal(W, nd5)
    );
}

/// Murali: kings stepping next to each other give mutual delayed check;
/// "they have to be moved out in the next to next move".
#[test]
fn parity_kings_stepping_adjacent() {
    let p = pos("parity", "8/p7/8/4k3/8/8/P3K3/8 - - 0 1");
    let t = play_uci(&p, "e2e3", "e5e4");
    assert_eq!(t.position.to_fen(), "8/p7/8/8/4k'3/4K'3/P7/8 - - 1 2");
    assert_eq!(notes(&t, W).check, Some(CheckKind::Delayed));
    assert_eq!(notes(&t, B).check, Some(CheckKind::Delayed));
    let q = t.position;
    assert!(!q.in_check(W) && !q.in_check(B));
    assert_eq!(legal(&q, W), ["a2a3", "a2a4"]);
    let t = play_uci(&q, "a2a3", "a7a6");
    let q = t.position;
    assert!(q.in_check(W) && q.in_check(B));
    assert_eq!(
        legal(&q, W),
        ["e3d2", "e3d3", "e3d4", "e3e2", "e3f2", "e3f3", "e3f4"]
    );
    assert_eq!(q.outcome(), None);
}

/// Murali, and docs/rules/rulings.md#simultaneous-crossing-paths: White's
/// g2-g4 and Black's queen g7-g2 (or g7-g3) at once are both legal: paths
/// never interact. The queen's capture of the pawn on g2 fails since the
/// pawn left.
#[test]
fn parity_crossing_moves_g2g4_and_queen_to_g2() {
    let p = pos("parity", "4k3/6q1/8/8/8/8/6P1/4K3 - - 0 1");
    let t = play_uci(&p, "g2g4", "g7g2");
    assert_eq!(t.position.to_fen(), "4k3/8/8/8/6P'1/8/6q'1/4K3 - g3 0 2");
    assert_eq!(
        notes(&t, B),
        SideNotes {
            failed_capture: true,
            ..SideNotes::default()
        }
    );
    assert_eq!(notes(&t, W), SideNotes::default());
}

/// The same crossing with Murali's other landing square: the queen stops on
/// g3, the very square the pawn passed over. It gives a delayed check along
/// g3-f2-e1, and the position must still read back from its FEN.
#[test]
fn parity_crossing_moves_g2g4_and_queen_to_g3() {
    let p = pos("parity", "4k3/6q1/8/8/8/8/6P1/4K3 - - 0 1");
    let t = play_uci(&p, "g2g4", "g7g3");
    // No en passant square: the queen stands on it (`play` checks the FEN round trip).
    assert_eq!(t.position.to_fen(), "4k3/8/8/8/6P'1/6q'1/8/4K3 - - 0 2");
    assert_eq!(notes(&t, B).check, Some(CheckKind::Delayed));
    assert!(!t.position.in_check(W));
    assert!(!t
        .position
        .legal_moves(B)
        .iter()
        .any(|m| m.special == Special::EnPassant));
}

/// Murali rule 7 / docs/rules/rulings.md#parity-en-passant: en passant only
/// in the turn right after the double step, by a pawn that is not its
/// side's last-moved piece; the double-stepped pawn is last-moved, so it
/// cannot escape. Played from the double step itself.
#[test]
fn parity_en_passant_timing_from_the_double_step() {
    let p = pos("parity", "7k/7p/8/8/3p4/8/4P3/K7 - - 0 1");
    let e2e4 = uci(&p, W, "e2e4");
    assert_eq!(e2e4.special, Special::DoubleStep);
    let t = play(&p, e2e4, uci(&p, B, "h8g8"));
    assert_eq!(t.position.to_fen(), "6k'1/7p/8/8/3pP'3/8/8/K7 - e3 0 2");
    let q = t.position;
    assert!(
        moves_from(&q, W, "e4").is_empty(),
        "the double-stepped pawn must wait"
    );
    let ep = uci(&q, B, "d4e3");
    assert_eq!(ep.special, Special::EnPassant);
    let t2 = play(&q, uci(&q, W, "a1a2"), ep);
    assert_eq!(t2.position.to_fen(), "6k1/7p/8/8/8/4p'3/K'7/8 - - 0 3");
    assert!(notes(&t2, B).en_passant);
    // Not taken at once: the chance is gone the turn after.
    let t2 = play_uci(&q, "a1a2", "h7h6");
    assert_eq!(t2.position.to_fen(), "6k1/8/7p'/8/3pP3/8/K'7/8 - - 0 3");
    assert!(!t2
        .position
        .legal_moves(B)
        .iter()
        .any(|m| m.special == Special::EnPassant));
    // Rule 7: pawns that moved at the same time cannot take each other en passant.
    let p = pos("parity", "7k/8/8/3p4/8/8/4P3/K7 - - 0 1");
    let t = play(&p, uci(&p, W, "e2e4"), uci(&p, B, "d5d4"));
    assert_eq!(t.position.to_fen(), "7k/8/8/8/3p'P'3/8/8/K7 - e3 0 2");
    assert!(!t
        .position
        .legal_moves(B)
        .iter()
        .any(|m| m.special == Special::EnPassant));
}

/// The same rule from a position just after the double step (FEN `e3`):
/// the capturing pawn is free, the victim is the last-moved piece.
#[test]
fn parity_en_passant_right_after_the_double_step() {
    let p = pos("parity", "6k'1/8/8/8/3pP'3/8/8/K7 - e3 0 2");
    assert!(
        moves_from(&p, W, "e4").is_empty(),
        "the double-stepped pawn must wait"
    );
    assert!(p
        .why_illegal(W, Move::new(sq(&p, "e4"), sq(&p, "e5")))
        .contains("must wait"));
    let ep = uci(&p, B, "d4e3");
    assert_eq!(ep.special, Special::EnPassant);
    let t = play(&p, uci(&p, W, "a1a2"), ep);
    assert_eq!(t.position.to_fen(), "6k1/8/8/8/8/4p'3/K'7/8 - - 0 3");
    assert_eq!(notes(&t, B).captured, p.kind_at(W, sq(&p, "e4")));
    assert!(notes(&t, B).en_passant);
    // The capturing pawn itself, had it just moved, could not take.
    let p = pos("parity", "7k/8/8/8/3p'P'3/8/8/K7 - e3 0 2");
    assert!(!p
        .legal_moves(B)
        .iter()
        .any(|m| m.special == Special::EnPassant));
}

/// docs/rules/rulings.md#move-neutral-en-passant: en passant is available
/// in the turn after the double step, but the double-stepped pawn may move
/// away at the same time; then the capture fails and the capturing pawn
/// stands on the passed square.
#[test]
fn move_neutral_en_passant_can_be_escaped() {
    let p = pos("move-neutral", "6k1/8/8/8/3pP3/8/8/K7 - e3 0 2");
    let ep = uci(&p, B, "d4e3");
    assert_eq!(ep.special, Special::EnPassant);
    assert_eq!(
        moves_from(&p, W, "e4"),
        ["e4e5"],
        "no waiting rule in move-neutral"
    );
    let t = play(&p, uci(&p, W, "e4e5"), ep);
    assert_eq!(t.position.to_fen(), "6k1/8/8/4P3/8/4p3/8/K7 - - 0 3");
    assert_eq!(
        notes(&t, B),
        SideNotes {
            failed_capture: true,
            ..SideNotes::default()
        }
    );
    // If the pawn stays, the capture succeeds.
    let t = play(&p, uci(&p, W, "a1b1"), ep);
    assert_eq!(t.position.to_fen(), "6k1/8/8/8/8/4p3/8/1K6 - - 0 3");
    assert!(notes(&t, B).en_passant && notes(&t, B).captured.is_some());
}

/// The move-neutral timing played from the double step itself.
#[test]
fn move_neutral_en_passant_timing_from_the_double_step() {
    let p = pos("move-neutral", "6k1/8/8/8/3p4/8/4P3/K7 - - 0 1");
    let t = play_uci(&p, "e2e4", "g8h8");
    assert_eq!(t.position.to_fen(), "7k/8/8/8/3pP3/8/8/K7 - e3 0 2");
    let q = t.position;
    let t = play(&q, uci(&q, W, "e4e5"), uci(&q, B, "d4e3"));
    assert_eq!(t.position.to_fen(), "7k/8/8/4P3/8/4p3/8/K7 - - 0 3");
    assert!(notes(&t, B).failed_capture);
    // One turn later the chance is gone.
    let t = play_uci(&q, "a1b1", "h8g8");
    assert!(!t
        .position
        .legal_moves(B)
        .iter()
        .any(|m| m.special == Special::EnPassant));
}

/// The en passant field lists the passed-over squares of the previous
/// turn's double steps (both sides' at once), as the simultaneous FEN defines.
#[test]
fn double_steps_record_the_en_passant_square() {
    let p = SimPosition::start(variant("parity"));
    let t = play_uci(&p, "e2e4", "d7d5");
    assert_eq!(
        t.position.to_fen(),
        "rnbqkbnr/ppp1pppp/8/3p'4/4P'3/8/PPPP1PPP/RNBQKBNR KQkq e3,d6 0 2"
    );
}

/// docs/rules/rulings.md#simultaneous-shared-squares: no piece may capture
/// on a co-occupied square, so a pawn that double-stepped onto a square an
/// enemy piece reached at the same time cannot be taken en passant (the
/// diagonal step would capture nothing).
#[test]
fn no_en_passant_against_a_pawn_on_a_shared_square() {
    for id in ["parity", "move-neutral"] {
        let p = pos(id, "7k/8/8/8/3p(Pn)3/8/8/K7 - e3 0 2");
        assert!(
            !legal(&p, B).contains(&"d4e3".to_string()),
            "{id}: {:?}",
            legal(&p, B)
        );
    }
}

/// The simultaneous FEN names en passant squares, not sides; a square on
/// the sixth rank belongs to Black's double step even when a white pawn
/// stands on the seventh (it got there by a failed capture d6xe7 while
/// Black played e7-e5).
#[test]
fn en_passant_square_belongs_to_the_side_by_its_rank() {
    let p = pos("parity", "7k/4P'3/8/3Pp'3/8/8/8/K7 - e6 0 2");
    assert_eq!(p.en_passant(B).map(|e| e.target), Some(sq(&p, "e6")));
    assert_eq!(p.en_passant(W), None);
    assert!(p
        .legal_moves(W)
        .iter()
        .any(|m| m.special == Special::EnPassant && m.to == sq(&p, "e6")));
}

/// Murali "check": a king that leaves a square it shared with an enemy piece
/// into that piece's line loses, since the piece has not moved and the king,
/// having just moved, must wait. Ruling: the step is allowed (the sharer is
/// not a waiting piece), and the side then has no legal move and loses.
#[test]
fn parity_king_leaves_shared_square_into_its_sharers_attack() {
    let p = pos("parity", "7k/8/8/8/3(Kr)4/8/P7/8 - - 0 5");
    assert!(!p.in_check(W), "a king sharing its square is not in check");
    assert!(legal(&p, W).contains(&"d4e4".to_string()));
    let t = play_uci(&p, "d4e4", "h8g8");
    assert_eq!(t.position.to_fen(), "6k'1/8/8/8/3rK'3/8/P7/8 - - 1 6");
    assert_eq!(notes(&t, B).check, Some(CheckKind::Immediate));
    let q = t.position;
    assert!(q.in_check(W));
    assert!(legal(&q, W).is_empty());
    assert_eq!(q.outcome(), win(B));
}

/// Murali "check": a king sharing a square is shielded from every check;
/// when the enemy sharer leaves, a stationary attacker's line becomes an
/// immediate check.
#[test]
fn parity_shared_square_shelters_king_until_sharer_leaves() {
    let p = pos("parity", "3r3k/8/8/8/3(Kn)4/8/P7/8 - - 0 5");
    assert!(!p.in_check(W));
    assert!(legal(&p, W).contains(&"a2a3".to_string()));
    let t = play_uci(&p, "a2a3", "d4f5");
    assert_eq!(t.position.to_fen(), "3r3k/8/8/5n'2/3K4/P'7/8/8 - - 0 6");
    assert_eq!(notes(&t, B).check, Some(CheckKind::Immediate));
    let q = t.position;
    assert!(q.in_check(W));
    // King moves only, and not to e3, which the waiting knight attacks.
    assert_eq!(
        legal(&q, W),
        ["d4c3", "d4c4", "d4c5", "d4d3", "d4d5", "d4e4", "d4e5"]
    );
}

/// Murali "delayed check" / "immediate check" / "failed check":
/// a discovered check from a stationary piece is immediate (only king moves,
/// never onto a square the waiting piece attacks); a check by the piece
/// that just moved is delayed (nothing restricted, blocking allowed) and
/// turns immediate a turn later; a check the opponent's simultaneous move
/// blocks or escapes is a failed check.
#[test]
fn parity_delayed_immediate_and_failed_check() {
    // Immediate: Be3-c5 uncovers Re1 against Ke8.
    let p = pos("parity", "4k3/p7/8/8/8/4B3/8/4R1K1 - - 0 1");
    let t = play_uci(&p, "e3c5", "a7a6");
    assert_eq!(t.position.to_fen(), "4k3/8/p'7/2B'5/8/8/8/4R1K1 - - 0 2");
    assert_eq!(notes(&t, W).check, Some(CheckKind::Immediate));
    assert!(t.position.in_check(B));
    // e7 and f8 are attacked by the waiting bishop; d8, d7, f7 are open.
    assert_eq!(legal(&t.position, B), ["e8d7", "e8d8", "e8f7"]);

    // Delayed: Rb1-b8 checks with the piece that just moved.
    let p = pos("parity", "4k3/p7/8/5b2/8/8/8/1R4K1 - - 0 1");
    let t = play_uci(&p, "b1b8", "a7a6");
    assert_eq!(t.position.to_fen(), "1R'2k3/8/p'7/5b2/8/8/8/6K1 - - 0 2");
    assert_eq!(notes(&t, W).check, Some(CheckKind::Delayed));
    let q = t.position;
    assert!(!q.in_check(B));
    let black = legal(&q, B);
    assert!(
        black.contains(&"f5c8".to_string()) && black.contains(&"f5d3".to_string()),
        "{black:?}"
    );
    // Blocking resolves it ...
    let t = play_uci(&q, "g1h2", "f5c8");
    assert!(!t.position.in_check(B));
    // ... ignoring it makes it immediate.
    let t = play_uci(&q, "g1h2", "f5d3");
    assert_eq!(t.position.to_fen(), "1R2k3/8/p7/8/8/3b'4/7K'/8 - - 1 3");
    assert!(t.position.in_check(B));
    assert!(legal(&t.position, B).iter().all(|m| m.starts_with("e8")));

    // Failed check: the king steps away, or a piece blocks, at the same time.
    let t = play_uci(&p, "b1b8", "e8e7");
    assert_eq!(
        notes(&t, W),
        SideNotes {
            failed_check: true,
            ..SideNotes::default()
        }
    );
    let t = play_uci(&p, "b1b8", "f5c8");
    assert_eq!(t.position.to_fen(), "1R'b'1k3/p7/8/8/8/8/8/6K1 - - 1 2");
    assert_eq!(
        notes(&t, W),
        SideNotes {
            failed_check: true,
            ..SideNotes::default()
        }
    );
}

/// Murali rule 2, the waiting rule: a piece just moved stays one turn and
/// may move again the turn after; after castling both king and rook wait.
/// A side whose only movable piece is waiting loses; both such sides, draw.
#[test]
fn parity_waiting_rule() {
    let p = SimPosition::start(variant("parity"));
    let t = play_uci(&p, "b1c3", "g8f6");
    assert_eq!(
        t.position.to_fen(),
        "rnbqkb1r/pppppppp/5n'2/8/8/2N'5/PPPPPPPP/R1BQKBNR KQkq - 1 2"
    );
    let q = t.position;
    assert!(moves_from(&q, W, "c3").is_empty() && moves_from(&q, B, "f6").is_empty());
    let c3e4 = Move::new(sq(&p, "c3"), sq(&p, "e4"));
    let legal_black = uci(&q, B, "d7d6");
    match q.resolve(c3e4, legal_black) {
        Err(SimError::Illegal { side, reason }) => {
            assert_eq!(side, W);
            assert!(reason.contains("must wait"), "{reason}");
        }
        other => panic!("expected a refusal, got {other:?}"),
    }
    let t = play_uci(&q, "d2d3", "d7d6");
    assert!(legal(&t.position, W).contains(&"c3e4".to_string()));
    assert!(legal(&t.position, B).contains(&"f6e4".to_string()));

    // Castling: king and rook are both last-moved.
    let p = pos("parity", "r3k2r/8/8/8/8/8/8/R3K2R KQkq - 0 1");
    let t = play(&p, san(&p, W, "O-O"), san(&p, B, "O-O-O"));
    assert_eq!(t.position.to_fen(), "2k'r'3r/8/8/8/8/8/8/R4R'K'1 - - 1 2");
    assert!(notes(&t, W).castled && notes(&t, B).castled);
    let q = t.position;
    for (c, a, b) in [(W, "g1", "f1"), (B, "c8", "d8")] {
        assert!(
            moves_from(&q, c, a).is_empty() && moves_from(&q, c, b).is_empty(),
            "{c:?}"
        );
    }

    // Only the waiting king can move: that side loses; both: draw.
    let p = pos("parity", "7k/p7/8/8/8/8/8/K'7 - - 0 9");
    assert!(legal(&p, W).is_empty());
    assert_eq!(p.outcome(), win(B));
    let p = pos("parity", "k'7/8/8/p7/P7/8/8/K'7 - - 0 9");
    assert_eq!(
        p.outcome(),
        Some(Outcome {
            winner: None,
            reason: Reason::NoLegalMove
        })
    );
}

/// Murali: two enemy kings shall not land on the same square. Ruling: if
/// both kings end a turn on one square, the game is drawn.
#[test]
fn parity_kings_on_the_same_square_draw() {
    let p = pos("parity", "8/p7/8/8/3K1k2/8/P7/8 - - 0 1");
    let mut game = SimGame::new(p);
    let notes = game.play(uci(&p, W, "d4e4"), uci(&p, B, "f4e4")).unwrap();
    let e4 = sq(&p, "e4");
    assert_eq!(notes.white.co_occupied, Some(e4));
    assert_eq!(notes.black.co_occupied, Some(e4));
    assert_eq!(game.position().to_fen(), "8/p7/8/8/4(K'k')3/8/P7/8 - - 1 2");
    let draw = Outcome {
        winner: None,
        reason: Reason::KingsShareSquare,
    };
    assert_eq!(game.outcome(), Some(draw));
    let a2a3 = Move::new(sq(&p, "a2"), sq(&p, "a3"));
    let a7a6 = Move::new(sq(&p, "a7"), sq(&p, "a6"));
    assert_eq!(game.play(a2a3, a7a6), Err(GameError::Over(draw)));
}

// ---- Parity Chess with Single Occupation (Murali) ------------------------------

/// Murali's alternative, rule 3: co-occupants must leave at once, even
/// though they just moved, may not capture, and may go back where they came
/// from. No other piece may move meanwhile.
#[test]
fn single_occupation_forced_exit() {
    let p = pos("parity-single", "4k3/8/8/4n3/7p/8/3P4/4K1N1 - - 0 1");
    let t = play_uci(&p, "g1f3", "e5f3");
    assert_eq!(t.position.to_fen(), "4k3/8/8/8/7p/5(N'n')2/3P4/4K3 - - 1 2");
    let q = t.position;
    // No capture of h4 (White) or d2 (Black), only knight moves out of f3.
    assert_eq!(legal(&q, W), ["f3d4", "f3e5", "f3g1", "f3g5", "f3h2"]);
    assert_eq!(legal(&q, B), ["f3d4", "f3e5", "f3g1", "f3g5", "f3h2"]);
    assert!(q
        .why_illegal(W, Move::new(sq(&p, "d2"), sq(&p, "d3")))
        .contains("must leave"));
    let t = play_uci(&q, "f3g1", "f3e5");
    assert_eq!(t.position.to_fen(), "4k3/8/8/4n'3/7p/8/3P4/4K1N'1 - - 2 3");
    // They can meet again, and must leave again.
    let t = play_uci(&q, "f3d4", "f3d4");
    assert_eq!(t.position.to_fen(), "4k3/8/8/8/3(N'n')3p/8/3P4/4K3 - - 2 3");
    assert!(legal(&t.position, W).iter().all(|m| m.starts_with("d4")));
}

/// Murali's alternative, rule 3: a side that cannot move its co-occupant out
/// (a blocked pawn; a king in immediate check while the co-occupant is
/// another piece) loses; if both cannot, the game is drawn.
#[test]
fn single_occupation_a_side_that_cannot_leave_loses() {
    // White's pawn on e4 is blocked by the knight on e5; Black's can go to e3.
    let p = pos("parity-single", "4k3/8/8/4n3/4(P'p')3/8/8/4K3 - - 0 5");
    assert!(legal(&p, W).is_empty());
    assert_eq!(legal(&p, B), ["e4e3"]);
    assert_eq!(p.outcome(), win(B));
    // Both blocked: draw.
    let p = pos("parity-single", "4k3/8/8/4n3/4(P'p')3/4N3/8/4K3 - - 0 5");
    assert!(legal(&p, W).is_empty() && legal(&p, B).is_empty());
    assert_eq!(
        p.outcome(),
        Some(Outcome {
            winner: None,
            reason: Reason::NoLegalMove
        })
    );
    // White must move the king (immediate check from the rook) and the knight at once: loses.
    let p = pos("parity-single", "4r2k/8/8/8/2(N'b')5/8/8/4K3 - - 0 5");
    assert!(p.in_check(W));
    assert!(legal(&p, W).is_empty());
    assert!(!legal(&p, B).is_empty());
    assert_eq!(p.outcome(), win(B));
}

/// docs/rules/rulings.md#parity-single-forced-exit: the co-occupant's exit
/// "may not capture"; it is exempt from the waiting rule, so the refusal
/// must not blame waiting.
#[test]

fn single_occupation_refused_capture_names_the_right_reason() {
    let p = pos("parity-single", "4k3/8/8/8/7p/5(N'n')2/3P4/4K3 - - 1 2");
    let nxh4 = Move::new(sq(&p, "f3"), sq(&p, "h4"));
    assert!(!p.legal_moves(W).contains(&nxh4));
    let reason = p.why_illegal(W, nxh4);
    assert!(!reason.is_empty());
    assert!(!reason.contains("must wait"), "{reason}");
}

/// docs/rules/rulings.md#simultaneous-failed-captures: a pawn whose
/// diagonal capture fails still ends on the diagonal square, and promotes
/// there on the last rank.
#[test]
fn failed_pawn_capture_still_promotes() {
    let p = pos("parity", "n3k3/1P6/8/8/8/8/8/4K3 - - 0 1");
    let t = play_uci(&p, "b7a8q", "a8c7");
    assert_eq!(t.position.to_fen(), "Q'3k3/2n'5/8/8/8/8/8/4K3 - - 0 2");
    let queen = p.variant().kind_by_letter('Q');
    assert_eq!(
        notes(&t, W),
        SideNotes {
            failed_capture: true,
            promotion: queen,
            check: Some(CheckKind::Delayed),
            ..SideNotes::default()
        }
    );
}

/// Smythe: "If a player has no ostensibly legal moves, the game is over -
/// checkmate if in check, stalemate if not. If both players are
/// checkmated, the game is drawn." And
/// docs/rules/rulings.md#move-neutral-end-of-game: a stalemate without a
/// lone checkmate is a draw.
#[test]
fn move_neutral_checkmate_stalemate_and_double_mate() {
    let mate = pos("move-neutral", "k6R/8/1K6/8/8/8/8/8 - - 0 9");
    assert_eq!(
        mate.outcome(),
        Some(Outcome {
            winner: Some(W),
            reason: Reason::Checkmate
        })
    );
    let both = pos("move-neutral", "k6R/7R/8/8/8/8/7r/K6r - - 0 9");
    assert_eq!(
        both.outcome(),
        Some(Outcome {
            winner: None,
            reason: Reason::BothCheckmated
        })
    );
    let stale = pos("move-neutral", "k7/2Q5/1K6/8/8/8/8/8 - - 0 9");
    assert_eq!(
        stale.outcome(),
        Some(Outcome {
            winner: None,
            reason: Reason::Stalemate
        })
    );
}

/// docs/rules/rulings.md#parity-king-moves: a king may not step where the
/// enemy's waiting piece attacks, because that piece "must stay where it
/// is in this turn and may capture in the next"; any other attacked square
/// is an allowed gamble. In parity-single,
/// when the enemy has a co-occupant to move out, that co-occupant must leave
/// this turn and may not capture, while every other enemy piece is certain to
/// stay put. Here White's king shares a1 with a black rook and must leave:
/// a2 and b1 (attacked only by the rook that is leaving) are not a certain
/// loss, b2 (attacked by the bishop, which cannot move this turn) is.
#[test]

fn single_occupation_king_exit_avoids_pieces_that_must_stay() {
    let p = pos("parity-single", "7k/8/8/8/3b4/8/6P1/(K'r')7 - - 0 5");
    assert_eq!(legal(&p, W), ["a1a2", "a1b1"]);
}

/// Murali: "An attempted check can turn out to be failed check if the
/// opponent has either moved his king out of the line of attack of that
/// piece or has placed a piece in that line"; SideNotes: "this side's move
/// would have given check". A standing check the king escapes while the
/// other side plays an unrelated move is no attempted check of that move.
#[test]

fn failed_check_only_for_a_move_that_attempts_check() {
    let p = pos("parity", "4k3/p7/8/8/8/8/P7/4R1K1 - - 0 3");
    assert!(p.in_check(B));
    let t = play_uci(&p, "a2a3", "e8d8");
    assert_eq!(notes(&t, W), SideNotes::default());
}
