//! One task per live game. It owns the game's state and takes requests
//! one at a time from its mailbox: it checks a request against the state,
//! applies the resulting events in memory, waits until the writer has
//! committed them, and only then answers and broadcasts. A failed write
//! reloads the game from the database, so nothing anyone was told is
//! missing from the disk.

use std::time::Instant;

use parity_rules::{Color, Move};
use tokio::sync::{broadcast, mpsc};

use crate::base::metrics;
use crate::base::refusal::{Refusal, Said};
use crate::base::secret;
use crate::base::signing;
use crate::game::engine_seat::Job;
use crate::game::event::{now_ms, Event, EventBody, Logged, Seat};
use crate::game::pgn;
use crate::game::play::{self};
use crate::game::state::{Action, GameState, Hidden, Status, Summary};
use crate::round::host::{Host, RematchOf};
use crate::round::msg::{Acted, Credentials, Joined, Msg, Presented, Watching};
use crate::store::{Change, SeatRow};

/// The link that hands out an invited seat.
pub fn invite_url(id: &str, invite: &str) -> String {
    format!("/game/{id}?invite={invite}")
}

/// The moves an event applies: a simultaneous turn is both sides'.
fn moves_in(body: &EventBody) -> u64 {
    match body {
        EventBody::Move { .. } => 1,
        EventBody::Turn { .. } => 2,
        _ => 0,
    }
}

/// Lines a slow viewer may fall behind before it must catch up from the log.
const FEED_CAPACITY: usize = 256;
const MAILBOX: usize = 64;

pub struct GameActor<H: Host> {
    host: H,
    state: GameState,
    seats: [SeatRow; 2],
    feed: broadcast::Sender<Logged>,
    inbox: mpsc::Receiver<Msg>,
    /// Given to engine searches so they can answer.
    me: mpsc::Sender<Msg>,
    thinking: [Option<usize>; 2],
    /// Since when each engine seat has waited for a worker (its clock
    /// does not run meanwhile).
    waiting: [Option<Instant>; 2],
    quiet_since: Instant,
    /// The state could not be brought back in line with the database.
    broken: bool,
    /// Counts the game in the metrics' live games until it finishes.
    live: Option<metrics::Open>,
    /// The games row as last written, so a write that leaves it alone
    /// (a commit, a reveal, a chat line) dirties no page of it.
    written: Option<Summary>,
}

async fn sleep_until(deadline: Option<Instant>) {
    match deadline {
        Some(d) => tokio::time::sleep_until(tokio::time::Instant::from_std(d)).await,
        None => std::future::pending().await,
    }
}

impl<H: Host> GameActor<H> {
    pub fn spawn(host: H, state: GameState, seats: [SeatRow; 2]) -> mpsc::Sender<Msg> {
        let (me, inbox) = mpsc::channel(MAILBOX);
        let (feed, _) = broadcast::channel(FEED_CAPACITY);
        let actor = GameActor {
            live: (state.status() != Status::Finished).then(metrics::live_game),
            host,
            state,
            seats,
            feed,
            inbox,
            me: me.clone(),
            thinking: [None; 2],
            waiting: [None; 2],
            quiet_since: Instant::now(),
            broken: false,
            written: None,
        };
        tokio::spawn(actor.run());
        me
    }

    async fn run(mut self) {
        self.check_time(Instant::now()).await;
        self.duties().await;
        while !self.broken {
            let idle_at = self.idle_deadline();
            tokio::select! {
                msg = self.inbox.recv() => match msg {
                    Some(msg) => {
                        self.quiet_since = Instant::now();
                        self.handle(msg).await;
                    }
                    None => break,
                },
                _ = sleep_until(self.state.next_deadline()) => {
                    self.check_time(Instant::now()).await;
                    self.duties().await;
                }
                _ = sleep_until(idle_at) => {
                    if self.feed.receiver_count() == 0 {
                        break;
                    }
                    self.quiet_since = Instant::now();
                }
            }
        }
        // Leave the host, then answer what is already queued; later requests
        // load the game again.
        self.host.forget(self.state.id(), &self.me);
        self.inbox.close();
        while let Some(msg) = self.inbox.recv().await {
            self.handle(msg).await;
        }
        self.host.release(self.state.id()).await;
    }

    /// When this actor may stop: nothing pending (no clock running, no
    /// engine thinking) and quiet for a while.
    fn idle_deadline(&self) -> Option<Instant> {
        (self.thinking == [None; 2] && self.state.next_deadline().is_none())
            .then(|| self.quiet_since + self.host.idle())
    }

    async fn handle(&mut self, msg: Msg) {
        let now = Instant::now();
        match msg {
            Msg::Act {
                credentials,
                action,
                reply,
            } => {
                let result = match self.seat_of(&credentials) {
                    Some((color, presented)) => {
                        let cookie = presented.other_cookie.then(|| presented.token.clone());
                        let is_move = matches!(
                            action,
                            Action::Move(_) | Action::Commit(_) | Action::Reveal { .. }
                        );
                        let acted = self.perform(color, action, None, now).await;
                        if is_move && acted.is_ok() {
                            metrics::turn_latency(now.elapsed());
                        }
                        acted.map(|(seq, game)| Acted { seq, game, cookie })
                    }
                    None => Err(Refusal::Unauthenticated(Said::new(
                        "server-refusal-token-holds-no-seat-game-2",
                    ))),
                };
                let _ = reply.send(result);
                self.duties().await;
            }
            Msg::Join { invite, reply } => {
                let result = self.join(&invite, now).await;
                let _ = reply.send(result);
                self.duties().await;
            }
            Msg::Watch {
                credentials,
                since,
                full,
                live,
                reply,
            } => {
                self.check_time(now).await;
                let seat = self.seat_of(&credentials);
                let you = seat.map(|(c, _)| c);
                // Seats always get in; spectators up to the cap.
                if live && you.is_none() && self.feed.receiver_count() >= self.host.max_watchers() {
                    let _ = reply.send(Err(Refusal::Busy(Said::new(
                        "server-refusal-game-has-many-spectators-takes",
                    ))));
                    return;
                }
                let full = full.then(|| self.state.full(you, self.invite_for(you), now));
                let catchup = since
                    .map(|since| self.logged_after(since))
                    .unwrap_or_default();
                let _ = reply.send(Ok(Watching {
                    full,
                    catchup,
                    live: live.then(|| self.feed.subscribe()),
                    seq: self.state.seq(),
                    cookie: seat
                        .filter(|(_, p)| p.other_cookie)
                        .map(|(_, p)| p.token.clone()),
                    seat: you,
                }));
            }
            Msg::Expire { reply } => {
                self.check_time(now).await;
                let creator = Color::ALL.into_iter().find(|c| self.state.joined(*c));
                if let (Status::Waiting, Some(creator)) = (self.state.status(), creator) {
                    if let Err(e) = self.perform(creator, Action::Abort, None, now).await {
                        tracing::error!("game {}: not expired: {e}", self.state.id());
                    }
                }
                let _ = reply.send(());
            }
            Msg::Record { reply } => {
                let _ = reply.send(self.record());
            }
            Msg::Pgn {
                site,
                accounts,
                reply,
            } => {
                let _ = reply.send(pgn::write(&self.state, &site, &accounts, &[]));
            }
            Msg::Working { color } => {
                self.credit_wait(now);
                self.waiting[color.index()] = None;
            }
            Msg::Line { reply } => {
                let _ = reply.send(crate::game::line::Line::of(self.state.play()));
            }
            Msg::ReadMove { color, text, reply } => {
                let read =
                    play::read_typed_move(self.state.play(), color, &text).map_err(Refusal::from);
                let _ = reply.send(read);
            }
            Msg::Thought { color, epoch, mv } => {
                self.credit_wait(now);
                self.waiting[color.index()] = None;
                self.thinking[color.index()] = None;
                let current =
                    self.state.status() == Status::Started && self.state.play().played() == epoch;
                if let (true, Some(mv)) = (current, mv) {
                    self.engine_move(color, mv, now).await;
                }
                self.duties().await;
            }
        }
    }

    /// The seat a request's tokens hold, with the token that matched.
    fn seat_of<'a>(&self, credentials: &'a Credentials) -> Option<(Color, &'a Presented)> {
        credentials.tokens.iter().find_map(|p| {
            Color::ALL
                .into_iter()
                .find(|c| self.seats[c.index()].token_hash.as_deref() == Some(p.hash.as_str()))
                .map(|c| (c, p))
        })
    }

    /// The unused invite link, for the seat that created the game.
    fn invite_for(&self, you: Option<Color>) -> Option<String> {
        let you = you?;
        let invite = self.seats[you.other().index()].invite.as_deref()?;
        Some(invite_url(self.state.id(), invite))
    }

    fn logged_after(&self, since: u64) -> Vec<Logged> {
        self.state.logged_after(since).to_vec()
    }

    /// The verifiable record: id, variant, start FEN and every event,
    /// signed with the server's key.
    fn record(&self) -> Result<String, Refusal> {
        let quote = |s: &str| serde_json::to_string(s).unwrap_or_default();
        let events: Vec<&str> = self
            .state
            .logged_after(0)
            .iter()
            .map(|l| l.line.as_str())
            .collect();
        let unsigned = format!(
            "{{\"id\":{},\"variant\":{},\"fen\":{},\"events\":[{}]}}",
            quote(self.state.id()),
            quote(self.state.setup().variant.id()),
            quote(&self.state.play().start_fen()),
            events.join(",")
        );
        signing::sign_record(self.host.record_key(), &unsigned)
            .map_err(|e| Refusal::Internal(e.into()))
    }

    /// Checks and commits `color`'s action; returns the last seq and the
    /// rematch's id if it made one. `hidden` is an engine's committed move.
    async fn perform(
        &mut self,
        color: Color,
        action: Action,
        hidden: Option<Hidden>,
        now: Instant,
    ) -> Result<(u64, Option<String>), Refusal> {
        self.check_time(now).await;
        let new_game = if action == Action::Rematch {
            secret::new_game_id()
        } else {
            String::new()
        };
        let decision = self.state.decide(color, &action, now, &new_game)?;
        let mut extra = Vec::new();
        let mut rematch = None;
        if decision
            .events
            .iter()
            .any(|e| matches!(e, EventBody::Rematch { .. }))
        {
            let old = RematchOf {
                id: self.state.id().to_string(),
                setup: self.state.setup().clone(),
                seats: self.seats.clone(),
            };
            let prepared = self
                .host
                .prepare_rematch(old, new_game.clone(), now)
                .await?;
            extra = std::mem::take(&mut rematch.insert(prepared).changes);
        }
        let first = self
            .write(decision.events, decision.hidden.or(hidden), extra, now)
            .await?;
        // The new game's task runs before anyone can learn its id.
        let game = match rematch {
            Some(p) => {
                self.host.start_rematch(p).await;
                Some(new_game)
            }
            None => None,
        };
        Ok((self.publish(first), game))
    }

    async fn join(&mut self, invite: &str, now: Instant) -> Result<Joined, Refusal> {
        self.check_time(now).await;
        let color = Color::ALL
            .into_iter()
            .find(|c| self.seats[c.index()].invite.as_deref() == Some(invite))
            .ok_or_else(|| {
                Refusal::Forbidden(Said::new("server-refusal-invite-not-valid-wrong-already"))
            })?;
        let events = self.state.decide_join(color, now)?;
        let token = secret::new_token();
        let row = SeatRow {
            token_hash: Some(secret::token_hash(&token)),
            invite: None,
        };
        let seat = Change::Seat {
            game: self.state.id().to_string(),
            color,
            token_hash: row.token_hash.clone(),
            invite: None,
        };
        self.commit(events, None, vec![seat], now).await?;
        self.seats[color.index()] = row;
        Ok(Joined {
            id: self.state.id().to_string(),
            color: color.into(),
            token,
        })
    }

    /// Appends events: [`GameActor::write`], then [`GameActor::publish`].
    async fn commit(
        &mut self,
        bodies: Vec<EventBody>,
        hidden: Option<Hidden>,
        extra: Vec<Change>,
        now: Instant,
    ) -> Result<u64, Refusal> {
        let first = self.write(bodies, hidden, extra, now).await?;
        Ok(self.publish(first))
    }

    /// Broadcasts the events from seq `first` on; returns the last seq.
    fn publish(&self, first: u64) -> u64 {
        for logged in self.logged_after(first - 1) {
            let _ = self.feed.send(logged);
        }
        self.state.seq()
    }

    /// Applies events in memory and writes them with `extra` in one
    /// durable transaction; returns the seq of the first. A failed write
    /// reloads the game, so memory never runs ahead of the disk.
    async fn write(
        &mut self,
        bodies: Vec<EventBody>,
        hidden: Option<Hidden>,
        extra: Vec<Change>,
        now: Instant,
    ) -> Result<u64, Refusal> {
        let first = self.state.seq() + 1;
        let id = self.state.id().to_string();
        let was_finished = self.state.status() == Status::Finished;
        let at = now_ms();
        let moves: u64 = bodies.iter().map(moves_in).sum();
        let mut changes = Vec::with_capacity(bodies.len() + 3);
        let mut applied = Ok(());
        for body in bodies {
            let event = Event {
                body,
                seq: self.state.seq() + 1,
                at,
            };
            applied = self.state.apply(&event, now);
            if applied.is_err() {
                break;
            }
            changes.push(Change::Event {
                game: id.clone(),
                event,
                hidden: None,
            });
        }
        // A hidden move is stored with the event that hides it, the last
        // (a reveal, a commitment).
        let mut unstored = false;
        if let Some(h) = hidden {
            match changes.last_mut() {
                Some(Change::Event { hidden, .. }) => *hidden = Some(h.clone()),
                _ => unstored = true,
            }
            self.state.remember(h);
        }
        let summary = self.state.summary();
        let summary_changed = self.written.as_ref() != Some(&summary);
        if summary_changed {
            changes.push(Change::Summary {
                game: id.clone(),
                summary: summary.clone(),
            });
        }
        changes.extend(extra);
        let written = match applied {
            Ok(()) if unstored => Err(Refusal::Internal("a hidden move without its event".into())),
            Ok(()) => self
                .host
                .writer()
                .write(changes)
                .await
                .map_err(Refusal::from),
            Err(e) => Err(Refusal::Internal(e.to_string().into())),
        };
        if let Err(e) = written {
            tracing::error!("game {id}: {e}; reloading it");
            self.written = None;
            self.reload().await;
            return Err(e);
        }
        if summary_changed {
            self.written = Some(summary);
        }
        metrics::moves_applied(moves);
        // Correspondence: the sides to move now hear of it (a turn-based
        // game's mover never does; a simultaneous turn waits for both).
        if moves > 0 && self.state.status() == Status::Started && self.state.setup().days.is_some()
        {
            let sides = match self.state.play().to_move() {
                Some(color) => vec![color],
                None => Color::ALL.to_vec(),
            };
            self.host.to_move(&id, self.state.seq(), sides);
        }
        if !was_finished && self.state.status() == Status::Finished {
            self.live = None;
            self.host.engines().game_ended(&id);
            self.host.game_ended(&id).await;
        }
        Ok(first)
    }

    /// Replaces the state by what the database holds.
    async fn reload(&mut self) {
        let id = self.state.id().to_string();
        match self.host.replay(&id).await {
            Ok((state, seats)) => {
                self.state = state;
                self.seats = seats;
            }
            Err(e) => {
                tracing::error!("{e}");
                self.broken = true;
            }
        }
    }

    /// Ends the game if a clock fell or a reveal is overdue.
    async fn check_time(&mut self, now: Instant) {
        self.credit_wait(now);
        if let Some(finished) = self.state.timeout(now) {
            if let Err(e) = self.commit(vec![finished], None, Vec::new(), now).await {
                tracing::error!("game {}: time out not written: {e}", self.state.id());
            }
        }
    }

    /// Gives the engine seats waiting for a worker the time waited so far.
    fn credit_wait(&mut self, now: Instant) {
        for color in Color::ALL {
            if let Some(since) = self.waiting[color.index()].as_mut() {
                self.state
                    .credit_clock(color, now.saturating_duration_since(*since));
                *since = now;
            }
        }
    }

    /// What an engine seat does without thinking: decline a draw, accept a
    /// rematch, reveal its committed move once both commitments are in,
    /// claim a game without a clock whose human did not reveal in time.
    fn engine_reply(&self) -> Option<(Color, Action)> {
        if let Some((c, at)) = self.state.engine_claim() {
            if Instant::now() >= at {
                return Some((c, Action::ClaimVictory));
            }
        }
        let engines = Color::ALL
            .into_iter()
            .filter(|c| matches!(self.state.seat(*c), Seat::Engine { .. }));
        for c in engines {
            let asked = Some(c.other());
            if self.state.status() == Status::Started && self.state.draw_offer() == asked {
                return Some((c, Action::DrawNo));
            }
            if self.state.status() == Status::Finished
                && self.state.rematch().is_none()
                && self.state.rematch_offer() == asked
            {
                return Some((c, Action::Rematch));
            }
        }
        self.state.engine_reveals().into_iter().next().map(|h| {
            (
                h.color,
                Action::Reveal {
                    mv: h.mv,
                    nonce: h.nonce,
                },
            )
        })
    }

    /// Engine seats' work: replies first, then searches for the seats that
    /// must move or commit.
    async fn duties(&mut self) {
        while let Some((color, action)) = self.engine_reply() {
            if let Err(e) = self.perform(color, action, None, Instant::now()).await {
                tracing::error!("game {}: engine reply refused: {e}", self.state.id());
                break;
            }
        }
        let epoch = self.state.play().played();
        for (color, level) in self.state.engine_turns() {
            if self.thinking[color.index()] == Some(epoch) {
                continue;
            }
            self.thinking[color.index()] = Some(epoch);
            self.waiting[color.index()] = Some(Instant::now());
            let job = Job::new(self.state.play(), color, level);
            let pool = self.host.engines().clone();
            let seat = (self.state.id().to_string(), color);
            let me = self.me.clone();
            tokio::spawn(async move {
                let worker = pool.worker().await;
                let _ = me.send(Msg::Working { color }).await;
                let mv = match worker {
                    Some(worker) => worker.think_with(job, pool.memory(seat)).await,
                    None => None,
                };
                let _ = me.send(Msg::Thought { color, epoch, mv }).await;
            });
        }
    }

    /// Plays (turn-based) or commits to (simultaneous) the engine's move.
    async fn engine_move(&mut self, color: Color, mv: Move, now: Instant) {
        let play = self.state.play();
        let uci = play.uci(color, mv);
        let result = if play.is_simultaneous() {
            let turn = play.turn();
            let nonce = secret::new_nonce();
            let commitment = secret::commitment(self.state.id(), turn, color, &uci, &nonce);
            let hidden = Hidden {
                turn,
                color,
                mv: uci,
                nonce,
            };
            self.perform(color, Action::Commit(commitment), Some(hidden), now)
                .await
        } else {
            self.perform(color, Action::Move(uci), None, now).await
        };
        if let Err(e) = result {
            tracing::error!("game {}: engine move refused: {e}", self.state.id());
        }
    }
}
