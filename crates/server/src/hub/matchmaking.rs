//! Challenges and seeks between accounts: made, answered, expired, and
//! accepted into a game by pairing (`pairing.rs`). The lobby is stored:
//! whichever node a request reaches, a seek or a challenge is taken or
//! answered once (the store refuses the second with `Gone`).

use std::future::Future;
use std::sync::Arc;

use parity_rules::Registry;

use crate::accounts::events::AccountEvent;
use crate::accounts::{fair_play, glicko};
use crate::base::limits::Limits;
use crate::base::refusal::{Refusal, Said};
use crate::base::secret::new_game_id;
use crate::game::event::now_ms;
use crate::hub::lobby::{
    json_text, Challenge, ChallengeOutcome, Seek, SeekRequest, Sought, Terms, ENDED_CHALLENGE_KEPT,
    MAX_CHALLENGES_PER_PAIR, MAX_CHALLENGES_PER_USER, MAX_SEEKS_PER_USER,
};
use crate::hub::new_game::start_position;
use crate::hub::notices::Notices;
use crate::hub::notifier::Notice;
use crate::hub::notifier::Notifier;
use crate::hub::players::{Pairing, Player};
use crate::store::lobby::LobbyChange;
use crate::store::{Change, Store, StoreError, UserRow, Writer};

fn ms(duration: std::time::Duration) -> i64 {
    i64::try_from(duration.as_millis()).unwrap_or(i64::MAX)
}

/// The lobby's job: challenges and seeks, from any node, told to the
/// accounts they concern. A game begins through a [`Pairer`] (the hub).
pub struct Matchmaking {
    store: Arc<Store>,
    writer: Writer,
    registry: Registry,
    limits: Limits,
    notices: Arc<Notices>,
    notifier: Arc<Notifier>,
}

/// What starts the game of an accepted challenge or seek.
pub trait Pairer {
    fn pair(&self, pairing: Pairing) -> impl Future<Output = Result<String, Refusal>> + Send;
}

impl Matchmaking {
    pub fn new(
        store: Arc<Store>,
        writer: Writer,
        registry: Registry,
        limits: Limits,
        notices: Arc<Notices>,
        notifier: Arc<Notifier>,
    ) -> Matchmaking {
        Matchmaking {
            store,
            writer,
            registry,
            limits,
            notices,
            notifier,
        }
    }

    fn check_terms(&self, terms: &Terms) -> Result<(), Refusal> {
        let variant = self
            .registry
            .get_or_err(&terms.variant)
            .map_err(|e| Refusal::Malformed(e.to_string().into()))?;
        if let Some(fen) = &terms.fen {
            start_position(variant, fen)?;
        }
        crate::game::clock::TimeControl::new(terms.clock, terms.days)
            .map_err(|e| Refusal::Malformed(e.into()))?;
        Ok(())
    }

    async fn lobby_write(&self, change: LobbyChange) -> Result<(), Refusal> {
        Ok(self.writer.write(vec![Change::Lobby(change)]).await?)
    }

    /// Challenge `id`, open or answered (for a while after its end).
    pub async fn find_challenge(&self, id: &str) -> Result<Option<Challenge>, Refusal> {
        match self.store.challenge(id).await? {
            Some(row) => Ok(Some(Challenge::from_row(row)?)),
            None => Ok(None),
        }
    }

    /// The open challenges to or from an account, oldest first.
    pub async fn open_challenges_of(&self, user_id: &str) -> Result<Vec<Challenge>, Refusal> {
        let rows = self.store.open_challenges_of(user_id, now_ms()).await?;
        Ok(rows
            .into_iter()
            .map(Challenge::from_row)
            .collect::<Result<_, StoreError>>()?)
    }

    /// The open seeks, oldest first.
    pub async fn open_seeks(&self) -> Result<Vec<Seek>, Refusal> {
        let rows = self.store.open_seeks(now_ms()).await?;
        Ok(rows
            .into_iter()
            .map(Seek::from_row)
            .collect::<Result<_, StoreError>>()?)
    }

    /// `challenger` challenges `dest`; both hear of it, on every node.
    pub async fn challenge(
        self: &Arc<Self>,
        challenger: UserRow,
        dest: UserRow,
        terms: Terms,
    ) -> Result<Challenge, Refusal> {
        if challenger.id == dest.id {
            return Err(Refusal::Malformed(Said::new(
                "server-refusal-you-cannot-challenge-yourself",
            )));
        }
        self.check_terms(&terms)?;
        if terms.rated {
            fair_play::check_rated_pair(&self.store, &self.limits, &challenger.id, &dest.id)
                .await?;
        }
        let sent: Vec<Challenge> = self
            .open_challenges_of(&challenger.id)
            .await?
            .into_iter()
            .filter(|c| c.challenger.id == challenger.id)
            .collect();
        if sent.len() >= MAX_CHALLENGES_PER_USER {
            return Err(Refusal::NotNow(
                Said::new("server-refusal-most-open-challenges-once")
                    .with("MAX_CHALLENGES_PER_USER", MAX_CHALLENGES_PER_USER),
            ));
        }
        if sent.iter().filter(|c| c.dest.id == dest.id).count() >= MAX_CHALLENGES_PER_PAIR {
            return Err(Refusal::NotNow(
                Said::new("server-refusal-most-open-challenges-one-player")
                    .with("MAX_CHALLENGES_PER_PAIR", MAX_CHALLENGES_PER_PAIR),
            ));
        }
        let challenger_rating =
            glicko::shown_rating(&self.store, &challenger.id, &terms.variant).await?;
        let dest_rating = glicko::shown_rating(&self.store, &dest.id, &terms.variant).await?;
        let created_ms = now_ms();
        let challenge = Challenge {
            id: new_game_id(),
            challenger,
            challenger_rating,
            dest,
            dest_rating,
            terms,
            created_ms,
            expires_ms: created_ms.saturating_add(ms(self.limits.challenge_expiry)),
            outcome: None,
        };
        self.lobby_write(LobbyChange::NewChallenge(challenge.row()))
            .await?;
        let lobby = Arc::downgrade(self);
        let id = challenge.id.clone();
        let wait = self.limits.challenge_expiry;
        tokio::spawn(async move {
            tokio::time::sleep(wait).await;
            if let Some(lobby) = lobby.upgrade() {
                lobby.expire_challenge(&id).await;
            }
        });
        for user in [&challenge.dest.id, &challenge.challenger.id] {
            self.notices.tell(
                user,
                AccountEvent::Challenge {
                    id: challenge.id.clone(),
                },
            );
        }
        let notice = Notice {
            key: format!("challenge:{}", challenge.id),
            kind: "challenge",
            message: "server-notice-challenge",
            args: vec![
                ("challenger", challenge.challenger.name.clone()),
                ("variant", challenge.terms.variant.clone()),
            ],
            path: "/".into(),
        };
        self.notifier.notify(&challenge.dest.id, notice);
        Ok(challenge)
    }

    /// Ends open challenge `id` with `outcome`, answered by `by`, who must
    /// be its `dest` (or for a cancel either side).
    async fn answer_challenge(
        &self,
        id: &str,
        by: &str,
        outcome: ChallengeOutcome,
    ) -> Result<Challenge, Refusal> {
        let no_challenge =
            || Refusal::NotFound(Said::new("server-refusal-no-open-challenge").with("id", id));
        let mut challenge = self
            .find_challenge(id)
            .await?
            .filter(|c| c.outcome.is_none() && now_ms() < c.expires_ms)
            .ok_or_else(no_challenge)?;
        let cancel = outcome == ChallengeOutcome::Canceled;
        let allowed = challenge.dest.id == by || (cancel && challenge.challenger.id == by);
        if !allowed {
            return Err(Refusal::Forbidden(Said::new(
                "server-refusal-challenge-not-yours-answer",
            )));
        }
        self.lobby_write(LobbyChange::EndChallenge {
            id: id.to_string(),
            outcome_json: json_text(&outcome),
        })
        .await?;
        challenge.outcome = Some(outcome);
        Ok(challenge)
    }

    /// `by` accepts challenge `id`: the game (of the same id) begins for both.
    pub async fn accept_challenge(
        &self,
        pairer: &impl Pairer,
        id: &str,
        by: &str,
    ) -> Result<String, Refusal> {
        let accepted = ChallengeOutcome::Accepted {
            game: id.to_string(),
        };
        let challenge = self.answer_challenge(id, by, accepted).await?;
        let pairing = challenge.terms.pairing(
            Some(challenge.id.clone()),
            Player::Account(challenge.challenger.clone()),
            Player::Account(challenge.dest.clone()),
        );
        match pairer.pair(pairing).await {
            Ok(game) => Ok(game),
            Err(e) => {
                // The challenge stays open for another try.
                self.lobby_write(LobbyChange::ReopenChallenge { id: id.to_string() })
                    .await?;
                Err(e)
            }
        }
    }

    /// `by` declines challenge `id`; the challenger hears why.
    pub async fn decline_challenge(&self, id: &str, by: &str, reason: &str) -> Result<(), Refusal> {
        let declined = ChallengeOutcome::Declined {
            reason: reason.to_string(),
        };
        let challenge = self.answer_challenge(id, by, declined).await?;
        self.notices.tell(
            &challenge.challenger.id,
            AccountEvent::ChallengeDeclined {
                id: id.to_string(),
                reason: reason.to_string(),
            },
        );
        Ok(())
    }

    /// `by` (either side) cancels challenge `id`; the other side hears of it.
    pub async fn cancel_challenge(&self, id: &str, by: &str) -> Result<(), Refusal> {
        let challenge = self
            .answer_challenge(id, by, ChallengeOutcome::Canceled)
            .await?;
        self.tell_canceled(&challenge);
        Ok(())
    }

    /// Cancels challenge `id` if it is still unanswered: it has expired.
    /// Any node may try; one succeeds, and tells.
    async fn expire_challenge(&self, id: &str) {
        if let Ok(Some(challenge)) = self.find_challenge(id).await {
            self.expire(challenge).await;
        }
    }

    async fn expire(&self, challenge: Challenge) {
        if challenge.outcome.is_some() || now_ms() < challenge.expires_ms {
            return;
        }
        let ended = self
            .lobby_write(LobbyChange::EndChallenge {
                id: challenge.id.clone(),
                outcome_json: json_text(&ChallengeOutcome::Canceled),
            })
            .await;
        if ended.is_ok() {
            self.tell_canceled(&challenge);
        }
    }

    fn tell_canceled(&self, challenge: &Challenge) {
        for user in [&challenge.dest.id, &challenge.challenger.id] {
            self.notices.tell(
                user,
                AccountEvent::ChallengeCanceled {
                    id: challenge.id.clone(),
                },
            );
        }
    }

    /// Expires the challenges past their time (those of a node that
    /// stopped too) and forgets what ended long ago.
    pub(crate) async fn sweep_lobby(&self) -> Result<(), Refusal> {
        let now = now_ms();
        for row in self.store.expired_challenges(now).await? {
            self.expire(Challenge::from_row(row)?).await;
        }
        self.lobby_write(LobbyChange::Purge {
            before_ms: now - ms(ENDED_CHALLENGE_KEPT),
        })
        .await
    }

    /// `user` seeks a game: paired at once with the first open seek that
    /// fits (quick pairing), else listed until it expires or is accepted.
    pub async fn seek(
        &self,
        pairer: &impl Pairer,
        user: UserRow,
        request: SeekRequest,
    ) -> Result<Sought, Refusal> {
        self.check_terms(&request.terms)?;
        if request.terms.fen.is_some() {
            return Err(Refusal::Malformed(Said::new(
                "server-refusal-seek-starts-from-variant-s",
            )));
        }
        let (rating, provisional) =
            glicko::shown_rating(&self.store, &user.id, &request.terms.variant).await?;
        let terms = request.terms;
        let created_ms = now_ms();
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
            created_ms,
            expires_ms: created_ms.saturating_add(ms(request.lifetime)),
        };
        let open = self.open_seeks().await?;
        if open.iter().filter(|s| s.owner.id == seek.owner.id).count() >= MAX_SEEKS_PER_USER {
            return Err(Refusal::NotNow(
                Said::new("server-refusal-most-open-seeks-once")
                    .with("MAX_SEEKS_PER_USER", MAX_SEEKS_PER_USER),
            ));
        }
        // Listed first, then matched: of two fitting seeks made at once
        // (on any nodes), the later sees the earlier. Both are taken in one
        // job, in the order of their ids (two nodes taking the same two
        // never deadlock); a job that finds either gone does nothing.
        self.lobby_write(LobbyChange::NewSeek(seek.row())).await?;
        let open = self.open_seeks().await?;
        for partner in open.iter().filter(|s| s.id != seek.id && s.fits(&seek)) {
            let mut ids = [partner.id.clone(), seek.id.clone()];
            ids.sort();
            let both = ids
                .into_iter()
                .map(|id| Change::Lobby(LobbyChange::TakeSeek { id }))
                .collect();
            match self.writer.write(both).await.map_err(Refusal::from) {
                Ok(()) => {
                    let game = self.start_seek(pairer, partner, seek.owner).await?;
                    return Ok(Sought::Paired { game });
                }
                Err(Refusal::NotFound(_)) => continue,
                Err(e) => return Err(e),
            }
        }
        Ok(Sought::Open { id: seek.id })
    }

    /// `by` accepts open seek `id`: the game begins for both.
    pub async fn accept_seek(
        &self,
        pairer: &impl Pairer,
        id: &str,
        by: UserRow,
    ) -> Result<String, Refusal> {
        let no_seek = || Refusal::NotFound(Said::new("server-refusal-no-open-seek").with("id", id));
        let open = self
            .open_seeks()
            .await?
            .into_iter()
            .find(|s| s.id == id)
            .ok_or_else(no_seek)?;
        if open.owner.id == by.id {
            return Err(Refusal::Malformed(Said::new(
                "server-refusal-your-own-seek",
            )));
        }
        let (by_rating, _) = glicko::shown_rating(&self.store, &by.id, &open.variant).await?;
        if !open.takes(by_rating) {
            return Err(Refusal::Forbidden(
                Said::new("server-refusal-seek-takes-ratings-not")
                    .with(
                        "rating_range",
                        format!("{:?}", open.rating_range.unwrap_or_default()),
                    )
                    .with("by_rating", by_rating),
            ));
        }
        self.lobby_write(LobbyChange::TakeSeek { id: id.to_string() })
            .await?;
        self.start_seek(pairer, &open, by).await
    }

    /// Withdraws `user`'s open seek `id`.
    pub async fn cancel_seek(&self, id: &str, user_id: &str) -> Result<(), Refusal> {
        self.lobby_write(LobbyChange::DropSeek {
            id: id.to_string(),
            user_id: user_id.to_string(),
        })
        .await
    }

    async fn start_seek(
        &self,
        pairer: &impl Pairer,
        open: &Seek,
        other: UserRow,
    ) -> Result<String, Refusal> {
        pairer
            .pair(open.terms().pairing(
                None,
                Player::Account(open.owner.clone()),
                Player::Account(other),
            ))
            .await
    }
}
