//! Move text in SAN and coordinates against a few fixed positions. The first
//! byte picks the position (modulo the list; for a simultaneous position the
//! next multiple picks the side), the rest is the move. Never panics; a move
//! that is read must be legal, and its SAN and coordinates read back as the
//! same move. Crowd positions include the test variant with the Warden
//! (`crates/rules/tests/data/crowd-warden.toml`), whose joins are `d5c5&`.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use parity_rules::TurnPosition;
use parity_rules::crowd::CrowdPosition;
use parity_rules::notation::{self, MoveContext};
use parity_rules::simultaneous::SimPosition;
use parity_rules::variant::Family;
use parity_rules::{fen, Color, Move, Position, Registry};

/// Start positions plus positions with castling, en passant, promotions and
/// shared squares on the board, a few per variant.
const FENS: &[(&str, &str)] = &[
    ("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
    ("chess", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
    ("chess", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1"),
    ("chess", "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1"),
    ("chess", "1k6/4P3/8/8/8/8/K7/R6R w - - 0 1"),
    ("tutti-frutti", "enbakqsr/pppppppp/8/8/8/8/PPPPPPPP/ENBAKQSR w KQkq - 0 1"),
    ("tutti-frutti", "en2kqsr/1bpppppp/p7/8/1P6/7R/P1PPPPP1/ENBAKQ2 b Qkq - 0 5"),
    ("tutti-frutti", "2b3q1/1P2kp2/8/8/5n2/8/2KBr3/8 b - - 1 35"),
    ("parity12", "rnbfcqkcfbnr/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/RNBFCQKCFBNR w KQkq - 0 1"),
    ("parity12", "r3k6r/12/12/12/12/12/12/R3K6R w KQkq - 0 1"),
    ("parity12", "r4k1f2n1/p5p3p1/2n2c6/1p2p1b5/1p2PQ3P2/3P3P3r/P1P4P4/RN1C3KF3 w - - 1 30"),
    ("parity12", "6k5/2P9/12/12/12/12/9p2/6K5 w - - 0 1"),
    // Simultaneous variants: no side to move; ' marks last-moved pieces,
    // (Pp) a square shared by a white and a black piece.
    ("parity", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR KQkq - 0 1"),
    ("parity", "1nb1k1nr/rp1p2pp/2p'5/p3N(Pp)q1/1b5P/1Q'P5/PP1PP1P1/RNB1KB1R KQk - 0 8"),
    ("parity-single", "r2qkb1r/pbpppppp/2n2n2/1(P'p')6/6P1/5P2/P1PPP2P/RNBQKBNR KQkq - 0 6"),
    ("move-neutral", "2r'q1k2/2pp2p1/1pb1p3/pB3pP1/1P3P1(Pp)/B'3P3/P1P5/RN2K1N1 Q - 1 21"),
    // Crowd variants: a Warden that may take or join its neighbours, one in
    // a mixed crowd, en passant out of a mixed crowd, both kings in a crowd.
    ("crowd-warden", "4k3/3n4/4b3/2pW4/8/8/7K/8 w - - 0 1"),
    ("crowd-warden", "4k3/8/8/2n(WQb)4/8/8/7K/8 w - - 0 1"),
    ("safety-in-numbers", "4k3/8/8/8/4(Pbp)P2/8/8/4K3 b - f3 0 1"),
    ("safety-in-numbers", "rnbq1bnr/pppppppp/8/8/8/5(Kk)2/PPPPPPPP/RNBQ1BNR w - - 0 1"),
];

enum Spot {
    Turn(Position),
    Sim(SimPosition),
    Crowd(CrowdPosition),
}

fn spots() -> &'static [Spot] {
    static SPOTS: OnceLock<Vec<Spot>> = OnceLock::new();
    SPOTS.get_or_init(|| {
        let mut reg = Registry::builtin();
        reg.add_text("crowd-warden.toml", include_str!("../../crates/rules/tests/data/crowd-warden.toml")).expect("test variant");
        FENS.iter()
            .map(|(id, text)| {
                let v = reg.get(id).unwrap_or_else(|| panic!("no variant {id}"));
                match v.spec.family {
                    Family::Simultaneous => Spot::Sim(SimPosition::from_fen(v, text).unwrap_or_else(|e| panic!("{text}: {e}"))),
                    Family::Crowd => Spot::Crowd(CrowdPosition::from_fen(v, text).unwrap_or_else(|e| panic!("{text}: {e}"))),
                    Family::TurnBased => Spot::Turn(fen::parse_position(v, text).unwrap_or_else(|e| panic!("{text}: {e}"))),
                }
            })
            .collect()
    })
}

fn check<C: MoveContext + ?Sized>(ctx: &C, text: &str, san: impl Fn(Move) -> String, fen: &dyn Fn() -> String) {
    let legal = ctx.legal();
    for (how, parsed) in [("SAN", notation::parse_san(ctx, text)), ("UCI", notation::parse_uci(ctx, text))] {
        let Ok(mv) = parsed else { continue };
        assert!(legal.contains(&mv), "{how} {text:?} read as the illegal move {mv:?} in {}", fen());
        let s = san(mv);
        assert_eq!(notation::parse_san(ctx, &s), Ok(mv), "{how} {text:?}: SAN {s:?} does not read back in {}", fen());
        let u = notation::uci(ctx, mv);
        assert_eq!(notation::parse_uci(ctx, &u), Ok(mv), "{how} {text:?}: UCI {u:?} does not read back in {}", fen());
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else { return };
    let Ok(text) = std::str::from_utf8(rest) else { return };
    let n = FENS.len();
    match &spots()[pick as usize % n] {
        Spot::Turn(pos) => check(pos, text, |mv| pos.san(mv), &|| fen::write(pos)),
        Spot::Crowd(pos) => check(pos, text, |mv| pos.san(mv), &|| pos.to_fen()),
        Spot::Sim(pos) => {
            let color = if (pick as usize / n) % 2 == 0 { Color::White } else { Color::Black };
            let side = pos.side(color);
            check(&side, text, |mv| notation::san_plain(&side, mv), &|| format!("{} ({color:?})", pos.to_fen()));
        }
    }
});
