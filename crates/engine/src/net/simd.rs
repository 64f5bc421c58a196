//! The network's inner loops: one pass over a half of the hidden sums per
//! move, and the output's dot product. AVX2 when the processor has it
//! (checked at run time: the build targets x86-64-v2), plain loops
//! otherwise; both give the same integers. The one place in the
//! workspace that allows `unsafe`: calling AVX2 code needs it.
#![allow(unsafe_code)]

use super::QA;

/// `to = from + Σ adds - Σ subs`, lane by lane, wrapping; `from` None is
/// `to` itself.
pub fn apply(to: &mut [i16], from: Option<&[i16]>, adds: &[&[i16]], subs: &[&[i16]]) {
    #[cfg(target_arch = "x86_64")]
    if to.len() % 16 == 0 && std::is_x86_feature_detected!("avx2") {
        // SAFETY: AVX2 is present, and `avx2::apply` checks the lengths.
        unsafe { avx2::apply(to, from, adds, subs) };
        return;
    }
    plain::apply(to, from, adds, subs)
}

/// `Σ clamp(us, 0, QA) · w_us + Σ clamp(them, 0, QA) · w_them`.
pub fn output(us: &[i16], them: &[i16], w_us: &[i16], w_them: &[i16]) -> i32 {
    #[cfg(target_arch = "x86_64")]
    if us.len() % 16 == 0 && std::is_x86_feature_detected!("avx2") {
        // SAFETY: AVX2 is present, and `avx2::dot` checks the lengths.
        return unsafe {
            avx2::dot::<false>(us, w_us).wrapping_add(avx2::dot::<false>(them, w_them))
        };
    }
    plain::dot(us, w_us).wrapping_add(plain::dot(them, w_them))
}

/// `Σ clamp(us, 0, QA)² · w_us + Σ clamp(them, 0, QA)² · w_them`, each
/// `clamp · w` within 16 bits (weights at [`super::QB_SQUARED`]).
pub fn output_squared(us: &[i16], them: &[i16], w_us: &[i16], w_them: &[i16]) -> i64 {
    #[cfg(target_arch = "x86_64")]
    if us.len() % 16 == 0 && std::is_x86_feature_detected!("avx2") {
        // SAFETY: AVX2 is present, and `avx2::dot` checks the lengths.
        return unsafe {
            avx2::dot::<true>(us, w_us) as i64 + avx2::dot::<true>(them, w_them) as i64
        };
    }
    plain::dot_squared(us, w_us) as i64 + plain::dot_squared(them, w_them) as i64
}

pub(super) mod plain {
    use super::QA;

    pub fn apply(to: &mut [i16], from: Option<&[i16]>, adds: &[&[i16]], subs: &[&[i16]]) {
        if let Some(from) = from {
            to.copy_from_slice(from);
        }
        for row in adds {
            for (a, &w) in to.iter_mut().zip(*row) {
                *a = a.wrapping_add(w);
            }
        }
        for row in subs {
            for (a, &w) in to.iter_mut().zip(*row) {
                *a = a.wrapping_sub(w);
            }
        }
    }

    /// Wrapping, as the vector loop (trained weights never come near).
    pub fn dot(acc: &[i16], w: &[i16]) -> i32 {
        acc.iter().zip(w).fold(0i32, |sum, (&a, &w)| {
            sum.wrapping_add(a.clamp(0, QA as i16) as i32 * w as i32)
        })
    }

    /// As the vector loop: `c · w` wraps to 16 bits, then `· c` in 32.
    pub fn dot_squared(acc: &[i16], w: &[i16]) -> i32 {
        acc.iter().zip(w).fold(0i32, |sum, (&a, &w)| {
            let c = a.clamp(0, QA as i16);
            sum.wrapping_add(c.wrapping_mul(w) as i32 * c as i32)
        })
    }
}

#[cfg(target_arch = "x86_64")]
pub(super) mod avx2 {
    use std::arch::x86_64::*;

    use super::QA;

    /// Registers a tile of lanes is summed in.
    const TILE: usize = 16;

    /// Tiles of `TILE` registers, 256 lanes: each tile of `to` is summed in
    /// registers from every row, then stored once; the lanes after the last
    /// whole tile one register at a time.
    ///
    /// # Safety
    /// The processor must have AVX2.
    #[target_feature(enable = "avx2")]
    pub unsafe fn apply(to: &mut [i16], from: Option<&[i16]>, adds: &[&[i16]], subs: &[&[i16]]) {
        let n = to.len();
        assert!(n % 16 == 0 && from.is_none_or(|f| f.len() == n));
        assert!(adds.iter().chain(subs).all(|r| r.len() == n));
        let from = from.map_or(to.as_ptr(), |f| f.as_ptr());
        let whole = n - n % (16 * TILE);
        // SAFETY (both loops): every slice has n lanes and each load and
        // store ends by n; a tile of `from` is read before the same tile of
        // `to` is written.
        for i in (0..whole).step_by(16 * TILE) {
            unsafe {
                let mut v = [_mm256_setzero_si256(); TILE];
                for (j, r) in v.iter_mut().enumerate() {
                    *r = _mm256_loadu_si256(from.add(i + 16 * j).cast());
                }
                for row in adds {
                    let row = row.as_ptr().add(i);
                    for (j, r) in v.iter_mut().enumerate() {
                        *r = _mm256_add_epi16(*r, _mm256_loadu_si256(row.add(16 * j).cast()));
                    }
                }
                for row in subs {
                    let row = row.as_ptr().add(i);
                    for (j, r) in v.iter_mut().enumerate() {
                        *r = _mm256_sub_epi16(*r, _mm256_loadu_si256(row.add(16 * j).cast()));
                    }
                }
                for (j, r) in v.iter().enumerate() {
                    _mm256_storeu_si256(to.as_mut_ptr().add(i + 16 * j).cast(), *r);
                }
            }
        }
        for i in (whole..n).step_by(16) {
            unsafe {
                let mut v = _mm256_loadu_si256(from.add(i).cast());
                for row in adds {
                    v = _mm256_add_epi16(v, _mm256_loadu_si256(row.as_ptr().add(i).cast()));
                }
                for row in subs {
                    v = _mm256_sub_epi16(v, _mm256_loadu_si256(row.as_ptr().add(i).cast()));
                }
                _mm256_storeu_si256(to.as_mut_ptr().add(i).cast(), v);
            }
        }
    }

    /// `Σ clamp(acc, 0, QA) · w`, or with `SQUARED` `Σ clamp(acc, 0, QA)² · w`
    /// (each `clamp · w` within 16 bits), wrapping.
    ///
    /// # Safety
    /// The processor must have AVX2.
    #[target_feature(enable = "avx2")]
    pub unsafe fn dot<const SQUARED: bool>(acc: &[i16], w: &[i16]) -> i32 {
        let n = acc.len();
        assert!(n % 16 == 0 && w.len() == n);
        let zero = _mm256_setzero_si256();
        let top = _mm256_set1_epi16(QA as i16);
        let mut sum = _mm256_setzero_si256();
        for i in (0..n).step_by(16) {
            // SAFETY: both slices have n lanes and i + 16 <= n.
            unsafe {
                let a = _mm256_loadu_si256(acc.as_ptr().add(i).cast());
                let a = _mm256_min_epi16(_mm256_max_epi16(a, zero), top);
                let w = _mm256_loadu_si256(w.as_ptr().add(i).cast());
                // Pairs of products in 32 bits: 2 · 255 · 2^15 fits; squared,
                // c · w in 16 bits first, then pairs of (c · w) · c.
                let pairs = if SQUARED {
                    _mm256_madd_epi16(_mm256_mullo_epi16(a, w), a)
                } else {
                    _mm256_madd_epi16(a, w)
                };
                sum = _mm256_add_epi32(sum, pairs);
            }
        }
        unsafe { horizontal_sum(sum) }
    }

    /// The sum of a register's eight 32-bit lanes, wrapping.
    #[target_feature(enable = "avx2")]
    unsafe fn horizontal_sum(sum: __m256i) -> i32 {
        let half = _mm_add_epi32(
            _mm256_castsi256_si128(sum),
            _mm256_extracti128_si256(sum, 1),
        );
        let half = _mm_add_epi32(half, _mm_shuffle_epi32(half, 0b01_00_11_10));
        let half = _mm_add_epi32(half, _mm_shuffle_epi32(half, 0b10_11_00_01));
        _mm_cvtsi128_si32(half)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn lanes(n: usize) -> impl Strategy<Value = Vec<i16>> {
        proptest::collection::vec(any::<i16>(), n)
    }

    proptest! {
        #[test]
        fn vector_and_plain_loops_agree(
            (from, rows) in (1usize..40).prop_flat_map(|blocks| {
                let n = 16 * blocks;
                (lanes(n), proptest::collection::vec(lanes(n), 0..6))
            }),
            split in 0usize..6,
            w in lanes(16 * 40),
        ) {
            let n = from.len();
            let split = split.min(rows.len());
            let rows: Vec<&[i16]> = rows.iter().map(|r| r.as_slice()).collect();
            let (adds, subs) = rows.split_at(split);
            let mut expected = vec![0; n];
            plain::apply(&mut expected, Some(&from), adds, subs);
            let mut got = vec![0; n];
            apply(&mut got, Some(&from), adds, subs);
            prop_assert_eq!(&got, &expected);
            // In place, in two steps.
            let mut twice = from.clone();
            apply(&mut twice, None, adds, &[]);
            apply(&mut twice, None, &[], subs);
            prop_assert_eq!(&twice, &expected);
            let w = &w[..n];
            prop_assert_eq!(
                output(&from, &got, w, w),
                plain::dot(&from, w).wrapping_add(plain::dot(&got, w))
            );
            // Squared: weights as QB_SQUARED makes them, each c · w within 16 bits.
            let small: Vec<i16> = w.iter().map(|&x| x % 128).collect();
            let exact = |acc: &[i16]| -> i64 {
                acc.iter()
                    .zip(&small)
                    .map(|(&a, &w)| (a.clamp(0, QA as i16) as i64).pow(2) * w as i64)
                    .sum()
            };
            prop_assert_eq!(
                output_squared(&from, &got, &small, &small),
                exact(&from) + exact(&got)
            );
            #[cfg(target_arch = "x86_64")]
            if std::is_x86_feature_detected!("avx2") {
                // SAFETY: AVX2 is present.
                prop_assert_eq!(unsafe { avx2::dot::<false>(&from, w) }, plain::dot(&from, w));
                // Any weights, wrapping alike.
                prop_assert_eq!(unsafe { avx2::dot::<true>(&from, w) }, plain::dot_squared(&from, w));
                let mut direct = vec![0; n];
                unsafe { avx2::apply(&mut direct, Some(&from), adds, subs) };
                prop_assert_eq!(direct, expected);
            }
        }
    }
}
