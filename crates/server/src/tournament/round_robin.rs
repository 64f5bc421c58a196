//! Round robins paired by the Berger tables (FIDE Handbook C.05, Annex 1).
//!
//! Players are numbered 1..=n by pairing number. With an odd n a dummy
//! player n + 1 is added; whoever meets the dummy has a bye that round, and
//! the dummy's pair is left out of the round's games ([`Round::bye`] names
//! the player instead).
//!
//! # The tables as a rule
//!
//! For an even size s (n, or n + 1 with the dummy) there are s − 1 rounds.
//! Player s is fixed; players 1..s−1 go round a circle, numbers taken
//! modulo s − 1 (written 1..=s−1). In round r:
//!
//! - player s meets p, where 2p ≡ r + 1 (mod s − 1): p = (r + 1) / 2 in odd
//!   rounds, s/2 + r/2 in even ones. Board 1 is p–s (p White) in odd
//!   rounds and s–p in even ones;
//! - board k + 1, for k = 1..s/2 − 1, is (p + k)–(p − k): White counts up
//!   from p, Black counts down.
//!
//! This reproduces the published tables board for board, e.g. for six
//! players round 2 is 6–4, 5–3, 1–2 (p = 4: 6–4, then 5–3 and 6≡1 – 2).
//!
//! # Double round robins
//!
//! [`berger_double`] plays the table twice, the second cycle with colours
//! reversed. As FIDE recommends, the last two rounds of the first cycle are
//! exchanged, so that nobody plays three games in a row with one colour
//! across the join between the cycles.

/// One round of a round robin.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Round {
    /// (White, Black) pairing numbers, in board order.
    pub pairs: Vec<(u32, u32)>,
    /// The player who sits out (only with an odd number of players).
    pub bye: Option<u32>,
}

/// The rounds of a single round robin for `players` players (pairing
/// numbers 1..=players): `players − 1` rounds when even, `players` when
/// odd. Fewer than two players: no rounds.
pub fn berger_rounds(players: u32) -> Vec<Round> {
    if players < 2 {
        return Vec::new();
    }
    // u64 so that the dummy and the sums below cannot overflow.
    let size = u64::from(players) + u64::from(players % 2);
    let circle = size - 1;
    // Numbers on the circle run 1..=circle.
    let on_circle = |x: u64| (x + circle - 1) % circle + 1;
    let real = |x: u64| u32::try_from(x).ok().filter(|&x| x <= players);
    (1..=circle)
        .map(|r| {
            let facing_last = if r % 2 == 1 {
                r.div_ceil(2)
            } else {
                size / 2 + r / 2
            };
            let first_board = if r % 2 == 1 {
                (facing_last, size)
            } else {
                (size, facing_last)
            };
            let boards = std::iter::once(first_board).chain((1..size / 2).map(|k| {
                (
                    on_circle(facing_last + k),
                    on_circle(facing_last + circle - k),
                )
            }));
            let mut round = Round::default();
            for (white, black) in boards {
                match (real(white), real(black)) {
                    (Some(white), Some(black)) => round.pairs.push((white, black)),
                    (Some(player), None) | (None, Some(player)) => round.bye = Some(player),
                    (None, None) => {}
                }
            }
            round
        })
        .collect()
}

/// The pairs of each round of a single round robin (see
/// [`berger_rounds`]); with an odd number of players the bye is left out.
pub fn berger(players: u32) -> Vec<Vec<(u32, u32)>> {
    berger_rounds(players)
        .into_iter()
        .map(|round| round.pairs)
        .collect()
}

/// The rounds of a double round robin: the single one with its last two
/// rounds exchanged, then the single one again, in its own order, with
/// every pair's colours reversed.
pub fn berger_double_rounds(players: u32) -> Vec<Round> {
    let single = berger_rounds(players);
    let mut first = single.clone();
    let len = first.len();
    if len >= 2 {
        first.swap(len - 2, len - 1);
    }
    let second = single.into_iter().map(|round| Round {
        pairs: round.pairs.into_iter().map(|(w, b)| (b, w)).collect(),
        bye: round.bye,
    });
    first.into_iter().chain(second).collect()
}

/// The pairs of each round of a double round robin (see
/// [`berger_double_rounds`]); byes left out.
pub fn berger_double(players: u32) -> Vec<Vec<(u32, u32)>> {
    berger_double_rounds(players)
        .into_iter()
        .map(|round| round.pairs)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reads a table written like the published ones: rounds separated by
    /// `/`, games by spaces, each game `white-black`.
    fn table(text: &str) -> Vec<Vec<(u32, u32)>> {
        text.split('/')
            .map(|round| {
                round
                    .split_whitespace()
                    .map(|game| {
                        let (w, b) = game.split_once('-').expect("white-black");
                        (w.parse().expect("number"), b.parse().expect("number"))
                    })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn four_players_match_the_published_table() {
        assert_eq!(berger(4), table("1-4 2-3 / 4-3 1-2 / 2-4 3-1"));
    }

    #[test]
    fn six_players_match_the_published_table() {
        assert_eq!(
            berger(6),
            table("1-6 2-5 3-4 / 6-4 5-3 1-2 / 2-6 3-1 4-5 / 6-5 1-4 2-3 / 3-6 4-2 5-1")
        );
    }

    // The tables for 8 to 14 as published (FIDE C.05 Annex 1, as
    // reproduced by chess clubs' pages), typed in by hand.
    #[test]
    fn eight_players_match_the_published_table() {
        assert_eq!(
            berger(8),
            table(
                "1-8 2-7 3-6 4-5 / 8-5 6-4 7-3 1-2 / 2-8 3-1 4-7 5-6 / 8-6 7-5 1-4 2-3 /
                 3-8 4-2 5-1 6-7 / 8-7 1-6 2-5 3-4 / 4-8 5-3 6-2 7-1"
            )
        );
    }

    #[test]
    fn ten_players_match_the_published_table() {
        assert_eq!(
            berger(10),
            table(
                "1-10 2-9 3-8 4-7 5-6 / 10-6 7-5 8-4 9-3 1-2 / 2-10 3-1 4-9 5-8 6-7 /
                 10-7 8-6 9-5 1-4 2-3 / 3-10 4-2 5-1 6-9 7-8 / 10-8 9-7 1-6 2-5 3-4 /
                 4-10 5-3 6-2 7-1 8-9 / 10-9 1-8 2-7 3-6 4-5 / 5-10 6-4 7-3 8-2 9-1"
            )
        );
    }

    #[test]
    fn twelve_players_match_the_published_table() {
        assert_eq!(
            berger(12),
            table(
                "1-12 2-11 3-10 4-9 5-8 6-7 / 12-7 8-6 9-5 10-4 11-3 1-2 /
                 2-12 3-1 4-11 5-10 6-9 7-8 / 12-8 9-7 10-6 11-5 1-4 2-3 /
                 3-12 4-2 5-1 6-11 7-10 8-9 / 12-9 10-8 11-7 1-6 2-5 3-4 /
                 4-12 5-3 6-2 7-1 8-11 9-10 / 12-10 11-9 1-8 2-7 3-6 4-5 /
                 5-12 6-4 7-3 8-2 9-1 10-11 / 12-11 1-10 2-9 3-8 4-7 5-6 /
                 6-12 7-5 8-4 9-3 10-2 11-1"
            )
        );
    }

    #[test]
    fn fourteen_players_match_the_published_table() {
        assert_eq!(
            berger(14),
            table(
                "1-14 2-13 3-12 4-11 5-10 6-9 7-8 / 14-8 9-7 10-6 11-5 12-4 13-3 1-2 /
                 2-14 3-1 4-13 5-12 6-11 7-10 8-9 / 14-9 10-8 11-7 12-6 13-5 1-4 2-3 /
                 3-14 4-2 5-1 6-13 7-12 8-11 9-10 / 14-10 11-9 12-8 13-7 1-6 2-5 3-4 /
                 4-14 5-3 6-2 7-1 8-13 9-12 10-11 / 14-11 12-10 13-9 1-8 2-7 3-6 4-5 /
                 5-14 6-4 7-3 8-2 9-1 10-13 11-12 / 14-12 13-11 1-10 2-9 3-8 4-7 5-6 /
                 6-14 7-5 8-4 9-3 10-2 11-1 12-13 / 14-13 1-12 2-11 3-10 4-9 5-8 6-7 /
                 7-14 8-6 9-5 10-4 11-3 12-2 13-1"
            )
        );
    }

    #[test]
    fn an_odd_count_uses_the_next_even_table_with_byes() {
        // Five players: the six-player table with player 6 as the bye.
        let rounds = berger_rounds(5);
        assert_eq!(
            rounds.iter().map(|r| r.pairs.clone()).collect::<Vec<_>>(),
            table("2-5 3-4 / 5-3 1-2 / 3-1 4-5 / 1-4 2-3 / 4-2 5-1")
        );
        let byes: Vec<Option<u32>> = rounds.iter().map(|r| r.bye).collect();
        assert_eq!(byes, [Some(1), Some(4), Some(2), Some(5), Some(3)]);
        // Three players: the four-player table.
        assert_eq!(berger(3), table("2-3 / 1-2 / 3-1"));
    }

    #[test]
    fn two_players_play_one_game_and_fewer_play_none() {
        assert_eq!(berger(2), table("1-2"));
        assert!(berger(1).is_empty());
        assert!(berger(0).is_empty());
    }

    /// Each player's colours through `rounds`, in order ('W', 'B', or '-'
    /// for a bye).
    fn colours(players: u32, rounds: &[Round]) -> Vec<String> {
        (1..=players)
            .map(|p| {
                rounds
                    .iter()
                    .map(|round| {
                        if round.pairs.iter().any(|&(w, _)| w == p) {
                            'W'
                        } else if round.pairs.iter().any(|&(_, b)| b == p) {
                            'B'
                        } else {
                            '-'
                        }
                    })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn every_pair_meets_once_and_everyone_plays_once_a_round() {
        for n in 2..=16u32 {
            let rounds = berger_rounds(n);
            let even = n % 2 == 0;
            assert_eq!(rounds.len() as u32, if even { n - 1 } else { n }, "n = {n}");
            let mut met = vec![vec![0u32; n as usize + 1]; n as usize + 1];
            for (r, round) in rounds.iter().enumerate() {
                let mut seen = vec![0u32; n as usize + 1];
                for &(w, b) in &round.pairs {
                    assert!((1..=n).contains(&w) && (1..=n).contains(&b) && w != b);
                    seen[w as usize] += 1;
                    seen[b as usize] += 1;
                    met[w.min(b) as usize][w.max(b) as usize] += 1;
                }
                assert_eq!(round.bye.is_some(), !even, "n = {n}, round {r}");
                if let Some(bye) = round.bye {
                    seen[bye as usize] += 1;
                }
                assert!(
                    seen[1..].iter().all(|&s| s == 1),
                    "n = {n}, round {r}: {seen:?}"
                );
            }
            for a in 1..=n {
                for b in a + 1..=n {
                    assert_eq!(met[a as usize][b as usize], 1, "n = {n}: {a} and {b}");
                }
            }
            // Every player has a bye exactly once when n is odd.
            let mut byes: Vec<u32> = rounds.iter().filter_map(|r| r.bye).collect();
            byes.sort();
            assert_eq!(
                byes,
                if even { vec![] } else { (1..=n).collect() },
                "n = {n}"
            );
        }
    }

    #[test]
    fn colours_are_balanced_and_never_three_in_a_row() {
        for n in 2..=16u32 {
            for (p, line) in colours(n, &berger_rounds(n)).iter().enumerate() {
                let whites = line.matches('W').count() as i64;
                let blacks = line.matches('B').count() as i64;
                // Even n: n − 1 games, one colour once more. Odd n: the
                // dummy's game is gone and what is left is level.
                let difference = if n % 2 == 0 { 1 } else { 0 };
                assert_eq!(
                    (whites - blacks).abs(),
                    difference,
                    "n = {n}, player {}: {line}",
                    p + 1
                );
                let games: String = line.chars().filter(|&c| c != '-').collect();
                assert!(
                    !games.contains("WWW") && !games.contains("BBB"),
                    "n = {n}, player {}: {line}",
                    p + 1
                );
            }
        }
    }

    #[test]
    fn a_double_round_robin_reverses_colours_in_the_second_cycle() {
        // Six players: rounds 4 and 5 exchanged, then the table reversed.
        assert_eq!(
            berger_double(6),
            table(
                "1-6 2-5 3-4 / 6-4 5-3 1-2 / 2-6 3-1 4-5 / 3-6 4-2 5-1 / 6-5 1-4 2-3 /
                 6-1 5-2 4-3 / 4-6 3-5 2-1 / 6-2 1-3 5-4 / 5-6 4-1 3-2 / 6-3 2-4 1-5"
            )
        );
        for n in 2..=16u32 {
            let rounds = berger_double_rounds(n);
            let single = berger_rounds(n).len();
            assert_eq!(rounds.len(), 2 * single, "n = {n}");
            // Each pair meets twice, once with each colour.
            let mut games: Vec<(u32, u32)> = rounds.iter().flat_map(|r| r.pairs.clone()).collect();
            games.sort();
            let mut both_ways: Vec<(u32, u32)> = (1..=n)
                .flat_map(|a| (1..=n).filter(move |&b| b != a).map(move |b| (a, b)))
                .collect();
            both_ways.sort();
            assert_eq!(games, both_ways, "n = {n}");
            // Byes skipped: what counts is the games a player plays.
            for (p, line) in colours(n, &rounds).iter().enumerate() {
                let games: String = line.chars().filter(|&c| c != '-').collect();
                assert!(
                    !games.contains("WWW") && !games.contains("BBB"),
                    "n = {n}, player {}: {line}",
                    p + 1
                );
            }
        }
    }
}
