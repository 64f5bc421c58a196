//! `safety-in-numbers`: every example of Betza's article, the RULINGS cases,
//! and property tests on random play.

use parity_rules::crowd::CrowdPosition;
use parity_rules::{notation, Color, Move, Piece, Registry, Square, Variant};
use proptest::prelude::*;
use rand_chacha::rand_core::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn sin() -> &'static Variant {
    Registry::builtin().get("safety-in-numbers").unwrap()
}

fn pos(fen: &str) -> CrowdPosition {
    CrowdPosition::from_fen(sin(), fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn sq(name: &str) -> Square {
    sin().shape.parse_square(name).unwrap()
}

fn moves_to(p: &CrowdPosition, to: &str) -> Vec<Move> {
    p.legal_moves().into_iter().filter(|m| m.to == sq(to)).collect()
}

fn play(p: &CrowdPosition, uci: &str) -> CrowdPosition {
    let mv = notation::parse_uci(p, uci).unwrap_or_else(|e| panic!("{uci} in {}: {e}", p.to_fen()));
    p.play(mv)
}

fn letters(p: &CrowdPosition, at: &str) -> String {
    let v = sin();
    p.contents(sq(at))
        .iter()
        .map(|q: &Piece| {
            let l = v.kinds[q.kind.index()].letter;
            if q.color == Color::White { l } else { l.to_ascii_lowercase() }
        })
        .collect()
}

#[test]
fn both_kings_on_f3() {
    // "put both Kings on f3; now the Pawns at e2 or g2 can move to f3 ... by
    // using their capturing power; or, the Pawn at f2 ... by using its movement
    // power. The Knight at g1 can join the crowd at f3."
    let p = pos("rnbq1bnr/pppppppp/8/8/8/5(Kk)2/PPPPPPPP/RNBQ1BNR w - - 0 1");
    assert!(!p.is_check(), "a king in a crowd is not in check");
    let mut from: Vec<String> = moves_to(&p, "f3").iter().map(|m| sin().shape.name(m.from).to_string()).collect();
    from.sort();
    assert_eq!(from, ["e2", "f2", "g1", "g2"]);
    for m in moves_to(&p, "f3") {
        assert_eq!(p.captured(m), None);
        let next = p.play(m);
        assert_eq!(next.contents(sq("f3")).len(), 3);
        assert_eq!(next.piece_count(), p.piece_count());
    }
    assert_eq!(letters(&play(&p, "g1f3"), "f3"), "KNk");
    // No double step over the crowd.
    assert!(notation::parse_uci(&p, "f2f4").is_err());
}

#[test]
fn black_rook_on_f3() {
    // "the Pawn at f2 can move to f3, creating a crowd, or the Pawns at e2 or g2
    // can capture at f3 -- but they may not move to f3 without capturing; or the
    // Knight at g1 can capture at f3."
    let p = pos("rnbqkbnr/pppppppp/8/8/8/5r2/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    assert_eq!(moves_to(&p, "f3").len(), 4);
    let joined = play(&p, "f2f3");
    assert_eq!(letters(&joined, "f3"), "Pr");
    assert_eq!(joined.piece_count(), 32 + 1);
    for capture in ["e2f3", "g2f3", "g1f3"] {
        let next = play(&p, capture);
        assert_eq!(next.contents(sq("f3")).len(), 1, "{capture}");
        assert_eq!(next.piece_count(), 32, "{capture}");
    }
    // Once a crowd, the rook is safe: e2 and g2 now join, nothing is taken.
    let black_waits = play(&joined, "b8c6");
    let e = play(&black_waits, "e2f3");
    assert_eq!(letters(&e, "f3"), "PPr");
    assert_eq!(e.piece_count(), 33);
}

#[test]
fn pawns_are_never_blockaded() {
    // After 1. e4 e6 2. d4 d5 3. e5 both sides may advance every pawn of the chain.
    let mut p = CrowdPosition::start(sin());
    for m in ["e2e4", "e7e6", "d2d4", "d7d5", "e4e5"] {
        p = play(&p, m);
    }
    assert_eq!(p.to_fen(), "rnbqkbnr/ppp2ppp/4p3/3pP3/3P4/8/PPP2PPP/RNBQKBNR b KQkq - 0 3");
    for m in ["e6e5", "d5d4"] {
        assert!(notation::parse_uci(&p, m).is_ok(), "{m}");
    }
    let white = play(&p, "g8f6");
    for m in ["e5e6", "d4d5"] {
        assert!(notation::parse_uci(&white, m).is_ok(), "{m}");
    }
    // Into the crowd and through it: e5-e6 joins, then e6-e7 goes on.
    let joined = play(&white, "e5e6");
    assert_eq!(letters(&joined, "e6"), "Pp");
    let on = play(&play(&joined, "b8c6"), "e6e7");
    assert_eq!(letters(&on, "e6"), "p");
    assert_eq!(letters(&on, "e7"), "P");
}

#[test]
fn no_capture_on_a_crowd_and_no_check_in_one() {
    // The white king shares d5 with a black rook; the black queen's line is no check.
    let p = pos("3q4/8/8/3(Kr)4/8/8/8/4k3 w - - 0 1");
    assert!(!p.is_check());
    // A lone king next to the crowd would be attacked by the rook in it.
    assert!(p.is_attacked(sq("d4"), Color::Black));
    assert!(notation::parse_uci(&p, "d5d4").is_err());
    // The black queen cannot take on the crowd, but may join it.
    let b = pos("3q4/8/8/3(Kr)4/8/8/8/4k3 b - - 0 1");
    let to_d5 = moves_to(&b, "d5");
    assert_eq!(to_d5.len(), 1);
    assert_eq!(b.captured(to_d5[0]), None);
    assert_eq!(letters(&b.play(to_d5[0]), "d5"), "Kqr");
}

#[test]
fn friendly_squares_refused_and_lone_enemies_joined_only_by_move_power() {
    // A crowd of white pieces only (after the black piece left) takes no more white pieces.
    let p = pos("4k3/8/8/8/8/3(PN)4/3P4/4K3 w - - 0 1");
    assert!(moves_to(&p, "d3").is_empty());
    // A knight cannot join a lone enemy: it captures.
    let q = pos("4k3/8/8/8/4p3/8/3N4/4K3 w - - 0 1");
    let m = moves_to(&q, "e4");
    assert_eq!(m.len(), 1);
    assert!(q.captured(m[0]).is_some());
}

#[test]
fn double_step_into_a_crowd_cannot_be_taken_en_passant() {
    let alone = play(&pos("4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1"), "e2e4");
    assert!(alone.en_passant().is_some());
    assert!(notation::parse_uci(&alone, "d4e3").is_ok());
    // e4 holds a black knight: the double step joins it.
    let joined = play(&pos("4k3/8/8/8/3pn3/8/4P3/4K3 w - - 0 1"), "e2e4");
    assert_eq!(letters(&joined, "e4"), "Pn");
    assert!(joined.en_passant().is_none());
    assert!(notation::parse_uci(&joined, "d4e3").is_err());
    // The double step needs an empty middle square, crowd or not.
    assert!(notation::parse_uci(&pos("4k3/8/8/8/8/4(nb)3/4P3/4K3 w - - 0 1"), "e2e4").is_err());
}

#[test]
fn mate_and_the_crowd_escape() {
    let mate = pos("k7/8/1K6/8/8/8/8/7R w - - 0 1");
    let after = play(&mate, "h1h8");
    assert_eq!(after.terminal(), Some(Some(Color::White)));
    // With a crowd holding a white piece on a7, the king escapes into it.
    let p = play(&pos("k7/(Pn)7/1K6/8/8/8/8/7R w - - 0 1"), "h1h8");
    assert!(p.is_check());
    assert_eq!(p.terminal(), None);
    let escape = play(&p, "a8a7");
    assert!(!escape.king_in_check(Color::Black));
    let stale = pos("k7/8/1Q6/8/8/8/8/K7 b - - 0 1");
    assert_eq!(stale.terminal(), Some(None));
}

#[test]
fn leaving_a_mixed_crowd_names_the_piece() {
    let p = pos("4k3/8/8/8/3(QRp)4/8/8/4K3 w - - 0 1");
    let to_d8: Vec<Move> = moves_to(&p, "d8");
    // Queen and rook both reach d8: two moves, told apart by the kind.
    assert_eq!(to_d8.len(), 2);
    assert_ne!(to_d8[0], to_d8[1]);
    let kinds: Vec<String> = to_d8.iter().map(|&m| letters(&p.play(m), "d8")).collect();
    assert!(kinds.contains(&"Q".to_string()) && kinds.contains(&"R".to_string()), "{kinds:?}");
}

#[test]
fn notation_of_joins_and_crowd_exits() {
    let p = pos("rnbq1bnr/pppppppp/8/8/8/5(Kk)2/PPPPPPPP/RNBQ1BNR w - - 0 1");
    let mut sans: Vec<String> = moves_to(&p, "f3").into_iter().map(|m| p.san(m)).collect();
    sans.sort();
    // Joins are written like quiet moves; pawns name their file when several can go.
    assert_eq!(sans, ["Nf3", "ef3", "ff3", "gf3"]);
    let q = pos("4k3/8/8/8/3(QRp)4/8/8/4K3 w - - 0 1");
    let mut out: Vec<(String, String)> = moves_to(&q, "d8").into_iter().map(|m| (notation::uci(&q, m), q.san(m))).collect();
    out.sort();
    assert_eq!(out, [("Qd4d8".to_string(), "Qd8+".to_string()), ("Rd4d8".to_string(), "Rd8+".to_string())]);
    assert!(matches!(notation::parse_uci(&q, "d4d8"), Err(notation::NotationError::Ambiguous { .. })));
}

#[test]
fn records_replay() {
    let reg = Registry::builtin();
    let replay = |text: &str| match parity_rules::record::replay(&reg, text).unwrap() {
        parity_rules::record::Replayed::Crowd(g) => g,
        _ => panic!("family"),
    };
    // 2. e5 joins the black pawn: no blockade.
    let g = replay("[Variant \"safety-in-numbers\"]\n1. e4 e5 2. e5 d6\n");
    assert_eq!(g.moves().len(), 4);
    assert_eq!(letters(g.position(), "e5"), "Pp");
    assert_eq!(g.outcome(), None);
    let g = replay("[Variant \"safety-in-numbers\"]\n1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7#\n");
    assert_eq!(g.outcome().map(|o| o.reason), Some(parity_rules::game::Reason::Checkmate));
    // The queen in the crowd guards d8, so the king may not take the rook.
    let with_crowd = "[Variant \"safety-in-numbers\"]\n[FEN \"4k3/8/8/8/3(QRp)4/8/8/4K3 w - - 0 1\"]\n1. Rd8+ Kf7\n";
    assert_eq!(replay(with_crowd).position().to_fen(), "3R4/5k2/8/8/3(Qp)4/8/8/4K3 w - - 2 2");
    assert!(parity_rules::record::replay(&reg, &with_crowd.replace("Kf7", "Kxd8")).is_err());
}

#[test]
fn castling_right_stays_with_the_partner() {
    let p = pos("4k3/8/8/8/8/8/8/4K2(RNb) w K - 0 1");
    let n = play(&p, "Nh1g3");
    assert_eq!(n.castling_rights(Color::White), sq("h1").bit());
    let castled = play(&play(&n, "e8d8"), "e1g1");
    assert_eq!(castled.to_fen(), "3k4/8/8/8/8/6N1/8/5RKb b - - 3 2");
    let r = play(&p, "Rh1h2");
    assert!(r.castling_rights(Color::White).is_empty());
}

const ROOTS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "rnbq1bnr/pppppppp/8/8/8/5(Kk)2/PPPPPPPP/RNBQ1BNR w - - 0 1",
    "rnbqkbnr/ppp2ppp/4p3/3pP3/3P4/8/PPP2PPP/RNBQKBNR b KQkq - 0 3",
    "4k3/1P6/8/3(PPbn)4/8/8/p7/R3K2R w KQ - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, ..ProptestConfig::default() })]

    #[test]
    fn random_play_keeps_the_rules(root in 0..ROOTS.len(), seed in any::<u64>()) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut p = pos(ROOTS[root]);
        for _ in 0..60 {
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = moves[(rng.next_u64() % moves.len() as u64) as usize];
            let onto_crowd = p.crowd_squares().contains(mv.to);
            let captured = p.captured(mv);
            let next = p.play(mv);
            // No capture on a crowd; pieces conserved except by captures.
            prop_assert!(!(onto_crowd && captured.is_some()), "capture on a crowd: {:?} in {}", mv, p.to_fen());
            prop_assert_eq!(next.piece_count() + captured.is_some() as usize, p.piece_count());
            // The mover's own king is never left in check.
            prop_assert!(!next.king_in_check(p.side_to_move()));
            // Every legal move writes and reads back, in coordinates and SAN.
            for m in moves.iter().copied() {
                let u = notation::uci(&p, m);
                prop_assert_eq!(notation::parse_uci(&p, &u), Ok(m), "{} in {}", u, p.to_fen());
                let san = p.san(m);
                prop_assert_eq!(notation::parse_san(&p, &san), Ok(m), "{} in {}", san, p.to_fen());
            }
            // The FEN extension round-trips, hash included.
            let fen = next.to_fen();
            let back = CrowdPosition::from_fen(sin(), &fen);
            prop_assert_eq!(back.as_ref(), Ok(&next), "{}", fen);
            prop_assert_eq!(back.unwrap().hash(), next.hash());
            p = next;
        }
    }
}
