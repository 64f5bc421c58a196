//! Simultaneous rules: `resolve` throughput and joint perft, with chess
//! perft in the same run as the reference for machine noise.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use parity_rules::simultaneous::{perft, SimPosition};
use parity_rules::{perft::perft as chess_perft, Color, Move, Position, Registry};

/// Positions a few turns into the game, reached by a fixed choice of moves.
fn positions(id: &str) -> Vec<SimPosition> {
    let v = Registry::builtin().get(id).unwrap();
    let mut pos = SimPosition::start(v);
    let mut out = vec![pos];
    for i in 0..12usize {
        let w = pos.legal_moves(Color::White);
        let b = pos.legal_moves(Color::Black);
        if w.is_empty() || b.is_empty() {
            break;
        }
        pos = pos
            .resolve_unchecked([w[(i * 7) % w.len()], b[(i * 11) % b.len()]])
            .position;
        out.push(pos);
    }
    out
}

fn bench(c: &mut Criterion) {
    let chess = Position::<u128>::start(Registry::builtin().get("chess").unwrap());
    let mut g = c.benchmark_group("reference");
    g.throughput(Throughput::Elements(chess_perft(&chess, 4)));
    g.bench_function("chess perft 4 (nodes)", |b| {
        b.iter(|| chess_perft(&chess, 4))
    });
    g.finish();

    for id in ["parity", "move-neutral"] {
        let pairs: Vec<(SimPosition, [Move; 2])> = positions(id)
            .into_iter()
            .flat_map(|p| {
                let ws = p.legal_moves(Color::White);
                let bs = p.legal_moves(Color::Black);
                ws.into_iter()
                    .flat_map(move |w| bs.clone().into_iter().map(move |b| (p, [w, b])))
            })
            .collect();
        let mut g = c.benchmark_group(id);
        g.throughput(Throughput::Elements(pairs.len() as u64));
        g.bench_function("resolve (pairs)", |b| {
            b.iter(|| {
                pairs
                    .iter()
                    .map(|(p, m)| p.resolve_unchecked(*m).position.clock() as u64)
                    .sum::<u64>()
            })
        });
        let start = positions(id)[0];
        g.throughput(Throughput::Elements(perft(&start, 2)));
        g.bench_function("joint perft 2 (pairs)", |b| b.iter(|| perft(&start, 2)));
        g.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
