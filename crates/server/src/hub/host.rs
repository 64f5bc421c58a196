//! The hub as the host of its games' actors (`round::host`), and the
//! rematch: same variant and time, colours swapped, each player's token
//! carried over to its new seat; an account's seat goes to the account
//! (its token in the new game), rated if the game was.

use std::sync::Arc;
use std::time::{Duration, Instant};

use parity_rules::Color;
use tokio::sync::mpsc;

use crate::accounts::glicko;
use crate::base::refusal::Refusal;
use crate::base::secret;
use crate::game::engine_seat::EnginePool;
use crate::game::state::{GameState, Setup};
use crate::hub::Hub;
use crate::round::host::{Host, Prepared, RematchOf};
use crate::round::msg::Msg;
use crate::store::{Change, SeatRow, Writer};

impl Host for Arc<Hub> {
    fn writer(&self) -> &Writer {
        &self.writer
    }

    fn engines(&self) -> &EnginePool {
        self.engines.pool()
    }

    fn record_key(&self) -> &ed25519_dalek::SigningKey {
        self.keys.record_key()
    }

    fn idle(&self) -> Duration {
        self.actors.idle
    }

    fn max_watchers(&self) -> usize {
        self.limits.max_watchers_per_game
    }

    fn forget(&self, id: &str, mailbox: &mpsc::Sender<Msg>) {
        self.actors.forget(id, mailbox)
    }

    async fn release(&self, id: &str) {
        Hub::release(self, id).await
    }

    async fn replay(&self, id: &str) -> Result<(GameState, [SeatRow; 2]), Refusal> {
        Hub::replay(self, id).await
    }

    async fn prepare_rematch(
        &self,
        old: RematchOf,
        id: String,
        now: Instant,
    ) -> Result<Prepared, Refusal> {
        let setup = Setup {
            variant: old.setup.variant,
            clock: old.setup.clock,
            days: old.setup.days,
            seats: [old.setup.seats[1], old.setup.seats[0]],
            rematch_of: Some(old.id.clone()),
            fen: old.setup.fen.clone(),
        };
        let players = self.store().players(&old.id).await?;
        let mut accounts = Vec::new();
        let seats = [Color::Black, Color::White].map(|c| {
            let token_hash = match players.of(c) {
                Some(p) => {
                    accounts.push((c.other(), p.user.id.clone()));
                    Some(secret::token_hash(&self.keys.account_seat_token(
                        &p.user.id,
                        &id,
                        c.other(),
                    )))
                }
                None => old.seats[c.index()].token_hash.clone(),
            };
            SeatRow {
                token_hash,
                invite: None,
            }
        });
        let mut prepared = self.prepare(&id, setup, seats, None, now)?;
        for (color, user_id) in accounts {
            let (rating, provisional) =
                glicko::shown_rating(self.store(), &user_id, old.setup.variant.id()).await?;
            prepared.changes.push(Change::Player {
                game: id.clone(),
                color,
                user_id,
                rating: Some(rating),
                provisional,
            });
        }
        if players.rated {
            prepared.changes.push(Change::Rated { game: id.clone() });
        }
        Ok(prepared)
    }

    async fn start_rematch(&self, rematch: Prepared) {
        let id = rematch.state.id().to_string();
        // The new game's task runs before anyone can learn its id.
        if let Err(e) = self.lease_new(&id).await {
            tracing::error!("rematch {id}: {e}");
        }
        self.launch(rematch.state, rematch.seats);
        self.game_began(&id);
    }

    async fn game_ended(&self, id: &str) {
        // Rated before anyone hears of the end, so the players' pages read
        // the new ratings; a failure leaves the game due for the sweep.
        if let Err(e) = glicko::rate(self.store(), &self.writer, id).await {
            tracing::error!("game {id}: not rated yet: {e}");
        }
        Hub::game_ended(self, id)
    }

    fn to_move(&self, id: &str, seq: u64, sides: Vec<Color>) {
        Hub::tell_to_move(self, id, seq, sides)
    }
}
