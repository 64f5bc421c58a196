use super::*;
use parity_rules::{fen, Registry};
use rand_chacha::rand_core::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn eval_fen(variant: &str, text: &str) -> Score {
    let v = Registry::builtin().get(variant).unwrap();
    let pos = fen::parse_position::<u128>(v, text).unwrap();
    evaluate(&pos, &tables(v))
}

#[test]
fn start_positions_are_nearly_level() {
    for v in Registry::builtin().iter() {
        if v.spec.family != parity_rules::variant::Family::TurnBased {
            continue;
        }
        let pos = parity_rules::Position::<u128>::start(v);
        let t = tables(v);
        let e = evaluate(&pos, &t);
        let tempo = t.params.get(t.params.layout.tempo);
        assert!((e - tempo.mg).abs() <= 5, "{}: {e}", v.id());
    }
}

#[test]
fn symmetric_under_colour_flip() {
    let a = eval_fen(
        "chess",
        "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    );
    let b = eval_fen(
        "chess",
        "rnbqk2r/pppp1ppp/5n2/2b1p3/4P3/2N2N2/PPPP1PPP/R1BQKB1R b KQkq - 4 4",
    );
    assert_eq!(a, b);
}

#[test]
fn extra_material_counts() {
    let up = eval_fen("chess", "4k3/8/8/8/8/8/8/3QK3 w - - 0 1");
    assert!(up > 700, "{up}");
    let down = eval_fen("chess", "4k3/8/8/8/8/8/8/3QK3 b - - 0 1");
    assert!(down < -700, "{down}");
}

/// The mop-up term, on the derived terms (tuned square terms of the king
/// add to it or take from it).
#[test]
fn far_ahead_the_lone_king_belongs_on_the_edge_near_ours() {
    let v = Registry::builtin().get("chess").unwrap();
    let derived = EvalTables::derived(v);
    let eval_fen = |text: &str| evaluate(&fen::parse_position::<u128>(v, text).unwrap(), &derived);
    // Only the black king differs, at the same distance from White's.
    let centre = eval_fen("8/8/8/8/4k3/8/8/3QK3 w - - 0 1");
    let edge = eval_fen("8/8/8/8/1k6/8/8/3QK3 w - - 0 1");
    assert!(edge > centre + 30, "edge {edge}, centre {centre}");
    let side = eval_fen("4k3/8/8/8/8/8/8/3QK3 w - - 0 1");
    let corner = eval_fen("7k/8/8/8/8/8/8/3QK3 w - - 0 1");
    assert!(corner > side + 30, "corner {corner}, side {side}");
    // Kings closer (the opposition) is better for the side ahead.
    let near = eval_fen("4k3/8/4K3/8/8/8/8/3Q4 w - - 0 1");
    let far = eval_fen("4k3/8/8/8/8/8/8/3QK3 w - - 0 1");
    assert!(near > far, "near {near}, far {far}");
    // With the tuned terms the edge is still where the lone king belongs.
    let tuned = |text: &str| evaluate(&fen::parse_position::<u128>(v, text).unwrap(), &tables(v));
    assert!(tuned("8/8/8/8/1k6/8/8/3QK3 w - - 0 1") > tuned("8/8/8/8/4k3/8/8/3QK3 w - - 0 1"));
    assert!(tuned("7k/8/8/8/8/8/8/3QK3 w - - 0 1") > tuned("4k3/8/8/8/8/8/8/3QK3 w - - 0 1"));
}

#[test]
fn passed_pawns_count_more_when_advanced() {
    let far = eval_fen("chess", "4k3/8/8/8/8/8/P7/4K3 w - - 0 1");
    let near = eval_fen("chess", "4k3/P7/8/8/8/8/8/4K3 w - - 0 1");
    assert!(near > far + 100, "{near} vs {far}");
}

#[test]
fn a_hanging_piece_costs() {
    // The knight on e5 is attacked by the rook and defended by nothing.
    let hanging = eval_fen("chess", "4r1k1/8/8/4N3/8/8/8/6K1 w - - 0 1");
    let defended = eval_fen("chess", "4r1k1/8/8/4N3/3P4/8/8/6K1 w - - 0 1");
    let t = tables(Registry::builtin().get("chess").unwrap());
    let l = &t.params.layout;
    let n = Registry::builtin()
        .get("chess")
        .unwrap()
        .kind_by_letter('N')
        .unwrap();
    let trace_of = |text: &str| {
        let v = Registry::builtin().get("chess").unwrap();
        let pos = fen::parse_position::<u128>(v, text).unwrap();
        trace(&pos, &t, Some(Color::White))
    };
    assert_eq!(
        trace_of("4r1k1/8/8/4N3/8/8/8/6K1 w - - 0 1").counts[l.hanging + n.index()],
        1
    );
    assert_eq!(
        trace_of("4r1k1/8/8/4N3/3P4/8/8/6K1 w - - 0 1").counts[l.hanging + n.index()],
        0
    );
    assert!(hanging != defended);
}

#[test]
fn derived_values_follow_mobility() {
    assert!((derived_value(5.25) - 320).abs() < 60);
    assert!((derived_value(14.0) - 500).abs() < 60);
    assert!((derived_value(22.75) - 900).abs() < 60);
}

#[test]
fn pieces_without_values_get_derived_ones() {
    let mut reg = Registry::builtin();
    let v = reg
        .add_text(
            "t.toml",
            "id = \"nameless\"\ninherits = \"chess\"\n[[pieces]]\nletter = \"C\"\nname = \"Camel\"\nbetza = \"C\"\n",
        )
        .unwrap();
    let t = tables(v);
    let camel = v.kind_by_letter('C').unwrap();
    let knight = v.kind_by_letter('N').unwrap();
    assert!(
        t.value[camel.index()] > 150
            && t.value[camel.index()] < t.value[v.kind_by_letter('Q').unwrap().index()]
    );
    assert_eq!(t.value[knight.index()], 320);
}

/// The tuner's linear model gives the search's score, up to rounding.
#[test]
fn the_trace_reproduces_the_score() {
    let cases = [
        (
            "chess",
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
        ),
        ("chess", "6k1/5ppp/8/3P4/8/8/5PPP/2R3K1 b - - 0 1"),
        (
            "chess",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        ),
        (
            "tutti-frutti",
            "enbakqsr/pppppppp/8/8/4P3/8/PPPP1PPP/ENBAKQSR b KQkq - 0 1",
        ),
        ("parity12", ""),
        ("safety-in-numbers", ""),
    ];
    for (id, text) in cases {
        let v = Registry::builtin().get(id).unwrap();
        let text = if text.is_empty() {
            v.spec.start_fen.clone()
        } else {
            text.to_string()
        };
        let t = tables(v);
        let values = t.params.values();
        let check = |white: Score, tr: Trace| {
            let model: f64 = tr.offset() as f64
                + tr.coefficients()
                    .iter()
                    .map(|&(i, c)| c as f64 * values[i as usize])
                    .sum::<f64>();
            assert!(
                (model - white as f64).abs() <= 1.5,
                "{id} {text}: {model} vs {white}"
            );
            // The `eval` command's groups add up to the score.
            let groups = tr.by_group(&t);
            assert_eq!(groups.len(), t.params.layout.group_ranges().len() + 1);
            let sum = groups.iter().fold(Pair::default(), |s, (_, v)| s + *v);
            assert!(
                (t.taper(sum, tr.phase) - white).abs() <= 1,
                "{id} {text}: groups give {}, the score {white}",
                t.taper(sum, tr.phase)
            );
        };
        let any = parity_rules::AnyGame::from_fen(v, Some(&text)).unwrap();
        match any {
            parity_rules::AnyGame::TurnBased(g) => {
                let p = g.position();
                let e = evaluate(p, &t);
                let white = if p.side() == Color::White { e } else { -e };
                check(white, trace(p, &t, Some(p.side())));
            }
            parity_rules::AnyGame::TurnBased64(g) => {
                let p = g.position();
                let e = evaluate(p, &t);
                let white = if p.side() == Color::White { e } else { -e };
                check(white, trace(p, &t, Some(p.side())));
            }
            parity_rules::AnyGame::Crowd(g) => {
                let p = g.position();
                let e = evaluate(p, &t);
                let white = if p.side() == Color::White { e } else { -e };
                check(white, trace(p, &t, Some(p.side())));
            }
            _ => unreachable!(),
        }
    }
}

#[test]
fn a_parameter_file_overrides_the_terms() {
    let v = Registry::builtin().get("tutti-frutti").unwrap();
    let base = EvalTables::derived(v);
    let mut p = base.params.clone();
    p.read_toml("[terms]\n\"material.A\" = [2000, 2000]\n")
        .unwrap();
    let tuned = EvalTables::with_params(v, p);
    let pos = fen::parse_position::<u128>(v, "4k3/8/8/8/8/8/8/A3K3 w - - 0 1").unwrap();
    assert!(evaluate(&pos, &tuned) > evaluate(&pos, &base) + 500);
}

/// `plies` positions of a random game from `start`, one a move (a turn in
/// the simultaneous family); `next` plays a random move, None at the end.
fn random_game<P: Clone>(
    start: P,
    plies: usize,
    seed: u64,
    next: impl Fn(&P, &mut ChaCha8Rng) -> Option<P>,
) -> Vec<P> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = vec![start];
    while out.len() < plies {
        let Some(pos) = next(out.last().unwrap(), &mut rng) else {
            break;
        };
        out.push(pos);
    }
    out
}

fn pick(moves: &[parity_rules::Move], rng: &mut ChaCha8Rng) -> Option<parity_rules::Move> {
    (!moves.is_empty()).then(|| moves[(rng.next_u64() % moves.len() as u64) as usize])
}

/// The evaluation of `pos` in its own word and in the narrowed view agree,
/// fully and lazily (in a window the score falls outside of, often).
fn narrow_and_wide_agree<V: PieceView<W = u128>>(pos: &V, t: &EvalTables, side: Option<Color>) {
    let narrow = parity_rules::NarrowView::of(pos).expect("a board of at most 64 squares");
    for (alpha, beta) in [(-MATE, MATE), (-30, 30), (200, 400)] {
        assert_eq!(
            terms::score_in(pos, t, side, alpha, beta),
            terms::score_in(&narrow, t, side, alpha, beta),
            "{}",
            pos.diagram()
        );
    }
}

#[test]
fn the_narrowed_view_evaluates_as_the_wide_position() {
    use parity_rules::crowd::CrowdPosition;
    use parity_rules::simultaneous::SimPosition;
    for id in ["parity", "move-neutral"] {
        let v = Registry::builtin().get(id).unwrap();
        let t = tables(v);
        for seed in 0..20 {
            let game = random_game(SimPosition::start(v), 80, seed, |pos, rng| {
                let white = pick(&pos.legal_moves(Color::White), rng)?;
                let black = pick(&pos.legal_moves(Color::Black), rng)?;
                pos.outcome()
                    .is_none()
                    .then(|| pos.play_unchecked([white, black]))
            });
            for pos in &game {
                narrow_and_wide_agree(pos, &t, None);
            }
        }
    }
    let v = Registry::builtin().get("safety-in-numbers").unwrap();
    let t = tables(v);
    let mut crowds = 0;
    for seed in 0..20 {
        let game = random_game(CrowdPosition::start(v), 120, seed, |pos, rng| {
            let mut moves = Vec::new();
            pos.generate(&mut moves, false);
            Some(pos.make(pick(&moves, rng)?))
        });
        for pos in &game {
            crowds += pos.crowd_squares().count();
            narrow_and_wide_agree(pos, &t, Some(pos.side()));
        }
    }
    assert!(crowds > 0, "the games formed no crowd");
}

/// White's count less Black's of each term of `group` in the chess
/// position `text`, as the tuner reads them.
fn group_counts(variant: &str, text: &str, group: &str) -> Vec<i32> {
    let v = Registry::builtin().get(variant).unwrap();
    let t = tables(v);
    let pos = fen::parse_position::<u128>(v, text).unwrap();
    let tr = trace(&pos, &t, Some(pos.side()));
    let (_, range) = t
        .params
        .layout
        .group_ranges()
        .into_iter()
        .find(|(name, _)| *name == group)
        .unwrap();
    tr.counts[range].to_vec()
}

#[test]
fn shelter_and_storm_are_read_on_the_kings_files() {
    // White Kg1 with f2, g2, h3 (distances 1, 1, 2); Black's h4 stands
    // blocked in front of h3 and its g5 storms at distance 4. Black Ka8
    // (judged on files a to c) with a7, b6 (distances 1, 2) and no c-pawn.
    let text = "k7/p7/1p6/6p1/7p/7P/5PP1/6K1 w - - 0 1";
    assert_eq!(
        group_counts("chess", text, "shelter_file"),
        [2 - 1, 1 - 1, 0, 0, -1]
    );
    assert_eq!(group_counts("chess", text, "storm_file"), [0, 0, 0, 1]);
    assert_eq!(group_counts("chess", text, "storm_blocked"), [1]);
    // On 12 files too: a king in the corner is judged by three files.
    let wide = "k11/12/12/12/12/12/PPP9/K11 w - - 0 1";
    assert_eq!(
        group_counts("parity12", wide, "shelter_file"),
        [3, 0, 0, 0, -3]
    );
}

#[test]
fn space_counts_safe_central_squares_and_those_behind_pawns_twice() {
    // White: c2-f4 less d4, e4 is 10 squares, d2, d3, e2, e3 behind the
    // pawns twice: 14. Black: c7-f5 less d6, e6 and the four squares
    // White's pawns hit is 6, d7 and e7 twice: 8.
    let text = "4k3/8/3pp3/8/3PP3/8/8/4K3 w - - 0 1";
    assert_eq!(group_counts("chess", text, "space"), [14 - 8]);
}

#[test]
fn a_safe_check_is_counted_by_the_kind_that_gives_it() {
    let v = Registry::builtin().get("chess").unwrap();
    let queen = v.kind_by_letter('Q').unwrap().index();
    // The queen checks on d1, which nothing of White's guards.
    let open = group_counts("chess", "3qk3/8/8/8/8/8/5PPP/6K1 w - - 0 1", "safe_check");
    let expected: Vec<i32> = (0..open.len()).map(|k| (k == queen) as i32).collect();
    assert_eq!(open, expected);
    // A bishop on e2 guards d1; it can check Black from b5 itself.
    let bishop = v.kind_by_letter('B').unwrap().index();
    let guarded = group_counts("chess", "3qk3/8/8/8/8/8/4BPPP/6K1 w - - 0 1", "safe_check");
    let expected: Vec<i32> = (0..open.len()).map(|k| -((k == bishop) as i32)).collect();
    assert_eq!(guarded, expected);
}
