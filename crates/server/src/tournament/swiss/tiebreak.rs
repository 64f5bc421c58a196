//! Swiss tie-breaks and the standings order.
//!
//! Unplayed rounds follow the FIDE rule for tie-breaks (Handbook C.02, 2009):
//! * in a player's own tie-breaks, each round he did not play (bye, absence,
//!   forfeit) counts as a game against a virtual opponent whose score is
//!   the player's score before that round, plus the points he did not get
//!   in it, plus a draw for every later round;
//! * an opponent's score counts each of the opponent's unplayed rounds as a
//!   draw.

use super::{Entrant, Round};
use std::collections::HashMap;

/// One line of the standings.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Standing {
    /// Pairing number.
    pub number: u32,
    /// Points, in half-points.
    pub points: u32,
    /// Buchholz: the sum of the opponents' scores, in half-points.
    pub buchholz: u32,
    /// Buchholz without the lowest opponent's score, in half-points.
    pub buchholz_cut1: u32,
    /// Sonneborn-Berger: the opponents' scores weighted by the result
    /// against them (1, ½, 0), in quarter-points.
    pub sonneborn_berger: u32,
}

/// An entrant's score with unplayed rounds counted as draws, in half-points.
fn adjusted_points(e: &Entrant) -> u32 {
    e.history
        .iter()
        .map(|r| match r {
            Round::Played { score, .. } => score.half_points(),
            _ => 1,
        })
        .sum()
}

/// The tie-breaks of every entrant, best first: by points, Buchholz Cut-1,
/// Buchholz, Sonneborn-Berger, then pairing number.
pub fn standings(entrants: &[Entrant]) -> Vec<Standing> {
    let adjusted: HashMap<u32, u32> = entrants
        .iter()
        .map(|e| (e.number, adjusted_points(e)))
        .collect();
    let mut out: Vec<Standing> = entrants
        .iter()
        .map(|e| {
            let rounds = e.history.len() as u32;
            // (opponent's score, own result) per round, in half-points.
            let games: Vec<(u32, u32)> = e
                .history
                .iter()
                .enumerate()
                .map(|(r, round)| {
                    let result = round.score().half_points();
                    let opponent = match round.played_opponent() {
                        Some(o) => adjusted.get(&o).copied().unwrap_or(0),
                        None => e.points_after(r) + (2 - result) + (rounds - 1 - r as u32),
                    };
                    (opponent, result)
                })
                .collect();
            let buchholz: u32 = games.iter().map(|g| g.0).sum();
            let lowest = games.iter().map(|g| g.0).min().unwrap_or(0);
            Standing {
                number: e.number,
                points: e.points(),
                buchholz,
                buchholz_cut1: buchholz - lowest,
                sonneborn_berger: games.iter().map(|&(o, r)| o * r).sum(),
            }
        })
        .collect();
    out.sort_by(|a, b| {
        b.points
            .cmp(&a.points)
            .then(b.buchholz_cut1.cmp(&a.buchholz_cut1))
            .then(b.buchholz.cmp(&a.buchholz))
            .then(b.sonneborn_berger.cmp(&a.sonneborn_berger))
            .then(a.number.cmp(&b.number))
    });
    out
}

#[cfg(test)]
mod tests {
    use super::super::Score::{self, *};
    use super::*;
    use parity_rules::Color::{self, *};

    fn game(opponent: u32, color: Color, score: Score) -> Round {
        Round::Played {
            opponent,
            color,
            score,
        }
    }

    fn entrant(number: u32, history: Vec<Round>) -> Entrant {
        Entrant {
            number,
            rating: 0,
            name: format!("P{number}"),
            history,
            paired: true,
        }
    }

    /// Five players, three rounds:
    /// R1: 1-3 1-0, 2-4 ½-½, 5 bye.   R2: 5-1 0-1, 4-3 1-0, 2 absent (0).
    /// R3: 1-4 ½-½, 3-2 0-1, 5 forfeit win against nobody (absent, 1).
    #[test]
    fn hand_computed_table() {
        let entrants = vec![
            entrant(
                1,
                vec![
                    game(3, White, Win),
                    game(5, Black, Win),
                    game(4, White, Draw),
                ],
            ),
            entrant(
                2,
                vec![
                    game(4, White, Draw),
                    Round::Absent { score: Loss },
                    game(3, Black, Win),
                ],
            ),
            entrant(
                3,
                vec![
                    game(1, Black, Loss),
                    game(4, Black, Loss),
                    game(2, White, Loss),
                ],
            ),
            entrant(
                4,
                vec![
                    game(2, Black, Draw),
                    game(3, White, Win),
                    game(1, Black, Draw),
                ],
            ),
            entrant(
                5,
                vec![
                    Round::Bye { score: Win },
                    game(1, White, Loss),
                    Round::Absent { score: Win },
                ],
            ),
        ];
        // Points (half): 1:5, 2:3, 3:0, 4:4, 5:4.
        // Adjusted (unplayed = draw): 1:5, 2:1+1+2=4, 3:0, 4:4, 5:1+0+1=2.
        // Player 1: opponents 3,5,4 -> 0+2+4 = 6; cut1 6; SB 0*2+2*2+4*1 = 8.
        // Player 2: 4 (4), virtual R2: before 1 + (2-0) + 1 later = 4, 3 (0)
        //   -> 8; cut1 8; SB 4*1 + 4*0 + 0*2 = 4.
        // Player 4: 2 (4), 3 (0), 1 (5) -> 9; cut1 9; SB 4+0+5 = 9.
        // Player 5: virtual R1: 0 + 0 + 2 = 2, 1 (5), virtual R3: 2 + 0 + 0 = 2
        //   -> 9; cut1 7; SB 2*2 + 0 + 2*2 = 8.
        // Player 3: 1 (5), 4 (4), 2 (4) -> 13; cut1 9; SB 0.
        let table = standings(&entrants);
        let row = |n: u32| table.iter().find(|s| s.number == n).cloned().unwrap();
        assert_eq!(
            row(1),
            Standing {
                number: 1,
                points: 5,
                buchholz: 6,
                buchholz_cut1: 6,
                sonneborn_berger: 8
            }
        );
        assert_eq!(
            row(2),
            Standing {
                number: 2,
                points: 3,
                buchholz: 8,
                buchholz_cut1: 8,
                sonneborn_berger: 4
            }
        );
        assert_eq!(
            row(4),
            Standing {
                number: 4,
                points: 4,
                buchholz: 9,
                buchholz_cut1: 9,
                sonneborn_berger: 9
            }
        );
        assert_eq!(
            row(5),
            Standing {
                number: 5,
                points: 4,
                buchholz: 9,
                buchholz_cut1: 7,
                sonneborn_berger: 8
            }
        );
        assert_eq!(
            row(3),
            Standing {
                number: 3,
                points: 0,
                buchholz: 13,
                buchholz_cut1: 9,
                sonneborn_berger: 0
            }
        );
        // 4 and 5 tie on points; 4 has the better Buchholz Cut-1.
        let order: Vec<u32> = table.iter().map(|s| s.number).collect();
        assert_eq!(order, vec![1, 4, 5, 2, 3]);
    }
}
