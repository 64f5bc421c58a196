//! Open challenges and seeks between accounts. They are invitations, not
//! games, so they live in memory: a restart forgets them (a game, once
//! begun, is stored like any other). Seeks expire; quick pairing takes the
//! first open seek that fits instead of adding one.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rand::RngExt as _;
use tokio::sync::{broadcast, watch};

use crate::error::ApiError;
use crate::event::LiveClock;
use crate::hub::{ColorChoice, Hub};
use crate::players::{AccountEvent, Pairing, Player};
use crate::secret::new_game_id;
use crate::store::UserRow;

/// How long an answered or expired challenge stays readable, for the
/// events that tell of its end.
const ENDED_CHALLENGE_KEPT: Duration = Duration::from_secs(60);
/// A seek from the page lives this long; one from `POST /api/board/seek`
/// as long as its request stays open.
pub const SEEK_LIFETIME: Duration = Duration::from_secs(10 * 60);
/// Open seeks an account may have at once.
const MAX_SEEKS_PER_USER: usize = 4;

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
    fn sides(&self, asker: Player, other: Player) -> (Player, Player) {
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

    fn pairing(&self, id: Option<String>, asker: Player, other: Player) -> Pairing {
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
    started: watch::Sender<Option<String>>,
    /// Lives only while its request is open (`POST /api/board/seek`).
    #[serde(skip)]
    attached: bool,
}

impl Seek {
    fn fits(&self, other: &Seek) -> bool {
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

    fn takes(&self, rating: i64) -> bool {
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
    fn challenges(&self) -> std::sync::MutexGuard<'_, HashMap<String, Challenge>> {
        let mut all = self.challenges.lock().unwrap_or_else(|e| e.into_inner());
        let now = Instant::now();
        all.retain(|_, c| now < c.expires + ENDED_CHALLENGE_KEPT);
        all
    }

    fn seeks(&self) -> std::sync::MutexGuard<'_, Vec<Seek>> {
        let mut all = self.seeks.lock().unwrap_or_else(|e| e.into_inner());
        let now = Instant::now();
        let before = all.len();
        all.retain(|s| s.expires > now && !(s.attached && s.started.is_closed()));
        if all.len() != before {
            self.tick();
        }
        all
    }

    fn tick(&self) {
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

impl Hub {
    /// An account's rating in a variant, as shown, and whether it is provisional.
    pub async fn shown_rating(
        &self,
        user_id: &str,
        variant: &str,
    ) -> Result<(i64, bool), ApiError> {
        let rating = self
            .store()
            .ratings(user_id)
            .await?
            .into_iter()
            .find(|(v, _)| v == variant)
            .map(|(_, r)| r)
            .unwrap_or_default();
        Ok((rating.shown(), rating.provisional()))
    }

    fn check_terms(&self, terms: &Terms) -> Result<(), ApiError> {
        let variant = self
            .registry()
            .get_or_err(&terms.variant)
            .map_err(|e| ApiError::BadRequest(e.to_string()))?;
        if let Some(fen) = &terms.fen {
            crate::hub::start_position(variant, fen)?;
        }
        crate::clock::TimeControl::new(terms.clock, terms.days).map_err(ApiError::BadRequest)?;
        Ok(())
    }

    /// `challenger` challenges `dest`; both hear of it.
    pub async fn challenge(
        self: &Arc<Self>,
        challenger: UserRow,
        dest: UserRow,
        terms: Terms,
    ) -> Result<Challenge, ApiError> {
        if challenger.id == dest.id {
            return Err(ApiError::BadRequest("you cannot challenge yourself".into()));
        }
        self.check_terms(&terms)?;
        let challenger_rating = self.shown_rating(&challenger.id, &terms.variant).await?;
        let dest_rating = self.shown_rating(&dest.id, &terms.variant).await?;
        let challenge = Challenge {
            id: new_game_id(),
            challenger,
            challenger_rating,
            dest,
            dest_rating,
            terms,
            created: Instant::now(),
            expires: Instant::now() + self.limits.challenge_expiry,
            outcome: None,
        };
        self.lobby()
            .challenges()
            .insert(challenge.id.clone(), challenge.clone());
        let hub = Arc::downgrade(self);
        let (id, expires) = (challenge.id.clone(), challenge.expires);
        tokio::spawn(async move {
            tokio::time::sleep_until(expires.into()).await;
            if let Some(hub) = hub.upgrade() {
                hub.expire_challenge(&id);
            }
        });
        for user in [&challenge.dest.id, &challenge.challenger.id] {
            // Challenges live on the node that took them: their events
            // stay here (docs/server.md, "Several nodes").
            self.account_events().publish(
                user,
                AccountEvent::Challenge {
                    id: challenge.id.clone(),
                },
            );
        }
        Ok(challenge)
    }

    /// Takes an open challenge out for an answer by `by`, who must be
    /// its `dest` (or for `cancel` either side).
    fn answer_challenge(&self, id: &str, by: &str, cancel: bool) -> Result<Challenge, ApiError> {
        let mut all = self.lobby().challenges();
        let challenge = all
            .get(id)
            .filter(|c| c.outcome.is_none())
            .ok_or_else(|| ApiError::NotFound(format!("no open challenge {id}")))?;
        let allowed = challenge.dest.id == by || (cancel && challenge.challenger.id == by);
        if !allowed {
            return Err(ApiError::Forbidden(
                "this challenge is not yours to answer".into(),
            ));
        }
        let challenge = all.remove(id).expect("just found");
        Ok(challenge)
    }

    /// `by` accepts challenge `id`: the game begins for both.
    pub async fn accept_challenge(
        self: &Arc<Self>,
        id: &str,
        by: &str,
    ) -> Result<String, ApiError> {
        let mut challenge = self.answer_challenge(id, by, false)?;
        let pairing = challenge.terms.pairing(
            Some(challenge.id.clone()),
            Player::Account(challenge.challenger.clone()),
            Player::Account(challenge.dest.clone()),
        );
        let game = match self.pair(pairing).await {
            Ok(game) => game,
            Err(e) => {
                // The challenge stays open for another try.
                self.lobby().challenges().insert(id.to_string(), challenge);
                return Err(e);
            }
        };
        challenge.outcome = Some(ChallengeOutcome::Accepted { game: game.clone() });
        self.lobby().challenges().insert(id.to_string(), challenge);
        Ok(game)
    }

    /// `by` declines challenge `id`; the challenger hears why.
    pub fn decline_challenge(&self, id: &str, by: &str, reason: &str) -> Result<(), ApiError> {
        let mut challenge = self.answer_challenge(id, by, false)?;
        challenge.outcome = Some(ChallengeOutcome::Declined {
            reason: reason.to_string(),
        });
        let challenger = challenge.challenger.id.clone();
        // Kept with its outcome before anyone hears, so the event can show it.
        self.lobby().challenges().insert(id.to_string(), challenge);
        self.account_events().publish(
            &challenger,
            AccountEvent::ChallengeDeclined {
                id: id.to_string(),
                reason: reason.to_string(),
            },
        );
        Ok(())
    }

    /// `by` (either side) cancels challenge `id`; the other side hears of it.
    pub fn cancel_challenge(&self, id: &str, by: &str) -> Result<(), ApiError> {
        let mut challenge = self.answer_challenge(id, by, true)?;
        challenge.outcome = Some(ChallengeOutcome::Canceled);
        let sides = [challenge.dest.id.clone(), challenge.challenger.id.clone()];
        self.lobby().challenges().insert(id.to_string(), challenge);
        self.tell_canceled(id, &sides);
        Ok(())
    }

    /// Cancels challenge `id` if it is still unanswered: it has expired.
    fn expire_challenge(&self, id: &str) {
        let sides = {
            let mut all = self.lobby().challenges();
            let Some(challenge) = all.get_mut(id).filter(|c| c.outcome.is_none()) else {
                return;
            };
            challenge.outcome = Some(ChallengeOutcome::Canceled);
            [challenge.dest.id.clone(), challenge.challenger.id.clone()]
        };
        self.tell_canceled(id, &sides);
    }

    fn tell_canceled(&self, id: &str, sides: &[String; 2]) {
        for user in sides {
            self.account_events()
                .publish(user, AccountEvent::ChallengeCanceled { id: id.to_string() });
        }
    }

    /// `user` seeks a game: paired at once with the first open seek that
    /// fits (quick pairing), else listed until it expires or is accepted.
    pub async fn seek(
        self: &Arc<Self>,
        user: UserRow,
        request: SeekRequest,
    ) -> Result<Sought, ApiError> {
        self.check_terms(&request.terms)?;
        if request.terms.fen.is_some() {
            return Err(ApiError::BadRequest(
                "a seek starts from the variant's own position".into(),
            ));
        }
        let (rating, provisional) = self.shown_rating(&user.id, &request.terms.variant).await?;
        let (started, receiver) = watch::channel(None);
        let terms = request.terms;
        let seek = Seek {
            id: new_game_id(),
            user: user.name.clone(),
            owner: user,
            rating,
            provisional,
            variant: terms.variant.clone(),
            clock: terms.clock,
            days: terms.days,
            rated: terms.rated,
            color: terms.color,
            rating_range: request.rating_range,
            expires: Instant::now() + request.lifetime,
            started,
            attached: request.attached,
        };
        let partner = {
            let mut seeks = self.lobby().seeks();
            match seeks.iter().position(|s| s.fits(&seek)) {
                Some(i) => Some(seeks.remove(i)),
                None => {
                    if seeks.iter().filter(|s| s.owner.id == seek.owner.id).count()
                        >= MAX_SEEKS_PER_USER
                    {
                        return Err(ApiError::Conflict(format!(
                            "at most {MAX_SEEKS_PER_USER} open seeks at once"
                        )));
                    }
                    seeks.push(seek.clone());
                    None
                }
            }
        };
        self.lobby().tick();
        match partner {
            Some(open) => {
                let game = self.start_seek(&open, seek.owner).await?;
                Ok(Sought::Paired { game })
            }
            None => Ok(Sought::Open {
                id: seek.id,
                started: receiver,
            }),
        }
    }

    /// `by` accepts open seek `id`: the game begins for both.
    pub async fn accept_seek(self: &Arc<Self>, id: &str, by: UserRow) -> Result<String, ApiError> {
        let variant = {
            let seeks = self.lobby().seeks();
            let seek = seeks
                .iter()
                .find(|s| s.id == id)
                .ok_or_else(|| ApiError::NotFound(format!("no open seek {id}")))?;
            if seek.owner.id == by.id {
                return Err(ApiError::BadRequest("that is your own seek".into()));
            }
            seek.variant.clone()
        };
        let (by_rating, _) = self.shown_rating(&by.id, &variant).await?;
        let open = {
            let mut seeks = self.lobby().seeks();
            let i = seeks
                .iter()
                .position(|s| s.id == id)
                .ok_or_else(|| ApiError::NotFound(format!("no open seek {id}")))?;
            if !seeks[i].takes(by_rating) {
                return Err(ApiError::Forbidden(format!(
                    "this seek takes ratings {:?}, not {by_rating}",
                    seeks[i].rating_range.unwrap_or_default()
                )));
            }
            seeks.remove(i)
        };
        self.lobby().tick();
        self.start_seek(&open, by).await
    }

    /// Withdraws `user`'s open seek `id`.
    pub fn cancel_seek(&self, id: &str, user_id: &str) -> Result<(), ApiError> {
        let mut seeks = self.lobby().seeks();
        let i = seeks
            .iter()
            .position(|s| s.id == id && s.owner.id == user_id)
            .ok_or_else(|| ApiError::NotFound(format!("no open seek {id} of yours")))?;
        seeks.remove(i);
        drop(seeks);
        self.lobby().tick();
        Ok(())
    }

    async fn start_seek(self: &Arc<Self>, open: &Seek, other: UserRow) -> Result<String, ApiError> {
        let terms = Terms {
            variant: open.variant.clone(),
            clock: open.clock,
            days: open.days,
            rated: open.rated,
            color: open.color,
            fen: None,
        };
        let game = self
            .pair(terms.pairing(
                None,
                Player::Account(open.owner.clone()),
                Player::Account(other),
            ))
            .await?;
        let _ = open.started.send(Some(game.clone()));
        Ok(game)
    }
}
