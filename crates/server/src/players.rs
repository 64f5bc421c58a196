//! Games whose seats accounts hold. An account's seat token is derived
//! from the server's key, the account, the game and the colour: never
//! stored (the seat keeps its hash, like any seat token's), so whatever
//! proves the account (a personal API token, a log-in session) opens its
//! seats from any client. Accounts hear of their games and challenges on
//! an event bus (`AccountEvents`), which lichess's `/api/stream/event` reads.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use parity_rules::Color;
use sha2::{Digest, Sha256};
use tokio::sync::broadcast;

use crate::actor::{Credentials, Presented};
use crate::error::ApiError;
use crate::event::{LiveClock, Seat};
use crate::hub::Hub;
use crate::secret;
use crate::state::Setup;
use crate::store::{Change, SeatRow, UserRow};

/// Who sits on one side of a new game.
#[derive(Clone, Debug)]
pub enum Player {
    Account(UserRow),
    Engine { level: u8 },
}

/// A game between accounts (or an account and our engine), made by an
/// accepted challenge or seek.
#[derive(Clone, Debug)]
pub struct Pairing {
    /// The game's id: a challenge's game takes the challenge's id, as on
    /// lichess (lichess-bot tells its games by it); none for a new one.
    pub id: Option<String>,
    pub variant: String,
    pub clock: Option<LiveClock>,
    pub days: Option<u32>,
    pub white: Player,
    pub black: Player,
    /// Counts for the ratings; only between two accounts.
    pub rated: bool,
    pub fen: Option<String>,
}

/// What an account hears about on `/api/stream/event`.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum AccountEvent {
    GameStart {
        game: String,
    },
    GameFinish {
        game: String,
    },
    /// A challenge to or from the account (its id in the lobby).
    Challenge {
        id: String,
    },
    ChallengeCanceled {
        id: String,
    },
    ChallengeDeclined {
        id: String,
        reason: String,
    },
}

/// Events per account, for whoever listens; nothing is kept for an
/// account that is not listening (its stream starts with its games).
#[derive(Default)]
pub struct AccountEvents {
    channels: Mutex<HashMap<String, broadcast::Sender<AccountEvent>>>,
}

/// Events an account's stream may fall behind before it is cut off.
const EVENT_CAPACITY: usize = 64;

impl AccountEvents {
    pub fn subscribe(&self, user_id: &str) -> broadcast::Receiver<AccountEvent> {
        let mut channels = self.channels.lock().unwrap_or_else(|e| e.into_inner());
        channels.retain(|_, tx| tx.receiver_count() > 0);
        channels
            .entry(user_id.to_string())
            .or_insert_with(|| broadcast::channel(EVENT_CAPACITY).0)
            .subscribe()
    }

    pub fn publish(&self, user_id: &str, event: AccountEvent) {
        let channels = self.channels.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(tx) = channels.get(user_id) {
            let _ = tx.send(event);
        }
    }
}

impl Hub {
    /// The seat token account `user_id` holds in `game` as `color`.
    pub fn account_seat_token(&self, user_id: &str, game: &str, color: Color) -> String {
        let digest = Sha256::new()
            .chain_update(b"parity-account-seat\n")
            .chain_update(self.record_key.to_bytes())
            .chain_update(format!("{user_id}\n{game}\n{}", color.name()))
            .finalize();
        format!("acct_{}", hex::encode(digest))
    }

    /// The credentials of account `user_id` in `game`: its seat tokens
    /// for both colours (it holds at most one of them).
    pub fn account_credentials(&self, user_id: &str, game: &str) -> Credentials {
        let tokens = Color::ALL
            .into_iter()
            .map(|color| {
                let token = self.account_seat_token(user_id, game, color);
                Presented {
                    hash: secret::token_hash(&token),
                    token,
                    other_cookie: false,
                }
            })
            .collect();
        Credentials {
            tokens,
            bearer: true,
        }
    }

    /// Starts a game between the players of `pairing`; both seats are
    /// taken at once, so it starts now. Returns its id; each account
    /// hears `gameStart`.
    pub async fn pair(self: &Arc<Self>, pairing: Pairing) -> Result<String, ApiError> {
        let variant = self
            .registry
            .get_or_err(&pairing.variant)
            .map_err(|e| ApiError::BadRequest(e.to_string()))?;
        let fen = pairing
            .fen
            .as_deref()
            .map(|text| crate::hub::start_position(variant, text))
            .transpose()?
            .flatten();
        let players = [&pairing.white, &pairing.black];
        let id = pairing.id.clone().unwrap_or_else(secret::new_game_id);
        let mut seats = [Seat::Human; 2];
        let mut rows = [SeatRow::default(), SeatRow::default()];
        let mut extra = Vec::new();
        for color in Color::ALL {
            match players[color.index()] {
                Player::Engine { level } => {
                    self.check_engine_level(*level)?;
                    seats[color.index()] = Seat::Engine { level: *level };
                }
                Player::Account(user) => {
                    let token = self.account_seat_token(&user.id, &id, color);
                    rows[color.index()].token_hash = Some(secret::token_hash(&token));
                    let rating = self
                        .store()
                        .ratings(&user.id)
                        .await?
                        .into_iter()
                        .find(|(v, _)| v == variant.id())
                        .map(|(_, r)| r)
                        .unwrap_or_default();
                    extra.push(Change::Player {
                        game: id.clone(),
                        color,
                        user_id: user.id.clone(),
                        rating: Some(rating.shown()),
                        provisional: rating.provisional(),
                    });
                }
            }
        }
        let both_accounts = players.iter().all(|p| matches!(p, Player::Account(_)));
        if pairing.rated && both_accounts {
            extra.push(Change::Rated { game: id.clone() });
        }
        let setup = Setup {
            variant,
            clock: pairing.clock,
            days: pairing.days,
            seats,
            rematch_of: None,
            fen,
        };
        let mut prepared = self.prepare(&id, setup, rows, Some(false), Instant::now())?;
        prepared.changes.extend(extra);
        self.writer.write(prepared.changes).await?;
        self.lease_new(&id).await?;
        self.launch(prepared.state, prepared.seats);
        for player in players {
            if let Player::Account(user) = player {
                self.tell(&user.id, AccountEvent::GameStart { game: id.clone() });
            }
        }
        Ok(id)
    }

    /// Tells account `user`'s clients, on this node and, in a cluster, on
    /// the others.
    pub(crate) fn tell(&self, user: &str, event: AccountEvent) {
        self.account_events().publish(user, event.clone());
        self.tell_other_nodes(crate::cluster::news::News::Account {
            user: user.to_string(),
            event,
        });
    }

    /// Tells the accounts of a game that just ended.
    pub(crate) fn game_ended(self: &Arc<Self>, game: &str) {
        self.tell_players(game, |game| AccountEvent::GameFinish { game });
    }

    /// Tells the accounts of a game that just began (a rematch).
    pub(crate) fn game_began(self: &Arc<Self>, game: &str) {
        self.tell_players(game, |game| AccountEvent::GameStart { game });
    }

    fn tell_players(self: &Arc<Self>, game: &str, event: fn(String) -> AccountEvent) {
        let hub = self.clone();
        let game = game.to_string();
        tokio::spawn(async move {
            match hub.store().players(&game).await {
                Ok(players) => {
                    for player in [players.white, players.black].into_iter().flatten() {
                        hub.tell(&player.user.id, event(game.clone()));
                    }
                }
                Err(e) => tracing::error!("game {game}: its players not read: {e}"),
            }
        });
    }
}
