//! Replays the example games in `games/` from start to finish through
//! `record::replay_simultaneous` and checks what each one shows: the
//! annotations at particular turns, the moves legal at key moments, and the
//! final position and result.
//!
//! - `games/parity-long.pgn`: a 41-turn Parity Chess game written in loose
//!   literature notation. It contains a swap, failed and successful captures,
//!   a shared square, both castlings, delayed and immediate checks, a king
//!   gamble that works and one that loses, and it ends 1-0 by adjudication.
//! - `games/move-neutral-short.pgn`: a 15-turn Move-Neutral game with a
//!   swap, two escaped captures, failed checks and a shared square that gives
//!   check.
//!
//! Every turn's `{white: ...; black: ...}` comment must say exactly what the
//! replay computes (`record::describe`), so the files cannot go stale without
//! this test failing.

use parity_rules::any::{AnyGame, Step};
use parity_rules::record::{self, Record};
use parity_rules::simultaneous::{CheckKind, SideNotes, SimPosition};
use parity_rules::{ByColor, Color, Move, Registry, SimGame, Square, Variant};
use parity_rules::{Outcome, Reason};

const W: Color = Color::White;
const B: Color = Color::Black;

const PARITY_LONG: &str = include_str!("../../../games/parity-long.pgn");
const MOVE_NEUTRAL_SHORT: &str = include_str!("../../../games/move-neutral-short.pgn");

/// One replayed turn: the moves, the position after it and the notes.
struct TurnStep {
    moves: ByColor<Move>,
    /// The position before the turn (where both moves were chosen).
    before: SimPosition,
    after: SimPosition,
    notes: ByColor<SideNotes>,
}

struct Replay {
    variant: &'static Variant,
    game: SimGame,
    /// `steps[n - 1]` is turn `n`.
    steps: Vec<TurnStep>,
}

impl Replay {
    fn turn(&self, n: u32) -> &TurnStep {
        &self.steps[n as usize - 1]
    }
    fn sq(&self, name: &str) -> Square {
        self.variant
            .shape
            .parse_square(name)
            .unwrap_or_else(|| panic!("bad square {name}"))
    }
    fn kind_letter(&self, pos: &SimPosition, color: Color, square: &str) -> Option<char> {
        pos.kind_at(color, self.sq(square))
            .map(|k| self.variant.kinds[k.index()].letter)
    }
    fn captured_letter(&self, notes: &SideNotes) -> Option<char> {
        notes.captured.map(|k| self.variant.kinds[k.index()].letter)
    }
    /// The destinations of a side's legal moves, as square names, sorted.
    fn destinations(&self, pos: &SimPosition, color: Color) -> Vec<String> {
        let mut v: Vec<String> = pos
            .legal_moves(color)
            .iter()
            .map(|m| self.variant.shape.name(m.to).to_string())
            .collect();
        v.sort();
        v
    }
}

fn replay(text: &str, expected_variant: &str) -> (Replay, Record) {
    let registry = Registry::builtin();
    let record = record::parse(text).expect("record parses");
    let variant = record::variant_of(&registry, &record).expect("known variant");
    assert_eq!(variant.id(), expected_variant);
    let mut steps = Vec::new();
    let mut before = match record.tag("FEN") {
        Some(f) => SimPosition::from_fen(variant, f).expect("FEN tag"),
        None => SimPosition::start(variant),
    };
    let game = record::replay_with(variant, &record, |game, step| {
        let (
            AnyGame::Simultaneous(g),
            &Step::Turn {
                number,
                moves,
                notes,
            },
        ) = (game, step)
        else {
            panic!("a simultaneous game replays by turns");
        };
        assert_eq!(number as usize, steps.len() + 1, "turns arrive in order");
        let pos = *g.position();
        steps.push(TurnStep {
            moves: moves.into(),
            before,
            after: pos,
            notes,
        });
        before = pos;
    })
    .map(|g| match g {
        AnyGame::Simultaneous(g) => g,
        _ => panic!("family"),
    })
    .unwrap_or_else(|e| panic!("{expected_variant} game does not replay: {e}"));
    (
        Replay {
            variant,
            game,
            steps,
        },
        record,
    )
}

/// The `{white: ...; black: ...}` comment of each numbered turn line, or ""
/// when the line has none.
fn annotation_comments(text: &str) -> Vec<(u32, String)> {
    let mut out = Vec::new();
    for line in text.lines() {
        let Some((number, rest)) = line.split_once(". ") else {
            continue;
        };
        let Ok(number) = number.trim().parse::<u32>() else {
            continue;
        };
        let comment = rest
            .split('{')
            .skip(1)
            .filter_map(|c| c.split_once('}').map(|(inside, _)| inside))
            .find(|c| c.starts_with("white:") || c.starts_with("black:"))
            .unwrap_or("");
        out.push((number, comment.to_string()));
    }
    out
}

/// Every turn line's annotation comment matches what the replay computes.
fn assert_comments_match(r: &Replay, text: &str) {
    let comments = annotation_comments(text);
    assert_eq!(comments.len(), r.steps.len(), "one line per turn");
    for (number, comment) in comments {
        let notes = &r.turn(number).notes;
        let mut parts = Vec::new();
        for (side, n) in [("white", &notes[W]), ("black", &notes[B])] {
            let d = record::describe(r.variant, n);
            if !d.is_empty() {
                parts.push(format!("{side}: {d}"));
            }
        }
        assert_eq!(
            comment,
            parts.join("; "),
            "turn {number}: the comment does not match the replay"
        );
    }
}

#[test]
fn parity_long_game_replays_to_a_win_for_white() {
    let (r, record) = replay(PARITY_LONG, "parity");
    assert_eq!(record.tag("Result"), Some("1-0"));
    assert_eq!(r.game.turns().len(), 41);
    assert_eq!(
        r.game.position().to_fen(),
        "5k'2/4Q1p1/2p1Rp2/5p2/2P5/P1N'4P/1q3P1K/3r4 - - 2 42"
    );
    // Black's king stepped next to a queen that stayed: it is attacked by a
    // piece that did not move and must wait itself, so Black has no move.
    assert!(r.game.position().legal_moves(Color::Black).is_empty());
    assert_eq!(
        r.game.outcome(),
        Some(Outcome {
            winner: Some(Color::White),
            reason: Reason::NoLegalMove
        })
    );
    assert_comments_match(&r, PARITY_LONG);
}

#[test]
fn parity_long_game_captures() {
    let (r, _) = replay(PARITY_LONG, "parity");
    // Turn 3, Pe4xPd5 dxe4: each pawn tries to take the other; both fail and swap.
    let t = r.turn(3);
    for side in [W, B] {
        assert!(
            t.notes[side].swap && t.notes[side].failed_capture,
            "turn 3 side {side:?}: {:?}",
            t.notes[side]
        );
        assert_eq!(t.notes[side].captured, None);
    }
    assert_eq!(r.kind_letter(&t.after, Color::White, "d5"), Some('P'));
    assert_eq!(r.kind_letter(&t.after, Color::Black, "e4"), Some('P'));
    // Turn 5, dxN: the knight left c6, the capture fails, the pawn still lands on c6.
    let t = r.turn(5);
    assert!(
        t.notes[W].failed_capture && !t.notes[W].swap,
        "{:?}",
        t.notes[W]
    );
    assert_eq!(t.notes[W].captured, None);
    assert_eq!(r.kind_letter(&t.after, Color::White, "c6"), Some('P'));
    assert_eq!(r.kind_letter(&t.after, Color::Black, "e5"), Some('N'));
    // Turn 6, bxP: the c6 pawn had moved and had to wait: the capture succeeds.
    let t = r.turn(6);
    assert_eq!(r.captured_letter(&t.notes[B]), Some('P'));
    assert!(!t.notes[B].failed_capture);
    assert_eq!(r.kind_letter(&t.after, Color::White, "c6"), None);
    // Turn 10, gxB: the bishop steps away; the pawn leaves the shared g4 for f5.
    let t = r.turn(10);
    assert!(t.notes[W].failed_capture);
    assert_eq!(r.kind_letter(&t.after, Color::White, "f5"), Some('P'));
    assert!(t.after.shared().is_empty());
    // Turn 33, Bxf: the bishop takes the knight on the f-file.
    assert_eq!(r.captured_letter(&r.turn(33).notes[W]), Some('N'));
    assert_eq!(r.turn(33).moves[W].to, r.sq("f5"));
    // Turn 36, Bxe7: the pawn advanced to e6 and the capture fails.
    let t = r.turn(36);
    assert!(t.notes[W].failed_capture);
    assert_eq!(r.kind_letter(&t.after, Color::White, "e7"), Some('B'));
    assert_eq!(r.kind_letter(&t.after, Color::Black, "e6"), Some('P'));
    // Turn 37: the bishop on e7 moved last turn, so it cannot escape Bxe7.
    assert_eq!(r.captured_letter(&r.turn(37).notes[B]), Some('B'));
}

#[test]
fn parity_long_game_shared_square_and_castling() {
    let (r, _) = replay(PARITY_LONG, "parity");
    // Turn 7, g4 Ng4: both arrive on g4 and share it.
    let t = r.turn(7);
    let g4 = r.sq("g4");
    assert_eq!(t.notes[W].co_occupied, Some(g4));
    assert_eq!(t.notes[B].co_occupied, Some(g4));
    assert_eq!(t.after.shared(), g4.bit());
    assert!(t.after.to_fen().contains("(P'n')"), "{}", t.after.to_fen());
    // Nothing may capture on the shared square: no legal move of either side ends on g4.
    for c in Color::ALL {
        assert!(t.after.legal_moves(c).iter().all(|m| m.to != g4));
    }
    // Turn 9, O-O-O: king and rook both become Black's last-moved pieces.
    let t = r.turn(9);
    assert!(t.notes[B].castled);
    assert_eq!(
        t.after.last_moved(Color::Black),
        r.sq("c8").bit() | r.sq("d8").bit()
    );
    assert!(t.after.castling_rights(Color::Black).is_empty());
    // Turn 15, O-O for White, with both king and rook waiting afterwards.
    let t = r.turn(15);
    assert!(t.notes[W].castled);
    assert_eq!(
        t.after.last_moved(Color::White),
        r.sq("g1").bit() | r.sq("f1").bit()
    );
    // Turn 17: Rfe1 is the f1 rook (written with its file), legal again one turn later.
    assert_eq!(r.turn(17).moves[W].from, r.sq("f1"));
}

#[test]
fn parity_long_game_checks() {
    let (r, _) = replay(PARITY_LONG, "parity");
    let check = |n: u32, side: Color| r.turn(n).notes[side].check;
    // Turn 11, Qa6+: the queen just moved, so the check is delayed and Black is free.
    assert_eq!(check(11, W), Some(CheckKind::Delayed));
    assert!(!r.turn(11).after.in_check(Color::Black));
    assert!(r
        .turn(11)
        .after
        .legal_moves(Color::Black)
        .iter()
        .any(|m| m.from != r.sq("c8")));
    // Turn 24: Black's queen leaves the b-file, uncovering the rook that has
    // stopped waiting: immediate check, and Black may only move the king.
    let t = r.turn(24);
    assert_eq!(check(24, W), Some(CheckKind::Immediate));
    assert!(t.after.in_check(Color::Black));
    let king = t.after.king(Color::Black);
    assert!(t
        .after
        .legal_moves(Color::Black)
        .iter()
        .all(|m| m.from == king));
    // c8 is attacked by a queen free to move: the rules allow the step (a gamble).
    assert_eq!(r.destinations(&t.after, Color::Black), ["a8", "b7", "c8"]);
    // Turn 25: the queen did move (Qxa7), so the king on c8 is not in check.
    assert!(!r.turn(25).after.in_check(Color::Black));
    assert_eq!(check(25, W), None);
    // Turns 26-28: delayed checks; left unanswered, the queen's becomes immediate.
    assert_eq!(check(26, W), Some(CheckKind::Delayed));
    assert_eq!(check(27, W), Some(CheckKind::Delayed));
    assert_eq!(check(28, W), Some(CheckKind::Immediate));
    assert_eq!(r.captured_letter(&r.turn(28).notes[B]), Some('R'));
    // Turn 30, Bg4: discovered check from the e1 rook, which did not move.
    let t = r.turn(30);
    assert_eq!(check(30, W), Some(CheckKind::Immediate));
    assert_eq!(r.turn(30).moves[W].from, r.sq("e2"));
    // The bishop that just moved attacks d7 and f5 (through the king's
    // square): certain loss, so those steps are refused; d5, d6 and e5 are
    // gambles against pieces free to move and stay legal.
    assert_eq!(
        r.destinations(&t.after, Color::Black),
        ["d5", "d6", "e5", "f7"]
    );
    // Turn 39: delayed check by the queen that just took on e7.
    assert_eq!(check(39, W), Some(CheckKind::Delayed));
    // Turn 40: Black's Rd1 would have checked the king on g1, which left: a
    // failed check; and the queen on e7 now gives immediate check.
    assert!(r.turn(40).notes[B].failed_check);
    assert_eq!(check(40, B), None);
    assert_eq!(check(40, W), Some(CheckKind::Immediate));
    assert_eq!(
        r.destinations(&r.turn(40).after, Color::Black),
        ["d7", "d8", "e7", "f7", "f8"]
    );
    // Turn 41: the king stepped to f8 and the queen stayed.
    assert_eq!(check(41, W), Some(CheckKind::Immediate));
    // A check already standing is not a "failed check" when the king escapes it.
    assert!(!r.turn(12).notes[W].failed_check);
    assert!(!r.turn(25).notes[W].failed_check);
}

#[test]
fn parity_long_game_obeys_the_waiting_rule() {
    let (r, _) = replay(PARITY_LONG, "parity");
    // After the swap of turn 3 the white pawn on d5 must wait, though d6 is
    // empty; one turn later it may move again (dxN in turn 5).
    let (d5, d6) = (r.sq("d5"), r.sq("d6"));
    let after3 = &r.turn(3).after;
    assert!(
        after3.kind_at(Color::White, d6).is_none() && after3.kind_at(Color::Black, d6).is_none()
    );
    assert!(after3
        .legal_moves(Color::White)
        .iter()
        .all(|m| m.from != d5));
    assert!(r
        .turn(4)
        .after
        .legal_moves(Color::White)
        .iter()
        .any(|m| m.from == d5));
    // After castling (turn 15) neither king nor rook may move at once.
    let after15 = &r.turn(15).after;
    assert!(after15
        .legal_moves(Color::White)
        .iter()
        .all(|m| m.from != r.sq("g1") && m.from != r.sq("f1")));
    for pair in r.steps.windows(2) {
        assert_eq!(pair[0].after, pair[1].before);
        for (side, color) in [(W, Color::White), (B, Color::Black)] {
            // No piece moves from a square its side marked as last moved.
            assert!(!pair[1]
                .before
                .last_moved(color)
                .contains(pair[1].moves[side].from));
        }
    }
}

#[test]
fn move_neutral_short_game() {
    let (r, record) = replay(MOVE_NEUTRAL_SHORT, "move-neutral");
    assert_eq!(record.tag("Result"), Some("*"));
    assert_eq!(r.game.turns().len(), 15);
    assert_eq!(
        r.game.position().to_fen(),
        "rn6/ppp4p/4(Qb)3/2kp4/2p5/5N2/PP2PPPP/R3KB1R KQ - 2 16"
    );
    assert_eq!(r.game.outcome(), None);
    assert_comments_match(&r, MOVE_NEUTRAL_SHORT);
    // Turn 3, cxd5 dxc4: a swap.
    let t = r.turn(3);
    assert!(t.notes[W].swap && t.notes[B].swap);
    assert_eq!(r.kind_letter(&t.after, Color::White, "d5"), Some('P'));
    assert_eq!(r.kind_letter(&t.after, Color::Black, "c4"), Some('P'));
    // Turn 6, Bg5xNf6 Nf6-e4: the knight escapes, the bishop lands on f6.
    let t = r.turn(6);
    assert!(t.notes[W].failed_capture && !t.notes[W].swap);
    assert_eq!(r.kind_letter(&t.after, Color::White, "f6"), Some('B'));
    assert_eq!(r.kind_letter(&t.after, Color::Black, "e4"), Some('N'));
    // Turn 7: both captures succeed.
    assert_eq!(r.captured_letter(&r.turn(7).notes[W]), Some('N'));
    assert_eq!(r.captured_letter(&r.turn(7).notes[B]), Some('B'));
    // Turn 8: no waiting rule, the knight that just took on e4 moves again;
    // its capture of the queen fails but it gives check from f6.
    let t = r.turn(8);
    assert_eq!(t.moves[W].from, r.turn(7).moves[W].to);
    assert!(t.notes[W].failed_capture);
    assert_eq!(t.notes[W].check, Some(CheckKind::Immediate));
    assert!(t.after.in_check(Color::Black));
    // No last-moved markers in move-neutral.
    assert!(r
        .steps
        .iter()
        .all(|s| s.after.last_moved(Color::White).is_empty()
            && s.after.last_moved(Color::Black).is_empty()));
    // Turns 12 and 13: attempted checks the king stepped out of.
    assert!(r.turn(12).notes[W].failed_check);
    assert!(r.turn(13).notes[W].failed_check);
    // Turn 14: queen and bishop share e6; the queen there still checks d6,
    // and nothing may capture on e6, so Kc5 is Black's only move.
    let t = r.turn(14);
    let e6 = r.sq("e6");
    assert_eq!(t.notes[W].co_occupied, Some(e6));
    assert_eq!(t.notes[B].co_occupied, Some(e6));
    assert!(t.after.in_check(Color::Black));
    assert_eq!(r.destinations(&t.after, Color::Black), ["c5"]);
    assert!(t.after.legal_moves(Color::White).iter().all(|m| m.to != e6));
}
