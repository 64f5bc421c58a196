//! Mate-in-N positions in each turn-based variant, solved at fixed depth.
//! Each answer is checked twice: by the mate score the search reports and
//! by a brute-force proof over the rules that the move forces mate.

use parity_engine::eval::MATE;
use parity_engine::search::{search_once, Limits};
use parity_rules::crowd::CrowdPosition;
use parity_rules::TurnPosition;
use parity_rules::{fen, Registry};

/// True if the side to move is checkmated.
fn mated<B: TurnPosition>(pos: &B) -> bool {
    let mut moves = Vec::new();
    pos.generate(&mut moves, false);
    moves.is_empty() && pos.in_check()
}

/// True if the side to move can force mate within `n` of its moves.
fn forces_mate<B: TurnPosition>(pos: &B, n: u32) -> bool {
    let mut moves = Vec::new();
    pos.generate(&mut moves, false);
    moves.into_iter().any(|mv| mate_follows(&pos.make(mv), n))
}

/// After our move: the opponent is mated, or every reply allows mate in `n - 1`.
fn mate_follows<B: TurnPosition>(after: &B, n: u32) -> bool {
    if mated(after) {
        return true;
    }
    if n <= 1 {
        return false;
    }
    let mut replies = Vec::new();
    after.generate(&mut replies, false);
    !replies.is_empty()
        && replies
            .into_iter()
            .all(|r| forces_mate(&after.make(r), n - 1))
}

fn check_mate<B: TurnPosition>(pos: B, n: u32, expected_first: Option<&str>) {
    let depth = 2 * n as i32 - 1;
    // Two plies of slack: late quiet moves are reduced, so a quiet first
    // move of the mate is seen at full length only a ply or two deeper.
    let result = search_once(
        &pos,
        &[],
        Limits {
            depth: Some(depth + 2),
            ..Limits::default()
        },
    );
    let best = result.best.expect("a move");
    let text = pos.uci(best);
    assert_eq!(
        result.score,
        MATE - (2 * n as i32 - 1),
        "{}: mate in {n} expected, got score {} with {text}",
        pos.fen(),
        result.score
    );
    assert!(
        mate_follows(&pos.make(best), n),
        "{}: {text} does not force mate in {n}",
        pos.fen()
    );
    if let Some(first) = expected_first {
        assert_eq!(text, first, "{}", pos.fen());
    }
    assert!(
        !forces_mate(&pos, n - 1) || n == 1,
        "{}: the position has a shorter mate",
        pos.fen()
    );
}

fn turn_based(variant: &str, text: &str, n: u32, first: Option<&str>) {
    let v = Registry::builtin().get(variant).unwrap();
    check_mate(fen::parse_position::<u128>(v, text).unwrap(), n, first);
}

fn crowd(text: &str, n: u32, first: Option<&str>) {
    let v = Registry::builtin().get("safety-in-numbers").unwrap();
    check_mate(CrowdPosition::from_fen(v, text).unwrap(), n, first);
}

#[test]
fn chess_mates() {
    turn_based(
        "chess",
        "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
        1,
        Some("d1d8"),
    );
    turn_based(
        "chess",
        "kbK5/pp6/1P6/8/8/8/8/R7 w - - 0 1",
        2,
        Some("a1a6"),
    );
    turn_based(
        "chess",
        "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1",
        2,
        Some("d5f6"),
    );
    // Black to move mates too.
    turn_based(
        "chess",
        "3r2k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 1",
        1,
        Some("d8d1"),
    );
}

#[test]
fn tutti_frutti_mates() {
    // The Empress mates along the back rank; the Amazon alone with its king in two.
    turn_based(
        "tutti-frutti",
        "6k1/5ppp/8/8/8/8/5PPP/3E2K1 w - - 0 1",
        1,
        Some("d1d8"),
    );
    turn_based("tutti-frutti", "k7/8/2K5/8/8/8/8/7A w - - 0 1", 2, None);
}

#[test]
fn parity12_mates() {
    // The Champion's two-square leap covers the corner.
    turn_based(
        "parity12",
        "k11/2K9/12/12/C11/12/12/12 w - - 0 1",
        1,
        Some("a4a6"),
    );
    turn_based(
        "parity12",
        "k11/12/1K10/12/12/12/12/11Q w - - 0 1",
        1,
        Some("l1e8"),
    );
    turn_based(
        "parity12",
        "kbK9/pp10/1P10/12/12/12/12/R11 w - - 0 1",
        2,
        Some("a1a6"),
    );
}

#[test]
fn crowd_mates() {
    crowd("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", 1, Some("d1d8"));
    crowd("k7/8/2K5/8/8/8/8/7Q w - - 0 1", 2, None);
}

#[test]
fn a_crowd_blocks_the_back_rank_mate() {
    // The crowd on f8 blocks the rook's line: Rd8 is no longer mate, and
    // nothing else mates at once.
    let v = Registry::builtin().get("safety-in-numbers").unwrap();
    let pos = CrowdPosition::from_fen(v, "5(Nb)k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1").unwrap();
    assert!(!forces_mate(&pos, 1));
    let result = search_once(
        &pos,
        &[],
        Limits {
            depth: Some(3),
            ..Limits::default()
        },
    );
    assert!(result.score < MATE - 100, "score {}", result.score);
}
