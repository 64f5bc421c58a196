//! A learned evaluation: a small network over one input per (side, kind,
//! square) seen from each side, for any variant's pieces and board. One
//! hidden layer of clipped-ReLU units (or their squares, [`Activation`])
//! is computed for the side to move
//! and one for the other side (the board mirrored), both from the same
//! weights, and one output reads the two: one of several, chosen by the
//! number of pieces on the board (output buckets). Integers at inference (`i16`
//! weights), floats in training (`train.rs`). A variant plays with its
//! built-in network (`variants/<id>.net`) if it has one, and with the
//! hand-made evaluation otherwise.

mod simd;
pub mod train;

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use parity_rules::position::MAX_KINDS;
use parity_rules::{Bitboard, Color, Kind, PieceView, Square, Variant, Word};

use crate::eval::{Score, MATE_BOUND};

/// The built-in networks of the variants (`variants/*.net`).
const BUILT_IN: &[(&str, &[u8])] = &[("chess", include_bytes!("../../../../variants/chess.net"))];

/// Scale of the clipped activation (1.0 in training).
pub const QA: i32 = 255;
/// Scale of the output weights.
pub const QB: i32 = 1024;
/// Scale of the output weights with squared activations: small enough
/// that an activation times a weight fits in 16 bits (255 · 1.98 · 64).
pub const QB_SQUARED: i32 = 64;
/// Centipawns of our evaluation per unit of the network's output, whose
/// logistic is the expected score: the hand-made terms' scale (their tuned
/// logistic has about 170 cp a unit), which the search's margins assume.
pub const CP_PER_UNIT: i32 = 200;
/// Centipawns per unit of the scores in training positions (an engine's
/// reported centipawns, such as fairy-stockfish's).
pub const LABEL_CP_PER_UNIT: f32 = 400.0;
/// Largest hidden layer inference keeps on the stack.
pub const MAX_HIDDEN: usize = 1024;
/// Weights are clipped to this in training, so that quantized sums fit.
pub const WEIGHT_BOUND: f32 = 1.98;
const MAGIC: &[u8; 8] = b"PARITYNN";
/// Version 2 added output buckets and the activation; version 1 files
/// have one bucket and clipped ReLU.
const VERSION: u32 = 2;
/// Most output buckets a file may have.
pub const MAX_BUCKETS: usize = 64;

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum NetError {
    #[error("not a network file (it must start with PARITYNN)")]
    Magic,
    #[error("network file version {0}; this build reads versions 1 to {VERSION}")]
    Version(u32),
    #[error("the network file ends early, at byte {0}")]
    Truncated(usize),
    #[error("{0} bytes after the end of the network")]
    Trailing(usize),
    #[error("the network's text fields are not UTF-8")]
    Text,
    #[error("the network is for {found}, not {expected}")]
    Variant { expected: String, found: String },
    #[error("the network has {found} inputs; {variant} needs {expected} (2 sides x {kinds} kinds x {squares} squares)")]
    Inputs {
        variant: String,
        expected: usize,
        found: usize,
        kinds: usize,
        squares: usize,
    },
    #[error("the hidden layer has {0} units; 1 to {MAX_HIDDEN} are read")]
    Hidden(usize),
    #[error("the network has {0} output buckets; 1 to {MAX_BUCKETS} are read")]
    Buckets(usize),
    #[error("unknown activation {0} (0 is clipped ReLU, 1 its square)")]
    Activation(u32),
}

/// What a hidden unit gives the output: its sum clipped to 0..1, or the
/// square of that (more of the output from strongly active units).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Activation {
    #[default]
    ClippedRelu,
    SquaredClippedRelu,
}

impl Activation {
    fn code(self) -> u32 {
        match self {
            Activation::ClippedRelu => 0,
            Activation::SquaredClippedRelu => 1,
        }
    }

    fn of_code(code: u32) -> Result<Activation, NetError> {
        match code {
            0 => Ok(Activation::ClippedRelu),
            1 => Ok(Activation::SquaredClippedRelu),
            _ => Err(NetError::Activation(code)),
        }
    }

    /// The scale of the output weights.
    pub fn output_scale(self) -> i32 {
        match self {
            Activation::ClippedRelu => QB,
            Activation::SquaredClippedRelu => QB_SQUARED,
        }
    }

    /// The activation of a float sum.
    #[inline]
    pub fn of(self, sum: f32) -> f32 {
        let c = sum.clamp(0.0, 1.0);
        match self {
            Activation::ClippedRelu => c,
            Activation::SquaredClippedRelu => c * c,
        }
    }

    /// Its derivative (zero where the sum is clipped).
    #[inline]
    pub fn slope(self, sum: f32) -> f32 {
        if sum <= 0.0 || sum >= 1.0 {
            return 0.0;
        }
        match self {
            Activation::ClippedRelu => 1.0,
            Activation::SquaredClippedRelu => 2.0 * sum,
        }
    }
}

impl std::str::FromStr for Activation {
    type Err = String;

    fn from_str(s: &str) -> Result<Activation, String> {
        match s {
            "crelu" => Ok(Activation::ClippedRelu),
            "screlu" => Ok(Activation::SquaredClippedRelu),
            _ => Err(format!("unknown activation {s:?} (crelu or screlu)")),
        }
    }
}

/// The sizes of a variant's inputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Inputs {
    pub kinds: usize,
    pub squares: usize,
    files: u8,
    ranks: u8,
}

impl Inputs {
    pub fn of(v: &Variant) -> Inputs {
        Inputs {
            kinds: v.kinds.len(),
            squares: v.shape.len(),
            files: v.shape.files,
            ranks: v.shape.ranks,
        }
    }

    pub fn count(&self) -> usize {
        2 * self.kinds * self.squares
    }

    /// The input of a piece seen from `perspective`: its own pieces first,
    /// the board mirrored for Black, so both sides share the weights.
    #[inline]
    pub fn index(&self, perspective: Color, color: Color, kind: Kind, sq: Square) -> usize {
        let theirs = (color != perspective) as usize;
        let sq = if perspective == Color::White {
            sq.index()
        } else {
            let (file, rank) = (
                sq.index() % self.files as usize,
                sq.index() / self.files as usize,
            );
            (self.ranks as usize - 1 - rank) * self.files as usize + file
        };
        (theirs * self.kinds + kind.index()) * self.squares + sq
    }

    /// The inputs of `pos` from White's view; Black's are
    /// [`Self::for_black`] of them.
    pub fn of_position<V: PieceView>(&self, pos: &V, out: &mut Vec<u16>) {
        out.clear();
        pos.for_each_piece(|color, kind, sq| {
            out.push(self.index(Color::White, color, kind, sq) as u16);
        });
    }

    /// White's input `index` as Black sees it.
    #[inline]
    pub fn for_black(&self, index: usize) -> usize {
        let per_side = self.kinds * self.squares;
        let (side, rest) = (index / per_side, index % per_side);
        let (kind, sq) = (rest / self.squares, rest % self.squares);
        let (file, rank) = (sq % self.files as usize, sq / self.files as usize);
        let mirrored = (self.ranks as usize - 1 - rank) * self.files as usize + file;
        ((1 - side) * self.kinds + kind) * self.squares + mirrored
    }

    /// The output bucket of a position with `pieces` pieces, of `buckets`:
    /// equal shares of pieces up to half the board's squares (a full
    /// start position in chess, tutti-frutti and parity12).
    #[inline]
    pub fn bucket(&self, pieces: usize, buckets: usize) -> usize {
        (pieces.saturating_sub(1) * buckets / (self.squares / 2).max(1)).min(buckets - 1)
    }

    /// Input `index` with the board mirrored file for file (a1 to h1).
    pub fn mirror_files(&self, index: usize) -> usize {
        let sq = index % self.squares;
        let (file, rank) = (sq % self.files as usize, sq / self.files as usize);
        index - sq + rank * self.files as usize + (self.files as usize - 1 - file)
    }
}

/// A network ready for inference.
#[derive(Clone, Debug, PartialEq)]
pub struct Network {
    pub variant: String,
    /// How it was made (the command), kept in the file.
    pub comment: String,
    pub inputs: Inputs,
    pub hidden: usize,
    /// Output buckets ([`Inputs::bucket`]).
    pub buckets: usize,
    pub activation: Activation,
    /// Per input, its weights to every hidden unit (scaled by [`QA`]).
    w1: Vec<i16>,
    b1: Vec<i16>,
    /// Per bucket, the side to move's units, then the other side's
    /// (scaled by the activation's [`Activation::output_scale`], `QB`).
    w2: Vec<i16>,
    /// Per bucket, scaled by `QA` times the output scale.
    b2: Vec<i32>,
}

impl Network {
    /// A network from its quantized weights (what training writes).
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        v: &Variant,
        comment: String,
        hidden: usize,
        activation: Activation,
        w1: Vec<i16>,
        b1: Vec<i16>,
        w2: Vec<i16>,
        b2: Vec<i32>,
    ) -> Network {
        let inputs = Inputs::of(v);
        let buckets = b2.len();
        assert_eq!(w1.len(), inputs.count() * hidden);
        assert_eq!((b1.len(), w2.len()), (hidden, 2 * hidden * buckets));
        Network {
            variant: v.id().to_string(),
            comment,
            inputs,
            hidden,
            buckets,
            activation,
            w1,
            b1,
            w2,
            b2,
        }
    }

    /// The score of `pos` for `side`, the side to move, summed from nothing
    /// (the search keeps [`Accumulator`]s instead).
    pub fn evaluate<V: PieceView>(&self, pos: &V, side: Color) -> Score {
        let mut acc = Accumulator::new(self);
        self.update(&[], pos, &mut acc);
        self.output(&acc, side)
    }

    /// The file's bytes: magic, version, variant, comment, sizes (inputs,
    /// hidden units, buckets), the activation, then the weights,
    /// little-endian.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        for text in [&self.variant, &self.comment] {
            out.extend_from_slice(&(text.len() as u32).to_le_bytes());
            out.extend_from_slice(text.as_bytes());
        }
        for n in [self.inputs.count(), self.hidden, self.buckets] {
            out.extend_from_slice(&(n as u32).to_le_bytes());
        }
        out.extend_from_slice(&self.activation.code().to_le_bytes());
        for w in self.w1.iter().chain(&self.b1).chain(&self.w2) {
            out.extend_from_slice(&w.to_le_bytes());
        }
        for b in &self.b2 {
            out.extend_from_slice(&b.to_le_bytes());
        }
        out
    }

    /// Reads a network file for `v` (version 1 or 2).
    pub fn from_bytes(v: &Variant, bytes: &[u8]) -> Result<Network, NetError> {
        let mut r = Reader {
            bytes,
            at: 0,
            version: 0,
        };
        let variant = r.header()?;
        let comment = r.text()?;
        if variant != v.id() {
            return Err(NetError::Variant {
                expected: v.id().to_string(),
                found: variant,
            });
        }
        let inputs = Inputs::of(v);
        let count = r.u32()? as usize;
        if count != inputs.count() {
            return Err(NetError::Inputs {
                variant: variant.clone(),
                expected: inputs.count(),
                found: count,
                kinds: inputs.kinds,
                squares: inputs.squares,
            });
        }
        let hidden = r.u32()? as usize;
        if hidden == 0 || hidden > MAX_HIDDEN {
            return Err(NetError::Hidden(hidden));
        }
        let buckets = if r.version >= 2 { r.u32()? as usize } else { 1 };
        if buckets == 0 || buckets > MAX_BUCKETS {
            return Err(NetError::Buckets(buckets));
        }
        let activation = if r.version >= 2 {
            Activation::of_code(r.u32()?)?
        } else {
            Activation::ClippedRelu
        };
        let w1 = r.i16s(count * hidden)?;
        let b1 = r.i16s(hidden)?;
        let w2 = r.i16s(2 * hidden * buckets)?;
        let b2 = (0..buckets)
            .map(|_| Ok(r.u32()? as i32))
            .collect::<Result<Vec<i32>, NetError>>()?;
        if r.at != bytes.len() {
            return Err(NetError::Trailing(bytes.len() - r.at));
        }
        Ok(Network {
            variant,
            comment,
            inputs,
            hidden,
            buckets,
            activation,
            w1,
            b1,
            w2,
            b2,
        })
    }
}

/// The hidden layer's sums for both perspectives (White's, then Black's),
/// with the pieces they were summed from: a search updates a child's from
/// its parent's by the pieces that differ, whatever the move was.
#[derive(Clone, Debug)]
pub struct Accumulator<W: Word> {
    sums: Vec<i16>,
    presence: [[Bitboard<W>; MAX_KINDS]; 2],
    /// Whether `sums` hold the sums of `presence` (false until first used).
    ready: bool,
}

impl<W: Word> Accumulator<W> {
    pub fn new(net: &Network) -> Accumulator<W> {
        Accumulator {
            sums: vec![0; 2 * net.hidden],
            presence: [[Bitboard::EMPTY; MAX_KINDS]; 2],
            ready: false,
        }
    }
}

/// Pieces that differ by more than this are summed again from nothing.
const MAX_CHANGES: usize = 12;

/// Rows summed in one pass over the sums.
const ROWS_PER_PASS: usize = 16;

impl Network {
    /// The weights of a piece's input from `perspective`.
    #[inline]
    fn row(&self, perspective: Color, color: Color, kind: Kind, sq: Square) -> &[i16] {
        let h = self.hidden;
        let i = self.inputs.index(perspective, color, kind, sq);
        &self.w1[i * h..(i + 1) * h]
    }

    /// Sets `to` to the sums of `pos`: from those of the ready one of
    /// `near` that differs from it by the fewest pieces, if they are few,
    /// else from nothing. Crowds (one square, several pieces of a kind)
    /// are always summed from nothing.
    pub fn update<V: PieceView>(
        &self,
        near: &[Accumulator<V::W>],
        pos: &V,
        to: &mut Accumulator<V::W>,
    ) {
        let kinds = self.inputs.kinds;
        for color in Color::ALL {
            for k in 0..kinds {
                to.presence[color.index()][k] = pos.presence(color, Kind(k as u8));
            }
        }
        to.ready = true;
        let h = self.hidden;
        let changes = |from: &Accumulator<V::W>| -> usize {
            let mut n = 0;
            for c in 0..2 {
                for k in 0..kinds {
                    n += (from.presence[c][k] ^ to.presence[c][k]).count() as usize;
                }
            }
            n
        };
        // The latest first: usually the parent, a move away.
        let mut nearest: Option<(usize, &Accumulator<V::W>)> = None;
        if pos.crowd_squares().is_empty() {
            for f in near.iter().rev().filter(|f| f.ready) {
                let n = changes(f);
                if nearest.is_none_or(|(best, _)| n < best) {
                    nearest = Some((n, f));
                }
                if n <= 3 {
                    break;
                }
            }
        }
        let nearest = nearest.filter(|&(n, _)| n <= MAX_CHANGES);
        if let Some((_, from)) = nearest {
            // The pieces gone and come, as (colour, kind, square).
            let (mut gone, mut come) = ([None; MAX_CHANGES], [None; MAX_CHANGES]);
            let (mut n_gone, mut n_come) = (0, 0);
            for color in Color::ALL {
                for k in 0..kinds {
                    let (old, new) = (
                        from.presence[color.index()][k],
                        to.presence[color.index()][k],
                    );
                    for sq in old & !new {
                        gone[n_gone] = Some((color, Kind(k as u8), sq));
                        n_gone += 1;
                    }
                    for sq in new & !old {
                        come[n_come] = Some((color, Kind(k as u8), sq));
                        n_come += 1;
                    }
                }
            }
            for (p, perspective) in Color::ALL.into_iter().enumerate() {
                let rows = |list: &[Option<(Color, Kind, Square)>]| {
                    let mut out: [&[i16]; MAX_CHANGES] = [&[]; MAX_CHANGES];
                    for (o, &(c, k, sq)) in out.iter_mut().zip(list.iter().flatten()) {
                        *o = self.row(perspective, c, k, sq);
                    }
                    out
                };
                let (adds, subs) = (rows(&come[..n_come]), rows(&gone[..n_gone]));
                simd::apply(
                    &mut to.sums[p * h..(p + 1) * h],
                    Some(&from.sums[p * h..(p + 1) * h]),
                    &adds[..n_come],
                    &subs[..n_gone],
                );
            }
            return;
        }
        for (p, perspective) in Color::ALL.into_iter().enumerate() {
            let half = &mut to.sums[p * h..(p + 1) * h];
            half.copy_from_slice(&self.b1);
            let mut rows: [&[i16]; ROWS_PER_PASS] = [&[]; ROWS_PER_PASS];
            let mut n = 0;
            pos.for_each_piece(|color, kind, sq| {
                rows[n] = self.row(perspective, color, kind, sq);
                n += 1;
                if n == ROWS_PER_PASS {
                    simd::apply(half, None, &rows, &[]);
                    n = 0;
                }
            });
            simd::apply(half, None, &rows[..n], &[]);
        }
    }

    /// The score for `side` to move of the position `acc` was summed from.
    pub fn output<W: Word>(&self, acc: &Accumulator<W>, side: Color) -> Score {
        let h = self.hidden;
        let (us, them) = match side {
            Color::White => (&acc.sums[..h], &acc.sums[h..]),
            Color::Black => (&acc.sums[h..], &acc.sums[..h]),
        };
        let b = if self.buckets == 1 {
            0
        } else {
            let pieces: u32 = acc.presence[..]
                .iter()
                .flat_map(|side| &side[..self.inputs.kinds])
                .map(|set| set.count())
                .sum();
            self.inputs.bucket(pieces as usize, self.buckets)
        };
        let w2 = &self.w2[2 * h * b..2 * h * (b + 1)];
        let out = match self.activation {
            Activation::ClippedRelu => simd::output(us, them, &w2[..h], &w2[h..]) as i64,
            // Summed at QA² · QB_SQUARED; back to QA · QB_SQUARED.
            Activation::SquaredClippedRelu => {
                simd::output_squared(us, them, &w2[..h], &w2[h..]) / QA as i64
            }
        };
        to_centipawns(
            self.b2[b] as i64 + out,
            QA as i64 * self.activation.output_scale() as i64,
        )
    }
}

fn to_centipawns(out: i64, scale: i64) -> Score {
    let cp = out * CP_PER_UNIT as i64 / scale;
    cp.clamp(-(MATE_BOUND as i64) + 1, MATE_BOUND as i64 - 1) as Score
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
    /// The file's version, once its header is read.
    version: u32,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], NetError> {
        let end = self
            .at
            .checked_add(n)
            .filter(|&e| e <= self.bytes.len())
            .ok_or(NetError::Truncated(self.bytes.len()))?;
        let out = &self.bytes[self.at..end];
        self.at = end;
        Ok(out)
    }

    fn u32(&mut self) -> Result<u32, NetError> {
        Ok(u32::from_le_bytes(
            self.take(4)?.try_into().expect("4 bytes"),
        ))
    }

    /// The magic, the version, and the variant's id.
    fn header(&mut self) -> Result<String, NetError> {
        if self.take(8)? != MAGIC {
            return Err(NetError::Magic);
        }
        let version = self.u32()?;
        if !(1..=VERSION).contains(&version) {
            return Err(NetError::Version(version));
        }
        self.version = version;
        self.text()
    }

    fn text(&mut self) -> Result<String, NetError> {
        let n = self.u32()? as usize;
        String::from_utf8(self.take(n)?.to_vec()).map_err(|_| NetError::Text)
    }

    fn i16s(&mut self, n: usize) -> Result<Vec<i16>, NetError> {
        let raw = self.take(
            n.checked_mul(2)
                .ok_or(NetError::Truncated(self.bytes.len()))?,
        )?;
        Ok(raw
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]))
            .collect())
    }
}

/// The id of the variant a network file is for.
pub fn file_variant(bytes: &[u8]) -> Result<String, NetError> {
    Reader {
        bytes,
        at: 0,
        version: 0,
    }
    .header()
}

/// Which network each variant plays with: None for the hand-made evaluation.
type Chosen = Mutex<HashMap<usize, Option<Arc<Network>>>>;

fn chosen() -> &'static Chosen {
    static CHOSEN: OnceLock<Chosen> = OnceLock::new();
    CHOSEN.get_or_init(Default::default)
}

/// The built-in network file of a variant, if it has one.
pub fn built_in(id: &str) -> Option<&'static [u8]> {
    BUILT_IN.iter().find(|(v, _)| *v == id).map(|(_, b)| *b)
}

/// The network `variant` plays with (variants are interned, so the
/// address is its identity): the one set by [`set`], else its built-in one.
pub fn of(variant: &'static Variant) -> Option<Arc<Network>> {
    let mut map = chosen().lock().unwrap_or_else(|e| e.into_inner());
    map.entry(variant as *const Variant as usize)
        .or_insert_with(|| {
            built_in(variant.id()).map(|bytes| {
                let net = Network::from_bytes(variant, bytes)
                    .unwrap_or_else(|e| panic!("built-in network of {} broken: {e}", variant.id()));
                Arc::new(net)
            })
        })
        .clone()
}

/// From now on `variant` plays with `net`, or with the hand-made
/// evaluation for None (the UCI option `EvalNet`).
pub fn set(variant: &'static Variant, net: Option<Network>) {
    let mut map = chosen().lock().unwrap_or_else(|e| e.into_inner());
    map.insert(variant as *const Variant as usize, net.map(Arc::new));
}

#[cfg(test)]
mod tests;
