//! Open challenges and seeks between accounts, as the hub sees them.
//! They are stored (`store/lobby.rs`), so every node of a cluster shares
//! one lobby and a restart keeps it. Seeks expire; quick pairing takes
//! the first open seek that fits instead of adding one.

use std::time::Duration;

use rand::RngExt as _;

use crate::game::event::LiveClock;
use crate::hub::new_game::ColorChoice;
use crate::hub::players::{Pairing, Player};
use crate::store::lobby::{ChallengeRow, SeekRow};
use crate::store::{StoreError, UserRow};

/// How long an answered or expired challenge stays readable, for the
/// events that tell of its end.
pub(crate) const ENDED_CHALLENGE_KEPT: Duration = Duration::from_secs(60);
/// A seek from the page lives this long; one from `POST /api/board/seek`
/// as long as its request stays open.
pub const SEEK_LIFETIME: Duration = Duration::from_secs(10 * 60);
/// Open seeks an account may have at once.
pub(crate) const MAX_SEEKS_PER_USER: usize = 4;
/// Open challenges an account may have sent at once, and to one account.
pub(crate) const MAX_CHALLENGES_PER_USER: usize = 20;
pub(crate) const MAX_CHALLENGES_PER_PAIR: usize = 3;

/// The terms of a game to be: a challenge's or a seek's.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Terms {
    pub variant: String,
    pub clock: Option<LiveClock>,
    pub days: Option<u32>,
    pub rated: bool,
    /// The colour the asking side wants.
    pub color: ColorChoice,
    pub fen: Option<String>,
}

impl Terms {
    /// White and black, `asker` being the one who set the terms.
    pub(crate) fn sides(&self, asker: Player, other: Player) -> (Player, Player) {
        let asker_white = match self.color {
            ColorChoice::White => true,
            ColorChoice::Black => false,
            ColorChoice::Random => rand::rng().random::<bool>(),
        };
        match asker_white {
            true => (asker, other),
            false => (other, asker),
        }
    }

    pub(crate) fn pairing(&self, id: Option<String>, asker: Player, other: Player) -> Pairing {
        let (white, black) = self.sides(asker, other);
        Pairing {
            id,
            variant: self.variant.clone(),
            clock: self.clock,
            days: self.days,
            white,
            black,
            rated: self.rated,
            fen: self.fen.clone(),
            by_tournament: false,
        }
    }
}

/// A challenge from one account to another.
#[derive(Clone, Debug)]
pub struct Challenge {
    pub id: String,
    pub challenger: UserRow,
    /// The challenger's rating in the variant, and whether it is provisional.
    pub challenger_rating: (i64, bool),
    pub dest: UserRow,
    pub dest_rating: (i64, bool),
    pub terms: Terms,
    /// Ms since the Unix epoch.
    pub created_ms: i64,
    /// Canceled at this if still unanswered (`Limits::challenge_expiry`).
    pub expires_ms: i64,
    /// Answered: the game it began, or why it ended.
    pub outcome: Option<ChallengeOutcome>,
}

#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ChallengeOutcome {
    Accepted { game: String },
    Declined { reason: String },
    Canceled,
}

fn unreadable(what: &str, id: &str, e: serde_json::Error) -> StoreError {
    StoreError::Corrupt(format!("{what} {id}: {e}"))
}

impl Challenge {
    pub(crate) fn from_row(row: ChallengeRow) -> Result<Challenge, StoreError> {
        let terms = serde_json::from_str(&row.terms_json)
            .map_err(|e| unreadable("challenge", &row.id, e))?;
        let outcome = row
            .outcome_json
            .as_deref()
            .map(serde_json::from_str)
            .transpose()
            .map_err(|e| unreadable("challenge", &row.id, e))?;
        Ok(Challenge {
            id: row.id,
            challenger: row.challenger,
            challenger_rating: row.challenger_rating,
            dest: row.dest,
            dest_rating: row.dest_rating,
            terms,
            created_ms: row.created_ms,
            expires_ms: row.expires_ms,
            outcome,
        })
    }

    pub(crate) fn row(&self) -> ChallengeRow {
        ChallengeRow {
            id: self.id.clone(),
            challenger: self.challenger.clone(),
            challenger_rating: self.challenger_rating,
            dest: self.dest.clone(),
            dest_rating: self.dest_rating,
            terms_json: json_text(&self.terms),
            created_ms: self.created_ms,
            expires_ms: self.expires_ms,
            outcome_json: self.outcome.as_ref().map(json_text),
        }
    }
}

pub(crate) fn json_text(value: &impl serde::Serialize) -> String {
    serde_json::to_string(value).expect("lobby types serialise")
}

/// A seek anyone may accept.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Seek {
    pub id: String,
    pub user: String,
    #[serde(skip)]
    pub owner: UserRow,
    pub rating: i64,
    pub provisional: bool,
    pub variant: String,
    pub clock: Option<LiveClock>,
    pub days: Option<u32>,
    pub rated: bool,
    pub color: ColorChoice,
    /// The opponents' ratings it takes, both ends included.
    pub rating_range: Option<(i64, i64)>,
    #[serde(skip)]
    pub created_ms: i64,
    #[serde(skip)]
    pub expires_ms: i64,
}

impl Seek {
    pub(crate) fn terms(&self) -> Terms {
        Terms {
            variant: self.variant.clone(),
            clock: self.clock,
            days: self.days,
            rated: self.rated,
            color: self.color,
            fen: None,
        }
    }

    pub(crate) fn from_row(row: SeekRow) -> Result<Seek, StoreError> {
        let terms: Terms =
            serde_json::from_str(&row.terms_json).map_err(|e| unreadable("seek", &row.id, e))?;
        Ok(Seek {
            id: row.id,
            user: row.owner.name.clone(),
            owner: row.owner,
            rating: row.rating,
            provisional: row.provisional,
            variant: terms.variant,
            clock: terms.clock,
            days: terms.days,
            rated: terms.rated,
            color: terms.color,
            rating_range: row.rating_range,
            created_ms: row.created_ms,
            expires_ms: row.expires_ms,
        })
    }

    pub(crate) fn row(&self) -> SeekRow {
        SeekRow {
            id: self.id.clone(),
            owner: self.owner.clone(),
            rating: self.rating,
            provisional: self.provisional,
            terms_json: json_text(&self.terms()),
            rating_range: self.rating_range,
            created_ms: self.created_ms,
            expires_ms: self.expires_ms,
        }
    }

    pub(crate) fn fits(&self, other: &Seek) -> bool {
        self.owner.id != other.owner.id
            && self.variant == other.variant
            && self.clock == other.clock
            && self.days == other.days
            && self.rated == other.rated
            && match (self.color, other.color) {
                (ColorChoice::Random, _) | (_, ColorChoice::Random) => true,
                (a, b) => a != b,
            }
            && self.takes(other.rating)
            && other.takes(self.rating)
    }

    pub(crate) fn takes(&self, rating: i64) -> bool {
        self.rating_range
            .is_none_or(|(low, high)| (low..=high).contains(&rating))
    }
}

/// A new seek's terms, from the page or `POST /api/board/seek`.
#[derive(Clone, Debug)]
pub struct SeekRequest {
    pub terms: Terms,
    pub rating_range: Option<(i64, i64)>,
    pub lifetime: Duration,
}

/// What became of a seek request: a game at once (quick pairing), or an
/// open seek.
pub enum Sought {
    Paired { game: String },
    Open { id: String },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_challenge_reads_back_from_its_row() {
        let user = |id: &str| UserRow {
            id: id.into(),
            name: id.to_uppercase(),
            password_hash: None,
            bot: false,
            created_ms: 5,
        };
        let challenge = Challenge {
            id: "abcd1234".into(),
            challenger: user("ada"),
            challenger_rating: (1620, false),
            dest: user("bob"),
            dest_rating: (1500, true),
            terms: Terms {
                variant: "parity".into(),
                clock: Some(LiveClock {
                    initial: 300,
                    increment: 3,
                }),
                days: None,
                rated: true,
                color: ColorChoice::Black,
                fen: Some("8/8/8/8/8/8/8/K6k w - - 0 1".into()),
            },
            created_ms: 10,
            expires_ms: 20,
            outcome: Some(ChallengeOutcome::Declined {
                reason: "later".into(),
            }),
        };
        let back = Challenge::from_row(challenge.row()).unwrap();
        assert_eq!(
            (back.terms, back.outcome, back.dest, back.expires_ms),
            (
                challenge.terms,
                challenge.outcome,
                challenge.dest,
                challenge.expires_ms
            )
        );
    }
}
