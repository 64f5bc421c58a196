//! Choosing a move in a simultaneous game: the equilibrium player and the
//! baselines it is measured against.

use std::str::FromStr;
use std::sync::Arc;

use parity_rules::simultaneous::SimPosition;
use parity_rules::{Color, Move};

use crate::search::{search_once, Limits, Shared};
use crate::simsearch::{
    as_turn_based, leaf_payoff, Mixed, SimLimits, SimResult, SimSearch, SimSearcher,
};

/// How a player picks its move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strategy {
    /// A move sampled from the equilibrium strategy of the search.
    Mixed,
    /// The single most likely move of that strategy.
    MostLikely,
    /// Our turn-based search, as if this side were to move in an ordinary game.
    NaiveSequential,
    /// The best one-turn payoff against the opponent's best answer to it.
    Greedy,
    /// A uniformly random legal move.
    Random,
    /// The exploiter: the best reply to the root strategy of a target
    /// player ([`best_response`]); through UCI only, with `Target`.
    BestResponse,
}

impl Strategy {
    pub const ALL: [(&'static str, Strategy); 6] = [
        ("mixed", Strategy::Mixed),
        ("most-likely", Strategy::MostLikely),
        ("naive-sequential", Strategy::NaiveSequential),
        ("greedy", Strategy::Greedy),
        ("random", Strategy::Random),
        ("best-response", Strategy::BestResponse),
    ];

    pub fn name(self) -> &'static str {
        Strategy::ALL
            .iter()
            .find(|(_, s)| *s == self)
            .map(|(n, _)| *n)
            .expect("every strategy is named")
    }
}

impl FromStr for Strategy {
    type Err = String;
    fn from_str(text: &str) -> Result<Strategy, String> {
        Strategy::ALL
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(text))
            .map(|(_, s)| *s)
            .ok_or_else(|| format!("unknown strategy '{text}' (mixed, most-likely, naive-sequential, greedy, random, best-response)"))
    }
}

/// What a player needs to choose one move.
#[derive(Clone, Debug)]
pub struct Request {
    pub side: Color,
    pub strategy: Strategy,
    pub limits: SimLimits,
    /// A uniform number in [0, 1) that decides any random choice, so that a
    /// seeded caller gets reproducible games.
    pub u: f64,
    /// The opponent has shown itself predictable (see [`crate::opponent`]):
    /// the mixed player answers its most likely move instead of mixing.
    pub exploit: bool,
}

/// Picks a move for the request's side. `report` hears each completed depth
/// of the equilibrium search.
pub fn choose(
    pos: &SimPosition,
    game_keys: &[u64],
    request: &Request,
    shared: Arc<Shared>,
    report: impl FnMut(&SimResult),
) -> (Option<Move>, SimResult) {
    let Request {
        side,
        strategy,
        ref limits,
        u,
        exploit,
    } = *request;
    let legal = pos.legal_moves(side);
    if legal.is_empty() {
        return (None, SimResult::default());
    }
    let single = |mv: Move| {
        let mut r = SimResult::default();
        if side == Color::White {
            r.white = Mixed::pure(mv);
        } else {
            r.black = Mixed::pure(mv);
        }
        (Some(mv), r)
    };
    match strategy {
        Strategy::Random => single(legal[((u * legal.len() as f64) as usize).min(legal.len() - 1)]),
        // Without a target (only UCI has one), the exploiter plays greedily.
        Strategy::Greedy | Strategy::BestResponse => single(greedy(pos, side)),
        Strategy::NaiveSequential => {
            single(naive_sequential(pos, side, limits).unwrap_or_else(|| greedy(pos, side)))
        }
        Strategy::Mixed | Strategy::MostLikely => {
            let mut searcher = SimSearcher::new(pos.variant(), game_keys, shared);
            if strategy == Strategy::Mixed && exploit {
                searcher.reserve = 0.3; // time for the best reply below
            }
            let result = searcher.run(pos, limits, report);
            let mixed = result.strategy(side);
            let mut mv = if strategy == Strategy::Mixed {
                mixed.sample(u)
            } else {
                mixed.most_likely()
            };
            if strategy == Strategy::Mixed && exploit {
                if let Some(theirs) = result.strategy(side.other()).most_likely() {
                    if let Some((reply, _)) = searcher.best_reply(pos, side, theirs, result.depth) {
                        mv = Some(reply);
                    }
                }
            }
            (mv.or(Some(legal[0])), result)
        }
    }
}

/// The player an exploiter plays against: its strategy and search, and
/// the limits it is given (UCI option `Target`).
#[derive(Clone, Debug)]
pub struct Target {
    pub strategy: Strategy,
    pub search: SimSearch,
    pub limits: SimLimits,
}

impl FromStr for Target {
    type Err = String;
    /// `STRATEGY[:SEARCH][:MOVETIME_MS]`, e.g. `mixed:hybrid:100`,
    /// `naive-sequential:100`, `most-likely:doab:100`.
    fn from_str(text: &str) -> Result<Target, String> {
        let mut target = Target {
            strategy: Strategy::Mixed,
            search: SimSearch::default(),
            limits: SimLimits {
                movetime: Some(std::time::Duration::from_millis(100)),
                ..SimLimits::default()
            },
        };
        let mut parts = text.split(':');
        target.strategy = parts.next().unwrap_or("").parse()?;
        if target.strategy == Strategy::BestResponse {
            return Err("the target cannot be an exploiter".into());
        }
        for part in parts {
            if let Ok(ms) = part.parse::<u64>() {
                target.limits.movetime = Some(std::time::Duration::from_millis(ms.max(1)));
            } else {
                target.search = part.parse()?;
            }
        }
        target.limits.search = target.search;
        Ok(target)
    }
}

/// The exploiter (a local best response): predicts the root strategy the
/// target plays for the other side (the one it prints in its `info ...
/// strategy` line: the same search with the same options and limits) and
/// answers with the move of `side` with the best expected payoff against
/// it, each pair of moves scored by the reference search (turn-based
/// alpha-beta `reference_plies` deep, plus quiescence, for each side to
/// move, as the hybrid search's leaves). Returns the move and a result
/// whose `side` strategy is that move and whose other strategy is the
/// prediction.
pub fn best_response(
    pos: &SimPosition,
    game_keys: &[u64],
    side: Color,
    target: &Target,
    reference_plies: i32,
    shared: Arc<Shared>,
) -> (Option<Move>, SimResult) {
    let other = side.other();
    let ours = pos.legal_moves(side);
    let theirs = pos.legal_moves(other);
    if ours.is_empty() {
        return (None, SimResult::default());
    }
    let prediction: Mixed = if theirs.is_empty() {
        Mixed::default()
    } else {
        match target.strategy {
            Strategy::NaiveSequential => Mixed::pure(
                naive_sequential(pos, other, &target.limits).unwrap_or_else(|| greedy(pos, other)),
            ),
            Strategy::Greedy | Strategy::BestResponse => Mixed::pure(greedy(pos, other)),
            Strategy::Random => Mixed {
                probabilities: vec![1.0 / theirs.len() as f64; theirs.len()],
                moves: theirs.clone(),
            },
            Strategy::Mixed | Strategy::MostLikely => {
                let mut searcher = SimSearcher::new(pos.variant(), game_keys, shared.clone());
                let r = searcher.run(pos, &target.limits, |_| {});
                let m = r.strategy(other).clone();
                if target.strategy == Strategy::MostLikely {
                    m.most_likely().map(Mixed::pure).unwrap_or(m)
                } else {
                    m
                }
            }
        }
    };
    let mut reference = SimSearcher::new(pos.variant(), game_keys, shared);
    let sign = if side == Color::White { 1.0 } else { -1.0 };
    let mut best: Option<(Move, f64)> = None;
    for &m in &ours {
        let mut expected = 0.0;
        for (&o, &p) in prediction.moves.iter().zip(&prediction.probabilities) {
            let pair = if side == Color::White { [m, o] } else { [o, m] };
            let next = pos.play_unchecked(pair);
            expected += p * reference.searched_payoff(&next, reference_plies);
        }
        if prediction.moves.is_empty() {
            expected = reference.searched_payoff(pos, reference_plies);
        }
        if best.is_none_or(|(_, b)| sign * expected > sign * b) {
            best = Some((m, expected));
        }
    }
    let (mv, value) = best.expect("there is a legal move");
    let mut result = SimResult {
        value,
        depth: 1,
        ..SimResult::default()
    };
    if side == Color::White {
        (result.white, result.black) = (Mixed::pure(mv), prediction);
    } else {
        (result.black, result.white) = (Mixed::pure(mv), prediction);
    }
    (Some(mv), result)
}

/// The move whose worst outcome over the opponent's answers, one turn
/// deep and statically scored, is best for `side`.
pub fn greedy(pos: &SimPosition, side: Color) -> Move {
    let t = crate::eval::tables(pos.variant());
    let sign = if side == Color::White { 1.0 } else { -1.0 };
    let ours = pos.legal_moves(side);
    let theirs = pos.legal_moves(side.other());
    let mut best = (f64::NEG_INFINITY, ours[0]);
    for &m in &ours {
        let worst = theirs
            .iter()
            .map(|&r| {
                let pair = if side == Color::White { [m, r] } else { [r, m] };
                sign * leaf_payoff(&pos.play_unchecked(pair), &t)
            })
            .fold(f64::INFINITY, f64::min);
        let worst = if theirs.is_empty() {
            sign * leaf_payoff(pos, &t)
        } else {
            worst
        };
        if worst > best.0 {
            best = (worst, m);
        }
    }
    best.1
}

/// Our turn-based search's move, if the position has a turn-based view and
/// the move is legal here.
fn naive_sequential(pos: &SimPosition, side: Color, limits: &SimLimits) -> Option<Move> {
    let tb = as_turn_based::<u128>(pos, side)?;
    let l = Limits {
        depth: limits.depth.map(|d| 2 * d as i32),
        nodes: limits.nodes,
        movetime: limits.movetime,
        time: if side == Color::White {
            [limits.time, None]
        } else {
            [None, limits.time]
        },
        increment: [limits.increment; 2],
        overhead: limits.overhead,
        ..Limits::default()
    };
    let best = search_once(&tb, &[], l).best?;
    pos.legal_moves(side).contains(&best).then_some(best)
}

#[cfg(test)]
mod tests {
    use super::*;
    use parity_rules::Registry;

    #[test]
    fn strategies_parse_and_name() {
        for (name, s) in Strategy::ALL {
            assert_eq!(name.parse::<Strategy>().unwrap(), s);
            assert_eq!(s.name(), name);
        }
        assert!("clever".parse::<Strategy>().is_err());
    }

    #[test]
    fn greedy_takes_a_queen_that_must_wait() {
        // Black's queen moved last turn, so it may not move now (the waiting
        // rule): exd5 wins it whatever Black does.
        let v = Registry::builtin().get("parity").unwrap();
        let pos = SimPosition::from_fen(v, "4k3/8/8/3q'4/4P3/8/8/4K3 - - 0 5").unwrap();
        let mv = greedy(&pos, Color::White);
        assert_eq!(
            parity_rules::notation::uci(&pos.side(Color::White), mv),
            "e4d5"
        );
    }

    #[test]
    fn the_start_has_a_turn_based_view() {
        let v = Registry::builtin().get("parity").unwrap();
        let pos = SimPosition::start(v);
        let tb = as_turn_based::<u64>(&pos, Color::Black).unwrap();
        assert_eq!(tb.side_to_move(), Color::Black);
        assert_eq!(tb.legal_moves().len(), 20);
    }

    #[test]
    fn targets_parse() {
        let t: Target = "mixed:hybrid:250".parse().unwrap();
        assert_eq!(t.strategy, Strategy::Mixed);
        assert_eq!(t.search, SimSearch::Hybrid);
        assert_eq!(t.limits.search, SimSearch::Hybrid);
        assert_eq!(
            t.limits.movetime,
            Some(std::time::Duration::from_millis(250))
        );
        let t: Target = "naive-sequential".parse().unwrap();
        assert_eq!(t.strategy, Strategy::NaiveSequential);
        assert_eq!(
            t.limits.movetime,
            Some(std::time::Duration::from_millis(100))
        );
        assert!("best-response".parse::<Target>().is_err());
        assert!("mixed:deep".parse::<Target>().is_err());
    }

    #[test]
    fn the_exploiter_answers_its_prediction() {
        // Black's queen must wait: against any prediction, exd5 wins it.
        let v = Registry::builtin().get("parity").unwrap();
        let pos = SimPosition::from_fen(v, "4k3/8/8/3q'4/4P3/8/8/4K3 - - 0 5").unwrap();
        for target in ["random", "greedy", "naive-sequential:50", "mixed:doab:50"] {
            let target: Target = target.parse().unwrap();
            let (mv, r) = best_response(
                &pos,
                &[],
                Color::White,
                &target,
                1,
                Arc::new(Shared::new(1)),
            );
            let mv = mv.unwrap();
            assert_eq!(
                parity_rules::notation::uci(&pos.side(Color::White), mv),
                "e4d5",
                "{target:?}"
            );
            assert_eq!(r.white, Mixed::pure(mv));
            let p: f64 = r.black.probabilities.iter().sum();
            assert!((p - 1.0).abs() < 1e-9, "{target:?}: {:?}", r.black);
            assert!(r.value > 0.5, "{target:?}: {}", r.value);
        }
        // Against a pure prediction, the answer is the best reply to that move:
        // Black's king steps away from d5... whatever it predicts, the value
        // of the answer is at least that of every other move.
        let target: Target = "greedy".parse().unwrap();
        let theirs = greedy(&pos, Color::Black);
        let (mv, r) = best_response(
            &pos,
            &[],
            Color::White,
            &target,
            1,
            Arc::new(Shared::new(1)),
        );
        assert_eq!(r.black, Mixed::pure(theirs));
        let mut reference = SimSearcher::new(v, &[], Arc::new(Shared::new(1)));
        let chosen = reference.searched_payoff(&pos.play_unchecked([mv.unwrap(), theirs]), 1);
        for m in pos.legal_moves(Color::White) {
            let v = reference.searched_payoff(&pos.play_unchecked([m, theirs]), 1);
            assert!(v <= chosen + 1e-12, "{m:?}: {v} > {chosen}");
        }
    }
}
