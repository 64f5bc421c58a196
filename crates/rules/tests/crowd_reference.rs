//! A slow, independent reference for `safety-in-numbers`: a mailbox board
//! (a list of pieces per square), chess pieces and the test variant's
//! Warden (`tests/data/crowd-warden.toml`, `mRcK`) written out by hand,
//! `docs/rules/rulings.md#safety-in-numbers` read literally. Its perft
//! counts must equal the crate's.

mod common;

use common::warden;
use parity_rules::crowd::{self, CrowdPosition};
use parity_rules::{Registry, Variant};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct P {
    white: bool,
    kind: char, // lower case: p n b r q k, w (Warden: moves as a rook, captures as a king)
}

#[derive(Clone)]
struct Ref {
    board: Vec<Vec<P>>, // index file + 8 * rank
    white: bool,
    castling: Vec<char>,
    ep: Option<(i8, i8)>,
    promotions: &'static str,
}

#[derive(Clone, Copy, Debug)]
struct M {
    from: (i8, i8),
    to: (i8, i8),
    kind: char,
    promo: Option<char>,
    ep: bool,
    castle: Option<((i8, i8), (i8, i8))>,
    capture: bool,
}

fn idx((f, r): (i8, i8)) -> usize {
    (f + 8 * r) as usize
}

fn on((f, r): (i8, i8)) -> bool {
    (0..8).contains(&f) && (0..8).contains(&r)
}

const KNIGHT: [(i8, i8); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];
const KING: [(i8, i8); 8] = [
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];
const ROOK: [(i8, i8); 4] = [(1, 0), (0, 1), (-1, 0), (0, -1)];
const BISHOP: [(i8, i8); 4] = [(1, 1), (-1, 1), (-1, -1), (1, -1)];

impl Ref {
    fn parse(fen: &str, promotions: &'static str) -> Ref {
        let mut f = fen.split_whitespace();
        let mut board = vec![Vec::new(); 64];
        for (i, row) in f.next().unwrap().split('/').enumerate() {
            let rank = 7 - i as i8;
            let mut file = 0i8;
            let mut group: Option<Vec<P>> = None;
            for c in row.chars() {
                match c {
                    '(' => group = Some(Vec::new()),
                    ')' => {
                        board[idx((file, rank))] = group.take().unwrap();
                        file += 1;
                    }
                    d if d.is_ascii_digit() => file += d as i8 - b'0' as i8,
                    l => {
                        let p = P {
                            white: l.is_ascii_uppercase(),
                            kind: l.to_ascii_lowercase(),
                        };
                        match &mut group {
                            Some(g) => g.push(p),
                            None => {
                                board[idx((file, rank))] = vec![p];
                                file += 1;
                            }
                        }
                    }
                }
            }
        }
        let white = f.next() == Some("w");
        let castling = f
            .next()
            .unwrap_or("-")
            .chars()
            .filter(|c| *c != '-')
            .collect();
        let ep = f.next().filter(|s| *s != "-").map(|s| {
            let b = s.as_bytes();
            ((b[0] - b'a') as i8, (b[1] - b'1') as i8)
        });
        Ref {
            board,
            white,
            castling,
            ep,
            promotions,
        }
    }

    fn at(&self, s: (i8, i8)) -> &Vec<P> {
        &self.board[idx(s)]
    }

    /// Squares a piece reaches: (square, by move power, by capture power),
    /// each square once.
    fn reach(&self, from: (i8, i8), p: P) -> Vec<((i8, i8), bool, bool)> {
        let mut out = Vec::new();
        let add = |v: &mut Vec<((i8, i8), bool, bool)>, s: (i8, i8), m: bool, c: bool| {
            if !on(s) {
                return;
            }
            match v.iter_mut().find(|e| e.0 == s) {
                Some(e) => {
                    e.1 |= m;
                    e.2 |= c;
                }
                None => v.push((s, m, c)),
            }
        };
        match p.kind {
            'p' => {
                let dy = if p.white { 1 } else { -1 };
                let one = (from.0, from.1 + dy);
                add(&mut out, one, true, false);
                let home = if p.white { 1 } else { 6 };
                if from.1 == home && self.at(one).is_empty() {
                    add(&mut out, (from.0, from.1 + 2 * dy), true, false);
                }
                add(&mut out, (from.0 - 1, from.1 + dy), false, true);
                add(&mut out, (from.0 + 1, from.1 + dy), false, true);
            }
            'n' => KNIGHT
                .iter()
                .for_each(|d| add(&mut out, (from.0 + d.0, from.1 + d.1), true, true)),
            'k' => KING
                .iter()
                .for_each(|d| add(&mut out, (from.0 + d.0, from.1 + d.1), true, true)),
            'w' => {
                for s in self.slide(from, &ROOK) {
                    add(&mut out, s, true, false);
                }
                KING.iter()
                    .for_each(|d| add(&mut out, (from.0 + d.0, from.1 + d.1), false, true));
            }
            'r' => self
                .slide(from, &ROOK)
                .into_iter()
                .for_each(|s| add(&mut out, s, true, true)),
            'b' => self
                .slide(from, &BISHOP)
                .into_iter()
                .for_each(|s| add(&mut out, s, true, true)),
            _ => {
                let queen: Vec<(i8, i8)> = ROOK.iter().chain(BISHOP.iter()).copied().collect();
                self.slide(from, &queen)
                    .into_iter()
                    .for_each(|s| add(&mut out, s, true, true));
            }
        }
        out
    }

    /// Squares a slider reaches from `from`, up to and including the first occupied one.
    fn slide(&self, from: (i8, i8), dirs: &[(i8, i8)]) -> Vec<(i8, i8)> {
        let mut out = Vec::new();
        for d in dirs {
            let mut s = (from.0 + d.0, from.1 + d.1);
            while on(s) {
                out.push(s);
                if !self.at(s).is_empty() {
                    break;
                }
                s = (s.0 + d.0, s.1 + d.1);
            }
        }
        out
    }

    fn attacked(&self, sq: (i8, i8), by_white: bool) -> bool {
        (0..64).any(|i| {
            let from = ((i % 8) as i8, (i / 8) as i8);
            let mut kinds: Vec<P> = self.board[i]
                .iter()
                .copied()
                .filter(|p| p.white == by_white)
                .collect();
            kinds.dedup();
            kinds
                .iter()
                .any(|&p| self.reach(from, p).iter().any(|&(s, _, c)| c && s == sq))
        })
    }

    fn king_in_check(&self, white: bool) -> bool {
        let i = self
            .board
            .iter()
            .position(|v| v.contains(&P { white, kind: 'k' }))
            .unwrap();
        let sq = ((i % 8) as i8, (i / 8) as i8);
        self.board[i].len() == 1 && self.attacked(sq, !white)
    }

    fn pseudo(&self) -> Vec<M> {
        let mut out = Vec::new();
        let us = self.white;
        for i in 0..64 {
            let from = ((i % 8) as i8, (i / 8) as i8);
            let mut kinds: Vec<char> = self.board[i]
                .iter()
                .filter(|p| p.white == us)
                .map(|p| p.kind)
                .collect();
            kinds.sort();
            kinds.dedup();
            for kind in kinds {
                let p = P { white: us, kind };
                // Pawn and Warden: move power differs from capture power.
                let split = kind == 'p' || kind == 'w';
                for (to, m, c) in self.reach(from, p) {
                    let here = self.at(to);
                    let enemy = here.iter().any(|q| q.white != us);
                    // Each way of going there: true captures, false moves or joins.
                    let ways: Vec<bool> = match here.len() {
                        0 if m => vec![false],
                        0 => vec![],
                        1 if enemy => [(c, true), (split && m, false)]
                            .into_iter()
                            .filter(|w| w.0)
                            .map(|w| w.1)
                            .collect(),
                        1 => vec![],
                        _ if enemy => vec![false],
                        _ => vec![],
                    };
                    let last = if us { 7 } else { 0 };
                    let promos: Vec<Option<char>> = if kind == 'p' && to.1 == last {
                        self.promotions.chars().map(Some).collect()
                    } else {
                        vec![None]
                    };
                    for capture in ways {
                        for &promo in &promos {
                            out.push(M {
                                from,
                                to,
                                kind,
                                promo,
                                ep: false,
                                castle: None,
                                capture,
                            });
                        }
                    }
                }
                if kind == 'p' {
                    if let Some(ep) = self.ep {
                        let dy = if us { 1 } else { -1 };
                        if ep.1 == from.1 + dy && (ep.0 - from.0).abs() == 1 {
                            out.push(M {
                                from,
                                to: ep,
                                kind,
                                promo: None,
                                ep: true,
                                castle: None,
                                capture: true,
                            });
                        }
                    }
                }
            }
        }
        // Castling: not in check, squares between empty, king's path unattacked.
        if !self.king_in_check(us) {
            let rank = if us { 0 } else { 7 };
            for &right in &self.castling {
                if right.is_ascii_uppercase() != us {
                    continue;
                }
                let king_side = right.eq_ignore_ascii_case(&'k');
                let (rook, kto, rto, empty, safe): ((i8, i8), i8, i8, Vec<i8>, Vec<i8>) =
                    if king_side {
                        ((7, rank), 6, 5, vec![5, 6], vec![5, 6])
                    } else {
                        ((0, rank), 2, 3, vec![1, 2, 3], vec![2, 3])
                    };
                if !self.at(rook).contains(&P {
                    white: us,
                    kind: 'r',
                }) || !self.at((4, rank)).contains(&P {
                    white: us,
                    kind: 'k',
                }) {
                    continue;
                }
                if empty.iter().any(|&f| !self.at((f, rank)).is_empty()) {
                    continue;
                }
                let mv = M {
                    from: (4, rank),
                    to: (kto, rank),
                    kind: 'k',
                    promo: None,
                    ep: false,
                    castle: Some((rook, (rto, rank))),
                    capture: false,
                };
                let after = self.make(mv);
                if safe.iter().all(|&f| !after.attacked((f, rank), !us)) {
                    out.push(mv);
                }
            }
        }
        out
    }

    fn take(&mut self, s: (i8, i8), p: P) {
        let v = &mut self.board[idx(s)];
        let i = v.iter().position(|q| *q == p).unwrap();
        v.remove(i);
    }

    fn make(&self, m: M) -> Ref {
        let mut n = self.clone();
        let us = self.white;
        n.ep = None;
        let me = P {
            white: us,
            kind: m.kind,
        };
        if let Some((rf, rt)) = m.castle {
            n.take(m.from, me);
            n.take(
                rf,
                P {
                    white: us,
                    kind: 'r',
                },
            );
            n.board[idx(m.to)].push(me);
            n.board[idx(rt)].push(P {
                white: us,
                kind: 'r',
            });
        } else {
            if m.ep {
                let victim = (m.to.0, m.from.1);
                n.board[idx(victim)].clear();
            } else if m.capture {
                n.board[idx(m.to)].clear();
            }
            n.take(m.from, me);
            n.board[idx(m.to)].push(P {
                white: us,
                kind: m.promo.unwrap_or(m.kind),
            });
            if m.kind == 'p' && (m.to.1 - m.from.1).abs() == 2 && n.at(m.to).len() == 1 {
                n.ep = Some((m.to.0, (m.to.1 + m.from.1) / 2));
            }
        }
        let (k, q) = if us { ('K', 'Q') } else { ('k', 'q') };
        if m.kind == 'k' {
            n.castling.retain(|&c| c != k && c != q);
        }
        for (sq, right) in [((0, 0), 'Q'), ((7, 0), 'K'), ((0, 7), 'q'), ((7, 7), 'k')] {
            let moved = m.from == sq && m.kind == 'r';
            if moved || (m.capture && m.to == sq) {
                n.castling.retain(|&c| c != right);
            }
        }
        n.white = !us;
        n
    }

    fn legal(&self) -> Vec<M> {
        self.pseudo()
            .into_iter()
            .filter(|&m| !self.make(m).king_in_check(self.white))
            .collect()
    }

    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.legal();
        if depth == 1 {
            return moves.len() as u64;
        }
        moves.iter().map(|&m| self.make(m).perft(depth - 1)).sum()
    }
}

const POSITIONS: &[(&str, u32)] = &[
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        4,
    ),
    // The source's examples: both kings on f3; a black rook on f3.
    (
        "rnbq1bnr/pppppppp/8/8/8/5(Kk)2/PPPPPPPP/RNBQ1BNR w - - 0 1",
        3,
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/5r2/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        3,
    ),
    // 1. e4 e6 2. d4 d5 3. e5: the pawns may still advance.
    (
        "rnbqkbnr/ppp2ppp/4p3/3pP3/3P4/8/PPP2PPP/RNBQKBNR b KQkq - 0 3",
        3,
    ),
    // Crowds of several kinds, castling, promotion by joining, en passant.
    ("4k3/1P6/8/3(PPbn)4/8/8/p7/R3K2R w KQ - 0 1", 3),
    ("4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1", 4),
    ("4k3/8/8/8/3p1p2/8/4P3/4K3 w - - 0 1", 4),
    ("4k3/4r3/8/8/4n3/8/4P3/4K3 w - - 0 1", 3),
    (
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        2,
    ),
    ("8/8/8/3(Kr)4/8/8/8/4k2R b - - 0 1", 3),
    ("r3k2r/8/8/8/8/8/8/(RKn)6R w k - 0 1", 3),
    ("4k3/8/8/2(Qqb)5/8/8/3(RNn)4/4K3 b - - 5 40", 3),
    // Castling partners in crowds; another piece leaving keeps the right.
    ("4k3/8/8/8/8/8/8/4K2(RNb) w K - 0 1", 4),
    ("(rnB)3k2r/8/8/8/8/8/8/4K3 b kq - 0 1", 3),
];

/// Positions of the Warden variant: where a Warden's two powers both reach a
/// lone enemy it may capture or join (`d5c5` and `d5c5&`).
const WARDEN_POSITIONS: &[(&str, u32)] = &[
    (
        "rwbqkbwr/pppppppp/8/8/8/8/PPPPPPPP/RWBQKBWR w KQkq - 0 1",
        3,
    ),
    ("4k3/8/8/2pWr3/3b4/8/7K/8 w - - 0 1", 4),
    // A Warden in a mixed crowd next to three lone enemies; castling,
    // promotion to a Warden.
    ("r3k2r/1w4P1/8/2n(WQb)p3/3w4/8/1p2P3/R3K2R w KQkq - 0 1", 3),
    ("r3k2r/1w4P1/8/2n(WQb)p3/3w4/8/1p2P3/R3K2R b KQkq - 0 1", 3),
    ("4k3/1P1w4/3(Pb)4/8/8/8/3(WNp)4/6K1 w - - 0 1", 3),
    // The Warden may join the enemy king from afar (then guards its exits).
    ("3k4/8/8/8/8/8/8/3WK3 w - - 0 1", 4),
];

fn check_against_reference(
    v: &'static Variant,
    positions: &[(&str, u32)],
    promotions: &'static str,
) {
    for &(fen, depth) in positions {
        let pos = CrowdPosition::from_fen(v, fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        let reference = Ref::parse(fen, promotions);
        for d in 1..=depth {
            assert_eq!(crowd::perft(&pos, d), reference.perft(d), "{fen} depth {d}");
        }
    }
}

#[test]
fn perft_matches_reference() {
    check_against_reference(
        Registry::builtin().get("safety-in-numbers").unwrap(),
        POSITIONS,
        "qrbn",
    );
}

#[test]
fn warden_perft_matches_reference() {
    check_against_reference(warden(), WARDEN_POSITIONS, "qrbnw");
}

#[test]
fn perft_regression_numbers() {
    let v = Registry::builtin().get("safety-in-numbers").unwrap();
    let start = CrowdPosition::start(v);
    let counts: Vec<u64> = (1..=4).map(|d| crowd::perft(&start, d)).collect();
    assert_eq!(counts, [20, 400, 8910, 198240]);
    let kiwipete = CrowdPosition::from_fen(
        v,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    )
    .unwrap();
    assert_eq!(
        (1..=3)
            .map(|d| crowd::perft(&kiwipete, d))
            .collect::<Vec<_>>(),
        [50, 2269, 113758]
    );
    let w = warden();
    let start = CrowdPosition::start(w);
    assert_eq!(
        (1..=4).map(|d| crowd::perft(&start, d)).collect::<Vec<_>>(),
        [16, 256, 4858, 91983]
    );
    let crowded = CrowdPosition::from_fen(w, WARDEN_POSITIONS[2].0).unwrap();
    assert_eq!(
        (1..=3)
            .map(|d| crowd::perft(&crowded, d))
            .collect::<Vec<_>>(),
        [62, 3257, 172921]
    );
}
