use criterion::{criterion_group, criterion_main, Criterion};
use parity_rules::{fen, perft::perft, Registry};

fn bench(c: &mut Criterion) {
    let reg = Registry::builtin();
    let cases = [
        (
            "chess",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            4,
        ),
        (
            "chess",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            3,
        ),
        (
            "tutti-frutti",
            "enbakqsr/pppppppp/8/8/8/8/PPPPPPPP/ENBAKQSR w KQkq - 0 1",
            3,
        ),
        (
            "parity12",
            "rnbfcqkcfbnr/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/RNBFCQKCFBNR w - - 0 1",
            3,
        ),
    ];
    for (id, f, depth) in cases {
        let pos = fen::parse_position::<u128>(reg.get(id).unwrap(), f).unwrap();
        c.bench_function(&format!("perft {id} {depth} {}", &f[..12]), |b| {
            b.iter(|| perft(&pos, depth))
        });
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
