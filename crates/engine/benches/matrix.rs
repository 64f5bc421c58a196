//! Matrix-game solvers: the LP on random games of the sizes a simultaneous
//! chess node produces, and RM+ iterations for comparison.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use parity_engine::matrix::{pure_saddle_point, solve_lp, solve_rm_plus, Matrix};

/// SplitMix64; a fixed seed keeps the games the same from run to run.
fn random_game(rows: usize, cols: usize, seed: u64) -> Matrix {
    let mut s = seed;
    Matrix::from_fn(rows, cols, |_, _| {
        s = s.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = s;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        (z >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
    })
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("lp");
    for k in [5, 10, 20] {
        // Random games in [-1, 1] almost never have a saddle point.
        let game = random_game(k, k, k as u64);
        assert!(pure_saddle_point(&game).is_none());
        g.bench_with_input(
            BenchmarkId::from_parameter(format!("{k}x{k}")),
            &game,
            |b, game| b.iter(|| solve_lp(game)),
        );
    }
    g.finish();

    let game = random_game(20, 20, 20);
    c.bench_function("rm+ 1000 iterations/20x20", |b| {
        b.iter(|| solve_rm_plus(&game, None, 1000, 0.0))
    });
    c.bench_function("saddle check/20x20", |b| {
        b.iter(|| pure_saddle_point(&game))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
