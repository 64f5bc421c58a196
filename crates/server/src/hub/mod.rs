//! The hub: finds or loads a game's actor, creates games, and recovers
//! unfinished games on start.

mod actors;
pub mod chat;
pub mod engine_desk;
mod host;
pub mod lobby;
pub mod matchmaking;
pub mod new_game;
pub mod notices;
pub mod notifier;
pub mod pairing;
pub mod players;
pub mod posting;
mod remote;
pub mod seat_keys;
pub mod shutdown;

use std::sync::Arc;
use std::time::{Duration, Instant};

use parity_rules::{Color, Registry};
use rand::RngExt as _;
use tokio::sync::{mpsc, oneshot};

use crate::accounts::glicko;
use crate::base::limits::{Limits, Quotas};
use crate::base::metrics;
use crate::base::refusal::{Refusal, Said};
use crate::base::secret;
use crate::cluster::node::{self, NodeReply, NodeRequest};
use crate::cluster::{Cluster, Lease};
use crate::game::clock::{Downtime, Timeline};
use crate::game::engine_seat::EnginePool;
use crate::game::event::{now_ms, Event, EventBody, Seat, Side};
use crate::game::pgn;
use crate::game::play::TypedMove;
use crate::game::review::Review;
use crate::game::state::{Action, GameState, Setup};
use crate::hub::actors::Actors;
use crate::hub::engine_desk::EngineDesk;
use crate::hub::matchmaking::Matchmaking;
use crate::hub::new_game::{start_position, ColorChoice, CreatedGame, NewGame, Opponent};
use crate::hub::notices::Notices;
use crate::hub::notifier::Notifier;
use crate::hub::posting::Posting;
use crate::hub::seat_keys::SeatKeys;
use crate::hub::shutdown::Shutdown;
use crate::round::actor::invite_url;
use crate::round::actor::GameActor;
use crate::round::host::Prepared;
use crate::round::msg::{Acted, Credentials, Joined, Msg, Watching};
use crate::store::{Change, Listing, SeatRow, Store, Writer};

/// The games of this node and the handles the server's jobs share, each
/// with one job: the live games' actors, the engines, the server's key,
/// what clients hear about, the shutdown.
pub struct Hub {
    pub(crate) registry: Registry,
    store: Arc<Store>,
    pub(crate) writer: Writer,
    pub(crate) limits: Limits,
    pub(crate) quotas: Quotas,
    /// The spans the server was down, not charged to any clock.
    downtimes: Arc<[Downtime]>,
    /// The node this server is of a cluster (PostgreSQL); none for SQLite.
    cluster: Option<Arc<Cluster>>,
    actors: Actors,
    engines: EngineDesk,
    keys: SeatKeys,
    notices: Arc<Notices>,
    notifier: Arc<Notifier>,
    matchmaking: Arc<Matchmaking>,
    posting: Posting,
    shutdown: Shutdown,
}

/// Where a game is played.
pub(crate) enum Owner {
    /// Here: its actor's mailbox.
    Here(mpsc::Sender<Msg>),
    /// On another node: its address, once that node has written it.
    There(Option<String>),
}

impl Hub {
    /// `cluster` is the cluster this server is a node of (PostgreSQL).
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        registry: Registry,
        store: Arc<Store>,
        writer: Writer,
        engines: EnginePool,
        downtimes: Arc<[Downtime]>,
        limits: Limits,
        record_key: ed25519_dalek::SigningKey,
        notifier: Notifier,
        cluster: Option<Arc<Cluster>>,
    ) -> Hub {
        let notices = Arc::new(Notices::new(cluster.clone()));
        let notifier = Arc::new(notifier);
        let matchmaking = Arc::new(Matchmaking::new(
            store.clone(),
            writer.clone(),
            registry.clone(),
            limits.clone(),
            notices.clone(),
            notifier.clone(),
        ));
        let posting = Posting::new(
            store.clone(),
            writer.clone(),
            limits.clone(),
            notices.clone(),
        );
        Hub {
            notifier,
            registry,
            store,
            writer,
            engines: EngineDesk::new(engines, &limits),
            actors: Actors::default(),
            keys: SeatKeys::new(record_key),
            quotas: Quotas::new(&limits),
            limits,
            downtimes,
            notices,
            matchmaking,
            posting,
            cluster,
            shutdown: Shutdown::default(),
        }
    }

    /// Shutting down: new games are refused, `/ready` says 503, and every
    /// socket and stream ends, telling its client to reconnect.
    pub fn shutdown(&self) -> &Shutdown {
        &self.shutdown
    }

    /// Notifications of accounts: the bell, and mail.
    pub fn notifier(&self) -> &Notifier {
        &self.notifier
    }

    /// Account events and chat lines, here and on the other nodes.
    pub fn notices(&self) -> &Notices {
        &self.notices
    }

    /// Challenges and seeks; their games begin through the hub (`Pairer`).
    pub fn matchmaking(&self) -> &Arc<Matchmaking> {
        &self.matchmaking
    }

    /// Games' chat.
    pub fn posting(&self) -> &Posting {
        &self.posting
    }

    /// Engine seats and analyses.
    pub fn engines(&self) -> &EngineDesk {
        &self.engines
    }

    /// The server's key: signed records, account seat tokens.
    pub fn keys(&self) -> &SeatKeys {
        &self.keys
    }

    /// Whether this server can take requests (`/ready`): the store answers
    /// a query and, in a cluster, the node is still a member; else why not.
    pub async fn readiness(&self) -> Result<(), String> {
        if self.shutdown.has_begun() {
            return Err("this server is shutting down".into());
        }
        self.store
            .ping()
            .await
            .map_err(|e| format!("the database does not answer: {e}"))?;
        match &self.cluster {
            None => Ok(()),
            Some(cluster) => match cluster.is_member().await {
                Ok(true) => Ok(()),
                Ok(false) => Err("this node is no longer a member of its cluster".into()),
                Err(e) => Err(format!("the cluster's database does not answer: {e}")),
            },
        }
    }

    /// Sets the gauges read at a scrape: the engine pool, the node's leases.
    pub async fn measure_now(&self) {
        self.engines.measure();
        let leases = match &self.cluster {
            Some(cluster) => cluster.leases_held().await,
            None => 0,
        };
        metrics::leases(leases);
    }

    /// The cluster this server is a node of, if any.
    pub fn cluster(&self) -> Option<&Arc<Cluster>> {
        self.cluster.as_ref()
    }

    /// Where a game's stored events lie in time now, for a replay: the
    /// server's downtimes and, in a cluster, the game's own (the spans
    /// after an owner died until another node took the game over).
    async fn timeline(&self, id: &str) -> Result<Timeline, Refusal> {
        let mut downtimes = self.downtimes.to_vec();
        if let Some(cluster) = &self.cluster {
            downtimes.extend(cluster.downtimes(id).await?);
        }
        Ok(Timeline {
            now: Instant::now(),
            now_ms: now_ms(),
            downtimes: downtimes.into(),
        })
    }

    /// A game as the database has it: its state replayed, and its seats.
    pub(crate) async fn replay(&self, id: &str) -> Result<(GameState, [SeatRow; 2]), Refusal> {
        let stored = self
            .store
            .load(id)
            .await?
            .ok_or_else(|| Refusal::no_game(id))?;
        let timeline = self.timeline(id).await?;
        let state = GameState::replay(
            id,
            &self.registry,
            &stored.events,
            &stored.hidden,
            &timeline,
        )
        .map_err(|e| {
            tracing::error!("{e}");
            Refusal::Internal(
                Said::new("server-refusal-game-does-not-replay")
                    .with("id", id)
                    .with("e", &e),
            )
        })?;
        Ok((state, stored.seats))
    }

    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    pub fn quotas(&self) -> &Quotas {
        &self.quotas
    }

    /// Starts the housekeeping task: aborts the games whose friend has
    /// not joined within `waiting_expiry`, and forgets the rate limits of
    /// addresses gone quiet.
    pub fn keep_house(self: &Arc<Self>) {
        let hub = Arc::downgrade(self);
        let every = (self.limits.waiting_expiry / 4)
            .clamp(Duration::from_millis(100), Duration::from_secs(60));
        tokio::spawn(async move {
            let mut tick = tokio::time::interval_at(tokio::time::Instant::now() + every, every);
            loop {
                tick.tick().await;
                let Some(hub) = hub.upgrade() else { return };
                hub.quotas.forget_idle();
                if let Err(e) = hub.expire_waiting().await {
                    tracing::error!("expiring waiting games: {e}");
                }
                if let Err(e) = hub.matchmaking.sweep_lobby().await {
                    tracing::error!("expiring challenges: {e}");
                }
                // Games finished before a crash, or by a node that died.
                if let Err(e) = glicko::rate_due(&hub.store, &hub.writer).await {
                    tracing::error!("rating finished games: {e}");
                }
            }
        });
    }

    /// Aborts every game still waiting for its friend after `waiting_expiry`.
    pub(crate) async fn expire_waiting(self: &Arc<Self>) -> Result<(), Refusal> {
        let expiry = i64::try_from(self.limits.waiting_expiry.as_millis()).unwrap_or(i64::MAX);
        let before = now_ms().saturating_sub(expiry);
        let ids = self.store.waiting_since_before(before).await?;
        for id in ids {
            if matches!(self.owner(&id).await, Ok(Owner::There(_))) {
                continue; // its owner expires it
            }
            if let Err(e) = self.ask(&id, |reply| Msg::Expire { reply }).await {
                tracing::error!("game {id} not expired: {e}");
            }
        }
        Ok(())
    }

    /// The games' storage, for reads.
    pub(crate) fn store(&self) -> &Store {
        &self.store
    }

    pub fn registry(&self) -> &Registry {
        &self.registry
    }

    /// Starts the actor of every unfinished game; returns how many. A game
    /// that does not replay (say, of a variant file not loaded this time)
    /// is logged and left alone.
    pub async fn recover(self: &Arc<Self>) -> Result<usize, Refusal> {
        let ids = self.store.unfinished().await?;
        let mut resumed = 0;
        for id in &ids {
            match self.owner(id).await {
                Ok(Owner::Here(_)) => resumed += 1,
                Ok(Owner::There(_)) => {}
                Err(e) => tracing::error!("game {id} not resumed: {e}"),
            }
        }
        // Games that ended just before a crash, not yet rated.
        glicko::rate_due(&self.store, &self.writer).await?;
        Ok(resumed)
    }

    /// Takes over a game whose owner died (its lease is free), unless
    /// another node is quicker.
    pub(crate) async fn take_over(self: &Arc<Self>, id: &str) -> Result<(), Refusal> {
        self.owner(id).await.map(|_| ())
    }

    /// Where a game is played; loads it here if it is played nowhere (in
    /// a cluster: if this node gets its lease).
    pub(crate) async fn owner(self: &Arc<Self>, id: &str) -> Result<Owner, Refusal> {
        if !secret::is_game_id(id) {
            return Err(Refusal::no_game(id));
        }
        let running = || self.actors.running(id);
        if let Some(tx) = running() {
            return Ok(Owner::Here(tx));
        }
        let _one_load = self.actors.one_load().await;
        if let Some(tx) = running() {
            return Ok(Owner::Here(tx));
        }
        if let Some(cluster) = &self.cluster {
            if let Lease::HeldBy(url) = cluster.acquire(id).await? {
                return Ok(Owner::There(url));
            }
        }
        match self.replay(id).await {
            Ok((state, seats)) => Ok(Owner::Here(self.launch(state, seats))),
            Err(e) => {
                self.release(id).await;
                Err(e)
            }
        }
    }

    /// Takes the lease of a game just created here.
    pub(crate) async fn lease_new(&self, id: &str) -> Result<(), Refusal> {
        match &self.cluster {
            Some(cluster) => match cluster.acquire(id).await? {
                Lease::Taken => Ok(()),
                Lease::HeldBy(_) => Err(Refusal::Internal(
                    Said::new("server-refusal-new-game-leased-already").with("id", id),
                )),
            },
            None => Ok(()),
        }
    }

    /// Frees the lease of a game whose actor stopped.
    pub(crate) async fn release(&self, id: &str) {
        if let Some(cluster) = &self.cluster {
            if let Err(e) = cluster.release(id).await {
                tracing::error!("game {id}: lease not released: {e}");
            }
        }
    }

    /// Starts the actor of a game and lists it.
    pub(crate) fn launch(
        self: &Arc<Self>,
        state: GameState,
        seats: [SeatRow; 2],
    ) -> mpsc::Sender<Msg> {
        let id = state.id().to_string();
        let tx = GameActor::spawn(self.clone(), state, seats);
        self.actors.insert(id, tx.clone());
        tx
    }

    /// Sends a message to a game's actor and waits for its answer. An actor
    /// that stopped in between is loaded again, once.
    async fn ask<T>(
        self: &Arc<Self>,
        id: &str,
        make: impl Fn(oneshot::Sender<T>) -> Msg,
    ) -> Result<T, Refusal> {
        for _ in 0..2 {
            let tx = match self.owner(id).await? {
                Owner::Here(tx) => tx,
                Owner::There(_) => {
                    return Err(Refusal::Busy(
                        Said::new("server-refusal-game-played-another-node-try").with("id", id),
                    ))
                }
            };
            let (reply, answer) = oneshot::channel();
            if tx.send(make(reply)).await.is_err() {
                self.actors.forget(id, &tx);
                continue;
            }
            if let Ok(value) = answer.await {
                return Ok(value);
            }
        }
        Err(Refusal::Internal(
            Said::new("server-refusal-game-not-answering").with("id", id),
        ))
    }

    /// A seat's action. A token that belongs to no seat of this game is a
    /// 403 if it is some other game's (a spectator here), else a 401.
    pub async fn act(
        self: &Arc<Self>,
        id: &str,
        credentials: &Credentials,
        action: Action,
    ) -> Result<Acted, Refusal> {
        let request = || NodeRequest::Act {
            game: id.to_string(),
            credentials: credentials.clone(),
            action: action.clone(),
        };
        if let Some(reply) = self.on_owner(id, request).await? {
            return reply.expect("an action", |r| match r {
                NodeReply::Acted(acted) => Some(acted),
                _ => None,
            });
        }
        let result = self
            .ask(id, |reply| Msg::Act {
                credentials: credentials.clone(),
                action: action.clone(),
                reply,
            })
            .await?;
        match result {
            Err(Refusal::Unauthenticated(_)) if credentials.is_empty() => {
                Err(Refusal::Unauthenticated(Said::new(
                    "server-refusal-seat-token-required-bearer-cookie",
                )))
            }
            Err(Refusal::Unauthenticated(message)) => {
                let mut known = false;
                for hash in credentials.hashes() {
                    known = known || self.store.token_known(&hash).await?;
                }
                Err(if known {
                    Refusal::Forbidden(Said::new("server-refusal-spectators-cannot-act-game"))
                } else {
                    Refusal::Unauthenticated(message)
                })
            }
            other => other,
        }
    }

    /// A feed of a game another node owns: the state from the owner, the
    /// events after `since` from the database, the live events from this
    /// node's relay (subscribed first, so that none falls in between);
    /// none when the game is played here.
    async fn watch_remote(
        self: &Arc<Self>,
        cluster: &Cluster,
        id: &str,
        credentials: &Credentials,
        since: Option<u64>,
        full: bool,
        live: bool,
    ) -> Result<Option<Watching>, Refusal> {
        if let Owner::Here(_) = self.owner(id).await? {
            return Ok(None);
        }
        let relay = match live {
            true => Some(cluster.relays().subscribe(id).await?),
            false => None,
        };
        let request = || NodeRequest::State {
            game: id.to_string(),
            credentials: credentials.clone(),
        };
        let Some(reply) = self.on_owner(id, request).await? else {
            return Ok(None); // taken over here meanwhile
        };
        let (state, seq, cookie, seat) = reply.expect("a state", |r| match r {
            NodeReply::State {
                full,
                seq,
                cookie,
                seat,
            } => Some((full, seq, cookie, seat.map(Side::color))),
            _ => None,
        })?;
        if let (Some((_, readers)), None) = (&relay, seat) {
            if *readers > self.limits.max_watchers_per_game {
                return Err(Refusal::Busy(Said::new(
                    "server-refusal-game-has-many-spectators-takes",
                )));
            }
        }
        let catchup = match since {
            Some(since) => cluster
                .relays()
                .events_after(id, since)
                .await?
                .into_iter()
                .filter(|l| l.seq <= seq)
                .collect(),
            None => Vec::new(),
        };
        Ok(Some(Watching {
            full: full.then_some(*state),
            catchup,
            live: relay.map(|(receiver, _)| receiver),
            seq,
            cookie,
            seat,
        }))
    }

    pub async fn join(self: &Arc<Self>, id: &str, invite: &str) -> Result<Joined, Refusal> {
        let request = || NodeRequest::Join {
            game: id.to_string(),
            invite: invite.to_string(),
        };
        if let Some(reply) = self.on_owner(id, request).await? {
            return reply.expect("a join", |r| match r {
                NodeReply::Joined(joined) => Some(joined),
                _ => None,
            });
        }
        self.ask(id, |reply| Msg::Join {
            invite: invite.to_string(),
            reply,
        })
        .await?
    }

    /// The state for a viewer, the events after `since`, and the live
    /// events from then on if `live`.
    pub async fn watch(
        self: &Arc<Self>,
        id: &str,
        credentials: &Credentials,
        since: Option<u64>,
        full: bool,
        live: bool,
    ) -> Result<Watching, Refusal> {
        if let Some(cluster) = self.cluster.clone() {
            if !node::serving_node() {
                if let Some(watching) = self
                    .watch_remote(&cluster, id, credentials, since, full, live)
                    .await?
                {
                    return Ok(watching);
                }
            }
        }
        self.ask(id, |reply| Msg::Watch {
            credentials: credentials.clone(),
            since,
            full,
            live,
            reply,
        })
        .await?
    }

    /// The game's signed record (JSON).
    pub async fn record(self: &Arc<Self>, id: &str) -> Result<String, Refusal> {
        let request = || NodeRequest::Record {
            game: id.to_string(),
        };
        if let Some(reply) = self.on_owner(id, request).await? {
            return reply.expect("a record", NodeReply::json);
        }
        self.ask(id, |reply| Msg::Record { reply }).await?
    }

    /// Reads typed move text of `color` against the game now.
    pub async fn read_move(
        self: &Arc<Self>,
        id: &str,
        color: Color,
        text: &str,
    ) -> Result<TypedMove, Refusal> {
        let request = || NodeRequest::ReadMove {
            game: id.to_string(),
            side: color.into(),
            text: text.to_string(),
        };
        if let Some(reply) = self.on_owner(id, request).await? {
            return reply.expect("a typed move", |r| match r {
                NodeReply::Read(read) => Some(read),
                _ => None,
            });
        }
        self.ask(id, |reply| Msg::ReadMove {
            color,
            text: text.to_string(),
            reply,
        })
        .await?
    }

    /// The game's PGN; `site` is its page's address, for the `Site` tag.
    pub async fn pgn(self: &Arc<Self>, id: &str, site: String) -> Result<String, Refusal> {
        let request = || NodeRequest::Pgn {
            game: id.to_string(),
            site: site.clone(),
        };
        if let Some(reply) = self.on_owner(id, request).await? {
            return reply.expect("a PGN", |r| match r {
                NodeReply::Text { text } => Some(text),
                _ => None,
            });
        }
        let players = self.store.players(id).await?;
        let accounts =
            [Color::White, Color::Black].map(|c| players.of(c).map(|p| p.user.name.clone()));
        self.ask(id, |reply| Msg::Pgn {
            site: site.clone(),
            accounts: accounts.clone(),
            reply,
        })
        .await
    }

    /// A finished game's computer analysis, if one was made.
    pub async fn review(&self, id: &str) -> Result<Option<Review>, Refusal> {
        let Some(body) = self.store.analysis(id).await? else {
            return Ok(None);
        };
        serde_json::from_str(&body).map(Some).map_err(|e| {
            Refusal::Internal(
                Said::new("server-refusal-game-s-analysis-does-not")
                    .with("id", id)
                    .with("e", &e),
            )
        })
    }

    /// The PGN of a finished game with its computer analysis' evaluations
    /// and judgments; none without an analysis.
    pub async fn annotated_pgn(&self, id: &str, site: &str) -> Result<Option<String>, Refusal> {
        let Some(review) = self.review(id).await? else {
            return Ok(None);
        };
        let (state, _) = self.replay(id).await?;
        let players = self.store.players(id).await?;
        let accounts =
            [Color::White, Color::Black].map(|c| players.of(c).map(|p| p.user.name.clone()));
        Ok(Some(pgn::write(
            &state,
            site,
            &accounts,
            &review.pgn_notes(),
        )))
    }

    /// The game's start, moves and the position after each (JSON).
    pub async fn line(self: &Arc<Self>, id: &str) -> Result<String, Refusal> {
        let request = || NodeRequest::Line {
            game: id.to_string(),
        };
        if let Some(reply) = self.on_owner(id, request).await? {
            return reply.expect("a line", NodeReply::json);
        }
        let line = self.ask(id, |reply| Msg::Line { reply }).await?;
        serde_json::to_string(&line)
            .map_err(|e| Refusal::Internal(Said::new("server-refusal-line").with("e", &e)))
    }

    pub async fn list(&self, finished: bool) -> Result<Vec<Listing>, Refusal> {
        Ok(self.store.list(finished, 100).await?)
    }

    /// Creates a game and starts its actor.
    pub async fn create(self: &Arc<Self>, request: NewGame) -> Result<CreatedGame, Refusal> {
        let variant = self
            .registry
            .get_or_err(&request.variant)
            .map_err(|e| Refusal::Malformed(e.to_string().into()))?;
        let opponent = match request.opponent {
            Opponent::Engine { level } => {
                self.engines.check_level(level)?;
                Seat::Engine { level }
            }
            Opponent::Friend => Seat::Human,
        };
        let fen = request
            .fen
            .as_deref()
            .map(|text| start_position(variant, text))
            .transpose()?
            .flatten();
        let color = match request.color {
            ColorChoice::White => Color::White,
            ColorChoice::Black => Color::Black,
            ColorChoice::Random if rand::rng().random::<bool>() => Color::White,
            ColorChoice::Random => Color::Black,
        };
        let mut seats = [opponent; 2];
        seats[color.index()] = Seat::Human;
        let id = secret::new_game_id();
        let token = secret::new_token();
        let invite = (request.opponent == Opponent::Friend).then(secret::new_token);
        let mut rows = [SeatRow::default(), SeatRow::default()];
        rows[color.index()].token_hash = Some(secret::token_hash(&token));
        rows[color.other().index()].invite = invite.clone();
        let setup = Setup {
            variant,
            clock: request.clock,
            days: request.days,
            seats,
            rematch_of: None,
            fen,
        };
        let prepared = self.prepare(&id, setup, rows, Some(request.public), Instant::now())?;
        self.writer.write(prepared.changes).await?;
        self.lease_new(&id).await?;
        self.launch(prepared.state, prepared.seats);
        Ok(CreatedGame {
            invite_url: invite.as_deref().map(|inv| invite_url(&id, inv)),
            id,
            color: color.into(),
            token,
            invite,
        })
    }

    /// The rows of a new game and its state after its first events:
    /// `created`, `joined` for each human seat that has a token, and
    /// `started` once every seat is filled. `public` is none for a
    /// rematch, which is listed as its first game was.
    pub(crate) fn prepare(
        &self,
        id: &str,
        setup: Setup,
        seats: [SeatRow; 2],
        public: Option<bool>,
        now: Instant,
    ) -> Result<Prepared, Refusal> {
        if self.shutdown.has_begun() {
            return Err(Refusal::Busy(Said::new(
                "server-refusal-server-shutting-down-try-again",
            )));
        }
        let mut state =
            GameState::new(id, setup.clone(), now).map_err(|e| Refusal::Malformed(e.into()))?;
        let mut changes = vec![Change::NewGame {
            id: id.to_string(),
            variant: setup.variant.id().to_string(),
            created_ms: now_ms(),
            seats: setup.seats,
            rematch_of: setup.rematch_of.clone(),
            public,
        }];
        for color in Color::ALL {
            let row = &seats[color.index()];
            changes.push(Change::Seat {
                game: id.to_string(),
                color,
                token_hash: row.token_hash.clone(),
                invite: row.invite.clone(),
            });
        }
        let mut append = |state: &mut GameState, body: EventBody| -> Result<(), Refusal> {
            let event = Event {
                body,
                seq: state.seq() + 1,
                at: now_ms(),
            };
            state
                .apply(&event, now)
                .map_err(|e| Refusal::Internal(e.to_string().into()))?;
            changes.push(Change::Event {
                game: id.to_string(),
                event,
                hidden: None,
            });
            Ok(())
        };
        append(&mut state, setup.created())?;
        for color in Color::ALL {
            if seats[color.index()].token_hash.is_some() {
                append(
                    &mut state,
                    EventBody::Joined {
                        color: color.into(),
                    },
                )?;
            }
        }
        if state.joined(Color::White) && state.joined(Color::Black) {
            for body in state.start_events(now) {
                append(&mut state, body)?;
            }
        }
        changes.push(Change::Summary {
            game: id.to_string(),
            summary: state.summary(),
        });
        Ok(Prepared {
            changes,
            state,
            seats,
        })
    }
}
