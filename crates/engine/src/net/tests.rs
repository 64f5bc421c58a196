use super::train::{train, DataSet, FloatNetwork, TrainOptions};
use super::*;
use parity_rules::{Position, Registry, TurnPosition};
use rand_chacha::rand_core::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn chess() -> &'static Variant {
    Registry::builtin().get("chess").unwrap()
}

/// Positions along random games from the start.
fn random_positions(v: &'static Variant, count: usize, seed: u64) -> Vec<Position> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let mut pos = Position::start(v);
        for _ in 0..80 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos = pos.make(moves[rng.next_u32() as usize % moves.len()]);
            out.push(pos);
        }
    }
    out.truncate(count);
    out
}

/// Material for the side to move, by the variant's values.
fn material(pos: &Position) -> f32 {
    let m = pos.material();
    (m[pos.side().index()] - m[1 - pos.side().index()]) as f32
}

fn small_options() -> TrainOptions {
    TrainOptions {
        hidden: 16,
        buckets: 1,
        activation: Activation::ClippedRelu,
        epochs: 12,
        batch: 128,
        learning_rate: 0.01,
        validation: 0.1,
        threads: 2,
        seed: 5,
    }
}

fn material_data(v: &'static Variant, count: usize) -> DataSet {
    let mut data = DataSet::new(v);
    for pos in random_positions(v, count, 3) {
        let for_mover = 1.0 / (1.0 + (-material(&pos) / CP_PER_UNIT as f32).exp());
        let white = if pos.side() == Color::White {
            for_mover
        } else {
            1.0 - for_mover
        };
        data.push(&pos, pos.side(), white);
    }
    data
}

#[test]
fn training_recovers_a_known_evaluation() {
    recovers_material(Activation::ClippedRelu);
}

#[test]
fn training_squared_units_recovers_a_known_evaluation() {
    recovers_material(Activation::SquaredClippedRelu);
}

fn recovers_material(activation: Activation) {
    let v = chess();
    let data = material_data(v, 30000);
    let mut losses = Vec::new();
    let options = TrainOptions {
        activation,
        ..small_options()
    };
    let net = train(&data, &options, |l| losses.push(l));
    let first = losses.first().unwrap().validation;
    let last = losses.last().unwrap().validation;
    assert!(last < first / 3.0, "held-out loss {first} -> {last}");
    assert!(last < 0.001, "held-out loss {last}");
    // Positions it never saw: its score follows the material.
    let quantized = net.quantize(v, String::new());
    let mut off = Vec::new();
    for pos in random_positions(v, 300, 99) {
        let want = material(&pos);
        if want.abs() > 1000.0 {
            continue;
        }
        let got = quantized.evaluate(&pos, pos.side()) as f32;
        off.push((got - want).abs());
    }
    off.sort_by(f32::total_cmp);
    let median = off[off.len() / 2];
    assert!(median < 40.0, "median error {median} cp");
}

#[test]
fn the_same_data_gives_the_same_network() {
    let v = chess();
    let data = material_data(v, 1500);
    let options = TrainOptions {
        epochs: 2,
        buckets: 4,
        ..small_options()
    };
    let a = train(&data, &options, |_| {}).quantize(v, "a".into());
    let b = train(&data, &options, |_| {}).quantize(v, "a".into());
    assert_eq!(a.to_bytes(), b.to_bytes());
}

#[test]
fn quantized_scores_follow_the_float_network() {
    let v = chess();
    // Four buckets: random games reach every number of pieces.
    for activation in [Activation::ClippedRelu, Activation::SquaredClippedRelu] {
        let net = FloatNetwork::random(Inputs::of(v), 64, 4, activation, 11);
        let q = net.quantize(v, String::new());
        for pos in random_positions(v, 200, 7) {
            let float = net.evaluate(&pos, pos.side());
            let int = q.evaluate(&pos, pos.side()) as f32;
            assert!(
                (float - int).abs() < 8.0,
                "{activation:?}: {float} against {int} at {}",
                pos.fen()
            );
        }
    }
}

/// The FEN of the position with colours swapped and the board mirrored
/// (positions without castling or en passant rights).
fn flipped(fen: &str) -> String {
    let fields: Vec<&str> = fen.split(' ').collect();
    let board: Vec<String> = fields[0]
        .split('/')
        .rev()
        .map(|rank| {
            rank.chars()
                .map(|c| {
                    if c.is_ascii_uppercase() {
                        c.to_ascii_lowercase()
                    } else {
                        c.to_ascii_uppercase()
                    }
                })
                .collect()
        })
        .collect();
    let side = if fields[1] == "w" { "b" } else { "w" };
    format!("{} {side} - - 0 1", board.join("/"))
}

#[test]
fn both_sides_are_judged_alike() {
    let v = chess();
    let q = FloatNetwork::random(Inputs::of(v), 32, 1, Activation::ClippedRelu, 2)
        .quantize(v, String::new());
    for fen in [
        "r1bq1rk1/pp2bppp/2n1pn2/3p4/3P4/2NBPN2/PP3PPP/R2QK2R w - - 0 1",
        "8/5k2/3p4/1p1Pp2p/pP2Pp1P/P4P1K/8/8 b - - 0 1",
        "4k3/8/8/8/8/8/8/R3K3 w - - 0 1",
    ] {
        let a = <Position>::from_fen(v, fen).unwrap();
        let b = <Position>::from_fen(v, &flipped(fen)).unwrap();
        assert_eq!(q.evaluate(&a, a.side()), q.evaluate(&b, b.side()), "{fen}");
        // From the other side's view the inputs differ.
        assert_eq!(Inputs::of(v).for_black(Inputs::of(v).for_black(77)), 77);
    }
}

#[test]
fn files_round_trip_and_bad_ones_are_refused() {
    let v = chess();
    let net = FloatNetwork::random(Inputs::of(v), 8, 3, Activation::SquaredClippedRelu, 4)
        .quantize(v, "made by a test".into());
    let bytes = net.to_bytes();
    assert_eq!(Network::from_bytes(v, &bytes), Ok(net.clone()));
    let at_buckets = 8 + 4 + 4 + "chess".len() + 4 + "made by a test".len() + 4 + 4;
    let mut buckets = bytes.clone();
    buckets[at_buckets..at_buckets + 4].copy_from_slice(&0u32.to_le_bytes());
    assert_eq!(Network::from_bytes(v, &buckets), Err(NetError::Buckets(0)));
    let mut activation = bytes.clone();
    activation[at_buckets + 4..at_buckets + 8].copy_from_slice(&7u32.to_le_bytes());
    assert_eq!(
        Network::from_bytes(v, &activation),
        Err(NetError::Activation(7))
    );
    assert_eq!(Network::from_bytes(v, b"PARITYNX"), Err(NetError::Magic));
    assert!(matches!(
        Network::from_bytes(v, &bytes[..bytes.len() - 1]),
        Err(NetError::Truncated(_))
    ));
    let mut longer = bytes.clone();
    longer.push(0);
    assert_eq!(Network::from_bytes(v, &longer), Err(NetError::Trailing(1)));
    let mut version = bytes.clone();
    version[8] = 9;
    assert_eq!(Network::from_bytes(v, &version), Err(NetError::Version(9)));
    let other = Registry::builtin().get("tutti-frutti").unwrap();
    assert!(matches!(
        Network::from_bytes(other, &bytes),
        Err(NetError::Variant { .. })
    ));
    // A hidden layer too large to read.
    let mut hidden = bytes.clone();
    let at = 8 + 4 + 4 + "chess".len() + 4 + "made by a test".len() + 4;
    hidden[at..at + 4].copy_from_slice(&(MAX_HIDDEN as u32 + 1).to_le_bytes());
    assert_eq!(
        Network::from_bytes(v, &hidden),
        Err(NetError::Hidden(MAX_HIDDEN + 1))
    );
}

#[test]
fn a_version_1_file_reads_as_one_bucket() {
    let v = chess();
    let net = FloatNetwork::random(Inputs::of(v), 8, 1, Activation::ClippedRelu, 6)
        .quantize(v, "old".into());
    let mut old = net.to_bytes();
    // Version 1 had no bucket count and no activation.
    old[8..12].copy_from_slice(&1u32.to_le_bytes());
    let at = 8 + 4 + 4 + "chess".len() + 4 + "old".len() + 4 + 4;
    old.drain(at..at + 8);
    assert_eq!(Network::from_bytes(v, &old), Ok(net));
}

#[test]
fn buckets_share_the_pieces_up_to_half_the_board() {
    let chess = Inputs::of(chess());
    let buckets: Vec<usize> = [1, 2, 4, 5, 16, 17, 28, 29, 32, 40]
        .iter()
        .map(|&n| chess.bucket(n, 8))
        .collect();
    assert_eq!(buckets, [0, 0, 0, 1, 3, 4, 6, 7, 7, 7]);
    assert_eq!(chess.bucket(32, 1), 0);
    let wide = Inputs::of(Registry::builtin().get("parity12").unwrap());
    assert_eq!(
        (wide.bucket(48, 8), wide.bucket(6, 8), wide.bucket(7, 8)),
        (7, 0, 1)
    );
}

#[test]
fn chess_plays_with_its_built_in_network() {
    let v = chess();
    let net = of(v).expect("chess has a built-in network");
    let score = |fen: &str| {
        let pos = Position::<u128>::from_fen(v, fen).unwrap();
        net.evaluate(&pos, pos.side())
    };
    let start = score("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    assert!(start.abs() < 80, "start {start}");
    // A queen up, either side to move.
    let up = score("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    let down = score("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1");
    assert!(up > 400 && down < -400, "{up} {down}");
}

#[test]
fn a_variant_without_a_network_keeps_the_hand_made_evaluation() {
    let v = Registry::builtin().get("parity12").unwrap();
    assert!(built_in("parity12").is_none());
    assert!(of(v).is_none());
}

#[test]
fn sums_updated_move_by_move_equal_sums_from_nothing() {
    // Random games reach captures, promotions, castling and en passant.
    // 32 hidden units take the vector loops where there are any, 24 the plain ones.
    let (plain, squared) = (Activation::ClippedRelu, Activation::SquaredClippedRelu);
    for (id, hidden, activation) in [
        ("chess", 24, plain),
        ("chess", 32, squared),
        ("tutti-frutti", 32, plain),
        ("parity12", 24, squared),
    ] {
        let v = Registry::builtin().get(id).unwrap();
        let net = FloatNetwork::random(Inputs::of(v), hidden, 8, activation, 9)
            .quantize(v, String::new());
        let mut previous: Option<Accumulator<u128>> = None;
        let mut far = Accumulator::new(&net);
        for (n, pos) in random_positions(v, 400, 21).iter().enumerate() {
            let mut acc = Accumulator::new(&net);
            // The nearest of several: a stale one and the last position's.
            let near: Vec<_> = std::iter::once(far.clone()).chain(previous).collect();
            net.update(&near, pos, &mut acc);
            assert_eq!(
                net.output(&acc, pos.side()),
                net.evaluate(pos, pos.side()),
                "{id} at {}",
                pos.fen()
            );
            // From a position many moves away: summed from nothing.
            if n % 50 == 0 {
                let mut next = Accumulator::new(&net);
                net.update(std::slice::from_ref(&far), pos, &mut next);
                assert_eq!(net.output(&next, pos.side()), net.evaluate(pos, pos.side()));
                far = next;
            }
            previous = Some(acc);
        }
    }
}

#[test]
fn mirroring_files_is_an_involution() {
    let v = chess();
    let inputs = Inputs::of(v);
    let sq = |name: &str| v.shape.parse_square(name).unwrap();
    let rook = v.kind_by_letter('R').unwrap();
    let a1 = inputs.index(Color::White, Color::Black, rook, sq("a1"));
    let h1 = inputs.index(Color::White, Color::Black, rook, sq("h1"));
    assert_eq!(inputs.mirror_files(a1), h1);
    for i in 0..inputs.count() {
        assert_eq!(inputs.mirror_files(inputs.mirror_files(i)), i);
    }
}

#[test]
fn which_variants_move_alike_both_ways() {
    let mut reg = Registry::builtin();
    for id in ["chess", "tutti-frutti", "parity12", "safety-in-numbers"] {
        assert!(reg.get(id).unwrap().moves_mirror_symmetric(), "{id}");
    }
    let lopsided = reg
        .add_text(
            "lopsided.toml",
            "id = \"lopsided\"\ninherits = \"chess\"\n[[pieces]]\nletter = \"N\"\nname = \"Knight\"\nbetza = \"rN\"\n",
        )
        .unwrap();
    assert!(!lopsided.moves_mirror_symmetric());
}

/// A rook on the a-file wins for its side; trained with `mirror`, the
/// network knows an h-file rook it never saw.
#[test]
fn mirrored_copies_teach_the_other_wing() {
    let v = chess();
    let mut text = String::new();
    for rank in 2..=7 {
        let row = |piece: char| {
            let mut rows = vec!["8".to_string(); 8];
            rows[0] = "4k3".into();
            rows[7] = "4K3".into();
            rows[8 - rank] = format!("{piece}7");
            rows.join("/")
        };
        for side in ["w", "b"] {
            text += &format!("{} {side} - - 0 1 [1.0] 400\n", row('R'));
            text += &format!("{} {side} - - 0 1 [0.0] -400\n", row('r'));
        }
    }
    // Castling rights: not mirrored (the king's wing matters).
    text += "r3k3/8/8/8/8/8/8/4K2R w Kq - 0 1 [0.5] 0\n";
    let read = |mirror: bool| {
        let mut data = DataSet::new(v);
        data.mirror = mirror;
        let n = data.read(v, text.as_bytes(), 0.0, None).unwrap();
        (n, data)
    };
    let (n, plain) = read(false);
    let (m, mirrored) = read(true);
    assert_eq!((n, m), (25, 25));
    assert_eq!((plain.len(), mirrored.len()), (25, 49));
    let options = TrainOptions {
        validation: 0.0,
        epochs: 60,
        batch: 8,
        ..small_options()
    };
    let h_file = |piece: char| {
        Position::<u128>::from_fen(v, &format!("3k4/8/8/8/7{piece}/8/8/3K4 w - - 0 1")).unwrap()
    };
    let scores = |data: &DataSet| {
        let net = train(data, &options, |_| {});
        let score = |piece| net.evaluate(&h_file(piece), Color::White);
        (score('R'), score('r'))
    };
    // 400 at the labels' scale is 200 at the engine's.
    let (white, black) = scores(&mirrored);
    let (unseen_white, unseen_black) = scores(&plain);
    assert!(white > 150.0 && black < -150.0, "{white} {black}");
    assert!(
        unseen_white - unseen_black < (white - black) / 2.0,
        "{unseen_white} {unseen_black}"
    );
}
