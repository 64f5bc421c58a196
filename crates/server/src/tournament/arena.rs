//! Arena tournaments, scored and paired the way lichess runs them, in our
//! own words and code.
//!
//! An arena runs for a fixed time; a player who finishes a game goes back to
//! the waiting list and is paired again with someone near them in the
//! standings. Everything here is pure: the caller passes finished games,
//! totals and waiting players in, and stores what comes out.
//!
//! # Scoring ([`sheet`], [`Sheet::push`])
//!
//! A win is worth 2 points, a draw 1, a loss 0. Two wins in a row set a
//! player "on fire": from the next game on, a win is worth 4 and a draw 2,
//! until the first game that is not a win (that game still scores double if
//! it is a draw; a loss scores 0 either way). A player who went berserk and
//! won gets 1 extra point, not doubled, provided the game lasted at least
//! [`BERSERK_MIN_MOVES`] moves. A draw in fewer than [`QUICK_DRAW_MOVES`]
//! moves scores 0, even on fire, and ends a streak like any non-win.
//! Withdrawing does not touch the sheet: a player who rejoins carries on
//! with the same total and the same streak (lichess keeps both).
//!
//! # Standings ([`standings`])
//!
//! Total points, most first; then rating, highest first; then key. Ranks
//! are 1-based and unique: equal totals are ordered by the tie-break.
//!
//! # Pairing ([`pair_waiting`])
//!
//! See the function's documentation: neighbours in rank order, reaching up
//! to three places away to avoid immediate rematches.
//!
//! # Berserk
//!
//! What a berserking player gives up is the clock's business
//! (`game::clock::TimeControl::berserk_ms`); here it only scores.

use std::cmp::Ordering;
use std::fmt;

use parity_rules::Color;

/// Points for a win before any doubling.
pub const WIN_POINTS: u32 = 2;
/// Points for a draw before any doubling.
pub const DRAW_POINTS: u32 = 1;
/// Consecutive wins that set a player on fire for the games after them.
pub const WINS_TO_CATCH_FIRE: u32 = 2;
/// What a win or a draw is multiplied by while the player is on fire.
pub const ON_FIRE_MULTIPLIER: u32 = 2;
/// Extra points for a berserk win; added after doubling, never doubled.
pub const BERSERK_BONUS: u32 = 1;
/// A berserk win earns its bonus only if the game lasted this many moves.
pub const BERSERK_MIN_MOVES: u32 = 7;
/// A draw with fewer moves than this scores nothing.
pub const QUICK_DRAW_MOVES: u32 = 10;

/// How a game ended, from one player's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    Win,
    Draw,
    Loss,
}

/// One finished arena game, as it counts for one of its two players.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Finished {
    pub result: GameResult,
    /// Full moves played: moves both sides completed, i.e. plies / 2
    /// rounded down in alternating games, turns in simultaneous ones. Both
    /// players of a game see the same number, so a quick draw is quick for
    /// both (lichess: fewer than 20 plies) and the berserk threshold is 14
    /// plies.
    pub moves: u32,
    /// This player went berserk in this game.
    pub berserk: bool,
}

/// One game on a player's sheet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SheetEntry {
    pub result: GameResult,
    /// What the game added to the total, berserk bonus included.
    pub points: u32,
    /// The player was on fire for this game, so a win or draw counted
    /// double (shown highlighted next to the score).
    pub on_fire: bool,
    /// The points include the berserk bonus.
    pub berserk_bonus: bool,
}

/// A player's games in the order they finished, and what they add up to.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Sheet {
    pub entries: Vec<SheetEntry>,
    pub total: u32,
    /// The next game will count double: the last two games, or more, were
    /// wins (shown as a flame next to the player).
    pub on_fire: bool,
}

impl Sheet {
    /// An empty sheet: no games, no points, not on fire.
    pub fn new() -> Sheet {
        Sheet::default()
    }

    /// Scores one more finished game and adds it to the sheet.
    pub fn push(&mut self, game: &Finished) -> SheetEntry {
        let doubled = self.on_fire;
        let multiplier = if doubled { ON_FIRE_MULTIPLIER } else { 1 };
        let quick_draw = game.result == GameResult::Draw && game.moves < QUICK_DRAW_MOVES;
        let berserk_bonus =
            game.result == GameResult::Win && game.berserk && game.moves >= BERSERK_MIN_MOVES;
        let points = match game.result {
            GameResult::Win => WIN_POINTS * multiplier,
            GameResult::Draw if quick_draw => 0,
            GameResult::Draw => DRAW_POINTS * multiplier,
            GameResult::Loss => 0,
        } + if berserk_bonus { BERSERK_BONUS } else { 0 };
        let wins_before = self.trailing_wins();
        self.on_fire = game.result == GameResult::Win && wins_before + 1 >= WINS_TO_CATCH_FIRE;
        let entry = SheetEntry {
            result: game.result,
            points,
            on_fire: doubled,
            berserk_bonus,
        };
        self.entries.push(entry);
        self.total = self.total.saturating_add(points);
        entry
    }

    /// Wins at the end of the sheet, as far as the streak rule needs to
    /// know (it only tells "enough" from fewer).
    fn trailing_wins(&self) -> u32 {
        if self.on_fire {
            return WINS_TO_CATCH_FIRE;
        }
        let wins = self
            .entries
            .iter()
            .rev()
            .take(WINS_TO_CATCH_FIRE as usize)
            .take_while(|entry| entry.result == GameResult::Win)
            .count();
        // At most WINS_TO_CATCH_FIRE, which is a u32.
        u32::try_from(wins).unwrap_or(WINS_TO_CATCH_FIRE)
    }
}

/// The points of each game in the order played, e.g. `2 2 4 2 2`.
impl fmt::Display for Sheet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, entry) in self.entries.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{}", entry.points)?;
        }
        Ok(())
    }
}

/// Scores a player's finished games, given in the order they finished.
/// Games from before a withdrawal count like any other: rejoining continues
/// the same sheet and streak.
pub fn sheet(games: &[Finished]) -> Sheet {
    let mut sheet = Sheet::new();
    for game in games {
        sheet.push(game);
    }
    sheet
}

/// Scores as [`sheet`] does in an arena whose creator turned streaks
/// off: nobody catches fire.
pub fn sheet_without_streaks(games: &[Finished]) -> Sheet {
    let mut sheet = Sheet::new();
    for game in games {
        sheet.push(game);
        sheet.on_fire = false;
    }
    sheet
}

/// A player as the standings see them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entrant<K> {
    pub key: K,
    /// [`Sheet::total`].
    pub total: u32,
    pub rating: u32,
}

/// A player's place in the standings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Standing<K> {
    /// 1-based and unique, even for equal totals.
    pub rank: u32,
    pub key: K,
    pub total: u32,
    pub rating: u32,
}

/// Orders players by total (most first), then rating (highest first), then
/// key, and numbers them from 1.
pub fn standings<K: Ord + Clone>(entrants: &[Entrant<K>]) -> Vec<Standing<K>> {
    let mut order: Vec<&Entrant<K>> = entrants.iter().collect();
    order.sort_by(|a, b| {
        b.total
            .cmp(&a.total)
            .then(b.rating.cmp(&a.rating))
            .then_with(|| a.key.cmp(&b.key))
    });
    order
        .into_iter()
        .enumerate()
        .map(|(i, entrant)| Standing {
            rank: u32::try_from(i + 1).unwrap_or(u32::MAX),
            key: entrant.key.clone(),
            total: entrant.total,
            rating: entrant.rating,
        })
        .collect()
}

/// A player waiting for a game: not playing, not withdrawn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Waiting<K> {
    pub key: K,
    /// [`Standing::rank`].
    pub rank: u32,
    /// Whom they played last, if anyone.
    pub last_opponent: Option<K>,
    /// Games played with White in this arena.
    pub whites: u32,
    /// Games played with Black in this arena.
    pub blacks: u32,
    /// Their colour in their last game.
    pub last_color: Option<Color>,
}

/// A new game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pairing<K> {
    pub white: K,
    pub black: K,
}

/// Pairs waiting players with players near them in rank, avoiding
/// immediate rematches where it can.
///
/// The players are put in rank order (then key order), and each is paired
/// with someone at most [`PAIRING_REACH`] places away in that order; when
/// the count is odd, one player waits for the next call. Of all such
/// pairings the one chosen has, in order: the fewest immediate rematches
/// (a pair where either player was the other's last opponent), then the
/// smallest sum of rank differences between opponents, then the
/// lowest-ranked waiting player. With no rematch in sight this is simply
/// 1–2, 3–4, ... with the last player waiting; a rematch is only played
/// when nothing within reach avoids it, e.g. when the only two waiting
/// players have just met.
///
/// Colours: the player owed more Whites (blacks minus whites) gets White;
/// if equal, the one whose last game was with Black; if still equal, the
/// better-ranked player, then the smaller key.
pub fn pair_waiting<K: Ord + Clone>(waiting: &[Waiting<K>]) -> Vec<Pairing<K>> {
    let mut order: Vec<&Waiting<K>> = waiting.iter().collect();
    order.sort_by(|a, b| a.rank.cmp(&b.rank).then_with(|| a.key.cmp(&b.key)));
    cheapest_pairs(&order)
        .into_iter()
        .map(|(a, b)| colored(order[a], order[b]))
        .collect()
}

/// How many places apart in rank order two waiting players may be and
/// still be paired. Three lets four neighbours pair across (1–3, 2–4) or
/// around (1–4, 2–3) when 1–2 or 3–4 would be a rematch.
pub const PAIRING_REACH: usize = 3;

/// What a pairing costs, compared field by field.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
struct Cost {
    rematches: u32,
    rank_distance: u64,
    /// How far above the bottom the waiting player is.
    wait_height: u64,
}

impl Cost {
    fn plus(self, other: Cost) -> Cost {
        Cost {
            rematches: self.rematches + other.rematches,
            rank_distance: self.rank_distance + other.rank_distance,
            wait_height: self.wait_height + other.wait_height,
        }
    }
}

/// How the cheapest way to a state left the state before it.
#[derive(Clone, Copy, Debug)]
struct Step {
    cost: Cost,
    from_taken: usize,
    from_waited: bool,
    /// The player at the previous position was paired this many places
    /// ahead (`None`: already paired, or waits).
    partner: Option<usize>,
}

/// The pairs (positions in `order`) of the cheapest pairing.
///
/// A walk along `order`: at position i, `taken` has bit k set when the
/// player at i + k was already paired with someone before i (reach 3 means
/// only i, i + 1 and i + 2 can be), and `waited` says whether someone
/// waits. Each state keeps its cheapest way in.
fn cheapest_pairs<K: Eq>(order: &[&Waiting<K>]) -> Vec<(usize, usize)> {
    const STATES: usize = 1 << PAIRING_REACH;
    let n = order.len();
    let one_waits = n % 2 == 1;
    let pair_cost = |a: usize, b: usize| Cost {
        rematches: u32::from(is_rematch(order[a], order[b])),
        rank_distance: u64::from(order[a].rank.abs_diff(order[b].rank)),
        wait_height: 0,
    };
    let wait_cost = |a: usize| Cost {
        wait_height: (n - 1 - a) as u64,
        ..Cost::default()
    };

    let mut best: Vec<[[Option<Step>; 2]; STATES]> = vec![[[None; 2]; STATES]; n + 1];
    best[0][0][0] = Some(Step {
        cost: Cost::default(),
        from_taken: 0,
        from_waited: false,
        partner: None,
    });
    for i in 0..n {
        for taken in 0..STATES {
            for waited in [false, true] {
                let Some(here) = best[i][taken][usize::from(waited)] else {
                    continue;
                };
                let mut offer = |next_taken: usize, next_waited: bool, cost, partner| {
                    let slot = &mut best[i + 1][next_taken][usize::from(next_waited)];
                    let cost = here.cost.plus(cost);
                    if slot.is_none_or(|step| cost < step.cost) {
                        *slot = Some(Step {
                            cost,
                            from_taken: taken,
                            from_waited: waited,
                            partner,
                        });
                    }
                };
                if taken & 1 == 1 {
                    offer(taken >> 1, waited, Cost::default(), None);
                    continue;
                }
                if one_waits && !waited {
                    offer(taken >> 1, true, wait_cost(i), None);
                }
                for ahead in 1..=PAIRING_REACH {
                    if i + ahead < n && taken & (1 << ahead) == 0 {
                        let next = (taken | 1 << ahead) >> 1;
                        offer(next, waited, pair_cost(i, i + ahead), Some(ahead));
                    }
                }
            }
        }
    }

    // Walk back from the end, where nobody is left half-paired. Pairing
    // neighbours (plus one wait when odd) always reaches it.
    let mut pairs = Vec::with_capacity(n / 2);
    let (mut taken, mut waited) = (0, one_waits);
    for i in (1..=n).rev() {
        let Some(step) = best[i][taken][usize::from(waited)] else {
            break;
        };
        if let Some(ahead) = step.partner {
            pairs.push((i - 1, i - 1 + ahead));
        }
        taken = step.from_taken;
        waited = step.from_waited;
    }
    pairs.reverse();
    pairs
}

fn is_rematch<K: Eq>(a: &Waiting<K>, b: &Waiting<K>) -> bool {
    a.last_opponent.as_ref() == Some(&b.key) || b.last_opponent.as_ref() == Some(&a.key)
}

/// Gives White to the player who needs it more (see [`pair_waiting`]).
fn colored<K: Ord + Clone>(a: &Waiting<K>, b: &Waiting<K>) -> Pairing<K> {
    let owed_whites = |w: &Waiting<K>| i64::from(w.blacks) - i64::from(w.whites);
    let last_black = |w: &Waiting<K>| w.last_color == Some(Color::Black);
    let a_first = owed_whites(a)
        .cmp(&owed_whites(b))
        .then(last_black(a).cmp(&last_black(b)))
        .then(b.rank.cmp(&a.rank))
        .then_with(|| b.key.cmp(&a.key))
        == Ordering::Greater;
    let (white, black) = if a_first { (a, b) } else { (b, a) };
    Pairing {
        white: white.key.clone(),
        black: black.key.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(result: GameResult, moves: u32, berserk: bool) -> Finished {
        Finished {
            result,
            moves,
            berserk,
        }
    }
    fn win() -> Finished {
        game(GameResult::Win, 30, false)
    }
    fn draw() -> Finished {
        game(GameResult::Draw, 30, false)
    }
    fn loss() -> Finished {
        game(GameResult::Loss, 30, false)
    }
    fn points(sheet: &Sheet) -> Vec<u32> {
        sheet.entries.iter().map(|e| e.points).collect()
    }

    #[test]
    fn a_streak_doubles_until_the_first_game_that_is_not_a_win() {
        // W: 2, not yet on fire (one win).
        // W: 2, two wins in a row: on fire from the next game.
        // W: on fire, 2 × 2 = 4.
        // D: on fire, 1 × 2 = 2; not a win, so the fire goes out.
        // W: 2, one win again.
        // Total 2 + 2 + 4 + 2 + 2 = 12.
        let s = sheet(&[win(), win(), win(), draw(), win()]);
        assert_eq!(points(&s), [2, 2, 4, 2, 2]);
        assert_eq!(s.total, 12);
        assert!(!s.on_fire);
        let doubled: Vec<bool> = s.entries.iter().map(|e| e.on_fire).collect();
        assert_eq!(doubled, [false, false, true, true, false]);
        assert_eq!(s.to_string(), "2 2 4 2 2");
    }

    #[test]
    fn the_lichess_example_two_wins_then_a_draw_is_six() {
        let s = sheet(&[win(), win(), draw()]);
        assert_eq!(points(&s), [2, 2, 2]);
        assert_eq!(s.total, 6);
    }

    #[test]
    fn a_loss_scores_nothing_and_ends_the_streak() {
        // W 2, W 2, W 4 (on fire), L 0 (fire out), W 2, W 2, W 4 (on fire again).
        let s = sheet(&[win(), win(), win(), loss(), win(), win(), win()]);
        assert_eq!(points(&s), [2, 2, 4, 0, 2, 2, 4]);
        assert_eq!(s.total, 16);
        assert!(s.on_fire);
        assert!(s.entries[3].on_fire, "the loss was played on fire");
        assert!(!s.entries[4].on_fire, "the loss put the fire out");
    }

    #[test]
    fn a_berserk_win_earns_one_extra_point() {
        let s = sheet(&[game(GameResult::Win, 7, true)]);
        assert_eq!(points(&s), [3]);
        assert!(s.entries[0].berserk_bonus);
    }

    #[test]
    fn a_berserk_win_in_five_moves_earns_no_extra_point_but_is_a_win() {
        // W 2 (berserk, too short for the bonus), W 2, then on fire: W 4.
        let s = sheet(&[game(GameResult::Win, 5, true), win(), win()]);
        assert_eq!(points(&s), [2, 2, 4]);
        assert!(!s.entries[0].berserk_bonus);
    }

    #[test]
    fn a_berserk_bonus_is_added_after_doubling() {
        // W 2, W 2, berserk W on fire: 2 × 2 + 1 = 5.
        let s = sheet(&[win(), win(), game(GameResult::Win, 40, true)]);
        assert_eq!(points(&s), [2, 2, 5]);
        assert_eq!(s.total, 9);
    }

    #[test]
    fn berserk_in_a_draw_or_loss_earns_nothing_extra() {
        let s = sheet(&[
            game(GameResult::Draw, 40, true),
            game(GameResult::Loss, 40, true),
        ]);
        assert_eq!(points(&s), [1, 0]);
    }

    #[test]
    fn a_draw_in_fewer_than_ten_moves_scores_nothing() {
        let s = sheet(&[game(GameResult::Draw, 9, false)]);
        assert_eq!(points(&s), [0]);
        let s = sheet(&[game(GameResult::Draw, 10, false)]);
        assert_eq!(points(&s), [1]);
    }

    #[test]
    fn a_quick_draw_on_fire_scores_nothing_and_ends_the_streak() {
        // W 2, W 2, quick D on fire: 0 (not 2), fire out; W 2.
        let s = sheet(&[win(), win(), game(GameResult::Draw, 3, false), win()]);
        assert_eq!(points(&s), [2, 2, 0, 2]);
        assert!(!s.entries[3].on_fire);
    }

    #[test]
    fn leaving_and_rejoining_continues_the_sheet_and_the_streak() {
        // Two wins, then the player withdraws; after rejoining, the first
        // win is on fire: 2 2 | 4. Nothing is recorded for the absence.
        let mut s = sheet(&[win(), win()]);
        assert!(s.on_fire);
        let after_rejoining = s.push(&win());
        assert_eq!(after_rejoining.points, 4);
        assert_eq!(s, sheet(&[win(), win(), win()]));
        assert_eq!(s.total, 8);
    }

    #[test]
    fn standings_order_by_total_then_rating_then_key() {
        let e = |key: &str, total, rating| Entrant {
            key: key.to_string(),
            total,
            rating,
        };
        let table = standings(&[
            e("carol", 10, 1500),
            e("alice", 12, 1400),
            e("bob", 10, 1700),
            e("dave", 10, 1500),
        ]);
        let order: Vec<(u32, &str)> = table.iter().map(|s| (s.rank, s.key.as_str())).collect();
        assert_eq!(order, [(1, "alice"), (2, "bob"), (3, "carol"), (4, "dave")]);
    }

    fn waiting(key: &str, rank: u32, last_opponent: Option<&str>) -> Waiting<String> {
        Waiting {
            key: key.to_string(),
            rank,
            last_opponent: last_opponent.map(str::to_string),
            whites: 0,
            blacks: 0,
            last_color: None,
        }
    }

    fn opponents(pairings: &[Pairing<String>]) -> Vec<[String; 2]> {
        pairings
            .iter()
            .map(|p| {
                let mut pair = [p.white.clone(), p.black.clone()];
                pair.sort();
                pair
            })
            .collect()
    }

    fn names(pairs: &[[&str; 2]]) -> Vec<[String; 2]> {
        pairs
            .iter()
            .map(|[a, b]| [a.to_string(), b.to_string()])
            .collect()
    }

    #[test]
    fn neighbours_in_rank_are_paired() {
        // Given out of order; paired by rank: 1–2, 3–4.
        let pairs = pair_waiting(&[
            waiting("d", 7, None),
            waiting("a", 1, None),
            waiting("c", 5, None),
            waiting("b", 2, None),
        ]);
        assert_eq!(opponents(&pairs), names(&[["a", "b"], ["c", "d"]]));
    }

    #[test]
    fn pairing_avoids_an_immediate_rematch() {
        // a and b just played each other: 1–2 would be a rematch, so the
        // four play across: a–c, b–d.
        let pairs = pair_waiting(&[
            waiting("a", 1, Some("b")),
            waiting("b", 2, Some("a")),
            waiting("c", 3, None),
            waiting("d", 4, None),
        ]);
        assert_eq!(opponents(&pairs), names(&[["a", "c"], ["b", "d"]]));
    }

    #[test]
    fn a_rematch_known_to_one_side_only_is_still_avoided() {
        // d's last opponent was c (c has played someone else since).
        let pairs = pair_waiting(&[
            waiting("a", 1, None),
            waiting("b", 2, None),
            waiting("c", 3, Some("x")),
            waiting("d", 4, Some("c")),
        ]);
        assert_eq!(opponents(&pairs), names(&[["a", "c"], ["b", "d"]]));
    }

    #[test]
    fn a_rematch_is_played_when_nothing_else_is_possible() {
        let pairs = pair_waiting(&[waiting("a", 1, Some("b")), waiting("b", 2, Some("a"))]);
        assert_eq!(opponents(&pairs), names(&[["a", "b"]]));
    }

    #[test]
    fn an_odd_count_leaves_the_lowest_ranked_player_waiting() {
        let pairs = pair_waiting(&[
            waiting("a", 1, None),
            waiting("b", 2, None),
            waiting("c", 3, None),
            waiting("d", 4, None),
            waiting("e", 5, None),
        ]);
        assert_eq!(opponents(&pairs), names(&[["a", "b"], ["c", "d"]]));
    }

    #[test]
    fn an_odd_count_lets_someone_else_wait_to_avoid_a_rematch() {
        // b and c just met: a–b, c waits.
        let pairs = pair_waiting(&[
            waiting("a", 1, None),
            waiting("b", 2, Some("c")),
            waiting("c", 3, Some("b")),
        ]);
        assert_eq!(opponents(&pairs), names(&[["a", "b"]]));
        // a and b just met: c must play. b–c (rank distance 1, a waits)
        // beats a–c (distance 2, b waits): distance comes before who waits.
        let pairs = pair_waiting(&[
            waiting("a", 1, Some("b")),
            waiting("b", 2, Some("a")),
            waiting("c", 3, None),
        ]);
        assert_eq!(opponents(&pairs), names(&[["b", "c"]]));
    }

    #[test]
    fn nobody_or_one_player_waiting_gives_no_pairing() {
        assert!(pair_waiting::<String>(&[]).is_empty());
        assert!(pair_waiting(&[waiting("a", 1, None)]).is_empty());
    }

    #[test]
    fn every_waiting_player_but_one_is_paired_exactly_once() {
        // Each player's last opponent is the next one up: rematches
        // everywhere along the line, yet everyone is placed once.
        for n in 0..=13u32 {
            let keys: Vec<String> = (0..n).map(|i| format!("p{i:02}")).collect();
            let list: Vec<Waiting<String>> = (0..n)
                .map(|i| {
                    let last = if i % 2 == 0 { i + 1 } else { i - 1 };
                    waiting(
                        &keys[i as usize],
                        i + 1,
                        keys.get(last as usize).map(|s| s.as_str()),
                    )
                })
                .collect();
            let pairs = pair_waiting(&list);
            assert_eq!(pairs.len(), (n / 2) as usize, "n = {n}");
            let mut seen: Vec<&String> = pairs.iter().flat_map(|p| [&p.white, &p.black]).collect();
            seen.sort();
            seen.dedup();
            assert_eq!(seen.len(), 2 * pairs.len(), "n = {n}: someone paired twice");
            if n >= 4 {
                for p in &pairs {
                    let (w, b) = (&list[key_index(&p.white)], &list[key_index(&p.black)]);
                    assert!(!is_rematch(w, b), "n = {n}: {} – {}", p.white, p.black);
                }
            }
        }
    }

    fn key_index(key: &str) -> usize {
        key[1..].parse().expect("test keys are p<index>")
    }

    #[test]
    fn the_player_owed_more_whites_gets_white() {
        let mut a = waiting("a", 1, None);
        let mut b = waiting("b", 2, None);
        a.whites = 3;
        a.blacks = 2;
        b.whites = 2;
        b.blacks = 3;
        let pairs = pair_waiting(&[a.clone(), b.clone()]);
        assert_eq!(
            pairs,
            [Pairing {
                white: "b".to_string(),
                black: "a".to_string()
            }]
        );
        // The other way round.
        std::mem::swap(&mut a.whites, &mut b.whites);
        std::mem::swap(&mut a.blacks, &mut b.blacks);
        let pairs = pair_waiting(&[a, b]);
        assert_eq!(pairs[0].white, "a");
    }

    #[test]
    fn with_equal_balance_the_last_black_gets_white() {
        let mut a = waiting("a", 1, None);
        let mut b = waiting("b", 2, None);
        for w in [&mut a, &mut b] {
            w.whites = 1;
            w.blacks = 1;
        }
        a.last_color = Some(Color::White);
        b.last_color = Some(Color::Black);
        assert_eq!(pair_waiting(&[a.clone(), b.clone()])[0].white, "b");
        a.last_color = Some(Color::Black);
        b.last_color = Some(Color::White);
        assert_eq!(pair_waiting(&[a, b])[0].white, "a");
    }

    #[test]
    fn with_nothing_to_choose_the_better_ranked_gets_white() {
        let pairs = pair_waiting(&[waiting("z", 2, None), waiting("y", 1, None)]);
        assert_eq!(
            pairs,
            [Pairing {
                white: "y".to_string(),
                black: "z".to_string()
            }]
        );
    }

    #[test]
    fn without_streaks_three_wins_score_two_each() {
        let win = Finished {
            result: GameResult::Win,
            moves: 30,
            berserk: false,
        };
        let sheet = sheet_without_streaks(&[win, win, win]);
        assert_eq!(sheet.total, 6);
        assert!(!sheet.on_fire);
        assert_eq!(super::sheet(&[win, win, win]).total, 8);
    }
}
