//! `safety-in-numbers`: every example of Betza's article, the cases of
//! `docs/rules/rulings.md#safety-in-numbers`, and property tests on
//! random play.

mod common;

use common::warden;
use parity_rules::crowd::CrowdPosition;
use parity_rules::{
    notation, AnyGame, Color, Game, Move, Outcome, Piece, Reason, Registry, Square, TurnPosition,
    Variant,
};
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
    p.legal_moves()
        .into_iter()
        .filter(|m| m.to == sq(to))
        .collect()
}

fn play(p: &CrowdPosition, uci: &str) -> CrowdPosition {
    let mv = notation::parse_uci(p, uci).unwrap_or_else(|e| panic!("{uci} in {}: {e}", p.to_fen()));
    p.play(mv)
}

fn letters(p: &CrowdPosition, at: &str) -> String {
    let v = p.variant();
    p.contents(sq(at))
        .iter()
        .map(|q: &Piece| {
            let l = v.kinds[q.kind.index()].letter;
            if q.color == Color::White {
                l
            } else {
                l.to_ascii_lowercase()
            }
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
    let mut from: Vec<String> = moves_to(&p, "f3")
        .iter()
        .map(|m| sin().shape.name(m.from).to_string())
        .collect();
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
    assert_eq!(
        p.to_fen(),
        "rnbqkbnr/ppp2ppp/4p3/3pP3/3P4/8/PPP2PPP/RNBQKBNR b KQkq - 0 3"
    );
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
fn a_move_onto_ones_own_pieces_says_why_it_is_refused() {
    // A queen next to a lone friend, and next to a crowd of friends.
    let p = pos("4k3/8/8/8/8/3(PN)4/3QB3/4K3 w - - 0 1");
    for (text, square) in [("d2e2", "e2"), ("d2d3", "d3")] {
        let err = notation::parse_uci(&p, text).unwrap_err().to_string();
        assert!(
            err.contains(&format!(
                "may not join its own side's pieces on {square} alone"
            )) && err.contains("enemy"),
            "{text}: {err}"
        );
    }
    // A move refused for another reason gets no such hint.
    let err = notation::parse_uci(&p, "d2h8").unwrap_err().to_string();
    assert!(!err.contains("join"), "{err}");
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
    assert!(
        kinds.contains(&"Q".to_string()) && kinds.contains(&"R".to_string()),
        "{kinds:?}"
    );
}

#[test]
fn en_passant_and_castling_out_of_a_mixed_crowd_name_the_piece() {
    // Found by random play: `e4f3` fitted both the bishop and the en passant.
    let p = pos("4k3/8/8/8/4(Pbp)P2/8/8/4K3 b - f3 0 1");
    let ep = moves_to(&p, "f3")
        .into_iter()
        .find(|m| m.special == parity_rules::Special::EnPassant)
        .unwrap();
    assert_eq!(notation::uci(&p, ep), "Pe4f3");
    assert_eq!(notation::parse_uci(&p, "Pe4f3"), Ok(ep));
    assert!(matches!(
        notation::parse_uci(&p, "e4f3"),
        Err(notation::NotationError::Ambiguous { .. })
    ));
    let castle = pos("k7/8/8/8/8/8/8/4(KQb)2R w K - 0 1");
    let o_o = castle
        .legal_moves()
        .into_iter()
        .find(|m| m.is_castle())
        .unwrap();
    assert_eq!(notation::uci(&castle, o_o), "Ke1g1");
    assert_eq!(notation::parse_uci(&castle, "Ke1g1"), Ok(o_o));
    assert_eq!(
        notation::uci(&castle, notation::parse_uci(&castle, "Qe1g1").unwrap()),
        "Qe1g1"
    );
}

#[test]
fn notation_of_joins_and_crowd_exits() {
    let p = pos("rnbq1bnr/pppppppp/8/8/8/5(Kk)2/PPPPPPPP/RNBQ1BNR w - - 0 1");
    let mut sans: Vec<String> = moves_to(&p, "f3").into_iter().map(|m| p.san(m)).collect();
    sans.sort();
    // Joins are written like quiet moves marked `&`; pawns name their file
    // when several can go.
    assert_eq!(sans, ["Nf3&", "ef3&", "ff3&", "gf3&"]);
    for san in sans {
        let read = notation::parse_san(&p, &san).unwrap();
        assert_eq!(notation::parse_san(&p, san.trim_end_matches('&')), Ok(read));
    }
    let q = pos("4k3/8/8/8/3(QRp)4/8/8/4K3 w - - 0 1");
    let mut out: Vec<(String, String)> = moves_to(&q, "d8")
        .into_iter()
        .map(|m| (notation::uci(&q, m), q.san(m)))
        .collect();
    out.sort();
    assert_eq!(
        out,
        [
            ("Qd4d8".to_string(), "Qd8+".to_string()),
            ("Rd4d8".to_string(), "Rd8+".to_string())
        ]
    );
    assert!(matches!(
        notation::parse_uci(&q, "d4d8"),
        Err(notation::NotationError::Ambiguous { .. })
    ));
}

#[test]
fn records_replay() {
    let reg = Registry::builtin();
    let replay = |text: &str| match parity_rules::record::replay(&reg, text).unwrap() {
        AnyGame::Crowd(g) => g,
        _ => panic!("family"),
    };
    // 2. e5 joins the black pawn: no blockade.
    let g = replay("[Variant \"safety-in-numbers\"]\n1. e4 e5 2. e5 d6\n");
    assert_eq!(g.moves().len(), 4);
    assert_eq!(letters(g.position(), "e5"), "Pp");
    assert_eq!(g.outcome(), None);
    let g = replay("[Variant \"safety-in-numbers\"]\n1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7#\n");
    assert_eq!(g.outcome().map(|o| o.reason), Some(Reason::Checkmate));
    // The queen in the crowd guards d8, so the king may not take the rook.
    let with_crowd = "[Variant \"safety-in-numbers\"]\n[FEN \"4k3/8/8/8/3(QRp)4/8/8/4K3 w - - 0 1\"]\n1. Rd8+ Kf7\n";
    assert_eq!(
        replay(with_crowd).position().to_fen(),
        "3R4/5k2/8/8/3(Qp)4/8/8/4K3 w - - 2 2"
    );
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

fn warden_pos(fen: &str) -> CrowdPosition {
    CrowdPosition::from_fen(warden(), fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

#[test]
fn two_powers_reaching_a_lone_enemy_capture_or_join() {
    // Rule 2 (docs/rules/rulings.md#safety-in-numbers-where-a-piece-may-go):
    // the Warden moves as a rook and captures as a king. On c5 (orthogonal
    // neighbour) both powers reach the lone pawn: take or join. On e6 only
    // the capture power reaches; on d7 only the move power.
    let p = warden_pos("4k3/3n4/4b3/2pW4/8/8/7K/8 w - - 0 1");
    let to_c5 = moves_to(&p, "c5");
    assert_eq!(to_c5.len(), 2);
    let (joins, takes): (Vec<Move>, Vec<Move>) = to_c5.iter().partition(|m| m.is_join());
    let (join, take) = (joins[0], takes[0]);
    assert_eq!(p.captured(take).map(|q| q.color), Some(Color::Black));
    assert_eq!(p.captured(join), None);
    assert_eq!(letters(&p.play(take), "c5"), "W");
    assert_eq!(p.play(take).piece_count(), p.piece_count() - 1);
    assert_eq!(letters(&p.play(join), "c5"), "Wp");
    assert_eq!(p.play(join).piece_count(), p.piece_count());
    let e6 = moves_to(&p, "e6");
    assert_eq!(e6.len(), 1);
    assert!(p.captured(e6[0]).is_some());
    let d7 = moves_to(&p, "d7");
    assert_eq!(d7.len(), 1);
    assert!(!d7[0].is_join(), "the only way to d7 is a plain move");
    assert_eq!(letters(&p.play(d7[0]), "d7"), "Wn");

    // Notation: the capture as before; the join with a trailing `&` in SAN
    // and in coordinates. Both read back, the join also without its mark.
    assert_eq!(
        (notation::uci(&p, take), p.san(take)),
        ("d5c5".to_string(), "Wxc5".to_string())
    );
    assert_eq!(
        (notation::uci(&p, join), p.san(join)),
        ("d5c5&".to_string(), "Wc5&".to_string())
    );
    assert_eq!(notation::parse_uci(&p, "d5c5"), Ok(take));
    assert_eq!(notation::parse_uci(&p, "d5c5&"), Ok(join));
    assert_eq!(notation::parse_san(&p, "Wxc5"), Ok(take));
    assert_eq!(notation::parse_san(&p, "Wc5&"), Ok(join));
    assert_eq!(notation::parse_san(&p, "Wc5"), Ok(join));
    assert!(
        notation::parse_san(&p, "Wxc5&").is_err(),
        "a capture does not join"
    );
    assert!(
        notation::parse_san(&p, "We6&").is_err(),
        "only the capture reaches e6"
    );
    assert_eq!(notation::parse_san(&p, "Wd5-c5"), Ok(join));
    assert_eq!(notation::parse_san(&p, "WxP"), Ok(take));
    // Where only one way exists, nothing changes and `&` is refused.
    assert_eq!(
        (notation::uci(&p, d7[0]), p.san(d7[0])),
        ("d5d7".to_string(), "Wd7&+".to_string())
    );
    assert_eq!(
        (notation::uci(&p, e6[0]), p.san(e6[0])),
        ("d5e6".to_string(), "Wxe6".to_string())
    );
    for refused in ["d5d7&", "d5e6&", "d5c5&&", "d5&c5"] {
        assert!(notation::parse_uci(&p, refused).is_err(), "{refused}");
    }
}

#[test]
fn joining_out_of_a_mixed_crowd_names_the_piece() {
    let p = warden_pos("4k3/8/8/2n(WQb)4/8/8/7K/8 w - - 0 1");
    let mut out: Vec<(String, String)> = moves_to(&p, "c5")
        .into_iter()
        .map(|m| (notation::uci(&p, m), p.san(m)))
        .collect();
    out.sort();
    let pair = |u: &str, s: &str| (u.to_string(), s.to_string());
    assert_eq!(
        out,
        [
            pair("Qd5c5", "Qxc5"),
            pair("Wd5c5", "Wxc5"),
            pair("Wd5c5&", "Wc5&")
        ]
    );
    let join = notation::parse_uci(&p, "Wd5c5&").unwrap();
    assert_eq!(
        join.special,
        parity_rules::Special::Join(Some(p.variant().kind_by_letter('W').unwrap()))
    );
    assert_eq!(letters(&p.play(join), "c5"), "Wn");
    assert_eq!(letters(&p.play(join), "d5"), "Qb");
    // Only the Warden can join, so the letter may be left out; the capture needs it.
    assert_eq!(notation::parse_uci(&p, "d5c5&"), Ok(join));
    assert!(matches!(
        notation::parse_uci(&p, "d5c5"),
        Err(notation::NotationError::Ambiguous { .. })
    ));
}

#[test]
fn a_join_does_not_answer_a_check() {
    // The rook on e2 checks the king; joining it leaves it attacking from the crowd.
    let p = warden_pos("4k3/8/8/8/8/8/3Wr2K/8 w - - 0 1");
    assert!(p.is_check());
    let to_e2 = moves_to(&p, "e2");
    assert_eq!(to_e2.len(), 1);
    assert!(p.captured(to_e2[0]).is_some());
    assert!(notation::parse_uci(&p, "d2e2&").is_err());
}

#[test]
fn a_warden_joins_the_enemy_king_from_afar() {
    // Its move power reaches d8; from the crowd it guards every exit.
    let p = warden_pos("3k4/8/8/8/8/8/8/3WK3 w - - 0 1");
    let after = play(&p, "d1d8");
    assert_eq!(letters(&after, "d8"), "Wk");
    assert!(!after.is_check());
    assert_eq!(after.terminal(), Some(None));
}

#[test]
fn joins_replay_from_records() {
    let v = warden();
    let replay = |moves: &str| {
        let text = format!(
            "[Variant \"crowd-warden\"]\n[FEN \"4k3/3n4/4b3/2pW4/8/8/7K/8 w - - 0 1\"]\n{moves}\n"
        );
        let game = parity_rules::record::replay_with(
            v,
            &parity_rules::record::parse(&text).unwrap(),
            |_, _| {},
        );
        game.map(|g| match g {
            AnyGame::Crowd(g) => g,
            _ => panic!("family"),
        })
    };
    assert_eq!(
        letters(replay("1. Wc5 Nb6").unwrap().position(), "c5"),
        "Wp"
    );
    assert_eq!(
        letters(replay("1. d5c5& Nb6").unwrap().position(), "c5"),
        "Wp"
    );
    assert_eq!(
        letters(replay("1. Wxc5 Nb6").unwrap().position(), "c5"),
        "W"
    );
    assert_eq!(
        letters(replay("1. d5c5 Nb6").unwrap().position(), "c5"),
        "W"
    );
}

#[test]
fn insufficient_material_ends_the_game() {
    let outcome = |v: &'static Variant, fen: &str| {
        Game::new(CrowdPosition::from_fen(v, fen).unwrap()).outcome()
    };
    let dead = Some(Outcome::draw(Reason::InsufficientMaterial));
    for fen in [
        "k7/8/8/8/8/8/8/K7 w - - 0 1",
        "k7/8/8/8/8/8/8/KN6 w - - 0 1",
        "kb6/8/8/8/8/8/8/K7 b - - 0 1",
        // A minor sharing the enemy king's square changes nothing.
        "8/8/8/8/8/8/8/K(Bk)6 w - - 0 1",
        "8/8/8/8/8/8/8/(Kk)1N5 w - - 0 1",
    ] {
        assert_eq!(outcome(sin(), fen), dead, "{fen}");
    }
    for fen in [
        // Two minors, even bishops on one colour, and anything bigger play on.
        "k7/8/8/8/8/8/8/KNN5 w - - 0 1",
        "k1b5/8/8/8/8/8/8/KB6 w - - 0 1",
        "k7/8/8/8/8/8/8/KP6 w - - 0 1",
        "k7/8/8/8/8/8/8/KR6 w - - 0 1",
        // A minor in a crowd with its own king: not claimed.
        "k7/8/8/8/8/8/8/(KN)7 w - - 0 1",
    ] {
        assert_eq!(outcome(sin(), fen), None, "{fen}");
    }
    // The Warden is no minor.
    assert_eq!(outcome(warden(), "k7/8/8/8/8/8/8/KW6 w - - 0 1"), None);
    // A capture that leaves king and knight against king ends the game.
    let mut g = Game::new(pos("k7/8/8/8/8/8/1r6/KN6 w - - 0 1"));
    g.play(notation::parse_uci(g.position(), "a1b2").unwrap())
        .unwrap();
    assert_eq!(g.outcome(), dead);
    assert!(g
        .play(notation::parse_uci(g.position(), "a8b8").unwrap())
        .is_err());
    // The variant file may turn the rule off.
    let mut reg = Registry::builtin();
    let off = reg.add_text("off.toml", "id = \"sin-no-material\"\ninherits = \"safety-in-numbers\"\ninsufficient_material = false\n").unwrap();
    assert_eq!(outcome(off, "k7/8/8/8/8/8/8/KN6 w - - 0 1"), None);
}

/// FEN board of `pieces` (square index a1 = 0, letter), crowds where several share a square.
fn board(pieces: &[(usize, char)]) -> String {
    let mut rows = Vec::new();
    for rank in (0..8).rev() {
        let mut row = String::new();
        let mut empty = 0;
        for file in 0..8 {
            let here: String = pieces
                .iter()
                .filter(|p| p.0 == rank * 8 + file)
                .map(|p| p.1)
                .collect();
            if here.is_empty() {
                empty += 1;
                continue;
            }
            if empty > 0 {
                row.push_str(&empty.to_string());
                empty = 0;
            }
            row.push_str(&if here.len() > 1 {
                format!("({here})")
            } else {
                here
            });
        }
        if empty > 0 {
            row.push_str(&empty.to_string());
        }
        rows.push(row);
    }
    rows.join("/")
}

#[test]
fn king_and_minor_never_mate_a_bare_king_even_with_crowds() {
    // Every placement of two kings and at most one knight or bishop, crowds
    // included: none is checkmate, and the rule claims every one in which
    // the minor does not share its own king's square. By symmetry the white
    // king stays in the a1-d1-d4 triangle.
    let triangle = [0, 1, 2, 3, 9, 10, 11, 18, 19, 27];
    let mut checked = 0;
    for wk in triangle {
        for bk in 0..64 {
            for minor in [None, Some('N'), Some('B'), Some('n'), Some('b')] {
                for m in if minor.is_some() { 0..64 } else { 0..1 } {
                    let mut pieces = vec![(wk, 'K'), (bk, 'k')];
                    pieces.extend(minor.map(|c| (m, c)));
                    for side in ["w", "b"] {
                        let Ok(p) = CrowdPosition::from_fen(
                            sin(),
                            &format!("{} {side} - - 0 1", board(&pieces)),
                        ) else {
                            continue;
                        };
                        checked += 1;
                        assert!(
                            !(p.is_check() && p.legal_moves().is_empty()),
                            "mate: {}",
                            p.to_fen()
                        );
                        let own_king = minor.map(|c| if c.is_ascii_uppercase() { wk } else { bk });
                        assert_eq!(
                            p.insufficient_material(),
                            minor.is_none() || own_king != Some(m),
                            "{}",
                            p.to_fen()
                        );
                    }
                }
            }
        }
    }
    assert!(checked > 250_000, "{checked}");
}

/// Start positions of random play: (Warden variant?, FEN).
const ROOTS: &[(bool, &str)] = &[
    (
        false,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ),
    (
        false,
        "rnbq1bnr/pppppppp/8/8/8/5(Kk)2/PPPPPPPP/RNBQ1BNR w - - 0 1",
    ),
    (
        false,
        "rnbqkbnr/ppp2ppp/4p3/3pP3/3P4/8/PPP2PPP/RNBQKBNR b KQkq - 0 3",
    ),
    (false, "4k3/1P6/8/3(PPbn)4/8/8/p7/R3K2R w KQ - 0 1"),
    (
        false,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    ),
    (
        true,
        "rwbqkbwr/pppppppp/8/8/8/8/PPPPPPPP/RWBQKBWR w KQkq - 0 1",
    ),
    (
        true,
        "r3k2r/1w4P1/8/2n(WQb)p3/3w4/8/1p2P3/R3K2R w KQkq - 0 1",
    ),
    (true, "4k3/1P1w4/3(Pb)4/8/8/8/3(WNp)4/6K1 w - - 0 1"),
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, ..ProptestConfig::default() })]

    #[test]
    fn random_play_keeps_the_rules(root in 0..ROOTS.len(), seed in any::<u64>()) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let (with_wardens, fen) = ROOTS[root];
        let v = if with_wardens { warden() } else { sin() };
        let mut p = CrowdPosition::from_fen(v, fen).unwrap();
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
            // A join takes nothing: the mover stands in a crowd with the enemy.
            if mv.is_join() {
                prop_assert!(captured.is_none() && next.crowd_squares().contains(mv.to), "{:?} in {}", mv, p.to_fen());
            }
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
            let back = CrowdPosition::from_fen(v, &fen);
            prop_assert_eq!(back.as_ref(), Ok(&next), "{}", fen);
            prop_assert_eq!(back.unwrap().hash(), next.hash());
            p = next;
        }
    }
}

/// Positions where the masks have most to get right: a king sharing its
/// square with one piece of its own while a rider aims at it, pins, checks
/// from crowds, en passant beside the king.
const MASK_ROOTS: &[(bool, &str)] = &[
    (false, "4k3/8/8/8/8/8/8/r2(KN)3R w - - 0 1"),
    (false, "4k3/4r3/8/8/1b6/8/3PB3/4K3 w - - 0 1"),
    (false, "3rk3/8/8/(qp)7/8/8/2PN4/1(RB)2K2R w K - 0 1"),
    (false, "8/8/8/K2pP2r/8/8/8/7k w - d6 0 1"),
    (false, "8/8/8/(KN)2pP2r/8/8/8/7k w - d6 0 1"),
    (false, "4k3/8/8/8/1(rn)6/8/2P5/(BK)6R w - - 0 1"),
    (true, "3k4/8/8/8/8/3(wr)4/8/3WK3 w - - 0 1"),
    // The knight may not leave the king alone on the rook's rank, not even
    // to join c3.
    (false, "4k3/8/8/8/8/2(Pp)5/8/r2(KN)3R w - - 0 1"),
];

#[test]
fn a_block_does_not_stop_a_leaper_checking_from_the_same_crowd() {
    // A rook and a Dabbaba (a (2,0) leaper) in one crowd on e3 check the
    // king on e1: the bishop's block on e2 stops the rook alone.
    let v = Registry::builtin()
        .add_text(
            "crowd-dabbaba.toml",
            "id = \"crowd-dabbaba\"\ninherits = \"safety-in-numbers\"\n\
             name = \"Safety in Numbers with Dabbabas\"\n\
             [[pieces]]\nletter = \"D\"\nname = \"Dabbaba\"\nbetza = \"D\"\nvalue = 200\n",
        )
        .unwrap_or_else(|e| panic!("{e}"));
    let p = CrowdPosition::from_fen(v, "4k3/8/8/8/8/4(rd)3/8/4KB2 w - - 0 1").unwrap();
    assert!(p.is_check());
    let moves = p.legal_moves();
    assert_eq!(moves, p.legal_moves_each_tried());
    assert!(moves.iter().all(|m| m.from == sq("e1")), "{moves:?}");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    /// The mask-based generator finds exactly the moves (and in the same
    /// order) that playing every pseudo-legal move and looking at the king
    /// finds, and so do its count and its captures-only list.
    #[test]
    fn masks_find_the_moves_playing_finds(root in 0..ROOTS.len() + MASK_ROOTS.len(), seed in any::<u64>()) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let (with_wardens, fen) = ROOTS.iter().chain(MASK_ROOTS).nth(root).copied().unwrap();
        let v = if with_wardens { warden() } else { sin() };
        let mut p = CrowdPosition::from_fen(v, fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        for _ in 0..100 {
            let tried = p.legal_moves_each_tried();
            prop_assert_eq!(&p.legal_moves(), &tried, "{}", p.to_fen());
            prop_assert_eq!(p.count_legal_moves(), tried.len() as u64, "{}", p.to_fen());
            let noisy: Vec<Move> = tried
                .iter()
                .copied()
                .filter(|&m| m.promotion.is_some() || p.captured(m).is_some())
                .collect();
            let mut fast = Vec::new();
            p.legal_moves_into(&mut fast, true);
            prop_assert_eq!(fast, noisy, "{}", p.to_fen());
            if tried.is_empty() {
                break;
            }
            p = p.play(tried[(rng.next_u64() % tried.len() as u64) as usize]);
        }
    }
}
