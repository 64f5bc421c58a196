//! Maximum-weight matching on a general graph (Edmonds' blossom algorithm
//! with the O(n^3) primal-dual bookkeeping of Galil), over wide unsigned
//! integer weights so that one weight can hold many criteria side by side.

use std::cmp::Ordering;

/// A wide unsigned integer of `W` 64-bit words; arithmetic wraps like the
/// machine integers. The caller picks the narrowest width its weights fit.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Weight<const W: usize>([u64; W]);

impl<const W: usize> Weight<W> {
    /// Zero.
    pub const ZERO: Self = Weight([0; W]);

    /// The weight with value `value`.
    pub fn from_u64(value: u64) -> Self {
        let mut words = [0; W];
        words[0] = value;
        Weight(words)
    }

    /// Whether the weight is zero (an absent edge).
    pub fn is_zero(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    /// Shifted left by `bits` (bits pushed past the top are lost).
    pub fn shl(self, bits: u32) -> Self {
        let (words, bits) = ((bits / 64) as usize, bits % 64);
        let mut out = [0u64; W];
        for i in (words..W).rev() {
            let low = self.0[i - words];
            out[i] = low << bits;
            if bits > 0 && i > words {
                out[i] |= self.0[i - words - 1] >> (64 - bits);
            }
        }
        Weight(out)
    }

    /// Halved (shifted right by one).
    fn half(self) -> Self {
        let mut out = [0u64; W];
        for (i, word) in out.iter_mut().enumerate() {
            *word = self.0[i] >> 1;
            if i + 1 < W {
                *word |= self.0[i + 1] << 63;
            }
        }
        Weight(out)
    }

    /// The wrapping sum.
    pub fn add(self, other: Self) -> Self {
        let mut out = [0u64; W];
        let mut carry = false;
        for (i, word) in out.iter_mut().enumerate() {
            let (s1, c1) = self.0[i].overflowing_add(other.0[i]);
            let (s2, c2) = s1.overflowing_add(carry as u64);
            *word = s2;
            carry = c1 || c2;
        }
        Weight(out)
    }

    /// The wrapping difference.
    pub fn sub(self, other: Self) -> Self {
        let mut out = [0u64; W];
        let mut borrow = false;
        for (i, word) in out.iter_mut().enumerate() {
            let (d1, b1) = self.0[i].overflowing_sub(other.0[i]);
            let (d2, b2) = d1.overflowing_sub(borrow as u64);
            *word = d2;
            borrow = b1 || b2;
        }
        Weight(out)
    }

    /// Bitwise or with a small value.
    pub fn or_u64(mut self, value: u64) -> Self {
        self.0[0] |= value;
        self
    }
}

impl<const W: usize> Ord for Weight<W> {
    fn cmp(&self, other: &Self) -> Ordering {
        self.0.iter().rev().cmp(other.0.iter().rev())
    }
}

impl<const W: usize> PartialOrd for Weight<W> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

const NONE: usize = usize::MAX;

/// A complete graph on `n` vertices whose edge weights can be changed between
/// matchings; weight zero means "no edge".
#[derive(Clone, Debug)]
pub struct Graph<const W: usize> {
    n: usize,
    weights: Vec<Weight<W>>,
}

impl<const W: usize> Graph<W> {
    /// A graph with `n` vertices and no edges.
    pub fn new(n: usize) -> Self {
        Graph {
            n,
            weights: vec![Weight::ZERO; n * n],
        }
    }

    /// The weight of edge `a`–`b`.
    pub fn weight(&self, a: usize, b: usize) -> Weight<W> {
        self.weights[a * self.n + b]
    }

    /// Sets the weight of edge `a`–`b`.
    pub fn set(&mut self, a: usize, b: usize, weight: Weight<W>) {
        self.weights[a * self.n + b] = weight;
        self.weights[b * self.n + a] = weight;
    }

    /// Keeps `a`–`b` (with weight `weight`) and removes every other edge of
    /// `a` and `b`, so every later matching pairs them.
    pub fn fix_pair(&mut self, a: usize, b: usize, weight: Weight<W>) {
        for x in 0..self.n {
            if x != a {
                self.set(a, x, if x == b { weight } else { Weight::ZERO });
            }
            if x != b {
                self.set(b, x, if x == a { weight } else { Weight::ZERO });
            }
        }
    }

    /// A maximum-weight matching of the subgraph on `vertices` (increasing):
    /// `mate[v]` is v's partner, or `v` itself when v is unmatched or not
    /// among `vertices`.
    pub fn max_weight_matching_among(&self, vertices: &[usize]) -> Vec<usize> {
        let mut edges = Vec::new();
        for (a, &va) in vertices.iter().enumerate() {
            for (b, &vb) in vertices.iter().enumerate().skip(a + 1) {
                let w = self.weight(va, vb);
                if !w.is_zero() {
                    edges.push((a, b, w));
                }
            }
        }
        let sub = Blossoms::new(vertices.len(), edges).solve();
        let mut mate: Vec<usize> = (0..self.n).collect();
        for (a, &m) in sub.iter().enumerate() {
            if m != NONE {
                mate[vertices[a]] = vertices[m];
            }
        }
        mate
    }

    /// A maximum-weight matching: `mate[v]` is v's partner, or `v` itself
    /// when v is unmatched.
    pub fn max_weight_matching(&self) -> Vec<usize> {
        let mut edges = Vec::new();
        for a in 0..self.n {
            for b in a + 1..self.n {
                let w = self.weight(a, b);
                if !w.is_zero() {
                    edges.push((a, b, w));
                }
            }
        }
        let mate = Blossoms::new(self.n, edges).solve();
        mate.iter()
            .enumerate()
            .map(|(v, &m)| if m == NONE { v } else { m })
            .collect()
    }
}

/// State of the primal-dual blossom algorithm. Vertices are `0..n`, blossoms
/// `n..2n`; an edge `k` has the endpoints `2k` and `2k + 1`.
struct Blossoms<const W: usize> {
    n: usize,
    edges: Vec<(usize, usize, Weight<W>)>,
    endpoint: Vec<usize>,
    neighbend: Vec<Vec<usize>>,
    mate: Vec<usize>,
    /// 0 free, 1 S (outer), 2 T (inner); 5 marks a path during a scan.
    label: Vec<u8>,
    labelend: Vec<usize>,
    inblossom: Vec<usize>,
    parent: Vec<usize>,
    childs: Vec<Vec<usize>>,
    base: Vec<usize>,
    endps: Vec<Vec<usize>>,
    bestedge: Vec<usize>,
    bestedges: Vec<Option<Vec<usize>>>,
    unused: Vec<usize>,
    dual: Vec<Weight<W>>,
    allowedge: Vec<bool>,
    queue: Vec<usize>,
}

impl<const W: usize> Blossoms<W> {
    fn new(n: usize, edges: Vec<(usize, usize, Weight<W>)>) -> Self {
        let mut endpoint = Vec::with_capacity(2 * edges.len());
        let mut neighbend = vec![Vec::new(); n];
        let mut max = Weight::ZERO;
        for (k, &(i, j, w)) in edges.iter().enumerate() {
            endpoint.push(i);
            endpoint.push(j);
            neighbend[i].push(2 * k + 1);
            neighbend[j].push(2 * k);
            max = max.max(w);
        }
        let m = edges.len();
        Blossoms {
            n,
            edges,
            endpoint,
            neighbend,
            mate: vec![NONE; n],
            label: vec![0; 2 * n],
            labelend: vec![NONE; 2 * n],
            inblossom: (0..n).collect(),
            parent: vec![NONE; 2 * n],
            childs: vec![Vec::new(); 2 * n],
            base: (0..n).chain(std::iter::repeat_n(NONE, n)).collect(),
            endps: vec![Vec::new(); 2 * n],
            bestedge: vec![NONE; 2 * n],
            bestedges: vec![None; 2 * n],
            unused: (n..2 * n).collect(),
            dual: std::iter::repeat_n(max, n)
                .chain(std::iter::repeat_n(Weight::ZERO, n))
                .collect(),
            allowedge: vec![false; m],
            queue: Vec::new(),
        }
    }

    fn slack(&self, k: usize) -> Weight<W> {
        let (i, j, w) = self.edges[k];
        self.dual[i].add(self.dual[j]).sub(w.add(w))
    }

    fn leaves(&self, b: usize, out: &mut Vec<usize>) {
        if b < self.n {
            out.push(b);
        } else {
            for &c in &self.childs[b] {
                self.leaves(c, out);
            }
        }
    }

    fn leaves_of(&self, b: usize) -> Vec<usize> {
        let mut out = Vec::new();
        self.leaves(b, &mut out);
        out
    }

    fn assign_label(&mut self, w: usize, t: u8, p: usize) {
        let b = self.inblossom[w];
        self.label[w] = t;
        self.label[b] = t;
        self.labelend[w] = p;
        self.labelend[b] = p;
        self.bestedge[w] = NONE;
        self.bestedge[b] = NONE;
        if t == 1 {
            let leaves = self.leaves_of(b);
            self.queue.extend(leaves);
        } else {
            let base = self.base[b];
            let m = self.mate[base];
            self.assign_label(self.endpoint[m], 1, m ^ 1);
        }
    }

    /// Traces back from v and w; returns the base of a new blossom, or NONE
    /// when the two trees differ (an augmenting path).
    fn scan_blossom(&mut self, mut v: usize, mut w: usize) -> usize {
        let mut path = Vec::new();
        let mut base = NONE;
        while v != NONE || w != NONE {
            let mut b = self.inblossom[v];
            if self.label[b] & 4 != 0 {
                base = self.base[b];
                break;
            }
            path.push(b);
            self.label[b] = 5;
            if self.labelend[b] == NONE {
                v = NONE;
            } else {
                v = self.endpoint[self.labelend[b]];
                b = self.inblossom[v];
                v = self.endpoint[self.labelend[b]];
            }
            if w != NONE {
                std::mem::swap(&mut v, &mut w);
            }
        }
        for b in path {
            self.label[b] = 1;
        }
        base
    }

    fn add_blossom(&mut self, base: usize, k: usize) {
        let (mut v, mut w, _) = self.edges[k];
        let bb = self.inblossom[base];
        let mut bv = self.inblossom[v];
        let mut bw = self.inblossom[w];
        let Some(b) = self.unused.pop() else {
            return;
        };
        self.base[b] = base;
        self.parent[b] = NONE;
        self.parent[bb] = b;
        let mut path = Vec::new();
        let mut endps = Vec::new();
        while bv != bb {
            self.parent[bv] = b;
            path.push(bv);
            endps.push(self.labelend[bv]);
            v = self.endpoint[self.labelend[bv]];
            bv = self.inblossom[v];
        }
        path.push(bb);
        path.reverse();
        endps.reverse();
        endps.push(2 * k);
        while bw != bb {
            self.parent[bw] = b;
            path.push(bw);
            endps.push(self.labelend[bw] ^ 1);
            w = self.endpoint[self.labelend[bw]];
            bw = self.inblossom[w];
        }
        self.label[b] = 1;
        self.labelend[b] = self.labelend[bb];
        self.dual[b] = Weight::ZERO;
        self.childs[b] = path.clone();
        self.endps[b] = endps;
        for v in self.leaves_of(b) {
            if self.label[self.inblossom[v]] == 2 {
                self.queue.push(v);
            }
            self.inblossom[v] = b;
        }
        let mut bestedgeto = vec![NONE; 2 * self.n];
        for &bv in &path {
            let lists: Vec<usize> = match self.bestedges[bv].take() {
                Some(list) => list,
                None => self
                    .leaves_of(bv)
                    .into_iter()
                    .flat_map(|v| self.neighbend[v].iter().map(|p| p / 2))
                    .collect(),
            };
            for k in lists {
                let (mut i, mut j, _) = self.edges[k];
                if self.inblossom[j] == b {
                    std::mem::swap(&mut i, &mut j);
                }
                let _ = i;
                let bj = self.inblossom[j];
                if bj != b
                    && self.label[bj] == 1
                    && (bestedgeto[bj] == NONE || self.slack(k) < self.slack(bestedgeto[bj]))
                {
                    bestedgeto[bj] = k;
                }
            }
            self.bestedge[bv] = NONE;
        }
        let best: Vec<usize> = bestedgeto.into_iter().filter(|&k| k != NONE).collect();
        self.bestedge[b] = NONE;
        for &k in &best {
            if self.bestedge[b] == NONE || self.slack(k) < self.slack(self.bestedge[b]) {
                self.bestedge[b] = k;
            }
        }
        self.bestedges[b] = Some(best);
    }

    fn child_at(&self, b: usize, j: isize) -> usize {
        let len = self.childs[b].len() as isize;
        self.childs[b][j.rem_euclid(len) as usize]
    }

    fn endp_at(&self, b: usize, j: isize) -> usize {
        let len = self.endps[b].len() as isize;
        self.endps[b][j.rem_euclid(len) as usize]
    }

    /// Where to walk around blossom b from child position `i` to its base:
    /// (start, step, endpoint trick).
    fn direction(&self, b: usize, i: usize) -> (isize, isize, usize) {
        if i & 1 == 1 {
            (i as isize - self.childs[b].len() as isize, 1, 0)
        } else {
            (i as isize, -1, 1)
        }
    }

    fn expand_blossom(&mut self, b: usize, endstage: bool) {
        for s in self.childs[b].clone() {
            self.parent[s] = NONE;
            if s < self.n {
                self.inblossom[s] = s;
            } else if endstage && self.dual[s].is_zero() {
                self.expand_blossom(s, endstage);
            } else {
                for v in self.leaves_of(s) {
                    self.inblossom[v] = s;
                }
            }
        }
        if !endstage && self.label[b] == 2 {
            let entrychild = self.inblossom[self.endpoint[self.labelend[b] ^ 1]];
            let i = self.childs[b]
                .iter()
                .position(|&c| c == entrychild)
                .unwrap_or(0);
            let (mut j, jstep, trick) = self.direction(b, i);
            let mut p = self.labelend[b];
            while j != 0 {
                self.label[self.endpoint[p ^ 1]] = 0;
                let q = self.endp_at(b, j - trick as isize);
                self.label[self.endpoint[q ^ trick ^ 1]] = 0;
                self.assign_label(self.endpoint[p ^ 1], 2, p);
                self.allowedge[q / 2] = true;
                j += jstep;
                p = self.endp_at(b, j - trick as isize) ^ trick;
                self.allowedge[p / 2] = true;
                j += jstep;
            }
            let bv = self.child_at(b, j);
            let x = self.endpoint[p ^ 1];
            self.label[x] = 2;
            self.label[bv] = 2;
            self.labelend[x] = p;
            self.labelend[bv] = p;
            self.bestedge[bv] = NONE;
            j += jstep;
            while self.child_at(b, j) != entrychild {
                let bv = self.child_at(b, j);
                if self.label[bv] == 1 {
                    j += jstep;
                    continue;
                }
                let reached = self.leaves_of(bv).into_iter().find(|&v| self.label[v] != 0);
                if let Some(v) = reached {
                    self.label[v] = 0;
                    let m = self.mate[self.base[bv]];
                    self.label[self.endpoint[m]] = 0;
                    self.assign_label(v, 2, self.labelend[v]);
                }
                j += jstep;
            }
        }
        self.label[b] = 0;
        self.labelend[b] = NONE;
        self.childs[b].clear();
        self.endps[b].clear();
        self.base[b] = NONE;
        self.bestedges[b] = None;
        self.bestedge[b] = NONE;
        self.unused.push(b);
    }

    fn augment_blossom(&mut self, b: usize, v: usize) {
        let mut t = v;
        while self.parent[t] != b {
            t = self.parent[t];
        }
        if t >= self.n {
            self.augment_blossom(t, v);
        }
        let i = self.childs[b].iter().position(|&c| c == t).unwrap_or(0);
        let (mut j, jstep, trick) = self.direction(b, i);
        while j != 0 {
            j += jstep;
            let t = self.child_at(b, j);
            let p = self.endp_at(b, j - trick as isize) ^ trick;
            if t >= self.n {
                self.augment_blossom(t, self.endpoint[p]);
            }
            j += jstep;
            let t = self.child_at(b, j);
            if t >= self.n {
                self.augment_blossom(t, self.endpoint[p ^ 1]);
            }
            self.mate[self.endpoint[p]] = p ^ 1;
            self.mate[self.endpoint[p ^ 1]] = p;
        }
        self.childs[b].rotate_left(i);
        self.endps[b].rotate_left(i);
        self.base[b] = self.base[self.childs[b][0]];
    }

    fn augment_matching(&mut self, k: usize) {
        let (v, w, _) = self.edges[k];
        for (mut s, mut p) in [(v, 2 * k + 1), (w, 2 * k)] {
            loop {
                let bs = self.inblossom[s];
                if bs >= self.n {
                    self.augment_blossom(bs, s);
                }
                self.mate[s] = p;
                if self.labelend[bs] == NONE {
                    break;
                }
                let t = self.endpoint[self.labelend[bs]];
                let bt = self.inblossom[t];
                s = self.endpoint[self.labelend[bt]];
                let j = self.endpoint[self.labelend[bt] ^ 1];
                if bt >= self.n {
                    self.augment_blossom(bt, j);
                }
                self.mate[j] = self.labelend[bt];
                p = self.labelend[bt] ^ 1;
            }
        }
    }

    /// Runs the stages; returns for each vertex its mate or NONE.
    fn solve(mut self) -> Vec<usize> {
        let n = self.n;
        for _ in 0..n {
            self.label.iter_mut().for_each(|l| *l = 0);
            self.bestedge.iter_mut().for_each(|e| *e = NONE);
            for b in n..2 * n {
                self.bestedges[b] = None;
            }
            self.allowedge.iter_mut().for_each(|a| *a = false);
            self.queue.clear();
            for v in 0..n {
                if self.mate[v] == NONE && self.label[self.inblossom[v]] == 0 {
                    self.assign_label(v, 1, NONE);
                }
            }
            let mut augmented = false;
            loop {
                while let Some(v) = self.queue.pop() {
                    for idx in 0..self.neighbend[v].len() {
                        let p = self.neighbend[v][idx];
                        let k = p / 2;
                        let w = self.endpoint[p];
                        if self.inblossom[v] == self.inblossom[w] {
                            continue;
                        }
                        let mut kslack = Weight::ZERO;
                        if !self.allowedge[k] {
                            kslack = self.slack(k);
                            if kslack.is_zero() {
                                self.allowedge[k] = true;
                            }
                        }
                        if self.allowedge[k] {
                            if self.label[self.inblossom[w]] == 0 {
                                self.assign_label(w, 2, p ^ 1);
                            } else if self.label[self.inblossom[w]] == 1 {
                                let base = self.scan_blossom(v, w);
                                if base != NONE {
                                    self.add_blossom(base, k);
                                } else {
                                    self.augment_matching(k);
                                    augmented = true;
                                    break;
                                }
                            } else if self.label[w] == 0 {
                                self.label[w] = 2;
                                self.labelend[w] = p ^ 1;
                            }
                        } else if self.label[self.inblossom[w]] == 1 {
                            let b = self.inblossom[v];
                            if self.bestedge[b] == NONE || kslack < self.slack(self.bestedge[b]) {
                                self.bestedge[b] = k;
                            }
                        } else if self.label[w] == 0
                            && (self.bestedge[w] == NONE || kslack < self.slack(self.bestedge[w]))
                        {
                            self.bestedge[w] = k;
                        }
                    }
                    if augmented {
                        break;
                    }
                }
                if augmented {
                    break;
                }
                // No augmenting path with tight edges: change the duals.
                let mut deltatype = 1;
                let mut delta = self.dual[..n].iter().copied().min().unwrap_or(Weight::ZERO);
                let mut deltaedge = NONE;
                let mut deltablossom = NONE;
                for v in 0..n {
                    if self.label[self.inblossom[v]] == 0 && self.bestedge[v] != NONE {
                        let d = self.slack(self.bestedge[v]);
                        if d < delta {
                            delta = d;
                            deltatype = 2;
                            deltaedge = self.bestedge[v];
                        }
                    }
                }
                for b in 0..2 * n {
                    if self.parent[b] == NONE && self.label[b] == 1 && self.bestedge[b] != NONE {
                        let d = self.slack(self.bestedge[b]).half();
                        if d < delta {
                            delta = d;
                            deltatype = 3;
                            deltaedge = self.bestedge[b];
                        }
                    }
                }
                for b in n..2 * n {
                    if self.base[b] != NONE
                        && self.parent[b] == NONE
                        && self.label[b] == 2
                        && self.dual[b] < delta
                    {
                        delta = self.dual[b];
                        deltatype = 4;
                        deltablossom = b;
                    }
                }
                for v in 0..n {
                    match self.label[self.inblossom[v]] {
                        1 => self.dual[v] = self.dual[v].sub(delta),
                        2 => self.dual[v] = self.dual[v].add(delta),
                        _ => {}
                    }
                }
                for b in n..2 * n {
                    if self.base[b] != NONE && self.parent[b] == NONE {
                        match self.label[b] {
                            1 => self.dual[b] = self.dual[b].add(delta),
                            2 => self.dual[b] = self.dual[b].sub(delta),
                            _ => {}
                        }
                    }
                }
                match deltatype {
                    2 => {
                        self.allowedge[deltaedge] = true;
                        let (mut i, mut j, _) = self.edges[deltaedge];
                        if self.label[self.inblossom[i]] == 0 {
                            std::mem::swap(&mut i, &mut j);
                        }
                        let _ = j;
                        self.queue.push(i);
                    }
                    3 => {
                        self.allowedge[deltaedge] = true;
                        let (i, _, _) = self.edges[deltaedge];
                        self.queue.push(i);
                    }
                    4 => self.expand_blossom(deltablossom, false),
                    _ => break,
                }
            }
            if !augmented {
                break;
            }
            for b in n..2 * n {
                if self.parent[b] == NONE
                    && self.base[b] != NONE
                    && self.label[b] == 1
                    && self.dual[b].is_zero()
                {
                    self.expand_blossom(b, true);
                }
            }
        }
        (0..n)
            .map(|v| {
                let p = self.mate[v];
                if p == NONE {
                    NONE
                } else {
                    self.endpoint[p]
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Best total weight over all matchings, by brute force.
    fn brute(g: &Graph<1>, used: &mut Vec<bool>) -> u64 {
        let Some(a) = (0..g.n).find(|&v| !used[v]) else {
            return 0;
        };
        used[a] = true;
        let mut best = brute(g, used);
        for b in a + 1..g.n {
            let w = g.weight(a, b);
            if !used[b] && !w.is_zero() {
                used[b] = true;
                best = best.max(w.0[0] + brute(g, used));
                used[b] = false;
            }
        }
        used[a] = false;
        best
    }

    #[test]
    fn matches_brute_force_on_random_graphs() {
        let mut seed = 12345u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for round in 0..400 {
            let n = 2 + (next() % 9) as usize;
            let mut g = Graph::<1>::new(n);
            for a in 0..n {
                for b in a + 1..n {
                    if next() % 3 != 0 {
                        let w = if round % 2 == 0 {
                            next() % 8
                        } else {
                            next() % 1000
                        };
                        g.set(a, b, Weight::from_u64(w));
                    }
                }
            }
            let mate = g.max_weight_matching();
            let mut total = 0;
            for (v, &m) in mate.iter().enumerate() {
                assert_eq!(mate[m], v);
                if m > v {
                    assert!(!g.weight(v, m).is_zero());
                    total += g.weight(v, m).0[0];
                }
            }
            assert_eq!(total, brute(&g, &mut vec![false; n]), "graph {round}");
        }
    }

    #[test]
    fn weight_arithmetic_carries_across_words() {
        let one = Weight::<4>::from_u64(1);
        let big = one.shl(200);
        assert_eq!(big.0[3], 1 << 8);
        assert_eq!(big.sub(one).add(one), big);
        assert!(big.sub(one) < big);
        assert_eq!(big.sub(one).0[..3], [u64::MAX; 3]);
        assert_eq!(big.half().0[3], 1 << 7);
        assert_eq!(Weight::<2>::from_u64(3).shl(63).0[1], 1);
    }
}
