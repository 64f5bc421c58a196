//! Open challenges and seeks between accounts. They are invitations, not
//! games, so they live in memory: a restart forgets them (a game, once
//! begun, is stored like any other). Seeks expire; quick pairing takes the
//! first open seek that fits instead of adding one.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use rand::RngExt as _;
use tokio::sync::{broadcast, watch};

use crate::game::event::LiveClock;
use crate::hub::new_game::ColorChoice;
use crate::hub::players::{Pairing, Player};
use crate::store::UserRow;

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
#[derive(Clone, Debug, PartialEq, Eq)]
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
    pub created: Instant,
    /// Canceled at this if still unanswered (`Limits::challenge_expiry`).
    pub expires: Instant,
    /// Answered: the game it began, or why it ended.
    pub outcome: Option<ChallengeOutcome>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ChallengeOutcome {
    Accepted { game: String },
    Declined { reason: String },
    Canceled,
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
    pub expires: Instant,
    /// Tells the seeker's open request which game began.
    #[serde(skip)]
    pub(crate) started: watch::Sender<Option<String>>,
    /// Lives only while its request is open (`POST /api/board/seek`).
    #[serde(skip)]
    pub(crate) attached: bool,
}

impl Seek {
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
    /// The seek ends with the request that made it (lichess's board seek).
    pub attached: bool,
}

/// What became of a seek request: a game at once (quick pairing), or an
/// open seek and the way to hear of its game.
pub enum Sought {
    Paired {
        game: String,
    },
    Open {
        id: String,
        started: watch::Receiver<Option<String>>,
    },
}

#[derive(Default)]
pub struct Lobby {
    challenges: Mutex<HashMap<String, Challenge>>,
    seeks: Mutex<Vec<Seek>>,
    /// A tick on every change of the seeks, for pages that show them.
    changed: Mutex<Option<broadcast::Sender<()>>>,
}

impl Lobby {
    pub(crate) fn challenges(&self) -> std::sync::MutexGuard<'_, HashMap<String, Challenge>> {
        let mut all = self.challenges.lock().unwrap_or_else(|e| e.into_inner());
        let now = Instant::now();
        all.retain(|_, c| now < c.expires + ENDED_CHALLENGE_KEPT);
        all
    }

    pub(crate) fn seeks(&self) -> std::sync::MutexGuard<'_, Vec<Seek>> {
        let mut all = self.seeks.lock().unwrap_or_else(|e| e.into_inner());
        let now = Instant::now();
        let before = all.len();
        all.retain(|s| s.expires > now && !(s.attached && s.started.is_closed()));
        if all.len() != before {
            self.tick();
        }
        all
    }

    pub(crate) fn tick(&self) {
        if let Some(tx) = &*self.changed.lock().unwrap_or_else(|e| e.into_inner()) {
            let _ = tx.send(());
        }
    }

    /// Ticks on every change of the open seeks.
    pub fn watch_seeks(&self) -> broadcast::Receiver<()> {
        self.changed
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get_or_insert_with(|| broadcast::channel(16).0)
            .subscribe()
    }

    pub fn challenge(&self, id: &str) -> Option<Challenge> {
        self.challenges().get(id).cloned()
    }

    /// The open challenges to or from an account.
    pub fn challenges_of(&self, user_id: &str) -> Vec<Challenge> {
        let mut list: Vec<Challenge> = self
            .challenges()
            .values()
            .filter(|c| c.outcome.is_none())
            .filter(|c| c.challenger.id == user_id || c.dest.id == user_id)
            .cloned()
            .collect();
        list.sort_by_key(|c| c.created);
        list
    }

    /// The open seeks, oldest first.
    pub fn open_seeks(&self) -> Vec<Seek> {
        self.seeks().clone()
    }
}
