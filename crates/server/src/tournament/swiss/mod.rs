//! Swiss-system tournaments: the FIDE (Dutch) pairing system (Handbook C.04.3,
//! 2025 rules, in force from 2026), the FIDE TRF-16 report and the usual
//! Swiss tie-breaks.
//!
//! Players are identified by their pairing number (1-based, the order of the
//! initial ranking). Scores are counted in half-points.

mod dutch;
mod matching;
pub mod tiebreak;
pub mod trf;

use parity_rules::Color;
use std::fmt;

/// The result of one round for one player.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Score {
    /// One point.
    Win,
    /// Half a point.
    Draw,
    /// No point.
    Loss,
}

impl Score {
    /// The score in half-points: 2, 1 or 0.
    pub fn half_points(self) -> u32 {
        match self {
            Score::Win => 2,
            Score::Draw => 1,
            Score::Loss => 0,
        }
    }

    /// The opponent's score for the same game.
    pub fn reversed(self) -> Score {
        match self {
            Score::Win => Score::Loss,
            Score::Draw => Score::Draw,
            Score::Loss => Score::Win,
        }
    }
}

/// What a player had in one past round.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Round {
    /// A game played over the board.
    Played {
        /// The opponent's pairing number.
        opponent: u32,
        /// The colour this player had.
        color: Color,
        /// This player's result.
        score: Score,
    },
    /// A paired game that was not played; `score` Win is a forfeit win.
    /// Unplayed games do not count as meetings or colours; one that scored
    /// counts as a downfloat, and a forfeit win rules out the
    /// pairing-allocated bye.
    Forfeit {
        /// The opponent's pairing number.
        opponent: u32,
        /// The colour this player was given.
        color: Color,
        /// This player's result.
        score: Score,
    },
    /// The pairing-allocated bye (at most one per player).
    Bye {
        /// The points it gave (usually a win).
        score: Score,
    },
    /// Not paired: late entry, withdrawal, requested full-, half- or
    /// zero-point bye (a full point rules out the pairing-allocated bye).
    Absent {
        /// The points it gave.
        score: Score,
    },
}

impl Round {
    /// This player's score for the round.
    pub fn score(&self) -> Score {
        match *self {
            Round::Played { score, .. }
            | Round::Forfeit { score, .. }
            | Round::Bye { score }
            | Round::Absent { score } => score,
        }
    }

    /// The opponent met over the board, if the game was played.
    pub fn played_opponent(&self) -> Option<u32> {
        match *self {
            Round::Played { opponent, .. } => Some(opponent),
            _ => None,
        }
    }
}

/// One player as the pairing sees them.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Entrant {
    /// Pairing number (1-based: the order of the initial ranking, rating
    /// descending, then name).
    pub number: u32,
    /// Rating (0 if unrated); informative, the order is in `number`.
    pub rating: u32,
    /// Name, as written to the TRF.
    pub name: String,
    /// One entry per past round, round 1 first; missing rounds count as
    /// `Absent` with no point.
    pub history: Vec<Round>,
    /// False: withdrawn or absent this round, not to be paired.
    pub paired: bool,
}

impl Entrant {
    /// Points in half-points after the first `rounds` rounds.
    pub fn points_after(&self, rounds: usize) -> u32 {
        self.history
            .iter()
            .take(rounds)
            .map(|r| r.score().half_points())
            .sum()
    }

    /// Points in half-points over the whole history.
    pub fn points(&self) -> u32 {
        self.points_after(self.history.len())
    }
}

/// The pairing of one round.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Pairing {
    /// `[white, black]` pairing numbers, in board order (board 1 first).
    pub boards: Vec<[u32; 2]>,
    /// The player given the pairing-allocated bye, if the count is odd.
    pub bye: Option<u32>,
}

/// Why a round could not be paired.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum PairingError {
    /// Two entrants share a pairing number.
    DuplicateNumber(u32),
    /// A history names an opponent that is not an entrant.
    UnknownOpponent(u32),
    /// The round number is 0 or beyond the last round.
    BadRound(u32),
    /// No pairing satisfies the absolute criteria (no rematch, colours, at
    /// most one bye per player).
    NoValidPairing,
    /// The event is too large for the weight width of the matcher.
    TooLarge,
}

impl fmt::Display for PairingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PairingError::DuplicateNumber(n) => write!(f, "pairing number {n} is used twice"),
            PairingError::UnknownOpponent(n) => write!(f, "opponent {n} is not an entrant"),
            PairingError::BadRound(r) => write!(f, "round {r} is out of range"),
            PairingError::NoValidPairing => {
                write!(f, "no pairing satisfies the absolute criteria")
            }
            PairingError::TooLarge => write!(f, "too many players for the pairing engine"),
        }
    }
}

impl std::error::Error for PairingError {}

/// Pairs round `round` (1-based) of a `total_rounds`-round event by the FIDE
/// Dutch system; entrants with `paired == false` are left out. Round 1 gives
/// White to the top seed. Only the first `round - 1` history entries are read.
pub fn pair_round(
    entrants: &[Entrant],
    round: u32,
    total_rounds: u32,
) -> Result<Pairing, PairingError> {
    pair_round_with_initial(entrants, round, total_rounds, Color::White)
}

/// [`pair_round`] with the top seed's round-1 colour `initial` (the colour
/// given by rule E.5 to odd-ranked higher players when nothing else decides).
pub fn pair_round_with_initial(
    entrants: &[Entrant],
    round: u32,
    total_rounds: u32,
    initial: Color,
) -> Result<Pairing, PairingError> {
    if round == 0 || round > total_rounds.max(1) {
        return Err(PairingError::BadRound(round));
    }
    dutch::pair(entrants, round, total_rounds, initial)
}
