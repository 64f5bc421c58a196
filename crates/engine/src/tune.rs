//! Texel-style tuning: the evaluation's terms fitted to game results.
//!
//! Each position's evaluation is linear in the terms (`eval::Trace`), so a
//! data set is a sparse matrix of coefficients with a result per row. The
//! predicted score of White is `1 / (1 + 10^(-k * eval / 400))`; the loss is
//! the mean squared error against the results. `k` is fitted first with
//! the terms fixed, then the terms by Adam over the whole data set.

use std::io::BufRead;

use parity_rules::crowd::CrowdPosition;
use parity_rules::variant::Family;
use parity_rules::{Position, TurnPosition, Variant};

use crate::eval::{self, EvalTables, Params};
use crate::search::{Limits, Searcher, Shared};

/// One position: the evaluation is `offset + Σ coefficient × value`.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    pub coefficients: Vec<(u32, f32)>,
    pub offset: f32,
    /// White's score in the game: 1, 0.5 or 0.
    pub result: f32,
}

impl Sample {
    #[inline]
    fn evaluation(&self, values: &[f64]) -> f64 {
        self.offset as f64
            + self
                .coefficients
                .iter()
                .map(|&(i, c)| c as f64 * values[i as usize])
                .sum::<f64>()
    }
}

/// White's expected score for an evaluation in centipawns.
pub fn expected(evaluation: f64, k: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * evaluation / 400.0))
}

/// Mean squared error of the predictions against the results.
pub fn loss(samples: &[Sample], values: &[f64], k: f64) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let total: f64 = parallel(samples, |chunk| {
        chunk
            .iter()
            .map(|s| {
                let e = expected(s.evaluation(values), k) - s.result as f64;
                e * e
            })
            .sum::<f64>()
    })
    .into_iter()
    .sum();
    total / samples.len() as f64
}

/// The `k` that minimises the loss with the values fixed (golden-section
/// search over 0.05..5; the loss is unimodal in `k`).
pub fn fit_scale(samples: &[Sample], values: &[f64]) -> f64 {
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    let (mut a, mut b) = (0.05f64, 5.0f64);
    let mut c = b - ratio * (b - a);
    let mut d = a + ratio * (b - a);
    let (mut fc, mut fd) = (loss(samples, values, c), loss(samples, values, d));
    for _ in 0..60 {
        if fc < fd {
            b = d;
            d = c;
            fd = fc;
            c = b - ratio * (b - a);
            fc = loss(samples, values, c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + ratio * (b - a);
            fd = loss(samples, values, d);
        }
    }
    (a + b) / 2.0
}

/// How the terms are fitted.
#[derive(Clone, Debug)]
pub struct TuneOptions {
    /// Passes over the whole data set.
    pub epochs: usize,
    /// Adam's step size, in centipawns.
    pub learning_rate: f64,
    /// Values that stay as they are (for example the pawn's material,
    /// which anchors the scale).
    pub frozen: Vec<bool>,
    /// Weight of the pull back to the starting values: the loss adds
    /// `prior * sum(((value - start) / 100)^2)` (0: none). Terms the data
    /// cannot tell apart (a kind's rank and file terms and its material)
    /// otherwise drift.
    pub prior: f64,
}

impl Default for TuneOptions {
    fn default() -> TuneOptions {
        TuneOptions {
            epochs: 2000,
            learning_rate: 1.0,
            frozen: Vec::new(),
            prior: 0.0,
        }
    }
}

/// The gradient of the loss with respect to the values.
fn gradient(samples: &[Sample], values: &[f64], k: f64) -> Vec<f64> {
    let slope = k * std::f64::consts::LN_10 / 400.0;
    let parts = parallel(samples, |chunk| {
        let mut g = vec![0.0; values.len()];
        for s in chunk {
            let p = expected(s.evaluation(values), k);
            let d = 2.0 * (p - s.result as f64) * p * (1.0 - p) * slope;
            for &(i, c) in &s.coefficients {
                g[i as usize] += d * c as f64;
            }
        }
        g
    });
    let n = samples.len().max(1) as f64;
    let mut g = vec![0.0; values.len()];
    for part in parts {
        for (a, b) in g.iter_mut().zip(part) {
            *a += b / n;
        }
    }
    g
}

/// Adam over the whole data set from `initial`; `progress` hears the loss
/// every 100 epochs. The same input gives the same output.
pub fn fit(
    samples: &[Sample],
    initial: &[f64],
    k: f64,
    options: &TuneOptions,
    mut progress: impl FnMut(usize, f64),
) -> Vec<f64> {
    let (b1, b2, eps) = (0.9, 0.999, 1e-8);
    let mut values = initial.to_vec();
    let mut m = vec![0.0; values.len()];
    let mut v = vec![0.0; values.len()];
    for epoch in 1..=options.epochs {
        let mut g = gradient(samples, &values, k);
        for (i, g) in g.iter_mut().enumerate() {
            *g += 2.0 * options.prior * (values[i] - initial[i]) / 1e4;
        }
        for i in 0..values.len() {
            if options.frozen.get(i).copied().unwrap_or(false) {
                continue;
            }
            m[i] = b1 * m[i] + (1.0 - b1) * g[i];
            v[i] = b2 * v[i] + (1.0 - b2) * g[i] * g[i];
            let m_hat = m[i] / (1.0 - b1.powi(epoch as i32));
            let v_hat = v[i] / (1.0 - b2.powi(epoch as i32));
            values[i] -= options.learning_rate * m_hat / (v_hat.sqrt() + eps);
        }
        if epoch % 100 == 0 || epoch == options.epochs {
            progress(epoch, loss(samples, &values, k));
        }
    }
    values
}

/// Runs `f` over two halves of `samples` on two threads (this machine's
/// cores), in a fixed order, so that sums come out the same every time.
fn parallel<T: Send>(samples: &[Sample], f: impl Fn(&[Sample]) -> T + Sync) -> Vec<T> {
    if samples.len() < 4096 {
        return vec![f(samples)];
    }
    let (a, b) = samples.split_at(samples.len() / 2);
    std::thread::scope(|s| {
        let other = s.spawn(|| f(b));
        let first = f(a);
        vec![first, other.join().expect("a tuning thread panicked")]
    })
}

/// A line of a positions file that could not be read.
#[derive(Debug, thiserror::Error)]
pub enum PositionsError {
    #[error("line {line}: {message}")]
    Line { line: usize, message: String },
    #[error("{0}")]
    Io(#[from] std::io::Error),
    #[error("the variant {0} is simultaneous; tuning takes turn-based and crowd positions")]
    Simultaneous(String),
}

/// One line of a positions file: a position, White's result, and what
/// the engine to move there reported, for White (if it was written).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PositionLine<'a> {
    pub fen: &'a str,
    pub result: f32,
    pub centipawns: Option<i32>,
}

/// Reads `FEN [result] [centipawns]` lines (result 1.0, 0.5 or 0.0 for
/// White; `1-0`, `1/2-1/2` and `0-1` too; the centipawns for White may be
/// left out); blank lines and `#` comments are skipped.
pub fn parse_line(line: &str) -> Result<Option<PositionLine<'_>>, String> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    let open = line
        .rfind('[')
        .ok_or("expected `FEN [result]`, e.g. `... w - - 0 1 [1.0]`")?;
    let (inner, after) = line[open + 1..]
        .split_once(']')
        .ok_or("the result must end with `]`")?;
    let result = match inner.trim().trim_matches('"') {
        "1.0" | "1" | "1-0" => 1.0,
        "0.5" | "1/2-1/2" => 0.5,
        "0.0" | "0" | "0-1" => 0.0,
        other => return Err(format!("unknown result `{other}` (1.0, 0.5 or 0.0)")),
    };
    let centipawns = match after.trim() {
        "" => None,
        cp => Some(cp.parse::<i32>().map_err(|_| {
            format!("after the result, expected White's centipawns (e.g. -21), not `{cp}`")
        })?),
    };
    Ok(Some(PositionLine {
        fen: line[..open].trim(),
        result,
        centipawns,
    }))
}

/// The samples of a positions file for `variant`, each position first
/// resolved to the end of its quiescence line (so that no capture is
/// pending), traced with `tables`' layout.
pub fn read_samples(
    variant: &'static Variant,
    tables: &EvalTables,
    input: impl BufRead,
    limit: Option<usize>,
) -> Result<Vec<Sample>, PositionsError> {
    match variant.spec.family {
        Family::TurnBased => read_family::<Position>(variant, tables, input, limit),
        Family::Crowd => read_family::<CrowdPosition>(variant, tables, input, limit),
        Family::Simultaneous => Err(PositionsError::Simultaneous(variant.id().to_string())),
    }
}

fn read_family<B: TurnPosition>(
    variant: &'static Variant,
    tables: &EvalTables,
    input: impl BufRead,
    limit: Option<usize>,
) -> Result<Vec<Sample>, PositionsError> {
    let shared = std::sync::Arc::new(Shared::new(1));
    let mut out = Vec::new();
    for (n, line) in input.lines().enumerate() {
        if limit.is_some_and(|l| out.len() >= l) {
            break;
        }
        let line = line?;
        let bad = |message: String| PositionsError::Line {
            line: n + 1,
            message,
        };
        let Some(PositionLine { fen, result, .. }) = parse_line(&line).map_err(bad)? else {
            continue;
        };
        let pos = B::from_fen(variant, fen).map_err(|e| bad(e.to_string()))?;
        let leaf =
            Searcher::new(shared.clone(), pos.clone(), &[], Limits::default()).quiet_leaf(&pos);
        let trace = eval::trace(&leaf, tables, Some(leaf.side()));
        out.push(Sample {
            coefficients: trace.coefficients(),
            offset: trace.offset(),
            result,
        });
    }
    Ok(out)
}

/// What `parity tune` reports.
#[derive(Clone, Debug)]
pub struct Tuned {
    pub params: Params,
    pub k: f64,
    pub loss_before: f64,
    pub loss_after: f64,
    pub samples: usize,
}

/// Which values stay fixed: the material of the first pawn kind (the
/// anchor of the scale) and every term whose name is or starts with one
/// of `names` followed by a dot (`king_danger` holds `king_danger.0`, ...).
pub fn frozen_values(variant: &Variant, params: &Params, names: &[String]) -> Vec<bool> {
    let mut frozen = vec![false; 2 * params.terms.len()];
    if let Some(p) = variant.kinds.iter().position(|k| k.pawn) {
        let i = params.layout.material + p;
        frozen[2 * i] = true;
        frozen[2 * i + 1] = true;
    }
    for (i, term) in params.layout.names().iter().enumerate() {
        let named = names.iter().any(|n| {
            term == n
                || term
                    .strip_prefix(n.as_str())
                    .is_some_and(|r| r.starts_with('.'))
        });
        if named {
            frozen[2 * i] = true;
            frozen[2 * i + 1] = true;
        }
    }
    frozen
}

/// Tunes the terms of `start` on `samples`; unless `options` says which
/// values stay, all but the pawn's material move ([`frozen_values`]).
pub fn tune(
    variant: &'static Variant,
    start: &Params,
    samples: &[Sample],
    options: &TuneOptions,
    progress: impl FnMut(usize, f64),
) -> Tuned {
    let initial = start.values();
    let k = fit_scale(samples, &initial);
    let loss_before = loss(samples, &initial, k);
    let mut options = options.clone();
    if options.frozen.is_empty() {
        options.frozen = frozen_values(variant, start, &[]);
    }
    let values = fit(samples, &initial, k, &options, progress);
    let params = start.with_values(&values);
    let loss_after = loss(samples, &params.values(), k);
    Tuned {
        params,
        k,
        loss_before,
        loss_after,
        samples: samples.len(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Results drawn from a known linear model: the fit finds its values.
    fn synthetic(truth: &[f64], k: f64, n: usize) -> Vec<Sample> {
        use rand_chacha::rand_core::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let mut unit = move || (rng.next_u32() as f64) / (u32::MAX as f64);
        (0..n)
            .map(|_| {
                let coefficients: Vec<(u32, f32)> = (0..truth.len())
                    .map(|i| (i as u32, (unit() * 6.0 - 3.0).round() as f32))
                    .collect();
                let mut s = Sample {
                    coefficients,
                    offset: 0.0,
                    result: 0.0,
                };
                let p = expected(s.evaluation(truth), k);
                // Three outcomes with the model's expected score.
                let u = unit();
                let draw = 0.2 * (1.0 - (2.0 * p - 1.0).abs());
                s.result = if u < p - draw / 2.0 {
                    1.0
                } else if u < p + draw / 2.0 {
                    0.5
                } else {
                    0.0
                };
                s
            })
            .collect()
    }

    #[test]
    fn recovers_a_known_optimum() {
        let truth = [120.0, -60.0, 35.0, 0.0];
        let samples = synthetic(&truth, 1.0, 20_000);
        let options = TuneOptions {
            epochs: 600,
            learning_rate: 2.0,
            ..TuneOptions::default()
        };
        let found = fit(&samples, &[0.0; 4], 1.0, &options, |_, _| {});
        for (f, t) in found.iter().zip(truth) {
            assert!((f - t).abs() < 12.0, "found {found:?}, truth {truth:?}");
        }
        assert!(loss(&samples, &found, 1.0) < loss(&samples, &[0.0; 4], 1.0));
    }

    #[test]
    fn the_scale_is_found_with_fixed_values() {
        let truth = [100.0, 50.0];
        let samples = synthetic(&truth, 1.6, 20_000);
        let k = fit_scale(&samples, &truth);
        assert!((k - 1.6).abs() < 0.25, "{k}");
    }

    #[test]
    fn the_prior_pulls_towards_the_start() {
        let samples = synthetic(&[150.0], 1.0, 5_000);
        let with = |prior| {
            let options = TuneOptions {
                epochs: 400,
                learning_rate: 2.0,
                prior,
                ..TuneOptions::default()
            };
            fit(&samples, &[0.0], 1.0, &options, |_, _| {})[0]
        };
        let (free, held, firm) = (with(0.0), with(0.01), with(1.0));
        assert!(free > 120.0, "{free}");
        assert!(held < free - 10.0 && held > 10.0, "{held} against {free}");
        assert!(firm.abs() < 10.0, "{firm}");
    }

    #[test]
    fn frozen_values_stay() {
        let samples = synthetic(&[80.0, 40.0], 1.0, 5_000);
        let options = TuneOptions {
            epochs: 200,
            learning_rate: 2.0,
            frozen: vec![true, false],
            ..TuneOptions::default()
        };
        let found = fit(&samples, &[10.0, 0.0], 1.0, &options, |_, _| {});
        assert_eq!(found[0], 10.0);
        assert!(found[1] > 20.0);
    }

    #[test]
    fn named_terms_and_the_pawn_are_frozen() {
        let v = parity_rules::Registry::builtin().get("chess").unwrap();
        let p = crate::eval::EvalTables::derived(v).params;
        let frozen = frozen_values(v, &p, &["king_danger".to_string(), "tempo".to_string()]);
        let names = p.layout.names();
        for (i, name) in names.iter().enumerate() {
            let expect =
                name == "material.P" || name.starts_with("king_danger.") || name == "tempo";
            assert_eq!(frozen[2 * i], expect, "{name}");
            assert_eq!(frozen[2 * i + 1], expect, "{name}");
        }
    }

    #[test]
    fn lines_are_read_in_both_result_styles() {
        let fen = "4k3/8/8/8/8/8/8/4K3 w - - 0 1";
        let line = |result, centipawns| {
            Ok(Some(PositionLine {
                fen,
                result,
                centipawns,
            }))
        };
        assert_eq!(parse_line(&format!("{fen} [1.0]")), line(1.0, None));
        assert_eq!(parse_line(&format!("{fen} [\"1/2-1/2\"]")), line(0.5, None));
        assert_eq!(parse_line(&format!("{fen} [0-1]")), line(0.0, None));
        assert_eq!(
            parse_line(&format!("{fen} [0-1] -35")),
            line(0.0, Some(-35))
        );
        assert_eq!(parse_line("  # comment"), Ok(None));
        assert!(parse_line(fen).is_err());
        assert!(parse_line(&format!("{fen} [2.0]")).is_err());
        assert!(parse_line(&format!("{fen} [1.0] +M3")).is_err());
    }
}
