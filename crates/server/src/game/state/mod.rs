//! A game's state as its events leave it, what a seat's action would add to
//! the log, and the `gameFull` view.
//!
//! Every change goes the same way, live or on restart: [`GameState::decide`]
//! checks an action against the state and returns the events it causes
//! without changing anything; once they are durable,
//! [`GameState::apply`] replays them onto the state. A restart is the
//! same `apply` over the stored log.

use std::collections::HashSet;
use std::time::Instant;

use parity_rules::{AnyGame, Color, Outcome, Reason, Variant};
use serde::{Deserialize, Serialize};

use crate::base::refusal::{Refusal, Said};
use crate::game::clock::{Clock, TimeControl, Timeline, UNTIMED_REVEAL_DEADLINE};
use crate::game::event::{
    Clocks, Event, EventBody, LiveClock, Logged, RevealedMove, Seat, Side, SideNotesPair,
};
use crate::game::play::{self, MoveError};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// A friend has not taken the invited seat yet.
    Waiting,
    Started,
    Finished,
}

impl Status {
    pub fn name(self) -> &'static str {
        match self {
            Status::Waiting => "waiting",
            Status::Started => "started",
            Status::Finished => "finished",
        }
    }
}

/// A move the server knows but does not show before the turn resolves: a
/// side's reveal while the other's is missing, or an engine's choice.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hidden {
    pub turn: u32,
    pub color: Color,
    pub mv: String,
    pub nonce: String,
}

/// What a seat asks for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Action {
    Move(String),
    Commit(String),
    Reveal {
        mv: String,
        nonce: String,
    },
    Resign,
    Abort,
    /// Offer a draw, or accept the opponent's offer.
    DrawYes,
    /// Decline the opponent's offer.
    DrawNo,
    Rematch,
    /// Withdraw this side's rematch offer, or decline the other's.
    RematchNo,
    /// Win a game without a clock whose opponent has not revealed by the
    /// reveal deadline.
    ClaimVictory,
    /// Halve one's own clock before one's first move (an arena's berserk;
    /// whether the game allows it is the caller's to check).
    Berserk,
}

impl From<parity_rules::GameError> for Refusal {
    fn from(e: parity_rules::GameError) -> Refusal {
        MoveError::from(e).into()
    }
}

impl From<MoveError> for Refusal {
    fn from(e: MoveError) -> Refusal {
        match e {
            MoveError::Garbled(said) => Refusal::Malformed(said),
            MoveError::Illegal(said) => Refusal::Unacceptable(said),
        }
    }
}

/// What an accepted action adds: events, and maybe a move to keep hidden.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Decision {
    pub events: Vec<EventBody>,
    pub hidden: Option<Hidden>,
}

/// A stored log that does not replay.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("game {game}, event {seq}: {message}")]
pub struct ReplayError {
    pub game: String,
    pub seq: u64,
    pub message: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveNames {
    pub uci: String,
    pub san: String,
}

/// One entry of `gameFull.moves`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum MoveEntry {
    Single {
        color: Side,
        uci: String,
        san: String,
    },
    Pair {
        white: MoveNames,
        black: MoveNames,
        notes: Box<SideNotesPair>,
    },
}

impl MoveEntry {
    /// The entry's moves as (coordinates, SAN), white's first in a turn.
    pub fn moves(&self) -> Vec<(&str, &str)> {
        match self {
            MoveEntry::Single { uci, san, .. } => vec![(uci, san)],
            MoveEntry::Pair { white, black, .. } => {
                vec![(&white.uci, &white.san), (&black.uci, &black.san)]
            }
        }
    }
}

/// The current simultaneous turn.
#[derive(Clone, Debug, Default)]
struct SimTurn {
    commitments: [Option<String>; 2],
    revealed: [bool; 2],
    hidden: [Option<Hidden>; 2],
    /// Games without a clock, once both commitments are in: from when a
    /// side that revealed may claim the game from one that did not.
    reveal_deadline: Option<Instant>,
}

/// The settings a game is created with.
#[derive(Clone, Debug)]
pub struct Setup {
    pub variant: &'static Variant,
    pub clock: Option<LiveClock>,
    pub days: Option<u32>,
    pub seats: [Seat; 2],
    pub rematch_of: Option<String>,
    /// The start position when it is not the variant's own.
    pub fen: Option<String>,
}

impl Setup {
    /// The first event of the game.
    pub fn created(&self) -> EventBody {
        EventBody::Created {
            variant: self.variant.id().to_string(),
            clock: self.clock,
            days: self.days,
            white: self.seats[0],
            black: self.seats[1],
            rematch_of: self.rematch_of.clone(),
            fen: self.fen.clone(),
        }
    }
}

#[derive(Clone, Debug)]
pub struct GameState {
    id: String,
    setup: Setup,
    time: TimeControl,
    joined: [bool; 2],
    status: Status,
    result: Option<String>,
    reason: Option<Reason>,
    play: AnyGame,
    clock: Option<Clock>,
    moves: Vec<MoveEntry>,
    /// When the last move or turn was played (ms since the Unix epoch).
    last_move_at: Option<i64>,
    sim: SimTurn,
    draw_offer: Option<Color>,
    rematch_offer: Option<Color>,
    rematch: Option<String>,
    /// The nonces of the resolved turns: none may be used again.
    used_nonces: HashSet<String>,
    /// Each event with its JSON line, in seq order.
    log: Vec<Logged>,
}

impl GameState {
    /// The state after the `created` event.
    pub fn new(id: &str, setup: Setup, now: Instant) -> Result<GameState, String> {
        let time = TimeControl::new(setup.clock, setup.days)?;
        let joined = setup.seats.map(|s| matches!(s, Seat::Engine { .. }));
        Ok(GameState {
            id: id.to_string(),
            time,
            joined,
            status: Status::Waiting,
            result: None,
            reason: None,
            play: AnyGame::from_fen(setup.variant, setup.fen.as_deref())
                .map_err(|e| format!("start position: {e}"))?,
            clock: Clock::new(time, now),
            moves: Vec::new(),
            last_move_at: None,
            sim: SimTurn::default(),
            draw_offer: None,
            rematch_offer: None,
            rematch: None,
            used_nonces: HashSet::new(),
            log: Vec::new(),
            setup,
        })
    }

    /// Rebuilds a game from its stored log; `hidden` are the stored hidden
    /// moves (only those of the current turn matter). Each event is applied
    /// at the instant `timeline` gives it.
    pub fn replay(
        id: &str,
        variants: &parity_rules::Registry,
        events: &[Event],
        hidden: &[Hidden],
        timeline: &Timeline,
    ) -> Result<GameState, ReplayError> {
        let fail = |seq: u64, message: String| ReplayError {
            game: id.to_string(),
            seq,
            message,
        };
        let Some(first) = events.first() else {
            return Err(fail(0, "no events".into()));
        };
        let EventBody::Created {
            variant,
            clock,
            days,
            white,
            black,
            rematch_of,
            fen,
        } = &first.body
        else {
            return Err(fail(first.seq, "the first event is not `created`".into()));
        };
        let variant = variants
            .get(variant)
            .ok_or_else(|| fail(first.seq, format!("unknown variant {variant}")))?;
        let setup = Setup {
            variant,
            clock: *clock,
            days: *days,
            seats: [*white, *black],
            rematch_of: rematch_of.clone(),
            fen: fen.clone(),
        };
        let mut state = GameState::new(id, setup, timeline.instant(first.at))
            .map_err(|e| fail(first.seq, e))?;
        for event in events {
            state.apply(event, timeline.instant(event.at))?;
        }
        for h in hidden {
            state.remember(h.clone());
        }
        Ok(state)
    }

    pub fn id(&self) -> &str {
        &self.id
    }
    pub fn setup(&self) -> &Setup {
        &self.setup
    }
    pub fn status(&self) -> Status {
        self.status
    }
    pub fn result(&self) -> Option<&str> {
        self.result.as_deref()
    }
    pub fn reason(&self) -> Option<Reason> {
        self.reason
    }
    pub fn play(&self) -> &AnyGame {
        &self.play
    }
    pub fn moves(&self) -> &[MoveEntry] {
        &self.moves
    }
    pub fn seq(&self) -> u64 {
        self.log.len() as u64
    }
    pub fn seat(&self, color: Color) -> Seat {
        self.setup.seats[color.index()]
    }
    pub fn joined(&self, color: Color) -> bool {
        self.joined[color.index()]
    }
    pub fn rematch(&self) -> Option<&str> {
        self.rematch.as_deref()
    }
    /// The side whose draw offer stands.
    pub fn draw_offer(&self) -> Option<Color> {
        self.draw_offer
    }
    /// The side that asked for a rematch.
    pub fn rematch_offer(&self) -> Option<Color> {
        self.rematch_offer
    }
    /// The events after `since` (all with 0).
    pub fn logged_after(&self, since: u64) -> &[Logged] {
        &self.log[(since as usize).min(self.log.len())..]
    }

    /// Keeps a hidden move of the current turn.
    pub fn remember(&mut self, hidden: Hidden) {
        if self.play.is_simultaneous() && hidden.turn == self.play.turn() {
            let i = hidden.color.index();
            self.sim.hidden[i] = Some(hidden);
        }
    }

    /// The hidden move of `color` this turn, if the server knows it.
    pub fn hidden(&self, color: Color) -> Option<&Hidden> {
        self.sim.hidden[color.index()].as_ref()
    }

    /// Whether `color` went berserk in this game.
    pub fn berserk(&self, color: Color) -> bool {
        self.clock.as_ref().is_some_and(|c| c.is_berserk(color))
    }

    /// Whether `color` has made a move (committed one, in a simultaneous game).
    pub fn has_moved(&self, color: Color) -> bool {
        let played = self.play.played();
        match self.play.is_simultaneous() {
            true => played >= 1 || self.committed(color),
            false => played >= 2 || (played == 1 && self.play.to_move() != Some(color)),
        }
    }

    pub fn committed(&self, color: Color) -> bool {
        self.sim.commitments[color.index()].is_some()
    }

    pub fn revealed(&self, color: Color) -> bool {
        self.sim.revealed[color.index()]
    }

    /// The commitment of `color` this turn.
    pub fn commitment(&self, color: Color) -> Option<&str> {
        self.sim.commitments[color.index()].as_deref()
    }

    /// Both commitments are in and `color` has not revealed yet.
    fn owes_reveal(&self, color: Color) -> bool {
        self.committed(Color::White) && self.committed(Color::Black) && !self.revealed(color)
    }

    fn clocks_now(&self, now: Instant, running: [bool; 2]) -> Option<Clocks> {
        self.clock.as_ref().map(|c| c.snapshot(now, running))
    }

    fn clocks_after_move(&self, now: Instant, mover: Color, running: [bool; 2]) -> Option<Clocks> {
        self.clock
            .as_ref()
            .map(|c| c.after_move(now, mover, running))
    }

    /// The clocks that run at the start of a move or turn.
    fn start_running(&self) -> [bool; 2] {
        match self.play.to_move() {
            Some(c) => [c == Color::White, c == Color::Black],
            None => [true, true],
        }
    }

    fn finished(&self, winner: Option<Color>, reason: Reason, now: Instant) -> EventBody {
        self.finished_by(None, winner, reason, now)
    }

    /// The end of the game; `by` is the side whose action ended it.
    fn finished_by(
        &self,
        by: Option<Color>,
        winner: Option<Color>,
        reason: Reason,
        now: Instant,
    ) -> EventBody {
        EventBody::Finished {
            result: Outcome { winner, reason }.result().to_string(),
            reason,
            by: by.map(Side::from),
            clocks: self.clocks_now(now, [false; 2]),
        }
    }

    /// Events that start the game now that both seats are filled.
    pub fn start_events(&self, now: Instant) -> Vec<EventBody> {
        vec![EventBody::Started {
            fen: self.play.fen(),
            clocks: self.clocks_now(now, self.start_running()),
        }]
    }

    /// The events of a friend taking the invited seat `color`.
    pub fn decide_join(&self, color: Color, now: Instant) -> Result<Vec<EventBody>, Refusal> {
        if self.status != Status::Waiting {
            return Err(Refusal::NotNow(Said::new(
                "server-refusal-game-not-waiting-player",
            )));
        }
        if self.joined(color) {
            return Err(Refusal::NotNow(Said::new("server-refusal-seat-taken")));
        }
        let mut events = vec![EventBody::Joined {
            color: color.into(),
        }];
        if self.joined(color.other()) {
            events.extend(self.start_events(now));
        }
        Ok(events)
    }

    /// Gives `color` back time its engine spent waiting for a worker.
    pub fn credit_clock(&mut self, color: Color, time: std::time::Duration) {
        if let Some(clock) = self.clock.as_mut() {
            clock.credit(color, time);
        }
    }

    /// A time loss at `now`, if one happened. A side whose clock runs out
    /// while it owes a reveal its opponent has made loses on `no-reveal`.
    pub fn timeout(&self, now: Instant) -> Option<EventBody> {
        if self.status != Status::Started {
            return None;
        }
        let flagged = self.clock.as_ref().and_then(|c| c.flagged(now))?;
        let reason = if self.owes_reveal(flagged) && self.revealed(flagged.other()) {
            Reason::NoReveal
        } else {
            Reason::Time
        };
        Some(self.finished(Some(flagged.other()), reason, now))
    }

    /// When a clock may run out, or an engine seat may claim the game.
    pub fn next_deadline(&self) -> Option<Instant> {
        if self.status != Status::Started {
            return None;
        }
        let flag = self.clock.as_ref().and_then(Clock::deadline);
        let claim = self.engine_claim().map(|(_, at)| at);
        [flag, claim].into_iter().flatten().min()
    }

    /// Applies a durable event at `now`.
    pub fn apply(&mut self, event: &Event, now: Instant) -> Result<(), ReplayError> {
        let game = self.id.clone();
        let fail = |message: String| ReplayError {
            game: game.clone(),
            seq: event.seq,
            message,
        };
        if event.seq != self.seq() + 1 {
            return Err(fail(format!("expected seq {}", self.seq() + 1)));
        }
        if matches!(event.body, EventBody::Move { .. } | EventBody::Turn { .. }) {
            self.last_move_at = Some(event.at);
        }
        match &event.body {
            EventBody::Created { .. } => {
                if event.seq != 1 {
                    return Err(fail("a second `created`".into()));
                }
            }
            EventBody::Joined { color } => self.joined[color.color().index()] = true,
            EventBody::Started { clocks, .. } => {
                self.status = Status::Started;
                self.set_clocks(clocks, now);
            }
            EventBody::Move {
                color, uci, clocks, ..
            } => {
                let c = color.color();
                if self.play.to_move() != Some(c) {
                    return Err(fail(format!("{} moved out of turn", c.name())));
                }
                let mv = play::read_move(&self.play, c, uci).map_err(|e| fail(e.to_string()))?;
                let (uci, san) = (self.play.uci(c, mv), self.play.san(c, mv));
                self.play.play(mv).map_err(|e| fail(e.to_string()))?;
                self.moves.push(MoveEntry::Single {
                    color: *color,
                    uci,
                    san,
                });
                if self.draw_offer == Some(c.other()) {
                    self.draw_offer = None;
                }
                self.set_clocks(clocks, now);
            }
            EventBody::Committed {
                color,
                turn,
                commitment,
                clocks,
            } => {
                if *turn != self.play.turn() || self.committed(color.color()) {
                    return Err(fail(format!("unexpected commitment for turn {turn}")));
                }
                self.sim.commitments[color.color().index()] = Some(commitment.clone());
                let both = self.committed(Color::White) && self.committed(Color::Black);
                if both && self.time == TimeControl::Unlimited {
                    self.sim.reveal_deadline = Some(now + UNTIMED_REVEAL_DEADLINE);
                }
                self.set_clocks(clocks, now);
            }
            EventBody::Revealed {
                color,
                turn,
                clocks,
            } => {
                if *turn != self.play.turn() || !self.committed(color.color()) {
                    return Err(fail(format!("unexpected reveal for turn {turn}")));
                }
                self.sim.revealed[color.color().index()] = true;
                self.set_clocks(clocks, now);
            }
            EventBody::Turn {
                white,
                black,
                notes,
                clocks,
                ..
            } => {
                let wm = play::read_move(&self.play, Color::White, &white.uci)
                    .map_err(|e| fail(e.to_string()))?;
                let bm = play::read_move(&self.play, Color::Black, &black.uci)
                    .map_err(|e| fail(e.to_string()))?;
                let names = |h: &RevealedMove| MoveNames {
                    uci: h.uci.clone(),
                    san: h.san.clone(),
                };
                self.play
                    .play_turn(wm, bm)
                    .map_err(|e| fail(e.to_string()))?;
                self.used_nonces
                    .extend([white.nonce.clone(), black.nonce.clone()]);
                self.moves.push(MoveEntry::Pair {
                    white: names(white),
                    black: names(black),
                    notes: notes.clone(),
                });
                self.sim = SimTurn::default();
                self.draw_offer = None;
                self.set_clocks(clocks, now);
            }
            EventBody::Berserk { color, clocks } => {
                self.set_clocks(clocks, now);
                if let Some(clock) = self.clock.as_mut() {
                    clock.go_berserk(color.color());
                }
            }
            EventBody::DrawOffer { color } => self.draw_offer = Some(color.color()),
            EventBody::DrawDeclined { .. } => self.draw_offer = None,
            EventBody::Finished {
                result,
                reason,
                clocks,
                ..
            } => {
                self.status = Status::Finished;
                self.result = Some(result.clone());
                self.reason = Some(*reason);
                self.draw_offer = None;
                self.sim.reveal_deadline = None;
                if let Some(clock) = self.clock.as_mut() {
                    clock.stop(now);
                }
                self.set_clocks(clocks, now);
            }
            EventBody::RematchOffer { color } => self.rematch_offer = Some(color.color()),
            EventBody::Rematch { game } => self.rematch = Some(game.clone()),
            EventBody::RematchCancelled { .. } => self.rematch_offer = None,
        }
        self.log
            .push(Logged::new(event.clone()).map_err(|e| fail(e.to_string()))?);
        Ok(())
    }

    fn set_clocks(&mut self, clocks: &Option<Clocks>, now: Instant) {
        if let (Some(clock), Some(c)) = (self.clock.as_mut(), clocks) {
            clock.set(c, now);
        }
    }
}

mod commit_reveal;
mod decide;
mod engine_seats;
mod views;

pub use views::{
    variant_id, variant_key, BothSides, GameFull, Legal, PieceInfo, RematchView, SeatView, Summary,
    VariantInfo, VariantListing,
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::secret;
    use crate::game::clock::Downtime;
    use parity_rules::Registry;
    use std::time::Duration;

    fn game(variant: &str, clock: Option<LiveClock>, seats: [Seat; 2]) -> (GameState, Instant) {
        let now = Instant::now();
        let setup = Setup {
            variant: Registry::builtin().get(variant).unwrap(),
            clock,
            days: None,
            seats,
            rematch_of: None,
            fen: None,
        };
        let mut state = GameState::new("a1B2c3D4e5", setup.clone(), now).unwrap();
        let mut bodies = vec![setup.created()];
        for c in Color::ALL {
            if setup.seats[c.index()] == Seat::Human {
                bodies.push(EventBody::Joined { color: c.into() });
            }
        }
        for body in bodies {
            append(&mut state, body, now);
        }
        for body in state.start_events(now) {
            append(&mut state, body, now);
        }
        (state, now)
    }

    fn append(state: &mut GameState, body: EventBody, now: Instant) {
        let event = Event {
            body,
            seq: state.seq() + 1,
            at: 0,
        };
        state.apply(&event, now).unwrap();
    }

    /// Decides and applies; returns the kinds of the events added.
    fn act(
        state: &mut GameState,
        color: Color,
        action: Action,
        now: Instant,
    ) -> Result<Vec<&'static str>, Refusal> {
        let decision = state.decide(color, &action, now, "n3wGame000")?;
        let kinds = decision.events.iter().map(EventBody::kind).collect();
        if let Some(h) = decision.hidden {
            state.remember(h);
        }
        for body in decision.events {
            append(state, body, now);
        }
        Ok(kinds)
    }

    fn commit_to(state: &GameState, color: Color, mv: &str) -> (String, String) {
        let nonce = secret::new_nonce();
        (
            secret::commitment(state.id(), state.play().turn(), color, mv, &nonce),
            nonce,
        )
    }

    fn reveal(mv: &str, nonce: &str) -> Action {
        Action::Reveal {
            mv: mv.into(),
            nonce: nonce.into(),
        }
    }

    const HUMANS: [Seat; 2] = [Seat::Human, Seat::Human];
    use Color::{Black, White};

    #[test]
    fn a_simultaneous_turn_goes_commit_commit_reveal_reveal() {
        let (mut s, now) = game("parity", None, HUMANS);
        let (cw, nw) = commit_to(&s, White, "e2e4");
        let (cb, nb) = commit_to(&s, Black, "d7d5");
        assert!(matches!(
            act(&mut s, White, reveal("e2e4", &nw), now),
            Err(Refusal::NotNow(_))
        ));
        assert!(matches!(
            act(&mut s, White, Action::Commit("E2E4".into()), now),
            Err(Refusal::Malformed(_))
        ));
        assert!(matches!(
            act(&mut s, White, Action::Move("e2e4".into()), now),
            Err(Refusal::NotNow(_))
        ));
        assert_eq!(
            act(&mut s, White, Action::Commit(cw.clone()), now),
            Ok(vec!["committed"])
        );
        assert!(matches!(
            act(&mut s, White, Action::Commit(cw.clone()), now),
            Err(Refusal::NotNow(_))
        ));
        // Nothing of white's move is anywhere before both commitments are in.
        let seen = serde_json::to_string(&s.full(Some(Black), None, now)).unwrap()
            + &s.logged_after(0)
                .iter()
                .map(|l| l.line.as_str())
                .collect::<Vec<_>>()
                .join("\n");
        assert!(!seen.contains(&nw), "{seen}");
        assert_eq!(
            act(&mut s, Black, Action::Commit(cb), now),
            Ok(vec!["committed"])
        );
        assert!(matches!(
            act(&mut s, White, reveal("e2e4", &nb), now),
            Err(Refusal::Unacceptable(_))
        ));
        assert!(matches!(
            act(&mut s, White, reveal("d2d4", &nw), now),
            Err(Refusal::Unacceptable(_))
        ));
        assert!(matches!(
            act(&mut s, White, reveal("e2e4", "xyz"), now),
            Err(Refusal::Malformed(_))
        ));
        let first = s.decide(White, &reveal("e2e4", &nw), now, "").unwrap();
        assert_eq!(first.hidden.map(|h| h.mv).as_deref(), Some("e2e4"));
        let before = s.seq();
        assert_eq!(
            act(&mut s, White, reveal("e2e4", &nw), now),
            Ok(vec!["revealed"])
        );
        let seen = serde_json::to_string(&s.full(Some(Black), None, now)).unwrap()
            + &s.logged_after(before)
                .iter()
                .map(|l| l.line.as_str())
                .collect::<Vec<_>>()
                .join("\n");
        assert!(!seen.contains(&nw), "the first reveal stays hidden: {seen}");
        assert!(matches!(
            act(&mut s, White, reveal("e2e4", &nw), now),
            Err(Refusal::NotNow(_))
        ));
        let last = s.decide(Black, &reveal("d7d5", &nb), now, "").unwrap();
        assert_eq!(last.hidden, None, "the turn event holds both moves");
        assert_eq!(
            act(&mut s, Black, reveal("d7d5", &nb), now),
            Ok(vec!["revealed", "turn"])
        );
        assert_eq!(s.play().turn(), 2);
        assert!(!s.committed(White) && !s.revealed(White));
        let turn = s.logged_after(s.seq() - 1)[0].line.as_str().to_string();
        assert!(
            turn.contains(&nw) && turn.contains(&cw) && turn.contains("\"san\":\"e4\""),
            "{turn}"
        );
        assert_reads_back(&s.full(Some(White), None, now));
    }

    /// A view read back from its JSON (by another node, by the lichess
    /// adapter) is the view that was sent.
    fn assert_reads_back(view: &GameFull) {
        let text = serde_json::to_string(view).unwrap();
        assert!(text.starts_with("{\"type\":\"gameFull\""), "{text}");
        assert_eq!(&serde_json::from_str::<GameFull>(&text).unwrap(), view);
    }

    #[test]
    fn an_illegal_committed_move_is_refused_and_the_side_keeps_its_commitment() {
        let (mut s, now) = game("parity", None, HUMANS);
        let (cw, nw) = commit_to(&s, White, "e2e5");
        let (cb, _) = commit_to(&s, Black, "d7d5");
        act(&mut s, White, Action::Commit(cw), now).unwrap();
        act(&mut s, Black, Action::Commit(cb), now).unwrap();
        let seq = s.seq();
        assert!(matches!(
            act(&mut s, White, reveal("e2e5", &nw), now),
            Err(Refusal::Unacceptable(_))
        ));
        assert_eq!(s.seq(), seq);
        assert!(s.committed(White) && !s.revealed(White));
    }

    #[test]
    fn fools_mate_ends_the_game_and_moves_keep_their_turn() {
        let (mut s, now) = game("chess", None, HUMANS);
        assert!(matches!(
            act(&mut s, Black, Action::Move("e7e5".into()), now),
            Err(Refusal::NotNow(_))
        ));
        assert!(matches!(
            act(&mut s, White, Action::Move("e2e5".into()), now),
            Err(Refusal::Unacceptable(_))
        ));
        assert!(matches!(
            act(&mut s, White, Action::Move("hello".into()), now),
            Err(Refusal::Malformed(_))
        ));
        assert!(matches!(
            act(&mut s, White, Action::Commit("ab".repeat(32)), now),
            Err(Refusal::NotNow(_))
        ));
        for (c, mv) in [(White, "f2f3"), (Black, "e7e5"), (White, "g2g4")] {
            assert_eq!(
                act(&mut s, c, Action::Move(mv.into()), now),
                Ok(vec!["move"])
            );
        }
        assert_eq!(
            act(&mut s, Black, Action::Move("d8h4".into()), now),
            Ok(vec!["move", "finished"])
        );
        assert_eq!(
            (s.result(), s.reason()),
            (Some("0-1"), Some(Reason::Checkmate))
        );
        assert_reads_back(&s.full(None, None, now));
        assert!(matches!(
            act(&mut s, White, Action::Resign, now),
            Err(Refusal::NotNow(_))
        ));
    }

    fn live(initial: u32, increment: u32) -> Option<LiveClock> {
        Some(LiveClock { initial, increment })
    }

    fn secs(s: f64) -> Duration {
        Duration::from_secs_f64(s)
    }

    /// The clocks of the last event, as (white_ms, black_ms, running, grace_ms).
    fn last_clocks(s: &GameState) -> (i64, i64, Vec<Side>, i64) {
        let event: Event = (*s.logged_after(s.seq() - 1)[0].event).clone();
        let clocks = match event.body {
            EventBody::Committed { clocks, .. }
            | EventBody::Revealed { clocks, .. }
            | EventBody::Turn { clocks, .. } => clocks.unwrap(),
            other => panic!("no clocks in {other:?}"),
        };
        (
            clocks.white_ms,
            clocks.black_ms,
            clocks.running,
            clocks.grace_ms,
        )
    }

    fn ending(event: Option<EventBody>) -> (String, Reason) {
        match event {
            Some(EventBody::Finished { result, reason, .. }) => (result, reason),
            other => panic!("not an ending: {other:?}"),
        }
    }

    #[test]
    fn a_clock_that_runs_out_loses_on_time() {
        let (s, now) = game("chess", live(10, 0), HUMANS);
        assert_eq!(s.next_deadline(), Some(now + secs(10.0)));
        assert_eq!(s.timeout(now + secs(9.0)), None);
        assert_eq!(
            ending(s.timeout(now + secs(10.0))),
            ("0-1".into(), Reason::Time)
        );
    }

    #[test]
    fn a_clock_runs_until_its_side_reveals_after_a_grace() {
        // 1+0: the grace is 5% of a minute, 3 s.
        let (mut s, t0) = game("parity", live(60, 0), HUMANS);
        let (cw, nw) = commit_to(&s, White, "e2e4");
        let (cb, nb) = commit_to(&s, Black, "e7e5");
        act(&mut s, White, Action::Commit(cw), t0 + secs(1.0)).unwrap();
        // White's clock stops while it waits for Black's commitment.
        assert_eq!(last_clocks(&s), (59_000, 59_000, vec![Side::Black], 0));
        act(&mut s, Black, Action::Commit(cb), t0 + secs(2.0)).unwrap();
        // Both run again for the reveals, after the grace.
        assert_eq!(
            last_clocks(&s),
            (59_000, 58_000, vec![Side::White, Side::Black], 3000)
        );
        assert_eq!(s.next_deadline(), Some(t0 + secs(2.0 + 3.0 + 58.0)));
        // A reveal within the grace costs nothing; a reveal after it costs
        // the time beyond the grace.
        act(&mut s, White, reveal("e2e4", &nw), t0 + secs(4.0)).unwrap();
        assert_eq!(last_clocks(&s), (59_000, 58_000, vec![Side::Black], 1000));
        act(&mut s, Black, reveal("e7e5", &nb), t0 + secs(9.0)).unwrap();
        assert_eq!(
            last_clocks(&s),
            (59_000, 54_000, vec![Side::White, Side::Black], 0)
        );
    }

    #[test]
    fn a_side_that_does_not_reveal_loses_when_its_clock_runs_out() {
        let (mut s, t0) = game("parity", live(60, 0), HUMANS);
        let (cw, nw) = commit_to(&s, White, "e2e4");
        let (cb, _) = commit_to(&s, Black, "e7e5");
        act(&mut s, White, Action::Commit(cw), t0).unwrap();
        act(&mut s, Black, Action::Commit(cb), t0).unwrap();
        act(&mut s, White, reveal("e2e4", &nw), t0).unwrap();
        // Not after a fixed 30 s: after the 3 s grace and Black's minute.
        let flag = t0 + secs(3.0 + 60.0);
        assert_eq!(s.next_deadline(), Some(flag));
        assert_eq!(s.timeout(flag - secs(0.001)), None);
        assert_eq!(ending(s.timeout(flag)), ("1-0".into(), Reason::NoReveal));
        // Neither revealed: the first clock to run out loses on time.
        let (mut s, t0) = game("parity", live(60, 0), HUMANS);
        let (cw, _) = commit_to(&s, White, "e2e4");
        let (cb, _) = commit_to(&s, Black, "e7e5");
        act(&mut s, White, Action::Commit(cw), t0).unwrap();
        act(&mut s, Black, Action::Commit(cb), t0 + secs(1.0)).unwrap();
        assert_eq!(
            ending(s.timeout(t0 + secs(1.0 + 3.0 + 59.0))),
            ("1-0".into(), Reason::Time)
        );
    }

    #[test]
    fn the_reveal_grace_scales_with_the_time_control() {
        let grace = |clock, days| TimeControl::new(clock, days).unwrap().reveal_grace();
        assert_eq!(grace(live(60, 0), None), secs(3.0));
        assert_eq!(grace(live(0, 1), None), secs(2.0));
        assert_eq!(grace(live(180, 2), None), secs(9.0));
        assert_eq!(grace(live(600, 5), None), secs(30.0));
        assert_eq!(grace(live(10_800, 0), None), secs(30.0));
        assert_eq!(grace(None, Some(1)), secs(30.0));
    }

    #[test]
    fn without_a_clock_the_side_that_revealed_may_claim_the_game_after_the_deadline() {
        let (mut s, t0) = game("parity", None, HUMANS);
        assert!(matches!(
            act(&mut s, White, Action::ClaimVictory, t0),
            Err(Refusal::NotNow(_))
        ));
        let (cw, nw) = commit_to(&s, White, "e2e4");
        let (cb, _) = commit_to(&s, Black, "e7e5");
        act(&mut s, White, Action::Commit(cw), t0).unwrap();
        act(&mut s, Black, Action::Commit(cb), t0).unwrap();
        act(&mut s, White, reveal("e2e4", &nw), t0).unwrap();
        let deadline = t0 + crate::game::clock::UNTIMED_REVEAL_DEADLINE;
        // Nothing ends by itself: the game waits for a claim.
        assert_eq!(
            (s.next_deadline(), s.timeout(deadline + secs(86_400.0))),
            (None, None)
        );
        let view = s.full(Some(White), None, t0 + secs(60.0));
        assert_eq!(view.reveal_deadline_ms, Some(9 * 60_000));
        assert!(matches!(
            act(&mut s, White, Action::ClaimVictory, deadline - secs(1.0)),
            Err(Refusal::NotNow(_))
        ));
        assert!(matches!(
            act(&mut s, Black, Action::ClaimVictory, deadline),
            Err(Refusal::NotNow(_))
        ));
        assert_eq!(
            act(&mut s, White, Action::ClaimVictory, deadline),
            Ok(vec!["finished"])
        );
        assert_eq!(
            (s.result(), s.reason()),
            (Some("1-0"), Some(Reason::NoReveal))
        );

        // A game with a clock ends by the clock, never by a claim.
        let (mut s, t0) = game("parity", live(60, 0), HUMANS);
        let (cw, nw) = commit_to(&s, White, "e2e4");
        let (cb, _) = commit_to(&s, Black, "e7e5");
        act(&mut s, White, Action::Commit(cw), t0).unwrap();
        act(&mut s, Black, Action::Commit(cb), t0).unwrap();
        act(&mut s, White, reveal("e2e4", &nw), t0).unwrap();
        assert!(matches!(
            act(&mut s, White, Action::ClaimVictory, t0 + secs(60.0)),
            Err(Refusal::NotNow(_))
        ));
    }

    #[test]
    fn an_engine_seat_claims_the_game_when_the_human_does_not_reveal() {
        let (mut s, t0) = game("parity", None, [Seat::Human, Seat::Engine { level: 1 }]);
        let (cw, _) = commit_to(&s, White, "e2e4");
        let (cb, nb) = commit_to(&s, Black, "e7e5");
        act(&mut s, White, Action::Commit(cw), t0).unwrap();
        act(&mut s, Black, Action::Commit(cb), t0).unwrap();
        assert_eq!(s.next_deadline(), None);
        act(&mut s, Black, reveal("e7e5", &nb), t0).unwrap();
        let deadline = t0 + crate::game::clock::UNTIMED_REVEAL_DEADLINE;
        assert_eq!(s.engine_claim(), Some((Black, deadline)));
        assert_eq!(s.next_deadline(), Some(deadline));
    }

    #[test]
    fn a_nonce_used_before_in_the_game_is_refused() {
        let (mut s, now) = game("parity", None, HUMANS);
        let (cw, nw) = commit_to(&s, White, "e2e4");
        let (cb, nb) = commit_to(&s, Black, "e7e5");
        act(&mut s, White, Action::Commit(cw), now).unwrap();
        act(&mut s, Black, Action::Commit(cb), now).unwrap();
        act(&mut s, White, reveal("e2e4", &nw), now).unwrap();
        act(&mut s, Black, reveal("e7e5", &nb), now).unwrap();
        // Turn 2: White uses its turn-1 nonce again, Black uses White's.
        let again = |s: &GameState, color, mv, nonce: &str| {
            secret::commitment(s.id(), s.play().turn(), color, mv, nonce)
        };
        let (cw, cb) = (again(&s, White, "d2d4", &nw), again(&s, Black, "d7d5", &nw));
        act(&mut s, White, Action::Commit(cw), now).unwrap();
        act(&mut s, Black, Action::Commit(cb), now).unwrap();
        let seq = s.seq();
        for (color, mv) in [(White, "d2d4"), (Black, "d7d5")] {
            let refused = act(&mut s, color, reveal(mv, &nw), now);
            assert!(
                matches!(&refused, Err(Refusal::Unacceptable(m)) if m.to_string().contains("nonce was already used")),
                "{refused:?}"
            );
        }
        assert_eq!(s.seq(), seq);
    }

    #[test]
    fn a_revealed_move_must_be_its_canonical_text() {
        for (text, what) in [
            (format!("e2e4{}", " ".repeat(1000)), "padded"),
            (" e2e4".to_string(), "a leading space"),
            ("E2E4".to_string(), "upper case"),
            ("e2-e4".to_string(), "a dash"),
        ] {
            let (mut s, now) = game("parity", None, HUMANS);
            let (cw, nw) = commit_to(&s, White, &text);
            let (cb, _) = commit_to(&s, Black, "e7e5");
            act(&mut s, White, Action::Commit(cw), now).unwrap();
            act(&mut s, Black, Action::Commit(cb), now).unwrap();
            let seq = s.seq();
            let refused = act(&mut s, White, reveal(&text, &nw), now);
            assert!(
                matches!(refused, Err(Refusal::Malformed(_))),
                "{what}: {refused:?}"
            );
            assert_eq!((s.seq(), s.hidden(White)), (seq, None), "{what}");
        }
    }

    #[test]
    fn a_restart_charges_the_time_before_the_crash_and_not_the_downtime() {
        // Started at wall time 0 with White's clock running (120 s). The
        // server's last heartbeat was at 10 s; it came back at 70 s.
        let (s, now) = game("chess", live(120, 0), HUMANS);
        let events: Vec<Event> = s
            .logged_after(0)
            .iter()
            .map(|l| (*l.event).clone())
            .collect();
        let after = |downtimes: Vec<Downtime>| {
            let timeline = Timeline {
                now,
                now_ms: 70_000,
                downtimes: downtimes.into(),
            };
            let again =
                GameState::replay(s.id(), &Registry::builtin(), &events, &[], &timeline).unwrap();
            again.full(None, None, now).clocks.unwrap().white_ms
        };
        let down = |from_s: i64, to_s: i64| Downtime {
            from_ms: from_s * 1000,
            to_ms: to_s * 1000,
        };
        assert_eq!(after(vec![down(10, 70)]), 110_000);
        // Two crashes: up 0-10 s and 25-30 s, so 15 s are charged.
        assert_eq!(after(vec![down(10, 25), down(30, 70)]), 105_000);
        // A downtime before the game started changes nothing.
        assert_eq!(after(vec![down(-50, -10)]), 50_000);
    }

    #[test]
    fn draws_aborts_and_rematches() {
        let (mut s, now) = game("chess", None, HUMANS);
        assert!(matches!(
            act(&mut s, White, Action::DrawNo, now),
            Err(Refusal::NotNow(_))
        ));
        assert_eq!(
            act(&mut s, White, Action::DrawYes, now),
            Ok(vec!["draw_offer"])
        );
        assert!(matches!(
            act(&mut s, White, Action::DrawYes, now),
            Err(Refusal::NotNow(_))
        ));
        assert_eq!(
            act(&mut s, Black, Action::DrawNo, now),
            Ok(vec!["draw_declined"])
        );
        act(&mut s, White, Action::Move("e2e4".into()), now).unwrap();
        act(&mut s, Black, Action::Move("e7e5".into()), now).unwrap();
        assert!(matches!(
            act(&mut s, White, Action::Abort, now),
            Err(Refusal::NotNow(_))
        ));
        assert!(matches!(
            act(&mut s, White, Action::Rematch, now),
            Err(Refusal::NotNow(_))
        ));
        act(&mut s, Black, Action::DrawYes, now).unwrap();
        assert_eq!(
            act(&mut s, White, Action::DrawYes, now),
            Ok(vec!["finished"])
        );
        assert_eq!(
            (s.result(), s.reason()),
            (Some("1/2-1/2"), Some(Reason::Agreement))
        );
        assert!(matches!(
            act(&mut s, Black, Action::RematchNo, now),
            Err(Refusal::NotNow(_))
        ));
        // An offer withdrawn by its side, then one declined by the other.
        for canceller in [Black, White] {
            assert_eq!(
                act(&mut s, Black, Action::Rematch, now),
                Ok(vec!["rematch_offer"])
            );
            assert_eq!(
                act(&mut s, canceller, Action::RematchNo, now),
                Ok(vec!["rematch_cancelled"])
            );
            assert_eq!(s.rematch_offer(), None);
        }
        assert_eq!(
            act(&mut s, Black, Action::Rematch, now),
            Ok(vec!["rematch_offer"])
        );
        assert_eq!(
            act(&mut s, White, Action::Rematch, now),
            Ok(vec!["rematch"])
        );
        assert!(matches!(
            act(&mut s, White, Action::RematchNo, now),
            Err(Refusal::NotNow(_))
        ));
        assert_eq!(s.rematch(), Some("n3wGame000"));

        let (mut s, now) = game("parity", None, HUMANS);
        assert_eq!(act(&mut s, Black, Action::Abort, now), Ok(vec!["finished"]));
        assert_eq!(s.result(), Some("*"));
    }

    #[test]
    fn replaying_the_log_gives_the_same_state() {
        let (mut s, now) = game(
            "parity",
            Some(LiveClock {
                initial: 60,
                increment: 2,
            }),
            HUMANS,
        );
        for (w, b) in [("g1f3", "b8c6"), ("e2e3", "e7e6"), ("f3e5", "c6e5")] {
            let (cw, nw) = commit_to(&s, White, w);
            let (cb, nb) = commit_to(&s, Black, b);
            act(&mut s, White, Action::Commit(cw), now).unwrap();
            act(&mut s, Black, Action::Commit(cb), now).unwrap();
            act(&mut s, Black, reveal(b, &nb), now).unwrap();
            act(&mut s, White, reveal(w, &nw), now).unwrap();
        }
        let events: Vec<Event> = s
            .logged_after(0)
            .iter()
            .map(|l| (*l.event).clone())
            .collect();
        let timeline = Timeline {
            now,
            now_ms: 0,
            downtimes: Vec::new().into(),
        };
        let again =
            GameState::replay(s.id(), &Registry::builtin(), &events, &[], &timeline).unwrap();
        let view = |s: &GameState| serde_json::to_string(&s.full(None, None, now)).unwrap();
        assert_eq!(view(&again), view(&s));
        assert!(view(&s).contains("shares e5"), "{}", view(&s));
        // A log with an illegal move does not replay.
        let mut tampered = events.clone();
        let last = tampered.len() - 1;
        let EventBody::Turn { white, .. } = &mut tampered[last].body else {
            panic!("the last event is the third turn")
        };
        white.uci = "f3f5".into();
        assert!(
            GameState::replay(s.id(), &Registry::builtin(), &tampered, &[], &timeline).is_err()
        );
    }
}
