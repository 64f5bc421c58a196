//! The FIDE (Dutch) system, C.04.3 (2025 rules, in force from 2026),
//! decided bracket by bracket with maximum-weight matchings whose weights
//! hold the criteria in order of priority, one bit field each (the approach
//! of bbpPairings):
//!
//! * absolute criteria C1 and C3 become missing edges; C2 (no second bye,
//!   nor a bye after a full point scored without playing) is part of the
//!   top field;
//! * one matching graph holds every player still to be paired: the top field
//!   asks that everyone be paired (C4) and that the bye go to an eligible
//!   player with the lowest score possible (C5), so every bracket is paired
//!   only in ways the rest of the round can complete; there is no
//!   penultimate bracket merged with the rest as in the 2017 rules;
//! * the quality criteria C6–C21 (pairs and scores paired in this bracket
//!   and the next, unplayed games of the bye assignee, colours, floats) are
//!   the next fields, most important highest;
//! * the choice among equally good pairings (transpositions and exchanges in
//!   the order of the rules) is fixed player by player with small bonuses in
//!   the lowest bits.
//!
//! The criterion numbers follow the order of the fields; C2, C9, C14 and C16
//! are numbered as bbpPairings v6 cites them, the others are inferred.

use super::matching::{Graph, Weight};
use super::{Entrant, Pairing, PairingError, Round};
use parity_rules::Color;
use std::collections::{BTreeMap, HashMap, HashSet};

/// The direction a player floated in a past round.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Float {
    Down,
    Up,
    None,
}

/// A player to be paired, with what the criteria need to know.
#[derive(Debug)]
struct Player {
    number: u32,
    /// Half-points.
    score: u32,
    /// 0-based rank among the players in the event (pairing-number order).
    rank: usize,
    opponents: HashSet<u32>,
    /// Colours of played games, oldest first.
    colors: Vec<Color>,
    preference: Option<Color>,
    /// |whites - blacks|.
    imbalance: u32,
    /// The colour of the last two played games when they were the same.
    repeated: Option<Color>,
    strong: bool,
    bye_eligible: bool,
    /// Games played over the board.
    played_games: u32,
    /// Floats in the last round and the round before.
    floats: [Float; 2],
}

impl Player {
    fn absolute_imbalance(&self) -> bool {
        self.imbalance > 1
    }

    fn absolute(&self) -> bool {
        self.absolute_imbalance() || self.repeated.is_some()
    }

    /// Whether `self` is ranked below `other` (lower score, or same score
    /// and later in the ranking).
    fn below(&self, other: &Player) -> bool {
        (self.score, other.rank) < (other.score, self.rank)
    }
}

fn entry(e: &Entrant, round_index: usize) -> Round {
    e.history
        .get(round_index)
        .copied()
        .unwrap_or(Round::Absent {
            score: super::Score::Loss,
        })
}

/// Builds the players to pair from the entrants.
fn players(entrants: &[Entrant], played: usize) -> Result<Vec<Player>, PairingError> {
    let mut by_number = HashMap::new();
    for e in entrants {
        if by_number.insert(e.number, e).is_some() {
            return Err(PairingError::DuplicateNumber(e.number));
        }
    }
    for e in entrants {
        for r in e.history.iter().take(played) {
            let (Round::Played { opponent, .. } | Round::Forfeit { opponent, .. }) = r else {
                continue;
            };
            if !by_number.contains_key(opponent) {
                return Err(PairingError::UnknownOpponent(*opponent));
            }
        }
    }
    // Ranks skip entrants who are out this round and were never paired.
    let mut order: Vec<&Entrant> = entrants
        .iter()
        .filter(|e| e.paired || (0..played).any(|r| !matches!(entry(e, r), Round::Absent { .. })))
        .collect();
    order.sort_by_key(|e| e.number);

    let mut out = Vec::new();
    for (rank, e) in order.iter().enumerate() {
        if !e.paired {
            continue;
        }
        let mut colors = Vec::new();
        let mut opponents = HashSet::new();
        let mut bye_eligible = true;
        for r in 0..played {
            match entry(e, r) {
                Round::Played {
                    opponent, color, ..
                } => {
                    colors.push(color);
                    opponents.insert(opponent);
                }
                // C2: no bye after a bye, nor after a full point scored
                // without playing.
                Round::Bye { .. } => bye_eligible = false,
                Round::Forfeit {
                    score: super::Score::Win,
                    ..
                }
                | Round::Absent {
                    score: super::Score::Win,
                } => bye_eligible = false,
                _ => {}
            }
        }
        let played_games = colors.len() as u32;
        let whites = colors.iter().filter(|&&c| c == Color::White).count() as u32;
        let blacks = colors.len() as u32 - whites;
        let lower = if whites > blacks {
            Color::Black
        } else {
            Color::White
        };
        let imbalance = whites.abs_diff(blacks);
        let last = colors.last().copied();
        let run = colors
            .iter()
            .rev()
            .take_while(|&&c| Some(c) == last)
            .count();
        let preference = if imbalance > 1 {
            Some(lower)
        } else if run > 1 {
            last.map(Color::other)
        } else if imbalance > 0 {
            Some(lower)
        } else {
            last.map(Color::other)
        };
        let repeated = if run > 1 { last } else { None };
        let absolute = imbalance > 1 || repeated.is_some();
        let float = |back: usize| -> Float {
            if played < back {
                return Float::None;
            }
            let index = played - back;
            match entry(e, index) {
                Round::Played { opponent, .. } => {
                    let own = e.points_after(index);
                    let theirs = by_number
                        .get(&opponent)
                        .map_or(0, |o| o.points_after(index));
                    if own > theirs {
                        Float::Down
                    } else if own < theirs {
                        Float::Up
                    } else {
                        Float::None
                    }
                }
                // An unplayed game is a downfloat only when it scored.
                unplayed if unplayed.score() != super::Score::Loss => Float::Down,
                _ => Float::None,
            }
        };
        out.push(Player {
            number: e.number,
            score: e.points_after(played),
            rank,
            opponents,
            colors,
            preference,
            imbalance,
            repeated,
            strong: !absolute && imbalance > 0,
            bye_eligible,
            played_games,
            floats: [float(1), float(2)],
        });
    }
    Ok(out)
}

/// Bits needed to write `x` (0 for 0).
fn bits(x: usize) -> u32 {
    usize::BITS - x.leading_zeros()
}

fn bit<const W: usize>(condition: bool) -> Weight<W> {
    Weight::from_u64(condition as u64)
}

/// The event-wide facts the criteria use.
struct Event {
    /// Rounds already played.
    played: usize,
    last_round: bool,
}

impl Event {
    /// Absolute criteria C1 (no rematch) and C3 (no two players with the same
    /// absolute colour preference, except topscorers in the last round).
    fn compatible(&self, a: &Player, b: &Player) -> bool {
        let top = self.played as u32; // more than half the points so far
        !a.opponents.contains(&b.number)
            && (!a.absolute()
                || !b.absolute()
                || a.preference != b.preference
                || (self.last_round && (a.score > top || b.score > top)))
    }
}

/// The widths of the weight fields, the same for every bracket of a round.
struct Layout {
    /// Bits for a count of players of one score group.
    pcb: u32,
    /// Bits for the field with one digit per score group.
    sg_bits: u32,
    /// Where each score's digit sits in that field (lowest score lowest).
    sg_shift: HashMap<u32, u32>,
    /// Bits for the sum of two score-group positions (the first matching).
    rank_sum_bits: u32,
    /// Bits of one digit of bonuses for the choice of an S1 player's
    /// opponent.
    bonus_bits: u32,
    /// The lowest bits, left for the bonuses that order equally good
    /// pairings: at least `3 * pcb + 1`, and `CHUNK` bonus digits.
    room: u32,
    played: usize,
}

/// What the bye decided by the first matching means for the weights.
struct ByeFacts {
    /// The lowest score the pairing-allocated bye can go to (C5).
    score: u32,
    /// The bye assignee comes out of the bracket being paired, so the
    /// number of his unplayed games is minimised there (C9).
    single: bool,
    /// The position of a played-games count among the players with the
    /// bye score: higher for more games played.
    ranks: HashMap<u32, u64>,
}

impl ByeFacts {
    /// May get the bye: eligible, and no more points than the lowest
    /// score that can get it.
    fn candidate(&self, p: &Player) -> bool {
        p.bye_eligible && p.score <= self.score
    }
}

impl Layout {
    /// 1 at the digit of score `score`.
    fn sg<const W: usize>(&self, score: u32) -> Weight<W> {
        Weight::from_u64(1).shl(self.sg_shift.get(&score).copied().unwrap_or(0))
    }

    /// The number of bits of any edge weight.
    fn total_bits(&self) -> u32 {
        let float_rounds = self.played.min(2) as u32;
        let main = 2
            + 2 * (self.pcb + self.sg_bits)
            + 2 * self.pcb
            + 4 * self.pcb
            + float_rounds * (2 * self.pcb + 2 * self.sg_bits)
            + self.room;
        main.max(2 + self.rank_sum_bits + self.pcb)
    }

    /// The weight of pairing `h` (higher in the order) with `l`, `l` being a
    /// player of the bracket (`l_in`), of the next score group (`l_next`),
    /// or neither (then only the completion fields count).
    fn edge<const W: usize>(
        &self,
        h: &Player,
        l: &Player,
        l_in: bool,
        l_next: bool,
        bye: &ByeFacts,
    ) -> Weight<W> {
        // C4 and C2/C5: everyone paired, the bye to a player who may get it
        // with the lowest possible score.
        let mut w = Weight::from_u64(1 + !bye.candidate(h) as u64 + !bye.candidate(l) as u64);
        // C6: maximise the pairs of this bracket; C7: pair the highest
        // scores (the moved-down players first).
        w = w.shl(self.pcb).add(bit(l_in));
        w = w.shl(self.sg_bits);
        if l_in {
            w = w.add(self.sg(h.score));
        }
        // C8: the same for the next bracket, with the players moved down.
        w = w.shl(self.pcb).add(bit(l_next));
        w = w.shl(self.sg_bits);
        if l_next {
            w = w.add(self.sg(h.score));
        }
        // C9: the fewest unplayed games for the bye assignee.
        w = w.shl(2 * self.pcb);
        if bye.single {
            for p in [h, l] {
                if p.score == bye.score {
                    let rank = bye.ranks.get(&p.played_games).copied().unwrap_or(0);
                    w = w.add(Weight::from_u64(rank));
                }
            }
        }
        // C10–C13: colour difference beyond 2 and three in a row (only
        // topscorers can get these), then colour and strong preferences.
        let (p, o) = (l, h);
        let same = p.preference == o.preference;
        let c10 = !p.absolute_imbalance() || !o.absolute_imbalance() || !same;
        let c11 = !p.absolute()
            || !o.absolute()
            || !same
            || if p.imbalance == o.imbalance {
                p.repeated.is_none() || p.repeated != o.repeated
            } else {
                let weaker = if p.imbalance > o.imbalance { o } else { p };
                weaker.repeated != p.preference.map(Color::other)
            };
        let c12 = !same || p.preference.is_none();
        let c13 = (!p.strong && !p.absolute())
            || (!o.strong && !o.absolute())
            || (p.absolute() && o.absolute())
            || !same;
        for c in [c10, c11, c12, c13] {
            w = w.shl(self.pcb).add(bit(l_in && c));
        }
        // C14–C17: floats repeated from one and two rounds before.
        let up = |back: usize| h.score > l.score && l.floats[back] == Float::Up;
        for back in 0..self.played.min(2) {
            w = w.shl(self.pcb);
            if l_in {
                w = w
                    .add(bit(l.floats[back] == Float::Down))
                    .add(bit(h.score <= l.score && h.floats[back] == Float::Down));
            }
            w = w.shl(self.pcb).add(bit(l_in && !up(back)));
        }
        // C18–C21: the scores of those repeated floaters.
        for back in 0..self.played.min(2) {
            w = w.shl(self.sg_bits);
            if l_in {
                if l.floats[back] == Float::Down {
                    w = w.add(self.sg(l.score));
                }
                if h.floats[back] == Float::Down {
                    w = w.add(self.sg(h.score));
                }
            }
            w = w.shl(self.sg_bits);
            if l_in && !up(back) {
                w = w.add(self.sg(h.score));
            }
        }
        // Room for the tie-breaking bonuses of the pairing order.
        w.shl(self.room)
    }

    /// The weight of the first matching of an odd number of players, which
    /// finds the lowest score the bye can go to: completion, then the
    /// scores paired, then pairs inside the top score group.
    fn first_edge<const W: usize>(&self, h: &Player, l: &Player, top: u32) -> Weight<W> {
        let position = |p: &Player| self.sg_shift.get(&p.score).copied().unwrap_or(0) as u64;
        Weight::from_u64(1 + !h.bye_eligible as u64 + !l.bye_eligible as u64)
            .shl(self.rank_sum_bits)
            .add(Weight::from_u64(position(h) + position(l)))
            .shl(self.pcb)
            .add(bit(l.score >= top))
    }
}

/// `mate[i]` is in `lo..hi`.
fn within(m: usize, lo: usize, hi: usize) -> bool {
    (lo..hi).contains(&m)
}

/// Pairs one round; see [`super::pair_round`].
pub(super) fn pair(
    entrants: &[Entrant],
    round: u32,
    total_rounds: u32,
    initial: Color,
) -> Result<Pairing, PairingError> {
    let played = round as usize - 1;
    let event = Event {
        played,
        last_round: round >= total_rounds,
    };
    let mut sorted = players(entrants, played)?;
    sorted.sort_by(|a, b| b.score.cmp(&a.score).then(a.rank.cmp(&b.rank)));
    if sorted.is_empty() {
        return Ok(Pairing::default());
    }
    let layout = layout(&sorted, played);
    // The narrowest weight that holds every field, with room for the
    // matcher's sums of two weights.
    let pairs = match layout.total_bits() + 8 {
        0..=128 => pair_all::<2>(&sorted, &layout, &event),
        129..=192 => pair_all::<3>(&sorted, &layout, &event),
        193..=256 => pair_all::<4>(&sorted, &layout, &event),
        257..=320 => pair_all::<5>(&sorted, &layout, &event),
        321..=384 => pair_all::<6>(&sorted, &layout, &event),
        385..=448 => pair_all::<7>(&sorted, &layout, &event),
        449..=512 => pair_all::<8>(&sorted, &layout, &event),
        513..=768 => pair_all::<12>(&sorted, &layout, &event),
        769..=1024 => pair_all::<16>(&sorted, &layout, &event),
        _ => Err(PairingError::TooLarge),
    }?;
    let n = sorted.len();
    let mut in_pair = vec![false; n];
    for &(a, b) in &pairs {
        in_pair[a] = true;
        in_pair[b] = true;
    }
    let unpaired: Vec<usize> = (0..n).filter(|&i| !in_pair[i]).collect();
    if unpaired.len() > 1 {
        return Err(PairingError::NoValidPairing);
    }

    // Colours, then board order: higher player's score, lower player's
    // score, higher player's rank.
    let mut boards: Vec<(u32, u32, usize, [u32; 2])> = pairs
        .iter()
        .map(|&(a, b)| {
            let (a, b) = (&sorted[a], &sorted[b]);
            let (high, low) = if a.below(b) { (b, a) } else { (a, b) };
            let (first, second) = if a.number < b.number { (a, b) } else { (b, a) };
            let white = if color_for(first, second, initial) == Color::White {
                [first.number, second.number]
            } else {
                [second.number, first.number]
            };
            (high.score, low.score, high.rank, white)
        })
        .collect();
    boards.sort_by(|x, y| y.0.cmp(&x.0).then(y.1.cmp(&x.1)).then(x.2.cmp(&y.2)));
    Ok(Pairing {
        boards: boards.into_iter().map(|b| b.3).collect(),
        bye: unpaired.first().map(|&i| sorted[i].number),
    })
}

/// Pairs everyone bracket by bracket on one matching graph of all players
/// (indices into `sorted`): the pairs of a bracket are chosen only among
/// those that still let the whole round be paired (C4), so a bracket is
/// never merged with the rest as under the 2017 rules.
fn pair_all<const W: usize>(
    sorted: &[Player],
    layout: &Layout,
    event: &Event,
) -> Result<Vec<(usize, usize)>, PairingError> {
    let n = sorted.len();
    let top = sorted[0].score;
    let mut g = Graph::<W>::new(n);
    let mut bye = ByeFacts {
        score: 0,
        single: false,
        ranks: HashMap::new(),
    };
    let compatible = |a: usize, b: usize| event.compatible(&sorted[a], &sorted[b]);
    let set_all = |g: &mut Graph<W>, bye: &ByeFacts| {
        for l in 0..n {
            for h in 0..l {
                let w = if compatible(h, l) {
                    layout.edge(&sorted[h], &sorted[l], false, false, bye)
                } else {
                    Weight::ZERO
                };
                g.set(h, l, w);
            }
        }
    };
    if n % 2 == 1 {
        for l in 0..n {
            for h in 0..l {
                if compatible(h, l) {
                    g.set(h, l, layout.first_edge(&sorted[h], &sorted[l], top));
                }
            }
        }
    } else {
        set_all(&mut g, &bye);
    }
    let mate = g.max_weight_matching();
    let unmatched: Vec<usize> = (0..n).filter(|&v| mate[v] == v).collect();
    if unmatched.len() > n % 2 || unmatched.iter().any(|&v| !sorted[v].bye_eligible) {
        return Err(PairingError::NoValidPairing);
    }
    if let Some(&assignee) = unmatched.first() {
        bye.score = sorted[assignee].score;
        bye.single = bye.score >= top
            && (0..n)
                .take_while(|&v| sorted[v].score >= top)
                .all(|v| sorted[mate[v]].score >= top);
        let mut counts: Vec<u32> = sorted
            .iter()
            .filter(|p| p.score == bye.score)
            .map(|p| p.played_games)
            .collect();
        counts.sort_unstable_by(|a, b| b.cmp(a));
        for (rank, count) in counts.into_iter().enumerate() {
            bye.ranks.insert(count, rank as u64);
        }
        set_all(&mut g, &bye);
    }
    let max_weight = Weight::<W>::from_u64(1)
        .shl(layout.total_bits() + 1)
        .sub(Weight::<W>::from_u64(1));

    let mut pairs: Vec<(usize, usize)> = Vec::new();
    // The partner of each player in a pair already fixed, else himself.
    let mut fixed: Vec<usize> = (0..n).collect();
    // The bracket: moved-down players, then residents, then the next group
    // (indices into `sorted`, increasing).
    let mut bracket: Vec<usize> = Vec::new();
    let mut next = 0;
    while next < n && sorted[next].score >= top {
        bracket.push(next);
        next += 1;
    }
    let mut moved_down = 0;
    while bracket.len() > 1 || next < n {
        let residents_end = bracket.len();
        let group_start = next;
        while next < n && sorted[next].score >= sorted[group_start].score {
            bracket.push(next);
            next += 1;
        }
        let len = bracket.len();
        let p = |i: usize| &sorted[bracket[i]];
        // base[i * len + j], i < j: the edge weight before any bonus.
        let mut base = vec![Weight::<W>::ZERO; len * len];
        for j in moved_down..len {
            for i in 0..j {
                if event.compatible(p(i), p(j)) {
                    base[i * len + j] =
                        layout.edge(p(i), p(j), j < residents_end, j >= residents_end, &bye);
                }
                g.set(bracket[i], bracket[j], base[i * len + j]);
            }
        }
        let job = Bracket {
            sorted,
            pcb: layout.pcb,
            bonus_bits: layout.bonus_bits,
            bracket: &bracket,
            moved_down,
            residents_end,
            max_weight,
        };
        let (mate, matched) = pair_bracket(&job, &mut g, &mut fixed, base)?;
        let mut carried = Vec::new();
        moved_down = 0;
        for i in 0..len {
            let v = bracket[i];
            if i < residents_end && matched[i] {
                if mate[v] > v {
                    pairs.push((v, mate[v]));
                }
            } else {
                carried.push(v);
                if i < residents_end {
                    moved_down += 1;
                }
            }
        }
        // C9 applies to the next bracket when the bye assignee comes out of
        // it: everyone still to be paired there is matched inside it.
        bye.single = n % 2 == 1
            && group_start < n
            && bye.score >= sorted[group_start].score
            && carried
                .iter()
                .all(|&v| sorted[mate[v]].score >= sorted[group_start].score);
        bracket = carried;
    }
    Ok(pairs)
}

/// How many S1 players' opponents one matching chooses.
const CHUNK: usize = 12;

/// One pairing bracket and the next score group, as [`pair_bracket`] needs.
struct Bracket<'a, const W: usize> {
    sorted: &'a [Player],
    pcb: u32,
    bonus_bits: u32,
    /// Indices into `sorted` (vertices of the graph): moved-down players,
    /// residents, next group.
    bracket: &'a [usize],
    moved_down: usize,
    residents_end: usize,
    /// The weight of a fixed pair.
    max_weight: Weight<W>,
}

/// The maximum-weight matching of `g` as bracket indices (`len` for a
/// partner below the bracket and its next group); `global` gets it as
/// vertices.
fn solve<const W: usize>(
    g: &Graph<W>,
    bracket: &[usize],
    pos: &HashMap<usize, usize>,
    fixed: &[usize],
    global: &mut Vec<usize>,
) -> Vec<usize> {
    // Fixed pairs keep each other; the rest is matched without them.
    let free: Vec<usize> = (0..fixed.len()).filter(|&v| fixed[v] == v).collect();
    *global = g.max_weight_matching_among(&free);
    for (v, &m) in fixed.iter().enumerate() {
        if m != v {
            global[v] = m;
        }
    }
    bracket
        .iter()
        .map(|&v| pos.get(&global[v]).copied().unwrap_or(bracket.len()))
        .collect()
}

/// Pairs the bracket `bracket[..residents_end]` (the first `moved_down`
/// players moved down from above) with the next score group after it, on
/// the graph of all players whose bracket edges are `base`; returns the
/// final matching (global) and which bracket players are paired here. The
/// pairs are fixed in `g` and recorded in `fixed`.
fn pair_bracket<const W: usize>(
    job: &Bracket<W>,
    g: &mut Graph<W>,
    fixed: &mut [usize],
    mut base: Vec<Weight<W>>,
) -> Result<(Vec<usize>, Vec<bool>), PairingError> {
    let Bracket {
        sorted,
        pcb,
        bonus_bits,
        bracket: bk,
        moved_down,
        residents_end,
        max_weight,
    } = *job;
    let len = bk.len();
    let pos: HashMap<usize, usize> = bk.iter().enumerate().map(|(i, &v)| (v, i)).collect();
    let b = |base: &[Weight<W>], i: usize, j: usize| base[i.min(j) * len + i.max(j)];
    let sc = |i: usize| sorted[bk[i]].score;
    let mut global = Vec::new();
    let mut mate = solve(g, bk, &pos, fixed, &mut global);
    let mut matched = vec![false; len];

    // Which moved-down players are paired here: the highest possible.
    let mut md_score = 0;
    let mut md_left = 0;
    let mut md_matched_left = 0;
    for i in 0..moved_down {
        if i == 0 || sc(i) < md_score {
            md_score = sc(i);
            md_left = 0;
            md_matched_left = 0;
            let mut k = i;
            while k < len && sc(k) >= md_score {
                md_left += 1;
                if within(mate[k], moved_down, residents_end) {
                    md_matched_left += 1;
                }
                k += 1;
            }
        }
        if md_matched_left == 0 {
            continue;
        }
        if md_left <= md_matched_left {
            matched[i] = true;
            continue;
        }
        md_left -= 1;
        if !within(mate[i], moved_down, residents_end) {
            for o in moved_down..residents_end {
                let w = b(&base, i, o);
                if !w.is_zero() {
                    g.set(bk[i], bk[o], w.or_u64(1));
                }
            }
            mate = solve(g, bk, &pos, fixed, &mut global);
        }
        if within(mate[i], moved_down, residents_end) {
            matched[i] = true;
            md_matched_left -= 1;
            for o in moved_down..residents_end {
                let w = b(&base, i, o);
                if !w.is_zero() {
                    let bonus = (residents_end - moved_down) as u64;
                    g.set(bk[i], bk[o], w.or_u64(bonus).add(Weight::<W>::from_u64(1)));
                }
            }
        }
    }

    // Their opponents: the highest resident that keeps the rest optimal.
    // `optimal`: `mate` is a best matching for the weights now in `g`; then
    // if a player's mate is already the one given the biggest bonus, the
    // bonuses leave it best and need no new matching.
    let mut optimal = false;
    for i in 0..moved_down {
        if !matched[i] {
            continue;
        }
        let mut bonus = len as u64;
        let mut first = None;
        for o in (moved_down..residents_end).rev() {
            if matched[o] {
                continue;
            }
            let w = b(&base, i, o);
            if !w.is_zero() {
                g.set(bk[i], bk[o], w.add(Weight::<W>::from_u64(bonus)));
                bonus += 1;
                first = Some(o);
            }
        }
        if !optimal || first != Some(mate[i]) {
            mate = solve(g, bk, &pos, fixed, &mut global);
            optimal = true;
        }
        let m = mate[i];
        if m == i || m >= len {
            return Err(PairingError::NoValidPairing);
        }
        matched[m] = true;
        g.fix_pair(bk[i], bk[m], max_weight);
        fixed[bk[i]] = bk[m];
        fixed[bk[m]] = bk[i];
    }

    // The remainder (residents not paired with moved-down players): S1 is
    // its first `s1_len` players.
    let remainder: Vec<usize> = (moved_down..residents_end)
        .filter(|&i| mate[i] >= moved_down)
        .collect();
    let s1_len = remainder.iter().filter(|&&i| mate[i] < i).count();
    // Bonus for fewer exchanges, then for exchanging the closest players.
    let bonus_weight = |base: &[Weight<W>], i: usize, j: usize, pos: usize| -> Weight<W> {
        let w = b(base, i, j);
        if w.is_zero() {
            return w;
        }
        let addend = Weight::<W>::from_u64((pos < s1_len) as u64)
            .shl(2 * pcb)
            .sub(Weight::<W>::from_u64(pos as u64))
            .shl(1);
        w.add(addend)
    };
    for (p, &i) in remainder.iter().enumerate() {
        for &j in &remainder[p + 1..] {
            g.set(bk[i], bk[j], bonus_weight(&base, i, j, p));
        }
    }
    mate = solve(g, bk, &pos, fixed, &mut global);
    let is_top = |mate: &[usize], i: usize| mate[i] > i && mate[i] < residents_end;
    let exchanges = remainder[..s1_len]
        .iter()
        .filter(|&&i| !is_top(&mate, i))
        .count();

    // Exchanges out of S1: the lowest players of S1 first.
    let mut left = exchanges;
    let mut it = s1_len;
    while it > 0 && left > 0 {
        it -= 1;
        let i = remainder[it];
        if is_top(&mate, i) {
            for &o in &remainder[it + 1..] {
                let w = bonus_weight(&base, i, o, it);
                if !w.is_zero() {
                    g.set(bk[i], bk[o], w.sub(Weight::<W>::from_u64(1)));
                }
            }
            mate = solve(g, bk, &pos, fixed, &mut global);
        }
        let exchanged = !is_top(&mate, i);
        if exchanged {
            left -= 1;
        }
        for &o in &remainder[it + 1..] {
            if exchanged {
                base[i.min(o) * len + i.max(o)] = Weight::<W>::ZERO;
            }
            g.set(bk[i], bk[o], bonus_weight(&base, i, o, it));
        }
    }

    // Exchanges into S1: the highest players of S2 first.
    let mut left = exchanges;
    for it in s1_len..remainder.len() {
        if left <= 1 {
            break;
        }
        let i = remainder[it];
        let already = is_top(&mate, i);
        if !already {
            for &o in &remainder[it + 1..] {
                let w = bonus_weight(&base, i, o, it);
                if !w.is_zero() {
                    g.set(bk[i], bk[o], w.add(Weight::<W>::from_u64(1)));
                }
            }
            mate = solve(g, bk, &pos, fixed, &mut global);
        }
        if is_top(&mate, i) {
            left -= 1;
            for o in remainder[..it].iter().copied().chain(residents_end..len) {
                base[i.min(o) * len + i.max(o)] = Weight::<W>::ZERO;
                g.set(bk[i], bk[o], Weight::<W>::ZERO);
            }
        }
        if !already {
            for &o in &remainder[it + 1..] {
                g.set(bk[i], bk[o], bonus_weight(&base, i, o, it));
            }
        }
    }

    // Keep only edges from the chosen S1 to the chosen S2.
    for (p, &i) in remainder.iter().enumerate() {
        for &o in &remainder[p + 1..] {
            if !is_top(&mate, i) || is_top(&mate, o) {
                base[i * len + o] = Weight::<W>::ZERO;
            }
            g.set(bk[i], bk[o], base[i * len + o]);
        }
    }

    // Each S1 player in turn takes the first S2 player that keeps the
    // rest optimal. Fixing them one by one is the same as maximising their
    // choices in order of priority, so up to `CHUNK` of them are decided by
    // one matching, each with his own digit of bonuses (the first player's
    // highest) in the lowest bits.
    let s1: Vec<usize> = remainder
        .iter()
        .copied()
        .filter(|&i| is_top(&mate, i))
        .collect();
    for chunk in s1.chunks(CHUNK) {
        for (c, &i) in chunk.iter().enumerate() {
            let shift = (chunk.len() - 1 - c) as u32 * bonus_bits;
            for (p, &o) in remainder.iter().enumerate() {
                if o <= i || matched[o] {
                    continue;
                }
                let w = b(&base, i, o);
                if !w.is_zero() {
                    let bonus = Weight::<W>::from_u64((remainder.len() - p) as u64).shl(shift);
                    g.set(bk[i], bk[o], w.add(bonus));
                }
            }
        }
        mate = solve(g, bk, &pos, fixed, &mut global);
        for &i in chunk {
            let m = mate[i];
            if m == i || m >= len || matched[m] {
                return Err(PairingError::NoValidPairing);
            }
            matched[i] = true;
            matched[m] = true;
            g.fix_pair(bk[i], bk[m], max_weight);
            fixed[bk[i]] = bk[m];
            fixed[bk[m]] = bk[i];
        }
    }

    Ok((global, matched))
}

/// The field widths of a round: one digit per score group, as wide as the
/// group's size needs.
fn layout(sorted: &[Player], played: usize) -> Layout {
    let mut counts: BTreeMap<u32, usize> = BTreeMap::new();
    for p in sorted {
        *counts.entry(p.score).or_default() += 1;
    }
    let mut sg_shift = HashMap::new();
    let mut sg_bits = 0;
    let mut largest = 0;
    for (&score, &count) in &counts {
        sg_shift.insert(score, sg_bits);
        sg_bits += bits(count);
        largest = largest.max(count);
    }
    let pcb = bits(largest);
    let bonus_bits = bits(sorted.len() + 1);
    Layout {
        pcb,
        sg_bits,
        sg_shift,
        rank_sum_bits: bits(sorted.len() * sg_bits as usize + 1),
        bonus_bits,
        room: (3 * pcb + 1).max(CHUNK as u32 * bonus_bits),
        played,
    }
}

/// The colour of `player` against `opponent` (C.04.3 E.1–E.5).
fn color_for(player: &Player, opponent: &Player, initial: Color) -> Color {
    if let Some(c) = neutral_color(player, opponent) {
        return c;
    }
    // E.5: the higher-ranked player gets his preference, or the initial
    // colour on an odd (1-based) rank.
    let (higher, flip) = if player.below(opponent) {
        (opponent, true)
    } else {
        (player, false)
    };
    let higher_color = match (player.preference, higher.preference) {
        (None, _) | (_, None) => {
            if higher.rank % 2 == 1 {
                initial.other()
            } else {
                initial
            }
        }
        (_, Some(c)) => c,
    };
    if flip {
        higher_color.other()
    } else {
        higher_color
    }
}

/// E.1–E.4: the colour rules that do not depend on rank; None if they tie.
fn neutral_color(p: &Player, o: &Player) -> Option<Color> {
    let (pp, op) = (p.preference, o.preference);
    if pp.is_none() || op.is_none() || pp != op {
        return pp.or(op.map(Color::other));
    }
    if p.absolute() && (p.imbalance > o.imbalance || !o.absolute()) {
        return pp;
    }
    if o.absolute() && (o.imbalance > p.imbalance || !p.absolute()) {
        return op.map(Color::other);
    }
    if p.strong && !o.strong {
        return pp;
    }
    if o.strong && !p.strong {
        return op.map(Color::other);
    }
    // E.4: alternate from the last round in which their colours differed.
    p.colors
        .iter()
        .rev()
        .zip(o.colors.iter().rev())
        .find(|(a, b)| a != b)
        .map(|(_, &theirs)| theirs)
}

#[cfg(test)]
mod tests {
    use super::super::{pair_round, Entrant, Pairing, Round, Score};
    use parity_rules::Color;

    fn field(n: u32) -> Vec<Entrant> {
        (1..=n)
            .map(|number| Entrant {
                number,
                rating: 2500 - 10 * number,
                name: format!("P{number}"),
                history: Vec::new(),
                paired: true,
            })
            .collect()
    }

    /// Records a round: `(white, black, white's score)` and an optional bye.
    fn play(entrants: &mut [Entrant], games: &[(u32, u32, Score)], bye: Option<(u32, Score)>) {
        for &(white, black, score) in games {
            for (me, them, color, s) in [
                (white, black, Color::White, score),
                (black, white, Color::Black, score.reversed()),
            ] {
                entrants[me as usize - 1].history.push(Round::Played {
                    opponent: them,
                    color,
                    score: s,
                });
            }
        }
        if let Some((player, score)) = bye {
            entrants[player as usize - 1]
                .history
                .push(Round::Bye { score });
        }
    }

    #[test]
    fn round_one_of_eight_pairs_top_half_against_bottom_half() {
        let pairing = pair_round(&field(8), 1, 5).unwrap();
        assert_eq!(
            pairing,
            Pairing {
                boards: vec![[1, 5], [6, 2], [3, 7], [8, 4]],
                bye: None
            }
        );
    }

    #[test]
    fn odd_count_gives_the_bye_to_the_lowest() {
        let pairing = pair_round(&field(9), 1, 5).unwrap();
        assert_eq!(pairing.boards, vec![[1, 5], [6, 2], [3, 7], [8, 4]]);
        assert_eq!(pairing.bye, Some(9));
    }

    #[test]
    fn absent_players_are_left_out() {
        let mut entrants = field(9);
        entrants[0].paired = false;
        let pairing = pair_round(&entrants, 1, 5).unwrap();
        assert_eq!(pairing.boards, vec![[2, 6], [7, 3], [4, 8], [9, 5]]);
        assert_eq!(pairing.bye, None);
    }

    /// The classic second round: white wins everywhere in round 1, so the
    /// natural 1-3 and 5-7 would give two players the same colour; the
    /// transpositions 1-4/2-3 and 5-8/6-7 satisfy everyone.
    #[test]
    fn round_two_transposes_for_colours() {
        let mut entrants = field(8);
        let games = [
            (1, 5, Score::Win),
            (6, 2, Score::Loss),
            (3, 7, Score::Win),
            (8, 4, Score::Loss),
        ];
        play(&mut entrants, &games, None);
        let pairing = pair_round(&entrants, 2, 5).unwrap();
        assert_eq!(pairing.boards, vec![[4, 1], [2, 3], [5, 8], [7, 6]]);
    }

    #[test]
    fn never_a_rematch() {
        // Four players, three rounds: a round robin is forced.
        let mut entrants = field(4);
        play(
            &mut entrants,
            &[(1, 3, Score::Draw), (4, 2, Score::Draw)],
            None,
        );
        let second = pair_round(&entrants, 2, 3).unwrap();
        let met =
            |a: u32, b: u32, p: &Pairing| p.boards.iter().any(|x| x.contains(&a) && x.contains(&b));
        assert!(!met(1, 3, &second) && !met(2, 4, &second));
        let games: Vec<(u32, u32, Score)> = second
            .boards
            .iter()
            .map(|&[w, b]| (w, b, Score::Draw))
            .collect();
        play(&mut entrants, &games, None);
        let third = pair_round(&entrants, 3, 3).unwrap();
        for pair in &third.boards {
            for e in &entrants {
                if e.number == pair[0] {
                    assert!(e
                        .history
                        .iter()
                        .all(|r| r.played_opponent() != Some(pair[1])));
                }
            }
        }
        assert_eq!(third.boards.len(), 2);
    }

    #[test]
    fn no_second_pairing_allocated_bye() {
        let mut entrants = field(9);
        let games = [
            (1, 5, Score::Win),
            (6, 2, Score::Loss),
            (3, 7, Score::Win),
            (8, 4, Score::Loss),
        ];
        // A zero-point bye keeps 9 at the bottom, yet he cannot have another.
        // Bracket 5 6 7 8 9 (S1 = 5 6): in transposition order 7 9 8 gives
        // 5-7 the same colour, 8 7 9 the bye to 9; 8 9 7 is the first good
        // one, so 7 (not 8) gets the bye.
        play(&mut entrants, &games, Some((9, Score::Loss)));
        let pairing = pair_round(&entrants, 2, 5).unwrap();
        assert_eq!(pairing.bye, Some(7));
        assert!(pairing.boards.iter().any(|b| b.contains(&9)));
    }

    #[test]
    fn impossible_round_is_an_error() {
        let mut entrants = field(2);
        play(&mut entrants, &[(1, 2, Score::Win)], None);
        assert_eq!(
            pair_round(&entrants, 2, 3),
            Err(super::PairingError::NoValidPairing)
        );
    }

    /// Round 5 of a 7-round event (from the bbpPairings comparison; its
    /// answer). 1, 3 and 9 have had the bye; the criteria give it to 6
    /// rather than to the lowest eligible player, 7.
    #[test]
    fn matches_a_round_paired_by_bbp_pairings() {
        let text = "\
012 Random event 4
XXR 7
XXC white1
001    1      Player 01                         2575                             1.0    9     5 w 0  0000 - U     8 b 0  0000 - Z
001    2      Player 02                         2550                             3.0    2     6 b =     8 w 1     9 b =     7 w 1
001    3      Player 03                         2525                             2.0    7     7 w =     4 b 0  0000 - U     6 w =
001    4      Player 04                         2500                             2.0    6     8 b 0     3 w 1     6 b 0     9 w 1
001    5      Player 05                         2475                             2.5    3     1 b 1     9 w 1     7 b =     8 w 0
001    6      Player 06                         2450                             2.0    5     2 w =     7 b 0     4 w 1     3 b =
001    7      Player 07                         2425                             2.0    4     3 b =     6 w 1     5 w =     2 b 0
001    8      Player 08                         2400                             3.0    1     4 w 1     2 b 0     1 w 1     5 b 1
001    9      Player 09                         2375                             1.5    8  0000 - U     5 b 0     2 w =     4 b 0
";
        let report = super::super::trf::read(text).unwrap();
        let pairing = pair_round(&report.entrants, 5, report.rounds).unwrap();
        assert_eq!(pairing.boards, vec![[5, 2], [8, 3], [7, 4], [9, 1]]);
        assert_eq!(pairing.bye, Some(6));
    }

    /// 2025 rules: a full point scored without playing (here a requested
    /// full-point bye) rules out the pairing-allocated bye, like the bye
    /// itself and a forfeit win; an unplayed game is a downfloat only when
    /// it scored (under the 2017 rules every unplayed game was one).
    #[test]
    fn unplayed_points_bar_the_bye_and_only_scoring_ones_float() {
        let mut entrants = field(4);
        entrants[0].history = vec![Round::Absent { score: Score::Win }];
        entrants[1].history = vec![Round::Absent { score: Score::Draw }];
        entrants[2].history = vec![Round::Forfeit {
            opponent: 4,
            color: Color::White,
            score: Score::Loss,
        }];
        entrants[3].history = vec![Round::Forfeit {
            opponent: 3,
            color: Color::Black,
            score: Score::Win,
        }];
        let players = super::players(&entrants, 1).unwrap();
        let eligible: Vec<bool> = players.iter().map(|p| p.bye_eligible).collect();
        assert_eq!(eligible, vec![false, true, true, false]);
        let floats: Vec<super::Float> = players.iter().map(|p| p.floats[0]).collect();
        use super::Float::{Down, None as Level};
        assert_eq!(floats, vec![Down, Down, Level, Down]);
    }

    /// Round 3 of a 5-round event checked against bbpPairings v6.0.0: 4 has
    /// had the pairing-allocated bye and 5 a requested full-point bye, so
    /// neither may get it now.
    #[test]
    fn full_point_bye_and_pab_holders_do_not_get_the_bye() {
        let text = "\
012 Full-point bye test
XXR 5
XXC white1
001    1      Player 01                         2575                             2.0    1     2 w 1     3 w 1
001    2      Player 02                         2550                             1.0    2     1 b 0     5 w 1
001    3      Player 03                         2525                             1.0    3     4 w 1     1 b 0
001    4      Player 04                         2500                             1.0    4     3 b 0  0000 - U
001    5      Player 05                         2475                             1.0    5  0000 - F     2 b 0
";
        let report = super::super::trf::read(text).unwrap();
        let pairing = pair_round(&report.entrants, 3, report.rounds).unwrap();
        assert_eq!(pairing.boards, vec![[5, 1], [4, 2]]);
        assert_eq!(pairing.bye, Some(3));
    }

    /// Round 3 of an 8-round event (answer of bbpPairings v6.0.0). The 2017
    /// rules paired the score groups down to the bottom and gave the bye in
    /// the last bracket to 3 (½ point), pairing 1 with 2; the 2025 rules put
    /// the bye assignee's score before the pairing of the brackets, so 1
    /// (no points) gets it and 2 and 3, who have met, are paired up with
    /// players on 1 point.
    #[test]
    fn the_bye_goes_to_the_lowest_score_possible() {
        let text = "\
012 Random event 4
XXR 8
XXC white1
001    1      Player 01                         2575                             0.0   11     6 w 0    10 b 0
001    2      Player 02                         2550                             0.5   10     7 b 0     3 w =
001    3      Player 03                         2525                             0.5    9     8 w 0     2 b =
001    4      Player 04                         2500                             2.0    1     9 b 1     7 w 1
001    5      Player 05                         2475                             1.0    5    10 w 1     8 b 0
001    6      Player 06                         2450                             1.5    4     1 b 1    11 w =
001    7      Player 07                         2425                             1.0    6     2 w 1     4 b 0
001    8      Player 08                         2400                             2.0    2     3 b 1     5 w 1
001    9      Player 09                         2375                             1.0    7     4 w 0  0000 - U
001   10      Player 10                         2350                             1.0    8     5 b 0     1 w 1
001   11      Player 11                         2325                             1.5    3  0000 - U     6 b =
";
        let report = super::super::trf::read(text).unwrap();
        let pairing = pair_round(&report.entrants, 3, report.rounds).unwrap();
        assert_eq!(
            pairing.boards,
            vec![[8, 4], [5, 6], [11, 9], [7, 3], [2, 10]]
        );
        assert_eq!(pairing.bye, Some(1));
    }

    /// Round 3 of a 7-round event (answer of bbpPairings v6.0.0). 9's
    /// zero-point bye in round 1 was a downfloat under the 2017 rules, so 9
    /// was kept in his bracket (9-6, 3-4, bye to 5); under the 2025 rules it
    /// is no float, 9 moves down and must meet 5 (he has met 4), and 4 gets
    /// the bye.
    #[test]
    fn a_zero_point_bye_is_no_float() {
        let text = "\
012 Random event 1
XXR 7
XXC white1
001    1      Player 01                         2575                             1.5    3     5 w 1     7 b =
001    2      Player 02                         2550                             1.5    2     6 b 1     8 w =
001    3      Player 03                         2525                             1.0    5     7 w 0     5 b 1
001    4      Player 04                         2500                             0.0    8     8 b 0     9 w 0
001    5      Player 05                         2475                             0.0    9     1 b 0     3 w 0
001    6      Player 06                         2450                             1.0    6     2 w 0  0000 - U
001    7      Player 07                         2425                             1.5    1     3 b 1     1 w =
001    8      Player 08                         2400                             1.5    4     4 w 1     2 b =
001    9      Player 09                         2375                             1.0    7  0000 - Z     4 b 1
";
        let report = super::super::trf::read(text).unwrap();
        let pairing = pair_round(&report.entrants, 3, report.rounds).unwrap();
        assert_eq!(pairing.boards, vec![[1, 2], [8, 7], [3, 6], [9, 5]]);
        assert_eq!(pairing.bye, Some(4));
    }
}
