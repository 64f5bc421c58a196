//! Pairing accounts into games: a pairing becomes a game whose seats the
//! accounts hold (by their seat tokens, `seat_keys.rs`), and the accounts
//! hear of their games' start and end.

use std::sync::Arc;
use std::time::Instant;

use parity_rules::Color;

use crate::accounts::events::AccountEvent;
use crate::accounts::{fair_play, glicko};
use crate::base::refusal::Refusal;
use crate::base::secret;
use crate::game::event::Seat;
use crate::game::state::Setup;
use crate::hub::new_game::start_position;
use crate::hub::notifier::Notice;
use crate::hub::players::{Pairing, Player};
use crate::hub::Hub;
use crate::store::{Change, SeatRow};

impl Hub {
    /// Starts a game between the players of `pairing`; both seats are
    /// taken at once, so it starts now. Returns its id; each account
    /// hears `gameStart`.
    pub async fn pair(self: &Arc<Self>, pairing: Pairing) -> Result<String, Refusal> {
        let variant = self
            .registry
            .get_or_err(&pairing.variant)
            .map_err(|e| Refusal::Malformed(e.to_string().into()))?;
        let fen = pairing
            .fen
            .as_deref()
            .map(|text| start_position(variant, text))
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
                    self.engines.check_level(*level)?;
                    seats[color.index()] = Seat::Engine { level: *level };
                }
                Player::Account(user) => {
                    let token = self.keys.account_seat_token(&user.id, &id, color);
                    rows[color.index()].token_hash = Some(secret::token_hash(&token));
                    let (rating, provisional) =
                        glicko::shown_rating(self.store(), &user.id, variant.id()).await?;
                    extra.push(Change::Player {
                        game: id.clone(),
                        color,
                        user_id: user.id.clone(),
                        rating: Some(rating),
                        provisional,
                    });
                }
            }
        }
        if let (true, Player::Account(white), Player::Account(black)) =
            (pairing.rated, &pairing.white, &pairing.black)
        {
            if !pairing.by_tournament {
                fair_play::check_rated_pair(self.store(), &self.limits, &white.id, &black.id)
                    .await?;
            }
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
                self.notices
                    .tell(&user.id, AccountEvent::GameStart { game: id.clone() });
            }
        }
        Ok(id)
    }

    /// Tells the accounts of a game that just ended.
    pub(crate) fn game_ended(self: &Arc<Self>, game: &str) {
        self.tell_players(game, |game| AccountEvent::GameFinish { game });
    }

    /// Tells the accounts of a game that just began (a rematch).
    pub(crate) fn game_began(self: &Arc<Self>, game: &str) {
        self.tell_players(game, |game| AccountEvent::GameStart { game });
    }

    /// Tells the accounts of `sides` in correspondence game `game` that it
    /// is their turn (the bell, and mail if they asked for it).
    pub(crate) fn tell_to_move(self: &Arc<Self>, game: &str, seq: u64, sides: Vec<Color>) {
        let hub = self.clone();
        let game = game.to_string();
        tokio::spawn(async move {
            let players = match hub.store().players(&game).await {
                Ok(players) => players,
                Err(e) => return tracing::error!("game {game}: its players not read: {e}"),
            };
            for color in sides {
                let Some(player) = players.of(color) else {
                    continue;
                };
                let (message, args) = match players.of(!color) {
                    Some(p) => (
                        "server-notice-your-turn",
                        vec![("opponent", p.user.name.clone())],
                    ),
                    None => ("server-notice-your-turn-anonymous", Vec::new()),
                };
                let notice = Notice {
                    key: format!("{game}:{seq}"),
                    kind: "yourTurn",
                    message,
                    args,
                    path: format!("/game/{game}"),
                };
                hub.notifier().notify(&player.user.id, notice);
            }
        });
    }

    fn tell_players(self: &Arc<Self>, game: &str, event: fn(String) -> AccountEvent) {
        let hub = self.clone();
        let game = game.to_string();
        tokio::spawn(async move {
            match hub.store().players(&game).await {
                Ok(players) => {
                    for player in [players.white, players.black].into_iter().flatten() {
                        hub.notices.tell(&player.user.id, event(game.clone()));
                    }
                }
                Err(e) => tracing::error!("game {game}: its players not read: {e}"),
            }
        });
    }
}

impl crate::hub::matchmaking::Pairer for Arc<Hub> {
    async fn pair(&self, pairing: Pairing) -> Result<String, Refusal> {
        Hub::pair(self, pairing).await
    }
}
