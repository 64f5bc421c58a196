//! Property tests of the simultaneous variants (`parity`, `parity-single`,
//! `move-neutral`): random games of turns (one legal move per side, chosen
//! from a seed) from each variant's start and from hand-made positions with
//! shared squares, last-moved markers, en passant and castling rights.
//! After each turn:
//! (a) no piece is lost or duplicated except by a successful capture (a
//!     promotion changes a pawn's kind only);
//! (b) no square holds two pieces of one colour, and every shared square
//!     holds exactly one piece of each colour;
//! (c) a move outside `legal_moves(color)` is always refused with
//!     `SimError::Illegal` naming that side and giving a reason;
//! (d) every position reads back from its own FEN;
//! (e) colour symmetry: mirroring the board and swapping colours mirrors
//!     the legal moves and the resolution of every turn;
//! (f) the legal moves found with the pin shortcut are those found by
//!     trying every move, and `has_legal_move` and `legal_move_count`
//!     agree with them;
//! (g) `play_unchecked` (no notes) gives the position `resolve` gives,
//!     for every pair of legal moves of the positions of a random game;
//! (h) `for_each_threat_of_any_kind` reports what `for_each_threat` does
//!     kind by kind.
//! Set `PROPTEST_CASES` to run more cases than the defaults below.

use parity_rules::simultaneous::{SideNotes, SimError, SimPosition, Turn};
use parity_rules::variant::Family;
use parity_rules::{Bitboard, Color, Kind, Move, Registry, Special, Square, Variant};
use proptest::prelude::*;
use proptest::test_runner::Config;
use rand_chacha::rand_core::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const MAX_TURNS: usize = 50;
const W: Color = Color::White;
const B: Color = Color::Black;

/// Hand-made positions, played in each simultaneous variant.
const EXTRA_FENS: &[&str] = &[
    // Two shared squares, castling rights on both sides.
    "r3k2r/ppp2ppp/2n1b3/3(Qq)4/3(Pp)4/2N1B3/PPP2PPP/R3K2R KQkq - 0 8",
    // Just after black's double step f7-f5 next to White's e5 pawn.
    "rnbqkbnr/ppp1p1pp/8/3pPp'2/8/8/PPPP1PPP/RNBQKBNR KQkq f6 0 3",
    // A king sharing its square, pawns about to promote, last-moved markers.
    "4k3/1P4p1/8/3(K'n')4/8/8/6p1/4R3 - - 0 20",
    // White in immediate check from a stationary rook, kingside castling right.
    "4k3/pp6/8/4r3/8/8/PP6/4K2R K - 0 10",
    // Knights sharing f3; Black just double-stepped next to White's d5 pawn.
    "r1bqkb1r/pppp1ppp/8/3P'p'3/8/5(Nn)2/PPP2PPP/RNBQKB1R KQkq e6 0 4",
    // Kings next to each other, both last-moved (mutual delayed check).
    "8/pp6/8/3k'4/3K'4/8/PP6/8 - - 0 12",
    // A knight pinned on a diagonal, a bishop on a file.
    "4k3/4r3/8/b7/8/8/3NB3/4K3 - - 0 10",
];

fn roots() -> &'static [(&'static Variant, String)] {
    static ROOTS: std::sync::OnceLock<Vec<(&'static Variant, String)>> = std::sync::OnceLock::new();
    ROOTS.get_or_init(|| {
        let reg = Registry::builtin();
        let sims: Vec<&'static Variant> = reg
            .iter()
            .filter(|v| v.spec.family == Family::Simultaneous)
            .collect();
        for id in ["parity", "parity-single", "move-neutral"] {
            assert!(
                sims.iter().any(|v| v.id() == id),
                "{id} is not a built-in simultaneous variant"
            );
        }
        let mut out = Vec::new();
        for &v in &sims {
            out.push((v, v.spec.start_fen.clone()));
            for fen in EXTRA_FENS {
                SimPosition::from_fen(v, fen).unwrap_or_else(|e| panic!("{} {fen}: {e}", v.id()));
                out.push((v, fen.to_string()));
            }
        }
        out
    })
}

/// The next choice from a seeded generator.
fn next(state: &mut ChaCha8Rng) -> u64 {
    state.next_u64()
}

fn pick<T: Copy>(state: &mut ChaCha8Rng, items: &[T]) -> T {
    items[(next(state) % items.len() as u64) as usize]
}

/// One turn of a random game: the position before, the moves, the result.
struct Step {
    before: SimPosition,
    moves: [Move; 2],
    turn: Turn,
}

/// Plays up to `turns` random turns; stops when the game is decided or a
/// side has no legal move.
fn random_game(root: usize, seed: u64, turns: usize) -> (SimPosition, Vec<Step>) {
    let (v, fen) = &roots()[root];
    let start = SimPosition::from_fen(v, fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let mut state = ChaCha8Rng::seed_from_u64(seed);
    let mut pos = start;
    let mut steps = Vec::new();
    for _ in 0..turns {
        if pos.outcome().is_some() {
            break;
        }
        let (white, black) = (pos.legal_moves(W), pos.legal_moves(B));
        if white.is_empty() || black.is_empty() {
            break;
        }
        let moves = [pick(&mut state, &white), pick(&mut state, &black)];
        let turn = pos
            .resolve(moves[0], moves[1])
            .unwrap_or_else(|e| panic!("{pos:?} {moves:?}: legal moves refused: {e}"));
        steps.push(Step {
            before: pos,
            moves,
            turn,
        });
        pos = turn.position;
    }
    (start, steps)
}

fn kinds(v: &Variant) -> impl Iterator<Item = Kind> {
    (0..v.kinds.len()).map(|k| Kind(k as u8))
}

fn counts(p: &SimPosition, c: Color) -> Vec<i64> {
    kinds(p.variant())
        .map(|k| p.pieces(c, k).count() as i64)
        .collect()
}

/// (b) One piece per colour per square; shared squares hold one of each.
fn check_occupancy(p: &SimPosition) -> Result<(), String> {
    let v = p.variant();
    for c in [W, B] {
        let mut union = Bitboard::EMPTY;
        for k in kinds(v) {
            let bb = p.pieces(c, k);
            if (union & bb).any() {
                return Err(format!("{p:?}: two {c:?} pieces share a square"));
            }
            union |= bb;
        }
        if union != p.by_color(c) {
            return Err(format!("{p:?}: {c:?} occupancy disagrees with its pieces"));
        }
        if p.pieces(c, v.royal).count() != 1 {
            return Err(format!("{p:?}: {c:?} does not have exactly one king"));
        }
    }
    if p.shared() != (p.by_color(W) & p.by_color(B)) {
        return Err(format!("{p:?}: shared() is not the overlap of the colours"));
    }
    for sq in p.shared() {
        for c in [W, B] {
            let here = kinds(v).filter(|&k| p.pieces(c, k).contains(sq)).count();
            if here != 1 {
                return Err(format!(
                    "{p:?}: shared square {sq:?} holds {here} {c:?} pieces"
                ));
            }
        }
    }
    Ok(())
}

/// (a) Piece counts per colour and kind: only captures remove, only promotion changes kind.
fn check_conservation(step: &Step) -> Result<(), String> {
    let (before, after) = (&step.before, &step.turn.position);
    for c in [W, B] {
        let mut expected = counts(before, c);
        let notes: SideNotes = step.turn.notes[c];
        let theirs: SideNotes = step.turn.notes[c.other()];
        if let Some(k) = theirs.captured {
            expected[k.index()] -= 1;
        }
        if let Some(p) = notes.promotion {
            let mover = before
                .kind_at(c, step.moves[c.index()].from)
                .ok_or("no mover")?;
            expected[mover.index()] -= 1;
            expected[p.index()] += 1;
        }
        let got = counts(after, c);
        if got != expected {
            return Err(format!(
                "{before:?} {:?} -> {after:?}: {c:?} counts {got:?}, expected {expected:?} (notes {:?})",
                step.moves, step.turn.notes
            ));
        }
        if notes.captured.is_some() && notes.failed_capture {
            return Err(format!(
                "{before:?} {:?}: capture both succeeded and failed",
                step.moves
            ));
        }
    }
    Ok(())
}

/// (d) The FEN round trip.
fn check_fen(p: &SimPosition) -> Result<(), String> {
    let fen = p.to_fen();
    match SimPosition::from_fen(p.variant(), &fen) {
        Ok(q) if q == *p => Ok(()),
        Ok(q) => Err(format!("{fen} reads back as a different position {q:?}")),
        Err(e) => Err(format!("{fen} does not read back: {e}")),
    }
}

/// Moves that may or may not be legal for `color`: random squares, the other
/// side's moves, moves of waiting pieces, legal moves with a wrong
/// special or promotion.
fn candidates(p: &SimPosition, color: Color, state: &mut ChaCha8Rng) -> Vec<Move> {
    let v = p.variant();
    let n = v.shape.len() as u64;
    let sq = |state: &mut ChaCha8Rng| Square((next(state) % n) as u8);
    let mut out = Vec::new();
    for _ in 0..6 {
        out.push(Move::new(sq(state), sq(state)));
    }
    let own = p.by_color(color);
    let own_squares: Vec<Square> = own.into_iter().collect();
    for _ in 0..6 {
        out.push(Move::new(pick(state, &own_squares), sq(state)));
    }
    for from in p.last_moved(color) | p.shared() {
        out.push(Move::new(from, sq(state)));
    }
    let theirs = p.legal_moves(color.other());
    for _ in 0..3.min(theirs.len()) {
        out.push(pick(state, &theirs));
    }
    let mine = p.legal_moves(color);
    let kinds: Vec<Kind> = kinds(v).collect();
    for _ in 0..4.min(mine.len()) {
        let m = pick(state, &mine);
        let bent = match next(state) % 5 {
            0 => Move {
                special: Special::EnPassant,
                ..m
            },
            1 => Move {
                special: Special::DoubleStep,
                ..m
            },
            2 => Move {
                special: Special::None,
                ..m
            },
            3 => Move {
                promotion: Some(pick(state, &kinds)),
                ..m
            },
            _ => Move {
                special: Special::Castle {
                    rook_from: sq(state),
                    rook_to: sq(state),
                },
                ..m
            },
        };
        out.push(bent);
    }
    out
}

/// (c) Every candidate outside the legal list is refused, naming its side.
fn check_refusals(p: &SimPosition, state: &mut ChaCha8Rng) -> Result<(), String> {
    for color in [W, B] {
        let others = p.legal_moves(color.other());
        let Some(&partner) = others.first() else {
            continue;
        };
        let legal = p.legal_moves(color);
        for m in candidates(p, color, state) {
            if legal.contains(&m) {
                continue;
            }
            let (white, black) = if color == W {
                (m, partner)
            } else {
                (partner, m)
            };
            match p.resolve(white, black) {
                Err(SimError::Illegal { side, reason })
                    if side == color && !reason.trim().is_empty() => {}
                other => {
                    return Err(format!(
                        "{p:?}: {color:?} {m:?} is not legal, but resolve gave {other:?}"
                    ))
                }
            }
        }
    }
    Ok(())
}

// ---- (e) colour symmetry ----------------------------------------------------

fn flip(v: &Variant, sq: Square) -> Square {
    v.shape.flip_rank(sq)
}

fn mirror_move(v: &Variant, m: Move) -> Move {
    let special = match m.special {
        Special::Castle { rook_from, rook_to } => Special::Castle {
            rook_from: flip(v, rook_from),
            rook_to: flip(v, rook_to),
        },
        s => s,
    };
    Move {
        from: flip(v, m.from),
        to: flip(v, m.to),
        promotion: m.promotion,
        special,
    }
}

fn swap_case(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii_uppercase() {
                c.to_ascii_lowercase()
            } else {
                c.to_ascii_uppercase()
            }
        })
        .collect()
}

/// The position with ranks reversed and colours swapped.
fn mirror(p: &SimPosition) -> SimPosition {
    let v = p.variant();
    let fen = p.to_fen();
    let fields: Vec<&str> = fen.split(' ').collect();
    let board: Vec<String> = fields[0]
        .split('/')
        .rev()
        .map(|row| {
            let mut out = String::new();
            let mut rest = row;
            while let Some(c) = rest.chars().next() {
                if c == '(' {
                    let close = rest.find(')').expect("closed group");
                    let inner = &rest[1..close];
                    let split = inner[1..]
                        .find(|ch: char| ch.is_ascii_alphabetic())
                        .expect("two letters")
                        + 1;
                    // White first: the old black piece becomes the new white one.
                    out.push('(');
                    out.push_str(&swap_case(&inner[split..]));
                    out.push_str(&swap_case(&inner[..split]));
                    out.push(')');
                    rest = &rest[close + 1..];
                } else {
                    out.push_str(&swap_case(&c.to_string()));
                    rest = &rest[c.len_utf8()..];
                }
            }
            out
        })
        .collect();
    let castling = if fields[1] == "-" {
        "-".to_string()
    } else {
        swap_case(fields[1])
    };
    let ep = if fields[2] == "-" {
        "-".to_string()
    } else {
        let squares: Vec<String> = fields[2]
            .split(',')
            .map(|s| {
                v.shape
                    .name(flip(v, v.shape.parse_square(s).expect("square")))
                    .to_string()
            })
            .collect();
        squares.join(",")
    };
    let text = format!(
        "{} {} {} {} {}",
        board.join("/"),
        castling,
        ep,
        fields[3],
        fields[4]
    );
    SimPosition::from_fen(v, &text).unwrap_or_else(|e| panic!("mirror {text} of {fen}: {e}"))
}

fn mirror_notes(v: &Variant, n: SideNotes) -> SideNotes {
    SideNotes {
        co_occupied: n.co_occupied.map(|s| flip(v, s)),
        ..n
    }
}

fn check_symmetry(step: &Step) -> Result<(), String> {
    let v = step.before.variant();
    let m = mirror(&step.before);
    for c in [W, B] {
        let mut mine: Vec<String> = step
            .before
            .legal_moves(c)
            .into_iter()
            .map(|x| format!("{:?}", mirror_move(v, x)))
            .collect();
        let mut theirs: Vec<String> = m
            .legal_moves(c.other())
            .into_iter()
            .map(|x| format!("{x:?}"))
            .collect();
        mine.sort();
        theirs.sort();
        if mine != theirs {
            return Err(format!(
                "{:?}: {c:?} legal moves differ from the mirror {m:?}",
                step.before
            ));
        }
    }
    let [w, b] = step.moves;
    let t = m
        .resolve(mirror_move(v, b), mirror_move(v, w))
        .map_err(|e| format!("mirror {m:?} refused: {e}"))?;
    let expected = mirror(&step.turn.position);
    if t.position != expected {
        return Err(format!(
            "{:?} {:?}: mirrored resolution {:?}, expected {expected:?}",
            step.before, step.moves, t.position
        ));
    }
    for c in [W, B] {
        if t.notes[c.other()] != mirror_notes(v, step.turn.notes[c]) {
            return Err(format!(
                "{:?} {:?}: mirrored notes {:?} vs {:?}",
                step.before, step.moves, t.notes, step.turn.notes
            ));
        }
    }
    for c in [W, B] {
        if step.turn.position.in_check(c) != expected.in_check(c.other()) {
            return Err(format!(
                "{:?}: in_check is not symmetric",
                step.turn.position
            ));
        }
    }
    Ok(())
}

fn config(cases: u32) -> Config {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(cases);
    Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    }
}

proptest! {
    #![proptest_config(config(400))]

    /// (a), (b) and (d) on every position and turn of a random game.
    #[test]
    fn turns_conserve_pieces_and_round_trip(root in 0..roots().len(), seed in any::<u64>()) {
        let (start, steps) = random_game(root, seed, MAX_TURNS);
        check_occupancy(&start).map_err(TestCaseError::fail)?;
        check_fen(&start).map_err(TestCaseError::fail)?;
        for step in &steps {
            check_conservation(step).map_err(TestCaseError::fail)?;
            check_occupancy(&step.turn.position).map_err(TestCaseError::fail)?;
            check_fen(&step.turn.position).map_err(TestCaseError::fail)?;
        }
    }

    /// (c) on every position of a random game.
    #[test]
    fn illegal_moves_are_refused(root in 0..roots().len(), seed in any::<u64>()) {
        let (start, steps) = random_game(root, seed, MAX_TURNS / 2);
        let mut state = ChaCha8Rng::seed_from_u64(seed ^ 0x5555_5555_5555_5555);
        check_refusals(&start, &mut state).map_err(TestCaseError::fail)?;
        for step in &steps {
            check_refusals(&step.turn.position, &mut state).map_err(TestCaseError::fail)?;
        }
    }

    /// (f) on every position of a random game.
    #[test]
    fn pin_shortcut_finds_every_legal_move(root in 0..roots().len(), seed in any::<u64>()) {
        let (start, steps) = random_game(root, seed, MAX_TURNS);
        for p in std::iter::once(&start).chain(steps.iter().map(|s| &s.turn.position)) {
            for c in [W, B] {
                let fast = p.legal_moves(c);
                prop_assert_eq!(&fast, &p.legal_moves_each_tried(c), "{:?} {:?}", p, c);
                prop_assert_eq!(p.has_legal_move(c), !fast.is_empty(), "{:?} {:?}", p, c);
                prop_assert_eq!(p.legal_move_count(c), fast.len(), "{:?} {:?}", p, c);
            }
        }
    }

    /// (g) on every position of a random game, over all its pairs.
    #[test]
    fn play_unchecked_matches_resolve(root in 0..roots().len(), seed in any::<u64>()) {
        let (start, steps) = random_game(root, seed, MAX_TURNS / 2);
        for p in std::iter::once(&start).chain(steps.iter().map(|s| &s.turn.position)) {
            for &w in &p.legal_moves(W) {
                for &b in &p.legal_moves(B) {
                    let full = p.resolve_unchecked([w, b]).position;
                    prop_assert_eq!(p.play_unchecked([w, b]), full, "{:?} {:?} {:?}", p, w, b);
                }
            }
        }
    }

    /// (h) on every position of a random game.
    #[test]
    fn threats_of_any_kind_are_those_of_each_kind(root in 0..roots().len(), seed in any::<u64>()) {
        let (start, steps) = random_game(root, seed, MAX_TURNS);
        for p in std::iter::once(&start).chain(steps.iter().map(|s| &s.turn.position)) {
            for c in [W, B] {
                let mut each = Vec::new();
                for k in kinds(p.variant()) {
                    p.for_each_threat(c, k, |sq, by, defended| each.push((k, sq, by, defended)));
                }
                let mut all = Vec::new();
                p.for_each_threat_of_any_kind(c, |k, sq, by, defended| all.push((k, sq, by, defended)));
                prop_assert_eq!(&all, &each, "{:?} {:?}", p, c);
            }
        }
    }

    /// (e) on every turn of a random game.
    #[test]
    fn resolution_is_colour_symmetric(root in 0..roots().len(), seed in any::<u64>()) {
        let (_, steps) = random_game(root, seed, MAX_TURNS / 2);
        for step in &steps {
            check_symmetry(step).map_err(TestCaseError::fail)?;
        }
    }
}

/// The random games do reach what the properties are about: shared squares,
/// failed captures, swaps, en passant, promotions, castling, both kinds of
/// check and refusals for the waiting rule; and the checks can fail.
#[test]
fn random_games_reach_the_interesting_cases() {
    let mut seen = std::collections::BTreeMap::<&str, u32>::new();
    for root in 0..roots().len() {
        for seed in 0..12 {
            let (_, steps) = random_game(root, seed, MAX_TURNS);
            for step in &steps {
                let t = &step.turn;
                let mut hit = |k: &'static str, b: bool| *seen.entry(k).or_default() += b as u32;
                hit("shared", t.position.shared().any());
                for n in t.notes {
                    hit("capture", n.captured.is_some());
                    hit("failed capture", n.failed_capture);
                    hit("swap", n.swap);
                    hit("en passant", n.en_passant);
                    hit("promotion", n.promotion.is_some());
                    hit("castled", n.castled);
                    hit(
                        "immediate check",
                        n.check == Some(parity_rules::simultaneous::CheckKind::Immediate),
                    );
                    hit(
                        "delayed check",
                        n.check == Some(parity_rules::simultaneous::CheckKind::Delayed),
                    );
                    hit("failed check", n.failed_check);
                }
                hit(
                    "waiting piece",
                    step.before.rules().waiting_rule && step.before.last_moved(W).any(),
                );
            }
        }
    }
    for key in [
        "shared",
        "capture",
        "failed capture",
        "swap",
        "en passant",
        "promotion",
        "castled",
        "immediate check",
        "delayed check",
        "failed check",
        "waiting piece",
    ] {
        assert!(
            seen.get(key).copied().unwrap_or(0) > 0,
            "no random game reached {key}: {seen:?}"
        );
    }

    // The checks catch breakage.
    let v = Registry::builtin().get("parity").unwrap();
    let p = SimPosition::from_fen(v, "4k3/8/8/6q1/8/8/7K/2B5 - - 0 1").unwrap();
    let (w, b) = (p.legal_moves(W)[0], p.legal_moves(B)[0]);
    let turn = p.resolve(w, b).unwrap();
    let mut lying = Step {
        before: p,
        moves: [w, b],
        turn,
    };
    lying.turn.notes[B].captured = Some(Kind(0));
    assert!(check_conservation(&lying).is_err());
    assert_ne!(mirror(&p), p);
    assert_eq!(mirror(&mirror(&p)), p);
}
