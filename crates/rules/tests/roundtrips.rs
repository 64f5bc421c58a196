//! Property tests: FEN and move notation round-trip on positions reached by
//! random legal play, and the text parsers never panic on garbage.
//!
//! Positions start from every built-in variant's start position and from the
//! perft suite positions (castling, en passant and promotions within reach),
//! then play up to `MAX_PLIES` random legal moves chosen from a seed.
//! Set `PROPTEST_CASES` to run more cases than the defaults below.

use parity_rules::variant::Family;
use parity_rules::TurnPosition;
use parity_rules::{betza, fen, notation, Move, Position, Registry, Variant};
use proptest::prelude::*;
use proptest::test_runner::Config;
use rand_chacha::rand_core::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const MAX_PLIES: usize = 40;

/// Start FENs to play from: each built-in start plus the perft suites' positions.
fn roots() -> &'static [(&'static Variant, String)] {
    static ROOTS: std::sync::OnceLock<Vec<(&'static Variant, String)>> = std::sync::OnceLock::new();
    ROOTS.get_or_init(|| {
        let reg = Registry::builtin();
        let turn_based = reg.iter().filter(|v| v.spec.family == Family::TurnBased);
        let mut out: Vec<(&'static Variant, String)> =
            turn_based.map(|v| (v, v.spec.start_fen.clone())).collect();
        let suites = [
            include_str!("perft/chess.tsv"),
            include_str!("perft/tutti-frutti.tsv"),
            include_str!("perft/parity12.tsv"),
        ];
        for line in suites
            .iter()
            .flat_map(|s| s.lines())
            .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        {
            let mut cols = line.split('\t');
            let (Some(id), Some(fen)) = (cols.next(), cols.next()) else {
                continue;
            };
            let v = reg
                .get(id)
                .unwrap_or_else(|| panic!("perft suite names unknown variant {id}"));
            out.push((v, fen.to_string()));
        }
        assert!(out.len() > 3, "perft suites gave no positions");
        out
    })
}

/// The next choice from a seeded generator.
fn next(state: &mut ChaCha8Rng) -> u64 {
    state.next_u64()
}

/// Every position of a random game: the root first, then one per ply played.
fn random_game(root: usize, seed: u64, plies: usize) -> Vec<Position> {
    let (v, fen) = &roots()[root];
    let mut pos = fen::parse_position::<u128>(v, fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let mut state = ChaCha8Rng::seed_from_u64(seed);
    let mut out = vec![pos];
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        pos = pos.play(moves[(next(&mut state) % moves.len() as u64) as usize]);
        out.push(pos);
    }
    out
}

fn game_strategy() -> impl Strategy<Value = (usize, u64, usize)> {
    (0..roots().len(), any::<u64>(), 0..=MAX_PLIES)
}

fn cases(n: u32) -> Config {
    // PROPTEST_CASES in the environment still overrides this default.
    Config {
        cases: n,
        ..Config::default()
    }
}

proptest! {
    #![proptest_config(cases(2048))]

    #[test]
    fn fen_round_trips((root, seed, plies) in game_strategy()) {
        for pos in random_game(root, seed, plies) {
            let text = fen::write(&pos);
            let back = fen::parse_position::<u128>(pos.variant(), &text);
            prop_assert_eq!(&back, &Ok(pos), "{} reading back {}", pos.variant().id(), text);
            let back = back.unwrap();
            prop_assert_eq!(fen::write(&back), text.clone());
            // The hash kept up move by move must match the one computed from scratch.
            prop_assert_eq!(back.hash(), pos.hash(), "hash of {}", text);
            let setup = fen::parse_setup(pos.variant(), &text);
            prop_assert_eq!(setup, Ok(pos.to_setup()), "setup of {}", text);
        }
    }
}

proptest! {
    #![proptest_config(cases(512))]

    #[test]
    fn san_and_uci_round_trip((root, seed, plies) in game_strategy()) {
        for pos in random_game(root, seed, plies) {
            let moves = pos.legal_moves();
            let mut sans: Vec<String> = Vec::with_capacity(moves.len());
            for &mv in &moves {
                let s = pos.san(mv);
                prop_assert_eq!(notation::parse_san(&pos, &s), Ok(mv), "SAN `{}` in {:?}", s, pos);
                let u = notation::uci(&pos, mv);
                prop_assert_eq!(notation::parse_uci(&pos, &u), Ok(mv), "UCI `{}` in {:?}", u, pos);
                sans.push(s);
            }
            sans.sort();
            let n = sans.len();
            sans.dedup();
            prop_assert_eq!(sans.len(), n, "two moves share a SAN in {:?}", pos);
        }
    }
}

/// Text that looks like a FEN: a real board with random other fields, a
/// real FEN with a few characters replaced, inserted or deleted, the right
/// letters in any order, or anything at all.
fn fen_like() -> impl Strategy<Value = String> {
    let real = || (0..roots().len()).prop_map(|i| roots()[i].1.clone());
    let board = real().prop_map(|f| f.split(' ').next().unwrap_or_default().to_string());
    prop_oneof![
        (
            board,
            "[wb]",
            or_plain("-", "[KQkqA-Pa-pX]{1,4}"),
            or_plain("-", "[a-p][0-9]{1,2}"),
            "[0-9]{1,3}",
            "[0-9]{1,11}"
        )
            .prop_map(|(b, s, c, e, h, f)| format!("{b} {s} {c} {e} {h} {f}")),
        (
            real(),
            prop::collection::vec(
                (any::<prop::sample::Index>(), "[rnbkpRNBKPfcFC0-9/ wb\\-é]?"),
                1..3
            )
        )
            .prop_map(splice),
        "[rnbqkpaescfRNBQKPAESCFx0-9/ wb\\-]{0,90}",
        any::<String>(),
    ]
}

/// Text that looks like a move in either notation: a real SAN or coordinate
/// move of some test position with a little noise, or made-up text.
fn move_like() -> impl Strategy<Value = String> {
    let real = (
        0..roots().len(),
        any::<prop::sample::Index>(),
        any::<bool>(),
    )
        .prop_map(|(i, pick, as_san)| {
            let pos = notation_positions()[i];
            let moves = pos.legal_moves();
            let mv = moves[pick.index(moves.len())];
            if as_san {
                pos.san(mv)
            } else {
                notation::uci(&pos, mv)
            }
        });
    prop_oneof![
        (real.clone(), "[ x=+#!?:0-9a-pA-Z\\-]{0,2}", "[ ]{0,1}")
            .prop_map(|(m, suffix, prefix)| format!("{prefix}{m}{suffix}")),
        (
            real,
            prop::collection::vec((any::<prop::sample::Index>(), "[a-pA-Z0-9x=\\-]?"), 1..3)
        )
            .prop_map(splice),
        "[KQRBNPAESCFa-p1-9O0x=+#@:\\-]{0,9}",
        "[a-p][0-9]{1,2}[a-p][0-9]{1,2}([a-p][0-9]{1,2}|[qrbnaescfk])?",
        "[NBRQKAESCF]?[a-p]?[0-9]?x?[a-p][0-9]{1,2}(=[A-Z])?[+#]?",
        "(O|0)-(O|0)(-(O|0))?(@[a-p][0-9]{1,2})?[+#]?",
        any::<String>(),
    ]
}

/// Variant files with a few edits, made-up files inheriting a built-in, or
/// arbitrary text.
fn toml_like() -> impl Strategy<Value = String> {
    let real = prop::sample::select(
        parity_rules::registry::BUILTIN
            .iter()
            .map(|(_, text)| text.to_string())
            .collect::<Vec<_>>(),
    );
    let inherited = (
        or_plain("chess", "tutti-frutti|parity12|nope"),
        or_plain("", "castling = \"(free|standard|none)\"\n"),
        or_plain("", "castling_partners = \\[(\"[A-Z]\", ?){0,3}\\]\n"),
        or_plain("", "castling_king_files = \\[\"[a-q]\", \"[a-q]\"\\]\n"),
        or_plain("", "(files|ranks) = [0-9]{1,2}\n"),
        or_plain("", "promotion = \\[(\"[A-Z]\", ?){0,3}\\]\n"),
        "[A-Z]",
        "[WFDNAHCLZJGKRBQ]|[mceinfblrvsh]{0,3}[WFDNAHCLZJGKRBQ]{1,2}[0-9]?([mceinfblrvsh]{0,2}[WFDNAHCLZJGKRBQ]{1,2}){0,2}",
        or_plain("", "royal = true\n|pawn = true\n|minor = true\n"),
    )
        .prop_map(|(parent, castling, partners, king_files, size, promotion, letter, betza, flag)| {
            format!(
                "id = \"x\"\ninherits = \"{parent}\"\n{castling}{partners}{king_files}{size}{promotion}\
                 [[pieces]]\nletter = \"{letter}\"\nname = \"n\"\nbetza = \"{betza}\"\n{flag}"
            )
        });
    prop_oneof![
        (
            real,
            prop::collection::vec(
                (
                    any::<prop::sample::Index>(),
                    "[a-zA-Z0-9\"=\\[\\], \n#.\\-]{0,3}|é"
                ),
                1..3
            )
        )
            .prop_map(splice),
        inherited,
        any::<String>(),
    ]
}

/// Mostly `plain`, sometimes a string matching `regex`.
fn or_plain(plain: &'static str, regex: &'static str) -> impl Strategy<Value = String> {
    prop_oneof![3 => Just(plain.to_string()), 1 => regex]
}

/// Replaces the character at each chosen position by the given text (an
/// empty replacement deletes it).
fn splice((base, edits): (String, Vec<(prop::sample::Index, String)>)) -> String {
    let mut chars: Vec<String> = base.chars().map(String::from).collect();
    for (at, with) in edits {
        if chars.is_empty() {
            chars.push(with);
        } else {
            let i = at.index(chars.len());
            chars[i] = with;
        }
    }
    chars.concat()
}

/// A few positions per variant for the move parsers to work in.
fn notation_positions() -> &'static [Position] {
    static POSITIONS: std::sync::OnceLock<Vec<Position>> = std::sync::OnceLock::new();
    POSITIONS.get_or_init(|| {
        roots()
            .iter()
            .map(|(v, fen)| fen::parse_position::<u128>(v, fen).unwrap())
            .collect()
    })
}

proptest! {
    #![proptest_config(cases(2048))]

    #[test]
    fn fen_garbage_never_panics(text in fen_like()) {
        for v in Registry::builtin().iter() {
            let pos = fen::parse_position::<u128>(v, &text);
            // parse_position is parse_setup followed by validation.
            let expected = fen::parse_setup(v, &text).and_then(|s| Ok(Position::from_setup(v, &s)?));
            prop_assert_eq!(&pos, &expected, "{:?}", text);
            if let Ok(pos) = pos {
                // Whatever was accepted writes out and reads back unchanged.
                let written = fen::write(&pos);
                prop_assert_eq!(fen::parse_position::<u128>(v, &written), Ok(pos), "{:?} written as {}", text, written);
                let _ = pos.legal_moves();
            }
        }
    }

    #[test]
    fn move_garbage_never_panics(text in move_like()) {
        for pos in notation_positions() {
            let legal = pos.legal_moves();
            for mv in [notation::parse_san(pos, &text), notation::parse_uci(pos, &text)].into_iter().flatten() {
                prop_assert!(legal.contains(&mv), "{:?} read as illegal {:?} in {:?}", text, mv, pos);
            }
        }
    }

    #[test]
    fn betza_garbage_never_panics(text in prop_oneof!["[WFDNAHCLZJGKRBQmceinfblrvsh0-9]{0,10}", any::<String>()]) {
        let _ = betza::parse(&text);
    }
}

proptest! {
    #![proptest_config(cases(1024))]

    #[test]
    fn variant_garbage_never_panics(text in toml_like()) {
        let reg = Registry::builtin();
        if let Ok(v) = reg.resolve("fuzz.toml", &text) {
            // An accepted variant has a usable start position.
            if v.spec.family == Family::Simultaneous {
                let start = parity_rules::simultaneous::SimPosition::start(v);
                for side in [parity_rules::Color::White, parity_rules::Color::Black] {
                    for mv in start.legal_moves(side) {
                        let _ = notation::uci(&start.side(side), mv);
                    }
                }
                return Ok(());
            }
            if v.spec.family == Family::Crowd {
                let start = parity_rules::crowd::CrowdPosition::start(v);
                for mv in start.legal_moves() {
                    let _ = notation::uci(&start, mv);
                }
                return Ok(());
            }
            let start = Position::<u128>::start(v);
            let moves: Vec<Move> = start.legal_moves();
            prop_assert_eq!(moves.len() as u64, start.count_legal_moves());
            for mv in moves {
                let _ = start.san(mv);
                let _ = start.play(mv);
            }
        }
    }
}

/// The properties above must be able to fail: a broken round trip is caught.
#[test]
fn properties_detect_breakage() {
    let chess = Registry::builtin().get("chess").unwrap();
    let pos = fen::parse_position::<u128>(chess, "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1").unwrap();
    // Dropping the en passant field gives a different position.
    let without_ep =
        fen::parse_position::<u128>(chess, "4k3/8/8/8/3pP3/8/8/4K3 b - - 0 1").unwrap();
    assert_ne!(without_ep, pos);
    // A SAN without disambiguation does not read back as one move.
    let pos = fen::parse_position::<u128>(chess, "1k6/8/8/8/8/8/K7/R6R w - - 0 1").unwrap();
    assert!(notation::parse_san(&pos, "Rd1").is_err());
    // The random games do reach castling, en passant and promotion.
    let (mut castles, mut en_passant, mut promotions) = (0, 0, 0);
    for root in 0..roots().len() {
        for seed in 0..20 {
            for pos in random_game(root, seed, MAX_PLIES) {
                for mv in pos.legal_moves() {
                    castles += mv.is_castle() as u32;
                    en_passant += (mv.special == parity_rules::Special::EnPassant) as u32;
                    promotions += mv.promotion.is_some() as u32;
                }
            }
        }
    }
    assert!(
        castles > 0 && en_passant > 0 && promotions > 0,
        "castles {castles}, en passant {en_passant}, promotions {promotions}"
    );
}
