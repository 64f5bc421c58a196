//! Challenges and seeks between accounts: made, answered, expired, and
//! accepted into a game by pairing (`pairing.rs`).

use std::sync::Arc;
use std::time::Instant;

use tokio::sync::watch;

use crate::accounts::events::AccountEvent;
use crate::base::refusal::Refusal;
use crate::base::secret::new_game_id;
use crate::hub::lobby::{
    Challenge, ChallengeOutcome, Seek, SeekRequest, Sought, Terms, MAX_CHALLENGES_PER_PAIR,
    MAX_CHALLENGES_PER_USER, MAX_SEEKS_PER_USER,
};
use crate::hub::new_game::start_position;
use crate::hub::players::Player;
use crate::hub::Hub;
use crate::store::UserRow;

impl Hub {
    /// An account's rating in a variant, as shown, and whether it is provisional.
    pub async fn shown_rating(&self, user_id: &str, variant: &str) -> Result<(i64, bool), Refusal> {
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

    fn check_terms(&self, terms: &Terms) -> Result<(), Refusal> {
        let variant = self
            .registry()
            .get_or_err(&terms.variant)
            .map_err(|e| Refusal::Malformed(e.to_string()))?;
        if let Some(fen) = &terms.fen {
            start_position(variant, fen)?;
        }
        crate::game::clock::TimeControl::new(terms.clock, terms.days)
            .map_err(Refusal::Malformed)?;
        Ok(())
    }

    /// `challenger` challenges `dest`; both hear of it.
    pub async fn challenge(
        self: &Arc<Self>,
        challenger: UserRow,
        dest: UserRow,
        terms: Terms,
    ) -> Result<Challenge, Refusal> {
        if challenger.id == dest.id {
            return Err(Refusal::Malformed("you cannot challenge yourself".into()));
        }
        self.check_terms(&terms)?;
        if terms.rated {
            self.check_rated_pair(&challenger.id, &dest.id).await?;
        }
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
        {
            let mut all = self.lobby().challenges();
            let sent: Vec<&Challenge> = all
                .values()
                .filter(|c| c.outcome.is_none() && c.challenger.id == challenge.challenger.id)
                .collect();
            if sent.len() >= MAX_CHALLENGES_PER_USER {
                return Err(Refusal::NotNow(format!(
                    "at most {MAX_CHALLENGES_PER_USER} open challenges at once"
                )));
            }
            if sent.iter().filter(|c| c.dest.id == challenge.dest.id).count()
                >= MAX_CHALLENGES_PER_PAIR
            {
                return Err(Refusal::NotNow(format!(
                    "at most {MAX_CHALLENGES_PER_PAIR} open challenges to one player"
                )));
            }
            all.insert(challenge.id.clone(), challenge.clone());
        }
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
    fn answer_challenge(&self, id: &str, by: &str, cancel: bool) -> Result<Challenge, Refusal> {
        let mut all = self.lobby().challenges();
        let challenge = all
            .get(id)
            .filter(|c| c.outcome.is_none())
            .ok_or_else(|| Refusal::NotFound(format!("no open challenge {id}")))?;
        let allowed = challenge.dest.id == by || (cancel && challenge.challenger.id == by);
        if !allowed {
            return Err(Refusal::Forbidden(
                "this challenge is not yours to answer".into(),
            ));
        }
        let challenge = all.remove(id).expect("just found");
        Ok(challenge)
    }

    /// `by` accepts challenge `id`: the game begins for both.
    pub async fn accept_challenge(self: &Arc<Self>, id: &str, by: &str) -> Result<String, Refusal> {
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
    pub fn decline_challenge(&self, id: &str, by: &str, reason: &str) -> Result<(), Refusal> {
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
    pub fn cancel_challenge(&self, id: &str, by: &str) -> Result<(), Refusal> {
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
    ) -> Result<Sought, Refusal> {
        self.check_terms(&request.terms)?;
        if request.terms.fen.is_some() {
            return Err(Refusal::Malformed(
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
                        return Err(Refusal::NotNow(format!(
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
    pub async fn accept_seek(self: &Arc<Self>, id: &str, by: UserRow) -> Result<String, Refusal> {
        let variant = {
            let seeks = self.lobby().seeks();
            let seek = seeks
                .iter()
                .find(|s| s.id == id)
                .ok_or_else(|| Refusal::NotFound(format!("no open seek {id}")))?;
            if seek.owner.id == by.id {
                return Err(Refusal::Malformed("that is your own seek".into()));
            }
            seek.variant.clone()
        };
        let (by_rating, _) = self.shown_rating(&by.id, &variant).await?;
        let open = {
            let mut seeks = self.lobby().seeks();
            let i = seeks
                .iter()
                .position(|s| s.id == id)
                .ok_or_else(|| Refusal::NotFound(format!("no open seek {id}")))?;
            if !seeks[i].takes(by_rating) {
                return Err(Refusal::Forbidden(format!(
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
    pub fn cancel_seek(&self, id: &str, user_id: &str) -> Result<(), Refusal> {
        let mut seeks = self.lobby().seeks();
        let i = seeks
            .iter()
            .position(|s| s.id == id && s.owner.id == user_id)
            .ok_or_else(|| Refusal::NotFound(format!("no open seek {id} of yours")))?;
        seeks.remove(i);
        drop(seeks);
        self.lobby().tick();
        Ok(())
    }

    async fn start_seek(self: &Arc<Self>, open: &Seek, other: UserRow) -> Result<String, Refusal> {
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
