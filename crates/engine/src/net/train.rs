//! Training a [`Network`] from positions with labels (`parity train`): the
//! expected score of each position for its side to move, a blend of what
//! an engine's search said there and of the game's result, fitted with
//! Adam over mini-batches in floats, then quantized.

use std::io::BufRead;

use parity_rules::crowd::CrowdPosition;
use parity_rules::variant::Family;
use parity_rules::{Color, Position, TurnPosition, Variant};
use rand::seq::SliceRandom;
use rand_chacha::rand_core::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::{Activation, Inputs, Network, CP_PER_UNIT, LABEL_CP_PER_UNIT, QA, WEIGHT_BOUND};
use crate::tune::{parse_line, PositionLine, PositionsError};

/// One position: its inputs from White's view and what it should score.
#[derive(Clone, Copy, Debug)]
struct Sample {
    start: u32,
    len: u16,
    white_to_move: bool,
    /// Expected score for the side to move, 0 to 1.
    target: f32,
    /// The sample before this one, mirrored file for file: trained on
    /// with it, never held out.
    mirror: bool,
}

/// Positions ready for training.
pub struct DataSet {
    pub inputs: Inputs,
    indices: Vec<u16>,
    samples: Vec<Sample>,
    /// Also train on each position without castling rights mirrored file
    /// for file (for variants whose pieces move alike both ways).
    pub mirror: bool,
}

fn logistic(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

impl DataSet {
    pub fn new(v: &Variant) -> DataSet {
        DataSet {
            inputs: Inputs::of(v),
            indices: Vec::new(),
            samples: Vec::new(),
            mirror: false,
        }
    }

    /// Positions, their mirrored copies included.
    pub fn len(&self) -> usize {
        self.samples.len()
    }

    pub fn is_empty(&self) -> bool {
        self.samples.is_empty()
    }

    /// Adds a position with White's expected score.
    pub fn push<V: parity_rules::PieceView>(&mut self, pos: &V, side: Color, white_score: f32) {
        let start = self.indices.len() as u32;
        pos.for_each_piece(|color, kind, sq| {
            self.indices
                .push(self.inputs.index(Color::White, color, kind, sq) as u16);
        });
        let white_to_move = side == Color::White;
        self.samples.push(Sample {
            start,
            len: (self.indices.len() as u32 - start) as u16,
            white_to_move,
            target: if white_to_move {
                white_score
            } else {
                1.0 - white_score
            },
            mirror: false,
        });
    }

    /// Adds the last position again, mirrored file for file.
    fn push_mirror_of_last(&mut self) {
        let last = *self.samples.last().expect("a position to mirror");
        let start = self.indices.len() as u32;
        for i in last.start..last.start + last.len as u32 {
            let f = self.inputs.mirror_files(self.indices[i as usize] as usize);
            self.indices.push(f as u16);
        }
        self.samples.push(Sample {
            start,
            mirror: true,
            ..last
        });
    }

    /// Reads a positions file (`FEN [result] centipawns` lines, as
    /// `parity match --positions` writes them). Each position's expected
    /// score is `wdl` times the result plus the rest times the logistic of
    /// the centipawns (a line without centipawns counts by its result).
    pub fn read(
        &mut self,
        v: &'static Variant,
        input: impl BufRead,
        wdl: f32,
        limit: Option<usize>,
    ) -> Result<usize, PositionsError> {
        match v.spec.family {
            Family::TurnBased => self.read_family::<Position>(v, input, wdl, limit),
            Family::Crowd => self.read_family::<CrowdPosition>(v, input, wdl, limit),
            Family::Simultaneous => Err(PositionsError::Simultaneous(v.id().to_string())),
        }
    }

    fn read_family<B: TurnPosition>(
        &mut self,
        v: &'static Variant,
        input: impl BufRead,
        wdl: f32,
        limit: Option<usize>,
    ) -> Result<usize, PositionsError> {
        let mut read = 0;
        for (n, line) in input.lines().enumerate() {
            if limit.is_some_and(|l| read >= l) {
                break;
            }
            let line = line?;
            let bad = |message: String| PositionsError::Line {
                line: n + 1,
                message,
            };
            let Some(PositionLine {
                fen,
                result,
                centipawns,
            }) = parse_line(&line).map_err(bad)?
            else {
                continue;
            };
            let pos = B::from_fen(v, fen).map_err(|e| bad(e.to_string()))?;
            let score = match centipawns {
                Some(cp) => wdl * result + (1.0 - wdl) * logistic(cp as f32 / LABEL_CP_PER_UNIT),
                None => result,
            };
            self.push(&pos, pos.side(), score);
            if self.mirror && fen.split_whitespace().nth(2) == Some("-") {
                self.push_mirror_of_last();
            }
            read += 1;
        }
        Ok(read)
    }
}

#[derive(Clone, Debug)]
pub struct TrainOptions {
    pub hidden: usize,
    /// Output buckets by the number of pieces ([`Inputs::bucket`]).
    pub buckets: usize,
    pub activation: Activation,
    pub epochs: usize,
    pub batch: usize,
    pub learning_rate: f32,
    /// The last share of the positions (after shuffling) is held out.
    pub validation: f64,
    pub threads: usize,
    pub seed: u64,
}

impl Default for TrainOptions {
    fn default() -> TrainOptions {
        TrainOptions {
            hidden: 128,
            buckets: 1,
            activation: Activation::ClippedRelu,
            epochs: 20,
            batch: 4096,
            learning_rate: 0.002,
            validation: 0.05,
            threads: 2,
            seed: 1,
        }
    }
}

/// A network in floats: the activation clipped to 0..1, the output in
/// units of [`CP_PER_UNIT`] centipawns.
#[derive(Clone, Debug)]
pub struct FloatNetwork {
    pub inputs: Inputs,
    pub hidden: usize,
    pub buckets: usize,
    pub activation: Activation,
    w1: Vec<f32>,
    b1: Vec<f32>,
    /// Per bucket, both halves' output weights.
    w2: Vec<f32>,
    b2: Vec<f32>,
}

/// One epoch's mean squared error on the training and held-out positions.
#[derive(Clone, Copy, Debug)]
pub struct EpochLoss {
    pub epoch: usize,
    pub train: f64,
    pub validation: f64,
}

impl FloatNetwork {
    pub fn random(
        inputs: Inputs,
        hidden: usize,
        buckets: usize,
        activation: Activation,
        seed: u64,
    ) -> FloatNetwork {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut uniform = |bound: f32| {
            let unit = (rng.next_u32() >> 8) as f32 / (1u32 << 24) as f32;
            (2.0 * unit - 1.0) * bound
        };
        let w1 = (0..inputs.count() * hidden).map(|_| uniform(0.1)).collect();
        let b1 = (0..hidden).map(|_| 0.25 + uniform(0.1)).collect();
        let w2 = (0..2 * hidden * buckets)
            .map(|_| uniform(1.0 / (hidden as f32).sqrt()))
            .collect();
        FloatNetwork {
            inputs,
            hidden,
            buckets,
            activation,
            w1,
            b1,
            w2,
            b2: vec![0.0; buckets],
        }
    }

    fn accumulate(&self, features: impl Iterator<Item = usize>, acc: &mut [f32]) {
        acc.copy_from_slice(&self.b1);
        let h = self.hidden;
        for f in features {
            for (a, w) in acc.iter_mut().zip(&self.w1[f * h..(f + 1) * h]) {
                *a += w;
            }
        }
    }

    /// A sample's output bucket.
    fn bucket(&self, s: &Sample) -> usize {
        self.inputs.bucket(s.len as usize, self.buckets)
    }

    /// The output for a sample's inputs, with both accumulators.
    fn forward(&self, data: &DataSet, s: &Sample, acc: &mut [Vec<f32>; 2]) -> f32 {
        let features = &data.indices[s.start as usize..s.start as usize + s.len as usize];
        self.accumulate(features.iter().map(|&f| f as usize), &mut acc[0]);
        let inputs = self.inputs;
        self.accumulate(
            features.iter().map(|&f| inputs.for_black(f as usize)),
            &mut acc[1],
        );
        let (us, them) = if s.white_to_move { (0, 1) } else { (1, 0) };
        let (h, b) = (self.hidden, self.bucket(s));
        let (w_us, w_them) = self.w2[2 * h * b..2 * h * (b + 1)].split_at(h);
        let f = self.activation;
        let half =
            |a: &[f32], w: &[f32]| -> f32 { a.iter().zip(w).map(|(&a, w)| f.of(a) * w).sum() };
        self.b2[b] + half(&acc[us], w_us) + half(&acc[them], w_them)
    }

    /// The score in centipawns of a position for its side to move.
    pub fn evaluate<V: parity_rules::PieceView>(&self, pos: &V, side: Color) -> f32 {
        let mut data = DataSet {
            inputs: self.inputs,
            indices: Vec::new(),
            samples: Vec::new(),
            mirror: false,
        };
        data.push(pos, side, 0.5);
        let mut acc = [vec![0.0; self.hidden], vec![0.0; self.hidden]];
        self.forward(&data, &data.samples[0], &mut acc) * CP_PER_UNIT as f32
    }

    /// Adds one sample's gradient of the squared error to `g`; returns the error.
    fn backward(&self, data: &DataSet, s: &Sample, scratch: &mut Scratch, g: &mut Gradient) -> f32 {
        let Scratch { acc, delta } = scratch;
        let out = self.forward(data, s, acc);
        let p = logistic(out);
        let e = p - s.target;
        let d = 2.0 * e * p * (1.0 - p);
        let h = self.hidden;
        let (us, them) = if s.white_to_move { (0, 1) } else { (1, 0) };
        let b = self.bucket(s);
        g.b2[b] += d;
        delta[0].fill(0.0);
        delta[1].fill(0.0);
        for i in 0..h {
            for (side, offset) in [(us, 2 * h * b), (them, 2 * h * b + h)] {
                let a = acc[side][i];
                g.w2[offset + i] += d * self.activation.of(a);
                delta[side][i] = d * self.w2[offset + i] * self.activation.slope(a);
            }
        }
        let features = &data.indices[s.start as usize..s.start as usize + s.len as usize];
        for (side, list) in delta.iter().enumerate() {
            for (b, dl) in g.b1.iter_mut().zip(list) {
                *b += dl;
            }
            for &f in features {
                let f = if side == 0 {
                    f as usize
                } else {
                    self.inputs.for_black(f as usize)
                };
                for (w, dl) in g.w1[f * h..(f + 1) * h].iter_mut().zip(list) {
                    *w += dl;
                }
            }
        }
        e * e
    }

    fn loss(&self, data: &DataSet, samples: &[Sample]) -> f64 {
        let mut acc = [vec![0.0; self.hidden], vec![0.0; self.hidden]];
        let sum: f64 = samples
            .iter()
            .map(|s| {
                let e = logistic(self.forward(data, s, &mut acc)) - s.target;
                (e * e) as f64
            })
            .sum();
        sum / samples.len().max(1) as f64
    }

    /// The network with integer weights, as the engine plays it.
    pub fn quantize(&self, v: &Variant, comment: String) -> Network {
        let q = |x: f32, scale: i32| (x * scale as f32).round() as i16;
        let out = self.activation.output_scale();
        Network::new(
            v,
            comment,
            self.hidden,
            self.activation,
            self.w1.iter().map(|&w| q(w, QA)).collect(),
            self.b1.iter().map(|&w| q(w, QA)).collect(),
            self.w2.iter().map(|&w| q(w, out)).collect(),
            self.b2
                .iter()
                .map(|&b| (b * (QA * out) as f32).round() as i32)
                .collect(),
        )
    }
}

/// Per thread: both accumulators and their gradients.
struct Scratch {
    acc: [Vec<f32>; 2],
    delta: [Vec<f32>; 2],
}

impl Scratch {
    fn new(hidden: usize) -> Scratch {
        let zero = || [vec![0.0; hidden], vec![0.0; hidden]];
        Scratch {
            acc: zero(),
            delta: zero(),
        }
    }
}

#[derive(Clone)]
struct Gradient {
    w1: Vec<f32>,
    b1: Vec<f32>,
    w2: Vec<f32>,
    b2: Vec<f32>,
}

impl Gradient {
    fn zero(net: &FloatNetwork) -> Gradient {
        Gradient {
            w1: vec![0.0; net.w1.len()],
            b1: vec![0.0; net.b1.len()],
            w2: vec![0.0; net.w2.len()],
            b2: vec![0.0; net.b2.len()],
        }
    }

    fn clear(&mut self) {
        self.w1.fill(0.0);
        self.b1.fill(0.0);
        self.w2.fill(0.0);
        self.b2.fill(0.0);
    }

    fn add(&mut self, other: &Gradient) {
        for (a, b) in self.w1.iter_mut().zip(&other.w1) {
            *a += b;
        }
        for (a, b) in self.b1.iter_mut().zip(&other.b1) {
            *a += b;
        }
        for (a, b) in self.w2.iter_mut().zip(&other.w2) {
            *a += b;
        }
        for (a, b) in self.b2.iter_mut().zip(&other.b2) {
            *a += b;
        }
    }
}

/// Adam's moments for one list of weights.
struct Moments {
    m: Vec<f32>,
    v: Vec<f32>,
}

impl Moments {
    fn new(n: usize) -> Moments {
        Moments {
            m: vec![0.0; n],
            v: vec![0.0; n],
        }
    }

    fn step(&mut self, w: &mut [f32], g: &[f32], scale: f32, lr: f32, t: i32, bound: f32) {
        let (b1, b2, eps) = (0.9f32, 0.999f32, 1e-8f32);
        let (c1, c2) = (1.0 - b1.powi(t), 1.0 - b2.powi(t));
        for i in 0..w.len() {
            let g = g[i] * scale;
            self.m[i] = b1 * self.m[i] + (1.0 - b1) * g;
            self.v[i] = b2 * self.v[i] + (1.0 - b2) * g * g;
            let step = lr * (self.m[i] / c1) / ((self.v[i] / c2).sqrt() + eps);
            w[i] = (w[i] - step).clamp(-bound, bound);
        }
    }
}

/// Fits a network to `data`; `report` hears each epoch's losses.
pub fn train(
    data: &DataSet,
    options: &TrainOptions,
    mut report: impl FnMut(EpochLoss),
) -> FloatNetwork {
    let mut net = FloatNetwork::random(
        data.inputs,
        options.hidden,
        options.buckets.max(1),
        options.activation,
        options.seed,
    );
    let mut rng = ChaCha8Rng::seed_from_u64(options.seed);
    // Held out: a share of the positions as read; a mirrored copy goes
    // where its position goes.
    let mut order: Vec<usize> = (0..data.samples.len())
        .filter(|&i| !data.samples[i].mirror)
        .collect();
    order.shuffle(&mut rng);
    let held = ((order.len() as f64 * options.validation) as usize).min(order.len() / 2);
    let validation: Vec<Sample> = order[order.len() - held..]
        .iter()
        .map(|&i| data.samples[i])
        .collect();
    let mut train_set: Vec<Sample> = order[..order.len() - held]
        .iter()
        .flat_map(|&i| {
            let mirror = data.samples.get(i + 1).filter(|s| s.mirror);
            std::iter::once(data.samples[i]).chain(mirror.copied())
        })
        .collect();
    let threads = options.threads.max(1);
    let mut grads = vec![Gradient::zero(&net); threads];
    let mut total = Gradient::zero(&net);
    let mut moments = [
        Moments::new(net.w1.len()),
        Moments::new(net.b1.len()),
        Moments::new(net.w2.len()),
        Moments::new(net.b2.len()),
    ];
    let mut t = 0;
    for epoch in 1..=options.epochs {
        train_set.shuffle(&mut rng);
        // From the learning rate down to a tenth of it, evenly in log.
        let progress = (epoch - 1) as f32 / options.epochs.max(2).saturating_sub(1) as f32;
        let lr = options.learning_rate * 0.1f32.powf(progress);
        let mut sum = 0.0f64;
        for batch in train_set.chunks(options.batch.max(1)) {
            let part = batch.len().div_ceil(threads);
            let errors: f64 = std::thread::scope(|scope| {
                let net = &net;
                let handles: Vec<_> = grads
                    .iter_mut()
                    .zip(batch.chunks(part.max(1)))
                    .map(|(g, chunk)| {
                        scope.spawn(move || {
                            g.clear();
                            let mut scratch = Scratch::new(net.hidden);
                            chunk
                                .iter()
                                .map(|s| net.backward(data, s, &mut scratch, g) as f64)
                                .sum::<f64>()
                        })
                    })
                    .collect();
                handles
                    .into_iter()
                    .map(|h| h.join().expect("a training thread panicked"))
                    .sum()
            });
            sum += errors;
            total.clear();
            for g in grads.iter().take(batch.len().div_ceil(part.max(1))) {
                total.add(g);
            }
            t += 1;
            let scale = 1.0 / batch.len() as f32;
            let [m1, mb1, m2, mb2] = &mut moments;
            m1.step(&mut net.w1, &total.w1, scale, lr, t, WEIGHT_BOUND);
            mb1.step(&mut net.b1, &total.b1, scale, lr, t, WEIGHT_BOUND);
            m2.step(&mut net.w2, &total.w2, scale, lr, t, WEIGHT_BOUND);
            mb2.step(&mut net.b2, &total.b2, scale, lr, t, f32::MAX);
        }
        report(EpochLoss {
            epoch,
            train: sum / train_set.len().max(1) as f64,
            validation: net.loss(data, &validation),
        });
    }
    net
}
